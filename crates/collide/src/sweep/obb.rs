//! The OBB sweep: listing 4's per-axis intervals on listing 6's 15 separating axes.

use super::{axis_interval, clip_to_frame, make, starting_touch, Sweep};
use crate::math::Vec3;
use crate::shapes::Obb;
use glam::{DMat3, DVec3};

/// An OBB widened to `f64`: `center + Σ axes[i] q_i`, `|q_i| <= e_i`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DObb {
    pub(crate) center: DVec3,
    pub(crate) axes: [DVec3; 3],
    pub(crate) e: DVec3,
}

impl DObb {
    pub(crate) fn new(o: &Obb) -> DObb {
        DObb {
            center: o.center.as_dvec3(),
            axes: [
                o.axes.x_axis.as_dvec3(),
                o.axes.y_axis.as_dvec3(),
                o.axes.z_axis.as_dvec3(),
            ],
            e: o.half_extents.abs().as_dvec3(),
        }
    }

    /// The point of the box closest to `p` (clamp in box coordinates).
    #[inline]
    pub(crate) fn closest(&self, p: DVec3) -> DVec3 {
        let m = DMat3::from_cols(self.axes[0], self.axes[1], self.axes[2]);
        let q = m.transpose() * (p - self.center);
        self.center + m * q.clamp(-self.e, self.e)
    }

    /// Projection radius onto `l`: `Σ e_i |axes_i · l|`, exact for the parallelepiped the
    /// (nearly orthonormal) axes span.
    #[inline]
    pub(crate) fn radius(&self, l: DVec3) -> f64 {
        self.e.x * self.axes[0].dot(l).abs()
            + self.e.y * self.axes[1].dot(l).abs()
            + self.e.z * self.axes[2].dot(l).abs()
    }
}

/// Squared length below which a cross-product axis is treated as zero (parallel edges): it then
/// separates nothing and is skipped, which can only make the test report contact (never miss).
const DEGENERATE_AXIS2: f64 = 1e-24;

/// The 15 candidate separating axes of two boxes (3 + 3 face normals, 9 edge cross products),
/// the degenerate cross products left out: the complete set for two parallelepipeds, so SAT on
/// them is exact. Ericson, RTCD §4.4.1; Gomez 1999, listing 6.
///
/// In `f64` the cross products of `f32` unit vectors are accurate to ~1e-16 however parallel
/// the edges (the products are exact, one rounding per difference), so listing 6's noise
/// problem (ERRATA 6.1) does not arise; exactly parallel edges give zero and are skipped.
#[inline]
pub(crate) fn axes15(a: &DObb, b: &DObb) -> ([DVec3; 15], usize) {
    let mut out = [DVec3::ZERO; 15];
    let mut n = 0;
    // Face normals as cross products of the other two edge directions: exactly normal to the
    // faces of the parallelepiped the `f32` axes span (the axes themselves are only normal to
    // within ~1e-7, which matters to a box sliding along a face).
    for k in 0..3 {
        out[n] = a.axes[(k + 1) % 3].cross(a.axes[(k + 2) % 3]);
        out[n + 1] = b.axes[(k + 1) % 3].cross(b.axes[(k + 2) % 3]);
        n += 2;
    }
    for i in 0..3 {
        for j in 0..3 {
            let l = a.axes[i].cross(b.axes[j]);
            if l.length_squared() > DEGENERATE_AXIS2 {
                out[n] = l;
                n += 1;
            }
        }
    }
    (out, n)
}

/// The largest separation gap over the 15 axes, `max (|T·l| - r_a - r_b) / |l|`, and its unit
/// axis oriented from `a` toward `b`.
///
/// Positive: separated, and a lower bound on the distance between the boxes (a projection never
/// lengthens). `<= 0`: overlapping or touching (SAT), and `-gap` is the least penetration depth
/// over the axes. Used by the rotating sweep and for contact normals.
pub(crate) fn max_gap(a: &DObb, b: &DObb) -> (f64, DVec3) {
    let t = b.center - a.center;
    let (axes, n) = axes15(a, b);
    let mut best = f64::NEG_INFINITY;
    let mut best_l = DVec3::X;
    for &l in &axes[..n] {
        let len = l.length();
        let s = t.dot(l);
        let gap = (s.abs() - a.radius(l) - b.radius(l)) / len;
        if gap > best {
            best = gap;
            best_l = if s >= 0.0 { l / len } else { -l / len };
        }
    }
    (best, best_l)
}

/// Axes within this of perpendicular to the contact normal span the supporting feature (a box
/// tilted by less than ~1e-4 rad against a face still lies flat on it).
const FEATURE_EPS: f64 = 1e-4;

/// The supporting feature of box `o` in direction `d`: the corners of the face, edge or vertex
/// farthest along `d` (4, 2 or 1 points; a face's corners in cyclic order).
fn feature(o: &DObb, d: DVec3) -> ([DVec3; 4], usize) {
    let mut base = o.center;
    let mut free = [DVec3::ZERO; 2];
    let mut nfree = 0;
    for i in 0..3 {
        let s = o.axes[i].dot(d);
        let half = o.axes[i] * o.e[i];
        if s.abs() < FEATURE_EPS && nfree < 2 {
            free[nfree] = half;
            nfree += 1;
        } else {
            base += if s >= 0.0 { half } else { -half };
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

/// Closest points of segments `p0`–`p1` and `q0`–`q1`, their midpoint (Ericson, RTCD §5.1.9).
fn segment_midpoint(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> DVec3 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-300 && e <= 1e-300 {
        (0.0, 0.0)
    } else if a <= 1e-300 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-300 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let den = a * e - b * b;
            let mut s = if den > 0.0 {
                ((b * f - c * e) / den).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    ((p0 + d1 * s) + (q0 + d2 * t)) * 0.5
}

/// Clips `subject` (1, 2 or 4 points, a point, segment or polygon) against the convex polygon
/// `clip` (4 points, cyclic), all projected on the plane `⊥ n`, grown by `tol`
/// (Sutherland–Hodgman); returns the centroid of what remains, or `None` if nothing does.
fn clip_centroid(subject: &[DVec3], clip: &[DVec3; 4], n: DVec3, tol: f64) -> Option<DVec3> {
    // Orientation of the clip polygon about n.
    let area = (clip[1] - clip[0]).cross(clip[2] - clip[0]).dot(n);
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    let mut poly = ClipPolygon::default();
    subject.iter().for_each(|&p| poly.push(p));
    for k in 0..4 {
        let (c0, c1) = (clip[k], clip[(k + 1) % 4]);
        let edge = c1 - c0;
        let len = edge.length();
        if len == 0.0 {
            continue;
        }
        // Signed distance inside the edge (positive inside), grown by tol.
        let inside = |p: DVec3| sign * edge.cross(p - c0).dot(n) / len + tol;
        let mut out = ClipPolygon::default();
        let points = poly.points();
        for i in 0..points.len() {
            let (s, e) = (points[i], points[(i + 1) % points.len()]);
            let (ds, de) = (inside(s), inside(e));
            if de >= 0.0 {
                if ds < 0.0 {
                    out.push(s + (e - s) * (ds / (ds - de)));
                }
                out.push(e);
            } else if ds >= 0.0 {
                out.push(s + (e - s) * (ds / (ds - de)));
            }
        }
        if out.len == 0 {
            return None;
        }
        poly = out;
    }
    let points = poly.points();
    let sum: DVec3 = points.iter().copied().sum();
    Some(sum / points.len() as f64)
}

/// The polygon [`clip_centroid`] clips, held inline: at most 4 points to start with, and each
/// of the 4 clipping edges adds at most one (a convex polygon cut by a line gains at most one
/// vertex), so 8 always suffice.
#[derive(Clone, Copy, Default)]
struct ClipPolygon {
    points: [DVec3; 8],
    len: usize,
}

impl ClipPolygon {
    fn push(&mut self, p: DVec3) {
        // Never full in exact arithmetic (see above). Should rounding make a nearly degenerate
        // polygon cross an edge more than twice, points past the 8th are left out of the
        // centroid rather than written out of bounds.
        if let Some(slot) = self.points.get_mut(self.len) {
            *slot = p;
            self.len += 1;
        }
    }

    fn points(&self) -> &[DVec3] {
        &self.points[..self.len]
    }
}

/// A contact point of two touching (or barely overlapping) boxes with contact normal `n`
/// (from `a` toward `b`): the supporting features of `a` along `n` and of `b` along `-n`
/// (face, edge or vertex) intersected in the contact plane; the centroid of the intersection.
///
/// Vertex: that vertex. Edge–edge: the midpoint of their closest points. Anything against a
/// face: the other feature clipped to the face (Sutherland–Hodgman), its centroid. The result
/// lies on both boxes to within the distance between their features along `n` plus
/// `FEATURE_EPS` times the box size; the midpoint of the two features' planes along `n`.
pub(crate) fn contact_point(a: &DObb, b: &DObb, n: DVec3) -> DVec3 {
    let (fa, na) = feature(a, n);
    let (fb, nb) = feature(b, -n);
    // Height of the contact plane: midway between the two features along n.
    let h = 0.5 * (fa[0].dot(n) + fb[0].dot(n));
    let onto = |p: DVec3| p + n * (h - p.dot(n));
    let scale = (a.e.length() + b.e.length()).max(1e-30);
    let p = if na == 1 {
        Some(fa[0])
    } else if nb == 1 {
        Some(fb[0])
    } else if na == 4 {
        clip_centroid(&fb[..nb], &fa, n, 1e-9 * scale)
    } else if nb == 4 {
        clip_centroid(&fa[..na], &fb, n, 1e-9 * scale)
    } else {
        Some(segment_midpoint(fa[0], fa[1], fb[0], fb[1]))
    };
    onto(p.unwrap_or_else(|| {
        // Nothing left after clipping (numerically apart): midway between feature centroids.
        let ca: DVec3 = fa[..na].iter().copied().sum::<DVec3>() / na as f64;
        let cb: DVec3 = fb[..nb].iter().copied().sum::<DVec3>() / nb as f64;
        (ca + cb) * 0.5
    }))
}

/// The contact point for boxes that already overlap: [`contact_point`], then, if that is not
/// inside both, alternating projections onto each box (von Neumann; they converge into the
/// intersection of two convex sets), at most 64 rounds, until within `1e-6` of the size.
pub(crate) fn overlap_point(a: &DObb, b: &DObb, n: DVec3) -> DVec3 {
    let tol = 1e-6 * (a.e.length() + b.e.length());
    let mut p = contact_point(a, b, n);
    for _ in 0..64 {
        let pa = a.closest(p);
        let pb = b.closest(pa);
        if (pb - pa).length() <= tol && (p - pa).length() <= tol {
            return pb;
        }
        p = pb;
    }
    p
}

/// Oriented boxes `a` and `b` translating by `motion_a` and `motion_b` (no rotation): exact.
///
/// The article's AABB sweep extended to listing 6's 15 separating axes: on each axis `l` the
/// projections overlap while `|T·l + u v·l| <= r_a(l) + r_b(l)` (`T` the centre offset,
/// `v = motion_b - motion_a`), an interval of `u`; the boxes touch exactly on the intersection
/// of all 15 intervals and the frame (SAT is exact for boxes). An axis that is separated and
/// does not move means no hit (ERRATA listing 4.1); contact after the frame is no hit (4.2).
///
/// In `f64`, on the exact face normals and exact projections of the box the `f32` axes span
/// (orthonormal only to ~1e-7); parallel edges give a zero cross product, which is skipped
/// (ERRATA 6.1): skipping an axis can only widen the intersection, so the sweep is never late.
///
/// Touching or overlapping at the start: normal along the axis of least (normalised)
/// penetration, and a hit at `enter = 0` only when B moves toward A along it
/// (`v · n < -ALONG_TOLERANCE · |v|`); moving away, along the contact or not at all: `None`
/// (module docs, "Starting touch"). Otherwise the normal is the axis whose interval starts last, from A toward B. Point: the
/// centroid of the intersection of the two boxes' supporting features (face, edge or vertex)
/// along the normal at `enter`, placed midway between them; for an initial overlap, a point in
/// both boxes (refined by alternating projections). Flat boxes work; NaN (also a NaN rotation)
/// → `None`.
#[must_use]
pub fn obb_obb(a: &Obb, motion_a: Vec3, b: &Obb, motion_b: Vec3) -> Option<Sweep> {
    starting_touch(
        obb_obb_interval(a, motion_a, b, motion_b),
        motion_a,
        motion_b,
    )
}

/// [`obb_obb`] without the starting-touch rule: boxes in contact at the start give
/// `enter = 0` whatever their motion. The rotating sweep bounds its search with it, where
/// grown boxes that start overlapping and move apart may still meet by turning.
pub(crate) fn obb_obb_interval(a: &Obb, motion_a: Vec3, b: &Obb, motion_b: Vec3) -> Option<Sweep> {
    if !(a.is_finite() && b.is_finite() && motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let (da, db) = (DObb::new(a), DObb::new(b));
    let (ma, mb) = (motion_a.as_dvec3(), motion_b.as_dvec3());
    let v = mb - ma;
    let t = db.center - da.center;
    let (axes, n) = axes15(&da, &db);
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut enter_axis = DVec3::ZERO;
    for &l in &axes[..n] {
        let r = da.radius(l) + db.radius(l);
        let (ul, uh) = axis_interval(t.dot(l), v.dot(l), r)?;
        if ul > lo {
            lo = ul;
            enter_axis = l;
        }
        hi = hi.min(uh);
        if lo > hi || lo > 1.0 || hi < 0.0 {
            return None;
        }
    }
    let (enter, exit) = clip_to_frame(lo, hi)?;
    let ae = DObb {
        center: da.center + ma * enter,
        ..da
    };
    let be = DObb {
        center: db.center + mb * enter,
        ..db
    };
    let normal = if lo < 0.0 || enter_axis == DVec3::ZERO {
        max_gap(&ae, &be).1
    } else {
        // B on the +l side at `enter` when T·l + u v·l > 0; at the touching moment that is
        // where it came from, the side opposite its motion along l.
        let s = (be.center - ae.center).dot(enter_axis);
        let l = enter_axis.normalize();
        if s > 0.0 || (s == 0.0 && v.dot(l) < 0.0) {
            l
        } else {
            -l
        }
    };
    let point = if lo < 0.0 {
        overlap_point(&ae, &be, normal)
    } else {
        contact_point(&ae, &be, normal)
    };
    make(enter, exit, normal, point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;

    #[test]
    fn rotated_box_meets_corner_first() {
        // B rotated 45° about z, moving -x toward unit A: its corner (at x = c - √2) touches
        // A's face x = 1 when c - √2 = 1; c = 10 - 10 u → u = (9 - √2) / 10.
        let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let b = Obb::new(
            Vec3::new(10.0, 0.0, 0.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        let w = obb_obb(&a, Vec3::ZERO, &b, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, (9.0 - 2f32.sqrt()) / 10.0, 1e-6);
        assert_near!(w.normal, Vec3::X, 1e-6);
        assert_near!(w.point, Vec3::new(1.0, 0.0, 0.0), 1e-4);
    }

    #[test]
    fn parallel_edges_still_hit() {
        // Identical orientations (all 9 cross products degenerate or axis-aligned) — a plain
        // AABB sweep: B at x = 5 moving -5 meets A when 2 apart: u = 0.6.
        let q = Quat::from_rotation_y(0.3);
        let a = Obb::new(Vec3::ZERO, q, Vec3::ONE);
        let b = Obb::new(q * Vec3::new(5.0, 0.0, 0.0), q, Vec3::ONE);
        let w = obb_obb(&a, Vec3::ZERO, &b, q * Vec3::new(-5.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, 0.6, 1e-5);
    }

    #[test]
    fn boxes_passing_beside_miss() {
        // B passes at y = 3 with unit boxes: 1 apart the whole time.
        let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let b = Obb::new(Vec3::new(10.0, 3.0, 0.0), Quat::IDENTITY, Vec3::ONE);
        assert!(obb_obb(&a, Vec3::ZERO, &b, Vec3::new(-20.0, 0.0, 0.0)).is_none());
    }
}
