//! Convex decomposition on arbitrary small meshes and settings: never panics; a result is at
//! most `max_pieces` valid hulls covering every vertex of a triangle with area.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::decompose::run(data));
