//! Bounding volumes (`collide::bounding`) on real meshes and random point clouds.

mod meshes;
mod props;
