//! `collide demo`: the arena run end to end — JSON shape, stage counts that narrow down,
//! the same run for the same seed, the final-frame picture, and bad arguments.

use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn demo(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("demo")
        .args(args)
        .output()
        .expect("the collide binary runs")
}

fn json(args: &[&str]) -> Value {
    let o = demo(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

// A small run: the documented keys; every stage passes on at most what it received; the
// projectiles are swept, and hit things.
#[test]
fn json_summary() {
    let v = json(&["--bodies", "400", "--frames", "20", "--seed", "3", "--json"]);
    assert_eq!(v["bodies"], 400);
    assert_eq!(v["frames"], 20);
    let kinds = v["kinds"].as_array().expect("kinds");
    let total: u64 = kinds.iter().map(|k| k[1].as_u64().expect("count")).sum();
    assert_eq!(total, 400);
    let m = &v["mean_per_frame"];
    let f = |k: &str| m[k].as_f64().expect(k);
    assert!(f("broad_pairs") >= f("sphere_pairs"));
    assert!(f("sphere_pairs") >= f("obb_pairs"));
    assert!(f("collisions") > 0.0 && f("collisions") <= f("sphere_pairs"));
    assert!(f("fast_bodies") > 0.0, "the projectiles are swept");
    let t = &v["totals"];
    let impacts = t["impacts"].as_u64().expect("impacts");
    assert!(impacts > 0);
    assert!(t["tunnelling_prevented"].as_u64().expect("tunnelling") <= impacts);
    let rate = v["sat_cache_hit_rate"].as_f64().expect("rate");
    assert!((0.0..=1.0).contains(&rate));
    assert_eq!(v["collisions_per_frame"].as_array().map(Vec::len), Some(20));
}

// The same seed gives the same run; another seed another.
#[test]
fn seeded() {
    let a = json(&["--bodies", "150", "--frames", "12", "--seed", "9", "--json"]);
    let b = json(&["--bodies", "150", "--frames", "12", "--seed", "9", "--json"]);
    let c = json(&[
        "--bodies", "150", "--frames", "12", "--seed", "10", "--json",
    ]);
    assert_eq!(a["collisions_per_frame"], b["collisions_per_frame"]);
    // Everything but the timings.
    let counts = |v: &Value| {
        let mut t = v["totals"].clone();
        t.as_object_mut().map(|o| o.remove("update_us"));
        t
    };
    assert_eq!(counts(&a), counts(&b));
    assert_ne!(counts(&a), counts(&c));
}

// --png writes a picture of the final frame; the text summary names the stages.
#[test]
fn text_and_png() {
    let dir = std::env::temp_dir().join(format!("collide-demo-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png = dir.join("final.png");
    let o = demo(&[
        "--bodies",
        "120",
        "--frames",
        "5",
        "--png",
        png.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    for word in [
        "broad phase",
        "OBBs",
        "separating-axis cache",
        "tunnelling",
        "time per frame",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
    let pix = tiny_skia::Pixmap::load_png(&png).expect("a PNG");
    assert_eq!((pix.width(), pix.height()), (1200, 900));
}

// Bad arguments: exit 2 with one line.
#[test]
fn bad_arguments() {
    for args in [
        vec!["--bodies", "1"],
        vec!["--bodies", "20001"],
        vec!["--frames", "0"],
        vec![
            "--frames",
            "10",
            "--bodies",
            "10",
            "--png",
            "/nonexistent/dir/x.png",
        ],
    ] {
        let o = demo(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}
