//! collide shapes → parry3d shapes and poses.
//!
//! parry3d 0.31 is built on glam 0.33 through `glamx`, the same `Vec3` and `Quat` collide uses,
//! so no component is copied through another type: a parry `Pose` is `{ rotation: Quat,
//! translation: Vec3 }`. Every parry shape is centred on its own origin and placed by its pose,
//! which is how parry users hold them (a `Ball` has no centre, a `Cuboid` no rotation).
//!
//! | collide            | parry3d                                   | pose                          |
//! |--------------------|-------------------------------------------|-------------------------------|
//! | `Sphere`           | `Ball(radius)`                            | translation = centre          |
//! | `Aabb`             | `Cuboid(half_extents)`                    | translation = centre          |
//! | `Obb`              | `Cuboid(half_extents)`                    | centre and `Obb::rotation()`  |
//! | `Segment`          | `Segment(a - m, b - m)`                   | translation = midpoint `m`    |
//! | `Capsule`          | `Capsule(a - m, b - m, radius)`           | translation = midpoint `m`    |
//! | `Triangle`         | `Triangle(a - g, b - g, c - g)`           | translation = centroid `g`    |
//! | `Plane` (n, d)     | `HalfSpace(n)` and `HalfSpace(-n)`        | translation = `-d n` (on it)  |
//!
//! A collide [`Plane`] is two-sided: `overlap::plane_*` asks whether a shape touches the plane
//! itself. parry's `HalfSpace(n)` is solid: the points with `n · p <= 0` in its frame. A shape
//! touches the plane exactly when it meets both closed half-spaces `n · p + d <= 0` and
//! `n · p + d >= 0` (it is connected, so it then crosses or touches the plane between them).
//! [`halfspaces`] therefore gives both, at the same pose; the comparison is
//! `intersection_test(plane, HalfSpace(n)) && intersection_test(plane, HalfSpace(-n))`.

use collide::convex::ConvexHull;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use parry3d::bounding_volume::Aabb as ParryAabb;
use parry3d::math::Pose;
use parry3d::query::Ray as ParryRay;
use parry3d::shape::{
    Ball, Capsule as ParryCapsule, ConvexPolyhedron as ParryPoly, Cuboid, HalfSpace,
    Segment as ParrySegment, Triangle as ParryTriangle,
};

/// A parry shape with the pose that places it where the collide shape is.
#[derive(Clone, Copy, Debug)]
pub struct Posed<S> {
    /// Where the shape is.
    pub pose: Pose,
    /// The shape in its own frame.
    pub shape: S,
}

fn at(translation: Vec3) -> Pose {
    Pose::from_translation(translation)
}

/// A sphere as a parry `Ball` at its centre.
pub fn sphere(s: &Sphere) -> Posed<Ball> {
    Posed {
        pose: at(s.center),
        shape: Ball::new(s.radius),
    }
}

/// An AABB as a parry `Cuboid` at its centre (no rotation).
pub fn aabb(b: &Aabb) -> Posed<Cuboid> {
    Posed {
        pose: at(b.center()),
        shape: Cuboid::new(b.half_extents()),
    }
}

/// An OBB as a parry `Cuboid` at its centre, rotated by the quaternion of its axes.
///
/// `Obb::rotation` rebuilds the quaternion from the stored axes; the round trip moves a corner
/// by a few ulps of its coordinates (far below the 1e-4 band of the differential test).
pub fn obb(o: &Obb) -> Posed<Cuboid> {
    Posed {
        pose: Pose::from_parts(o.center, o.rotation().normalize()),
        shape: Cuboid::new(o.half_extents),
    }
}

/// A segment as a parry `Segment` centred on its midpoint.
pub fn segment(s: &Segment) -> Posed<ParrySegment> {
    let m = s.midpoint();
    Posed {
        pose: at(m),
        shape: ParrySegment::new(s.a - m, s.b - m),
    }
}

/// A capsule as a parry `Capsule` centred on the midpoint of its core segment.
pub fn capsule(c: &Capsule) -> Posed<ParryCapsule> {
    let m = (c.a + c.b) * 0.5;
    Posed {
        pose: at(m),
        shape: ParryCapsule::new(c.a - m, c.b - m, c.radius),
    }
}

/// A triangle as a parry `Triangle` centred on its centroid.
pub fn triangle(t: &Triangle) -> Posed<ParryTriangle> {
    let g = t.centroid();
    Posed {
        pose: at(g),
        shape: ParryTriangle::new(t.a - g, t.b - g, t.c - g),
    }
}

/// The two closed half-spaces whose common boundary is the plane: `(pose, HalfSpace(n),
/// HalfSpace(-n))`, the pose at the plane's point `-d n`. A shape touches the two-sided plane
/// iff it intersects both.
pub fn halfspaces(p: &Plane) -> (Pose, HalfSpace, HalfSpace) {
    (
        at(-p.d * p.normal),
        HalfSpace::new(p.normal),
        HalfSpace::new(-p.normal),
    )
}

/// An AABB as parry's bounding-volume `Aabb` (world space, no pose).
pub fn bounding_aabb(b: &Aabb) -> ParryAabb {
    ParryAabb::new(b.min, b.max)
}

/// A ray as a parry `Ray` (same origin and direction; parry's time of impact is in units of
/// `|dir|`, as collide's `t`).
pub fn ray(r: &collide::shapes::Ray) -> ParryRay {
    ParryRay::new(r.origin, r.dir)
}

/// A pose from a position and rotation (the rotation is normalised).
pub fn pose(translation: Vec3, rotation: Quat) -> Pose {
    Pose::from_parts(translation, rotation.normalize())
}

/// The same polyhedron for parry: our hull's polygons fan-triangulated (parry's own hull of
/// the vertices if it rejects that mesh); `None` when parry accepts neither.
pub fn hull(h: &ConvexHull) -> Option<ParryPoly> {
    let mut tris = Vec::new();
    for f in 0..h.faces().len() {
        let idx = h.face_vertices(f);
        for k in 1..idx.len().saturating_sub(1) {
            tris.push([idx[0], idx[k], idx[k + 1]]);
        }
    }
    ParryPoly::from_convex_mesh(h.vertices().to_vec(), &tris)
        .or_else(|| ParryPoly::from_convex_hull(h.vertices()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d::query::PointQuery;

    #[test]
    fn obb_corner_lands_where_collide_puts_it() {
        // A rotated box: parry's local corner (+e) moved by the pose equals collide's corner 7.
        let o = Obb::new(
            Vec3::new(1.0, -2.0, 0.5),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, 1.2, -0.7),
            Vec3::new(0.5, 1.0, 2.0),
        );
        let p = obb(&o);
        let corner = p.pose * o.half_extents;
        assert!((corner - o.corners()[7]).length() < 1e-5);
    }

    #[test]
    fn halfspace_boundary_is_the_plane() {
        // The plane y = 2: its point (0, 2, 0) is on both half-spaces' boundaries.
        let pl = Plane::from_point_normal(Vec3::new(3.0, 2.0, 1.0), Vec3::Y);
        let (pose, up, down) = halfspaces(&pl);
        let on = Vec3::new(-4.0, 2.0, 7.0);
        assert!(up.contains_point(&pose, on) && down.contains_point(&pose, on));
        assert!(up.contains_point(&pose, Vec3::new(0.0, 1.0, 0.0)));
        assert!(!up.contains_point(&pose, Vec3::new(0.0, 3.0, 0.0)));
        assert!(down.contains_point(&pose, Vec3::new(0.0, 3.0, 0.0)));
    }

    #[test]
    fn segment_capsule_triangle_keep_world_positions() {
        // Shapes re-centred on their midpoint/centroid come back to the same world points.
        let s = Segment::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.0, 0.0, 5.0));
        let ps = segment(&s);
        assert!((ps.pose * ps.shape.a - s.a).length() < 1e-6);
        let c = Capsule::new(s.a, s.b, 0.5);
        let pc = capsule(&c);
        assert!((pc.pose * pc.shape.segment.b - c.b).length() < 1e-6);
        let t = Triangle::new(Vec3::X, Vec3::Y * 3.0, Vec3::Z * -2.0);
        let pt = triangle(&t);
        assert!((pt.pose * pt.shape.c - t.c).length() < 1e-6);
    }
}
