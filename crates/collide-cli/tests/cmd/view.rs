//! `collide view`: the server binds loopback, serves the page, answers the JSON API with the
//! library's verdicts, rejects bad requests with 4xx and a message; walks the walk mode's
//! character up a stair and into a wall through its endpoint; and, where a browser is
//! installed, the browser test drags a body into another and sees the collision on the page,
//! then walks the character with the keyboard.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_collide");

/// A running `collide view`, killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str]) -> Server {
    let mut child = Command::new(BIN)
        .args(["view", "--port", "0", "--exit-after", "60"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the collide binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a first line");
    let start = line.find("http://").expect("a URL on the first line");
    let url = line[start..].split_whitespace().next().expect("url");
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    Server { child, addr }
}

/// Sends raw bytes, returns (status, body).
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    // The server may answer and stop reading before a too-large request is all sent.
    let _ = s.write_all(request);
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (status, body)
}

fn get(addr: &str, path: &str) -> (u16, String) {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
    )
}

fn post(addr: &str, path: &str, body: &str) -> (u16, String) {
    raw(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

fn colliding(state: &Value) -> Vec<String> {
    state["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .filter(|p| p["colliding"] == true)
        .map(|p| {
            format!(
                "{}|{}",
                p["a"].as_str().unwrap_or(""),
                p["b"].as_str().unwrap_or("")
            )
        })
        .collect()
}

// Loopback only; the page and its script; the scene with meshes and volumes.
#[test]
fn serves_page_and_scene() {
    let s = start(&[]);
    assert!(s.addr.starts_with("127.0.0.1:"), "{}", s.addr);
    let (st, html) = get(&s.addr, "/");
    assert_eq!(st, 200);
    assert!(html.contains("<canvas") && html.contains("/app.js"));
    let (st, js) = get(&s.addr, "/app.js");
    assert_eq!(st, 200);
    assert!(js.contains("/api/pose"));
    let (st, body) = get(&s.addr, "/api/scene");
    assert_eq!(st, 200);
    let v: Value = serde_json::from_str(&body).expect("JSON");
    let bodies = v["bodies"].as_array().expect("bodies");
    assert!(bodies.len() >= 3);
    for b in bodies {
        let pos = b["mesh"]["positions"].as_array().expect("positions");
        let tri = b["mesh"]["triangles"].as_array().expect("triangles");
        assert!(!pos.is_empty() && pos.len() % 3 == 0 && tri.len() % 3 == 0);
        assert!(tri
            .iter()
            .all(|i| (i.as_u64().expect("index") as usize) < pos.len() / 3));
    }
    let st0 = &v["state"];
    for b in st0["bodies"].as_array().expect("state bodies") {
        for k in [
            "aabb_fast",
            "aabb_tight",
            "obb",
            "sphere",
            "position",
            "rotation",
        ] {
            assert!(!b[k].is_null(), "{k} missing");
        }
    }
    assert!(
        colliding(st0).is_empty(),
        "the built-in scene starts with nothing colliding"
    );
}

// Moving the ball onto the crate makes that pair collide, with contact data; reset undoes it.
#[test]
fn pose_then_reset() {
    let s = start(&[]);
    let (_, body) = get(&s.addr, "/api/scene");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    let crate_pos = v["state"]["bodies"][0]["position"].clone();
    assert_eq!(v["state"]["bodies"][0]["name"], "crate");
    let (st, body) = post(
        &s.addr,
        "/api/pose",
        &format!(r#"{{"body": "ball", "position": {crate_pos}, "rotation": [0, 0, 0, 1]}}"#),
    );
    assert_eq!(st, 200, "{body}");
    let state: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(colliding(&state), vec!["crate|ball".to_string()]);
    let pair = &state["pairs"].as_array().expect("pairs")[0];
    assert_eq!(pair["tests"]["exact"], true);
    assert!(pair["contact"]["normal"].is_array());
    let (st, body) = post(&s.addr, "/api/reset", "");
    assert_eq!(st, 200);
    let state: Value = serde_json::from_str(&body).expect("JSON");
    assert!(colliding(&state).is_empty());
}

// Bad requests: 4xx with a JSON message, and the server keeps serving.
#[test]
fn bad_requests_get_4xx() {
    let s = start(&[]);
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (
            b"POST /api/pose HTTP/1.1\r\nContent-Length: 5\r\n\r\n{bad}".to_vec(),
            400,
            "not JSON",
        ),
        (
            br#"POST /api/pose HTTP/1.1
Content-Length: 18

{"body": "nobody"}"#
                .iter()
                .flat_map(|&c| {
                    if c == b'\n' {
                        vec![b'\r', b'\n']
                    } else {
                        vec![c]
                    }
                })
                .collect(),
            404,
            "no body named",
        ),
        (b"GET /nope HTTP/1.1\r\n\r\n".to_vec(), 404, "no such page"),
        (
            b"GET /api/pose HTTP/1.1\r\n\r\n".to_vec(),
            405,
            "takes POST",
        ),
        (
            b"POST /api/pose HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n".to_vec(),
            413,
            "limit",
        ),
        (b"garbage\r\n\r\n".to_vec(), 400, "request line"),
        (b"GET / SPDY/3\r\n\r\n".to_vec(), 505, "HTTP/1.x"),
    ];
    for (req, status, msg) in cases {
        let (st, body) = raw(&s.addr, &req);
        assert_eq!(st, status, "{}", String::from_utf8_lossy(&req));
        let v: Value = serde_json::from_str(&body).expect("a JSON error body");
        let e = v["error"].as_str().expect("an error message");
        assert!(e.contains(msg), "{e}");
    }
    let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(40_000));
    assert_eq!(raw(&s.addr, huge.as_bytes()).0, 431);
    for bad in [
        r#"{"body": "ball", "position": [1, 2]}"#,
        r#"{"body": "ball", "rotation": [0, 0, 0, 0]}"#,
        r#"{"position": [1, 2, 3]}"#,
    ] {
        assert_eq!(post(&s.addr, "/api/pose", bad).0, 400, "{bad}");
    }
    assert_eq!(get(&s.addr, "/api/scene").0, 200, "still serving");
}

// A scene file given on the command line is served; a malformed one is a one-line error.
#[test]
fn scene_argument() {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenes/apart.json");
    let s = start(&[scene]);
    let (_, body) = get(&s.addr, "/api/scene");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["bodies"].as_array().map(Vec::len), Some(5));
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenes/malformed.json");
    let o = Command::new(BIN)
        .args(["view", bad, "--exit-after", "5"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1);
    assert!(err.contains("malformed.json:4:"));
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("[x, y, z]");
    [0, 1, 2].map(|k| a[k].as_f64().expect("a number"))
}

fn names(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list of names")
        .iter()
        .map(|n| n.as_str().expect("a name"))
        .collect()
}

/// One walk tick over HTTP: the character's state after it.
fn walk_tick(addr: &str, heading: [f32; 2]) -> Value {
    let body = format!(
        r#"{{"heading": [{}, {}], "jump": false, "dt": {}}}"#,
        heading[0],
        heading[1],
        1.0 / 60.0
    );
    let (st, reply) = post(addr, "/api/walk", &body);
    assert_eq!(st, 200, "{reply}");
    serde_json::from_str(&reply).expect("JSON")
}

// `--walk` serves the walk level (its fixed pieces are never paired) in walk mode; the
// character endpoint walks the capsule up the stair by its 0.8 m and stops it a skin from the
// wall, the wall hit; moving the wall away lets it walk on; bad ticks get 400.
#[test]
fn walk_endpoint_climbs_the_stair_and_stops_at_the_wall() {
    let s = start(&["--walk"]);
    let (_, body) = get(&s.addr, "/api/scene");
    let scene: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(scene["walk"]["start"], true);
    assert_eq!(scene["label"], "built-in walk level");
    assert!(
        scene["state"]["pairs"]
            .as_array()
            .expect("pairs")
            .is_empty(),
        "{}",
        scene["state"]["pairs"]
    );

    let (st, reply) = post(&s.addr, "/api/walk", r#"{"heading": [0, -1], "dt": 0.016}"#);
    assert_eq!(st, 409, "a tick before the start: {reply}");

    let (st, reply) = post(&s.addr, "/api/walk/start", "");
    assert_eq!(st, 200, "{reply}");
    let spawn: Value = serde_json::from_str(&reply).expect("JSON");
    assert_eq!(spawn["grounded"], true);
    assert_eq!(names(&spawn["touching"]), ["ground"]);
    let (radius, skin) = (
        spawn["radius"].as_f64().expect("radius"),
        spawn["skin"].as_f64().expect("skin"),
    );
    let y0 = vec3(&spawn["position"])[1];

    let ticks: Vec<Value> = (0..150).map(|_| walk_tick(&s.addr, [0.0, -1.0])).collect();
    let on_landing = ticks
        .iter()
        .find(|t| vec3(&t["position"])[2] < -2.6)
        .expect("reaches the landing");
    assert_eq!(on_landing["grounded"], true);
    let rise = vec3(&on_landing["position"])[1] - y0;
    assert!((rise - 0.8).abs() < 0.01, "rose {rise}");
    let normal = vec3(&on_landing["ground_normal"]);
    assert!(normal[1] > 0.9999, "ground normal {normal:?}");

    let wall_face = -4.6;
    for t in &ticks[130..] {
        let gap = vec3(&t["position"])[2] - radius - wall_face;
        assert!((gap - skin).abs() < 2e-3, "gap {gap}: {t}");
        assert_eq!(names(&t["hit"]), ["wall"]);
        assert!(names(&t["touching"]).contains(&"wall"));
    }

    let (st, reply) = post(
        &s.addr,
        "/api/pose",
        r#"{"body": "wall", "position": [0, 2, -20]}"#,
    );
    assert_eq!(st, 200, "{reply}");
    let on = walk_tick(&s.addr, [0.0, -1.0]);
    assert!(vec3(&on["position"])[2] < wall_face + radius, "{on}");
    assert!(names(&on["hit"]).is_empty(), "{on}");

    for bad in [
        r#"{"heading": [0], "dt": 0.016}"#,
        r#"{"heading": [0, "x"], "dt": 0.016}"#,
        r#"{"heading": [0, 1], "dt": -1}"#,
        r#"{"heading": [0, 1]}"#,
        r#"{"heading": [0, 1], "dt": 0.016, "jump": "yes"}"#,
        "not json",
    ] {
        let (st, reply) = post(&s.addr, "/api/walk", bad);
        assert_eq!(st, 400, "{bad}: {reply}");
        assert!(reply.contains("error"), "{reply}");
    }
}

// The browser scenarios (tests/browser/view.test.mjs: drag, then walk) in Debian's chromium,
// when installed.
#[test]
fn browser_drag_and_walk() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let reason = if !Path::new(&chromium).exists() {
        Some(format!("no browser at {chromium}"))
    } else if !Path::new(dir).join("node_modules/playwright-core").exists() {
        Some(format!(
            "playwright-core is not installed (npm ci in {dir})"
        ))
    } else if Command::new("node").arg("--version").output().is_err() {
        Some("node is not installed".to_string())
    } else {
        None
    };
    if let Some(why) = reason {
        println!("SKIPPED browser_drag_and_walk: {why}");
        eprintln!("SKIPPED browser_drag_and_walk: {why}");
        return;
    }
    let o = Command::new("node")
        .arg("view.test.mjs")
        .current_dir(dir)
        .env("COLLIDE_BIN", BIN)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    let out = String::from_utf8_lossy(&o.stdout);
    println!("{out}");
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("0 failed"));
}
