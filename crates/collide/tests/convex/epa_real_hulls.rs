//! EPA (through `contact`) against the separating-axis test on hulls of the real meshes at
//! random overlapping poses: SAT's minimum translation over face normals and Gauss-map edge
//! pairs is exact for polyhedra, a second algorithm for the same depth. Also GJK distance
//! against SAT's separated gap (a lower bound) and the witness points against the hulls.
//!
//! Set `COLLIDE_LONG=k` to run k times as many random cases.

use std::sync::Arc;

use collide::convex::{contact, gjk, sat, ConvexHull, ConvexPolyhedron, SatResult, SupportMap};
use collide::io;
use collide::{Quat, Vec3};
use collide_testkit::oracle::minkowski::cases;
use collide_testkit::Gen;

fn path(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Whole-mesh hulls of real meshes, recentred and scaled to a bounding radius of 1.
fn mesh_hulls() -> Vec<(String, Arc<ConvexHull>)> {
    let mut out = Vec::new();
    for name in [
        "bunny.obj",
        "torus.obj",
        "duck_vhacd.obj",
        "racecar_chassis.stl",
        "jenga.obj",
        "cube.obj",
    ] {
        let model = io::load(path(name)).expect("asset mesh loads");
        let pts = model.merged().vertices;
        let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
        let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
        out.push((
            name.to_string(),
            Arc::new(ConvexHull::try_new(&pts).expect("mesh hull")),
        ));
    }
    out
}

/// `max n·(A − B)`: the translation along unit `n` that separates the pair (f64 sums).
fn separation_along(a: &dyn SupportMap, b: &dyn SupportMap, n: Vec3) -> f64 {
    let (pa, pb) = (a.support(n), b.support(-n));
    n.as_dvec3().dot(pa.as_dvec3() - pb.as_dvec3())
}

#[test]
fn epa_depth_matches_sat_on_real_hulls() {
    let hulls = mesh_hulls();
    let mut g = Gen::new(8);
    let n = cases(1500);
    let (mut pen, mut sep, mut ties) = (0, 0, 0);
    let (mut max_depth_err, mut max_n_err) = (0.0f32, 0.0f32);
    for i in 0..n {
        let (na, ha) = &hulls[i as usize % hulls.len()];
        let (nb, hb) = &hulls[(i as usize / hulls.len()) % hulls.len()];
        let a = ConvexPolyhedron::new(ha.clone()).with_pose(g.quat(), g.vec(0.3));
        let b = ConvexPolyhedron::new(hb.clone()).with_pose(g.quat(), g.unit() * g.range(0.0, 2.3));
        let ctx = format!("{na}-{nb} case {i}");
        match sat(&a, &b) {
            SatResult::Penetrating { normal, depth } => {
                let c = contact::contact(&a, &b, 0.0)
                    .unwrap_or_else(|| panic!("SAT depth {depth}, contact None: {ctx}"));
                assert!((c.normal.length() - 1.0).abs() <= 1e-5, "{ctx}");
                let e = (c.depth - depth).abs();
                max_depth_err = max_depth_err.max(e);
                assert!(e <= 1e-4, "EPA depth {} vs SAT {depth}: {ctx}", c.depth);
                // The EPA normal separates by its depth.
                let s = separation_along(&a, &b, c.normal);
                assert!(
                    (s - f64::from(c.depth)).abs() <= 1e-4,
                    "normal moves {s}: {ctx}"
                );
                let ne = (c.normal - normal).length();
                if ne > 1e-3 {
                    // Tied minimum translations: SAT's normal must separate by the same depth.
                    let s2 = separation_along(&a, &b, normal);
                    assert!(
                        (s2 - s).abs() <= 1e-4,
                        "normals {} / {normal}: {ctx}",
                        c.normal
                    );
                    ties += 1;
                } else {
                    max_n_err = max_n_err.max(ne);
                }
                pen += 1;
            }
            SatResult::Separated { distance, .. } => {
                let r = gjk::distance(&a, &b);
                assert!(
                    !r.intersecting || distance <= 1e-5,
                    "SAT gap {distance}: {ctx}"
                );
                // SAT's gap is a lower bound on the distance (equal for face/vertex and
                // edge/edge closest features).
                assert!(
                    r.distance >= distance - 1e-5,
                    "{} < SAT {distance}: {ctx}",
                    r.distance
                );
                sep += 1;
            }
        }
    }
    eprintln!(
        "epa vs sat on real-mesh hulls: {pen} penetrating (max depth difference \
         {max_depth_err:.2e}, normal {max_n_err:.2e}, {ties} tied normals), {sep} separated"
    );
    assert!(pen > n / 4 && sep > n / 10, "{pen} {sep}");
}

#[test]
fn deep_overlap_of_big_hulls_stays_within_budget() {
    // Scenario: two bunny hulls almost coincident (deepest case for EPA): depth matches SAT.
    let hulls = mesh_hulls();
    let bunny = &hulls[0].1;
    let mut g = Gen::new(2);
    for i in 0..cases(100) {
        let q = g.quat();
        let a = ConvexPolyhedron::new(bunny.clone()).with_pose(q, Vec3::ZERO);
        let b = ConvexPolyhedron::new(bunny.clone())
            .with_pose(Quat::from_rotation_z(g.range(0.0, 0.2)) * q, g.vec(0.05));
        let SatResult::Penetrating { depth, .. } = sat(&a, &b) else {
            panic!("coincident bunnies separated, case {i}");
        };
        let c = contact::contact(&a, &b, 0.0).expect("deep overlap");
        assert!(
            (c.depth - depth).abs() <= 1e-4,
            "case {i}: EPA {} vs SAT {depth}",
            c.depth
        );
    }
}
