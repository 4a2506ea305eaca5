//! The sweeps (`collide::sweep`): against f64 oracles, their properties, the starting-touch rule,
//! the rotating box sweep and the convex sweep.

mod convex;
mod oracle;
mod properties;
mod rotating_oracle;
mod starting_touch;
