//! Sphere × {sphere, AABB, OBB, capsule, triangle}.

use crate::closest;
use crate::math::Vec3A;
use crate::shapes::{Aabb, Capsule, Obb, Sphere, Triangle};

/// `true` when the spheres touch or overlap: `|c_b - c_a|² <= (r_a + r_b)²`.
///
/// Squared, so no square root (Gomez 1999). Touching spheres overlap; zero radii are points;
/// NaN gives `false`.
#[inline]
#[must_use]
pub fn sphere_sphere(a: &Sphere, b: &Sphere) -> bool {
    // In f64: in f32 both squares overflow to +inf for coordinates or radii beyond ~1e19, and
    // `inf <= inf` would report spheres 1e20 apart as touching; below
    // ~1e-19 both underflow to 0. f64 squares of any finite f32 are finite and normal
    // (f32::MAX² ≈ 1.2e77, (1.4e-45)² ≈ 2e-90), so the comparison is exact-ish at every scale.
    let d = b.center.as_dvec3() - a.center.as_dvec3();
    let r = f64::from(a.radius) + f64::from(b.radius);
    d.length_squared() <= r * r
}

/// `true` when the sphere touches or overlaps the axis-aligned box.
///
/// Arvo's algorithm (Arvo 1990; Gomez 1999, listing 5): the squared distance from the centre to
/// the box, summed axis by axis from the part of the centre outside each slab, against `r²`.
/// Touching counts; a centre inside the box overlaps; an empty box touches nothing; NaN gives
/// `false`.
#[inline]
#[must_use]
pub fn sphere_aabb(s: &Sphere, b: &Aabb) -> bool {
    let c = Vec3A::from(s.center);
    let (lo, hi) = (Vec3A::from(b.min), Vec3A::from(b.max));
    // Per axis: below = min - c > 0 when the centre is below the slab, above = c - max > 0 when
    // above; inside both are <= 0. For a non-empty box at most one is positive.
    let below = lo - c;
    let above = c - hi;
    let excess = below.max(Vec3A::ZERO) + above.max(Vec3A::ZERO);
    let d2 = excess.length_squared();
    // below + above = min - max: <= 0 exactly for a non-empty box, NaN if any input is NaN
    // (the `max` with zero above would hide a NaN), so this one compare guards both.
    // `&`, not `&&`: both sides are cheap, and a short-circuit compiles to a branch that
    // mispredicts on random input.
    (d2 <= s.radius * s.radius) & (below + above).cmple(Vec3A::ZERO).all()
}

/// `true` when the sphere touches or overlaps the oriented box.
///
/// The centre goes into box space (`q = Aᵀ (c - c_box)`), then Arvo's sum with the box
/// symmetric about the origin: `Σ max(|q_i| - e_i, 0)² <= r²` (Gomez 1999, text under listing
/// 5). Touching counts; NaN gives `false`.
#[inline]
#[must_use]
pub fn sphere_obb(s: &Sphere, b: &Obb) -> bool {
    let m = crate::math::Mat3A::from(b.axes);
    let q = m.transpose() * Vec3A::from(s.center - b.center);
    let w = q.abs() - Vec3A::from(b.half_extents);
    let excess = w.max(Vec3A::ZERO);
    // `max` with zero hides a NaN in `w`; the explicit check restores the NaN rule.
    // `&`, not `&&`: no branch to mispredict (see `sphere_aabb`).
    (excess.length_squared() <= s.radius * s.radius) & !w.is_nan()
}

/// `true` when the sphere touches or overlaps the capsule; the mirror of
/// [`super::capsule_sphere`].
#[inline]
#[must_use]
pub fn sphere_capsule(s: &Sphere, c: &Capsule) -> bool {
    super::capsule_sphere(c, s)
}

/// `true` when the sphere touches or overlaps the (filled, two-sided) triangle.
///
/// The squared distance from the centre to the triangle's closest point (RTCD §5.1.5, §5.2.7)
/// against `r²`. Touching counts; a degenerate triangle is its segment or point; NaN gives
/// `false`.
#[inline]
#[must_use]
pub fn sphere_triangle(s: &Sphere, t: &Triangle) -> bool {
    closest::distance_squared_point_triangle(s.center, t) <= s.radius * s.radius
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    #[test]
    fn sphere_sphere_touching_and_apart() {
        // Radii 1 and 2, centres 3 apart: touching. 3.01 apart: not.
        let a = Sphere::new(Vec3::ZERO, 1.0);
        assert!(sphere_sphere(&a, &Sphere::new(Vec3::Y * 3.0, 2.0)));
        assert!(!sphere_sphere(&a, &Sphere::new(Vec3::Y * 3.01, 2.0)));
        assert!(sphere_sphere(&a, &Sphere::new(Vec3::ZERO, 0.0)));
        assert!(!sphere_sphere(&a, &Sphere::new(Vec3::NAN, 1.0)));
        assert!(!sphere_sphere(&a, &Sphere::new(Vec3::ZERO, f32::NAN)));
    }

    #[test]
    fn listing_5_figure_7_edge_and_corner() {
        // Gomez's figure 7: sphere A nearest an edge (face in 3-D), sphere B nearest a corner.
        let b = Aabb::new(Vec3::ZERO, Vec3::new(4.0, 2.0, 2.0));
        // Beside the +x face, 1 away: radius 1 touches, 0.99 misses.
        assert!(sphere_aabb(&Sphere::new(Vec3::new(5.0, 1.0, 1.0), 1.0), &b));
        assert!(!sphere_aabb(
            &Sphere::new(Vec3::new(5.0, 1.0, 1.0), 0.99),
            &b
        ));
        // Off the (4, 2, 2) corner by (1, 1, 1): distance √3 = 1.732.
        let c = Vec3::new(5.0, 3.0, 3.0);
        assert!(sphere_aabb(&Sphere::new(c, 1.74), &b));
        assert!(!sphere_aabb(&Sphere::new(c, 1.72), &b));
        // Centre inside: overlaps whatever the radius.
        assert!(sphere_aabb(&Sphere::new(Vec3::ONE, 0.0), &b));
        assert!(!sphere_aabb(&Sphere::new(Vec3::NAN, 1.0), &b));
        assert!(!sphere_aabb(&Sphere::new(Vec3::ONE, 1.0), &Aabb::EMPTY));
    }

    #[test]
    fn sphere_obb_in_box_space() {
        // A unit cube turned 45° about z has its corner at (√2, 0, 0); a sphere at (2, 0, 0)
        // reaches it with radius 2 - √2 = 0.586.
        let o = Obb::new(
            Vec3::ZERO,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        assert!(sphere_obb(&Sphere::new(Vec3::X * 2.0, 0.59), &o));
        assert!(!sphere_obb(&Sphere::new(Vec3::X * 2.0, 0.58), &o));
        assert!(!sphere_obb(&Sphere::new(Vec3::NAN, 1.0), &o));
    }

    #[test]
    fn sphere_triangle_face_and_degenerate() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        // 1 above the face: radius 1 touches, 0.99 misses.
        assert!(sphere_triangle(
            &Sphere::new(Vec3::new(0.5, 0.5, 1.0), 1.0),
            &t
        ));
        assert!(!sphere_triangle(
            &Sphere::new(Vec3::new(0.5, 0.5, 1.0), 0.99),
            &t
        ));
        // A collinear triangle is its segment.
        let seg = Triangle::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::X);
        assert!(sphere_triangle(
            &Sphere::new(Vec3::new(1.5, 0.5, 0.0), 0.5),
            &seg
        ));
        assert!(!sphere_triangle(
            &Sphere::new(Vec3::new(1.5, 0.6, 0.0), 0.5),
            &seg
        ));
    }
}
