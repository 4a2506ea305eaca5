//! Plane × {sphere, AABB, OBB, capsule}: does the shape touch the plane itself?
//!
//! The plane is two-sided: a shape entirely on either side does not touch it; a shape the
//! plane passes through, or that touches it, does. (A half-space test is `signed_distance`
//! against the radius, one-sided.) The normal need not be unit: every test compares
//! `|n·c + d|` with a radius that scales with `|n|` the same way.

use crate::math::{Mat3A, Vec3A};
use crate::shapes::{Aabb, Capsule, Obb, Plane, Sphere};

/// `true` when the sphere touches the plane or the plane passes through it: `|n·c + d| <= r`.
///
/// Gomez 1999 (the sphere–plane test inside listing 1, `fabs(d0) <= r`). Compared squared
/// against `r² |n|²` so a non-unit normal gives the exact answer without a square root.
/// Touching counts; a zero radius is a point on the plane or not; NaN gives `false`.
#[inline]
#[must_use]
pub fn plane_sphere(p: &Plane, s: &Sphere) -> bool {
    let d = p.normal.dot(s.center) + p.d;
    d * d <= s.radius * s.radius * p.normal.length_squared()
}

/// `true` when the plane passes through or touches the axis-aligned box:
/// `|n·c + d| <= Σ e_i |n_i|`.
///
/// Gomez 1999, "A box–plane intersection test", with the box axes the world axes. Touching
/// (a face or corner on the plane) counts; a flat box is fine; an empty box touches nothing;
/// NaN gives `false`.
#[inline]
#[must_use]
pub fn plane_aabb(p: &Plane, b: &Aabb) -> bool {
    let (lo, hi) = (Vec3A::from(b.min), Vec3A::from(b.max));
    let (c, e) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
    let n = Vec3A::from(p.normal);
    let d = n.dot(c) + p.d;
    // Projection radius of the box on n. An empty box has some e_i < 0: rejected.
    let r = e.dot(n.abs());
    // `&`, not `&&`: no branch to mispredict on random input.
    (d.abs() <= r) & e.cmpge(Vec3A::ZERO).all()
}

/// `true` when the plane passes through or touches the oriented box:
/// `|d| <= Σ a_i |n·A_i|` with `d` the centre's signed distance.
///
/// Gomez 1999, "A box–plane intersection test" (figure 11: the normal as the only candidate
/// separating axis). Touching counts; NaN gives `false`.
#[inline]
#[must_use]
pub fn plane_obb(p: &Plane, b: &Obb) -> bool {
    let n = Vec3A::from(p.normal);
    let d = n.dot(Vec3A::from(b.center)) + p.d;
    // n·A_i for the three axes at once: Aᵀ n.
    let na = Mat3A::from(b.axes).transpose() * n;
    let r = Vec3A::from(b.half_extents).dot(na.abs());
    d.abs() <= r
}

/// `true` when the capsule touches the plane or the plane passes through it.
///
/// The core segment's signed distances `d_a`, `d_b` span the interval `[min, max]`; the
/// capsule touches the plane when that interval, grown by `r |n|`, contains zero. Touching
/// counts; NaN gives `false`.
#[inline]
#[must_use]
pub fn plane_capsule(p: &Plane, c: &Capsule) -> bool {
    let da = p.normal.dot(c.a) + p.d;
    let db = p.normal.dot(c.b) + p.d;
    let r = c.radius * p.normal.length();
    // Interval [min, max] of the segment meets [-r, r]: min <= r and max >= -r. Written with
    // both orders so that a NaN in either distance makes a comparison false.
    (da <= r || db <= r) && (da >= -r || db >= -r) && !da.is_nan() && !db.is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    fn ground() -> Plane {
        Plane::from_point_normal(Vec3::ZERO, Vec3::Y)
    }

    #[test]
    fn plane_sphere_two_sided() {
        // Centre 1 above or below the plane y = 0: radius 1 touches from either side.
        assert!(plane_sphere(&ground(), &Sphere::new(Vec3::Y, 1.0)));
        assert!(plane_sphere(&ground(), &Sphere::new(-Vec3::Y, 1.0)));
        assert!(!plane_sphere(&ground(), &Sphere::new(Vec3::Y * 1.01, 1.0)));
        // A non-unit normal written into the fields: same answer.
        let long = Plane {
            normal: Vec3::Y * 3.0,
            d: 0.0,
        };
        assert!(plane_sphere(&long, &Sphere::new(Vec3::Y, 1.0)));
        assert!(!plane_sphere(&long, &Sphere::new(Vec3::Y * 1.01, 1.0)));
    }

    #[test]
    fn box_plane_gomez_figure_11() {
        // A unit cube turned 45° about z has projection radius √2 on y: centre at y = 1.4
        // touches through its lower edge, at 1.42 it floats.
        let rot = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        assert!(plane_obb(
            &ground(),
            &Obb::new(Vec3::Y * 1.4, rot, Vec3::ONE)
        ));
        assert!(!plane_obb(
            &ground(),
            &Obb::new(Vec3::Y * 1.42, rot, Vec3::ONE)
        ));
        assert!(!plane_obb(
            &ground(),
            &Obb::new(-Vec3::Y * 1.42, rot, Vec3::ONE)
        ));
        // Axis-aligned box resting on the plane: touching.
        assert!(plane_aabb(&ground(), &Aabb::new(Vec3::ZERO, Vec3::ONE)));
        assert!(!plane_aabb(
            &ground(),
            &Aabb::new(Vec3::Y * 0.01, Vec3::ONE)
        ));
        assert!(!plane_aabb(&ground(), &Aabb::EMPTY));
    }

    #[test]
    fn plane_capsule_lying_and_standing() {
        // Standing on the plane: its lower cap touches.
        assert!(plane_capsule(
            &ground(),
            &Capsule::new(Vec3::Y, Vec3::Y * 3.0, 1.0)
        ));
        assert!(!plane_capsule(
            &ground(),
            &Capsule::new(Vec3::Y * 1.1, Vec3::Y * 3.0, 1.0)
        ));
        // Crossing the plane with radius 0.
        assert!(plane_capsule(
            &ground(),
            &Capsule::new(-Vec3::Y, Vec3::Y, 0.0)
        ));
        assert!(!plane_capsule(
            &ground(),
            &Capsule::new(Vec3::NAN, Vec3::Y, 5.0)
        ));
        assert!(!plane_capsule(
            &Plane {
                normal: Vec3::NAN,
                d: 0.0
            },
            &Capsule::new(Vec3::ZERO, Vec3::Y, 5.0)
        ));
    }
}
