//! Step 1: the initial simplex, four input points spanning a volume, and the plane of a
//! triangle as every later step computes it.

use glam::DVec3;

use super::quickhull::{Points, Quickhull, Tri};
use super::HullError;

/// Four points spanning a volume, as indices, or the error saying why none exist.
pub(super) fn initial_simplex(
    pts: Points<'_>,
    eps: f64,
    tolerance: f32,
) -> Result<[usize; 4], HullError> {
    // The extreme points along each axis (the first of ties), the values so far kept beside
    // their indices; the farthest pair of them is the first edge.
    let mut ext = [0usize; 6];
    let Some(first) = pts.iter().next() else {
        return Err(HullError::Empty);
    };
    let (mut lo, mut hi) = (first.to_array(), first.to_array());
    for (i, p) in pts.iter().enumerate() {
        for (k, x) in p.to_array().into_iter().enumerate() {
            if x < lo[k] {
                (lo[k], ext[2 * k]) = (x, i);
            }
            if x > hi[k] {
                (hi[k], ext[2 * k + 1]) = (x, i);
            }
        }
    }
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    for &a in &ext {
        for &b in &ext {
            let d = pts.at(a).distance_squared(pts.at(b));
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    if best.sqrt() <= eps {
        return Err(HullError::Coincident { tolerance });
    }
    // Farthest point from the line i0 i1: |(p - a) × u| with u the unit direction.
    let (a, u) = (pts.at(i0), (pts.at(i1) - pts.at(i0)).normalize());
    let (mut i2, mut best) = (0, -1.0);
    for (i, p) in pts.iter().enumerate() {
        let d = (p - a).cross(u).length_squared();
        if d > best {
            (i2, best) = (i, d);
        }
    }
    if best.sqrt() <= eps {
        return Err(HullError::Collinear { tolerance });
    }
    // Farthest point from the plane i0 i1 i2.
    let Some((n, d)) = tri_plane(pts.at(i0), pts.at(i1), pts.at(i2)) else {
        return Err(HullError::Collinear { tolerance });
    };
    let (mut i3, mut best) = (0, -1.0);
    for (i, p) in pts.iter().enumerate() {
        let dist = (n.dot(p) - d).abs();
        if dist > best {
            (i3, best) = (i, dist);
        }
    }
    if best <= eps {
        return Err(HullError::Coplanar { tolerance });
    }
    Ok([i0, i1, i2, i3])
}

/// Unit normal and offset of triangle `(a, b, c)`, counter-clockwise seen from the normal.
///
/// The cross product is taken at the vertex opposite the longest edge (the largest angle), whose
/// relative error is smallest: `|δn| / |n| ≈ ε_64 · L / h` for base `L` and height `h`.
#[inline]
pub(super) fn tri_plane(a: DVec3, b: DVec3, c: DVec3) -> Option<(DVec3, f64)> {
    let (ab, bc, ca) = (b - a, c - b, a - c);
    let (lab, lbc, lca) = (
        ab.length_squared(),
        bc.length_squared(),
        ca.length_squared(),
    );
    // Largest angle is opposite the longest edge; cross the two edges leaving that vertex.
    // Each cross has the orientation of ab × ac (negating an edge is exact). All three are
    // formed and one is picked: cheaper than a mispredicted branch.
    let at_c = ca.cross(-bc); // (a - c) × (b - c)
    let at_a = ab.cross(-ca); // (b - a) × (c - a)
    let at_b = bc.cross(-ab); // (c - b) × (a - b)
    let n = if lab >= lbc && lab >= lca {
        at_c
    } else if lbc >= lca {
        at_a
    } else {
        at_b
    };
    let n = n.try_normalize()?;
    // The plane through the centroid: (a + b + c) / 3, the division moved past the dot.
    let d = n.dot(a + b + c) * (1.0 / 3.0);
    Some((n, d))
}

impl Quickhull<'_> {
    /// The tetrahedron on simplex `s` (oriented outward) with every other point in the
    /// outside or near set of the face it is farthest above, or dropped when more than `eps`
    /// inside all four; the faces with outside points are pending.
    pub(super) fn start(&mut self, s: [usize; 4]) -> Result<(), HullError> {
        let pts = self.pts;
        // Orient the tetrahedron so that s[3] is below the plane of (s[0], s[1], s[2]).
        let (n, d) =
            tri_plane(pts.at(s[0]), pts.at(s[1]), pts.at(s[2])).ok_or(HullError::Unstable)?;
        let [a, b, c, t] = if n.dot(pts.at(s[3])) - d > 0.0 {
            [s[0], s[2], s[1], s[3]]
        } else {
            s
        };
        // Faces (CCW from outside): abc, then for each edge of abc reversed, with the apex t.
        // Face 0 = (a,b,c); face 1 = (b,a,t); face 2 = (c,b,t); face 3 = (a,c,t).
        let verts = [[a, b, c], [b, a, t], [c, b, t], [a, c, t]];
        // Neighbours across v[i] → v[i+1].
        let nbs = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
        self.planes.clear();
        for (v, nb) in verts.iter().zip(nbs) {
            let (n, d) =
                tri_plane(pts.at(v[0]), pts.at(v[1]), pts.at(v[2])).ok_or(HullError::Unstable)?;
            self.tris.push(Tri::new(*v, nb, n, d));
            self.planes.push((n, d));
        }
        for i in 0..pts.len() {
            if !s.contains(&i) {
                self.assign(0, i, false);
            }
        }
        self.pending
            .extend((0..4).filter(|&f| !self.tris[f].outside.is_empty()));
        Ok(())
    }
}
