//! Sweeps of a moving sphere against a plane, a half-space, a sphere, boxes and a triangle.

use super::{axis_interval, clip_to_frame, make, starting_touch, unit_or, Sweep};
use crate::math::Vec3;
use crate::raycast::kernel;
use crate::shapes::{Aabb, Obb, Plane, Sphere, Triangle};
use glam::DVec3;

/// Sphere `s` moving by `motion` against a fixed two-sided plane (the plane itself, as in
/// `overlap::plane_sphere`): when is `|d(u)| <= r`, with `d` the centre's signed distance?
///
/// Both sides are detected (ERRATA listing 1.1: the listing saw only approaches from the
/// positive side) and the time is that of first contact, `d = ±r` (ERRATA 1.2). Initial
/// contact (`|d0| <= r`, the article's check): `enter = 0` when the sphere moves toward the
/// plane along the normal below (`motion · normal > ALONG_TOLERANCE · |motion|`), `None` when
/// it moves away, slides parallel to the plane or stays (module docs, "Starting touch"); a
/// sphere sliding parallel to the plane never hits it. Normal: from the sphere toward the plane,
/// `-n` on the positive side, `+n` on the negative side; a centre exactly on the plane
/// counts as being on the side it comes from (`-sign(motion·n)`), positive if not moving
/// across. Point: the centre projected onto the plane at `enter`. NaN → `None`.
/// Gomez 1999, listing 1: `d(u) = d0 + u (d1 - d0)`, solved for `d(u) = ±r`.
#[must_use]
pub fn sphere_plane(s: &Sphere, motion: Vec3, p: &Plane) -> Option<Sweep> {
    let PlaneTrack { n, c0, v, r, d0, w } = PlaneTrack::new(s, motion, p)?;
    // |d0 + w u| <= r.
    let (lo, hi) = axis_interval(d0, w, r)?;
    let (enter, exit) = clip_to_frame(lo, hi)?;
    let de = d0 + w * enter;
    // Side of the plane the centre is on at `enter`; exactly on it: the side it comes from.
    let on_positive = de > 0.0 || (de == 0.0 && w <= 0.0);
    let side = if on_positive { 1.0 } else { -1.0 };
    let ce = c0 + v * enter;
    starting_touch(
        make(enter, exit, -side * n, ce - de * n),
        motion,
        Vec3::ZERO,
    )
}

/// Sphere `s` moving by `motion` against the solid half-space behind plane `p` (the points
/// with `signed_distance <= 0`): when is `d(u) <= r`?
///
/// The one-sided variant of [`sphere_plane`]: a sphere that starts touching the half-space
/// (`d0 <= r`, also anywhere behind the plane) hits at `enter = 0` when it moves deeper
/// (`motion · n < -ALONG_TOLERANCE · |motion|`), and then stays in contact (`exit = 1`); one
/// that moves out, parallel to the plane or not at all: `None` (module docs, "Starting
/// touch"). Normal: always `-n` (from the sphere into the half-space). Point:
/// the centre projected onto the plane at `enter`. NaN → `None`. Gomez 1999, listing 1.
#[must_use]
pub fn sphere_plane_halfspace(s: &Sphere, motion: Vec3, p: &Plane) -> Option<Sweep> {
    let PlaneTrack { n, c0, v, r, d0, w } = PlaneTrack::new(s, motion, p)?;
    // d0 + w u <= r.
    let (lo, hi) = if w == 0.0 {
        if d0 > r {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else if w > 0.0 {
        (f64::NEG_INFINITY, (r - d0) / w)
    } else {
        ((r - d0) / w, f64::INFINITY)
    };
    let (enter, exit) = clip_to_frame(lo, hi)?;
    let ce = c0 + v * enter;
    let de = d0 + w * enter;
    starting_touch(make(enter, exit, -n, ce - de * n), motion, Vec3::ZERO)
}

/// A sphere moving against a plane, in f64: the plane's normal `n`, the start centre `c0`,
/// the motion `v`, the radius `r`, and the centre's signed distance `d(u) = d0 + w u` over the
/// frame. `None` for non-finite input.
struct PlaneTrack {
    n: DVec3,
    c0: DVec3,
    v: DVec3,
    r: f64,
    d0: f64,
    w: f64,
}

impl PlaneTrack {
    fn new(s: &Sphere, motion: Vec3, p: &Plane) -> Option<PlaneTrack> {
        if !(s.is_finite() && motion.is_finite() && p.is_finite()) {
            return None;
        }
        let n = p.normal.as_dvec3();
        let c0 = s.center.as_dvec3();
        let v = motion.as_dvec3();
        Some(PlaneTrack {
            n,
            c0,
            v,
            r: f64::from(s.radius.abs()),
            d0: n.dot(c0) + f64::from(p.d),
            w: n.dot(v),
        })
    }
}

/// Spheres `a` and `b` moving by `motion_a` and `motion_b`: when is `|B(u) - A(u)| <= ra + rb`?
///
/// Zero relative motion is its own case: in contact the whole frame or never (ERRATA listing
/// 2.1): with the starting-touch rule (module docs) that is never a hit, as spheres in contact
/// and not moving relative to each other do not approach. Contact outside the frame is no hit
/// (ERRATA 2.2). The roots are found in the stable form (ERRATA 2.3), and an initial overlap
/// keeps its exit time (ERRATA 2.4). Touching or overlapping at the start: `enter = 0` when B
/// moves toward A along the normal (`v · n < -ALONG_TOLERANCE · |v|`), else `None`. Normal: the
/// centre-to-centre direction at `enter`; for concentric spheres, the direction B came from
/// (`-(motion_b - motion_a)`), else `+X`. Point: the middle of the spheres' overlap along the
/// centre line (the contact point when touching, a point of both when overlapping; the same
/// for A and B swapped). NaN → `None`. Gomez 1999, listing 2.
#[inline]
#[must_use]
pub fn sphere_sphere(a: &Sphere, motion_a: Vec3, b: &Sphere, motion_b: Vec3) -> Option<Sweep> {
    if !(a.is_finite() && b.is_finite() && motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let (ca, cb) = (a.center.as_dvec3(), b.center.as_dvec3());
    let (ma, mb) = (motion_a.as_dvec3(), motion_b.as_dvec3());
    let (ra, rb) = (f64::from(a.radius.abs()), f64::from(b.radius.abs()));
    let f = cb - ca;
    let v = mb - ma;
    let r = ra + rb;
    // `kernel::sphere_interval` for its common case — relative motion (`qa > 0`), a clean
    // discriminant (`disc >= 0`) and a non-zero `q` — computed without a branch, so that a
    // miss (the line passing by, or contact outside the frame) and a hit are told apart by
    // one branch: on fresh input each is a coin toss. The same formulas and the same roots;
    // the other cases (no relative motion, a graze kept by the slack, a double root at 0)
    // take `kernel::sphere_interval` itself.
    let (qa, qb) = (v.length_squared(), f.dot(v));
    let c = f.length_squared() - r * r;
    let disc = r * r * qa - f.cross(v).length_squared();
    let sq = disc.max(0.0).sqrt();
    let q = if qb >= 0.0 { -(qb + sq) } else { -qb + sq };
    let (r1, r2) = (q / qa, c / q);
    let (enter, exit) = (r1.min(r2).max(0.0), r1.max(r2).min(1.0));
    let clean = (qa > 0.0) & (disc >= 0.0) & (q != 0.0);
    if !(clean & (enter <= exit)) {
        // A clean root outside the frame, or a line passing beyond the slack: no hit. Only
        // the rare cases go on to the general interval.
        let passes = (qa > 0.0) & (disc < -kernel::DISC_SLACK * r * r * qa);
        if clean | passes {
            return None;
        }
        return sphere_sphere_rare(a, motion_a, b, motion_b);
    }
    sphere_sphere_at(a, motion_a, b, motion_b, (enter, exit))
}

/// [`sphere_sphere`] through `kernel::sphere_interval`, for the cases its branch-free path
/// leaves out.
#[cold]
fn sphere_sphere_rare(a: &Sphere, motion_a: Vec3, b: &Sphere, motion_b: Vec3) -> Option<Sweep> {
    let f = b.center.as_dvec3() - a.center.as_dvec3();
    let v = motion_b.as_dvec3() - motion_a.as_dvec3();
    let r = f64::from(a.radius.abs()) + f64::from(b.radius.abs());
    let (lo, hi) = kernel::sphere_interval(f, v, r)?;
    let frame = clip_to_frame(lo, hi)?;
    sphere_sphere_at(a, motion_a, b, motion_b, frame)
}

/// The hit of [`sphere_sphere`] for the contact interval `(enter, exit)` within the frame.
#[inline(always)]
fn sphere_sphere_at(
    a: &Sphere,
    motion_a: Vec3,
    b: &Sphere,
    motion_b: Vec3,
    (enter, exit): (f64, f64),
) -> Option<Sweep> {
    let (ca, cb) = (a.center.as_dvec3(), b.center.as_dvec3());
    let (ma, mb) = (motion_a.as_dvec3(), motion_b.as_dvec3());
    let (ra, rb) = (f64::from(a.radius.abs()), f64::from(b.radius.abs()));
    let (f, v) = (cb - ca, mb - ma);
    let n = unit_or(f + v * enter, -v);
    // The spheres' overlap along the centre line at `enter`, in coordinates along `n` from A's
    // centre: A covers [-ra, ra], B [s - rb, s + rb]. Its midpoint is the contact point when
    // they touch and a point of both when they overlap, and it is the same point whichever
    // sphere is A. (The midpoint of the two surface points is neither for concentric spheres of
    // different radii, and at radius 3.4e38 it overflows in one order only, so swapping A and
    // B would change the verdict.)
    let a0 = ca + ma * enter;
    let s = n.dot(cb + mb * enter - a0);
    let (lo, hi) = ((-ra).max(s - rb), ra.min(s + rb));
    starting_touch(
        make(enter, exit, n, a0 + n * (0.5 * (lo + hi))),
        motion_a,
        motion_b,
    )
}

/// The contact interval of two moving spheres within the frame, `(enter, exit)`, without the
/// starting-touch rule: spheres in contact at the start give `enter = 0` whatever their motion.
/// For the world's swept midphase, which must keep a pair that starts in contact and moves
/// apart (its contact at the frame's end is tested). `None` when they never touch in the
/// frame or for non-finite input.
pub(crate) fn sphere_sphere_interval(
    a: &Sphere,
    motion_a: Vec3,
    b: &Sphere,
    motion_b: Vec3,
) -> Option<(f64, f64)> {
    if !(a.is_finite() && b.is_finite() && motion_a.is_finite() && motion_b.is_finite()) {
        return None;
    }
    let f = b.center.as_dvec3() - a.center.as_dvec3();
    let v = motion_b.as_dvec3() - motion_a.as_dvec3();
    let r = f64::from(a.radius.abs()) + f64::from(b.radius.abs());
    let (lo, hi) = kernel::sphere_interval(f, v, r)?;
    clip_to_frame(lo, hi)
}

/// A point moving as `p + u d` (box frame) against the box `[-e, e]` grown by `r`: the contact
/// interval within the frame.
///
/// `d(u) = dist(p + u d, box)` is convex in `u` (distance to a convex set along a line), so the
/// contact set `{u: d(u) <= r}` is one interval: its start is the first hit of the forward
/// cast, its end is `1 -` the first hit of the backward cast from the end point.
fn rounded_interval(
    cast: impl Fn(DVec3, DVec3, f64) -> Option<f64>,
    p: DVec3,
    d: DVec3,
) -> Option<(f64, f64)> {
    let enter = cast(p, d, 1.0)?;
    let back = cast(p + d, -d, 1.0 - enter).unwrap_or(1.0 - enter);
    Some((enter, (1.0 - back).max(enter)))
}

/// Sphere `s` moving by `motion_s` against box `b` moving by `motion_b`: exact.
///
/// The swept sphere is a capsule; equivalently the centre moves along a segment against the box
/// grown by the radius (a rounded box), solved face, edge and corner regions in turn (Ericson,
/// RTCD §5.5.7). Touching or overlapping at the start: `enter = 0` when the relative motion
/// approaches along the normal below, `None` when it moves away, along or not at all (module
/// docs, "Starting touch"). Normal: from the sphere's centre to its closest
/// point on the box at `enter`; with the centre inside the box, the outward normal of the
/// nearest face, negated (moving the box along it pushes the sphere out). Point: the closest
/// point of the box to the centre at `enter`. A flat box works; an empty box and NaN → `None`.
#[must_use]
pub fn sphere_aabb(s: &Sphere, motion_s: Vec3, b: &Aabb, motion_b: Vec3) -> Option<Sweep> {
    if !b.is_finite() || b.is_empty() {
        return None;
    }
    // Centre and half-extents in f64: in f32 their rounding would move the faces.
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    sphere_box(
        s,
        motion_s,
        (lo + hi) * 0.5,
        glam::DMat3::IDENTITY,
        (hi - lo) * 0.5,
        motion_b,
        1.0,
    )
}

/// Sphere `s` moving by `motion_s` against oriented box `b` moving by `motion_b`: exact.
///
/// As [`sphere_aabb`], in the box's frame, reached with the exact inverse of the box's axes.
/// Those are `f32` and orthonormal only to about `1e-7`, so box-frame distances differ from
/// world distances by up to the matrix's distortion `σ`; the radius is widened by `1/σ_min`
/// (bounded from `‖AᵀA - I‖`, about `1 + 1e-6` for `f32` rotation matrices), so the sweep
/// may report contact when the sphere is still up to ~`2e-6 · r` away — early (in a sliding
/// graze, by much of the frame), never late. Starting touch as for [`sphere_aabb`]: `enter = 0`
/// only when moving deeper. NaN (also a NaN rotation) → `None`.
#[must_use]
pub fn sphere_obb(s: &Sphere, motion_s: Vec3, b: &Obb, motion_b: Vec3) -> Option<Sweep> {
    if !b.is_finite() {
        return None;
    }
    let m = kernel::dmat3(&b.axes);
    // σ_min² >= 1 - ‖G - I‖₂ >= 1 - 3 max|G_ij - δ_ij|, G = AᵀA.
    let g = m.transpose() * m - glam::DMat3::IDENTITY;
    let dev = [g.x_axis, g.y_axis, g.z_axis]
        .iter()
        .map(|c| c.abs().max_element())
        .fold(0.0, f64::max);
    let widen = 1.0 / (1.0 - 3.0 * dev).max(0.25).sqrt() + 1e-15;
    sphere_box(
        s,
        motion_s,
        b.center.as_dvec3(),
        m,
        b.half_extents.abs().as_dvec3(),
        motion_b,
        widen,
    )
}

/// Shared body of [`sphere_aabb`] and [`sphere_obb`]: the box is `centre + axes · q`,
/// `|q| <= e`; `widen` scales the radius (see [`sphere_obb`]). A singular `axes` → `None`.
fn sphere_box(
    s: &Sphere,
    motion_s: Vec3,
    center: DVec3,
    axes: glam::DMat3,
    e: DVec3,
    motion_b: Vec3,
    widen: f64,
) -> Option<Sweep> {
    if !(s.is_finite() && motion_s.is_finite() && motion_b.is_finite()) {
        return None;
    }
    // Box space by the exact inverse (the axes are orthonormal only to ~1e-7).
    let rt = if axes == glam::DMat3::IDENTITY {
        axes
    } else {
        axes.inverse()
    };
    if !rt.is_finite() {
        return None;
    }
    let r = f64::from(s.radius.abs()) * widen;
    // The sphere's centre relative to the box, in box space; B is fixed in this frame.
    let p = rt * (s.center.as_dvec3() - center);
    let d = rt * (motion_s.as_dvec3() - motion_b.as_dvec3());
    let (enter, exit) = rounded_interval(|p, d, tm| kernel::ray_rounded_box(p, d, e, r, tm), p, d)?;
    let pe = p + d * enter;
    let q = kernel::closest_point_box(pe, e);
    let local_n = if (q - pe).length_squared() > 0.0 {
        (q - pe).normalize()
    } else {
        // Centre inside the box: the face of least penetration e_i - |p_i|.
        let depth = e - pe.abs();
        let i = if depth.x <= depth.y && depth.x <= depth.z {
            0
        } else if depth.y <= depth.z {
            1
        } else {
            2
        };
        let mut n = DVec3::ZERO;
        n[i] = if pe[i] >= 0.0 { -1.0 } else { 1.0 };
        n
    };
    let box_center_e = center + motion_b.as_dvec3() * enter;
    let normal = unit_or(axes * local_n, DVec3::X);
    starting_touch(
        make(enter, exit, normal, box_center_e + axes * q),
        motion_s,
        motion_b,
    )
}

/// Sphere `s` moving by `motion_s` against triangle `t` moving by `motion_t`: exact.
///
/// The centre moves against the triangle grown by the radius: two offset faces and three edge
/// capsules (Ericson, RTCD §5.5.6 idea, done as one Minkowski sum). Both faces count (a
/// triangle is two-sided). A degenerate triangle is treated as the segment or point it is.
/// Touching or overlapping at the start: `enter = 0` when the relative motion approaches along
/// the normal below, `None` when it moves away, along the triangle or not at all (module docs,
/// "Starting touch"). Normal: from the centre to its closest point of the triangle
/// at `enter`; a centre exactly on the triangle gives the triangle normal pointing the way the
/// sphere moves relative to it (`-n` when not moving, `+X` for a degenerate triangle), with
/// `n = (b - a) × (c - a)` normalised. Point: the closest
/// point of the triangle at `enter`. NaN → `None`.
#[must_use]
pub fn sphere_triangle(s: &Sphere, motion_s: Vec3, t: &Triangle, motion_t: Vec3) -> Option<Sweep> {
    if !(s.is_finite() && motion_s.is_finite() && t.is_finite() && motion_t.is_finite()) {
        return None;
    }
    // Work relative to the triangle's start, which stays fixed in this frame.
    let o = t.a.as_dvec3();
    let tri = [DVec3::ZERO, t.b.as_dvec3() - o, t.c.as_dvec3() - o];
    let r = f64::from(s.radius.abs());
    let p = s.center.as_dvec3() - o;
    let d = motion_s.as_dvec3() - motion_t.as_dvec3();
    let (enter, exit) = rounded_interval(
        |p, d, tm| kernel::ray_rounded_triangle(p, d, tri, r, tm),
        p,
        d,
    )?;
    let pe = p + d * enter;
    let q = kernel::closest_point_triangle(pe, tri[0], tri[1], tri[2]);
    let tn = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let facing = if tn.dot(d) > 0.0 { tn } else { -tn };
    // From the sphere toward the triangle: along q - pe; with the centre on the triangle, the
    // triangle lies ahead of the sphere's relative motion d, so the normal facing along d.
    let normal = unit_or(q - pe, facing);
    let shift = o + motion_t.as_dvec3() * enter;
    starting_touch(make(enter, exit, normal, q + shift), motion_s, motion_t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn plane_from_positive_side() {
        // r = 1, centre y = 5 → y = -5: first contact at y = 1, u = 0.4; leaves at y = -1, u = 0.6.
        let p = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
        let s = Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0);
        let w = sphere_plane(&s, Vec3::new(0.0, -10.0, 0.0), &p).unwrap();
        assert_near!(w.enter, 0.4);
        assert_near!(w.exit, 0.6);
        assert_near!(w.normal, -Vec3::Y);
        assert_near!(w.point, Vec3::ZERO);
    }

    #[test]
    fn plane_parallel_motion() {
        // Sliding at height 0.5 with r = 1: in contact the whole frame but moving along the
        // plane, so no hit (starting-touch rule); sinking by 0.1 while sliding: a hit at 0 that
        // lasts the frame; at height 2: never.
        let p = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
        let s = Sphere::new(Vec3::new(0.0, 0.5, 0.0), 1.0);
        assert!(sphere_plane(&s, Vec3::X * 3.0, &p).is_none());
        let w = sphere_plane(&s, Vec3::new(3.0, -0.1, 0.0), &p).unwrap();
        assert_eq!((w.enter, w.exit), (0.0, 1.0));
        assert_near!(w.normal, -Vec3::Y);
        let s = Sphere::new(Vec3::new(0.0, 2.0, 0.0), 1.0);
        assert!(sphere_plane(&s, Vec3::X * 3.0, &p).is_none());
    }

    #[test]
    fn halfspace_behind_is_contact() {
        // Centre 5 behind the plane: in the solid half-space from the start, for the whole frame.
        let p = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
        let s = Sphere::new(Vec3::new(0.0, -5.0, 0.0), 1.0);
        let w = sphere_plane_halfspace(&s, Vec3::new(0.0, -1.0, 0.0), &p).unwrap();
        assert_eq!((w.enter, w.exit), (0.0, 1.0));
        assert_near!(w.normal, -Vec3::Y);
        // Moving out (it would leave at u = 0.6), along the plane or not at all: no hit.
        for m in [Vec3::new(0.0, 10.0, 0.0), Vec3::X, Vec3::ZERO] {
            assert!(sphere_plane_halfspace(&s, m, &p).is_none(), "{m}");
        }
    }

    #[test]
    fn overlap_point_is_in_both_and_order_free() {
        // Concentric r = 2 and r = 0.5: the point lies in both (here the common centre), in
        // either order. B moved to x = 1: the overlap of A's [-2, 2] and B's [0.5, 1.5] along
        // the centre line has its middle at x = 1.
        // B moves deeper (toward A's centre) so that the overlap is a hit.
        let m = Vec3::new(-0.1, 0.0, 0.0);
        let (a, b) = (Sphere::new(Vec3::ZERO, 2.0), Sphere::new(Vec3::ZERO, 0.5));
        let ab = sphere_sphere(&a, Vec3::ZERO, &b, m).unwrap();
        let ba = sphere_sphere(&b, m, &a, Vec3::ZERO).unwrap();
        assert_eq!(ab.point, Vec3::ZERO);
        assert_eq!(ba.point, Vec3::ZERO);
        let b = Sphere::new(Vec3::X, 0.5);
        let ab = sphere_sphere(&a, Vec3::ZERO, &b, m).unwrap();
        let ba = sphere_sphere(&b, m, &a, Vec3::ZERO).unwrap();
        assert_near!(ab.point, Vec3::X);
        assert_near!(ba.point, Vec3::X);
    }

    #[test]
    fn spheres_head_on() {
        // Centres 10 apart, radii 1 and 2, B moves -10 toward A: contact when 3 apart, u = 0.7.
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 2.0);
        let w = sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(-10.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, 0.7);
        assert_near!(w.exit, 1.0);
        assert_near!(w.normal, Vec3::X);
        assert_near!(w.point, Vec3::X);
    }

    #[test]
    fn spheres_grazing_touch_counts() {
        // B passes A at a perpendicular offset of exactly ra + rb = 2: one instant, at u = 0.5.
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let b = Sphere::new(Vec3::new(-4.0, 2.0, 0.0), 1.0);
        let w = sphere_sphere(&a, Vec3::ZERO, &b, Vec3::new(8.0, 0.0, 0.0)).unwrap();
        assert_near!(w.enter, 0.5, 1e-6);
        assert_near!(w.exit, 0.5, 1e-6);
        assert_near!(w.normal, Vec3::Y);
    }

    #[test]
    fn sphere_aabb_face_edge_corner() {
        let b = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
        // Face: centre x = 5 moving -10, r = 1: contact at x = 2, u = 0.3; normal from sphere to box (-x).
        let s = Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0);
        let w = sphere_aabb(&s, Vec3::new(-10.0, 0.0, 0.0), &b, Vec3::ZERO).unwrap();
        assert_near!(w.enter, 0.3);
        assert_near!(w.normal, -Vec3::X);
        assert_near!(w.point, Vec3::new(1.0, 0.0, 0.0));
        // Exit: centre reaches x = -2 at u = 0.7.
        assert_near!(w.exit, 0.7);
        // Edge: moving along -x at y = 1.5, z = 0: touches the edge (x=1, y=1) rounded by r = 1
        // when (x - 1)² + 0.25 = 1 → x = 1 + √0.75.
        let s = Sphere::new(Vec3::new(5.0, 1.5, 0.0), 1.0);
        let w = sphere_aabb(&s, Vec3::new(-10.0, 0.0, 0.0), &b, Vec3::ZERO).unwrap();
        assert_near!(w.enter, (4.0 - 0.75f32.sqrt()) / 10.0, 1e-6);
        // Corner region miss: passing at y = z = 1.8 (distance 0.8√2 ≈ 1.13 > 1 from the edge x).
        let s = Sphere::new(Vec3::new(5.0, 1.8, 1.8), 1.0);
        assert!(sphere_aabb(&s, Vec3::new(-10.0, 0.0, 0.0), &b, Vec3::ZERO).is_none());
    }

    #[test]
    fn sphere_triangle_face_and_edge() {
        let t = Triangle::new(
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(0.0, 4.0, 0.0),
        );
        // Falling on the face from z = 5 with r = 1 by -10: contact at z = 1, u = 0.4, normal -z.
        let s = Sphere::new(Vec3::new(1.0, 1.0, 5.0), 1.0);
        let w = sphere_triangle(&s, Vec3::new(0.0, 0.0, -10.0), &t, Vec3::ZERO).unwrap();
        assert_near!(w.enter, 0.4);
        assert_near!(w.normal, -Vec3::Z);
        assert_near!(w.point, Vec3::new(1.0, 1.0, 0.0));
        // Passing beside the edge y = 0 at y = -0.5, z = 0.5: distance √0.5 < 1 → hit; at y = -2 → miss.
        let s = Sphere::new(Vec3::new(1.0, -0.5, 5.5), 1.0);
        assert!(sphere_triangle(&s, Vec3::new(0.0, 0.0, -10.0), &t, Vec3::ZERO).is_some());
        let s = Sphere::new(Vec3::new(1.0, -2.0, 5.0), 1.0);
        assert!(sphere_triangle(&s, Vec3::new(0.0, 0.0, -10.0), &t, Vec3::ZERO).is_none());
    }

    #[test]
    fn nan_gives_none() {
        let s = Sphere::new(Vec3::ZERO, 1.0);
        let p = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
        assert!(sphere_plane(&s, Vec3::NAN, &p).is_none());
        assert!(sphere_sphere(&s, Vec3::ZERO, &Sphere::new(Vec3::NAN, 1.0), Vec3::ZERO).is_none());
        assert!(sphere_aabb(&s, Vec3::ZERO, &Aabb::EMPTY, Vec3::ZERO).is_none());
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(f32::INFINITY, 0.0, 0.0));
        assert!(sphere_triangle(&s, Vec3::ZERO, &t, Vec3::ZERO).is_none());
    }
}
