//! Mesh colliders and heightfields built from raw bytes, then ray, closest-point and contact
//! queries: see `collide_fuzz_checks::mesh`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::mesh::run(data));
