//! Shared pieces of the fuzz targets: shapes decoded from raw bytes (every f32 bit pattern is
//! reachable: NaN, infinities, subnormals, -0.0) and the documented contracts each target asserts.

use collide::raycast::RayHit;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Ray, Segment, Sphere, Triangle};
use collide::sweep::Sweep;
use collide::{Quat, Vec3};

/// Reads little-endian `f32`s from fuzzer bytes; past the end it yields `0.0`.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// Next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// Next `f32`, any bit pattern. One selector byte in four picks a "nice" value instead
    /// (small integers, exact touching distances), so the fuzzer also reaches boundaries.
    pub fn f32(&mut self) -> f32 {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.byte();
        }
        let v = f32::from_le_bytes(b);
        if b[3] == 0x7e {
            // A tiny integer from the low byte: -8..=7, exact in f32.
            f32::from((b[0] & 0x0f) as i8 - 8)
        } else {
            v
        }
    }

    /// Next vector.
    pub fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }

    /// Next quaternion (not normalised: constructors must cope).
    pub fn quat(&mut self) -> Quat {
        Quat::from_xyzw(self.f32(), self.f32(), self.f32(), self.f32())
    }

    /// A sphere.
    pub fn sphere(&mut self) -> Sphere {
        Sphere::new(self.vec3(), self.f32())
    }
    /// An AABB (through `Aabb::new`, which sorts corners).
    pub fn aabb(&mut self) -> Aabb {
        Aabb::new(self.vec3(), self.vec3())
    }
    /// An OBB.
    pub fn obb(&mut self) -> Obb {
        Obb::new(self.vec3(), self.quat(), self.vec3())
    }
    /// A segment.
    pub fn segment(&mut self) -> Segment {
        Segment::new(self.vec3(), self.vec3())
    }
    /// A capsule.
    pub fn capsule(&mut self) -> Capsule {
        Capsule::new(self.vec3(), self.vec3(), self.f32())
    }
    /// A triangle.
    pub fn triangle(&mut self) -> Triangle {
        Triangle::new(self.vec3(), self.vec3(), self.vec3())
    }
    /// A plane from a point and a (possibly zero or non-finite) normal.
    pub fn plane(&mut self) -> Plane {
        Plane::from_point_normal(self.vec3(), self.vec3())
    }
    /// A ray.
    pub fn ray(&mut self) -> Ray {
        Ray::new(self.vec3(), self.vec3())
    }
}

/// `true` when `n` is a unit vector (within the tolerance every query promises).
pub fn is_unit(n: Vec3) -> bool {
    n.is_finite() && (n.length() - 1.0).abs() <= 1e-3
}

/// The `Sweep` contract: `0 <= enter <= exit <= 1`, finite point, unit normal.
pub fn check_sweep(name: &str, s: &Option<Sweep>) {
    if let Some(s) = s {
        assert!(
            (0.0..=1.0).contains(&s.enter) && s.enter <= s.exit && s.exit <= 1.0,
            "{name}: times out of order or range: {s:?}"
        );
        assert!(s.point.is_finite(), "{name}: non-finite contact point: {s:?}");
        assert!(is_unit(s.normal), "{name}: normal not unit: {s:?}");
    }
}

/// The `RayHit` contract: `0 <= t <= max_t`, finite point on the ray, unit normal.
pub fn check_hit(name: &str, ray: &Ray, max_t: f32, h: &Option<RayHit>) {
    if let Some(h) = h {
        assert!(
            h.t >= 0.0 && h.t <= max_t,
            "{name}: t outside [0, max_t = {max_t}]: {h:?}"
        );
        assert!(h.point.is_finite(), "{name}: non-finite point: {h:?}");
        assert!(is_unit(h.normal), "{name}: normal not unit: {h:?}");
        let _ = ray;
    }
}

/// `true` when any of the vectors has a NaN component.
pub fn any_nan(vs: &[Vec3]) -> bool {
    vs.iter().any(|v| v.is_nan())
}

/// A loaded mesh must satisfy `TriMesh::validate` (finite vertices, indices in range).
pub fn check_mesh(mesh: &collide::shapes::TriMesh) {
    if let Err(e) = mesh.validate() {
        panic!("loader returned an invalid mesh: {e}");
    }
}
