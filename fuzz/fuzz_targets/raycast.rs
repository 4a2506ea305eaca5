//! Every ray cast on arbitrary f32 bit patterns: never panics; a hit has 0 <= t <= max_t, a
//! finite `t`, a finite point `origin + t · dir` and a unit normal; NaN input gives `None`;
//! on moderate input an f64 sampling oracle (no sample inside a solid before the hit, the
//! hit on the surface, plane and triangle hits on them). See `collide_fuzz_checks::raycast`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::raycast::run(data));
