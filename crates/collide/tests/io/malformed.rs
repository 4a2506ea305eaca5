//! Every malformed-input case of the loaders, from small files in `tests/data/`: a typed
//! error naming the file (and the line, for text formats), never a panic.

use collide::io::{self, LoadError};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn load_err(name: &str) -> (LoadError, String) {
    let path = format!("{DATA}{name}");
    let e = io::load(&path).expect_err(name);
    let msg = e.to_string();
    assert!(msg.starts_with(&path), "message must name the file: {msg}");
    assert_eq!(e.file(), path);
    assert!(!msg.contains('\n'), "one line: {msg}");
    (e, msg[path.len()..].to_string())
}

#[test]
fn obj_errors_name_the_line() {
    let (e, m) = load_err("bad_index.obj");
    assert_eq!(m, ":6: face index 999 out of range (3 vertices)");
    assert!(matches!(
        e,
        LoadError::IndexOutOfRange {
            line: Some(6),
            index: 999,
            vertex_count: 3,
            ..
        }
    ));
    let (e, m) = load_err("negative_index.obj");
    assert_eq!(m, ":4: face index -4 out of range (3 vertices)");
    assert_eq!(e.line(), Some(4));
    let (e, m) = load_err("short_face.obj");
    assert!(matches!(e, LoadError::Parse { line: 3, .. }), "{m}");
    assert!(m.contains("needs at least 3"), "{m}");
    let (e, m) = load_err("bad_number.obj");
    assert!(matches!(e, LoadError::Parse { line: 2, .. }), "{m}");
    assert!(m.contains("'0.5.0'"), "{m}");
    let (e, m) = load_err("nan.obj");
    assert!(
        matches!(e, LoadError::NonFinite { line: Some(3), .. }),
        "{m}"
    );
    let (e, m) = load_err("bad_face_vertex.obj");
    assert!(matches!(e, LoadError::Parse { line: 4, .. }), "{m}");
    let (e, m) = load_err("empty.obj");
    assert!(matches!(e, LoadError::Empty { .. }), "{m}");
    assert_eq!(m, ": no triangles in the file");
}

#[test]
fn stl_errors() {
    let (e, m) = load_err("truncated.stl");
    assert!(
        matches!(
            e,
            LoadError::Truncated {
                expected_bytes: 50084,
                actual_bytes: 134,
                ..
            }
        ),
        "{m}"
    );
    // A header claiming 2^32 - 1 triangles: refused on the count, before any allocation.
    let (e, m) = load_err("huge_count.stl");
    assert!(
        matches!(
            e,
            LoadError::TooLarge {
                what: "triangles",
                count: 4294967295,
                ..
            }
        ),
        "{m}"
    );
    let (e, m) = load_err("short_header.stl");
    assert!(
        matches!(
            e,
            LoadError::Truncated {
                expected_bytes: 84,
                ..
            }
        ),
        "{m}"
    );
    let (e, m) = load_err("zero_triangles.stl");
    assert!(matches!(e, LoadError::Empty { .. }), "{m}");
    let (e, m) = load_err("cut_ascii.stl");
    assert!(matches!(e, LoadError::Parse { .. }), "{m}");
    assert!(m.contains("endsolid"), "{m}");
    let (e, m) = load_err("bad_ascii.stl");
    assert!(matches!(e, LoadError::Parse { line: 6, .. }), "{m}");
    assert!(m.contains("'one'"), "{m}");
}

#[test]
fn gltf_and_other_errors() {
    let (e, m) = load_err("junk.gltf");
    assert!(matches!(e, LoadError::Gltf { .. }), "{m}");
    let (e, m) = load_err("junk.glb");
    assert!(matches!(e, LoadError::Gltf { .. }), "{m}");
    let (e, m) = load_err("unknown.ply");
    assert!(matches!(e, LoadError::UnknownFormat { .. }), "{m}");
    let (e, m) = load_err("missing.obj");
    assert!(matches!(e, LoadError::Io { .. }), "{m}");
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn random_bytes_never_panic() {
    // Fuzz-style: truncations and byte flips of real files and of the malformed ones give a
    // model or a typed error, never a panic.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let sources = [
        (
            "a.obj",
            std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../assets/meshes/cube.obj"
            ))
            .unwrap(),
        ),
        (
            "a.stl",
            std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../assets/meshes/racecar_chassis.stl"
            ))
            .unwrap(),
        ),
        (
            "a.stl",
            std::fs::read(format!("{DATA}bad_ascii.stl")).unwrap(),
        ),
    ];
    for (name, bytes) in &sources {
        for _ in 0..300 {
            let mut b = bytes.clone();
            let cut = rng.random_range(0..=b.len());
            b.truncate(cut);
            for _ in 0..rng.random_range(0..4) {
                if !b.is_empty() {
                    let i = rng.random_range(0..b.len());
                    b[i] = rng.random();
                }
            }
            let r = if name.ends_with("obj") {
                io::load_obj_bytes(&b, name)
            } else {
                io::load_stl_bytes(&b, name)
            };
            if let Ok(m) = r {
                for p in &m.parts {
                    assert!(p.mesh.validate().is_ok());
                }
            }
            let _ = io::load_gltf_bytes(&b, "x.glb");
        }
    }
}
