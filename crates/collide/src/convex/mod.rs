//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.

mod hull;

pub use hull::{ConvexHull, HullEdge, HullError, HullFace};
