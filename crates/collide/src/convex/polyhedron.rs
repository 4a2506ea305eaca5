//! A convex polyhedron with a pose: a shared [`ConvexHull`] in its rest frame, moved by a
//! rotation and a translation.

use std::cell::Cell;
use std::sync::Arc;

use super::hull::{ConvexHull, HullError};
use super::support::{Posed, SupportMap};
use crate::math::{Mat3, Quat, Vec3};
use crate::shapes::{Aabb, Obb, Plane};

/// A convex polyhedron placed in the world: `world = rotation · local + translation`.
///
/// The hull is shared (`Arc`), so many bodies of one shape cost one hull, and moving a body is
/// writing its pose. Build one from a hull ([`ConvexPolyhedron::new`]), from a box
/// ([`ConvexPolyhedron::from_obb`], [`ConvexPolyhedron::cuboid`]), or from points
/// ([`ConvexPolyhedron::from_points`]). Queries on a polyhedron with a NaN pose report
/// "no contact".
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron {
    /// The shape in its local (rest) frame.
    pub hull: Arc<ConvexHull>,
    /// Local-to-world rotation (orthonormal columns).
    pub rotation: Mat3,
    /// Local-to-world translation.
    pub translation: Vec3,
}

impl ConvexPolyhedron {
    /// The hull at the origin, unrotated.
    #[must_use]
    pub fn new(hull: Arc<ConvexHull>) -> ConvexPolyhedron {
        ConvexPolyhedron {
            hull,
            rotation: Mat3::IDENTITY,
            translation: Vec3::ZERO,
        }
    }

    /// The hull of `points` (see [`ConvexHull::try_new`] for the errors), at the origin.
    pub fn from_points(points: &[Vec3]) -> Result<ConvexPolyhedron, HullError> {
        Ok(Self::new(Arc::new(ConvexHull::try_new(points)?)))
    }

    /// A box of the given half-extents centred at the origin; a zero or non-finite half-extent
    /// is an error ([`HullError::Coplanar`] for a flat box, [`HullError::NonFinite`]).
    pub fn cuboid(half_extents: Vec3) -> Result<ConvexPolyhedron, HullError> {
        let e = half_extents.abs();
        let corners: [Vec3; 8] = std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { -e.x } else { e.x },
                if i & 2 == 0 { -e.y } else { e.y },
                if i & 4 == 0 { -e.z } else { e.z },
            )
        });
        Self::from_points(&corners)
    }

    /// The oriented box as a polyhedron: its local frame is the box's (centre, axes).
    pub fn from_obb(obb: &Obb) -> Result<ConvexPolyhedron, HullError> {
        if !obb.is_finite() {
            return Err(HullError::NonFinite { index: 0 });
        }
        let mut p = Self::cuboid(obb.half_extents)?;
        p.rotation = obb.axes;
        p.translation = obb.center;
        Ok(p)
    }

    /// The same shape at a new pose (the rotation need not be normalised; a zero or NaN
    /// quaternion gives a NaN pose: no contact).
    #[must_use]
    pub fn with_pose(&self, rotation: Quat, translation: Vec3) -> ConvexPolyhedron {
        let mut p = self.clone();
        p.set_pose(rotation, translation);
        p
    }

    /// Moves the shape to a new pose (see [`ConvexPolyhedron::with_pose`]).
    pub fn set_pose(&mut self, rotation: Quat, translation: Vec3) {
        // Normalised in f64 (`math::unit_quat`): tiny or huge quaternions stay accurate.
        self.rotation = crate::math::rotation_matrix(rotation);
        self.translation = translation;
    }

    /// `true` when the pose is finite.
    #[inline]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.rotation.is_finite() && self.translation.is_finite()
    }

    /// Local point → world point.
    #[inline]
    #[must_use]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// World point → local point.
    #[inline]
    #[must_use]
    pub fn to_local(&self, p: Vec3) -> Vec3 {
        self.rotation.transpose() * (p - self.translation)
    }

    /// Local plane → world plane: normal `R n`, offset so that world points keep their
    /// signed distances.
    #[inline]
    #[must_use]
    pub fn plane_to_world(&self, plane: &Plane) -> Plane {
        posed_plane(plane, self.rotation, self.translation)
    }

    /// World plane of face `f`.
    #[inline]
    #[must_use]
    pub fn face_plane(&self, f: usize) -> Plane {
        self.plane_to_world(&self.hull.faces()[f].plane)
    }

    /// The vertices in world space.
    #[must_use]
    pub fn world_vertices(&self) -> Vec<Vec3> {
        self.hull
            .vertices()
            .iter()
            .map(|v| self.to_world(*v))
            .collect()
    }

    /// The tight world AABB (every vertex transformed).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        for v in self.hull.vertices() {
            let w = self.to_world(*v);
            min = min.min(w);
            max = max.max(w);
        }
        Aabb { min, max }
    }

    /// Index of the vertex farthest along local direction `dir` (the first of ties).
    #[inline]
    #[must_use]
    pub fn support_index_local(&self, dir: Vec3) -> usize {
        self.hull.support_index(dir)
    }
}

/// Hulls up to this many vertices are scanned ([`ConvexHull::support_index`], a cluster of
/// sixteen at a time) rather than climbed: GJK's and EPA's directions jump about, and on a few
/// hundred vertices a scan costs no more than the walk.
const SCAN_MAX_VERTICES: usize = 512;

impl ConvexHull {
    /// The vertex farthest along `dir` (own frame) for one of a run of queries: a scan on
    /// small hulls, a hill climb from the vertex in `start` on big ones
    /// ([`ConvexHull::support_hill_climb`]), leaving the answer's index in `start`. A start of
    /// 0 (the first query of a run) is scanned on every hull: the scan skips the clusters of
    /// vertices that cannot hold the answer, where a climb from an arbitrary vertex crosses
    /// half the hull. A NaN `dir` gives vertex 0 (scan) or the start vertex (climb).
    #[inline]
    pub(crate) fn support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        let verts = self.vertices();
        let v = if verts.len() <= SCAN_MAX_VERTICES || start.get() == 0 {
            self.support_index(dir) as u32
        } else {
            self.support_climb(dir, start.get()).0
        };
        start.set(v);
        verts.get(v as usize).copied().unwrap_or(Vec3::NAN)
    }
}

/// Support point in the hull's own frame: the farthest vertex (the first of ties).
impl SupportMap for ConvexHull {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.vertices()[self.support_index(dir)]
    }
    /// Hulls of more than 512 vertices climb from the last support vertex
    /// ([`ConvexHull::support_hill_climb`]); smaller ones are scanned.
    #[inline]
    fn core_support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        self.support_from(dir, start)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.vertex_centroid()
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        Some(self.outer_ball())
    }
    #[inline]
    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        Some(Posed::translated(self, Vec3::ZERO))
    }
}

/// World support point `R · s(Rᵀ d) + t` of the posed hull.
impl SupportMap for ConvexPolyhedron {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        let local = self.rotation.transpose() * dir;
        self.to_world(self.hull.vertices()[self.support_index_local(local)])
    }
    /// Hulls of more than 512 vertices climb from the last support vertex
    /// ([`ConvexHull::support_hill_climb`]); smaller ones are scanned.
    #[inline]
    fn core_support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        let local = self.rotation.transpose() * dir;
        self.to_world(self.hull.support_from(local, start))
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.to_world(self.hull.vertex_centroid())
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        let (c, r) = self.hull.outer_ball();
        Some((self.to_world(c), r))
    }
    #[inline]
    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        Some(Posed {
            shape: &*self.hull,
            rotation: self.rotation,
            translation: self.translation,
        })
    }
}

/// A local plane taken to the world by `rotation` (a matrix with orthonormal columns) then
/// `translation`: normal `R n`, offset so that world points keep their signed distances.
#[inline]
pub(crate) fn posed_plane(plane: &Plane, rotation: Mat3, translation: Vec3) -> Plane {
    let normal = rotation * plane.normal;
    Plane {
        normal,
        d: plane.d - normal.dot(translation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn obb_polyhedron_matches_corners() {
        // A rotated box: the polyhedron's world vertices are the OBB's corners.
        let obb = Obb::new(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_y(0.6),
            Vec3::new(1.0, 0.5, 2.0),
        );
        let p = ConvexPolyhedron::from_obb(&obb).unwrap();
        let mut w = p.world_vertices();
        let mut c = obb.corners().to_vec();
        let key = |v: &Vec3| {
            (v.x * 1e4) as i64 * 1_000_000_000 + (v.y * 1e4) as i64 * 10_000 + (v.z * 1e4) as i64
        };
        w.sort_by_key(key);
        c.sort_by_key(key);
        for (a, b) in w.iter().zip(&c) {
            assert_near!(*a, *b, 1e-5);
        }
        assert_near!(p.aabb().min, obb.aabb().min, 1e-5);
    }

    #[test]
    fn world_face_planes_contain_world_vertices() {
        // Every world vertex is on or below every world face plane.
        let p = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0))
            .unwrap()
            .with_pose(Quat::from_rotation_x(1.1), Vec3::new(-4.0, 0.5, 7.0));
        for f in 0..p.hull.faces().len() {
            let plane = p.face_plane(f);
            for v in p.world_vertices() {
                assert!(plane.signed_distance(v) <= 1e-5);
            }
        }
    }

    #[test]
    fn flat_box_is_an_error() {
        // A box with a zero half-extent has no volume.
        assert!(matches!(
            ConvexPolyhedron::cuboid(Vec3::new(1.0, 0.0, 1.0)),
            Err(HullError::Coplanar { .. })
        ));
    }

    #[test]
    fn support_is_farthest_world_vertex() {
        // Support along +x of a box moved to x = 5 with half-extent 1 is at x = 6.
        let p = ConvexPolyhedron::cuboid(Vec3::ONE)
            .unwrap()
            .with_pose(Quat::IDENTITY, Vec3::X * 5.0);
        assert_near!(p.support(Vec3::X).x, 6.0);
        assert_near!(p.support(-Vec3::X).x, 4.0);
    }
}
