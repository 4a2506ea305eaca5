//! Capsule × {capsule, sphere}.

use crate::closest;
use crate::shapes::{Capsule, Sphere};

/// `true` when the capsules touch or overlap: the distance between their core segments is at
/// most `r_a + r_b`.
///
/// The squared segment–segment distance (Ericson RTCD §4.5.1 with §5.1.9's closest points)
/// against `(r_a + r_b)²`. Parallel and zero-length cores (sphere-like capsules) are exact;
/// touching counts; NaN gives `false`.
#[inline]
#[must_use]
pub fn capsule_capsule(a: &Capsule, b: &Capsule) -> bool {
    let d2 = closest::distance_squared_segment_segment(&a.segment(), &b.segment());
    let r = a.radius + b.radius;
    d2 <= r * r
}

/// `true` when the capsule and the sphere touch or overlap: the distance from the sphere's
/// centre to the core segment is at most `r_capsule + r_sphere` (RTCD §4.5.1).
///
/// Touching counts; a zero-length core is a sphere; NaN gives `false`.
#[inline]
#[must_use]
pub fn capsule_sphere(c: &Capsule, s: &Sphere) -> bool {
    let d2 = closest::distance_squared_point_segment(s.center, &c.segment());
    let r = c.radius + s.radius;
    d2 <= r * r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    #[test]
    fn crossing_parallel_and_point_capsules() {
        // Two unit-radius capsules crossing at right angles 2 apart in z: touching.
        let a = Capsule::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0), 1.0);
        let b = |z: f32| Capsule::new(Vec3::new(0.0, -5.0, z), Vec3::new(0.0, 5.0, z), 1.0);
        assert!(capsule_capsule(&a, &b(2.0)));
        assert!(!capsule_capsule(&a, &b(2.01)));
        // Parallel, side by side 1.9 apart: overlapping.
        let c = Capsule::new(Vec3::new(-5.0, 1.9, 0.0), Vec3::new(5.0, 1.9, 0.0), 1.0);
        assert!(capsule_capsule(&a, &c));
        // Zero-length capsule (a sphere) beyond the end cap: 6 - 5 = 1 <= 1 + 0.
        let p = Capsule::new(Vec3::X * 6.0, Vec3::X * 6.0, 0.0);
        assert!(capsule_capsule(&a, &p));
        assert!(!capsule_capsule(
            &a,
            &Capsule::new(Vec3::NAN, Vec3::ZERO, 1.0)
        ));
    }

    #[test]
    fn capsule_sphere_cap_and_side() {
        let c = Capsule::new(Vec3::ZERO, Vec3::Y * 4.0, 0.5);
        // Beside the side: 1.5 from the axis = 0.5 + 1.
        assert!(capsule_sphere(
            &c,
            &Sphere::new(Vec3::new(1.5, 2.0, 0.0), 1.0)
        ));
        assert!(!capsule_sphere(
            &c,
            &Sphere::new(Vec3::new(1.51, 2.0, 0.0), 1.0)
        ));
        // Above the top cap.
        assert!(capsule_sphere(&c, &Sphere::new(Vec3::Y * 5.5, 1.0)));
        assert!(!capsule_sphere(&c, &Sphere::new(Vec3::NAN, 1.0)));
        assert!(super::super::sphere_capsule(
            &Sphere::new(Vec3::Y * 5.5, 1.0),
            &c
        ));
    }
}
