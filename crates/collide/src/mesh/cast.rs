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
    /// overlapping a triangle at the start and moving deeper into it).
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
/// never late. The starting-touch rule applies per triangle (a triangle touched at the start
/// and not moved into is skipped, so a shape sliding on a floor still meets a wall of the
/// same mesh). NaN motion or shape: `None`.
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
    // Candidates in order of when the shape's box first reaches their box (the slab test of
    // the box centre's path against each triangle box grown by the shape box's half-size):
    // a triangle whose box is reached after the best hit so far cannot be hit earlier.
    let (centre, half) = (start.center(), start.half_extents());
    let inv = motion.recip();
    let mut candidates: Vec<(f32, u32)> = Vec::new();
    set.for_each_near(&swept, &mut |i| {
        if let Some(c) = set.corners(i) {
            let lo = c[0].min(c[1]).min(c[2]) - half;
            let hi = c[0].max(c[1]).max(c[2]) + half;
            if let Some(t) = box_entry(centre, motion, inv, lo, hi) {
                candidates.push((t, i));
            }
        }
        true
    });
    candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut first: Option<MeshShapeHit> = None;
    for (entry, i) in candidates {
        if first.is_some_and(|b| entry > b.toi) {
            break;
        }
        let Some(c) = set.corners(i) else {
            continue;
        };
        let tri = Triangle::new(c[0], c[1], c[2]);
        if let Some(f) = sweep::convex::first_contact(&tri, Vec3::ZERO, shape, motion) {
            let better = first.is_none_or(|b| f.toi < b.toi || (f.toi == b.toi && i < b.triangle));
            if better {
                first = Some(MeshShapeHit {
                    toi: f.toi,
                    point: f.point,
                    normal: sweep::convex::unit_normal(f.normal, -motion, &tri, shape),
                    triangle: i,
                });
            }
        }
    }
    first.filter(|h| h.point.is_finite() && h.toi.is_finite())
}

/// When in `[0, 1]` the point `p + u·d` first lies in the box `[lo, hi]` (slab test; a zero
/// component of `d` keeps the slab when `p` is inside it), widened by a relative `1e-4` so
/// rounding never drops a candidate; `None` when it never does.
fn box_entry(p: Vec3, d: Vec3, inv: Vec3, lo: Vec3, hi: Vec3) -> Option<f32> {
    let (mut near, mut far) = (0.0f32, 1.0f32);
    for k in 0..3 {
        if d[k] == 0.0 {
            if p[k] < lo[k] || p[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((lo[k] - p[k]) * inv[k], (hi[k] - p[k]) * inv[k]);
        near = near.max(t1.min(t2));
        far = far.min(t1.max(t2));
    }
    let slack = 1e-4 * (far.abs() + near.abs() + 1.0);
    (near <= far + slack).then_some((near - slack).max(0.0))
}
