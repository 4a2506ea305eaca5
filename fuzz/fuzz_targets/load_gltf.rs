//! glTF / GLB loader on arbitrary bytes: never panics; a loaded mesh is valid.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = collide::io::load_gltf_bytes(data, "fuzz.glb") {
        for part in &model.parts {
            collide_fuzz::check_mesh(&part.mesh);
        }
    }
});
