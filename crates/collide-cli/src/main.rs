//! The `collide` program: shows the collide library working on real meshes.
//!
//! Each subcommand lives in its own module under `commands/`; this file only parses the
//! command line and turns errors into one clear line and exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod arena;
mod commands;
mod error;
mod raster;
mod scene;
mod tess;
mod walk;

pub use error::CliError;

/// collide: collision detection for games, shown on real meshes.
#[derive(Parser, Debug)]
#[command(name = "collide", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a built-in scene through the library and summarise what collided.
    Demo(commands::demo::Args),
    /// Print bounding volumes (AABB, OBB, spheres) of a mesh file, per part and whole.
    Bounds(commands::bounds::Args),
    /// Build the convex hull of a mesh file, print its statistics, optionally write it.
    Hull(commands::hull::Args),
    /// Split a concave mesh into convex pieces and write them as an OBJ (one `o` group each).
    Decompose(commands::decompose::Args),
    /// Check a scene file: every colliding pair (exit 1) or none (exit 0); 2 on bad input.
    Check(commands::check::Args),
    /// Draw a scene with its bounding volumes and collisions to a PNG.
    Render(commands::render::Args),
    /// Serve an interactive 3-D viewer of a scene on 127.0.0.1.
    View(commands::view::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Demo(args) => commands::demo::run(args),
        Command::Bounds(args) => commands::bounds::run(args),
        Command::Hull(args) => commands::hull::run(args),
        Command::Decompose(args) => commands::decompose::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::Render(args) => commands::render::run(args),
        Command::View(args) => commands::view::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("collide: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go out as clap prints them; a usage error is one line (what was wrong and
/// where to look), exit code 2, like every other error of the program.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        // clap writes help to stdout and exits 0 (2 for help shown because a command is missing).
        e.exit();
    }
    // clap's message is the lines before its "Usage:" block; fold them into one.
    let text = e.render().to_string();
    let message = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.trim_start_matches("error: ");
    eprintln!("collide: error: {message} (see `collide --help`)");
    ExitCode::from(2)
}
