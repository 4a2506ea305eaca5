//! glam re-exports and the tolerances every query shares.
//!
//! collide is 3-D and `f32` throughout, on the glam types Bevy and most Rust game code
//! already use, so there is no conversion at the boundary.
//!
//! # Example
//!
//! ```rust
//! use collide::math::{is_finite3, Vec3};
//! use collide::{Affine3A, Quat};
//!
//! // The glam types Bevy uses. A pose: turn 90° about z, then move 1 m along x.
//! let quarter_turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
//! let pose = Affine3A::from_rotation_translation(quarter_turn, Vec3::X);
//! let p = pose.transform_point3(Vec3::X); // x turns to y, then moves by +x
//! assert!((p - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
//! assert!(!is_finite3(Vec3::new(f32::NAN, 0.0, 0.0)));
//! ```

pub use glam::{Affine3A, Mat3, Mat3A, Quat, Vec3, Vec3A};

/// Added to every `|R[i][j]|` before the cross-product axes of a separating-axis test.
///
/// When an edge of one box is (nearly) parallel to an edge of the other, their cross product is
/// (nearly) zero and every term of that axis test is rounding noise, which can report a false
/// separating axis: a missed collision (Gomez 1999, listing 6; ERRATA listing 6.1; Ericson,
/// RTCD §4.4.1). The epsilon makes the noisy axis conservative instead.
pub const PARALLEL_EPSILON: f32 = 1e-6;

/// Relative tolerance used to decide that a direction or an area is zero.
///
/// A cross product whose length is below `DEGENERATE_EPSILON` times the product of its
/// inputs' lengths counts as zero (collinear points, parallel edges).
pub const DEGENERATE_EPSILON: f32 = 1e-7;

/// `true` when all three components are finite (not NaN, not infinite).
#[inline]
#[must_use]
pub fn is_finite3(v: Vec3) -> bool {
    v.is_finite()
}

/// `p` splatted per coordinate: `[x; 4], [y; 4], [z; 4]`, the query side of the packed
/// four-lane tests (`batch`, the BVH's nodes and buckets). NaN stays NaN.
#[inline(always)]
pub(crate) fn splat3(p: Vec3) -> [glam::Vec4; 3] {
    [
        glam::Vec4::splat(p.x),
        glam::Vec4::splat(p.y),
        glam::Vec4::splat(p.z),
    ]
}

/// The 63-bit Morton code of a cell `(x, y, z)`: the low 21 bits of each coordinate
/// interleaved, `x` in bits `3k`, `y` in `3k + 1`, `z` in `3k + 2`. Sorting by it orders cells
/// along a Z-order curve (the BVH's bulk load, the hull's Gauss-map arcs).
#[inline]
pub(crate) fn morton3(x: u64, y: u64, z: u64) -> u64 {
    spread_bits(x) | spread_bits(y) << 1 | spread_bits(z) << 2
}

/// Spreads the low 21 bits of `v` so that two zero bits separate each (bit `k` moves to bit
/// `3k`): the per-axis step of a Morton code (the "magic bits" method; Baert, *Morton
/// encoding/decoding through bit interleaving*, 2013).
#[inline]
fn spread_bits(v: u64) -> u64 {
    let mut x = v & 0x1f_ffff;
    x = (x | (x << 32)) & 0x001f_0000_0000_ffff;
    x = (x | (x << 16)) & 0x001f_0000_ff00_00ff;
    x = (x | (x << 8)) & 0x100f_00f0_0f00_f00f;
    x = (x | (x << 4)) & 0x10c3_0c30_c30c_30c3;
    x = (x | (x << 2)) & 0x1249_2492_4924_9249;
    x
}

/// `q / |q|` for a finite non-zero quaternion, else `None`; normalised in `f64`.
///
/// In `f64`: in `f32`, `|q|²` underflows for components below ~1e-19 (a quaternion of 1e-22
/// components gives axes of length 1.002) and overflows
/// above ~1e19; in `f64` the square of any finite `f32` is exact enough.
#[inline]
#[must_use]
pub(crate) fn unit_quat(q: Quat) -> Option<Quat> {
    let v = glam::DVec4::new(q.x.into(), q.y.into(), q.z.into(), q.w.into());
    let len = v.length();
    (len > 0.0 && len.is_finite()).then(|| {
        let u = v / len;
        Quat::from_xyzw(u.x as f32, u.y as f32, u.z as f32, u.w as f32)
    })
}

/// The rotation matrix of `q` normalised by [`unit_quat`]: NaN columns for a quaternion with
/// no direction (zero, NaN or infinite), so everything it rotates is NaN. Boxes, posed
/// shapes and polyhedra all take their matrix from here.
#[inline]
#[must_use]
pub(crate) fn rotation_matrix(q: Quat) -> Mat3 {
    match unit_quat(q) {
        Some(q) => Mat3::from_quat(q),
        None => Mat3::from_cols(Vec3::NAN, Vec3::NAN, Vec3::NAN),
    }
}

#[cfg(test)]
mod tests {
    use super::morton3;

    /// `morton3` by the definition: bit `k` of each coordinate to bit `3k + axis`.
    fn interleave(c: [u64; 3]) -> u64 {
        let mut code = 0;
        for k in 0..21 {
            for (axis, v) in c.iter().enumerate() {
                code |= ((v >> k) & 1) << (3 * k + axis);
            }
        }
        code
    }

    #[test]
    fn morton3_interleaves_the_low_21_bits() {
        assert_eq!(morton3(1, 0, 0), 1);
        assert_eq!(morton3(0, 1, 0), 2);
        assert_eq!(morton3(0, 0, 1), 4);
        assert_eq!(morton3(0x1f_ffff, 0x1f_ffff, 0x1f_ffff), (1 << 63) - 1);
        // Bits above the 21st are dropped.
        assert_eq!(
            morton3(1 << 21, 1 << 22, u64::MAX),
            morton3(0, 0, 0x1f_ffff)
        );
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let c = [x & 0x1f_ffff, (x >> 21) & 0x1f_ffff, (x >> 42) & 0x1f_ffff];
            assert_eq!(morton3(c[0], c[1], c[2]), interleave(c), "{c:?}");
        }
    }
}
