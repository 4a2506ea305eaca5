//! The AABB sweep (Gomez 1999, listing 4), fixed.

use super::{axis_interval, clip_to_frame, make, starting_touch, Sweep};
use crate::math::Vec3;
use crate::shapes::Aabb;
use glam::DVec3;

/// Boxes `a` and `b` moving by `motion_a` and `motion_b`: the first and last moments the boxes
/// overlap on all three axes at once.
///
/// Per axis, in A's frame, B's extent `[b.min + u v, b.max + u v]` (`v = motion_b - motion_a`)
/// overlaps A's on `a.min - b.max <= u v <= a.max - b.min`, an interval of `u`; the boxes touch
/// on the intersection of the three intervals and the frame (Gomez 1999, listing 4). An axis
/// that is separated and does not move relative to A separates the whole frame: no hit
/// (ERRATA listing 4.1); contact that starts after the frame is no hit (ERRATA 4.2).
///
/// Touching or overlapping at the start: normal along the axis of least penetration (out
/// through the nearer face; with both faces equally near, out the side B came from), and a hit
/// at `enter = 0` only when B moves toward A along it (`v · n < -ALONG_TOLERANCE · |v|`);
/// moving away, along the contact or not at all: `None` (module docs, "Starting touch").
/// Otherwise the
/// normal is the axis whose interval starts last, pointing from A toward B. Point: the centre of
/// the intersection of the two boxes at `enter` (the middle of the contact patch when
/// touching). Flat boxes work; an empty box and NaN → `None`.
#[must_use]
pub fn aabb_aabb(a: &Aabb, motion_a: Vec3, b: &Aabb, motion_b: Vec3) -> Option<Sweep> {
    if !(a.is_finite() && b.is_finite() && motion_a.is_finite() && motion_b.is_finite())
        || a.is_empty()
        || b.is_empty()
    {
        return None;
    }
    let (amin, amax) = (a.min.as_dvec3(), a.max.as_dvec3());
    let (bmin, bmax) = (b.min.as_dvec3(), b.max.as_dvec3());
    let (ma, mb) = (motion_a.as_dvec3(), motion_b.as_dvec3());
    let v = mb - ma;
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut axis = usize::MAX;
    for i in 0..3 {
        // a.min - b.max <= u v <= a.max - b.min, as |s0 + w u| <= r about the midpoint.
        let (l, h) = (amin[i] - bmax[i], amax[i] - bmin[i]);
        let (s0, r) = (-(l + h) * 0.5, (h - l) * 0.5);
        let (ul, uh) = axis_interval(s0, v[i], r)?;
        if ul > lo {
            lo = ul;
            axis = i;
        }
        hi = hi.min(uh);
    }
    let (enter, exit) = clip_to_frame(lo, hi)?;
    let mut normal = DVec3::ZERO;
    if lo < 0.0 || axis == usize::MAX {
        // Initial overlap: least penetration; pushing B by +h (or -(-l)) separates it on axis i.
        let mut best = f64::INFINITY;
        let mut k = 0;
        let mut sign = 1.0;
        for i in 0..3 {
            let (l, h) = (amin[i] - bmax[i], amax[i] - bmin[i]);
            // Out through the nearer face; with the two equally near (B centred on A along
            // the axis, or the difference lost to rounding), out the side B came from, as for
            // concentric spheres. Swapping A and B swaps `l` and `-h` and negates `v`, so the
            // normal flips with them.
            let (depth, sg) = if h < -l {
                (h, 1.0)
            } else if -l < h {
                (-l, -1.0)
            } else {
                (h, if v[i] > 0.0 { -1.0 } else { 1.0 })
            };
            if depth < best {
                best = depth;
                k = i;
                sign = sg;
            }
        }
        normal[k] = sign;
    } else {
        // Entering on `axis`: B moving down (v < 0) reaches A's max face from above.
        normal[axis] = if v[axis] < 0.0 { 1.0 } else { -1.0 };
    }
    let lo_corner = (amin + ma * enter).max(bmin + mb * enter);
    let hi_corner = (amax + ma * enter).min(bmax + mb * enter);
    starting_touch(
        make(enter, exit, normal, (lo_corner + hi_corner) * 0.5),
        motion_a,
        motion_b,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn boxes_meet_on_x() {
        // A = [-1,1]³ fixed, B = [9,11]×[-1,1]² moving -10 on x: touches at u = 0.8, leaves at 1.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(10.0, 0.0, 0.0), Vec3::ONE);
        let w = aabb_aabb(&a, Vec3::ZERO, &b, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, 0.8);
        assert_near!(w.exit, 1.0);
        assert_near!(w.normal, Vec3::X);
        assert_near!(w.point, Vec3::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn initial_overlap_least_penetration() {
        // B overlaps A by 0.5 on x and by 2 on y, z: normal +x. Moving deeper (-x): enter 0,
        // still overlapping at the frame's end. Moving out (+x), along the contact (+y) or
        // not at all: no hit (starting-touch rule).
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(1.5, 0.0, 0.0), Vec3::ONE);
        let w = aabb_aabb(&a, Vec3::ZERO, &b, Vec3::new(-1.0, 0.0, 0.0)).unwrap();
        assert_eq!((w.enter, w.exit), (0.0, 1.0));
        assert_near!(w.normal, Vec3::X);
        for m in [Vec3::X, Vec3::Y, Vec3::ZERO] {
            assert!(aabb_aabb(&a, Vec3::ZERO, &b, m).is_none(), "{m}");
        }
    }

    #[test]
    fn edge_grazing_counts() {
        // B slides past A with their faces y = 1 coplanar: touching for an interval.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(-5.0, 2.0, 0.0), Vec3::ONE);
        let w = aabb_aabb(&a, Vec3::ZERO, &b, Vec3::new(10.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, 0.3);
        assert_near!(w.exit, 0.7);
    }
}
