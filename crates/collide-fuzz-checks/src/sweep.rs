//! Every sweep on arbitrary f32 bit patterns. Asserts the shared contract of
//! `collide::sweep`: never panics; a hit has `0 <= enter <= exit <= 1`, a finite point and a
//! unit normal; NaN or infinite input anywhere gives `None`; sphere–sphere and AABB–AABB give
//! the same verdict with A and B swapped (both are exact interval computations); on
//! moderate input every sweep agrees with frame sampling, and the convex sweep (GJK ray cast,
//! conservative advancement at a starting touch) with the exact box and sphere–box sweeps.
use super::check_sweep;
use collide::convex::{gjk, Posed, SupportMap};
use collide::shapes::{Aabb, Obb, Plane, Sphere, Triangle};
use collide::sweep as s;
use collide::sweep::Sweep;
use collide::{Quat, Vec3};

fn fin_s(x: &Sphere) -> bool {
    x.center.is_finite() && x.radius.is_finite()
}
fn fin_a(x: &Aabb) -> bool {
    x.min.is_finite() && x.max.is_finite()
}
fn fin_b(x: &Obb) -> bool {
    x.center.is_finite() && x.axes.is_finite() && x.half_extents.is_finite()
}
fn fin_t(x: &Triangle) -> bool {
    x.a.is_finite() && x.b.is_finite() && x.c.is_finite()
}
fn fin_p(x: &Plane) -> bool {
    x.normal.is_finite() && x.d.is_finite()
}

/// The shapes and motions one input decodes to.
#[derive(Clone, Copy)]
struct Input {
    s1: Sphere,
    s2: Sphere,
    a1: Aabb,
    a2: Aabb,
    o1: Obb,
    o2: Obb,
    tri: Triangle,
    pl: Plane,
    m1: Vec3,
    m2: Vec3,
    rot: (Quat, Quat, Quat, Quat),
}

/// A sweep's name, its answer, and whether its input was finite.
type Exact = (&'static str, Option<Sweep>, bool);
/// The convex sweep's name, its answer, the exact sweep's answer, and whether the input was
/// finite.
type Convex = (&'static str, Option<Sweep>, Option<Sweep>, bool);

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = super::Bytes::new(data);
    // Fields are decoded in the order written.
    let input = Input {
        s1: b.sphere(),
        s2: b.sphere(),
        a1: b.aabb(),
        a2: b.aabb(),
        o1: b.obb(),
        o2: b.obb(),
        tri: b.triangle(),
        pl: b.plane(),
        m1: b.vec3(),
        m2: b.vec3(),
        rot: (b.quat(), b.quat(), b.quat(), b.quat()),
    };
    let all = exact_sweeps(&input);
    let convex = convex_sweeps(&input, &all);
    against_oracles(&input, &all, &convex);
}

/// Every exact sweep: the symmetric pairs agree with A and B swapped, every hit keeps the
/// shared contract, and NaN or infinite input gives `None`.
fn exact_sweeps(input: &Input) -> [Exact; 9] {
    let Input {
        s1,
        s2,
        a1,
        a2,
        o1,
        o2,
        tri,
        pl,
        m1,
        m2,
        rot,
    } = *input;
    let fm = m1.is_finite() && m2.is_finite();

    let ss = s::sphere_sphere(&s1, m1, &s2, m2);
    let sr = s::sphere_sphere(&s2, m2, &s1, m1);
    assert_eq!(
        ss.is_some(),
        sr.is_some(),
        "sphere_sphere not symmetric: {ss:?} / {sr:?}"
    );
    let aa = s::aabb_aabb(&a1, m1, &a2, m2);
    let ar = s::aabb_aabb(&a2, m2, &a1, m1);
    assert_eq!(
        aa.is_some(),
        ar.is_some(),
        "aabb_aabb not symmetric: {aa:?} / {ar:?} (a1 {a1:?} moving {m1:?}, a2 {a2:?} moving {m2:?})"
    );
    if let (Some(x), Some(y)) = (aa, ar) {
        assert_eq!(
            (x.enter, x.exit),
            (y.enter, y.exit),
            "aabb_aabb times not symmetric"
        );
    }
    let rotating = s::obb_obb_rotating(
        o1.half_extents,
        (o1.center, rot.0),
        (o1.center + m1, rot.1),
        o2.half_extents,
        (o2.center, rot.2),
        (o2.center + m2, rot.3),
    );
    let rot_fin = o1.half_extents.is_finite()
        && o2.half_extents.is_finite()
        && o1.center.is_finite()
        && o2.center.is_finite()
        && (o1.center + m1).is_finite()
        && (o2.center + m2).is_finite()
        && rot.0.is_finite()
        && rot.1.is_finite()
        && rot.2.is_finite()
        && rot.3.is_finite();

    let all = [
        ("sphere_sphere", ss, fin_s(&s1) && fin_s(&s2) && fm),
        (
            "sphere_plane",
            s::sphere_plane(&s1, m1, &pl),
            fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
        ),
        (
            "sphere_plane_halfspace",
            s::sphere_plane_halfspace(&s1, m1, &pl),
            fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
        ),
        ("aabb_aabb", aa, fin_a(&a1) && fin_a(&a2) && fm),
        (
            "obb_obb",
            s::obb_obb(&o1, m1, &o2, m2),
            fin_b(&o1) && fin_b(&o2) && fm,
        ),
        (
            "sphere_aabb",
            s::sphere_aabb(&s1, m1, &a1, m2),
            fin_s(&s1) && fin_a(&a1) && fm,
        ),
        (
            "sphere_obb",
            s::sphere_obb(&s1, m1, &o1, m2),
            fin_s(&s1) && fin_b(&o1) && fm,
        ),
        (
            "sphere_triangle",
            s::sphere_triangle(&s1, m1, &tri, m2),
            fin_s(&s1) && fin_t(&tri) && fm,
        ),
        ("obb_obb_rotating", rotating, rot_fin),
    ];
    check_contract(all.iter().map(|(name, hit, finite)| (*name, hit, *finite)));
    all
}

/// Every hit (name, answer, whether the input was finite) keeps the shared contract, and NaN
/// or infinite input gives `None`.
fn check_contract<'a>(sweeps: impl Iterator<Item = (&'a str, &'a Option<Sweep>, bool)>) {
    for (name, hit, finite) in sweeps {
        check_sweep(name, hit);
        if !finite {
            assert!(hit.is_none(), "{name}: NaN/infinite input hit: {hit:?}");
        }
    }
}

/// The convex sweep (GJK ray cast, conservative advancement) on the pairs that have an exact sweep
/// in `all`: the shared contract, and `None` on NaN or infinite input.
fn convex_sweeps(input: &Input, all: &[Exact; 9]) -> [Convex; 2] {
    let Input {
        s1, o1, o2, m1, m2, ..
    } = *input;
    let fm = m1.is_finite() && m2.is_finite();
    let convex = [
        (
            "convex obb/obb",
            s::convex(&o1, m1, &o2, m2),
            all[4].1,
            fin_b(&o1) && fin_b(&o2) && fm,
        ),
        (
            "convex sphere/obb",
            s::convex(&s1, m1, &o1, m2),
            all[6].1,
            fin_s(&s1) && fin_b(&o1) && fm,
        ),
    ];
    check_contract(
        convex
            .iter()
            .map(|(name, hit, _, finite)| (*name, hit, *finite)),
    );
    convex
}

/// On moderate input, every exact sweep against frame sampling (see `oracle`), and the convex
/// sweep against the exact one.
fn against_oracles(input: &Input, all: &[Exact; 9], convex: &[Convex; 2]) {
    let Input { s1, m1, m2, .. } = *input;
    let (s2, a1, a2, tri, pl) = (input.s2, input.a1, input.a2, input.tri, input.pl);
    let (o1, o2) = (input.o1, input.o2);
    // On moderate input, an oracle sampling the frame (see `oracle`).
    let mut pts = vec![s1.center, s2.center, m1, m2, a1.min, a1.max, a2.min, a2.max];
    pts.extend([o1.center, o1.half_extents, o2.center, o2.half_extents]);
    pts.extend([tri.a, tri.b, tri.c]);
    let scalars = [s1.radius, s2.radius, pl.d];
    if !moderate(&pts, &scalars) {
        return;
    }
    let tol = tolerance(&pts, &scalars);
    let v = (m2 - m1).length();
    let (r1, r2) = (s1.radius.abs(), s2.radius.abs());
    oracle("sphere_sphere", all[0].1, tol, v, |u| {
        r1 + r2 - ((s2.center + m2 * u) - (s1.center + m1 * u)).length()
    });
    if (pl.normal.length() - 1.0).abs() < 1e-3 {
        let mv = m1.length();
        oracle("sphere_plane", all[1].1, tol, mv, |u| {
            r1 - pl.signed_distance(s1.center + m1 * u).abs()
        });
        oracle("sphere_plane_halfspace", all[2].1, tol, mv, |u| {
            r1 - pl.signed_distance(s1.center + m1 * u)
        });
    }
    oracle("aabb_aabb", all[3].1, tol, v, |u| {
        let (amin, amax) = (a1.min + m1 * u, a1.max + m1 * u);
        let (bmin, bmax) = (a2.min + m2 * u, a2.max + m2 * u);
        (amax - bmin).min(bmax - amin).min_element()
    });
    oracle("sphere_aabb", all[5].1, tol, v, |u| {
        let b = Aabb::new(a1.min + m2 * u, a1.max + m2 * u);
        let c = s1.center + m1 * u;
        r1 - (collide::closest::point_aabb(c, &b) - c).length()
    });
    oracle("sphere_obb", all[6].1, tol, v, |u| {
        let c = s1.center + m1 * u - m2 * u;
        r1 - (collide::closest::point_obb(c, &o1) - c).length()
    });
    oracle("sphere_triangle", all[7].1, tol, v, |u| {
        let c = s1.center + m1 * u - m2 * u;
        r1 - (collide::closest::point_triangle(c, &tri) - c).length()
    });
    // The convex sweep against the exact one: every moment the exact sweep calls first or
    // last contact lies in the convex sweep's interval (to the oracle's slack), unless GJK
    // finds the shapes within `tol` of touching there (a graze the two resolve differently).
    let slack = 1e-6 + if v > 0.0 { tol / v } else { 0.0 };
    let gaps: [&dyn Fn(f32) -> f32; 2] = [&|u| gap_at(&o1, m1, &o2, m2, u), &|u| {
        gap_at(&s1, m1, &o1, m2, u)
    }];
    for ((name, hit, exact, _), gap) in convex.iter().zip(gaps) {
        let Some(e) = exact else { continue };
        for u in [e.enter, e.exit] {
            let covered = hit.is_some_and(|h| h.enter <= u + slack && h.exit >= u - slack);
            if !covered {
                let d = gap(u);
                assert!(
                    d <= tol,
                    "{name}: {hit:?} misses u = {u} of the exact {e:?} (gap {d}); \
                     {s1:?} {o1:?} {o2:?} {m1:?} {m2:?}"
                );
            }
        }
    }
}

/// GJK distance of `a` and `b` moved to time `u`.
fn gap_at<A: SupportMap, B: SupportMap>(a: &A, ma: Vec3, b: &B, mb: Vec3, u: f32) -> f32 {
    gjk::distance(&Posed::translated(a, ma * u), &Posed::translated(b, mb * u)).distance
}

/// Every coordinate within 1e3 (finite).
fn moderate(pts: &[Vec3], scalars: &[f32]) -> bool {
    let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
    pts.iter().all(|p| p.to_array().into_iter().all(ok)) && scalars.iter().copied().all(ok)
}

/// `1e-5` of the largest magnitude involved (doubled for the motion), at least `1e-5`.
fn tolerance(pts: &[Vec3], scalars: &[f32]) -> f32 {
    let m = pts
        .iter()
        .map(|p| p.abs().max_element())
        .chain(scalars.iter().map(|x| x.abs()))
        .fold(0.0f32, f32::max);
    1e-5 * (1.0 + 2.0 * m)
}

/// Samples the frame: `depth(u)` is positive while the shapes overlap (how far from
/// touching, in distance units), `speed` bounds how fast it changes per unit `u`. A
/// sample overlapping by more than `tol` must lie within `[enter, exit]` (to `tol /
/// speed`); at `enter` the shapes touch (or overlap when `enter = 0`). No hit while in
/// contact at the start (the sweeps' starting-touch rule: not moving deeper) means the
/// depth never grows past its start by more than `tol` and the "along" slack
/// (`ALONG_TOLERANCE · speed · u`). Panics on a contradiction.
pub fn oracle(
    name: &str,
    hit: Option<collide::sweep::Sweep>,
    tol: f32,
    speed: f32,
    depth: impl Fn(f32) -> f32,
) {
    let slack = if speed > 0.0 {
        1e-6 + tol / speed
    } else {
        1e-6
    };
    let d0 = depth(0.0);
    if hit.is_none() && d0 >= -tol {
        for k in 0..=32u8 {
            let u = f32::from(k) / 32.0;
            let allowed = d0 + 2.0 * tol + collide::sweep::ALONG_TOLERANCE * speed * u;
            assert!(
                depth(u) <= allowed,
                "{name}: no hit from a start in contact (depth {d0}), but deeper at u = {u}: {}",
                depth(u)
            );
        }
        return;
    }
    for k in 0..=32u8 {
        let u = f32::from(k) / 32.0;
        if depth(u) > tol {
            let Some(h) = hit else {
                panic!("{name}: no hit, but the shapes overlap at u = {u}");
            };
            assert!(
                h.enter <= u + slack && h.exit >= u - slack,
                "{name}: {h:?} does not cover u = {u}, where the shapes overlap"
            );
        }
    }
    if let Some(h) = hit {
        let d = depth(h.enter);
        assert!(d >= -tol, "{name}: {h:?} apart by {} at enter", -d);
        if h.enter > 0.0 {
            assert!(d <= tol, "{name}: {h:?} already overlaps by {d} at enter");
        }
    }
}
