//! The ray casts' unit tests.

use super::*;
use crate::assert_near;
use crate::math::Quat;

#[test]
fn triangle_grazing_a_needle_reports_no_false_hit() {
    // A needle of aspect ~1e6 crossed at a grazing angle of ~1e-10 rad: Möller–Trumbore's det
    // is mostly rounding, and a hit taken from it lands 2.25 from the triangle. Any hit
    // reported must lie on the triangle.
    let tri = Triangle::new(
        Vec3::splat(48.564_705),
        Vec3::new(6.08e-39, 0.0, 2.19e-41),
        Vec3::new(1.220_777_6e-4, 2.84e-14, 1.77e-43),
    );
    let ray = Ray::new(Vec3::new(6.0, 1.77e-43, 0.0), Vec3::new(-8.0, 6.0, 6.0));
    if let Some(h) = triangle(&ray, &tri, 6.0) {
        let q = crate::closest::point_triangle(h.point, &tri);
        assert!(
            (q - h.point).length() < 1e-4,
            "hit {h:?} is off the triangle"
        );
    }
    // A well-conditioned ray through the same needle's interior still hits.
    let mid = Vec3::splat(20.0) + Vec3::new(5e-5, 0.0, 0.0);
    let h = triangle(
        &Ray::new(mid + Vec3::new(0.0, 5.0, -5.0), Vec3::new(0.0, -1.0, 1.0)),
        &tri,
        10.0,
    );
    assert!(
        h.is_some(),
        "a ray across the needle's plane through its middle misses"
    );
}

#[test]
fn plane_both_sides_and_parallel() {
    // Plane y = 0; from y = 5 down: t = 5/|d|·... with d = (0,-2,0) → t = 2.5, normal +y.
    let p = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
    let h = plane(
        &Ray::new(Vec3::new(0.0, 5.0, 0.0), -2.0 * Vec3::Y),
        &p,
        10.0,
    )
    .unwrap();
    assert_near!(h.t, 2.5);
    assert_near!(h.normal, Vec3::Y);
    // From below, upward: normal -y.
    let h = plane(&Ray::new(Vec3::new(1.0, -3.0, 0.0), Vec3::Y), &p, 10.0).unwrap();
    assert_near!(h.t, 3.0);
    assert_near!(h.normal, -Vec3::Y);
    // Parallel, off the plane: miss; moving away: miss; too short: miss.
    assert!(plane(&Ray::new(Vec3::Y, Vec3::X), &p, 10.0).is_none());
    assert!(plane(&Ray::new(Vec3::Y, Vec3::Y), &p, 10.0).is_none());
    assert!(plane(&Ray::new(Vec3::Y * 5.0, -Vec3::Y), &p, 4.9).is_none());
}

#[test]
fn sphere_front_tangent_inside() {
    // Unit sphere at the origin, ray from x = -5 along +x: hits at t = 4, normal -x.
    let s = Sphere::new(Vec3::ZERO, 1.0);
    let h = sphere(&Ray::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::X), &s, 10.0).unwrap();
    assert_near!(h.t, 4.0);
    assert_near!(h.normal, -Vec3::X);
    // Tangent at y = 1: touches.
    let h = sphere(&Ray::new(Vec3::new(-5.0, 1.0, 0.0), Vec3::X), &s, 10.0).unwrap();
    assert_near!(h.t, 5.0);
    // Inside: t = 0, normal against the ray.
    let h = sphere(&Ray::new(Vec3::ZERO, Vec3::X), &s, 10.0).unwrap();
    assert_eq!(h.t, 0.0);
    assert_near!(h.normal, -Vec3::X);
    // Behind: miss.
    assert!(sphere(&Ray::new(Vec3::new(5.0, 0.0, 0.0), Vec3::X), &s, 10.0).is_none());
}

#[test]
fn aabb_faces_edges_parallel() {
    let b = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
    // From -z toward the box: enters the z = -1 face at t = 4, normal -z.
    let h = aabb(&Ray::new(Vec3::new(0.2, 0.3, -5.0), Vec3::Z), &b, 10.0).unwrap();
    assert_near!(h.t, 4.0);
    assert_near!(h.normal, -Vec3::Z);
    // Along the face plane x = 1 (parallel): touching counts.
    assert!(aabb(&Ray::new(Vec3::new(1.0, 0.0, -5.0), Vec3::Z), &b, 10.0).is_some());
    // Just outside that plane: miss.
    assert!(aabb(&Ray::new(Vec3::new(1.001, 0.0, -5.0), Vec3::Z), &b, 10.0).is_none());
    // Through the edge (1, 1, z) diagonally in xy: touching counts.
    let r = Ray::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(1.0, -1.0, 0.0));
    assert!(aabb(&r, &b, 10.0).is_some());
    // Empty box: miss.
    assert!(aabb(&Ray::new(Vec3::ZERO, Vec3::X), &Aabb::EMPTY, 10.0).is_none());
}

#[test]
fn aabb_fast_path_equals_the_slab_loop() {
    // The four-lane path of `aabb_inv` against its scalar loop on random rays and boxes,
    // rays aimed at corners and edges (ties between slab entries), origins on faces and
    // inside: bit-identical answers wherever the fast path applies.
    let mut g = collide_testkit::Gen::new(31);
    let mut hits = 0;
    for k in 0..20_000 {
        // Testkit shapes are another build of this crate's types; rebuild the box here.
        let (c, h) = (g.vec(4.0), g.vec(2.0).abs());
        let b = Aabb::new(c - h, c + h);
        let origin = match k % 4 {
            0 => g.vec(6.0),
            1 => b.center(),
            2 => Vec3::new(
                b.min.x,
                g.range(b.min.y, b.max.y),
                g.range(b.min.z, b.max.z),
            ),
            _ => b.center() + g.unit() * 8.0,
        };
        let target = match k % 3 {
            0 => b.max,
            1 => Vec3::new(b.max.x, b.min.y, g.range(b.min.z, b.max.z)),
            _ => g.vec(3.0),
        };
        let ray = RayInv::new(&Ray::new(origin, (target - origin) * g.range(0.1, 3.0)));
        let max_t = if k % 5 == 0 { g.range(0.0, 1.0) } else { 10.0 };
        let fast = aabb_inv(&ray, &b, max_t);
        assert_eq!(
            fast,
            aabb_inv_general(&ray, &b, max_t),
            "{ray:?} {b:?} {max_t}"
        );
        hits += usize::from(fast.is_some());
    }
    assert!(hits > 5_000, "{hits} hits");
}

#[test]
fn obb_rotated_face() {
    // Box rotated 45° about z; a ray along -x from x = 5 hits its corner edge at x = √2.
    let o = Obb::new(
        Vec3::ZERO,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        Vec3::ONE,
    );
    let h = obb(&Ray::new(Vec3::new(5.0, 0.0, 0.0), -Vec3::X), &o, 10.0).unwrap();
    assert_near!(h.t, 5.0 - 2f32.sqrt(), 1e-5);
}

#[test]
fn capsule_side_cap_and_degenerate() {
    let c = Capsule::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), 1.0);
    let h = capsule(&Ray::new(Vec3::new(2.0, 5.0, 0.0), -Vec3::Y), &c, 10.0).unwrap();
    assert_near!(h.t, 4.0);
    assert_near!(h.normal, Vec3::Y);
    let h = capsule(&Ray::new(Vec3::new(9.0, 0.0, 0.0), -Vec3::X), &c, 10.0).unwrap();
    assert_near!(h.t, 4.0);
    assert_near!(h.normal, Vec3::X);
    // a == b: a sphere.
    let s = Capsule::new(Vec3::ZERO, Vec3::ZERO, 1.0);
    let h = capsule(&Ray::new(Vec3::new(0.0, 0.0, 3.0), -Vec3::Z), &s, 10.0).unwrap();
    assert_near!(h.t, 2.0);
}

#[test]
fn capsule_graze_with_zero_discriminant_hits_on_the_surface() {
    // A capsule of radius 6 along z (tilted by 1e-14) and a ray
    // starting on its cylinder just below the end `a`, moving tangentially. The wall's
    // discriminant rounded to exactly 0 while `B` (-1e-12) and `C` (2e-13) were rounding
    // residues; the root `C / (-B + √0)` would put a hit at t = 0.222, 0.258 outside the
    // capsule. The ray never enters (its distance to the axis is √(36 + 64 t²)); any hit
    // must lie on the surface, in either order of the ends.
    let (a, b) = (
        Vec3::new(0.0, 0.0, 1.220_778_8e-4),
        Vec3::new(2.842_171e-14, 5.650_904_4e-14, 6.0),
    );
    let ray = Ray::new(Vec3::new(6.0, 0.0, 0.0), Vec3::new(0.0, -8.0, 1.0));
    for c in [Capsule::new(a, b, 6.0), Capsule::new(b, a, 6.0)] {
        if let Some(h) = capsule(&ray, &c, 6.0) {
            let (a, b) = (c.a.as_dvec3(), c.b.as_dvec3());
            let dist = kernel::dist2_point_segment(h.point.as_dvec3(), a, b).sqrt();
            assert!(
                (dist - 6.0).abs() <= 1e-5,
                "hit {h:?} is {dist} from the axis"
            );
        }
    }
}

#[test]
fn triangle_interior_edge_degenerate_parallel() {
    let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
    // Interior from above: t = 2, normal +z (facing the origin of the ray).
    let h = triangle(&Ray::new(Vec3::new(0.2, 0.2, 2.0), -Vec3::Z), &t, 10.0).unwrap();
    assert_near!(h.t, 2.0);
    assert_near!(h.normal, Vec3::Z);
    // From below: normal -z.
    let h = triangle(&Ray::new(Vec3::new(0.2, 0.2, -2.0), Vec3::Z), &t, 10.0).unwrap();
    assert_near!(h.normal, -Vec3::Z);
    // Exactly on the hypotenuse and on a corner: hits.
    assert!(triangle(&Ray::new(Vec3::new(0.5, 0.5, 1.0), -Vec3::Z), &t, 10.0).is_some());
    assert!(triangle(&Ray::new(Vec3::new(1.0, 0.0, 1.0), -Vec3::Z), &t, 10.0).is_some());
    // Outside: miss. Parallel in-plane: miss. Degenerate: miss.
    assert!(triangle(&Ray::new(Vec3::new(0.6, 0.6, 1.0), -Vec3::Z), &t, 10.0).is_none());
    assert!(triangle(&Ray::new(Vec3::new(-1.0, 0.1, 0.0), Vec3::X), &t, 10.0).is_none());
    let deg = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::X * 2.0);
    assert!(triangle(&Ray::new(Vec3::new(0.5, 0.0, 1.0), -Vec3::Z), &deg, 10.0).is_none());
}

#[test]
fn nan_and_negative_max_t_give_none() {
    let s = Sphere::new(Vec3::ZERO, 1.0);
    let r = Ray::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::X);
    assert!(sphere(&r, &s, f32::NAN).is_none());
    assert!(sphere(&r, &s, -1.0).is_none());
    assert!(sphere(&Ray::new(Vec3::NAN, Vec3::X), &s, 1.0).is_none());
    assert!(aabb(
        &Ray::new(Vec3::NAN, Vec3::X),
        &Aabb::new(Vec3::ZERO, Vec3::ONE),
        9.0
    )
    .is_none());
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert!(aabb(
        &Ray::new(Vec3::new(0.5, 0.5, -1.0), Vec3::new(0.0, 0.0, f32::NAN)),
        &b,
        9.0
    )
    .is_none());
    assert!(plane(&r, &Plane::from_point_normal(Vec3::ZERO, Vec3::ZERO), 9.0).is_none());
}

#[test]
fn obb_and_sphere_bad_input_anywhere_gives_none() {
    // NaN or infinity in each field of the ray and the shapes (also one entry of the axes,
    // which the OBB cast only sees through the box-space ray): no hit, never a panic.
    // A general rotation, so that an infinite direction component reaches every box-space
    // component as ±inf (no `inf · 0`), the case where `1/d` is finite (zero).
    let r = Ray::new(Vec3::new(-5.0, 0.1, 0.2), Vec3::X * 10.0);
    let o = Obb::new(
        Vec3::ZERO,
        Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.5, 0.7),
        Vec3::ONE,
    );
    let s = Sphere::new(Vec3::ZERO, 1.0);
    assert!(obb(&r, &o, 1.0).is_some() && sphere(&r, &s, 1.0).is_some());
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for k in 0..3 {
            let mut v = Vec3::ZERO;
            v[k] = bad;
            let (ro, rd) = (Ray::new(r.origin + v, r.dir), Ray::new(r.origin, r.dir + v));
            assert!(obb(&ro, &o, 1.0).is_none() && obb(&rd, &o, 1.0).is_none());
            assert!(sphere(&ro, &s, 1.0).is_none() && sphere(&rd, &s, 1.0).is_none());
            let mut ob = o;
            ob.center[k] = bad;
            assert!(obb(&r, &ob, 1.0).is_none());
            let mut ob = o;
            ob.half_extents[k] = bad;
            assert!(obb(&r, &ob, 1.0).is_none());
            for j in 0..3 {
                let mut ob = o;
                ob.axes.col_mut(j)[k] = bad;
                assert!(obb(&r, &ob, 1.0).is_none(), "axes[{j}][{k}] = {bad}");
            }
            let mut sb = s;
            sb.center[k] = bad;
            assert!(sphere(&r, &sb, 1.0).is_none());
        }
        assert!(sphere(
            &r,
            &Sphere {
                center: Vec3::ZERO,
                radius: bad
            },
            1.0
        )
        .is_none());
    }
}

#[test]
fn sphere_normal_is_unit_near_and_far() {
    // A unit sphere hit head-on (q / r as it stands), a 1e-3 sphere from 1e4 away (|f|² >
    // 1e8 r²: normalised) and a point sphere hit exactly (+Z).
    let h = sphere(
        &Ray::new(Vec3::new(-3.0, 0.0, 0.0), Vec3::X),
        &Sphere::new(Vec3::ZERO, 1.0),
        9.0,
    )
    .unwrap();
    assert_near!(h.t, 2.0);
    assert_eq!(h.normal, -Vec3::X);
    let far = Ray::new(Vec3::new(-1e4, 0.0, 0.0), Vec3::new(2e4, 2e-4, 0.0));
    let h = sphere(&far, &Sphere::new(Vec3::ZERO, 1e-3), 1.0).unwrap();
    assert!((h.normal.length() - 1.0).abs() < 1e-6, "{h:?}");
    assert!(h.normal.x < -0.8, "{h:?}");
    let h = sphere(
        &Ray::new(-Vec3::X, Vec3::X),
        &Sphere::new(Vec3::ZERO, 0.0),
        9.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (1.0, Vec3::Z));
}

#[test]
fn obb_fast_path_matches_the_aabb_cast() {
    // An unrotated OBB is an AABB: the four-lane slab path (every direction component
    // non-zero) and the scalar path (a zero component) give the AABB cast's hit exactly.
    let b = Aabb::new(Vec3::new(-1.0, -2.0, -0.5), Vec3::new(3.0, 1.0, 2.5));
    let o = Obb::new(b.center(), Quat::IDENTITY, b.half_extents());
    let dirs = [
        Vec3::new(1.0, 0.7, 0.3),
        Vec3::new(-0.4, 1.0, -0.2),
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::new(0.5, 0.0, 0.5),
    ];
    for (i, &d) in dirs.iter().enumerate() {
        for k in 0..30 {
            let origin =
                b.center() - d * 6.0 + Vec3::new(0.37, -0.21, 0.13) * (k as f32 - 15.0) * 0.2;
            let ray = Ray::new(origin, d * 2.0);
            let (ho, ha) = (obb(&ray, &o, 10.0), aabb(&ray, &b, 10.0));
            assert_eq!(ho.is_some(), ha.is_some(), "dir {i} #{k}");
            if let (Some(ho), Some(ha)) = (ho, ha) {
                assert_near!(ho.t, ha.t);
                assert_eq!(ho.normal, ha.normal, "dir {i} #{k}");
            }
        }
    }
    // Starting inside and on a face moving in: t = 0 with the inside normal.
    let h = obb(&Ray::new(b.center(), Vec3::X), &o, 1.0).unwrap();
    assert_eq!((h.t, h.normal), (0.0, -Vec3::X));
    let h = obb(&Ray::new(Vec3::new(-1.0, 0.0, 1.0), Vec3::X), &o, 1.0).unwrap();
    assert_eq!((h.t, h.normal), (0.0, -Vec3::X));
}
