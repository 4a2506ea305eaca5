//! Seeded random shapes and poses shared by collide's integration tests, its benches and the
//! bench crate, so that every oracle and every comparison draws from the same distributions,
//! and the f64 oracles ([`oracle`]) the tests and the comparisons against parry3d judge by.
//!
//! Everything is deterministic: build a [`Gen`] from a seed and draw.

pub mod hulls;
pub mod level;
pub mod near;
pub mod oracle;
pub mod scene;

use collide::shapes::{Aabb, Capsule, Obb, Plane, Ray, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded generator of random shapes in a cube of half-size `extent` around the origin.
#[derive(Clone, Debug)]
pub struct Gen {
    /// The random number generator (ChaCha8, so streams are identical on every platform).
    pub rng: ChaCha8Rng,
    /// Half-size of the cube centres are drawn from.
    pub extent: f32,
    /// Largest size (radius, half-extent) drawn.
    pub max_size: f32,
}

impl Gen {
    /// A generator with the given seed, centres in `[-4, 4]^3`, sizes up to 2.
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            extent: 4.0,
            max_size: 2.0,
        }
    }

    /// A uniform `f32` in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        if hi <= lo {
            return lo;
        }
        self.rng.random_range(lo..hi)
    }

    /// A point uniform in `[-extent, extent]^3`.
    pub fn point(&mut self) -> Vec3 {
        let e = self.extent;
        Vec3::new(self.range(-e, e), self.range(-e, e), self.range(-e, e))
    }

    /// A vector with components uniform in `[-s, s]`.
    pub fn vec(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }

    /// A uniformly distributed unit vector.
    pub fn unit(&mut self) -> Vec3 {
        loop {
            let v = self.vec(1.0);
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }

    /// A uniformly distributed rotation (Shoemake's method).
    pub fn quat(&mut self) -> Quat {
        let (u1, u2, u3): (f32, f32, f32) =
            (self.rng.random(), self.rng.random(), self.rng.random());
        let tau = std::f32::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        Quat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize()
    }

    /// A size in `[0.05, max_size]`.
    pub fn size(&mut self) -> f32 {
        self.range(0.05, self.max_size)
    }

    /// Three sizes in `[0.05, max_size]`.
    pub fn sizes(&mut self) -> Vec3 {
        Vec3::new(self.size(), self.size(), self.size())
    }

    /// A random sphere.
    pub fn sphere(&mut self) -> Sphere {
        Sphere::new(self.point(), self.size())
    }

    /// A random AABB.
    pub fn aabb(&mut self) -> Aabb {
        Aabb::from_center_half_extents(self.point(), self.sizes())
    }

    /// A random OBB.
    pub fn obb(&mut self) -> Obb {
        Obb::new(self.point(), self.quat(), self.sizes())
    }

    /// A random OBB whose rotation is a multiple of 90° about a random axis of `other`'s frame,
    /// so that edges of the two are exactly or nearly parallel (the case listing 6 gets wrong).
    pub fn obb_parallel_to(&mut self, other: &Obb) -> Obb {
        let k = self.rng.random_range(0..4) as f32;
        let axis = match self.rng.random_range(0..3) {
            0 => other.axes.x_axis,
            1 => other.axes.y_axis,
            _ => other.axes.z_axis,
        };
        let q = Quat::from_axis_angle(axis, k * std::f32::consts::FRAC_PI_2) * other.rotation();
        Obb::new(self.point(), q, self.sizes())
    }

    /// A random segment of length up to `4 * max_size`.
    pub fn segment(&mut self) -> Segment {
        let a = self.point();
        let d = self.vec(2.0 * self.max_size);
        Segment::new(a, a + d)
    }

    /// A random capsule.
    pub fn capsule(&mut self) -> Capsule {
        let s = self.segment();
        Capsule::new(s.a, s.b, self.size())
    }

    /// A random triangle with corners near a random point.
    pub fn triangle(&mut self) -> Triangle {
        let c = self.point();
        let s = 2.0 * self.max_size;
        Triangle::new(c + self.vec(s), c + self.vec(s), c + self.vec(s))
    }

    /// A random plane through a point of the cube.
    pub fn plane(&mut self) -> Plane {
        let p = self.point();
        let n = self.unit();
        Plane::from_point_normal(p, n)
    }

    /// A random ray starting in the cube, direction of length in `[0.5, 2]` times `extent`.
    pub fn ray(&mut self) -> Ray {
        let o = self.point();
        let len = self.range(0.5, 2.0) * self.extent;
        Ray::new(o, self.unit() * len)
    }
}

/// Every real mesh of `assets/meshes/` (OBJ, and one STL last).
pub const REAL_MESHES: [&str; 9] = [
    "bunny.obj",
    "torus.obj",
    "concave_box.obj",
    "cube.obj",
    "jenga.obj",
    "duck_vhacd.obj",
    "teddy2_VHACD_CHs.obj",
    "lego_vhacd.obj",
    "racecar_chassis.stl",
];

/// The real meshes the hull comparisons and round trips take: the curved and the V-HACD ones,
/// the STL, then `jenga.obj` last (a box, left out where only curved surfaces matter).
pub const HULL_MESHES: [&str; 6] = [
    "bunny.obj",
    "torus.obj",
    "duck_vhacd.obj",
    "teddy2_VHACD_CHs.obj",
    "racecar_chassis.stl",
    "jenga.obj",
];

/// The path of `assets/meshes/<name>` in the repository.
pub fn mesh_path(name: &str) -> String {
    format!("{}/../../assets/meshes/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_shapes() {
        let (mut a, mut b) = (Gen::new(7), Gen::new(7));
        for _ in 0..10 {
            assert_eq!(a.obb(), b.obb());
        }
        let q = a.quat();
        assert!((q.length() - 1.0).abs() < 1e-5);
        let u = a.unit();
        assert!((u.length() - 1.0).abs() < 1e-5);
    }
}

/// The workspace README's code examples, compiled and run as doctests (here rather than in the
/// library, whose package does not contain the workspace README).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadmeDoctests;
