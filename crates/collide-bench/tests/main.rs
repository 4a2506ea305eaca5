//! The bench crate's differential tests against parry3d, in one binary: `parry::<family>`.

mod parry;
