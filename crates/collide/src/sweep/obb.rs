//! The OBB sweep: listing 4's per-axis intervals on listing 6's 15 separating axes.

use super::{axis_interval, clip_to_frame, make, Sweep};
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

    /// Projection radius onto `l`: `Σ e_i |axes_i · l|`, exact for the parallelepiped the
    /// (nearly orthonormal) axes span.
    #[inline]
    pub(crate) fn radius(&self, l: DVec3) -> f64 {
        self.e.x * self.axes[0].dot(l).abs()
            + self.e.y * self.axes[1].dot(l).abs()
            + self.e.z * self.axes[2].dot(l).abs()
    }

    /// The point of the box closest to `p` (clamp in box coordinates).
    #[inline]
    pub(crate) fn closest(&self, p: DVec3) -> DVec3 {
        let m = DMat3::from_cols(self.axes[0], self.axes[1], self.axes[2]);
        let q = m.transpose() * (p - self.center);
        self.center + m * q.clamp(-self.e, self.e)
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

/// A point in (or, when they only touch, on) both boxes: alternating projections onto each
/// (von Neumann), which converge into the intersection of two convex sets when it is not
/// empty; 24 rounds, then the midpoint of the last pair.
pub(crate) fn common_point(a: &DObb, b: &DObb) -> DVec3 {
    let mut p = (a.center + b.center) * 0.5;
    let mut pa = p;
    for _ in 0..24 {
        pa = a.closest(p);
        p = b.closest(pa);
    }
    (pa + p) * 0.5
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
/// Initial overlap: `enter = 0`, normal along the axis of least (normalised) penetration.
/// Otherwise the normal is the axis whose interval starts last, from A toward B. Point: a
/// point common to both boxes at `enter` (alternating projections; the contact point when
/// touching, to about `1e-6`). Flat boxes work; NaN (also a NaN rotation) → `None`.
#[must_use]
pub fn obb_obb(a: &Obb, motion_a: Vec3, b: &Obb, motion_b: Vec3) -> Option<Sweep> {
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
    Some(make(enter, exit, normal, common_point(&ae, &be)))
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
