//! Differential test: collide's sweeps against parry3d's `cast_shapes` (ball–ball and
//! cuboid–cuboid), on the same seeded random inputs.
//!
//! parry's answer is a time of impact in `[0, max_toi]` and the witness normal, with
//! `stop_at_penetration: false`: an initial overlap is a hit at 0 unless the motion separates
//! along parry's normal, like collide's starting-touch rule (`sweep` module docs); collide's is `Sweep::enter` and `Sweep::normal`. Agreement is expected on
//! hit/miss and on the time to within parry's own tolerance (its cuboid cast is an iterative
//! GJK ray cast, converging to ~1e-4 in distance). Every disagreement is counted and classified:
//! a hit one side sees and the other does not must be a graze (the f64 separation along the
//! whole frame never goes deeper than 1e-4), and a differing time must come from such a graze
//! too. Shapes go through `collide_bench::convert` (parry3d 0.31 shares glam 0.33 via glamx).

use collide::shapes::{Obb, Sphere};
use collide::sweep;
use collide::Vec3;
use collide_bench::convert;
use collide_testkit::Gen;
use glam::DVec3;
use parry3d::math::Pose;
use parry3d::query::{cast_shapes, ShapeCastHit, ShapeCastOptions};
use parry3d::shape::{Ball, Shape};

fn pose(p: Vec3, q: glam::Quat) -> Pose {
    Pose::from_parts(p, q)
}

/// Smallest f64 separation over the frame (dense sampling), for classifying grazes.
fn min_sep(sep: impl Fn(f64) -> f64) -> f64 {
    (0..=2000)
        .map(|k| sep(k as f64 / 2000.0))
        .fold(f64::INFINITY, f64::min)
}

#[derive(Default, Debug)]
struct Diff {
    cases: usize,
    both_hit: usize,
    both_miss: usize,
    only_collide: usize,
    only_parry: usize,
    /// Hit/miss disagreements where the separation never went deeper than 1e-4 (grazes).
    disagree_grazing: usize,
    max_toi_diff: f64,
    toi_diff_over_1e3: usize,
    max_normal_diff: f64,
    /// Normals differing by more than 0.01 (at an edge or corner contact the normal is not
    /// unique: parry reports its GJK direction, collide the separating axis that closed last).
    normal_flips: usize,
    /// f64 separation at (collide's enter, parry's toi) for the largest time difference.
    worst: (f64, f64),
}

/// B's motion: half the time toward A (so that many pairs meet within the frame), else random.
fn motion_b(g: &mut Gen, a_center: Vec3, b_center: Vec3) -> Vec3 {
    if g.range(0.0, 1.0) < 0.5 {
        (a_center - b_center) * g.range(0.5, 2.0) + g.vec(1.0)
    } else {
        g.vec(8.0)
    }
}

/// parry's `cast_shapes` over the frame (max time of impact 1) for two converted shapes.
fn parry_cast<A: Shape, B: Shape>(
    a: &convert::Posed<A>,
    ma: Vec3,
    b: &convert::Posed<B>,
    mb: Vec3,
) -> Option<ShapeCastHit> {
    cast_shapes(
        &a.pose,
        ma,
        &a.shape,
        &b.pose,
        mb,
        &b.shape,
        ShapeCastOptions {
            stop_at_penetration: false,
            ..ShapeCastOptions::with_max_time_of_impact(1.0)
        },
    )
    .expect("ball-ball and cuboid-cuboid casts are supported")
}

#[test]
fn ball_ball_matches_parry() {
    let mut g = Gen::new(31);
    let mut d = Diff::default();
    for _ in 0..20_000 {
        let (a, b) = (g.sphere(), g.sphere());
        let ma = g.vec(3.0);
        let mb = motion_b(&mut g, a.center, b.center);
        let ours = sweep::sphere_sphere(&a, ma, &b, mb);
        let (pa, pb) = (convert::sphere(&a), convert::sphere(&b));
        let theirs = parry_cast(&pa, ma, &pb, mb);
        let sep = |u: f64| {
            (b.center.as_dvec3() + mb.as_dvec3() * u - a.center.as_dvec3() - ma.as_dvec3() * u)
                .length()
                - f64::from(a.radius + b.radius)
        };
        compare(&mut d, glam::Quat::IDENTITY, ours, theirs, &sep);
    }
    eprintln!("ball-ball vs parry: {d:#?}");
    assert_eq!(d.only_collide + d.only_parry, d.disagree_grazing);
    assert!(d.max_toi_diff < 1e-4, "{}", d.max_toi_diff);
}

fn compare(
    d: &mut Diff,
    rot_a: glam::Quat,
    ours: Option<sweep::Sweep>,
    theirs: Option<parry3d::query::ShapeCastHit>,
    sep: &dyn Fn(f64) -> f64,
) {
    d.cases += 1;
    match (ours, theirs) {
        (Some(w), Some(h)) => {
            d.both_hit += 1;
            let diff = f64::from((w.enter - h.time_of_impact).abs());
            if diff > d.max_toi_diff {
                d.max_toi_diff = diff;
                // Which one is at contact? The f64 separation at each time.
                d.worst = (sep(f64::from(w.enter)), sep(f64::from(h.time_of_impact)));
            }
            d.toi_diff_over_1e3 += usize::from(diff > 1e-3);
            if w.enter > 0.0 {
                // parry's normal1 points from shape 1 toward shape 2, like ours.
                // parry's normal1 is in shape 1's local frame (its docs): rotate it to world.
                let nd = f64::from((w.normal - rot_a * h.normal1).length());
                d.normal_flips += usize::from(nd > 0.01);
                d.max_normal_diff = d.max_normal_diff.max(nd);
            }
        }
        (None, None) => d.both_miss += 1,
        (o, t) => {
            if o.is_some() {
                d.only_collide += 1;
            } else {
                d.only_parry += 1;
            }
            if min_sep(sep).abs() <= 1e-4 {
                d.disagree_grazing += 1;
            } else {
                eprintln!("DISAGREE ours {o:?} parry {t:?}");
            }
        }
    }
}

/// f64 separating-axis gap of two boxes (the classifier for disagreements).
fn box_gap(a: &Obb, b: &Obb, off: DVec3) -> f64 {
    let ax = |o: &Obb| {
        [
            o.axes.x_axis.as_dvec3(),
            o.axes.y_axis.as_dvec3(),
            o.axes.z_axis.as_dvec3(),
        ]
    };
    let (pa, pb) = (ax(a), ax(b));
    let mut axes: Vec<DVec3> = pa.iter().chain(pb.iter()).copied().collect();
    for x in pa {
        for y in pb {
            if x.cross(y).length() > 1e-9 {
                axes.push(x.cross(y).normalize());
            }
        }
    }
    let t = b.center.as_dvec3() + off - a.center.as_dvec3();
    let (ea, eb) = (a.half_extents.as_dvec3(), b.half_extents.as_dvec3());
    axes.iter()
        .map(|&l| {
            let ra: f64 = (0..3).map(|i| ea[i] * pa[i].dot(l).abs()).sum();
            let rb: f64 = (0..3).map(|i| eb[i] * pb[i].dot(l).abs()).sum();
            t.dot(l).abs() - ra - rb
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn cuboid_cuboid_matches_parry() {
    let mut g = Gen::new(32);
    let mut d = Diff::default();
    for _ in 0..5_000 {
        let a = g.obb();
        let b = if g.range(0.0, 1.0) < 0.3 {
            g.obb_parallel_to(&a)
        } else {
            g.obb()
        };
        let ma = g.vec(3.0);
        let mb = motion_b(&mut g, a.center, b.center);
        let ours = sweep::obb_obb(&a, ma, &b, mb);
        let (pa, pb) = (convert::obb(&a), convert::obb(&b));
        let theirs = parry_cast(&pa, ma, &pb, mb);
        let rel = (mb - ma).as_dvec3();
        let sep = |u: f64| box_gap(&a, &b, rel * u);
        compare(&mut d, pa.pose.rotation, ours, theirs, &sep);
    }
    eprintln!("cuboid-cuboid vs parry: {d:#?}");
    assert_eq!(d.only_collide + d.only_parry, d.disagree_grazing);
    // parry's GJK-based cast and its quaternion round trip (`Obb::rotation`) agree to ~1e-4.
    assert!(d.toi_diff_over_1e3 * 1000 <= d.both_hit, "{d:?}");
    assert!(d.normal_flips * 100 <= d.both_hit, "{d:?}");
}

#[test]
fn sphere_sweeps_agree_with_parry_on_a_known_case() {
    // B 10 away moving -10 toward A, radii 1 and 2: both say u = 0.7 with normal +x.
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 2.0);
    let w = sweep::sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
    let h = cast_shapes(
        &pose(a.center, glam::Quat::IDENTITY),
        Vec3::ZERO,
        &Ball::new(1.0),
        &pose(b.center, glam::Quat::IDENTITY),
        Vec3::new(-10.0, 0.0, 0.0),
        &Ball::new(2.0),
        ShapeCastOptions::with_max_time_of_impact(1.0),
    )
    .unwrap()
    .unwrap();
    assert!((w.enter - h.time_of_impact).abs() < 1e-6);
    assert!((w.normal - h.normal1).length() < 1e-6);
}
