//! Dynamic bounding-volume tree of fattened boxes (Box2D's `b2DynamicTree`, Catto), with
//! leaves enlarged in place, Morton-order rebuilds, a tree-vs-itself traversal restricted to
//! changed subtrees and a hash-free persistent pair list.

use super::{
    boxes_touch, check_aabb, ray_box_entry, BroadPhase, BroadPhaseError, CollisionGroups, IdPool,
    ProxyId,
};
use crate::math::{Vec3, Vec3A};
use crate::shapes::{Aabb, Ray};

/// The null node index.
const NULL: u32 = u32::MAX;

/// How far ahead a leaf's fat box reaches along the last displacement (Box2D's
/// `b2_aabbMultiplier`): a body moving steadily leaves its fat box every few frames, not
/// every frame.
const DISPLACEMENT_MULTIPLIER: f32 = 4.0;

/// A full rebuild (under sustained large motion) uses the tight boxes as fat boxes, except
/// when this many `update_pairs` calls have passed since the last fattened one: that one
/// keeps the margins, to find out whether the motion has calmed down.
const PROBE_PERIOD: u32 = 8;

/// Leaves enlarged in place grow their ancestors; once the inner nodes' total half-area has
/// grown by this fraction of its value after the last rebuild, the tree is rebuilt (query
/// cost is roughly proportional to that total, MacDonald and Booth 1990).
const GROWTH_LIMIT: f64 = 0.5;

/// In the traversal right after a rebuild, a subtree of at most this many leaves is paired
/// with itself by comparing all its boxes, and two touching subtrees whose leaf counts
/// multiply to at most `BRUTE_CROSS` by comparing all box pairs.
const BRUTE_SELF: usize = 16;
/// See [`BRUTE_SELF`].
const BRUTE_CROSS: usize = 64;

/// Bits per axis of the Morton codes used by the rebuild (3 × 21 = 63 bits).
const MORTON_BITS: u32 = 21;

/// A tree node, 32 bytes (two per cache line): a leaf holds one proxy's fat box; an inner
/// node a box containing both children's (the union after a rebuild or a rotation, possibly
/// larger after leaves were enlarged in place and moved away).
#[derive(Clone, Copy, Debug)]
struct Node {
    aabb: Aabb,
    /// First child; `NULL` for a leaf.
    child1: u32,
    /// Second child; for a leaf, its proxy.
    child2: u32,
}

impl Node {
    const EMPTY: Node = Node {
        aabb: Aabb::EMPTY,
        child1: NULL,
        child2: NULL,
    };

    #[inline]
    fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// `true` when `inner` lies inside `outer` (boundaries may touch). NaN gives `false`.
#[inline]
fn inside(inner: &Aabb, outer: &Aabb) -> bool {
    outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all()
}

/// [`boxes_touch`] without branches (the six comparisons are combined with `&`, not `&&`):
/// in the traversals whether two boxes touch is close to a coin flip, and a mispredicted
/// early exit costs more than the comparisons it skips. NaN gives `false`.
#[inline]
fn touch(a: &Aabb, b: &Aabb) -> bool {
    let (amin, amax) = (Vec3A::from(a.min), Vec3A::from(a.max));
    let (bmin, bmax) = (Vec3A::from(b.min), Vec3A::from(b.max));
    (amin.cmple(bmax) & bmin.cmple(amax)).all()
}

/// Half the surface area, in `f64` so that boxes at `±1e30` (area `1e60`) neither overflow
/// nor lose the comparisons of the insertion cost.
#[inline]
fn half_area(b: &Aabb) -> f64 {
    let s = b.max - b.min;
    let (x, y, z) = (f64::from(s.x), f64::from(s.y), f64::from(s.z));
    x * y + y * z + z * x
}

/// The sum of a box's side lengths (may be `inf` for boxes spanning most of the `f32` range;
/// only compared, to pick which of two nodes to descend).
#[inline]
fn size(b: &Aabb) -> f32 {
    let s = b.max - b.min;
    s.x + s.y + s.z
}

/// Spreads the low 21 bits of `v` so that two zero bits separate each (bit `k` moves to bit
/// `3k`): the per-axis step of a 63-bit Morton code (the "magic bits" method; Baert,
/// *Morton encoding/decoding through bit interleaving*, 2013).
#[inline]
fn spread_bits(v: u64) -> u64 {
    let mut x = v & 0x1f_ffff;
    x = (x | (x << 32)) & 0x001f_0000_0000_ffff;
    x = (x | (x << 16)) & 0x001f_0000_ff00_00ff;
    x = (x | (x << 8)) & 0x100f_00f0_0f00_f00f;
    x = (x | (x << 4)) & 0x10c3_0c30_c30c_30c3;
    x = (x | (x << 2)) & 0x1249_2492_4924_9249;
    x
}

/// A small traversal stack: 64 entries inline (a height-balanced tree of `2^31` leaves is
/// less than 48 deep), spilling to the heap only beyond that.
struct Stack {
    inline: [u32; 64],
    len: usize,
    spill: Vec<u32>,
}

impl Stack {
    fn new(root: u32) -> Stack {
        let mut s = Stack {
            inline: [NULL; 64],
            len: 0,
            spill: Vec::new(),
        };
        if root != NULL {
            s.push(root);
        }
        s
    }

    #[inline]
    fn push(&mut self, v: u32) {
        if self.len < self.inline.len() {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            self.spill.push(v);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if let Some(v) = self.spill.pop() {
            return Some(v);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

/// A dynamic AABB tree: each proxy is a leaf holding its box fattened by a margin and
/// stretched along its last displacement, so most frames a moving body stays inside its fat
/// box and neither the tree nor its pairs change.
///
/// Edits: an insertion descends by the surface-area heuristic (Box2D 2.3 `InsertLeaf`) and
/// rebalances by rotations (Box2D's `Balance`); a proxy that leaves its fat box gets a new
/// one *in place* — its leaf keeps its position and only the ancestors that do not yet
/// contain the new box grow — so a move costs a short walk up, not a removal and
/// re-insertion. The walks are deferred to [`BroadPhase::update_pairs`] and done in leaf
/// order; until then box queries and ray casts answer the moved proxies from the list of
/// moved proxies and the rest from the tree. Ancestors never shrink on a move, so the tree
/// slowly loosens; it is rebuilt from scratch in Morton order (a 63-bit Morton code per
/// fat-box centre, sorted, split at the highest differing bit as in Karras 2012, laid out
/// depth-first) once the inner nodes' total area has grown by half since the last rebuild.
///
/// Pairs: the structure keeps the list of allowed pairs whose *fat* boxes touch. A fat pair
/// can only appear or disappear when one of its proxies got a new fat box, so
/// [`BroadPhase::update_pairs`] keeps the listed pairs of unmoved proxies as they are, drops
/// those of moved (or removed) proxies, and finds the moved proxies' pairs again by one query
/// per moved proxy (each pair of two moved proxies is recorded by one of the two queries, so
/// no hashing or deduplication). When a cost model (fat pairs, moved proxies, neighbours per
/// proxy) says that is dearer than starting over — large or dense motion — the tree is rebuilt
/// and the list recomputed by one traversal of the tree against itself, small subtrees being
/// compared box by box over their contiguous Morton-ordered leaves. Under sustained large
/// motion those rebuilds use the tight boxes as fat boxes (a margin would only add false
/// pairs), keeping the margins one frame in eight to notice when the motion calms down. The
/// reported pairs are the fat pairs whose *tight* boxes touch — exactly the set
/// [`BruteForce`](super::BruteForce) reports.
///
/// Degenerate input: flat and point boxes are fine; boxes at `±1e30` work (areas are
/// computed in `f64`, Morton codes from `f64` centres; fat boxes are clamped to
/// `±f32::MAX`).
///
/// Cost per frame: one containment test per updated proxy, one pass over the fat pairs, a
/// walk up and a query per moved proxy — or, under large motion, an `O(n log n)` rebuild and
/// a traversal proportional to the pairs.
#[derive(Clone, Debug)]
pub struct DynamicBvh {
    nodes: Vec<Node>,
    /// Per node: parent, or the next free node while the node is in the free list.
    parent: Vec<u32>,
    /// Per node: leaf 0, inner 1 + max of the children, free −1.
    height: Vec<i32>,
    root: u32,
    free: u32,
    /// Per proxy id: the box last given.
    tight: Vec<Aabb>,
    /// Per proxy id: its leaf's fat box (a copy of the node's).
    fat: Vec<Aabb>,
    /// Per proxy id: collision groups.
    groups: Vec<CollisionGroups>,
    /// Per proxy id: its leaf node, `NULL` when the proxy is dead.
    leaf: Vec<u32>,
    /// Per proxy id: given a new fat box, inserted or removed since the last `update_pairs`.
    moved_flag: Vec<bool>,
    ids: IdPool,
    live: usize,
    margin: f32,
    /// The proxies whose flag `moved_flag` is set.
    moved: Vec<u32>,
    /// Allowed pairs `(a, b)`, `a < b`, whose fat boxes touch (valid after `update_pairs`).
    fat_pairs: Vec<(u32, u32)>,
    /// Scratch: the nodes of the moved proxies' queries.
    node_stack: Vec<u32>,
    /// Scratch: the node pairs of the self-traversal.
    pair_stack: Vec<(u32, u32)>,
    /// Scratch: (Morton code, proxy) for the rebuild.
    build_items: Vec<(u64, u32)>,
    /// Per node, right after a rebuild: the range of `build_items` (Morton order) holding
    /// its subtree's leaves.
    range: Vec<(u32, u32)>,
    /// Right after a rebuild: the fat boxes in `build_items` order.
    sorted_fat: Vec<Aabb>,
    /// `range` and `sorted_fat` describe the tree (no edit since the rebuild).
    ranges_valid: bool,
    /// Scratch: (first item, end item, parent node, is second child) for the rebuild.
    build_stack: Vec<(u32, u32, u32, bool)>,
    /// Any edit since the last `update_pairs`.
    edited: bool,
    /// Live proxies whose groups are not [`CollisionGroups::ALL`] (0: skip the group test).
    filtered: usize,
    /// `update_pairs` calls since the last full rebuild with fattened boxes (saturating).
    since_probe: u32,
    /// Pairs reported by the last `update_pairs`.
    last_pairs: usize,
    /// Set during a rebuild that used the tight boxes as fat boxes.
    fat_is_tight: bool,
    /// Live proxies given a new fat box (or inserted) since the last `update_pairs`.
    moved_live: usize,
    last_moved: usize,
    last_rebuilt: bool,
    /// Total half-area of the inner nodes after the last rebuild.
    base_area: f64,
    /// Half-area added to inner nodes by in-place enlargements since the last rebuild.
    grown_area: f64,
}

impl Default for DynamicBvh {
    /// [`DynamicBvh::new`].
    fn default() -> Self {
        DynamicBvh::new()
    }
}

impl DynamicBvh {
    /// An empty tree with a fat-box margin of `0.1` (Box2D's `b2_aabbExtension`; suited to
    /// bodies of about unit size moving a fraction of their size per frame).
    #[must_use]
    pub fn new() -> DynamicBvh {
        DynamicBvh::with_margin(0.1)
    }

    /// An empty tree whose leaves are fattened by `margin` on every side (negative, NaN or
    /// infinite margins are taken as `0`).
    #[must_use]
    pub fn with_margin(margin: f32) -> DynamicBvh {
        DynamicBvh {
            nodes: Vec::new(),
            parent: Vec::new(),
            height: Vec::new(),
            filtered: 0,
            since_probe: u32::MAX,
            last_pairs: 0,
            fat_is_tight: false,
            moved_live: 0,
            root: NULL,
            free: NULL,
            tight: Vec::new(),
            fat: Vec::new(),
            groups: Vec::new(),
            leaf: Vec::new(),
            moved_flag: Vec::new(),
            ids: IdPool::default(),
            live: 0,
            margin: if margin.is_finite() && margin > 0.0 {
                margin
            } else {
                0.0
            },
            moved: Vec::new(),
            fat_pairs: Vec::new(),
            pair_stack: Vec::new(),
            node_stack: Vec::new(),
            build_items: Vec::new(),
            build_stack: Vec::new(),
            range: Vec::new(),
            sorted_fat: Vec::new(),
            ranges_valid: false,
            edited: false,
            last_moved: 0,
            last_rebuilt: false,
            base_area: 0.0,
            grown_area: 0.0,
        }
    }

    /// The fat-box margin.
    #[must_use]
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Height of the tree (0 for one leaf or none).
    #[must_use]
    pub fn height(&self) -> i32 {
        if self.root == NULL {
            0
        } else {
            self.height[self.root as usize]
        }
    }

    /// Proxies that got a new fat box (or were inserted) before the last
    /// [`BroadPhase::update_pairs`].
    #[must_use]
    pub fn last_moved(&self) -> usize {
        self.last_moved
    }

    /// `true` when the last [`BroadPhase::update_pairs`] rebuilt the tree from scratch.
    #[must_use]
    pub fn last_rebuilt(&self) -> bool {
        self.last_rebuilt
    }

    /// Pairs whose fat boxes touch (a superset of the reported pairs).
    #[must_use]
    pub fn fat_pair_count(&self) -> usize {
        self.fat_pairs.len()
    }

    /// Sum of the inner nodes' surface areas over the root's (the SAH quality measure; lower
    /// is better, 0 for an empty tree).
    #[must_use]
    pub fn area_ratio(&self) -> f64 {
        if self.root == NULL {
            return 0.0;
        }
        let root = half_area(&self.nodes[self.root as usize].aabb);
        if root <= 0.0 {
            return 0.0;
        }
        let total: f64 = self
            .nodes
            .iter()
            .zip(&self.height)
            .filter(|(_, &h)| h > 0)
            .map(|(n, _)| half_area(&n.aabb))
            .sum();
        total / root
    }

    /// The fat box of a proxy moved to `tight` after a displacement `d`: grown by the margin,
    /// stretched by `4d` ahead (at most two margins per axis), clamped to finite values.
    fn fat_box(&self, tight: &Aabb, d: Vec3) -> Aabb {
        let mut fat = tight.expanded(self.margin);
        // Stretched ahead by 4 displacements, but by no more than 2 margins per axis: a body
        // jumping several box sizes per frame leaves its box every frame anyway, and a long
        // stretch would only make many false fat pairs.
        let reach = Vec3::splat(2.0 * self.margin);
        let d = if d.is_finite() {
            (d * DISPLACEMENT_MULTIPLIER).clamp(-reach, reach)
        } else {
            Vec3::ZERO
        };
        fat.min += d.min(Vec3::ZERO);
        fat.max += d.max(Vec3::ZERO);
        Aabb {
            min: fat.min.max(Vec3::splat(-f32::MAX)),
            max: fat.max.min(Vec3::splat(f32::MAX)),
        }
    }

    fn alloc_node(&mut self) -> u32 {
        if self.free != NULL {
            let i = self.free;
            let k = i as usize;
            self.free = self.parent[k];
            self.nodes[k] = Node::EMPTY;
            self.parent[k] = NULL;
            self.height[k] = 0;
            i
        } else {
            self.nodes.push(Node::EMPTY);
            self.parent.push(NULL);
            self.height.push(0);
            (self.nodes.len() - 1) as u32
        }
    }

    fn free_node(&mut self, i: u32) {
        let k = i as usize;
        self.nodes[k] = Node::EMPTY;
        self.parent[k] = self.free;
        self.height[k] = -1;
        self.free = i;
    }

    /// Replaces `old` by `new` among the children of `parent` (or as the root).
    fn relink(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
            return;
        }
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    /// Inserts a leaf: descend by the SAH branch cost, pair it with the chosen sibling under
    /// a new parent, then refit and rebalance up to the root.
    fn insert_leaf(&mut self, leaf: u32) {
        self.ranges_valid = false;
        if self.root == NULL {
            self.root = leaf;
            self.parent[leaf as usize] = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = self.nodes[index as usize];
            let area = half_area(&node.aabb);
            let combined_area = half_area(&node.aabb.union(&leaf_box));
            // Making a new parent of this node and the leaf costs the combined area.
            let cost = 2.0 * combined_area;
            // Going further down grows every ancestor from here by at least this much.
            let inheritance = 2.0 * (combined_area - area);
            let child_cost = |c: u32| {
                let child = &self.nodes[c as usize];
                let grown = half_area(&child.aabb.union(&leaf_box));
                if child.is_leaf() {
                    grown + inheritance
                } else {
                    grown - half_area(&child.aabb) + inheritance
                }
            };
            let (cost1, cost2) = (child_cost(node.child1), child_cost(node.child2));
            if cost < cost1 && cost < cost2 {
                break;
            }
            index = if cost1 < cost2 {
                node.child1
            } else {
                node.child2
            };
        }
        let sibling = index;
        let old_parent = self.parent[sibling as usize];
        let new_parent = self.alloc_node();
        {
            let sib_box = self.nodes[sibling as usize].aabb;
            let k = new_parent as usize;
            self.nodes[k] = Node {
                aabb: leaf_box.union(&sib_box),
                child1: sibling,
                child2: leaf,
            };
            self.parent[k] = old_parent;
            self.height[k] = self.height[sibling as usize] + 1;
        }
        self.relink(old_parent, sibling, new_parent);
        self.parent[sibling as usize] = new_parent;
        self.parent[leaf as usize] = new_parent;
        self.refit_up(new_parent);
    }

    /// Walks from `index` to the root, rebalancing and refitting every ancestor (each box
    /// becomes the union of its children's).
    fn refit_up(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            let k = index as usize;
            let n = self.nodes[k];
            let (c1, c2) = (n.child1 as usize, n.child2 as usize);
            self.height[k] = 1 + self.height[c1].max(self.height[c2]);
            self.nodes[k].aabb = self.nodes[c1].aabb.union(&self.nodes[c2].aabb);
            index = self.parent[k];
        }
    }

    /// Removes a leaf: its sibling takes the parent's place; ancestors are refitted.
    fn remove_leaf(&mut self, leaf: u32) {
        self.ranges_valid = false;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.parent[leaf as usize];
        let p = self.nodes[parent as usize];
        let grand = self.parent[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.relink(grand, parent, sibling);
        self.parent[sibling as usize] = grand;
        self.free_node(parent);
        if grand != NULL {
            self.refit_up(grand);
        }
    }

    /// One rotation at `a` if its children's heights differ by more than one: the taller
    /// child moves up and takes `a` as a child (Box2D `b2DynamicTree::Balance`, an AVL-style
    /// rotation). Returns the node now at `a`'s place. Children's boxes are recomputed; the
    /// caller refits the returned node.
    fn balance(&mut self, ia: u32) -> u32 {
        let a = self.nodes[ia as usize];
        if a.is_leaf() || self.height[ia as usize] < 2 {
            return ia;
        }
        let (ib, ic) = (a.child1, a.child2);
        let diff = self.height[ic as usize] - self.height[ib as usize];
        if diff > 1 {
            self.rotate_up(ia, ic, ib, true)
        } else if diff < -1 {
            self.rotate_up(ia, ib, ic, false)
        } else {
            ia
        }
    }

    /// Rotates the child `iu` of `ia` up into `ia`'s place; `io` is `ia`'s other child, which
    /// stays. `iu`'s taller child stays under `iu`; its shorter one moves under `ia` in the slot
    /// `iu` left (child2 when `u_is_child2`, else child1).
    fn rotate_up(&mut self, ia: u32, iu: u32, io: u32, u_is_child2: bool) -> u32 {
        let u = self.nodes[iu as usize];
        let (i1, i2) = (u.child1, u.child2);
        let a_parent = self.parent[ia as usize];
        // U takes A's place.
        self.nodes[iu as usize].child1 = ia;
        self.parent[iu as usize] = a_parent;
        self.parent[ia as usize] = iu;
        self.relink(a_parent, ia, iu);
        // Keep the taller grandchild under U; hand the shorter to A.
        let (h1, h2) = (self.height[i1 as usize], self.height[i2 as usize]);
        let (keep, give) = if h1 > h2 { (i1, i2) } else { (i2, i1) };
        self.nodes[iu as usize].child2 = keep;
        if u_is_child2 {
            self.nodes[ia as usize].child2 = give;
        } else {
            self.nodes[ia as usize].child1 = give;
        }
        self.parent[give as usize] = ia;
        let (o, g, k) = (io as usize, give as usize, keep as usize);
        let a_box = self.nodes[o].aabb.union(&self.nodes[g].aabb);
        let a_h = 1 + self.height[o].max(self.height[g]);
        self.nodes[ia as usize].aabb = a_box;
        self.height[ia as usize] = a_h;
        self.nodes[iu as usize].aabb = a_box.union(&self.nodes[k].aabb);
        self.height[iu as usize] = 1 + a_h.max(self.height[k]);
        iu
    }

    /// Gives `leaf` the box `fat` in place: the leaf keeps its position and each ancestor
    /// that does not yet contain `fat` grows to contain it (the walk stops at the first that
    /// does). The growth in half-area is added to `grown_area`.
    fn enlarge(&mut self, leaf: u32, fat: Aabb) {
        self.ranges_valid = false;
        self.nodes[leaf as usize].aabb = fat;
        let mut i = self.parent[leaf as usize];
        while i != NULL {
            let n = &mut self.nodes[i as usize];
            if inside(&fat, &n.aabb) {
                break;
            }
            let before = half_area(&n.aabb);
            n.aabb = n.aabb.union(&fat);
            self.grown_area += half_area(&n.aabb) - before;
            i = self.parent[i as usize];
        }
    }

    /// Rebuilds the tree from the live proxies' fat boxes: Morton codes of the box centres
    /// (quantised to 21 bits per axis over the centres' bounds, in `f64` so that any finite
    /// box works), sorted, then split top-down at the highest bit in which a range's first
    /// and last codes differ (each node's children are the two halves of an octree cell,
    /// Karras 2012), at the middle when all codes in a range are equal. Nodes are written in
    /// depth-first order (a node's first child right after it), so a traversal walks memory
    /// forward; boxes and heights are then filled bottom-up.
    #[inline(never)]
    fn rebuild(&mut self) {
        self.build_items.clear();
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for (id, &l) in self.leaf.iter().enumerate() {
            if l == NULL {
                continue;
            }
            let b = &self.fat[id];
            for k in 0..3 {
                let c = 0.5 * (f64::from(b.min[k]) + f64::from(b.max[k]));
                lo[k] = lo[k].min(c);
                hi[k] = hi[k].max(c);
            }
        }
        let top = f64::from((1u32 << MORTON_BITS) - 1);
        let mut scale = [0.0f64; 3];
        for k in 0..3 {
            if hi[k] > lo[k] {
                scale[k] = top / (hi[k] - lo[k]);
            }
        }
        for (id, &l) in self.leaf.iter().enumerate() {
            if l == NULL {
                continue;
            }
            let b = &self.fat[id];
            let mut code = 0u64;
            for k in 0..3 {
                let c = 0.5 * (f64::from(b.min[k]) + f64::from(b.max[k]));
                // `as` saturates: the result is in [0, 2^21 − 1].
                let q = ((c - lo[k]) * scale[k]).clamp(0.0, top) as u64;
                code |= spread_bits(q) << k;
            }
            self.build_items.push((code, id as u32));
        }
        self.build_items.sort_unstable();
        self.nodes.clear();
        self.parent.clear();
        self.height.clear();
        self.free = NULL;
        self.root = NULL;
        self.base_area = 0.0;
        self.grown_area = 0.0;
        let count = self.build_items.len();
        if count == 0 {
            return;
        }
        let total = 2 * count - 1;
        self.nodes.reserve(total);
        self.parent.reserve(total);
        self.height.reserve(total);
        self.range.clear();
        self.range.reserve(total);
        self.sorted_fat.clear();
        let fat = &self.fat;
        self.sorted_fat
            .extend(self.build_items.iter().map(|&(_, id)| fat[id as usize]));
        self.build_stack.clear();
        self.build_stack.push((0, count as u32, NULL, false));
        while let Some((first, end, parent, second)) = self.build_stack.pop() {
            let i = self.nodes.len() as u32;
            self.range.push((first, end));
            self.nodes.push(Node::EMPTY);
            self.parent.push(parent);
            self.height.push(0);
            if parent != NULL {
                let p = &mut self.nodes[parent as usize];
                if second {
                    p.child2 = i;
                } else {
                    p.child1 = i;
                }
            }
            let (f, e) = (first as usize, end as usize);
            if e - f == 1 {
                let id = self.build_items[f].1;
                self.nodes[i as usize] = Node {
                    aabb: self.fat[id as usize],
                    child1: NULL,
                    child2: id,
                };
                self.leaf[id as usize] = i;
                continue;
            }
            let (a, b) = (self.build_items[f].0, self.build_items[e - 1].0);
            let mid = if a == b {
                f + (e - f) / 2
            } else {
                // Sorted codes sharing every bit above `bit`: those with `bit` clear come
                // first, and both halves are non-empty (the first code has it clear, the
                // last set).
                let bit = 63 - (a ^ b).leading_zeros();
                let mask = 1u64 << bit;
                f + self.build_items[f..e].partition_point(|it| it.0 & mask == 0)
            };
            // The first half is popped next, so it lands right after its parent.
            self.build_stack.push((mid as u32, end, i, true));
            self.build_stack.push((first, mid as u32, i, false));
        }
        // Children come after their parent: fill boxes and heights bottom-up.
        for i in (0..self.nodes.len()).rev() {
            let n = self.nodes[i];
            if n.is_leaf() {
                continue;
            }
            let (c1, c2) = (n.child1 as usize, n.child2 as usize);
            let aabb = self.nodes[c1].aabb.union(&self.nodes[c2].aabb);
            self.nodes[i].aabb = aabb;
            self.height[i] = 1 + self.height[c1].max(self.height[c2]);
            self.base_area += half_area(&aabb);
        }
        self.root = 0;
        self.ranges_valid = true;
    }

    /// Records the pair of proxies `a`, `b` (fat boxes touch) if their groups allow it, and
    /// reports it in `out` if their tight boxes touch too.
    #[inline]
    fn emit(&mut self, a: u32, b: u32, out: &mut Vec<(ProxyId, ProxyId)>) {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        let (ia, ib) = (a as usize, b as usize);
        if self.filtered > 0 && !self.groups[ia].allows(self.groups[ib]) {
            return;
        }
        self.fat_pairs.push((a, b));
        // After a tight rebuild the fat boxes are the tight boxes.
        if self.fat_is_tight || touch(&self.tight[ia], &self.tight[ib]) {
            out.push((a, b));
        }
    }

    /// The tree against itself: every pair of leaves whose fat boxes touch is emitted exactly
    /// once (a node with itself splits into its two children with themselves and with each
    /// other; two different nodes whose boxes touch split the larger, or the one that is not
    /// a leaf; Ericson, RTCD §6.3.3). Boxes are tested before a pair is pushed.
    #[inline(never)]
    fn self_traverse(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        let mut stack = std::mem::take(&mut self.pair_stack);
        stack.clear();
        if self.root != NULL {
            stack.push((self.root, self.root));
        }
        // Right after a rebuild each subtree's leaves are a contiguous run of `sorted_fat`:
        // small subtrees are then compared box by box in that array (short loops over
        // contiguous memory) instead of descended node by node.
        let brute = self.ranges_valid && self.range.len() == self.nodes.len();
        while let Some((a, b)) = stack.pop() {
            let na = self.nodes[a as usize];
            if brute {
                let (fa, ea) = self.range[a as usize];
                let (fb, eb) = self.range[b as usize];
                let (fa, ea, fb, eb) = (fa as usize, ea as usize, fb as usize, eb as usize);
                if a == b && ea - fa <= BRUTE_SELF {
                    for i in fa..ea {
                        let bi = self.sorted_fat[i];
                        for j in i + 1..ea {
                            if touch(&bi, &self.sorted_fat[j]) {
                                self.emit(self.build_items[i].1, self.build_items[j].1, out);
                            }
                        }
                    }
                    continue;
                }
                if a != b && (ea - fa) * (eb - fb) <= BRUTE_CROSS {
                    for i in fa..ea {
                        let bi = self.sorted_fat[i];
                        for j in fb..eb {
                            if touch(&bi, &self.sorted_fat[j]) {
                                self.emit(self.build_items[i].1, self.build_items[j].1, out);
                            }
                        }
                    }
                    continue;
                }
            }
            if a == b {
                if na.is_leaf() {
                    continue;
                }
                let (c1, c2) = (na.child1, na.child2);
                stack.push((c1, c1));
                stack.push((c2, c2));
                if touch(&self.nodes[c1 as usize].aabb, &self.nodes[c2 as usize].aabb) {
                    stack.push((c1, c2));
                }
                continue;
            }
            let nb = self.nodes[b as usize];
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => self.emit(na.child2, nb.child2, out),
                (a_leaf, b_leaf) => {
                    let split_a = b_leaf || (!a_leaf && size(&na.aabb) >= size(&nb.aabb));
                    let (split, keep, keep_box) = if split_a {
                        (na, b, nb.aabb)
                    } else {
                        (nb, a, na.aabb)
                    };
                    for c in [split.child1, split.child2] {
                        if touch(&self.nodes[c as usize].aabb, &keep_box) {
                            stack.push((c, keep));
                        }
                    }
                }
            }
        }
        self.pair_stack = stack;
    }

    /// For every moved live proxy in leaf order (neighbouring leaves share cached
    /// ancestors): gives its leaf its new fat box, then finds its pairs by a query of that
    /// box from the root, and clears its moved flag. A pair of two moved proxies is emitted
    /// by the query of the one whose turn comes second (the first's leaf is up to date by
    /// then; the second's old leaf box, still in the tree during the first's query, is
    /// skipped because its flag is still set).
    #[inline(never)]
    fn query_moved(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        let mut order = std::mem::take(&mut self.build_items);
        order.clear();
        for &m in &self.moved {
            let l = self.leaf[m as usize];
            if l != NULL {
                order.push((u64::from(l), m));
            }
        }
        order.sort_unstable();
        let mut stack = std::mem::take(&mut self.node_stack);
        for &(l, m) in &order {
            let fat = self.fat[m as usize];
            // The walk up leaves this leaf's ancestors in cache for the query's walk down.
            self.enlarge(l as u32, fat);
            stack.clear();
            // The root contains every leaf, so it touches this one; children are tested
            // before they are pushed.
            stack.push(self.root);
            while let Some(i) = stack.pop() {
                let n = self.nodes[i as usize];
                if n.is_leaf() {
                    // A moved proxy still flagged has not had its turn: its leaf may hold
                    // its old box, and its own query will meet this one (already done).
                    let o = n.child2;
                    if o != m && !self.moved_flag[o as usize] {
                        self.emit(m, o, out);
                    }
                    continue;
                }
                for c in [n.child1, n.child2] {
                    if touch(&self.nodes[c as usize].aabb, &fat) {
                        stack.push(c);
                    }
                }
            }
            self.moved_flag[m as usize] = false;
        }
        self.node_stack = stack;
        self.build_items = order;
    }

    /// Calls `f(proxy)` for every leaf whose fat box touches `aabb`, until `f` returns false.
    fn query_fat(&self, aabb: &Aabb, f: &mut dyn FnMut(u32) -> bool) {
        let mut stack = Stack::new(self.root);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if !boxes_touch(&n.aabb, aabb) {
                continue;
            }
            if n.is_leaf() {
                if !f(n.child2) {
                    return;
                }
            } else {
                stack.push(n.child1);
                stack.push(n.child2);
            }
        }
    }

    /// `true` when rebuilding everything is expected to cost less than the incremental
    /// update for `moved` moved proxies. A cost model in nanoseconds, fitted to measurements
    /// at 100k proxies on the benchmark's scenes (only the comparison matters):
    /// incremental ≈ 11 per listed fat pair (the pass over the list) + per moved proxy
    /// 600 (a query from the root) + 100 per fat neighbour (2·fat pairs / proxies on
    /// average); full ≈ 200 per proxy (Morton build and traversal) + 40 per reported pair.
    fn full_is_cheaper(&self, moved: usize) -> bool {
        if self.live == 0 {
            return false;
        }
        let live = self.live as f64;
        let fat = self.fat_pairs.len() as f64;
        let neighbours = 2.0 * fat / live;
        let incremental = 11.0 * fat + moved as f64 * (600.0 + 100.0 * neighbours);
        let full = 200.0 * live + 40.0 * self.last_pairs as f64;
        full < incremental
    }

    /// Flags proxy `id` as moved (its pairs are re-derived at the next `update_pairs`).
    fn mark_moved(&mut self, id: u32) {
        let flag = &mut self.moved_flag[id as usize];
        if !*flag {
            *flag = true;
            self.moved.push(id);
            self.moved_live += 1;
        }
    }
}

impl BroadPhase for DynamicBvh {
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError> {
        check_aabb(&aabb)?;
        let id = self.ids.alloc()?;
        let fat = self.fat_box(&aabb, Vec3::ZERO);
        let leaf = self.alloc_node();
        self.nodes[leaf as usize] = Node {
            aabb: fat,
            child1: NULL,
            child2: id,
        };
        self.insert_leaf(leaf);
        let i = id as usize;
        if self.leaf.len() <= i {
            self.tight.resize(i + 1, Aabb::EMPTY);
            self.fat.resize(i + 1, Aabb::EMPTY);
            self.groups.resize(i + 1, CollisionGroups::NONE);
            self.leaf.resize(i + 1, NULL);
            self.moved_flag.resize(i + 1, false);
        }
        self.tight[i] = aabb;
        self.fat[i] = fat;
        self.groups[i] = groups;
        if groups != CollisionGroups::ALL {
            self.filtered += 1;
        }
        self.leaf[i] = leaf;
        self.mark_moved(id);
        self.live += 1;
        self.edited = true;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let leaf = match self.leaf.get(id as usize) {
            Some(&l) if l != NULL => l,
            _ => return Err(BroadPhaseError::UnknownProxy(id)),
        };
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.leaf[id as usize] = NULL;
        if self.groups[id as usize] != CollisionGroups::ALL {
            self.filtered -= 1;
        }
        // Its listed pairs are dropped at the next `update_pairs`.
        self.mark_moved(id);
        self.ids.remove(id);
        self.live -= 1;
        self.edited = true;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let i = id as usize;
        if self.leaf.get(i).is_none_or(|&l| l == NULL) {
            return Err(BroadPhaseError::UnknownProxy(id));
        }
        check_aabb(&aabb)?;
        self.edited = true;
        let old = self.tight[i];
        self.tight[i] = aabb;
        let current = self.fat[i];
        // Displacement of the box, min corner to min corner (finite unless the box jumped
        // across most of the f32 range, then taken as zero by `fat_box`).
        let fat = self.fat_box(&aabb, aabb.min - old.min);
        if inside(&aabb, &current) {
            // Still inside its fat box; keep it unless that box is far too large (a body that
            // moved fast and then slowed down), as Box2D does.
            let huge = fat.expanded(4.0 * self.margin);
            if inside(&current, &huge) {
                return Ok(());
            }
        }
        // The leaf keeps its old box until `update_pairs`, which either rebuilds the tree or
        // enlarges the moved leaves in leaf order (neighbouring leaves share ancestors, so
        // the walks up stay in cache); queries meanwhile answer moved proxies from the list.
        self.fat[i] = fat;
        self.mark_moved(id);
        Ok(())
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        let leaf = &self.leaf;
        let moved_live = self
            .moved
            .iter()
            .filter(|&&m| leaf[m as usize] != NULL)
            .count();
        let full = self.full_is_cheaper(moved_live);
        self.last_rebuilt = full || self.grown_area > GROWTH_LIMIT * self.base_area;
        // Under sustained large motion nearly every proxy leaves its fat box every frame, so
        // the margin buys nothing and only adds false fat pairs: rebuild with the tight boxes
        // as fat boxes, except once every `PROBE_PERIOD` calls, when the fattened boxes are
        // kept to find out whether the motion has calmed down (the next frame then moves few
        // proxies and goes incremental).
        self.fat_is_tight = full && self.since_probe < PROBE_PERIOD;
        if full && !self.fat_is_tight {
            self.since_probe = 0;
        }
        self.since_probe = self.since_probe.saturating_add(1);
        if self.fat_is_tight {
            for (i, &l) in self.leaf.iter().enumerate() {
                if l != NULL {
                    self.fat[i] = self.tight[i];
                }
            }
        }
        if self.last_rebuilt {
            self.rebuild();
        }
        if full {
            // Every pair from scratch: one traversal of the whole tree.
            self.fat_pairs.clear();
            self.self_traverse(out);
            self.fat_is_tight = false;
        } else {
            // Pairs of two unmoved proxies keep touching fat boxes: keep them, report those
            // whose tight boxes touch. Pairs with a moved or removed proxy are dropped here
            // and found again (if they still touch) by the traversal.
            let (moved_flag, tight) = (&self.moved_flag, &self.tight);
            self.fat_pairs.retain(|&(a, b)| {
                let (ia, ib) = (a as usize, b as usize);
                if moved_flag[ia] || moved_flag[ib] {
                    return false;
                }
                if touch(&tight[ia], &tight[ib]) {
                    out.push((a, b));
                }
                true
            });
            self.query_moved(out);
        }
        for &m in &self.moved {
            self.moved_flag[m as usize] = false;
        }
        self.moved.clear();
        self.moved_live = 0;
        self.last_moved = moved_live;
        self.last_pairs = out.len();
        self.ids.release_pending();
        self.edited = false;
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool) {
        // Proxies moved since the last `update_pairs` may still have their old leaf box:
        // they are answered from the moved list, the others from the tree.
        let mut go = true;
        self.query_fat(aabb, &mut |p| {
            let i = p as usize;
            if !self.moved_flag[i] && boxes_touch(&self.tight[i], aabb) {
                go = f(p);
            }
            go
        });
        if !go {
            return;
        }
        for &m in &self.moved {
            let i = m as usize;
            if self.leaf[i] != NULL && boxes_touch(&self.tight[i], aabb) && !f(m) {
                return;
            }
        }
    }

    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32) {
        let inv = ray.dir.recip();
        let mut max_t = max_t;
        // Proxies moved since the last `update_pairs` (their leaf box may be old) first,
        // from the moved list; then the others from the tree.
        for &m in &self.moved {
            let i = m as usize;
            if self.leaf[i] == NULL {
                continue;
            }
            if let Some(t) = ray_box_entry(ray.origin, ray.dir, inv, &self.tight[i], max_t) {
                max_t = f(m, t);
                if max_t.is_nan() || max_t < 0.0 {
                    return;
                }
            }
        }
        let mut stack = Stack::new(self.root);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if ray_box_entry(ray.origin, ray.dir, inv, &n.aabb, max_t).is_none() {
                continue;
            }
            if !n.is_leaf() {
                stack.push(n.child1);
                stack.push(n.child2);
                continue;
            }
            if self.moved_flag[n.child2 as usize] {
                continue;
            }
            let tight = &self.tight[n.child2 as usize];
            if let Some(t) = ray_box_entry(ray.origin, ray.dir, inv, tight, max_t) {
                max_t = f(n.child2, t);
                if max_t.is_nan() || max_t < 0.0 {
                    return;
                }
            }
        }
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        let i = id as usize;
        (*self.leaf.get(i)? != NULL).then(|| self.tight[i])
    }

    fn len(&self) -> usize {
        self.live
    }

    fn validate(&self) -> Result<(), String> {
        let n_nodes = self.nodes.len();
        if self.parent.len() != n_nodes || self.height.len() != n_nodes {
            return Err("node arrays differ in length".into());
        }
        // Tree structure: links, heights, containment, leaf count.
        let mut leaves = 0usize;
        let mut reachable = 0usize;
        if self.root != NULL {
            if self.parent[self.root as usize] != NULL {
                return Err("root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                reachable += 1;
                if reachable > n_nodes {
                    return Err("the tree has a cycle".into());
                }
                let k = i as usize;
                let n = &self.nodes[k];
                if self.height[k] < 0 {
                    return Err(format!("node {i} is reachable but free"));
                }
                if n.is_leaf() {
                    leaves += 1;
                    if self.height[k] != 0 {
                        return Err(format!("leaf {i} has height {}", self.height[k]));
                    }
                    let p = n.child2 as usize;
                    if self.leaf.get(p) != Some(&i) {
                        return Err(format!("leaf {i} and proxy {p} disagree"));
                    }
                    if !inside(&self.tight[p], &self.fat[p])
                        || (!self.moved_flag[p] && n.aabb != self.fat[p])
                    {
                        return Err(format!("leaf {i}: fat box wrong for its proxy"));
                    }
                    continue;
                }
                let (c1, c2) = (n.child1 as usize, n.child2 as usize);
                if c1 >= n_nodes || c2 >= n_nodes {
                    return Err(format!("node {i}: child out of range"));
                }
                if self.parent[c1] != i || self.parent[c2] != i {
                    return Err(format!("node {i}: a child's parent link is wrong"));
                }
                if self.height[k] != 1 + self.height[c1].max(self.height[c2]) {
                    return Err(format!("node {i}: height {} is wrong", self.height[k]));
                }
                if !inside(&self.nodes[c1].aabb, &n.aabb) || !inside(&self.nodes[c2].aabb, &n.aabb)
                {
                    return Err(format!("node {i}: box does not contain its children's"));
                }
                stack.push(n.child1);
                stack.push(n.child2);
            }
        }
        if leaves != self.live {
            return Err(format!("{leaves} leaves for {} live proxies", self.live));
        }
        let mut free = 0usize;
        let mut f = self.free;
        while f != NULL {
            free += 1;
            if free > n_nodes {
                return Err("free list has a cycle".into());
            }
            if self.height[f as usize] != -1 {
                return Err(format!("free node {f} has a height"));
            }
            f = self.parent[f as usize];
        }
        if free + reachable != n_nodes {
            return Err(format!(
                "{n_nodes} nodes but {reachable} reachable and {free} free"
            ));
        }
        let filtered = (0..self.leaf.len())
            .filter(|&i| self.leaf[i] != NULL && self.groups[i] != CollisionGroups::ALL)
            .count();
        if filtered != self.filtered {
            return Err(format!(
                "{filtered} live proxies with groups, counted {}",
                self.filtered
            ));
        }
        let flagged = self.moved_flag.iter().filter(|&&m| m).count();
        if flagged != self.moved.len() {
            return Err(format!(
                "{flagged} proxies flagged moved, {} listed",
                self.moved.len()
            ));
        }
        if self.edited {
            return Ok(());
        }
        // Fat pair list: ordered, distinct, members live, touching and allowed; as many as
        // a per-proxy tree query finds.
        let mut sorted = self.fat_pairs.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err("fat pair listed twice".into());
        }
        for &(a, b) in &sorted {
            let (ia, ib) = (a as usize, b as usize);
            if a >= b
                || self.leaf.get(ia).is_none_or(|&l| l == NULL)
                || self.leaf.get(ib).is_none_or(|&l| l == NULL)
            {
                return Err(format!(
                    "fat pair ({a}, {b}) unordered or names a dead proxy"
                ));
            }
            if !boxes_touch(&self.fat[ia], &self.fat[ib])
                || !self.groups[ia].allows(self.groups[ib])
            {
                return Err(format!("fat pair ({a}, {b}) does not touch or is filtered"));
            }
        }
        let mut count = 0usize;
        for (a, &l) in self.leaf.iter().enumerate() {
            if l == NULL {
                continue;
            }
            self.query_fat(&self.fat[a], &mut |b| {
                if (b as usize) > a && self.groups[a].allows(self.groups[b as usize]) {
                    count += 1;
                }
                true
            });
        }
        if count != sorted.len() {
            return Err(format!(
                "fat pair list has {} pairs, the tree finds {count}",
                sorted.len()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_insertion_stays_balanced() {
        // 4096 boxes inserted in sorted order (a degenerate list without rotations).
        let mut t = DynamicBvh::new();
        for i in 0..4096 {
            let c = Vec3::new(i as f32, 0.0, 0.0);
            t.insert(
                Aabb::from_center_half_extents(c, Vec3::splat(0.25)),
                CollisionGroups::ALL,
            )
            .unwrap();
        }
        t.validate().unwrap();
        // A perfectly balanced tree has height 12; AVL-style balance stays within 1.44×.
        assert!(t.height() <= 18, "height {}", t.height());
    }

    #[test]
    fn small_motion_keeps_the_leaf_large_motion_reinserts() {
        // A unit box moving 0.05 stays inside its fat box (margin 0.1); moving 1 does not.
        let mut t = DynamicBvh::new();
        let b = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(0.5));
        let id = t.insert(b, CollisionGroups::ALL).unwrap();
        let mut out = Vec::new();
        t.update_pairs(&mut out);
        assert_eq!(t.last_moved(), 1);
        t.update(
            id,
            b.expanded(0.0)
                .transformed(&crate::Affine3A::from_translation(Vec3::X * 0.05)),
        )
        .unwrap();
        t.update_pairs(&mut out);
        assert_eq!(t.last_moved(), 0);
        t.update(
            id,
            b.transformed(&crate::Affine3A::from_translation(Vec3::X)),
        )
        .unwrap();
        t.update_pairs(&mut out);
        assert_eq!(t.last_moved(), 1);
        t.validate().unwrap();
        assert_eq!(t.margin(), 0.1);
        assert_eq!(DynamicBvh::with_margin(f32::NAN).margin(), 0.0);
    }

    /// A row of `n` unit boxes 1.5 apart along x, shifted by `dx`.
    fn row(n: usize, dx: f32) -> Vec<Aabb> {
        (0..n)
            .map(|i| {
                let c = Vec3::new(i as f32 * 1.5 + dx, 0.0, 0.0);
                Aabb::from_center_half_extents(c, Vec3::splat(0.5))
            })
            .collect()
    }

    #[test]
    fn large_motion_rebuilds_tight_and_probes_every_8th_frame() {
        // 100 boxes in a row jump by 0.8 (more than any fat box) every frame: queries before
        // `update_pairs` stay exact, every frame rebuilds, frames after the first use the tight boxes, every 8th keeps fat ones.
        let mut t = DynamicBvh::new();
        for b in row(100, 0.0) {
            t.insert(b, CollisionGroups::ALL).unwrap();
        }
        let mut out = Vec::new();
        t.update_pairs(&mut out);
        for frame in 1..=17 {
            let boxes = row(100, 0.8 * frame as f32);
            for (i, b) in boxes.iter().enumerate() {
                t.update(i as u32, *b).unwrap();
            }
            // Before `update_pairs` the moved proxies are answered from the moved list.
            let q = Aabb::new(Vec3::new(10.0, -1.0, -1.0), Vec3::new(20.0, 1.0, 1.0));
            let mut got = Vec::new();
            t.query_aabb(&q, &mut |id| {
                got.push(id);
                true
            });
            got.sort_unstable();
            let want: Vec<u32> = (0..100u32)
                .filter(|&i| boxes_touch(&boxes[i as usize], &q))
                .collect();
            assert_eq!(got, want);
            t.update_pairs(&mut out);
            assert!(t.last_rebuilt());
            // Neighbours 1.5 apart with half-size 0.5 never touch.
            assert!(out.is_empty());
            t.validate().unwrap();
            let tight = (0..100).all(|i| t.fat[i] == t.tight[i]);
            // The bulk insertion's full frame (frame 0) kept the margins; then tight frames,
            // fattened again every 8th.
            assert_eq!(tight, frame % 8 != 0, "frame {frame}");
        }
        // Motion stops: one more full frame (every box moved last time), then nothing moves.
        for _ in 0..2 {
            t.update_pairs(&mut out);
        }
        assert!(!t.last_rebuilt());
        assert_eq!(t.last_moved(), 0);
    }

    #[test]
    fn small_moves_enlarge_in_place_then_rebuild_when_grown() {
        // 64 boxes drift 0.15 per frame (past the margin): leaves get new fat boxes in place,
        // ancestors only grow, and once they have grown by half the tree is rebuilt.
        let mut t = DynamicBvh::new();
        for b in row(64, 0.0) {
            t.insert(b, CollisionGroups::ALL).unwrap();
        }
        let mut out = Vec::new();
        t.update_pairs(&mut out);
        let mut rebuilt = 0;
        for frame in 1..40 {
            // Only the first 10 boxes move, up in y (below the full-rebuild fraction), so
            // the thin nodes along the row grow in area.
            let lift = Vec3::new(0.0, 0.15 * frame as f32, 0.0);
            for (i, b) in row(10, 0.0).iter().enumerate() {
                t.update(i as u32, Aabb::new(b.min + lift, b.max + lift))
                    .unwrap();
                t.validate().unwrap();
            }
            t.update_pairs(&mut out);
            t.validate().unwrap();
            rebuilt += usize::from(t.last_rebuilt());
            assert!(t.last_moved() <= 10);
            assert!(out.is_empty(), "boxes 1.5 apart never touch");
        }
        assert!(rebuilt >= 1, "the grown tree was never rebuilt");
    }
}
