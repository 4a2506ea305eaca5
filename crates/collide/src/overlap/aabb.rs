//! AABB × {AABB, OBB}.

use super::obb_obb::boxes_overlap_in_a_frame;
use super::rows;
use crate::math::{Mat3A, Vec3A};
use crate::shapes::{Aabb, Obb};

/// `true` when the boxes touch or overlap: their intervals overlap on x, y and z.
///
/// Gomez 1999, listing 3 (`|T_i| <= E_a,i + E_b,i`), in min/max form: `a.min <= b.max` and
/// `b.min <= a.max` on every axis. Touching faces overlap; flat boxes are boxes; an empty box
/// (`min > max` on an axis, e.g. [`Aabb::EMPTY`]) touches nothing; NaN gives `false`.
#[inline]
#[must_use]
pub fn aabb_aabb(a: &Aabb, b: &Aabb) -> bool {
    let (amin, amax) = (Vec3A::from(a.min), Vec3A::from(a.max));
    let (bmin, bmax) = (Vec3A::from(b.min), Vec3A::from(b.max));
    // Both comparisons are false for NaN. An empty box fails them against any box except one
    // reaching to infinity, so require min <= max of both too (one more vector compare).
    (amin.cmple(bmax) & bmin.cmple(amax) & amin.cmple(amax) & bmin.cmple(bmax)).all()
}

/// `true` when the axis-aligned box and the oriented box touch or overlap.
///
/// The 15-axis test of [`super::obb_obb()`] with the AABB as box A, whose frame is the world's:
/// `R` is B's rotation matrix and `T` the centre difference, so no matrix product is needed.
/// Same verdict as `obb_obb(&Obb::from_aabb(a), b)`. Touching counts; an empty AABB touches
/// nothing; NaN gives `false`.
#[inline]
#[must_use]
pub fn aabb_obb(a: &Aabb, b: &Obb) -> bool {
    let (amin, amax) = (Vec3A::from(a.min), Vec3A::from(a.max));
    let ea = (amax - amin) * 0.5;
    if !ea.cmpge(Vec3A::ZERO).all() {
        return false; // empty (or NaN) AABB
    }
    let t = Vec3A::from(b.center) - (amin + amax) * 0.5;
    // R[i][k] = e_i · B_k = B_k[i]: row i of R is row i of B's axis matrix.
    let r = rows(Mat3A::from(b.axes));
    boxes_overlap_in_a_frame(t, r, ea, Vec3A::from(b.half_extents))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    #[test]
    fn listing_3_separated_touching_overlapping() {
        // Gomez's figure 4: |T_x| = 3 > a_x + b_x = 2 separates; 2 touches; 1 overlaps.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let at = |x: f32| Aabb::from_center_half_extents(Vec3::new(x, 0.5, -0.5), Vec3::ONE);
        assert!(!aabb_aabb(&a, &at(3.0)));
        assert!(aabb_aabb(&a, &at(2.0)));
        assert!(aabb_aabb(&a, &at(-1.0)));
        // Containment overlaps (the article's note).
        let inner = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(0.1));
        assert!(aabb_aabb(&a, &inner) && aabb_aabb(&inner, &a));
    }

    #[test]
    fn empty_flat_and_nan_boxes() {
        let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
        assert!(!aabb_aabb(&a, &Aabb::EMPTY) && !aabb_aabb(&Aabb::EMPTY, &a));
        let flat = Aabb::new(Vec3::new(0.5, 0.5, 1.0), Vec3::new(2.0, 2.0, 1.0));
        assert!(aabb_aabb(&a, &flat));
        let nan = Aabb {
            min: Vec3::NAN,
            max: Vec3::ONE,
        };
        assert!(!aabb_aabb(&a, &nan) && !aabb_aabb(&nan, &a));
        let everything = Aabb::new(Vec3::NEG_INFINITY, Vec3::INFINITY);
        assert!(aabb_aabb(&a, &everything));
        assert!(!aabb_obb(&Aabb::EMPTY, &Obb::from_aabb(&a)));
    }

    #[test]
    fn aabb_obb_turned_box() {
        // A unit cube turned 45° about z reaches √2 along x: at x = 2.5 it misses the unit
        // AABB (gap 0.09), at x = 2.3 it overlaps.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let rot = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        assert!(!aabb_obb(&a, &Obb::new(Vec3::X * 2.5, rot, Vec3::ONE)));
        assert!(aabb_obb(&a, &Obb::new(Vec3::X * 2.3, rot, Vec3::ONE)));
        assert!(!aabb_obb(&a, &Obb::new(Vec3::NAN, rot, Vec3::ONE)));
    }
}
