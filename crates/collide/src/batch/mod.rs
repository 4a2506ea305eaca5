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
//!   box, [`AabbSoa::ray_mask`] / [`AabbSoa::for_each_ray_hit`] for a
//!   [`raycast::RayInv`](crate::raycast::RayInv) (a ray with its inverse direction).
//! - [`SphereSoa`]: spheres; one sphere against all of them.
//!
//! Results come back without allocation: as a bitmask in a caller-provided `&mut [u64]` (bit
//! `i` of word `i / 64` is element `i`; size it with [`mask_words`]), through a callback given
//! each hit's index, or as a count.
//!
//! Semantics match the scalar queries: touching counts as overlapping (`<=` everywhere, as
//! `overlap::aabb_aabb` and `overlap::sphere_sphere`); NaN anywhere in the query or in a stored
//! element gives "no hit" for that element; a box with `min > max` on an axis (for example
//! [`Aabb::EMPTY`](crate::shapes::Aabb::EMPTY)), stored or as the query, overlaps nothing.
//!
//! # Example
//!
//! ```rust
//! use collide::batch::{mask_words, AabbSoa, SphereSoa};
//! use collide::raycast::RayInv;
//! use collide::shapes::{Aabb, Ray, Sphere};
//! use collide::Vec3;
//!
//! // A row of 20 crates, one every 2 m along x: crate i spans x in [2i - 0.5, 2i + 0.5].
//! let crates: Vec<Aabb> = (0..20)
//!     .map(|i| Vec3::new(2.0 * i as f32, 0.0, 0.0))
//!     .map(|c| Aabb::from_center_half_extents(c, Vec3::splat(0.5)))
//!     .collect();
//! let soa = AabbSoa::from_aabbs(&crates);
//!
//! // A trigger volume over x in [2.5, 7.5]: crates 2 and 3 inside, 1 and 4 touching its faces.
//! let trigger = Aabb::new(Vec3::new(2.5, -1.0, -1.0), Vec3::new(7.5, 1.0, 1.0));
//! let mut inside = Vec::new();
//! soa.for_each_overlap(&trigger, |i| inside.push(i)); // called with each index, in order
//! assert_eq!(inside, [1, 2, 3, 4]);
//! let mut mask = vec![0_u64; mask_words(soa.len())];
//! assert_eq!(soa.overlap_mask(&trigger, &mut mask), 4);
//! assert_eq!(mask[0], 0b11110);
//!
//! // A picking ray along the row from x = -10 first enters crate 0, at x = -0.5.
//! let ray = RayInv::new(&Ray::new(Vec3::new(-10.0, 0.0, 0.0), Vec3::X));
//! let (first, t) = soa.ray_first_hit(&ray, 100.0).unwrap();
//! assert_eq!(first, 0);
//! assert!((t - 9.5).abs() < 1e-5);
//!
//! // Spheres: which pickups does a player of radius 0.5 at the origin reach?
//! let pickups = SphereSoa::from_spheres(&[
//!     Sphere::new(Vec3::new(1.0, 0.0, 0.0), 0.5), // touching
//!     Sphere::new(Vec3::new(5.0, 0.0, 0.0), 0.5), // out of reach
//!     Sphere::new(Vec3::new(0.0, 0.9, 0.0), 0.5), // overlapping
//! ]);
//! assert_eq!(pickups.count_overlaps(&Sphere::new(Vec3::ZERO, 0.5)), 2);
//! ```

mod aabb;
mod lanes;
mod sphere;

pub use aabb::AabbSoa;
pub use sphere::SphereSoa;

/// The first broken layout invariant an [`AabbSoa::validate`] or [`SphereSoa::validate`]
/// finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutDefect {
    /// The chunk count is not `ceil(len / LANES)`.
    ChunkCount {
        /// Chunks held.
        chunks: usize,
        /// Elements held.
        len: usize,
    },
    /// A lane past `len` holds an element instead of NaN padding.
    Padding {
        /// The lane's index (`>= len`).
        lane: usize,
    },
}

impl std::fmt::Display for LayoutDefect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            LayoutDefect::ChunkCount { chunks, len } => write!(
                f,
                "{chunks} chunks for {len} elements (want {})",
                len.div_ceil(LANES)
            ),
            LayoutDefect::Padding { lane } => write!(f, "padding lane {lane} is not NaN"),
        }
    }
}

impl std::error::Error for LayoutDefect {}

/// Lanes per chunk: eight `f32`s, one AVX register or two SSE ones.
pub const LANES: usize = 8;

/// The number of `u64` words a bitmask over `len` elements needs: `ceil(len / 64)`.
#[inline]
#[must_use]
pub const fn mask_words(len: usize) -> usize {
    len.div_ceil(64)
}

/// `1 + 2γ₃` (`γₙ = n ε / (1 - n ε)`, `ε = 2⁻²⁴`): the far slab distance is widened by this
/// factor, as in [`raycast::aabb_inv`](crate::raycast::aabb_inv), so that rounding never loses
/// a grazing hit and the batch agrees with the scalar cast (PBRT §3.9.2).
const SLAB_WIDEN: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);

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
}
