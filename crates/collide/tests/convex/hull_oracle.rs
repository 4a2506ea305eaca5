//! Quickhull against an independent oracle on random point sets: points in a ball, on a
//! sphere, on a cube lattice (many coplanar and collinear points, axis-aligned and rotated),
//! and near-flat plates.
//!
//! Oracle, all by brute force and none of it using the builder's own checks:
//! - every input point is inside or on every face plane within `3 · tolerance`;
//! - every hull vertex is an input point (bit for bit);
//! - in 200 random directions, the `f64` maximum of `d · p` over the input points is reached
//!   by a hull vertex within `4 · tolerance` (the extreme points lie on the hull);
//! - `validate()` passes, and building again gives the identical hull.

use collide::convex::{ConvexHull, HullError};
use collide::{Quat, Vec3};
use collide_testkit::Gen;

/// Checks `hull` against `points` with the oracle above.
fn assert_oracle(hull: &ConvexHull, points: &[Vec3], g: &mut Gen, what: &str) {
    hull.validate()
        .unwrap_or_else(|e| panic!("{what}: invalid hull: {e}"));
    let tol = hull.tolerance();
    for (i, p) in points.iter().enumerate() {
        for (f, face) in hull.faces().iter().enumerate() {
            let d = face.plane.signed_distance(*p);
            assert!(
                d <= 3.0 * tol,
                "{what}: point {i} {p} is {d} above face {f} (tol {tol})"
            );
        }
    }
    crate::common::assert_vertices_are_inputs(hull, points, &format!("{what}: "));
    for _ in 0..200 {
        let d = g.unit().as_dvec3();
        let best = points
            .iter()
            .map(|p| d.dot(p.as_dvec3()))
            .fold(f64::NEG_INFINITY, f64::max);
        let on_hull = hull
            .vertices()
            .iter()
            .map(|v| d.dot(v.as_dvec3()))
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            on_hull >= best - 4.0 * f64::from(tol),
            "{what}: direction {d}: input reaches {best}, hull only {on_hull} (tol {tol})"
        );
    }
    let again = ConvexHull::try_new(points).unwrap_or_else(|e| panic!("{what}: rebuilt: {e}"));
    assert_eq!(
        hull, &again,
        "{what}: the same points gave a different hull"
    );
}

fn build(points: &[Vec3], g: &mut Gen, what: &str) -> ConvexHull {
    let hull = ConvexHull::try_new(points).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_oracle(&hull, points, g, what);
    hull
}

#[test]
fn points_in_a_ball() {
    // Uniform in balls of random size and centre, 4 to 3,000 points.
    let mut g = Gen::new(0xba11);
    for case in 0..40 {
        let n = [4, 5, 8, 20, 64, 300, 1000, 3000][case % 8];
        let (c, r) = (g.vec(10.0), g.range(0.01, 100.0));
        let pts: Vec<Vec3> = (0..n)
            .map(|_| c + g.unit() * r * g.range(0.0, 1.0).cbrt())
            .collect();
        match ConvexHull::try_new(&pts) {
            Ok(h) => assert_oracle(&h, &pts, &mut g, &format!("ball {case} ({n} points)")),
            // Four or five random points can be (nearly) coplanar only by chance.
            Err(e) => panic!("ball {case} ({n} points): {e}"),
        }
    }
}

#[test]
fn points_on_a_sphere() {
    // On spheres every point is (nearly) a hull vertex: the most faces per point.
    let mut g = Gen::new(0x5fe7);
    for case in 0..16 {
        let n = [16, 100, 1000, 3000][case % 4];
        let r = g.range(0.1, 10.0);
        let pts: Vec<Vec3> = (0..n).map(|_| g.unit() * r).collect();
        let h = build(&pts, &mut g, &format!("sphere {case} ({n} points)"));
        assert!(
            h.vertices().len() * 10 >= n * 9,
            "sphere {case}: {} of {n} points are vertices",
            h.vertices().len()
        );
    }
}

#[test]
fn cube_lattice() {
    // A k³ lattice: every face holds k² coplanar points, every edge k collinear ones. Axis
    // aligned the hull is the 8 corners and 6 squares exactly; rotated (coordinates no longer
    // exact) it must still pass the oracle.
    let mut g = Gen::new(0x1a77);
    for k in [2usize, 3, 5, 8, 12] {
        let s = g.range(0.5, 4.0);
        let lattice: Vec<Vec3> = (0..k * k * k)
            .map(|i| {
                let (x, y, z) = (i % k, (i / k) % k, i / (k * k));
                Vec3::new(x as f32, y as f32, z as f32) * s
            })
            .collect();
        let h = build(&lattice, &mut g, &format!("lattice {k}"));
        assert_eq!(
            (h.vertices().len(), h.faces().len(), h.edges().len()),
            (8, 6, 12),
            "lattice {k}"
        );
        for turn in 0..4 {
            let q = Quat::from_axis_angle(g.unit(), g.range(0.0, std::f32::consts::TAU));
            let t = g.vec(5.0);
            let pts: Vec<Vec3> = lattice.iter().map(|&p| q * p + t).collect();
            build(&pts, &mut g, &format!("lattice {k} turn {turn}"));
        }
    }
}

/// Discs of `n` points of radius 1 and half-thickness `h`, turned at random.
fn plate(g: &mut Gen, n: usize, h: f32) -> Vec<Vec3> {
    let q = Quat::from_axis_angle(g.unit(), g.range(0.0, std::f32::consts::TAU));
    (0..n)
        .map(|_| {
            let phi = g.range(0.0, std::f32::consts::TAU);
            let r = g.range(0.0, 1.0).sqrt();
            q * Vec3::new(r * phi.cos(), r * phi.sin(), h * g.range(-1.0, 1.0))
        })
        .collect()
}

#[test]
fn near_flat_plates() {
    // Plates 3e-5 to 1e-2 thick (40 to 10,000 times the tolerance, about 8.5e-7 here): all
    // build and pass the oracle.
    let mut g = Gen::new(0xf1a7);
    for case in 0..120 {
        let n = [8, 30, 200, 1000][case % 4];
        let h = 10f32.powf(g.range(-4.5, -2.0));
        let pts = plate(&mut g, n, h);
        build(
            &pts,
            &mut g,
            &format!("plate {case} ({n} points, thickness {h:e})"),
        );
    }
}

/// Known defect (in the builder before and after the issue-20 rewrite): plates whose
/// half-thickness is within about 6 times the tolerance can build a hull that passes
/// `validate()` and contains every point by its face planes, yet lacks whole stretches of the
/// rim (an extreme point up to 1e6 tolerances, i.e. 1.3 radii, outside it along some
/// directions): the sliver faces along the rim get arbitrary planes. Such input should give
/// `Coplanar` or `Unstable` instead.
#[test]
#[ignore = "known defect: plates within ~6 tolerances of flat can lose part of their rim"]
fn plates_at_the_tolerance() {
    let mut g = Gen::new(0xf1a7);
    for case in 0..200 {
        let n = [8, 30, 200, 1000][case % 4];
        let h = 10f32.powf(g.range(-7.0, -5.0));
        let pts = plate(&mut g, n, h);
        let what = format!("plate {case} ({n} points, thickness {h:e})");
        match ConvexHull::try_new(&pts) {
            Ok(hull) => assert_oracle(&hull, &pts, &mut g, &what),
            Err(HullError::Coplanar { .. } | HullError::Unstable) => {}
            Err(e) => panic!("{what}: {e}"),
        }
    }
}
