//! Contact manifolds of random overlapping pairs (real-mesh hulls and boxes), checked with
//! GJK as the oracle:
//! - 1 to 4 points, unit normal, depths in `[0, depth]`, `depth` within 5% (+1e-3 × size) of
//!   the SAT's minimum translation;
//! - moving B by `depth + 1e-3` along the normal separates the shapes, and when the normal is
//!   the SAT's minimum-translation axis leaves them apart by only about 1e-3;
//! - every contact point lies within `depth` of both shapes (GJK point–shape distance).

use std::sync::Arc;

use collide::convex::{
    contact_manifold, gjk, sat, ConvexHull, ConvexPolyhedron, SatResult, SepCache,
};
use collide::{io, Quat, Vec3};
use collide_testkit::Gen;

use crate::common;

fn path(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn hulls() -> Vec<Arc<ConvexHull>> {
    [
        "bunny.obj",
        "duck_vhacd.obj",
        "teddy2_VHACD_CHs.obj",
        "racecar_chassis.stl",
        "cube.obj",
    ]
    .iter()
    .map(|name| {
        let pts = io::load(path(name)).unwrap().merged().vertices;
        let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
        let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
        Arc::new(ConvexHull::try_new(&pts).unwrap())
    })
    .collect()
}

fn check_pair(a: &ConvexPolyhedron, b: &ConvexPolyhedron, case: usize, size: f32) -> usize {
    let SatResult::Penetrating {
        depth: sat_depth,
        normal: sat_normal,
    } = sat(a, b)
    else {
        assert!(contact_manifold(a, b, &mut SepCache::default()).is_none());
        return 0;
    };
    let m = contact_manifold(a, b, &mut SepCache::default())
        .unwrap_or_else(|| panic!("case {case}: SAT overlaps but no manifold"));
    let n = m.normal;
    assert!((n.length() - 1.0).abs() < 1e-5, "case {case}: normal {n}");
    assert!(
        !m.points().is_empty() && m.points().len() <= 4,
        "case {case}"
    );
    assert!(
        m.depth >= 0.0 && m.depth <= sat_depth * 1.06 + 4e-3 * size,
        "case {case}: manifold depth {} vs SAT {sat_depth}",
        m.depth
    );
    let tol = 1e-4 * size;
    for p in m.points() {
        assert!(
            p.depth >= 0.0 && p.depth <= m.depth + tol,
            "case {case}: {p:?} vs {}",
            m.depth
        );
        for s in [a, b] {
            let d = gjk::distance(&p.point, s).distance;
            assert!(
                d <= m.depth + tol,
                "case {case}: point {p:?} is {d} from a shape (depth {})",
                m.depth
            );
        }
    }
    if m.depth > 1e-4 * size {
        let eps = 1e-3 * size;
        let moved = ConvexPolyhedron {
            translation: b.translation + n * (m.depth + eps),
            ..b.clone()
        };
        let d = gjk::distance(a, &moved).distance;
        assert!(
            d > 0.0,
            "case {case}: still overlapping after moving B by depth"
        );
        // Along the SAT's own axis the depth is the minimum translation: just touching after.
        if n.dot(sat_normal) > 1.0 - 1e-6 && (m.depth - sat_depth).abs() <= 1e-6 * size {
            assert!(
                d <= eps + tol,
                "case {case}: after moving B by depth: distance {d}"
            );
        }
    }
    m.points().len()
}

#[test]
fn hull_hull_manifolds() {
    let hulls = hulls();
    let mut g = Gen::new(30);
    let mut counts = [0usize; 5];
    for case in 0..common::cases(3_000, 30_000) {
        let a = ConvexPolyhedron::new(hulls[case % hulls.len()].clone())
            .with_pose(g.quat(), g.vec(0.5));
        let b = ConvexPolyhedron::new(hulls[(case / 5 + 2 * case) % hulls.len()].clone())
            .with_pose(g.quat(), a.translation + g.unit() * g.range(0.0, 1.8));
        counts[check_pair(&a, &b, case, 1.0)] += 1;
    }
    eprintln!("hull-hull manifold sizes (0 = apart): {counts:?}");
}

#[test]
fn box_box_manifolds() {
    // Random boxes, a third with edges parallel to the first box's (face-face contacts).
    let mut g = Gen::new(31);
    g.extent = 1.5;
    let mut counts = [0usize; 5];
    for case in 0..common::cases(5_000, 50_000) {
        let oa = g.obb();
        let ob = if case % 3 == 0 {
            g.obb_parallel_to(&oa)
        } else {
            g.obb()
        };
        let a = ConvexPolyhedron::from_obb(&oa).unwrap();
        let b = ConvexPolyhedron::from_obb(&ob).unwrap();
        let size = oa
            .half_extents
            .max_element()
            .max(ob.half_extents.max_element());
        counts[check_pair(&a, &b, case, size)] += 1;
    }
    eprintln!("box-box manifold sizes (0 = apart): {counts:?}");
    assert!(counts[4] > 0, "no 4-point manifolds among parallel boxes");
}

#[test]
fn resting_stack_is_steady() {
    // A box resting on another, nudged each frame: always 4 points, normal +y.
    let ground = ConvexPolyhedron::cuboid(Vec3::new(3.0, 0.5, 3.0)).unwrap();
    let mut cache = SepCache::default();
    for k in 0..100 {
        let t = k as f32 * 0.01;
        let b = ConvexPolyhedron::cuboid(Vec3::splat(0.5))
            .unwrap()
            .with_pose(Quat::from_rotation_y(t), Vec3::new(0.3 * t, 0.99, -0.2 * t));
        let m = contact_manifold(&ground, &b, &mut cache).unwrap();
        assert_eq!(m.points().len(), 4, "frame {k}");
        collide_testkit::assert_near!(m.normal, Vec3::Y, 1e-6);
        collide_testkit::assert_near!(m.depth, 0.01, 1e-5);
    }
}
