//! Ray casts: the first point where a ray meets a shape, with its normal.
//!
//! Every cast is `raycast::shape(&ray, &shape, max_t) -> Option<RayHit>` and finds the smallest
//! `t` in `[0, max_t]` with `ray.origin + t · ray.dir` on the (closed, solid) shape. `t` is in
//! units of `|dir|`: with `dir = b - a` and `max_t = 1` the ray is the segment `a`–`b`.
//!
//! Shared rules, for every cast:
//! - **Touching counts**: a ray that grazes a surface, an edge or a corner hits it.
//! - **Starting inside** (or on the surface): `t = 0`, `point = origin`, and the normal is
//!   `-dir / |dir|` (facing back along the ray), or `+Z` when `dir` is zero. A ray with a zero
//!   direction is a point and hits only when it starts inside.
//! - **Normal**: unit, the outward surface normal at the hit (for the two-sided plane and the
//!   triangle, the side facing the ray's origin).
//! - **Bad input**: NaN anywhere (ray, shape or `max_t`), an infinite coordinate, or a negative
//!   `max_t` gives `None`. `max_t = f32::INFINITY` is an unbounded ray.
//! - **Representable hits**: a hit's `t`, point and normal are always finite. The point
//!   `origin + t · dir` is evaluated without intermediate overflow (in `f64`, rounded once);
//!   a hit whose `t` or point lies beyond `±f32::MAX` (only possible with coordinates, or
//!   `t · |dir|`, within a factor of about 2 of `f32::MAX`, or an unbounded ray with a
//!   direction so short that `t` overflows) exists only outside the range of `f32` and is
//!   reported as no hit (`None`).
//!
//! Spheres, capsules and triangles are solved in `f64` from the `f32` input (exact widening),
//! so grazing hits keep their accuracy; boxes use the `f32` slab test with a precomputed
//! inverse direction ([`RayInv`]), robust at grazing angles by the `1 + 2γ₃` widening of
//! Pharr, Jakob & Humphreys (*PBRT* 3rd ed., §3.9.2).
//!
//! # Example
//!
//! ```rust
//! use collide::raycast;
//! use collide::shapes::{Obb, Ray, Sphere};
//! use collide::{Quat, Vec3};
//!
//! // A segment as a ray: dir = b - a, max_t = 1.
//! let (a, b) = (Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0));
//! let ray = Ray::new(a, b - a);
//! let target = Sphere::new(Vec3::ZERO, 1.0);
//! let hit = raycast::sphere(&ray, &target, 1.0).unwrap();
//! assert!((hit.t - 0.4).abs() < 1e-6); // x = -1 lies 4 m along the 10 m segment
//! assert!((hit.point - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
//! assert!((hit.normal - Vec3::NEG_X).length() < 1e-6);
//! assert!(raycast::sphere(&ray, &target, 0.35).is_none()); // too short to reach
//! // Starting inside: t = 0, the normal facing back along the ray.
//! let cube = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
//! let inside = raycast::obb(&Ray::new(Vec3::ZERO, Vec3::Y), &cube, 10.0).unwrap();
//! assert_eq!(inside.t, 0.0);
//! assert!((inside.normal - Vec3::NEG_Y).length() < 1e-6);
//! ```

pub(crate) mod kernel;

use crate::math::{Vec3, Vec3A};
use crate::shapes::{Aabb, Capsule, Obb, Plane, Ray, Sphere, Triangle};
use glam::DVec3;

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Ray parameter of the hit, in `[0, max_t]`, in units of `|dir|`.
    pub t: f32,
    /// The hit point, `origin + t · dir`.
    pub point: Vec3,
    /// Unit surface normal at the hit (see the module docs for a ray starting inside).
    pub normal: Vec3,
}

/// A ray with its inverse direction precomputed, for casting one ray against many boxes.
///
/// `inv_dir[i] = 1 / dir[i]` (`±inf` for a zero component, which [`aabb_inv`] handles as a
/// ray parallel to that slab).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayInv {
    /// Start point.
    pub origin: Vec3,
    /// Direction (any length).
    pub dir: Vec3,
    /// Component-wise reciprocal of `dir`.
    pub inv_dir: Vec3,
}

impl RayInv {
    /// Precomputes the inverse direction of `ray`.
    #[inline]
    #[must_use]
    pub fn new(ray: &Ray) -> RayInv {
        RayInv {
            origin: ray.origin,
            dir: ray.dir,
            inv_dir: ray.dir.recip(),
        }
    }
}

impl From<&Ray> for RayInv {
    fn from(ray: &Ray) -> RayInv {
        RayInv::new(ray)
    }
}

/// `1 + 2γ₃` with `γₙ = n ε / (1 - n ε)`, `ε = 2⁻²⁴`: widening the far slab distance by this
/// factor makes the `f32` slab test conservative, so grazing rays count as hits (PBRT §3.9.2).
const SLAB_WIDEN: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);

/// The normal for a ray that starts inside: `-dir / |dir|`, or `+Z` for a zero direction.
#[inline]
fn inside_normal(dir: Vec3) -> Vec3 {
    // glam's `try_normalize` squares the components, which underflows
    // for directions below ~1e-19 and gives a non-unit result; scale by the largest first.
    let u = crate::convex::support::unit_or_zero(-dir);
    if u == Vec3::ZERO {
        Vec3::Z
    } else {
        u
    }
}

/// `true` when every component of the three vectors is finite, without a branch per
/// component: `x · 0` is `±0` for finite `x` and NaN for an infinity or a NaN.
#[inline(always)]
fn all_finite<V>(a: V, b: V, c: V) -> bool
where
    V: Copy + PartialEq + std::ops::Add<Output = V> + std::ops::Mul<Output = V> + Default,
{
    let zero = V::default();
    a * zero + b * zero + c * zero == zero
}

/// `true` when `max_t` is a usable bound (not NaN, not negative).
#[inline]
fn valid_max_t(max_t: f32) -> bool {
    max_t >= 0.0
}

/// The hit at parameter `t` with the given normal, narrowed to `f32`; `None` when it is not
/// representable.
///
/// A hit carries only finite numbers. The point
/// `origin + t · dir` is evaluated in `f64` (no intermediate overflow: `t · dir` may exceed
/// `f32::MAX` while the sum does not) and rounded once; when `t` or the point lies beyond
/// `±f32::MAX` the hit exists only outside the range of `f32`, and the cast reports no hit
/// (module docs, "Representable hits").
#[inline]
pub(crate) fn hit(ray: &Ray, t: f64, normal: Vec3) -> Option<RayHit> {
    let point = (ray.origin.as_dvec3() + t * ray.dir.as_dvec3()).as_vec3();
    finite_hit(t as f32, point, normal)
}

/// `Some(RayHit)` when `t`, `point` and `normal` are all finite (one test for all seven
/// numbers, as in [`all_finite`]).
#[inline]
fn finite_hit(t: f32, point: Vec3, normal: Vec3) -> Option<RayHit> {
    all_finite(Vec3::splat(t), point, normal).then_some(RayHit { t, point, normal })
}

/// Ray against a two-sided plane: the first `t` with `signed_distance(origin + t dir) = 0`.
///
/// Touching: an origin on the plane gives `t = 0`. A ray parallel to the plane and off it
/// misses. Normal: the plane normal on the origin's side (`±n`); for an origin on the plane,
/// the side facing against `dir` (`+n` when `dir` lies in the plane). NaN plane → `None`.
/// Gomez 1999, listing 1 (`d = n·p + D`, linear in `t`).
#[must_use]
pub fn plane(ray: &Ray, plane: &Plane, max_t: f32) -> Option<RayHit> {
    if !(ray.is_finite() && plane.is_finite() && valid_max_t(max_t)) {
        return None;
    }
    let n = plane.normal.as_dvec3();
    let d0 = n.dot(ray.origin.as_dvec3()) + f64::from(plane.d);
    let w = n.dot(ray.dir.as_dvec3());
    if d0 == 0.0 {
        let side = if w > 0.0 { -1.0 } else { 1.0 };
        return hit(ray, 0.0, plane.normal * side);
    }
    // d0 + t w = 0 → t = -d0 / w, which must be >= 0 (moving toward the plane).
    if w == 0.0 || (d0 > 0.0) == (w > 0.0) {
        return None;
    }
    let t = -d0 / w;
    if t as f32 > max_t {
        return None;
    }
    let side = if d0 > 0.0 { 1.0 } else { -1.0 };
    hit(ray, t, plane.normal * side)
}

/// Ray against a solid sphere.
///
/// Touching (a tangent ray) counts. Starting inside: `t = 0` (module rule). A zero radius is a
/// point. NaN → `None`. Solved in `f64` (exact widening of the `f32` input) with Ericson's
/// early-outs (RTCD §5.3.2), the cancellation-free discriminant `r²|d|² - |f × d|²` and the
/// stable entry root `c / q` (Gomez 1999, listing 2; ERRATA 2.3): the same answer as the
/// sweep kernel's `sphere_interval`, with one division instead of two.
#[inline]
#[must_use]
pub fn sphere(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
    let r = f64::from(sphere.radius.abs());
    let (f, d) = (
        (ray.origin.as_dvec3() - sphere.center.as_dvec3()),
        ray.dir.as_dvec3(),
    );
    // A NaN or infinity in the origin or the centre reaches `f` (the f64 difference of two
    // f32 values cannot overflow), so these are all the checks the input needs.
    if !(all_finite(f, d, DVec3::splat(r)) && valid_max_t(max_t)) {
        return None;
    }
    // |f + t d|² = r² is a t² + 2 b t + c = 0 with a = d·d, b = f·d, c = f·f - r².
    let c = f.length_squared() - r * r;
    if c <= 0.0 {
        // Starting inside or on the surface.
        return hit(ray, 0.0, inside_normal(ray.dir));
    }
    let b = f.dot(d);
    if b >= 0.0 {
        // Outside and not approaching: both roots are <= 0 (or there are none).
        return None;
    }
    // b² - a c = r² a - |f × d|² (Lagrange's identity), without the cancellation of b² - a c;
    // a tangency lost to rounding (within `DISC_SLACK`) still touches, as in the sweeps.
    let a = d.length_squared();
    let disc = r * r * a - f.cross(d).length_squared();
    // Entry t0 = (-b - √disc) / a = c / (-b + √disc) (the product of the roots is c / a), whose
    // denominator is a sum of two non-negative terms: no cancellation (Numerical Recipes §5.6).
    // A graze kept by the slack (`disc < 0`) touches at the tangency time `-b/a` (as in
    // `kernel::sphere_interval`; `c / -b` is a ratio of rounding residues when b ≈ 0).
    let t = if disc >= 0.0 {
        c / (disc.sqrt() - b)
    } else {
        -b / a
    };
    // The line missing and the entry beyond max_t decided by one branch (`|`, not `||`): on
    // fresh rays either is a coin toss, and a mispredicted branch costs more than the square
    // root and division computed for nothing.
    if (disc < -kernel::DISC_SLACK * r * r * a) | (t > f64::from(max_t)) {
        return None;
    }
    // The outward normal q / |q| with q = f + t d. Usually q is on the sphere to the rounding
    // of c and t (|q| / r - 1 far below f32 resolution), and q / r is the unit normal as it
    // stands; but the rounding of t is multiplied by |d|, so for a long direction vector q can
    // be far off the sphere (|q| = 170 r with |t d| ~ 1e22). So q / r (in f64:
    // no overflow or underflow for any f32 radius) is renormalised whenever it is not unit to
    // 1e-6; a point sphere (1/r = inf, q / r inf or NaN) gives +Z.
    let m = f + t * d;
    let m = m * r.recip();
    let n = if (m.length_squared() - 1.0).abs() <= 1e-6 {
        m.as_vec3()
    } else {
        m.normalize_or(DVec3::Z).as_vec3()
    };
    hit(ray, t, n)
}

/// Ray against a solid AABB: the slab test (Kay & Kajiya 1986; Ericson, RTCD §5.3.3).
///
/// Touching (a ray along a face, through an edge or a corner) counts. Starting inside: `t = 0`.
/// Normal: the outward normal of the face entered (the slab whose entry is last). A flat box
/// works; an empty box ([`Aabb::EMPTY`]) and NaN give `None`. For many boxes, build a
/// [`RayInv`] once and call [`aabb_inv`].
#[inline]
#[must_use]
pub fn aabb(ray: &Ray, aabb: &Aabb, max_t: f32) -> Option<RayHit> {
    if !ray.is_finite() {
        return None;
    }
    aabb_inv(&RayInv::new(ray), aabb, max_t)
}

/// [`aabb`] with the ray's inverse direction precomputed (the form for loops over boxes).
///
/// Per axis the ray is inside the slab `min_i <= o_i + t d_i <= max_i` for `t` between
/// `(min_i - o_i) / d_i` and `(max_i - o_i) / d_i`; the box is the intersection of the three
/// slab intervals with `[0, max_t]`. A zero `d_i` (parallel to the slab) constrains nothing
/// when `min_i <= o_i <= max_i` and misses otherwise. The far distance is widened by `1 + 2γ₃`
/// so that rounding never loses a grazing hit (PBRT §3.9.2).
#[inline]
#[must_use]
pub fn aabb_inv(ray: &RayInv, aabb: &Aabb, max_t: f32) -> Option<RayHit> {
    // Fast path: the three slabs at once, four lanes wide, when every slab distance is finite
    // (so the origin, the box and `1/d` are, no coordinate difference overflowed, and no
    // direction component is zero or subnormal), the direction is finite (`1/inf = 0`), the
    // box is not inverted and `max_t` is valid. Same rules and results as the loop below: the
    // entry is the largest slab entry (first axis on a tie), the exit the smallest widened
    // slab exit. Anything else takes the loop, with its parallel-slab and f64 cases.
    let (o, inv) = (Vec3A::from(ray.origin), Vec3A::from(ray.inv_dir));
    let (lo_b, hi_b) = (Vec3A::from(aabb.min), Vec3A::from(aabb.max));
    let t1 = (lo_b - o) * inv;
    let t2 = (hi_b - o) * inv;
    if all_finite(t1, t2, Vec3A::from(ray.dir)) && valid_max_t(max_t) && lo_b.cmple(hi_b).all() {
        let (near, axis) = slab_lanes(t1, t2, max_t)?;
        let Some(axis) = axis else {
            return finite_hit(0.0, ray.origin, inside_normal(ray.dir));
        };
        let mut normal = Vec3::ZERO;
        normal[axis] = if ray.dir[axis] > 0.0 { -1.0 } else { 1.0 };
        let point = ray.origin + near * ray.dir;
        if point.is_finite() {
            return finite_hit(near, point, normal);
        }
        let point = (ray.origin.as_dvec3() + f64::from(near) * ray.dir.as_dvec3()).as_vec3();
        return finite_hit(near, point, normal);
    }
    aabb_inv_general(ray, aabb, max_t)
}

/// The careful path of [`aabb_inv`]: a direction parallel to a slab (or with a subnormal
/// component), overflow, bad input.
fn aabb_inv_general(ray: &RayInv, aabb: &Aabb, max_t: f32) -> Option<RayHit> {
    if !(valid_max_t(max_t) && aabb.is_finite() && ray.origin.is_finite() && ray.dir.is_finite())
        || aabb.is_empty()
    {
        return None;
    }
    let (o, d) = (ray.origin, ray.dir);
    let mut t_near = 0.0_f32;
    let mut t_far = max_t;
    let mut axis = usize::MAX; // the slab entered last (none: the origin is inside)
    for i in 0..3 {
        if d[i] == 0.0 {
            if o[i] < aabb.min[i] || o[i] > aabb.max[i] {
                return None;
            }
            continue;
        }
        let inv = ray.inv_dir[i];
        let (ta, tb) = ((aabb.min[i] - o[i]) * inv, (aabb.max[i] - o[i]) * inv);
        if !(ta.is_finite() && tb.is_finite()) {
            // `f32` overflow — a coordinate difference beyond
            // `f32::MAX`, or `1 / d` of a subnormal component — would lose or invent the hit;
            // the slab test once more in `f64`.
            return slab_f64(
                o.as_dvec3(),
                d.as_dvec3(),
                aabb.min.as_dvec3(),
                aabb.max.as_dvec3(),
                max_t,
            )
            .and_then(|(t, axis)| slab_hit(o.as_dvec3(), d.as_dvec3(), t, axis, max_t));
        }
        let (lo, hi) = if inv >= 0.0 { (ta, tb) } else { (tb, ta) };
        if lo > t_near {
            t_near = lo;
            axis = i;
        }
        t_far = t_far.min(hi * SLAB_WIDEN);
    }
    if t_near > t_far {
        return None;
    }
    if axis == usize::MAX {
        return finite_hit(0.0, o, inside_normal(d));
    }
    let mut normal = Vec3::ZERO;
    normal[axis] = if d[axis] > 0.0 { -1.0 } else { 1.0 };
    let point = o + t_near * d;
    if point.is_finite() {
        return finite_hit(t_near, point, normal);
    }
    // `t_near · d` overflowed `f32` (coordinates near `f32::MAX`): the point once more in
    // `f64`, `None` if it is really out of range (module docs, "Representable hits").
    let point = (o.as_dvec3() + f64::from(t_near) * d.as_dvec3()).as_vec3();
    finite_hit(t_near, point, normal)
}

/// The slab test in `f64` (the fallback of [`aabb_inv`] and [`obb`] near the `f32` limits):
/// the entry `t` and the axis entered last (`usize::MAX` when the origin is inside), or
/// `None` for a miss. Same rules as [`aabb_inv`]; `f64` needs no widening for `f32` input.
fn slab_f64(o: DVec3, d: DVec3, lo: DVec3, hi: DVec3, max_t: f32) -> Option<(f64, usize)> {
    if !valid_max_t(max_t) {
        return None;
    }
    let (mut t_near, mut t_far, mut axis) = (0.0_f64, f64::from(max_t), usize::MAX);
    for i in 0..3 {
        if d[i] == 0.0 {
            if o[i] < lo[i] || o[i] > hi[i] {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((lo[i] - o[i]) / d[i], (hi[i] - o[i]) / d[i]);
        let (a, b) = if d[i] > 0.0 { (ta, tb) } else { (tb, ta) };
        if a > t_near {
            t_near = a;
            axis = i;
        }
        t_far = t_far.min(b);
    }
    (t_near <= t_far).then_some((t_near, axis))
}

/// The hit of [`slab_f64`]'s answer in the frame the slab test ran in (`o`, `d`): the
/// outward normal of the slab entered, `-dir` from inside; `None` when not representable.
fn slab_hit(o: DVec3, d: DVec3, t: f64, axis: usize, max_t: f32) -> Option<RayHit> {
    if axis == usize::MAX {
        return finite_hit(0.0, o.as_vec3(), inside_normal(d.as_vec3()));
    }
    let mut normal = Vec3::ZERO;
    normal[axis] = if d[axis] > 0.0 { -1.0 } else { 1.0 };
    finite_hit((t as f32).min(max_t), (o + t * d).as_vec3(), normal)
}

/// Ray against a solid OBB: the slab test in the box's frame.
///
/// The ray is moved into box space (`R^T (o - c)`, `R^T d`; the same `t`), cast against the
/// AABB `[-e, e]` (the same slab test and `1 + 2γ₃` widening as [`aabb_inv`], all in `f32`),
/// and the normal rotated back. Touching counts; starting inside gives `t = 0` (module rule);
/// a flat box works; NaN (also a NaN rotation) → `None`.
#[inline]
#[must_use]
pub fn obb(ray: &Ray, obb: &Obb, max_t: f32) -> Option<RayHit> {
    let rt = obb.axes.transpose();
    let o = rt * (ray.origin - obb.center);
    let d = rt * ray.dir;
    let e = obb.half_extents.abs();
    let inv = d.recip();
    // The fast path needs a finite box-space ray with no direction component zero or
    // subnormal (`1/d` finite; `d` finite too, as `1/inf = 0`), finite extents and a valid
    // `max_t`. Every other case — bad input (a NaN or infinity anywhere in the ray or the box,
    // also in its axes, reaches `o`, `d` or `e`: an entry of the axes multiplies every
    // component, and `inf · 0` is NaN), a direction parallel to a face, overflow — takes the
    // careful path.
    if !(o.is_finite() && d.is_finite() && inv.is_finite() && e.is_finite() && valid_max_t(max_t)) {
        return obb_general(ray, obb, max_t);
    }
    // The three slabs at once, four lanes wide. Per axis the ray is inside `-e <= o + t d <= e`
    // for `t` between `t1 = (-e - o)/d` and `t2 = (e - o)/d` (Kay & Kajiya 1986; RTCD
    // §5.3.3), the box for `t` in `[max(0, entries), min(max_t, exits · (1 + 2γ₃))]`, as in
    // `aabb_inv`. Every value is finite here, so no NaN reaches a comparison.
    let (o, e, inv) = (Vec3A::from(o), Vec3A::from(e), Vec3A::from(inv));
    let (near, axis) = slab_lanes((-e - o) * inv, (e - o) * inv, max_t)?;
    let Some(axis) = axis else {
        // No entry after t = 0: the origin is inside (or on the surface).
        return hit(ray, 0.0, inside_normal(ray.dir));
    };
    // The face entered is `-sign(d) e` on `axis`; its outward normal is `-sign(d)` times the
    // box's axis column.
    let sign = if d[axis] > 0.0 { -1.0 } else { 1.0 };
    hit(
        ray,
        f64::from(near),
        (obb.axes.col(axis) * sign).normalize_or(Vec3::Z),
    )
}

/// The slab test of [`aabb_inv`] on three slabs at once, for finite slab distances `t1`
/// (to the `min` planes) and `t2` (to the `max` planes): `None` for a miss; else the entry
/// `t` and the slab entered last (the first such axis on a tie), `None` for an origin inside
/// or on the surface (entry `0`). The exit is widened by [`SLAB_WIDEN`].
#[inline(always)]
fn slab_lanes(t1: Vec3A, t2: Vec3A, max_t: f32) -> Option<(f32, Option<usize>)> {
    let (lo, hi) = (t1.min(t2), t1.max(t2));
    let near = lo.max_element();
    let far = (hi * SLAB_WIDEN).min_element().min(max_t);
    if near.max(0.0) > far {
        return None;
    }
    if near <= 0.0 {
        return Some((0.0, None));
    }
    // `near` is one of the three entries, so some lane matches.
    let axis = (lo.cmpeq(Vec3A::splat(near)).bitmask().trailing_zeros() as usize).min(2);
    Some((near, Some(axis)))
}

/// The careful path of [`obb`]: bad input, a direction parallel to a face (or with a
/// subnormal component), a box-space ray that overflows `f32`. The ray is moved into box
/// space and cast by [`aabb`] against `[-e, e]`.
fn obb_general(ray: &Ray, obb: &Obb, max_t: f32) -> Option<RayHit> {
    // `max_t` checked here too: the f64 fallback below does not go through `aabb_inv` (a NaN
    // `max_t` would hit through it).
    if !(ray.is_finite() && obb.is_finite() && valid_max_t(max_t)) {
        return None;
    }
    let rt = obb.axes.transpose();
    let local = Ray::new(rt * (ray.origin - obb.center), rt * ray.dir);
    let e = obb.half_extents.abs();
    let h = if local.is_finite() {
        aabb(&local, &Aabb { min: -e, max: e }, max_t)?
    } else {
        // The origin is more than `f32::MAX` from the centre; the box
        // frame in `f64`, where that distance is representable.
        let m = rt.as_dmat3();
        let (lo, d) = (
            m * (ray.origin.as_dvec3() - obb.center.as_dvec3()),
            m * ray.dir.as_dvec3(),
        );
        let (t, axis) = slab_f64(lo, d, -e.as_dvec3(), e.as_dvec3(), max_t)?;
        slab_hit(lo, d, t, axis, max_t)?
    };
    if h.t == 0.0 {
        return hit(ray, 0.0, inside_normal(ray.dir));
    }
    hit(
        ray,
        f64::from(h.t),
        (obb.axes * h.normal).normalize_or(Vec3::Z),
    )
}

/// Ray against a solid capsule (the points within `radius` of segment `a`–`b`).
///
/// Touching counts; starting inside gives `t = 0` (module rule). `a == b` is a sphere; radius
/// zero is a segment (hit only by rays that cross it exactly). NaN → `None`. The earliest of the
/// cylinder wall (inside the segment's span) and the two end spheres, in `f64`
/// (Ericson, RTCD §5.3.7). Normal: from the closest point of the core segment to the hit.
#[inline]
#[must_use]
pub fn capsule(ray: &Ray, capsule: &Capsule, max_t: f32) -> Option<RayHit> {
    if !(ray.is_finite() && capsule.is_finite() && valid_max_t(max_t)) {
        return None;
    }
    let (p, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let (a, b) = (capsule.a.as_dvec3(), capsule.b.as_dvec3());
    let t = kernel::ray_capsule_one_part(
        p,
        d,
        a,
        b,
        f64::from(capsule.radius.abs()),
        f64::from(max_t),
    )?;
    if t == 0.0 {
        return hit(ray, 0.0, inside_normal(ray.dir));
    }
    let q = p + t * d;
    let m = b - a;
    let mm = m.length_squared();
    let s = if mm > 0.0 {
        ((q - a).dot(m) / mm).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let normal = (q - (a + s * m))
        .try_normalize()
        .map_or(Vec3::Z, |v| v.as_vec3());
    hit(ray, t, normal)
}

/// Relative barycentric tolerance of [`triangle`]: a hit within this fraction of the
/// triangle's size outside an edge still counts, so that a ray through an edge shared by two
/// triangles never slips between them.
pub const TRIANGLE_EDGE_TOLERANCE: f64 = 1e-12;

/// Ray against a triangle: Möller–Trumbore (1997), in `f64`.
///
/// Edge rule: edges and corners count as hits (barycentrics `u, v >= 0`, `u + v <= 1`, with
/// [`TRIANGLE_EDGE_TOLERANCE`] of slack), so a ray through an edge shared by two triangles
/// hits at least one of them. Both faces hit; the normal is the unit geometric normal
/// `(b - a) × (c - a)` flipped to face the ray's origin. An origin on the triangle (with `dir`
/// not parallel to it) gives `t = 0`. A ray parallel to the triangle's plane misses (even one
/// lying in it: seen edge-on, a triangle has no area). A degenerate triangle (collinear or
/// coincident corners, relative to `DEGENERATE_EPSILON`) and NaN give `None`.
#[inline]
#[must_use]
pub fn triangle(ray: &Ray, tri: &Triangle, max_t: f32) -> Option<RayHit> {
    if !(ray.is_finite() && tri.is_finite() && valid_max_t(max_t)) {
        return None;
    }
    let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
    let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let e1 = b - a;
    let e2 = c - a;
    let n = e1.cross(e2);
    // The size tests below compare squares (`|n|² <= ε² |e1|² |e2|²` for `|n| <= ε |e1| |e2|`,
    // and so on), which keeps the square roots off the path of every cast; no square
    // overflows or underflows `f64` for `f32` input (all lie within 1e-300..1e240).
    let eps = f64::from(crate::math::DEGENERATE_EPSILON);
    let (nn, l1, l2) = (n.length_squared(), e1.length_squared(), e2.length_squared());
    if nn == 0.0 || nn <= eps * eps * l1 * l2 {
        return None;
    }
    // Solve o + t d = a + u e1 + v e2 by Cramer's rule: det = -d·(e1 × e2) = (d × e2)·e1.
    let pvec = d.cross(e2);
    let det = e1.dot(pvec);
    // Parallel to the plane: |d·n| tiny relative to |d||n|.
    let dd = d.length_squared();
    if det * det <= 1e-24 * dd * nn {
        return None;
    }
    let inv = 1.0 / det;
    let tvec = o - a;
    let u = tvec.dot(pvec) * inv;
    let qvec = tvec.cross(e1);
    let v = d.dot(qvec) * inv;
    let tol = TRIANGLE_EDGE_TOLERANCE;
    if u < -tol || v < -tol || u + v > 1.0 + tol {
        return None;
    }
    let t = e2.dot(qvec) * inv;
    if t < 0.0 || t > f64::from(max_t) {
        return None;
    }
    // `det` is a sum of products as large as
    // |d||e1||e2|, so its rounding error is ~1e-16 of that, not of |d||n|. On a needle (|n| ≪
    // |e1||e2|) crossed at a grazing angle, `det` can pass the parallel test above while being
    // mostly rounding, and u, v, t are then noise (a hit 2.25 from a needle of aspect 1e6). When
    // `det` is that small, keep the hit only if its point really lies on the triangle (the
    // f64 closest-point walk, within 1e-9 of the triangle's and the point's scale).
    if det * det <= 1e-18 * dd * l1 * l2 {
        let p = o + t * d;
        let q = kernel::closest_point_triangle(p, a, b, c);
        let scale = e1.length().max(e2.length()).max((p - a).length());
        if (p - q).length() > 1e-9 * scale {
            return None;
        }
    }
    // Facing the origin; the dot product in f64 (in f32 it can overflow for huge `dir`).
    let nlen = nn.sqrt();
    let normal = if n.dot(d) > 0.0 { -n / nlen } else { n / nlen };
    hit(ray, t.min(f64::from(max_t)), normal.as_vec3())
}

#[cfg(test)]
mod tests;
