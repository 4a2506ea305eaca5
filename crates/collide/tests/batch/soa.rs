//! Guards `collide::batch`: every batch answer equals the scalar query on the same pair
//! (`overlap::aabb_aabb`, `overlap::sphere_sphere`, `raycast::aabb_inv`), for every API (mask,
//! callback, count), across chunk boundaries, on touching and NaN input; ray batches also
//! against an f64 slab oracle.

use collide::batch::{mask_words, AabbSoa, SphereSoa, LANES};
use collide::overlap;
use collide::raycast::{self, RayInv};
use collide::shapes::{Aabb, Ray, Sphere};
use collide::Vec3;
use collide_testkit::Gen;

/// The scalar reference for a box pair (touching counts; empty or NaN boxes never overlap).
fn scalar_aabb(a: &Aabb, b: &Aabb) -> bool {
    overlap::aabb_aabb(a, b)
}

/// The scalar reference for a sphere pair.
fn scalar_sphere(a: &Sphere, b: &Sphere) -> bool {
    overlap::sphere_sphere(a, b)
}

fn cloud(seed: u64, n: usize) -> Vec<Aabb> {
    let mut g = Gen::new(seed);
    g.extent = 6.0;
    g.max_size = 1.0;
    (0..n).map(|_| g.aabb()).collect()
}

/// Every way of reading the answer: callback indices, mask bits and the count.
fn all_answers(soa: &AabbSoa, q: &Aabb) -> Vec<usize> {
    let mut via_callback = Vec::new();
    soa.for_each_overlap(q, |i| via_callback.push(i));
    let mut mask = vec![u64::MAX; mask_words(soa.len())];
    let n = soa.overlap_mask(q, &mut mask);
    let via_mask: Vec<usize> = (0..soa.len())
        .filter(|&i| mask[i / 64] >> (i % 64) & 1 == 1)
        .collect();
    assert_eq!(via_callback, via_mask);
    assert_eq!(n, via_mask.len());
    assert_eq!(soa.count_overlaps(q), n);
    via_callback
}

#[test]
fn aabb_batch_equals_scalar_across_chunk_sizes() {
    // Sizes around the 8-lane and 64-bit word boundaries, 200 random queries each.
    let mut g = Gen::new(11);
    g.extent = 6.0;
    let mut total_hits = 0;
    for n in [0, 1, 7, 8, 9, 63, 64, 65, 130, 1000] {
        let boxes = cloud(n as u64, n);
        let soa = AabbSoa::from_aabbs(&boxes);
        soa.validate().unwrap();
        assert_eq!(soa.len(), n);
        for _ in 0..200 {
            let q = g.aabb();
            let want: Vec<usize> = (0..n).filter(|&i| scalar_aabb(&q, &boxes[i])).collect();
            total_hits += want.len();
            assert_eq!(all_answers(&soa, &q), want, "n = {n}, query {q:?}");
        }
    }
    assert!(
        total_hits > 1000,
        "the inputs must produce hits ({total_hits})"
    );
}

#[test]
fn touching_boxes_overlap() {
    // Unit boxes sharing a face, an edge, a corner: all touch; one a hair away does not.
    let q = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let boxes = [
        Aabb::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)),
        Aabb::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(2.0, 2.0, 1.0)),
        Aabb::new(Vec3::ONE, Vec3::splat(2.0)),
        Aabb::new(Vec3::new(1.0 + 1e-6, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)),
    ];
    let soa = AabbSoa::from_aabbs(&boxes);
    assert_eq!(all_answers(&soa, &q), [0, 1, 2]);
}

#[test]
fn nan_and_empty_boxes_never_overlap() {
    // A NaN query hits nothing; NaN and empty stored boxes are skipped, even by an infinite query.
    let everything = Aabb::new(Vec3::NEG_INFINITY, Vec3::INFINITY);
    let boxes = [
        Aabb::new(Vec3::ZERO, Vec3::ONE),
        Aabb {
            min: Vec3::new(f32::NAN, 0.0, 0.0),
            max: Vec3::ONE,
        },
        Aabb::EMPTY,
        Aabb {
            min: Vec3::ZERO,
            max: Vec3::new(1.0, 1.0, f32::NAN),
        },
        Aabb::new(Vec3::splat(-1.0), Vec3::splat(0.5)),
    ];
    let soa = AabbSoa::from_aabbs(&boxes);
    assert_eq!(all_answers(&soa, &everything), [0, 4]);
    assert_eq!(all_answers(&soa, &Aabb::new(Vec3::ZERO, Vec3::ONE)), [0, 4]);
    let nan_query = Aabb {
        min: Vec3::new(0.0, f32::NAN, 0.0),
        max: Vec3::ONE,
    };
    assert!(all_answers(&soa, &nan_query).is_empty());
    // An inverted (empty) query box overlaps nothing, as in `overlap::aabb_aabb`: the batch
    // checks the query box for emptiness as well as the stored boxes.
    let inverted = Aabb {
        min: Vec3::new(3.0, 0.0, 0.0),
        max: Vec3::new(0.0, 0.0, 0.0),
    };
    let flat = AabbSoa::from_aabbs(&[Aabb::new(
        Vec3::new(0.0, -3.0, 0.0),
        Vec3::new(3.5, 0.0, 0.0),
    )]);
    assert!(all_answers(&flat, &inverted).is_empty());
    assert!(!overlap::aabb_aabb(&inverted, &flat.get(0).unwrap()));
}

#[test]
fn mask_shorter_or_longer_than_needed() {
    // 100 boxes all hit by the query: a 1-word mask gets the first 64, a 3-word mask a zero tail.
    let boxes = vec![Aabb::new(Vec3::ZERO, Vec3::ONE); 100];
    let soa = AabbSoa::from_aabbs(&boxes);
    let q = Aabb::new(Vec3::splat(0.5), Vec3::splat(0.6));
    let mut short = [0u64; 1];
    assert_eq!(soa.overlap_mask(&q, &mut short), 64);
    assert_eq!(short[0], u64::MAX);
    let mut long = [7u64; 3];
    assert_eq!(soa.overlap_mask(&q, &mut long), 100);
    assert_eq!(long, [u64::MAX, (1u64 << 36) - 1, 0]);
    let mut none: [u64; 0] = [];
    assert_eq!(soa.overlap_mask(&q, &mut none), 0);
}

#[test]
fn set_get_clear_keep_the_layout() {
    // Replacing a box changes its answers; out-of-range set/get are refused; clear empties.
    let mut soa = AabbSoa::from_aabbs(&cloud(3, 20));
    let far = Aabb::new(Vec3::splat(100.0), Vec3::splat(101.0));
    assert!(soa.set(13, &far));
    assert_eq!(soa.get(13), Some(far));
    assert!(!soa.set(20, &far));
    assert_eq!(soa.get(20), None);
    assert_eq!(
        all_answers(&soa, &Aabb::new(Vec3::splat(99.0), Vec3::splat(100.0))),
        [13]
    );
    soa.validate().unwrap();
    soa.clear();
    assert!(soa.is_empty());
    soa.validate().unwrap();
    assert_eq!(soa.push(&far), 0);
    soa.validate().unwrap();
    assert_eq!(LANES, 8);
}

/// The f64 slab oracle: `Some(t_enter)` when the ray meets the box within `[0, max_t]`, with
/// zero direction components handled as "inside the slab or not".
fn ray_box_f64(r: &Ray, max_t: f64, b: &Aabb) -> Option<f64> {
    let (o, d) = (r.origin.as_dvec3(), r.dir.as_dvec3());
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let (mut near, mut far) = (0.0_f64, max_t);
    for k in 0..3 {
        if d[k] == 0.0 {
            if o[k] < lo[k] || o[k] > hi[k] {
                return None;
            }
        } else {
            let (t1, t2) = ((lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]);
            near = near.max(t1.min(t2));
            far = far.min(t1.max(t2));
        }
    }
    (near <= far).then_some(near)
}

#[test]
fn ray_batch_equals_f64_slab_oracle() {
    // Random rays against 500 boxes; answers must match the oracle wherever a 1e-4 grow or
    // shrink of the box does not change the oracle's answer (away from grazing).
    let boxes = cloud(21, 500);
    let soa = AabbSoa::from_aabbs(&boxes);
    let mut g = Gen::new(22);
    g.extent = 7.0;
    let (mut checked, mut hits) = (0, 0);
    for k in 0..300 {
        let mut ray = g.ray();
        if k % 5 == 0 {
            ray.dir.y = 0.0; // parallel to the xz faces
        }
        let max_t = if k % 3 == 0 {
            f32::INFINITY
        } else {
            g.range(0.0, 1.5)
        };
        let prepared = RayInv::new(&ray);
        let mut got = vec![None; boxes.len()];
        soa.for_each_ray_hit(&prepared, max_t, |i, t| got[i] = Some(t));
        let mut mask = vec![0u64; mask_words(soa.len())];
        let n = soa.ray_mask(&prepared, max_t, &mut mask);
        assert_eq!(n, got.iter().filter(|h| h.is_some()).count());
        for (i, b) in boxes.iter().enumerate() {
            assert_eq!(mask[i / 64] >> (i % 64) & 1 == 1, got[i].is_some());
            // The scalar cast, box by box: the same verdict and the same entry t.
            let scalar = raycast::aabb_inv(&prepared, b, max_t).map(|h| h.t);
            assert_eq!(got[i], scalar, "ray {ray:?} max_t {max_t} box {b:?}");
            let want = ray_box_f64(&ray, f64::from(max_t), b);
            let grown = ray_box_f64(&ray, f64::from(max_t) + 1e-4, &b.expanded(1e-4));
            let shrunk = ray_box_f64(&ray, f64::from(max_t) - 1e-4, &b.expanded(-1e-4));
            if grown.is_some() != shrunk.is_some() {
                continue; // within 1e-4 of grazing or of max_t
            }
            checked += 1;
            assert_eq!(
                got[i].is_some(),
                want.is_some(),
                "ray {ray:?} max_t {max_t} box {b:?}"
            );
            if let (Some(t), Some(w)) = (got[i], want) {
                hits += 1;
                assert!((f64::from(t) - w).abs() <= 1e-4 * (1.0 + w), "t {t} vs {w}");
            }
        }
        let first = soa.ray_first_hit(&prepared, max_t);
        let best = got
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        assert_eq!(first, best);
    }
    assert!(
        checked > 100_000 && hits > 300,
        "checked {checked}, hits {hits}"
    );
}

#[test]
fn ray_edge_cases() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let soa = AabbSoa::from_aabbs(&[b]);
    let hit = |origin: Vec3, dir: Vec3, max_t: f32| {
        let r = RayInv::new(&Ray::new(origin, dir));
        let batch = soa.ray_first_hit(&r, max_t);
        assert_eq!(
            batch.map(|h| h.1),
            raycast::aabb_inv(&r, &b, max_t).map(|h| h.t)
        );
        batch
    };
    // Along the top face (y = 1, dir.y = 0): grazing counts, entry at x = 0 → t = 2.
    assert_eq!(
        hit(Vec3::new(-2.0, 1.0, 0.5), Vec3::X, 10.0),
        Some((0, 2.0))
    );
    // Parallel just above the face: no hit.
    assert_eq!(hit(Vec3::new(-2.0, 1.0001, 0.5), Vec3::X, 10.0), None);
    // Starting inside: t = 0.
    assert_eq!(hit(Vec3::splat(0.5), Vec3::X, 10.0), Some((0, 0.0)));
    // A zero direction is a point: inside hits at 0, outside misses.
    assert_eq!(hit(Vec3::splat(0.5), Vec3::ZERO, 1.0), Some((0, 0.0)));
    assert_eq!(hit(Vec3::splat(2.0), Vec3::ZERO, 1.0), None);
    // The box behind the ray, and in front but past max_t.
    assert_eq!(hit(Vec3::new(3.0, 0.5, 0.5), Vec3::X, 10.0), None);
    assert_eq!(hit(Vec3::new(-3.0, 0.5, 0.5), Vec3::X, 2.9), None);
    assert_eq!(hit(Vec3::new(-3.0, 0.5, 0.5), Vec3::X, 3.0), Some((0, 3.0)));
    // Ending exactly on the far corner's edge, dir with -0.0 components.
    assert_eq!(
        hit(Vec3::new(-1.0, 1.0, 1.0), Vec3::new(1.0, -0.0, -0.0), 1.0),
        Some((0, 1.0))
    );
    // NaN anywhere: nothing.
    assert_eq!(hit(Vec3::new(f32::NAN, 0.5, 0.5), Vec3::X, 10.0), None);
    assert_eq!(
        hit(
            Vec3::new(-3.0, 0.5, 0.5),
            Vec3::new(1.0, f32::NAN, 0.0),
            10.0
        ),
        None
    );
    assert_eq!(hit(Vec3::new(-3.0, 0.5, 0.5), Vec3::X, f32::NAN), None);
    let nan_box = AabbSoa::from_aabbs(&[Aabb {
        min: Vec3::new(0.0, f32::NAN, 0.0),
        max: Vec3::ONE,
    }]);
    let r = RayInv::new(&Ray::new(Vec3::new(-3.0, 0.5, 0.5), Vec3::X));
    assert_eq!(nan_box.ray_first_hit(&r, 10.0), None);
    // An infinite box (a half-space slab) and a ray parallel to its infinite axis.
    let slab = AabbSoa::from_aabbs(&[Aabb::new(
        Vec3::new(f32::NEG_INFINITY, 0.0, 0.0),
        Vec3::new(f32::INFINITY, 1.0, 1.0),
    )]);
    let along = RayInv::new(&Ray::new(
        Vec3::new(5.0, 0.5, 3.0),
        Vec3::new(1.0, 0.0, -1.0),
    ));
    assert_eq!(slab.ray_first_hit(&along, 10.0), Some((0, 2.0)));
}

#[test]
fn sphere_batch_equals_scalar() {
    // Random clouds around chunk boundaries; answers equal the f64 scalar away from touching.
    let mut g = Gen::new(31);
    g.extent = 5.0;
    g.max_size = 1.0;
    let mut hits = 0;
    for n in [0, 1, 8, 9, 64, 65, 777] {
        let spheres: Vec<Sphere> = (0..n).map(|_| g.sphere()).collect();
        let soa = SphereSoa::from_spheres(&spheres);
        soa.validate().unwrap();
        for _ in 0..100 {
            let q = g.sphere();
            let mut got = Vec::new();
            soa.for_each_overlap(&q, |i| got.push(i));
            let mut mask = vec![0u64; mask_words(n)];
            assert_eq!(soa.overlap_mask(&q, &mut mask), got.len());
            assert_eq!(soa.count_overlaps(&q), got.len());
            for (i, s) in spheres.iter().enumerate() {
                let gap = (s.center.as_dvec3() - q.center.as_dvec3()).length()
                    - f64::from(s.radius + q.radius);
                let in_got = got.binary_search(&i).is_ok();
                assert_eq!(mask[i / 64] >> (i % 64) & 1 == 1, in_got);
                if gap.abs() > 1e-5 {
                    assert_eq!(in_got, scalar_sphere(&q, s), "{q:?} {s:?}");
                }
            }
            hits += got.len();
        }
    }
    assert!(hits > 300, "{hits}");
}

#[test]
fn sphere_touching_and_nan() {
    // Touching at distance exactly r1 + r2 counts; NaN query or stored sphere never hits.
    let soa = SphereSoa::from_spheres(&[
        Sphere::new(Vec3::ZERO, 1.0),
        Sphere::new(Vec3::new(f32::NAN, 0.0, 0.0), 1.0),
        Sphere::new(Vec3::X * 4.0, f32::NAN),
    ]);
    let mut got = Vec::new();
    soa.for_each_overlap(&Sphere::new(Vec3::X * 3.0, 2.0), |i| got.push(i));
    assert_eq!(got, [0]);
    assert_eq!(soa.count_overlaps(&Sphere::new(Vec3::NAN, 1.0)), 0);
    assert_eq!(soa.count_overlaps(&Sphere::new(Vec3::ZERO, f32::NAN)), 0);
    assert_eq!(soa.get(1).map(|s| s.radius), Some(1.0));
    assert_eq!(soa.get(3), None);
}

#[test]
fn inverted_boxes_and_extreme_spheres_keep_the_scalar_answer_through_set_and_clear() {
    // The sets test unguarded while every element is regular; one inverted box, or one sphere
    // whose squares overflow, must bring the guard back, and replacing it must drop it again.
    let inverted = Aabb {
        min: Vec3::ONE,
        max: Vec3::ZERO,
    };
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let around = Aabb::new(Vec3::splat(-1.0), Vec3::splat(2.0));
    let mut boxes = AabbSoa::from_aabbs(&[unit, inverted]);
    assert_eq!(
        all_answers(&boxes, &around),
        [0],
        "an inverted box never overlaps"
    );
    assert!(boxes.set(1, &unit));
    assert_eq!(all_answers(&boxes, &around), [0, 1]);
    assert!(boxes.set(0, &inverted));
    assert_eq!(all_answers(&boxes, &around), [1]);
    boxes.clear();
    boxes.push(&unit);
    assert_eq!(all_answers(&boxes, &around), [0]);

    // Radii of 2e19 square to +inf in f32: `inf <= inf` would make these touch, 6e19 apart.
    let far = Sphere::new(Vec3::X * 3e19, 2e19);
    let near = Sphere::new(Vec3::ZERO, 1.0);
    let query = Sphere::new(Vec3::X * -3e19, 2e19);
    let answers = |soa: &SphereSoa, q: &Sphere| {
        let mut got = Vec::new();
        soa.for_each_overlap(q, |i| got.push(i));
        let mut mask = vec![0u64; mask_words(soa.len())];
        assert_eq!(soa.overlap_mask(q, &mut mask), got.len());
        assert_eq!(soa.count_overlaps(q), got.len());
        got
    };
    let mut spheres = SphereSoa::from_spheres(&[near, far]);
    assert!(!scalar_sphere(&query, &far));
    assert_eq!(answers(&spheres, &query), Vec::<usize>::new());
    assert!(spheres.set(1, &near));
    assert_eq!(answers(&spheres, &near), [0, 1]);
    assert!(spheres.set(1, &far));
    assert_eq!(answers(&spheres, &query), Vec::<usize>::new());
    // A point query 1e-20 from a point: both squares underflow to 0 in f32.
    let point = Sphere::new(Vec3::ZERO, 0.0);
    let beside = Sphere::new(Vec3::X * 1e-20, 0.0);
    let points = SphereSoa::from_spheres(&[point]);
    assert!(!scalar_sphere(&beside, &point));
    assert_eq!(answers(&points, &beside), Vec::<usize>::new());
    assert_eq!(answers(&points, &point), [0]);
}
