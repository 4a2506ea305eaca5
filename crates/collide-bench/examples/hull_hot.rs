//! `hull_hot N SPHERE SECS`: builds the hull_compare cloud of N points (on a sphere when
//! SPHERE is 1) in a loop for SECS seconds, for profiling.
use collide::convex::ConvexHull;
use collide_testkit::Gen;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let sphere = a.get(2).is_some_and(|s| s == "1");
    let secs: f64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let mut g = Gen::new(61);
    let pts: Vec<_> = (0..n)
        .map(|_| {
            let u = g.unit();
            if sphere {
                u
            } else {
                u * g.range(0.0, 1.0).cbrt()
            }
        })
        .collect();
    let start = Instant::now();
    let mut k = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        for _ in 0..100 {
            black_box(ConvexHull::try_new(black_box(&pts)).map_or(0, |h| h.faces().len()));
        }
        k += 100;
    }
    println!(
        "{:.2} µs per hull",
        start.elapsed().as_secs_f64() * 1e6 / k as f64
    );
}
