//! The table of compared queries: one [`Case`] per row, each a collide closure and a parry3d
//! closure over the same fixed inputs. `compare` and the criterion benches both build from
//! here; a new row is one more entry in [`all`].
//!
//! The parry3d side is what a parry user writes for the same question: shapes built once in
//! parry's form (conversion not timed), then the generic `query::intersection_test`,
//! `RayCast::cast_ray_and_get_normal` or `query::cast_shapes`, which dispatch on the shape
//! types at run time as parry's pipeline does. Ray and sweep rows time, beside it, parry's
//! fastest way to do the same work ([`Direct`]): its per-shape function in the shape's own
//! frame (`Ball::cast_local_ray_and_get_normal`, `query::details::cast_shapes_ball_ball`, …),
//! with the ray or the motion moved into that frame inside the timed loop, as a user of that
//! path pays for it. The batch rows already loop over parry's per-volume tests (parry3d 0.31
//! has no public SIMD bounding volume: its `SimdAabb` is compiled out).

use crate::convert::{self, Posed};
use crate::inputs;
use crate::timing::{Case, Direct};
use collide::batch::{AabbSoa, SphereSoa};
use collide::raycast;
use collide::shapes::{Aabb, Capsule, Obb, Sphere, Triangle};
use collide::{overlap, sweep, Vec3};
use collide_testkit::Gen;
use parry3d::bounding_volume::{Aabb as ParryAabb, BoundingSphere, BoundingVolume};
use parry3d::math::Pose;
use parry3d::query::details::{cast_shapes_ball_ball, cast_shapes_support_map_support_map};
use parry3d::query::{self, Ray as ParryRay, RayCast, RayIntersection, ShapeCastOptions};
use parry3d::shape::{Ball, Shape};
use std::hint::black_box;

/// Seed of the fixed input sets (the same configurations on every run and machine).
pub const SEED: u64 = 0x00C0_111D;

/// A pair query: `collide(a, b)` against parry's `intersection_test` on the converted pair.
///
/// Generic over the collide function (not a `fn` pointer) so that, as in user code, the
/// `#[inline]` query is inlined into the loop.
fn pair_case<A, B, PA, PB, F>(
    name: &str,
    pairs: Vec<(A, B)>,
    collide: F,
    conv: impl Fn(&A, &B) -> (Posed<PA>, Posed<PB>),
) -> Case
where
    F: Fn(&A, &B) -> bool + 'static,
    A: 'static,
    B: 'static,
    PA: Shape + 'static,
    PB: Shape + 'static,
{
    let n = pairs.len();
    let parry: Vec<(Posed<PA>, Posed<PB>)> = pairs.iter().map(|(a, b)| conv(a, b)).collect();
    Case {
        name: name.into(),
        n,
        collide: Box::new(move || {
            let mut hits = 0;
            for (a, b) in black_box(pairs.as_slice()) {
                hits += usize::from(black_box(collide(a, b)));
            }
            hits
        }),
        parry: Box::new(move || {
            let mut hits = 0;
            for (a, b) in black_box(parry.as_slice()) {
                let r = query::intersection_test(&a.pose, &a.shape, &b.pose, &b.shape);
                hits += usize::from(black_box(r.is_ok_and(|r| r.intersecting)));
            }
            hits
        }),
        parry_call: "query::intersection_test".into(),
        direct: None,
    }
}

/// A two-sided plane against a shape: parry needs both closed half-spaces (see
/// [`convert`]): `intersection_test(HalfSpace(n)) && intersection_test(HalfSpace(-n))`.
fn plane_case<B, PB, F>(
    name: &str,
    pairs: Vec<(collide::shapes::Plane, B)>,
    collide: F,
    conv: impl Fn(&B) -> Posed<PB>,
) -> Case
where
    F: Fn(&collide::shapes::Plane, &B) -> bool + 'static,
    B: 'static,
    PB: Shape + 'static,
{
    let n = pairs.len();
    let parry: Vec<_> = pairs
        .iter()
        .map(|(p, b)| (convert::halfspaces(p), conv(b)))
        .collect();
    Case {
        name: name.into(),
        n,
        collide: Box::new(move || {
            let mut hits = 0;
            for (p, b) in black_box(pairs.as_slice()) {
                hits += usize::from(black_box(collide(p, b)));
            }
            hits
        }),
        parry: Box::new(move || {
            let mut hits = 0;
            for ((pose, up, down), b) in black_box(parry.as_slice()) {
                let hit = |h: &parry3d::shape::HalfSpace| {
                    query::intersection_test(pose, h, &b.pose, &b.shape)
                        .is_ok_and(|r| r.intersecting)
                };
                hits += usize::from(black_box(hit(up) && hit(down)));
            }
            hits
        }),
        parry_call: "2 × query::intersection_test (HalfSpace n, -n)".into(),
        direct: None,
    }
}

/// Every static pair query of the contract (and capsules, triangles).
pub fn static_cases(n: usize) -> Vec<Case> {
    use inputs as i;
    vec![
        pair_case(
            "sphere_sphere",
            i::draw(SEED, n, i::sphere_sphere),
            overlap::sphere_sphere,
            |a, b| (convert::sphere(a), convert::sphere(b)),
        ),
        pair_case(
            "aabb_aabb",
            i::draw(SEED, n, i::aabb_aabb),
            overlap::aabb_aabb,
            |a, b| (convert::aabb(a), convert::aabb(b)),
        ),
        pair_case(
            "sphere_aabb",
            i::draw(SEED, n, i::sphere_aabb),
            overlap::sphere_aabb,
            |a, b| (convert::sphere(a), convert::aabb(b)),
        ),
        pair_case(
            "sphere_obb",
            i::draw(SEED, n, i::sphere_obb),
            overlap::sphere_obb,
            |a, b| (convert::sphere(a), convert::obb(b)),
        ),
        pair_case(
            "obb_obb",
            i::draw(SEED, n, i::obb_obb),
            overlap::obb_obb,
            |a, b| (convert::obb(a), convert::obb(b)),
        ),
        pair_case(
            "aabb_obb",
            i::draw(SEED, n, i::aabb_obb),
            overlap::aabb_obb,
            |a, b| (convert::aabb(a), convert::obb(b)),
        ),
        pair_case(
            "segment_aabb",
            i::draw(SEED, n, i::segment_aabb),
            overlap::segment_aabb,
            |a, b| (convert::segment(a), convert::aabb(b)),
        ),
        pair_case(
            "segment_obb",
            i::draw(SEED, n, i::segment_obb),
            overlap::segment_obb,
            |a, b| (convert::segment(a), convert::obb(b)),
        ),
        plane_case(
            "plane_sphere",
            i::draw(SEED, n, i::plane_sphere),
            overlap::plane_sphere,
            convert::sphere,
        ),
        plane_case(
            "plane_aabb",
            i::draw(SEED, n, i::plane_aabb),
            overlap::plane_aabb,
            convert::aabb,
        ),
        plane_case(
            "plane_obb",
            i::draw(SEED, n, i::plane_obb),
            overlap::plane_obb,
            convert::obb,
        ),
        pair_case(
            "capsule_capsule",
            i::draw(SEED, n, i::capsule_capsule),
            overlap::capsule_capsule,
            |a, b| (convert::capsule(a), convert::capsule(b)),
        ),
        pair_case(
            "capsule_sphere",
            i::draw(SEED, n, i::capsule_sphere),
            overlap::capsule_sphere,
            |a, b| (convert::capsule(a), convert::sphere(b)),
        ),
        pair_case(
            "triangle_aabb",
            i::draw(SEED, n, i::triangle_aabb),
            overlap::triangle_aabb,
            |a, b| (convert::triangle(a), convert::aabb(b)),
        ),
    ]
}

/// parry3d's direct path of a row: `items` prepared (untimed) from the row's inputs, and one
/// call of `f` per item in the timed pass (moving the ray or motion into the shape's frame is
/// part of `f`).
fn direct<X: 'static, R>(
    items: Vec<X>,
    call: &str,
    f: impl Fn(&X) -> Option<R> + 'static,
) -> Option<Direct> {
    Some(Direct {
        pass: Box::new(move || {
            let mut hits = 0;
            for x in black_box(items.as_slice()) {
                hits += usize::from(black_box(f(x)).is_some());
            }
            hits
        }),
        call: call.into(),
    })
}

/// A ray cast with hit point and normal: collide's `cast(ray, shape, max_t)` against parry's
/// `cast_ray_and_get_normal` (solid) on the converted shape, `max_t = 1`, and against the
/// given direct path.
fn ray_case<S, PS, F>(
    name: &str,
    pairs: Vec<(collide::shapes::Ray, S)>,
    cast: F,
    conv: impl Fn(&S) -> Posed<PS>,
    direct: Option<Direct>,
) -> Case
where
    F: Fn(&collide::shapes::Ray, &S, f32) -> Option<raycast::RayHit> + 'static,
    S: 'static,
    PS: RayCast + 'static,
{
    let n = pairs.len();
    let parry: Vec<_> = pairs
        .iter()
        .map(|(r, s)| (convert::ray(r), conv(s)))
        .collect();
    Case {
        name: name.into(),
        n,
        collide: Box::new(move || {
            let mut hits = 0;
            for (r, s) in black_box(pairs.as_slice()) {
                hits += usize::from(black_box(cast(r, s, 1.0)).is_some());
            }
            hits
        }),
        parry: Box::new(move || {
            let mut hits = 0;
            for (r, s) in black_box(parry.as_slice()) {
                let h = s.shape.cast_ray_and_get_normal(&s.pose, r, 1.0, true);
                hits += usize::from(black_box(h).is_some());
            }
            hits
        }),
        parry_call: "RayCast::cast_ray_and_get_normal (solid)".into(),
        direct,
    }
}

/// A world ray moved into the frame of a shape placed by a translation only.
#[inline(always)]
fn shifted(r: &ParryRay, by: Vec3) -> ParryRay {
    ParryRay::new(r.origin - by, r.dir)
}

/// Ray casts against a sphere, an AABB, an OBB, a capsule and a triangle, all built from the
/// same rays and boxes (`inputs::ray_aabb`): the sphere of the box's largest half-extent, the
/// box turned by a random rotation, the capsule along the turned box's longest axis and the
/// triangle spanning the turned box's three half-axes. A fifth (triangles) to a half (spheres)
/// of each row hits.
pub fn ray_cases(n: usize) -> Vec<Case> {
    let rays = |seed| {
        inputs::draw(seed, n, |g: &mut Gen| {
            let (r, b) = inputs::ray_aabb(g);
            let q = g.quat();
            (r, b, q)
        })
    };
    let set = rays(SEED);
    let spheres: Vec<_> = set
        .iter()
        .map(|(r, b, _)| (*r, Sphere::new(b.center(), b.half_extents().max_element())))
        .collect();
    let boxes: Vec<_> = set.iter().map(|(r, b, _)| (*r, *b)).collect();
    let obbs: Vec<_> = set
        .iter()
        .map(|(r, b, q)| (*r, Obb::new(b.center(), *q, b.half_extents())))
        .collect();
    let capsules: Vec<_> = set
        .iter()
        .map(|(r, b, q)| {
            let (c, e) = (b.center(), b.half_extents());
            let axis = *q * Vec3::new(e.max_element(), 0.0, 0.0);
            (*r, Capsule::new(c - axis, c + axis, e.min_element()))
        })
        .collect();
    let triangles: Vec<_> = set
        .iter()
        .map(|(r, b, q)| {
            let (c, e) = (b.center(), b.half_extents() * 2.0);
            let t = Triangle::new(
                c + *q * Vec3::new(e.x, 0.0, 0.0),
                c + *q * Vec3::new(-e.x, e.y, 0.0),
                c + *q * Vec3::new(-e.x, -e.y, e.z),
            );
            (*r, t)
        })
        .collect();

    let ball_direct = direct(
        spheres
            .iter()
            .map(|(r, s)| (convert::ray(r), s.center, Ball::new(s.radius)))
            .collect(),
        "Ball::cast_local_ray_and_get_normal (ray moved by -centre)",
        |(r, c, b): &(ParryRay, Vec3, Ball)| {
            b.cast_local_ray_and_get_normal(&shifted(r, *c), 1.0, true)
        },
    );
    let aabb_direct = direct(
        boxes
            .iter()
            .map(|(r, b)| (convert::ray(r), convert::bounding_aabb(b)))
            .collect(),
        "bounding_volume::Aabb::cast_local_ray_and_get_normal (world frame, no move)",
        |(r, b): &(ParryRay, ParryAabb)| b.cast_local_ray_and_get_normal(r, 1.0, true),
    );
    let obb_direct = direct(
        obbs.iter()
            .map(|(r, o)| (convert::ray(r), convert::obb(o)))
            .collect(),
        "Cuboid::cast_local_ray_and_get_normal (ray by the inverse pose, normal rotated back)",
        |(r, o): &(ParryRay, Posed<parry3d::shape::Cuboid>)| {
            let local = r.inverse_transform_by(&o.pose);
            o.shape
                .cast_local_ray_and_get_normal(&local, 1.0, true)
                .map(|h| RayIntersection {
                    normal: o.pose.rotation * h.normal,
                    ..h
                })
        },
    );
    let capsule_direct = direct(
        capsules
            .iter()
            .map(|(r, c)| {
                let p = convert::capsule(c);
                (convert::ray(r), p.pose.translation, p.shape)
            })
            .collect(),
        "Capsule::cast_local_ray_and_get_normal (ray moved by -midpoint)",
        |(r, m, c): &(ParryRay, Vec3, parry3d::shape::Capsule)| {
            c.cast_local_ray_and_get_normal(&shifted(r, *m), 1.0, true)
        },
    );
    let triangle_direct = direct(
        triangles
            .iter()
            .map(|(r, t)| {
                let pt = parry3d::shape::Triangle::new(t.a, t.b, t.c);
                (convert::ray(r), pt)
            })
            .collect(),
        "Triangle::cast_local_ray_and_get_normal (triangle in world coordinates, no move)",
        |(r, t): &(ParryRay, parry3d::shape::Triangle)| {
            t.cast_local_ray_and_get_normal(r, 1.0, true)
        },
    );
    vec![
        ray_case(
            "ray_sphere",
            spheres,
            raycast::sphere,
            convert::sphere,
            ball_direct,
        ),
        ray_case("ray_aabb", boxes, raycast::aabb, convert::aabb, aabb_direct),
        ray_case("ray_obb", obbs, raycast::obb, convert::obb, obb_direct),
        ray_case(
            "ray_capsule",
            capsules,
            raycast::capsule,
            convert::capsule,
            capsule_direct,
        ),
        ray_case(
            "ray_triangle",
            triangles,
            raycast::triangle,
            convert::triangle,
            triangle_direct,
        ),
    ]
}

/// A sweep over one frame: collide's `sweep::*(a, motion_a, b, motion_b)` against parry's
/// `cast_shapes` with `max_time_of_impact = 1` and `stop_at_penetration: false` (shapes that
/// start in contact hit at 0 only when not separating, as collide's starting-touch rule),
/// and against parry's direct path given by `direct` (called with the converted pair, the
/// motions and the same options).
fn sweep_case<A, B, PA, PB, F, D, R>(
    name: &str,
    items: Vec<(A, Vec3, B, Vec3)>,
    sweep: F,
    conv: impl Fn(&A, &B) -> (Posed<PA>, Posed<PB>),
    (direct_call, direct_f): (&str, D),
) -> Case
where
    F: Fn(&A, Vec3, &B, Vec3) -> Option<sweep::Sweep> + 'static,
    A: 'static,
    B: 'static,
    PA: Shape + Clone + 'static,
    PB: Shape + Clone + 'static,
    D: Fn(&Posed<PA>, Vec3, &Posed<PB>, Vec3, ShapeCastOptions) -> Option<R> + 'static,
{
    let n = items.len();
    let parry: Vec<_> = items
        .iter()
        .map(|(a, ma, b, mb)| {
            let (pa, pb) = conv(a, b);
            (pa, *ma, pb, *mb)
        })
        .collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        stop_at_penetration: false,
        ..ShapeCastOptions::default()
    };
    let direct = direct(
        parry.clone(),
        direct_call,
        move |(a, ma, b, mb): &(Posed<PA>, Vec3, Posed<PB>, Vec3)| {
            direct_f(a, *ma, b, *mb, options)
        },
    );
    Case {
        name: name.into(),
        n,
        collide: Box::new(move || {
            let mut hits = 0;
            for (a, ma, b, mb) in black_box(items.as_slice()) {
                hits += usize::from(black_box(sweep(a, *ma, b, *mb)).is_some());
            }
            hits
        }),
        parry: Box::new(move || {
            let mut hits = 0;
            for (a, ma, b, mb) in black_box(parry.as_slice()) {
                let h = query::cast_shapes(&a.pose, *ma, &a.shape, &b.pose, *mb, &b.shape, options);
                hits += usize::from(black_box(h).is_ok_and(|h| h.is_some()));
            }
            hits
        }),
        parry_call: "query::cast_shapes (max toi 1)".into(),
        direct,
    }
}

/// Sweeps: sphere–sphere and OBB–OBB, each body moving up to 3 units per axis in the frame.
pub fn sweep_cases(n: usize) -> Vec<Case> {
    let spheres = inputs::draw(SEED ^ 1, n, |g: &mut Gen| {
        let g2 = &mut *g;
        g2.extent = 2.5;
        let (a, b) = (g2.sphere(), g2.sphere());
        (a, g2.vec(3.0), b, g2.vec(3.0))
    });
    let boxes = inputs::draw(SEED ^ 2, n, |g: &mut Gen| {
        g.extent = 3.0;
        let (a, b) = (g.obb(), g.obb());
        (a, g.vec(3.0), b, g.vec(3.0))
    });
    vec![
        sweep_case(
            "sweep_sphere_sphere",
            spheres,
            sweep::sphere_sphere,
            |a, b| (convert::sphere(a), convert::sphere(b)),
            (
                "query::details::cast_shapes_ball_ball (B's offset and motion relative to A)",
                |a, ma, b, mb, options| {
                    // Balls have no rotation: A's frame differs from the world's by A's centre.
                    let pos12 = Pose::from_translation(b.pose.translation - a.pose.translation);
                    cast_shapes_ball_ball(&pos12, mb - ma, &a.shape, &b.shape, options)
                },
            ),
        ),
        sweep_case(
            "sweep_obb_obb",
            boxes,
            sweep::obb_obb,
            |a, b| (convert::obb(a), convert::obb(b)),
            (
                "query::details::cast_shapes_support_map_support_map (in A's frame)",
                |a, ma, b, mb, options| {
                    let pos12 = a.pose.inv_mul(&b.pose);
                    let vel12 = a.pose.rotation.inverse() * (mb - ma);
                    cast_shapes_support_map_support_map(&pos12, vel12, &a.shape, &b.shape, options)
                },
            ),
        ),
    ]
}

/// Stored elements per batch query.
pub const BATCH: usize = 4096;

/// One query against [`BATCH`] stored boxes / spheres / against a ray, `queries` times:
/// `collide::batch` (8-lane SoA) against a loop over parry's own bounding volumes (`Aabb::
/// intersects`, `BoundingSphere::intersects`, `Aabb::intersects_local_ray`). Times are per
/// element test.
pub fn batch_cases(queries: usize) -> Vec<Case> {
    let boxes = inputs::aabb_cloud(SEED, BATCH);
    let spheres = inputs::sphere_cloud(SEED, BATCH);
    let mut g = Gen::new(SEED ^ 3);
    g.extent = 8.0;
    g.max_size = 1.0;
    let qb: Vec<Aabb> = (0..queries).map(|_| g.aabb()).collect();
    let qs: Vec<Sphere> = (0..queries).map(|_| g.sphere()).collect();
    let rays: Vec<_> = (0..queries).map(|_| g.ray()).collect();
    let n = queries * BATCH;

    let soa = AabbSoa::from_aabbs(&boxes);
    let pboxes: Vec<_> = boxes.iter().map(convert::bounding_aabb).collect();
    let pqb: Vec<_> = qb.iter().map(convert::bounding_aabb).collect();
    let aabb_case = Case {
        name: format!("batch aabb × {BATCH} (per test)"),
        n,
        collide: {
            let qb = qb.clone();
            Box::new(move || qb.iter().map(|q| soa.count_overlaps(black_box(q))).sum())
        },
        parry: Box::new(move || {
            pqb.iter()
                .map(|q| {
                    let q = black_box(q);
                    pboxes.iter().filter(|b| q.intersects(b)).count()
                })
                .sum()
        }),
        parry_call: "loop of bounding_volume::Aabb::intersects".into(),
        direct: None,
    };

    let soa = AabbSoa::from_aabbs(&boxes);
    let pboxes: Vec<_> = boxes.iter().map(convert::bounding_aabb).collect();
    let prepared: Vec<_> = rays.iter().map(raycast::RayInv::new).collect();
    let prays: Vec<_> = rays.iter().map(convert::ray).collect();
    let mut mask = vec![0u64; collide::batch::mask_words(BATCH)];
    let ray_case = Case {
        name: format!("batch ray × {BATCH} (per test)"),
        n,
        collide: Box::new(move || {
            prepared
                .iter()
                .map(|r| soa.ray_mask(black_box(r), 1.0, &mut mask))
                .sum()
        }),
        parry: Box::new(move || {
            prays
                .iter()
                .map(|r| {
                    let r = black_box(r);
                    pboxes
                        .iter()
                        .filter(|b| b.intersects_local_ray(r, 1.0))
                        .count()
                })
                .sum()
        }),
        parry_call: "loop of Aabb::intersects_local_ray".into(),
        direct: None,
    };

    let ssoa = SphereSoa::from_spheres(&spheres);
    let pspheres: Vec<_> = spheres
        .iter()
        .map(|s| BoundingSphere::new(s.center, s.radius))
        .collect();
    let pqs: Vec<_> = qs
        .iter()
        .map(|s| BoundingSphere::new(s.center, s.radius))
        .collect();
    let sphere_case = Case {
        name: format!("batch sphere × {BATCH} (per test)"),
        n,
        collide: Box::new(move || qs.iter().map(|q| ssoa.count_overlaps(black_box(q))).sum()),
        parry: Box::new(move || {
            pqs.iter()
                .map(|q| {
                    let q = black_box(q);
                    pspheres.iter().filter(|s| q.intersects(s)).count()
                })
                .sum()
        }),
        parry_call: "loop of BoundingSphere::intersects".into(),
        direct: None,
    };
    vec![aabb_case, ray_case, sphere_case]
}

/// Every row of `compare`: static pairs (`n` configurations each), ray casts, sweeps, and
/// the batch rows (`batch_queries` queries against 4096 elements).
pub fn all(n: usize, batch_queries: usize) -> Vec<Case> {
    let mut cases = static_cases(n);
    cases.extend(ray_cases(n));
    cases.extend(sweep_cases(n));
    cases.extend(crate::gjk_cases::gjk_cases(n));
    cases.extend(batch_cases(batch_queries));
    cases
}
