//! Every static test on arbitrary f32 bit patterns: never panics; NaN anywhere in a pair's
//! input gives `false` (the crate-wide bad-input rule, checked for every function); answers
//! that are symmetric by construction or by a documented mirror are; on moderate input the
//! sphere, box, plane, segment and triangle verdicts agree with f64 geometry outside a
//! rounding band (see `oracle`).
use collide::overlap as o;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};

fn nan_s(s: &Sphere) -> bool {
    s.center.is_nan() || s.radius.is_nan()
}
fn nan_a(a: &Aabb) -> bool {
    a.min.is_nan() || a.max.is_nan()
}
fn nan_b(b: &Obb) -> bool {
    b.center.is_nan() || b.axes.is_nan() || b.half_extents.is_nan()
}
fn nan_seg(s: &Segment) -> bool {
    s.a.is_nan() || s.b.is_nan()
}
fn nan_c(c: &Capsule) -> bool {
    c.a.is_nan() || c.b.is_nan() || c.radius.is_nan()
}
fn nan_t(t: &Triangle) -> bool {
    t.a.is_nan() || t.b.is_nan() || t.c.is_nan()
}
fn nan_p(p: &Plane) -> bool {
    p.normal.is_nan() || p.d.is_nan()
}

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = super::Bytes::new(data);
    let (s1, s2) = (b.sphere(), b.sphere());
    let (a1, a2) = (b.aabb(), b.aabb());
    let (b1, b2) = (b.obb(), b.obb());
    let (seg, cap1, cap2) = (b.segment(), b.capsule(), b.capsule());
    let (tri, pl) = (b.triangle(), b.plane());

    // Exactly symmetric by construction, or documented mirrors.
    assert_eq!(o::sphere_sphere(&s1, &s2), o::sphere_sphere(&s2, &s1));
    assert_eq!(o::aabb_aabb(&a1, &a2), o::aabb_aabb(&a2, &a1));
    assert_eq!(o::sphere_capsule(&s1, &cap1), o::capsule_sphere(&cap1, &s1));

    let results = [
        (
            "sphere_sphere",
            o::sphere_sphere(&s1, &s2),
            nan_s(&s1) || nan_s(&s2),
        ),
        (
            "aabb_aabb",
            o::aabb_aabb(&a1, &a2),
            nan_a(&a1) || nan_a(&a2),
        ),
        (
            "sphere_aabb",
            o::sphere_aabb(&s1, &a1),
            nan_s(&s1) || nan_a(&a1),
        ),
        (
            "sphere_obb",
            o::sphere_obb(&s1, &b1),
            nan_s(&s1) || nan_b(&b1),
        ),
        (
            "sphere_capsule",
            o::sphere_capsule(&s1, &cap1),
            nan_s(&s1) || nan_c(&cap1),
        ),
        (
            "sphere_triangle",
            o::sphere_triangle(&s1, &tri),
            nan_s(&s1) || nan_t(&tri),
        ),
        ("obb_obb", o::obb_obb(&b1, &b2), nan_b(&b1) || nan_b(&b2)),
        ("aabb_obb", o::aabb_obb(&a1, &b1), nan_a(&a1) || nan_b(&b1)),
        (
            "segment_aabb",
            o::segment_aabb(&seg, &a1),
            nan_seg(&seg) || nan_a(&a1),
        ),
        (
            "segment_obb",
            o::segment_obb(&seg, &b1),
            nan_seg(&seg) || nan_b(&b1),
        ),
        (
            "plane_sphere",
            o::plane_sphere(&pl, &s1),
            nan_p(&pl) || nan_s(&s1),
        ),
        (
            "plane_aabb",
            o::plane_aabb(&pl, &a1),
            nan_p(&pl) || nan_a(&a1),
        ),
        (
            "plane_obb",
            o::plane_obb(&pl, &b1),
            nan_p(&pl) || nan_b(&b1),
        ),
        (
            "plane_capsule",
            o::plane_capsule(&pl, &cap1),
            nan_p(&pl) || nan_c(&cap1),
        ),
        (
            "capsule_capsule",
            o::capsule_capsule(&cap1, &cap2),
            nan_c(&cap1) || nan_c(&cap2),
        ),
        (
            "capsule_sphere",
            o::capsule_sphere(&cap1, &s1),
            nan_c(&cap1) || nan_s(&s1),
        ),
        (
            "triangle_aabb",
            o::triangle_aabb(&tri, &a1),
            nan_t(&tri) || nan_a(&a1),
        ),
        (
            "triangle_obb",
            o::triangle_obb(&tri, &b1),
            nan_t(&tri) || nan_b(&b1),
        ),
    ];
    for (name, hit, nan) in results {
        if nan {
            assert!(!hit, "{name} with NaN input said true");
        }
    }
    oracle(&s1, &s2, &a1, &a2, &b1, &seg, &tri, &pl);
}

/// On moderate input (every number within 1e3), the verdicts against f64 geometry: a
/// pair overlapping by more than `tol` must say `true`, a pair apart by more than `tol`
/// must say `false` (touching counts, and the band in between is rounding's). Sampled
/// for segments and triangles (a sample inside by more than `tol` means `true`).
#[allow(clippy::too_many_arguments)]
fn oracle(
    s1: &Sphere,
    s2: &Sphere,
    a1: &Aabb,
    a2: &Aabb,
    b1: &Obb,
    seg: &Segment,
    tri: &Triangle,
    pl: &Plane,
) {
    use collide::Vec3;
    let vs = [
        s1.center,
        s2.center,
        a1.min,
        a1.max,
        a2.min,
        a2.max,
        b1.center,
        b1.half_extents,
        seg.a,
        seg.b,
        tri.a,
        tri.b,
        tri.c,
    ];
    let ss = [s1.radius, s2.radius];
    let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
    if !(vs.iter().all(|v| v.to_array().into_iter().all(ok)) && ss.into_iter().all(ok)) {
        return;
    }
    let scale = vs
        .iter()
        .map(|v| v.abs().max_element())
        .chain(ss.iter().map(|x| x.abs()))
        .fold(0.0f32, f32::max);
    let tol = 1e-5 * (1.0 + f64::from(scale));
    // `gap`: distance apart (> 0) or depth of overlap (< 0), in f64.
    let expect = |name: &str, got: bool, gap: f64| {
        if gap < -tol {
            assert!(got, "{name}: overlapping by {} but false", -gap);
        }
        if gap > tol {
            assert!(!got, "{name}: apart by {gap} but true");
        }
    };
    let d = |v: Vec3| v.as_dvec3();
    let (r1, r2) = (f64::from(s1.radius.abs()), f64::from(s2.radius.abs()));
    expect(
        "sphere_sphere",
        o::sphere_sphere(s1, s2),
        (d(s1.center) - d(s2.center)).length() - r1 - r2,
    );
    // Boxes: pure comparisons, exact in f64 too.
    let boxes = (0..3).all(|i| a1.min[i] <= a2.max[i] && a2.min[i] <= a1.max[i]);
    assert_eq!(o::aabb_aabb(a1, a2), boxes, "aabb_aabb vs interval test");
    let c = d(s1.center);
    let near = c.clamp(d(a1.min), d(a1.max));
    expect(
        "sphere_aabb",
        o::sphere_aabb(s1, a1),
        (c - near).length() - r1,
    );
    // OBB: box frame by the transpose of the (orthonormal to ~1e-7) axes.
    if b1.axes.is_finite() {
        let m = b1.axes.as_dmat3();
        let q = m.transpose() * (c - d(b1.center));
        let e = d(b1.half_extents.abs());
        let gap = (q - q.clamp(-e, e)).length() - r1;
        expect("sphere_obb", o::sphere_obb(s1, b1), gap);
    }
    if (pl.normal.length() - 1.0).abs() < 1e-3 && ok(pl.d) {
        let n = d(pl.normal);
        let dist = n.dot(c) + f64::from(pl.d);
        expect("plane_sphere", o::plane_sphere(pl, s1), dist.abs() - r1);
        let (lo, hi) = (d(a1.min), d(a1.max));
        let (mid, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
        let dist = n.dot(mid) + f64::from(pl.d);
        let reach = half.dot(n.abs());
        expect("plane_aabb", o::plane_aabb(pl, a1), dist.abs() - reach);
    }
    // Samples along the segment and over the triangle: one inside the box by more than
    // `tol` (or within the sphere) means they overlap.
    let (lo, hi) = (d(a1.min), d(a1.max));
    for k in 0..=16u8 {
        let u = f64::from(k) / 16.0;
        let p = d(seg.a) + (d(seg.b) - d(seg.a)) * u;
        if (p - lo).min(hi - p).min_element() > tol {
            assert!(
                o::segment_aabb(seg, a1),
                "segment_aabb: sample {u} inside, false"
            );
        }
    }
    for i in 0..=8u8 {
        for j in 0..=(8 - i) {
            let (u, v) = (f64::from(i) / 8.0, f64::from(j) / 8.0);
            let p = d(tri.a) + (d(tri.b) - d(tri.a)) * u + (d(tri.c) - d(tri.a)) * v;
            if (p - lo).min(hi - p).min_element() > tol {
                assert!(
                    o::triangle_aabb(tri, a1),
                    "triangle_aabb: sample inside, false"
                );
            }
            if (p - c).length() < r1 - tol {
                assert!(
                    o::sphere_triangle(s1, tri),
                    "sphere_triangle: sample inside, false"
                );
            }
        }
    }
}
