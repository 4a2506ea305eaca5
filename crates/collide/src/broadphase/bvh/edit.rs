//! Edits of the tree between rebuilds: insertion (descend by least area growth, split a full
//! bucket or node in two, Guttman's R-tree, 1984), removal (empty buckets and nodes are
//! unlinked) and in-place enlargement of a moved proxy's box.

use super::node::{is_bucket, Bucket, Node, BUCKET, NULL};
use super::{half_area, inside, DynamicBvh, Loc};
use crate::math::Vec3A;
use crate::shapes::Aabb;

/// Reorders `e` and returns `m` such that `e[..m]` and `e[m..]` are the two halves of a
/// split: sorted by box centre along the axis where the centres spread most, cut where the
/// two halves' areas add up least, with at least two fifths of the entries on each side (two
/// of five children, three of nine proxies: with fewer, repeated splits of sorted input make
/// nodes of one child and a tree as deep as the number of splits).
fn split_entries(e: &mut [(u32, Aabb)]) -> usize {
    let centre = |b: &Aabb, k: usize| 0.5 * (f64::from(b.min[k]) + f64::from(b.max[k]));
    let mut axis = 0;
    let mut widest = f64::NEG_INFINITY;
    for k in 0..3 {
        let (lo, hi) = e
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                let c = centre(&x.1, k);
                (lo.min(c), hi.max(c))
            });
        if hi - lo > widest {
            widest = hi - lo;
            axis = k;
        }
    }
    e.sort_unstable_by(|a, b| centre(&a.1, axis).total_cmp(&centre(&b.1, axis)));
    let n = e.len();
    let least = (2 * n / 5).max(1);
    let union = |s: &[(u32, Aabb)]| s.iter().fold(Aabb::EMPTY, |u, x| u.union(&x.1));
    let mut best = (f64::INFINITY, n / 2);
    for m in least..=n - least {
        let cost = half_area(&union(&e[..m])) + half_area(&union(&e[m..]));
        if cost < best.0 {
            best = (cost, m);
        }
    }
    best.1
}

/// Half the surface area in `f32` (one multiply-add pass over `Vec3A` lanes), for the
/// move-in-place test, which only compares: a box so large that this overflows to infinity is
/// simply not grown in place.
#[inline]
fn area32(b: &Aabb) -> f32 {
    let e = Vec3A::from(b.max) - Vec3A::from(b.min);
    e.dot(Vec3A::new(e.y, e.z, e.x))
}

/// The slot of `node` whose box grows least (in half-area) to take `b`; ties go to the
/// smaller box. `node` has at least one child.
fn choose_slot(node: &Node, b: &Aabb) -> usize {
    let mut best = (f64::INFINITY, f64::INFINITY, 0);
    for s in 0..node.count as usize {
        let sb = node.slot_box(s);
        let area = half_area(&sb);
        let growth = half_area(&sb.union(b)) - area;
        if growth < best.0 || (growth == best.0 && area < best.1) {
            best = (growth, area, s);
        }
    }
    best.2
}

/// An index into `items` holding `empty`: a freed slot from `free` if there is one, else a new
/// one at the end (the free-list shared by the node and bucket arenas).
fn alloc_slot<T>(items: &mut Vec<T>, free: &mut Vec<u32>, empty: T) -> u32 {
    if let Some(i) = free.pop() {
        items[i as usize] = empty;
        i
    } else {
        items.push(empty);
        (items.len() - 1) as u32
    }
}

/// Resets slot `i` of `items` to `empty` and puts it on the free list.
fn free_slot<T>(items: &mut [T], free: &mut Vec<u32>, i: u32, empty: T) {
    items[i as usize] = empty;
    free.push(i);
}

impl DynamicBvh {
    pub(super) fn alloc_node(&mut self) -> u32 {
        alloc_slot(&mut self.nodes, &mut self.free_nodes, Node::EMPTY)
    }

    fn free_node(&mut self, i: u32) {
        free_slot(&mut self.nodes, &mut self.free_nodes, i, Node::EMPTY);
    }

    pub(super) fn alloc_bucket(&mut self) -> u32 {
        alloc_slot(&mut self.buckets, &mut self.free_buckets, Bucket::EMPTY)
    }

    fn free_bucket(&mut self, k: u32) {
        free_slot(&mut self.buckets, &mut self.free_buckets, k, Bucket::EMPTY);
    }

    /// The box of everything under the child reference `c`.
    pub(super) fn child_bounds(&self, c: u32) -> Aabb {
        if is_bucket(c) {
            self.buckets[(c & !BUCKET) as usize].bounds
        } else {
            self.nodes[c as usize].bounds()
        }
    }

    /// The parent node of the child reference `c`.
    fn parent_of(&self, c: u32) -> u32 {
        if is_bucket(c) {
            self.buckets[(c & !BUCKET) as usize].parent
        } else {
            self.nodes[c as usize].parent
        }
    }

    fn set_parent(&mut self, c: u32, parent: u32) {
        if is_bucket(c) {
            self.buckets[(c & !BUCKET) as usize].parent = parent;
        } else {
            self.nodes[c as usize].parent = parent;
        }
    }

    /// Makes every slot box above the child `c` contain `b`: from `c`'s parent up, each
    /// slot on the path grows to contain `b`, stopping at the first that already does (the
    /// slots above it contain it too). The half-area added is counted in `grown_area`.
    fn grow_up(&mut self, mut c: u32, b: &Aabb) {
        let mut n = self.parent_of(c);
        while n != NULL {
            let node = &mut self.nodes[n as usize];
            let Some(s) = node.find(c) else { break };
            let old = node.slot_box(s);
            if inside(b, &old) {
                break;
            }
            let new = old.union(b);
            node.set_slot_box(s, &new);
            self.grown_area += half_area(&new) - half_area(&old);
            c = n;
            n = node.parent;
        }
    }

    /// Adds proxy `p` with box `fat`: descends from the root into the child whose box grows
    /// least, down to a bucket, and adds it there (splitting the bucket, and full nodes above
    /// it, when there is no room).
    pub(super) fn insert_proxy(&mut self, p: u32, fat: &Aabb) {
        if self.root == NULL {
            let r = self.alloc_node();
            let k = self.alloc_bucket();
            self.buckets[k as usize].parent = r;
            self.nodes[r as usize].push(BUCKET | k, fat);
            self.root = r;
            self.add_to_bucket(k, p, fat);
            return;
        }
        let mut n = self.root;
        loop {
            let node = &self.nodes[n as usize];
            let c = node.child[choose_slot(node, fat)];
            if is_bucket(c) {
                self.add_to_bucket(c & !BUCKET, p, fat);
                return;
            }
            n = c;
        }
    }

    fn add_to_bucket(&mut self, k: u32, p: u32, fat: &Aabb) {
        if let Some(l) = self.buckets[k as usize].push(p, fat) {
            self.loc[p as usize] = Loc {
                bucket: k,
                lane: l as u32,
            };
            self.grow_up(BUCKET | k, fat);
            return;
        }
        // Full: split the eight lanes and the new proxy into this bucket and a new one.
        let old = self.buckets[k as usize];
        let mut e = [(NULL, Aabb::EMPTY); 9];
        for (l, x) in e.iter_mut().take(8).enumerate() {
            *x = (old.proxy[l], old.lane_box(l));
        }
        e[8] = (p, *fat);
        let m = split_entries(&mut e);
        let k2 = self.alloc_bucket();
        self.buckets[k as usize] = Bucket::EMPTY;
        self.buckets[k as usize].parent = old.parent;
        self.buckets[k2 as usize].parent = old.parent;
        for (i, &(q, b)) in e.iter().enumerate() {
            let kk = if i < m { k } else { k2 };
            if let Some(l) = self.buckets[kk as usize].push(q, &b) {
                self.loc[q as usize] = Loc {
                    bucket: kk,
                    lane: l as u32,
                };
            }
        }
        // Bucket k's slot shrinks to its half (which may hold the new box); then the new
        // bucket joins the same parent.
        let n = old.parent;
        let kb = self.buckets[k as usize].bounds;
        if let Some(s) = self.nodes[n as usize].find(BUCKET | k) {
            self.nodes[n as usize].set_slot_box(s, &kb);
        }
        self.grow_up(n, &kb);
        let k2b = self.buckets[k2 as usize].bounds;
        self.insert_child(n, BUCKET | k2, &k2b);
    }

    /// Adds the child `c` (box `b`) to node `n`, splitting `n` in two when it is full (the
    /// new half joins `n`'s parent the same way; a split root gets a new root above it).
    fn insert_child(&mut self, mut n: u32, mut c: u32, b: &Aabb) {
        let mut b = *b;
        loop {
            self.set_parent(c, n);
            if self.nodes[n as usize].push(c, &b) {
                self.grow_up(n, &b);
                return;
            }
            let old = self.nodes[n as usize];
            let mut e = [(NULL, Aabb::EMPTY); 5];
            for (s, x) in e.iter_mut().take(4).enumerate() {
                *x = (old.child[s], old.slot_box(s));
            }
            e[4] = (c, b);
            let m = split_entries(&mut e);
            let n2 = self.alloc_node();
            self.nodes[n as usize] = Node::EMPTY;
            self.nodes[n as usize].parent = old.parent;
            self.nodes[n2 as usize].parent = old.parent;
            for (i, &(x, xb)) in e.iter().enumerate() {
                let owner = if i < m { n } else { n2 };
                self.nodes[owner as usize].push(x, &xb);
                self.set_parent(x, owner);
            }
            let nb = self.nodes[n as usize].bounds();
            let n2b = self.nodes[n2 as usize].bounds();
            let parent = old.parent;
            if parent == NULL {
                let r = self.alloc_node();
                self.nodes[r as usize].push(n, &nb);
                self.nodes[r as usize].push(n2, &n2b);
                self.nodes[n as usize].parent = r;
                self.nodes[n2 as usize].parent = r;
                self.root = r;
                return;
            }
            if let Some(s) = self.nodes[parent as usize].find(n) {
                self.nodes[parent as usize].set_slot_box(s, &nb);
            }
            self.grow_up(parent, &nb);
            (n, c, b) = (parent, n2, n2b);
        }
    }

    /// Takes proxy `p` out of its bucket; an emptied bucket is unlinked from its node, an
    /// emptied node from its parent, and a root left with a single node child is replaced by
    /// it. Boxes above are left as they were (possibly larger than needed until a refit).
    pub(super) fn remove_proxy(&mut self, p: u32) {
        let loc = self.loc[p as usize];
        if !loc.in_tree() {
            return;
        }
        let Loc { bucket: k, lane } = loc;
        if let Some(q) = self.buckets[k as usize].remove_lane(lane as usize) {
            self.loc[q as usize] = Loc { bucket: k, lane };
        }
        self.loc[p as usize] = Loc::DEAD;
        if self.buckets[k as usize].count > 0 {
            return;
        }
        let (mut n, mut c) = (self.buckets[k as usize].parent, BUCKET | k);
        self.free_bucket(k);
        while n != NULL {
            let node = &mut self.nodes[n as usize];
            if let Some(s) = node.find(c) {
                node.remove_slot(s);
            }
            if node.count > 0 {
                break;
            }
            let parent = node.parent;
            self.free_node(n);
            if parent == NULL {
                self.root = NULL;
            }
            (n, c) = (parent, n);
        }
        while self.root != NULL {
            let r = &self.nodes[self.root as usize];
            if r.count != 1 || is_bucket(r.child[0]) {
                break;
            }
            let only = r.child[0];
            self.free_node(self.root);
            self.nodes[only as usize].parent = NULL;
            self.root = only;
        }
    }

    /// Gives proxy `p` its new fat box `fat`. In place when that stays near its bucket — the
    /// half-area of the bucket's bounds grown by `fat` is at most the two half-areas added
    /// (the boxes overlap or nearly touch): its lane takes the box, the bucket's bounds and
    /// the slots above grow to contain it (no shrinking, no moving between buckets). A proxy
    /// that jumped away (a teleport, a respawn) is instead taken out of its bucket and
    /// inserted again: grown in place, its bucket's box would span the jump and every query
    /// crossing it would descend there (with many boxes teleporting each frame, in-place
    /// growth alone makes every frame far slower). Returns `true` for a reinsertion.
    pub(super) fn move_proxy(&mut self, p: u32, fat: &Aabb) -> bool {
        let loc = self.loc[p as usize];
        if !loc.in_tree() {
            return false;
        }
        let Loc { bucket: k, lane } = loc;
        let bucket = &mut self.buckets[k as usize];
        if !inside(fat, &bucket.bounds) {
            let grown = bucket.bounds.union(fat);
            if area32(&grown) > area32(&bucket.bounds) + area32(fat) {
                self.remove_proxy(p);
                self.insert_proxy(p, fat);
                return true;
            }
            bucket.bounds = grown;
        }
        bucket.set_lane_box(lane as usize, fat);
        self.grow_up(BUCKET | k, fat);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    #[test]
    fn split_entries_cuts_along_the_spread_axis() {
        // Nine unit boxes in two clumps along y: the cut separates the clumps.
        let mut e: Vec<(u32, Aabb)> = (0..9)
            .map(|i| {
                let y = if i % 2 == 0 { 0.0 } else { 50.0 } + i as f32 * 0.01;
                (
                    i,
                    Aabb::from_center_half_extents(Vec3::new(0.0, y, 0.0), Vec3::splat(0.5)),
                )
            })
            .collect();
        let m = split_entries(&mut e);
        assert_eq!(m, 5, "five at y = 0, four at y = 50");
        assert!(e[..m].iter().all(|x| x.0 % 2 == 0));
        assert!(e[m..].iter().all(|x| x.0 % 2 == 1));
    }
}
