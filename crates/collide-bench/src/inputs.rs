//! The fixed input sets shared by `compare`, the criterion benches and the differential test.
//!
//! Each pair type draws from [`collide_testkit::Gen`] with a centre spread (`extent`) tuned so
//! that roughly half of the pairs touch (30–70 % for every type, measured by the f64 oracle in
//! this crate's tests): timing only misses, or only hits, would flatter early-out code.
//! Box pairs mix in the parallel-edge configurations of `Gen::obb_parallel_to` (a quarter of
//! the OBB–OBB and AABB–OBB pairs), the case the article's listing 6 gets wrong.

use collide::convex::ConvexHull;
use collide::io;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Ray, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use rand::Rng;

/// A generator with the given centre spread (`extent`) and the testkit's sizes (0.05–2).
fn spread(g: &mut Gen, extent: f32) -> &mut Gen {
    g.extent = extent;
    g
}

/// Sphere–sphere: centres in `[-2.2, 2.2]^3`.
pub fn sphere_sphere(g: &mut Gen) -> (Sphere, Sphere) {
    let g = spread(g, 1.8);
    (g.sphere(), g.sphere())
}

/// AABB–AABB: centres in `[-2.2, 2.2]^3`.
pub fn aabb_aabb(g: &mut Gen) -> (Aabb, Aabb) {
    let g = spread(g, 1.9);
    (g.aabb(), g.aabb())
}

/// Sphere–AABB.
pub fn sphere_aabb(g: &mut Gen) -> (Sphere, Aabb) {
    let g = spread(g, 1.9);
    (g.sphere(), g.aabb())
}

/// Sphere–OBB.
pub fn sphere_obb(g: &mut Gen) -> (Sphere, Obb) {
    let g = spread(g, 1.9);
    (g.sphere(), g.obb())
}

/// OBB–OBB: a quarter of the pairs have edges exactly or nearly parallel.
pub fn obb_obb(g: &mut Gen) -> (Obb, Obb) {
    let g = spread(g, 2.1);
    let a = g.obb();
    let b = if g.rng.random_range(0..4) == 0 {
        g.obb_parallel_to(&a)
    } else {
        g.obb()
    };
    (a, b)
}

/// AABB–OBB: a quarter of the OBBs are turned by multiples of 90° about a world axis.
pub fn aabb_obb(g: &mut Gen) -> (Aabb, Obb) {
    let g = spread(g, 2.1);
    let a = g.aabb();
    let b = if g.rng.random_range(0..4) == 0 {
        g.obb_parallel_to(&Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE))
    } else {
        g.obb()
    };
    (a, b)
}

/// A segment centred on a point of the cube, one in eight parallel to a world axis and one in
/// sixteen a single point.
fn segment(g: &mut Gen) -> Segment {
    let raw = g.segment();
    let shift = g.point() - raw.midpoint();
    let s = Segment::new(raw.a + shift, raw.b + shift);
    match g.rng.random_range(0..16) {
        0 => Segment::new(s.a, s.a),
        1 | 2 => {
            let axis = [Vec3::X, Vec3::Y, Vec3::Z][g.rng.random_range(0..3)];
            Segment::new(s.a, s.a + axis * s.length())
        }
        _ => s,
    }
}

/// Segment–AABB.
pub fn segment_aabb(g: &mut Gen) -> (Segment, Aabb) {
    let g = spread(g, 1.5);
    (segment(g), g.aabb())
}

/// Segment–OBB.
pub fn segment_obb(g: &mut Gen) -> (Segment, Obb) {
    let g = spread(g, 1.5);
    (segment(g), g.obb())
}

/// Plane–sphere.
pub fn plane_sphere(g: &mut Gen) -> (Plane, Sphere) {
    let g = spread(g, 2.0);
    (g.plane(), g.sphere())
}

/// Plane–AABB.
pub fn plane_aabb(g: &mut Gen) -> (Plane, Aabb) {
    let g = spread(g, 2.4);
    (g.plane(), g.aabb())
}

/// Plane–OBB.
pub fn plane_obb(g: &mut Gen) -> (Plane, Obb) {
    let g = spread(g, 2.4);
    (g.plane(), g.obb())
}

/// Capsule–capsule.
pub fn capsule_capsule(g: &mut Gen) -> (Capsule, Capsule) {
    let g = spread(g, 2.6);
    (g.capsule(), g.capsule())
}

/// Capsule–sphere.
pub fn capsule_sphere(g: &mut Gen) -> (Capsule, Sphere) {
    let g = spread(g, 2.2);
    (g.capsule(), g.sphere())
}

/// Triangle–AABB.
pub fn triangle_aabb(g: &mut Gen) -> (Triangle, Aabb) {
    let g = spread(g, 1.7);
    (g.triangle(), g.aabb())
}

/// A ray against a box: origins in `[-4, 4]^3`, boxes in `[-2.2, 2.2]^3`, the direction
/// aimed at a point within 2 of the box centre and 0.6–1.6 times as long as the way there, so
/// that about half of the casts hit within `max_t = 1`.
pub fn ray_aabb(g: &mut Gen) -> (Ray, Aabb) {
    let g = spread(g, 4.0);
    let origin = g.point();
    let g = spread(g, 2.2);
    let b = g.aabb();
    let aim = b.center() + g.vec(2.0);
    let len = g.range(0.6, 1.6);
    (Ray::new(origin, (aim - origin) * len), b)
}

/// `n` pairs drawn by `f` from the seed.
pub fn draw<T>(seed: u64, n: usize, mut f: impl FnMut(&mut Gen) -> T) -> Vec<T> {
    let mut g = Gen::new(seed);
    (0..n).map(|_| f(&mut g)).collect()
}

/// One AABB query and `n` boxes around it, for the batch rows: small boxes (half-extents
/// 0.05–0.5) spread over `[-8, 8]^3` so that a 2-unit query box hits a few percent of them,
/// the selectivity of a broad-phase query.
pub fn aabb_cloud(seed: u64, n: usize) -> Vec<Aabb> {
    let mut g = Gen::new(seed);
    g.extent = 8.0;
    g.max_size = 0.5;
    (0..n).map(|_| g.aabb()).collect()
}

/// Spheres for the batch rows, spread like [`aabb_cloud`].
pub fn sphere_cloud(seed: u64, n: usize) -> Vec<Sphere> {
    let mut g = Gen::new(seed);
    g.extent = 8.0;
    g.max_size = 0.5;
    (0..n).map(|_| g.sphere()).collect()
}

/// The hull of the mesh `assets/meshes/<name>` (all parts, or only part `part`), recentred on
/// the vertex mean and scaled to unit radius; the error says which step failed.
pub fn mesh_hull(name: &str, part: Option<usize>) -> Result<ConvexHull, String> {
    let path = format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"));
    let model = io::load(&path).map_err(|e| format!("{path}: {e}"))?;
    let pts = match part {
        Some(i) => match model.parts.get(i) {
            Some(p) => p.mesh.vertices.clone(),
            None => return Err(format!("{path}: no part {i}")),
        },
        None => model.merged().vertices,
    };
    let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let r = pts.iter().map(|p| (*p - c).length()).fold(0.0, f32::max);
    let pts: Vec<Vec3> = pts.iter().map(|p| (*p - c) / r).collect();
    ConvexHull::try_new(&pts).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_testkit::oracle::signed as oracle;

    fn rate<T>(pairs: &[T], sd: impl Fn(&T) -> f64) -> f64 {
        pairs.iter().filter(|p| sd(p) <= 0.0).count() as f64 / pairs.len() as f64
    }

    #[test]
    fn every_pair_type_mixes_hits_and_misses() {
        // 30–70 % of each fixed input set touches, by the f64 oracle.
        let n = 4000;
        let rates = [
            (
                "sphere_sphere",
                rate(&draw(1, n, sphere_sphere), |(a, b)| {
                    oracle::sphere_sphere(a, b)
                }),
            ),
            (
                "aabb_aabb",
                rate(&draw(1, n, aabb_aabb), |(a, b)| oracle::aabb_aabb(a, b)),
            ),
            (
                "sphere_aabb",
                rate(&draw(1, n, sphere_aabb), |(a, b)| oracle::sphere_aabb(a, b)),
            ),
            (
                "sphere_obb",
                rate(&draw(1, n, sphere_obb), |(a, b)| oracle::sphere_obb(a, b)),
            ),
            (
                "obb_obb",
                rate(&draw(1, n, obb_obb), |(a, b)| oracle::obb_obb(a, b)),
            ),
            (
                "aabb_obb",
                rate(&draw(1, n, aabb_obb), |(a, b)| oracle::aabb_obb(a, b)),
            ),
            (
                "segment_aabb",
                rate(&draw(1, n, segment_aabb), |(a, b)| {
                    oracle::segment_aabb(a, b)
                }),
            ),
            (
                "segment_obb",
                rate(&draw(1, n, segment_obb), |(a, b)| oracle::segment_obb(a, b)),
            ),
            (
                "plane_sphere",
                rate(&draw(1, n, plane_sphere), |(a, b)| {
                    oracle::plane_sphere(a, b)
                }),
            ),
            (
                "plane_aabb",
                rate(&draw(1, n, plane_aabb), |(a, b)| oracle::plane_aabb(a, b)),
            ),
            (
                "plane_obb",
                rate(&draw(1, n, plane_obb), |(a, b)| oracle::plane_obb(a, b)),
            ),
            (
                "capsule_capsule",
                rate(&draw(1, n, capsule_capsule), |(a, b)| {
                    oracle::capsule_capsule(a, b)
                }),
            ),
            (
                "capsule_sphere",
                rate(&draw(1, n, capsule_sphere), |(a, b)| {
                    oracle::capsule_sphere(a, b)
                }),
            ),
            (
                "triangle_aabb",
                rate(&draw(1, n, triangle_aabb), |(a, b)| {
                    oracle::triangle_aabb(a, b)
                }),
            ),
        ];
        for (name, r) in rates {
            println!("{name:16} {:.1} % hits", r * 100.0);
        }
        for (name, r) in rates {
            assert!((0.3..=0.7).contains(&r), "{name}: {:.1} % hits", r * 100.0);
        }
    }
}
