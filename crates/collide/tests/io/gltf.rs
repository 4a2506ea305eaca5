//! glTF loading on small files the tests write themselves: embedded base64 buffers, side-car
//! `.bin` buffers and `.glb`, node hierarchies with world transforms, and every malformed case.

use collide::io::{self, LoadError};
use collide::{Affine3A, Quat, Vec3};
use collide_testkit::HULL_MESHES;

/// Tetrahedron corners, outward-wound faces (signed volume > 0).
const TET: [Vec3; 4] = [
    Vec3::new(0.0, 0.0, 0.0),
    Vec3::new(1.0, 0.0, 0.0),
    Vec3::new(0.0, 1.0, 0.0),
    Vec3::new(0.0, 0.0, 1.0),
];
const TET_FACES: [u16; 12] = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];

/// 48 bytes of positions then 24 bytes of u16 indices.
fn tet_buffer() -> Vec<u8> {
    let mut b = Vec::new();
    for v in TET {
        for c in v.to_array() {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in TET_FACES {
        b.extend_from_slice(&i.to_le_bytes());
    }
    b
}

fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(T[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A document with one tetrahedron mesh used by a child node under a translated root, and by a
/// mirrored root. `buffer` is the buffer object's JSON (uri and byteLength).
fn doc(buffer: &str, pos_count: usize, mode: u32) -> String {
    format!(
        r#"{{
  "asset": {{"version": "2.0"}},
  "scene": 0,
  "scenes": [{{"nodes": [0, 2]}}],
  "nodes": [
    {{"name": "root", "translation": [10, 0, 0], "children": [1]}},
    {{"name": "child", "scale": [2, 2, 2], "rotation": [0, 0, 0.70710677, 0.70710677], "mesh": 0}},
    {{"name": "mirror", "scale": [-1, 1, 1], "mesh": 0}}
  ],
  "meshes": [{{"name": "tet", "primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1, "mode": {mode}}}]}}],
  "accessors": [
    {{"bufferView": 0, "componentType": 5126, "count": {pos_count}, "type": "VEC3",
      "min": [0, 0, 0], "max": [1, 1, 1]}},
    {{"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}}
  ],
  "bufferViews": [
    {{"buffer": 0, "byteOffset": 0, "byteLength": 48}},
    {{"buffer": 0, "byteOffset": 48, "byteLength": 24}}
  ],
  "buffers": [{buffer}]
}}"#
    )
}

fn embedded(buf: &[u8]) -> String {
    format!(
        r#"{{"byteLength": {}, "uri": "data:application/octet-stream;base64,{}"}}"#,
        buf.len(),
        base64(buf)
    )
}

fn glb(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while j.len() % 4 != 0 {
        j.push(b' ');
    }
    let mut b = bin.to_vec();
    while b.len() % 4 != 0 {
        b.push(0);
    }
    let total = 12 + 8 + j.len() + 8 + b.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&b);
    out
}

/// A fresh directory under the system temp dir (no tempfile crate).
fn temp_dir(tag: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "collide-io-gltf-{tag}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn signed_volume(m: &collide::shapes::TriMesh) -> f32 {
    m.iter_triangles()
        .map(|t| t.a.dot(t.b.cross(t.c)) / 6.0)
        .sum()
}

/// Checks the two parts of the scene against transforms computed here with glam.
fn check_scene(model: &io::Model) {
    assert_eq!(model.parts.len(), 2);
    let (child, mirror) = (&model.parts[0], &model.parts[1]);
    assert_eq!(child.name, "child");
    assert_eq!(mirror.name, "mirror");
    let world = Affine3A::from_translation(Vec3::new(10.0, 0.0, 0.0))
        * Affine3A::from_scale_rotation_translation(
            Vec3::splat(2.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            Vec3::ZERO,
        );
    assert_eq!(child.mesh.vertices.len(), 4);
    assert_eq!(child.mesh.triangles.len(), 4);
    for (v, t) in child.mesh.vertices.iter().zip(TET) {
        collide_testkit::assert_near!(*v, world.transform_point3(t), 1e-5);
    }
    // Mirrored node: x negated, winding reversed so the solid stays outward-facing.
    for (v, t) in mirror.mesh.vertices.iter().zip(TET) {
        assert_eq!(*v, Vec3::new(-t.x, t.y, t.z));
    }
    assert!(signed_volume(&child.mesh) > 0.0);
    assert!(
        signed_volume(&mirror.mesh) > 0.0,
        "mirror must flip winding"
    );
    collide_testkit::assert_near!(signed_volume(&mirror.mesh), 1.0 / 6.0, 1e-6);
}

#[test]
fn embedded_buffer() {
    // A .gltf with a base64 data URI, from bytes and from a file.
    let json = doc(&embedded(&tet_buffer()), 4, 4);
    check_scene(&io::load_gltf_bytes(json.as_bytes(), "tet.gltf").unwrap());
    let dir = temp_dir("embedded");
    let p = dir.join("tet.gltf");
    std::fs::write(&p, &json).unwrap();
    check_scene(&io::load(&p).unwrap());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn side_car_buffer() {
    // A .gltf beside its .bin, loaded by path; from bytes the side-car cannot be found.
    let dir = temp_dir("sidecar");
    std::fs::write(dir.join("tet.bin"), tet_buffer()).unwrap();
    let json = doc(r#"{"byteLength": 72, "uri": "tet.bin"}"#, 4, 4);
    let p = dir.join("tet.gltf");
    std::fs::write(&p, &json).unwrap();
    check_scene(&io::load(&p).unwrap());
    check_scene(&io::load_gltf(&p).unwrap());
    let e = io::load_gltf_bytes(json.as_bytes(), "tet.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // The side-car missing: a typed error naming the .gltf.
    std::fs::remove_file(dir.join("tet.bin")).unwrap();
    let e = io::load(&p).unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    assert!(e.to_string().contains("tet.gltf"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn binary_glb() {
    // The same scene as a .glb, from bytes and from a file with an upper-case extension.
    let json = doc(r#"{"byteLength": 72}"#, 4, 4);
    let bytes = glb(&json, &tet_buffer());
    check_scene(&io::load_gltf_bytes(&bytes, "tet.glb").unwrap());
    let dir = temp_dir("glb");
    let p = dir.join("TET.GLB");
    std::fs::write(&p, &bytes).unwrap();
    check_scene(&io::load(&p).unwrap());
    // Truncated in the middle of the BIN chunk.
    let e = io::load_gltf_bytes(&bytes[..bytes.len() - 30], "cut.glb").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn strips_and_fans() {
    // Mode 5 (strip) and 6 (fan) over 12 indices give 10 triangles per node; mode 0 (points)
    // gives no triangles at all, which is an empty model.
    for mode in [5, 6] {
        let json = doc(&embedded(&tet_buffer()), 4, mode);
        let m = io::load_gltf_bytes(json.as_bytes(), "s.gltf").unwrap();
        assert_eq!(m.triangle_count(), 20, "mode {mode}");
        assert!(m.parts.iter().all(|p| p.mesh.validate().is_ok()));
    }
    let json = doc(&embedded(&tet_buffer()), 4, 0);
    let e = io::load_gltf_bytes(json.as_bytes(), "p.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Empty { .. }), "{e}");
}

#[test]
fn malformed_documents() {
    let buf = tet_buffer();
    // An accessor claiming more elements than its view holds.
    let e = io::load_gltf_bytes(doc(&embedded(&buf), 1000, 4).as_bytes(), "a.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // An absurd count is refused before allocating.
    let e = io::load_gltf_bytes(doc(&embedded(&buf), 1 << 40, 4).as_bytes(), "b.gltf").unwrap_err();
    assert!(
        matches!(e, LoadError::TooLarge { .. } | LoadError::Gltf { .. }),
        "{e}"
    );
    // An index past the vertices.
    let mut bad = buf.clone();
    bad[48..50].copy_from_slice(&7u16.to_le_bytes());
    let e = io::load_gltf_bytes(doc(&embedded(&bad), 4, 4).as_bytes(), "c.gltf").unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::IndexOutOfRange {
                index: 7,
                vertex_count: 4,
                ..
            }
        ),
        "{e}"
    );
    // A NaN coordinate.
    let mut nan = buf.clone();
    nan[0..4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = io::load_gltf_bytes(doc(&embedded(&nan), 4, 4).as_bytes(), "d.gltf").unwrap_err();
    assert!(matches!(e, LoadError::NonFinite { .. }), "{e}");
    // The buffer shorter than its declared byteLength.
    let e = io::load_gltf_bytes(doc(&embedded(&buf[..40]), 4, 4).as_bytes(), "e.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // Not JSON at all; an empty slice.
    for junk in [
        &b"{ not json"[..],
        &b""[..],
        &b"glTF\x02\0\0\0\xff\xff\xff\xff"[..],
    ] {
        let e = io::load_gltf_bytes(junk, "f.gltf").unwrap_err();
        assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    }
    // A TRIANGLES primitive whose index count is not a multiple of 3.
    let json = doc(&embedded(&buf), 4, 4).replace(
        r#""componentType": 5123, "count": 12"#,
        r#""componentType": 5123, "count": 11"#,
    );
    let e = io::load_gltf_bytes(json.as_bytes(), "g.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // A buffer view past the end of its buffer.
    let json = doc(&embedded(&buf), 4, 4).replace(
        r#""byteOffset": 48, "byteLength": 24"#,
        r#""byteOffset": 60, "byteLength": 24"#,
    );
    let e = io::load_gltf_bytes(json.as_bytes(), "h.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // A node cycle: root → child → root.
    let json = doc(&embedded(&buf), 4, 4).replace(
        r#""scale": [2, 2, 2], "rotation""#,
        r#""children": [0], "scale": [2, 2, 2], "rotation""#,
    );
    let e = io::load_gltf_bytes(json.as_bytes(), "i.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
    // Positions stored as VEC2.
    let json = doc(&embedded(&buf), 4, 4).replace(r#""type": "VEC3""#, r#""type": "VEC2""#);
    let e = io::load_gltf_bytes(json.as_bytes(), "j.gltf").unwrap_err();
    assert!(matches!(e, LoadError::Gltf { .. }), "{e}");
}

#[test]
fn no_scene_uses_root_nodes() {
    // Without `scene`/`scenes`, the parentless nodes are the roots: the same two parts.
    let json = doc(&embedded(&tet_buffer()), 4, 4).replace(
        r#""scene": 0,
  "scenes": [{"nodes": [0, 2]}],"#,
        "",
    );
    check_scene(&io::load_gltf_bytes(json.as_bytes(), "n.gltf").unwrap());
}

/// A .glb holding every part of `model` as its own mesh and node (u32 indices).
fn model_to_glb(model: &io::Model) -> Vec<u8> {
    let mut bin = Vec::new();
    let (mut views, mut accessors, mut meshes, mut nodes) = (vec![], vec![], vec![], vec![]);
    for (k, part) in model.parts.iter().enumerate() {
        let m = &part.mesh;
        let pos_off = bin.len();
        for v in &m.vertices {
            for c in v.to_array() {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
        let idx_off = bin.len();
        for t in &m.triangles {
            for i in t {
                bin.extend_from_slice(&i.to_le_bytes());
            }
        }
        let b = m.aabb().unwrap();
        views.push(format!(
            r#"{{"buffer": 0, "byteOffset": {pos_off}, "byteLength": {}}}"#,
            idx_off - pos_off
        ));
        views.push(format!(
            r#"{{"buffer": 0, "byteOffset": {idx_off}, "byteLength": {}}}"#,
            bin.len() - idx_off
        ));
        accessors.push(format!(
            r#"{{"bufferView": {}, "componentType": 5126, "count": {}, "type": "VEC3", "min": {:?}, "max": {:?}}}"#,
            2 * k,
            m.vertices.len(),
            b.min.to_array(),
            b.max.to_array()
        ));
        accessors.push(format!(
            r#"{{"bufferView": {}, "componentType": 5125, "count": {}, "type": "SCALAR"}}"#,
            2 * k + 1,
            m.triangles.len() * 3
        ));
        meshes.push(format!(
            r#"{{"primitives": [{{"attributes": {{"POSITION": {}}}, "indices": {}}}]}}"#,
            2 * k,
            2 * k + 1
        ));
        nodes.push(format!(r#"{{"name": "{}", "mesh": {k}}}"#, part.name));
    }
    let roots: Vec<String> = (0..nodes.len()).map(|i| i.to_string()).collect();
    let json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [{}]}}],
  "nodes": [{}], "meshes": [{}], "accessors": [{}], "bufferViews": [{}],
  "buffers": [{{"byteLength": {}}}]}}"#,
        roots.join(", "),
        nodes.join(", "),
        meshes.join(", "),
        accessors.join(", "),
        views.join(", "),
        bin.len()
    );
    glb(&json, &bin)
}

#[test]
fn real_meshes_round_trip_through_glb() {
    // bunny, torus, duck and teddy pieces, chassis: OBJ/STL → .glb → the same model.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/");
    // All of `HULL_MESHES` but jenga, the last.
    for name in &HULL_MESHES[..5] {
        let model = io::load(format!("{dir}{name}")).unwrap();
        let back = io::load_gltf_bytes(&model_to_glb(&model), "rt.glb").unwrap();
        assert_eq!(back, model, "{name}");
    }
}
