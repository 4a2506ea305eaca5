//! OBB–OBB: the 15-axis separating-axis test (Gomez 1999, listing 6; Ericson RTCD §4.4.1).

use crate::math::{Mat3A, Vec3A, PARALLEL_EPSILON};
use crate::shapes::Obb;
use glam::Vec3Swizzles;

/// `true` when the oriented boxes touch or overlap.
///
/// The separating-axis test over the 15 candidate axes (A's 3 face normals, B's 3, and the 9
/// cross products of an edge of each), done in A's frame with `R = Aᵀ B` computed once
/// (Gomez 1999, listing 6). `PARALLEL_EPSILON` is added to every `|R[i][k]|`, so an edge of A
/// (nearly) parallel to an edge of B cannot give a false separating axis from rounding noise
/// (ERRATA listing 6.1; RTCD §4.4.1), and every axis gets a slack of `PARALLEL_EPSILON` times
/// the problem's size (centre distance plus extents), so boxes resting face to face are never
/// missed because of rounding; the price is that boxes within about `1e-6` of that size of
/// touching count as touching. Touching faces, edges and corners overlap; a box inside the
/// other overlaps. Zero half-extents (flat boxes) are exact. NaN anywhere gives `false`
/// (see the module's bad-input rule).
#[inline]
#[must_use]
pub fn obb_obb(a: &Obb, b: &Obb) -> bool {
    let ma = Mat3A::from(a.axes);
    let mb = Mat3A::from(b.axes);
    // Translation in A's frame: T_i = (c_b - c_a) · A_i.
    let v = Vec3A::from(b.center - a.center);
    let t = ma.transpose() * v;
    // Rows of R = Aᵀ B: row i is (A_i·B_0, A_i·B_1, A_i·B_2) = Bᵀ A_i, the i-th column of Bᵀ A.
    let rt = mb.transpose() * ma;
    let r = [rt.x_axis, rt.y_axis, rt.z_axis];
    boxes_overlap_in_a_frame(
        t,
        r,
        Vec3A::from(a.half_extents),
        Vec3A::from(b.half_extents),
    )
}

/// The separating-axis test of two boxes given in A's frame.
///
/// `t`: B's centre minus A's centre in A's frame; `r[i]`: row `i` of `R`, `R[i][k] = A_i·B_k`;
/// `ea`, `eb`: half-extents. Shared by [`obb_obb`] and [`super::aabb_obb`] (where A's frame is
/// the world and `R` is B's rotation matrix).
#[inline(always)]
pub(super) fn boxes_overlap_in_a_frame(t: Vec3A, r: [Vec3A; 3], ea: Vec3A, eb: Vec3A) -> bool {
    let eps = Vec3A::splat(PARALLEL_EPSILON);
    // |R[i][k]| + ε (ERRATA 6.1): the epsilon keeps near-zero cross products from producing a
    // false separating axis out of rounding noise; added to all 15 axes, as in RTCD §4.4.1.
    let ar = [r[0].abs() + eps, r[1].abs() + eps, r[2].abs() + eps];

    // Each test below is written `if !(|T·L| <= r_a + r_b) { return false }`: a NaN anywhere
    // makes the comparison false and the function return `false` (no contact).

    // L = A_i (i = 0, 1, 2), all three at once:
    //   |T_i| <= a_i + Σ_k b_k |R[i][k]|.
    // The face tests get a slack of ε times the problem's size (centre distance and
    // extents): T carries the rounding of the centres' difference and of its change of frame,
    // which is what decides boxes resting face to face (exactly touching in exact arithmetic).
    let at = t.abs();
    let slack = Vec3A::splat(PARALLEL_EPSILON * (at + ea + eb).element_sum());
    let rb_face_a = Vec3A::new(ar[0].dot(eb), ar[1].dot(eb), ar[2].dot(eb));
    if !at.cmple(ea + rb_face_a + slack).all() {
        return false;
    }

    // L = B_k (k = 0, 1, 2), all three at once:
    //   |Σ_i T_i R[i][k]| <= Σ_i a_i |R[i][k]| + b_k.
    let t_face_b = (r[0] * t.x + r[1] * t.y + r[2] * t.z).abs();
    let ra_face_b = ar[0] * ea.x + ar[1] * ea.y + ar[2] * ea.z;
    if !t_face_b.cmple(ra_face_b + eb + slack).all() {
        return false;
    }

    // L = A_i × B_k: three axes per i, vectorised over k. For A_i × B_k, with (i', i'') the
    // other two indices of A and (k', k'') those of B (listing 6):
    //   r_a = a_i' |R[i''][k]| + a_i'' |R[i'][k]|
    //   r_b = b_k' |R[i][k'']| + b_k'' |R[i][k']|
    //   t   = |T_i'' R[i'][k] - T_i' R[i''][k]|
    // Over k = (0, 1, 2), r_b = (b_1 w_2 + b_2 w_1, b_0 w_2 + b_2 w_0, b_0 w_1 + b_1 w_0) with
    // w = |row i|: b.yxx·w.zzy + b.zzy·w.yxx. The same slack as the face axes is added.
    let (eb_yxx, eb_zzy) = (eb.yxx(), eb.zzy());
    let rb_cross = |w: Vec3A| eb_yxx * w.zzy() + eb_zzy * w.yxx() + slack;

    // i = 0: L = A_0 × B_k.
    let ra = ar[2] * ea.y + ar[1] * ea.z;
    let tt = (r[1] * t.z - r[2] * t.y).abs();
    if !tt.cmple(ra + rb_cross(ar[0])).all() {
        return false;
    }
    // i = 1: L = A_1 × B_k.
    let ra = ar[2] * ea.x + ar[0] * ea.z;
    let tt = (r[2] * t.x - r[0] * t.z).abs();
    if !tt.cmple(ra + rb_cross(ar[1])).all() {
        return false;
    }
    // i = 2: L = A_2 × B_k.
    let ra = ar[1] * ea.x + ar[0] * ea.y;
    let tt = (r[0] * t.y - r[1] * t.x).abs();
    if !tt.cmple(ra + rb_cross(ar[2])).all() {
        return false;
    }

    // No separating axis: the boxes touch or overlap.
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};
    use std::f32::consts::FRAC_PI_4;

    fn cube(center: Vec3, rot: Quat, e: f32) -> Obb {
        Obb::new(center, rot, Vec3::splat(e))
    }

    #[test]
    fn face_axis_separates_and_touches() {
        // Gomez's figure 4 in 3-D: unit cubes 2.5 apart on x are separated by A's x axis,
        // exactly 2 apart they touch, 1.5 apart they overlap.
        let a = cube(Vec3::ZERO, Quat::IDENTITY, 1.0);
        assert!(!obb_obb(&a, &cube(Vec3::X * 2.5, Quat::IDENTITY, 1.0)));
        assert!(obb_obb(&a, &cube(Vec3::X * 2.0, Quat::IDENTITY, 1.0)));
        assert!(obb_obb(&a, &cube(Vec3::X * 1.5, Quat::IDENTITY, 1.0)));
    }

    #[test]
    fn b_face_axis_separates() {
        // B turned 45° about z, 2.5 from A on x: B's corner reaches x = 2.5 - √2 = 1.09 > 1
        // along A's x; separated on A's x axis. At 2.3: reaches 0.886, overlaps.
        let a = cube(Vec3::ZERO, Quat::IDENTITY, 1.0);
        let rot = Quat::from_rotation_z(FRAC_PI_4);
        assert!(!obb_obb(&a, &cube(Vec3::X * 2.5, rot, 1.0)));
        assert!(obb_obb(&a, &cube(Vec3::X * 2.3, rot, 1.0)));
        // Symmetric: A turned, B axis-aligned: only B's axes see the gap.
        assert!(!obb_obb(&cube(Vec3::X * 2.5, rot, 1.0), &a));
    }

    #[test]
    fn edge_edge_axis_separates() {
        // A turned 45° about z shows a vertical edge at x = √2; B turned 45° about y shows an
        // edge parallel to y at x = c - √2. Every face axis overlaps (their projections reach
        // 1 + 1/√2 + ... past the centre distance), only A_z × B_y = x separates: gap c - 2√2.
        let a = cube(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4), 1.0);
        let b_rot = Quat::from_rotation_y(FRAC_PI_4);
        let touch = 2.0 * 2f32.sqrt();
        assert!(!obb_obb(&a, &cube(Vec3::X * (touch + 0.05), b_rot, 1.0)));
        assert!(!obb_obb(&cube(Vec3::X * (touch + 0.05), b_rot, 1.0), &a));
        assert!(obb_obb(&a, &cube(Vec3::X * (touch - 0.05), b_rot, 1.0)));
    }

    #[test]
    fn contained_and_flat_boxes() {
        // A small box deep inside a big one overlaps; a flat box through a cube overlaps.
        let big = cube(Vec3::ZERO, Quat::IDENTITY, 10.0);
        assert!(obb_obb(
            &big,
            &cube(Vec3::ONE, Quat::from_rotation_y(0.3), 0.1)
        ));
        let flat = Obb::new(
            Vec3::ZERO,
            Quat::from_rotation_x(0.5),
            Vec3::new(2.0, 2.0, 0.0),
        );
        assert!(obb_obb(&cube(Vec3::ZERO, Quat::IDENTITY, 1.0), &flat));
    }

    #[test]
    fn nan_gives_false() {
        let a = cube(Vec3::ZERO, Quat::IDENTITY, 1.0);
        assert!(!obb_obb(&a, &cube(Vec3::NAN, Quat::IDENTITY, 1.0)));
        assert!(!obb_obb(&a, &cube(Vec3::ZERO, Quat::IDENTITY, f32::NAN)));
        assert!(!obb_obb(
            &a,
            &cube(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), 1.0)
        ));
    }
}
