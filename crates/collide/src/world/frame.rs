//! One frame of the pipeline, step by step: bounds, pairs, the narrow phase, then contacts and
//! events (see the [module documentation](super) for what each step does).

use super::narrow::{Part, QueryCounts};
use super::pair::{pair_outcome, Outcome, PairCache};
use super::{BodyId, ContactEvent, FrameStats, PairContact, SensorEvent, World};
use crate::shapes::Aabb;
use std::time::Instant;

/// One pair's narrow-phase work: the pair (smaller id first), its cache (kept from frame to
/// frame while the pair stays close) and this frame's outcome.
#[derive(Default)]
pub(super) struct PairWork {
    key: (u32, u32),
    cache: PairCache,
    outcome: Outcome,
    counts: QueryCounts,
}

/// The buffers one frame fills, kept by the world so that a frame allocates only when a list
/// outgrows every earlier frame's.
#[derive(Default)]
pub(super) struct FrameBuffers {
    /// This frame's pairs, sorted.
    pairs: Vec<(u32, u32)>,
    /// Every pair's work, sorted by pair: after a frame, its pairs and their caches.
    work: Vec<PairWork>,
    /// The work list being built from the last one (swapped with `work`).
    next_work: Vec<PairWork>,
    /// This frame's touching and sensing pairs while events are made (swapped with the
    /// world's lists of the last frame's).
    touching: Vec<(u32, u32)>,
    sensing: Vec<(u32, u32)>,
    /// The moving bodies' queries of the fixed bodies' tree, a chunk of bodies per task.
    fixed_tasks: Vec<FixedTask>,
    /// The resting contacts of moving bodies with fixed convex bodies: (moving body, index
    /// in `work`, hidden by a flush neighbour).
    seams: Vec<(u32, u32, bool)>,
    /// Scratch for a fixed body's parts.
    parts: Vec<(Part, Aabb)>,
}

/// Moving bodies per task of the fixed-tree queries: enough work for a task to outweigh its
/// cost.
const FIXED_CHUNK: usize = 256;

/// One task of the fixed-tree queries: its first moving body (an index into the world's
/// moving list) and the pairs it found.
#[derive(Default)]
struct FixedTask {
    first: usize,
    pairs: Vec<(u32, u32)>,
}

impl World {
    /// Runs the pipeline on the bodies' current poses: each body is swept from its pose at the
    /// previous update (or its last teleport) to its current pose.
    pub fn update(&mut self) {
        let mut stats = FrameStats::default();
        let t0 = Instant::now();
        self.refresh_bounds(&mut stats);
        let t1 = Instant::now();
        self.find_pairs();
        stats.broad_pairs = self.frame.pairs.len();
        let t2 = Instant::now();
        self.match_caches();
        self.narrow_phase();
        self.hide_seam_contacts();
        let t3 = Instant::now();
        self.record(&mut stats);
        self.start_next_frame();
        let t4 = Instant::now();
        stats.time_bounds = t1 - t0;
        stats.time_broad = t2 - t1;
        stats.time_narrow = t3 - t2;
        stats.time_events = t4 - t3;
        self.stats = stats;
    }

    /// Step 1, bounds: every moving body's world box at its end pose, swept over the frame for
    /// a fast body (in parallel: a hull with tight bounds reads every vertex), then given to
    /// the broad phase in id order; the fixed bodies' tree rebuilt if they changed.
    fn refresh_bounds(&mut self, stats: &mut FrameStats) {
        let ccd = self.config.ccd_fraction.max(0.0);
        self.fixed.rebuild_if_dirty(&self.bodies);
        crate::par::for_each_mut(&mut self.bodies, |slot| {
            if let Some(b) = slot.as_mut().filter(|b| !b.fixed) {
                b.refresh_boxes(ccd);
            }
        });
        for &id in &self.moving {
            let Some(b) = self.bodies[id as usize].as_mut() else {
                continue;
            };
            stats.bodies += 1;
            stats.fast_bodies += usize::from(b.fast);
            // Finite by construction: poses are checked on entry.
            if self.broad.update(b.proxy, b.broad_box).is_err() {
                b.aabb = Aabb::EMPTY;
                b.broad_box = Aabb::EMPTY;
            }
        }
        stats.bodies += self.fixed.ids.len();
    }

    /// Step 2, the broad phase: the moving bodies' pairs, then each moving body against the
    /// fixed bodies' tree (groups filtered), no pair of two sensors; sorted, smaller id first.
    fn find_pairs(&mut self) {
        self.broad.update_pairs(&mut self.broad_pairs);
        self.fixed_pairs();
        let f = &mut self.frame;
        let pairs = &mut f.pairs;
        pairs.clear();
        pairs.extend(self.broad_pairs.iter().map(|&(p, q)| {
            let (a, b) = (self.proxy_body[p as usize], self.proxy_body[q as usize]);
            (a.min(b), a.max(b))
        }));
        for task in &f.fixed_tasks {
            pairs.extend_from_slice(&task.pairs);
        }
        let sensor = |id: u32| self.bodies[id as usize].as_ref().is_some_and(|b| b.sensor);
        pairs.retain(|&(a, b)| !(sensor(a) && sensor(b)));
        pairs.sort_unstable();
    }

    /// Each moving body against the fixed bodies' tree (groups filtered), into the fixed
    /// tasks' lists: the moving bodies in chunks of [`FIXED_CHUNK`], one task each (in
    /// parallel with the `parallel` feature), so the pairs come in the same order on any
    /// number of threads.
    fn fixed_pairs(&mut self) {
        let tasks = &mut self.frame.fixed_tasks;
        let chunks = if self.fixed.ids.is_empty() {
            0
        } else {
            self.moving.len().div_ceil(FIXED_CHUNK)
        };
        // The task list only grows (a task dropped would take its list with it); the tasks
        // past `chunks` stay empty.
        if tasks.len() < chunks {
            tasks.resize_with(chunks, FixedTask::default);
        }
        for (k, task) in tasks.iter_mut().enumerate() {
            task.first = k * FIXED_CHUNK;
            task.pairs.clear();
        }
        let (bodies, fixed, moving) = (&self.bodies, &self.fixed, &self.moving);
        crate::par::for_each_task_mut(&mut tasks[..chunks], |task| {
            let end = (task.first + FIXED_CHUNK).min(moving.len());
            for &id in &moving[task.first..end] {
                let Some(b) = bodies[id as usize].as_ref() else {
                    continue;
                };
                fixed.query(bodies, &b.broad_box, &mut |f| {
                    let fixed_groups = bodies[f as usize].as_ref().map(|x| x.groups);
                    if fixed_groups.is_some_and(|g| g.allows(b.groups)) {
                        task.pairs.push((id.min(f), id.max(f)));
                    }
                    true
                });
            }
        });
    }

    /// Before step 3, the caches: this frame's work list from the last one, merged in pair order
    /// (both are sorted). A pair still close keeps its cache; a pair no longer close loses
    /// it, so the caches never outnumber the pairs.
    fn match_caches(&mut self) {
        let f = &mut self.frame;
        f.next_work.clear();
        let mut last = f.work.drain(..).peekable();
        for &key in &f.pairs {
            while last.next_if(|w| w.key < key).is_some() {}
            let cache = last.next_if(|w| w.key == key).map(|w| w.cache);
            f.next_work.push(PairWork {
                key,
                cache: cache.unwrap_or_default(),
                ..PairWork::default()
            });
        }
        drop(last);
        std::mem::swap(&mut f.work, &mut f.next_work);
    }

    /// Steps 3–5, midphase, exact tests and sweeps: one task per pair (in parallel with the
    /// `parallel` feature), each with its own cache; outcomes in the work list.
    fn narrow_phase(&mut self) {
        let bodies = &self.bodies;
        crate::par::for_each_mut(&mut self.frame.work, |w| {
            let (a, b) = (
                bodies[w.key.0 as usize].as_ref(),
                bodies[w.key.1 as usize].as_ref(),
            );
            (w.outcome, w.counts) = match (a, b) {
                (Some(a), Some(b)) => pair_outcome(a, b, &mut w.cache),
                _ => (Outcome::Apart, QueryCounts::default()),
            };
        });
    }

    /// Step 6, seams: a moving body's resting contacts with fixed convex bodies that a flush
    /// fixed neighbour hides (`super::flush`) are dropped, unless all of that body's contacts
    /// with fixed bodies are hidden.
    fn hide_seam_contacts(&mut self) {
        let f = &mut self.frame;
        let bodies = &self.bodies;
        let body = |id: u32| bodies[id as usize].as_ref();
        let convex_fixed = |b: &super::body::Body| b.fixed && !b.sensor && !b.is_surface();
        f.seams.clear();
        for (k, w) in f.work.iter().enumerate() {
            let Outcome::Contact(_, None) = w.outcome else {
                continue;
            };
            let (Some(a), Some(b)) = (body(w.key.0), body(w.key.1)) else {
                continue;
            };
            if convex_fixed(a) && !b.fixed && !b.sensor {
                f.seams.push((w.key.1, k as u32, false));
            } else if convex_fixed(b) && !a.fixed && !a.sensor {
                f.seams.push((w.key.0, k as u32, false));
            }
        }
        if f.seams.len() < 2 {
            return;
        }
        f.seams.sort_unstable();
        let (work, parts) = (&mut f.work, &mut f.parts);
        for group in f.seams.chunk_by_mut(|x, y| x.0 == y.0) {
            if group.len() < 2 {
                continue;
            }
            let fixed_of = |&(moving, k, _): &(u32, u32, bool)| {
                let (a, b) = work[k as usize].key;
                if a == moving {
                    b
                } else {
                    a
                }
            };
            for i in 0..group.len() {
                let own = fixed_of(&group[i]);
                let w = &work[group[i].1 as usize];
                let Outcome::Contact(m, _) = w.outcome else {
                    continue;
                };
                // The manifold's normal points from the smaller id toward the larger.
                let out = if w.key.0 == own { m.normal } else { -m.normal };
                let neighbours = group
                    .iter()
                    .map(fixed_of)
                    .filter(|&g| g != own)
                    .filter_map(body);
                group[i].2 = super::flush::hidden(&m, out, neighbours, parts);
            }
            if group.iter().all(|x| x.2) {
                continue;
            }
            for &(_, k, hidden) in group.iter() {
                if hidden {
                    work[k as usize].outcome = Outcome::Hidden;
                }
            }
        }
    }

    /// The frame's output in pair order: contacts (a sensor's pairs only as overlaps) and the
    /// events from the touching pairs of this frame against the last one's.
    fn record(&mut self, stats: &mut FrameStats) {
        self.contacts.clear();
        self.events.clear();
        self.sensor_events.clear();
        let f = &mut self.frame;
        f.touching.clear();
        f.sensing.clear();
        let bodies = &self.bodies;
        let is_sensor = |id: u32| bodies[id as usize].as_ref().is_some_and(|b| b.sensor);
        for w in &f.work {
            stats.cache_hits += w.counts.sat_hits;
            stats.cache_misses += w.counts.sat_misses;
            match w.outcome {
                Outcome::RejectedSphere => stats.rejected_sphere += 1,
                Outcome::RejectedObb => stats.rejected_obb += 1,
                Outcome::Apart => stats.rejected_exact += 1,
                Outcome::Hidden => stats.hidden_contacts += 1,
                Outcome::Contact(..) if is_sensor(w.key.0) || is_sensor(w.key.1) => {
                    f.sensing.push(w.key);
                }
                Outcome::Contact(manifold, toi) => {
                    stats.contacts += 1;
                    stats.impacts += usize::from(toi.is_some());
                    self.contacts.push(PairContact {
                        a: BodyId(w.key.0),
                        b: BodyId(w.key.1),
                        manifold,
                        toi,
                    });
                    f.touching.push(w.key);
                }
            }
        }
        stats.cached_pairs = f.work.len();
        let (touching, sensing) = (
            std::mem::take(&mut f.touching),
            std::mem::take(&mut f.sensing),
        );
        self.contact_events(&touching);
        self.sensor_changes(&sensing);
        // This frame's lists become the last frame's; the old ones are the next spare buffers.
        self.frame.touching = std::mem::replace(&mut self.touching, touching);
        self.frame.sensing = std::mem::replace(&mut self.sensing, sensing);
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

#[cfg(test)]
mod tests {
    use super::super::{BodyDesc, Geometry, WorldConfig};
    use super::*;
    use crate::math::Vec3;

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }

        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.unit()
        }

        fn vec(&mut self, r: f32) -> Vec3 {
            Vec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
        }
    }

    fn body(rng: &mut Rng) -> BodyDesc {
        let geometry = if rng.unit() < 0.5 {
            Geometry::Sphere(rng.range(0.2, 1.0))
        } else {
            Geometry::Cuboid(Vec3::new(
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
                rng.range(0.2, 1.0),
            ))
        };
        BodyDesc::new(geometry)
            .at(rng.vec(10.0))
            .moving(rng.vec(4.0))
    }

    // 10,000 frames of bodies flying through a 20 m box (turned back at its walls), with five
    // removed and five added every tenth frame: after every frame the world holds exactly one
    // cache per pair of that frame, so a long-running game's cache list never grows.
    #[test]
    fn caches_follow_the_live_pairs_through_10_000_churning_frames() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut world = World::new(WorldConfig::default());
        let mut ids: Vec<BodyId> = (0..120)
            .map(|_| world.add_body(body(&mut rng)).unwrap())
            .collect();
        let (mut most, mut least) = (0, usize::MAX);
        for frame in 0..10_000 {
            if frame % 10 == 9 {
                for _ in 0..5 {
                    let k = (rng.unit() * ids.len() as f32) as usize % ids.len();
                    world.remove_body(ids.swap_remove(k)).unwrap();
                    ids.push(world.add_body(body(&mut rng)).unwrap());
                }
            }
            for &id in &ids {
                let (p, _) = world.pose(id).unwrap();
                if p.abs().max_element() > 10.0 {
                    let v = -p.signum() * rng.vec(4.0).abs();
                    world.set_velocity(id, v, Vec3::ZERO).unwrap();
                }
            }
            world.step(1.0 / 30.0);
            let stats = world.stats();
            assert_eq!(stats.cached_pairs, stats.broad_pairs, "frame {frame}");
            assert_eq!(world.frame.work.len(), world.frame.pairs.len());
            (most, least) = (most.max(stats.broad_pairs), least.min(stats.broad_pairs));
        }
        // The scene did churn: pair counts rose and fell.
        assert!(most > least + 10, "pairs from {least} to {most}");
        // Everything far apart: no pair, no cache.
        for (k, &id) in ids.iter().enumerate() {
            let at = Vec3::new(100.0 * k as f32, 0.0, 0.0);
            world.set_velocity(id, Vec3::ZERO, Vec3::ZERO).unwrap();
            world
                .move_body(id, at, crate::math::Quat::IDENTITY)
                .unwrap();
        }
        // The first frame sweeps every body along its move; the second finds them apart.
        world.update();
        world.update();
        assert_eq!(
            (world.stats().broad_pairs, world.stats().cached_pairs),
            (0, 0)
        );
    }
}
