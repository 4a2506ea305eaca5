//! Support values for the separating-axis test: a scan or a hill climb over the hull's
//! vertex graph, and the cached support cone that answers a slowly turning direction with one
//! dot product.

use super::*;

/// Hulls with fewer vertices than this are projected by a plain loop, which beats the walk's
/// neighbour bookkeeping there.
const HILL_CLIMB_MIN_VERTICES: usize = 16;

/// `max_v dir · v` over the hull's vertices, starting the hill climb at `*start` and leaving
/// the maximising vertex there for the next query.
///
/// Hill climbing ([`ConvexHull::support_hill_climb`]) is exact on a convex polytope; tiny hulls
/// use the plain loop. Both give the largest `dir · v` over the vertices as computed in `f32`
/// (the walk up to the hull's convexity tolerance), whatever the start, so the cached and the
/// full search see the same value for the same axis. A NaN direction gives a NaN value (no
/// comparison decides anything).
#[inline]
pub(super) fn support_value(hull: &ConvexHull, dir: Vec3, start: &mut u32) -> f32 {
    let verts = hull.vertices();
    if verts.len() < HILL_CLIMB_MIN_VERTICES {
        let mut best = f32::NEG_INFINITY;
        for (k, v) in verts.iter().enumerate() {
            let h = dir.dot(*v);
            if h > best {
                best = h;
                *start = k as u32;
            }
        }
        if best == f32::NEG_INFINITY {
            // NaN direction: every comparison was false.
            return f32::NAN;
        }
        return best;
    }
    let (v, h) = hull.support_climb(dir, *start);
    *start = v;
    h
}

/// [`support_value`] for the cached check: when `dir` is within the reach of the cone left by
/// the last such query on this hull at vertex `*start`, that vertex is the walk's answer and
/// the value is one dot product; otherwise the walk runs from `*start` and the cone is
/// refreshed. Either way the value is the one [`support_value`] gives (the same vertex, the
/// same `dir · v`), so the verdicts of the cached and the full search stay identical.
#[inline]
pub(super) fn support_value_cone(
    hull: &ConvexHull,
    dir: Vec3,
    start: &mut u32,
    cone: &mut SupportCone,
) -> f32 {
    let verts = hull.vertices();
    if verts.len() < HILL_CLIMB_MIN_VERTICES {
        return support_value(hull, dir, start);
    }
    if cone.hull == hull.id()
        && cone.vertex == *start
        && (dir - cone.dir).length_squared() < cone.reach * cone.reach
    {
        if let Some(v) = verts.get(*start as usize) {
            return dir.dot(*v);
        }
    }
    let (v, h) = hull.support_climb(dir, *start);
    *start = v;
    let reach = hull.support_reach(dir, v, h);
    *cone = if reach > 0.0 {
        SupportCone {
            hull: hull.id(),
            vertex: v,
            dir,
            reach,
        }
    } else {
        SupportCone::default()
    };
    h
}
