//! Splits a concave mesh into convex pieces and measures the result.
//!
//! `cargo run --release -p collide --example decompose -- [MESH] [MAX_CONCAVITY] [MAX_PIECES]`
//! (the bunny of `assets/meshes`, `0.05` and `64` when left out). Prints the number of
//! pieces, the concavity error of the result and the time taken.

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
    let start = Instant::now();
    let pieces = decompose(&mesh, &config)?;
    let took = start.elapsed();
    let error = concavity_error(&mesh, &pieces)?;
    println!(
        "{path}: {} triangles -> {} pieces, concavity error {error:.4} of the diagonal, {:.1} ms",
        mesh.triangles.len(),
        pieces.len(),
        took.as_secs_f64() * 1e3
    );
    Ok(())
}
