//! Sweeps and ray casts of the library alone (per query, cycling through 1024 seeded inputs).
//! Run: `cargo bench -p collide --bench sweep`. The comparison with parry3d lives in
//! `crates/collide-bench/benches/sweeps.rs`.

use collide::raycast::{self, RayInv};
use collide::shapes::Ray;
use collide::sweep;
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const N: usize = 1024;

fn cycle<T, R>(c: &mut Criterion, name: &str, inputs: &[T], f: impl Fn(&T) -> R) {
    let mut i = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) & (N - 1);
            black_box(f(black_box(&inputs[i])))
        })
    });
}

fn benches(c: &mut Criterion) {
    let mut g = Gen::new(77);
    let pairs: Vec<_> = (0..N)
        .map(|_| {
            let (a, b) = (g.obb(), g.obb());
            let mb = (a.center - b.center) * g.range(0.5, 2.0) + g.vec(1.0);
            let (sa, sb) = (g.sphere(), g.sphere());
            let t = g.triangle();
            let p = g.plane();
            let r = Ray::new(g.point() * 1.5, (a.center - g.point() * 1.5) * 1.2);
            let w = g.unit() * g.range(0.0, 2.0);
            (a, b, mb, sa, sb, t, p, r, w)
        })
        .collect();
    cycle(c, "sweep/sphere_sphere", &pairs, |x| {
        sweep::sphere_sphere(&x.3, Vec3::ZERO, &x.4, x.2)
    });
    cycle(c, "sweep/sphere_plane", &pairs, |x| {
        sweep::sphere_plane(&x.3, x.2, &x.6)
    });
    cycle(c, "sweep/aabb_aabb", &pairs, |x| {
        sweep::aabb_aabb(&x.0.aabb(), Vec3::ZERO, &x.1.aabb(), x.2)
    });
    cycle(c, "sweep/obb_obb", &pairs, |x| {
        sweep::obb_obb(&x.0, Vec3::ZERO, &x.1, x.2)
    });
    cycle(c, "sweep/sphere_obb", &pairs, |x| {
        sweep::sphere_obb(&x.3, x.2, &x.1, Vec3::ZERO)
    });
    cycle(c, "sweep/sphere_triangle", &pairs, |x| {
        sweep::sphere_triangle(&x.3, x.2, &x.5, Vec3::ZERO)
    });
    cycle(c, "sweep/obb_obb_rotating", &pairs, |x| {
        let (qa, qb) = (x.0.rotation(), x.1.rotation());
        sweep::obb_obb_rotating(
            x.0.half_extents,
            (x.0.center, qa),
            (x.0.center, Quat::from_scaled_axis(x.8) * qa),
            x.1.half_extents,
            (x.1.center, qb),
            (x.1.center + x.2, qb),
        )
    });
    cycle(c, "raycast/aabb_inv", &pairs, |x| {
        raycast::aabb_inv(&RayInv::new(&x.7), &x.0.aabb(), 1.0)
    });
    cycle(c, "raycast/obb", &pairs, |x| raycast::obb(&x.7, &x.0, 1.0));
    cycle(c, "raycast/sphere", &pairs, |x| {
        raycast::sphere(&x.7, &x.3, 1.0)
    });
    cycle(c, "raycast/triangle", &pairs, |x| {
        raycast::triangle(&x.7, &x.5, 1.0)
    });
}

criterion_group!(group, benches);
criterion_main!(group);
