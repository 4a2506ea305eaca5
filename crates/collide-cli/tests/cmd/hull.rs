//! `collide hull` end to end: statistics, the written OBJ read back, and one-line errors.

use std::process::Command;

fn collide() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collide"))
}

fn mesh(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn hull_of_the_bunny_written_and_read_back() {
    // The hull is written as OBJ; loading it back and hulling again gives the same counts.
    let out = std::env::temp_dir().join(format!("collide_hull_test_{}.obj", std::process::id()));
    let o = collide()
        .args(["hull", &mesh("bunny.obj"), "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("453 vertices, 902 triangles, 1 part"),
        "{text}"
    );
    assert!(text.contains("valid (V - E + F = 2)"), "{text}");
    let back = collide::io::load(&out).unwrap();
    let h = collide::convex::ConvexHull::try_new(&back.merged().vertices).unwrap();
    h.validate().unwrap();
    let line = text.lines().find(|l| l.starts_with("hull:")).unwrap();
    assert!(
        line.contains(&format!(
            "{} vertices, {} faces",
            h.vertices().len(),
            h.faces().len()
        )),
        "{line}"
    );
    std::fs::remove_file(&out).ok();
}

#[test]
fn parts_of_a_decomposition() {
    // --parts prints one valid hull per `o` group.
    let o = collide()
        .args(["hull", &mesh("duck_vhacd.obj"), "--parts"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("part ")).count(),
        5,
        "{text}"
    );
    assert!(!text.contains("INVALID"), "{text}");
}

#[test]
fn errors_are_one_line_exit_2() {
    // A missing file and a flat mesh: one line on stderr, exit code 2.
    let o = collide()
        .args(["hull", "/nonexistent/x.obj"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim().lines().count(), 1);
    let flat = std::env::temp_dir().join(format!("collide_flat_{}.obj", std::process::id()));
    std::fs::write(
        &flat,
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n",
    )
    .unwrap();
    let o = collide().arg("hull").arg(&flat).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("one plane") && err.trim().lines().count() == 1,
        "{err}"
    );
    std::fs::remove_file(&flat).ok();
}
