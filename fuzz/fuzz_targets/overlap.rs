//! Every static test on arbitrary f32 bit patterns: never panics; NaN anywhere in a pair's
//! input gives `false` (the crate-wide bad-input rule, checked for every function); answers
//! that are symmetric by construction or by a documented mirror are.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::overlap::run(data));
