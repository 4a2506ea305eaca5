//! `collide::convex`: GJK, EPA and contact against brute force, the separating-axis test, contact
//! manifolds, Quickhull and convex decomposition.

mod decompose;
mod depth_oracle;
mod epa_oracle;
mod epa_real_hulls;
mod gjk_oracle;
mod gjk_vs_overlap;
mod hull_compound;
mod hull_meshes;
mod hull_oracle;
mod hull_robustness;
mod manifold_properties;
mod sat_agreement;
mod sat_cache_coherence;
mod sat_hill_climb;
mod sat_oracle;
