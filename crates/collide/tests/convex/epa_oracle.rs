//! EPA penetration and `contact` against independent f64 oracles: the box–box minimum
//! translation over the 15 SAT axes; for every pair of shape kinds, the exhaustive facet search
//! of the Minkowski difference of the cores plus the radii. Also symmetry, invariance, unit
//! normals and degenerate overlaps.
//!
//! Set `COLLIDE_LONG=k` to run k times as many random cases.

use collide::convex::contact::{contact, Contact};
use collide::convex::epa::penetration;
use collide::convex::{Posed, SupportMap};
use collide::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use collide_testkit::oracle::minkowski::*;
use collide_testkit::Gen;
use glam::DVec3;

/// `h(n) = max over the cores' Minkowski difference of n·x`, plus the radii: the translation
/// along `n` that separates the shapes (to touching).
fn separation_along(m: &[DVec3], radii: f64, n: Vec3) -> f64 {
    let n = n.as_dvec3();
    m.iter()
        .map(|x| n.dot(*x))
        .fold(f64::NEG_INFINITY, f64::max)
        + radii
}

fn check_contact_invariants(c: &Contact, ctx: &str) {
    assert!(
        (c.normal.length() - 1.0).abs() <= 1e-5,
        "normal not unit: {ctx} {c:?}"
    );
    let gap = c.point_a - c.point_b - c.normal * c.depth;
    assert!(
        gap.length() <= 1e-4,
        "point_a - point_b != depth n: {ctx} {c:?}"
    );
}

#[test]
fn box_box_depth_and_normal_match_f64_sat() {
    // Scenario: overlapping OBB pairs (random and with parallel edges); EPA vs the SAT minimum
    // translation in f64.
    let n = cases(3000);
    let mut g = Gen::new(3);
    g.extent = 1.5;
    let (mut checked, mut normal_checked, mut max_depth_err, mut max_n_err) =
        (0, 0, 0.0f64, 0.0f64);
    for i in 0..n {
        let a = g.obb();
        let b = if i % 3 == 0 {
            g.obb_parallel_to(&a)
        } else {
            g.obb()
        };
        let Ok((depth, sat_n)) = sat_obb(&a, &b) else {
            assert!(penetration(&a, &b).is_none(), "case {i}: SAT separated");
            continue;
        };
        let ctx = format!("case {i}: {a:?} {b:?} SAT depth {depth} n {sat_n}");
        let Some(p) = penetration(&a, &b) else {
            assert!(depth < 1e-4, "penetration missed: {ctx}");
            continue;
        };
        let err = (f64::from(p.depth) - depth).abs();
        max_depth_err = max_depth_err.max(err);
        assert!(err <= 1e-4, "depth {} vs {depth}: {ctx}", p.depth);
        assert!((p.normal.length() - 1.0).abs() <= 1e-5, "{ctx}");
        // The normal separates by exactly the depth.
        let m = minkowski(&core_obb(&a), &core_obb(&b));
        let along = separation_along(&m, 0.0, p.normal);
        assert!(
            (along - depth).abs() <= 1e-4,
            "normal {} moves {along}: {ctx}",
            p.normal
        );
        // Where the SAT minimum is unique, the normals agree.
        let sep = |l: DVec3| separation_along(&m, 0.0, l.as_vec3());
        let axes_min_unique = {
            let mut over: Vec<f64> = Vec::new();
            let aa = [a.axes.x_axis, a.axes.y_axis, a.axes.z_axis];
            let ba = [b.axes.x_axis, b.axes.y_axis, b.axes.z_axis];
            let mut ax: Vec<DVec3> = aa.iter().chain(&ba).map(|v| v.as_dvec3()).collect();
            for x in aa {
                for y in ba {
                    let c = x.as_dvec3().cross(y.as_dvec3());
                    if c.length() > 1e-6 {
                        ax.push(c.normalize());
                    }
                }
            }
            for l in ax {
                over.push(sep(l).min(sep(-l)));
            }
            over.sort_by(f64::total_cmp);
            over.len() < 2 || over[1] - over[0] > 1e-3
        };
        if axes_min_unique {
            let e = f64::from((p.normal - sat_n.as_vec3()).length());
            max_n_err = max_n_err.max(e);
            assert!(e <= 1e-3, "normal {} vs SAT {sat_n}: {ctx}", p.normal);
            normal_checked += 1;
        }
        checked += 1;
    }
    eprintln!(
        "epa vs f64 SAT (obb-obb): {checked} overlapping pairs, depth max error \
         {max_depth_err:.2e}; {normal_checked} with a unique SAT axis, normal max error \
         {max_n_err:.2e}"
    );
    assert!(checked > n / 4);
}

#[test]
fn contact_matches_f64_facet_search_all_kinds() {
    // Scenario: every ordered pair of kinds near the origin, contact(margin 0.5) against the
    // exhaustive f64 answer: apart (−distance), overlapping through the margins (radii − core
    // distance), or cores overlapping (facet depth + radii).
    let per_pair = cases(15);
    let (mut deep, mut shallow, mut apart, mut none) = (0, 0, 0, 0);
    let mut max_err = 0.0f64;
    for (ia, &ka) in KINDS.iter().enumerate() {
        for (ib, &kb) in KINDS.iter().enumerate() {
            let mut g = Gen::new(200 + (ia * 8 + ib) as u64);
            g.extent = 1.5;
            for case in 0..per_pair {
                let (a, b) = (draw(&mut g, ka), draw(&mut g, kb));
                let t = truth(&a.core, &b.core);
                let radii = a.core.radius + b.core.radius;
                let m = minkowski(&a.core, &b.core);
                let c = contact(&*a.s, &*b.s, 0.5);
                let ctx = format!("{ka:?}-{kb:?} case {case}: {t:?} {c:?}");
                let expected = if t.core_distance > 0.0 {
                    radii - t.core_distance
                } else {
                    match hull_depth(&m) {
                        Some((d, _)) => d + radii,
                        None => radii, // flat difference: touching cores
                    }
                };
                if expected < -0.5 - 1e-4 {
                    assert!(c.is_none(), "beyond margin: {ctx}");
                    none += 1;
                    continue;
                }
                if expected < -0.5 + 1e-4 {
                    continue; // within the band of the margin
                }
                let c = c.unwrap_or_else(|| panic!("missed contact: {ctx} expected {expected}"));
                check_contact_invariants(&c, &ctx);
                // Witness points lie on their shapes.
                assert!(
                    dist_to_shape(&a.core, c.point_a) <= 1e-4,
                    "point_a off A: {ctx}"
                );
                assert!(
                    dist_to_shape(&b.core, c.point_b) <= 1e-4,
                    "point_b off B: {ctx}"
                );
                let err = (f64::from(c.depth) - expected).abs();
                max_err = max_err.max(err);
                assert!(err <= 1e-4, "depth {} vs {expected}: {ctx}", c.depth);
                // The normal realises the depth (or the distance): the shapes separate after
                // moving B by depth·normal, and not before.
                let along = separation_along(&m, radii, c.normal);
                assert!(
                    (along - f64::from(c.depth)).abs() <= 1e-4,
                    "along {along}: {ctx}"
                );
                if t.core_distance <= 0.0 {
                    deep += 1;
                } else if expected >= 0.0 {
                    shallow += 1;
                } else {
                    apart += 1;
                }
            }
        }
    }
    eprintln!(
        "contact vs f64 facet search: {deep} cores overlapping, {shallow} overlapping via \
         margins, {apart} apart within margin, {none} beyond margin; max depth error \
         {max_err:.2e}"
    );
    assert!(deep > 200);
}

#[test]
fn contact_symmetric_and_invariant() {
    // Scenario: swapping A and B flips the normal and keeps the depth; moving and rotating both
    // keeps the depth and rotates the normal.
    let mut g = Gen::new(31);
    g.extent = 1.5;
    let mut n = 0;
    for i in 0..cases(2000) {
        let ka = KINDS[i as usize % 8];
        let kb = KINDS[(i as usize / 8) % 8];
        let (a, b) = (draw(&mut g, ka), draw(&mut g, kb));
        let (Some(ab), Some(ba)) = (contact(&*a.s, &*b.s, 0.0), contact(&*b.s, &*a.s, 0.0)) else {
            continue;
        };
        let ctx = format!("{ka:?}-{kb:?} {i}: {ab:?} {ba:?}");
        assert!((ab.depth - ba.depth).abs() <= 1e-4, "{ctx}");
        // Normals flip unless the minimum translation is not unique (ties between faces);
        // then both must realise the same depth, which the facet test above checks.
        let m = minkowski(&a.core, &b.core);
        let radii = a.core.radius + b.core.radius;
        let along = separation_along(&m, radii, -ba.normal);
        assert!((along - f64::from(ab.depth)).abs() <= 1e-4, "{ctx}");
        let q = g.quat();
        let t = g.vec(20.0);
        let (pa, pb) = (Posed::new(&*a.s, q, t), Posed::new(&*b.s, q, t));
        if let Some(moved) = contact(&pa, &pb, 0.0) {
            assert!(
                (moved.depth - ab.depth).abs() <= 2e-4,
                "{ctx} moved {moved:?}"
            );
        } else {
            assert!(ab.depth < 1e-4, "{ctx}: moved pair lost its contact");
        }
        n += 1;
    }
    assert!(n > 300, "{n}");
}

#[test]
fn degenerate_and_deep_overlaps() {
    // Scenario: identical boxes, a box inside a box, concentric spheres, identical point
    // clouds, a triangle inside a box, crossing flat shapes: unit normals and correct depths.
    let b = Obb::new(
        Vec3::ONE,
        Quat::from_rotation_y(0.5),
        Vec3::new(1.0, 2.0, 3.0),
    );
    let c = contact(&b, &b, 0.0).unwrap();
    assert!((c.depth - 2.0).abs() <= 1e-4, "{c:?}"); // smallest full width
    assert!((c.normal.length() - 1.0).abs() <= 1e-5);
    let inner = Obb::new(Vec3::new(1.2, 1.0, 1.0), b.rotation(), Vec3::splat(0.1));
    let c = contact(&b, &inner, 0.0).unwrap();
    // Exit along b's local +x: inner reaches local x = 0.2·cos... its centre is at local
    // x = 0.2·cos(0.5), so it must move (1 - local_x) + 0.1.
    let lx = b.to_local(inner.center).x;
    assert!(
        (f64::from(c.depth) - f64::from(1.0 - lx + 0.1)).abs() <= 1e-4,
        "{c:?}"
    );
    let s = Sphere::new(Vec3::ZERO, 1.0);
    let c = contact(&s, &s, 0.0).unwrap();
    assert!((c.depth - 2.0).abs() <= 1e-6 && (c.normal.length() - 1.0).abs() <= 1e-6);
    let pts = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let c = contact(&pts, &pts, 0.0).unwrap();
    // Tetrahedron minus itself: its smallest width (to the slanted face) is 1/√3.
    assert!((c.depth - 1.0 / 3f32.sqrt()).abs() <= 1e-4, "{c:?}");
    let tri = Triangle::new(Vec3::ZERO, Vec3::X * 0.5, Vec3::Y * 0.5);
    let boxy = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
    let c = contact(&tri, &boxy, 0.0).unwrap();
    assert!((c.depth - 1.0).abs() <= 1e-4, "{c:?}");
    let s1 = Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::X);
    let s2 = Segment::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y);
    let c = contact(&s1, &s2, 0.0).unwrap();
    assert!(
        c.depth.abs() <= 1e-6 && (c.normal.z.abs() - 1.0).abs() <= 1e-5,
        "{c:?}"
    );
    let cap = Capsule::new(Vec3::ZERO, Vec3::ZERO, 0.5);
    let c = contact(&cap, &Vec3::ZERO, 0.0).unwrap();
    assert!((c.depth - 0.5).abs() <= 1e-6 && (c.normal.length() - 1.0).abs() <= 1e-6);
}

#[test]
fn never_nan_on_extreme_input() {
    // Scenario: tiny and huge scales, flat and point shapes, deep and touching: every contact
    // has finite fields and a unit normal, or is None.
    let mut g = Gen::new(12);
    for i in 0..cases(1500) {
        let k = [1e-7_f32, 1e-5, 1e-2, 1.0, 1e2, 1e4, 1e7][i as usize % 7];
        let c0 = g.vec(1.0) * k;
        let q = g.quat();
        let shapes: Vec<Box<dyn SupportMap>> = vec![
            Box::new(c0),
            Box::new(Obb::new(c0, q, Vec3::new(k, k, 0.0))),
            Box::new(Obb::new(c0 + g.vec(k), g.quat(), Vec3::splat(k))),
            Box::new(Triangle::new(
                c0,
                c0 + q * Vec3::X * k,
                c0 + q * Vec3::Y * k,
            )),
            Box::new(Segment::new(c0, c0 + g.unit() * k)),
            Box::new(Capsule::new(c0, c0 + g.unit() * k, k * 0.5)),
            Box::new(Sphere::new(c0 + g.vec(k), k)),
            Box::new(vec![c0, c0 + g.vec(k), c0 + g.vec(k)]),
        ];
        for a in &shapes {
            for b in &shapes {
                if let Some(c) = contact(&**a, &**b, 0.1 * k) {
                    assert!(c.depth.is_finite() && c.point_a.is_finite() && c.point_b.is_finite());
                    assert!((c.normal.length() - 1.0).abs() <= 1e-5, "k {k}: {c:?}");
                }
            }
        }
    }
}

#[test]
fn scale_invariant_from_1e_minus_6_to_1e6() {
    // Scenario: the same box/capsule/sphere configuration scaled by k: distance and depth
    // scale by k (relative 1e-4), normals are unchanged.
    let mut g = Gen::new(21);
    g.extent = 1.5;
    for i in 0..cases(300) {
        let (o, c, s) = (g.obb(), g.capsule(), g.sphere());
        let base = [
            contact(&o, &c, 10.0),
            contact(&c, &s, 10.0),
            contact(&o, &s, 10.0),
        ];
        for k in [1e-6_f32, 1e-3, 1e3, 1e6] {
            let ok = Obb {
                center: o.center * k,
                half_extents: o.half_extents * k,
                ..o
            };
            let ck = Capsule::new(c.a * k, c.b * k, c.radius * k);
            let sk = Sphere::new(s.center * k, s.radius * k);
            let scaled = [
                contact(&ok, &ck, 10.0 * k),
                contact(&ck, &sk, 10.0 * k),
                contact(&ok, &sk, 10.0 * k),
            ];
            for (b, sc) in base.iter().zip(&scaled) {
                match (b, sc) {
                    (Some(b), Some(sc)) => {
                        let rel = (sc.depth / k - b.depth).abs();
                        assert!(
                            rel <= 1e-4 * (1.0 + b.depth.abs()),
                            "{i} k {k}: {b:?} {sc:?}"
                        );
                        if b.depth.abs() > 1e-2 {
                            assert!((sc.normal - b.normal).length() <= 1e-3, "{i} k {k}");
                        }
                    }
                    (None, None) => {}
                    _ => panic!("{i} k {k}: {b:?} vs {sc:?}"),
                }
            }
        }
    }
}
