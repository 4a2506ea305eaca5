//! Helpers shared by the tests: the f64 oracles of `collide_testkit::oracle` (re-exported, so
//! a test names them `common::…`), the real meshes, and the harness's own pieces (case counts,
//! a seeded proptest runner, tallies of verdicts).
#![allow(dead_code, unused_imports)]

pub use collide_testkit::oracle::brute::*;
pub use collide_testkit::oracle::{dv, Box64};
pub use collide_testkit::{mesh_path, REAL_MESHES};

/// Number of cases for a randomized test: `default`, or `long` with `COLLIDE_LONG=1`.
pub fn cases(default: usize, long: usize) -> usize {
    if std::env::var("COLLIDE_LONG").is_ok_and(|v| v == "1") {
        long
    } else {
        default
    }
}

/// Tallies of a randomized comparison: cases where both said "touching", both said "apart",
/// and cases skipped because the f64 separation was within the band around touching.
#[derive(Debug, Default)]
pub struct Tally {
    pub hit: std::cell::Cell<usize>,
    pub miss: std::cell::Cell<usize>,
    pub skipped: std::cell::Cell<usize>,
}

impl Tally {
    /// Records a verdict the test compared.
    pub fn count(&self, touching: bool) {
        let c = if touching { &self.hit } else { &self.miss };
        c.set(c.get() + 1);
    }

    /// Records a skipped (near-touching) case.
    pub fn skip(&self) {
        self.skipped.set(self.skipped.get() + 1);
    }

    /// Asserts that both verdicts occurred often enough for the comparison to mean something,
    /// and prints the counts (visible with `--nocapture`).
    pub fn assert_balanced(&self, name: &str, min_fraction: f64) {
        let (h, m, s) = (self.hit.get(), self.miss.get(), self.skipped.get());
        let n = (h + m + s).max(1) as f64;
        println!("{name}: {h} touching, {m} apart, {s} skipped near touching");
        assert!(
            h as f64 >= min_fraction * n && m as f64 >= min_fraction * n,
            "{name}: unbalanced sample: {h} touching, {m} apart, {s} skipped"
        );
    }
}

/// A proptest runner with a fixed seed (ChaCha), no failure persistence, and `cases` cases.
pub fn runner(cases: usize, seed: u8) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config = Config {
        cases: cases as u32,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

/// The proptest config of the property files: `COLLIDE_PROPTEST_CASES` cases (default 2000),
/// the fixed seed `seed`, no failure persistence.
pub fn proptest_config(seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let cases = std::env::var("COLLIDE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Asserts that every vertex of `hull` is one of `points`, bit for bit (`prefix` starts the
/// failure message).
pub fn assert_vertices_are_inputs(
    hull: &collide::convex::ConvexHull,
    points: &[collide::Vec3],
    prefix: &str,
) {
    let mut sorted: Vec<[u32; 3]> = points
        .iter()
        .map(|p| p.to_array().map(f32::to_bits))
        .collect();
    sorted.sort_unstable();
    for v in hull.vertices() {
        assert!(
            sorted
                .binary_search(&v.to_array().map(f32::to_bits))
                .is_ok(),
            "{prefix}hull vertex {v} is not an input point"
        );
    }
}
