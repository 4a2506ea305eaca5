//! Four boxes at a time: boxes stored as structure-of-arrays lanes (one `f32` lane per box
//! and coordinate) so that one packed compare or slab test (a glam `Vec4`) handles four
//! children of a tree node. Shared by the dynamic tree's nodes and buckets and the static
//! tree's nodes.

use crate::math::{splat3, Vec3};
use crate::shapes::Aabb;
use glam::{BVec4A, Vec4, Vec4Swizzles};

/// The bits of a lane mask for the first `n` lanes.
#[inline(always)]
pub(crate) fn first_lanes(n: u32) -> u32 {
    (1u32 << n) - 1
}

/// The lanes whose key `keep` accepts, by increasing key (ties in lane order), as
/// `(key, lane)` in the first `n` entries: the order a walk visits a node's children in.
/// Four at most: an insertion sort, fewer branches than a general sort on so few.
#[inline(always)]
pub(crate) fn lanes_by_key(
    keys: [f32; 4],
    keep: impl Fn(usize, f32) -> bool,
) -> ([(f32, usize); 4], usize) {
    // Keys and lanes in separate arrays, swapped as scalars: swapping the pairs in memory
    // stalls the loads of the sorted order that follow.
    let (mut key, mut lane) = ([f32::INFINITY; 4], [0usize; 4]);
    let mut n = 0;
    for (l, &k) in keys.iter().enumerate() {
        if keep(l, k) {
            key[n] = k;
            lane[n] = l;
            n += 1;
        }
    }
    for i in 1..n {
        let (k, l) = (key[i], lane[i]);
        let mut j = i;
        while j > 0 && key[j - 1] > k {
            key[j] = key[j - 1];
            lane[j] = lane[j - 1];
            j -= 1;
        }
        key[j] = k;
        lane[j] = l;
    }
    let order = [0, 1, 2, 3].map(|i| (key[i], lane[i]));
    (order, n)
}

/// The lanes a ray enters (`entries` below `INFINITY`), nearest first (ties in lane order), as
/// `(entry, lane)` in the first `n` entries: what [`lanes_by_key`] gives for finite keys,
/// without a branch per lane. A sorting network on four lanes (compare-exchange `0–1`, `2–3`,
/// then `0–2`, `1–3`, then `1–2`; Knuth, TAOCP vol. 3 §5.3.4), carrying the lane numbers along;
/// missed lanes (`INFINITY`) sort last.
#[inline(always)]
pub(crate) fn entered_by_distance(entries: [f32; 4]) -> ([(f32, usize); 4], usize) {
    let n = Vec4::from_array(entries)
        .cmplt(Vec4::INFINITY)
        .bitmask()
        .count_ones() as usize;
    let mut order = [(f32::INFINITY, 0usize); 4];
    let mut key = Vec4::from_array(entries);
    // Lane numbers as the bits of the lanes' floats: the network only selects them, and
    // reading the bits back costs no conversion.
    let mut lane = Vec4::from_array([0, 1, 2, 3].map(f32::from_bits));
    // One stage of compare-exchanges between each lane and its partner (`swap` permutes the
    // lanes into their partners); `low` marks the lanes that keep the smaller key. A lane keeps
    // its own key when it is already on the right side, ties included, so equal keys keep
    // their lane order and no key is lost.
    let stage = |key: Vec4, lane: Vec4, swap: fn(Vec4) -> Vec4, low: BVec4A| {
        let (other, other_lane) = (swap(key), swap(lane));
        let keep = (low & key.cmple(other)) | (!low & key.cmpge(other));
        (
            Vec4::select(keep, key, other),
            Vec4::select(keep, lane, other_lane),
        )
    };
    (key, lane) = stage(
        key,
        lane,
        |v| v.yxwz(),
        BVec4A::new(true, false, true, false),
    );
    (key, lane) = stage(
        key,
        lane,
        |v| v.zwxy(),
        BVec4A::new(true, true, false, false),
    );
    (key, lane) = stage(
        key,
        lane,
        |v| v.xzyw(),
        BVec4A::new(true, true, false, true),
    );
    let (key, lane) = (key.to_array(), lane.to_array());
    for k in 0..4 {
        order[k] = (key[k], lane[k].to_bits() as usize);
    }
    (order, n)
}

/// A query box splatted across four lanes per coordinate, built once per query.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query {
    lo: [Vec4; 3],
    hi: [Vec4; 3],
}

impl Query {
    /// The splatted box. A NaN coordinate matches nothing (every comparison with it is false).
    #[inline(always)]
    pub(crate) fn new(b: &Aabb) -> Query {
        Query {
            lo: splat3(b.min),
            hi: splat3(b.max),
        }
    }

    /// Lane bits of the boxes `lo`/`hi` (one per lane) that touch the query:
    /// `q.min <= b.max && b.min <= q.max` on every axis (Gomez 1999, listing 3, in min/max
    /// form; touching counts). Six packed compares and one `movmskps`.
    #[inline(always)]
    pub(crate) fn touching(&self, lo: [Vec4; 3], hi: [Vec4; 3]) -> u32 {
        let m: BVec4A = self.lo[0].cmple(hi[0])
            & lo[0].cmple(self.hi[0])
            & self.lo[1].cmple(hi[1])
            & lo[1].cmple(self.hi[1])
            & self.lo[2].cmple(hi[2])
            & lo[2].cmple(self.hi[2]);
        m.bitmask()
    }
}

/// A ray splatted across four lanes, for entry times into four boxes at once; the boxes may
/// be grown by a margin per axis (a box swept along the ray: the ray from its centre against
/// each box grown by its half-extents).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RayLanes {
    origin: [Vec4; 3],
    inv_dir: [Vec4; 3],
    margin: [Vec4; 3],
    /// A margin other than zero: the boxes are grown (with zero, growing changes nothing).
    grown: bool,
    /// Some `1/dir` is infinite (a zero or subnormal direction component): the slab test's
    /// `0 · inf` cases need the NaN handling.
    parallel: bool,
}

impl RayLanes {
    #[inline(always)]
    pub(crate) fn new(origin: Vec3, dir: Vec3, margin: Vec3) -> RayLanes {
        RayLanes {
            origin: splat3(origin),
            inv_dir: splat3(dir.recip()),
            margin: splat3(margin),
            grown: margin != Vec3::ZERO,
            parallel: !dir.recip().is_finite(),
        }
    }

    /// Entry times into the boxes `lo`/`hi` (grown by the margin) within `[0, max_t]`, one per
    /// lane; `INFINITY` where the ray misses. Slab test (Kay & Kajiya 1986), the far distance
    /// widened by `1 + 2γ₃` (PBRT §3.9.2) so rounding never loses a grazing hit. A ray
    /// parallel to a slab whose origin lies on its plane gives `0 · inf = NaN`: inside that
    /// slab for every `t`, so NaN counts as `−inf` near and `+inf` far. Lanes not in `valid`
    /// (bits) miss.
    #[inline(always)]
    pub(crate) fn entries(&self, lo: [Vec4; 3], hi: [Vec4; 3], max_t: f32, valid: u32) -> [f32; 4] {
        let (mut lo, mut hi) = (lo, hi);
        if self.grown {
            for k in 0..3 {
                lo[k] -= self.margin[k];
                hi[k] += self.margin[k];
            }
        }
        let mut near = Vec4::ZERO;
        let mut far = Vec4::splat(max_t);
        for k in 0..3 {
            let t1 = (lo[k] - self.origin[k]) * self.inv_dir[k];
            let t2 = (hi[k] - self.origin[k]) * self.inv_dir[k];
            let (n, f) = if self.parallel {
                let (nan1, nan2) = (t1.is_nan_mask(), t2.is_nan_mask());
                let (neg, pos) = (Vec4::NEG_INFINITY, Vec4::INFINITY);
                (
                    Vec4::select(nan1, neg, t1).min(Vec4::select(nan2, neg, t2)),
                    Vec4::select(nan1, pos, t1).max(Vec4::select(nan2, pos, t2)),
                )
            } else {
                // Every `1/dir` finite: a NaN comes only from an unused lane's NaN box,
                // which `valid` masks out.
                (t1.min(t2), t1.max(t2))
            };
            near = near.max(n);
            far = far.min(f * RAY_WIDEN);
        }
        let missed = !(near.cmple(far).bitmask() & valid) & 0b1111;
        near.max(MISSED[missed as usize]).to_array()
    }
}

/// Per set of missed lanes (bits), `INFINITY` in those lanes and `0` in the others: the
/// packed `max` with the entries turns the missed ones into `INFINITY` (a hit lane's entry is
/// `>= 0`, a missed lane's may be NaN, and `maxps` returns its second operand then).
const MISSED: [Vec4; 16] = {
    let mut table = [Vec4::ZERO; 16];
    let mut m = 0;
    while m < 16 {
        table[m] = Vec4::new(missed(m, 0), missed(m, 1), missed(m, 2), missed(m, 3));
        m += 1;
    }
    table
};

/// `INFINITY` when lane `l` is in the set `m` (bits), else `0`.
const fn missed(m: usize, l: usize) -> f32 {
    if m >> l & 1 != 0 {
        f32::INFINITY
    } else {
        0.0
    }
}

/// `1 + 2γ₃`, `γₙ = nε/(1 − nε)`, `ε = 2⁻²⁴`.
const RAY_WIDEN: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);

/// Four lanes of one coordinate, aligned for a packed load.
pub(crate) type Lanes = [f32; 4];

/// The empty lane value: every comparison with NaN is false, so an empty slot or lane never
/// touches anything (not even an infinite query box) and needs no mask.
pub(crate) const EMPTY_LANES: Lanes = [f32::NAN; 4];

/// Reads lane `l` of three coordinate arrays as a point.
#[inline(always)]
pub(crate) fn lane3(v: &[Lanes; 3], l: usize) -> Vec3 {
    Vec3::new(v[0][l], v[1][l], v[2][l])
}

/// Writes a point into lane `l` of three coordinate arrays.
#[inline(always)]
pub(crate) fn set_lane3(v: &mut [Lanes; 3], l: usize, p: Vec3) {
    v[0][l] = p.x;
    v[1][l] = p.y;
    v[2][l] = p.z;
}

/// Loads three coordinate arrays into `Vec4`s.
#[inline(always)]
pub(crate) fn load3(v: &[Lanes; 3]) -> [Vec4; 3] {
    [
        Vec4::from_array(v[0]),
        Vec4::from_array(v[1]),
        Vec4::from_array(v[2]),
    ]
}

/// The union of the boxes in lanes `0..n` (the empty box for none).
#[inline]
pub(crate) fn union_of(lo: &[Lanes; 3], hi: &[Lanes; 3], n: usize) -> Aabb {
    let mut u = Aabb::EMPTY;
    for l in 0..n {
        u = u.union(&Aabb {
            min: lane3(lo, l),
            max: lane3(hi, l),
        });
    }
    u
}
