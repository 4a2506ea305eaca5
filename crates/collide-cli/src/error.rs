//! The program's one error type: a single line for the user, exit code 2.

use std::fmt;

/// An error to show the user as one line (file, line, what was expected).
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

impl CliError {
    /// An error with the given message.
    pub fn new(msg: impl Into<String>) -> Self {
        CliError(msg.into())
    }
}
