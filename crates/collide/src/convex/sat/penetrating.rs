//! The fast path of the query for overlapping hulls.
//!
//! When no axis separates, the full search cannot stop early: it projects both hulls on every
//! face normal and on every edge pair whose Gauss-map arcs cross, to find the least overlap.
//! For a pair that clearly overlaps, GJK proves the overlap (the origin strictly inside a
//! tetrahedron of points of `M = A − B`) and EPA finds the minimum translation, both on the
//! hulls in A's frame: small hulls answer supports by a branch-free scan, big ones by a hill
//! climb from the vertex that supported the last query, a few steps of walking instead of a
//! pass over thousands of vertices (van den Bergen 2001; Lander 1999 for the walk).
//!
//! Only a converged expansion is used: its nearest face lies on the boundary of `M` to within
//! EPA's tolerance, and every point of the polytope is a point of `M`, so its distance is the
//! depth (van den Bergen 2003 §4.3.8). A pair GJK cannot prove overlapping, one whose depth is
//! within [`TOUCHING`] of the hulls' size (where the verdict must be the exact search's), and
//! an expansion that stopped early (its depth only an upper bound) all go to the full search.
//!
//! The answer is completed with the face of each hull whose normal is nearest the EPA normal
//! and that face's exact gap, which the contact manifold's reference face and the cache's
//! feature come from; a face whose exact overlap is less than EPA's depth (EPA's tolerance
//! above the minimum) gives the depth and normal instead.

use std::cell::Cell;

use super::*;
use crate::convex::{epa, gjk};

/// Depths up to this fraction of the hulls' size (the sum of their outer radii) go to the
/// full search, which alone decides touching exactly.
const TOUCHING: f32 = 1e-4;

/// The query's answer when the hulls clearly overlap (see the module doc), or `None` for the
/// full search to decide: apart, touching or nearly so, or an expansion that did not converge.
/// Leaves each hull's last support vertex in the cache for the next query.
pub(super) fn deep_overlap(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    rel: &Relative,
    cache: &mut SepCache,
) -> Option<SatDetail> {
    let (ha, hb) = (&*a.hull, &*b.hull);
    let (start_a, start_b) = (Cell::new(cache.support_a), Cell::new(cache.support_b));
    // Both supports in A's frame: B's local support along Rᵀ d, moved by `x_A = R x_B + t`.
    let sa = |d: Vec3| ha.support_from(d, &start_a);
    let sb = |d: Vec3| rel.r * hb.support_from(rel.rt * d, &start_b) + rel.t;
    let (ca, ra) = ha.outer_ball();
    let (cb, rb) = hb.outer_ball();
    // GJK's first direction: from B's centre toward A's (a point of A − B).
    let guess = ca - (rel.r * cb + rel.t);
    let run = gjk::run(sa, sb, guess, 0.0, 0.0);
    let proved = run.status == gjk::Status::Intersecting && run.simplex.n == 4;
    let expansion = if proved {
        epa::expand(sa, sb, &run, -guess)
    } else {
        None
    };
    cache.support_a = start_a.get();
    cache.support_b = start_b.get();
    // A NaN depth fails the comparison and goes to the full search too.
    let deep = |e: &epa::Expansion| e.converged && e.pen.depth > TOUCHING * (ra + rb);
    let e = expansion.filter(deep)?;
    Some(complete(a, b, rel, e.pen, cache))
}

/// The [`SatDetail`] of a converged penetration `pen` (A's frame): the EPA axis as the
/// "edge" candidate (no edge indices; its witness points instead), and the face of each hull
/// nearest that axis with its exact gap.
fn complete(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    rel: &Relative,
    pen: epa::Penetration,
    cache: &mut SepCache,
) -> SatDetail {
    let (ha, hb) = (&*a.hull, &*b.hull);
    let n = pen.normal;
    // 1. A's face turned most toward n, and the gap of B over its plane.
    let fa = ha.most_aligned_face(n) as u32;
    let face_a = ha.faces().get(fa as usize).map_or(f32::NEG_INFINITY, |f| {
        rel.face_a_gap(f.plane.normal, f.plane.d, |d| {
            support_value(hb, d, &mut cache.support_b)
        })
    });
    // 2. B's face turned most toward −n (B's frame: −Rᵀ n), and the gap of A under it.
    let fb = hb.most_aligned_face(-(rel.rt * n)) as u32;
    let (face_b, nb_in_a) =
        hb.faces()
            .get(fb as usize)
            .map_or((f32::NEG_INFINITY, Vec3::ZERO), |f| {
                let (s, nb, _) = rel.face_b_gap(f.plane.normal, f.plane.d, |d| {
                    support_value(ha, d, &mut cache.support_a)
                });
                (s, -nb)
            });
    // 3. The least overlap of the three axes: EPA's, or a face's exact one when smaller.
    let mut best = (-pen.depth, n);
    if face_a > best.0 {
        best = (face_a, ha.faces()[fa as usize].plane.normal);
    }
    if face_b > best.0 {
        best = (face_b, nb_in_a);
    }
    let feature = if face_a >= face_b {
        SepFeature::FaceA(fa)
    } else {
        SepFeature::FaceB(fb)
    };
    cache.feature = feature;
    let world = |p: Vec3| a.rotation * p + a.translation;
    SatDetail {
        result: SatResult::Penetrating {
            normal: (a.rotation * best.1).normalize_or_zero(),
            depth: (-best.0).max(0.0),
        },
        feature,
        face_a: (face_a, fa),
        face_b: (face_b, fb),
        edge: (-pen.depth, u32::MAX, u32::MAX, n),
        witness: Some((world(pen.point_a), world(pen.point_b))),
    }
}
