//! Replays every input saved under `tests/data/fuzz/<target>/` through the same checks the
//! cargo-fuzz target `<target>` runs (the crate `collide-fuzz-checks`), so every saved crash
//! input keeps passing without cargo-fuzz or a nightly toolchain. A new crash: copy
//! the minimised input (`cargo fuzz tmin`) into `tests/data/fuzz/<target>/` and name it after
//! what it exposed; the test below then replays it.
use collide_fuzz_checks as fuzz_checks;

use std::path::Path;

/// Runs `check` on every file in `tests/data/fuzz/<target>/`; returns how many it replayed.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let r = std::panic::catch_unwind(|| check(&data));
        assert!(
            r.is_ok(),
            "fuzz regression {} fails its target's check",
            f.display()
        );
    }
    files.len()
}

macro_rules! regression {
    ($($target:ident),* $(,)?) => {$(
        #[test]
        fn $target() {
            let n = replay(stringify!($target), fuzz_checks::$target::run);
            eprintln!("{}: replayed {n} saved inputs", stringify!($target));
        }
    )*};
}

regression!(
    load_obj, load_stl, load_gltf, scene_json, hull, overlap, sweep, raycast, gjk_epa, sat,
    broadphase, world, mesh
);

/// The mesh target's checks on seeded random bytes, so its contracts run in every test pass
/// (cargo-fuzz explores far more; see docs/degenerate-input.md). Some strings are biased
/// toward small finite floats so valid meshes and heightfields come out often.
#[test]
fn mesh_checks_on_random_bytes() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for case in 0..3000 {
        let mut data = Vec::new();
        let small = |data: &mut Vec<u8>, n: usize, r: u64| {
            for _ in 0..n {
                let x = ((r.wrapping_mul(data.len() as u64 + 7) >> 7) % 16_000) as f32 / 1000.0;
                data.extend((x - 8.0).to_le_bytes());
            }
        };
        if case % 2 == 0 {
            // The target's read order: vertex count, vertices, triangle count, indices, then
            // query floats; small finite values so most meshes are valid.
            let nv = 3 + (next() % 20) as u8;
            data.push(nv);
            for _ in 0..nv {
                let r = next();
                small(&mut data, 3, r);
            }
            let nt = 1 + (next() % 30) as u8;
            data.push(nt);
            for _ in 0..3 * nt as usize {
                data.push((next() % u64::from(nv)) as u8);
            }
        }
        let len = data.len() + 64 + (next() % 600) as usize;
        while data.len() < len {
            if case % 4 == 0 {
                let r = next();
                small(&mut data, 1, r);
            } else {
                data.push((next() % 256) as u8);
            }
        }
        let r = std::panic::catch_unwind(|| fuzz_checks::mesh::run(&data));
        assert!(r.is_ok(), "case {case}: {data:?}");
    }
}

/// The checks themselves must be able to fail: a NaN sphere input that a (hypothetically) broken
/// `sphere_sphere` would report as touching is caught by the overlap check's NaN rule; here we
/// feed the check a crafted input and make sure it runs (and passes on this library).
#[test]
fn checks_run_on_crafted_inputs() {
    // Spheres of radius 1e20 whose centres are 5e20 apart: in f32 both squares overflow to
    // inf, and `inf <= inf` would call them touching; `sphere_sphere` must say `false`. The
    // overlap target does not assert geometry, so this goes straight to the library.
    use collide::shapes::Sphere;
    use collide::Vec3;
    let a = Sphere::new(Vec3::ZERO, 1e20);
    let b = Sphere::new(Vec3::new(5e20, 0.0, 0.0), 1e20);
    assert!(!collide::overlap::sphere_sphere(&a, &b));
    // Every target accepts the empty input and a short random-looking one without panicking.
    let bytes: Vec<u8> = (0u32..400)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    for run in [
        fuzz_checks::load_obj::run as fn(&[u8]),
        fuzz_checks::load_stl::run,
        fuzz_checks::load_gltf::run,
        fuzz_checks::scene_json::run,
        fuzz_checks::hull::run,
        fuzz_checks::overlap::run,
        fuzz_checks::sweep::run,
        fuzz_checks::raycast::run,
        fuzz_checks::gjk_epa::run,
        fuzz_checks::sat::run,
        fuzz_checks::broadphase::run,
        fuzz_checks::world::run,
    ] {
        run(&[]);
        run(&bytes);
    }
}

/// The ray-cast target's f64 sampling oracle catches a missed hit, a late hit and a hit off
/// the surface, and accepts the library's answer.
#[test]
fn raycast_oracle_can_fail() {
    use collide::raycast::RayHit;
    use collide::shapes::{Ray, Sphere};
    use collide::Vec3;
    // Ray from z = -5 along +z through the unit sphere at the origin: enters at t = 4.
    let ray = Ray::new(Vec3::new(0.0, 0.0, -5.0), Vec3::Z);
    let s = Sphere::new(Vec3::ZERO, 1.0);
    let depth = |p: Vec3| s.radius - (p - s.center).length();
    let check = |h: Option<RayHit>| {
        std::panic::catch_unwind(|| {
            fuzz_checks::raycast::oracle(&ray, 10.0, "sphere", h, &[s.center], &[1.0], depth)
        })
        .is_ok()
    };
    let good = collide::raycast::sphere(&ray, &s, 10.0);
    assert_eq!(good.map(|h| h.t), Some(4.0));
    assert!(check(good), "the oracle rejects the right answer");
    assert!(!check(None), "a missed hit passes");
    let late = RayHit {
        t: 5.0,
        point: Vec3::ZERO,
        normal: -Vec3::Z,
    };
    assert!(!check(Some(late)), "a late hit (at the centre) passes");
    let off = RayHit {
        t: 3.5,
        point: Vec3::new(0.0, 0.0, -1.5),
        normal: -Vec3::Z,
    };
    assert!(!check(Some(off)), "a hit 0.5 off the surface passes");
}

/// The sweep target's sampling oracle catches a missed contact, a late enter and an enter
/// where the bodies are still apart, and accepts the library's answer.
#[test]
fn sweep_oracle_can_fail() {
    use collide::shapes::Sphere;
    use collide::sweep::Sweep;
    use collide::Vec3;
    // Unit spheres 10 apart, B moving -10 along x: touching at u = 0.8, overlapping after.
    let (a, b) = (
        Sphere::new(Vec3::ZERO, 1.0),
        Sphere::new(Vec3::X * 10.0, 1.0),
    );
    let m = Vec3::X * -10.0;
    let depth = |u: f32| 2.0 - (b.center + m * u - a.center).length();
    let check = |h: Option<Sweep>| {
        std::panic::catch_unwind(|| {
            fuzz_checks::sweep::oracle("sphere_sphere", h, 1e-4, 10.0, depth)
        })
        .is_ok()
    };
    let good = collide::sweep::sphere_sphere(&a, Vec3::ZERO, &b, m);
    assert!(good.is_some_and(|h| (h.enter - 0.8).abs() < 1e-6));
    assert!(check(good), "the oracle rejects the right answer");
    assert!(!check(None), "a missed contact passes");
    let late = Sweep {
        enter: 0.95,
        ..good.unwrap_or(Sweep {
            enter: 0.0,
            exit: 1.0,
            normal: Vec3::X,
            point: Vec3::ZERO,
        })
    };
    assert!(!check(Some(late)), "a late enter passes");
    let early = Sweep { enter: 0.5, ..late };
    assert!(!check(Some(early)), "an enter while 3 apart passes");
}

/// Inputs that still fail their target's check (`tests/data/fuzz_open/<target>/`), replayed
/// through the same checks; `#[ignore]`d so the suite stays green, run with `--ignored` to see
/// them fail. Move a file to `tests/data/fuzz/<target>/` once it passes. None is open.
///
/// What some inputs under `tests/data/fuzz/` exercise: `sat/tiny_hull_plane_not_unit_*` (the
/// edge axis of tiny hulls, normalised in f64), `raycast/needle_triangle_*` (a grazing ray on
/// a needle, where Möller–Trumbore's determinant is rounding), `hull/point_outside_hull_*`
/// (needle clouds at 1e20..1e27, where Quickhull's convexity repair can swallow a vertex and
/// the mid-edge vertex removal can cut a needle's tip off), `raycast/hit_point_overflows_*` and
/// `sweep/contact_point_overflows_*` (a hit whose point lies beyond `f32::MAX` is `None`),
/// `sat/sat_cached_disagrees_*` (the cached check must evaluate each feature with the full
/// search's expressions).
#[test]
#[ignore = "open fuzz findings, see docs/degenerate-input.md"]
fn open_fuzz_findings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz_open");
    let mut failing = Vec::new();
    for (target, check) in [
        ("hull", fuzz_checks::hull::run as fn(&[u8])),
        ("sat", fuzz_checks::sat::run),
        ("raycast", fuzz_checks::raycast::run),
        ("sweep", fuzz_checks::sweep::run),
        ("gjk_epa", fuzz_checks::gjk_epa::run),
        ("overlap", fuzz_checks::overlap::run),
        ("world", fuzz_checks::world::run),
    ] {
        // Every target stays listed: a new open finding only needs its file dropped in.
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for f in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let data = std::fs::read(&f).unwrap_or_default();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failing.push(f.display().to_string());
            }
        }
    }
    assert!(
        failing.is_empty(),
        "open fuzz findings still fail: {failing:#?}"
    );
}
