//! `collide render` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide render`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide render`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide render` is not built yet"))
}
