//! The world (`collide::world`): the level as bodies, the pipeline, scene queries and continuous
//! collision.

mod level;
mod pipeline;
mod queries;
mod tunnelling;
