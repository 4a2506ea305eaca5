//! Convex hulls and the separating-axis test, the library alone.
//!
//! - `sat_slow_pass`: 1,000 frames of two real-mesh hulls sliding slowly past each other, the
//!   SAT with a per-pair `SepCache` (a hit is the cached feature's gap: B's pose relative to
//!   A and one support query, usually a single dot product while the query direction stays
//!   within the cached support vertex's reach) and without (a fresh cache each frame: the
//!   full search).
//! - `contact_manifold`: overlapping hull pairs.
//! - `quickhull`: 64 and 100,000 random points in a ball, and the bunny's 453 vertices.

use std::hint::black_box;
use std::sync::Arc;

use collide::convex::{contact_manifold, sat, sat_cached, ConvexHull, ConvexPolyhedron, SepCache};
use collide::{io, Quat, Vec3};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};

fn unit_hull(name: &str) -> Arc<ConvexHull> {
    let path = format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"));
    let pts = io::load(path).unwrap().merged().vertices;
    let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
    let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
    Arc::new(ConvexHull::try_new(&pts).unwrap())
}

fn unit_piece(name: &str, part: usize) -> Arc<ConvexHull> {
    let path = format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"));
    let pts = io::load(path).unwrap().parts[part].mesh.vertices.clone();
    let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
    let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
    Arc::new(ConvexHull::try_new(&pts).unwrap())
}

/// A slow pass like the `sat_agreement` test's: B slides over A, grazing it mid-way.
fn frames(n: usize) -> Vec<(ConvexPolyhedron, ConvexPolyhedron)> {
    // The pair of the `sat_agreement` hit-rate test: the bunny's hull, the duck's first piece.
    let (ha, hb) = (unit_hull("bunny.obj"), unit_piece("duck_vhacd.obj", 0));
    (0..n)
        .map(|k| {
            let u = k as f32 / n as f32;
            let a = ConvexPolyhedron::new(ha.clone())
                .with_pose(Quat::from_rotation_y(0.3 * u), Vec3::ZERO);
            let b = ConvexPolyhedron::new(hb.clone()).with_pose(
                Quat::from_rotation_z(0.5 * u) * Quat::from_rotation_x(0.2),
                Vec3::new(-4.0 + 8.0 * u, 1.75, 0.3 * (6.0 * u).sin()),
            );
            (a, b)
        })
        .collect()
}

fn bench_sat(c: &mut Criterion) {
    let seq = frames(1000);
    let mut g = c.benchmark_group("sat_slow_pass_1000_frames");
    g.bench_function("cached", |bench| {
        bench.iter(|| {
            let mut cache = SepCache::default();
            let mut n = 0;
            for (a, b) in &seq {
                n += usize::from(sat_cached(a, b, &mut cache).is_penetrating());
            }
            black_box(n)
        })
    });
    g.bench_function("uncached", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for (a, b) in &seq {
                n += usize::from(sat(a, b).is_penetrating());
            }
            black_box(n)
        })
    });
    g.finish();
}

fn bench_manifold(c: &mut Criterion) {
    let (ha, hb) = (unit_hull("bunny.obj"), unit_hull("teddy2_VHACD_CHs.obj"));
    let mut gen = Gen::new(60);
    let pairs: Vec<_> = (0..100)
        .map(|_| {
            let a = ConvexPolyhedron::new(ha.clone()).with_pose(gen.quat(), Vec3::ZERO);
            let b = ConvexPolyhedron::new(hb.clone())
                .with_pose(gen.quat(), gen.unit() * gen.range(0.5, 1.4));
            (a, b)
        })
        .collect();
    c.bench_function("contact_manifold_100_hull_pairs", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for (a, b) in &pairs {
                n += contact_manifold(a, b, &mut SepCache::default())
                    .map_or(0, |m| m.points().len());
            }
            black_box(n)
        })
    });
}

fn ball_points(n: usize, seed: u64) -> Vec<Vec3> {
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| g.unit() * g.range(0.0, 1.0).cbrt())
        .collect()
}

fn bench_quickhull(c: &mut Criterion) {
    let mut g = c.benchmark_group("quickhull");
    for n in [64, 100_000] {
        let pts = ball_points(n, 61);
        g.bench_function(format!("{n}_points_in_a_ball"), |bench| {
            bench.iter(|| black_box(ConvexHull::try_new(&pts).unwrap().faces().len()))
        });
    }
    let path = format!(
        "{}/../../assets/meshes/bunny.obj",
        env!("CARGO_MANIFEST_DIR")
    );
    let bunny = io::load(path).unwrap().merged().vertices;
    g.bench_function("bunny_453_vertices", |bench| {
        bench.iter(|| black_box(ConvexHull::try_new(&bunny).unwrap().faces().len()))
    });
    g.finish();
}

criterion_group!(benches, bench_sat, bench_manifold, bench_quickhull);
criterion_main!(benches);
