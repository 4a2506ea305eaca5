//! Quickhull on arbitrary point clouds: never panics; a hull that is built validates,
//! its vertices are input points, and it contains every input point within its tolerance;
//! a NaN or infinite point is the typed error `NonFinite` naming the first one.
use collide::convex::{ConvexHull, HullError};

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = super::Bytes::new(data);
    let n = (data.len() / 12).min(512);
    let points: Vec<collide::Vec3> = (0..n).map(|_| b.vec3()).collect();
    let first_bad = points.iter().position(|p| !p.is_finite());
    let built = ConvexHull::try_new(&points);
    if let Some(index) = first_bad {
        assert!(
            matches!(built, Err(HullError::NonFinite { index: i }) if i == index),
            "point {index} is not finite, got {built:?}"
        );
    }
    if let Ok(hull) = built {
        if let Err(e) = hull.validate() {
            panic!("hull of {n} points does not validate: {e}");
        }
        for v in hull.vertices() {
            assert!(
                points
                    .iter()
                    .any(|p| p.to_array().map(f32::to_bits) == v.to_array().map(f32::to_bits)),
                "hull vertex {v:?} is not an input point"
            );
        }
        let tol = hull.tolerance() * 4.0;
        for (i, p) in points.iter().enumerate() {
            assert!(
                hull.contains_point(*p, tol),
                "input point {i} {p:?} outside the hull (tolerance {tol})"
            );
        }
    }
}
