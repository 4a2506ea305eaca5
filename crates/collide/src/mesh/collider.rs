//! [`MeshCollider`]: a triangle mesh prepared for queries.

use super::{classify_edge, ray_triangle, EdgeBend, MeshError, MeshPoint, MeshRayHit};
use super::{ray_triangle_exact, ray_triangle_finish, RayFilter, RayLeafFilter};
use super::{MeshContact, MeshShapeHit, TriangleSet};
use crate::broadphase::static_tree::{StaticTree, TreeDefect};
use crate::convex::SupportMap;
use crate::math::{Affine3A, Quat, Vec3};
use crate::shapes::{Aabb, Ray, TriMesh, Triangle};

/// No neighbour across an edge.
const NONE: u32 = u32::MAX;

/// A triangle mesh as a collider: welded, degenerate triangles dropped, each edge's
/// neighbour and bend known, and a static SAH tree over the triangles.
///
/// Triangles are stored in the tree's leaf order: the `triangle` index of every answer refers
/// to [`MeshCollider::triangles`], not to the input mesh's order. Immutable once built; share
/// it between bodies with an `Arc`.
#[derive(Clone, Debug)]
pub struct MeshCollider {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    corners: Vec<[Vec3; 3]>,
    normals: Vec<Vec3>,
    /// Per edge `k` (corner `k` to `k + 1`): the neighbour's corner off the edge, or [`NONE`].
    apex: Vec<[u32; 3]>,
    bends: Vec<[EdgeBend; 3]>,
    tree: StaticTree,
}

impl MeshCollider {
    /// Prepares `mesh`: vertices closer than `1e-6` of the bounding-box diagonal are welded,
    /// triangles with a repeated corner or zero area (to `f32` precision) are dropped, unused
    /// vertices removed.
    ///
    /// Errors: [`MeshError::NonFinite`] for a NaN or infinite vertex, an out-of-range index
    /// ([`MeshError::IndexOutOfRange`]), more vertices than `u32` indexes, and
    /// [`MeshError::NoTriangles`] when no triangle of non-zero area remains (an empty mesh).
    /// Duplicate triangles (the same three corners) are kept once.
    pub fn try_new(mut mesh: TriMesh) -> Result<MeshCollider, MeshError> {
        mesh.validate()?;
        let diagonal = mesh.aabb().map_or(0.0, |b| b.size().length());
        mesh.weld(diagonal * 1e-6);
        // One pass drops what `TriMesh::drop_degenerate` drops, and the triangles whose normal
        // cannot be made unit (no plane to collide with); the others' normals are kept. A
        // normal is found in `f64` (the corners' differences are exact there): the `f32` cross
        // product of a sliver's edges cancels and can turn it by far more than `f32` rounding,
        // and `closest_point` and the contacts take it as the plane's true normal. Indices are
        // in range (validated).
        let vertices = &mesh.vertices;
        let mut normals = Vec::with_capacity(mesh.triangles.len());
        mesh.triangles.retain(|&[a, b, c]| {
            if a == b || b == c || a == c {
                return false;
            }
            let [pa, pb, pc] = [a, b, c].map(|i| vertices[i as usize]);
            let cross = (pb - pa).cross(pc - pa);
            if !crate::shapes::has_area(pa, pb, pc, cross) {
                return false;
            }
            let (a64, b64, c64) = (pa.as_dvec3(), pb.as_dvec3(), pc.as_dvec3());
            let n = (b64 - a64).cross(c64 - a64).normalize_or_zero().as_vec3();
            if n != Vec3::ZERO {
                normals.push(n);
            }
            n != Vec3::ZERO
        });
        let keep = first_of_each(&mesh.triangles, mesh.vertices.len());
        retain_marked(&mut mesh.triangles, &keep);
        retain_marked(&mut normals, &keep);
        mesh.compact();
        if mesh.triangles.is_empty() {
            return Err(MeshError::NoTriangles);
        }
        let TriMesh {
            vertices,
            triangles,
        } = mesh;
        let boxes: Vec<Aabb> = triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| vertices[i as usize]);
                Aabb::new(a.min(b).min(c), a.max(b).max(c))
            })
            .collect();
        let mut order: Vec<u32> = (0..triangles.len() as u32).collect();
        let tree = StaticTree::build(&boxes, &mut order);
        let triangles: Vec<[u32; 3]> = order.iter().map(|&i| triangles[i as usize]).collect();
        let corners: Vec<[Vec3; 3]> = triangles
            .iter()
            .map(|t| t.map(|i| vertices[i as usize]))
            .collect();
        let normals: Vec<Vec3> = order.iter().map(|&i| normals[i as usize]).collect();
        let apex = neighbour_apexes(&triangles, vertices.len());
        let bends = corners
            .iter()
            .zip(&normals)
            .zip(&apex)
            .map(|((c, &normal), a)| {
                let bend = |k: usize| match a[k] {
                    NONE => EdgeBend::Boundary,
                    v => classify_edge(normal, c[k], c[(k + 1) % 3], vertices[v as usize]),
                };
                [bend(0), bend(1), bend(2)]
            })
            .collect();
        Ok(MeshCollider {
            vertices,
            apex,
            triangles,
            corners,
            normals,
            bends,
            tree,
        })
    }

    /// The welded vertices.
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles (indices into [`MeshCollider::vertices`]), in tree order.
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Triangle `i`, or `None` out of range.
    #[must_use]
    pub fn triangle(&self, i: u32) -> Option<Triangle> {
        let [a, b, c] = *self.corners.get(i as usize)?;
        Some(Triangle::new(a, b, c))
    }

    /// How triangle `i`'s neighbour across edge `k` (corner `k` to corner `k + 1`) bends;
    /// `None` for an index out of range.
    #[must_use]
    pub fn edge_bend(&self, i: u32, k: usize) -> Option<EdgeBend> {
        self.bends.get(i as usize)?.get(k).copied()
    }

    /// The box of every vertex.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.tree.bounds()
    }

    /// The first triangle a ray hits within `[0, max_t]` (units of `|ray.dir|`), or `None`.
    ///
    /// Two-sided; a ray starting on a triangle hits it at `t = 0`; a ray lying in a
    /// triangle's plane does not hit it; ties between triangles go to the smaller index. NaN
    /// or infinite rays and a negative or NaN `max_t` hit nothing.
    #[must_use]
    pub fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<MeshRayHit> {
        if !(ray.is_finite() && max_t >= 0.0) {
            return None;
        }
        // The nearest hit so far: its `t` and triangle, with the whole hit when the f64 test
        // made it; a hit inside a triangle gets its point and
        // normal only once it is known to be the nearest.
        let mut best: Option<(f32, u32, Option<MeshRayHit>)> = None;
        self.walk_ray(ray, max_t, |items, mut bound| {
            let Some(leaf) = self.corners.get(items.start as usize..items.end as usize) else {
                return bound;
            };
            // The leaf's triangles filtered at once; those the filter may not miss are
            // finished one by one in order, each with the bound its predecessors left.
            let filter = RayLeafFilter::new(ray, leaf, bound);
            let mut lanes = filter.candidates;
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                let (i, c) = (items.start + lane as u32, &leaf[lane]);
                let hit = match filter.at(lane, bound) {
                    RayFilter::Miss => None,
                    RayFilter::Inside(t) => Some((t, None)),
                    RayFilter::Exact => {
                        ray_triangle_exact(ray, c, i, bound).map(|h| (h.t, Some(h)))
                    }
                };
                if let Some((t, made)) = hit {
                    if best.is_none_or(|(bt, bi, _)| t < bt || (t == bt && i < bi)) {
                        best = Some((t, i, made));
                    }
                }
                bound = best.map_or(bound, |(t, ..)| t);
            }
            bound
        });
        match best? {
            (_, _, Some(hit)) => Some(hit),
            (t, i, None) => ray_triangle_finish(ray, &self.corners[i as usize], i, t)
                // No unit normal, or the point or normal overflowed (a ray of huge
                // direction): that hit may not count as found, and the walk finishing every
                // hit as it goes decides.
                .or_else(|| self.ray_cast_finishing_each(ray, max_t)),
        }
    }

    /// The tree's ray walk ([`StaticTree::ray`]): `hit(items, bound)` for each leaf the ray
    /// enters within the bound, nearer first; in a large tree the corners of the leaves it
    /// will visit start loading as they wait.
    #[inline(always)]
    fn walk_ray(&self, ray: &Ray, max_t: f32, hit: impl FnMut(std::ops::Range<u32>, f32) -> f32) {
        let corners_ahead = |items: std::ops::Range<u32>| {
            if let Some(c) = self.corners.get(items.start as usize..items.end as usize) {
                crate::broadphase::prefetch_slice(c);
            }
        };
        self.tree
            .ray(ray.origin, ray.dir, max_t, corners_ahead, hit);
    }

    /// [`MeshCollider::ray_cast`] finishing every hit as it is found.
    fn ray_cast_finishing_each(&self, ray: &Ray, max_t: f32) -> Option<MeshRayHit> {
        let mut best: Option<MeshRayHit> = None;
        self.walk_ray(ray, max_t, |items, mut bound| {
            for i in items {
                if let Some(h) = ray_triangle(ray, &self.corners[i as usize], i, bound) {
                    if best.is_none_or(|b| h.t < b.t || (h.t == b.t && i < b.triangle)) {
                        best = Some(h);
                    }
                }
                bound = best.map_or(bound, |b| b.t);
            }
            bound
        });
        best
    }

    /// Every triangle a ray hits within `[0, max_t]`, appended to `out` sorted by `t` (then
    /// by triangle). Same rules as [`MeshCollider::ray_cast`]; a ray along a shared edge
    /// reports each triangle it hits.
    pub fn ray_cast_all(&self, ray: &Ray, max_t: f32, out: &mut Vec<MeshRayHit>) {
        if !(ray.is_finite() && max_t >= 0.0) {
            return;
        }
        let start = out.len();
        self.walk_ray(ray, max_t, |items, bound| {
            for i in items {
                if let Some(h) = ray_triangle(ray, &self.corners[i as usize], i, max_t) {
                    out.push(h);
                }
            }
            bound
        });
        out[start..].sort_by(|a, b| a.t.total_cmp(&b.t).then(a.triangle.cmp(&b.triangle)));
    }

    /// The point of the mesh closest to `p` within `max_distance`, or `None` (also for a NaN
    /// point). A point on the surface gives distance 0; ties go to the triangle visited first.
    #[must_use]
    pub fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<MeshPoint> {
        if !(p.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let mut best: Option<(MeshPoint, f32)> = None;
        self.tree
            .nearest(p, max_distance * max_distance, |i, bound| {
                let [a, b, c] = self.corners[i as usize];
                // The distances to the triangle's box and to its plane are lower bounds of
                // the distance to the triangle: a triangle beyond the bound by either (by more
                // than their rounding) cannot be nearer, and its exact closest point is not
                // worth computing.
                let gap = (a.min(b).min(c) - p)
                    .max(p - a.max(b).max(c))
                    .max(Vec3::ZERO);
                let rounding = 4.0 * f32::EPSILON * (p - a).abs().element_sum();
                let height = (self.normals[i as usize].dot(p - a).abs() - rounding).max(0.0);
                let lower = gap.length_squared().max(height * height);
                if lower > bound * (1.0 + 1e-5) {
                    return best.map_or(bound, |(_, d2)| d2);
                }
                let q = crate::closest::point_triangle(p, &Triangle::new(a, b, c));
                let d2 = (q - p).length_squared();
                if d2 <= bound && best.is_none_or(|(_, bd)| d2 < bd) {
                    let hit = MeshPoint {
                        point: q,
                        distance: d2.sqrt(),
                        triangle: i,
                    };
                    best = Some((hit, d2));
                }
                best.map_or(bound, |(_, d2)| d2)
            });
        // `max_distance²` may overflow to infinity: the bound is checked on the distance too.
        best.map(|(m, _)| m).filter(|m| m.distance <= max_distance)
    }

    /// Appends to `out` the triangles that touch `aabb` (exact triangle–box test, touching
    /// counts), in tree order. A NaN box touches nothing.
    pub fn triangles_touching(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        super::triangles_touching(self, aabb, out);
    }

    /// The contacts of a convex shape (in the mesh's frame) with the mesh, one per triangle
    /// it touches or penetrates, corrected for internal edges; appended to `out`.
    ///
    /// `margin` reports triangles within that distance too (negative `depth`). See
    /// [`MeshContact`] and the module's note on internal edges. A shape with NaN coordinates
    /// touches nothing.
    pub fn contacts<S: SupportMap + ?Sized>(
        &self,
        shape: &S,
        margin: f32,
        out: &mut Vec<MeshContact>,
    ) {
        super::contact::contacts(self, shape, margin, out);
    }

    /// The first contact of a convex shape (in this frame) moving by `motion` with any
    /// triangle: time of impact in `[0, 1]`, never late (exact for boxes and spheres, the
    /// convex sweep per triangle otherwise). Per triangle, the sweeps' starting-touch rule ([`crate::sweep`]): a triangle
    /// the shape touches or overlaps at the start is hit at `toi = 0` only when the shape
    /// moves deeper into it (against that triangle's contact normal); moving away or along it
    /// (sliding on a floor) that triangle is not hit, and the cast goes on to the others (a
    /// wall ahead). NaN gives `None`.
    #[must_use]
    pub fn cast_shape<S: SupportMap + ?Sized>(
        &self,
        shape: &S,
        motion: Vec3,
    ) -> Option<MeshShapeHit> {
        super::cast::cast(self, shape, motion)
    }

    /// `true` when this mesh and `other`, placed by `rotation` and `translation` in this
    /// mesh's frame, share a point (touching counts): both triangle trees walked together, then
    /// each pair of triangles whose boxes touch tested by GJK. Surfaces only: a mesh inside a
    /// closed mesh without crossing it does not intersect it. A NaN pose or a rotation too small
    /// to normalise gives `false`.
    #[must_use]
    pub fn intersects_mesh(&self, other: &MeshCollider, rotation: Quat, translation: Vec3) -> bool {
        self.first_triangle_pair(other, rotation, translation)
            .is_some()
    }

    /// The first pair `(this triangle, other's triangle)` found touching, as
    /// [`MeshCollider::intersects_mesh`] decides; `None` when the meshes are apart.
    #[must_use]
    pub fn first_triangle_pair(
        &self,
        other: &MeshCollider,
        rotation: Quat,
        translation: Vec3,
    ) -> Option<(u32, u32)> {
        if !(rotation.is_finite() && translation.is_finite()) {
            return None;
        }
        let rotation = rotation.normalize();
        if !rotation.is_normalized() {
            return None;
        }
        let to_self = Affine3A::from_rotation_translation(rotation, translation);
        let mut found = None;
        self.tree.pairs_with(&other.tree, &to_self, |i, j| {
            let a = self.corners[i as usize];
            let b = other.corners[j as usize].map(|p| to_self.transform_point3(p));
            let (ta, tb) = (
                Triangle::new(a[0], a[1], a[2]),
                Triangle::new(b[0], b[1], b[2]),
            );
            if crate::convex::gjk::intersects(&ta, &tb) {
                found = Some((i, j));
                return false;
            }
            true
        });
        found
    }

    /// Checks the collider's invariants: the tree over the triangles' boxes
    /// ([`TreeDefect`]), every index in range, every normal unit.
    pub fn validate(&self) -> Result<(), TreeDefect> {
        let n = self.vertices.len();
        for (i, t) in self.triangles.iter().enumerate() {
            if t.iter().any(|&v| v as usize >= n) {
                return Err(TreeDefect {
                    node: i,
                    what: "triangle index out of range",
                });
            }
            if (self.normals[i].length() - 1.0).abs() > 1e-4 {
                return Err(TreeDefect {
                    node: i,
                    what: "triangle normal not unit",
                });
            }
        }
        let boxes: Vec<Aabb> = self
            .corners
            .iter()
            .map(|[a, b, c]| Aabb::new(a.min(*b).min(*c), a.max(*b).max(*c)))
            .collect();
        self.tree.validate(&boxes)
    }
}

impl TriangleSet for MeshCollider {
    #[inline]
    fn corners(&self, i: u32) -> Option<[Vec3; 3]> {
        self.corners.get(i as usize).copied()
    }

    #[inline]
    fn face_normal(&self, i: u32) -> Vec3 {
        self.normals[i as usize]
    }

    fn edge(&self, i: u32, k: usize) -> (EdgeBend, Option<Vec3>) {
        let apex = self.apex[i as usize][k];
        let point = (apex != NONE).then(|| self.vertices[apex as usize]);
        (self.bends[i as usize][k], point)
    }

    fn for_each_near(&self, query: &Aabb, visit: &mut dyn FnMut(u32) -> bool) {
        self.tree.query_aabb(query, visit);
    }

    fn for_each_along(&self, start: &Aabb, motion: Vec3, visit: &mut dyn FnMut(u32, f32) -> f32) {
        self.tree
            .cast_box_walk(start, motion, 1.0)
            .advance(&self.tree, f32::INFINITY, 1.0, visit);
    }
}

/// Which triangles to keep so that no two have the same corners (in any order and winding):
/// the first (smallest index) of each. Corners index `vertex_count` vertices. The triangles
/// are sorted by their corners in ascending order ([`order_by_vertices`]): a run of equal
/// corners keeps its first.
fn first_of_each(triangles: &[[u32; 3]], vertex_count: usize) -> Vec<bool> {
    let corners: Vec<[u32; 3]> = triangles
        .iter()
        .map(|&[a, b, c]| {
            // Ascending without branches: the middle one is what the extremes leave of the
            // three (`x ^ x = 0`).
            let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
            [lo, a ^ b ^ c ^ lo ^ hi, hi]
        })
        .collect();
    let order = order_by_vertices(&corners, vertex_count);
    let mut keep = vec![true; triangles.len()];
    for pair in order.windows(2) {
        if corners[pair[0] as usize] == corners[pair[1] as usize] {
            keep[pair[1] as usize] = false;
        }
    }
    keep
}

/// Keeps the items of `items` whose flag in `keep` is set.
fn retain_marked<T>(items: &mut Vec<T>, keep: &[bool]) {
    let mut flags = keep.iter();
    items.retain(|_| flags.next().copied().unwrap_or(false));
}

/// For each triangle edge `k` (corner `k` to `k + 1`), the off-edge corner of the one other
/// triangle sharing that edge; [`NONE`] for a border edge or one shared by three or more
/// triangles (non-manifold). The edge sides, `3 · triangle + k`, are sorted by their ends
/// (smaller first, [`order_by_vertices`]): the sides of one edge are then a run.
fn neighbour_apexes(triangles: &[[u32; 3]], vertex_count: usize) -> Vec<[u32; 3]> {
    let ends: Vec<[u32; 2]> = triangles
        .iter()
        .flat_map(|t| {
            (0..3).map(move |k| {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                [a.min(b), a.max(b)]
            })
        })
        .collect();
    let order = order_by_vertices(&ends, vertex_count);
    let mut apex = vec![[NONE; 3]; triangles.len()];
    for edge in order.chunk_by(|&x, &y| ends[x as usize] == ends[y as usize]) {
        // The order within an edge does not matter: a pair of sides points each at the other.
        if let [s0, s1] = *edge {
            let (t0, k0, t1, k1) = (s0 / 3, s0 % 3, s1 / 3, s1 % 3);
            let off = |t: u32, k: u32| triangles[t as usize][(k as usize + 2) % 3];
            apex[t0 as usize][k0 as usize] = off(t1, k1);
            apex[t1 as usize][k1 as usize] = off(t0, k0);
        }
    }
    apex
}

/// The indices of `keys` ordered by their keys, compared entry by entry (every entry below
/// `vertex_count`), equal keys in index order: a least-significant-digit radix sort whose
/// digits are the `K` entries, each a stable counting pass of `vertex_count` buckets.
/// Linear, and without the data-dependent branches of comparison sorts (which mispredict
/// on every mesh built once).
fn order_by_vertices<const K: usize>(keys: &[[u32; K]], vertex_count: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    let mut sorted = vec![0u32; keys.len()];
    let mut next = vec![0usize; vertex_count + 1];
    for digit in (0..K).rev() {
        // `next[v]`: where the next item of entry `v` goes (counts, then their prefix sums).
        next.fill(0);
        for key in keys {
            next[key[digit] as usize + 1] += 1;
        }
        for v in 0..vertex_count {
            next[v + 1] += next[v];
        }
        for &i in &order {
            let slot = &mut next[keys[i as usize][digit] as usize];
            sorted[*slot] = i;
            *slot += 1;
        }
        std::mem::swap(&mut order, &mut sorted);
    }
    order
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Random triangles with three distinct corners among `vertex_count` vertices (few, so
    /// that corners, edges and whole triangles repeat).
    fn soup(g: &mut collide_testkit::Gen, count: usize, vertex_count: u32) -> Vec<[u32; 3]> {
        let mut index = || (g.range(0.0, vertex_count as f32) as u32).min(vertex_count - 1);
        (0..count)
            .filter_map(|_| {
                let t = [index(), index(), index()];
                (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]).then_some(t)
            })
            .collect()
    }

    #[test]
    fn the_radix_order_is_the_comparison_order() {
        let mut g = collide_testkit::Gen::new(3);
        for case in 0..200u32 {
            let vertex_count = 3 + case % 20;
            let triangles = soup(&mut g, (case % 50) as usize, vertex_count);
            let mut expected: Vec<u32> = (0..triangles.len() as u32).collect();
            expected.sort_by_key(|&i| (triangles[i as usize], i));
            let order = order_by_vertices(&triangles, vertex_count as usize);
            assert_eq!(order, expected, "case {case}");
        }
    }

    /// The duplicate and neighbour passes against their definitions by brute force: a
    /// triangle is kept when no earlier one has its corners; an edge side's apex is the other
    /// side's off-edge corner when exactly two sides share the edge.
    #[test]
    fn duplicates_and_neighbours_match_brute_force() {
        let mut g = collide_testkit::Gen::new(4);
        let sorted = |t: [u32; 3]| {
            let mut t = t;
            t.sort_unstable();
            t
        };
        let ends = |t: [u32; 3], k: usize| {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            (a.min(b), a.max(b))
        };
        for case in 0..200u32 {
            let vertex_count = 4 + case % 12;
            let triangles = soup(&mut g, 1 + (case % 40) as usize, vertex_count);
            let keep = first_of_each(&triangles, vertex_count as usize);
            for (i, &t) in triangles.iter().enumerate() {
                let first = !triangles[..i].iter().any(|&u| sorted(u) == sorted(t));
                assert_eq!(keep[i], first, "case {case}, triangle {i}");
            }
            let apex = neighbour_apexes(&triangles, vertex_count as usize);
            for (i, &t) in triangles.iter().enumerate() {
                for (k, &found) in apex[i].iter().enumerate() {
                    let sides: Vec<(usize, usize)> = (0..triangles.len())
                        .flat_map(|j| (0..3).map(move |l| (j, l)))
                        .filter(|&(j, l)| ends(triangles[j], l) == ends(t, k))
                        .collect();
                    let expected = match sides[..] {
                        [(j0, l0), (j1, l1)] => {
                            let (j, l) = if (j0, l0) == (i, k) {
                                (j1, l1)
                            } else {
                                (j0, l0)
                            };
                            triangles[j][(l + 2) % 3]
                        }
                        _ => NONE,
                    };
                    assert_eq!(found, expected, "case {case}, triangle {i}, edge {k}");
                }
            }
        }
    }

    /// A flat square of `n x n` unit cells in y = 0 from the origin; cell `(r, c)` is split
    /// along the diagonal from `(r, c + 1)` to `(r + 1, c)` when `flip(r, c)`, else along the
    /// one from `(r, c)` to `(r + 1, c + 1)`. Triangles face `+y`.
    pub(crate) fn floor(n: usize, flip: impl Fn(usize, usize) -> bool) -> TriMesh {
        let mut v = Vec::new();
        for r in 0..=n {
            for c in 0..=n {
                v.push(Vec3::new(c as f32, 0.0, r as f32));
            }
        }
        let id = |r: usize, c: usize| (r * (n + 1) + c) as u32;
        let mut t = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let (a, b, cc, d) = (id(r, c), id(r + 1, c), id(r + 1, c + 1), id(r, c + 1));
                if flip(r, c) {
                    t.extend([[a, b, d], [b, cc, d]]);
                } else {
                    t.extend([[a, b, cc], [a, cc, d]]);
                }
            }
        }
        TriMesh::new(v, t)
    }

    /// The cube `[-1, 1]³`, two outward-wound triangles per face.
    pub(crate) fn cube() -> TriMesh {
        let v = (0..8)
            .map(|i| {
                Vec3::new(
                    [-1.0, 1.0][i & 1],
                    [-1.0, 1.0][(i >> 1) & 1],
                    [-1.0, 1.0][i >> 2],
                )
            })
            .collect();
        // Each face as four corners counter-clockwise seen from outside.
        let faces = [
            [0, 4, 6, 2], // -x
            [1, 3, 7, 5], // +x
            [0, 1, 5, 4], // -y
            [2, 6, 7, 3], // +y
            [0, 2, 3, 1], // -z
            [4, 5, 7, 6], // +z
        ];
        let t = faces
            .iter()
            .flat_map(|f| [[f[0], f[1], f[2]], [f[0], f[2], f[3]]])
            .collect();
        TriMesh::new(v, t)
    }

    #[test]
    fn a_flat_floor_has_flat_inner_edges_and_a_boundary() {
        let m = MeshCollider::try_new(floor(4, |_, _| false)).unwrap();
        m.validate().unwrap();
        let mut counts = [0usize; 4];
        for i in 0..m.triangles().len() as u32 {
            for k in 0..3 {
                counts[m.edge_bend(i, k).unwrap() as usize] += 1;
            }
        }
        // 16 border edges, every other edge flat: 32 triangles x 3 = 96 edge sides.
        assert_eq!(counts, [16, 80, 0, 0]);
    }

    #[test]
    fn a_cube_has_convex_edges_and_flat_diagonals() {
        let m = MeshCollider::try_new(cube()).unwrap();
        let mut convex = 0;
        let mut flat = 0;
        for i in 0..m.triangles().len() as u32 {
            for k in 0..3 {
                match m.edge_bend(i, k).unwrap() {
                    EdgeBend::Convex => convex += 1,
                    EdgeBend::Flat => flat += 1,
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
        // 12 cube edges seen from two triangles each, 6 face diagonals from two each.
        assert_eq!((convex, flat), (24, 12));
    }

    #[test]
    fn bad_meshes_give_typed_errors() {
        assert_eq!(
            MeshCollider::try_new(TriMesh::default()).err(),
            Some(MeshError::NoTriangles)
        );
        let nan = TriMesh::new(vec![Vec3::NAN, Vec3::X, Vec3::Y], vec![[0, 1, 2]]);
        assert_eq!(
            MeshCollider::try_new(nan).err(),
            Some(MeshError::NonFinite { vertex: 0 })
        );
        let flat = TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0], vec![[0, 1, 2]]);
        assert_eq!(
            MeshCollider::try_new(flat).err(),
            Some(MeshError::NoTriangles)
        );
        let dup = TriMesh::new(
            vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            vec![[0, 1, 2], [1, 2, 0], [2, 1, 0]],
        );
        assert_eq!(MeshCollider::try_new(dup).unwrap().triangles().len(), 1);
    }

    #[test]
    fn rays_hit_the_floor_from_both_sides_and_miss_beside_it() {
        let m = MeshCollider::try_new(floor(4, |_, _| false)).unwrap();
        let down = m
            .ray_cast(&Ray::new(Vec3::new(1.5, 2.0, 2.5), Vec3::NEG_Y), 5.0)
            .unwrap();
        assert_eq!((down.t, down.normal), (2.0, Vec3::Y));
        let up = m
            .ray_cast(&Ray::new(Vec3::new(1.5, -1.0, 2.5), Vec3::Y), 5.0)
            .unwrap();
        assert_eq!((up.t, up.normal), (1.0, Vec3::NEG_Y));
        assert!(m
            .ray_cast(&Ray::new(Vec3::new(5.5, 2.0, 2.5), Vec3::NEG_Y), 5.0)
            .is_none());
        // Straight down through a shared vertex: hits (every triangle there reports it).
        let mut all = Vec::new();
        m.ray_cast_all(
            &Ray::new(Vec3::new(2.0, 1.0, 2.0), Vec3::NEG_Y),
            5.0,
            &mut all,
        );
        assert_eq!(all.len(), 6);
        assert!(all.iter().all(|h| h.t == 1.0));
    }
}
