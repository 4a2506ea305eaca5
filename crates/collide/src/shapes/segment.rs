use crate::math::Vec3;

/// A line segment from `a` to `b`, both ends included. `a == b` is a point, which every
/// query accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    /// First end point (`u = 0`).
    pub a: Vec3,
    /// Second end point (`u = 1`).
    pub b: Vec3,
}

impl Segment {
    /// The segment from `a` to `b`.
    #[inline]
    #[must_use]
    pub fn new(a: Vec3, b: Vec3) -> Segment {
        Segment { a, b }
    }

    /// Midpoint.
    #[inline]
    #[must_use]
    pub fn midpoint(&self) -> Vec3 {
        (self.a + self.b) * 0.5
    }

    /// `b - a`.
    #[inline]
    #[must_use]
    pub fn delta(&self) -> Vec3 {
        self.b - self.a
    }

    /// Length `|b - a|`.
    #[inline]
    #[must_use]
    pub fn length(&self) -> f32 {
        self.delta().length()
    }

    /// The point `a + u (b - a)`.
    #[inline]
    #[must_use]
    pub fn at(&self, u: f32) -> Vec3 {
        self.a + u * (self.b - self.a)
    }

    /// `true` when both end points are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite()
    }
}
