//! A convex hull against one triangle by separating axes, for the mesh's hull contacts and casts.
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
use glam::{DMat3, DVec3};

/// Hulls with more edges than this take the general path (GJK and EPA), whose cost grows
/// with the number of support steps, not with the hull's size.
pub(super) const MAX_EDGES: usize = 256;

/// Whether the exact paths take the posed hull `h`: at most [`MAX_EDGES`] edges, and a
/// rotation with orthonormal columns (to 1e-5; a pose built by hand may have another, which
/// the general path's support points still follow).
pub(super) fn takes(h: &Posed<&ConvexHull>) -> bool {
    let r = h.rotation;
    let (x, y, z) = (r.x_axis, r.y_axis, r.z_axis);
    let unit = |v: Vec3| (v.length_squared() - 1.0).abs() <= 1e-5;
    let square = |a: Vec3, b: Vec3| a.dot(b).abs() <= 1e-5;
    h.shape.edges().len() <= MAX_EDGES
        && unit(x)
        && unit(y)
        && unit(z)
        && square(x, y)
        && square(y, z)
        && square(z, x)
}

/// Squared length, relative to the squared lengths of its two factors, below which a cross
/// product counts as zero (parallel edges, or a triangle of no area): it then separates
/// nothing and is skipped, which can only report contact, never miss one.
const DEGENERATE_AXIS: f64 = 1e-10;

/// Relative rounding of a facet's offset in `f64` (the `f32` inputs' products are exact to
/// about 1e-16; this leaves room for the few operations of projecting them): with the hull's
/// own tolerance, the sweep widens every offset by this much, so it is never late.
const ROUNDING: f64 = 1e-12;

/// Hull edges whose arcs the edge phase of [`for_each_facet`] tests before it visits the
/// crossing ones (a stack array).
const CROSSING_BLOCK: usize = 64;

/// Relative heights below which a hull's vertices tie as its feature deepest along a normal.
const FEATURE_EPS: f32 = 1e-4;

/// The least penetration found so far: its depth and the unit normal from the triangle
/// toward the hull, in the hull's frame.
#[derive(Clone, Copy)]
struct Least {
    depth: f64,
    normal: DVec3,
}

impl Least {
    /// Keeps the axis when it penetrates less (a NaN depth is kept for good: the general path
    /// then decides); `false` when it separates the two by more than `margin` (no contact).
    #[inline]
    fn take(&mut self, depth: f64, normal: DVec3, margin: f64) -> bool {
        if (depth < self.depth || depth.is_nan()) && !self.depth.is_nan() {
            *self = Least { depth, normal };
        }
        depth >= -margin || depth.is_nan()
    }
}

/// The triangle `c` in the frame of the posed hull `h`, in `f64` (exact to about 1e-16 of the
/// coordinates), its unit normal and the motion `motion` in that frame; `None` when the
/// triangle has no area or the input is not finite.
fn into_hull_frame(
    h: &Posed<&ConvexHull>,
    c: &[Vec3; 3],
    motion: Vec3,
) -> Option<([DVec3; 3], DVec3, DVec3)> {
    let to_local = h.rotation.transpose().as_dmat3();
    let m = to_local * motion.as_dvec3();
    let (p, n) = triangle_in_frame(&to_local, h.translation.as_dvec3(), c)?;
    m.is_finite().then_some((p, n, m))
}

/// The triangle `c` taken into a hull's frame by `to_local` after the hull's position `t`
/// (in `f64`), with its unit normal; `None` when it has no area or is not finite.
fn triangle_in_frame(to_local: &DMat3, t: DVec3, c: &[Vec3; 3]) -> Option<([DVec3; 3], DVec3)> {
    let p = c.map(|q| *to_local * (q.as_dvec3() - t));
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let cross = edges[0].cross(edges[1]);
    let area = cross.length_squared();
    let scale = edges[0].length_squared() * edges[1].length_squared();
    let flat = area.is_nan() || area <= DEGENERATE_AXIS * scale;
    (!flat).then(|| (p, cross.normalize()))
}

/// The contact of the posed hull `h` with triangle `c` (the triangle as A, so the normal
/// runs from the triangle toward the hull) within `margin`, as
/// [`crate::convex::contact::contact`] gives it: by separating axes when they overlap, by GJK
/// when they are apart within the margin (or an axis is NaN or the triangle has no area);
/// `None` when they are farther apart than `margin`.
pub(super) fn hull_contact(h: &Posed<&ConvexHull>, c: &[Vec3; 3], margin: f32) -> Option<Contact> {
    let general = || crate::convex::contact::contact(&Triangle::new(c[0], c[1], c[2]), h, margin);
    let Some((p, n, _)) = into_hull_frame(h, c, Vec3::ZERO) else {
        return general();
    };
    let least = scratch::with(&ACROSS, |across| {
        least_penetration(h.shape, &p, n, f64::from(margin), across)
    })?;
    if least.depth.is_nan() || least.depth < 0.0 {
        // Apart within the margin, or a NaN axis: GJK decides.
        return general();
    }
    let (normal, depth) = (least.normal.as_vec3(), least.depth as f32);
    let (on_triangle, on_hull) = witnesses(h.shape, &p.map(DVec3::as_vec3), normal, depth);
    let found = Contact {
        normal: h.rotation * normal,
        depth,
        point_a: h.to_world(on_triangle),
        point_b: h.to_world(on_hull),
    };
    let finite = found.point_a.is_finite() && found.point_b.is_finite();
    (finite && found.normal.is_finite()).then_some(found)
}

thread_local! {
    /// Each thread's products of a hull's face normals with a triangle's edges
    /// ([`crate::scratch`]).
    static ACROSS: RefCell<Vec<DVec3>> = const { RefCell::new(Vec::new()) };
}

/// The least penetration of `hull` and triangle `p` (in the hull's frame, unit normal `n`)
/// over the separating axes (module docs), or `None` when one separates them by more than
/// `margin`. `across` is scratch space.
fn least_penetration(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    margin: f64,
    across: &mut Vec<DVec3>,
) -> Option<Least> {
    let mut least = Least {
        depth: f64::INFINITY,
        normal: n,
    };
    // A facet at offset `d` from the origin along its normal `l` is penetrated by `d`; the
    // hull leaves it moving along `−l`.
    let all = for_each_facet(hull, p, n, across, |l, d| least.take(d, -l, margin));
    all.then_some(least)
}

/// The faces of the difference hull − triangle (in the hull's frame, the triangle `p` of unit
/// normal `n`): `visit(l, d)` for each, with `l` its unit outward normal and `d` its offset
/// from the origin along `l`, the difference's support along `l`: the triangle's normal both
/// ways, the hull's faces, then the edge pairs whose arcs cross (module docs). The origin is
/// inside the difference (hull and triangle overlap) exactly when every `d >= 0`. `visit`
/// returns `false` to stop; then so does this. `across` is scratch space.
fn for_each_facet(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    across: &mut Vec<DVec3>,
    mut visit: impl FnMut(DVec3, f64) -> bool,
) -> bool {
    // The triangle's normal: the hull spans `[lo, hi]` along it, the plane is at `o`.
    let o = n.dot(p[0]);
    let along = |d: DVec3| n.dot(hull.support(d.as_vec3()).as_dvec3());
    let (lo, hi) = (along(-n), along(n));
    if !(visit(n, hi - o) && visit(-n, o - lo)) {
        return false;
    }
    // The hull's faces: offset less the triangle's lowest corner. The differences of the
    // corners' heights over each face are the face normal's products with the triangle's
    // edges, which the edge pairs' arcs need: kept per face.
    let faces = hull.faces();
    across.clear();
    for f in faces {
        let nf = f.plane.normal.as_dvec3();
        let h = DVec3::from(p.map(|q| nf.dot(q)));
        if !visit(nf, -f64::from(f.plane.d) - h.min_element()) {
            return false;
        }
        across.push(DVec3::new(h.y, h.z, h.x) - h);
    }
    // Edge pairs whose arcs cross: the face through the hull edge's point `v` less the
    // triangle edge's point, normal `l` (unit, toward the crossing `x`).
    let vertices = hull.vertices();
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let outward = edges.map(|g| g.cross(n));
    // In blocks of `CROSSING_BLOCK` edges: first each edge's lanes whose arcs cross, kept
    // when any does (a store every time and a count that moves only then, no branch that
    // depends on the data), then the kept edges' pairs in the same order.
    let hull_edges = hull.edges();
    let mut kept = [(0u32, 0u32); CROSSING_BLOCK];
    let mut met = [(0u32, 0u32); 3 * CROSSING_BLOCK];
    for (block, chunk) in hull_edges.chunks(CROSSING_BLOCK).enumerate() {
        let mut count = 0;
        for (j, e) in chunk.iter().enumerate() {
            let [fa, fb] = e.faces.map(|f| f as usize);
            let (Some(&ag), Some(&bg)) = (across.get(fa), across.get(fb)) else {
                continue;
            };
            // Lane `k`: the arc crosses the great circle normal to triangle edge `k`.
            let crossing = (ag * bg).cmplt(DVec3::ZERO).bitmask();
            kept[count] = ((block * CROSSING_BLOCK + j) as u32, crossing);
            count += usize::from(crossing != 0);
        }
        // The kept edges' pairs whose crossing lies on the triangle's negated half circle,
        // found the same way; their facets visited after.
        let mut pairs = 0;
        for &(i, crossing) in &kept[..count] {
            let [fa, fb] = hull_edges[i as usize].faces.map(|f| f as usize);
            let (ag, bg) = (across[fa], across[fb]);
            let (a, b) = (
                faces[fa].plane.normal.as_dvec3(),
                faces[fb].plane.normal.as_dvec3(),
            );
            for k in 0..3 {
                let side = crossing_point(a, b, ag[k], bg[k]).dot(outward[k]);
                met[pairs] = (i, k as u32);
                pairs += usize::from(crossing & (1 << k) != 0 && side < 0.0);
            }
        }
        for &(i, k) in &met[..pairs] {
            let (e, k) = (&hull_edges[i as usize], k as usize);
            let [fa, fb] = e.faces.map(|f| f as usize);
            let (a, b) = (
                faces[fa].plane.normal.as_dvec3(),
                faces[fb].plane.normal.as_dvec3(),
            );
            let x = crossing_point(a, b, across[fa][k], across[fb][k]);
            let v = vertices[e.vertices[0] as usize].as_dvec3();
            let along = vertices[e.vertices[1] as usize].as_dvec3() - v;
            let g = edges[k];
            let l = along.cross(g);
            let ll = l.length_squared();
            if ll.is_nan() || ll <= DEGENERATE_AXIS * along.length_squared() * g.length_squared() {
                continue;
            }
            let l = if l.dot(x) < 0.0 { -l } else { l } / ll.sqrt();
            if !visit(l, l.dot(v - p[k])) {
                return false;
            }
        }
    }
    true
}

/// Where the Gauss-map arc from face normal `a` to `b` crosses the great circle normal to a
/// triangle edge `g`, up to a positive factor, given `ag = a·g` and `bg = b·g` of opposite
/// signs: `(a·g) b − (b·g) a` is normal to `g`, and turned by the sign of `a·g` it has
/// positive weights on both ends. Not a crossing (any vector) when the signs agree.
#[inline]
fn crossing_point(a: DVec3, b: DVec3, ag: f64, bg: f64) -> DVec3 {
    (b * ag - a * bg) * ag.signum()
}

/// A posed hull moving by a motion, taken into the hull's frame once for all the triangles
/// of a cast ([`HullSweep::triangle`]).
pub(super) struct HullSweep<'a> {
    posed: Posed<&'a ConvexHull>,
    /// The hull's rotation inverted, in `f64`.
    to_local: DMat3,
    /// The hull's position, in `f64`.
    origin: DVec3,
    /// The motion in the hull's frame.
    motion: DVec3,
}

impl<'a> HullSweep<'a> {
    /// The posed hull `h` moving by `motion`.
    pub(super) fn new(h: &Posed<&'a ConvexHull>, motion: Vec3) -> HullSweep<'a> {
        let to_local = h.rotation.transpose().as_dmat3();
        HullSweep {
            posed: *h,
            to_local,
            origin: h.translation.as_dvec3(),
            motion: to_local * motion.as_dvec3(),
        }
    }

    /// The hull against the fixed triangle `c`: the time of first contact in `[0, limit]`
    /// (`limit <= 1`), a point of the contact and the unit normal from the triangle toward the
    /// hull, or `None` when they do not meet by then (or the triangle has no area, or the input
    /// is not finite: then `Err(())`, and the caller takes the general sweep).
    ///
    /// The difference hull − triangle is a fixed polytope (translation does not change it),
    /// and the hull moved by `u·m` meets the triangle when the origin lies in the difference
    /// moved by `u·m`: on every facet `(l, d)` ([`for_each_facet`]), `d + u (l·m) >= 0`, an
    /// interval of `u`. The intersection of the intervals starts at the exact time of first
    /// contact, and its latest-starting facet is the normal there. In `f64`, each offset
    /// widened by the hull's tolerance and [`ROUNDING`] of the coordinates, so the time is
    /// never late. One facet whose interval misses `[0, limit]` keeps them apart whatever the
    /// others give: the hull's faces are first tried so in `f32`, four at a time
    /// ([`ConvexHull::a_face_clears`]), which rejects most triangles the cast passes by for a
    /// fraction of the `f64` walk, and only where that walk would reject them too.
    ///
    /// Overlapping or touching at the start: the normal is that of least penetration, and the
    /// triangle is hit at `0` only when the motion goes deeper along it (the starting-touch
    /// rule, [`crate::sweep::ALONG_TOLERANCE`]), else `None`.
    pub(super) fn triangle(
        &self,
        c: &[Vec3; 3],
        limit: f32,
    ) -> Result<Option<(f32, Vec3, Vec3)>, ()> {
        self.sweep(c, limit, true)
    }

    /// [`HullSweep::triangle`], with the faces' `f32` test first when `clear_first`.
    fn sweep(
        &self,
        c: &[Vec3; 3],
        limit: f32,
        clear_first: bool,
    ) -> Result<Option<(f32, Vec3, Vec3)>, ()> {
        let (h, m) = (&self.posed, self.motion);
        if !m.is_finite() {
            return Err(());
        }
        let (p, n) = triangle_in_frame(&self.to_local, self.origin, c).ok_or(())?;
        // Vertices lie up to three tolerances above their faces' planes (and the hull is convex
        // to two), so the difference's true support may pass a facet by that much.
        let size = p[0].abs().max(p[1].abs()).max(p[2].abs()).max_element() + m.abs().max_element();
        let slack = 3.0 * f64::from(h.shape.tolerance()) + ROUNDING * size;
        let limit = f64::from(limit);
        // A face with the triangle in front of it by more than the slack, at the start and
        // with the hull moved by `limit · m` (the triangle moved back by as much), is such a
        // facet.
        let (corners, shift) = (p.map(DVec3::as_vec3), (-m * limit).as_vec3());
        if clear_first && h.shape.a_face_clears(&corners, shift, slack as f32) {
            return Ok(None);
        }
        // The interval of contact so far, the facet that entered last, and the least
        // penetration (for a contact at the start).
        let (mut from, mut to) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut entered = n;
        let mut least = Least {
            depth: f64::INFINITY,
            normal: n,
        };
        let met = scratch::with(&ACROSS, |across| {
            for_each_facet(h.shape, &p, n, across, |l, d| {
                least.take(d, -l, f64::INFINITY);
                let (d, w) = (d + slack, l.dot(m));
                if w > 0.0 {
                    let start = -d / w;
                    if start > from {
                        (from, entered) = (start, l);
                    }
                } else if w < 0.0 {
                    to = to.min(-d / w);
                } else if d < 0.0 || d.is_nan() {
                    return false;
                }
                from <= to && from <= limit && to >= 0.0
            })
        });
        if !met {
            return Ok(None);
        }
        let mf = m.as_vec3();
        if from > 0.0 {
            let toi = from as f32;
            let moved = p.map(|q| (q - m * from).as_vec3());
            let normal = -entered.as_vec3();
            let (on_triangle, _) = witnesses(h.shape, &moved, normal, 0.0);
            let point = h.to_world(on_triangle + mf * toi);
            return Ok(Some((toi, point, h.rotation * normal)));
        }
        if least.depth.is_nan() {
            return Err(());
        }
        let normal = least.normal.as_vec3();
        let deeper = normal.dot(mf) < -crate::sweep::ALONG_TOLERANCE * mf.length();
        if !deeper {
            return Ok(None);
        }
        let depth = least.depth.max(0.0) as f32;
        let (on_triangle, on_hull) = witnesses(h.shape, &p.map(DVec3::as_vec3), normal, depth);
        let point = h.to_world((on_triangle + on_hull) * 0.5);
        Ok(Some((0.0, point, h.rotation * normal)))
    }
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

    /// The hull of 16 points drawn within `size` of the origin; `None` when they are flat.
    fn random_hull(g: &mut Gen, size: f32) -> Option<ConvexHull> {
        let points: Vec<Vec3> = (0..16).map(|_| g.vec(size)).collect();
        ConvexHull::try_new(&points).ok()
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
            let Some(hull) = random_hull(&mut g, 1.0) else {
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

    /// [`HullSweep::triangle`] on `tri` by `limit`, asserted the same as without the faces'
    /// `f32` test first.
    fn agree(
        sweep: &HullSweep,
        tri: &[Vec3; 3],
        limit: f32,
    ) -> Result<Option<(f32, Vec3, Vec3)>, ()> {
        let with = sweep.triangle(tri, limit);
        assert_eq!(
            with,
            sweep.sweep(tri, limit, false),
            "{tri:?} limit {limit}"
        );
        with
    }

    /// Whether the faces' `f32` test of [`HullSweep::triangle`] rejects `tri` by `limit`.
    fn cleared(sweep: &HullSweep, tri: &[Vec3; 3], limit: f32) -> bool {
        let Some((p, _)) = triangle_in_frame(&sweep.to_local, sweep.origin, tri) else {
            return false;
        };
        let size = p[0].abs().max(p[1].abs()).max(p[2].abs()).max_element()
            + sweep.motion.abs().max_element();
        let slack = 3.0 * f64::from(sweep.posed.shape.tolerance()) + ROUNDING * size;
        let shift = (-sweep.motion * f64::from(limit)).as_vec3();
        let corners = p.map(DVec3::as_vec3);
        sweep
            .posed
            .shape
            .a_face_clears(&corners, shift, slack as f32)
    }

    #[test]
    fn the_faces_f32_test_never_changes_an_answer() {
        // Each triangle swept with and without the faces' f32 test first: the same time,
        // point and normal, bit for bit. Random triangles, and triangles over the middle of a
        // hull face that the hull, moving toward them, reaches within the sweep's slack at
        // `limit` give or take a few dozen f32 roundings: there the test's bound on its own
        // rounding decides between a hit at about `limit` and none.
        let mut g = Gen::new(11);
        let (mut cleared_far, mut cleared_near, mut hits_near) = (0, 0, 0);
        for _ in 0..200 {
            let Some(hull) = random_hull(&mut g, 0.5) else {
                continue;
            };
            let (q, at) = (g.quat(), g.vec(2.0));
            let h = Posed::new(&hull, q, at);
            let sweep = HullSweep::new(&h, g.vec(3.0));
            for _ in 0..20 {
                let limit = g.range(0.2, 1.0);
                let centre = g.vec(3.0);
                let tri = [0, 1, 2].map(|_| centre + g.vec(1.0));
                let _ = agree(&sweep, &tri, limit);
                cleared_far += usize::from(cleared(&sweep, &tri, limit));
            }
            for _ in 0..20 {
                let faces = hull.faces();
                let f = g.range(0.0, faces.len() as f32) as usize % faces.len();
                let ids = hull.face_vertices(f);
                let middle = ids
                    .iter()
                    .map(|&i| hull.vertices()[i as usize])
                    .sum::<Vec3>()
                    / ids.len() as f32;
                let n = faces[f].plane.normal;
                // Local motion toward the triangle: the face's distance to it falls by `w`
                // per unit of time.
                let (w, limit) = (g.range(0.1, 2.0), g.range(0.2, 1.0));
                let along = |v: Vec3| v - n * n.dot(v);
                let local_motion = n * w + along(g.vec(0.05));
                let size = middle.abs().max_element() + 3.0;
                let rounding = size * g.range(-40.0, 40.0) * f32::EPSILON;
                let gap = 3.0 * hull.tolerance() + limit * w + rounding;
                let tri = [0, 1, 2].map(|_| h.to_world(middle + n * gap + along(g.vec(0.02))));
                let sweep = HullSweep::new(&h, q * local_motion);
                let with = agree(&sweep, &tri, limit);
                cleared_near += usize::from(cleared(&sweep, &tri, limit));
                hits_near += usize::from(matches!(with, Ok(Some(_))));
            }
        }
        assert!(
            cleared_far > 2000,
            "only {cleared_far} random triangles cleared in f32"
        );
        assert!(
            cleared_near > 100,
            "only {cleared_near} near triangles cleared in f32"
        );
        assert!(hits_near > 500, "only {hits_near} near triangles hit");
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
