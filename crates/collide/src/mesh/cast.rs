//! Shape casts against a mesh or heightfield: the first time a moving convex shape touches
//! any triangle.

use super::contact::support_box;
use super::TriangleSet;
use crate::convex::SupportMap;
use crate::math::Vec3;
use crate::shapes::{Aabb, Triangle};
use crate::sweep;

/// The first contact of a convex shape moving against a mesh or heightfield.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshShapeHit {
    /// Normalised time of first contact in `[0, 1]` along the motion (`0`: touching or
    /// overlapping at the start).
    pub toi: f32,
    /// A contact point at `toi`.
    pub point: Vec3,
    /// Unit normal at `toi`, from the mesh toward the shape.
    pub normal: Vec3,
    /// The triangle touched first (the smallest index on a tie).
    pub triangle: u32,
}

/// The first triangle a shape moving by `motion` touches: conservative advancement
/// ([`crate::sweep::convex`]) against every triangle whose box touches the box swept by the
/// shape, the earliest kept. The advancement never steps past a contact, so the time is
/// never late. NaN motion or shape: `None`.
pub(crate) fn cast<T, S>(set: &T, shape: &S, motion: Vec3) -> Option<MeshShapeHit>
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    if !motion.is_finite() {
        return None;
    }
    let start = support_box(shape)?;
    let swept = start.union(&Aabb {
        min: start.min + motion,
        max: start.max + motion,
    });
    if !swept.is_finite() {
        return None;
    }
    let mut first: Option<MeshShapeHit> = None;
    set.for_each_near(&swept, &mut |i| {
        let Some(c) = set.corners(i) else {
            return true;
        };
        let tri = Triangle::new(c[0], c[1], c[2]);
        if let Some(f) = sweep::convex::first_contact(&tri, Vec3::ZERO, shape, motion) {
            let better = first.is_none_or(|b| f.t < b.toi || (f.t == b.toi && i < b.triangle));
            if better {
                first = Some(MeshShapeHit {
                    toi: f.t,
                    point: f.point,
                    normal: sweep::convex::unit_normal(f.normal, -motion, &tri, shape),
                    triangle: i,
                });
            }
        }
        true
    });
    first.filter(|h| h.point.is_finite() && h.toi.is_finite())
}
