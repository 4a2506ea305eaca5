//! Loading the real meshes in `assets/meshes/`: counts, parts, and agreement with two
//! independent loaders (tobj for OBJ, stl_io for STL) and with our own writer (round trip).

use std::collections::HashMap;
use std::io::Cursor;

use crate::common::{mesh_path, REAL_MESHES};
use collide::io::{self, Model};
use collide::Vec3;

/// A triangle as its corner positions' bit patterns (-0.0 folded into 0.0).
type Key = [[u32; 3]; 3];

fn key(a: Vec3, b: Vec3, c: Vec3) -> Key {
    [a, b, c].map(|v| (v + Vec3::ZERO).to_array().map(f32::to_bits))
}

/// The multiset of triangles (by corner positions, corner order kept) of a model.
fn triangle_multiset(model: &Model) -> HashMap<Key, usize> {
    let mut out = HashMap::new();
    for p in &model.parts {
        for t in p.mesh.iter_triangles() {
            *out.entry(key(t.a, t.b, t.c)).or_insert(0) += 1;
        }
    }
    out
}

fn tobj_multiset(src: &str) -> (HashMap<Key, usize>, usize) {
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ..Default::default()
    };
    let (models, _) = tobj::load_obj_buf(&mut Cursor::new(src.as_bytes()), &opts, |_| {
        Err(tobj::LoadError::GenericFailure)
    })
    .expect("tobj reads the file");
    let mut out = HashMap::new();
    let mut tris = 0;
    for m in &models {
        let p = &m.mesh.positions;
        let v = |i: u32| {
            let i = i as usize * 3;
            Vec3::new(p[i], p[i + 1], p[i + 2])
        };
        for t in m.mesh.indices.chunks_exact(3) {
            *out.entry(key(v(t[0]), v(t[1]), v(t[2]))).or_insert(0) += 1;
            tris += 1;
        }
    }
    (out, tris)
}

#[test]
fn obj_counts_and_parts() {
    // (file, vertices, triangles, parts) from assets/meshes/README.md and the files' `o` lines.
    let cases = [
        ("bunny.obj", 453, 902, 1),
        ("torus.obj", 501, 1002, 1),
        ("concave_box.obj", 169, 334, 1),
        ("cube.obj", 8, 12, 1),
        ("jenga.obj", 24, 12, 1),
        ("duck_vhacd.obj", 208, 396, 5),
        // 1261 `v` lines, 15 of them used by no face.
        ("teddy2_VHACD_CHs.obj", 1246, 2432, 15),
        ("lego_vhacd.obj", 1107, 1882, 83),
    ];
    for (name, v, t, parts) in cases {
        let m = io::load(mesh_path(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.parts.len(), parts, "{name} parts");
        assert_eq!(m.triangle_count(), t, "{name} triangles");
        assert_eq!(m.vertex_count(), v, "{name} vertices");
        for p in &m.parts {
            assert!(p.mesh.validate().is_ok(), "{name}/{}", p.name);
            assert!(!p.mesh.is_empty(), "{name}/{}", p.name);
            // Every vertex of a loaded part is used by one of its triangles.
            assert_eq!(p.mesh.clone().compact(), 0, "{name}/{}", p.name);
        }
        let merged = m.merged();
        assert!(merged.validate().is_ok());
        assert_eq!(merged.triangles.len(), t);
    }
    let duck = io::load(mesh_path("duck_vhacd.obj")).unwrap();
    let names: Vec<&str> = duck.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["convex_0", "convex_1", "convex_2", "convex_3", "convex_4"]
    );
    assert_eq!(
        io::load(mesh_path("cube.obj")).unwrap().parts[0].name,
        "cube"
    );
    assert_eq!(
        io::load(mesh_path("bunny.obj")).unwrap().parts[0].name,
        "bunny"
    );
}

#[test]
fn obj_agrees_with_tobj() {
    // Oracle: tobj, an independent OBJ reader, yields the same triangles (corner positions and
    // order) on every real mesh.
    for name in REAL_MESHES.iter().filter(|n| n.ends_with(".obj")) {
        let src = std::fs::read_to_string(mesh_path(name)).unwrap();
        let ours = io::load_obj_str(&src, name).unwrap();
        let (theirs, count) = tobj_multiset(&src);
        assert_eq!(ours.triangle_count(), count, "{name}");
        assert_eq!(triangle_multiset(&ours), theirs, "{name}");
    }
}

#[test]
fn stl_agrees_with_stl_io() {
    // Oracle: stl_io reads the binary chassis into the same triangles and the same number of
    // distinct vertices.
    let bytes = std::fs::read(mesh_path("racecar_chassis.stl")).unwrap();
    let ours = io::load(mesh_path("racecar_chassis.stl")).unwrap();
    assert_eq!(ours.parts.len(), 1);
    assert_eq!(ours.parts[0].name, "racecar_chassis");
    assert_eq!(ours.triangle_count(), 324);
    let theirs = stl_io::read_stl(&mut Cursor::new(&bytes)).unwrap();
    assert_eq!(ours.vertex_count(), theirs.vertices.len());
    let mut expected = HashMap::new();
    for f in &theirs.faces {
        let v = |i: usize| {
            let p = theirs.vertices[f.vertices[i]];
            Vec3::new(p[0], p[1], p[2])
        };
        *expected.entry(key(v(0), v(1), v(2))).or_insert(0) += 1;
    }
    assert_eq!(triangle_multiset(&ours), expected);
    assert!(ours.parts[0].mesh.validate().is_ok());
}

#[test]
fn obj_round_trip_through_writer() {
    // load → write_obj → load gives back exactly the same model, parts and names included.
    for name in [
        "bunny.obj",
        "torus.obj",
        "duck_vhacd.obj",
        "teddy2_VHACD_CHs.obj",
    ] {
        let m = io::load(mesh_path(name)).unwrap();
        let again = io::load_obj_str(&io::write_obj(&m), name).unwrap();
        assert_eq!(again, m, "{name}");
    }
    let stl = io::load(mesh_path("racecar_chassis.stl")).unwrap();
    let again = io::load_obj_str(&io::write_obj(&stl), "chassis.obj").unwrap();
    assert_eq!(again.parts[0].mesh, stl.parts[0].mesh);
}

#[test]
fn stl_ascii_and_binary_round_trip() {
    // The chassis written as ASCII STL and as binary STL reads back to the same mesh.
    let m = io::load(mesh_path("racecar_chassis.stl")).unwrap();
    let mesh = &m.parts[0].mesh;
    let mut ascii = String::from("solid chassis\n");
    let mut binary = vec![0u8; 80];
    binary.extend_from_slice(&(mesh.triangles.len() as u32).to_le_bytes());
    for t in mesh.iter_triangles() {
        ascii.push_str("facet normal 0 0 0\nouter loop\n");
        binary.extend_from_slice(&[0u8; 12]);
        for v in [t.a, t.b, t.c] {
            ascii.push_str(&format!("vertex {} {} {}\n", v.x, v.y, v.z));
            for c in v.to_array() {
                binary.extend_from_slice(&c.to_le_bytes());
            }
        }
        ascii.push_str("endloop\nendfacet\n");
        binary.extend_from_slice(&[0u8; 2]);
    }
    ascii.push_str("endsolid chassis\n");
    let a = io::load_stl_bytes(ascii.as_bytes(), "a.stl").unwrap();
    let b = io::load_stl_bytes(&binary, "b.stl").unwrap();
    assert_eq!(a.parts[0].name, "chassis");
    assert_eq!(&a.parts[0].mesh, mesh);
    assert_eq!(&b.parts[0].mesh, mesh);
    // A binary file whose header starts with "solid" is still binary (its size says so).
    let mut tricky = binary.clone();
    tricky[..11].copy_from_slice(b"solid fake ");
    assert_eq!(
        &io::load_stl_bytes(&tricky, "t.stl").unwrap().parts[0].mesh,
        mesh
    );
}

#[test]
fn weld_and_drop_degenerate_on_real_meshes() {
    // The convex pieces of the teddy, merged, then welded at a
    // tolerance keeps every triangle's geometry (each corner moves by at most the tolerance).
    let m = io::load(mesh_path("teddy2_VHACD_CHs.obj")).unwrap();
    let merged = m.merged();
    let mut welded = merged.clone();
    let removed = welded.weld(1e-4);
    assert_eq!(welded.vertices.len() + removed, merged.vertices.len());
    assert!(welded.validate().is_ok());
    for (t0, t1) in merged.triangles.iter().zip(&welded.triangles) {
        for k in 0..3 {
            let d = merged.vertices[t0[k] as usize] - welded.vertices[t1[k] as usize];
            assert!(d.length() <= 1e-4 * 1.0001, "moved by {}", d.length());
        }
    }
    let mut bunny = io::load(mesh_path("bunny.obj")).unwrap().merged();
    assert_eq!(bunny.weld(0.0), 0, "the bunny has no duplicate positions");
    let dropped = bunny.drop_degenerate();
    assert!(dropped <= 2, "the bunny has {dropped} degenerate triangles");
}
