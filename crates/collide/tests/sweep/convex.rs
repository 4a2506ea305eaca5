//! `sweep::convex` (conservative advancement on GJK distances) against a second algorithm:
//! the exact sweeps of boxes and spheres (`sweep::obb_obb`, `sphere_sphere`, `sphere_obb`),
//! and, for capsules and hulls, which have no exact sweep, dense sampling of the frame with an
//! independent static test.
//!
//! The contract checked: `enter` is never late (at most 1e-5 after the exact first contact)
//! and the shapes are within the touching gap there; `exit` is never early and the shapes are
//! within the gap there too; `None` only when the shapes never come within the gap, or start
//! in contact and do not go deeper (the starting-touch rule); the normal is unit and points
//! from A toward B.

use collide::convex::{gjk, ConvexPoints, Posed, SupportMap};
use collide::shapes::{Capsule, Obb, Sphere};
use collide::sweep::{self, Sweep};
use collide::Vec3;
use collide_testkit::Gen;

/// The touching gap `sweep::convex` works to: 1e-5 of the smaller shape's widest extent, or
/// 2e-6 of the largest coordinate magnitude (support points plus the larger motion).
fn gap<A: SupportMap, B: SupportMap>(a: &A, ma: Vec3, b: &B, mb: Vec3) -> f32 {
    let measure = |s: &dyn Fn(Vec3) -> Vec3| {
        let (mut size, mut mag) = (0.0f32, 0.0f32);
        for d in [Vec3::X, Vec3::Y, Vec3::Z] {
            size = size.max((s(d) - s(-d)).dot(d));
            mag = mag
                .max(s(d).abs().max_element())
                .max(s(-d).abs().max_element());
        }
        (size, mag)
    };
    let (sa, qa) = measure(&|d| a.support(d));
    let (sb, qb) = measure(&|d| b.support(d));
    let moved = ma.abs().max_element().max(mb.abs().max_element());
    (1e-5 * sa.min(sb)).max(2e-6 * (qa.max(qb) + moved))
}

/// Signed distance of the shapes moved to time `u`: the distance when apart, minus the
/// penetration depth (EPA) when overlapping.
fn signed_at<A: SupportMap, B: SupportMap>(a: &A, ma: Vec3, b: &B, mb: Vec3, u: f32) -> f32 {
    let (pa, pb) = (Posed::translated(a, ma * u), Posed::translated(b, mb * u));
    collide::convex::contact::contact(&pa, &pb, 1e6).map_or(f32::INFINITY, |c| -c.depth)
}

/// GJK distance of the two shapes moved to time `u`.
fn distance_at<A: SupportMap, B: SupportMap>(a: &A, ma: Vec3, b: &B, mb: Vec3, u: f32) -> f32 {
    gjk::distance(&Posed::translated(a, ma * u), &Posed::translated(b, mb * u)).distance
}

/// The checks shared by every pair: against an exact sweep when there is one, else against
/// sampling. Returns whether the convex sweep reported a hit.
fn check<A: SupportMap, B: SupportMap>(
    case: usize,
    a: &A,
    ma: Vec3,
    b: &B,
    mb: Vec3,
    exact: Option<Option<Sweep>>,
) -> bool {
    let got = sweep::convex(a, ma, b, mb);
    let tol = gap(a, ma, b, mb);
    // Slack for GJK's own f32 rounding of the distance at the reported time.
    let slack = 1e-5 * (1.0 + tol);
    if let Some(s) = got {
        assert!(
            0.0 <= s.enter && s.enter <= s.exit && s.exit <= 1.0,
            "{case}: {s:?}"
        );
        assert!(
            (s.normal.length() - 1.0).abs() < 1e-4,
            "{case}: normal {s:?}"
        );
        assert!(s.point.is_finite(), "{case}: {s:?}");
        for u in [s.enter, s.exit] {
            let d = distance_at(a, ma, b, mb, u);
            assert!(
                d <= tol * 1.01 + slack,
                "{case}: gap {d} at {u} ({s:?}), tol {tol}"
            );
        }
        // From A toward B: moving B along the normal does not bring it closer at `enter`.
        let d0 = distance_at(a, ma, b, mb, s.enter);
        if d0 > 0.0 {
            let push = Posed::translated(b, mb * s.enter + s.normal * tol);
            let d1 = gjk::distance(&Posed::translated(a, ma * s.enter), &push).distance;
            assert!(
                d1 >= d0 - slack,
                "{case}: normal points into A ({d0} -> {d1})"
            );
        }
    }
    match exact {
        Some(Some(e)) => {
            let s = got.unwrap_or_else(|| panic!("{case}: exact sweep {e:?} but convex None"));
            assert!(
                s.enter <= e.enter + 1e-5,
                "{case}: enter late {s:?} vs {e:?}"
            );
            assert!(s.exit >= e.exit - 1e-5, "{case}: exit early {s:?} vs {e:?}");
        }
        Some(None) => {
            // A near miss within the gap may be reported; its gap was checked above.
        }
        None if got.is_none() && signed_at(a, ma, b, mb, 0.0) <= tol => {
            // In contact at the start and not going deeper: the signed distance never falls
            // below its start by more than the "along" slack and round-off.
            let rel = (mb - ma).length();
            let s0 = signed_at(a, ma, b, mb, 0.0);
            for k in 1..=100 {
                let u = k as f32 / 100.0;
                let s = signed_at(a, ma, b, mb, u);
                let allowed = sweep::ALONG_TOLERANCE * rel * u + 2.0 * tol + 1e-4;
                assert!(
                    s >= s0 - allowed,
                    "{case}: None, but deeper at {u}: {s} from {s0}"
                );
            }
        }
        None => {
            // Sampling: every time the shapes touch lies inside [enter, exit].
            for k in 0..=400 {
                let u = k as f32 / 400.0;
                if gjk::intersects(&Posed::translated(a, ma * u), &Posed::translated(b, mb * u)) {
                    let s = got.unwrap_or_else(|| panic!("{case}: touching at {u}, convex None"));
                    assert!(
                        s.enter <= u + 1e-5 && u <= s.exit + 1e-5,
                        "{case}: touching at {u} outside {s:?}"
                    );
                }
            }
        }
    }
    got.is_some()
}

/// A motion for `b` that aims it at `a`'s centre (from `from`) with some scatter, or a random
/// one; a third of the cases start B beside A (overlap and grazes).
fn aimed(g: &mut Gen, from: Vec3, to: Vec3) -> Vec3 {
    match g.range(0.0, 3.0) as u32 {
        0 => g.vec(6.0),
        _ => (to - from) * g.range(0.3, 2.5) + g.vec(1.0),
    }
}

#[test]
fn boxes_and_spheres_match_the_exact_sweeps() {
    let mut g = Gen::new(71);
    let (mut hits, mut cases) = (0, 0);
    for case in 0..1500 {
        let (oa, ob) = (g.obb(), g.obb());
        let (sa, sb) = (g.sphere(), g.sphere());
        let ma = g.vec(1.0);
        let mb = aimed(&mut g, ob.center, oa.center);
        let e = sweep::obb_obb(&oa, ma, &ob, mb);
        hits += usize::from(check(case, &oa, ma, &ob, mb, Some(e)));
        let mb = aimed(&mut g, sb.center, sa.center);
        let e = sweep::sphere_sphere(&sa, ma, &sb, mb);
        hits += usize::from(check(case, &sa, ma, &sb, mb, Some(e)));
        let mb = aimed(&mut g, ob.center, sa.center);
        let e = sweep::sphere_obb(&sa, ma, &ob, mb);
        hits += usize::from(check(case, &sa, ma, &ob, mb, Some(e)));
        cases += 3;
    }
    assert!(hits > cases / 3, "{hits} hits of {cases}");
}

#[test]
fn capsules_and_hulls_match_sampling() {
    let mut g = Gen::new(72);
    let mut hits = 0;
    for case in 0..600 {
        let ca: Capsule = g.capsule();
        let cloud: Vec<Vec3> = {
            let c = g.point();
            (0..12).map(|_| c + g.vec(1.5)).collect()
        };
        let hull = ConvexPoints(&cloud);
        let ma = g.vec(1.0);
        let mb = aimed(&mut g, cloud[0], ca.a);
        hits += usize::from(check(case, &ca, ma, &hull, mb, None));
        let ob: Obb = g.obb();
        let mb = aimed(&mut g, ob.center, cloud[0]);
        hits += usize::from(check(case, &hull, ma, &ob, mb, None));
    }
    assert!(hits > 300, "{hits} hits");
}

#[test]
fn touching_overlap_parallel_and_bad_input() {
    let unit = Sphere::new(Vec3::ZERO, 1.0);
    // Head-on: spheres 4 apart closing at 4 per frame touch at u = 0.5 and part at 1.
    let far = Sphere::new(Vec3::new(4.0, 0.0, 0.0), 1.0);
    let s = sweep::convex(&unit, Vec3::ZERO, &far, Vec3::new(-4.0, 0.0, 0.0)).unwrap();
    assert!((s.enter - 0.5).abs() < 1e-4 && s.exit == 1.0, "{s:?}");
    assert!((s.normal - Vec3::X).length() < 1e-4, "{s:?}");
    assert!((s.point - Vec3::X).length() < 1e-3, "{s:?}");
    // Initial overlap moving deeper while sliding: enter 0, the least-penetration normal;
    // centres (1.5 - u, 0, 5u) stay within 2 until 26u² - 3u - 1.75 = 0, u = 0.3235.
    let near = Sphere::new(Vec3::new(1.5, 0.0, 0.0), 1.0);
    let s = sweep::convex(&unit, Vec3::ZERO, &near, Vec3::new(-1.0, 0.0, 5.0)).unwrap();
    assert_eq!(s.enter, 0.0);
    assert!((s.normal - Vec3::X).length() < 1e-3, "{s:?}");
    assert!((s.exit - 0.3235).abs() < 1e-3, "{s:?}");
    // The same overlap sliding sideways (along the contact) or moving out: no hit.
    assert_eq!(
        sweep::convex(&unit, Vec3::ZERO, &near, Vec3::new(0.0, 0.0, 5.0)),
        None
    );
    assert_eq!(
        sweep::convex(&unit, Vec3::ZERO, &near, Vec3::new(1.0, 0.0, 5.0)),
        None
    );
    // Moving apart, or side by side in parallel: never touch.
    assert_eq!(sweep::convex(&unit, Vec3::ZERO, &far, Vec3::X), None);
    assert_eq!(sweep::convex(&unit, Vec3::Y, &far, Vec3::Y), None);
    // No motion at all, touching: no approach, no hit; pressing in: the whole frame.
    let touch = Sphere::new(Vec3::new(2.0, 0.0, 0.0), 1.0);
    assert_eq!(sweep::convex(&unit, Vec3::ZERO, &touch, Vec3::ZERO), None);
    let s = sweep::convex(&unit, Vec3::ZERO, &touch, Vec3::new(-0.5, 0.0, 0.0)).unwrap();
    assert_eq!((s.enter, s.exit), (0.0, 1.0));
    // NaN and infinities: no contact.
    assert_eq!(sweep::convex(&unit, Vec3::NAN, &far, Vec3::ZERO), None);
    assert_eq!(sweep::convex(&unit, Vec3::ZERO, &far, Vec3::INFINITY), None);
    let bad = Sphere::new(Vec3::NAN, 1.0);
    assert_eq!(sweep::convex(&bad, Vec3::ZERO, &far, -Vec3::X), None);
    let empty: Vec<Vec3> = Vec::new();
    assert_eq!(sweep::convex(&empty, Vec3::ZERO, &far, -Vec3::X), None);
}
