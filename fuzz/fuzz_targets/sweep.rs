//! Every sweep on arbitrary f32 bit patterns. Asserts the shared contract of
//! `collide::sweep`: never panics; a hit has `0 <= enter <= exit <= 1`, a finite point and a
//! unit normal; NaN or infinite input anywhere gives `None`; sphere–sphere and AABB–AABB give
//! the same verdict with A and B swapped (both are exact interval computations).
#![no_main]
use collide::shapes::{Aabb, Obb, Plane, Sphere, Triangle};
use collide::sweep as s;
use collide::Vec3;
use collide_fuzz::check_sweep;
use libfuzzer_sys::fuzz_target;

fn fin_s(x: &Sphere) -> bool {
    x.center.is_finite() && x.radius.is_finite()
}
fn fin_a(x: &Aabb) -> bool {
    x.min.is_finite() && x.max.is_finite()
}
fn fin_b(x: &Obb) -> bool {
    x.center.is_finite() && x.axes.is_finite() && x.half_extents.is_finite()
}
fn fin_t(x: &Triangle) -> bool {
    x.a.is_finite() && x.b.is_finite() && x.c.is_finite()
}
fn fin_p(x: &Plane) -> bool {
    x.normal.is_finite() && x.d.is_finite()
}

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
    let (s1, s2) = (b.sphere(), b.sphere());
    let (a1, a2) = (b.aabb(), b.aabb());
    let (o1, o2) = (b.obb(), b.obb());
    let (tri, pl) = (b.triangle(), b.plane());
    let (m1, m2) = (b.vec3(), b.vec3());
    let rot = (b.quat(), b.quat(), b.quat(), b.quat());
    let fm = m1.is_finite() && m2.is_finite();

    let ss = s::sphere_sphere(&s1, m1, &s2, m2);
    let sr = s::sphere_sphere(&s2, m2, &s1, m1);
    assert_eq!(
        ss.is_some(),
        sr.is_some(),
        "sphere_sphere not symmetric: {ss:?} / {sr:?}"
    );
    let aa = s::aabb_aabb(&a1, m1, &a2, m2);
    let ar = s::aabb_aabb(&a2, m2, &a1, m1);
    assert_eq!(
        aa.is_some(),
        ar.is_some(),
        "aabb_aabb not symmetric: {aa:?} / {ar:?}"
    );
    if let (Some(x), Some(y)) = (aa, ar) {
        assert_eq!(
            (x.enter, x.exit),
            (y.enter, y.exit),
            "aabb_aabb times not symmetric"
        );
    }
    let rotating = s::obb_obb_rotating(
        o1.half_extents,
        (o1.center, rot.0),
        (o1.center + m1, rot.1),
        o2.half_extents,
        (o2.center, rot.2),
        (o2.center + m2, rot.3),
    );
    let rot_fin = o1.half_extents.is_finite()
        && o2.half_extents.is_finite()
        && o1.center.is_finite()
        && o2.center.is_finite()
        && (o1.center + m1).is_finite()
        && (o2.center + m2).is_finite()
        && rot.0.is_finite()
        && rot.1.is_finite()
        && rot.2.is_finite()
        && rot.3.is_finite();

    let all = [
        ("sphere_sphere", ss, fin_s(&s1) && fin_s(&s2) && fm),
        (
            "sphere_plane",
            s::sphere_plane(&s1, m1, &pl),
            fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
        ),
        (
            "sphere_plane_halfspace",
            s::sphere_plane_halfspace(&s1, m1, &pl),
            fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
        ),
        ("aabb_aabb", aa, fin_a(&a1) && fin_a(&a2) && fm),
        (
            "obb_obb",
            s::obb_obb(&o1, m1, &o2, m2),
            fin_b(&o1) && fin_b(&o2) && fm,
        ),
        (
            "sphere_aabb",
            s::sphere_aabb(&s1, m1, &a1, m2),
            fin_s(&s1) && fin_a(&a1) && fm,
        ),
        (
            "sphere_obb",
            s::sphere_obb(&s1, m1, &o1, m2),
            fin_s(&s1) && fin_b(&o1) && fm,
        ),
        (
            "sphere_triangle",
            s::sphere_triangle(&s1, m1, &tri, m2),
            fin_s(&s1) && fin_t(&tri) && fm,
        ),
        ("obb_obb_rotating", rotating, rot_fin),
    ];
    for (name, hit, finite) in &all {
        check_sweep(name, hit);
        if !finite {
            assert!(hit.is_none(), "{name}: NaN/infinite input hit: {hit:?}");
        }
    }
    let _ = Vec3::ZERO;
});
