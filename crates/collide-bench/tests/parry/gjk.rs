//! collide's GJK / EPA / contact against parry3d's `distance`, `intersection_test` and
//! `contact` on ball, cuboid, capsule and convex-polyhedron pairs at random poses.
//!
//! Agreement rules: intersection must agree outside a 1e-4 band around touching (parry's own
//! distance or depth decides the band); distances within 1e-4; penetration depth within 1e-3;
//! normals within 1e-3, except where the minimum translation is not unique (both normals
//! separate the shapes by the same depth, checked with collide's support maps in f64).
//! Where the two libraries disagree beyond those tolerances, the f64 brute-force oracle of
//! collide's own tests (`collide_testkit::oracle::minkowski`) decides: collide must match it,
//! and the cases where parry is the one off are counted and reported.
//! Set `COLLIDE_LONG=k` for k times as many cases.

use collide_testkit::oracle::minkowski as gjk_common;

use collide::convex::{contact, gjk, SupportMap};
use collide::shapes::{Capsule, Obb, Sphere};
use collide::Vec3;
use collide_testkit::Gen;
use parry3d::math::Pose;
use parry3d::query;
use parry3d::shape::{Ball, Capsule as PCapsule, ConvexPolyhedron, Cuboid, Shape as PShape};
use rand::Rng;

use collide_testkit::oracle::minkowski::{
    cases, core_capsule, core_obb, core_points, core_sphere, Core,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ball,
    Cuboid,
    Capsule,
    Hull,
}

const KINDS: [Kind; 4] = [Kind::Ball, Kind::Cuboid, Kind::Capsule, Kind::Hull];

/// The same shape for both libraries.
struct Pair {
    ours: Box<dyn SupportMap>,
    theirs: Box<dyn PShape>,
    pose: Pose,
    core: Core,
}

fn draw(g: &mut Gen, k: Kind) -> Pair {
    match k {
        Kind::Ball => {
            let s = g.sphere();
            Pair {
                theirs: Box::new(Ball::new(s.radius)),
                pose: Pose::from_translation(s.center),
                core: core_sphere(&s),
                ours: Box::new(Sphere::new(s.center, s.radius)),
            }
        }
        Kind::Cuboid => {
            let q = g.quat();
            let o = Obb::new(g.point(), q, g.sizes());
            Pair {
                theirs: Box::new(Cuboid::new(o.half_extents)),
                pose: Pose::from_parts(o.center, q),
                core: core_obb(&o),
                ours: Box::new(o),
            }
        }
        Kind::Capsule => {
            let c = g.capsule();
            Pair {
                theirs: Box::new(PCapsule::new(c.a, c.b, c.radius)),
                pose: Pose::IDENTITY,
                core: core_capsule(&c),
                ours: Box::new(Capsule::new(c.a, c.b, c.radius)),
            }
        }
        Kind::Hull => loop {
            // A random cloud of 8–14 points; parry builds its hull, collide supports the cloud.
            let c = g.point();
            let n = g.rng.random_range(8..=14);
            let sz = g.size() * 1.5 + 0.1;
            let pts: Vec<Vec3> = (0..n).map(|_| c + g.vec(sz)).collect();
            if let Some(h) = ConvexPolyhedron::from_convex_hull(&pts) {
                break Pair {
                    theirs: Box::new(h),
                    pose: Pose::IDENTITY,
                    core: core_points(&pts),
                    ours: Box::new(pts),
                };
            }
        },
    }
}

/// Translation along unit `n` that separates A from B: `max n·(A − B)` in f64 via supports.
fn separation_along(a: &dyn SupportMap, b: &dyn SupportMap, n: Vec3) -> f64 {
    let (pa, pb) = (a.support(n), b.support(-n));
    n.as_dvec3().dot(pa.as_dvec3() - pb.as_dvec3())
}

// One piece: one pass over the pairs comparing each answer with parry's, the tallies checked at the
// end.
#[test]
fn gjk_epa_contact_agree_with_parry() {
    let per_pair = cases(400);
    let mut report = String::new();
    let (mut total_bool, mut agree_bool, mut total_depth, mut ties) = (0, 0, 0, 0);
    let (mut max_dist_err, mut max_depth_err, mut max_n_err) = (0.0f32, 0.0f32, 0.0f32);
    let (mut parry_dist_off, mut parry_bool_off, mut parry_depth_off) = (0, 0, 0);
    let (mut max_parry_dist_err, mut max_parry_depth_err) = (0.0f64, 0.0f64);
    for (ia, &ka) in KINDS.iter().enumerate() {
        for (ib, &kb) in KINDS.iter().enumerate().skip(ia) {
            let mut g = Gen::new(40 + (ia * 4 + ib) as u64);
            let (mut agree, mut band, mut depth_n, mut pair_off) = (0, 0, 0, 0);
            for case in 0..per_pair {
                let (a, b) = (draw(&mut g, ka), draw(&mut g, kb));
                let ctx = format!("{ka:?}-{kb:?} case {case}");
                let pd = query::distance(&a.pose, &*a.theirs, &b.pose, &*b.theirs)
                    .expect("parry supports these pairs")
                    .distance;
                let pc = query::contact(&a.pose, &*a.theirs, &b.pose, &*b.theirs, 0.0)
                    .expect("parry supports these pairs");
                let pi = query::intersection_test(&a.pose, &*a.theirs, &b.pose, &*b.theirs)
                    .expect("parry supports these pairs")
                    .intersecting;
                let ours = gjk::distance(&*a.ours, &*b.ours);
                let hit = gjk::intersects(&*a.ours, &*b.ours);
                // Distance.
                let e = (ours.distance - pd).abs();
                // The f64 oracle is exhaustive (slow on hulls): computed only to arbitrate.
                let truth_cell = std::cell::OnceCell::new();
                let truth = || *truth_cell.get_or_init(|| gjk_common::truth(&a.core, &b.core));
                if e > 1e-4 {
                    let truth = truth();
                    pair_off += 1;
                    let oe = (f64::from(ours.distance) - truth.distance).abs();
                    assert!(
                        oe <= 1e-5,
                        "distance {} vs f64 {truth:?}: {ctx}",
                        ours.distance
                    );
                    let pe = (f64::from(pd) - truth.distance).abs();
                    parry_dist_off += 1;
                    max_parry_dist_err = max_parry_dist_err.max(pe);
                } else {
                    max_dist_err = max_dist_err.max(e);
                }
                // Intersection outside the band.
                let parry_depth = pc.map_or(0.0, |c| -c.dist);
                total_bool += 1;
                if pd > 1e-4 || parry_depth > 1e-4 {
                    if hit == pi {
                        agree += 1;
                        agree_bool += 1;
                    } else {
                        let truth = truth();
                        assert_eq!(hit, truth.overlap(), "intersects {hit} vs {truth:?}: {ctx}");
                        parry_bool_off += 1;
                    }
                } else {
                    band += 1;
                }
                // Contact: depth and normal.
                if let Some(c) = pc.filter(|c| -c.dist > 1e-4) {
                    let ours = contact::contact(&*a.ours, &*b.ours, 0.0)
                        .unwrap_or_else(|| panic!("parry depth {}, ours none: {ctx}", -c.dist));
                    assert!((ours.normal.length() - 1.0).abs() <= 1e-5, "{ctx}");
                    let de = (ours.depth - (-c.dist)).abs();
                    if de > 1e-3 {
                        // Arbitrate with the f64 facet search.
                        let radii = a.core.radius + b.core.radius;
                        let truth = truth();
                        pair_off += 1;
                        let expected = if truth.core_distance > 0.0 {
                            radii - truth.core_distance
                        } else {
                            let m = gjk_common::minkowski(&a.core, &b.core);
                            gjk_common::hull_depth(&m).map_or(radii, |(d, _)| d + radii)
                        };
                        let oe = (f64::from(ours.depth) - expected).abs();
                        assert!(oe <= 1e-4, "depth {} vs f64 {expected}: {ctx}", ours.depth);
                        parry_depth_off += 1;
                        max_parry_depth_err =
                            max_parry_depth_err.max((f64::from(-c.dist) - expected).abs());
                        continue;
                    }
                    max_depth_err = max_depth_err.max(de);
                    let ne = (ours.normal - c.normal1).length();
                    if ne > 1e-3 {
                        // Not unique? Both normals must separate by the same depth.
                        let s_ours = separation_along(&*a.ours, &*b.ours, ours.normal);
                        let s_theirs = separation_along(&*a.ours, &*b.ours, c.normal1);
                        assert!(
                            (s_theirs - s_ours).abs() <= 1e-3,
                            "normal {} vs parry {} (separations {s_ours} / {s_theirs}): {ctx}",
                            ours.normal,
                            c.normal1
                        );
                        ties += 1;
                    } else {
                        max_n_err = max_n_err.max(ne);
                    }
                    depth_n += 1;
                    total_depth += 1;
                }
            }
            report += &format!(
                "  {ka:?}-{kb:?}: {agree}/{per_pair} intersection agree, {band} in band, \
                 {depth_n} contacts compared, {pair_off} parry results off the f64 oracle\n"
            );
        }
    }
    eprintln!(
        "collide vs parry3d:\n{report}  total: {agree_bool}/{total_bool} intersection agree \
         outside the 1e-4 band; {total_depth} penetrations, {ties} with a tied normal; max \
         differences where both agree: distance {max_dist_err:.2e}, depth {max_depth_err:.2e}, \
         normal {max_n_err:.2e}\n  parry off the f64 oracle (collide on it): distance \
         {parry_dist_off} cases (max error {max_parry_dist_err:.2e}), intersection \
         {parry_bool_off}, depth {parry_depth_off} (max error {max_parry_depth_err:.2e})"
    );
}

#[test]
fn sphere_sphere_exact_vs_parry() {
    // Scenario: concentric-ish and touching spheres, where both libraries are analytic.
    let mut g = Gen::new(5);
    for _ in 0..cases(2000) {
        let (a, b) = (g.sphere(), g.sphere());
        let pc = query::contact(
            &Pose::from_translation(a.center),
            &Ball::new(a.radius),
            &Pose::from_translation(b.center),
            &Ball::new(b.radius),
            0.0,
        )
        .expect("ball-ball");
        let ours = contact::contact(&a, &b, 0.0);
        match (pc, ours) {
            (Some(p), Some(o)) => assert!((o.depth + p.dist).abs() <= 1e-5, "{p:?} {o:?}"),
            (None, None) => {}
            (p, o) => {
                let d = (a.center - b.center).length() - a.radius - b.radius;
                assert!(d.abs() <= 1e-5, "{p:?} vs {o:?} at distance {d}");
            }
        }
    }
}
