//! OBJ loader on arbitrary bytes: never panics; a loaded model has finite vertices and
//! in-range triangle indices.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = collide::io::load_obj_bytes(data, "fuzz.obj") {
        for part in &model.parts {
            collide_fuzz::check_mesh(&part.mesh);
        }
    }
});
