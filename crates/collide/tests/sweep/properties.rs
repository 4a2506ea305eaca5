//! Properties of the sweeps: consistency with the static tests of `collide::overlap` (at
//! `enter` they touch, a moment before they do not), symmetry (swapping A and B flips the
//! normal and keeps the times) and translation invariance.

use crate::common::{dv, plane_distance, sat_box_box, triangle_closest, Box64};
use collide::shapes::{Aabb, Obb, Plane, Sphere, Triangle};
use collide::sweep::{self, Sweep};
use collide::{overlap, Quat, Vec3};
use collide_testkit::Gen;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

// ---------------------------------------------------------------------------------------------
// Consistency with the static tests.
// ---------------------------------------------------------------------------------------------

/// Tolerance of "touching at `enter`": the static test on shapes grown by this much.
const GROW: f32 = 1e-4;

/// A random relative motion, half the time aimed at the other shape.
fn motion(g: &mut Gen, from: Vec3, to: Vec3) -> Vec3 {
    if g.range(0.0, 1.0) < 0.5 {
        (to - from) * g.range(0.5, 1.8) + g.vec(1.0)
    } else {
        g.vec(8.0)
    }
}

#[derive(Default, Debug)]
struct Consistency {
    hits: usize,
    checked_before: usize,
    /// `enter - 1e-3` skipped: the shapes are then within 1e-5 (f64) of touching, below what
    /// the `f32` static test resolves.
    skipped_before: usize,
}

/// Runs the two checks for one sweep result. `at(u, grow)` is the static test with both shapes
/// moved to time `u` and grown by `grow`; `sep(u)` the `f64` separation at `u`.
fn consistent(
    w: Option<Sweep>,
    at: impl Fn(f32, f32) -> bool,
    sep: impl Fn(f64) -> f64,
    st: &mut Consistency,
    what: &str,
) {
    let Some(w) = w else { return };
    st.hits += 1;
    assert!(
        at(w.enter, GROW),
        "{what}: the static test says apart at enter {w:?}"
    );
    if w.enter > 1e-3 {
        let u = w.enter - 1e-3;
        if sep(f64::from(u)) > 1e-5 {
            st.checked_before += 1;
            assert!(
                !at(u, 0.0),
                "{what}: the static test says touching 1e-3 before enter {w:?}"
            );
        } else {
            st.skipped_before += 1;
        }
    }
}

fn grow_aabb(b: &Aabb, g: f32) -> Aabb {
    Aabb::new(b.min - Vec3::splat(g), b.max + Vec3::splat(g))
}

fn moved_obb(o: &Obb, d: Vec3, g: f32) -> Obb {
    Obb {
        center: o.center + d,
        axes: o.axes,
        half_extents: o.half_extents + Vec3::splat(g),
    }
}

const N: usize = 3000;

#[test]
fn consistency_sphere_sphere() {
    let mut g = Gen::new(101);
    let mut st = Consistency::default();
    for _ in 0..N {
        let (a, b) = (g.sphere(), g.sphere());
        let ma = g.vec(2.0);
        let mb = ma + motion(&mut g, b.center, a.center);
        let w = sweep::sphere_sphere(&a, ma, &b, mb);
        let at = |u: f32, gr: f32| {
            overlap::sphere_sphere(
                &Sphere::new(a.center + ma * u, a.radius + gr),
                &Sphere::new(b.center + mb * u, b.radius),
            )
        };
        let sep = |u: f64| {
            (dv(b.center) + dv(mb) * u - dv(a.center) - dv(ma) * u).length()
                - f64::from(a.radius + b.radius)
        };
        consistent(w, at, sep, &mut st, "sphere_sphere");
        if let Some(w) = w {
            // Normal: centre to centre at enter (unless they start overlapping).
            if w.enter > 0.0 {
                let d = (b.center + mb * w.enter) - (a.center + ma * w.enter);
                assert!(w.normal.dot(d.normalize()) > 1.0 - 1e-4, "{w:?}");
            }
        }
    }
    eprintln!("sphere_sphere {st:?}");
    assert!(st.checked_before > N / 10);
}

#[test]
fn consistency_sphere_plane() {
    let mut g = Gen::new(102);
    let mut st = Consistency::default();
    for _ in 0..N {
        let (s, p) = (g.sphere(), g.plane());
        let m = motion(&mut g, s.center, p.project(s.center));
        let w = sweep::sphere_plane(&s, m, &p);
        let at = |u: f32, gr: f32| {
            overlap::plane_sphere(&p, &Sphere::new(s.center + m * u, s.radius + gr))
        };
        let sep = |u: f64| plane_distance(&p, dv(s.center) + dv(m) * u).abs() - f64::from(s.radius);
        consistent(w, at, sep, &mut st, "sphere_plane");
    }
    eprintln!("sphere_plane {st:?}");
    assert!(st.checked_before > N / 10);
}

#[test]
fn consistency_aabb_aabb() {
    let mut g = Gen::new(103);
    let mut st = Consistency::default();
    for _ in 0..N {
        let (a, b) = (g.aabb(), g.aabb());
        let ma = g.vec(2.0);
        let mb = ma + motion(&mut g, b.center(), a.center());
        let w = sweep::aabb_aabb(&a, ma, &b, mb);
        let at = |u: f32, gr: f32| {
            overlap::aabb_aabb(
                &grow_aabb(&Aabb::new(a.min + ma * u, a.max + ma * u), gr),
                &Aabb::new(b.min + mb * u, b.max + mb * u),
            )
        };
        let sep = |u: f64| {
            let d = dv(mb - ma) * u;
            (dv(b.min) + d - dv(a.max))
                .max(dv(a.min) - dv(b.max) - d)
                .max_element()
        };
        consistent(w, at, sep, &mut st, "aabb_aabb");
        if let Some(w) = w {
            let u = f64::from(w.enter);
            let (mut ba, mut bb) = (Box64::from_aabb(&a), Box64::from_aabb(&b));
            ba.c += dv(ma) * u;
            bb.c += dv(mb) * u;
            let p = dv(w.point);
            assert!(ba.distance(p) <= 1e-5 && bb.distance(p) <= 1e-5, "{w:?}");
        }
    }
    eprintln!("aabb_aabb {st:?}");
    assert!(st.checked_before > N / 10);
}

#[test]
fn consistency_obb_obb() {
    let mut g = Gen::new(104);
    let mut st = Consistency::default();
    for _ in 0..N {
        let a = g.obb();
        let b = if g.range(0.0, 1.0) < 0.3 {
            g.obb_parallel_to(&a)
        } else {
            g.obb()
        };
        let ma = g.vec(2.0);
        let mb = ma + motion(&mut g, b.center, a.center);
        let w = sweep::obb_obb(&a, ma, &b, mb);
        let at = |u: f32, gr: f32| {
            overlap::obb_obb(&moved_obb(&a, ma * u, gr), &moved_obb(&b, mb * u, 0.0))
        };
        let sep = |u: f64| {
            let mut bb = Box64::from_obb(&b);
            bb.c += dv(mb - ma) * u;
            sat_box_box(&Box64::from_obb(&a), &bb)
        };
        consistent(w, at, sep, &mut st, "obb_obb");
        // The contact point lies on (or in) both boxes at `enter`.
        if let Some(w) = w {
            let u = f64::from(w.enter);
            let (mut ba, mut bb) = (Box64::from_obb(&a), Box64::from_obb(&b));
            ba.c += dv(ma) * u;
            bb.c += dv(mb) * u;
            let p = dv(w.point);
            let (da, db) = (ba.distance(p), bb.distance(p));
            assert!(
                da <= 1e-4 && db <= 1e-4,
                "point {da} {db} from the boxes: {w:?}"
            );
        }
    }
    eprintln!("obb_obb {st:?}");
    assert!(st.checked_before > N / 10);
}

#[test]
fn consistency_sphere_boxes_and_triangle() {
    let mut g = Gen::new(105);
    let (mut s1, mut s2, mut s3) = (
        Consistency::default(),
        Consistency::default(),
        Consistency::default(),
    );
    for _ in 0..N {
        let s = g.sphere();
        let (bx, ob, tr) = (g.aabb(), g.obb(), g.triangle());
        let ms = g.vec(2.0);
        // Sphere–AABB.
        let mb = ms - motion(&mut g, s.center, bx.center());
        let w = sweep::sphere_aabb(&s, ms, &bx, mb);
        let at = |u: f32, gr: f32| {
            overlap::sphere_aabb(
                &Sphere::new(s.center + ms * u, s.radius + gr),
                &Aabb::new(bx.min + mb * u, bx.max + mb * u),
            )
        };
        let sep = |u: f64| {
            Box64::from_aabb(&bx).distance(dv(s.center) + dv(ms - mb) * u) - f64::from(s.radius)
        };
        consistent(w, at, sep, &mut s1, "sphere_aabb");
        // Sphere–OBB.
        let mb = ms - motion(&mut g, s.center, ob.center);
        let w = sweep::sphere_obb(&s, ms, &ob, mb);
        let at = |u: f32, gr: f32| {
            overlap::sphere_obb(
                &Sphere::new(s.center + ms * u, s.radius + gr),
                &moved_obb(&ob, mb * u, 0.0),
            )
        };
        let sep = |u: f64| {
            Box64::from_obb(&ob).distance(dv(s.center) + dv(ms - mb) * u) - f64::from(s.radius)
        };
        consistent(w, at, sep, &mut s2, "sphere_obb");
        // Sphere–triangle.
        let mt = ms - motion(&mut g, s.center, tr.centroid());
        let w = sweep::sphere_triangle(&s, ms, &tr, mt);
        let at = |u: f32, gr: f32| {
            let d = mt * u;
            overlap::sphere_triangle(
                &Sphere::new(s.center + ms * u, s.radius + gr),
                &Triangle::new(tr.a + d, tr.b + d, tr.c + d),
            )
        };
        let sep = |u: f64| {
            let p = dv(s.center) + dv(ms - mt) * u;
            (p - triangle_closest(p, [dv(tr.a), dv(tr.b), dv(tr.c)])).length() - f64::from(s.radius)
        };
        consistent(w, at, sep, &mut s3, "sphere_triangle");
    }
    eprintln!("sphere_aabb {s1:?}\nsphere_obb {s2:?}\nsphere_triangle {s3:?}");
    for st in [&s1, &s2, &s3] {
        assert!(st.checked_before > N / 10);
    }
}

// ---------------------------------------------------------------------------------------------
// Symmetry and translation invariance (proptest, fixed seed).
// ---------------------------------------------------------------------------------------------

fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    )
}

fn v3(r: f32) -> impl Strategy<Value = Vec3> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn quat() -> impl Strategy<Value = collide::Quat> {
    (v3(1.0), 0.0f32..std::f32::consts::TAU)
        .prop_map(|(a, t)| collide::Quat::from_axis_angle(a.try_normalize().unwrap_or(Vec3::X), t))
}

/// Swapping A and B keeps the times and flips the normal.
fn assert_swapped(w: Option<Sweep>, s: Option<Sweep>) -> Result<(), TestCaseError> {
    prop_assert_eq!(w.is_some(), s.is_some(), "{:?} vs {:?}", w, s);
    if let (Some(w), Some(s)) = (w, s) {
        prop_assert!((w.enter - s.enter).abs() <= 1e-6, "{:?} vs {:?}", w, s);
        prop_assert!((w.exit - s.exit).abs() <= 1e-6, "{:?} vs {:?}", w, s);
        prop_assert!((w.normal + s.normal).length() <= 1e-4, "{:?} vs {:?}", w, s);
    }
    Ok(())
}

#[test]
fn symmetry_sphere_sphere_aabb_obb() {
    let strat = (
        v3(4.0),
        0.05f32..2.0,
        v3(4.0),
        0.05f32..2.0,
        v3(6.0),
        v3(6.0),
        quat(),
        quat(),
    );
    runner(3000)
        .run(&strat, |(ca, ra, cb, rb, ma, mb, qa, qb)| {
            let (a, b) = (Sphere::new(ca, ra), Sphere::new(cb, rb));
            assert_swapped(
                sweep::sphere_sphere(&a, ma, &b, mb),
                sweep::sphere_sphere(&b, mb, &a, ma),
            )?;
            let (a, b) = (
                Aabb::from_center_half_extents(ca, Vec3::splat(ra)),
                Aabb::from_center_half_extents(cb, Vec3::new(rb, ra, rb)),
            );
            assert_swapped(
                sweep::aabb_aabb(&a, ma, &b, mb),
                sweep::aabb_aabb(&b, mb, &a, ma),
            )?;
            let (a, b) = (
                Obb::new(ca, qa, Vec3::new(ra, rb, ra)),
                Obb::new(cb, qb, Vec3::new(rb, ra, 0.5)),
            );
            let (w, s) = (
                sweep::obb_obb(&a, ma, &b, mb),
                sweep::obb_obb(&b, mb, &a, ma),
            );
            prop_assert_eq!(w.is_some(), s.is_some());
            if let (Some(w), Some(s)) = (w, s) {
                prop_assert!((w.enter - s.enter).abs() <= 1e-6, "{:?} vs {:?}", w, s);
                prop_assert!((w.exit - s.exit).abs() <= 1e-6, "{:?} vs {:?}", w, s);
                // Normals flip unless two axes tie for least penetration at an initial overlap.
                if w.enter > 0.0 {
                    prop_assert!((w.normal + s.normal).length() <= 1e-4, "{:?} vs {:?}", w, s);
                }
            }
            Ok(())
        })
        .unwrap();
}

/// Translating everything by `t` changes contact times only by what the `f32` rounding of the
/// translated coordinates can change them: either `enter` agrees to 1e-4, or the original
/// configuration is within 1e-4 (distance) of touching at the other `enter`.
#[test]
fn translation_invariance() {
    let strat = (
        v3(4.0),
        0.05f32..2.0,
        v3(4.0),
        0.05f32..2.0,
        v3(6.0),
        v3(20.0),
        quat(),
        quat(),
    );
    runner(3000)
        .run(&strat, |(ca, ra, cb, rb, mb, t, qa, qb)| {
            // Sphere–sphere.
            let sep =
                |u: f32| (dv(cb) + dv(mb) * f64::from(u) - dv(ca)).length() - f64::from(ra + rb);
            let w =
                sweep::sphere_sphere(&Sphere::new(ca, ra), Vec3::ZERO, &Sphere::new(cb, rb), mb);
            let s = sweep::sphere_sphere(
                &Sphere::new(ca + t, ra),
                Vec3::ZERO,
                &Sphere::new(cb + t, rb),
                mb,
            );
            check_invariant(w, s, sep)?;
            // OBB–OBB.
            let (a, b) = (
                Obb::new(ca, qa, Vec3::new(ra, rb, ra)),
                Obb::new(cb, qb, Vec3::new(rb, ra, 0.5)),
            );
            let sep = |u: f32| {
                let mut bb = Box64::from_obb(&b);
                bb.c += dv(mb) * f64::from(u);
                sat_box_box(&Box64::from_obb(&a), &bb)
            };
            let w = sweep::obb_obb(&a, Vec3::ZERO, &b, mb);
            let s = sweep::obb_obb(
                &moved_obb(&a, t, 0.0),
                Vec3::ZERO,
                &moved_obb(&b, t, 0.0),
                mb,
            );
            check_invariant(w, s, sep)?;
            // Sphere–plane: the plane moves with everything else.
            let p = Plane::from_point_normal(cb, qb * Vec3::Z);
            let pt = Plane::from_point_normal(cb + t, qb * Vec3::Z);
            let sep =
                |u: f32| plane_distance(&p, dv(ca) + dv(mb) * f64::from(u)).abs() - f64::from(ra);
            let w = sweep::sphere_plane(&Sphere::new(ca, ra), mb, &p);
            let s = sweep::sphere_plane(&Sphere::new(ca + t, ra), mb, &pt);
            check_invariant(w, s, sep)?;
            Ok(())
        })
        .unwrap();
}

fn check_invariant(
    w: Option<Sweep>,
    s: Option<Sweep>,
    sep: impl Fn(f32) -> f64,
) -> Result<(), TestCaseError> {
    match (w, s) {
        (Some(w), Some(s)) => {
            prop_assert!(
                (w.enter - s.enter).abs() <= 1e-4 || sep(s.enter).abs() <= 1e-4,
                "{:?} vs {:?}",
                w,
                s
            );
        }
        (Some(w), None) => prop_assert!(sep(w.enter) >= -1e-4, "lost a deep hit {:?}", w),
        (None, Some(s)) => prop_assert!(sep(s.enter) <= 1e-4, "gained a far hit {:?}", s),
        (None, None) => {}
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Bad input: NaN or infinity anywhere gives `None`, never a panic.
// ---------------------------------------------------------------------------------------------

#[test]
fn nan_or_infinity_anywhere_gives_none() {
    let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    let mut g = Gen::new(9);
    for k in 0..300 {
        let x = bad[k % 3];
        let poison = |v: Vec3, i: usize| {
            let mut v = v;
            v[i % 3] = x;
            v
        };
        let (s, t) = (g.sphere(), g.sphere());
        let (a, b) = (g.obb(), g.obb());
        let (bx, tr, p) = (g.aabb(), g.triangle(), g.plane());
        let m = g.vec(3.0);
        let i = k / 3;
        let q = Quat::from_xyzw(x, 0.0, 0.0, 1.0);
        assert!(sweep::sphere_sphere(&s, poison(m, i), &t, m).is_none());
        assert!(sweep::sphere_sphere(&Sphere::new(s.center, x), m, &t, m).is_none());
        assert!(sweep::sphere_plane(&s, poison(m, i), &p).is_none());
        assert!(
            sweep::sphere_plane_halfspace(&Sphere::new(poison(s.center, i), 1.0), m, &p).is_none()
        );
        assert!(sweep::aabb_aabb(&bx, m, &Aabb::new(poison(bx.min, i), bx.max), m).is_none());
        assert!(sweep::obb_obb(&a, m, &Obb::new(b.center, q, b.half_extents), m).is_none());
        assert!(sweep::obb_obb(&a, poison(m, i), &b, m).is_none());
        assert!(sweep::sphere_aabb(&s, m, &bx, poison(m, i)).is_none());
        assert!(sweep::sphere_obb(
            &s,
            m,
            &Obb {
                center: poison(a.center, i),
                ..a
            },
            m
        )
        .is_none());
        let bad_tri = Triangle::new(tr.a, poison(tr.b, i), tr.c);
        assert!(sweep::sphere_triangle(&s, m, &bad_tri, m).is_none());
        assert!(sweep::obb_obb_rotating(
            a.half_extents,
            (a.center, q),
            (a.center, Quat::IDENTITY),
            b.half_extents,
            (b.center, Quat::IDENTITY),
            (b.center, Quat::IDENTITY)
        )
        .is_none());
        let r = collide::shapes::Ray::new(poison(s.center, i), m);
        let rr = collide::shapes::Ray::new(s.center, poison(m, i));
        for ray in [r, rr] {
            assert!(collide::raycast::sphere(&ray, &t, 1.0).is_none());
            assert!(collide::raycast::aabb(&ray, &bx, 1.0).is_none());
            assert!(collide::raycast::obb(&ray, &a, 1.0).is_none());
            assert!(collide::raycast::plane(&ray, &p, 1.0).is_none());
            assert!(collide::raycast::triangle(&ray, &tr, 1.0).is_none());
            assert!(collide::raycast::capsule(
                &ray,
                &collide::shapes::Capsule::new(tr.a, tr.b, 1.0),
                1.0
            )
            .is_none());
        }
        let ok = collide::shapes::Ray::new(s.center, m);
        assert!(collide::raycast::sphere(&ok, &t, f32::NAN).is_none());
    }
}
