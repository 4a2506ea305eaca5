// The shapes of the saved `gjk_epa` fuzz input `epa_simplex_coincident_vertices_8d9aa090.bin`,
// shared (with `include!`) by `tests/robustness/adversarial_geometry.rs`
// (`epa_gjk_simplex_with_coincident_vertices`) and the white-box test in
// `src/convex/epa/tests.rs` (`unconverged_expansion_answers_the_overlap_along_its_normal`).

// A hull 200 across whose corner is a cluster of points 1e-29 apart.
const CORNER_HULL: [Vec3; 7] = [
    Vec3::new(-1.869_213_6e-29, -1.415_618_5e-29, 2e-43),
    Vec3::new(-1.410_088_9e-29, -1.415_618_5e-29, 6.671_459e-33),
    Vec3::new(-1.415_618_5e-29, -1.415_618_5e-29, -1.415_618_5e-29),
    Vec3::new(195.262_74, 195.262_74, 203.262_74),
    Vec3::new(195.387_74, 195.262_74, 195.262_74),
    Vec3::new(1.493_497e-39, 128.0, 6.152_978e-39),
    Vec3::new(-1.861_093e-29, -1.415_604_1e-29, 7.0),
];

// A cloud of the cluster's size sitting in that corner.
const CORNER_CLOUD: [Vec3; 6] = [
    Vec3::new(-1.415_618_5e-29, -1.415_618_5e-29, -1.415_618_5e-29),
    Vec3::new(-1.415_618_5e-29, -1.415_618_5e-29, -1.417_467_4e-29),
    Vec3::new(-6.311_027e-30, -1.415_618_5e-29, -1.415_618_5e-29),
    Vec3::new(-1.888_935_1e-29, -1.415_618_5e-29, -1.415_618_5e-29),
    Vec3::new(1.318_397_5e-38, -1.415_597e-29, -8.655_814_5e-30),
    Vec3::new(-1.415_618_5e-29, -1.414_963_7e-29, -1.415_618_5e-29),
];
