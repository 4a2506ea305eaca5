use crate::math::{Affine3A, Vec3, Vec3A};

/// An axis-aligned bounding box: the points `p` with `min <= p <= max` on every axis.
///
/// Gomez (1999, listing 3) stores the centre and extents; collide stores `min` and `max`,
/// which broad phases and slab tests use directly, and gives the centre and half-extents as
/// accessors. A box with a zero extent is flat (or a segment, or a point) and is a valid box.
/// [`Aabb::EMPTY`] (min = +inf, max = -inf) contains nothing and is the identity of
/// [`Aabb::union`]. A NaN corner makes a box no query reports as touching.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Default for Aabb {
    /// [`Aabb::EMPTY`].
    fn default() -> Self {
        Aabb::EMPTY
    }
}

impl Aabb {
    /// The empty box: contains nothing, overlaps nothing, and `EMPTY.union(b) == b`.
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::INFINITY,
        max: Vec3::NEG_INFINITY,
    };

    /// The box spanned by two corners; the corners may come in any order (each axis is sorted).
    #[inline]
    #[must_use]
    pub fn new(min: Vec3, max: Vec3) -> Aabb {
        Aabb {
            min: min.min(max),
            max: max.max(min),
        }
    }

    /// The box with the given centre and half-extents (their absolute values).
    #[inline]
    #[must_use]
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Aabb {
        let e = half_extents.abs();
        Aabb {
            min: center - e,
            max: center + e,
        }
    }

    /// The smallest box containing every point; `None` for an empty slice or when any point
    /// is not finite.
    #[must_use]
    pub fn from_points(points: &[Vec3]) -> Option<Aabb> {
        let first = *points.first()?;
        let (mut lo, mut hi) = (Vec3A::from(first), Vec3A::from(first));
        for &p in &points[1..] {
            let p = Vec3A::from(p);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let b = Aabb {
            min: lo.into(),
            max: hi.into(),
        };
        (b.min.is_finite() && b.max.is_finite()).then_some(b)
    }

    /// Smallest corner.
    #[inline]
    #[must_use]
    pub fn min(&self) -> Vec3 {
        self.min
    }

    /// Largest corner.
    #[inline]
    #[must_use]
    pub fn max(&self) -> Vec3 {
        self.max
    }

    /// Centre `(min + max) / 2`.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half-extents `(max - min) / 2` (Gomez's `E`); negative on an axis where the box is empty.
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }

    /// Full size `max - min`.
    #[inline]
    #[must_use]
    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }

    /// Volume; zero for a flat box and for an empty one.
    #[inline]
    #[must_use]
    pub fn volume(&self) -> f32 {
        let s = self.size().max(Vec3::ZERO);
        s.x * s.y * s.z
    }

    /// Surface area (the cost measure of BVH building); zero for an empty box.
    #[inline]
    #[must_use]
    pub fn surface_area(&self) -> f32 {
        let s = self.size().max(Vec3::ZERO);
        2.0 * (s.x * s.y + s.y * s.z + s.z * s.x)
    }

    /// `true` when `min <= max` on every axis (a flat box is not empty).
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.min.cmple(self.max).all()
    }

    /// `true` when both corners are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }

    /// The smallest box containing both.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The smallest box containing this one and `p`.
    #[inline]
    #[must_use]
    pub fn including(&self, p: Vec3) -> Aabb {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin).
    #[inline]
    #[must_use]
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - Vec3::splat(margin),
            max: self.max + Vec3::splat(margin),
        }
    }

    /// `true` when `p` is inside or on the boundary.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// `true` when `other` lies entirely inside this box (boundaries may touch). An empty
    /// `other` is contained in every box.
    #[inline]
    #[must_use]
    pub fn contains(&self, other: &Aabb) -> bool {
        other.is_empty() || (self.min.cmple(other.min).all() && other.max.cmple(self.max).all())
    }

    /// The box of this box after an affine transform: centre' = M·c + t, extents' = |M|·e.
    ///
    /// The exact AABB of the moved box, the same box as transforming the 8 corners
    /// (Lander's `RecalcBBox`) at a fraction of the work (Arvo, *Graphics Gems* 1990;
    /// ERRATA Lander 2). An empty box stays empty.
    #[inline]
    #[must_use]
    pub fn transformed(&self, m: &Affine3A) -> Aabb {
        if self.is_empty() {
            return Aabb::EMPTY;
        }
        let c = Vec3A::from(self.center());
        let e = Vec3A::from(self.half_extents());
        let m3 = m.matrix3;
        // |M|·e: each world axis gathers |M_ij| e_j over the box axes j.
        let abs_e = m3.x_axis.abs() * e.x + m3.y_axis.abs() * e.y + m3.z_axis.abs() * e.z;
        let c2 = m.transform_point3a(c);
        Aabb {
            min: (c2 - abs_e).into(),
            max: (c2 + abs_e).into(),
        }
    }

    /// The eight corners, bit `i` of the index choosing max on axis `i`.
    #[must_use]
    pub fn corners(&self) -> [Vec3; 8] {
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;

    #[test]
    fn accessors_and_sorting() {
        let b = Aabb::new(Vec3::new(1.0, -2.0, 3.0), Vec3::new(-1.0, 2.0, 5.0));
        assert_eq!(b.min(), Vec3::new(-1.0, -2.0, 3.0));
        assert_eq!(b.max(), Vec3::new(1.0, 2.0, 5.0));
        assert_eq!(b.center(), Vec3::new(0.0, 0.0, 4.0));
        assert_eq!(b.half_extents(), Vec3::new(1.0, 2.0, 1.0));
        let c = Aabb::from_center_half_extents(Vec3::ONE, Vec3::new(-1.0, 2.0, 0.0));
        assert_eq!(c.min, Vec3::new(0.0, -1.0, 1.0));
        assert!(!c.is_empty(), "a flat box is a box");
    }

    #[test]
    fn from_points_union_contains() {
        assert!(Aabb::from_points(&[]).is_none());
        assert!(Aabb::from_points(&[Vec3::ZERO, Vec3::NAN]).is_none());
        let b = Aabb::from_points(&[Vec3::ZERO, Vec3::new(1.0, -1.0, 2.0)]).unwrap();
        assert!(b.contains_point(Vec3::new(0.5, -0.5, 2.0)));
        assert!(!b.contains_point(Vec3::new(0.5, 0.5, 2.0)));
        let u = Aabb::EMPTY.union(&b);
        assert_eq!(u, b);
        assert!(u.contains(&b) && u.contains(&Aabb::EMPTY));
        assert!(!Aabb::EMPTY.contains(&b));
    }

    #[test]
    fn transformed_equals_eight_corners() {
        let b = Aabb::new(Vec3::new(-1.0, 0.0, 2.0), Vec3::new(3.0, 0.5, 2.5));
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::new(2.0, 0.5, 1.0),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
            Vec3::new(5.0, -3.0, 1.0),
        );
        let corners: Vec<Vec3> = b.corners().iter().map(|&c| m.transform_point3(c)).collect();
        let slow = Aabb::from_points(&corners).unwrap();
        let fast = b.transformed(&m);
        assert_near!(fast.min, slow.min, 1e-5);
        assert_near!(fast.max, slow.max, 1e-5);
        assert_eq!(Aabb::EMPTY.transformed(&m), Aabb::EMPTY);
    }
}
