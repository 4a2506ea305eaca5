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

#[cfg(test)]
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
            // Conservative advancement on GJK distances (the library's convex sweep).
            if let Some(w) = collide::sweep::convex(x, va, y, vb) {
                if first.is_none_or(|f| w.enter < f.toi) {
                    first = Some(Impact {
                        toi: w.enter,
                        normal: w.normal,
                        point: w.point,
                    });
                }
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene_eval::MeshCache;
    use collide::io::scene::{BodyDesc, BoundingChoice, ShapeDesc, TestChoice};
    use collide::overlap;
    use collide::Quat;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn body(shape: ShapeDesc, position: Vec3, rotation: Quat, velocity: Vec3) -> Body {
        Body::from_desc(
            &BodyDesc {
                name: "b".into(),
                shape,
                position,
                rotation,
                velocity,
                bounding: BoundingChoice::Aabb,
                test: TestChoice::Exact,
            },
            &mut MeshCache::new(),
        )
        .expect("a primitive body")
    }

    fn sphere(r: f32, p: Vec3) -> Body {
        body(
            ShapeDesc::Sphere { radius: r },
            p,
            Quat::IDENTITY,
            Vec3::ZERO,
        )
    }

    fn random_body(rng: &mut ChaCha8Rng) -> Body {
        let p = Vec3::new(
            rng.random_range(-1.5..1.5),
            rng.random_range(-1.5..1.5),
            rng.random_range(-1.5..1.5),
        );
        let q = Quat::from_xyzw(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
        .normalize();
        let shape = match rng.random_range(0..3) {
            0 => ShapeDesc::Sphere {
                radius: rng.random_range(0.2..1.2),
            },
            1 => ShapeDesc::Box {
                half_extents: Vec3::new(
                    rng.random_range(0.1..1.2),
                    rng.random_range(0.1..1.2),
                    rng.random_range(0.1..1.2),
                ),
            },
            _ => ShapeDesc::Capsule {
                half_height: rng.random_range(0.0..1.0),
                radius: rng.random_range(0.1..0.8),
            },
        };
        body(shape, p, q, Vec3::ZERO)
    }

    /// The independent answer: the library's analytic and SAT tests, or dense sampling of the
    /// capsule's segment against a box. `None` when the oracle cannot decide (sampling within
    /// its error of touching).
    fn oracle(a: &Body, b: &Body) -> Option<bool> {
        let (pa, pb) = (pieces(a), pieces(b));
        match (pa[0], pb[0]) {
            (Piece::Ball(s), Piece::Ball(t)) => Some(overlap::sphere_sphere(&s, &t)),
            (Piece::Ball(s), Piece::Cuboid(o)) | (Piece::Cuboid(o), Piece::Ball(s)) => {
                Some(overlap::sphere_obb(&s, &o))
            }
            (Piece::Cuboid(o), Piece::Cuboid(p)) => Some(overlap::obb_obb(&o, &p)),
            (Piece::Pill(c), Piece::Pill(d)) => Some(overlap::capsule_capsule(&c, &d)),
            (Piece::Pill(c), Piece::Ball(s)) | (Piece::Ball(s), Piece::Pill(c)) => {
                Some(overlap::capsule_sphere(&c, &s))
            }
            (Piece::Pill(c), Piece::Cuboid(o)) | (Piece::Cuboid(o), Piece::Pill(c)) => {
                const N: usize = 400;
                let min = (0..=N)
                    .map(|i| {
                        let p = c.a.lerp(c.b, i as f32 / N as f32);
                        collide::closest::distance_squared_point_obb(p, &o).sqrt()
                    })
                    .fold(f32::MAX, f32::min);
                // The true distance is within half a sample step below the sampled minimum.
                let err = 0.5 * (c.b - c.a).length() / N as f32 + 1e-4;
                if min <= c.radius {
                    Some(true)
                } else if min - err > c.radius {
                    Some(false)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Points on the surface of a primitive piece, by its own geometry (not its support).
    fn surface_samples(p: &Piece<'_>) -> Vec<Vec3> {
        let dirs: Vec<Vec3> = (0..200)
            .map(|i| {
                // A Fibonacci sphere of directions.
                let z = 1.0 - 2.0 * (i as f32 + 0.5) / 200.0;
                let t = i as f32 * 2.399_963;
                let r = (1.0 - z * z).sqrt();
                Vec3::new(r * t.cos(), r * t.sin(), z)
            })
            .collect();
        match p {
            Piece::Ball(s) => dirs.iter().map(|&d| s.center + d * s.radius).collect(),
            Piece::Cuboid(o) => o.corners().to_vec(),
            Piece::Pill(c) => dirs
                .iter()
                .flat_map(|&d| [c.a + d * c.radius, c.b + d * c.radius])
                .collect(),
            Piece::Hull(h) => h.shape.0.iter().map(|&v| h.to_world(v)).collect(),
        }
    }

    // Two unit spheres 1.5 apart on x: depth 0.5, normal +x, one contact point between them.
    #[test]
    fn sphere_contact_analytic() {
        let (a, b) = (
            sphere(1.0, Vec3::ZERO),
            sphere(1.0, Vec3::new(1.5, 0.0, 0.0)),
        );
        let e = exact(&a, &b);
        let c = e.contact.expect("overlapping");
        collide::assert_near!(c.normal, Vec3::X, 1e-4);
        collide::assert_near!(c.depth, 0.5, 1e-4);
        assert_eq!(c.points.len(), 1);
        collide::assert_near!(c.points[0], Vec3::new(0.75, 0.0, 0.0), 1e-3);
        assert!(e.separating_plane.is_none());
    }

    // Spheres 3 apart: the plane x = 1.5 separates them, A on its negative side.
    #[test]
    fn sphere_plane_analytic() {
        let (a, b) = (
            sphere(1.0, Vec3::ZERO),
            sphere(1.0, Vec3::new(3.0, 0.0, 0.0)),
        );
        let e = exact(&a, &b);
        assert!(e.contact.is_none());
        let p = e.separating_plane.expect("a plane");
        collide::assert_near!(p.normal, Vec3::X, 1e-4);
        collide::assert_near!(p.signed_distance(Vec3::new(1.5, 0.0, 0.0)), 0.0, 1e-4);
    }

    // Exactly touching spheres count as colliding (depth 0).
    #[test]
    fn touching_counts() {
        let (a, b) = (
            sphere(1.0, Vec3::ZERO),
            sphere(1.0, Vec3::new(2.0, 0.0, 0.0)),
        );
        let c = exact(&a, &b).contact.expect("touching is a contact");
        assert!(c.depth.abs() < 1e-4);
    }

    // Oracle: over 3000 random primitive pairs, the GJK/EPA verdict agrees with the
    // library's analytic/SAT tests (or dense sampling); every separating plane separates the
    // shapes' own surface samples; moving B by the reported depth along the normal (plus a
    // hair) separates the pair, and by 80% of it does not.
    #[test]
    fn random_pairs_agree_with_oracles() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut hits, mut planes, mut undecided) = (0, 0, 0);
        for case in 0..3000 {
            let (a, b) = (random_body(&mut rng), random_body(&mut rng));
            let e = exact(&a, &b);
            let Some(want) = oracle(&a, &b) else {
                undecided += 1;
                continue;
            };
            let got = e.contact.is_some();
            if got != want {
                // Allowed only at touching, within the library's tolerance.
                let d = gjk::distance(&pieces(&a)[0], &pieces(&b)[0]).distance;
                assert!(d < 1e-4, "case {case}: exact {got}, oracle {want}, gap {d}");
                continue;
            }
            if let Some(c) = &e.contact {
                hits += 1;
                let unit = (c.normal.length() - 1.0).abs() < 1e-4;
                assert!(unit, "case {case}: normal {}", c.normal);
                assert!(c.depth >= 0.0);
                let mut moved = b.clone();
                moved.position = b.position + c.normal * (c.depth * 1.01 + 2e-3);
                if oracle(&a, &moved) == Some(true) {
                    panic!(
                        "case {case}: moving B by depth {} along {} leaves it overlapping",
                        c.depth, c.normal
                    );
                }
                if c.depth > 0.05 {
                    let mut part = b.clone();
                    part.position = b.position + c.normal * (c.depth * 0.8);
                    assert_ne!(
                        oracle(&a, &part),
                        Some(false),
                        "case {case}: depth {} too large",
                        c.depth
                    );
                }
            } else {
                let p = e
                    .separating_plane
                    .expect("separated convex pieces have a plane");
                planes += 1;
                let tol = 1e-3;
                for s in surface_samples(&pieces(&a)[0]) {
                    assert!(
                        p.signed_distance(s) <= tol,
                        "case {case}: A sample on + side"
                    );
                }
                for s in surface_samples(&pieces(&b)[0]) {
                    assert!(
                        p.signed_distance(s) >= -tol,
                        "case {case}: B sample on - side"
                    );
                }
            }
        }
        assert!(hits > 300 && planes > 300, "hits {hits}, planes {planes}");
        assert!(undecided < 30, "undecided {undecided}");
    }

    // Oracle: conservative advancement against the library's exact sweeps for moving
    // sphere and box pairs: same verdict, same time of first contact.
    #[test]
    fn advancement_agrees_with_sweeps() {
        let mut rng = ChaCha8Rng::seed_from_u64(88);
        let mut compared = 0;
        for case in 0..4000 {
            let mut a = random_body(&mut rng);
            let mut b = random_body(&mut rng);
            if matches!(a.geometry, Geometry::Capsule { .. })
                || matches!(b.geometry, Geometry::Capsule { .. })
            {
                continue;
            }
            // Start them apart along x and send them at each other (sometimes missing).
            a.position.x -= 3.0;
            b.position.x += 3.0;
            a.velocity = Vec3::new(rng.random_range(0.0..4.0), rng.random_range(-2.0..2.0), 0.0);
            b.velocity = Vec3::new(
                rng.random_range(-4.0..0.0),
                0.0,
                rng.random_range(-2.0..2.0),
            );
            let exact_sweep = impact(&a, &b);
            let (pa, pb) = (pieces(&a), pieces(&b));
            let ca =
                collide::sweep::convex(&pa[0], a.velocity, &pb[0], b.velocity).map(|w| Impact {
                    toi: w.enter,
                    normal: w.normal,
                    point: w.point,
                });
            match (exact_sweep, ca) {
                (Some(s), Some(c)) => {
                    compared += 1;
                    // Advancement stops within a 1e-5-relative gap, a little before contact.
                    assert!(
                        c.toi <= s.toi + 1e-3,
                        "case {case}: CA {} after sweep {}",
                        c.toi,
                        s.toi
                    );
                    assert!(
                        s.toi - c.toi < 2e-3,
                        "case {case}: CA {} vs sweep {}",
                        c.toi,
                        s.toi
                    );
                }
                (None, None) => {}
                (s, c) => {
                    // Only a graze can split them: check the closest approach is a touch.
                    let t = s.map(|i| i.toi).or(c.map(|i| i.toi)).unwrap_or(0.0);
                    let pa = pieces(&a)[0].translated(a.velocity * t);
                    let pb = pieces(&b)[0].translated(b.velocity * t);
                    let d = gjk::distance(&pa, &pb).distance;
                    assert!(d < 2e-3, "case {case}: sweep {s:?} vs CA {c:?}, gap {d}");
                }
            }
        }
        assert!(compared > 250, "compared {compared}");
    }
}
