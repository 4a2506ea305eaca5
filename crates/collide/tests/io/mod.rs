//! The loaders (`collide::io`): real meshes against second readers, glTF, malformed input, mesh
//! clean-up.

#[cfg(feature = "gltf")]
mod gltf;
#[cfg(feature = "gltf")]
mod malformed;
mod mesh_cleanup;
mod meshes;
