//! `collide check` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide check`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide check`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide check` is not built yet"))
}
