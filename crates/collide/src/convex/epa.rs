//! EPA: penetration depth, normal and witness points of two overlapping convex shapes.
//!
//! The Expanding Polytope Algorithm (van den Bergen, "Proximity queries and penetration depth
//! computation on 3D game objects", GDC 2001; van den Bergen 2003 §4.3.8; Ericson RTCD §9.5
//! notes). When GJK finds the origin inside the Minkowski difference `M = A − B`, the
//! penetration depth is the distance from the origin to the boundary of `M`, and the direction
//! of that nearest boundary point is the contact normal. EPA grows a polytope inside `M`,
//! starting from GJK's final simplex: take the polytope face nearest the origin, ask `M` for
//! its support point along that face's normal, and either stop (the support point is no farther
//! than the face: the face is on the boundary of `M`) or replace every face the new point sees
//! with a fan of faces from the point to the horizon.
//!
//! Robustness choices: all polytope geometry in `f64`; face adjacency kept explicitly and the
//! horizon found by a depth-first walk from the nearest face (so the visible region is
//! connected); a face and iteration budget ([`MAX_FACES`], [`MAX_ITERATIONS`]) after which the
//! answer is the expanded normal along which the shapes overlap least, with that overlap as
//! the depth (an upper bound of the minimum, exact along the normal reported); and documented
//! answers when `M` is flat, a segment or a point (see [`penetration`]).
//!
//! # Example
//!
//! ```rust
//! use collide::convex::epa::penetration;
//! use collide::shapes::Obb;
//! use collide::{Quat, Vec3};
//!
//! // Two 1 m cubes, B pushed 0.3 into A's +x face.
//! let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(0.5));
//! let b = Obb::new(Vec3::new(0.7, 0.0, 0.0), Quat::IDENTITY, Vec3::splat(0.5));
//! let p = penetration(&a, &b).unwrap();
//! assert!((p.depth - 0.3).abs() < 1e-4);
//! assert!((p.normal - Vec3::X).length() < 1e-4); // moving B by depth · normal separates them
//! // Apart: no penetration.
//! let far = Obb::new(Vec3::new(1.5, 0.0, 0.0), Quat::IDENTITY, Vec3::splat(0.5));
//! assert!(penetration(&a, &far).is_none());
//! ```

use glam::DVec3;

use super::gjk::{self, Run, Simplex, Vertex, TOLERANCE};
use super::support::SupportMap;
use crate::math::Vec3;

/// Largest number of polytope faces (live and dead) EPA allocates before it stops.
pub const MAX_FACES: usize = 256;

/// Largest number of expansion steps before EPA stops with the least overlap it has seen.
pub const MAX_ITERATIONS: u32 = 96;

/// Penetration of two overlapping convex shapes (the minimum translation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Unit contact normal pointing from A toward B: moving B by `depth · normal` (or A by the
    /// opposite) leaves the shapes touching.
    pub normal: Vec3,
    /// Penetration depth `>= 0` (0 when touching).
    pub depth: f32,
    /// The deepest point of A inside B, on A's surface.
    pub point_a: Vec3,
    /// The deepest point of B inside A, on B's surface; `point_a - point_b = depth · normal`.
    pub point_b: Vec3,
}

/// Penetration depth and normal of two convex shapes (GJK, then EPA; rounded shapes by their
/// cores plus radii, see [`super::contact`]).
///
/// `None` when the shapes are apart by more than the touching tolerance
/// ([`gjk::TOLERANCE`] × scale), or when any input is NaN/infinite. Touching shapes give
/// `depth == 0` (within tolerance). Degenerate Minkowski differences (both shapes flat in a
/// common plane, both segments on a common line, or both single points) cannot be expanded
/// to a polytope; they give depth 0 with the normal of the common plane (or a direction
/// perpendicular to the common line, or the direction between the shapes' interior points, or
/// `+x`), oriented from A toward B where that is defined. The normal is unit length always.
#[must_use]
pub fn penetration<A, B>(a: &A, b: &B) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    penetration_cached(a, b, &mut gjk::GjkCache::default())
}

/// [`penetration`] with GJK warm-started from (and updating) a per-pair [`gjk::GjkCache`].
#[must_use]
pub fn penetration_cached<A, B>(a: &A, b: &B, cache: &mut gjk::GjkCache) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    // Rounded shapes overlap through their margins even when their cores are apart, so the
    // penetration is the contact of margin zero (GJK on the cores + radii, EPA when the cores
    // overlap); a touching answer a rounding error apart is clamped to depth 0.
    let c = super::contact::contact_cached(a, b, 0.0, cache)?;
    Some(Penetration {
        normal: c.normal,
        depth: c.depth.max(0.0),
        point_a: c.point_a,
        point_b: c.point_b,
    })
}

/// A polytope face: vertices counter-clockwise seen from outside; `adj[i]` is the face across
/// edge `i` (from `v[i]` to `v[(i + 1) % 3]`), `adj_edge[i]` that edge's index in `adj[i]`.
#[derive(Clone, Copy, Debug)]
struct Face {
    v: [usize; 3],
    adj: [usize; 3],
    adj_edge: [usize; 3],
    /// Unit outward normal (zero for a degenerate face).
    n: DVec3,
    /// Signed distance of the face's plane from the origin along `n` (`INFINITY` when the face
    /// is degenerate, so it is never the nearest).
    d: f64,
    dead: bool,
}

/// The polytope: vertices of `A − B` (with their support points) and faces.
struct Polytope {
    verts: Vec<Vertex>,
    faces: Vec<Face>,
}

impl Polytope {
    /// Adds face `(i, j, k)` with its normal and plane distance; adjacency is set by the caller.
    fn add_face(&mut self, i: usize, j: usize, k: usize) -> usize {
        let (a, b, c) = (self.verts[i].w, self.verts[j].w, self.verts[k].w);
        let n = (b - a).cross(c - a);
        let len = n.length();
        // A face whose normal is lost to rounding (sine of its angles below ~1e-12) is kept
        // for the topology but never chosen as the nearest and never seen as visible.
        let scale2 = (b - a).length_squared().max((c - a).length_squared());
        let (n, d) = if len > 1e-12 * scale2 && len.is_finite() {
            let n = n / len;
            // Mean of the three vertices' distances, for a symmetric rounding error.
            (n, (n.dot(a) + n.dot(b) + n.dot(c)) / 3.0)
        } else {
            (DVec3::ZERO, f64::INFINITY)
        };
        self.faces.push(Face {
            v: [i, j, k],
            adj: [usize::MAX; 3],
            adj_edge: [0; 3],
            n,
            d,
            dead: false,
        });
        self.faces.len() - 1
    }

    /// `true` when the point `w` is strictly in front of face `f`'s plane.
    fn sees(&self, f: usize, w: DVec3) -> bool {
        let face = &self.faces[f];
        face.n.dot(w - self.verts[face.v[0]].w) > 0.0
    }

    /// Depth-first horizon search (van den Bergen 2003 §4.3.8; Bullet's `expand`): entering
    /// face `f` across its edge `e` from a face that `w` sees. A face `w` does not see
    /// contributes edge `e` to the horizon; a face it sees dies and its other two edges are
    /// walked, in order, so the horizon comes out as a closed loop.
    fn silhouette(&mut self, f: usize, e: usize, w: DVec3, horizon: &mut Vec<(usize, usize)>) {
        // An unlinked edge (`usize::MAX`) cannot be reached through a consistent fan (the
        // caller gives up on a fan it could not link), but the walk never indexes on trust.
        if self.faces.get(f).is_none_or(|face| face.dead) {
            return;
        }
        if !self.sees(f, w) {
            horizon.push((f, e));
            return;
        }
        self.faces[f].dead = true;
        for k in 1..3 {
            let ek = (e + k) % 3;
            let (g, ge) = (self.faces[f].adj[ek], self.faces[f].adj_edge[ek]);
            self.silhouette(g, ge, w, horizon);
        }
    }
}

/// Builds a full-dimensional initial tetrahedron from GJK's simplex (adding support points
/// when it has fewer than 4 vertices), then runs EPA. `None` only for non-finite support
/// points. `hint`: a direction from A toward B, used to orient degenerate answers.
pub(crate) fn expand<FA, FB>(sa: FA, sb: FB, run: &Run, hint: Vec3) -> Option<Penetration>
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    let scale = std::cell::Cell::new(run.scale);
    let support = |d: DVec3| -> Option<Vertex> {
        let d = gjk::to_dir(d);
        let (a, b) = (sa(d), sb(-d));
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        scale.set(
            scale
                .get()
                .max(f64::from(a.abs().max_element()))
                .max(f64::from(b.abs().max_element())),
        );
        Some(Vertex {
            w: a.as_dvec3() - b.as_dvec3(),
            a,
            b,
        })
    };
    let tol = f64::from(TOLERANCE);
    // The touching tolerance at the scale of the support points seen so far. Hardening
    // (issue 9, gjk_epa fuzz oracle): computed once from GJK's scale, it was 0 when GJK had
    // seen only the origin (a point on the end of a segment 8 long), so a point 1.6e-24 off
    // the segment made a "tetrahedron" and EPA answered a normal along the segment.
    let eps = || tol * scale.get().max(f64::MIN_POSITIVE);
    let s: &Simplex = &run.simplex;
    // GJK's simplex goes through the same tests as the support points added below: a vertex
    // is kept only if it is more than `eps` from the previous one, off their line, off their
    // plane. Hardening (fuzz target `gjk_epa`): GJK ended on a triangle two of whose vertices
    // were 2.5e-29 apart on a Minkowski difference 200 across; the two tetrahedron faces on
    // that edge had no normal f64 could resolve, were never seen from any point and never
    // removed, and the fans attached to them left the polytope non-convex. EPA then cycled
    // through the same three support points until the face budget ran out and answered depth
    // 0 along a normal the shapes overlapped by 0.088.
    let mut verts: Vec<Vertex> = Vec::with_capacity(4);
    for v in &s.v[..s.n] {
        if spans_new_dimension(&verts, v.w, eps()) {
            verts.push(*v);
        }
    }
    // The touching/common point GJK found, used by the degenerate answers.
    let (pa0, pb0) = s.witnesses();
    let degenerate = |normal: DVec3| -> Option<Penetration> {
        let mut n = normal;
        let h = hint.as_dvec3();
        if n.dot(h) < 0.0 {
            n = -n;
        }
        let n = unit_or(n, h);
        Some(Penetration {
            normal: n,
            depth: 0.0,
            point_a: pa0,
            point_b: pb0,
        })
    };

    // 1 vertex → 2: the first axis direction whose support point differs from it.
    if verts.len() == 1 {
        let w0 = verts[0].w;
        let mut found = false;
        for d in [
            DVec3::X,
            DVec3::NEG_X,
            DVec3::Y,
            DVec3::NEG_Y,
            DVec3::Z,
            DVec3::NEG_Z,
        ] {
            let v = support(d)?;
            if (v.w - w0).length() > eps() {
                verts.push(v);
                found = true;
                break;
            }
        }
        if !found {
            // M is a single point (both shapes are the same point).
            return degenerate(hint.as_dvec3());
        }
    }
    // 2 vertices → 3: directions ±p, ±q perpendicular to the segment; if M extends off the
    // line at all, one of them finds a point off it.
    if verts.len() == 2 {
        let dir = verts[1].w - verts[0].w;
        // Hardening (issue 9, gjk_epa fuzz oracle): glam's `any_orthonormal_vector` needs a
        // unit input; given the raw `dir` (length 0.044) it returned a vector 87° from the
        // perpendicular, so the search missed off-line points and the segment case answered
        // a normal along the segment (the shapes overlapped by 0.044 along it).
        let u = dir.normalize();
        let p = u.any_orthonormal_vector();
        let q = u.cross(p);
        let mut found = false;
        for d in [p, -p, q, -q] {
            let v = support(d)?;
            // Distance of v from the line through verts[0] along dir.
            let off = (v.w - verts[0].w).cross(dir).length() / dir.length();
            if off > eps() {
                verts.push(v);
                found = true;
                break;
            }
        }
        if !found {
            // M is a segment through the origin: any perpendicular separates at depth 0; the
            // hint's component across the segment when it has one. Hardening (issue 9,
            // gjk_epa fuzz oracle): a hint (nearly) along the segment leaves only rounding
            // noise after the projection, whose direction is arbitrary (a point on a thin box
            // got a normal 74° off the perpendicular): then the fixed perpendicular `p`.
            let h = hint.as_dvec3();
            let perp = h - dir * (h.dot(dir) / dir.length_squared());
            return degenerate(if perp.length() > 1e-6 * h.length() {
                perp
            } else {
                p
            });
        }
    }
    // 3 vertices → 4: the support point farther from the triangle's plane, on either side.
    if verts.len() == 3 {
        let n = (verts[1].w - verts[0].w).cross(verts[2].w - verts[0].w);
        let n = unit_or(n, DVec3::X).as_dvec3();
        let up = support(n)?;
        let down = support(-n)?;
        let (du, dd) = (n.dot(up.w - verts[0].w), -n.dot(down.w - verts[0].w));
        if du.max(dd) <= eps() {
            // M is flat: the shapes touch across their common plane.
            return degenerate(n);
        }
        verts.push(if du >= dd { up } else { down });
    }

    // Orient the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outward:
    // that needs det[w1 − w0, w2 − w0, w3 − w0] < 0.
    let det = {
        let w0 = verts[0].w;
        (verts[1].w - w0).dot((verts[2].w - w0).cross(verts[3].w - w0))
    };
    if det > 0.0 {
        verts.swap(1, 2);
    } else if det == 0.0 || !det.is_finite() {
        // GJK's 4-vertex simplex had zero volume (it reports the origin inside only for
        // same-signed non-zero volumes, so this is unreachable for finite input).
        return degenerate((verts[1].w - verts[0].w).cross(verts[2].w - verts[0].w));
    }
    let mut poly = Polytope {
        verts,
        faces: Vec::with_capacity(64),
    };
    poly.add_face(0, 1, 2);
    poly.add_face(0, 3, 1);
    poly.add_face(0, 2, 3);
    poly.add_face(1, 3, 2);
    link_by_edges(&mut poly.faces);

    let mut best = 0usize;
    // The expanded normal along which M reaches least far: its support value there is the
    // shapes' overlap along it, an upper bound of the depth, and the answer when the
    // expansion stops before it converges.
    let mut bound: Option<(f64, DVec3, Vertex)> = None;
    let mut horizon: Vec<(usize, usize)> = Vec::with_capacity(32);
    for _ in 0..MAX_ITERATIONS {
        // Nearest live face.
        let Some(f) = nearest_face(&poly.faces) else {
            // Every live face is degenerate: M is flat or thinner than f64 resolves its faces
            // (fuzz target `gjk_epa`: a needle 8 long and 1e-29 thick, whose expansion left
            // only sliver faces; the answer used to come from the last, dead, face: a normal
            // along the needle with depth 0). The flat answer: depth 0 across what M spans.
            return degenerate(flat_normal(&poly.verts, hint.as_dvec3()).as_dvec3());
        };
        best = f;
        let face = poly.faces[f];
        let w = support(face.n)?;
        // Converged when the support point along the face normal is no farther than the face:
        // the face lies on the boundary of M (within the relative/absolute tolerance).
        let gap = face.n.dot(w.w) - face.d;
        if gap <= tol * face.d.abs() + tol * scale.get() {
            return finish(&poly, f, hint);
        }
        let reach = face.n.dot(w.w);
        if bound.is_none_or(|(h, _, _)| reach < h) {
            bound = Some((reach, face.n, w));
        }
        if poly.faces.len() + 2 * poly.verts.len() > MAX_FACES {
            break; // Budget: a new fan adds at most (horizon length) faces.
        }
        // Remove the faces w sees, collecting the horizon loop.
        horizon.clear();
        poly.faces[f].dead = true;
        for e in 0..3 {
            let (g, ge) = (face.adj[e], face.adj_edge[e]);
            poly.silhouette(g, ge, w.w, &mut horizon);
        }
        if horizon.len() < 3 {
            // Rounding broke the topology: answer along this face's normal.
            return along_face(face.n, &w, hint);
        }
        let wi = poly.verts.len();
        poly.verts.push(w);
        // Fan: for horizon edge (g, e) from g.v[e] to g.v[e+1], the new face runs the other
        // way, (g.v[e+1], g.v[e], w), so its edge 0 is shared with g's edge e.
        let first_new = poly.faces.len();
        for &(g, e) in &horizon {
            let gv = poly.faces[g].v;
            let nf = poly.add_face(gv[(e + 1) % 3], gv[e], wi);
            poly.faces[nf].adj[0] = g;
            poly.faces[nf].adj_edge[0] = e;
            poly.faces[g].adj[e] = nf;
            poly.faces[g].adj_edge[e] = 0;
        }
        // Link consecutive fan faces: face i's edge 1 runs v[1] → w; its neighbour's edge 2
        // runs w → v[0] with that neighbour's v[0] equal to face i's v[1].
        let last = poly.faces.len();
        for i in first_new..last {
            let from = poly.faces[i].v[1];
            let Some(j) = (first_new..last).find(|&j| poly.faces[j].v[0] == from) else {
                return finish(&poly, f, hint);
            };
            poly.faces[i].adj[1] = j;
            poly.faces[i].adj_edge[1] = 2;
            poly.faces[j].adj[2] = i;
            poly.faces[j].adj_edge[2] = 1;
        }
        // Hardening (fuzz target `sweep`, two coincident boxes 5e17 across): rounding can make
        // the horizon pass through a vertex twice, so two fan faces start at the same vertex,
        // one face is never linked and its edge stays `usize::MAX` (the next walk indexed it).
        // A fan that is not a closed loop means the topology is broken: answer along the
        // face being expanded, as for a short horizon.
        if poly.faces[first_new..last]
            .iter()
            .any(|g| g.adj.contains(&usize::MAX))
        {
            return along_face(face.n, &w, hint);
        }
    }
    // Out of budget before converging. The nearest face's plane distance is only a lower
    // bound of the depth, and the shapes may overlap by much more along its normal: answer
    // along the expanded normal with the least overlap, with that overlap as the depth.
    // Hardening (fuzz target `gjk_epa`): a polytope left non-convex by two faces without a
    // normal cycled through the same support points until the budget ran out, and its
    // nearest face (plane distance -9e-30) answered depth 0 along a normal the shapes
    // overlapped by 0.088.
    match bound {
        Some((_, n, w)) => along_face(n, &w, hint),
        None => finish(&poly, best, hint),
    }
}

/// `true` when `w` is more than `eps` from what `verts` (0 to 3 points, each already more than
/// `eps` off the span of those before it) span: from the point, the line, the plane. With 4
/// points there is nothing left to span.
fn spans_new_dimension(verts: &[Vertex], w: DVec3, eps: f64) -> bool {
    match verts {
        [] => true,
        [p] => (w - p.w).length() > eps,
        [p, q] => {
            let dir = q.w - p.w;
            (w - p.w).cross(dir).length() / dir.length() > eps
        }
        [p, q, r] => {
            let n = (q.w - p.w).cross(r.w - p.w);
            n.dot(w - p.w).abs() / n.length() > eps
        }
        _ => false,
    }
}

/// The penetration answer from face `f` of the polytope: the origin's projection on the face,
/// `p = d n`, written in barycentric weights of the face, gives the witness points on A and B
/// (`Σλ a_i − Σλ b_i = Σλ w_i = p`).
///
/// A flat face of `M` is usually split into several coplanar polytope triangles with equal
/// plane distances, and the nearest one by distance need not be the one `p` falls in; so the
/// live faces coplanar with `f` are searched for the one containing `p` (largest smallest
/// weight). Weights a hair outside are clamped and renormalised.
fn finish(poly: &Polytope, f: usize, hint: Vec3) -> Option<Penetration> {
    let face = &poly.faces[f];
    // Hardening (issue 9, fuzz target `gjk_epa`): when every face is degenerate (`d =
    // INFINITY`: a Minkowski difference thinner than f64 resolves, e.g. a box of subnormal
    // thickness touching a point), the "nearest" face has an infinite distance and the answer
    // was `depth = inf` with NaN weights. Such an M is flat: answer as the flat cases do,
    // depth 0 at the origin (the normal falls back to `hint`, as `face.n` is zero).
    let dist = if face.d.is_finite() { face.d } else { 0.0 };
    let p = face.n * dist;
    let weights = |g: &Face| {
        let [i, j, k] = g.v;
        barycentric(p, poly.verts[i].w, poly.verts[j].w, poly.verts[k].w)
    };
    let mut best = (f, weights(face));
    let min_w = |l: &[f64; 3]| l[0].min(l[1]).min(l[2]);
    if min_w(&best.1) < 0.0 {
        let tol = 1e-9 * face.d.abs().max(1.0);
        for (g, other) in poly.faces.iter().enumerate() {
            if other.dead || g == f || other.n.dot(face.n) < 1.0 - 1e-9 {
                continue;
            }
            if (other.d - face.d).abs() > tol.max(1e-6 * face.d.abs()) {
                continue;
            }
            let l = weights(other);
            if min_w(&l) > min_w(&best.1) {
                best = (g, l);
            }
        }
    }
    let (g, l) = best;
    let l = clamp_weights(l);
    let [i, j, k] = poly.faces[g].v;
    let (va, vb, vc) = (poly.verts[i], poly.verts[j], poly.verts[k]);
    let pa = l[0] * va.a.as_dvec3() + l[1] * vb.a.as_dvec3() + l[2] * vc.a.as_dvec3();
    let pb = l[0] * va.b.as_dvec3() + l[1] * vb.b.as_dvec3() + l[2] * vc.b.as_dvec3();
    let normal = if face.d.is_finite() {
        unit_or(face.n, hint.as_dvec3())
    } else {
        flat_normal(&poly.verts, hint.as_dvec3())
    };
    let depth = dist.max(0.0);
    // Hardening (issue 9, gjk_epa fuzz oracle): on a needle-shaped face the weights are
    // ill-conditioned, and their error moves each witness by that shape's spread among the
    // face's support points: a capsule 1.3e-3 long touching a 1e-9 box got `point_b` 2e-4
    // off, breaking `point_a − point_b = depth · normal`. Take the witness of the shape whose
    // support points are tighter and place the other by that identity.
    let spread = |x: DVec3, y: DVec3, z: DVec3| (y - x).length().max((z - x).length());
    let tight_a = spread(va.a.as_dvec3(), vb.a.as_dvec3(), vc.a.as_dvec3())
        <= spread(va.b.as_dvec3(), vb.b.as_dvec3(), vc.b.as_dvec3());
    let (pa, pb) = if tight_a {
        (pa, pa - normal.as_dvec3() * depth)
    } else {
        (pb + normal.as_dvec3() * depth, pb)
    };
    Some(Penetration {
        normal,
        depth: depth as f32,
        point_a: pa.as_vec3(),
        point_b: pb.as_vec3(),
    })
}

/// The answer when the expansion cannot go on (rounding broke the polytope's topology) from
/// the face being expanded, of unit normal `n`, and the support point `w` of `M` along it:
/// depth `n · w`, the overlap of the shapes along `n` (moving B by that much along `n`
/// separates them). Not the minimum over all directions, but never less than the overlap
/// along the normal reported. Before (fuzz target `sweep`, two coincident boxes 5e17 across)
/// the face's own plane distance was used, which the support point had just shown to be
/// short (2.9e17 reported where the overlap along the normal was 5e17).
fn along_face(n: DVec3, w: &Vertex, hint: Vec3) -> Option<Penetration> {
    let normal = unit_or(n, hint.as_dvec3());
    let depth = normal.as_dvec3().dot(w.w).max(0.0);
    let point_a = w.a.as_dvec3();
    Some(Penetration {
        normal,
        depth: depth as f32,
        point_a: w.a,
        point_b: (point_a - normal.as_dvec3() * depth).as_vec3(),
    })
}

/// The normal of a polytope whose faces are all degenerate (a Minkowski difference flat or
/// thin beyond `f64`'s resolution of its faces): perpendicular to what the vertices span, on
/// the side of `hint`. A flat set gives its plane's normal; a segment gives `hint` without its
/// component along the segment (or any perpendicular when `hint` lies along it).
///
/// Hardening (fuzz target `gjk_epa`): a degenerate polytope used to answer `hint` (or a stale
/// face's normal), which for a segment-shaped difference 8 long and 1e-29 thick lay along the
/// segment, so the shapes overlapped by 1.12 along a normal reported with depth 0.
fn flat_normal(verts: &[Vertex], hint: DVec3) -> Vec3 {
    let Some(w0) = verts.first().map(|v| v.w) else {
        return unit_or(hint, DVec3::Z);
    };
    let far = |f: &dyn Fn(DVec3) -> f64| {
        verts
            .iter()
            .map(|v| v.w)
            .max_by(|x, y| f(*x).total_cmp(&f(*y)))
            .unwrap_or(w0)
    };
    let e1 = far(&|w| (w - w0).length_squared()) - w0;
    let len1 = e1.length();
    if !(len1 > 0.0 && len1.is_finite()) {
        return unit_or(hint, DVec3::Z);
    }
    let u1 = e1 / len1;
    let w2 = far(&|w| (w - w0).cross(u1).length_squared());
    let n = u1.cross(w2 - w0);
    // Flat (off the line by more than the 1e-12 relative resolution of the faces): the plane.
    let n = if n.length() > 1e-12 * len1 {
        n
    } else {
        let perp = hint - u1 * hint.dot(u1);
        if perp.length() > 1e-6 * hint.length() {
            perp
        } else {
            u1.any_orthonormal_vector()
        }
    };
    unit_or(if n.dot(hint) < 0.0 { -n } else { n }, DVec3::Z)
}

/// Barycentric weights of `p` in triangle `a b c` (Ericson RTCD §3.4), unclamped; a
/// degenerate triangle gives `[1, 0, 0]` (its first vertex).
fn barycentric(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> [f64; 3] {
    let (v0, v1, v2) = (b - a, c - a, p - a);
    let (d00, d01, d11) = (v0.dot(v0), v0.dot(v1), v1.dot(v1));
    let (d20, d21) = (v2.dot(v0), v2.dot(v1));
    let den = d00 * d11 - d01 * d01;
    if den.is_nan() || den <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let v = (d11 * d20 - d01 * d21) / den;
    let w = (d00 * d21 - d01 * d20) / den;
    [1.0 - v - w, v, w]
}

/// Weights clamped to `>= 0` and renormalised (rounding can put a projection a hair outside).
fn clamp_weights(l: [f64; 3]) -> [f64; 3] {
    let l = [l[0].max(0.0), l[1].max(0.0), l[2].max(0.0)];
    let sum = l[0] + l[1] + l[2];
    if sum > 0.0 && sum.is_finite() {
        [l[0] / sum, l[1] / sum, l[2] / sum]
    } else {
        [1.0, 0.0, 0.0]
    }
}

/// The live face nearest the origin (smallest plane distance), skipping degenerate faces.
fn nearest_face(faces: &[Face]) -> Option<usize> {
    let mut best = None;
    let mut best_d = f64::INFINITY;
    for (i, f) in faces.iter().enumerate() {
        if !f.dead && f.d < best_d {
            best_d = f.d;
            best = Some(i);
        }
    }
    best
}

/// Sets the adjacency of a closed set of faces by matching opposite edges (used for the
/// initial tetrahedron).
fn link_by_edges(faces: &mut [Face]) {
    for f in 0..faces.len() {
        for e in 0..3 {
            let (p, q) = (faces[f].v[e], faces[f].v[(e + 1) % 3]);
            for g in 0..faces.len() {
                if g == f {
                    continue;
                }
                for ge in 0..3 {
                    if faces[g].v[ge] == q && faces[g].v[(ge + 1) % 3] == p {
                        faces[f].adj[e] = g;
                        faces[f].adj_edge[e] = ge;
                    }
                }
            }
        }
    }
}

/// `v / |v|` as `f32`, falling back to `fallback / |fallback|`, then to `+x`: always unit.
fn unit_or(v: DVec3, fallback: DVec3) -> Vec3 {
    for c in [v, fallback] {
        let len = c.length();
        if len > 0.0 && len.is_finite() {
            let u = (c / len).as_vec3();
            // Re-normalise in f32 so that |u| = 1 to f32 precision.
            let l = u.length();
            if l > 0.0 {
                return u / l;
            }
        }
    }
    Vec3::X
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;
    use crate::shapes::{Aabb, Obb, Segment, Sphere, Triangle};

    #[test]
    fn boxes_overlapping_along_x() {
        // Scenario: unit boxes with centres 1.5 apart on x overlap by 0.5; normal +x.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(1.5, 0.2, -0.1), Vec3::ONE);
        let p = penetration(&a, &b).unwrap();
        assert_near!(p.depth, 0.5, 1e-5);
        assert_near!(p.normal, Vec3::X, 1e-5);
        assert_near!(p.point_a - p.point_b, p.normal * p.depth, 1e-5);
        assert_near!(p.point_a.x, 1.0, 1e-5);
        assert_near!(p.point_b.x, 0.5, 1e-5);
        // Swapped: the normal flips.
        let q = penetration(&b, &a).unwrap();
        assert_near!(q.normal, -Vec3::X, 1e-5);
        assert_near!(q.depth, 0.5, 1e-5);
    }

    #[test]
    fn apart_is_none_touching_is_zero() {
        // Scenario: boxes 0.1 apart → None; faces touching → depth 0.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let apart = Aabb::from_center_half_extents(Vec3::new(2.1, 0.0, 0.0), Vec3::ONE);
        assert!(penetration(&a, &apart).is_none());
        let touch = Aabb::from_center_half_extents(Vec3::new(2.0, 0.5, 0.0), Vec3::ONE);
        let p = penetration(&a, &touch).unwrap();
        assert_near!(p.depth, 0.0, 1e-6);
        assert_near!(p.normal, Vec3::X, 1e-5);
    }

    #[test]
    fn deep_rotated_boxes_and_spheres() {
        // Scenario: a rotated box inside a big box; a sphere overlapping a box (curved EPA).
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(3.0, 2.0, 1.0));
        let b = Obb::new(
            Vec3::new(0.0, 0.0, 0.5),
            Quat::from_rotation_z(0.7),
            Vec3::splat(0.3),
        );
        let p = penetration(&a, &b).unwrap();
        // Nearest exit: push b up through the top face z = 1: b's lowest point is 0.2.
        assert_near!(p.normal, Vec3::Z, 1e-5);
        assert_near!(p.depth, 0.8, 1e-5);
        let s = Sphere::new(Vec3::new(0.0, 0.0, 1.5), 1.0);
        let p = penetration(&a, &s).unwrap();
        assert_near!(p.normal, Vec3::Z, 1e-3);
        assert_near!(p.depth, 0.5, 1e-3);
    }

    #[test]
    fn degenerate_minkowski_differences() {
        // Scenario: coplanar overlapping triangles (flat M), crossing segments, same point.
        let t1 = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
        let t2 = Triangle::new(
            Vec3::new(0.2, 0.2, 0.0),
            Vec3::new(2.0, 0.2, 0.0),
            Vec3::Y * 2.0,
        );
        let p = penetration(&t1, &t2).unwrap();
        assert_eq!(p.depth, 0.0);
        assert_near!(p.normal.z.abs(), 1.0, 1e-6);
        let s1 = Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X);
        let s2 = Segment::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y);
        let p = penetration(&s1, &s2).unwrap();
        assert_near!(p.depth, 0.0, 1e-6);
        assert_near!(p.normal.length(), 1.0, 1e-6);
        assert_near!(p.normal.z.abs(), 1.0, 1e-5);
        let q = penetration(&Vec3::ONE, &Vec3::ONE).unwrap();
        assert_eq!(q.depth, 0.0);
        assert_near!(q.normal.length(), 1.0, 1e-6);
        // Collinear segments overlapping: M is a segment; the normal is perpendicular to it.
        let c1 = Segment::new(Vec3::ZERO, Vec3::X);
        let c2 = Segment::new(Vec3::new(0.5, 0.0, 0.0), Vec3::new(2.0, 0.0, 0.0));
        let p = penetration(&c1, &c2).unwrap();
        assert_near!(p.normal.x, 0.0, 1e-6);
        assert_near!(p.normal.length(), 1.0, 1e-6);
    }

    include!("../../tests/data/epa_coincident_corner.rs");

    #[test]
    fn unconverged_expansion_answers_the_overlap_along_its_normal() {
        // White-box: the shapes of `epa_gjk_simplex_with_coincident_vertices` (adversarial
        // tests), with GJK's scale zeroed so that EPA's spanning tests keep two simplex
        // vertices 2.5e-29 apart. That is the polytope EPA used to build: two faces without a
        // normal, never removed, and an expansion cycling until the face budget ran out. Such
        // an exit must still answer a depth equal to the overlap along the normal it reports.
        let (a, b) = (CORNER_HULL.to_vec(), CORNER_CLOUD.to_vec());
        let sa = |d: Vec3| a.core_support(d);
        let sb = |d: Vec3| b.core_support(d);
        let guess = gjk::initial_guess(&a, &b, &gjk::GjkCache::default());
        let mut run = gjk::run(sa, sb, guess, 0.0, 0.0);
        assert_eq!(run.status, gjk::Status::Intersecting);
        assert_eq!(run.simplex.n, 3);
        run.scale = 0.0;
        let hint = b.interior_point() - a.interior_point();
        let p = expand(sa, sb, &run, hint).unwrap();
        let n = p.normal;
        assert_near!(n.length(), 1.0, 1e-6);
        let overlap = f64::from(n.dot(a.support(n))) - f64::from(n.dot(b.support(-n)));
        assert!(
            (overlap - f64::from(p.depth)).abs() <= 1e-6 * 203.3,
            "{p:?}: overlap along the normal {overlap}"
        );
        assert_near!(p.point_a - p.point_b, n * p.depth, 1e-4);
    }

    #[test]
    fn nan_is_none() {
        // Scenario: NaN input gives no contact.
        let a = Aabb::from_center_half_extents(Vec3::NAN, Vec3::ONE);
        assert!(penetration(&a, &Vec3::ZERO).is_none());
    }
}
