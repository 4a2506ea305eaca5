//! A box against one triangle by separating axes: the 13 candidate axes, projections on
//! them, and the two shapes' supporting features along a normal. Shared by the mesh's exact
//! box cast and its box contacts.

use crate::math::Vec3;
use crate::shapes::{Obb, Segment, Triangle};
use glam::DVec3;

/// Squared length, relative to the squared lengths of its two factors, below which a cross
/// product axis counts as zero (parallel edges): it then separates nothing and is skipped,
/// which can only report contact, never miss one.
const DEGENERATE_AXIS: f64 = 1e-24;

/// Axis components (of unit vectors) below which a box axis counts as perpendicular to a
/// contact normal, and relative heights below which triangle corners tie: a box tilted by
/// less than about 1e-4 rad against a face still lies flat on it.
const FEATURE_EPS: f32 = 1e-4;

/// A box and a triangle in `f64` (the `f32` inputs' products exact to about 1e-16) with the
/// axes that can separate them.
///
/// Box and triangle are disjoint exactly when one of 13 axes separates them: the triangle's
/// normal, the box's three face normals and the nine cross products of a box edge with a
/// triangle edge (the face normals of their Minkowski difference). Degenerate cross products
/// (parallel edges) are left out, and so is the normal of a triangle of zero area.
pub(super) struct BoxTriangle {
    centre: DVec3,
    axes: [DVec3; 3],
    half: DVec3,
    corners: [DVec3; 3],
    candidates: [DVec3; 13],
    count: usize,
}

impl BoxTriangle {
    /// Box `b` and triangle `c`.
    pub(super) fn new(b: &Obb, c: &[Vec3; 3]) -> BoxTriangle {
        let axes = [
            b.axes.x_axis.as_dvec3(),
            b.axes.y_axis.as_dvec3(),
            b.axes.z_axis.as_dvec3(),
        ];
        let p = c.map(Vec3::as_dvec3);
        let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
        let mut candidates = [DVec3::ZERO; 13];
        let mut count = 0;
        // The box's face normals as cross products of its other two edges: exactly normal to
        // the parallelepiped the `f32` axes span.
        for k in 0..3 {
            candidates[count] = axes[(k + 1) % 3].cross(axes[(k + 2) % 3]);
            count += 1;
        }
        let normal = edges[0].cross(edges[1]);
        if normal.length_squared() > 0.0 {
            candidates[count] = normal;
            count += 1;
        }
        for a in &axes {
            for f in &edges {
                let l = a.cross(*f);
                if l.length_squared() > DEGENERATE_AXIS * a.length_squared() * f.length_squared() {
                    candidates[count] = l;
                    count += 1;
                }
            }
        }
        BoxTriangle {
            centre: b.center.as_dvec3(),
            axes,
            half: b.half_extents.abs().as_dvec3(),
            corners: p,
            candidates,
            count,
        }
    }

    /// The candidate axes (not unit).
    pub(super) fn axes(&self) -> &[DVec3] {
        &self.candidates[..self.count]
    }

    /// Along axis `l`: the box centre's offset from the middle of the triangle's projection,
    /// and the reach within which they overlap (the box's radius `Σ eᵢ|aᵢ·l|` plus the
    /// triangle projection's half-width). They overlap on `l` while `|offset| <= reach`.
    #[inline]
    pub(super) fn project(&self, l: DVec3) -> (f64, f64) {
        let d = self.corners.map(|q| q.dot(l));
        let (t0, t1) = (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]));
        let reach = self.half.x * self.axes[0].dot(l).abs()
            + self.half.y * self.axes[1].dot(l).abs()
            + self.half.z * self.axes[2].dot(l).abs()
            + 0.5 * (t1 - t0);
        (self.centre.dot(l) - 0.5 * (t0 + t1), reach)
    }
}

/// The unit axis `l` turned toward the box: the side its centre is on (offset `s`), or on the
/// plane itself the side it comes from (`w`, the rate of the offset; none: `+l`).
pub(super) fn toward_box(l: DVec3, s: f64, w: f64) -> DVec3 {
    let l = l.normalize();
    if s > 0.0 || (s == 0.0 && w <= 0.0) {
        l
    } else {
        -l
    }
}

/// The witness points of box `b` touching or overlapping triangle `c` by `depth` along the
/// unit normal `n` (from the triangle toward the box): [`feature_witnesses`] of the box's
/// corners deepest along `−n`.
pub(super) fn witnesses(b: &Obb, c: &[Vec3; 3], n: Vec3, depth: f32) -> (Vec3, Vec3) {
    let (corners, count) = box_feature(b, n);
    feature_witnesses(&corners[..count], c, n, depth)
}

/// The witness points of a convex shape touching or overlapping triangle `c` by `depth` along
/// the unit normal `n` (from the triangle toward the shape), from the supporting features:
/// `feature`, the shape's points deepest along `−n` (one corner, an edge's two ends, or a
/// face's corners in cyclic order), and the triangle's corners farthest along `n` (ties within
/// `FEATURE_EPS`). Returns `(on the triangle, on the shape)`, with
/// `on_triangle − on_shape = depth · n`: a single corner of the shape meets the triangle's
/// face; a single triangle corner meets the shape's face; two edges meet at their closest
/// points; a triangle edge against a face meets it at a corner of the edge over the face,
/// else the middle of the part over it; otherwise (the triangle's face against an edge or a
/// face) the triangle's point closest to the feature's centre.
///
/// The point on the triangle always lies on the triangle's supporting feature: an edge's
/// contact stays on that edge, so the internal-edge correction sees the feature the contact
/// really has.
pub(super) fn feature_witnesses(
    feature: &[Vec3],
    c: &[Vec3; 3],
    n: Vec3,
    depth: f32,
) -> (Vec3, Vec3) {
    if let [corner] = feature {
        return (*corner + n * depth, *corner);
    }
    let (top, ntop) = triangle_feature(c, n);
    let on_triangle = match (feature, &top[..ntop]) {
        (_, [p]) => *p,
        ([a, b], [p, q]) => {
            let pair =
                crate::closest::segment_segment(&Segment::new(*p, *q), &Segment::new(*a, *b));
            pair.on_first
        }
        (_, [p, q]) => edge_over_face(*p, *q, feature),
        _ => {
            let centre = feature.iter().copied().sum::<Vec3>() / feature.len().max(1) as f32;
            crate::closest::point_triangle(centre, &Triangle::new(c[0], c[1], c[2]))
        }
    };
    (on_triangle, on_triangle - n * depth)
}

/// Where segment `p`–`q` meets the convex face `f` (corners in cyclic order), seen along the
/// face's normal: the segment is clipped to the inner side of each of the face's edges
/// (Liang–Barsky, parameters `s ∈ [0, 1]` along the segment); an end of the segment within
/// the clipped part (the nearer to the face's centre when both are), else the clipped part's
/// middle. Where rounding leaves no part over the face, the segment's point closest to the
/// face's centre.
fn edge_over_face(p: Vec3, q: Vec3, f: &[Vec3]) -> Vec3 {
    let centre = f.iter().copied().sum::<Vec3>() / f.len().max(1) as f32;
    // The face's normal, turned with its corners' order: `normal × edge` points inward.
    let normal = f.iter().enumerate().fold(Vec3::ZERO, |sum, (i, a)| {
        let b = f[(i + 1) % f.len()];
        sum + (*a - centre).cross(b - centre)
    });
    let d = q - p;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for (i, a) in f.iter().enumerate() {
        let inward = normal.cross(f[(i + 1) % f.len()] - *a);
        // Inside while `(p + s·d − a)·inward >= 0`.
        let (x, w) = ((p - *a).dot(inward), d.dot(inward));
        if w == 0.0 {
            if x < 0.0 {
                (lo, hi) = (1.0, 0.0);
            }
            continue;
        }
        let s = -x / w;
        if w > 0.0 {
            lo = lo.max(s);
        } else {
            hi = hi.min(s);
        }
    }
    let ends = [(lo <= 0.0, p), (hi >= 1.0, q)];
    if lo <= hi {
        // A corner over the face is part of the contact, and the corner's normal cone holds
        // the edge's: the contact is at the corner (the one nearer the face's centre when
        // both are), as the general path's witnesses on the Minkowski difference's vertices
        // have it.
        let corners = ends.iter().filter(|e| e.0).map(|e| e.1);
        corners
            .min_by(|a, b| {
                (*a - centre)
                    .length_squared()
                    .total_cmp(&(*b - centre).length_squared())
            })
            .unwrap_or(p + d * (0.5 * (lo + hi)))
    } else {
        crate::closest::point_segment(centre, &Segment::new(p, q)).point
    }
}

/// The corners of box `b`'s feature deepest along `−n`: 1 (a corner), 2 (an edge) or 4 (a
/// face, in cyclic order). Axes within `FEATURE_EPS` of perpendicular to `n` are free.
fn box_feature(b: &Obb, n: Vec3) -> ([Vec3; 4], usize) {
    let mut base = b.center;
    let mut free = [Vec3::ZERO; 2];
    let mut nfree = 0;
    for i in 0..3 {
        let axis = b.axes.col(i);
        let half = axis * b.half_extents[i];
        let s = axis.dot(n);
        if s.abs() < FEATURE_EPS && nfree < 2 {
            free[nfree] = half;
            nfree += 1;
        } else {
            base += if s > 0.0 { -half } else { half };
        }
    }
    match nfree {
        0 => ([base; 4], 1),
        1 => ([base - free[0], base + free[0], base, base], 2),
        _ => {
            let (u, v) = (free[0], free[1]);
            ([base + u + v, base - u + v, base - u - v, base + u - v], 4)
        }
    }
}

/// The corners of triangle `c` within `FEATURE_EPS` (of its longest side from corner 0) of
/// the farthest along `n`: 1, 2 or 3 of them; none for a NaN `n`.
fn triangle_feature(c: &[Vec3; 3], n: Vec3) -> ([Vec3; 3], usize) {
    let reach = c.iter().map(|p| p.dot(n)).fold(f32::NEG_INFINITY, f32::max);
    let size = (c[1] - c[0]).length().max((c[2] - c[0]).length());
    let mut top = [Vec3::ZERO; 3];
    let mut count = 0;
    for p in c.iter().filter(|p| p.dot(n) >= reach - FEATURE_EPS * size) {
        top[count] = *p;
        count += 1;
    }
    (top, count)
}
