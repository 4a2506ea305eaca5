//! Brute-force oracles in `f64`: distances by golden-section search or dense sampling, the
//! separating-axis gap over every candidate axis, closest points by a second algorithm, and
//! the band around touching inside which an `f32` answer may go either way.

use collide::shapes::{Capsule, Obb, Plane, Segment, Sphere};
use glam::{DMat3, DVec3};

use super::{dv, Box64};

/// The point of segment `a`–`b` closest to `p` in f64 (projection, clamped; `a` for a
/// zero-length segment).
pub use super::closest_on_segment as point_segment_closest;

/// A golden-section bracket of a function of one `f64`: the interval `[lo, hi]` and its two
/// inner probes `x1 < x2` with their values `f1`, `f2`.
#[derive(Clone, Copy, Debug)]
pub struct Golden {
    pub lo: f64,
    pub hi: f64,
    pub x1: f64,
    pub f1: f64,
    pub x2: f64,
    pub f2: f64,
}

impl Golden {
    /// The bracket `[lo, hi]` of `f`, its probes evaluated (`x1` first).
    pub fn new(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> Golden {
        let g = Self::ratio();
        let (x1, x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        let (f1, f2) = (f(x1), f(x2));
        Golden {
            lo,
            hi,
            x1,
            f1,
            x2,
            f2,
        }
    }

    /// The ratio the probes divide the interval by, `(√5 − 1) / 2`.
    fn ratio() -> f64 {
        (5f64.sqrt() - 1.0) / 2.0
    }

    /// One narrowing: to `[lo, x2]` when `low` (the minimum lies left of `x2`), else to
    /// `[x1, hi]`; one new probe of `f`.
    pub fn narrow(&mut self, f: impl Fn(f64) -> f64, low: bool) {
        let g = Self::ratio();
        if low {
            self.hi = self.x2;
            self.x2 = self.x1;
            self.f2 = self.f1;
            self.x1 = self.hi - g * (self.hi - self.lo);
            self.f1 = f(self.x1);
        } else {
            self.lo = self.x1;
            self.x1 = self.x2;
            self.f1 = self.f2;
            self.x2 = self.lo + g * (self.hi - self.lo);
            self.f2 = f(self.x2);
        }
    }
}

/// Minimum of a convex function of `s ∈ [0, 1]` by golden-section search (f64, 200 steps).
pub fn golden_min(f: impl Fn(f64) -> f64) -> (f64, f64) {
    let mut b = Golden::new(&f, 0.0, 1.0);
    for _ in 0..200 {
        b.narrow(&f, b.f1 <= b.f2);
    }
    let (lo, hi) = (b.lo, b.hi);
    // The ends too: a monotone function has its minimum there.
    let mut best = (0.0, f(0.0));
    for (s, v) in [(1.0, f(1.0)), ((lo + hi) * 0.5, f((lo + hi) * 0.5))] {
        if v < best.1 {
            best = (s, v);
        }
    }
    best
}

/// Distance from a point to a segment in f64 (projection, clamped).
pub fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    (point_segment_closest(p, a, b) - p).length()
}

/// Distance between two segments in f64 by golden-section search over the first segment's
/// parameter (the distance from a moving point to a segment is convex in it).
pub fn segment_segment_distance(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> f64 {
    golden_min(|s| point_segment_distance(a0 + (a1 - a0) * s, b0, b1)).1
}

/// Distance from a segment to a solid box in f64 by golden-section search.
pub fn segment_box_distance(a: DVec3, b: DVec3, bx: &Box64) -> f64 {
    golden_min(|s| bx.distance(a + (b - a) * s)).1
}

/// Distance from a segment to a solid box in f64 by dense sampling of `n + 1` points: an upper
/// bound on the true distance, larger by at most `|b - a| / (2 n)`.
pub fn segment_box_distance_sampled(a: DVec3, b: DVec3, bx: &Box64, n: usize) -> f64 {
    (0..=n)
        .map(|i| bx.distance(a + (b - a) * (i as f64 / n as f64)))
        .fold(f64::INFINITY, f64::min)
}

/// Exact distance between two solid boxes in f64: the minimum over the 24 edges of either box
/// of the edge's distance to the other box (one closest point of two convex polytopes can be
/// taken on an edge, and overlapping boxes have an edge of one meeting the other).
pub fn box_box_distance(a: &Box64, b: &Box64) -> f64 {
    let mut best = f64::INFINITY;
    for (p, q) in a.edges() {
        best = best.min(segment_box_distance(p, q, b));
    }
    for (p, q) in b.edges() {
        best = best.min(segment_box_distance(p, q, a));
    }
    best
}

/// Brute-force separating-axis test of two boxes in f64 over all 15 axes, normalised, with
/// near-zero cross products skipped. Returns the largest separation `|T·L| - r_a - r_b`
/// over the axes: `> 0` separated, `<= 0` overlapping.
pub fn sat_box_box(a: &Box64, b: &Box64) -> f64 {
    let t = b.c - a.c;
    let mut axes: Vec<DVec3> = Vec::with_capacity(15);
    axes.extend(a.axes);
    axes.extend(b.axes);
    for i in 0..3 {
        for k in 0..3 {
            let l = a.axes[i].cross(b.axes[k]);
            if l.length() > 1e-6 {
                axes.push(l.normalize());
            }
        }
    }
    axes.iter()
        .map(|&l| t.dot(l).abs() - a.radius_on(l) - b.radius_on(l))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Brute-force separating-axis test of a triangle and a box in f64: the box's 3 face normals,
/// the triangle normal and the 9 edge × axis cross products, normalised, near-zero skipped.
/// Returns the largest separation (`> 0` separated).
pub fn sat_triangle_box(tri: [DVec3; 3], b: &Box64) -> f64 {
    let edges = [tri[1] - tri[0], tri[2] - tri[1], tri[0] - tri[2]];
    let mut axes: Vec<DVec3> = b.axes.to_vec();
    let scale = edges
        .iter()
        .map(|e| e.length())
        .fold(0.0, f64::max)
        .max(1e-30);
    let n = edges[0].cross(edges[1]);
    if n.length() > 1e-9 * scale * scale {
        axes.push(n.normalize());
    }
    for e in edges {
        for ax in b.axes {
            let l = e.cross(ax);
            if l.length() > 1e-9 * scale {
                axes.push(l.normalize());
            }
        }
    }
    axes.iter()
        .map(|&l| {
            let p = tri.map(|v| (v - b.c).dot(l));
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            let r = b.radius_on(l);
            (lo - r).max(-r - hi)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Separating-axis test of two convex point sets in f64 over the given axes (normalised here,
/// near-zero ones skipped): the largest separation of their projections, `> 0` separated.
/// Over a complete set of axes (both shapes' face normals and the cross products of their
/// edges) it is the exact gap when apart, and minus the least penetration when overlapping.
pub fn sat_gap_over(axes: &[DVec3], a: &[DVec3], b: &[DVec3]) -> f64 {
    let span = |points: &[DVec3], l: DVec3| {
        points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.dot(l)), hi.max(p.dot(l)))
            })
    };
    axes.iter()
        .filter(|l| l.length() > 1e-12)
        .map(|l| {
            let l = l.normalize();
            let ((alo, ahi), (blo, bhi)) = (span(a, l), span(b, l));
            (blo - ahi).max(alo - bhi)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Sphere in f64: (centre, radius).
pub fn sphere64(s: &Sphere) -> (DVec3, f64) {
    (dv(s.center), f64::from(s.radius))
}

/// Capsule in f64: (a, b, radius).
pub fn capsule64(c: &Capsule) -> (DVec3, DVec3, f64) {
    (dv(c.a), dv(c.b), f64::from(c.radius))
}

/// Segment in f64.
pub fn segment64(s: &Segment) -> (DVec3, DVec3) {
    (dv(s.a), dv(s.b))
}

/// Signed distance of a point to a plane in f64, with the normal renormalised in f64.
pub fn plane_distance(p: &Plane, x: DVec3) -> f64 {
    let n = dv(p.normal);
    let len = n.length();
    (n.dot(x) + f64::from(p.d)) / len
}

/// Closest point of a filled triangle in f64 by a second algorithm: project onto the plane;
/// inside (barycentric coordinates all >= 0) it is the projection, else the nearest edge.
pub fn triangle_closest(p: DVec3, t: [DVec3; 3]) -> DVec3 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let n2 = n.length_squared();
    if n2 > 0.0 {
        let q = p - n * ((p - t[0]).dot(n) / n2);
        // Barycentric by signed sub-areas.
        let w0 = (t[1] - q).cross(t[2] - q).dot(n);
        let w1 = (t[2] - q).cross(t[0] - q).dot(n);
        let w2 = (t[0] - q).cross(t[1] - q).dot(n);
        if w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0 {
            return q;
        }
    }
    let mut best = t[0];
    for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
        let c = point_segment_closest(p, a, b);
        if (c - p).length_squared() < (best - p).length_squared() {
            best = c;
        }
    }
    best
}

/// The band around touching inside which an f32 answer may go either way: `1e-4` of the
/// scene's scale (the largest absolute coordinate or size, at least 1).
pub fn band(values: &[f32]) -> f64 {
    1e-4 * values
        .iter()
        .map(|v| f64::from(v.abs()))
        .fold(1.0, f64::max)
}

/// Every coordinate and size of an OBB, for [`band`].
pub fn obb_values(o: &Obb) -> Vec<f32> {
    let mut v = o.center.to_array().to_vec();
    v.extend(o.half_extents.to_array());
    v
}

/// The largest normalised separating-axis gap between two parallelepipeds given by centre,
/// edge vectors (columns) and half-extents, using their true face normals (cross products of
/// edge pairs) and the 9 edge cross products: exact SAT for parallelepipeds (for boxes, the face
/// normals are the axes). `<= 0` touching.
pub fn sat_gap(ca: DVec3, ma: DMat3, ea: DVec3, cb: DVec3, mb: DMat3, eb: DVec3) -> f64 {
    let a = [ma.x_axis, ma.y_axis, ma.z_axis];
    let b = [mb.x_axis, mb.y_axis, mb.z_axis];
    let mut axes = Vec::with_capacity(15);
    for k in 0..3 {
        axes.push(a[(k + 1) % 3].cross(a[(k + 2) % 3]));
        axes.push(b[(k + 1) % 3].cross(b[(k + 2) % 3]));
    }
    for x in a {
        for y in b {
            axes.push(x.cross(y));
        }
    }
    let t = cb - ca;
    let mut best = f64::NEG_INFINITY;
    for l in axes {
        let len = l.length();
        if len < 1e-13 {
            continue;
        }
        let ra: f64 = (0..3).map(|i| ea[i] * a[i].dot(l).abs()).sum();
        let rb: f64 = (0..3).map(|i| eb[i] * b[i].dot(l).abs()).sum();
        best = best.max((t.dot(l).abs() - ra - rb) / len);
    }
    best
}
