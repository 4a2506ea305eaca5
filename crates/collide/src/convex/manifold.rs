//! Contact manifolds of two convex polyhedra: up to 4 points, from the SAT axis.
//!
//! When the least-overlapping axis is a face normal, that face is the reference face and the
//! other shape's face most opposed to it the incident face; the incident polygon is clipped to
//! the reference face's side planes (Sutherland–Hodgman) and its points below the reference
//! plane are the contacts, reduced to the 4 that span the largest area. When an edge pair's
//! axis is clearly better, the contact is the closest pair of points of the two edges
//! (Gregorius, *Robust Contact Creation for Physics Simulations*, GDC 2015; Box2D v3
//! `b2ClipPolygons`; Ericson, RTCD §5.5).
//!
//! # Example
//!
//! ```rust
//! use collide::convex::manifold::contact_manifold;
//! use collide::convex::{ConvexPolyhedron, SepCache};
//! use collide::{Quat, Vec3};
//!
//! // A crate sunk 5 cm into a floor slab whose top is at y = 0.
//! let floor = ConvexPolyhedron::cuboid(Vec3::new(5.0, 0.5, 5.0))?
//!     .with_pose(Quat::IDENTITY, Vec3::new(0.0, -0.5, 0.0));
//! let crate_box = ConvexPolyhedron::cuboid(Vec3::splat(0.5))?
//!     .with_pose(Quat::IDENTITY, Vec3::new(0.0, 0.45, 0.0));
//! let m = contact_manifold(&floor, &crate_box, &mut SepCache::default()).unwrap();
//! assert!((m.normal - Vec3::Y).length() < 1e-6);
//! // The crate's four bottom corners, each 5 cm deep.
//! assert_eq!(m.points().len(), 4);
//! for p in m.points() {
//!     assert!((p.depth - 0.05).abs() < 1e-5);
//!     assert!((p.point.x.abs() - 0.5).abs() < 1e-5 && (p.point.z.abs() - 0.5).abs() < 1e-5);
//! }
//! # Ok::<(), collide::convex::HullError>(())
//! ```

use super::epa;
use super::polyhedron::ConvexPolyhedron;
use super::sat::{sat_detail, SatResult, SepCache};
use crate::closest::segment_segment;
use crate::math::Vec3;
use crate::shapes::Plane;
use crate::shapes::Segment;
use std::cell::RefCell;

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint {
    /// World point halfway between the two surfaces.
    pub point: Vec3,
    /// Penetration at this point along the manifold normal, `>= 0` (0 when touching).
    pub depth: f32,
}

/// A contact between two shapes: one unit normal from A toward B, the depth along it, and 1
/// to 4 points. What [`contact_manifold`] gives for two polyhedra and what the world's
/// [`ContactEvent`](crate::world::ContactEvent)s carry for every pair of geometry kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Manifold {
    /// World unit normal from A toward B (for two polyhedra: the reference face's normal, or
    /// the edge axis).
    pub normal: Vec3,
    /// Penetration along `normal`, `>= 0` (0 touching): moving B by `depth · normal`
    /// separates the shapes; at least every point's depth.
    pub depth: f32,
    points: [ContactPoint; 4],
    len: u8,
}

impl Manifold {
    /// A manifold of one point at the manifold's depth (a negative depth counts as 0).
    pub(crate) fn one(normal: Vec3, depth: f32, point: Vec3) -> Manifold {
        let depth = depth.max(0.0);
        Manifold {
            normal,
            depth,
            points: [ContactPoint { point, depth }; 4],
            len: 1,
        }
    }

    /// A manifold of the first four of `points` (at least one), the first repeated in the
    /// unused slots.
    pub(crate) fn of_points(normal: Vec3, depth: f32, points: &[ContactPoint]) -> Manifold {
        let mut m = Manifold {
            normal,
            depth: depth.max(0.0),
            points: [points[0]; 4],
            len: 1,
        };
        for &p in &points[1..points.len().min(4)] {
            m.push(p);
        }
        m
    }

    /// The contact points (1 to 4).
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.len as usize]
    }

    /// The same contact seen from B: normal reversed, same depth and points.
    #[must_use]
    pub fn flipped(self) -> Manifold {
        Manifold {
            normal: -self.normal,
            ..self
        }
    }

    /// The manifold with every point and depth finite: a coordinate that overflowed to `±inf`
    /// (a midpoint or a projection computed near `±f32::MAX`, where the true value is still in
    /// range) becomes `±f32::MAX`, a NaN one `0`; a NaN depth becomes `0`. Shapes within the
    /// finite range keep their exact manifold.
    pub(crate) fn finite(mut self) -> Manifold {
        let fix = |x: f32| {
            if x.is_nan() {
                0.0
            } else {
                x.clamp(-f32::MAX, f32::MAX)
            }
        };
        for p in &mut self.points {
            p.point = Vec3::new(fix(p.point.x), fix(p.point.y), fix(p.point.z));
            p.depth = fix(p.depth).max(0.0);
        }
        self.depth = fix(self.depth).max(0.0);
        self
    }

    fn push(&mut self, p: ContactPoint) {
        if (self.len as usize) < 4 {
            self.points[self.len as usize] = p;
            self.len += 1;
        }
    }
}

/// The contact manifold of two convex polyhedra, or `None` when a plane separates them.
///
/// Touching shapes give points of depth 0; overlapping ones up to 4 points halfway between
/// the surfaces. The normal is the SAT's minimum-translation axis, except that a face of A,
/// then a face of B, is preferred over a better axis when within 5% of the depth plus `1e-3`
/// of the shapes' size of it, which keeps manifolds steady from frame to frame (Gregorius
/// 2015). The cache is [`sat_cached`](super::sat_cached)'s. NaN
/// poses give `None`.
#[must_use]
pub fn contact_manifold(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    cache: &mut SepCache,
) -> Option<Manifold> {
    let detail = sat_detail(a, b, cache);
    let SatResult::Penetrating { .. } = detail.result else {
        return None;
    };
    let size = a.hull.largest_norm().max(b.hull.largest_norm());
    let slack = |sep: f32| 0.05 * sep.abs() + 1e-3 * size;
    let (sa, fa) = detail.face_a;
    let (sb, fb) = detail.face_b;
    let (se, ei, ej, axis) = detail.edge;
    // Prefer face A, then face B, then the edge pair, among the axes within the slack of
    // the best (the minimum translation), so the manifold depth stays within it.
    let best = sa.max(sb).max(se);
    let good = |sep: f32| sep >= best - slack(best);
    if good(sa) {
        face_contact(a, fa as usize, b, false, -sa, detail.witness)
    } else if good(sb) {
        face_contact(b, fb as usize, a, true, -sb, detail.witness)
    } else if let Some((pa, pb)) = detail.witness {
        // The overlap fast path's EPA axis: one point halfway between the deepest points.
        let normal = (a.rotation * axis).normalize_or_zero();
        Some(Manifold::one(normal, -se, (pa + pb) * 0.5))
    } else {
        Some(edge_contact(a, b, ei as usize, ej as usize, axis, se))
    }
}

/// The single contact of an edge–edge axis: the midpoint of the edges' closest points.
fn edge_contact(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    ei: usize,
    ej: usize,
    axis: Vec3,
    sep: f32,
) -> Manifold {
    let e1 = a.hull.edges()[ei].vertices;
    let e2 = b.hull.edges()[ej].vertices;
    let seg_a = Segment::new(
        a.to_world(a.hull.vertices()[e1[0] as usize]),
        a.to_world(a.hull.vertices()[e1[1] as usize]),
    );
    let seg_b = Segment::new(
        b.to_world(b.hull.vertices()[e2[0] as usize]),
        b.to_world(b.hull.vertices()[e2[1] as usize]),
    );
    let pair = segment_segment(&seg_a, &seg_b);
    let depth = (-sep).max(0.0);
    let mut m = Manifold {
        normal: (a.rotation * axis).normalize_or_zero(),
        depth,
        ..Manifold::default()
    };
    m.push(ContactPoint {
        point: (pair.on_first + pair.on_second) * 0.5,
        depth,
    });
    m
}

/// Clips the incident face of `inc` against reference face `rf` of `reference`. `flipped`:
/// the reference shape is B, so the manifold normal is the reference normal reversed.
/// `witness`: the deepest points of the two shapes when the query already has them (EPA),
/// for the one-point answer when nothing of the incident face is in the overlap.
// One piece: choosing the incident face, clipping it and keeping its points share the reference
// polygon, on the contact hot path.
fn face_contact(
    reference: &ConvexPolyhedron,
    rf: usize,
    inc: &ConvexPolyhedron,
    flipped: bool,
    axis_depth: f32,
    witness: Option<(Vec3, Vec3)>,
) -> Option<Manifold> {
    let plane = reference.face_plane(rf);
    let n = plane.normal;
    // Incident face: among the faces of the other shape that hold its deepest vertex (its
    // support point along −n), the one whose normal is most opposed to n. (The face most
    // opposed overall may miss the deepest vertex on a hull with many faces.)
    let n_inc_local = inc.rotation.transpose() * n;
    let deepest = inc.support_index_local(-n_inc_local) as u32;
    // Usually the face most opposed overall holds the deepest vertex, and is then the answer
    // (the same first of ties: `f · (−n)` is exactly `−(f · n)`).
    let most_opposed = inc.hull.most_aligned_face(-n_inc_local);
    let inc_face = if inc.hull.face_vertices(most_opposed).contains(&deepest) {
        most_opposed
    } else {
        (0..inc.hull.faces().len())
            .filter(|&f| inc.hull.face_vertices(f).contains(&deepest))
            .map(|f| (inc.hull.faces()[f].plane.normal.dot(n_inc_local), f))
            .fold(
                (f32::INFINITY, 0),
                |best, x| if x.0 < best.0 { x } else { best },
            )
            .1
    };
    crate::scratch::with(&CLIP_LISTS, |lists| {
        let ClipLists {
            poly,
            next,
            ref_pts,
            candidates,
        } = lists;
        poly.clear();
        poly.extend(
            inc.hull
                .face_vertices(inc_face)
                .iter()
                .map(|&v| inc.to_world(inc.hull.vertices()[v as usize])),
        );
        ref_pts.clear();
        ref_pts.extend(
            reference
                .hull
                .face_vertices(rf)
                .iter()
                .map(|&v| reference.to_world(reference.hull.vertices()[v as usize])),
        );
        clip_and_keep(
            (reference, &plane, ref_pts),
            (inc, deepest, axis_depth, witness),
            (poly, next, candidates),
        )?;
        let mut m = Manifold {
            normal: if flipped { -n } else { n },
            depth: axis_depth.max(0.0),
            ..Manifold::default()
        };
        reduce(candidates, n, &mut m);
        Some(m)
    })
}

/// The lists [`face_contact`] clips in: the incident polygon and its next clipped form, the
/// reference polygon, and the contact candidates.
#[derive(Default)]
struct ClipLists {
    poly: Vec<Vec3>,
    next: Vec<Vec3>,
    ref_pts: Vec<Vec3>,
    candidates: Vec<ContactPoint>,
}

thread_local! {
    /// Each thread's clipping lists ([`crate::scratch`]).
    static CLIP_LISTS: RefCell<ClipLists> = RefCell::new(ClipLists::default());
}

/// Clips the incident polygon `poly` to the reference polygon `ref_pts` (on `plane`, normal
/// `n` out of the reference shape) and keeps in `candidates` the points in the overlap; with
/// none there, one point between the shapes' deepest points. `None` when that point is not
/// finite.
fn clip_and_keep(
    (reference, plane, ref_pts): (&ConvexPolyhedron, &Plane, &[Vec3]),
    (inc, deepest, axis_depth, witness): (&ConvexPolyhedron, u32, f32, Option<(Vec3, Vec3)>),
    (poly, next, candidates): (&mut Vec<Vec3>, &mut Vec<Vec3>, &mut Vec<ContactPoint>),
) -> Option<()> {
    let n = plane.normal;
    // Sutherland–Hodgman against each side plane of the reference polygon. For an edge
    // r_k → r_k+1 of a polygon counter-clockwise about n, (r_k+1 − r_k) × n points out of it.
    for k in 0..ref_pts.len() {
        let (r0, r1) = (ref_pts[k], ref_pts[(k + 1) % ref_pts.len()]);
        let side = (r1 - r0).cross(n);
        next.clear();
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let (dp, dq) = (side.dot(p - r0), side.dot(q - r0));
            if dp <= 0.0 {
                next.push(p);
            }
            // The edge crosses the side plane: add the crossing, p + (q − p) dp / (dp − dq).
            if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
                next.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
        std::mem::swap(poly, next);
        if poly.is_empty() {
            break;
        }
    }
    // Keep the points on or below the reference plane and inside the reference shape (a hair
    // of round-off allowed), moved halfway to the plane. A deep incident point can pass
    // beyond a thin reference shape's other faces; it is not in the overlap, so it goes.
    let size = ref_pts
        .iter()
        .fold(0.0_f32, |m, p| m.max(p.abs().max_element()));
    let slop = 1e-5 * size.max(1e-30);
    candidates.clear();
    candidates.extend(poly.iter().filter_map(|&p| {
        let sep = plane.signed_distance(p);
        // The plane test first: the test against every face of the reference shape runs only
        // for the points below the reference face.
        let kept = sep <= slop
            && sep.is_finite()
            && reference.hull.contains_point(reference.to_local(p), slop);
        kept.then(|| ContactPoint {
            point: p - n * (0.5 * sep),
            depth: (-sep).max(0.0),
        })
    }));
    if candidates.is_empty() {
        // Nothing of the incident face lies in the overlap: one point halfway between the
        // deepest points of the two shapes (EPA), or the incident shape's deepest vertex.
        let depth = axis_depth.max(0.0);
        let deepest_pair =
            witness.or_else(|| epa::penetration(reference, inc).map(|p| (p.point_a, p.point_b)));
        let point = match deepest_pair {
            Some((pa, pb)) => (pa + pb) * 0.5,
            None => {
                let v = inc.hull.vertices()[deepest as usize];
                let p = inc.to_world(v);
                p - n * (0.5 * plane.signed_distance(p))
            }
        };
        if !point.is_finite() {
            return None;
        }
        candidates.push(ContactPoint { point, depth });
    }
    Some(())
}

/// At most 4 of `pts` spanning the largest area: the deepest, the farthest from it, the one
/// making the largest triangle with those, and the one farthest outside that triangle
/// (Gregorius 2015).
fn reduce(pts: &[ContactPoint], n: Vec3, out: &mut Manifold) {
    if pts.len() <= 4 {
        pts.iter().for_each(|&p| out.push(p));
        return;
    }
    let argmax = |f: &dyn Fn(&ContactPoint) -> f32| {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, p) in pts.iter().enumerate() {
            let v = f(p);
            if v > best.0 {
                best = (v, i);
            }
        }
        best
    };
    let i1 = argmax(&|p| p.depth).1;
    let p1 = pts[i1].point;
    let i2 = argmax(&|p| (p.point - p1).length_squared()).1;
    let p2 = pts[i2].point;
    // Signed area about n: ((b − a) × (c − a)) · n.
    let area = |a: Vec3, b: Vec3, c: Vec3| (b - a).cross(c - a).dot(n);
    let (a3, i3) = argmax(&|p| area(p1, p2, p.point).abs());
    let p3 = pts[i3].point;
    if a3 <= 0.0 {
        out.push(pts[i1]);
        if i2 != i1 {
            out.push(pts[i2]);
        }
        return;
    }
    for i in [i1, i2, i3] {
        out.push(pts[i]);
    }
    // Orient the triangle counter-clockwise about n, then the point most outside an edge.
    let (q1, q2, q3) = if area(p1, p2, p3) > 0.0 {
        (p1, p2, p3)
    } else {
        (p1, p3, p2)
    };
    let (outside, i4) = argmax(&|p| {
        -(area(q1, q2, p.point)
            .min(area(q2, q3, p.point))
            .min(area(q3, q1, p.point)))
    });
    if outside > 0.0 {
        out.push(pts[i4]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;

    fn boxed(half: Vec3, rot: Quat, pos: Vec3) -> ConvexPolyhedron {
        ConvexPolyhedron::cuboid(half).unwrap().with_pose(rot, pos)
    }

    #[test]
    fn box_resting_on_a_slab_has_four_corners() {
        // A unit cube turned 0.3 rad about y sinks 0.1 into a wide slab: its 4 bottom corners.
        let ground = boxed(Vec3::new(5.0, 0.5, 5.0), Quat::IDENTITY, Vec3::ZERO);
        let cube = boxed(Vec3::ONE, Quat::from_rotation_y(0.3), Vec3::Y * 1.4);
        let m = contact_manifold(&ground, &cube, &mut SepCache::default()).unwrap();
        assert_near!(m.normal, Vec3::Y);
        assert_near!(m.depth, 0.1, 1e-5);
        assert_eq!(m.points().len(), 4);
        for p in m.points() {
            assert_near!(p.depth, 0.1, 1e-5);
            assert_near!(p.point.y, 0.45, 1e-5);
            let local = cube.to_local(p.point);
            assert_near!(local.x.abs(), 1.0, 1e-5);
            assert_near!(local.z.abs(), 1.0, 1e-5);
        }
    }

    #[test]
    fn overhanging_box_is_clipped_to_the_reference_face() {
        // The cube hangs over the slab's +x edge at x = 5: contacts stop at x = 5.
        let ground = boxed(Vec3::new(5.0, 0.5, 5.0), Quat::IDENTITY, Vec3::ZERO);
        let cube = boxed(Vec3::ONE, Quat::IDENTITY, Vec3::new(5.0, 1.45, 0.0));
        let m = contact_manifold(&ground, &cube, &mut SepCache::default()).unwrap();
        assert_eq!(m.points().len(), 4);
        for p in m.points() {
            assert!(p.point.x >= 4.0 - 1e-5 && p.point.x <= 5.0 + 1e-5, "{p:?}");
        }
    }

    #[test]
    fn reference_on_b_flips_the_normal() {
        // Small box A pressed into the big box B from above: normal from A to B is −y.
        let small = boxed(Vec3::splat(0.5), Quat::IDENTITY, Vec3::Y * 0.95);
        let big = boxed(Vec3::new(5.0, 0.5, 5.0), Quat::IDENTITY, Vec3::ZERO);
        let m = contact_manifold(&small, &big, &mut SepCache::default()).unwrap();
        assert_near!(m.normal, -Vec3::Y);
        assert_near!(m.depth, 0.05, 1e-5);
        assert_eq!(m.points().len(), 4);
    }

    #[test]
    fn crossed_edges_give_one_point() {
        // Cubes turned 45° about z and about x meet edge to edge, overlapping by 0.1.
        let s2 = std::f32::consts::SQRT_2;
        let a = boxed(
            Vec3::ONE,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ZERO,
        );
        let b = boxed(
            Vec3::ONE,
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_4),
            Vec3::Y * (2.0 * s2 - 0.1),
        );
        let m = contact_manifold(&a, &b, &mut SepCache::default()).unwrap();
        assert_eq!(m.points().len(), 1);
        assert_near!(m.normal, Vec3::Y, 1e-5);
        assert_near!(m.depth, 0.1, 1e-5);
        assert_near!(m.points()[0].point, Vec3::Y * (s2 - 0.05), 1e-5);
    }

    #[test]
    fn separated_is_none_touching_is_zero_depth() {
        // 0.01 apart: None; exactly touching: points of depth 0.
        let a = boxed(Vec3::ONE, Quat::IDENTITY, Vec3::ZERO);
        let far = boxed(Vec3::ONE, Quat::IDENTITY, Vec3::X * 2.01);
        assert!(contact_manifold(&a, &far, &mut SepCache::default()).is_none());
        let touch = boxed(Vec3::ONE, Quat::IDENTITY, Vec3::X * 2.0);
        let m = contact_manifold(&a, &touch, &mut SepCache::default()).unwrap();
        assert_eq!(m.depth, 0.0);
        assert_eq!(m.points().len(), 4);
    }
}
