//! Guards the world's continuous collision: fast small spheres shot at thin boxes. A test at
//! the end of each frame misses many of the hits (the sphere is past the box); the world must
//! report every pair the sweep oracle says touches during the frame, and nothing else.
//!
//! A sphere that starts the frame inside a plate (it hit it the frame before and flies on)
//! moves out of it: by the sweeps' starting-touch rule that is no impact, and the world
//! reports the pair only if the sphere still touches the plate at the frame's end (its
//! contact there, no time of impact).

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
    /// Pairs in contact at the start, moving out, still touching at the end.
    end_contacts: usize,
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
        end_contacts: 0,
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
                let start_touch = overlap::sphere_obb(&s0, obb);
                if sampled {
                    f.sampled_hits += 1;
                    assert!(
                        oracle.is_some() || start_touch,
                        "frame {frame}: sampling finds a hit the sweep oracle misses"
                    );
                }
                let end = Sphere::new(starts[k] + motion, 0.02);
                if oracle.is_none() && start_touch && overlap::sphere_obb(&end, obb) {
                    f.end_contacts += 1;
                    expected.insert(key);
                    let c = world.contacts().iter().find(|c| (c.a.0, c.b.0) == key);
                    let c = c.unwrap_or_else(|| panic!("frame {frame}: end contact {key:?} lost"));
                    assert_eq!(c.toi, None, "frame {frame}: an end contact has no impact");
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
        assert_eq!(f.reported, f.oracle_hits + f.end_contacts);
    }
}

// Guards: a fast pair that starts overlapping and moves apart, still overlapping at the
// frame's end, keeps its contact. The sweep reports no impact (starting-touch rule), so the
// world falls back to the contact at the end pose (no toi) rather than calling the pair apart.
#[test]
fn fast_pair_moving_apart_keeps_its_end_contact() {
    for kind in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicBvh] {
        let mut world = World::new(WorldConfig {
            broad_phase: kind,
            ..WorldConfig::default()
        });
        let big = world
            .add_body(BodyDesc::new(Geometry::Cuboid(Vec3::splat(2.0))))
            .unwrap();
        // A ball sunk 1 deep in the block's top face (y = 2), moved up by 0.6 and across by 0.3
        // (fast: 0.67, more than a quarter of its radius): still 0.4 deep at the end.
        let ball = world
            .add_body(BodyDesc::new(Geometry::Sphere(0.5)).at(Vec3::new(0.0, 1.5, 0.0)))
            .unwrap();
        world.update();
        assert_eq!(world.contacts().len(), 1);
        world
            .move_body(ball, Vec3::new(0.3, 2.1, 0.0), collide::Quat::IDENTITY)
            .unwrap();
        world.update();
        assert_eq!(world.stats().fast_bodies, 1, "{kind:?}: the move is swept");
        let c = world.contacts();
        assert_eq!(
            c.len(),
            1,
            "{kind:?}: the pair still overlaps at the frame's end"
        );
        assert_eq!((c[0].a, c[0].b), (big, ball));
        assert_eq!(c[0].toi, None, "{kind:?}: no impact, the end contact");
        assert!(
            (c[0].manifold.depth - 0.4).abs() < 1e-4,
            "{kind:?}: {:?}",
            c[0]
        );
        assert!((c[0].manifold.normal - Vec3::Y).length() < 1e-4);
        // Moving on out of the block: apart, the contact ends.
        world
            .move_body(ball, Vec3::new(0.6, 3.0, 0.0), collide::Quat::IDENTITY)
            .unwrap();
        world.update();
        assert!(world.contacts().is_empty(), "{kind:?}");
    }
}

// The same against a half-space (the ground): a fast ball resting 0.1 deep and rolling along
// the ground has no impact at 0 (it slides along the ground, not into it, so there is no
// zero-depth impact); its end contact holds.
#[test]
fn fast_ball_sliding_on_the_ground_reports_its_end_contact() {
    let mut world = World::new(WorldConfig::default());
    let ground = world
        .add_body(BodyDesc::new(Geometry::HalfSpace).fixed())
        .unwrap();
    let ball = world
        .add_body(BodyDesc::new(Geometry::Sphere(0.5)).at(Vec3::new(0.0, 0.4, 0.0)))
        .unwrap();
    world.update();
    world
        .move_body(ball, Vec3::new(3.0, 0.4, 0.0), collide::Quat::IDENTITY)
        .unwrap();
    world.update();
    let c = world.contacts();
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].a, c[0].b), (ground, ball));
    assert_eq!(c[0].toi, None);
    assert!((c[0].manifold.depth - 0.1).abs() < 1e-4, "{:?}", c[0]);
    // Pressing down while moving: an impact at 0.
    world
        .move_body(ball, Vec3::new(6.0, 0.2, 0.0), collide::Quat::IDENTITY)
        .unwrap();
    world.update();
    assert_eq!(world.contacts()[0].toi, Some(0.0));
}
