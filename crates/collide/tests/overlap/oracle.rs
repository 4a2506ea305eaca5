//! Every `collide::overlap` test against an independent f64 oracle, with proptest (fixed seed,
//! a few thousand cases each; `COLLIDE_LONG=1` for 100,000).
//!
//! Each case draws shapes from `collide_testkit::Gen` seeded by proptest, computes an f64
//! separation with a different algorithm (brute-force SAT over normalised axes, exact
//! closest-point distances, golden-section distances, dense sampling), skips it when the
//! separation is within `1e-4` of the scene's scale of touching, and otherwise requires the
//! same verdict. Both verdicts must occur often, so no test can pass by always answering one way.

use crate::common::*;
use collide::overlap;
use collide::shapes::{Obb, Plane, Triangle};
use collide::Vec3;
use collide_testkit::Gen;
use proptest::prelude::*;

/// A generator with centres in `[-2.5, 2.5]³`, so that touching and apart are both common.
fn dense(seed: u64) -> Gen {
    let mut g = Gen::new(seed);
    g.extent = 2.5;
    g
}

/// Draws an OBB pair: independent, with parallel edges, or pulled close together.
fn obb_pair(g: &mut Gen, seed: u64) -> (Obb, Obb) {
    let a = g.obb();
    let mut b = if seed % 4 == 0 {
        g.obb_parallel_to(&a)
    } else {
        g.obb()
    };
    if seed % 3 == 0 {
        b.center = a.center + (b.center - a.center) * 0.5;
    }
    (a, b)
}

/// A triangle, sometimes degenerate (collinear or coincident corners).
fn triangle(g: &mut Gen, seed: u64) -> Triangle {
    let mut t = g.triangle();
    match seed % 16 {
        0 => t.c = t.a + (t.b - t.a) * 0.4,
        1 => (t.b, t.c) = (t.a, t.a),
        2 => t.c = t.b,
        _ => {}
    }
    t
}

#[test]
fn obb_obb_against_f64_brute_force_sat() {
    let tally = Tally::default();
    runner(cases(4000, 100_000), 1)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let (a, b) = obb_pair(&mut g, seed);
            let sep = sat_box_box(&Box64::from_obb(&a), &Box64::from_obb(&b));
            let mut vals = obb_values(&a);
            vals.extend(obb_values(&b));
            if sep.abs() < band(&vals) {
                tally.skip();
                return Ok(());
            }
            let oracle = sep < 0.0;
            prop_assert_eq!(
                overlap::obb_obb(&a, &b),
                oracle,
                "{:?} {:?} sep {}",
                a,
                b,
                sep
            );
            prop_assert_eq!(
                overlap::obb_obb(&b, &a),
                oracle,
                "{:?} {:?} sep {}",
                b,
                a,
                sep
            );
            tally.count(oracle);
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("obb_obb vs f64 SAT", 0.1);
}

#[test]
fn obb_obb_against_f64_exact_distance() {
    // A second, independent oracle: the exact distance between the boxes (minimum over the
    // 24 edges of the edge-to-solid-box distance, by golden-section search in f64).
    let tally = Tally::default();
    runner(cases(1500, 30_000), 2)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let (a, b) = obb_pair(&mut g, seed);
            let d = box_box_distance(&Box64::from_obb(&a), &Box64::from_obb(&b));
            let mut vals = obb_values(&a);
            vals.extend(obb_values(&b));
            if d > 1e-12 && d < band(&vals) {
                tally.skip();
                return Ok(());
            }
            let oracle = d <= 1e-12;
            prop_assert_eq!(overlap::obb_obb(&a, &b), oracle, "{:?} {:?} d {}", a, b, d);
            tally.count(oracle);
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("obb_obb vs f64 distance", 0.1);
}

#[test]
fn aabb_obb_against_f64_sat() {
    let tally = Tally::default();
    runner(cases(4000, 100_000), 3)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let a = g.aabb();
            let b = g.obb();
            let sep = sat_box_box(&Box64::from_aabb(&a), &Box64::from_obb(&b));
            let mut vals = obb_values(&b);
            vals.extend(a.min.to_array());
            vals.extend(a.max.to_array());
            if sep.abs() < band(&vals) {
                tally.skip();
                return Ok(());
            }
            let oracle = sep < 0.0;
            prop_assert_eq!(overlap::aabb_obb(&a, &b), oracle, "{:?} {:?}", a, b);
            tally.count(oracle);
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("aabb_obb vs f64 SAT", 0.1);
}

#[test]
fn aabb_aabb_against_f64_intervals() {
    let tally = Tally::default();
    runner(cases(4000, 100_000), 4)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let (a, b) = (g.aabb(), g.aabb());
            // Largest gap between the intervals over the three axes.
            let sep = (0..3)
                .map(|i| {
                    let (al, ah) = (f64::from(a.min[i]), f64::from(a.max[i]));
                    let (bl, bh) = (f64::from(b.min[i]), f64::from(b.max[i]));
                    (bl - ah).max(al - bh)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            // Listing 3 is exact on these inputs, so even touching must agree; skip nothing.
            let oracle = sep <= 0.0;
            prop_assert_eq!(overlap::aabb_aabb(&a, &b), oracle);
            prop_assert_eq!(overlap::aabb_aabb(&b, &a), oracle);
            tally.count(oracle);
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("aabb_aabb vs f64 intervals", 0.1);
}

#[test]
fn spheres_against_f64_closest_point_distance() {
    let (t_ss, t_sa, t_so) = (Tally::default(), Tally::default(), Tally::default());
    runner(cases(4000, 100_000), 5)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let s = g.sphere();
            let (c, r) = sphere64(&s);
            let vals = [s.center.abs().max_element(), s.radius, 4.0];
            let bw = band(&vals);
            // Sphere–sphere: centre distance against the radius sum.
            let o = g.sphere();
            let (c2, r2) = sphere64(&o);
            let sep = (c2 - c).length() - r - r2;
            if sep.abs() < bw {
                t_ss.skip();
            } else {
                prop_assert_eq!(overlap::sphere_sphere(&s, &o), sep < 0.0);
                prop_assert_eq!(overlap::sphere_sphere(&o, &s), sep < 0.0);
                t_ss.count(sep < 0.0);
            }
            // Sphere–AABB: f64 distance from the centre to the box.
            let b = g.aabb();
            let sep = Box64::from_aabb(&b).distance(c) - r;
            if sep.abs() < bw {
                t_sa.skip();
            } else {
                prop_assert_eq!(overlap::sphere_aabb(&s, &b), sep < 0.0, "{:?} {:?}", s, b);
                t_sa.count(sep < 0.0);
            }
            // Sphere–OBB.
            let ob = g.obb();
            let sep = Box64::from_obb(&ob).distance(c) - r;
            if sep.abs() < bw {
                t_so.skip();
            } else {
                prop_assert_eq!(overlap::sphere_obb(&s, &ob), sep < 0.0, "{:?} {:?}", s, ob);
                t_so.count(sep < 0.0);
            }
            Ok(())
        })
        .unwrap();
    t_ss.assert_balanced("sphere_sphere vs f64", 0.05);
    t_sa.assert_balanced("sphere_aabb vs f64", 0.05);
    t_so.assert_balanced("sphere_obb vs f64", 0.05);
}

#[test]
fn segment_box_against_f64_dense_sampling() {
    let (t_a, t_o) = (Tally::default(), Tally::default());
    runner(cases(3000, 100_000), 6)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let mut s = g.segment();
            if seed % 10 == 0 {
                s.b = s.a; // points too
            }
            let (a, b) = segment64(&s);
            let n = 4000;
            // Sampled distance: an upper bound, too large by at most |b - a| / (2n).
            let slack = (b - a).length() / (2 * n) as f64;
            let bw = band(&[s.a.abs().max_element(), s.b.abs().max_element(), 4.0]);
            for (k, tally) in [(0, &t_a), (1, &t_o)] {
                let (bx, ours) = if k == 0 {
                    let bb = g.aabb();
                    (Box64::from_aabb(&bb), overlap::segment_aabb(&s, &bb))
                } else {
                    let ob = g.obb();
                    (Box64::from_obb(&ob), overlap::segment_obb(&s, &ob))
                };
                let d = segment_box_distance_sampled(a, b, &bx, n);
                if d <= 0.0 {
                    // A sample lies in the box: they touch, whatever the band says.
                    prop_assert!(ours, "missed: {:?} {:?}", s, bx);
                    tally.count(true);
                } else if d > slack + bw {
                    prop_assert!(!ours, "false hit: {:?} {:?} d {}", s, bx, d);
                    tally.count(false);
                } else {
                    tally.skip();
                }
            }
            Ok(())
        })
        .unwrap();
    t_a.assert_balanced("segment_aabb vs f64 sampling", 0.05);
    t_o.assert_balanced("segment_obb vs f64 sampling", 0.05);
}

#[test]
fn capsules_against_f64_segment_distance() {
    let (t_cc, t_cs) = (Tally::default(), Tally::default());
    runner(cases(3000, 100_000), 7)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let c1 = g.capsule();
            let mut c2 = g.capsule();
            match seed % 8 {
                0 => c2.b = c2.a,                                 // sphere-like
                1 => c2.b = c2.a + (c1.b - c1.a) * 0.5,           // parallel
                2 => (c2.a, c2.b) = (c1.b, c1.b + (c1.b - c1.a)), // collinear
                _ => {}
            }
            let (a0, a1, ra) = capsule64(&c1);
            let (b0, b1, rb) = capsule64(&c2);
            let bw = band(&[
                c1.a.abs().max_element(),
                c1.b.abs().max_element(),
                c2.a.abs().max_element(),
                c2.b.abs().max_element(),
            ]);
            let sep = segment_segment_distance(a0, a1, b0, b1) - ra - rb;
            if sep.abs() < bw {
                t_cc.skip();
            } else {
                prop_assert_eq!(overlap::capsule_capsule(&c1, &c2), sep < 0.0);
                prop_assert_eq!(overlap::capsule_capsule(&c2, &c1), sep < 0.0);
                t_cc.count(sep < 0.0);
            }
            let s = g.sphere();
            let (c, r) = sphere64(&s);
            let sep = point_segment_distance(c, a0, a1) - ra - r;
            if sep.abs() < bw {
                t_cs.skip();
            } else {
                prop_assert_eq!(overlap::capsule_sphere(&c1, &s), sep < 0.0);
                prop_assert_eq!(overlap::sphere_capsule(&s, &c1), sep < 0.0);
                t_cs.count(sep < 0.0);
            }
            Ok(())
        })
        .unwrap();
    t_cc.assert_balanced("capsule_capsule vs f64", 0.05);
    t_cs.assert_balanced("capsule_sphere vs f64", 0.05);
}

#[test]
fn triangles_against_f64_sat_and_closest_point() {
    let (t_ta, t_to, t_st) = (Tally::default(), Tally::default(), Tally::default());
    runner(cases(3000, 100_000), 8)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let t = triangle(&mut g, seed);
            let tri = [dv(t.a), dv(t.b), dv(t.c)];
            let bw = band(&[
                t.a.abs().max_element(),
                t.b.abs().max_element(),
                t.c.abs().max_element(),
                4.0,
            ]);
            // Triangle–AABB and triangle–OBB against the 13-axis SAT in f64.
            let b = g.aabb();
            let sep = sat_triangle_box(tri, &Box64::from_aabb(&b));
            if sep.abs() < bw {
                t_ta.skip();
            } else {
                prop_assert_eq!(overlap::triangle_aabb(&t, &b), sep < 0.0, "{:?} {:?}", t, b);
                t_ta.count(sep < 0.0);
            }
            let o = g.obb();
            let sep = sat_triangle_box(tri, &Box64::from_obb(&o));
            if sep.abs() < bw {
                t_to.skip();
            } else {
                prop_assert_eq!(overlap::triangle_obb(&t, &o), sep < 0.0, "{:?} {:?}", t, o);
                t_to.count(sep < 0.0);
            }
            // Sphere–triangle against the f64 closest point (projection + edges).
            let s = g.sphere();
            let (c, r) = sphere64(&s);
            let sep = (triangle_closest(c, tri) - c).length() - r;
            if sep.abs() < bw {
                t_st.skip();
            } else {
                prop_assert_eq!(overlap::sphere_triangle(&s, &t), sep < 0.0);
                t_st.count(sep < 0.0);
            }
            Ok(())
        })
        .unwrap();
    t_ta.assert_balanced("triangle_aabb vs f64 SAT", 0.05);
    t_to.assert_balanced("triangle_obb vs f64 SAT", 0.05);
    t_st.assert_balanced("sphere_triangle vs f64", 0.05);
}

#[test]
fn planes_against_f64_signed_distances() {
    let tallies: [Tally; 4] = Default::default();
    runner(cases(4000, 100_000), 9)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let mut p = g.plane();
            // Sometimes a non-unit normal written into the fields: same answers.
            if seed % 3 == 0 {
                let k = g.range(0.1, 10.0);
                p = Plane {
                    normal: p.normal * k,
                    d: p.d * k,
                };
            }
            let bw = band(&[p.d.abs(), 4.0]) * 10.0;
            // Interval [lo, hi] of signed distances of a point set, grown by r: touches the
            // plane when it contains 0.
            let verdict = |pts: &[Vec3], r: f64| -> Option<bool> {
                let ds: Vec<f64> = pts.iter().map(|&x| plane_distance(&p, dv(x))).collect();
                let lo = ds.iter().copied().fold(f64::INFINITY, f64::min) - r;
                let hi = ds.iter().copied().fold(f64::NEG_INFINITY, f64::max) + r;
                let sep = lo.max(-hi);
                (sep.abs() >= bw).then_some(sep < 0.0)
            };
            let s = g.sphere();
            let b = g.aabb();
            let o = g.obb();
            let c = g.capsule();
            let answers = [
                (
                    verdict(&[s.center], f64::from(s.radius)),
                    overlap::plane_sphere(&p, &s),
                ),
                (verdict(&b.corners(), 0.0), overlap::plane_aabb(&p, &b)),
                (verdict(&o.corners(), 0.0), overlap::plane_obb(&p, &o)),
                (
                    verdict(&[c.a, c.b], f64::from(c.radius)),
                    overlap::plane_capsule(&p, &c),
                ),
            ];
            for (k, (oracle, ours)) in answers.into_iter().enumerate() {
                match oracle {
                    None => tallies[k].skip(),
                    Some(v) => {
                        prop_assert_eq!(ours, v, "pair {} plane {:?}", k, p);
                        tallies[k].count(v);
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    for (k, name) in ["plane_sphere", "plane_aabb", "plane_obb", "plane_capsule"]
        .iter()
        .enumerate()
    {
        tallies[k].assert_balanced(name, 0.05);
    }
}

#[test]
fn segment_obb_equals_the_segment_as_a_degenerate_obb() {
    // Gomez's figure 10: "a line segment can be treated as a degenerate OBB". The segment as a
    // box with half-extents (|h|, 0, 0) along its direction gives the same verdict through
    // obb_obb, away from touching.
    let tally = Tally::default();
    runner(cases(3000, 100_000), 10)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let s = g.segment();
            let o = g.obb();
            let d = s.delta();
            let rot = collide::Quat::from_rotation_arc(Vec3::X, d.normalize());
            let flat = Obb::new(s.midpoint(), rot, Vec3::new(d.length() * 0.5, 0.0, 0.0));
            let sep = sat_box_box(&Box64::from_obb(&flat), &Box64::from_obb(&o));
            let mut vals = obb_values(&o);
            vals.extend(s.a.to_array());
            vals.extend(s.b.to_array());
            if sep.abs() < band(&vals) {
                tally.skip();
                return Ok(());
            }
            prop_assert_eq!(overlap::segment_obb(&s, &o), sep < 0.0);
            prop_assert_eq!(overlap::obb_obb(&flat, &o), sep < 0.0);
            let seg_as_obb = overlap::obb_obb(&o, &flat);
            prop_assert_eq!(seg_as_obb, overlap::segment_obb(&s, &o));
            tally.count(sep < 0.0);
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("segment_obb vs degenerate obb_obb", 0.05);
}
