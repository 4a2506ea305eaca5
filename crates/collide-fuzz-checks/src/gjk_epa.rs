//! GJK distance / intersection, EPA penetration and the combined contact on any two convex
//! shapes (point, sphere, AABB, OBB, segment, capsule, triangle, point cloud) built from
//! arbitrary f32 bit patterns. Asserts the documented contracts of `collide::convex::{gjk,
//! epa, contact}`: never panics; NaN input gives "no contact" (`INFINITY`, `false`, `None`);
//! finite input gives a finite distance `>= 0`, `intersecting == (distance == 0)`, a unit
//! normal when apart; distance is symmetric within the GJK tolerance; every `Some` from EPA or
//! contact has a unit normal, finite points and a finite depth. On moderate input (within
//! 1e3) the answers are checked as geometry against the shapes' support maps: the GJK
//! normal separates by the distance, the EPA normal overlaps by the depth.
use super::{is_unit, AnyShape, Bytes};
use collide::convex::{contact, epa, gjk};

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
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
        // `intersects` (and EPA's own GJK) stop at the first separating axis, whose
        // touching tolerance uses the support points seen so far; `distance` runs on and
        // may see larger ones. So they agree except inside the touching band, where
        // `distance` calls a gap within `TOLERANCE ×` the shapes' scale touching: there its
        // witness points must be that close.
        let band = 2.0 * gjk::TOLERANCE * (scale_a + scale_b).max(1e-30);
        let in_band = (d_ab.point_a - d_ab.point_b).length() <= band;
        if hit_ab != d_ab.intersecting {
            assert!(
                d_ab.intersecting && in_band,
                "intersects = {hit_ab} vs distance {d_ab:?} outside the touching band {band}"
            );
        }
        if d_ab.intersecting && pen.is_none() {
            assert!(
                in_band,
                "GJK says intersecting (not just touching), EPA says None: {d_ab:?}"
            );
        }
    }
    check_geometry(&sa, &sb, &d_ab, pen);
}

/// Moderate input (every number within 1e3): the answers as geometry, against the
/// shapes' own support maps. Apart: the witness points are `distance` apart and the
/// normal separates the shapes by exactly that (the gap along it, from the supports).
/// Penetrating: `point_a - point_b = depth · normal`, and along the normal the shapes
/// overlap by exactly `depth` (moving B by `depth · normal` leaves them touching).
fn check_geometry(
    sa: &AnyShape,
    sb: &AnyShape,
    d_ab: &gjk::GjkResult,
    pen: Option<epa::Penetration>,
) {
    let (scale_a, scale_b) = (sa.scale(), sb.scale());
    if sa.bounded(1e3) && sb.bounded(1e3) {
        use collide::convex::SupportMap;
        let tol = 1e-4 * (1.0 + scale_a + scale_b);
        // Overlap of A and B along unit n: max over A of n·a minus min over B of n·b.
        let overlap_along =
            |n: collide::Vec3| f64::from(n.dot(sa.support(n))) - f64::from(n.dot(sb.support(-n)));
        let tol64 = f64::from(tol);
        if !d_ab.intersecting {
            let w = (d_ab.point_b - d_ab.point_a).length();
            assert!(
                (w - d_ab.distance).abs() <= tol,
                "witness points {w} apart, distance {}: {d_ab:?}",
                d_ab.distance
            );
            let gap = -overlap_along(d_ab.normal);
            assert!(
                (gap - f64::from(d_ab.distance)).abs() <= tol64,
                "the normal separates by {gap}, distance {}: {d_ab:?}",
                d_ab.distance
            );
        }
        if let Some(p) = pen {
            let w = p.point_a - p.point_b - p.normal * p.depth;
            assert!(
                w.length() <= tol,
                "point_a - point_b != depth · normal: {p:?}"
            );
            let ov = overlap_along(p.normal);
            assert!(
                (ov - f64::from(p.depth)).abs() <= tol64,
                "overlap along the EPA normal {ov}, depth {}: {p:?}",
                p.depth
            );
        }
    }
}
