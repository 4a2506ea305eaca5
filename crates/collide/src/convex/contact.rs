//! Contact of two convex shapes: unit normal, signed depth and a point on each, from GJK on the
//! shapes' cores plus their margins, and EPA when the cores overlap.
//!
//! Rounded shapes (sphere, capsule) are a core (point, segment) swept by a ball
//! ([`SupportMap::margin`]). With `r = r_A + r_B`, the shapes' distance is the cores' distance
//! minus `r`, and when the cores overlap by depth `d` the shapes overlap by `d + r` along the
//! same normal (the support function of a set grown by a ball of radius `r` is `h(n) + r`).
//! So the rounded part is exact, and EPA never runs on a curved surface (the "convex radius" of
//! Jolt and the margins of Bullet; van den Bergen 2003 §4.3.9). Sharp shapes have no margin
//! and are handled by GJK (apart) and EPA (overlapping) directly.
//!
//! # Example
//!
//! ```rust
//! use collide::convex::contact::contact;
//! use collide::shapes::{Capsule, Sphere};
//! use collide::Vec3;
//!
//! // A capsule lying along x, and a ball whose surface is 0.1 above the capsule's.
//! let pill = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.5);
//! let ball = Sphere::new(Vec3::new(0.3, 1.1, 0.0), 0.5);
//! // Apart by 0.1: nothing with margin 0; a speculative contact of depth -0.1 with margin 0.2.
//! assert!(contact(&pill, &ball, 0.0).is_none());
//! let c = contact(&pill, &ball, 0.2).unwrap();
//! assert!((c.depth + 0.1).abs() < 1e-5);
//! assert!((c.normal - Vec3::Y).length() < 1e-5); // from A (pill) toward B (ball)
//! assert!((c.point_a - Vec3::new(0.3, 0.5, 0.0)).length() < 1e-5);
//! ```

use std::cell::Cell;

use super::epa;
use super::gjk::{self, GjkCache, Status};
use super::support::SupportMap;
use crate::math::Vec3;

/// A contact between two convex shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Unit normal from A toward B (`|normal| = 1` to within 1e-6): moving B by
    /// `depth · normal` leaves the shapes touching.
    pub normal: Vec3,
    /// Signed depth: `> 0` penetration, `0` touching, `< 0` apart by `-depth` (only reported
    /// within the query's margin).
    pub depth: f32,
    /// Point of A's surface deepest into B (when apart: A's point closest to B).
    pub point_a: Vec3,
    /// Point of B's surface deepest into A (when apart: B's point closest to A);
    /// `point_a - point_b = depth · normal`.
    pub point_b: Vec3,
}

/// The contact of two convex shapes, or `None` when they are farther apart than `margin`.
///
/// Overlapping: `depth > 0` (EPA, or the cores' distance minus the radii); touching: `depth ≈
/// 0`; apart by `dist <= margin`: `depth = -dist` with the closest points and the unit
/// direction between them. Touching is decided with [`gjk::TOLERANCE`] × scale. A negative
/// margin counts as zero; a NaN margin, NaN or infinite shapes, or an empty point cloud give
/// `None`. Degenerate overlaps (both shapes flat in one plane, collinear segments) give depth 0
/// plus the radii, with the normal documented in [`epa::penetration`]. The normal is unit length
/// in every `Some` answer, and its depth and points are finite: a contact whose points lie
/// beyond `±f32::MAX` (shapes within a factor of about 2 of it) is `None`, as for ray hits.
#[must_use]
pub fn contact<A, B>(a: &A, b: &B, margin: f32) -> Option<Contact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    contact_cached(a, b, margin, &mut GjkCache::default())
}

/// [`contact`] with GJK warm-started from (and updating) a per-pair [`GjkCache`]; same answer.
#[must_use]
pub fn contact_cached<A, B>(a: &A, b: &B, margin: f32, cache: &mut GjkCache) -> Option<Contact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    // Growing a core point by a radius near f32::MAX overflows to an infinite contact point; such a
    // contact is not representable.
    contact_unchecked(a, b, margin, cache).filter(|c| {
        c.normal.is_finite()
            && c.depth.is_finite()
            && c.point_a.is_finite()
            && c.point_b.is_finite()
    })
}

/// [`contact_cached`] before the representability check.
fn contact_unchecked<A, B>(a: &A, b: &B, margin: f32, cache: &mut GjkCache) -> Option<Contact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if margin.is_nan() {
        return None;
    }
    let margin = margin.max(0.0);
    let (ra, rb) = gjk::margins(a, b)?;
    let radii = ra + rb;
    let guess = gjk::initial_guess(a, b, cache);
    // One run of support queries per shape: big hulls walk on from the last support vertex.
    let (start_a, start_b) = (Cell::new(0), Cell::new(0));
    let sa = |d: Vec3| a.core_support_from(d, &start_a);
    let sb = |d: Vec3| b.core_support_from(d, &start_b);
    // GJK on the cores in distance mode: the closest points are needed whenever the cores are
    // apart (the shapes may still overlap through their margins). It exits early once a
    // separating axis proves the shapes farther apart than the margin.
    let cutoff = f64::from(radii) + f64::from(margin);
    let run = gjk::run(sa, sb, guess, cutoff, 0.0);
    match run.status {
        Status::Invalid => None,
        Status::Separated => {
            cache.dir = gjk::to_dir(run.v);
            None
        }
        Status::Apart => {
            cache.dir = gjk::to_dir(run.v);
            let dist = run.v.length();
            // Shapes' gap = cores' gap − radii; reported when within the margin (plus the
            // touching tolerance, so that shapes `intersects` calls touching get a contact).
            let gap = dist - f64::from(radii);
            if gap > f64::from(margin) + f64::from(gjk::TOLERANCE) * run.scale {
                return None;
            }
            let (ca, cb) = run.simplex.witnesses();
            // Unit direction from A's core toward B's: −v/|v| (v = core_a − core_b).
            let n = gjk::to_dir(-run.v).normalize_or_zero();
            if n == Vec3::ZERO {
                return None; // Unreachable: apart means |v| above the touching tolerance.
            }
            let n = n / n.length();
            Some(Contact {
                normal: n,
                depth: -gap as f32,
                point_a: ca + ra * n,
                point_b: cb - rb * n,
            })
        }
        Status::Intersecting => {
            // Cores touch or overlap: EPA on the cores, then grow by the radii.
            let hint = b.interior_point() - a.interior_point();
            let p = epa::expand(sa, sb, &run, hint)?.pen;
            cache.dir = -p.normal;
            let n = p.normal;
            Some(Contact {
                normal: n,
                depth: p.depth + radii,
                point_a: p.point_a + ra * n,
                point_b: p.point_b - rb * n,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;
    use crate::shapes::{Aabb, Capsule, Obb, Sphere};

    #[test]
    fn spheres_exact() {
        // Scenario: unit spheres 1.5 apart overlap by 0.5; 2.2 apart within margin 0.5.
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let b = Sphere::new(Vec3::new(0.0, 1.5, 0.0), 1.0);
        let c = contact(&a, &b, 0.0).unwrap();
        assert_near!(c.depth, 0.5, 1e-6);
        assert_near!(c.normal, Vec3::Y, 1e-6);
        assert_near!(c.point_a, Vec3::Y, 1e-6);
        assert_near!(c.point_b, Vec3::new(0.0, 0.5, 0.0), 1e-6);
        let far = Sphere::new(Vec3::new(0.0, 2.2, 0.0), 1.0);
        assert!(contact(&a, &far, 0.1).is_none());
        let c = contact(&a, &far, 0.5).unwrap();
        assert_near!(c.depth, -0.2, 1e-6);
        // Concentric: any unit normal, depth = sum of radii.
        let c = contact(&a, &Sphere::new(Vec3::ZERO, 0.5), 0.0).unwrap();
        assert_near!(c.depth, 1.5, 1e-6);
        assert_near!(c.normal.length(), 1.0, 1e-6);
    }

    #[test]
    fn crossing_capsules() {
        // Scenario: capsules whose axes cross: depth = r_a + r_b, normal ±z.
        let a = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X, 0.25);
        let b = Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y, 0.5);
        let c = contact(&a, &b, 0.0).unwrap();
        assert_near!(c.depth, 0.75, 1e-6);
        assert_near!(c.normal.z.abs(), 1.0, 1e-6);
    }

    #[test]
    fn sphere_inside_box() {
        // Scenario: sphere centre inside a box, 0.2 below its top face: exit through the top.
        let a = Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.0), Vec3::splat(1.0));
        let s = Sphere::new(Vec3::new(0.1, 0.0, 0.8), 0.5);
        let c = contact(&a, &s, 0.0).unwrap();
        assert_near!(c.normal, Vec3::Z, 1e-6);
        assert_near!(c.depth, 0.7, 1e-6);
        assert_near!(c.point_a, Vec3::new(0.1, 0.0, 1.0), 1e-6);
        assert_near!(c.point_b, Vec3::new(0.1, 0.0, 0.3), 1e-6);
    }

    #[test]
    fn box_box_apart_in_margin() {
        // Scenario: boxes 0.25 apart with margin 0.5 → depth −0.25.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(0.0, 0.0, 2.25), Vec3::ONE);
        let c = contact(&a, &b, 0.5).unwrap();
        assert_near!(c.depth, -0.25, 1e-6);
        assert_near!(c.normal, Vec3::Z, 1e-6);
        assert!(contact(&a, &b, 0.2).is_none());
        assert!(contact(&a, &b, f32::NAN).is_none());
    }
}
