//! Moving tests: when in the frame `u ∈ [0, 1]` do A and B first and last touch?
//!
//! Each body moves by a displacement over the frame (`position(u) = position + u · motion`;
//! Gomez 1999, "normalized time"). A sweep returns `None` when the bodies never touch during
//! the frame, otherwise a [`Sweep`] with the first and last moments of contact. Every sweep
//! works on the relative motion `motion_b - motion_a`, in `f64` widened from the `f32` input,
//! so that the times of grazing contacts (a square root of a cancelling difference) stay
//! accurate to about `1e-8` instead of `1e-3`.
//!
//! Shared rules, for every sweep:
//! - **Touching counts**: a contact that lasts an instant (grazing, `enter == exit`) is a hit.
//! - **Starting touch**: shapes that touch or overlap at `u = 0` hit (at `enter = 0`, `exit`
//!   still the last moment of contact) only when the relative motion approaches along the
//!   normal the sweep reports there: `v · n < -ALONG_TOLERANCE · |v|`, with
//!   `v = motion_b - motion_a` and `n` from A toward B: B's offset from A along `n` changes
//!   at the rate `n · v`, and with `n` the least-penetration normal the depth after `u` is at
//!   most `depth0 - u (n · v)` (for touching shapes `n`'s plane keeps them `u (n · v)` apart).
//!   Shapes that start in contact and move away, along the contact (sliding, within
//!   [`ALONG_TOLERANCE`] of the contact plane) or not at all relative to each other: `None`.
//!   The normal of an initial overlap is that of least penetration, so moving along it (or
//!   anywhere within 90° of it) never takes the shapes deeper; [`obb_obb_rotating`] decides
//!   by the rate at which the gap along that normal changes at `u = 0`, rotation included.
//!   Every hit that is reported and touching at the start has `enter = 0`.
//! - **Normal**: unit, from A toward B at `enter` (moving B along it separates them). For
//!   initial overlap it is the direction of least penetration (each function says which);
//!   it decides the starting-touch rule above.
//! - **Point**: a contact point at `enter`; for an initial overlap, a point in both shapes.
//! - **Bad input**: NaN or infinite anywhere gives `None`.
//! - **Representable hits**: a hit's times, normal and point are always finite. The contact
//!   point is computed in `f64` from the `f32` input (no intermediate overflow) and rounded
//!   once; when it lies beyond `±f32::MAX` (bodies within a factor of about 2 of `f32::MAX`
//!   of the origin, or moved there by their motion) the contact happens only outside the
//!   range of `f32` and the sweep reports no hit (`None`), even for an initial overlap.
//!
//! The article's listings 1, 2 and 4 and what was wrong with them (ERRATA.md) are covered by
//! [`sphere_plane`], [`sphere_sphere`] and [`aabb_aabb`]; [`obb_obb`] extends listing 4's
//! per-axis intervals to the 15 separating axes of listing 6; [`sphere_aabb`], [`sphere_obb`]
//! and [`sphere_triangle`] cast the sphere's centre against the shape grown by the radius;
//! [`obb_obb_rotating`] lets both boxes rotate as well; [`convex()`] sweeps any two convex
//! shapes (hulls, capsules, point clouds) by a GJK ray cast against their Minkowski
//! difference (conservative advancement when they touch at the start).
//!
//! # Example
//!
//! ```rust
//! use collide::shapes::{Plane, Sphere};
//! use collide::sweep;
//! use collide::Vec3;
//!
//! // A ball 0.5 m above the ground falls 3 m this frame. A test at the frame's end finds it
//! // underground; the sweep finds when it landed.
//! let ball = Sphere::new(Vec3::new(0.0, 1.0, 0.0), 0.5);
//! let ground = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
//! let s = sweep::sphere_plane(&ball, Vec3::new(0.0, -3.0, 0.0), &ground).unwrap();
//! assert!((s.enter - 1.0 / 6.0).abs() < 1e-6); // after 0.5 m of the 3 m
//! assert!(s.point.length() < 1e-6);
//! // Two bullets passing through each other between frames.
//! let a = Sphere::new(Vec3::new(-1.0, 0.0, 0.0), 0.1);
//! let b = Sphere::new(Vec3::new(1.0, 0.0, 0.0), 0.1);
//! let s = sweep::sphere_sphere(&a, Vec3::new(4.0, 0.0, 0.0), &b, Vec3::new(-4.0, 0.0, 0.0));
//! let s = s.unwrap();
//! assert!((s.enter - 0.225).abs() < 1e-6); // the 1.8 m gap closes at 8 m per frame
//! assert!((s.normal - Vec3::X).length() < 1e-6); // from A toward B
//! ```

mod aabb;
pub(crate) mod convex;
mod obb;
mod rotating;
mod sphere;

pub use aabb::aabb_aabb;
pub use convex::convex;
pub use obb::obb_obb;
pub use rotating::{obb_obb_rotating, ROTATION_TOLERANCE};
pub(crate) use sphere::sphere_sphere_interval;
pub use sphere::{
    sphere_aabb, sphere_obb, sphere_plane, sphere_plane_halfspace, sphere_sphere, sphere_triangle,
};

use crate::math::Vec3;
use glam::DVec3;

/// The first and last moments of contact of two moving shapes within a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Normalised time of first contact, in `[0, 1]`; `0` when already touching at the start
    /// (reported only when moving deeper: module docs, "Starting touch").
    pub enter: f32,
    /// Normalised time of last contact within the frame, in `[enter, 1]`.
    pub exit: f32,
    /// Unit contact normal at `enter`, pointing from A toward B.
    pub normal: Vec3,
    /// A contact point at `enter` (world space).
    pub point: Vec3,
}

/// Relative tolerance of "moving along" a contact in the starting-touch rule (module docs):
/// a relative motion `v` that starts in contact approaches along the unit normal `n` only
/// when `v · n < -ALONG_TOLERANCE · |v|`, i.e. when it points more than about `1e-4` rad
/// (0.006°) into the contact plane. Motions closer to the plane than that count as sliding
/// along it: over a motion of length `L` they go at most `1e-4 · L` deeper. The slack
/// absorbs the rounding of normals found iteratively (EPA, GJK at a gap of `1e-5`) and of
/// motions projected onto a contact plane in `f32`.
pub const ALONG_TOLERANCE: f32 = 1e-4;

/// The starting-touch rule: does the relative motion `v` (of B, relative to A) approach along
/// the unit contact normal `n` (from A toward B)?
///
/// B's offset from A along `n` changes at the rate `d/du (n · (x_b - x_a)) = n · v`: negative
/// means B moves toward A along the normal, i.e. deeper. For an initial overlap with `n` the
/// direction of least penetration `p0`, the penetration after `u` is at most
/// `p0 - u (n · v)` (the depth is the minimum over directions of affine functions of `u`, and
/// `n`'s is one of them), so `n · v >= 0` never goes deeper; for shapes that touch, `n`'s
/// plane separates them and their distance is at least `u (n · v) >= 0`. "Along" is widened
/// by [`ALONG_TOLERANCE`] relative to `|v|`. No relative motion (`v = 0`) does not approach.
#[inline]
pub(crate) fn approaches(n: DVec3, v: DVec3) -> bool {
    n.dot(v) < -f64::from(ALONG_TOLERANCE) * v.length()
}

/// The starting-touch rule applied to a sweep's result: a hit at `enter = 0` (in contact at
/// the start) is kept only when the relative motion `motion_b - motion_a` approaches along its
/// normal ([`approaches`]); later hits are kept as they are.
#[inline]
fn starting_touch(s: Option<Sweep>, motion_a: Vec3, motion_b: Vec3) -> Option<Sweep> {
    let v = motion_b.as_dvec3() - motion_a.as_dvec3();
    s.filter(|s| s.enter > 0.0 || approaches(s.normal.as_dvec3(), v))
}

/// Intersects the contact interval `[lo, hi]` (in `u`, unbounded) with the frame `[0, 1]`.
///
/// `None` when they do not meet: contact wholly before the frame (ERRATA listing 2.2) or after
/// it (ERRATA listing 4.2).
#[inline]
fn clip_to_frame(lo: f64, hi: f64) -> Option<(f64, f64)> {
    let enter = lo.max(0.0);
    let exit = hi.min(1.0);
    (enter <= exit).then_some((enter, exit))
}

/// The interval of `u` with `|s0 + w u| <= r` (one separating axis: Gomez 1999, listing 4).
///
/// No motion along the axis (`w = 0`) gives all of `u` if the projections overlap, else
/// `None`: such an axis separates for the whole frame (ERRATA listing 4.1).
#[inline]
fn axis_interval(s0: f64, w: f64, r: f64) -> Option<(f64, f64)> {
    if w == 0.0 {
        return (s0.abs() <= r).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (a, b) = ((-r - s0) / w, (r - s0) / w);
    Some(if a <= b { (a, b) } else { (b, a) })
}

/// `v` normalised, else `fallback` normalised, else `+X`.
#[inline]
fn unit_or(v: DVec3, fallback: DVec3) -> DVec3 {
    v.try_normalize()
        .or_else(|| fallback.try_normalize())
        .unwrap_or(DVec3::X)
}

/// The output record, narrowed to `f32`; `None` when it is not representable.
///
/// A hit carries only finite numbers. Every sweep
/// computes its contact point in `f64` from the `f32` input (no intermediate overflow); when
/// that point lies beyond `±f32::MAX` the contact happens only outside the range of `f32`, and
/// the sweep reports no hit (module docs, "Representable hits").
#[inline]
fn make(enter: f64, exit: f64, normal: DVec3, point: DVec3) -> Option<Sweep> {
    let (enter, exit) = (enter as f32, exit as f32);
    let (normal, point) = (normal.as_vec3(), point.as_vec3());
    (enter.is_finite() && exit.is_finite() && normal.is_finite() && point.is_finite()).then_some(
        Sweep {
            enter,
            exit: exit.max(enter),
            normal,
            point,
        },
    )
}
