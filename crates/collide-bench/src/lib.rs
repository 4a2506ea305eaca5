//! Side-by-side comparison of collide and parry3d on identical inputs.
//!
//! - [`convert`]: collide shapes → parry3d shapes and poses (and the two-sided plane as a pair
//!   of half-spaces).
//! - [`inputs`]: the fixed, seeded input sets shared by the benches, `compare` and the tests.
//! - the f64 signed-distance oracle that decides how far a configuration is from the touching
//!   boundary is `collide_testkit::oracle::signed`, shared with collide's tests.
//! - [`cases`]: the table of compared queries (one collide and one parry3d closure per row).
//! - [`query_cases`]: the scene-query rows (world rays, shape casts, overlaps) on scenes of
//!   1k to 100k bodies.
//! - [`pen_cases`]: penetrating real-mesh hull pairs (verdict, contact, manifold).
//! - [`timing`]: the interleaved, median-of-rounds timer behind `compare`.

pub mod cases;
pub mod convert;
pub mod gjk_cases;
pub mod inputs;
pub mod mesh_cases;
pub mod pen_cases;
pub mod query_cases;
pub mod timing;
