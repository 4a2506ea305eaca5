//! Quickhull: the convex hull of a point cloud as polygons with planes and an edge list.
//!
//! Barber, Dobkin and Huhdanpaa, *The Quickhull algorithm for convex hulls* (ACM TOMS 1996),
//! with the robustness measures of D. Gregorius, *Implementing Quickhull* (GDC 2014): a
//! tolerance scaled to the input, points within it of a face count as on the face, and coplanar
//! triangles merged into polygons at the end.
//!
//! The hull is built in `f64` from the (exactly representable) `f32` input. Three distances
//! steer it, all scaled by `s = max|x| + max|y| + max|z|` of the input:
//! - `eps = 3 · FLT_EPSILON · s` (Gregorius): a point must be more than `eps` outside a face to
//!   be added; closer points count as inside. It is the resolution of `f32` coordinates of that
//!   magnitude, so nothing finer is meaningful in the input.
//! - `eps / 64`: a face is removed when the new point is more than this above it. Small enough
//!   that the triangulated hull stays convex to far below `eps`, large enough above `f64`
//!   round-off that a new triangle `(a, b, eye)` always has height `>= eps / 64` over its base
//!   (the eye is that far above a plane through `ab`), so its normal is accurate.
//! - `eps` again when merging: adjacent triangles whose vertices all lie within `eps` of the
//!   seed triangle's plane become one polygon; vertices left with only two faces (points in the
//!   middle of an edge) are dropped.
//!
//! The steps, one module each (in the order of Jolt's `ConvexHullBuilder`): [`simplex`] (the
//! initial tetrahedron), [`quickhull`] (the loop), [`horizon`] (visible faces and the horizon,
//! repaired until every new edge is convex), [`cone`] (new faces to the eye), [`orphans`]
//! (conflict lists handed to the cone, near points rechecked), [`polygons`] (coplanar merging
//! and assembly), [`validate`] (the invariants, by brute force and locally). Every
//! per-point and per-face table is a `Vec` indexed by point or face; nothing is hashed. Each
//! thread keeps the builder's tables between builds, so once they have grown to the largest
//! hull the thread builds, a build allocates little more than the hull it returns.

mod cone;
mod horizon;
mod orphans;
mod polygons;
mod quickhull;
mod simplex;
mod validate;
pub use validate::HullDefect;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use glam::DVec3;

use super::gauss_map::{GaussArc, GaussClusters};
use super::lanes::{PlaneLanes, PointLanes};
use crate::math::Vec3;
use crate::shapes::Plane;
use quickhull::{Points, Quickhull};

/// Why [`ConvexHull::try_new`] could not build a hull.
#[derive(Clone, Debug, PartialEq)]
pub enum HullError {
    /// No points were given.
    Empty,
    /// The point at `index` has a NaN or infinite coordinate.
    NonFinite {
        /// Index of the first offending point in the input.
        index: usize,
    },
    /// All points are within `tolerance` of one point.
    Coincident {
        /// The distance below which points count as the same.
        tolerance: f32,
    },
    /// All points are within `tolerance` of one line.
    Collinear {
        /// The distance below which points count as on the line.
        tolerance: f32,
    },
    /// All points are within `tolerance` of one plane.
    Coplanar {
        /// The distance below which points count as on the plane.
        tolerance: f32,
    },
    /// The input defeated the algorithm's numerical safeguards: the hull built does not pass
    /// [`ConvexHull::validate`]. Seen only for needle-like clouds mixing coordinates of very
    /// different magnitudes (1e20 and 1e25 in one cloud). Also given for more points, or
    /// triangles under construction, than `u32` indices reach (`u32::MAX - 1`).
    Unstable,
}

impl fmt::Display for HullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HullError::Empty => write!(
                f,
                "no points: a convex hull needs at least 4 points that span a volume"
            ),
            HullError::NonFinite { index } => write!(
                f,
                "point {index} has a NaN or infinite coordinate: remove or fix it before building a hull"
            ),
            HullError::Coincident { tolerance } => write!(
                f,
                "all points coincide (within {tolerance:e}): use a sphere, or give at least 4 points that span a volume"
            ),
            HullError::Collinear { tolerance } => write!(
                f,
                "all points lie on one line (within {tolerance:e}): use a segment or capsule, or add points off the line"
            ),
            HullError::Coplanar { tolerance } => write!(
                f,
                "all points lie in one plane (within {tolerance:e}): the hull would be flat; give the shape some thickness"
            ),
            HullError::Unstable => write!(
                f,
                "the point set is too degenerate for the hull builder: weld near-duplicate points or recentre the points near the origin"
            ),
        }
    }
}

impl std::error::Error for HullError {}

/// A face of a [`ConvexHull`]: a convex polygon, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullFace {
    /// The face's plane; the normal points out of the hull, every hull vertex is on or below it
    /// (within the hull's tolerance).
    pub plane: Plane,
    /// Index of the face's first vertex index in [`ConvexHull::face_indices`].
    pub first: u32,
    /// Number of vertices of the polygon (at least 3).
    pub count: u32,
}

/// An edge of a [`ConvexHull`] and the two faces that meet at it.
///
/// The edge runs `vertices[0] → vertices[1]` counter-clockwise in `faces[0]` and the other way
/// in `faces[1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HullEdge {
    /// Vertex indices of the two ends.
    pub vertices: [u32; 2],
    /// The face on each side.
    pub faces: [u32; 2],
}

/// A closed convex polyhedron: vertices, polygonal faces with outward planes, unique edges.
///
/// Built by [`ConvexHull::try_new`]; [`ConvexHull::validate`] checks every invariant. A hull
/// never changes after it is built. Two hulls compare equal when their geometry and topology
/// are equal (the internal identity below is not compared).
#[derive(Clone, Debug)]
pub struct ConvexHull {
    /// Process-unique identity given when the hull is built (clones share it, and a hull never
    /// changes, so equal ids mean the same geometry): lets a per-pair cache tell whether what
    /// it learned about a hull's vertices is about this hull.
    pub(super) id: u64,
    pub(super) vertices: Vec<Vec3>,
    pub(super) faces: Vec<HullFace>,
    pub(super) face_indices: Vec<u32>,
    pub(super) edges: Vec<HullEdge>,
    pub(super) tolerance: f32,
    /// Vertex adjacency in compressed rows: the neighbours of vertex `v` are
    /// `neighbours[neighbour_start[v] .. neighbour_start[v + 1]]` (from the unique edges).
    pub(super) neighbour_start: Vec<u32>,
    pub(super) neighbours: Vec<u32>,
    /// The edges in an order that keeps their Gauss-map arcs close together, and a bounding
    /// cap per [`GAUSS_CHUNK`](super::gauss_map::GAUSS_CHUNK) of them: built on first use (the SAT's edge phase), so hulls
    /// that never get there do not pay for it. Derived data, left out of equality.
    pub(super) gauss: OnceLock<GaussClusters>,
    /// Each edge's Gauss-map arc (its great circle from the edge direction, and a cap around
    /// it), by edge index: built on first use like `gauss`. Derived data, left out of equality.
    pub(super) arcs: OnceLock<Vec<GaussArc>>,
    /// The vertices in lanes of four, for support scans: built on first use (clustering a
    /// large hull's vertices costs about as much as a third of building it). Derived data,
    /// left out of equality.
    pub(super) vertex_lanes: OnceLock<PointLanes>,
    /// The faces' planes in lanes of four, for the face most turned toward a direction and
    /// for point-inside tests: built on first use like `vertex_lanes`. Derived data, left out
    /// of equality.
    pub(super) plane_lanes: OnceLock<PlaneLanes>,
    /// Mean of the vertices.
    pub(super) centroid: Vec3,
    /// Radius of a ball about `centroid` inside the hull (see [`ConvexHull::inner_ball`]).
    pub(super) inner_radius: f32,
    /// Radius of a ball about `centroid` holding every vertex (see [`ConvexHull::outer_ball`]).
    pub(super) outer_radius: f32,
    /// The largest vertex norm (see [`ConvexHull::largest_norm`]).
    pub(super) largest_norm: f32,
}

/// Geometry and topology, not the identity.
impl PartialEq for ConvexHull {
    fn eq(&self, other: &ConvexHull) -> bool {
        self.vertices == other.vertices
            && self.faces == other.faces
            && self.face_indices == other.face_indices
            && self.edges == other.edges
            && self.tolerance == other.tolerance
            && self.neighbour_start == other.neighbour_start
            && self.neighbours == other.neighbours
            && self.centroid == other.centroid
            && self.inner_radius == other.inner_radius
    }
}

/// The position after `k` in a cycle of `len` positions (`k < len`): `(k + 1) % len`
/// without a division (these run once per polygon corner or horizon edge).
#[inline]
fn cyclic_next(k: usize, len: usize) -> usize {
    if k + 1 == len {
        0
    } else {
        k + 1
    }
}

/// The position before `k` in a cycle of `len` positions (`k < len`): `(k + len - 1) % len`.
#[inline]
fn cyclic_prev(k: usize, len: usize) -> usize {
    if k == 0 {
        len - 1
    } else {
        k - 1
    }
}

/// The next hull identity (0 is never given out: it means "no hull" in caches).
pub(super) fn next_hull_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

thread_local! {
    /// The builder's lists of this thread, reused by every build on it.
    static LISTS: std::cell::RefCell<Lists> = std::cell::RefCell::default();
}

/// The builder's lists kept between builds on one thread: Quickhull's and the merge's.
#[derive(Default)]
struct Lists {
    quickhull: quickhull::Lists,
    merge: polygons::Lists,
}

/// [`ConvexHull::try_new`] on finite, non-empty `points`, with the thread's `lists`.
fn build(points: &[Vec3], lists: &mut Lists) -> Result<ConvexHull, HullError> {
    let built = build_from(points, lists);
    // A big build's tables (about 50 MB at 100,000 points on a sphere) are not kept: their
    // allocation is a small part of such a build, and a thread should not hold them forever.
    if points.len() > KEEP_POINTS {
        *lists = Lists::default();
    }
    built
}

/// The largest input whose tables a thread keeps for its next build. Points on a sphere are
/// the worst case: each added vertex makes about six triangles of 80 bytes, so the triangle
/// table, the largest, holds about 0.5 MB (up to twice that in capacity) at this many points.
const KEEP_POINTS: usize = 1024;

/// The hull of `points`.
fn build_from(points: &[Vec3], lists: &mut Lists) -> Result<ConvexHull, HullError> {
    let pts = Points(points);
    let mut max_abs = DVec3::ZERO;
    for p in pts.iter() {
        max_abs = max_abs.max(p.abs());
    }
    let scale = max_abs.x + max_abs.y + max_abs.z;
    // Gregorius 2014: the f32 resolution of coordinates of this magnitude.
    let eps = 3.0 * f64::from(f32::EPSILON) * scale;
    let tolerance = eps as f32;
    if scale == 0.0 {
        return Err(HullError::Coincident { tolerance });
    }
    let simplex = simplex::initial_simplex(pts, eps, tolerance)?;
    let qh = Quickhull::build(pts, simplex, eps, &mut lists.quickhull)?;
    let built = polygons::build_polygons(pts, &qh.tris, eps, &mut lists.merge);
    // The simplex test measures the fourth
    // point's height over the plane of the first three, but merging measures every vertex
    // against the plane of the *largest* face, over which a tetrahedron has its smallest
    // height. Tetrahedra whose smallest height is within `eps` therefore pass the simplex
    // test and then merge two triangles into one polygon: 4 vertices, 3 faces, not a
    // closed polytope. Merging put every vertex of the hull within `eps` of one plane, so
    // the input is coplanar within the tolerance: say so.
    if built.hull.faces.len() < 4 {
        return Err(HullError::Coplanar { tolerance });
    }
    // Safety net: needle-like clouds with a huge spread of
    // magnitudes can still produce non-convex or non-manifold triangulations; a hull that
    // breaks its own invariants must never reach a caller (SAT, GJK and the manifold
    // builder assume them). Checked locally, linear in the hull's size; debug builds also
    // run the brute-force `validate`. The underlying Quickhull weakness is open: see
    // docs/degenerate-input.md.
    let graph = std::cell::OnceCell::new();
    let mut heights = Vec::new();
    if !validate::check_built(&built, &graph, &mut heights, points.len())
        || (cfg!(debug_assertions) && built.hull.validate().is_err())
    {
        return Err(HullError::Unstable);
    }
    // Second safety net: every input point must be inside the final (f32) hull
    // within the documented `3 · tolerance`, else `Unstable`.
    if !validate::contains_input(&built, &graph, &heights, &qh, points, 3.0 * tolerance) {
        return Err(HullError::Unstable);
    }
    qh.recycle(&mut lists.quickhull);
    Ok(built.into_hull(&mut lists.merge))
}

impl ConvexHull {
    /// The convex hull of `points`, with coplanar faces merged into polygons.
    ///
    /// Duplicate and near-duplicate points, points inside, and points within the tolerance of a
    /// face are accepted and left out of the hull's vertices. The tolerance is
    /// `3 · FLT_EPSILON · (max|x| + max|y| + max|z|)` (Gregorius 2014), so recentre data that sit
    /// far from the origin. Degenerate input gives a typed error, never a panic:
    /// [`HullError::Empty`], [`HullError::NonFinite`], or fewer than 4 points that span a
    /// volume: [`HullError::Coincident`], [`HullError::Collinear`], [`HullError::Coplanar`].
    pub fn try_new(points: &[Vec3]) -> Result<ConvexHull, HullError> {
        if points.is_empty() {
            return Err(HullError::Empty);
        }
        if let Some(index) = points.iter().position(|p| !p.is_finite()) {
            return Err(HullError::NonFinite { index });
        }
        crate::scratch::with(&LISTS, |lists| build(points, lists))
    }

    /// The hull's vertices (a subset of the input points).
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The faces: convex polygons, counter-clockwise from outside, with outward planes.
    #[inline]
    #[must_use]
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }

    /// Index of the vertex farthest along `dir` (the first of ties; 0 for a NaN `dir`), by a
    /// branch-free scan four vertices at a time.
    #[inline]
    pub(crate) fn support_index(&self, dir: Vec3) -> usize {
        self.vertex_lanes().argmax(dir)
    }

    /// Index of the face whose outward normal has the largest dot product with `n` (the first
    /// of ties; 0 for a NaN `n`).
    #[inline]
    pub(crate) fn most_aligned_face(&self, n: Vec3) -> usize {
        self.plane_lanes().most_aligned(n)
    }

    /// `true` when some face has the three `points` (in the hull's frame), and the three moved
    /// by `shift`, all farther than `clearance` in front of its plane, past a bound on the
    /// `f32` rounding: then so are the exact distances, and the points never meet the hull
    /// along the straight move. `false` for non-finite or huge (`1e30`) input.
    #[inline]
    pub(crate) fn a_face_clears(&self, points: &[Vec3; 3], shift: Vec3, clearance: f32) -> bool {
        self.plane_lanes()
            .some_plane_clears(points, shift, clearance)
    }

    /// The vertices in lanes, built on first use.
    #[inline]
    fn vertex_lanes(&self) -> &PointLanes {
        self.vertex_lanes
            .get_or_init(|| PointLanes::new(&self.vertices))
    }

    /// The face planes in lanes, built on first use.
    #[inline]
    pub(crate) fn plane_lanes(&self) -> &PlaneLanes {
        self.plane_lanes.get_or_init(|| {
            let planes: Vec<Plane> = self.faces.iter().map(|f| f.plane).collect();
            PlaneLanes::new(&planes)
        })
    }

    /// Builds the lanes now rather than on the first query that scans them (for the world,
    /// which prepares its bodies when they are added).
    pub(crate) fn build_lanes(&self) {
        self.vertex_lanes();
        self.plane_lanes();
    }

    /// Vertex indices of all faces, concatenated; a face's are `first .. first + count`.
    #[inline]
    #[must_use]
    pub fn face_indices(&self) -> &[u32] {
        &self.face_indices
    }

    /// Vertex indices of face `f`, counter-clockwise from outside (empty when `f` is out of
    /// range, like [`ConvexHull::neighbours`]).
    #[inline]
    #[must_use]
    pub fn face_vertices(&self, f: usize) -> &[u32] {
        self.faces
            .get(f)
            .and_then(|face| {
                let first = face.first as usize;
                self.face_indices.get(first..first + face.count as usize)
            })
            .unwrap_or(&[])
    }

    /// The unique edges, each with its two faces.
    #[inline]
    #[must_use]
    pub fn edges(&self) -> &[HullEdge] {
        &self.edges
    }

    /// The vertices joined to vertex `v` by an edge (empty when `v` is out of range).
    #[inline]
    #[must_use]
    pub fn neighbours(&self, v: usize) -> &[u32] {
        let end = v.checked_add(1).and_then(|w| self.neighbour_start.get(w));
        match (self.neighbour_start.get(v), end) {
            (Some(&a), Some(&b)) => self.neighbours.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// A ball `(centre, radius)` inside the hull: the vertex mean and a radius at most its
    /// distance to every face plane less `16 ·` [`ConvexHull::tolerance`] (`0` for a hull that
    /// thin). `min_{x ∈ hull} n · x <= n · centre − radius` for every unit `n`.
    #[inline]
    #[must_use]
    pub fn inner_ball(&self) -> (Vec3, f32) {
        (self.centroid, self.inner_radius)
    }

    /// A ball `(centre, radius)` holding the hull: the vertex mean and the largest distance of
    /// a vertex from it (rounded up).
    #[inline]
    #[must_use]
    pub fn outer_ball(&self) -> (Vec3, f32) {
        (self.centroid, self.outer_radius)
    }

    /// The largest distance of a vertex from the hull's origin: the root (in `f32`) of the
    /// largest `length_squared` of a vertex, 0 for no vertices. Kept from the build, as the
    /// contact manifold sizes its slack by it on every query.
    #[inline]
    #[must_use]
    pub(crate) fn largest_norm(&self) -> f32 {
        self.largest_norm
    }

    /// Process-unique identity of this hull (shared by its clones; never 0).
    #[inline]
    #[must_use]
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The build tolerance `3 · FLT_EPSILON · (max|x| + max|y| + max|z|)` of the input.
    ///
    /// Input points lie at most `3 · tolerance` above any face plane (`eps` when dropped, up to
    /// `eps` more when coplanar triangles merge, plus rounding to `f32`); faces are flat and the
    /// hull convex to within `2 · tolerance` (the bound [`ConvexHull::validate`] checks).
    #[inline]
    #[must_use]
    pub fn tolerance(&self) -> f32 {
        self.tolerance
    }

    /// Largest signed distance of `p` to a face plane: `<= 0` inside, `> 0` outside.
    ///
    /// This is the true distance for points inside or outside a face's region, and a lower
    /// bound of it near edges and corners. NaN input gives NaN.
    #[must_use]
    pub fn signed_distance_bound(&self, p: Vec3) -> f32 {
        self.faces
            .iter()
            .map(|f| f.plane.signed_distance(p))
            .fold(
                f32::NEG_INFINITY,
                |a, b| if b.is_nan() { b } else { a.max(b) },
            )
    }

    /// `true` when `p` is inside or within `tolerance` of the hull's surface.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3, tolerance: f32) -> bool {
        // `signed_distance_bound(p) <= tolerance`, four faces at a time, stopping at the first
        // group with a face beyond it (or NaN): a point outside is usually outside early.
        self.plane_lanes().all_within(p, tolerance)
    }

    /// Mean of the vertices (strictly inside the hull, which has volume).
    #[must_use]
    pub fn vertex_centroid(&self) -> Vec3 {
        self.centroid
    }

    /// Volume, by the divergence theorem over the faces' fan triangles.
    #[must_use]
    pub fn volume(&self) -> f32 {
        let c = self.vertex_centroid().as_dvec3();
        let mut six_v = 0.0;
        for f in 0..self.faces.len() {
            let idx = self.face_vertices(f);
            let a = self.vertices[idx[0] as usize].as_dvec3() - c;
            for w in idx[1..].windows(2) {
                let b = self.vertices[w[0] as usize].as_dvec3() - c;
                let d = self.vertices[w[1] as usize].as_dvec3() - c;
                six_v += a.dot(b.cross(d));
            }
        }
        (six_v / 6.0) as f32
    }

    /// The hull as Wavefront OBJ text (`v` lines, then one `f` line per polygon, 1-based).
    #[must_use]
    pub fn to_obj(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "# convex hull written by collide");
        for v in &self.vertices {
            let _ = writeln!(s, "v {} {} {}", v.x, v.y, v.z);
        }
        for f in 0..self.faces.len() {
            s.push('f');
            for &i in self.face_vertices(f) {
                let _ = write!(s, " {}", i + 1);
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `n` points on a Fibonacci sphere scaled by `scale` (all hull vertices).
    pub(crate) fn fibonacci_sphere(n: usize, scale: Vec3) -> Vec<Vec3> {
        let golden = std::f32::consts::PI * (3.0 - 5.0_f32.sqrt());
        (0..n)
            .map(|i| {
                let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
                let r = (1.0 - y * y).sqrt();
                let phi = golden * i as f32;
                Vec3::new(r * phi.cos(), y, r * phi.sin()) * scale
            })
            .collect()
    }

    #[test]
    fn clones_share_the_identity_and_equality_ignores_it() {
        // Two hulls built from the same points are equal but distinct; a clone is the same.
        let pts = fibonacci_sphere(20, Vec3::ONE);
        let (h1, h2) = (
            ConvexHull::try_new(&pts).unwrap(),
            ConvexHull::try_new(&pts).unwrap(),
        );
        assert_eq!(h1, h2);
        assert_ne!(h1.id(), h2.id());
        assert_eq!(h1.clone().id(), h1.id());
        assert_ne!(h1.id(), 0);
    }

    /// The 8 corners of the cube `[-1, 1]^3`.
    pub(crate) fn cube_corners() -> Vec<Vec3> {
        (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -1.0 } else { 1.0 },
                    if i & 2 == 0 { -1.0 } else { 1.0 },
                    if i & 4 == 0 { -1.0 } else { 1.0 },
                )
            })
            .collect()
    }

    #[test]
    fn cube_has_six_quads() {
        // The 8 corners of a cube: 6 square faces, 12 edges, volume 8.
        let h = ConvexHull::try_new(&cube_corners()).unwrap();
        h.validate().unwrap();
        assert_eq!(
            (h.vertices().len(), h.faces().len(), h.edges().len()),
            (8, 6, 12)
        );
        assert!(h.faces().iter().all(|f| f.count == 4));
        crate::assert_near!(h.volume(), 8.0, 1e-5);
    }

    #[test]
    fn tetrahedron() {
        // Four points: 4 triangles, 6 edges, all outward.
        let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let h = ConvexHull::try_new(&p).unwrap();
        h.validate().unwrap();
        assert_eq!(
            (h.vertices().len(), h.faces().len(), h.edges().len()),
            (4, 4, 6)
        );
        crate::assert_near!(h.volume(), 1.0 / 6.0, 1e-6);
    }

    #[test]
    fn face_vertices_out_of_range_is_empty() {
        // A caller's face index past the end gives an empty list, not a panic.
        let h = ConvexHull::try_new(&cube_corners()).unwrap();
        assert_eq!(h.face_vertices(0).len(), 4);
        assert!(h.face_vertices(h.faces().len()).is_empty());
        assert!(h.face_vertices(usize::MAX).is_empty());
        assert!(h.neighbours(usize::MAX).is_empty());
    }

    #[test]
    fn typed_errors() {
        // Each degenerate input names its defect.
        assert_eq!(ConvexHull::try_new(&[]), Err(HullError::Empty));
        assert_eq!(
            ConvexHull::try_new(&[Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0)]),
            Err(HullError::NonFinite { index: 1 })
        );
        assert!(matches!(
            ConvexHull::try_new(&[Vec3::ONE; 9]),
            Err(HullError::Coincident { .. })
        ));
        assert!(matches!(
            ConvexHull::try_new(&[Vec3::ZERO; 9]),
            Err(HullError::Coincident { .. })
        ));
        assert!(matches!(
            ConvexHull::try_new(&[Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0]),
            Err(HullError::Collinear { .. })
        ));
        assert!(matches!(
            ConvexHull::try_new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE.with_z(0.0)]),
            Err(HullError::Coplanar { .. })
        ));
        assert!(HullError::Coplanar { tolerance: 1e-7 }
            .to_string()
            .contains("thickness"));
    }

    #[test]
    fn interior_and_mid_edge_points_are_dropped() {
        // Cube corners plus its centre, face centres and edge midpoints: still the 8 corners.
        let mut p = cube_corners();
        p.push(Vec3::ZERO);
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            p.push(axis);
            p.push(-axis);
        }
        for i in 0..8 {
            for j in 0..8 {
                p.push((p[i] + p[j]) * 0.5);
            }
        }
        let h = ConvexHull::try_new(&p).unwrap();
        h.validate().unwrap();
        assert_eq!((h.vertices().len(), h.faces().len()), (8, 6));
    }
}
