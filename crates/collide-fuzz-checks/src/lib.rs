//! The contracts the cargo-fuzz targets assert, as a crate both the fuzz targets (`fuzz/`) and
//! collide's tests call: shapes decoded from raw bytes (every f32 bit pattern is reachable:
//! NaN, infinities, subnormals, -0.0) and the documented contracts each target checks.
//!
//! Each target's body is a `run(data)` function in a module named after it, so that collide's
//! test `fuzz_regressions` replays saved inputs through exactly the same checks. It depends on
//! `collide` alone; the features `gltf` and `serde` turn on the loader targets that need the
//! library's features of the same names.

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

    /// `true` when every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
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
        assert!(
            s.point.is_finite(),
            "{name}: non-finite contact point: {s:?}"
        );
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

/// One of the convex shapes GJK/EPA accept, drawn from the fuzzer bytes.
#[derive(Clone, Debug)]
pub enum AnyShape {
    /// A point.
    Point(Vec3),
    /// A sphere.
    Sphere(Sphere),
    /// An AABB.
    Aabb(Aabb),
    /// An OBB.
    Obb(Obb),
    /// A segment.
    Segment(Segment),
    /// A capsule.
    Capsule(Capsule),
    /// A triangle.
    Triangle(Triangle),
    /// A point cloud (1..=8 points; its convex hull).
    Points(Vec<Vec3>),
}

impl<'a> Bytes<'a> {
    /// A shape of any kind (selector byte first).
    pub fn any_shape(&mut self) -> AnyShape {
        match self.byte() % 8 {
            0 => AnyShape::Point(self.vec3()),
            1 => AnyShape::Sphere(self.sphere()),
            2 => AnyShape::Aabb(self.aabb()),
            3 => AnyShape::Obb(self.obb()),
            4 => AnyShape::Segment(self.segment()),
            5 => AnyShape::Capsule(self.capsule()),
            6 => AnyShape::Triangle(self.triangle()),
            _ => {
                let n = 1 + usize::from(self.byte() % 8);
                AnyShape::Points((0..n).map(|_| self.vec3()).collect())
            }
        }
    }

    /// `n` points (for hulls).
    pub fn points(&mut self, n: usize) -> Vec<Vec3> {
        (0..n).map(|_| self.vec3()).collect()
    }
}

impl AnyShape {
    /// Every coordinate, radius and extent of the shape (for NaN / finiteness checks).
    pub fn scalars(&self) -> Vec<f32> {
        let v = |v: Vec3| [v.x, v.y, v.z];
        match self {
            AnyShape::Point(p) => v(*p).to_vec(),
            AnyShape::Sphere(s) => [v(s.center).as_slice(), &[s.radius]].concat(),
            AnyShape::Aabb(a) => [v(a.min), v(a.max)].concat(),
            AnyShape::Obb(o) => [
                v(o.center).as_slice(),
                &v(o.axes.x_axis),
                &v(o.axes.y_axis),
                &v(o.axes.z_axis),
                &v(o.half_extents),
            ]
            .concat(),
            AnyShape::Segment(s) => [v(s.a), v(s.b)].concat(),
            AnyShape::Capsule(c) => [v(c.a).as_slice(), &v(c.b), &[c.radius]].concat(),
            AnyShape::Triangle(t) => [v(t.a), v(t.b), v(t.c)].concat(),
            AnyShape::Points(ps) => ps.iter().flat_map(|p| v(*p)).collect(),
        }
    }

    /// `true` when any input number is NaN.
    pub fn has_nan(&self) -> bool {
        self.scalars().iter().any(|x| x.is_nan())
    }

    /// Largest magnitude of any input number (NaN counts as infinite).
    pub fn scale(&self) -> f32 {
        self.scalars().iter().fold(0.0f32, |m, x| {
            if x.is_nan() {
                f32::INFINITY
            } else {
                m.max(x.abs())
            }
        })
    }

    /// `true` when every input number is finite and at most `limit` in magnitude.
    pub fn bounded(&self, limit: f32) -> bool {
        self.scalars()
            .iter()
            .all(|x| x.is_finite() && x.abs() <= limit)
    }
}

impl collide::convex::SupportMap for AnyShape {
    fn support(&self, dir: Vec3) -> Vec3 {
        match self {
            AnyShape::Point(p) => p.support(dir),
            AnyShape::Sphere(s) => s.support(dir),
            AnyShape::Aabb(s) => s.support(dir),
            AnyShape::Obb(s) => s.support(dir),
            AnyShape::Segment(s) => s.support(dir),
            AnyShape::Capsule(s) => s.support(dir),
            AnyShape::Triangle(s) => s.support(dir),
            AnyShape::Points(s) => s.support(dir),
        }
    }
    fn margin(&self) -> f32 {
        match self {
            AnyShape::Point(p) => p.margin(),
            AnyShape::Sphere(s) => s.margin(),
            AnyShape::Aabb(s) => s.margin(),
            AnyShape::Obb(s) => s.margin(),
            AnyShape::Segment(s) => s.margin(),
            AnyShape::Capsule(s) => s.margin(),
            AnyShape::Triangle(s) => s.margin(),
            AnyShape::Points(s) => s.margin(),
        }
    }
    fn core_support(&self, dir: Vec3) -> Vec3 {
        match self {
            AnyShape::Point(p) => p.core_support(dir),
            AnyShape::Sphere(s) => s.core_support(dir),
            AnyShape::Aabb(s) => s.core_support(dir),
            AnyShape::Obb(s) => s.core_support(dir),
            AnyShape::Segment(s) => s.core_support(dir),
            AnyShape::Capsule(s) => s.core_support(dir),
            AnyShape::Triangle(s) => s.core_support(dir),
            AnyShape::Points(s) => s.core_support(dir),
        }
    }
    fn interior_point(&self) -> Vec3 {
        match self {
            AnyShape::Point(p) => p.interior_point(),
            AnyShape::Sphere(s) => s.interior_point(),
            AnyShape::Aabb(s) => s.interior_point(),
            AnyShape::Obb(s) => s.interior_point(),
            AnyShape::Segment(s) => s.interior_point(),
            AnyShape::Capsule(s) => s.interior_point(),
            AnyShape::Triangle(s) => s.interior_point(),
            AnyShape::Points(s) => s.interior_point(),
        }
    }
}

// ---------------------------------------------------------------- targets

pub mod load_obj {
    //! OBJ loader on arbitrary bytes: never panics; a loaded model has finite vertices and
    //! in-range triangle indices.

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        if let Ok(model) = collide::io::load_obj_bytes(data, "fuzz.obj") {
            for part in &model.parts {
                super::check_mesh(&part.mesh);
            }
        }
    }
}

pub mod load_stl {
    //! STL loader (binary and ASCII) on arbitrary bytes: never panics; a loaded mesh is valid.

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        if let Ok(model) = collide::io::load_stl_bytes(data, "fuzz.stl") {
            for part in &model.parts {
                super::check_mesh(&part.mesh);
            }
        }
    }
}

#[cfg(feature = "gltf")]
pub mod load_gltf {
    //! glTF / GLB loader on arbitrary bytes: never panics; a loaded mesh is valid.

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        if let Ok(model) = collide::io::load_gltf_bytes(data, "fuzz.glb") {
            for part in &model.parts {
                super::check_mesh(&part.mesh);
            }
        }
    }
}

#[cfg(feature = "serde")]
pub mod scene_json {
    //! Scene JSON on arbitrary text: never panics; errors carry a line number.
    use std::path::Path;

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        if let Ok(text) = std::str::from_utf8(data) {
            // A base directory that does not exist: mesh bodies fail to load with an error, never a panic.
            let _ = collide::io::scene::Scene::from_json_str(
                text,
                Path::new("fuzz.json"),
                Path::new("/nonexistent-fuzz-dir"),
            );
        }
    }
}

pub mod hull;

pub mod overlap;

pub mod sweep;

pub mod raycast;

pub mod gjk_epa;

pub mod sat;

pub mod broadphase;

pub mod world;

pub mod decompose;
pub mod mesh;
