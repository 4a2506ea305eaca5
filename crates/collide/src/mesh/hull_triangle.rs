//! A convex hull against one triangle by separating axes, for the mesh's hull contacts.
//!
//! Hull and triangle are disjoint exactly when one of these axes separates them (the face
//! normals of their Minkowski difference): the triangle's normal (both ways), the hull's face
//! normals, and the cross product of a hull edge with a triangle edge when the two edges'
//! arcs on the Gauss map cross (G. Gregorius, *The Separating Axis Test between Convex
//! Polyhedra*, GDC 2013). Overlapping, the axis of least penetration is the contact normal
//! and its penetration the depth, exactly (GJK and EPA find the same within their tolerances,
//! at several times the cost).
//!
//! The triangle is a flat polygon: its Gauss map is its two normals `±n` and, for each edge
//! `g`, the half circle from `n` to `−n` through the edge's outward normal in the plane,
//! `m = g × n`. The difference hull − triangle takes the triangle's map negated. A hull edge
//! between faces of normals `a` and `b` has the arc from `a` to `b`, which crosses the great
//! circle normal to `g` when `a·g` and `b·g` have opposite signs, at
//! `x = (a·g) b − (b·g) a` (up to sign, turned to lie between `a` and `b`); the negated half
//! circle holds `x` when `x·m < 0`.

use std::cell::RefCell;

use super::box_triangle::feature_witnesses;
use crate::convex::{Contact, ConvexHull, Posed, SupportMap};
use crate::math::Vec3;
use crate::scratch;
use crate::shapes::Triangle;

/// Hulls with more edges than this take the general path (GJK and EPA), whose cost grows
/// with the number of support steps, not with the hull's size.
pub(super) const MAX_EDGES: usize = 256;

/// Squared length, relative to the squared lengths of its two factors, below which a cross
/// product counts as zero (parallel edges, or a triangle of no area): it then separates
/// nothing and is skipped, which can only report contact, never miss one.
const DEGENERATE_AXIS: f32 = 1e-10;

/// Relative heights below which a hull's vertices tie as its feature deepest along a normal.
const FEATURE_EPS: f32 = 1e-4;

/// The least penetration found so far: its depth and the unit normal from the triangle
/// toward the hull, in the hull's frame.
#[derive(Clone, Copy)]
struct Least {
    depth: f32,
    normal: Vec3,
}

impl Least {
    /// Keeps the axis when it penetrates less (a NaN depth is kept for good: the general path
    /// then decides); `false` when it separates the two by more than `margin` (no contact).
    #[inline]
    fn take(&mut self, depth: f32, normal: Vec3, margin: f32) -> bool {
        if (depth < self.depth || depth.is_nan()) && !self.depth.is_nan() {
            *self = Least { depth, normal };
        }
        depth >= -margin || depth.is_nan()
    }
}

/// The contact of the posed hull `h` with triangle `c` (the triangle as A, so the normal
/// runs from the triangle toward the hull) within `margin`, as
/// [`crate::convex::contact::contact`] gives it: by separating axes when they overlap, by GJK
/// when they are apart within the margin (or an axis is NaN or the triangle has no area);
/// `None` when they are farther apart than `margin`.
pub(super) fn hull_contact(h: &Posed<&ConvexHull>, c: &[Vec3; 3], margin: f32) -> Option<Contact> {
    let general = || crate::convex::contact::contact(&Triangle::new(c[0], c[1], c[2]), h, margin);
    let to_local = h.rotation.transpose();
    let p = c.map(|q| to_local * (q - h.translation));
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let cross = edges[0].cross(edges[1]);
    let scale = edges[0].length_squared() * edges[1].length_squared();
    let area = cross.length_squared();
    if area.is_nan() || area <= DEGENERATE_AXIS * scale {
        return general();
    }
    let least = scratch::with(&ACROSS, |across| {
        least_penetration(h.shape, &p, cross.normalize(), margin, across)
    })?;
    if least.depth.is_nan() || least.depth < 0.0 {
        // Apart within the margin, or a NaN axis: GJK decides.
        return general();
    }
    let (on_triangle, on_hull) = witnesses(h.shape, &p, least.normal, least.depth);
    let found = Contact {
        normal: h.rotation * least.normal,
        depth: least.depth,
        point_a: h.to_world(on_triangle),
        point_b: h.to_world(on_hull),
    };
    let finite = found.point_a.is_finite() && found.point_b.is_finite();
    (finite && found.normal.is_finite()).then_some(found)
}

thread_local! {
    /// Each thread's products of a hull's face normals with a triangle's edges
    /// ([`crate::scratch`]).
    static ACROSS: RefCell<Vec<Vec3>> = const { RefCell::new(Vec::new()) };
}

/// The least penetration of `hull` and triangle `p` (in the hull's frame, unit normal `n`)
/// over the separating axes (module docs), or `None` when one separates them by more than
/// `margin`. `across` is scratch space.
fn least_penetration(
    hull: &ConvexHull,
    p: &[Vec3; 3],
    n: Vec3,
    margin: f32,
    across: &mut Vec<Vec3>,
) -> Option<Least> {
    let mut least = Least {
        depth: f32::INFINITY,
        normal: n,
    };
    // The triangle's normal, both ways: the hull spans `[lo, hi]` along it, the plane is at
    // `o`; pushed out along `+n` it moves `o − lo`, along `−n` `hi − o`.
    let o = n.dot(p[0]);
    let (lo, hi) = (n.dot(hull.support(-n)), n.dot(hull.support(n)));
    if !(least.take(o - lo, n, margin) && least.take(hi - o, -n, margin)) {
        return None;
    }
    // The hull's faces: the triangle's lowest corner below face `f` by `offset − low`. The
    // differences of the corners' heights over each face are the face normal's products with
    // the triangle's edges, which the edge pairs' arcs need: kept per face.
    let faces = hull.faces();
    across.clear();
    for f in faces {
        let nf = f.plane.normal;
        let h = Vec3::from(p.map(|q| nf.dot(q)));
        if !least.take(-f.plane.d - h.min_element(), -nf, margin) {
            return None;
        }
        across.push(Vec3::new(h.y, h.z, h.x) - h);
    }
    // Edge pairs whose arcs cross: the Minkowski difference's face through the hull edge's
    // point `v` less the triangle edge's point `q`, normal `l` (unit, toward the crossing
    // `x`), penetrated by `l·(v − q)`.
    let vertices = hull.vertices();
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let outward = edges.map(|g| g.cross(n));
    for e in hull.edges() {
        let [fa, fb] = e.faces.map(|f| f as usize);
        let (Some(&ag), Some(&bg)) = (across.get(fa), across.get(fb)) else {
            continue;
        };
        // Lane `k`: the arc crosses the great circle normal to triangle edge `k`.
        let crossing = (ag * bg).cmplt(Vec3::ZERO).bitmask();
        if crossing == 0 {
            continue;
        }
        for k in (0..3).filter(|k| crossing & (1 << k) != 0) {
            // Between `a` and `b`: positive weights on both.
            let (a, b) = (faces[fa].plane.normal, faces[fb].plane.normal);
            let x = (b * ag[k] - a * bg[k]) * ag[k].signum();
            let side = x.dot(outward[k]);
            if side.is_nan() || side >= 0.0 {
                continue;
            }
            let v = vertices[e.vertices[0] as usize];
            let along = vertices[e.vertices[1] as usize] - v;
            let g = edges[k];
            let l = along.cross(g);
            let ll = l.length_squared();
            if ll.is_nan() || ll <= DEGENERATE_AXIS * along.length_squared() * g.length_squared() {
                continue;
            }
            let l = if l.dot(x) < 0.0 { -l } else { l } / ll.sqrt();
            if !least.take(l.dot(v - p[k]), -l, margin) {
                return None;
            }
        }
    }
    Some(least)
}

/// The witnesses of hull and triangle `p` (in the hull's frame) overlapping by `depth` along
/// `n` (from the triangle toward the hull): [`feature_witnesses`] of the hull's feature
/// deepest along `−n`: its support vertex, the edge to a neighbour as deep (within
/// `FEATURE_EPS` of the hull's size), or the face most turned toward `−n` when more are.
fn witnesses(hull: &ConvexHull, p: &[Vec3; 3], n: Vec3, depth: f32) -> (Vec3, Vec3) {
    let vertices = hull.vertices();
    let deepest = hull.support_index(-n);
    let base = n.dot(vertices[deepest]);
    let tie = FEATURE_EPS * 2.0 * hull.outer_ball().1;
    let level = |i: u32| n.dot(vertices[i as usize]) <= base + tie;
    let mut ties = hull
        .neighbours(deepest)
        .iter()
        .copied()
        .filter(|&i| level(i));
    let feature: ([Vec3; 2], usize) = match (ties.next(), ties.next()) {
        (None, _) => ([vertices[deepest]; 2], 1),
        (Some(i), None) => ([vertices[deepest], vertices[i as usize]], 2),
        (Some(_), Some(_)) => {
            let f = hull.most_aligned_face(-n);
            let corners = hull.face_vertices(f);
            let mut face = [Vec3::ZERO; MAX_FACE];
            let count = corners.len().min(MAX_FACE);
            for (slot, &i) in face.iter_mut().zip(corners) {
                *slot = vertices[i as usize];
            }
            return feature_witnesses(&face[..count], p, n, depth);
        }
    };
    feature_witnesses(&feature.0[..feature.1], p, n, depth)
}

/// Corners of a hull face used as a contact feature (a face with more keeps its first ones:
/// the clipped edge is then a little short, never outside the face).
const MAX_FACE: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Mat3, Quat};
    use collide_testkit::Gen;

    fn cube(half: f32) -> ConvexHull {
        let mut points = Vec::new();
        for k in 0..8 {
            let s = |bit: i32| if k & bit == 0 { -half } else { half };
            points.push(Vec3::new(s(1), s(2), s(4)));
        }
        ConvexHull::try_new(&points).unwrap()
    }

    #[test]
    fn a_cube_sunk_into_a_big_triangle_gets_the_face_normal_and_depth() {
        let hull = cube(0.5);
        let h = Posed::new(&hull, Quat::IDENTITY, Vec3::new(0.0, 0.4, 0.0));
        let tri = [
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(10.0, 0.0, -10.0),
        ];
        let c = hull_contact(&h, &tri, 0.0).unwrap();
        assert!((c.normal - Vec3::Y).length() < 1e-6, "{c:?}");
        assert!((c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert!((c.point_a - c.point_b - c.normal * c.depth).length() < 1e-5);
    }

    #[test]
    fn random_overlaps_agree_with_gjk_and_epa() {
        // Every pair the separating axes find overlapping: the same depth as EPA's (within
        // its tolerance) and a normal along which the depth is really the overlap.
        let mut g = Gen::new(5);
        let mut compared = 0;
        for _ in 0..2000 {
            let points: Vec<Vec3> = (0..16).map(|_| g.vec(1.0)).collect();
            let Ok(hull) = ConvexHull::try_new(&points) else {
                continue;
            };
            let h = Posed::new(&hull, g.quat(), g.vec(0.5));
            let tri = [g.vec(1.5), g.vec(1.5), g.vec(1.5)];
            let sat = hull_contact(&h, &tri, 0.0);
            let tri_shape = Triangle::new(tri[0], tri[1], tri[2]);
            let epa = crate::convex::contact::contact(&tri_shape, &h, 0.0);
            match (sat, epa) {
                (Some(s), Some(e)) => {
                    if s.depth > 1e-4 && e.depth > 1e-4 {
                        compared += 1;
                        assert!((s.depth - e.depth).abs() < 1e-4, "{s:?} vs {e:?}");
                        // The hull moved by the depth along the normal just touches.
                        let moved = Posed {
                            translation: h.translation + s.normal * (s.depth + 1e-4),
                            ..h
                        };
                        assert!(crate::convex::contact::contact(&tri_shape, &moved, 0.0)
                            .is_none_or(|c| c.depth < 1e-5));
                    }
                }
                (None, None) => {}
                (s, e) => {
                    let depth = s.or(e).map_or(0.0, |c| c.depth);
                    assert!(depth.abs() < 1e-4, "{s:?} vs {e:?}");
                }
            }
        }
        assert!(compared > 300, "only {compared} overlaps compared");
    }

    #[test]
    fn nan_and_flat_input_give_no_panic_and_finite_answers() {
        let hull = cube(0.5);
        let tri = [Vec3::ZERO, Vec3::X, Vec3::Z];
        for h in [
            Posed::new(&hull, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ZERO),
            Posed::new(&hull, Quat::IDENTITY, Vec3::NAN),
            Posed {
                shape: &hull,
                rotation: Mat3::IDENTITY,
                translation: Vec3::ZERO,
            },
        ] {
            for t in [tri, [Vec3::ZERO, Vec3::X, Vec3::X * 2.0], [Vec3::NAN; 3]] {
                if let Some(c) = hull_contact(&h, &t, 0.1) {
                    assert!(c.depth.is_finite() && c.normal.is_finite());
                }
            }
        }
    }
}
