//! `collide hull` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide hull`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide hull`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide hull` is not built yet"))
}
