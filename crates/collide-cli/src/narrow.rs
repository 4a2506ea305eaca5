//! The exact narrow phase of a pair of bodies and their time of impact, by the library.
//!
//! Every body is a set of convex pieces in world space (a sphere, a box, a capsule, or point
//! clouds seen as their hulls). Contacts come from `collide::convex::contact` (GJK, then EPA
//! for penetration) on every piece pair; separation from `collide::convex::gjk::distance`.
//! Times of impact come from the exact sweeps of `collide::sweep` for sphere and box pairs,
//! and otherwise from translational conservative advancement on GJK distances.

use collide::convex::gjk;
use collide::convex::{ConvexPoints, Posed, SupportMap};
use collide::shapes::{Capsule, Obb, Plane, Sphere};
use collide::Vec3;

use crate::scene_eval::{Body, Contact, Geometry, Impact};

/// The exact test's verdict: contact data when the shapes touch, else a separating plane.
#[derive(Clone, Debug, Default)]
pub struct Exact {
    /// Contact data when the shapes touch or interpenetrate.
    pub contact: Option<Contact>,
    /// A plane with A on its negative side, B on its positive side, when separated.
    pub separating_plane: Option<Plane>,
}

/// One convex piece of a body, in world space.
#[derive(Clone, Copy, Debug)]
pub enum Piece<'a> {
    /// A sphere.
    Ball(Sphere),
    /// A box.
    Cuboid(Obb),
    /// A capsule.
    Pill(Capsule),
    /// The hull of a rest-frame point cloud, posed.
    Hull(Posed<ConvexPoints<'a>>),
}

/// Each piece supports like the shape it holds (margins included, so GJK-based contacts run
/// on the cores of spheres and capsules and add the radii back).
impl SupportMap for Piece<'_> {
    fn support(&self, dir: Vec3) -> Vec3 {
        match self {
            Piece::Ball(s) => s.support(dir),
            Piece::Cuboid(o) => o.support(dir),
            Piece::Pill(c) => c.support(dir),
            Piece::Hull(h) => h.support(dir),
        }
    }
    fn margin(&self) -> f32 {
        match self {
            Piece::Ball(s) => s.margin(),
            Piece::Cuboid(o) => o.margin(),
            Piece::Pill(c) => c.margin(),
            Piece::Hull(h) => h.margin(),
        }
    }
    fn core_support(&self, dir: Vec3) -> Vec3 {
        match self {
            Piece::Ball(s) => s.core_support(dir),
            Piece::Cuboid(o) => o.core_support(dir),
            Piece::Pill(c) => c.core_support(dir),
            Piece::Hull(h) => h.core_support(dir),
        }
    }
    fn interior_point(&self) -> Vec3 {
        match self {
            Piece::Ball(s) => s.interior_point(),
            Piece::Cuboid(o) => o.interior_point(),
            Piece::Pill(c) => c.interior_point(),
            Piece::Hull(h) => h.interior_point(),
        }
    }
}

impl Piece<'_> {
    /// The piece moved by `offset`.
    fn translated(self, offset: Vec3) -> Self {
        match self {
            Piece::Ball(s) => Piece::Ball(s.translated(offset)),
            Piece::Cuboid(mut o) => {
                o.center += offset;
                Piece::Cuboid(o)
            }
            Piece::Pill(c) => Piece::Pill(Capsule::new(c.a + offset, c.b + offset, c.radius)),
            Piece::Hull(mut h) => {
                h.translation += offset;
                Piece::Hull(h)
            }
        }
    }
}

/// The body's convex pieces in its current pose.
pub fn pieces(body: &Body) -> Vec<Piece<'_>> {
    let (p, q) = (body.position, body.rotation);
    match &body.geometry {
        Geometry::Sphere { radius } => vec![Piece::Ball(Sphere::new(p, *radius))],
        Geometry::Cuboid { half_extents } => vec![Piece::Cuboid(Obb::new(p, q, *half_extents))],
        Geometry::Capsule {
            half_height,
            radius,
        } => {
            // The core segment runs along local y.
            let h = q * Vec3::new(0.0, *half_height, 0.0);
            vec![Piece::Pill(Capsule::new(p - h, p + h, *radius))]
        }
        Geometry::Convex { pieces } => pieces
            .iter()
            .map(|pts| Piece::Hull(Posed::new(ConvexPoints(pts), q, p)))
            .collect(),
    }
}

/// The exact test of two bodies: contact data when any pieces touch (the deepest pair's normal
/// and depth, one point per touching pair), otherwise a separating plane.
///
/// The plane is the one halfway between the closest points of the closest piece pair, normal
/// from A toward B; it is reported only when it separates every piece (always, for two convex
/// bodies; a concave body of several pieces may have no single separating plane).
pub fn exact(a: &Body, b: &Body) -> Exact {
    let (pa, pb) = (pieces(a), pieces(b));
    let mut touching: Vec<collide::convex::Contact> = Vec::new();
    for x in &pa {
        for y in &pb {
            // Margin 0: `Some` only when touching (depth ≈ 0) or penetrating (depth > 0).
            if let Some(c) = collide::convex::contact::contact(x, y, 0.0) {
                if c.depth >= 0.0 {
                    touching.push(c);
                }
            }
        }
    }
    if let Some(deepest) = touching.iter().max_by(|x, y| x.depth.total_cmp(&y.depth)) {
        return Exact {
            contact: Some(Contact {
                normal: deepest.normal,
                depth: deepest.depth,
                // The midpoint of the two surface points of each touching piece pair.
                points: touching
                    .iter()
                    .map(|c| 0.5 * (c.point_a + c.point_b))
                    .collect(),
            }),
            separating_plane: None,
        };
    }
    // Separated (or invalid input): the closest piece pair by GJK distance.
    let mut best: Option<gjk::GjkResult> = None;
    for x in &pa {
        for y in &pb {
            let r = gjk::distance(x, y);
            if r.intersecting || !r.distance.is_finite() {
                continue;
            }
            if best.is_none_or(|b| r.distance < b.distance) {
                best = Some(r);
            }
        }
    }
    let plane = best.and_then(|r| {
        let mid = 0.5 * (r.point_a + r.point_b);
        let plane = Plane::try_from_point_normal(mid, r.normal)?;
        // Every piece of A must lie on the negative side and every piece of B on the positive
        // side: A's farthest point along n, and B's farthest along -n, checked with a
        // tolerance relative to the gap.
        let tol = 1e-4 * r.distance.max(1e-6) + 1e-6;
        let a_ok = pa
            .iter()
            .all(|x| plane.signed_distance(x.support(plane.normal)) <= tol);
        let b_ok = pb
            .iter()
            .all(|y| plane.signed_distance(y.support(-plane.normal)) >= -tol);
        (a_ok && b_ok).then_some(plane)
    });
    Exact {
        contact: None,
        separating_plane: plane,
    }
}

/// The first moment in the frame `u ∈ [0, 1]` when two moving bodies touch; `None` when
/// neither moves or they never touch during the frame. Already touching: `toi = 0`.
pub fn impact(a: &Body, b: &Body) -> Option<Impact> {
    let (va, vb) = (a.velocity, b.velocity);
    if va == Vec3::ZERO && vb == Vec3::ZERO {
        return None;
    }
    let (pa, pb) = (pieces(a), pieces(b));
    // Exact sweeps for the pairs the library has them for (one piece each).
    if let ([x], [y]) = (pa.as_slice(), pb.as_slice()) {
        use collide::sweep;
        let s = match (x, y) {
            (Piece::Ball(s), Piece::Ball(t)) => Some(sweep::sphere_sphere(s, va, t, vb)),
            (Piece::Ball(s), Piece::Cuboid(o)) => Some(sweep::sphere_obb(s, va, o, vb)),
            (Piece::Cuboid(o), Piece::Ball(s)) => {
                // Swept the other way round: the normal points from the sphere to the box.
                Some(sweep::sphere_obb(s, vb, o, va).map(|mut w| {
                    w.normal = -w.normal;
                    w
                }))
            }
            (Piece::Cuboid(o), Piece::Cuboid(p)) => Some(sweep::obb_obb(o, va, p, vb)),
            _ => None,
        };
        if let Some(s) = s {
            return s.map(|w| Impact {
                toi: w.enter,
                normal: w.normal,
                point: w.point,
            });
        }
    }
    // Every other pair: the earliest impact over the piece pairs.
    let mut first: Option<Impact> = None;
    for x in &pa {
        for y in &pb {
            if let Some(i) = advance(*x, va, *y, vb) {
                if first.is_none_or(|f| i.toi < f.toi) {
                    first = Some(i);
                }
            }
        }
    }
    first
}

/// Translational conservative advancement (Mirtich 1996) of two convex pieces: the first `u`
/// in `[0, 1]` at which they touch, to within a small gap.
///
/// With B moving by `v = vb - va` relative to A, the distance `d(u)` between the convex
/// pieces is a convex function of `u` (the Minkowski difference translates linearly), so
/// `d(u + Δ) >= d(u) - Δ (v · (-n))` where `n` is the unit normal from A to B at `u`: the
/// step `Δ = d / (-v · n)` never passes the first contact. The loop stops when the gap is
/// below `1e-4` of the pieces' size, or when B is not approaching (`-v · n <= 0`: by
/// convexity the distance only grows from there).
fn advance(a: Piece<'_>, va: Vec3, b: Piece<'_>, vb: Vec3) -> Option<Impact> {
    let v = vb - va;
    let size = (a.support(Vec3::X) - a.support(-Vec3::X)).length()
        + (b.support(Vec3::X) - b.support(-Vec3::X)).length()
        + (a.support(Vec3::Y) - a.support(-Vec3::Y)).length();
    let gap = 1e-4 * size.max(1e-6);
    let mut u = 0.0f32;
    for _ in 0..64 {
        // A stays put in A's moving frame; B is where the relative motion has taken it.
        let bu = b.translated(v * u);
        let r = gjk::distance(&a, &bu);
        if !r.distance.is_finite() {
            return None;
        }
        if r.intersecting || r.distance <= gap {
            let normal = if r.intersecting {
                (bu.interior_point() - a.interior_point())
                    .try_normalize()
                    .unwrap_or(Vec3::Y)
            } else {
                r.normal
            };
            return Some(Impact {
                toi: u,
                normal,
                // In world space at time u, A has moved by va·u too.
                point: 0.5 * (r.point_a + r.point_b) + va * u,
            });
        }
        let closing = -v.dot(r.normal);
        if closing <= 0.0 {
            return None;
        }
        u += r.distance / closing;
        if u > 1.0 {
            return None;
        }
    }
    None
}
