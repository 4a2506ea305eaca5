//! The two kinds of tree element: inner nodes of up to four children and buckets of up to
//! eight proxies, both holding their entries' boxes as structure-of-arrays lanes so that one
//! packed compare (a glam `Vec4`) tests a query box against four entries.

use crate::broadphase::lanes::{
    first_lanes, lane3, load3, set_lane3, union_of, Lanes, Query, RayLanes, EMPTY_LANES,
};
use crate::math::Vec3;
use crate::shapes::Aabb;
use glam::Vec4;

/// The null index (no node, no bucket, no proxy).
pub(super) const NULL: u32 = u32::MAX;

/// Tag of a child reference naming a bucket (the rest is its index); untagged, a node.
pub(super) const BUCKET: u32 = 1 << 31;

/// Children per inner node (one `Vec4` lane each).
pub(super) const NODE_WIDTH: usize = 4;

/// Proxies per bucket (two `Vec4` lanes per coordinate).
pub(super) const BUCKET_SIZE: usize = 8;

/// `true` when the child reference `c` names a bucket.
#[inline(always)]
pub(super) fn is_bucket(c: u32) -> bool {
    c != NULL && c & BUCKET != 0
}

/// An inner node: up to four children (nodes or buckets) in slots `0..count`, each with the
/// box that contains everything below it. Empty slots hold [`NULL`] and NaN boxes. 128
/// bytes, two cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Node {
    /// Per axis, the children's box minima (one lane per slot).
    lo: [Lanes; 3],
    /// Per axis, the children's box maxima.
    hi: [Lanes; 3],
    /// Child references: a node index, or [`BUCKET`]` | bucket index`; [`NULL`] when empty.
    pub(super) child: [u32; NODE_WIDTH],
    /// The parent node, [`NULL`] for the root (and for a free node).
    pub(super) parent: u32,
    /// Slots in use (`0..count`); 0 only for a free node.
    pub(super) count: u32,
}

impl Node {
    /// No children.
    pub(super) const EMPTY: Node = Node {
        lo: [EMPTY_LANES; 3],
        hi: [EMPTY_LANES; 3],
        child: [NULL; NODE_WIDTH],
        parent: NULL,
        count: 0,
    };

    /// The largest absolute coordinate of the slots' boxes (0 for none): that of their union.
    /// Empty slots are NaN: `lanes.max(acc)` keeps `acc` in a NaN lane (packed `maxps` and
    /// `f32::max` alike).
    #[inline]
    pub(super) fn reach(&self) -> f32 {
        let mut acc = Vec4::ZERO;
        for k in 0..3 {
            acc = Vec4::from_array(self.lo[k]).abs().max(acc);
            acc = Vec4::from_array(self.hi[k]).abs().max(acc);
        }
        acc.max_element()
    }

    /// Slot bits whose boxes touch the query (empty slots never do).
    #[inline(always)]
    pub(super) fn touching(&self, q: &Query) -> u32 {
        q.touching(load3(&self.lo), load3(&self.hi))
    }

    /// Slot `s`'s box splatted as a query.
    #[inline(always)]
    pub(super) fn slot_query(&self, s: usize) -> Query {
        Query::new(&self.slot_box(s))
    }

    /// The box of slot `s` (NaN for an empty slot).
    #[inline(always)]
    pub(super) fn slot_box(&self, s: usize) -> Aabb {
        Aabb {
            min: lane3(&self.lo, s),
            max: lane3(&self.hi, s),
        }
    }

    /// Entry times of a ray into the children's boxes (`INFINITY`: missed or no child).
    #[inline(always)]
    pub(super) fn ray_entries(&self, r: &RayLanes, max_t: f32) -> [f32; 4] {
        r.entries(
            load3(&self.lo),
            load3(&self.hi),
            max_t,
            first_lanes(self.count),
        )
    }

    /// Sets slot `s` (its box too).
    #[inline]
    pub(super) fn set_slot(&mut self, s: usize, child: u32, b: &Aabb) {
        self.child[s] = child;
        self.set_slot_box(s, b);
    }

    /// Sets the box of slot `s`.
    #[inline]
    pub(super) fn set_slot_box(&mut self, s: usize, b: &Aabb) {
        set_lane3(&mut self.lo, s, b.min);
        set_lane3(&mut self.hi, s, b.max);
    }

    /// `true` when slot `s` is empty: a null child and a NaN box.
    pub(super) fn slot_is_empty(&self, s: usize) -> bool {
        let b = self.slot_box(s);
        self.child[s] == NULL && b.min.is_nan() && b.max.is_nan()
    }

    /// The slot holding `child`, if any.
    #[inline]
    pub(super) fn find(&self, child: u32) -> Option<usize> {
        self.child[..self.count as usize]
            .iter()
            .position(|&c| c == child)
    }

    /// Appends a child; `false` (nothing changed) when the node is full.
    pub(super) fn push(&mut self, child: u32, b: &Aabb) -> bool {
        let s = self.count as usize;
        if s >= NODE_WIDTH {
            return false;
        }
        self.set_slot(s, child, b);
        self.count += 1;
        true
    }

    /// Removes slot `s`, moving the last slot into its place.
    pub(super) fn remove_slot(&mut self, s: usize) {
        let last = self.count as usize - 1;
        if s != last {
            let (c, b) = (self.child[last], self.slot_box(last));
            self.set_slot(s, c, &b);
        }
        let nan = Vec3::NAN;
        self.set_slot(last, NULL, &Aabb { min: nan, max: nan });
        self.count -= 1;
    }

    /// The union of the children's boxes (empty for no children).
    #[inline]
    pub(super) fn bounds(&self) -> Aabb {
        union_of(&self.lo, &self.hi, self.count as usize)
    }
}

/// A bucket: up to eight proxies in lanes `0..count` with their fat boxes, and the union of
/// those boxes (`bounds`, which may be larger after removals). Empty lanes hold [`NULL`] and
/// NaN boxes. 256 bytes, four cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Bucket {
    /// Per half (lanes 0–3, 4–7) and axis, the fat box minima.
    lo: [[Lanes; 3]; 2],
    /// Per half and axis, the fat box maxima.
    hi: [[Lanes; 3]; 2],
    /// The proxy in each lane; [`NULL`] when empty.
    pub(super) proxy: [u32; BUCKET_SIZE],
    /// A box containing every lane's box.
    pub(super) bounds: Aabb,
    /// The node holding this bucket; [`NULL`] for a free bucket.
    pub(super) parent: u32,
    /// Lanes in use (`0..count`).
    pub(super) count: u32,
}

impl Bucket {
    /// No proxies.
    pub(super) const EMPTY: Bucket = Bucket {
        lo: [[EMPTY_LANES; 3]; 2],
        hi: [[EMPTY_LANES; 3]; 2],
        proxy: [NULL; BUCKET_SIZE],
        bounds: Aabb::EMPTY,
        parent: NULL,
        count: 0,
    };

    /// Lane bits (eight) whose boxes touch the query (empty lanes never do).
    #[inline(always)]
    pub(super) fn touching(&self, q: &Query) -> u32 {
        let low = q.touching(load3(&self.lo[0]), load3(&self.hi[0]));
        let high = q.touching(load3(&self.lo[1]), load3(&self.hi[1]));
        low | high << 4
    }

    /// Entry times of a ray into the lanes' boxes (`INFINITY`: missed or empty lane).
    #[inline(always)]
    pub(super) fn ray_entries(&self, r: &RayLanes, max_t: f32) -> [f32; BUCKET_SIZE] {
        let n = self.count;
        let low = r.entries(
            load3(&self.lo[0]),
            load3(&self.hi[0]),
            max_t,
            first_lanes(n.min(4)),
        );
        // Lanes 4–7 empty: their boxes are not read.
        let high = if n > 4 {
            r.entries(
                load3(&self.lo[1]),
                load3(&self.hi[1]),
                max_t,
                first_lanes(n - 4),
            )
        } else {
            [f32::INFINITY; 4]
        };
        std::array::from_fn(|l| if l < 4 { low[l] } else { high[l - 4] })
    }

    /// The box of lane `l` (NaN for an empty lane).
    #[inline(always)]
    pub(super) fn lane_box(&self, l: usize) -> Aabb {
        let (h, k) = (l / 4 % 2, l % 4);
        Aabb {
            min: lane3(&self.lo[h], k),
            max: lane3(&self.hi[h], k),
        }
    }

    /// Lane `l` splatted as a query.
    #[inline(always)]
    pub(super) fn lane_query(&self, l: usize) -> Query {
        Query::new(&self.lane_box(l))
    }

    /// Sets the box of lane `l` (not `bounds`).
    #[inline]
    pub(super) fn set_lane_box(&mut self, l: usize, b: &Aabb) {
        let (h, k) = (l / 4 % 2, l % 4);
        set_lane3(&mut self.lo[h], k, b.min);
        set_lane3(&mut self.hi[h], k, b.max);
    }

    /// `true` when lane `l` is empty: no proxy and a NaN box.
    pub(super) fn lane_is_empty(&self, l: usize) -> bool {
        let b = self.lane_box(l);
        self.proxy[l] == NULL && b.min.is_nan() && b.max.is_nan()
    }

    /// Appends a proxy with its box, growing `bounds`; `None` when full, else its lane.
    pub(super) fn push(&mut self, proxy: u32, b: &Aabb) -> Option<usize> {
        let l = self.count as usize;
        if l >= BUCKET_SIZE {
            return None;
        }
        self.proxy[l] = proxy;
        self.set_lane_box(l, b);
        self.bounds = self.bounds.union(b);
        self.count += 1;
        Some(l)
    }

    /// Removes lane `l`, moving the last lane into its place; returns the proxy moved into
    /// lane `l` (`None` when `l` was the last). `bounds` is left as it was.
    pub(super) fn remove_lane(&mut self, l: usize) -> Option<u32> {
        let last = self.count as usize - 1;
        let moved = (l != last).then(|| {
            let (p, b) = (self.proxy[last], self.lane_box(last));
            self.proxy[l] = p;
            self.set_lane_box(l, &b);
            p
        });
        self.proxy[last] = NULL;
        let nan = Vec3::NAN;
        self.set_lane_box(last, &Aabb { min: nan, max: nan });
        self.count -= 1;
        moved
    }

    /// The union of the lanes' boxes (empty for no proxies).
    #[inline]
    pub(super) fn lanes_bounds(&self) -> Aabb {
        let n = self.count as usize;
        union_of(&self.lo[0], &self.hi[0], n.min(4)).union(&union_of(
            &self.lo[1],
            &self.hi[1],
            n.saturating_sub(4),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(c: Vec3) -> Aabb {
        Aabb::from_center_half_extents(c, Vec3::splat(0.5))
    }

    fn scalar_touch(a: &Aabb, b: &Aabb) -> bool {
        a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
    }

    #[test]
    fn node_slots_push_remove_and_touch() {
        let mut n = Node::EMPTY;
        let boxes: Vec<Aabb> = (0..4).map(|i| unit(Vec3::X * i as f32)).collect();
        for (i, b) in boxes.iter().enumerate() {
            assert!(n.push(i as u32, b));
        }
        assert!(!n.push(9, &boxes[0]), "a fifth child does not fit");
        assert_eq!(n.bounds(), boxes[0].union(&boxes[3]));
        // A point at x = 1.5 touches slots 1 and 2 (boundaries count).
        let q = Aabb::new(Vec3::new(1.5, 0.0, 0.0), Vec3::new(1.5, 0.0, 0.0));
        assert_eq!(n.touching(&Query::new(&q)), 0b0110);
        n.remove_slot(1);
        assert_eq!((n.count, n.child), (3, [0, 3, 2, NULL]));
        assert_eq!(n.slot_box(1), boxes[3]);
        assert!(n.slot_is_empty(3));
        assert_eq!(n.find(2), Some(2));
        assert_eq!(n.find(1), None);
        // NaN queries touch nothing.
        let nan = Aabb::new(Vec3::NAN, Vec3::NAN);
        assert_eq!(n.touching(&Query::new(&nan)), 0);
    }

    #[test]
    fn bucket_lanes_match_the_scalar_test() {
        let mut b = Bucket::EMPTY;
        let boxes: Vec<Aabb> = (0..8)
            .map(|i| unit(Vec3::new(i as f32 * 0.8, (i % 2) as f32, 0.0)))
            .collect();
        for (i, x) in boxes.iter().enumerate() {
            assert_eq!(b.push(10 + i as u32, x), Some(i));
        }
        assert_eq!(b.push(99, &boxes[0]), None);
        assert_eq!(b.lanes_bounds(), b.bounds);
        for q in &boxes {
            let want = boxes
                .iter()
                .enumerate()
                .filter(|(_, x)| scalar_touch(q, x))
                .fold(0u32, |m, (i, _)| m | 1 << i);
            assert_eq!(b.touching(&Query::new(q)), want);
        }
        for (l, x) in boxes.iter().enumerate() {
            assert_eq!(b.lane_box(l), *x);
            let splat = b.lane_query(l);
            assert_eq!(b.touching(&splat), b.touching(&Query::new(x)));
        }
        // Removing lane 2 moves lane 7 there.
        assert_eq!(b.remove_lane(2), Some(17));
        assert_eq!((b.count, b.proxy[2], b.proxy[7]), (7, 17, NULL));
        assert_eq!(b.lane_box(2), boxes[7]);
        assert_eq!(b.remove_lane(6), None);
        assert_eq!(b.count, 6);
        assert!(b.lane_is_empty(6) && b.lane_is_empty(7));
        // An empty lane never touches, even an infinite query.
        let all = Aabb::new(Vec3::NEG_INFINITY, Vec3::INFINITY);
        assert_eq!(b.touching(&Query::new(&all)), 0b11_1111);
    }
}
