//! EPA's answers: from the converged face (witness points by barycentric weights), along an
//! expanded normal, and the normal of a flat Minkowski difference.

use glam::DVec3;

use super::polytope::{Face, Polytope};
use super::Penetration;
use crate::convex::gjk::Vertex;
use crate::math::Vec3;

/// The penetration answer from face `f` of the polytope: the origin's projection on the face,
/// `p = d n`, written in barycentric weights of the face, gives the witness points on A and B
/// (`Σλ a_i − Σλ b_i = Σλ w_i = p`).
///
/// A flat face of `M` is usually split into several coplanar polytope triangles with equal
/// plane distances, and the nearest one by distance need not be the one `p` falls in; so the
/// live faces coplanar with `f` are searched for the one containing `p` (largest smallest
/// weight). Weights a hair outside are clamped and renormalised.
pub(super) fn finish(poly: &Polytope, f: usize, hint: Vec3) -> Option<Penetration> {
    let face = &poly.faces[f];
    // When every face is degenerate (`d = INFINITY`: a Minkowski difference thinner than f64
    // resolves, e.g. a box of subnormal thickness touching a point), the "nearest" face has an
    // infinite distance, which would give `depth = inf` and NaN weights. Such an M is flat:
    // answer as the flat cases do, depth 0 at the origin (the normal falls back to `hint`, as
    // `face.n` is zero).
    let dist = if face.d.is_finite() { face.d } else { 0.0 };
    let p = face.n * dist;
    let weights = |g: &Face| {
        let [i, j, k] = g.v;
        barycentric(p, poly.verts[i].w, poly.verts[j].w, poly.verts[k].w)
    };
    let mut best = (f, weights(face));
    let min_w = |l: &[f64; 3]| l[0].min(l[1]).min(l[2]);
    if min_w(&best.1) < 0.0 {
        let tol = 1e-9 * face.d.abs().max(1.0);
        for (g, other) in poly.faces.iter().enumerate() {
            if other.dead || g == f || other.n.dot(face.n) < 1.0 - 1e-9 {
                continue;
            }
            if (other.d - face.d).abs() > tol.max(1e-6 * face.d.abs()) {
                continue;
            }
            let l = weights(other);
            if min_w(&l) > min_w(&best.1) {
                best = (g, l);
            }
        }
    }
    let (g, l) = best;
    let l = clamp_weights(l);
    let [i, j, k] = poly.faces[g].v;
    let (va, vb, vc) = (poly.verts[i], poly.verts[j], poly.verts[k]);
    let pa = l[0] * va.a.as_dvec3() + l[1] * vb.a.as_dvec3() + l[2] * vc.a.as_dvec3();
    let pb = l[0] * va.b.as_dvec3() + l[1] * vb.b.as_dvec3() + l[2] * vc.b.as_dvec3();
    let normal = if face.d.is_finite() {
        unit_or(face.n, hint.as_dvec3())
    } else {
        flat_normal(&poly.verts, hint.as_dvec3())
    };
    let depth = dist.max(0.0);
    // On a needle-shaped face the weights are ill-conditioned, and their error moves each
    // witness by that shape's spread among the face's support points (a capsule 1.3e-3 long
    // touching a 1e-9 box: `point_b` 2e-4 off, breaking `point_a − point_b = depth · normal`).
    // Take the witness of the shape whose support points are tighter and place the other by
    // that identity.
    let spread = |x: DVec3, y: DVec3, z: DVec3| (y - x).length().max((z - x).length());
    let tight_a = spread(va.a.as_dvec3(), vb.a.as_dvec3(), vc.a.as_dvec3())
        <= spread(va.b.as_dvec3(), vb.b.as_dvec3(), vc.b.as_dvec3());
    let (pa, pb) = if tight_a {
        (pa, pa - normal.as_dvec3() * depth)
    } else {
        (pb + normal.as_dvec3() * depth, pb)
    };
    Some(Penetration {
        normal,
        depth: depth as f32,
        point_a: pa.as_vec3(),
        point_b: pb.as_vec3(),
    })
}

/// The answer when the expansion cannot go on (rounding broke the polytope's topology) from
/// the face being expanded, of unit normal `n`, and the support point `w` of `M` along it:
/// depth `n · w`, the overlap of the shapes along `n` (moving B by that much along `n`
/// separates them). Not the minimum over all directions, but never less than the overlap
/// along the normal reported; the face's own plane distance is not used, as the support point
/// has just shown it to be short.
pub(super) fn along_face(n: DVec3, w: &Vertex, hint: Vec3) -> Option<Penetration> {
    let normal = unit_or(n, hint.as_dvec3());
    let depth = normal.as_dvec3().dot(w.w).max(0.0);
    let point_a = w.a.as_dvec3();
    Some(Penetration {
        normal,
        depth: depth as f32,
        point_a: w.a,
        point_b: (point_a - normal.as_dvec3() * depth).as_vec3(),
    })
}

/// The normal of a polytope whose faces are all degenerate (a Minkowski difference flat or
/// thin beyond `f64`'s resolution of its faces): perpendicular to what the vertices span, on
/// the side of `hint`. A flat set gives its plane's normal; a segment gives `hint` without its
/// component along the segment (or any perpendicular when `hint` lies along it).
/// Not `hint` itself (nor a stale face's normal): for a segment-shaped difference that can lie
/// along the segment, a normal along which the shapes overlap although the depth is 0.
pub(super) fn flat_normal(verts: &[Vertex], hint: DVec3) -> Vec3 {
    let Some(w0) = verts.first().map(|v| v.w) else {
        return unit_or(hint, DVec3::Z);
    };
    let far = |f: &dyn Fn(DVec3) -> f64| {
        verts
            .iter()
            .map(|v| v.w)
            .max_by(|x, y| f(*x).total_cmp(&f(*y)))
            .unwrap_or(w0)
    };
    let e1 = far(&|w| (w - w0).length_squared()) - w0;
    let len1 = e1.length();
    if !(len1 > 0.0 && len1.is_finite()) {
        return unit_or(hint, DVec3::Z);
    }
    let u1 = e1 / len1;
    let w2 = far(&|w| (w - w0).cross(u1).length_squared());
    let n = u1.cross(w2 - w0);
    // Flat (off the line by more than the 1e-12 relative resolution of the faces): the plane.
    let n = if n.length() > 1e-12 * len1 {
        n
    } else {
        let perp = hint - u1 * hint.dot(u1);
        if perp.length() > 1e-6 * hint.length() {
            perp
        } else {
            u1.any_orthonormal_vector()
        }
    };
    unit_or(if n.dot(hint) < 0.0 { -n } else { n }, DVec3::Z)
}

/// Barycentric weights of `p` in triangle `a b c` (Ericson RTCD §3.4), unclamped; a
/// degenerate triangle gives `[1, 0, 0]` (its first vertex).
fn barycentric(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> [f64; 3] {
    let (v0, v1, v2) = (b - a, c - a, p - a);
    let (d00, d01, d11) = (v0.dot(v0), v0.dot(v1), v1.dot(v1));
    let (d20, d21) = (v2.dot(v0), v2.dot(v1));
    let den = d00 * d11 - d01 * d01;
    if den.is_nan() || den <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let v = (d11 * d20 - d01 * d21) / den;
    let w = (d00 * d21 - d01 * d20) / den;
    [1.0 - v - w, v, w]
}

/// Weights clamped to `>= 0` and renormalised (rounding can put a projection a hair outside).
fn clamp_weights(l: [f64; 3]) -> [f64; 3] {
    let l = [l[0].max(0.0), l[1].max(0.0), l[2].max(0.0)];
    let sum = l[0] + l[1] + l[2];
    if sum > 0.0 && sum.is_finite() {
        [l[0] / sum, l[1] / sum, l[2] / sum]
    } else {
        [1.0, 0.0, 0.0]
    }
}

/// `v / |v|` as `f32`, falling back to `fallback / |fallback|`, then to `+x`: always unit.
pub(super) fn unit_or(v: DVec3, fallback: DVec3) -> Vec3 {
    for c in [v, fallback] {
        let len = c.length();
        if len > 0.0 && len.is_finite() {
            let u = (c / len).as_vec3();
            // Re-normalise in f32 so that |u| = 1 to f32 precision.
            let l = u.length();
            if l > 0.0 {
                return u / l;
            }
        }
    }
    Vec3::X
}
