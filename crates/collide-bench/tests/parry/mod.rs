//! A module per query family: collide against parry3d on the same inputs, disagreements
//! judged by the f64 oracles of `collide_testkit::oracle`.

mod broadphase;
mod compare_rows;
mod convex;
mod gjk;
mod queries;
mod raycast;
mod static_queries;
mod sweep;
