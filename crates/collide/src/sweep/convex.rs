//! Any two convex shapes translating over the frame: a GJK ray cast against their Minkowski
//! difference ([`ray_cast`]), with conservative advancement on GJK distances (Mirtich 1996;
//! van den Bergen 2003 §5.3) where the cast leaves the answer open (touching at the start).

mod ray_cast;

use super::{approaches, Sweep};
use crate::convex::contact::contact_cached;
use crate::convex::{gjk, GjkCache, Posed, SupportMap};
use crate::math::Vec3;
use glam::DVec3;

/// Iterations of one advancement before it stops with the time reached (a grazing approach
/// converges linearly; 128 steps take a gap down by far more than `f32` can resolve unless the
/// approach is grazing to within about 1e-4 of its speed).
const MAX_STEPS: u32 = 128;

/// Gap below which two shapes count as touching, relative to the smaller shape's size (its
/// widest extent along x, y or z): the advancement's target, far below what a game resolves.
const TOUCH: f32 = 1e-5;

/// Gap below which two shapes count as touching, relative to the largest coordinate magnitude
/// involved (support points along ±x, ±y, ±z of both shapes, plus the larger motion): twice
/// GJK's own touching tolerance ([`gjk::TOLERANCE`], a few `f32` ulps of the coordinates), the
/// precision below which the input itself is uncertain. About 17 ulps: a gap of 1 cm at
/// coordinates of 1,000 m (ulp 6e-5) is a gap, not a touch.
const ROUND: f32 = 2.0 * gjk::TOLERANCE;

/// The touching gap of a sweep of `a` and `b` by `motion_a`, `motion_b`: the larger of
/// [`TOUCH`] times the smaller shape's size and [`ROUND`] times the coordinates' magnitude;
/// `None` when a support point or motion is not finite.
///
/// Neither term grows with the other shape: a capsule 1 cm above a floor box 2,000 m wide is
/// 1 cm apart, not touching (a scale made of the sum of both extents called it touching).
fn touch_gap<A, B>(a: &A, motion_a: Vec3, b: &B, motion_b: Vec3) -> Option<f32>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    // A shape's size and coordinate magnitude: from the ball it knows (no scan: a hull's
    // stored ball, a sphere's own), else from its support points along ±x, ±y, ±z. The ball
    // overstates the size by at most √3 (a box's diagonal for its widest extent).
    let measure = |ball: Option<(Vec3, f32)>, s: &dyn Fn(Vec3) -> Vec3| {
        if let Some((c, r)) = ball {
            return (2.0 * r, c.abs().max_element() + r);
        }
        let (mut size, mut mag) = (0.0f32, 0.0f32);
        for d in [Vec3::X, Vec3::Y, Vec3::Z] {
            let (hi, lo) = (s(d), s(-d));
            size = size.max((hi - lo).dot(d));
            mag = mag.max(hi.abs().max_element()).max(lo.abs().max_element());
        }
        (size, mag)
    };
    let (size_a, mag_a) = measure(a.bounding_ball(), &|d| a.support(d));
    let (size_b, mag_b) = measure(b.bounding_ball(), &|d| b.support(d));
    let moved = motion_a
        .abs()
        .max_element()
        .max(motion_b.abs().max_element());
    let tol = (TOUCH * size_a.min(size_b)).max(ROUND * (mag_a.max(mag_b) + moved));
    tol.is_finite().then_some(tol.max(f32::MIN_POSITIVE))
}

/// Convex shapes `a` and `b` (any [`SupportMap`]: hulls, boxes, capsules, spheres, point
/// clouds, posed shapes) translating by `motion_a` and `motion_b` over the frame, their
/// orientation held: the first and last moments of contact.
///
/// `enter` is the first `u` at which the GJK distance is within the touching gap: `1e-5` of
/// the smaller shape's size, or `2e-6` of the largest coordinate magnitude (support points
/// plus motion) when that is more, so that a gap `f32` resolves at those coordinates is not
/// a touch. `enter` is at most that gap divided by the closing speed early; `exit` is found the
/// same way from the end of the frame backward, so it is at most as much late: `[enter, exit]`
/// contains every moment of contact. Touching (within the gap) or overlapping at the start:
/// the normal is GJK's closest direction (touching) or that of least penetration (EPA), and
/// the sweep hits at `enter = 0` only when B moves toward A along it
/// (`v · n < -ALONG_TOLERANCE · |v|`, `v = motion_b - motion_a`); moving away, along the
/// contact (sliding) or not at all: `None` (module docs, "Starting touch"). Normal otherwise:
/// GJK's closest direction from A toward B at `enter`; point: midway between the closest
/// points. Shapes that are not closing never touch later (the distance is convex in `u`):
/// `None`. A grazing approach that has not converged after 128 steps is reported at
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
    let tol = touch_gap(a, motion_a, b, motion_b)?;
    // The last contact is the first contact of the motion run backward from the frame's end.
    // Contact times form one interval (the distance is convex in `u`), so the backward search
    // meets it at `1 − exit`.
    // Without the starting-touch rule: shapes in contact at the end are so at `exit = 1`,
    // whatever the direction of the reversed motion.
    let back = advance(
        &Posed::translated(a, motion_a),
        -motion_a,
        &Posed::translated(b, motion_b),
        -motion_b,
        tol,
        1.0,
    );
    let exit = back.map_or(first.toi, |c| 1.0 - c.toi).max(first.toi);
    // B approaches A along −(motion_b − motion_a): the A-to-B direction when nothing better.
    let normal = unit_normal(first.normal, motion_a - motion_b, a, b);
    // Representable hits only (module docs): GJK's points are finite for finite input, but a
    // midpoint of points near ±f32::MAX is not checked anywhere else.
    first.point.is_finite().then_some(Sweep {
        enter: first.toi,
        exit,
        normal,
        point: first.point,
    })
}

/// `n` when it is a unit vector; otherwise, in order of preference, `n` normalised,
/// `fallback` normalised, the direction from A's interior point to B's, or `+Z`. A contact
/// normal is always unit, also where the geometry cannot decide one: shapes touching at a
/// point far from the origin, where GJK's closest direction underflows to zero, with no
/// relative motion.
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
    pub toi: f32,
    pub normal: Vec3,
    pub point: Vec3,
}

/// The first `u` in `[0, 1]` at which `a + u·motion_a` and `b + u·motion_b` come within the
/// touching gap, with the starting-touch rule (module docs): shapes in contact at `u = 0`
/// give `toi = 0` only when the relative motion approaches along the contact normal, else
/// `None`. A normal the geometry does not decide (zero, see [`advance`]) counts as
/// approaching: the contact is kept. Used per triangle by the mesh casts and by the world's
/// impacts.
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
    first_contact_by(a, motion_a, b, motion_b, 1.0)
}

/// [`first_contact`] looking no later than `limit` (`<= 1`): the same contact when it is at
/// most `limit`, `None` when it is later. A caller that already holds a contact at some time
/// stops the sweep past it instead of running it to the end of the motion.
pub(crate) fn first_contact_by<A, B>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
    limit: f32,
) -> Option<FirstContact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let c = advance(
        a,
        motion_a,
        b,
        motion_b,
        touch_gap(a, motion_a, b, motion_b)?,
        limit,
    )?;
    if c.toi > 0.0 {
        return Some(c);
    }
    let n = c.normal.as_dvec3();
    let v = motion_b.as_dvec3() - motion_a.as_dvec3();
    let decided = n.is_finite() && n.length_squared() > 0.0;
    (!decided || approaches(n.normalize(), v)).then_some(c)
}

/// The first `u` in `[0, 1]` at which `a + u·motion_a` and `b + u·motion_b` come within the
/// touching gap `tol` (from [`touch_gap`] of the forward sweep, also for the backward search of
/// its exit), or `None`; shapes in contact at `u = 0` give `0` whatever their motion.
///
/// The GJK ray cast ([`ray_cast`]) answers when the shapes start apart; otherwise (and when
/// the cast does not converge) [`conservative_advance`]. Neither looks past `limit` (`<= 1`):
/// a contact later than that is `None`.
fn advance<A, B>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
    tol: f32,
    limit: f32,
) -> Option<FirstContact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if !(motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    match ray_cast::first_contact(a, motion_a, b, motion_b, tol, limit) {
        ray_cast::Cast::Hit(c) => Some(c),
        ray_cast::Cast::Miss => None,
        ray_cast::Cast::Undecided => conservative_advance(a, motion_a, b, motion_b, tol, limit),
    }
}

/// [`advance`] by conservative advancement alone: the distance `d(u)` of two convex sets
/// under linear relative motion is convex in `u`, so `d(u + s) >= d(u) + s · d'(u)` with
/// `d'(u) = n · (v_b − v_a)` (`n` the unit closest direction from A to B): stepping
/// `s = d / (−d')` never passes the first contact. Stops when the distance is below the
/// touching gap, when the shapes stop closing (`d' >= 0`: by convexity they never touch
/// later) or past `u = limit`. The normal is
/// GJK's at the time found, EPA's when already overlapping; it may be zero or not unit where
/// the geometry decides none (callers that promise a unit normal repair it). The point is
/// `None`-checked by the caller for representability.
fn conservative_advance<A, B>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
    tol: f32,
    limit: f32,
) -> Option<FirstContact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if !(motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let rel = motion_b - motion_a;
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
                toi: t,
                normal,
                point: r.point_a * 0.5 + r.point_b * 0.5,
            });
        }
        let closing = -r.normal.dot(rel);
        if closing.is_nan() || closing <= 0.0 {
            return None;
        }
        t += r.distance / closing;
        if t.is_nan() || t > limit {
            return None;
        }
    }
    // Not converged (grazing approach): report the last, early, time (a conservative answer).
    let pa = Posed::translated(a, motion_a * t);
    let pb = Posed::translated(b, motion_b * t);
    let r = gjk::distance(&pa, &pb);
    Some(FirstContact {
        toi: t,
        normal: r.normal,
        point: r.point_a * 0.5 + r.point_b * 0.5,
    })
}
