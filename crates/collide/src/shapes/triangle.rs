use crate::math::Vec3;
use crate::shapes::Plane;

/// A triangle `a`, `b`, `c`, counter-clockwise seen from the side its normal points to.
///
/// Degenerate triangles (collinear or coincident corners) are accepted by every query, which
/// then treats them as the segment or point they are.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Triangle {
    /// First corner.
    pub a: Vec3,
    /// Second corner.
    pub b: Vec3,
    /// Third corner.
    pub c: Vec3,
}

impl Triangle {
    /// The triangle with corners `a`, `b`, `c`.
    #[inline]
    #[must_use]
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Triangle {
        Triangle { a, b, c }
    }

    /// `(b - a) × (c - a)`: twice the area times the unit normal; zero when degenerate.
    #[inline]
    #[must_use]
    pub fn scaled_normal(&self) -> Vec3 {
        (self.b - self.a).cross(self.c - self.a)
    }

    /// The unit normal, or `None` for a degenerate triangle.
    #[inline]
    #[must_use]
    pub fn normal(&self) -> Option<Vec3> {
        self.plane().map(|p| p.normal)
    }

    /// The plane of the triangle, or `None` for a degenerate triangle.
    #[inline]
    #[must_use]
    pub fn plane(&self) -> Option<Plane> {
        Plane::from_points(self.a, self.b, self.c)
    }

    /// Area.
    #[inline]
    #[must_use]
    pub fn area(&self) -> f32 {
        0.5 * self.scaled_normal().length()
    }

    /// Centroid.
    #[inline]
    #[must_use]
    pub fn centroid(&self) -> Vec3 {
        (self.a + self.b + self.c) / 3.0
    }

    /// The corners as an array.
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> [Vec3; 3] {
        [self.a, self.b, self.c]
    }

    /// `true` when all corners are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.c.is_finite()
    }
}
