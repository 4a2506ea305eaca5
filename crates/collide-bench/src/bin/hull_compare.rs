//! `cargo run --release -p collide-bench --bin hull_compare [-- --quick]`
//!
//! Hull construction, collide's `ConvexHull::try_new` against parry3d 0.31's
//! `transformation::convex_hull`, on the same fixed point sets in one run: 64, 1,000 and
//! 100,000 points uniform in the unit ball and on the unit sphere (seeded `Gen`, the
//! `quickhull` bench's distribution for the ball).
//!
//! Each round builds every row's hull once per library (alternating which goes first, so a
//! burst of load on a shared machine lands on both columns alike), repeating small rows until
//! a round of the row takes at least 20 ms; each row reports the median over rounds of the time
//! per hull. `--quick`: 3 rounds (default 7); 100,000-point rows run one round either way.

use collide::convex::ConvexHull;
use collide::Vec3;
use collide_testkit::Gen;
use std::hint::black_box;
use std::time::Instant;

/// `n` points uniform in the unit ball (`seed`), or on the unit sphere.
fn cloud(n: usize, sphere: bool, seed: u64) -> Vec<Vec3> {
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| {
            let u = g.unit();
            if sphere {
                u
            } else {
                u * g.range(0.0, 1.0).cbrt()
            }
        })
        .collect()
}

/// Seconds per call of `f`, repeating it until one timing covers at least 20 ms.
fn per_call(mut f: impl FnMut() -> usize) -> f64 {
    let mut reps = 1usize;
    loop {
        let start = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        let t = start.elapsed().as_secs_f64();
        if t >= 0.02 || reps >= 1 << 20 {
            return t / reps as f64;
        }
        reps *= 4;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if cfg!(debug_assertions) {
        eprintln!("hull_compare: warning: debug build; run with --release");
    }
    println!("| points | collide | parry3d | parry / collide | collide faces | parry triangles |");
    println!("|---|---:|---:|---:|---:|---:|");
    for sphere in [false, true] {
        for n in [64usize, 1_000, 100_000] {
            let pts = cloud(n, sphere, 61);
            let rounds = if n >= 100_000 {
                1
            } else if quick {
                3
            } else {
                7
            };
            let faces = ConvexHull::try_new(&pts).map_or(0, |h| h.faces().len());
            let tris = parry3d::transformation::convex_hull(&pts).1.len();
            let (mut c, mut p) = (Vec::new(), Vec::new());
            for r in 0..rounds {
                let collide = || ConvexHull::try_new(&pts).map_or(0, |h| h.faces().len());
                let parry = || parry3d::transformation::convex_hull(&pts).1.len();
                if r % 2 == 0 {
                    c.push(per_call(collide));
                    p.push(per_call(parry));
                } else {
                    p.push(per_call(parry));
                    c.push(per_call(collide));
                }
            }
            let (c, p) = (median(c), median(p));
            let fmt = |s: f64| {
                if s >= 0.1 {
                    format!("{s:.2} s")
                } else if s >= 1e-4 {
                    format!("{:.3} ms", s * 1e3)
                } else {
                    format!("{:.1} µs", s * 1e6)
                }
            };
            println!(
                "| {n} {} | {} | {} | {:.2}x | {faces} | {tris} |",
                if sphere { "on a sphere" } else { "in a ball" },
                fmt(c),
                fmt(p),
                p / c
            );
        }
    }
}
