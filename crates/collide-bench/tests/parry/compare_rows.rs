//! The `compare` rows that time two parry3d paths (the dispatching call and the direct
//! per-shape function in the shape's frame): both answer the same inputs as collide, so the
//! three hit counts of each row agree (to a few grazing configurations, which the row-by-row
//! differential tests in `raycast` and `sweep` judge with the oracles).

use collide_bench::cases;

/// Runs every pass of each row once and compares the hit counts: the two parry3d paths
/// exactly (the same parry code behind both), collide within `slack` of them.
fn hits_agree(rows: Vec<collide_bench::timing::Case>, slack: usize) {
    for mut case in rows {
        let direct = case
            .direct
            .as_mut()
            .map(|d| (d.pass)())
            .unwrap_or_else(|| panic!("{}: no direct parry3d path", case.name));
        let (ours, theirs) = ((case.collide)(), (case.parry)());
        eprintln!("{}: {ours} / {theirs} / {direct} of {}", case.name, case.n);
        assert_eq!(
            theirs, direct,
            "{}: dispatch and direct disagree",
            case.name
        );
        assert!(
            ours.abs_diff(theirs) <= slack,
            "{}: collide {ours}, parry3d {theirs}",
            case.name
        );
        assert!(ours > case.n / 10, "{}: only {ours} hits", case.name);
    }
}

#[test]
fn ray_rows_hit_alike_in_collide_and_both_parry_paths() {
    hits_agree(cases::ray_cases(2048), 2);
}

#[test]
fn sweep_rows_hit_alike_in_collide_and_both_parry_paths() {
    hits_agree(cases::sweep_cases(2048), 2);
}

#[test]
fn gjk_rows_find_the_same_touching_pairs_in_collide_and_both_parry_paths() {
    for mut case in collide_bench::gjk_cases::gjk_cases(512) {
        let direct = case.direct.as_mut().map(|d| (d.pass)());
        let (ours, theirs) = ((case.collide)(), (case.parry)());
        eprintln!(
            "{}: {ours} / {theirs} / {direct:?} of {}",
            case.name, case.n
        );
        assert_eq!(Some(theirs), direct, "{}: dispatch and direct", case.name);
        assert_eq!(ours, theirs, "{}: collide and parry3d", case.name);
        // The overlap rows mix both answers; the distance rows are mostly apart.
        if case.name.contains("intersects") {
            assert!(
                ours > case.n / 10 && ours < case.n * 9 / 10,
                "{}",
                case.name
            );
        } else {
            assert!(ours < case.n / 4, "{}", case.name);
        }
    }
}

#[test]
fn gjk_cloud_distances_are_within_the_tolerance_of_the_exact_distance() {
    // The exact distance over every feature pair: collide's answers within its relative
    // tolerance (1e-6), and parry3d's computed on the same pairs (reported, not judged).
    let [(_, largest, median), (_, parry_largest, parry_median)] =
        collide_bench::gjk_cases::cloud_distance_errors(8);
    eprintln!("collide {largest:e} / {median:e}, parry3d {parry_largest:e} / {parry_median:e}");
    assert!(
        largest <= 1e-6,
        "collide off the exact distance by {largest:e}"
    );
    assert!(parry_largest.is_finite(), "no pairs apart were measured");
}
