//! Every static test on arbitrary f32 bit patterns: never panics; NaN anywhere in a pair's
//! input gives `false` (the crate-wide bad-input rule, checked for every function); answers
//! that are symmetric by construction or by a documented mirror are.
#![no_main]
use collide::overlap as o;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
use libfuzzer_sys::fuzz_target;

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

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
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
});
