//! Hill-climbing support (`ConvexHull::support_hill_climb`) against the brute-force maximum
//! over all hull vertices, and the hill-climbing SAT against a brute-force-projection SAT.
//!
//! Oracles: for random unit directions and random start vertices, `dir · v` at the vertex the
//! walk returns equals `max_v dir · v` (within a few times the hull's build tolerance: the hull
//! is convex only to that tolerance). Hulls: every mesh of `assets/meshes/` (whole and each
//! V-HACD piece), and grids of points on cubes, whose big coplanar faces make plateaus where a
//! walk must not stop early. The adjacency itself: symmetric, no self-loops, `2 · edges`
//! entries in all. The inner ball the SAT uses to skip face planes lies inside every real hull
//! (brute force over the vertices).

use crate::common;

use crate::common::{mesh_path, REAL_MESHES};
use collide::convex::ConvexHull;
use collide::io;
use collide::Vec3;
use collide_testkit::Gen;

/// Every hull of the test set: whole meshes and each piece with a volume.
fn mesh_hulls() -> Vec<(String, ConvexHull)> {
    let mut out = Vec::new();
    for name in REAL_MESHES {
        let model = io::load(mesh_path(name)).unwrap();
        out.push((
            name.to_string(),
            ConvexHull::try_new(&model.merged().vertices).unwrap(),
        ));
        if model.parts.len() > 1 {
            for (k, part) in model.parts.iter().enumerate() {
                if let Ok(h) = ConvexHull::try_new(&part.mesh.vertices) {
                    out.push((format!("{name} piece {k}"), h));
                }
            }
        }
    }
    out
}

/// The surface points of an `n × n × n` lattice over the box `[-half, half]`: big coplanar
/// faces (plateaus for axis directions) and collinear points along the box edges.
fn surface_grid(n: usize, half: Vec3) -> Vec<Vec3> {
    let mut pts = Vec::new();
    let c = |k: usize| -1.0 + 2.0 * k as f32 / (n - 1) as f32;
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let on_surface = [i, j, k].iter().any(|&x| x == 0 || x == n - 1);
                if on_surface {
                    pts.push(Vec3::new(c(i), c(j), c(k)) * half);
                }
            }
        }
    }
    pts
}

fn check_adjacency(hull: &ConvexHull, what: &str) {
    let nv = hull.vertices().len();
    let mut total = 0;
    for v in 0..nv {
        let nb = hull.neighbours(v);
        total += nb.len();
        assert!(
            nb.len() >= 3,
            "{what}: vertex {v} has {} neighbours",
            nb.len()
        );
        for &w in nb {
            assert_ne!(w as usize, v, "{what}: self-loop at {v}");
            assert!(
                hull.neighbours(w as usize).contains(&(v as u32)),
                "{what}: {v}→{w} not symmetric"
            );
        }
    }
    assert_eq!(total, 2 * hull.edges().len(), "{what}");
    assert!(hull.neighbours(nv).is_empty(), "{what}: out of range");
}

fn check_support(hull: &ConvexHull, what: &str, g: &mut Gen, cases: usize) {
    let verts = hull.vertices();
    // Convex within 2 · tolerance (validate's bound), so a vertex where no neighbour is
    // better is at most that far (times |dir| = 1) below the maximum; allow 4 ×.
    let tol = 4.0 * hull.tolerance();
    for _ in 0..cases {
        let dir = g.unit();
        let start = (g.range(0.0, verts.len() as f32) as u32).min(verts.len() as u32 - 1);
        let v = hull.support_hill_climb(dir, start);
        let got = dir.dot(verts[v as usize]);
        let brute = verts
            .iter()
            .map(|p| p.dot(dir))
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(
            brute - got <= tol && got <= brute,
            "{what}: dir {dir} start {start}: climb {got} at {v}, brute {brute}"
        );
    }
    // Axis directions hit whole faces (plateaus) on boxes and grids.
    for dir in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
        for start in 0..verts.len().min(64) as u32 {
            let got = dir.dot(verts[hull.support_hill_climb(dir, start) as usize]);
            let brute = verts
                .iter()
                .map(|p| p.dot(dir))
                .fold(f32::NEG_INFINITY, f32::max);
            assert!(
                brute - got <= tol,
                "{what}: axis {dir} start {start}: climb {got}, brute {brute}, tol {tol}, nv {}",
                verts.len()
            );
        }
    }
}

#[test]
fn hill_climb_matches_brute_force_on_mesh_hulls() {
    // Random directions and starts on every real hull.
    let mut g = Gen::new(0x5a7f);
    let cases = common::cases(2000, 50_000);
    for (what, hull) in mesh_hulls() {
        check_adjacency(&hull, &what);
        check_support(&hull, &what, &mut g, cases);
    }
}

#[test]
fn hill_climb_matches_brute_force_on_coplanar_grids() {
    // Cube and box surface grids, walked from random starts in random and axis directions.
    // Quickhull drops the coplanar and collinear grid points (8 vertices: exact plateaus of
    // 4 tied vertices along the axes); the bulged grids below keep them all, as nearly
    // coplanar faces. (The redundant-vertex case, where a plain walk stops short of the
    // maximum, is the teddy piece 2 hull of the mesh test.)
    let mut g = Gen::new(0xc0b3);
    let cases = common::cases(2000, 50_000);
    for n in [3, 5, 9] {
        for half in [Vec3::ONE, Vec3::new(3.0, 0.5, 1.0)] {
            let pts = surface_grid(n, half);
            let hull = ConvexHull::try_new(&pts).unwrap();
            let what = format!("grid {n} {half}");
            eprintln!("{what}: {} hull vertices", hull.vertices().len());
            check_adjacency(&hull, &what);
            check_support(&hull, &what, &mut g, cases);
        }
    }
    // Bulged grids: `p · (1 + ε (3 − |p|²) / 3)` pushes each face out by about
    // `ε (2 − u² − v²) / 3` (concave in the face coordinates, so the surface stays convex):
    // every grid point is a hull vertex and big faces become gentle near-plateaus.
    for eps in [1e-3_f32, 1e-5] {
        let pts: Vec<Vec3> = surface_grid(9, Vec3::ONE)
            .into_iter()
            .map(|p| p * (1.0 + eps * (3.0 - p.length_squared()) / 3.0))
            .collect();
        let hull = ConvexHull::try_new(&pts).unwrap();
        let what = format!("bulged grid eps {eps}");
        eprintln!("{what}: {} hull vertices", hull.vertices().len());
        assert!(hull.vertices().len() > 8, "{what}");
        check_adjacency(&hull, &what);
        check_support(&hull, &what, &mut g, cases);
    }
    // A cube with each face's centre raised a little: a pyramid cap per face, so the
    // hull keeps vertices whose faces are nearly coplanar with big neighbours.
    let mut pts = surface_grid(2, Vec3::ONE);
    for dir in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
        pts.push(dir * 1.01);
    }
    let hull = ConvexHull::try_new(&pts).unwrap();
    check_adjacency(&hull, "capped cube");
    check_support(&hull, "capped cube", &mut g, cases);
}

#[test]
fn out_of_range_start_and_nan_direction_do_not_panic() {
    // Start past the end walks from vertex 0; a NaN direction stops at the start.
    let hull = ConvexHull::try_new(&surface_grid(3, Vec3::ONE)).unwrap();
    let v = hull.support_hill_climb(Vec3::X, u32::MAX);
    assert!((hull.vertices()[v as usize].x - 1.0).abs() <= 1e-6);
    assert_eq!(hull.support_hill_climb(Vec3::NAN, 2), 2);
}

#[test]
fn inner_ball_is_inside_every_mesh_hull() {
    // The SAT's face-skipping bound: `min_v n · v <= n · centre − radius` for every unit `n`
    // (brute force over the vertices), on every real hull and on random directions and the
    // face normals; and the ball is not trivial on these solid shapes.
    let mut g = Gen::new(0xba11);
    for (what, hull) in mesh_hulls() {
        let (c, r) = hull.inner_ball();
        assert!(r >= 0.0 && c.is_finite(), "{what}");
        let dirs: Vec<Vec3> = (0..500)
            .map(|_| g.unit())
            .chain(hull.faces().iter().map(|f| -f.plane.normal))
            .collect();
        for n in dirs {
            let min = hull
                .vertices()
                .iter()
                .map(|v| n.dot(*v))
                .fold(f32::INFINITY, f32::min);
            assert!(
                min <= n.dot(c) - r + 1e-6 * (1.0 + c.length()),
                "{what}: n {n}: min {min} above the ball's {}",
                n.dot(c) - r
            );
        }
        let size = hull
            .vertices()
            .iter()
            .fold(0.0_f32, |m, v| m.max((*v - c).length()));
        assert!(r > 0.01 * size, "{what}: inner radius {r}, size {size}");
    }
}
