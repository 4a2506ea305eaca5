//! One frame of the pipeline, step by step: bounds, pairs, the narrow phase, then contacts and
//! events (see the [module documentation](super) for what each step does).

use super::narrow::QueryCounts;
use super::pair::{pair_outcome, Outcome, PairCache};
use super::{BodyId, ContactEvent, FrameStats, PairContact, SensorEvent, World};
use crate::math::Vec3;
use crate::shapes::Aabb;
use std::time::Instant;

/// One pair's narrow-phase work: the pair (smaller id first) and its cache.
type Work = ((u32, u32), PairCache);

impl World {
    /// Runs the pipeline on the bodies' current poses: each body is swept from its pose at the
    /// previous update (or its last teleport) to its current pose.
    pub fn update(&mut self) {
        let mut stats = FrameStats::default();
        let t0 = Instant::now();
        self.refresh_bounds(&mut stats);
        let t1 = Instant::now();
        let pairs = self.find_pairs();
        stats.broad_pairs = pairs.len();
        let t2 = Instant::now();
        let (work, results) = self.narrow_phase(&pairs);
        let t3 = Instant::now();
        self.record(work, results, &mut stats);
        self.start_next_frame();
        let t4 = Instant::now();
        stats.time_bounds = t1 - t0;
        stats.time_broad = t2 - t1;
        stats.time_narrow = t3 - t2;
        stats.time_events = t4 - t3;
        self.stats = stats;
    }

    /// Step 1, bounds: every moving body's world box at its end pose, swept over the frame for
    /// a fast body, given to the broad phase; the fixed bodies' tree rebuilt if they changed.
    fn refresh_bounds(&mut self, stats: &mut FrameStats) {
        let ccd = self.config.ccd_fraction.max(0.0);
        self.fixed.rebuild_if_dirty(&self.bodies);
        for &id in &self.moving {
            let Some(b) = self.bodies[id as usize].as_mut() else {
                continue;
            };
            let end = b.world_box(b.position, b.rotation);
            b.aabb = end;
            let motion = b.motion();
            b.fast = motion != Vec3::ZERO && motion.length() > ccd * b.thickness;
            let bx = if b.fast {
                end.union(&b.world_box(b.start_position, b.start_rotation))
            } else {
                end
            };
            stats.bodies += 1;
            stats.fast_bodies += usize::from(b.fast);
            b.broad_box = bx;
            // Finite by construction: poses are checked on entry.
            if self.broad.update(b.proxy, bx).is_err() {
                b.aabb = Aabb::EMPTY;
                b.broad_box = Aabb::EMPTY;
            }
        }
        stats.bodies += self.fixed.ids.len();
    }

    /// Step 2, the broad phase: the moving bodies' pairs, then each moving body against the
    /// fixed bodies' tree (groups filtered), no pair of two sensors; sorted, smaller id first.
    fn find_pairs(&mut self) -> Vec<(u32, u32)> {
        self.broad.update_pairs(&mut self.broad_pairs);
        let mut pairs: Vec<(u32, u32)> = self
            .broad_pairs
            .iter()
            .map(|&(p, q)| {
                let (a, b) = (self.proxy_body[p as usize], self.proxy_body[q as usize]);
                (a.min(b), a.max(b))
            })
            .collect();
        for &id in &self.moving {
            if let Some(b) = self.bodies[id as usize].as_ref() {
                self.fixed.query(&self.bodies, &b.broad_box, &mut |f| {
                    let fixed_groups = self.bodies[f as usize].as_ref().map(|x| x.groups);
                    if fixed_groups.is_some_and(|g| g.allows(b.groups)) {
                        pairs.push((id.min(f), id.max(f)));
                    }
                    true
                });
            }
        }
        let sensor = |id: u32| self.bodies[id as usize].as_ref().is_some_and(|b| b.sensor);
        pairs.retain(|&(a, b)| !(sensor(a) && sensor(b)));
        pairs.sort_unstable();
        pairs
    }

    /// Steps 3–5, midphase, exact tests and sweeps: one task per pair (in parallel with the
    /// `parallel` feature), each with its own cache; results in the sorted pair order.
    fn narrow_phase(&mut self, pairs: &[(u32, u32)]) -> (Vec<Work>, Vec<(Outcome, QueryCounts)>) {
        let mut work: Vec<Work> = pairs
            .iter()
            .map(|&k| (k, self.caches.remove(&k).unwrap_or_default()))
            .collect();
        let bodies = &self.bodies;
        let results = crate::par::map_mut(&mut work, |((a, b), cache)| {
            let (ba, bb) = (bodies[*a as usize].as_ref(), bodies[*b as usize].as_ref());
            match (ba, bb) {
                (Some(ba), Some(bb)) => pair_outcome(ba, bb, cache),
                _ => (Outcome::Apart, QueryCounts::default()),
            }
        });
        (work, results)
    }

    /// The frame's output in pair order: contacts (a sensor's pairs only as overlaps), the
    /// caches kept for next frame, and the events from the touching pairs of this frame
    /// against the last one's.
    fn record(
        &mut self,
        work: Vec<Work>,
        results: Vec<(Outcome, QueryCounts)>,
        stats: &mut FrameStats,
    ) {
        self.contacts.clear();
        self.events.clear();
        self.sensor_events.clear();
        let mut touching = Vec::with_capacity(self.touching.len());
        let mut sensing = Vec::with_capacity(self.sensing.len());
        let bodies = &self.bodies;
        let is_sensor = |id: u32| bodies[id as usize].as_ref().is_some_and(|b| b.sensor);
        for ((key, cache), (outcome, counts)) in work.into_iter().zip(results) {
            stats.cache_hits += counts.sat_hits;
            stats.cache_misses += counts.sat_misses;
            match outcome {
                Outcome::RejectedSphere => stats.rejected_sphere += 1,
                Outcome::RejectedObb => stats.rejected_obb += 1,
                Outcome::Apart => stats.rejected_exact += 1,
                Outcome::Contact(..) if is_sensor(key.0) || is_sensor(key.1) => {
                    sensing.push(key);
                }
                Outcome::Contact(manifold, toi) => {
                    stats.contacts += 1;
                    stats.impacts += usize::from(toi.is_some());
                    self.contacts.push(PairContact {
                        a: BodyId(key.0),
                        b: BodyId(key.1),
                        manifold,
                        toi,
                    });
                    touching.push(key);
                }
            }
            self.caches.insert(key, cache);
        }
        self.contact_events(&touching);
        self.sensor_changes(&sensing);
        self.sensing = sensing;
        self.touching = touching;
    }

    /// Began / persisted / ended: this frame's touching pairs merged with the last frame's.
    fn contact_events(&mut self, touching: &[(u32, u32)]) {
        let events = &mut self.events;
        diff_sorted(&self.touching, touching, |change, (a, b)| {
            let (a, b) = (BodyId(a), BodyId(b));
            events.push(match change {
                Change::Began => ContactEvent::Began(a, b),
                Change::Kept => ContactEvent::Persisted(a, b),
                Change::Ended => ContactEvent::Ended(a, b),
            });
        });
    }

    /// Began / ended for the sensors' overlaps, the sensor named first.
    fn sensor_changes(&mut self, sensing: &[(u32, u32)]) {
        let (sensor_events, bodies) = (&mut self.sensor_events, &self.bodies);
        diff_sorted(&self.sensing, sensing, |change, (a, b)| {
            // The sensor is the one flagged; a removed body (its slot empty) was the sensor
            // when the other is not one.
            let flag = |id: u32| bodies[id as usize].as_ref().map(|x| x.sensor);
            let a_is_sensor = match (flag(a), flag(b)) {
                (Some(sa), _) if sa => true,
                (_, Some(sb)) if sb => false,
                (fa, _) => fa.is_none(),
            };
            let (sensor, body) = if a_is_sensor { (a, b) } else { (b, a) };
            let (sensor, body) = (BodyId(sensor), BodyId(body));
            match change {
                Change::Began => sensor_events.push(SensorEvent::Began { sensor, body }),
                Change::Ended => sensor_events.push(SensorEvent::Ended { sensor, body }),
                Change::Kept => {}
            }
        });
    }

    /// The next frame starts where this one ended; ids removed this frame become free.
    fn start_next_frame(&mut self) {
        for &id in &self.moving {
            if let Some(b) = self.bodies[id as usize].as_mut() {
                b.start_position = b.position;
                b.start_rotation = b.rotation;
            }
        }
        self.free.append(&mut self.pending_free);
    }
}

/// How a pair changed between two sorted lists of pairs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    Began,
    Kept,
    Ended,
}

/// Calls `f` for every pair of `old` and `new` (both sorted, no duplicates), in pair order:
/// `Began` for pairs only in `new`, `Kept` for pairs in both, `Ended` for pairs only in `old`.
fn diff_sorted(old: &[(u32, u32)], new: &[(u32, u32)], mut f: impl FnMut(Change, (u32, u32))) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(&o), Some(&n)) if o == n => {
                f(Change::Kept, o);
                i += 1;
                j += 1;
            }
            (Some(&o), Some(&n)) if o < n => {
                f(Change::Ended, o);
                i += 1;
            }
            (Some(&o), None) => {
                f(Change::Ended, o);
                i += 1;
            }
            (_, Some(&n)) => {
                f(Change::Began, n);
                j += 1;
            }
            (None, None) => break,
        }
    }
}
