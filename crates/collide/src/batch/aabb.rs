use super::{fill_mask, for_each_bit, RayInv, LANES};
use crate::math::Vec3;
use crate::shapes::Aabb;

/// Eight boxes, one array per coordinate (32-byte aligned: one AVX load per coordinate).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Chunk {
    min_x: [f32; LANES],
    min_y: [f32; LANES],
    min_z: [f32; LANES],
    max_x: [f32; LANES],
    max_y: [f32; LANES],
    max_z: [f32; LANES],
}

impl Chunk {
    /// All lanes NaN: the padding of the last chunk, which no query hits.
    const PADDING: Chunk = Chunk {
        min_x: [f32::NAN; LANES],
        min_y: [f32::NAN; LANES],
        min_z: [f32::NAN; LANES],
        max_x: [f32::NAN; LANES],
        max_y: [f32::NAN; LANES],
        max_z: [f32::NAN; LANES],
    };

    #[inline(always)]
    fn set(&mut self, lane: usize, b: &Aabb) {
        self.min_x[lane] = b.min.x;
        self.min_y[lane] = b.min.y;
        self.min_z[lane] = b.min.z;
        self.max_x[lane] = b.max.x;
        self.max_y[lane] = b.max.y;
        self.max_z[lane] = b.max.z;
    }

    #[inline(always)]
    fn get(&self, lane: usize) -> Aabb {
        Aabb {
            min: Vec3::new(self.min_x[lane], self.min_y[lane], self.min_z[lane]),
            max: Vec3::new(self.max_x[lane], self.max_y[lane], self.max_z[lane]),
        }
    }

    /// Bit `l` set when lane `l` overlaps the query box (touching counts).
    ///
    /// Per axis the intervals meet iff `q.min <= b.max && b.min <= q.max` (Gomez 1999,
    /// listing 3, in min/max form); `b.min <= b.max` rejects empty boxes. Every comparison
    /// with a NaN is false, so NaN lanes and NaN queries give 0. Non-short-circuit `&` keeps
    /// the loop branch-free so it vectorises to packed compares.
    #[inline(always)]
    fn overlap_bits(&self, q: &Aabb) -> u32 {
        let mut bits = 0u32;
        for l in 0..LANES {
            let x = (q.min.x <= self.max_x[l])
                & (self.min_x[l] <= q.max.x)
                & (self.min_x[l] <= self.max_x[l]);
            let y = (q.min.y <= self.max_y[l])
                & (self.min_y[l] <= q.max.y)
                & (self.min_y[l] <= self.max_y[l]);
            let z = (q.min.z <= self.max_z[l])
                & (self.min_z[l] <= q.max.z)
                & (self.min_z[l] <= self.max_z[l]);
            bits |= u32::from(x & y & z) << l;
        }
        bits
    }

    /// Entry `t` per lane, and bit `l` set when the ray hits lane `l` within `[0, max_t]`.
    ///
    /// Slab test: per axis `t1 = (min - o)·inv`, `t2 = (max - o)·inv`; the ray is inside the
    /// slab for `t` in `[min(t1, t2), max(t1, t2)]` (every `t` on a parallel axis whose slab
    /// holds the origin, none if it does not); inside the box for `t` in `[near, far]` with
    /// `near = max(0, three entries)` and `far = min(max_t, three exits)`; a hit iff
    /// `near <= far` (touching counts). With a valid ray `inv` is finite, so NaN can only come
    /// from a NaN box, which the `min <= max` checks reject (as they reject empty boxes).
    #[inline(always)]
    fn ray_bits(&self, r: &RayInv, near_out: &mut [f32; LANES]) -> u32 {
        let (o, inv) = (r.origin, r.inv_dir);
        let [px, py, pz] = r.parallel;
        let mut bits = 0u32;
        #[allow(clippy::needless_range_loop)] // one index across seven arrays
        for l in 0..LANES {
            let (nx, fx, ox) = slab(self.min_x[l], self.max_x[l], o.x, inv.x, px);
            let (ny, fy, oy) = slab(self.min_y[l], self.max_y[l], o.y, inv.y, py);
            let (nz, fz, oz) = slab(self.min_z[l], self.max_z[l], o.z, inv.z, pz);
            let near = min_max::max(min_max::max(nx, ny), min_max::max(nz, 0.0));
            let far = min_max::min(min_max::min(fx, fy), min_max::min(fz, r.max_t));
            near_out[l] = near;
            bits |= u32::from(ox & oy & oz & (near <= far)) << l;
        }
        bits
    }
}

/// One axis of the slab test: `(entry t, exit t, ok)`, `ok` false when the box is empty or NaN
/// on this axis or the ray runs parallel to it outside the slab.
#[inline(always)]
fn slab(lo: f32, hi: f32, o: f32, inv: f32, parallel: bool) -> (f32, f32, bool) {
    let t1 = (lo - o) * inv;
    let t2 = (hi - o) * inv;
    let nonempty = lo <= hi;
    if parallel {
        (
            f32::NEG_INFINITY,
            f32::INFINITY,
            nonempty & (lo <= o) & (o <= hi),
        )
    } else {
        (min_max::min(t1, t2), min_max::max(t1, t2), nonempty)
    }
}

/// Branch-free min/max written as compare-and-select, which compiles to `minps`/`maxps`
/// (`f32::min` must return the non-NaN operand and does not).
mod min_max {
    #[inline(always)]
    pub fn min(a: f32, b: f32) -> f32 {
        if a < b {
            a
        } else {
            b
        }
    }

    #[inline(always)]
    pub fn max(a: f32, b: f32) -> f32 {
        if a > b {
            a
        } else {
            b
        }
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
    chunks: Vec<Chunk>,
    len: usize,
}

impl AabbSoa {
    /// An empty set.
    #[must_use]
    pub fn new() -> AabbSoa {
        AabbSoa::default()
    }

    /// An empty set with room for `n` boxes.
    #[must_use]
    pub fn with_capacity(n: usize) -> AabbSoa {
        AabbSoa {
            chunks: Vec::with_capacity(n.div_ceil(LANES)),
            len: 0,
        }
    }

    /// The boxes of a slice, in order (index `i` is `boxes[i]`).
    #[must_use]
    pub fn from_aabbs(boxes: &[Aabb]) -> AabbSoa {
        let mut soa = AabbSoa::with_capacity(boxes.len());
        for b in boxes {
            soa.push(b);
        }
        soa
    }

    /// Number of boxes.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there are no boxes.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every box (keeps the memory).
    pub fn clear(&mut self) {
        self.chunks.clear();
        self.len = 0;
    }

    /// Appends a box and returns its index.
    pub fn push(&mut self, b: &Aabb) -> usize {
        let i = self.len;
        if i % LANES == 0 {
            self.chunks.push(Chunk::PADDING);
        }
        // The chunk exists: one was pushed above whenever `i` starts a new chunk.
        let last = self.chunks.len() - 1;
        self.chunks[last].set(i % LANES, b);
        self.len += 1;
        i
    }

    /// Box `i`, or `None` past the end.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Aabb> {
        (i < self.len).then(|| self.chunks[i / LANES].get(i % LANES))
    }

    /// Replaces box `i`; returns `false` (and changes nothing) when `i` is past the end.
    pub fn set(&mut self, i: usize, b: &Aabb) -> bool {
        if i >= self.len {
            return false;
        }
        self.chunks[i / LANES].set(i % LANES, b);
        true
    }

    /// Checks the layout invariants: enough chunks for `len`, NaN in every lane past `len`.
    /// Returns a description of the first violation.
    pub fn validate(&self) -> Result<(), String> {
        if self.chunks.len() != self.len.div_ceil(LANES) {
            return Err(format!(
                "{} chunks for {} boxes (want {})",
                self.chunks.len(),
                self.len,
                self.len.div_ceil(LANES)
            ));
        }
        for i in self.len..self.chunks.len() * LANES {
            let b = self.chunks[i / LANES].get(i % LANES);
            if !(b.min.is_nan() && b.max.is_nan()) {
                return Err(format!("padding lane {i} is {b:?}, not NaN"));
            }
        }
        Ok(())
    }

    /// Tests every box against `query` and writes the answers as a bitmask: bit `i % 64` of
    /// `mask[i / 64]` is set when box `i` overlaps `query` (touching counts). Returns the
    /// number of overlaps.
    ///
    /// `mask` should have [`mask_words`](super::mask_words)`(self.len())` words; extra words
    /// are zeroed, and with fewer only the first `64 · mask.len()` boxes are tested. A NaN in
    /// `query` gives no overlaps; NaN or empty stored boxes never overlap.
    pub fn overlap_mask(&self, query: &Aabb, mask: &mut [u64]) -> usize {
        let q = *query;
        fill_mask(self.chunks.len(), mask, |c| self.chunks[c].overlap_bits(&q))
    }

    /// Calls `f(i)` for every box `i` that overlaps `query` (touching counts), in increasing
    /// order. Nothing is allocated. NaN as in [`AabbSoa::overlap_mask`].
    pub fn for_each_overlap(&self, query: &Aabb, mut f: impl FnMut(usize)) {
        let q = *query;
        for (c, chunk) in self.chunks.iter().enumerate() {
            let bits = chunk.overlap_bits(&q);
            for_each_bit(c, bits, &mut f);
        }
    }

    /// The number of boxes that overlap `query` (touching counts).
    #[must_use]
    pub fn count_overlaps(&self, query: &Aabb) -> usize {
        let q = *query;
        self.chunks
            .iter()
            .map(|chunk| chunk.overlap_bits(&q).count_ones() as usize)
            .sum()
    }

    /// Tests every box against the ray and writes a bitmask as [`AabbSoa::overlap_mask`]
    /// does: bit `i` is set when the ray meets box `i` at some `t` in `[0, ray.max_t]`
    /// (a ray starting inside a box hits it at `t = 0`; grazing an edge or face counts).
    /// An invalid ray ([`RayInv::valid`] false) hits nothing.
    pub fn ray_mask(&self, ray: &RayInv, mask: &mut [u64]) -> usize {
        if !ray.valid {
            return fill_mask(0, mask, |_| 0);
        }
        let mut near = [0.0; LANES];
        fill_mask(self.chunks.len(), mask, |c| {
            self.chunks[c].ray_bits(ray, &mut near)
        })
    }

    /// Calls `f(i, t)` for every box `i` the ray meets within `[0, ray.max_t]`, with `t` the
    /// entry parameter (`0` when the ray starts inside), in increasing `i`. Nothing is
    /// allocated. An invalid ray hits nothing.
    pub fn for_each_ray_hit(&self, ray: &RayInv, mut f: impl FnMut(usize, f32)) {
        if !ray.valid {
            return;
        }
        let mut near = [0.0; LANES];
        for (c, chunk) in self.chunks.iter().enumerate() {
            let bits = chunk.ray_bits(ray, &mut near);
            for_each_bit(c, bits, &mut |i| f(i, near[i % LANES]));
        }
    }

    /// The first box the ray meets, `(index, entry t)`, ties to the lower index; `None` when
    /// it meets none within `[0, ray.max_t]`.
    #[must_use]
    pub fn ray_first_hit(&self, ray: &RayInv) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        self.for_each_ray_hit(ray, |i, t| {
            if best.is_none_or(|(_, bt)| t < bt) {
                best = Some((i, t));
            }
        });
        best
    }
}
