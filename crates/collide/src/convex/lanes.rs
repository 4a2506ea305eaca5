//! Points laid out four to a group, one `Vec4` per coordinate, for branch-free support scans.
//!
//! A support scan over `[Vec3]` has to gather the x, y and z of four points into lanes before
//! it can compare them four at a time; stored lane by lane, a group is three loads, three
//! products and a `max`. A hull keeps its vertices and its face normals this way, for its
//! support scans and for the face most turned toward a direction. On CPUs with AVX (checked
//! at run time) the scans of unclustered sets take two groups at a time, eight lanes.
//!
//! Sets of more than [`CLUSTERED_MIN`] points are stored in clusters of sixteen neighbours (a
//! k-d split of the set), each under a bounding ball, so that a scan skips every cluster whose
//! ball cannot reach past the best value found so far: along any direction most of a hull
//! lies well behind its support point, and a scan reads a cluster or two and one bound per
//! other cluster. Smaller sets keep their order and are scanned whole without a branch on
//! the data, which costs less there than the skips' mispredicted branches.

use glam::{BVec4A, Vec4};

use crate::math::{splat3, Vec3};
use crate::shapes::Plane;

/// Sets of more points than this are clustered.
const CLUSTERED_MIN: usize = 512;

/// Points per cluster, four groups of four lanes.
const CLUSTER: usize = 16;

/// Groups per cluster.
const GROUPS: usize = CLUSTER / 4;

/// Points four lanes to a group: the point in group `g`, lane `k` is the caller's point
/// `index[4g + k]`. Up to [`CLUSTERED_MIN`] points: in their own order, the last group filled
/// up with copies of the last point. More: in clusters of [`CLUSTER`] neighbours, cluster `c`
/// being groups `4c .. 4c + 4`, each in increasing index order, a last cluster of fewer
/// points filled up with copies of its last point (same value, same index).
#[derive(Clone, Debug, Default)]
pub(crate) struct PointLanes {
    groups: Vec<[Vec4; 3]>,
    index: Vec<u32>,
    /// Four clusters' bounding balls per entry: centre x, y, z and the reach `s` (the
    /// radius, grown to cover rounding; see [`PointLanes::argmax`]). Lanes past the last
    /// cluster have a reach of −∞ and never reach anything. Empty for an unclustered set.
    balls: Vec<[Vec4; 4]>,
    /// An unclustered set's groups two at a time for the eight-lane scan ([`pairs_of`]);
    /// empty for a clustered set.
    wide: Vec<[[f32; 8]; 3]>,
}

/// `groups` two at a time, eight lanes per coordinate: pair `k` holds group `2k` in lanes
/// 0–3 and group `2k + 1` in lanes 4–7 (group `2k` again when it is the last), so that the
/// eight-lane scan loads each coordinate of a pair at once.
fn pairs_of(groups: &[[Vec4; 3]]) -> Vec<[[f32; 8]; 3]> {
    groups
        .chunks(2)
        .map(|pair| {
            let (g0, g1) = (&pair[0], pair.get(1).unwrap_or(&pair[0]));
            std::array::from_fn(|axis| {
                let (lo, hi) = (g0[axis].to_array(), g1[axis].to_array());
                std::array::from_fn(|k| if k < 4 { lo[k] } else { hi[k - 4] })
            })
        })
        .collect()
}

impl PointLanes {
    /// `points` in lanes, in clusters of neighbours when there are more than
    /// [`CLUSTERED_MIN`].
    pub(crate) fn new(points: &[Vec3]) -> PointLanes {
        let clustered = points.len() > CLUSTERED_MIN;
        let (order, chunk) = if clustered {
            (cluster_order(points), CLUSTER)
        } else {
            ((0..points.len() as u32).collect(), 4)
        };
        let chunks = order.len().div_ceil(chunk);
        let mut groups = Vec::with_capacity(chunks * chunk / 4);
        let mut index = Vec::with_capacity(chunks * chunk);
        let mut balls = Vec::new();
        if clustered {
            let none = [Vec4::ZERO, Vec4::ZERO, Vec4::ZERO, Vec4::NEG_INFINITY];
            balls = vec![none; chunks.div_ceil(4)];
        }
        for (c, members) in order.chunks(chunk).enumerate() {
            let at = |j: usize| members.get(j).or(members.last()).copied().unwrap_or(0);
            for g in 0..chunk / 4 {
                let ids = [at(4 * g), at(4 * g + 1), at(4 * g + 2), at(4 * g + 3)];
                let p = ids.map(|i| points[i as usize]);
                groups.push([
                    Vec4::new(p[0].x, p[1].x, p[2].x, p[3].x),
                    Vec4::new(p[0].y, p[1].y, p[2].y, p[3].y),
                    Vec4::new(p[0].z, p[1].z, p[2].z, p[3].z),
                ]);
                index.extend(ids);
            }
            if let Some(lanes) = balls.get_mut(c / 4) {
                let (centre, reach) = ball(members.iter().map(|&i| points[i as usize]));
                for (axis, v) in [centre.x, centre.y, centre.z, reach]
                    .into_iter()
                    .enumerate()
                {
                    lanes[axis][c % 4] = v;
                }
            }
        }
        let wide = if clustered {
            Vec::new()
        } else {
            pairs_of(&groups)
        };
        PointLanes {
            groups,
            index,
            balls,
            wide,
        }
    }

    /// The lane order: entry `4g + k` is the index of the point in group `g`, lane `k`.
    pub(crate) fn order(&self) -> &[u32] {
        &self.index
    }

    /// Index of the point farthest along `dir`: the first of ties, 0 for a NaN `dir` or no
    /// points; points whose value is NaN (an overflowing product) never win.
    #[inline]
    pub(crate) fn argmax(&self, dir: Vec3) -> usize {
        if self.balls.is_empty() {
            self.argmax_flat(dir)
        } else {
            self.argmax_clustered(dir)
        }
    }

    /// [`PointLanes::argmax`] of an unclustered set, every group.
    ///
    /// Two passes. The first keeps the largest value lane by lane, in two accumulators (two
    /// groups at a time, halving the chain each group waits on) with `max`, one instruction a
    /// group; on x86 `max(h, m)` is `h > m ? h : m`, so a NaN value leaves the accumulator as
    /// it was and never wins. The second recomputes the values group by group, in order, and
    /// stops at the first lane equal to the largest one: the first of ties. Every value is
    /// `dir · p` summed `x + y + z` as `Vec3::dot` does, the same bits in both passes, so the
    /// answer is the one-by-one loop's. Where `max` lets a NaN through (another instruction
    /// set's semantics) the one-by-one loop answers. With AVX, `avx::argmax_flat` gives the
    /// same answer eight lanes wide (two passes too, the second reading the first's values).
    #[inline]
    fn argmax_flat(&self, dir: Vec3) -> usize {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: `avx::argmax_flat` only needs the CPU to have AVX, checked just above
            // (the check is a cached flag after the first call).
            if let Some(i) = unsafe { avx::argmax_flat(&self.wide, &self.index, dir) } {
                return i;
            }
        }
        self.argmax_four_lanes(dir)
    }

    /// [`PointLanes::argmax_flat`] four lanes wide (see there), on every CPU.
    #[inline]
    fn argmax_four_lanes(&self, dir: Vec3) -> usize {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let value = |[x, y, z]: &[Vec4; 3]| dx * *x + dy * *y + dz * *z;
        let mut top = [Vec4::NEG_INFINITY; 2];
        let pairs = self.groups.chunks_exact(2);
        let last = pairs.remainder();
        for pair in pairs {
            top[0] = value(&pair[0]).max(top[0]);
            top[1] = value(&pair[1]).max(top[1]);
        }
        if let [group] = last {
            top[0] = value(group).max(top[0]);
        }
        let top = top[0].max(top[1]);
        if top.is_nan_mask().any() {
            return self.argmax_one_by_one(dir);
        }
        let top = top.max_element();
        if top == f32::NEG_INFINITY {
            // No number above −∞ (a NaN direction, or no points): the first point.
            return self.index.first().map_or(0, |&i| i as usize);
        }
        let at = Vec4::splat(top);
        for (g, group) in self.groups.iter().enumerate() {
            let mask = value(group).cmpeq(at).bitmask();
            if mask != 0 {
                let lane = 4 * g + mask.trailing_zeros() as usize;
                return self.index.get(lane).map_or(0, |&i| i as usize);
            }
        }
        // Unreachable: `top` is one of the values.
        self.argmax_one_by_one(dir)
    }

    /// [`PointLanes::argmax`] one point at a time, every group: the first point with the
    /// largest value, a NaN value never winning.
    #[cold]
    fn argmax_one_by_one(&self, dir: Vec3) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (g, [x, y, z]) in self.groups.iter().enumerate() {
            for k in 0..4 {
                let h = dir.x * x[k] + dir.y * y[k] + dir.z * z[k];
                if h > best.0 {
                    best = (h, 4 * g + k);
                }
            }
        }
        self.index.get(best.1).map_or(0, |&i| i as usize)
    }

    /// [`PointLanes::argmax`] of a clustered set.
    ///
    /// The cluster whose ball reaches farthest along `dir` is scanned first, then every
    /// other cluster whose ball reaches at least the best value so far; the rest hold only
    /// smaller values and are skipped. A scanned cluster gives its largest value (a NaN never
    /// displacing a number) and the first of its points with that value; the answer is the
    /// largest value and, among clusters tying on it, the smallest index, which is the
    /// one-by-one loop's answer since every value is `dir · p` summed `x + y + z` as
    /// `Vec3::dot` does.
    ///
    /// The skip is exact: a point `p` of a cluster with centre `c` and radius `r` has
    /// `d · p <= d · c + |d| r` (with an upper bound of `|d|`), and its computed value exceeds `d · p` by at most
    /// `3ε |d| |p| <= 3ε |d| (|c| + r)` (ε = 2⁻²⁴); the reach `s = r + 1e-5 (|c| + r)` and an
    /// absolute `1e-37` (for values rounded in the subnormals) cover that and the rounding of
    /// the bound itself many times over, so a skipped cluster's computed values are all below
    /// the computed bound, which is below the best. A NaN or infinite bound skips nothing.
    #[inline]
    fn argmax_clustered(&self, dir: Vec3) -> usize {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        // An upper bound of |d|: the rounded square root of |d|² grown by 1e-6 while |d|² is
        // a normal float, else √3 max |dᵢ| (|d|² under- or overflows there).
        let l2 = dir.length_squared();
        let len = if (1e-30..1e30).contains(&l2) {
            l2.sqrt() * (1.0 + 1e-6)
        } else {
            dir.abs().max_element() * 1.7321
        };
        let len = Vec4::splat(len);
        let bound = |[cx, cy, cz, s]: &[Vec4; 4]| {
            dx * *cx + dy * *cy + dz * *cz + len * *s + Vec4::splat(1e-37)
        };
        // 1. The cluster reaching farthest (the first for a NaN direction).
        let mut first = (f32::NEG_INFINITY, 0usize);
        for (q, balls) in self.balls.iter().enumerate() {
            let b = bound(balls);
            for k in 0..4 {
                if b[k] > first.0 {
                    first = (b[k], 4 * q + k);
                }
            }
        }
        let mut best = (f32::NEG_INFINITY, 0u32);
        self.scan_cluster(first.1, dir, &mut best);
        // 2. Every other cluster that can reach the best value so far.
        for (q, balls) in self.balls.iter().enumerate() {
            let mut reaching = bound(balls).cmplt(Vec4::splat(best.0)).bitmask() ^ 0b1111;
            while reaching != 0 {
                let c = 4 * q + reaching.trailing_zeros() as usize;
                reaching &= reaching - 1;
                if c != first.1 {
                    self.scan_cluster(c, dir, &mut best);
                }
            }
        }
        best.1 as usize
    }

    /// Folds cluster `c`'s largest value along `dir` and its first point with that value into
    /// `best` (value, point index): a larger value replaces it, an equal one with a smaller
    /// index too. Clusters past the last, and clusters with no value above −∞, leave it.
    #[inline]
    fn scan_cluster(&self, c: usize, dir: Vec3, best: &mut (f32, u32)) {
        let Some(groups) = self.groups.get(c * GROUPS..(c + 1) * GROUPS) else {
            return;
        };
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let value = |[x, y, z]: &[Vec4; 3]| dx * *x + dy * *y + dz * *z;
        let h: [Vec4; GROUPS] = std::array::from_fn(|g| value(&groups[g]));
        // Lane-wise largest value; `m` starts at −∞ and only takes values above it, so it
        // holds no NaN.
        let m = h
            .iter()
            .fold(Vec4::NEG_INFINITY, |m, &v| Vec4::select(v.cmpgt(m), v, m));
        let top = m.max_element();
        if top == f32::NEG_INFINITY || top < best.0 {
            return;
        }
        let at = Vec4::splat(top);
        let Some(lane) = h.iter().enumerate().find_map(|(g, v)| {
            let mask = v.cmpeq(at).bitmask();
            (mask != 0).then(|| 4 * g + mask.trailing_zeros() as usize)
        }) else {
            return;
        };
        let i = self.index.get(c * CLUSTER + lane).copied().unwrap_or(0);
        if top > best.0 || i < best.1 {
            *best = (top, i);
        }
    }

    /// `true` when `dir · p + d <= bound` for every point `p` with its offset `d` (lane for
    /// lane in `offsets`, in the lane order and padded like the points), each value summed
    /// `x + y + z + d` as `Plane::signed_distance` does; a NaN value fails.
    #[inline]
    fn all_within(&self, offsets: &[Vec4], dir: Vec3, bound: f32) -> bool {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let bound = Vec4::splat(bound);
        self.groups
            .iter()
            .zip(offsets)
            .all(|([x, y, z], d)| (*x * dx + *y * dy + *z * dz + *d).cmple(bound).all())
    }

    /// [`PointLanes::all_within`] reading every group, the lane tests joined by `and` and
    /// looked at once at the end: no branch per group, for callers whose usual answer is
    /// `true` (which reads every group anyway).
    #[inline]
    fn all_within_every(&self, offsets: &[Vec4], dir: Vec3, bound: f32) -> bool {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let bound = Vec4::splat(bound);
        self.groups
            .iter()
            .zip(offsets)
            .fold(BVec4A::splat(true), |ok, ([x, y, z], d)| {
                ok & (*x * dx + *y * dy + *z * dz + *d).cmple(bound)
            })
            .all()
    }

    /// [`PointLanes::argmax`] one point at a time, every group.
    #[cfg(test)]
    fn argmax_scalar(&self, dir: Vec3) -> usize {
        let mut best = (f32::NEG_INFINITY, 0);
        for (g, [x, y, z]) in self.groups.iter().enumerate() {
            for k in 0..4 {
                let h = dir.x * x[k] + dir.y * y[k] + dir.z * z[k];
                let i = self.index[4 * g + k];
                if h > best.0 || (h == best.0 && h > f32::NEG_INFINITY && i < best.1) {
                    best = (h, i);
                }
            }
        }
        best.1 as usize
    }
}

/// [`PointLanes::argmax_flat`] eight lanes wide, for CPUs with AVX. On the penetrating-hull
/// benchmark (`pen_compare`, 90–135-vertex hulls) it made the GJK verdict, contact and
/// manifold rows 2–6 % faster than the four-lane scan, and keeping the first pass's values
/// for the second 1–4 % more (alternating runs).
#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::{
        __m128, __m256, _mm256_add_ps, _mm256_and_ps, _mm256_castps256_ps128, _mm256_cmp_ps,
        _mm256_extractf128_ps, _mm256_loadu_ps, _mm256_max_ps, _mm256_movemask_ps, _mm256_mul_ps,
        _mm256_set1_ps, _mm256_set_m128, _CMP_EQ_OQ, _CMP_LE_OQ,
    };

    use std::mem::MaybeUninit;

    use glam::Vec4;

    use crate::math::Vec3;

    /// `dir · p` for the eight points of groups `g0` (low lanes) and `g1` (high lanes), summed
    /// `x + y + z` as `Vec3::dot` does: the four-lane scan's values, bit for bit (one rounded
    /// product and sum per lane, no fused multiply-add).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn values(d: [__m256; 3], g0: &[Vec4; 3], g1: &[Vec4; 3]) -> __m256 {
        let x = _mm256_set_m128(__m128::from(g1[0]), __m128::from(g0[0]));
        let y = _mm256_set_m128(__m128::from(g1[1]), __m128::from(g0[1]));
        let z = _mm256_set_m128(__m128::from(g1[2]), __m128::from(g0[2]));
        let xy = _mm256_add_ps(_mm256_mul_ps(d[0], x), _mm256_mul_ps(d[1], y));
        _mm256_add_ps(xy, _mm256_mul_ps(d[2], z))
    }

    /// [`super::PlaneLanes::all_points_within`] eight planes at a time: plane groups `2k` and
    /// `2k + 1` (normals `groups`, offsets `offsets`) in the low and high lanes, loaded once
    /// and tested against every point; each distance is `n · p + d` summed as the four-lane
    /// test sums it (`values`, then `+ d`: the same bits), compared by `<=` (false for NaN,
    /// as `Vec4::cmple`). An odd last group is its own upper half. The points go in runs of
    /// 64, each run's bounds read once; stops after the first pair of groups a point fails.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn all_points_within(
        groups: &[[Vec4; 3]],
        offsets: &[Vec4],
        points: &[Vec3],
        bound: impl Fn(usize) -> f32,
    ) -> bool {
        // The points in runs of `RUN`, each run's bounds gathered once.
        const RUN: usize = 64;
        let mut bounds = [0.0f32; RUN];
        for (r, run) in points.chunks(RUN).enumerate() {
            for (k, b) in bounds.iter_mut().enumerate().take(run.len()) {
                *b = bound(RUN * r + k);
            }
            for (pair, ds) in groups.chunks(2).zip(offsets.chunks(2)) {
                let (g0, d0) = (&pair[0], ds[0]);
                let (g1, d1) = (pair.get(1).unwrap_or(g0), *ds.get(1).unwrap_or(&d0));
                let d = _mm256_set_m128(__m128::from(d1), __m128::from(d0));
                let mut ok = _mm256_set1_ps(0.0);
                ok = _mm256_cmp_ps::<_CMP_EQ_OQ>(ok, ok);
                for (p, &b) in run.iter().zip(&bounds) {
                    let dir = [
                        _mm256_set1_ps(p.x),
                        _mm256_set1_ps(p.y),
                        _mm256_set1_ps(p.z),
                    ];
                    let h = _mm256_add_ps(values(dir, g0, g1), d);
                    ok = _mm256_and_ps(ok, _mm256_cmp_ps::<_CMP_LE_OQ>(h, _mm256_set1_ps(b)));
                }
                if _mm256_movemask_ps(ok) != 0xff {
                    return false;
                }
            }
        }
        true
    }

    /// Most pairs of groups an unclustered set has.
    const PAIRS_MAX: usize = super::CLUSTERED_MIN.div_ceil(8);

    /// [`super::PointLanes::argmax_flat`] of the groups two at a time (`pairs`, see
    /// [`super::pairs_of`]; lane order `index`), the same two passes eight lanes wide: each
    /// coordinate of a pair is one load, the values are summed as `values` sums them (the
    /// four-lane scan's bits), and `_mm256_max_ps(h, m)` is `h > m ? h : m` lane by lane, so a
    /// NaN value never enters the maximum. The first pass keeps every pair's values on the
    /// stack, in two accumulators (even and odd pairs, halving the chain of maxima), and the
    /// second reads the values back and stops at the first position holding the maximum. An
    /// odd last group's copy in the upper half holds the same values at later positions.
    /// `None` for more pairs than an unclustered set has.
    ///
    /// # Safety
    /// The CPU must have AVX. (An `unsafe fn` rather than a safe `#[target_feature]` one,
    /// which needs Rust 1.86: the crate's minimum is 1.85.)
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn argmax_flat(
        pairs: &[[[f32; 8]; 3]],
        index: &[u32],
        dir: Vec3,
    ) -> Option<usize> {
        if pairs.len() > PAIRS_MAX {
            return None;
        }
        let d = [
            _mm256_set1_ps(dir.x),
            _mm256_set1_ps(dir.y),
            _mm256_set1_ps(dir.z),
        ];
        let value = |[x, y, z]: &[[f32; 8]; 3]| {
            // SAFETY: each row is eight `f32`s, read unaligned.
            let (x, y, z) = unsafe {
                (
                    _mm256_loadu_ps(x.as_ptr()),
                    _mm256_loadu_ps(y.as_ptr()),
                    _mm256_loadu_ps(z.as_ptr()),
                )
            };
            let xy = _mm256_add_ps(_mm256_mul_ps(d[0], x), _mm256_mul_ps(d[1], y));
            _mm256_add_ps(xy, _mm256_mul_ps(d[2], z))
        };
        let mut seen = [MaybeUninit::<__m256>::uninit(); PAIRS_MAX];
        let (mut even, mut odd) = (
            _mm256_set1_ps(f32::NEG_INFINITY),
            _mm256_set1_ps(f32::NEG_INFINITY),
        );
        let twos = pairs.chunks_exact(2);
        let last = twos.remainder();
        for (slots, two) in seen.chunks_exact_mut(2).zip(twos) {
            let (h0, h1) = (value(&two[0]), value(&two[1]));
            slots[0].write(h0);
            slots[1].write(h1);
            even = _mm256_max_ps(h0, even);
            odd = _mm256_max_ps(h1, odd);
        }
        if let [pair] = last {
            let h = value(pair);
            seen[pairs.len() - 1].write(h);
            even = _mm256_max_ps(h, even);
        }
        let top = _mm256_max_ps(even, odd);
        let half = _mm256_max_ps(
            _mm256_set_m128(_mm256_castps256_ps128(top), _mm256_castps256_ps128(top)),
            _mm256_set_m128(
                _mm256_extractf128_ps::<1>(top),
                _mm256_extractf128_ps::<1>(top),
            ),
        );
        let top = Vec4::from(_mm256_castps256_ps128(half)).max_element();
        let first = index.first().map_or(0, |&i| i as usize);
        if top == f32::NEG_INFINITY {
            // No number above −∞ (a NaN direction, or no points): the first point.
            return Some(first);
        }
        let at = _mm256_set1_ps(top);
        for (k, slot) in seen.iter().enumerate().take(pairs.len()) {
            // SAFETY: the first pass wrote slots 0..pairs.len(), and this loop reads no other.
            let h = unsafe { slot.assume_init() };
            let mask = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(h, at));
            if mask != 0 {
                let lane = 8 * k + mask.trailing_zeros() as usize;
                return Some(index.get(lane).map_or(0, |&i| i as usize));
            }
        }
        // Unreachable: `top` is one of the values.
        Some(first)
    }
}

/// The points' indices in clusters of neighbours: a k-d split along the longest side of each
/// part's box, at a multiple of [`CLUSTER`] near the middle, so that every cluster but the
/// last has exactly [`CLUSTER`] points; each cluster's indices in increasing order.
///
/// Each split selects on integer keys, the coordinate's bits in `f32::total_cmp` order above
/// the index (so equal coordinates split by index), in one scratch list for the whole order.
fn cluster_order(points: &[Vec3]) -> Vec<u32> {
    fn split(points: &[Vec3], idx: &mut [u32], keys: &mut Vec<u64>) {
        if idx.len() <= CLUSTER {
            idx.sort_unstable();
            return;
        }
        let (lo, hi) = idx.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), &i| (lo.min(points[i as usize]), hi.max(points[i as usize])),
        );
        let side = hi - lo;
        let axis = if side.x >= side.y && side.x >= side.z {
            0
        } else if side.y >= side.z {
            1
        } else {
            2
        };
        // More than one cluster's worth: the cut leaves a whole number of clusters on the
        // left and at least one point on the right.
        let cut = (idx.len() / CLUSTER).div_ceil(2) * CLUSTER;
        keys.clear();
        keys.extend(idx.iter().map(|&i| {
            let p = points[i as usize];
            let x = match axis {
                0 => p.x,
                1 => p.y,
                _ => p.z,
            };
            (u64::from(total_order_bits(x)) << 32) | u64::from(i)
        }));
        keys.select_nth_unstable(cut);
        for (slot, &key) in idx.iter_mut().zip(keys.iter()) {
            // The low half is the index.
            *slot = key as u32;
        }
        let (left, right) = idx.split_at_mut(cut);
        split(points, left, keys);
        split(points, right, keys);
    }
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    let mut keys = Vec::with_capacity(points.len());
    split(points, &mut order, &mut keys);
    order
}

/// The bits of `x` as an unsigned integer ordered as `f32::total_cmp` orders `x`: negative
/// values (sign bit set) have every bit flipped, so larger magnitudes come first; the others
/// get the sign bit set, so they follow all negative values in their own order.
#[inline]
fn total_order_bits(x: f32) -> u32 {
    let b = x.to_bits();
    if b >> 31 == 1 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// A ball around `points` as (centre, reach): the centre of their box, and the largest
/// distance to it grown by `1e-5 (|c| + r)` for rounding ([`PointLanes::argmax`]), in f64.
fn ball(points: impl Iterator<Item = Vec3> + Clone) -> (Vec3, f32) {
    let (lo, hi) = points.clone().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    let centre = ((lo.as_dvec3() + hi.as_dvec3()) * 0.5).as_vec3();
    let c = centre.as_dvec3();
    let r = points.fold(0.0f64, |r, p| r.max((p.as_dvec3() - c).length()));
    let reach = r + 1e-5 * (c.length() + r);
    // Non-finite points (never in a hull) give a NaN or infinite reach, which skips nothing.
    (centre, reach as f32)
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
        if planes.len() <= CLUSTERED_MIN {
            return PlaneLanes::in_order(planes);
        }
        let normals: Vec<Vec3> = planes.iter().map(|p| p.normal).collect();
        let normals = PointLanes::new(&normals);
        let offsets = normals
            .order()
            .chunks_exact(4)
            .map(|ids| {
                let d = |k: usize| planes.get(ids[k] as usize).map_or(0.0, |p| p.d);
                Vec4::new(d(0), d(1), d(2), d(3))
            })
            .collect();
        PlaneLanes { normals, offsets }
    }

    /// [`PlaneLanes::new`] of at most [`CLUSTERED_MIN`] planes, which stay in their order:
    /// the same lanes, filled straight from the planes (no list of normals, no lane order
    /// built first).
    fn in_order(planes: &[Plane]) -> PlaneLanes {
        let chunks = planes.len().div_ceil(4);
        let mut groups = Vec::with_capacity(chunks);
        let mut index = Vec::with_capacity(4 * chunks);
        let mut offsets = Vec::with_capacity(chunks);
        for (c, chunk) in planes.chunks(4).enumerate() {
            // The last group filled up with copies of the last plane, as in `PointLanes::new`.
            let lane = |k: usize| k.min(chunk.len() - 1);
            let p = [0, 1, 2, 3].map(|k| chunk[lane(k)]);
            groups.push([
                Vec4::new(p[0].normal.x, p[1].normal.x, p[2].normal.x, p[3].normal.x),
                Vec4::new(p[0].normal.y, p[1].normal.y, p[2].normal.y, p[3].normal.y),
                Vec4::new(p[0].normal.z, p[1].normal.z, p[2].normal.z, p[3].normal.z),
            ]);
            offsets.push(Vec4::new(p[0].d, p[1].d, p[2].d, p[3].d));
            index.extend([0, 1, 2, 3].map(|k| (4 * c + lane(k)) as u32));
        }
        PlaneLanes {
            normals: PointLanes {
                wide: pairs_of(&groups),
                groups,
                index,
                balls: Vec::new(),
            },
            offsets,
        }
    }

    /// The planes in their own order, four lanes to a group (the normals per axis, and the
    /// offsets), the last group filled up with copies of the last plane; `None` for a
    /// clustered set (more than [`CLUSTERED_MIN`] planes), whose lanes are in another order.
    pub(crate) fn groups_in_order(&self) -> Option<(&[[Vec4; 3]], &[Vec4])> {
        let clustered = !self.normals.balls.is_empty();
        (!clustered).then_some((&self.normals.groups, &self.offsets))
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

    /// [`PlaneLanes::all_within`] without stopping at the first plane too far below: faster
    /// when the answer is usually `true` (the build's containment checks).
    #[inline]
    pub(crate) fn all_within_every(&self, p: Vec3, bound: f32) -> bool {
        self.normals.all_within_every(&self.offsets, p, bound)
    }

    /// `true` when every point `points[i]` is at signed distance `<= bound(i)` from every
    /// plane ([`PlaneLanes::all_within_every`] of each point, the same distances bit for bit);
    /// `false` for a NaN distance. With AVX, eight planes at a time, each pair of plane groups
    /// loaded once for all the points (the answer is one `and` over every point and plane, so
    /// the order does not matter).
    #[inline]
    pub(crate) fn all_points_within(&self, points: &[Vec3], bound: impl Fn(usize) -> f32) -> bool {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: `avx::all_points_within` only needs the CPU to have AVX, checked just
            // above (the check is a cached flag after the first call).
            return unsafe {
                avx::all_points_within(&self.normals.groups, &self.offsets, points, bound)
            };
        }
        points
            .iter()
            .enumerate()
            .all(|(i, &p)| self.all_within_every(p, bound(i)))
    }

    /// `true` when some plane has the three `points`, and the three moved by `shift`, all
    /// farther than `clearance` in front of it (signed distance `> clearance`), for the exact
    /// distances of the given values: each computed distance must pass `clearance` by a bound
    /// on its rounding, `2⁻¹⁸ (s + |d|)` with `s` the sum of the absolute coordinates of the
    /// points and the shift, plus `|clearance|`. `false` when `s` is NaN or at least `1e30`
    /// (no product then overflows).
    ///
    /// Each corner's signed distance `n · p + d` is its three products and three sums, and
    /// the shifted corners' add `n · shift` (three products, three sums): with the unit
    /// roundoff `u = 2⁻²⁴` and `|n| <= 1 + u`, each is within `8u (s + |d|)` of exact, as are
    /// the smallest of three and the sum with `clearance`; `2⁻¹⁸ = 64u` covers them with room.
    #[inline]
    pub(crate) fn some_plane_clears(
        &self,
        points: &[Vec3; 3],
        shift: Vec3,
        clearance: f32,
    ) -> bool {
        const ROUNDING: f32 = 1.0 / (1u32 << 18) as f32;
        let spread = |v: Vec3| v.abs().element_sum();
        // A sum, not the largest: a NaN anywhere makes `s` NaN.
        let s = spread(points[0])
            + spread(points[1])
            + spread(points[2])
            + spread(shift)
            + clearance.abs();
        // A NaN `s` fails too.
        if s.is_nan() || s >= 1e30 {
            return false;
        }
        let [a, b, c, m] = [points[0], points[1], points[2], shift].map(splat3);
        let (s, clearance) = (Vec4::splat(s), Vec4::splat(clearance));
        let dot = |[x, y, z]: &[Vec4; 3], p: &[Vec4; 3]| *x * p[0] + *y * p[1] + *z * p[2];
        self.normals
            .groups
            .iter()
            .zip(&self.offsets)
            .any(|(n, &d)| {
                // The nearest corner's signed distance, at the start and after the shift.
                let nearest = dot(n, &a).min(dot(n, &b)).min(dot(n, &c)) + d;
                let shifted = nearest + dot(n, &m);
                let margin = Vec4::splat(ROUNDING) * (s + d.abs());
                let clear = nearest.min(shifted) - clearance - margin;
                clear.cmpgt(Vec4::ZERO).any()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_points_within_is_every_plane_distance_of_every_point() {
        // Against `Plane::signed_distance` one by one: odd and even group counts (the AVX
        // path pairs groups), clustered sets, each point's own bound, points just inside and
        // just outside one plane, and NaN distances (never within).
        let mut g = collide_testkit::Gen::new(0x52);
        for len in [1, 3, 4, 5, 8, 9, 13, 40, 600] {
            let planes: Vec<Plane> = (0..len)
                .map(|_| Plane {
                    normal: g.unit(),
                    d: g.range(-2.0, -0.5),
                })
                .collect();
            let lanes = PlaneLanes::new(&planes);
            for trial in 0..40 {
                let mut points: Vec<Vec3> = (0..1 + trial % 7)
                    .map(|_| g.unit() * g.range(0.0, 0.6))
                    .collect();
                let bounds: Vec<f32> = (0..points.len()).map(|_| g.range(0.0, 0.1)).collect();
                match trial % 4 {
                    // A point pushed to just past (or onto) one plane's bound.
                    1 | 2 => {
                        let (k, f) = (trial % points.len(), trial % len);
                        let p = planes[f];
                        let step = if trial % 4 == 1 { 1e-3 } else { -1e-3 };
                        let h = p.signed_distance(points[k]);
                        points[k] += p.normal * (bounds[k] - h + step);
                    }
                    3 => {
                        let k = trial % points.len();
                        points[k].y = f32::NAN;
                    }
                    _ => {}
                }
                let want = points
                    .iter()
                    .zip(&bounds)
                    .all(|(&q, &b)| planes.iter().all(|p| p.signed_distance(q) <= b));
                let got = lanes.all_points_within(&points, |i| bounds[i]);
                assert_eq!(got, want, "{len} planes, trial {trial}");
                let four = points
                    .iter()
                    .zip(&bounds)
                    .all(|(&q, &b)| lanes.all_within_every(q, b));
                assert_eq!(four, want, "{len} planes, trial {trial}");
            }
        }
    }

    #[test]
    fn planes_in_order_fill_the_lanes_as_points_do() {
        // The planes' own fill gives the lanes `PointLanes::new` gives their normals, and the
        // offsets in the same lane order, the last group padded alike.
        let mut g = collide_testkit::Gen::new(0x51);
        for len in (0..=21).chain([CLUSTERED_MIN - 1, CLUSTERED_MIN]) {
            let planes: Vec<Plane> = (0..len)
                .map(|_| Plane {
                    normal: g.unit(),
                    d: g.range(-1.0, 1.0),
                })
                .collect();
            let normals: Vec<Vec3> = planes.iter().map(|p| p.normal).collect();
            let want = PointLanes::new(&normals);
            let offsets: Vec<Vec4> = want
                .order()
                .chunks_exact(4)
                .map(|ids| {
                    let d = |k: usize| planes[ids[k] as usize].d;
                    Vec4::new(d(0), d(1), d(2), d(3))
                })
                .collect();
            let got = PlaneLanes::in_order(&planes);
            assert_eq!(got.normals.groups, want.groups, "{len}");
            assert_eq!(got.normals.index, want.index, "{len}");
            assert_eq!(got.normals.wide, want.wide, "{len}");
            assert!(got.normals.balls.is_empty() && want.balls.is_empty());
            assert_eq!(got.offsets, offsets, "{len}");
        }
    }

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
        for len in (0..20).chain([31, 32, 33, 47, 64, 65, 100, 512, 513, 530, 700]) {
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
                if len <= CLUSTERED_MIN {
                    assert_eq!(lanes.argmax_one_by_one(dir), scalar(&pts, dir));
                    assert_eq!(lanes.argmax_four_lanes(dir), scalar(&pts, dir));
                }
            }
        }
    }

    #[test]
    fn argmax_skips_only_clusters_that_cannot_win() {
        // Points on and inside spheres of radius 1e-20, 1 and 1e20 around centres off the
        // origin, with near-ties (a point and a copy nudged by one ulp, repeated points in
        // different clusters), along directions of lengths 1e-30 to 1e30: the clustered scan
        // gives the one-by-one loop's answer every time.
        let mut g = collide_testkit::Gen::new(0xc105);
        for scale in [1e-20f32, 1.0, 1e20] {
            for len in [17, 90, 600, 1500] {
                let centre = g.vec(2.0 * scale);
                let mut pts: Vec<Vec3> = (0..len)
                    .map(|k| {
                        let r = if k % 3 == 0 { g.range(0.0, 1.0) } else { 1.0 };
                        centre + g.unit() * (r * scale)
                    })
                    .collect();
                pts[len - 1] = pts[0];
                pts[len / 2] = pts[1] + Vec3::splat(f32::EPSILON * scale);
                let lanes = PointLanes::new(&pts);
                for dir_len in [1e-30f32, 1e-3, 1.0, 1e30] {
                    for _ in 0..40 {
                        let dir = g.unit() * dir_len;
                        assert_eq!(lanes.argmax(dir), scalar(&pts, dir), "{scale} {len} {dir}");
                    }
                    for p in [pts[0], pts[1], pts[len / 2]] {
                        let dir = (p - centre) * dir_len / scale;
                        assert_eq!(lanes.argmax(dir), scalar(&pts, dir), "{scale} {len} {dir}");
                    }
                }
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
        for len in [1, 5, 17, 40, 520] {
            for nan_at in 0..len {
                let mut pts: Vec<Vec3> = (0..len).map(|_| g.vec(1.0)).collect();
                pts[nan_at] = Vec3::new(big, -big, 0.0);
                if nan_at + 3 < len {
                    pts[nan_at + 3] = Vec3::new(-big, big, 1.0);
                }
                if nan_at + 2 < len {
                    // A NaN coordinate: a NaN value along every direction.
                    pts[nan_at + 2] = Vec3::new(f32::NAN, 0.0, 0.0);
                }
                let lanes = PointLanes::new(&pts);
                for dir in [Vec3::new(1.0, 1.0, 0.0), Vec3::X, Vec3::NEG_Y, g.unit()] {
                    assert_eq!(
                        lanes.argmax(dir),
                        scalar(&pts, dir),
                        "{len}, {nan_at}, {dir}"
                    );
                    if len <= CLUSTERED_MIN {
                        assert_eq!(lanes.argmax_one_by_one(dir), scalar(&pts, dir));
                        assert_eq!(lanes.argmax_four_lanes(dir), scalar(&pts, dir));
                    }
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
                assert_eq!(lanes.all_within_every(p, bound), want, "{len} planes, {p}");
            }
            assert!(!lanes.all_within(Vec3::NAN, 1.0));
            assert!(!lanes.all_within_every(Vec3::NAN, 1.0));
        }
    }

    #[test]
    fn some_plane_clears_only_when_the_exact_distances_do() {
        // Points a clearance in front of a random plane, give or take a few dozen f32
        // roundings of their size, shifted along the plane or by a little across it: whenever
        // the f32 test says some plane clears them, the f64 distances of the same values
        // clear too; most points that clear by more than the bound are found.
        let mut g = collide_testkit::Gen::new(0x5c1);
        let (mut cleared, mut clear_by_far, mut found_by_far) = (0, 0, 0);
        for _ in 0..4000 {
            let planes: Vec<Plane> = (0..g.range(1.0, 12.0) as usize)
                .map(|_| Plane {
                    normal: g.unit(),
                    d: g.range(-3.0, 3.0),
                })
                .collect();
            let lanes = PlaneLanes::new(&planes);
            let pl = planes[g.range(0.0, planes.len() as f32) as usize % planes.len()];
            let n = pl.normal;
            let clearance = g.range(0.0, 0.01);
            let size = 8.0;
            let gap = clearance + size * g.range(-60.0, 60.0) * f32::EPSILON;
            let on = n * -pl.d + n * gap;
            let points = [0, 1, 2].map(|_| on + g.vec(1.0) - n * n.dot(g.vec(1.0)));
            let points = points.map(|p| p + n * n.dot(on - p));
            let shift = g.vec(1.0) - n * (n.dot(g.vec(1.0)) + g.range(-1e-5, 1e-5));
            let exact =
                |p: Vec3, pl: &Plane| p.as_dvec3().dot(pl.normal.as_dvec3()) + f64::from(pl.d);
            let clears = |pl: &Plane| {
                let w = shift.as_dvec3().dot(pl.normal.as_dvec3());
                points.iter().all(|&p| {
                    let s = exact(p, pl);
                    s > f64::from(clearance) && s + w > f64::from(clearance)
                })
            };
            let want = planes.iter().any(clears);
            let got = lanes.some_plane_clears(&points, shift, clearance);
            assert!(!got || want, "{points:?} {shift} {clearance} {planes:?}");
            cleared += usize::from(got);
            let margin = |pl: &Plane| {
                let w = shift.as_dvec3().dot(pl.normal.as_dvec3());
                points
                    .iter()
                    .map(|&p| exact(p, pl).min(exact(p, pl) + w))
                    .fold(f64::INFINITY, f64::min)
                    - f64::from(clearance)
            };
            if planes.iter().any(|pl| margin(pl) > 1e-4) {
                clear_by_far += 1;
                found_by_far += usize::from(got);
            }
        }
        assert!(cleared > 1000, "only {cleared} cleared");
        assert_eq!(found_by_far, clear_by_far, "clear by 1e-4 but not found");
        assert!(!PlaneLanes::new(&[Plane {
            normal: Vec3::Y,
            d: 0.0
        }])
        .some_plane_clears(
            &[Vec3::new(0.0, f32::NAN, 0.0), Vec3::Y, Vec3::Y],
            Vec3::ZERO,
            0.0
        ));
    }

    #[test]
    fn total_order_bits_order_as_total_cmp() {
        // Signed zeros, subnormals, infinities and NaNs of both signs, pairwise.
        let xs = [
            f32::NEG_INFINITY,
            -f32::MAX,
            -1.5,
            -f32::MIN_POSITIVE,
            -1e-45,
            -0.0,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            2.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(
                    total_order_bits(a).cmp(&total_order_bits(b)),
                    a.total_cmp(&b),
                    "{a} {b}"
                );
            }
        }
    }
}
