//! `collide view` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide view`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide view`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide view` is not built yet"))
}
