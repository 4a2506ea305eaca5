//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.

pub mod gjk;
pub mod support;

pub use gjk::{GjkCache, GjkResult};
pub use support::{ConvexPoints, Posed, SupportMap};
