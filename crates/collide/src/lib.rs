//! # collide
//!
//! Collision detection for games and simulations: shapes, static overlap tests, sweeps that
//! find the first moment of contact within a frame, ray casts, bounding volumes fitted to real
//! meshes, convex hulls with a cached separating-plane test, GJK and contacts, broad phases and
//! a per-frame collision world.
//!
//! ```rust
//! use collide::shapes::Ray;
//! use collide::world::{BodyDesc, ContactEvent, Geometry, QueryFilter, World};
//! use collide::Vec3;
//!
//! let mut world = World::default();
//! // A floor 0.2 m thick with its top at y = 0, a crate settled 1 cm into it, and a ball
//! // falling at 120 m/s: 2 m per frame at 60 Hz, ten times the floor's thickness.
//! let slab = Geometry::Cuboid(Vec3::new(10.0, 0.1, 10.0));
//! let floor = world.add_body(BodyDesc::new(slab).at(Vec3::new(0.0, -0.1, 0.0)))?;
//! let crate_box = BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))).at(Vec3::new(3.0, 0.49, 0.0));
//! let crate_id = world.add_body(crate_box)?;
//! let ball = BodyDesc::new(Geometry::Sphere(0.25)).at(Vec3::new(0.0, 1.0, 0.0));
//! let ball = world.add_body(ball.moving(Vec3::new(0.0, -120.0, 0.0)))?;
//!
//! world.step(1.0 / 60.0); // moves the ball to y = -1, below the floor, then finds contacts
//!
//! // The crate's contact with the floor begins; the ball is caught by its sweep at the
//! // moment it reached the floor: 0.75 m into the frame's 2 m, u = 0.375.
//! assert!(world.events().contains(&ContactEvent::Began(floor, crate_id)));
//! let hit = world.contacts().iter().find(|c| (c.a, c.b) == (floor, ball)).unwrap();
//! assert!((hit.toi.unwrap() - 0.375).abs() < 1e-3);
//! assert!(hit.manifold.normal.y > 0.99); // from the floor (a) toward the ball (b)
//!
//! // A ray straight down from above the crate stops on its top face, at y = 0.99.
//! let sight = world.cast_ray(&Ray::new(Vec3::new(3.0, 5.0, 0.0), Vec3::NEG_Y), 100.0, &QueryFilter::default()).unwrap();
//! assert_eq!(sight.body, crate_id);
//! assert!((sight.point.y - 0.99).abs() < 1e-4);
//! # Ok::<(), collide::world::WorldError>(())
//! ```
//!
//! The world only detects: it reports contacts, events and hits, and moving bodies apart is
//! the caller's (or a physics engine's) job; for a player, [`character`] moves a capsule
//! through the world on its scene queries (sliding, stairs, slopes). Below the world, every query is a free function
//! on plain shapes: [`overlap`], [`sweep`], [`raycast`], [`closest`], [`convex`], with the
//! [`broadphase`] structures and [`batch`] queries to run them over many objects.
//!
//! Grown from M. Gomez, *Simple Intersection Tests For Games* (Gamasutra, 1999) and J. Lander,
//! *When Two Hearts Collide* (Game Developer, 1999), with the defects of their listings fixed.
//!
//! Conventions, everywhere in the crate:
//! - glam `f32` types, 3-D; poses are `(Vec3, Quat)` or [`Affine3A`].
//! - The verb is the module, the pair is the function: `overlap::obb_obb(&a, &b)`.
//! - Touching counts as overlapping.
//! - Bad input never panics: NaN anywhere in a query's input gives "no contact" (`false` or
//!   `None`); constructors document what they accept.
//!
//! Coming from another library: [`guide_from_parry_rapier_avian`]. What each query does with
//! degenerate input: [`guarantees`].
//!
//! # Cargo features
//!
//! With `default-features = false` the crate depends on glam alone. The defaults (all three)
//! are what a game on a desktop wants.
//!
//! | feature | adds | pulls in |
//! |---|---|---|
//! | `parallel` | the world's narrow phase and large bounding fits on rayon's thread pool (without it they run on the calling thread, with identical results) | rayon |
//! | `gltf` | the glTF loader: `io::load_gltf`, `.gltf`/`.glb` in [`io::load`] | gltf (without its image decoders) |
//! | `serde` | `Serialize`/`Deserialize` on the [`shapes`] and [`broadphase::CollisionGroups`]; the `io::scene` file loader | serde, serde_json |
// No panics from library code on any input: no unwrap, expect or panic! outside tests.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]
#![warn(missing_docs)]
// docs.rs builds with `--cfg docsrs` and marks the items each feature adds.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod math;

pub mod batch;
pub mod bounding;
pub mod broadphase;
pub mod character;
pub mod closest;
pub mod convex;
pub mod io;
pub mod mesh;
pub mod overlap;
pub mod raycast;
pub mod shapes;
pub mod sweep;
pub mod world;

mod par;
mod scratch;

// The unit tests' `assert_near!` is the workspace's one, from the testkit (a dev-dependency).
#[cfg(test)]
pub(crate) use collide_testkit::assert_near;

#[doc = include_str!("../docs/degenerate-input.md")]
pub mod guarantees {}

#[doc = include_str!("../docs/coming-from-parry-rapier-avian.md")]
pub mod guide_from_parry_rapier_avian {}

pub use math::{Affine3A, Mat3, Mat3A, Quat, Vec3, Vec3A};

/// The crate README's code examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
