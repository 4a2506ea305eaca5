//! The table of compared queries: one [`Case`] per row, each a collide closure and a parry3d
//! closure over the same fixed inputs. `compare` and the criterion benches both build from
//! here; a new row is one more entry in [`all`].
//!
//! The parry3d side is what a parry user writes for the same question: shapes built once in
//! parry's form (conversion not timed), then the generic `query::intersection_test`,
//! `RayCast::cast_ray_and_get_normal` or `query::cast_shapes`, which dispatch on the shape
//! types at run time as parry's pipeline does.

use crate::convert::{self, Posed};
use crate::inputs;
use crate::timing::Case;
use collide::batch::{AabbSoa, SphereSoa};
use collide::raycast;
use collide::shapes::{Aabb, Obb, Sphere};
use collide::{overlap, sweep, Vec3};
use collide_testkit::Gen;
use parry3d::bounding_volume::{BoundingSphere, BoundingVolume};
use parry3d::query::{self, RayCast, ShapeCastOptions};
use parry3d::shape::Shape;
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

/// A ray cast with hit point and normal: collide's `cast(ray, shape, max_t)` against parry's
/// `cast_ray_and_get_normal` (solid) on the converted shape, `max_t = 1`.
fn ray_case<S, PS, F>(
    name: &str,
    pairs: Vec<(collide::shapes::Ray, S)>,
    cast: F,
    conv: impl Fn(&S) -> Posed<PS>,
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
    }
}

/// Ray casts against a sphere, an AABB and an OBB.
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
    vec![
        ray_case("ray_sphere", spheres, raycast::sphere, convert::sphere),
        ray_case("ray_aabb", boxes, raycast::aabb, convert::aabb),
        ray_case("ray_obb", obbs, raycast::obb, convert::obb),
    ]
}

/// A sweep over one frame: collide's `sweep::*(a, motion_a, b, motion_b)` against parry's
/// `cast_shapes` with `max_time_of_impact = 1` and `stop_at_penetration: false` (shapes that
/// start in contact hit at 0 only when not separating, as collide's starting-touch rule).
fn sweep_case<A, B, PA, PB, F>(
    name: &str,
    items: Vec<(A, Vec3, B, Vec3)>,
    sweep: F,
    conv: impl Fn(&A, &B) -> (Posed<PA>, Posed<PB>),
) -> Case
where
    F: Fn(&A, Vec3, &B, Vec3) -> Option<sweep::Sweep> + 'static,
    A: 'static,
    B: 'static,
    PA: Shape + 'static,
    PB: Shape + 'static,
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
        ),
        sweep_case("sweep_obb_obb", boxes, sweep::obb_obb, |a, b| {
            (convert::obb(a), convert::obb(b))
        }),
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
    };
    vec![aabb_case, ray_case, sphere_case]
}

/// Every row of `compare`: static pairs (`n` configurations each), ray casts, sweeps, and
/// the batch rows (`batch_queries` queries against 4096 elements).
pub fn all(n: usize, batch_queries: usize) -> Vec<Case> {
    let mut cases = static_cases(n);
    cases.extend(ray_cases(n));
    cases.extend(sweep_cases(n));
    cases.extend(batch_cases(batch_queries));
    cases
}
