//! The criterion loop shared by the row benches (`static_queries`, `batch`): one group per
//! `collide_bench::cases` row, named after it (non-alphanumerics → `_`), with the `collide` and
//! `parry3d` closures on the same inputs and the throughput per query of the row.

use collide_bench::timing::Case;
use criterion::{Criterion, Throughput};
use std::hint::black_box;

/// The criterion settings of the row benches: short warm-up and measurement (each row is a
/// pass over thousands of inputs), 20 samples.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1))
        .sample_size(20)
}

/// Benches every row of `cases`.
pub fn bench_rows(c: &mut Criterion, cases: &mut [Case]) {
    for case in cases {
        let name: String = case
            .name
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(case.n as u64));
        g.bench_function("collide", |b| b.iter(|| black_box((case.collide)())));
        g.bench_function("parry3d", |b| b.iter(|| black_box((case.parry)())));
        g.finish();
    }
}
