//! Quickhull on arbitrary point clouds: never panics; a hull that is built validates and
//! contains every input point within its tolerance.
#![no_main]
use collide::convex::ConvexHull;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
    let n = (data.len() / 12).min(512);
    let points: Vec<collide::Vec3> = (0..n).map(|_| b.vec3()).collect();
    if let Ok(hull) = ConvexHull::try_new(&points) {
        if let Err(e) = hull.validate() {
            panic!("hull of {n} points does not validate: {e}");
        }
        let tol = hull.tolerance() * 4.0;
        for (i, p) in points.iter().enumerate() {
            assert!(
                hull.contains_point(*p, tol),
                "input point {i} {p:?} outside the hull (tolerance {tol})"
            );
        }
    }
});
