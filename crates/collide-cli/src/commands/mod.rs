//! One module per subcommand.

pub mod bounds;
pub mod check;
pub mod decompose;
pub mod demo;
pub mod hull;
pub mod render;
pub mod view;
