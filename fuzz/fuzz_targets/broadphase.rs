//! The three broad phases fed the same random insert / update / remove / query sequence, with
//! boxes from arbitrary f32 bit patterns. Asserts: never panics; `validate()` holds after every
//! operation; all three accept or reject each edit alike (a NaN, infinite or inverted box is
//! `InvalidAabb`) and hand out the same ids; `update_pairs`, `query_aabb` and `ray_cast` report
//! exactly what the brute-force reference reports.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::broadphase::run(data));
