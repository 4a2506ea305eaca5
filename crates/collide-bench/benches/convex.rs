//! collide vs parry3d on convex hulls of the real meshes, identical shapes and poses.
//!
//! - `hull_intersection`: 1,000 frames of two hulls sliding slowly past each other: collide's
//!   SAT with its per-pair `SepCache`, without it, and parry's `intersection_test`.
//! - `hull_contact`: 100 overlapping hull pairs: collide's `contact_manifold` (up to 4 points),
//!   the SAT alone and collide's `contact` (one point, GJK + EPA), parry's `contact` (one
//!   point, GJK + EPA).
//! - `quickhull`: 64, 1,000 and 100,000 random points in a ball and on a sphere:
//!   `ConvexHull::try_new` vs `parry3d::transformation::convex_hull` (one run of all six rows
//!   side by side: the `hull_compare` binary).

use std::hint::black_box;
use std::sync::Arc;

use collide::convex::contact::contact;
use collide::convex::{contact_manifold, sat, sat_cached, ConvexHull, ConvexPolyhedron, SepCache};
use collide::{Quat, Vec3};
use collide_bench::{convert, inputs};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};
use parry3d::math::Pose;
use parry3d::query;
use parry3d::shape::ConvexPolyhedron as ParryPoly;

struct Shape {
    hull: Arc<ConvexHull>,
    parry: ParryPoly,
}

/// The hull of a mesh (all parts, or only part `part`), recentred to unit radius, and parry's
/// polyhedron of it.
fn shape_part(name: &str, part: Option<usize>) -> Shape {
    let hull = inputs::mesh_hull(name, part).unwrap();
    let parry = convert::hull(&hull).unwrap();
    Shape {
        hull: Arc::new(hull),
        parry,
    }
}

fn shape(name: &str) -> Shape {
    shape_part(name, None)
}

struct Frame {
    a: ConvexPolyhedron,
    b: ConvexPolyhedron,
    pa: Pose,
    pb: Pose,
}

fn frame(sa: &Shape, qa: Quat, ta: Vec3, sb: &Shape, qb: Quat, tb: Vec3) -> Frame {
    Frame {
        a: ConvexPolyhedron::new(sa.hull.clone()).with_pose(qa, ta),
        b: ConvexPolyhedron::new(sb.hull.clone()).with_pose(qb, tb),
        pa: Pose::from_parts(ta, qa.normalize()),
        pb: Pose::from_parts(tb, qb.normalize()),
    }
}

fn bench_intersection(c: &mut Criterion) {
    // The pair and path of the `sat_agreement` hit-rate test: the bunny's hull and the duck's
    // first piece; B passes over A without touching.
    let (sa, sb) = (shape("bunny.obj"), shape_part("duck_vhacd.obj", Some(0)));
    let n = 1000;
    let seq: Vec<Frame> = (0..n)
        .map(|k| {
            let u = k as f32 / n as f32;
            frame(
                &sa,
                Quat::from_rotation_y(0.3 * u),
                Vec3::ZERO,
                &sb,
                Quat::from_rotation_z(0.5 * u) * Quat::from_rotation_x(0.2),
                Vec3::new(-4.0 + 8.0 * u, 1.75, 0.3 * (6.0 * u).sin()),
            )
        })
        .collect();
    let mut g = c.benchmark_group("hull_intersection_1000_frames");
    g.bench_function("collide_sat_cached", |bench| {
        bench.iter(|| {
            let mut cache = SepCache::default();
            let mut hits = 0;
            for f in &seq {
                hits += usize::from(sat_cached(&f.a, &f.b, &mut cache).is_penetrating());
            }
            black_box(hits)
        })
    });
    g.bench_function("collide_sat_uncached", |bench| {
        bench.iter(|| {
            let mut hits = 0;
            for f in &seq {
                hits += usize::from(sat(&f.a, &f.b).is_penetrating());
            }
            black_box(hits)
        })
    });
    g.bench_function("parry_intersection_test", |bench| {
        bench.iter(|| {
            let mut hits = 0;
            for f in &seq {
                hits += usize::from(
                    query::intersection_test(&f.pa, &sa.parry, &f.pb, &sb.parry)
                        .unwrap()
                        .intersecting,
                );
            }
            black_box(hits)
        })
    });
    g.finish();
}

fn bench_contact(c: &mut Criterion) {
    let (sa, sb) = (shape("bunny.obj"), shape("teddy2_VHACD_CHs.obj"));
    let mut gen = Gen::new(60);
    let pairs: Vec<Frame> = (0..100)
        .map(|_| {
            let (qa, qb) = (gen.quat(), gen.quat());
            let tb = gen.unit() * gen.range(0.5, 1.4);
            frame(&sa, qa, Vec3::ZERO, &sb, qb, tb)
        })
        .collect();
    let mut g = c.benchmark_group("hull_contact_100_pairs");
    g.bench_function("collide_contact_manifold", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for f in &pairs {
                n += contact_manifold(&f.a, &f.b, &mut SepCache::default())
                    .map_or(0, |m| m.points().len());
            }
            black_box(n)
        })
    });
    g.bench_function("collide_sat_depth", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for f in &pairs {
                n += usize::from(sat(&f.a, &f.b).is_penetrating());
            }
            black_box(n)
        })
    });
    g.bench_function("collide_contact_gjk_epa", |bench| {
        // Like for like with parry's `contact`: one point, GJK + EPA.
        bench.iter(|| {
            let mut n = 0;
            for f in &pairs {
                n += usize::from(contact(&f.a, &f.b, 0.0).is_some());
            }
            black_box(n)
        })
    });
    g.bench_function("parry_contact", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for f in &pairs {
                n += usize::from(
                    query::contact(&f.pa, &sa.parry, &f.pb, &sb.parry, 0.0)
                        .unwrap()
                        .is_some(),
                );
            }
            black_box(n)
        })
    });
    g.finish();
}

fn bench_quickhull(c: &mut Criterion) {
    let mut g = c.benchmark_group("quickhull");
    for sphere in [false, true] {
        for n in [64usize, 1_000, 100_000] {
            let mut gen = Gen::new(61);
            let pts: Vec<Vec3> = (0..n)
                .map(|_| {
                    let u = gen.unit();
                    if sphere {
                        u
                    } else {
                        u * gen.range(0.0, 1.0).cbrt()
                    }
                })
                .collect();
            let name = format!(
                "{n}_points_{}",
                if sphere { "on_sphere" } else { "in_ball" }
            );
            g.bench_function(format!("collide_{name}"), |bench| {
                bench.iter(|| black_box(ConvexHull::try_new(&pts).unwrap().faces().len()))
            });
            g.bench_function(format!("parry_{name}"), |bench| {
                bench.iter(|| black_box(parry3d::transformation::convex_hull(&pts).1.len()))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench_intersection, bench_contact, bench_quickhull);
criterion_main!(benches);
