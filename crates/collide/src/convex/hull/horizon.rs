//! Step 2: the faces the eye sees and the horizon around them, repaired until every edge the
//! cone will make with the faces beyond is convex.

use glam::DVec3;

use super::quickhull::Quickhull;
use super::simplex::tri_plane;
use super::{cyclic_next, HullError};

impl Quickhull<'_> {
    /// Fills `visible` with the faces eye `pe` sees, starting from face `f0`, and `horizon`
    /// with the loop of edges `(a, b, face beyond)` around them; returns whether the convexity
    /// repair removed a face the eye is not clearly above.
    ///
    /// An ordered depth-first search of the visible faces: the horizon comes out as a
    /// counter-clockwise loop of edges when the visible set is a disk. Then every new face
    /// `(a, b, eye)` must make a convex edge with the face beyond: if that face's third vertex
    /// is not clearly below the new face (the eye is on or barely above the face beyond, or
    /// round-off folded it), the face beyond is visible too and the search runs again. This
    /// keeps the triangulation strictly convex (Gregorius 2014), checked per horizon edge.
    pub(super) fn horizon(&mut self, f0: usize, pe: DVec3) -> Result<bool, HullError> {
        let n = self.tris.len();
        // Grown to twice what is needed, so not at every iteration (each adds a few faces);
        // the marks of faces not yet made match no iteration and no pass.
        if self.stamp.len() < n {
            self.stamp.resize(2 * n, (usize::MAX, 0));
            self.dfs.resize(2 * n, 0);
        }
        let iter = self.iter;
        self.stamp[f0] = (iter, 1);
        let mut repaired = false;
        loop {
            self.visible_region(f0, pe)?;
            let mut grew = false;
            self.planes.clear();
            for &(ha, hb, g) in &self.horizon {
                let tri = &self.tris[g];
                let c = tri.verts().into_iter().find(|&v| v != ha && v != hb);
                // The new face's plane, kept for the cone when this is the last pass.
                let plane = tri_plane(self.pts[ha], self.pts[hb], pe);
                self.planes.push(plane);
                // Convex when c is below the new face. Only faces the eye is not clearly
                // below may be removed: that bounds how far the hull can retreat (eps / 64).
                let convex = match (c, plane) {
                    (Some(c), Some((n, d))) => n.dot(self.pts[c]) - d < 0.0,
                    _ => false,
                };
                if !convex && tri.dist(pe) > -self.eps_vis {
                    self.stamp[g] = (iter, 1);
                    grew = true;
                }
            }
            if !grew {
                return Ok(repaired);
            }
            repaired = true;
            self.repaired = true;
        }
    }

    /// One depth-first pass from `f0` over the faces marked or found visible (more than
    /// `eps_vis` below the eye `pe`), recording `visible` and the `horizon` edges in order.
    fn visible_region(&mut self, f0: usize, pe: DVec3) -> Result<(), HullError> {
        let iter = self.iter;
        self.pass += 1;
        let pass = self.pass;
        self.horizon.clear();
        self.visible.clear();
        self.stack.clear();
        self.dfs[f0] = pass;
        self.visible.push(f0);
        self.stack.push((f0, 0, 0));
        while let Some(top) = self.stack.last_mut() {
            let (f, entry, k) = *top;
            if k == 3 {
                self.stack.pop();
                continue;
            }
            top.2 += 1;
            let e = (entry + k) % 3;
            let g = self.tris[f].nb[e] as usize;
            if self.dfs[g] == pass {
                continue;
            }
            let vis = if self.stamp[g].0 == iter {
                self.stamp[g].1 == 1
            } else {
                let vis = self.tris[g].dist(pe) > self.eps_vis;
                self.stamp[g] = (iter, if vis { 1 } else { 2 });
                vis
            };
            let (ea, eb) = (
                self.tris[f].v[e] as usize,
                self.tris[f].v[(e + 1) % 3] as usize,
            );
            if vis {
                self.dfs[g] = pass;
                self.visible.push(g);
                // Enter g through its copy of the edge (b → a).
                let tg = self.tris[g].verts();
                let Some(eg) = (0..3).find(|&j| tg[j] == eb && tg[(j + 1) % 3] == ea) else {
                    return Err(HullError::Unstable);
                };
                self.stack.push((g, eg, 0));
            } else {
                self.horizon.push((ea, eb, g));
            }
        }
        Ok(())
    }

    /// Whether the horizon is one simple closed loop: at least three edges, each starting
    /// where the previous ends, no vertex twice. Marks its vertices in `on_horizon`.
    pub(super) fn horizon_is_simple(&mut self) -> bool {
        let nh = self.horizon.len();
        if nh < 3 {
            return false;
        }
        let iter = self.iter;
        for i in 0..nh {
            let (a, b, _) = self.horizon[i];
            if b != self.horizon[cyclic_next(i, nh)].0 || self.on_horizon[a] == iter {
                return false;
            }
            self.on_horizon[a] = iter;
        }
        true
    }
}
