//! SAT between two convex hulls built from arbitrary points, at arbitrary poses. Asserts the
//! documented contract of `collide::convex::sat`: never panics; a non-finite pose gives
//! `Separated` with `distance = INFINITY`; a finite pose gives either a gap `> 0` whose plane
//! (unit normal) really separates the world vertices, or a unit normal with a finite depth
//! `>= 0`; the warm-started `sat_cached` gives the same verdict; swapping A and B gives the same
//! verdict unless the gap is within rounding of zero; and GJK on the same vertices agrees
//! (SAT's gap is a lower bound of the distance; a deep SAT penetration is a GJK intersection).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::sat::run(data));
