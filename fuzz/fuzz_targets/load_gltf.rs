//! glTF / GLB loader on arbitrary bytes: never panics; a loaded mesh is valid.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::load_gltf::run(data));
