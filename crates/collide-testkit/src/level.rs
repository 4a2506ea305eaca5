//! Level geometry shared by the mesh tests, the level benches and the examples' checks.

use crate::Gen;
use collide::shapes::TriMesh;
use collide::Vec3;

/// A flat floor at `y = 0` of `n x n` unit cells centred on the origin; cell `(r, c)` is split
/// along the diagonal from its corner `(r, c)` to `(r + 1, c + 1)` when `split(r, c)` is
/// `true`, along the other diagonal otherwise. Triangles face `+y`.
pub fn floor(n: usize, mut split: impl FnMut(usize, usize) -> bool) -> TriMesh {
    let h = n as f32 * 0.5;
    let mut mesh = TriMesh::default();
    for r in 0..=n {
        for c in 0..=n {
            mesh.vertices
                .push(Vec3::new(c as f32 - h, 0.0, r as f32 - h));
        }
    }
    let id = |r: usize, c: usize| (r * (n + 1) + c) as u32;
    for r in 0..n {
        for c in 0..n {
            let (a, b, cc, d) = (id(r, c), id(r + 1, c), id(r + 1, c + 1), id(r, c + 1));
            if split(r, c) {
                mesh.triangles.extend([[a, b, cc], [a, cc, d]]);
            } else {
                mesh.triangles.extend([[a, b, d], [b, cc, d]]);
            }
        }
    }
    mesh
}

/// [`floor`] with each cell's diagonal drawn at random.
pub fn random_diagonal_floor(n: usize, g: &mut Gen) -> TriMesh {
    floor(n, |_, _| g.range(0.0, 1.0) < 0.5)
}
