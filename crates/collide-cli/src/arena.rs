//! The demo's arena: a few thousand bodies of the real meshes (built into the binary) and
//! primitives, tumbling in a box with a few fast projectiles. This module makes the scene and
//! moves it; the collision pipeline that runs on it lives with the `demo` command.

use collide::io::scene::{BodyDesc, BoundingChoice, ConvexMode, ShapeDesc, TestChoice};
use collide::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::scene_eval::{Body, MeshCache, World};
use crate::CliError;

/// Meshes built into the binary: name, OBJ text, how it becomes convex, scale, origin.
const MESHES: [(&str, &str, ConvexMode, f32, [f32; 3]); 3] = [
    (
        "bunny",
        include_str!("../../../assets/meshes/bunny.obj"),
        ConvexMode::Hull,
        0.55,
        [0.0, 0.0, 0.0],
    ),
    (
        "duck",
        include_str!("../../../assets/meshes/duck_vhacd.obj"),
        ConvexMode::Pieces,
        0.6,
        [-0.14, 0.87, 0.04],
    ),
    (
        "teddy",
        include_str!("../../../assets/meshes/teddy2_VHACD_CHs.obj"),
        ConvexMode::Pieces,
        1.1,
        [0.68, 0.66, 0.32],
    ),
];

/// The kinds of body, in the order prototypes are built.
const KINDS: [&str; 7] = [
    "bunny",
    "duck",
    "teddy",
    "box",
    "sphere",
    "capsule",
    "projectile",
];

/// A running arena: the bodies (poses and velocities live in them), their spin, the walls.
pub struct Arena {
    /// The bodies, as the scene evaluation sees them.
    pub world: World,
    /// Angular velocity of each body, radians per frame about a world axis.
    pub spin: Vec<Vec3>,
    /// Index into [`KINDS`] of each body.
    pub kind: Vec<usize>,
    /// Half the arena's side: walls at `±half` on every axis.
    pub half: f32,
}

/// How many of each kind in `n` bodies: projectiles about 1 %, at least 2 (when n allows).
fn mix(n: usize) -> Vec<usize> {
    let projectiles = (n / 100).max(2).min(n / 2);
    let rest = n - projectiles;
    // bunny, duck, teddy, box, sphere, capsule in shares 3:2:2:3:3:2 of 15.
    let shares = [3, 2, 2, 3, 3, 2];
    let mut counts: Vec<usize> = shares.iter().map(|s| rest * s / 15).collect();
    let assigned: usize = counts.iter().sum();
    counts[4] += rest - assigned; // the remainder become spheres
    counts.push(projectiles);
    counts
}

impl Arena {
    /// `n` bodies (2 to 20 000) at random in an arena sized for about one body per 10 unit³,
    /// with random velocities and spins; the seed makes it the same on every machine.
    pub fn new(n: usize, seed: u64) -> Result<Arena, CliError> {
        if !(2..=20_000).contains(&n) {
            return Err(CliError::new(format!(
                "--bodies must be between 2 and 20000 (got {n})"
            )));
        }
        let prototypes = prototypes()?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // About one body per 10 unit³: busy enough that many boxes overlap every frame.
        let half = 0.5 * (10.0 * n as f32).cbrt().max(4.0);
        let mut bodies = Vec::with_capacity(n);
        let (mut spin, mut kind) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (k, count) in mix(n).into_iter().enumerate() {
            for _ in 0..count {
                let mut b = prototypes[k].clone();
                b.name = format!("{}{}", KINDS[k], bodies.len());
                let r = b.rest_sphere.radius;
                let room = (half - r).max(0.0);
                b.position = Vec3::new(
                    rng.random_range(-room..=room),
                    rng.random_range(-room..=room),
                    rng.random_range(-room..=room),
                );
                b.rotation = random_rotation(&mut rng);
                let dir = random_unit(&mut rng);
                if KINDS[k] == "projectile" {
                    // Fast: a third of the arena per frame, many times its own size, so a
                    // test at the end of each frame alone would let it pass through bodies.
                    b.velocity = dir * (0.66 * half);
                    spin.push(Vec3::ZERO);
                } else {
                    b.velocity = dir * rng.random_range(0.02..0.12);
                    spin.push(random_unit(&mut rng) * rng.random_range(0.0..0.06));
                }
                kind.push(k);
                bodies.push(b);
            }
        }
        Ok(Arena {
            world: World { bodies },
            spin,
            kind,
            half,
        })
    }

    /// How many bodies of each kind, in kind order.
    pub fn kind_counts(&self) -> Vec<(&'static str, usize)> {
        KINDS
            .iter()
            .enumerate()
            .map(|(k, name)| (*name, self.kind.iter().filter(|&&x| x == k).count()))
            .collect()
    }

    /// `true` when body `i` is a projectile.
    pub fn is_projectile(&self, i: usize) -> bool {
        KINDS[self.kind[i]] == "projectile"
    }

    /// Ends the frame: every body moves by its velocity (or up to `stop[i]`, a fraction of
    /// the frame, when it hit something), turns by its spin, and bounces off the walls.
    pub fn advance(&mut self, stop: &[f32]) {
        let half = self.half;
        for (i, b) in self.world.bodies.iter_mut().enumerate() {
            let u = stop.get(i).copied().unwrap_or(1.0).clamp(0.0, 1.0);
            b.position += b.velocity * u;
            let w = self.spin[i];
            if w != Vec3::ZERO {
                b.rotation = (Quat::from_scaled_axis(w) * b.rotation).normalize();
            }
            // Walls: a body whose bounding sphere crosses a wall while moving out turns back.
            let r = b.rest_sphere.radius;
            let c = b.position + b.rotation * b.rest_sphere.center;
            for axis in 0..3 {
                if (c[axis] + r > half && b.velocity[axis] > 0.0)
                    || (c[axis] - r < -half && b.velocity[axis] < 0.0)
                {
                    b.velocity[axis] = -b.velocity[axis];
                }
            }
        }
    }
}

/// One body of each kind, built once (hulls and fitted volumes are the costly part).
fn prototypes() -> Result<Vec<Body>, CliError> {
    let base = std::path::Path::new("<built-in>");
    let mut cache = MeshCache::new();
    let mut out = Vec::new();
    for (name, text, convex, scale, origin) in MESHES {
        let file = format!("{name}.obj");
        let model =
            collide::io::load_obj_str(text, &file).map_err(|e| CliError::new(e.to_string()))?;
        cache.insert(base.join(&file), model);
        out.push(Body::from_desc(
            &desc(
                name,
                ShapeDesc::Mesh {
                    path: base.join(&file),
                    convex,
                    scale,
                    part: None,
                    origin: Vec3::from_array(origin),
                },
            ),
            &mut cache,
        )?);
    }
    let shapes = [
        (
            "box",
            ShapeDesc::Box {
                half_extents: Vec3::new(0.5, 0.3, 0.4),
            },
        ),
        ("sphere", ShapeDesc::Sphere { radius: 0.4 }),
        (
            "capsule",
            ShapeDesc::Capsule {
                half_height: 0.4,
                radius: 0.22,
            },
        ),
        ("projectile", ShapeDesc::Sphere { radius: 0.12 }),
    ];
    for (name, shape) in shapes {
        out.push(Body::from_desc(&desc(name, shape), &mut cache)?);
    }
    Ok(out)
}

fn desc(name: &str, shape: ShapeDesc) -> BodyDesc {
    BodyDesc {
        name: name.to_string(),
        shape,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        velocity: Vec3::ZERO,
        bounding: BoundingChoice::Aabb,
        test: TestChoice::Exact,
    }
}

/// A direction drawn uniformly on the sphere (normalised Gaussian-free: rejection in the cube).
fn random_unit(rng: &mut ChaCha8Rng) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let l2 = v.length_squared();
        if l2 > 1e-4 && l2 <= 1.0 {
            return v / l2.sqrt();
        }
    }
}

/// A rotation drawn uniformly (a uniform point on the unit 4-sphere, by rejection).
fn random_rotation(rng: &mut ChaCha8Rng) -> Quat {
    loop {
        let q = Quat::from_xyzw(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let l2 = q.length_squared();
        if l2 > 1e-4 && l2 <= 1.0 {
            return q / l2.sqrt();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The mix adds up, has every kind, and projectiles are a small share.
    #[test]
    fn mix_adds_up() {
        for n in [2, 3, 10, 100, 2000, 20_000] {
            let m = mix(n);
            assert_eq!(m.iter().sum::<usize>(), n, "n = {n}");
            assert_eq!(m.len(), KINDS.len());
        }
        let m = mix(2000);
        assert!(m.iter().all(|&c| c > 0));
        assert_eq!(m[6], 20);
    }

    // Same seed, same arena; bodies start inside the walls; they stay inside over frames.
    #[test]
    fn arena_is_seeded_and_bounded() {
        let a = Arena::new(300, 7).expect("arena");
        let b = Arena::new(300, 7).expect("arena");
        assert_eq!(a.world.bodies.len(), 300);
        for (x, y) in a.world.bodies.iter().zip(&b.world.bodies) {
            assert_eq!(
                (x.position, x.rotation, x.velocity),
                (y.position, y.rotation, y.velocity)
            );
        }
        let mut a = a;
        for _ in 0..200 {
            a.advance(&[]);
        }
        let slack = a
            .world
            .bodies
            .iter()
            .map(|b| b.velocity.length())
            .fold(0.0, f32::max)
            + 2.0;
        for b in &a.world.bodies {
            assert!(
                b.position.abs().max_element() < a.half + slack,
                "{}",
                b.name
            );
        }
        assert!(Arena::new(1, 0).is_err() && Arena::new(20_001, 0).is_err());
    }
}

/// What one frame of the pipeline saw, stage by stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct FrameStats {
    /// Pairs whose swept boxes overlap (the broad phase's output).
    pub broad_pairs: usize,
    /// Of those (slow pairs), pairs whose bounding spheres overlap.
    pub sphere_pairs: usize,
    /// Of those, pairs whose OBBs overlap (15-axis SAT).
    pub obb_pairs: usize,
    /// Of those, pairs the cached separating plane still separated (no GJK needed).
    pub cache_hits: usize,
    /// Pairs that reached the exact convex test (GJK/EPA).
    pub exact_tests: usize,
    /// Pairs swept because a projectile is in them.
    pub sweeps: usize,
    /// Pairs touching or penetrating now, plus projectiles hitting something within the frame.
    pub collisions: usize,
    /// Projectile hits found by the sweep that a test at the start and at the end of the
    /// frame would both have missed: the projectile would have passed through.
    pub tunnelling_prevented: usize,
}

/// The collision pipeline over an arena, with what it keeps from frame to frame: the
/// incremental sweep-and-prune and the separating plane of every separated pair.
pub struct Pipeline {
    sap: collide::broadphase::SweepAndPrune,
    ids: Vec<collide::broadphase::ProxyId>,
    body_of: std::collections::HashMap<collide::broadphase::ProxyId, usize>,
    planes: std::collections::HashMap<(usize, usize), collide::shapes::Plane>,
    /// The pairs found colliding in the last frame.
    last: Vec<(usize, usize)>,
}

/// The verdict on one pair in one frame.
enum PairOutcome {
    /// Rejected by a cheap test (`1` spheres, `2` OBBs) or separated by the cached plane.
    Apart { stage: u8 },
    /// Exact test: separated, with the plane to cache.
    Separated(Option<collide::shapes::Plane>),
    /// Exact test: touching or penetrating.
    Contact(crate::scene_eval::Contact),
    /// Sweep: first contact at `toi`; `tunnel` when start and end tests both miss it.
    Impact {
        hit: crate::scene_eval::Impact,
        tunnel: bool,
    },
    /// Sweep: no contact during the frame.
    Miss,
}

/// `true` when the plane has all of A on its negative side and all of B on its positive side:
/// one support point per piece (Lander 1999: last frame's separating plane usually still works).
fn plane_separates(plane: &collide::shapes::Plane, a: &Body, b: &Body) -> bool {
    use collide::convex::SupportMap;
    let n = plane.normal;
    crate::narrow::pieces(a)
        .iter()
        .all(|p| plane.signed_distance(p.support(n)) <= 0.0)
        && crate::narrow::pieces(b)
            .iter()
            .all(|p| plane.signed_distance(p.support(-n)) >= 0.0)
}

impl Pipeline {
    /// A pipeline for the arena's bodies.
    pub fn new(arena: &Arena) -> Result<Pipeline, CliError> {
        use collide::broadphase::{BroadPhase, CollisionGroups, SweepAndPrune};
        let mut sap = SweepAndPrune::new();
        let mut ids = Vec::with_capacity(arena.world.bodies.len());
        let mut body_of = std::collections::HashMap::new();
        for (i, b) in arena.world.bodies.iter().enumerate() {
            let id = sap
                .insert(swept_box(b), CollisionGroups::ALL)
                .map_err(|e| CliError::new(format!("body {}: {e:?}", b.name)))?;
            ids.push(id);
            body_of.insert(id, i);
        }
        Ok(Pipeline {
            sap,
            ids,
            body_of,
            planes: std::collections::HashMap::new(),
            last: Vec::new(),
        })
    }

    /// The pairs found colliding (touching, penetrating, or hit by a projectile) in the last
    /// frame run.
    pub fn last_collisions(&self) -> &[(usize, usize)] {
        &self.last
    }

    /// Runs one frame: finds every collision, responds to it, and moves the arena on.
    pub fn step(&mut self, arena: &mut Arena) -> FrameStats {
        use collide::broadphase::BroadPhase;
        use rayon::prelude::*;
        let bodies = &arena.world.bodies;
        // 1-2. Refresh each body's box (swept over its motion) and let the broad phase pair them.
        for (i, b) in bodies.iter().enumerate() {
            // A box can only be invalid for a non-finite pose, which the arena never makes;
            // such a body would keep its old box.
            let _ = self.sap.update(self.ids[i], swept_box(b));
        }
        let mut raw = Vec::new();
        self.sap.update_pairs(&mut raw);
        let mut pairs: Vec<(usize, usize)> = raw
            .iter()
            .filter_map(|(x, y)| {
                let (a, b) = (*self.body_of.get(x)?, *self.body_of.get(y)?);
                Some((a.min(b), a.max(b)))
            })
            .collect();
        pairs.sort_unstable();
        let vols: Vec<crate::scene_eval::Volumes> = bodies.iter().map(Body::volumes).collect();
        // 3-4. Each pair through the cheap tests, then the exact one; projectiles are swept.
        let planes = &self.planes;
        let outcomes: Vec<PairOutcome> = pairs
            .par_iter()
            .map(|&(a, b)| {
                let (ba, bb) = (&bodies[a], &bodies[b]);
                if arena.is_projectile(a) || arena.is_projectile(b) {
                    return sweep_pair(ba, &vols[a], bb, &vols[b]);
                }
                if !collide::overlap::sphere_sphere(&vols[a].sphere, &vols[b].sphere) {
                    return PairOutcome::Apart { stage: 1 };
                }
                if !collide::overlap::obb_obb(&vols[a].obb, &vols[b].obb) {
                    return PairOutcome::Apart { stage: 2 };
                }
                if let Some(p) = planes.get(&(a, b)) {
                    if plane_separates(p, ba, bb) {
                        return PairOutcome::Apart { stage: 3 };
                    }
                }
                let e = crate::narrow::exact(ba, bb);
                match e.contact {
                    Some(c) => PairOutcome::Contact(c),
                    None => PairOutcome::Separated(e.separating_plane),
                }
            })
            .collect();
        // 5. Tally, cache the planes, respond.
        let mut stats = FrameStats {
            broad_pairs: pairs.len(),
            ..FrameStats::default()
        };
        let n = bodies.len();
        let mut stop = vec![1.0f32; n];
        let mut push = vec![Vec3::ZERO; n];
        let mut new_vel: Vec<Vec3> = bodies.iter().map(|b| b.velocity).collect();
        self.last.clear();
        for (&(a, b), out) in pairs.iter().zip(outcomes) {
            match out {
                PairOutcome::Apart { stage } => {
                    stats.sphere_pairs += usize::from(stage >= 2);
                    stats.obb_pairs += usize::from(stage >= 3);
                    stats.cache_hits += usize::from(stage == 3);
                }
                PairOutcome::Separated(plane) => {
                    stats.sphere_pairs += 1;
                    stats.obb_pairs += 1;
                    stats.exact_tests += 1;
                    match plane {
                        Some(p) => self.planes.insert((a, b), p),
                        None => self.planes.remove(&(a, b)),
                    };
                }
                PairOutcome::Contact(c) => {
                    stats.sphere_pairs += 1;
                    stats.obb_pairs += 1;
                    stats.exact_tests += 1;
                    stats.collisions += 1;
                    self.last.push((a, b));
                    self.planes.remove(&(a, b));
                    // Equal masses, elastic along the normal: swap the normal components of
                    // the velocities when they approach; push the bodies half the depth apart.
                    let rel = (new_vel[b] - new_vel[a]).dot(c.normal);
                    if rel < 0.0 {
                        new_vel[a] += c.normal * rel;
                        new_vel[b] -= c.normal * rel;
                    }
                    let d = 0.5 * c.depth.min(0.5);
                    push[a] -= c.normal * d;
                    push[b] += c.normal * d;
                }
                PairOutcome::Impact { hit, tunnel } => {
                    stats.sweeps += 1;
                    stats.collisions += 1;
                    self.last.push((a, b));
                    stats.tunnelling_prevented += usize::from(tunnel);
                    // The projectile stops at the contact and bounces off it.
                    for (i, sign) in [(a, -1.0f32), (b, 1.0)] {
                        if arena.is_projectile(i) {
                            stop[i] = stop[i].min(hit.toi);
                            let n = hit.normal * sign;
                            let v = new_vel[i];
                            if v.dot(n) < 0.0 {
                                new_vel[i] = v - 2.0 * v.dot(n) * n;
                            }
                        }
                    }
                }
                PairOutcome::Miss => stats.sweeps += 1,
            }
        }
        // Integrate (semi-implicit, as impulse-based engines do): positional corrections,
        // projectiles to their point of impact (they move no further this frame), the new
        // velocities, then one frame of motion for everything else.
        for (i, b) in arena.world.bodies.iter_mut().enumerate() {
            b.position += push[i];
            if stop[i] < 1.0 {
                // A projectile reaches its point of impact and goes no further this frame.
                b.position += b.velocity * stop[i];
                stop[i] = 0.0;
            }
            b.velocity = new_vel[i];
        }
        arena.advance(&stop);
        stats
    }
}

/// The body's fast AABB now, joined with where its motion takes it this frame.
fn swept_box(b: &Body) -> collide::shapes::Aabb {
    let now = b.fast_aabb();
    let end = collide::shapes::Aabb::new(now.min + b.velocity, now.max + b.velocity);
    now.union(&end)
}

/// A projectile pair: the sweep's first contact, and whether a test at the start and at the
/// end of the frame would both have missed it (the projectile would have tunnelled).
fn sweep_pair(
    a: &Body,
    va: &crate::scene_eval::Volumes,
    b: &Body,
    vb: &crate::scene_eval::Volumes,
) -> PairOutcome {
    // The bounding spheres' sweep first (exact and cheap): most pairs the long swept box of a
    // projectile picks up never come near it.
    let (sa, sb) = (va.sphere, vb.sphere);
    if collide::sweep::sphere_sphere(&sa, a.velocity, &sb, b.velocity).is_none() {
        return PairOutcome::Miss;
    }
    let Some(hit) = crate::narrow::impact(a, b) else {
        return PairOutcome::Miss;
    };
    let at_end = |x: &Body| {
        let mut y = x.clone();
        y.position += y.velocity;
        y
    };
    let tunnel = hit.toi > 0.0
        && crate::narrow::exact(a, b).contact.is_none()
        && crate::narrow::exact(&at_end(a), &at_end(b))
            .contact
            .is_none();
    PairOutcome::Impact { hit, tunnel }
}

#[cfg(test)]
mod pipeline_tests {
    use super::*;

    // Stages narrow down: broad >= spheres >= OBBs >= (cache hits + exact tests); collisions
    // never exceed the pairs that could have them; over a run the cache is used.
    #[test]
    fn stages_narrow_down() {
        let mut arena = Arena::new(400, 2).expect("arena");
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let mut total = FrameStats::default();
        for _ in 0..15 {
            let s = pipe.step(&mut arena);
            assert!(s.sphere_pairs + s.sweeps <= s.broad_pairs, "{s:?}");
            assert!(s.obb_pairs <= s.sphere_pairs);
            assert_eq!(s.cache_hits + s.exact_tests, s.obb_pairs, "{s:?}");
            assert!(s.collisions <= s.exact_tests + s.sweeps);
            assert!(s.tunnelling_prevented <= s.sweeps);
            total.cache_hits += s.cache_hits;
            total.collisions += s.collisions;
            total.exact_tests += s.exact_tests;
        }
        assert!(total.collisions > 0 && total.exact_tests > 0, "{total:?}");
        assert!(total.cache_hits > 0, "the plane cache never hit: {total:?}");
    }

    // Oracle: every collision the pipeline counts in a frame is one the scene evaluation
    // (all pairs through the broad phase and the exact test, no caches) finds on the same
    // poses, and vice versa, for slow bodies.
    #[test]
    fn collisions_match_scene_evaluation() {
        let mut arena = Arena::new(300, 4).expect("arena");
        // No projectiles: only static contacts are compared.
        for (i, b) in arena.world.bodies.iter_mut().enumerate() {
            if KINDS[arena.kind[i]] == "projectile" {
                b.velocity = Vec3::ZERO;
                b.position = Vec3::splat(1e4 + 10.0 * i as f32);
            }
        }
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        for frame in 0..5 {
            let before = World {
                bodies: arena.world.bodies.clone(),
            };
            let s = pipe.step(&mut arena);
            let want = crate::scene_eval::analyze(&before)
                .iter()
                .filter(|r| r.colliding)
                .count();
            assert_eq!(s.collisions, want, "frame {frame}");
        }
    }
}

#[cfg(test)]
mod tunnelling_tests {
    use super::*;

    // A projectile crossing a box in one frame (10 units, the box 1 unit wide): tests at the
    // start and end both miss; the sweep stops it at the box's face and bounces it back.
    #[test]
    fn projectile_through_box_is_caught() {
        let protos = prototypes().expect("prototypes");
        let mut target = protos[3].clone(); // box, half-extents (0.5, 0.3, 0.4)
        target.velocity = Vec3::ZERO;
        let mut shot = protos[6].clone(); // projectile, radius 0.12
        shot.position = Vec3::new(-5.0, 0.0, 0.0);
        shot.velocity = Vec3::new(10.0, 0.0, 0.0);
        let mut arena = Arena {
            world: World {
                bodies: vec![target, shot],
            },
            spin: vec![Vec3::ZERO; 2],
            kind: vec![3, 6],
            half: 50.0,
        };
        let mut pipe = Pipeline::new(&arena).expect("pipeline");
        let s = pipe.step(&mut arena);
        assert_eq!(
            (s.sweeps, s.collisions, s.tunnelling_prevented),
            (1, 1, 1),
            "{s:?}"
        );
        let shot = &arena.world.bodies[1];
        // First contact when the sphere's front reaches x = -0.5: centre at -0.62.
        collide::assert_near!(shot.position.x, -0.62, 1e-3);
        assert!(shot.velocity.x < 0.0, "bounced: {}", shot.velocity);
        assert_eq!(arena.world.bodies[0].position, Vec3::ZERO);
        // A slow shot that ends the frame inside the box is a hit, not a prevented tunnel.
        arena.world.bodies[1].position = Vec3::new(-1.0, 0.0, 0.0);
        arena.world.bodies[1].velocity = Vec3::new(0.6, 0.0, 0.0);
        let s = pipe.step(&mut arena);
        assert_eq!((s.collisions, s.tunnelling_prevented), (1, 0), "{s:?}");
    }
}
