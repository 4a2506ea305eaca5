//! Guards the world's continuous collision: fast small spheres shot at thin boxes. A test at
//! the end of each frame misses many of the hits (the sphere is past the box); the world must
//! report every pair the sweep oracle says touches during the frame, and nothing else.

use collide::broadphase::CollisionGroups;
use collide::overlap;
use collide::shapes::{Obb, Sphere};
use collide::sweep;
use collide::world::{BodyDesc, BroadPhaseKind, Geometry, World, WorldConfig};
use collide::Vec3;
use collide_testkit::Gen;
use std::collections::BTreeSet;

struct Figures {
    oracle_hits: usize,
    missed_by_frame_end: usize,
    reported: usize,
    sampled_hits: usize,
}

fn shoot(kind: BroadPhaseKind, seed: u64) -> Figures {
    let mut gen = Gen::new(seed);
    let mut world = World::new(WorldConfig {
        broad_phase: kind,
        ..WorldConfig::default()
    });
    // Spheres collide with boxes only; boxes with spheres only.
    let sphere_groups = CollisionGroups::new(1, 2);
    let box_groups = CollisionGroups::new(2, 1);
    // 12 thin plates (0.02 thick) at random tilts in a 12-unit cube.
    let mut plates = Vec::new();
    for _ in 0..12 {
        let c = gen.vec(5.0);
        let q = gen.quat();
        let half = Vec3::new(1.5, 1.5, 0.01);
        let id = world
            .add_body(
                BodyDesc::new(Geometry::Cuboid(half))
                    .at(c)
                    .rotated(q)
                    .groups(box_groups),
            )
            .unwrap();
        plates.push((id, Obb::new(c, q, half)));
    }
    // 300 spheres of radius 0.02 at 30–60 units/s (0.5–1 unit per 1/60 s frame).
    let mut spheres = Vec::new();
    for _ in 0..300 {
        let p = gen.vec(6.0);
        let v = gen.unit() * gen.range(30.0, 60.0);
        let id = world
            .add_body(
                BodyDesc::new(Geometry::Sphere(0.02))
                    .at(p)
                    .moving(v)
                    .groups(sphere_groups),
            )
            .unwrap();
        spheres.push((id, v));
    }
    world.update();
    let dt = 1.0 / 60.0;
    let mut f = Figures {
        oracle_hits: 0,
        missed_by_frame_end: 0,
        reported: 0,
        sampled_hits: 0,
    };
    for frame in 0..30 {
        let starts: Vec<Vec3> = spheres
            .iter()
            .map(|(id, _)| world.pose(*id).unwrap().0)
            .collect();
        world.step(dt);
        let reported: BTreeSet<(u32, u32)> =
            world.contacts().iter().map(|c| (c.a.0, c.b.0)).collect();
        // Every contact is a plate–sphere pair (the groups forbid the rest).
        for &(a, b) in &reported {
            let plate = plates.iter().any(|(p, _)| p.0 == a || p.0 == b);
            let sphere = spheres.iter().any(|(s, _)| s.0 == a || s.0 == b);
            assert!(plate && sphere, "frame {frame}: unexpected pair ({a}, {b})");
        }
        let mut expected = BTreeSet::new();
        for (k, (sid, v)) in spheres.iter().enumerate() {
            let s0 = Sphere::new(starts[k], 0.02);
            let motion = *v * dt;
            for (pid, obb) in &plates {
                let key = (pid.0.min(sid.0), pid.0.max(sid.0));
                let oracle = sweep::sphere_obb(&s0, motion, obb, Vec3::ZERO);
                // An independent check: 2000 samples along the path.
                let sampled = (0..=2000).any(|i| {
                    let u = i as f32 / 2000.0;
                    overlap::sphere_obb(&Sphere::new(starts[k] + motion * u, 0.02), obb)
                });
                if sampled {
                    f.sampled_hits += 1;
                    assert!(
                        oracle.is_some(),
                        "frame {frame}: sampling finds a hit the sweep oracle misses"
                    );
                }
                if let Some(sw) = oracle {
                    f.oracle_hits += 1;
                    expected.insert(key);
                    let end = Sphere::new(starts[k] + motion, 0.02);
                    if !overlap::sphere_obb(&end, obb) {
                        f.missed_by_frame_end += 1;
                    }
                    let c = world
                        .contacts()
                        .iter()
                        .find(|c| (c.a.0, c.b.0) == key)
                        .unwrap_or_else(|| panic!("frame {frame}: tunnelled through {key:?}"));
                    let toi = c.toi.expect("a swept pair reports its time of impact");
                    assert!((toi - sw.enter).abs() < 1e-4, "toi {toi} vs {}", sw.enter);
                    assert!((c.manifold.normal.length() - 1.0).abs() < 1e-4);
                }
            }
        }
        assert_eq!(
            reported, expected,
            "frame {frame}: reported pairs differ from the oracle"
        );
        f.reported += reported.len();
    }
    f
}

#[test]
fn fast_spheres_never_tunnel_through_thin_plates() {
    for (kind, seed) in [
        (BroadPhaseKind::SweepAndPrune, 1),
        (BroadPhaseKind::DynamicBvh, 2),
    ] {
        let f = shoot(kind, seed);
        println!(
            "{kind:?}: {} oracle hits, {} of them missed by a frame-end test, {} reported, \
             {} found by sampling",
            f.oracle_hits, f.missed_by_frame_end, f.reported, f.sampled_hits
        );
        assert!(f.oracle_hits >= 20, "scene too sparse to mean anything");
        assert!(
            f.missed_by_frame_end * 2 >= f.oracle_hits,
            "most hits must be invisible at frame end for the test to mean anything"
        );
        assert_eq!(f.reported, f.oracle_hits);
    }
}
