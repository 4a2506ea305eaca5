//! `cargo run --release -p collide-bench --bin compare_mesh [-- --quick]`
//!
//! The level rows (triangle meshes and heightfields, `collide_bench::mesh_cases`) timed like
//! `compare`: every round runs each row's collide pass and parry3d pass back to back,
//! alternating which goes first; each row reports the median over rounds of ns per query.
//! `--quick`: 512 queries per row and 9 rounds; default: 2048 and 21.

use collide_bench::{mesh_cases, timing};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if cfg!(debug_assertions) {
        eprintln!("compare_mesh: warning: debug build; run with --release for meaningful numbers");
    }
    let (n, rounds) = if quick { (512, 9) } else { (2048, 21) };
    let loadavg_start = timing::loadavg();
    let start = std::time::Instant::now();
    let mut table = mesh_cases::all(n);
    eprintln!(
        "compare_mesh: {} rows built in {:.1} s",
        table.len(),
        start.elapsed().as_secs_f64()
    );
    let rows = timing::measure_showing_progress(&mut table, rounds);
    println!(
        "{}\n",
        timing::header("level rows", &loadavg_start, rounds, n)
    );
    print!("{}", timing::markdown(&rows));
    println!("\nparry3d calls:");
    for r in &rows {
        println!("- {}: {}", r.query, r.parry_call);
    }
    let cases = if quick { 3000 } else { 30_000 };
    println!(
        "\nGhost normals: boxes, spheres, capsules 1 cm deep at {cases} random poses on a 40 x 40 \
         floor (mesh: random diagonals):\n"
    );
    println!("| surface | contacts | more than 1° off the face normal | shapes with no contact |");
    println!("|---|---|---|---|");
    for (name, c) in mesh_cases::ghost_counts(cases) {
        println!("| {name} | {} | {} | {} |", c.contacts, c.ghosts, c.missed);
    }
    println!("\nWorld::step with fixed floor tiles (median of 60 frames, 1,000 moving bodies):\n");
    println!("| fixed tiles | ms per frame | broad-phase pairs |");
    println!("|---|---|---|");
    for fixed in [0, 1_000, 10_000, 100_000] {
        let (ms, pairs) = mesh_cases::world_frame_ms(fixed, 1_000, 60);
        println!("| {fixed} | {ms:.3} | {pairs} |");
    }
}
