//! Shape casts against a mesh or heightfield: the first time a moving convex shape touches
//! any triangle.

use super::box_triangle::{toward_box, witnesses, BoxTriangle};
use super::contact::support_box;
use super::TriangleSet;
use crate::convex::SupportMap;
use crate::math::Vec3;
use crate::shapes::{Aabb, Obb, Triangle};
use crate::sweep::{self, ALONG_TOLERANCE};
use glam::DVec3;

/// The first contact of a convex shape moving against a mesh or heightfield.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshShapeHit {
    /// Normalised time of first contact in `[0, 1]` along the motion (`0`: touching or
    /// overlapping a triangle at the start and moving deeper into it).
    pub toi: f32,
    /// A contact point at `toi`.
    pub point: Vec3,
    /// Unit normal at `toi`, from the mesh toward the shape.
    pub normal: Vec3,
    /// The triangle touched first (the smallest index on a tie).
    pub triangle: u32,
}

/// The first triangle a shape moving by `motion` touches. The set walks the triangles whose
/// boxes the shape's box reaches along the motion, nearer first, and stops past the earliest
/// hit; each is tested by the exact box–triangle sweep ([`box_triangle`]) when the shape is a
/// box ([`SupportMap::as_obb`]), else by conservative advancement ([`crate::sweep::convex`]),
/// which never steps past a contact. Either way the time is never late. The starting-touch
/// rule applies per triangle (a triangle touched at the start and not moved into is skipped,
/// so a shape sliding on a floor still meets a wall of the same mesh). NaN motion or shape:
/// `None`.
pub(crate) fn cast<T, S>(set: &T, shape: &S, motion: Vec3) -> Option<MeshShapeHit>
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    if !motion.is_finite() {
        return None;
    }
    let start = support_box(shape)?;
    let swept = start.union(&Aabb {
        min: start.min + motion,
        max: start.max + motion,
    });
    if !swept.is_finite() {
        return None;
    }
    let boxed = shape.as_obb().filter(Obb::is_finite);
    let (centre, half) = (start.center(), start.half_extents());
    let inv = motion.recip();
    let mut first: Option<(f32, u32, Face)> = None;
    set.for_each_along(&start, motion, &mut |i, bound| {
        let Some(c) = set.corners(i) else {
            return bound;
        };
        // The tree's leaves hold several triangles: each one's own box is checked first.
        let lo = c[0].min(c[1]).min(c[2]) - half;
        let hi = c[0].max(c[1]).max(c[2]) + half;
        let reached = box_entry(centre, motion, inv, lo, hi);
        if reached.is_none_or(|t| first.is_some_and(|(best, _, _)| t > best)) {
            return bound;
        }
        let found = match &boxed {
            Some(b) => box_triangle(b, motion, &c, first.map_or(1.0, |(t, _, _)| t)),
            None => {
                let tri = Triangle::new(c[0], c[1], c[2]);
                sweep::convex::first_contact(&tri, Vec3::ZERO, shape, motion).map(|f| {
                    let normal = sweep::convex::unit_normal(f.normal, -motion, &tri, shape);
                    (f.toi, Face::Found(f.point, normal))
                })
            }
        };
        if let Some((toi, face)) = found {
            let better = first.is_none_or(|(t, b, _)| toi < t || (toi == t && i < b));
            if better {
                first = Some((toi, i, face));
            }
        }
        // Boxes reached a little after the best time may still hold a tie on a smaller index,
        // or a hit the box slab test rounds late: the walk goes on a relative 1e-4 beyond.
        first.map_or(bound, |(t, _, _)| t + 1e-4 * (t + 1.0))
    });
    let (toi, i, face) = first?;
    let (point, normal) = match face {
        Face::Found(point, normal) => (point, normal),
        Face::Box(normal) => {
            let c = set.corners(i)?;
            let moved = boxed.map(|b| Obb {
                center: b.center + motion * toi,
                ..b
            })?;
            // Touching at `toi`: the witnesses coincide, up to an overlap at the start.
            let (on_triangle, on_box) = witnesses(&moved, &c, normal, 0.0);
            ((on_triangle + on_box) * 0.5, normal)
        }
    };
    (point.is_finite() && toi.is_finite()).then_some(MeshShapeHit {
        toi,
        point,
        normal,
        triangle: i,
    })
}

/// What a per-triangle test found besides the time: a point and unit normal, or (the box
/// sweep) only the unit normal, the point being found once for the winning triangle.
#[derive(Clone, Copy, Debug)]
enum Face {
    Found(Vec3, Vec3),
    Box(Vec3),
}

/// Box `b` moving by `motion` against the fixed triangle `c`: the time of first contact in
/// `[0, limit]` (`limit <= 1`) and the unit normal from the triangle toward the box, or
/// `None` when they do not meet by then.
///
/// Separating axes with intervals (the OBB sweep's method, [`crate::sweep::obb_obb`]): box
/// and triangle are disjoint exactly when one of 13 axes separates them: the triangle's
/// normal, the box's three face normals and the nine cross products of a box edge with a
/// triangle edge (the face normals of their Minkowski difference). On axis `l` the triangle
/// projects to `[t₀, t₁]` (its corners' extremes) and the box to `c·l ± r` with `r = Σ eᵢ|aᵢ·l|`;
/// moving, the box's centre is at `c·l + u m·l`, so they overlap on `l` while
/// `|c·l − mid + u m·l| <= r + half` (mid and half of `[t₀, t₁]`): an interval of `u`. The
/// shapes touch while every axis overlaps, i.e. over the intersection of the 13 intervals,
/// whose start is the exact time of first contact and whose latest-starting axis is the normal
/// there. In `f64`: `f32` inputs' products are exact to about 1e-16.
///
/// Overlapping or touching at the start: the normal is the axis of least penetration, and the
/// triangle is hit at `0` only when the motion goes deeper along it (the starting-touch rule,
/// [`crate::sweep::ALONG_TOLERANCE`]), else `None`. A triangle of zero area still has its edge
/// axes; a box with NaN coordinates never meets.
fn box_triangle(b: &Obb, motion: Vec3, c: &[Vec3; 3], limit: f32) -> Option<(f32, Face)> {
    let pair = BoxTriangle::new(b, c);
    let m = motion.as_dvec3();
    let limit = f64::from(limit);
    let mut lo = f64::NEG_INFINITY;
    let mut hi = f64::INFINITY;
    let mut enter = (DVec3::ZERO, 0.0, 0.0);
    for &l in pair.axes() {
        let (s0, reach) = pair.project(l);
        let w = m.dot(l);
        let (ul, uh) = if w == 0.0 {
            if s0.abs() > reach || s0.is_nan() {
                return None;
            }
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            let (x, y) = ((-reach - s0) / w, (reach - s0) / w);
            (x.min(y), x.max(y))
        };
        if ul > lo {
            lo = ul;
            enter = (l, s0, w);
        }
        hi = hi.min(uh);
        // NaN fails every comparison: a NaN box leaves here.
        if !(lo <= hi && lo <= limit && hi >= 0.0) {
            return None;
        }
    }
    if lo > 0.0 {
        let (l, s0, w) = enter;
        let normal = toward_box(l, s0 + w * lo, w);
        return Some((lo as f32, Face::Box(normal.as_vec3())));
    }
    // In contact at the start: the least overlap over the axes, per unit of axis length, is
    // the penetration depth, and its axis the normal.
    let mut least = (f64::INFINITY, DVec3::ZERO, 0.0, 0.0);
    for &l in pair.axes() {
        let (s0, reach) = pair.project(l);
        let depth = (reach - s0.abs()) / l.length();
        if depth < least.0 {
            least = (depth, l, s0, m.dot(l));
        }
    }
    let (_, l, s0, w) = least;
    let normal = toward_box(l, s0, w);
    let deeper = normal.dot(m) < -f64::from(ALONG_TOLERANCE) * m.length();
    deeper.then_some((0.0, Face::Box(normal.as_vec3())))
}

/// When in `[0, 1]` the point `p + u·d` first lies in the box `[lo, hi]` (slab test; a zero
/// component of `d` keeps the slab when `p` is inside it), widened by a relative `1e-4` so
/// rounding never drops a candidate; `None` when it never does.
pub(super) fn box_entry(p: Vec3, d: Vec3, inv: Vec3, lo: Vec3, hi: Vec3) -> Option<f32> {
    let (mut near, mut far) = (0.0f32, 1.0f32);
    for k in 0..3 {
        if d[k] == 0.0 {
            if p[k] < lo[k] || p[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((lo[k] - p[k]) * inv[k], (hi[k] - p[k]) * inv[k]);
        near = near.max(t1.min(t2));
        far = far.min(t1.max(t2));
    }
    let slack = 1e-4 * (far.abs() + near.abs() + 1.0);
    (near <= far + slack).then_some((near - slack).max(0.0))
}
