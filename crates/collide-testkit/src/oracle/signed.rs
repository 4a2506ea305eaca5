//! The signed distance between two shapes, written independently of collide's
//! and parry3d's `f32` queries.
//!
//! Every function returns `sd`: the separation distance when the shapes are apart (`sd > 0`),
//! minus the penetration depth when they overlap (`sd < 0`), zero when they touch. `|sd|` is
//! how far the configuration is from the touching boundary: the smallest translation of one
//! shape that changes the answer of an overlap test. The differential test uses it to tell a
//! real disagreement (`|sd| > 1e-4`) from a rounding one at the boundary.
//!
//! Methods, all in f64 on the `f32` inputs converted exactly:
//! - spheres and capsules: closest points of points and segments (Ericson, RTCD §5.1.2, §5.1.9);
//! - a sphere against a box: the box's signed distance function at the centre;
//! - planes: `|n · c + d|` against the shape's projected radius (two-sided plane);
//! - polytopes (boxes, segments, triangles): when separated, the minimum over vertex-to-shape
//!   and edge-to-edge distances (the closest points of two convex polytopes are always realised
//!   by a vertex of one of them or by a pair of edges); when overlapping, the smallest overlap
//!   along the separating-axis candidates (face normals of both and cross products of their
//!   edges), which for convex polytopes is the penetration depth (Ericson, RTCD §4.4; the
//!   facets of a Minkowski difference of polytopes have exactly those normals).

use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
use glam::DVec3;

use super::{closest_on_segment, closest_on_triangle, dv as d, Box64};

/// Distance between segments `p1`–`q1` and `p2`–`q2` (Ericson, RTCD §5.1.9, with both
/// degenerate cases).
pub fn segment_segment_distance(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    let (s, t);
    if a == 0.0 && e == 0.0 {
        return r.length();
    }
    if a == 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            // Non-parallel: the unconstrained minimiser of |p1 + s d1 - p2 - t d2|² in s,
            // clamped; parallel: any s, pick 0.
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            // t for that s, then re-clamp s if t left [0, 1].
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).length()
}

/// A convex polytope in f64: a box, a segment or a triangle.
#[derive(Clone, Copy, Debug)]
pub enum Poly {
    /// A solid box.
    Box(Box64),
    /// A segment.
    Seg(DVec3, DVec3),
    /// A (flat, solid) triangle.
    Tri(DVec3, DVec3, DVec3),
}

/// The 12 edges of a box as corner index pairs (corners differ in one bit).
const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

impl Poly {
    fn vertices(&self) -> Vec<DVec3> {
        match *self {
            Poly::Box(b) => b.corners().to_vec(),
            Poly::Seg(a, b) => vec![a, b],
            Poly::Tri(a, b, c) => vec![a, b, c],
        }
    }

    fn edges(&self) -> Vec<(DVec3, DVec3)> {
        match *self {
            Poly::Box(b) => {
                let c = b.corners();
                BOX_EDGES.iter().map(|&(i, j)| (c[i], c[j])).collect()
            }
            Poly::Seg(a, b) => vec![(a, b)],
            Poly::Tri(a, b, c) => vec![(a, b), (b, c), (c, a)],
        }
    }

    fn face_normals(&self) -> Vec<DVec3> {
        match *self {
            Poly::Box(b) => b.axes.to_vec(),
            Poly::Seg(..) => Vec::new(),
            Poly::Tri(a, b, c) => {
                let n = (b - a).cross(c - a);
                if n.length_squared() > 0.0 {
                    vec![n]
                } else {
                    Vec::new()
                }
            }
        }
    }

    /// Unsigned distance from `p` to the solid shape (0 inside).
    fn distance_to_point(&self, p: DVec3) -> f64 {
        match *self {
            Poly::Box(b) => b.sdf(p).max(0.0),
            Poly::Seg(a, b) => (closest_on_segment(p, a, b) - p).length(),
            Poly::Tri(a, b, c) => (closest_on_triangle(p, a, b, c) - p).length(),
        }
    }
}

/// Smallest overlap of the projections of two point sets along the candidate axes; negative
/// when some axis separates them (then it is minus the largest separation found).
fn sat_overlap(va: &[DVec3], vb: &[DVec3], axes: &[DVec3]) -> f64 {
    let mut best_overlap = f64::INFINITY;
    let mut worst_gap = 0.0_f64;
    for &axis in axes {
        let len = axis.length();
        if len == 0.0 || !len.is_finite() {
            continue;
        }
        let u = axis / len;
        let (mut amin, mut amax) = (f64::INFINITY, f64::NEG_INFINITY);
        for &p in va {
            let x = p.dot(u);
            amin = amin.min(x);
            amax = amax.max(x);
        }
        let (mut bmin, mut bmax) = (f64::INFINITY, f64::NEG_INFINITY);
        for &p in vb {
            let x = p.dot(u);
            bmin = bmin.min(x);
            bmax = bmax.max(x);
        }
        // Overlap of [amin, amax] and [bmin, bmax]: the shorter push that separates them.
        let overlap = (amax - bmin).min(bmax - amin);
        if overlap < 0.0 {
            worst_gap = worst_gap.max(-overlap);
        }
        best_overlap = best_overlap.min(overlap);
    }
    if worst_gap > 0.0 {
        -worst_gap
    } else {
        best_overlap
    }
}

/// Signed distance between two convex polytopes (see the module docs for the method).
pub fn poly_poly(a: &Poly, b: &Poly) -> f64 {
    let (va, vb) = (a.vertices(), b.vertices());
    let (ea, eb) = (a.edges(), b.edges());
    let mut axes = a.face_normals();
    axes.extend(b.face_normals());
    for &(p, q) in &ea {
        for &(r, s) in &eb {
            let (u, v) = (q - p, s - r);
            let c = u.cross(v);
            // Nearly parallel edges give a noisy axis whose job the face normals already do.
            if c.length_squared() > 1e-20 * u.length_squared() * v.length_squared() {
                axes.push(c);
            }
        }
    }
    // A segment against a segment (or a flat pair) can need the in-plane normals too; the
    // shapes compared here always include a box or a triangle, which supplies them.
    let overlap = sat_overlap(&va, &vb, &axes);
    if overlap >= 0.0 {
        return -overlap;
    }
    // Separated: the exact distance from vertices and edge pairs.
    let mut dist = f64::INFINITY;
    for &p in &va {
        dist = dist.min(b.distance_to_point(p));
    }
    for &p in &vb {
        dist = dist.min(a.distance_to_point(p));
    }
    for &(p, q) in &ea {
        for &(r, s) in &eb {
            dist = dist.min(segment_segment_distance(p, q, r, s));
        }
    }
    dist
}

/// Sphere–sphere: `|c1 - c2| - r1 - r2`.
pub fn sphere_sphere(a: &Sphere, b: &Sphere) -> f64 {
    (d(a.center) - d(b.center)).length() - f64::from(a.radius) - f64::from(b.radius)
}

/// AABB–AABB: the length of the gap vector when apart, minus the smallest overlap otherwise.
pub fn aabb_aabb(a: &Aabb, b: &Aabb) -> f64 {
    // Per axis, gap = max(a.min - b.max, b.min - a.max): positive apart, minus the overlap.
    let gap = (d(a.min) - d(b.max)).max(d(b.min) - d(a.max));
    if gap.max_element() > 0.0 {
        gap.max(DVec3::ZERO).length()
    } else {
        gap.max_element()
    }
}

/// Sphere–AABB: the box's signed distance at the centre minus the radius.
pub fn sphere_aabb(s: &Sphere, b: &Aabb) -> f64 {
    Box64::from_aabb(b).sdf(d(s.center)) - f64::from(s.radius)
}

/// Sphere–OBB: the box's signed distance at the centre minus the radius.
pub fn sphere_obb(s: &Sphere, b: &Obb) -> f64 {
    Box64::from_obb(b).sdf(d(s.center)) - f64::from(s.radius)
}

/// OBB–OBB (polytope method).
pub fn obb_obb(a: &Obb, b: &Obb) -> f64 {
    poly_poly(
        &Poly::Box(Box64::from_obb(a)),
        &Poly::Box(Box64::from_obb(b)),
    )
}

/// AABB–OBB (polytope method).
pub fn aabb_obb(a: &Aabb, b: &Obb) -> f64 {
    poly_poly(
        &Poly::Box(Box64::from_aabb(a)),
        &Poly::Box(Box64::from_obb(b)),
    )
}

/// Segment–AABB (polytope method).
pub fn segment_aabb(s: &Segment, b: &Aabb) -> f64 {
    poly_poly(&Poly::Seg(d(s.a), d(s.b)), &Poly::Box(Box64::from_aabb(b)))
}

/// Segment–OBB (polytope method).
pub fn segment_obb(s: &Segment, b: &Obb) -> f64 {
    poly_poly(&Poly::Seg(d(s.a), d(s.b)), &Poly::Box(Box64::from_obb(b)))
}

/// Triangle–AABB (polytope method).
pub fn triangle_aabb(t: &Triangle, b: &Aabb) -> f64 {
    poly_poly(
        &Poly::Tri(d(t.a), d(t.b), d(t.c)),
        &Poly::Box(Box64::from_aabb(b)),
    )
}

/// Signed distance of a point from a plane, in f64 with the plane's `f32` normal as given.
fn plane_distance(p: &Plane, x: DVec3) -> f64 {
    d(p.normal).dot(x) + f64::from(p.d)
}

/// Two-sided plane against a sphere: `|n · c + d| - r`.
pub fn plane_sphere(p: &Plane, s: &Sphere) -> f64 {
    plane_distance(p, d(s.center)).abs() - f64::from(s.radius)
}

/// Two-sided plane against a box: `|n · c + d| - Σ e_i |n · A_i|` (Gomez 1999, box–plane).
fn plane_box(p: &Plane, b: &Box64) -> f64 {
    let n = d(p.normal);
    let r = (0..3).map(|i| b.e[i] * n.dot(b.axes[i]).abs()).sum::<f64>();
    plane_distance(p, b.c).abs() - r
}

/// Two-sided plane against an AABB.
pub fn plane_aabb(p: &Plane, b: &Aabb) -> f64 {
    plane_box(p, &Box64::from_aabb(b))
}

/// Two-sided plane against an OBB.
pub fn plane_obb(p: &Plane, b: &Obb) -> f64 {
    plane_box(p, &Box64::from_obb(b))
}

/// Capsule–capsule: segment distance minus both radii.
pub fn capsule_capsule(a: &Capsule, b: &Capsule) -> f64 {
    segment_segment_distance(d(a.a), d(a.b), d(b.a), d(b.b))
        - f64::from(a.radius)
        - f64::from(b.radius)
}

/// Capsule–sphere: the centre's distance from the core segment minus both radii.
pub fn capsule_sphere(c: &Capsule, s: &Sphere) -> f64 {
    let p = d(s.center);
    (closest_on_segment(p, d(c.a), d(c.b)) - p).length() - f64::from(c.radius) - f64::from(s.radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::{Quat, Vec3};

    #[test]
    fn boxes_face_to_face() {
        // Unit cubes 2.5 apart on x: gap 0.5; 1.5 apart: overlap 0.5.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::X * 2.5, Vec3::ONE);
        let c = Aabb::from_center_half_extents(Vec3::X * 1.5, Vec3::ONE);
        assert!((aabb_aabb(&a, &b) - 0.5).abs() < 1e-12);
        assert!((aabb_aabb(&a, &c) + 0.5).abs() < 1e-12);
        let (ob, oc) = (Obb::from_aabb(&b), Obb::from_aabb(&c));
        assert!((aabb_obb(&a, &ob) - 0.5).abs() < 1e-9);
        assert!((aabb_obb(&a, &oc) + 0.5).abs() < 1e-9);
    }

    #[test]
    fn boxes_corner_to_corner_distance_is_euclidean() {
        // Cubes offset by (2.1, 2.1, 2.1): gap 0.1 on each axis, distance 0.1·√3.
        let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let b = Obb::new(Vec3::splat(2.1), Quat::IDENTITY, Vec3::ONE);
        let want = 0.1 * 3f64.sqrt();
        assert!((obb_obb(&a, &b) - want).abs() < 1e-6);
        let aa = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let bb = Aabb::from_center_half_extents(Vec3::splat(2.1), Vec3::ONE);
        assert!((aabb_aabb(&aa, &bb) - want).abs() < 1e-6);
    }

    #[test]
    fn rotated_box_edge_to_edge() {
        // A cube turned 45° about z, its edge 0.2 from the face of a unit cube at x = 1:
        // the turned cube's x reach is √2, so centre at 1 + √2 + 0.2.
        let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
        let cx = 1.0 + 2f32.sqrt() + 0.2;
        let b = Obb::new(
            Vec3::new(cx, 0.0, 0.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        assert!((obb_obb(&a, &b) - 0.2).abs() < 1e-6);
        // Pushed 0.3 into it: penetration depth 0.1.
        let c = Obb {
            center: Vec3::new(cx - 0.3, 0.0, 0.0),
            ..b
        };
        assert!((obb_obb(&a, &c) + 0.1).abs() < 1e-6);
    }

    #[test]
    fn segment_and_triangle_against_box() {
        let b = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        // A segment parallel to x, 0.5 above the top face.
        let s = Segment::new(Vec3::new(-3.0, 1.5, 0.0), Vec3::new(3.0, 1.5, 0.0));
        assert!((segment_aabb(&s, &b) - 0.5).abs() < 1e-9);
        // Through the box along x at y = 0.8: the smallest push out is 0.2 (up).
        let s2 = Segment::new(Vec3::new(-3.0, 0.8, 0.0), Vec3::new(3.0, 0.8, 0.0));
        assert!((segment_aabb(&s2, &b) + 0.2).abs() < 1e-6);
        // A point segment 0.25 beyond a face.
        let p = Segment::new(Vec3::new(0.0, 0.0, 1.25), Vec3::new(0.0, 0.0, 1.25));
        assert!((segment_aabb(&p, &b) - 0.25).abs() < 1e-9);
        // A triangle in the plane z = 1.5 over the box: 0.5 away; at z = 0.9 spanning it: -0.1.
        let t = Triangle::new(
            Vec3::new(-5.0, -5.0, 1.5),
            Vec3::new(5.0, -5.0, 1.5),
            Vec3::new(0.0, 5.0, 1.5),
        );
        assert!((triangle_aabb(&t, &b) - 0.5).abs() < 1e-9);
        let t2 = Triangle::new(
            Vec3::new(-5.0, -5.0, 0.9),
            Vec3::new(5.0, -5.0, 0.9),
            Vec3::new(0.0, 5.0, 0.9),
        );
        assert!((triangle_aabb(&t2, &b) + 0.1).abs() < 1e-6);
    }

    #[test]
    fn round_shapes_and_planes() {
        // Capsules on parallel lines 3 apart with radii 1 and 1.5: 0.5 apart.
        let a = Capsule::new(Vec3::ZERO, Vec3::X * 4.0, 1.0);
        let b = Capsule::new(Vec3::new(1.0, 3.0, 0.0), Vec3::new(9.0, 3.0, 0.0), 1.5);
        assert!((capsule_capsule(&a, &b) - 0.5).abs() < 1e-9);
        let s = Sphere::new(Vec3::new(6.0, 0.0, 0.0), 0.5);
        assert!((capsule_sphere(&a, &s) - 0.5).abs() < 1e-9);
        // The plane y = 1 and a unit sphere at y = -0.5 (below, crossing by 0.5).
        let p = Plane::from_point_normal(Vec3::Y, Vec3::Y);
        let s2 = Sphere::new(Vec3::new(0.0, -0.5, 0.0), 1.0);
        assert!((plane_sphere(&p, &s2) - 0.5).abs() < 1e-9);
        let s3 = Sphere::new(Vec3::new(0.0, 1.5, 0.0), 1.0);
        assert!((plane_sphere(&p, &s3) + 0.5).abs() < 1e-9);
        let bx = Aabb::from_center_half_extents(Vec3::new(0.0, 3.0, 0.0), Vec3::ONE);
        assert!((plane_aabb(&p, &bx) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn segment_box_sign_matches_dense_sampling() {
        // Random segments and boxes: a sample point inside the box means sd <= 0; sd < -1e-3
        // means some sample (1/2000 of the length apart) is inside.
        let mut g = crate::Gen::new(5);
        g.extent = 2.6;
        for _ in 0..2000 {
            let s = g.segment();
            let b = g.aabb();
            let sd = segment_aabb(&s, &b);
            let bb = Box64::from_aabb(&b);
            let inside = (0..=2000).any(|i| {
                let p = d(s.a) + (d(s.b) - d(s.a)) * (f64::from(i) / 2000.0);
                bb.sdf(p) <= 0.0
            });
            if inside {
                assert!(sd <= 1e-9, "{s:?} {b:?} sd {sd}");
            }
            if sd < -1e-2 {
                assert!(inside, "{s:?} {b:?} sd {sd}");
            }
        }
    }

    #[test]
    fn closest_point_on_triangle_regions() {
        let (a, b, c) = (DVec3::ZERO, DVec3::X, DVec3::Y);
        assert_eq!(closest_on_triangle(DVec3::new(-1.0, -1.0, 0.0), a, b, c), a);
        let f = closest_on_triangle(DVec3::new(0.2, 0.2, 3.0), a, b, c);
        assert!((f - DVec3::new(0.2, 0.2, 0.0)).length() < 1e-12);
        let e = closest_on_triangle(DVec3::new(1.0, 1.0, 0.0), a, b, c);
        assert!((e - DVec3::new(0.5, 0.5, 0.0)).length() < 1e-12);
    }

    #[test]
    fn segment_distance_cases() {
        // Crossing segments 1 apart in z; parallel overlapping ones 2 apart; point-point.
        let dd = segment_segment_distance(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, -1.0, 1.0),
            DVec3::new(0.0, 1.0, 1.0),
        );
        assert!((dd - 1.0).abs() < 1e-12);
        let dp = segment_segment_distance(
            DVec3::ZERO,
            DVec3::X * 4.0,
            DVec3::new(1.0, 2.0, 0.0),
            DVec3::new(9.0, 2.0, 0.0),
        );
        assert!((dp - 2.0).abs() < 1e-12);
        let d0 = segment_segment_distance(DVec3::ZERO, DVec3::ZERO, DVec3::Y, DVec3::Y);
        assert!((d0 - 1.0).abs() < 1e-12);
    }
}
