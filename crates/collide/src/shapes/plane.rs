use crate::math::{Vec3, DEGENERATE_EPSILON};

/// A plane `{ n, d }`: the points `p` with `n · p + d = 0`, `n` a unit normal.
///
/// This is Gomez's `PLANE` (1999, listing 1): `d = -n · p0` for any point `p0` on the plane,
/// so the signed distance of a point is `n · p + d`, positive on the side `n` points to.
/// A plane built from a zero or non-finite normal has a NaN normal; every query on it returns
/// "no contact".
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Plane {
    /// Unit normal.
    pub normal: Vec3,
    /// Offset: `-normal · p0` for any point `p0` on the plane.
    pub d: f32,
}

impl Plane {
    /// The plane through `point` with the given `normal`, which need not be unit length.
    ///
    /// A zero-length or non-finite normal gives a NaN plane (queries on it return no contact);
    /// use [`Plane::try_from_point_normal`] to catch that.
    #[inline]
    #[must_use]
    pub fn from_point_normal(point: Vec3, normal: Vec3) -> Plane {
        Self::try_from_point_normal(point, normal).unwrap_or(Plane {
            normal: Vec3::NAN,
            d: f32::NAN,
        })
    }

    /// The plane through `point` with the given `normal`; `None` when the normal is zero or
    /// not finite, or the point is not finite.
    #[inline]
    #[must_use]
    pub fn try_from_point_normal(point: Vec3, normal: Vec3) -> Option<Plane> {
        if !point.is_finite() {
            return None;
        }
        // Scale by the largest component first: the squared length of a normal with tiny
        // (subnormal) or huge components underflows or overflows, and `normalize` would
        // return a vector that is not unit length, or NaN.
        let big = normal.abs().max_element();
        if !(big > 0.0 && big.is_finite()) {
            return None;
        }
        let n = (normal / big).try_normalize()?;
        Some(Plane {
            normal: n,
            d: -n.dot(point),
        })
    }

    /// The plane through three points, normal `(b - a) × (c - a)` normalised (counter-clockwise
    /// points see the normal pointing at them).
    ///
    /// `None` when the points are collinear or coincident (the listing normalised a zero vector
    /// here and produced NaN: ERRATA listing 1.3) or not finite. "Collinear" is relative: the
    /// cross product must exceed `DEGENERATE_EPSILON · |b - a| · |c - a|`.
    #[must_use]
    pub fn from_points(a: Vec3, b: Vec3, c: Vec3) -> Option<Plane> {
        let (ab, ac) = (b - a, c - a);
        let n = ab.cross(ac);
        let len = n.length();
        let scale = ab.length() * ac.length();
        if !(len.is_finite() && scale.is_finite())
            || len <= DEGENERATE_EPSILON * scale
            || len == 0.0
        {
            return None;
        }
        Self::try_from_point_normal(a, n / len)
    }

    /// Signed distance from the plane to `p`: positive on the side the normal points to.
    #[inline]
    #[must_use]
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        self.normal.dot(p) + self.d
    }

    /// The point of the plane closest to `p`.
    #[inline]
    #[must_use]
    pub fn project(&self, p: Vec3) -> Vec3 {
        p - self.signed_distance(p) * self.normal
    }

    /// The same plane with the normal reversed (the other side is positive).
    #[inline]
    #[must_use]
    pub fn flipped(&self) -> Plane {
        Plane {
            normal: -self.normal,
            d: -self.d,
        }
    }

    /// `true` when the normal and offset are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.normal.is_finite() && self.d.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn signed_distance_is_gomez_form() {
        // Plane y = 2 with normal +y: D = -2; a point at y = 5 is 3 above.
        let p = Plane::from_point_normal(Vec3::new(7.0, 2.0, -1.0), Vec3::new(0.0, 4.0, 0.0));
        assert_near!(p.normal, Vec3::Y);
        assert_near!(p.d, -2.0);
        assert_near!(p.signed_distance(Vec3::new(1.0, 5.0, 1.0)), 3.0);
        assert_near!(p.signed_distance(Vec3::new(1.0, -1.0, 1.0)), -3.0);
    }

    #[test]
    fn three_points_counter_clockwise_normal() {
        let p = Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
        assert_near!(p.normal, Vec3::Z);
        assert_near!(p.d, 0.0);
    }

    #[test]
    fn erratum_1_3_collinear_points_give_none() {
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_none());
        assert!(Plane::from_points(Vec3::ONE, Vec3::ONE, Vec3::ONE).is_none());
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::new(1e6, 1e-3, 0.0)).is_none());
        assert!(Plane::from_points(Vec3::ZERO, Vec3::X, Vec3::NAN).is_none());
    }

    #[test]
    fn tiny_but_not_collinear_triangle_is_a_plane() {
        let p = Plane::from_points(Vec3::ZERO, Vec3::X * 1e-20, Vec3::Y * 1e-20);
        // Products underflow to zero at this scale; a `None` is the documented answer then.
        if let Some(p) = p {
            assert!(p.normal.is_normalized());
        }
    }

    #[test]
    fn tiny_and_huge_normals_are_normalised_exactly() {
        // A subnormal normal's squared length underflows.
        for n in [
            Vec3::new(1e-40, 1e-40, 0.0),
            Vec3::new(3e38, -3e38, 1.0),
            Vec3::new(-1e-45, 0.0, 0.0),
        ] {
            let p = Plane::try_from_point_normal(Vec3::ONE, n).unwrap();
            assert_near!(p.normal.length(), 1.0, 1e-6);
        }
    }

    #[test]
    fn zero_normal_gives_nan_plane() {
        let p = Plane::from_point_normal(Vec3::ZERO, Vec3::ZERO);
        assert!(!p.is_finite());
        assert!(Plane::try_from_point_normal(Vec3::ZERO, Vec3::ZERO).is_none());
    }
}
