//! `collide view [SCENE]`: a local web server on 127.0.0.1 serving one page (built into the
//! binary) that draws the scene in 3-D and lets the user drag bodies about, or walk a capsule
//! character through it (walk mode); every change is computed by the library through a small
//! JSON API:
//!
//! - `GET /api/scene`: the bodies' rest-frame meshes and hulls, and the current state.
//! - `POST /api/pose` `{"body": NAME, "position": [x, y, z], "rotation": [x, y, z, w]}` (either
//!   field may be left out): moves a body and returns the new state.
//! - `POST /api/reset`: puts every body back where the scene file has it; returns the state.
//! - `POST /api/walk/start`: walk mode: puts a capsule character above the scene's centre,
//!   dropped onto what is below ([`crate::walk::Walker`]); returns the character's state.
//! - `POST /api/walk` `{"heading": [x, z], "jump": BOOL, "dt": SECONDS}`: one tick of the
//!   character (walk along the heading, jump, fall), moved by the library's character
//!   controller through the scene's bodies; returns the character's state: `position`,
//!   `grounded`, `ground_normal`, the bodies it `hit` this tick and those it is `touching`.
//!
//! The state lists every body's pose and bounding volumes (fast and tight AABB, OBB, sphere)
//! and every pair whose fast boxes overlap or that collides, with which volume tests pass,
//! contact data, the separating plane and the time of impact.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use collide::io::scene::{BoundingChoice, Scene};
use collide::shapes::{Aabb, Obb, Sphere};
use collide::{Quat, Vec3};
use serde_json::{json, Value};

use super::check::{contact_json, impact_json, num, v3};
use crate::scene::{self, Body, PairReport, Stage};
use crate::tess::{TriList, Wire};
use crate::walk::{WalkInput, WalkStep, Walker};
use crate::CliError;

/// Arguments of `collide view`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scene to show (JSON or glTF), or a mesh file (OBJ, STL) shown as its convex pieces,
    /// one per `o` group (what `collide decompose` writes); a built-in scene when left out.
    pub scene: Option<PathBuf>,
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Stop serving after this many seconds (for tests and scripts).
    #[arg(long, value_name = "SECONDS")]
    pub exit_after: Option<f64>,
    /// Start in walk mode: drive a capsule with W, A, S, D and Space. Without SCENE, on the
    /// built-in walk level (ground, a stair of 0.2 m steps, a wall).
    #[arg(long)]
    pub walk: bool,
}

/// The page and its script, built into the binary.
const INDEX_HTML: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");

/// The scene shown when no file is given: a few primitives on a row, some touching.
pub const BUILTIN_SCENE: &str = include_str!("../web/builtin_scene.json");

/// The level `--walk` shows when no file is given: ground, a stair of four 0.2 m steps up to
/// a landing, and a wall at the landing's far end.
pub const WALK_LEVEL: &str = include_str!("../web/walk_level.json");

/// Meshes of the built-in scene, built into the binary.
const BUILTIN_MESHES: [(&str, &str); 2] = [
    (
        "bunny.obj",
        include_str!("../../../../assets/meshes/bunny.obj"),
    ),
    (
        "duck_vhacd.obj",
        include_str!("../../../../assets/meshes/duck_vhacd.obj"),
    ),
];

/// The built-in scene, its meshes read from the binary rather than from files.
pub fn builtin_world() -> Result<Stage, CliError> {
    let base = std::path::Path::new("<built-in>");
    let scene = Scene::from_json_str(
        BUILTIN_SCENE,
        std::path::Path::new("<built-in scene>"),
        base,
    )
    .map_err(|e| CliError::new(e.to_string()))?;
    let mut cache = scene::MeshCache::new();
    for (name, text) in BUILTIN_MESHES {
        let model =
            collide::io::load_obj_str(text, name).map_err(|e| CliError::new(e.to_string()))?;
        cache.insert(base.join(name), model);
    }
    Stage::from_scene_with(&scene, &mut cache)
}

/// The built-in walk level.
pub fn walk_level() -> Result<Stage, CliError> {
    let scene = Scene::from_json_str(
        WALK_LEVEL,
        std::path::Path::new("<built-in walk level>"),
        std::path::Path::new("<built-in>"),
    )
    .map_err(|e| CliError::new(e.to_string()))?;
    Stage::from_scene(&scene)
}

/// `true` for a mesh file (OBJ, STL) rather than a scene.
fn is_mesh_file(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("obj") || e.eq_ignore_ascii_case("stl"))
}

/// A scene of one body: the mesh file's convex pieces (one hull per `o` group, as
/// `"convex": "pieces"` in a scene file), so `collide view PIECES.obj` shows what
/// `collide decompose` wrote.
fn pieces_world(path: &std::path::Path) -> Result<Stage, CliError> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| CliError::new(format!("{}: not a file name", path.display())))?;
    let base = path.parent().unwrap_or(std::path::Path::new("."));
    let doc = json!({ "bodies": [ {
        "name": name,
        "shape": { "mesh": { "path": name, "convex": "pieces" } },
    } ] });
    let scene = Scene::from_json_str(&doc.to_string(), path, base)
        .map_err(|e| CliError::new(e.to_string()))?;
    Stage::from_scene(&scene)
}

/// Largest request head (request line and headers) accepted.
const MAX_HEAD: usize = 16 * 1024;
/// Largest request body accepted.
const MAX_BODY: usize = 64 * 1024;
/// Most connections served at once; more get 503.
const MAX_CONNECTIONS: usize = 32;

/// What the server shares between connections.
struct Shared {
    /// The scene as loaded (for reset).
    initial: Stage,
    /// The scene as the user has moved it.
    world: Mutex<Stage>,
    /// A label for the page's title.
    label: String,
    /// The walk mode's character, once the page has started it.
    walker: Mutex<Option<Walker>>,
    /// The page opens in walk mode (`--walk`).
    start_walking: bool,
}

/// Runs `collide view`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let (world, label) = match (&args.scene, args.walk) {
        (Some(path), _) if is_mesh_file(path) => (pieces_world(path)?, path.display().to_string()),
        (Some(path), _) => (Stage::load(path)?, path.display().to_string()),
        (None, false) => (builtin_world()?, "built-in scene".to_string()),
        (None, true) => (walk_level()?, "built-in walk level".to_string()),
    };
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| CliError::new(format!("cannot listen on 127.0.0.1:{}: {e}", args.port)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| CliError::new(format!("cannot read the listening address: {e}")))?;
    println!("collide view: {label} at http://{addr}/  (Ctrl-C stops)");
    // Scripts read the URL from the first line; make sure it is out before serving.
    std::io::stdout().flush().ok();
    if let Some(secs) = args.exit_after {
        if !(secs.is_finite() && secs >= 0.0) {
            return Err(CliError::new(
                "--exit-after: expected a number of seconds >= 0",
            ));
        }
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(secs));
            std::process::exit(0);
        });
    }
    let shared = Arc::new(Shared {
        initial: world.clone(),
        world: Mutex::new(world),
        label,
        walker: Mutex::new(None),
        start_walking: args.walk,
    });
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond(
                &mut stream,
                503,
                "text/plain",
                b"too many connections, try again",
            );
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (shared, active) = (Arc::clone(&shared), Arc::clone(&active));
        std::thread::spawn(move || {
            let _ = serve(stream, &shared);
            active.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(ExitCode::SUCCESS)
}

/// A request as far as this server cares.
struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
}

/// An HTTP error: status and message.
struct HttpError(u16, String);

fn bad(msg: impl Into<String>) -> HttpError {
    HttpError(400, msg.into())
}

/// Serves one connection: one request, one response, close.
fn serve(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let request = read_request(&mut stream);
    let (status, ctype, body) = match request.and_then(|r| route(&r, shared)) {
        Ok((ctype, body)) => (200, ctype, body),
        Err(HttpError(status, msg)) => (
            status,
            "application/json",
            json!({ "error": msg }).to_string().into_bytes(),
        ),
    };
    respond(&mut stream, status, ctype, &body)?;
    // Closing with unread input makes the kernel send a reset, which can destroy the response
    // before the client reads it (an oversized request is exactly that case): say we are done
    // writing, then read and drop what the client still sends, briefly and boundedly.
    stream.shutdown(std::net::Shutdown::Write)?;
    stream.set_read_timeout(Some(Duration::from_millis(300)))?;
    let _ = std::io::copy(&mut (&stream).take(1 << 20), &mut std::io::sink());
    Ok(())
}

/// Reads the request line, headers and a `Content-Length` body, within the size limits.
fn read_request(stream: &mut TcpStream) -> Result<Request, HttpError> {
    let mut reader = BufReader::new(stream.take((MAX_HEAD + MAX_BODY + 1) as u64));
    let mut head_len = 0usize;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<_>, line: &mut String| -> Result<(), HttpError> {
        line.clear();
        let n = reader
            .by_ref()
            .take((MAX_HEAD - head_len.min(MAX_HEAD)) as u64 + 1)
            .read_line(line)
            .map_err(|_| bad("the request is not readable text"))?;
        head_len += n;
        if head_len > MAX_HEAD {
            return Err(HttpError(
                431,
                format!("request head over {MAX_HEAD} bytes"),
            ));
        }
        if n == 0 {
            return Err(bad("the connection closed before the request ended"));
        }
        Ok(())
    };
    next_line(&mut reader, &mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("expected a request line like `GET / HTTP/1.1`"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError(505, format!("HTTP/1.x only, not {version}")));
    }
    let (method, path) = (method.to_string(), target.to_string());
    let mut content_length = 0usize;
    loop {
        next_line(&mut reader, &mut line)?;
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            return Err(bad(format!("malformed header line {l:?}")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            content_length = value
                .trim()
                .parse()
                .map_err(|_| bad("Content-Length is not a number"))?;
        } else if name.trim().eq_ignore_ascii_case("transfer-encoding") {
            return Err(HttpError(411, "send a Content-Length, not chunks".into()));
        }
    }
    if content_length > MAX_BODY {
        return Err(HttpError(
            413,
            format!("request body of {content_length} bytes is over the {MAX_BODY}-byte limit"),
        ));
    }
    let mut body = vec![0u8; content_length];
    reader
        .read_exact(&mut body)
        .map_err(|_| bad("the body is shorter than its Content-Length"))?;
    Ok(Request { method, path, body })
}

fn respond(stream: &mut TcpStream, status: u16, ctype: &str, body: &[u8]) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

type Reply = (&'static str, Vec<u8>);

fn route(req: &Request, shared: &Shared) -> Result<Reply, HttpError> {
    let path = req.path.split('?').next().unwrap_or("");
    let allow = |m: &str| -> Result<(), HttpError> {
        if req.method == m {
            Ok(())
        } else {
            Err(HttpError(
                405,
                format!("{path} takes {m}, not {}", req.method),
            ))
        }
    };
    match path {
        "/" | "/index.html" => {
            allow("GET")?;
            Ok(("text/html; charset=utf-8", INDEX_HTML.as_bytes().to_vec()))
        }
        "/app.js" => {
            allow("GET")?;
            Ok(("text/javascript; charset=utf-8", APP_JS.as_bytes().to_vec()))
        }
        "/api/scene" => {
            allow("GET")?;
            let world = lock(shared)?;
            let doc = json!({
                "label": shared.label,
                "walk": { "start": shared.start_walking },
                "bodies": world.bodies.iter().map(body_json).collect::<Vec<_>>(),
                "state": state_json(&world)?,
            });
            Ok(json_reply(&doc))
        }
        "/api/pose" => {
            allow("POST")?;
            let v: Value = serde_json::from_slice(&req.body)
                .map_err(|e| bad(format!("the body is not JSON: {e}")))?;
            let mut world = lock(shared)?;
            apply_pose(&mut world, &v)?;
            rebuild_walker(shared, &world)?;
            Ok(json_reply(&state_json(&world)?))
        }
        "/api/reset" => {
            allow("POST")?;
            let mut world = lock(shared)?;
            *world = shared.initial.clone();
            rebuild_walker(shared, &world)?;
            Ok(json_reply(&state_json(&world)?))
        }
        "/api/walk/start" => {
            allow("POST")?;
            let world = lock(shared)?;
            let mut walker = Walker::spawn(&world).map_err(|e| HttpError(500, e.to_string()))?;
            // A tick of no time: the character as it stands, with what it touches.
            let step = walker.tick(WalkInput {
                heading: [0.0, 0.0],
                jump: false,
                dt: 0.0,
            });
            let reply = walk_json(&walker, &step);
            *lock_walker(shared) = Some(walker);
            Ok(json_reply(&reply))
        }
        "/api/walk" => {
            allow("POST")?;
            let v: Value = serde_json::from_slice(&req.body)
                .map_err(|e| bad(format!("the body is not JSON: {e}")))?;
            let input = walk_input(&v)?;
            let mut walker = lock_walker(shared);
            let walker = walker.as_mut().ok_or_else(|| {
                HttpError(409, "walk mode is off: POST /api/walk/start first".into())
            })?;
            let step = walker.tick(input);
            Ok(json_reply(&walk_json(walker, &step)))
        }
        _ => Err(HttpError(404, format!("no such page: {path}"))),
    }
}

fn lock(shared: &Shared) -> Result<std::sync::MutexGuard<'_, Stage>, HttpError> {
    // A panic while holding the lock would poison it; the world is still whole (poses are
    // written in one assignment), so keep serving it.
    Ok(shared.world.lock().unwrap_or_else(|p| p.into_inner()))
}

fn lock_walker(shared: &Shared) -> std::sync::MutexGuard<'_, Option<Walker>> {
    // As for the scene: a tick writes the character's state in whole assignments.
    shared.walker.lock().unwrap_or_else(|p| p.into_inner())
}

/// After the scene changed: the character walks among the bodies where they are now.
fn rebuild_walker(shared: &Shared, world: &Stage) -> Result<(), HttpError> {
    if let Some(walker) = lock_walker(shared).as_mut() {
        walker
            .rebuild(world)
            .map_err(|e| HttpError(500, e.to_string()))?;
    }
    Ok(())
}

/// `{"heading": [x, z], "jump": BOOL, "dt": SECONDS}`; `jump` may be left out.
fn walk_input(v: &Value) -> Result<WalkInput, HttpError> {
    const SHAPE: &str = "expected {\"heading\": [x, z], \"jump\": true|false, \"dt\": seconds}";
    let heading: Option<Vec<f32>> = v
        .get("heading")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 2)
        .and_then(|a| a.iter().map(|e| e.as_f64().map(|f| f as f32)).collect());
    let heading = heading
        .filter(|h| h.iter().all(|c| c.is_finite()))
        .ok_or_else(|| bad(format!("heading: two finite numbers; {SHAPE}")))?;
    let dt = v
        .get("dt")
        .and_then(Value::as_f64)
        .map(|d| d as f32)
        .filter(|d| d.is_finite() && *d >= 0.0)
        .ok_or_else(|| bad(format!("dt: a number of seconds >= 0; {SHAPE}")))?;
    let jump = match v.get("jump") {
        None => false,
        Some(j) => j
            .as_bool()
            .ok_or_else(|| bad(format!("jump: true or false; {SHAPE}")))?,
    };
    Ok(WalkInput {
        heading: [heading[0], heading[1]],
        jump,
        dt,
    })
}

/// The character after a tick, with its shape (for drawing) and the floor's height.
fn walk_json(walker: &Walker, step: &WalkStep) -> Value {
    let c = walker.config();
    json!({
        "position": v3(step.position),
        "vertical_speed": num(step.vertical_speed),
        "grounded": step.grounded,
        "ground_normal": step.ground_normal.map(v3),
        "hit": step.hit,
        "touching": step.touching,
        "radius": num(c.radius),
        "half_height": num(c.half_height),
        "skin": num(c.skin),
        "floor": num(walker.floor()),
    })
}

fn json_reply(v: &Value) -> Reply {
    ("application/json", v.to_string().into_bytes())
}

/// `[x, y, z]` of finite numbers.
fn vec3_field(v: &Value, field: &str) -> Result<Option<Vec3>, HttpError> {
    let Some(x) = v.get(field) else {
        return Ok(None);
    };
    let arr: Option<Vec<f32>> = x
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| a.iter().map(|e| e.as_f64().map(|f| f as f32)).collect());
    match arr {
        Some(a) if a.iter().all(|c| c.is_finite()) => Ok(Some(Vec3::new(a[0], a[1], a[2]))),
        _ => Err(bad(format!(
            "{field}: expected [x, y, z] of finite numbers"
        ))),
    }
}

/// Moves one body: `{"body": NAME, "position": [..], "rotation": [x, y, z, w]}`.
fn apply_pose(world: &mut Stage, v: &Value) -> Result<(), HttpError> {
    let name = v.get("body").and_then(Value::as_str).ok_or_else(|| {
        bad("expected {\"body\": NAME, \"position\": [x,y,z], \"rotation\": [x,y,z,w]}")
    })?;
    let i = world
        .find(name)
        .ok_or_else(|| HttpError(404, format!("no body named {name:?}")))?;
    let position = vec3_field(v, "position")?;
    let rotation = match v.get("rotation") {
        None => None,
        Some(r) => {
            let q: Option<Vec<f32>> = r
                .as_array()
                .filter(|a| a.len() == 4)
                .and_then(|a| a.iter().map(|e| e.as_f64().map(|f| f as f32)).collect());
            let q = q
                .map(|q| Quat::from_xyzw(q[0], q[1], q[2], q[3]))
                .filter(|q| q.is_finite() && q.length() > 1e-6)
                .ok_or_else(|| bad("rotation: expected [x, y, z, w], finite and non-zero"))?;
            Some(q.normalize())
        }
    };
    let b = &mut world.bodies[i];
    if let Some(p) = position {
        b.position = p;
    }
    if let Some(q) = rotation {
        b.rotation = q;
    }
    Ok(())
}

fn mesh_json(m: &TriList) -> Value {
    json!({
        "positions": m.positions.iter().flat_map(|p| [num(p.x), num(p.y), num(p.z)]).collect::<Vec<_>>(),
        "triangles": m.triangles.iter().flatten().copied().collect::<Vec<_>>(),
    })
}

fn wire_json(w: &Wire) -> Value {
    json!({
        "positions": w.positions.iter().flat_map(|p| [num(p.x), num(p.y), num(p.z)]).collect::<Vec<_>>(),
        "edges": w.edges.iter().flatten().copied().collect::<Vec<_>>(),
    })
}

fn body_json(b: &Body) -> Value {
    json!({
        "name": b.name,
        "kind": b.kind,
        "mesh": mesh_json(&b.display),
        "hulls": b.hulls.iter().map(wire_json).collect::<Vec<_>>(),
        "closed": b.closed,
        "radius": num(b.rest_sphere.radius),
    })
}

fn aabb_json(a: &Aabb) -> Value {
    json!({ "min": v3(a.min), "max": v3(a.max) })
}

fn obb_json(o: &Obb) -> Value {
    json!({
        "center": v3(o.center),
        "axes": [v3(o.axes.x_axis), v3(o.axes.y_axis), v3(o.axes.z_axis)],
        "half_extents": v3(o.half_extents),
    })
}

fn sphere_json(s: &Sphere) -> Value {
    json!({ "center": v3(s.center), "radius": num(s.radius) })
}

/// Every body's pose and volumes, and every pair worth showing. A body is `colliding` when
/// it is in a pair that collides now; a pair is `colliding` when it does, and carries its
/// `impact` when it meets within the frame (the page shows those as "hit this frame").
fn state_json(world: &Stage) -> Result<Value, HttpError> {
    let reports = scene::analyze(world).map_err(|e| HttpError(500, e.to_string()))?;
    let vols: Vec<_> = world.bodies.iter().map(Body::volumes).collect();
    let colliding = |i: usize| reports.iter().any(|r| r.now && (r.a == i || r.b == i));
    let bodies: Vec<Value> = world
        .bodies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            json!({
                "name": b.name,
                "position": v3(b.position),
                "velocity": v3(b.velocity),
                "rotation": [num(b.rotation.x), num(b.rotation.y), num(b.rotation.z), num(b.rotation.w)],
                "colliding": colliding(i),
                "aabb_fast": aabb_json(&vols[i].aabb_fast),
                "aabb_tight": aabb_json(&vols[i].aabb_tight),
                "obb": obb_json(&vols[i].obb),
                "sphere": sphere_json(&vols[i].sphere),
            })
        })
        .collect();
    let tests = VolumeTests::new(world, &vols).map_err(|e| HttpError(500, e.to_string()))?;
    let pairs: Vec<Value> = reports
        .iter()
        .filter(|r| r.verdict.boxes_touch || r.collides())
        .map(|r| pair_json(world, &tests, r))
        .collect();
    Ok(json!({ "bodies": bodies, "pairs": pairs }))
}

/// For every kind of bounding volume, the pairs whose volumes of that kind overlap (asked of
/// the world, [`scene::volume_pairs`]): the cheap filters the page lists per pair.
struct VolumeTests {
    aabb_fast: Vec<(usize, usize)>,
    aabb_tight: Vec<(usize, usize)>,
    obb: Vec<(usize, usize)>,
    sphere: Vec<(usize, usize)>,
}

impl VolumeTests {
    fn new(stage: &Stage, vols: &[scene::Volumes]) -> Result<VolumeTests, CliError> {
        let of = |c: BoundingChoice| scene::volume_pairs(stage, vols, |_| c);
        Ok(VolumeTests {
            aabb_fast: of(BoundingChoice::Aabb)?,
            aabb_tight: of(BoundingChoice::TightAabb)?,
            obb: of(BoundingChoice::Obb)?,
            sphere: of(BoundingChoice::Sphere)?,
        })
    }
}

fn pair_json(world: &Stage, tests: &VolumeTests, r: &PairReport) -> Value {
    let passes = |pairs: &[(usize, usize)]| pairs.binary_search(&(r.a, r.b)).is_ok();
    json!({
        "a": world.bodies[r.a].name,
        "b": world.bodies[r.b].name,
        "colliding": r.now,
        "volumes_overlap": r.volumes_overlap,
        // Which volume tests pass: the cheap filters in the order a game would try them.
        "tests": {
            "aabb_fast": passes(&tests.aabb_fast),
            "aabb_tight": passes(&tests.aabb_tight),
            "obb": passes(&tests.obb),
            "sphere": passes(&tests.sphere),
            "exact": r.verdict.contact.is_some(),
        },
        "contact": r.verdict.contact.as_ref().map(contact_json),
        "plane": r.separating_plane().map(|p| json!({ "normal": v3(p.normal), "d": num(p.d) })),
        "impact": r.verdict.impact.as_ref().map(impact_json),
    })
}
