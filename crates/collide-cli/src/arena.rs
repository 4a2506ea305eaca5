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
