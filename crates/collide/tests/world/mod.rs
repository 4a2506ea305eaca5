//! The world (`collide::world`): the level as bodies, the pipeline, scene queries and continuous
//! collision.

// The frame runs on a rayon pool of its own, so that only its threads are counted.
#[cfg(feature = "parallel")]
mod allocations;
mod level;
mod pipeline;
mod queries;
mod tunnelling;
