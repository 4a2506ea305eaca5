//! Points laid out four to a group, one `Vec4` per coordinate, for branch-free support scans.
//!
//! A support scan over `[Vec3]` has to gather the x, y and z of four points into lanes before
//! it can compare them four at a time; stored lane by lane, a group is three loads, three
//! products and two selects. A hull keeps its vertices and its face normals this way, for
//! its support scans and for the face most turned toward a direction.

use glam::Vec4;

use crate::math::Vec3;
use crate::shapes::Plane;

/// Points `0..len` in groups of four: group `g`, lane `k` holds point `4g + k`. The last group
/// is filled up with copies of the last point, which tie with it and never win (the first of
/// equal values wins).
#[derive(Clone, Debug, Default)]
pub(crate) struct PointLanes {
    groups: Vec<[Vec4; 3]>,
    len: usize,
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
        PointLanes {
            groups,
            len: points.len(),
        }
    }

    /// Index of the point farthest along `dir`: the first of ties, 0 for a NaN `dir` or no
    /// points.
    ///
    /// Eight lanes, two groups at a time: lane `k` of the first accumulator keeps the best of
    /// points `k, k + 8, k + 16, …`, lane `k` of the second those of `k + 4, k + 12, …` (a
    /// strict `>` keeps the earliest of equal values; two accumulators halve the chain of
    /// compare and select each group waits on). The lanes are then merged by value and, among
    /// equal values, by the lower index. Every value is `dir · p` summed `x + y + z` as
    /// `Vec3::dot` does, so the answer is the one-by-one loop's. Indices ride along as `f32`
    /// lanes, exact below 2²⁴; more points than that take the one-by-one loop over the lanes.
    #[inline]
    pub(crate) fn argmax(&self, dir: Vec3) -> usize {
        if self.len >= 1 << 24 {
            return self.argmax_scalar(dir);
        }
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let value = |[x, y, z]: &[Vec4; 3]| dx * *x + dy * *y + dz * *z;
        let mut best = [Vec4::NEG_INFINITY; 2];
        let mut best_index = [Vec4::ZERO; 2];
        let mut index = Vec4::new(0.0, 1.0, 2.0, 3.0);
        let pairs = self.groups.chunks_exact(2);
        let last = pairs.remainder();
        for pair in pairs {
            for (k, group) in pair.iter().enumerate() {
                let h = value(group);
                let better = h.cmpgt(best[k]);
                best[k] = Vec4::select(better, h, best[k]);
                best_index[k] =
                    Vec4::select(better, index + Vec4::splat(4.0 * k as f32), best_index[k]);
            }
            index += Vec4::splat(8.0);
        }
        if let [group] = last {
            let h = value(group);
            let better = h.cmpgt(best[0]);
            best[0] = Vec4::select(better, h, best[0]);
            best_index[0] = Vec4::select(better, index, best_index[0]);
        }
        let mut merged = (best[0].x, best_index[0].x);
        for (h, i) in best
            .iter()
            .zip(&best_index)
            .flat_map(|(h, i)| (0..4).map(move |k| (h[k], i[k])))
        {
            if h > merged.0 || (h == merged.0 && i < merged.1) {
                merged = (h, i);
            }
        }
        merged.1 as usize
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
        // Four lanes and a padded last group give the first of ties, as the one-by-one loop
        // does: random clouds of every length up to 19, with repeated points, and the zero and
        // NaN directions.
        let mut g = collide_testkit::Gen::new(0x5e1);
        for len in 0..20 {
            let mut pts: Vec<Vec3> = (0..len).map(|_| g.vec(1.0)).collect();
            if len > 6 {
                pts[6] = pts[1];
                pts[len - 1] = pts[2];
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
