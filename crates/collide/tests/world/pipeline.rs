//! Guards the world's pipeline: contacts at rest equal an independent all-pairs oracle
//! (`overlap::*` per pair), events follow contacts frame to frame, results do not depend on
//! the number of threads, groups filter, and ray and box queries agree with brute force.

use collide::broadphase::CollisionGroups;
use collide::overlap;
use collide::shapes::{Aabb, Obb, Ray, Sphere};
use collide::world::{
    BodyDesc, BodyId, BroadPhaseKind, ContactEvent, Geometry, QueryFilter, World, WorldConfig,
    WorldError,
};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug)]
enum Shape {
    Ball(f32),
    Cube(Vec3),
}

/// A scene of boxes and spheres drifting slowly (no sweeps) and spinning.
fn scene(seed: u64, n: usize, kind: BroadPhaseKind) -> (World, Vec<Shape>) {
    let mut gen = Gen::new(seed);
    let mut world = World::new(WorldConfig {
        broad_phase: kind,
        ..WorldConfig::default()
    });
    let mut shapes = Vec::new();
    for i in 0..n {
        let s = if i % 2 == 0 {
            Shape::Ball(gen.range(0.2, 0.8))
        } else {
            Shape::Cube(Vec3::new(
                gen.range(0.2, 0.8),
                gen.range(0.2, 0.8),
                gen.range(0.2, 0.8),
            ))
        };
        let g = match s {
            Shape::Ball(r) => Geometry::Sphere(r),
            Shape::Cube(h) => Geometry::Cuboid(h),
        };
        world
            .add_body(
                BodyDesc::new(g)
                    .at(gen.vec(6.0))
                    .rotated(gen.quat())
                    .moving(gen.unit() * 0.5)
                    .spinning(gen.unit() * 0.5),
            )
            .unwrap();
        shapes.push(s);
    }
    (world, shapes)
}

/// The all-pairs oracle: the crate's static overlap tests (independent of the SAT manifold,
/// GJK and the broad phase the world uses).
fn oracle(world: &World, shapes: &[Shape]) -> BTreeSet<(u32, u32)> {
    let placed: Vec<(Shape, Vec3, Quat)> = shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (p, q) = world.pose(BodyId(i as u32)).unwrap();
            (*s, p, q)
        })
        .collect();
    let mut out = BTreeSet::new();
    for i in 0..placed.len() {
        for j in i + 1..placed.len() {
            let (a, b) = (placed[i], placed[j]);
            let hit = match (a.0, b.0) {
                (Shape::Ball(ra), Shape::Ball(rb)) => {
                    overlap::sphere_sphere(&Sphere::new(a.1, ra), &Sphere::new(b.1, rb))
                }
                (Shape::Ball(r), Shape::Cube(h)) => {
                    overlap::sphere_obb(&Sphere::new(a.1, r), &Obb::new(b.1, b.2, h))
                }
                (Shape::Cube(h), Shape::Ball(r)) => {
                    overlap::sphere_obb(&Sphere::new(b.1, r), &Obb::new(a.1, a.2, h))
                }
                (Shape::Cube(ha), Shape::Cube(hb)) => {
                    overlap::obb_obb(&Obb::new(a.1, a.2, ha), &Obb::new(b.1, b.2, hb))
                }
            };
            if hit {
                out.insert((i as u32, j as u32));
            }
        }
    }
    out
}

#[test]
fn contacts_equal_the_all_pairs_oracle_and_events_follow() {
    for kind in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicBvh] {
        let (mut world, shapes) = scene(3, 300, kind);
        world.update();
        let mut previous: BTreeSet<(u32, u32)> =
            world.contacts().iter().map(|c| (c.a.0, c.b.0)).collect();
        let mut compared = 0;
        for frame in 0..40 {
            world.step(1.0 / 30.0);
            let got: BTreeSet<(u32, u32)> =
                world.contacts().iter().map(|c| (c.a.0, c.b.0)).collect();
            let want = oracle(&world, &shapes);
            // Pairs on the razor's edge (depth ~0) may be decided differently by two
            // algorithms; allow them only when the world's depth is tiny.
            for p in got.symmetric_difference(&want) {
                let depth = world
                    .contacts()
                    .iter()
                    .find(|c| (c.a.0, c.b.0) == *p)
                    .map_or(0.0, |c| c.manifold.depth);
                assert!(
                    depth < 1e-4,
                    "{kind:?} frame {frame}: pair {p:?} differs (depth {depth})"
                );
            }
            compared += want.len();
            for c in world.contacts() {
                assert!(c.toi.is_none(), "slow bodies are not swept");
                assert!((c.manifold.normal.length() - 1.0).abs() < 1e-4);
                assert!(c.manifold.depth >= 0.0 && !c.manifold.points().is_empty());
            }
            // Events: began = new \ old, ended = old \ new, persisted = both.
            let mut want_events = Vec::new();
            for p in got.union(&previous) {
                let (a, b) = (BodyId(p.0), BodyId(p.1));
                want_events.push(match (previous.contains(p), got.contains(p)) {
                    (true, true) => ContactEvent::Persisted(a, b),
                    (false, true) => ContactEvent::Began(a, b),
                    _ => ContactEvent::Ended(a, b),
                });
            }
            assert_eq!(world.events(), &want_events[..], "frame {frame}");
            let s = world.stats();
            assert_eq!(s.bodies, 300);
            assert_eq!(
                s.broad_pairs,
                s.rejected_sphere + s.rejected_obb + s.rejected_exact + s.contacts
            );
            previous = got;
        }
        assert!(compared > 40 * 10, "too few contacts to mean anything");
        let s = world.stats();
        assert!(
            s.cache_hits + s.cache_misses > 0,
            "box pairs ran the cached SAT"
        );
    }
}

// Thread pools exist only with the `parallel` feature (without it the narrow phase runs on the
// calling thread).
#[cfg(feature = "parallel")]
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let (mut world, _) = scene(4, 400, BroadPhaseKind::DynamicBvh);
            let mut log = Vec::new();
            for _ in 0..10 {
                world.step(1.0 / 30.0);
                log.push(format!("{:?}{:?}", world.contacts(), world.events()));
            }
            log
        })
    };
    assert_eq!(run(1), run(4));
}

#[test]
fn groups_filter_and_bad_bodies_are_refused() {
    let mut world = World::default();
    let a = world
        .add_body(BodyDesc::new(Geometry::Sphere(1.0)).groups(CollisionGroups::new(1, 1)))
        .unwrap();
    let b = world
        .add_body(BodyDesc::new(Geometry::Sphere(1.0)).groups(CollisionGroups::new(2, 2)))
        .unwrap();
    let c = world
        .add_body(BodyDesc::new(Geometry::Cuboid(Vec3::ONE)))
        .unwrap();
    world.update();
    let pairs: Vec<_> = world.contacts().iter().map(|c| (c.a, c.b)).collect();
    // a and b overlap but their groups refuse each other; c accepts all.
    assert_eq!(pairs, vec![(a, c), (b, c)]);
    for bad in [
        BodyDesc::new(Geometry::Sphere(f32::NAN)),
        BodyDesc::new(Geometry::Sphere(-1.0)),
        BodyDesc::new(Geometry::Cuboid(Vec3::new(1.0, 0.0, 1.0))),
        BodyDesc::new(Geometry::Pieces(Vec::new())),
        BodyDesc::new(Geometry::Sphere(1.0)).at(Vec3::NAN),
        BodyDesc::new(Geometry::Sphere(1.0)).rotated(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        BodyDesc::new(Geometry::Sphere(1.0)).moving(Vec3::INFINITY),
    ] {
        assert!(matches!(
            world.add_body(bad),
            Err(WorldError::InvalidBody(_))
        ));
    }
    assert_eq!(
        world.remove_body(BodyId(99)),
        Err(WorldError::UnknownBody(BodyId(99)))
    );
    // Removing c ends its pairs.
    world.remove_body(c).unwrap();
    world.update();
    assert_eq!(
        world.events(),
        &[ContactEvent::Ended(a, c), ContactEvent::Ended(b, c)]
    );
    // NaN steps move nothing.
    world.step(f32::NAN);
    assert_eq!(world.pose(a).unwrap().0, Vec3::ZERO);
}

#[test]
fn ray_and_box_queries_agree_with_brute_force() {
    for kind in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicBvh] {
        let (mut world, shapes) = scene(5, 200, kind);
        world.update();
        let mut gen = Gen::new(6);
        for _ in 0..200 {
            let ray = Ray::new(gen.vec(8.0), gen.unit() * 4.0);
            let got = world.cast_ray(&ray, 4.0, &QueryFilter::default());
            // Brute force over every body with the crate's raycasts.
            let mut best: Option<(f32, u32)> = None;
            for (i, s) in shapes.iter().enumerate() {
                let (p, q) = world.pose(BodyId(i as u32)).unwrap();
                let hit = match s {
                    Shape::Ball(r) => collide::raycast::sphere(&ray, &Sphere::new(p, *r), 4.0),
                    Shape::Cube(h) => collide::raycast::obb(&ray, &Obb::new(p, q, *h), 4.0),
                };
                if let Some(h) = hit {
                    if best.is_none_or(|b| h.t < b.0) {
                        best = Some((h.t, i as u32));
                    }
                }
            }
            match (got, best) {
                (None, None) => {}
                (Some(g), Some(b)) => assert!((g.t - b.0).abs() < 1e-4, "{} vs {}", g.t, b.0),
                other => panic!("ray {ray:?}: {other:?}"),
            }
            let q = Aabb::from_center_half_extents(gen.vec(6.0), gen.vec(2.0).abs());
            let got = world.query_aabb(&q, &QueryFilter::default());
            let want: Vec<BodyId> = (0..shapes.len() as u32)
                .map(BodyId)
                .filter(|&id| overlap::aabb_aabb(&world.body_aabb(id).unwrap(), &q))
                .collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn world_ray_hit_points_are_finite_near_f32_max() {
    // A hull body at x = 3e38 seen from −3e38 with dir 3e38: the hit is at t ≈ 2, where the
    // f32 `t · dir` (6e38) overflows although the point (3e38 − 1) does not. The world's hit
    // point is formed in f64 like the crate's ray casts: finite and on the hull's face.
    use collide::convex::ConvexHull;
    use std::sync::Arc;
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) * 2.0 - 1.0
        })
        .collect();
    let hull = Arc::new(ConvexHull::try_new(&corners).unwrap());
    for kind in [BroadPhaseKind::SweepAndPrune, BroadPhaseKind::DynamicBvh] {
        let mut world = World::new(WorldConfig {
            broad_phase: kind,
            ..WorldConfig::default()
        });
        let far = Vec3::new(3e38, 0.0, 0.0);
        let id = world
            .add_body(BodyDesc::new(Geometry::Hull(hull.clone())).at(far))
            .unwrap();
        world.update();
        let ray = Ray::new(Vec3::new(-3e38, 0.0, 0.0), Vec3::new(3e38, 0.0, 0.0));
        let hit = world
            .cast_ray(&ray, 10.0, &QueryFilter::default())
            .unwrap_or_else(|| panic!("the far hull is hit ({kind:?})"));
        assert_eq!(hit.body, id);
        assert!(hit.point.is_finite(), "{hit:?}");
        assert!((hit.point.x - 3e38).abs() <= 3e38 * 1e-6, "{hit:?}");
        assert_eq!(hit.normal, Vec3::NEG_X);
    }
}
