//! Per-stage statistics of `DynamicBvh` on the benchmark's moving scenes: CPU ms per frame in
//! the `update` calls and in `update_pairs`, proxies moved, rebuilds, fat and reported pairs.
//!
//! `cargo run --release -p collide --example bvh_stats -- [n] [margin] [Small|Clustered|Large]`
//! (defaults: 100000, 0.1, all three); `PERFRAME=1` prints every frame.

use collide::broadphase::{BroadPhase, CollisionGroups, DynamicBvh};
use collide_testkit::scene::{Motion, MovingScene};
use std::time::Instant;

/// CPU nanoseconds of this thread (`/proc/thread-self/schedstat`), or wall nanoseconds since
/// `start` where that file is missing.
fn cpu_ns(start: Instant) -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| start.elapsed().as_nanos() as u64)
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let margin: f32 = arg(2).and_then(|s| s.parse().ok()).unwrap_or(0.1);
    let which = arg(3).unwrap_or_default();
    let per_frame = std::env::var("PERFRAME").is_ok();
    let start = Instant::now();
    for motion in [Motion::Small, Motion::Clustered, Motion::Large] {
        if !which.is_empty() && format!("{motion:?}") != which {
            continue;
        }
        let mut scene = MovingScene::new(2, n, motion);
        let mut bp = DynamicBvh::with_margin(margin);
        for b in &scene.boxes {
            bp.insert(*b, CollisionGroups::ALL)
                .expect("finite scene box");
        }
        let mut out = Vec::new();
        bp.update_pairs(&mut out);
        let (mut t_update, mut t_pairs, mut moved, mut rebuilds, mut fat) = (0, 0, 0, 0, 0);
        let frames = 40;
        for _ in 0..frames {
            scene.step();
            let t0 = cpu_ns(start);
            for (i, b) in scene.boxes.iter().enumerate() {
                bp.update(i as u32, *b).expect("live proxy, finite box");
            }
            let t1 = cpu_ns(start);
            bp.update_pairs(&mut out);
            let t2 = cpu_ns(start);
            t_update += t1 - t0;
            t_pairs += t2 - t1;
            moved += bp.last_moved();
            rebuilds += usize::from(bp.last_rebuilt());
            fat += bp.fat_pair_count();
            if per_frame {
                println!(
                    "  moved {} rebuilt {} fat {} pairs {} update_pairs {:.2} ms",
                    bp.last_moved(),
                    bp.last_rebuilt(),
                    bp.fat_pair_count(),
                    out.len(),
                    (t2 - t1) as f64 * 1e-6
                );
            }
        }
        let f = frames as f64;
        println!(
            "{motion:?}: update {:.2} ms, update_pairs {:.2} ms, moved {}, rebuilds {rebuilds}/{frames}, \
             fat pairs {}, pairs {}, height {}, area ratio {:.1}",
            t_update as f64 * 1e-6 / f,
            t_pairs as f64 * 1e-6 / f,
            moved / frames,
            fat / frames,
            out.len(),
            bp.height(),
            bp.area_ratio()
        );
    }
}
