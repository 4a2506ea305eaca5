//! Rays and swept boxes through the tree: nearest child first, four slab tests at a time.

use super::node::{is_bucket, Bucket, BUCKET, BUCKET_SIZE, NODE_WIDTH, NULL};
use super::DynamicBvh;
use crate::broadphase::lanes::{entered_by_distance, RayLanes};
use crate::broadphase::walk_stack::WalkStack;
use crate::broadphase::{prefetch, ray_box_entry, ProxyId};
use crate::math::Vec3;
use crate::shapes::Aabb;

impl DynamicBvh {
    /// The ray walk behind [`crate::broadphase::BroadPhase::ray_cast`] and
    /// [`crate::broadphase::BroadPhase::cast_aabb`]: every box
    /// grown by `margin`. Proxies moved since the last `update_pairs` (their lane box may be
    /// old) come first, from the moved list; then the tree, nearest child first, each subtree
    /// skipped once its entry lies beyond the bound `f` returns.
    // One piece: the moved-list pass and the tree walk share the packed ray and the running bound,
    // in every ray query's inner loop.
    pub(super) fn walk_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        margin: Vec3,
        max_t: f32,
        f: &mut dyn FnMut(ProxyId, f32) -> f32,
    ) {
        if !(origin.is_finite() && dir.is_finite() && margin.is_finite() && max_t >= 0.0) {
            return;
        }
        let inv = dir.recip();
        // The callback's bound ends the walk when NaN or negative.
        let stops = |bound: f32| bound.is_nan() || bound < 0.0;
        let grown = |b: Aabb| Aabb {
            min: b.min - margin,
            max: b.max + margin,
        };
        let mut bound = max_t;
        for &m in &self.moved {
            let i = m as usize;
            if !self.loc[i].is_live() {
                continue;
            }
            let tight = grown(self.boxes[i].tight.aabb());
            if let Some(t) = ray_box_entry(origin, dir, inv, &tight, bound) {
                bound = f(m, t);
                if stops(bound) {
                    return;
                }
            }
        }
        if self.root == NULL {
            return;
        }
        let lanes = RayLanes::new(origin, dir, margin);
        // The packed slab test computes `box − origin` in f32: it may overflow for a box near
        // f32::MAX seen from the far side of the origin, which the scalar test redoes in f64.
        let reach = |v: Vec3| v.abs().max_element();
        let packed = reach(origin) + self.nodes[self.root as usize].reach() + reach(margin) < 1e38;
        let slot_entries = |boxes: &mut dyn Iterator<Item = Aabb>, out: &mut [f32], bound: f32| {
            for (t, b) in out.iter_mut().zip(boxes) {
                *t = ray_box_entry(origin, dir, inv, &grown(b), bound).unwrap_or(f32::INFINITY);
            }
        };
        // Nothing moved since the last `update_pairs`: no proxy is flagged, no flag to read.
        let any_moved = !self.moved.is_empty();
        // The proxies of bucket `b` whose lane boxes the ray enters within the bound, nearest
        // first, each decided by its own box: returns the new bound (NaN or negative: stop).
        let mut walk_bucket = |b: &Bucket, mut bound: f32| -> f32 {
            let mut entries = [f32::INFINITY; BUCKET_SIZE];
            if packed {
                entries = b.ray_entries(&lanes, bound);
            } else {
                let mut boxes = (0..b.count as usize).map(|l| b.lane_box(l));
                slot_entries(&mut boxes, &mut entries, bound);
            }
            let mut order = [(f32::INFINITY, NULL); BUCKET_SIZE];
            let mut n = 0;
            for (l, &t) in entries.iter().enumerate() {
                if t.is_finite() && !(any_moved && self.moved_flag[b.proxy[l] as usize]) {
                    order[n] = (t, b.proxy[l]);
                    n += 1;
                }
            }
            order[..n].sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            for &(t, p) in &order[..n] {
                if t > bound {
                    break;
                }
                // The lane box is fat: the proxy's own box decides.
                let tight = grown(self.boxes[p as usize].tight.aabb());
                if let Some(t) = ray_box_entry(origin, dir, inv, &tight, bound) {
                    bound = f(p, t);
                    if stops(bound) {
                        return bound;
                    }
                }
            }
            bound
        };
        let ahead = self.worth_prefetching();
        // At most three siblings wait per level: 32 inline entries (cleared per ray) hold a
        // walk ten levels deep, the heap takes the rest.
        let mut stack = WalkStack::<(u32, f32), 32>::default();
        stack.push((self.root, 0.0));
        while let Some((c, near)) = stack.pop() {
            if near > bound {
                continue;
            }
            if is_bucket(c) {
                bound = walk_bucket(&self.buckets[(c & !BUCKET) as usize], bound);
                if stops(bound) {
                    return;
                }
                continue;
            }
            let node = &self.nodes[c as usize];
            let mut entries = [f32::INFINITY; NODE_WIDTH];
            if packed {
                entries = node.ray_entries(&lanes, bound);
            } else {
                let mut boxes = (0..node.count as usize).map(|s| node.slot_box(s));
                slot_entries(&mut boxes, &mut entries, bound);
            }
            let (order, n) = entered_by_distance(entries);
            // In a large tree every child entered starts loading now, while the nearer ones
            // are walked.
            for &(_, s) in &order[..n * usize::from(ahead)] {
                let child = node.child[s];
                if is_bucket(child) {
                    prefetch(&self.buckets[(child & !BUCKET) as usize]);
                } else {
                    prefetch(&self.nodes[child as usize]);
                }
            }
            // Buckets push nothing: walked here, nearest first, they are visited in the order
            // the stack would pop them. Then the child nodes, the farthest pushed first so
            // that the nearest is walked next.
            for &(t, s) in &order[..n] {
                let child = node.child[s];
                if is_bucket(child) && t <= bound {
                    bound = walk_bucket(&self.buckets[(child & !BUCKET) as usize], bound);
                    if stops(bound) {
                        return;
                    }
                }
            }
            for &(t, s) in order[..n].iter().rev() {
                let child = node.child[s];
                if !is_bucket(child) {
                    stack.push((child, t));
                }
            }
        }
    }
}
