//! `collide bounds` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide bounds`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide bounds`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide bounds` is not built yet"))
}
