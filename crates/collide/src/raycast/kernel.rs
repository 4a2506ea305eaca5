//! `f64` kernels shared by the ray casts and the sweeps: first hit of a moving point against a
//! sphere, a capsule, a rounded box and a rounded triangle, and the closest points they need.
//!
//! Every input is an `f32` value widened to `f64` (exactly), so the only rounding left is that
//! of the few `f64` operations below; near-grazing contacts, whose times are ill-conditioned
//! (a square root of a cancelling difference), keep about eight digits instead of two.
//!
//! Convention: a point moves as `p + t d`; "first hit" is the smallest `t` in `[0, t_max]`
//! at which it touches the (closed) solid, `Some(0)` when it starts inside or on it.

use glam::{DMat3, DVec3};

/// Relative slack on a discriminant `r² A - (...)²`: a tangency lost to `f64` rounding still
/// counts as touching. In distance this is a slack of about `1e-12 · r`.
pub(crate) const DISC_SLACK: f64 = 2e-12;

/// Squared distance from `p` to the segment `a`–`b` (a point when `a == b`).
///
/// Project onto the line and clamp the parameter to `[0, 1]` (Ericson, RTCD §5.1.2).
#[inline]
pub(crate) fn dist2_point_segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let ap = p - a;
    let mm = ab.length_squared();
    let s = if mm > 0.0 {
        (ap.dot(ab) / mm).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (ap - s * ab).length_squared()
}

/// The point of the axis-aligned box `[-e, e]` closest to `p` (clamp each coordinate).
#[inline]
pub(crate) fn closest_point_box(p: DVec3, e: DVec3) -> DVec3 {
    p.clamp(-e, e)
}

/// The point of the triangle `a, b, c` closest to `p` (`f64`); a degenerate triangle is treated
/// as the segment or point it is. The same walk as `closest::point_triangle` (RTCD §5.1.5).
pub(crate) use crate::closest::triangle::point_triangle as closest_point_triangle;

/// The real interval `[t0, t1]` of all `t` (unbounded) with `|f + t d| <= r`, or `None` when
/// it is empty. No relative motion (`d = 0`) gives `(-inf, inf)` when touching, else `None`.
///
/// `|f + t d|² = r²` is `a t² + 2 b t + c = 0` with `a = d·d`, `b = f·d`, `c = f·f - r²`
/// (Gomez 1999, listing 2, with the half-`b` form). The discriminant `b² - a c` is computed
/// as `r² a - |f × d|²` (Lagrange's identity), which does not cancel catastrophically, and
/// the roots as `q / a` and `c / q` with `q = -(b + sign(b) √disc)` (Numerical Recipes §5.6;
/// ERRATA listing 2.3).
#[inline]
pub(crate) fn sphere_interval(f: DVec3, d: DVec3, r: f64) -> Option<(f64, f64)> {
    let a = d.length_squared();
    let c = f.length_squared() - r * r;
    if a == 0.0 {
        // Zero relative motion is its own case (ERRATA listing 2.1).
        return (c <= 0.0).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let b = f.dot(d);
    let disc = r * r * a - f.cross(d).length_squared();
    // Tangency within rounding counts as touching (a distance slack of ~1e-12 r).
    if disc < -DISC_SLACK * r * r * a {
        return None;
    }
    if disc < 0.0 {
        // A graze kept by the slack: the line's tangency time `-b/a`, as one double root.
        // (With `disc` clamped to 0 the root `c / q` is `c / -b`, which is not the tangency
        // when `b² ≪ |disc|`: both `b` and `c` are then rounding noise; see `ray_capsule`.)
        let t = -b / a;
        return Some((t, t));
    }
    let sq = disc.sqrt();
    let q = if b >= 0.0 { -(b + sq) } else { -b + sq };
    if q == 0.0 {
        // b = 0 and disc = 0: a double root at t = 0.
        return Some((0.0, 0.0));
    }
    let (r1, r2) = (q / a, c / q);
    Some((r1.min(r2), r1.max(r2)))
}

/// First hit in `[0, t_max]` of the point `p + t d` against the ball of centre `c`, radius `r`.
#[inline]
pub(crate) fn ray_sphere(p: DVec3, d: DVec3, c: DVec3, r: f64, t_max: f64) -> Option<f64> {
    let (t0, t1) = sphere_interval(p - c, d, r)?;
    if t1 < 0.0 || t0 > t_max {
        return None;
    }
    Some(t0.max(0.0))
}

/// First hit in `[0, t_max]` of `p + t d` against the capsule of segment `a`–`b`, radius `r`.
///
/// Inside (distance to the segment `<= r`) gives `0`. Otherwise the earliest of the two end
/// spheres and the cylinder wall whose hit projects inside the segment (Ericson, RTCD §5.3.7).
/// The cylinder is `|(x - a) × m|² = r² |m|²` with `m = b - a`; along the ray this is
/// `A t² + 2 B t + C = 0` with `A = |d × m|²`, `B = (d × m)·(f × m)`, `C = |f × m|² - r²|m|²`
/// and discriminant `B² - A C = |m|² (r² A - det(d, m, f)²)`, again free of cancellation.
pub(crate) fn ray_capsule(
    p: DVec3,
    d: DVec3,
    a: DVec3,
    b: DVec3,
    r: f64,
    t_max: f64,
) -> Option<f64> {
    if dist2_point_segment(p, a, b) <= r * r {
        return Some(0.0);
    }
    let mut best = f64::INFINITY;
    for c in [a, b] {
        if let Some(t) = ray_sphere(p, d, c, r, t_max) {
            best = best.min(t);
        }
    }
    let m = b - a;
    let mm = m.length_squared();
    if mm > 0.0 {
        let f = p - a;
        let dm = d.cross(m);
        let fm = f.cross(m);
        let aa = dm.length_squared();
        let bb = dm.dot(fm);
        let cc = fm.length_squared() - r * r * mm;
        // Outside the infinite cylinder (cc > 0) and approaching it (bb < 0).
        if aa > 0.0 && cc > 0.0 && bb < 0.0 {
            let det = d.dot(m.cross(f));
            let disc = mm * (r * r * aa - det * det);
            let slack = DISC_SLACK * mm * r * r * aa;
            if disc >= -slack {
                // A graze kept by the slack (`disc < 0`) is
                // touched at the tangency time `-B/A`. The stable root `C / (-B + √disc)`
                // with `disc` clamped to 0 is `C / -B`, a ratio of two rounding residues when
                // the ray starts at the tangency (B, C ~ 1e-20 against A ~ 1e-9): it puts the
                // hit at t = 0.45, where the ray is 1.2e-4 outside a capsule of radius 0.011.
                // The same holds for a `disc` within the slack
                // on the other side, down to an exact 0. `C` and `disc` come from different
                // products (`|f × m|²` and `det`), so their rounding is independent, and a
                // start on the cylinder at the tangency leaves `disc` = 0 with B = -1e-12 and
                // C = 2e-13: a hit at t = 0.22, 0.26 outside a capsule of radius 6. Within the
                // band the line is at most 1e-12 r inside the cylinder and its two roots at
                // most 2.8e-6 r apart (seen along the axis), so their midpoint `-B/A` is the
                // touch; above it, the rounding of `C` moves the root by ~1e-10 r at most.
                let t = if disc > slack {
                    cc / (-bb + disc.sqrt())
                } else {
                    -bb / aa
                };
                let s = (f + t * d).dot(m) / mm;
                if (0.0..=1.0).contains(&s) && t <= t_max {
                    best = best.min(t);
                }
            }
        }
    }
    (best <= t_max).then_some(best)
}

/// [`ray_capsule`] testing at most one of its three parts where that part is clearly the one
/// the ray enters by, else [`ray_capsule`] itself: the same first hit, with less work.
///
/// The capsule lies inside its infinite cylinder `|(x - a) × m| <= r |m|`, so a ray enters
/// the capsule no earlier than the cylinder. Let `s` be the axis coordinate (`0` at `a`, `1`
/// at `b`) where the ray is first inside the cylinder (at its entry, or at the origin when it
/// starts inside the cylinder). With `s` in `[0, 1]` that point is on the capsule: the entry.
/// With `s < 0` the ray, while inside the cylinder, meets the capsule only in the ball at `a`
/// (the cylinder's points with `s <= 0` that are in the capsule are that ball's, and to reach
/// `s > 0` inside the cylinder the ray crosses the disk `s = 0`, which is in the ball): the
/// entry is the ball's. Likewise `s > 1` and the ball at `b`. A ray outside the cylinder that
/// does not approach its axis, or whose line misses the cylinder, misses. Each case is taken
/// only with a margin (`s` more than 1e-6 from `0` and `1`, the start more than 1e-6 of `r²`
/// from the cylinder, the discriminant more than 1e-6 of its scale from 0), where rounding
/// cannot move the answer to another part; near those boundaries, and for a capsule that is
/// a ball, [`ray_capsule`] decides.
pub(crate) fn ray_capsule_one_part(
    p: DVec3,
    d: DVec3,
    a: DVec3,
    b: DVec3,
    r: f64,
    t_max: f64,
) -> Option<f64> {
    const MARGIN: f64 = 1e-6;
    let m = b - a;
    let mm = m.length_squared();
    if mm <= 0.0 || mm.is_nan() || dist2_point_segment(p, a, b) <= r * r {
        return ray_capsule(p, d, a, b, r, t_max);
    }
    // The cylinder along the ray, as in `ray_capsule`: A t² + 2 B t + C = 0.
    let f = p - a;
    let (dm, fm) = (d.cross(m), f.cross(m));
    let (aa, bb) = (dm.length_squared(), dm.dot(fm));
    let rrmm = r * r * mm;
    let cc = fm.length_squared() - rrmm;
    let s = if cc < -MARGIN * rrmm {
        // Starting inside the cylinder (and outside the capsule: beyond an end).
        f.dot(m) / mm
    } else if cc > MARGIN * rrmm {
        if bb >= 0.0 {
            // Outside and not approaching the axis: the distance to it never decreases.
            return None;
        }
        let det = d.dot(m.cross(f));
        let disc = mm * (r * r * aa - det * det);
        let scale = mm * r * r * aa;
        if disc < -MARGIN * scale {
            // The line passes the cylinder.
            return None;
        }
        if disc <= MARGIN * scale {
            return ray_capsule(p, d, a, b, r, t_max);
        }
        let t = cc / (-bb + disc.sqrt());
        let s = (f + t * d).dot(m) / mm;
        if (MARGIN..=1.0 - MARGIN).contains(&s) {
            return (t <= t_max).then_some(t);
        }
        s
    } else {
        return ray_capsule(p, d, a, b, r, t_max);
    };
    if s < -MARGIN {
        ray_sphere(p, d, a, r, t_max)
    } else if s > 1.0 + MARGIN {
        ray_sphere(p, d, b, r, t_max)
    } else {
        ray_capsule(p, d, a, b, r, t_max)
    }
}

/// First hit in `[0, t_max]` of `p + t d` against the box `[-e, e]` grown by `r` (a rounded
/// box: the Minkowski sum of the box and a ball), in the box's frame.
///
/// Inside gives `0`. Otherwise the slab test against the box grown by `r` on every side; if its
/// entry point lies where at most one coordinate is outside `[-e, e]` it is on a flat face and
/// is the answer; with two outside it is in an edge region and the answer is the capsule cast
/// against that edge; with three, against the three edges meeting at that corner (Ericson,
/// RTCD §5.5.7, "IntersectMovingSphereAABB").
pub(crate) fn ray_rounded_box(p: DVec3, d: DVec3, e: DVec3, r: f64, t_max: f64) -> Option<f64> {
    if (p - closest_point_box(p, e)).length_squared() <= r * r {
        return Some(0.0);
    }
    let g = e + DVec3::splat(r);
    let (mut t0, mut t1) = (0.0_f64, t_max);
    for i in 0..3 {
        if d[i] == 0.0 {
            if p[i] < -g[i] || p[i] > g[i] {
                return None;
            }
        } else {
            let inv = 1.0 / d[i];
            let (mut ta, mut tb) = ((-g[i] - p[i]) * inv, (g[i] - p[i]) * inv);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return None;
            }
        }
    }
    let q = p + t0 * d;
    let (mut outside, mut count) = ([false; 3], 0);
    for i in 0..3 {
        if q[i].abs() > e[i] {
            outside[i] = true;
            count += 1;
        }
    }
    if count <= 1 {
        return Some(t0);
    }
    // The corner nearest q (signs of q on the outside axes; any sign on the others).
    let s = DVec3::new(
        if q.x < 0.0 { -e.x } else { e.x },
        if q.y < 0.0 { -e.y } else { e.y },
        if q.z < 0.0 { -e.z } else { e.z },
    );
    let mut best = f64::INFINITY;
    for k in 0..3 {
        // The edge along axis k through corner s: an edge of this region when every other
        // axis is outside (count == 2: the one inside axis is k; count == 3: all three).
        let others_outside = (0..3).filter(|&j| j != k).all(|j| outside[j]);
        if !others_outside {
            continue;
        }
        let mut a = s;
        let mut b = s;
        a[k] = -e[k];
        b[k] = e[k];
        if let Some(t) = ray_capsule(p, d, a, b, r, t_max) {
            best = best.min(t);
        }
    }
    (best <= t_max).then_some(best)
}

/// First hit in `[0, t_max]` of `p + t d` against the triangle `a, b, c` grown by `r` (the
/// Minkowski sum of the triangle and a ball).
///
/// The sum is the union of the prism `triangle × [-r, r]` along the normal and the three edge
/// capsules (which contain the prism's side walls), so the first hit is the earliest of the
/// two offset faces (where the hit projects inside the triangle) and the three capsules. A
/// degenerate triangle (collinear corners or a needle, as in `closest::triangle::has_area`)
/// is its capsules alone.
pub(crate) fn ray_rounded_triangle(
    p: DVec3,
    d: DVec3,
    [a, b, c]: [DVec3; 3],
    r: f64,
    t_max: f64,
) -> Option<f64> {
    let q = closest_point_triangle(p, a, b, c);
    if (p - q).length_squared() <= r * r {
        return Some(0.0);
    }
    let mut best = f64::INFINITY;
    for (s, e) in [(a, b), (b, c), (c, a)] {
        if let Some(t) = ray_capsule(p, d, s, e, r, t_max) {
            best = best.min(t);
        }
    }
    // The faces only where the closest-point walk sees a face too: a needle is its capsules
    // (on a needle 1e-14 wide and 0.0078 long the ill-posed face test would report contact
    // 1.2e-4 before the sphere reaches the needle).
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if crate::closest::triangle::has_area(a, b, c) && nn > 0.0 {
        let n = n / nn.sqrt();
        let h = n.dot(p - a);
        let w = n.dot(d);
        // The offset face on p's side: n·(x - a) = ±r, reached when h + t w = ±r.
        let side = if h > r {
            r
        } else if h < -r {
            -r
        } else {
            f64::NAN
        };
        if !side.is_nan() && w != 0.0 && (side - h) / w >= 0.0 {
            let t = (side - h) / w;
            let x = p + t * d - side * n;
            // Inside test by edge functions: n·((v1 - v0) × (x - v0)) >= 0 for every edge.
            let inside = [(a, b), (b, c), (c, a)]
                .iter()
                .all(|&(v0, v1)| n.dot((v1 - v0).cross(x - v0)) >= 0.0);
            if inside && t <= t_max {
                best = best.min(t);
            }
        }
    }
    (best <= t_max).then_some(best)
}

/// The matrix `m` (columns a box's axes) widened to `f64`.
#[inline]
pub(crate) fn dmat3(m: &glam::Mat3) -> DMat3 {
    DMat3::from_cols(
        m.x_axis.as_dvec3(),
        m.y_axis.as_dvec3(),
        m.z_axis.as_dvec3(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_interval_roots_are_stable() {
        // Point at x = -1e4 moving at +1 against a unit ball: roots 9999 and 10001.
        let (t0, t1) = sphere_interval(DVec3::new(-1e4, 0.0, 0.0), DVec3::X, 1.0).unwrap();
        assert!((t0 - 9999.0).abs() < 1e-9 && (t1 - 10001.0).abs() < 1e-9);
    }

    #[test]
    fn capsule_side_and_cap_hits() {
        // Capsule along x from 0 to 4, r = 1; a ray down the y axis at x = 2 hits the side at y = 1.
        let (a, b) = (DVec3::ZERO, DVec3::new(4.0, 0.0, 0.0));
        let t = ray_capsule(DVec3::new(2.0, 5.0, 0.0), -DVec3::Y, a, b, 1.0, 10.0).unwrap();
        assert!((t - 4.0).abs() < 1e-12);
        // Along the axis from x = -5: the cap at x = -1.
        let t = ray_capsule(DVec3::new(-5.0, 0.0, 0.0), DVec3::X, a, b, 1.0, 10.0).unwrap();
        assert!((t - 4.0).abs() < 1e-12);
    }

    #[test]
    fn rounded_box_corner_region() {
        // Unit box, r = 1, a ray along the diagonal toward the corner (1,1,1): hits the corner
        // sphere at distance 1 from the corner.
        let dir = DVec3::ONE.normalize();
        let p = DVec3::splat(5.0);
        let t = ray_rounded_box(p, -dir, DVec3::ONE, 1.0, 100.0).unwrap();
        let expect = (p - DVec3::ONE).length() - 1.0;
        assert!((t - expect).abs() < 1e-12, "{t} vs {expect}");
    }

    #[test]
    fn graze_kept_by_the_slack_touches_at_the_tangency() {
        // A sphere centre starting on the (infinite) cylinder of a needle
        // edge, beyond its end, moving tangentially. `B` and `C` are rounding residues; the
        // root `C / -B` would put the hit at t = 0.45, 1.2e-4 outside the capsule. Any hit
        // lies on the capsule.
        let v = |x: f32, y: f32, z: f32| glam::Vec3::new(x, y, z).as_dvec3();
        let o = v(9.334_581e-15, 9.334_581e-15, 9.334_581e-15);
        let (s, e) = (
            v(5.6e-44, 7.105_427_4e-15, 9.334_581e-15) - o,
            v(9.334_581e-15, 0.0, 0.007_812_52) - o,
        );
        let p = v(2.524_444_3e-29, 0.011_488_914_5, 0.011_488_97) - o;
        let d =
            v(0.011_488_97, 0.011_488_97, 2.1524e-41) - v(0.007_812_5, 0.011_488_97, 0.011_488_97);
        let r = f64::from(0.011_488_914_5f32);
        for (a, b) in [(s, e), (e, s)] {
            if let Some(t) = ray_capsule(p, d, a, b, r, 1.0) {
                let dist = dist2_point_segment(p + t * d, a, b).sqrt();
                assert!(
                    dist <= r * (1.0 + 1e-9),
                    "hit at {t}: {dist} from the axis, r {r}"
                );
            }
        }
        // The same graze on a sphere: a start one ulp outside at the tangency, moving along
        // the tangent (disc = -4.4e-16, within the slack; b = -1e-20). The plain roots
        // `q / a` = 1e-20 and `c / q` = 44,000 would make a contact interval as long as the ray.
        let f = DVec3::new(1.0 + f64::EPSILON, 1e-20, 0.0);
        let (t0, t1) = sphere_interval(f, DVec3::NEG_Y, 1.0).expect("a graze within the slack");
        assert!(t0.abs() < 1e-15 && t1.abs() < 1e-15, "({t0}, {t1})");
    }
}
