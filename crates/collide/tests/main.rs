//! collide's integration tests, in one binary: a module per library module (`overlap`, `sweep`,
//! `convex`, `world`, ...), each holding that module's oracle, property and regression tests.
//! The f64 oracles are `collide_testkit::oracle` (shared with the bench crate's comparisons
//! against parry3d); `common` re-exports them with the harness's helpers. Run one group with
//! `cargo test -p collide --test main overlap::`.

mod common;

mod batch;
mod bounding;
mod broadphase;
mod character;
mod closest;
mod convex;
mod errata;
mod io;
mod mesh;
mod overlap;
mod raycast;
mod robustness;
mod sweep;
mod world;
