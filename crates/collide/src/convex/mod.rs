//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.

pub mod contact;
pub mod epa;
pub mod gjk;
pub mod support;

mod compound;
mod gauss_map;
mod hull;
pub mod manifold;
mod polyhedron;
pub mod sat;

pub use compound::{
    compound_contacts, compound_intersects, Compound, CompoundCache, CompoundError, PartContact,
};
pub use contact::Contact;
pub use epa::Penetration;
pub use gjk::{GjkCache, GjkResult};
pub use hull::{ConvexHull, HullEdge, HullError, HullFace};
pub use manifold::{contact_manifold, ContactManifold, ContactPoint};
pub use polyhedron::ConvexPolyhedron;
pub use sat::{sat, sat_cached, SatResult, SepCache, SepFeature};
pub use support::{ConvexPoints, Posed, SupportMap};
