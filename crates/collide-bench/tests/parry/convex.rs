//! collide's separating-axis test against parry3d, an independent library, on the same hulls
//! of the real meshes at the same random poses.
//!
//! - Verdict: `sat` vs parry's `intersection_test`, outside a band of 1e-4 around touching
//!   (SAT gap or depth). A disagreement where our separating plane has every vertex of A
//!   strictly below it and every vertex of B strictly above is parry's (its GJK tolerance just
//!   past the band) and is counted and printed; any other disagreement fails the test.
//! - Penetration: SAT depth and normal vs parry's `contact` (GJK + EPA) within 1e-3. Two axes
//!   can tie for the minimum; a differing normal counts as a tie when the overlap of the
//!   projections along parry's normal equals our depth within 1e-3. A depth that differs by
//!   more is adjudicated with collide's GJK: moving B by a depth (+1e-3) along its normal must
//!   separate the shapes by about 1e-3. Every mismatch so far is parry's depth too small (B
//!   still overlaps after moving by it) with ours exact; they are counted and printed.
//!
//! 10,000 pairs by default, 100,000 with `COLLIDE_LONG=1`.

use std::sync::Arc;

use collide::convex::{gjk, sat, ConvexHull, ConvexPolyhedron, SatResult, SupportMap};
use collide::Vec3;
use collide_bench::{convert, inputs};
use collide_testkit::{Gen, HULL_MESHES};
use parry3d::math::Pose;
use parry3d::query;
use parry3d::shape::ConvexPolyhedron as ParryPoly;

fn cases(default: usize, long: usize) -> usize {
    if std::env::var("COLLIDE_LONG").is_ok_and(|v| v == "1") {
        long
    } else {
        default
    }
}

/// Our hull and parry's polyhedron of the same (recentred, unit-radius) mesh.
fn shapes() -> Vec<(Arc<ConvexHull>, ParryPoly)> {
    HULL_MESHES
        .iter()
        .map(|name| {
            let hull = inputs::mesh_hull(name, None).unwrap();
            let parry = convert::hull(&hull).unwrap();
            (Arc::new(hull), parry)
        })
        .collect()
}

// One piece: one pass over the pairs comparing each answer with parry's, the tallies checked at the
// end.
#[test]
fn sat_agrees_with_parry() {
    let shapes = shapes();
    let n = cases(10_000, 100_000);
    let mut g = Gen::new(50);
    let band = 1e-4;
    let (mut agree, mut banded, mut disagree) = (0usize, 0usize, 0usize);
    let (mut depth_ok, mut normal_ok, mut ties, mut contact_bad) = (0usize, 0usize, 0usize, 0usize);
    let mut worst_depth = 0.0f32;
    let (mut parry_short, mut unresolved, mut parry_touch) = (0usize, 0usize, 0usize);
    let mut short_pairs: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    for case in 0..n {
        let (ha, pa) = &shapes[case % shapes.len()];
        let (hb, pb) = &shapes[(case / shapes.len() + 2 * case + 1) % shapes.len()];
        let (qa, ta) = (g.quat(), g.vec(0.5));
        let (qb, tb) = (g.quat(), ta + g.unit() * g.range(0.0, 2.2));
        let a = ConvexPolyhedron::new(ha.clone()).with_pose(qa, ta);
        let b = ConvexPolyhedron::new(hb.clone()).with_pose(qb, tb);
        let (pose_a, pose_b) = (Pose::from_parts(ta, qa), Pose::from_parts(tb, qb));
        let ours = sat(&a, &b);
        let gap = match ours {
            SatResult::Separated { distance, .. } => distance,
            SatResult::Penetrating { depth, .. } => -depth,
        };
        if gap.abs() <= band {
            banded += 1;
            continue;
        }
        let theirs = query::intersection_test(&pose_a, pa, &pose_b, pb)
            .unwrap()
            .intersecting;
        if theirs != ours.is_penetrating() {
            // Adjudicate: our separating plane must have every vertex of A below it and every
            // vertex of B above it (the polyhedra are the hulls of their vertices).
            if let SatResult::Separated { plane, .. } = ours {
                let a_below = a
                    .world_vertices()
                    .iter()
                    .all(|v| plane.signed_distance(*v) < 0.0);
                let b_above = b
                    .world_vertices()
                    .iter()
                    .all(|v| plane.signed_distance(*v) > 0.0);
                if a_below && b_above {
                    parry_touch += 1;
                    eprintln!("case {case}: parry reports contact; our plane separates every vertex: {ours:?}");
                    continue;
                }
            }
            disagree += 1;
            eprintln!("case {case}: ours {ours:?}, parry intersecting {theirs}");
            continue;
        }
        agree += 1;
        if let SatResult::Penetrating { normal, depth } = ours {
            let Some(c) = query::contact(&pose_a, pa, &pose_b, pb, 0.0).unwrap() else {
                contact_bad += 1;
                continue;
            };
            let (pd, pn) = (-c.dist, c.normal1);
            worst_depth = worst_depth.max((pd - depth).abs());
            if (pd - depth).abs() <= 1e-3 {
                depth_ok += 1;
            } else {
                // Adjudicate with collide's GJK: moving B by a depth (+1e-3) along its normal
                // must separate the shapes, by no more than about 1e-3.
                let after = |dir: Vec3, by: f32| {
                    let moved =
                        ConvexPolyhedron::new(hb.clone()).with_pose(qb, tb + dir * (by + 1e-3));
                    gjk::distance(&a, &moved).distance
                };
                let (ours_after, parry_after) = (after(normal, depth), after(pn, pd));
                let ours_ok = ours_after > 0.0 && ours_after <= 1.1e-3;
                if ours_ok && parry_after == 0.0 {
                    parry_short += 1;
                    *short_pairs
                        .entry((
                            case % shapes.len(),
                            (case / shapes.len() + 2 * case + 1) % shapes.len(),
                        ))
                        .or_insert(0) += 1;
                } else {
                    eprintln!(
                        "case {case}: depth ours {depth} parry {pd}; after moving B: ours {ours_after}, parry's {parry_after}"
                    );
                    unresolved += 1;
                }
            }
            if (pn - normal).abs().max_element() <= 1e-3 {
                normal_ok += 1;
            } else {
                // A tie: the projections' overlap along parry's normal equals our depth.
                let overlap = a.support(pn).dot(pn) - b.support(-pn).dot(pn);
                if (overlap - depth).abs() <= 1e-3 {
                    ties += 1;
                } else {
                    eprintln!("case {case}: normal ours {normal} parry {pn} (overlap along parry's {overlap}, our depth {depth})");
                }
            }
        }
    }
    eprintln!(
        "depth mismatches where parry's depth is too small (B moved by it still overlaps, ours \
         separates by 1e-3): {parry_short}, by shape pair (A, B): {short_pairs:?}; unresolved: {unresolved}"
    );
    eprintln!(
        "collide SAT vs parry3d on {n} pairs: {agree} agree, {disagree} disagree, {parry_touch} \
         where parry reports contact across a plane that separates every vertex, {banded} in the \
         ±{band} band; contact: depth within 1e-3 on {depth_ok}, normal within 1e-3 on \
         {normal_ok} (+{ties} equal-depth ties), {contact_bad} without a parry contact; worst \
         depth difference {worst_depth}"
    );
    assert_eq!(disagree, 0);
    assert_eq!(contact_bad, 0);
    assert_eq!(
        unresolved, 0,
        "depth mismatches not explained by parry's shortfall"
    );
}

#[test]
fn parry_polyhedra_are_our_hulls() {
    // The two libraries must be given the same shape: equal support points in 1,000 directions.
    use parry3d::shape::SupportMap as _;
    let mut g = Gen::new(51);
    for (k, (hull, parry)) in shapes().iter().enumerate() {
        assert_eq!(parry.points().len(), hull.vertices().len(), "shape {k}");
        for _ in 0..1000 {
            let d = g.unit();
            let ours = hull.support(d).dot(d);
            let theirs = parry.local_support_point(d).dot(d);
            assert!(
                (ours - theirs).abs() <= 1e-6,
                "shape {k}: {ours} vs {theirs}"
            );
        }
    }
}
