//! `collide demo`: a few thousand bodies of real meshes tumbling in an arena, with fast
//! projectiles, run through the collision pipeline frame by frame; then a summary of what
//! each stage did.
//!
//! Each frame goes through `collide::world::World` (Lander 1999, grown up): every body's box
//! (the rest box transformed; swept over the motion for fast bodies) goes to the world's
//! default broad phase, the dynamic BVH; each pair then meets bounding spheres, bounding OBBs (15-axis SAT), and
//! the exact test per convex piece pair (the separating-axis test warm-started by the feature
//! cached last frame, GJK/EPA for capsules); pairs with a fast body are swept instead, so a
//! projectile that moves many times its size in a frame still hits what it crosses. The demo
//! responds to the contacts (elastic, mass by size) and keeps the bodies inside the walls.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use collide::shapes::Aabb;
use collide::world::{BodyId, PairVerdict};
use collide::Vec3;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::arena::{Arena, FrameStats, Pipeline};
use crate::raster::{self, Camera, Prim, Rgba, ViewDir};
use crate::scene::PairReport;
use crate::CliError;

/// Arguments of `collide demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Frames to run.
    #[arg(long, default_value_t = 240)]
    pub frames: usize,
    /// Bodies in the arena (2 to 20000), about 1 % of them projectiles.
    #[arg(long, default_value_t = 2000)]
    pub bodies: usize,
    /// Seed of the arena (the same seed gives the same run on every machine).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write a picture of the final frame to this PNG file.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

/// Runs `collide demo`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if !(1..=100_000).contains(&args.frames) {
        return Err(CliError::new(format!(
            "--frames must be between 1 and 100000 (got {})",
            args.frames
        )));
    }
    let mut arena = Arena::new(args.bodies, args.seed)?;
    let mut pipe = Pipeline::new(&arena)?;
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.frames as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} frames {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix("collide demo");
    let mut frames: Vec<FrameStats> = Vec::with_capacity(args.frames);
    let mut millis: Vec<f64> = Vec::with_capacity(args.frames);
    for _ in 0..args.frames {
        let t = Instant::now();
        let s = pipe.step(&mut arena);
        millis.push(t.elapsed().as_secs_f64() * 1e3);
        bar.set_message(format!("{} collisions", s.collisions));
        bar.inc(1);
        frames.push(s);
    }
    bar.finish_and_clear();
    let summary = Summary::of(&frames, &millis);
    if args.json {
        let doc = json!({
            "seed": args.seed,
            "bodies": args.bodies,
            "frames": args.frames,
            "arena_side": 2.0 * arena.half,
            "kinds": arena.kind_counts(),
            "mean_per_frame": summary.mean,
            "max_collisions_per_frame": summary.max_collisions,
            "totals": summary.total,
            "sat_cache_hit_rate": summary.hit_rate,
            "ms_per_frame": {
                "mean": summary.ms_mean,
                "max": summary.ms_max,
                "world_update_mean": summary.update_ms_mean,
            },
            "collisions_per_frame": frames.iter().map(|f| f.collisions).collect::<Vec<_>>(),
        });
        println!("{doc:#}");
    } else {
        print_summary(&args, &arena, &summary);
    }
    if let Some(path) = &args.png {
        let pix = final_picture(&arena, &pipe)
            .ok_or_else(|| CliError::new("cannot allocate the picture"))?;
        pix.save_png(path)
            .map_err(|e| CliError::new(format!("{}: cannot write PNG: {e}", path.display())))?;
        if !args.json {
            println!("final frame: {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Means, maxima and totals over the run.
struct Summary {
    mean: serde_json::Value,
    total: FrameStats,
    max_collisions: usize,
    hit_rate: f64,
    ms_mean: f64,
    ms_max: f64,
    update_ms_mean: f64,
}

impl Summary {
    fn of(frames: &[FrameStats], millis: &[f64]) -> Summary {
        let mut total = FrameStats::default();
        for f in frames {
            total.fast_bodies += f.fast_bodies;
            total.broad_pairs += f.broad_pairs;
            total.sphere_pairs += f.sphere_pairs;
            total.obb_pairs += f.obb_pairs;
            total.collisions += f.collisions;
            total.impacts += f.impacts;
            total.floor_contacts += f.floor_contacts;
            total.cache_hits += f.cache_hits;
            total.cache_misses += f.cache_misses;
            total.tunnelling_prevented += f.tunnelling_prevented;
            total.update_us += f.update_us;
        }
        let n = frames.len().max(1) as f64;
        let per = |x: u64| x as f64 / n;
        let mean = json!({
            "fast_bodies": per(total.fast_bodies as u64),
            "broad_pairs": per(total.broad_pairs as u64),
            "sphere_pairs": per(total.sphere_pairs as u64),
            "obb_pairs": per(total.obb_pairs as u64),
            "collisions": per(total.collisions as u64),
            "impacts": per(total.impacts as u64),
            "floor_contacts": per(total.floor_contacts as u64),
            "cache_hits": per(total.cache_hits),
            "cache_misses": per(total.cache_misses),
            "tunnelling_prevented": per(total.tunnelling_prevented as u64),
        });
        let looked = total.cache_hits + total.cache_misses;
        Summary {
            mean,
            total,
            max_collisions: frames.iter().map(|f| f.collisions).max().unwrap_or(0),
            hit_rate: if looked == 0 {
                0.0
            } else {
                total.cache_hits as f64 / looked as f64
            },
            ms_mean: millis.iter().sum::<f64>() / millis.len().max(1) as f64,
            ms_max: millis.iter().copied().fold(0.0, f64::max),
            update_ms_mean: per(total.update_us) / 1e3,
        }
    }
}

fn print_summary(args: &Args, arena: &Arena, s: &Summary) {
    let kinds: Vec<String> = arena
        .kind_counts()
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    let n = args.frames.max(1) as f64;
    let per = |x: u64| x as f64 / n;
    let t = &s.total;
    println!(
        "collide demo: {} bodies ({}) in an arena {:.1} units wide, {} frames, seed {}",
        args.bodies,
        kinds.join(", "),
        2.0 * arena.half,
        args.frames,
        args.seed
    );
    println!("pairs per frame at each stage of the world's pipeline (mean):");
    println!(
        "  broad phase (dynamic BVH; fast bodies' boxes swept):     {:>9.1}",
        per(t.broad_pairs as u64)
    );
    println!(
        "  bounding spheres overlap:                                {:>9.1}",
        per(t.sphere_pairs as u64)
    );
    println!(
        "  bounding OBBs overlap too (15-axis SAT):                 {:>9.1}",
        per(t.obb_pairs as u64)
    );
    println!(
        "  in contact (exact test per convex piece pair, or sweep): {:>9.1}",
        per(t.collisions as u64)
    );
    println!(
        "separating-axis cache: {:.1} % of {:.0} tests per frame answered by last frame's feature",
        100.0 * s.hit_rate,
        per(t.cache_hits + t.cache_misses)
    );
    println!(
        "collisions: {:.1} per frame (max {}), {} in all; {:.1} fast bodies swept per frame",
        per(t.collisions as u64),
        s.max_collisions,
        t.collisions,
        per(t.fast_bodies as u64)
    );
    println!(
        "floor: a {n}x{n} heightfield (fixed, {:.1} units wide, past the walls); {:.1} bodies on it per frame",
        2.0 * crate::arena::FLOOR_REACH * arena.half,
        per(t.floor_contacts as u64),
        n = crate::arena::FLOOR_SAMPLES,
    );
    println!(
        "tunnelling prevented by sweeps: {} of {} sweep hits would be missed by tests at the start and end of the frame",
        t.tunnelling_prevented, t.impacts
    );
    println!(
        "time per frame: {:.2} ms mean ({:.2} ms in the world's update), {:.2} ms max{}",
        s.ms_mean,
        s.update_ms_mean,
        s.ms_max,
        if cfg!(debug_assertions) {
            " (a debug build: `cargo run --release -- demo` for real figures)"
        } else {
            ""
        }
    );
}

/// The last frame: bodies in the palette's colours, colliding ones red, inside the arena's walls.
fn final_picture(arena: &Arena, pipe: &Pipeline) -> Option<tiny_skia::Pixmap> {
    let reports: Vec<PairReport> = pipe
        .last_collisions()
        .iter()
        .map(|&(a, b)| PairReport {
            a,
            b,
            verdict: PairVerdict {
                a: BodyId(a as u32),
                b: BodyId(b as u32),
                boxes_touch: true,
                contact: None,
                separation: None,
                impact: None,
            },
            volumes_overlap: true,
            now: true,
        })
        .collect();
    let show = super::render::Show::default();
    let mut stage = arena.world.clone();
    stage.bodies.push(arena.floor.clone());
    let mut prims = super::render::primitives(&stage, &reports, show);
    let walls = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(arena.half));
    super::render::box_lines(&mut prims, &walls.corners(), Rgba(200, 210, 230, 120), 1.5);
    // Projectiles' paths this frame, bright.
    for (i, b) in arena.world.bodies.iter().enumerate() {
        if arena.is_projectile(i) {
            prims.push(Prim::Line {
                a: b.position,
                b: b.position + b.velocity,
                color: Rgba(255, 245, 140, 230),
                width: 2.0,
            });
        }
    }
    let (w, h) = (1200, 900);
    let cam = Camera::fit(ViewDir::Iso, true, &walls.corners(), w, h);
    raster::draw(&prims, &cam, w, h)
}
