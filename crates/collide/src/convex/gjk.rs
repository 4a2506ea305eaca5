//! GJK: distance, closest points and the intersection test for any two convex shapes given by
//! their support mappings.
//!
//! Gilbert, Johnson & Keerthi (1988), as presented in Ericson, RTCD §9.5 and van den Bergen
//! (2003) §4.3, with the *signed-volumes* sub-algorithm of Montanari, Petrinic & Barbieri,
//! "Improving the GJK algorithm for faster and more reliable distance queries between convex
//! objects" (ACM TOG 36(3), 2017) in place of Johnson's: the closest point of the current
//! simplex to the origin is found from signed volumes/areas projected on the best-conditioned
//! coordinate plane, and only the faces or edges the origin lies outside of are searched.
//!
//! Robustness choices:
//! - Support points come in `f32`; the simplex, its barycentric coordinates and every
//!   convergence test are computed in `f64`, so cancellation in cross and triple products of
//!   `f32` inputs (huge or tiny coordinates, slivers) does not decide the answer.
//! - Termination: the duality gap `|v|² - v·w` (upper minus lower bound on the distance, times
//!   `|v|`) falls below a relative tolerance, or the origin is inside (a tetrahedron), or
//!   within the touching tolerance of the simplex, or `|v|` stops decreasing (numerical
//!   stall: the previous simplex is kept), or [`MAX_ITERATIONS`] is reached. Never loops forever.
//! - Any non-finite support point (NaN shape, empty point cloud, infinite box) ends the query
//!   with "no contact".
//! - Rounded shapes (sphere, capsule: [`SupportMap::margin`] > 0) run on their cores (point,
//!   segment) and the radii are added back: exact closest points and normals, where GJK on
//!   the curved surface would converge the distance but leave the normal off by the square
//!   root of the tolerance (~1e-3).
//!
//! Tolerance: shapes closer than [`TOLERANCE`] × *scale* count as touching, where *scale* is the
//! largest coordinate magnitude of the support points seen. That is a few `f32`
//! ulps of the input coordinates: the precision below which the input itself is uncertain.
//!
//! # Example
//!
//! ```rust
//! use collide::convex::gjk::{distance, intersects_cached, GjkCache};
//! use collide::convex::ConvexPoints;
//! use collide::shapes::Sphere;
//! use collide::Vec3;
//!
//! // A tetrahedron given by its points, and a ball 1 m from its x = 0 face.
//! let tet = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
//! let ball = Sphere::new(Vec3::new(-2.0, 0.25, 0.25), 1.0);
//! let r = distance(&ConvexPoints(&tet), &ball);
//! assert!((r.distance - 1.0).abs() < 1e-5);
//! assert!((r.point_a - Vec3::new(0.0, 0.25, 0.25)).length() < 1e-5);
//! assert!((r.normal - Vec3::NEG_X).length() < 1e-5); // from A toward B
//! // Frame after frame, one cache per pair warm-starts the test; it never changes the answer.
//! let mut cache = GjkCache::default();
//! assert!(!intersects_cached(&ConvexPoints(&tet), &ball, &mut cache));
//! let touching = Sphere::new(Vec3::new(-1.0, 0.25, 0.25), 1.0);
//! assert!(intersects_cached(&ConvexPoints(&tet), &touching, &mut cache));
//! ```

use std::cell::Cell;

use glam::DVec3;

use super::support::SupportMap;
use crate::math::Vec3;

/// The relative tolerance of every GJK/EPA decision (see the module docs): distances below
/// `TOLERANCE × scale` count as touching, and distances are converged to within it.
pub const TOLERANCE: f32 = 1e-6;

/// Iteration limit of the GJK loop. Polytopes converge in at most a few tens of iterations
/// (each iteration adds a new support vertex); curved shapes converge linearly to the
/// tolerance well before this.
pub const MAX_ITERATIONS: u32 = 96;

/// Result of [`distance`]: the distance between two convex shapes and the closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkResult {
    /// Euclidean distance `>= 0`; `0` when the shapes touch or overlap; `INFINITY` for
    /// non-finite input ("no contact").
    pub distance: f32,
    /// A point of A closest to B. When the shapes touch or overlap: a point of A that is
    /// (within tolerance) also a point of B. NaN for non-finite input.
    pub point_a: Vec3,
    /// A point of B closest to A (`point_b - point_a` has length `distance`). When they touch
    /// or overlap: equal to `point_a` within tolerance.
    pub point_b: Vec3,
    /// Unit direction from A toward B, `(point_b - point_a) / distance`, when apart; zero when
    /// touching, overlapping, or for non-finite input.
    pub normal: Vec3,
    /// `true` when the shapes touch or overlap (`distance == 0`).
    pub intersecting: bool,
    /// Number of GJK iterations (support-point pairs evaluated).
    pub iterations: u32,
}

impl GjkResult {
    /// The "no contact" answer for non-finite input.
    const INVALID: GjkResult = GjkResult {
        distance: f32::INFINITY,
        point_a: Vec3::NAN,
        point_b: Vec3::NAN,
        normal: Vec3::ZERO,
        intersecting: false,
        iterations: 0,
    };
}

/// Warm-start cache for one pair of shapes: the last search direction of GJK.
///
/// Zero-initialise it (`GjkCache::default()`) and pass the same cache for the same pair every
/// frame. When the shapes move little, the cached direction usually separates them at once and
/// [`intersects_cached`] costs one support evaluation per shape. A stale or garbage cache
/// never changes the answer, only the iteration count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GjkCache {
    /// Direction of the last closest-point vector `v = point_a − point_b` of the Minkowski
    /// difference (`−v` is the last separating axis, from A toward B); after a penetration
    /// query, minus its normal. Zero means "no history"; only the direction matters.
    pub dir: Vec3,
}

/// One vertex of the simplex: `w = a - b` with the support points that made it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Vertex {
    /// Point of the Minkowski difference A − B.
    pub w: DVec3,
    /// Support point of A.
    pub a: Vec3,
    /// Support point of B.
    pub b: Vec3,
}

/// A simplex of 1 to 4 vertices with the barycentric weights of its closest point to the origin.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Simplex {
    pub v: [Vertex; 4],
    pub lambda: [f64; 4],
    pub n: usize,
}

impl Simplex {
    /// `Σ λ_i w_i`: the closest point of the simplex to the origin.
    pub(crate) fn point(&self) -> DVec3 {
        (0..self.n).fold(DVec3::ZERO, |acc, i| acc + self.lambda[i] * self.v[i].w)
    }

    /// `(Σ λ_i a_i, Σ λ_i b_i)`: the closest points on A and B.
    pub(crate) fn witnesses(&self) -> (Vec3, Vec3) {
        let (mut pa, mut pb) = (DVec3::ZERO, DVec3::ZERO);
        for i in 0..self.n {
            pa += self.lambda[i] * self.v[i].a.as_dvec3();
            pb += self.lambda[i] * self.v[i].b.as_dvec3();
        }
        (pa.as_vec3(), pb.as_vec3())
    }
}

/// How a GJK run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Apart: converged closest points (or the iteration/stall limit with the best so far).
    Apart,
    /// Boolean mode: a separating axis was found before convergence.
    Separated,
    /// The origin is inside or within tolerance of the Minkowski difference.
    Intersecting,
    /// A support point was not finite.
    Invalid,
}

/// Everything a GJK run found, for [`distance`], [`intersects`] and EPA.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub status: Status,
    pub simplex: Simplex,
    /// Closest point of the Minkowski difference to the origin (`point_a - point_b`).
    pub v: DVec3,
    /// Largest coordinate magnitude of any support point seen.
    pub scale: f64,
    pub iterations: u32,
}

/// `v` as an `f32` direction, rescaled so that tiny or huge vectors do not under/overflow.
#[inline]
pub(crate) fn to_dir(v: DVec3) -> Vec3 {
    let m = v.abs().max_element();
    if m > 0.0 && m.is_finite() {
        (v / m).as_vec3()
    } else {
        Vec3::ZERO
    }
}

/// `true` when `a` and `b` are both strictly positive or both strictly negative
/// (Montanari et al. 2017, `compareSigns`); zero matches nothing.
#[inline]
fn same_sign(a: f64, b: f64) -> bool {
    (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0)
}

/// Closest point of segment `p1 p2` to the origin, as weights `(λ1, λ2)` (Ericson §5.1.2 in
/// `f64`). The origin projects at `p1 + u (p2 - p1)` with `u = -p1·t / t·t`; `u` is clamped to
/// the segment. A zero-length segment is its first point.
fn s1d(p1: DVec3, p2: DVec3) -> [f64; 2] {
    let t = p2 - p1;
    let tt = t.dot(t);
    if tt.is_nan() || tt <= 0.0 {
        return [1.0, 0.0];
    }
    let u = -p1.dot(t) / tt;
    if u <= 0.0 {
        [1.0, 0.0]
    } else if u >= 1.0 {
        [0.0, 1.0]
    } else {
        [1.0 - u, u]
    }
}

/// Closest point of triangle `p` to the origin as barycentric weights (Montanari et al. 2017,
/// S2D). The origin is projected on the triangle's plane, `p0 = n (p1·n) / n·n`; the signed
/// areas of the sub-triangles `(p0, p2, p3)`, `(p1, p0, p3)`, `(p1, p2, p0)` are measured in the
/// coordinate plane where the triangle's projection is largest (the axis `k` of the largest
/// `|n_k|`, where the projected area `2·area = n_k` is best conditioned). If all share the sign
/// of the whole, `p0` is inside and the weights are the area ratios; otherwise the closest
/// point is on an edge the origin lies outside of, and those edges are searched (S1D). A
/// sliver (sine of its angle below 1e-10) is treated as its edges.
fn s2d(p: [DVec3; 3]) -> [f64; 3] {
    let e1 = p[1] - p[0];
    let e2 = p[2] - p[0];
    let n = e1.cross(e2);
    let nn = n.dot(n);
    let flat = nn.is_nan() || nn <= 1e-20 * e1.length_squared() * e2.length_squared();
    let mut outside = [true; 3];
    if !flat {
        let p0 = n * (p[0].dot(n) / nn);
        // k: axis of largest |n_k|; (i, j) the other two in cyclic order, so that the 2-D cross
        // product in the (i, j) plane of a triangle equals its normal's k component.
        let na = n.abs();
        let k = if na.x >= na.y && na.x >= na.z {
            0
        } else if na.y >= na.z {
            1
        } else {
            2
        };
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let area = |a: DVec3, b: DVec3, c: DVec3| {
            (b[i] - a[i]) * (c[j] - a[j]) - (b[j] - a[j]) * (c[i] - a[i])
        };
        let mu = n[k];
        let c = [
            area(p0, p[1], p[2]),
            area(p[0], p0, p[2]),
            area(p[0], p[1], p0),
        ];
        if c.iter().all(|&cj| same_sign(mu, cj)) {
            return [c[0] / mu, c[1] / mu, c[2] / mu];
        }
        for (o, &cj) in outside.iter_mut().zip(&c) {
            *o = !same_sign(mu, cj);
        }
    }
    // The origin projects outside the triangle (or the triangle is a sliver): the closest
    // point is on an edge opposite a vertex whose sub-area has the wrong sign.
    let mut best = [1.0, 0.0, 0.0];
    let mut best_d2 = p[0].length_squared();
    for (skip, &out) in outside.iter().enumerate() {
        if !out {
            continue;
        }
        let (ia, ib) = ((skip + 1) % 3, (skip + 2) % 3);
        let l = s1d(p[ia], p[ib]);
        let q = l[0] * p[ia] + l[1] * p[ib];
        let d2 = q.length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = [0.0; 3];
            best[ia] = l[0];
            best[ib] = l[1];
        }
    }
    best
}

/// Closest point of tetrahedron `p` to the origin as barycentric weights (Montanari et al.
/// 2017, S3D). With `e_i = p_i - p_0`, the weights of the origin solve `[e1 e2 e3] λ = -p0`; by
/// Cramer's rule `λ_i = C_i / det` with `C_i` the determinant with column `i` replaced by `-p0`
/// (signed volumes of the sub-tetrahedra), and `λ_0 = 1 - λ_1 - λ_2 - λ_3`. All `C` sharing the
/// sign of `det` means the origin is inside (all four weights positive); otherwise the closest
/// point lies on a face the origin is outside of, and those faces are searched (S2D). A flat
/// tetrahedron (`det = 0`) matches no sign, so all faces are searched.
fn s3d(p: [DVec3; 4]) -> [f64; 4] {
    let (e1, e2, e3) = (p[1] - p[0], p[2] - p[0], p[3] - p[0]);
    let o = -p[0];
    let det = e1.dot(e2.cross(e3));
    let c1 = o.dot(e2.cross(e3));
    let c2 = e1.dot(o.cross(e3));
    let c3 = e1.dot(e2.cross(o));
    let c0 = det - c1 - c2 - c3;
    let c = [c0, c1, c2, c3];
    if c.iter().all(|&cj| same_sign(det, cj)) {
        return [c0 / det, c1 / det, c2 / det, c3 / det];
    }
    let mut best = [0.0; 4];
    let mut best_d2 = f64::INFINITY;
    for (skip, &cj) in c.iter().enumerate() {
        if same_sign(det, cj) {
            continue;
        }
        let idx: [usize; 3] = match skip {
            0 => [1, 2, 3],
            1 => [0, 2, 3],
            2 => [0, 1, 3],
            _ => [0, 1, 2],
        };
        let l = s2d([p[idx[0]], p[idx[1]], p[idx[2]]]);
        let q = l[0] * p[idx[0]] + l[1] * p[idx[1]] + l[2] * p[idx[2]];
        let d2 = q.length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = [0.0; 4];
            for (t, &ix) in idx.iter().enumerate() {
                best[ix] = l[t];
            }
        }
    }
    best
}

/// The smallest sub-simplex of `src` plus the new vertex `w` that contains its closest point
/// to the origin, with that point's barycentric weights, written to `dst` (vertices of weight
/// zero are dropped; the kept ones in their order, `w` last). `src` is left as it was, so the
/// GJK loop keeps the simplex before the step without copying it.
pub(crate) fn reduce_into(src: &Simplex, w: Vertex, dst: &mut Simplex) {
    let n = src.n + 1;
    let at = |i: usize| if i < src.n { src.v[i] } else { w };
    let p = |i: usize| at(i).w;
    let lam: [f64; 4] = match n {
        1 => [1.0, 0.0, 0.0, 0.0],
        2 => {
            let l = s1d(p(0), p(1));
            [l[0], l[1], 0.0, 0.0]
        }
        3 => {
            let l = s2d([p(0), p(1), p(2)]);
            [l[0], l[1], l[2], 0.0]
        }
        _ => s3d([p(0), p(1), p(2), p(3)]),
    };
    let mut kept = 0;
    for (i, &l) in lam.iter().enumerate().take(n) {
        if l > 0.0 {
            dst.v[kept] = at(i);
            dst.lambda[kept] = l;
            kept += 1;
        }
    }
    if kept == 0 {
        // Unreachable with finite input (weights sum to 1); keep the newest vertex.
        dst.v[0] = w;
        dst.lambda[0] = 1.0;
        kept = 1;
    }
    dst.n = kept;
}

/// Replaces the simplex by the smallest sub-simplex containing its closest point to the
/// origin, with that point's barycentric weights ([`reduce_into`] with the last vertex as the
/// new one).
pub(crate) fn reduce(s: &mut Simplex) {
    let Some(last) = s.n.checked_sub(1) else {
        return;
    };
    let before = Simplex { n: last, ..*s };
    reduce_into(&before, s.v[last], s);
}

/// The GJK loop on two support functions.
///
/// `guess`: initial direction, the vector from B to A roughly (a point of A − B, or a cached
/// closest-point vector); only its direction matters. `cutoff`: stop with
/// [`Status::Separated`] as soon as a separating axis shows the distance above `cutoff` plus the
/// touching tolerance (`INFINITY`: never; the boolean test passes the radii; contact passes
/// radii + margin). `radii`: the sum of the margins the caller adds to the sets given by `sa`,
/// `sb`; the run reports [`Status::Intersecting`] as soon as the distance is known to be within
/// `radii` (plus tolerance), so with `radii > 0` that status does not mean the sets overlap.
pub(crate) fn run<FA, FB>(sa: FA, sb: FB, guess: Vec3, cutoff: f64, radii: f64) -> Run
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    let tol = f64::from(TOLERANCE);
    let mut guess = guess.as_dvec3();
    if !guess.is_finite() || guess.length_squared() == 0.0 {
        guess = DVec3::X;
    }
    // The simplex and the next one: each step reduces `bufs[cur]` plus the new vertex into
    // the other buffer, so that the simplex before the step stays for a stalled run.
    let mut bufs = [Simplex::default(); 2];
    let mut cur = 0;
    // `v`: the search vector; before the first vertex it is only a direction (`have_point`
    // false), afterwards the closest point of the simplex to the origin; `vlen` its length.
    let mut v = guess;
    let mut vlen = v.length();
    let mut have_point = false;
    let mut scale = 0.0_f64;
    let out = |status, s: &Simplex, v, scale, it| Run {
        status,
        simplex: *s,
        v,
        scale,
        iterations: it,
    };
    for it in 1..=MAX_ITERATIONS {
        // w: support point of A − B in direction −v (s_{A−B}(d) = s_A(d) − s_B(−d)).
        let d = to_dir(-v);
        let (pa, pb) = (sa(d), sb(-d));
        if !pa.is_finite() || !pb.is_finite() {
            return out(Status::Invalid, &bufs[cur], v, scale, it);
        }
        let w = pa.as_dvec3() - pb.as_dvec3();
        scale = scale
            .max(f64::from(pa.abs().max_element()))
            .max(f64::from(pb.abs().max_element()));
        let vw = v.dot(w);
        // Lower bound: w maximises (−v)·x over A − B, so every x has v·x >= v·w and the
        // distance is at least v·w / |v|. Above the cutoff plus the touching tolerance: −v is
        // a separating axis of the grown shapes, and the caller needs nothing more.
        if vw > (cutoff + tol * scale) * vlen {
            return out(Status::Separated, &bufs[cur], v, scale, it);
        }
        if have_point {
            // Duality gap: |v| − v·w/|v| is (upper − lower) bound; converged when it is below
            // the relative tolerance of |v| or the absolute tolerance of the coordinates. A
            // repeated vertex gives gap <= 0 and stops here too.
            let vv = vlen * vlen;
            if vv - vw <= tol * vv + tol * scale * vlen {
                return out(Status::Apart, &bufs[cur], v, scale, it);
            }
        }
        let (lo, hi) = bufs.split_at_mut(1);
        let (s, next) = if cur == 0 {
            (&lo[0], &mut hi[0])
        } else {
            (&hi[0], &mut lo[0])
        };
        reduce_into(s, Vertex { w, a: pa, b: pb }, next);
        if next.n == 4 {
            // The origin is strictly inside the tetrahedron.
            let v = next.point();
            return out(Status::Intersecting, next, v, scale, it);
        }
        let v_new = next.point();
        let new_len = v_new.length();
        // Upper bound |v| within the radii (plus tolerance): the grown shapes touch.
        if new_len <= radii + tol * scale {
            return out(Status::Intersecting, next, v_new, scale, it);
        }
        if have_point && new_len >= vlen {
            // No progress (rounding): the previous simplex is the best answer.
            return out(Status::Apart, s, v, scale, it);
        }
        cur = 1 - cur;
        v = v_new;
        vlen = new_len;
        have_point = true;
    }
    out(Status::Apart, &bufs[cur], v, scale, MAX_ITERATIONS)
}

/// Initial search vector: the cached one, else the vector between interior points.
pub(crate) fn initial_guess<A, B>(a: &A, b: &B, cache: &GjkCache) -> Vec3
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if cache.dir.is_finite() && cache.dir != Vec3::ZERO {
        cache.dir
    } else {
        a.interior_point() - b.interior_point()
    }
}

/// The two margins (radii of the rounded parts), or `None` when either is NaN or infinite.
/// Negative margins (a faulty user implementation) count as zero.
pub(crate) fn margins<A, B>(a: &A, b: &B) -> Option<(f32, f32)>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (ra, rb) = (a.margin(), b.margin());
    (ra.is_finite() && rb.is_finite()).then_some((ra.max(0.0), rb.max(0.0)))
}

/// Distance and closest points between two convex shapes (GJK; Ericson, RTCD §9.5).
///
/// Touching and overlapping both give `distance == 0` and `intersecting == true`, with
/// `point_a == point_b` a common point (within tolerance); shapes closer than
/// [`TOLERANCE`] × scale count as touching. Flat, segment or point shapes are fine. Rounded
/// shapes are handled as core + margin, so spheres and capsules are exact rather than
/// converged on a curved surface. A NaN or infinite support point or margin (NaN shape, empty
/// point cloud) gives `distance == INFINITY`, NaN points, `intersecting == false`. Symmetric:
/// swapping A and B swaps the points and flips the normal.
#[must_use]
pub fn distance<A, B>(a: &A, b: &B) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    distance_cached(a, b, &mut GjkCache::default())
}

/// [`distance`] warm-started from (and updating) a per-pair [`GjkCache`]; same answer.
#[must_use]
pub fn distance_cached<A, B>(a: &A, b: &B, cache: &mut GjkCache) -> GjkResult
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let Some((ra, rb)) = margins(a, b) else {
        return GjkResult::INVALID;
    };
    let radii = f64::from(ra) + f64::from(rb);
    let guess = initial_guess(a, b, cache);
    // One run of support queries per shape: big hulls walk on from the last support vertex.
    let (start_a, start_b) = (Cell::new(0), Cell::new(0));
    let r = run(
        |d| a.core_support_from(d, &start_a),
        |d| b.core_support_from(d, &start_b),
        guess,
        f64::INFINITY,
        radii,
    );
    match r.status {
        Status::Invalid => GjkResult {
            iterations: r.iterations,
            ..GjkResult::INVALID
        },
        Status::Intersecting => {
            let (ca, cb) = r.simplex.witnesses();
            // Cores within the radii: the point dividing core_a → core_b in the ratio
            // ra : rb is within ra of core_a and within rb of core_b, so it is in both shapes.
            let p = if radii > 0.0 {
                ca + (cb - ca) * (ra / (ra + rb))
            } else {
                ca
            };
            GjkResult {
                distance: 0.0,
                point_a: p,
                point_b: if radii > 0.0 { p } else { cb },
                normal: Vec3::ZERO,
                intersecting: true,
                iterations: r.iterations,
            }
        }
        Status::Apart | Status::Separated => {
            let (ca, cb) = r.simplex.witnesses();
            cache.dir = to_dir(r.v);
            // Unit direction from A toward B: −v / |v| (v = core_a − core_b).
            let n = to_dir(-r.v).normalize_or_zero();
            GjkResult {
                // Apart means |v| > radii; a gap below f32's smallest subnormal (shapes of
                // subnormal size) must not round to 0, which would say
                // touching while `intersecting` is false.
                distance: ((r.v.length() - radii) as f32).max(f32::from_bits(1)),
                point_a: ca + ra * n,
                point_b: cb - rb * n,
                normal: n,
                intersecting: false,
                iterations: r.iterations,
            }
        }
    }
}

/// `true` when the two convex shapes touch or overlap (GJK with early exit).
///
/// Stops as soon as a separating axis is found. Two hulls ([`SupportMap::as_hull`]) whose
/// inner balls ([`super::ConvexHull::inner_ball`]) overlap by more than a bound on the
/// rounding are deeply overlapping and answered `true` before GJK starts. Touching counts as intersecting, with the
/// tolerance [`TOLERANCE`] × scale. Agrees with `distance(a, b).intersecting` (the same
/// iterations, with an earlier exit) except inside that touching band: the scale is that of
/// the support points seen so far, and [`distance`], running on, may see larger ones and
/// call a gap touching that this test, having stopped, calls apart (a point 5.6
/// from a box reaching 2e11). NaN or infinite input: `false`.
#[must_use]
pub fn intersects<A, B>(a: &A, b: &B) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    intersects_cached(a, b, &mut GjkCache::default())
}

/// [`intersects`] warm-started from (and updating) a per-pair [`GjkCache`]: when the cached
/// axis still separates, the test costs one support point per shape. Same answer.
#[must_use]
pub fn intersects_cached<A, B>(a: &A, b: &B, cache: &mut GjkCache) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let Some((ra, rb)) = margins(a, b) else {
        return false;
    };
    if inner_balls_overlap(a, b) {
        return true;
    }
    let guess = initial_guess(a, b, cache);
    // One run of support queries per shape: big hulls walk on from the last support vertex.
    let (start_a, start_b) = (Cell::new(0), Cell::new(0));
    let r = run(
        |d| a.core_support_from(d, &start_a),
        |d| b.core_support_from(d, &start_b),
        guess,
        f64::from(ra) + f64::from(rb),
        f64::from(ra) + f64::from(rb),
    );
    match r.status {
        Status::Intersecting => true,
        Status::Invalid => false,
        Status::Apart | Status::Separated => {
            cache.dir = to_dir(r.v);
            false
        }
    }
}

/// `true` when both shapes are hulls ([`SupportMap::as_hull`]) and their inner balls
/// ([`super::ConvexHull::inner_ball`], each inside its hull) overlap by more than a bound on the
/// rounding: then the hulls overlap, deeply, and GJK would answer `true` too.
///
/// Rounding: GJK sees each hull's vertices moved by the `f32` pose, `R v + t`, each
/// coordinate within a few ulps of `|v| + |t|` (a product of three terms summed, plus the
/// translation; `R` orthonormal to `f32` precision); the centres are moved the same way, and
/// every `|v| <= |c| + ` the outer radius. The inner radius already keeps `16 τ` from every
/// face plane for the hull's own rounding. A slack of `1e-5` (about 170 ulps) of
/// `|t_a| + |t_b| + |c_a| + |c_b|` plus the outer radii covers these errors and those of the
/// distance itself (computed in `f64`). NaN anywhere fails the test (GJK then answers).
#[inline]
fn inner_balls_overlap<A, B>(a: &A, b: &B) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (Some(ha), Some(hb)) = (a.as_hull(), b.as_hull()) else {
        return false;
    };
    let ((ca, rho_a), (cb, rho_b)) = (ha.shape.inner_ball(), hb.shape.inner_ball());
    let (wa, wb) = (ha.to_world(ca), hb.to_world(cb));
    let size = ha.translation.length()
        + hb.translation.length()
        + ca.length()
        + cb.length()
        + ha.shape.outer_ball().1
        + hb.shape.outer_ball().1;
    let gap = (wa.as_dvec3() - wb.as_dvec3()).length() + 1e-5 * f64::from(size);
    gap < f64::from(rho_a) + f64::from(rho_b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::convex::support::Posed;
    use crate::math::Quat;
    use crate::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};

    #[test]
    fn spheres_apart_touching_overlapping() {
        // Scenario: two unit spheres 3 apart, 2 apart (touching), 1 apart.
        let a = Sphere::new(Vec3::ZERO, 1.0);
        let r = distance(&a, &Sphere::new(Vec3::new(3.0, 0.0, 0.0), 1.0));
        assert!(!r.intersecting);
        assert_near!(r.distance, 1.0, 1e-5);
        assert_near!(r.point_a, Vec3::X, 1e-4);
        assert_near!(r.point_b, Vec3::new(2.0, 0.0, 0.0), 1e-4);
        assert_near!(r.normal, Vec3::X, 1e-4);
        assert!(intersects(&a, &Sphere::new(Vec3::new(2.0, 0.0, 0.0), 1.0)));
        assert!(intersects(&a, &Sphere::new(Vec3::new(1.0, 0.0, 0.0), 1.0)));
        assert_eq!(
            distance(&a, &Sphere::new(Vec3::new(1.0, 0.0, 0.0), 1.0)).distance,
            0.0
        );
    }

    #[test]
    fn boxes_face_edge_vertex() {
        // Scenario: unit boxes separated along x by a gap of 0.5; then touching faces.
        let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_center_half_extents(Vec3::new(2.5, 0.3, -0.2), Vec3::ONE);
        let r = distance(&a, &b);
        assert_near!(r.distance, 0.5, 1e-6);
        assert_near!(r.normal, Vec3::X, 1e-6);
        assert_near!(r.point_a.x, 1.0, 1e-6);
        assert_near!(r.point_b.x, 1.5, 1e-6);
        let touching = Aabb::from_center_half_extents(Vec3::new(2.0, 0.3, -0.2), Vec3::ONE);
        assert!(intersects(&a, &touching));
        assert!(distance(&a, &touching).intersecting);
        // A box rotated 45° about z, its edge 0.5 from A's face.
        let o = Obb::new(
            Vec3::new(1.5 + 2f32.sqrt(), 0.0, 0.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
            Vec3::ONE,
        );
        assert_near!(distance(&a, &o).distance, 0.5, 1e-5);
    }

    #[test]
    fn degenerate_shapes() {
        // Scenario: points, a zero-length segment, coplanar triangles, coincident shapes.
        let p = Vec3::new(1.0, 2.0, 3.0);
        assert!(intersects(&p, &p));
        assert_near!(distance(&p, &Vec3::ZERO).distance, p.length(), 1e-6);
        let seg = Segment::new(Vec3::ONE, Vec3::ONE);
        assert_near!(distance(&seg, &Vec3::ZERO).distance, 3f32.sqrt(), 1e-6);
        let t1 = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
        let t2 = Triangle::new(
            Vec3::new(0.2, 0.2, 0.0),
            Vec3::new(2.0, 0.2, 0.0),
            Vec3::Y * 2.0,
        );
        assert!(intersects(&t1, &t2));
        let t3 = Triangle::new(
            Vec3::new(2.0, 2.0, 0.0),
            Vec3::new(3.0, 2.0, 0.0),
            Vec3::Y * 3.0,
        );
        // Closest pair: t1 corner (0, 1) and the point (0.8, 2.6) of t3 edge (0,3)-(2,2).
        assert_near!(distance(&t1, &t3).distance, 3.2f32.sqrt(), 1e-5);
        let b = Obb::new(Vec3::ONE, Quat::from_rotation_x(0.3), Vec3::ONE);
        assert!(intersects(&b, &b));
        let c = Capsule::new(Vec3::ZERO, Vec3::X, 0.0);
        assert!(intersects(
            &c,
            &Segment::new(Vec3::new(0.5, -1.0, 0.0), Vec3::new(0.5, 1.0, 0.0))
        ));
    }

    #[test]
    fn nan_and_empty_are_no_contact() {
        // Scenario: NaN centre, empty point cloud, infinite box.
        let a = Sphere::new(Vec3::NAN, 1.0);
        let b = Sphere::new(Vec3::ZERO, 1.0);
        assert!(!intersects(&a, &b));
        let r = distance(&a, &b);
        assert_eq!(r.distance, f32::INFINITY);
        let empty: &[Vec3] = &[];
        assert!(!intersects(empty, &b));
        assert!(!intersects(&Aabb::EMPTY, &b));
        assert!(!intersects(&Posed::new(b, Quat::NAN, Vec3::ZERO), &b));
    }

    #[test]
    fn huge_and_tiny_coordinates() {
        // Scenario: the same configuration scaled by 1e-6 and 1e5, and moved to 1e5.
        for k in [1e-6_f32, 1.0, 1e5] {
            let a = Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE * k);
            let b = Sphere::new(Vec3::new(3.0, 0.0, 0.0) * k, k);
            let r = distance(&a, &b);
            assert_near!(r.distance / k, 1.0, 1e-4);
        }
        let off = Vec3::splat(1e5);
        let a = Aabb::from_center_half_extents(off, Vec3::ONE);
        let b = Sphere::new(off + Vec3::new(3.0, 0.0, 0.0), 1.0);
        assert_near!(distance(&a, &b).distance, 1.0, 0.05);
    }

    #[test]
    fn inner_balls_overlap_only_when_gjk_finds_contact() {
        // Scenario: posed hulls (squashed spheres, far from the origin and near it) at
        // distances from deep overlap to apart; whenever the inner balls decide, GJK's own
        // answer (the distance query, which has no early accept) is contact, and the test
        // decides only overlaps deeper than its slack.
        use crate::convex::hull::tests::fibonacci_sphere;
        use crate::convex::{ConvexHull, ConvexPolyhedron};
        use std::sync::Arc;
        let mut g = collide_testkit::Gen::new(0x1b0a);
        let shapes = [
            Arc::new(ConvexHull::try_new(&fibonacci_sphere(60, Vec3::new(1.0, 0.6, 0.9))).unwrap()),
            Arc::new(ConvexHull::try_new(&fibonacci_sphere(20, Vec3::new(0.3, 1.2, 0.5))).unwrap()),
        ];
        let (mut decided, mut near_miss) = (0, 0);
        for case in 0..4000 {
            let centre = if case % 2 == 0 {
                Vec3::ZERO
            } else {
                g.vec(1e4)
            };
            let a = ConvexPolyhedron::new(shapes[case % 2].clone()).with_pose(g.quat(), centre);
            let b = ConvexPolyhedron::new(shapes[(case / 2) % 2].clone())
                .with_pose(g.quat(), centre + g.unit() * g.range(0.0, 2.5));
            let (ra, rb) = (a.hull.inner_ball().1, b.hull.inner_ball().1);
            let gap =
                (a.to_world(a.hull.inner_ball().0) - b.to_world(b.hull.inner_ball().0)).length();
            if inner_balls_overlap(&a, &b) {
                decided += 1;
                assert!(distance(&a, &b).intersecting, "case {case}");
                assert!(intersects(&a, &b));
            } else if gap < ra + rb && centre == Vec3::ZERO {
                // Overlapping balls left to GJK near the origin: only within the slack.
                near_miss += 1;
                assert!(gap > (ra + rb) * (1.0 - 1e-3), "case {case}");
            }
        }
        assert!(decided > 500, "{decided} decided by the balls");
        assert!(near_miss < 20, "{near_miss} overlapping balls left to GJK");
        // Not hulls, or NaN poses: never decided here.
        let s = Sphere::new(Vec3::ZERO, 1.0);
        assert!(!inner_balls_overlap(&s, &s));
        let nan = ConvexPolyhedron::new(shapes[0].clone()).with_pose(Quat::IDENTITY, Vec3::NAN);
        assert!(!inner_balls_overlap(&nan, &nan));
        assert!(!intersects(&nan, &nan));
    }

    #[test]
    fn warm_start_same_answer() {
        // Scenario: a cached direction (good, then garbage) leaves the result unchanged.
        let a = Obb::new(
            Vec3::ZERO,
            Quat::from_rotation_y(0.4),
            Vec3::new(1.0, 2.0, 0.5),
        );
        let b = Capsule::new(Vec3::new(3.0, 1.0, 0.0), Vec3::new(4.0, -1.0, 1.0), 0.3);
        let cold = distance(&a, &b);
        let mut cache = GjkCache::default();
        let _ = distance_cached(&a, &b, &mut cache);
        let warm = distance_cached(&a, &b, &mut cache);
        assert_near!(warm.distance, cold.distance, 1e-6);
        assert!(!intersects_cached(&a, &b, &mut cache));
        let mut bad = GjkCache {
            dir: Vec3::new(-3.0, 7.0, 1e-9),
        };
        assert_near!(
            distance_cached(&a, &b, &mut bad).distance,
            cold.distance,
            1e-6
        );
    }
}
