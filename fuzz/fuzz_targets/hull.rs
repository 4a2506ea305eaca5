//! Quickhull on arbitrary point clouds: never panics; a hull that is built validates and
//! contains every input point within its tolerance.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz::hull::run(data));
