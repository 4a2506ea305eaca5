//! One-shot evaluation of the world's pairs at the bodies' current poses: contact, separation
//! and time of impact, without running a frame (no events, caches or statistics change).
//! For tools that show or check a scene rather than simulate it (`collide check`, `render`,
//! `view`); it runs the same narrow phase as [`World::update`] ([`super::narrow`]).

use super::body::Body;
use super::narrow::{self, Part};
use super::pair::{self, PairCache, Placed};
use super::{BodyId, Impact, Manifold, QueryCounts, World, WorldError};
use crate::broadphase::{BroadPhase, SweepAndPrune};
use crate::convex::SupportMap;
use crate::math::Vec3;
use crate::shapes::{Aabb, Plane};

/// How two bodies that do not touch stand apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// Distance between the closest points, `> 0`.
    pub distance: f32,
    /// The point of A closest to B (world frame).
    pub point_a: Vec3,
    /// The point of B closest to A (`point_b - point_a` has length `distance`).
    pub point_b: Vec3,
    /// The plane halfway between the closest points, unit normal from A toward B, with all of
    /// A on its negative side and all of B on its positive side (within
    /// `1e-4 · distance + 1e-6`); `None` when no such plane exists, which only a body of
    /// several pieces can cause (its pieces on both sides of the other body).
    pub plane: Option<Plane>,
}

/// The verdict on one pair of bodies: touching now, or how far apart; and when they first
/// touch while moving.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairVerdict {
    /// The smaller body id.
    pub a: BodyId,
    /// The larger body id.
    pub b: BodyId,
    /// The bodies' world boxes (fast or tight, as each body asked) touch at the current poses.
    pub boxes_touch: bool,
    /// The contact at the current poses (touching counts, depth 0), from the narrow phase that
    /// [`World::update`] runs: normal from `a` toward `b`, depth, points. For two polyhedra
    /// (boxes, hulls, pieces) a face normal is kept over a better axis within 5 % of the
    /// depth ([`crate::convex::contact_manifold`]), so the depth can exceed the minimum
    /// translation by that much.
    pub contact: Option<Manifold>,
    /// When apart: the closest points and a separating plane. `None` when `contact` is
    /// `Some`, and in the rare case where the exact test finds the bodies apart but GJK finds
    /// them within its tolerance (touching).
    pub separation: Option<Separation>,
    /// When either body moves (linear velocity × `dt`): the first contact along the motion,
    /// `toi` in `[0, 1]` of it (`0` when touching at the start). The bodies translate with
    /// their current orientation (as in [`World::update`]'s sweeps).
    pub impact: Option<Impact>,
}

impl World {
    /// Evaluates every pair of bodies whose boxes touch at their current poses or along their
    /// motion over `dt` seconds (each body's box swept by its linear velocity × `dt`), sorted
    /// by `(a, b)`; collision groups are respected. Other pairs are apart and moving apart:
    /// they get no verdict.
    ///
    /// A NaN, infinite or negative `dt` moves nothing (no impacts, boxes at the current
    /// poses). A body whose swept box overflows is tested at its current pose only; one whose
    /// box at its current pose is not finite (a pose near `±f32::MAX` after a move) is in no
    /// pair. The world itself is not changed: contacts, events, caches and statistics of the
    /// last [`World::update`] stay as they were.
    #[must_use]
    pub fn evaluate(&self, dt: f32) -> Vec<PairVerdict> {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        // The library's sweep and prune, fresh, on the swept boxes.
        let mut sap = SweepAndPrune::new();
        let mut body_of = Vec::new();
        for (id, b) in self.bodies.iter().enumerate() {
            let Some(b) = b else { continue };
            let now = b.world_box(b.position, b.rotation);
            let m = motion(b, dt);
            let swept = now.union(&Aabb {
                min: now.min + m,
                max: now.max + m,
            });
            let inserted = sap
                .insert(swept, b.groups)
                .or_else(|_| sap.insert(now, b.groups));
            if let Ok(proxy) = inserted {
                if body_of.len() <= proxy as usize {
                    body_of.resize(proxy as usize + 1, u32::MAX);
                }
                body_of[proxy as usize] = id as u32;
            }
        }
        let mut proxies = Vec::new();
        sap.update_pairs(&mut proxies);
        let mut pairs: Vec<(u32, u32)> = proxies
            .iter()
            .map(|&(p, q)| {
                let (a, b) = (body_of[p as usize], body_of[q as usize]);
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        crate::par::filter_map(&pairs, |&(a, b)| {
            let (ba, bb) = (
                self.bodies[a as usize].as_ref()?,
                self.bodies[b as usize].as_ref()?,
            );
            Some(verdict(BodyId(a), ba, BodyId(b), bb, dt))
        })
    }

    /// The verdict on one pair whatever their boxes (see [`World::evaluate`]); `a` and `b` may
    /// come in either order (the verdict has the smaller id as `a`). The same body twice, or
    /// collision groups that exclude the pair, still get a verdict: this asks the geometry.
    ///
    /// Errors: [`WorldError::UnknownBody`] for an id with no body.
    pub fn evaluate_pair(&self, a: BodyId, b: BodyId, dt: f32) -> Result<PairVerdict, WorldError> {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        let (a, b) = (a.min(b), a.max(b));
        let (ba, bb) = (self.body(a)?, self.body(b)?);
        Ok(verdict(a, ba, b, bb, dt))
    }
}

/// A body's translation over `dt`: zero for a fixed body (it never moves) or when it
/// overflows.
fn motion(b: &Body, dt: f32) -> Vec3 {
    if b.fixed {
        return Vec3::ZERO;
    }
    let m = b.linear_velocity * dt;
    if m.is_finite() {
        m
    } else {
        Vec3::ZERO
    }
}

/// Contact, separation and impact of two bodies at their current poses.
fn verdict(a: BodyId, ba: &Body, b: BodyId, bb: &Body, dt: f32) -> PairVerdict {
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    ba.parts(ba.position, ba.rotation, &mut pa);
    bb.parts(bb.position, bb.rotation, &mut pb);
    let boxes_touch = crate::overlap::aabb_aabb(
        &ba.world_box(ba.position, ba.rotation),
        &bb.world_box(bb.position, bb.rotation),
    );
    let contact = pair::contact(
        Placed::now(ba),
        Placed::now(bb),
        &mut PairCache::default(),
        &mut QueryCounts::default(),
    )
    .map(Manifold::finite);
    let separation = if contact.is_some() {
        None
    } else {
        separation(&pa, &pb)
    };
    let (ma, mb) = (motion(ba, dt), motion(bb, dt));
    let impact = if ma == Vec3::ZERO && mb == Vec3::ZERO {
        None
    } else {
        pair::impact(Placed::now(ba), ma, Placed::now(bb), mb)
    };
    PairVerdict {
        a,
        b,
        boxes_touch,
        contact,
        separation,
        impact,
    }
}

/// The closest part pair's points (GJK), and the plane halfway between them when it
/// separates every part; `None` when some part pair touches or no part pair is finite.
fn separation(pa: &[(Part, Aabb)], pb: &[(Part, Aabb)]) -> Option<Separation> {
    let mut best: Option<crate::convex::gjk::GjkResult> = None;
    for (x, _) in pa {
        for (y, _) in pb {
            let Some(r) = narrow::distance(x, y) else {
                continue;
            };
            if r.intersecting {
                return None;
            }
            if best.is_none_or(|b| r.distance < b.distance) {
                best = Some(r);
            }
        }
    }
    let r = best?;
    let mid = 0.5 * (r.point_a + r.point_b);
    let plane = Plane::try_from_point_normal(mid, r.normal).filter(|plane| {
        // Every part of A on the negative side and every part of B on the positive side:
        // A's farthest point along n, and B's farthest along -n, within a tolerance relative
        // to the gap.
        let tol = 1e-4 * r.distance.max(1e-6) + 1e-6;
        let a_ok = pa
            .iter()
            .all(|(x, _)| plane.signed_distance(x.support(plane.normal)) <= tol);
        let b_ok = pb
            .iter()
            .all(|(y, _)| plane.signed_distance(y.support(-plane.normal)) >= -tol);
        a_ok && b_ok
    });
    Some(Separation {
        distance: r.distance,
        point_a: r.point_a,
        point_b: r.point_b,
        plane,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;
    use crate::broadphase::CollisionGroups;
    use crate::convex::ConvexHull;
    use crate::math::Quat;
    use crate::world::{BodyDesc, Geometry, WorldConfig};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    fn world(bodies: Vec<BodyDesc>) -> (World, Vec<BodyId>) {
        let mut w = World::default();
        let ids = bodies.into_iter().map(|b| w.add_body(b).unwrap()).collect();
        (w, ids)
    }

    fn cube_piece(center: Vec3) -> Arc<ConvexHull> {
        let pts: Vec<Vec3> = (0..8)
            .map(|i| {
                center
                    + Vec3::new(
                        if i & 1 == 0 { -0.5 } else { 0.5 },
                        if i & 2 == 0 { -0.5 } else { 0.5 },
                        if i & 4 == 0 { -0.5 } else { 0.5 },
                    )
            })
            .collect();
        Arc::new(ConvexHull::try_new(&pts).unwrap())
    }

    // Two unit spheres 1.5 apart: contact (normal +x, depth 0.5), no separation, no impact.
    #[test]
    fn overlapping_spheres_give_a_contact() {
        let (w, ids) = world(vec![
            BodyDesc::new(Geometry::Sphere(1.0)),
            BodyDesc::new(Geometry::Sphere(1.0)).at(Vec3::new(1.5, 0.0, 0.0)),
        ]);
        let v = w.evaluate(1.0);
        assert_eq!(v.len(), 1);
        let p = v[0];
        assert_eq!((p.a, p.b), (ids[0], ids[1]));
        assert!(p.boxes_touch);
        let c = p.contact.unwrap();
        assert_near!(c.normal, Vec3::X, 1e-6);
        assert_near!(c.depth, 0.5, 1e-6);
        assert!(p.separation.is_none() && p.impact.is_none());
    }

    // Touching counts: unit cubes face to face give a contact of depth 0.
    #[test]
    fn touching_is_a_contact() {
        let (w, _) = world(vec![
            BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))),
            BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))).at(Vec3::new(1.0, 0.0, 0.0)),
        ]);
        let c = w.evaluate(0.0)[0].contact.unwrap();
        assert_near!(c.depth, 0.0, 1e-5);
        assert_near!(c.normal, Vec3::X, 1e-5);
    }

    // A cube and a sphere whose boxes overlap but which are apart: the closest points, and
    // the plane halfway between them with the cube below and the sphere above.
    #[test]
    fn apart_pair_gets_separation_and_plane() {
        let (w, _) = world(vec![
            BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))),
            BodyDesc::new(Geometry::Sphere(0.5)).at(Vec3::new(0.9, 0.9, 0.0)),
        ]);
        let v = w.evaluate(1.0);
        assert_eq!(v.len(), 1);
        assert!(v[0].boxes_touch && v[0].contact.is_none());
        let s = v[0].separation.unwrap();
        // The sphere's centre is (0.4, 0.4) beyond the cube's edge: distance 0.4·√2 − 0.5.
        assert_near!(s.distance, 0.4 * 2f32.sqrt() - 0.5, 1e-5);
        assert_near!(s.point_a, Vec3::new(0.5, 0.5, 0.0), 1e-5);
        let plane = s.plane.unwrap();
        assert_near!(plane.normal, Vec3::new(1.0, 1.0, 0.0).normalize(), 1e-5);
        assert!(plane.signed_distance(Vec3::new(0.5, 0.5, 0.5)) <= 1e-5);
        assert!(plane.signed_distance(Vec3::new(0.9, 0.9, 0.0)) >= 0.5 - 1e-5);
    }

    // A body of two pieces on either side of a sphere: the closest points exist, but no one
    // plane puts both pieces on one side.
    #[test]
    fn pieces_around_a_body_have_no_plane() {
        let (w, ids) = world(vec![
            BodyDesc::new(Geometry::Pieces(vec![
                cube_piece(Vec3::new(-2.0, 0.0, 0.0)),
                cube_piece(Vec3::new(2.5, 0.0, 0.0)),
            ])),
            BodyDesc::new(Geometry::Sphere(0.5)),
        ]);
        let v = w.evaluate_pair(ids[1], ids[0], 0.0).unwrap();
        assert_eq!((v.a, v.b), (ids[0], ids[1]));
        let s = v.separation.unwrap();
        assert_near!(s.distance, 1.0, 1e-5);
        assert_near!(s.point_a, Vec3::new(-1.5, 0.0, 0.0), 1e-5);
        assert!(s.plane.is_none());
    }

    // Moving bodies: a sphere thrown at a box far away meets it at t = 0.5; without a dt it
    // is not even a pair; moving away it is no impact; groups that exclude it, no pair.
    #[test]
    fn impacts_along_the_motion() {
        let (w, ids) = world(vec![
            BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))),
            BodyDesc::new(Geometry::Sphere(0.5))
                .at(Vec3::new(-5.0, 0.0, 0.0))
                .moving(Vec3::new(4.0, 0.0, 0.0)),
        ]);
        let v = w.evaluate(2.0);
        assert_eq!(v.len(), 1);
        assert!(!v[0].boxes_touch && v[0].contact.is_none());
        let i = v[0].impact.unwrap();
        // Surfaces 5 − 0.5 − 0.5 = 4 apart, motion 8: first contact at t = 0.5.
        assert_near!(i.toi, 0.5, 1e-5);
        assert_near!(i.normal, -Vec3::X, 1e-5);
        assert!(w.evaluate(0.9).is_empty(), "a motion of 3.6 falls short");
        for dt in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(w.evaluate(dt).is_empty(), "dt {dt}");
            assert!(w
                .evaluate_pair(ids[0], ids[1], dt)
                .unwrap()
                .impact
                .is_none());
        }
        let (w, _) = world(vec![
            BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))).groups(CollisionGroups::new(1, 1)),
            BodyDesc::new(Geometry::Sphere(0.5))
                .at(Vec3::new(-5.0, 0.0, 0.0))
                .moving(Vec3::new(4.0, 0.0, 0.0))
                .groups(CollisionGroups::new(2, 2)),
        ]);
        assert!(w.evaluate(2.0).is_empty());
    }

    // Moving deeper while overlapping at the start: impact at t = 0 beside the contact; moving
    // along the contact or away: the contact, no impact (the sweeps' starting-touch rule).
    #[test]
    fn moving_while_touching_meets_at_zero() {
        let pair = |v: Vec3| {
            let (w, _) = world(vec![
                BodyDesc::new(Geometry::Sphere(1.0)),
                BodyDesc::new(Geometry::Sphere(1.0))
                    .at(Vec3::new(1.5, 0.0, 0.0))
                    .moving(v),
            ]);
            w.evaluate(1.0)[0]
        };
        let v = pair(Vec3::new(-0.5, 1.0, 0.0));
        assert!(v.contact.is_some());
        assert_eq!(v.impact.unwrap().toi, 0.0);
        for m in [Vec3::Y, Vec3::X] {
            let v = pair(m);
            assert!(v.contact.is_some() && v.impact.is_none(), "{m}: {v:?}");
        }
    }

    // Unknown ids are errors; evaluating changes nothing the last update reported.
    #[test]
    fn unknown_ids_and_no_side_effects() {
        let (mut w, ids) = world(vec![
            BodyDesc::new(Geometry::Sphere(1.0)),
            BodyDesc::new(Geometry::Sphere(1.0)).at(Vec3::new(1.5, 0.0, 0.0)),
        ]);
        assert_eq!(
            w.evaluate_pair(ids[0], BodyId(7), 1.0),
            Err(WorldError::UnknownBody(BodyId(7)))
        );
        w.update();
        let (contacts, events) = (w.contacts().to_vec(), w.events().to_vec());
        let _ = w.evaluate(1.0);
        assert_eq!((w.contacts(), w.events()), (&contacts[..], &events[..]));
    }

    // Oracle: for bodies at rest in random poses (spheres, boxes, capsules, hulls, pieces),
    // the pairs `evaluate` finds in contact are the contacts `update` reports, with the same
    // manifolds; every other verdict is separated with a positive distance.
    #[test]
    fn evaluate_agrees_with_update_at_rest() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let hull = cube_piece(Vec3::ZERO);
        let (mut contacts, mut apart) = (0, 0);
        for _ in 0..20 {
            let mut w = World::new(WorldConfig::default());
            for i in 0..40 {
                let g = match i % 5 {
                    0 => Geometry::Sphere(rng.random_range(0.2..0.8)),
                    1 => Geometry::Cuboid(Vec3::new(0.5, rng.random_range(0.1..0.7), 0.3)),
                    2 => Geometry::Capsule {
                        half_height: 0.5,
                        radius: 0.2,
                    },
                    3 => Geometry::Hull(hull.clone()),
                    _ => Geometry::Pieces(vec![
                        cube_piece(Vec3::new(-0.6, 0.0, 0.0)),
                        cube_piece(Vec3::new(0.6, 0.0, 0.0)),
                    ]),
                };
                let p = Vec3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                );
                let q = Quat::from_rotation_y(rng.random_range(0.0..6.0))
                    * Quat::from_rotation_x(rng.random_range(0.0..6.0));
                w.add_body(BodyDesc::new(g).at(p).rotated(q)).unwrap();
            }
            w.update();
            let got: Vec<_> = w
                .evaluate(1.0)
                .into_iter()
                .filter_map(|v| {
                    if v.contact.is_none() {
                        apart += 1;
                        assert!(v.separation.is_none_or(|s| s.distance > 0.0));
                    }
                    v.contact.map(|c| (v.a, v.b, c))
                })
                .collect();
            let want: Vec<_> = w
                .contacts()
                .iter()
                .map(|c| (c.a, c.b, c.manifold))
                .collect();
            contacts += want.len();
            assert_eq!(got, want);
        }
        assert!(
            contacts > 50 && apart > 50,
            "{contacts} contacts, {apart} apart"
        );
    }

    /// A primitive in world space, for the oracle below.
    #[derive(Clone, Copy)]
    enum Prim {
        Ball(crate::shapes::Sphere),
        Cuboid(crate::shapes::Obb),
        Pill(crate::shapes::Capsule),
    }

    fn prim(d: &BodyDesc) -> Prim {
        use crate::shapes::{Capsule, Obb, Sphere};
        let (p, q) = (d.position, d.rotation);
        match d.geometry {
            Geometry::Sphere(r) => Prim::Ball(Sphere::new(p, r)),
            Geometry::Cuboid(h) => Prim::Cuboid(Obb::new(p, q, h)),
            Geometry::Capsule {
                half_height,
                radius,
            } => {
                let h = q * Vec3::new(0.0, half_height, 0.0);
                Prim::Pill(Capsule::new(p - h, p + h, radius))
            }
            _ => unreachable!("primitives only"),
        }
    }

    /// The independent answer: the library's analytic and SAT overlap tests, or dense
    /// sampling of a capsule's segment against a box; `None` when sampling cannot decide.
    fn oracle(a: &BodyDesc, b: &BodyDesc) -> Option<bool> {
        use crate::overlap as o;
        match (prim(a), prim(b)) {
            (Prim::Ball(s), Prim::Ball(t)) => Some(o::sphere_sphere(&s, &t)),
            (Prim::Ball(s), Prim::Cuboid(x)) | (Prim::Cuboid(x), Prim::Ball(s)) => {
                Some(o::sphere_obb(&s, &x))
            }
            (Prim::Cuboid(x), Prim::Cuboid(y)) => Some(o::obb_obb(&x, &y)),
            (Prim::Pill(c), Prim::Pill(d)) => Some(o::capsule_capsule(&c, &d)),
            (Prim::Pill(c), Prim::Ball(s)) | (Prim::Ball(s), Prim::Pill(c)) => {
                Some(o::capsule_sphere(&c, &s))
            }
            (Prim::Pill(c), Prim::Cuboid(x)) | (Prim::Cuboid(x), Prim::Pill(c)) => {
                const N: usize = 400;
                let min = (0..=N)
                    .map(|i| {
                        let p = c.a.lerp(c.b, i as f32 / N as f32);
                        crate::closest::distance_squared_point_obb(p, &x).sqrt()
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
        }
    }

    /// Points on a primitive's surface, by its own geometry (not its support function).
    fn surface_samples(p: Prim) -> Vec<Vec3> {
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
            Prim::Ball(s) => dirs.iter().map(|&d| s.center + d * s.radius).collect(),
            Prim::Cuboid(o) => o.corners().to_vec(),
            Prim::Pill(c) => dirs
                .iter()
                .flat_map(|&d| [c.a + d * c.radius, c.b + d * c.radius])
                .collect(),
        }
    }

    fn pair_verdict(a: &BodyDesc, b: &BodyDesc) -> PairVerdict {
        let (w, ids) = world(vec![a.clone(), b.clone()]);
        w.evaluate_pair(ids[0], ids[1], 0.0).unwrap()
    }

    // Oracle: over
    // 3000 random primitive pairs, the world's contact agrees with the analytic/SAT tests (or
    // dense sampling); every separating plane separates the shapes' own surface samples;
    // moving B by the reported depth along the normal (plus a hair) separates the pair, and
    // by 80 % of it does not.
    #[test]
    fn random_primitive_pairs_agree_with_oracles() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let random_body = |rng: &mut ChaCha8Rng| {
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
            let g = match rng.random_range(0..3) {
                0 => Geometry::Sphere(rng.random_range(0.2..1.2)),
                1 => Geometry::Cuboid(Vec3::new(
                    rng.random_range(0.1..1.2),
                    rng.random_range(0.1..1.2),
                    rng.random_range(0.1..1.2),
                )),
                _ => Geometry::Capsule {
                    half_height: rng.random_range(0.0..1.0),
                    radius: rng.random_range(0.1..0.8),
                },
            };
            BodyDesc::new(g).at(p).rotated(q)
        };
        let (mut hits, mut planes, mut undecided) = (0, 0, 0);
        for case in 0..3000 {
            let (a, b) = (random_body(&mut rng), random_body(&mut rng));
            let v = pair_verdict(&a, &b);
            let Some(want) = oracle(&a, &b) else {
                undecided += 1;
                continue;
            };
            if v.contact.is_some() != want {
                // Allowed only at touching, within the library's tolerance.
                let gap = v.separation.map_or(0.0, |s| s.distance);
                assert!(gap < 1e-4, "case {case}: world {v:?}, oracle {want}");
                continue;
            }
            if let Some(c) = v.contact {
                hits += 1;
                assert!((c.normal.length() - 1.0).abs() < 1e-4, "case {case}");
                assert!(c.depth >= 0.0);
                let moved = b
                    .clone()
                    .at(b.position + c.normal * (c.depth * 1.01 + 2e-3));
                assert_ne!(
                    oracle(&a, &moved),
                    Some(true),
                    "case {case}: depth too small: {:?} {:?} {:?} {c:?}",
                    a.geometry,
                    (a.position, a.rotation),
                    (b.geometry, b.position, b.rotation)
                );
                if c.depth > 0.05 {
                    let part = b.clone().at(b.position + c.normal * (c.depth * 0.8));
                    assert_ne!(
                        oracle(&a, &part),
                        Some(false),
                        "case {case}: depth too large"
                    );
                }
            } else {
                let s = v
                    .separation
                    .expect("separated primitives have a separation");
                let p = s.plane.expect("two convex bodies have a separating plane");
                planes += 1;
                for x in surface_samples(prim(&a)) {
                    assert!(p.signed_distance(x) <= 1e-3, "case {case}: A on the + side");
                }
                for x in surface_samples(prim(&b)) {
                    assert!(
                        p.signed_distance(x) >= -1e-3,
                        "case {case}: B on the - side"
                    );
                }
            }
        }
        assert!(hits > 300 && planes > 300, "hits {hits}, planes {planes}");
        assert!(undecided < 30, "undecided {undecided}");
    }

    // Oracle: for moving sphere and box pairs,
    // the world's impact (the exact sweeps) and conservative advancement on GJK distances
    // (`sweep::convex::first_contact`, what capsules and hulls get) give the same verdict and
    // the same time; where one grazes and the other misses, the closest approach touches.
    #[test]
    fn exact_sweep_impacts_agree_with_advancement() {
        let mut rng = ChaCha8Rng::seed_from_u64(88);
        let mut compared = 0;
        for case in 0..4000 {
            let body = |rng: &mut ChaCha8Rng, x: f32, v: Vec3| {
                let p = Vec3::new(
                    x + rng.random_range(-1.5..1.5),
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
                let g = if rng.random_range(0..2) == 0 {
                    Geometry::Sphere(rng.random_range(0.2..1.2))
                } else {
                    Geometry::Cuboid(Vec3::new(
                        rng.random_range(0.1..1.2),
                        rng.random_range(0.1..1.2),
                        rng.random_range(0.1..1.2),
                    ))
                };
                BodyDesc::new(g).at(p).rotated(q).moving(v)
            };
            // Apart along x and sent at each other (sometimes missing).
            let va = Vec3::new(rng.random_range(0.0..4.0), rng.random_range(-2.0..2.0), 0.0);
            let vb = Vec3::new(
                rng.random_range(-4.0..0.0),
                0.0,
                rng.random_range(-2.0..2.0),
            );
            let (a, b) = (body(&mut rng, -3.0, va), body(&mut rng, 3.0, vb));
            let (w, ids) = world(vec![a.clone(), b.clone()]);
            let exact = w.evaluate_pair(ids[0], ids[1], 1.0).unwrap().impact;
            let (mut pa, mut pb) = (Vec::new(), Vec::new());
            let (ba, bb) = (w.body(ids[0]).unwrap(), w.body(ids[1]).unwrap());
            ba.parts(ba.position, ba.rotation, &mut pa);
            bb.parts(bb.position, bb.rotation, &mut pb);
            let ca = crate::sweep::convex::first_contact(&pa[0].0, va, &pb[0].0, vb);
            match (exact, ca) {
                (Some(s), Some(c)) => {
                    compared += 1;
                    // Advancement stops within a small gap, a little before contact.
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
                    // Only a graze can split them: the closest approach is a touch.
                    let t = s.map(|i| i.toi).or(c.map(|i| i.toi)).unwrap_or(0.0);
                    let moved = pair_verdict(
                        &a.clone().at(a.position + va * t),
                        &b.clone().at(b.position + vb * t),
                    );
                    let gap = moved.separation.map_or(0.0, |s| s.distance);
                    assert!(
                        gap < 2e-3,
                        "case {case}: sweep {s:?} vs CA {c:?}, gap {gap}"
                    );
                }
            }
        }
        assert!(compared > 250, "compared {compared}");
    }
}
