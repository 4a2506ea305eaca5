//! Closest points (`collide::closest`) against f64 oracles.

mod oracle;
