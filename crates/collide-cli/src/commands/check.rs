//! `collide check SCENE`: every colliding pair with its contact data and time of impact, and
//! every separated pair whose boxes overlap with the plane that separates it.
//!
//! Exit code 0 when nothing collides, 1 when something does (now or within the frame, for
//! bodies given a velocity), 2 on bad input — usable as a gate in asset pipelines.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{json, Value};

use crate::scene::{self, PairReport, Stage};
use crate::CliError;

/// Arguments of `collide check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scene: a JSON scene file, or a glTF file whose mesh nodes are the bodies.
    pub scene: PathBuf,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `collide check`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let stage = Stage::load(&args.scene)?;
    let reports = scene::analyze(&stage)?;
    let colliding: Vec<&PairReport> = reports.iter().filter(|r| r.collides()).collect();
    let near: Vec<&PairReport> = reports
        .iter()
        .filter(|r| !r.collides() && r.verdict.boxes_touch)
        .collect();
    if args.json {
        let doc = json!({
            "scene": args.scene.display().to_string(),
            "bodies": stage.bodies.len(),
            "pairs": total_pairs(&stage),
            "pairs_near": reports.len(),
            "colliding": colliding.iter().map(|r| colliding_json(&stage, r)).collect::<Vec<_>>(),
            "separated_boxes_overlap": near.iter().map(|r| near_json(&stage, r)).collect::<Vec<_>>(),
        });
        println!("{doc:#}");
    } else {
        print_text(&args, &stage, &colliding, &near);
    }
    Ok(if colliding.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `n (n - 1) / 2` for `n` bodies.
fn total_pairs(stage: &Stage) -> usize {
    let n = stage.bodies.len();
    n * n.saturating_sub(1) / 2
}

/// An `f32` as a JSON number written with the float's shortest decimal form (`0.9`, not
/// `0.8999999761581421`); non-finite values become `null`.
pub fn num(x: f32) -> Value {
    // The shortest string that round-trips the f32 parses to the f64 nearest that decimal.
    format!("{x}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// A vector as a JSON array of three numbers.
pub fn v3(v: collide::Vec3) -> Value {
    json!([num(v.x), num(v.y), num(v.z)])
}

fn colliding_json(stage: &Stage, r: &PairReport) -> Value {
    let (a, b) = (&stage.bodies[r.a], &stage.bodies[r.b]);
    json!({
        "a": a.name,
        "b": b.name,
        "now": r.now,
        "volumes_overlap": r.volumes_overlap,
        "test": if r.by_volume(stage) { "volume" } else { "exact" },
        "contact": r.verdict.contact.as_ref().map(contact_json),
        // Decided by volumes while the shapes are apart: the plane that separates the shapes.
        "plane": r.separating_plane().map(|p| json!({"normal": v3(p.normal), "d": num(p.d)})),
        "impact": r.verdict.impact.map(|i| impact_json(&i)),
    })
}

/// A contact as JSON: normal from A toward B, depth, points.
pub fn contact_json(c: &collide::world::Manifold) -> Value {
    json!({
        "normal": v3(c.normal),
        "depth": num(c.depth),
        "points": c.points().iter().map(|p| v3(p.point)).collect::<Vec<_>>(),
    })
}

/// A time of impact as JSON: `toi` in the frame, normal from A toward B, point.
pub fn impact_json(i: &collide::world::Impact) -> Value {
    json!({ "toi": num(i.toi), "normal": v3(i.normal), "point": v3(i.point) })
}

fn near_json(stage: &Stage, r: &PairReport) -> Value {
    json!({
        "a": stage.bodies[r.a].name,
        "b": stage.bodies[r.b].name,
        "plane": r.separating_plane().map(|p| json!({"normal": v3(p.normal), "d": num(p.d)})),
    })
}

fn fmt3(v: collide::Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z)
}

fn print_text(args: &Args, stage: &Stage, colliding: &[&PairReport], near: &[&PairReport]) {
    println!(
        "{}: {} bodies, {} pairs: {} colliding, {} separated with overlapping boxes",
        args.scene.display(),
        stage.bodies.len(),
        total_pairs(stage),
        colliding.len(),
        near.len()
    );
    for r in colliding {
        let (a, b) = (&stage.bodies[r.a].name, &stage.bodies[r.b].name);
        match (&r.verdict.contact, r.now) {
            (Some(c), _) => {
                let pts: Vec<String> = c.points().iter().map(|p| fmt3(p.point)).collect();
                println!(
                    "collide  {a} × {b}: normal {} depth {:.4} points {}",
                    fmt3(c.normal),
                    c.depth,
                    pts.join(" ")
                );
            }
            (None, true) => match r.separating_plane() {
                Some(p) => println!(
                    "collide  {a} × {b}: bounding volumes overlap (volume test); the shapes are apart, plane normal {} d {:.4}",
                    fmt3(p.normal),
                    p.d
                ),
                None => println!("collide  {a} × {b}: bounding volumes overlap (volume test)"),
            },
            (None, false) => println!("collide  {a} × {b}: within the frame"),
        }
        if let Some(i) = r.verdict.impact {
            println!(
                "         time of impact {:.4}: normal {} point {}",
                i.toi,
                fmt3(i.normal),
                fmt3(i.point)
            );
        }
    }
    for r in near {
        let (a, b) = (&stage.bodies[r.a].name, &stage.bodies[r.b].name);
        match r.separating_plane() {
            Some(p) => println!(
                "apart    {a} × {b}: boxes overlap, separated by plane normal {} d {:.4}",
                fmt3(p.normal),
                p.d
            ),
            None => println!("apart    {a} × {b}: boxes overlap, shapes separated"),
        }
    }
}
