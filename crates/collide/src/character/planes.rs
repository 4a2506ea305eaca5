//! The planes a sliding character has met during one move, and the motion they still allow.

use crate::math::Vec3;

/// Two normals closer than this (`dot` above it) are the same plane.
const SAME_PLANE: f32 = 0.999;

/// A motion is taken to respect a plane when it enters it by less than this (units of motion).
const ENTER_TOLERANCE: f32 = 1e-6;

/// Up to three contact planes (unit normals pointing toward the character) met during one move.
///
/// Each new plane removes the motion's component into it; a motion that then enters an earlier
/// plane is sent along the crease of the two (their normals' cross product); a third plane
/// stops the motion. A fixed array: no allocation.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Planes {
    normals: [Vec3; 3],
    len: usize,
}

impl Planes {
    /// Forgets every plane.
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds the plane with unit `normal` and returns what is left of `motion`: `motion` minus
    /// its component into every plane met, along a crease when two planes meet it, zero when
    /// three do. A normal already held (within [`SAME_PLANE`]) is not added again.
    pub(super) fn clip(&mut self, normal: Vec3, motion: Vec3) -> Vec3 {
        let held = self.normals[..self.len]
            .iter()
            .any(|&n| n.dot(normal) > SAME_PLANE);
        if !held {
            if self.len == self.normals.len() {
                return Vec3::ZERO;
            }
            self.normals[self.len] = normal;
            self.len += 1;
        }
        let planes = &self.normals[..self.len];
        // One plane at a time: the motion slid along plane i, if that enters none of the others.
        for (i, &n) in planes.iter().enumerate() {
            let slid = slide(motion, n);
            let respects_rest = planes
                .iter()
                .enumerate()
                .all(|(j, &m)| j == i || slid.dot(m) >= -ENTER_TOLERANCE);
            if respects_rest {
                return slid;
            }
        }
        // Two planes: along their crease, the line both contain; its direction is n0 × n1, and
        // the motion's projection on it is d (d · motion). A third plane leaves nowhere to go.
        if let [a, b] = planes {
            let crease = a.cross(*b).normalize_or_zero();
            return crease * crease.dot(motion);
        }
        Vec3::ZERO
    }
}

/// `motion` without its component into the plane of unit `normal` (kept whole when it moves
/// away from the plane or along it): `motion - n (motion · n)` when `motion · n < 0`.
#[must_use]
pub(super) fn slide(motion: Vec3, normal: Vec3) -> Vec3 {
    let into = motion.dot(normal);
    if into < 0.0 {
        motion - normal * into
    } else {
        motion
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_plane_removes_the_component_into_it() {
        let mut planes = Planes::default();
        let left = planes.clip(Vec3::Y, Vec3::new(1.0, -2.0, 0.5));
        assert_eq!(left, Vec3::new(1.0, 0.0, 0.5));
    }

    #[test]
    fn motion_away_from_a_plane_is_kept() {
        let mut planes = Planes::default();
        assert_eq!(
            planes.clip(Vec3::Y, Vec3::new(1.0, 2.0, 0.0)),
            Vec3::new(1.0, 2.0, 0.0)
        );
    }

    #[test]
    fn two_walls_at_a_right_angle_leave_the_crease() {
        // Floor, then a wall facing -x: what is left runs along z.
        let mut planes = Planes::default();
        planes.clip(Vec3::Y, Vec3::new(1.0, -1.0, 1.0));
        let left = planes.clip(Vec3::NEG_X, Vec3::new(1.0, 0.0, 1.0));
        assert!((left - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6, "{left}");
    }

    #[test]
    fn an_inner_corner_sends_the_motion_along_the_crease() {
        // Two walls meeting at 90° (normals -x and -z), both entered by a diagonal motion:
        // sliding along either enters the other, so the motion follows their crease (y).
        let mut planes = Planes::default();
        planes.clip(Vec3::NEG_X, Vec3::new(1.0, 0.5, 1.0));
        let left = planes.clip(Vec3::NEG_Z, Vec3::new(1.0, 0.5, 1.0));
        assert!((left - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-6, "{left}");
    }

    #[test]
    fn three_planes_stop() {
        let mut planes = Planes::default();
        let m = Vec3::new(1.0, -1.0, 1.0);
        planes.clip(Vec3::Y, m);
        planes.clip(Vec3::NEG_X, m);
        assert_eq!(planes.clip(Vec3::NEG_Z, m), Vec3::ZERO);
    }

    #[test]
    fn the_same_plane_twice_is_held_once() {
        let mut planes = Planes::default();
        planes.clip(Vec3::Y, Vec3::NEG_Y);
        planes.clip(Vec3::Y, Vec3::NEG_Y);
        planes.clip(Vec3::NEG_X, Vec3::X);
        // Two planes held: a third distinct one is still accepted, and with three it stops.
        assert_eq!(planes.len, 2);
    }
}
