//! The shapes: small `Copy` structs with `pub` fields and plain constructors.
//!
//! Constructors that can fail return `Option` ([`Plane::from_points`] gives `None` for
//! collinear points). Constructors that cannot fail still never panic: they document what
//! they do with NaN, infinite, zero or negative input, and every query documents what it
//! returns for such a shape (the crate-wide rule: a NaN anywhere in a query's input gives
//! "no contact" — `false` or `None` — never a panic).

mod aabb;
mod capsule;
mod mesh;
mod obb;
mod plane;
mod ray;
mod segment;
mod sphere;
mod triangle;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use mesh::{MeshError, TriMesh};
pub use obb::Obb;
pub use plane::Plane;
pub use ray::Ray;
pub use segment::Segment;
pub use sphere::Sphere;
pub use triangle::Triangle;
