//! One frame of a broad phase, the same work for collide and for parry3d: take the boxes of
//! the frame, bring the structure up to date, and produce the exact set of touching pairs.
//!
//! Shared (by `#[path]`) between `benches/broadphase.rs`, which times it, and
//! `tests/parry/broadphase.rs`, which checks that every variant produces the brute-force pair
//! set — so the benchmark compares runs that give the same answer.

#![allow(dead_code)]

use collide::broadphase::{BroadPhase, CollisionGroups, DynamicBvh, SweepAndPrune};
use collide::shapes::Aabb;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A broad phase driven one frame at a time.
pub trait Frame {
    /// Short name for tables.
    fn name(&self) -> &'static str;
    /// Inserts every box (frame 0); box `i` gets id `i`.
    fn build(&mut self, boxes: &[Aabb]);
    /// Moves box `i` to `boxes[i]` for all `i`, then writes the touching pairs into `out`.
    fn frame(&mut self, boxes: &[Aabb], out: &mut Vec<(u32, u32)>);
}

/// collide's broad phases through the `BroadPhase` trait.
pub struct Ours<B: BroadPhase> {
    pub bp: B,
    pub name: &'static str,
}

pub fn ours_sap() -> Ours<SweepAndPrune> {
    Ours {
        bp: SweepAndPrune::new(),
        name: "collide SAP",
    }
}

pub fn ours_bvh() -> Ours<DynamicBvh> {
    Ours {
        bp: DynamicBvh::new(),
        name: "collide BVH",
    }
}

impl<B: BroadPhase> Frame for Ours<B> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn build(&mut self, boxes: &[Aabb]) {
        for b in boxes {
            self.bp
                .insert(*b, CollisionGroups::ALL)
                .expect("scene boxes are finite");
        }
        let mut out = Vec::new();
        self.bp.update_pairs(&mut out);
    }

    fn frame(&mut self, boxes: &[Aabb], out: &mut Vec<(u32, u32)>) {
        for (i, b) in boxes.iter().enumerate() {
            self.bp
                .update(i as u32, *b)
                .expect("live proxy, finite box");
        }
        self.bp.update_pairs(out);
    }
}

#[inline]
fn to_parry(b: &Aabb) -> PAabb {
    PAabb::new(b.min, b.max)
}

#[inline]
fn touch(a: &Aabb, b: &Aabb) -> bool {
    a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// parry's `Bvh` used statelessly: leaves updated in place with no margin, `refit`, then a
/// full tree-vs-itself traversal (`traverse_bvtt_single_tree::<false>`), keeping the pairs
/// whose boxes touch.
pub struct ParryFull {
    bvh: Bvh,
    ws: BvhWorkspace,
    tight: Vec<Aabb>,
}

impl ParryFull {
    pub fn new() -> ParryFull {
        ParryFull {
            bvh: Bvh::new(),
            ws: BvhWorkspace::default(),
            tight: Vec::new(),
        }
    }
}

impl Frame for ParryFull {
    fn name(&self) -> &'static str {
        "parry full"
    }

    fn build(&mut self, boxes: &[Aabb]) {
        let leaves: Vec<PAabb> = boxes.iter().map(to_parry).collect();
        self.bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &leaves);
        self.tight = boxes.to_vec();
    }

    fn frame(&mut self, boxes: &[Aabb], out: &mut Vec<(u32, u32)>) {
        for (i, b) in boxes.iter().enumerate() {
            self.bvh
                .insert_or_update_partially(to_parry(b), i as u32, 0.0);
        }
        self.tight.copy_from_slice(boxes);
        self.bvh.refit(&mut self.ws);
        out.clear();
        let tight = &self.tight;
        self.bvh
            .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| {
                if touch(&tight[a as usize], &tight[b as usize]) {
                    out.push((a.min(b), a.max(b)));
                }
            });
    }
}

/// The finaliser of MurmurHash3 over a `u64` key: the same cheap hasher collide's pair sets
/// use, so neither side pays for SipHash.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 ^= x;
    }
}

/// parry's `Bvh` used incrementally the way a physics engine's broad phase uses it: leaves
/// fattened by `margin` and updated only when they leave their fat box
/// (`insert_or_update_partially` with change detection), `optimize_incremental`, `refit`, a
/// traversal restricted to changed leaves (`traverse_bvtt_single_tree::<true>`) feeding a
/// persistent set of fat pairs, pairs whose changed fat leaves no longer intersect dropped,
/// and the pairs whose tight boxes touch reported.
pub struct ParryIncremental {
    bvh: Bvh,
    ws: BvhWorkspace,
    tight: Vec<Aabb>,
    margin: f32,
    pairs: HashSet<u64, BuildHasherDefault<KeyHasher>>,
}

impl ParryIncremental {
    pub fn new(margin: f32) -> ParryIncremental {
        ParryIncremental {
            bvh: Bvh::new(),
            ws: BvhWorkspace::default(),
            tight: Vec::new(),
            margin,
            pairs: HashSet::default(),
        }
    }
}

impl Frame for ParryIncremental {
    fn name(&self) -> &'static str {
        "parry incremental"
    }

    fn build(&mut self, boxes: &[Aabb]) {
        self.tight = boxes.to_vec();
        let mut out = Vec::new();
        self.frame(boxes, &mut out);
    }

    fn frame(&mut self, boxes: &[Aabb], out: &mut Vec<(u32, u32)>) {
        for (i, b) in boxes.iter().enumerate() {
            self.bvh
                .insert_or_update_partially(to_parry(b), i as u32, self.margin);
        }
        self.tight.copy_from_slice(boxes);
        self.bvh.optimize_incremental(&mut self.ws);
        self.bvh.refit(&mut self.ws);
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<true>(&mut self.ws, &mut |a, b| {
                let (lo, hi) = (a.min(b), a.max(b));
                pairs.insert(u64::from(lo) << 32 | u64::from(hi));
            });
        out.clear();
        let (bvh, tight) = (&self.bvh, &self.tight);
        self.pairs.retain(|&k| {
            let (a, b) = ((k >> 32) as u32, k as u32);
            let (Some(na), Some(nb)) = (bvh.leaf_node(a), bvh.leaf_node(b)) else {
                return false;
            };
            if (na.is_changed() || nb.is_changed()) && !na.intersects(nb) {
                return false;
            }
            if touch(&tight[a as usize], &tight[b as usize]) {
                out.push((a, b));
            }
            true
        });
    }
}
