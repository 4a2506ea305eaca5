use crate::math::Vec3;

/// A ray `origin + t · dir`, `t >= 0`. The direction need not be unit length: `t` is measured
/// in units of `|dir|`, so a ray from a segment's start with `dir = b - a` and `max_t = 1`
/// is that segment. A zero direction is a point, which casts hit only when it starts inside.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ray {
    /// Start point (`t = 0`).
    pub origin: Vec3,
    /// Direction; any length.
    pub dir: Vec3,
}

impl Ray {
    /// The ray from `origin` along `dir` (not normalised).
    #[inline]
    #[must_use]
    pub fn new(origin: Vec3, dir: Vec3) -> Ray {
        Ray { origin, dir }
    }

    /// The point `origin + t · dir`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + t * self.dir
    }

    /// `true` when origin and direction are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.origin.is_finite() && self.dir.is_finite()
    }
}
