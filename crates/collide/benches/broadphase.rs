//! collide's broad phases alone: one frame (update every box + pair set) of SAP, BVH and brute
//! force, and BVH box and ray queries, on the testkit's moving scenes.

use collide::broadphase::{BroadPhase, BruteForce, CollisionGroups, DynamicBvh, SweepAndPrune};
use collide::shapes::{Aabb, Ray};
use collide_testkit::scene::{Motion, MovingScene};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn filled<B: BroadPhase>(mut bp: B, boxes: &[Aabb]) -> B {
    for b in boxes {
        bp.insert(*b, CollisionGroups::ALL).expect("finite box");
    }
    bp.update_pairs(&mut Vec::new());
    bp
}

fn frame<B: BroadPhase>(c: &mut Criterion, name: &str, n: usize, motion: Motion, make: fn() -> B) {
    let mut scene = MovingScene::new(5, n, motion);
    let mut bp = filled(make(), &scene.boxes);
    let mut out = Vec::new();
    c.bench_function(&format!("frame/{motion:?}/{name}/{n}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                scene.step();
                let t = Instant::now();
                for (i, a) in scene.boxes.iter().enumerate() {
                    bp.update(i as u32, *a).expect("live, finite");
                }
                bp.update_pairs(&mut out);
                total += t.elapsed();
            }
            total
        })
    });
}

fn frames(c: &mut Criterion) {
    for motion in [Motion::Small, Motion::Large, Motion::Clustered] {
        frame(c, "sap", 10_000, motion, SweepAndPrune::new);
        frame(c, "bvh", 10_000, motion, DynamicBvh::new);
    }
    frame(c, "brute", 1_000, Motion::Small, BruteForce::new);
    frame(c, "sap", 1_000, Motion::Small, SweepAndPrune::new);
    frame(c, "bvh", 1_000, Motion::Small, DynamicBvh::new);
}

fn queries(c: &mut Criterion) {
    let scene = MovingScene::new(6, 10_000, Motion::Clustered);
    let bvh = filled(DynamicBvh::new(), &scene.boxes);
    let mut gen = Gen::new(7);
    gen.extent = scene.extent;
    let boxes: Vec<Aabb> = (0..256)
        .map(|_| Aabb::from_center_half_extents(gen.point(), gen.vec(2.0)))
        .collect();
    let rays: Vec<Ray> = (0..256)
        .map(|_| Ray::new(gen.point(), gen.unit() * 20.0))
        .collect();
    let mut g = c.benchmark_group("bvh_query_10k");
    g.bench_with_input(BenchmarkId::new("aabb", 256), &boxes, |b, boxes| {
        b.iter(|| {
            let mut hits = 0usize;
            for q in boxes {
                bvh.query_aabb(q, &mut |_| {
                    hits += 1;
                    true
                });
            }
            black_box(hits)
        })
    });
    g.bench_with_input(BenchmarkId::new("ray_nearest", 256), &rays, |b, rays| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for r in rays {
                let mut best = 1.0f32;
                bvh.ray_cast(r, 1.0, &mut |_, t| {
                    best = best.min(t);
                    best
                });
                sum += best;
            }
            black_box(sum)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(2));
    targets = frames, queries
}
criterion_main!(benches);
