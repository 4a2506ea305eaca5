//! The demo's arena: a few thousand bodies of the real meshes (built into the binary) and
//! primitives, tumbling in a box with a few fast projectiles. This module makes the scene and
//! moves it; the collision pipeline that runs on it lives with the `demo` command.

use collide::io::scene::{BoundingChoice, ConvexMode, SceneBody, ShapeDesc, TestChoice};
use collide::world::PairContact;
use collide::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::scene::{Body, MeshCache, Stage};
use crate::CliError;

/// Meshes built into the binary: name, OBJ text, how it becomes convex, scale, origin.
const MESHES: [(&str, &str, ConvexMode, f32, [f32; 3]); 3] = [
    (
        "bunny",
        include_str!("../../../assets/meshes/bunny.obj"),
        ConvexMode::Hull,
        0.55,
        [0.0, 0.0, 0.0],
    ),
    (
        "duck",
        include_str!("../../../assets/meshes/duck_vhacd.obj"),
        ConvexMode::Pieces,
        0.6,
        [-0.14, 0.87, 0.04],
    ),
    (
        "teddy",
        include_str!("../../../assets/meshes/teddy2_VHACD_CHs.obj"),
        ConvexMode::Pieces,
        1.1,
        [0.68, 0.66, 0.32],
    ),
];

/// The kinds of body, in the order prototypes are built.
const KINDS: [&str; 7] = [
    "bunny",
    "duck",
    "teddy",
    "box",
    "sphere",
    "capsule",
    "projectile",
];

/// A running arena: the bodies (poses and velocities live in them), their spin, the walls.
pub struct Arena {
    /// The bodies, as the program shows them.
    pub world: Stage,
    /// Angular velocity of each body, radians per frame about a world axis.
    pub spin: Vec<Vec3>,
    /// Index into [`KINDS`] of each body.
    pub kind: Vec<usize>,
    /// Half the arena's side: walls at `±half` on every axis.
    pub half: f32,
    /// The floor: a fixed heightfield of gentle dunes across the bottom of the arena (not one
    /// of `world`'s bodies: the world holds it after them).
    pub floor: Body,
}

/// How many of each kind in `n` bodies: projectiles about 1 %, at least 2 (when n allows).
fn mix(n: usize) -> Vec<usize> {
    let projectiles = (n / 100).max(2).min(n / 2);
    let rest = n - projectiles;
    // bunny, duck, teddy, box, sphere, capsule in shares 3:2:2:3:3:2 of 15.
    let shares = [3, 2, 2, 3, 3, 2];
    let mut counts: Vec<usize> = shares.iter().map(|s| rest * s / 15).collect();
    let assigned: usize = counts.iter().sum();
    counts[4] += rest - assigned; // the remainder become spheres
    counts.push(projectiles);
    counts
}

impl Arena {
    /// `n` bodies (2 to 20 000) at random in an arena sized for about one body per 10 unit³,
    /// with random velocities and spins; the seed makes it the same on every machine.
    pub fn new(n: usize, seed: u64) -> Result<Arena, CliError> {
        if !(2..=20_000).contains(&n) {
            return Err(CliError::new(format!(
                "--bodies must be between 2 and 20000 (got {n})"
            )));
        }
        let prototypes = prototypes()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // About one body per 10 unit³: busy enough that many boxes overlap every frame.
        let half = 0.5 * (10.0 * n as f32).cbrt().max(4.0);
        let mut bodies = Vec::with_capacity(n);
        let (mut spin, mut kind) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (k, count) in mix(n).into_iter().enumerate() {
            for _ in 0..count {
                let mut b = prototypes[k].clone();
                b.name = format!("{}{}", KINDS[k], bodies.len());
                let r = b.rest_sphere.radius;
                let room = (half - r).max(0.0);
                // Above the floor's highest dune (a tenth of the half side).
                let low = (-half + FLOOR_HEIGHT * half + r).min(room);
                b.position = Vec3::new(
                    rng.random_range(-room..=room),
                    rng.random_range(low..=room),
                    rng.random_range(-room..=room),
                );
                b.rotation = random_rotation(&mut rng);
                let dir = random_unit(&mut rng);
                if KINDS[k] == "projectile" {
                    // Fast: a third of the arena per frame, many times its own size, so a
                    // test at the end of each frame alone would let it pass through bodies.
                    b.velocity = dir * (0.66 * half);
                    spin.push(Vec3::ZERO);
                } else {
                    b.velocity = dir * rng.random_range(0.01..0.05);
                    spin.push(random_unit(&mut rng) * rng.random_range(0.0..0.06));
                }
                kind.push(k);
                bodies.push(b);
            }
        }
        Ok(Arena {
            world: Stage { bodies },
            spin,
            kind,
            half,
            floor: floor(half)?,
        })
    }

    /// How many bodies of each kind, in kind order.
    pub fn kind_counts(&self) -> Vec<(&'static str, usize)> {
        KINDS
            .iter()
            .enumerate()
            .map(|(k, name)| (*name, self.kind.iter().filter(|&&x| x == k).count()))
            .collect()
    }

    /// `true` when body `i` is a projectile.
    pub fn is_projectile(&self, i: usize) -> bool {
        KINDS[self.kind[i]] == "projectile"
    }
}

/// Samples along each side of the floor.
pub const FLOOR_SAMPLES: usize = 41;

/// The floor's highest point above the bottom wall, as a fraction of the arena's half side.
const FLOOR_HEIGHT: f32 = 0.1;

/// How far the floor reaches from the centre, in half sides of the arena.
pub const FLOOR_REACH: f32 = 1.7;

/// The arena's floor: a heightfield over the whole bottom, `FLOOR_SAMPLES` samples a side,
/// dunes up to `FLOOR_HEIGHT` of the arena's half side high, resting on the bottom wall. It
/// reaches `FLOOR_REACH` times the half side from the centre: past the walls by as far as a
/// projectile (two thirds of the half side per frame) can overshoot them before it turns back,
/// so nothing gets under it.
fn floor(half: f32) -> Result<Body, CliError> {
    let n = FLOOR_SAMPLES;
    let heights = (0..n * n)
        .map(|k| {
            let (u, v) = (
                (k % n) as f32 / (n - 1) as f32,
                (k / n) as f32 / (n - 1) as f32,
            );
            let tau = std::f32::consts::TAU;
            0.5 + 0.25 * (2.0 * tau * u).sin() + 0.25 * (1.5 * tau * v).cos() * (tau * u).cos()
        })
        .collect();
    let mut d = desc(
        "floor",
        ShapeDesc::Heightfield {
            rows: n,
            cols: n,
            heights,
            scale: Vec3::new(2.0, FLOOR_HEIGHT, 2.0)
                * (half * Vec3::new(FLOOR_REACH, 1.0, FLOOR_REACH)),
        },
    );
    d.position = Vec3::new(0.0, -half, 0.0);
    d.fixed = true;
    Body::from_desc(&d, &mut MeshCache::new())
}

/// One body of each kind, built once (hulls and fitted volumes are the costly part).
fn prototypes() -> Result<Vec<Body>, CliError> {
    let base = std::path::Path::new("<built-in>");
    let mut cache = MeshCache::new();
    let mut out = Vec::new();
    for (name, text, convex, scale, origin) in MESHES {
        let file = format!("{name}.obj");
        let model =
            collide::io::load_obj_str(text, &file).map_err(|e| CliError::new(e.to_string()))?;
        cache.insert(base.join(&file), model);
        out.push(Body::from_desc(
            &desc(
                name,
                ShapeDesc::Mesh {
                    path: base.join(&file),
                    convex,
                    scale,
                    part: None,
                    origin: Vec3::from_array(origin),
                },
            ),
            &mut cache,
        )?);
    }
    let shapes = [
        (
            "box",
            ShapeDesc::Cuboid {
                half_extents: Vec3::new(0.5, 0.3, 0.4),
            },
        ),
        ("sphere", ShapeDesc::Sphere { radius: 0.4 }),
        (
            "capsule",
            ShapeDesc::Capsule {
                half_height: 0.4,
                radius: 0.22,
            },
        ),
        ("projectile", ShapeDesc::Sphere { radius: 0.12 }),
    ];
    for (name, shape) in shapes {
        out.push(Body::from_desc(&desc(name, shape), &mut cache)?);
    }
    Ok(out)
}

fn desc(name: &str, shape: ShapeDesc) -> SceneBody {
    SceneBody {
        name: name.to_string(),
        shape,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        velocity: Vec3::ZERO,
        bounding: BoundingChoice::Aabb,
        test: TestChoice::Exact,
        fixed: false,
    }
}

/// A direction drawn uniformly on the sphere (normalised Gaussian-free: rejection in the cube).
fn random_unit(rng: &mut ChaCha8Rng) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let l2 = v.length_squared();
        if l2 > 1e-4 && l2 <= 1.0 {
            return v / l2.sqrt();
        }
    }
}

/// A rotation drawn uniformly (a uniform point on the unit 4-sphere, by rejection).
fn random_rotation(rng: &mut ChaCha8Rng) -> Quat {
    loop {
        let q = Quat::from_xyzw(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let l2 = q.length_squared();
        if l2 > 1e-4 && l2 <= 1.0 {
            return q / l2.sqrt();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The mix adds up, has every kind, and projectiles are a small share.
    #[test]
    fn mix_adds_up() {
        for n in [2, 3, 10, 100, 2000, 20_000] {
            let m = mix(n);
            assert_eq!(m.iter().sum::<usize>(), n, "n = {n}");
            assert_eq!(m.len(), KINDS.len());
        }
        let m = mix(2000);
        assert!(m.iter().all(|&c| c > 0));
        assert_eq!(m[6], 20);
    }

    // Same seed, same arena; bodies stay inside the walls over many frames.
    #[test]
    fn arena_is_seeded_and_bounded() {
        let a = Arena::new(300, 7).expect("arena");
        let b = Arena::new(300, 7).expect("arena");
        assert_eq!(a.world.bodies.len(), 300);
        for (x, y) in a.world.bodies.iter().zip(&b.world.bodies) {
            assert_eq!(
                (x.position, x.rotation, x.velocity),
                (y.position, y.rotation, y.velocity)
            );
        }
        let mut a = a;
        let mut pipe = Pipeline::new(&a).expect("pipeline");
        for _ in 0..200 {
            pipe.step(&mut a);
        }
        let slack = a
            .world
            .bodies
            .iter()
            .map(|b| b.velocity.length())
            .fold(0.0, f32::max)
            + 2.0;
        for b in &a.world.bodies {
            assert!(
                b.position.abs().max_element() < a.half + slack,
                "{}",
                b.name
            );
        }
        assert!(Arena::new(1, 0).is_err() && Arena::new(20_001, 0).is_err());
    }
}

/// What one frame of the world's pipeline saw, stage by stage (from
/// [`collide::world::FrameStats`]), plus the tunnels its sweeps closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct FrameStats {
    /// Bodies moving fast enough this frame to be swept.
    pub fast_bodies: usize,
    /// Pairs whose boxes (swept for fast bodies) overlap: the broad phase's output.
    pub broad_pairs: usize,
    /// Of those, pairs whose bounding spheres overlap.
    pub sphere_pairs: usize,
    /// Of those, pairs whose bounding OBBs overlap too (15-axis SAT); swept pairs skip it.
    pub obb_pairs: usize,
    /// Pairs in contact now, or meeting within the frame (a fast body's sweep).
    pub collisions: usize,
    /// Of the collisions, those found by a sweep, with a time of impact.
    pub impacts: usize,
    /// Bodies touching the floor, or meeting it within the frame (not counted in
    /// `collisions`, which are between bodies).
    pub floor_contacts: usize,
    /// Separating-axis tests answered by the feature cached from the last frame.
    pub cache_hits: u64,
    /// Separating-axis tests that needed the full search.
    pub cache_misses: u64,
    /// Sweep hits that a test at the start and one at the end of the frame both miss: the
    /// fast body would have passed through.
    pub tunnelling_prevented: usize,
    /// Time in the world's update (bounds, broad phase, narrow phase, events), microseconds.
    pub update_us: u64,
}

/// Frames per second of the simulation: velocities are given per frame and scaled by it.
const FPS: f32 = 60.0;

/// The arena run through [`collide::world::World`]: the world finds the collisions; this
/// responds to them (elastic along the normal, mass by size; the fixed floor as an infinite
/// mass) and keeps the bodies inside the walls.
pub struct Pipeline {
    world: collide::world::World,
    ids: Vec<collide::world::BodyId>,
    /// The floor's id: the last body added, so the larger id of every pair it is in.
    floor: collide::world::BodyId,
    /// The pairs found colliding in the last frame, as body indices.
    last: Vec<(usize, usize)>,
}

/// A body's mass for the response: the cube of its bounding radius (uniform density), at
/// least a tiny positive number.
fn mass(b: &Body) -> f32 {
    b.rest_sphere.radius.powi(3).max(1e-9)
}

/// What the contacts of one frame ask of each body: its new velocity, a push out of what it
/// penetrates, and the time of its earliest swept impact.
struct Response {
    vel: Vec<Vec3>,
    push: Vec<Vec3>,
    stop: Vec<Option<f32>>,
}

impl Response {
    /// Body `i` goes back to its moment of first contact `toi` (the earliest of its impacts).
    fn stop_at(&mut self, i: usize, toi: f32) {
        self.stop[i] = Some(self.stop[i].map_or(toi, |s| s.min(toi)));
    }
}

impl Pipeline {
    /// A world holding the arena's bodies (hulls built once per kind, by the prototypes) and,
    /// last, its floor.
    pub fn new(arena: &Arena) -> Result<Pipeline, CliError> {
        use collide::world::{BodyDesc, World, WorldConfig};
        // Sweep a body when it moves more than its smallest half-size in a frame: the motion
        // that could carry it through something as thin as itself.
        let config = WorldConfig {
            ccd_fraction: 1.0,
            ..WorldConfig::default()
        };
        let mut world = World::new(config);
        let mut ids = Vec::with_capacity(arena.world.bodies.len());
        for (i, b) in arena.world.bodies.iter().enumerate() {
            // Bodies cloned from one prototype share its hulls (`Arc`s in the geometry).
            let desc = BodyDesc::new(b.geometry.clone())
                .at(b.position)
                .rotated(b.rotation)
                .moving(b.velocity * FPS)
                .spinning(arena.spin[i] * FPS);
            ids.push(
                world
                    .add_body(desc)
                    .map_err(|e| CliError::new(format!("{}: {e}", b.name)))?,
            );
        }
        let floor = world
            .add_body(arena.floor.world_desc())
            .map_err(|e| CliError::new(format!("floor: {e}")))?;
        Ok(Pipeline {
            world,
            ids,
            floor,
            last: Vec::new(),
        })
    }

    /// The pairs of bodies found colliding (touching, penetrating, or met within the frame)
    /// in the last frame run; the floor's contacts are not among them.
    pub fn last_collisions(&self) -> &[(usize, usize)] {
        &self.last
    }

    /// Runs one frame: the world moves every body and finds every collision; then the
    /// response, the walls, and the arena's copy of the poses.
    pub fn step(&mut self, arena: &mut Arena) -> FrameStats {
        // Poses and velocities at the start of the frame.
        let start: Vec<(Vec3, Vec3)> = arena
            .world
            .bodies
            .iter()
            .map(|b| (b.position, b.velocity))
            .collect();
        self.world.step(1.0 / FPS);
        let mut stats = self.frame_stats();
        // The poses the world moved the bodies to.
        for (b, id) in arena.world.bodies.iter_mut().zip(&self.ids) {
            if let Ok((p, q)) = self.world.pose(*id) {
                b.position = p;
                b.rotation = q;
            }
        }
        let n = arena.world.bodies.len();
        let mut r = Response {
            vel: arena.world.bodies.iter().map(|b| b.velocity).collect(),
            push: vec![Vec3::ZERO; n],
            stop: vec![None; n],
        };
        self.last.clear();
        for c in self.world.contacts() {
            let (a, b) = (c.a.0 as usize, c.b.0 as usize);
            if self.tunnel_closed(c) {
                stats.tunnelling_prevented += 1;
            }
            if c.b == self.floor {
                stats.floor_contacts += 1;
                self.floor_response(c, a, &mut r);
            } else {
                self.last.push((a, b));
                self.pair_response(c, &arena.world.bodies, &mut r);
            }
        }
        stats.collisions = self.last.len();
        self.move_bodies(arena, &start, &r);
        stats
    }

    /// The world's statistics of the frame just run (collisions and tunnels are counted by
    /// [`Pipeline::step`]).
    fn frame_stats(&self) -> FrameStats {
        let ws = *self.world.stats();
        FrameStats {
            fast_bodies: ws.fast_bodies,
            broad_pairs: ws.broad_pairs,
            sphere_pairs: ws.broad_pairs - ws.rejected_sphere,
            obb_pairs: ws.broad_pairs - ws.rejected_sphere - ws.rejected_obb,
            collisions: 0,
            impacts: ws.impacts,
            floor_contacts: 0,
            cache_hits: ws.cache_hits,
            cache_misses: ws.cache_misses,
            tunnelling_prevented: 0,
            update_us: (ws.time_bounds + ws.time_broad + ws.time_narrow + ws.time_events)
                .as_micros() as u64,
        }
    }

    /// Would tests at the start and at the end of the frame both have missed this swept
    /// contact? A sweep hit after the start (toi > 0) means the pair was apart at the start
    /// (a pair touching then has toi 0); at the end, ask the world.
    fn tunnel_closed(&self, c: &PairContact) -> bool {
        c.toi.is_some_and(|toi| toi > 0.0)
            && self
                .world
                .evaluate_pair(c.a, c.b, 0.0)
                .is_ok_and(|v| v.contact.is_none())
    }

    /// A penetrating pair's normal and depth at the end of the frame: the contact's own, or,
    /// for a pair swept from a start already overlapping (toi 0, depth 0 at that time), the
    /// exact test's at the end pose. `None` for a pair met later in the frame.
    fn resting(&self, c: &PairContact) -> Option<(Vec3, f32)> {
        match c.toi {
            None => Some((c.manifold.normal, c.manifold.depth)),
            Some(t) if t <= 0.0 => self
                .world
                .evaluate_pair(c.a, c.b, 0.0)
                .ok()
                .and_then(|v| v.contact)
                .map(|k| (k.normal, k.depth)),
            Some(_) => None,
        }
    }

    /// Two bodies: a swept pair goes back to its moment of first contact, a penetrating pair
    /// is pushed half the depth apart each, and the velocities bounce elastically along the
    /// normal when they approach.
    fn pair_response(&self, c: &PairContact, bodies: &[Body], r: &mut Response) {
        let (a, b) = (c.a.0 as usize, c.b.0 as usize);
        if let Some(toi) = c.toi.filter(|&t| t > 0.0) {
            r.stop_at(a, toi);
            r.stop_at(b, toi);
        }
        if let Some((n, depth)) = self.resting(c) {
            // Half the depth each, plus a hair so that they end apart, not touching
            // (touching counts as a contact).
            let d = 0.5 * depth.min(0.5) + 1e-3;
            r.push[a] -= n * d;
            r.push[b] += n * d;
        }
        // Masses as the cube of the bounding radius:
        // va' = va + 2 mb/(ma+mb) (vrel·n) n, vb' = vb - 2 ma/(ma+mb) (vrel·n) n.
        let nrm = c.manifold.normal;
        let rel = (r.vel[b] - r.vel[a]).dot(nrm);
        if rel < 0.0 {
            let (ma, mb) = (mass(&bodies[a]), mass(&bodies[b]));
            r.vel[a] += nrm * (rel * 2.0 * mb / (ma + mb));
            r.vel[b] -= nrm * (rel * 2.0 * ma / (ma + mb));
        }
    }

    /// Body `a` against the floor (B, fixed: an infinite mass): a swept body back to its
    /// moment of first contact (its start, when it started touching and moved deeper: the
    /// floor is a thin surface, and at the end pose the body may be through it), a resting
    /// one pushed out by the whole depth; its velocity reflected about the floor's normal when
    /// it moves into the floor.
    fn floor_response(&self, c: &PairContact, a: usize, r: &mut Response) {
        match c.toi {
            Some(toi) => r.stop_at(a, toi),
            None => r.push[a] -= c.manifold.normal * (c.manifold.depth.min(0.5) + 1e-3),
        }
        // The normal points from the body into the floor.
        let nrm = c.manifold.normal;
        let into = r.vel[a].dot(nrm);
        if into > 0.0 {
            r.vel[a] -= nrm * (2.0 * into);
        }
    }

    /// Every body to its responded pose and velocity, turned back at the walls, and the world
    /// told.
    fn move_bodies(&mut self, arena: &mut Arena, start: &[(Vec3, Vec3)], r: &Response) {
        let half = arena.half;
        for (i, b) in arena.world.bodies.iter_mut().enumerate() {
            let (mut p, q) = (b.position + r.push[i], b.rotation);
            if let Some(u) = r.stop[i] {
                p = start[i].0 + start[i].1 * u;
            }
            // Walls: a body whose bounding sphere crosses one while moving out turns back.
            let mut vel = r.vel[i];
            let radius = b.rest_sphere.radius;
            let c = p + q * b.rest_sphere.center;
            for axis in 0..3 {
                if (c[axis] + radius > half && vel[axis] > 0.0)
                    || (c[axis] - radius < -half && vel[axis] < 0.0)
                {
                    vel[axis] = -vel[axis];
                }
            }
            b.position = p;
            b.velocity = vel;
            // The arena never makes a non-finite pose or velocity, which is all these refuse.
            let _ = self.world.teleport_body(self.ids[i], p, q);
            let _ = self
                .world
                .set_velocity(self.ids[i], vel * FPS, arena.spin[i] * FPS);
        }
    }
}

#[cfg(test)]
mod pipeline_tests {
    use super::*;

    // Stages narrow down; collisions never exceed the pairs that could have them; over a run
    // the separating-axis cache answers some tests.
    #[test]
    fn stages_narrow_down() {
        let mut arena = Arena::new(400, 2).expect("arena");
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let mut total = FrameStats::default();
        for _ in 0..15 {
            let s = pipe.step(&mut arena);
            assert!(s.sphere_pairs <= s.broad_pairs, "{s:?}");
            assert!(s.obb_pairs <= s.sphere_pairs, "{s:?}");
            assert!(s.collisions <= s.sphere_pairs, "{s:?}");
            assert!(s.impacts <= s.collisions && s.tunnelling_prevented <= s.impacts);
            total.cache_hits += s.cache_hits;
            total.collisions += s.collisions;
            total.impacts += s.impacts;
        }
        assert!(total.collisions > 0 && total.impacts > 0, "{total:?}");
        assert!(total.cache_hits > 0, "the cache never hit: {total:?}");
    }

    // The demo and `check` agree: the contacts of the world's frame (midphase, SAT with
    // warm caches) for bodies at rest are the pairs the scene evaluation (`World::evaluate`,
    // what `check`, `render` and `view` report) finds colliding on the same poses.
    #[test]
    fn world_contacts_match_scene_evaluation() {
        let mut arena = Arena::new(300, 4).expect("arena");
        for (i, b) in arena.world.bodies.iter_mut().enumerate() {
            b.velocity = Vec3::ZERO;
            arena.spin[i] = Vec3::ZERO;
        }
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let posed = Stage {
            bodies: arena.world.bodies.clone(),
        };
        pipe.step(&mut arena);
        let mut want: Vec<(usize, usize)> = crate::scene::analyze(&posed)
            .expect("analyze")
            .iter()
            .filter(|r| r.collides())
            .map(|r| (r.a, r.b))
            .collect();
        want.sort_unstable();
        let mut got = pipe.last_collisions().to_vec();
        got.sort_unstable();
        assert!(!want.is_empty());
        assert_eq!(got, want);
    }

    // Two ducks (thin pieces, so the world sweeps them) overlapping and moving together must be
    // pushed apart, not held at their start poses forever by an impact at 0 every frame. With no
    // relative motion there is no impact (the sweeps' starting-touch rule): the pair is in contact
    // at the frame's end, without a time.
    #[test]
    fn overlapping_swept_pair_separates() {
        let protos = prototypes().expect("prototypes");
        let mut a = protos[1].clone();
        let mut b = protos[1].clone();
        a.position = Vec3::ZERO;
        b.position = Vec3::new(0.3, 0.0, 0.0);
        for d in [&mut a, &mut b] {
            d.velocity = Vec3::new(0.0, 0.0, 0.04);
        }
        let mut arena = Arena {
            world: Stage { bodies: vec![a, b] },
            spin: vec![Vec3::ZERO; 2],
            kind: vec![1, 1],
            half: 50.0,
            floor: floor(50.0).expect("floor"),
        };
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let first = pipe.step(&mut arena);
        assert_eq!((first.collisions, first.impacts), (1, 0), "{first:?}");
        for _ in 0..40 {
            pipe.step(&mut arena);
        }
        assert!(pipe.last_collisions().is_empty(), "still stuck together");
    }

    // The floor holds: over 300 frames of a 300-body arena, bodies land on the heightfield
    // (contacts counted), and no body's centre ever ends below the floor's surface under it.
    #[test]
    fn bodies_stay_above_the_floor() {
        let mut arena = Arena::new(300, 3).expect("arena");
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let collide::world::Geometry::Heightfield(field) = arena.floor.geometry.clone() else {
            panic!("the floor is a heightfield")
        };
        let mut on_floor = 0;
        for frame in 0..300 {
            on_floor += pipe.step(&mut arena).floor_contacts;

            for b in &arena.world.bodies {
                let local = b.position - arena.floor.position;
                let down = collide::shapes::Ray::new(
                    Vec3::new(local.x, 2.0 * arena.half, local.z),
                    Vec3::NEG_Y,
                );
                let Some(hit) = field.ray_cast(&down, f32::INFINITY) else {
                    continue; // beyond the floor's edge (inside the walls' slack)
                };
                assert!(
                    local.y > hit.point.y - 1e-3,
                    "frame {frame}: {} at {} is below the floor ({})",
                    b.name,
                    b.position,
                    hit.point.y
                );
            }
        }
        assert!(on_floor > 0, "no body ever touched the floor");
    }

    // A projectile crossing a box in one frame (10 units, the box 1 unit wide): tests at the
    // start and end both miss; the world's sweep finds it, and the response stops it at the
    // box's face and bounces it back.
    #[test]
    fn projectile_through_box_is_caught() {
        let protos = prototypes().expect("prototypes");
        let target = protos[3].clone(); // box, half-extents (0.5, 0.3, 0.4)
        let mut shot = protos[6].clone(); // projectile, radius 0.12
        shot.position = Vec3::new(-5.0, 0.0, 0.0);
        shot.velocity = Vec3::new(10.0, 0.0, 0.0);
        let mut arena = Arena {
            world: Stage {
                bodies: vec![target, shot],
            },
            spin: vec![Vec3::ZERO; 2],
            kind: vec![3, 6],
            half: 50.0,
            floor: floor(50.0).expect("floor"),
        };
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let s = pipe.step(&mut arena);
        assert_eq!(
            (s.collisions, s.impacts, s.tunnelling_prevented),
            (1, 1, 1),
            "{s:?}"
        );
        let shot = &arena.world.bodies[1];
        // First contact when the sphere's front reaches x = -0.5: centre at -0.62.
        collide_testkit::assert_near!(shot.position.x, -0.62, 1e-2);
        assert!(shot.velocity.x < 0.0, "bounced: {}", shot.velocity);
        let hit = arena.world.bodies[0].velocity;
        assert!(
            hit.x > 0.0 && hit.x < 0.1,
            "the heavy box barely moves: {hit}"
        );
    }
}
