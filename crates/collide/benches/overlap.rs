//! Criterion bench of `collide::overlap`, the library alone: each query over 4096 random
//! configurations (seeded `collide_testkit::Gen`, centres in `[-2.5, 2.5]³` so that both
//! verdicts are common). Throughput is in queries, so criterion's "elem/s" is queries/s and
//! the time per iteration divided by 4096 is the time per query.
//!
//! `cargo bench -p collide --bench overlap`

use std::hint::black_box;

use collide::overlap;
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 4096;

fn gen(seed: u64) -> Gen {
    let mut g = Gen::new(seed);
    g.extent = 2.5;
    g
}

/// Benchmarks `f` over `N` pairs drawn by `draw`.
fn bench_pair<A, B>(
    c: &mut Criterion,
    name: &str,
    seed: u64,
    mut draw: impl FnMut(&mut Gen) -> (A, B),
    f: fn(&A, &B) -> bool,
) {
    let mut g = gen(seed);
    let pairs: Vec<(A, B)> = (0..N).map(|_| draw(&mut g)).collect();
    let hits = pairs.iter().filter(|(a, b)| f(a, b)).count();
    let mut group = c.benchmark_group("overlap");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function(format!("{name} ({hits}/{N} touching)"), |bench| {
        bench.iter(|| {
            pairs
                .iter()
                .filter(|(a, b)| f(black_box(a), black_box(b)))
                .count()
        })
    });
    group.finish();
}

// One piece: a flat list, one `bench_pair` call per pair of shapes.
fn overlap_benches(c: &mut Criterion) {
    bench_pair(
        c,
        "sphere_sphere",
        1,
        |g| (g.sphere(), g.sphere()),
        overlap::sphere_sphere,
    );
    bench_pair(
        c,
        "aabb_aabb",
        2,
        |g| (g.aabb(), g.aabb()),
        overlap::aabb_aabb,
    );
    bench_pair(
        c,
        "sphere_aabb",
        3,
        |g| (g.sphere(), g.aabb()),
        overlap::sphere_aabb,
    );
    bench_pair(
        c,
        "sphere_obb",
        4,
        |g| (g.sphere(), g.obb()),
        overlap::sphere_obb,
    );
    bench_pair(c, "obb_obb", 5, |g| (g.obb(), g.obb()), overlap::obb_obb);
    bench_pair(c, "aabb_obb", 6, |g| (g.aabb(), g.obb()), overlap::aabb_obb);
    bench_pair(
        c,
        "segment_aabb",
        7,
        |g| (g.segment(), g.aabb()),
        overlap::segment_aabb,
    );
    bench_pair(
        c,
        "segment_obb",
        8,
        |g| (g.segment(), g.obb()),
        overlap::segment_obb,
    );
    bench_pair(
        c,
        "plane_sphere",
        9,
        |g| (g.plane(), g.sphere()),
        overlap::plane_sphere,
    );
    bench_pair(
        c,
        "plane_aabb",
        10,
        |g| (g.plane(), g.aabb()),
        overlap::plane_aabb,
    );
    bench_pair(
        c,
        "plane_obb",
        11,
        |g| (g.plane(), g.obb()),
        overlap::plane_obb,
    );
    bench_pair(
        c,
        "plane_capsule",
        12,
        |g| (g.plane(), g.capsule()),
        overlap::plane_capsule,
    );
    bench_pair(
        c,
        "capsule_capsule",
        13,
        |g| (g.capsule(), g.capsule()),
        overlap::capsule_capsule,
    );
    bench_pair(
        c,
        "capsule_sphere",
        14,
        |g| (g.capsule(), g.sphere()),
        overlap::capsule_sphere,
    );
    bench_pair(
        c,
        "sphere_triangle",
        15,
        |g| (g.sphere(), g.triangle()),
        overlap::sphere_triangle,
    );
    bench_pair(
        c,
        "triangle_aabb",
        16,
        |g| (g.triangle(), g.aabb()),
        overlap::triangle_aabb,
    );
    bench_pair(
        c,
        "triangle_obb",
        17,
        |g| (g.triangle(), g.obb()),
        overlap::triangle_obb,
    );
}

criterion_group!(benches, overlap_benches);
criterion_main!(benches);
