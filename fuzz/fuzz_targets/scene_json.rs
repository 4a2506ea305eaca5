//! Scene JSON on arbitrary text: never panics; errors carry a line number.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::scene_json::run(data));
