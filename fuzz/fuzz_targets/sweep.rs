//! Every sweep on arbitrary f32 bit patterns. Asserts the shared contract of
//! `collide::sweep`: never panics; a hit has `0 <= enter <= exit <= 1`, a finite point and a
//! unit normal; NaN or infinite input anywhere gives `None`; sphere–sphere and AABB–AABB give
//! the same verdict with A and B swapped (both are exact interval computations); on moderate
//! input a sampling oracle for the sphere and box sweeps (every overlapping moment inside
//! `[enter, exit]`, touching at `enter`). See `collide_fuzz_checks::sweep`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::sweep::run(data));
