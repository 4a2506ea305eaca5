use super::lanes::{self, for_each_bit, lane, set_lane, soa_container, Lanes};
use super::{LANES, SLAB_WIDEN};
use crate::math::{splat3, Vec3};
use crate::raycast::RayInv;
use crate::shapes::Aabb;
use glam::{BVec4A, Vec4};

/// Eight boxes, two glam `Vec4`s (SSE registers on x86-64, NEON on aarch64) per coordinate.
///
/// glam's `Vec4` compares four lanes in one instruction and `BVec4A::bitmask` is `movmskps`,
/// which gives packed code without `unsafe`; the plain `[f32; 8]` loop it replaced was
/// vectorised by LLVM's SLP pass across the wrong dimension (transposing lanes), at a fifth
/// of the speed.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Chunk {
    min_x: [Vec4; 2],
    min_y: [Vec4; 2],
    min_z: [Vec4; 2],
    max_x: [Vec4; 2],
    max_y: [Vec4; 2],
    max_z: [Vec4; 2],
}

/// A query box splatted across four lanes per coordinate, built once per query.
#[derive(Clone, Copy)]
struct Splat {
    min: [Vec4; 3],
    max: [Vec4; 3],
}

impl Splat {
    /// The splatted query; an empty query box (`min > max` on an axis, or NaN) becomes all
    /// NaN, which no lane overlaps, as `overlap::aabb_aabb` says of an empty box.
    #[inline(always)]
    fn new(q: &Aabb) -> Splat {
        if !q.min.cmple(q.max).all() {
            return Splat {
                min: [Vec4::NAN; 3],
                max: [Vec4::NAN; 3],
            };
        }
        Splat {
            min: splat3(q.min),
            max: splat3(q.max),
        }
    }
}

impl lanes::Chunk for Chunk {
    type Item = Aabb;

    const PADDING: Chunk = Chunk {
        min_x: [Vec4::NAN; 2],
        min_y: [Vec4::NAN; 2],
        min_z: [Vec4::NAN; 2],
        max_x: [Vec4::NAN; 2],
        max_y: [Vec4::NAN; 2],
        max_z: [Vec4::NAN; 2],
    };

    #[inline(always)]
    fn set(&mut self, l: usize, b: &Aabb) {
        set_lane(&mut self.min_x, l, b.min.x);
        set_lane(&mut self.min_y, l, b.min.y);
        set_lane(&mut self.min_z, l, b.min.z);
        set_lane(&mut self.max_x, l, b.max.x);
        set_lane(&mut self.max_y, l, b.max.y);
        set_lane(&mut self.max_z, l, b.max.z);
    }

    #[inline(always)]
    fn get(&self, l: usize) -> Aabb {
        Aabb {
            min: Vec3::new(
                lane(&self.min_x, l),
                lane(&self.min_y, l),
                lane(&self.min_z, l),
            ),
            max: Vec3::new(
                lane(&self.max_x, l),
                lane(&self.max_y, l),
                lane(&self.max_z, l),
            ),
        }
    }

    fn is_regular(b: &Aabb) -> bool {
        // NaN compares false either way: a NaN box is regular (no compare with it holds).
        !b.min.cmpgt(b.max).any()
    }

    fn is_padding(&self, l: usize) -> bool {
        let b = self.get(l);
        b.min.is_nan() && b.max.is_nan()
    }
}

impl Chunk {
    /// Bit `l` set when lane `l` overlaps the query box (touching counts).
    ///
    /// Per axis the intervals meet iff `q.min <= b.max && b.min <= q.max` (Gomez 1999,
    /// listing 3, in min/max form); with `INVERTED` (some stored box may be inverted),
    /// `b.min <= b.max` rejects inverted boxes, which the first two compares alone can pass
    /// (`[1, 0]` inside `[-1, 2]`). Every comparison with a NaN is false, so NaN lanes and NaN
    /// queries give 0. Each `cmple` is one packed compare of four lanes.
    #[inline(always)]
    fn overlap_bits<const INVERTED: bool>(&self, q: &Splat) -> u32 {
        let mut bits = 0u32;
        for h in 0..2 {
            let mut x = q.min[0].cmple(self.max_x[h]) & self.min_x[h].cmple(q.max[0]);
            let mut y = q.min[1].cmple(self.max_y[h]) & self.min_y[h].cmple(q.max[1]);
            let mut z = q.min[2].cmple(self.max_z[h]) & self.min_z[h].cmple(q.max[2]);
            if INVERTED {
                x &= self.min_x[h].cmple(self.max_x[h]);
                y &= self.min_y[h].cmple(self.max_y[h]);
                z &= self.min_z[h].cmple(self.max_z[h]);
            }
            bits |= (x & y & z).bitmask() << (4 * h);
        }
        bits
    }

    /// Entry `t` per lane, and bit `l` set when the ray hits lane `l` within `[0, max_t]`.
    ///
    /// Slab test: per axis `t1 = (min - o)·inv`, `t2 = (max - o)·inv`; the ray is inside the
    /// slab for `t` in `[min(t1, t2), max(t1, t2)]` (every `t` on a parallel axis whose slab
    /// holds the origin, none if it does not); inside the box for `t` in `[near, far]` with
    /// `near = max(0, three entries)` and `far = min(max_t, three exits · (1 + 2γ₃))`; a hit iff
    /// `near <= far` (touching counts). With a valid ray `inv` is finite, so NaN can only come
    /// from a NaN box, which the `min <= max` checks reject (as they reject empty boxes).
    #[inline(always)]
    fn ray_bits(&self, r: &RaySplat, near_out: &mut [Vec4; 2]) -> u32 {
        let mut bits = 0u32;
        #[allow(clippy::needless_range_loop)] // one index across seven arrays
        for h in 0..2 {
            let (nx, fx, ox) = slab(self.min_x[h], self.max_x[h], r, 0);
            let (ny, fy, oy) = slab(self.min_y[h], self.max_y[h], r, 1);
            let (nz, fz, oz) = slab(self.min_z[h], self.max_z[h], r, 2);
            // NaN only reaches these from NaN lanes, whose `ok` bit is already false.
            let near = nx.max(ny).max(nz.max(Vec4::ZERO));
            let far = fx.min(fy).min(fz.min(r.max_t));
            near_out[h] = near;
            // An entry `t` that overflowed to infinity (a direction so short, or a box so far,
            // that `t` is beyond `f32::MAX`) is no hit, as in `raycast::aabb_inv`.
            let finite = near.cmplt(Vec4::INFINITY);
            bits |= (ox & oy & oz & near.cmple(far) & finite).bitmask() << (4 * h);
        }
        bits
    }
}

/// A prepared ray splatted across four lanes.
#[derive(Clone, Copy)]
struct RaySplat {
    origin: [Vec4; 3],
    inv: [Vec4; 3],
    parallel: [bool; 3],
    max_t: Vec4,
}

impl RaySplat {
    /// `None` when the ray or `max_t` is unusable (NaN or infinite origin or direction, `max_t`
    /// NaN or negative): such a ray hits nothing.
    ///
    /// An axis whose `1/d` is not finite (`d` zero, or subnormal below ~3e-39) is `parallel`:
    /// on it the ray is inside the slab for every `t` when `min <= o <= max` (boundary
    /// included) and never otherwise. This avoids `(min - o) · inf = NaN` for an origin on a
    /// slab plane, and makes a ray running along a face touch it.
    #[inline(always)]
    fn new(r: &RayInv, max_t: f32) -> Option<RaySplat> {
        if !(r.origin.is_finite() && r.dir.is_finite() && max_t >= 0.0) {
            return None;
        }
        let o = r.origin;
        let par = |k: usize| !r.inv_dir[k].is_finite();
        let inv = |k: usize| if par(k) { 0.0 } else { r.inv_dir[k] };
        Some(RaySplat {
            origin: splat3(o),
            inv: splat3(Vec3::new(inv(0), inv(1), inv(2))),
            parallel: [par(0), par(1), par(2)],
            max_t: Vec4::splat(max_t),
        })
    }
}

/// One axis of the slab test for four lanes: `(entry t, exit t, ok)`, `ok` false where the
/// box is empty or NaN on this axis or the ray runs parallel to it outside the slab.
#[inline(always)]
fn slab(lo: Vec4, hi: Vec4, r: &RaySplat, k: usize) -> (Vec4, Vec4, BVec4A) {
    let nonempty = lo.cmple(hi);
    let o = r.origin[k];
    if r.parallel[k] {
        (
            Vec4::NEG_INFINITY,
            Vec4::INFINITY,
            nonempty & lo.cmple(o) & o.cmple(hi),
        )
    } else {
        let t1 = (lo - o) * r.inv[k];
        let t2 = (hi - o) * r.inv[k];
        (t1.min(t2), t1.max(t2) * SLAB_WIDEN, nonempty)
    }
}

/// Many AABBs in structure-of-arrays chunks of [`LANES`], for one-against-many tests.
///
/// Element `i` lives in lane `i % 8` of chunk `i / 8`; the lanes after the last element are
/// NaN and never hit. Indices are stable: [`AabbSoa::set`] replaces a box in place.
///
/// ```
/// use collide::batch::{mask_words, AabbSoa};
/// use collide::shapes::Aabb;
/// use collide::Vec3;
///
/// let boxes: Vec<Aabb> = (0..100)
///     .map(|i| Aabb::from_center_half_extents(Vec3::new(i as f32, 0.0, 0.0), Vec3::splat(0.25)))
///     .collect();
/// let soa = AabbSoa::from_aabbs(&boxes);
/// let query = Aabb::new(Vec3::new(9.5, -1.0, -1.0), Vec3::new(12.0, 1.0, 1.0));
/// let mut hits = Vec::new();
/// soa.for_each_overlap(&query, |i| hits.push(i));
/// assert_eq!(hits, [10, 11, 12]);
/// let mut mask = vec![0u64; mask_words(soa.len())];
/// assert_eq!(soa.overlap_mask(&query, &mut mask), 3);
/// assert_eq!(mask[0], 0b111 << 10);
/// ```
#[derive(Clone, Debug, Default)]
pub struct AabbSoa {
    lanes: Lanes<Chunk>,
}

soa_container!(AabbSoa, Aabb, "boxes");

impl AabbSoa {
    /// The boxes of a slice, in order (index `i` is `boxes[i]`).
    #[must_use]
    pub fn from_aabbs(boxes: &[Aabb]) -> AabbSoa {
        AabbSoa {
            lanes: Lanes::from_slice(boxes),
        }
    }

    /// Tests every box against `query` and writes the answers as a bitmask: bit `i % 64` of
    /// `mask[i / 64]` is set when box `i` overlaps `query` (touching counts). Returns the
    /// number of overlaps.
    ///
    /// `mask` should have [`mask_words`](super::mask_words)`(self.len())` words; extra words
    /// are zeroed, and with fewer only the first `64 · mask.len()` boxes are tested. A NaN or
    /// empty `query` gives no overlaps; NaN or empty stored boxes never overlap.
    pub fn overlap_mask(&self, query: &Aabb, mask: &mut [u64]) -> usize {
        let q = Splat::new(query);
        if self.lanes.all_regular() {
            self.lanes
                .mask(mask, |chunk| chunk.overlap_bits::<false>(&q))
        } else {
            self.lanes
                .mask(mask, |chunk| chunk.overlap_bits::<true>(&q))
        }
    }

    /// Calls `f(i)` for every box `i` that overlaps `query` (touching counts), in increasing
    /// order. Nothing is allocated. NaN as in [`AabbSoa::overlap_mask`].
    pub fn for_each_overlap(&self, query: &Aabb, f: impl FnMut(usize)) {
        let q = Splat::new(query);
        if self.lanes.all_regular() {
            self.lanes
                .for_each(|chunk| chunk.overlap_bits::<false>(&q), f);
        } else {
            self.lanes
                .for_each(|chunk| chunk.overlap_bits::<true>(&q), f);
        }
    }

    /// The number of boxes that overlap `query` (touching counts).
    #[must_use]
    pub fn count_overlaps(&self, query: &Aabb) -> usize {
        let q = Splat::new(query);
        if self.lanes.all_regular() {
            self.lanes.count(|chunk| chunk.overlap_bits::<false>(&q))
        } else {
            self.lanes.count(|chunk| chunk.overlap_bits::<true>(&q))
        }
    }

    /// Tests every box against the ray and writes a bitmask as [`AabbSoa::overlap_mask`]
    /// does: bit `i` is set when the ray meets box `i` at some `t` in `[0, max_t]` (a ray
    /// starting inside a box hits it at `t = 0`; grazing an edge or face counts). For finite
    /// boxes the same verdict and entry `t` as [`raycast::aabb_inv`](crate::raycast::aabb_inv)
    /// box by box; a box with infinite coordinates is a slab or half-space here (the scalar
    /// cast rejects it). A NaN or infinite ray, or `max_t` NaN or negative, hits nothing; an
    /// entry `t` beyond `f32::MAX` is no hit (every reported `t` is finite). Near the `f32`
    /// limits (coordinate differences beyond `f32::MAX`, subnormal direction components) the
    /// scalar cast redoes the slab test in `f64` and this one does not, so it may miss there.
    pub fn ray_mask(&self, ray: &RayInv, max_t: f32, mask: &mut [u64]) -> usize {
        let Some(r) = RaySplat::new(ray, max_t) else {
            mask.fill(0);
            return 0;
        };
        let mut near = [Vec4::ZERO; 2];
        self.lanes.mask(mask, |chunk| chunk.ray_bits(&r, &mut near))
    }

    /// Calls `f(i, t)` for every box `i` the ray meets within `[0, max_t]`, with `t` the
    /// entry parameter (`0` when the ray starts inside; the `t` of `raycast::aabb_inv`), in
    /// increasing `i`. Nothing is allocated. Bad input as in [`AabbSoa::ray_mask`].
    pub fn for_each_ray_hit(&self, ray: &RayInv, max_t: f32, mut f: impl FnMut(usize, f32)) {
        let Some(r) = RaySplat::new(ray, max_t) else {
            return;
        };
        let mut near = [Vec4::ZERO; 2];
        for (c, chunk) in self.lanes.chunks().iter().enumerate() {
            let bits = chunk.ray_bits(&r, &mut near);
            for_each_bit(c, bits, &mut |i| f(i, lane(&near, i % LANES)));
        }
    }

    /// The first box the ray meets, `(index, entry t)`, ties to the lower index; `None` when
    /// it meets none within `[0, max_t]`.
    #[must_use]
    pub fn ray_first_hit(&self, ray: &RayInv, max_t: f32) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        self.for_each_ray_hit(ray, max_t, |i, t| {
            if best.is_none_or(|(_, bt)| t < bt) {
                best = Some((i, t));
            }
        });
        best
    }
}
