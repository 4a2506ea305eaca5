//! `collide hull FILE [-o OUT] [--parts]`: the convex hull of a mesh file, its statistics, and
//! optionally the hull written as OBJ.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use collide::convex::ConvexHull;
use collide::io;

use crate::CliError;

/// Arguments of `collide hull`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh file (OBJ, STL, glTF/GLB).
    pub file: PathBuf,
    /// Write the hull to this OBJ file (with `--parts`: one `o` group per part's hull).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Also build one hull per part (OBJ `o`/`g` groups: the convex pieces of a decomposition).
    #[arg(long)]
    pub parts: bool,
}

/// One line of statistics about a hull.
fn describe(h: &ConvexHull) -> String {
    let mut by_size = [0usize; 3];
    for f in h.faces() {
        by_size[(f.count as usize).clamp(3, 5) - 3] += 1;
    }
    let valid = match h.validate() {
        Ok(()) => "valid".to_string(),
        Err(e) => format!("INVALID: {e}"),
    };
    format!(
        "{} vertices, {} faces ({} triangles, {} quads, {} larger), {} edges, volume {:.6e}, \
         tolerance {:.1e}, {valid} (V - E + F = {})",
        h.vertices().len(),
        h.faces().len(),
        by_size[0],
        by_size[1],
        by_size[2],
        h.edges().len(),
        h.volume(),
        h.tolerance(),
        h.vertices().len() as i64 - h.edges().len() as i64 + h.faces().len() as i64,
    )
}

/// Appends a hull as an OBJ `o` group whose vertex indices start after `offset` vertices.
pub(crate) fn append_obj(out: &mut String, name: &str, h: &ConvexHull, offset: usize) {
    let _ = writeln!(out, "o {name}");
    for v in h.vertices() {
        let _ = writeln!(out, "v {} {} {}", v.x, v.y, v.z);
    }
    for f in 0..h.faces().len() {
        out.push('f');
        for &i in h.face_vertices(f) {
            let _ = write!(out, " {}", i as usize + 1 + offset);
        }
        out.push('\n');
    }
}

/// Runs `collide hull`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let file = args.file.display().to_string();
    let model = io::load(&args.file).map_err(|e| CliError::new(e.to_string()))?;
    let merged = model.merged();
    // The report is written at the end in one go; a closed stdout (`| head`) is not an error.
    let mut report = String::new();
    let _ = writeln!(
        report,
        "{file}: {} vertices, {} triangles, {} part{}",
        merged.vertices.len(),
        merged.triangles.len(),
        model.parts.len(),
        if model.parts.len() == 1 { "" } else { "s" }
    );
    let start = Instant::now();
    let hull = ConvexHull::try_new(&merged.vertices)
        .map_err(|e| CliError::new(format!("{file}: no hull: {e}")))?;
    let took = start.elapsed();
    let _ = writeln!(report, "hull: {}", describe(&hull));
    let _ = writeln!(report, "built in {:.3} ms", took.as_secs_f64() * 1e3);
    let mut obj = String::from("# convex hull written by `collide hull`\n");
    if args.parts {
        let mut offset = 0;
        for (i, part) in model.parts.iter().enumerate() {
            match ConvexHull::try_new(&part.mesh.vertices) {
                Ok(h) => {
                    let _ = writeln!(report, "part {i} {}: {}", part.name, describe(&h));
                    append_obj(&mut obj, &part.name, &h, offset);
                    offset += h.vertices().len();
                }
                Err(e) => {
                    let _ = writeln!(report, "part {i} {}: no hull: {e}", part.name);
                }
            }
        }
    } else {
        append_obj(&mut obj, "hull", &hull, 0);
    }
    if let Some(out) = &args.output {
        std::fs::write(out, obj)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", out.display())))?;
        let _ = writeln!(report, "wrote {}", out.display());
    }
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    Ok(ExitCode::SUCCESS)
}
