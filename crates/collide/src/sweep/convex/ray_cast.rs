//! The first contact of two translating convex shapes as a ray cast against their Minkowski
//! difference (GJK ray cast: G. van den Bergen, *Ray casting against general convex objects
//! with application to continuous collision detection*, 2004; *Collision Detection in
//! Interactive 3D Environments*, 2003, §4.3.4).
//!
//! With `C = A − B` (cores) and `rel = motion_b − motion_a`, the moved difference at time `u`
//! is `C − u·rel`, so the shapes come within `d` of each other exactly when the point
//! `x = u·rel` comes within `d` of `C`: a ray from the origin along `rel` against `C`. GJK
//! keeps a simplex of points of `C`, translated by `−x`, and its closest point `v` to the
//! origin (`v = point_a − point_b` at the current `u`). A support point `w` of the
//! translated difference along `−v` bounds every point `y` of it by `v·y >= v·w`; moved on by
//! `δ`, by `v·w − δ·(v·rel)`. While that plane keeps the shapes apart by more than the touching
//! gap, `u` jumps to where it stops doing so for the rounded radii alone: the plane bound
//! never passes a contact, so the time found is never late. Otherwise `w` joins the simplex
//! and `v` shrinks toward the distance. Each step costs one support point per shape, where
//! conservative advancement runs a whole GJK distance per step.

use super::FirstContact;
use crate::convex::gjk::{self, Simplex, Vertex};
use crate::convex::SupportMap;
use crate::math::Vec3;
use glam::DVec3;

/// Support points, across advances and simplex steps, before the cast gives up (a grazing
/// approach converges slowly) and leaves the answer to conservative advancement.
const MAX_SUPPORTS: u32 = 256;

/// Relative round-off of `f64` differences of `f32` support points, with room for the few
/// operations of a simplex step: a plane closer than this to the radii proves nothing.
const ROUND_OFF: f64 = 1e-12;

/// What the ray cast decided.
pub(super) enum Cast {
    /// Within the touching gap first at this contact, `toi > 0`.
    Hit(FirstContact),
    /// Never within the touching gap in `[0, 1]`.
    Miss,
    /// Within the touching gap at the start (the starting-touch rule needs the penetration
    /// normal), a support point or margin not finite, or not converged: conservative
    /// advancement decides.
    Undecided,
}

/// The first `u` in `(0, limit]` (`limit <= 1`) at which `a + u·motion_a` and `b + u·motion_b` touch: no
/// separating plane proves them apart by more than round-off, and GJK's distance there has
/// converged within its relative tolerance (and is within `gap`). The contract of conservative
/// advancement: never late, and early by at most `gap / closing speed` (module docs).
/// `Undecided` when they are within `gap` at `u = 0`.
/// Normal: unit, from A toward B; point: midway between the closest points.
pub(super) fn first_contact<A, B>(
    a: &A,
    motion_a: Vec3,
    b: &B,
    motion_b: Vec3,
    gap: f32,
    limit: f32,
) -> Cast
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let Some((ra, rb)) = gjk::margins(a, b) else {
        return Cast::Undecided;
    };
    let radii = f64::from(ra) + f64::from(rb);
    let rel = motion_b.as_dvec3() - motion_a.as_dvec3();
    let mut u = 0.0f64;
    let mut x = DVec3::ZERO;
    let mut s = Simplex::default();
    // Before the first vertex `v` is only a direction: from B's interior toward A's.
    let mut v = (a.interior_point().as_dvec3() - b.interior_point().as_dvec3())
        .try_normalize()
        .unwrap_or(DVec3::X);
    let mut have_point = false;
    // The last separating direction: the normal when the cast ends inside the difference.
    let mut plane = v;
    let mut scale = 0.0f64;
    let tol = f64::from(gjk::TOLERANCE);
    let gap = f64::from(gap);
    let limit = f64::from(limit);
    // Within the gap with no plane proving more: a hit once moved; at the start, the
    // starting-touch rule, which conservative advancement applies.
    let finish = |s: &Simplex, v: DVec3, plane: DVec3, u: f64| {
        if u > 0.0 && (s.n == 4 || v.length() <= radii + gap) {
            Cast::Hit(contact(s, v, plane, (ra, rb), (motion_a, motion_b), u))
        } else {
            Cast::Undecided
        }
    };
    for _ in 0..MAX_SUPPORTS {
        let d = gjk::to_dir(-v);
        let (pa, pb) = (a.core_support(d), b.core_support(-d));
        if !pa.is_finite() || !pb.is_finite() {
            return Cast::Undecided;
        }
        scale = scale
            .max(f64::from(pa.abs().max_element()))
            .max(f64::from(pb.abs().max_element()));
        // `f64` round-off of the differences: the difference is kept beside `x`, so a long
        // motion costs no precision.
        let eps = ROUND_OFF * scale;
        let mut w = pa.as_dvec3() - pb.as_dvec3() - x;
        let vlen = v.length();
        let vw = v.dot(w);
        // Apart along −v: by more than the gap at the start (closer is the starting-touch
        // rule's case), by more than round-off once moved.
        let apart = if u > 0.0 { radii + eps } else { radii + gap };
        if vw > apart * vlen {
            // Move on to where the plane bound meets the radii, `v·w − δ·(v·rel) = radii·|v|`;
            // not closing along it: never meets.
            let closing = v.dot(rel);
            if closing.is_nan() || closing <= 0.0 {
                return Cast::Miss;
            }
            u += (vw - radii * vlen) / closing;
            if u.is_nan() || u > limit {
                return Cast::Miss;
            }
            x = rel * u;
            plane = v;
            translate(&mut s, x);
            w = pa.as_dvec3() - pb.as_dvec3() - x;
        } else if have_point && vlen * vlen - vw <= tol * vlen * vlen + eps * vlen {
            // Converged (GJK's duality gap): `|v|` is the distance at `u`, and no plane
            // proves it more than the radii.
            return finish(&s, v, plane, u);
        }
        s.v[s.n] = Vertex { w, a: pa, b: pb };
        s.n += 1;
        gjk::reduce(&mut s);
        let closer = s.point();
        if s.n == 4 {
            return finish(&s, closer, plane, u);
        }
        if have_point && closer.length() >= vlen && vw <= apart * vlen {
            // No progress (rounding): the distance is `|v|`.
            return finish(&s, v, plane, u);
        }
        v = closer;
        have_point = true;
    }
    Cast::Undecided
}

/// The simplex's points of `C` moved to the ray's point `x`: `w = a − b − x`.
fn translate(s: &mut Simplex, x: DVec3) {
    for vertex in &mut s.v[..s.n] {
        vertex.w = vertex.a.as_dvec3() - vertex.b.as_dvec3() - x;
    }
}

/// The contact at time `u`: the normal is `−v` (A toward B) unless `v` vanished (the cores
/// overlap: the last separating direction then), the point midway between the cores' closest
/// points moved to `u` and pushed out by the radii.
fn contact(
    s: &Simplex,
    v: DVec3,
    plane: DVec3,
    (ra, rb): (f32, f32),
    (motion_a, motion_b): (Vec3, Vec3),
    u: f64,
) -> FirstContact {
    let along = if s.n < 4 && v.length_squared() > 0.0 {
        -v
    } else {
        -plane
    };
    let normal = gjk::to_dir(along).normalize_or_zero();
    let (ca, cb) = s.witnesses();
    let toi = u as f32;
    let point_a = ca + motion_a * toi + normal * ra;
    let point_b = cb + motion_b * toi - normal * rb;
    FirstContact {
        toi,
        normal,
        point: point_a * 0.5 + point_b * 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{conservative_advance, touch_gap};
    use super::*;
    use crate::convex::{ConvexHull, Posed};
    use crate::shapes::{Capsule, Triangle};
    use collide_testkit::Gen;

    /// One of the shapes the casts meet: a hull of a random cloud, a capsule, a triangle.
    enum Shape {
        Hull(Box<ConvexHull>),
        Capsule(Capsule),
        Triangle(Triangle),
    }

    impl Shape {
        fn random(g: &mut Gen, at: Vec3) -> Shape {
            match g.range(0.0, 3.0) as u32 {
                0 => {
                    let points: Vec<Vec3> = (0..12).map(|_| at + g.vec(0.8)).collect();
                    ConvexHull::try_new(&points).map_or_else(
                        |_| Shape::Triangle(Triangle::new(at, at + Vec3::X, at + Vec3::Y)),
                        |h| Shape::Hull(Box::new(h)),
                    )
                }
                1 => {
                    let axis = g.vec(0.7);
                    Shape::Capsule(Capsule::new(at - axis, at + axis, g.range(0.05, 0.5)))
                }
                _ => Shape::Triangle(Triangle::new(
                    at + g.vec(1.2),
                    at + g.vec(1.2),
                    at + g.vec(1.2),
                )),
            }
        }

        fn support_map(&self) -> &dyn SupportMap {
            match self {
                Shape::Hull(h) => &**h,
                Shape::Capsule(c) => c,
                Shape::Triangle(t) => t,
            }
        }
    }

    /// The GJK ray cast against conservative advancement (a second algorithm) and against
    /// dense sampling of the GJK verdict along the motion, on random hulls, capsules and
    /// triangles: the same hits and misses outside grazing approaches, times that agree
    /// within the touching gap, in contact at the time found and apart at every sample
    /// before it.
    #[test]
    fn agrees_with_conservative_advancement_and_sampling() {
        let mut g = Gen::new(0x9e37_79b9_7f4a_7c15);
        let (mut hits, mut grazing) = (0, 0);
        for case in 0..1500 {
            let a = Shape::random(&mut g, Vec3::ZERO);
            let start = g.vec(1.0).normalize_or(Vec3::X) * g.range(2.5, 4.0);
            let b = Shape::random(&mut g, start);
            let motion = (g.vec(1.2) - start) * g.range(0.5, 1.6);
            let (a, b) = (a.support_map(), b.support_map());
            let Some(gap) = touch_gap(a, Vec3::ZERO, b, motion) else {
                continue;
            };
            let cast = match first_contact(a, Vec3::ZERO, b, motion, gap, 1.0) {
                Cast::Hit(c) => Some(c),
                Cast::Miss => None,
                Cast::Undecided => continue,
            };
            let advanced = conservative_advance(a, Vec3::ZERO, b, motion, gap, 1.0).map(|c| c.toi);
            let moved = |u: f32| Posed::translated(b, motion * u);
            let samples: Vec<f32> = (0..=400).map(|k| k as f32 / 400.0).collect();
            let overlapping = samples.iter().any(|&u| gjk::intersects(a, &moved(u)));
            let closest = samples
                .iter()
                .map(|&u| gjk::distance(a, &moved(u)).distance)
                .fold(f32::INFINITY, f32::min);
            if !overlapping && closest <= 20.0 * gap {
                // Grazing: either answer is within the algorithms' tolerances.
                grazing += 1;
                continue;
            }
            assert_eq!(cast.is_some(), overlapping, "case {case}: {cast:?}");
            assert_eq!(advanced.is_some(), overlapping, "case {case}: {advanced:?}");
            let (Some(c), Some(t_ca)) = (cast, advanced) else {
                continue;
            };
            hits += 1;
            let t = c.toi;
            // Both are within the gap of contact, at most gap / closing speed early.
            let closing = motion.dot(c.normal).abs().max(1e-3);
            assert!(
                (t - t_ca).abs() <= 2.0 * gap / closing + 1e-5,
                "case {case}: ray cast {t}, advancement {t_ca}"
            );
            assert!(
                gjk::distance(a, &moved(t)).distance <= gap * 1.01,
                "case {case}: apart at {t}"
            );
            if let Some(&u) = samples
                .iter()
                .find(|&&u| u < t - 1e-6 && gjk::intersects(a, &moved(u)))
            {
                panic!("case {case}: overlapping at {u}, before {t}");
            }
        }
        assert!(
            hits > 300 && grazing < 150,
            "{hits} hits, {grazing} grazing"
        );
    }
}
