//! Properties of the bounding volumes on random point clouds, degenerate ones included
//! (single point, duplicates, collinear, coplanar, far from the origin): every point inside
//! the tight AABB, both OBBs and both spheres (within 1e-5 relative); fast boxes contain the
//! tight one; the fitted OBB never larger than PCA's; the exact sphere never larger than
//! Ritter's and equal to a brute-force minimum on small sets.

use collide::bounding::{obb_aabb, tight_aabb, tight_aabb_serial, tight_aabb_vec3};
use collide::shapes::{Aabb, Obb, Sphere};
use collide::{Affine3A, Vec3, Vec3A};
use collide_testkit::Gen;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    crate::common::proptest_config(0x5eed_0005)
}

/// A random cloud of `n` points of one of six kinds.
fn cloud(seed: u64, kind: u8, n: usize) -> Vec<Vec3> {
    let mut g = Gen::new(seed);
    let base = g.point();
    let (u, v) = (g.unit(), g.unit());
    let scale = g.range(0.01, 10.0);
    let mut pts: Vec<Vec3> = (0..n)
        .map(|_| match kind {
            0 => base + g.vec(scale),               // general
            1 => base,                              // all one point
            2 => base + u * g.range(-scale, scale), // collinear
            3 => base + (u * g.range(-1.0, 1.0) + v * g.range(-1.0, 1.0)) * scale, // coplanar
            4 => Vec3::splat(1000.0) + g.vec(scale * 0.1), // far from the origin
            _ => base + g.unit() * scale,           // on a sphere
        })
        .collect();
    if kind == 0 && n > 3 {
        // A few exact duplicates.
        let d = pts[0];
        pts[n / 2] = d;
    }
    pts
}

/// 1e-5 of the set's scale (its size plus its distance from the origin).
fn tol(pts: &[Vec3]) -> f32 {
    let b = Aabb::from_points(pts).unwrap();
    1e-5 * (b.size().length() + b.center().abs().max_element()).max(1e-20)
}

fn pose(g: &mut Gen) -> Affine3A {
    Affine3A::from_scale_rotation_translation(g.sizes(), g.quat(), g.point())
}

fn obb_contains(o: &Obb, p: Vec3, t: f32) -> bool {
    o.to_local(p)
        .abs()
        .cmple(o.half_extents + Vec3::splat(t))
        .all()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_point_inside_every_volume(seed in any::<u64>(), kind in 0u8..6, n in 1usize..64) {
        let pts = cloud(seed, kind, n);
        let t = tol(&pts);
        let fit = Obb::fit(&pts).unwrap();
        let pca = Obb::fit_pca(&pts).unwrap();
        let ritter = Sphere::fit(&pts).unwrap();
        let exact = Sphere::fit_exact(&pts).unwrap();
        prop_assert!(fit.is_finite() && pca.is_finite() && ritter.is_finite() && exact.is_finite());
        prop_assert!((fit.axes.determinant() - 1.0).abs() < 1e-4);
        prop_assert!((fit.axes.transpose() * fit.axes).abs_diff_eq(collide::Mat3::IDENTITY, 1e-4));
        for &p in &pts {
            prop_assert!(obb_contains(&fit, p, t), "fit OBB misses {p}");
            prop_assert!(obb_contains(&pca, p, t), "PCA OBB misses {p}");
            prop_assert!(p.distance(ritter.center) <= ritter.radius + t);
            prop_assert!(p.distance(exact.center) <= exact.radius + t);
        }
        let aabb = Aabb::from_points(&pts).unwrap();
        // Flat sets (an extent below 1e-6 of the size) compare by area, so their volumes may
        // differ by round-off thickness times area: 8 t diag².
        let slack = 8.0 * t * aabb.size().length_squared();
        prop_assert!(fit.volume() <= pca.volume() * (1.0 + 1e-5) + slack,
            "fit {} > pca {}", fit.volume(), pca.volume());
        prop_assert!(fit.volume() <= aabb.volume() * (1.0 + 1e-5) + slack);
        prop_assert!(exact.radius <= ritter.radius * (1.0 + 1e-6) + t * 1e-2,
            "exact {} > ritter {}", exact.radius, ritter.radius);
        // Flat sets give zero extents where flat.
        if kind == 1 {
            prop_assert!(fit.half_extents.max_element() <= t && exact.radius <= t);
        }
        if kind == 2 {
            let mut e = fit.half_extents.to_array();
            e.sort_by(f32::total_cmp);
            prop_assert!(e[1] <= t, "collinear: {e:?}");
        }
        if kind == 3 {
            prop_assert!(fit.half_extents.min_element() <= t, "coplanar: {}", fit.half_extents);
        }
    }

    #[test]
    fn tight_aabb_is_the_box_of_the_moved_points(seed in any::<u64>(), kind in 0u8..6, n in 0usize..64) {
        let pts = cloud(seed, kind, n);
        let mut g = Gen::new(seed ^ 0xabc);
        let m = pose(&mut g);
        let va: Vec<Vec3A> = pts.iter().map(|&p| p.into()).collect();
        let tight = tight_aabb(&va, &m);
        prop_assert_eq!(tight, tight_aabb_vec3(&pts, &m));
        let moved: Vec<Vec3> = pts.iter().map(|&p| m.transform_point3(p)).collect();
        match Aabb::from_points(&moved) {
            None => prop_assert_eq!(tight, Aabb::EMPTY),
            Some(oracle) => {
                let t = tol(&moved);
                collide_testkit::assert_near!(tight.min, oracle.min, t);
                collide_testkit::assert_near!(tight.max, oracle.max, t);
                // Fast boxes: rest AABB moved, fitted OBB moved; both contain the tight box.
                let rest = Aabb::from_points(&pts).unwrap();
                let fast = rest.transformed(&m).expanded(t);
                prop_assert!(fast.contains(&tight), "{fast:?} !⊇ {tight:?}");
                let o = Obb::fit(&pts).unwrap();
                let from_obb = obb_aabb(&o, &m).expanded(t);
                prop_assert!(from_obb.contains(&tight), "{from_obb:?} !⊇ {tight:?}");
            }
        }
    }

    #[test]
    fn exact_sphere_matches_brute_force(seed in any::<u64>(), kind in 0u8..6, n in 1usize..8) {
        let pts = cloud(seed, kind, n);
        let s = Sphere::fit_exact(&pts).unwrap();
        let oracle = brute_force_radius(&pts);
        let t = tol(&pts);
        prop_assert!((f64::from(s.radius) - oracle).abs() <= f64::from(t),
            "exact {} vs brute force {oracle}", s.radius);
    }
}

/// The minimum enclosing radius by trying every ball with 1–4 points on its boundary
/// (circumcentres by Cramer's rule in f64) and keeping the smallest that holds every point.
fn brute_force_radius(pts: &[Vec3]) -> f64 {
    let p: Vec<[f64; 3]> = pts.iter().map(|v| v.as_dvec3().to_array()).collect();
    let n = p.len();
    let sub = |a: [f64; 3], b: [f64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let mut best = f64::INFINITY;
    let mut consider = |c: [f64; 3]| {
        let r = p
            .iter()
            .map(|&q| dot(sub(q, c), sub(q, c)).sqrt())
            .fold(0.0, f64::max);
        best = best.min(r);
    };
    // Any point, midpoint of any pair.
    for i in 0..n {
        consider(p[i]);
        for j in i + 1..n {
            consider([0, 1, 2].map(|k| (p[i][k] + p[j][k]) / 2.0));
        }
    }
    // Circumcentre of 3 points: x = a + s u + t v with |x-a| = |x-b| = |x-c|:
    // 2 (u·u s + u·v t) = u·u, 2 (u·v s + v·v t) = v·v.
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (u, v) = (sub(p[j], p[i]), sub(p[k], p[i]));
                let (uu, uv, vv) = (dot(u, u), dot(u, v), dot(v, v));
                let det = uu * vv - uv * uv;
                if det.abs() <= 1e-12 * uu * vv {
                    continue;
                }
                let s = (uu * vv - uv * vv) / (2.0 * det);
                let t = (vv * uu - uv * uu) / (2.0 * det);
                consider([0, 1, 2].map(|d| p[i][d] + s * u[d] + t * v[d]));
                // Circumcentre of 4: solve 2 (q - a)·x' = |q - a|² for q = b, c, d (x' = x - a).
                for l in k + 1..n {
                    let w = sub(p[l], p[i]);
                    let m = [u, v, w];
                    let rhs = [uu / 2.0, vv / 2.0, dot(w, w) / 2.0];
                    let det3 = |m: [[f64; 3]; 3]| {
                        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
                    };
                    let d = det3(m);
                    if d.abs() <= 1e-12 * (uu * vv * dot(w, w)).sqrt() {
                        continue;
                    }
                    let x = [0, 1, 2].map(|col| {
                        let mut mc = m;
                        for row in 0..3 {
                            mc[row][col] = rhs[row];
                        }
                        det3(mc) / d
                    });
                    consider([0, 1, 2].map(|d| p[i][d] + x[d]));
                }
            }
        }
    }
    best
}

#[test]
fn parallel_tight_aabb_equals_serial() {
    // Above the rayon threshold the split-and-merge gives bit-for-bit the serial box.
    let mut g = Gen::new(77);
    let pts: Vec<Vec3A> = (0..300_000).map(|_| g.point().into()).collect();
    let m = pose(&mut g);
    assert_eq!(tight_aabb(&pts, &m), tight_aabb_serial(&pts, &m));
    let p3: Vec<Vec3> = pts.iter().map(|&p| p.into()).collect();
    assert_eq!(tight_aabb_vec3(&p3, &m), tight_aabb_serial(&pts, &m));
}

#[test]
fn non_finite_input() {
    // NaN or infinity in a vertex or in the transform: a NaN box (touches nothing); fits: None.
    let mut g = Gen::new(3);
    let mut pts: Vec<Vec3A> = (0..100).map(|_| g.point().into()).collect();
    let m = pose(&mut g);
    assert!(tight_aabb(&pts, &m).is_finite());
    let mut bad_m = m;
    bad_m.translation.y = f32::NAN;
    assert!(tight_aabb(&pts, &bad_m).min.is_nan());
    pts[57].z = f32::NAN;
    assert!(tight_aabb(&pts, &m).min.is_nan());
    pts[57].z = f32::INFINITY;
    assert!(tight_aabb(&pts, &m).min.is_nan());
    let big: Vec<Vec3A> = (0..200_000)
        .map(|i| if i == 123_456 { Vec3A::NAN } else { Vec3A::ONE })
        .collect();
    assert!(tight_aabb(&big, &m).max.is_nan());
    assert_eq!(tight_aabb(&[], &m), Aabb::EMPTY);
    let p3: Vec<Vec3> = pts.iter().map(|&p| p.into()).collect();
    assert!(Obb::fit(&p3).is_none());
    assert!(Obb::fit_pca(&p3).is_none());
    assert!(Sphere::fit(&p3).is_none());
    assert!(Sphere::fit_exact(&p3).is_none());
}

#[test]
fn large_cloud_exact_sphere_is_linear_and_tight() {
    // 200 000 points on a unit sphere's surface plus inside: the exact sphere has radius ~1,
    // without deep recursion, and is no larger than Ritter's.
    let mut g = Gen::new(9);
    let pts: Vec<Vec3> = (0..200_000)
        .map(|i| {
            if i % 2 == 0 {
                g.unit()
            } else {
                g.unit() * g.range(0.0, 1.0)
            }
        })
        .collect();
    let exact = Sphere::fit_exact(&pts).unwrap();
    let ritter = Sphere::fit(&pts).unwrap();
    assert!(exact.radius <= ritter.radius);
    assert!((exact.radius - 1.0).abs() < 1e-3, "{}", exact.radius);
    let fit = Obb::fit(&pts).unwrap();
    for &p in pts.iter().step_by(97) {
        assert!(obb_contains(&fit, p, 1e-5));
    }
}
