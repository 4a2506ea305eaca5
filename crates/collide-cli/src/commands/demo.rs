//! `collide demo`: a built-in scene run through the library, summarised in a few lines.
//!
//! The scene: `--bodies` randomly posed spheres, AABBs and OBBs (in equal shares, seeded by
//! `--seed`) in a cube sized so that a few hundred pairs touch. Every pair is tested with the
//! overlap test of its shape kinds (the mirrored kinds swap their arguments), and the demo
//! prints, per test, the pairs tested, how many overlap, and the time per query.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use collide::overlap;
use collide::shapes::{Aabb, Obb, Sphere};
use collide::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::CliError;

/// Arguments of `collide demo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Seed of the random scene (the same seed gives the same scene on every machine).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of bodies: spheres, AABBs and OBBs in equal shares (2 to 5000).
    #[arg(long, default_value_t = 300)]
    pub bodies: usize,
    /// Print the result as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One body of the scene.
#[derive(Clone, Copy, Debug)]
enum Body {
    Sphere(Sphere),
    Aabb(Aabb),
    Obb(Obb),
}

/// The result of one overlap test over its pairs.
#[derive(Debug, Serialize)]
struct TestRow {
    /// The function, e.g. `obb_obb`.
    test: &'static str,
    /// Pairs tested with it.
    pairs: usize,
    /// Pairs found touching or overlapping.
    overlapping: usize,
    /// Time per query in nanoseconds: the fastest of repeated passes over all the pairs.
    ns_per_query: f64,
}

/// The whole report (`--json` prints it as is).
#[derive(Debug, Serialize)]
struct Report {
    seed: u64,
    bodies: usize,
    spheres: usize,
    aabbs: usize,
    obbs: usize,
    /// Half-size of the cube the centres are drawn from.
    half_size: f32,
    tests: Vec<TestRow>,
    total: TestRow,
}

/// Runs `collide demo`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if !(2..=5000).contains(&args.bodies) {
        return Err(CliError::new(format!(
            "--bodies must be between 2 and 5000 (got {})",
            args.bodies
        )));
    }
    let (bodies, half_size) = scene(args.seed, args.bodies);
    let report = measure(args.seed, &bodies, half_size);
    let text = if args.json {
        let mut t = serde_json::to_string_pretty(&report)
            .map_err(|e| CliError::new(format!("could not write JSON: {e}")))?;
        t.push('\n');
        t
    } else {
        table(&report)
    };
    // A closed pipe (`collide demo | head`) is not an error.
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(CliError::new(format!("could not write to stdout: {e}"))),
    }
}

/// The random scene: `n` bodies with centres in a cube of half-size `1.6 · ∛n`, sizes in
/// `[0.3, 1.5]`, uniformly random rotations for the OBBs.
fn scene(seed: u64, n: usize) -> (Vec<Body>, f32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let half = 1.6 * (n as f32).cbrt();
    let point = |rng: &mut ChaCha8Rng| {
        Vec3::new(
            rng.random_range(-half..half),
            rng.random_range(-half..half),
            rng.random_range(-half..half),
        )
    };
    let size = |rng: &mut ChaCha8Rng| rng.random_range(0.3f32..1.5);
    let bodies = (0..n)
        .map(|i| match i % 3 {
            0 => Body::Sphere(Sphere::new(point(&mut rng), size(&mut rng))),
            1 => {
                let e = Vec3::new(size(&mut rng), size(&mut rng), size(&mut rng));
                Body::Aabb(Aabb::from_center_half_extents(point(&mut rng), e))
            }
            _ => {
                let c = point(&mut rng);
                // A uniformly random rotation: a point drawn uniformly in the unit 4-ball
                // (rejection sampling), normalised onto the sphere of unit quaternions.
                let q = loop {
                    let q = Quat::from_xyzw(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    let l = q.length_squared();
                    if l > 1e-4 && l <= 1.0 {
                        break q.normalize();
                    }
                };
                let e = Vec3::new(size(&mut rng), size(&mut rng), size(&mut rng));
                Body::Obb(Obb::new(c, q, e))
            }
        })
        .collect();
    (bodies, half)
}

/// Pairs of one kind, already in the argument order of their test.
struct Group<A, B> {
    name: &'static str,
    test: fn(&A, &B) -> bool,
    pairs: Vec<(A, B)>,
}

impl<A, B> Group<A, B> {
    fn new(name: &'static str, test: fn(&A, &B) -> bool) -> Self {
        Group {
            name,
            test,
            pairs: Vec::new(),
        }
    }

    /// Counts the overlapping pairs, then times repeated passes over all of them.
    fn run(&self) -> TestRow {
        let overlapping = self.pairs.iter().filter(|(a, b)| (self.test)(a, b)).count();
        let ns_per_query = if self.pairs.is_empty() {
            0.0
        } else {
            // Repeated passes over all pairs, at least 5 and at least 30 ms in all; the fastest
            // pass is reported, which is robust against the process being preempted on a busy
            // machine (a slow pass measures the machine, not the query).
            let (mut passes, mut total, mut best) = (0u32, Duration::ZERO, Duration::MAX);
            while passes < 5 || total < Duration::from_millis(30) {
                let start = Instant::now();
                let n = self
                    .pairs
                    .iter()
                    .filter(|(a, b)| (self.test)(black_box(a), black_box(b)))
                    .count();
                black_box(n);
                let t = start.elapsed();
                total += t;
                best = best.min(t);
                passes += 1;
            }
            best.as_secs_f64() * 1e9 / self.pairs.len() as f64
        };
        TestRow {
            test: self.name,
            pairs: self.pairs.len(),
            overlapping,
            ns_per_query,
        }
    }
}

/// Sorts every pair into its test (one `match` over the two kinds; mirrored arms swap the
/// arguments) and runs each test.
fn measure(seed: u64, bodies: &[Body], half_size: f32) -> Report {
    let mut ss = Group::new("sphere_sphere", overlap::sphere_sphere);
    let mut sa = Group::new("sphere_aabb", overlap::sphere_aabb);
    let mut so = Group::new("sphere_obb", overlap::sphere_obb);
    let mut aa = Group::new("aabb_aabb", overlap::aabb_aabb);
    let mut ao = Group::new("aabb_obb", overlap::aabb_obb);
    let mut oo = Group::new("obb_obb", overlap::obb_obb);
    for (i, x) in bodies.iter().enumerate() {
        for y in &bodies[i + 1..] {
            match (*x, *y) {
                (Body::Sphere(a), Body::Sphere(b)) => ss.pairs.push((a, b)),
                (Body::Sphere(a), Body::Aabb(b)) => sa.pairs.push((a, b)),
                (Body::Aabb(a), Body::Sphere(b)) => sa.pairs.push((b, a)),
                (Body::Sphere(a), Body::Obb(b)) => so.pairs.push((a, b)),
                (Body::Obb(a), Body::Sphere(b)) => so.pairs.push((b, a)),
                (Body::Aabb(a), Body::Aabb(b)) => aa.pairs.push((a, b)),
                (Body::Aabb(a), Body::Obb(b)) => ao.pairs.push((a, b)),
                (Body::Obb(a), Body::Aabb(b)) => ao.pairs.push((b, a)),
                (Body::Obb(a), Body::Obb(b)) => oo.pairs.push((a, b)),
            }
        }
    }
    let tests = vec![ss.run(), sa.run(), so.run(), aa.run(), ao.run(), oo.run()];
    let pairs: usize = tests.iter().map(|t| t.pairs).sum();
    let total = TestRow {
        test: "all",
        pairs,
        overlapping: tests.iter().map(|t| t.overlapping).sum(),
        ns_per_query: tests
            .iter()
            .map(|t| t.ns_per_query * t.pairs as f64)
            .sum::<f64>()
            / pairs.max(1) as f64,
    };
    let count = |f: fn(&Body) -> bool| bodies.iter().filter(|b| f(b)).count();
    Report {
        seed,
        bodies: bodies.len(),
        spheres: count(|b| matches!(b, Body::Sphere(_))),
        aabbs: count(|b| matches!(b, Body::Aabb(_))),
        obbs: count(|b| matches!(b, Body::Obb(_))),
        half_size,
        tests,
        total,
    }
}

/// The report as a short table.
fn table(r: &Report) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "collide demo: {} bodies ({} spheres, {} AABBs, {} OBBs) in a cube of half-size {:.1}, seed {}",
        r.bodies, r.spheres, r.aabbs, r.obbs, r.half_size, r.seed
    );
    let _ = writeln!(
        out,
        "every pair ({}) tested with its overlap test; touching counts as overlapping\n",
        r.total.pairs
    );
    let _ = writeln!(
        out,
        "  {:<15} {:>9} {:>12} {:>10}",
        "test", "pairs", "overlapping", "ns/query"
    );
    for t in r.tests.iter().chain(std::iter::once(&r.total)) {
        if t.test == "all" {
            let _ = writeln!(out, "  {}", "-".repeat(49));
        }
        let _ = writeln!(
            out,
            "  {:<15} {:>9} {:>12} {:>10.1}",
            t.test, t.pairs, t.overlapping, t.ns_per_query
        );
    }
    let _ = writeln!(
        out,
        "\nns/query: the fastest of repeated timed passes over each test's pairs"
    );
    if cfg!(debug_assertions) {
        let _ = writeln!(
            out,
            "(debug build: run with --release for representative times)"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_scene_and_counts() {
        let (a, _) = scene(7, 60);
        let (b, _) = scene(7, 60);
        let ra = measure(7, &a, 1.0);
        let rb = measure(7, &b, 1.0);
        let counts = |r: &Report| {
            r.tests
                .iter()
                .map(|t| (t.pairs, t.overlapping))
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&ra), counts(&rb));
        assert_eq!(ra.total.pairs, 60 * 59 / 2);
        assert_eq!((ra.spheres, ra.aabbs, ra.obbs), (20, 20, 20));
    }

    #[test]
    fn overlap_counts_match_a_direct_count() {
        // The sorted groups see every pair once, in either order: compare the AABB–AABB count
        // with a direct double loop.
        let (bodies, half) = scene(3, 90);
        let r = measure(3, &bodies, half);
        let boxes: Vec<Aabb> = bodies
            .iter()
            .filter_map(|b| match b {
                Body::Aabb(a) => Some(*a),
                _ => None,
            })
            .collect();
        let mut direct = 0;
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                direct += usize::from(overlap::aabb_aabb(&boxes[i], &boxes[j]));
            }
        }
        let row = r.tests.iter().find(|t| t.test == "aabb_aabb").unwrap();
        assert_eq!(row.overlapping, direct);
    }

    #[test]
    fn bad_body_count_is_an_error() {
        let args = Args {
            seed: 1,
            bodies: 1,
            json: false,
        };
        assert!(run(args).is_err());
    }
}
