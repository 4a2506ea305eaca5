//! Every ray cast on arbitrary f32 bit patterns: never panics; a hit has 0 <= t <= max_t, a
//! finite point and a unit normal; NaN input gives `None`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz::raycast::run(data));
