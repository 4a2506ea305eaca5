//! A static bounding-volume tree over boxes (a mesh's triangles, a world's fixed bodies):
//! built once by the binned surface-area heuristic, flattened into an array, and walked with
//! a fixed stack.
//!
//! Build (Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, 2007): at
//! each node the triangles' centroids are dropped into [`BINS`] bins along each axis; the
//! split between bins that minimises `A_left · N_left + A_right · N_right` (the expected cost
//! of a ray that hits the node, with `A` the surface area of a side's box) is taken when it
//! beats keeping the node a leaf. Nodes deeper than [`MEDIAN_DEPTH`] split at the median, so
//! no tree is deeper than `MEDIAN_DEPTH + 32` and the traversal stack never overflows.
//!
//! Layout: an internal node's two children are adjacent (`first`, `first + 1`), so a node is
//! 32 bytes: its box and two `u32`s. Leaves hold a range of the item order.

use crate::math::{Vec3, Vec3A};
use crate::shapes::Aabb;

/// Number of centroid bins per axis in the SAH build.
const BINS: usize = 16;
/// Most items in a leaf.
const MAX_LEAF: u32 = 4;
/// Below this depth the SAH chooses splits; from it on, nodes split at the median.
const MEDIAN_DEPTH: usize = 40;
/// Traversal stack size: the deepest tree plus one pending sibling per level.
const STACK: usize = MEDIAN_DEPTH + 40;
/// Relative cost of visiting a node against testing one item (the SAH's `C_trav / C_isect`).
const TRAVERSAL_COST: f32 = 1.0;

/// One node: a box and either two adjacent children or a range of items.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub(crate) struct Node {
    pub min: Vec3,
    /// Internal: index of the first child (the second is `first + 1`). Leaf: first item.
    pub first: u32,
    pub max: Vec3,
    /// Number of items; 0 for an internal node.
    pub count: u32,
}

impl Node {
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    #[inline]
    fn aabb(&self) -> Aabb {
        Aabb {
            min: self.min,
            max: self.max,
        }
    }
}

/// Why a tree is not valid (returned by [`MeshCollider::validate`](crate::mesh::MeshCollider::validate)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeDefect {
    /// The node at fault.
    pub node: usize,
    /// What is wrong with it.
    pub what: &'static str,
}

impl std::fmt::Display for TreeDefect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tree node {}: {}", self.node, self.what)
    }
}

impl std::error::Error for TreeDefect {}

/// The tree: nodes (root at 0) and the item order its leaves index.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StaticTree {
    pub nodes: Vec<Node>,
}

/// A ray prepared for slab tests against many boxes: origin and reciprocal direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlabRay {
    origin: Vec3A,
    inv_dir: Vec3A,
    /// Every box grown by this much per axis (zero for a ray; a box's half-extents for the
    /// box swept along the ray).
    margin: Vec3A,
}

impl SlabRay {
    #[inline]
    pub fn new(origin: Vec3, dir: Vec3) -> SlabRay {
        SlabRay::grown(origin, dir, Vec3::ZERO)
    }

    /// A ray against boxes grown by `margin`.
    #[inline]
    pub fn grown(origin: Vec3, dir: Vec3, margin: Vec3) -> SlabRay {
        SlabRay {
            origin: origin.into(),
            inv_dir: Vec3A::from(dir).recip(),
            margin: margin.into(),
        }
    }

    /// The entry parameter of the ray into `node`'s box within `[0, max_t]`, or `None`.
    ///
    /// Slab test (Kay & Kajiya 1986) with the far distance widened by `1 + 2γ₃` (PBRT
    /// §3.9.2) so rounding never loses a grazing hit. A ray parallel to a slab (a zero
    /// direction component, reciprocal `±inf`) whose origin lies on the slab's plane gives
    /// `0 · inf = NaN`: such a ray is inside that slab for every `t`, so a NaN bound counts
    /// as `−inf` on the near side and `+inf` on the far side.
    #[inline(always)]
    fn enter(&self, node: &Node, max_t: f32) -> Option<f32> {
        let t1 = (Vec3A::from(node.min) - self.margin - self.origin) * self.inv_dir;
        let t2 = (Vec3A::from(node.max) + self.margin - self.origin) * self.inv_dir;
        let (nan1, nan2) = (t1.is_nan_mask(), t2.is_nan_mask());
        let (lo, hi) = (Vec3A::NEG_INFINITY, Vec3A::INFINITY);
        let near_v = Vec3A::select(nan1, lo, t1).min(Vec3A::select(nan2, lo, t2));
        let far_v = Vec3A::select(nan1, hi, t1).max(Vec3A::select(nan2, hi, t2));
        let near = near_v.max_element().max(0.0);
        let far = far_v.min_element() * WIDEN;
        (near <= far.min(max_t)).then_some(near)
    }
}

/// `1 + 2γ₃`, `γₙ = nε/(1 − nε)`, `ε = 2⁻²⁴`.
const WIDEN: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);

/// A ray's walk through a [`StaticTree`], nearer child first, that can stop and go on: the
/// nodes still to visit, each with the parameter at which the ray enters it.
#[derive(Clone, Debug)]
pub(crate) struct RayWalk {
    ray: SlabRay,
    stack: [(u32, f32); STACK],
    top: usize,
}

impl RayWalk {
    /// A walk that visits nothing.
    fn done(ray: SlabRay) -> RayWalk {
        RayWalk {
            ray,
            stack: [(0, 0.0); STACK],
            top: 0,
        }
    }

    /// The walk before its first step: the root, if the ray enters it within `max_t`.
    fn start(tree: &StaticTree, ray: SlabRay, max_t: f32) -> RayWalk {
        let mut walk = RayWalk::done(ray);
        if let Some(t) = tree.nodes.first().and_then(|root| ray.enter(root, max_t)) {
            walk.stack[0] = (0, t);
            walk.top = 1;
        }
        walk
    }

    /// Walks on until the next node to visit is entered beyond `until` (to the end for
    /// `INFINITY`), calling `hit(item, bound)` for every item of the leaves reached, each
    /// returning the new bound (nodes entered beyond it are skipped); returns the bound. A
    /// NaN or negative bound ends the walk.
    pub fn advance(
        &mut self,
        tree: &StaticTree,
        until: f32,
        mut bound: f32,
        mut hit: impl FnMut(u32, f32) -> f32,
    ) -> f32 {
        while self.top > 0 {
            let (index, near) = self.stack[self.top - 1];
            if near > until && near <= bound {
                // Later: the other tree's nearer candidates go first.
                return bound;
            }
            self.top -= 1;
            if near > bound {
                continue;
            }
            let node = &tree.nodes[index as usize];
            if node.is_leaf() {
                for item in node.first..node.first + node.count {
                    bound = hit(item, bound);
                    if bound.is_nan() || bound < 0.0 {
                        self.top = 0;
                        return bound;
                    }
                }
                continue;
            }
            self.push_children(tree, node, bound);
        }
        bound
    }

    /// Pushes the children of `node` that the ray enters within `bound`, the farther first so
    /// that the nearer one is walked next.
    #[inline(always)]
    fn push_children(&mut self, tree: &StaticTree, node: &Node, bound: f32) {
        let (a, b) = (node.first, node.first + 1);
        let ta = self.ray.enter(&tree.nodes[a as usize], bound);
        let tb = self.ray.enter(&tree.nodes[b as usize], bound);
        let mut push = |entry: (u32, f32)| {
            self.stack[self.top] = entry;
            self.top += 1;
        };
        match (ta, tb) {
            (Some(ta), Some(tb)) if ta <= tb => {
                push((b, tb));
                push((a, ta));
            }
            (Some(ta), Some(tb)) => {
                push((a, ta));
                push((b, tb));
            }
            (Some(ta), None) => push((a, ta)),
            (None, Some(tb)) => push((b, tb)),
            (None, None) => {}
        }
    }
}

/// One bin of the SAH sweep: the box and count of the centroids that fell in it.
#[derive(Clone, Copy)]
struct Bin {
    bounds: Aabb,
    count: u32,
}

impl StaticTree {
    /// Builds the tree over items with these boxes and reorders `order` (which must hold
    /// `0..boxes.len()`) so that each leaf's items are contiguous. No items: an empty tree.
    /// Boxes must be finite.
    pub fn build(boxes: &[Aabb], order: &mut [u32]) -> StaticTree {
        let n = order.len();
        if n == 0 {
            return StaticTree::default();
        }
        let centroids: Vec<Vec3> = boxes.iter().map(Aabb::center).collect();
        let mut nodes = Vec::with_capacity(2 * n / MAX_LEAF as usize + 1);
        nodes.push(Node {
            min: Vec3::ZERO,
            first: 0,
            max: Vec3::ZERO,
            count: 0,
        });
        // Pending nodes: (index, first item, item count, depth).
        let mut pending = vec![(0usize, 0usize, n, 0usize)];
        let mut scratch = Vec::with_capacity(n);
        while let Some((index, start, count, depth)) = pending.pop() {
            let items = &mut order[start..start + count];
            let bounds = items
                .iter()
                .fold(Aabb::EMPTY, |b, &i| b.union(&boxes[i as usize]));
            let mid = if count as u32 <= MAX_LEAF {
                None
            } else if depth >= MEDIAN_DEPTH {
                Some(median_split(items, &centroids))
            } else {
                sah_split(items, boxes, &centroids, &bounds, &mut scratch)
            };
            let node = &mut nodes[index];
            node.min = bounds.min;
            node.max = bounds.max;
            match mid {
                None => {
                    node.first = start as u32;
                    node.count = count as u32;
                }
                Some(mid) => {
                    let first = nodes.len();
                    nodes[index].first = first as u32;
                    nodes[index].count = 0;
                    let blank = nodes[index];
                    nodes.push(blank);
                    nodes.push(blank);
                    pending.push((first + 1, start + mid, count - mid, depth + 1));
                    pending.push((first, start, mid, depth + 1));
                }
            }
        }
        StaticTree { nodes }
    }

    /// The root box; [`Aabb::EMPTY`] for an empty tree.
    pub fn bounds(&self) -> Aabb {
        self.nodes.first().map_or(Aabb::EMPTY, Node::aabb)
    }

    /// Visits the items whose leaf boxes a ray enters within `[0, max_t]`, nearer boxes first.
    ///
    /// `hit(item, max_t)` returns the new bound: the parameter of a hit it found (boxes
    /// entered beyond it are skipped), or the `max_t` it was given to keep searching. A
    /// returned NaN or negative bound ends the walk.
    pub fn ray(&self, origin: Vec3, dir: Vec3, max_t: f32, hit: impl FnMut(u32, f32) -> f32) {
        self.walk(SlabRay::new(origin, dir), max_t, hit);
    }

    fn walk(&self, ray: SlabRay, max_t: f32, hit: impl FnMut(u32, f32) -> f32) {
        RayWalk::start(self, ray, max_t).advance(self, f32::INFINITY, max_t, hit);
    }

    /// [`StaticTree::ray`] as a walk that can stop and go on ([`RayWalk::advance`]), for
    /// walking this tree in step with another.
    pub fn ray_walk(&self, origin: Vec3, dir: Vec3, max_t: f32) -> RayWalk {
        RayWalk::start(self, SlabRay::new(origin, dir), max_t)
    }

    /// The walk of a box moving by `motion` from `aabb`: the ray from its centre against every
    /// node box grown by its half-extents, `t` in units of `motion`; it can stop and go on
    /// ([`RayWalk::advance`]).
    pub fn cast_box_walk(&self, aabb: &Aabb, motion: Vec3, max_t: f32) -> RayWalk {
        if !aabb.is_finite() || aabb.is_empty() {
            return RayWalk::done(SlabRay::new(Vec3::ZERO, motion));
        }
        let ray = SlabRay::grown(aabb.center(), motion, aabb.half_extents());
        RayWalk::start(self, ray, max_t)
    }

    /// Visits the items whose leaf boxes touch `query`; `visit` returns `false` to stop.
    pub fn query_aabb(&self, query: &Aabb, mut visit: impl FnMut(u32) -> bool) {
        if self.nodes.is_empty() {
            return;
        }
        let (qmin, qmax) = (Vec3A::from(query.min), Vec3A::from(query.max));
        let touches = |n: &Node| {
            // NaN in the query makes every comparison false: nothing touches.
            Vec3A::from(n.min).cmple(qmax).all() && qmin.cmple(Vec3A::from(n.max)).all()
        };
        let mut stack = [0u32; STACK];
        let mut top = 0;
        if touches(&self.nodes[0]) {
            top = 1;
        }
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if node.is_leaf() {
                for item in node.first..node.first + node.count {
                    if !visit(item) {
                        return;
                    }
                }
                continue;
            }
            for child in [node.first + 1, node.first] {
                if touches(&self.nodes[child as usize]) {
                    stack[top] = child;
                    top += 1;
                }
            }
        }
    }

    /// Visits items by increasing distance of their leaf boxes from `p`, skipping boxes
    /// farther than the bound: `visit(item, bound²)` returns the new squared bound (the
    /// squared distance of the best item so far).
    pub fn nearest(&self, p: Vec3, max_dist2: f32, mut visit: impl FnMut(u32, f32) -> f32) {
        if self.nodes.is_empty() {
            return;
        }
        let p = Vec3A::from(p);
        let dist2 = |n: &Node| {
            let q = p.clamp(Vec3A::from(n.min), Vec3A::from(n.max));
            (p - q).length_squared()
        };
        let mut bound = max_dist2;
        let mut stack = [(0u32, 0.0f32); STACK];
        stack[0] = (0, dist2(&self.nodes[0]));
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (index, d2) = stack[top];
            if d2 > bound {
                continue;
            }
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                for item in node.first..node.first + node.count {
                    bound = visit(item, bound);
                }
                continue;
            }
            let (a, b) = (node.first, node.first + 1);
            let (da, db) = (
                dist2(&self.nodes[a as usize]),
                dist2(&self.nodes[b as usize]),
            );
            let (near, far) = if da <= db {
                ((a, da), (b, db))
            } else {
                ((b, db), (a, da))
            };
            if far.1 <= bound {
                stack[top] = far;
                top += 1;
            }
            if near.1 <= bound {
                stack[top] = near;
                top += 1;
            }
        }
    }

    /// Visits the pairs of items (one from each tree) whose leaf boxes touch, `other`'s boxes
    /// moved into this tree's frame by `to_self`; `visit` returns `false` to stop. Both trees
    /// are walked together (a simultaneous descent, Gottschalk, Lin & Manocha 1996), always
    /// splitting the node with the larger box.
    pub fn pairs_with(
        &self,
        other: &StaticTree,
        to_self: &crate::math::Affine3A,
        mut visit: impl FnMut(u32, u32) -> bool,
    ) {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let moved = |n: &Node| n.aabb().transformed(to_self);
        let mut stack = vec![(0u32, 0u32)];
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            let bb = moved(b);
            if !crate::overlap::aabb_aabb(&a.aabb(), &bb) {
                continue;
            }
            match (a.is_leaf(), b.is_leaf()) {
                (true, true) => {
                    for x in a.first..a.first + a.count {
                        for y in b.first..b.first + b.count {
                            if !visit(x, y) {
                                return;
                            }
                        }
                    }
                }
                (false, true) => stack.extend([(a.first, j), (a.first + 1, j)]),
                (true, false) => stack.extend([(i, b.first), (i, b.first + 1)]),
                (false, false) => {
                    if a.aabb().surface_area() >= bb.surface_area() {
                        stack.extend([(a.first, j), (a.first + 1, j)]);
                    } else {
                        stack.extend([(i, b.first), (i, b.first + 1)]);
                    }
                }
            }
        }
    }

    /// Checks the invariants against the item boxes in leaf order: every child box inside
    /// its parent's, every item box inside its leaf's, every item in exactly one leaf, child
    /// indices in range and visited once, depth within the traversal stack.
    pub fn validate(&self, boxes_in_order: &[Aabb]) -> Result<(), TreeDefect> {
        let n = boxes_in_order.len();
        if self.nodes.is_empty() {
            return if n == 0 {
                Ok(())
            } else {
                Err(TreeDefect {
                    node: 0,
                    what: "items but no nodes",
                })
            };
        }
        let mut seen_item = vec![false; n];
        let mut seen_node = vec![false; self.nodes.len()];
        let mut pending = vec![(0usize, 0usize)];
        while let Some((index, depth)) = pending.pop() {
            let fail = |what| Err(TreeDefect { node: index, what });
            if std::mem::replace(&mut seen_node[index], true) {
                return fail("node reached twice");
            }
            if depth > MEDIAN_DEPTH + 32 {
                return fail("deeper than the traversal stack allows");
            }
            let node = &self.nodes[index];
            if !(node.min.is_finite() && node.max.is_finite() && node.min.cmple(node.max).all()) {
                return fail("box not finite or inverted");
            }
            if node.is_leaf() {
                let (first, count) = (node.first as usize, node.count as usize);
                if first + count > n {
                    return fail("leaf range past the items");
                }
                for item in first..first + count {
                    if std::mem::replace(&mut seen_item[item], true) {
                        return fail("item in two leaves");
                    }
                    if !node.aabb().contains(&boxes_in_order[item]) {
                        return fail("item box outside its leaf");
                    }
                }
            } else {
                let first = node.first as usize;
                if first + 1 >= self.nodes.len() || first <= index {
                    return fail("child index out of range");
                }
                for child in [first, first + 1] {
                    if !node.aabb().contains(&self.nodes[child].aabb()) {
                        return fail("child box outside its parent");
                    }
                    pending.push((child, depth + 1));
                }
            }
        }
        if let Some(item) = seen_item.iter().position(|s| !s) {
            return Err(TreeDefect {
                node: item,
                what: "item in no leaf",
            });
        }
        if let Some(node) = seen_node.iter().position(|s| !s) {
            return Err(TreeDefect {
                node,
                what: "node unreachable",
            });
        }
        Ok(())
    }
}

/// The SAH's best split of `items`: they are reordered so the first `mid` go left. `None`
/// when keeping a leaf is cheaper (and allowed) or no bin boundary separates the centroids
/// (then a median split when the node is too big for a leaf).
fn sah_split(
    items: &mut [u32],
    boxes: &[Aabb],
    centroids: &[Vec3],
    bounds: &Aabb,
    scratch: &mut Vec<u32>,
) -> Option<usize> {
    let count = items.len();
    let cbounds = items
        .iter()
        .fold(Aabb::EMPTY, |b, &i| b.including(centroids[i as usize]));
    let extent = cbounds.max - cbounds.min;
    let splits = extent.cmpgt(Vec3::ZERO);
    // Bins per axis, filled in one pass over the items: a centroid falls in bin
    // `⌊(c − min) · BINS / extent⌋` (the last bin closed) on each axis that has an extent.
    let scale = Vec3::select(splits, Vec3::splat(BINS as f32) / extent, Vec3::ZERO);
    let bin_of = |c: Vec3| {
        let k = ((c - cbounds.min) * scale).to_array();
        k.map(|k| (k as usize).min(BINS - 1))
    };
    let mut bins = [[Bin {
        bounds: Aabb::EMPTY,
        count: 0,
    }; BINS]; 3];
    for &i in items.iter() {
        let k = bin_of(centroids[i as usize]);
        let b = &boxes[i as usize];
        for axis in 0..3 {
            let bin = &mut bins[axis][k[axis]];
            bin.bounds = bin.bounds.union(b);
            bin.count += 1;
        }
    }
    // (cost, axis, first bin on the right).
    let mut best: Option<(f32, usize, usize)> = None;
    for (axis, bins) in bins.iter().enumerate() {
        if !splits.test(axis) {
            continue;
        }
        // Sweep from the right: area·count of bins k.. for each k.
        let mut right_cost = [0.0f32; BINS];
        let (mut acc, mut n) = (Aabb::EMPTY, 0u32);
        for k in (1..BINS).rev() {
            acc = acc.union(&bins[k].bounds);
            n += bins[k].count;
            right_cost[k] = if n == 0 {
                0.0
            } else {
                acc.surface_area() * n as f32
            };
        }
        let (mut acc, mut n) = (Aabb::EMPTY, 0u32);
        for k in 1..BINS {
            acc = acc.union(&bins[k - 1].bounds);
            n += bins[k - 1].count;
            if n == 0 || n as usize == count {
                continue;
            }
            let cost = acc.surface_area() * n as f32 + right_cost[k];
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, k));
            }
        }
    }
    let Some((cost, axis, k)) = best else {
        return (count as u32 > MAX_LEAF).then(|| median_split(items, centroids));
    };
    // Leaf cost `N` against `C_trav + (split cost) / A_node`.
    let area = bounds.surface_area();
    let split_cost = TRAVERSAL_COST + if area > 0.0 { cost / area } else { 0.0 };
    if count as u32 <= MAX_LEAF && split_cost >= count as f32 {
        return None;
    }
    let mid = partition(items, scratch, |i| bin_of(centroids[i as usize])[axis] < k);
    Some(mid)
}

/// Splits at the median centroid along the box's longest centroid axis (ties by index, so
/// the order is deterministic); the first half goes left.
fn median_split(items: &mut [u32], centroids: &[Vec3]) -> usize {
    let cbounds = items
        .iter()
        .fold(Aabb::EMPTY, |b, &i| b.including(centroids[i as usize]));
    let axis = (cbounds.max - cbounds.min).max_position();
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |&a, &b| {
        let (ca, cb) = (centroids[a as usize][axis], centroids[b as usize][axis]);
        ca.total_cmp(&cb).then(a.cmp(&b))
    });
    mid
}

/// Moves the items for which `left` holds to the front, keeping each side's relative order;
/// returns how many went left. The right side waits in `scratch` (reused across the build).
fn partition(items: &mut [u32], scratch: &mut Vec<u32>, left: impl Fn(u32) -> bool) -> usize {
    scratch.clear();
    let mut mid = 0;
    for k in 0..items.len() {
        let i = items[k];
        if left(i) {
            items[mid] = i;
            mid += 1;
        } else {
            scratch.push(i);
        }
    }
    items[mid..].copy_from_slice(scratch);
    mid
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_boxes(n: usize) -> Vec<Aabb> {
        (0..n)
            .map(|i| {
                let c = Vec3::new(i as f32 * 1.5, (i % 7) as f32, (i % 3) as f32);
                Aabb::from_center_half_extents(c, Vec3::splat(0.5))
            })
            .collect()
    }

    fn built(boxes: &[Aabb]) -> (StaticTree, Vec<Aabb>) {
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let tree = StaticTree::build(boxes, &mut order);
        let in_order = order.iter().map(|&i| boxes[i as usize]).collect();
        (tree, in_order)
    }

    #[test]
    fn empty_single_and_many_items_validate() {
        for n in [0, 1, 4, 5, 100, 1000] {
            let boxes = unit_boxes(n);
            let (tree, in_order) = built(&boxes);
            assert_eq!(tree.validate(&in_order), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn identical_boxes_split_by_median_and_stay_shallow() {
        // 10,000 copies of one box: no SAH split separates them; medians bound the depth.
        let boxes = vec![Aabb::from_center_half_extents(Vec3::ONE, Vec3::ONE); 10_000];
        let (tree, in_order) = built(&boxes);
        assert_eq!(tree.validate(&in_order), Ok(()));
        let mut count = 0;
        tree.query_aabb(&Aabb::new(Vec3::ZERO, Vec3::ONE), |_| {
            count += 1;
            true
        });
        assert_eq!(count, 10_000);
    }

    #[test]
    fn queries_match_brute_force() {
        let boxes = unit_boxes(500);
        let (tree, in_order) = built(&boxes);
        let q = Aabb::new(Vec3::new(10.0, 0.0, 0.0), Vec3::new(40.0, 2.0, 1.0));
        let mut got = Vec::new();
        tree.query_aabb(&q, |i| {
            // Leaves are candidates: keep the items whose own box touches.
            if crate::overlap::aabb_aabb(&in_order[i as usize], &q) {
                got.push(i);
            }
            true
        });
        got.sort_unstable();
        let want: Vec<u32> = (0..in_order.len() as u32)
            .filter(|&i| crate::overlap::aabb_aabb(&in_order[i as usize], &q))
            .collect();
        assert_eq!(got, want);
        // Nearest: the closest box to a far point.
        let p = Vec3::new(200.0, 30.0, -4.0);
        let mut best = (u32::MAX, f32::INFINITY);
        tree.nearest(p, f32::INFINITY, |i, bound| {
            let d2 = crate::closest::distance_squared_point_aabb(p, &in_order[i as usize]);
            if d2 < best.1 {
                best = (i, d2);
            }
            bound.min(d2)
        });
        let want = in_order
            .iter()
            .map(|b| crate::closest::distance_squared_point_aabb(p, b))
            .fold(f32::INFINITY, f32::min);
        assert_eq!(best.1, want);
    }

    #[test]
    fn validate_reports_a_box_outside_its_parent() {
        let boxes = unit_boxes(50);
        let (mut tree, in_order) = built(&boxes);
        tree.nodes[1].max += Vec3::splat(1000.0);
        assert!(tree.validate(&in_order).is_err());
    }
}
