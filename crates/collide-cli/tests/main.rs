//! The `collide` program's tests, in one binary: `cmd::<subcommand>` runs the built executable
//! (`CARGO_BIN_EXE_collide`) on the scenes in `tests/scenes/` and the meshes in `assets/`. The
//! browser test of `collide view` is `tests/browser/view.test.mjs`, run by `.ci/run` with node.

mod cmd;
