//! Dynamic bounding-volume tree of fattened boxes: a four-wide tree whose leaves are buckets
//! of up to eight proxies, boxes stored as `Vec4` lanes and tested four at a time, bulk-loaded
//! in Morton order, refitted in place, edited between rebuilds as an R-tree, with a hash-free
//! persistent pair list.

mod build;
mod edit;
mod node;
mod pairs;
mod ray;
mod validate;

use super::{
    check_aabb, BroadPhase, BroadPhaseDefect, BroadPhaseError, CollisionGroups, DefectSite, IdPool,
    ProxyId,
};
use crate::broadphase::lanes::Query;
use crate::math::{Vec3, Vec3A};
use crate::shapes::{Aabb, Ray};
use node::{is_bucket, Bucket, Node, BUCKET, BUCKET_SIZE, NODE_WIDTH, NULL};

/// How far ahead a proxy's fat box reaches along the last displacement, in displacements
/// (Box2D's `b2_aabbMultiplier`, 4 there), capped at two margins: a body moving steadily
/// leaves its fat box every few frames, not every frame. 8 here: on the small-motion
/// benchmark scene it cut the proxies leaving their fat boxes per frame by a fifth for 7%
/// more fat pairs, and the pair update's instructions by 10% (4: 5,482 moves and 713.6M
/// instructions over 150 frames of 30k boxes; 8: 4,334 and 642.2M; 12: 3,657 and 622.3M
/// for 15% more fat pairs).
const DISPLACEMENT_MULTIPLIER: f32 = 8.0;

/// In-place enlargements grow the slot boxes above the moved proxies; once the slot boxes'
/// total half-area has grown by this fraction of its value after the last rebuild, the tree
/// is refitted (query cost is roughly proportional to that total, MacDonald and Booth 1990).
const GROWTH_LIMIT: f64 = 0.5;

/// A refit whose total slot-box half-area exceeds `1 + REFIT_LIMIT` times that of the last
/// rebuild (with the same kind of boxes, tight or fattened) is replaced by a rebuild: bodies
/// have left the neighbourhoods they were sorted into. A larger limit lets the
/// self-traversal grow to about twice its cost between rebuilds; at 0.1 the cheaper
/// traversals more than pay for the rebuilds (a rebuild costs about five refits).
const REFIT_LIMIT: f64 = 0.1;

/// A refresh rebuilds instead of refitting once more than one proxy in this many was inserted
/// or removed since the last rebuild (insertions into a bulk-loaded tree degrade it faster
/// than motion does).
const EDITS_PER_REBUILD: usize = 8;

/// Where a proxy lives: a bucket and a lane in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Loc {
    bucket: u32,
    lane: u32,
}

impl Loc {
    /// A dead (removed or never inserted) proxy.
    const DEAD: Loc = Loc {
        bucket: NULL,
        lane: NULL,
    };

    /// A live proxy inserted since the last `update_pairs`, not yet in the tree.
    const PENDING: Loc = Loc {
        bucket: NULL - 1,
        lane: NULL,
    };

    /// `true` for a live proxy (in the tree or pending).
    #[inline]
    fn is_live(self) -> bool {
        self.bucket != NULL
    }

    /// `true` for a proxy in a bucket of the tree.
    #[inline]
    fn in_tree(self) -> bool {
        self.bucket < Loc::PENDING.bucket
    }
}

/// `true` when `inner` lies inside `outer` (boundaries may touch). NaN gives `false`.
#[inline]
fn inside(inner: &Aabb, outer: &Aabb) -> bool {
    outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all()
}

/// A box as two aligned `Vec3A` corners (32 bytes): each corner one packed load, where an
/// [`Aabb`]'s 12-byte `Vec3` corners take a load and a shuffle each.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Box3A {
    min: Vec3A,
    max: Vec3A,
}

impl Box3A {
    #[inline]
    fn new(b: &Aabb) -> Box3A {
        Box3A {
            min: b.min.into(),
            max: b.max.into(),
        }
    }

    #[inline]
    fn aabb(&self) -> Aabb {
        Aabb {
            min: self.min.into(),
            max: self.max.into(),
        }
    }

    /// [`boxes_touch`](super::boxes_touch) without branches (the six comparisons are combined with `&`, not
    /// `&&`): in the pair passes whether two boxes touch is close to a coin flip, and a
    /// mispredicted early exit costs more than the comparisons it skips. NaN gives `false`.
    #[inline]
    fn touches(&self, o: &Box3A) -> bool {
        (self.min.cmple(o.max) & o.min.cmple(self.max)).all()
    }

    /// `true` when `self` lies inside `outer` (boundaries may touch). NaN gives `false`.
    #[inline]
    fn inside(&self, outer: &Box3A) -> bool {
        (outer.min.cmple(self.min) & self.max.cmple(outer.max)).all()
    }
}

/// A proxy's two boxes side by side in one cache line: an update reads and writes one line.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct ProxyBoxes {
    /// The box last given.
    tight: Box3A,
    /// Its fat box (its lane holds it, or the previous one while the proxy is flagged
    /// moved).
    fat: Box3A,
}

/// Half the surface area, in `f64` (differences included) so that boxes spanning
/// `±f32::MAX` neither overflow nor lose the comparisons of the insertion cost; 0 for an
/// empty box.
#[inline]
fn half_area(b: &Aabb) -> f64 {
    let d = |k: usize| (f64::from(b.max[k]) - f64::from(b.min[k])).max(0.0);
    let (x, y, z) = (d(0), d(1), d(2));
    x * y + y * z + z * x
}

/// A small traversal stack: 32 entries inline (set up on every query, so no more than a
/// walk needs), spilling to the heap beyond that. A traversal holds at most three entries
/// per level: 32 hold a tree ten levels deep (`4^10` buckets, eight million proxies when
/// bulk-loaded), and insertions between rebuilds only add levels when the root splits.
struct Stack {
    inline: [u32; 32],
    len: usize,
    spill: Vec<u32>,
}

impl Stack {
    fn new(root: u32) -> Stack {
        let mut s = Stack {
            inline: [NULL; 32],
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

/// A dynamic AABB tree: each proxy holds its box fattened by a margin and stretched along its
/// last displacement, so most frames a moving body stays inside its fat box and neither the
/// tree nor its pairs change.
///
/// Layout: inner nodes have up to four children and hold the children's boxes as `Vec4`
/// lanes (one packed compare tests a box against all four); the leaves are buckets of up to
/// eight proxies whose fat boxes are stored the same way. A rebuild bulk-loads the tree from
/// the fat boxes' Morton order (radix-sorted 63-bit codes, cut at the highest differing bit;
/// Karras 2012), so a bucket holds neighbours and nearby buckets sit nearby in memory.
///
/// Edits: insertions join the tree at the next [`BroadPhase::update_pairs`] — by a bulk load
/// when they are more than an eighth of the proxies, else each descends into the child whose
/// box grows least and joins a bucket, splitting a full bucket (and full nodes above it) in two
/// as an R-tree does (Guttman 1984); a removal empties its lane and unlinks empty buckets and
/// nodes. A proxy that leaves its fat
/// box gets a new one *in place* — it keeps its lane and only the boxes above it that do not
/// yet contain the new box grow — so a move costs a short walk up. The walks are deferred to
/// [`BroadPhase::update_pairs`] and done in bucket order; until then box queries and ray casts
/// answer the moved proxies from the list of moved proxies and the rest from the tree. Boxes
/// never shrink on a move, so the tree slowly loosens; once the boxes' total area has grown by
/// half, the tree is refitted (every box recomputed bottom-up, shape kept), and rebuilt when a
/// refit leaves the boxes' area more than a tenth above the last rebuild's (after a rejected
/// refit the next ones are skipped, 1, 2, 4 then 8 times) or many proxies were inserted or
/// removed since the last rebuild.
///
/// Pairs: the structure keeps the list of allowed pairs whose *fat* boxes touch. A fat pair
/// can only appear or disappear when one of its proxies got a new fat box, so
/// [`BroadPhase::update_pairs`] keeps the listed pairs of unmoved proxies as they are, drops
/// those of moved (or removed) proxies, and finds the moved proxies' pairs again by one query
/// per moved proxy (each pair of two moved proxies is recorded by one of the two queries, so
/// no hashing or deduplication). When a cost model (fat pairs, moved proxies, neighbours per
/// proxy) says that is dearer than starting over — large or dense motion — the tree is
/// refitted (or rebuilt) and the list recomputed by one traversal of the tree against itself,
/// four children against four and eight lanes against eight. Under sustained large motion
/// those frames use the tight boxes as fat boxes (a margin would only add false pairs); once
/// so few proxies move more than half a margin per frame that the next frame could go
/// incremental, a full frame keeps the margins and the next one does. The reported
/// pairs are the fat pairs whose *tight* boxes touch — exactly the set
/// [`BruteForce`](super::BruteForce) reports.
///
/// Degenerate input: flat and point boxes are fine; boxes at `±f32::MAX` work (areas are
/// computed in `f64`, Morton codes from the overflow-free centres `min/2 + max/2` with an
/// `f64` fallback for the offset; fat boxes are clamped to `±f32::MAX`).
///
/// Cost per frame: one containment test per updated proxy, one pass over the fat pairs, a
/// walk up and a query per moved proxy — or, under large motion, a refit (`O(n)`) or an
/// `O(n)` radix-sorted rebuild, and a traversal proportional to the pairs.
#[derive(Clone, Debug)]
pub struct DynamicBvh {
    nodes: Vec<Node>,
    buckets: Vec<Bucket>,
    /// Nodes and buckets unlinked since the last rebuild, for reuse.
    free_nodes: Vec<u32>,
    free_buckets: Vec<u32>,
    /// The root node, [`NULL`] when the tree is empty.
    root: u32,
    /// Per proxy id: its tight and fat boxes.
    boxes: Vec<ProxyBoxes>,
    /// Per proxy id: collision groups.
    groups: Vec<CollisionGroups>,
    /// Per proxy id: its bucket and lane, [`Loc::DEAD`] when the proxy is dead.
    loc: Vec<Loc>,
    /// Per proxy id: given a new fat box, inserted or removed since the last `update_pairs`.
    moved_flag: Vec<bool>,
    ids: IdPool,
    live: usize,
    margin: f32,
    /// The proxies whose flag `moved_flag` is set.
    moved: Vec<u32>,
    /// Allowed pairs `(a, b)`, `a < b`, whose fat boxes touch (valid after `update_pairs`).
    fat_pairs: Vec<(u32, u32)>,
    /// Scratch: the nodes of the moved proxies' queries and of the refit's order.
    node_stack: Vec<u32>,
    /// Scratch: the reference pairs the self-traversal starts its tasks from.
    pair_stack: Vec<(u32, u32)>,
    /// Scratch: the self-traversal's tasks.
    traversal_tasks: Vec<pairs::TraversalTask>,
    /// Scratch: (Morton code, proxy) for the rebuild, (location, proxy) for the moved queries.
    items: Vec<(u64, u32)>,
    /// Scratch of the radix sorts (the rebuild's Morton codes, the moved proxies' order).
    sort_scratch: build::RadixScratch,
    /// Scratch: (first item, end item, parent node, slot) for the rebuild.
    build_stack: Vec<(u32, u32, u32, u32)>,
    /// Any edit since the last `update_pairs`.
    edited: bool,
    /// Live proxies whose groups are not [`CollisionGroups::ALL`] (0: skip the group test).
    filtered: usize,
    /// Proxies updated since the last `update_pairs` whose box moved more than half a
    /// margin (they would leave a fat box within a few frames).
    fast: usize,
    /// Proxies updated since the last `update_pairs` whose new box does not even touch
    /// their fat box (jumps: they are likely to be reinserted).
    jumps: usize,
    /// Pairs reported by the last `update_pairs`.
    last_pairs: usize,
    /// Set during a full frame that uses the tight boxes as fat boxes.
    fat_is_tight: bool,
    last_moved: usize,
    last_rebuilt: bool,
    last_refitted: bool,
    last_full: bool,
    /// Total half-area of the slot boxes after the last rebuild.
    base_area: f64,
    /// `base_area` was measured with tight boxes (a full frame under large motion).
    base_tight: bool,
    /// Half-area added to slot boxes by in-place growth since the last refit or rebuild.
    grown_area: f64,
    /// Insertions and removals since the last rebuild.
    edits_since_build: usize,
    /// Live proxies inserted since the last `update_pairs` ([`Loc::PENDING`]): they join
    /// the tree there, one by one or by a rebuild when they are many.
    pending: usize,
    /// Refreshes that skip the refit and rebuild at once: after a refit was rejected, the
    /// next one is likely rejected too (under large motion the shape is worthless every
    /// frame), so the refit is tried again only after 1, 2, 4, then 8 refreshes.
    skip_refits: u32,
    /// The number of refreshes skipped after the last rejected refit.
    refit_backoff: u32,
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

    /// An empty tree whose proxies' boxes are fattened by `margin` on every side (negative,
    /// NaN or infinite margins are taken as `0`).
    #[must_use]
    pub fn with_margin(margin: f32) -> DynamicBvh {
        DynamicBvh {
            nodes: Vec::new(),
            buckets: Vec::new(),
            free_nodes: Vec::new(),
            free_buckets: Vec::new(),
            root: NULL,
            boxes: Vec::new(),
            groups: Vec::new(),
            loc: Vec::new(),
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
            node_stack: Vec::new(),
            pair_stack: Vec::new(),
            traversal_tasks: Vec::new(),
            items: Vec::new(),
            sort_scratch: build::RadixScratch::default(),
            build_stack: Vec::new(),
            edited: false,
            filtered: 0,
            fast: 0,
            jumps: 0,
            last_pairs: 0,
            fat_is_tight: false,
            last_moved: 0,
            last_rebuilt: false,
            last_refitted: false,
            last_full: false,
            base_area: 0.0,
            base_tight: false,
            grown_area: 0.0,
            edits_since_build: 0,
            pending: 0,
            skip_refits: 0,
            refit_backoff: 0,
        }
    }

    /// The fat-box margin.
    #[must_use]
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Levels of the tree: 0 when empty, else the nodes on the longest path from the root to
    /// a bucket plus one for the bucket.
    #[must_use]
    pub fn height(&self) -> u32 {
        let mut deepest = 0;
        let mut stack = vec![(self.root, 1u32)];
        while let Some((c, depth)) = stack.pop() {
            if c == NULL {
                continue;
            }
            if is_bucket(c) {
                deepest = deepest.max(depth);
                continue;
            }
            let n = &self.nodes[c as usize];
            for &child in &n.child[..n.count as usize] {
                stack.push((child, depth + 1));
            }
        }
        deepest
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

    /// `true` when the last [`BroadPhase::update_pairs`] recomputed every box of the tree in
    /// place (a refit, keeping the tree's shape) and kept the result.
    #[must_use]
    pub fn last_refitted(&self) -> bool {
        self.last_refitted
    }

    /// `true` when the last [`BroadPhase::update_pairs`] found every pair by one traversal
    /// of the whole tree against itself rather than by querying the moved proxies.
    #[must_use]
    pub fn last_full(&self) -> bool {
        self.last_full
    }

    /// Pairs whose fat boxes touch (a superset of the reported pairs).
    #[must_use]
    pub fn fat_pair_count(&self) -> usize {
        self.fat_pairs.len()
    }

    /// The slot boxes' total half-area over the root's (the SAH quality measure; lower is
    /// better, 0 for an empty tree).
    #[must_use]
    pub fn area_ratio(&self) -> f64 {
        if self.root == NULL {
            return 0.0;
        }
        let root = half_area(&self.nodes[self.root as usize].bounds());
        if root <= 0.0 {
            return 0.0;
        }
        let mut total = 0.0;
        let mut stack = vec![self.root];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            for s in 0..node.count as usize {
                total += half_area(&node.slot_box(s));
                if !is_bucket(node.child[s]) {
                    stack.push(node.child[s]);
                }
            }
        }
        total / root
    }

    /// The fat box of a proxy moved to `tight` after a displacement `d`: grown by the margin,
    /// stretched by `8d` ahead (at most two margins per axis), clamped to finite values.
    #[inline]
    fn fat_box(&self, tight: &Box3A, d: Vec3A) -> Box3A {
        let margin = Vec3A::splat(self.margin);
        // Stretched ahead by 8 displacements, but by no more than 2 margins per axis: a body
        // jumping several box sizes per frame leaves its box every frame anyway, and a long
        // stretch would only make many false fat pairs.
        let reach = Vec3A::splat(2.0 * self.margin);
        let d = if d.is_finite() {
            (d * DISPLACEMENT_MULTIPLIER).clamp(-reach, reach)
        } else {
            Vec3A::ZERO
        };
        let lo = tight.min - margin + d.min(Vec3A::ZERO);
        let hi = tight.max + margin + d.max(Vec3A::ZERO);
        let big = Vec3A::splat(f32::MAX);
        Box3A {
            min: lo.max(-big),
            max: hi.min(big),
        }
    }

    /// `true` when the nodes and buckets take more than
    /// [`PREFETCH_BYTES`](super::PREFETCH_BYTES): walks then prefetch the children they will
    /// visit.
    fn worth_prefetching(&self) -> bool {
        std::mem::size_of_val(&self.nodes[..]) + std::mem::size_of_val(&self.buckets[..])
            > super::PREFETCH_BYTES
    }

    /// Calls `f(proxy)` for every proxy whose lane box touches `aabb`, until `f` returns
    /// false.
    fn query_fat(&self, aabb: &Aabb, f: &mut dyn FnMut(u32) -> bool) {
        if self.root == NULL {
            return;
        }
        let q = Query::new(aabb);
        let prefetching = self.worth_prefetching();
        let mut stack = Stack::new(NULL);
        let mut n = self.root;
        loop {
            let node = &self.nodes[n as usize];
            let mut hits = node.touching(&q);
            // In a large tree every child touched starts loading now, while its siblings
            // are walked.
            let mut ahead = if prefetching { hits } else { 0 };
            while ahead != 0 {
                let c = node.child[ahead.trailing_zeros() as usize];
                ahead &= ahead - 1;
                if is_bucket(c) {
                    super::prefetch(&self.buckets[(c & !BUCKET) as usize]);
                } else {
                    super::prefetch(&self.nodes[c as usize]);
                }
            }
            // The last child node touched is walked next, without a trip through the stack
            // (the one a stack of all of them would pop first); the others wait there.
            let mut next = NULL;
            while hits != 0 {
                let c = node.child[hits.trailing_zeros() as usize];
                hits &= hits - 1;
                if !is_bucket(c) {
                    if next != NULL {
                        stack.push(next);
                    }
                    next = c;
                    continue;
                }
                let b = &self.buckets[(c & !BUCKET) as usize];
                let mut lanes = b.touching(&q);
                while lanes != 0 {
                    let l = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    if !f(b.proxy[l]) {
                        return;
                    }
                }
            }
            n = match next {
                NULL => match stack.pop() {
                    Some(waiting) => waiting,
                    None => return,
                },
                child => child,
            };
        }
    }

    /// `true` when one traversal of the whole (refitted or rebuilt) tree is expected to cost
    /// less than the incremental update for `moved` moved proxies, `jumps` of which left
    /// their fat box entirely (they will be reinserted). A cost model in CPU nanoseconds,
    /// fitted at 100k boxes on the benchmark's scenes and on scenes where a fraction of the
    /// boxes teleport (only the comparison matters): incremental ≈ 8 per listed fat pair
    /// (the pass over the list) + 500 per moved proxy (its walk up and its query) or 2000 per
    /// jump (removal, insertion and query) + 50 per fat neighbour of a moved proxy
    /// (2·fat pairs / proxies on average); full ≈ 85 per proxy (refit or rebuild, and the
    /// traversal) + 25 per fat pair (what a traversal with fattened boxes finds; the tight
    /// boxes' pairs after a tight frame). Checked by instruction counts on the small-motion
    /// scene, whose synchronised waves of 13–15 % moved proxies must stay incremental.
    fn full_is_cheaper(&self, moved: usize, jumps: usize) -> bool {
        if self.live == 0 {
            return false;
        }
        let live = self.live as f64;
        let fat = self.fat_pairs.len() as f64;
        let neighbours = 2.0 * fat / live;
        let jumps = jumps.min(moved) as f64;
        let slow = moved as f64 - jumps;
        let incremental =
            8.0 * fat + slow * 500.0 + jumps * 2000.0 + (slow + jumps) * 50.0 * neighbours;
        let full = 85.0 * live + 25.0 * fat;
        full < incremental
    }

    /// Brings every box of the tree up to date with the fat boxes: a refit when few proxies
    /// were inserted or removed since the last rebuild and the refitted boxes' total area is
    /// at most `1 + REFIT_LIMIT` times that after the last rebuild; else a rebuild. Areas are
    /// compared like with like: a switch between tight and fattened boxes rebuilds (the
    /// rebuild's area is the new base; a refit's could be anything, say after bodies
    /// teleported while the boxes were fattened).
    fn refresh(&mut self) {
        if self.skip_refits > 0 {
            self.skip_refits -= 1;
        } else if self.edits_since_build * EDITS_PER_REBUILD <= self.live
            && self.base_tight == self.fat_is_tight
        {
            self.sync_lanes(self.fat_is_tight);
            let area = self.refit();
            if area <= (1.0 + REFIT_LIMIT) * self.base_area {
                self.refit_backoff = 0;
                self.last_refitted = true;
                return;
            }
            self.refit_backoff = (2 * self.refit_backoff).clamp(1, 8);
            self.skip_refits = self.refit_backoff;
        }
        self.rebuild();
    }

    /// Flags proxy `id` as moved (its pairs are re-derived at the next `update_pairs`).
    fn mark_moved(&mut self, id: u32) {
        let flag = &mut self.moved_flag[id as usize];
        if !*flag {
            *flag = true;
            self.moved.push(id);
        }
    }
}

impl BroadPhase for DynamicBvh {
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError> {
        check_aabb(&aabb)?;
        let id = self.ids.alloc()?;
        let tight = Box3A::new(&aabb);
        let fat = self.fat_box(&tight, Vec3A::ZERO);
        let i = id as usize;
        if self.loc.len() <= i {
            let empty = Box3A::new(&Aabb::EMPTY);
            self.boxes.resize(
                i + 1,
                ProxyBoxes {
                    tight: empty,
                    fat: empty,
                },
            );
            self.groups.resize(i + 1, CollisionGroups::NONE);
            self.loc.resize(i + 1, Loc::DEAD);
            self.moved_flag.resize(i + 1, false);
        }
        self.boxes[i] = ProxyBoxes { tight, fat };
        self.groups[i] = groups;
        if groups != CollisionGroups::ALL {
            self.filtered += 1;
        }
        // The tree takes it at the next `update_pairs`; until then queries find it in the
        // moved list.
        self.loc[i] = Loc::PENDING;
        self.pending += 1;
        self.mark_moved(id);
        self.live += 1;
        self.edits_since_build += 1;
        self.edited = true;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let Some(&loc) = self.loc.get(id as usize).filter(|l| l.is_live()) else {
            return Err(BroadPhaseError::UnknownProxy(id));
        };
        if loc.in_tree() {
            self.remove_proxy(id);
        } else {
            self.loc[id as usize] = Loc::DEAD;
            self.pending -= 1;
        }
        if self.groups[id as usize] != CollisionGroups::ALL {
            self.filtered -= 1;
        }
        // Its listed pairs are dropped at the next `update_pairs`.
        self.mark_moved(id);
        self.ids.remove(id);
        self.live -= 1;
        self.edits_since_build += 1;
        self.edited = true;
        Ok(())
    }

    #[inline]
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let i = id as usize;
        if self.loc.get(i).is_none_or(|l| !l.is_live()) {
            return Err(BroadPhaseError::UnknownProxy(id));
        }
        let new = Box3A::new(&aabb);
        // `check_aabb` on the converted corners: finite, `min <= max`.
        if !(new.min.is_finite_mask() & new.max.is_finite_mask() & new.min.cmple(new.max)).all() {
            return Err(BroadPhaseError::InvalidAabb);
        }
        self.edited = true;
        let b = &mut self.boxes[i];
        let old = std::mem::replace(&mut b.tight, new);
        // Displacement of the box, min corner to min corner (finite unless the box jumped
        // across most of the f32 range, then taken as zero by `fat_box`).
        let d = new.min - old.min;
        let half_margin = Vec3A::splat(0.5 * self.margin);
        self.fast += usize::from(d.abs().cmpgt(half_margin).any());
        // Still inside its fat box: keep it, unless that box reaches more than five margins
        // beyond the new box on some side (a body that moved fast and then slowed down, as
        // Box2D does; a fresh fat box reaches at most three margins: one, plus two of
        // stretch). Twelve packed comparisons; most updates of a slowly moving scene end here.
        let reach = Vec3A::splat(5.0 * self.margin);
        let far = Box3A {
            min: new.min - reach,
            max: new.max + reach,
        };
        if new.inside(&b.fat) && b.fat.inside(&far) {
            return Ok(());
        }
        self.jumps += usize::from(!new.touches(&b.fat));
        // The proxy's lane keeps its old box until `update_pairs`, which refits or rebuilds
        // the tree or enlarges the moved proxies in bucket order; queries meanwhile answer
        // moved proxies from the list.
        let fat = self.fat_box(&new, d);
        self.boxes[i].fat = fat;
        self.mark_moved(id);
        Ok(())
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        let loc = &self.loc;
        let moved_live = self
            .moved
            .iter()
            .filter(|&&m| loc[m as usize].is_live())
            .count();
        let jumps = std::mem::take(&mut self.jumps);
        let full = self.full_is_cheaper(moved_live, jumps);
        // Under sustained large motion nearly every proxy leaves its fat box every frame, so
        // the margin buys nothing and only adds false fat pairs: full frames use the tight
        // boxes as fat boxes, unless so few proxies move fast (more than half a margin this
        // frame) that with fattened boxes the next frame would go incremental; then this
        // full frame keeps the fattened boxes.
        let fast = self.fast.min(self.live);
        self.fast = 0;
        self.fat_is_tight = full && self.full_is_cheaper(fast, jumps);
        if self.fat_is_tight {
            for (b, l) in self.boxes.iter_mut().zip(&self.loc) {
                if l.is_live() {
                    b.fat = b.tight;
                }
            }
        }
        self.last_rebuilt = false;
        self.last_refitted = false;
        self.last_full = full;
        // Proxies inserted since the last call join the tree: by a rebuild when they are
        // many (a bulk load is far cheaper than insertions one by one), else one by one.
        let mut rebuilt = false;
        if self.pending > 0 {
            if self.pending * EDITS_PER_REBUILD > self.live {
                self.rebuild();
                rebuilt = true;
            } else {
                for k in 0..self.moved.len() {
                    let m = self.moved[k];
                    if self.loc[m as usize] == Loc::PENDING {
                        let fat = self.boxes[m as usize].fat.aabb();
                        self.insert_proxy(m, &fat);
                    }
                }
            }
            self.pending = 0;
        }
        if !rebuilt && (full || self.grown_area > GROWTH_LIMIT * self.base_area) {
            self.refresh();
        }
        if full {
            // Every pair from scratch: one traversal of the whole tree.
            self.fat_pairs.clear();
            self.self_traverse();
            self.report_tight(0, out);
            self.fat_is_tight = false;
        } else {
            // Pairs of two unmoved proxies keep touching fat boxes: keep them, report those
            // whose tight boxes touch. Pairs with a moved or removed proxy are dropped here
            // and found again (if they still touch) by the queries.
            let (moved_flag, boxes) = (&self.moved_flag, &self.boxes);
            self.fat_pairs.retain(|&(a, b)| {
                let (ia, ib) = (a as usize, b as usize);
                if moved_flag[ia] | moved_flag[ib] {
                    return false;
                }
                if boxes[ia].tight.touches(&boxes[ib].tight) {
                    out.push((a, b));
                }
                true
            });
            let from = self.fat_pairs.len();
            self.query_moved();
            self.report_tight(from, out);
        }
        for &m in &self.moved {
            self.moved_flag[m as usize] = false;
        }
        self.moved.clear();
        self.last_moved = moved_live;
        self.last_pairs = out.len();
        self.ids.release_pending();
        self.edited = false;
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool) {
        // Proxies moved since the last `update_pairs` may still have their old lane box:
        // they are answered from the moved list, the others from the tree.
        let mut go = true;
        let q = Box3A::new(aabb);
        // Nothing moved since the last `update_pairs`: no proxy is flagged, no flag to read.
        let any_moved = !self.moved.is_empty();
        self.query_fat(aabb, &mut |p| {
            let i = p as usize;
            if !(any_moved && self.moved_flag[i]) && self.boxes[i].tight.touches(&q) {
                go = f(p);
            }
            go
        });
        if !go {
            return;
        }
        for &m in &self.moved {
            let i = m as usize;
            if self.loc[i].is_live() && self.boxes[i].tight.touches(&q) && !f(m) {
                return;
            }
        }
    }

    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.walk_ray(ray.origin, ray.dir, Vec3::ZERO, max_t, f);
    }

    fn cast_aabb(
        &self,
        aabb: &Aabb,
        motion: Vec3,
        max_t: f32,
        f: &mut dyn FnMut(ProxyId, f32) -> f32,
    ) {
        // A box moving along `motion` meets another box when its centre's ray meets that box
        // grown by its half-extents (the Minkowski sum of two boxes is a box).
        if aabb.is_finite() && !aabb.is_empty() {
            self.walk_ray(aabb.center(), motion, aabb.half_extents(), max_t, f);
        }
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        let i = id as usize;
        (self.loc.get(i)?.is_live()).then(|| self.boxes[i].tight.aabb())
    }

    fn len(&self) -> usize {
        self.live
    }

    fn validate(&self) -> Result<(), BroadPhaseDefect> {
        self.validate_tree()?;
        let filtered = (0..self.loc.len())
            .filter(|&i| self.loc[i].is_live() && self.groups[i] != CollisionGroups::ALL)
            .count();
        if filtered != self.filtered {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: filtered,
                    recorded: self.filtered,
                },
                "{found} live proxies with groups, counted {recorded}",
            ));
        }
        let flagged = self.moved_flag.iter().filter(|&&m| m).count();
        if flagged != self.moved.len() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: flagged,
                    recorded: self.moved.len(),
                },
                "{found} proxies flagged moved, {recorded} listed",
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
            return Err(BroadPhaseDefect::new(
                DefectSite::Whole,
                "fat pair listed twice",
            ));
        }
        let live = |p: u32| self.loc.get(p as usize).is_some_and(|l| l.is_live());
        for &(a, b) in &sorted {
            if a >= b || !live(a) || !live(b) {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Pair { a, b },
                    "fat pair ({a}, {b}) unordered or names a dead proxy",
                ));
            }
            let (ia, ib) = (a as usize, b as usize);
            if !self.boxes[ia].fat.touches(&self.boxes[ib].fat)
                || !self.groups[ia].allows(self.groups[ib])
            {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Pair { a, b },
                    "fat pair ({a}, {b}) does not touch or is filtered",
                ));
            }
        }
        let mut count = 0usize;
        for (a, l) in self.loc.iter().enumerate() {
            if !l.is_live() {
                continue;
            }
            self.query_fat(&self.boxes[a].fat.aabb(), &mut |b| {
                if (b as usize) > a && self.groups[a].allows(self.groups[b as usize]) {
                    count += 1;
                }
                true
            });
        }
        if count != sorted.len() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: count,
                    recorded: sorted.len(),
                },
                "fat pair list has {recorded} pairs, the tree finds {found}",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
