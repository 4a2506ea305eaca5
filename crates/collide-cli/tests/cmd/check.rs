//! `collide check` on the scene files in the repository: exit codes, text and JSON output,
//! one-line errors with line and column.

use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn check(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("check")
        .args(args)
        .output()
        .expect("the collide binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("an array");
    assert_eq!(a.len(), 3, "{v}");
    [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
}

// The example scene has a crate touching a ball: exit 1, the pair named in the text.
#[test]
fn colliding_scene_exits_1() {
    let o = check(&[&path("../../examples/scenes/primitives.json")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("crate × ball"), "{out}");
    assert!(out.contains("5 bodies, 10 pairs"), "{out}");
}

// JSON: the documented keys, a unit normal, non-negative depth, points as [x, y, z].
#[test]
fn json_shape() {
    let o = check(&[&path("../../examples/scenes/primitives.json"), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["bodies"], 5);
    assert_eq!(v["pairs"], 10);
    let hits = v["colliding"].as_array().expect("colliding is an array");
    let pair = hits
        .iter()
        .find(|p| p["a"] == "crate" && p["b"] == "ball")
        .expect("crate × ball collides");
    assert_eq!(pair["now"], true);
    assert_eq!(pair["test"], "exact");
    let c = &pair["contact"];
    let n = vec3(&c["normal"]);
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    assert!((len - 1.0).abs() < 1e-4, "normal {n:?}");
    assert!(c["depth"].as_f64().expect("depth") >= 0.0);
    let points = c["points"].as_array().expect("points");
    assert!(!points.is_empty());
    for p in points {
        vec3(p);
    }
    assert!(v["separated_boxes_overlap"].is_array());
}

// Nothing collides: exit 0; the one separated pair whose boxes overlap gets a plane that
// puts the first body's centre on its negative side and the second's on its positive side.
#[test]
fn apart_scene_exits_0_with_plane() {
    let o = check(&[&path("tests/scenes/apart.json"), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["colliding"].as_array().map(Vec::len), Some(0));
    let near = v["separated_boxes_overlap"].as_array().expect("array");
    assert_eq!(near.len(), 1, "{near:?}");
    assert_eq!(
        (&near[0]["a"], &near[0]["b"]),
        (&"tilted".into(), &"pebble".into())
    );
    let n = vec3(&near[0]["plane"]["normal"]);
    let d = near[0]["plane"]["d"].as_f64().expect("d");
    let side = |p: [f64; 3]| n[0] * p[0] + n[1] * p[1] + n[2] * p[2] + d;
    // tilted is centred at (0, 1.2, 0); pebble (radius 0.25) at (0.6, 0.75, 0).
    assert!(side([0.0, 1.2, 0.0]) < 0.0);
    assert!(
        side([0.6, 0.75, 0.0]) >= 0.25 - 1e-4,
        "the whole pebble is on the + side"
    );
    let text = check(&[&path("tests/scenes/apart.json")]);
    assert_eq!(text.status.code(), Some(0));
    assert!(stdout(&text).contains("0 colliding, 1 separated"));
}

// A misspelt shape kind: exit 2 and one line naming file:line:column and the expected kinds.
#[test]
fn malformed_scene_one_line_error() {
    let o = check(&[&path("tests/scenes/malformed.json")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("malformed.json:4:"), "{err}");
    assert!(
        err.contains("cube") && err.contains("expected one of"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

// A truncated file: exit 2, line and column, and a hint.
#[test]
fn truncated_scene() {
    let o = check(&[&path("tests/scenes/unclosed.json")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("unclosed.json:4:0:"), "{err}");
    assert!(err.contains("ends early"), "{err}");
}

// A missing file: exit 2, the file named.
#[test]
fn missing_file() {
    let o = check(&["/nonexistent/scene.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/scene.json: cannot read"));
}

// A glTF scene: every node with a mesh is a body; the two blocks resting in the floor block
// collide with it (exit 1), and the loose crate under the group node does not.
#[test]
fn gltf_scene() {
    let o = check(&[&path("../../examples/scenes/blocks.gltf"), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["bodies"], 4);
    let mut pairs: Vec<(String, String)> = v["colliding"]
        .as_array()
        .expect("array")
        .iter()
        .map(|p| {
            (
                p["a"].as_str().unwrap_or("").into(),
                p["b"].as_str().unwrap_or("").into(),
            )
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        vec![
            ("floor_block".to_string(), "crate".to_string()),
            ("floor_block".to_string(), "wedge".to_string())
        ]
    );
    // The crate (a unit cube at y = 1.45) sinks 0.05 into the block whose top is y = 1.
    let crate_pair = &v["colliding"][0];
    let depth = crate_pair["contact"]["depth"].as_f64().expect("depth");
    assert!((depth - 0.05).abs() < 1e-3, "depth {depth}");
    let n = vec3(&crate_pair["contact"]["normal"]);
    assert!((n[1] - 1.0).abs() < 1e-3, "normal {n:?}");
}

// Real meshes (hulls and convex pieces): the ball thrown at the duck hits it within the
// frame (a time of impact, no contact now); the ring and the crate overlap now.
#[test]
fn mesh_scene_with_impact() {
    let o = check(&[&path("../../examples/scenes/meshes.json"), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let hits = v["colliding"].as_array().expect("array");
    let ball = hits
        .iter()
        .find(|p| p["a"] == "duck" && p["b"] == "ball")
        .expect("the ball hits the duck");
    assert_eq!(ball["now"], false);
    assert!(ball["contact"].is_null());
    let toi = ball["impact"]["toi"].as_f64().expect("toi");
    assert!(toi > 0.0 && toi < 1.0, "toi {toi}");
    let ring = hits
        .iter()
        .find(|p| p["a"] == "ring" && p["b"] == "crate")
        .expect("ring × crate");
    assert_eq!(ring["now"], true);
    assert!(ring["contact"]["depth"].as_f64().expect("depth") > 0.0);
}

// A heightfield terrain with a hole: the ball resting on it touches (depth 0), the crate
// sunk 5 cm gets four points, the falling shot meets it at toi 0.3, and the pill falls
// through the hole untouched.
#[test]
fn heightfield_scene() {
    let o = check(&[&path("../../examples/scenes/terrain.json"), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let hits = v["colliding"].as_array().expect("array");
    let with = |name: &str| hits.iter().find(|p| p["a"] == "terrain" && p["b"] == name);
    let depth = |p: &Value| p["contact"]["depth"].as_f64().expect("depth");
    let ball = with("ball").expect("terrain × ball");
    assert!(depth(ball).abs() < 1e-5, "{ball}");
    assert_eq!(vec3(&ball["contact"]["normal"]), [0.0, 1.0, 0.0]);
    let crate_box = with("crate").expect("terrain × crate");
    assert!((depth(crate_box) - 0.05).abs() < 1e-4, "{crate_box}");
    assert_eq!(
        crate_box["contact"]["points"].as_array().map(Vec::len),
        Some(4)
    );
    let shot = with("shot").expect("terrain × shot");
    let toi = shot["impact"]["toi"].as_f64().expect("toi");
    assert!((toi - 0.3).abs() < 1e-4, "toi {toi}");
    assert!(with("pill").is_none(), "the pill falls through the hole");
}

// A mesh that cannot be read, or a part that does not exist: exit 2, one line naming the
// scene, the body and the file.
#[test]
fn mesh_errors() {
    for (scene, want) in [
        (
            "tests/scenes/missing_mesh.json",
            "no_such_mesh.obj: cannot read",
        ),
        ("tests/scenes/bad_part.json", "no part named \"wing\""),
    ] {
        let o = check(&[&path(scene)]);
        assert_eq!(o.status.code(), Some(2), "{scene}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(scene.rsplit('/').next().unwrap_or("")),
            "{err}"
        );
        assert!(err.contains("body \""), "{err}");
        assert!(err.contains(want), "{err}");
    }
}

// `"test": "volume"` decides by the bounding volumes alone (Lander's sample program): two
// spheres whose boxes overlap diagonally collide by volume though the spheres are apart, and
// the exact answer (a separating plane) is still reported beside it.
#[test]
fn volume_test_choice() {
    let o = check(&[&path("tests/scenes/volume_test.json"), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let hits = v["colliding"].as_array().expect("array");
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(
        (&hits[0]["a"], &hits[0]["b"]),
        (&"ball".into(), &"corner".into())
    );
    assert_eq!(hits[0]["test"], "volume");
    assert!(
        hits[0]["contact"].is_null(),
        "the spheres themselves do not touch"
    );
    assert!(hits[0]["plane"]["normal"].is_array());
}
