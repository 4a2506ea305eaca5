//! The static tests of `collide::overlap`: against f64 oracles, their properties (symmetry,
//! invariances) and the bad-input rule.

mod bad_input;
mod oracle;
mod properties;
