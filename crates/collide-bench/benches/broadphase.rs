//! collide's broad phases against parry3d's `Bvh` on the same moving scenes.
//!
//! `cargo bench -p collide-bench --bench broadphase` runs the criterion benchmarks (build,
//! one frame at 1k/10k/100k boxes). `BROADPHASE_TABLE=1 cargo bench -p collide-bench --bench
//! broadphase` prints instead the per-frame table: ms per frame (update every box + the exact
//! pair set) for each variant, motion and size, and the ratio of parry's best to collide's best.

#[path = "common/broadphase_frame.rs"]
mod frame;

use collide::shapes::Aabb;
use collide_testkit::scene::{Motion, MovingScene};
use criterion::{criterion_group, BenchmarkId, Criterion};
use frame::{ours_bvh, ours_sap, Frame, ParryFull, ParryIncremental};
use parry3d::partitioning::{Bvh, BvhBuildStrategy};
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn variants() -> Vec<Box<dyn Frame>> {
    vec![
        Box::new(ours_sap()),
        Box::new(ours_bvh()),
        Box::new(ParryFull::new()),
        Box::new(ParryIncremental::new(0.1)),
    ]
}

fn bench_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("broadphase_build");
    g.sample_size(10);
    for n in SIZES {
        let scene = MovingScene::new(1, n, Motion::Small);
        g.bench_with_input(
            BenchmarkId::new("collide SAP", n),
            &scene.boxes,
            |b, boxes| {
                b.iter(|| {
                    let mut v = ours_sap();
                    v.build(boxes);
                    v
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("collide BVH", n),
            &scene.boxes,
            |b, boxes| {
                b.iter(|| {
                    let mut v = ours_bvh();
                    v.build(boxes);
                    v
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("parry from_leaves", n),
            &scene.boxes,
            |b, boxes| {
                b.iter(|| {
                    let leaves: Vec<_> = boxes
                        .iter()
                        .map(|a: &Aabb| parry3d::bounding_volume::Aabb::new(a.min, a.max))
                        .collect();
                    Bvh::from_leaves(BvhBuildStrategy::default(), &leaves)
                })
            },
        );
    }
    g.finish();
}

fn bench_frame(c: &mut Criterion) {
    for motion in [Motion::Small, Motion::Large, Motion::Clustered] {
        let mut g = c.benchmark_group(format!("broadphase_frame_{motion:?}"));
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(3));
        for n in SIZES {
            for mut v in variants() {
                let mut scene = MovingScene::new(2, n, motion);
                v.build(&scene.boxes);
                let mut out = Vec::new();
                g.bench_function(BenchmarkId::new(v.name(), n), |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            scene.step();
                            let t = Instant::now();
                            v.frame(&scene.boxes, &mut out);
                            total += t.elapsed();
                        }
                        total
                    })
                });
            }
        }
        g.finish();
    }
}

/// Mean ms per frame over `frames` frames after `warm` untimed ones, and mean pairs.
fn time_frames(
    v: &mut dyn Frame,
    scene: &mut MovingScene,
    warm: usize,
    frames: usize,
) -> (f64, usize) {
    let mut out = Vec::new();
    for _ in 0..warm {
        scene.step();
        v.frame(&scene.boxes, &mut out);
    }
    let mut total = Duration::ZERO;
    let mut pairs = 0;
    for _ in 0..frames {
        scene.step();
        let t = Instant::now();
        v.frame(&scene.boxes, &mut out);
        total += t.elapsed();
        pairs += out.len();
    }
    (total.as_secs_f64() * 1e3 / frames as f64, pairs / frames)
}

fn table() {
    let frames: usize = std::env::var("BROADPHASE_FRAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    println!(
        "ms per frame (update all boxes + exact pair set), mean of {frames} frames after 5 warm-up"
    );
    println!(
        "| motion | n | pairs | collide SAP | collide BVH | parry full | parry incremental | parry best / collide best |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for motion in [Motion::Small, Motion::Large, Motion::Clustered] {
        for n in SIZES {
            let mut ms = Vec::new();
            let mut pairs = 0;
            for mut v in variants() {
                let mut scene = MovingScene::new(2, n, motion);
                v.build(&scene.boxes);
                let (t, p) = time_frames(v.as_mut(), &mut scene, 5, frames);
                ms.push(t);
                pairs = p;
            }
            let ours = ms[0].min(ms[1]);
            let parry = ms[2].min(ms[3]);
            println!(
                "| {motion:?} | {n} | {pairs} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2}x |",
                ms[0],
                ms[1],
                ms[2],
                ms[3],
                parry / ours
            );
        }
    }
}

criterion_group!(benches, bench_build, bench_frame);

fn main() {
    if std::env::var("BROADPHASE_TABLE").is_ok_and(|v| v == "1") {
        table();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
