//! Splits a concave mesh into convex pieces and measures the result.
//!
//! `cargo run --release -p collide --example decompose -- [MESH] [MAX_CONCAVITY] [MAX_PIECES]`
//! (the bunny of `assets/meshes`, `0.05` and `64` when left out). Prints the number of
//! pieces, the concavity error of the result and the time taken (wall clock, and on Linux the
//! CPU time of all threads, which a machine busy with other work inflates less).

use std::time::Instant;

use collide::convex::{concavity_error, decompose, DecomposeConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/bunny.obj").to_string()
    });
    let defaults = DecomposeConfig::default();
    let config = DecomposeConfig {
        max_concavity: args
            .next()
            .map_or(Ok(defaults.max_concavity), |s| s.parse())?,
        max_pieces: args.next().map_or(Ok(defaults.max_pieces), |s| s.parse())?,
    };
    // A model of several parts (an OBJ with `o` groups) is decomposed as one mesh.
    let mesh = collide::io::load(&path)?.merged();
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let pieces = decompose(&mesh, &config)?;
    let (took, cpu) = (start.elapsed(), cpu_seconds() - cpu_start);
    let error = concavity_error(&mesh, &pieces)?;
    println!(
        "{path}: {} triangles -> {} pieces, concavity error {error:.4} of the diagonal, {:.1} ms ({cpu:.2} s CPU)",
        mesh.triangles.len(),
        pieces.len(),
        took.as_secs_f64() * 1e3
    );
    Ok(())
}

/// User and system CPU seconds of this process so far, from `/proc/self/stat` (fields 14 and
/// 15, in clock ticks of 1/100 s); `NaN` where that file is missing.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let ticks: f64 = after_name
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}
