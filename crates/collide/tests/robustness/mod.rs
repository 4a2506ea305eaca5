//! Adversarial geometry across the library, and the replayed inputs of the fuzz targets.

mod adversarial_geometry;
#[cfg(all(feature = "gltf", feature = "serde"))]
mod fuzz_regressions;
