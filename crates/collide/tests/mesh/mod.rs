//! Mesh and heightfield queries (`collide::mesh`) against f64 brute force.

mod oracle;
