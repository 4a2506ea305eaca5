//! f64 brute-force oracles for the GJK/EPA/contact tests: every shape as a core vertex set plus
//! a radius, the Minkowski difference of the cores as a point set, and its distance to the
//! origin, overlap and penetration depth by exhaustive enumeration (no GJK, no EPA).

use crate::Gen;
use collide::convex::{Posed, SupportMap};
use collide::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};
use collide::Vec3;
use glam::DVec3;
use rand::Rng;

use super::{closest_on_segment, closest_on_triangle, dv as d};

/// A shape as a convex core (hull of `verts`) swept by a ball of `radius`.
#[derive(Clone, Debug)]
pub struct Core {
    /// The core's vertices (its convex hull is the core).
    pub verts: Vec<DVec3>,
    /// The radius of the ball swept over the core.
    pub radius: f64,
}

/// A sphere: its centre, swept by its radius.
pub fn core_sphere(s: &Sphere) -> Core {
    Core {
        verts: vec![d(s.center)],
        radius: f64::from(s.radius),
    }
}
/// A capsule: its segment, swept by its radius.
pub fn core_capsule(c: &Capsule) -> Core {
    Core {
        verts: vec![d(c.a), d(c.b)],
        radius: f64::from(c.radius),
    }
}
/// A segment: its two ends.
pub fn core_segment(s: &Segment) -> Core {
    Core {
        verts: vec![d(s.a), d(s.b)],
        radius: 0.0,
    }
}
/// A triangle: its three corners.
pub fn core_triangle(t: &Triangle) -> Core {
    Core {
        verts: vec![d(t.a), d(t.b), d(t.c)],
        radius: 0.0,
    }
}
/// OBB corners computed in f64 from the stored centre, axes and extents.
pub fn core_obb(o: &Obb) -> Core {
    let e = o.half_extents.as_dvec3();
    let m = [d(o.axes.x_axis), d(o.axes.y_axis), d(o.axes.z_axis)];
    let c = d(o.center);
    let verts = (0..8)
        .map(|i| {
            let s = |bit: usize, v: f64| if i & bit == 0 { -v } else { v };
            c + m[0] * s(1, e.x) + m[1] * s(2, e.y) + m[2] * s(4, e.z)
        })
        .collect();
    Core { verts, radius: 0.0 }
}
/// An AABB: its eight corners.
pub fn core_aabb(a: &Aabb) -> Core {
    Core {
        verts: a.corners().iter().map(|&v| d(v)).collect(),
        radius: 0.0,
    }
}
/// A point cloud: its points.
pub fn core_points(p: &[Vec3]) -> Core {
    Core {
        verts: p.iter().map(|&v| d(v)).collect(),
        radius: 0.0,
    }
}

/// The Minkowski difference `A − B` of two cores as a point set.
pub fn minkowski(a: &Core, b: &Core) -> Vec<DVec3> {
    let mut out = Vec::with_capacity(a.verts.len() * b.verts.len());
    for &p in &a.verts {
        for &q in &b.verts {
            out.push(p - q);
        }
    }
    out
}

/// Distance from the origin to the convex hull of `pts`, by enumerating every point, segment
/// and non-degenerate triangle (the nearest point of a hull lies in a triangle of its vertices,
/// by Carathéodory on the nearest face). Returns `(distance, nearest point)`; when the origin is
/// inside the hull the enumeration still returns a positive value, so the caller checks
/// [`separates`].
pub fn hull_nearest(pts: &[DVec3]) -> (f64, DVec3) {
    let mut best = pts[0];
    let mut consider = |q: DVec3| {
        if q.length_squared() < best.length_squared() {
            best = q;
        }
    };
    let n = pts.len();
    for i in 0..n {
        consider(pts[i]);
        for j in i + 1..n {
            consider(closest_on_segment(DVec3::ZERO, pts[i], pts[j]));
            for k in j + 1..n {
                let (a, b, c) = (pts[i], pts[j], pts[k]);
                let nrm = (b - a).cross(c - a);
                let sc = (b - a).length_squared().max((c - a).length_squared());
                if nrm.length_squared() > 1e-20 * sc * sc {
                    consider(closest_on_triangle(DVec3::ZERO, a, b, c));
                }
            }
        }
    }
    (best.length(), best)
}

/// `true` when the plane through `q` with normal `q` has every point on its far side, i.e. `q`
/// is the nearest hull point and the origin is outside (up to a relative rounding slack).
pub fn separates(pts: &[DVec3], q: DVec3) -> bool {
    let qq = q.length_squared();
    if qq == 0.0 {
        return false;
    }
    let scale = pts.iter().map(|p| p.length()).fold(1.0, f64::max);
    pts.iter()
        .all(|p| p.dot(q) >= qq - 1e-9 * scale * q.length())
}

/// Distance from point `p` to the shape (f64 brute force): ≤ tol means `p` is in the shape.
pub fn dist_to_shape(core: &Core, p: collide::Vec3) -> f64 {
    let pts: Vec<DVec3> = core.verts.iter().map(|&v| v - p.as_dvec3()).collect();
    let (dd, q) = hull_nearest(&pts);
    let inside = !separates(&pts, q);
    (if inside { 0.0 } else { dd } - core.radius).max(0.0)
}

/// The f64 truth for a pair of shapes.
#[derive(Clone, Copy, Debug)]
pub struct Truth {
    /// Distance between the shapes (0 when overlapping).
    pub distance: f64,
    /// Distance between the cores (0 when the cores overlap).
    pub core_distance: f64,
    /// Nearest point of A_core − B_core to the origin (when the cores are apart).
    pub q: DVec3,
}

impl Truth {
    /// `true` when the shapes overlap or touch.
    pub fn overlap(&self) -> bool {
        self.distance <= 0.0
    }
}

/// The f64 truth for the shapes `a` and `b` (brute force over the Minkowski difference).
pub fn truth(a: &Core, b: &Core) -> Truth {
    let m = minkowski(a, b);
    let (dist, q) = hull_nearest(&m);
    let core_distance = if separates(&m, q) { dist } else { 0.0 };
    Truth {
        distance: (core_distance - a.radius - b.radius).max(0.0),
        core_distance,
        q,
    }
}

/// Penetration depth of the origin inside the hull of `pts` (cores only): the smallest
/// distance to a supporting facet plane, found by enumerating every triple of points whose
/// plane has all points on one side. `None` when the hull is flat (no such full-rank facet
/// with the origin strictly behind it) — the caller then expects depth 0.
pub fn hull_depth(pts: &[DVec3]) -> Option<(f64, DVec3)> {
    let n = pts.len();
    let scale = pts.iter().map(|p| p.length()).fold(1.0, f64::max);
    let eps = 1e-9 * scale;
    let mut best: Option<(f64, DVec3)> = None;
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (pts[i], pts[j], pts[k]);
                let nrm = (b - a).cross(c - a);
                let len = nrm.length();
                if len <= 1e-10 * scale * scale {
                    continue;
                }
                let mut nu = nrm / len;
                let mut off = nu.dot(a);
                // Orient outward: every point behind the plane.
                let (mut front, mut back) = (false, false);
                for p in pts {
                    let s = nu.dot(*p) - off;
                    front |= s > eps;
                    back |= s < -eps;
                }
                if front && back {
                    continue;
                }
                if front {
                    nu = -nu;
                    off = -off;
                }
                if !front && !back {
                    return None; // Flat hull.
                }
                if best.is_none_or(|(bd, _)| off < bd) {
                    best = Some((off, nu));
                }
            }
        }
    }
    best
}

/// Box–box separating-axis test in f64 over the 15 axes (Gomez 1999, listing 6; Ericson RTCD
/// §4.4.1), returning `Ok((depth, normal A→B))` for overlap (the minimum translation over the
/// axes) or `Err(gap)` for separation (the largest separation over the axes, a lower bound on
/// the distance). Near-parallel edge pairs (|cross| < 1e-9) are skipped: their axis repeats a
/// face axis.
pub fn sat_obb(a: &Obb, b: &Obb) -> Result<(f64, DVec3), f64> {
    let aa = [d(a.axes.x_axis), d(a.axes.y_axis), d(a.axes.z_axis)];
    let ba = [d(b.axes.x_axis), d(b.axes.y_axis), d(b.axes.z_axis)];
    let ea = a.half_extents.as_dvec3().to_array();
    let eb = b.half_extents.as_dvec3().to_array();
    let t = d(b.center) - d(a.center);
    let mut axes: Vec<DVec3> = Vec::with_capacity(15);
    axes.extend(aa);
    axes.extend(ba);
    for x in aa {
        for y in ba {
            let c = x.cross(y);
            if c.length() > 1e-9 {
                axes.push(c.normalize());
            }
        }
    }
    let mut best_depth = f64::INFINITY;
    let mut best_n = DVec3::X;
    let mut max_gap = f64::NEG_INFINITY;
    for l in axes {
        let ra: f64 = (0..3).map(|i| ea[i] * aa[i].dot(l).abs()).sum();
        let rb: f64 = (0..3).map(|i| eb[i] * ba[i].dot(l).abs()).sum();
        let dist = t.dot(l);
        let overlap = ra + rb - dist.abs();
        max_gap = max_gap.max(-overlap);
        if overlap < best_depth {
            best_depth = overlap;
            best_n = if dist >= 0.0 { l } else { -l };
        }
    }
    if max_gap > 0.0 {
        Err(max_gap)
    } else {
        Ok((best_depth, best_n))
    }
}

/// Runs `f` `n` times (or `n × COLLIDE_LONG` when that environment variable is set to a
/// number), with seeds `base..`.
pub fn cases(n: u64) -> u64 {
    let k = std::env::var("COLLIDE_LONG")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(1);
    n * k
}

/// Shape kinds drawn by the oracle tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A sphere.
    Sphere,
    /// An AABB.
    Aabb,
    /// An OBB.
    Obb,
    /// A capsule.
    Capsule,
    /// A segment.
    Segment,
    /// A triangle.
    Triangle,
    /// A cloud of 1 to 8 points.
    Points,
    /// A box posed by a rotation and a translation.
    PosedBox,
}

/// Every kind, in a fixed order (seeds are derived from the index).
pub const KINDS: [Kind; 8] = [
    Kind::Sphere,
    Kind::Aabb,
    Kind::Obb,
    Kind::Capsule,
    Kind::Segment,
    Kind::Triangle,
    Kind::Points,
    Kind::PosedBox,
];

/// A shape behind the support-map trait, with its f64 oracle description.
pub struct Shape {
    /// The shape, for the library's queries.
    pub s: Box<dyn SupportMap>,
    /// The same shape for the oracles.
    pub core: Core,
}

/// Draws a shape of kind `k` near the origin (centres in `[-1.5, 1.5]³`, so most pairs overlap).
pub fn draw(g: &mut Gen, k: Kind) -> Shape {
    match k {
        Kind::Sphere => {
            let s = g.sphere();
            Shape {
                core: core_sphere(&s),
                s: Box::new(s),
            }
        }
        Kind::Aabb => {
            let s = g.aabb();
            Shape {
                core: core_aabb(&s),
                s: Box::new(s),
            }
        }
        Kind::Obb => {
            let s = g.obb();
            Shape {
                core: core_obb(&s),
                s: Box::new(s),
            }
        }
        Kind::Capsule => {
            let s = g.capsule();
            Shape {
                core: core_capsule(&s),
                s: Box::new(s),
            }
        }
        Kind::Segment => {
            let s = g.segment();
            Shape {
                core: core_segment(&s),
                s: Box::new(s),
            }
        }
        Kind::Triangle => {
            let s = g.triangle();
            Shape {
                core: core_triangle(&s),
                s: Box::new(s),
            }
        }
        Kind::Points => {
            let c = g.point();
            let n = g.rng.random_range(1..=8);
            let sz = g.size() * 1.5;
            let pts: Vec<Vec3> = (0..n).map(|_| c + g.vec(sz)).collect();
            Shape {
                core: core_points(&pts),
                s: Box::new(pts),
            }
        }
        Kind::PosedBox => {
            let local = Aabb::from_center_half_extents(g.vec(0.5), g.sizes());
            let p = Posed::new(local, g.quat(), g.point());
            let verts = local
                .corners()
                .iter()
                .map(|&v| {
                    let r = p.rotation;
                    r.x_axis.as_dvec3() * f64::from(v.x)
                        + r.y_axis.as_dvec3() * f64::from(v.y)
                        + r.z_axis.as_dvec3() * f64::from(v.z)
                        + p.translation.as_dvec3()
                })
                .collect();
            Shape {
                core: Core { verts, radius: 0.0 },
                s: Box::new(p),
            }
        }
    }
}
