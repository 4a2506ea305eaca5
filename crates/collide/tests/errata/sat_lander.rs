//! Regression tests for the Lander errata (`ERRATA.md`, Lander 3 and 4).
//!
//! Lander 3: Lander's candidates are the face planes of both objects and the planes through an
//! edge of A and a vertex of B. Our SAT uses face normals and edge × edge axes pruned by the
//! Gauss map. Both must reach the same verdict: a brute-force implementation of Lander's
//! search is the oracle on random small hulls (outside a band of 1e-3 around touching).
//!
//! Lander 4: the plane cached from the previous frame is tried first; when it still
//! separates, the query is answered by it alone (a hit), with the same verdict.

use collide::convex::{sat, sat_cached, ConvexPolyhedron, SatResult, SepCache, SepFeature};
use collide::shapes::Plane;
use collide::{Quat, Vec3};
use collide_testkit::Gen;

use crate::common;

/// Lander's search, brute force: `true` when a face plane of A or B, or a plane through an
/// edge of A and a vertex of B (either orientation), has all of A on one side and all of B on
/// the other (within `tol`).
fn lander_separated(a: &ConvexPolyhedron, b: &ConvexPolyhedron, tol: f32) -> bool {
    let (va, vb) = (a.world_vertices(), b.world_vertices());
    let separates = |p: &Plane| {
        let (a_below, b_above) = (
            va.iter().all(|v| p.signed_distance(*v) <= tol),
            vb.iter().all(|v| p.signed_distance(*v) >= -tol),
        );
        let (a_above, b_below) = (
            va.iter().all(|v| p.signed_distance(*v) >= -tol),
            vb.iter().all(|v| p.signed_distance(*v) <= tol),
        );
        (a_below && b_above) || (a_above && b_below)
    };
    for f in 0..a.hull.faces().len() {
        if separates(&a.face_plane(f)) {
            return true;
        }
    }
    for f in 0..b.hull.faces().len() {
        if separates(&b.face_plane(f)) {
            return true;
        }
    }
    for e in a.hull.edges() {
        let (p, q) = (va[e.vertices[0] as usize], va[e.vertices[1] as usize]);
        for v in &vb {
            // Lander: vertex B on the line of edge A means contact, no plane.
            if let Some(plane) = Plane::from_points(p, q, *v) {
                if separates(&plane) {
                    return true;
                }
            }
        }
    }
    false
}

fn random_hull(g: &mut Gen, n: usize) -> ConvexPolyhedron {
    let pts: Vec<Vec3> = (0..n).map(|_| g.vec(1.0)).collect();
    ConvexPolyhedron::from_points(&pts).unwrap()
}

#[test]
fn erratum_lander_3_edge_vertex_planes_and_edge_axes_agree() {
    let mut g = Gen::new(70);
    let (mut apart, mut touching, mut banded) = (0, 0, 0);
    for case in 0..common::cases(1_000, 10_000) {
        let a = random_hull(&mut g, 12).with_pose(g.quat(), Vec3::ZERO);
        let b = random_hull(&mut g, 12).with_pose(g.quat(), g.unit() * g.range(0.5, 3.0));
        let s = sat(&a, &b);
        let gap = match s {
            SatResult::Separated { distance, .. } => distance,
            SatResult::Penetrating { depth, .. } => -depth,
        };
        if gap.abs() <= 1e-3 {
            banded += 1;
            continue;
        }
        assert_eq!(
            !s.is_penetrating(),
            lander_separated(&a, &b, 1e-5),
            "case {case}: SAT {s:?}"
        );
        if s.is_penetrating() {
            touching += 1;
        } else {
            apart += 1;
        }
    }
    eprintln!("Lander vs SAT: {apart} apart, {touching} overlapping, {banded} in the band");
    assert!(apart > 100 && touching > 100);
}

#[test]
fn erratum_lander_3_only_an_edge_pair_separates() {
    // Cubes turned 45° about z and about x, edge over edge, 0.05 apart: no face plane of
    // either separates them; the edge pair's axis does.
    let s2 = std::f32::consts::SQRT_2;
    let a = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap().with_pose(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        Vec3::ZERO,
    );
    let b = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap().with_pose(
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_4),
        Vec3::Y * (2.0 * s2 + 0.05),
    );
    let face_planes_separate = (0..6).any(|f| {
        let p = a.face_plane(f);
        b.world_vertices()
            .iter()
            .all(|v| p.signed_distance(*v) > 0.0)
    }) || (0..6).any(|f| {
        let p = b.face_plane(f);
        a.world_vertices()
            .iter()
            .all(|v| p.signed_distance(*v) > 0.0)
    });
    assert!(!face_planes_separate);
    let mut cache = SepCache::default();
    let r = sat_cached(&a, &b, &mut cache);
    assert!(matches!(r, SatResult::Separated { distance, .. } if (distance - 0.05).abs() < 1e-5));
    assert!(matches!(cache.feature, SepFeature::Edges(..)));
    assert!(lander_separated(&a, &b, 0.0));
}

#[test]
fn erratum_lander_4_cached_plane_is_tried_first() {
    // Frame 1 finds the edge-pair plane; frames 2..50 move B slowly away and each is a hit
    // with the same verdict as the full search.
    let s2 = std::f32::consts::SQRT_2;
    let a = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap().with_pose(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        Vec3::ZERO,
    );
    let mut cache = SepCache::default();
    for k in 0..50 {
        let b = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap().with_pose(
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_4 + 0.001 * k as f32),
            Vec3::new(0.002 * k as f32, 2.0 * s2 + 0.05 + 0.001 * k as f32, 0.0),
        );
        let cached = sat_cached(&a, &b, &mut cache);
        assert_eq!(
            cached.is_penetrating(),
            sat(&a, &b).is_penetrating(),
            "frame {k}"
        );
        assert!(!cached.is_penetrating());
    }
    assert_eq!((cache.hits, cache.misses), (49, 1));
}
