//! Static tests: does A touch B now? (Gomez 1999, listings 3, 5, 6, 7 and box–plane.)
//!
//! Every function is `(&A, &B) -> bool`, named for the pair (`overlap::obb_obb(&a, &b)`), and
//! answers for closed shapes: **touching counts as overlapping** (the listings' `<=`), and a
//! shape inside another overlaps it. Pair tests work in A's frame where that saves round-off.
//!
//! | function | method | source |
//! |---|---|---|
//! | [`sphere_sphere`] | squared centre distance against `(r_a + r_b)²` | Gomez 1999 |
//! | [`aabb_aabb`] | interval overlap on x, y, z | Gomez 1999, listing 3 |
//! | [`sphere_aabb`], [`sphere_obb`] | squared distance to the box | Arvo 1990; Gomez listing 5 |
//! | [`obb_obb()`], [`aabb_obb`] | 15-axis separating-axis test, `PARALLEL_EPSILON` on `\|R\|` | Gomez listing 6; Ericson RTCD §4.4.1 |
//! | [`segment_aabb`], [`segment_obb`] | 6-axis separating-axis test on the half-vector | Gomez listing 7; RTCD §5.3.3 |
//! | [`plane_sphere`], [`plane_aabb`], [`plane_obb`], [`plane_capsule`] | `\|d\| <= r` on the plane normal | Gomez 1999 (box–plane) |
//! | [`capsule_capsule`], [`capsule_sphere`], [`sphere_capsule`] | segment distances | RTCD §4.5.1, §5.1.9 |
//! | [`sphere_triangle`] | closest point on the triangle | RTCD §5.2.7 |
//! | [`triangle_aabb`], [`triangle_obb`] | 13-axis separating-axis test | Akenine-Möller 2001; RTCD §5.2.9 |
//!
//! # Bad input: the rule
//!
//! No query panics, whatever the input. Specifically:
//! - **NaN** anywhere in either shape gives `false`. Every comparison is written so that a NaN
//!   falls to "no contact" (for example `d2 <= r2`, never `!(d2 > r2)`), and where a `min`/`max`
//!   could swallow a NaN the function checks for it explicitly.
//! - **Infinite** coordinates or sizes are answered by IEEE arithmetic: an infinitely large
//!   box contains every finite point, a shape infinitely far away touches no finite shape;
//!   where the arithmetic meets `∞ − ∞` or `0 · ∞` the NaN rule applies and the answer is
//!   `false`.
//! - **Zero sizes** are real shapes: a zero-radius sphere or capsule is a point or a segment, a
//!   zero half-extent gives a flat box, a zero-length segment is a point, a degenerate triangle
//!   is the segment or point its corners span. All are tested like any other shape.
//! - **Negative sizes**: the constructors (`Sphere::new`, `Capsule::new`, `Obb::new`,
//!   `Aabb::new`, `Aabb::from_center_half_extents`) take absolute values or sort corners, so a
//!   negative size passed to a constructor means its absolute value. An [`Aabb`] whose `min`
//!   exceeds its `max` on some axis (only by writing the fields, e.g. [`Aabb::EMPTY`]) is empty
//!   and touches nothing. A negative radius or half-extent written directly into a field gives
//!   an unspecified `bool` (never a panic).
//! - **Planes** need not have a unit normal: the plane tests compare `|n·c + d|` with a radius
//!   scaled by `|n|`, so any non-zero normal gives the exact answer. A zero normal (only by
//!   writing the fields) gives an unspecified `bool`; `Plane::from_point_normal` turns it into
//!   a NaN plane, which touches nothing.
//! - **Quaternions** need not be unit: `Obb::new` normalises; a zero quaternion gives NaN axes,
//!   which touch nothing.
//!
//! [`Aabb`]: crate::shapes::Aabb
//! [`Aabb::EMPTY`]: crate::shapes::Aabb::EMPTY
//!
//! # Example
//!
//! ```rust
//! use collide::overlap;
//! use collide::shapes::{Aabb, Plane, Sphere};
//! use collide::Vec3;
//!
//! let ground = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
//! let ball = Sphere::new(Vec3::new(0.0, 0.5, 0.0), 0.5);
//! assert!(overlap::plane_sphere(&ground, &ball)); // resting on it: touching counts
//! let shelf = Aabb::new(Vec3::new(1.0, 0.0, -1.0), Vec3::new(2.0, 1.0, 1.0));
//! let near = |x: f32| Sphere::new(Vec3::new(x, 0.5, 0.0), 0.5);
//! assert!(overlap::sphere_aabb(&near(0.5), &shelf)); // touches its face x = 1
//! assert!(!overlap::sphere_aabb(&near(0.4), &shelf));
//! // NaN never panics and never touches.
//! assert!(!overlap::sphere_sphere(&Sphere::new(Vec3::NAN, 1.0), &ball));
//! ```

mod aabb;
mod capsule;
mod obb_obb;
mod plane;
mod segment;
mod sphere;
mod triangle;

pub use aabb::{aabb_aabb, aabb_obb};
pub use capsule::{capsule_capsule, capsule_sphere};
pub use obb_obb::obb_obb;
pub use plane::{plane_aabb, plane_capsule, plane_obb, plane_sphere};
pub use segment::{segment_aabb, segment_obb};
pub use sphere::{sphere_aabb, sphere_capsule, sphere_obb, sphere_sphere, sphere_triangle};
pub use triangle::{triangle_aabb, triangle_obb};

use crate::math::{Mat3A, Vec3A};

/// The rows of the matrix whose columns are `m`'s columns: `rows[i] = (m[0][i], m[1][i], m[2][i])`.
#[inline(always)]
fn rows(m: Mat3A) -> [Vec3A; 3] {
    let t = m.transpose();
    [t.x_axis, t.y_axis, t.z_axis]
}
