//! Bounding volumes every frame: tight and fast AABBs, fitted OBBs and spheres (Lander 1999).
//!
//! A game needs each object's box every frame as it moves (Lander, *When Two Hearts Collide*,
//! 1999). Two ways, both here:
//! - **tight**: transform every vertex and take the extremes ([`tight_aabb`]; Lander's
//!   `RecalcFullBBox`, looping over the unique vertices rather than over every face corner —
//!   ERRATA Lander 1). Exact, and linear in the vertex count.
//! - **fast**: transform a box fitted once in the rest pose: [`crate::shapes::Aabb::transformed`]
//!   for the rest-pose AABB and [`obb_aabb`] for a fitted OBB (centre' = M·c + t, extents' =
//!   |M|·e — the same box as transforming the 8 corners, Lander's `RecalcBBox`, at a fraction
//!   of the work; Arvo 1990; ERRATA Lander 2). Constant time; contains the tight box.
//!
//! Fitting at modelling time: [`Obb::fit`](crate::shapes::Obb::fit) (DiTO-style candidate
//! axes plus local refinement; never worse than [`Obb::fit_pca`](crate::shapes::Obb::fit_pca)),
//! [`Sphere::fit`](crate::shapes::Sphere::fit) (Ritter 1990) and
//! [`Sphere::fit_exact`](crate::shapes::Sphere::fit_exact) (Welzl 1991 with Gärtner's
//! move-to-front).
//!
//! # Example
//!
//! ```rust
//! use collide::bounding::{obb_aabb, tight_aabb};
//! use collide::shapes::{Aabb, Obb};
//! use collide::{Affine3A, Quat, Vec3, Vec3A};
//!
//! // A cube of half-size 1, turned 45° about y and lifted 2 m.
//! let s = |bit: usize| if bit == 0 { -1.0 } else { 1.0 };
//! let corners: Vec<Vec3> = (0..8).map(|i| Vec3::new(s(i & 1), s(i & 2), s(i & 4))).collect();
//! let m = Affine3A::from_rotation_translation(
//!     Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
//!     Vec3::new(0.0, 2.0, 0.0),
//! );
//! // Tight: every vertex transformed. The turned cube reaches √2 along x and z.
//! let verts: Vec<Vec3A> = corners.iter().map(|&v| Vec3A::from(v)).collect();
//! let tight = tight_aabb(&verts, &m);
//! let r2 = 2.0_f32.sqrt();
//! assert!((tight.max - Vec3::new(r2, 3.0, r2)).length() < 1e-5);
//! // Fast: the rest-pose box transformed, in constant time; it always contains the tight box
//! // (here they are equal, the mesh being the box itself).
//! let fast = Aabb::new(Vec3::splat(-1.0), Vec3::ONE).transformed(&m);
//! assert!((fast.max - tight.max).length() < 1e-5 && (fast.min - tight.min).length() < 1e-5);
//! // A box fitted to the turned points finds the cube: volume 8, where the AABB's is 16.
//! let moved: Vec<Vec3> = corners.iter().map(|&v| m.transform_point3(v)).collect();
//! let obb = Obb::fit(&moved).unwrap();
//! assert!((obb.volume() - 8.0).abs() < 1e-3);
//! assert!((obb_aabb(&obb, &Affine3A::IDENTITY).max - tight.max).length() < 1e-3);
//! ```

mod obb_fit;
mod sphere_fit;

use crate::math::{Affine3A, Vec3, Vec3A};
use crate::shapes::{Aabb, Obb};

/// Vertex count from which [`tight_aabb`] splits the work over rayon's thread pool (with the
/// `parallel` feature; without it the chunks run in turn on the calling thread).
///
/// The threshold sits between the largest count at which the split is slower than the serial
/// loop and the smallest at which it is faster, on a 2-core machine (`cargo bench --bench
/// bounding`, `tight_aabb_threshold`; the numbers are in CHANGELOG.md).
pub const PARALLEL_THRESHOLD: usize = 1 << 17;

/// Vertices per rayon task above the threshold.
const CHUNK: usize = 1 << 14;

/// The tight AABB of `vertices` moved by `m`: the smallest box containing every `m·v`.
///
/// Lander's `RecalcFullBBox` over the unique vertices (ERRATA Lander 1: not over every face
/// corner, which transforms each shared vertex several times). No allocation; runs on rayon's
/// pool from [`PARALLEL_THRESHOLD`] vertices when the `parallel` feature is on (use
/// [`tight_aabb_serial`] inside your own parallel loop). Empty input gives [`Aabb::EMPTY`]. A NaN or infinite coordinate anywhere
/// (in a vertex or in `m`) gives a box with NaN corners, which no query reports as touching.
#[must_use]
pub fn tight_aabb(vertices: &[Vec3A], m: &Affine3A) -> Aabb {
    if vertices.len() < PARALLEL_THRESHOLD {
        return tight_aabb_serial(vertices, m);
    }
    let acc = crate::par::map_reduce_chunks(
        vertices,
        CHUNK,
        |c| extremes(c, m),
        || Extremes::EMPTY,
        Extremes::merge,
    );
    acc.finish(m)
}

/// [`tight_aabb`] on `Vec3` vertices (12-byte stride); the same box, a little slower.
#[must_use]
pub fn tight_aabb_vec3(vertices: &[Vec3], m: &Affine3A) -> Aabb {
    if vertices.len() < PARALLEL_THRESHOLD {
        return extremes(vertices, m).finish(m);
    }
    let acc = crate::par::map_reduce_chunks(
        vertices,
        CHUNK,
        |c| extremes(c, m),
        || Extremes::EMPTY,
        Extremes::merge,
    );
    acc.finish(m)
}

/// [`tight_aabb`] on the calling thread only, whatever the size.
#[must_use]
pub fn tight_aabb_serial(vertices: &[Vec3A], m: &Affine3A) -> Aabb {
    extremes(vertices, m).finish(m)
}

/// The AABB of an OBB moved by `m` (any affine map: rotation, scale, shear): the fast box
/// from a fitted OBB, the same as the 8 transformed corners.
///
/// The box is the image of the cube `[-1, 1]^3` under `x ↦ m(c) + M R diag(e) x`, so its
/// half-extent on world axis i is `Σ_j |(M R)_ij| e_j` (Arvo 1990; Gomez 1999 "OBB to AABB").
/// A NaN anywhere gives NaN corners.
#[inline]
#[must_use]
pub fn obb_aabb(obb: &Obb, m: &Affine3A) -> Aabb {
    let mr = m.matrix3 * crate::math::Mat3A::from(obb.axes);
    let e = Vec3A::from(obb.half_extents);
    let ext = mr.x_axis.abs() * e.x + mr.y_axis.abs() * e.y + mr.z_axis.abs() * e.z;
    let c = m.transform_point3a(Vec3A::from(obb.center));
    Aabb {
        min: (c - ext).into(),
        max: (c + ext).into(),
    }
}

/// Running extremes of `M·v` (translation added once at the end), and a NaN detector.
#[derive(Clone, Copy)]
struct Extremes {
    lo: Vec3A,
    hi: Vec3A,
    /// Sum of `0 · M·v`: zero while every product is finite, NaN once one is not.
    nan: Vec3A,
}

impl Extremes {
    const EMPTY: Extremes = Extremes {
        lo: Vec3A::INFINITY,
        hi: Vec3A::NEG_INFINITY,
        nan: Vec3A::ZERO,
    };

    #[inline]
    fn merge(a: Extremes, b: Extremes) -> Extremes {
        Extremes {
            lo: a.lo.min(b.lo),
            hi: a.hi.max(b.hi),
            nan: a.nan + b.nan,
        }
    }

    fn finish(self, m: &Affine3A) -> Aabb {
        if self.lo.x > self.hi.x {
            return Aabb::EMPTY;
        }
        // `0 · x` is NaN for NaN and infinite x, so one non-finite product anywhere has made
        // the sum NaN (SIMD min/max alone would drop or keep a NaN depending on order).
        if self.nan.is_nan() || !m.is_finite() {
            return Aabb {
                min: Vec3::NAN,
                max: Vec3::NAN,
            };
        }
        // min over v of (M v + t) = (min over v of M v) + t, componentwise.
        let t = m.translation;
        Aabb {
            min: (self.lo + t).into(),
            max: (self.hi + t).into(),
        }
    }
}

/// The hot loop: four independent accumulators so the min/max chains overlap.
#[inline]
fn extremes<T: Copy + Into<Vec3A>>(vertices: &[T], m: &Affine3A) -> Extremes {
    let (cx, cy, cz) = (m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis);
    // M v = cx v.x + cy v.y + cz v.z (columns of M scaled by v's components).
    let mul = |v: Vec3A| cx * v.x + cy * v.y + cz * v.z;
    let mut lo = [Vec3A::INFINITY; 4];
    let mut hi = [Vec3A::NEG_INFINITY; 4];
    let mut nan = [Vec3A::ZERO; 4];
    let mut chunks = vertices.chunks_exact(4);
    for c in &mut chunks {
        for k in 0..4 {
            let p = mul(c[k].into());
            lo[k] = lo[k].min(p);
            hi[k] = hi[k].max(p);
            nan[k] += p * 0.0;
        }
    }
    for &v in chunks.remainder() {
        let p = mul(v.into());
        lo[0] = lo[0].min(p);
        hi[0] = hi[0].max(p);
        nan[0] += p * 0.0;
    }
    Extremes {
        lo: lo[0].min(lo[1]).min(lo[2].min(lo[3])),
        hi: hi[0].max(hi[1]).max(hi[2].max(hi[3])),
        nan: nan[0] + nan[1] + nan[2] + nan[3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;

    #[test]
    fn cube_turned_45_degrees() {
        // Unit cube corners turned 45° about z and moved by (1, 2, 3): the box is √2 wide in
        // x and y, 1 in z.
        let corners = Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)).corners();
        let va: Vec<Vec3A> = corners.iter().map(|&c| c.into()).collect();
        let m = Affine3A::from_rotation_translation(
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::new(1.0, 2.0, 3.0),
        );
        let b = tight_aabb(&va, &m);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert_near!(b.min, Vec3::new(1.0 - h, 2.0 - h, 2.5), 1e-6);
        assert_near!(b.max, Vec3::new(1.0 + h, 2.0 + h, 3.5), 1e-6);
        // Here the fast box of the rest AABB is the same box (the corners are the vertices).
        let fast = Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)).transformed(&m);
        assert_near!(fast.min, b.min, 1e-6);
        assert_near!(fast.max, b.max, 1e-6);
    }

    #[test]
    fn empty_and_single() {
        // No vertices: the empty box; one vertex: the point box at m·v.
        let m = Affine3A::from_translation(Vec3::X);
        assert_eq!(tight_aabb(&[], &m), Aabb::EMPTY);
        assert_eq!(tight_aabb_vec3(&[], &m), Aabb::EMPTY);
        let b = tight_aabb(&[Vec3A::ONE], &m);
        assert_eq!(
            (b.min, b.max),
            (Vec3::new(2.0, 1.0, 1.0), Vec3::new(2.0, 1.0, 1.0))
        );
    }

    #[test]
    fn obb_aabb_identity_is_obb_aabb() {
        // Under the identity, the moved OBB's box is `Obb::aabb`.
        let o = Obb::new(
            Vec3::ONE,
            Quat::from_rotation_x(0.3),
            Vec3::new(1.0, 2.0, 0.5),
        );
        let a = obb_aabb(&o, &Affine3A::IDENTITY);
        assert_near!(a.min, o.aabb().min, 1e-6);
        assert_near!(a.max, o.aabb().max, 1e-6);
    }
}
