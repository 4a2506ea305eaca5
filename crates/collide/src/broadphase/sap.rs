//! Sweep and prune with incremental re-sorting (Baraff 1992; I-COLLIDE, Cohen et al. 1995).

use super::{
    boxes_touch, check_aabb, key_pair, pair_key, ray_box_entry, BroadPhase, BroadPhaseDefect,
    BroadPhaseError, CollisionGroups, DefectSite, IdPool, PairSet, ProxyId,
};
use crate::shapes::{Aabb, Ray};
use std::cmp::Ordering;

/// Tag bit of a max endpoint; a tag is `id << 1 | MAX_BIT` (max) or `id << 1` (min).
const MAX_BIT: u32 = 1;

/// More new proxies than this since the last `update_pairs` → sort from scratch instead of
/// sliding each new endpoint in from the end (each costs up to `2n` swaps per axis; a rebuild
/// costs about `6 n log n`).
const INSERT_REBUILD: usize = 24;

/// Sweep and prune on three axes: per axis, the `2n` box endpoints in sorted order
/// (structure-of-arrays: values and tags in separate arrays), re-sorted each frame by
/// insertion sort, which is `O(n + swaps)` when bodies move little (frame coherence).
///
/// The pair set is kept up to date by the swaps themselves (Baraff 1992, §3; I-COLLIDE):
/// when a min endpoint moves left past another box's max endpoint the two start overlapping
/// on that axis, and the pair is added if the boxes now touch on all three axes and their
/// groups allow it; when a max moves left past another's min they stop overlapping on that
/// axis and the pair is removed. Insertion sort swaps each inverted pair of endpoints exactly
/// once, so the pair set after sorting is exactly the set of touching pairs.
///
/// Ties: at equal values a min endpoint sorts before a max endpoint, so boxes that only touch
/// are in the set (touching counts). Large motion or many insertions (more than a few dozen
/// per frame, or more swaps than `32n`) switch to a full re-sort and a single sweep that
/// rebuilds the pair set — the same result at `O(n log n)` plus a sweep costing `n` times the
/// number of boxes open at once on the sweep axis. Queries scan every box (`O(n)`); use
/// [`DynamicBvh`](super::DynamicBvh) for many queries.
///
/// Scaling: in 3-D, the boxes open at once on one axis grow like `n^(2/3)` for a uniform
/// scene, and so do the endpoint crossings per frame; at 100k bodies even small motion
/// exceeds the swap budget and every frame rebuilds (about 0.7 s of CPU at 100k in the
/// benchmark). Sweep and prune is the right choice for up to ~10k bodies moving coherently;
/// beyond that use the tree.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    /// Per id: last box given (stale for dead ids).
    boxes: Vec<Aabb>,
    /// Per id: collision groups.
    groups: Vec<CollisionGroups>,
    /// Per id: live?
    alive: Vec<bool>,
    /// Per axis: endpoint values, sorted after `update_pairs`.
    values: [Vec<f32>; 3],
    /// Per axis: endpoint tags, parallel to `values`.
    tags: [Vec<u32>; 3],
    /// Per axis, per tag: the endpoint's index in `values`/`tags`.
    pos: [Vec<u32>; 3],
    /// Pairs of touching boxes (keys from `pair_key`).
    pairs: PairSet,
    ids: IdPool,
    live: usize,
    /// Proxies inserted since the last `update_pairs` (their endpoints are at the end).
    added: usize,
    /// Any edit since the last `update_pairs` (sortedness then no longer holds).
    edited: bool,
    /// The pair set must be rebuilt from scratch at the next `update_pairs`.
    rebuild: bool,
    /// Scratch: (value, tag) for sorting from scratch.
    sort_buf: Vec<(f32, u32)>,
    /// Scratch: the boxes open during a rebuild sweep, and each one's index in it.
    active: Vec<u32>,
    active_pos: Vec<u32>,
    /// Statistics of the last `update_pairs`: swaps, and whether it rebuilt.
    last_swaps: usize,
    last_rebuilt: bool,
}

/// Sorted order of endpoints: by value, then min before max.
#[inline]
fn endpoint_after(v_left: f32, t_left: u32, v: f32, t: u32) -> bool {
    v_left > v || (v_left == v && (t_left & MAX_BIT) > (t & MAX_BIT))
}

impl SweepAndPrune {
    /// An empty structure.
    #[must_use]
    pub fn new() -> SweepAndPrune {
        SweepAndPrune {
            rebuild: true,
            ..SweepAndPrune::default()
        }
    }

    /// Endpoint swaps done by the last [`BroadPhase::update_pairs`] (0 after a rebuild).
    #[must_use]
    pub fn last_swaps(&self) -> usize {
        self.last_swaps
    }

    /// `true` when the last [`BroadPhase::update_pairs`] sorted from scratch.
    #[must_use]
    pub fn last_rebuilt(&self) -> bool {
        self.last_rebuilt
    }

    /// Drops the endpoints and pairs of removed proxies.
    fn compact(&mut self) {
        let alive = &self.alive;
        for k in 0..3 {
            let (values, tags, pos) = (&mut self.values[k], &mut self.tags[k], &mut self.pos[k]);
            let mut w = 0;
            for r in 0..values.len() {
                let t = tags[r];
                if alive[(t >> 1) as usize] {
                    values[w] = values[r];
                    tags[w] = t;
                    pos[t as usize] = w as u32;
                    w += 1;
                }
            }
            values.truncate(w);
            tags.truncate(w);
        }
        self.pairs.retain(|&key| {
            let (a, b) = key_pair(key);
            alive[a as usize] && alive[b as usize]
        });
    }

    /// Re-sorts every axis by insertion sort, updating the pair set at each swap. Returns
    /// `false` (leaving the lists partly sorted) when the swaps exceed `budget`.
    fn incremental_sort(&mut self, budget: usize) -> bool {
        let mut swaps = 0usize;
        for k in 0..3 {
            let values = &mut self.values[k];
            let tags = &mut self.tags[k];
            let pos = &mut self.pos[k];
            let (boxes, groups, pairs) = (&self.boxes, &self.groups, &mut self.pairs);
            for i in 1..values.len() {
                let (v, t) = (values[i], tags[i]);
                let mut j = i;
                while j > 0 {
                    let (vl, tl) = (values[j - 1], tags[j - 1]);
                    if !endpoint_after(vl, tl, v, t) {
                        break;
                    }
                    // The endpoint `t` moves left past `tl`.
                    values[j] = vl;
                    tags[j] = tl;
                    pos[tl as usize] = j as u32;
                    j -= 1;
                    let (a, b) = ((t >> 1) as usize, (tl >> 1) as usize);
                    match (t & MAX_BIT, tl & MAX_BIT) {
                        // min(a) now before max(b): they begin to overlap on axis k.
                        (0, 1)
                            if boxes_touch(&boxes[a], &boxes[b]) && groups[a].allows(groups[b]) =>
                        {
                            pairs.insert(pair_key(a as u32, b as u32));
                        }
                        // max(a) now before min(b): separated on axis k.
                        (1, 0) => {
                            pairs.remove(&pair_key(a as u32, b as u32));
                        }
                        _ => {}
                    }
                }
                if j != i {
                    values[j] = v;
                    tags[j] = t;
                    pos[t as usize] = j as u32;
                    swaps += i - j;
                    if swaps > budget {
                        self.last_swaps = swaps;
                        return false;
                    }
                }
            }
        }
        self.last_swaps = swaps;
        true
    }

    /// Sorts every axis from scratch and recomputes the pair set with one sweep along the
    /// axis where the box centres spread most.
    fn full_rebuild(&mut self) {
        for k in 0..3 {
            self.sort_buf.clear();
            for (v, t) in self.values[k].iter().zip(&self.tags[k]) {
                self.sort_buf.push((*v, *t));
            }
            // Values are finite (checked on entry), so `partial_cmp` is total here.
            self.sort_buf.sort_unstable_by(|a, b| {
                a.0.partial_cmp(&b.0)
                    .unwrap_or(Ordering::Equal)
                    .then((a.1 & MAX_BIT).cmp(&(b.1 & MAX_BIT)))
            });
            for (i, &(v, t)) in self.sort_buf.iter().enumerate() {
                self.values[k][i] = v;
                self.tags[k][i] = t;
                self.pos[k][t as usize] = i as u32;
            }
        }
        // Sweep axis: largest variance of centres (fewest boxes open at once, usually).
        let mut best = (0usize, -1.0f64);
        for k in 0..3 {
            let (mut s, mut s2, mut n) = (0.0f64, 0.0f64, 0.0f64);
            for (i, b) in self.boxes.iter().enumerate() {
                if self.alive[i] {
                    let c = 0.5 * (f64::from(b.min[k]) + f64::from(b.max[k]));
                    s += c;
                    s2 += c * c;
                    n += 1.0;
                }
            }
            let var = if n > 0.0 {
                s2 / n - (s / n) * (s / n)
            } else {
                0.0
            };
            if var > best.1 {
                best = (k, var);
            }
        }
        let k = best.0;
        self.pairs.clear();
        self.active.clear();
        self.active_pos.resize(self.boxes.len(), 0);
        for &t in &self.tags[k] {
            let a = (t >> 1) as usize;
            if t & MAX_BIT == 0 {
                for &b in &self.active {
                    let b = b as usize;
                    if boxes_touch(&self.boxes[a], &self.boxes[b])
                        && self.groups[a].allows(self.groups[b])
                    {
                        self.pairs.insert(pair_key(a as u32, b as u32));
                    }
                }
                self.active_pos[a] = self.active.len() as u32;
                self.active.push(a as u32);
            } else {
                let i = self.active_pos[a] as usize;
                self.active.swap_remove(i);
                if let Some(&moved) = self.active.get(i) {
                    self.active_pos[moved as usize] = i as u32;
                }
            }
        }
        self.last_swaps = 0;
    }
}

impl BroadPhase for SweepAndPrune {
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError> {
        check_aabb(&aabb)?;
        let id = self.ids.alloc()?;
        let i = id as usize;
        if self.boxes.len() <= i {
            self.boxes.resize(i + 1, Aabb::EMPTY);
            self.groups.resize(i + 1, CollisionGroups::NONE);
            self.alive.resize(i + 1, false);
            for k in 0..3 {
                self.pos[k].resize(2 * (i + 1), 0);
            }
        }
        self.boxes[i] = aabb;
        self.groups[i] = groups;
        self.alive[i] = true;
        // Appended after everything: as if the box had been at +inf, touching nothing; the
        // insertion sort slides it into place and the swaps add its pairs.
        for k in 0..3 {
            for (v, t) in [(aabb.min[k], id << 1), (aabb.max[k], id << 1 | MAX_BIT)] {
                self.pos[k][t as usize] = self.values[k].len() as u32;
                self.values[k].push(v);
                self.tags[k].push(t);
            }
        }
        self.live += 1;
        self.added += 1;
        self.edited = true;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        if !self.alive.get(id as usize).copied().unwrap_or(false) {
            return Err(BroadPhaseError::UnknownProxy(id));
        }
        self.alive[id as usize] = false;
        self.ids.remove(id);
        self.live -= 1;
        self.edited = true;
        Ok(())
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let i = id as usize;
        if !self.alive.get(i).copied().unwrap_or(false) {
            return Err(BroadPhaseError::UnknownProxy(id));
        }
        check_aabb(&aabb)?;
        self.boxes[i] = aabb;
        for k in 0..3 {
            let p = &self.pos[k];
            let (lo, hi) = (p[2 * i] as usize, p[2 * i + 1] as usize);
            self.values[k][lo] = aabb.min[k];
            self.values[k][hi] = aabb.max[k];
        }
        self.edited = true;
        Ok(())
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        if !self.ids.pending().is_empty() {
            self.compact();
        }
        self.ids.release_pending();
        let n = self.values[0].len();
        let rebuild =
            self.rebuild || self.added > INSERT_REBUILD || !self.incremental_sort(32 * n + 64);
        if rebuild {
            self.full_rebuild();
        }
        self.last_rebuilt = rebuild;
        self.rebuild = false;
        self.added = 0;
        self.edited = false;
        out.clear();
        out.extend(self.pairs.iter().map(|&k| key_pair(k)));
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool) {
        for (i, b) in self.boxes.iter().enumerate() {
            if self.alive[i] && boxes_touch(b, aabb) && !f(i as ProxyId) {
                return;
            }
        }
    }

    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32) {
        let inv = ray.dir.recip();
        let mut max_t = max_t;
        for (i, b) in self.boxes.iter().enumerate() {
            if !self.alive[i] {
                continue;
            }
            if let Some(t) = ray_box_entry(ray.origin, ray.dir, inv, b, max_t) {
                max_t = f(i as ProxyId, t);
                if max_t.is_nan() || max_t < 0.0 {
                    return;
                }
            }
        }
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        let i = id as usize;
        (*self.alive.get(i)?).then(|| self.boxes[i])
    }

    fn len(&self) -> usize {
        self.live
    }

    fn validate(&self) -> Result<(), BroadPhaseDefect> {
        let alive = self.alive.iter().filter(|a| **a).count();
        if alive != self.live {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: alive,
                    recorded: self.live,
                },
                "live count {recorded} but {found} live ids",
            ));
        }
        for k in 0..3 {
            self.validate_axis(k)?;
        }
        if self.edited || self.rebuild {
            return Ok(());
        }
        self.validate_pair_members()?;
        self.validate_pair_count()
    }
}

impl SweepAndPrune {
    /// Axis `k`'s endpoint lists: positions recorded where they are, values equal to the
    /// boxes', sorted (unless edited since the last update), two per live box.
    fn validate_axis(&self, k: usize) -> Result<(), BroadPhaseDefect> {
        let (values, tags, pos) = (&self.values[k], &self.tags[k], &self.pos[k]);
        if values.len() != tags.len() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Axis { axis: k },
                "axis {axis}: values and tags differ in length",
            ));
        }
        let mut seen = 0usize;
        for (i, (&v, &t)) in values.iter().zip(tags).enumerate() {
            let id = (t >> 1) as usize;
            if pos[t as usize] as usize != i {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Endpoint {
                        axis: k,
                        endpoint: i,
                        tag: t,
                    },
                    "axis {axis}: endpoint {endpoint} (tag {tag}) not where pos says",
                ));
            }
            if !self.alive[id] {
                continue;
            }
            seen += 1;
            let b = &self.boxes[id];
            let want = if t & MAX_BIT == 0 { b.min[k] } else { b.max[k] };
            if v != want {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Value {
                        axis: k,
                        proxy: id as ProxyId,
                        value: v,
                        expected: want,
                    },
                    "axis {axis}: endpoint of {proxy} is {value}, box says {expected}",
                ));
            }
            if !self.edited && i > 0 && endpoint_after(values[i - 1], tags[i - 1], v, t) {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Endpoints {
                        axis: k,
                        first: i - 1,
                        second: i,
                    },
                    "axis {axis}: endpoints {first} and {second} out of order",
                ));
            }
        }
        if seen != 2 * self.live {
            return Err(BroadPhaseDefect::new(
                DefectSite::AxisCount {
                    axis: k,
                    found: seen,
                    recorded: self.live,
                },
                "axis {axis}: {found} live endpoints for {recorded} boxes",
            ));
        }
        Ok(())
    }

    /// Each member of the pair set: two distinct live proxies whose boxes touch and whose
    /// groups allow the pair.
    fn validate_pair_members(&self) -> Result<(), BroadPhaseDefect> {
        for &key in &self.pairs {
            let (a, b) = key_pair(key);
            let (a, b) = (a as usize, b as usize);
            if a == b || !self.alive[a] || !self.alive[b] {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Pair {
                        a: a as ProxyId,
                        b: b as ProxyId,
                    },
                    "pair ({a}, {b}) names a dead or equal proxy",
                ));
            }
            if !boxes_touch(&self.boxes[a], &self.boxes[b])
                || !self.groups[a].allows(self.groups[b])
            {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Pair {
                        a: a as ProxyId,
                        b: b as ProxyId,
                    },
                    "pair ({a}, {b}) does not touch or is filtered out",
                ));
            }
        }
        Ok(())
    }

    /// As many members as touching allowed pairs, counted by a sweep along sorted axis 0.
    fn validate_pair_count(&self) -> Result<(), BroadPhaseDefect> {
        let mut open: Vec<usize> = Vec::new();
        let mut count = 0usize;
        for &t in &self.tags[0] {
            let a = (t >> 1) as usize;
            if t & MAX_BIT == 0 {
                count += open
                    .iter()
                    .filter(|&&b| {
                        boxes_touch(&self.boxes[a], &self.boxes[b])
                            && self.groups[a].allows(self.groups[b])
                    })
                    .count();
                open.push(a);
            } else if let Some(i) = open.iter().position(|&b| b == a) {
                open.swap_remove(i);
            }
        }
        if count != self.pairs.len() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: count,
                    recorded: self.pairs.len(),
                },
                "pair set has {recorded} pairs, a sweep finds {found}",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    fn unit_at(x: f32) -> Aabb {
        Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.5))
    }

    #[test]
    fn swaps_add_then_remove_a_pair() {
        // Two unit boxes 3 apart; the second slides left through the first and out the other side.
        let mut sap = SweepAndPrune::new();
        let a = sap.insert(unit_at(0.0), CollisionGroups::ALL).unwrap();
        let b = sap.insert(unit_at(3.0), CollisionGroups::ALL).unwrap();
        let mut out = Vec::new();
        sap.update_pairs(&mut out);
        assert!(out.is_empty());
        sap.update(b, unit_at(1.0)).unwrap(); // touching at x = 0.5
        sap.update_pairs(&mut out);
        assert_eq!(out, vec![(a, b)]);
        assert!(!sap.last_rebuilt() && sap.last_swaps() == 1);
        sap.validate().unwrap();
        sap.update(b, unit_at(-3.0)).unwrap();
        sap.update_pairs(&mut out);
        assert!(out.is_empty());
        // Touching, b.min (0.5) sorted before a.max (0.5): b.min passes a.min; b.max passes
        // a.max and a.min.
        assert_eq!(sap.last_swaps(), 3);
        sap.validate().unwrap();
    }

    #[test]
    fn many_insertions_rebuild_few_slide_in() {
        // 100 boxes in a row rebuild; then 2 more slide in by swaps.
        let mut sap = SweepAndPrune::new();
        for i in 0..100 {
            sap.insert(unit_at(i as f32), CollisionGroups::ALL).unwrap();
        }
        let mut out = Vec::new();
        sap.update_pairs(&mut out);
        assert!(sap.last_rebuilt());
        assert_eq!(out.len(), 99);
        sap.insert(unit_at(50.5), CollisionGroups::ALL).unwrap();
        sap.update_pairs(&mut out);
        assert!(!sap.last_rebuilt());
        // The box at 50.5 spans [50, 51]: it overlaps the boxes at 50 and 51 only (49 ends
        // at 49.5, 52 starts at 51.5).
        assert_eq!(out.len(), 99 + 2);
        sap.validate().unwrap();
    }
}
