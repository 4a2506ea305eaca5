//! Shared helpers of collide's integration tests: `f64` oracles written independently of the
//! library (different algorithms where one exists, always double precision).
//!
//! Keep this file additive: several test files include it, each using part of it.
#![allow(dead_code)]

use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere};
use collide::Vec3;
use glam::{DMat3, DVec3};

/// `f32` vector → `f64`.
pub fn dv(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// Number of cases for a randomized test: `default`, or `long` with `COLLIDE_LONG=1`.
pub fn cases(default: usize, long: usize) -> usize {
    if std::env::var("COLLIDE_LONG").is_ok_and(|v| v == "1") {
        long
    } else {
        default
    }
}

/// An oriented box in `f64`: centre, three axes (columns of the `f32` box, widened), extents.
#[derive(Clone, Copy, Debug)]
pub struct Box64 {
    pub c: DVec3,
    pub axes: [DVec3; 3],
    pub e: DVec3,
}

impl Box64 {
    pub fn from_obb(o: &Obb) -> Box64 {
        Box64 {
            c: dv(o.center),
            axes: [dv(o.axes.x_axis), dv(o.axes.y_axis), dv(o.axes.z_axis)],
            e: dv(o.half_extents),
        }
    }

    pub fn from_aabb(b: &Aabb) -> Box64 {
        let (lo, hi) = (dv(b.min), dv(b.max));
        Box64 {
            c: (lo + hi) * 0.5,
            axes: [DVec3::X, DVec3::Y, DVec3::Z],
            e: (hi - lo) * 0.5,
        }
    }

    /// Box-space coordinates of a world point (projection on each axis).
    pub fn local(&self, p: DVec3) -> DVec3 {
        let d = p - self.c;
        DVec3::new(
            d.dot(self.axes[0]),
            d.dot(self.axes[1]),
            d.dot(self.axes[2]),
        )
    }

    /// Distance from `p` to the solid box (0 inside).
    pub fn distance(&self, p: DVec3) -> f64 {
        let q = self.local(p);
        (q.abs() - self.e).max(DVec3::ZERO).length()
    }

    /// Radius of the projection of the box on the unit axis `l`.
    pub fn radius_on(&self, l: DVec3) -> f64 {
        (0..3).map(|i| self.e[i] * self.axes[i].dot(l).abs()).sum()
    }

    /// The eight corners.
    pub fn corners(&self) -> [DVec3; 8] {
        std::array::from_fn(|i| {
            let s = |bit: usize, k: usize| if i & bit == 0 { -self.e[k] } else { self.e[k] };
            self.c + self.axes[0] * s(1, 0) + self.axes[1] * s(2, 1) + self.axes[2] * s(4, 2)
        })
    }

    /// The twelve edges as pairs of corners.
    pub fn edges(&self) -> [(DVec3, DVec3); 12] {
        let c = self.corners();
        let mut out = [(DVec3::ZERO, DVec3::ZERO); 12];
        let mut n = 0;
        for i in 0..8 {
            for bit in [1, 2, 4] {
                if i & bit == 0 {
                    out[n] = (c[i], c[i | bit]);
                    n += 1;
                }
            }
        }
        out
    }

    /// A size scale (largest extent), for tolerances.
    pub fn scale(&self) -> f64 {
        self.e.max_element().max(1e-3)
    }
}

/// Minimum of a convex function of `s ∈ [0, 1]` by golden-section search (f64, 200 steps).
pub fn golden_min(f: impl Fn(f64) -> f64) -> (f64, f64) {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..200 {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    // The ends too: a monotone function has its minimum there.
    let mut best = (0.0, f(0.0));
    for (s, v) in [(1.0, f(1.0)), ((lo + hi) * 0.5, f((lo + hi) * 0.5))] {
        if v < best.1 {
            best = (s, v);
        }
    }
    best
}

/// The point of segment `a`–`b` closest to `p` in f64 (projection, clamped; `a` for a
/// zero-length segment).
pub fn point_segment_closest(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let u = if l2 > 0.0 {
        ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * u
}

/// Distance from a point to a segment in f64 (projection, clamped).
pub fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    (point_segment_closest(p, a, b) - p).length()
}

/// Distance between two segments in f64 by golden-section search over the first segment's
/// parameter (the distance from a moving point to a segment is convex in it).
pub fn segment_segment_distance(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> f64 {
    golden_min(|s| point_segment_distance(a0 + (a1 - a0) * s, b0, b1)).1
}

/// Distance from a segment to a solid box in f64 by golden-section search.
pub fn segment_box_distance(a: DVec3, b: DVec3, bx: &Box64) -> f64 {
    golden_min(|s| bx.distance(a + (b - a) * s)).1
}

/// Distance from a segment to a solid box in f64 by dense sampling of `n + 1` points: an upper
/// bound on the true distance, larger by at most `|b - a| / (2 n)`.
pub fn segment_box_distance_sampled(a: DVec3, b: DVec3, bx: &Box64, n: usize) -> f64 {
    (0..=n)
        .map(|i| bx.distance(a + (b - a) * (i as f64 / n as f64)))
        .fold(f64::INFINITY, f64::min)
}

/// Exact distance between two solid boxes in f64: the minimum over the 24 edges of either box
/// of the edge's distance to the other box (one closest point of two convex polytopes can be
/// taken on an edge, and overlapping boxes have an edge of one meeting the other).
pub fn box_box_distance(a: &Box64, b: &Box64) -> f64 {
    let mut best = f64::INFINITY;
    for (p, q) in a.edges() {
        best = best.min(segment_box_distance(p, q, b));
    }
    for (p, q) in b.edges() {
        best = best.min(segment_box_distance(p, q, a));
    }
    best
}

/// Brute-force separating-axis test of two boxes in f64 over all 15 axes, normalised, with
/// near-zero cross products skipped. Returns the largest separation `|T·L| - r_a - r_b`
/// over the axes: `> 0` separated, `<= 0` overlapping.
pub fn sat_box_box(a: &Box64, b: &Box64) -> f64 {
    let t = b.c - a.c;
    let mut axes: Vec<DVec3> = Vec::with_capacity(15);
    axes.extend(a.axes);
    axes.extend(b.axes);
    for i in 0..3 {
        for k in 0..3 {
            let l = a.axes[i].cross(b.axes[k]);
            if l.length() > 1e-6 {
                axes.push(l.normalize());
            }
        }
    }
    axes.iter()
        .map(|&l| t.dot(l).abs() - a.radius_on(l) - b.radius_on(l))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Brute-force separating-axis test of a triangle and a box in f64: the box's 3 face normals,
/// the triangle normal and the 9 edge × axis cross products, normalised, near-zero skipped.
/// Returns the largest separation (`> 0` separated).
pub fn sat_triangle_box(tri: [DVec3; 3], b: &Box64) -> f64 {
    let edges = [tri[1] - tri[0], tri[2] - tri[1], tri[0] - tri[2]];
    let mut axes: Vec<DVec3> = b.axes.to_vec();
    let scale = edges
        .iter()
        .map(|e| e.length())
        .fold(0.0, f64::max)
        .max(1e-30);
    let n = edges[0].cross(edges[1]);
    if n.length() > 1e-9 * scale * scale {
        axes.push(n.normalize());
    }
    for e in edges {
        for ax in b.axes {
            let l = e.cross(ax);
            if l.length() > 1e-9 * scale {
                axes.push(l.normalize());
            }
        }
    }
    axes.iter()
        .map(|&l| {
            let p = tri.map(|v| (v - b.c).dot(l));
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            let r = b.radius_on(l);
            (lo - r).max(-r - hi)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Sphere in f64: (centre, radius).
pub fn sphere64(s: &Sphere) -> (DVec3, f64) {
    (dv(s.center), f64::from(s.radius))
}

/// Capsule in f64: (a, b, radius).
pub fn capsule64(c: &Capsule) -> (DVec3, DVec3, f64) {
    (dv(c.a), dv(c.b), f64::from(c.radius))
}

/// Segment in f64.
pub fn segment64(s: &Segment) -> (DVec3, DVec3) {
    (dv(s.a), dv(s.b))
}

/// Signed distance of a point to a plane in f64, with the normal renormalised in f64.
pub fn plane_distance(p: &Plane, x: DVec3) -> f64 {
    let n = dv(p.normal);
    let len = n.length();
    (n.dot(x) + f64::from(p.d)) / len
}

/// Closest point of a filled triangle in f64 by a second algorithm: project onto the plane;
/// inside (barycentric coordinates all >= 0) it is the projection, else the nearest edge.
pub fn triangle_closest(p: DVec3, t: [DVec3; 3]) -> DVec3 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let n2 = n.length_squared();
    if n2 > 0.0 {
        let q = p - n * ((p - t[0]).dot(n) / n2);
        // Barycentric by signed sub-areas.
        let w0 = (t[1] - q).cross(t[2] - q).dot(n);
        let w1 = (t[2] - q).cross(t[0] - q).dot(n);
        let w2 = (t[0] - q).cross(t[1] - q).dot(n);
        if w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0 {
            return q;
        }
    }
    let mut best = t[0];
    for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
        let c = point_segment_closest(p, a, b);
        if (c - p).length_squared() < (best - p).length_squared() {
            best = c;
        }
    }
    best
}

/// Tallies of a randomized comparison: cases where both said "touching", both said "apart",
/// and cases skipped because the f64 separation was within the band around touching.
#[derive(Debug, Default)]
pub struct Tally {
    pub hit: std::cell::Cell<usize>,
    pub miss: std::cell::Cell<usize>,
    pub skipped: std::cell::Cell<usize>,
}

impl Tally {
    /// Records a verdict the test compared.
    pub fn count(&self, touching: bool) {
        let c = if touching { &self.hit } else { &self.miss };
        c.set(c.get() + 1);
    }

    /// Records a skipped (near-touching) case.
    pub fn skip(&self) {
        self.skipped.set(self.skipped.get() + 1);
    }

    /// Asserts that both verdicts occurred often enough for the comparison to mean something,
    /// and prints the counts (visible with `--nocapture`).
    pub fn assert_balanced(&self, name: &str, min_fraction: f64) {
        let (h, m, s) = (self.hit.get(), self.miss.get(), self.skipped.get());
        let n = (h + m + s).max(1) as f64;
        println!("{name}: {h} touching, {m} apart, {s} skipped near touching");
        assert!(
            h as f64 >= min_fraction * n && m as f64 >= min_fraction * n,
            "{name}: unbalanced sample: {h} touching, {m} apart, {s} skipped"
        );
    }
}

/// A proptest runner with a fixed seed (ChaCha), no failure persistence, and `cases` cases.
pub fn runner(cases: usize, seed: u8) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config = Config {
        cases: cases as u32,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

/// The band around touching inside which an f32 answer may go either way: `1e-4` of the
/// scene's scale (the largest absolute coordinate or size, at least 1).
pub fn band(values: &[f32]) -> f64 {
    1e-4 * values
        .iter()
        .map(|v| f64::from(v.abs()))
        .fold(1.0, f64::max)
}

/// Every coordinate and size of an OBB, for [`band`].
pub fn obb_values(o: &Obb) -> Vec<f32> {
    let mut v = o.center.to_array().to_vec();
    v.extend(o.half_extents.to_array());
    v
}

/// Every real mesh of `assets/meshes/` (OBJ, and one STL last).
pub const REAL_MESHES: [&str; 9] = [
    "bunny.obj",
    "torus.obj",
    "concave_box.obj",
    "cube.obj",
    "jenga.obj",
    "duck_vhacd.obj",
    "teddy2_VHACD_CHs.obj",
    "lego_vhacd.obj",
    "racecar_chassis.stl",
];

/// The path of `assets/meshes/<name>`.
pub fn mesh_path(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The largest normalised separating-axis gap between two parallelepipeds given by centre,
/// edge vectors (columns) and half-extents, using their true face normals (cross products of
/// edge pairs) and the 9 edge cross products: exact SAT for parallelepipeds (for boxes, the face
/// normals are the axes). `<= 0` touching.
pub fn sat_gap(ca: DVec3, ma: DMat3, ea: DVec3, cb: DVec3, mb: DMat3, eb: DVec3) -> f64 {
    let a = [ma.x_axis, ma.y_axis, ma.z_axis];
    let b = [mb.x_axis, mb.y_axis, mb.z_axis];
    let mut axes = Vec::with_capacity(15);
    for k in 0..3 {
        axes.push(a[(k + 1) % 3].cross(a[(k + 2) % 3]));
        axes.push(b[(k + 1) % 3].cross(b[(k + 2) % 3]));
    }
    for x in a {
        for y in b {
            axes.push(x.cross(y));
        }
    }
    let t = cb - ca;
    let mut best = f64::NEG_INFINITY;
    for l in axes {
        let len = l.length();
        if len < 1e-13 {
            continue;
        }
        let ra: f64 = (0..3).map(|i| ea[i] * a[i].dot(l).abs()).sum();
        let rb: f64 = (0..3).map(|i| eb[i] * b[i].dot(l).abs()).sum();
        best = best.max((t.dot(l).abs() - ra - rb) / len);
    }
    best
}
