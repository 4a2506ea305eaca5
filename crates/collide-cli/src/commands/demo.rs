//! `collide demo` (under construction on its branch).

use std::process::ExitCode;

use crate::CliError;

/// Arguments of `collide demo`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `collide demo`.
pub fn run(_args: Args) -> Result<ExitCode, CliError> {
    Err(CliError::new("`collide demo` is not built yet"))
}
