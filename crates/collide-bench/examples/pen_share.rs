//! `cargo run --release -p collide-bench --example pen_share`
//!
//! `gjk::intersects` against parry3d's GJK intersection test on the poses of `pen_compare`'s
//! small-hull verdict rows (the same seeds and draws) that `gjk::intersects` does not decide
//! by the hulls' inner balls: GJK alone, without the early accept. Prints how many of the 128
//! poses those are and the median over 15 rounds (50 passes each) of ns per query.

use std::sync::Arc;

use collide::convex::{gjk, sat, ConvexHull, ConvexPolyhedron};
use collide::Vec3;
use collide_bench::convert;
use collide_testkit::{hulls, Gen};
use parry3d::math::Pose;
use parry3d::query::details::intersection_test_support_map_support_map;
use parry3d::shape::ConvexPolyhedron as ParryPoly;

/// One mesh's hull in both libraries.
fn shape(name: &str) -> (Arc<ConvexHull>, ParryPoly) {
    let h = ConvexHull::try_new(&hulls::mesh_points(name)).expect("mesh hull");
    let p = convert::hull(&h).expect("parry accepts the hull");
    (Arc::new(h), p)
}

/// The median of `runs` timings of `pass` over `n` queries, in ns per query.
fn median_ns(n: usize, mut pass: impl FnMut() -> usize) -> f64 {
    let mut t: Vec<f64> = (0..15)
        .map(|_| {
            let start = std::time::Instant::now();
            let hits: usize = (0..50).map(|_| pass()).sum();
            assert!(hits > 0);
            start.elapsed().as_nanos() as f64 / (50 * n) as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[7]
}

fn main() {
    let (bunny, teddy) = (shape("bunny.obj"), shape("teddy2_VHACD_CHs.obj"));
    let (duck, torus) = (shape("duck_vhacd.obj"), shape("torus.obj"));
    for (label, sa, sb, seed) in [
        ("bunny–teddy", &bunny, &teddy, 60),
        ("duck–torus", &duck, &torus, 61),
    ] {
        // `pen_cases::pairs`: the same draws, pairs the SAT finds apart drawn again.
        let mut g = Gen::new(seed);
        let mut all: Vec<(ConvexPolyhedron, ConvexPolyhedron, Pose)> = Vec::new();
        while all.len() < 128 {
            let (qa, qb) = (g.quat(), g.quat());
            let tb = g.unit() * g.range(0.2, 1.0);
            let a = ConvexPolyhedron::new(sa.0.clone()).with_pose(qa, Vec3::ZERO);
            let b = ConvexPolyhedron::new(sb.0.clone()).with_pose(qb, tb);
            if sat(&a, &b).is_penetrating() {
                let pos12 = convert::pose(Vec3::ZERO, qa).inv_mul(&convert::pose(tb, qb));
                all.push((a, b, pos12));
            }
        }
        // The poses whose inner balls do not overlap (with a little room for the early
        // accept's rounding slack).
        let rest: Vec<_> = all
            .iter()
            .filter(|(a, b, _)| {
                let ((ca, ra), (cb, rb)) = (a.hull.inner_ball(), b.hull.inner_ball());
                (a.to_world(ca) - b.to_world(cb)).length() >= (ra + rb) * 0.9999
            })
            .collect();
        let c = median_ns(rest.len(), || {
            rest.iter()
                .filter(|(a, b, _)| gjk::intersects(a, b))
                .count()
        });
        let p = median_ns(rest.len(), || {
            rest.iter()
                .filter(|(_, _, pos12)| {
                    intersection_test_support_map_support_map(pos12, &sa.1, &sb.1)
                })
                .count()
        });
        println!(
            "{label}: {} of 128 poses left to GJK; collide {c:.0} ns, parry3d {p:.0} ns, {:.2}x",
            rest.len(),
            p / c
        );
    }
}
