//! The EPA polytope: faces with their adjacency, the horizon walk and the expansion loop.

use glam::DVec3;

use super::answer::{along_face, finish, flat_normal};
use super::{Expansion, Minkowski, Penetration, Start, MAX_FACES, MAX_ITERATIONS};
use crate::convex::gjk::{Vertex, TOLERANCE};
use crate::math::Vec3;

/// A polytope face: vertices counter-clockwise seen from outside; `adj[i]` is the face across
/// edge `i` (from `v[i]` to `v[(i + 1) % 3]`), `adj_edge[i]` that edge's index in `adj[i]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    pub(super) v: [usize; 3],
    pub(super) adj: [usize; 3],
    pub(super) adj_edge: [usize; 3],
    /// Unit outward normal (zero for a degenerate face).
    pub(super) n: DVec3,
    /// Signed distance of the face's plane from the origin along `n` (`INFINITY` when the face
    /// is degenerate, so it is never the nearest).
    pub(super) d: f64,
    pub(super) dead: bool,
}

/// The polytope: vertices of `A − B` (with their support points) and faces.
#[derive(Default)]
pub(super) struct Polytope {
    pub(super) verts: Vec<Vertex>,
    pub(super) faces: Vec<Face>,
    /// Each face's plane distance as its [`order_key`] while the face may still be the
    /// nearest (live, with a finite distance), the key of `INFINITY` otherwise, by face
    /// index: the expansion's next face has the least key. A pass over a few tens of integers
    /// costs less than keeping a heap, whose sifting branches on every new face's distance
    /// right after its square root and division.
    keys: Vec<i64>,
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
            // One division for the three components (and a product for the mean): the face
            // is built on every step's fan, so its divisions are on the expansion's hot path.
            let n = n * (1.0 / len);
            // Mean of the three vertices' distances, for a symmetric rounding error.
            (n, (n.dot(a) + n.dot(b) + n.dot(c)) * (1.0 / 3.0))
        } else {
            (DVec3::ZERO, f64::INFINITY)
        };
        // `d` is finite or `INFINITY` (a finite unit normal and finite vertices).
        self.keys.push(order_key(d));
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
        self.kill(f);
        for k in 1..3 {
            let ek = (e + k) % 3;
            let (g, ge) = (self.faces[f].adj[ek], self.faces[f].adj_edge[ek]);
            self.silhouette(g, ge, w, horizon);
        }
    }
}

/// How adding a support point to the polytope went.
enum Fan {
    /// The faces the point sees are replaced by a closed fan from the point to the horizon.
    Closed,
    /// The horizon has fewer than 3 edges, or the fan is not a closed loop (rounding made the
    /// horizon pass through a vertex twice, so two fan faces start at the same vertex and one
    /// is never linked): the topology is broken.
    Broken,
    /// A fan face has no neighbour starting where it ends.
    Unlinked,
}

impl Polytope {
    /// Makes this the polytope of the outward-oriented tetrahedron (see [`super::orient`]) in
    /// `verts`, its faces linked; the lists keep their room from earlier expansions.
    pub(super) fn start_tetrahedron(&mut self) {
        self.faces.clear();
        self.keys.clear();
        self.add_face(0, 1, 2);
        self.add_face(0, 3, 1);
        self.add_face(0, 2, 3);
        self.add_face(1, 3, 2);
        link_by_edges(&mut self.faces);
    }

    /// The expansion: the nearest face's support point either lies on that face (the answer)
    /// or replaces the faces it sees. Out of budget before converging, the nearest face's plane
    /// distance is only a lower bound of the depth, and the shapes may overlap by much more
    /// along its normal (a polytope left non-convex by faces without a normal cycles through
    /// the same support points until the budget runs out, its nearest face at distance 0):
    /// then the answer is the expanded normal along which `M` reaches least far, with that
    /// overlap as the depth, marked not converged ([`Expansion::converged`]) so that a caller
    /// with an exact method can use it instead.
    pub(super) fn grow<FA, FB>(
        &mut self,
        m: &mut Minkowski<FA, FB>,
        start: &Start<'_>,
        horizon: &mut Vec<(usize, usize)>,
    ) -> Option<Expansion>
    where
        FA: Fn(Vec3) -> Vec3,
        FB: Fn(Vec3) -> Vec3,
    {
        let exact = |pen: Option<Penetration>| {
            pen.map(|pen| Expansion {
                pen,
                converged: true,
            })
        };
        let bound_only = |pen: Option<Penetration>| {
            pen.map(|pen| Expansion {
                pen,
                converged: false,
            })
        };
        let tol = f64::from(TOLERANCE);
        let hint = start.hint;
        let mut best = 0usize;
        // The expanded normal along which M reaches least far: its support value there is the
        // shapes' overlap along it, an upper bound of the depth.
        let mut bound: Option<(f64, DVec3, Vertex)> = None;
        for _ in 0..MAX_ITERATIONS {
            let Some(f) = self.nearest_face() else {
                let n = flat_normal(&self.verts, hint.as_dvec3()).as_dvec3();
                return exact(start.touching(n));
            };
            best = f;
            let face = self.faces[f];
            let w = m.support(face.n)?;
            let gap = face.n.dot(w.w) - face.d;
            if gap <= tol * face.d.abs() + tol * m.scale {
                return exact(finish(self, f, hint));
            }
            let reach = face.n.dot(w.w);
            if bound.is_none_or(|(h, _, _)| reach < h) {
                bound = Some((reach, face.n, w));
            }
            if self.faces.len() + 2 * self.verts.len() > MAX_FACES {
                break; // Budget: a new fan adds at most (horizon length) faces.
            }
            match self.add_point(f, w, horizon) {
                Fan::Closed => {}
                Fan::Broken => return bound_only(along_face(face.n, &w, hint)),
                Fan::Unlinked => return bound_only(finish(self, f, hint)),
            }
        }
        bound_only(match bound {
            Some((_, n, w)) => along_face(n, &w, hint),
            None => finish(self, best, hint),
        })
    }

    /// The live face nearest the origin (least plane distance, the lowest index among equal
    /// ones), `None` when no face has a finite distance.
    fn nearest_face(&self) -> Option<usize> {
        // A strict "less" in index order: the least distance, the lowest index among equal
        // ones; faces at `INFINITY` never win.
        let mut best = (order_key(f64::INFINITY), usize::MAX);
        for (f, &k) in self.keys.iter().enumerate() {
            if k < best.0 {
                best = (k, f);
            }
        }
        (best.1 != usize::MAX).then_some(best.1)
    }

    /// Marks face `f` dead: removed from the polytope, never the nearest again.
    fn kill(&mut self, f: usize) {
        self.faces[f].dead = true;
        self.keys[f] = order_key(f64::INFINITY);
    }

    /// Replaces the faces `w` sees, starting from face `f`, by a fan of faces from `w` to the
    /// horizon (`horizon` is scratch space).
    #[inline]
    fn add_point(&mut self, f: usize, w: Vertex, horizon: &mut Vec<(usize, usize)>) -> Fan {
        let face = self.faces[f];
        // Remove the faces w sees, collecting the horizon loop.
        horizon.clear();
        self.kill(f);
        for e in 0..3 {
            let (g, ge) = (face.adj[e], face.adj_edge[e]);
            self.silhouette(g, ge, w.w, horizon);
        }
        if horizon.len() < 3 {
            return Fan::Broken;
        }
        let wi = self.verts.len();
        self.verts.push(w);
        // Fan: for horizon edge (g, e) from g.v[e] to g.v[e+1], the new face runs the other
        // way, (g.v[e+1], g.v[e], w), so its edge 0 is shared with g's edge e.
        let first_new = self.faces.len();
        for &(g, e) in horizon.iter() {
            let gv = self.faces[g].v;
            let nf = self.add_face(gv[(e + 1) % 3], gv[e], wi);
            self.faces[nf].adj[0] = g;
            self.faces[nf].adj_edge[0] = e;
            self.faces[g].adj[e] = nf;
            self.faces[g].adj_edge[e] = 0;
        }
        // Link consecutive fan faces: face i's edge 1 runs v[1] → w; its neighbour's edge 2
        // runs w → v[0] with that neighbour's v[0] equal to face i's v[1].
        let last = self.faces.len();
        for i in first_new..last {
            let from = self.faces[i].v[1];
            let Some(j) = (first_new..last).find(|&j| self.faces[j].v[0] == from) else {
                return Fan::Unlinked;
            };
            self.faces[i].adj[1] = j;
            self.faces[i].adj_edge[1] = 2;
            self.faces[j].adj[2] = i;
            self.faces[j].adj_edge[2] = 1;
        }
        // A fan face left with an unlinked edge (`usize::MAX`) would be indexed by the next
        // walk.
        if self.faces[first_new..last]
            .iter()
            .any(|g| g.adj.contains(&usize::MAX))
        {
            return Fan::Broken;
        }
        Fan::Closed
    }
}

/// An integer ordered as `f64::total_cmp` orders `d` (−0 before +0): the bits with the
/// magnitude bits flipped for negative numbers, compared as signed integers. One integer
/// comparison per face, where `total_cmp` recomputes both keys every time.
#[inline]
fn order_key(d: f64) -> i64 {
    let bits = d.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
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
