//! One narrow phase: `check`, `render` and `view` give, for every scene in the
//! repository and for seeded random scenes, exactly the verdicts of `collide::world::World`
//! asked directly (the scene converted by `io::scene`, then `World::evaluate` over one
//! frame): which pairs collide now or within the frame, contact normal and depth, time of
//! impact, and which separated pairs have touching boxes. (`demo` runs its arena through the
//! world frame by frame; its agreement with `World::evaluate` is the unit test
//! `world_contacts_match_scene_evaluation` in src/arena.rs, since the arena is not a file.)

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use collide::io::scene::{Models, Scene, TestChoice};
use collide::world::{PairVerdict, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// What the library says about a scene, by pair of names.
struct Reference {
    names: Vec<String>,
    volume: Vec<bool>,
    verdicts: BTreeMap<(String, String), PairVerdict>,
}

impl Reference {
    fn of(scene: &Path) -> Option<Reference> {
        let s = Scene::load(scene).ok()?;
        let bodies = s.to_world(&mut Models::new()).ok()?;
        let mut world = World::default();
        for b in bodies {
            world
                .add_body(b)
                .expect("a scene body is a valid world body");
        }
        let names: Vec<String> = s.bodies.iter().map(|b| b.name.clone()).collect();
        let verdicts = world
            .evaluate(1.0)
            .into_iter()
            .map(|v| {
                let key = (names[v.a.0 as usize].clone(), names[v.b.0 as usize].clone());
                (key, v)
            })
            .collect();
        Some(Reference {
            volume: s
                .bodies
                .iter()
                .map(|b| b.test == TestChoice::Volume)
                .collect(),
            names,
            verdicts,
        })
    }

    fn by_volume(&self, key: &(String, String)) -> bool {
        let i = |n: &str| self.names.iter().position(|x| x == n).expect("a body");
        self.volume[i(&key.0)] || self.volume[i(&key.1)]
    }

    /// Pairs that collide now or within the frame by the shapes (volume-test pairs left out:
    /// their verdict is the program's bounding-volume choice).
    fn colliding(&self) -> BTreeSet<(String, String)> {
        self.verdicts
            .iter()
            .filter(|(k, v)| !self.by_volume(k) && (v.contact.is_some() || v.impact.is_some()))
            .map(|(k, _)| k.clone())
            .collect()
    }
}

fn pair_key(p: &Value) -> (String, String) {
    (
        p["a"].as_str().expect("a").to_string(),
        p["b"].as_str().expect("b").to_string(),
    )
}

fn f(v: &Value) -> f32 {
    v.as_f64().expect("a number") as f32
}

fn v3(v: &Value) -> [f32; 3] {
    let a = v.as_array().expect("[x, y, z]");
    [f(&a[0]), f(&a[1]), f(&a[2])]
}

/// The JSON contact and impact of a pair equal the world's, to the last bit (the program
/// prints each f32 in its shortest round-tripping form).
fn same_contact_and_impact(what: &str, key: &(String, String), p: &Value, v: &PairVerdict) {
    match (&v.contact, p["contact"].is_null()) {
        (None, true) => {}
        (Some(c), false) => {
            assert_eq!(
                v3(&p["contact"]["normal"]),
                c.normal.to_array(),
                "{what} {key:?}"
            );
            assert_eq!(f(&p["contact"]["depth"]), c.depth, "{what} {key:?}");
            let points = p["contact"]["points"].as_array().expect("points");
            assert_eq!(points.len(), c.points().len(), "{what} {key:?}");
        }
        (c, _) => panic!(
            "{what} {key:?}: world contact {c:?}, program {}",
            p["contact"]
        ),
    }
    match (&v.impact, p["impact"].is_null()) {
        (None, true) => {}
        (Some(i), false) => {
            assert_eq!(f(&p["impact"]["toi"]), i.toi, "{what} {key:?}");
            assert_eq!(
                v3(&p["impact"]["normal"]),
                i.normal.to_array(),
                "{what} {key:?}"
            );
        }
        (i, _) => panic!(
            "{what} {key:?}: world impact {i:?}, program {}",
            p["impact"]
        ),
    }
}

/// `collide check --json` agrees with the world; returns the pairs it calls colliding.
fn check_agrees(scene: &Path, r: &Reference) -> usize {
    let o = Command::new(BIN)
        .args(["check", "--json"])
        .arg(scene)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let hits = v["colliding"].as_array().expect("colliding");
    assert_eq!(o.status.code(), Some(i32::from(!hits.is_empty())));
    let mut exact_hits = BTreeSet::new();
    for p in hits {
        let key = pair_key(p);
        let w = r.verdicts.get(&key);
        if !r.by_volume(&key) {
            exact_hits.insert(key.clone());
        }
        if let Some(w) = w {
            same_contact_and_impact("check", &key, p, w);
        }
    }
    assert_eq!(exact_hits, r.colliding(), "check {}", scene.display());
    // Separated pairs with touching boxes: the world's, each with its plane when it has one.
    let near: BTreeSet<(String, String)> = v["separated_boxes_overlap"]
        .as_array()
        .expect("near")
        .iter()
        .map(|p| {
            let key = pair_key(p);
            let w = &r.verdicts[&key];
            let plane = w.separation.and_then(|s| s.plane);
            assert_eq!(p["plane"].is_null(), plane.is_none(), "check {key:?}");
            if let Some(pl) = plane {
                assert_eq!(v3(&p["plane"]["normal"]), pl.normal.to_array());
            }
            key
        })
        .collect();
    let want: BTreeSet<(String, String)> = r
        .verdicts
        .iter()
        .filter(|(k, v)| {
            v.boxes_touch && !hits.iter().any(|p| pair_key(p) == **k) && v.impact.is_none()
        })
        .map(|(k, _)| k.clone())
        .collect();
    assert_eq!(near, want, "check near {}", scene.display());
    hits.len()
}

/// `collide render` names (and draws red) the same colliding pairs as the world.
fn render_agrees(scene: &Path, r: &Reference, out: &Path) {
    let o = Command::new(BIN)
        .arg("render")
        .arg(scene)
        .arg("-o")
        .arg(out)
        .args(["--size", "64x48"])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let named: BTreeSet<(String, String)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("collide  "))
        .map(|l| {
            let (a, b) = l.split_once(" × ").expect("a × b");
            (a.to_string(), b.to_string())
        })
        .filter(|k| !r.by_volume(k))
        .collect();
    assert_eq!(named, r.colliding(), "render {}", scene.display());
}

/// A running `collide view`, killed on drop.
struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn view_state(scene: &Path) -> Value {
    let mut child = Command::new(BIN)
        .args(["view", "--port", "0", "--exit-after", "60"])
        .arg(scene)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a first line");
    let url = &line[line.find("http://").expect("a URL")..];
    let addr = url
        .split_whitespace()
        .next()
        .expect("url")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let server = Server(child, addr);
    let mut s = TcpStream::connect(&server.1).expect("connect");
    s.write_all(b"GET /api/scene HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let body = out.split_once("\r\n\r\n").expect("a body").1;
    let v: Value = serde_json::from_str(body).expect("JSON");
    v["state"].clone()
}

/// `collide view`'s state: every pair with touching boxes or a collision, each with the
/// world's contact and impact; `colliding` is the contact now.
fn view_agrees(scene: &Path, r: &Reference) {
    let state = view_state(scene);
    let pairs = state["pairs"].as_array().expect("pairs");
    let mut listed = BTreeSet::new();
    for p in pairs {
        let key = pair_key(p);
        let Some(w) = r.verdicts.get(&key) else {
            // A volume-test pair whose bounding volume reaches past the boxes.
            assert!(r.by_volume(&key), "view {key:?}: not a world pair");
            continue;
        };
        same_contact_and_impact("view", &key, p, w);
        if !r.by_volume(&key) {
            assert_eq!(p["colliding"], w.contact.is_some(), "view {key:?}");
        }
        assert_eq!(p["tests"]["exact"], w.contact.is_some(), "view {key:?}");
        listed.insert(key);
    }
    let want: BTreeSet<(String, String)> = r
        .verdicts
        .iter()
        .filter(|(k, v)| {
            !r.by_volume(k) && (v.boxes_touch || v.contact.is_some() || v.impact.is_some())
        })
        .map(|(k, _)| k.clone())
        .collect();
    assert!(
        want.is_subset(&listed),
        "view {}: {want:?} vs {listed:?}",
        scene.display()
    );
}

/// A random scene of primitives and meshes (absolute mesh paths), crowded so that many pairs
/// touch, some bodies moving.
fn random_scene(rng: &mut ChaCha8Rng, n: usize) -> String {
    let meshes = manifest("../../assets/meshes");
    let bodies: Vec<String> = (0..n)
        .map(|i| {
            let shape = match rng.random_range(0..6) {
                0 => format!(r#"{{"sphere": {{"radius": {}}}}}"#, rng.random_range(0.2..0.9)),
                1 => format!(
                    r#"{{"box": {{"half_extents": [{}, {}, {}]}}}}"#,
                    rng.random_range(0.1..0.8),
                    rng.random_range(0.1..0.8),
                    rng.random_range(0.1..0.8)
                ),
                2 => format!(
                    r#"{{"capsule": {{"half_height": {}, "radius": {}}}}}"#,
                    rng.random_range(0.0..0.8),
                    rng.random_range(0.1..0.5)
                ),
                3 => format!(
                    r#"{{"mesh": {{"path": "{}", "convex": "hull", "scale": {}}}}}"#,
                    meshes.join("bunny.obj").display(),
                    rng.random_range(0.5..1.5)
                ),
                4 => format!(
                    r#"{{"mesh": {{"path": "{}", "convex": "pieces", "scale": {}}}}}"#,
                    meshes.join("duck_vhacd.obj").display(),
                    rng.random_range(0.5..1.2)
                ),
                _ => format!(
                    r#"{{"mesh": {{"path": "{}", "convex": "pieces", "scale": 1.2, "origin": [0.68, 0.66, 0.32]}}}}"#,
                    meshes.join("teddy2_VHACD_CHs.obj").display()
                ),
            };
            let p: [f32; 3] = std::array::from_fn(|_| rng.random_range(-2.5..2.5));
            let e: [f32; 3] = std::array::from_fn(|_| rng.random_range(-180.0..180.0));
            let velocity = if rng.random_range(0..3) == 0 {
                let v: [f32; 3] = std::array::from_fn(|_| rng.random_range(-4.0..4.0));
                format!(r#", "velocity": [{}, {}, {}]"#, v[0], v[1], v[2])
            } else {
                String::new()
            };
            let bounding = ["aabb", "tight_aabb", "obb", "sphere"][rng.random_range(0..4)];
            let test = if rng.random_range(0..10) == 0 { "volume" } else { "exact" };
            format!(
                r#"{{"name": "b{i}", "shape": {shape}, "position": [{}, {}, {}], "rotation": {{"euler_deg": [{}, {}, {}]}}{velocity}, "bounding": "{bounding}", "test": "{test}"}}"#,
                p[0], p[1], p[2], e[0], e[1], e[2]
            )
        })
        .collect();
    format!("{{\"bodies\": [\n{}\n]}}\n", bodies.join(",\n"))
}

fn scenes_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a scene directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "gltf" | "glb")
            )
        })
        .collect();
    out.sort();
    out
}

// Every scene of the repository: the ones that load agree in check, render and view; the
// ones that do not are refused by the program (exit 2) as by the library.
#[test]
fn repository_scenes_agree_with_the_world() {
    let tmp = std::env::temp_dir().join(format!("collide-verdicts-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut scenes = scenes_in(&manifest("../../examples/scenes"));
    scenes.extend(scenes_in(&manifest("tests/scenes")));
    let (mut loaded, mut pairs, mut hits) = (0, 0, 0);
    for scene in &scenes {
        let Some(r) = Reference::of(scene) else {
            let o = Command::new(BIN)
                .arg("check")
                .arg(scene)
                .output()
                .expect("runs");
            assert_eq!(o.status.code(), Some(2), "{}", scene.display());
            continue;
        };
        loaded += 1;
        pairs += r.verdicts.len();
        hits += check_agrees(scene, &r);
        render_agrees(scene, &r, &tmp.join("r.png"));
        view_agrees(scene, &r);
    }
    println!(
        "repository scenes: {loaded} of {} load; {pairs} pair verdicts, {hits} colliding",
        scenes.len()
    );
    assert!(
        loaded >= 5 && pairs >= 12 && hits >= 6,
        "{loaded} {pairs} {hits}"
    );
}

// Seeded random scenes of every shape kind, bounding choice and test choice.
#[test]
fn random_scenes_agree_with_the_world() {
    let tmp = std::env::temp_dir().join(format!("collide-verdicts-rand-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut pairs, mut hits, mut impacts) = (0, 0, 0);
    for k in 0..20 {
        let scene = tmp.join(format!("random{k}.json"));
        std::fs::write(&scene, random_scene(&mut rng, 12)).expect("write");
        let r = Reference::of(&scene).expect("a random scene loads");
        pairs += r.verdicts.len();
        impacts += r.verdicts.values().filter(|v| v.impact.is_some()).count();
        hits += check_agrees(&scene, &r);
        render_agrees(&scene, &r, &tmp.join("r.png"));
        view_agrees(&scene, &r);
    }
    println!("random scenes: 20; {pairs} pair verdicts, {hits} colliding, {impacts} impacts");
    assert!(
        pairs > 250 && hits > 80 && impacts > 40,
        "{pairs} {hits} {impacts}"
    );
}
