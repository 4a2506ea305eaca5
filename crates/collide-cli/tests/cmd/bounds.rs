//! `collide bounds` end to end: text and JSON on real meshes, one-line errors with exit 2.

use std::process::{Command, Output};

const MESHES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../collide/tests/data/");

fn bounds(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collide"))
        .arg("bounds")
        .args(args)
        .output()
        .expect("run collide")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn text_report_on_the_bunny() {
    let o = bounds(&[&format!("{MESHES}bunny.obj")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = stdout(&o);
    assert!(s.contains("1 part, 453 vertices, 902 triangles"), "{s}");
    assert!(s.contains("part bunny: 453 vertices, 902 triangles"), "{s}");
    assert!(s.contains("whole model: 453 vertices"), "{s}");
    for word in [
        "AABB",
        "OBB (fitted)",
        "of the AABB",
        "sphere Ritter",
        "sphere exact",
        "ms",
    ] {
        assert!(s.contains(word), "missing {word}: {s}");
    }
}

#[test]
fn json_report_on_parts() {
    let o = bounds(&[&format!("{MESHES}duck_vhacd.obj"), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 5);
    assert_eq!(parts[0]["name"], "convex_0");
    let model = &v["model"];
    assert_eq!(model["vertices"], 208);
    assert_eq!(model["triangles"], 396);
    let total: u64 = parts.iter().map(|p| p["triangles"].as_u64().unwrap()).sum();
    assert_eq!(total, 396);
    for r in parts.iter().chain([model]) {
        let aabb = r["aabb"]["volume"].as_f64().unwrap();
        let obb = r["obb"]["volume"].as_f64().unwrap();
        let pca = r["obb_pca"]["volume"].as_f64().unwrap();
        assert!(
            obb <= pca * (1.0 + 1e-6) && obb <= aabb * (1.0 + 1e-6),
            "{r}"
        );
        let ratio = r["obb"]["volume_ratio_to_aabb"].as_f64().unwrap();
        assert!((ratio - obb / aabb).abs() < 1e-4, "{r}");
        let ritter = r["sphere_ritter"]["radius"].as_f64().unwrap();
        let exact = r["sphere_exact"]["radius"].as_f64().unwrap();
        assert!(exact <= ritter * (1.0 + 1e-6), "{r}");
        assert!(r["time_ms"]["total"].as_f64().unwrap() >= 0.0);
        assert_eq!(r["obb"]["axes"].as_array().unwrap().len(), 3);
    }
}

#[test]
fn stl_file() {
    let o = bounds(&[&format!("{MESHES}racecar_chassis.stl"), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["model"]["triangles"], 324);
}

#[test]
fn bad_files_give_one_line_and_exit_2() {
    let cases = [
        (
            format!("{DATA}bad_index.obj"),
            "bad_index.obj:6: face index 999 out of range (3 vertices)",
        ),
        (format!("{DATA}truncated.stl"), "truncated"),
        (format!("{DATA}unknown.ply"), "unknown mesh format"),
        (format!("{DATA}does_not_exist.obj"), "cannot read"),
        (format!("{DATA}empty.obj"), "no triangles"),
    ];
    for (file, want) in cases {
        let o = bounds(&[&file]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(want), "{err}");
        assert!(o.stdout.is_empty());
    }
}
