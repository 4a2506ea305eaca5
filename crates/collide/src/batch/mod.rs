//! Batch queries: one box, ray or sphere against many, stored structure-of-arrays.
//!
//! A broad phase, a trigger volume or a picking ray asks the same question of hundreds or
//! thousands of boxes. Stored one `Aabb` after another, each test loads a whole box and
//! branches; stored as lanes of eight (`[f32; 8]` per coordinate, "array of structures of
//! arrays", the layout of Jolt's `RayAABox4` and Embree's BVH nodes), the eight tests of a
//! chunk are the same instruction on eight values, which the compiler turns into SIMD compares
//! without `unsafe` or intrinsics, and a chunk's answer is an 8-bit mask.
//!
//! - [`AabbSoa`]: boxes; [`AabbSoa::overlap_mask`] / [`AabbSoa::for_each_overlap`] for a query
//!   box, [`AabbSoa::ray_mask`] / [`AabbSoa::for_each_ray_hit`] for a [`RayInv`].
//! - [`SphereSoa`]: spheres; one sphere against all of them.
//!
//! Results come back without allocation: as a bitmask in a caller-provided `&mut [u64]` (bit
//! `i` of word `i / 64` is element `i`; size it with [`mask_words`]), through a callback given
//! each hit's index, or as a count.
//!
//! Semantics match the scalar queries: touching counts as overlapping (`<=` everywhere, as
//! `overlap::aabb_aabb` and `overlap::sphere_sphere`); NaN anywhere in the query or in a stored
//! element gives "no hit" for that element; a stored box with `min > max` on an axis (for
//! example [`Aabb::EMPTY`](crate::shapes::Aabb::EMPTY)) overlaps nothing.

mod aabb;
mod sphere;

pub use aabb::AabbSoa;
pub use sphere::SphereSoa;

use crate::math::Vec3;
use crate::shapes::Ray;

/// Lanes per chunk: eight `f32`s, one AVX register or two SSE ones.
pub const LANES: usize = 8;

/// The number of `u64` words a bitmask over `len` elements needs: `ceil(len / 64)`.
#[inline]
#[must_use]
pub const fn mask_words(len: usize) -> usize {
    len.div_ceil(64)
}

/// Calls `f` with the index of every set bit of an 8-bit chunk mask, lowest first.
#[inline(always)]
fn for_each_bit(chunk: usize, mut bits: u32, f: &mut impl FnMut(usize)) {
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize;
        f(chunk * LANES + lane);
        bits &= bits - 1;
    }
}

/// Writes chunk masks into a `u64` bitmask (eight chunks per word) and returns the number of
/// set bits. Only the words that fit in `mask` are written; the rest of the chunks are skipped.
#[inline(always)]
fn fill_mask(chunks: usize, mask: &mut [u64], mut chunk_bits: impl FnMut(usize) -> u32) -> usize {
    let mut count = 0;
    for (w, word) in mask.iter_mut().enumerate() {
        let first = w * 8;
        if first >= chunks {
            *word = 0;
            continue;
        }
        let mut acc = 0u64;
        for c in first..(first + 8).min(chunks) {
            acc |= u64::from(chunk_bits(c)) << ((c - first) * LANES);
        }
        count += acc.count_ones() as usize;
        *word = acc;
    }
    count
}

/// A ray prepared for slab tests against many boxes: origin, the inverse of each direction
/// component, which axes it runs parallel to, and the largest `t` that counts.
///
/// The slab test (Kay & Kajiya 1986; Williams et al., "An efficient and robust ray–box
/// intersection algorithm", 2005) computes, per axis, the `t` at which the ray crosses the
/// box's two planes, `(min - o) / d` and `(max - o) / d`, and the ray hits when the latest entry
/// is before the earliest exit. Dividing once per ray and multiplying per box is the point of
/// precomputing `inv_dir`.
///
/// A zero direction component would make `1/d` infinite and `(min - o) · inf` NaN when the
/// origin lies exactly on a slab plane, and a ray running along a face must count as touching
/// it. So an axis whose `1/d` is not finite (`d` zero or subnormal, below ~3e-39) is marked
/// `parallel`: on it the ray is inside the slab for every `t` when `min <= o <= max` (boundary
/// included) and never otherwise, and `inv_dir` is 0 there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayInv {
    /// Start point (`t = 0`).
    pub origin: Vec3,
    /// `1 / dir` per component; 0 on the parallel axes.
    pub inv_dir: Vec3,
    /// Per axis: the direction component is zero (or too small to invert).
    pub parallel: [bool; 3],
    /// Hits with entry `t` above this are ignored; `t` is in units of `|dir|`.
    pub max_t: f32,
    /// `false` when the origin, direction or `max_t` is NaN (or the origin or direction is
    /// infinite), or `max_t < 0`: such a ray hits nothing.
    pub valid: bool,
}

impl RayInv {
    /// Prepares `ray` for batch slab tests up to `max_t` (`f32::INFINITY` for an unbounded
    /// ray). A zero direction is a point: it hits the boxes that contain it, at `t = 0`.
    #[inline]
    #[must_use]
    pub fn new(ray: &Ray, max_t: f32) -> RayInv {
        let inv = |d: f32| {
            let r = 1.0 / d;
            if r.is_finite() {
                (r, false)
            } else {
                (0.0, true)
            }
        };
        let (ix, px) = inv(ray.dir.x);
        let (iy, py) = inv(ray.dir.y);
        let (iz, pz) = inv(ray.dir.z);
        RayInv {
            origin: ray.origin,
            inv_dir: Vec3::new(ix, iy, iz),
            parallel: [px, py, pz],
            max_t,
            valid: ray.is_finite() && max_t >= 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_word_counts() {
        // 0 elements need no word, 1..=64 one, 65 two.
        assert_eq!(mask_words(0), 0);
        assert_eq!(mask_words(1), 1);
        assert_eq!(mask_words(64), 1);
        assert_eq!(mask_words(65), 2);
    }

    #[test]
    fn ray_inverse_marks_zero_components_parallel() {
        // dir (2, 0, -0): inverse (0.5, 0, 0), y and z parallel; a NaN max_t makes it invalid.
        let r = RayInv::new(&Ray::new(Vec3::ZERO, Vec3::new(2.0, 0.0, -0.0)), 1.0);
        assert_eq!(r.inv_dir, Vec3::new(0.5, 0.0, 0.0));
        assert_eq!(r.parallel, [false, true, true]);
        assert!(r.valid);
        assert!(!RayInv::new(&Ray::new(Vec3::ZERO, Vec3::X), f32::NAN).valid);
        assert!(!RayInv::new(&Ray::new(Vec3::NAN, Vec3::X), 1.0).valid);
        assert!(!RayInv::new(&Ray::new(Vec3::ZERO, Vec3::X), -1.0).valid);
    }
}
