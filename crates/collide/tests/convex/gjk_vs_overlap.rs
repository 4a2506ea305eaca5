//! `gjk::intersects` against the analytic static tests of `collide::overlap` (a second,
//! independent algorithm per pair), with the f64 brute-force oracle deciding every disagreement:
//! GJK must match the oracle outside a 1e-4 band around touching; disagreements of
//! `overlap::*` with the oracle outside the band are counted and must be zero.
//!
//! Set `COLLIDE_LONG=k` to run k times as many random cases.

use collide::convex::{gjk, SupportMap};
use collide::overlap;
use collide::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};
use collide::Vec3;
use collide_testkit::oracle::minkowski::*;
use collide_testkit::Gen;

/// Overlap depth of the pair (f64 facet search of the cores plus the radii), for the band.
fn depth(a: &Core, b: &Core, t: &Truth) -> f64 {
    let radii = a.radius + b.radius;
    if t.core_distance > 0.0 {
        radii - t.core_distance
    } else {
        hull_depth(&minkowski(a, b)).map_or(radii, |(d, _)| d + radii)
    }
}

/// Shapes the near-touching variant can slide.
trait Translate: Sized {
    fn translate(&self, d: Vec3) -> Self;
}
impl Translate for Sphere {
    fn translate(&self, d: Vec3) -> Self {
        Sphere::new(self.center + d, self.radius)
    }
}
impl Translate for Aabb {
    fn translate(&self, d: Vec3) -> Self {
        Aabb::new(self.min + d, self.max + d)
    }
}
impl Translate for Obb {
    fn translate(&self, d: Vec3) -> Self {
        Obb {
            center: self.center + d,
            ..*self
        }
    }
}
impl Translate for Segment {
    fn translate(&self, d: Vec3) -> Self {
        Segment::new(self.a + d, self.b + d)
    }
}
impl Translate for Capsule {
    fn translate(&self, d: Vec3) -> Self {
        Capsule::new(self.a + d, self.b + d, self.radius)
    }
}
impl Translate for Triangle {
    fn translate(&self, d: Vec3) -> Self {
        Triangle::new(self.a + d, self.b + d, self.c + d)
    }
}

/// Moves the core of `c` by `d` (f64).
fn translate_core(c: &Core, d: Vec3) -> Core {
    Core {
        verts: c.verts.iter().map(|&v| v + d.as_dvec3()).collect(),
        radius: c.radius,
    }
}

/// Runs `n` random pairs of one kind through `gjk::intersects` and `analytic`; every second
/// pair is first slid along its closest direction to within ±1e-2 of touching (a random
/// signed gap), so that the touching band is exercised.
fn compare<A, B>(
    name: &str,
    seed: u64,
    n: u64,
    mut draw: impl FnMut(&mut Gen) -> (A, Core, B, Core),
    analytic: impl Fn(&A, &B) -> bool,
) -> (u64, u64, u64)
where
    A: SupportMap,
    B: SupportMap + Translate,
{
    let mut g = Gen::new(seed);
    let (mut agree, mut band, mut analytic_off) = (0, 0, 0);
    for case in 0..n {
        let (a, ca, mut b, mut cb) = draw(&mut g);
        if case % 2 == 1 {
            let t = truth(&ca, &cb);
            if t.distance > 0.0 {
                // Moving B by q̂·s closes the gap by s; leave a gap in [-1e-2, 1e-2].
                let gap = g.range(-1e-2, 1e-2);
                let d = (t.q.normalize() * (t.distance - f64::from(gap))).as_vec3();
                b = b.translate(d);
                cb = translate_core(&cb, d);
            }
        }
        let ours = gjk::intersects(&a, &b);
        let theirs = analytic(&a, &b);
        if ours == theirs {
            agree += 1;
            continue;
        }
        // Disagreement: the f64 oracle decides, outside the touching band.
        let t = truth(&ca, &cb);
        let in_band = if t.overlap() {
            depth(&ca, &cb, &t) <= 1e-4
        } else {
            t.distance <= 1e-4
        };
        if in_band {
            band += 1;
            continue;
        }
        assert_eq!(
            ours,
            t.overlap(),
            "{name} case {case}: gjk wrong vs f64 {t:?}"
        );
        analytic_off += 1;
        eprintln!("{name} case {case}: overlap::* says {theirs}, f64 oracle {t:?}");
    }
    eprintln!("gjk vs overlap::{name}: {agree}/{n} agree, {band} disagreements in the 1e-4 band, {analytic_off} overlap::* off the oracle");
    (agree, band, analytic_off)
}

#[test]
fn gjk_matches_overlap_module() {
    let n = cases(3000);
    let off = spheres_and_boxes(n) + turned_boxes_and_segments(n) + capsules_and_triangles(n);
    assert_eq!(
        off, 0,
        "overlap::* disagreed with the f64 oracle outside the band"
    );
}

/// Sphere–sphere, AABB–AABB, sphere–AABB and sphere–OBB (seeds 1 to 4); returns how many
/// `overlap::*` answers were off the f64 oracle.
fn spheres_and_boxes(n: u64) -> u64 {
    let mut off = 0;
    off += compare(
        "sphere_sphere",
        1,
        n,
        |g| {
            let (a, b) = (g.sphere(), g.sphere());
            (a, core_sphere(&a), b, core_sphere(&b))
        },
        overlap::sphere_sphere,
    )
    .2;
    off += compare(
        "aabb_aabb",
        2,
        n,
        |g| {
            let (a, b) = (g.aabb(), g.aabb());
            (a, core_aabb(&a), b, core_aabb(&b))
        },
        overlap::aabb_aabb,
    )
    .2;
    off += compare(
        "sphere_aabb",
        3,
        n,
        |g| {
            let (a, b) = (g.sphere(), g.aabb());
            (a, core_sphere(&a), b, core_aabb(&b))
        },
        overlap::sphere_aabb,
    )
    .2;
    off += compare(
        "sphere_obb",
        4,
        n,
        |g| {
            let (a, b) = (g.sphere(), g.obb());
            (a, core_sphere(&a), b, core_obb(&b))
        },
        overlap::sphere_obb,
    )
    .2;
    off
}

/// OBB–OBB (some parallel), AABB–OBB, segment–AABB and segment–OBB (seeds 5 to 8); returns
/// how many `overlap::*` answers were off the f64 oracle.
fn turned_boxes_and_segments(n: u64) -> u64 {
    let mut off = 0;
    off += compare(
        "obb_obb",
        5,
        n,
        |g| {
            let a = g.obb();
            let b = if g.range(0.0, 1.0) < 0.3 {
                g.obb_parallel_to(&a)
            } else {
                g.obb()
            };
            (a, core_obb(&a), b, core_obb(&b))
        },
        overlap::obb_obb,
    )
    .2;
    off += compare(
        "aabb_obb",
        6,
        n,
        |g| {
            let (a, b) = (g.aabb(), g.obb());
            (a, core_aabb(&a), b, core_obb(&b))
        },
        overlap::aabb_obb,
    )
    .2;
    off += compare(
        "segment_aabb",
        7,
        n,
        |g| {
            let (a, b) = (g.segment(), g.aabb());
            (a, core_segment(&a), b, core_aabb(&b))
        },
        |s: &Segment, b: &Aabb| overlap::segment_aabb(s, b),
    )
    .2;
    off += compare(
        "segment_obb",
        8,
        n,
        |g| {
            let (a, b) = (g.segment(), g.obb());
            (a, core_segment(&a), b, core_obb(&b))
        },
        |s: &Segment, b: &Obb| overlap::segment_obb(s, b),
    )
    .2;
    off
}

/// Capsule–capsule, sphere–capsule, sphere–triangle, triangle–AABB and triangle–OBB (seeds 9
/// to 13); returns how many `overlap::*` answers were off the f64 oracle.
fn capsules_and_triangles(n: u64) -> u64 {
    let mut off = 0;
    off += compare(
        "capsule_capsule",
        9,
        n,
        |g| {
            let (a, b) = (g.capsule(), g.capsule());
            (a, core_capsule(&a), b, core_capsule(&b))
        },
        overlap::capsule_capsule,
    )
    .2;
    off += compare(
        "sphere_capsule",
        10,
        n,
        |g| {
            let (a, b) = (g.sphere(), g.capsule());
            (a, core_sphere(&a), b, core_capsule(&b))
        },
        |s: &Sphere, c: &Capsule| overlap::sphere_capsule(s, c),
    )
    .2;
    off += compare(
        "sphere_triangle",
        11,
        n,
        |g| {
            let (a, b) = (g.sphere(), g.triangle());
            (a, core_sphere(&a), b, core_triangle(&b))
        },
        |s: &Sphere, t: &Triangle| overlap::sphere_triangle(s, t),
    )
    .2;
    off += compare(
        "triangle_aabb",
        12,
        n,
        |g| {
            let (a, b) = (g.triangle(), g.aabb());
            (a, core_triangle(&a), b, core_aabb(&b))
        },
        |t: &Triangle, b: &Aabb| overlap::triangle_aabb(t, b),
    )
    .2;
    off += compare(
        "triangle_obb",
        13,
        n,
        |g| {
            let (a, b) = (g.triangle(), g.obb());
            (a, core_triangle(&a), b, core_obb(&b))
        },
        |t: &Triangle, b: &Obb| overlap::triangle_obb(t, b),
    )
    .2;
    off
}
