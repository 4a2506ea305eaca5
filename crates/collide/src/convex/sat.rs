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
//! input (fuzz target `sat`, which found two such disagreements at 1e9+ coordinates when the
//! two paths computed a face of B's gap by different formulas).
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
    /// Best separation over Minkowski edge pairs, the edges, and the axis in A's frame.
    pub edge: (f32, u32, u32, Vec3),
}

/// Separating-axis test of two convex polyhedra, full search.
///
/// `Separated` with a separating plane when one exists (the first found: faces of A, faces of
/// B, then edge pairs), else `Penetrating` with the minimum-translation normal and depth over
/// all candidate axes. Touching (gap exactly 0) is `Penetrating` with depth 0. NaN or infinite
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
fn support_value(hull: &ConvexHull, dir: Vec3, start: &mut u32) -> f32 {
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
fn support_value_cone(
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
        // Hardening (fuzz target `sat`): translations 2e38 and 3.4e38 apart overflowed `t`
        // to infinity, every gap became −inf or NaN, and the answer was `Penetrating` with a
        // zero normal and an infinite depth.
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
/// an axis near one of those normals came out pointing into A (fuzz target `sat`).
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
    };
}

/// Edges of B per [`ArcLanes`] group (one SIMD register of `f32`).
const LANES: usize = 4;

/// The Gauss-map arcs of [`LANES`] edges of B (in A's frame, negated: `c`, `d` and the
/// normal `dxc` of their plane, along `d × c`), one vector per coordinate so the sign tests run on all lanes at once. Unused
/// lanes are zero and never pass (`0 · x < 0` is false).
#[derive(Clone, Copy, Default)]
struct ArcLanes {
    c: [Vec4; 3],
    d: [Vec4; 3],
    dxc: [Vec4; 3],
}

impl ArcLanes {
    /// Puts one edge's arc in lane `k`.
    #[inline]
    fn set(&mut self, k: usize, c: Vec3, d: Vec3, dxc: Vec3) {
        for (axis, (cv, dv, xv)) in [(c.x, d.x, dxc.x), (c.y, d.y, dxc.y), (c.z, d.z, dxc.z)]
            .into_iter()
            .enumerate()
        {
            self.c[axis][k] = cv;
            self.d[axis][k] = dv;
            self.dxc[axis][k] = xv;
        }
    }

    /// Bit `k` set when A's arc `(a, b)` (`bxa` the normal of its plane, along `b × a`) and
    /// lane `k`'s arc `(c, d)` cross: `CBA·DBA < 0`, `ADC·BDC < 0` and `CBA·BDC > 0`
    /// (Gregorius 2013), each dot product summed `x + y + z` as `Vec3::dot` does, so the
    /// verdicts are the pair-by-pair ones.
    #[inline]
    fn crossing(&self, a: Vec3, b: Vec3, bxa: Vec3) -> u32 {
        let dot = |v: &[Vec4; 3], w: Vec3| v[0] * w.x + v[1] * w.y + v[2] * w.z;
        let cba = dot(&self.c, bxa);
        let dba = dot(&self.d, bxa);
        let adc = dot(&self.dxc, a);
        let bdc = dot(&self.dxc, b);
        let pass = (cba * dba).cmplt(Vec4::ZERO)
            & (adc * bdc).cmplt(Vec4::ZERO)
            & (cba * bdc).cmpgt(Vec4::ZERO);
        pass.bitmask()
    }
}

/// B's Gauss map in A's frame, arranged for finding the arcs that cross an arc of A.
struct GaussPairs<'h> {
    /// B's edge indices in lane order.
    order: &'h [u32],
    /// The arcs of −B, [`LANES`] edges each, in `order`.
    lanes: Vec<ArcLanes>,
    /// The caps of −B's chunks of [`GAUSS_CHUNK`] edges, [`LANES`] caps each.
    caps: Vec<CapLanes>,
}

impl<'h> GaussPairs<'h> {
    /// The arcs and caps of −B rotated into A's frame by `r`.
    ///
    /// The plane of the arc of −B, `d × c = r (n1 × n0)`, is taken as `r` times B's edge
    /// direction (`GaussArc::normal`), which is exact for every edge, where the cross product
    /// of the normals loses its direction on the rim of a thin plate.
    fn new(hb: &'h ConvexHull, r: &Mat3A) -> GaussPairs<'h> {
        let (eb, fb, arcs) = (hb.edges(), hb.faces(), hb.gauss_arcs());
        let order = hb.gauss_order();
        let mut lanes = vec![ArcLanes::default(); order.len().div_ceil(LANES)];
        for (p, &j) in order.iter().enumerate() {
            let (Some(e), Some(arc)) = (eb.get(j as usize), arcs.get(j as usize)) else {
                continue;
            };
            let c = -(*r * fb[e.faces[0] as usize].plane.normal);
            let d = -(*r * fb[e.faces[1] as usize].plane.normal);
            lanes[p / LANES].set(p % LANES, c, d, *r * arc.normal);
        }
        let mut caps = vec![CapLanes::NONE; hb.gauss_caps().len().div_ceil(LANES)];
        for (k, cap) in hb.gauss_caps().iter().enumerate() {
            caps[k / LANES].set(k % LANES, -(*r * cap.centre), cap.sin_r, cap.cos_r);
        }
        GaussPairs { order, lanes, caps }
    }

    /// Calls `f(j)` for every edge `j` of B whose arc of −B crosses A's arc `(na, nb)` (the
    /// face normals of an edge of A, whose [`GaussArc`] is `arc`), in Gauss-map order, until
    /// `f` breaks.
    fn crossing(
        &self,
        arc: &GaussArc,
        na: Vec3,
        nb: Vec3,
        mut f: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // A's arc: the unit normal of its great circle (`∝ nb × na`, from the edge direction),
        // and a cap around it (centre `mid`, half angle `h`). A chunk cap (m, R) can meet the
        // arc only if |m · n̂| <= sin R and angle(m, mid) <= R + h, i.e.
        // m · mid >= cos R cos h − sin R sin h (an arc without a cap has `mid = 0`, `h = 90°`,
        // and that half of the test passes every cap).
        // Everything about A's arc is precomputed per hull (`ConvexHull::gauss_arcs`), in f64.
        let n_hat = arc.normal;
        for (quad, caps4) in self.caps.iter().enumerate() {
            let mut chunks = caps4.meeting(n_hat, arc.mid, arc.cos_h, arc.sin_h);
            while chunks != 0 {
                let chunk = quad * LANES + chunks.trailing_zeros() as usize;
                chunks &= chunks - 1;
                for group in chunk * GAUSS_CHUNK / LANES..(chunk + 1) * GAUSS_CHUNK / LANES {
                    let Some(lane) = self.lanes.get(group) else {
                        break;
                    };
                    let mut mask = lane.crossing(na, nb, n_hat);
                    while mask != 0 {
                        let k = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        if let Some(&j) = self.order.get(group * LANES + k) {
                            f(j)?;
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// [`LANES`] Gauss-map caps of chunks of B's edges (in A's frame), one vector per
/// coordinate. Unused lanes have `sin_r = −1` and never meet anything.
#[derive(Clone, Copy)]
struct CapLanes {
    centre: [Vec4; 3],
    sin_r: Vec4,
    cos_r: Vec4,
}

impl CapLanes {
    /// No caps.
    const NONE: CapLanes = CapLanes {
        centre: [Vec4::ZERO; 3],
        sin_r: Vec4::NEG_ONE,
        cos_r: Vec4::ONE,
    };

    /// Puts one cap in lane `k`.
    #[inline]
    fn set(&mut self, k: usize, centre: Vec3, sin_r: f32, cos_r: f32) {
        self.centre[0][k] = centre.x;
        self.centre[1][k] = centre.y;
        self.centre[2][k] = centre.z;
        self.sin_r[k] = sin_r;
        self.cos_r[k] = cos_r;
    }

    /// Bit `k` set when cap `k` may meet A's arc: within its radius of the arc's great circle
    /// (unit normal `n_hat`) and of the cap around the arc (centre `mid`, half angle `h`), with
    /// a margin of `1e-4` (radians, far above the rounding of these unit vectors) so that no
    /// pair the exact sign tests could pass is culled.
    #[inline]
    fn meeting(&self, n_hat: Vec3, mid: Vec3, cos_h: f32, sin_h: f32) -> u32 {
        const MARGIN: f32 = 1e-4;
        let c = &self.centre;
        let to_circle = (c[0] * n_hat.x + c[1] * n_hat.y + c[2] * n_hat.z).abs();
        let to_mid = c[0] * mid.x + c[1] * mid.y + c[2] * mid.z;
        let near_circle = to_circle.cmple(self.sin_r + MARGIN);
        let near_arc = to_mid.cmpge(self.cos_r * cos_h - self.sin_r * sin_h - MARGIN);
        (near_circle & near_arc).bitmask()
    }
}

/// Steps 2–5 of the query: every candidate axis, stopping at the first that separates.
#[inline(never)]
fn full_search(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    rel: &Relative,
    cache: &mut SepCache,
) -> SatDetail {
    let (ha, hb) = (&*a.hull, &*b.hull);
    let (va, vb) = (ha.vertices(), hb.vertices());
    let (fa, fb) = (ha.faces(), hb.faces());
    let (ea, eb) = (ha.edges(), hb.edges());
    let (r, t) = (rel.r, rel.t);
    let mut detail = SatDetail::NO_CONTACT;

    // Face planes that cannot beat the best of their kind are skipped: B contains the ball
    // (c_B, ρ_B) (`ConvexHull::inner_ball`), so the gap of B over A's plane (n, d) is at most
    // n · c_B + d − ρ_B, and likewise for A under B's planes. A skipped plane's gap is below
    // the best so far, which is below 0 (else the search would have stopped), so skipping
    // changes neither the first separating face nor the maxima. `slack` covers the rounding
    // of both the bound and the gap (a few ε of the magnitudes involved), generously.
    let (ca, rho_a) = ha.inner_ball();
    let (cb, rho_b) = hb.inner_ball();
    let cb = r * cb + t;
    let slack = 1e-4 * (t.length() + ca.length() + cb.length() + 1.0)
        + 16.0 * (ha.tolerance() + hb.tolerance())
        + 1e-4 * (rho_a + rho_b);

    // 2. Faces of A: the gap of B over each face plane.
    let mut best = (f32::NEG_INFINITY, SepFeature::None, Vec3::ZERO);
    for (i, face) in fa.iter().enumerate() {
        let p = face.plane;
        if p.normal.dot(cb) + p.d - rho_b + slack < detail.face_a.0 {
            continue;
        }
        let s = rel.face_a_gap(p.normal, p.d, |d| {
            support_value(hb, d, &mut cache.support_b)
        });
        if s > detail.face_a.0 {
            detail.face_a = (s, i as u32);
        }
        if s > 0.0 {
            cache.feature = SepFeature::FaceA(i as u32);
            detail.feature = cache.feature;
            detail.result = separated(a, p.normal, -p.d, s);
            return detail;
        }
    }
    if detail.face_a.0 > best.0 {
        let n = fa[detail.face_a.1 as usize].plane.normal;
        best = (detail.face_a.0, SepFeature::FaceA(detail.face_a.1), n);
    }

    // 3. Faces of B: the gap of A under each face plane of B.
    for (j, face) in fb.iter().enumerate() {
        let p = face.plane;
        let n = r * p.normal;
        if n.dot(ca) - rho_a - n.dot(t) + p.d + slack < detail.face_b.0 {
            continue;
        }
        let (s, n, m) = rel.face_b_gap(p.normal, p.d, |d| {
            support_value(ha, d, &mut cache.support_a)
        });
        if s > detail.face_b.0 {
            detail.face_b = (s, j as u32);
        }
        if s > 0.0 {
            cache.feature = SepFeature::FaceB(j as u32);
            detail.feature = cache.feature;
            // Axis from A to B is −n; max over A of (−n) · x = −m.
            detail.result = separated(a, -n, -m, s);
            return detail;
        }
    }
    if detail.face_b.0 > best.0 {
        let n = -(r * fb[detail.face_b.1 as usize].plane.normal);
        best = (detail.face_b.0, SepFeature::FaceB(detail.face_b.1), n);
    }

    // 4. Edge pairs that form a face of the Minkowski difference A − B. On the Gauss map an
    //    edge is the arc between its two face normals; A's arc (a, b) and the arc of −B,
    //    (c, d) = (−n_B1, −n_B2), cross when c and d are on opposite sides of the plane of
    //    (a, b), a and b on opposite sides of the plane of (c, d), and both arcs lie in one
    //    hemisphere (Gregorius 2013: CBA·DBA < 0, ADC·BDC < 0, CBA·BDC > 0).
    //    The plane of an arc is the plane perpendicular to its edge, so its normal B × A
    //    (D × C) is taken as the edge direction (`GaussArc::normal`), as Gregorius does: the
    //    cross product of the face normals is only as long as the angle between them is far
    //    from 0 and 180°, and on the rim of a thin plate (normals 1e-6 from opposite) its
    //    direction was rounding, degrees off; real pairs were dropped (a missed separating
    //    axis, a wrong depth: `tests/sat_oracle.rs`).
    //    The three sign tests run four B edges at a time on vectors laid out lane by lane
    //    (`ArcLanes`, SIMD through glam's `Vec4`) with the same float operations as a
    //    pair-by-pair test; only the pairs that pass (those forming a Minkowski face, a few
    //    per edge of A) go on.
    let eb_a: Vec<(Vec3, Vec3)> = eb
        .iter()
        .map(|e| {
            let v0 = vb[e.vertices[0] as usize];
            let p0 = r * v0 + t;
            // The same expression as the cached check's, so an edge pair's axis is identical.
            let db = r * (vb[e.vertices[1] as usize] - v0);
            (p0, db)
        })
        .collect();
    //    B's edges go into the lanes in their Gauss-map order (`ConvexHull::gauss_order`),
    //    chunks of `GAUSS_CHUNK` under one bounding cap each; a chunk whose cap misses A's
    //    arc (the cap is farther than its radius from A's great circle, or from the cap
    //    around A's arc) holds no crossing arc and is skipped (`CapLanes::meeting`, four caps
    //    at a time, with a margin that keeps every pair the sign tests could pass). Pairs are
    //    visited edge of A by edge of A, B's edges in that order.
    let pairs = GaussPairs::new(hb, &r);
    let arcs_a = ha.gauss_arcs();
    for (i, (e, arc)) in ea.iter().zip(arcs_a).enumerate() {
        let pa = va[e.vertices[0] as usize];
        let da = va[e.vertices[1] as usize] - pa;
        let na = fa[e.faces[0] as usize].plane.normal;
        let nb = fa[e.faces[1] as usize].plane.normal;
        // Orients the edge axes out of A (`edge_axis`); the cached check uses this expression.
        let outward = pa.as_dvec3() - ca.as_dvec3();
        let flow = pairs.crossing(arc, na, nb, |j| {
            let Some(&(pb, db)) = eb_a.get(j as usize) else {
                return ControlFlow::Continue(());
            };
            let Some(axis) = edge_axis(da, db, outward) else {
                return ControlFlow::Continue(());
            };
            // Both edges support their shapes along ±axis, so the gap is at most the
            // distance between the edges' lines along it.
            let mut s = axis.dot(pb - pa);
            if s > detail.edge.0 || s > 0.0 {
                // Confirm with the shapes' full projections (guards a round-off Gauss test).
                let (sa, sb) = (&mut cache.support_a, &mut cache.support_b);
                let (max_a, min_b) = rel.projections(
                    axis,
                    |d| support_value(ha, d, sa),
                    |d| support_value(hb, d, sb),
                );
                s = min_b - max_a;
                if s > 0.0 {
                    cache.feature = SepFeature::Edges(i as u32, j);
                    detail.feature = cache.feature;
                    detail.edge = (s, i as u32, j, axis);
                    detail.result = separated(a, axis, max_a, s);
                    return ControlFlow::Break(());
                }
                if s > detail.edge.0 {
                    detail.edge = (s, i as u32, j, axis);
                }
            }
            ControlFlow::Continue(())
        });
        if flow.is_break() {
            return detail;
        }
    }
    if detail.edge.0 > best.0 {
        best = (
            detail.edge.0,
            SepFeature::Edges(detail.edge.1, detail.edge.2),
            detail.edge.3,
        );
    }

    // 5. No separating axis: the least-overlapping axis is the minimum translation.
    cache.feature = best.1;
    detail.feature = best.1;
    detail.result = SatResult::Penetrating {
        normal: (a.rotation * best.2).normalize_or_zero(),
        depth: (-best.0).max(0.0),
    };
    detail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::math::Quat;

    fn cube(pos: Vec3, rot: Quat) -> ConvexPolyhedron {
        ConvexPolyhedron::cuboid(Vec3::ONE)
            .unwrap()
            .with_pose(rot, pos)
    }

    #[test]
    fn face_separated_cubes() {
        // Unit cubes (half-extent 1) 3 apart on x: gap 1 along +x, plane at x = 1.5.
        let r = sat(
            &cube(Vec3::ZERO, Quat::IDENTITY),
            &cube(Vec3::X * 3.0, Quat::IDENTITY),
        );
        let SatResult::Separated { plane, distance } = r else {
            panic!("{r:?}")
        };
        assert_near!(distance, 1.0);
        assert_near!(plane.normal, Vec3::X);
        assert_near!(plane.signed_distance(Vec3::new(1.5, 7.0, -3.0)), 0.0);
    }

    #[test]
    fn overlapping_cubes_minimum_translation() {
        // Cubes 1.8 apart on y overlap by 0.2 along +y.
        let r = sat(
            &cube(Vec3::ZERO, Quat::IDENTITY),
            &cube(Vec3::Y * 1.8, Quat::IDENTITY),
        );
        let SatResult::Penetrating { normal, depth } = r else {
            panic!("{r:?}")
        };
        assert_near!(depth, 0.2, 1e-5);
        assert_near!(normal, Vec3::Y);
    }

    #[test]
    fn touching_is_penetrating_with_zero_depth() {
        // Faces exactly in contact at x = 1.
        let r = sat(
            &cube(Vec3::ZERO, Quat::IDENTITY),
            &cube(Vec3::X * 2.0, Quat::IDENTITY),
        );
        assert_eq!(
            r,
            SatResult::Penetrating {
                normal: Vec3::X,
                depth: 0.0
            }
        );
    }

    #[test]
    fn edge_edge_separation() {
        // Two cubes turned 45° about perpendicular axes meet edge to edge; moved apart along
        // the line of centres, only the edge-pair axis separates them.
        let qa = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let qb = Quat::from_rotation_x(std::f32::consts::FRAC_PI_4);
        let s2 = std::f32::consts::SQRT_2;
        // A's edge tip along +x is at √2, B's edge tip along −x is... B rotated about x keeps
        // x faces; use y: A tip on +y at √2, B tip on −y at −√2 relative to its centre.
        let gap = 0.1;
        let b_pos = Vec3::Y * (2.0 * s2 + gap);
        let r = sat(&cube(Vec3::ZERO, qa), &cube(b_pos, qb));
        let SatResult::Separated { plane, distance } = r else {
            panic!("{r:?}")
        };
        assert_near!(distance, gap, 1e-5);
        assert_near!(plane.normal, Vec3::Y, 1e-5);
        let mut cache = SepCache::default();
        let _ = sat_cached(&cube(Vec3::ZERO, qa), &cube(b_pos, qb), &mut cache);
        assert!(matches!(cache.feature, SepFeature::Edges(..)));
    }

    #[test]
    fn cache_hits_on_the_next_frame() {
        // The same pair moved slightly: the cached face still separates.
        let mut cache = SepCache::default();
        let a = cube(Vec3::ZERO, Quat::IDENTITY);
        for k in 0..10 {
            let b = cube(
                Vec3::new(3.0, 0.01 * k as f32, 0.0),
                Quat::from_rotation_y(0.01 * k as f32),
            );
            assert!(!sat_cached(&a, &b, &mut cache).is_penetrating());
        }
        assert_eq!((cache.hits, cache.misses), (9, 1));
        assert_near!(cache.hit_rate(), 0.9, 1e-9);
    }

    #[test]
    fn stale_cache_never_changes_the_answer() {
        // A cache naming features that do not exist is just a miss.
        let a = cube(Vec3::ZERO, Quat::IDENTITY);
        let b = cube(Vec3::X * 1.5, Quat::IDENTITY);
        for feature in [
            SepFeature::FaceA(99),
            SepFeature::FaceB(7),
            SepFeature::Edges(50, 0),
            SepFeature::FaceA(0),
        ] {
            let mut cache = SepCache {
                feature,
                support_a: 1000,
                support_b: 3,
                ..SepCache::default()
            };
            assert_eq!(sat_cached(&a, &b, &mut cache), sat(&a, &b));
        }
    }

    #[test]
    fn support_reach_is_tied_to_the_hull() {
        // A cache warmed on one hull and then used with another of the same vertex count: the
        // reach learned on the first is not trusted for the second.
        let sphere = |scale: Vec3| {
            let pts = crate::convex::hull::tests::fibonacci_sphere(40, scale);
            ConvexPolyhedron::from_points(&pts).unwrap()
        };
        let (x, y) = (sphere(Vec3::ONE), sphere(Vec3::new(0.3, 1.8, 1.2)));
        assert_eq!(x.hull.vertices().len(), y.hull.vertices().len());
        let a = x.with_pose(Quat::IDENTITY, Vec3::ZERO);
        let bx = x.with_pose(Quat::from_rotation_z(0.3), Vec3::new(2.5, 0.2, 0.0));
        let mut cache = SepCache::default();
        for _ in 0..2 {
            assert!(!sat_cached(&a, &bx, &mut cache).is_penetrating());
        }
        assert_eq!((cache.hits, cache.misses), (1, 1));
        assert!(matches!(cache.feature, SepFeature::FaceA(_)));
        assert_eq!(cache.cone_b.hull, x.hull.id());
        assert!(cache.cone_b.reach > 0.0);
        // B's shape changes under the same cache, and the new shape overlaps A.
        let by = y.with_pose(Quat::from_rotation_z(0.3), Vec3::new(1.0, 0.2, 0.0));
        let r = sat_cached(&a, &by, &mut cache);
        assert!(r.is_penetrating());
        assert_eq!(r, sat(&a, &by));
        assert!(cache.cone_b.hull == y.hull.id() || cache.cone_b.hull == 0);
    }

    #[test]
    fn lane_gauss_test_matches_the_pair_by_pair_test() {
        // The four-lane Gauss-map test against the scalar tests of Gregorius 2013, on random
        // arcs (including arcs sharing endpoints, where a product is exactly zero).
        let mut g = collide_testkit::Gen::new(0x6a55);
        for _ in 0..2000 {
            let (a, b) = (g.unit(), g.unit());
            let bxa = b.cross(a);
            let mut lanes = ArcLanes::default();
            let mut expect = 0u32;
            for k in 0..LANES {
                let c = if k == 1 { a } else { g.unit() };
                let d = if k == 2 { -b } else { g.unit() };
                let dxc = d.cross(c);
                lanes.set(k, c, d, dxc);
                let (cba, dba) = (c.dot(bxa), d.dot(bxa));
                let (adc, bdc) = (a.dot(dxc), b.dot(dxc));
                let pass = cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
                expect |= u32::from(pass) << k;
            }
            assert_eq!(lanes.crossing(a, b, bxa), expect);
        }
        // Unused (zero) lanes never pass.
        assert_eq!(
            ArcLanes::default().crossing(Vec3::X, Vec3::Y, Vec3::NEG_Z),
            0
        );
    }

    #[test]
    fn gauss_pairs_are_the_pair_by_pair_crossings() {
        // The culled, four-lane enumeration of crossing arcs against the scalar sign tests
        // (arc planes from the edge directions) over every edge pair, for hulls of many short
        // arcs (a 200-point sphere), long ones (a box, a 20-point sphere) and random rotations
        // of B.
        let mut g = collide_testkit::Gen::new(0x9a55);
        let sphere = |n: usize, s: Vec3| {
            ConvexHull::try_new(&crate::convex::hull::tests::fibonacci_sphere(n, s)).unwrap()
        };
        let cube = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 0.5)).unwrap();
        let hulls = [
            sphere(200, Vec3::ONE),
            sphere(20, Vec3::new(2.0, 1.0, 0.3)),
            (*cube.hull).clone(),
        ];
        let mut crossings = 0;
        for ha in &hulls {
            for hb in &hulls {
                for _ in 0..10 {
                    let r = Mat3A::from_quat(g.quat());
                    let pairs = GaussPairs::new(hb, &r);
                    for (e, arc) in ha.edges().iter().zip(ha.gauss_arcs()) {
                        let na = ha.faces()[e.faces[0] as usize].plane.normal;
                        let nb = ha.faces()[e.faces[1] as usize].plane.normal;
                        let mut got = Vec::new();
                        let _ = pairs.crossing(arc, na, nb, |j| {
                            got.push(j);
                            ControlFlow::Continue(())
                        });
                        got.sort_unstable();
                        let bxa = arc.normal;
                        let want: Vec<u32> = (0..hb.edges().len() as u32)
                            .filter(|&j| {
                                let f = hb.edges()[j as usize].faces;
                                let c = -(r * hb.faces()[f[0] as usize].plane.normal);
                                let d = -(r * hb.faces()[f[1] as usize].plane.normal);
                                let dxc = r * hb.gauss_arcs()[j as usize].normal;
                                let (cba, dba) = (c.dot(bxa), d.dot(bxa));
                                let (adc, bdc) = (na.dot(dxc), nb.dot(dxc));
                                cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
                            })
                            .collect();
                        assert_eq!(got, want);
                        crossings += want.len();
                    }
                }
            }
        }
        assert!(crossings > 10_000, "{crossings} crossings");
    }

    #[test]
    fn edge_axis_is_unit_at_every_scale() {
        // Two skew edges scaled from 1e-20 to 1e18: the f32 squares of the cross product
        // underflow below ~1e-15 and overflow above ~1e9, and the axis must stay unit,
        // oriented out of A's edge, and equal (in direction) the unscaled one.
        let (da, db, out) = (Vec3::new(1.0, 0.2, 0.0), Vec3::new(0.1, 0.3, 1.0), DVec3::Z);
        let unit = edge_axis(da, db, out).expect("skew edges have an axis");
        for k in -20..=18 {
            let s = 10f32.powi(k);
            let axis = edge_axis(da * s, db * s, out).expect("skew edges have an axis");
            assert!(
                (axis.length() - 1.0).abs() < 1e-6,
                "scale 1e{k}: |axis| {}",
                axis.length()
            );
            assert!(axis.dot(unit) > 1.0 - 1e-5, "scale 1e{k}: {axis} vs {unit}");
        }
        // Parallel and NaN edges give no axis at any scale.
        for s in [1e-20, 1.0, 1e18] {
            assert_eq!(edge_axis(da * s, da * (2.0 * s), out), None);
        }
        assert_eq!(edge_axis(Vec3::NAN, db, out), None);
    }

    #[test]
    fn nan_pose_is_no_contact() {
        // A NaN translation: separated at infinite distance.
        let r = sat(
            &cube(Vec3::NAN, Quat::IDENTITY),
            &cube(Vec3::ZERO, Quat::IDENTITY),
        );
        assert!(matches!(r, SatResult::Separated { distance, .. } if distance == f32::INFINITY));
    }
}
