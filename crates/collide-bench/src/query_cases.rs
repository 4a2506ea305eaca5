//! The scene-query rows: `World::cast_ray`, `cast_shape` and `overlap_shape` against parry3d's
//! `Bvh` (binned build over the same bodies' boxes) plus its per-shape queries, on the same
//! scenes of spheres, boxes, capsules and small hulls.
//!
//! The scene: `bodies` shapes about 0.3–1 m across, scattered uniformly in a cube whose side
//! grows as the cube root of the count (about one body per 8 m³ whatever the count), randomly
//! turned; half of them fixed in the collide world (as a level would be). The parry3d side is
//! what a parry user without rapier writes: one `Bvh` over the bodies' world boxes, a
//! best-first `find_best` whose node cost is the node's entry time (the box grown by the cast
//! shape's half-extents, for shape casts), and at the leaves `Shape::cast_ray_and_get_normal`,
//! `query::cast_shapes` and `query::intersection_test` at each body's pose. Both sides give the
//! same answer (first body, time, normal; the overlapping set), and both count their hits.

use crate::timing::Case;
use collide::convex::ConvexHull;
use collide::world::{BodyDesc, BroadPhaseKind, Geometry, QueryFilter, World, WorldConfig};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::math::Pose;
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use parry3d::query::{self, Ray as ParryRay, RayCast, ShapeCastOptions};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, SharedShape};
use std::hint::black_box;
use std::sync::Arc;

/// One scene in both libraries.
pub struct Scene {
    /// The collide world (half the bodies fixed).
    pub world: World,
    /// parry3d: each body's pose and shape, by leaf index.
    pub bodies: Vec<(Pose, SharedShape)>,
    /// parry3d: the tree over the bodies' world boxes.
    pub bvh: Bvh,
    /// The cube's half-side.
    pub half_side: f32,
}

/// A collide geometry as the parry3d shape the rows use.
pub fn parry_shape(g: &Geometry) -> SharedShape {
    match g {
        Geometry::Sphere(r) => SharedShape::new(Ball::new(*r)),
        Geometry::Cuboid(h) => SharedShape::new(Cuboid::new(*h)),
        Geometry::Capsule {
            half_height,
            radius,
        } => SharedShape::new(Capsule::new_y(*half_height, *radius)),
        Geometry::Hull(h) => {
            let poly = ConvexPolyhedron::from_convex_hull(h.vertices()).expect("a parry hull");
            SharedShape::new(poly)
        }
        other => panic!("not in the query scenes: {other:?}"),
    }
}

/// The shape of body `i`: spheres, boxes, capsules and 12-point hulls in turn.
fn geometry(i: usize, g: &mut Gen) -> Geometry {
    match i % 4 {
        0 => Geometry::Sphere(g.range(0.15, 0.5)),
        1 => Geometry::Cuboid(Vec3::new(
            g.range(0.15, 0.5),
            g.range(0.15, 0.5),
            g.range(0.15, 0.5),
        )),
        2 => Geometry::Capsule {
            half_height: g.range(0.1, 0.4),
            radius: g.range(0.1, 0.3),
        },
        _ => {
            let pts: Vec<Vec3> = (0..12).map(|_| g.vec(0.5)).collect();
            Geometry::Hull(Arc::new(ConvexHull::try_new(&pts).expect("a hull")))
        }
    }
}

/// A scene of `n` bodies (seeded).
pub fn scene(n: usize, seed: u64) -> Scene {
    let mut g = Gen::new(seed);
    let half_side = (n as f32).cbrt();
    let mut world = World::new(WorldConfig {
        broad_phase: BroadPhaseKind::DynamicBvh,
        ..WorldConfig::default()
    });
    let mut bodies = Vec::with_capacity(n);
    let mut boxes = Vec::with_capacity(n);
    for i in 0..n {
        let shape = geometry(i, &mut g);
        let (p, q) = (g.vec(half_side), g.quat());
        let mut desc = BodyDesc::new(shape.clone()).at(p).rotated(q);
        desc.fixed = i % 2 == 0;
        world.add_body(desc).expect("a valid body");
        let pose = Pose::from_parts(p, q);
        let s = parry_shape(&shape);
        boxes.push(s.compute_aabb(&pose));
        bodies.push((pose, s));
    }
    world.update();
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &boxes);
    Scene {
        world,
        bodies,
        bvh,
        half_side,
    }
}

/// parry3d's first body along a shape cast (leaf index, time of impact): best-first over the
/// tree, the node cost the time the shape's box enters the node's box, then `cast_shapes` at
/// the leaves.
pub fn parry_cast(
    s: &Scene,
    pose: &Pose,
    shape: &dyn parry3d::shape::Shape,
    motion: Vec3,
) -> Option<(u32, f32)> {
    let own = shape.compute_aabb(pose);
    let half = own.half_extents();
    let path = ParryRay::new(own.center(), motion);
    s.bvh
        .find_best(
            1.0,
            |node, best| {
                let grown = ParryAabb::new(node.mins() - half, node.maxs() + half);
                grown.cast_local_ray(&path, best, true).unwrap_or(f32::MAX)
            },
            |leaf, best| {
                let (body_pose, body) = &s.bodies[leaf as usize];
                let options = ShapeCastOptions {
                    // The contract's starting-touch rule: a shape that starts overlapping a
                    // body and moves out of it does not hit it (parry's `false`).
                    stop_at_penetration: false,
                    ..ShapeCastOptions::with_max_time_of_impact(best)
                };
                query::cast_shapes(pose, motion, shape, body_pose, Vec3::ZERO, &**body, options)
                    .ok()
                    .flatten()
            },
        )
        .map(|(leaf, hit)| (leaf, hit.time_of_impact))
}

/// The rows for one scene size: `queries` inputs per row (one random sequence through all of
/// them, in this order).
pub fn all(bodies: usize, queries: usize) -> Vec<Case> {
    let s = Arc::new(scene(bodies, 7));
    let mut g = Gen::new(99);
    let mut cases = vec![ray_case(&s, &mut g, bodies, queries)];
    // Shape casts: a ball, a box and a capsule, turned at random, moving a quarter side.
    let probes: [(&str, Geometry); 3] = [
        ("sphere", Geometry::Sphere(0.3)),
        ("box", Geometry::Cuboid(Vec3::new(0.3, 0.2, 0.4))),
        (
            "capsule",
            Geometry::Capsule {
                half_height: 0.5,
                radius: 0.3,
            },
        ),
    ];
    for (name, probe) in probes {
        cases.push(cast_case(&s, &mut g, (name, probe), queries));
    }
    // Overlaps: a ball and a box of about a body's size.
    for (name, probe) in [
        ("sphere", Geometry::Sphere(0.6)),
        ("box", Geometry::Cuboid(Vec3::new(0.6, 0.4, 0.5))),
    ] {
        cases.push(overlap_case(&s, &mut g, (name, probe), queries));
    }
    cases
}

/// How far the rays and the shape casts reach: a quarter of the side.
fn reach(s: &Scene) -> f32 {
    s.half_side * 0.5
}

/// Rays from inside the cube, any direction, reaching a quarter of the side.
fn ray_case(s: &Arc<Scene>, g: &mut Gen, bodies: usize, queries: usize) -> Case {
    let reach = reach(s);
    let rays: Vec<collide::shapes::Ray> = (0..queries)
        .map(|_| collide::shapes::Ray::new(g.vec(s.half_side), g.unit()))
        .collect();
    let (sc, sp) = (s.clone(), s.clone());
    let prays: Vec<ParryRay> = rays
        .iter()
        .map(|r| ParryRay::new(r.origin, r.dir))
        .collect();
    Case {
        name: format!("cast_ray {bodies}"),
        n: queries,
        collide: Box::new(move || {
            let filter = QueryFilter::default();
            black_box(&rays)
                .iter()
                .filter(|r| sc.world.cast_ray(r, reach, &filter).is_some())
                .count()
        }),
        parry: Box::new(move || {
            black_box(&prays)
                .iter()
                .filter(|r| {
                    sp.bvh
                        .find_best(
                            reach,
                            |node, best| {
                                node.aabb()
                                    .cast_local_ray(r, best, true)
                                    .unwrap_or(f32::MAX)
                            },
                            |leaf, best| {
                                let (pose, shape) = &sp.bodies[leaf as usize];
                                shape.cast_ray_and_get_normal(pose, r, best, true)
                            },
                        )
                        .is_some()
                })
                .count()
        }),
        parry_call: "Bvh::find_best (node: Aabb::cast_local_ray) + Shape::cast_ray_and_get_normal"
            .into(),
        direct: None,
    }
}

/// Casts of the named probe, turned at random, moving a quarter side.
fn cast_case(s: &Arc<Scene>, g: &mut Gen, probe: (&str, Geometry), queries: usize) -> Case {
    let reach = reach(s);
    let inputs: Vec<(Vec3, Quat, Vec3)> = (0..queries)
        .map(|_| (g.vec(s.half_side), g.quat(), g.unit() * reach))
        .collect();
    probe_case(
        s,
        ("cast_shape", probe),
        inputs,
        |world, probe, inputs, filter| {
            inputs
                .iter()
                .filter(|(p, q, m)| world.cast_shape(probe, *p, *q, *m, filter).is_some())
                .count()
        },
        |sp, probe_parry, inputs| {
            inputs
                .iter()
                .filter(|(p, q, m)| {
                    parry_cast(sp, &Pose::from_parts(*p, *q), probe_parry, *m).is_some()
                })
                .count()
        },
        "Bvh::find_best (node: grown Aabb::cast_local_ray) + query::cast_shapes",
    )
}

/// Overlaps of the named probe, turned at random.
fn overlap_case(s: &Arc<Scene>, g: &mut Gen, probe: (&str, Geometry), queries: usize) -> Case {
    let inputs: Vec<(Vec3, Quat)> = (0..queries)
        .map(|_| (g.vec(s.half_side), g.quat()))
        .collect();
    probe_case(
        s,
        ("overlap_shape", probe),
        inputs,
        |world, probe, inputs, filter| {
            inputs
                .iter()
                .map(|(p, q)| world.overlap_shape(probe, *p, *q, filter).len())
                .sum()
        },
        |sp, probe_parry, inputs| {
            inputs
                .iter()
                .map(|(p, q)| {
                    let pose = Pose::from_parts(*p, *q);
                    let own = probe_parry.compute_aabb(&pose);
                    let mut found: Vec<u32> = sp
                        .bvh
                        .intersect_aabb(&own)
                        .filter(|&leaf| {
                            let (body_pose, body) = &sp.bodies[leaf as usize];
                            query::intersection_test(&pose, probe_parry, body_pose, &**body)
                                .is_ok_and(|r| r.intersecting)
                        })
                        .collect();
                    found.sort_unstable();
                    found.len()
                })
                .sum()
        },
        "Bvh::intersect_aabb + query::intersection_test, sorted",
    )
}

/// The row `query` (`cast_shape`, `overlap_shape`) of the named probe over `inputs`, in a scene
/// of `s.bodies.len()` bodies: `collide` runs collide's world query on every input (default
/// filter), `parry` parry3d's on the probe's parry shape; each counts its hits.
fn probe_case<I: Clone + 'static>(
    s: &Arc<Scene>,
    (query, (name, probe)): (&str, (&str, Geometry)),
    inputs: Vec<I>,
    collide: impl Fn(&World, &Geometry, &[I], &QueryFilter) -> usize + 'static,
    parry: impl Fn(&Scene, &dyn Shape, &[I]) -> usize + 'static,
    parry_call: &str,
) -> Case {
    let (sc, sp) = (s.clone(), s.clone());
    let probe_parry = parry_shape(&probe);
    let collide_inputs = inputs.clone();
    Case {
        name: format!("{query} {name} {}", s.bodies.len()),
        n: inputs.len(),
        collide: Box::new(move || {
            let filter = QueryFilter::default();
            collide(&sc.world, &probe, black_box(&collide_inputs), &filter)
        }),
        parry: Box::new(move || parry(&sp, &*probe_parry, black_box(&inputs))),
        parry_call: parry_call.into(),
        direct: None,
    }
}
