//! Contacts of a convex shape with a mesh or heightfield, one per triangle, with the
//! internal-edge correction.
//!
//! Each triangle near the shape is tested on its own: boxes and hulls by separating axes
//! (exact, with the Gauss map pruning a hull's edge pairs), spheres by the triangle's closest
//! point, other shapes by GJK on the shape's core with EPA inside
//! ([`crate::convex::contact`]). The triangle's feature where the contact lies (the face, an
//! edge or a corner: the triangle's supporting feature along the contact normal, which holds
//! the contact's witness on the triangle) then decides which normals the surface can really
//! have there:
//! - the face: the face normal, on the shape's side;
//! - an edge whose neighbour is flat or bends toward the shape (an internal or concave edge
//!   seen from the shape's side): the face normal too, since the surface has no edge there;
//! - a convex edge: the normals between the two faces' normals (the edge's normal cone); a
//!   normal outside the cone is moved to the nearer face normal;
//! - a corner whose two edges on this triangle are both flat or concave: the face normal;
//! - a border edge or any other corner: the contact as found.
//!
//! When the normal changes, the depth is measured again along the new normal against the
//! plane of the face it came from: `depth = m·q − m·s(−m)`, with `s` the shape's support
//! point and `q` a point of the plane. A shape that lies wholly beyond that plane (by more
//! than the margin) has no contact with this triangle: its touch was a ghost of the edge. A
//! shape apart from the triangle (within the margin) keeps at most its found (negative)
//! depth: a triangle it does not reach is not penetrated along any normal. Apart at an edge
//! or corner where the surface goes on flat, it gets no contact from this triangle: the flat
//! neighbours report what it meets there.
//!
//! The feature is read from the normal, not from where the witness lies in it: where a
//! shape's face or edge lies along a triangle's edge, the witness could be anywhere on that
//! edge (either end, or just past one by rounding), and every path that finds the same normal
//! must give one answer. This is the approach of Bullet's `btInternalEdgeUtility` and Jolt's
//! internal edge removal, done with precomputed edge flags per triangle.

use super::box_triangle::{toward_box, witnesses, BoxTriangle};
use super::{hull_triangle, EdgeBend, TriangleSet};
use crate::closest;
use crate::convex::support::unit_or_zero;
use crate::convex::{Contact, ConvexHull, Posed, SupportMap};
use crate::math::Vec3;
use crate::shapes::{Aabb, Obb, Sphere, Triangle};
use glam::{DVec3, Vec3A};

/// Sine of the angle within which a contact normal counts as the face normal, or as
/// perpendicular to an edge (the edge is then part of the contact's feature).
const FEATURE_TOLERANCE: f32 = 1e-4;

/// A convex shape's contact with one triangle of a mesh or heightfield.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshContact {
    /// The triangle.
    pub triangle: u32,
    /// Unit normal from the mesh toward the shape: moving the shape by `depth · normal`
    /// separates it from the triangle's surface.
    pub normal: Vec3,
    /// Penetration depth: `> 0` overlapping, `0` touching, `< 0` apart by `-depth` (only
    /// within the query's margin).
    pub depth: f32,
    /// A point halfway between the two surfaces.
    pub point: Vec3,
}

/// The box of a convex shape from its support points along the six axis directions (for a
/// placed hull, the same points found in one pass: [`hull_box`]); `None` when it is not
/// finite.
pub(crate) fn support_box<S: SupportMap + ?Sized>(shape: &S) -> Option<Aabb> {
    if let Some(h) = shape.as_hull() {
        return hull_box(&h);
    }
    let hi = Vec3::new(
        shape.support(Vec3::X).x,
        shape.support(Vec3::Y).y,
        shape.support(Vec3::Z).z,
    );
    let lo = Vec3::new(
        shape.support(Vec3::NEG_X).x,
        shape.support(Vec3::NEG_Y).y,
        shape.support(Vec3::NEG_Z).z,
    );
    let b = Aabb { min: lo, max: hi };
    (b.is_finite() && lo.cmple(hi).all()).then_some(b)
}

/// The box of a posed hull: its vertices placed in the world in one pass (six support scans
/// would each rotate and scan them), the extremes of the same `R v + t` the support points
/// are; `None` when it is not finite.
fn hull_box(h: &Posed<&ConvexHull>) -> Option<Aabb> {
    let (r, t) = (h.rotation, Vec3A::from(h.translation));
    let columns = [r.x_axis, r.y_axis, r.z_axis].map(Vec3A::from);
    let (mut lo, mut hi) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY);
    // Lane minima and maxima skip a NaN, so NaN is looked for on its own.
    let mut nan = glam::BVec3A::FALSE;
    for v in h.shape.vertices() {
        let w = columns[0] * v.x + columns[1] * v.y + columns[2] * v.z + t;
        nan |= w.cmpne(w);
        lo = lo.min(w);
        hi = hi.max(w);
    }
    let b = Aabb {
        min: lo.into(),
        max: hi.into(),
    };
    (!nan.any() && b.is_finite() && lo.cmple(hi).all()).then_some(b)
}

/// Every triangle's corrected contact with `shape`, appended to `out` (see the module docs).
pub(crate) fn contacts<T, S>(set: &T, shape: &S, margin: f32, out: &mut Vec<MeshContact>)
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    if margin.is_nan() {
        return;
    }
    let margin = margin.max(0.0);
    let Some(bounds) = support_box(shape) else {
        return;
    };
    let near = bounds.expanded(margin);
    let reach = bounds.size().length();
    let boxed = shape.as_obb().filter(Obb::is_finite);
    let ball = shape
        .as_sphere()
        .filter(|b| b.center.is_finite() && b.radius.is_finite() && b.radius >= 0.0);
    let hull = shape.as_hull().filter(hull_triangle::takes);
    // A ball's triangles wait in fours, whose closest points are found at once.
    let mut waiting = BallBatch::default();
    set.for_each_near(&near, &mut |i| {
        if let Some(c) = set.corners(i) {
            // The tree gives leaves: each triangle's own box is checked before GJK.
            let (lo, hi) = (c[0].min(c[1]).min(c[2]), c[0].max(c[1]).max(c[2]));
            if lo.cmpgt(near.max).any() || hi.cmplt(near.min).any() {
                return true;
            }
            // The shape wholly on one side of the triangle's plane (beyond the margin)
            // cannot touch it: two support points (a ball: its centre) instead of GJK.
            // A relative slack keeps shapes touching to rounding (GJK's touching tolerance).
            let n = set.face_normal(i);
            let offset = n.dot(c[0]);
            let slack = margin + 1e-5 * (offset.abs() + reach);
            let clear = match &ball {
                // A ball: its centre farther than the radius from the triangle's box or plane.
                Some(b) => {
                    let r = b.radius + slack;
                    let outside = (lo - b.center).max(b.center - hi).max(Vec3::ZERO);
                    outside.length_squared() > r * r || (n.dot(b.center) - offset).abs() > r
                }
                None => {
                    n.dot(shape.support(-n)) > offset + slack
                        || n.dot(shape.support(n)) < offset - slack
                }
            };
            if clear {
                return true;
            }
            let tri = Triangle::new(c[0], c[1], c[2]);
            let found = match (&boxed, &ball, &hull) {
                (Some(b), _, _) => box_contact(b, &c, margin),
                (None, Some(b), _) => {
                    waiting.push(i, c);
                    if waiting.len == BALL_BATCH {
                        waiting.take(set, b, shape, margin, out);
                    }
                    return true;
                }
                (None, None, Some(h)) => hull_triangle::hull_contact(h, &c, margin),
                (None, None, None) => crate::convex::contact::contact(&tri, shape, margin),
            };
            if let Some(found) = found {
                if let Some(m) = corrected(set, i, &c, shape, &found, margin) {
                    out.push(m);
                }
            }
        }
        true
    });
    if let (None, Some(b)) = (&boxed, &ball) {
        waiting.take(set, b, shape, margin, out);
    }
}

/// Triangles of a ball's contacts waiting for their closest points.
#[derive(Default)]
struct BallBatch {
    items: [(u32, [Vec3; 3]); BALL_BATCH],
    len: usize,
}

/// Triangles whose closest points to a ball's centre are found at once.
const BALL_BATCH: usize = 4;

impl BallBatch {
    /// Adds triangle `i` of corners `c` (there is room: the caller takes a full batch).
    fn push(&mut self, i: u32, c: [Vec3; 3]) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = (i, c);
            self.len += 1;
        }
    }

    /// The contacts of ball `b` (the shape `shape`) with the waiting triangles, in the order
    /// they came, corrected and pushed to `out` as one by one; the batch is then empty. The
    /// closest points come four at a time ([`closest::point_triangle_shapely4`]: the same
    /// points as [`closest::point_triangle_shapely`]).
    fn take<T, S>(
        &mut self,
        set: &T,
        b: &Sphere,
        shape: &S,
        margin: f32,
        out: &mut Vec<MeshContact>,
    ) where
        T: TriangleSet + ?Sized,
        S: SupportMap + ?Sized,
    {
        let Some(last) = self.len.checked_sub(1) else {
            return;
        };
        let corners = [0, 1, 2, 3].map(|k| self.items[k.min(last)].1);
        let closest = closest::point_triangle_shapely4(b.center, &corners);
        for (&(i, c), q) in self.items[..self.len].iter().zip(closest) {
            // A triangle that is not shapely: the one-triangle walk, which takes the `f64` one.
            let q = q.unwrap_or_else(|| {
                closest::point_triangle_shapely(b.center, &Triangle::new(c[0], c[1], c[2]))
            });
            if let Some(found) = sphere_contact(b, q, set.face_normal(i), margin) {
                if let Some(m) = corrected(set, i, &c, shape, &found, margin) {
                    out.push(m);
                }
            }
        }
        self.len = 0;
    }
}

/// The contact of box `b` with triangle `c` within `margin`, as
/// [`crate::convex::contact::contact`] gives it (triangle as A), by separating axes
/// ([`BoxTriangle`]): the largest separation over the 13 axes is `> 0` exactly when they are
/// apart. Apart by more than `margin` on one axis: `None` at once. Touching or overlapping:
/// the least overlap over the axes is the penetration depth (the distance from the origin to
/// the boundary of the Minkowski difference, whose face normals the axes are), its axis the
/// normal, and the witnesses come from the features along it ([`witnesses`]). Apart within
/// the margin: the separation on an axis only bounds the distance, so GJK measures it.
fn box_contact(b: &Obb, c: &[Vec3; 3], margin: f32) -> Option<Contact> {
    let pair = BoxTriangle::new(b, c);
    let margin64 = f64::from(margin);
    let mut best = (f64::NEG_INFINITY, DVec3::ZERO, 0.0);
    for &l in pair.axes() {
        let (s, reach) = pair.project(l);
        let gap = (s.abs() - reach) / l.length();
        if gap > margin64 {
            return None;
        }
        if gap > best.0 {
            best = (gap, l, s);
        }
    }
    let (gap, l, s) = best;
    // Apart within the margin, or a NaN separation: GJK decides.
    if gap.is_nan() || gap > 0.0 {
        let tri = Triangle::new(c[0], c[1], c[2]);
        return crate::convex::contact::contact(&tri, b, margin);
    }
    let normal = toward_box(l, s, 0.0).as_vec3();
    let depth = (-gap) as f32;
    let (point_a, point_b) = witnesses(b, c, normal, depth);
    let found = Contact {
        normal,
        depth,
        point_a,
        point_b,
    };
    let finite = depth.is_finite() && point_a.is_finite() && point_b.is_finite();
    (finite && normal.is_finite()).then_some(found)
}

/// The contact of sphere `b` with a triangle (unit face normal `face`) within `margin`, as
/// [`crate::convex::contact::contact`] gives it (triangle as A), given the triangle's point `q`
/// closest to the centre ([`closest::point_triangle_shapely`]): `q` is the witness on the
/// triangle, the normal runs from `q` to the centre and the depth is the radius less their
/// distance. A centre on the triangle takes the face normal.
fn sphere_contact(b: &Sphere, q: Vec3, face: Vec3, margin: f32) -> Option<Contact> {
    let d = b.center - q;
    let distance = d.length();
    if distance.is_nan() || distance - b.radius > margin {
        return None;
    }
    // `d / |d|` by one reciprocal where `|d|` is far from underflow (its square a normal
    // `f32`), else scaled first by `unit_or_zero`; a centre on the triangle takes the face.
    let normal = if distance >= 1e-15 {
        d * distance.recip()
    } else {
        match unit_or_zero(d) {
            n if n == Vec3::ZERO => face,
            n => n,
        }
    };
    let depth = b.radius - distance;
    let found = Contact {
        normal,
        depth,
        point_a: q,
        point_b: b.center - normal * b.radius,
    };
    (depth.is_finite() && found.point_a.is_finite() && found.point_b.is_finite()).then_some(found)
}

/// One triangle's contact after the internal-edge correction, or `None` when it was a ghost.
///
/// A triangle the shape does not reach (apart within the margin, `found.depth < 0`) is not
/// penetrated along any normal: the shape must move at least its gap toward the triangle to
/// touch it, so where the surface leaves the triangle's plane the corrected depth is never
/// more than the found one. Without this bound a shape apart from a concave edge would get the
/// plane's depth, a deep contact with a triangle it does not touch. Over the face the plane's
/// depth is the found one. At a feature whose edges are all flat the surface goes on in the
/// plane: what the shape meets there belongs to the flat neighbours, which report it
/// themselves, so this triangle reports nothing (its plane depth would claim a penetration of
/// a triangle the shape is beside, and a shape beyond the neighbours too would get it from
/// no triangle at all).
fn corrected<T, S>(
    set: &T,
    i: u32,
    c: &[Vec3; 3],
    shape: &S,
    found: &Contact,
    margin: f32,
) -> Option<MeshContact>
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    let (m, surface) = turned_to_surface(set, i, c, shape, found, margin)?;
    if found.depth >= 0.0 || m.depth <= found.depth {
        return Some(m);
    }
    match surface {
        Surface::Face => Some(m),
        Surface::Flat => None,
        Surface::Leaves => Some(MeshContact {
            depth: found.depth,
            point: (found.point_a + found.point_b) * 0.5,
            ..m
        }),
    }
}

/// How the surface goes on at a contact's feature of a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Surface {
    /// The contact is on the face.
    Face,
    /// On an edge or a corner whose edges are all flat: the neighbours go on in the plane.
    Flat,
    /// On an edge or a corner where the surface leaves the plane (or its border).
    Leaves,
}

/// One triangle's contact with its normal turned to what the surface can have at the
/// contact's feature (module docs), the depth measured again along a changed normal; `None`
/// when it was a ghost. Beside it, how the surface goes on at that feature.
fn turned_to_surface<T, S>(
    set: &T,
    i: u32,
    c: &[Vec3; 3],
    shape: &S,
    found: &Contact,
    margin: f32,
) -> Option<(MeshContact, Surface)>
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    let face = set.face_normal(i);
    let n = found.normal;
    // The side of the triangle the shape is on: the contact normal's, or the shape's
    // interior point's when the normal lies in the plane.
    let along = n.dot(face);
    let side = if along != 0.0 {
        along.signum()
    } else if face.dot(shape.interior_point() - c[0]) < 0.0 {
        -1.0
    } else {
        1.0
    };
    let outward = face * side;
    let as_found = MeshContact {
        triangle: i,
        normal: n,
        depth: found.depth,
        point: (found.point_a + found.point_b) * 0.5,
    };
    let on = feature(n, c, face);
    // An edge or a corner is "real" from this side when it is convex from here or a border.
    let real = |k: usize| -> bool {
        match set.edge(i, k).0 {
            EdgeBend::Boundary => true,
            EdgeBend::Flat => false,
            EdgeBend::Convex => side > 0.0,
            EdgeBend::Concave => side < 0.0,
        }
    };
    let flat = |k: usize| set.edge(i, k).0 == EdgeBend::Flat;
    let flat_or_leaves = |all_flat: bool| {
        if all_flat {
            Surface::Flat
        } else {
            Surface::Leaves
        }
    };
    let with = |m: Option<MeshContact>, surface: Surface| m.map(|m| (m, surface));
    match on.iter().filter(|&&x| x).count() {
        // The face.
        0 => with(along_plane(shape, outward, c[0], i, margin), Surface::Face),
        // An edge: corner `j` has no weight, so the edge is `j + 1` to `j + 2`, index `j + 1`.
        1 => {
            let j = on.iter().position(|&x| x).unwrap_or(0);
            let k = (j + 1) % 3;
            if !real(k) {
                let surface = flat_or_leaves(flat(k));
                return with(along_plane(shape, outward, c[0], i, margin), surface);
            }
            let (bend, apex) = set.edge(i, k);
            match (bend, apex) {
                (EdgeBend::Convex | EdgeBend::Concave, Some(apex)) => with(
                    clamp_to_cone(shape, &as_found, outward, c, k, apex, margin),
                    Surface::Leaves,
                ),
                _ => Some((as_found, Surface::Leaves)),
            }
        }
        // A corner: the one weight that is not small.
        2 => {
            let j = on.iter().position(|&x| !x).unwrap_or(0);
            let edges = (j, (j + 2) % 3);
            if !real(edges.0) && !real(edges.1) {
                let surface = flat_or_leaves(flat(edges.0) && flat(edges.1));
                with(along_plane(shape, outward, c[0], i, margin), surface)
            } else {
                Some((as_found, Surface::Leaves))
            }
        }
        _ => Some((as_found, Surface::Leaves)),
    }
}

/// The contact along the unit normal `m` of a plane through `q`: the shape's deepest point
/// along `−m` gives the depth; `None` when the shape lies beyond the plane by more than
/// `margin`.
fn along_plane<S: SupportMap + ?Sized>(
    shape: &S,
    m: Vec3,
    q: Vec3,
    triangle: u32,
    margin: f32,
) -> Option<MeshContact> {
    // A ball's deepest point along `−m` is its centre less the radius along `m` (unit here:
    // a face normal or a unit cone bound), without the general support's renormalising.
    let deepest = match shape.as_sphere() {
        Some(b) => b.center - m * b.radius,
        None => shape.support(-m),
    };
    let depth = m.dot(q - deepest);
    (depth >= -margin && depth.is_finite()).then(|| MeshContact {
        triangle,
        normal: m,
        depth,
        point: deepest + m * (depth * 0.5),
    })
}

/// A contact on the convex edge `k` of triangle `c` (neighbour's far corner `apex`): kept when
/// its normal lies within the edge's normal cone (the arc from the face's outward normal to
/// the neighbour's), otherwise measured along the nearer of the two.
fn clamp_to_cone<S: SupportMap + ?Sized>(
    shape: &S,
    found: &MeshContact,
    outward: Vec3,
    c: &[Vec3; 3],
    k: usize,
    apex: Vec3,
    margin: f32,
) -> Option<MeshContact> {
    let (a, b) = (c[k], c[(k + 1) % 3]);
    // Scaled before normalising (`unit_or_zero`): slivers' cross products underflow.
    let e = unit_or_zero(b - a);
    // The neighbour's outward normal: perpendicular to the edge and its far corner, turned so
    // this triangle's own far corner lies behind it (inside the solid the edge bounds).
    let mut g = unit_or_zero(e.cross(apex - a));
    if g == Vec3::ZERO {
        return Some(*found);
    }
    if g.dot(c[(k + 2) % 3] - a) > 0.0 {
        g = -g;
    }
    // The normal's part across the edge; in the cone when it lies between `outward` and `g`.
    let n = found.normal - e * found.normal.dot(e);
    let (fg, fn_) = (outward.cross(g), outward.cross(n));
    let (gf, gn) = (g.cross(outward), g.cross(n));
    if fn_.dot(fg) >= 0.0 && gn.dot(gf) >= 0.0 {
        return Some(*found);
    }
    let m = if n.dot(outward) >= n.dot(g) {
        outward
    } else {
        g
    };
    along_plane(shape, m, a, found.triangle, margin)
}

/// The triangle's feature where a contact of unit normal `n` (from the triangle toward the
/// shape) lies, as the corners it leaves out (`true`: not part of it): none for the face, one
/// for an edge, two for a corner. It is the triangle's supporting feature along `n`: the
/// contact's witness on the triangle lies in it, as the points of a convex shape nearest
/// another (or deepest in it) lie in its supporting feature along the normal. Read from the
/// normal alone, it is the same for two paths that agree on the normal, wherever in the
/// feature each puts its witness.
///
/// Within `FEATURE_TOLERANCE` (as the sine of an angle): the face when `n` is that close to
/// the face normal (either side); else the edge from the corner farthest along `n` that is
/// that close to perpendicular to `n` (the more level of the two when both are: a sliver);
/// else that corner. Each test is one well-conditioned quantity, so normals that differ by
/// rounding get the same feature. A NaN normal gets none (the contact stays as found).
fn feature(n: Vec3, c: &[Vec3; 3], face: Vec3) -> [bool; 3] {
    if !n.is_finite() {
        return [true; 3];
    }
    let tol2 = FEATURE_TOLERANCE * FEATURE_TOLERANCE;
    // Squared: `|n × face|² <= tol²` for the face, `(n·e)² <= tol² |e|²` for an edge `e`.
    if face != Vec3::ZERO && n.cross(face).length_squared() <= tol2 {
        return [false; 3];
    }
    let h = c.map(|p| n.dot(p));
    let top = if h[0] >= h[1] && h[0] >= h[2] {
        0
    } else if h[1] >= h[2] {
        1
    } else {
        2
    };
    // How far the edge from the top corner to corner `k` leans out of the plane normal to
    // `n`, as `(n·e)²` beside `|e|²` (an edge of no length is never level).
    let lean = |k: usize| {
        let e = c[k] - c[top];
        (n.dot(e).powi(2), e.length_squared())
    };
    let (k1, k2) = ((top + 1) % 3, (top + 2) % 3);
    let ((a1, b1), (a2, b2)) = (lean(k1), lean(k2));
    let level = |a: f32, b: f32| b > 0.0 && a <= tol2 * b;
    let mut out = [true; 3];
    out[top] = false;
    match (level(a1, b1), level(a2, b2)) {
        // Both level (a sliver): the more level, `a2/b2 < a1/b1`.
        (true, true) if a2 * b1 < a1 * b2 => out[k2] = false,
        (true, _) => out[k1] = false,
        (false, true) => out[k2] = false,
        (false, false) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posed_hulls_box_holds_its_six_support_points() {
        // The one-pass box of a posed hull against the box of its six axis support points:
        // the same to rounding, never smaller; a NaN pose has no box.
        let mut g = collide_testkit::Gen::new(0xb0b);
        for case in 0..2_000 {
            let points: Vec<Vec3> = (0..4 + case % 40).map(|_| g.vec(2.0)).collect();
            let Ok(hull) = ConvexHull::try_new(&points) else {
                continue;
            };
            let h = Posed::new(&hull, g.quat(), g.vec(100.0));
            let b = hull_box(&h).expect("a finite pose has a box");
            let axes = [Vec3::X, Vec3::Y, Vec3::Z];
            for (k, axis) in axes.into_iter().enumerate() {
                let (hi, lo) = (h.support(axis)[k], h.support(-axis)[k]);
                assert!(
                    b.max[k] >= hi && b.min[k] <= lo,
                    "case {case}: {b:?} {lo} {hi}"
                );
                assert!(b.max[k] - hi <= 1e-5 * (1.0 + hi.abs()), "case {case}");
                assert!(lo - b.min[k] <= 1e-5 * (1.0 + lo.abs()), "case {case}");
            }
            let nan = Posed {
                translation: Vec3::new(f32::NAN, 0.0, 0.0),
                ..h
            };
            assert!(hull_box(&nan).is_none());
        }
    }
    use crate::mesh::MeshCollider;
    use crate::shapes::{Obb, Sphere};
    use crate::Quat;

    /// The floor of [`crate::mesh::collider::tests::floor`] as a collider.
    fn floor(n: usize, flip: impl Fn(usize, usize) -> bool) -> MeshCollider {
        MeshCollider::try_new(crate::mesh::collider::tests::floor(n, flip)).unwrap()
    }

    #[test]
    fn a_box_resting_across_internal_edges_gets_only_the_face_normal() {
        let m = floor(6, |r, c| (r * 7 + c * 3) % 2 == 0);
        // A box 0.01 deep, straddling many edges and vertices, slightly turned.
        for step in 0..200 {
            let x = 1.0 + (step as f32 * 0.37) % 3.5;
            let z = 1.0 + (step as f32 * 0.61) % 3.5;
            let h = Vec3::new(0.4, 0.3, 0.25);
            let rot = Quat::from_rotation_y(step as f32 * 0.1);
            let b = Obb::new(Vec3::new(x, h.y - 0.01, z), rot, h);
            let mut out = Vec::new();
            m.contacts(&b, 0.0, &mut out);
            assert!(!out.is_empty(), "step {step}");
            for c in &out {
                assert!(c.normal.dot(Vec3::Y) > 0.99985, "step {step}: {c:?}");
                assert!((c.depth - 0.01).abs() < 1e-4, "step {step}: {c:?}");
            }
        }
    }

    #[test]
    fn a_sphere_over_a_vertex_of_a_flat_floor_gets_the_face_normal() {
        let m = floor(4, |_, _| false);
        let s = Sphere::new(Vec3::new(2.0, 0.49, 2.0), 0.5);
        let mut out = Vec::new();
        m.contacts(&s, 0.0, &mut out);
        assert!(!out.is_empty());
        for c in &out {
            assert!((c.normal - Vec3::Y).length() < 1e-5, "{c:?}");
            assert!((c.depth - 0.01).abs() < 1e-5, "{c:?}");
        }
    }

    #[test]
    fn a_sphere_on_a_cube_edge_keeps_the_edge_normal() {
        // The cube mesh's top-front edge is convex: a sphere resting on it diagonally gets a
        // normal between the two faces.
        let m = MeshCollider::try_new(crate::mesh::collider::tests::cube()).unwrap();
        let dir = Vec3::new(0.0, 1.0, 1.0).normalize();
        let s = Sphere::new(Vec3::new(0.2, 1.0, 1.0) + dir * 0.49, 0.5);
        let mut out = Vec::new();
        m.contacts(&s, 0.0, &mut out);
        assert!(!out.is_empty());
        for c in &out {
            assert!((c.normal - dir).length() < 1e-3, "{c:?}");
            assert!((c.depth - 0.01).abs() < 1e-4, "{c:?}");
        }
    }
}
