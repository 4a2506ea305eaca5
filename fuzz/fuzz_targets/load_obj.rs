//! OBJ loader on arbitrary bytes: never panics; a loaded model has finite vertices and
//! in-range triangle indices.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::load_obj::run(data));
