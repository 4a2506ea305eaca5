//! Lines of sight through a `World`: which targets a guard can see, and what blocks the others.
//!
//! A guard stands on a floor slab in a room with a wall, a pillar, a turned crate and a few
//! targets (spheres). A target is visible when the first body a ray from the guard's eye toward
//! it meets is the target itself (`World::cast_ray`, exact shapes, nearest hit). The program
//! prints what each sight line meets, asserts the answers a level designer would expect
//! (including that the floor blocks a target buried under it: the "seeing through the floor"
//! bug a misread broad-phase callback causes), and checks 2000 random rays against a brute-force
//! loop over every body's exact ray cast.
//!
//! `cargo run -p collide --example line_of_sight`

use collide::raycast;
use collide::shapes::{Obb, Ray, Sphere};
use collide::world::{BodyDesc, BodyId, Geometry, QueryFilter, World, WorldConfig};
use collide::{Quat, Vec3};

/// A body as the brute-force check sees it: an exact shape at its world pose.
enum Solid {
    Ball(Sphere),
    Block(Obb),
}

impl Solid {
    fn ray_t(&self, ray: &Ray, max_t: f32) -> Option<f32> {
        match self {
            Solid::Ball(s) => raycast::sphere(ray, s, max_t).map(|h| h.t),
            Solid::Block(b) => raycast::obb(ray, b, max_t).map(|h| h.t),
        }
    }
}

/// A small deterministic generator (xorshift64*) for the random rays.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

fn main() {
    let room = Room::build();
    let eye = Vec3::new(0.0, 1.7, 0.0);
    room.look_at_targets(eye);
    room.look_ahead(eye);
    room.random_rays_match_brute_force();
}

/// The world and, for the checks, every body's name and exact shape.
struct Room {
    world: World,
    solids: Vec<(BodyId, &'static str, Solid)>,
    /// Name, body and centre of each target.
    targets: Vec<(&'static str, BodyId, Vec3)>,
    floor: BodyId,
    wall: BodyId,
    pillar: BodyId,
}

impl Room {
    /// The floor, the wall, the pillar and the crate, then the targets.
    fn build() -> Self {
        // The DynamicBvh broad phase: the world's choice for many ray casts.
        let mut world = World::new(WorldConfig {
            broad_phase: collide::world::BroadPhaseKind::DynamicBvh,
            ..WorldConfig::default()
        });
        // Floor: top face at y = 0, 0.5 m thick.
        let floor = add_block(
            &mut world,
            "floor",
            Vec3::new(0.0, -0.25, 0.0),
            Quat::IDENTITY,
            Vec3::new(20.0, 0.25, 20.0),
        );
        // A wall 3 m high across x = 5, from z = -1 to z = 4.
        let wall = add_block(
            &mut world,
            "wall",
            Vec3::new(5.0, 1.5, 1.5),
            Quat::IDENTITY,
            Vec3::new(0.1, 1.5, 2.5),
        );
        // A pillar at (3, _, -3) and a crate turned 30° about y at (6, _, -4).
        let pillar = add_block(
            &mut world,
            "pillar",
            Vec3::new(3.0, 2.0, -3.0),
            Quat::IDENTITY,
            Vec3::new(0.3, 2.0, 0.3),
        );
        let crate_box = add_block(
            &mut world,
            "crate",
            Vec3::new(6.0, 0.5, -4.0),
            Quat::from_rotation_y(30_f32.to_radians()),
            Vec3::splat(0.5),
        );
        let mut room = Room {
            world,
            solids: Vec::new(),
            targets: Vec::new(),
            floor: floor.0,
            wall: wall.0,
            pillar: pillar.0,
        };
        room.solids.extend([floor, wall, pillar, crate_box]);
        room.add_targets();
        room.world.update();
        room
    }

    /// Targets: spheres of radius 0.3.
    fn add_targets(&mut self) {
        let target_at = [
            ("in the open", Vec3::new(8.0, 1.0, -3.0)),
            ("behind the wall", Vec3::new(9.0, 1.0, 1.5)),
            ("behind the pillar", Vec3::new(6.0, 1.5, -6.0)),
            ("on top of the wall", Vec3::new(5.0, 3.31, 1.5)),
            ("buried under the floor", Vec3::new(4.0, -0.4, -1.0)),
        ];
        for (name, at) in target_at {
            let id = self
                .world
                .add_body(BodyDesc::new(Geometry::Sphere(0.3)).at(at))
                .expect("a valid target");
            self.solids
                .push((id, name, Solid::Ball(Sphere::new(at, 0.3))));
            self.targets.push((name, id, at));
        }
    }

    fn name_of(&self, id: BodyId) -> &'static str {
        self.solids.iter().find(|s| s.0 == id).map_or("?", |s| s.1)
    }

    /// Prints what each sight line from `eye` meets and asserts which targets are seen and
    /// what hides the others.
    fn look_at_targets(&self, eye: Vec3) {
        let mut visible = Vec::new();
        for &(name, id, at) in &self.targets {
            // From the eye to the target's centre: dir = at - eye, so t = 1 is the centre.
            let sight = Ray::new(eye, at - eye);
            let hit = self.world.cast_ray(&sight, 1.0, &QueryFilter::default());
            let seen = hit.is_some_and(|h| h.body == id);
            match hit {
                Some(h) if seen => println!(
                    "target {name:<24} visible, {:.2} m away",
                    h.t * (at - eye).length()
                ),
                Some(h) => println!(
                    "target {name:<24} hidden by the {} at ({:.2}, {:.2}, {:.2})",
                    self.name_of(h.body),
                    h.point.x,
                    h.point.y,
                    h.point.z
                ),
                None => println!("target {name:<24} not reached"),
            }
            visible.push((name, seen, hit.map(|h| h.body)));
        }
        let blocker = |name: &str| visible.iter().find(|v| v.0 == name).and_then(|v| v.2);
        let is_seen = |name: &str| visible.iter().any(|v| v.0 == name && v.1);
        assert!(is_seen("in the open"));
        assert!(
            is_seen("on top of the wall"),
            "it rises above the wall's top"
        );
        assert_eq!(blocker("behind the wall"), Some(self.wall));
        assert_eq!(blocker("behind the pillar"), Some(self.pillar));
        assert_eq!(blocker("buried under the floor"), Some(self.floor));
    }

    /// The distance to the wall straight ahead: its face at x = 4.9.
    fn look_ahead(&self, eye: Vec3) {
        let ahead = self
            .world
            .cast_ray(&Ray::new(eye, Vec3::X), 100.0, &QueryFilter::default())
            .expect("the wall is ahead");
        assert_eq!(ahead.body, self.wall);
        assert!((ahead.t - 4.9).abs() < 1e-4);
        println!("straight ahead: the wall at {:.3} m", ahead.t);
    }

    /// 2000 random rays from random points above the floor: the world's nearest hit equals a
    /// brute-force loop over every body's exact cast.
    fn random_rays_match_brute_force(&self) {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut hits = 0;
        for _ in 0..2000 {
            let origin = Vec3::new(
                rng.range(-3.0, 12.0),
                rng.range(0.1, 4.0),
                rng.range(-8.0, 6.0),
            );
            let dir = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let ray = Ray::new(origin, dir);
            let brute = self
                .solids
                .iter()
                .filter_map(|(id, _, s)| s.ray_t(&ray, 50.0).map(|t| (t, *id)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let got = self
                .world
                .cast_ray(&ray, 50.0, &QueryFilter::default())
                .map(|h| (h.t, h.body));
            match (got, brute) {
                (Some((t, body)), Some((bt, bbody))) => {
                    assert!((t - bt).abs() <= 1e-4 * (1.0 + bt), "t {t} vs {bt}");
                    // Two bodies hit at the same t (an edge shared by the crate and the floor)
                    // may be reported either way.
                    assert!(
                        body == bbody || (t - bt).abs() <= 1e-5,
                        "{body:?} vs {bbody:?}"
                    );
                    hits += 1;
                }
                (None, None) => {}
                (g, b) => panic!("ray {ray:?}: world {g:?}, brute force {b:?}"),
            }
        }
        println!("2000 random rays: {hits} hits, every one the same body and t as brute force");
    }
}

/// Adds a box body and returns it with its name and exact shape.
fn add_block(
    world: &mut World,
    name: &'static str,
    center: Vec3,
    rotation: Quat,
    half: Vec3,
) -> (BodyId, &'static str, Solid) {
    let desc = BodyDesc::new(Geometry::Cuboid(half))
        .at(center)
        .rotated(rotation);
    let id = world.add_body(desc).expect("a valid block");
    (id, name, Solid::Block(Obb::new(center, rotation, half)))
}
