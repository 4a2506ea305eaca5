//! Regression tests for every erratum of the article's sweep listings 1, 2 and 4
//! (`shared/seeds/ERRATA.md`), with the numbers given there.

use collide::shapes::{Aabb, Plane, Sphere};
use collide::sweep;
use collide::Vec3;
use collide_testkit::assert_near;

/// The plane y = 0 with normal +y: the signed distance of a point is its y.
fn ground() -> Plane {
    Plane::from_point_normal(Vec3::ZERO, Vec3::Y)
}

#[test]
fn erratum_1_1_approach_from_negative_side_is_detected() {
    // d0 = -5 → d1 = 0, r = 1: touches the plane at d = -1, u = 4/5. The listing said no.
    let s = Sphere::new(Vec3::new(0.0, -5.0, 0.0), 1.0);
    let w = sweep::sphere_plane(&s, Vec3::new(0.0, 5.0, 0.0), &ground()).unwrap();
    assert_near!(w.enter, 0.8);
    assert_near!(w.exit, 1.0);
    assert_near!(w.normal, Vec3::Y); // from the sphere (below) toward the plane
    assert_near!(w.point, Vec3::ZERO);
    // The one-sided variant, named as such: d0 = -5 is inside the solid half-space already,
    // so moving deeper hits at 0, and moving up (out of it) is no hit by the starting-touch
    // rule (the two-sided plane above is met at 0.8 by the same motion).
    let h = sweep::sphere_plane_halfspace(&s, Vec3::new(0.0, -5.0, 0.0), &ground()).unwrap();
    assert_eq!((h.enter, h.exit), (0.0, 1.0));
    assert!(sweep::sphere_plane_halfspace(&s, Vec3::new(0.0, 5.0, 0.0), &ground()).is_none());
}

#[test]
fn erratum_1_2_first_contact_not_pass_through() {
    // d0 = 5 → d1 = 0.5, r = 1: never passes through (d1 > -r, the text's condition fails) but
    // touches at d = 1, u = (5 - 1) / (5 - 0.5). First contact is what is reported.
    let s = Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0);
    let w = sweep::sphere_plane(&s, Vec3::new(0.0, -4.5, 0.0), &ground()).unwrap();
    assert_near!(w.enter, 4.0 / 4.5);
    assert_near!(w.exit, 1.0);
    assert_near!(w.normal, -Vec3::Y);
    // Stopping short (d1 = 1.5 > r): no contact.
    assert!(sweep::sphere_plane(&s, Vec3::new(0.0, -3.5, 0.0), &ground()).is_none());
}

#[test]
fn erratum_1_3_collinear_plane_points_give_none() {
    // The listing's PLANE(p0, p1, p2) normalises a zero vector for collinear points: NaN.
    // `Plane::from_points` gives `None`.
    assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_none());
    // And a NaN plane reaching a sweep anyway gives no contact, not a NaN time.
    let nan = Plane::from_point_normal(Vec3::ZERO, Vec3::ZERO);
    let s = Sphere::new(Vec3::ZERO, 1.0);
    assert!(sweep::sphere_plane(&s, Vec3::Y, &nan).is_none());
}

#[test]
fn erratum_2_1_stationary_spheres_apart_no_hit() {
    // A at the origin, B at (5,0,0), r = 1, no motion: a = 0 made the roots NaN and the
    // listing returned true.
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0);
    assert!(sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::ZERO).is_none());
    // Same motion for both (zero relative motion): still no hit.
    let m = Vec3::new(3.0, -2.0, 1.0);
    assert!(sweep::sphere_sphere(&a, m, &b, m).is_none());
    // Stationary and touching: no relative motion does not approach (starting-touch rule),
    // so no hit either, and still no NaN.
    let c = Sphere::new(Vec3::new(2.0, 0.0, 0.0), 1.0);
    assert!(sweep::sphere_sphere(&a, Vec3::ZERO, &c, Vec3::ZERO).is_none());
    assert!(sweep::sphere_sphere(&a, m, &c, m).is_none());
    // Touching and pressing in (B moves -0.5 toward A): contact for the whole frame.
    let w = sweep::sphere_sphere(&a, Vec3::ZERO, &c, Vec3::new(-0.5, 0.0, 0.0)).unwrap();
    assert_eq!((w.enter, w.exit), (0.0, 1.0));
    assert_near!(w.normal, Vec3::X);
}

#[test]
fn erratum_2_2_roots_before_the_frame_no_hit() {
    // B at (5,0,0) moving away by (1,0,0): roots u0 = -7, u1 = -3; the listing said true.
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0);
    assert!(sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(1.0, 0.0, 0.0)).is_none());
    // Roots after the frame: B approaching by (-1,0,0) meets A at u = 3: no hit this frame.
    assert!(sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(-1.0, 0.0, 0.0)).is_none());
    // Approaching by (-3,0,0): u = 1 exactly, touching at the end of the frame counts.
    let w = sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(-3.0, 0.0, 0.0)).unwrap();
    assert_near!(w.enter, 1.0);
}

#[test]
fn erratum_2_3_stable_quadratic() {
    // B far away (x = 1000) and fast (-2000), passing at y = 0.3 with ra + rb = 1: contact
    // at x = √(1 - 0.09), u = (1000 - √0.91) / 2000. In the listing's f32 form
    // (-b ± √(b² - 4ac)) / 2a the discriminant is a difference of two numbers near 1.6e13.
    let a = Sphere::new(Vec3::ZERO, 0.5);
    let b = Sphere::new(Vec3::new(1000.0, 0.3, 0.0), 0.5);
    let v = Vec3::new(-2000.0, 0.0, 0.0);
    let exact = (1000.0 - 0.91_f64.sqrt()) / 2000.0;
    let w = sweep::sphere_sphere(&a, Vec3::ZERO, &b, v).unwrap();
    assert!(
        (f64::from(w.enter) - exact).abs() < 1e-7,
        "{} vs {exact}",
        w.enter
    );
    // The listing's formula in f32, for the record: measurably off.
    let ab = b.center - a.center;
    let (qa, qb, qc) = (v.dot(v), 2.0 * v.dot(ab), ab.dot(ab) - 1.0);
    let naive = (-qb - (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
    assert!(
        (f64::from(naive) - exact).abs() > 10.0 * (f64::from(w.enter) - exact).abs(),
        "naive {naive}, ours {}, exact {exact}",
        w.enter
    );
}

#[test]
fn erratum_2_4_initial_overlap_keeps_exit() {
    // Overlapping at u = 0 (centres 1 apart, radii 1): the listing set u0 = u1 = 0. B moving
    // deeper by (-10,0,0) passes through A's centre and separates on the far side when 2
    // apart, at x = -2, u = 0.3. (Moving away it is no hit at all: the starting-touch rule.)
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(Vec3::new(1.0, 0.0, 0.0), 1.0);
    let w = sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
    assert_eq!(w.enter, 0.0);
    assert_near!(w.exit, 0.3);
    assert_near!(w.normal, Vec3::X);
    assert!(sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(10.0, 0.0, 0.0)).is_none());
}

#[test]
fn erratum_4_1_separated_axis_without_approach_no_hit() {
    // A at the origin, extents 1; B at (10,0,0), extents 1, moving by (0,5,0): 8 apart on x the
    // whole frame. The listing reported u0 = 0, u1 = 0.4, true.
    let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
    let b = Aabb::from_center_half_extents(Vec3::new(10.0, 0.0, 0.0), Vec3::ONE);
    assert!(sweep::aabb_aabb(&a, Vec3::ZERO, &b, Vec3::new(0.0, 5.0, 0.0)).is_none());
    // Moving apart on x while sliding on y: also no hit.
    assert!(sweep::aabb_aabb(&a, Vec3::ZERO, &b, Vec3::new(1.0, 5.0, 0.0)).is_none());
}

#[test]
fn erratum_4_2_contact_after_the_frame_no_hit() {
    // B at (10,10,10), extents 1, moving by (-1,-1,-1): u0 = 8, u1 = 12 — eight frames ahead.
    let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
    let b = Aabb::from_center_half_extents(Vec3::splat(10.0), Vec3::ONE);
    assert!(sweep::aabb_aabb(&a, Vec3::ZERO, &b, Vec3::splat(-1.0)).is_none());
    // Ten times faster it is this frame: u0 = 0.8, u1 = 1 (clipped from 1.2).
    let w = sweep::aabb_aabb(&a, Vec3::ZERO, &b, Vec3::splat(-10.0)).unwrap();
    assert_near!(w.enter, 0.8);
    assert_near!(w.exit, 1.0);
}
