use std::collections::HashMap;

use std::fmt;

use crate::math::{Affine3A, Vec3, DEGENERATE_EPSILON};
use crate::shapes::{Aabb, Triangle};

/// The end of a weld cell's list of kept vertices.
const NO_VERTEX: u32 = u32::MAX;

/// The weld grid's hash of a cell: each coordinate is mixed in by a rotate and a multiply
/// (the Fx hash's scheme), enough to spread cell coordinates over the product's top bits,
/// far cheaper than SipHash.
#[inline]
fn cell_hash(cell: [i64; 3]) -> u64 {
    cell.iter().fold(0u64, |h, &x| {
        (h.rotate_left(5) ^ x as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}

/// An indexed triangle mesh: shared vertex positions and triangles of three vertex indices.
///
/// The geometry of a loaded model part ([`crate::io`]), the input of bounding-volume fitting
/// ([`crate::bounding`]) and of hull building. Nothing is checked on construction:
/// [`TriMesh::validate`] reports out-of-range indices and non-finite vertices, and the
/// clean-up steps ([`TriMesh::weld`], [`TriMesh::drop_degenerate`], [`TriMesh::compact`]) are
/// explicit, so a mesh is exactly what the file said until you ask otherwise. Winding is kept
/// as given (counter-clockwise seen from outside, for well-made files).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TriMesh {
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles, each three indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

/// Why a [`TriMesh`] is not valid.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshError {
    /// Triangle `triangle` refers to vertex `index`, but the mesh has `vertex_count` vertices.
    IndexOutOfRange {
        /// Index of the offending triangle.
        triangle: usize,
        /// The out-of-range vertex index.
        index: u32,
        /// Number of vertices in the mesh.
        vertex_count: usize,
    },
    /// Vertex `vertex` has a NaN or infinite coordinate.
    NonFinite {
        /// Index of the offending vertex.
        vertex: usize,
    },
    /// More vertices than a `u32` index can address.
    TooManyVertices {
        /// Number of vertices in the mesh.
        count: usize,
    },
    /// No triangle of non-zero area is left once degenerate and duplicate triangles are
    /// dropped: a collider of nothing.
    NoTriangles,
    /// A heightfield needs `rows, cols >= 2` and exactly `rows · cols` heights.
    HeightfieldSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Heights given.
        heights: usize,
    },
    /// A heightfield's scale has a component that is not finite and `> 0`.
    InvalidScale,
    /// Height sample `index` is infinite (a NaN sample is a hole, and allowed).
    InfiniteHeight {
        /// Index of the sample in `heights`.
        index: usize,
    },
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshError::IndexOutOfRange {
                triangle,
                index,
                vertex_count,
            } => write!(
                f,
                "triangle {triangle} uses vertex index {index} out of range ({vertex_count} vertices)"
            ),
            MeshError::NonFinite { vertex } => {
                write!(f, "vertex {vertex} has a NaN or infinite coordinate")
            }
            MeshError::TooManyVertices { count } => write!(
                f,
                "{count} vertices is more than 32-bit indices can address; split the mesh"
            ),
            MeshError::NoTriangles => {
                write!(f, "the mesh has no triangle of non-zero area")
            }
            MeshError::HeightfieldSize {
                rows,
                cols,
                heights,
            } => write!(
                f,
                "a heightfield of {rows} x {cols} samples needs rows, cols >= 2 and rows * cols \
                 heights, got {heights}"
            ),
            MeshError::InvalidScale => {
                write!(f, "heightfield scale must be finite and > 0 on every axis")
            }
            MeshError::InfiniteHeight { index } => write!(
                f,
                "height sample {index} is infinite (use NaN for a hole)"
            ),
        }
    }
}

impl std::error::Error for MeshError {}

impl TriMesh {
    /// The mesh with these vertices and triangles, unchecked (see [`TriMesh::validate`]).
    #[inline]
    #[must_use]
    pub fn new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> TriMesh {
        TriMesh {
            vertices,
            triangles,
        }
    }

    /// The mesh with these vertices and triangles, or the first reason it is not valid.
    pub fn try_new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<TriMesh, MeshError> {
        let mesh = TriMesh::new(vertices, triangles);
        mesh.validate()?;
        Ok(mesh)
    }

    /// Checks the invariants: every index in range, every vertex finite, at most `u32::MAX`
    /// vertices. Empty meshes and degenerate triangles are valid.
    pub fn validate(&self) -> Result<(), MeshError> {
        let n = self.vertices.len();
        if u32::try_from(n).is_err() {
            return Err(MeshError::TooManyVertices { count: n });
        }
        if let Some(vertex) = self.vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFinite { vertex });
        }
        for (triangle, tri) in self.triangles.iter().enumerate() {
            for &index in tri {
                if index as usize >= n {
                    return Err(MeshError::IndexOutOfRange {
                        triangle,
                        index,
                        vertex_count: n,
                    });
                }
            }
        }
        Ok(())
    }

    /// `true` when the mesh has no triangles.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Number of vertices.
    #[inline]
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// Number of triangles.
    #[inline]
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Triangle `i` as a [`Triangle`]; `None` when `i` or one of its indices is out of range.
    #[must_use]
    pub fn triangle(&self, i: usize) -> Option<Triangle> {
        let [a, b, c] = *self.triangles.get(i)?;
        Some(Triangle::new(
            *self.vertices.get(a as usize)?,
            *self.vertices.get(b as usize)?,
            *self.vertices.get(c as usize)?,
        ))
    }

    /// Every triangle whose indices are in range, as [`Triangle`]s, in order.
    pub fn iter_triangles(&self) -> impl Iterator<Item = Triangle> + '_ {
        (0..self.triangles.len()).filter_map(|i| self.triangle(i))
    }

    /// The AABB of all vertices (referenced or not); `None` when there are none or one is
    /// not finite.
    #[must_use]
    pub fn aabb(&self) -> Option<Aabb> {
        Aabb::from_points(&self.vertices)
    }

    /// Total surface area of the triangles with in-range indices.
    #[must_use]
    pub fn area(&self) -> f32 {
        self.iter_triangles().map(|t| t.area()).sum()
    }

    /// The mesh with every vertex moved by `m`. A transform with a negative determinant
    /// (a mirror) reverses every triangle's winding so outward faces stay outward.
    #[must_use]
    pub fn transformed(&self, m: &Affine3A) -> TriMesh {
        let flip = m.matrix3.determinant() < 0.0;
        TriMesh {
            vertices: self
                .vertices
                .iter()
                .map(|&v| m.transform_point3(v))
                .collect(),
            triangles: self
                .triangles
                .iter()
                .map(|&[a, b, c]| if flip { [a, c, b] } else { [a, b, c] })
                .collect(),
        }
    }

    /// Appends `other`'s vertices and triangles (its indices shifted past this mesh's vertices).
    ///
    /// Indices are shifted with saturating arithmetic (never wrapping); a result with more
    /// than `u32::MAX` vertices is reported by [`TriMesh::validate`].
    pub fn append(&mut self, other: &TriMesh) {
        let base = u32::try_from(self.vertices.len()).unwrap_or(u32::MAX);
        self.vertices.extend_from_slice(&other.vertices);
        self.triangles.extend(
            other
                .triangles
                .iter()
                .map(|t| t.map(|i| i.saturating_add(base))),
        );
    }

    /// Merges vertices closer than `tolerance` (Euclidean distance, `<=`) and re-indexes the
    /// triangles; returns how many vertices were removed.
    ///
    /// A tolerance of zero (or negative, or NaN) merges exactly equal positions only (`-0.0`
    /// equals `0.0`). Clustering is greedy in vertex order: each vertex joins the first kept
    /// vertex within `tolerance`, found through a hash grid of cells larger than `tolerance`
    /// (only the cells the tolerance box around a vertex reaches are looked in), so the cost is
    /// linear. Non-finite vertices are never merged. Triangles that become degenerate
    /// are kept: call [`TriMesh::drop_degenerate`] next. Unreferenced vertices are kept too
    /// (see [`TriMesh::compact`]).
    pub fn weld(&mut self, tolerance: f32) -> usize {
        let n = self.vertices.len();
        let mut remap: Vec<u32> = Vec::with_capacity(n);
        let mut kept: Vec<Vec3> = Vec::with_capacity(n);
        // `+ 0.0` turns -0.0 into 0.0 so both hash alike.
        let key = |v: Vec3| (v + Vec3::ZERO).to_array().map(f32::to_bits);
        if tolerance.is_nan() || tolerance <= 0.0 {
            let mut seen: HashMap<[u32; 3], u32> = HashMap::with_capacity(n);
            for &v in &self.vertices {
                let next = kept.len() as u32;
                let id = if v.is_finite() {
                    *seen.entry(key(v)).or_insert(next)
                } else {
                    next
                };
                if id == next {
                    kept.push(v);
                }
                remap.push(id);
            }
        } else {
            // The reach covers every point the distance test can accept: `tolerance` widened
            // past the rounding of `|d|²` and `tolerance²` (relative) and past the underflow
            // of a squared coordinate difference (absolute, `√f32::MIN_POSITIVE·2⁻²³` ≈ 4e-23).
            let reach = tolerance * (1.0 + 1.0 / 1024.0) + 1e-22;
            // Cells of 16 reaches: a point's reach box crosses a cell face on an axis with
            // chance 1/8, so it mostly looks in its own cell only.
            let inv = 1.0 / (16.0 * reach);
            // Cell of a point; [`floor_i64`] saturates (NaN gives 0), so huge coordinates share the
            // edge cells and are then separated by the exact distance test. Rounding and
            // `floor` are monotone, so the cells of `v ± reach` bound the cells of every point
            // within reach of `v`.
            let cell = |v: Vec3| (v * inv).to_array().map(floor_i64);
            // Each cell's kept vertices as a list: the cell's slot of `latest` (its hash, the
            // top bits of [`cell_hash`]) holds the latest, `earlier[j]` the one kept
            // before `j` in the same slot (`NO_VERTEX` ends it). Cells that share a slot share
            // its list, which only adds candidates the exact distance test refuses; with at
            // least twice as many slots as vertices they are few.
            let slot_bits = (2 * n).max(8).next_power_of_two().trailing_zeros();
            let slot = |c: [i64; 3]| (cell_hash(c) >> (64 - slot_bits)) as usize;
            let mut latest = vec![NO_VERTEX; 1 << slot_bits];
            let mut earlier: Vec<u32> = Vec::with_capacity(n);
            let tol2 = tolerance * tolerance;
            for &v in &self.vertices {
                let next = kept.len() as u32;
                let mut id = next;
                if v.is_finite() {
                    let (lo, hi) = (cell(v - Vec3::splat(reach)), cell(v + Vec3::splat(reach)));
                    // The first kept (smallest index) within tolerance is joined.
                    let mut visit = |j: u32| {
                        if j < id && (kept[j as usize] - v).length_squared() <= tol2 {
                            id = j;
                        }
                    };
                    let span = (0..3).map(|a| hi[a].abs_diff(lo[a])).max().unwrap_or(0);
                    if span > 2 {
                        // Only for degenerate scales (cells finer than the float spacing):
                        // every kept vertex.
                        (0..next).for_each(&mut visit);
                    } else {
                        for z in lo[2]..=hi[2] {
                            for y in lo[1]..=hi[1] {
                                for x in lo[0]..=hi[0] {
                                    let mut j = latest[slot([x, y, z])];
                                    while j != NO_VERTEX {
                                        visit(j);
                                        j = earlier[j as usize];
                                    }
                                }
                            }
                        }
                    }
                    if id == next {
                        let head = &mut latest[slot(cell(v))];
                        earlier.push(std::mem::replace(head, next));
                    }
                }
                if id == next {
                    kept.push(v);
                    if earlier.len() < kept.len() {
                        earlier.push(NO_VERTEX);
                    }
                }
                remap.push(id);
            }
        }
        let removed = n - kept.len();
        self.vertices = kept;
        for t in &mut self.triangles {
            // Out-of-range indices stay out of range (`u32::MAX`) for `validate` to report.
            *t = t.map(|i| remap.get(i as usize).copied().unwrap_or(u32::MAX));
        }
        removed
    }

    /// Removes triangles that repeat a vertex index, have an out-of-range index, or whose
    /// area is zero to `f32` precision (`|e1 × e2| <= DEGENERATE_EPSILON |e1| |e2|`, and every
    /// triangle with a non-finite corner); returns how many were removed.
    pub fn drop_degenerate(&mut self) -> usize {
        let before = self.triangles.len();
        let vertices = &self.vertices;
        self.triangles.retain(|&[a, b, c]| {
            if a == b || b == c || a == c {
                return false;
            }
            let (Some(&pa), Some(&pb), Some(&pc)) = (
                vertices.get(a as usize),
                vertices.get(b as usize),
                vertices.get(c as usize),
            ) else {
                return false;
            };
            has_area(pa, pb, pc, (pb - pa).cross(pc - pa))
        });
        before - self.triangles.len()
    }

    /// Removes vertices no triangle refers to (keeping the order of the others); returns how
    /// many were removed. Out-of-range indices become `u32::MAX` (still out of range).
    pub fn compact(&mut self) -> usize {
        let n = self.vertices.len();
        let mut used = vec![false; n];
        for t in &self.triangles {
            for &i in t {
                if let Some(u) = used.get_mut(i as usize) {
                    *u = true;
                }
            }
        }
        let mut remap = vec![u32::MAX; n];
        let mut kept = Vec::with_capacity(n);
        for (i, &v) in self.vertices.iter().enumerate() {
            if used[i] {
                remap[i] = kept.len() as u32;
                kept.push(v);
            }
        }
        let removed = n - kept.len();
        self.vertices = kept;
        for t in &mut self.triangles {
            *t = t.map(|i| remap.get(i as usize).copied().unwrap_or(u32::MAX));
        }
        removed
    }
}

/// `true` when the triangle `a`, `b`, `c` (edge cross product `cross = (b − a) × (c − a)`)
/// has area to `f32` precision: `|e1 × e2| > DEGENERATE_EPSILON |e1| |e2|` and finite (the
/// sine of the angle between the edges above the epsilon); [`TriMesh::drop_degenerate`]'s test.
#[inline]
pub(crate) fn has_area(a: Vec3, b: Vec3, c: Vec3, cross: Vec3) -> bool {
    let (e1, e2) = (b - a, c - a);
    let cross = cross.length();
    cross.is_finite() && cross > DEGENERATE_EPSILON * e1.length() * e2.length()
}

/// `x.floor() as i64` (saturating, NaN gives 0) without the library call: truncation, one
/// less for a negative non-integer. Exact: `x` differs from its truncation `t` only when
/// `|x| < 2²³`, where `t as f32` is exact; a saturated `t` is at most `x` above and at least
/// `x` below.
#[inline]
fn floor_i64(x: f32) -> i64 {
    let t = x as i64;
    t.saturating_sub(i64::from(x < t as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad() -> TriMesh {
        // Unit square in z = 0 as two triangles sharing the diagonal 0-2.
        TriMesh::new(
            vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
            vec![[0, 1, 2], [0, 2, 3]],
        )
    }

    #[test]
    fn validate_reports_each_problem() {
        // A clean quad is valid; a bad index, a NaN vertex are reported with their position.
        assert_eq!(quad().validate(), Ok(()));
        let mut m = quad();
        m.triangles.push([0, 1, 4]);
        assert_eq!(
            m.validate(),
            Err(MeshError::IndexOutOfRange {
                triangle: 2,
                index: 4,
                vertex_count: 4
            })
        );
        assert!(m.triangle(2).is_none());
        assert_eq!(m.iter_triangles().count(), 2);
        let mut m = quad();
        m.vertices[3].y = f32::NAN;
        assert_eq!(m.validate(), Err(MeshError::NonFinite { vertex: 3 }));
        assert!(TriMesh::default().validate().is_ok());
    }

    #[test]
    fn weld_exact_and_tolerant() {
        // Two triangles that each own their corners: exact welding shares the diagonal.
        let mut m = TriMesh::new(
            vec![
                Vec3::ZERO,
                Vec3::X,
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(-0.0, 0.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::Y,
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        );
        assert_eq!(m.weld(0.0), 2);
        assert_eq!(m.vertices.len(), 4);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
        // Tolerant: a vertex 1e-4 away merges at 1e-3, not at 1e-5.
        let near = TriMesh::new(vec![Vec3::ZERO, Vec3::new(1e-4, 0.0, 0.0), Vec3::X], vec![]);
        let mut a = near.clone();
        assert_eq!(a.weld(1e-5), 0);
        let mut b = near.clone();
        assert_eq!(b.weld(1e-3), 1);
        assert_eq!(b.vertices, vec![Vec3::ZERO, Vec3::X]);
    }

    /// Tolerant welding against its definition by brute force: each vertex in order joins the
    /// first kept vertex within the tolerance, else is kept. Clouds with near copies inside
    /// and just past the tolerance, on a coarse grid (many vertices per weld cell) and
    /// spread out.
    #[test]
    fn tolerant_weld_matches_brute_force() {
        let mut g = collide_testkit::Gen::new(35);
        for case in 0..400 {
            let n = 1 + case % 60;
            let tolerance = 1e-3;
            let mut v: Vec<Vec3> = (0..n)
                .map(|_| {
                    let p = g.vec(1.0);
                    if case % 2 == 0 {
                        (p * 64.0).round() / 64.0
                    } else {
                        p
                    }
                })
                .collect();
            let copies: Vec<Vec3> = (0..n)
                .map(|i| v[(i * 7) % n] + g.vec(tolerance * (case % 3) as f32))
                .collect();
            v.extend(copies);
            let triangles: Vec<[u32; 3]> = (0..v.len() as u32 / 3)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect();
            let (mut kept, mut remap) = (Vec::<Vec3>::new(), Vec::new());
            for &p in &v {
                let joined = kept
                    .iter()
                    .position(|&k| (k - p).length_squared() <= tolerance * tolerance);
                remap.push(joined.unwrap_or_else(|| {
                    kept.push(p);
                    kept.len() - 1
                }) as u32);
            }
            let mut m = TriMesh::new(v.clone(), triangles.clone());
            assert_eq!(m.weld(tolerance), v.len() - kept.len(), "case {case}");
            assert_eq!(m.vertices, kept, "case {case}");
            let expected: Vec<[u32; 3]> = triangles
                .iter()
                .map(|t| t.map(|i| remap[i as usize]))
                .collect();
            assert_eq!(m.triangles, expected, "case {case}");
        }
    }

    #[test]
    fn floor_i64_is_the_saturating_floor() {
        for x in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.5,
            8_388_607.5,
            -8_388_607.5,
            1e10,
            -1e10,
            9.3e18,
            -9.3e18,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -1e-30,
        ] {
            assert_eq!(floor_i64(x), x.floor() as i64, "{x}");
        }
    }

    #[test]
    fn weld_across_cell_boundary() {
        // Points on either side of a grid line (cell size = tolerance) still merge.
        let mut m = TriMesh::new(
            vec![Vec3::splat(0.999_9), Vec3::splat(1.000_1)],
            vec![[0, 1, 1]],
        );
        assert_eq!(m.weld(0.01), 1);
        assert_eq!(m.triangles, vec![[0, 0, 0]]);
        assert_eq!(m.drop_degenerate(), 1);
    }

    #[test]
    fn drop_degenerate_and_compact() {
        // Repeated index, collinear corners, out-of-range index: all dropped; good one kept.
        let mut m = quad();
        m.vertices.push(Vec3::new(2.0, 0.0, 0.0));
        m.vertices.push(Vec3::new(9.0, 9.0, 9.0)); // unreferenced
        m.triangles = vec![[0, 1, 2], [0, 0, 1], [0, 1, 4], [0, 1, 99]];
        assert_eq!(m.drop_degenerate(), 3);
        assert_eq!(m.triangles, vec![[0, 1, 2]]);
        assert_eq!(m.compact(), 3);
        assert_eq!(m.vertices.len(), 3);
        assert!(m.validate().is_ok());
    }

    #[test]
    fn append_and_mirror() {
        // Appending shifts indices; a mirror transform flips winding so normals stay outward.
        let mut m = quad();
        m.append(&quad());
        assert_eq!(m.triangles[2], [4, 5, 6]);
        assert!(m.validate().is_ok());
        let n0 = m.triangle(0).unwrap().scaled_normal();
        let mirrored = m.transformed(&Affine3A::from_scale(Vec3::new(1.0, 1.0, -1.0)));
        let n1 = mirrored.triangle(0).unwrap().scaled_normal();
        assert!(n0.z > 0.0 && n1.z < 0.0, "{n0} {n1}");
        assert!((m.area() - 2.0).abs() < 1e-6);
    }
}
