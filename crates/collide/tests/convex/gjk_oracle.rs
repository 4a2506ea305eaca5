//! GJK distance and intersection against f64 brute-force oracles, on every pair of shape kinds;
//! the touching band; box–box against an f64 separating-axis test; properties (symmetry,
//! translation and rotation invariance, warm start = cold start); degenerate and extreme input.
//!
//! Set `COLLIDE_LONG=k` to run k times as many random cases.

use collide::convex::gjk::{self, GjkCache};
use collide::convex::{Posed, SupportMap};
use collide::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use collide_testkit::oracle::minkowski::*;
use collide_testkit::Gen;
use proptest::prelude::*;

#[test]
fn distance_and_intersects_match_f64_brute_force() {
    // Scenario: every ordered pair of kinds, random placements; GJK vs exhaustive f64 search.
    let per_pair = cases(40);
    let (mut agree, mut band, mut total) = (0u64, 0u64, 0u64);
    let mut max_err = 0.0f64;
    for (ia, &ka) in KINDS.iter().enumerate() {
        for (ib, &kb) in KINDS.iter().enumerate() {
            let mut g = Gen::new(1000 + (ia * 8 + ib) as u64);
            for case in 0..per_pair {
                let (a, b) = (draw(&mut g, ka), draw(&mut g, kb));
                let t = truth(&a.core, &b.core);
                let r = gjk::distance(&*a.s, &*b.s);
                let hit = gjk::intersects(&*a.s, &*b.s);
                total += 1;
                let ctx = format!("{ka:?}-{kb:?} case {case}: truth {t:?} gjk {r:?}");
                assert_eq!(hit, r.intersecting, "intersects != distance: {ctx}");
                assert!(r.distance.is_finite() && r.point_a.is_finite(), "{ctx}");
                let err = (f64::from(r.distance) - t.distance).abs();
                max_err = max_err.max(err);
                assert!(err <= 1e-5, "distance error {err}: {ctx}");
                if t.distance > 1e-4 {
                    assert!(!hit, "apart by {} but intersects: {ctx}", t.distance);
                    // Closest points lie on their shapes and realise the distance.
                    assert!(
                        dist_to_shape(&a.core, r.point_a) <= 1e-4,
                        "point_a off A: {ctx}"
                    );
                    assert!(
                        dist_to_shape(&b.core, r.point_b) <= 1e-4,
                        "point_b off B: {ctx}"
                    );
                    let pd = f64::from((r.point_b - r.point_a).length());
                    assert!((pd - t.distance).abs() <= 1e-4, "points not closest: {ctx}");
                    assert!((r.normal.length() - 1.0).abs() <= 1e-5, "{ctx}");
                    agree += 1;
                } else if t.overlap() {
                    assert!(hit, "overlap but not intersecting: {ctx}");
                    // The common point is in both shapes.
                    assert!(
                        dist_to_shape(&a.core, r.point_a) <= 1e-4,
                        "point_a off A: {ctx}"
                    );
                    assert!(
                        dist_to_shape(&b.core, r.point_b) <= 1e-4,
                        "point_b off B: {ctx}"
                    );
                    agree += 1;
                } else {
                    band += 1;
                }
            }
        }
    }
    eprintln!(
        "gjk vs f64 brute force: {agree}/{total} agree, {band} in the 1e-4 touching band, \
         max distance error {max_err:.3e}"
    );
}

/// `shape` moved by `offset` (through the posed wrapper, no copy).
fn moved(s: &dyn SupportMap, offset: Vec3) -> Posed<&dyn SupportMap> {
    Posed::translated(s, offset)
}

#[test]
fn touching_band_is_sharp() {
    // Scenario: slide B along the true closest direction until it touches A, then 1e-3 short
    // of touching and 1e-3 past it: intersects must be true, false, true.
    let per_pair = cases(12);
    let mut n = 0;
    for (ia, &ka) in KINDS.iter().enumerate() {
        for (ib, &kb) in KINDS.iter().enumerate() {
            let mut g = Gen::new(5000 + (ia * 8 + ib) as u64);
            for case in 0..per_pair {
                let (a, b) = (draw(&mut g, ka), draw(&mut g, kb));
                let t = truth(&a.core, &b.core);
                if t.distance < 1e-2 {
                    continue;
                }
                // q = nearest point of A_core − B_core: moving B by +q̂·s reduces the gap by s.
                let dir = t.q.normalize();
                let at = |s: f64| (dir * s).as_vec3();
                let ctx = format!("{ka:?}-{kb:?} case {case}: {t:?}");
                let touch = moved(&*b.s, at(t.distance));
                assert!(gjk::intersects(&*a.s, &touch), "touching missed: {ctx}");
                assert!(gjk::distance(&*a.s, &touch).distance <= 1e-5, "{ctx}");
                let short = moved(&*b.s, at(t.distance - 1e-3));
                assert!(!gjk::intersects(&*a.s, &short), "1e-3 apart hit: {ctx}");
                let d = gjk::distance(&*a.s, &short).distance;
                assert!((f64::from(d) - 1e-3).abs() <= 2e-5, "gap {d}: {ctx}");
                // Past touching by 1e-3 the pair overlaps if one of them is solid (two flat
                // shapes, e.g. segments, pass through each other).
                let solid = |k: Kind| {
                    matches!(
                        k,
                        Kind::Sphere | Kind::Capsule | Kind::Aabb | Kind::Obb | Kind::PosedBox
                    )
                };
                if solid(ka) || solid(kb) {
                    let past = moved(&*b.s, at(t.distance + 1e-3));
                    assert!(gjk::intersects(&*a.s, &past), "1e-3 overlap missed: {ctx}");
                }
                n += 1;
            }
        }
    }
    eprintln!("touching band: {n} pairs checked at -1e-3, 0, +1e-3");
    assert!(n > 100);
}

#[test]
fn box_box_matches_f64_sat() {
    // Scenario: random and parallel-edged OBB pairs; GJK vs the 15-axis SAT in f64.
    let n = cases(4000);
    let mut g = Gen::new(77);
    let (mut agree, mut band) = (0, 0);
    for i in 0..n {
        let a = g.obb();
        let b = if i % 3 == 0 {
            g.obb_parallel_to(&a)
        } else {
            g.obb()
        };
        let hit = gjk::intersects(&a, &b);
        match sat_obb(&a, &b) {
            Ok((depth, _)) if depth > 1e-4 => {
                assert!(hit, "case {i}: SAT overlap {depth}");
                agree += 1;
            }
            Err(gap) if gap > 1e-4 => {
                assert!(!hit, "case {i}: SAT gap {gap}");
                agree += 1;
            }
            _ => band += 1,
        }
    }
    eprintln!("gjk vs f64 SAT (obb-obb): {agree}/{n} agree, {band} in the 1e-4 band");
}

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(1500) as u32,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6a6b),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn symmetric(seed in any::<u64>(), ka in 0usize..8, kb in 0usize..8) {
        // Scenario: distance(A, B) = distance(B, A), points swap, normal flips.
        let mut g = Gen::new(seed);
        let (a, b) = (draw(&mut g, KINDS[ka]), draw(&mut g, KINDS[kb]));
        let ab = gjk::distance(&*a.s, &*b.s);
        let ba = gjk::distance(&*b.s, &*a.s);
        prop_assert!((ab.distance - ba.distance).abs() <= 1e-5, "{ab:?} {ba:?}");
        prop_assert_eq!(ab.intersecting, ba.intersecting);
        if ab.distance > 1e-3 {
            prop_assert!((ab.normal + ba.normal).length() <= 1e-3, "{:?} {:?}", ab, ba);
        }
    }

    #[test]
    fn translation_and_rotation_invariant(seed in any::<u64>(), ka in 0usize..8, kb in 0usize..8) {
        // Scenario: moving and rotating both shapes together leaves the distance unchanged.
        let mut g = Gen::new(seed);
        let (a, b) = (draw(&mut g, KINDS[ka]), draw(&mut g, KINDS[kb]));
        let base = gjk::distance(&*a.s, &*b.s);
        let q = g.quat();
        let t = g.vec(50.0);
        let pa = Posed::new(&*a.s, q, t);
        let pb = Posed::new(&*b.s, q, t);
        let moved = gjk::distance(&pa, &pb);
        prop_assert!((base.distance - moved.distance).abs() <= 1e-4, "{base:?} {moved:?}");
        if base.distance > 1e-3 && moved.distance > 1e-3 {
            prop_assert_eq!(base.intersecting, moved.intersecting);
            // The normal is the direction of a vector known to ~1e-5 absolute (coordinates up
            // to ~60 here): its angular error grows as 1/distance.
            let n = q * base.normal;
            let tol = 1e-4 + 1e-5 / base.distance;
            prop_assert!((n - moved.normal).length() <= tol, "{n} {:?} {base:?}", moved.normal);
        }
    }

    #[test]
    fn warm_start_equals_cold_start(seed in any::<u64>(), ka in 0usize..8, kb in 0usize..8) {
        // Scenario: a pair drifting over 10 frames, queried with one cache and without.
        let mut g = Gen::new(seed);
        let (a, b) = (draw(&mut g, KINDS[ka]), draw(&mut g, KINDS[kb]));
        let step = g.vec(0.2);
        let mut cache = GjkCache::default();
        let mut bool_cache = GjkCache::default();
        for f in 0..10 {
            let bf = moved(&*b.s, step * f as f32);
            let cold = gjk::distance(&*a.s, &bf);
            let warm = gjk::distance_cached(&*a.s, &bf, &mut cache);
            // Both converge to within the relative tolerance (1e-6 of distance + coordinates).
            let tol = 1e-5 * (1.0 + cold.distance);
            prop_assert!((cold.distance - warm.distance).abs() <= tol, "{cold:?} {warm:?}");
            if (cold.distance > 1e-5) == (warm.distance > 1e-5) {
                prop_assert_eq!(cold.intersecting, warm.intersecting);
            }
            let hit = gjk::intersects_cached(&*a.s, &bf, &mut bool_cache);
            if cold.distance > 1e-4 || cold.intersecting {
                prop_assert_eq!(hit, cold.intersecting);
            }
        }
    }
}

#[test]
fn degenerate_inputs_never_nan() {
    // Scenario: points, duplicate points, collinear and coplanar clouds, coincident shapes,
    // zero-size boxes, tiny and huge scales: finite answers, no panic.
    let mut g = Gen::new(9);
    for i in 0..cases(2000) {
        let k = [1e-7_f32, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e7][i as usize % 7];
        let c = g.point() * k;
        let dir = g.unit();
        let shapes: Vec<Box<dyn SupportMap>> = vec![
            Box::new(c),
            Box::new(vec![c, c, c]),
            Box::new(vec![c, c + dir * k, c + dir * 2.0 * k, c + dir * 0.5 * k]),
            Box::new(vec![
                c,
                c + Vec3::X * k,
                c + Vec3::Y * k,
                c + (Vec3::X + Vec3::Y) * k,
            ]),
            Box::new(Aabb::new(c, c)),
            Box::new(Obb::new(c, g.quat(), Vec3::new(k, 0.0, 0.0))),
            Box::new(Sphere::new(c, 0.0)),
            Box::new(Capsule::new(c, c, k)),
            Box::new(Segment::new(c, c + dir * k)),
            Box::new(Triangle::new(c, c + dir * k, c + dir * 3.0 * k)),
        ];
        for a in &shapes {
            for b in &shapes {
                let r = gjk::distance(&**a, &**b);
                assert!(r.distance.is_finite() && r.distance >= 0.0, "{r:?}");
                assert!(r.point_a.is_finite() && r.point_b.is_finite(), "{r:?}");
                assert!(r.iterations <= gjk::MAX_ITERATIONS);
                assert_eq!(gjk::intersects(&**a, &**b), r.intersecting);
                // Every shape contains c: they all touch.
                assert!(r.intersecting, "k = {k}: {r:?}");
            }
        }
    }
}

#[test]
fn huge_offsets_keep_relative_precision() {
    // Scenario: the same pair far from the origin (1e4) keeps its distance to ~1e-6 relative
    // of the coordinates.
    let mut g = Gen::new(11);
    for _ in 0..cases(500) {
        let (a, b) = (g.obb(), g.capsule());
        let base = gjk::distance(&a, &b).distance;
        let off = Vec3::splat(1e4);
        let a2 = Obb {
            center: a.center + off,
            ..a
        };
        let b2 = Capsule::new(b.a + off, b.b + off, b.radius);
        let far = gjk::distance(&a2, &b2).distance;
        assert!((base - far).abs() <= 0.05, "{base} vs {far}");
    }
}

/// Counts support calls of the wrapped shape.
struct Counting<S> {
    s: S,
    calls: std::cell::Cell<u32>,
}

impl<S: SupportMap> SupportMap for Counting<S> {
    fn support(&self, d: Vec3) -> Vec3 {
        self.calls.set(self.calls.get() + 1);
        self.s.support(d)
    }
    fn interior_point(&self) -> Vec3 {
        self.s.interior_point()
    }
}

#[test]
fn cached_axis_hit_costs_one_support_call() {
    // Scenario: a separated pair queried, then moved slightly: the cached axis still separates
    // and the query costs exactly one support call per shape.
    let a = Counting {
        s: Obb::new(Vec3::ZERO, Quat::from_rotation_x(0.3), Vec3::ONE),
        calls: Default::default(),
    };
    let b = Sphere::new(Vec3::new(3.0, 2.5, 0.5), 1.0);
    // A stale cache pointing the wrong way: the first query must search.
    let mut cache = GjkCache {
        dir: Vec3::new(3.0, 2.5, 0.5),
    };
    assert!(!gjk::intersects_cached(&a, &b, &mut cache));
    let cold = a.calls.get();
    a.calls.set(0);
    let b2 = Sphere::new(Vec3::new(3.05, 2.5, 0.52), 1.0);
    assert!(!gjk::intersects_cached(&a, &b2, &mut cache));
    assert_eq!(a.calls.get(), 1, "cold run took {cold}");
    assert!(cold > 1);
}

#[test]
fn errata_listing6_parallel_edges_no_missed_collision() {
    // ERRATA listing 6.1: parallel edges made the article's SAT miss collisions. GJK has no
    // cross-product axes; boxes with exactly and nearly parallel edges, overlapping by 1e-3,
    // must intersect, and 1e-3 apart must not.
    for tilt in [0.0_f32, 1e-7, 1e-5, 1e-3] {
        let q = Quat::from_rotation_z(0.6) * Quat::from_rotation_x(0.2);
        let a = Obb::new(Vec3::new(0.3, -0.2, 0.1), q, Vec3::new(1.0, 0.5, 2.0));
        let qb = q * Quat::from_rotation_y(tilt);
        for (gap, expect) in [(-1e-3_f32, true), (1e-3, false)] {
            // B beside A along A's x axis: centres 2 + gap apart (half-extents 1 + 1).
            let b = Obb::new(
                a.center + a.axes.x_axis * (2.0 + gap),
                qb,
                Vec3::new(1.0, 0.5, 2.0),
            );
            // A tilt of t rotates B's near face by t about y: its corners move by up to 2t.
            let slack = 2.0 * tilt;
            if gap.abs() > slack {
                assert_eq!(gjk::intersects(&a, &b), expect, "tilt {tilt}, gap {gap}");
            }
        }
    }
}

#[test]
fn errata_listing7_zero_length_segment_is_a_point() {
    // ERRATA listing 7.2: a zero-length segment has no direction and must still work.
    let b = Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.4), Vec3::ONE);
    let inside = Segment::new(Vec3::new(0.2, 0.3, -0.1), Vec3::new(0.2, 0.3, -0.1));
    assert!(gjk::intersects(&inside, &b));
    let outside = Segment::new(Vec3::new(0.0, 1.5, 0.0), Vec3::new(0.0, 1.5, 0.0));
    let r = gjk::distance(&outside, &b);
    assert!((r.distance - 0.5).abs() <= 1e-6, "{r:?}");
}
