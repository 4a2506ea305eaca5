//! `cargo run --release -p collide-bench --bin compare_queries [-- --quick]`
//!
//! The scene-query rows (`collide_bench::query_cases`) at 1,000, 10,000 and 100,000 bodies,
//! timed like `compare`: every round runs each row's collide pass and parry3d pass back to
//! back, alternating which goes first; each row reports the median over rounds of ns per query.
//! `--quick`: 256 queries per row and 7 rounds; default: 1024 and 15. `--bodies N`: one scene
//! size only.

use collide_bench::{query_cases, timing};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if cfg!(debug_assertions) {
        eprintln!(
            "compare_queries: warning: debug build; run with --release for meaningful numbers"
        );
    }
    let (n, rounds) = if quick { (256, 7) } else { (1024, 15) };
    let loadavg_start = timing::loadavg();
    // `--bodies N`: one scene size only (for profiling).
    let args: Vec<String> = std::env::args().collect();
    let only: Option<usize> = args
        .iter()
        .position(|a| a == "--bodies")
        .and_then(|i| args.get(i + 1)?.parse().ok());
    let sizes: Vec<usize> = only.map_or(vec![1_000, 10_000, 100_000], |n| vec![n]);
    let mut rows = Vec::new();
    for bodies in sizes {
        let start = std::time::Instant::now();
        let mut table = query_cases::all(bodies, n);
        eprintln!(
            "compare_queries: {bodies} bodies, scenes built in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        rows.extend(timing::measure_showing_progress(&mut table, rounds));
    }
    println!(
        "{}\n",
        timing::header("scene queries", &loadavg_start, rounds, n)
    );
    print!("{}", timing::markdown(&rows));
    println!("\nparry3d calls:");
    for r in &rows {
        println!("- {}: {}", r.query, r.parry_call);
    }
}
