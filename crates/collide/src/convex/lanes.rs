//! Points laid out four to a group, one `Vec4` per coordinate, for branch-free support scans.
//!
//! A support scan over `[Vec3]` has to gather the x, y and z of four points into lanes before
//! it can compare them four at a time; stored lane by lane, a group is three loads, three
//! products and two selects. A hull keeps its vertices and its face normals this way, for
//! its support scans and for the face most turned toward a direction.

use glam::Vec4;

use crate::math::Vec3;
use crate::shapes::Plane;

/// Groups per block of [`PointLanes::argmax`]'s first step.
const BLOCK: usize = 4;

/// Points `0..len` in groups of four: group `g`, lane `k` holds point `4g + k`. The last group
/// is filled up with copies of the last point, which tie with it and never win (the first of
/// equal values wins).
#[derive(Clone, Debug, Default)]
pub(crate) struct PointLanes {
    groups: Vec<[Vec4; 3]>,
}

impl PointLanes {
    /// `points` in lanes.
    pub(crate) fn new(points: &[Vec3]) -> PointLanes {
        let mut groups = Vec::with_capacity(points.len().div_ceil(4));
        for chunk in points.chunks(4) {
            let at = |k: usize| chunk.get(k).or(chunk.last()).copied().unwrap_or(Vec3::ZERO);
            let (p0, p1, p2, p3) = (at(0), at(1), at(2), at(3));
            groups.push([
                Vec4::new(p0.x, p1.x, p2.x, p3.x),
                Vec4::new(p0.y, p1.y, p2.y, p3.y),
                Vec4::new(p0.z, p1.z, p2.z, p3.z),
            ]);
        }
        PointLanes { groups }
    }

    /// Index of the point farthest along `dir`: the first of ties, 0 for a NaN `dir` or no
    /// points; points whose value is NaN (an overflowing product) never win.
    ///
    /// Two steps. First the largest value, [`BLOCK`] groups (sixteen points) at a time: a
    /// block is only looked at closely when one of its values is above the best so far (one
    /// compare per group, a NaN value is never above anything), and then its largest value
    /// (a NaN never displacing a number) becomes the best and the block is recorded; a later
    /// block that merely ties is not, so the recorded block holds the first point with the
    /// largest value. Then, in that block, the first point whose value equals it. Every
    /// value is `dir · p` summed `x + y + z` as `Vec3::dot` does, in the same operations in
    /// both steps, so the answer is the one-by-one loop's. Keeping each lane's best value and
    /// index instead costs two selects per group, on a chain of dependent instructions.
    #[inline]
    pub(crate) fn argmax(&self, dir: Vec3) -> usize {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let value = |[x, y, z]: &[Vec4; 3]| dx * *x + dy * *y + dz * *z;
        // 1. The largest value and the first block holding it.
        let mut best = f32::NEG_INFINITY;
        let mut best_block = usize::MAX;
        let mut record = |b: usize, block: &[[Vec4; 3]], best: &mut f32| {
            // Lane-wise largest value of the block; `m` starts at −∞ and only takes values
            // above it, so it holds no NaN.
            let mut m = Vec4::NEG_INFINITY;
            for group in block {
                let h = value(group);
                m = Vec4::select(h.cmpgt(m), h, m);
            }
            *best = m.max_element();
            best_block = b;
        };
        let blocks = self.groups.chunks_exact(BLOCK);
        let last = blocks.remainder();
        let mut b = 0;
        for block in blocks {
            let above = Vec4::splat(best);
            let [g0, g1, g2, g3] = block else { break };
            let any = value(g0).cmpgt(above)
                | value(g1).cmpgt(above)
                | value(g2).cmpgt(above)
                | value(g3).cmpgt(above);
            if any.any() {
                record(b, block, &mut best);
            }
            b += 1;
        }
        let above = Vec4::splat(best);
        if last.iter().any(|g| value(g).cmpgt(above).any()) {
            record(b, last, &mut best);
        }
        // 2. The first point of that block with the largest value.
        let first = best_block.saturating_mul(BLOCK);
        let best = Vec4::splat(best);
        for (k, group) in self.groups.iter().enumerate().skip(first).take(BLOCK) {
            let mask = value(group).cmpeq(best).bitmask();
            if mask != 0 {
                return 4 * k + mask.trailing_zeros() as usize;
            }
        }
        0
    }

    /// `true` when `dir · p + d <= bound` for every point `p` with its offset `d` (lane for
    /// lane in `offsets`, padded like the points), each value summed `x + y + z + d` as
    /// `Plane::signed_distance` does; a NaN value fails.
    #[inline]
    fn all_within(&self, offsets: &[Vec4], dir: Vec3, bound: f32) -> bool {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let bound = Vec4::splat(bound);
        self.groups
            .iter()
            .zip(offsets)
            .all(|([x, y, z], d)| (*x * dx + *y * dy + *z * dz + *d).cmple(bound).all())
    }

    /// [`PointLanes::argmax`] one point at a time.
    #[cfg(test)]
    fn argmax_scalar(&self, dir: Vec3) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (g, [x, y, z]) in self.groups.iter().enumerate() {
            for k in 0..4 {
                let h = dir.x * x[k] + dir.y * y[k] + dir.z * z[k];
                if h > best.0 {
                    best = (h, 4 * g + k);
                }
            }
        }
        best.1
    }
}

/// Planes in lanes of four: their unit normals as [`PointLanes`] and their offsets `d` (the
/// plane is `n · x + d = 0`) in the same lanes.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlaneLanes {
    normals: PointLanes,
    offsets: Vec<Vec4>,
}

impl PlaneLanes {
    /// `planes` in lanes.
    pub(crate) fn new(planes: &[Plane]) -> PlaneLanes {
        let normals: Vec<Vec3> = planes.iter().map(|p| p.normal).collect();
        let offsets = planes
            .chunks(4)
            .map(|chunk| {
                let at = |k: usize| chunk.get(k).or(chunk.last()).map_or(0.0, |p| p.d);
                Vec4::new(at(0), at(1), at(2), at(3))
            })
            .collect();
        PlaneLanes {
            normals: PointLanes::new(&normals),
            offsets,
        }
    }

    /// Index of the plane whose normal has the largest dot product with `dir` (the first of
    /// ties; 0 for a NaN `dir` or no planes).
    #[inline]
    pub(crate) fn most_aligned(&self, dir: Vec3) -> usize {
        self.normals.argmax(dir)
    }

    /// `true` when `p` is at signed distance `<= bound` from every plane (inside the
    /// intersection of their half-spaces, grown by `bound`); `false` for a NaN distance.
    #[inline]
    pub(crate) fn all_within(&self, p: Vec3, bound: f32) -> bool {
        self.normals.all_within(&self.offsets, p, bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-by-one loop: the first point with the largest `dir · p`.
    fn scalar(points: &[Vec3], dir: Vec3) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, p) in points.iter().enumerate() {
            let h = p.dot(dir);
            if h > best.0 {
                best = (h, i);
            }
        }
        best.1
    }

    #[test]
    fn argmax_is_the_scalar_loops_answer() {
        // Four lanes, blocks of sixteen points and a padded last group give the first of
        // ties, as the one-by-one loop does: random clouds of every length up to 19 and some
        // spanning several blocks, with repeated points (in one group, across groups and
        // across blocks), and the zero and NaN directions.
        let mut g = collide_testkit::Gen::new(0x5e1);
        for len in (0..20).chain([31, 32, 33, 47, 64, 65, 100]) {
            let mut pts: Vec<Vec3> = (0..len).map(|_| g.vec(1.0)).collect();
            if len > 6 {
                pts[6] = pts[1];
                pts[len - 1] = pts[2];
            }
            if len > 40 {
                pts[40] = pts[3];
                pts[17] = pts[33];
            }
            let lanes = PointLanes::new(&pts);
            let dirs = (0..50).map(|_| g.unit()).chain([Vec3::ZERO, Vec3::NAN]);
            for dir in dirs.chain(pts.iter().copied()) {
                assert_eq!(lanes.argmax(dir), scalar(&pts, dir), "{len} points, {dir}");
                assert_eq!(lanes.argmax_scalar(dir), scalar(&pts, dir));
            }
        }
    }

    #[test]
    fn argmax_skips_nan_values_as_the_scalar_loop_does() {
        // Points at ±f32::MAX give `x + y` = ∞ − ∞ = NaN along (1, 1, 0) and infinite values
        // along the axes; NaN values sit before, among and after the finite ones, in every
        // lane, and the answer is still the first point with the largest number.
        let big = f32::MAX;
        let mut g = collide_testkit::Gen::new(0x7a4);
        for len in [1, 5, 17, 40] {
            for nan_at in 0..len {
                let mut pts: Vec<Vec3> = (0..len).map(|_| g.vec(1.0)).collect();
                pts[nan_at] = Vec3::new(big, -big, 0.0);
                if nan_at + 3 < len {
                    pts[nan_at + 3] = Vec3::new(-big, big, 1.0);
                }
                let lanes = PointLanes::new(&pts);
                for dir in [Vec3::new(1.0, 1.0, 0.0), Vec3::X, Vec3::NEG_Y, g.unit()] {
                    assert_eq!(
                        lanes.argmax(dir),
                        scalar(&pts, dir),
                        "{len}, {nan_at}, {dir}"
                    );
                }
            }
        }
    }

    #[test]
    fn all_within_is_every_planes_test() {
        // The planes of random clouds of 1 to 9 points as normals, random offsets: a point is
        // within when each plane's `signed_distance` is, and a NaN point never is.
        let mut g = collide_testkit::Gen::new(0x91a);
        for len in 1..10 {
            let planes: Vec<Plane> = (0..len)
                .map(|_| Plane {
                    normal: g.unit(),
                    d: g.range(-1.0, 1.0),
                })
                .collect();
            let lanes = PlaneLanes::new(&planes);
            for _ in 0..50 {
                let p = g.vec(2.0);
                let bound = g.range(-0.5, 0.5);
                let want = planes.iter().all(|pl| pl.signed_distance(p) <= bound);
                assert_eq!(lanes.all_within(p, bound), want, "{len} planes, {p}");
            }
            assert!(!lanes.all_within(Vec3::NAN, 1.0));
        }
    }
}
