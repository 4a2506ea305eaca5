//! Ray casts through a `World` of 10,000 bodies with each broad phase: microseconds per ray.
//!
//! Spheres and boxes (half and half, 0.2–0.7 m) scattered in a cube 60 m wide, one update to
//! build the broad phase, then 20,000 rays from random points toward random points, at most
//! 30 m long (`World::cast_ray`, the nearest hit). The same rays go through a world built
//! with [`BroadPhaseKind::SweepAndPrune`] and one with [`BroadPhaseKind::DynamicBvh`]; the
//! program checks that both find the same first body for every ray and prints the time per
//! ray of each. Run it optimised:
//!
//! `cargo run --release -p collide --example ray_broadphase [BODIES] [RAYS]`

use collide::shapes::Ray;
use collide::world::{BodyDesc, BroadPhaseKind, Geometry, QueryFilter, World, WorldConfig};
use collide::{Quat, Vec3};
use std::time::Instant;

/// A small deterministic generator (xorshift64*).
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

    fn point(&mut self, half: f32) -> Vec3 {
        Vec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }
}

const HALF: f32 = 30.0;

fn build(kind: BroadPhaseKind, bodies: usize) -> World {
    let mut world = World::new(WorldConfig {
        broad_phase: kind,
        ..WorldConfig::default()
    });
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..bodies {
        let size = rng.range(0.2, 0.7);
        let geometry = if i % 2 == 0 {
            Geometry::Sphere(size)
        } else {
            Geometry::Cuboid(Vec3::new(size, rng.range(0.2, 0.7), rng.range(0.2, 0.7)))
        };
        let rotation = Quat::from_axis_angle(
            rng.point(1.0).try_normalize().unwrap_or(Vec3::Y),
            rng.range(0.0, 3.0),
        );
        let desc = BodyDesc::new(geometry)
            .at(rng.point(HALF))
            .rotated(rotation);
        world.add_body(desc).expect("a valid body");
    }
    world.update();
    world
}

fn main() {
    let mut args = std::env::args().skip(1);
    let bodies: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let rays: Vec<Ray> = (0..count)
        .map(|_| {
            let from = rng.point(HALF);
            let dir = rng.point(1.0).try_normalize().unwrap_or(Vec3::X);
            Ray::new(from, dir)
        })
        .collect();
    let max_t = 30.0;
    let mut answers = Vec::new();
    for kind in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicBvh] {
        let world = build(kind, bodies);
        // One pass to warm caches, then the timed pass.
        let hits: Vec<_> = rays
            .iter()
            .map(|r| {
                world
                    .cast_ray(r, max_t, &QueryFilter::default())
                    .map(|h| h.body)
            })
            .collect();
        let start = Instant::now();
        let mut found = 0usize;
        for r in &rays {
            found += usize::from(world.cast_ray(r, max_t, &QueryFilter::default()).is_some());
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / count as f64;
        println!("{kind:?}: {bodies} bodies, {count} rays, {found} hits: {us:.2} µs per ray");
        answers.push(hits);
    }
    assert_eq!(
        answers[0], answers[1],
        "the broad phases disagree on a ray's first body"
    );
}
