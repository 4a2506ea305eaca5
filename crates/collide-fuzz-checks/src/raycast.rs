//! Every ray cast on arbitrary f32 bit patterns: never panics; a hit has 0 <= t <= max_t, a
//! finite `t`, a finite point `origin + t · dir` and a unit normal; NaN input gives `None`.
//! On moderate input (coordinates within 1e3, `|dir|` in [1e-2, 1e2], `max_t <= 1e3`) an
//! f64 oracle samples the ray: a sample inside a solid shape (sphere, box, OBB, capsule)
//! means a hit no later than it; a hit is on the surface (`t > 0`) or starts inside
//! (`t = 0`); a plane or triangle hit lies on the plane / triangle.
use super::check_hit;
use collide::raycast as r;
use collide::raycast::RayHit;
use collide::shapes::{Plane, Ray, Triangle};
use collide::Vec3;

/// Coordinates within 1e3, `|dir|` in `[1e-2, 1e2]`, `max_t` in `[0, 1e3]`.
fn moderate(ray: &Ray, max_t: f32, pts: &[Vec3], scalars: &[f32]) -> bool {
    let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
    let len = ray.dir.length();
    ray.origin.to_array().into_iter().all(ok)
        && ray.dir.to_array().into_iter().all(ok)
        && (1e-2..=1e2).contains(&len)
        && (0.0..=1e3).contains(&max_t)
        && pts.iter().all(|p| p.to_array().into_iter().all(ok))
        && scalars.iter().copied().all(ok)
}

/// Distance tolerance of the oracle: `1e-5` of the largest magnitude involved, at least
/// `1e-5` (the library mixes `f32` slab tests with `f64` solves; the oracle works in `f32`,
/// whose rounding, ~6e-8 of the magnitude, is far below this).
fn tolerance(ray: &Ray, max_t: f32, pts: &[Vec3], scalars: &[f32]) -> f32 {
    let mut m = ray.origin.abs().max_element().max(ray.dir.length() * max_t);
    for p in pts {
        m = m.max(p.abs().max_element());
    }
    for x in scalars {
        m = m.max(x.abs());
    }
    1e-5 * (1.0 + m)
}

/// Samples the ray against `depth` (positive inside the solid) and checks `hit`; panics
/// on a contradiction. Does nothing unless the input is moderate.
pub fn oracle(
    ray: &Ray,
    max_t: f32,
    name: &str,
    hit: Option<RayHit>,
    pts: &[Vec3],
    scalars: &[f32],
    depth: impl Fn(Vec3) -> f32,
) {
    if !moderate(ray, max_t, pts, scalars) {
        return;
    }
    let tol = tolerance(ray, max_t, pts, scalars);
    let (o, d) = (ray.origin, ray.dir);
    let dl = d.length();
    for k in 0..=64u8 {
        let t = max_t * f32::from(k) / 64.0;
        if depth(o + d * t) > tol {
            let Some(h) = hit else {
                panic!("{name}: no hit, but the ray is inside at t = {t}");
            };
            assert!(
                h.t <= t + tol / dl,
                "{name}: hit {h:?} later than t = {t}, where the ray is inside"
            );
        }
    }
    if let Some(h) = hit {
        let dep = depth(h.point);
        if h.t > 0.0 {
            assert!(
                dep.abs() <= tol,
                "{name}: hit {h:?} is {dep} off the surface"
            );
        } else {
            assert!(dep >= -tol, "{name}: t = 0 hit {h:?} starts {dep} outside");
        }
    }
}

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = super::Bytes::new(data);
    let ray = b.ray();
    let max_t = b.f32();
    let (pl, sp, bx, ob, cap, tri) = (
        b.plane(),
        b.sphere(),
        b.aabb(),
        b.obb(),
        b.capsule(),
        b.triangle(),
    );
    let nan_ray = super::any_nan(&[ray.origin, ray.dir]) || max_t.is_nan();

    let hits = [
        ("plane", r::plane(&ray, &pl, max_t)),
        ("sphere", r::sphere(&ray, &sp, max_t)),
        ("aabb", r::aabb(&ray, &bx, max_t)),
        ("obb", r::obb(&ray, &ob, max_t)),
        ("capsule", r::capsule(&ray, &cap, max_t)),
        ("triangle", r::triangle(&ray, &tri, max_t)),
    ];
    // NaN anywhere in a shape also gives `None`.
    let nan_shape = [
        pl.normal.is_nan() || pl.d.is_nan(),
        sp.center.is_nan() || sp.radius.is_nan(),
        bx.min.is_nan() || bx.max.is_nan(),
        ob.center.is_nan() || ob.axes.is_nan() || ob.half_extents.is_nan(),
        cap.a.is_nan() || cap.b.is_nan() || cap.radius.is_nan(),
        super::any_nan(&[tri.a, tri.b, tri.c]),
    ];
    for ((name, h), nan_s) in hits.iter().zip(nan_shape) {
        check_hit(name, &ray, max_t, h);
        if nan_ray || nan_s {
            assert!(h.is_none(), "{name}: NaN input hit: {h:?}");
        }
    }
    check_points(&ray, &hits);
    // On moderate input, an oracle in f64: sample the ray and compare with the depth of
    // each solid shape (positive inside).
    oracle(
        &ray,
        max_t,
        "sphere",
        hits[1].1,
        &[sp.center],
        &[sp.radius],
        |p| sp.radius.abs() - (p - sp.center).length(),
    );
    oracle(
        &ray,
        max_t,
        "aabb",
        hits[2].1,
        &[bx.min, bx.max],
        &[],
        |p| (p - bx.min).min(bx.max - p).min_element(),
    );
    oracle(
        &ray,
        max_t,
        "obb",
        hits[3].1,
        &[ob.center, ob.half_extents],
        &[],
        |p| {
            // Box frame through the transpose of the (orthonormal to ~1e-7) axes.
            let q = ob.axes.transpose() * (p - ob.center);
            (ob.half_extents.abs() - q.abs()).min_element()
        },
    );
    oracle(
        &ray,
        max_t,
        "capsule",
        hits[4].1,
        &[cap.a, cap.b],
        &[cap.radius],
        |p| {
            let (a, b) = (cap.a, cap.b);
            let ab = b - a;
            let l2 = ab.length_squared();
            let s = if l2 > 0.0 {
                ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            cap.radius.abs() - (p - (a + ab * s)).length()
        },
    );
    check_thin(&ray, max_t, &pl, hits[0].1, &tri, hits[5].1);
    // The precomputed-inverse slab test agrees with the plain one.
    let inv = r::RayInv::new(&ray);
    assert_eq!(
        r::aabb_inv(&inv, &bx, max_t).map(|h| h.t.to_bits()),
        hits[2].1.map(|h| h.t.to_bits()),
        "aabb and aabb_inv disagree"
    );
}

/// Every hit's point is `origin + t · dir` (to rounding).
fn check_points(ray: &Ray, hits: &[(&str, Option<RayHit>)]) {
    for (name, h) in hits {
        if let Some(h) = h {
            let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
            let want = o + f64::from(h.t) * d;
            let err = (h.point.as_dvec3() - want).length();
            let mag = o.length() + f64::from(h.t) * d.length();
            // Plus the rounding of `t` itself to f32 (the point is computed from the exact
            // `t`): half its spacing, at least the smallest subnormal (a `t` of 5e-50
            // reported as 0 while `dir` is 4e29 puts the point 2e-20 from the origin).
            let spacing = (f64::from(h.t) * f64::from(f32::EPSILON)).max(1.5e-45);
            assert!(
                err <= 1e-6 * mag + spacing * d.length() + 1e-30,
                "{name}: point {} is not origin + t·dir = {want} (error {err:e})",
                h.point
            );
        }
    }
}

/// The thin shapes: a hit lies on the plane / in the triangle's plane.
fn check_thin(
    ray: &Ray,
    max_t: f32,
    pl: &Plane,
    plane_hit: Option<RayHit>,
    tri: &Triangle,
    triangle_hit: Option<RayHit>,
) {
    if let Some(h) = plane_hit {
        if moderate(ray, max_t, &[], &[pl.d]) && (pl.normal.length() - 1.0).abs() < 1e-3 {
            let dist = pl.signed_distance(h.point);
            let tol = tolerance(ray, max_t, &[], &[pl.d]);
            assert!(
                dist.abs() <= tol,
                "plane: hit {h:?} is {dist} off the plane"
            );
        }
    }
    if let Some(h) = triangle_hit {
        if moderate(ray, max_t, &[tri.a, tri.b, tri.c], &[]) {
            let q = collide::closest::point_triangle(h.point, tri);
            let tol = tolerance(ray, max_t, &[tri.a, tri.b, tri.c], &[]);
            let dist = (q - h.point).length();
            assert!(
                dist <= tol,
                "triangle: hit {h:?} is {dist} from the triangle"
            );
        }
    }
}
