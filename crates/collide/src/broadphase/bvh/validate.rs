//! The tree's invariants, checked by `BroadPhase::validate` (tests and fuzzing).

use super::*;

/// What the walk from the root has met so far.
struct Seen {
    nodes: Vec<bool>,
    buckets: Vec<bool>,
    /// Proxies found in bucket lanes.
    proxies: usize,
}

impl DynamicBvh {
    /// The tree's invariants: links both ways, slot boxes containing what is below them,
    /// empty slots and lanes empty, every live proxy in exactly one lane (its recorded one)
    /// holding its fat box (unless flagged moved), nodes and buckets either reachable or
    /// free.
    pub(super) fn validate_tree(&self) -> Result<(), BroadPhaseDefect> {
        let mut seen = Seen {
            nodes: vec![false; self.nodes.len()],
            buckets: vec![false; self.buckets.len()],
            proxies: 0,
        };
        self.validate_root()?;
        let mut stack = vec![self.root];
        while let Some(n) = stack.pop() {
            if n != NULL {
                self.validate_node(n, &mut seen, &mut stack)?;
            }
        }
        self.validate_counts(seen.proxies)?;
        self.validate_free_lists(&seen)
    }

    /// The root is a node without a parent (or the tree is empty).
    fn validate_root(&self) -> Result<(), BroadPhaseDefect> {
        if self.root != NULL {
            if is_bucket(self.root) || self.root as usize >= self.nodes.len() {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Node { node: self.root },
                    "root {node} is not a node",
                ));
            }
            if self.nodes[self.root as usize].parent != NULL {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Node { node: self.root },
                    "root has a parent",
                ));
            }
        }
        Ok(())
    }

    /// Node `n`, met once, with 1 to `NODE_WIDTH` children: each child node is pushed on
    /// `stack`, each bucket checked here.
    fn validate_node(
        &self,
        n: u32,
        seen: &mut Seen,
        stack: &mut Vec<u32>,
    ) -> Result<(), BroadPhaseDefect> {
        let k = n as usize;
        if std::mem::replace(&mut seen.nodes[k], true) {
            return Err(BroadPhaseDefect::new(
                DefectSite::Node { node: n },
                "node {node} is reached twice",
            ));
        }
        let node = &self.nodes[k];
        let count = node.count as usize;
        if count == 0 || count > NODE_WIDTH {
            return Err(BroadPhaseDefect::new(
                DefectSite::Children { node: n, count },
                "node {node} has {count} children",
            ));
        }
        for s in 0..NODE_WIDTH {
            let (c, sb) = (node.child[s], node.slot_box(s));
            if s >= count {
                if !node.slot_is_empty(s) {
                    return Err(BroadPhaseDefect::new(
                        DefectSite::Slot { node: n, slot: s },
                        "node {node}: empty slot {slot} is not empty",
                    ));
                }
                continue;
            }
            if c == NULL {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Slot { node: n, slot: s },
                    "node {node}: slot {slot} is null",
                ));
            }
            if !is_bucket(c) {
                let ci = c as usize;
                if ci >= self.nodes.len() || self.nodes[ci].parent != n {
                    return Err(BroadPhaseDefect::new(
                        DefectSite::Child {
                            node: n,
                            slot: s,
                            child: c,
                        },
                        "node {node}: child node {child} links back wrongly",
                    ));
                }
                if !inside(&self.nodes[ci].bounds(), &sb) {
                    return Err(BroadPhaseDefect::new(
                        DefectSite::Child {
                            node: n,
                            slot: s,
                            child: c,
                        },
                        "node {node}: slot {slot} does not contain node {child}",
                    ));
                }
                stack.push(c);
                continue;
            }
            self.validate_bucket(n, s, c, &sb, seen)?;
        }
        Ok(())
    }

    /// The bucket `c` in slot `s` (box `sb`) of node `n`: linked back, met once, inside the
    /// slot, with 1 to `BUCKET_SIZE` proxies.
    fn validate_bucket(
        &self,
        n: u32,
        s: usize,
        c: u32,
        sb: &Aabb,
        seen: &mut Seen,
    ) -> Result<(), BroadPhaseDefect> {
        let bi = (c & !BUCKET) as usize;
        if bi >= self.buckets.len() || self.buckets[bi].parent != n {
            return Err(BroadPhaseDefect::new(
                DefectSite::Child {
                    node: n,
                    slot: s,
                    child: bi as u32,
                },
                "node {node}: bucket {child} links back wrongly",
            ));
        }
        if std::mem::replace(&mut seen.buckets[bi], true) {
            return Err(BroadPhaseDefect::new(
                DefectSite::Bucket { bucket: bi as u32 },
                "bucket {bucket} is reached twice",
            ));
        }
        let b = &self.buckets[bi];
        if !inside(&b.bounds, sb) {
            return Err(BroadPhaseDefect::new(
                DefectSite::Child {
                    node: n,
                    slot: s,
                    child: bi as u32,
                },
                "node {node}: slot {slot} does not contain bucket {child}",
            ));
        }
        let lanes = b.count as usize;
        if lanes == 0 || lanes > BUCKET_SIZE {
            return Err(BroadPhaseDefect::new(
                DefectSite::Lanes {
                    bucket: bi as u32,
                    count: lanes,
                },
                "bucket {bucket} has {count} proxies",
            ));
        }
        for l in 0..BUCKET_SIZE {
            if l >= lanes {
                if !b.lane_is_empty(l) {
                    return Err(BroadPhaseDefect::new(
                        DefectSite::Lane {
                            bucket: bi as u32,
                            lane: l as u32,
                        },
                        "bucket {bucket}: empty lane {lane} is not empty",
                    ));
                }
                continue;
            }
            self.validate_lane(bi, l)?;
            seen.proxies += 1;
        }
        Ok(())
    }

    /// Lane `l` of bucket `bi`: its proxy is recorded there, the bucket's bounds contain the
    /// lane box, which is the proxy's fat box (unless flagged moved), which contains its tight
    /// box.
    fn validate_lane(&self, bi: usize, l: usize) -> Result<(), BroadPhaseDefect> {
        let b = &self.buckets[bi];
        let (p, lb) = (b.proxy[l], b.lane_box(l));
        let want = Loc {
            bucket: bi as u32,
            lane: l as u32,
        };
        if self.loc.get(p as usize) != Some(&want) {
            return Err(BroadPhaseDefect::new(
                DefectSite::LaneProxy {
                    bucket: want.bucket,
                    lane: want.lane,
                    proxy: p,
                },
                "bucket {bucket} lane {lane}: proxy {proxy} is recorded elsewhere",
            ));
        }
        let pi = p as usize;
        if !inside(&lb, &b.bounds) {
            return Err(BroadPhaseDefect::new(
                DefectSite::Lane {
                    bucket: want.bucket,
                    lane: want.lane,
                },
                "bucket {bucket}: bounds do not contain lane {lane}",
            ));
        }
        let pb = &self.boxes[pi];
        if !self.moved_flag[pi] && lb != pb.fat.aabb() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Proxy { proxy: p },
                "proxy {proxy}: lane box is not its fat box",
            ));
        }
        if !pb.tight.inside(&pb.fat) {
            return Err(BroadPhaseDefect::new(
                DefectSite::Proxy { proxy: p },
                "proxy {proxy}: tight box is outside its fat box",
            ));
        }
        Ok(())
    }

    /// The `proxies` found in the tree plus the pending ones are the live ones, and pending
    /// proxies remain only while edits await `update_pairs`.
    fn validate_counts(&self, proxies: usize) -> Result<(), BroadPhaseDefect> {
        let pending = self.loc.iter().filter(|&&l| l == Loc::PENDING).count();
        if pending != self.pending {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: pending,
                    recorded: self.pending,
                },
                "{found} pending proxies, counted {recorded}",
            ));
        }
        if pending > 0 && !self.edited {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: pending,
                    recorded: self.pending,
                },
                "proxies still pending after update_pairs",
            ));
        }
        if proxies + pending != self.live {
            return Err(BroadPhaseDefect::new(
                DefectSite::Proxies {
                    in_tree: proxies,
                    pending,
                    live: self.live,
                },
                "{in_tree} proxies in the tree and {pending} pending for {live} live",
            ));
        }
        let live_locs = self.loc.iter().filter(|l| l.is_live()).count();
        if live_locs != self.live {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: live_locs,
                    recorded: self.live,
                },
                "{found} located proxies for {recorded} live",
            ));
        }
        Ok(())
    }

    /// Every node and bucket is either in the tree or on its free list, never both.
    fn validate_free_lists(&self, seen: &Seen) -> Result<(), BroadPhaseDefect> {
        let node: fn(u32) -> DefectSite = |f| DefectSite::Node { node: f };
        let bucket: fn(u32) -> DefectSite = |f| DefectSite::Bucket { bucket: f };
        let lists = [
            (
                &seen.nodes,
                &self.free_nodes,
                node,
                "free node {node} is in use or out of range",
                "{total} nodes: {used} in the tree and {free} free",
            ),
            (
                &seen.buckets,
                &self.free_buckets,
                bucket,
                "free bucket {bucket} is in use or out of range",
                "{total} buckets: {used} in the tree and {free} free",
            ),
        ];
        for (seen, free, site, in_use, miscounted) in lists {
            for &f in free.iter() {
                if seen.get(f as usize) != Some(&false) {
                    return Err(BroadPhaseDefect::new(site(f), in_use));
                }
            }
            let used = seen.iter().filter(|&&s| s).count();
            if used + free.len() != seen.len() {
                let site = DefectSite::Pool {
                    total: seen.len(),
                    used,
                    free: free.len(),
                };
                return Err(BroadPhaseDefect::new(site, miscounted));
            }
        }
        Ok(())
    }
}
