use crate::math::{Mat3, Quat, Vec3};
use crate::shapes::Aabb;

/// An oriented bounding box: a centre, three orthonormal axes and a half-extent along each.
///
/// The points `center + axes · q` with `|q_i| <= half_extents_i` (Gomez 1999, listing 6). The
/// rotation is stored as the matrix whose columns are the box's axes, which is what every
/// query needs. A zero half-extent is a flat box (or a segment, or a point) and is valid.
///
/// [`Obb::new`] normalises its quaternion and takes the absolute value of the half-extents; a
/// zero or non-finite quaternion gives NaN axes, and a box no query reports as touching.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Obb {
    /// Centre.
    pub center: Vec3,
    /// Rotation: columns are the box's unit axes in world space.
    pub axes: Mat3,
    /// Half-extent along each axis, `>= 0` when built with [`Obb::new`].
    pub half_extents: Vec3,
}

impl Obb {
    /// The box of the given centre, rotation (need not be normalised) and half-extents.
    #[inline]
    #[must_use]
    pub fn new(center: Vec3, rotation: Quat, half_extents: Vec3) -> Obb {
        let axes = crate::math::rotation_matrix(rotation);
        Obb {
            center,
            axes,
            half_extents: half_extents.abs(),
        }
    }

    /// The box equal to an AABB (identity rotation).
    #[inline]
    #[must_use]
    pub fn from_aabb(aabb: &Aabb) -> Obb {
        Obb {
            center: aabb.center(),
            axes: Mat3::IDENTITY,
            half_extents: aabb.half_extents().max(Vec3::ZERO),
        }
    }

    /// The box's unit axes as the columns of a matrix.
    #[inline]
    #[must_use]
    pub fn axes(&self) -> Mat3 {
        self.axes
    }

    /// The rotation as a quaternion.
    #[inline]
    #[must_use]
    pub fn rotation(&self) -> Quat {
        Quat::from_mat3(&self.axes)
    }

    /// The smallest AABB containing the box: extent on world axis `x` is
    /// `Σ a_i |A^i_x|` (Gomez 1999, "OBB to AABB conversion").
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let e = self.half_extents;
        let m = self.axes;
        let ext = m.x_axis.abs() * e.x + m.y_axis.abs() * e.y + m.z_axis.abs() * e.z;
        Aabb {
            min: self.center - ext,
            max: self.center + ext,
        }
    }

    /// World point → box space (box centre at the origin, box axes as x, y, z).
    #[inline]
    #[must_use]
    pub fn to_local(&self, p: Vec3) -> Vec3 {
        self.axes.transpose() * (p - self.center)
    }

    /// Box space → world point.
    #[inline]
    #[must_use]
    pub fn to_world(&self, q: Vec3) -> Vec3 {
        self.center + self.axes * q
    }

    /// The eight corners, bit `i` of the index choosing `+` on axis `i`.
    #[must_use]
    pub fn corners(&self) -> [Vec3; 8] {
        let e = self.half_extents;
        std::array::from_fn(|i| {
            self.to_world(Vec3::new(
                if i & 1 == 0 { -e.x } else { e.x },
                if i & 2 == 0 { -e.y } else { e.y },
                if i & 4 == 0 { -e.z } else { e.z },
            ))
        })
    }

    /// Volume `8 e_x e_y e_z`.
    #[inline]
    #[must_use]
    pub fn volume(&self) -> f32 {
        8.0 * self.half_extents.x * self.half_extents.y * self.half_extents.z
    }

    /// `true` when centre, axes and half-extents are finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.center.is_finite() && self.axes.is_finite() && self.half_extents.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn aabb_of_rotated_box_matches_corners() {
        let o = Obb::new(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_euler(glam::EulerRot::ZYX, 0.4, 0.9, -0.2) * 3.0,
            Vec3::new(1.0, 0.5, 2.0),
        );
        assert!(o.axes().is_finite());
        let slow = Aabb::from_points(&o.corners()).unwrap();
        assert_near!(o.aabb().min, slow.min, 1e-5);
        assert_near!(o.aabb().max, slow.max, 1e-5);
    }

    #[test]
    fn zero_quaternion_and_negative_extents() {
        let o = Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), -Vec3::ONE);
        assert!(!o.is_finite());
        assert_eq!(o.half_extents, Vec3::ONE);
    }

    #[test]
    fn tiny_and_huge_quaternions_give_orthonormal_axes() {
        // Scenario: the same rotation scaled by 1e-22 and 1e22 (|q|² under/overflows f32).
        let r = Quat::from_rotation_y(0.7);
        for k in [1e-22f32, 1e22] {
            let o = Obb::new(Vec3::ZERO, r * k, Vec3::ONE);
            let g = o.axes.transpose() * o.axes;
            assert!(g.abs_diff_eq(Mat3::IDENTITY, 1e-6), "scale {k}: {g}");
            assert!(o.axes.abs_diff_eq(Mat3::from_quat(r), 1e-6), "scale {k}");
        }
    }

    #[test]
    fn local_world_round_trip() {
        let o = Obb::new(Vec3::X, Quat::from_rotation_y(0.7), Vec3::ONE);
        let p = Vec3::new(0.3, -2.0, 4.0);
        assert_near!(o.to_world(o.to_local(p)), p);
    }
}
