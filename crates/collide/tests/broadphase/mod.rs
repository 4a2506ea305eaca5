//! The broad phases (`collide::broadphase`) against brute force.

mod oracle;
