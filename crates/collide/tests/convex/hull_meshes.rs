//! Quickhull on the real meshes of `assets/meshes/`: whole meshes (concave ones included) and
//! each convex piece of the V-HACD decompositions.
//!
//! Oracles: `validate()`; every mesh vertex below every face plane (within 3 × tolerance);
//! and, in 500 random directions, the hull's support value equals the brute-force maximum over
//! all mesh vertices (so the hull is not too small either).

use crate::common::{mesh_path, REAL_MESHES};
use collide::convex::{ConvexHull, ConvexPolyhedron, SupportMap};
use collide::io;
use collide::Vec3;
use collide_testkit::Gen;

fn check(points: &[Vec3], what: &str) -> ConvexHull {
    let hull = ConvexHull::try_new(points).unwrap_or_else(|e| panic!("{what}: {e}"));
    hull.validate()
        .unwrap_or_else(|e| panic!("{what}: invalid hull: {e}"));
    let tol = 3.0 * hull.tolerance();
    for p in points {
        let d = hull.signed_distance_bound(*p);
        assert!(d <= tol, "{what}: vertex {p} is {d} outside (tol {tol})");
    }
    let mut g = Gen::new(11);
    for _ in 0..500 {
        let dir = g.unit();
        let brute = points
            .iter()
            .map(|p| p.dot(dir))
            .fold(f32::NEG_INFINITY, f32::max);
        let hull_max = hull.support(dir).dot(dir);
        assert!(
            (brute - hull_max).abs() <= tol,
            "{what}: support along {dir}: hull {hull_max}, points {brute}"
        );
    }
    hull
}

#[test]
fn whole_mesh_hulls() {
    // The hull of every mesh's vertices (concave meshes: the simpler alternative to pieces).
    for name in REAL_MESHES {
        let model = io::load(mesh_path(name)).unwrap();
        let merged = model.merged();
        let h = check(&merged.vertices, name);
        assert!(h.volume() > 0.0);
        eprintln!(
            "{name}: {} points -> {} vertices, {} faces, {} edges",
            merged.vertices.len(),
            h.vertices().len(),
            h.faces().len(),
            h.edges().len()
        );
    }
}

#[test]
fn cube_and_jenga_hulls_are_boxes() {
    // Box meshes give 8 vertices and 6 quadrilaterals.
    for name in ["cube.obj", "jenga.obj"] {
        let h = check(&io::load(mesh_path(name)).unwrap().merged().vertices, name);
        assert_eq!(
            (h.vertices().len(), h.faces().len(), h.edges().len()),
            (8, 6, 12),
            "{name}"
        );
    }
}

#[test]
fn every_vhacd_piece_is_a_valid_hull() {
    // Each `o` group of the decompositions is convex: its hull keeps (nearly) all its vertices.
    for name in ["duck_vhacd.obj", "teddy2_VHACD_CHs.obj", "lego_vhacd.obj"] {
        let model = io::load(mesh_path(name)).unwrap();
        assert!(model.parts.len() > 1, "{name}");
        for part in &model.parts {
            let h = check(&part.mesh.vertices, &format!("{name}:{}", part.name));
            let p = ConvexPolyhedron::new(std::sync::Arc::new(h));
            assert!(p.aabb().volume() > 0.0);
        }
    }
}
