//! Nothing but the test in `tests/`: bevy_math's vector and rotation types are collide's.
