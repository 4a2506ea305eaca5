//! One query against 4096 stored shapes: `collide::batch` (8-lane SoA chunks) against the
//! plain loop over a slice. Throughput is reported in elements (tests) per second; divide by
//! 1e9 for tests per nanosecond.

use collide::batch::{mask_words, AabbSoa, SphereSoa};
use collide::overlap;
use collide::raycast::RayInv;
use collide::shapes::{Aabb, Sphere};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const N: usize = 4096;

/// Small boxes spread over [-8, 8]^3 and 64 query boxes of half-size up to 1: a few percent
/// of the boxes hit each query, as in a broad-phase query.
fn inputs() -> (Vec<Aabb>, Vec<Aabb>, Vec<Sphere>, Vec<Sphere>) {
    let mut g = Gen::new(42);
    g.extent = 8.0;
    g.max_size = 0.5;
    let boxes = (0..N).map(|_| g.aabb()).collect();
    let spheres = (0..N).map(|_| g.sphere()).collect();
    g.max_size = 1.0;
    let qb = (0..64).map(|_| g.aabb()).collect();
    let qs = (0..64).map(|_| g.sphere()).collect();
    (boxes, qb, spheres, qs)
}

fn bench(c: &mut Criterion) {
    let (boxes, qb, spheres, qs) = inputs();
    let soa = AabbSoa::from_aabbs(&boxes);
    let ssoa = SphereSoa::from_spheres(&spheres);
    let mut mask = vec![0u64; mask_words(N)];

    let mut g = c.benchmark_group("batch_aabb_4096");
    g.throughput(Throughput::Elements(N as u64));
    let mut k = 0;
    g.bench_function("soa_count", |b| {
        b.iter(|| {
            k = (k + 1) % qb.len();
            black_box(soa.count_overlaps(black_box(&qb[k])))
        })
    });
    g.bench_function("soa_mask", |b| {
        b.iter(|| {
            k = (k + 1) % qb.len();
            black_box(soa.overlap_mask(black_box(&qb[k]), &mut mask))
        })
    });
    g.bench_function("soa_for_each", |b| {
        b.iter(|| {
            k = (k + 1) % qb.len();
            let mut sum = 0usize;
            soa.for_each_overlap(black_box(&qb[k]), |i| sum += i);
            black_box(sum)
        })
    });
    g.bench_function("slice_loop", |b| {
        b.iter(|| {
            k = (k + 1) % qb.len();
            let q = black_box(&qb[k]);
            black_box(boxes.iter().filter(|b| overlap::aabb_aabb(q, b)).count())
        })
    });
    g.finish();

    let mut gen = Gen::new(7);
    gen.extent = 8.0;
    let rays: Vec<RayInv> = (0..64).map(|_| RayInv::new(&gen.ray())).collect();
    let mut g = c.benchmark_group("batch_ray_4096");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("soa_mask", |b| {
        b.iter(|| {
            k = (k + 1) % rays.len();
            black_box(soa.ray_mask(black_box(&rays[k]), 1.0, &mut mask))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("batch_sphere_4096");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("soa_count", |b| {
        b.iter(|| {
            k = (k + 1) % qs.len();
            black_box(ssoa.count_overlaps(black_box(&qs[k])))
        })
    });
    g.bench_function("slice_loop", |b| {
        b.iter(|| {
            k = (k + 1) % qs.len();
            let q = black_box(&qs[k]);
            black_box(
                spheres
                    .iter()
                    .filter(|s| overlap::sphere_sphere(q, s))
                    .count(),
            )
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
