//! Support mappings: the one query GJK and EPA ask of a convex shape.
//!
//! The support point of a convex set `S` in direction `d` is a point of `S` farthest along `d`:
//! `s(d) ∈ argmax_{x ∈ S} d·x` (Ericson, RTCD §9.5.1; van den Bergen 2003, §4.3.1). The
//! direction need not be normalised. When several points tie (a face or an edge facing `d`)
//! any of them is a correct answer; every implementation here documents which one it returns so
//! that results are deterministic. A zero direction makes every point of the shape a
//! maximiser; the implementations return a fixed point of the shape (named per shape). A NaN
//! direction or a shape with NaN coordinates gives NaN or an arbitrary point of the shape;
//! GJK checks every support point it receives and reports "no contact" for non-finite ones.
//!
//! Shapes with a rounded surface (sphere, capsule) also describe themselves as a *core* (a
//! point, a segment) swept by a ball of radius [`SupportMap::margin`]. GJK-based contact
//! generation runs on the cores and adds the radii back, which is exact for the rounded part
//! and avoids running EPA on a curved surface (the approach of Jolt's `ConvexShape` "convex
//! radius" and Bullet's margins).
//!
//! # Example
//!
//! ```rust
//! use collide::convex::{Posed, SupportMap};
//! use collide::shapes::Obb;
//! use collide::{Quat, Vec3};
//!
//! // The support point: the shape's farthest point in a direction.
//! let cube = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
//! assert_eq!(cube.support(Vec3::new(1.0, 2.0, -3.0)), Vec3::new(1.0, 1.0, -1.0));
//! // Any support mapping can be posed: the cube turned 45° about z and moved to x = 10
//! // reaches x = 10 + √2 with a corner.
//! let turned = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
//! let posed = Posed::new(cube, turned, Vec3::new(10.0, 0.0, 0.0));
//! assert!((posed.support(Vec3::X).x - (10.0 + 2.0_f32.sqrt())).abs() < 1e-5);
//! ```

use std::cell::Cell;

use super::hull::ConvexHull;
use crate::math::{Mat3, Quat, Vec3};
use crate::shapes::{Aabb, Capsule, Obb, Segment, Sphere, Triangle};

/// A convex shape that can report its farthest point in any direction.
///
/// Implement [`SupportMap::support`]; the other methods have correct defaults (no margin,
/// core = the whole shape).
pub trait SupportMap {
    /// A point of the shape farthest in direction `dir` (which need not be normalised).
    ///
    /// Ties (a face or edge facing `dir`) may return any of the tied points; a zero `dir`
    /// returns some point of the shape. Implementations must return a point of the shape
    /// (within rounding), never a point outside it, for finite input.
    fn support(&self, dir: Vec3) -> Vec3;

    /// Radius of the ball swept around the core ([`SupportMap::core_support`]); `0` for shapes
    /// with sharp corners. `support(d) = core_support(d) + margin() · d / |d|`.
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }

    /// Support point of the core shape (the shape shrunk by [`SupportMap::margin`]): the
    /// centre of a sphere, the axis segment of a capsule, the shape itself otherwise.
    #[inline]
    fn core_support(&self, dir: Vec3) -> Vec3 {
        self.support(dir)
    }

    /// [`SupportMap::core_support`] for one of a run of queries on the same shape (GJK's and
    /// EPA's iterations): `start` holds what the previous query of the run left there (`0`
    /// before the first), and the shape may use it to answer faster and leave its own. The
    /// answer is a support point of the core either way, with the same rules for ties and for
    /// zero and NaN directions (up to which of tied points); the default ignores `start`.
    /// Hulls of many vertices walk their vertex graph from the last support vertex.
    #[inline]
    fn core_support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        let _ = start;
        self.core_support(dir)
    }

    /// Some point inside (or on) the shape, used to pick GJK's first search direction.
    ///
    /// Defaults to the midpoint of the support points along `±x`, which is in the shape by
    /// convexity. Shapes override it with their centre.
    #[inline]
    fn interior_point(&self) -> Vec3 {
        (self.core_support(Vec3::X) + self.core_support(Vec3::NEG_X)) * 0.5
    }

    /// A ball `(centre, radius)` holding the shape, when the shape knows one without scanning
    /// its points (analytic shapes, hulls with their stored ball); `None` otherwise. Scales
    /// tolerances to a shape's size and position cheaply; it need not be the smallest ball.
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        None
    }

    /// The shape as an oriented box when it is exactly one (boxes, posed boxes, references to
    /// them), so that queries can take exact box paths (a mesh's shape cast); `None`, the
    /// default, for every other shape. An implementation must return the box with exactly
    /// this shape's support points; NaN stays NaN.
    ///
    /// ```
    /// use collide::convex::SupportMap;
    /// use collide::shapes::{Obb, Sphere};
    /// use collide::{Quat, Vec3};
    ///
    /// let b = Obb::new(Vec3::ZERO, Quat::from_rotation_y(0.3), Vec3::ONE);
    /// assert_eq!(b.as_obb(), Some(b));
    /// assert_eq!(Sphere::new(Vec3::ZERO, 1.0).as_obb(), None);
    /// ```
    #[inline]
    fn as_obb(&self) -> Option<Obb> {
        None
    }

    /// The shape as a sphere when it is exactly one (spheres, posed spheres, references to
    /// them), for exact sphere paths (a mesh's contacts); `None`, the default, otherwise. An
    /// implementation must return the sphere with exactly this shape's support points.
    ///
    /// ```
    /// use collide::convex::SupportMap;
    /// use collide::shapes::{Capsule, Sphere};
    /// use collide::Vec3;
    ///
    /// let s = Sphere::new(Vec3::X, 0.5);
    /// assert_eq!(s.as_sphere(), Some(s));
    /// assert_eq!(Capsule::new(Vec3::ZERO, Vec3::Y, 0.5).as_sphere(), None);
    /// ```
    #[inline]
    fn as_sphere(&self) -> Option<Sphere> {
        None
    }

    /// The shape as a convex hull placed by a rotation and a translation when it is exactly
    /// one (hulls, posed hulls, [`super::ConvexPolyhedron`], references to them), for exact
    /// hull paths (a mesh's contacts by separating axes); `None`, the default, otherwise. An
    /// implementation must return the hull and pose with exactly this shape's support points.
    ///
    /// ```
    /// use collide::convex::{ConvexHull, Posed, SupportMap};
    /// use collide::shapes::Sphere;
    /// use collide::{Quat, Vec3};
    ///
    /// let cube = ConvexHull::try_new(&[-Vec3::ONE, Vec3::ONE, Vec3::X, Vec3::Y, Vec3::Z,
    ///     Vec3::new(1.0, 1.0, -1.0), Vec3::new(1.0, -1.0, 1.0), Vec3::new(-1.0, 1.0, 1.0),
    ///     Vec3::new(-1.0, -1.0, 1.0), Vec3::new(-1.0, 1.0, -1.0), Vec3::new(1.0, -1.0, -1.0)])
    ///     .unwrap();
    /// let posed = Posed::new(&cube, Quat::IDENTITY, Vec3::new(5.0, 0.0, 0.0));
    /// let seen = posed.as_hull().unwrap();
    /// assert_eq!(seen.translation, Vec3::new(5.0, 0.0, 0.0));
    /// assert_eq!(seen.support(Vec3::X), posed.support(Vec3::X));
    /// assert!(Sphere::new(Vec3::ZERO, 1.0).as_hull().is_none());
    /// ```
    #[inline]
    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        None
    }
}

/// `d / |d|`, or zero when `d` is zero or not finite. Scales by the largest component first so
/// that directions of any magnitude (1e-30 or 1e30) normalise without underflow or overflow.
#[inline]
#[must_use]
pub(crate) fn unit_or_zero(d: Vec3) -> Vec3 {
    let m = d.abs().max_element();
    // NaN or infinite components, or a zero vector: no direction.
    if !m.is_finite() || m <= 0.0 {
        return Vec3::ZERO;
    }
    let s = d / m;
    s / s.length()
}

/// The end of `a`–`b` farther along `dir` (ties: `a`); NaN when `(b − a)·dir` is NaN.
///
/// NaN in, NaN out: the plain `if (b − a)·dir > 0 { b } else { a }` returns the finite `a`
/// for a NaN `b`, so GJK would see only finite support points and report a segment or capsule
/// with a NaN end as touching, against the crate-wide NaN rule.
#[inline]
fn segment_support(a: Vec3, b: Vec3, dir: Vec3) -> Vec3 {
    let s = (b - a).dot(dir);
    if s > 0.0 {
        b
    } else if s <= 0.0 {
        a
    } else {
        Vec3::NAN
    }
}

/// Per-axis choice `d_i >= 0 ? hi_i : lo_i` (ties choose `hi`).
#[inline]
fn select_ge0(d: Vec3, lo: Vec3, hi: Vec3) -> Vec3 {
    Vec3::select(d.cmpge(Vec3::ZERO), hi, lo)
}

/// A shape seen through a reference supports like the shape: lets `Posed<&S>` move a borrowed
/// shape without copying it.
impl<T: SupportMap + ?Sized> SupportMap for &T {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        (**self).support(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }
    #[inline]
    fn core_support(&self, dir: Vec3) -> Vec3 {
        (**self).core_support(dir)
    }
    #[inline]
    fn core_support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        (**self).core_support_from(dir, start)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        (**self).interior_point()
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        (**self).bounding_ball()
    }
    #[inline]
    fn as_obb(&self) -> Option<Obb> {
        (**self).as_obb()
    }
    #[inline]
    fn as_sphere(&self) -> Option<Sphere> {
        (**self).as_sphere()
    }
    #[inline]
    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        (**self).as_hull()
    }
}

/// A single point is the degenerate convex set `{p}`: every direction returns `p`.
impl SupportMap for Vec3 {
    #[inline]
    fn support(&self, _dir: Vec3) -> Vec3 {
        *self
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        *self
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        Some((*self, 0.0))
    }
}

/// `center + radius · dir/|dir|`; a zero direction returns the centre (the core point).
impl SupportMap for Sphere {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.center + self.radius * unit_or_zero(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }
    #[inline]
    fn core_support(&self, _dir: Vec3) -> Vec3 {
        self.center
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.center
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        Some((self.center, self.radius))
    }
    #[inline]
    fn as_sphere(&self) -> Option<Sphere> {
        Some(*self)
    }
}

/// The corner chosen per axis by the sign of `dir`; ties (`dir_i = 0`) choose `max_i`, so a
/// zero direction returns `max`. An empty box ([`Aabb::EMPTY`]) returns infinite coordinates,
/// and a NaN corner returns NaN, which GJK reports as "no contact".
impl SupportMap for Aabb {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        // A NaN in the corner not selected would never be seen, and `Aabb::new` keeps a NaN in
        // `max` when `min` is finite.
        if self.min.is_nan() || self.max.is_nan() {
            return Vec3::NAN;
        }
        select_ge0(dir, self.min, self.max)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.center()
    }
}

/// The corner `center + Σ sign(dir·axis_i) e_i axis_i`; ties choose the `+` side, so a zero
/// direction returns the `+ + +` corner.
impl SupportMap for Obb {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        // Local direction: components of `dir` along the box axes (axesᵀ · dir).
        let local = self.axes.transpose() * dir;
        let e = self.half_extents;
        self.center + self.axes * select_ge0(local, -e, e)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.center
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        Some((self.center, self.half_extents.length()))
    }
    #[inline]
    fn as_obb(&self) -> Option<Obb> {
        Some(*self)
    }
}

/// The end point farther along `dir`; a tie (segment perpendicular to `dir`, or zero `dir`)
/// returns `a`. A NaN end point gives NaN ("no contact").
impl SupportMap for Segment {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        segment_support(self.a, self.b, dir)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.midpoint()
    }
}

/// The farther cap centre plus `radius · dir/|dir|`; ties return the `a` cap, and a zero
/// direction returns `a` itself (a point of the core segment). A NaN cap centre gives NaN.
impl SupportMap for Capsule {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.core_support(dir) + self.radius * unit_or_zero(dir)
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }
    #[inline]
    fn core_support(&self, dir: Vec3) -> Vec3 {
        segment_support(self.a, self.b, dir)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        (self.a + self.b) * 0.5
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        Some((
            (self.a + self.b) * 0.5,
            (self.b - self.a).length() * 0.5 + self.radius,
        ))
    }
}

/// The corner farthest along `dir`; ties return the first of `a`, `b`, `c` among the tied, so
/// a zero direction returns `a`. Degenerate triangles are the segment or point they are. A NaN
/// corner gives NaN ("no contact").
impl SupportMap for Triangle {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        let (da, db, dc) = (self.a.dot(dir), self.b.dot(dir), self.c.dot(dir));
        // A NaN corner has a NaN dot, which loses every comparison below, so GJK would see
        // only the finite corners and could report contact.
        if (da + db + dc).is_nan() {
            return Vec3::NAN;
        }
        if da >= db && da >= dc {
            self.a
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.centroid()
    }
}

/// The convex hull of a point cloud: the point with the largest `dir·p`, the first of the
/// tied ones (so a zero direction returns the first point). An empty slice, or a NaN point
/// anywhere in it, returns NaN, which every GJK query reports as "no contact". Cost: one pass
/// over the points, without a branch per point.
impl SupportMap for [Vec3] {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        match cloud_support_index(self, dir) {
            Some(i) => self[i],
            None => Vec3::NAN,
        }
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.first().copied().unwrap_or(Vec3::NAN)
    }
}

/// The index of the point of `points` farthest along `dir`, the first of the tied ones (the
/// first point when every `dir·p` is `-inf`); `None` for no points or a NaN `dir·p` anywhere
/// (a NaN point or direction). Four running maxima, point `i` going to `i mod 4`, so that each
/// step waits on the step four points back rather than the one before; each keeps its first
/// maximum (a strict `>`), and the merge takes the largest, the lowest index among equal ones.
/// NaN is gathered on the side instead of leaving the loop: one pass without a branch per
/// point.
#[inline]
fn cloud_support_index(points: &[Vec3], dir: Vec3) -> Option<usize> {
    let mut best = [(f32::NEG_INFINITY, 0usize); 4];
    let mut nan = false;
    let mut chunks = points.chunks_exact(4);
    let mut at = 0;
    for chunk in &mut chunks {
        for (lane, p) in chunk.iter().enumerate() {
            let d = p.dot(dir);
            nan |= d.is_nan();
            let (best_d, best_i) = &mut best[lane];
            let better = d > *best_d;
            *best_d = if better { d } else { *best_d };
            *best_i = if better { at + lane } else { *best_i };
        }
        at += 4;
    }
    for (lane, p) in chunks.remainder().iter().enumerate() {
        let d = p.dot(dir);
        nan |= d.is_nan();
        if d > best[lane].0 {
            best[lane] = (d, at + lane);
        }
    }
    if nan || points.is_empty() {
        return None;
    }
    let (mut best_d, mut best_i) = best[0];
    for &(d, i) in &best[1..] {
        if d > best_d || (d == best_d && i < best_i) {
            (best_d, best_i) = (d, i);
        }
    }
    // Every dot `-inf`: no lane moved off its start, and the first point stands for the set.
    Some(if best_d == f32::NEG_INFINITY {
        0
    } else {
        best_i
    })
}

/// Same as the slice: the hull of the points.
impl SupportMap for Vec<Vec3> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.as_slice().support(dir)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.as_slice().interior_point()
    }
}

/// A borrowed point cloud seen as its convex hull (a named wrapper for `&[Vec3]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvexPoints<'a>(pub &'a [Vec3]);

impl SupportMap for ConvexPoints<'_> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.0.support(dir)
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.0.interior_point()
    }
}

/// A shape given in its local frame, placed in the world by a rotation and a translation.
///
/// World point = `rotation · local + translation`. The support of the moved shape is
/// `R · s(Rᵀ · d) + t`, so the shape is never copied or re-transformed (van den Bergen 2003,
/// §4.3.2). `rotation` must be orthonormal (a rotation, as built by [`Posed::new`]); a scaled
/// matrix still gives correct support points but the shape's [`SupportMap::margin`] would no
/// longer be a radius. A zero or NaN quaternion gives NaN support points: "no contact".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Posed<S> {
    /// The shape in its local frame.
    pub shape: S,
    /// Local-to-world rotation (orthonormal columns).
    pub rotation: Mat3,
    /// Local-to-world translation.
    pub translation: Vec3,
}

impl<S> Posed<S> {
    /// The shape rotated by `rotation` (normalised here) then moved by `translation`.
    #[inline]
    #[must_use]
    pub fn new(shape: S, rotation: Quat, translation: Vec3) -> Posed<S> {
        // Normalised in `f64` (`math::unit_quat`), as boxes and polyhedra are: tiny or huge
        // quaternions stay accurate.
        let rotation = crate::math::rotation_matrix(rotation);
        Posed {
            shape,
            rotation,
            translation,
        }
    }

    /// The shape moved by `translation` only.
    #[inline]
    #[must_use]
    pub fn translated(shape: S, translation: Vec3) -> Posed<S> {
        Posed {
            shape,
            rotation: Mat3::IDENTITY,
            translation,
        }
    }

    /// Local point → world point.
    #[inline]
    #[must_use]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }
}

/// `R · s(Rᵀ d) + t`, with the wrapped shape's tie and zero-direction rules in its local frame.
impl<S: SupportMap> SupportMap for Posed<S> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.to_world(self.shape.support(self.rotation.transpose() * dir))
    }
    #[inline]
    fn margin(&self) -> f32 {
        self.shape.margin()
    }
    #[inline]
    fn core_support(&self, dir: Vec3) -> Vec3 {
        self.to_world(self.shape.core_support(self.rotation.transpose() * dir))
    }
    #[inline]
    fn core_support_from(&self, dir: Vec3, start: &Cell<u32>) -> Vec3 {
        self.to_world(
            self.shape
                .core_support_from(self.rotation.transpose() * dir, start),
        )
    }
    #[inline]
    fn interior_point(&self) -> Vec3 {
        self.to_world(self.shape.interior_point())
    }
    #[inline]
    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        self.shape
            .bounding_ball()
            .map(|(c, r)| (self.to_world(c), r))
    }
    /// The wrapped box turned and moved: centre to the world, axes rotated.
    #[inline]
    fn as_obb(&self) -> Option<Obb> {
        self.shape.as_obb().map(|o| Obb {
            center: self.to_world(o.center),
            axes: self.rotation * o.axes,
            half_extents: o.half_extents,
        })
    }
    /// The wrapped sphere moved: its centre to the world.
    #[inline]
    fn as_sphere(&self) -> Option<Sphere> {
        self.shape.as_sphere().map(|b| Sphere {
            center: self.to_world(b.center),
            radius: b.radius,
        })
    }
    /// The wrapped hull with the poses composed: local to the wrapped hull's frame, then to
    /// this one's.
    #[inline]
    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        self.shape.as_hull().map(|inner| Posed {
            shape: inner.shape,
            rotation: self.rotation * inner.rotation,
            translation: self.to_world(inner.translation),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    /// The support point's index as a plain scan finds it: the first of the largest `dir·p`,
    /// `None` for no points or a NaN dot anywhere, the first point when every dot is `-inf`.
    fn first_farthest(points: &[Vec3], dir: Vec3) -> Option<usize> {
        let dots: Vec<f32> = points.iter().map(|p| p.dot(dir)).collect();
        if points.is_empty() || dots.iter().any(|d| d.is_nan()) {
            return None;
        }
        let top = dots.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        dots.iter().position(|&d| d == top)
    }

    #[test]
    fn cloud_support_is_the_first_farthest_point() {
        // Coordinates from a few values, so that ties are common; sizes around the lanes.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut pick = |k: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % k
        };
        let values = [
            -1.0,
            0.0,
            0.5,
            1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for case in 0..20_000 {
            let n = pick(11) as usize;
            // NaN and infinities in a tenth of the cases.
            let range = if case % 10 == 0 { 7 } else { 4 };
            let mut value = || values[pick(range) as usize];
            let points: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(value(), value(), value()))
                .collect();
            let dir = Vec3::new(value(), value(), value());
            let want = first_farthest(&points, dir);
            assert_eq!(
                cloud_support_index(&points, dir),
                want,
                "{points:?} along {dir}"
            );
            let got = points.support(dir);
            match want {
                Some(i) => assert_eq!(
                    got.to_array().map(f32::to_bits),
                    points[i].to_array().map(f32::to_bits)
                ),
                None => assert!(got.is_nan()),
            }
        }
    }

    #[test]
    fn a_tiny_quaternion_still_gives_an_orthonormal_pose() {
        // Regression (fuzz, mesh target): components near 2.6e-22 have a subnormal squared
        // length in f32; normalised from it, the matrix's columns were off unit by 1%, and a
        // hull cast's normal with them.
        let q = Quat::from_xyzw(
            -2.574_315_7e-22,
            -2.574_288e-22,
            -2.574_315_7e-22,
            -2.574_287e-22,
        );
        let r = Posed::new(Sphere::new(Vec3::ZERO, 1.0), q, Vec3::ZERO).rotation;
        for (a, b) in [
            (r.x_axis, r.y_axis),
            (r.y_axis, r.z_axis),
            (r.z_axis, r.x_axis),
        ] {
            assert!((a.length() - 1.0).abs() < 1e-6, "{r:?}");
            assert!(a.dot(b).abs() < 1e-6, "{r:?}");
        }
    }

    // Brute-force check: the support point maximises `d·x` over the listed extreme points.
    fn assert_is_max(s: Vec3, pts: &[Vec3], d: Vec3) {
        let best = pts
            .iter()
            .map(|p| p.dot(d))
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(
            (s.dot(d) - best).abs() <= 1e-5 * (1.0 + best.abs()),
            "{s} not a maximiser"
        );
    }

    #[test]
    fn sphere_support_any_scale_of_direction() {
        // Scenario: the direction's length (tiny, huge) must not change the answer.
        let s = Sphere::new(Vec3::new(1.0, 2.0, 3.0), 2.0);
        for k in [1e-30_f32, 1e-3, 1.0, 1e30] {
            assert_near!(s.support(Vec3::new(0.0, k, 0.0)), Vec3::new(1.0, 4.0, 3.0));
        }
        assert_eq!(s.support(Vec3::ZERO), s.center);
    }

    #[test]
    fn box_supports_are_corners() {
        // Scenario: AABB and OBB support points are the corners maximising d·x.
        let a = Aabb::new(Vec3::new(-1.0, 0.0, 2.0), Vec3::new(3.0, 0.5, 2.5));
        let o = Obb::new(
            Vec3::ONE,
            Quat::from_rotation_z(0.6),
            Vec3::new(1.0, 2.0, 0.5),
        );
        for d in [
            Vec3::X,
            Vec3::new(-1.0, 2.0, -0.3),
            Vec3::new(0.1, -0.1, 5.0),
        ] {
            assert_is_max(a.support(d), &a.corners(), d);
            assert_is_max(o.support(d), &o.corners(), d);
        }
        assert_eq!(a.support(Vec3::ZERO), a.max);
    }

    #[test]
    fn capsule_segment_triangle_points() {
        // Scenario: support of rounded and flat shapes against their defining points.
        let c = Capsule::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
        assert_near!(c.support(Vec3::Y), Vec3::new(0.0, 2.5, 0.0));
        assert_near!(c.support(Vec3::NEG_X), Vec3::new(-0.5, 0.0, 0.0));
        let s = Segment::new(Vec3::ZERO, Vec3::X);
        assert_eq!(s.support(Vec3::Y), s.a, "tie returns a");
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
        assert_eq!(
            t.support(Vec3::new(1.0, 1.0, 0.0)),
            t.b,
            "tie returns the first"
        );
        let pts = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        assert_eq!(pts[..].support(Vec3::new(0.0, 0.2, 1.0)), Vec3::Z);
        let empty: &[Vec3] = &[];
        assert!(empty.support(Vec3::X).is_nan());
    }

    #[test]
    fn posed_matches_moved_shape() {
        // Scenario: a posed local box supports like the equivalent world OBB.
        let q = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0);
        let t = Vec3::new(5.0, -3.0, 1.0);
        let e = Vec3::new(1.0, 0.5, 2.0);
        let posed = Posed::new(Aabb::from_center_half_extents(Vec3::ZERO, e), q, t);
        let world = Obb::new(t, q, e);
        for d in [
            Vec3::X,
            Vec3::new(-1.0, 2.0, -0.3),
            Vec3::new(0.1, -0.1, 5.0),
        ] {
            assert_is_max(posed.support(d), &world.corners(), d);
        }
        assert!(
            Posed::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO)
                .support(Vec3::X)
                .is_nan()
        );
    }

    #[test]
    fn unit_or_zero_extremes() {
        // Scenario: normalising extreme and invalid directions.
        assert_near!(unit_or_zero(Vec3::new(1e-38, 0.0, 0.0)), Vec3::X);
        assert_near!(unit_or_zero(Vec3::new(3e38, 3e38, 0.0)).length(), 1.0);
        assert_eq!(unit_or_zero(Vec3::NAN), Vec3::ZERO);
        assert_eq!(unit_or_zero(Vec3::new(f32::INFINITY, 0.0, 0.0)), Vec3::ZERO);
    }
}

/// Support of a [`ConvexHull`] by hill climbing on its vertex graph (the SAT's face phase and
/// its per-pair cache use the walk and its reach).
impl ConvexHull {
    /// Index of a vertex maximising `dir · v`, by hill climbing on the vertex graph from
    /// `start` (vertex 0 when `start` is out of range).
    ///
    /// Each step moves to the neighbour with the largest `dir · v` if it is strictly larger
    /// than the current one, so the walk ends. On a convex polytope whose vertices are all
    /// corners, `dir · x` has no local maximum on the vertex graph other than the global one
    /// (the edges at a corner span its tangent cone, so a corner that is not a maximiser has a
    /// strictly better neighbour). Hull vertices are input points kept within the tolerance,
    /// so a vertex can sit in the middle of a (nearly) straight edge chain: its edges then miss
    /// the direction into the flat face, and the walk can stop there well below the maximum
    /// (4.4e-4 short on a teddy piece in `tests/convex/sat_hill_climb.rs`). So when the walk
    /// stops with a neighbour within `8 · tolerance · |dir|` of the current value (a plateau
    /// or near-plateau), the answer is taken from a scan over all vertices instead.
    /// The result is then exact up to the hull's own convexity tolerance. A NaN direction
    /// stops at `start` (no comparison is true). Lander 1999 (walking the cached vertex);
    /// Ericson, RTCD §9.5.2 (hill climbing).
    #[must_use]
    pub fn support_hill_climb(&self, dir: Vec3, start: u32) -> u32 {
        self.support_climb(dir, start).0
    }

    /// [`ConvexHull::support_hill_climb`] returning the maximising vertex and `dir · v` there
    /// (NaN for a NaN direction).
    ///
    /// One pass per step: the last step's neighbour values also decide the near-plateau test,
    /// so a walk that starts at the maximiser (the warm case) reads each neighbour once.
    #[inline]
    pub(crate) fn support_climb(&self, dir: Vec3, start: u32) -> (u32, f32) {
        let verts = &self.vertices[..];
        let mut cur = if (start as usize) < verts.len() {
            start
        } else {
            0
        };
        let Some(&v0) = verts.get(cur as usize) else {
            return (0, f32::NAN);
        };
        let mut best = dir.dot(v0);
        // Every step strictly increases `best`, so no vertex is visited twice; the bound only
        // documents that.
        for _ in 0..verts.len() {
            let mut next = cur;
            // Largest neighbour value; on the last step (no better neighbour) it is the
            // runner-up the near-plateau test needs.
            let mut runner_up = f32::NEG_INFINITY;
            for &n in self.neighbours(cur as usize) {
                let h = verts.get(n as usize).map_or(f32::NAN, |v| dir.dot(*v));
                if h > best {
                    best = h;
                    next = n;
                }
                // (A plain comparison: cheaper than `f32::max`'s NaN rules; a NaN never wins.)
                if h > runner_up {
                    runner_up = h;
                }
            }
            if next != cur {
                cur = next;
                continue;
            }
            // Stopped. Near-plateau: a redundant (collinear or coplanar) vertex may hide a
            // better one; settle it by the brute-force maximum.
            let slack = 8.0 * self.tolerance * dir.length();
            if runner_up >= best - slack {
                // The clustered scan's maximum is the loop's over every vertex (the same
                // `dir · v` per vertex); the walk's vertex stays when it ties.
                let k = self.support_index(dir);
                let h = verts.get(k).map_or(f32::NAN, |v| dir.dot(*v));
                if h > best {
                    best = h;
                    cur = k as u32;
                }
            }
            break;
        }
        (cur, best)
    }

    /// How far a query direction may move from `dir` with vertex `v` (which maximises `dir · x`
    /// with value `best`, as [`ConvexHull::support_climb`] returned them) still the clean
    /// answer of the walk: `v` stays the maximiser for every `dir'` with `|dir' − dir| <`
    /// the returned reach. `0` when there is no such margin (a near-tie, a NaN direction).
    ///
    /// Derivation: for a neighbour `u` at distance `L = |v − u|` with computed gap
    /// `g = best − dir · u`, `dir' · (v − u) >= dir · (v − u) − |dir' − dir| L`. The walk at
    /// `dir'` stops at `v` without its near-plateau scan when every computed gap exceeds its
    /// slack `8 τ |dir'|` (τ the hull's tolerance). Each `f32` dot product is within `τ |d|`
    /// of the real one (τ is `3 ε` times the sum of the coordinate magnitudes), so with
    /// `δ = |dir' − dir|` it suffices that `g − 2 τ |dir| − δ L > 10 τ (|dir| + δ)`; with
    /// room for the rounding of the slack and of this formula, `δ < (g − 16 τ |dir|) /
    /// (L + 12 τ)`, and the minimum over the neighbours, shrunk by 1%, is the reach. On a convex hull a vertex with no
    /// better neighbour is the maximiser (see [`ConvexHull::support_hill_climb`]), so `v` is
    /// what the walk returns, from any start, for every direction within the reach.
    #[must_use]
    pub(crate) fn support_reach(&self, dir: Vec3, v: u32, best: f32) -> f32 {
        let Some(&pv) = self.vertices.get(v as usize) else {
            return 0.0;
        };
        let tau = self.tolerance;
        let len = dir.length();
        let mut reach = f32::INFINITY;
        for &n in self.neighbours(v as usize) {
            let Some(&u) = self.vertices.get(n as usize) else {
                return 0.0;
            };
            let r = (best - dir.dot(u) - 16.0 * tau * len) / ((pv - u).length() + 12.0 * tau);
            // Also a NaN (NaN direction or overflow): no margin.
            if r.is_nan() || r <= 0.0 {
                return 0.0;
            }
            reach = reach.min(r);
        }
        if reach.is_finite() {
            0.99 * reach
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod hull_climb_tests {
    use super::*;
    use crate::convex::hull::tests::fibonacci_sphere;

    #[test]
    fn support_reach_keeps_the_maximiser() {
        // Directions within the reach of a walk's answer have that vertex as their brute-force
        // maximiser, and a walk from anywhere returns its value.
        let mut g = collide_testkit::Gen::new(0x7e4c);
        for hull in [
            ConvexHull::try_new(&fibonacci_sphere(300, Vec3::ONE)).unwrap(),
            ConvexHull::try_new(&fibonacci_sphere(60, Vec3::new(3.0, 0.2, 1.0))).unwrap(),
        ] {
            let verts = hull.vertices();
            let mut with_reach = 0;
            for _ in 0..400 {
                let dir = g.unit();
                let (v, h) = hull.support_climb(dir, 0);
                let reach = hull.support_reach(dir, v, h);
                assert!(reach >= 0.0 && reach.is_finite());
                if reach == 0.0 {
                    continue;
                }
                with_reach += 1;
                for _ in 0..8 {
                    // A perturbation just inside the reach.
                    let d2 = dir + g.unit() * reach * g.range(0.5, 0.999);
                    let at_v = d2.dot(verts[v as usize]);
                    let brute = verts.iter().map(|p| d2.dot(*p)).fold(f32::MIN, f32::max);
                    assert_eq!(at_v, brute, "dir {dir} reach {reach}");
                    let start = g.range(0.0, verts.len() as f32 - 1.0) as u32;
                    assert_eq!(hull.support_climb(d2, start).1, at_v);
                }
            }
            assert!(
                with_reach > 300,
                "{with_reach} of 400 directions had a reach"
            );
        }
        // No direction, no reach.
        let hull = ConvexHull::try_new(&fibonacci_sphere(30, Vec3::ONE)).unwrap();
        assert_eq!(hull.support_reach(Vec3::NAN, 0, f32::NAN), 0.0);
        assert_eq!(hull.support_reach(Vec3::X, 999, 1.0), 0.0);
    }
}
