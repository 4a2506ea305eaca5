//! Any two convex shapes translating over the frame: conservative advancement on GJK
//! distances (Mirtich 1996; van den Bergen 2003 §5.3).

use super::Sweep;
use crate::convex::contact::contact_cached;
use crate::convex::{gjk, GjkCache, Posed, SupportMap};
use crate::math::Vec3;
use glam::DVec3;

/// Iterations of one advancement before it stops with the time reached (a grazing approach
/// converges linearly; 128 steps take a gap down by far more than `f32` can resolve unless the
/// approach is grazing to within about 1e-4 of its speed).
const MAX_STEPS: u32 = 128;

/// Gap below which two shapes count as touching: `1e-5` of the scale the advancement works at
/// (the sum of both shapes' extents along x and the length of the relative motion).
const TOUCH: f32 = 1e-5;

/// Convex shapes `a` and `b` (any [`SupportMap`]: hulls, boxes, capsules, spheres, point
/// clouds, posed shapes) translating by `motion_a` and `motion_b` over the frame, their
/// orientation held: the first and last moments of contact.
///
/// `enter` is the first `u` at which the GJK distance is within `1e-5` of the scale
/// (the shapes' extents plus the relative motion) of touching, so it is at most that gap
/// divided by the closing speed early; `exit` is found the same way from the end of the
/// frame backward, so it is at most as much late: `[enter, exit]` contains every moment of
/// contact. Initial overlap: `enter = 0`, the normal that of least penetration (EPA). Normal
/// otherwise: GJK's closest direction from A toward B at `enter`; point: midway between the
/// closest points. Shapes that are not closing never touch later (the distance is convex in
/// `u`): `None`. A grazing approach that has not converged after 128 steps is reported at
/// the (early) time reached, a conservative answer. NaN or infinite input, and shapes whose
/// support points overflow `f32` (coordinates plus extents beyond `±f32::MAX`): `None`.
///
/// For two spheres, boxes or a sphere and a box the exact sweeps ([`super::sphere_sphere`],
/// [`super::obb_obb`], [`super::sphere_obb`], ...) are faster and exact.
///
/// ```
/// use collide::shapes::{Capsule, Sphere};
/// use collide::{sweep, Vec3};
///
/// let pill = Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.5);
/// let ball = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 0.5);
/// // The ball flies through the capsule: its centre is 1 from the axis at u = 0.4 and 0.6.
/// let s = sweep::convex(&pill, Vec3::ZERO, &ball, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
/// assert!((s.enter - 0.4).abs() < 1e-4 && (s.exit - 0.6).abs() < 1e-4);
/// assert!((s.normal - Vec3::X).length() < 1e-4);
/// ```
#[must_use]
pub fn convex<A, B>(a: &A, motion_a: Vec3, b: &B, motion_b: Vec3) -> Option<Sweep>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let first = first_contact(a, motion_a, b, motion_b)?;
    // The last contact is the first contact of the motion run backward from the frame's end.
    // Contact times form one interval (the distance is convex in `u`), so the backward search
    // meets it at `1 − exit`.
    let back = first_contact(
        &Posed::translated(a, motion_a),
        -motion_a,
        &Posed::translated(b, motion_b),
        -motion_b,
    );
    let exit = back.map_or(first.t, |c| 1.0 - c.t).max(first.t);
    // B approaches A along −(motion_b − motion_a): the A-to-B direction when nothing better.
    let normal = unit_normal(first.normal, motion_a - motion_b, a, b);
    // Representable hits only (module docs): GJK's points are finite for finite input, but a
    // midpoint of points near ±f32::MAX is not checked anywhere else.
    first.point.is_finite().then_some(Sweep {
        enter: first.t,
        exit,
        normal,
        point: first.point,
    })
}

/// `n` when it is a unit vector; otherwise, in order of preference, `n` normalised,
/// `fallback` normalised, the direction from A's interior point to B's, or `+Z`. A contact
/// normal is always unit, also where the geometry cannot decide one: shapes touching at a
/// point far from the origin, where GJK's closest direction underflows to zero, with no
/// relative motion (fuzz target `world`).
pub(crate) fn unit_normal<A, B>(n: Vec3, fallback: Vec3, a: &A, b: &B) -> Vec3
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if n.is_finite() && (n.length_squared() - 1.0).abs() <= 1e-4 {
        return n;
    }
    // In f64 so that tiny and huge vectors normalise without underflow or overflow.
    let unit = |d: DVec3| {
        let len = d.length();
        (len.is_finite() && len > 0.0).then(|| (d / len).as_vec3())
    };
    unit(n.as_dvec3())
        .or_else(|| unit(fallback.as_dvec3()))
        .or_else(|| unit(b.interior_point().as_dvec3() - a.interior_point().as_dvec3()))
        .unwrap_or(Vec3::Z)
}

/// First contact of a conservative advancement: time, unit normal from A toward B (when the
/// geometry decides one; see [`first_contact`]) and a contact point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstContact {
    pub t: f32,
    pub normal: Vec3,
    pub point: Vec3,
}

/// The first `u` in `[0, 1]` at which `a + u·motion_a` and `b + u·motion_b` come within the
/// touching gap, or `None`.
///
/// Conservative advancement: the distance `d(u)` of two convex sets under linear relative
/// motion is convex in `u`, so `d(u + s) >= d(u) + s · d'(u)` with `d'(u) = n · (v_b − v_a)`
/// (`n` the unit closest direction from A to B): stepping `s = d / (−d')` never passes the
/// first contact. Stops when the distance is below the touching gap, when the shapes stop
/// closing (`d' >= 0`: by convexity they never touch later) or past `u = 1`. The normal is
/// GJK's at the time found, EPA's when already overlapping; it may be zero or not unit where
/// the geometry decides none (callers that promise a unit normal repair it). The point is
/// `None`-checked by the caller for representability.
pub(crate) fn first_contact<A, B>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
) -> Option<FirstContact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if !(motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let rel = motion_b - motion_a;
    let scale = (a.support(Vec3::X) - a.support(-Vec3::X)).length()
        + (b.support(Vec3::X) - b.support(-Vec3::X)).length()
        + rel.length();
    if !scale.is_finite() {
        return None;
    }
    let tol = TOUCH * scale.max(1e-6);
    let mut t = 0.0f32;
    let mut cache = GjkCache::default();
    for _ in 0..MAX_STEPS {
        let pa = Posed::translated(a, motion_a * t);
        let pb = Posed::translated(b, motion_b * t);
        let r = gjk::distance_cached(&pa, &pb, &mut cache);
        if !r.distance.is_finite() {
            return None;
        }
        if r.intersecting || r.distance <= tol {
            let normal = if r.intersecting {
                // Touching or overlapping at the current t (only at t = 0 can it be more than
                // touching): the penetration normal.
                contact_cached(&pa, &pb, 0.0, &mut GjkCache::default())
                    .map_or(rel.normalize_or_zero(), |c| c.normal)
            } else {
                r.normal
            };
            return Some(FirstContact {
                t,
                normal,
                point: r.point_a * 0.5 + r.point_b * 0.5,
            });
        }
        let closing = -r.normal.dot(rel);
        if closing.is_nan() || closing <= 0.0 {
            return None;
        }
        t += r.distance / closing;
        if t.is_nan() || t > 1.0 {
            return None;
        }
    }
    // Not converged (grazing approach): report the last, early, time (a conservative answer).
    let pa = Posed::translated(a, motion_a * t);
    let pb = Posed::translated(b, motion_b * t);
    let r = gjk::distance(&pa, &pb);
    Some(FirstContact {
        t,
        normal: r.normal,
        point: r.point_a * 0.5 + r.point_b * 0.5,
    })
}
