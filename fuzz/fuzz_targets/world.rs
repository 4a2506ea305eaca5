//! The collision world on random add / remove / move / teleport / velocity / step / update /
//! query sequences: see `collide_fuzz_checks::world`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| collide_fuzz_checks::world::run(data));
