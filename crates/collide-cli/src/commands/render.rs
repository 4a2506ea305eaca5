//! `collide render SCENE -o out.png`: a picture of the bodies with their bounding volumes,
//! colliding pairs in red and the separating planes of near pairs as translucent quads.

use std::path::PathBuf;
use std::process::ExitCode;

use collide::shapes::{Aabb, Obb, Plane};
use collide::Vec3;

use crate::raster::{self, Camera, Prim, Rgba, ViewDir};
use crate::scene::{self, PairReport, Stage};
use crate::CliError;

/// Which camera direction, on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum View {
    /// Three-quarter view from above.
    Iso,
    /// From above.
    Top,
    /// From the front (+z).
    Front,
    /// From the side (+x).
    Side,
}

/// Arguments of `collide render`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The scene: a JSON scene file, or a glTF file whose mesh nodes are the bodies.
    pub scene: PathBuf,
    /// The PNG file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Where the camera looks from.
    #[arg(long, value_enum, default_value = "iso")]
    pub view: View,
    /// Perspective projection instead of orthographic.
    #[arg(long)]
    pub perspective: bool,
    /// Picture size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1200x800", value_parser = parse_size)]
    pub size: (u32, u32),
    /// What to draw besides the bodies, comma-separated: aabb, obb, sphere, hull, planes,
    /// contacts, grid, motion (or none).
    #[arg(long, default_value = "aabb,obb,hull,planes,contacts,grid,motion")]
    pub show: String,
}

/// `WIDTHxHEIGHT` with both in 16..=8192.
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let err = || format!("expected WIDTHxHEIGHT like 1200x800 (16 to 8192 each), found {s:?}");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let w: u32 = w.trim().parse().map_err(|_| err())?;
    let h: u32 = h.trim().parse().map_err(|_| err())?;
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(err());
    }
    Ok((w, h))
}

/// What the picture shows besides the bodies.
#[derive(Clone, Copy, Debug, Default)]
pub struct Show {
    /// Fast AABBs.
    pub aabb: bool,
    /// OBBs.
    pub obb: bool,
    /// Bounding spheres.
    pub sphere: bool,
    /// Convex hulls of mesh bodies.
    pub hull: bool,
    /// Separating planes of separated pairs whose boxes overlap.
    pub planes: bool,
    /// Contact points and normals.
    pub contacts: bool,
    /// A ground grid under the scene.
    pub grid: bool,
    /// Velocity arrows and, for impacts within the frame, ghosts where the bodies first touch.
    pub motion: bool,
}

impl Show {
    /// Parses `aabb,obb,...`; unknown words are an error naming the known ones.
    pub fn parse(s: &str) -> Result<Show, CliError> {
        let mut show = Show::default();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "aabb" => show.aabb = true,
                "obb" => show.obb = true,
                "sphere" => show.sphere = true,
                "hull" => show.hull = true,
                "planes" => show.planes = true,
                "contacts" => show.contacts = true,
                "grid" => show.grid = true,
                "motion" => show.motion = true,
                "none" => {}
                other => {
                    return Err(CliError::new(format!(
                        "--show: unknown item {other:?}; expected aabb, obb, sphere, hull, planes, contacts, grid, motion or none"
                    )))
                }
            }
        }
        Ok(show)
    }
}

/// Runs `collide render`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let show = Show::parse(&args.show)?;
    let stage = Stage::load(&args.scene)?;
    let reports = scene::analyze(&stage)?;
    let view = match args.view {
        View::Iso => ViewDir::Iso,
        View::Top => ViewDir::Top,
        View::Front => ViewDir::Front,
        View::Side => ViewDir::Side,
    };
    let (w, h) = args.size;
    let pix = picture(&stage, &reports, show, view, args.perspective, w, h)
        .ok_or_else(|| CliError::new("cannot allocate the picture"))?;
    pix.save_png(&args.output)
        .map_err(|e| CliError::new(format!("{}: cannot write PNG: {e}", args.output.display())))?;
    let colliding: Vec<&PairReport> = reports.iter().filter(|r| r.collides()).collect();
    println!(
        "{}: {} bodies, {} colliding pairs drawn in red",
        args.output.display(),
        stage.bodies.len(),
        colliding.len()
    );
    // The pairs by name, one per line, as `check` names them.
    for r in colliding {
        println!(
            "collide  {} × {}",
            stage.bodies[r.a].name, stage.bodies[r.b].name
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Body colours, in file order.
const PALETTE: [Rgba; 7] = [
    Rgba(72, 170, 160, 255),
    Rgba(232, 172, 72, 255),
    Rgba(150, 124, 214, 255),
    Rgba(92, 162, 232, 255),
    Rgba(126, 194, 96, 255),
    Rgba(222, 124, 172, 255),
    Rgba(204, 186, 146, 255),
];
const RED: Rgba = Rgba(232, 64, 52, 255);
const AABB_COLOR: Rgba = Rgba(250, 220, 110, 230);
const OBB_COLOR: Rgba = Rgba(110, 230, 250, 230);
const SPHERE_COLOR: Rgba = Rgba(210, 210, 230, 150);
const HULL_COLOR: Rgba = Rgba(255, 255, 255, 105);
const PLANE_FILL: Rgba = Rgba(120, 170, 255, 70);
const PLANE_EDGE: Rgba = Rgba(150, 195, 255, 220);
const CONTACT_COLOR: Rgba = Rgba(255, 245, 120, 255);
const GRID_COLOR: Rgba = Rgba(255, 255, 255, 34);
const MOTION_COLOR: Rgba = Rgba(235, 235, 245, 220);
const GHOST_COLOR: Rgba = Rgba(255, 120, 110, 40);

/// The whole picture of a scene and its pair verdicts.
pub fn picture(
    stage: &Stage,
    reports: &[PairReport],
    show: Show,
    view: ViewDir,
    perspective: bool,
    w: u32,
    h: u32,
) -> Option<tiny_skia::Pixmap> {
    let prims = primitives(stage, reports, show);
    // Frame every body where it is and where its motion takes it.
    let mut points = Vec::new();
    for b in &stage.bodies {
        let bx = b.volumes().aabb_tight;
        points.extend(bx.corners());
        points.extend(bx.corners().map(|c| c + b.velocity));
    }
    let mut cam = Camera::fit(view, perspective, &points, w, h);
    // Edges on a face must win against the face's pieces (see `primitives`).
    cam.line_bias = cam.line_bias.max(0.6 * piece_size(stage));
    raster::draw(&prims, &cam, w, h)
}

/// Everything to draw, as raster primitives.
pub fn primitives(stage: &Stage, reports: &[PairReport], show: Show) -> Vec<Prim> {
    let mut prims = Vec::new();
    // Red: in a pair that collides now or within the frame (what `check` reports).
    let colliding: Vec<bool> = (0..stage.bodies.len())
        .map(|i| {
            reports
                .iter()
                .any(|r| r.collides() && (r.a == i || r.b == i))
        })
        .collect();
    let bounds = scene_bounds(stage);
    let piece = piece_size(stage);
    for (i, body) in stage.bodies.iter().enumerate() {
        let color = if colliding[i] {
            RED
        } else {
            PALETTE[i % PALETTE.len()]
        };
        body_prims(&mut prims, body, color, colliding[i], show, piece);
    }
    for r in reports {
        pair_prims(&mut prims, stage, r, show);
    }
    if show.motion {
        motion_prims(&mut prims, stage, reports);
    }
    if show.grid && !bounds.is_empty() && bounds.is_finite() {
        grid(&mut prims, &bounds);
    }
    prims
}

/// A body's triangles in `color` (cut into pieces about `piece` across) and the bounding
/// volumes `show` asks for.
fn body_prims(
    prims: &mut Vec<Prim>,
    body: &scene::Body,
    color: Rgba,
    colliding: bool,
    show: Show,
    piece: f32,
) {
    let world_pts = body.world_positions();
    for t in &body.display.triangles {
        let p = t.map(|k| world_pts[k as usize]);
        subdivided(prims, p, color, body.closed, piece);
    }
    let vols = body.volumes();
    if show.aabb {
        let c = if colliding { RED } else { AABB_COLOR };
        box_lines(prims, &vols.aabb_fast.corners(), c, 1.6);
    }
    if show.obb {
        box_lines(prims, &obb_corners(&vols.obb), OBB_COLOR, 1.6);
    }
    if show.sphere {
        circle_lines(prims, vols.sphere.center, vols.sphere.radius);
    }
    if show.hull {
        let m = body.transform();
        for hull in &body.hulls {
            for &[a, b] in &hull.edges {
                prims.push(Prim::Line {
                    a: m.transform_point3(hull.positions[a as usize]),
                    b: m.transform_point3(hull.positions[b as usize]),
                    color: HULL_COLOR,
                    width: 1.0,
                });
            }
        }
    }
}

/// A pair's separating plane (separated, boxes overlapping) and contact points with their
/// normals, as `show` asks.
fn pair_prims(prims: &mut Vec<Prim>, stage: &Stage, r: &PairReport, show: Show) {
    if show.planes && !r.collides() && r.verdict.boxes_touch {
        if let Some(plane) = r.separating_plane() {
            let (a, b) = (&stage.bodies[r.a], &stage.bodies[r.b]);
            let (va, vb) = (a.volumes(), b.volumes());
            let size = 0.55 * (va.sphere.radius + vb.sphere.radius);
            let mid = 0.5 * (va.sphere.center + vb.sphere.center);
            plane_quads(prims, &plane, mid, size);
        }
    }
    if show.contacts {
        if let Some(c) = &r.verdict.contact {
            let scale = 0.25
                * stage.bodies[r.a]
                    .rest_sphere
                    .radius
                    .min(stage.bodies[r.b].rest_sphere.radius);
            for p in c.points().iter().map(|p| p.point) {
                prims.push(Prim::Line {
                    a: p,
                    b: p + c.normal * scale * 2.0,
                    color: CONTACT_COLOR,
                    width: 2.0,
                });
                for d in [Vec3::X, Vec3::Y, Vec3::Z] {
                    prims.push(Prim::Line {
                        a: p - d * scale * 0.25,
                        b: p + d * scale * 0.25,
                        color: CONTACT_COLOR,
                        width: 2.5,
                    });
                }
            }
        }
    }
}

/// Motion: an arrow along each velocity; for each impact within the frame, the moving
/// bodies as translucent ghosts where they first touch, and the contact point.
fn motion_prims(prims: &mut Vec<Prim>, stage: &Stage, reports: &[PairReport]) {
    for body in &stage.bodies {
        if body.velocity != Vec3::ZERO {
            arrow(prims, body.position, body.position + body.velocity);
        }
    }
    for r in reports.iter().filter(|r| !r.now) {
        let Some(hit) = r.verdict.impact else {
            continue;
        };
        for i in [r.a, r.b] {
            let body = &stage.bodies[i];
            if body.velocity == Vec3::ZERO {
                continue;
            }
            let offset = body.velocity * hit.toi;
            let pts = body.world_positions();
            for t in &body.display.triangles {
                prims.push(Prim::Poly {
                    p: t.iter().map(|&k| pts[k as usize] + offset).collect(),
                    color: GHOST_COLOR,
                    outline: None,
                });
            }
        }
        let s = 0.15
            * stage.bodies[r.a]
                .rest_sphere
                .radius
                .min(stage.bodies[r.b].rest_sphere.radius);
        for d in [Vec3::X, Vec3::Y, Vec3::Z] {
            prims.push(Prim::Line {
                a: hit.point - d * s,
                b: hit.point + d * s,
                color: CONTACT_COLOR,
                width: 2.5,
            });
        }
    }
}

/// The union of the bodies' tight boxes.
fn scene_bounds(stage: &Stage) -> Aabb {
    stage
        .bodies
        .iter()
        .fold(Aabb::EMPTY, |acc, b| acc.union(&b.volumes().aabb_tight))
}

/// Large triangles are cut into pieces about a tenth of the scene across, so that the
/// painter's sort (by centroid depth) orders them correctly against their neighbours.
fn piece_size(stage: &Stage) -> f32 {
    let b = scene_bounds(stage);
    if b.is_finite() && !b.is_empty() {
        0.1 * b.size().max_element().max(1e-6)
    } else {
        f32::INFINITY
    }
}

/// The triangle as `n²` similar triangles, `n = ⌈longest edge / piece⌉` (at most 8), all
/// with the parent's winding.
fn subdivided(prims: &mut Vec<Prim>, p: [Vec3; 3], color: Rgba, cull: bool, piece: f32) {
    let longest = (p[1] - p[0])
        .length()
        .max((p[2] - p[1]).length())
        .max((p[0] - p[2]).length());
    let n = if longest.is_finite() && piece.is_finite() && piece > 0.0 {
        ((longest / piece).ceil() as usize).clamp(1, 8)
    } else {
        1
    };
    // Barycentric grid: vertex (i, j) = p0 + i/n (p1 - p0) + j/n (p2 - p0), i + j <= n.
    let at = |i: usize, j: usize| {
        p[0] + (p[1] - p[0]) * (i as f32 / n as f32) + (p[2] - p[0]) * (j as f32 / n as f32)
    };
    for i in 0..n {
        for j in 0..n - i {
            prims.push(Prim::Tri {
                p: [at(i, j), at(i + 1, j), at(i, j + 1)],
                color,
                cull,
            });
            if i + j + 1 < n {
                prims.push(Prim::Tri {
                    p: [at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
                    color,
                    cull,
                });
            }
        }
    }
}

/// A line with a small arrowhead at `b`.
fn arrow(prims: &mut Vec<Prim>, a: Vec3, b: Vec3) {
    let d = b - a;
    let len = d.length();
    if len <= 0.0 || !len.is_finite() {
        return;
    }
    prims.push(Prim::Line {
        a,
        b,
        color: MOTION_COLOR,
        width: 2.0,
    });
    let dir = d / len;
    let (u, v) = dir.any_orthonormal_pair();
    let head = 0.12 * len;
    for side in [u, -u, v, -v] {
        prims.push(Prim::Line {
            a: b,
            b: b - dir * head + side * head * 0.45,
            color: MOTION_COLOR,
            width: 2.0,
        });
    }
}

/// The 12 edges of a box given its 8 corners (bit `i` of the index = `+` on axis `i`).
pub fn box_lines(prims: &mut Vec<Prim>, c: &[Vec3; 8], color: Rgba, width: f32) {
    for i in 0..8usize {
        for bit in [1usize, 2, 4] {
            if i & bit == 0 {
                prims.push(Prim::Line {
                    a: c[i],
                    b: c[i | bit],
                    color,
                    width,
                });
            }
        }
    }
}

fn obb_corners(o: &Obb) -> [Vec3; 8] {
    o.corners()
}

/// Three great circles of a sphere.
fn circle_lines(prims: &mut Vec<Prim>, c: Vec3, r: f32) {
    const N: usize = 48;
    for (u, v) in [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)] {
        for i in 0..N {
            let (t0, t1) = (
                std::f32::consts::TAU * i as f32 / N as f32,
                std::f32::consts::TAU * (i + 1) as f32 / N as f32,
            );
            prims.push(Prim::Line {
                a: c + r * (u * t0.cos() + v * t0.sin()),
                b: c + r * (u * t1.cos() + v * t1.sin()),
                color: SPHERE_COLOR,
                width: 1.0,
            });
        }
    }
}

/// A square of the plane centred on the projection of `near`, `2 size` wide, as a 6 × 6
/// grid of small quads (so the painter's sort interleaves it with the bodies it cuts) and its
/// outline.
pub fn plane_quads(prims: &mut Vec<Prim>, plane: &Plane, near: Vec3, size: f32) {
    const N: usize = 6;
    let n = plane.normal;
    let c = plane.project(near);
    let (u, v) = n.any_orthonormal_pair();
    let at = |i: usize, j: usize| {
        let (s, t) = (
            -1.0 + 2.0 * i as f32 / N as f32,
            -1.0 + 2.0 * j as f32 / N as f32,
        );
        c + size * (u * s + v * t)
    };
    for i in 0..N {
        for j in 0..N {
            prims.push(Prim::Poly {
                p: vec![at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
                color: PLANE_FILL,
                outline: None,
            });
        }
    }
    let corners = [at(0, 0), at(N, 0), at(N, N), at(0, N)];
    for k in 0..4 {
        prims.push(Prim::Line {
            a: corners[k],
            b: corners[(k + 1) % 4],
            color: PLANE_EDGE,
            width: 1.5,
        });
    }
}

/// A faint grid on the plane under the scene.
fn grid(prims: &mut Vec<Prim>, b: &Aabb) {
    let size = b.size();
    let span = size.x.max(size.z) * 0.75 + 1e-3;
    let step = nice_step(span / 6.0);
    let c = b.center();
    let y = b.min.y;
    let (x0, x1) = (
        ((c.x - span) / step).floor() * step,
        ((c.x + span) / step).ceil() * step,
    );
    let (z0, z1) = (
        ((c.z - span) / step).floor() * step,
        ((c.z + span) / step).ceil() * step,
    );
    let mut x = x0;
    while x <= x1 + 1e-4 {
        prims.push(Prim::Line {
            a: Vec3::new(x, y, z0),
            b: Vec3::new(x, y, z1),
            color: GRID_COLOR,
            width: 1.0,
        });
        x += step;
    }
    let mut z = z0;
    while z <= z1 + 1e-4 {
        prims.push(Prim::Line {
            a: Vec3::new(x0, y, z),
            b: Vec3::new(x1, y, z),
            color: GRID_COLOR,
            width: 1.0,
        });
        z += step;
    }
}

/// 1, 2 or 5 times a power of ten, at least `x`.
fn nice_step(x: f32) -> f32 {
    let p = 10f32.powf(x.max(1e-6).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * p)
}
