//! Criterion benches of the batch rows: one box / ray / sphere against 4096 stored ones,
//! `collide::batch` (8-lane SoA chunks) against a loop over parry3d's bounding volumes.
//! Throughput is per element test (elements/s ÷ 1e9 = tests per ns).
//!
//! `cargo bench -p collide-bench --bench batch`

use collide_bench::cases;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for case in &mut cases::batch_cases(8) {
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

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1))
        .sample_size(20);
    targets = bench
}
criterion_main!(benches);
