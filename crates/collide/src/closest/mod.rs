//! Closest points between a point, segments, boxes and triangles.
//!
//! Every function here is exact up to `f32` rounding and never panics. Shapes are closed
//! (the boundary belongs to the shape), so a point inside a box or on a triangle is its own
//! closest point and its squared distance is `0`.
//!
//! Results: a plain `Vec3` when the point is all there is; a small struct when the caller also
//! needs the parameter along a segment ([`OnSegment`], [`SegmentPair`]).
//!
//! Degenerate shapes are answered as the shape they are: a zero-length segment is a point
//! (parameter `0`), a flat or point-like box is a box, a triangle whose corners are collinear
//! or coincident is the segment or point they span. Non-finite input never panics; NaN in
//! gives NaN (or an unspecified point) out, and the squared-distance helpers give NaN, which
//! every comparison in [`crate::overlap`] treats as "no contact".
//!
//! References: Ericson, *Real-Time Collision Detection* (RTCD) §5.1.2–§5.1.5, §5.1.9;
//! Arvo, *Graphics Gems* 1990 (the squared distance to a box).
//!
//! # Example
//!
//! ```rust
//! use collide::closest::{distance_squared_point_aabb, point_aabb, segment_segment};
//! use collide::shapes::{Aabb, Segment};
//! use collide::Vec3;
//!
//! let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
//! let p = Vec3::new(2.0, 0.5, -1.0);
//! assert_eq!(point_aabb(p, &b), Vec3::new(1.0, 0.5, 0.0));
//! assert_eq!(distance_squared_point_aabb(p, &b), 2.0);
//! assert_eq!(point_aabb(Vec3::splat(0.5), &b), Vec3::splat(0.5)); // inside: itself
//!
//! // Two wires crossing 1 m apart: along x at y = 0, along z at y = 1.
//! let low = Segment::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0));
//! let high = Segment::new(Vec3::new(0.0, 1.0, -1.0), Vec3::new(0.0, 1.0, 1.0));
//! let pair = segment_segment(&low, &high);
//! assert!((pair.s - 0.5).abs() < 1e-6 && (pair.t - 0.5).abs() < 1e-6); // both midpoints
//! assert!((pair.distance_squared() - 1.0).abs() < 1e-6);
//! ```

pub(crate) mod triangle;

use crate::math::Vec3;
use crate::shapes::{Aabb, Obb, Segment, Triangle};

/// The point of a segment closest to a query point, and its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnSegment {
    /// The closest point, `segment.a + u (segment.b - segment.a)`.
    pub point: Vec3,
    /// Its parameter along the segment, in `[0, 1]` (`0` for a zero-length segment).
    pub u: f32,
}

/// The closest pair of points between two segments, and their parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentPair {
    /// The point on the first segment, `first.a + s (first.b - first.a)`.
    pub on_first: Vec3,
    /// The point on the second segment, `second.a + t (second.b - second.a)`.
    pub on_second: Vec3,
    /// Parameter of `on_first` along the first segment, in `[0, 1]`.
    pub s: f32,
    /// Parameter of `on_second` along the second segment, in `[0, 1]`.
    pub t: f32,
}

impl SegmentPair {
    /// Squared distance between the two points (the squared distance between the segments).
    #[inline]
    #[must_use]
    pub fn distance_squared(&self) -> f32 {
        self.on_first.distance_squared(self.on_second)
    }
}

/// The point of the box closest to `p`: `p` itself when inside or on the boundary.
///
/// Each coordinate is clamped to `[min, max]` (RTCD §5.1.3). A flat box is fine; an empty box
/// (`min > max` on some axis) gives `max` on that axis. A NaN in `p` gives the box's `min` on
/// that axis (use [`distance_squared_point_aabb`], which is NaN then).
#[inline]
#[must_use]
pub fn point_aabb(p: Vec3, aabb: &Aabb) -> Vec3 {
    // `max` then `min` instead of `clamp`: never asserts on an empty box.
    p.max(aabb.min).min(aabb.max)
}

/// Squared distance from `p` to the box; `0` inside or on the boundary, NaN for NaN input.
///
/// Arvo's loop (Gomez 1999, listing 5): the excess of each coordinate beyond the slab,
/// squared and summed.
#[inline]
#[must_use]
pub fn distance_squared_point_aabb(p: Vec3, aabb: &Aabb) -> f32 {
    // Per axis: below the slab, min - p > 0; above it, p - max > 0; inside, both <= 0. At
    // most one is positive for a non-empty box; the max with 0 keeps it (NaN propagates
    // through the subtraction of `p`, then `max(NaN, 0)` would hide it, so add it back below).
    let below = (aabb.min - p).max(Vec3::ZERO);
    let above = (p - aabb.max).max(Vec3::ZERO);
    let excess = below + above;
    let d2 = excess.length_squared();
    if p.is_nan() || aabb.min.is_nan() || aabb.max.is_nan() {
        f32::NAN
    } else {
        d2
    }
}

/// The point of the oriented box closest to `p`: `p` itself when inside or on the boundary.
///
/// `p` goes into box space, each coordinate is clamped to `[-e_i, e_i]`, and the result comes
/// back to world space (RTCD §5.1.4). Zero half-extents are fine (a flat box, a segment, a
/// point). NaN input gives NaN.
#[inline]
#[must_use]
pub fn point_obb(p: Vec3, obb: &Obb) -> Vec3 {
    let e = obb.half_extents;
    let q = obb.to_local(p);
    let clamped = q.max(-e).min(e);
    let out = obb.to_world(clamped);
    if q.is_nan() {
        Vec3::NAN
    } else {
        out
    }
}

/// Squared distance from `p` to the oriented box; `0` inside or on the boundary, NaN for NaN
/// input.
///
/// Arvo's sum in box space (Gomez 1999: "transform the center of the sphere to the box's local
/// coordinate frame").
#[inline]
#[must_use]
pub fn distance_squared_point_obb(p: Vec3, obb: &Obb) -> f32 {
    let e = obb.half_extents;
    let q = obb.to_local(p);
    // Excess of |q_i| beyond e_i, zero inside the slab.
    let excess = (q.abs() - e).max(Vec3::ZERO);
    if q.is_nan() || e.is_nan() {
        f32::NAN
    } else {
        excess.length_squared()
    }
}

/// The point of the segment closest to `p`, with its parameter `u ∈ [0, 1]`.
///
/// Projection onto the line, `u = (p - a)·(b - a) / |b - a|²`, clamped to the segment
/// (RTCD §5.1.2). A zero-length segment gives `a` with `u = 0`. NaN input gives NaN.
#[inline]
#[must_use]
pub fn point_segment(p: Vec3, segment: &Segment) -> OnSegment {
    let (a, ab) = (segment.a, segment.b - segment.a);
    let len2 = ab.length_squared();
    // `len2 > 0` is false for a point and for NaN; for a tiny segment the quotient may
    // overflow to ±inf, which the clamp maps to an end point.
    let u = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else if len2.is_nan() || p.is_nan() {
        f32::NAN
    } else {
        0.0
    };
    OnSegment {
        point: a + u * ab,
        u,
    }
}

/// Squared distance from `p` to the segment; NaN for NaN input.
#[inline]
#[must_use]
pub fn distance_squared_point_segment(p: Vec3, segment: &Segment) -> f32 {
    p.distance_squared(point_segment(p, segment).point)
}

/// The point of the triangle (a closed, filled triangle) closest to `p`.
///
/// Ericson's Voronoi-region walk (RTCD §5.1.5): vertex regions, then edge regions, then the
/// face, with barycentric coordinates from dot products only, evaluated in `f64` from the
/// `f32` input. A degenerate triangle (collinear or coincident corners, or a needle narrower
/// than `1e-10` of its longest edge) is the segment or point it spans: the closest of its
/// three edges' closest points. NaN input gives NaN.
///
/// In `f64`: in `f32` the region tests (`d1·d4 − d3·d2` and the like) cancel catastrophically
/// for sliver triangles: one 400 long and 0.01 wide would put the closest point 0.206 from a
/// point whose true distance is 0.0106, so `overlap::sphere_triangle` would miss a sphere of
/// radius 0.013 resting on it. The `f64` walk is the one the sweeps and ray
/// casts already use (`raycast::kernel::closest_point_triangle`).
#[must_use]
pub fn point_triangle(p: Vec3, tri: &Triangle) -> Vec3 {
    if p.is_nan() || tri.a.is_nan() || tri.b.is_nan() || tri.c.is_nan() {
        return Vec3::NAN;
    }
    let (p, a, b, c) = (
        p.as_dvec3(),
        tri.a.as_dvec3(),
        tri.b.as_dvec3(),
        tri.c.as_dvec3(),
    );
    // Needles narrower than 1e-10 of their longest edge are answered as their edges there.
    crate::raycast::kernel::closest_point_triangle(p, a, b, c).as_vec3()
}

/// [`point_triangle`], in `f32` where that is as good: for a triangle at least `1/16` as wide
/// as its longest edge `L` (`|ab × ac| >= L²/16`) and a point within `16 L` of corner `a`,
/// the answer is within `1e-6 (L + |p − a|)` and 4 ulps of its coordinates of the `f64` walk's
/// (`the_f32_walk_on_shapely_triangles_agrees_with_the_f64_walk`); other input (slivers,
/// needles, far points, NaN) takes [`point_triangle`].
///
/// The same Voronoi-region walk. Its weights' rounding is about `ε / sin` of them (module
/// docs of `triangle`), at most `16 ε` here, so a point is put in a neighbouring region only
/// within that of the border, where both regions' answers meet; the face's answer is the
/// projection onto the plane, whose rounding does not grow with the shape.
#[inline]
pub(crate) fn point_triangle_shapely(p: Vec3, tri: &Triangle) -> Vec3 {
    use glam::Vec3A;
    let (pa, a, b, c) = (
        Vec3A::from(p),
        Vec3A::from(tri.a),
        Vec3A::from(tri.b),
        Vec3A::from(tri.c),
    );
    let (ab, ac, bc) = (b - a, c - a, c - b);
    let n = ab.cross(ac);
    let ap = pa - a;
    let longest2 = ab
        .length_squared()
        .max(ac.length_squared())
        .max(bc.length_squared());
    // `|n|² >= L⁴/256` and `|ap|² <= 256 L²`; false for NaN.
    let shapely = n.length_squared() * 256.0 >= longest2 * longest2
        && ap.length_squared() <= 256.0 * longest2
        && longest2 > 0.0
        && longest2.is_finite();
    if !shapely {
        return point_triangle(p, tri);
    }
    // Vertex region A.
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a.into();
    }
    // Vertex region B.
    let bp = pa - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b.into();
    }
    // Edge region AB: the weight of C, `n · (ap × bp)`, not above 0.
    let vc = n.dot(ap.cross(bp));
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * (d1 / (d1 - d3))).into();
    }
    // Vertex region C.
    let cp = pa - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c.into();
    }
    // Edge region AC.
    let vb = n.dot(cp.cross(ap));
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (a + ac * (d2 / (d2 - d6))).into();
    }
    // Edge region BC.
    let va = n.dot(bp.cross(cp));
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return (b + bc * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))).into();
    }
    // The face: `p` less its height over the plane.
    (pa - n * (n.dot(ap) / n.length_squared())).into()
}

/// [`point_triangle_shapely`] of `p` and four triangles at once, lane `k` the triangle
/// `tris[k]`: each lane computes the same products, sums and quotients as the one-triangle
/// walk and takes the first of its Voronoi regions in the same order, by selects instead of
/// branches, so the same point, bit for bit. `None` for a lane whose triangle is not shapely
/// (the one-triangle walk then takes [`point_triangle`]).
pub(crate) fn point_triangle_shapely4(p: Vec3, tris: &[[Vec3; 3]; 4]) -> [Option<Vec3>; 4] {
    use glam::{BVec4A, Vec4};
    /// A coordinate of the four triangles' corner `k`.
    fn lanes(tris: &[[Vec3; 3]; 4], k: usize, axis: usize) -> Vec4 {
        Vec4::new(
            tris[0][k][axis],
            tris[1][k][axis],
            tris[2][k][axis],
            tris[3][k][axis],
        )
    }
    /// `Vec3A::dot`'s sum, `(x x' + y y') + z z'`, lane by lane.
    fn dot(a: &[Vec4; 3], b: &[Vec4; 3]) -> Vec4 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    /// `Vec3A::cross`, lane by lane.
    fn cross(a: &[Vec4; 3], b: &[Vec4; 3]) -> [Vec4; 3] {
        [
            a[1] * b[2] - b[1] * a[2],
            a[2] * b[0] - b[2] * a[0],
            a[0] * b[1] - b[0] * a[1],
        ]
    }
    let sub = |a: &[Vec4; 3], b: &[Vec4; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let corner = |k: usize| [lanes(tris, k, 0), lanes(tris, k, 1), lanes(tris, k, 2)];
    let (a, b, c) = (corner(0), corner(1), corner(2));
    let pa = [Vec4::splat(p.x), Vec4::splat(p.y), Vec4::splat(p.z)];
    let (ab, ac, bc) = (sub(&b, &a), sub(&c, &a), sub(&c, &b));
    let n = cross(&ab, &ac);
    let ap = sub(&pa, &a);
    let longest2 = dot(&ab, &ab).max(dot(&ac, &ac)).max(dot(&bc, &bc));
    let shapely = (dot(&n, &n) * 256.0).cmpge(longest2 * longest2)
        & dot(&ap, &ap).cmple(longest2 * 256.0)
        & longest2.cmpgt(Vec4::ZERO)
        & longest2.cmplt(Vec4::INFINITY);
    let zero = Vec4::ZERO;
    let (d1, d2) = (dot(&ab, &ap), dot(&ac, &ap));
    let bp = sub(&pa, &b);
    let (d3, d4) = (dot(&ab, &bp), dot(&ac, &bp));
    let vc = dot(&n, &cross(&ap, &bp));
    let cp = sub(&pa, &c);
    let (d5, d6) = (dot(&ab, &cp), dot(&ac, &cp));
    let vb = dot(&n, &cross(&cp, &ap));
    let va = dot(&n, &cross(&bp, &cp));
    // The regions in the walk's order; each lane takes the first that holds.
    let at_a = d1.cmple(zero) & d2.cmple(zero);
    let at_b = d3.cmpge(zero) & d4.cmple(d3);
    let on_ab = vc.cmple(zero) & d1.cmpge(zero) & d3.cmple(zero);
    let at_c = d6.cmpge(zero) & d5.cmple(d6);
    let on_ac = vb.cmple(zero) & d2.cmpge(zero) & d6.cmple(zero);
    let (d43, d56) = (d4 - d3, d5 - d6);
    let on_bc = va.cmple(zero) & d43.cmpge(zero) & d56.cmpge(zero);
    let (t_ab, t_ac, t_bc) = (d1 / (d1 - d3), d2 / (d2 - d6), d43 / (d43 + d56));
    let face = dot(&n, &ap) / dot(&n, &n);
    let mut out = [Vec4::ZERO; 3];
    for axis in 0..3 {
        // From the last region to the first, so that the first that holds is kept.
        let mut q = pa[axis] - n[axis] * face;
        q = Vec4::select(on_bc, b[axis] + bc[axis] * t_bc, q);
        q = Vec4::select(on_ac, a[axis] + ac[axis] * t_ac, q);
        q = Vec4::select(at_c, c[axis], q);
        q = Vec4::select(on_ab, a[axis] + ab[axis] * t_ab, q);
        q = Vec4::select(at_b, b[axis], q);
        q = Vec4::select(at_a, a[axis], q);
        out[axis] = q;
    }
    let kept: BVec4A = shapely;
    let mask = kept.bitmask();
    [0, 1, 2, 3].map(|k| (mask & (1 << k) != 0).then(|| Vec3::new(out[0][k], out[1][k], out[2][k])))
}

/// Squared distance from `p` to the triangle; NaN for NaN input.
#[inline]
#[must_use]
pub fn distance_squared_point_triangle(p: Vec3, tri: &Triangle) -> f32 {
    p.distance_squared(point_triangle(p, tri))
}

/// The closest points of two segments, with their parameters `s`, `t` in `[0, 1]`.
///
/// Ericson's clamped solution of the 2×2 normal equations (RTCD §5.1.9): the unclamped line
/// parameters, `s` clamped, `t` from `s` and clamped, and `s` recomputed when `t` was clamped.
/// Robust for every input:
/// - parallel (or nearly parallel) segments: the 2×2 determinant is zero and `s = 0` is
///   taken; the recomputation then gives a correct closest pair (one of many);
/// - zero-length segments (shorter than about `1e-19`): a point against a segment is
///   [`point_segment`], two points are themselves, parameter `0`;
/// - intersecting segments give the intersection point twice.
///
/// NaN input gives NaN.
#[must_use]
pub fn segment_segment(first: &Segment, second: &Segment) -> SegmentPair {
    let (p1, p2) = (first.a, second.a);
    let d1 = first.b - first.a; // direction of the first segment
    let d2 = second.b - second.a; // direction of the second segment
    let r = p1 - p2;
    let a = d1.length_squared(); // |d1|²
    let e = d2.length_squared(); // |d2|²
    let f = d2.dot(r);

    // A NaN anywhere: NaN out, never a clamp of NaN bounds.
    if a.is_nan() || e.is_nan() || r.is_nan() {
        return SegmentPair {
            on_first: Vec3::NAN,
            on_second: Vec3::NAN,
            s: f32::NAN,
            t: f32::NAN,
        };
    }

    // A segment shorter than ~1e-19 (|d|² below the smallest normal f32) is a point; this
    // also keeps the reciprocals below finite.
    let (first_is_point, second_is_point) = (a < f32::MIN_POSITIVE, e < f32::MIN_POSITIVE);
    let (s, t);
    if first_is_point && second_is_point {
        // Both are points.
        s = 0.0;
        t = 0.0;
    } else if first_is_point {
        // The first is a point: t = (d2·(p1 - p2)) / |d2|², clamped.
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if second_is_point {
            // The second is a point: s = -(d1·(p1 - p2)) / |d1|², clamped.
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            // General case. Minimise |p1 + s d1 - p2 - t d2|²:
            //   a s - b t = -c,   b s - e t = -f   with b = d1·d2,
            // determinant denom = a e - b² = |d1 × d2|² >= 0.
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            // Independent of each other, so the divisions overlap.
            let (inv_a, inv_e) = (a.recip(), e.recip());
            let s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                // Parallel: any s works for the line pair; the steps below fix it up.
                0.0
            };
            // The point of the second segment closest to first(s0): t = (b s0 + f) / e,
            // clamped.
            t = ((b * s0 + f) * inv_e).clamp(0.0, 1.0);
            // The point of the first segment closest to second(t): s = (b t - c) / a, clamped.
            // When t needed no clamp, (s0, t) is already optimal and this gives s0 again (the
            // optimal s for a given t is unique); when t was clamped this is Ericson's
            // recomputation. Written without branches: the clamp cases are unpredictable.
            s = ((b * t - c) * inv_a).clamp(0.0, 1.0);
        }
    }
    SegmentPair {
        on_first: p1 + d1 * s,
        on_second: p2 + d2 * t,
        s,
        t,
    }
}

/// Squared distance between two segments; NaN for NaN input.
#[inline]
#[must_use]
pub fn distance_squared_segment_segment(first: &Segment, second: &Segment) -> f32 {
    segment_segment(first, second).distance_squared()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // `Vec3A::cross` fuses its products with FMA enabled; the four-lane walk does not.
    #[cfg(not(target_feature = "fma"))]
    fn the_four_lane_walk_is_the_one_triangle_walk() {
        // Four triangles at a time (shapely ones from equilateral to past the shape rule,
        // slivers, repeated points, NaN corners) against one point near one of them, on and
        // beside its regions' borders: each shapely lane's point is the one-triangle walk's,
        // bit for bit, and a lane is left to that walk exactly when it is not shapely.
        let mut g = collide_testkit::Gen::new(0x7a4);
        let mut regions = [0usize; 7];
        for round in 0..20_000 {
            let scale = 10f32.powf(g.range(-3.0, 3.0));
            let at = g.vec(scale * 10.0);
            let tris = [0, 1, 2, 3].map(|_| {
                let (a, b) = (at + g.vec(scale), at + g.vec(scale));
                let width = [1.0, 0.1, 1e-3, 0.0][g.range(0.0, 4.0) as usize % 4] * scale;
                let c = a + (b - a) * g.range(-0.3, 1.3) + g.unit() * width;
                if round % 97 == 0 {
                    [a, b, Vec3::NAN]
                } else {
                    [a, b, c]
                }
            });
            let t = &tris[g.range(0.0, 4.0) as usize % 4];
            let tri = Triangle::new(t[0], t[1], t[2]);
            let on = [
                t[0],
                t[1],
                t[2],
                (t[0] + t[1]) * 0.5,
                (t[1] + t[2]) * 0.5,
                (t[2] + t[0]) * 0.5,
                tri.centroid(),
            ];
            let which = g.range(0.0, 7.0) as usize % 7;
            let off = [0.0, 1e-6, 1e-3, 1.0][g.range(0.0, 4.0) as usize % 4];
            let p = on[which] + g.vec(scale * off);
            let four = point_triangle_shapely4(p, &tris);
            for (t, q) in tris.iter().zip(four) {
                let tri = Triangle::new(t[0], t[1], t[2]);
                let one = point_triangle_shapely(p, &tri);
                match q {
                    Some(q) => {
                        assert_eq!(
                            q.to_array().map(f32::to_bits),
                            one.to_array().map(f32::to_bits),
                            "{p} to {tri:?}"
                        );
                        regions[which] += 1;
                    }
                    // Not shapely: the one-triangle walk took the `f64` walk.
                    None => assert_eq!(
                        one.to_array().map(f32::to_bits),
                        point_triangle(p, &tri).to_array().map(f32::to_bits)
                    ),
                }
            }
        }
        assert!(regions.iter().all(|&n| n > 3000), "{regions:?}");
    }

    #[test]
    fn the_f32_walk_on_shapely_triangles_agrees_with_the_f64_walk() {
        // Random triangles from equilateral to just past the shape rule (width 1/16 of the
        // longest edge), at random scales and places; points on and beside the regions'
        // borders (corners, edges, the face, and just off each) and at random up to past the
        // distance rule: within 1e-6 (L + |p − a|) of `point_triangle`.
        let mut g = collide_testkit::Gen::new(0x7a1);
        let mut fast = 0;
        for _ in 0..20_000 {
            let scale = 10f32.powf(g.range(-3.0, 3.0));
            let far = [1.0, 100.0][g.range(0.0, 2.0) as usize % 2];
            let at = g.vec(scale * far);
            let (a, b) = (at, at + g.unit() * scale);
            let width = g.range(1.0 / 17.0, 1.0) * scale;
            let c = a + (b - a) * g.range(-0.3, 1.3) + g.unit() * width;
            let tri = Triangle::new(a, b, c);
            let on = [
                a,
                b,
                c,
                (a + b) * 0.5,
                (b + c) * 0.5,
                (c + a) * 0.5,
                tri.centroid(),
            ];
            let base = on[g.range(0.0, 7.0) as usize % 7];
            let off = [1e-6, 1e-3, 1.0, 20.0][g.range(0.0, 4.0) as usize % 4];
            let p = base + g.vec(scale * off);
            let q = point_triangle_shapely(p, &tri);
            let want = point_triangle(p, &tri);
            let longest = (b - a).length().max((c - a).length()).max((c - b).length());
            // Beside the walks' difference, each answer's own rounding to f32: 4 ulps of the
            // largest coordinate.
            let size = f64::from(longest) + f64::from((p - a).length());
            let ulps = 4.0 * f64::from(f32::EPSILON * want.abs().max_element());
            let err = (q.as_dvec3().distance(want.as_dvec3()) - ulps).max(0.0) / size;
            assert!(err <= 1e-6, "{err:e}: {p} to {tri:?}: {q} vs {want}");
            let shapely = (b - a).cross(c - a).length_squared() * 256.0 >= longest.powi(4)
                && (p - a).length_squared() <= 256.0 * longest * longest;
            fast += usize::from(shapely);
        }
        assert!(fast > 10_000, "only {fast} took the f32 walk");
        // Slivers narrower than the rule take the f64 walk itself.
        for _ in 0..2000 {
            let (a, b) = (g.vec(1.0), g.vec(1.0));
            let c = a
                + (b - a) * g.range(-0.3, 1.3)
                + g.unit() * (b - a).length() * g.range(1e-7, 0.05);
            let (tri, p) = (Triangle::new(a, b, c), g.vec(2.0));
            assert_eq!(point_triangle_shapely(p, &tri), point_triangle(p, &tri));
        }
        assert!(
            point_triangle_shapely(Vec3::NAN, &Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y))
                .is_nan()
        );
    }
    use crate::assert_near;
    use crate::math::Quat;

    #[test]
    fn point_aabb_inside_outside_corner() {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        // Inside: the point itself, distance 0.
        assert_eq!(point_aabb(Vec3::splat(0.5), &b), Vec3::splat(0.5));
        assert_eq!(distance_squared_point_aabb(Vec3::splat(0.5), &b), 0.0);
        // Beyond a face: projected onto it.
        assert_eq!(
            point_aabb(Vec3::new(3.0, 0.5, 0.5), &b),
            Vec3::new(1.0, 0.5, 0.5)
        );
        assert_near!(
            distance_squared_point_aabb(Vec3::new(3.0, 0.5, 0.5), &b),
            4.0
        );
        // Beyond a corner: the corner, distance² 1 + 1 + 1.
        assert_eq!(point_aabb(Vec3::splat(-1.0), &b), Vec3::ZERO);
        assert_near!(distance_squared_point_aabb(Vec3::splat(-1.0), &b), 3.0);
        assert!(distance_squared_point_aabb(Vec3::NAN, &b).is_nan());
    }

    #[test]
    fn point_obb_rotated_box() {
        // A unit cube turned 45° about z: its corner +x+y lies on the world +y axis at √2.
        let o = Obb::new(
            Vec3::ZERO,
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        let q = point_obb(Vec3::new(0.0, 5.0, 0.0), &o);
        assert_near!(q, Vec3::new(0.0, 2f32.sqrt(), 0.0), 1e-5);
        assert_near!(
            distance_squared_point_obb(Vec3::new(0.0, 5.0, 0.0), &o),
            (5.0 - 2f32.sqrt()).powi(2),
            1e-4
        );
        assert_eq!(
            distance_squared_point_obb(Vec3::new(0.1, 0.2, 0.3), &o),
            0.0
        );
        assert!(point_obb(Vec3::NAN, &o).is_nan());
    }

    #[test]
    fn point_segment_clamps_and_points() {
        let s = Segment::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0));
        // Beside the middle: projected, u = 1/2.
        let r = point_segment(Vec3::new(1.0, 3.0, 0.0), &s);
        assert_near!(r.point, Vec3::X);
        assert_near!(r.u, 0.5);
        // Past either end: the end point.
        assert_eq!(point_segment(Vec3::new(-4.0, 1.0, 0.0), &s).u, 0.0);
        assert_eq!(point_segment(Vec3::new(9.0, 1.0, 0.0), &s).u, 1.0);
        // Zero-length segment: its point, u = 0.
        let z = Segment::new(Vec3::ONE, Vec3::ONE);
        assert_eq!(
            point_segment(Vec3::ZERO, &z),
            OnSegment {
                point: Vec3::ONE,
                u: 0.0
            }
        );
        assert!(point_segment(Vec3::NAN, &s).u.is_nan());
        assert!(
            distance_squared_point_segment(Vec3::ZERO, &Segment::new(Vec3::NAN, Vec3::ONE))
                .is_nan()
        );
    }

    #[test]
    fn point_triangle_each_voronoi_region() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        // Vertex regions.
        assert_eq!(point_triangle(Vec3::new(-1.0, -1.0, 1.0), &t), t.a);
        assert_eq!(point_triangle(Vec3::new(3.0, -1.0, 1.0), &t), t.b);
        assert_eq!(point_triangle(Vec3::new(-1.0, 3.0, 1.0), &t), t.c);
        // Edge regions AB, AC, BC.
        assert_near!(point_triangle(Vec3::new(1.0, -1.0, 1.0), &t), Vec3::X);
        assert_near!(point_triangle(Vec3::new(-1.0, 1.0, 1.0), &t), Vec3::Y);
        assert_near!(
            point_triangle(Vec3::new(2.0, 2.0, 0.0), &t),
            Vec3::new(1.0, 1.0, 0.0)
        );
        // Face: straight down onto the plane.
        assert_near!(
            point_triangle(Vec3::new(0.5, 0.5, 3.0), &t),
            Vec3::new(0.5, 0.5, 0.0)
        );
        assert_near!(
            distance_squared_point_triangle(Vec3::new(0.5, 0.5, -3.0), &t),
            9.0
        );
    }

    #[test]
    fn point_triangle_sliver() {
        // Scenario: a sliver 400 long along y and ~0.01 across. Its cross-section at y = 0 is the
        // segment (0.00758, 0, 0.0115) – (0.01094, 0, 0.00055); the origin is 0.01062 from it. In
        // f32 the region tests cancel and give a point 0.206 away.
        let t = Triangle::new(
            Vec3::new(0.007826861, 11.795956, 0.01148897),
            Vec3::new(0.01148897, 19.074705, -3.9444797e-24),
            Vec3::new(-3.944516e-24, -380.47153, 0.0115213385),
        );
        let q = point_triangle(Vec3::ZERO, &t);
        assert!((q.length() - 0.010622).abs() < 2e-5, "{q}");
        assert!(q.y.abs() < 1e-4, "{q}");
        assert!(crate::overlap::sphere_triangle(
            &crate::shapes::Sphere::new(Vec3::ZERO, 0.0134),
            &t
        ));
    }

    #[test]
    fn point_triangle_needle() {
        // Scenario: a needle 3e-13 wide and 8.5 long; a point on it at 75% of its length is
        // its own closest point (barycentric weights in f64 give 0.0015 along it).
        let t = Triangle::new(
            Vec3::splat(-3.0316488e-13),
            Vec3::new(-3.0316488e-13, -3.0316488e-13, 0.0),
            Vec3::new(2.842171e-14, 6.0, 6.0),
        );
        let p = Vec3::new(-5.4178884e-14, 4.5, 4.5);
        let q = point_triangle(p, &t);
        assert!((q - p).length() < 1e-6, "{q}");
    }

    #[test]
    fn point_triangle_degenerate() {
        // Collinear corners: the segment from (0,0,0) to (3,0,0).
        let t = Triangle::new(Vec3::ZERO, Vec3::X * 3.0, Vec3::X);
        assert_near!(point_triangle(Vec3::new(2.0, 1.0, 0.0), &t), Vec3::X * 2.0);
        assert_near!(point_triangle(Vec3::new(5.0, 1.0, 0.0), &t), Vec3::X * 3.0);
        // All corners coincide: the point.
        let p = Triangle::new(Vec3::ONE, Vec3::ONE, Vec3::ONE);
        assert_eq!(point_triangle(Vec3::ZERO, &p), Vec3::ONE);
        assert!(point_triangle(Vec3::NAN, &p).is_nan());
    }

    #[test]
    fn segment_segment_crossing_skew_parallel() {
        // Crossing at (1, 0, 0).
        let s1 = Segment::new(Vec3::ZERO, Vec3::X * 2.0);
        let s2 = Segment::new(Vec3::new(1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 0.0));
        let r = segment_segment(&s1, &s2);
        assert_near!(r.on_first, Vec3::X);
        assert_near!(r.on_second, Vec3::X);
        assert_near!(r.s, 0.5);
        assert_near!(r.t, 0.5);
        // Skew: the second lifted by 2 in z.
        let s3 = Segment::new(Vec3::new(1.0, -1.0, 2.0), Vec3::new(1.0, 1.0, 2.0));
        assert_near!(distance_squared_segment_segment(&s1, &s3), 4.0);
        // Parallel, overlapping in x, 1 apart: distance 1.
        let s4 = Segment::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(5.0, 1.0, 0.0));
        let r = segment_segment(&s1, &s4);
        assert_near!(r.distance_squared(), 1.0);
        // Parallel, disjoint in x: end to end, s = 1, t = 0.
        let s5 = Segment::new(Vec3::new(4.0, 1.0, 0.0), Vec3::new(6.0, 1.0, 0.0));
        let r = segment_segment(&s1, &s5);
        assert_near!(r.s, 1.0);
        assert_near!(r.t, 0.0);
        assert_near!(r.distance_squared(), 5.0);
    }

    #[test]
    fn segment_segment_zero_length() {
        let s = Segment::new(Vec3::ZERO, Vec3::X * 2.0);
        let p = Segment::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0));
        let r = segment_segment(&p, &s);
        assert_near!(r.on_second, Vec3::X);
        assert_near!(r.s, 0.0);
        assert_near!(r.t, 0.5);
        let r = segment_segment(&s, &p);
        assert_near!(r.s, 0.5);
        assert_near!(r.t, 0.0);
        let r = segment_segment(&p, &p);
        assert_eq!(r.distance_squared(), 0.0);
        let n = Segment::new(Vec3::NAN, Vec3::ZERO);
        assert!(segment_segment(&n, &s).distance_squared().is_nan());
        assert!(segment_segment(&s, &n).distance_squared().is_nan());
    }
}
