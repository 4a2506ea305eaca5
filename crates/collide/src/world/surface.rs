//! The world's surfaces: a triangle mesh, a heightfield or a half-space against convex parts
//! (contacts of up to four points, impacts, rays, closest points and distances), each placed
//! at its body's pose and asked in its rest frame.

use super::narrow::{Impact, Part};
use crate::convex::{gjk, Posed, SupportMap};
use crate::convex::{ContactPoint, Manifold};
use crate::math::{Quat, Vec3};
use crate::mesh::{Heightfield, MeshCollider, MeshContact, MeshShapeHit, TriangleSet};
use crate::raycast::RayHit;
use crate::shapes::Ray;
use std::sync::Arc;

/// A body's non-convex geometry in its rest frame: a triangle mesh, a heightfield, or the
/// half-space `y <= 0`. Surfaces meet convex parts only: a pair of two surfaces has no
/// contact (see the world's module docs).
#[derive(Clone, Debug)]
pub(crate) enum Surface {
    Mesh(Arc<MeshCollider>),
    Heightfield(Arc<Heightfield>),
    HalfSpace,
}

/// A surface placed in the world: the rest-frame geometry and its pose.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlacedSurface<'a> {
    pub surface: &'a Surface,
    pub rotation: Quat,
    pub position: Vec3,
}

impl PlacedSurface<'_> {
    /// A world point in the surface's rest frame.
    fn to_local(self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.position)
    }

    /// A convex part seen in the surface's rest frame.
    fn local<'p>(&self, part: &'p Part) -> Posed<&'p Part> {
        let inv = self.rotation.inverse();
        Posed::new(part, inv, -(inv * self.position))
    }

    /// Per-triangle contacts (rest frame) of a convex shape given in the rest frame; the
    /// half-space gives one contact for its plane, `triangle` 0.
    fn contacts<S: SupportMap + ?Sized>(&self, shape: &S, out: &mut Vec<MeshContact>) {
        match self.surface {
            Surface::Mesh(m) => m.contacts(shape, 0.0, out),
            Surface::Heightfield(h) => h.contacts(shape, 0.0, out),
            Surface::HalfSpace => {
                // The plane y = 0, solid below: the shape's lowest point gives the depth.
                let deepest = shape.support(Vec3::NEG_Y);
                let depth = -deepest.y;
                if depth >= 0.0 && depth.is_finite() {
                    out.push(MeshContact {
                        triangle: 0,
                        normal: Vec3::Y,
                        depth,
                        point: deepest + Vec3::Y * (depth * 0.5),
                    });
                }
            }
        }
    }
}

/// Cosine of the widest angle between a manifold's normal and a triangle contact whose point
/// joins it (about 2.6°).
const SAME_NORMAL_COS: f32 = 0.999;

/// The contact of a surface (A) and a convex part (B): the deepest triangle contact gives the
/// normal and depth, and up to four points are chosen among the contacts that share its
/// normal (the deepest, the farthest from it, the farthest from their line, the farthest
/// from those three). For a box or a hull, the corners within the deepest contact's depth of
/// its plane join the candidates, so a box lying on one large triangle gets its four corners.
pub(crate) fn surface_contact(
    surface: &PlacedSurface<'_>,
    part: &Part,
    scratch: &mut Vec<MeshContact>,
) -> Option<Manifold> {
    scratch.clear();
    let local = surface.local(part);
    surface.contacts(&local, scratch);
    let deepest = scratch
        .iter()
        .copied()
        .max_by(|a, b| a.depth.total_cmp(&b.depth))?;
    let n = deepest.normal;
    // The candidates, kept in `scratch` (no allocation per call): the triangle contacts that
    // share the deepest one's normal, then the part's corners below its plane.
    scratch.retain(|c| c.normal.dot(n) >= SAME_NORMAL_COS);
    // Corners of a polyhedral part below the deepest contact's plane (the plane through its
    // surface point: the contact point moved back by half the depth).
    let plane_point = deepest.point + n * (deepest.depth * 0.5);
    let mut corner = |v: Vec3| {
        let v = surface.to_local(v);
        let depth = n.dot(plane_point - v);
        if depth >= 0.0 && depth <= deepest.depth {
            scratch.push(MeshContact {
                point: v + n * (depth * 0.5),
                depth,
                ..deepest
            });
        }
    };
    match part {
        Part::Cuboid(o, _) => o.corners().into_iter().for_each(&mut corner),
        Part::Hull(p) if p.hull.vertices().len() <= 64 => {
            p.hull
                .vertices()
                .iter()
                .for_each(|&v| corner(p.to_world(v)));
        }
        _ => {}
    }
    let (mut chosen, mut len) = reduce_to_four(scratch);
    if len == 0 {
        // No candidate shares the normal (only when it is NaN): the deepest contact alone.
        (chosen[0], len) = (
            ContactPoint {
                point: deepest.point,
                depth: deepest.depth,
            },
            1,
        );
    }
    let to_world = |c: ContactPoint| ContactPoint {
        point: surface.rotation * c.point + surface.position,
        depth: c.depth,
    };
    let points = chosen.map(to_world);
    Some(Manifold::of_points(
        surface.rotation * n,
        deepest.depth,
        &points[..len],
    ))
}

/// Up to four of the candidates spanning the largest area, the deepest first, and how many
/// (0 only when there are none).
fn reduce_to_four(candidates: &[MeshContact]) -> ([ContactPoint; 4], usize) {
    let point = |c: &MeshContact| ContactPoint {
        point: c.point,
        depth: c.depth,
    };
    let mut out = [ContactPoint::default(); 4];
    let Some(first) = candidates
        .iter()
        .max_by(|a, b| a.depth.total_cmp(&b.depth))
        .map(point)
    else {
        return (out, 0);
    };
    let farthest = |score: &dyn Fn(Vec3) -> f32| {
        candidates
            .iter()
            .map(|c| (c, score(c.point)))
            .filter(|(_, s)| *s > 1e-12)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(c, _)| point(c))
    };
    out[0] = first;
    let (p0, mut len) = (first.point, 1);
    let Some(second) = farthest(&|p| (p - p0).length_squared()) else {
        return (out, len);
    };
    (out[1], len) = (second, 2);
    let p1 = second.point;
    let Some(third) = farthest(&|p| (p1 - p0).cross(p - p0).length_squared()) else {
        return (out, len);
    };
    (out[2], len) = (third, 3);
    let p2 = third.point;
    let near = |p: Vec3| {
        [p0, p1, p2]
            .iter()
            .map(|q| (p - *q).length_squared())
            .fold(f32::INFINITY, f32::min)
    };
    if let Some(fourth) = farthest(&near) {
        (out[3], len) = (fourth, 4);
    }
    (out, len)
}

/// First contact of a convex part moving by `motion` (the surface held still) with a surface:
/// [`MeshCollider::cast_shape`] and [`Heightfield::cast_shape`] in the surface's frame, the
/// half-space by its plane. Normal from the surface toward the part. A part touching or
/// overlapping the surface at the start hits at `toi = 0` only where it moves deeper: per
/// triangle for meshes and heightfields, along the plane's normal for the half-space (the
/// sweeps' starting-touch rule); moving away or along: that triangle (or the half-space) is
/// not hit.
pub(crate) fn surface_impact(
    surface: &PlacedSurface<'_>,
    part: &Part,
    motion: Vec3,
) -> Option<Impact> {
    let local = surface.local(part);
    let local_motion = surface.rotation.inverse() * motion;
    let hit = match surface.surface {
        Surface::Mesh(m) => m.cast_shape(&local, local_motion),
        Surface::Heightfield(h) => h.cast_shape(&local, local_motion),
        Surface::HalfSpace => {
            // Lowest point's height h(u) = y0 + u·m_y: first reaches 0 at u = y0 / −m_y.
            // Touching or below at the start: the sweeps' starting-touch rule with the
            // normal +y (from the half-space toward the body): a hit at 0 only when moving
            // down by more than `ALONG_TOLERANCE` of the motion's length.
            let lowest = local.support(Vec3::NEG_Y);
            let along = f64::from(crate::sweep::ALONG_TOLERANCE) * local_motion.as_dvec3().length();
            let toi = if lowest.y <= 0.0 {
                (f64::from(local_motion.y) < -along).then_some(0.0)
            } else if local_motion.y < 0.0 {
                Some(lowest.y / -local_motion.y).filter(|t| *t <= 1.0)
            } else {
                None
            };
            toi.map(|toi| MeshShapeHit {
                toi,
                point: lowest + local_motion * toi,
                normal: Vec3::Y,
                triangle: 0,
            })
        }
    }?;
    Some(Impact {
        toi: hit.toi,
        normal: surface.rotation * hit.normal,
        point: surface.rotation * hit.point + surface.position,
    })
}

/// Ray against a surface: the first hit within `[0, max_t]`, normal facing the ray.
pub(crate) fn ray_surface(ray: &Ray, surface: &PlacedSurface<'_>, max_t: f32) -> Option<RayHit> {
    let local = Ray::new(
        surface.to_local(ray.origin),
        surface.rotation.inverse() * ray.dir,
    );
    let (t, normal) = match surface.surface {
        Surface::Mesh(m) => m.ray_cast(&local, max_t).map(|h| (h.t, h.normal))?,
        Surface::Heightfield(h) => h.ray_cast(&local, max_t).map(|h| (h.t, h.normal))?,
        Surface::HalfSpace => {
            // Solid below y = 0: starting inside hits at 0; otherwise the plane crossing.
            let plane = crate::shapes::Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
            if local.origin.y <= 0.0 {
                let back = crate::convex::support::unit_or_zero(-ray.dir);
                let normal = if back == Vec3::ZERO { Vec3::Y } else { back };
                return crate::raycast::hit(ray, 0.0, normal);
            }
            let h = crate::raycast::plane(&local, &plane, max_t)?;
            (h.t, h.normal)
        }
    };
    crate::raycast::hit(ray, f64::from(t), surface.rotation * normal)
}

/// The point of a surface closest to a world point within `bound`: `(point, distance,
/// inside)`. Below a half-space the point is inside (distance 0, the point itself); meshes
/// and heightfields are surfaces, never inside.
pub(crate) fn closest_on_surface(
    surface: &PlacedSurface<'_>,
    point: Vec3,
    bound: f32,
) -> Option<(Vec3, f32, bool)> {
    let local = surface.to_local(point);
    let to_world = |p: Vec3| surface.rotation * p + surface.position;
    let found = match surface.surface {
        Surface::Mesh(m) => m.closest_point(local, bound).map(|h| (h.point, h.distance)),
        Surface::Heightfield(h) => h.closest_point(local, bound).map(|h| (h.point, h.distance)),
        Surface::HalfSpace if local.y <= 0.0 => return Some((point, 0.0, true)),
        Surface::HalfSpace => {
            (local.y <= bound).then_some((Vec3::new(local.x, 0.0, local.z), local.y))
        }
    };
    found.map(|(p, d)| (to_world(p), d, false))
}

/// The distance from a surface (A) to a convex part (B) within `bound`, GJK over the
/// triangles near the part (world points; `None` when nothing is that close).
pub(crate) fn distance_to_surface(
    surface: &PlacedSurface<'_>,
    part: &Part,
    bound: f32,
) -> Option<gjk::GjkResult> {
    let local = surface.local(part);
    let to_world = |p: Vec3| surface.rotation * p + surface.position;
    let world = |r: gjk::GjkResult| gjk::GjkResult {
        point_a: to_world(r.point_a),
        point_b: to_world(r.point_b),
        normal: surface.rotation * r.normal,
        ..r
    };
    if let Surface::HalfSpace = surface.surface {
        // The plane y = 0, solid below: the part's lowest point decides.
        let lowest = local.support(Vec3::NEG_Y);
        let gap = lowest.y.max(0.0);
        if gap > bound || gap.is_nan() || bound.is_nan() {
            return None;
        }
        let on_plane = Vec3::new(lowest.x, 0.0, lowest.z);
        return Some(world(gjk::GjkResult {
            distance: gap,
            point_a: on_plane,
            point_b: if gap > 0.0 { lowest } else { on_plane },
            normal: if gap > 0.0 { Vec3::Y } else { Vec3::ZERO },
            intersecting: gap == 0.0,
            iterations: 0,
        }));
    }
    // The part's box in the surface's frame, grown by the bound: only triangles there can
    // be within it.
    let reach = bound.min(f32::MAX);
    let lo = Vec3::new(
        local.support(Vec3::NEG_X).x,
        local.support(Vec3::NEG_Y).y,
        local.support(Vec3::NEG_Z).z,
    );
    let hi = Vec3::new(
        local.support(Vec3::X).x,
        local.support(Vec3::Y).y,
        local.support(Vec3::Z).z,
    );
    let near = crate::shapes::Aabb::new(lo - Vec3::splat(reach), hi + Vec3::splat(reach));
    let mut best: Option<gjk::GjkResult> = None;
    let mut visit = |t: Option<crate::shapes::Triangle>| {
        let Some(t) = t else {
            return;
        };
        let r = gjk::distance(&t, &local);
        let d = if r.intersecting { 0.0 } else { r.distance };
        if d <= bound && best.is_none_or(|b| d < b.distance) {
            best = Some(gjk::GjkResult { distance: d, ..r });
        }
    };
    match surface.surface {
        Surface::Mesh(m) => m.for_each_near(&near, &mut |i| {
            visit(m.triangle(i));
            true
        }),
        Surface::Heightfield(h) => h.for_each_near(&near, &mut |i| {
            visit(h.triangle(i));
            true
        }),
        Surface::HalfSpace => {}
    }
    best.map(world)
}
