//! The closest point of a triangle, written once (in `f64`) for both precisions: the `f32`
//! [`super::point_triangle`] widens its input (exactly) and rounds the answer once, and the
//! `f64` ray-cast and sweep kernels (`raycast::kernel`) call it directly. Ericson, RTCD §5.1.5.
//!
//! Why not an `f32` walk: its barycentric weights `va, vb, vc` are differences of products that
//! cancel on slivers, so for a triangle whose angle has a sine of 1e-9..1e-5 the `f32` walk
//! picked the wrong Voronoi region and answered up to 0.65 too far on unit-size triangles
//! (farther than the nearest edge); see `f32_answer_is_never_farther_than_an_edge` below.
//!
//! Even in `f64` those differences cancel on needles: each product is ~L⁴ and the weight
//! ~(L² sin)², so its error is ~ε / sin² of it (a needle 84 long with a sine of 4.4e-7 would
//! put the closest point of a point on its edge 0.0012 away). The weights are
//! therefore formed as Ericson writes them before Lagrange's identity, `n · (ap × bp)` with
//! `n = ab × ac`, whose error is ~ε / sin of the weight; see
//! `points_on_a_needle_are_their_own_closest_points`.

use glam::DVec3;

/// `(1e-10)²`: a triangle with `|ab × ac|² <= NEEDLE2 · L⁴` (`L` its longest edge), that is
/// narrower than `1e-10 · L`, is answered as its edges.
///
/// Below f32 resolution (~6e-8 of the coordinates) such a needle is the segment it is, and
/// even in f64 the barycentric weights of so thin a triangle are ill-conditioned (a needle 3e-13
/// wide and 8.5 long would put the closest point 0.0015 along it from a point on it). Collinear and
/// coincident corners (`|ab × ac| = 0`) are the limit case.
const NEEDLE2: f64 = 1e-20;

/// The point of the closed, filled triangle `a, b, c` closest to `p`.
///
/// Ericson's Voronoi-region walk (RTCD §5.1.5): vertex regions, then edge regions, then the
/// face, with barycentric coordinates from dot products only. A degenerate triangle
/// (collinear or coincident corners, or a needle narrower than `1e-10` of its longest edge,
/// see [`NEEDLE2`]) is the segment or point it spans: the closest of its three edges' closest
/// points. NaN input gives NaN.
pub(crate) fn point_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let ab = b - a;
    let ac = c - a;

    if !has_area(a, b, c) {
        return closest_on_edges(p, a, b, c);
    }

    // Vertex region A: ab·ap <= 0 and ac·ap <= 0.
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }

    // Vertex region B: ab·bp >= 0 and ac·bp <= ab·bp.
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }

    // Edge region AB: vc = (ab × ac)·(ap × bp) (the barycentric weight of C, scaled) <= 0,
    // with p projecting inside the edge: d1 >= 0, d3 <= 0. Then v = d1 / (d1 - d3), where
    // d1 - d3 = ab·ab > 0 for a non-degenerate triangle. The weights are formed with the
    // cross products, not as `d1·d4 − d3·d2` (equal by Lagrange's identity, but a difference
    // of products ~L⁴ that cancels on needles; see the module docs).
    let n = ab.cross(ac);
    let vc = n.dot(ap.cross(bp));
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }

    // Vertex region C: ac·cp >= 0 and ab·cp <= ac·cp.
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }

    // Edge region AC: vb <= 0, d2 >= 0, d6 <= 0; w = d2 / (d2 - d6), d2 - d6 = ac·ac > 0.
    let vb = n.dot(cp.cross(ap));
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }

    // Edge region BC: va <= 0, (d4 - d3) >= 0, (d5 - d6) >= 0; w along b→c.
    let va = n.dot(bp.cross(cp));
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }

    // Face region: barycentric (u, v, w) = (va, vb, vc) / (va + vb + vc); all three are
    // positive here, so the denominator is too.
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    a + ab * v + ac * w
}

/// `false` for a degenerate triangle, answered as its edges by [`point_triangle`] and by every
/// kernel that grows a triangle (collinear or coincident corners, or a needle narrower than
/// `1e-10` of its longest edge, see [`NEEDLE2`]); `false` for NaN too.
#[inline]
pub(crate) fn has_area(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let (ab, ac) = (b - a, c - a);
    // Needle: |ab × ac| (twice the area = width · L) <= 1e-10 · L², compared squared to avoid
    // square roots. NaN fails `>`.
    let n2 = ab.cross(ac).length_squared();
    let l2 = ab
        .length_squared()
        .max(ac.length_squared())
        .max((c - b).length_squared());
    n2 > NEEDLE2 * l2 * l2
}

/// The point of the segment `a`–`b` closest to `p`: the line parameter clamped to `[0, 1]`
/// (RTCD §5.1.2); `a` for a 0.0-length segment. For a tiny segment the quotient may overflow
/// to ±inf, which the clamp maps to an end point.
#[inline]
fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    // `len2 > 0` is false for a point (and for NaN, excluded by the caller).
    let has_length = len2 > 0.0;
    if !has_length {
        return a;
    }
    let u = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * u
}

/// The closest of the three edges' closest points: the answer for a degenerate triangle.
/// NaN in gives NaN out (the `<` below would otherwise skip a NaN edge).
fn closest_on_edges(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    if p.is_nan() || a.is_nan() || b.is_nan() || c.is_nan() {
        return DVec3::NAN;
    }
    let mut best = closest_on_segment(p, a, b);
    let mut best_d2 = (p - best).length_squared();
    for (s, e) in [(b, c), (c, a)] {
        let q = closest_on_segment(p, s, e);
        let d2 = (p - q).length_squared();
        if d2 < best_d2 {
            best = q;
            best_d2 = d2;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;
    use crate::shapes::Triangle;
    use collide_testkit::Gen;

    /// f64 distance from `p` to the segment `s`–`e` (clamped projection).
    fn dist_segment(p: DVec3, s: DVec3, e: DVec3) -> f64 {
        let se = e - s;
        let u = ((p - s).dot(se) / se.length_squared()).clamp(0.0, 1.0);
        (p - (s + se * u)).length()
    }

    #[test]
    fn f32_answer_is_never_farther_than_an_edge() {
        // Scenario: slivers (c within 1e-9..1e-1 of the line ab, relative) and query points
        // around them. The true distance lies in [edges - width, edges], where `edges` is the
        // distance to the nearest edge and `width` bounds the sliver's height; the f32
        // `closest::point_triangle` must land there (an f32 walk misses by up to 0.65).
        let mut g = Gen::new(5);
        for dec in -9..=-1 {
            for i in 0..4000 {
                let t = g.triangle();
                let (a, b) = (t.a, t.b);
                let off = 10f32.powi(dec) * (b - a).length();
                let c = a + (b - a) * g.range(-0.5, 1.5) + g.unit() * off;
                let p = g.point() + g.vec(2.0);
                let q = crate::closest::point_triangle(p, &Triangle::new(a, b, c));
                let (ad, bd, cd, pd) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3(), p.as_dvec3());
                let d = pd.distance(q.as_dvec3());
                let edges = dist_segment(pd, ad, bd)
                    .min(dist_segment(pd, bd, cd))
                    .min(dist_segment(pd, cd, ad));
                let width = (bd - ad).cross(cd - ad).length() / (bd - ad).length().max(1e-30);
                let tol = 1e-5 * (1.0 + pd.abs().max_element().max(ad.abs().max_element()));
                assert!(
                    d <= edges + tol && d >= edges - width - tol,
                    "1e{dec} #{i}: {d} outside [{}, {edges}]",
                    edges - width
                );
            }
        }
    }

    #[test]
    fn points_on_a_needle_are_their_own_closest_points() {
        // Scenario: the needle (48.56, 48.56, 48.56), (0, 0, -4.5e-5),
        // (-8.8e-5, -8.8e-5, -8.8e-5), 84 long and 3.7e-5 wide (sine 4.4e-7, above the needle
        // rule's 1e-10), and the point (6, 6, 6) on its long edge: a ray hit there, which
        // is its own closest point. Weights formed as differences of products of dot products
        // (Lagrange's identity), each product ~L⁴ and the difference ~(L² sin)², would in f64 leave
        // an error of ~ε / sin² (6e-4) of the weight: a point 0.0012 along the edge. As `n · (ap ×
        // bp)` with `n = ab × ac` it is ~ε / sin. Then needles of sine 1e-9..1e-3 at random, with
        // points on each edge and inside.
        let f = |x: f32, y: f32, z: f32| Vec3::new(x, y, z).as_dvec3();
        let (a, b, c) = (
            f(48.564_705, 48.564_705, 48.564_705),
            f(2.1883e-41, 9.148_167e-33, -4.535_749_8e-5),
            f(-8.808_21e-5, -8.808_21e-5, -8.808_21e-5),
        );
        let p = DVec3::splat(6.0);
        let q = point_triangle(p, a, b, c);
        assert!((q - p).length() < 1e-9, "{q} for {p}");
        let mut g = Gen::new(0x0ed1e);
        for dec in -9..=-3 {
            for i in 0..2000 {
                let t = g.triangle();
                let (a, b) = (t.a.as_dvec3(), t.b.as_dvec3());
                let l = (b - a).length();
                let u = f64::from(g.range(-0.3, 1.3));
                let c = a + (b - a) * u + g.unit().as_dvec3() * (10f64.powi(dec) * l);
                let (s, r) = (f64::from(g.range(0.0, 1.0)), f64::from(g.range(0.0, 1.0)));
                let (s, r) = if s + r > 1.0 {
                    (1.0 - s, 1.0 - r)
                } else {
                    (s, r)
                };
                for p in [
                    a + (b - a) * s,
                    b + (c - b) * s,
                    c + (a - c) * s,
                    a + (b - a) * s + (c - a) * r,
                ] {
                    let q = point_triangle(p, a, b, c);
                    // The weights' error is ~ε / sine of their size: 1e-7 at sine 1e-9.
                    assert!((q - p).length() <= 1e-6 * l, "1e{dec} #{i}: {q} for {p}");
                }
            }
        }
    }

    #[test]
    fn f32_and_f64_entry_points_agree() {
        // Scenario: random triangles and points; `closest::point_triangle` (f32 in and out) is
        // the f64 kernel's answer rounded once, so the two agree to f32 rounding.
        let mut g = Gen::new(0x7121);
        for i in 0..20_000 {
            let t = g.triangle();
            let p = g.point() + g.vec(2.0);
            let q32 = crate::closest::point_triangle(p, &Triangle::new(t.a, t.b, t.c));
            let q64 = crate::raycast::kernel::closest_point_triangle(
                p.as_dvec3(),
                t.a.as_dvec3(),
                t.b.as_dvec3(),
                t.c.as_dvec3(),
            );
            let scale = 1.0 + f64::from(p.abs().max_element());
            assert!(
                (q32.as_dvec3() - q64).length() <= 1e-6 * scale,
                "{i}: {q32} vs {q64}"
            );
        }
    }

    #[test]
    fn each_voronoi_region_and_degenerate_input() {
        // Scenario: the triangle (0,0,0), (2,0,0), (0,2,0); one query per Voronoi region with
        // its known answer; then collinear corners (the segment) and NaN.
        let d = |v: Vec3| v.as_dvec3();
        let (a, b, c) = (Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 2.0);
        let cases = [
            (Vec3::new(-1.0, -1.0, 1.0), a),
            (Vec3::new(3.0, -1.0, 1.0), b),
            (Vec3::new(-1.0, 3.0, 1.0), c),
            (Vec3::new(1.0, -1.0, 1.0), Vec3::X),
            (Vec3::new(-1.0, 1.0, 1.0), Vec3::Y),
            (Vec3::new(2.0, 2.0, 0.0), Vec3::new(1.0, 1.0, 0.0)),
            (Vec3::new(0.5, 0.5, 3.0), Vec3::new(0.5, 0.5, 0.0)),
        ];
        for (p, want) in cases {
            let q = point_triangle(d(p), d(a), d(b), d(c));
            assert!((q - d(want)).length() < 1e-12, "{p}: {q}");
        }
        let (a, b, c) = (Vec3::ZERO, Vec3::X * 3.0, Vec3::X);
        assert_eq!(
            point_triangle(d(Vec3::new(5.0, 1.0, 0.0)), d(a), d(b), d(c)),
            d(b)
        );
        assert_eq!(
            point_triangle(d(Vec3::new(2.0, 1.0, 0.0)), d(a), d(b), d(c)),
            d(Vec3::X * 2.0)
        );
        assert!(point_triangle(DVec3::NAN, d(a), d(b), d(c)).is_nan());
        assert!(point_triangle(DVec3::ZERO, DVec3::NAN, d(b), d(c)).is_nan());
    }
}
