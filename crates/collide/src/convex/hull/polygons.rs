//! Step 5: polygon merging. Coplanar triangles become polygons, vertices in the middle of an
//! edge are dropped, and the result is converted to `f32` with its edge list and vertex
//! adjacency.

use std::sync::OnceLock;

use glam::DVec3;

use super::quickhull::{Points, Tri, NONE};
use super::{cyclic_next, next_hull_id, ConvexHull, HullEdge, HullFace};
use crate::math::Vec3;
use crate::shapes::Plane;

/// Polygons as vertex-index lists in one buffer: polygon `p` is
/// `verts[start[p] .. start[p + 1]]`.
#[derive(Default)]
struct Polygons {
    start: Vec<usize>,
    verts: Vec<usize>,
    /// For each polygon, the triangle it is when it is one alone ([`NONE`] for merged ones).
    source: Vec<usize>,
}

impl Polygons {
    /// Empties the list (its room kept).
    fn clear(&mut self) {
        self.start.clear();
        self.start.push(0);
        self.verts.clear();
        self.source.clear();
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }

    fn get(&self, p: usize) -> &[usize] {
        &self.verts[self.start[p]..self.start[p + 1]]
    }

    /// Adds the polygon `vs`, which is triangle `source` alone (or [`NONE`]).
    fn push(&mut self, vs: &[usize], source: usize) {
        self.verts.extend_from_slice(vs);
        self.start.push(self.verts.len());
        self.source.push(source);
    }
}

/// The hull assembled from Quickhull's triangles.
pub(super) struct Assembled {
    pub hull: ConvexHull,
    /// For each triangle, the face of `hull` it became part of (`NONE` for removed ones).
    pub face_of_tri: Vec<usize>,
    /// Whether every edge has exactly one face on each side (every directed edge once, its
    /// reverse once).
    pub manifold: bool,
    /// For each edge, the positions in `face_indices` of the corners where it starts in
    /// `faces[0]` and in `faces[1]`.
    pub corners: Vec<[u32; 2]>,
    /// For each input point, its index among the hull's vertices (`u32::MAX` when it is none).
    pub vertex_of_point: Vec<u32>,
}

/// The merge's lists between builds (see the hull builder's per-thread lists).
#[derive(Default)]
pub(super) struct Lists {
    order: Vec<u128>,
    region: Vec<usize>,
    members: Vec<usize>,
    next: Vec<usize>,
    keys: Vec<usize>,
    lp: Vec<usize>,
    /// For each triangle, whether it takes a neighbour as a seed (see [`mark_merges`]).
    takes: Vec<bool>,
    polygons: Polygons,
    kept: Polygons,
    degree: Vec<u32>,
    holders: Vec<[usize; 2]>,
    len: Vec<usize>,
    dropped: Vec<bool>,
    remap: Vec<u32>,
    edge_start: Vec<usize>,
    edge_fill: Vec<usize>,
    edge_out: Vec<(u32, u32)>,
    slot_edge: Vec<u32>,
}

impl Assembled {
    /// The hull, with the per-triangle and per-point lists handed back to `lists`.
    pub(super) fn into_hull(self, lists: &mut Lists) -> ConvexHull {
        lists.region = self.face_of_tri;
        lists.remap = self.vertex_of_point;
        self.hull
    }
}

/// Merges coplanar triangles into polygons, drops mid-edge vertices, converts to `f32`.
pub(super) fn build_polygons(
    pts: Points<'_>,
    tris: &[Tri],
    eps: f64,
    lists: &mut Lists,
) -> Assembled {
    sort_by_area(pts, tris, lists);
    if !mark_merges(pts, tris, eps, lists) {
        return lone_triangles(pts, tris, eps, lists);
    }
    merge_coplanar(pts, tris, eps, lists);
    let face_of_tri = std::mem::take(&mut lists.region);
    let dropped = drop_mid_edge(pts.len(), lists);
    let polygons = std::mem::take(slot(lists, dropped));
    let (hull, manifold, corners) = assemble(pts, tris, &polygons, &face_of_tri, eps, lists);
    *slot(lists, dropped) = polygons;
    Assembled {
        hull,
        face_of_tri,
        manifold,
        corners,
        vertex_of_point: std::mem::take(&mut lists.remap),
    }
}

/// The polygons the merge left: `lists.kept` when mid-edge vertices were `dropped`.
fn slot(lists: &mut Lists, dropped: bool) -> &mut Polygons {
    if dropped {
        &mut lists.kept
    } else {
        &mut lists.polygons
    }
}

/// The alive triangles in `lists.order`, by decreasing area (ties by index): the order in
/// which the merge takes them as seeds, and so the order of the faces.
fn sort_by_area(pts: Points<'_>, tris: &[Tri], lists: &mut Lists) {
    // Twice the area, squared (the square orders as the area does, without a root).
    let area = |f: usize| {
        let [a, b, c] = tris[f].verts();
        (pts.at(b) - pts.at(a))
            .cross(pts.at(c) - pts.at(a))
            .length_squared()
    };
    // Sorted by (decreasing area, index) as one integer each, `!bits` above the index: a
    // squared area is a finite non-negative f64 (input coordinates are f32, so it stays below
    // 1e155), whose bits order as it does, so `!bits` orders by decreasing area.
    let order = &mut lists.order;
    order.clear();
    order.extend(
        (0..tris.len())
            .filter(|&f| tris[f].alive)
            .map(|f| (u128::from(!area(f).to_bits()) << 64) | f as u128),
    );
    order.sort_unstable();
}

/// For each triangle, whether it would take a neighbour into its polygon as a seed (in
/// `lists.takes`): the neighbour faces the same way (`n · n' > 0`, or NaN) and its vertices
/// are all within `eps` of the triangle's plane, the test [`merge_coplanar`] grows a region
/// by. Returns whether any would: when none would, every region is its seed alone, whatever
/// the order. In index order, where a triangle's neighbours in its cone are next to it.
fn mark_merges(pts: Points<'_>, tris: &[Tri], eps: f64, lists: &mut Lists) -> bool {
    let takes = &mut lists.takes;
    takes.clear();
    takes.resize(tris.len(), false);
    let mut any = false;
    for (f, t) in tris.iter().enumerate() {
        if !t.alive {
            continue;
        }
        let takes_one = t
            .nbs()
            .into_iter()
            .any(|g| joins(&tris[g], t.n, t.d, pts, eps));
        takes[f] = takes_one;
        any |= takes_one;
    }
    any
}

/// Whether triangle `u` joins the polygon of a seed with plane `n · x = d`: it faces the same
/// way (`u.n · n > 0`, or NaN) and its vertices are all within `eps` of the plane.
#[inline]
fn joins(u: &Tri, n: DVec3, d: f64, pts: Points<'_>, eps: f64) -> bool {
    let facing = u.n.dot(n);
    (facing > 0.0 || facing.is_nan())
        && u.verts()
            .iter()
            .all(|&v| (n.dot(pts.at(v)) - d).abs() <= eps)
}

/// Grows a polygon from each alive triangle in order of decreasing area (so big flat regions
/// take their slivers): a neighbour joins when all its vertices are within `eps` of the seed's
/// plane. Returns the polygons and each triangle's polygon.
///
/// One piece, read top to bottom per seed: grow the region, trace its boundary loop, fall back
/// to the region's triangles when the loop is not a disk; the three steps share the region's
/// scratch arrays (`members`, the successor map `next` and its `keys`).
fn merge_coplanar(pts: Points<'_>, tris: &[Tri], eps: f64, lists: &mut Lists) {
    let Lists {
        order,
        region,
        members,
        next,
        keys,
        lp,
        polygons,
        takes,
        ..
    } = lists;
    region.clear();
    region.resize(tris.len(), NONE);
    polygons.clear();
    members.clear();
    // The region's boundary as a successor map over point indices, and the keys set in it.
    next.clear();
    next.resize(pts.len(), NONE);
    keys.clear();
    for seed in order.iter().map(|&key| key as u64 as usize) {
        if region[seed] != NONE {
            continue;
        }
        let r = polygons.len();
        // A seed that takes no neighbour is a lone triangle (its region grows only through
        // its neighbours).
        if !takes[seed] {
            region[seed] = r;
            polygons.push(&tris[seed].verts(), seed);
            continue;
        }
        let (n, d) = (tris[seed].n, tris[seed].d);
        members.clear();
        members.push(seed);
        region[seed] = r;
        let mut k = 0;
        while k < members.len() {
            let f = members[k];
            k += 1;
            for g in tris[f].nbs() {
                if region[g] == NONE && joins(&tris[g], n, d, pts, eps) {
                    region[g] = r;
                    members.push(g);
                }
            }
        }
        // A lone triangle is its own boundary loop, from its first vertex.
        if members.len() == 1 {
            polygons.push(&tris[seed].verts(), seed);
            continue;
        }
        // Boundary loop: the members' edges whose neighbour is outside the region. A vertex
        // starting two boundary edges pinches the region.
        let mut pinched = false;
        for &f in members.iter() {
            for e in 0..3 {
                if region[tris[f].nb[e] as usize] != r {
                    let a = tris[f].v[e] as usize;
                    if next[a] == NONE {
                        keys.push(a);
                    } else {
                        pinched = true;
                    }
                    next[a] = tris[f].v[(e + 1) % 3] as usize;
                }
            }
        }
        lp.clear();
        if !pinched {
            // Start at the seed's first vertex when it is on the boundary, else at the
            // smallest boundary vertex: the same points must give the same hull every time.
            let first = tris[members[0]].v[0] as usize;
            let start = if next[first] != NONE {
                first
            } else {
                keys.iter().copied().min().unwrap_or(first)
            };
            let mut v = start;
            while lp.len() <= keys.len() {
                lp.push(v);
                match next[v] {
                    NONE => {
                        pinched = true;
                        break;
                    }
                    w if w == start => break,
                    w => v = w,
                }
            }
        }
        if pinched || lp.len() != keys.len() || lp.len() < 3 {
            // Not a disk (round-off made a ring or a pinch): keep the triangles as faces.
            for (j, &f) in members.iter().enumerate() {
                region[f] = if j == 0 { r } else { polygons.len() };
                polygons.push(&tris[f].verts(), f);
            }
        } else {
            polygons.push(lp, NONE);
        }
        for &a in keys.iter() {
            next[a] = NONE;
        }
        keys.clear();
    }
}

/// Drops the vertices with only two faces (points in the middle of an edge) from both, where
/// both keep more than three vertices: the polygons without them go to `lists.kept`, and the
/// answer is whether any was dropped (else the polygons stay in `lists.polygons`).
///
/// In vertex order: dropping one can decide whether another's polygons still have more than
/// three vertices. A vertex's two holders are fixed (only it leaves them), so each polygon's
/// current length is all the decision needs.
fn drop_mid_edge(n_points: usize, lists: &mut Lists) -> bool {
    let Lists {
        polygons,
        kept,
        degree,
        holders,
        len,
        dropped,
        ..
    } = lists;
    // A vertex is dropped only from two polygons of more than three vertices: with fewer
    // such polygons (every polygon a triangle, the usual case) there is nothing to do.
    let big = (0..polygons.len())
        .filter(|&p| polygons.start[p + 1] - polygons.start[p] > 3)
        .take(2)
        .count();
    if big < 2 {
        return false;
    }
    degree.clear();
    degree.resize(n_points, 0);
    for &v in &polygons.verts {
        degree[v] += 1;
    }
    holders.clear();
    holders.resize(n_points, [NONE; 2]);
    len.clear();
    len.extend((0..polygons.len()).map(|p| polygons.get(p).len()));
    for p in 0..polygons.len() {
        for &v in polygons.get(p) {
            if degree[v] == 2 {
                let h = &mut holders[v];
                h[usize::from(h[0] != NONE)] = p;
            }
        }
    }
    dropped.clear();
    dropped.resize(n_points, false);
    let mut any = false;
    for v in 0..n_points {
        let [p, q] = holders[v];
        // At the tip of a flat needle two nearly opposite polygons
        // can meet at a vertex far from the segment joining its neighbours, and dropping it
        // cuts the tip off; the containment check in `try_new` turns that into `Unstable`.
        // (Judging by the polygons' normals here misfires on sliver polygons, whose Newell
        // normals are arbitrary.)
        if degree[v] == 2 && p != q && q != NONE && len[p] > 3 && len[q] > 3 {
            dropped[v] = true;
            any = true;
            len[p] -= 1;
            len[q] -= 1;
        }
    }
    if !any {
        return false;
    }
    kept.clear();
    for p in 0..polygons.len() {
        kept.verts
            .extend(polygons.get(p).iter().copied().filter(|&v| !dropped[v]));
        kept.start.push(kept.verts.len());
        kept.source.push(polygons.source[p]);
    }
    true
}

/// The hull from its polygons: vertices compacted in order of first use, planes from
/// Newell's normal offset through the farthest vertex (so every polygon vertex is on or below
/// its plane), unique edges, vertex adjacency and the inner ball. Also returns whether the
/// faces form a closed 2-manifold, each edge's corners (see [`Assembled::corners`]) and each
/// point's vertex index (see [`Assembled::vertex_of_point`]).
fn assemble(
    pts: Points<'_>,
    tris: &[Tri],
    polygons: &Polygons,
    face_of_tri: &[usize],
    eps: f64,
    lists: &mut Lists,
) -> (ConvexHull, bool, Vec<[u32; 2]>) {
    let remap = &mut lists.remap;
    remap.clear();
    remap.resize(pts.len(), u32::MAX);
    let mut vertices: Vec<Vec3> = Vec::new();
    let mut faces = Vec::with_capacity(polygons.len());
    let mut face_indices = Vec::with_capacity(polygons.verts.len());
    for q in 0..polygons.len() {
        let p = polygons.get(q);
        let n = match tris.get(polygons.source[q]) {
            // A lone triangle keeps Quickhull's plane normal (from the cross product at its
            // largest angle, the most accurate one): unit in f64, then each component rounded
            // to f32, so the length is 1 within about 1e-7.
            Some(tri) if p.len() == 3 => tri.n.as_vec3(),
            _ => {
                let mut newell = DVec3::ZERO;
                for (k, &a) in p.iter().enumerate() {
                    newell += pts.at(a).cross(pts.at(p[cyclic_next(k, p.len())]));
                }
                newell.normalize_or_zero().as_vec3()
            }
        };
        push_face(
            n,
            p,
            pts,
            remap,
            (&mut vertices, &mut face_indices, &mut faces),
        );
    }
    let (edges, manifold, corners) = match triangle_edges(
        tris,
        &polygons.source,
        face_of_tri,
        &faces,
        &face_indices,
        lists,
    ) {
        Some((edges, corners)) => (edges, true, corners),
        None => unique_edges(vertices.len(), &faces, &face_indices, lists),
    };
    let hull = finish(vertices, faces, face_indices, edges, eps);
    (hull, manifold, corners)
}

/// The hull from its vertices, faces and unique edges: vertex adjacency, the balls and the
/// largest norm added.
fn finish(
    vertices: Vec<Vec3>,
    faces: Vec<HullFace>,
    face_indices: Vec<u32>,
    edges: Vec<HullEdge>,
    eps: f64,
) -> ConvexHull {
    // Vertex adjacency (compressed rows) from the unique edges, for hill-climbing support.
    let (neighbour_start, neighbours) =
        adjacency_rows(vertices.len(), &edges, |e| Some(e.vertices));
    // A ball inside the hull for cheap bounds (SAT skips face planes that cannot beat the
    // best one): about the vertex mean, whose distance to every face plane is at least the
    // radius. The face planes bound the hull only to within its tolerance, so the radius is
    // shrunk by 16 `eps` (and is 0 for a hull thinner than that).
    let centroid = vertices.iter().map(|v| v.as_dvec3()).sum::<DVec3>() / vertices.len() as f64;
    let inner = faces
        .iter()
        .map(|f| -(f.plane.normal.as_dvec3().dot(centroid) + f64::from(f.plane.d)))
        .fold(f64::INFINITY, f64::min);
    // The smallest ball about the centroid holding every vertex, its radius rounded up (one
    // square root: it is monotone, so the root of the largest square is the largest root).
    let outer = vertices
        .iter()
        .map(|v| (v.as_dvec3() - centroid).length_squared())
        .fold(0.0f64, f64::max)
        .sqrt();
    // The largest vertex norm, the root of the largest square (as for `outer`), in f32.
    let largest_norm = vertices
        .iter()
        .fold(0.0_f32, |m, v| m.max(v.length_squared()))
        .sqrt();
    ConvexHull {
        id: next_hull_id(),
        largest_norm,
        vertex_lanes: OnceLock::new(),
        plane_lanes: OnceLock::new(),
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
        outer_radius: (outer * (1.0 + 1e-6)) as f32,
    }
}

/// Appends the face of unit normal `n` over the points `verts` (in order) to the hull's
/// `(vertices, face_indices, faces)`: each point's vertex, added at its first use (`remap`
/// takes a point to it), and the plane through the vertex farthest along `n`, so every
/// vertex of the face is on or below it.
#[inline(always)]
fn push_face(
    n: Vec3,
    verts: &[usize],
    pts: Points<'_>,
    remap: &mut [u32],
    (vertices, face_indices, faces): (&mut Vec<Vec3>, &mut Vec<u32>, &mut Vec<HullFace>),
) {
    let nd = n.as_dvec3();
    let d = verts
        .iter()
        .map(|&v| nd.dot(pts.at(v)))
        .fold(f64::NEG_INFINITY, f64::max);
    let first = face_indices.len() as u32;
    for &v in verts {
        if remap[v] == u32::MAX {
            remap[v] = vertices.len() as u32;
            vertices.push(pts.0[v]);
        }
        face_indices.push(remap[v]);
    }
    faces.push(HullFace {
        plane: Plane {
            normal: n,
            d: -(d as f32),
        },
        first,
        count: verts.len() as u32,
    });
}

/// [`build_polygons`] when no triangle merges with a neighbour ([`mark_merges`] is false): each
/// alive triangle is a face, in `lists.order`, built in one pass as [`merge_coplanar`] and
/// [`assemble`] would build it (no mid-edge vertex can be dropped: every face is a triangle).
fn lone_triangles(pts: Points<'_>, tris: &[Tri], eps: f64, lists: &mut Lists) -> Assembled {
    let Lists {
        order,
        region,
        polygons,
        remap,
        ..
    } = lists;
    region.clear();
    region.resize(tris.len(), NONE);
    polygons.clear();
    remap.clear();
    remap.resize(pts.len(), u32::MAX);
    let nf = order.len();
    // A closed surface of triangles has `V = F / 2 + 2` vertices (Euler).
    let mut vertices: Vec<Vec3> = Vec::with_capacity(nf / 2 + 2);
    let mut faces = Vec::with_capacity(nf);
    let mut face_indices = Vec::with_capacity(3 * nf);
    for (r, &key) in order.iter().enumerate() {
        let t = key as u64 as usize;
        region[t] = r;
        polygons.source.push(t);
        let tri = &tris[t];
        // Quickhull's normal, rounded to f32 (see `assemble`), offset through the farthest
        // vertex.
        let n = tri.n.as_vec3();
        push_face(
            n,
            &tri.verts(),
            pts,
            remap,
            (&mut vertices, &mut face_indices, &mut faces),
        );
    }
    let face_of_tri = std::mem::take(region);
    let source = std::mem::take(&mut polygons.source);
    let (edges, manifold, corners) =
        match triangle_edges(tris, &source, &face_of_tri, &faces, &face_indices, lists) {
            Some((edges, corners)) => (edges, true, corners),
            None => unique_edges(vertices.len(), &faces, &face_indices, lists),
        };
    lists.polygons.source = source;
    let hull = finish(vertices, faces, face_indices, edges, eps);
    Assembled {
        hull,
        face_of_tri,
        manifold,
        corners,
        vertex_of_point: std::mem::take(&mut lists.remap),
    }
}

/// The adjacency of an undirected graph on `n` nodes in compressed rows: row `r` is
/// `values[start[r] .. start[r + 1]]`. Each edge `[a, b]` that `ends` gives adds `b` to row `a`
/// and `a` to row `b`, in edge order.
pub(super) fn adjacency_rows(
    n: usize,
    edges: &[HullEdge],
    ends: impl Fn(&HullEdge) -> Option<[u32; 2]>,
) -> (Vec<u32>, Vec<u32>) {
    // Row lengths at `start[r + 2]`, summed so that `start[r + 1]` is where row `r` begins;
    // filling a row advances its `start[r + 1]` to its end, which is where row `r + 1` begins
    // (one list serves as the fill cursors and ends as the row starts).
    let mut start = vec![0u32; n + 2];
    for [a, b] in edges.iter().filter_map(&ends) {
        start[a as usize + 2] += 1;
        start[b as usize + 2] += 1;
    }
    for k in 2..start.len() {
        start[k] += start[k - 1];
    }
    let mut values = vec![0u32; start[n + 1] as usize];
    for [a, b] in edges.iter().filter_map(&ends) {
        let fill = &mut start[a as usize + 1];
        values[*fill as usize] = b;
        *fill += 1;
        let fill = &mut start[b as usize + 1];
        values[*fill as usize] = a;
        *fill += 1;
    }
    start.pop();
    (start, values)
}

/// The unique edges and their corners exactly as [`unique_edges`] finds them on a manifold,
/// read off Quickhull's triangle adjacency when every face is one triangle alone (face `f`
/// is triangle `source[f]`, `face_of_tri` the inverse): the edge at corner `k` of face `f`
/// is new when the face across it comes later, and then the corner of that face where it
/// starts the other way is told the edge's index (`slot_edge`, three slots per face).
/// `None` when some face is not a lone triangle or the adjacency does not pair every
/// triangle edge with its reverse in another face (then [`unique_edges`] decides).
fn triangle_edges(
    tris: &[Tri],
    source: &[usize],
    face_of_tri: &[usize],
    faces: &[HullFace],
    face_indices: &[u32],
    lists: &mut Lists,
) -> Option<(Vec<HullEdge>, Vec<[u32; 2]>)> {
    let nf = faces.len();
    if source.len() != nf || faces.iter().any(|face| face.count != 3) {
        return None;
    }
    let slot_edge = &mut lists.slot_edge;
    slot_edge.clear();
    slot_edge.resize(3 * nf, u32::MAX);
    let mut edges: Vec<HullEdge> = Vec::with_capacity(face_indices.len() / 2);
    let mut corners: Vec<[u32; 2]> = Vec::with_capacity(face_indices.len() / 2);
    for (f, face) in faces.iter().enumerate() {
        let t = tris.get(source[f])?;
        for k in 0..3 {
            let corner = face.first + k as u32;
            let g = face_of_tri.get(t.nb[k] as usize).copied()?;
            if g > f && g < nf {
                // The slot of g's triangle running the other way, across from t.
                let u = tris.get(source[g])?;
                let (a, b) = (t.v[k], t.v[cyclic_next(k, 3)]);
                let j = (0..3).find(|&j| u.v[j] == b && u.v[cyclic_next(j, 3)] == a)?;
                if face_of_tri.get(u.nb[j] as usize) != Some(&f) || slot_edge[3 * g + j] != u32::MAX
                {
                    return None;
                }
                slot_edge[3 * g + j] = edges.len() as u32;
                corners.push([corner, u32::MAX]);
                let ends = [corner, face.first + cyclic_next(k, 3) as u32];
                edges.push(HullEdge {
                    vertices: ends.map(|c| face_indices[c as usize]),
                    faces: [f as u32, u32::MAX],
                });
            } else if g < f {
                let e = slot_edge[3 * f + k] as usize;
                let (edge, corner_pair) = (edges.get_mut(e)?, corners.get_mut(e)?);
                edge.faces[1] = f as u32;
                corner_pair[1] = corner;
            } else {
                return None;
            }
        }
    }
    Some((edges, corners))
}

/// The unique edges of the faces, in order of first appearance (running counter-clockwise in
/// `faces[0]`), whether every directed edge appears once and its reverse once, and each
/// edge's corners (see [`Assembled::corners`]).
///
/// Each vertex keeps the edges leaving it found so far (`out`, rows sized by the vertex's
/// number of face corners), so finding an edge's reverse scans one vertex's few edges.
fn unique_edges(
    nv: usize,
    faces: &[HullFace],
    face_indices: &[u32],
    lists: &mut Lists,
) -> (Vec<HullEdge>, bool, Vec<[u32; 2]>) {
    let Lists {
        edge_start: start,
        edge_fill: fill,
        edge_out: out,
        ..
    } = lists;
    start.clear();
    start.resize(nv + 1, 0);
    for &v in face_indices {
        start[v as usize + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    fill.clear();
    fill.extend_from_slice(start);
    // (other end, edge index) per directed edge stored as an edge's `vertices[0] → [1]`.
    out.clear();
    out.resize(start[nv], (u32::MAX, 0u32));
    let mut edges: Vec<HullEdge> = Vec::with_capacity(face_indices.len() / 2);
    let mut corners: Vec<[u32; 2]> = Vec::with_capacity(face_indices.len() / 2);
    let mut manifold = true;
    for (f, face) in faces.iter().enumerate() {
        let idx = &face_indices[face.first as usize..(face.first + face.count) as usize];
        for (k, &a) in idx.iter().enumerate() {
            let b = idx[cyclic_next(k, idx.len())];
            let row = |v: u32| &out[start[v as usize]..fill[v as usize]];
            let corner = face.first + k as u32;
            if let Some(&(_, e)) = row(b).iter().find(|&&(w, _)| w == a) {
                corners[e as usize][1] = corner;
                let e = &mut edges[e as usize];
                manifold &= e.faces[1] == u32::MAX;
                e.faces[1] = f as u32;
            } else if row(a).iter().any(|&(w, _)| w == b) {
                manifold = false;
            } else {
                out[fill[a as usize]] = (b, edges.len() as u32);
                fill[a as usize] += 1;
                corners.push([corner, u32::MAX]);
                edges.push(HullEdge {
                    vertices: [a, b],
                    faces: [f as u32, u32::MAX],
                });
            }
        }
    }
    manifold &= edges.iter().all(|e| e.faces[1] != u32::MAX);
    (edges, manifold, corners)
}
