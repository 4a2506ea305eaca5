//! A body as the world holds it: its geometry prepared once (convex parts or a surface, rest
//! box, bounding sphere), its pose at the start and end of the frame, and the boxes and parts
//! it shows at any pose.

use super::narrow::Part;
use super::surface::{PlacedSurface, Surface};
use super::{BodyDesc, BodyError, Geometry, WorldError};
use crate::bounding::tight_aabb_vec3;
use crate::broadphase::{CollisionGroups, ProxyId};
use crate::convex::{ConvexHull, ConvexPolyhedron};
use crate::math::{Affine3A, Quat, Vec3};
use crate::shapes::{Aabb, Capsule, Obb, Sphere};
use std::sync::Arc;

/// A body's geometry prepared once: parts in the rest frame and bounding volumes.
#[derive(Clone, Debug)]
pub(super) enum Shape {
    Sphere(f32),
    Capsule(f32, f32),
    /// Half-extents, and the box as a hull for SAT manifolds (`None` for a scene query's box).
    Cuboid(Vec3, Option<Arc<ConvexHull>>),
    Hull(Arc<ConvexHull>),
    Pieces(Vec<(Arc<ConvexHull>, Aabb)>),
    Surface(Surface),
}

impl Shape {
    /// Builds the Gauss maps of its hulls ([`ConvexHull::build_gauss_map`]).
    fn build_gauss_maps(&self) {
        match self {
            Shape::Cuboid(_, Some(h)) | Shape::Hull(h) => h.build_gauss_map(),
            Shape::Pieces(ps) => ps.iter().for_each(|(h, _)| h.build_gauss_map()),
            _ => {}
        }
    }
}

/// Half-size of the box standing in for a half-space's unbounded extent: large enough to hold
/// any scene, small enough that the broad phases' surface areas stay finite in `f32`.
pub(super) const HALF_SPACE_EXTENT: f32 = 1e18;

/// A body: geometry, poses, velocities, groups, and this frame's boxes.
///
/// Laid out in order, on a cache line boundary: what every scene query reads of a candidate
/// (its box, pose, filter fields, bounding sphere and shape) fills the first two lines.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(super) struct Body {
    /// World box at the end pose.
    pub(super) aabb: Aabb,
    pub(super) position: Vec3,
    pub(super) sphere_radius: f32,
    pub(super) groups: CollisionGroups,
    pub(super) rotation: Quat,
    /// Bounding sphere in the rest frame: centre (radius above).
    pub(super) sphere_center: Vec3,
    pub(super) sensor: bool,
    pub(super) fixed: bool,
    pub(super) tight: bool,
    /// Swept this frame.
    pub(super) fast: bool,
    pub(super) shape: Shape,
    /// Rest-frame box of the geometry.
    pub(super) local_box: Aabb,
    /// The geometry as given (read back by [`super::World::geometry`]).
    pub(super) geometry: Geometry,
    pub(super) user_value: u64,
    /// Pose at the start of the frame (before the last move).
    pub(super) start_position: Vec3,
    pub(super) start_rotation: Quat,
    pub(super) linear_velocity: Vec3,
    pub(super) angular_velocity: Vec3,
    /// Smallest half-size: the motion that can tunnel through this body.
    pub(super) thickness: f32,
    pub(super) proxy: ProxyId,
    /// The box given to the broad phase this frame (swept for a fast body).
    pub(super) broad_box: Aabb,
}

/// A hull placed at a pose (one reference count taken, not two).
fn posed(hull: &Arc<ConvexHull>, rotation: Quat, position: Vec3) -> ConvexPolyhedron {
    let mut p = ConvexPolyhedron::new(hull.clone());
    p.set_pose(rotation, position);
    p
}

/// A shape's world box at a pose: fast (transformed rest box) or tight (vertices).
fn world_box(shape: &Shape, local_box: &Aabb, tight: bool, position: Vec3, rotation: Quat) -> Aabb {
    let m = || Affine3A::from_rotation_translation(rotation, position);
    match shape {
        // Spheres and capsules: exact boxes directly.
        Shape::Sphere(r) => Aabb::from_center_half_extents(position, Vec3::splat(*r)),
        Shape::Capsule(h, r) => {
            let m = m();
            let a = m.transform_point3(Vec3::new(0.0, -h, 0.0));
            let b = m.transform_point3(Vec3::new(0.0, *h, 0.0));
            Aabb::new(a.min(b), a.max(b)).expanded(*r)
        }
        Shape::Hull(hull) if tight => tight_aabb_vec3(hull.vertices(), &m()),
        Shape::Pieces(ps) if tight => {
            let m = m();
            ps.iter()
                .map(|(h, _)| tight_aabb_vec3(h.vertices(), &m))
                .fold(Aabb::EMPTY, |acc, b| acc.union(&b))
        }
        _ => local_box.transformed(&m()),
    }
}

/// A shape's one convex part placed at a pose (sphere, capsule, box, hull); `None` for pieces
/// and surfaces.
fn single_part(shape: &Shape, position: Vec3, rotation: Quat) -> Option<Part> {
    Some(match shape {
        Shape::Sphere(r) => Part::Sphere(Sphere::new(position, *r)),
        Shape::Capsule(h, r) => {
            let m = Affine3A::from_rotation_translation(rotation, position);
            let end = |y: f32| m.transform_point3(Vec3::new(0.0, y, 0.0));
            Part::Capsule(Capsule::new(end(-h), end(*h), *r))
        }
        Shape::Cuboid(h, hull) => {
            let o = Obb::new(position, rotation, *h);
            let p = hull.as_ref().map(|hull| posed(hull, rotation, position));
            Part::Cuboid(o, p)
        }
        Shape::Hull(hull) => Part::Hull(posed(hull, rotation, position)),
        Shape::Pieces(_) | Shape::Surface(_) => return None,
    })
}

/// A scene query's shape of one convex part placed at a pose, as [`Body::query`] places it.
pub(super) struct QueryPart {
    pub(super) part: Part,
    /// The part's world box.
    pub(super) aabb: Aabb,
    /// A sphere holding the part.
    pub(super) sphere: Sphere,
}

/// A scene query's shape of one convex part (sphere, box, capsule, hull) placed at a pose,
/// without building a body: the same part and box as [`Body::query`]. `None` for pieces and
/// surfaces, and for a shape or pose the world would refuse.
pub(super) fn query_part(geometry: &Geometry, position: Vec3, rotation: Quat) -> Option<QueryPart> {
    if let Geometry::Sphere(r) = *geometry {
        return query_sphere(r, position, rotation);
    }
    let one_part = matches!(
        geometry,
        Geometry::Sphere(_) | Geometry::Cuboid(_) | Geometry::Capsule { .. } | Geometry::Hull(_)
    );
    if !(one_part && position.is_finite() && finite_quat(rotation)) {
        return None;
    }
    let (shape, local_box) = prepare(geometry, false).ok()?;
    let rotation = unit_quat(rotation);
    let aabb = world_box(&shape, &local_box, false, position, rotation);
    if !aabb.is_finite() {
        return None;
    }
    let sphere = Sphere::new(
        position + rotation * local_box.center(),
        bounding_radius(&shape, &local_box),
    );
    let part = single_part(&shape, position, rotation)?;
    Some(QueryPart { part, aabb, sphere })
}

/// [`query_part`] of a sphere, directly: the part, box and bounding sphere a sphere body of
/// radius `r` has at the pose (the same checks: a finite pose, a finite radius `>= 0`, a
/// finite box).
fn query_sphere(r: f32, position: Vec3, rotation: Quat) -> Option<QueryPart> {
    if !(position.is_finite() && finite_quat(rotation) && r.is_finite() && r >= 0.0) {
        return None;
    }
    let aabb = Aabb::from_center_half_extents(position, Vec3::splat(r));
    if !aabb.is_finite() {
        return None;
    }
    let sphere = Sphere::new(position, r);
    Some(QueryPart {
        part: Part::Sphere(sphere),
        aabb,
        sphere,
    })
}

pub(super) fn finite_quat(q: Quat) -> bool {
    q.is_finite() && glam::Vec4::from(q).abs().max_element() > 0.0
}

/// `q / |q|` for any finite non-zero `q`. glam's `normalize` squares the components, which
/// underflows for components below ~1e-19 (a quaternion of 1e-22 components comes out with
/// length 0.71, so hull normals would not be unit)
/// and overflows above ~1e19 (giving a zero quaternion); dividing by the largest component
/// first keeps the squared length in [1, 4].
pub(super) fn unit_quat(q: Quat) -> Quat {
    let m = glam::Vec4::from(q).abs().max_element();
    (q * m.recip()).normalize()
}

impl Body {
    pub(super) fn new(desc: &BodyDesc, proxy: ProxyId) -> Result<Body, WorldError> {
        Body::build(desc, proxy, true)
    }

    /// A scene query's shape placed like a body (no broad-phase proxy). A box gets no hull:
    /// the queries ask booleans, distances and sweeps of it, never a SAT manifold.
    pub(super) fn query(
        shape: &Geometry,
        position: Vec3,
        rotation: Quat,
    ) -> Result<Body, WorldError> {
        let desc = BodyDesc::new(shape.clone()).at(position).rotated(rotation);
        Body::build(&desc, ProxyId::MAX, false)
    }

    fn build(desc: &BodyDesc, proxy: ProxyId, box_hull: bool) -> Result<Body, WorldError> {
        if !(desc.position.is_finite() && finite_quat(desc.rotation)) {
            return Err(WorldError::InvalidBody(BodyError::PoseNotFinite));
        }
        if !(desc.linear_velocity.is_finite() && desc.angular_velocity.is_finite()) {
            return Err(WorldError::InvalidBody(BodyError::VelocityNotFinite));
        }
        let (shape, local_box) = prepare(&desc.geometry, box_hull)?;
        if box_hull {
            // A world body's hulls get their Gauss maps now, not in a frame's first SAT
            // search: frames allocate nothing.
            shape.build_gauss_maps();
        }
        let c = local_box.center();
        let sphere_radius = bounding_radius(&shape, &local_box);
        let thickness = thickness(&shape, &local_box);
        let rotation = unit_quat(desc.rotation);
        let mut body = Body {
            shape,
            geometry: desc.geometry.clone(),
            sensor: desc.sensor,
            user_value: desc.user_value,
            position: desc.position,
            rotation,
            start_position: desc.position,
            start_rotation: rotation,
            linear_velocity: desc.linear_velocity,
            angular_velocity: desc.angular_velocity,
            groups: desc.groups,
            tight: desc.tight_bounds,
            fixed: desc.fixed,
            local_box,
            sphere_center: c,
            sphere_radius,
            thickness,
            proxy,
            fast: false,
            aabb: Aabb::EMPTY,
            broad_box: Aabb::EMPTY,
        };
        body.aabb = body.world_box(body.position, body.rotation);
        body.broad_box = body.aabb;
        if !body.aabb.is_finite() {
            return Err(WorldError::InvalidBody(BodyError::BoundsNotFinite));
        }
        Ok(body)
    }

    /// The body's world box at a pose: fast (transformed rest box) or tight (vertices).
    pub(super) fn world_box(&self, position: Vec3, rotation: Quat) -> Aabb {
        world_box(&self.shape, &self.local_box, self.tight, position, rotation)
    }

    /// The body's convex parts placed at a pose, each with its world box.
    pub(super) fn parts(&self, position: Vec3, rotation: Quat, out: &mut Vec<(Part, Aabb)>) {
        out.clear();
        if let Some(part) = self.single_part(position, rotation) {
            out.push((part, self.aabb_of(position, rotation)));
        } else if let Shape::Pieces(ps) = &self.shape {
            let m = Affine3A::from_rotation_translation(rotation, position);
            for (h, b) in ps {
                let p = ConvexPolyhedron::new(h.clone()).with_pose(rotation, position);
                out.push((Part::Hull(p), b.transformed(&m)));
            }
        }
        // A surface has no convex parts: pairs with it go through `narrow::surface_*`.
    }

    /// The body's one convex part placed at a pose, for a body of one part (sphere, capsule,
    /// box, hull); `None` for pieces and surfaces. The scene queries' path: no list, no box.
    pub(super) fn single_part(&self, position: Vec3, rotation: Quat) -> Option<Part> {
        single_part(&self.shape, position, rotation)
    }

    /// [`Body::single_part`] at the body's pose for a scene query: a box without its
    /// polyhedron (the queries' box tests read only the OBB; the polyhedron serves the
    /// frame's manifolds), so no reference count is taken for it.
    pub(super) fn query_single_part(&self) -> Option<Part> {
        match &self.shape {
            Shape::Cuboid(h, _) => Some(Part::Cuboid(
                Obb::new(self.position, self.rotation, *h),
                None,
            )),
            shape => single_part(shape, self.position, self.rotation),
        }
    }

    /// `true` for a mesh, heightfield or half-space.
    pub(super) fn is_surface(&self) -> bool {
        matches!(self.shape, Shape::Surface(_))
    }

    /// The body's surface at a pose, if its geometry is one.
    pub(super) fn surface(&self, position: Vec3, rotation: Quat) -> Option<PlacedSurface<'_>> {
        match &self.shape {
            Shape::Surface(surface) => Some(PlacedSurface {
                surface,
                rotation,
                position,
            }),
            _ => None,
        }
    }

    pub(super) fn aabb_of(&self, position: Vec3, rotation: Quat) -> Aabb {
        if position == self.position && rotation == self.rotation {
            self.aabb
        } else {
            self.world_box(position, rotation)
        }
    }

    /// World bounding sphere at a pose.
    pub(super) fn bounding_sphere(&self, position: Vec3, rotation: Quat) -> Sphere {
        Sphere::new(position + rotation * self.sphere_center, self.sphere_radius)
    }

    /// World bounding OBB at a pose (the rest box, rotated).
    pub(super) fn bounding_obb(&self, position: Vec3, rotation: Quat) -> Obb {
        Obb::new(
            position + rotation * self.local_box.center(),
            rotation,
            self.local_box.half_extents(),
        )
    }

    pub(super) fn motion(&self) -> Vec3 {
        self.position - self.start_position
    }

    /// This frame's boxes: `aabb` at the end pose; `fast` when the body moves more than
    /// `ccd_fraction` of its thickness; `broad_box` the end box, grown over the start box for
    /// a fast body (its sweep's reach).
    pub(super) fn refresh_boxes(&mut self, ccd_fraction: f32) {
        let end = self.world_box(self.position, self.rotation);
        self.aabb = end;
        let motion = self.motion();
        self.fast = motion != Vec3::ZERO && motion.length() > ccd_fraction * self.thickness;
        self.broad_box = if self.fast {
            end.union(&self.world_box(self.start_position, self.start_rotation))
        } else {
            end
        };
    }
}

/// A geometry prepared once: its convex parts or surface in the rest frame and its rest box;
/// sizes checked ([`WorldError::InvalidBody`] says which). A box gets its hull for SAT
/// manifolds when `box_hull`.
fn prepare(geometry: &Geometry, box_hull: bool) -> Result<(Shape, Aabb), WorldError> {
    let hull_box = |h: &ConvexHull| Aabb::from_points(h.vertices());
    Ok(match geometry {
        Geometry::Sphere(r) => {
            if !(r.is_finite() && *r >= 0.0) {
                return Err(WorldError::InvalidBody(BodyError::SphereRadius(*r)));
            }
            (
                Shape::Sphere(*r),
                Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(*r)),
            )
        }
        Geometry::Cuboid(h) => {
            if !(h.is_finite() && h.min_element() > 0.0) {
                return Err(WorldError::InvalidBody(BodyError::BoxHalfExtents(*h)));
            }
            let hull = if box_hull {
                let poly = ConvexPolyhedron::cuboid(*h)
                    .map_err(|_| WorldError::InvalidBody(BodyError::BoxHull(*h)))?;
                Some(poly.hull)
            } else {
                None
            };
            (
                Shape::Cuboid(*h, hull),
                Aabb::from_center_half_extents(Vec3::ZERO, *h),
            )
        }
        Geometry::Capsule {
            half_height,
            radius,
        } => {
            let (h, r) = (*half_height, *radius);
            if !(h.is_finite() && r.is_finite() && h >= 0.0 && r >= 0.0) {
                return Err(WorldError::InvalidBody(BodyError::CapsuleSize {
                    half_height: h,
                    radius: r,
                }));
            }
            (
                Shape::Capsule(h, r),
                Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(r, h + r, r)),
            )
        }
        Geometry::Hull(h) => {
            let b = hull_box(h).ok_or(WorldError::InvalidBody(BodyError::HullNotFinite))?;
            (Shape::Hull(h.clone()), b)
        }
        Geometry::Pieces(ps) => {
            let mut parts = Vec::with_capacity(ps.len());
            let mut all = Aabb::EMPTY;
            for (index, h) in ps.iter().enumerate() {
                let b = hull_box(h)
                    .ok_or(WorldError::InvalidBody(BodyError::PieceNotFinite { index }))?;
                all = all.union(&b);
                parts.push((h.clone(), b));
            }
            if parts.is_empty() {
                return Err(WorldError::InvalidBody(BodyError::NoPieces));
            }
            (Shape::Pieces(parts), all)
        }
        Geometry::Mesh(m) => (Shape::Surface(Surface::Mesh(m.clone())), m.aabb()),
        Geometry::Heightfield(h) => (Shape::Surface(Surface::Heightfield(h.clone())), h.aabb()),
        Geometry::HalfSpace => {
            let e = HALF_SPACE_EXTENT;
            let b = Aabb::new(Vec3::new(-e, -e, -e), Vec3::new(e, 0.0, e));
            (Shape::Surface(Surface::HalfSpace), b)
        }
    })
}

/// Radius of the bounding sphere about the rest box's centre: analytic for spheres, capsules
/// and boxes, the farthest vertex for hulls and pieces, the box's half-diagonal for a surface.
fn bounding_radius(shape: &Shape, local_box: &Aabb) -> f32 {
    let c = local_box.center();
    match shape {
        Shape::Sphere(r) => *r,
        Shape::Capsule(h, r) => h + r,
        Shape::Cuboid(h, _) => h.length(),
        Shape::Hull(hull) => hull
            .vertices()
            .iter()
            .map(|v| (*v - c).length())
            .fold(0.0, f32::max),
        Shape::Pieces(ps) => ps
            .iter()
            .flat_map(|(h, _)| h.vertices().iter())
            .map(|v| (*v - c).length())
            .fold(0.0, f32::max),
        Shape::Surface(_) => local_box.half_extents().length(),
    }
}

/// The smallest half-size: how far a body moves in a frame before it could pass through
/// something as thin as itself (the fast-body threshold's scale).
fn thickness(shape: &Shape, local_box: &Aabb) -> f32 {
    match shape {
        Shape::Sphere(r) => *r,
        Shape::Capsule(_, r) => *r,
        Shape::Cuboid(h, _) => h.min_element(),
        Shape::Pieces(ps) => ps
            .iter()
            .map(|(_, b)| b.half_extents().min_element())
            .fold(f32::INFINITY, f32::min),
        Shape::Hull(_) | Shape::Surface(_) => local_box.half_extents().min_element(),
    }
}
