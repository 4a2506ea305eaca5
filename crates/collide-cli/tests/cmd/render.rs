//! `collide render` on the scene files in the repository: a PNG of the requested size with
//! the colliding pair drawn in red, and one-line errors for bad options.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn render(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("render")
        .args(args)
        .output()
        .expect("the collide binary runs")
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("collide-render-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Pixels that are clearly the colliding red (any shade of it), not a palette colour.
fn red_pixels(png: &std::path::Path) -> (u32, u32, usize) {
    let pix = tiny_skia::Pixmap::load_png(png).expect("a PNG tiny-skia reads");
    let n = pix
        .pixels()
        .iter()
        .filter(|p| {
            let (r, g, b) = (p.red() as f32, p.green() as f32, p.blue() as f32);
            r > 80.0 && r > 2.5 * g && r > 2.5 * b
        })
        .count();
    (pix.width(), pix.height(), n)
}

// The colliding example: a PNG of the asked size with plenty of red.
#[test]
fn colliding_pair_is_red() {
    let out = tmp("prims.png");
    let o = render(&[
        &path("../../examples/scenes/primitives.json"),
        "-o",
        out.to_str().expect("utf-8 path"),
        "--size",
        "320x200",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, h, red) = red_pixels(&out);
    assert_eq!((w, h), (320, 200));
    assert!(red > 500, "only {red} red pixels");
}

// Nothing collides: no red at all, in every view and both projections.
#[test]
fn apart_scene_has_no_red() {
    for (i, view) in ["iso", "top", "front", "side"].iter().enumerate() {
        let out = tmp(&format!("apart{i}.png"));
        let mut args = vec![
            path("tests/scenes/apart.json"),
            "-o".into(),
            out.to_str().expect("utf-8").into(),
            "--size".into(),
            "200x150".into(),
            "--view".into(),
            view.to_string(),
        ];
        if i % 2 == 1 {
            args.push("--perspective".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = render(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (_, _, red) = red_pixels(&out);
        assert_eq!(red, 0, "view {view}");
    }
}

// Bad options and bad scenes: exit 2 with one line.
#[test]
fn bad_input() {
    let out = tmp("bad.png");
    let out = out.to_str().expect("utf-8");
    let scene = path("../../examples/scenes/primitives.json");
    for args in [
        vec![scene.as_str(), "-o", out, "--size", "0x10"],
        vec![scene.as_str(), "-o", out, "--show", "aabb,wat"],
        vec![scene.as_str(), "-o", "/nonexistent/dir/x.png"],
    ] {
        let o = render(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.trim().is_empty(), "{args:?}");
    }
    let malformed = path("tests/scenes/malformed.json");
    let o = render(&[&malformed, "-o", out]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1);
    assert!(err.contains("malformed.json:4:"), "{err}");
}
