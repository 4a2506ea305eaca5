//! The `collide` program.

fn main() {}
