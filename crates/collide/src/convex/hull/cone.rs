//! Step 3: the cone of new triangles from the horizon to the eye.

use super::quickhull::{Quickhull, Tri, NIL};
use super::{cyclic_next, cyclic_prev, HullError};

impl Quickhull<'_> {
    /// Adds one face `(a, b, eye)` per horizon edge, linked to the face beyond the horizon and
    /// to its two neighbours in the cone; returns the index of the first new face (the cone is
    /// `base .. tris.len()`, in horizon order). More triangles than `u32` indices reach:
    /// [`HullError::Unstable`].
    pub(super) fn cone(&mut self, eye: usize) -> Result<usize, HullError> {
        let base = self.tris.len();
        let nh = self.horizon.len();
        if base + nh >= NIL as usize {
            return Err(HullError::Unstable);
        }
        if !self.planes_ok || self.planes.len() != nh {
            return Err(HullError::Unstable);
        }
        for (i, &(ha, hb, g, j)) in self.horizon.iter().enumerate() {
            // Computed by the horizon's convexity check for this very horizon.
            let (n, d) = self.planes[i];
            let next = base + cyclic_next(i, nh);
            let prev = base + cyclic_prev(i, nh);
            self.tris
                .push(Tri::new([ha, hb, eye], [g, next, prev], n, d));
            // The face beyond keeps its copy of the edge (b → a), at `j`; point it at the new
            // face.
            self.tris[g].nb[j] = (base + i) as u32;
        }
        Ok(base)
    }
}
