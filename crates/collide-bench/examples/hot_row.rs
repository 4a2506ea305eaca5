//! Runs one `compare` row's passes in a loop for a profiler: `hot_row ROW SIDE SECONDS`, with
//! SIDE `collide`, `parry` or `direct`, from `compare` or (rows named `mesh_…` and
//! `heightfield_…`) `compare_mesh`, or (rows named `cast_…` and `overlap_…`, with the body count:
//! `"cast_ray 1000"`) `compare_queries`.
//! Prints the mean time per query.
use collide_bench::{cases, mesh_cases, query_cases};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args.get(1).map_or("ray_sphere", String::as_str);
    let side = args.get(2).map_or("collide", String::as_str);
    let secs: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let bodies = row.rsplit(' ').next().and_then(|n| n.parse().ok());
    let mut all = if let Some(bodies) = bodies {
        query_cases::all(bodies, 1024)
    } else if row.starts_with("mesh_") && !row.contains("terrain") {
        mesh_cases::bunny_cases(512)
    } else if row.starts_with("mesh_") || row.starts_with("heightfield") {
        mesh_cases::all(512)
    } else {
        cases::all(2048, 64)
    };
    let Some(case) = all.iter_mut().find(|c| c.name == row) else {
        eprintln!("hot_row: no row {row}");
        std::process::exit(2);
    };
    let start = Instant::now();
    let (mut passes, mut hits) = (0u64, 0usize);
    while start.elapsed().as_secs_f64() < secs {
        hits += match side {
            "parry" => (case.parry)(),
            "direct" => (case.direct.as_mut().expect("no direct path").pass)(),
            _ => (case.collide)(),
        };
        passes += 1;
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / (passes as f64 * case.n as f64);
    println!("{row} {side}: {ns:.2} ns per query ({hits} hits)");
}
