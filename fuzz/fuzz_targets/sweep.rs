//! Every sweep on arbitrary f32 bit patterns: never panics; a hit has 0 <= enter <= exit <= 1,
//! a finite point and a unit normal; NaN input gives `None`; sphere–sphere is symmetric.
#![no_main]
use collide::sweep as s;
use collide_fuzz::check_sweep;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
    let (s1, s2) = (b.sphere(), b.sphere());
    let (a1, a2) = (b.aabb(), b.aabb());
    let (o1, o2) = (b.obb(), b.obb());
    let (tri, pl) = (b.triangle(), b.plane());
    let (m1, m2) = (b.vec3(), b.vec3());

    let ss = s::sphere_sphere(&s1, m1, &s2, m2);
    check_sweep("sphere_sphere", &ss);
    let sr = s::sphere_sphere(&s2, m2, &s1, m1);
    assert_eq!(ss.is_some(), sr.is_some(), "sphere_sphere not symmetric");
    if collide_fuzz::any_nan(&[s1.center, s2.center, m1, m2]) {
        assert!(ss.is_none(), "sphere_sphere with NaN input hit");
    }
    check_sweep("sphere_plane", &s::sphere_plane(&s1, m1, &pl));
    check_sweep("sphere_plane_halfspace", &s::sphere_plane_halfspace(&s1, m1, &pl));
    check_sweep("aabb_aabb", &s::aabb_aabb(&a1, m1, &a2, m2));
    check_sweep("obb_obb", &s::obb_obb(&o1, m1, &o2, m2));
    check_sweep("sphere_aabb", &s::sphere_aabb(&s1, m1, &a1, m2));
    check_sweep("sphere_obb", &s::sphere_obb(&s1, m1, &o1, m2));
    check_sweep("sphere_triangle", &s::sphere_triangle(&s1, m1, &tri, m2));
});
