//! Scene-file tests.

use super::*;
use crate::assert_near;

fn parse(text: &str) -> Result<Scene, SceneError> {
    Scene::from_json_str(text, Path::new("s.json"), Path::new("dir"))
}

// Every field given: values land where they should, mesh path joined to the base.
#[test]
fn full_body_parses() {
    let s = parse(
        r#"{"bodies": [
          {"name": "a", "shape": {"box": {"half_extents": [1, 2, 3]}},
           "position": [1, 2, 3], "rotation": {"euler_deg": [0, 90, 0]},
           "velocity": [0, -1, 0], "bounding": "obb", "test": "volume"},
          {"name": "m", "shape": {"mesh": {"path": "x.obj", "convex": "pieces", "scale": 2, "part": "p", "origin": [1, 0, 0]}}}
        ]}"#,
    )
    .unwrap();
    let a = &s.bodies[0];
    assert_eq!(
        a.shape,
        ShapeDesc::Cuboid {
            half_extents: Vec3::new(1.0, 2.0, 3.0)
        }
    );
    assert_eq!(a.position, Vec3::new(1.0, 2.0, 3.0));
    assert_near!(a.rotation * Vec3::X, -Vec3::Z, 1e-6);
    assert_eq!(a.velocity, -Vec3::Y);
    assert_eq!(a.bounding, BoundingChoice::Obb);
    assert_eq!(a.test, TestChoice::Volume);
    assert_eq!(
        s.bodies[1].shape,
        ShapeDesc::Mesh {
            path: PathBuf::from("dir/x.obj"),
            convex: ConvexMode::Pieces,
            scale: 2.0,
            part: Some("p".into()),
            origin: Vec3::new(1.0, 0.0, 0.0),
        }
    );
}

// Only name and shape: identity pose, no motion, fast AABB, exact test, hull, scale 1.
#[test]
fn defaults() {
    let s = parse(r#"{"bodies": [{"name": "m", "shape": {"mesh": {"path": "x.obj"}}}]}"#).unwrap();
    let b = &s.bodies[0];
    assert_eq!(b.position, Vec3::ZERO);
    assert_eq!(b.rotation, Quat::IDENTITY);
    assert_eq!(b.velocity, Vec3::ZERO);
    assert_eq!(b.bounding, BoundingChoice::Aabb);
    assert_eq!(b.test, TestChoice::Exact);
    assert!(matches!(
        b.shape,
        ShapeDesc::Mesh {
            convex: ConvexMode::Hull,
            scale: 1.0,
            ..
        }
    ));
}

// Euler angles compose as Rz·Ry·Rx; quaternions are normalised.
#[test]
fn rotations() {
    let s = parse(
        r#"{"bodies": [
          {"name": "e", "shape": {"sphere": {"radius": 1}}, "rotation": {"euler_deg": [90, 0, 90]}},
          {"name": "q", "shape": {"sphere": {"radius": 1}}, "rotation": {"quat": [0, 0, 2, 2]}}
        ]}"#,
    )
    .unwrap();
    // Rx(90) takes y to z, then Rz(90) leaves z alone; x goes to y under Rz(90).
    let e = s.bodies[0].rotation;
    assert_near!(e * Vec3::Y, Vec3::Z, 1e-6);
    assert_near!(e * Vec3::X, Vec3::Y, 1e-6);
    let q = s.bodies[1].rotation;
    assert_near!(q.length(), 1.0, 1e-6);
    assert_near!(q * Vec3::X, Vec3::Y, 1e-6);
}

fn parse_err(text: &str) -> (usize, usize, String) {
    match parse(text) {
        Err(SceneError::Parse {
            line,
            column,
            message,
            ..
        }) => (line, column, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

// A misspelt shape kind: the error points at it and lists the kinds.
#[test]
fn unknown_shape_names_line_and_alternatives() {
    let (line, _col, msg) =
        parse_err("{\"bodies\": [\n {\"name\": \"a\",\n  \"shape\": {\"sphre\": {}}}]}");
    assert_eq!(line, 3);
    assert!(msg.contains("sphre") && msg.contains("sphere"), "{msg}");
}

// Negative and zero sizes are rejected with the field named.
#[test]
fn bad_sizes() {
    let (_, _, msg) =
        parse_err(r#"{"bodies": [{"name": "a", "shape": {"sphere": {"radius": -1}}}]}"#);
    assert!(msg.contains("sphere radius"), "{msg}");
    let (_, _, msg) =
        parse_err(r#"{"bodies": [{"name": "a", "shape": {"box": {"half_extents": [1, 0, 1]}}}]}"#);
    assert!(msg.contains("half_extents.y"), "{msg}");
    let (_, _, msg) = parse_err(
        r#"{"bodies": [{"name": "a", "shape": {"sphere": {"radius": 1}}, "rotation": {"quat": [0,0,0,0]}}]}"#,
    );
    assert!(msg.contains("non-zero"), "{msg}");
    // 1e999 overflows f32 and f64: serde_json refuses it rather than produce infinity.
    let (_, _, _) =
        parse_err(r#"{"bodies": [{"name": "a", "shape": {"sphere": {"radius": 1e999}}}]}"#);
}

// Misspelt field names are errors, not silently ignored.
#[test]
fn unknown_field() {
    let (_, _, msg) = parse_err(
        r#"{"bodies": [{"name": "a", "shape": {"sphere": {"radius": 1}}, "velocty": [1,0,0]}]}"#,
    );
    assert!(msg.contains("velocty"), "{msg}");
}

// Truncated JSON: the line and column of the end.
#[test]
fn truncated() {
    let (line, col, msg) = parse_err("{\"bodies\": [\n");
    assert_eq!((line, col), (2, 0));
    assert!(msg.contains("ends early"), "{msg}");
}

// Two bodies of one name: an Invalid error naming it.
#[test]
fn duplicate_names() {
    let e = parse(
        r#"{"bodies": [{"name": "a", "shape": {"sphere": {"radius": 1}}},
                       {"name": "a", "shape": {"sphere": {"radius": 1}}}]}"#,
    )
    .unwrap_err();
    assert!(matches!(e, SceneError::Invalid { .. }));
    assert!(e.to_string().contains("\"a\""));
}

// The display form is one line: file:line:column: message.
#[test]
fn display_is_one_line() {
    let e = parse("{\"bodies\": 3}").unwrap_err();
    let s = e.to_string();
    assert!(s.starts_with("s.json:1:"), "{s}");
    assert!(!s.contains('\n'));
}

// Part names: `name#k` belongs to node `name`; other `#` stay in the name.
#[test]
fn part_names() {
    assert_eq!(part_base_name("wheel#2"), "wheel");
    assert_eq!(part_base_name("wheel"), "wheel");
    assert_eq!(part_base_name("a#b"), "a#b");
    assert_eq!(part_base_name("a#"), "a#");
}

// A glTF that does not exist or is not glTF: a Mesh error naming the file.
#[test]
fn gltf_errors_name_the_file() {
    let e = Scene::load(Path::new("/nonexistent/x.gltf")).unwrap_err();
    assert!(matches!(e, SceneError::Mesh { .. }));
    assert!(e.to_string().contains("/nonexistent/x.gltf"), "{e}");
}

// A missing file: an Io error naming it.
#[test]
fn missing_file() {
    let e = Scene::load(Path::new("/nonexistent/scene.json")).unwrap_err();
    assert!(matches!(e, SceneError::Io { .. }));
    assert!(e
        .to_string()
        .starts_with("/nonexistent/scene.json: cannot read"));
}
fn mesh_desc(file: &str, convex: ConvexMode, part: Option<&str>) -> SceneBody {
    SceneBody {
        name: "m".into(),
        shape: ShapeDesc::Mesh {
            path: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../assets/meshes")
                .join(file),
            convex,
            scale: 2.0,
            part: part.map(str::to_string),
            origin: Vec3::new(1.0, 0.0, 0.0),
        },
        position: Vec3::new(0.0, 3.0, 0.0),
        rotation: Quat::from_rotation_y(1.0),
        velocity: Vec3::new(0.0, -1.0, 0.0),
        bounding: BoundingChoice::TightAabb,
        test: TestChoice::Exact,
        fixed: false,
    }
}

// Primitives become themselves, with the pose, the velocity and the bounds choice.
#[test]
fn primitives_to_world() {
    let s = parse(
        r#"{"bodies": [
          {"name": "s", "shape": {"sphere": {"radius": 0.5}}, "position": [1, 2, 3], "velocity": [1, 0, 0]},
          {"name": "b", "shape": {"box": {"half_extents": [1, 2, 3]}}, "rotation": {"euler_deg": [0, 90, 0]}},
          {"name": "c", "shape": {"capsule": {"half_height": 1, "radius": 0.25}}, "bounding": "tight_aabb"}
        ]}"#,
    )
    .unwrap();
    let w = s.to_world(&mut Models::new()).unwrap();
    assert!(matches!(w[0].geometry, Geometry::Sphere(r) if r == 0.5));
    assert_eq!(
        (w[0].position, w[0].linear_velocity, w[0].tight_bounds),
        (Vec3::new(1.0, 2.0, 3.0), Vec3::X, false)
    );
    assert!(matches!(w[1].geometry, Geometry::Cuboid(h) if h == Vec3::new(1.0, 2.0, 3.0)));
    assert_eq!(w[1].rotation, s.bodies[1].rotation);
    assert!(matches!(
        w[2].geometry,
        Geometry::Capsule { half_height, radius } if half_height == 1.0 && radius == 0.25
    ));
    assert!(w[2].tight_bounds);
}

// A mesh as one hull: every vertex mapped by (v - origin) · scale lies in the hull, and
// the hull's vertices are mapped vertices; the model is read once into `models`.
#[test]
fn mesh_hull_to_world() {
    let mut models = Models::new();
    let d = mesh_desc("bunny.obj", ConvexMode::Hull, None);
    let w = d.to_world(&mut models).unwrap();
    assert_eq!(models.len(), 1);
    let Geometry::Hull(h) = &w.geometry else {
        panic!("one hull")
    };
    let model = models.values().next().unwrap();
    let mapped: Vec<Vec3> = model.parts[0]
        .mesh
        .vertices
        .iter()
        .map(|&v| (v - Vec3::X) * 2.0)
        .collect();
    assert!(h.vertices().iter().all(|v| mapped.contains(v)));
    assert!(w.tight_bounds && w.linear_velocity == -Vec3::Y);
    assert_eq!(w.position, Vec3::new(0.0, 3.0, 0.0));
}

// Pieces: one hull per part; a part asked by name keeps that part alone; a missing part
// and a missing file are Body errors naming the body and the file.
#[test]
fn mesh_pieces_parts_and_errors() {
    let mut models = Models::new();
    let w = mesh_desc("duck_vhacd.obj", ConvexMode::Pieces, None)
        .to_world(&mut models)
        .unwrap();
    let Geometry::Pieces(ps) = &w.geometry else {
        panic!("pieces")
    };
    let model = models.values().next().unwrap();
    assert_eq!(ps.len(), model.parts.len());
    let first = model.parts[0].name.clone();
    let one = mesh_desc("duck_vhacd.obj", ConvexMode::Pieces, Some(&first))
        .to_world(&mut models)
        .unwrap();
    assert!(matches!(one.geometry, Geometry::Hull(_)));
    let e = mesh_desc("duck_vhacd.obj", ConvexMode::Pieces, Some("wing"))
        .to_world(&mut models)
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, SceneError::Body { .. }));
    assert!(msg.starts_with("body \"m\": ") && msg.contains("no part named \"wing\""));
    assert!(msg.contains(&first), "{msg}");
    let e = mesh_desc("no_such.obj", ConvexMode::Hull, None)
        .to_world(&mut models)
        .unwrap_err();
    assert!(e.to_string().contains("no_such.obj"), "{e}");
}

// A flat mesh (one triangle) has no hull: a Body error saying so, not a panic.
#[test]
fn flat_mesh_is_an_error() {
    let model =
        crate::io::load_obj_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "flat.obj").unwrap();
    let mut models = Models::new();
    models.insert(PathBuf::from("dir/flat.obj"), model);
    let s =
        parse(r#"{"bodies": [{"name": "f", "shape": {"mesh": {"path": "flat.obj"}}}]}"#).unwrap();
    let e = s.to_world(&mut models).unwrap_err();
    assert!(e.to_string().contains("has no convex hull"), "{e}");
}

// A heightfield body: `null` heights are holes (NaN), the geometry is the library's
// heightfield; wrong sizes and scales are parse errors that say what to write.
#[test]
fn heightfield_bodies_parse_and_refuse_bad_sizes() {
    let s = parse(
        r#"{"bodies": [{"name": "t", "fixed": true, "shape": {"heightfield": {
            "rows": 2, "cols": 3, "heights": [0, 1, null, 0.5, 0, 2], "scale": [4, 2, 4]}}}]}"#,
    )
    .unwrap();
    let ShapeDesc::Heightfield {
        rows,
        cols,
        heights,
        scale,
    } = &s.bodies[0].shape
    else {
        panic!("not a heightfield: {:?}", s.bodies[0].shape)
    };
    assert_eq!((*rows, *cols, *scale), (2, 3, Vec3::new(4.0, 2.0, 4.0)));
    assert!(heights[2].is_nan() && heights[3] == 0.5);
    let w = s.to_world(&mut Models::new()).unwrap();
    let Geometry::Heightfield(field) = &w[0].geometry else {
        panic!("heightfield geometry")
    };
    assert_eq!((field.rows(), field.cols()), (2, 3));
    // Heights run from 0 to 2 · 2 = 4 (the hole left out).
    assert_eq!((field.aabb().min.y, field.aabb().max.y), (0.0, 4.0));
    for (body, want) in [
        (
            r#""rows": 1, "cols": 3, "heights": [0, 0, 0], "scale": [1, 1, 1]"#,
            "at least 2",
        ),
        (
            r#""rows": 2, "cols": 2, "heights": [0, 0, 0], "scale": [1, 1, 1]"#,
            "rows x cols = 2 x 2",
        ),
        (
            r#""rows": 2, "cols": 2, "heights": [0, 0, 0, 0], "scale": [1, 0, 1]"#,
            "heightfield scale.y",
        ),
    ] {
        let text =
            format!(r#"{{"bodies": [{{"name": "t", "shape": {{"heightfield": {{{body}}}}}}}]}}"#);
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains(want), "{body}: {e}");
    }
}
