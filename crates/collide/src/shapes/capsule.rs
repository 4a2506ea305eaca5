use crate::math::Vec3;
use crate::shapes::Segment;

/// A capsule: every point within `radius` of the segment `a`–`b` (a swept sphere).
///
/// `a == b` is a sphere; radius zero is a segment. Negative radii are stored as their absolute
/// value; NaN input gives a capsule no query reports as touching.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule {
    /// Centre of the first cap.
    pub a: Vec3,
    /// Centre of the second cap.
    pub b: Vec3,
    /// Radius, `>= 0` when built with [`Capsule::new`].
    pub radius: f32,
}

impl Capsule {
    /// The capsule around segment `a`–`b` with the given radius (its absolute value).
    #[inline]
    #[must_use]
    pub fn new(a: Vec3, b: Vec3, radius: f32) -> Capsule {
        Capsule {
            a,
            b,
            radius: radius.abs(),
        }
    }

    /// The core segment.
    #[inline]
    #[must_use]
    pub fn segment(&self) -> Segment {
        Segment::new(self.a, self.b)
    }

    /// `true` when both end points and the radius are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.radius.is_finite()
    }
}
