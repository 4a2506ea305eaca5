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

/// The 8 corners (corner `i` takes `hi` on the axes of its set bits: x 1, y 2, z 4) and the 12
/// outward triangles of the box `[lo, hi]`, as vertex and index lists.
pub fn box_parts(lo: Vec3, hi: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            )
        })
        .collect();
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    (v, t)
}

/// The 12 outward triangles of the box `[lo, hi]` ([`box_parts`]).
pub fn box_mesh(lo: Vec3, hi: Vec3) -> TriMesh {
    let (v, t) = box_parts(lo, hi);
    TriMesh::new(v, t)
}
