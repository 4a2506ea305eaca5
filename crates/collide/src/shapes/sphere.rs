use crate::math::Vec3;

/// A sphere: every point within `radius` of `center` (the surface included).
///
/// A radius of zero is a point. Negative radii are stored as their absolute value; a NaN
/// centre or radius makes a sphere that no query reports as touching anything.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius, `>= 0` when built with [`Sphere::new`].
    pub radius: f32,
}

impl Sphere {
    /// A sphere of the given centre and radius (its absolute value).
    #[inline]
    #[must_use]
    pub fn new(center: Vec3, radius: f32) -> Sphere {
        Sphere {
            center,
            radius: radius.abs(),
        }
    }

    /// `true` when `p` is inside or on the sphere.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        (p - self.center).length_squared() <= self.radius * self.radius
    }

    /// The sphere moved by `offset`.
    #[inline]
    #[must_use]
    pub fn translated(&self, offset: Vec3) -> Sphere {
        Sphere {
            center: self.center + offset,
            radius: self.radius,
        }
    }

    /// `true` when centre and radius are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.center.is_finite() && self.radius.is_finite()
    }
}
