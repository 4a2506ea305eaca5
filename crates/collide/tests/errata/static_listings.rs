//! Regression tests for the defects of the static-test listings (ERRATA.md, listings 6 and 7).
//!
//! Each erratum has a named test. Where the defect shows as a wrong answer, the listing is
//! reproduced literally below (`listing6`, `listing7`) so the test can show that the listing
//! gets the case wrong and collide gets it right; the failing configurations are pasted here
//! with their exact `f32` values.
//!
//! Erratum 6.2 (`float ra, rb, t` mixed with `SCALAR`) cannot recur: collide is `f32` from input
//! to comparison, by type.

use crate::common::*;
use collide::overlap::{aabb_obb, obb_obb, segment_aabb, segment_obb};
use collide::shapes::{Aabb, Obb, Segment};
use collide::{Mat3, Quat, Vec3};
use collide_testkit::Gen;

/// Gomez 1999, listing 6, transcribed literally (f32, no epsilon): the reproduction of the bug.
fn listing6(a: &Obb, b: &Obb) -> bool {
    let (ea, eb) = (a.half_extents.to_array(), b.half_extents.to_array());
    let aa = [a.axes.x_axis, a.axes.y_axis, a.axes.z_axis];
    let bb = [b.axes.x_axis, b.axes.y_axis, b.axes.z_axis];
    let v = b.center - a.center;
    let t = [v.dot(aa[0]), v.dot(aa[1]), v.dot(aa[2])];
    let mut r = [[0f32; 3]; 3];
    for i in 0..3 {
        for k in 0..3 {
            r[i][k] = aa[i].dot(bb[k]);
        }
    }
    for i in 0..3 {
        let rb = eb[0] * r[i][0].abs() + eb[1] * r[i][1].abs() + eb[2] * r[i][2].abs();
        if t[i].abs() > ea[i] + rb {
            return false;
        }
    }
    for k in 0..3 {
        let ra = ea[0] * r[0][k].abs() + ea[1] * r[1][k].abs() + ea[2] * r[2][k].abs();
        let tt = (t[0] * r[0][k] + t[1] * r[1][k] + t[2] * r[2][k]).abs();
        if tt > ra + eb[k] {
            return false;
        }
    }
    for i in 0..3 {
        for k in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            let ra = ea[i1] * r[i2][k].abs() + ea[i2] * r[i1][k].abs();
            let rb = eb[k1] * r[i][k2].abs() + eb[k2] * r[i][k1].abs();
            let tt = (t[i2] * r[i1][k] - t[i1] * r[i2][k]).abs();
            if tt > ra + rb {
                return false;
            }
        }
    }
    true
}

/// Gomez 1999, listing 7, transcribed literally: segment in box space as unit direction `l`,
/// midpoint and half-length; box centred at the origin with half-extents `e`.
fn listing7(l: Vec3, mid: Vec3, hl: f32, e: Vec3) -> bool {
    let t = -mid; // T = b.P - mid, with b.P = 0
    if t.x.abs() > e.x + hl * l.x.abs()
        || t.y.abs() > e.y + hl * l.y.abs()
        || t.z.abs() > e.z + hl * l.z.abs()
    {
        return false;
    }
    if (t.y * l.z - t.z * l.y).abs() > e.y * l.z.abs() + e.z * l.y.abs() {
        return false;
    }
    if (t.z * l.x - t.x * l.z).abs() > e.x * l.z.abs() + e.z * l.x.abs() {
        return false;
    }
    if (t.x * l.y - t.y * l.x).abs() > e.x * l.y.abs() + e.y * l.x.abs() {
        return false;
    }
    true
}

/// Listing 7 on a world segment and an OBB: into box space, then unit direction and half-length
/// (as the listing requires; a zero-length segment normalises to NaN).
fn listing7_obb(s: &Segment, o: &Obb) -> bool {
    let mid = o.to_local(s.midpoint());
    let d = o.axes.transpose() * (s.b - s.a);
    let len = d.length();
    listing7(d / len, mid, len * 0.5, o.half_extents)
}

fn obb(center: [f32; 3], axes: [[f32; 3]; 3], e: [f32; 3]) -> Obb {
    Obb {
        center: Vec3::from_array(center),
        axes: Mat3::from_cols(
            Vec3::from_array(axes[0]),
            Vec3::from_array(axes[1]),
            Vec3::from_array(axes[2]),
        ),
        half_extents: Vec3::from_array(e),
    }
}

#[test]
fn erratum_6_1_parallel_edges_deep_overlap_missed_by_listing() {
    // B is A turned 90° about A's x axis, so A_x ∥ B_x and the axis A_x × B_x
    // is rounding noise. The boxes overlap by 0.25 (f64 SAT), yet the listing finds a
    // "separating" axis in that noise.
    let a = obb(
        [2.3697138, -0.07086277, 2.7591505],
        [
            [-0.2533431, -0.62965256, -0.7344079],
            [0.71009904, -0.6365979, 0.30083665],
            [-0.656945, -0.4452875, 0.60839325],
        ],
        [0.8608716, 1.1523608, 0.6843338],
    );
    let b = obb(
        [0.7659879, 1.114056, 1.386926],
        [
            [-0.2533431, -0.62965244, -0.7344079],
            [0.65694493, 0.44528753, -0.60839325],
            [0.710099, -0.6365978, 0.30083656],
        ],
        [0.5009885, 1.4348534, 1.4013927],
    );
    let (a64, b64) = (Box64::from_obb(&a), Box64::from_obb(&b));
    assert!(sat_box_box(&a64, &b64) < -0.2, "the boxes overlap deeply");
    assert!(box_box_distance(&a64, &b64) < 1e-9);
    assert!(!listing6(&a, &b), "the literal listing misses this overlap");
    assert!(obb_obb(&a, &b) && obb_obb(&b, &a));
}

#[test]
fn erratum_6_1_parallel_edges_random_overlaps_never_missed() {
    // Random boxes with edges parallel to the other's (turned by multiples of 90°): every
    // overlap by more than 1e-4 is found; the literal listing misses some.
    let mut g = Gen::new(0xE6_01);
    let (mut overlaps, mut listing_misses) = (0, 0);
    for n in 0..cases(20_000, 400_000) {
        let a = g.obb();
        let mut b = g.obb_parallel_to(&a);
        if n % 2 == 0 {
            b.center = a.center + (b.center - a.center) * 0.3;
        }
        let sep = sat_box_box(&Box64::from_obb(&a), &Box64::from_obb(&b));
        if sep < -1e-4 {
            overlaps += 1;
            assert!(obb_obb(&a, &b) && obb_obb(&b, &a), "missed: {a:?} {b:?}");
            listing_misses += usize::from(!listing6(&a, &b));
        } else if sep > 1e-4 {
            assert!(
                !obb_obb(&a, &b) && !obb_obb(&b, &a),
                "false hit: {a:?} {b:?}"
            );
        }
    }
    assert!(
        overlaps > 1000,
        "too few overlaps to mean anything: {overlaps}"
    );
    assert!(listing_misses > 0, "the reproduction should fail here");
}

#[test]
fn erratum_6_1_parallel_edges_resting_face_to_face_always_touch() {
    // B turned by a multiple of 90° about an axis of A and placed face to face with A (exactly
    // touching in exact arithmetic), slid anywhere along the face: always touching. The
    // literal listing misses most of these.
    let mut g = Gen::new(0xE6_02);
    let (mut total, mut listing_misses) = (0, 0);
    for n in 0..cases(20_000, 400_000) {
        let a = g.obb();
        let mut b = g.obb_parallel_to(&a);
        let i = n % 3;
        let ai = [a.axes.x_axis, a.axes.y_axis, a.axes.z_axis][i];
        let rb = Box64::from_obb(&b).radius_on(dv(ai)) as f32;
        let mut local = g.vec(1.0) * a.half_extents;
        local[i] = a.half_extents[i] + rb;
        if n % 2 == 1 {
            local[i] = -local[i];
        }
        b.center = a.to_world(local);
        total += 1;
        assert!(
            obb_obb(&a, &b) && obb_obb(&b, &a),
            "resting box missed: {a:?} {b:?}"
        );
        listing_misses += usize::from(!listing6(&a, &b));
        // The AABB version agrees when A is axis-aligned.
        if n % 10 == 0 {
            let box_a = Aabb::from_center_half_extents(Vec3::ZERO, a.half_extents);
            let local_b = Obb {
                center: a.to_local(b.center),
                axes: a.axes.transpose() * b.axes,
                half_extents: b.half_extents,
            };
            assert!(aabb_obb(&box_a, &local_b));
        }
    }
    assert!(
        listing_misses > total / 10,
        "listing missed {listing_misses}/{total}"
    );
}

#[test]
fn erratum_7_1_segment_parallel_to_box_axis_touching_missed_by_listing() {
    // A segment parallel to the box's x axis, touching the box; the listing's
    // cross-axis tests compare rounding noise and report no contact.
    let s = Segment::new(
        Vec3::new(1.8735014, 3.8719108, 0.44879085),
        Vec3::new(-1.0226218, 4.695501, -2.262257),
    );
    let o = obb(
        [1.2812347, 2.3105497, 0.2883234],
        [
            [0.17263895, 0.97850096, 0.11283454],
            [0.67767787, -0.03486252, -0.734532],
            [-0.71480656, 0.20327431, -0.6691272],
        ],
        [1.8393795, 0.22906458, 1.6870925],
    );
    let d = segment_box_distance(dv(s.a), dv(s.b), &Box64::from_obb(&o));
    assert!(d < 1e-6, "touching in f64: distance {d}");
    assert!(!listing7_obb(&s, &o), "the literal listing misses it");
    assert!(segment_obb(&s, &o));
}

#[test]
fn erratum_7_1_segments_along_faces_and_edges_always_touch() {
    // Segments parallel to a box axis lying on a face or along an edge of a turned box
    // (touching in exact arithmetic), and parallel segments through the inside: always found.
    let mut g = Gen::new(0xE7_01);
    let (mut total, mut listing_misses) = (0, 0);
    for n in 0..cases(20_000, 400_000) {
        let o = g.obb();
        let k = n % 3;
        let axis = [o.axes.x_axis, o.axes.y_axis, o.axes.z_axis][k];
        let mut q = g.vec(1.0) * o.half_extents;
        match n % 4 {
            0 => q[(k + 1) % 3] = o.half_extents[(k + 1) % 3], // on a face
            1 => {
                // along an edge
                q[(k + 1) % 3] = -o.half_extents[(k + 1) % 3];
                q[(k + 2) % 3] = o.half_extents[(k + 2) % 3];
            }
            _ => {} // inside
        }
        let p = o.to_world(q);
        let len = g.range(0.1, 6.0);
        let s = Segment::new(p - axis * len * g.range(0.0, 1.0), p + axis * len);
        // Rounding the world coordinates can move the segment off the box by ~1e-7 of the
        // scene's size; such a segment is really (if barely) apart, and either answer is fine.
        let d = segment_box_distance(dv(s.a), dv(s.b), &Box64::from_obb(&o));
        if d > 1e-9 {
            continue;
        }
        total += 1;
        assert!(segment_obb(&s, &o), "missed: {s:?} {o:?}");
        listing_misses += usize::from(!listing7_obb(&s, &o));
        // In box space the AABB version agrees.
        let local = Segment::new(o.to_local(s.a), o.to_local(s.b));
        let bx = Aabb::from_center_half_extents(Vec3::ZERO, o.half_extents);
        assert!(
            segment_aabb(&local, &bx),
            "missed in box space: {local:?} {bx:?}"
        );
    }
    assert!(
        total > 1000 && listing_misses > 0,
        "listing missed {listing_misses}/{total}"
    );
}

#[test]
fn erratum_7_2_zero_length_segment_is_a_point() {
    // The listing needs a unit direction: a zero-length segment normalises to NaN, every
    // comparison is false, and a point far outside the box is reported as touching it.
    let o = Obb::new(
        Vec3::new(1.0, 2.0, 3.0),
        Quat::from_rotation_y(0.4),
        Vec3::ONE,
    );
    let outside = Segment::new(Vec3::splat(9.0), Vec3::splat(9.0));
    assert!(listing7_obb(&outside, &o), "the listing's NaN says yes");
    assert!(!segment_obb(&outside, &o));
    // Inside, on a corner, just outside: point-in-box answers.
    let c = o.corners()[5];
    assert!(segment_obb(&Segment::new(o.center, o.center), &o));
    assert!(segment_obb(&Segment::new(c, c), &o));
    let out = o.to_world(Vec3::new(1.001, 0.0, 0.0));
    assert!(!segment_obb(&Segment::new(out, out), &o));
    // Random points: agree with the f64 point-in-box test away from the boundary.
    let mut g = Gen::new(0xE7_02);
    for _ in 0..cases(5000, 100_000) {
        let (b, a) = (g.aabb(), g.obb());
        let p = g.point();
        let s = Segment::new(p, p);
        let d_a = Box64::from_aabb(&b).distance(dv(p));
        let d_o = Box64::from_obb(&a).distance(dv(p));
        let inside_a = Box64::from_aabb(&b)
            .local(dv(p))
            .abs()
            .cmplt(Box64::from_aabb(&b).e)
            .all();
        let inside_o = Box64::from_obb(&a)
            .local(dv(p))
            .abs()
            .cmplt(Box64::from_obb(&a).e)
            .all();
        if d_a > 1e-4 || inside_a {
            assert_eq!(segment_aabb(&s, &b), inside_a, "{p:?} {b:?}");
        }
        if d_o > 1e-4 || inside_o {
            assert_eq!(segment_obb(&s, &a), inside_o, "{p:?} {a:?}");
        }
    }
}

#[test]
fn erratum_7_3_no_unit_direction_any_length() {
    // The listing mixed `I` and `l` for one unit direction and half-length; collide uses the
    // half-vector, so segments from 1e-3 to 1e3 long are tested alike. Checked against dense
    // f64 sampling of the segment at each length scale.
    let mut g = Gen::new(0xE7_03);
    let mut checked = 0;
    for n in 0..cases(3000, 50_000) {
        let scale = [1e-3f32, 1e-1, 1.0, 10.0, 1e3][n % 5];
        let b = g.aabb();
        let a = g.point();
        let s = Segment::new(a, a + g.unit() * scale);
        let bx = Box64::from_aabb(&b);
        let d = segment_box_distance_sampled(dv(s.a), dv(s.b), &bx, 4000);
        let h = f64::from(scale) / 4000.0;
        if d <= 0.0 {
            assert!(segment_aabb(&s, &b), "{s:?} {b:?}");
            checked += 1;
        } else if d > h + 1e-4 {
            assert!(!segment_aabb(&s, &b), "{s:?} {b:?}");
            checked += 1;
        }
    }
    assert!(checked > 2000);
}
