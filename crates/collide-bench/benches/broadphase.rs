//! collide's broad phases against parry3d's `Bvh` on the same moving scenes.
//!
//! `cargo bench -p collide-bench --bench broadphase` runs the criterion benchmarks (build:
//! every box inserted and the first pair set found, on both sides; one frame at 1k/10k/100k
//! boxes). `BROADPHASE_TABLE=1 cargo bench -p collide-bench --bench
//! broadphase` prints instead the per-frame table: ms per frame (update every box + the exact
//! pair set) for each variant, motion and size, and the ratio of parry's best to collide's best.
//! Single-threaded on both sides; CPU time of the timing thread (wall time in brackets).
//! `BROADPHASE_SIZES=100000`, `BROADPHASE_MOTIONS=Small,Clustered` and
//! `BROADPHASE_SKIP=SAP` restrict the table (a skipped variant shows `inf`).

#[path = "common/broadphase_frame.rs"]
mod frame;

use collide::shapes::Aabb;
use collide_testkit::scene::{Motion, MovingScene};
use criterion::{criterion_group, BenchmarkId, Criterion};
use frame::{ours_bvh, ours_sap, Frame, ParryFull, ParryIncremental};
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
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
        // Like for like with collide's rows, which insert every box and find the pairs: the
        // tree from the leaves, then one traversal of it against itself.
        g.bench_with_input(
            BenchmarkId::new("parry from_leaves + pairs", n),
            &scene.boxes,
            |b, boxes| {
                b.iter(|| {
                    let leaves: Vec<_> = boxes
                        .iter()
                        .map(|a: &Aabb| parry3d::bounding_volume::Aabb::new(a.min, a.max))
                        .collect();
                    let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &leaves);
                    let mut ws = BvhWorkspace::default();
                    let mut pairs = Vec::new();
                    bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| {
                        let (x, y) = (&boxes[a as usize], &boxes[b as usize]);
                        if x.min.cmple(y.max).all() && y.min.cmple(x.max).all() {
                            pairs.push((a.min(b), a.max(b)));
                        }
                    });
                    pairs
                })
            },
        );
    }
    g.finish();
}

fn bench_frame(c: &mut Criterion) {
    for motion in [
        Motion::Small,
        Motion::Large,
        Motion::Clustered,
        Motion::Teleport,
    ] {
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

/// CPU time of this thread in seconds, so that other processes on a loaded machine do not
/// count: the nanosecond run time of `/proc/thread-self/schedstat` (first field), else
/// `utime + stime` from `/proc/thread-self/stat` (10 ms ticks); `None` off Linux.
fn thread_cpu_seconds() -> Option<f64> {
    if let Ok(s) = std::fs::read_to_string("/proc/thread-self/schedstat") {
        if let Some(ns) = s
            .split_whitespace()
            .next()
            .and_then(|x| x.parse::<f64>().ok())
        {
            return Some(ns * 1e-9);
        }
    }
    let s = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Per-frame cost of `v` over precomputed frames: (CPU ms per frame, wall ms per frame, mean
/// pairs). The frames' boxes are computed beforehand so only the broad phase is timed.
fn time_frames(v: &mut dyn Frame, frames: &[Vec<Aabb>]) -> (f64, f64, usize) {
    let mut out = Vec::new();
    let warm = 3.min(frames.len());
    for f in &frames[..warm] {
        v.frame(f, &mut out);
    }
    let timed = &frames[warm..];
    let mut pairs = 0;
    let c0 = thread_cpu_seconds();
    let t0 = Instant::now();
    for f in timed {
        v.frame(f, &mut out);
        pairs += out.len();
    }
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    let k = timed.len().max(1) as f64;
    (cpu * 1e3 / k, wall * 1e3 / k, pairs / timed.len().max(1))
}

fn table() {
    let sizes: Vec<usize> = std::env::var("BROADPHASE_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| SIZES.to_vec());
    // Variants to leave out, by part of their name (`BROADPHASE_SKIP=SAP,incremental`).
    let skip: Vec<String> = std::env::var("BROADPHASE_SKIP")
        .map(|s| s.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    println!("CPU ms per frame (update all boxes + exact pair set); wall ms in brackets");
    println!(
        "| motion | n | frames | pairs | collide SAP | collide BVH | parry full | parry incremental | parry best / collide best (CPU) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    // Motions to run, by name (`BROADPHASE_MOTIONS=Small,Large`); all by default.
    let motions: Vec<Motion> = [
        Motion::Small,
        Motion::Clustered,
        Motion::Large,
        Motion::Teleport,
    ]
    .into_iter()
    .filter(|m| {
        std::env::var("BROADPHASE_MOTIONS")
            .map_or(true, |s| s.split(',').any(|x| x == format!("{m:?}")))
    })
    .collect();
    for motion in motions {
        for &n in &sizes {
            // About 2e6 box-frames per run: 2000 frames at 1k, 200 at 10k, 23 at 100k.
            let count = (2_000_000 / n).clamp(23, 2000);
            let mut scene = MovingScene::new(2, n, motion);
            let first = scene.boxes.clone();
            let frames: Vec<Vec<Aabb>> = (0..count)
                .map(|_| {
                    scene.step();
                    scene.boxes.clone()
                })
                .collect();
            let mut cpu = Vec::new();
            let mut wall = Vec::new();
            let mut pairs = 0;
            for mut v in variants() {
                if skip
                    .iter()
                    .any(|k| !k.is_empty() && v.name().contains(k.as_str()))
                {
                    cpu.push(f64::INFINITY);
                    wall.push(f64::INFINITY);
                    continue;
                }
                v.build(&first);
                let (c, w, p) = time_frames(v.as_mut(), &frames);
                cpu.push(c);
                wall.push(w);
                pairs = p;
            }
            let ours = cpu[0].min(cpu[1]);
            let parry = cpu[2].min(cpu[3]);
            println!(
                "| {motion:?} | {n} | {} | {pairs} | {:.3} [{:.3}] | {:.3} [{:.3}] | {:.3} [{:.3}] | {:.3} [{:.3}] | {:.2}x |",
                count - 3,
                cpu[0], wall[0], cpu[1], wall[1], cpu[2], wall[2], cpu[3], wall[3],
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
