//! Criterion benches of the batch rows: one box / ray / sphere against 4096 stored ones,
//! `collide::batch` (8-lane SoA chunks) against a loop over parry3d's bounding volumes.
//! Throughput is per element test (elements/s ÷ 1e9 = tests per ns).
//!
//! `cargo bench -p collide-bench --bench batch`

#[path = "common/rows.rs"]
mod rows;

use collide_bench::cases;
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    rows::bench_rows(c, &mut cases::batch_cases(8));
}

criterion_group! {
    name = benches;
    config = rows::config();
    targets = bench
}
criterion_main!(benches);
