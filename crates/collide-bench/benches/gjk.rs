//! collide's GJK / EPA / contact against parry3d's `intersection_test`, `distance` and
//! `contact` on identical inputs: cuboid–cuboid, capsule–cuboid and hull–hull (32 points).
//!
//! parry dispatches cuboid–cuboid intersection and contact to SAT-based special cases and
//! hulls and capsules to its GJK/EPA; collide runs GJK/EPA on support maps for all of them.

use collide::convex::gjk::{self, GjkCache};
use collide::convex::{contact, SupportMap};
use collide::shapes::{Capsule, Obb};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};
use parry3d::math::Pose;
use parry3d::query;
use parry3d::shape::{Capsule as PCapsule, ConvexPolyhedron, Cuboid, Shape as PShape};
use std::hint::black_box;

fn cloud(g: &mut Gen, center: Vec3, n: usize) -> Vec<Vec3> {
    (0..n)
        .map(|_| center + g.unit() * g.range(0.6, 1.0))
        .collect()
}

struct Case {
    name: &'static str,
    ours_a: Box<dyn SupportMap>,
    ours_b: Box<dyn SupportMap>,
    theirs_a: (Pose, Box<dyn PShape>),
    theirs_b: (Pose, Box<dyn PShape>),
}

fn obb_pair(o: Obb, q: Quat) -> (Box<dyn SupportMap>, (Pose, Box<dyn PShape>)) {
    (
        Box::new(o),
        (
            Pose::from_parts(o.center, q),
            Box::new(Cuboid::new(o.half_extents)),
        ),
    )
}

fn hull_pair(pts: Vec<Vec3>) -> (Box<dyn SupportMap>, (Pose, Box<dyn PShape>)) {
    let h = ConvexPolyhedron::from_convex_hull(&pts).expect("random sphere points span 3-D");
    (Box::new(pts), (Pose::IDENTITY, Box::new(h)))
}

fn cases() -> Vec<Case> {
    let mut g = Gen::new(1);
    let q1 = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.7, -0.2);
    let q2 = Quat::from_euler(glam::EulerRot::XYZ, -0.5, 0.1, 0.9);
    let a = Obb::new(Vec3::ZERO, q1, Vec3::new(1.0, 0.7, 0.5));
    let mut out = Vec::new();
    for (name, x) in [("cuboid_cuboid_apart", 2.6), ("cuboid_cuboid_overlap", 1.2)] {
        let b = Obb::new(Vec3::new(x, 0.3, 0.1), q2, Vec3::new(0.8, 0.6, 0.4));
        let (oa, ta) = obb_pair(a, q1);
        let (ob, tb) = obb_pair(b, q2);
        out.push(Case {
            name,
            ours_a: oa,
            ours_b: ob,
            theirs_a: ta,
            theirs_b: tb,
        });
    }
    for (name, x) in [
        ("capsule_cuboid_apart", 2.0),
        ("capsule_cuboid_overlap", 0.9),
    ] {
        let c = Capsule::new(Vec3::new(x, -1.0, 0.2), Vec3::new(x + 0.2, 1.0, -0.1), 0.3);
        let (ob, tb) = obb_pair(a, q1);
        out.push(Case {
            name,
            ours_a: Box::new(c),
            ours_b: ob,
            theirs_a: (Pose::IDENTITY, Box::new(PCapsule::new(c.a, c.b, c.radius))),
            theirs_b: tb,
        });
    }
    let h1 = cloud(&mut g, Vec3::ZERO, 32);
    for (name, x) in [("hull32_apart", 2.2), ("hull32_overlap", 1.5)] {
        let (oa, ta) = hull_pair(h1.clone());
        let (ob, tb) = hull_pair(cloud(&mut g, Vec3::new(x, 0.2, 0.0), 32));
        out.push(Case {
            name,
            ours_a: oa,
            ours_b: ob,
            theirs_a: ta,
            theirs_b: tb,
        });
    }
    out
}

fn bench(c: &mut Criterion) {
    for case in cases() {
        let (a, b) = (&*case.ours_a, &*case.ours_b);
        let ((pa, sa), (pb, sb)) = (&case.theirs_a, &case.theirs_b);
        let (sa, sb) = (&**sa, &**sb);
        let mut grp = c.benchmark_group(case.name);
        grp.bench_function("collide_intersects", |bn| {
            bn.iter(|| gjk::intersects(black_box(a), black_box(b)))
        });
        let mut cache = GjkCache::default();
        grp.bench_function("collide_intersects_cached", |bn| {
            bn.iter(|| gjk::intersects_cached(black_box(a), black_box(b), &mut cache))
        });
        grp.bench_function("parry_intersection_test", |bn| {
            bn.iter(|| query::intersection_test(black_box(pa), sa, black_box(pb), sb))
        });
        grp.bench_function("collide_distance", |bn| {
            bn.iter(|| gjk::distance(black_box(a), black_box(b)))
        });
        grp.bench_function("parry_distance", |bn| {
            bn.iter(|| query::distance(black_box(pa), sa, black_box(pb), sb))
        });
        grp.bench_function("collide_contact", |bn| {
            bn.iter(|| contact::contact(black_box(a), black_box(b), 0.0))
        });
        grp.bench_function("parry_contact", |bn| {
            bn.iter(|| query::contact(black_box(pa), sa, black_box(pb), sb, 0.0))
        });
        grp.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
