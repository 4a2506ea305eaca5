//! Whole-tree passes: the Morton-order rebuild (bulk load) and the refit that recomputes every
//! box of an unchanged tree shape.

use super::node::{is_bucket, BUCKET, BUCKET_SIZE, NODE_WIDTH, NULL};
use super::{half_area, DynamicBvh, Loc};
use crate::math::{morton3, Vec3A};

/// Bits per axis of the Morton codes used by the rebuild (3 × 21 = 63 bits, all that
/// [`morton3`] keeps).
const MORTON_BITS: u32 = 21;

/// Digit width of [`radix_sort`].
const RADIX_BITS: u32 = 11;
/// Buckets per digit.
const RADIX: usize = 1 << RADIX_BITS;
/// Digits of a 64-bit key.
const DIGITS: usize = 64usize.div_ceil(RADIX_BITS as usize);

/// The memory [`radix_sort`] reuses between calls (no allocation per frame, and the 48 KB of
/// counts off the stack of whatever thread calls it).
#[derive(Clone, Debug, Default)]
pub(super) struct RadixScratch {
    items: Vec<(u64, u32)>,
    counts: Vec<[u32; RADIX]>,
}

/// Sorts `(key, value)` items by key, least significant digit first: 11-bit digits, all six
/// digit histograms counted in one pass, then one stable counting pass through the scratch
/// per digit in which the keys differ. For the 63-bit Morton codes of `n` boxes that is at
/// most seven linear passes instead of `n log n` comparisons. Equal keys keep their input
/// order.
pub(super) fn radix_sort(items: &mut Vec<(u64, u32)>, scratch: &mut RadixScratch) {
    if items.len() < 64 {
        items.sort_by_key(|it| it.0);
        return;
    }
    let digit = |k: u64, d: usize| ((k >> (d as u32 * RADIX_BITS)) as usize) & (RADIX - 1);
    let counts = &mut scratch.counts;
    counts.clear();
    counts.resize(DIGITS, [0; RADIX]);
    for &(k, _) in items.iter() {
        for (d, c) in counts.iter_mut().enumerate() {
            c[digit(k, d)] += 1;
        }
    }
    let other = &mut scratch.items;
    other.clear();
    other.resize(items.len(), (0, 0));
    let n = items.len() as u32;
    for (d, c) in counts.iter_mut().enumerate() {
        // A digit every key shares changes nothing.
        if c.contains(&n) {
            continue;
        }
        let mut sum = 0;
        for x in c.iter_mut() {
            let here = *x;
            *x = sum;
            sum += here;
        }
        for &it in items.iter() {
            let slot = &mut c[digit(it.0, d)];
            if let Some(dst) = other.get_mut(*slot as usize) {
                *dst = it;
            }
            *slot += 1;
        }
        std::mem::swap(items, other);
    }
}

/// Where the sorted codes `items[f..e]` (at least two) split: at the highest bit in which the
/// first and last codes differ (each side is one half of an octree cell, Karras 2012), or in
/// the middle when they are all equal. Both sides are non-empty.
fn split_at(items: &[(u64, u32)], f: usize, e: usize) -> usize {
    let (a, b) = (items[f].0, items[e - 1].0);
    if a == b {
        return f + (e - f) / 2;
    }
    // Sorted codes sharing every bit above `bit`: those with `bit` clear come first (the
    // first code has it clear, the last set).
    let mask = 1u64 << (63 - (a ^ b).leading_zeros());
    f + items[f..e].partition_point(|it| it.0 & mask == 0)
}

impl DynamicBvh {
    /// Rebuilds the tree from the live proxies' fat boxes: Morton codes of the box centres
    /// (quantised to 21 bits per axis over the centres' bounds, in `f64` so that any finite
    /// box works), radix-sorted, then cut top-down at the highest differing bit, twice per
    /// node (up to four children), until a run of at most [`BUCKET_SIZE`] proxies becomes a
    /// bucket. Nodes and buckets are laid out in depth-first order, so buckets next to each
    /// other in memory are next to each other in space. Boxes are filled by [`Self::refit`],
    /// whose total becomes the base area that later refits are compared with (`base_tight`
    /// records whether it was measured with tight boxes); sets `last_rebuilt`.
    #[inline(never)]
    pub(super) fn rebuild(&mut self) {
        let mut items = std::mem::take(&mut self.items);
        items.clear();
        // Box centres as min/2 + max/2, which cannot overflow, and their bounds.
        let centre = |id: usize| {
            let b = &self.boxes[id].fat;
            b.min * 0.5 + b.max * 0.5
        };
        let (mut lo, mut hi) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY);
        for (id, l) in self.loc.iter().enumerate() {
            if l.is_live() {
                let c = centre(id);
                lo = lo.min(c);
                hi = hi.max(c);
            }
        }
        // Quantisation: (c − lo) · top / (hi − lo) per axis, the scale computed in f64 (the
        // spread can exceed f32::MAX); an axis without spread gets scale 0.
        let top = ((1u32 << MORTON_BITS) - 1) as f32;
        let spread = |k: usize| f64::from(hi[k]) - f64::from(lo[k]);
        let scale = Vec3A::from_array(std::array::from_fn(|k| {
            if spread(k) > 0.0 {
                (f64::from(top) / spread(k)) as f32
            } else {
                0.0
            }
        }));
        for (id, l) in self.loc.iter().enumerate() {
            if !l.is_live() {
                continue;
            }
            let c = centre(id);
            let mut q = (c - lo) * scale;
            if !q.is_finite() {
                // c − lo overflowed f32: the same in f64.
                q = Vec3A::from_array(std::array::from_fn(|k| {
                    ((f64::from(c[k]) - f64::from(lo[k])) * f64::from(scale[k])) as f32
                }));
            }
            // `as` saturates (NaN to 0): each is in [0, 2^21 − 1].
            let q = q.clamp(Vec3A::ZERO, Vec3A::splat(top));
            let code = morton3(q.x as u64, q.y as u64, q.z as u64);
            items.push((code, id as u32));
        }
        let mut scratch = std::mem::take(&mut self.sort_scratch);
        radix_sort(&mut items, &mut scratch);
        self.sort_scratch = scratch;

        self.nodes.clear();
        self.buckets.clear();
        self.free_nodes.clear();
        self.free_buckets.clear();
        self.root = NULL;
        self.edits_since_build = 0;
        self.base_tight = self.fat_is_tight;
        self.last_rebuilt = true;
        if items.is_empty() {
            self.base_area = 0.0;
            self.grown_area = 0.0;
            self.items = items;
            return;
        }
        let r = self.alloc_node();
        self.root = r;
        self.build_stack.clear();
        self.push_parts(&items, r, 0, items.len());
        while let Some((f, e, parent, slot)) = self.build_stack.pop() {
            let (f, e) = (f as usize, e as usize);
            if e - f <= BUCKET_SIZE {
                let k = self.alloc_bucket();
                self.buckets[k as usize].parent = parent;
                for &(_, id) in &items[f..e] {
                    let fat = self.boxes[id as usize].fat.aabb();
                    if let Some(l) = self.buckets[k as usize].push(id, &fat) {
                        self.loc[id as usize] = Loc {
                            bucket: k,
                            lane: l as u32,
                        };
                    }
                }
                self.nodes[parent as usize].child[slot as usize] = BUCKET | k;
            } else {
                let i = self.alloc_node();
                self.nodes[i as usize].parent = parent;
                self.nodes[parent as usize].child[slot as usize] = i;
                self.push_parts(&items, i, f, e);
            }
        }
        self.items = items;
        self.base_area = self.refit();
    }

    /// Gives node `i` the children of the run `items[f..e]`: a run that fits in four buckets
    /// is cut into as few buckets as hold it, of equal size (consecutive Morton codes are
    /// neighbours, and full buckets make fewer, denser leaves than cuts at octree cells);
    /// a longer run into its halves at the highest differing bit, each halved again when it
    /// does not fit in a bucket. The parts are pushed on `build_stack` in reverse, so the
    /// first is built next (depth-first order).
    fn push_parts(&mut self, items: &[(u64, u32)], i: u32, f: usize, e: usize) {
        let mut parts = [(0usize, 0usize); 4];
        let mut n = 0;
        if e - f <= NODE_WIDTH * BUCKET_SIZE {
            let k = (e - f).div_ceil(BUCKET_SIZE);
            for (j, part) in parts.iter_mut().take(k).enumerate() {
                *part = (f + (e - f) * j / k, f + (e - f) * (j + 1) / k);
            }
            n = k;
        } else {
            let m = split_at(items, f, e);
            for (pf, pe) in [(f, m), (m, e)] {
                if pe - pf > BUCKET_SIZE {
                    let mm = split_at(items, pf, pe);
                    parts[n] = (pf, mm);
                    parts[n + 1] = (mm, pe);
                    n += 2;
                } else {
                    parts[n] = (pf, pe);
                    n += 1;
                }
            }
        }
        self.nodes[i as usize].count = n as u32;
        for (s, &(pf, pe)) in parts[..n].iter().enumerate().rev() {
            self.build_stack.push((pf as u32, pe as u32, i, s as u32));
        }
    }

    /// Writes the proxies' fat boxes into their lanes: every proxy's when `all`, else only
    /// the moved ones' (the others' lanes already hold their fat boxes).
    pub(super) fn sync_lanes(&mut self, all: bool) {
        if all {
            for b in &mut self.buckets {
                for l in 0..b.count as usize {
                    let fat = self.boxes[b.proxy[l] as usize].fat.aabb();
                    b.set_lane_box(l, &fat);
                }
            }
            return;
        }
        for &m in &self.moved {
            let Loc { bucket, lane } = self.loc[m as usize];
            if self.loc[m as usize].in_tree() {
                let fat = self.boxes[m as usize].fat.aabb();
                self.buckets[bucket as usize].set_lane_box(lane as usize, &fat);
            }
        }
    }

    /// Recomputes every box of the tree from its lanes, keeping its shape: each bucket's
    /// bounds, then every node's slot boxes, children before parents; returns the total
    /// half-area of the slot boxes. It undoes the loosening of in-place enlargements and
    /// removals; the shape gets worse as bodies leave the neighbourhoods they were sorted
    /// into, which the caller watches by the area.
    pub(super) fn refit(&mut self) -> f64 {
        for b in &mut self.buckets {
            b.bounds = b.lanes_bounds();
        }
        // Nodes in depth-first pre-order; walked backwards, children come before parents.
        let mut order = std::mem::take(&mut self.node_stack);
        order.clear();
        if self.root != NULL {
            order.push(self.root);
        }
        let mut i = 0;
        while i < order.len() {
            let n = &self.nodes[order[i] as usize];
            for &c in &n.child[..n.count as usize] {
                if !is_bucket(c) {
                    order.push(c);
                }
            }
            i += 1;
        }
        let mut area = 0.0;
        for &n in order.iter().rev() {
            for s in 0..self.nodes[n as usize].count as usize {
                let b = self.child_bounds(self.nodes[n as usize].child[s]);
                self.nodes[n as usize].set_slot_box(s, &b);
                area += half_area(&b);
            }
        }
        self.node_stack = order;
        self.grown_area = 0.0;
        area
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_sorts_like_a_stable_sort() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (n, mask) in [
            (10, u64::MAX),
            (1000, u64::MAX >> 1),
            (5000, 0xff_0000_0000),
            (300, 0),
        ] {
            let mut items: Vec<(u64, u32)> = (0..n).map(|i| (next() & mask, i)).collect();
            let mut want = items.clone();
            want.sort_by_key(|it| it.0);
            let mut scratch = RadixScratch::default();
            radix_sort(&mut items, &mut scratch);
            assert_eq!(items, want, "n = {n}");
        }
    }

    #[test]
    fn split_at_cuts_at_the_highest_differing_bit() {
        let items: Vec<(u64, u32)> = [0b0001u64, 0b0011, 0b0100, 0b0110, 0b0111]
            .iter()
            .map(|&c| (c, 0))
            .collect();
        // Codes below 0b0100 have bit 2 clear.
        assert_eq!(split_at(&items, 0, 5), 2);
        // Within 0b0100..0b0111 the highest differing bit is bit 1.
        assert_eq!(split_at(&items, 2, 5), 3);
        let same = vec![(7u64, 0u32); 6];
        assert_eq!(split_at(&same, 0, 6), 3);
    }
}
