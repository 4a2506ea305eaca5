//! GJK, EPA and contact on the library alone: box–box, capsule–box and hull–hull (32-point
//! clouds), separated and overlapping, cold and warm-started.

use collide::convex::gjk::{self, GjkCache};
use collide::convex::{contact, epa};
use collide::shapes::{Capsule, Obb};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn cloud(g: &mut Gen, center: Vec3, n: usize) -> Vec<Vec3> {
    (0..n)
        .map(|_| center + g.unit() * g.range(0.6, 1.0))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut g = Gen::new(1);
    let q1 = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.7, -0.2);
    let q2 = Quat::from_euler(glam::EulerRot::XYZ, -0.5, 0.1, 0.9);
    let a = Obb::new(Vec3::ZERO, q1, Vec3::new(1.0, 0.7, 0.5));
    let b_apart = Obb::new(Vec3::new(2.6, 0.3, 0.1), q2, Vec3::new(0.8, 0.6, 0.4));
    let b_over = Obb::new(Vec3::new(1.2, 0.3, 0.1), q2, Vec3::new(0.8, 0.6, 0.4));
    let cap = Capsule::new(Vec3::new(0.9, -1.0, 0.2), Vec3::new(1.1, 1.0, -0.1), 0.3);
    let h1 = cloud(&mut g, Vec3::ZERO, 32);
    let h2_apart = cloud(&mut g, Vec3::new(2.2, 0.2, 0.0), 32);
    let h2_over = cloud(&mut g, Vec3::new(1.5, 0.2, 0.0), 32);

    let mut grp = c.benchmark_group("gjk");
    grp.bench_function("box_box_intersects_apart", |bn| {
        bn.iter(|| gjk::intersects(black_box(&a), black_box(&b_apart)))
    });
    let mut cache = GjkCache::default();
    grp.bench_function("box_box_intersects_apart_cached", |bn| {
        bn.iter(|| gjk::intersects_cached(black_box(&a), black_box(&b_apart), &mut cache))
    });
    grp.bench_function("box_box_intersects_overlap", |bn| {
        bn.iter(|| gjk::intersects(black_box(&a), black_box(&b_over)))
    });
    grp.bench_function("box_box_distance", |bn| {
        bn.iter(|| gjk::distance(black_box(&a), black_box(&b_apart)))
    });
    grp.bench_function("box_box_penetration", |bn| {
        bn.iter(|| epa::penetration(black_box(&a), black_box(&b_over)))
    });
    grp.bench_function("box_box_contact", |bn| {
        bn.iter(|| contact::contact(black_box(&a), black_box(&b_over), 0.0))
    });
    grp.bench_function("capsule_box_contact", |bn| {
        bn.iter(|| contact::contact(black_box(&cap), black_box(&a), 0.0))
    });
    grp.bench_function("hull32_distance", |bn| {
        bn.iter(|| gjk::distance(black_box(&h1[..]), black_box(&h2_apart[..])))
    });
    grp.bench_function("hull32_intersects_overlap", |bn| {
        bn.iter(|| gjk::intersects(black_box(&h1[..]), black_box(&h2_over[..])))
    });
    grp.bench_function("hull32_contact", |bn| {
        bn.iter(|| contact::contact(black_box(&h1[..]), black_box(&h2_over[..]), 0.0))
    });
    grp.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
