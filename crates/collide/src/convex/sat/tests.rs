//! The separating-axis test's unit tests.

use super::search::{ArcLanes, GaussLists, LANES};
use super::*;
use crate::assert_near;
use crate::math::Quat;

fn cube(pos: Vec3, rot: Quat) -> ConvexPolyhedron {
    ConvexPolyhedron::cuboid(Vec3::ONE)
        .unwrap()
        .with_pose(rot, pos)
}

#[test]
fn face_separated_cubes() {
    // Unit cubes (half-extent 1) 3 apart on x: gap 1 along +x, plane at x = 1.5.
    let r = sat(
        &cube(Vec3::ZERO, Quat::IDENTITY),
        &cube(Vec3::X * 3.0, Quat::IDENTITY),
    );
    let SatResult::Separated { plane, distance } = r else {
        panic!("{r:?}")
    };
    assert_near!(distance, 1.0);
    assert_near!(plane.normal, Vec3::X);
    assert_near!(plane.signed_distance(Vec3::new(1.5, 7.0, -3.0)), 0.0);
}

#[test]
fn overlapping_cubes_minimum_translation() {
    // Cubes 1.8 apart on y overlap by 0.2 along +y.
    let r = sat(
        &cube(Vec3::ZERO, Quat::IDENTITY),
        &cube(Vec3::Y * 1.8, Quat::IDENTITY),
    );
    let SatResult::Penetrating { normal, depth } = r else {
        panic!("{r:?}")
    };
    assert_near!(depth, 0.2, 1e-5);
    assert_near!(normal, Vec3::Y);
}

#[test]
fn touching_is_penetrating_with_zero_depth() {
    // Faces exactly in contact at x = 1.
    let r = sat(
        &cube(Vec3::ZERO, Quat::IDENTITY),
        &cube(Vec3::X * 2.0, Quat::IDENTITY),
    );
    assert_eq!(
        r,
        SatResult::Penetrating {
            normal: Vec3::X,
            depth: 0.0
        }
    );
}

#[test]
fn edge_edge_separation() {
    // Two cubes turned 45° about perpendicular axes meet edge to edge; moved apart along
    // the line of centres, only the edge-pair axis separates them.
    let qa = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    let qb = Quat::from_rotation_x(std::f32::consts::FRAC_PI_4);
    let s2 = std::f32::consts::SQRT_2;
    // A's edge tip along +x is at √2, B's edge tip along −x is... B rotated about x keeps
    // x faces; use y: A tip on +y at √2, B tip on −y at −√2 relative to its centre.
    let gap = 0.1;
    let b_pos = Vec3::Y * (2.0 * s2 + gap);
    let r = sat(&cube(Vec3::ZERO, qa), &cube(b_pos, qb));
    let SatResult::Separated { plane, distance } = r else {
        panic!("{r:?}")
    };
    assert_near!(distance, gap, 1e-5);
    assert_near!(plane.normal, Vec3::Y, 1e-5);
    let mut cache = SepCache::default();
    let _ = sat_cached(&cube(Vec3::ZERO, qa), &cube(b_pos, qb), &mut cache);
    assert!(matches!(cache.feature, SepFeature::Edges(..)));
}

#[test]
fn cache_hits_on_the_next_frame() {
    // The same pair moved slightly: the cached face still separates.
    let mut cache = SepCache::default();
    let a = cube(Vec3::ZERO, Quat::IDENTITY);
    for k in 0..10 {
        let b = cube(
            Vec3::new(3.0, 0.01 * k as f32, 0.0),
            Quat::from_rotation_y(0.01 * k as f32),
        );
        assert!(!sat_cached(&a, &b, &mut cache).is_penetrating());
    }
    assert_eq!((cache.hits, cache.misses), (9, 1));
    assert_near!(cache.hit_rate(), 0.9, 1e-9);
}

#[test]
fn stale_cache_never_changes_the_answer() {
    // A cache naming features that do not exist is just a miss.
    let a = cube(Vec3::ZERO, Quat::IDENTITY);
    let b = cube(Vec3::X * 1.5, Quat::IDENTITY);
    for feature in [
        SepFeature::FaceA(99),
        SepFeature::FaceB(7),
        SepFeature::Edges(50, 0),
        SepFeature::FaceA(0),
    ] {
        let mut cache = SepCache {
            feature,
            support_a: 1000,
            support_b: 3,
            ..SepCache::default()
        };
        assert_eq!(sat_cached(&a, &b, &mut cache), sat(&a, &b));
    }
}

#[test]
fn support_reach_is_tied_to_the_hull() {
    // A cache warmed on one hull and then used with another of the same vertex count: the
    // reach learned on the first is not trusted for the second.
    let sphere = |scale: Vec3| {
        let pts = crate::convex::hull::tests::fibonacci_sphere(40, scale);
        ConvexPolyhedron::from_points(&pts).unwrap()
    };
    let (x, y) = (sphere(Vec3::ONE), sphere(Vec3::new(0.3, 1.8, 1.2)));
    assert_eq!(x.hull.vertices().len(), y.hull.vertices().len());
    let a = x.with_pose(Quat::IDENTITY, Vec3::ZERO);
    let bx = x.with_pose(Quat::from_rotation_z(0.3), Vec3::new(2.5, 0.2, 0.0));
    let mut cache = SepCache::default();
    for _ in 0..2 {
        assert!(!sat_cached(&a, &bx, &mut cache).is_penetrating());
    }
    assert_eq!((cache.hits, cache.misses), (1, 1));
    assert!(matches!(cache.feature, SepFeature::FaceA(_)));
    assert_eq!(cache.cone_b.hull, x.hull.id());
    assert!(cache.cone_b.reach > 0.0);
    // B's shape changes under the same cache, and the new shape overlaps A.
    let by = y.with_pose(Quat::from_rotation_z(0.3), Vec3::new(1.0, 0.2, 0.0));
    let r = sat_cached(&a, &by, &mut cache);
    assert!(r.is_penetrating());
    assert_eq!(r, sat(&a, &by));
    assert!(cache.cone_b.hull == y.hull.id() || cache.cone_b.hull == 0);
}

#[test]
fn lane_gauss_test_matches_the_pair_by_pair_test() {
    // The four-lane Gauss-map test against the scalar tests of Gregorius 2013, on random
    // arcs (including arcs sharing endpoints, where a product is exactly zero).
    let mut g = collide_testkit::Gen::new(0x6a55);
    for _ in 0..2000 {
        let (a, b) = (g.unit(), g.unit());
        let bxa = b.cross(a);
        let mut lanes = ArcLanes::default();
        let mut expect = 0u32;
        for k in 0..LANES {
            let c = if k == 1 { a } else { g.unit() };
            let d = if k == 2 { -b } else { g.unit() };
            let dxc = d.cross(c);
            lanes.set(k, c, d, dxc);
            let (cba, dba) = (c.dot(bxa), d.dot(bxa));
            let (adc, bdc) = (a.dot(dxc), b.dot(dxc));
            let pass = cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
            expect |= u32::from(pass) << k;
        }
        assert_eq!(lanes.crossing(a, b, bxa), expect);
    }
    // Unused (zero) lanes never pass.
    assert_eq!(
        ArcLanes::default().crossing(Vec3::X, Vec3::Y, Vec3::NEG_Z),
        0
    );
}

#[test]
fn gauss_pairs_are_the_pair_by_pair_crossings() {
    // The culled, four-lane enumeration of crossing arcs against the scalar sign tests
    // (arc planes from the edge directions) over every edge pair, for hulls of many short
    // arcs (a 200-point sphere), long ones (a box, a 20-point sphere) and random rotations
    // of B.
    let mut g = collide_testkit::Gen::new(0x9a55);
    let sphere = |n: usize, s: Vec3| {
        ConvexHull::try_new(&crate::convex::hull::tests::fibonacci_sphere(n, s)).unwrap()
    };
    let cube = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 0.5)).unwrap();
    let hulls = [
        sphere(200, Vec3::ONE),
        sphere(20, Vec3::new(2.0, 1.0, 0.3)),
        (*cube.hull).clone(),
    ];
    let mut crossings = 0;
    for ha in &hulls {
        for hb in &hulls {
            for _ in 0..10 {
                let r = Mat3A::from_quat(g.quat());
                let mut lists = GaussLists::default();
                let pairs = lists.pairs(hb, &r);
                for (e, arc) in ha.edges().iter().zip(ha.gauss_arcs()) {
                    let na = ha.faces()[e.faces[0] as usize].plane.normal;
                    let nb = ha.faces()[e.faces[1] as usize].plane.normal;
                    let mut got = Vec::new();
                    let _ = pairs.crossing(arc, na, nb, |j| {
                        got.push(j);
                        ControlFlow::Continue(())
                    });
                    got.sort_unstable();
                    let bxa = arc.normal;
                    let want: Vec<u32> = (0..hb.edges().len() as u32)
                        .filter(|&j| {
                            let f = hb.edges()[j as usize].faces;
                            let c = -(r * hb.faces()[f[0] as usize].plane.normal);
                            let d = -(r * hb.faces()[f[1] as usize].plane.normal);
                            let dxc = r * hb.gauss_arcs()[j as usize].normal;
                            let (cba, dba) = (c.dot(bxa), d.dot(bxa));
                            let (adc, bdc) = (na.dot(dxc), nb.dot(dxc));
                            cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
                        })
                        .collect();
                    assert_eq!(got, want);
                    crossings += want.len();
                }
            }
        }
    }
    assert!(crossings > 10_000, "{crossings} crossings");
}

#[test]
fn edge_axis_is_unit_at_every_scale() {
    // Two skew edges scaled from 1e-20 to 1e18: the f32 squares of the cross product
    // underflow below ~1e-15 and overflow above ~1e9, and the axis must stay unit,
    // oriented out of A's edge, and equal (in direction) the unscaled one.
    let (da, db, out) = (Vec3::new(1.0, 0.2, 0.0), Vec3::new(0.1, 0.3, 1.0), DVec3::Z);
    let unit = edge_axis(da, db, out).expect("skew edges have an axis");
    for k in -20..=18 {
        let s = 10f32.powi(k);
        let axis = edge_axis(da * s, db * s, out).expect("skew edges have an axis");
        assert!(
            (axis.length() - 1.0).abs() < 1e-6,
            "scale 1e{k}: |axis| {}",
            axis.length()
        );
        assert!(axis.dot(unit) > 1.0 - 1e-5, "scale 1e{k}: {axis} vs {unit}");
    }
    // Parallel and NaN edges give no axis at any scale.
    for s in [1e-20, 1.0, 1e18] {
        assert_eq!(edge_axis(da * s, da * (2.0 * s), out), None);
    }
    assert_eq!(edge_axis(Vec3::NAN, db, out), None);
}

#[test]
fn nan_pose_is_no_contact() {
    // A NaN translation: separated at infinite distance.
    let r = sat(
        &cube(Vec3::NAN, Quat::IDENTITY),
        &cube(Vec3::ZERO, Quat::IDENTITY),
    );
    assert!(matches!(r, SatResult::Separated { distance, .. } if distance == f32::INFINITY));
}
