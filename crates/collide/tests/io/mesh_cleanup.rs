//! The explicit clean-up steps on loaded meshes, against brute force: welding (every vertex
//! within the tolerance of its representative, representatives pairwise farther apart than
//! the tolerance, triangles keep their geometry), dropping degenerate triangles, compacting.

use collide::shapes::TriMesh;
use collide::Vec3;
use collide_testkit::Gen;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config() -> Config {
    Config {
        cases: 1000,
        rng_seed: RngSeed::Fixed(0x5eed_0105),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A random mesh whose vertices cluster (many within `tol` of each other), with a few exact
/// duplicates, -0.0s and a NaN.
fn noisy_mesh(seed: u64, n: usize, tol: f32, nan: bool) -> TriMesh {
    let mut g = Gen::new(seed);
    let centres: Vec<Vec3> = (0..n / 3 + 1).map(|_| g.point()).collect();
    let mut vertices: Vec<Vec3> = (0..n)
        .map(|i| centres[i % centres.len()] + g.vec(tol))
        .collect();
    if n > 4 {
        vertices[1] = vertices[0];
        vertices[2] = Vec3::new(-0.0, 0.0, 0.0);
        vertices[3] = Vec3::ZERO;
        if nan {
            vertices[4] = Vec3::NAN;
        }
    }
    let triangles = (0..n)
        .map(|_| [0, 0, 0].map(|_: u32| g.rng.random_range(0..n as u32)))
        .collect();
    TriMesh::new(vertices, triangles)
}

use rand::Rng;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn weld_against_brute_force(seed in any::<u64>(), n in 1usize..80, tol in 0.0f32..0.5, nan in any::<bool>()) {
        let before = noisy_mesh(seed, n, tol, nan);
        let mut after = before.clone();
        let removed = after.weld(tol);
        prop_assert_eq!(after.vertices.len() + removed, before.vertices.len());
        prop_assert_eq!(after.triangles.len(), before.triangles.len());
        // Every corner moved by at most the tolerance (exactly equal positions at tol = 0).
        for (t0, t1) in before.triangles.iter().zip(&after.triangles) {
            for k in 0..3 {
                let (a, b) = (before.vertices[t0[k] as usize], after.vertices[t1[k] as usize]);
                if a.is_nan() {
                    prop_assert!(b.is_nan());
                } else if tol > 0.0 {
                    prop_assert!(a.distance(b) <= tol * (1.0 + 1e-6), "{a} → {b}");
                } else {
                    prop_assert!(a == b, "{a} → {b}");
                }
            }
        }
        // Kept vertices are pairwise farther apart than the tolerance (or different, at 0).
        for (i, a) in after.vertices.iter().enumerate() {
            for b in &after.vertices[i + 1..] {
                if a.is_finite() && b.is_finite() {
                    if tol > 0.0 {
                        prop_assert!(a.distance(*b) > tol, "{a} and {b} both kept");
                    } else {
                        prop_assert!(a != b, "{a} kept twice");
                    }
                }
            }
        }
        prop_assert!(after.triangles.iter().flatten().all(|&i| (i as usize) < after.vertices.len()));
    }

    #[test]
    fn drop_degenerate_and_compact_against_brute_force(seed in any::<u64>(), n in 1usize..80) {
        let mut m = noisy_mesh(seed, n, 0.0, false);
        m.weld(0.0);
        let before = m.clone();
        let dropped = m.drop_degenerate();
        prop_assert_eq!(m.triangles.len() + dropped, before.triangles.len());
        // Kept: distinct indices and a non-zero area; dropped: the others.
        let good = |t: &[u32; 3]| {
            let [a, b, c] = *t;
            a != b && b != c && a != c && {
                let (pa, pb, pc) = (before.vertices[a as usize], before.vertices[b as usize], before.vertices[c as usize]);
                let (e1, e2) = (pb - pa, pc - pa);
                e1.cross(e2).length() > collide::math::DEGENERATE_EPSILON * e1.length() * e2.length()
            }
        };
        let expected: Vec<[u32; 3]> = before.triangles.iter().copied().filter(good).collect();
        prop_assert_eq!(&m.triangles, &expected);
        let removed = m.compact();
        let used: std::collections::BTreeSet<u32> = expected.iter().flatten().copied().collect();
        prop_assert_eq!(m.vertices.len(), used.len());
        prop_assert_eq!(removed, before.vertices.len() - used.len());
        // Same triangles, by position.
        for (t0, t1) in expected.iter().zip(&m.triangles) {
            for k in 0..3 {
                prop_assert_eq!(before.vertices[t0[k] as usize], m.vertices[t1[k] as usize]);
            }
        }
        prop_assert!(m.validate().is_ok());
    }
}

/// Greedy welding by brute force: each finite vertex joins the first kept vertex whose
/// squared distance is within `tol²` (the same test `TriMesh::weld` makes), else is kept.
fn brute_force_weld(vertices: &[Vec3], tol: f32) -> (Vec<Vec3>, Vec<u32>) {
    let mut kept: Vec<Vec3> = Vec::new();
    let mut remap = Vec::new();
    for &v in vertices {
        let found = v
            .is_finite()
            .then(|| {
                kept.iter()
                    .position(|k| (*k - v).length_squared() <= tol * tol)
            })
            .flatten();
        let id = found.unwrap_or_else(|| {
            kept.push(v);
            kept.len() - 1
        });
        remap.push(id as u32);
    }
    (kept, remap)
}

proptest! {
    #![proptest_config(config())]

    /// Clusters centred on multiples of several grid steps (so they straddle cell faces
    /// whatever the weld's cell size), near and far from the origin, each point within about
    /// twice the tolerance of its centre: exactly the brute-force welding.
    #[test]
    fn weld_matches_brute_force_across_cell_faces(
        seed in any::<u64>(),
        n in 1usize..120,
        tol in 1e-6f32..0.1,
        step_exp in 0u32..6,
        offset in prop::sample::select(vec![0.0f32, 1.0, -37.5, 1e3, -2.5e4, 3e5, 1e7]),
    ) {
        let mut g = Gen::new(seed);
        let step = tol * (1u32 << step_exp) as f32;
        let centres: Vec<Vec3> = (0..n / 4 + 1)
            .map(|_| {
                let k = [0; 3].map(|_: i32| g.rng.random_range(-3..=3) as f32);
                Vec3::splat(offset) + Vec3::from_array(k) * step
            })
            .collect();
        let vertices: Vec<Vec3> = (0..n)
            .map(|i| centres[i % centres.len()] + g.vec(2.0 * tol))
            .collect();
        let triangles = (0..n as u32).map(|i| [i, (i + 1) % n as u32, (i + 2) % n as u32]).collect();
        let mut m = TriMesh::new(vertices.clone(), triangles);
        let removed = m.weld(tol);
        let (kept, remap) = brute_force_weld(&vertices, tol);
        prop_assert_eq!(&m.vertices, &kept);
        prop_assert_eq!(removed, vertices.len() - kept.len());
        for (i, t) in m.triangles.iter().enumerate() {
            let expected = [i, (i + 1) % n, (i + 2) % n].map(|j| remap[j]);
            prop_assert_eq!(*t, expected);
        }
    }
}
