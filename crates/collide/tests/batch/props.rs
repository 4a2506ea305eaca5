//! Property tests of `collide::batch`: for arbitrary boxes and spheres — special values
//! included (NaN, ±inf, ±0, huge, inverted boxes) — the batch answer for every stored element
//! equals the scalar `overlap::aabb_aabb` / `overlap::sphere_sphere` on that pair, bit for bit
//! in verdict, and `get(i)` returns what was stored.

use collide::batch::{mask_words, AabbSoa, SphereSoa};
use collide::overlap;
use collide::shapes::{Aabb, Sphere};
use collide::Vec3;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    crate::common::proptest_config(0xba7c_0001)
}

/// Mostly ordinary coordinates, sometimes a special value.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -4.0f32..4.0,
        1 => prop::sample::select(vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1e30,
            -1e30,
            f32::MIN_POSITIVE,
        ]),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Raw boxes: corners as drawn, so some are inverted (empty) on an axis.
fn aabb() -> impl Strategy<Value = Aabb> {
    (vec3(), vec3()).prop_map(|(min, max)| Aabb { min, max })
}

fn sphere() -> impl Strategy<Value = Sphere> {
    (vec3(), coord()).prop_map(|(center, radius)| Sphere { center, radius })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn aabb_batch_matches_scalar(boxes in prop::collection::vec(aabb(), 0..40), q in aabb()) {
        let soa = AabbSoa::from_aabbs(&boxes);
        prop_assert!(soa.validate().is_ok());
        let mut mask = vec![0u64; mask_words(boxes.len())];
        let count = soa.overlap_mask(&q, &mut mask);
        let mut seen = Vec::new();
        soa.for_each_overlap(&q, |i| seen.push(i));
        let want: Vec<usize> =
            (0..boxes.len()).filter(|&i| overlap::aabb_aabb(&q, &boxes[i])).collect();
        prop_assert_eq!(&seen, &want);
        prop_assert_eq!(count, want.len());
        prop_assert_eq!(soa.count_overlaps(&q), want.len());
        for (i, b) in boxes.iter().enumerate() {
            let got = soa.get(i).unwrap();
            // NaN != NaN: compare bit patterns.
            prop_assert_eq!(got.min.to_array().map(f32::to_bits), b.min.to_array().map(f32::to_bits));
            prop_assert_eq!(got.max.to_array().map(f32::to_bits), b.max.to_array().map(f32::to_bits));
        }
    }

    #[test]
    fn sphere_batch_matches_scalar(
        spheres in prop::collection::vec(sphere(), 0..40),
        q in sphere(),
    ) {
        let soa = SphereSoa::from_spheres(&spheres);
        prop_assert!(soa.validate().is_ok());
        let mut seen = Vec::new();
        soa.for_each_overlap(&q, |i| seen.push(i));
        // The scalar and the batch evaluate (c_b - c_a)² and (r_a + r_b)² in the same f32
        // operations up to the order of the three squared terms, so only ties within an ulp
        // could differ; the strategy's values are far from such ties except for exact zeros.
        let want: Vec<usize> =
            (0..spheres.len()).filter(|&i| overlap::sphere_sphere(&q, &spheres[i])).collect();
        prop_assert_eq!(&seen, &want);
        let mut mask = vec![0u64; mask_words(spheres.len())];
        prop_assert_eq!(soa.overlap_mask(&q, &mut mask), want.len());
    }
}
