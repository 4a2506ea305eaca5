//! Bounding boxes every frame: tight AABB throughput on 1M vertices against a memory copy of
//! the same array (the physical limit), serial vs parallel across sizes (to pick
//! `PARALLEL_THRESHOLD`), the fast AABB per call, and the modelling-time fits on the bunny.
//!
//! `cargo bench -p collide --bench bounding`

use std::hint::black_box;

use collide::bounding::{obb_aabb, tight_aabb, tight_aabb_serial, tight_aabb_vec3};
use collide::shapes::{Aabb, Obb, Sphere};
use collide::{Affine3A, Vec3, Vec3A};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn pose(g: &mut Gen) -> Affine3A {
    Affine3A::from_scale_rotation_translation(g.sizes(), g.quat(), g.point())
}

fn tight_1m(c: &mut Criterion) {
    const N: usize = 1 << 20;
    let mut g = Gen::new(1);
    let pts: Vec<Vec3A> = (0..N).map(|_| g.point().into()).collect();
    let pts3: Vec<Vec3> = pts.iter().map(|&p| p.into()).collect();
    let m = pose(&mut g);
    let mut dst = vec![Vec3A::ZERO; N];
    let mut group = c.benchmark_group("tight_aabb_1M");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(30);
    group.bench_function("memcpy_vec3a", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&pts));
            black_box(&dst);
        })
    });
    group.bench_function("tight_aabb_parallel", |b| {
        b.iter(|| tight_aabb(black_box(&pts), black_box(&m)))
    });
    group.bench_function("tight_aabb_serial", |b| {
        b.iter(|| tight_aabb_serial(black_box(&pts), black_box(&m)))
    });
    group.bench_function("tight_aabb_vec3", |b| {
        b.iter(|| tight_aabb_vec3(black_box(&pts3), black_box(&m)))
    });
    group.bench_function("naive_transform_point3", |b| {
        // The straightforward loop, for comparison: transform_point3 then min/max.
        b.iter(|| {
            let mut bx = Aabb::EMPTY;
            for &p in black_box(&pts3) {
                bx = bx.including(m.transform_point3(p));
            }
            bx
        })
    });
    group.finish();
}

fn threshold(c: &mut Criterion) {
    let mut group = c.benchmark_group("tight_aabb_threshold");
    group.sample_size(30);
    let mut g = Gen::new(2);
    let m = pose(&mut g);
    for n in [1 << 12, 1 << 14, 1 << 16, 1 << 18] {
        let pts: Vec<Vec3A> = (0..n).map(|_| g.point().into()).collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("serial", n), &pts, |b, p| {
            b.iter(|| tight_aabb_serial(black_box(p), black_box(&m)))
        });
        group.bench_with_input(BenchmarkId::new("rayon", n), &pts, |b, p| {
            // Forced split, whatever the threshold.
            use rayon::prelude::*;
            b.iter(|| {
                black_box(p)
                    .par_chunks(1 << 14)
                    .map(|c| tight_aabb_serial(c, &m))
                    .reduce(|| Aabb::EMPTY, |a, b| a.union(&b))
            })
        });
    }
    group.finish();
}

fn fast(c: &mut Criterion) {
    let mut g = Gen::new(3);
    let boxes: Vec<Aabb> = (0..1024).map(|_| g.aabb()).collect();
    let obbs: Vec<Obb> = (0..1024).map(|_| g.obb()).collect();
    let poses: Vec<Affine3A> = (0..1024).map(|_| pose(&mut g)).collect();
    let mut group = c.benchmark_group("fast_aabb");
    group.throughput(Throughput::Elements(1024));
    group.bench_function("aabb_transformed", |b| {
        b.iter(|| {
            let mut acc = Aabb::EMPTY;
            for (x, m) in boxes.iter().zip(&poses) {
                acc = acc.union(&black_box(x).transformed(m));
            }
            acc
        })
    });
    group.bench_function("aabb_8_corners", |b| {
        // Lander's RecalcBBox: the 8 corners transformed (what `transformed` replaces).
        b.iter(|| {
            let mut acc = Aabb::EMPTY;
            for (x, m) in boxes.iter().zip(&poses) {
                for c in black_box(x).corners() {
                    acc = acc.including(m.transform_point3(c));
                }
            }
            acc
        })
    });
    group.bench_function("obb_aabb", |b| {
        b.iter(|| {
            let mut acc = Aabb::EMPTY;
            for (o, m) in obbs.iter().zip(&poses) {
                acc = acc.union(&obb_aabb(black_box(o), m));
            }
            acc
        })
    });
    group.finish();
}

fn fits(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/bunny.obj");
    let bunny = collide::io::load(path).expect("bunny").merged();
    let pts = &bunny.vertices;
    let mut group = c.benchmark_group("fit_bunny_453");
    group.sample_size(20);
    group.bench_function("obb_fit", |b| b.iter(|| Obb::fit(black_box(pts))));
    group.bench_function("obb_fit_pca", |b| b.iter(|| Obb::fit_pca(black_box(pts))));
    group.bench_function("sphere_ritter", |b| b.iter(|| Sphere::fit(black_box(pts))));
    group.bench_function("sphere_exact", |b| {
        b.iter(|| Sphere::fit_exact(black_box(pts)))
    });
    group.finish();
}

criterion_group!(benches, tight_1m, threshold, fast, fits);
criterion_main!(benches);
