//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.

pub mod contact;
pub mod epa;
pub mod gjk;
pub mod support;

pub use contact::Contact;
pub use epa::Penetration;
pub use gjk::{GjkCache, GjkResult};
pub use support::{ConvexPoints, Posed, SupportMap};
