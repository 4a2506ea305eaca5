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

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use glam::DVec3;

use crate::math::{morton3, Vec3};
use crate::shapes::Plane;

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
    /// different magnitudes (1e20 and 1e25 in one cloud; found by fuzzing).
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
    id: u64,
    vertices: Vec<Vec3>,
    faces: Vec<HullFace>,
    face_indices: Vec<u32>,
    edges: Vec<HullEdge>,
    tolerance: f32,
    /// Vertex adjacency in compressed rows: the neighbours of vertex `v` are
    /// `neighbours[neighbour_start[v] .. neighbour_start[v + 1]]` (from the unique edges).
    neighbour_start: Vec<u32>,
    neighbours: Vec<u32>,
    /// The edges in an order that keeps their Gauss-map arcs close together, and a bounding
    /// cap per [`GAUSS_CHUNK`] of them: built on first use (the SAT's edge phase), so hulls
    /// that never get there do not pay for it. Derived data, left out of equality.
    gauss: OnceLock<GaussClusters>,
    /// Each edge's Gauss-map arc (its great circle from the edge direction, and a cap around
    /// it), by edge index: built on first use like `gauss`. Derived data, left out of equality.
    arcs: OnceLock<Vec<GaussArc>>,
    /// Mean of the vertices.
    centroid: Vec3,
    /// Radius of a ball about `centroid` inside the hull (see [`ConvexHull::inner_ball`]).
    inner_radius: f32,
}

/// Edges per [`GaussCap`] (in [`ConvexHull::gauss_order`]).
pub(crate) const GAUSS_CHUNK: usize = 8;

/// A spherical cap containing the Gauss-map arcs (the great-circle arcs between the two face
/// normals) of [`GAUSS_CHUNK`] consecutive edges of [`ConvexHull::gauss_order`]: every point
/// of those arcs is within angle `R` of the unit `centre`. Caps with `R` near or above 90°
/// (not spherically convex) store `sin_r = 2`, `cos_r = -2`, which no test culls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GaussCap {
    pub centre: Vec3,
    pub sin_r: f32,
    pub cos_r: f32,
}

/// The Gauss-map arc of one edge, the great-circle arc between its two face normals `n0`
/// (`faces[0]`) and `n1` (`faces[1]`), as the SAT's arc-crossing test uses it.
///
/// The arc lies in the plane perpendicular to the edge, so its great circle's unit normal is
/// the edge direction, oriented like `n1 × n0`: `normal = (v0 − v1) / |v0 − v1|` (the edge
/// runs `v0 → v1` counter-clockwise in `faces[0]`). That is exact whatever the angle between
/// the normals, where `n1 × n0` is only as long as that angle's sine: on the rim of a thin
/// plate (normals a few 1e-6 from opposite) it is a few ulps long and its direction is
/// rounding, degrees off (Gregorius 2013 builds the test from the edges for this reason).
///
/// `mid`, `cos_h`, `sin_h`: a cap holding the arc, centred on its midpoint with half angle
/// `h` (for culling). No cap (`mid = 0`, `h = 90°`: the culling then goes by the great circle
/// alone) for an edge whose stored normals are more than 1e-3 off the plane perpendicular to
/// it, or whose arc comes out more than 0.2 rad longer than a semicircle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GaussArc {
    pub normal: Vec3,
    pub mid: Vec3,
    pub cos_h: f32,
    pub sin_h: f32,
}

impl GaussArc {
    /// The arc of the edge `v0 → v1` between face normals `n0` and `n1`, in `f64`.
    ///
    /// The midpoint is the bisector of the arc turning from `n0` to `n1` about the edge
    /// direction `e`: with both normals projected into the plane perpendicular to `e` (`a`,
    /// `b`, turned by the arc's angle `φ ∈ [0, π]`), `a + b + e × a + b × e` is a sum of two
    /// pairs of unit vectors symmetric about the bisector (`a` at 0 and `b` at `φ`, `e × a` at
    /// 90° and `b × e` at `φ − 90°`), of length `2 cos(φ/2) + 2 sin(φ/2) >= 2`: well
    /// conditioned for a nearly flat edge (where `a + b` alone is, too) and for a nearly
    /// semicircular one (where `a + b` is a few ulps long). The half angle covers both ends
    /// and how far the stored normals are off that plane.
    fn new(v0: Vec3, v1: Vec3, n0: Vec3, n1: Vec3) -> GaussArc {
        const NO_CAP: (DVec3, f64, f64) = (DVec3::ZERO, 0.0, 1.0);
        let e = (v1.as_dvec3() - v0.as_dvec3()).normalize_or_zero();
        let (n0, n1) = (n0.as_dvec3(), n1.as_dvec3());
        let (a, b) = (
            (n0 - e * e.dot(n0)).normalize_or_zero(),
            (n1 - e * e.dot(n1)).normalize_or_zero(),
        );
        // How far the stored normals are off the arc's plane (radians).
        let tilt = e.dot(n0).abs().max(e.dot(n1).abs()).min(1.0).asin();
        let sum = a + b + e.cross(a) + b.cross(e);
        let (mid, cos_h, sin_h) = if e == DVec3::ZERO
            || a == DVec3::ZERO
            || b == DVec3::ZERO
            || tilt > 1e-3
            || sum.length() < 1.0
        {
            NO_CAP
        } else {
            let mid = sum.normalize();
            let h = mid.dot(a).min(mid.dot(b)).clamp(-1.0, 1.0).acos() + tilt;
            if h >= std::f64::consts::FRAC_PI_2 + 0.1 {
                NO_CAP
            } else {
                (mid, h.cos(), h.sin())
            }
        };
        GaussArc {
            normal: (-e).as_vec3(),
            mid: mid.as_vec3(),
            cos_h: cos_h as f32,
            sin_h: sin_h as f32,
        }
    }
}

/// The edge order and caps of [`ConvexHull::gauss_caps`].
#[derive(Clone, Debug)]
pub(crate) struct GaussClusters {
    order: Vec<u32>,
    caps: Vec<GaussCap>,
}

/// The edge order and caps of [`ConvexHull::gauss_caps`], in `f64`.
fn gauss_clusters(faces: &[HullFace], edges: &[HullEdge]) -> GaussClusters {
    let normal = |f: u32| {
        faces
            .get(f as usize)
            .map_or(DVec3::ZERO, |f| f.plane.normal.as_dvec3())
    };
    // Morton key of the arc's midpoint direction, 10 bits per axis over [-1, 1].
    let mid: Vec<DVec3> = edges
        .iter()
        .map(|e| (normal(e.faces[0]) + normal(e.faces[1])).normalize_or_zero())
        .collect();
    let q = |v: f64| ((v + 1.0) * 511.5).clamp(0.0, 1023.0) as u64;
    let key = |m: DVec3| morton3(q(m.x), q(m.y), q(m.z));
    let mut morton: Vec<u32> = (0..edges.len() as u32).collect();
    morton.sort_by_key(|&j| key(mid[j as usize]));
    // Greedy clusters: the first edge left in Morton order and the `GAUSS_CHUNK − 1` edges
    // left whose arc midpoints are nearest to it (O(E²), so only up to 1024 edges; bigger
    // hulls keep the plain Morton order).
    let order = if edges.len() <= 1024 {
        let mut taken = vec![false; edges.len()];
        let mut order = Vec::with_capacity(edges.len());
        let mut near: Vec<(f64, u32)> = Vec::with_capacity(edges.len());
        for &seed in &morton {
            if taken[seed as usize] {
                continue;
            }
            taken[seed as usize] = true;
            order.push(seed);
            let m = mid[seed as usize];
            near.clear();
            near.extend(
                (0..edges.len() as u32)
                    .filter(|&j| !taken[j as usize])
                    .map(|j| (-mid[j as usize].dot(m), j)),
            );
            let k = (GAUSS_CHUNK - 1).min(near.len());
            if k > 0 {
                near.select_nth_unstable_by(k - 1, |x, y| x.0.total_cmp(&y.0));
                near.truncate(k);
                near.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
            }
            for &(_, j) in &near {
                taken[j as usize] = true;
                order.push(j);
            }
        }
        order
    } else {
        morton
    };
    let caps = order
        .chunks(GAUSS_CHUNK)
        .map(|chunk| {
            let ends = chunk
                .iter()
                .flat_map(|&j| edges[j as usize].faces.map(normal));
            let centre = ends.clone().sum::<DVec3>().normalize_or_zero();
            // The arcs are the short ones between their ends, so a cap under 90° holding
            // the ends holds the arcs. A margin covers the rounding of the stored centre.
            let min_cos = ends.map(|n| n.dot(centre)).fold(1.0, f64::min);
            let r = min_cos.clamp(-1.0, 1.0).acos() + 1e-5;
            if centre == DVec3::ZERO || r >= 1.4 {
                GaussCap {
                    centre: Vec3::X,
                    sin_r: 2.0,
                    cos_r: -2.0,
                }
            } else {
                GaussCap {
                    centre: centre.as_vec3(),
                    sin_r: r.sin() as f32,
                    cos_r: r.cos() as f32,
                }
            }
        })
        .collect();
    GaussClusters { order, caps }
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

/// The next hull identity (0 is never given out: it means "no hull" in caches).
fn next_hull_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A triangle of the hull under construction.
#[derive(Clone, Debug)]
struct Tri {
    v: [usize; 3],
    /// Neighbour across edge `v[i] → v[i+1]`.
    nb: [usize; 3],
    n: DVec3,
    d: f64,
    outside: Vec<usize>,
    /// Points within `eps` of the hull near this face (Barber et al.'s "coplanar points"):
    /// rechecked when the face is replaced and at the end, since a later face beside a sharp
    /// edge can leave them outside.
    near: Vec<usize>,
    alive: bool,
}

impl Tri {
    fn dist(&self, p: DVec3) -> f64 {
        self.n.dot(p) - self.d
    }
}

/// Unit normal and offset of triangle `(a, b, c)`, counter-clockwise seen from the normal.
///
/// The cross product is taken at the vertex opposite the longest edge (the largest angle), whose
/// relative error is smallest: `|δn| / |n| ≈ ε_64 · L / h` for base `L` and height `h`.
fn tri_plane(a: DVec3, b: DVec3, c: DVec3) -> Option<(DVec3, f64)> {
    let (ab, bc, ca) = (b - a, c - b, a - c);
    let (lab, lbc, lca) = (
        ab.length_squared(),
        bc.length_squared(),
        ca.length_squared(),
    );
    // Largest angle is opposite the longest edge; cross the two edges leaving that vertex.
    let n = if lab >= lbc && lab >= lca {
        // opposite c: edges c→a and c→b; (a - c) × (b - c) has the same orientation as ab × ac.
        (a - c).cross(b - c)
    } else if lbc >= lca {
        // opposite a.
        ab.cross(c - a)
    } else {
        // opposite b: (c - b) × (a - b).
        bc.cross(a - b)
    };
    let n = n.try_normalize()?;
    let d = n.dot((a + b + c) / 3.0);
    Some((n, d))
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
        let pts: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
        let mut max_abs = DVec3::ZERO;
        for p in &pts {
            max_abs = max_abs.max(p.abs());
        }
        let scale = max_abs.x + max_abs.y + max_abs.z;
        // Gregorius 2014: the f32 resolution of coordinates of this magnitude.
        let eps = 3.0 * f64::from(f32::EPSILON) * scale;
        let tolerance = eps as f32;
        if scale == 0.0 {
            return Err(HullError::Coincident { tolerance });
        }
        let simplex = initial_simplex(&pts, eps, tolerance)?;
        let (tris, repaired) = quickhull(&pts, simplex, eps)?;
        let hull = build_polygons(&pts, &tris, eps);
        // Hardening (issue 9, fuzz target `hull`): the simplex test above measures the fourth
        // point's height over the plane of the first three, but merging measures every vertex
        // against the plane of the *largest* face, over which a tetrahedron has its smallest
        // height. Tetrahedra whose smallest height is within `eps` (found by the fuzzer with
        // coordinates spanning 1e-40..1e-33 and 1e-38..1e25) therefore passed the simplex test
        // and then merged two triangles into one polygon: 4 vertices, 3 faces, not a closed
        // polytope. Merging put every vertex of the hull within `eps` of one plane, so the
        // input is coplanar within the tolerance: say so.
        if hull.faces.len() < 4 {
            return Err(HullError::Coplanar { tolerance });
        }
        // Safety net (issue 9, fuzz target `hull`): needle-like clouds with a huge spread of
        // magnitudes (one point at 3e25, the rest within ~40·eps of a line at 5e20) still
        // produce non-convex or non-manifold triangulations; a hull that breaks its own
        // invariants must never reach a caller (SAT, GJK and the manifold builder assume
        // them). O(V·F), small next to building the hull. The underlying Quickhull weakness
        // is open: see docs/degenerate-input.md.
        if hull.validate().is_err() {
            return Err(HullError::Unstable);
        }
        // Second safety net (issue 9): every input point must be inside the final (f32) hull
        // within the documented `3 · tolerance`, else `Unstable`.
        // - Merging coplanar triangles tilts a polygon's plane by up to `eps` over the
        //   polygon, which a needle's length can amplify far beyond `eps` at its tip. When
        //   Quickhull kept its invariant, every input point is within `eps` of the
        //   triangulated hull, so it suffices to check the triangulation's vertices and the
        //   points kept near its faces (the rest are more than `eps` inside the
        //   triangulation, whose vertices are inside): O((V + near) · F), small.
        // - After a convexity repair (rare: near-coplanar eyes) that argument fails (the
        //   fuzzer found needle clouds at 5e20 leaving points 2e5·eps outside), so every
        //   point is checked: O(n · F), like building the hull once more.
        //   Points within the ball inscribed about the vertex centroid are inside and skipped
        //   (most of a solid cloud).
        let bound = 3.0 * tolerance;
        let inside = |i: usize| hull.contains_point(points[i], bound);
        let ok = if repaired {
            // In f64: squares of coordinates near 1e20 overflow f32.
            let c = hull.vertex_centroid();
            let r_in = f64::from(-hull.signed_distance_bound(c));
            let r2 = if r_in > 0.0 { r_in * r_in } else { -1.0 };
            let c = c.as_dvec3();
            (0..points.len()).all(|i| pts[i].distance_squared(c) <= r2 || inside(i))
        } else {
            tris.iter()
                .filter(|t| t.alive)
                .all(|t| t.v.iter().all(|&i| inside(i)) && t.near.iter().all(|&i| inside(i)))
        };
        if !ok {
            return Err(HullError::Unstable);
        }
        Ok(hull)
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

    /// Index of a vertex maximising `dir · v`, by hill climbing on the vertex graph from
    /// `start` (vertex 0 when `start` is out of range).
    ///
    /// Each step moves to the neighbour with the largest `dir · v` if it is strictly larger
    /// than the current one, so the walk ends. On a convex polytope whose vertices are all
    /// corners, `dir · x` has no local maximum on the vertex graph other than the global one
    /// (the edges at a corner span its tangent cone, so a corner that is not a maximiser has a
    /// strictly better neighbour). Hull vertices are input points kept within the tolerance,
    /// so a vertex can sit in the middle of a (nearly) straight edge chain: its edges then miss
    /// the direction into the flat face, and the walk can stop there well below the maximum
    /// (found by `tests/sat_hill_climb.rs` on a teddy piece: 4.4e-4 short). So when the walk
    /// stops with a neighbour within `8 · tolerance · |dir|` of the current value (a plateau
    /// or near-plateau), the answer is taken from a brute-force scan of all vertices instead.
    /// The result is then exact up to the hull's own convexity tolerance. A NaN direction
    /// stops at `start` (no comparison is true). Lander 1999 (walking the cached vertex);
    /// Ericson, RTCD §9.5.2 (hill climbing).
    #[must_use]
    pub fn support_hill_climb(&self, dir: Vec3, start: u32) -> u32 {
        self.support_climb(dir, start).0
    }

    /// [`ConvexHull::support_hill_climb`] returning the maximising vertex and `dir · v` there
    /// (NaN for a NaN direction).
    ///
    /// One pass per step: the last step's neighbour values also decide the near-plateau test,
    /// so a walk that starts at the maximiser (the warm case) reads each neighbour once.
    #[inline]
    pub(crate) fn support_climb(&self, dir: Vec3, start: u32) -> (u32, f32) {
        let verts = &self.vertices[..];
        let mut cur = if (start as usize) < verts.len() {
            start
        } else {
            0
        };
        let Some(&v0) = verts.get(cur as usize) else {
            return (0, f32::NAN);
        };
        let mut best = dir.dot(v0);
        // Every step strictly increases `best`, so no vertex is visited twice; the bound only
        // documents that.
        for _ in 0..verts.len() {
            let mut next = cur;
            // Largest neighbour value; on the last step (no better neighbour) it is the
            // runner-up the near-plateau test needs.
            let mut runner_up = f32::NEG_INFINITY;
            for &n in self.neighbours(cur as usize) {
                let h = verts.get(n as usize).map_or(f32::NAN, |v| dir.dot(*v));
                if h > best {
                    best = h;
                    next = n;
                }
                // (A plain comparison: cheaper than `f32::max`'s NaN rules; a NaN never wins.)
                if h > runner_up {
                    runner_up = h;
                }
            }
            if next != cur {
                cur = next;
                continue;
            }
            // Stopped. Near-plateau: a redundant (collinear or coplanar) vertex may hide a
            // better one; settle it by the brute-force maximum.
            let slack = 8.0 * self.tolerance * dir.length();
            if runner_up >= best - slack {
                for (k, v) in verts.iter().enumerate() {
                    let h = dir.dot(*v);
                    if h > best {
                        best = h;
                        cur = k as u32;
                    }
                }
            }
            break;
        }
        (cur, best)
    }

    /// How far a query direction may move from `dir` with vertex `v` (which maximises `dir · x`
    /// with value `best`, as [`ConvexHull::support_climb`] returned them) still the clean
    /// answer of the walk: `v` stays the maximiser for every `dir'` with `|dir' − dir| <`
    /// the returned reach. `0` when there is no such margin (a near-tie, a NaN direction).
    ///
    /// Derivation: for a neighbour `u` at distance `L = |v − u|` with computed gap
    /// `g = best − dir · u`, `dir' · (v − u) >= dir · (v − u) − |dir' − dir| L`. The walk at
    /// `dir'` stops at `v` without its near-plateau scan when every computed gap exceeds its
    /// slack `8 τ |dir'|` (τ the hull's tolerance). Each `f32` dot product is within `τ |d|`
    /// of the real one (τ is `3 ε` times the sum of the coordinate magnitudes), so with
    /// `δ = |dir' − dir|` it suffices that `g − 2 τ |dir| − δ L > 10 τ (|dir| + δ)`; with
    /// room for the rounding of the slack and of this formula, `δ < (g − 16 τ |dir|) /
    /// (L + 12 τ)`, and the minimum over the neighbours, shrunk by 1%, is the reach. On a convex hull a vertex with no
    /// better neighbour is the maximiser (see [`ConvexHull::support_hill_climb`]), so `v` is
    /// what the walk returns, from any start, for every direction within the reach.
    #[must_use]
    pub(crate) fn support_reach(&self, dir: Vec3, v: u32, best: f32) -> f32 {
        let Some(&pv) = self.vertices.get(v as usize) else {
            return 0.0;
        };
        let tau = self.tolerance;
        let len = dir.length();
        let mut reach = f32::INFINITY;
        for &n in self.neighbours(v as usize) {
            let Some(&u) = self.vertices.get(n as usize) else {
                return 0.0;
            };
            let r = (best - dir.dot(u) - 16.0 * tau * len) / ((pv - u).length() + 12.0 * tau);
            // Also a NaN (NaN direction or overflow): no margin.
            if r.is_nan() || r <= 0.0 {
                return 0.0;
            }
            reach = reach.min(r);
        }
        if reach.is_finite() {
            0.99 * reach
        } else {
            0.0
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

    /// The Gauss-map clusters, built on first use.
    #[inline]
    fn gauss(&self) -> &GaussClusters {
        self.gauss
            .get_or_init(|| gauss_clusters(&self.faces, &self.edges))
    }

    /// The edge indices ordered so that consecutive edges have nearby Gauss-map arcs.
    #[inline]
    pub(crate) fn gauss_order(&self) -> &[u32] {
        &self.gauss().order
    }

    /// One [`GaussCap`] per [`GAUSS_CHUNK`] edges of [`ConvexHull::gauss_order`].
    #[inline]
    pub(crate) fn gauss_caps(&self) -> &[GaussCap] {
        &self.gauss().caps
    }

    /// Each edge's [`GaussArc`], by edge index, built on first use.
    #[inline]
    pub(crate) fn gauss_arcs(&self) -> &[GaussArc] {
        self.arcs.get_or_init(|| {
            let normal = |f: u32| {
                self.faces
                    .get(f as usize)
                    .map_or(Vec3::ZERO, |f| f.plane.normal)
            };
            let vertex = |v: u32| self.vertices.get(v as usize).copied().unwrap_or(Vec3::ZERO);
            self.edges
                .iter()
                .map(|e| {
                    GaussArc::new(
                        vertex(e.vertices[0]),
                        vertex(e.vertices[1]),
                        normal(e.faces[0]),
                        normal(e.faces[1]),
                    )
                })
                .collect()
        })
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
        self.signed_distance_bound(p) <= tolerance
    }

    /// Mean of the vertices (strictly inside the hull, which has volume).
    #[must_use]
    pub fn vertex_centroid(&self) -> Vec3 {
        let sum: DVec3 = self.vertices.iter().map(|v| v.as_dvec3()).sum();
        (sum / self.vertices.len() as f64).as_vec3()
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

    /// Checks every invariant, returning the first violation found.
    ///
    /// Closed 2-manifold with consistent winding (every directed edge once, its reverse once),
    /// every vertex used, polygons of at least 3 distinct vertices, unit normals agreeing with
    /// the winding, faces flat and every vertex below every face plane within
    /// `2 · tolerance + 1e-6 · scale`, the edge list matching the faces, and Euler's formula
    /// `V − E + F = 2`.
    pub fn validate(&self) -> Result<(), String> {
        let nv = self.vertices.len();
        let nf = self.faces.len();
        if nv < 4 || nf < 4 {
            return Err(format!("too small: {nv} vertices, {nf} faces"));
        }
        if let Some(i) = self.vertices.iter().position(|v| !v.is_finite()) {
            return Err(format!("vertex {i} is not finite"));
        }
        let scale = self
            .vertices
            .iter()
            .fold(0.0_f32, |m, v| m.max(v.abs().max_element()));
        let tol = 2.0 * self.tolerance + 1e-6 * scale;
        let mut used = vec![false; nv];
        let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
        for f in 0..nf {
            let face = self.faces[f];
            if face.count < 3 {
                return Err(format!("face {f} has {} vertices", face.count));
            }
            if (face.first + face.count) as usize > self.face_indices.len() {
                return Err(format!("face {f} indexes past the index list"));
            }
            let idx = self.face_vertices(f);
            let n = face.plane.normal;
            if !n.is_finite() || (n.length() - 1.0).abs() > 1e-4 {
                return Err(format!("face {f} normal {n} is not unit length"));
            }
            let mut newell = DVec3::ZERO;
            for (k, &a) in idx.iter().enumerate() {
                let b = idx[(k + 1) % idx.len()];
                if a as usize >= nv {
                    return Err(format!("face {f} uses vertex {a} out of range"));
                }
                if idx.iter().filter(|&&x| x == a).count() > 1 {
                    return Err(format!("face {f} repeats vertex {a}"));
                }
                used[a as usize] = true;
                if directed.insert((a, b), f as u32).is_some() {
                    return Err(format!("directed edge {a}->{b} appears twice"));
                }
                let (pa, pb) = (
                    self.vertices[a as usize].as_dvec3(),
                    self.vertices[b as usize].as_dvec3(),
                );
                newell += pa.cross(pb);
                let dist = face.plane.signed_distance(self.vertices[a as usize]);
                if dist.abs() > tol {
                    return Err(format!(
                        "face {f} is not flat: vertex {a} is {dist} from its plane (tol {tol})"
                    ));
                }
            }
            if newell.dot(n.as_dvec3()) <= 0.0 {
                return Err(format!("face {f} winding disagrees with its normal"));
            }
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(format!("vertex {i} is used by no face"));
        }
        for &(a, b) in directed.keys() {
            if !directed.contains_key(&(b, a)) {
                return Err(format!(
                    "edge {a}->{b} has no opposite: the hull is not closed"
                ));
            }
        }
        let ne = directed.len() / 2;
        if self.edges.len() != ne {
            return Err(format!(
                "edge list has {} edges, the faces have {ne}",
                self.edges.len()
            ));
        }
        for (i, e) in self.edges.iter().enumerate() {
            let [a, b] = e.vertices;
            if directed.get(&(a, b)) != Some(&e.faces[0])
                || directed.get(&(b, a)) != Some(&e.faces[1])
            {
                return Err(format!("edge {i} does not match the faces beside it"));
            }
        }
        let euler = nv as i64 - ne as i64 + nf as i64;
        if euler != 2 {
            return Err(format!("Euler characteristic V - E + F = {euler}, not 2"));
        }
        for (f, face) in self.faces.iter().enumerate() {
            for (i, v) in self.vertices.iter().enumerate() {
                let dist = face.plane.signed_distance(*v);
                if dist > tol {
                    return Err(format!(
                        "not convex: vertex {i} is {dist} above face {f} (tol {tol})"
                    ));
                }
            }
        }
        Ok(())
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

/// Four points spanning a volume, as indices, or the error saying why none exist.
fn initial_simplex(pts: &[DVec3], eps: f64, tolerance: f32) -> Result<[usize; 4], HullError> {
    // The extreme points along each axis; the farthest pair of them is the first edge.
    let mut ext = [0usize; 6];
    for (i, p) in pts.iter().enumerate() {
        for k in 0..3 {
            if p[k] < pts[ext[2 * k]][k] {
                ext[2 * k] = i;
            }
            if p[k] > pts[ext[2 * k + 1]][k] {
                ext[2 * k + 1] = i;
            }
        }
    }
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    for &a in &ext {
        for &b in &ext {
            let d = pts[a].distance_squared(pts[b]);
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    if best.sqrt() <= eps {
        return Err(HullError::Coincident { tolerance });
    }
    // Farthest point from the line i0 i1: |(p - a) × u| with u the unit direction.
    let (a, u) = (pts[i0], (pts[i1] - pts[i0]).normalize());
    let (mut i2, mut best) = (0, -1.0);
    for (i, p) in pts.iter().enumerate() {
        let d = (*p - a).cross(u).length_squared();
        if d > best {
            (i2, best) = (i, d);
        }
    }
    if best.sqrt() <= eps {
        return Err(HullError::Collinear { tolerance });
    }
    // Farthest point from the plane i0 i1 i2.
    let Some((n, d)) = tri_plane(pts[i0], pts[i1], pts[i2]) else {
        return Err(HullError::Collinear { tolerance });
    };
    let (mut i3, mut best) = (0, -1.0);
    for (i, p) in pts.iter().enumerate() {
        let dist = (n.dot(*p) - d).abs();
        if dist > best {
            (i3, best) = (i, dist);
        }
    }
    if best <= eps {
        return Err(HullError::Coplanar { tolerance });
    }
    Ok([i0, i1, i2, i3])
}

/// Runs Quickhull from the simplex; returns the triangles (dead ones flagged).
/// The triangulated hull, and whether the convexity repair ever removed a face the eye was
/// not clearly above (then Barber et al.'s guarantee for dropped points does not hold).
fn quickhull(pts: &[DVec3], s: [usize; 4], eps: f64) -> Result<(Vec<Tri>, bool), HullError> {
    let eps_vis = eps / 64.0;
    // Orient the tetrahedron so that s[3] is below the plane of (s[0], s[1], s[2]).
    let (n, d) = tri_plane(pts[s[0]], pts[s[1]], pts[s[2]]).ok_or(HullError::Unstable)?;
    let [a, b, c, t] = if n.dot(pts[s[3]]) - d > 0.0 {
        [s[0], s[2], s[1], s[3]]
    } else {
        s
    };
    // Faces (CCW from outside): abc, then for each edge of abc reversed, with the apex t.
    // Face 0 = (a,b,c); face 1 = (b,a,t); face 2 = (c,b,t); face 3 = (a,c,t).
    let verts = [[a, b, c], [b, a, t], [c, b, t], [a, c, t]];
    // Neighbours across v[i] → v[i+1].
    let nbs = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
    let mut tris: Vec<Tri> = Vec::with_capacity(64);
    for (v, nb) in verts.iter().zip(nbs) {
        let (n, d) = tri_plane(pts[v[0]], pts[v[1]], pts[v[2]]).ok_or(HullError::Unstable)?;
        tris.push(Tri {
            v: *v,
            nb,
            n,
            d,
            outside: Vec::new(),
            near: Vec::new(),
            alive: true,
        });
    }
    // Each remaining point goes to the face it is farthest above: to its outside set if more
    // than eps, to its near set if within eps; points more than eps inside are done with.
    for i in 0..pts.len() {
        if !s.contains(&i) {
            assign(&mut tris, 0, pts, i, eps, false);
        }
    }
    let mut pending: Vec<usize> = (0..4).filter(|&f| !tris[f].outside.is_empty()).collect();
    // Per-face marks of the current iteration: 1 = visible, 2 = not visible.
    let mut stamp: Vec<(usize, u8)> = vec![(usize::MAX, 0); tris.len()];
    let mut horizon: Vec<(usize, usize, usize)> = Vec::new();
    let mut visible: Vec<usize> = Vec::new();
    let mut stack: Vec<(usize, usize, usize)> = Vec::new();
    // Per-face mark of the depth-first pass that reached it.
    let mut dfs: Vec<usize> = vec![0; tris.len()];
    let (mut iter, mut pass) = (0usize, 0usize);
    let mut repaired_any = false;
    // Every iteration adds a vertex; a hull of n points needs at most n of them, and the near
    // recheck can only re-add points, so a run far past that is a numerical cycle: give up.
    let max_iter = 4 * pts.len() + 64;
    loop {
        while let Some(f0) = pending.pop() {
            if !tris[f0].alive || tris[f0].outside.is_empty() {
                continue;
            }
            iter += 1;
            if iter > max_iter {
                return Err(HullError::Unstable);
            }
            // The eye: the point farthest above the face.
            let (mut eye, mut far) = (usize::MAX, f64::NEG_INFINITY);
            for &i in &tris[f0].outside {
                let dist = tris[f0].dist(pts[i]);
                if dist > far {
                    (eye, far) = (i, dist);
                }
            }
            let pe = pts[eye];
            // Ordered depth-first search of the visible faces; the horizon comes out as a
            // counter-clockwise loop of edges (a, b, face beyond) when the visible set is a disk.
            // Then every new face (a, b, eye) must make a convex edge with the face beyond: if that
            // face's third vertex is not clearly below the new face (the eye is on or barely above
            // the face beyond, or round-off folded it), the face beyond is visible too and the
            // search runs again. This keeps the triangulation strictly convex (Gregorius 2014).
            stamp.resize(tris.len(), (usize::MAX, 0));
            dfs.resize(tris.len(), 0);
            stamp[f0] = (iter, 1);
            // Whether the convexity repair removed a face the eye is not clearly above.
            let mut repaired = false;
            loop {
                pass += 1;
                horizon.clear();
                visible.clear();
                stack.clear();
                dfs[f0] = pass;
                visible.push(f0);
                stack.push((f0, 0, 0));
                while let Some(top) = stack.last_mut() {
                    let (f, entry, k) = *top;
                    if k == 3 {
                        stack.pop();
                        continue;
                    }
                    top.2 += 1;
                    let e = (entry + k) % 3;
                    let g = tris[f].nb[e];
                    if dfs[g] == pass {
                        continue;
                    }
                    let vis = if stamp[g].0 == iter {
                        stamp[g].1 == 1
                    } else {
                        let vis = tris[g].dist(pe) > eps_vis;
                        stamp[g] = (iter, if vis { 1 } else { 2 });
                        vis
                    };
                    let (ea, eb) = (tris[f].v[e], tris[f].v[(e + 1) % 3]);
                    if vis {
                        dfs[g] = pass;
                        visible.push(g);
                        // Enter g through its copy of the edge (b → a).
                        let Some(eg) =
                            (0..3).find(|&j| tris[g].v[j] == eb && tris[g].v[(j + 1) % 3] == ea)
                        else {
                            return Err(HullError::Unstable);
                        };
                        stack.push((g, eg, 0));
                    } else {
                        horizon.push((ea, eb, g));
                    }
                }
                let mut grew = false;
                for &(ha, hb, g) in &horizon {
                    let c = tris[g].v.iter().copied().find(|&v| v != ha && v != hb);
                    // Convex when c is below the new face. Only faces the eye is not clearly
                    // below may be removed: that bounds how far the hull can retreat (eps / 64).
                    let convex = match (c, tri_plane(pts[ha], pts[hb], pe)) {
                        (Some(c), Some((n, d))) => n.dot(pts[c]) - d < 0.0,
                        _ => false,
                    };
                    if !convex && tris[g].dist(pe) > -eps_vis {
                        stamp[g] = (iter, 1);
                        grew = true;
                    }
                }
                if !grew {
                    break;
                }
                repaired = true;
                repaired_any = true;
            }
            // The horizon must be one simple closed loop.
            let nh = horizon.len();
            let simple = nh >= 3 && (0..nh).all(|i| horizon[i].1 == horizon[(i + 1) % nh].0) && {
                let mut starts: Vec<usize> = horizon.iter().map(|h| h.0).collect();
                starts.sort_unstable();
                starts.windows(2).all(|w| w[0] != w[1])
            };
            if !simple {
                return Err(HullError::Unstable);
            }
            // New faces (a, b, eye), linked to the face beyond the horizon and to each other.
            let base = tris.len();
            for (i, &(ha, hb, g)) in horizon.iter().enumerate() {
                let (n, d) = tri_plane(pts[ha], pts[hb], pe).ok_or(HullError::Unstable)?;
                let next = base + (i + 1) % nh;
                let prev = base + (i + nh - 1) % nh;
                tris.push(Tri {
                    v: [ha, hb, eye],
                    nb: [g, next, prev],
                    n,
                    d,
                    outside: Vec::new(),
                    near: Vec::new(),
                    alive: true,
                });
                let Some(j) = (0..3).find(|&j| tris[g].v[j] == hb && tris[g].v[(j + 1) % 3] == ha)
                else {
                    return Err(HullError::Unstable);
                };
                tris[g].nb[j] = base + i;
            }
            // Hand the visible faces' points to the new faces (Barber et al.: a point above a
            // removed face and outside the new hull is above one of the new faces).
            let mut orphans: Vec<usize> = Vec::new();
            for &f in &visible {
                tris[f].alive = false;
                orphans.append(&mut tris[f].outside);
                orphans.append(&mut tris[f].near);
            }
            // Hardening (issue 9, fuzz target `hull`): the convexity repair above may remove a
            // face the eye is barely below, so the removed region can swallow a vertex whose
            // every face was removed although it lies well outside the new hull (a needle cloud
            // at 5e20 lost a vertex 174·eps outside this way). In exact arithmetic the
            // vertices inside the visible region are inside the new hull; here they are
            // reassigned like any orphan and come back if they are above a new face.
            let swallowed = orphans.len();
            for &f in &visible {
                for v in tris[f].v {
                    if v != eye && !horizon.iter().any(|h| h.0 == v) {
                        orphans.push(v);
                    }
                }
            }
            // Visible faces share vertices: each swallowed vertex once (a hull vertex is in no
            // outside or near set, so only the tail can hold duplicates).
            orphans[swallowed..].sort_unstable();
            let mut k = swallowed;
            for j in swallowed..orphans.len() {
                if k == swallowed || orphans[j] != orphans[k - 1] {
                    orphans[k] = orphans[j];
                    k += 1;
                }
            }
            orphans.truncate(k);
            // After a repair the new faces may sit below a removed face's points without those
            // points being inside the new hull (Barber et al.'s argument assumes the exact
            // visible set): keep them as near points, rechecked against every face at the end.
            for i in orphans {
                if i != eye {
                    assign(&mut tris, base, pts, i, eps, repaired);
                }
            }
            pending.extend((base..tris.len()).filter(|&f| !tris[f].outside.is_empty()));
        }
        // A near point may have ended up more than eps above a face built later (near a sharp
        // edge the plane distances understate the distance to the hull): check each against
        // every face when that costs at most ~1e8 plane tests, else hill-climb from its own
        // face; resume the hull with any point found more than eps outside.
        let alive: Vec<usize> = (0..tris.len()).filter(|&f| tris[f].alive).collect();
        let n_near: usize = alive.iter().map(|&f| tris[f].near.len()).sum();
        let brute = n_near.saturating_mul(alive.len()) <= 100_000_000;
        for &f in &alive {
            if tris[f].near.is_empty() {
                continue;
            }
            let near = std::mem::take(&mut tris[f].near);
            for i in near {
                let p = pts[i];
                let (mut best, mut at) = (tris[f].dist(p), f);
                if brute {
                    for &g in &alive {
                        let dist = tris[g].dist(p);
                        if dist > best {
                            (best, at) = (dist, g);
                        }
                    }
                } else {
                    loop {
                        let mut moved = false;
                        for g in tris[at].nb {
                            let dist = tris[g].dist(p);
                            if dist > best {
                                (best, at, moved) = (dist, g, true);
                            }
                        }
                        if !moved {
                            break;
                        }
                    }
                }
                if best > eps {
                    tris[at].outside.push(i);
                    pending.push(at);
                } else {
                    tris[f].near.push(i);
                }
            }
        }
        if pending.is_empty() {
            break;
        }
    }
    Ok((tris, repaired_any))
}

/// Puts point `i` in the outside or near set of the face among `tris[first..]` it is farthest
/// above (alive faces only), or drops it when it is more than `eps` inside all of them.
/// With `keep`, a point more than `eps` inside goes to the near set instead of being dropped.
fn assign(tris: &mut [Tri], first: usize, pts: &[DVec3], i: usize, eps: f64, keep: bool) {
    let mut best = (f64::NEG_INFINITY, usize::MAX);
    for (f, tri) in tris.iter().enumerate().skip(first) {
        if !tri.alive {
            continue;
        }
        let dist = tri.dist(pts[i]);
        if dist > best.0 {
            best = (dist, f);
        }
    }
    if best.1 == usize::MAX || (best.0 <= -eps && !keep) {
        return;
    }
    if best.0 > eps {
        tris[best.1].outside.push(i);
    } else {
        tris[best.1].near.push(i);
    }
}

/// Merges coplanar triangles into polygons, drops mid-edge vertices, converts to `f32`.
fn build_polygons(pts: &[DVec3], tris: &[Tri], eps: f64) -> ConvexHull {
    let alive: Vec<usize> = (0..tris.len()).filter(|&f| tris[f].alive).collect();
    // Seeds in order of decreasing area, so big flat regions take their slivers.
    let area = |f: usize| {
        let [a, b, c] = tris[f].v;
        (pts[b] - pts[a]).cross(pts[c] - pts[a]).length()
    };
    let mut order = alive.clone();
    order.sort_by(|&x, &y| area(y).total_cmp(&area(x)));
    let mut region = vec![usize::MAX; tris.len()];
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    let mut members: Vec<usize> = Vec::new();
    for &seed in &order {
        if region[seed] != usize::MAX {
            continue;
        }
        let r = polygons.len();
        let (n, d) = (tris[seed].n, tris[seed].d);
        members.clear();
        members.push(seed);
        region[seed] = r;
        let mut k = 0;
        while k < members.len() {
            let f = members[k];
            k += 1;
            for &g in &tris[f].nb {
                if region[g] != usize::MAX || tris[g].n.dot(n) <= 0.0 {
                    continue;
                }
                if tris[g].v.iter().all(|&v| (n.dot(pts[v]) - d).abs() <= eps) {
                    region[g] = r;
                    members.push(g);
                }
            }
        }
        // Boundary loop: the members' edges whose neighbour is outside the region.
        let mut next: HashMap<usize, usize> = HashMap::new();
        let mut pinched = false;
        for &f in &members {
            for e in 0..3 {
                if region[tris[f].nb[e]] != r {
                    pinched |= next.insert(tris[f].v[e], tris[f].v[(e + 1) % 3]).is_some();
                }
            }
        }
        let mut lp = Vec::with_capacity(next.len());
        if !pinched {
            let start = tris[members[0]].v[0];
            // The smallest key, not the first in the map's (randomly seeded) order: the same
            // points must give the same hull every time.
            let start = if next.contains_key(&start) {
                start
            } else {
                next.keys().copied().min().unwrap_or(start)
            };
            let mut v = start;
            while lp.len() <= next.len() {
                lp.push(v);
                match next.get(&v) {
                    Some(&w) if w != start => v = w,
                    Some(_) => break,
                    None => {
                        pinched = true;
                        break;
                    }
                }
            }
        }
        if pinched || lp.len() != next.len() || lp.len() < 3 {
            // Not a disk (round-off made a ring or a pinch): keep the triangles as faces.
            for (j, &f) in members.iter().enumerate() {
                let rr = if j == 0 { r } else { polygons.len() };
                region[f] = rr;
                polygons.push(tris[f].v.to_vec());
            }
        } else {
            polygons.push(lp);
        }
    }
    // Vertices with only two faces lie in the middle of an edge: drop them.
    let mut degree: HashMap<usize, u32> = HashMap::new();
    for p in &polygons {
        for &v in p {
            *degree.entry(v).or_insert(0) += 1;
        }
    }
    // In vertex order: dropping one can decide whether another's polygons still have more
    // than three vertices, so the map's (randomly seeded) order made the result vary.
    let mut mid_edge: Vec<usize> = degree
        .iter()
        .filter(|&(_, &c)| c == 2)
        .map(|(&v, _)| v)
        .collect();
    mid_edge.sort_unstable();
    for v in mid_edge {
        let holders: Vec<usize> = (0..polygons.len())
            .filter(|&p| polygons[p].contains(&v))
            .collect();
        // Hardening note (issue 9): at the tip of a flat needle two nearly opposite
        // polygons can meet at a vertex far from the segment joining its neighbours, and
        // dropping it cuts the tip off; the containment check in `try_new` turns that into
        // `Unstable`. (Judging by the polygons' normals here misfires on sliver polygons,
        // whose Newell normals are arbitrary.)
        if holders.len() == 2 && holders.iter().all(|&p| polygons[p].len() > 3) {
            for p in holders {
                polygons[p].retain(|&w| w != v);
            }
        }
    }
    // Compact the vertex indices; planes from Newell's normal, offset through the farthest
    // vertex so every polygon vertex is on or below its plane.
    let mut remap: HashMap<usize, u32> = HashMap::new();
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut faces = Vec::with_capacity(polygons.len());
    let mut face_indices = Vec::new();
    for p in &polygons {
        let mut newell = DVec3::ZERO;
        for (k, &a) in p.iter().enumerate() {
            newell += pts[a].cross(pts[p[(k + 1) % p.len()]]);
        }
        let n = newell.normalize_or_zero().as_vec3().normalize_or_zero();
        let d = p
            .iter()
            .map(|&v| n.as_dvec3().dot(pts[v]))
            .fold(f64::NEG_INFINITY, f64::max);
        let first = face_indices.len() as u32;
        for &v in p {
            let idx = *remap.entry(v).or_insert_with(|| {
                vertices.push(pts[v].as_vec3());
                (vertices.len() - 1) as u32
            });
            face_indices.push(idx);
        }
        faces.push(HullFace {
            plane: Plane {
                normal: n,
                d: -(d as f32),
            },
            first,
            count: p.len() as u32,
        });
    }
    let mut edge_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut edges: Vec<HullEdge> = Vec::new();
    for (f, face) in faces.iter().enumerate() {
        let idx = &face_indices[face.first as usize..(face.first + face.count) as usize];
        for (k, &a) in idx.iter().enumerate() {
            let b = idx[(k + 1) % idx.len()];
            if let Some(&e) = edge_of.get(&(b, a)) {
                edges[e].faces[1] = f as u32;
            } else {
                edge_of.insert((a, b), edges.len());
                edges.push(HullEdge {
                    vertices: [a, b],
                    faces: [f as u32, u32::MAX],
                });
            }
        }
    }
    // Vertex adjacency (compressed rows) from the unique edges, for hill-climbing support.
    let mut degree = vec![0u32; vertices.len() + 1];
    for e in &edges {
        degree[e.vertices[0] as usize + 1] += 1;
        degree[e.vertices[1] as usize + 1] += 1;
    }
    for k in 1..degree.len() {
        degree[k] += degree[k - 1];
    }
    let neighbour_start = degree;
    let mut fill = neighbour_start.clone();
    let mut neighbours = vec![0u32; 2 * edges.len()];
    for e in &edges {
        let [a, b] = e.vertices;
        neighbours[fill[a as usize] as usize] = b;
        fill[a as usize] += 1;
        neighbours[fill[b as usize] as usize] = a;
        fill[b as usize] += 1;
    }
    // A ball inside the hull for cheap bounds (SAT skips face planes that cannot beat the
    // best one): about the vertex mean, whose distance to every face plane is at least the
    // radius. The face planes bound the hull only to within its tolerance, so the radius is
    // shrunk by 16 `eps` (and is 0 for a hull thinner than that).
    let centroid = vertices.iter().map(|v| v.as_dvec3()).sum::<DVec3>() / vertices.len() as f64;
    let inner = faces
        .iter()
        .map(|f| -(f.plane.normal.as_dvec3().dot(centroid) + f64::from(f.plane.d)))
        .fold(f64::INFINITY, f64::min);
    ConvexHull {
        id: next_hull_id(),
        vertices,
        faces,
        face_indices,
        edges,
        tolerance: eps as f32,
        neighbour_start,
        neighbours,
        gauss: OnceLock::new(),
        arcs: OnceLock::new(),
        centroid: centroid.as_vec3(),
        inner_radius: (inner - 16.0 * eps).max(0.0) as f32,
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
    fn support_reach_keeps_the_maximiser() {
        // Directions within the reach of a walk's answer have that vertex as their brute-force
        // maximiser, and a walk from anywhere returns its value.
        let mut g = collide_testkit::Gen::new(0x7e4c);
        for hull in [
            ConvexHull::try_new(&fibonacci_sphere(300, Vec3::ONE)).unwrap(),
            ConvexHull::try_new(&fibonacci_sphere(60, Vec3::new(3.0, 0.2, 1.0))).unwrap(),
        ] {
            let verts = hull.vertices();
            let mut with_reach = 0;
            for _ in 0..400 {
                let dir = g.unit();
                let (v, h) = hull.support_climb(dir, 0);
                let reach = hull.support_reach(dir, v, h);
                assert!(reach >= 0.0 && reach.is_finite());
                if reach == 0.0 {
                    continue;
                }
                with_reach += 1;
                for _ in 0..8 {
                    // A perturbation just inside the reach.
                    let d2 = dir + g.unit() * reach * g.range(0.5, 0.999);
                    let at_v = d2.dot(verts[v as usize]);
                    let brute = verts.iter().map(|p| d2.dot(*p)).fold(f32::MIN, f32::max);
                    assert_eq!(at_v, brute, "dir {dir} reach {reach}");
                    let start = g.range(0.0, verts.len() as f32 - 1.0) as u32;
                    assert_eq!(hull.support_climb(d2, start).1, at_v);
                }
            }
            assert!(
                with_reach > 300,
                "{with_reach} of 400 directions had a reach"
            );
        }
        // No direction, no reach.
        let hull = ConvexHull::try_new(&fibonacci_sphere(30, Vec3::ONE)).unwrap();
        assert_eq!(hull.support_reach(Vec3::NAN, 0, f32::NAN), 0.0);
        assert_eq!(hull.support_reach(Vec3::X, 999, 1.0), 0.0);
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

    #[test]
    fn gauss_arcs_follow_the_edges() {
        // Each edge's arc: its plane's normal is the edge direction, oriented like n1 × n0 (the
        // old, face-normal definition, where that is well conditioned), and its cap holds both
        // ends. On a cube the cap is the 45° cap about the bisector of the two normals.
        let cube = ConvexHull::try_new(&cube_corners()).unwrap();
        for (e, arc) in cube.edges().iter().zip(cube.gauss_arcs()) {
            let n0 = cube.faces()[e.faces[0] as usize].plane.normal;
            let n1 = cube.faces()[e.faces[1] as usize].plane.normal;
            assert_eq!(arc.normal, n1.cross(n0));
            crate::assert_near!(arc.mid, (n0 + n1).normalize(), 1e-6);
            crate::assert_near!(arc.cos_h, std::f32::consts::FRAC_1_SQRT_2, 1e-6);
            crate::assert_near!(arc.sin_h, std::f32::consts::FRAC_1_SQRT_2, 1e-6);
        }
        // Spheres, a flattened ellipsoid and thin plates (rim normals 1e-6 .. 1e-3 from
        // opposite).
        let mut g = collide_testkit::Gen::new(0x6a7c);
        let mut hulls = vec![
            ConvexHull::try_new(&fibonacci_sphere(200, Vec3::ONE)).unwrap(),
            ConvexHull::try_new(&fibonacci_sphere(30, Vec3::new(2.0, 0.1, 1.0))).unwrap(),
        ];
        let mut rims = 0;
        while hulls.len() < 40 {
            let h = 10f32.powf(g.range(-6.0, -3.0));
            let pts: Vec<Vec3> = (0..8)
                .map(|_| {
                    let phi = g.range(0.0, std::f32::consts::TAU);
                    Vec3::new(phi.cos(), phi.sin(), h * g.range(-1.0, 1.0)) * g.range(0.3, 1.0)
                })
                .collect();
            if let Ok(hull) = ConvexHull::try_new(&pts) {
                hulls.push(hull);
            }
        }
        for hull in &hulls {
            let verts = hull.vertices();
            for (e, arc) in hull.edges().iter().zip(hull.gauss_arcs()) {
                let n0 = hull.faces()[e.faces[0] as usize].plane.normal.as_dvec3();
                let n1 = hull.faces()[e.faces[1] as usize].plane.normal.as_dvec3();
                let edge = (verts[e.vertices[1] as usize] - verts[e.vertices[0] as usize])
                    .as_dvec3()
                    .normalize();
                let normal = arc.normal.as_dvec3();
                assert!((normal + edge).length() < 1e-7, "{normal} vs edge {edge}");
                // Both normals are (nearly) in the arc's plane.
                assert!(normal.dot(n0).abs() < 1e-6 && normal.dot(n1).abs() < 1e-6);
                let cross = n1.cross(n0);
                if cross.length() > 1e-3 {
                    assert!(normal.dot(cross.normalize()) > 1.0 - 1e-6);
                } else {
                    rims += 1;
                }
                // The cap holds both ends (what `CapLanes::meeting` relies on).
                let mid = arc.mid.as_dvec3();
                if mid != DVec3::ZERO {
                    let h = f64::from(arc.sin_h).atan2(f64::from(arc.cos_h));
                    for n in [n0, n1] {
                        assert!(mid.angle_between(n) <= h + 1e-6, "{arc:?}");
                    }
                }
            }
        }
        assert!(rims > 100, "{rims} rim edges");
    }

    fn cube_corners() -> Vec<Vec3> {
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
