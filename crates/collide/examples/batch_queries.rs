//! One query against thousands of objects with `collide::batch`: trigger volumes, picking rays
//! and an explosion radius over a city block of 10 000 boxes and 10 000 spheres.
//!
//! Each answer is checked against the plain loop over the scalar queries
//! (`overlap::aabb_aabb`, `raycast::aabb`, `overlap::sphere_sphere`), which must agree element
//! for element; the timings printed are for information only.
//!
//! `cargo run -p collide --example batch_queries` (add `--release` for meaningful timings)

use collide::batch::{mask_words, AabbSoa, SphereSoa};
use collide::raycast::{self, RayInv};
use collide::shapes::{Aabb, Ray, Sphere};
use collide::{overlap, Vec3};
use std::time::Instant;

/// A 100 × 100 grid of boxes ("buildings", 1 m apart) of varying height and footprint.
fn buildings() -> Vec<Aabb> {
    let mut out = Vec::with_capacity(10_000);
    for i in 0..100 {
        for j in 0..100 {
            let k = (i * 31 + j * 17) % 23;
            let half = Vec3::new(
                0.2 + 0.01 * k as f32,
                0.5 + 0.2 * (k % 7) as f32,
                0.25 + 0.01 * ((k * 3) % 23) as f32,
            );
            let center = Vec3::new(i as f32 * 1.0, half.y, j as f32 * 1.0);
            out.push(Aabb::from_center_half_extents(center, half));
        }
    }
    out
}

/// Indices set in a bitmask from `overlap_mask` / `ray_mask`.
fn mask_indices(mask: &[u64]) -> Vec<usize> {
    let mut out = Vec::new();
    for (w, &word) in mask.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out.push(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
    out
}

fn main() {
    let boxes = buildings();
    let soa = AabbSoa::from_aabbs(&boxes);
    let mut mask = vec![0_u64; mask_words(soa.len())];

    // Trigger volumes: which buildings does each region touch?
    let triggers = [
        Aabb::new(Vec3::new(10.0, 0.0, 10.0), Vec3::new(20.0, 2.0, 15.0)),
        Aabb::new(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(0.0, 0.5, 0.0)),
        Aabb::new(Vec3::new(40.5, 2.6, 40.5), Vec3::new(60.5, 3.0, 60.5)),
        Aabb::new(Vec3::new(200.0, 0.0, 0.0), Vec3::new(210.0, 1.0, 1.0)),
    ];
    for q in &triggers {
        let t0 = Instant::now();
        let n = soa.overlap_mask(q, &mut mask);
        let dt = t0.elapsed();
        let scalar: Vec<usize> = (0..boxes.len())
            .filter(|&i| overlap::aabb_aabb(&boxes[i], q))
            .collect();
        assert_eq!(mask_indices(&mask), scalar, "trigger {q:?}");
        let mut visited = Vec::new();
        soa.for_each_overlap(q, |i| visited.push(i));
        assert_eq!(visited, scalar);
        assert_eq!(soa.count_overlaps(q), n);
        println!(
            "trigger {:>5.1}..{:<5.1} x: {n:>4} buildings ({dt:?})",
            q.min.x, q.max.x
        );
    }
    assert!(
        mask_indices(&mask).is_empty(),
        "the last trigger is outside the block"
    );

    // Picking rays from above the block, looking down at an angle: the first building hit.
    let mut picked = 0;
    let t0 = Instant::now();
    for k in 0..200 {
        let x = (k % 20) as f32 * 5.0 + 0.3;
        let z = (k / 20) as f32 * 10.0 + 0.6;
        let ray = Ray::new(Vec3::new(x, 30.0, z), Vec3::new(0.3, -1.0, 0.2));
        let batch = soa.ray_first_hit(&RayInv::new(&ray), 100.0);
        // The scalar reference: the nearest `raycast::aabb`, ties to the lower index.
        let scalar = (0..boxes.len())
            .filter_map(|i| raycast::aabb(&ray, &boxes[i], 100.0).map(|h| (i, h.t)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        match (batch, scalar) {
            (Some((i, t)), Some((si, st))) => {
                assert!(
                    (t - st).abs() <= 1e-5 * (1.0 + st),
                    "ray {k}: t {t} vs {st}"
                );
                assert!(i == si || t == st, "ray {k}: box {i} vs {si}");
                picked += 1;
            }
            (None, None) => {}
            (b, s) => panic!("ray {k}: batch {b:?}, scalar {s:?}"),
        }
    }
    println!(
        "picking: {picked} of 200 rays hit a building ({:?} for all 200 batch casts and checks)",
        t0.elapsed()
    );
    assert!(
        picked > 150,
        "most rays aimed into the block hit a building"
    );

    // An explosion at a street corner against 10 000 crates (spheres of radius 0.25).
    let crates: Vec<Sphere> = (0..10_000)
        .map(|k| {
            let (i, j) = ((k / 100) as f32, (k % 100) as f32);
            Sphere::new(Vec3::new(i + 0.5, 0.25, j + 0.5), 0.25)
        })
        .collect();
    let spheres = SphereSoa::from_spheres(&crates);
    let blast = Sphere::new(Vec3::new(50.0, 0.0, 50.0), 4.0);
    let t0 = Instant::now();
    let caught = spheres.count_overlaps(&blast);
    let dt = t0.elapsed();
    let scalar = crates
        .iter()
        .filter(|c| overlap::sphere_sphere(c, &blast))
        .count();
    assert_eq!(caught, scalar);
    // The blast reaches crates whose centres lie within 4.25 m (radii added) of (50, 0, 50):
    // at height 0.25, that is a horizontal distance below √(4.25² − 0.25²) ≈ 4.243 m.
    let by_distance = crates
        .iter()
        .filter(|c| (c.center - blast.center).length_squared() <= 4.25 * 4.25)
        .count();
    assert_eq!(caught, by_distance);
    println!("explosion of radius 4 m: {caught} crates caught ({dt:?})");
}
