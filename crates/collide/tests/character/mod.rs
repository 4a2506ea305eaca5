//! The character controller (`collide::character`).

mod controller;
