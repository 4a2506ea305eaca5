//! Step 6: validation. [`ConvexHull::validate`] checks every invariant by brute force (tests,
//! debug builds); the build itself checks the same invariants locally, per face, per edge and
//! per point by climbing the face graph, in time linear in the size of the hull (small hulls
//! and inputs, at most 2^16 pairs, also by brute force).

use std::cell::{Cell, OnceCell};

use glam::DVec3;

use super::polygons::{adjacency_rows, Assembled};
use super::quickhull::{Quickhull, NONE};
use super::{cyclic_next, cyclic_prev, ConvexHull};
use crate::math::Vec3;

/// The first broken invariant [`ConvexHull::validate`] finds: which, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HullDefect {
    /// Fewer than 4 vertices or 4 faces.
    TooSmall {
        /// Vertex count.
        vertices: usize,
        /// Face count.
        faces: usize,
    },
    /// A vertex is NaN or infinite.
    VertexNotFinite(usize),
    /// A vertex no face uses.
    UnusedVertex(usize),
    /// The directed edge `from -> to` is in two faces (inconsistent winding).
    RepeatedEdge {
        /// Start vertex.
        from: u32,
        /// End vertex.
        to: u32,
    },
    /// The directed edge `from -> to` has no reverse: the surface is not closed.
    OpenEdge {
        /// Start vertex.
        from: u32,
        /// End vertex.
        to: u32,
    },
    /// The edge list's length differs from the faces' edge count.
    EdgeCount {
        /// Edges in the list.
        listed: usize,
        /// Edges the faces have.
        in_faces: usize,
    },
    /// Edge `index` of the edge list names the wrong faces.
    EdgeFaces(usize),
    /// `V - E + F` is this, not 2.
    Euler(i64),
    /// A vertex is above a face plane by more than the tolerance.
    NotConvex {
        /// The vertex.
        vertex: usize,
        /// The face.
        face: usize,
        /// Its height above the plane.
        distance: f32,
        /// The tolerance it exceeds.
        tolerance: f32,
    },
    /// A face has fewer than 3 vertices.
    FaceTooSmall {
        /// The face.
        face: usize,
        /// Its vertex count.
        vertices: u32,
    },
    /// A face's vertex run reaches past the index list.
    FacePastIndices(usize),
    /// A face normal is not finite and unit length.
    FaceNormal {
        /// The face.
        face: usize,
        /// Its normal.
        normal: Vec3,
    },
    /// A face uses a vertex index out of range.
    FaceVertexOutOfRange {
        /// The face.
        face: usize,
        /// The vertex index.
        vertex: u32,
    },
    /// A face lists a vertex twice.
    FaceRepeatsVertex {
        /// The face.
        face: usize,
        /// The vertex.
        vertex: u32,
    },
    /// A face vertex is off the face plane by more than the tolerance.
    FaceNotFlat {
        /// The face.
        face: usize,
        /// The vertex.
        vertex: u32,
        /// Its signed distance from the plane.
        distance: f32,
        /// The tolerance it exceeds.
        tolerance: f32,
    },
    /// A face's winding (Newell's normal) disagrees with its stored normal.
    FaceWinding(usize),
}

impl std::fmt::Display for HullDefect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            HullDefect::TooSmall { vertices, faces } => {
                write!(f, "too small: {vertices} vertices, {faces} faces")
            }
            HullDefect::VertexNotFinite(i) => write!(f, "vertex {i} is not finite"),
            HullDefect::UnusedVertex(i) => write!(f, "vertex {i} is used by no face"),
            HullDefect::RepeatedEdge { from, to } => {
                write!(f, "directed edge {from}->{to} appears twice")
            }
            HullDefect::OpenEdge { from, to } => {
                write!(f, "edge {from}->{to} has no opposite: the hull is not closed")
            }
            HullDefect::EdgeCount { listed, in_faces } => write!(
                f,
                "edge list has {listed} edges, the faces have {in_faces}"
            ),
            HullDefect::EdgeFaces(i) => write!(f, "edge {i} does not match the faces beside it"),
            HullDefect::Euler(e) => write!(f, "Euler characteristic V - E + F = {e}, not 2"),
            HullDefect::NotConvex {
                vertex,
                face,
                distance,
                tolerance,
            } => write!(
                f,
                "not convex: vertex {vertex} is {distance} above face {face} (tol {tolerance})"
            ),
            HullDefect::FaceTooSmall { face, vertices } => {
                write!(f, "face {face} has {vertices} vertices")
            }
            HullDefect::FacePastIndices(face) => {
                write!(f, "face {face} indexes past the index list")
            }
            HullDefect::FaceNormal { face, normal } => {
                write!(f, "face {face} normal {normal} is not unit length")
            }
            HullDefect::FaceVertexOutOfRange { face, vertex } => {
                write!(f, "face {face} uses vertex {vertex} out of range")
            }
            HullDefect::FaceRepeatsVertex { face, vertex } => {
                write!(f, "face {face} repeats vertex {vertex}")
            }
            HullDefect::FaceNotFlat {
                face,
                vertex,
                distance,
                tolerance,
            } => write!(
                f,
                "face {face} is not flat: vertex {vertex} is {distance} from its plane (tol {tolerance})"
            ),
            HullDefect::FaceWinding(face) => {
                write!(f, "face {face} winding disagrees with its normal")
            }
        }
    }
}

impl std::error::Error for HullDefect {}

impl ConvexHull {
    /// Checks every invariant, returning the first violation found.
    ///
    /// Closed 2-manifold with consistent winding (every directed edge once, its reverse once),
    /// every vertex used, polygons of at least 3 distinct vertices, unit normals agreeing with
    /// the winding, faces flat and every vertex below every face plane within
    /// `2 · tolerance + 1e-6 · scale`, the edge list matching the faces, and Euler's formula
    /// `V − E + F = 2`. Brute force: `O(V · F)`.
    ///
    /// ```
    /// use collide::convex::ConvexHull;
    /// use collide::Vec3;
    ///
    /// let corners: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32))
    ///     .collect();
    /// let cube = ConvexHull::try_new(&corners)?;
    /// assert_eq!(cube.validate(), Ok(()));
    /// # Ok::<(), collide::convex::HullError>(())
    /// ```
    pub fn validate(&self) -> Result<(), HullDefect> {
        let nv = self.vertices.len();
        let nf = self.faces.len();
        if nv < 4 || nf < 4 {
            return Err(HullDefect::TooSmall {
                vertices: nv,
                faces: nf,
            });
        }
        if let Some(i) = self.vertices.iter().position(|v| !v.is_finite()) {
            return Err(HullDefect::VertexNotFinite(i));
        }
        let tol = self.validate_tolerance();
        // Every directed edge `(a, b, face)`, sorted so its reverse is found by bisection.
        let mut directed: Vec<(u32, u32, u32)> = Vec::with_capacity(self.face_indices.len());
        for f in 0..nf {
            self.validate_face(f, tol)?;
            let idx = self.face_vertices(f);
            for (k, &a) in idx.iter().enumerate() {
                directed.push((a, idx[(k + 1) % idx.len()], f as u32));
            }
        }
        let mut used = vec![false; nv];
        for &(a, _, _) in &directed {
            used[a as usize] = true;
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return Err(HullDefect::UnusedVertex(i));
        }
        directed.sort_unstable();
        if let Some(w) = directed
            .windows(2)
            .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        {
            return Err(HullDefect::RepeatedEdge {
                from: w[0].0,
                to: w[0].1,
            });
        }
        let face_of = |a: u32, b: u32| {
            directed
                .binary_search_by(|x| (x.0, x.1).cmp(&(a, b)))
                .ok()
                .map(|i| directed[i].2)
        };
        for &(a, b, _) in &directed {
            if face_of(b, a).is_none() {
                return Err(HullDefect::OpenEdge { from: a, to: b });
            }
        }
        let ne = directed.len() / 2;
        if self.edges.len() != ne {
            return Err(HullDefect::EdgeCount {
                listed: self.edges.len(),
                in_faces: ne,
            });
        }
        for (i, e) in self.edges.iter().enumerate() {
            let [a, b] = e.vertices;
            if face_of(a, b) != Some(e.faces[0]) || face_of(b, a) != Some(e.faces[1]) {
                return Err(HullDefect::EdgeFaces(i));
            }
        }
        let euler = nv as i64 - ne as i64 + nf as i64;
        if euler != 2 {
            return Err(HullDefect::Euler(euler));
        }
        for (f, face) in self.faces.iter().enumerate() {
            for (i, v) in self.vertices.iter().enumerate() {
                let dist = face.plane.signed_distance(*v);
                if dist > tol {
                    return Err(HullDefect::NotConvex {
                        vertex: i,
                        face: f,
                        distance: dist,
                        tolerance: tol,
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether every one of `points` is at most `limit(i)` above every face plane (brute force,
    /// `O(points · faces)`).
    ///
    /// The points are tested against the planes four at a time, or eight with AVX
    /// ([`PlaneLanes`]), each group of planes loaded once for all the points. The height is
    /// `n.x·p.x + n.y·p.y + n.z·p.z + d`, evaluated in the order of [`Plane::signed_distance`]
    /// so it rounds the same, and a NaN height counts as above, as there.
    ///
    /// [`Plane::signed_distance`]: crate::shapes::Plane::signed_distance
    /// [`PlaneLanes`]: crate::convex::lanes::PlaneLanes
    fn all_below_faces(&self, points: &[Vec3], limit: impl Fn(usize) -> f32) -> bool {
        self.plane_lanes().all_points_within(points, limit)
    }

    /// The flatness and convexity bound of [`ConvexHull::validate`]:
    /// `2 · tolerance + 1e-6 · scale`, `scale` the largest vertex coordinate magnitude.
    fn validate_tolerance(&self) -> f32 {
        let scale = self
            .vertices
            .iter()
            .fold(0.0_f32, |m, v| m.max(v.abs().max_element()));
        2.0 * self.tolerance + 1e-6 * scale
    }

    /// Face `f` in itself: at least 3 distinct vertices in range, a unit normal agreeing with
    /// its winding (Newell's normal), every vertex within `tol` of its plane.
    fn validate_face(&self, f: usize, tol: f32) -> Result<(), HullDefect> {
        let face = self.faces[f];
        if face.count < 3 {
            return Err(HullDefect::FaceTooSmall {
                face: f,
                vertices: face.count,
            });
        }
        if (face.first + face.count) as usize > self.face_indices.len() {
            return Err(HullDefect::FacePastIndices(f));
        }
        let idx = self.face_vertices(f);
        let n = face.plane.normal;
        if !n.is_finite() || (n.length() - 1.0).abs() > 1e-4 {
            return Err(HullDefect::FaceNormal { face: f, normal: n });
        }
        if let Some(&a) = idx.iter().find(|&&a| a as usize >= self.vertices.len()) {
            return Err(HullDefect::FaceVertexOutOfRange { face: f, vertex: a });
        }
        let mut newell = DVec3::ZERO;
        for (k, &a) in idx.iter().enumerate() {
            if idx[k + 1..].contains(&a) {
                return Err(HullDefect::FaceRepeatsVertex { face: f, vertex: a });
            }
            let (pa, pb) = (
                self.vertices[a as usize],
                self.vertices[idx[(k + 1) % idx.len()] as usize],
            );
            newell += pa.as_dvec3().cross(pb.as_dvec3());
            let dist = face.plane.signed_distance(pa);
            if dist.abs() > tol {
                return Err(HullDefect::FaceNotFlat {
                    face: f,
                    vertex: a,
                    distance: dist,
                    tolerance: tol,
                });
            }
        }
        if newell.dot(n.as_dvec3()) <= 0.0 {
            return Err(HullDefect::FaceWinding(f));
        }
        Ok(())
    }
}

/// The faces adjacent to each face (across its edges), in compressed rows.
pub(super) struct FaceGraph {
    start: Vec<u32>,
    adj: Vec<u32>,
    /// Per-face mark of the plateau search that visited it, and the last search's epoch.
    marks: Vec<Cell<u32>>,
    epoch: Cell<u32>,
    /// The plateau search's stack, kept between searches.
    stack: std::cell::RefCell<Vec<usize>>,
}

impl FaceGraph {
    /// The graph of `hull`'s faces from its edge list.
    pub(super) fn new(hull: &ConvexHull) -> FaceGraph {
        let (start, adj) = adjacency_rows(hull.faces.len(), &hull.edges, |e| {
            (e.faces[1] != u32::MAX).then_some(e.faces)
        });
        FaceGraph {
            start,
            adj,
            marks: vec![Cell::new(0); hull.faces.len()],
            epoch: Cell::new(0),
            stack: std::cell::RefCell::default(),
        }
    }

    /// Climbs from face `f` to a face `p` is farthest above, moving to the neighbour with the
    /// largest signed distance while it grows (steepest ascent); returns that distance.
    ///
    /// Where no neighbour is higher, the faces tied with the current one (distances rounded to
    /// the same value, such as exactly 0 for subnormal coordinates) are searched once for a
    /// higher neighbour, and the climb goes on from there. Exact for a point close to its
    /// start face (within the reach of the faces around it), which is where the build uses
    /// it: each point starts from the face it was last assigned to, and containment fails only
    /// near a sharp edge or corner of that face.
    pub(super) fn climb(&self, hull: &ConvexHull, p: Vec3, mut f: usize) -> f32 {
        let dist = |g: usize| {
            hull.faces
                .get(g)
                .map_or(f32::NAN, |x| x.plane.signed_distance(p))
        };
        let mut best = dist(f);
        loop {
            // The highest neighbour, and whether one ties with `f` (a plateau to search).
            let (mut next, mut tie) = (f, false);
            for &g in self.row(f) {
                let d = dist(g as usize);
                if d > best {
                    (best, next) = (d, g as usize);
                }
                tie |= d == best && next == f;
            }
            if next != f {
                f = next;
                continue;
            }
            if !tie {
                return best;
            }
            match self.plateau_exit(&dist, f, best) {
                Some((g, d)) => (f, best) = (g, d),
                None => return best,
            }
        }
    }

    /// The neighbours of face `f` (empty when out of range).
    fn row(&self, f: usize) -> &[u32] {
        let row = self.start.get(f).zip(self.start.get(f + 1));
        row.and_then(|(&a, &b)| self.adj.get(a as usize..b as usize))
            .unwrap_or(&[])
    }

    /// A face higher than `best` next to the faces reachable from `f` through faces at exactly
    /// `best` (a depth-first search marking faces with a fresh epoch), or `None`. The caller
    /// has seen a neighbour of `f` at `best`.
    fn plateau_exit(
        &self,
        dist: &impl Fn(usize) -> f32,
        f: usize,
        best: f32,
    ) -> Option<(usize, f32)> {
        let epoch = self.epoch.get().wrapping_add(1);
        if epoch == 0 {
            self.marks.iter().for_each(|m| m.set(0));
        }
        let epoch = epoch.max(1);
        self.epoch.set(epoch);
        let mark = |g: usize| self.marks.get(g).map(|m| m.replace(epoch) != epoch);
        mark(f);
        let mut stack = self.stack.borrow_mut();
        stack.clear();
        stack.push(f);
        while let Some(h) = stack.pop() {
            for &g in self.row(h) {
                let g = g as usize;
                let d = dist(g);
                if d > best {
                    return Some((g, d));
                }
                if d == best && mark(g) == Some(true) {
                    stack.push(g);
                }
            }
        }
        None
    }
}

/// The invariants [`ConvexHull::validate`] checks, checked locally in `O(V + E + F)`: closed
/// 2-manifold, Euler's formula, every face flat with a unit normal agreeing with its winding
/// and no repeated vertex, and every edge convex (each face's vertices beside the edge below
/// the other face's plane). In exact arithmetic a closed surface of genus 0 that is convex at
/// every edge bounds a convex body, so every vertex is below every face plane; with round-off
/// the bends could add up over several edges, so each vertex also climbs the face graph from
/// one of its own faces.
///
/// `graph` is the hull's face graph, built here on first use. When the vertices climb, each
/// one's height (the largest plane distance its climb found) is left in `heights`, by vertex,
/// for [`contains_input`] to use instead of climbing again.
///
/// When [`contains_input`] will check the `n_points` input points against every face by brute
/// force ([`brute_force_points`]), the edge and vertex-height checks here are left to it: the
/// hull's vertices are input points, and it holds them to this check's `tol` as well, which
/// implies each edge's convexity (a vertex beside an edge below the other face's plane).
pub(super) fn check_built(
    a: &Assembled,
    graph: &OnceCell<FaceGraph>,
    heights: &mut Vec<f32>,
    n_points: usize,
) -> bool {
    let h = &a.hull;
    let (nv, nf) = (h.vertices.len(), h.faces.len());
    if !a.manifold || nv < 4 || nf < 4 || h.vertices.iter().any(|v| !v.is_finite()) {
        return false;
    }
    if nv as i64 - h.edges.len() as i64 + nf as i64 != 2 {
        return false;
    }
    let tol = h.validate_tolerance();
    let mut seen = vec![u32::MAX; nv];
    let mut face_of_vertex = vec![0u32; nv];
    for (f, face) in h.faces.iter().enumerate() {
        let n = face.plane.normal;
        if face.count < 3 || !n.is_finite() || (n.length() - 1.0).abs() > 1e-4 {
            return false;
        }
        let idx = h.face_vertices(f);
        let mut newell = DVec3::ZERO;
        // Each vertex is widened once, carried from one edge to the next (`pa` is vertex
        // `k`, `pb` the one after it); the terms are summed from the first edge on.
        let Some(first) = idx.first().and_then(|&v| h.vertices.get(v as usize)) else {
            return false;
        };
        let first = first.as_dvec3();
        let mut pa = first;
        for (k, &v) in idx.iter().enumerate() {
            let Some(s) = seen.get_mut(v as usize) else {
                return false;
            };
            if *s == f as u32 {
                return false;
            }
            *s = f as u32;
            face_of_vertex[v as usize] = f as u32;
            let pb = match idx.get(k + 1) {
                Some(&w) => h.vertices[w as usize].as_dvec3(),
                None => first,
            };
            newell += pa.cross(pb);
            pa = pb;
            if face.plane.signed_distance(h.vertices[v as usize]).abs() > tol {
                return false;
            }
        }
        if newell.dot(n.as_dvec3()) <= 0.0 {
            return false;
        }
    }
    if brute_force_points(n_points, h) {
        return true;
    }
    for (e, edge) in h.edges.iter().enumerate() {
        let [c0, c1] = a.corners[e];
        for (side, corner) in [(0, c0), (1, c1)] {
            let (f, other) = (edge.faces[side] as usize, edge.faces[1 - side] as usize);
            let face = h.faces[f];
            let (first, count) = (face.first as usize, face.count as usize);
            let k = corner as usize - first;
            // The vertices before the edge's start and after its end in this face.
            let before = h.face_indices[first + cyclic_prev(k, count)];
            let after = h.face_indices[first + cyclic_next(cyclic_next(k, count), count)];
            let plane = h.faces[other].plane;
            if [before, after]
                .iter()
                .any(|&v| plane.signed_distance(h.vertices[v as usize]) > tol)
            {
                return false;
            }
        }
    }
    // Small hulls (at most 2^16 vertex-face pairs, a few µs) also get the brute-force check:
    // the climb's local view has missed needle-shaped hulls at 1e20 that fold over more than
    // one edge.
    if (nv as u64) * (nf as u64) <= 1 << 16 {
        return h.all_below_faces(&h.vertices, |_| tol);
    }
    let graph = graph.get_or_init(|| FaceGraph::new(h));
    heights.clear();
    for (v, &f) in h.vertices.iter().zip(&face_of_vertex) {
        let height = graph.climb(h, *v, f as usize);
        if height > tol || height.is_nan() {
            return false;
        }
        heights.push(height);
    }
    true
}

/// Whether [`contains_input`] checks all `n_points` input points against every face of `hull`
/// by brute force (at most 2^16 point-face pairs, a few µs).
fn brute_force_points(n_points: usize, hull: &ConvexHull) -> bool {
    (n_points as u64) * (hull.faces.len() as u64) <= 1 << 16
}

/// Whether every input point that could be outside the built hull is inside it within
/// `bound`, each found by climbing the face graph from the face of the triangle it was last
/// assigned to (or, for a hull vertex, by its height from [`check_built`] in `heights`, when
/// there is one).
///
/// - When Quickhull kept its invariant (no `repaired` horizon), every input point is within
///   `eps` of the triangulated hull, and the points more than `eps` inside it were dropped
///   inside the triangulation, whose vertices are inside: so it suffices to check the
///   triangulation's vertices and the points kept near its faces, `O(V + near)` climbs.
///   Merging coplanar triangles tilts a polygon's plane by up to `eps` over the polygon, which
///   a needle's length can amplify far beyond `eps` at its tip; this catches that.
/// - After a convexity repair (rare: near-coplanar eyes) that argument fails (needle clouds
///   at 5e20 have left points 2e5·eps outside), so every point climbs from its last face.
///   Points within the ball inscribed about the vertex centroid are inside and skipped (most
///   of a solid cloud).
pub(super) fn contains_input(
    a: &Assembled,
    graph: &OnceCell<FaceGraph>,
    heights: &[f32],
    qh: &Quickhull<'_>,
    points: &[Vec3],
    bound: f32,
) -> bool {
    let h = &a.hull;
    let face = |t: usize| {
        a.face_of_tri
            .get(t)
            .copied()
            .filter(|&f| f != NONE)
            .unwrap_or(0)
    };
    // Small inputs (at most 2^16 point-face pairs, a few µs) are checked, all of them,
    // against every face: with subnormal coordinates the planes round to ties the climb
    // cannot see past. (Every input point, not only the ones the cases below pick: the others
    // are inside the triangulation, so this only adds checks.) The hull's vertices are also
    // held to `check_built`'s convexity bound, which left them to this pass.
    if brute_force_points(points.len(), h) {
        let tol = h.validate_tolerance().min(bound);
        let vertex_of_point = &a.vertex_of_point;
        return h.all_below_faces(points, |i| match vertex_of_point.get(i) {
            Some(&v) if v != u32::MAX => tol,
            _ => bound,
        });
    }
    let graph = graph.get_or_init(|| FaceGraph::new(h));
    // A hull vertex already climbed in `check_built` (from one of its own faces).
    let inside = |i: usize, t: usize| {
        let known = a
            .vertex_of_point
            .get(i)
            .and_then(|&v| heights.get(v as usize));
        match known {
            Some(&height) => height <= bound,
            None => graph.climb(h, points[i], face(t)) <= bound,
        }
    };
    if qh.repaired {
        // In f64: squares of coordinates near 1e20 overflow f32.
        let c = h.vertex_centroid();
        let r_in = f64::from(-h.signed_distance_bound(c));
        let r2 = if r_in > 0.0 { r_in * r_in } else { -1.0 };
        let c = c.as_dvec3();
        let live = qh.alive_successors();
        let start = |i: usize| live.get(qh.home[i] as usize).copied().unwrap_or(NONE);
        // Points by their start triangle (a counting sort; bucket 0 for none): triangles made
        // together are neighbours, so consecutive climbs reuse the faces the last ones read.
        let bucket = |i: usize| start(i).checked_add(1).unwrap_or(0).min(live.len());
        let mut first = vec![0usize; live.len() + 2];
        for i in 0..points.len() {
            first[bucket(i) + 1] += 1;
        }
        for k in 1..first.len() {
            first[k] += first[k - 1];
        }
        let mut order = vec![0usize; points.len()];
        for i in 0..points.len() {
            let slot = &mut first[bucket(i)];
            order[*slot] = i;
            *slot += 1;
        }
        order
            .iter()
            .all(|&i| qh.pts.at(i).distance_squared(c) <= r2 || inside(i, start(i)))
    } else {
        // Each vertex once (it is a corner of several triangles).
        let mut seen = vec![false; points.len()];
        qh.tris
            .iter()
            .enumerate()
            .filter(|(_, t)| t.alive)
            .all(|(f, t)| {
                t.verts().iter().all(|&i| {
                    let first = !std::mem::replace(&mut seen[i], true);
                    !first || inside(i, f)
                }) && t.near.iter(&qh.link).all(|i| inside(i, f))
            })
    }
}
