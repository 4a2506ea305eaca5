//! Differential test: the world's scene queries against parry3d's `Bvh` plus per-shape queries
//! (the `compare_queries` rows) on one scene of 2,000 bodies: the same first body and time for
//! rays and shape casts, the same overlapping sets. Body `i` of the world is leaf `i` of the
//! tree.
//!
//! A known difference, checked as such: a shape cast that starts overlapping a body hits it
//! at time 0 in parry (`stop_at_penetration`); collide does so only when the shape moves
//! deeper (the contract's starting-touch rule), so casts that start within 1e-3 of a body are
//! left out.

use collide::world::{BodyId, Geometry, QueryFilter};
use collide::{Quat, Vec3};
use collide_bench::query_cases::{parry_cast, parry_shape, scene};
use collide_testkit::Gen;
use parry3d::math::Pose;
use parry3d::query::{self, Ray as PRay, RayCast};

#[test]
fn rays_casts_and_overlaps_agree_with_parry() {
    let s = scene(2_000, 3);
    let mut g = Gen::new(8);
    let filter = QueryFilter::default();
    let reach = s.half_side * 0.5;
    let (mut ray_hits, mut cast_hits, mut overlaps) = (0, 0, 0);
    for _ in 0..300 {
        let ray = collide::shapes::Ray::new(g.vec(s.half_side), g.unit());
        let pray = PRay::new(ray.origin, ray.dir);
        let ours = s.world.cast_ray(&ray, reach, &filter);
        let theirs = s.bvh.find_best(
            reach,
            |node, best| {
                node.aabb()
                    .cast_local_ray(&pray, best, true)
                    .unwrap_or(f32::MAX)
            },
            |leaf, best| {
                let (pose, shape) = &s.bodies[leaf as usize];
                shape.cast_ray_and_get_normal(pose, &pray, best, true)
            },
        );
        match (ours, theirs) {
            (None, None) => {}
            (Some(h), Some((leaf, hit))) => {
                ray_hits += 1;
                assert!((h.t - hit.time_of_impact).abs() < 1e-4, "{h:?} vs {hit:?}");
                assert!(h.body == BodyId(leaf) || (h.t - hit.time_of_impact).abs() < 1e-6);
            }
            other => panic!("ray {ray:?}: {other:?}"),
        }
    }
    let probes = [
        Geometry::Sphere(0.3),
        Geometry::Cuboid(Vec3::new(0.3, 0.2, 0.4)),
        Geometry::Capsule {
            half_height: 0.5,
            radius: 0.3,
        },
    ];
    for k in 0..300 {
        let probe = &probes[k % 3];
        let shape = parry_shape(probe);
        let (p, q, m): (Vec3, Quat, Vec3) = (g.vec(s.half_side), g.quat(), g.unit() * reach);
        let pose = Pose::from_parts(p, q);
        let near = s.world.shape_distance(probe, p, q, 1e-3, &filter);
        if near.is_some() {
            continue;
        }
        let ours = s.world.cast_shape(probe, p, q, m, &filter);
        let theirs = parry_cast(&s, &pose, &*shape, m);
        match (ours, theirs) {
            (None, None) => {}
            (Some(h), Some((leaf, toi))) => {
                cast_hits += 1;
                assert!(
                    (h.toi - toi).abs() < 1e-3,
                    "{probe:?}: {h:?} vs {leaf} at {toi}"
                );
            }
            other => panic!("{probe:?} from {p} by {m}: {other:?}"),
        }
        // Overlap at the start pose moved halfway.
        let at = p + m * 0.02;
        let ours = s.world.overlap_shape(probe, at, q, &filter);
        let at_pose = Pose::from_parts(at, q);
        let own = shape.compute_aabb(&at_pose);
        let mut theirs: Vec<BodyId> = s
            .bvh
            .intersect_aabb(&own)
            .filter(|&leaf| {
                let (body_pose, body) = &s.bodies[leaf as usize];
                query::intersection_test(&at_pose, &*shape, body_pose, &**body)
                    .is_ok_and(|r| r.intersecting)
            })
            .map(BodyId)
            .collect();
        theirs.sort_unstable();
        overlaps += ours.len();
        assert_eq!(ours, theirs, "{probe:?} at {at}");
    }
    assert!(
        ray_hits > 30 && cast_hits > 30,
        "rays {ray_hits}, casts {cast_hits}"
    );
    eprintln!("rays {ray_hits}, casts {cast_hits}, overlaps {overlaps}");
}
