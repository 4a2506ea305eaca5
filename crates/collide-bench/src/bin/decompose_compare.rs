//! `cargo run --release -p collide-bench --bin decompose_compare [-- OUT_DIR]`
//!
//! Convex decomposition on the repository's meshes: collide's `convex::decompose` beside
//! parry3d 0.31's V-HACD and CoACD (the PyPI `coacd` package, run by `scripts/coacd_run.py`),
//! every tool's pieces measured with the same metric, collide's `convex::concavity_error`.
//!
//! The run writes each input mesh (all parts merged) to `OUT_DIR/NAME.input.obj` (default
//! `OUT_DIR`: `target/decompose-compare`). CoACD runs outside Rust: after a first run,
//! `python scripts/coacd_run.py OUT_DIR` writes `NAME.coacd.obj` (one `o` group per piece)
//! and `NAME.coacd.json` (its time); a second run then reads them, measures them, and also
//! runs collide with CoACD's piece count as its budget (limit 0.05 as before), to compare at
//! no more pieces than CoACD's.
//!
//! Settings: collide at its defaults (`max_concavity` 0.05, CoACD's default threshold, 64
//! pieces at most); V-HACD at parry's defaults (resolution 64, concavity 0.01) with its
//! voxel hulls (`compute_convex_hulls(4)`, what parry's `convex_decomposition` uses); CoACD
//! at its defaults (threshold 0.05). Times are wall clock of one run each, on this machine.

use std::path::{Path, PathBuf};
use std::time::Instant;

use collide::convex::{concavity_error, decompose, ConvexHull, DecomposeConfig};
use collide::shapes::TriMesh;
use parry3d::transformation::vhacd::{VHACDParameters, VHACD};

/// The meshes of the table: file in `assets/meshes` and the name it is shown under.
const MESHES: [(&str, &str); 7] = [
    ("bunny.obj", "bunny"),
    ("torus.obj", "torus"),
    ("concave_box.obj", "concave_box"),
    ("racecar_chassis.stl", "racecar"),
    ("duck_vhacd.obj", "duck"),
    ("teddy2_VHACD_CHs.obj", "teddy"),
    ("lego_vhacd.obj", "lego"),
];

/// One tool's result on one mesh.
struct Row {
    pieces: usize,
    error: f32,
    seconds: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/decompose-compare"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&out)?;
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/meshes");
    println!(
        "| mesh | triangles | collide | collide at CoACD's count | CoACD | V-HACD (parry3d) |"
    );
    println!("|---|---|---|---|---|---|");
    for (file, name) in MESHES {
        let mesh = collide::io::load(assets.join(file))?.merged();
        std::fs::write(out.join(format!("{name}.input.obj")), mesh_obj(&mesh))?;
        let ours = run_collide(&mesh, &DecomposeConfig::default())?;
        let coacd = read_coacd(&out, name, &mesh)?;
        let ours_at_count = match &coacd {
            Some(c) => Some(run_collide(
                &mesh,
                &DecomposeConfig {
                    max_pieces: c.pieces,
                    ..DecomposeConfig::default()
                },
            )?),
            None => None,
        };
        let vhacd = run_vhacd(&mesh)?;
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            mesh.triangles.len(),
            cell(Some(&ours)),
            cell(ours_at_count.as_ref()),
            cell(coacd.as_ref()),
            cell(Some(&vhacd)),
        );
    }
    Ok(())
}

/// `pieces / error / time` for the table, or a dash.
fn cell(row: Option<&Row>) -> String {
    row.map_or("–".to_string(), |r| {
        format!("{} / {:.4} / {:.3} s", r.pieces, r.error, r.seconds)
    })
}

fn run_collide(
    mesh: &TriMesh,
    config: &DecomposeConfig,
) -> Result<Row, Box<dyn std::error::Error>> {
    let start = Instant::now();
    let pieces = decompose(mesh, config)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Row {
        pieces: pieces.len(),
        error: concavity_error(mesh, &pieces)?,
        seconds,
    })
}

fn run_vhacd(mesh: &TriMesh) -> Result<Row, Box<dyn std::error::Error>> {
    let params = VHACDParameters::default();
    let start = Instant::now();
    let decomposition = VHACD::decompose(&params, &mesh.vertices, &mesh.triangles, false);
    let hulls = decomposition.compute_convex_hulls(4);
    let seconds = start.elapsed().as_secs_f64();
    // Pieces as collide hulls (a flat or empty voxel hull is left out, and counted).
    let pieces: Vec<ConvexHull> = hulls
        .iter()
        .filter_map(|(points, _)| ConvexHull::try_new(points).ok())
        .collect();
    if pieces.len() < hulls.len() {
        eprintln!(
            "V-HACD: {} of {} hulls are not valid hulls, left out",
            hulls.len() - pieces.len(),
            hulls.len()
        );
    }
    Ok(Row {
        pieces: pieces.len(),
        error: concavity_error(mesh, &pieces)?,
        seconds,
    })
}

/// CoACD's pieces and time from `scripts/coacd_run.py`, when it has been run.
fn read_coacd(
    out: &Path,
    name: &str,
    mesh: &TriMesh,
) -> Result<Option<Row>, Box<dyn std::error::Error>> {
    let (obj, json) = (
        out.join(format!("{name}.coacd.obj")),
        out.join(format!("{name}.coacd.json")),
    );
    if !(obj.exists() && json.exists()) {
        return Ok(None);
    }
    let model = collide::io::load(&obj)?;
    let pieces: Vec<ConvexHull> = model
        .parts
        .iter()
        .filter_map(|p| ConvexHull::try_new(&p.mesh.vertices).ok())
        .collect();
    let timing: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json)?)?;
    let seconds = timing["seconds"].as_f64().unwrap_or(f64::NAN);
    Ok(Some(Row {
        pieces: pieces.len(),
        error: concavity_error(mesh, &pieces)?,
        seconds,
    }))
}

/// A mesh as OBJ text (`v` and `f` lines only).
fn mesh_obj(mesh: &TriMesh) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for v in &mesh.vertices {
        let _ = writeln!(s, "v {} {} {}", v.x, v.y, v.z);
    }
    for t in &mesh.triangles {
        let _ = writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s
}
