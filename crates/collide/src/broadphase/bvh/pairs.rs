//! Finding the fat pairs: the whole tree against itself (full frames), or one query per
//! moved proxy (incremental frames); and reporting those whose tight boxes touch.

use super::build::radix_sort;
use super::node::{is_bucket, Bucket, BUCKET, NULL};
use super::{DynamicBvh, Loc};
use crate::broadphase::lanes::{first_lanes, Query};
use crate::broadphase::{CollisionGroups, ProxyId};

/// Proxies from which the self-traversal runs in parallel tasks: below this, one task (the
/// split costs more than it saves).
const PARALLEL_TRAVERSAL: usize = 4096;

/// Reference pairs the self-traversal is split into when it runs in parallel: enough for two
/// to eight threads to share the uneven tasks.
const TRAVERSAL_TASKS: usize = 64;

/// One task of the self-traversal: its stack of reference pairs and the pairs it found,
/// kept by the tree from frame to frame (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(super) struct TraversalTask {
    stack: Vec<(u32, u32)>,
    pairs: Vec<(u32, u32)>,
}

/// Records fat pairs: ordered `(smaller, larger)`, dropped when the groups forbid them.
struct Emit<'a> {
    groups: &'a [CollisionGroups],
    /// Some live proxy has groups other than [`CollisionGroups::ALL`].
    filtered: bool,
    pairs: &'a mut Vec<(u32, u32)>,
}

impl Emit<'_> {
    #[inline(always)]
    fn pair(&mut self, a: u32, b: u32) {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if self.filtered && !self.groups[a as usize].allows(self.groups[b as usize]) {
            return;
        }
        self.pairs.push((a, b));
    }
}

/// Calls `f` with the index of every set bit of `bits`, lowest first.
#[inline(always)]
fn for_bits(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Every pair of lanes of one bucket whose boxes touch.
#[inline(always)]
fn bucket_self(b: &Bucket, emit: &mut Emit<'_>) {
    for i in 0..b.count.saturating_sub(1) as usize {
        let hits = b.touching(&b.lane_query(i)) & !first_lanes(i as u32 + 1);
        for_bits(hits, |j| emit.pair(b.proxy[i], b.proxy[j]));
    }
}

/// Every pair of a lane of `a` and a lane of `b` whose boxes touch. Only the lanes of `a`
/// that touch `b`'s bounds are tried (in a sparse scene, one or two of the eight).
#[inline(always)]
fn bucket_pair(a: &Bucket, b: &Bucket, emit: &mut Emit<'_>) {
    let near = a.touching(&Query::new(&b.bounds));
    for_bits(near, |i| {
        let hits = b.touching(&a.lane_query(i));
        for_bits(hits, |j| emit.pair(a.proxy[i], b.proxy[j]));
    });
}

impl DynamicBvh {
    /// Appends to `out` the fat pairs from index `from` on whose tight boxes touch (all of
    /// them when the fat boxes are the tight boxes).
    pub(super) fn report_tight(&self, from: usize, out: &mut Vec<(ProxyId, ProxyId)>) {
        let new = self.fat_pairs.get(from..).unwrap_or(&[]);
        if self.fat_is_tight {
            out.extend_from_slice(new);
            return;
        }
        let boxes = &self.boxes;
        for &(a, b) in new {
            if boxes[a as usize].tight.touches(&boxes[b as usize].tight) {
                out.push((a, b));
            }
        }
    }

    /// The tree against itself: appends to `fat_pairs` every allowed pair of proxies whose
    /// fat boxes touch, exactly once. A pair of references is either one subtree with itself
    /// (each child with itself, and each two children whose slot boxes touch) or two
    /// different subtrees whose boxes touch: two nodes pair their children four against
    /// four (one packed test per child of the first), a node and a bucket pair the node's
    /// children with the bucket, two buckets pair their lanes (Ericson, RTCD §6.3.3, with
    /// both sides descended at once as in parry's `traverse_bvtt_single_tree`).
    ///
    /// A large tree is walked in parallel: the reference pairs are expanded breadth first
    /// until there are [`TRAVERSAL_TASKS`] of them, then each is walked to the end as a task
    /// of its own (with the `parallel` feature) and their pairs appended in task order, so
    /// the pairs do not depend on the number of threads.
    #[inline(never)]
    pub(super) fn self_traverse(&mut self) {
        let mut pairs = std::mem::take(&mut self.fat_pairs);
        let mut tasks = std::mem::take(&mut self.traversal_tasks);
        let mut seeds = std::mem::take(&mut self.pair_stack);
        seeds.clear();
        if self.root != NULL {
            seeds.push((self.root, self.root));
        }
        let filtered = self.filtered > 0;
        // Breadth first: each round expands the seeds `first..` in order and appends theirs.
        let mut first = 0;
        while self.live >= PARALLEL_TRAVERSAL
            && first < seeds.len()
            && seeds.len() - first < TRAVERSAL_TASKS
        {
            let mut emit = self.emit(filtered, &mut pairs);
            let end = seeds.len();
            for k in first..end {
                let seed = seeds[k];
                self.expand(seed, &mut seeds, &mut emit);
            }
            first = end;
        }
        let seeds_now = &seeds[first..];
        // The task list only grows (a task dropped would take its lists with it).
        if tasks.len() < seeds_now.len() {
            tasks.resize_with(seeds_now.len(), TraversalTask::default);
        }
        let active = &mut tasks[..seeds_now.len()];
        for (task, &seed) in active.iter_mut().zip(seeds_now) {
            task.pairs.clear();
            task.stack.clear();
            task.stack.push(seed);
        }
        let this = &*self;
        crate::par::for_each_task_mut(active, |task| {
            let mut emit = this.emit(filtered, &mut task.pairs);
            while let Some(pair) = task.stack.pop() {
                this.expand(pair, &mut task.stack, &mut emit);
            }
        });
        for task in active.iter() {
            pairs.extend_from_slice(&task.pairs);
        }
        self.pair_stack = seeds;
        self.traversal_tasks = tasks;
        self.fat_pairs = pairs;
    }

    /// An [`Emit`] into `pairs`.
    fn emit<'a>(&'a self, filtered: bool, pairs: &'a mut Vec<(u32, u32)>) -> Emit<'a> {
        Emit {
            groups: &self.groups,
            filtered,
            pairs,
        }
    }

    /// One step of the self-traversal: the pairs of children of the reference pair `(a, b)`
    /// whose boxes touch, two buckets paired at once (most pairs of a traversal are),
    /// anything else pushed on `stack` for later.
    #[inline(always)]
    fn expand(&self, (a, b): (u32, u32), stack: &mut Vec<(u32, u32)>, emit: &mut Emit<'_>) {
        let (nodes, buckets) = (&self.nodes, &self.buckets);
        let bucket = |c: u32| &buckets[(c & !BUCKET) as usize];
        let mut meet = |emit: &mut Emit<'_>, a: u32, b: u32| {
            if !(is_bucket(a) && is_bucket(b)) {
                stack.push((a, b));
            } else if a == b {
                bucket_self(bucket(a), emit);
            } else {
                bucket_pair(bucket(a), bucket(b), emit);
            }
        };
        match (is_bucket(a), is_bucket(b)) {
            (false, false) => {
                let na = &nodes[a as usize];
                if a == b {
                    for s in 0..na.count as usize {
                        let cs = na.child[s];
                        meet(emit, cs, cs);
                        let later = na.touching(&na.slot_query(s)) & !first_lanes(s as u32 + 1);
                        for_bits(later, |t| meet(emit, cs, na.child[t]));
                    }
                } else {
                    let nb = &nodes[b as usize];
                    for s in 0..na.count as usize {
                        let hits = nb.touching(&na.slot_query(s));
                        let cs = na.child[s];
                        for_bits(hits, |t| meet(emit, cs, nb.child[t]));
                    }
                }
            }
            (false, true) | (true, false) => {
                let (n, k) = if is_bucket(b) { (a, b) } else { (b, a) };
                let node = &nodes[n as usize];
                let q = Query::new(&bucket(k).bounds);
                for_bits(node.touching(&q), |s| meet(emit, node.child[s], k));
            }
            (true, true) => meet(emit, a, b),
        }
    }

    /// For every moved live proxy in bucket order (neighbouring buckets share cached
    /// ancestors): gives it its new fat box (in place, or by reinsertion after a jump), then
    /// appends its fat pairs to
    /// `fat_pairs` by a query of that box from the root, and clears its moved flag. A pair
    /// of two moved proxies is recorded by the query of the one whose turn comes second (the
    /// first's lane is up to date by then; the second's old lane box, still in the tree
    /// during the first's query, is skipped because its flag is still set).
    #[inline(never)]
    pub(super) fn query_moved(&mut self) {
        let mut turns = std::mem::take(&mut self.items);
        turns.clear();
        for &m in &self.moved {
            let Loc { bucket, lane } = self.loc[m as usize];
            if self.loc[m as usize].in_tree() {
                turns.push((u64::from(bucket) << 3 | u64::from(lane), m));
            }
        }
        let mut scratch = std::mem::take(&mut self.sort_scratch);
        radix_sort(&mut turns, &mut scratch);
        self.sort_scratch = scratch;
        let mut stack = std::mem::take(&mut self.node_stack);
        let mut pairs = std::mem::take(&mut self.fat_pairs);
        for &(_, m) in &turns {
            let fat = self.boxes[m as usize].fat.aabb();
            // The walk up leaves this bucket's ancestors in cache for the query's walk down.
            // A reinsertion moves lanes of this and other buckets; the later turns read
            // their proxies' locations afresh.
            if self.move_proxy(m, &fat) {
                self.edits_since_build += 1;
            }
            let mut emit = Emit {
                groups: &self.groups,
                filtered: self.filtered > 0,
                pairs: &mut pairs,
            };
            let (nodes, buckets, flags) = (&self.nodes, &self.buckets, &self.moved_flag);
            // `query_fat`'s walk, on the reused `node_stack`: a fresh `Stack` per query (its
            // 64-entry array written each time) cost 5% more instructions here.
            let q = Query::new(&fat);
            stack.clear();
            if self.root != NULL {
                stack.push(self.root);
            }
            while let Some(n) = stack.pop() {
                let node = &nodes[n as usize];
                for_bits(node.touching(&q), |s| {
                    let c = node.child[s];
                    if !is_bucket(c) {
                        stack.push(c);
                        return;
                    }
                    let b = &buckets[(c & !BUCKET) as usize];
                    // A moved proxy still flagged has not had its turn: its lane may hold
                    // its old box, and its own query will meet this one (already done).
                    for_bits(b.touching(&q), |l| {
                        let o = b.proxy[l];
                        if o != m && !flags[o as usize] {
                            emit.pair(m, o);
                        }
                    });
                });
            }
            self.moved_flag[m as usize] = false;
        }
        self.fat_pairs = pairs;
        self.node_stack = stack;
        self.items = turns;
    }
}
