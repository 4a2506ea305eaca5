//! `cargo run --release -p collide-bench --bin compare [-- --quick]`
//!
//! Times every query collide and parry3d 0.31 share, on the same fixed inputs, in one run:
//! every round runs each row's collide pass and parry3d pass back to back (alternating which
//! goes first), and each row reports the median over rounds of ns per query. Prints a markdown
//! table and writes the same rows as JSON to `target/compare.json`. Ray and sweep rows also
//! time parry3d's direct per-shape path (a second parry3d column); their ratio is against the
//! faster parry3d column.
//!
//! A round visits every row before the next round repeats one. This matters: timing one row's
//! 4096 configurations over and over lets the branch predictor learn their outcomes, and a
//! data-dependent branch (a short-circuit `&&`, an early return) then looks up to 6x cheaper
//! than it is on fresh inputs; with the other rows in between it cannot.
//!
//! `--quick`: 2048 configurations per row and 15 rounds (seconds, well under a minute on 2
//! cores); default: 4096 configurations and 31 rounds. `--out PATH` writes the JSON elsewhere;
//! `--only TEXT` keeps the rows whose name contains `TEXT`.

use collide_bench::{cases, timing};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let out = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../target/compare.json"
            ))
        });
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let takes_value = |a: &str| a == "--out" || a == "--only";
    if let Some(bad) = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            *a != "--quick" && !takes_value(a) && !(*i > 0 && takes_value(&args[*i - 1]))
        })
        .map(|(_, a)| a)
    {
        eprintln!("compare: unknown argument `{bad}` (use --quick, --out PATH, --only TEXT)");
        return ExitCode::from(2);
    }
    if cfg!(debug_assertions) {
        eprintln!("compare: warning: debug build; run with --release for meaningful numbers");
    }
    let (n, rounds, batch_queries) = if quick {
        (2048, 15, 16)
    } else {
        (4096, 31, 32)
    };

    let loadavg_start = timing::loadavg();
    let start = std::time::Instant::now();
    let mut table = cases::all(n, batch_queries);
    if let Some(only) = &only {
        table.retain(|c| c.name.contains(only.as_str()));
    }
    eprintln!(
        "compare: {} rows, {n} configurations each, {rounds} rounds{}",
        table.len(),
        if quick { " (--quick)" } else { "" }
    );
    let rows = timing::measure_showing_progress(&mut table, rounds);
    let machine = timing::Machine {
        cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        cpu_model: timing::cpu_model(),
        loadavg_start,
        loadavg_end: timing::loadavg(),
    };

    println!(
        "collide vs parry3d 0.31 — {} ({} logical CPUs), load average {} → {}; \
         median of {rounds} interleaved rounds, {n} configurations per row, single thread.\n",
        machine.cpu_model, machine.cpus, machine.loadavg_start, machine.loadavg_end
    );
    print!("{}", timing::markdown(&rows));
    println!("\nparry3d calls:");
    for r in &rows {
        match &r.parry_direct_call {
            Some(d) => println!("- {}: {}; direct: {d}", r.query, r.parry_call),
            None => println!("- {}: {}", r.query, r.parry_call),
        }
    }
    if rows.iter().any(|r| r.query == "gjk_distance_cloud") {
        println!(
            "\nGJK distance on 64 of the cloud row's pairs against the exact distance (f64, \
             every vertex–face and edge–edge pair), |d − exact| / exact:\n"
        );
        println!("| library | largest | median |\n|---|---:|---:|");
        for (lib, largest, median) in collide_bench::gjk_cases::cloud_distance_errors(64) {
            println!("| {lib} | {largest:.1e} | {median:.1e} |");
        }
    }
    eprintln!("compare: {:.1} s", start.elapsed().as_secs_f64());

    let json = serde_json::json!({
        "machine": machine,
        "quick": quick,
        "rounds": rounds,
        "configurations": n,
        "rows": rows,
    });
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match serde_json::to_string_pretty(&json)
        .map_err(|e| e.to_string())
        .and_then(|s| std::fs::write(&out, s).map_err(|e| e.to_string()))
    {
        Ok(()) => {
            eprintln!("compare: wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("compare: cannot write {}: {e}", out.display());
            ExitCode::from(1)
        }
    }
}
