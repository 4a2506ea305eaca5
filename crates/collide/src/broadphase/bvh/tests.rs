//! The dynamic BVH's unit tests.

use super::*;
use crate::broadphase::boxes_touch;
use crate::math::Vec3;

#[test]
fn sorted_insertion_stays_balanced() {
    // 4096 boxes along a line, inserted in sorted order a few at a time after a first
    // bulk load of 512 (a degenerate order for a binary tree without rotations): the
    // R-tree splits keep every bucket at the same depth.
    let mut t = DynamicBvh::new();
    let mut out = Vec::new();
    let boxed = |i: i32| {
        let c = Vec3::new(i as f32, 0.0, 0.0);
        Aabb::from_center_half_extents(c, Vec3::splat(0.25))
    };
    for i in 0..512 {
        t.insert(boxed(i), CollisionGroups::ALL).unwrap();
    }
    t.update_pairs(&mut out);
    assert!(t.last_rebuilt(), "a bulk insertion is a bulk load");
    let mut rebuilds = 0;
    for i in 512..4096 {
        t.insert(boxed(i), CollisionGroups::ALL).unwrap();
        if i % 32 == 31 {
            t.update_pairs(&mut out);
            rebuilds += usize::from(t.last_rebuilt());
        }
    }
    t.validate().unwrap();
    // A few insertions join the tree one by one; the line's growing area triggers a
    // rebuild each time it has grown by about half (log1.5(4096 / 512) ≈ 5 times).
    assert!(
        (1..=10).contains(&rebuilds),
        "{rebuilds} rebuilds in 112 batches"
    );
    // 4096 proxies in full buckets of 8 under full nodes of 4: 1 + log4(512) = 5.5
    // levels; splits leave buckets and nodes between two fifths and all full.
    assert!(t.height() <= 10, "height {}", t.height());
}

#[test]
fn pending_insertions_answer_queries_and_can_be_removed() {
    // Inserted proxies wait outside the tree until update_pairs; box queries and ray
    // casts find them meanwhile, and removing one before it joins leaves no trace.
    let mut t = DynamicBvh::new();
    let ids: Vec<u32> = row(12, 0.0)
        .into_iter()
        .map(|b| t.insert(b, CollisionGroups::ALL).unwrap())
        .collect();
    t.validate().unwrap();
    assert_eq!(t.pending, 12);
    let q = Aabb::new(Vec3::new(2.0, -1.0, -1.0), Vec3::new(4.0, 1.0, 1.0));
    let mut got = Vec::new();
    t.query_aabb(&q, &mut |id| {
        got.push(id);
        true
    });
    got.sort_unstable();
    // Boxes at x = 1.5, 3.0 and 4.5 (half-size 0.5) meet [2, 4].
    assert_eq!(got, vec![1, 2, 3]);
    let ray = Ray::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X);
    let mut hits = Vec::new();
    t.ray_cast(&ray, 100.0, &mut |id, _| {
        hits.push(id);
        100.0
    });
    assert_eq!(hits.len(), 12);
    t.remove(ids[3]).unwrap();
    assert_eq!(t.pending, 11);
    t.validate().unwrap();
    let mut out = Vec::new();
    t.update_pairs(&mut out);
    t.validate().unwrap();
    assert_eq!((t.pending, t.len()), (0, 11));
    assert_eq!(t.aabb(ids[3]), None);
    assert!(out.is_empty(), "boxes 1.5 apart never touch");
}

#[test]
fn insertions_and_removals_split_and_unlink() {
    // Boxes on a jittered grid inserted a few at a time (after a bulk load of 64), then
    // removed in a scrambled order: every step keeps the tree valid, the pairs are the
    // brute-force ones, and the last removal leaves the tree empty.
    let mut t = DynamicBvh::new();
    let mut out = Vec::new();
    let boxes: Vec<Aabb> = (0..600u32)
        .map(|i| {
            let c = Vec3::new((i % 10) as f32, ((i / 10) % 10) as f32, (i / 100) as f32)
                + Vec3::splat((i.wrapping_mul(2_654_435_761) % 97) as f32 * 0.003);
            Aabb::from_center_half_extents(c, Vec3::splat(0.3))
        })
        .collect();
    let brute = |live: &[bool]| {
        let mut want = Vec::new();
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                if live[a] && live[b] && boxes_touch(&boxes[a], &boxes[b]) {
                    want.push((a as u32, b as u32));
                }
            }
        }
        want
    };
    let mut live = vec![false; boxes.len()];
    for (i, b) in boxes.iter().enumerate() {
        assert_eq!(t.insert(*b, CollisionGroups::ALL), Ok(i as u32));
        live[i] = true;
        if i >= 63 && i % 8 == 7 {
            t.update_pairs(&mut out);
            t.validate().unwrap();
            out.sort_unstable();
            assert_eq!(out, brute(&live), "after inserting {}", i + 1);
        }
    }
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by_key(|&i| (i as u32).wrapping_mul(2_246_822_519) % 1009);
    for (n, &i) in order.iter().enumerate() {
        t.remove(i as u32).unwrap();
        live[i] = false;
        if n % 25 == 0 {
            t.update_pairs(&mut out);
            t.validate().unwrap();
            out.sort_unstable();
            assert_eq!(out, brute(&live), "after removing {}", n + 1);
        }
    }
    t.update_pairs(&mut out);
    t.validate().unwrap();
    assert!(out.is_empty());
    assert_eq!((t.len(), t.height(), t.root), (0, 0, NULL));
}

#[test]
fn small_motion_keeps_the_fat_box_large_motion_moves() {
    // A unit box moving 0.05 stays inside its fat box (margin 0.1); moving 1 does not.
    let mut t = DynamicBvh::new();
    let b = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(0.5));
    let id = t.insert(b, CollisionGroups::ALL).unwrap();
    let mut out = Vec::new();
    t.update_pairs(&mut out);
    assert_eq!(t.last_moved(), 1);
    t.update(
        id,
        b.expanded(0.0)
            .transformed(&crate::Affine3A::from_translation(Vec3::X * 0.05)),
    )
    .unwrap();
    t.update_pairs(&mut out);
    assert_eq!(t.last_moved(), 0);
    t.update(
        id,
        b.transformed(&crate::Affine3A::from_translation(Vec3::X)),
    )
    .unwrap();
    t.update_pairs(&mut out);
    assert_eq!(t.last_moved(), 1);
    t.validate().unwrap();
    assert_eq!(t.margin(), 0.1);
    assert_eq!(DynamicBvh::with_margin(f32::NAN).margin(), 0.0);
}

/// A row of `n` unit boxes 1.5 apart along x, shifted by `dx`.
fn row(n: usize, dx: f32) -> Vec<Aabb> {
    (0..n)
        .map(|i| {
            let c = Vec3::new(i as f32 * 1.5 + dx, 0.0, 0.0);
            Aabb::from_center_half_extents(c, Vec3::splat(0.5))
        })
        .collect()
}

#[test]
fn large_motion_goes_full_and_tight_until_it_calms_down() {
    // 100 boxes in a row jump by 0.8 (more than any fat box) every frame: queries before
    // `update_pairs` stay exact, every frame traverses the whole (refitted) tree with the
    // tight boxes as fat boxes. When the motion calms down to 0.01 per frame, the first
    // calm frame is still full (every box left its tight "fat" box) but keeps fattened
    // boxes, and the next ones go incremental with hardly any box moving.
    let mut t = DynamicBvh::new();
    for b in row(100, 0.0) {
        t.insert(b, CollisionGroups::ALL).unwrap();
    }
    let mut out = Vec::new();
    t.update_pairs(&mut out);
    let all_tight = |t: &DynamicBvh| t.boxes.iter().all(|b| b.fat == b.tight);
    let mut x = 0.0;
    for frame in 1..=30 {
        x += if frame <= 17 { 0.8 } else { 0.01 };
        let boxes = row(100, x);
        for (i, b) in boxes.iter().enumerate() {
            t.update(i as u32, *b).unwrap();
        }
        // Before `update_pairs` the moved proxies are answered from the moved list.
        let q = Aabb::new(Vec3::new(10.0, -1.0, -1.0), Vec3::new(20.0, 1.0, 1.0));
        let mut got = Vec::new();
        t.query_aabb(&q, &mut |id| {
            got.push(id);
            true
        });
        got.sort_unstable();
        let want: Vec<u32> = (0..100u32)
            .filter(|&i| boxes_touch(&boxes[i as usize], &q))
            .collect();
        assert_eq!(got, want);
        t.update_pairs(&mut out);
        // Neighbours 1.5 apart with half-size 0.5 never touch.
        assert!(out.is_empty());
        t.validate().unwrap();
        match frame {
            1..=17 => {
                assert!(t.last_full() && all_tight(&t), "frame {frame}");
                // The switch from the fattened bulk load to tight boxes rebuilds; then
                // the row moves as one and the refitted tree is as tight as a rebuilt one.
                let refitted = t.last_refitted() && !t.last_rebuilt();
                assert_eq!(refitted, frame > 1, "frame {frame}");
            }
            18 => assert!(t.last_full() && !all_tight(&t), "frame {frame}"),
            _ => {
                assert!(!t.last_full() && !all_tight(&t), "frame {frame}");
                // 0.01 a frame stays 17 frames inside a box fattened 0.1 + 8 · 0.01 ahead.
                assert_eq!(t.last_moved(), 0, "frame {frame}");
            }
        }
    }
    // Motion stops: nothing moves.
    t.update_pairs(&mut out);
    assert!(!t.last_rebuilt() && !t.last_full());
    assert_eq!(t.last_moved(), 0);
}

#[test]
fn small_moves_enlarge_in_place_then_refresh_when_grown() {
    // 64 boxes drift 0.15 per frame (past the margin): proxies get new fat boxes in
    // place, the boxes above them only grow, and once they have grown by half the tree is
    // refitted (or rebuilt, if a refit is not tight enough).
    let mut t = DynamicBvh::new();
    for b in row(64, 0.0) {
        t.insert(b, CollisionGroups::ALL).unwrap();
    }
    let mut out = Vec::new();
    t.update_pairs(&mut out);
    let mut rebuilt = 0;
    for frame in 1..40 {
        // Only the first 10 boxes move, up in y (below the full-rebuild fraction), so
        // the thin nodes along the row grow in area.
        let lift = Vec3::new(0.0, 0.15 * frame as f32, 0.0);
        for (i, b) in row(10, 0.0).iter().enumerate() {
            t.update(i as u32, Aabb::new(b.min + lift, b.max + lift))
                .unwrap();
            t.validate().unwrap();
        }
        t.update_pairs(&mut out);
        t.validate().unwrap();
        rebuilt += usize::from(t.last_rebuilt() || t.last_refitted());
        assert!(t.last_moved() <= 10);
        assert!(out.is_empty(), "boxes 1.5 apart never touch");
    }
    assert!(rebuilt >= 1, "the grown tree was never refitted or rebuilt");
}
