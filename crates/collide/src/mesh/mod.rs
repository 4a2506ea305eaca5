//! Triangle meshes and heightfields as colliders: a level's static geometry.
//!
//! [`MeshCollider`] welds a [`TriMesh`](crate::shapes::TriMesh), finds each triangle's
//! neighbours across its edges, classifies every edge as flat, convex or concave, and builds a
//! static tree over the triangles (binned SAH). [`Heightfield`] is a grid of height samples
//! whose cells are walked directly. Both answer the same queries in their rest frame: ray
//! casts (first hit, all hits), closest point, the triangles touching a box, and contacts
//! against a convex shape.
//!
//! Meshes are two-sided: a ray or a shape meets a triangle from either side, and normals face
//! the side the query comes from.
//!
//! **Internal edges.** A shape sliding over a flat floor made of many triangles touches the
//! edges between them, and a plain triangle-by-triangle test reports those edges' normals:
//! the "ghost" bumps of rapier#95 and Avian#612. Contacts here ([`MeshCollider::contacts`])
//! correct each triangle's contact with its edge flags: a contact on a flat or concave edge
//! (seen from the shape's side) takes the face normal, and one on a convex edge is kept within
//! the edge's normal cone (between the two faces' normals), so a shape over a flat or convex
//! region always gets the face normal.
//!
//! ```
//! use collide::mesh::MeshCollider;
//! use collide::shapes::{Ray, TriMesh};
//! use collide::Vec3;
//!
//! // A 2 x 2 floor of two triangles at y = 0.
//! let floor = TriMesh::new(
//!     vec![
//!         Vec3::new(-1.0, 0.0, -1.0),
//!         Vec3::new(1.0, 0.0, -1.0),
//!         Vec3::new(1.0, 0.0, 1.0),
//!         Vec3::new(-1.0, 0.0, 1.0),
//!     ],
//!     vec![[0, 2, 1], [0, 3, 2]],
//! );
//! let mesh = MeshCollider::try_new(floor).unwrap();
//! let hit = mesh.ray_cast(&Ray::new(Vec3::new(0.2, 3.0, 0.1), Vec3::NEG_Y), 10.0).unwrap();
//! assert!((hit.t - 3.0).abs() < 1e-6 && hit.normal == Vec3::Y);
//! ```

mod box_triangle;
mod cast;
mod collider;
mod contact;
mod heightfield;
mod hull_triangle;

pub use crate::broadphase::TreeDefect;
pub use crate::shapes::MeshError;
pub use cast::MeshShapeHit;
pub use collider::MeshCollider;
pub use contact::MeshContact;
pub use heightfield::Heightfield;

use crate::math::{splat3, Vec3};
use crate::shapes::{Aabb, Ray, Triangle};
use glam::Vec4;

/// A ray's hit on a mesh or heightfield.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshRayHit {
    /// Ray parameter (units of `|ray.dir|`); 0 when the ray starts on a triangle.
    pub t: f32,
    /// `ray.origin + t · ray.dir`.
    pub point: Vec3,
    /// The hit triangle's unit face normal, turned toward the ray's origin.
    pub normal: Vec3,
    /// The hit triangle: an index into [`MeshCollider::triangles`], or for a heightfield
    /// `2 · (row · (cols − 1) + col) + k` ([`Heightfield::triangle`]).
    pub triangle: u32,
}

/// The point of a mesh or heightfield closest to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshPoint {
    /// The closest point on the surface.
    pub point: Vec3,
    /// Its distance from the query point.
    pub distance: f32,
    /// The triangle it lies on.
    pub triangle: u32,
}

/// How a triangle's neighbour across an edge bends, relative to the triangle's front face
/// (the side its winding's normal points to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeBend {
    /// No neighbour (the mesh's border), or more than one (a non-manifold edge): a real edge
    /// from every side.
    Boundary,
    /// The neighbour lies in the same plane (within [`FLAT_SINE`]): the edge is internal.
    Flat,
    /// The neighbour bends away from the front face: the edge is convex seen from the front,
    /// concave from the back.
    Convex,
    /// The neighbour bends toward the front face: concave seen from the front, convex from
    /// the back.
    Concave,
}

/// The sine of the largest angle between two faces that still counts as flat: `1e-3`
/// (0.057°).
pub const FLAT_SINE: f32 = 1e-3;

/// How the neighbour with opposite corner `apex` bends across the edge `a`–`b` of a triangle
/// with unit normal `normal`: the sine of the angle between the faces is the apex's height
/// over the triangle's plane divided by its distance from the edge's line.
pub(crate) fn classify_edge(normal: Vec3, a: Vec3, b: Vec3, apex: Vec3) -> EdgeBend {
    let e = b - a;
    let w = apex - a;
    let along = e.dot(w) / e.length_squared();
    let off_line = (w - e * along).length();
    let height = normal.dot(w);
    if off_line.is_nan()
        || off_line <= 0.0
        || !height.is_finite()
        || height.abs() <= FLAT_SINE * off_line
    {
        EdgeBend::Flat
    } else if height < 0.0 {
        EdgeBend::Convex
    } else {
        EdgeBend::Concave
    }
}

/// What the shared queries ask of a mesh or a heightfield: its triangles by index, their
/// edges' neighbours, and the triangles near a box.
pub(crate) trait TriangleSet {
    /// Triangle `i`'s corners, or `None` for a hole or an index out of range.
    fn corners(&self, i: u32) -> Option<[Vec3; 3]>;
    /// The unit face normal of triangle `i` (its winding's front).
    fn face_normal(&self, i: u32) -> Vec3;
    /// The bend of edge `k` (corner `k` to corner `k + 1`) of triangle `i` and the corner of
    /// the neighbour across it that is not on the edge.
    fn edge(&self, i: u32, k: usize) -> (EdgeBend, Option<Vec3>);
    /// Calls `visit` with every triangle whose box may touch `query`, until it returns false.
    fn for_each_near(&self, query: &Aabb, visit: &mut dyn FnMut(u32) -> bool);

    /// Calls `visit(triangle, bound)` with every triangle whose box the box `start` reaches
    /// while moving by `motion` within `u <= bound` (`bound` starts at 1), nearer boxes first;
    /// `visit` returns the new bound (the time of a hit it found, with any slack it wants,
    /// or the bound it was given), and triangles reached beyond it are skipped.
    ///
    /// By default the triangles near the swept box are gathered, sorted by when the moving
    /// box reaches their boxes (slab test, widened by a relative 1e-4 so rounding never drops
    /// one), and visited in that order.
    fn for_each_along(&self, start: &Aabb, motion: Vec3, visit: &mut dyn FnMut(u32, f32) -> f32) {
        let swept = start.union(&Aabb {
            min: start.min + motion,
            max: start.max + motion,
        });
        let (centre, half) = (start.center(), start.half_extents());
        let inv = motion.recip();
        let mut candidates: Vec<(f32, u32)> = Vec::new();
        self.for_each_near(&swept, &mut |i| {
            if let Some(c) = self.corners(i) {
                let lo = c[0].min(c[1]).min(c[2]) - half;
                let hi = c[0].max(c[1]).max(c[2]) + half;
                if let Some(t) = cast::box_entry(centre, motion, inv, lo, hi) {
                    candidates.push((t, i));
                }
            }
            true
        });
        candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut bound = 1.0f32;
        for (entry, i) in candidates {
            if entry > bound {
                break;
            }
            bound = visit(i, bound);
        }
    }
}

/// Appends to `out` the triangles of `set` that touch `aabb` (exact triangle–box test,
/// touching counts), in the set's walk order; a NaN box touches nothing.
pub(crate) fn triangles_touching<T: TriangleSet + ?Sized>(
    set: &T,
    aabb: &Aabb,
    out: &mut Vec<u32>,
) {
    set.for_each_near(aabb, &mut |i| {
        if let Some([a, b, c]) = set.corners(i) {
            if crate::overlap::triangle_aabb(&Triangle::new(a, b, c), aabb) {
                out.push(i);
            }
        }
        true
    });
}

/// Ray against one triangle of a mesh: Möller–Trumbore (1997) in `f32`, checked in `f64` by
/// [`crate::raycast::triangle`] whenever the hit is near an edge or the ray nearly parallel,
/// so shared edges never let a ray through and grazing hits are exact.
pub(crate) fn ray_triangle(ray: &Ray, c: &[Vec3; 3], index: u32, max_t: f32) -> Option<MeshRayHit> {
    match ray_triangle_filter(ray, c, max_t) {
        RayFilter::Miss => None,
        RayFilter::Exact => ray_triangle_exact(ray, c, index, max_t),
        RayFilter::Inside(t) => ray_triangle_finish(ray, c, index, t).or_else(|| {
            // A normal that cannot be made unit leaves the hit to the f64 test; an overflowed
            // point or normal is no hit.
            let n = (c[1] - c[0]).cross(c[2] - c[0]);
            let unit = crate::convex::support::unit_or_zero(n);
            (unit == Vec3::ZERO)
                .then(|| ray_triangle_exact(ray, c, index, max_t))
                .flatten()
        }),
    }
}

/// What the `f32` filter of [`ray_triangle`] makes of one triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RayFilter {
    /// No hit within the bound.
    Miss,
    /// The ray nearly parallel, or the hit near an edge or an end of the range: the `f64`
    /// test decides ([`ray_triangle_exact`]).
    Exact,
    /// A hit at this `t`, clear of the edges; [`ray_triangle_finish`] gives its point and
    /// normal.
    Inside(f32),
}

/// Barycentric slack of the `f32` ray filter, and the band near edges that the `f64` test
/// decides.
const RAY_SLACK: f32 = 1e-4;

/// The `f32` Möller–Trumbore filter of [`ray_triangle`]: every hit it misses is more than its
/// slack outside the triangle or the range `[0, max_t]`.
#[inline(always)]
pub(crate) fn ray_triangle_filter(ray: &Ray, c: &[Vec3; 3], max_t: f32) -> RayFilter {
    const SLACK: f32 = RAY_SLACK;
    let (e1, e2) = (c[1] - c[0], c[2] - c[0]);
    let p = ray.dir.cross(e2);
    let det = e1.dot(p);
    let n = e1.cross(e2);
    if det.is_nan() {
        return RayFilter::Miss;
    }
    // Nearly parallel (|d·n| below 1e-4 of |d||n|, compared squared): f64 decides.
    if det * det <= 1e-8 * ray.dir.length_squared() * n.length_squared() {
        return RayFilter::Exact;
    }
    let inv = det.recip();
    let s = ray.origin - c[0];
    let u = s.dot(p) * inv;
    if !(-SLACK..=1.0 + SLACK).contains(&u) {
        return RayFilter::Miss;
    }
    let q = s.cross(e1);
    let v = ray.dir.dot(q) * inv;
    if v < -SLACK || u + v > 1.0 + SLACK {
        return RayFilter::Miss;
    }
    let t = e2.dot(q) * inv;
    filter_by_range(u, v, t, max_t)
}

/// The end of [`ray_triangle_filter`], once `u` and `v` are within the slack: a miss when `t`
/// is more than the slack outside `[0, max_t]`, the `f64` test near an edge or an end of the
/// range, else a hit inside.
#[inline(always)]
fn filter_by_range(u: f32, v: f32, t: f32, max_t: f32) -> RayFilter {
    const SLACK: f32 = RAY_SLACK;
    if t < -SLACK * t.abs().max(1.0) || t > max_t * (1.0 + SLACK) + SLACK {
        return RayFilter::Miss;
    }
    if u < SLACK || v < SLACK || u + v > 1.0 - SLACK || t < SLACK || t > max_t * (1.0 - SLACK) {
        return RayFilter::Exact;
    }
    RayFilter::Inside(t)
}

/// [`ray_triangle_filter`] of up to four triangles at once (a leaf of the mesh's tree), one
/// per lane, without a branch per triangle: the same operations in the same order in `f32`
/// lanes, so each lane's values are those of the one-triangle filter bit for bit. What
/// depends on the bound is left to [`RayLeafFilter::at`], since a leaf's earlier hits lower
/// it for the later triangles.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RayLeafFilter {
    u: [f32; 4],
    v: [f32; 4],
    t: [f32; 4],
    /// Lanes where the ray is nearly parallel to the triangle (the `f64` test decides).
    parallel: u32,
    /// Lanes the filter may not miss with a bound of at most the `max_t` it was given.
    pub(crate) candidates: u32,
}

impl RayLeafFilter {
    /// The filter of triangles `c` (at most four; more are not looked at) up to `max_t`.
    #[inline(always)]
    pub(crate) fn new(ray: &Ray, c: &[[Vec3; 3]], max_t: f32) -> RayLeafFilter {
        const SLACK: f32 = RAY_SLACK;
        let count = c.len().min(4);
        let Some(&first) = c.first() else {
            return RayLeafFilter {
                u: [0.0; 4],
                v: [0.0; 4],
                t: [0.0; 4],
                parallel: 0,
                candidates: 0,
            };
        };
        // Lanes past the leaf's triangles repeat its first and are masked out at the end.
        let mut tri = [first; 4];
        tri[..count].copy_from_slice(&c[..count]);
        let corner = |k: usize, axis: usize| {
            Vec4::new(
                tri[0][k][axis],
                tri[1][k][axis],
                tri[2][k][axis],
                tri[3][k][axis],
            )
        };
        let [a, b, cc] = [0, 1, 2].map(|k| [0, 1, 2].map(|axis| corner(k, axis)));
        let sub = |x: [Vec4; 3], y: [Vec4; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
        // glam's `cross` and `dot`, written out per lane in the same order.
        let cross = |x: [Vec4; 3], y: [Vec4; 3]| {
            [
                x[1] * y[2] - y[1] * x[2],
                x[2] * y[0] - y[2] * x[0],
                x[0] * y[1] - y[0] * x[1],
            ]
        };
        let dot = |x: [Vec4; 3], y: [Vec4; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
        let (dir, origin) = (splat3(ray.dir), splat3(ray.origin));
        let (e1, e2) = (sub(b, a), sub(cc, a));
        let p = cross(dir, e2);
        let det = dot(e1, p);
        let n = cross(e1, e2);
        let nan = det.cmpne(det);
        let parallel = (det * det).cmple(Vec4::splat(1e-8 * ray.dir.length_squared()) * dot(n, n));
        let inv = Vec4::ONE / det;
        let s = sub(origin, a);
        let u = dot(s, p) * inv;
        let q = cross(s, e1);
        let v = dot(dir, q) * inv;
        let t = dot(e2, q) * inv;
        let within_u = u.cmpge(Vec4::splat(-SLACK)) & u.cmple(Vec4::splat(1.0 + SLACK));
        let beyond_v = v.cmplt(Vec4::splat(-SLACK)) | (u + v).cmpgt(Vec4::splat(1.0 + SLACK));
        let beyond_t = t.cmplt(Vec4::splat(-SLACK) * t.abs().max(Vec4::ONE))
            | t.cmpgt(Vec4::splat(max_t * (1.0 + SLACK) + SLACK));
        let inside = within_u & !beyond_v & !beyond_t;
        let lanes = (1u32 << count) - 1;
        RayLeafFilter {
            u: u.to_array(),
            v: v.to_array(),
            t: t.to_array(),
            parallel: (parallel & !nan).bitmask() & lanes,
            candidates: ((parallel | inside) & !nan).bitmask() & lanes,
        }
    }

    /// What [`ray_triangle_filter`] gives for lane `lane` with the bound `max_t` (at most the
    /// one the filter was made with); [`RayFilter::Miss`] for a lane not in `candidates`.
    #[inline(always)]
    pub(crate) fn at(&self, lane: usize, max_t: f32) -> RayFilter {
        if self.candidates & (1 << lane) == 0 {
            RayFilter::Miss
        } else if self.parallel & (1 << lane) != 0 {
            RayFilter::Exact
        } else {
            filter_by_range(self.u[lane], self.v[lane], self.t[lane], max_t)
        }
    }
}

/// [`ray_triangle`] decided in `f64` ([`crate::raycast::triangle`]).
pub(crate) fn ray_triangle_exact(
    ray: &Ray,
    c: &[Vec3; 3],
    index: u32,
    max_t: f32,
) -> Option<MeshRayHit> {
    crate::raycast::triangle(ray, &Triangle::new(c[0], c[1], c[2]), max_t).map(|h| MeshRayHit {
        t: h.t,
        point: h.point,
        normal: h.normal,
        triangle: index,
    })
}

/// The hit of [`ray_triangle`] at the `t` its filter found inside the triangle: the point and
/// the face normal turned toward the ray's origin; `None` when the normal cannot be made unit
/// or the point or normal overflows.
pub(crate) fn ray_triangle_finish(
    ray: &Ray,
    c: &[Vec3; 3],
    index: u32,
    t: f32,
) -> Option<MeshRayHit> {
    let n = (c[1] - c[0]).cross(c[2] - c[0]);
    // Scaled before normalising: the cross product of tiny or huge edges under- or overflows.
    let unit = crate::convex::support::unit_or_zero(n);
    if unit == Vec3::ZERO {
        return None;
    }
    let normal = if n.dot(ray.dir) > 0.0 { -unit } else { unit };
    let point = ray.origin + ray.dir * t;
    (point.is_finite() && normal.is_finite()).then_some(MeshRayHit {
        t,
        point,
        normal,
        triangle: index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A filter answer with `Inside`'s `t` by its bits (so that NaN compares equal).
    fn bits(f: RayFilter) -> (u8, u32) {
        match f {
            RayFilter::Miss => (0, 0),
            RayFilter::Exact => (1, 0),
            RayFilter::Inside(t) => (2, t.to_bits()),
        }
    }

    #[test]
    fn a_leaf_filters_each_triangle_as_the_one_triangle_filter_does() {
        let state = std::cell::Cell::new(0x853C_49E6_748F_EA9Bu64);
        let next = || {
            let mut x = state.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.set(x);
            (x >> 40) as f32 / (1u64 << 24) as f32
        };
        let point = |scale: f32| Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * scale;
        let mut seen = [0usize; 3];
        for case in 0..20_000 {
            // Scales from tiny to huge; every eighth leaf has slivers and repeated corners.
            let scale = [1e-20, 1e-3, 1.0, 1e3, 1e30][case % 5];
            let count = 1 + case % 4;
            let leaf: Vec<[Vec3; 3]> = (0..count)
                .map(|k| {
                    let a = point(scale);
                    let b = point(scale);
                    let c = if case % 8 == 0 && k % 2 == 0 {
                        a + (b - a) * 0.5 + point(scale * 1e-7)
                    } else if case % 8 == 4 && k == 0 {
                        a
                    } else {
                        point(scale)
                    };
                    [a, b, c]
                })
                .collect();
            let origin = point(scale * 3.0);
            let max_t = [1.0, 0.5, 1e-3, 3.0][case % 4];
            // Some rays nearly in the first triangle's plane, half aimed into one of the
            // leaf's triangles (reached at about 0.2 to 1.2 of `max_t`).
            let dir = if case % 6 == 0 {
                let [a, b, c] = leaf[0];
                (b - a) + (c - a) * 0.3 + point(scale * 1e-6)
            } else if case % 2 == 1 {
                let [a, b, c] = leaf[case % count];
                let (r, s) = (next() * 0.5, next() * 0.5);
                let target = a + (b - a) * r + (c - a) * s;
                (target - origin) / (max_t * (0.2 + next()))
            } else {
                point(scale * 2.0)
            };
            let ray = Ray::new(origin, dir);
            let filter = RayLeafFilter::new(&ray, &leaf, max_t);
            for bound in [max_t, max_t * 0.7, max_t * 0.1] {
                for (lane, c) in leaf.iter().enumerate() {
                    let want = bits(ray_triangle_filter(&ray, c, bound));
                    assert_eq!(
                        bits(filter.at(lane, bound)),
                        want,
                        "case {case}, lane {lane}, bound {bound}: {c:?}, {ray:?}"
                    );
                    seen[usize::from(want.0)] += 1;
                }
            }
        }
        // Every answer is well represented: misses, the f64 test's band, hits inside.
        assert!(seen.iter().all(|&n| n > 1_000), "{seen:?}");
    }
}
