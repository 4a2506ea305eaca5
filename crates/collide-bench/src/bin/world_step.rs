//! `cargo run --release -p collide-bench --bin world_step [-- --quick]`
//!
//! `World::step` on scenes of 1,000, 10,000 and 100,000 moving bodies (spheres, boxes and
//! capsules at the demo's density, turned back at the walls of their cube), on a pool of
//! one thread and on a pool of two. Each row: the median over frames of the frame time, per
//! body, and the share of each stage (`FrameStats`). collide only: parry3d has no world.
//! `--quick`: 20 frames per row (100k: 6); default: 60 (100k: 20).

use collide::world::{BodyDesc, BodyId, Geometry, World, WorldConfig};
use collide::Vec3;
use collide_bench::timing;
use collide_testkit::Gen;

/// A world of `n` moving bodies in a cube of `10 n` m³ (the demo's density: one body of
/// size 0.2 to 0.6 m per 10 m³): the world, each body's id and velocity, and the cube's half
/// side.
fn scene(n: usize) -> (World, Vec<(BodyId, Vec3)>, f32) {
    let half = 0.5 * (10.0 * n as f32).cbrt();
    let mut g = Gen::new(17);
    let mut world = World::new(WorldConfig::default());
    let ids = (0..n)
        .map(|k| {
            let geometry = match k % 3 {
                0 => Geometry::Sphere(g.range(0.2, 0.6)),
                1 => Geometry::Cuboid(Vec3::new(
                    g.range(0.2, 0.6),
                    g.range(0.2, 0.6),
                    g.range(0.2, 0.6),
                )),
                _ => Geometry::Capsule {
                    half_height: g.range(0.1, 0.5),
                    radius: g.range(0.1, 0.4),
                },
            };
            let at = Vec3::new(
                g.range(-half, half),
                g.range(-half, half),
                g.range(-half, half),
            );
            let v = g.vec(3.0);
            let desc = BodyDesc::new(geometry).at(at).moving(v);
            (world.add_body(desc).expect("valid body"), v)
        })
        .collect();
    (world, ids, half)
}

/// Bodies past a wall get a velocity back into the cube (outside the timed step).
fn turn_back(world: &mut World, bodies: &mut [(BodyId, Vec3)], half: f32) {
    for (id, v) in bodies {
        let (p, _) = world.pose(*id).expect("live body");
        if p.abs().max_element() > half {
            *v = Vec3::select(p.abs().cmpgt(Vec3::splat(half)), -p.signum() * v.abs(), *v);
            world.set_velocity(*id, *v, Vec3::ZERO).expect("finite");
        }
    }
}

/// One row: median frame time in ms and the mean share of each stage.
struct Row {
    median_ms: f64,
    stages: [f64; 4],
    pairs: usize,
    contacts: usize,
}

fn measure(n: usize, frames: usize) -> Row {
    let (mut world, mut bodies, half) = scene(n);
    world.step(1.0 / 60.0);
    let mut times = Vec::with_capacity(frames);
    let mut stages = [0.0; 4];
    let (mut pairs, mut contacts) = (0, 0);
    for _ in 0..frames {
        turn_back(&mut world, &mut bodies, half);
        let t = std::time::Instant::now();
        world.step(1.0 / 60.0);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        let s = world.stats();
        let parts = [s.time_bounds, s.time_broad, s.time_narrow, s.time_events];
        let total: f64 = parts.iter().map(|d| d.as_secs_f64()).sum();
        for (acc, d) in stages.iter_mut().zip(parts) {
            *acc += d.as_secs_f64() / total.max(1e-12) / frames as f64;
        }
        (pairs, contacts) = (s.broad_pairs, s.contacts);
    }
    times.sort_by(f64::total_cmp);
    Row {
        median_ms: times[times.len() / 2],
        stages,
        pairs,
        contacts,
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if cfg!(debug_assertions) {
        eprintln!("world_step: warning: debug build; run with --release for meaningful numbers");
    }
    let loadavg = timing::loadavg();
    println!("World::step, moving bodies only (load average at start: {loadavg})\n");
    println!(
        "| bodies | threads | ms per frame | ns per body | bounds / broad / narrow / events | pairs | contacts |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in [1_000, 10_000, 100_000] {
        let frames = match (quick, n >= 100_000) {
            (true, true) => 6,
            (true, false) => 20,
            (false, true) => 20,
            (false, false) => 60,
        };
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            let r = pool.install(|| measure(n, frames));
            let [b, p, w, e] = r.stages.map(|s| s * 100.0);
            println!(
                "| {n} | {threads} | {:.3} | {:.0} | {b:.0} % / {p:.0} % / {w:.0} % / {e:.0} % | {} | {} |",
                r.median_ms,
                r.median_ms * 1e6 / n as f64,
                r.pairs,
                r.contacts
            );
        }
    }
}
