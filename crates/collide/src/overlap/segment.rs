//! Segment × {AABB, OBB}: the 6-axis separating-axis test (Gomez 1999, listing 7).

use crate::math::{Mat3A, Vec3A, PARALLEL_EPSILON};
use crate::shapes::{Aabb, Obb, Segment};
use glam::Vec3Swizzles;

/// `true` when the segment touches or passes through the axis-aligned box.
///
/// Gomez 1999, listing 7, made robust as in Ericson RTCD §5.3.3: the segment is its midpoint
/// `m` and half-vector `h = (b - a) / 2` (no unit direction, no half-length), tested on the
/// box's 3 face normals and the 3 cross products `h × e_i`. `|h|` is widened by
/// `PARALLEL_EPSILON` times the problem's size so a segment parallel to a box axis cannot get
/// a false separating axis from rounding (ERRATA listing 7.1); segments within about `1e-6`
/// of that size count as touching. A zero-length segment is a point
/// and gets the point-in-box answer (ERRATA 7.2). An end point on the boundary touches; a
/// segment inside overlaps; an empty box touches nothing; NaN gives `false`.
#[inline]
#[must_use]
pub fn segment_aabb(s: &Segment, b: &Aabb) -> bool {
    let (lo, hi) = (Vec3A::from(b.min), Vec3A::from(b.max));
    let e = (hi - lo) * 0.5;
    if !e.cmpge(Vec3A::ZERO).all() {
        return false; // empty (or NaN) box
    }
    let (pa, pb) = (Vec3A::from(s.a), Vec3A::from(s.b));
    // Midpoint relative to the box centre, and half-vector.
    let m = (pa + pb) * 0.5 - (lo + hi) * 0.5;
    let h = (pb - pa) * 0.5;
    segment_box_local(m, h, e)
}

/// `true` when the segment touches or passes through the oriented box.
///
/// The segment goes into box space (`m = Aᵀ (midpoint - centre)`, `h = Aᵀ (b - a) / 2`), then
/// the robust 6-axis test of [`segment_aabb`] (Gomez 1999, listing 7 "assumes the line segment
/// has already been transformed to box space"). Touching counts; a zero-length segment is a
/// point; NaN gives `false`.
#[inline]
#[must_use]
pub fn segment_obb(s: &Segment, b: &Obb) -> bool {
    let mt = Mat3A::from(b.axes).transpose();
    let (pa, pb) = (Vec3A::from(s.a), Vec3A::from(s.b));
    let m = mt * ((pa + pb) * 0.5 - Vec3A::from(b.center));
    let h = mt * ((pb - pa) * 0.5);
    segment_box_local(m, h, Vec3A::from(b.half_extents))
}

/// The separating-axis test of a segment (midpoint `m`, half-vector `h`) and the box of
/// half-extents `e` centred at the origin, all in box space.
#[inline(always)]
fn segment_box_local(m: Vec3A, h: Vec3A, e: Vec3A) -> bool {
    let am = m.abs();
    let ah = h.abs();
    // Slack (ERRATA 7.1): ε times the problem's size (box, segment, and the midpoint's
    // distance, whose box-space coordinates carry the rounding of the transform), so the test
    // is scale-free and errs toward "touching" by about 1e-6 of that size. Without it a
    // segment lying on a face or along an edge of a turned box is missed about as often as
    // it is found (see tests/errata/static_listings.rs).
    let size = (e + ah + am).element_sum();
    let slack = PARALLEL_EPSILON * size;
    // Face axes e_i: the segment's interval on axis i is m_i ± |h_i|, the box's ±e_i:
    //   |m_i| <= e_i + |h_i|.  (False for NaN.)
    if !am.cmple(e + ah + Vec3A::splat(slack)).all() {
        return false;
    }
    // Cross axes L = h × e_i:
    //   L = h × x: |m_y h_z - m_z h_y| <= e_y |h_z| + e_z |h_y|
    //   L = h × y: |m_z h_x - m_x h_z| <= e_x |h_z| + e_z |h_x|
    //   L = h × z: |m_x h_y - m_y h_x| <= e_x |h_y| + e_y |h_x|
    // Vectorised: t = |m.yzx·h.zxy - m.zxy·h.yzx|, r = e.yzx·|h|.zxy + e.zxy·|h|.yzx.
    // Both sides are products with |h|; their rounding is of order ε |h| size, which is the
    // slack these axes get. For a segment parallel to a box axis two of them are near zero,
    // and the slack is what keeps their noise from separating (the listing's defect).
    let t = (m.yzx() * h.zxy() - m.zxy() * h.yzx()).abs();
    let r = e.yzx() * ah.zxy() + e.zxy() * ah.yzx();
    t.cmple(r + Vec3A::splat(slack * ah.element_sum())).all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    #[test]
    fn listing_7_through_beside_and_touching() {
        let b = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        // Straight through the box.
        assert!(segment_aabb(
            &Segment::new(Vec3::new(-3.0, 0.2, 0.1), Vec3::new(3.0, -0.1, 0.0)),
            &b
        ));
        // Diagonal past the (1, 1, z) edge: only a cross axis separates (face axes overlap).
        let past = Segment::new(Vec3::new(0.0, 2.1, 0.0), Vec3::new(2.1, 0.0, 0.0));
        assert!(!segment_aabb(&past, &b));
        // Through the edge itself: touching.
        let edge = Segment::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(2.0, 0.0, 0.0));
        assert!(segment_aabb(&edge, &b));
        // Ending exactly on a face.
        assert!(segment_aabb(
            &Segment::new(Vec3::new(3.0, 0.0, 0.0), Vec3::X),
            &b
        ));
        // Entirely inside.
        assert!(segment_aabb(
            &Segment::new(Vec3::splat(-0.5), Vec3::splat(0.5)),
            &b
        ));
    }

    #[test]
    fn zero_length_segment_is_a_point() {
        let b = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        assert!(segment_aabb(
            &Segment::new(Vec3::splat(0.5), Vec3::splat(0.5)),
            &b
        ));
        assert!(segment_aabb(&Segment::new(Vec3::ONE, Vec3::ONE), &b));
        assert!(!segment_aabb(
            &Segment::new(Vec3::splat(1.01), Vec3::splat(1.01)),
            &b
        ));
    }

    #[test]
    fn segment_obb_turned_box() {
        // The unit cube turned 45° about z reaches (√2, 0, 0): a vertical segment at x = 1.4
        // passes through, at x = 1.42 it misses.
        let o = Obb::new(
            Vec3::ZERO,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        let at = |x: f32| Segment::new(Vec3::new(x, 0.0, -5.0), Vec3::new(x, 0.0, 5.0));
        assert!(segment_obb(&at(1.4), &o));
        assert!(!segment_obb(&at(1.42), &o));
        assert!(!segment_obb(&Segment::new(Vec3::NAN, Vec3::ZERO), &o));
        assert!(!segment_aabb(
            &Segment::new(Vec3::ZERO, Vec3::NAN),
            &Aabb::new(-Vec3::ONE, Vec3::ONE)
        ));
    }
}
