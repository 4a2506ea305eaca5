//! The ray casts against an `f64` oracle, for random, aimed and near-grazing rays.
//!
//! For the solids (sphere, box, capsule) and the two-sided plane the oracle is the point's
//! distance to the shape along the ray, convex in `t`: sampled, minimised by golden-section
//! search when no sample touches, and bisected (the same construction as the sweep oracle). For
//! the triangle it is the analytic plane crossing with an edge-function inside test in `f64`.
//!
//! The casts of spheres, capsules, triangles and planes work in `f64` and must agree exactly
//! (to `f32` output rounding). The box casts are `f32` slab tests; a miss of a contact whose
//! depth is below `f32` resolution (1e-5 here) is classified as grazing, any other is a failure.

use crate::common::{dv, plane_distance, point_segment_distance, Box64};
use collide::raycast::{self, RayHit};
use collide::shapes::{Aabb, Capsule, Obb, Plane, Ray, Sphere, Triangle};
use collide::Vec3;
use collide_testkit::Gen;
use glam::DVec3;

/// First `t` in `[0, max_t]` with `dist(t) <= 0` for a convex `dist`; `(t_lo, t_hi, depth)`.
fn first_touch(dist: &dyn Fn(f64) -> f64, max_t: f64) -> Option<(f64, f64, f64)> {
    if dist(0.0) <= 0.0 {
        return Some((0.0, 0.0, dist(0.0)));
    }
    let n = 64;
    let mut prev = 0.0;
    let mut best = (dist(0.0), 0.0);
    let mut hit = None;
    for k in 1..=n {
        let t = max_t * k as f64 / n as f64;
        let d = dist(t);
        if d <= 0.0 {
            hit = Some((prev, t, d));
            break;
        }
        if d < best.0 {
            best = (d, t);
        }
        prev = t;
    }
    let (lo, hi, depth) = match hit {
        Some(h) => h,
        None => {
            // Golden-section search around the best sample.
            let h = max_t / n as f64;
            let (mut a, mut b) = ((best.1 - h).max(0.0), (best.1 + h).min(max_t));
            let g = (5f64.sqrt() - 1.0) / 2.0;
            for _ in 0..80 {
                let (x1, x2) = (b - g * (b - a), a + g * (b - a));
                if dist(x1) < dist(x2) {
                    b = x2;
                } else {
                    a = x1;
                }
            }
            let x = 0.5 * (a + b);
            let d = dist(x);
            if d > 0.0 {
                return None;
            }
            (0.0, x, d)
        }
    };
    let (mut lo, mut hi) = (lo, hi);
    while hi - lo > 1e-13 * max_t.max(1.0) {
        let m = 0.5 * (lo + hi);
        if dist(m) <= 0.0 {
            hi = m;
        } else {
            lo = m;
        }
    }
    Some((lo, hi, depth))
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    oracle_hits: usize,
    cast_hits: usize,
    missed: usize,
    missed_grazing: usize,
    extra_near: usize,
    extra_far: usize,
    /// Largest |t - t_oracle| / max(1, max_t) over hits both agree on.
    max_t_err: f64,
    /// Largest angle error proxy `1 - normal · expected` where a normal is defined.
    max_normal_err: f64,
}

/// Compares one cast with the oracle. `dist(p)` is the f64 distance from a point to the shape
/// (<= 0 touching); `normal_at(p)` the expected outward normal at a surface point (if defined).
#[allow(clippy::too_many_arguments)] // a test helper: each argument is one aspect of the case
fn check(
    ray: &Ray,
    max_t: f32,
    got: Option<RayHit>,
    dist: &dyn Fn(DVec3) -> f64,
    normal_at: &dyn Fn(DVec3) -> Option<DVec3>,
    grazing_tol: f64,
    st: &mut Stats,
    name: &str,
) {
    let (o, d) = (dv(ray.origin), dv(ray.dir));
    let f = |t: f64| dist(o + d * t);
    let oracle = first_touch(&f, f64::from(max_t));
    st.cases += 1;
    if let Some(h) = got {
        st.cast_hits += 1;
        assert!(h.t >= 0.0 && h.t <= max_t, "{name}: t out of range {h:?}");
        assert!((h.normal.length() - 1.0).abs() < 1e-4, "{name}: {h:?}");
        assert!((h.point - ray.at(h.t)).length() <= 1e-4 * (1.0 + h.point.length()));
    }
    match (oracle, got) {
        (Some((_, _, depth)), None) => {
            st.oracle_hits += 1;
            if depth.abs() <= grazing_tol {
                st.missed_grazing += 1;
            } else {
                st.missed += 1;
                eprintln!("{name}: MISSED depth {depth} ray {ray:?} max_t {max_t}");
            }
        }
        (None, Some(h)) => {
            if f(f64::from(h.t)) <= grazing_tol.max(1e-9) {
                st.extra_near += 1;
            } else {
                st.extra_far += 1;
                eprintln!("{name}: FAR EXTRA {h:?} ray {ray:?}");
            }
        }
        (Some((lo, hi, _)), Some(h)) => {
            st.oracle_hits += 1;
            let t = f64::from(h.t);
            let err = (lo - t).max(t - hi).max(0.0) / f64::from(max_t).max(1.0);
            st.max_t_err = st.max_t_err.max(err);
            if h.t > 0.0 {
                if let Some(n) = normal_at(o + d * t) {
                    st.max_normal_err = st.max_normal_err.max(1.0 - dv(h.normal).dot(n));
                }
            }
        }
        (None, None) => {}
    }
}

/// A random ray: random, aimed at `target`, or passing it at a random offset.
fn ray_to(g: &mut Gen, target: Vec3) -> (Ray, f32) {
    let o = g.point() * 1.5;
    let dir = match (g.range(0.0, 3.0)) as u32 {
        0 => g.unit() * g.range(1.0, 8.0),
        1 => (target - o) * g.range(0.5, 1.5) + g.vec(0.3),
        _ => (target + g.vec(2.5) - o) * g.range(0.8, 1.5),
    };
    let max_t = if g.range(0.0, 1.0) < 0.5 {
        1.0
    } else {
        g.range(0.2, 3.0)
    };
    (Ray::new(o, dir), max_t)
}

const N: usize = 20_000;

fn run_all(seed: u64, n: usize) -> Vec<(&'static str, Stats)> {
    let mut g = Gen::new(seed);
    let mut out: Vec<(&'static str, Stats)> =
        ["sphere", "aabb", "obb", "capsule", "plane", "triangle"]
            .iter()
            .map(|&s| (s, Stats::default()))
            .collect();
    for _ in 0..n {
        // Sphere.
        let s: Sphere = g.sphere();
        let (ray, mt) = ray_to(&mut g, s.center);
        let (c, r) = (dv(s.center), f64::from(s.radius));
        check(
            &ray,
            mt,
            raycast::sphere(&ray, &s, mt),
            &|p| (p - c).length() - r,
            &|p| Some((p - c).normalize()),
            1e-12,
            &mut out[0].1,
            "sphere",
        );
        // AABB (f32 slab test).
        let b: Aabb = g.aabb();
        let (ray, mt) = ray_to(&mut g, b.center());
        let bx = Box64::from_aabb(&b);
        check(
            &ray,
            mt,
            raycast::aabb(&ray, &b, mt),
            &|p| bx.distance(p),
            &|_| None,
            1e-5,
            &mut out[1].1,
            "aabb",
        );
        // OBB (f32 slab test in box space).
        let ob: Obb = g.obb();
        let (ray, mt) = ray_to(&mut g, ob.center);
        let obx = Box64::from_obb(&ob);
        check(
            &ray,
            mt,
            raycast::obb(&ray, &ob, mt),
            &|p| obx.distance(p),
            &|_| None,
            1e-5,
            &mut out[2].1,
            "obb",
        );
        // Capsule.
        let cap: Capsule = g.capsule();
        let (ray, mt) = ray_to(&mut g, (cap.a + cap.b) * 0.5);
        let (ca, cb, cr) = (dv(cap.a), dv(cap.b), f64::from(cap.radius));
        check(
            &ray,
            mt,
            raycast::capsule(&ray, &cap, mt),
            &|p| point_segment_distance(p, ca, cb) - cr,
            &|p| {
                let m = cb - ca;
                let s = ((p - ca).dot(m) / m.length_squared().max(1e-300)).clamp(0.0, 1.0);
                (p - (ca + m * s)).try_normalize()
            },
            1e-12,
            &mut out[3].1,
            "capsule",
        );
        // Plane (two-sided).
        let pl: Plane = g.plane();
        let (ray, mt) = ray_to(&mut g, pl.project(Vec3::ZERO));
        // A plane has no inside: reaching it is reaching the half-space beyond it (convex).
        let side = plane_distance(&pl, dv(ray.origin)).signum();
        check(
            &ray,
            mt,
            raycast::plane(&ray, &pl, mt),
            &|p| (side * plane_distance(&pl, p)).max(0.0),
            &|_| None,
            1e-12,
            &mut out[4].1,
            "plane",
        );
        // Triangle: analytic f64 oracle.
        let tr: Triangle = g.triangle();
        let (ray, mt) = ray_to(&mut g, tr.centroid());
        check_triangle(&ray, mt, &tr, &mut out[5].1);
    }
    for (name, st) in &out {
        eprintln!("{name}: {st:#?}");
    }
    out
}

/// Triangle oracle: plane crossing `t = n·(a - o) / n·d` and edge functions, in f64.
fn check_triangle(ray: &Ray, max_t: f32, tr: &Triangle, st: &mut Stats) {
    let (a, b, c) = (dv(tr.a), dv(tr.b), dv(tr.c));
    let (o, d) = (dv(ray.origin), dv(ray.dir));
    let n = (b - a).cross(c - a);
    let got = raycast::triangle(ray, tr, max_t);
    st.cases += 1;
    let nd = n.dot(d);
    let degenerate = tr.normal().is_none();
    let oracle = if degenerate || nd.abs() <= 1e-9 * n.length() * d.length() {
        None
    } else {
        let t = n.dot(a - o) / nd;
        let p = o + d * t;
        let e = |u: DVec3, v: DVec3| (v - u).cross(p - u).dot(n);
        let (e1, e2, e3) = (e(a, b), e(b, c), e(c, a));
        let scale = n.length_squared();
        let slack = 1e-9 * scale;
        let inside = e1 >= -slack && e2 >= -slack && e3 >= -slack;
        let clearly = e1 > slack && e2 > slack && e3 > slack;
        (inside && t >= 0.0 && t <= f64::from(max_t)).then_some((t, clearly))
    };
    if let Some(h) = got {
        st.cast_hits += 1;
        assert!(
            h.normal.dot(ray.dir) <= 0.0,
            "triangle normal must face the ray: {h:?}"
        );
    }
    match (oracle, got) {
        (Some((t, clearly)), None) => {
            st.oracle_hits += 1;
            if clearly {
                st.missed += 1;
                eprintln!("triangle: MISSED t {t} ray {ray:?} tri {tr:?}");
            } else {
                st.missed_grazing += 1;
            }
        }
        (None, Some(_)) => st.extra_near += 1,
        (Some((t, _)), Some(h)) => {
            st.oracle_hits += 1;
            st.max_t_err = st
                .max_t_err
                .max((f64::from(h.t) - t).abs() / f64::from(max_t).max(1.0));
        }
        (None, None) => {}
    }
}

fn assert_all(out: &[(&str, Stats)]) {
    for (name, st) in out {
        // The measured agreement, for reports (`-- --nocapture`).
        eprintln!("{name}: {st:?}");
        assert_eq!(st.missed, 0, "{name}: missed hits");
        assert_eq!(st.extra_far, 0, "{name}: hits far from the shape");
        let tol = if *name == "aabb" || *name == "obb" {
            2e-5
        } else {
            1e-6
        };
        assert!(st.max_t_err <= tol, "{name}: t off by {}", st.max_t_err);
        assert!(
            st.max_normal_err <= 1e-5,
            "{name}: normal off by {}",
            st.max_normal_err
        );
        assert!(st.oracle_hits > st.cases / 10, "{name}: too few hits");
    }
}

#[test]
fn ray_casts_match_oracle() {
    assert_all(&run_all(21, N / 10));
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn ray_casts_match_oracle_long() {
    assert_all(&run_all(2021, 1_000_000));
}
