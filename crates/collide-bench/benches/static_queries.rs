//! Criterion benches, one group per query shared with parry3d: `collide` and `parry3d`
//! functions on the same fixed inputs (`collide_bench::cases`, 4096 random configurations,
//! mixed hits and misses). Each iteration runs the whole set; throughput is per query.
//!
//! `cargo bench -p collide-bench --bench static_queries [-- obb_obb]`

#[path = "common/rows.rs"]
mod rows;

use collide_bench::cases;
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let mut all = cases::static_cases(4096);
    all.extend(cases::ray_cases(4096));
    all.extend(cases::sweep_cases(4096));
    rows::bench_rows(c, &mut all);
}

criterion_group! {
    name = benches;
    config = rows::config();
    targets = bench
}
criterion_main!(benches);
