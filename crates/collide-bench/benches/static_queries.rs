//! Criterion benches, one group per query shared with parry3d: `collide` and `parry3d`
//! functions on the same fixed inputs (`collide_bench::cases`, 4096 random configurations,
//! mixed hits and misses). Each iteration runs the whole set; throughput is per query.
//!
//! `cargo bench -p collide-bench --bench static_queries [-- obb_obb]`

use collide_bench::cases;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut all = cases::static_cases(4096);
    all.extend(cases::ray_cases(4096));
    all.extend(cases::sweep_cases(4096));
    for case in &mut all {
        let mut g = c.benchmark_group(case.name.as_str());
        g.throughput(Throughput::Elements(case.n as u64));
        g.bench_function("collide", |b| b.iter(|| black_box((case.collide)())));
        g.bench_function("parry3d", |b| b.iter(|| black_box((case.parry)())));
        g.finish();
    }
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
