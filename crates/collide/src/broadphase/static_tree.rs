//! A static bounding-volume tree over boxes (a mesh's triangles, a world's fixed bodies):
//! built once by the binned surface-area heuristic, collapsed into nodes of four children,
//! and walked with four slab tests (or box compares) at a time.
//!
//! Build (Wald, *On fast Construction of SAH-based Bounding Volume Hierarchies*, 2007): at
//! each node the items' centroids are dropped into [`BINS`] bins ([`SMALL_BINS`] in nodes of
//! at most [`SMALL_NODE`] items) along the longest axis of their bounds; the split between
//! bins that minimises `A_left · N_left + A_right · N_right` (the expected cost of a ray that
//! hits the node, with `A` the surface area of a side's box) is taken when it beats keeping
//! the node a leaf. The sides' bounds come from the bins, so each node costs one pass to bin
//! its items and one to partition them. Nodes deeper than [`MEDIAN_DEPTH`] split at the
//! median, so no tree is deeper than `MEDIAN_DEPTH + 32`.
//!
//! Collapse (Wald, Benthin & Boulos, *Getting Rid of Packets*, 2008; Dammertz et al., *Shallow
//! Bounding Volume Hierarchies*, 2008): each node of the wide tree takes the binary tree's
//! node and opens its largest-area inner child until it has four children or only leaves,
//! so one node holds two levels of the binary tree and a walk makes half the steps.
//!
//! Layout: a node is 128 bytes (two cache lines): its four children's boxes as lanes
//! ([`lanes`](crate::broadphase::lanes)), and per child either the index of its node or the
//! range of items of its leaf. Leaves hold at most [`MAX_LEAF`] items of the item order.

use crate::broadphase::lanes::{
    entered_by_distance, first_lanes, lane3, lanes_by_key, load3, set_lane3, Lanes, Query,
    RayLanes, EMPTY_LANES,
};
use crate::broadphase::walk_stack::WalkStack;
use crate::broadphase::{prefetch, PREFETCH_BYTES};
use crate::math::{splat3, Vec3, Vec3A};
use crate::par;
use crate::shapes::Aabb;
use glam::Vec4;

/// Number of centroid bins per axis in the SAH build.
const BINS: usize = 16;
/// Most items in a node binned into [`SMALL_BINS`] bins rather than [`BINS`].
const SMALL_NODE: usize = 64;
/// Bins of a node of at most [`SMALL_NODE`] items (on the bunny and a million-triangle
/// terrain its rays cost no more than with [`BINS`]).
const SMALL_BINS: usize = 4;
/// Most items in a leaf.
const MAX_LEAF: u32 = 4;
/// Below this depth the SAH chooses splits; from it on, nodes split at the median.
const MEDIAN_DEPTH: usize = 40;
/// Deepest binary tree the build can make (median splits halve the items from
/// `MEDIAN_DEPTH` on, and there are fewer than 2³² of them); the wide tree is no deeper.
const MAX_DEPTH: usize = MEDIAN_DEPTH + 32;
/// Relative cost of visiting a node against testing one item (the SAH's `C_trav / C_isect`).
const TRAVERSAL_COST: f32 = 1.0;
/// Children per node (one `Vec4` lane each).
const WIDTH: usize = 4;

/// A child of a node: another node, or a leaf's range of items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Child {
    /// A node's index, or a leaf's first item.
    first: u32,
    /// A leaf's item count (1 to [`MAX_LEAF`]); 0 for a node.
    count: u32,
}

impl Child {
    /// The root node.
    const ROOT: Child = Child { first: 0, count: 0 };

    #[inline]
    fn is_leaf(self) -> bool {
        self.count > 0
    }

    /// A leaf's items.
    #[inline]
    fn items(self) -> std::ops::Range<u32> {
        self.first..self.first + self.count
    }
}

/// A node: up to four children in lanes `0..lanes`, with their boxes. Unused lanes hold NaN
/// boxes (no compare with them holds) and are masked out of slab tests.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Node {
    /// Per axis, the children's box minima (one lane per child).
    lo: [Lanes; 3],
    /// Per axis, the children's box maxima.
    hi: [Lanes; 3],
    /// Per lane: a child node's index, or a leaf's first item.
    first: [u32; WIDTH],
    /// Per lane: a leaf's item count; 0 for a child node (and an unused lane).
    count: [u8; WIDTH],
    /// Lanes in use; 1 to 4.
    lanes: u32,
    /// Where the child nodes' own children start: nodes are laid out level by level, so the
    /// children of this node's child nodes lie together, those of the child in lane `l` from
    /// `grand + grand_from[l]` on. A walk can start loading them before it has the child.
    grand: u32,
    /// Per lane: the offset from `grand` of that child's children (when it is a node).
    grand_from: [u8; WIDTH],
}

// A node is two cache lines: the links to the grandchildren fill the second one's spare bytes.
const _: () = assert!(std::mem::size_of::<Node>() == 128);

impl Node {
    const EMPTY: Node = Node {
        lo: [EMPTY_LANES; 3],
        hi: [EMPTY_LANES; 3],
        first: [0; WIDTH],
        count: [0; WIDTH],
        lanes: 0,
        grand: 0,
        grand_from: [0; WIDTH],
    };

    /// Starts loading the children of child `l` (a node) of this node in `nodes`, the tree's
    /// nodes: up to four nodes from where they start.
    #[inline(always)]
    fn grandchildren_ahead(&self, nodes: &[Node], l: usize) {
        let from = self.grand as usize + usize::from(self.grand_from[l]);
        if let Some(block) = nodes.get(from..(from + WIDTH).min(nodes.len())) {
            for n in block {
                prefetch(n);
            }
        }
    }

    /// Child `l`.
    #[inline(always)]
    fn child(&self, l: usize) -> Child {
        Child {
            first: self.first[l],
            count: u32::from(self.count[l]),
        }
    }

    /// The box of child `l`.
    #[inline(always)]
    fn child_box(&self, l: usize) -> Aabb {
        Aabb {
            min: lane3(&self.lo, l),
            max: lane3(&self.hi, l),
        }
    }

    /// Appends a child with its box.
    fn push(&mut self, child: Child, b: &Aabb) {
        let l = self.lanes as usize;
        set_lane3(&mut self.lo, l, b.min);
        set_lane3(&mut self.hi, l, b.max);
        self.first[l] = child.first;
        // Leaves hold at most MAX_LEAF (4) items: the count fits a byte.
        self.count[l] = child.count as u8;
        self.lanes += 1;
    }

    /// Entry times of a ray into the children's boxes within `[0, max_t]` (`INFINITY`:
    /// missed).
    #[inline(always)]
    fn ray_entries(&self, ray: &RayLanes, max_t: f32) -> [f32; WIDTH] {
        ray.entries(
            load3(&self.lo),
            load3(&self.hi),
            max_t,
            first_lanes(self.lanes),
        )
    }

    /// Lane bits of the children whose boxes touch the query (unused lanes never do).
    #[inline(always)]
    fn touching(&self, q: &Query) -> u32 {
        q.touching(load3(&self.lo), load3(&self.hi))
    }

    /// Squared distances from `p` (splatted) to the children's boxes; NaN in unused lanes.
    #[inline(always)]
    fn distances2(&self, p: &[Vec4; 3]) -> [f32; WIDTH] {
        let (lo, hi) = (load3(&self.lo), load3(&self.hi));
        let mut d2 = Vec4::ZERO;
        for k in 0..3 {
            // The clamp of p into the box is its closest point; NaN lanes stay NaN.
            let d = p[k] - p[k].max(lo[k]).min(hi[k]);
            d2 += d * d;
        }
        d2.to_array()
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

/// The tree: nodes (root at 0, none for no items) and the box of everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StaticTree {
    nodes: Vec<Node>,
    bounds: Aabb,
}

/// A ray's walk through a [`StaticTree`], nearer child first, that can stop and go on: the
/// children still to visit, each with the parameter at which the ray enters it.
#[derive(Clone, Debug)]
pub(crate) struct RayWalk {
    ray: RayLanes,
    /// At most three siblings wait per level: 32 inline entries (set up per walk) hold a
    /// walk ten levels deep (a million items in leaves of four), the heap takes the rest.
    stack: WalkStack<(Child, f32), 32>,
    /// The tree is large enough to prefetch the child nodes ([`StaticTree::worth_prefetching`]).
    prefetching: bool,
}

impl RayWalk {
    /// The walk before its first step: the root, unless the tree is empty or the ray (or the
    /// margin, or `max_t`) is not usable.
    fn start(tree: &StaticTree, origin: Vec3, dir: Vec3, margin: Vec3, max_t: f32) -> RayWalk {
        let mut walk = RayWalk {
            ray: RayLanes::new(origin, dir, margin),
            stack: WalkStack::default(),
            prefetching: tree.worth_prefetching(),
        };
        let usable = origin.is_finite() && dir.is_finite() && margin.is_finite() && max_t >= 0.0;
        if usable && !tree.nodes.is_empty() {
            walk.stack.push((Child::ROOT, 0.0));
        }
        walk
    }

    /// Walks on until the next child to visit is entered beyond `until` (to the end for
    /// `INFINITY`), calling `hit(item, bound)` for every item of the leaves reached, each
    /// returning the new bound (children entered beyond it are skipped); returns the bound. A
    /// NaN or negative bound ends the walk.
    pub fn advance(
        &mut self,
        tree: &StaticTree,
        until: f32,
        mut bound: f32,
        mut hit: impl FnMut(u32, f32) -> f32,
    ) -> f32 {
        while let Some((child, near)) = self.stack.peek() {
            if near > until && near <= bound {
                // Later: the other tree's nearer candidates go first.
                return bound;
            }
            self.stack.pop();
            if near > bound {
                continue;
            }
            if child.is_leaf() {
                for item in child.items() {
                    bound = hit(item, bound);
                    if bound.is_nan() || bound < 0.0 {
                        self.stack.clear();
                        return bound;
                    }
                }
                continue;
            }
            self.push_children(tree, &tree.nodes[child.first as usize], bound);
        }
        bound
    }

    /// Pushes the children of `node` (of `tree`) that the ray enters within `bound`, the
    /// farthest first so that the nearest is walked next; in a large tree the child nodes
    /// start loading.
    #[inline(always)]
    fn push_children(&mut self, tree: &StaticTree, node: &Node, bound: f32) {
        let (order, n) = entered_by_distance(node.ray_entries(&self.ray, bound));
        for &(t, l) in order[..n].iter().rev() {
            let child = node.child(l);
            if self.prefetching && !child.is_leaf() {
                prefetch(&tree.nodes[child.first as usize]);
            }
            self.stack.push((child, t));
        }
        // The nearest child is walked next: its own children start loading too.
        if self.prefetching && n > 0 && !node.child(order[0].1).is_leaf() {
            node.grandchildren_ahead(&tree.nodes, order[0].1);
        }
    }
}

/// A node of the binary tree the build makes before collapsing it: a box and either two
/// adjacent children (`first`, `first + 1`) or a range of items.
#[derive(Clone, Copy, Debug)]
struct BinaryNode {
    bounds: Aabb,
    /// Inner: index of the first child. Leaf: first item.
    first: u32,
    /// Number of items; 0 for an inner node.
    count: u32,
}

impl StaticTree {
    /// No items.
    pub(crate) const EMPTY: StaticTree = StaticTree {
        nodes: Vec::new(),
        bounds: Aabb::EMPTY,
    };

    /// Builds the tree over items with these boxes and reorders `order` (which must hold
    /// `0..boxes.len()`) so that each leaf's items are contiguous. No items: an empty tree.
    /// Boxes must be finite.
    pub fn build(boxes: &[Aabb], order: &mut [u32]) -> StaticTree {
        if order.is_empty() {
            return StaticTree {
                nodes: Vec::new(),
                bounds: Aabb::EMPTY,
            };
        }
        let binary = build_binary(boxes, order);
        StaticTree {
            nodes: collapse(&binary),
            bounds: binary[0].bounds,
        }
    }

    /// `true` when the nodes take more than [`PREFETCH_BYTES`]: walks then prefetch the
    /// child nodes they will visit.
    fn worth_prefetching(&self) -> bool {
        std::mem::size_of_val(&self.nodes[..]) > PREFETCH_BYTES
    }

    /// The root box; [`Aabb::EMPTY`] for an empty tree.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Visits the leaves whose boxes a ray enters within `[0, max_t]`, nearer boxes first.
    ///
    /// `hit(items, max_t)` is given a leaf's items and returns the new bound: the parameter
    /// of the nearest hit it found (boxes entered beyond it are skipped), or the `max_t` it
    /// was given to keep searching. A returned NaN or negative bound ends the walk. A NaN or
    /// infinite ray visits nothing.
    ///
    /// In a tree of more than [`PREFETCH_BYTES`], `leaf_ahead(items)` is told of each leaf
    /// that waits to be visited, so that the caller can start loading its items' data.
    pub fn ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
        leaf_ahead: impl Fn(std::ops::Range<u32>),
        mut hit: impl FnMut(std::ops::Range<u32>, f32) -> f32,
    ) {
        let usable = origin.is_finite() && dir.is_finite() && max_t >= 0.0;
        if !usable || self.nodes.is_empty() {
            return;
        }
        let ray = RayLanes::new(origin, dir, Vec3::ZERO);
        let prefetching = self.worth_prefetching();
        let mut bound = max_t;
        // Each level leaves at most three siblings waiting: 32 inline entries hold a walk
        // ten levels deep (a million items in leaves of four), the heap takes the rest.
        let mut stack = WalkStack::<(Child, f32), 32>::default();
        // The child walked now: the nearest one the ray enters goes next without a trip
        // through the stack; the others wait there, farthest deepest.
        let mut next = Child::ROOT;
        loop {
            if next.is_leaf() {
                bound = hit(next.items(), bound);
                // A NaN or negative bound ends the walk.
                if bound.is_nan() || bound < 0.0 {
                    return;
                }
            } else {
                let node = &self.nodes[next.first as usize];
                let (order, n) = entered_by_distance(node.ray_entries(&ray, bound));
                if n > 0 {
                    // In a large tree the waiting children's nodes start loading now.
                    for &(t, l) in order[1..n].iter().rev() {
                        let child = node.child(l);
                        if prefetching {
                            if child.is_leaf() {
                                leaf_ahead(child.items());
                            } else {
                                prefetch(&self.nodes[child.first as usize]);
                            }
                        }
                        stack.push((child, t));
                    }
                    let lane = order[0].1;
                    next = node.child(lane);
                    if prefetching && !next.is_leaf() {
                        node.grandchildren_ahead(&self.nodes, lane);
                    }
                    continue;
                }
            }
            next = loop {
                let Some((child, near)) = stack.pop() else {
                    return;
                };
                if near <= bound {
                    break child;
                }
            };
        }
    }

    /// [`StaticTree::ray`] as a walk that can stop and go on ([`RayWalk::advance`]), for
    /// walking this tree in step with another.
    pub fn ray_walk(&self, origin: Vec3, dir: Vec3, max_t: f32) -> RayWalk {
        RayWalk::start(self, origin, dir, Vec3::ZERO, max_t)
    }

    /// The walk of a box moving by `motion` from `aabb`: the ray from its centre against every
    /// node box grown by its half-extents, `t` in units of `motion`; it can stop and go on
    /// ([`RayWalk::advance`]). An empty or non-finite box visits nothing.
    pub fn cast_box_walk(&self, aabb: &Aabb, motion: Vec3, max_t: f32) -> RayWalk {
        if !aabb.is_finite() || aabb.is_empty() {
            return RayWalk::start(&StaticTree::EMPTY, Vec3::ZERO, motion, Vec3::ZERO, 0.0);
        }
        RayWalk::start(self, aabb.center(), motion, aabb.half_extents(), max_t)
    }

    /// Visits the items whose leaf boxes touch `query`; `visit` returns `false` to stop.
    /// A NaN query touches nothing.
    pub fn query_aabb(&self, query: &Aabb, mut visit: impl FnMut(u32) -> bool) {
        if self.nodes.is_empty() {
            return;
        }
        let q = Query::new(query);
        let prefetching = self.worth_prefetching();
        // At most three siblings wait per level (32 inline entries, set up per query, hold a
        // tree ten levels deep; the heap takes the rest).
        let mut stack = WalkStack::<Child, 32>::default();
        let mut child = Child::ROOT;
        loop {
            if child.is_leaf() {
                for item in child.items() {
                    if !visit(item) {
                        return;
                    }
                }
            } else {
                let node = &self.nodes[child.first as usize];
                let touching = node.touching(&q);
                if touching != 0 {
                    // The lowest lane is walked next, without a trip through the stack; the
                    // others wait there, the highest lane deepest (the order a stack of all of them
                    // would pop). In a large tree child nodes start loading now, while their
                    // siblings are walked.
                    let mut rest = touching & (touching - 1);
                    while rest != 0 {
                        let l = 31 - rest.leading_zeros() as usize;
                        rest &= !(1 << l);
                        let c = node.child(l);
                        if prefetching && !c.is_leaf() {
                            prefetch(&self.nodes[c.first as usize]);
                        }
                        stack.push(c);
                    }
                    child = node.child(touching.trailing_zeros() as usize);
                    if prefetching && !child.is_leaf() {
                        prefetch(&self.nodes[child.first as usize]);
                    }
                    continue;
                }
            }
            match stack.pop() {
                Some(c) => child = c,
                None => return,
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
        let splat = splat3(p);
        let mut bound = max_dist2;
        let mut stack = WalkStack::<(Child, f32)>::default();
        stack.push((Child::ROOT, 0.0));
        while let Some((child, d2)) = stack.pop() {
            if d2 > bound {
                continue;
            }
            if child.is_leaf() {
                for item in child.items() {
                    bound = visit(item, bound);
                }
                continue;
            }
            let node = &self.nodes[child.first as usize];
            let lanes = node.lanes as usize;
            let (order, n) = lanes_by_key(node.distances2(&splat), |l, d| l < lanes && d <= bound);
            for &(d, l) in order[..n].iter().rev() {
                stack.push((node.child(l), d));
            }
        }
    }

    /// Visits the pairs of items (one from each tree) whose leaf boxes touch, `other`'s boxes
    /// moved into this tree's frame by `to_self`; `visit` returns `false` to stop. Both trees
    /// are walked together (a simultaneous descent, Gottschalk, Lin & Manocha 1996), always
    /// opening the child with the larger box.
    pub fn pairs_with(
        &self,
        other: &StaticTree,
        to_self: &crate::math::Affine3A,
        mut visit: impl FnMut(u32, u32) -> bool,
    ) {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return;
        }
        let moved = |b: &Aabb| b.transformed(to_self);
        // Pairs whose boxes (B's moved) touch: (A's child, its box, B's child, its moved box).
        let mut stack = vec![(Child::ROOT, self.bounds, Child::ROOT, moved(&other.bounds))];
        let touch = crate::overlap::aabb_aabb;
        while let Some((a, a_box, b, b_box)) = stack.pop() {
            if !touch(&a_box, &b_box) {
                continue;
            }
            match (a.is_leaf(), b.is_leaf()) {
                (true, true) => {
                    for x in a.items() {
                        for y in b.items() {
                            if !visit(x, y) {
                                return;
                            }
                        }
                    }
                }
                (false, b_leaf) if b_leaf || a_box.surface_area() >= b_box.surface_area() => {
                    let node = &self.nodes[a.first as usize];
                    for l in 0..node.lanes as usize {
                        stack.push((node.child(l), node.child_box(l), b, b_box));
                    }
                }
                _ => {
                    let node = &other.nodes[b.first as usize];
                    for l in 0..node.lanes as usize {
                        stack.push((a, a_box, node.child(l), moved(&node.child_box(l))));
                    }
                }
            }
        }
    }

    /// Checks the invariants against the item boxes in leaf order: every child box inside
    /// its parent's (the root's children inside the tree's box), every item box inside its
    /// leaf's, every item in exactly one leaf of at most [`MAX_LEAF`] items, unused lanes
    /// empty, child indices in range and visited once, each child node's children where its
    /// parent's `grand` says, depth within [`MAX_DEPTH`].
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
        let mut pending = vec![(0usize, self.bounds, 0usize)];
        while let Some((index, parent_box, depth)) = pending.pop() {
            let fail = |what| Err(TreeDefect { node: index, what });
            if std::mem::replace(&mut seen_node[index], true) {
                return fail("node reached twice");
            }
            if depth > MAX_DEPTH {
                return fail("deeper than the build can make");
            }
            let node = &self.nodes[index];
            let lanes = node.lanes as usize;
            if !(1..=WIDTH).contains(&lanes) {
                return fail("no children or too many");
            }
            for l in lanes..WIDTH {
                let b = node.child_box(l);
                if !(b.min.is_nan() && b.max.is_nan()) || node.child(l) != Child::default() {
                    return fail("unused lane not empty");
                }
            }
            for l in 0..lanes {
                let (child, b) = (node.child(l), node.child_box(l));
                if !(b.min.is_finite() && b.max.is_finite() && b.min.cmple(b.max).all()) {
                    return fail("box not finite or inverted");
                }
                if !parent_box.contains(&b) {
                    return fail("child box outside its parent");
                }
                if !child.is_leaf() {
                    let first = child.first as usize;
                    if first >= self.nodes.len() || first <= index {
                        return fail("child index out of range");
                    }
                    // The child's own child nodes, in lane order, from where this node says.
                    let from = node.grand as usize + usize::from(node.grand_from[l]);
                    let c = &self.nodes[first];
                    let inner = (0..c.lanes as usize).filter(|&k| !c.child(k).is_leaf());
                    if inner
                        .enumerate()
                        .any(|(j, k)| c.first[k] as usize != from + j)
                    {
                        return fail("grandchildren not where the node says");
                    }
                    pending.push((first, b, depth + 1));
                    continue;
                }
                if child.count > MAX_LEAF || child.first as usize + child.count as usize > n {
                    return fail("leaf range too long or past the items");
                }
                for item in child.items() {
                    if std::mem::replace(&mut seen_item[item as usize], true) {
                        return fail("item in two leaves");
                    }
                    if !b.contains(&boxes_in_order[item as usize]) {
                        return fail("item box outside its leaf");
                    }
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

/// A box in SIMD lanes, for the build's many unions.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    min: Vec3A,
    max: Vec3A,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
    };

    #[inline(always)]
    fn union(self, o: Bounds) -> Bounds {
        Bounds {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    #[inline(always)]
    fn including(self, p: Vec3A) -> Bounds {
        Bounds {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The centre.
    #[inline(always)]
    fn centroid(self) -> Vec3A {
        (self.min + self.max) * 0.5
    }

    /// Surface area; 0 for an empty box.
    #[inline(always)]
    fn surface_area(self) -> f32 {
        let d = (self.max - self.min).max(Vec3A::ZERO);
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    fn aabb(self) -> Aabb {
        Aabb {
            min: self.min.into(),
            max: self.max.into(),
        }
    }
}

/// A range of items waiting to become a node: where it goes, its items, its depth, and the
/// bounds of its item boxes and of their centroids.
struct Pending {
    index: usize,
    start: usize,
    count: usize,
    depth: usize,
    bounds: Bounds,
    centroid_bounds: Bounds,
}

/// The binary SAH tree over the items (root at 0, children adjacent), reordering `order` so
/// that each leaf's items are contiguous. `order` must not be empty.
fn build_binary(boxes: &[Aabb], order: &mut [u32]) -> Vec<BinaryNode> {
    let boxes: Vec<Bounds> = boxes
        .iter()
        .map(|b| Bounds {
            min: b.min.into(),
            max: b.max.into(),
        })
        .collect();
    let root = Pending {
        index: 0,
        start: 0,
        count: order.len(),
        depth: 0,
        bounds: order
            .iter()
            .fold(Bounds::EMPTY, |b, &i| b.union(boxes[i as usize])),
        centroid_bounds: order.iter().fold(Bounds::EMPTY, |b, &i| {
            b.including(boxes[i as usize].centroid())
        }),
    };
    build_below(&boxes, order, root)
}

/// Nodes of at least this many items split their two sides' subtrees into parallel tasks.
const PARALLEL_ITEMS: usize = 16_384;
/// Depth below which nodes may split into parallel tasks (2⁴ tasks at most).
const PARALLEL_DEPTH: usize = 4;

/// The binary tree of the items `items` (`top` describes them: `top.start` is 0 and
/// `top.count` is `items.len()`), root at 0, leaves' items counted from the slice's start.
///
/// A node of [`PARALLEL_ITEMS`] or more above [`PARALLEL_DEPTH`] builds its two sides as two
/// tasks and splices them into the order the serial walk gives: the root, its two children,
/// the left child's descendants, then the right child's. The serial walk pops the left side
/// first and finishes it before the right, so the tree is the same whichever way it is built.
fn build_below(boxes: &[Bounds], items: &mut [u32], top: Pending) -> Vec<BinaryNode> {
    let mut scratch = (
        Vec::with_capacity(top.count),
        Vec::with_capacity(top.count),
        Vec::with_capacity(BINS),
    );
    if top.count < PARALLEL_ITEMS || top.depth >= PARALLEL_DEPTH {
        return build_serial(boxes, items, top, &mut scratch);
    }
    let Some([left, right]) = split(
        items,
        boxes,
        &top,
        (&mut scratch.0, &mut scratch.1, &mut scratch.2),
    ) else {
        return vec![leaf(&top)];
    };
    let side = |s: Side| Pending {
        index: 0,
        start: 0,
        count: s.count,
        depth: top.depth + 1,
        bounds: s.bounds,
        centroid_bounds: s.centroid_bounds,
    };
    let (left_items, right_items) = items.split_at_mut(left.count);
    let (a, b) = par::join(
        || build_below(boxes, left_items, side(left)),
        || build_below(boxes, right_items, side(right)),
    );
    // `a[i]` goes to `i + 2` (after the root and its right child) and `b[i]` to
    // `i + a.len() + 1`, except that both roots go to 1 and 2.
    let (a_shift, b_shift) = (2, a.len() as u32 + 1);
    let placed = |n: &BinaryNode, shift: u32, items_from: u32| BinaryNode {
        first: n.first + if n.count == 0 { shift } else { items_from },
        ..*n
    };
    let mut nodes = Vec::with_capacity(1 + a.len() + b.len());
    nodes.push(BinaryNode {
        bounds: top.bounds.aabb(),
        first: 1,
        count: 0,
    });
    nodes.push(placed(&a[0], a_shift, 0));
    nodes.push(placed(&b[0], b_shift, left.count as u32));
    nodes.extend(a[1..].iter().map(|n| placed(n, a_shift, 0)));
    nodes.extend(b[1..].iter().map(|n| placed(n, b_shift, left.count as u32)));
    nodes
}

/// A leaf of the pending node's items.
fn leaf(node: &Pending) -> BinaryNode {
    BinaryNode {
        bounds: node.bounds.aabb(),
        first: node.start as u32,
        count: node.count as u32,
    }
}

/// The split of a pending node: none for a leaf, the median below [`MEDIAN_DEPTH`], else the
/// SAH's.
fn split(
    items: &mut [u32],
    boxes: &[Bounds],
    node: &Pending,
    scratch: (&mut Vec<u32>, &mut Vec<u8>, &mut Vec<Side>),
) -> Option<[Side; 2]> {
    if node.count as u32 <= MAX_LEAF {
        None
    } else if node.depth >= MEDIAN_DEPTH {
        Some(median_split(items, boxes, node))
    } else {
        sah_split(items, boxes, node, scratch)
    }
}

/// [`build_below`] on the calling thread: a depth-first walk with a stack of pending nodes,
/// each split's two children placed side by side and the left one walked first.
fn build_serial(
    boxes: &[Bounds],
    order: &mut [u32],
    top: Pending,
    (scratch, bin_of_item, bins): &mut (Vec<u32>, Vec<u8>, Vec<Side>),
) -> Vec<BinaryNode> {
    let n = order.len();
    let blank = BinaryNode {
        bounds: Aabb::EMPTY,
        first: 0,
        count: 0,
    };
    let mut nodes = Vec::with_capacity(2 * n / MAX_LEAF as usize + 1);
    nodes.push(blank);
    let mut pending = vec![top];
    while let Some(node) = pending.pop() {
        let items = &mut order[node.start..node.start + node.count];
        let split = split(items, boxes, &node, (scratch, bin_of_item, bins));
        let Some([left, right]) = split else {
            nodes[node.index] = leaf(&node);
            continue;
        };
        let first = nodes.len();
        nodes[node.index] = BinaryNode {
            bounds: node.bounds.aabb(),
            first: first as u32,
            count: 0,
        };
        nodes.push(blank);
        nodes.push(blank);
        let (depth, start) = (node.depth + 1, node.start);
        pending.push(Pending {
            index: first + 1,
            start: start + left.count,
            count: right.count,
            depth,
            bounds: right.bounds,
            centroid_bounds: right.centroid_bounds,
        });
        pending.push(Pending {
            index: first,
            start,
            count: left.count,
            depth,
            bounds: left.bounds,
            centroid_bounds: left.centroid_bounds,
        });
    }
    nodes
}

/// The wide tree of a binary one: each wide node gathers up to four binary nodes below one
/// binary node, opening the inner one with the largest surface area until there are four
/// or only leaves are left (a binary leaf at the root is the root's only child). Children
/// keep the binary tree's left-to-right order.
fn collapse(binary: &[BinaryNode]) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(binary.len() / 2 + 1);
    nodes.push(Node::EMPTY);
    // Pending, first in first out, so that nodes are laid out level by level and the
    // children of one node's child nodes follow one another: (binary node, the wide node
    // that gathers below it, its parent and lane there).
    let mut pending = std::collections::VecDeque::from([(0u32, 0usize, None::<(usize, usize)>)]);
    while let Some((top, wide, parent)) = pending.pop_front() {
        if let Some((parent, lane)) = parent {
            let here = nodes.len() as u32;
            let p: &mut Node = &mut nodes[parent];
            // 0 is the root's index, never a start of grandchildren: not set yet.
            if p.grand == 0 {
                p.grand = here;
            }
            // At most three earlier siblings of four children each come first.
            p.grand_from[lane] = (here - p.grand) as u8;
        }
        let mut gathered = [top; WIDTH];
        let mut n = 1;
        loop {
            let inner = (0..n)
                .filter(|&k| binary[gathered[k] as usize].count == 0)
                .max_by(|&x, &y| {
                    let area = |k: usize| binary[gathered[k] as usize].bounds.surface_area();
                    area(x).total_cmp(&area(y))
                });
            // Opening replaces one entry by its two children: it fits while there are
            // fewer than four.
            let Some(k) = inner.filter(|_| n < WIDTH) else {
                break;
            };
            let first = binary[gathered[k] as usize].first;
            gathered.copy_within(k + 1..n, k + 2);
            gathered[k] = first;
            gathered[k + 1] = first + 1;
            n += 1;
        }
        for (lane, &b) in gathered[..n].iter().enumerate() {
            let node = &binary[b as usize];
            let child = if node.count > 0 {
                Child {
                    first: node.first,
                    count: node.count,
                }
            } else {
                let index = nodes.len();
                nodes.push(Node::EMPTY);
                pending.push_back((b, index, Some((wide, lane))));
                Child {
                    first: index as u32,
                    count: 0,
                }
            };
            nodes[wide].push(child, &node.bounds);
        }
    }
    nodes
}

/// One side of a split: how many items, and the bounds of their boxes and centroids.
#[derive(Clone, Copy)]
struct Side {
    count: usize,
    bounds: Bounds,
    centroid_bounds: Bounds,
}

impl Side {
    const EMPTY: Side = Side {
        count: 0,
        bounds: Bounds::EMPTY,
        centroid_bounds: Bounds::EMPTY,
    };

    #[inline(always)]
    fn add(&mut self, b: Bounds, c: Vec3A) {
        self.count += 1;
        self.bounds = self.bounds.union(b);
        self.centroid_bounds = self.centroid_bounds.including(c);
    }

    #[inline(always)]
    fn union(self, o: &Side) -> Side {
        Side {
            count: self.count + o.count,
            bounds: self.bounds.union(o.bounds),
            centroid_bounds: self.centroid_bounds.union(o.centroid_bounds),
        }
    }
}

/// The SAH's best split of the node's items along the longest axis of their centroids: they
/// are reordered so that the left side comes first, and both sides are returned. `None` when
/// keeping a leaf is cheaper (and allowed); a median split when the centroids coincide and
/// the node is too big for a leaf. `scratch` holds the right side's items during the
/// partition, `bin_of_item` each item's bin, `bins` the bins (all reused across the build).
fn sah_split(
    items: &mut [u32],
    boxes: &[Bounds],
    node: &Pending,
    (scratch, bin_of_item, bins): (&mut Vec<u32>, &mut Vec<u8>, &mut Vec<Side>),
) -> Option<[Side; 2]> {
    let count = items.len();
    let cb = node.centroid_bounds;
    let extent = cb.max - cb.min;
    let axis = extent.max_position();
    if extent[axis] <= 0.0 {
        return (count as u32 > MAX_LEAF).then(|| median_split(items, boxes, node));
    }
    // A centroid falls in bin `⌊(c − min) · BINS / extent⌋` (the last bin closed; the clamp
    // also catches rounding past either end). Each item's bin is kept for the partition.
    // Nodes of at most SMALL_NODE items take SMALL_BINS bins: their splits choose among few
    // items, and sweeping fewer boundaries is most of their cost.
    let used = if count <= SMALL_NODE {
        SMALL_BINS
    } else {
        BINS
    };
    let (min, scale) = (cb.min[axis], used as f32 / extent[axis]);
    bins.clear();
    bins.resize(used, Side::EMPTY);
    bin_of_item.clear();
    for &i in items.iter() {
        let b = boxes[i as usize];
        let c = b.centroid();
        let bin = (((c.to_array()[axis] - min) * scale) as i32).clamp(0, used as i32 - 1) as u8;
        bin_of_item.push(bin);
        bins[bin as usize].add(b, c);
    }
    // Sweep from the right: area·count of bins k.. for each k; then from the left for the
    // cheapest boundary (cost, first bin on the right). Only the boxes and counts sweep; the
    // chosen sides' centroid bounds are gathered at the end.
    let mut right_cost = [0.0f32; BINS];
    let (mut acc, mut acc_count) = (Bounds::EMPTY, 0);
    for k in (1..used).rev() {
        acc = acc.union(bins[k].bounds);
        acc_count += bins[k].count;
        right_cost[k] = acc.surface_area() * acc_count as f32;
    }
    let mut best: Option<(f32, usize)> = None;
    let (mut acc, mut acc_count) = (Bounds::EMPTY, 0);
    for k in 1..used {
        acc = acc.union(bins[k - 1].bounds);
        acc_count += bins[k - 1].count;
        if acc_count == 0 || acc_count == count {
            continue;
        }
        let cost = acc.surface_area() * acc_count as f32 + right_cost[k];
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, k));
        }
    }
    // Every centroid in one bin (a few far outliers stretch the extent): no boundary splits.
    let Some((cost, k)) = best else {
        return (count as u32 > MAX_LEAF).then(|| median_split(items, boxes, node));
    };
    // Leaf cost `N` against `C_trav + (split cost) / A_node`.
    let area = node.bounds.surface_area();
    let split_cost = TRAVERSAL_COST + if area > 0.0 { cost / area } else { 0.0 };
    if count as u32 <= MAX_LEAF && split_cost >= count as f32 {
        return None;
    }
    let mid = partition(items, scratch, |at| usize::from(bin_of_item[at]) < k);
    let side = |range: std::ops::Range<usize>| {
        bins[range]
            .iter()
            .fold(Side::EMPTY, |acc, bin| acc.union(bin))
    };
    let (left, right) = (side(0..k), side(k..used));
    debug_assert_eq!(mid, left.count, "the partition follows the bins");
    Some([left, right])
}

/// Splits at the median centroid along the longest centroid axis (ties by index, so the
/// order is deterministic); the first half goes left.
fn median_split(items: &mut [u32], boxes: &[Bounds], node: &Pending) -> [Side; 2] {
    let cb = node.centroid_bounds;
    let axis = (cb.max - cb.min).max_position();
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |&a, &b| {
        let along = |i: u32| boxes[i as usize].centroid()[axis];
        let (ca, cb) = (along(a), along(b));
        ca.total_cmp(&cb).then(a.cmp(&b))
    });
    let side = |items: &[u32]| {
        items.iter().fold(Side::EMPTY, |mut side, &i| {
            side.add(boxes[i as usize], boxes[i as usize].centroid());
            side
        })
    };
    [side(&items[..mid]), side(&items[mid..])]
}

/// Moves the items for which `left(position)` holds to the front, keeping each side's
/// relative order; returns how many went left. The right side waits in `scratch` (reused
/// across the build).
fn partition(items: &mut [u32], scratch: &mut Vec<u32>, left: impl Fn(usize) -> bool) -> usize {
    // Branch-free: each item is written to both sides' next slots and only its own side's
    // count moves on (which side is a coin toss per item, so a branch would mispredict half
    // the time). The left side is written in place: its slot is never ahead of the item read.
    scratch.clear();
    scratch.resize(items.len(), 0);
    let (mut mid, mut right) = (0, 0);
    for k in 0..items.len() {
        let i = items[k];
        let goes_left = left(k);
        items[mid] = i;
        scratch[right] = i;
        mid += usize::from(goes_left);
        right += usize::from(!goes_left);
    }
    items[mid..].copy_from_slice(&scratch[..right]);
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
    fn tasks_build_the_tree_the_serial_walk_builds() {
        // Enough boxes, scattered unevenly, for several levels of tasks and SAH splits.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let boxes: Vec<Bounds> = (0..5 * PARALLEL_ITEMS)
            .map(|_| {
                let c = Vec3A::new(next() * 100.0, next() * next() * 30.0, next() * 5.0);
                let h = Vec3A::new(next(), next(), next()) * 0.5 + Vec3A::splat(0.01);
                Bounds {
                    min: c - h,
                    max: c + h,
                }
            })
            .collect();
        let aabbs: Vec<Aabb> = boxes.iter().map(|b| b.aabb()).collect();
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let tasks = build_binary(&aabbs, &mut order);
        let mut serial_order: Vec<u32> = (0..boxes.len() as u32).collect();
        let top = Pending {
            index: 0,
            start: 0,
            count: boxes.len(),
            depth: 0,
            bounds: boxes.iter().fold(Bounds::EMPTY, |b, &x| b.union(x)),
            centroid_bounds: boxes
                .iter()
                .fold(Bounds::EMPTY, |b, x| b.including(x.centroid())),
        };
        let mut scratch = (Vec::new(), Vec::new(), Vec::new());
        let serial = build_serial(&boxes, &mut serial_order, top, &mut scratch);
        assert_eq!(order, serial_order);
        assert_eq!(tasks.len(), serial.len());
        for (i, (t, s)) in tasks.iter().zip(&serial).enumerate() {
            assert_eq!((t.first, t.count), (s.first, s.count), "node {i}");
            assert_eq!(t.bounds, s.bounds, "node {i}");
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
        assert_eq!(tree.validate(&in_order), Ok(()));
        tree.nodes[0].hi[0][1] += 1000.0;
        assert_eq!(
            tree.validate(&in_order).map_err(|d| d.what),
            Err("child box outside its parent")
        );
    }
}
