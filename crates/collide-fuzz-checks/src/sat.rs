//! SAT between two convex hulls built from arbitrary points, at arbitrary poses. Asserts the
//! documented contract of `collide::convex::sat`: never panics; a non-finite pose gives
//! `Separated` with `distance = INFINITY`; a finite pose gives either a gap `> 0` whose plane
//! (unit normal) really separates the world vertices, or a unit normal with a finite depth
//! `>= 0`; the warm-started `sat_cached` gives the same verdict; swapping A and B gives the same
//! verdict unless the gap is within rounding of zero; and GJK on the same vertices agrees
//! (SAT's gap is a lower bound of the distance; a deep SAT penetration is a GJK intersection).
use super::{is_unit, Bytes};
use collide::convex::{gjk, sat, sat_cached, ConvexPoints, ConvexPolyhedron, SatResult, SepCache};
use collide::Vec3;

fn scale_of(ps: &[Vec3]) -> f32 {
    ps.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()))
}

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let na = 1 + usize::from(b.byte() % 12);
    let nb = 1 + usize::from(b.byte() % 12);
    let pa = b.points(na);
    let pb = b.points(nb);
    let (qa, ta, qb, tb) = (b.quat(), b.vec3(), b.quat(), b.vec3());
    let (Ok(ha), Ok(hb)) = (
        ConvexPolyhedron::from_points(&pa),
        ConvexPolyhedron::from_points(&pb),
    ) else {
        return;
    };
    let a = ha.with_pose(qa, ta);
    let bb = hb.with_pose(qb, tb);

    let r = sat(&a, &bb);
    let mut cache = SepCache::default();
    let r1 = sat_cached(&a, &bb, &mut cache);
    let r2 = sat_cached(&a, &bb, &mut cache);
    let rev = sat(&bb, &a);

    if !a.is_finite() || !bb.is_finite() {
        for x in [r, r1, r2, rev] {
            assert!(
                matches!(x, SatResult::Separated { distance, .. } if distance == f32::INFINITY),
                "non-finite pose: {x:?}"
            );
        }
        return;
    }
    let (wa, wb) = (a.world_vertices(), bb.world_vertices());
    if !wa.iter().chain(&wb).all(|v| v.is_finite()) {
        // The pose overflowed a vertex: only "no panic" is promised.
        return;
    }
    let scale = scale_of(&wa).max(scale_of(&wb)).max(1e-30);
    // Bigger than a float's rounding of the transforms at this scale.
    let tol = 1e-4 * scale;
    for x in [r, r1, r2, rev] {
        match x {
            SatResult::Separated { plane, distance } => {
                assert!(distance > 0.0, "separated by a gap <= 0: {x:?}");
                if distance.is_finite() && scale < 1e15 {
                    assert!(is_unit(plane.normal), "plane normal not unit: {x:?}");
                }
            }
            SatResult::Penetrating { normal, depth } => {
                assert!(is_unit(normal), "penetration normal not unit: {x:?}");
                assert!(depth.is_finite() && depth >= 0.0, "depth: {x:?}");
            }
        }
    }
    assert_eq!(
        r.is_penetrating(),
        r1.is_penetrating(),
        "sat vs sat_cached: {r:?} / {r1:?}"
    );
    assert_eq!(
        r.is_penetrating(),
        r2.is_penetrating(),
        "sat vs warm sat_cached: {r:?} / {r2:?}"
    );
    if scale >= 1e15 {
        return;
    }
    let gap = |x: &SatResult| match x {
        SatResult::Separated { distance, .. } => *distance,
        SatResult::Penetrating { depth, .. } => -*depth,
    };
    if r.is_penetrating() != rev.is_penetrating() {
        assert!(
            gap(&r).abs() <= tol && gap(&rev).abs() <= tol,
            "A/B swap changed the verdict beyond rounding: {r:?} / {rev:?}"
        );
    }
    if let SatResult::Separated { plane, distance } = r {
        // The plane separates: A below -distance/2, B above +distance/2 (within rounding).
        for v in &wa {
            let s = plane.normal.dot(*v) + plane.d;
            assert!(
                s <= -0.5 * distance + tol,
                "A vertex {v:?} above the plane: {s} ({r:?})"
            );
        }
        for v in &wb {
            let s = plane.normal.dot(*v) + plane.d;
            assert!(
                s >= 0.5 * distance - tol,
                "B vertex {v:?} below the plane: {s} ({r:?})"
            );
        }
    }
    // SAT against GJK's f64 distance on every pair whose largest coordinate is at least
    // 1e-30; below that only the shape checks above run. An edge-pair axis is a cross
    // product (∝ size²) whose f32 squared length (∝ size⁴) leaves f32's normal range below
    // ~1e-9; `sat` normalises such axes in f64, so on the saved tiny-hull inputs (hulls ~1e-18
    // and ~3e-20 across, `tiny_hulls_underflow_*`) SAT agrees with an f64 brute force to 6e-7
    // of the gap (with f32 axes, SAT and GJK would differ there by 1e-4 of the size).
    if scale < 1e-30 {
        return;
    }
    let g = gjk::distance(&ConvexPoints(&wa), &ConvexPoints(&wb));
    match r {
        SatResult::Separated { distance, .. } => assert!(
            g.distance >= distance - tol,
            "SAT gap {distance} exceeds the GJK distance {}",
            g.distance
        ),
        SatResult::Penetrating { depth, .. } => assert!(
            depth <= tol || g.distance <= tol,
            "SAT penetrates by {depth} but GJK distance is {}",
            g.distance
        ),
    }
}
