//! [`assert_near!`](crate::assert_near): two values within a tolerance.

use collide::{Vec3, Vec3A};

/// Asserts that two values (`f32`, `f64` or glam vectors) are within a tolerance.
///
/// `assert_near!(a, b)` uses `1e-5`; `assert_near!(a, b, tol)` uses `tol`. NaN is near only
/// NaN. The one test helper of the kind in the workspace: the library's unit tests, the
/// integration tests, the benches and the program's tests all use it (the library exports
/// none).
///
/// ```
/// collide_testkit::assert_near!(0.1_f32 + 0.2, 0.3);
/// collide_testkit::assert_near!(collide::Vec3::X, collide::Vec3::new(1.0, 0.0, 1e-7), 1e-6);
/// ```
#[macro_export]
macro_rules! assert_near {
    ($a:expr, $b:expr) => {
        $crate::assert_near!($a, $b, 1e-5)
    };
    ($a:expr, $b:expr, $tol:expr) => {{
        let (a, b, tol) = ($a, $b, $tol);
        let diff = $crate::near::NearDiff::near_diff(&a, &b);
        assert!(
            diff <= tol as f64,
            "assert_near!({}, {}) failed: {:?} vs {:?} differ by {} > {}",
            stringify!($a),
            stringify!($b),
            a,
            b,
            diff,
            tol
        );
    }};
}

/// The largest absolute component difference between two values; used by
/// [`assert_near!`](crate::assert_near).
pub trait NearDiff {
    /// Largest absolute difference (NaN compares as infinitely far).
    fn near_diff(&self, other: &Self) -> f64;
}

fn diff_f64(a: f64, b: f64) -> f64 {
    let d = (a - b).abs();
    if d.is_nan() {
        if a.is_nan() && b.is_nan() {
            0.0
        } else {
            f64::INFINITY
        }
    } else if a == b {
        0.0
    } else {
        d
    }
}

impl NearDiff for f32 {
    fn near_diff(&self, other: &Self) -> f64 {
        diff_f64(f64::from(*self), f64::from(*other))
    }
}

impl NearDiff for f64 {
    fn near_diff(&self, other: &Self) -> f64 {
        diff_f64(*self, *other)
    }
}

impl NearDiff for Vec3 {
    fn near_diff(&self, other: &Self) -> f64 {
        (0..3)
            .map(|i| diff_f64(f64::from(self[i]), f64::from(other[i])))
            .fold(0.0, f64::max)
    }
}

impl NearDiff for Vec3A {
    fn near_diff(&self, other: &Self) -> f64 {
        Vec3::from(*self).near_diff(&Vec3::from(*other))
    }
}
