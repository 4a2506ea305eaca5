//! Step 4: conflict redistribution. The points of the faces the eye removed go to the cone;
//! at the end, the points kept near the hull climb to their farthest face once more.

use super::quickhull::{next_in_list, PointList, Quickhull, NONE};

impl Quickhull<'_> {
    /// Removes the visible faces and hands their points to the cone `base ..` (Barber et al.:
    /// a point above a removed face and outside the new hull is above one of the new faces).
    ///
    /// After a `repaired` horizon the new faces may sit below a removed face's points without
    /// those points being inside the new hull (Barber et al.'s argument assumes the exact
    /// visible set): they are kept as near points, rechecked at the end.
    pub(super) fn redistribute(&mut self, base: usize, eye: usize, repaired: bool) {
        // Each removed face's outside points, then its near points, assigned as they are read
        // (the next point is read before `assign` relinks this one).
        let visible = std::mem::take(&mut self.visible);
        for &f in &visible {
            let tri = &mut self.tris[f];
            tri.alive = false;
            tri.succ = base as u32;
            let lists = [tri.outside, tri.near];
            (tri.outside, tri.near) = (PointList::EMPTY, PointList::EMPTY);
            for list in lists {
                let mut next = list.first();
                while let Some(i) = next {
                    next = next_in_list(&self.link, i);
                    if i != eye {
                        self.assign(base, i, repaired);
                    }
                }
            }
        }
        self.visible = visible;
        let mut orphans = std::mem::take(&mut self.orphans);
        orphans.clear();
        // The convexity repair may remove a face the eye is barely below, so the removed
        // region can swallow a vertex whose every face was removed although it lies outside
        // the new hull. In exact arithmetic the vertices inside the visible region are inside
        // the new hull; here they are reassigned like any orphan and come back if they are
        // above a new face. Each once (marked like the horizon vertices), in index order so
        // the result does not depend on the order the faces were found in.
        let iter = self.iter;
        for &f in &self.visible {
            for v in self.tris[f].verts() {
                if v != eye && self.on_horizon[v] != iter {
                    self.on_horizon[v] = iter;
                    orphans.push(v);
                }
            }
        }
        orphans.sort_unstable();
        for &i in &orphans {
            if i != eye {
                self.assign(base, i, repaired);
            }
        }
        self.orphans = orphans;
    }

    /// Puts point `i` in the outside or near set of the face among `tris[first..]` (all alive:
    /// the simplex or a new cone, whose planes are `planes`) it is farthest above, or drops it
    /// when it is more than `eps` inside all of them. With `keep`, a point more than `eps`
    /// inside goes to the near set instead of being dropped. Records the face as the point's
    /// `home` either way.
    #[inline(always)]
    pub(super) fn assign(&mut self, first: usize, i: usize, keep: bool) {
        let p = self.pts.at(i);
        // Selects rather than branches: which face is farthest is a coin toss per face.
        let (mut dist, mut f) = (f64::NEG_INFINITY, NONE);
        for (g, &(n, d)) in self.planes.iter().enumerate() {
            let h = n.dot(p) - d;
            let higher = h > dist;
            dist = if higher { h } else { dist };
            f = if higher { first + g } else { f };
        }
        if f == NONE {
            return;
        }
        self.home[i] = f as u32;
        if dist <= -self.eps && !keep {
            return;
        }
        if dist > self.eps {
            self.tris[f].outside.push(&mut self.link, i);
        } else {
            self.tris[f].near.push(&mut self.link, i);
        }
    }

    /// A near point may have ended up more than `eps` above a face built later (near a sharp
    /// edge the plane distances understate the distance to the hull): each climbs from its
    /// face to a face it is farthest above (steepest ascent over the triangle adjacency), and
    /// any found more than `eps` outside goes to that face's outside set and makes it pending.
    pub(super) fn recheck_near(&mut self) {
        for f in 0..self.tris.len() {
            if !self.tris[f].alive || self.tris[f].near.is_empty() {
                continue;
            }
            let mut next = self.tris[f].near.first();
            self.tris[f].near = PointList::EMPTY;
            while let Some(i) = next {
                // Read the successor before `i` moves to another list.
                next = next_in_list(&self.link, i);
                let p = self.pts.at(i);
                let (mut best, mut at) = (self.tris[f].dist(p), f);
                loop {
                    let mut moved = false;
                    for g in self.tris[at].nbs() {
                        let dist = self.tris[g].dist(p);
                        if dist > best {
                            (best, at, moved) = (dist, g, true);
                        }
                    }
                    if !moved {
                        break;
                    }
                }
                if best > self.eps {
                    self.tris[at].outside.push(&mut self.link, i);
                    self.home[i] = at as u32;
                    self.pending.push(at);
                } else {
                    self.tris[f].near.push(&mut self.link, i);
                }
            }
        }
    }
}
