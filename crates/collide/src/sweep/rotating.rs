//! Boxes that rotate during the frame: conservative advancement inside the translational bounds.

use super::obb::{contact_point, max_gap, obb_obb_interval, overlap_point, DObb};
use super::{make, Sweep, ALONG_TOLERANCE};
use crate::math::{Quat, Vec3};
use crate::shapes::Obb;
use glam::{DMat3, DQuat, DVec3};

/// Distance tolerance of [`obb_obb_rotating`], relative to the sum of the two boxes'
/// half-diagonals: contact is reported once the separating-axis gap is below it.
pub const ROTATION_TOLERANCE: f32 = 1e-5;

/// Advancement steps before giving up on convergence (then contact is reported, early).
const MAX_STEPS: usize = 5000;

/// One body's motion over the frame: position by lerp, orientation by slerp (constant angular
/// velocity about a fixed axis, the shorter arc), both in `u ∈ [0, 1]`, evaluated in `f64`.
#[derive(Clone, Copy, Debug)]
struct Motion {
    e: DVec3,
    p0: DVec3,
    v: DVec3,
    q0: DQuat,
    /// Rotation axis (unit, in world space) and angle over the frame (radians, `<= π`):
    /// `q(u) = R(axis, u · angle) · q0`.
    axis: DVec3,
    angle: f64,
}

impl Motion {
    fn new(e: Vec3, (p0, q0): (Vec3, Quat), (p1, q1): (Vec3, Quat)) -> Option<Motion> {
        let unit = |q: Quat| {
            let q = DQuat::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into());
            let l2 = q.length_squared();
            (l2 > 0.0 && l2.is_finite()).then(|| q * l2.sqrt().recip())
        };
        let (q0, q1) = (unit(q0)?, unit(q1)?);
        // Relative rotation q1 q0⁻¹ on the shorter arc; its angle from atan2, which (unlike
        // acos of a dot product) stays accurate for tiny rotations.
        let mut r = q1 * q0.conjugate();
        if r.w < 0.0 {
            r = -r;
        }
        let xyz = DVec3::new(r.x, r.y, r.z);
        let s = xyz.length();
        let angle = 2.0 * s.atan2(r.w);
        let axis = if s > 0.0 { xyz / s } else { DVec3::X };
        Some(Motion {
            e: e.abs().as_dvec3(),
            p0: p0.as_dvec3(),
            v: (p1.as_dvec3() - p0.as_dvec3()),
            q0,
            axis,
            angle,
        })
    }

    fn at(&self, u: f64) -> DObb {
        let q = DQuat::from_axis_angle(self.axis, self.angle * u) * self.q0;
        let m = DMat3::from_quat(q);
        DObb {
            center: self.p0 + self.v * u,
            axes: [m.x_axis, m.y_axis, m.z_axis],
            e: self.e,
        }
    }

    /// Largest displacement over the frame of any point relative to the box's centre caused by
    /// the rotation: a chord `2 |e| sin(φ/2) <= |e| φ`.
    fn spin_reach(&self) -> f64 {
        self.e.length() * self.angle
    }

    /// The right derivative at `u = 0` of the box's extent along the fixed unit direction `n`,
    /// `r(u) = Σ e_i |a_i(u)|` with `a_i(u) = axis_i(u) · n`.
    ///
    /// The box turns at the constant angular velocity `ω = axis · angle` (per frame, about its
    /// centre), so `a_i'(0) = (ω × axis_i) · n`. The right derivative of `|a_i|` is
    /// `sign(a_i) a_i'` where `a_i ≠ 0` and `|a_i'|` where `a_i = 0` (an axis in the contact
    /// plane, as for a face lying on a face: turning either way lowers that face's edge);
    /// `|a_i| <= FLAT` counts as zero, which can only make the rate larger (more approaching).
    fn extent_rate(&self, n: DVec3) -> f64 {
        let w = self.axis * self.angle;
        let o = self.at(0.0);
        (0..3)
            .map(|i| {
                let a = o.axes[i].dot(n);
                let da = w.cross(o.axes[i]).dot(n);
                self.e[i]
                    * if a.abs() <= FLAT {
                        da.abs()
                    } else {
                        a.signum() * da
                    }
            })
            .sum()
    }
}

/// Axis components (`|axis_i · n|`) below which an axis lies in the contact plane for the
/// starting-touch rate (the tilt below which a box lies flat on a face in the contact point's
/// feature search).
const FLAT: f64 = 1e-4;

/// The rate of approach at `u = 0` for the starting-touch rule: the right derivative of the
/// gap along the fixed unit normal `n` (from A toward B),
/// `g(u) = n · (c_b(u) - c_a(u)) - r_a(u) - r_b(u)`, which is
/// `n · (v_b - v_a) - r_a'(0) - r_b'(0)` ([`Motion::extent_rate`]). Negative: the boxes close
/// (or go deeper) along `n`, from their linear or angular motion.
fn gap_rate(ma: &Motion, mb: &Motion, n: DVec3) -> f64 {
    n.dot(mb.v - ma.v) - ma.extent_rate(n) - mb.extent_rate(n)
}

/// Boxes of half-extents `half_a`, `half_b` moving from pose `a0` to `a1` and `b0` to `b1`
/// (`(position, rotation)`): position interpolated linearly, rotation by slerp, both in `u`.
///
/// Conservative advancement (Mirtich 1996) inside the translational sweep's bounds, as the
/// article proposes for rotating bodies:
/// 1. A rotating box stays inside its start-oriented box grown by its spin reach `|e| θ`
///    (`θ` the frame's rotation angle); [`obb_obb`](super::obb_obb) on the grown boxes gives an interval
///    `[u0, u1]` outside which there is no contact (or `None`: no contact at all).
/// 2. From `u0`, step by `gap / S`, where `gap` is the largest separating-axis gap, on axis
///    `n` (a lower bound on the distance), and `S = max(0, -n·(v_b - v_a)) + θ_a |e_a| +
///    θ_b |e_b|` bounds how fast that gap can shrink: no step can pass the first contact.
/// 3. Stop when `gap <= tol = ROTATION_TOLERANCE · (|e_a| + |e_b|)`; `exit` likewise backward
///    from `u1`.
///
/// So `enter` is never later than the first contact; it is early by at most the time the
/// bodies need to close a distance of `2√3 · tol` (a gap `<= tol` on all 15 axes means the boxes
/// grown by `tol` overlap). If the advancement has not converged after 5000 steps (a box
/// spinning fast close to another without touching it), the current time is reported: early,
/// and then possibly a contact that does not happen (conservative, never a miss).
/// Touching (within `tol`) or overlapping at the start: normal `n` the axis of the largest gap
/// (least penetration), and a hit at `enter = 0` only when the boxes approach along it: the
/// rate at which the gap along the fixed direction `n` changes at `u = 0`, from both the
/// linear motion and the rotation, `n · (v_b - v_a) - r_a'(0) - r_b'(0)` (`r_x(u)` a box's
/// extent along `n` as it turns; for an axis lying in the contact plane, turning either way
/// counts as growing), is below `-ALONG_TOLERANCE` times the fastest relative speed of a point,
/// `|v_b - v_a| + θ_a |e_a| + θ_b |e_b|`. Otherwise (moving apart, sliding, spinning in the
/// contact plane, at rest): `None` (module docs, "Starting touch"). The gap along a fixed
/// normal is a lower bound of the separation, so "moving apart" by this measure never goes
/// deeper to first order, while a pair whose least penetration shrinks only because the
/// axes turn may still count as approaching (a hit at 0: the cautious answer). Unlike a
/// translation, a rotation can bring boxes that start in contact and move apart back into
/// contact later in the frame; that second contact is not reported (the next frame's sweep,
/// starting apart, finds it). Normal otherwise: the
/// axis of the largest gap at `enter`, from A toward B. Point: as for [`obb_obb`](super::obb_obb), on both
/// boxes to within `tol`.
/// A zero or NaN quaternion, NaN or infinite input → `None`.
#[must_use]
pub fn obb_obb_rotating(
    half_a: Vec3,
    a0: (Vec3, Quat),
    a1: (Vec3, Quat),
    half_b: Vec3,
    b0: (Vec3, Quat),
    b1: (Vec3, Quat),
) -> Option<Sweep> {
    let finite = |(p, q): (Vec3, Quat)| p.is_finite() && q.is_finite();
    let all_finite = half_a.is_finite()
        && half_b.is_finite()
        && finite(a0)
        && finite(a1)
        && finite(b0)
        && finite(b1);
    if !all_finite {
        return None;
    }
    let ma = Motion::new(half_a, a0, a1)?;
    let mb = Motion::new(half_b, b0, b1)?;
    // 1. Translational bounds of the boxes grown by their spin reach (rounded up in f32, and
    //    the start times rounded down, so that the bounds stay conservative).
    let grow = |m: &Motion, (p0, q0): (Vec3, Quat), he: Vec3| {
        let g = (m.spin_reach() * (1.0 + 1e-6) + 1e-6 * m.e.length()) as f32;
        Obb::new(p0, q0, he.abs() + Vec3::splat(g))
    };
    let bound = obb_obb_interval(
        &grow(&ma, a0, half_a),
        a1.0 - a0.0,
        &grow(&mb, b0, half_b),
        b1.0 - b0.0,
    )?;
    let u0 = (f64::from(bound.enter) - 1e-6).max(0.0);
    let u1 = (f64::from(bound.exit) + 1e-6).min(1.0);
    // 2. Conservative advancement. On the axis n of the largest gap (from A toward B) the gap
    //    is a lower bound on the distance, and it can shrink no faster than
    //    S = max(0, -n·(v_b - v_a)) + θ_a|e_a| + θ_b|e_b| (the centres' closing speed along n
    //    plus how fast each box's extent along n can grow while it turns), so a step of
    //    gap / S cannot pass the first contact. Backward in time the linear part flips sign.
    let rel = mb.v - ma.v;
    let spin = ma.spin_reach() + mb.spin_reach();
    let tol = f64::from(ROTATION_TOLERANCE) * (ma.e.length() + mb.e.length());
    let tol = tol.max(1e-12);
    let advance = |from: f64, to: f64| -> Option<f64> {
        let dir = if to >= from { 1.0 } else { -1.0 };
        let mut u = from;
        for _ in 0..MAX_STEPS {
            let (gap, n) = max_gap(&ma.at(u), &mb.at(u));
            if gap <= tol {
                return Some(u);
            }
            let s = (-dir * n.dot(rel)).max(0.0) + spin;
            if s <= 0.0 {
                // Nothing closes the gap along n: separated for the rest of the interval.
                return None;
            }
            u += dir * gap / s;
            if (to - u) * dir < 0.0 {
                return None;
            }
        }
        Some(u)
    };
    let enter = advance(u0, u1)?;
    let exit = advance(u1, enter).unwrap_or(enter).max(enter);
    let (ae, be) = (ma.at(enter), mb.at(enter));
    let (gap, normal) = max_gap(&ae, &be);
    if enter == 0.0 {
        let speed = rel.length() + spin;
        if gap_rate(&ma, &mb, normal) >= -f64::from(ALONG_TOLERANCE) * speed {
            return None;
        }
    }
    let point = if gap < -tol {
        overlap_point(&ae, &be, normal)
    } else {
        contact_point(&ae, &be, normal)
    };
    make(enter, exit.min(1.0), normal, point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn no_rotation_matches_translational() {
        // Unit boxes, B from x = 10 to x = 0 without turning: contact at u = 0.8 like obb_obb.
        let id = Quat::IDENTITY;
        let w = obb_obb_rotating(
            Vec3::ONE,
            (Vec3::ZERO, id),
            (Vec3::ZERO, id),
            Vec3::ONE,
            (Vec3::new(10.0, 0.0, 0.0), id),
            (Vec3::ZERO, id),
        )
        .unwrap();
        assert!(w.enter <= 0.8 + 1e-6 && w.enter > 0.8 - 1e-4, "{}", w.enter);
        assert_near!(w.normal, Vec3::X, 1e-4);
    }

    #[test]
    fn spinning_plank_hits_before_its_centre_would() {
        // A thin plank (half-length 3) spinning a quarter turn about z at the origin, and a
        // unit box at x = 2.5: the plank starts along y (1.4 clear of the box) and ends along x
        // (through it), so it must touch during the frame, and not at the start.
        let plank = Vec3::new(0.1, 3.0, 0.1);
        let qz = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
        let w = obb_obb_rotating(
            plank,
            (Vec3::ZERO, Quat::IDENTITY),
            (Vec3::ZERO, qz),
            Vec3::ONE,
            (Vec3::new(2.5, 0.0, 0.0), Quat::IDENTITY),
            (Vec3::new(2.5, 0.0, 0.0), Quat::IDENTITY),
        )
        .unwrap();
        assert!(w.enter > 0.2 && w.enter < 1.0, "{}", w.enter);
        // Just before `enter` the static test says separated.
        let u = w.enter - 1e-3;
        let a = Obb::new(Vec3::ZERO, Quat::IDENTITY.slerp(qz, u), plank);
        let b = Obb::new(Vec3::new(2.5, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE);
        assert!(max_gap(&DObb::new(&a), &DObb::new(&b)).0 > 0.0);
    }

    #[test]
    fn zero_quaternion_gives_none() {
        let z = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        assert!(obb_obb_rotating(
            Vec3::ONE,
            (Vec3::ZERO, z),
            (Vec3::ZERO, Quat::IDENTITY),
            Vec3::ONE,
            (Vec3::X, Quat::IDENTITY),
            (Vec3::X, Quat::IDENTITY)
        )
        .is_none());
    }
}
