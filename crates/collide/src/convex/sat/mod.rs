//! The separating-axis test between two convex polyhedra, with a per-pair cache.
//!
//! Lander (1999): two convex objects are apart exactly when a plane separates them, and the
//! candidates are the face planes of each and planes built from an edge of each (ERRATA
//! Lander 3: the complete set is the face normals of A and of B plus the cross products of
//! one edge of each). Only edge pairs whose Gauss-map arcs cross form a face of the Minkowski
//! difference and can give a separating or minimum-translation axis; the others are skipped
//! (D. Gregorius, *The Separating Axis Test between Convex Polyhedra*, GDC 2013; as there, an
//! arc's great circle is the plane perpendicular to its edge, which stays exact on the rim of
//! a thin plate where the cross product of the two face normals does not). The
//! feature that separated last frame is tried first (ERRATA Lander 4): most frames it still
//! separates. Projections onto an axis are support queries answered by hill climbing on each
//! hull's vertex graph from the vertex that supported the previous query (kept in the
//! [`SepCache`]), so a cached check is usually a few steps of walking, not a pass over every
//! vertex (Lander's "walk from the last closest vertex"; tiny hulls use a plain loop). The
//! cached check also keeps, per hull, how far the query direction may turn before its support
//! vertex can change (`ConvexHull::support_reach`); on a slow pass the direction stays
//! within that reach for many frames and the support value is a single dot product.
//!
//! The cached check evaluates the cached feature with exactly the float operations the full
//! search uses for that feature, so for the same poses a feature separates in one exactly when
//! it separates in the other: `sat_cached` and `sat` never disagree on a verdict for the same
//! input (at 1e9+ coordinates, two formulas for a face of B's gap would disagree).
//!
//! All work is done in A's local frame (B's pose relative to A), which keeps round-off relative
//! to A's size, as Box2D and parry do.
//!
//! # Example
//!
//! ```rust
//! use collide::convex::sat::{sat, sat_cached, SatResult, SepCache};
//! use collide::convex::ConvexPolyhedron;
//! use collide::{Quat, Vec3};
//!
//! let a = ConvexPolyhedron::cuboid(Vec3::ONE)?;
//! let turn = Quat::from_rotation_y(0.3);
//! // Apart: a separating plane with its normal from A toward B.
//! let b = a.with_pose(turn, Vec3::new(3.0, 0.0, 0.0));
//! let SatResult::Separated { plane, distance } = sat(&a, &b) else {
//!     panic!("the boxes are 0.75 apart");
//! };
//! assert!(distance > 0.0 && plane.normal.x > 0.9);
//! // B creeping toward A over ten frames: after the first search the cached feature answers.
//! let mut cache = SepCache::default();
//! for frame in 0..10 {
//!     let b = a.with_pose(turn, Vec3::new(3.0 - 0.01 * frame as f32, 0.0, 0.0));
//!     assert!(!sat_cached(&a, &b, &mut cache).is_penetrating());
//! }
//! assert!(cache.hit_rate() >= 0.9);
//! # Ok::<(), collide::convex::HullError>(())
//! ```

use std::ops::ControlFlow;

use super::gauss_map::{GaussArc, GAUSS_CHUNK};
use super::hull::ConvexHull;
use super::polyhedron::ConvexPolyhedron;
use crate::math::{Mat3A, Vec3, Vec3A};
use crate::shapes::Plane;
use glam::{DVec3, Vec4};
use search::full_search;
use support::{support_value, support_value_cone};

mod penetrating;
mod search;
mod support;
#[cfg(test)]
mod tests;

/// Answer of [`sat`] / [`sat_cached`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SatResult {
    /// A plane separates the shapes by a positive gap.
    Separated {
        /// World plane with unit normal pointing from A toward B, halfway across the gap: A is
        /// at signed distance `<= -distance / 2`, B at `>= distance / 2`.
        plane: Plane,
        /// Width of the gap along the plane's normal, `> 0`. The search stops at the first
        /// separating axis (cached feature, faces of A, faces of B, edge pairs), so this is a
        /// lower bound of the true distance, not the distance; use GJK for that. NaN or
        /// infinite poses (or translations more than `f32::MAX` apart) give `INFINITY` and a
        /// NaN plane ("no contact").
        distance: f32,
    },
    /// No separating plane: the shapes touch or overlap.
    Penetrating {
        /// World unit normal pointing from A toward B: moving B by `depth · normal` leaves
        /// the shapes touching (the minimum translation).
        normal: Vec3,
        /// Penetration depth `>= 0`; exactly touching shapes give `0` (touching counts as
        /// overlapping).
        depth: f32,
    },
}

impl SatResult {
    /// `true` for [`SatResult::Penetrating`] (touching included).
    #[inline]
    #[must_use]
    pub fn is_penetrating(&self) -> bool {
        matches!(self, SatResult::Penetrating { .. })
    }
}

/// The feature whose plane (or axis) decided the last query of a pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SepFeature {
    /// Nothing cached yet.
    #[default]
    None,
    /// Face `i` of A.
    FaceA(u32),
    /// Face `i` of B.
    FaceB(u32),
    /// Edge `i` of A and edge `j` of B (the axis is their cross product).
    Edges(u32, u32),
}

/// Per-pair cache of [`sat_cached`]: the feature that separated (or best separated) last time,
/// and hit/miss counters.
///
/// Zero-initialise it (`SepCache::default()`) and pass the same cache for the same ordered pair
/// every frame. A hit is a query answered by the cached feature alone; a stale cache (other
/// shapes, indices out of range) only costs a miss, never a wrong answer (what it knows about
/// a hull's support vertices is tied to the hull's identity, which clones share).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SepCache {
    /// The feature tried first next time.
    pub feature: SepFeature,
    /// Queries answered by the cached feature.
    pub hits: u64,
    /// Queries that needed the full search.
    pub misses: u64,
    /// Vertex of A that last supported a query axis: the start of the next hill climb.
    pub support_a: u32,
    /// Vertex of B that last supported a query axis (either sign).
    pub support_b: u32,
    /// Where A's cached support vertex is known to stay the maximiser.
    cone_a: SupportCone,
    /// Where B's cached support vertex is known to stay the maximiser.
    cone_b: SupportCone,
}

/// What the cached check's last support query on one hull learned: vertex `vertex` of the
/// hull with identity `hull` maximises `d · x` for every direction `d` with
/// `|d − dir| < reach` ([`ConvexHull::support_reach`]). Moving slowly, the next frame's
/// direction is usually inside, and the support value is then one dot product.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SupportCone {
    hull: u64,
    vertex: u32,
    dir: Vec3,
    reach: f32,
}

/// The stored floats are always finite (a query without a margin stores zeros), so equality
/// is reflexive.
impl Eq for SupportCone {}

impl SepCache {
    /// `hits / (hits + misses)`, `0` before the first query.
    #[must_use]
    pub fn hit_rate(&self) -> f64 {
        let n = self.hits + self.misses;
        if n == 0 {
            0.0
        } else {
            self.hits as f64 / n as f64
        }
    }
}

/// Everything one query learned: the answer, the deciding feature and the best of each kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SatDetail {
    pub result: SatResult,
    pub feature: SepFeature,
    /// Best separation over A's faces and its face (`NEG_INFINITY` when not searched).
    pub face_a: (f32, u32),
    /// Best separation over B's faces and its face.
    pub face_b: (f32, u32),
    /// Best separation over Minkowski edge pairs, the edges, and the axis in A's frame. From
    /// the overlap fast path: EPA's least overlap and axis, with edges `u32::MAX`.
    pub edge: (f32, u32, u32, Vec3),
    /// From the overlap fast path: EPA's deepest points of A and of B (world), which stand in
    /// for the edge pair's closest points.
    pub witness: Option<(Vec3, Vec3)>,
}

/// Separating-axis test of two convex polyhedra, full search.
///
/// `Separated` with a separating plane when one exists (the first found: faces of A, faces of
/// B, then edge pairs), else `Penetrating` with the minimum-translation normal and depth over
/// all candidate axes. Hulls that clearly overlap (GJK proves it and the depth is above 1e-4
/// of their size) get that minimum from EPA instead of from every axis: within EPA's relative
/// tolerance (1e-6) of it, or a face's exact overlap where that is smaller. Touching (gap exactly 0) is `Penetrating` with depth 0. NaN or infinite
/// poses give `Separated` with `distance = INFINITY` and a NaN plane ("no contact"), and so do
/// finite poses whose translations are more than `f32::MAX` apart (beyond `f32`; shapes that
/// large could in fact touch there, which no `f32` computation can tell). Lander 1999; Gregorius 2013; Ericson, RTCD §5.5.
#[must_use]
pub fn sat(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> SatResult {
    sat_cached(a, b, &mut SepCache::default())
}

/// [`sat`], trying the cached feature first and updating the cache (same answer up to which
/// separating plane is reported).
///
/// A hit costs B's pose relative to A and one support query (a face of A or of B: one hill
/// climb from the vertex that supported last time; an edge pair: one on each shape). The
/// cached feature is evaluated with exactly the expression the full search uses for it, so
/// for the same poses a hit is an axis the full search also finds separating.
#[must_use]
pub fn sat_cached(a: &ConvexPolyhedron, b: &ConvexPolyhedron, cache: &mut SepCache) -> SatResult {
    let Some(rel) = Relative::new(a, b) else {
        return SatDetail::NO_CONTACT.result;
    };
    if let Some(result) = cached_check(a, b, &rel, cache) {
        cache.hits += 1;
        return result;
    }
    cache.misses += 1;
    full_search(a, b, &rel, cache).result
}

/// B's pose in A's frame, `x_A = r x_B + t`, shared by the cached check and the full search
/// so that both compute every candidate axis's separation with the same float operations
/// (the same feature gives the same value, hence the same verdict, in both).
struct Relative {
    /// `R_Aᵀ R_B`.
    r: Mat3A,
    /// `rᵀ`, for directions from A's frame into B's.
    rt: Mat3A,
    /// `R_Aᵀ (t_B − t_A)`.
    t: Vec3,
}

impl Relative {
    /// `None` when either pose is not finite, or when B's position relative to A is beyond
    /// `f32` (translations more than `f32::MAX` apart: no gap or depth along any axis is
    /// representable then).
    #[inline]
    fn new(a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> Option<Relative> {
        if !pose_is_finite(a) || !pose_is_finite(b) {
            return None;
        }
        let ra_t = Mat3A::from(a.rotation).transpose();
        let r = ra_t * Mat3A::from(b.rotation);
        let t = ra_t * (b.translation - a.translation);
        // Translations 2e38 and 3.4e38 apart overflow `t` to infinity, every gap becomes −inf
        // or NaN, and the answer would be `Penetrating` with a zero normal and an infinite
        // depth.
        if Vec3A::from(t * 0.0) != Vec3A::ZERO {
            return None;
        }
        Some(Relative {
            r,
            rt: r.transpose(),
            t,
        })
    }

    /// Gap of B over the face plane `(n, d)` of A, with B's vertices `R v + t`:
    /// `min_v n · (R v + t) + d = min_v (Rᵀ n) · v + n · t + d = −max_v (−Rᵀ n) · v + n · t + d`.
    ///
    /// `support_b(d)` is `max_v d · v` over B's local vertices.
    #[inline]
    fn face_a_gap(&self, n: Vec3, d: f32, support_b: impl FnOnce(Vec3) -> f32) -> f32 {
        let dir = self.rt * n;
        -support_b(-dir) + n.dot(self.t) + d
    }

    /// Gap of A under the face plane `(n_B, d_B)` of B, in B's frame: `x_B = Rᵀ (x_A − t)`, so
    /// `n_B · x_B + d_B = n · x_A − n · t + d_B` with `n = R n_B`, and the gap is
    /// `min_A n · x − n · t + d_B`. Returns the gap, `n` and `m = min_A n · x`.
    ///
    /// `support_a(d)` is `max_v d · v` over A's vertices.
    #[inline]
    fn face_b_gap(
        &self,
        nb: Vec3,
        db: f32,
        support_a: impl FnOnce(Vec3) -> f32,
    ) -> (f32, Vec3, f32) {
        let n = self.r * nb;
        // min over A of n · x = −max over A of (−n) · x.
        let m = -support_a(-n);
        (m - n.dot(self.t) + db, n, m)
    }

    /// `(max over A of axis · x, min over B of axis · x)` with A's vertices local and B's as
    /// `R v + t`, from the support functions of A and B (local vertices).
    #[inline]
    fn projections(
        &self,
        axis: Vec3,
        support_a: impl FnOnce(Vec3) -> f32,
        support_b: impl FnOnce(Vec3) -> f32,
    ) -> (f32, f32) {
        let max_a = support_a(axis);
        let dir = self.rt * axis;
        let min_b = -support_b(-dir);
        (max_a, min_b + axis.dot(self.t))
    }
}

/// [`ConvexPolyhedron::is_finite`] without a branch per component: `x · 0` is `±0` for
/// every finite `x` and NaN for NaN and infinities, and a sum of zeros stays zero.
#[inline]
fn pose_is_finite(p: &ConvexPolyhedron) -> bool {
    let z = |v: Vec3| Vec3A::from(v) * 0.0;
    let r = p.rotation;
    (z(r.x_axis) + z(r.y_axis) + z(r.z_axis) + z(p.translation)) == Vec3A::ZERO
}

/// Unit axis perpendicular to edge directions `da` (A) and `db` (B, in A's frame), oriented
/// out of A at its edge (`axis · outward >= 0`, `outward` from A's vertex centroid to a vertex
/// of the edge, as in Gregorius 2013; in f64, where neither the difference nor the product can
/// overflow); `None` for (nearly) parallel edges, whose plane the face normals already cover,
/// and for NaN.
///
/// An axis in the edge's normal cone supports A at the edge, so `axis · outward` is at least
/// the centroid's depth inside A: its sign is safe whenever A is thicker than the rounding of
/// its coordinates. The sum of the edge's two face normals, used before, cancelled on the rim
/// of a thin plate (normals nearly opposite, the sum a few ε long and pointing anywhere), and
/// an axis near one of those normals would come out pointing into A.
///
/// The squared lengths are formed in f32 only while they stay normal and finite; tiny hulls
/// (edges near 1e-15, cross products near 1e-30, squares in the subnormals) and huge ones
/// (squares past f32::MAX) take the f64 path, so the axis is unit at every scale.
#[inline]
fn edge_axis(da: Vec3, db: Vec3, outward: DVec3) -> Option<Vec3> {
    // 1e-30 keeps every square we add at least 1e-30 / 3 ≫ f32::MIN_POSITIVE (1.2e-38)
    // for the dominant component, and 1e36 keeps the sum of three finite.
    const SAFE: std::ops::Range<f32> = 1e-30..1e36;
    let axis = da.cross(db);
    let len2 = axis.length_squared();
    let (la2, lb2) = (da.length_squared(), db.length_squared());
    if !(SAFE.contains(&len2) && SAFE.contains(&la2) && SAFE.contains(&lb2)) {
        return edge_axis_f64(da, db, outward);
    }
    let len = len2.sqrt();
    if len <= 1e-5 * la2.sqrt() * lb2.sqrt() {
        return None;
    }
    Some(if axis.as_dvec3().dot(outward) < 0.0 {
        -axis / len
    } else {
        axis / len
    })
}

/// [`edge_axis`] in f64, for products f32 squares would underflow or overflow: every finite
/// f32 edge's cross product, squared, is a normal f64 (|x|² ≤ (2·3.4e38²)² ≈ 5e154 and a
/// nonzero product is at least (1.4e-45)² ≈ 2e-90).
#[cold]
fn edge_axis_f64(da: Vec3, db: Vec3, outward: DVec3) -> Option<Vec3> {
    let (da, db) = (da.as_dvec3(), db.as_dvec3());
    let axis = da.cross(db);
    let len = axis.length();
    if !len.is_finite() || len <= 1e-5 * da.length() * db.length() {
        return None;
    }
    let unit = if axis.dot(outward) < 0.0 {
        -axis / len
    } else {
        axis / len
    };
    Some(unit.as_vec3())
}

/// World plane of an A-frame axis across a gap `s` whose A-side support value is `h_a` (max
/// over A of `axis · x`): the A-frame plane `axis · x = h_a + s/2`, so in the world
/// `normal · (x_w − t_A) = h_a + s/2` with `normal = R_A axis`.
#[inline]
fn separated(a: &ConvexPolyhedron, axis: Vec3, h_a: f32, s: f32) -> SatResult {
    let normal = a.rotation * axis;
    SatResult::Separated {
        plane: Plane {
            normal,
            d: -(h_a + 0.5 * s) - normal.dot(a.translation),
        },
        distance: s,
    }
}

/// The cached feature's test: `Some` when it is still a valid index and still separates.
///
/// Each kind evaluates exactly the expression the full search uses for that feature, so a
/// hit is an answer the full search would also accept, and a feature the full search found
/// not to separate misses here for the same poses.
#[inline(always)]
fn cached_check(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    rel: &Relative,
    cache: &mut SepCache,
) -> Option<SatResult> {
    let (ha, hb) = (&*a.hull, &*b.hull);
    match cache.feature {
        SepFeature::None => None,
        SepFeature::FaceA(i) => {
            let p = ha.faces().get(i as usize)?.plane;
            let (sb, cone) = (&mut cache.support_b, &mut cache.cone_b);
            let s = rel.face_a_gap(p.normal, p.d, |d| support_value_cone(hb, d, sb, cone));
            (s > 0.0).then(|| separated(a, p.normal, -p.d, s))
        }
        SepFeature::FaceB(j) => {
            let p = hb.faces().get(j as usize)?.plane;
            let (sa, cone) = (&mut cache.support_a, &mut cache.cone_a);
            let (s, n, m) = rel.face_b_gap(p.normal, p.d, |d| support_value_cone(ha, d, sa, cone));
            // Axis from A to B is −n; max over A of (−n) · x = −m.
            (s > 0.0).then(|| separated(a, -n, -m, s))
        }
        SepFeature::Edges(i, j) => {
            let e1 = ha.edges().get(i as usize)?;
            let e2 = hb.edges().get(j as usize)?;
            let (va, vb) = (ha.vertices(), hb.vertices());
            let da = *va.get(e1.vertices[1] as usize)? - *va.get(e1.vertices[0] as usize)?;
            let db =
                rel.r * (*vb.get(e2.vertices[1] as usize)? - *vb.get(e2.vertices[0] as usize)?);
            // The same expression as the full search's, so the axis is identical.
            let outward =
                va.get(e1.vertices[0] as usize)?.as_dvec3() - ha.inner_ball().0.as_dvec3();
            let axis = edge_axis(da, db, outward)?;
            let (sa, ca) = (&mut cache.support_a, &mut cache.cone_a);
            let (sb, cb) = (&mut cache.support_b, &mut cache.cone_b);
            let (max_a, min_b) = rel.projections(
                axis,
                |d| support_value_cone(ha, d, sa, ca),
                |d| support_value_cone(hb, d, sb, cb),
            );
            let s = min_b - max_a;
            (s > 0.0).then(|| separated(a, axis, max_a, s))
        }
    }
}

/// The query behind [`sat_cached`], with the per-kind bests the contact manifold needs.
pub(crate) fn sat_detail(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    cache: &mut SepCache,
) -> SatDetail {
    let Some(rel) = Relative::new(a, b) else {
        return SatDetail::NO_CONTACT;
    };
    // 1. The cached feature, when it is still a valid index and still separates.
    if let Some(result) = cached_check(a, b, &rel, cache) {
        cache.hits += 1;
        return SatDetail {
            result,
            feature: cache.feature,
            ..SatDetail::NO_CONTACT
        };
    }
    cache.misses += 1;
    full_search(a, b, &rel, cache)
}

impl SatDetail {
    /// The answer for non-finite poses, and the "nothing searched" bests.
    const NO_CONTACT: SatDetail = SatDetail {
        result: SatResult::Separated {
            plane: Plane {
                normal: Vec3::NAN,
                d: f32::NAN,
            },
            distance: f32::INFINITY,
        },
        feature: SepFeature::None,
        face_a: (f32::NEG_INFINITY, 0),
        face_b: (f32::NEG_INFINITY, 0),
        edge: (f32::NEG_INFINITY, 0, 0, Vec3::ZERO),
        witness: None,
    };
}
