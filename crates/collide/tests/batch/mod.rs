//! The batch queries (`collide::batch`) against the scalar ones.

mod props;
mod soa;
