//! Convex decomposition of arbitrary small meshes: never panics; a result is at most
//! `max_pieces` valid hulls that contain every vertex of a triangle of non-zero area (within
//! the hull tolerance and the welding); a non-finite vertex is a typed error.

use super::Bytes;
use collide::convex::{decompose, DecomposeConfig, DecomposeError};
use collide::mesh::MeshError;
use collide::shapes::TriMesh;
use collide::Vec3;

/// Builds a mesh and a config from the bytes and decomposes it.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let nv = usize::from(b.byte() % 16);
    let vertices: Vec<Vec3> = (0..nv).map(|_| b.vec3()).collect();
    let nt = usize::from(b.byte() % 24);
    let triangles: Vec<[u32; 3]> = (0..nt)
        .map(|_| [b.byte(), b.byte(), b.byte()].map(|i| u32::from(i) % (nv as u32 + 1)))
        .collect();
    let config = DecomposeConfig {
        max_concavity: b.f32(),
        max_pieces: usize::from(b.byte() % 8),
    };
    let mesh = TriMesh::new(vertices, triangles);
    match decompose(&mesh, &config) {
        Ok(pieces) => {
            assert!(!pieces.is_empty() && pieces.len() <= config.max_pieces);
            for h in &pieces {
                if let Err(e) = h.validate() {
                    panic!("invalid piece: {e}");
                }
            }
            check_coverage(&mesh, &pieces);
        }
        Err(DecomposeError::Mesh(MeshError::NonFinite { vertex })) => {
            assert!(!mesh.vertices[vertex].is_finite());
        }
        Err(_) => {}
    }
}

/// Every corner of a triangle with area lies in some piece, within a tolerance of the welding
/// (`1e-6` of the diagonal) and the hull tolerances.
fn check_coverage(mesh: &TriMesh, pieces: &[collide::convex::ConvexHull]) {
    let Some(b) = mesh.aabb() else {
        return;
    };
    let diag = b.size().length();
    for t in mesh.iter_triangles() {
        if t.area() <= 0.0 || !t.area().is_finite() {
            continue;
        }
        for p in [t.a, t.b, t.c] {
            let covered = pieces
                .iter()
                .any(|h| h.contains_point(p, 4.0 * h.tolerance() + 1e-5 * diag));
            assert!(covered, "vertex {p} outside every piece");
        }
    }
}
