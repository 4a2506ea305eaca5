//! Dynamic bounding-volume tree of fattened boxes (Box2D's `b2DynamicTree`, Catto).

use super::{
    boxes_touch, check_aabb, key_pair, pair_key, ray_box_entry, BroadPhase, BroadPhaseError,
    CollisionGroups, IdPool, PairSet, ProxyId,
};
use crate::math::Vec3;
use crate::shapes::{Aabb, Ray};

/// The null node index.
const NULL: u32 = u32::MAX;

/// How far ahead a leaf's fat box reaches along the last displacement (Box2D's
/// `b2_aabbMultiplier`): a body moving steadily re-enters the tree every few frames, not
/// every frame.
const DISPLACEMENT_MULTIPLIER: f32 = 4.0;

/// A tree node: a leaf holds one proxy's fat box; an inner node the union of its children.
#[derive(Clone, Copy, Debug)]
struct Node {
    aabb: Aabb,
    /// Parent node, or the next free node while the node is in the free list.
    parent: u32,
    /// `NULL` for a leaf.
    child1: u32,
    child2: u32,
    /// Leaf: 0; inner: 1 + max of the children; free: -1.
    height: i32,
    /// The proxy of a leaf.
    proxy: u32,
}

impl Node {
    #[inline]
    fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// Per-proxy data, kept together so the pair sweep touches one cache line per proxy.
#[derive(Clone, Copy, Debug)]
struct Proxy {
    /// The box last given.
    tight: Aabb,
    /// The leaf's fat box (a copy of the node's).
    fat: Aabb,
    groups: CollisionGroups,
    /// The leaf node, `NULL` when the proxy is dead.
    leaf: u32,
    /// Re-inserted since the last `update_pairs`.
    moved: bool,
}

/// Half the surface area, in `f64` so that boxes at `±1e30` (area `1e60`) neither overflow
/// nor lose the comparisons of the insertion cost.
#[inline]
fn half_area(b: &Aabb) -> f64 {
    let s = b.max - b.min;
    let (x, y, z) = (f64::from(s.x), f64::from(s.y), f64::from(s.z));
    x * y + y * z + z * x
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
/// box and the tree is untouched. Leaves are inserted by the surface-area heuristic (the
/// branch cost descent of Box2D 2.3 `InsertLeaf`) and the tree is kept height-balanced by
/// rotations on the way back up (Box2D's `Balance`). Nodes live in one pooled array,
/// addressed by index, with a free list.
///
/// Pairs: the structure keeps the set of pairs whose *fat* boxes touch. Each
/// [`BroadPhase::update_pairs`] queries the tree only for the proxies re-inserted since the
/// last call (their fat boxes changed), drops pairs whose fat boxes no longer touch, and
/// reports those whose *tight* boxes touch — exactly the set [`BruteForce`](super::BruteForce)
/// reports, at a cost proportional to the moved proxies and the pairs, not to `n²`.
///
/// Degenerate input: flat and point boxes are fine; boxes at `±1e30` work (costs are
/// computed in `f64`; fat boxes are clamped to `±f32::MAX`).
///
/// Cost: the per-frame work is one tree query per re-inserted proxy plus one pass over the
/// fat pairs. Both are memory-bound at 100k bodies (random node and proxy access): in the
/// benchmark against parry3d this is about 3× slower than parry's refit plus tree-vs-tree
/// traversal at 100k bodies, level at 1k. The nodes are laid out depth-first again after many
/// re-insertions, and moved proxies are queried in leaf order, to keep queries local.
#[derive(Clone, Debug)]
pub struct DynamicBvh {
    nodes: Vec<Node>,
    root: u32,
    free: u32,
    proxies: Vec<Proxy>,
    ids: IdPool,
    live: usize,
    margin: f32,
    /// Proxies re-inserted since the last `update_pairs`.
    moved: Vec<u32>,
    /// Pairs of allowed proxies whose fat boxes touch.
    fat_pairs: PairSet,
    /// Scratch traversal stack for `update_pairs`.
    stack: Vec<u32>,
    /// Any edit since the last `update_pairs`.
    edited: bool,
    last_moved: usize,
    /// Leaves re-inserted since the nodes were last laid out depth-first.
    reinserted: usize,
    /// Scratch for the depth-first layout: old index → new index.
    remap: Vec<u32>,
    /// Scratch for the depth-first layout: the new node array.
    relaid: Vec<Node>,
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
            root: NULL,
            free: NULL,
            proxies: Vec::new(),
            ids: IdPool::default(),
            live: 0,
            margin: if margin.is_finite() && margin > 0.0 {
                margin
            } else {
                0.0
            },
            moved: Vec::new(),
            fat_pairs: PairSet::default(),
            stack: Vec::new(),
            edited: false,
            last_moved: 0,
            reinserted: 0,
            remap: Vec::new(),
            relaid: Vec::new(),
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
            self.nodes[self.root as usize].height
        }
    }

    /// Proxies re-inserted (left their fat box) before the last [`BroadPhase::update_pairs`].
    #[must_use]
    pub fn last_moved(&self) -> usize {
        self.last_moved
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
            .filter(|n| n.height > 0)
            .map(|n| half_area(&n.aabb))
            .sum();
        total / root
    }

    /// The fat box of a proxy moved to `tight` after a displacement `d`: grown by the margin,
    /// stretched by `4d` ahead (at most two margins per axis), clamped to finite values.
    fn fat_box(&self, tight: &Aabb, d: Vec3) -> Aabb {
        let mut fat = tight.expanded(self.margin);
        // Stretched ahead by 4 displacements, but by no more than 2 margins per axis: a body
        // jumping several box sizes per frame re-enters the tree every frame anyway, and a
        // long stretch would only make many false fat pairs.
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
        let node = Node {
            aabb: Aabb::EMPTY,
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            proxy: NULL,
        };
        if self.free != NULL {
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.parent = self.free;
        n.height = -1;
        n.child1 = NULL;
        n.child2 = NULL;
        n.proxy = NULL;
        self.free = i;
    }

    /// Inserts a leaf: descend by the SAH branch cost, pair it with the chosen sibling under
    /// a new parent, then refit and rebalance up to the root.
    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
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
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.alloc_node();
        {
            let sib = self.nodes[sibling as usize];
            let p = &mut self.nodes[new_parent as usize];
            p.parent = old_parent;
            p.aabb = leaf_box.union(&sib.aabb);
            p.height = sib.height + 1;
            p.child1 = sibling;
            p.child2 = leaf;
        }
        if old_parent != NULL {
            let op = &mut self.nodes[old_parent as usize];
            if op.child1 == sibling {
                op.child1 = new_parent;
            } else {
                op.child2 = new_parent;
            }
        } else {
            self.root = new_parent;
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_up(self.nodes[leaf as usize].parent);
    }

    /// Walks from `index` to the root, rebalancing and refitting every ancestor.
    fn refit_up(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            let n = self.nodes[index as usize];
            let (c1, c2) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
            let node = &mut self.nodes[index as usize];
            node.height = 1 + c1.height.max(c2.height);
            node.aabb = c1.aabb.union(&c2.aabb);
            index = node.parent;
        }
    }

    /// Removes a leaf: its sibling takes the parent's place; ancestors are refitted.
    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let grand = p.parent;
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        if grand != NULL {
            let g = &mut self.nodes[grand as usize];
            if g.child1 == parent {
                g.child1 = sibling;
            } else {
                g.child2 = sibling;
            }
            self.nodes[sibling as usize].parent = grand;
            self.free_node(parent);
            self.refit_up(grand);
        } else {
            self.root = sibling;
            self.nodes[sibling as usize].parent = NULL;
            self.free_node(parent);
        }
    }

    /// One rotation at `a` if its children's heights differ by more than one: the taller
    /// child moves up and takes `a` as a child (Box2D `b2DynamicTree::Balance`, an AVL-style
    /// rotation). Returns the node now at `a`'s place. Children's boxes are recomputed; the
    /// caller refits the returned node.
    fn balance(&mut self, ia: u32) -> u32 {
        let a = self.nodes[ia as usize];
        if a.is_leaf() || a.height < 2 {
            return ia;
        }
        let (ib, ic) = (a.child1, a.child2);
        let (hb, hc) = (
            self.nodes[ib as usize].height,
            self.nodes[ic as usize].height,
        );
        let diff = hc - hb;
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
        let a_parent = self.nodes[ia as usize].parent;
        // U takes A's place.
        {
            let un = &mut self.nodes[iu as usize];
            un.child1 = ia;
            un.parent = a_parent;
        }
        self.nodes[ia as usize].parent = iu;
        if a_parent != NULL {
            let p = &mut self.nodes[a_parent as usize];
            if p.child1 == ia {
                p.child1 = iu;
            } else {
                p.child2 = iu;
            }
        } else {
            self.root = iu;
        }
        // Keep the taller grandchild under U; hand the shorter to A.
        let (h1, h2) = (
            self.nodes[i1 as usize].height,
            self.nodes[i2 as usize].height,
        );
        let (keep, give) = if h1 > h2 { (i1, i2) } else { (i2, i1) };
        self.nodes[iu as usize].child2 = keep;
        if u_is_child2 {
            self.nodes[ia as usize].child2 = give;
        } else {
            self.nodes[ia as usize].child1 = give;
        }
        self.nodes[give as usize].parent = ia;
        let (o, g, k) = (
            self.nodes[io as usize],
            self.nodes[give as usize],
            self.nodes[keep as usize],
        );
        let an = &mut self.nodes[ia as usize];
        an.aabb = o.aabb.union(&g.aabb);
        an.height = 1 + o.height.max(g.height);
        let (a_box, a_h) = (an.aabb, an.height);
        let un = &mut self.nodes[iu as usize];
        un.aabb = a_box.union(&k.aabb);
        un.height = 1 + a_h.max(k.height);
        iu
    }

    /// Lays the nodes out in depth-first order (each subtree contiguous, free list emptied),
    /// as parry's refit does: a query then walks memory that its neighbours also walk.
    fn relayout(&mut self) {
        self.reinserted = 0;
        self.relaid.clear();
        self.remap.clear();
        self.remap.resize(self.nodes.len(), NULL);
        if self.root == NULL {
            self.nodes.clear();
            self.free = NULL;
            return;
        }
        // Pre-order: parents before children, first child's subtree right after its parent.
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(old) = self.stack.pop() {
            let n = self.nodes[old as usize];
            self.remap[old as usize] = self.relaid.len() as u32;
            self.relaid.push(n);
            if !n.is_leaf() {
                self.stack.push(n.child2);
                self.stack.push(n.child1);
            }
        }
        let map = |i: u32, remap: &[u32]| if i == NULL { NULL } else { remap[i as usize] };
        for n in &mut self.relaid {
            n.parent = map(n.parent, &self.remap);
            n.child1 = map(n.child1, &self.remap);
            n.child2 = map(n.child2, &self.remap);
        }
        // Every reachable leaf belongs to a live proxy: point the proxy at its new leaf.
        for (i, n) in self.relaid.iter().enumerate() {
            if n.is_leaf() {
                self.proxies[n.proxy as usize].leaf = i as u32;
            }
        }
        self.root = 0;
        self.free = NULL;
        std::mem::swap(&mut self.nodes, &mut self.relaid);
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
                if !f(n.proxy) {
                    return;
                }
            } else {
                stack.push(n.child1);
                stack.push(n.child2);
            }
        }
    }
}

impl BroadPhase for DynamicBvh {
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError> {
        check_aabb(&aabb)?;
        let id = self.ids.alloc()?;
        let fat = self.fat_box(&aabb, Vec3::ZERO);
        let leaf = self.alloc_node();
        {
            let n = &mut self.nodes[leaf as usize];
            n.aabb = fat;
            n.proxy = id;
        }
        self.insert_leaf(leaf);
        let i = id as usize;
        let proxy = Proxy {
            tight: aabb,
            fat,
            groups,
            leaf,
            moved: true,
        };
        if self.proxies.len() <= i {
            self.proxies.resize(
                i + 1,
                Proxy {
                    leaf: NULL,
                    ..proxy
                },
            );
        }
        self.proxies[i] = proxy;
        self.moved.push(id);
        self.live += 1;
        self.edited = true;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let leaf = match self.proxies.get(id as usize) {
            Some(p) if p.leaf != NULL => p.leaf,
            _ => return Err(BroadPhaseError::UnknownProxy(id)),
        };
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.proxies[id as usize].leaf = NULL;
        self.proxies[id as usize].moved = false;
        self.ids.remove(id);
        self.live -= 1;
        self.edited = true;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let p = match self.proxies.get(id as usize) {
            Some(p) if p.leaf != NULL => *p,
            _ => return Err(BroadPhaseError::UnknownProxy(id)),
        };
        check_aabb(&aabb)?;
        self.edited = true;
        self.proxies[id as usize].tight = aabb;
        // Displacement of the box, min corner to min corner (finite unless the box jumped
        // across most of the f32 range, then taken as zero by `fat_box`).
        let fat = self.fat_box(&aabb, aabb.min - p.tight.min);
        if p.fat.contains(&aabb) {
            // Still inside its fat box; keep it unless that box is far too large (a body that
            // moved fast and then slowed down), as Box2D does.
            let huge = fat.expanded(4.0 * self.margin);
            if huge.contains(&p.fat) {
                return Ok(());
            }
        }
        self.remove_leaf(p.leaf);
        self.nodes[p.leaf as usize].aabb = fat;
        self.insert_leaf(p.leaf);
        self.reinserted += 1;
        let q = &mut self.proxies[id as usize];
        q.fat = fat;
        if !q.moved {
            q.moved = true;
            self.moved.push(id);
        }
        Ok(())
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        // After many re-insertions, lay the tree out depth-first again; then query the moved
        // proxies in leaf order, which is depth-first order: neighbouring queries walk the
        // same subtrees, in nearby memory.
        if self.reinserted * 8 > self.live {
            self.relayout();
        }
        let proxies = &self.proxies;
        self.moved
            .sort_unstable_by_key(|&m| proxies.get(m as usize).map_or(NULL, |p| p.leaf));
        // New fat-box pairs: only proxies whose fat box changed can have any.
        let mut stack = std::mem::take(&mut self.stack);
        self.last_moved = 0;
        for mi in 0..self.moved.len() {
            let m = self.moved[mi];
            let pm = self.proxies[m as usize];
            if pm.leaf == NULL {
                continue;
            }
            self.last_moved += 1;
            stack.clear();
            if self.root != NULL {
                stack.push(self.root);
            }
            while let Some(i) = stack.pop() {
                let n = &self.nodes[i as usize];
                if !boxes_touch(&n.aabb, &pm.fat) {
                    continue;
                }
                if !n.is_leaf() {
                    stack.push(n.child1);
                    stack.push(n.child2);
                    continue;
                }
                let o = n.proxy;
                if o == m {
                    continue;
                }
                let po = &self.proxies[o as usize];
                // Both moved: the query of the smaller id records it.
                if po.moved && o < m {
                    continue;
                }
                if pm.groups.allows(po.groups) {
                    self.fat_pairs.insert(pair_key(m, o));
                }
            }
        }
        for &m in &self.moved {
            self.proxies[m as usize].moved = false;
        }
        self.moved.clear();
        self.stack = stack;
        // Drop pairs whose fat boxes separated (or whose proxy died); report tight touches.
        out.clear();
        let proxies = &self.proxies;
        self.fat_pairs.retain(|&key| {
            let (a, b) = key_pair(key);
            let (pa, pb) = (&proxies[a as usize], &proxies[b as usize]);
            if pa.leaf == NULL || pb.leaf == NULL || !boxes_touch(&pa.fat, &pb.fat) {
                return false;
            }
            if boxes_touch(&pa.tight, &pb.tight) {
                out.push((a, b));
            }
            true
        });
        self.ids.release_pending();
        self.edited = false;
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool) {
        self.query_fat(aabb, &mut |p| {
            if boxes_touch(&self.proxies[p as usize].tight, aabb) {
                f(p)
            } else {
                true
            }
        });
    }

    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32) {
        let inv = ray.dir.recip();
        let mut max_t = max_t;
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
            let tight = &self.proxies[n.proxy as usize].tight;
            if let Some(t) = ray_box_entry(ray.origin, ray.dir, inv, tight, max_t) {
                max_t = f(n.proxy, t);
                if max_t.is_nan() || max_t < 0.0 {
                    return;
                }
            }
        }
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        let p = self.proxies.get(id as usize)?;
        (p.leaf != NULL).then_some(p.tight)
    }

    fn len(&self) -> usize {
        self.live
    }

    fn validate(&self) -> Result<(), String> {
        // Tree structure: links, heights, boxes, leaf count.
        let mut leaves = 0usize;
        let mut reachable = 0usize;
        if self.root != NULL {
            if self.nodes[self.root as usize].parent != NULL {
                return Err("root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                reachable += 1;
                let n = &self.nodes[i as usize];
                if n.height < 0 {
                    return Err(format!("node {i} is reachable but free"));
                }
                if n.is_leaf() {
                    leaves += 1;
                    if n.height != 0 || n.child2 != NULL {
                        return Err(format!("leaf {i} has height {} or a child", n.height));
                    }
                    let p = self.proxies.get(n.proxy as usize);
                    match p {
                        Some(p) if p.leaf == i => {
                            if !n.aabb.contains(&p.tight) || n.aabb != p.fat {
                                return Err(format!("leaf {i}: fat box wrong for its proxy"));
                            }
                        }
                        _ => return Err(format!("leaf {i} and proxy {} disagree", n.proxy)),
                    }
                    continue;
                }
                let (c1, c2) = (
                    &self.nodes[n.child1 as usize],
                    &self.nodes[n.child2 as usize],
                );
                if c1.parent != i || c2.parent != i {
                    return Err(format!("node {i}: a child's parent link is wrong"));
                }
                if n.height != 1 + c1.height.max(c2.height) {
                    return Err(format!("node {i}: height {} is wrong", n.height));
                }
                if n.aabb != c1.aabb.union(&c2.aabb) {
                    return Err(format!("node {i}: box is not the union of its children"));
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
            if free > self.nodes.len() {
                return Err("free list has a cycle".into());
            }
            f = self.nodes[f as usize].parent;
        }
        if free + reachable != self.nodes.len() {
            return Err(format!(
                "{} nodes but {reachable} reachable and {free} free",
                self.nodes.len()
            ));
        }
        if self.edited {
            return Ok(());
        }
        // Fat pair set: members touch and are allowed; count matches a per-proxy tree query.
        for &key in &self.fat_pairs {
            let (a, b) = key_pair(key);
            let (pa, pb) = (&self.proxies[a as usize], &self.proxies[b as usize]);
            if a == b || pa.leaf == NULL || pb.leaf == NULL {
                return Err(format!("fat pair ({a}, {b}) names a dead or equal proxy"));
            }
            if !boxes_touch(&pa.fat, &pb.fat) || !pa.groups.allows(pb.groups) {
                return Err(format!("fat pair ({a}, {b}) does not touch or is filtered"));
            }
        }
        let mut count = 0usize;
        for (a, pa) in self.proxies.iter().enumerate() {
            if pa.leaf == NULL {
                continue;
            }
            self.query_fat(&pa.fat, &mut |b| {
                if (b as usize) > a && pa.groups.allows(self.proxies[b as usize].groups) {
                    count += 1;
                }
                true
            });
        }
        if count != self.fat_pairs.len() {
            return Err(format!(
                "fat pair set has {} pairs, the tree finds {count}",
                self.fat_pairs.len()
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
}
