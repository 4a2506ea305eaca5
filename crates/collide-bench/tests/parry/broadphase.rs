//! Guards the broad-phase benchmark: collide's SAP and BVH and both ways of driving parry3d's
//! `Bvh` produce the brute-force pair set every frame on the benchmark's moving scenes, so the
//! timings compare runs that give the same answer.

#[path = "../../benches/common/broadphase_frame.rs"]
mod frame;

use collide::broadphase::{BroadPhase, BruteForce, CollisionGroups};
use collide_testkit::scene::{Motion, MovingScene};
use frame::{ours_bvh, ours_sap, Frame, ParryFull, ParryIncremental};

#[test]
fn every_variant_gives_the_brute_force_pairs() {
    for (seed, motion) in [
        (1, Motion::Small),
        (2, Motion::Large),
        (3, Motion::Clustered),
        (4, Motion::Teleport),
    ] {
        let mut scene = MovingScene::new(seed, 1000, motion);
        let mut brute = BruteForce::new();
        for b in &scene.boxes {
            brute.insert(*b, CollisionGroups::ALL).unwrap();
        }
        let mut variants: Vec<Box<dyn Frame>> = vec![
            Box::new(ours_sap()),
            Box::new(ours_bvh()),
            Box::new(ParryFull::new()),
            Box::new(ParryIncremental::new(0.1)),
        ];
        for v in variants.iter_mut() {
            v.build(&scene.boxes);
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        let mut total = 0;
        for frame in 0..60 {
            scene.step();
            for (i, b) in scene.boxes.iter().enumerate() {
                brute.update(i as u32, *b).unwrap();
            }
            brute.update_pairs(&mut want);
            want.sort_unstable();
            total += want.len();
            for v in variants.iter_mut() {
                v.frame(&scene.boxes, &mut got);
                got.sort_unstable();
                assert_eq!(
                    got.len(),
                    want.len(),
                    "{motion:?} frame {frame}: {} pair count",
                    v.name()
                );
                assert_eq!(got, want, "{motion:?} frame {frame}: {}", v.name());
            }
        }
        assert!(total > 60 * 100, "{motion:?}: scene has too few pairs");
    }
}
