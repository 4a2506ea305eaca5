//! Differential test of every static overlap test against parry3d 0.31.
//!
//! For each pair type, 100,000 seeded random pairs (override with `COLLIDE_PARRY_PAIRS`) go
//! through `collide::overlap::*` and through parry3d's `query::intersection_test` on the same
//! shapes (converted by `collide_bench::convert`). A disagreement fails the test unless the
//! configuration is within 1e-4 of the touching boundary, decided by an independent f64
//! signed distance (`collide_testkit::oracle::signed`: separation when apart, minus the penetration
//! depth when overlapping), where `f32` rounding legitimately decides either way.
//!
//! The same oracle also checks each library on its own: outside the 1e-4 band, collide must
//! agree with the f64 answer (a failure), and parry3d's mismatches are counted and printed
//! (parry is the reference here, not the subject).
//!
//! One class of disagreement is parry's, not ours, and does not fail the test: parry answers
//! the pairs without a dedicated test (capsule–capsule, segment–box) with GJK
//! (`intersection_test_support_map_support_map`), whose termination reports `Intersection`
//! for shapes a few 1e-4 apart (when the simplex becomes a tetrahedron before the lower bound
//! turns positive, or after stalling). A disagreement counts as such a "parry GJK miss" only
//! when all of these hold: the f64 oracle sides with collide, the shapes are apart
//! (`sd > 0`: parry said "touching"), and by less than [`PARRY_GJK_BAND`] = 1e-3. Anything
//! else — collide wrong by the oracle, or parry wrong by more than 1e-3 (which would mean a
//! conversion bug here) — fails.
//!
//! Planes: collide's `plane_*` asks whether the shape touches the plane itself (two-sided);
//! parry's `HalfSpace` is solid. A connected shape touches the plane iff it meets both closed
//! half-spaces, so parry's answer is `intersection_test(HalfSpace(n)) &&
//! intersection_test(HalfSpace(-n))`, both at the plane's pose.
//!
//! Run with `cargo test -p collide-bench --test main parry::static_queries -- --nocapture` to
//! see the counts:
//! `tested, agreed, near-boundary (disagreements within 1e-4), parry GJK misses,
//! disagreements` (the failures).

use collide::overlap;
use collide_bench::{convert, inputs};
use collide_testkit::oracle::signed as oracle;
use collide_testkit::Gen;
use parry3d::math::Pose;
use parry3d::query::intersection_test;
use parry3d::shape::Shape;

/// The touching-boundary band: disagreements closer than this to touching are rounding.
const BAND: f64 = 1e-4;

/// How far apart parry's GJK may still call two shapes touching (see the module docs).
const PARRY_GJK_BAND: f64 = 1e-3;

fn pairs_per_type() -> usize {
    std::env::var("COLLIDE_PARRY_PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000)
}

fn parry_hit(pa: &Pose, a: &dyn Shape, pb: &Pose, b: &dyn Shape) -> bool {
    intersection_test(pa, a, pb, b).is_ok_and(|r| r.intersecting)
}

#[derive(Default, Debug)]
struct Counts {
    tested: usize,
    agreed: usize,
    near_boundary: usize,
    parry_gjk_misses: usize,
    worst_parry_gjk_miss: f64,
    disagreements: usize,
    hits: usize,
    collide_vs_oracle: usize,
    parry_vs_oracle: usize,
    examples: Vec<String>,
}

/// Runs `n` pairs of one type and asserts; prints one line of counts.
fn run<A: std::fmt::Debug, B: std::fmt::Debug>(
    name: &str,
    seed: u64,
    draw: fn(&mut Gen) -> (A, B),
    ours: fn(&A, &B) -> bool,
    theirs: impl Fn(&A, &B) -> bool,
    sd: fn(&A, &B) -> f64,
) {
    let n = pairs_per_type();
    let mut g = Gen::new(seed);
    let mut c = Counts::default();
    for _ in 0..n {
        let (a, b) = draw(&mut g);
        let (mine, parry) = (ours(&a, &b), theirs(&a, &b));
        let d = sd(&a, &b);
        let truth = d <= 0.0;
        c.tested += 1;
        c.hits += usize::from(mine);
        if d.abs() > BAND {
            if mine != truth {
                c.collide_vs_oracle += 1;
                if c.examples.len() < 5 {
                    c.examples.push(format!(
                        "collide {mine} vs f64 oracle sd = {d:e}: {a:?} {b:?}"
                    ));
                }
            }
            if parry != truth {
                c.parry_vs_oracle += 1;
            }
        }
        if mine == parry {
            c.agreed += 1;
        } else if d.abs() <= BAND {
            c.near_boundary += 1;
        } else if mine == truth && parry && d <= PARRY_GJK_BAND {
            c.parry_gjk_misses += 1;
            c.worst_parry_gjk_miss = c.worst_parry_gjk_miss.max(d);
        } else {
            c.disagreements += 1;
            if c.examples.len() < 5 {
                c.examples.push(format!(
                    "collide {mine} vs parry {parry}, sd = {d:e}: {a:?} {b:?}"
                ));
            }
        }
    }
    println!(
        "{name:16} tested {:7}  agreed {:7}  near-boundary {:4}  parry-GJK-misses {:3} \
         (apart by <= {:.1e})  disagreements {:3}  | collide hits {:4.1} %; outside the band: \
         collide≠f64 {}, parry≠f64 {}",
        c.tested,
        c.agreed,
        c.near_boundary,
        c.parry_gjk_misses,
        c.worst_parry_gjk_miss,
        c.disagreements,
        100.0 * c.hits as f64 / c.tested.max(1) as f64,
        c.collide_vs_oracle,
        c.parry_vs_oracle,
    );
    assert!(
        c.disagreements == 0 && c.collide_vs_oracle == 0,
        "{name}: {} disagreements with parry3d and {} with the f64 oracle outside {BAND}:\n{}",
        c.disagreements,
        c.collide_vs_oracle,
        c.examples.join("\n")
    );
    // The inputs must exercise both answers, or the test could not fail.
    assert!(
        c.hits * 10 > c.tested && c.hits * 10 < c.tested * 9,
        "{name}: {} hits of {}",
        c.hits,
        c.tested
    );
}

/// Two-sided plane through parry: the shape meets both closed half-spaces.
fn parry_plane<S: Shape>(p: &collide::shapes::Plane, b: &convert::Posed<S>) -> bool {
    let (pose, up, down) = convert::halfspaces(p);
    parry_hit(&pose, &up, &b.pose, &b.shape) && parry_hit(&pose, &down, &b.pose, &b.shape)
}

macro_rules! pair {
    ($a:ident, $b:ident) => {
        |x, y| {
            let (pa, pb) = (convert::$a(x), convert::$b(y));
            parry_hit(&pa.pose, &pa.shape, &pb.pose, &pb.shape)
        }
    };
}

#[test]
fn sphere_sphere() {
    run(
        "sphere_sphere",
        101,
        inputs::sphere_sphere,
        overlap::sphere_sphere,
        pair!(sphere, sphere),
        oracle::sphere_sphere,
    );
}

#[test]
fn aabb_aabb() {
    run(
        "aabb_aabb",
        102,
        inputs::aabb_aabb,
        overlap::aabb_aabb,
        pair!(aabb, aabb),
        oracle::aabb_aabb,
    );
}

#[test]
fn sphere_aabb() {
    run(
        "sphere_aabb",
        103,
        inputs::sphere_aabb,
        overlap::sphere_aabb,
        pair!(sphere, aabb),
        oracle::sphere_aabb,
    );
}

#[test]
fn sphere_obb() {
    run(
        "sphere_obb",
        104,
        inputs::sphere_obb,
        overlap::sphere_obb,
        pair!(sphere, obb),
        oracle::sphere_obb,
    );
}

#[test]
fn obb_obb() {
    run(
        "obb_obb",
        105,
        inputs::obb_obb,
        overlap::obb_obb,
        pair!(obb, obb),
        oracle::obb_obb,
    );
}

#[test]
fn aabb_obb() {
    run(
        "aabb_obb",
        106,
        inputs::aabb_obb,
        overlap::aabb_obb,
        pair!(aabb, obb),
        oracle::aabb_obb,
    );
}

#[test]
fn segment_aabb() {
    run(
        "segment_aabb",
        107,
        inputs::segment_aabb,
        overlap::segment_aabb,
        pair!(segment, aabb),
        oracle::segment_aabb,
    );
}

#[test]
fn segment_obb() {
    run(
        "segment_obb",
        108,
        inputs::segment_obb,
        overlap::segment_obb,
        pair!(segment, obb),
        oracle::segment_obb,
    );
}

#[test]
fn plane_sphere() {
    run(
        "plane_sphere",
        109,
        inputs::plane_sphere,
        overlap::plane_sphere,
        |p, s| parry_plane(p, &convert::sphere(s)),
        oracle::plane_sphere,
    );
}

#[test]
fn plane_aabb() {
    run(
        "plane_aabb",
        110,
        inputs::plane_aabb,
        overlap::plane_aabb,
        |p, b| parry_plane(p, &convert::aabb(b)),
        oracle::plane_aabb,
    );
}

#[test]
fn plane_obb() {
    run(
        "plane_obb",
        111,
        inputs::plane_obb,
        overlap::plane_obb,
        |p, b| parry_plane(p, &convert::obb(b)),
        oracle::plane_obb,
    );
}

#[test]
fn capsule_capsule() {
    run(
        "capsule_capsule",
        112,
        inputs::capsule_capsule,
        overlap::capsule_capsule,
        pair!(capsule, capsule),
        oracle::capsule_capsule,
    );
}

#[test]
fn capsule_sphere() {
    run(
        "capsule_sphere",
        113,
        inputs::capsule_sphere,
        overlap::capsule_sphere,
        pair!(capsule, sphere),
        oracle::capsule_sphere,
    );
}

#[test]
fn triangle_aabb() {
    run(
        "triangle_aabb",
        114,
        inputs::triangle_aabb,
        overlap::triangle_aabb,
        pair!(triangle, aabb),
        oracle::triangle_aabb,
    );
}

#[test]
fn plane_conversion_is_two_sided() {
    // A sphere wholly below the plane y = 0 meets HalfSpace(+y) only: not touching the plane;
    // one straddling it meets both.
    let p = collide::shapes::Plane::from_point_normal(collide::Vec3::ZERO, collide::Vec3::Y);
    let below = collide::shapes::Sphere::new(collide::Vec3::new(0.0, -3.0, 0.0), 1.0);
    let across = collide::shapes::Sphere::new(collide::Vec3::new(0.0, -0.5, 0.0), 1.0);
    assert!(!parry_plane(&p, &convert::sphere(&below)));
    assert!(!overlap::plane_sphere(&p, &below));
    assert!(parry_plane(&p, &convert::sphere(&across)));
    assert!(overlap::plane_sphere(&p, &across));
}
