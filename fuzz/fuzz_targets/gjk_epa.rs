//! GJK distance / intersection, EPA penetration and the combined contact on any two convex
//! shapes (point, sphere, AABB, OBB, segment, capsule, triangle, point cloud) built from
//! arbitrary f32 bit patterns. Asserts the documented contracts of `collide::convex::{gjk,
//! epa, contact}`: never panics; NaN input gives "no contact" (`INFINITY`, `false`, `None`);
//! finite input gives a finite distance `>= 0`, `intersecting == (distance == 0)`, a unit
//! normal when apart; distance is symmetric within the GJK tolerance; every `Some` from EPA or
//! contact has a unit normal, finite points and a finite depth; on moderate input the GJK
//! normal separates by the distance and the EPA normal overlaps by the depth (support maps).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::gjk_epa::run(data));
