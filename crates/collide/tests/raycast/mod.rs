//! The ray casts (`collide::raycast`) against an f64 oracle.

mod oracle;
