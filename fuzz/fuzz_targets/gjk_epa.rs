//! GJK distance / intersection, EPA penetration and the combined contact on any two convex
//! shapes (point, sphere, AABB, OBB, segment, capsule, triangle, point cloud) built from
//! arbitrary f32 bit patterns. Asserts the documented contracts of `collide::convex::{gjk,
//! epa, contact}`: never panics; NaN input gives "no contact" (`INFINITY`, `false`, `None`);
//! finite input gives a finite distance `>= 0`, `intersecting == (distance == 0)`, a unit
//! normal when apart; distance is symmetric within the GJK tolerance; every `Some` from EPA or
//! contact has a unit normal, finite points and a finite depth.
#![no_main]
use collide::convex::{contact, epa, gjk};
use collide_fuzz::{is_unit, Bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let sa = b.any_shape();
    let sb = b.any_shape();
    let margin = b.f32();
    let nan = sa.has_nan() || sb.has_nan();

    let d_ab = gjk::distance(&sa, &sb);
    let d_ba = gjk::distance(&sb, &sa);
    let hit_ab = gjk::intersects(&sa, &sb);
    let pen = epa::penetration(&sa, &sb);
    let con = contact::contact(&sa, &sb, margin);

    if nan {
        assert!(
            d_ab.distance == f32::INFINITY && !d_ab.intersecting,
            "NaN input: {d_ab:?}"
        );
        assert!(!hit_ab, "NaN input intersects");
        assert!(pen.is_none(), "NaN input penetration {pen:?}");
        assert!(con.is_none(), "NaN input contact {con:?}");
        return;
    }
    // Every answer, finite or not: no NaN distance, no NaN in a claimed contact.
    assert!(!d_ab.distance.is_nan(), "NaN distance {d_ab:?}");
    assert_eq!(
        d_ab.intersecting,
        d_ab.distance == 0.0,
        "intersecting flag vs distance {d_ab:?}"
    );
    if let Some(p) = pen {
        assert!(is_unit(p.normal), "EPA normal not unit: {p:?}");
        assert!(p.depth.is_finite() && p.depth >= 0.0, "EPA depth: {p:?}");
        assert!(
            p.point_a.is_finite() && p.point_b.is_finite(),
            "EPA points: {p:?}"
        );
    }
    if let Some(c) = con {
        assert!(is_unit(c.normal), "contact normal not unit: {c:?}");
        assert!(c.depth.is_finite(), "contact depth: {c:?}");
        assert!(
            c.point_a.is_finite() && c.point_b.is_finite(),
            "contact points: {c:?}"
        );
    }

    // Below 1e15 nothing overflows (|a - b|² < 1e31 even in f32): the full metric contract.
    let (scale_a, scale_b) = (sa.scale(), sb.scale());
    if sa.bounded(1e15) && sb.bounded(1e15) {
        let scale = (scale_a + scale_b).max(1e-30);
        assert!(
            d_ab.distance.is_finite() && d_ab.distance >= 0.0,
            "distance {d_ab:?}"
        );
        if !d_ab.intersecting {
            assert!(is_unit(d_ab.normal), "apart but normal not unit: {d_ab:?}");
        }
        // GJK converges to TOLERANCE × scale; allow 100× for the two runs' rounding.
        let tol = 1e-4 * scale;
        assert!(
            (d_ab.distance - d_ba.distance).abs() <= tol,
            "distance not symmetric: {} vs {} (tol {tol})",
            d_ab.distance,
            d_ba.distance
        );
        assert_eq!(
            hit_ab, d_ab.intersecting,
            "intersects vs distance disagree: {d_ab:?}"
        );
        if d_ab.intersecting {
            assert!(pen.is_some(), "GJK says intersecting, EPA says None");
        }
    }
});
