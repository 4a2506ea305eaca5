//! Closest points (`collide::closest`) against f64 oracles: dense sampling of each shape and,
//! where one exists, a second algorithm. Fixed seeds; `COLLIDE_LONG=1` runs more cases.

use crate::common::*;
use collide::closest;
use collide::shapes::{Aabb, Obb, Segment, Triangle};
use collide::Vec3;
use collide_testkit::Gen;
use glam::DVec3;

/// Relative tolerance of an f32 result against an f64 oracle, per unit of scene scale.
const TOL: f64 = 2e-5;

/// Scene scale for a tolerance: the largest absolute coordinate involved, at least 1.
fn scale_of(points: &[Vec3]) -> f64 {
    points
        .iter()
        .map(|p| f64::from(p.abs().max_element()))
        .fold(1.0, f64::max)
}

#[test]
fn point_aabb_against_dense_sampling() {
    let mut g = Gen::new(0xC105_E001);
    for _ in 0..cases(500, 5000) {
        let b = g.aabb();
        let p = g.point() * 1.5;
        let q = closest::point_aabb(p, &b);
        // The answer lies in the box.
        assert!(b.expanded(1e-6).contains_point(q), "{q:?} not in {b:?}");
        // Dense grid of the box (solid, 21³ points): no sample is closer than the answer, and
        // the answer is within half a grid diagonal of the best sample.
        let (lo, hi) = (dv(b.min), dv(b.max));
        let n = 20;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            for j in 0..=n {
                for k in 0..=n {
                    let f = DVec3::new(i as f64, j as f64, k as f64) / n as f64;
                    let s = lo + (hi - lo) * f;
                    best = best.min((s - dv(p)).length());
                }
            }
        }
        let ours = (dv(q) - dv(p)).length();
        let h = ((hi - lo) / n as f64).length() / 2.0;
        let tol = TOL * scale_of(&[p, b.min, b.max]);
        assert!(ours <= best + tol, "ours {ours} > sampled {best}");
        assert!(
            best <= ours + h + tol,
            "sampled {best} far above ours {ours}"
        );
        let d2 = closest::distance_squared_point_aabb(p, &b);
        assert!((f64::from(d2).sqrt() - ours).abs() <= tol);
    }
}

#[test]
fn point_obb_against_dense_sampling() {
    let mut g = Gen::new(0xC105_E002);
    for _ in 0..cases(300, 3000) {
        let o = g.obb();
        let p = g.point() * 1.5;
        let q = closest::point_obb(p, &o);
        let bx = Box64::from_obb(&o);
        let tol = TOL * scale_of(&[p, o.center]) * 4.0;
        // On the box.
        assert!(bx.distance(dv(q)) <= tol, "{q:?} off the box");
        // The exact f64 distance (clamp in box space) and a dense surface+interior grid.
        let exact = bx.distance(dv(p));
        let ours = (dv(q) - dv(p)).length();
        assert!((ours - exact).abs() <= tol, "ours {ours} exact {exact}");
        let n = 16;
        let mut best = f64::INFINITY;
        for i in 0..=n {
            for j in 0..=n {
                for k in 0..=n {
                    let f = DVec3::new(i as f64, j as f64, k as f64) / n as f64 * 2.0 - 1.0;
                    let s = bx.c
                        + bx.axes[0] * (f.x * bx.e.x)
                        + bx.axes[1] * (f.y * bx.e.y)
                        + bx.axes[2] * (f.z * bx.e.z);
                    best = best.min((s - dv(p)).length());
                }
            }
        }
        let h = (bx.e * 2.0 / n as f64).length() / 2.0;
        assert!(ours <= best + tol && best <= ours + h + tol);
        let d2 = closest::distance_squared_point_obb(p, &o);
        assert!((f64::from(d2).sqrt() - ours).abs() <= tol);
    }
}

#[test]
fn point_segment_against_dense_sampling() {
    let mut g = Gen::new(0xC105_E003);
    for i in 0..cases(2000, 20000) {
        let mut s = g.segment();
        if i % 10 == 0 {
            s.b = s.a; // zero-length segments too
        }
        let p = g.point() * 1.5;
        let r = closest::point_segment(p, &s);
        assert!((0.0..=1.0).contains(&r.u));
        let (a, b) = segment64(&s);
        let n = 2000;
        let best = (0..=n)
            .map(|k| (a + (b - a) * (k as f64 / n as f64) - dv(p)).length())
            .fold(f64::INFINITY, f64::min);
        let ours = (dv(r.point) - dv(p)).length();
        let tol = TOL * scale_of(&[p, s.a, s.b]);
        let h = (b - a).length() / n as f64;
        assert!(
            ours <= best + tol && best <= ours + h + tol,
            "{ours} vs {best}"
        );
        // The point is the one its parameter names.
        assert!((dv(r.point) - (a + (b - a) * f64::from(r.u))).length() <= tol);
        let d2 = closest::distance_squared_point_segment(p, &s);
        assert!((f64::from(d2).sqrt() - ours).abs() <= tol);
    }
}

#[test]
fn point_triangle_against_second_algorithm_and_sampling() {
    let mut g = Gen::new(0xC105_E004);
    for i in 0..cases(2000, 20000) {
        let mut t = g.triangle();
        match i % 20 {
            // Degenerate: collinear corners, coincident corners, two equal corners.
            0 => t.c = t.a + (t.b - t.a) * 0.3,
            1 => t.c = t.a + (t.b - t.a) * 1.7,
            2 => (t.b, t.c) = (t.a, t.a),
            3 => t.c = t.b,
            // Slivers.
            4 => t.c = t.a + (t.b - t.a) * 0.5 + g.vec(1e-3),
            _ => {}
        }
        let p = g.point() * 1.5;
        let q = closest::point_triangle(p, &t);
        let tri = [dv(t.a), dv(t.b), dv(t.c)];
        let exact = (triangle_closest(dv(p), tri) - dv(p)).length();
        let ours = (dv(q) - dv(p)).length();
        let tol = 4.0 * TOL * scale_of(&[p, t.a, t.b, t.c]);
        assert!(
            (ours - exact).abs() <= tol,
            "case {i}: ours {ours} exact {exact} for {t:?} p {p:?}"
        );
        // On the triangle: its distance to the triangle is ~0.
        let on = (triangle_closest(dv(q), tri) - dv(q)).length();
        assert!(on <= tol, "case {i}: answer {on} off the triangle");
        // Dense barycentric sampling: nothing closer than the answer.
        if i % 10 == 5 {
            let n = 200;
            let mut best = f64::INFINITY;
            for j in 0..=n {
                for k in 0..=(n - j) {
                    let (v, w) = (j as f64 / n as f64, k as f64 / n as f64);
                    let s = tri[0] + (tri[1] - tri[0]) * v + (tri[2] - tri[0]) * w;
                    best = best.min((s - dv(p)).length());
                }
            }
            assert!(
                ours <= best + tol,
                "case {i}: sample {best} closer than {ours}"
            );
        }
        let d2 = closest::distance_squared_point_triangle(p, &t);
        assert!((f64::from(d2).sqrt() - ours).abs() <= tol);
    }
}

#[test]
fn segment_segment_against_golden_section_and_sampling() {
    let mut g = Gen::new(0xC105_E005);
    for i in 0..cases(2000, 20000) {
        let s1 = g.segment();
        let mut s2 = g.segment();
        match i % 10 {
            0 => s2.b = s2.a,                                                        // a point
            1 => s2 = Segment::new(s1.a, s1.a), // point on the segment
            2 => s2 = Segment::new(s2.a, s2.a + (s1.b - s1.a) * 0.7), // parallel
            3 => s2 = Segment::new(s1.b, s1.b + (s1.b - s1.a) * 2.0), // collinear, touching
            4 => s2 = Segment::new(s2.a, s2.a + (s1.b - s1.a) * 1e-4 + g.vec(1e-7)), // near parallel and short
            _ => {}
        }
        let (pairs, rev) = (
            closest::segment_segment(&s1, &s2),
            closest::segment_segment(&s2, &s1),
        );
        let (a0, a1) = segment64(&s1);
        let (b0, b1) = segment64(&s2);
        let exact = segment_segment_distance(a0, a1, b0, b1);
        let tol = TOL * scale_of(&[s1.a, s1.b, s2.a, s2.b]) * 4.0;
        for r in [pairs, rev] {
            assert!((0.0..=1.0).contains(&r.s) && (0.0..=1.0).contains(&r.t));
            let ours = (dv(r.on_first) - dv(r.on_second)).length();
            assert!(
                (ours - exact).abs() <= tol,
                "case {i}: ours {ours} exact {exact} {s1:?} {s2:?}"
            );
        }
        // The points are those their parameters name.
        assert!((dv(pairs.on_first) - (a0 + (a1 - a0) * f64::from(pairs.s))).length() <= tol);
        assert!((dv(pairs.on_second) - (b0 + (b1 - b0) * f64::from(pairs.t))).length() <= tol);
        // Dense sampling of both segments never beats the answer.
        if i % 20 == 7 {
            let n = 300;
            let mut best = f64::INFINITY;
            for j in 0..=n {
                let p = a0 + (a1 - a0) * (j as f64 / n as f64);
                best = best.min(point_segment_distance(p, b0, b1));
            }
            assert!(exact <= best + 1e-9);
        }
    }
}

#[test]
fn huge_and_non_finite_inputs_never_panic() {
    let bad = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        0.0,
        -0.0,
        1e-38,
    ];
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let o = Obb::new(Vec3::ZERO, collide::Quat::IDENTITY, Vec3::ONE);
    for &x in &bad {
        for &y in &bad {
            let p = Vec3::new(x, y, 0.5);
            let s = Segment::new(Vec3::new(x, 0.0, 0.0), Vec3::new(0.0, y, 1.0));
            let t = Triangle::new(Vec3::ZERO, Vec3::new(x, 1.0, 0.0), Vec3::new(0.0, y, 1.0));
            let _ = closest::point_aabb(p, &b);
            let _ = closest::distance_squared_point_aabb(p, &Aabb::new(p, Vec3::ONE));
            let _ = closest::point_obb(p, &o);
            let _ = closest::point_segment(p, &s);
            let _ = closest::point_triangle(p, &t);
            let _ = closest::segment_segment(&s, &Segment::new(p, Vec3::ONE));
            let _ = closest::segment_segment(&Segment::new(p, p), &s);
            if p.is_nan() {
                assert!(closest::distance_squared_point_aabb(p, &b).is_nan());
                assert!(closest::distance_squared_point_obb(p, &o).is_nan());
                assert!(closest::distance_squared_point_segment(p, &s).is_nan());
                assert!(closest::distance_squared_point_triangle(p, &t).is_nan());
            }
        }
    }
}
