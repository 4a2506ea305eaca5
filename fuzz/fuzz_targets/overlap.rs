//! Every static test on arbitrary f32 bit patterns: never panics; NaN input gives `false`;
//! answers that must be symmetric by construction are.
#![no_main]
use collide::overlap as o;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
    let (s1, s2) = (b.sphere(), b.sphere());
    let (a1, a2) = (b.aabb(), b.aabb());
    let (b1, b2) = (b.obb(), b.obb());
    let (seg, cap1, cap2) = (b.segment(), b.capsule(), b.capsule());
    let (tri, pl) = (b.triangle(), b.plane());

    // Exactly symmetric by construction.
    assert_eq!(o::sphere_sphere(&s1, &s2), o::sphere_sphere(&s2, &s1));
    assert_eq!(o::aabb_aabb(&a1, &a2), o::aabb_aabb(&a2, &a1));

    let results = [
        o::sphere_aabb(&s1, &a1),
        o::sphere_obb(&s1, &b1),
        o::obb_obb(&b1, &b2),
        o::aabb_obb(&a1, &b1),
        o::segment_aabb(&seg, &a1),
        o::segment_obb(&seg, &b1),
        o::plane_sphere(&pl, &s1),
        o::plane_aabb(&pl, &a1),
        o::plane_obb(&pl, &b1),
        o::capsule_capsule(&cap1, &cap2),
        o::capsule_sphere(&cap1, &s1),
        o::triangle_aabb(&tri, &a1),
    ];
    // NaN anywhere in a pair's input gives `false`.
    let nan_s = s1.center.is_nan() || s1.radius.is_nan();
    let nan_a = a1.min.is_nan() || a1.max.is_nan();
    let nan_b = !b1.center.is_finite() && b1.center.is_nan()
        || b1.axes.is_nan()
        || b1.half_extents.is_nan();
    if nan_s || nan_a {
        assert!(!results[0], "sphere_aabb with NaN input said true");
    }
    if nan_b {
        assert!(!results[2], "obb_obb with NaN input said true");
        assert!(!results[3], "aabb_obb with NaN input said true");
    }
});
