//! # collide
//!
//! Collision detection for games and simulations: shapes, static overlap tests, sweeps that
//! find the first moment of contact within a frame, ray casts, bounding volumes fitted to real
//! meshes, convex hulls with a cached separating-plane test, GJK and contacts, broad phases and
//! a per-frame collision world.
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

// No panics from library code on any input: no unwrap, expect or panic! outside tests.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]
#![warn(missing_docs)]

pub mod math;

pub mod batch;
pub mod bounding;
pub mod broadphase;
pub mod closest;
pub mod convex;
pub mod io;
pub mod mesh;
pub mod overlap;
pub mod raycast;
pub mod shapes;
pub mod sweep;
pub mod world;

#[doc = include_str!("../../../docs/degenerate-input.md")]
pub mod guarantees {}

pub use math::{Affine3A, Mat3, Mat3A, Quat, Vec3, Vec3A};

/// The README's code examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
