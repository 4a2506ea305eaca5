//! A module per subcommand of the `collide` program, each running the built executable.

mod bounds;
mod check;
mod demo;
mod hull;
mod render;
mod verdicts;
mod view;
