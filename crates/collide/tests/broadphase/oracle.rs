//! Guards the broad phases: every structure's pair set equals `BruteForce`'s every frame, on
//! seeded moving scenes (small, large and clustered motion), with collision groups, with
//! insertions and removals mid-run, and queries (box, ray) agree with a scan of every box.
//!
//! Default run: 1k boxes × 100 frames × 3 motions, 10k boxes × 5 frames × 3 motions.
//! `COLLIDE_LONG=1`: 10k boxes × 100 frames. The 100k comparison (SAP vs BVH, brute force
//! being too slow) is `#[ignore]`d: `cargo test --release -p collide --test main
//! broadphase::oracle -- --ignored`.

use collide::broadphase::{
    BroadPhase, BroadPhaseError, BruteForce, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
};
use collide::shapes::{Aabb, Ray};
use collide::Vec3;
use collide_testkit::scene::{Motion, MovingScene};
use collide_testkit::Gen;

fn long() -> bool {
    std::env::var("COLLIDE_LONG").is_ok_and(|v| v == "1")
}

/// Groups drawn from three bits so that some pairs are filtered out.
fn groups_for(i: usize) -> CollisionGroups {
    match i % 5 {
        0 => CollisionGroups::new(1, 1), // only with group-1 members accepting 1
        1 => CollisionGroups::new(2, 1 | 2), // group 2, accepts 1 and 2
        2 => CollisionGroups::new(4, 2), // group 4, accepts only 2
        _ => CollisionGroups::ALL,
    }
}

fn sorted_pairs(bp: &mut dyn BroadPhase, out: &mut Vec<(ProxyId, ProxyId)>) {
    bp.update_pairs(out);
    out.sort_unstable();
    assert!(
        out.windows(2).all(|w| w[0] != w[1]),
        "duplicate pair reported"
    );
    assert!(out.iter().all(|&(a, b)| a < b), "pair not ordered a < b");
}

struct Counts {
    frames: usize,
    pairs: usize,
}

/// Runs a scene through `structures`, comparing each against the first every frame.
/// `churn`: remove and insert a few boxes each frame. Returns frames and pairs compared.
fn run(
    n: usize,
    motion: Motion,
    frames: usize,
    seed: u64,
    churn: bool,
    structures: &mut [Box<dyn BroadPhase>],
    validate: bool,
) -> Counts {
    let mut scene = MovingScene::new(seed, n, motion);
    let mut gen = Gen::new(seed ^ 0x5eed);
    // ids[s][i]: box i's proxy in structure s (None while removed).
    let mut ids: Vec<Vec<Option<ProxyId>>> = Vec::new();
    for bp in structures.iter_mut() {
        let v = scene
            .boxes
            .iter()
            .enumerate()
            .map(|(i, b)| Some(bp.insert(*b, groups_for(i)).expect("valid box")))
            .collect();
        ids.push(v);
    }
    // The same edits give the same ids in every structure.
    for s in 1..ids.len() {
        assert_eq!(ids[0], ids[s]);
    }
    let mut reference = Vec::new();
    let mut other = Vec::new();
    let mut counts = Counts {
        frames: 0,
        pairs: 0,
    };
    for frame in 0..frames {
        scene.step();
        let mut removed = Vec::new();
        let mut added = Vec::new();
        if churn {
            for _ in 0..3 {
                removed.push(gen.rng_index(n));
            }
            for _ in 0..2 {
                added.push(gen.rng_index(n));
            }
        }
        for (s, bp) in structures.iter_mut().enumerate() {
            for (i, b) in scene.boxes.iter().enumerate() {
                if let Some(id) = ids[s][i] {
                    bp.update(id, *b).expect("live proxy, valid box");
                }
            }
            for &i in &removed {
                if let Some(id) = ids[s][i].take() {
                    bp.remove(id).expect("live proxy");
                    assert_eq!(bp.remove(id), Err(BroadPhaseError::UnknownProxy(id)));
                }
            }
            for &i in &added {
                if ids[s][i].is_none() {
                    ids[s][i] = Some(bp.insert(scene.boxes[i], groups_for(i)).unwrap());
                }
            }
        }
        sorted_pairs(structures[0].as_mut(), &mut reference);
        if validate {
            structures[0].validate().unwrap();
        }
        for s in 1..structures.len() {
            assert_eq!(ids[0], ids[s], "frame {frame}: ids diverged");
            sorted_pairs(structures[s].as_mut(), &mut other);
            if validate {
                if let Err(e) = structures[s].validate() {
                    panic!("frame {frame}, structure {s}: {e}");
                }
            }
            if other != reference {
                let missing: Vec<_> = reference.iter().filter(|p| !other.contains(p)).collect();
                let extra: Vec<_> = other.iter().filter(|p| !reference.contains(p)).collect();
                panic!(
                    "{motion:?} n={n} frame {frame}: structure {s} differs: {} missing \
                     (first {:?}), {} extra (first {:?})",
                    missing.len(),
                    missing.first(),
                    extra.len(),
                    extra.first()
                );
            }
        }
        counts.frames += 1;
        counts.pairs += reference.len();
    }
    counts
}

trait RngIndex {
    fn rng_index(&mut self, n: usize) -> usize;
}

impl RngIndex for Gen {
    fn rng_index(&mut self, n: usize) -> usize {
        (self.range(0.0, n as f32) as usize).min(n - 1)
    }
}

fn three() -> Vec<Box<dyn BroadPhase>> {
    vec![
        Box::new(BruteForce::new()),
        Box::new(SweepAndPrune::new()),
        Box::new(DynamicBvh::new()),
    ]
}

#[test]
fn pairs_equal_brute_force_1k_every_motion_100_frames() {
    for (seed, motion) in [
        (1, Motion::Small),
        (2, Motion::Large),
        (3, Motion::Clustered),
        (13, Motion::Teleport),
    ] {
        let c = run(1000, motion, 100, seed, false, &mut three(), true);
        assert_eq!(c.frames, 100);
        assert!(
            c.pairs > 100 * 100,
            "{motion:?}: too few pairs to mean anything"
        );
    }
}

#[test]
fn pairs_equal_brute_force_1k_with_insertions_and_removals() {
    for (seed, motion) in [
        (4, Motion::Small),
        (5, Motion::Large),
        (6, Motion::Clustered),
        (14, Motion::Teleport),
    ] {
        run(1000, motion, 100, seed, true, &mut three(), true);
    }
}

#[test]
fn pairs_equal_brute_force_10k() {
    let frames = if long() { 100 } else { 5 };
    for (seed, motion) in [
        (7, Motion::Small),
        (8, Motion::Large),
        (9, Motion::Clustered),
        (15, Motion::Teleport),
    ] {
        let c = run(10_000, motion, frames, seed, true, &mut three(), false);
        assert!(c.pairs > 1000 * frames);
    }
}

/// 100k boxes, 100 frames, SAP against BVH (brute force is too slow). Release build advised.
#[test]
#[ignore]
fn pairs_sap_equal_bvh_100k() {
    for (seed, motion) in [
        (10, Motion::Small),
        (11, Motion::Large),
        (12, Motion::Clustered),
        (16, Motion::Teleport),
    ] {
        let mut two: Vec<Box<dyn BroadPhase>> =
            vec![Box::new(SweepAndPrune::new()), Box::new(DynamicBvh::new())];
        let c = run(100_000, motion, 100, seed, true, &mut two, false);
        println!(
            "{motion:?}: {} frames, {} pairs compared",
            c.frames, c.pairs
        );
    }
}

#[test]
fn queries_equal_scan_of_every_box() {
    let mut scene = MovingScene::new(20, 2000, Motion::Clustered);
    let mut structures = three();
    for bp in structures.iter_mut() {
        for b in &scene.boxes {
            bp.insert(*b, CollisionGroups::ALL).unwrap();
        }
    }
    let mut gen = Gen::new(21);
    gen.extent = scene.extent;
    let mut out = Vec::new();
    for frame in 0..20 {
        scene.step();
        for bp in structures.iter_mut() {
            for (i, b) in scene.boxes.iter().enumerate() {
                bp.update(i as ProxyId, *b).unwrap();
            }
            if frame % 2 == 0 {
                // Queries must also be right between edits and update_pairs.
                bp.update_pairs(&mut out);
            }
        }
        for _ in 0..20 {
            let q = Aabb::from_center_half_extents(gen.point(), gen.vec(3.0));
            // The oracle: a scan of the scene's boxes.
            let mut want: Vec<ProxyId> = scene
                .boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.min.cmple(q.max).all() && q.min.cmple(b.max).all())
                .map(|(i, _)| i as ProxyId)
                .collect();
            want.sort_unstable();
            let ray = Ray::new(gen.point(), gen.unit() * gen.range(1.0, 20.0));
            let mut want_ray: Vec<(ProxyId, f32)> = Vec::new();

            for (i, b) in scene.boxes.iter().enumerate() {
                if let Some(t) = slab_f64(&ray, b) {
                    want_ray.push((i as ProxyId, t));
                }
            }
            for bp in structures.iter() {
                let mut got = Vec::new();
                bp.query_aabb(&q, &mut |id| {
                    got.push(id);
                    true
                });
                got.sort_unstable();
                assert_eq!(got, want);
                let mut got_ray = Vec::new();
                bp.ray_cast(&ray, 1.0, &mut |id, t| {
                    got_ray.push((id, t));
                    1.0
                });
                got_ray.sort_by_key(|p| p.0);
                // Same boxes (allowing a grazing hit decided differently in f32 vs f64),
                // same entry parameter.
                let ids_got: Vec<_> = got_ray.iter().map(|p| p.0).collect();
                let ids_want: Vec<_> = want_ray.iter().map(|p| p.0).collect();
                assert_eq!(ids_got, ids_want);
                for (g, w) in got_ray.iter().zip(&want_ray) {
                    assert!((g.1 - w.1).abs() < 1e-4, "ray entry {} vs {}", g.1, w.1);
                }
                // The query box moving along the ray: every box it meets (the ray from its
                // centre against each box grown by its half-extents), nearest first.
                let mut got_cast = Vec::new();
                let moving = Aabb::from_center_half_extents(ray.origin, q.half_extents());
                bp.cast_aabb(&moving, ray.dir, 1.0, &mut |id, t| {
                    got_cast.push((id, t));
                    1.0
                });
                let grown =
                    |b: &Aabb| Aabb::new(b.min - q.half_extents(), b.max + q.half_extents());
                let mut want_cast: Vec<(ProxyId, f32)> = scene
                    .boxes
                    .iter()
                    .enumerate()
                    .filter_map(|(i, b)| Some((i as ProxyId, slab_f64(&ray, &grown(b))?)))
                    .collect();
                want_cast.sort_by_key(|p| p.0);
                let mut by_id = got_cast.clone();
                by_id.sort_by_key(|p| p.0);
                let ids_got: Vec<_> = by_id.iter().map(|p| p.0).collect();
                let ids_want: Vec<_> = want_cast.iter().map(|p| p.0).collect();
                assert_eq!(ids_got, ids_want, "cast_aabb");
                for (g, w) in by_id.iter().zip(&want_cast) {
                    assert!((g.1 - w.1).abs() < 1e-4, "cast entry {} vs {}", g.1, w.1);
                }
                // Returning each t as the bound: every later visit is no farther, and the
                // nearest box is among them.
                let first = want_cast.iter().map(|w| w.1).fold(f32::INFINITY, f32::min);
                let mut visited: Vec<f32> = Vec::new();
                bp.cast_aabb(&moving, ray.dir, 1.0, &mut |_, t| {
                    visited.push(t);
                    t
                });
                for (i, &t) in visited.iter().enumerate().skip(1) {
                    let bound = visited[..i].iter().copied().fold(f32::INFINITY, f32::min);
                    assert!(t <= bound, "{visited:?}");
                }
                let nearest = visited.iter().copied().fold(f32::INFINITY, f32::min);
                assert!(
                    first.is_infinite() || (nearest - first).abs() < 1e-4,
                    "{visited:?}"
                );
            }
        }
    }
}

/// The ray's entry parameter in [0, 1] into a box, by slabs in f64.
fn slab_f64(ray: &Ray, b: &Aabb) -> Option<f32> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..3 {
        let (o, d) = (f64::from(ray.origin[k]), f64::from(ray.dir[k]));
        let (lo, hi) = (f64::from(b.min[k]), f64::from(b.max[k]));
        if d == 0.0 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (ta, tb) = ((lo - o) / d, (hi - o) / d);
        t0 = t0.max(ta.min(tb));
        t1 = t1.min(ta.max(tb));
        if t0 > t1 {
            return None;
        }
    }
    Some(t0 as f32)
}

#[test]
fn ray_cast_clipping_and_stopping() {
    // Three unit boxes on the x axis at x = 2, 4, 6; a ray from the origin along +x.
    for mut bp in three() {
        for x in [2.0f32, 4.0, 6.0] {
            bp.insert(
                Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.5)),
                CollisionGroups::ALL,
            )
            .unwrap();
        }
        let ray = Ray::new(Vec3::ZERO, Vec3::X);
        // Clipping to each hit leaves the nearest one last seen, at t = 1.5.
        let mut nearest = (u32::MAX, f32::INFINITY);
        bp.ray_cast(&ray, 100.0, &mut |id, t| {
            if t < nearest.1 {
                nearest = (id, t);
            }
            nearest.1
        });
        assert_eq!(nearest, (0, 1.5));
        // A negative return stops after one box.
        let mut seen = 0;
        bp.ray_cast(&ray, 100.0, &mut |_, _| {
            seen += 1;
            -1.0
        });
        assert_eq!(seen, 1);
        // NaN ray: nothing.
        bp.ray_cast(&Ray::new(Vec3::NAN, Vec3::X), 100.0, &mut |_, _| {
            panic!("a NaN ray hit")
        });
        // Query stops when told.
        let mut seen = 0;
        bp.query_aabb(
            &Aabb::new(Vec3::splat(-10.0), Vec3::splat(10.0)),
            &mut |_| {
                seen += 1;
                false
            },
        );
        assert_eq!(seen, 1);
    }
}

#[test]
fn invalid_boxes_and_ids_are_typed_errors() {
    for mut bp in three() {
        let nan = Aabb::new(Vec3::ZERO, Vec3::new(1.0, f32::NAN, 1.0));
        let inf = Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, f32::INFINITY));
        let inverted = Aabb {
            min: Vec3::ONE,
            max: Vec3::ZERO,
        };
        for bad in [nan, inf, inverted, Aabb::EMPTY] {
            assert_eq!(
                bp.insert(bad, CollisionGroups::ALL),
                Err(BroadPhaseError::InvalidAabb)
            );
        }
        let good = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let id = bp.insert(good, CollisionGroups::ALL).unwrap();
        assert_eq!(bp.update(id, nan), Err(BroadPhaseError::InvalidAabb));
        assert_eq!(
            bp.aabb(id),
            Some(good),
            "a refused update keeps the old box"
        );
        assert_eq!(bp.update(7, good), Err(BroadPhaseError::UnknownProxy(7)));
        assert_eq!(bp.remove(7), Err(BroadPhaseError::UnknownProxy(7)));
        bp.query_aabb(&nan, &mut |_| panic!("a NaN box touched something"));
        let mut out = Vec::new();
        bp.update_pairs(&mut out);
        assert!(out.is_empty());
        bp.validate().unwrap();
    }
}

#[test]
fn touching_boxes_pair_and_huge_coordinates_work() {
    for mut bp in three() {
        // Two boxes sharing the face x = 1: touching counts.
        let a = bp
            .insert(Aabb::new(Vec3::ZERO, Vec3::ONE), CollisionGroups::ALL)
            .unwrap();
        let b = bp
            .insert(
                Aabb::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)),
                CollisionGroups::ALL,
            )
            .unwrap();
        // Far away at 1e30, two overlapping boxes of size 1e29, and one at -f32::MAX.
        let h = 1e30f32;
        let c = bp
            .insert(
                Aabb::new(Vec3::splat(h), Vec3::splat(h + 1e29)),
                CollisionGroups::ALL,
            )
            .unwrap();
        let d = bp
            .insert(
                Aabb::new(Vec3::splat(h + 5e28), Vec3::splat(h + 2e29)),
                CollisionGroups::ALL,
            )
            .unwrap();
        let e = bp
            .insert(
                Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(-f32::MAX / 2.0)),
                CollisionGroups::ALL,
            )
            .unwrap();
        let mut out = Vec::new();
        bp.update_pairs(&mut out);
        out.sort_unstable();
        assert_eq!(out, vec![(a, b), (c, d)]);
        bp.validate().unwrap();
        // Move b away by a hair, e across the whole range onto c and d.
        bp.update(
            b,
            Aabb::new(Vec3::new(1.0001, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)),
        )
        .unwrap();
        bp.update(e, Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX)))
            .unwrap();
        bp.update_pairs(&mut out);
        out.sort_unstable();
        assert_eq!(out, vec![(a, e), (b, e), (c, d), (c, e), (d, e)]);
        bp.validate().unwrap();
    }
}

#[test]
fn ids_are_reused_only_after_update_pairs() {
    for mut bp in three() {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let a0 = bp.insert(b, CollisionGroups::ALL).unwrap();
        let a1 = bp.insert(b, CollisionGroups::ALL).unwrap();
        bp.remove(a0).unwrap();
        let a2 = bp.insert(b, CollisionGroups::ALL).unwrap();
        assert_eq!((a0, a1, a2), (0, 1, 2));
        let mut out = Vec::new();
        bp.update_pairs(&mut out);
        out.sort_unstable();
        assert_eq!(out, vec![(1, 2)]);
        // Now 0 is free again; its new box overlaps nothing but the group filter matters.
        let a3 = bp.insert(b, CollisionGroups::new(1, 0)).unwrap();
        assert_eq!(a3, 0);
        bp.update_pairs(&mut out);
        out.sort_unstable();
        assert_eq!(
            out,
            vec![(1, 2)],
            "a proxy accepting no group pairs with nobody"
        );
        assert_eq!(bp.len(), 3);
        bp.validate().unwrap();
    }
}

/// Every structure against `BruteForce` with its pairs, its queries between edits and
/// `update_pairs`, and `validate()` after every frame.
fn check_against_brute(
    structures: &mut [Box<dyn BroadPhase>],
    frame: usize,
    query: &Aabb,
    ray: &Ray,
) {
    // Queries see the edits made so far (before `update_pairs`).
    let mut want_q = Vec::new();
    structures[0].query_aabb(query, &mut |id| {
        want_q.push(id);
        true
    });
    want_q.sort_unstable();
    let mut want_r = Vec::new();
    structures[0].ray_cast(ray, 1.0, &mut |id, t| {
        want_r.push((id, t));
        1.0
    });
    want_r.sort_by_key(|p| p.0);
    for (s, bp) in structures.iter().enumerate().skip(1) {
        let mut got = Vec::new();
        bp.query_aabb(query, &mut |id| {
            got.push(id);
            true
        });
        got.sort_unstable();
        assert_eq!(got, want_q, "frame {frame}, structure {s}: box query");
        let mut got_r = Vec::new();
        bp.ray_cast(ray, 1.0, &mut |id, t| {
            got_r.push((id, t));
            1.0
        });
        got_r.sort_by_key(|p| p.0);
        assert_eq!(got_r, want_r, "frame {frame}, structure {s}: ray cast");
    }
    let (mut want, mut got) = (Vec::new(), Vec::new());
    sorted_pairs(structures[0].as_mut(), &mut want);
    for (s, bp) in structures.iter_mut().enumerate().skip(1) {
        sorted_pairs(bp.as_mut(), &mut got);
        if let Err(e) = bp.validate() {
            panic!("frame {frame}, structure {s}: {e}");
        }
        assert_eq!(got, want, "frame {frame}, structure {s}: pairs");
    }
}

#[test]
fn regime_changes_with_heavy_churn_equal_brute_force() {
    // 600 boxes through phases of motion that drive the BVH through each of its paths: all
    // boxes jumping (full rebuilds, tight rebuilds, stale tree between edits), all drifting
    // (fat boxes kept, incremental pairs), a third jumping (mixed), and still frames. Every
    // frame ~5% of the boxes are removed and as many inserted (some ids reused), a few
    // updates are refused (NaN, inverted), and queries run before `update_pairs`.
    let n = 600;
    let mut gen = Gen::new(77);
    gen.extent = 6.0;
    let mut structures = three();
    let mut boxes: Vec<Option<Aabb>> = Vec::new();
    let mut ids: Vec<Vec<Option<ProxyId>>> = vec![Vec::new(); structures.len()];
    for i in 0..n {
        let b = Aabb::from_center_half_extents(gen.point(), gen.vec(0.6).abs() + Vec3::splat(0.05));
        boxes.push(Some(b));
        for (s, bp) in structures.iter_mut().enumerate() {
            ids[s].push(Some(bp.insert(b, groups_for(i)).unwrap()));
        }
    }
    let mut pairs_seen = 0usize;
    let mut out = Vec::new();
    for frame in 0..120 {
        let phase = (frame / 15) % 4;
        for i in 0..n {
            let Some(b) = boxes[i] else { continue };
            let step = match phase {
                0 => gen.unit() * gen.range(1.0, 4.0),  // all jump
                1 => gen.unit() * gen.range(0.0, 0.03), // all drift
                2 if i % 3 == 0 => gen.unit() * gen.range(1.0, 4.0),
                2 => Vec3::ZERO,
                _ => Vec3::ZERO, // still
            };
            // Steps that would leave the cube go the other way.
            let c = b.center() + step;
            let step = if c.abs().max_element() > gen.extent {
                -step
            } else {
                step
            };
            let moved = Aabb::new(b.min + step, b.max + step);
            boxes[i] = Some(moved);
            for (s, bp) in structures.iter_mut().enumerate() {
                if let Some(id) = ids[s][i] {
                    bp.update(id, moved).unwrap();
                }
            }
        }
        // Refused updates keep the old box.
        let victim = (frame * 37) % n;
        for (s, bp) in structures.iter_mut().enumerate() {
            if let Some(id) = ids[s][victim] {
                let bad = Aabb::new(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ONE);
                assert_eq!(bp.update(id, bad), Err(BroadPhaseError::InvalidAabb));
                let inverted = Aabb {
                    min: Vec3::ONE,
                    max: Vec3::ZERO,
                };
                assert_eq!(bp.update(id, inverted), Err(BroadPhaseError::InvalidAabb));
                assert_eq!(bp.aabb(id), boxes[victim]);
            }
        }
        // Churn: remove 30, insert 30 (a removed slot may be refilled the same frame).
        for _ in 0..30 {
            let i = (gen.range(0.0, n as f32) as usize).min(n - 1);
            if boxes[i].take().is_some() {
                for (s, bp) in structures.iter_mut().enumerate() {
                    let id = ids[s][i].take().unwrap();
                    bp.remove(id).unwrap();
                }
            }
        }
        for _ in 0..30 {
            let i = (gen.range(0.0, n as f32) as usize).min(n - 1);
            if boxes[i].is_none() {
                let b =
                    Aabb::from_center_half_extents(gen.point(), Vec3::splat(gen.range(0.05, 0.7)));
                boxes[i] = Some(b);
                for (s, bp) in structures.iter_mut().enumerate() {
                    ids[s][i] = Some(bp.insert(b, groups_for(i)).unwrap());
                }
            }
        }
        for s in 1..structures.len() {
            assert_eq!(ids[0], ids[s], "frame {frame}: ids diverged");
        }
        let q = Aabb::from_center_half_extents(gen.point(), gen.vec(4.0).abs());
        let ray = Ray::new(gen.point(), gen.unit() * 30.0);
        check_against_brute(&mut structures, frame, &q, &ray);
        structures[0].update_pairs(&mut out);
        pairs_seen += out.len();
    }
    assert!(
        pairs_seen > 120 * 50,
        "too few pairs ({pairs_seen}) to mean anything"
    );
}

#[test]
fn huge_coordinates_moving_equal_brute_force() {
    // 300 boxes spread over ±1e37 with sizes up to 1e36, a few spanning ±f32::MAX, moving by
    // up to 1e36 per frame (clamped to the finite range): the BVH's areas, Morton codes and
    // fat boxes must neither overflow into NaN nor lose pairs.
    let mut gen = Gen::new(78);
    let mut structures = three();
    let scale = 1e37f32;
    let mut boxes = Vec::new();
    for i in 0..300 {
        let c = Vec3::new(
            gen.range(-1.0, 1.0),
            gen.range(-1.0, 1.0),
            gen.range(-1.0, 1.0),
        ) * scale;
        let h = Vec3::new(
            gen.range(0.0, 0.1),
            gen.range(0.0, 0.1),
            gen.range(0.0, 0.1),
        ) * scale;
        let b = if i % 50 == 0 {
            Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX))
        } else {
            Aabb::new(c - h, c + h)
        };
        boxes.push(b);
        for bp in structures.iter_mut() {
            bp.insert(b, CollisionGroups::ALL).unwrap();
        }
    }
    let lim = Vec3::splat(f32::MAX);
    for frame in 0..30 {
        for (i, b) in boxes.iter_mut().enumerate() {
            if i % 50 == 0 {
                continue;
            }
            let d = gen.unit() * gen.range(0.0, 0.1) * scale;
            *b = Aabb::new((b.min + d).clamp(-lim, lim), (b.max + d).clamp(-lim, lim));
            for bp in structures.iter_mut() {
                bp.update(i as ProxyId, *b).unwrap();
            }
        }
        let q = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(0.3 * scale));
        let ray = Ray::new(Vec3::splat(-scale), Vec3::splat(2.0 * scale));
        check_against_brute(&mut structures, frame, &q, &ray);
    }
}

#[test]
fn small_motion_keeps_pairs_across_many_frames_with_few_moves() {
    // 1000 boxes drifting slowly for 200 frames: the BVH keeps most fat boxes (few proxies
    // move per frame) and its pairs stay equal to brute force's over many rebuild cycles.
    let mut scene = MovingScene::new(79, 1000, Motion::Small);
    let mut brute = BruteForce::new();
    let mut bvh = DynamicBvh::new();
    for b in &scene.boxes {
        brute.insert(*b, CollisionGroups::ALL).unwrap();
        bvh.insert(*b, CollisionGroups::ALL).unwrap();
    }
    let (mut want, mut got) = (Vec::new(), Vec::new());
    let mut moved = 0;
    for frame in 0..200 {
        scene.step();
        for (i, b) in scene.boxes.iter().enumerate() {
            brute.update(i as ProxyId, *b).unwrap();
            bvh.update(i as ProxyId, *b).unwrap();
        }
        sorted_pairs(&mut brute, &mut want);
        sorted_pairs(&mut bvh, &mut got);
        assert_eq!(got, want, "frame {frame}");
        if frame % 20 == 0 {
            bvh.validate().unwrap();
        }
        moved += bvh.last_moved();
        assert!(bvh.fat_pair_count() >= got.len());
    }
    // The fat boxes absorb most of the motion: on average well under a third of the
    // proxies get a new fat box per frame.
    assert!(moved < 200 * 1000 / 3, "{moved} moves in 200 frames");
}
