//! Step 2: the faces the eye sees and the horizon around them, repaired until every edge the
//! cone will make with the faces beyond is convex.

use glam::DVec3;

use super::quickhull::Quickhull;
use super::simplex::tri_plane;
use super::{cyclic_next, HullError};

/// `k % 3` for `k < 6`, without a division.
pub(super) const MOD3: [usize; 6] = [0, 1, 2, 0, 1, 2];

/// The mark of a face found visible in iteration `iter` (see [`Quickhull::stamp`]).
#[inline]
fn visible_mark(iter: usize) -> u64 {
    ((iter as u64) << 1) | 1
}

impl Quickhull<'_> {
    /// Fills `visible` with the faces eye `pe` sees, starting from face `f0`, `horizon` with
    /// the loop of edges `(a, b, face beyond, the edge's index there)` around them and
    /// `planes` with the new faces' planes; returns whether the convexity repair removed a
    /// face the eye is not clearly above.
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
            self.stamp.resize(2 * n, 0);
            self.dfs.resize(2 * n, 0);
        }
        let iter = self.iter;
        self.stamp[f0] = visible_mark(iter);
        let mut repaired = false;
        loop {
            self.visible_region(f0, pe)?;
            let mut grew = false;
            self.planes.clear();
            self.planes_ok = true;
            for &(ha, hb, g, j) in &self.horizon {
                let tri = &self.tris[g];
                // The face beyond runs the edge the other way, `v[j] = b`, `v[j + 1] = a`
                // (checked by the search): its third vertex is `v[j + 2]`.
                let c = tri.v[MOD3[j + 2]] as usize;
                // The new face's plane, kept for the cone when this is the last pass.
                let plane = tri_plane(self.pts.at(ha), self.pts.at(hb), pe);
                self.planes_ok &= plane.is_some();
                let (n, d) = plane.unwrap_or((DVec3::NAN, f64::NAN));
                self.planes.push((n, d));
                // Convex when c is below the new face (never for a degenerate face: NaN).
                // Only faces the eye is not clearly below may be removed: that bounds how far
                // the hull can retreat (eps / 64).
                let convex = n.dot(self.pts.at(c)) - d < 0.0;
                if !convex && tri.dist(pe) > -self.eps_vis {
                    self.stamp[g] = visible_mark(iter);
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
            let e = MOD3[entry + k];
            let tf = &self.tris[f];
            let (g, ea, eb) = (tf.nb[e] as usize, tf.v[e], tf.v[MOD3[e + 1]]);
            if self.dfs[g] == pass {
                continue;
            }
            // g's copy of the edge (b → a): entered through it, or kept on the horizon.
            let tg = &self.tris[g];
            // The first `j` with `v[j] = b` (2 when none), without a branch on the data:
            // 0 when `v[0] = b`, else 1 when `v[1] = b`, else 2.
            let j = usize::from(tg.v[0] != eb) * (1 + usize::from(tg.v[1] != eb));
            if tg.v[j] != eb || tg.v[MOD3[j + 1]] != ea {
                return Err(HullError::Unstable);
            }
            // The face's mark from this iteration, else the eye's height over it (computed
            // either way and chosen without a branch: which faces were met before is a coin
            // toss); the mark is stored either way (unchanged when it was this iteration's).
            let mark = self.stamp[g];
            let above = tg.dist(pe) > self.eps_vis;
            let vis = if mark >> 1 == iter as u64 {
                mark & 1 == 1
            } else {
                above
            };
            self.stamp[g] = ((iter as u64) << 1) | u64::from(vis);
            if vis {
                self.dfs[g] = pass;
                self.visible.push(g);
                self.stack.push((g, j, 0));
            } else {
                self.horizon.push((ea as usize, eb as usize, g, j));
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
            let (a, b, _, _) = self.horizon[i];
            if b != self.horizon[cyclic_next(i, nh)].0 || self.on_horizon[a] == iter {
                return false;
            }
            self.on_horizon[a] = iter;
        }
        true
    }
}
