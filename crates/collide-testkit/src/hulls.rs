//! Point sets of the real meshes for hull tests and comparisons: a mesh's vertices recentred
//! and scaled to unit radius, and the same set rounded by a small ball, whose hull has
//! thousands of vertices.

use collide::io;
use collide::Vec3;

/// The vertices of `assets/meshes/<name>` (all parts merged), recentred on their mean and
/// scaled to a bounding radius of 1 about it. Panics when the asset does not load (a broken
/// checkout, not an input a test varies).
pub fn mesh_points(name: &str) -> Vec<Vec3> {
    let path = crate::mesh_path(name);
    let model = io::load(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pts = model.merged().vertices;
    let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
    pts.iter().map(|p| (*p - c) / r).collect()
}

/// The points' hull grown by a ball of `radius`, sampled along `k` directions: for each
/// direction `u` of a Fibonacci lattice, the point of `points` farthest along `u` plus
/// `radius · u`. Each is the support point of the grown hull along its `u` (the support
/// function of a hull grown by a ball is `h(u) + radius`), so all `k` points are extreme and
/// their hull has about `k` vertices: a real mesh's overall shape with thousands of vertices.
pub fn rounded(points: &[Vec3], radius: f32, k: usize) -> Vec<Vec3> {
    // Fibonacci lattice: z evenly spaced in (−1, 1), the azimuth turning by the golden angle.
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..k)
        .map(|i| {
            let z = 1.0 - (2 * i + 1) as f32 / k as f32;
            let rho = (1.0 - z * z).max(0.0).sqrt();
            let phi = golden * i as f32;
            let u = Vec3::new(rho * phi.cos(), rho * phi.sin(), z);
            let far = points
                .iter()
                .copied()
                .fold((f32::NEG_INFINITY, Vec3::ZERO), |best, p| {
                    let h = u.dot(p);
                    if h > best.0 {
                        (h, p)
                    } else {
                        best
                    }
                })
                .1;
            far + u * radius
        })
        .collect()
}

/// The point set of the big hull the penetration tests and comparisons share: the bunny grown
/// by a ball of radius 0.05, sampled along 3,600 directions (its hull has thousands of
/// vertices).
pub fn rounded_bunny() -> Vec<Vec3> {
    rounded(&mesh_points("bunny.obj"), 0.05, 3600)
}
