//! The character controller on a test level built in every geometry kind.
//!
//! Guards: the capsule climbs 0.2 m stairs and not a 0.6 m step, walks up 30° and not 60°,
//! stands grounded on flat ground and walkable slopes, stops at walls and in inner corners
//! without jitter, passes a corridor 0.1 m wider than itself, never tunnels at any speed, and
//! after thousands of random moves never ends overlapping anything by more than its skin (nor
//! closer than half a skin to anything).
//! `COLLIDE_LONG=1` runs 100,000 random moves and prints the counts and the cost per move.

use collide::character::{CharacterConfig, CharacterController, CharacterMove};
use collide::convex::ConvexHull;
use collide::io;
use collide::mesh::{Heightfield, MeshCollider};
use collide::shapes::TriMesh;
use collide::world::{BodyDesc, Geometry, QueryFilter, World};
use collide::{Quat, Vec3};
use collide_testkit::{level, Gen};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// 30°: the ramp rises `2 tan 30°` over x in [2, 4].
const RAMP30_TOP: f32 = 1.154_700_5;
/// 60°: the ramp rises `0.75 tan 60°` over x in [2, 2.75].
const RAMP60_TOP: f32 = 1.299_038;
const RAMP60_END: f32 = 2.75;
/// The z of each lane's centre line; every lane starts at x = 2 and runs to x = 6.
const STAIRS_Z: f32 = 0.0;
const TALL_STEP_Z: f32 = 4.0;
const RAMP30_Z: f32 = 8.0;
const RAMP60_Z: f32 = 12.0;
/// The corridor (0.7 m wide, x in [-2, 6]) and the free lane beside the far wall.
const CORRIDOR_Z: f32 = 16.0;
const OPEN_Z: f32 = 18.0;
/// The boundary walls' inner faces.
const WALL_X: (f32, f32) = (-6.0, 8.0);
const WALL_Z: (f32, f32) = (-3.0, 19.0);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Every solid a `Cuboid` (ramps are rotated boxes), ground a box.
    Cuboids,
    /// Every solid a `Hull` (ramps are wedges), ground a `HalfSpace`.
    Hulls,
    /// The whole level one `MeshCollider`, ground a tessellated grid.
    Mesh,
    /// Ground, ramps and their platforms one `Heightfield`; the rest `Cuboid`s.
    Heightfield,
}

const KINDS: [Kind; 4] = [Kind::Cuboids, Kind::Hulls, Kind::Mesh, Kind::Heightfield];

/// An axis-aligned solid box of the level.
#[derive(Clone, Copy)]
struct Block {
    min: Vec3,
    max: Vec3,
}

fn block(min: Vec3, max: Vec3) -> Block {
    Block { min, max }
}

/// Stairs, the tall step, the ramp platforms, the corridor and the boundary walls.
fn blocks(with_ramp_platforms: bool) -> Vec<Block> {
    let mut out = Vec::new();
    for i in 0..5 {
        let x = 2.0 + 0.4 * i as f32;
        out.push(block(
            Vec3::new(x, 0.0, STAIRS_Z - 1.0),
            Vec3::new(6.0, 0.2 * (i + 1) as f32, STAIRS_Z + 1.0),
        ));
    }
    out.push(block(
        Vec3::new(2.0, 0.0, TALL_STEP_Z - 1.0),
        Vec3::new(6.0, 0.6, TALL_STEP_Z + 1.0),
    ));
    if with_ramp_platforms {
        out.push(block(
            Vec3::new(4.0, 0.0, RAMP30_Z - 1.0),
            Vec3::new(6.0, RAMP30_TOP, RAMP30_Z + 1.0),
        ));
        out.push(block(
            Vec3::new(RAMP60_END, 0.0, RAMP60_Z - 1.0),
            Vec3::new(6.0, RAMP60_TOP, RAMP60_Z + 1.0),
        ));
    }
    // The corridor: inner faces at z = 15.65 and 16.35, 0.3 m thick.
    out.push(block(
        Vec3::new(-2.0, 0.0, CORRIDOR_Z - 0.65),
        Vec3::new(6.0, 2.5, CORRIDOR_Z - 0.35),
    ));
    out.push(block(
        Vec3::new(-2.0, 0.0, CORRIDOR_Z + 0.35),
        Vec3::new(6.0, 2.5, CORRIDOR_Z + 0.65),
    ));
    // Boundary walls, 0.5 m thick, 4 m high.
    let (x0, x1) = WALL_X;
    let (z0, z1) = WALL_Z;
    out.push(block(
        Vec3::new(x0 - 0.5, 0.0, z0 - 0.5),
        Vec3::new(x0, 4.0, z1 + 0.5),
    ));
    out.push(block(
        Vec3::new(x1, 0.0, z0 - 0.5),
        Vec3::new(x1 + 0.5, 4.0, z1 + 0.5),
    ));
    out.push(block(Vec3::new(x0, 0.0, z0 - 0.5), Vec3::new(x1, 4.0, z0)));
    out.push(block(Vec3::new(x0, 0.0, z1), Vec3::new(x1, 4.0, z1 + 0.5)));
    out
}

/// A ramp rising along +x from ground level at `x0` to `top` at `x1`, 2 m wide around `z`.
#[derive(Clone, Copy)]
struct Ramp {
    x0: f32,
    x1: f32,
    top: f32,
    z: f32,
}

const RAMPS: [Ramp; 2] = [
    Ramp {
        x0: 2.0,
        x1: 4.0,
        top: RAMP30_TOP,
        z: RAMP30_Z,
    },
    Ramp {
        x0: 2.0,
        x1: RAMP60_END,
        top: RAMP60_TOP,
        z: RAMP60_Z,
    },
];

impl Ramp {
    /// The solid wedge under the slope.
    fn wedge(&self) -> [Vec3; 6] {
        let (z0, z1) = (self.z - 1.0, self.z + 1.0);
        [
            Vec3::new(self.x0, 0.0, z0),
            Vec3::new(self.x0, 0.0, z1),
            Vec3::new(self.x1, 0.0, z0),
            Vec3::new(self.x1, 0.0, z1),
            Vec3::new(self.x1, self.top, z0),
            Vec3::new(self.x1, self.top, z1),
        ]
    }

    /// A box 0.5 m thick whose top face is the slope, rotated about z (it reaches below ground).
    fn rotated_box(&self) -> BodyDesc {
        let run = self.x1 - self.x0;
        let angle = (self.top / run).atan();
        let length = (run * run + self.top * self.top).sqrt();
        let thickness = 0.5;
        let up = Vec3::new(-angle.sin(), angle.cos(), 0.0);
        let top_centre = Vec3::new(self.x0 + run * 0.5, self.top * 0.5, self.z);
        BodyDesc::new(Geometry::Cuboid(Vec3::new(
            length * 0.5,
            thickness * 0.5,
            1.0,
        )))
        .at(top_centre - up * thickness * 0.5)
        .rotated(Quat::from_rotation_z(angle))
        .fixed()
    }

    /// The slope's height at `x` (flat `top` beyond `x1`, up to x = 6), or `None` off the ramp.
    fn height(&self, x: f32, z: f32) -> Option<f32> {
        let on = (self.z - 1.0..=self.z + 1.0).contains(&z) && (self.x0..=6.0).contains(&x);
        on.then(|| ((x - self.x0) / (self.x1 - self.x0)).min(1.0) * self.top)
    }
}

fn corners(b: &Block) -> [Vec3; 8] {
    let (lo, hi) = (b.min, b.max);
    [
        Vec3::new(lo.x, lo.y, lo.z),
        Vec3::new(hi.x, lo.y, lo.z),
        Vec3::new(lo.x, hi.y, lo.z),
        Vec3::new(hi.x, hi.y, lo.z),
        Vec3::new(lo.x, lo.y, hi.z),
        Vec3::new(hi.x, lo.y, hi.z),
        Vec3::new(lo.x, hi.y, hi.z),
        Vec3::new(hi.x, hi.y, hi.z),
    ]
}

fn cuboid(b: &Block) -> BodyDesc {
    BodyDesc::new(Geometry::Cuboid((b.max - b.min) * 0.5))
        .at((b.max + b.min) * 0.5)
        .fixed()
}

fn hull(points: &[Vec3]) -> BodyDesc {
    BodyDesc::new(Geometry::Hull(Arc::new(
        ConvexHull::try_new(points).unwrap(),
    )))
    .fixed()
}

/// Appends the 12 triangles of a box (outward winding; meshes are two-sided anyway).
fn add_box(mesh: &mut TriMesh, b: &Block) {
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend(corners(b));
    // Corner i has x from bit 0, y from bit 1, z from bit 2.
    let faces = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    for [a, b, c, d] in faces {
        mesh.triangles.push([base + a, base + b, base + c]);
        mesh.triangles.push([base + a, base + c, base + d]);
    }
}

/// Appends a ramp's slope and its two side faces and end face.
fn add_ramp(mesh: &mut TriMesh, ramp: &Ramp) {
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend(ramp.wedge());
    // 0,1 the low edge; 2,3 the high end at ground; 4,5 the top edge.
    for t in [
        [0, 1, 5],
        [0, 5, 4],
        [0, 4, 2],
        [1, 3, 5],
        [2, 4, 5],
        [2, 5, 3],
    ] {
        mesh.triangles.push(t.map(|i| base + i));
    }
}

/// The bunny, 1.5 m tall, standing on the ground at (-3, 0, 6): a real mesh as an obstacle.
fn bunny() -> BodyDesc {
    let path = format!(
        "{}/../../assets/meshes/bunny.obj",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut mesh = io::load(path).unwrap().merged();
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for v in &mesh.vertices {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    let scale = 1.5 / (hi.y - lo.y);
    let foot = Vec3::new((lo.x + hi.x) * 0.5, lo.y, (lo.z + hi.z) * 0.5);
    for v in &mut mesh.vertices {
        *v = (*v - foot) * scale;
    }
    BodyDesc::new(Geometry::Mesh(Arc::new(
        MeshCollider::try_new(mesh).unwrap(),
    )))
    .at(Vec3::new(-3.0, 0.0, 6.0))
    .fixed()
}

/// The level in one geometry kind. Ground is y = 0 over x in [-8, 10], z in [-5, 21].
fn build(kind: Kind) -> World {
    let mut world = World::default();
    let mut add = |desc: BodyDesc| {
        world.add_body(desc).unwrap();
    };
    add(bunny());
    match kind {
        Kind::Cuboids => {
            add(cuboid(&block(
                Vec3::new(-8.0, -1.0, -5.0),
                Vec3::new(10.0, 0.0, 21.0),
            )));
            blocks(true).iter().for_each(|b| add(cuboid(b)));
            RAMPS.iter().for_each(|r| add(r.rotated_box()));
        }
        Kind::Hulls => {
            add(BodyDesc::new(Geometry::HalfSpace).fixed());
            blocks(true).iter().for_each(|b| add(hull(&corners(b))));
            RAMPS.iter().for_each(|r| add(hull(&r.wedge())));
        }
        Kind::Mesh => {
            // The 26 x 26 unit grid centred on the origin, moved under the level.
            let mut mesh = level::floor(26, |r, c| (r + c) % 2 == 0);
            for v in &mut mesh.vertices {
                *v += Vec3::new(1.0, 0.0, 8.0);
            }
            blocks(true).iter().for_each(|b| add_box(&mut mesh, b));
            RAMPS.iter().for_each(|r| add_ramp(&mut mesh, r));
            add(BodyDesc::new(Geometry::Mesh(Arc::new(
                MeshCollider::try_new(mesh).unwrap(),
            )))
            .fixed());
        }
        Kind::Heightfield => {
            // Samples every 0.25 m: the ramps' ends fall on samples.
            let (cols, rows) = (73, 105);
            let mut heights = Vec::with_capacity(rows * cols);
            for r in 0..rows {
                for c in 0..cols {
                    let (x, z) = (-8.0 + 0.25 * c as f32, -5.0 + 0.25 * r as f32);
                    heights.push(
                        RAMPS
                            .iter()
                            .find_map(|ramp| ramp.height(x, z))
                            .unwrap_or(0.0),
                    );
                }
            }
            let field =
                Heightfield::try_new(heights, rows, cols, Vec3::new(18.0, 1.0, 26.0)).unwrap();
            add(BodyDesc::new(Geometry::Heightfield(Arc::new(field)))
                .at(Vec3::new(1.0, 0.0, 8.0))
                .fixed());
            blocks(false).iter().for_each(|b| add(cuboid(b)));
        }
    }
    world
}

fn config() -> CharacterConfig {
    CharacterConfig::default()
}

/// The centre of a capsule standing on ground at height `ground`, a skin above it.
fn standing(x: f32, ground: f32, z: f32) -> Vec3 {
    let c = config();
    Vec3::new(x, ground + c.half_height + c.radius + c.skin, z)
}

fn foot(position: Vec3) -> f32 {
    let c = config();
    position.y - c.half_height - c.radius
}

/// Whether the capsule shrunk by its skin overlaps anything (the contract's limit).
fn overlaps_beyond_skin(world: &World, position: Vec3) -> bool {
    let c = config();
    let shrunk = Geometry::Capsule {
        half_height: c.half_height,
        radius: c.radius - c.skin,
    };
    !world
        .overlap_shape(&shrunk, position, Quat::IDENTITY, &QueryFilter::default())
        .is_empty()
}

/// Whether the full capsule overlaps anything.
fn overlaps(world: &World, position: Vec3) -> bool {
    let c = config();
    let capsule = Geometry::Capsule {
        half_height: c.half_height,
        radius: c.radius,
    };
    !world
        .overlap_shape(&capsule, position, Quat::IDENTITY, &QueryFilter::default())
        .is_empty()
}

/// The full capsule's distance to the nearest body (0 when it touches or overlaps; up to a
/// skin, more is reported as a skin).
fn gap(world: &World, position: Vec3) -> f32 {
    let c = config();
    let capsule = Geometry::Capsule {
        half_height: c.half_height,
        radius: c.radius,
    };
    world
        .shape_distance(
            &capsule,
            position,
            Quat::IDENTITY,
            c.skin,
            &QueryFilter::default(),
        )
        .map_or(c.skin, |d| d.distance)
}

/// A walk at a constant horizontal velocity under gravity, 60 frames a second.
struct Walk {
    controller: CharacterController,
    position: Vec3,
    fall_speed: f32,
    frames: Vec<CharacterMove>,
}

const DT: f32 = 1.0 / 60.0;

impl Walk {
    fn new(world: &World, start: Vec3) -> Walk {
        assert!(!overlaps(world, start), "the walk starts clear at {start}");
        Walk {
            controller: CharacterController::new(config()),
            position: start,
            fall_speed: 0.0,
            frames: Vec::new(),
        }
    }

    /// Walks for `seconds` at `velocity` (horizontal), or until `stop` says so.
    fn run(&mut self, world: &World, velocity: Vec3, seconds: f32, stop: impl Fn(Vec3) -> bool) {
        for _ in 0..(seconds / DT) as usize {
            let motion = velocity * DT - Vec3::Y * self.fall_speed * DT;
            let step = self.controller.move_and_slide(
                world,
                self.position,
                motion,
                &QueryFilter::default(),
            );
            assert!(
                !overlaps_beyond_skin(world, step.position),
                "ended overlapping at {} after {} from {}",
                step.position,
                motion,
                self.position
            );
            self.fall_speed = if step.grounded {
                0.0
            } else {
                self.fall_speed + 9.81 * DT
            };
            self.position = step.position;
            self.frames.push(step);
            if stop(self.position) {
                break;
            }
        }
    }

    fn grounded_share(&self) -> f32 {
        let grounded = self.frames.iter().filter(|f| f.grounded).count();
        grounded as f32 / self.frames.len() as f32
    }

    fn highest_foot(&self) -> f32 {
        self.frames
            .iter()
            .map(|f| foot(f.position))
            .fold(f32::MIN, f32::max)
    }
}

#[test]
fn climbs_the_stairs_of_0_2_m_steps() {
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(0.0, 0.0, STAIRS_Z));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.0), 4.0, |p| p.x > 4.5);
        let end = walk.position;
        assert!(end.x > 4.5, "{kind:?}: stuck on the stairs at {end}");
        assert!(
            (foot(end) - 1.0).abs() < 0.05,
            "{kind:?}: on the top step? foot {}",
            foot(end)
        );
        assert!(walk.frames.last().unwrap().grounded, "{kind:?}");
    }
}

#[test]
fn does_not_climb_the_0_6_m_step() {
    let c = config();
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(0.0, 0.0, TALL_STEP_Z));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.0), 3.0, |_| false);
        let end = walk.position;
        assert!(
            end.x < 2.0 - c.radius + 1e-3,
            "{kind:?}: went past the step face: {end}"
        );
        assert!(
            end.x > 2.0 - c.radius - 2.0 * c.skin - 1e-3,
            "{kind:?}: stopped early: {end}"
        );
        assert!(
            walk.highest_foot() < 0.05,
            "{kind:?}: rose to {}",
            walk.highest_foot()
        );
        assert!(walk.frames.last().unwrap().grounded, "{kind:?}");
    }
}

#[test]
fn walks_up_the_30_degree_ramp_grounded() {
    let walkable = (30f32).to_radians().cos();
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(0.0, 0.0, RAMP30_Z));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.0), 5.0, |p| p.x > 4.5);
        let end = walk.position;
        assert!(end.x > 4.5, "{kind:?}: stuck on the 30° ramp at {end}");
        assert!(
            (foot(end) - RAMP30_TOP).abs() < 0.05,
            "{kind:?}: foot {}",
            foot(end)
        );
        assert!(
            walk.grounded_share() == 1.0,
            "{kind:?}: grounded {}",
            walk.grounded_share()
        );
        // On the slope the ground normal is the slope's.
        let on_slope = walk
            .frames
            .iter()
            .filter(|f| (2.5..3.5).contains(&f.position.x))
            .collect::<Vec<_>>();
        assert!(!on_slope.is_empty());
        for f in on_slope {
            let n = f.ground_normal.unwrap();
            assert!((n.y - walkable).abs() < 0.01, "{kind:?}: slope normal {n}");
        }
    }
}

#[test]
fn does_not_walk_up_the_60_degree_ramp() {
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(0.0, 0.0, RAMP60_Z));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.0), 3.0, |_| false);
        let end = walk.position;
        assert!(
            walk.highest_foot() < 0.1,
            "{kind:?}: climbed to {}",
            walk.highest_foot()
        );
        assert!(end.x < 2.0, "{kind:?}: {end}");
        assert!(walk.frames.last().unwrap().grounded, "{kind:?}");
    }
}

#[test]
fn does_not_climb_the_60_degree_ramp_walking_across_it() {
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(0.0, 0.0, RAMP60_Z - 0.8));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.5), 2.5, |_| false);
        assert!(
            walk.highest_foot() < 0.1,
            "{kind:?}: climbed to {}",
            walk.highest_foot()
        );
        assert!(
            walk.position.z > RAMP60_Z,
            "{kind:?}: slid along it to {}",
            walk.position
        );
    }
}

#[test]
fn slides_down_the_60_degree_ramp_ungrounded() {
    for kind in KINDS {
        let world = build(kind);
        // Dropped over the slope: it lands on it, slides down and stands on the ground below.
        let mut walk = Walk::new(&world, standing(2.4, 1.5, RAMP60_Z));
        walk.run(&world, Vec3::ZERO, 2.0, |_| false);
        let end = walk.frames.last().unwrap();
        assert!(
            end.grounded && foot(end.position).abs() < 0.03,
            "{kind:?}: {}",
            end.position
        );
        assert!(end.position.x < 2.0, "{kind:?}: {}", end.position);
        // Never grounded on the slope itself.
        for f in &walk.frames {
            if let Some(n) = f.ground_normal {
                assert!(n.y > 0.99, "{kind:?}: grounded on {n} at {}", f.position);
            }
        }
    }
}

#[test]
fn walks_down_the_stairs_and_off_the_tall_step() {
    for kind in KINDS {
        let world = build(kind);
        // Down the 0.2 m stairs: snapping keeps it on them all the way.
        let mut walk = Walk::new(&world, standing(5.5, 1.0, STAIRS_Z));
        walk.run(&world, Vec3::new(-2.0, 0.0, 0.0), 2.5, |_| false);
        let end = walk.frames.last().unwrap();
        assert!(
            end.grounded && foot(end.position).abs() < 0.03,
            "{kind:?}: {}",
            end.position
        );
        let share = walk.grounded_share();
        println!(
            "{kind:?}: grounded on {:.0}% of the frames down the stairs",
            share * 100.0
        );
        assert_eq!(share, 1.0, "{kind:?}");
        // Off the 0.6 m step (more than the snap distance): it falls, then lands.
        let mut walk = Walk::new(&world, standing(3.0, 0.6, TALL_STEP_Z));
        walk.run(&world, Vec3::new(-2.0, 0.0, 0.0), 2.0, |_| false);
        assert!(
            walk.frames.iter().any(|f| !f.grounded),
            "{kind:?}: it never left the ground"
        );
        let end = walk.frames.last().unwrap();
        assert!(
            end.grounded && foot(end.position).abs() < 0.03,
            "{kind:?}: {}",
            end.position
        );
    }
}

#[test]
fn stands_grounded_on_flat_ground_with_an_up_normal() {
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(-5.0, 0.0, 1.0));
        walk.run(&world, Vec3::new(2.0, 0.0, 0.5), 2.0, |_| false);
        assert_eq!(walk.grounded_share(), 1.0, "{kind:?}");
        for f in &walk.frames {
            assert!(
                f.ground_normal.unwrap().y > 0.999,
                "{kind:?}: {:?}",
                f.ground_normal
            );
            assert!(foot(f.position).abs() < 0.03, "{kind:?}: {}", f.position);
        }
    }
}

#[test]
fn stops_at_a_wall_and_in_an_inner_corner_without_jitter() {
    let c = config();
    let stop_x = WALL_X.1 - c.radius - c.skin;
    let stop_z = WALL_Z.1 - c.radius - c.skin;
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(6.5, 0.0, OPEN_Z - 1.0));
        walk.run(&world, Vec3::new(3.0, 0.0, 0.0), 1.5, |_| false);
        assert!(
            (walk.position.x - stop_x).abs() < 2e-3,
            "{kind:?}: {}",
            walk.position
        );
        // Diagonally into the corner of the far walls: it slides into the corner and stays.
        walk.run(&world, Vec3::new(3.0, 0.0, 3.0), 2.0, |_| false);
        let end = walk.position;
        assert!(
            (end.x - stop_x).abs() < 2e-3 && (end.z - stop_z).abs() < 2e-3,
            "{kind:?}: {end}"
        );
        let last = &walk.frames[walk.frames.len() - 30..];
        for pair in last.windows(2) {
            let jitter = (pair[1].position - pair[0].position).length();
            assert!(jitter < 1e-4, "{kind:?}: jitter {jitter}");
        }
    }
}

#[test]
fn passes_a_corridor_a_little_wider_than_itself() {
    for kind in KINDS {
        let world = build(kind);
        let mut walk = Walk::new(&world, standing(-4.0, 0.0, CORRIDOR_Z));
        // Slightly across the corridor: it slides along the walls.
        walk.run(&world, Vec3::new(3.0, 0.0, 0.3), 4.0, |p| p.x > 6.5);
        assert!(
            walk.position.x > 6.5,
            "{kind:?}: stuck in the corridor at {}",
            walk.position
        );
        assert_eq!(walk.grounded_share(), 1.0, "{kind:?}");
    }
}

#[test]
fn does_not_tunnel_at_any_speed() {
    let c = config();
    for kind in KINDS {
        let world = build(kind);
        for speed in [10.0, 1e3, 1e5] {
            let mut controller = CharacterController::new(c);
            let start = standing(0.0, 0.0, OPEN_Z);
            let step = controller.move_and_slide(
                &world,
                start,
                Vec3::new(speed, 0.0, 0.0),
                &QueryFilter::default(),
            );
            assert!(
                step.position.x <= WALL_X.1 - c.radius,
                "{kind:?} {speed}: {}",
                step.position
            );
            assert!(
                step.position.x > WALL_X.1 - c.radius - 0.1,
                "{kind:?} {speed}: {}",
                step.position
            );
            // Straight down, fast: it lands on the ground, not under it.
            let drop = controller.move_and_slide(
                &world,
                standing(-5.0, 1.0, 1.0),
                Vec3::new(0.0, -speed, 0.0),
                &QueryFilter::default(),
            );
            assert!(
                (foot(drop.position) - c.skin).abs() < 1e-3,
                "{kind:?} {speed}: {}",
                drop.position
            );
            assert!(drop.grounded, "{kind:?} {speed}");
        }
    }
}

#[test]
fn a_long_dash_up_the_ramp_stays_on_it_and_its_platform() {
    for kind in KINDS {
        let world = build(kind);
        let mut controller = CharacterController::new(config());
        // 5 m in one move: up the 30° ramp (x 2 to 4) and onto its platform, not into the air.
        let step = controller.move_and_slide(
            &world,
            standing(0.0, 0.0, RAMP30_Z),
            Vec3::new(5.0, 0.0, 0.0),
            &QueryFilter::default(),
        );
        assert!(step.grounded, "{kind:?}: {}", step.position);
        assert!(
            (foot(step.position) - RAMP30_TOP).abs() < 0.03,
            "{kind:?}: {}",
            step.position
        );
        // On the platform: the slope eats some of the motion (a slide keeps its projection).
        assert!(step.position.x > 4.0, "{kind:?}: {}", step.position);
    }
}

#[test]
fn starts_overlapping_and_is_pushed_out() {
    for kind in KINDS {
        let world = build(kind);
        let mut controller = CharacterController::new(config());
        // Sunk 0.1 m into flat ground; 0.1 m into the wall of the tall step.
        for start in [standing(-5.0, -0.1, 1.0), standing(1.8, 0.0, TALL_STEP_Z)] {
            assert!(overlaps(&world, start), "{kind:?}: the start overlaps");
            let step =
                controller.move_and_slide(&world, start, Vec3::ZERO, &QueryFilter::default());
            assert!(
                !overlaps(&world, step.position),
                "{kind:?}: {start} -> {}",
                step.position
            );
            assert!(
                (step.position - start).length() < 0.2,
                "{kind:?}: {}",
                step.position
            );
        }
    }
}

#[test]
fn bad_input_returns_the_position_unchanged_and_ungrounded() {
    let world = build(Kind::Cuboids);
    let mut controller = CharacterController::new(config());
    let start = standing(-5.0, 0.0, 1.0);
    let filter = QueryFilter::default();
    for (position, motion) in [
        (start, Vec3::new(f32::NAN, 0.0, 0.0)),
        (start, Vec3::new(0.0, f32::INFINITY, 0.0)),
        (Vec3::new(f32::NAN, 1.0, 0.0), Vec3::X),
        (Vec3::new(0.0, f32::NEG_INFINITY, 0.0), Vec3::X),
    ] {
        let step = controller.move_and_slide(&world, position, motion, &filter);
        assert!(step.position == position || (step.position.is_nan() && position.is_nan()));
        assert!(!step.grounded && step.ground_normal.is_none());
    }
    for bad in [
        CharacterConfig {
            radius: 0.0,
            ..config()
        },
        CharacterConfig {
            radius: f32::NAN,
            ..config()
        },
        CharacterConfig {
            half_height: -1.0,
            ..config()
        },
    ] {
        let step = CharacterController::new(bad).move_and_slide(&world, start, Vec3::X, &filter);
        assert_eq!((step.position, step.grounded), (start, false));
    }
    // NaN limits read as 0: no steps, no snapping, nothing walkable but level ground.
    let odd = CharacterController::new(CharacterConfig {
        skin: f32::NAN,
        max_slope: f32::NAN,
        step_height: f32::INFINITY,
        snap_distance: -1.0,
        ..config()
    })
    .config();
    assert_eq!(
        (odd.skin, odd.max_slope, odd.step_height, odd.snap_distance),
        (0.0, 0.0, 0.0, 0.0)
    );
}

/// Counts from a run of random moves.
#[derive(Debug, Default)]
struct Tally {
    moves: usize,
    overlaps_beyond_skin: usize,
    overlaps_full_capsule: usize,
    closer_than_half_skin: usize,
    flat_moves: usize,
    flat_grounded: usize,
    respawns: usize,
    time: Duration,
    /// Moves no longer than a frame's walk or fall (0.3 m), and their time.
    short_moves: usize,
    short_time: Duration,
}

/// A random place where the capsule, grown by its skin, overlaps nothing.
fn spawn(world: &World, g: &mut Gen) -> Vec3 {
    let c = config();
    let grown = Geometry::Capsule {
        half_height: c.half_height,
        radius: c.radius + c.skin,
    };
    loop {
        let p = Vec3::new(
            g.range(WALL_X.0 + 0.5, WALL_X.1 - 0.5),
            g.range(1.0, 2.0),
            g.range(WALL_Z.0 + 0.5, WALL_Z.1 - 0.5),
        );
        if world
            .overlap_shape(&grown, p, Quat::IDENTITY, &QueryFilter::default())
            .is_empty()
        {
            return p;
        }
    }
}

/// A random move: mostly a frame's walk (with gravity or a jump), sometimes a long dash.
fn random_motion(g: &mut Gen) -> Vec3 {
    let roll = g.range(0.0, 1.0);
    let reach = if roll < 0.9 {
        g.range(0.0, 0.3)
    } else if roll < 0.99 {
        g.range(0.3, 3.0)
    } else {
        g.range(3.0, 100.0)
    };
    let heading = g.range(0.0, std::f32::consts::TAU);
    let vertical = if g.range(0.0, 1.0) < 0.1 {
        g.range(0.0, 0.3)
    } else {
        -g.range(0.0, 0.3)
    };
    Vec3::new(heading.cos() * reach, vertical, heading.sin() * reach)
}

fn random_moves(kind: Kind, moves: usize, seed: u64) -> Tally {
    let world = build(kind);
    let mut g = Gen::new(seed);
    let mut controller = CharacterController::new(config());
    let mut tally = Tally::default();
    let mut position = spawn(&world, &mut g);
    let filter = QueryFilter::default();
    for _ in 0..moves {
        let motion = random_motion(&mut g);
        let position_before = position;
        let started = Instant::now();
        let step = controller.move_and_slide(&world, position, motion, &filter);
        let took = started.elapsed();
        tally.time += took;
        tally.moves += 1;
        if motion.length() <= 0.3 {
            tally.short_moves += 1;
            tally.short_time += took;
        }
        assert!(step.position.is_finite());
        if overlaps_beyond_skin(&world, step.position) {
            tally.overlaps_beyond_skin += 1;
            eprintln!(
                "{kind:?}: overlap beyond skin at {} after {motion} from {position}",
                step.position
            );
        }
        if overlaps(&world, step.position) {
            tally.overlaps_full_capsule += 1;
        }
        tally.closer_than_half_skin +=
            usize::from(gap(&world, step.position) < config().skin * 0.5);
        // Flat open ground: before the lanes, away from the bunny and the walls, standing low.
        let p = step.position;
        let flat = p.x > WALL_X.0 + 0.5 && p.x < 1.5 && (p.z < 4.0 || p.z > 8.0) && p.z < 15.0;
        if flat && motion.y <= 0.0 && foot(p) < 0.03 {
            tally.flat_moves += 1;
            tally.flat_grounded += usize::from(step.grounded);
        }
        position = step.position;
        let escaped = !(WALL_X.0..=WALL_X.1).contains(&p.x)
            || !(WALL_Z.0..=WALL_Z.1).contains(&p.z)
            || p.y < 0.0;
        if escaped {
            eprintln!("{kind:?}: escaped to {p} after {motion} from {position_before}");
        }
        if escaped || g.range(0.0, 1.0) < 0.01 {
            tally.respawns += usize::from(escaped);
            position = spawn(&world, &mut g);
        }
    }
    tally
}

fn check(kind: Kind, tally: &Tally) {
    println!(
        "{kind:?}: {} moves, {} beyond skin, {} full-capsule overlaps, {} closer than half a skin, flat grounded {}/{}, escapes {}, {:.2} µs/move ({:.2} µs over the {} moves of 0.3 m or less)",
        tally.moves,
        tally.overlaps_beyond_skin,
        tally.overlaps_full_capsule,
        tally.closer_than_half_skin,
        tally.flat_grounded,
        tally.flat_moves,
        tally.respawns,
        tally.time.as_secs_f64() * 1e6 / tally.moves as f64,
        tally.short_time.as_secs_f64() * 1e6 / tally.short_moves.max(1) as f64,
        tally.short_moves
    );
    assert_eq!(tally.overlaps_beyond_skin, 0, "{kind:?}");
    assert_eq!(tally.closer_than_half_skin, 0, "{kind:?}");
    assert_eq!(tally.respawns, 0, "{kind:?}: escaped the level");
    assert!(tally.flat_moves > 0);
    assert_eq!(tally.flat_grounded, tally.flat_moves, "{kind:?}");
}

#[test]
fn random_moves_never_end_overlapping_beyond_the_skin() {
    let long = std::env::var("COLLIDE_LONG").is_ok_and(|v| v == "1");
    let per_kind = if long { 25_000 } else { 1_000 };
    for (i, kind) in KINDS.into_iter().enumerate() {
        let tally = random_moves(kind, per_kind, 17 + i as u64);
        check(kind, &tally);
    }
}

#[test]
fn does_not_stop_short_on_a_million_metre_move() {
    let c = config();
    for kind in KINDS {
        let world = build(kind);
        let mut controller = CharacterController::new(c);
        let step = controller.move_and_slide(
            &world,
            standing(0.0, 0.0, OPEN_Z),
            Vec3::new(1e6, 0.0, 0.0),
            &QueryFilter::default(),
        );
        assert!(
            step.position.x > WALL_X.1 - c.radius - 0.1,
            "{kind:?}: {}",
            step.position
        );
    }
}
