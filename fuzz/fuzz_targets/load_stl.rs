//! STL loader (binary and ASCII) on arbitrary bytes: never panics; a loaded mesh is valid.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = collide::io::load_stl_bytes(data, "fuzz.stl") {
        for part in &model.parts {
            collide_fuzz::check_mesh(&part.mesh);
        }
    }
});
