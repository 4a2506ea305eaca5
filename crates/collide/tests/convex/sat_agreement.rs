//! The separating-axis test against independent oracles.
//!
//! - GJK (a second algorithm, on support points) on random pairs of real-mesh hulls at random
//!   poses: same verdict outside a band of 1e-4 × size around touching; SAT's separation never
//!   exceeds GJK's distance (it is a lower bound); SAT's depth is the minimum over all
//!   directions, so EPA's depth can only be larger (within tolerance). 10,000 pairs by
//!   default, 100,000 with `COLLIDE_LONG=1`.
//! - `overlap::obb_obb` (the 15-axis box test) on random boxes, including parallel edges.
//! - Symmetry: swapping A and B gives the same verdict and depth and the opposite normal.
//! - The cache: on 1,000 frames of two hulls moving slowly past each other, cached and
//!   uncached verdicts agree on every frame; the hit rate is printed (and must exceed 90%).

use std::sync::Arc;

use collide::convex::{gjk, sat, sat_cached, ConvexHull, ConvexPolyhedron, SatResult, SepCache};
use collide::shapes::Obb;
use collide::{io, overlap, Quat, Vec3};
use collide_testkit::{Gen, HULL_MESHES};
use glam::DVec3;

use crate::common;

fn path(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whole-mesh hulls of the real meshes, recentred and scaled to a bounding radius of 1, plus
/// a few V-HACD pieces.
fn mesh_hulls() -> Vec<Arc<ConvexHull>> {
    let mut clouds: Vec<Vec<Vec3>> = Vec::new();
    for name in HULL_MESHES {
        let model = io::load(path(name)).unwrap();
        clouds.push(model.merged().vertices);
        if model.parts.len() > 1 {
            clouds.push(model.parts[0].mesh.vertices.clone());
        }
    }
    clouds
        .into_iter()
        .map(|pts| {
            let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
            let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
            let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
            Arc::new(ConvexHull::try_new(&pts).unwrap())
        })
        .collect()
}

fn posed(h: &Arc<ConvexHull>, q: Quat, t: Vec3) -> ConvexPolyhedron {
    ConvexPolyhedron::new(h.clone()).with_pose(q, t)
}

#[test]
fn sat_agrees_with_gjk_on_real_mesh_hulls() {
    let hulls = mesh_hulls();
    let n = common::cases(10_000, 100_000);
    let mut g = Gen::new(20);
    let band = 1e-4;
    let (mut agree, mut banded, mut hits, mut apart) = (0, 0, 0, 0);
    let mut worst_depth_gap = 0.0f32;
    for case in 0..n {
        let ha = &hulls[case % hulls.len()];
        let hb = &hulls[(case / hulls.len() + case) % hulls.len()];
        let a = posed(ha, g.quat(), g.vec(0.5));
        // Centres within 2.2 radii: a mix of apart, touching and deep.
        let b = posed(hb, g.quat(), a.translation + g.unit() * g.range(0.0, 2.2));
        let s = sat(&a, &b);
        let gj = gjk::distance(&a, &b);
        match s {
            SatResult::Separated { distance, plane } => {
                // A lower bound of the true distance, and a real separating plane.
                assert!(
                    distance <= gj.distance + 1e-4,
                    "case {case}: SAT gap {distance} > GJK distance {}",
                    gj.distance
                );
                for v in a.world_vertices() {
                    assert!(
                        plane.signed_distance(v) <= 1e-5,
                        "case {case}: A above plane"
                    );
                }
                for v in b.world_vertices() {
                    assert!(
                        plane.signed_distance(v) >= -1e-5,
                        "case {case}: B below plane"
                    );
                }
                if gj.distance <= band {
                    banded += 1;
                    continue;
                }
                apart += 1;
            }
            SatResult::Penetrating { normal, depth } => {
                assert!(
                    (normal.length() - 1.0).abs() < 1e-5,
                    "case {case}: normal {normal}"
                );
                if depth <= band {
                    banded += 1;
                    continue;
                }
                assert!(
                    gj.intersecting,
                    "case {case}: SAT depth {depth}, GJK distance {}",
                    gj.distance
                );
                hits += 1;
                // The SAT axis is the minimum over all face and Minkowski-edge axes: moving B
                // by depth along it must leave the shapes touching (GJK distance ~0), and
                // moving a bit more must separate them.
                let moved = posed(
                    hb,
                    Quat::from_mat3(&b.rotation),
                    b.translation + normal * (depth + 2e-3),
                );
                let d_after = gjk::distance(&a, &moved).distance;
                assert!(
                    d_after > 0.0 && d_after <= 2e-3 + 1e-4,
                    "case {case}: after the minimum translation the distance is {d_after}"
                );
                if let Some(p) = collide::convex::epa::penetration(&a, &b) {
                    worst_depth_gap = worst_depth_gap.max(depth - p.depth);
                }
            }
        }
        agree += 1;
    }
    eprintln!(
        "SAT vs GJK: {agree} agree ({hits} overlapping, {apart} apart), {banded} in the ±1e-4 band, \
         0 disagree; worst SAT depth above EPA depth {worst_depth_gap}"
    );
    assert!(
        worst_depth_gap <= 1e-3,
        "SAT depth exceeds EPA by {worst_depth_gap}"
    );
}

#[test]
fn sat_agrees_with_the_obb_test() {
    // Random boxes and boxes with parallel edges: SAT on polyhedra vs overlap::obb_obb.
    let mut g = Gen::new(21);
    let n = common::cases(20_000, 200_000);
    let mut banded = 0;
    for case in 0..n {
        let a = g.obb();
        let b = if case % 3 == 0 {
            g.obb_parallel_to(&a)
        } else {
            g.obb()
        };
        let pa = ConvexPolyhedron::from_obb(&a).unwrap();
        let pb = ConvexPolyhedron::from_obb(&b).unwrap();
        let s = sat(&pa, &pb);
        let size = a
            .half_extents
            .max_element()
            .max(b.half_extents.max_element());
        let gap = match s {
            SatResult::Separated { distance, .. } => distance,
            SatResult::Penetrating { depth, .. } => -depth,
        };
        if gap.abs() <= 1e-4 * size.max(1.0) {
            banded += 1;
            continue;
        }
        assert_eq!(
            s.is_penetrating(),
            overlap::obb_obb(&a, &b),
            "case {case}: {a:?} {b:?} {s:?}"
        );
    }
    eprintln!("SAT vs obb_obb: {} cases, {banded} in the band", n);
}

#[test]
fn swapping_a_and_b_flips_the_normal() {
    let hulls = mesh_hulls();
    let mut g = Gen::new(22);
    for case in 0..common::cases(3_000, 30_000) {
        let a = posed(&hulls[case % hulls.len()], g.quat(), g.vec(0.5));
        let b = posed(
            &hulls[(case * 7 + 3) % hulls.len()],
            g.quat(),
            a.translation + g.unit() * g.range(0.0, 2.0),
        );
        match (sat(&a, &b), sat(&b, &a)) {
            (
                SatResult::Penetrating {
                    normal: n1,
                    depth: d1,
                },
                SatResult::Penetrating {
                    normal: n2,
                    depth: d2,
                },
            ) => {
                assert!((d1 - d2).abs() <= 1e-5, "case {case}: depths {d1} {d2}");
                // Ties between axes may pick different normals of equal depth.
                if d1 > 1e-4 {
                    let moved = posed(
                        &b.hull,
                        Quat::from_mat3(&b.rotation),
                        b.translation - n2 * (d2 + 1e-3),
                    );
                    assert!(
                        gjk::distance(&a, &moved).distance > 0.0,
                        "case {case}: {n1} vs {n2}"
                    );
                }
            }
            (
                SatResult::Separated { distance: d1, .. },
                SatResult::Separated { distance: d2, .. },
            ) => {
                assert!(d1 > 0.0 && d2 > 0.0);
            }
            (x, y) => {
                let gap = |r: SatResult| match r {
                    SatResult::Separated { distance, .. } => distance,
                    SatResult::Penetrating { depth, .. } => -depth,
                };
                assert!(
                    gap(x).abs() <= 1e-5 && gap(y).abs() <= 1e-5,
                    "case {case}: {x:?} vs {y:?}"
                );
            }
        }
    }
}

/// Two hulls sliding slowly past each other over `frames` frames; returns both poses per frame.
pub fn sliding_frames(
    hulls: &[Arc<ConvexHull>],
    frames: usize,
) -> Vec<(ConvexPolyhedron, ConvexPolyhedron)> {
    let (ha, hb) = (&hulls[0], &hulls[3]);
    (0..frames)
        .map(|k| {
            let u = k as f32 / frames as f32;
            let a = posed(ha, Quat::from_rotation_y(0.3 * u), Vec3::ZERO);
            // B passes over A at a height that grazes it mid-way, turning slowly.
            let b = posed(
                hb,
                Quat::from_rotation_z(0.5 * u) * Quat::from_rotation_x(0.2),
                Vec3::new(-4.0 + 8.0 * u, 1.75, 0.3 * (6.0 * u).sin()),
            );
            (a, b)
        })
        .collect()
}

#[test]
fn cache_hit_rate_on_a_slow_pass() {
    // 1,000 frames: verdicts with and without the cache agree; most frames hit.
    let hulls = mesh_hulls();
    let frames = sliding_frames(&hulls, 1000);
    let mut cache = SepCache::default();
    let mut touching_frames = 0;
    for (k, (a, b)) in frames.iter().enumerate() {
        let cached = sat_cached(a, b, &mut cache);
        let plain = sat(a, b);
        assert_eq!(cached.is_penetrating(), plain.is_penetrating(), "frame {k}");
        if let (
            SatResult::Penetrating { depth: d1, .. },
            SatResult::Penetrating { depth: d2, .. },
        ) = (cached, plain)
        {
            assert_eq!(d1, d2, "frame {k}");
            touching_frames += 1;
        }
    }
    eprintln!(
        "slow pass: {} hits, {} misses, hit rate {:.1}% ({touching_frames} overlapping frames)",
        cache.hits,
        cache.misses,
        100.0 * cache.hit_rate()
    );
    assert!(cache.hit_rate() > 0.9, "hit rate {}", cache.hit_rate());
}

#[test]
fn nan_poses_never_panic() {
    // NaN or infinite poses are "no contact".
    let hulls = mesh_hulls();
    let a = posed(&hulls[0], Quat::IDENTITY, Vec3::ZERO);
    for bad in [
        Vec3::NAN,
        Vec3::INFINITY,
        Vec3::new(0.0, f32::NEG_INFINITY, 0.0),
    ] {
        let b = posed(&hulls[1], Quat::IDENTITY, bad);
        assert!(!sat(&a, &b).is_penetrating());
        assert!(!sat(&b, &a).is_penetrating());
    }
    let b = posed(&hulls[1], Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO);
    assert!(!sat(&a, &b).is_penetrating());
    let _ = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
}

/// A thin plate's rim edge (its two faces' normals 6e-6 from opposite, A below) against a
/// wedge just past the rim: the separating axis is an edge pair whose axis lies 0.16° from
/// one of the plate's face normals. Oriented by the sum of the edge's face normals (a vector
/// 6e-6 long, its direction rounding), that axis would point into A, the pair would not
/// separate, and `sat(a, b)` would say `Penetrating` while `sat(b, a)` finds the gap. The
/// shapes are the saved `sat` input `thin_plate_edge_axis_into_a_*` (at 1e-20 scale) scaled by
/// 2^66 to unit size, where the same happens. The gap in f64 over the world vertices is
/// 5.75e-4.
#[test]
fn thin_plate_rim_edge_axis_points_out_of_a() {
    let plate = ConvexPolyhedron::from_points(&[
        Vec3::ZERO,
        Vec3::new(-1.2392461, 0.0, 0.0),
        Vec3::new(-1.2392156, -1.2392156, -1.2392156),
        Vec3::new(0.0, -1.2392156, -1.2392156),
        Vec3::new(0.0, -1.2392015, -1.2392156),
    ])
    .unwrap();
    let wedge = ConvexPolyhedron::from_points(&[
        Vec3::new(-1.2392156, 0.0019531618, 0.0023514093),
        Vec3::new(0.0, 0.0, -1.2391977),
        Vec3::new(-1.2392156, -0.9242953, -1.2392156),
        Vec3::new(0.0023514093, 0.0023514093, 0.002366668),
        Vec3::new(-1.2392156, -1.2392156, -1.2392156),
        Vec3::new(-1.2391969, -1.2392156, -1.2392156),
        Vec3::new(0.0023514093, 0.0023514093, 0.0),
    ])
    .unwrap();
    let a = plate.with_pose(
        Quat::from_xyzw(-1.2392156, -1.2392156, 0.0, -1.2391969),
        Vec3::splat(-1.2392156),
    );
    let b = wedge.with_pose(
        Quat::from_xyzw(-1.2392156, -1.2392156, 0.0, -1.2344055),
        Vec3::new(0.0, -1.2391975, -1.2393682),
    );
    // The true gap: the best of the Minkowski difference's face normals, in f64.
    let (wa, wb) = (a.world_vertices(), b.world_vertices());
    let gap_along = |n: DVec3| {
        let max_a = wa
            .iter()
            .map(|v| n.dot(common::dv(*v)))
            .fold(f64::MIN, f64::max);
        let min_b = wb
            .iter()
            .map(|v| n.dot(common::dv(*v)))
            .fold(f64::MAX, f64::min);
        min_b - max_a
    };
    let diff: Vec<DVec3> = wa
        .iter()
        .flat_map(|x| wb.iter().map(move |y| common::dv(*y - *x)))
        .collect();
    let mut exact = f64::MIN;
    for (i, p) in diff.iter().enumerate() {
        for (j, q) in diff.iter().enumerate().skip(i + 1) {
            for r in &diff[j + 1..] {
                let n = (*q - *p).cross(*r - *p).normalize_or_zero();
                for n in [n, -n] {
                    if n != DVec3::ZERO && diff.iter().all(|w| n.dot(*w - *p) >= -1e-12) {
                        exact = exact.max(gap_along(n));
                    }
                }
            }
        }
    }
    assert!((exact - 5.75e-4).abs() < 1e-6, "exact gap {exact}");
    for (x, y, below, above) in [(&a, &b, &wa, &wb), (&b, &a, &wb, &wa)] {
        let r = sat(x, y);
        let SatResult::Separated { plane, distance } = r else {
            panic!("a gap of {exact} reported as {r:?}");
        };
        assert!(
            (f64::from(distance) - exact).abs() < 1e-6,
            "gap {distance}, exact {exact}"
        );
        // The plane separates: the first shape below it, the second above (f64).
        let s = |v: &Vec3| common::dv(plane.normal).dot(common::dv(*v)) + f64::from(plane.d);
        assert!(below.iter().all(|v| s(v) <= 1e-6) && above.iter().all(|v| s(v) >= -1e-6));
    }
}
