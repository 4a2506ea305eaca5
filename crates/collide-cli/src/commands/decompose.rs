//! `collide decompose MESH -o PIECES.obj [--concavity X] [--max-pieces N]`: a concave mesh
//! split into convex pieces, written as an OBJ with one `o` group per piece (what
//! `"convex": "pieces"` in a scene file and `collide hull --parts` read back).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use collide::convex::{concavity_error, decompose_with_progress, DecomposeConfig};
use collide::io;
use indicatif::{ProgressBar, ProgressStyle};

use super::hull::append_obj;
use crate::CliError;

/// Arguments of `collide decompose`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh file (OBJ, STL, glTF/GLB); all its parts are decomposed as one mesh.
    pub file: PathBuf,
    /// Write the pieces to this OBJ file, one `o` group per piece.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Largest distance from the mesh surface to the pieces, as a fraction of the bounding
    /// diagonal.
    #[arg(long, default_value_t = DecomposeConfig::default().max_concavity)]
    pub concavity: f32,
    /// The most pieces to make.
    #[arg(long, default_value_t = DecomposeConfig::default().max_pieces)]
    pub max_pieces: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `collide decompose`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let file = args.file.display().to_string();
    let model = io::load(&args.file).map_err(|e| CliError::new(e.to_string()))?;
    let mesh = model.merged();
    let config = DecomposeConfig {
        max_concavity: args.concavity,
        max_pieces: args.max_pieces,
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(config.max_pieces as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} pieces, {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let pieces = decompose_with_progress(&mesh, &config, &mut |p| {
        bar.set_position(p.pieces as u64);
        if !p.done {
            bar.set_message(format!("worst concavity {:.4}", p.worst_concavity));
        }
    })
    .map_err(|e| CliError::new(format!("{file}: {e}")))?;
    let took = start.elapsed();
    bar.finish_and_clear();
    let error =
        concavity_error(&mesh, &pieces).map_err(|e| CliError::new(format!("{file}: {e}")))?;
    let mut obj = format!(
        "# {} convex pieces of {file} written by `collide decompose`\n",
        pieces.len()
    );
    let mut offset = 0;
    for (i, h) in pieces.iter().enumerate() {
        append_obj(&mut obj, &format!("piece{i}"), h, offset);
        offset += h.vertices().len();
    }
    std::fs::write(&args.output, obj)
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", args.output.display())))?;
    let mut report = String::new();
    let _ = writeln!(
        report,
        "{file}: {} vertices, {} triangles -> {} convex pieces in {:.1} ms",
        mesh.vertices.len(),
        mesh.triangles.len(),
        pieces.len(),
        took.as_secs_f64() * 1e3
    );
    let _ = writeln!(
        report,
        "concavity error {error:.4} of the bounding diagonal (limit {})",
        config.max_concavity
    );
    let _ = writeln!(report, "wrote {}", args.output.display());
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    Ok(ExitCode::SUCCESS)
}
