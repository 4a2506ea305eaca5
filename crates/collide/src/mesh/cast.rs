//! Shape casts against a mesh or heightfield: the first time a moving convex shape touches
//! any triangle.

use super::box_triangle::{toward_box, witnesses, BoxTriangle};
use super::contact::support_box;
use super::{hull_triangle, TriangleSet};
use crate::convex::SupportMap;
use crate::math::Vec3;
use crate::shapes::{Aabb, Obb, Sphere, Triangle};
use crate::sweep::{self, ALONG_TOLERANCE};
use glam::DVec3;

/// The first contact of a convex shape moving against a mesh or heightfield.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshShapeHit {
    /// Normalised time of first contact in `[0, 1]` along the motion (`0`: touching or
    /// overlapping a triangle at the start and moving deeper into it).
    pub toi: f32,
    /// A contact point at `toi`.
    pub point: Vec3,
    /// Unit normal at `toi`, from the mesh toward the shape.
    pub normal: Vec3,
    /// The triangle touched first (the smallest index on a tie).
    pub triangle: u32,
}

/// The first triangle a shape moving by `motion` touches. The set walks the triangles whose
/// boxes the shape's box reaches along the motion, nearer first, and stops past the earliest
/// hit; each is tested by the exact box–triangle sweep ([`box_triangle`]) when the shape is a
/// box ([`SupportMap::as_obb`]), the exact sphere sweep when it is a ball, the hull's
/// separating-axis sweep ([`hull_triangle::HullSweep`]) when it is a hull of up to
/// [`hull_triangle::MAX_EDGES`] edges ([`SupportMap::as_hull`]), else by the convex
/// sweep ([`crate::sweep::convex()`]: a GJK ray cast, never past a contact) on the triangles its
/// bounding ball reaches, earliest first. Either way the time is never late. The starting-touch
/// rule applies per triangle (a triangle touched at the start and not moved into is skipped,
/// so a shape sliding on a floor still meets a wall of the same mesh). NaN motion or shape:
/// `None`.
pub(crate) fn cast<T, S>(set: &T, shape: &S, motion: Vec3) -> Option<MeshShapeHit>
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    if !motion.is_finite() {
        return None;
    }
    let start = support_box(shape)?;
    let swept = start.union(&Aabb {
        min: start.min + motion,
        max: start.max + motion,
    });
    if !swept.is_finite() {
        return None;
    }
    let boxed = shape.as_obb().filter(Obb::is_finite);
    let ball = shape
        .as_sphere()
        .filter(|b| b.center.is_finite() && b.radius.is_finite() && b.radius >= 0.0);
    let hull = shape
        .as_hull()
        .filter(hull_triangle::takes)
        .map(|h| hull_triangle::HullSweep::new(&h, motion));
    let (centre, half) = (start.center(), start.half_extents());
    // A ball holding the shape (its own, else its box's circumscribed ball): the generic
    // path's filter.
    let outer = shape
        .bounding_ball()
        .filter(|&(c, r)| c.is_finite() && r.is_finite() && r < half.length())
        .map_or(Sphere::new(centre, half.length()), |(c, r)| {
            Sphere::new(c, r)
        });
    let inv = motion.recip();
    let mut first: Option<(f32, u32, Face)> = None;
    let mut waiting = Waiting::default();
    set.for_each_along(&start, motion, &mut |i, bound| {
        let Some(c) = set.corners(i) else {
            return bound;
        };
        // The tree's leaves hold several triangles: each one's own box is checked first.
        let lo = c[0].min(c[1]).min(c[2]) - half;
        let hi = c[0].max(c[1]).max(c[2]) + half;
        let Some(reached) = box_entry(centre, motion, inv, lo, hi) else {
            return bound;
        };
        // A triangle reached after the best time (and its slack) cannot win. One that may
        // tie it is tested up to that slack: each test rounds its time to `f32` once, so a tie
        // on a smaller index may lie a rounding past the best time in `f64`.
        if first.is_some_and(|(best, _, _)| reached > best + slack(best)) {
            return bound;
        }
        let limit = first.map_or(1.0, |(t, _, _)| (t + slack(t)).min(1.0));
        match (&boxed, &ball, &hull) {
            (Some(b), _, _) => keep(&mut first, i, box_triangle(b, motion, &c, limit)),
            (None, Some(b), _) => keep(&mut first, i, sphere_triangle(b, motion, &c, limit)),
            (None, None, Some(h)) => {
                let found = h.triangle(&c, limit).map_or_else(
                    |()| convex_sweep(shape, motion, &c, limit),
                    |found| found.map(|hit| (hit.toi(), Face::Hull(hit))),
                );
                keep(&mut first, i, found);
            }
            (None, None, None) => {
                // The shape lies in `outer`, so it cannot touch the triangle before the ball
                // does: a triangle the ball misses by `limit` (and the slack) is skipped;
                // the others wait, and those the ball reaches before the walk's box did are
                // swept now, earliest first.
                let by = limit + slack(limit);
                let Some(reach) = ball_reach(&outer, motion, &c, by) else {
                    return bound;
                };
                // Nor before its support interval along the triangle's normal meets the plane.
                let Some(plane) = plane_reach(shape, motion, set.face_normal(i), c[0], by) else {
                    return bound;
                };
                let reach = reach.max(plane);
                if waiting.is_full() {
                    sweep_earliest(set, shape, motion, &mut waiting, f32::INFINITY, &mut first);
                }
                waiting.push(reach, i);
                while sweep_earliest(set, shape, motion, &mut waiting, reached, &mut first) {}
            }
        }
        // Boxes reached a little after the best time may still hold a tie on a smaller index,
        // or a hit the box slab test rounds late: the walk goes on a relative 1e-4 beyond.
        first.map_or(bound, |(t, _, _)| t + slack(t))
    });
    while sweep_earliest(set, shape, motion, &mut waiting, f32::INFINITY, &mut first) {}
    let (toi, i, face) = first?;
    let (point, normal) = match face {
        Face::Found(point, normal) => (point, normal),
        Face::Hull(hit) => {
            let (_, point, normal) = hull.as_ref()?.contact_of(&set.corners(i)?, hit)?;
            (point, normal)
        }
        Face::Box(normal) => {
            let c = set.corners(i)?;
            let moved = boxed.map(|b| Obb {
                center: b.center + motion * toi,
                ..b
            })?;
            // Touching at `toi`: the witnesses coincide, up to an overlap at the start.
            let (on_triangle, on_box) = witnesses(&moved, &c, normal, 0.0);
            ((on_triangle + on_box) * 0.5, normal)
        }
    };
    (point.is_finite() && toi.is_finite()).then_some(MeshShapeHit {
        toi,
        point,
        normal,
        triangle: i,
    })
}

/// What a per-triangle test found besides the time: a point and unit normal, or (the box
/// and hull sweeps) what the point is found from, once, for the winning triangle.
#[derive(Clone, Copy, Debug)]
enum Face {
    Found(Vec3, Vec3),
    Box(Vec3),
    Hull(hull_triangle::HullHit),
}

/// How far past the best time the search goes on: a tie on a smaller index, or a hit that a
/// bound rounds late, may still be there.
fn slack(t: f32) -> f32 {
    1e-4 * (t + 1.0)
}

/// `found` on triangle `i` becomes the first contact when it is earlier than `first`, or as
/// early with a smaller index.
fn keep(first: &mut Option<(f32, u32, Face)>, i: u32, found: Option<(f32, Face)>) {
    if let Some((toi, face)) = found {
        if first.is_none_or(|(t, b, _)| toi < t || (toi == t && i < b)) {
            *first = Some((toi, i, face));
        }
    }
}

/// Triangles waiting for the convex sweep, each with the earliest time the shape's
/// bounding ball reaches it. Swept earliest first, the first contact is usually found
/// first, and the triangles behind it are dropped on their bound alone.
#[derive(Default)]
struct Waiting {
    items: [(f32, u32); WAITING],
    len: usize,
}

/// Triangles that can wait at once (a stack array: a cast allocates nothing).
const WAITING: usize = 16;

impl Waiting {
    fn is_full(&self) -> bool {
        self.len == WAITING
    }

    fn push(&mut self, reach: f32, i: u32) {
        if self.len < WAITING {
            self.items[self.len] = (reach, i);
            self.len += 1;
        }
    }

    /// Removes the triangle the ball reaches first, when that is no later than `by`.
    fn pop_earliest(&mut self, by: f32) -> Option<(f32, u32)> {
        let k = (0..self.len).min_by(|&x, &y| self.items[x].0.total_cmp(&self.items[y].0))?;
        let item = self.items[k];
        if item.0 > by {
            return None;
        }
        self.len -= 1;
        self.items[k] = self.items[self.len];
        Some(item)
    }
}

/// Sweeps the shape against the waiting triangle its ball reaches first, when that is no
/// later than `by`; one the ball reaches after the best contact (plus slack) is dropped
/// untested. `false` when none was taken.
fn sweep_earliest<T, S>(
    set: &T,
    shape: &S,
    motion: Vec3,
    waiting: &mut Waiting,
    by: f32,
    first: &mut Option<(f32, u32, Face)>,
) -> bool
where
    T: TriangleSet + ?Sized,
    S: SupportMap + ?Sized,
{
    let Some((reach, i)) = waiting.pop_earliest(by) else {
        return false;
    };
    if first.is_some_and(|(best, _, _)| reach > best + slack(best)) {
        return true;
    }
    if let Some(c) = set.corners(i) {
        // A contact later than the best one (and its slack) cannot win: the sweep stops there.
        let limit = first.map_or(1.0, |(best, _, _)| (best + slack(best)).min(1.0));
        keep(first, i, convex_sweep(shape, motion, &c, limit));
    }
    true
}

/// A convex shape moving by `motion` against the fixed triangle `c` by the convex sweep
/// ([`crate::sweep::convex()`]): the time of first contact in `[0, limit]`, a point and the unit
/// normal from the triangle toward the shape, or `None` when they do not meet by then.
fn convex_sweep<S: SupportMap + ?Sized>(
    shape: &S,
    motion: Vec3,
    c: &[Vec3; 3],
    limit: f32,
) -> Option<(f32, Face)> {
    let tri = Triangle::new(c[0], c[1], c[2]);
    let found = sweep::convex::first_contact_by(&tri, Vec3::ZERO, shape, motion, limit)?;
    let normal = sweep::convex::unit_normal(found.normal, -motion, &tri, shape);
    Some((found.toi, Face::Found(found.point, normal)))
}

/// Box `b` moving by `motion` against the fixed triangle `c`: the time of first contact in
/// `[0, limit]` (`limit <= 1`) and the unit normal from the triangle toward the box, or
/// `None` when they do not meet by then.
///
/// Separating axes with intervals (the OBB sweep's method, [`crate::sweep::obb_obb`]): box
/// and triangle are disjoint exactly when one of 13 axes separates them: the triangle's
/// normal, the box's three face normals and the nine cross products of a box edge with a
/// triangle edge (the face normals of their Minkowski difference). On axis `l` the triangle
/// projects to `[t₀, t₁]` (its corners' extremes) and the box to `c·l ± r` with `r = Σ eᵢ|aᵢ·l|`;
/// moving, the box's centre is at `c·l + u m·l`, so they overlap on `l` while
/// `|c·l − mid + u m·l| <= r + half` (mid and half of `[t₀, t₁]`): an interval of `u`. The
/// shapes touch while every axis overlaps, i.e. over the intersection of the 13 intervals,
/// whose start is the exact time of first contact and whose latest-starting axis is the normal
/// there. In `f64`: `f32` inputs' products are exact to about 1e-16.
///
/// Overlapping or touching at the start: the normal is the axis of least penetration, and the
/// triangle is hit at `0` only when the motion goes deeper along it (the starting-touch rule,
/// [`crate::sweep::ALONG_TOLERANCE`]), else `None`. A triangle of zero area still has its edge
/// axes; a box with NaN coordinates never meets.
fn box_triangle(b: &Obb, motion: Vec3, c: &[Vec3; 3], limit: f32) -> Option<(f32, Face)> {
    let pair = BoxTriangle::new(b, c);
    let m = motion.as_dvec3();
    let limit = f64::from(limit);
    let mut lo = f64::NEG_INFINITY;
    let mut hi = f64::INFINITY;
    let mut enter = (DVec3::ZERO, 0.0, 0.0);
    for &l in pair.axes() {
        let (s0, reach) = pair.project(l);
        let w = m.dot(l);
        let (ul, uh) = if w == 0.0 {
            if s0.abs() > reach || s0.is_nan() {
                return None;
            }
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            let (x, y) = ((-reach - s0) / w, (reach - s0) / w);
            (x.min(y), x.max(y))
        };
        if ul > lo {
            lo = ul;
            enter = (l, s0, w);
        }
        hi = hi.min(uh);
        // NaN fails every comparison: a NaN box leaves here.
        if !(lo <= hi && lo <= limit && hi >= 0.0) {
            return None;
        }
    }
    if lo > 0.0 {
        let (l, s0, w) = enter;
        let normal = toward_box(l, s0 + w * lo, w);
        return Some((lo as f32, Face::Box(normal.as_vec3())));
    }
    // In contact at the start: the least overlap over the axes, per unit of axis length, is
    // the penetration depth, and its axis the normal.
    let mut least = (f64::INFINITY, DVec3::ZERO, 0.0, 0.0);
    for &l in pair.axes() {
        let (s0, reach) = pair.project(l);
        let depth = (reach - s0.abs()) / l.length();
        if depth < least.0 {
            least = (depth, l, s0, m.dot(l));
        }
    }
    let (_, l, s0, w) = least;
    let normal = toward_box(l, s0, w);
    let deeper = normal.dot(m) < -f64::from(ALONG_TOLERANCE) * m.length();
    deeper.then_some((0.0, Face::Box(normal.as_vec3())))
}

/// Sphere `b` moving by `motion` against the fixed triangle `c`: the time of first contact in
/// `[0, limit]` (`limit <= 1`), the triangle's point touched and the unit normal from it
/// toward the centre, or `None` when they do not meet by then.
///
/// The sphere touches the triangle when its centre comes within `r` of it: the first time the
/// moving centre `o + u·m` meets the triangle grown by `r`, the union of the face's two
/// copies moved by `±r` along its normal, the three edges' cylinders and the three corners'
/// balls. Each piece gives its entry time in closed form (a plane, or the smaller root of a
/// quadratic `|d + u·m|² = r²` with `d` and `m` taken across the edge's line for a cylinder),
/// kept when it lies on the piece (inside the face, within the edge); the earliest wins. In
/// `f64`.
///
/// Touching or overlapping at the start (the closest point within `r`): the normal runs from
/// the closest point to the centre (the face's, turned against the motion, for a centre on
/// the triangle; on a triangle of no area, against the motion), and the triangle is hit at `0`
/// only when the motion goes deeper along it (the starting-touch rule), else `None`.
fn sphere_triangle(b: &Sphere, motion: Vec3, c: &[Vec3; 3], limit: f32) -> Option<(f32, Face)> {
    let o = b.center.as_dvec3();
    let m = motion.as_dvec3();
    let r = f64::from(b.radius);
    let p = c.map(Vec3::as_dvec3);
    let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
    let hit = |u: f64, q: DVec3, n: DVec3| Some((u as f32, Face::Found(q.as_vec3(), n.as_vec3())));
    // Where the centre is on the triangle the face normal, turned to the side `from`; on a
    // triangle of no area, against the motion.
    let face_from = |from: DVec3| {
        if face == DVec3::ZERO {
            (-m).try_normalize().unwrap_or(DVec3::Y)
        } else if face.dot(from) < 0.0 {
            -face
        } else {
            face
        }
    };
    // In contact at the start.
    let q0 = crate::closest::triangle::point_triangle(o, p[0], p[1], p[2]);
    let d0 = o - q0;
    if d0.length_squared() <= r * r {
        let n = d0.try_normalize().unwrap_or_else(|| face_from(-m));
        let deeper = n.dot(m) < -f64::from(ALONG_TOLERANCE) * m.length();
        return if deeper { hit(0.0, q0, n) } else { None };
    }
    let (u, q) = ball_entry(o, m, r, &p, face, f64::from(limit))?;
    let n = (o + m * u - q)
        .try_normalize()
        .unwrap_or_else(|| face_from(o - p[0]));
    hit(u, q, n)
}

/// When in `[0, limit]` a shape moving by `motion` first comes near the plane of unit normal
/// `n` through `q`, or `None` when it does not by then: the shape spans `[lo, hi]` along `n`
/// (two support points), so at time `u` it spans `[lo + u·w, hi + u·w]` (`w = n·motion`),
/// which meets the plane's offset `n·q` over an interval of `u`. A triangle in the plane is
/// touched no earlier than that interval's start. Widened by a relative `1e-4` of the
/// coordinates (far above the convex sweep's touching gap), so it never drops a touch and its
/// time is never later than one; `None` on NaN.
fn plane_reach<S: SupportMap + ?Sized>(
    shape: &S,
    motion: Vec3,
    n: Vec3,
    q: Vec3,
    limit: f32,
) -> Option<f32> {
    let (lo, hi) = (n.dot(shape.support(-n)), n.dot(shape.support(n)));
    let offset = n.dot(q);
    let w = n.dot(motion);
    let scale = (hi - lo) + offset.abs() + lo.abs() + q.abs().max_element() + w.abs();
    let tol = 1e-4 * scale;
    // Touching while `lo + u·w <= offset + tol` and `hi + u·w >= offset − tol`.
    let (below, above) = (offset + tol - lo, offset - tol - hi);
    let (mut from, mut to) = (0.0f32, limit);
    if w == 0.0 {
        if !(below >= 0.0 && above <= 0.0) {
            return None;
        }
    } else {
        let (x, y) = (below / w, above / w);
        // `w > 0`: `u <= x` and `u >= y`; `w < 0`: the other way round.
        let (start, end) = if w > 0.0 { (y, x) } else { (x, y) };
        from = from.max(start);
        to = to.min(end);
    }
    (from <= to).then_some(from)
}

/// Whether ball `b` moving by `motion` comes within its radius of triangle `c` by `limit`
/// (`limit <= 1`): `Some(0)` when it already does at the start, else `Some(u)` with `u` the
/// time it first does, `None` when it never does by `limit` (or on NaN input). No
/// starting-touch rule: this bounds where a shape inside the ball can touch the triangle.
fn ball_reach(b: &Sphere, motion: Vec3, c: &[Vec3; 3], limit: f32) -> Option<f32> {
    let (o, m, r) = (b.center.as_dvec3(), motion.as_dvec3(), f64::from(b.radius));
    let p = c.map(Vec3::as_dvec3);
    let q0 = crate::closest::triangle::point_triangle(o, p[0], p[1], p[2]);
    if (o - q0).length_squared() <= r * r {
        return Some(0.0);
    }
    let face = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
    ball_entry(o, m, r, &p, face, f64::from(limit)).map(|(u, _)| u as f32)
}

/// The first time in `[0, limit]` the centre `o + u·m` of a ball of radius `r`, starting
/// farther than `r` from triangle `p` (of unit normal `face`, zero when the triangle has no
/// area), comes within `r` of it, and the triangle's point it touches then; `None` when it
/// does not by `limit`. The grown triangle's pieces (see [`sphere_triangle`]) each give an
/// entry time in closed form; the earliest wins.
fn ball_entry(
    o: DVec3,
    m: DVec3,
    r: f64,
    p: &[DVec3; 3],
    face: DVec3,
    limit: f64,
) -> Option<(f64, DVec3)> {
    // The earliest entry so far: (time, point on the triangle).
    let mut best: Option<(f64, DVec3)> = None;
    let mut consider = |u: f64, q: DVec3| {
        if (0.0..=limit).contains(&u) && best.is_none_or(|(t, _)| u < t) {
            best = Some((u, q));
        }
    };
    // The face, from the side the centre is on: the centre reaches the plane moved by `r`.
    let s = face.dot(o - p[0]);
    let n = if s < 0.0 { -face } else { face };
    let (s, w) = (s.abs(), n.dot(m));
    if face != DVec3::ZERO && s > r && w < 0.0 {
        let u = (s - r) / -w;
        let q = o + m * u - n * r;
        if inside(q, p, face) {
            consider(u, q);
        }
    }
    // The edges' cylinders and the corners' balls: the smaller root of `A u² + B u + C = 0`.
    let entry = |d: DVec3, v: DVec3| {
        let (a, half_b, cc) = (v.length_squared(), d.dot(v), d.length_squared() - r * r);
        let disc = half_b * half_b - a * cc;
        (a > 0.0 && disc >= 0.0).then(|| (-half_b - disc.sqrt()) / a)
    };
    for k in 0..3 {
        let (a, e) = (p[k], p[(k + 1) % 3] - p[k]);
        let ee = e.length_squared();
        if ee > 0.0 {
            let across = |x: DVec3| x - e * (x.dot(e) / ee);
            if let Some(u) = entry(across(o - a), across(m)) {
                let along = (o + m * u - a).dot(e) / ee;
                if (0.0..=1.0).contains(&along) {
                    consider(u, a + e * along);
                }
            }
        }
        if let Some(u) = entry(o - a, m) {
            consider(u, a);
        }
    }
    best
}

/// Whether `q` (in the triangle's plane) lies in triangle `p` of unit normal `n`: on the inner
/// side of all three edges.
fn inside(q: DVec3, p: &[DVec3; 3], n: DVec3) -> bool {
    (0..3).all(|k| (p[(k + 1) % 3] - p[k]).cross(q - p[k]).dot(n) >= 0.0)
}

/// When in `[0, 1]` the point `p + u·d` first lies in the box `[lo, hi]` (slab test; a zero
/// component of `d` keeps the slab when `p` is inside it), widened by a relative `1e-4` so
/// rounding never drops a candidate; `None` when it never does.
pub(super) fn box_entry(p: Vec3, d: Vec3, inv: Vec3, lo: Vec3, hi: Vec3) -> Option<f32> {
    let (mut near, mut far) = (0.0f32, 1.0f32);
    for k in 0..3 {
        if d[k] == 0.0 {
            if p[k] < lo[k] || p[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((lo[k] - p[k]) * inv[k], (hi[k] - p[k]) * inv[k]);
        near = near.max(t1.min(t2));
        far = far.min(t1.max(t2));
    }
    let slack = 1e-4 * (far.abs() + near.abs() + 1.0);
    (near <= far + slack).then_some((near - slack).max(0.0))
}
