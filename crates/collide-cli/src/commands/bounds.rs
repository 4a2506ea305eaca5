//! `collide bounds FILE [--json]`: bounding volumes of a mesh file, per part and whole.
//!
//! For each part and for the whole model: vertex and triangle counts, the AABB, the fitted
//! OBB (and the PCA OBB) with their volume ratio to the AABB, the Ritter and exact bounding
//! spheres, and the time each took. On stderr, when it is a terminal: a spinner while a large
//! file loads and a progress bar while fitting models above a million vertices.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use collide::shapes::{Aabb, Obb, Sphere};
use collide::Vec3;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::CliError;

/// Models with more vertices than this get a progress bar.
const PROGRESS_VERTICES: usize = 1_000_000;

/// Files larger than this (32 MiB) get a spinner while they load.
const SPINNER_BYTES: u64 = 32 << 20;

/// Arguments of `collide bounds`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Mesh file: .obj, .stl, .gltf or .glb.
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The bounding volumes of one point set and how long each took.
struct Report {
    name: String,
    vertices: usize,
    triangles: usize,
    aabb: Aabb,
    obb: Obb,
    obb_pca: Obb,
    ritter: Sphere,
    exact: Sphere,
    /// Milliseconds: AABB, OBB fit, PCA OBB, Ritter, exact.
    ms: [f64; 5],
}

/// Times `f` in milliseconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64() * 1e3)
}

fn measure(
    name: &str,
    points: &[Vec3],
    triangles: usize,
    bar: &ProgressBar,
) -> Result<Report, CliError> {
    let none = || CliError::new(format!("part '{name}' has no finite vertices"));
    let (aabb, t0) = timed(|| Aabb::from_points(points));
    bar.inc(1);
    let (obb, t1) = timed(|| Obb::fit(points));
    bar.inc(1);
    let (obb_pca, t2) = timed(|| Obb::fit_pca(points));
    bar.inc(1);
    let (ritter, t3) = timed(|| Sphere::fit(points));
    bar.inc(1);
    let (exact, t4) = timed(|| Sphere::fit_exact(points));
    bar.inc(1);
    Ok(Report {
        name: name.to_string(),
        vertices: points.len(),
        triangles,
        aabb: aabb.ok_or_else(none)?,
        obb: obb.ok_or_else(none)?,
        obb_pca: obb_pca.ok_or_else(none)?,
        ritter: ritter.ok_or_else(none)?,
        exact: exact.ok_or_else(none)?,
        ms: [t0, t1, t2, t3, t4],
    })
}

/// `a / b`, or 1 when both are zero (a flat box against a flat AABB).
fn ratio(a: f32, b: f32) -> f64 {
    if b == 0.0 {
        if a == 0.0 {
            1.0
        } else {
            f64::INFINITY
        }
    } else {
        f64::from(a) / f64::from(b)
    }
}

fn v3(v: Vec3) -> String {
    format!("({:.6}, {:.6}, {:.6})", v.x, v.y, v.z)
}

fn text(r: &Report) -> String {
    let a = &r.aabb;
    let av = a.volume();
    let axes = r.obb.axes;
    format!(
        "{name}: {nv} vertices, {nt} triangles\n\
         \x20 AABB          min {min}  max {max}  size {size}  volume {av:.6}\n\
         \x20 OBB (fitted)  centre {oc}  half-extents {oe}  volume {ov:.6} ({orat:.3} of the AABB)\n\
         \x20               axes {ax} {ay} {az}\n\
         \x20 OBB (PCA)     centre {pc}  half-extents {pe}  volume {pv:.6} ({prat:.3} of the AABB)\n\
         \x20 sphere Ritter centre {rc}  radius {rr:.6}\n\
         \x20 sphere exact  centre {ec}  radius {er:.6} ({erat:.4} of Ritter's)\n\
         \x20 time          AABB {t0:.3} ms, OBB {t1:.3} ms, PCA {t2:.3} ms, Ritter {t3:.3} ms, exact {t4:.3} ms\n",
        name = r.name,
        nv = r.vertices,
        nt = r.triangles,
        min = v3(a.min),
        max = v3(a.max),
        size = v3(a.size()),
        oc = v3(r.obb.center),
        oe = v3(r.obb.half_extents),
        ov = r.obb.volume(),
        orat = ratio(r.obb.volume(), av),
        ax = v3(axes.x_axis),
        ay = v3(axes.y_axis),
        az = v3(axes.z_axis),
        pc = v3(r.obb_pca.center),
        pe = v3(r.obb_pca.half_extents),
        pv = r.obb_pca.volume(),
        prat = ratio(r.obb_pca.volume(), av),
        rc = v3(r.ritter.center),
        rr = r.ritter.radius,
        ec = v3(r.exact.center),
        er = r.exact.radius,
        erat = ratio(r.exact.radius, r.ritter.radius),
        t0 = r.ms[0],
        t1 = r.ms[1],
        t2 = r.ms[2],
        t3 = r.ms[3],
        t4 = r.ms[4],
    )
}

fn obb_json(o: &Obb, aabb_volume: f32) -> Value {
    json!({
        "center": o.center.to_array(),
        "axes": [o.axes.x_axis.to_array(), o.axes.y_axis.to_array(), o.axes.z_axis.to_array()],
        "half_extents": o.half_extents.to_array(),
        "volume": o.volume(),
        "volume_ratio_to_aabb": ratio(o.volume(), aabb_volume),
    })
}

fn report_json(r: &Report) -> Value {
    let av = r.aabb.volume();
    json!({
        "name": r.name,
        "vertices": r.vertices,
        "triangles": r.triangles,
        "aabb": {
            "min": r.aabb.min.to_array(),
            "max": r.aabb.max.to_array(),
            "volume": av,
        },
        "obb": obb_json(&r.obb, av),
        "obb_pca": obb_json(&r.obb_pca, av),
        "sphere_ritter": { "center": r.ritter.center.to_array(), "radius": r.ritter.radius },
        "sphere_exact": {
            "center": r.exact.center.to_array(),
            "radius": r.exact.radius,
            "radius_ratio_to_ritter": ratio(r.exact.radius, r.ritter.radius),
        },
        "time_ms": {
            "aabb": r.ms[0], "obb": r.ms[1], "obb_pca": r.ms[2],
            "sphere_ritter": r.ms[3], "sphere_exact": r.ms[4],
            "total": r.ms.iter().sum::<f64>(),
        },
    })
}

/// Runs `collide bounds`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let file = args.file.display().to_string();
    // Files this large hold about a million vertices or more: show a spinner while loading.
    let big_file = std::fs::metadata(&args.file)
        .map(|m| m.len() > SPINNER_BYTES)
        .unwrap_or(false);
    let spinner = if big_file {
        let s = ProgressBar::new_spinner();
        s.set_message(format!("loading {file}"));
        s.enable_steady_tick(std::time::Duration::from_millis(100));
        s
    } else {
        ProgressBar::hidden()
    };
    let (model, load_ms) = timed(|| collide::io::load(&args.file));
    spinner.finish_and_clear();
    let model = model.map_err(|e| CliError::new(e.to_string()))?;
    let total_vertices = model.vertex_count();
    let bar = if total_vertices > PROGRESS_VERTICES {
        let steps = 5 * (model.parts.len() as u64 + 1);
        let bar = ProgressBar::new(steps);
        if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({elapsed})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(format!("fitting {total_vertices} vertices"));
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut parts = Vec::with_capacity(model.parts.len());
    for p in &model.parts {
        parts.push(measure(
            &p.name,
            &p.mesh.vertices,
            p.mesh.triangles.len(),
            &bar,
        )?);
    }
    let merged = model.merged();
    let whole = measure(
        "whole model",
        &merged.vertices,
        merged.triangles.len(),
        &bar,
    )?;
    bar.finish_and_clear();

    if args.json {
        let out = json!({
            "file": file,
            "load_ms": load_ms,
            "parts": parts.iter().map(report_json).collect::<Vec<_>>(),
            "model": report_json(&whole),
        });
        let s = serde_json::to_string_pretty(&out)
            .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
        println!("{s}");
    } else {
        println!(
            "{file}: {} part{}, {} vertices, {} triangles (loaded in {load_ms:.3} ms)\n",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" },
            whole.vertices,
            whole.triangles
        );
        for r in &parts {
            println!("part {}", text(r));
        }
        print!("{}", text(&whole));
    }
    Ok(ExitCode::SUCCESS)
}
