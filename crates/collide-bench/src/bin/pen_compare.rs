//! `cargo run --release -p collide-bench --bin pen_compare [-- --quick]`
//!
//! Penetrating convex hull pairs (`collide_bench::pen_cases`) timed like `compare`: every
//! round runs each row's collide pass and parry3d pass back to back, alternating which goes
//! first; each row reports the median over rounds of ns per query. `--quick`: 128 poses per
//! hull pair and 9 rounds; default: 512 and 21.

use collide_bench::{pen_cases, timing};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if cfg!(debug_assertions) {
        eprintln!("pen_compare: warning: debug build; run with --release for meaningful numbers");
    }
    let (n, rounds) = if quick { (128, 9) } else { (512, 21) };
    let loadavg_start = timing::loadavg();
    let start = std::time::Instant::now();
    let (mut table, sizes) = pen_cases::all(n);
    eprintln!(
        "pen_compare: {} rows built in {:.1} s",
        table.len(),
        start.elapsed().as_secs_f64()
    );
    let rows = timing::measure_showing_progress(&mut table, rounds);
    println!(
        "{}\n",
        timing::header("penetrating hull pairs", &loadavg_start, rounds, n)
    );
    print!("{}", timing::markdown(&rows));
    println!("\nHulls (radius 1): {}.", sizes.join("; "));
    println!("\nparry3d calls:");
    for r in &rows {
        println!("- {}: {}", r.query, r.parry_call);
    }
}
