//! f64 oracles, written independently of the library (different algorithms where one exists,
//! always double precision), shared by collide's integration tests and the bench crate's
//! differential tests against parry3d.
//!
//! - this module: the primitives every oracle uses (closest points of segments and triangles,
//!   a box in f64);
//! - [`brute`]: distances, separating-axis gaps and touching bands by brute force (golden-section
//!   search, dense sampling, all 15 box axes);
//! - [`minkowski`]: every convex shape as a core vertex set plus a radius, with distance,
//!   overlap and penetration depth by exhaustive enumeration of the Minkowski difference (no
//!   GJK, no EPA);
//! - [`signed`]: the signed distance (separation or minus the penetration depth) of the pairs
//!   the static tests cover.

pub mod brute;
pub mod minkowski;
pub mod signed;

use collide::shapes::{Aabb, Obb};
use collide::Vec3;
use glam::DVec3;

/// `f32` vector → `f64`.
pub fn dv(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// The point of segment `a`–`b` closest to `p` (Ericson, RTCD §5.1.2: the projection,
/// clamped); `a` for a zero-length segment.
pub fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    // t = (p - a)·ab / |ab|², clamped to the segment.
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// The point of triangle `a`, `b`, `c` closest to `p` (Ericson, RTCD §5.1.5, Voronoi regions);
/// degenerate triangles fall back to the closest point of their edges.
pub fn closest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let n = (b - a).cross(c - a);
    if n.length_squared() <= 1e-24 * (b - a).length_squared() * (c - a).length_squared() {
        // Collinear or coincident corners: the triangle is its edges.
        let cands = [
            closest_on_segment(p, a, b),
            closest_on_segment(p, b, c),
            closest_on_segment(p, c, a),
        ];
        return cands
            .into_iter()
            .min_by(|x, y| {
                (*x - p)
                    .length_squared()
                    .total_cmp(&(*y - p).length_squared())
            })
            .unwrap_or(a);
    }
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a; // vertex region A
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b; // vertex region B
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3)); // edge region AB
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c; // vertex region C
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6)); // edge region AC
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))); // edge region BC
    }
    // Face region: barycentric (u, v, w) from the signed areas.
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// An oriented box in `f64`: centre, three axes (the columns of the `f32` box converted, not
/// re-orthonormalised) and half-extents.
#[derive(Clone, Copy, Debug)]
pub struct Box64 {
    /// Centre.
    pub c: DVec3,
    /// Unit axes.
    pub axes: [DVec3; 3],
    /// Half-extents.
    pub e: DVec3,
}

impl Box64 {
    /// The box of an OBB.
    pub fn from_obb(o: &Obb) -> Box64 {
        Box64 {
            c: dv(o.center),
            axes: [dv(o.axes.x_axis), dv(o.axes.y_axis), dv(o.axes.z_axis)],
            e: dv(o.half_extents),
        }
    }

    /// The box of an AABB.
    pub fn from_aabb(b: &Aabb) -> Box64 {
        let (lo, hi) = (dv(b.min), dv(b.max));
        Box64 {
            c: (lo + hi) * 0.5,
            axes: [DVec3::X, DVec3::Y, DVec3::Z],
            e: (hi - lo) * 0.5,
        }
    }

    /// Box-space coordinates of a world point (projection on each axis).
    pub fn local(&self, p: DVec3) -> DVec3 {
        let d = p - self.c;
        DVec3::new(
            d.dot(self.axes[0]),
            d.dot(self.axes[1]),
            d.dot(self.axes[2]),
        )
    }

    /// Distance from `p` to the solid box (0 inside).
    pub fn distance(&self, p: DVec3) -> f64 {
        let q = self.local(p);
        (q.abs() - self.e).max(DVec3::ZERO).length()
    }

    /// Signed distance from the box surface to `p`: negative inside.
    pub fn sdf(&self, p: DVec3) -> f64 {
        let q = self.local(p).abs() - self.e;
        let outside = q.max(DVec3::ZERO).length();
        let inside = q.max_element().min(0.0);
        outside + inside
    }

    /// Radius of the projection of the box on the unit axis `l`.
    pub fn radius_on(&self, l: DVec3) -> f64 {
        (0..3).map(|i| self.e[i] * self.axes[i].dot(l).abs()).sum()
    }

    /// The eight corners; corner `i` has `+e[k]` along axis `k` when bit `k` of `i` is set.
    pub fn corners(&self) -> [DVec3; 8] {
        std::array::from_fn(|i| {
            let s = |bit: usize, k: usize| if i & bit == 0 { -self.e[k] } else { self.e[k] };
            self.c + self.axes[0] * s(1, 0) + self.axes[1] * s(2, 1) + self.axes[2] * s(4, 2)
        })
    }

    /// The twelve edges as pairs of corners.
    pub fn edges(&self) -> [(DVec3, DVec3); 12] {
        let c = self.corners();
        let mut out = [(DVec3::ZERO, DVec3::ZERO); 12];
        let mut n = 0;
        for i in 0..8 {
            for bit in [1, 2, 4] {
                if i & bit == 0 {
                    out[n] = (c[i], c[i | bit]);
                    n += 1;
                }
            }
        }
        out
    }

    /// A size scale (largest extent), for tolerances.
    pub fn scale(&self) -> f64 {
        self.e.max_element().max(1e-3)
    }
}
