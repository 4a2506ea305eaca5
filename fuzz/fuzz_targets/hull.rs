//! Quickhull on arbitrary point clouds: never panics; a hull that is built validates, its
//! vertices are input points, and it contains every input point within its tolerance; a
//! non-finite point is `HullError::NonFinite` naming the first.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::hull::run(data));
