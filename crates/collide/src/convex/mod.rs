//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.
//!
//! # Example
//!
//! ```rust
//! use collide::convex::{contact_manifold, sat_cached, ConvexHull, ConvexPolyhedron, SepCache};
//! use collide::{Quat, Vec3};
//! use std::sync::Arc;
//!
//! // The hull of a cube's 8 corners plus an interior point, which the hull drops.
//! let mut points: Vec<Vec3> = (0..8)
//!     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - 0.5)
//!     .collect();
//! points.push(Vec3::ZERO);
//! let hull = Arc::new(ConvexHull::try_new(&points)?);
//! assert_eq!(hull.vertices().len(), 8);
//! assert!((hull.volume() - 1.0).abs() < 1e-5);
//!
//! // Two copies, B sunk 0.1 into the top of A and shifted 0.2 along x.
//! let a = ConvexPolyhedron::new(hull);
//! let b = a.with_pose(Quat::IDENTITY, Vec3::new(0.2, 0.9, 0.0));
//! let mut cache = SepCache::default(); // one per pair, kept from frame to frame
//! let m = contact_manifold(&a, &b, &mut cache).unwrap();
//! assert!((m.depth - 0.1).abs() < 1e-5);
//! assert!((m.normal - Vec3::Y).length() < 1e-5); // from A toward B
//! assert_eq!(m.points().len(), 4); // the corners of the faces' 0.8 × 1 overlap
//! // The next frame B is lifted clear: the test starts from the cached feature.
//! let b = a.with_pose(Quat::IDENTITY, Vec3::new(0.2, 1.1, 0.0));
//! assert!(!sat_cached(&a, &b, &mut cache).is_penetrating());
//! # Ok::<(), collide::convex::HullError>(())
//! ```

pub mod contact;
pub mod epa;
pub mod gjk;
pub mod support;

mod decompose;
mod gauss_map;
mod hull;
mod lanes;
pub mod manifold;
mod polyhedron;
pub mod sat;

pub use contact::Contact;
pub use decompose::{
    concavity_error, decompose, decompose_with_progress, DecomposeConfig, DecomposeError,
    DecomposeProgress,
};
pub use epa::Penetration;
pub use gjk::{GjkCache, GjkResult};
pub use hull::{ConvexHull, HullDefect, HullEdge, HullError, HullFace};
pub use manifold::{contact_manifold, ContactPoint, Manifold};
pub(crate) use polyhedron::posed_plane;
pub use polyhedron::ConvexPolyhedron;
pub use sat::{sat, sat_cached, SatResult, SepCache, SepFeature};
pub use support::{ConvexPoints, Posed, SupportMap};
