//! Scene JSON on arbitrary text: never panics; errors carry a line number.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // A base directory that does not exist: mesh bodies fail to load with an error, never a panic.
        let _ = collide::io::scene::Scene::from_json_str(
            text,
            Path::new("fuzz.json"),
            Path::new("/nonexistent-fuzz-dir"),
        );
    }
});
