//! The world's narrow phase: one convex part against another, at rest (contact) and moving
//! (time of impact). The dispatch over part kinds lives here, one `match` per query.

use crate::closest;
use crate::convex::contact::contact_cached;
use crate::convex::{
    contact_manifold, gjk, ConvexHull, ConvexPolyhedron, GjkCache, Manifold, Posed, SepCache,
    SupportMap,
};
use crate::math::{Mat3, Quat, Vec3};
use crate::raycast::RayHit;
use crate::shapes::{Capsule, Obb, Ray, Sphere};
use crate::sweep;
use glam::DVec3;

/// One convex part of a body, placed in the world.
#[derive(Clone, Debug)]
pub(crate) enum Part {
    Sphere(Sphere),
    Capsule(Capsule),
    /// A box: the OBB for the analytic and sweep tests, and the polyhedron for SAT manifolds
    /// when the body holds one (a scene query's box does not: it is built if a manifold is
    /// ever asked of it).
    Cuboid(Obb, Option<ConvexPolyhedron>),
    Hull(ConvexPolyhedron),
    /// A part grown by a distance in every direction (its Minkowski sum with a ball of that
    /// radius): a scene query's shape cast to a target distance
    /// ([`World::cast_shape_within`](super::World::cast_shape_within)). Goes through the
    /// support-function tests (GJK, conservative advancement).
    Grown(Box<Part>, f32),
}

impl SupportMap for Part {
    fn support(&self, dir: Vec3) -> Vec3 {
        match self {
            Part::Sphere(s) => s.support(dir),
            Part::Capsule(c) => c.support(dir),
            Part::Cuboid(o, _) => o.support(dir),
            Part::Hull(p) => p.support(dir),
            Part::Grown(..) => {
                self.core_support(dir) + self.margin() * crate::convex::support::unit_or_zero(dir)
            }
        }
    }

    fn margin(&self) -> f32 {
        match self {
            Part::Sphere(s) => s.margin(),
            Part::Capsule(c) => c.margin(),
            Part::Cuboid(o, _) => o.margin(),
            Part::Hull(p) => p.margin(),
            Part::Grown(inner, d) => inner.margin() + d,
        }
    }

    fn core_support(&self, dir: Vec3) -> Vec3 {
        match self {
            Part::Sphere(s) => s.core_support(dir),
            Part::Capsule(c) => c.core_support(dir),
            Part::Cuboid(o, _) => o.core_support(dir),
            Part::Hull(p) => p.core_support(dir),
            Part::Grown(inner, _) => inner.core_support(dir),
        }
    }

    fn interior_point(&self) -> Vec3 {
        match self {
            Part::Sphere(s) => s.center,
            Part::Capsule(c) => (c.a + c.b) * 0.5,
            Part::Cuboid(o, _) => o.center,
            Part::Hull(p) => p.to_world(p.hull.vertex_centroid()),
            Part::Grown(inner, _) => inner.interior_point(),
        }
    }

    fn bounding_ball(&self) -> Option<(Vec3, f32)> {
        match self {
            Part::Sphere(s) => s.bounding_ball(),
            Part::Capsule(c) => c.bounding_ball(),
            Part::Cuboid(o, _) => o.bounding_ball(),
            Part::Hull(p) => p.bounding_ball(),
            Part::Grown(inner, d) => inner.bounding_ball().map(|(c, r)| (c, r + d)),
        }
    }

    fn as_obb(&self) -> Option<Obb> {
        match self {
            Part::Cuboid(o, _) => Some(*o),
            _ => None,
        }
    }

    fn as_sphere(&self) -> Option<Sphere> {
        match self {
            Part::Sphere(s) => Some(*s),
            _ => None,
        }
    }

    fn as_hull(&self) -> Option<Posed<&ConvexHull>> {
        match self {
            Part::Hull(p) => p.as_hull(),
            _ => None,
        }
    }
}

impl Part {
    /// The part as a polyhedron, for boxes and hulls: a box without one builds it from its
    /// OBB (`None` if that fails: a NaN box).
    fn polyhedron(&self) -> Option<std::borrow::Cow<'_, ConvexPolyhedron>> {
        use std::borrow::Cow;
        match self {
            Part::Cuboid(_, Some(p)) | Part::Hull(p) => Some(Cow::Borrowed(p)),
            Part::Cuboid(o, None) => ConvexPolyhedron::from_obb(o).ok().map(Cow::Owned),
            Part::Sphere(_) | Part::Capsule(_) | Part::Grown(..) => None,
        }
    }
}

/// Whether two parts touch or overlap (touching counts): the analytic tests for spheres,
/// capsules and boxes, GJK on the support functions for the rest, stopping at the first
/// separating axis ([`gjk::intersects`]; it agrees with the distance's verdict except within
/// GJK's touching band). The boolean the scene queries ask, with no manifold built.
pub(crate) fn intersects(a: &Part, b: &Part) -> bool {
    match (a, b) {
        (Part::Sphere(sa), Part::Sphere(sb)) => crate::overlap::sphere_sphere(sa, sb),
        (Part::Sphere(s), Part::Capsule(c)) | (Part::Capsule(c), Part::Sphere(s)) => {
            crate::overlap::capsule_sphere(c, s)
        }
        (Part::Capsule(ca), Part::Capsule(cb)) => crate::overlap::capsule_capsule(ca, cb),
        (Part::Sphere(s), Part::Cuboid(o, _)) | (Part::Cuboid(o, _), Part::Sphere(s)) => {
            crate::overlap::sphere_obb(s, o)
        }
        (Part::Cuboid(oa, _), Part::Cuboid(ob, _)) => crate::overlap::obb_obb(oa, ob),
        _ => gjk::intersects(a, b),
    }
}

/// Counters of one pair query, summed into the frame statistics.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct QueryCounts {
    pub sat_hits: u64,
    pub sat_misses: u64,
}

/// Sphere against sphere: normal along the centre line (`+x` for coincident centres).
fn sphere_sphere(a: &Sphere, b: &Sphere) -> Option<Manifold> {
    // In f64: in f32, bodies beyond ~1e19 square to `inf <= inf` (touching) and then
    // `d / inf` gives a zero normal and a NaN depth.
    let (ca, cb) = (a.center.as_dvec3(), b.center.as_dvec3());
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    let d = cb - ca;
    let r = ra + rb;
    let d2 = d.length_squared();
    // Touching counts: |d| <= r.
    let touching = d2 <= r * r; // false for NaN
    if !touching {
        return None;
    }
    let len = d2.sqrt();
    let n = if len > 0.0 { d / len } else { DVec3::X };
    // The point halfway between the two surfaces along the centre line.
    let pa = ca + n * ra;
    let pb = cb - n * rb;
    Some(Manifold::one(
        n.as_vec3(),
        (r - len) as f32,
        ((pa + pb) * 0.5).as_vec3(),
    ))
}

/// Sphere against box (Arvo 1990; Ericson RTCD §5.1.3): the closest point of the box to the
/// centre gives normal and depth; a centre inside the box uses the face of least penetration.
fn sphere_box(s: &Sphere, o: &Obb) -> Option<Manifold> {
    // Inside or outside is decided in the box's frame: testing `d2 > 0` on the world closest
    // point takes a centre inside a rotated box for outside, since `point_obb` maps the centre
    // to box coordinates and back with rounding (the normal would be rounding noise and the
    // depth the radius alone).
    let p = o.to_local(s.center);
    if p.abs().cmple(o.half_extents).all() {
        return Some(sphere_inside_box(s, o, p));
    }
    let q = closest::point_obb(s.center, o);
    // In f64: as in `sphere_sphere`, f32 squares overflow far out.
    let (c, q64, r) = (s.center.as_dvec3(), q.as_dvec3(), f64::from(s.radius));
    let d = c - q64;
    let d2 = d.length_squared();
    let touching = d2 <= r * r; // false for NaN
    if !touching {
        return None;
    }
    if d2 > 0.0 {
        // Outside: the normal from sphere (A) to box (B) points from the centre to `q`.
        let len = d2.sqrt();
        let n = -d / len;
        let surface = c + n * r;
        return Some(Manifold::one(
            n.as_vec3(),
            (r - len) as f32,
            ((surface + q64) * 0.5).as_vec3(),
        ));
    }
    // Centre on the surface after rounding: as inside.
    Some(sphere_inside_box(s, o, o.to_local(s.center)))
}

/// A sphere whose centre `p` (box coordinates) is inside the box: in box coordinates, the
/// face k with the least `h_k - |p_k|` is nearest; pushing the box out along that face's
/// outward normal (sign of `p_k`) separates them.
fn sphere_inside_box(s: &Sphere, o: &Obb, p: Vec3) -> Manifold {
    let mut best = (0usize, f32::INFINITY);
    for k in 0..3 {
        let gap = o.half_extents[k] - p[k].abs();
        if gap < best.1 {
            best = (k, gap);
        }
    }
    let (k, gap) = best;
    let sign = if p[k] >= 0.0 { 1.0 } else { -1.0 };
    let face_normal = o.axes.col(k) * sign;
    // Moving the box (B) against that face's outward normal by gap + r leaves the sphere
    // touching the face from outside: the normal from A toward B is -face_normal.
    Manifold::one(-face_normal, gap + s.radius, s.center)
}

/// The contact of two convex parts, or `None` when apart. The one dispatch over part kinds
/// for contacts: analytic sphere tests, SAT manifolds with the separating-plane cache for
/// polyhedra, GJK/EPA (warm-started) for the rest. Mirrored arms swap and flip.
pub(crate) fn contact(
    a: &Part,
    b: &Part,
    sep: &mut SepCache,
    gjk_cache: &mut GjkCache,
    counts: &mut QueryCounts,
) -> Option<Manifold> {
    match (a, b) {
        (Part::Sphere(sa), Part::Sphere(sb)) => sphere_sphere(sa, sb),
        (Part::Sphere(s), Part::Cuboid(o, _)) => sphere_box(s, o),
        (Part::Cuboid(..), Part::Sphere(_)) => {
            contact(b, a, sep, gjk_cache, counts).map(Manifold::flipped)
        }
        (Part::Cuboid(..) | Part::Hull(_), Part::Cuboid(..) | Part::Hull(_)) => {
            let (Some(pa), Some(pb)) = (a.polyhedron(), b.polyhedron()) else {
                return None;
            };
            let (h0, m0) = (sep.hits, sep.misses);
            let m = contact_manifold(&pa, &pb, sep);
            counts.sat_hits += sep.hits - h0;
            counts.sat_misses += sep.misses - m0;
            m
        }
        // Capsules, and spheres against hulls: GJK on the cores plus the radii, EPA inside.
        _ => {
            let c = contact_cached(a, b, 0.0, gjk_cache)?;
            Some(Manifold::one(
                c.normal,
                c.depth,
                (c.point_a + c.point_b) * 0.5,
            ))
        }
    }
}

/// A time of impact within the frame: `toi` in `[0, 1]`, unit normal from A toward B at
/// `toi`, and a contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Normalised time of first contact in the frame (`0`: touching at the start).
    pub toi: f32,
    /// Unit normal from A toward B at `toi`.
    pub normal: Vec3,
    /// A contact point at `toi`.
    pub point: Vec3,
}

impl Impact {
    /// The same impact seen from the other body: the normal reversed.
    pub(crate) fn flipped(self) -> Impact {
        Impact {
            normal: -self.normal,
            ..self
        }
    }
}

/// First contact of two parts translating by `motion_a`, `motion_b` over the frame (their
/// orientation held), or `None`. The one dispatch over part kinds for sweeps: the exact
/// sweeps of [`crate::sweep`] for spheres and boxes (mirrored arms swap and flip), and
/// [`crate::sweep::convex()`] (a GJK ray cast) for the rest.
pub(crate) fn impact(a: &Part, motion_a: Vec3, b: &Part, motion_b: Vec3) -> Option<Impact> {
    let i = impact_raw(a, motion_a, b, motion_b)?;
    // B approaches A along −(motion_b − motion_a): the A-to-B direction when nothing better.
    let normal = sweep::convex::unit_normal(i.normal, motion_a - motion_b, a, b);
    Some(Impact { normal, ..i })
}

/// [`impact`] before its normal is made unit.
fn impact_raw(a: &Part, motion_a: Vec3, b: &Part, motion_b: Vec3) -> Option<Impact> {
    let from = |s: sweep::Sweep| Impact {
        toi: s.enter,
        normal: s.normal,
        point: s.point,
    };
    match (a, b) {
        (Part::Sphere(sa), Part::Sphere(sb)) => {
            sweep::sphere_sphere(sa, motion_a, sb, motion_b).map(from)
        }
        (Part::Sphere(s), Part::Cuboid(o, _)) => {
            sweep::sphere_obb(s, motion_a, o, motion_b).map(from)
        }
        (Part::Cuboid(..), Part::Sphere(_)) => {
            impact_raw(b, motion_b, a, motion_a).map(Impact::flipped)
        }
        (Part::Cuboid(oa, _), Part::Cuboid(ob, _)) => {
            sweep::obb_obb(oa, motion_a, ob, motion_b).map(from)
        }
        // Conservative advancement on GJK distances, shared with `sweep::convex`.
        _ => sweep::convex::first_contact(a, motion_a, b, motion_b).map(|c| Impact {
            toi: c.toi,
            normal: c.normal,
            point: c.point,
        }),
    }
}

/// The distance and closest points of two parts (GJK on the parts' support functions, the
/// radii of spheres and capsules as margins; Ericson, RTCD §9.5): `intersecting` when they
/// touch or overlap (within GJK's tolerance), `None` for a non-finite part. The one query for
/// distances: every part kind is a [`SupportMap`], so no `match` is needed.
pub(crate) fn distance(a: &Part, b: &Part) -> Option<gjk::GjkResult> {
    let r = gjk::distance(a, b);
    (r.intersecting || r.distance.is_finite()).then_some(r)
}

/// Ray against a part: `(t, normal)` of the first hit in `[0, max_t]`.
pub(crate) fn ray_part(ray: &Ray, part: &Part, max_t: f32) -> Option<RayHit> {
    match part {
        Part::Sphere(s) => crate::raycast::sphere(ray, s, max_t),
        Part::Capsule(c) => crate::raycast::capsule(ray, c, max_t),
        Part::Cuboid(o, _) => crate::raycast::obb(ray, o, max_t),
        Part::Hull(p) => ray_posed_hull(ray, &p.hull, p.rotation, p.translation, max_t),
        Part::Grown(..) => ray_support_map(ray, part, max_t),
    }
}

/// [`ray_part`] of a hull placed at `position` and `rotation` as a body's hull part is
/// (the same rotation matrix), without a polyhedron built for it.
pub(crate) fn ray_hull(
    ray: &Ray,
    hull: &ConvexHull,
    position: Vec3,
    rotation: Quat,
    max_t: f32,
) -> Option<RayHit> {
    ray_posed_hull(
        ray,
        hull,
        crate::math::rotation_matrix(rotation),
        position,
        max_t,
    )
}

/// A ray against the hull posed by `rotation` (a matrix) and `translation`, as a hit.
fn ray_posed_hull(
    ray: &Ray,
    hull: &ConvexHull,
    rotation: Mat3,
    translation: Vec3,
    max_t: f32,
) -> Option<RayHit> {
    let (t, normal) = ray_polyhedron(ray, hull, rotation, translation, max_t)?;
    // The crate's rule for a hit's point: `origin + t·dir` in f64, rounded once,
    // `None` when it lies beyond ±f32::MAX (the f32 `ray.at(t)` could overflow).
    crate::raycast::hit(ray, f64::from(t), normal)
}

/// Ray against any convex part by its support function: the ray's point advanced
/// conservatively on GJK distances until it touches. Starting inside: `t = 0`, normal
/// `-dir/|dir|` (the crate's raycast rule).
fn ray_support_map(ray: &Ray, part: &Part, max_t: f32) -> Option<RayHit> {
    if !(ray.is_finite() && max_t >= 0.0) {
        return None;
    }
    if gjk::distance(&ray.origin, part).intersecting {
        let back = crate::convex::support::unit_or_zero(-ray.dir);
        return crate::raycast::hit(ray, 0.0, back);
    }
    let c = sweep::convex::first_contact(&ray.origin, ray.dir * max_t, part, Vec3::ZERO)?;
    // `c.normal` points from the ray's point toward the part: the surface's is opposite.
    let normal = sweep::convex::unit_normal(-c.normal, -ray.dir, part, &ray.origin);
    crate::raycast::hit(ray, f64::from(c.toi) * f64::from(max_t), normal)
}

/// Ray against a convex polyhedron by clipping the ray to every face's half-space
/// (Cyrus–Beck 1978; Ericson RTCD §5.3.8). Starting inside: `t = 0`, normal `-dir/|dir|`
/// (the crate's raycast rule). NaN → `None`.
///
/// The clipping runs in f64: with a hull near `f32::MAX` seen from the other side of the
/// origin, `n·origin + d` overflows f32 (3e38 + 3e38), and the hit would be lost.
fn ray_polyhedron(
    ray: &Ray,
    hull: &ConvexHull,
    rotation: Mat3,
    translation: Vec3,
    max_t: f32,
) -> Option<(f32, Vec3)> {
    if !(ray.is_finite() && max_t >= 0.0) {
        return None;
    }
    let (o, dir) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let (mut t0, mut t1) = (0.0f64, f64::from(max_t));
    let mut normal = None;
    for face in hull.faces() {
        let plane = crate::convex::posed_plane(&face.plane, rotation, translation);
        let n = plane.normal.as_dvec3();
        // Inside the face's half-space: n·x + d <= 0. Along the ray: n·o + d + t n·dir.
        let dist = n.dot(o) + f64::from(plane.d);
        let denom = n.dot(dir);
        if denom == 0.0 {
            if dist > 0.0 {
                return None;
            }
            continue;
        }
        let t = -dist / denom;
        if denom < 0.0 {
            // Entering this half-space.
            if t > t0 {
                t0 = t;
                normal = Some(plane.normal);
            }
        } else if t < t1 {
            t1 = t;
        }
        if t0 > t1 || t0.is_nan() || t1.is_nan() {
            return None;
        }
    }
    // `-dir / |dir|` is not unit when `|dir|²` underflows (a direction of 1e-22 components
    // gives length 0.71); scale first.
    let n = normal.unwrap_or_else(|| {
        let u = crate::convex::support::unit_or_zero(-ray.dir);
        if u == Vec3::ZERO {
            Vec3::Z
        } else {
            u
        }
    });
    // t0 <= max_t (an f32), so it rounds to a finite f32.
    Some((t0 as f32, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::convex::ContactPoint;

    fn cube(c: Vec3) -> Part {
        let o = Obb::new(c, Quat::IDENTITY, Vec3::splat(0.5));
        let p = ConvexPolyhedron::cuboid(Vec3::splat(0.5))
            .expect("unit cube")
            .with_pose(Quat::IDENTITY, c);
        Part::Cuboid(o, Some(p))
    }

    #[test]
    fn sphere_box_outside_inside_and_mirrored() {
        // A unit sphere at x = -1.4 overlaps the unit cube at the origin by 0.1 along +x.
        let s = Part::Sphere(Sphere::new(Vec3::new(-1.4, 0.0, 0.0), 1.0));
        let (mut sep, mut g, mut n) = (
            SepCache::default(),
            GjkCache::default(),
            QueryCounts::default(),
        );
        let m = contact(&s, &cube(Vec3::ZERO), &mut sep, &mut g, &mut n).unwrap();
        assert_near!(m.normal, Vec3::X);
        assert_near!(m.depth, 0.1, 1e-5);
        let f = contact(&cube(Vec3::ZERO), &s, &mut sep, &mut g, &mut n).unwrap();
        assert_near!(f.normal, -Vec3::X);
        // Centre inside, 0.1 below the +y face: moving the box by 0.15 along -y frees it.
        let s2 = Part::Sphere(Sphere::new(Vec3::new(0.0, 0.4, 0.0), 0.05));
        let m2 = contact(&s2, &cube(Vec3::ZERO), &mut sep, &mut g, &mut n).unwrap();
        assert_near!(m2.normal, -Vec3::Y);
        assert_near!(m2.depth, 0.15, 1e-5);
    }

    #[test]
    fn impact_of_a_capsule_by_advancement_matches_the_analytic_time() {
        // A capsule (radius 0.5, axis along y) 3 units left of a unit cube, moving +4 in x:
        // surfaces 3 − 0.5 − 0.5 = 2 apart, first contact at t = 2 / 4 = 0.5.
        let cap = Part::Capsule(Capsule::new(
            Vec3::new(-3.0, -0.5, 0.0),
            Vec3::new(-3.0, 0.5, 0.0),
            0.5,
        ));
        let i = impact(
            &cap,
            Vec3::new(4.0, 0.0, 0.0),
            &cube(Vec3::ZERO),
            Vec3::ZERO,
        )
        .unwrap();
        assert_near!(i.toi, 0.5, 1e-4);
        assert_near!(i.normal, Vec3::X, 1e-3);
        // Moving away: none.
        assert!(impact(
            &cap,
            Vec3::new(-4.0, 0.0, 0.0),
            &cube(Vec3::ZERO),
            Vec3::ZERO
        )
        .is_none());
    }

    #[test]
    fn ray_polyhedron_cases() {
        let p = ConvexPolyhedron::cuboid(Vec3::splat(0.5)).unwrap();
        let ray_polyhedron = |ray: &Ray, p: &ConvexPolyhedron, max_t: f32| {
            ray_polyhedron(ray, &p.hull, p.rotation, p.translation, max_t)
        };
        // From x = -2 along +x: enters the face x = -0.5 at t = 1.5, normal -x.
        let (t, n) =
            ray_polyhedron(&Ray::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::X), &p, 10.0).unwrap();
        assert_near!(t, 1.5);
        assert_near!(n, -Vec3::X);
        // Inside: t = 0, normal facing back along the ray.
        let (t, n) = ray_polyhedron(&Ray::new(Vec3::ZERO, Vec3::X), &p, 10.0).unwrap();
        assert_eq!(t, 0.0);
        assert_near!(n, -Vec3::X);
        // Missing, too short, NaN.
        assert!(ray_polyhedron(&Ray::new(Vec3::new(-2.0, 2.0, 0.0), Vec3::X), &p, 10.0).is_none());
        assert!(ray_polyhedron(&Ray::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::X), &p, 1.0).is_none());
        assert!(ray_polyhedron(&Ray::new(Vec3::NAN, Vec3::X), &p, 1.0).is_none());
    }

    #[test]
    fn impact_normals_are_always_unit() {
        use crate::sweep::convex::unit_normal;
        // A unit normal passes through; a tiny or long one is normalised; a zero one falls
        // back to the motion, then to the centres' direction, then to +Z.
        let (a, b) = (cube(Vec3::ZERO), cube(Vec3::new(0.0, 3.0, 0.0)));
        assert_eq!(unit_normal(Vec3::X, Vec3::ZERO, &a, &b), Vec3::X);
        let n = unit_normal(Vec3::new(1e-30, 0.0, 0.0), Vec3::ZERO, &a, &b);
        assert!((n - Vec3::X).length() < 1e-6);
        let n = unit_normal(Vec3::ZERO, Vec3::new(0.0, 0.0, -5.0), &a, &b);
        assert!((n + Vec3::Z).length() < 1e-6);
        let n = unit_normal(Vec3::NAN, Vec3::ZERO, &a, &b);
        assert!((n - Vec3::Y).length() < 1e-6);
        assert_eq!(unit_normal(Vec3::ZERO, Vec3::ZERO, &a, &a), Vec3::Z);
    }

    #[test]
    fn manifold_finite_clamps_overflowed_points_only() {
        // A point that overflowed to inf is clamped to f32::MAX; NaN goes to 0; finite
        // points and depths are untouched.
        let m = Manifold::one(Vec3::X, 2.0, Vec3::new(f32::INFINITY, -1.5, f32::NAN)).finite();
        let point = |p: Vec3, depth: f32| ContactPoint { point: p, depth };
        assert_eq!(m.points(), &[point(Vec3::new(f32::MAX, -1.5, 0.0), 2.0)]);
        assert_eq!(m.depth, 2.0);
        let m = Manifold::one(Vec3::X, f32::NAN, Vec3::ONE).finite();
        assert_eq!((m.depth, m.points()), (0.0, &[point(Vec3::ONE, 0.0)][..]));
    }

    #[test]
    fn distance_of_parts_apart_touching_and_overlapping() {
        // A unit sphere 3 units from the unit cube's centre: 1.5 between the surfaces, the
        // closest points on the x axis.
        let s = Part::Sphere(Sphere::new(Vec3::new(3.0, 0.0, 0.0), 1.0));
        let r = distance(&cube(Vec3::ZERO), &s).unwrap();
        assert!(!r.intersecting);
        assert_near!(r.distance, 1.5, 1e-5);
        assert_near!(r.normal, Vec3::X, 1e-5);
        assert_near!(r.point_a, Vec3::new(0.5, 0.0, 0.0), 1e-5);
        assert_near!(r.point_b, Vec3::new(2.0, 0.0, 0.0), 1e-5);
        // Touching faces and overlapping cubes: intersecting, distance 0.
        for c in [Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.5, 0.2, 0.0)] {
            let r = distance(&cube(Vec3::ZERO), &cube(c)).unwrap();
            assert!(r.intersecting && r.distance == 0.0, "{c}");
        }
        // A NaN part: none.
        let nan = Part::Sphere(Sphere::new(Vec3::NAN, 1.0));
        assert!(distance(&nan, &s).is_none());
    }

    #[test]
    fn sphere_centred_inside_a_rotated_box() {
        // A sphere whose centre is inside a rotated box is pushed out
        // through the nearest face, depth = distance to that face + radius, normal the face's.
        let q = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.4);
        let o = Obb::new(Vec3::new(1.0, 2.0, 3.0), q, Vec3::new(1.0, 0.5, 0.8));
        let p = ConvexPolyhedron::cuboid(o.half_extents)
            .unwrap()
            .with_pose(q, o.center);
        let b = Part::Cuboid(o, Some(p));
        // 0.1 inside the local +y face.
        let c = o.center + q * Vec3::new(0.3, 0.4, -0.2);
        let s = Part::Sphere(Sphere::new(c, 0.25));
        let (mut sep, mut g, mut n) = (
            SepCache::default(),
            GjkCache::default(),
            QueryCounts::default(),
        );
        let m = contact(&b, &s, &mut sep, &mut g, &mut n).unwrap();
        assert_near!(m.normal, q * Vec3::Y, 1e-5);
        assert_near!(m.depth, 0.35, 1e-5);
    }
}
