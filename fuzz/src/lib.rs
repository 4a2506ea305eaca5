//! Shared pieces of the fuzz targets: shapes decoded from raw bytes (every f32 bit pattern is
//! reachable: NaN, infinities, subnormals, -0.0) and the documented contracts each target asserts.
//!
//! Each target's body is a `run(data)` function in a module named after it, so that
//! `crates/collide/tests/fuzz_regressions.rs` can replay saved inputs through exactly the same
//! checks (it includes this file with `#[path]`; keep it self-contained: `super::`, not
//! `crate::`, and no dependency beyond `collide`).

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

pub mod hull {
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
}

pub mod overlap {
    //! Every static test on arbitrary f32 bit patterns: never panics; NaN anywhere in a pair's
    //! input gives `false` (the crate-wide bad-input rule, checked for every function); answers
    //! that are symmetric by construction or by a documented mirror are; on moderate input the
    //! sphere, box, plane, segment and triangle verdicts agree with f64 geometry outside a
    //! rounding band (see `oracle`).
    use collide::overlap as o;
    use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};

    fn nan_s(s: &Sphere) -> bool {
        s.center.is_nan() || s.radius.is_nan()
    }
    fn nan_a(a: &Aabb) -> bool {
        a.min.is_nan() || a.max.is_nan()
    }
    fn nan_b(b: &Obb) -> bool {
        b.center.is_nan() || b.axes.is_nan() || b.half_extents.is_nan()
    }
    fn nan_seg(s: &Segment) -> bool {
        s.a.is_nan() || s.b.is_nan()
    }
    fn nan_c(c: &Capsule) -> bool {
        c.a.is_nan() || c.b.is_nan() || c.radius.is_nan()
    }
    fn nan_t(t: &Triangle) -> bool {
        t.a.is_nan() || t.b.is_nan() || t.c.is_nan()
    }
    fn nan_p(p: &Plane) -> bool {
        p.normal.is_nan() || p.d.is_nan()
    }

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = super::Bytes::new(data);
        let (s1, s2) = (b.sphere(), b.sphere());
        let (a1, a2) = (b.aabb(), b.aabb());
        let (b1, b2) = (b.obb(), b.obb());
        let (seg, cap1, cap2) = (b.segment(), b.capsule(), b.capsule());
        let (tri, pl) = (b.triangle(), b.plane());

        // Exactly symmetric by construction, or documented mirrors.
        assert_eq!(o::sphere_sphere(&s1, &s2), o::sphere_sphere(&s2, &s1));
        assert_eq!(o::aabb_aabb(&a1, &a2), o::aabb_aabb(&a2, &a1));
        assert_eq!(o::sphere_capsule(&s1, &cap1), o::capsule_sphere(&cap1, &s1));

        let results = [
            (
                "sphere_sphere",
                o::sphere_sphere(&s1, &s2),
                nan_s(&s1) || nan_s(&s2),
            ),
            (
                "aabb_aabb",
                o::aabb_aabb(&a1, &a2),
                nan_a(&a1) || nan_a(&a2),
            ),
            (
                "sphere_aabb",
                o::sphere_aabb(&s1, &a1),
                nan_s(&s1) || nan_a(&a1),
            ),
            (
                "sphere_obb",
                o::sphere_obb(&s1, &b1),
                nan_s(&s1) || nan_b(&b1),
            ),
            (
                "sphere_capsule",
                o::sphere_capsule(&s1, &cap1),
                nan_s(&s1) || nan_c(&cap1),
            ),
            (
                "sphere_triangle",
                o::sphere_triangle(&s1, &tri),
                nan_s(&s1) || nan_t(&tri),
            ),
            ("obb_obb", o::obb_obb(&b1, &b2), nan_b(&b1) || nan_b(&b2)),
            ("aabb_obb", o::aabb_obb(&a1, &b1), nan_a(&a1) || nan_b(&b1)),
            (
                "segment_aabb",
                o::segment_aabb(&seg, &a1),
                nan_seg(&seg) || nan_a(&a1),
            ),
            (
                "segment_obb",
                o::segment_obb(&seg, &b1),
                nan_seg(&seg) || nan_b(&b1),
            ),
            (
                "plane_sphere",
                o::plane_sphere(&pl, &s1),
                nan_p(&pl) || nan_s(&s1),
            ),
            (
                "plane_aabb",
                o::plane_aabb(&pl, &a1),
                nan_p(&pl) || nan_a(&a1),
            ),
            (
                "plane_obb",
                o::plane_obb(&pl, &b1),
                nan_p(&pl) || nan_b(&b1),
            ),
            (
                "plane_capsule",
                o::plane_capsule(&pl, &cap1),
                nan_p(&pl) || nan_c(&cap1),
            ),
            (
                "capsule_capsule",
                o::capsule_capsule(&cap1, &cap2),
                nan_c(&cap1) || nan_c(&cap2),
            ),
            (
                "capsule_sphere",
                o::capsule_sphere(&cap1, &s1),
                nan_c(&cap1) || nan_s(&s1),
            ),
            (
                "triangle_aabb",
                o::triangle_aabb(&tri, &a1),
                nan_t(&tri) || nan_a(&a1),
            ),
            (
                "triangle_obb",
                o::triangle_obb(&tri, &b1),
                nan_t(&tri) || nan_b(&b1),
            ),
        ];
        for (name, hit, nan) in results {
            if nan {
                assert!(!hit, "{name} with NaN input said true");
            }
        }
        oracle(&s1, &s2, &a1, &a2, &b1, &seg, &tri, &pl);
    }

    /// On moderate input (every number within 1e3), the verdicts against f64 geometry: a
    /// pair overlapping by more than `tol` must say `true`, a pair apart by more than `tol`
    /// must say `false` (touching counts, and the band in between is rounding's). Sampled
    /// for segments and triangles (a sample inside by more than `tol` means `true`).
    #[allow(clippy::too_many_arguments)]
    fn oracle(
        s1: &Sphere,
        s2: &Sphere,
        a1: &Aabb,
        a2: &Aabb,
        b1: &Obb,
        seg: &Segment,
        tri: &Triangle,
        pl: &Plane,
    ) {
        use collide::Vec3;
        let vs = [
            s1.center,
            s2.center,
            a1.min,
            a1.max,
            a2.min,
            a2.max,
            b1.center,
            b1.half_extents,
            seg.a,
            seg.b,
            tri.a,
            tri.b,
            tri.c,
        ];
        let ss = [s1.radius, s2.radius];
        let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
        if !(vs.iter().all(|v| v.to_array().into_iter().all(ok)) && ss.into_iter().all(ok)) {
            return;
        }
        let scale = vs
            .iter()
            .map(|v| v.abs().max_element())
            .chain(ss.iter().map(|x| x.abs()))
            .fold(0.0f32, f32::max);
        let tol = 1e-5 * (1.0 + f64::from(scale));
        // `gap`: distance apart (> 0) or depth of overlap (< 0), in f64.
        let expect = |name: &str, got: bool, gap: f64| {
            if gap < -tol {
                assert!(got, "{name}: overlapping by {} but false", -gap);
            }
            if gap > tol {
                assert!(!got, "{name}: apart by {gap} but true");
            }
        };
        let d = |v: Vec3| v.as_dvec3();
        let (r1, r2) = (f64::from(s1.radius.abs()), f64::from(s2.radius.abs()));
        expect(
            "sphere_sphere",
            o::sphere_sphere(s1, s2),
            (d(s1.center) - d(s2.center)).length() - r1 - r2,
        );
        // Boxes: pure comparisons, exact in f64 too.
        let boxes = (0..3).all(|i| a1.min[i] <= a2.max[i] && a2.min[i] <= a1.max[i]);
        assert_eq!(o::aabb_aabb(a1, a2), boxes, "aabb_aabb vs interval test");
        let c = d(s1.center);
        let near = c.clamp(d(a1.min), d(a1.max));
        expect(
            "sphere_aabb",
            o::sphere_aabb(s1, a1),
            (c - near).length() - r1,
        );
        // OBB: box frame by the transpose of the (orthonormal to ~1e-7) axes.
        if b1.axes.is_finite() {
            let m = b1.axes.as_dmat3();
            let q = m.transpose() * (c - d(b1.center));
            let e = d(b1.half_extents.abs());
            let gap = (q - q.clamp(-e, e)).length() - r1;
            expect("sphere_obb", o::sphere_obb(s1, b1), gap);
        }
        if (pl.normal.length() - 1.0).abs() < 1e-3 && ok(pl.d) {
            let n = d(pl.normal);
            let dist = n.dot(c) + f64::from(pl.d);
            expect("plane_sphere", o::plane_sphere(pl, s1), dist.abs() - r1);
            let (lo, hi) = (d(a1.min), d(a1.max));
            let (mid, half) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
            let dist = n.dot(mid) + f64::from(pl.d);
            let reach = half.dot(n.abs());
            expect("plane_aabb", o::plane_aabb(pl, a1), dist.abs() - reach);
        }
        // Samples along the segment and over the triangle: one inside the box by more than
        // `tol` (or within the sphere) means they overlap.
        let (lo, hi) = (d(a1.min), d(a1.max));
        for k in 0..=16u8 {
            let u = f64::from(k) / 16.0;
            let p = d(seg.a) + (d(seg.b) - d(seg.a)) * u;
            if (p - lo).min(hi - p).min_element() > tol {
                assert!(
                    o::segment_aabb(seg, a1),
                    "segment_aabb: sample {u} inside, false"
                );
            }
        }
        for i in 0..=8u8 {
            for j in 0..=(8 - i) {
                let (u, v) = (f64::from(i) / 8.0, f64::from(j) / 8.0);
                let p = d(tri.a) + (d(tri.b) - d(tri.a)) * u + (d(tri.c) - d(tri.a)) * v;
                if (p - lo).min(hi - p).min_element() > tol {
                    assert!(
                        o::triangle_aabb(tri, a1),
                        "triangle_aabb: sample inside, false"
                    );
                }
                if (p - c).length() < r1 - tol {
                    assert!(
                        o::sphere_triangle(s1, tri),
                        "sphere_triangle: sample inside, false"
                    );
                }
            }
        }
    }
}

pub mod sweep {
    //! Every sweep on arbitrary f32 bit patterns. Asserts the shared contract of
    //! `collide::sweep`: never panics; a hit has `0 <= enter <= exit <= 1`, a finite point and a
    //! unit normal; NaN or infinite input anywhere gives `None`; sphere–sphere and AABB–AABB give
    //! the same verdict with A and B swapped (both are exact interval computations); on
    //! moderate input every sweep agrees with frame sampling, and the convex sweep (GJK
    //! conservative advancement) with the exact box and sphere–box sweeps.
    use super::check_sweep;
    use collide::convex::{gjk, Posed, SupportMap};
    use collide::shapes::{Aabb, Obb, Plane, Sphere, Triangle};
    use collide::sweep as s;
    use collide::Vec3;

    fn fin_s(x: &Sphere) -> bool {
        x.center.is_finite() && x.radius.is_finite()
    }
    fn fin_a(x: &Aabb) -> bool {
        x.min.is_finite() && x.max.is_finite()
    }
    fn fin_b(x: &Obb) -> bool {
        x.center.is_finite() && x.axes.is_finite() && x.half_extents.is_finite()
    }
    fn fin_t(x: &Triangle) -> bool {
        x.a.is_finite() && x.b.is_finite() && x.c.is_finite()
    }
    fn fin_p(x: &Plane) -> bool {
        x.normal.is_finite() && x.d.is_finite()
    }

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = super::Bytes::new(data);
        let (s1, s2) = (b.sphere(), b.sphere());
        let (a1, a2) = (b.aabb(), b.aabb());
        let (o1, o2) = (b.obb(), b.obb());
        let (tri, pl) = (b.triangle(), b.plane());
        let (m1, m2) = (b.vec3(), b.vec3());
        let rot = (b.quat(), b.quat(), b.quat(), b.quat());
        let fm = m1.is_finite() && m2.is_finite();

        let ss = s::sphere_sphere(&s1, m1, &s2, m2);
        let sr = s::sphere_sphere(&s2, m2, &s1, m1);
        assert_eq!(
            ss.is_some(),
            sr.is_some(),
            "sphere_sphere not symmetric: {ss:?} / {sr:?}"
        );
        let aa = s::aabb_aabb(&a1, m1, &a2, m2);
        let ar = s::aabb_aabb(&a2, m2, &a1, m1);
        assert_eq!(
            aa.is_some(),
            ar.is_some(),
            "aabb_aabb not symmetric: {aa:?} / {ar:?}"
        );
        if let (Some(x), Some(y)) = (aa, ar) {
            assert_eq!(
                (x.enter, x.exit),
                (y.enter, y.exit),
                "aabb_aabb times not symmetric"
            );
        }
        let rotating = s::obb_obb_rotating(
            o1.half_extents,
            (o1.center, rot.0),
            (o1.center + m1, rot.1),
            o2.half_extents,
            (o2.center, rot.2),
            (o2.center + m2, rot.3),
        );
        let rot_fin = o1.half_extents.is_finite()
            && o2.half_extents.is_finite()
            && o1.center.is_finite()
            && o2.center.is_finite()
            && (o1.center + m1).is_finite()
            && (o2.center + m2).is_finite()
            && rot.0.is_finite()
            && rot.1.is_finite()
            && rot.2.is_finite()
            && rot.3.is_finite();

        let all = [
            ("sphere_sphere", ss, fin_s(&s1) && fin_s(&s2) && fm),
            (
                "sphere_plane",
                s::sphere_plane(&s1, m1, &pl),
                fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
            ),
            (
                "sphere_plane_halfspace",
                s::sphere_plane_halfspace(&s1, m1, &pl),
                fin_s(&s1) && fin_p(&pl) && m1.is_finite(),
            ),
            ("aabb_aabb", aa, fin_a(&a1) && fin_a(&a2) && fm),
            (
                "obb_obb",
                s::obb_obb(&o1, m1, &o2, m2),
                fin_b(&o1) && fin_b(&o2) && fm,
            ),
            (
                "sphere_aabb",
                s::sphere_aabb(&s1, m1, &a1, m2),
                fin_s(&s1) && fin_a(&a1) && fm,
            ),
            (
                "sphere_obb",
                s::sphere_obb(&s1, m1, &o1, m2),
                fin_s(&s1) && fin_b(&o1) && fm,
            ),
            (
                "sphere_triangle",
                s::sphere_triangle(&s1, m1, &tri, m2),
                fin_s(&s1) && fin_t(&tri) && fm,
            ),
            ("obb_obb_rotating", rotating, rot_fin),
        ];
        for (name, hit, finite) in &all {
            check_sweep(name, hit);
            if !finite {
                assert!(hit.is_none(), "{name}: NaN/infinite input hit: {hit:?}");
            }
        }
        // The convex sweep (conservative advancement on GJK), on the shapes that have an exact
        // sweep to compare with below.
        let convex = [
            (
                "convex obb/obb",
                s::convex(&o1, m1, &o2, m2),
                all[4].1,
                fin_b(&o1) && fin_b(&o2) && fm,
            ),
            (
                "convex sphere/obb",
                s::convex(&s1, m1, &o1, m2),
                all[6].1,
                fin_s(&s1) && fin_b(&o1) && fm,
            ),
        ];
        for (name, hit, _, finite) in &convex {
            check_sweep(name, hit);
            if !finite {
                assert!(hit.is_none(), "{name}: NaN/infinite input hit: {hit:?}");
            }
        }
        // On moderate input, an oracle sampling the frame (see `oracle`).
        let mut pts = vec![s1.center, s2.center, m1, m2, a1.min, a1.max, a2.min, a2.max];
        pts.extend([o1.center, o1.half_extents, o2.center, o2.half_extents]);
        pts.extend([tri.a, tri.b, tri.c]);
        let scalars = [s1.radius, s2.radius, pl.d];
        if !moderate(&pts, &scalars) {
            return;
        }
        let tol = tolerance(&pts, &scalars);
        let v = (m2 - m1).length();
        let (r1, r2) = (s1.radius.abs(), s2.radius.abs());
        oracle("sphere_sphere", all[0].1, tol, v, |u| {
            r1 + r2 - ((s2.center + m2 * u) - (s1.center + m1 * u)).length()
        });
        if (pl.normal.length() - 1.0).abs() < 1e-3 {
            let mv = m1.length();
            oracle("sphere_plane", all[1].1, tol, mv, |u| {
                r1 - pl.signed_distance(s1.center + m1 * u).abs()
            });
            oracle("sphere_plane_halfspace", all[2].1, tol, mv, |u| {
                r1 - pl.signed_distance(s1.center + m1 * u)
            });
        }
        oracle("aabb_aabb", all[3].1, tol, v, |u| {
            let (amin, amax) = (a1.min + m1 * u, a1.max + m1 * u);
            let (bmin, bmax) = (a2.min + m2 * u, a2.max + m2 * u);
            (amax - bmin).min(bmax - amin).min_element()
        });
        oracle("sphere_aabb", all[5].1, tol, v, |u| {
            let b = Aabb::new(a1.min + m2 * u, a1.max + m2 * u);
            let c = s1.center + m1 * u;
            r1 - (collide::closest::point_aabb(c, &b) - c).length()
        });
        oracle("sphere_obb", all[6].1, tol, v, |u| {
            let c = s1.center + m1 * u - m2 * u;
            r1 - (collide::closest::point_obb(c, &o1) - c).length()
        });
        oracle("sphere_triangle", all[7].1, tol, v, |u| {
            let c = s1.center + m1 * u - m2 * u;
            r1 - (collide::closest::point_triangle(c, &tri) - c).length()
        });
        // The convex sweep against the exact one: every moment the exact sweep calls first or
        // last contact lies in the convex sweep's interval (to the oracle's slack), unless GJK
        // finds the shapes within `tol` of touching there (a graze the two resolve differently).
        let slack = 1e-6 + if v > 0.0 { tol / v } else { 0.0 };
        let gaps: [&dyn Fn(f32) -> f32; 2] = [&|u| gap_at(&o1, m1, &o2, m2, u), &|u| {
            gap_at(&s1, m1, &o1, m2, u)
        }];
        for ((name, hit, exact, _), gap) in convex.iter().zip(gaps) {
            let Some(e) = exact else { continue };
            for u in [e.enter, e.exit] {
                let covered = hit.is_some_and(|h| h.enter <= u + slack && h.exit >= u - slack);
                if !covered {
                    let d = gap(u);
                    assert!(
                        d <= tol,
                        "{name}: {hit:?} misses u = {u} of the exact {e:?} (gap {d}); \
                         {s1:?} {o1:?} {o2:?} {m1:?} {m2:?}"
                    );
                }
            }
        }
    }

    /// GJK distance of `a` and `b` moved to time `u`.
    fn gap_at<A: SupportMap, B: SupportMap>(a: &A, ma: Vec3, b: &B, mb: Vec3, u: f32) -> f32 {
        gjk::distance(&Posed::translated(a, ma * u), &Posed::translated(b, mb * u)).distance
    }

    /// Every coordinate within 1e3 (finite).
    fn moderate(pts: &[Vec3], scalars: &[f32]) -> bool {
        let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
        pts.iter().all(|p| p.to_array().into_iter().all(ok)) && scalars.iter().copied().all(ok)
    }

    /// `1e-5` of the largest magnitude involved (doubled for the motion), at least `1e-5`.
    fn tolerance(pts: &[Vec3], scalars: &[f32]) -> f32 {
        let m = pts
            .iter()
            .map(|p| p.abs().max_element())
            .chain(scalars.iter().map(|x| x.abs()))
            .fold(0.0f32, f32::max);
        1e-5 * (1.0 + 2.0 * m)
    }

    /// Samples the frame: `depth(u)` is positive while the shapes overlap (how far from
    /// touching, in distance units), `speed` bounds how fast it changes per unit `u`. A
    /// sample overlapping by more than `tol` must lie within `[enter, exit]` (to `tol /
    /// speed`); at `enter` the shapes touch (or overlap when `enter = 0`). No hit while in
    /// contact at the start (the sweeps' starting-touch rule: not moving deeper) means the
    /// depth never grows past its start by more than `tol` and the "along" slack
    /// (`ALONG_TOLERANCE · speed · u`). Panics on a contradiction.
    pub fn oracle(
        name: &str,
        hit: Option<collide::sweep::Sweep>,
        tol: f32,
        speed: f32,
        depth: impl Fn(f32) -> f32,
    ) {
        let slack = if speed > 0.0 {
            1e-6 + tol / speed
        } else {
            1e-6
        };
        let d0 = depth(0.0);
        if hit.is_none() && d0 >= -tol {
            for k in 0..=32u8 {
                let u = f32::from(k) / 32.0;
                let allowed = d0 + 2.0 * tol + collide::sweep::ALONG_TOLERANCE * speed * u;
                assert!(
                    depth(u) <= allowed,
                    "{name}: no hit from a start in contact (depth {d0}), but deeper at u = {u}: {}",
                    depth(u)
                );
            }
            return;
        }
        for k in 0..=32u8 {
            let u = f32::from(k) / 32.0;
            if depth(u) > tol {
                let Some(h) = hit else {
                    panic!("{name}: no hit, but the shapes overlap at u = {u}");
                };
                assert!(
                    h.enter <= u + slack && h.exit >= u - slack,
                    "{name}: {h:?} does not cover u = {u}, where the shapes overlap"
                );
            }
        }
        if let Some(h) = hit {
            let d = depth(h.enter);
            assert!(d >= -tol, "{name}: {h:?} apart by {} at enter", -d);
            if h.enter > 0.0 {
                assert!(d <= tol, "{name}: {h:?} already overlaps by {d} at enter");
            }
        }
    }
}

pub mod raycast {
    //! Every ray cast on arbitrary f32 bit patterns: never panics; a hit has 0 <= t <= max_t, a
    //! finite `t`, a finite point `origin + t · dir` and a unit normal; NaN input gives `None`.
    //! On moderate input (coordinates within 1e3, `|dir|` in [1e-2, 1e2], `max_t <= 1e3`) an
    //! f64 oracle samples the ray: a sample inside a solid shape (sphere, box, OBB, capsule)
    //! means a hit no later than it; a hit is on the surface (`t > 0`) or starts inside
    //! (`t = 0`); a plane or triangle hit lies on the plane / triangle.
    use super::check_hit;
    use collide::raycast as r;
    use collide::raycast::RayHit;
    use collide::shapes::Ray;
    use collide::Vec3;

    /// Coordinates within 1e3, `|dir|` in `[1e-2, 1e2]`, `max_t` in `[0, 1e3]`.
    fn moderate(ray: &Ray, max_t: f32, pts: &[Vec3], scalars: &[f32]) -> bool {
        let ok = |x: f32| x.is_finite() && x.abs() <= 1e3;
        let len = ray.dir.length();
        ray.origin.to_array().into_iter().all(ok)
            && ray.dir.to_array().into_iter().all(ok)
            && (1e-2..=1e2).contains(&len)
            && (0.0..=1e3).contains(&max_t)
            && pts.iter().all(|p| p.to_array().into_iter().all(ok))
            && scalars.iter().copied().all(ok)
    }

    /// Distance tolerance of the oracle: `1e-5` of the largest magnitude involved, at least
    /// `1e-5` (the library mixes `f32` slab tests with `f64` solves; the oracle works in `f32`,
    /// whose rounding, ~6e-8 of the magnitude, is far below this).
    fn tolerance(ray: &Ray, max_t: f32, pts: &[Vec3], scalars: &[f32]) -> f32 {
        let mut m = ray.origin.abs().max_element().max(ray.dir.length() * max_t);
        for p in pts {
            m = m.max(p.abs().max_element());
        }
        for x in scalars {
            m = m.max(x.abs());
        }
        1e-5 * (1.0 + m)
    }

    /// Samples the ray against `depth` (positive inside the solid) and checks `hit`; panics
    /// on a contradiction. Does nothing unless the input is moderate.
    pub fn oracle(
        ray: &Ray,
        max_t: f32,
        name: &str,
        hit: Option<RayHit>,
        pts: &[Vec3],
        scalars: &[f32],
        depth: impl Fn(Vec3) -> f32,
    ) {
        if !moderate(ray, max_t, pts, scalars) {
            return;
        }
        let tol = tolerance(ray, max_t, pts, scalars);
        let (o, d) = (ray.origin, ray.dir);
        let dl = d.length();
        for k in 0..=64u8 {
            let t = max_t * f32::from(k) / 64.0;
            if depth(o + d * t) > tol {
                let Some(h) = hit else {
                    panic!("{name}: no hit, but the ray is inside at t = {t}");
                };
                assert!(
                    h.t <= t + tol / dl,
                    "{name}: hit {h:?} later than t = {t}, where the ray is inside"
                );
            }
        }
        if let Some(h) = hit {
            let dep = depth(h.point);
            if h.t > 0.0 {
                assert!(
                    dep.abs() <= tol,
                    "{name}: hit {h:?} is {dep} off the surface"
                );
            } else {
                assert!(dep >= -tol, "{name}: t = 0 hit {h:?} starts {dep} outside");
            }
        }
    }

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = super::Bytes::new(data);
        let ray = b.ray();
        let max_t = b.f32();
        let (pl, sp, bx, ob, cap, tri) = (
            b.plane(),
            b.sphere(),
            b.aabb(),
            b.obb(),
            b.capsule(),
            b.triangle(),
        );
        let nan_ray = super::any_nan(&[ray.origin, ray.dir]) || max_t.is_nan();

        let hits = [
            ("plane", r::plane(&ray, &pl, max_t)),
            ("sphere", r::sphere(&ray, &sp, max_t)),
            ("aabb", r::aabb(&ray, &bx, max_t)),
            ("obb", r::obb(&ray, &ob, max_t)),
            ("capsule", r::capsule(&ray, &cap, max_t)),
            ("triangle", r::triangle(&ray, &tri, max_t)),
        ];
        // NaN anywhere in a shape also gives `None`.
        let nan_shape = [
            pl.normal.is_nan() || pl.d.is_nan(),
            sp.center.is_nan() || sp.radius.is_nan(),
            bx.min.is_nan() || bx.max.is_nan(),
            ob.center.is_nan() || ob.axes.is_nan() || ob.half_extents.is_nan(),
            cap.a.is_nan() || cap.b.is_nan() || cap.radius.is_nan(),
            super::any_nan(&[tri.a, tri.b, tri.c]),
        ];
        for ((name, h), nan_s) in hits.iter().zip(nan_shape) {
            check_hit(name, &ray, max_t, h);
            if nan_ray || nan_s {
                assert!(h.is_none(), "{name}: NaN input hit: {h:?}");
            }
        }
        // Every hit's point is `origin + t · dir` (to rounding).
        for (name, h) in &hits {
            if let Some(h) = h {
                let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
                let want = o + f64::from(h.t) * d;
                let err = (h.point.as_dvec3() - want).length();
                let mag = o.length() + f64::from(h.t) * d.length();
                // Plus the rounding of `t` itself to f32 (the point is computed from the exact
                // `t`): half its spacing, at least the smallest subnormal (a `t` of 5e-50
                // reported as 0 while `dir` is 4e29 puts the point 2e-20 from the origin).
                let spacing = (f64::from(h.t) * f64::from(f32::EPSILON)).max(1.5e-45);
                assert!(
                    err <= 1e-6 * mag + spacing * d.length() + 1e-30,
                    "{name}: point {} is not origin + t·dir = {want} (error {err:e})",
                    h.point
                );
            }
        }
        // On moderate input, an oracle in f64: sample the ray and compare with the depth of
        // each solid shape (positive inside).
        oracle(
            &ray,
            max_t,
            "sphere",
            hits[1].1,
            &[sp.center],
            &[sp.radius],
            |p| sp.radius.abs() - (p - sp.center).length(),
        );
        oracle(
            &ray,
            max_t,
            "aabb",
            hits[2].1,
            &[bx.min, bx.max],
            &[],
            |p| (p - bx.min).min(bx.max - p).min_element(),
        );
        oracle(
            &ray,
            max_t,
            "obb",
            hits[3].1,
            &[ob.center, ob.half_extents],
            &[],
            |p| {
                // Box frame through the transpose of the (orthonormal to ~1e-7) axes.
                let q = ob.axes.transpose() * (p - ob.center);
                (ob.half_extents.abs() - q.abs()).min_element()
            },
        );
        oracle(
            &ray,
            max_t,
            "capsule",
            hits[4].1,
            &[cap.a, cap.b],
            &[cap.radius],
            |p| {
                let (a, b) = (cap.a, cap.b);
                let ab = b - a;
                let l2 = ab.length_squared();
                let s = if l2 > 0.0 {
                    ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                cap.radius.abs() - (p - (a + ab * s)).length()
            },
        );
        // The thin shapes: a hit lies on the plane / in the triangle's plane.
        if let Some(h) = hits[0].1 {
            if moderate(&ray, max_t, &[], &[pl.d]) && (pl.normal.length() - 1.0).abs() < 1e-3 {
                let dist = pl.signed_distance(h.point);
                let tol = tolerance(&ray, max_t, &[], &[pl.d]);
                assert!(
                    dist.abs() <= tol,
                    "plane: hit {h:?} is {dist} off the plane"
                );
            }
        }
        if let Some(h) = hits[5].1 {
            if moderate(&ray, max_t, &[tri.a, tri.b, tri.c], &[]) {
                let q = collide::closest::point_triangle(h.point, &tri);
                let tol = tolerance(&ray, max_t, &[tri.a, tri.b, tri.c], &[]);
                let dist = (q - h.point).length();
                assert!(
                    dist <= tol,
                    "triangle: hit {h:?} is {dist} from the triangle"
                );
            }
        }
        // The precomputed-inverse slab test agrees with the plain one.
        let inv = r::RayInv::new(&ray);
        assert_eq!(
            r::aabb_inv(&inv, &bx, max_t).map(|h| h.t.to_bits()),
            hits[2].1.map(|h| h.t.to_bits()),
            "aabb and aabb_inv disagree"
        );
    }
}

pub mod gjk_epa {
    //! GJK distance / intersection, EPA penetration and the combined contact on any two convex
    //! shapes (point, sphere, AABB, OBB, segment, capsule, triangle, point cloud) built from
    //! arbitrary f32 bit patterns. Asserts the documented contracts of `collide::convex::{gjk,
    //! epa, contact}`: never panics; NaN input gives "no contact" (`INFINITY`, `false`, `None`);
    //! finite input gives a finite distance `>= 0`, `intersecting == (distance == 0)`, a unit
    //! normal when apart; distance is symmetric within the GJK tolerance; every `Some` from EPA or
    //! contact has a unit normal, finite points and a finite depth. On moderate input (within
    //! 1e3) the answers are checked as geometry against the shapes' support maps: the GJK
    //! normal separates by the distance, the EPA normal overlaps by the depth.
    use super::{is_unit, Bytes};
    use collide::convex::{contact, epa, gjk};

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = Bytes::new(data);
        let sa = b.any_shape();
        let sb = b.any_shape();
        let margin = b.f32();
        let nan = sa.has_nan() || sb.has_nan();

        let d_ab = gjk::distance(&sa, &sb);
        let d_ba = gjk::distance(&sb, &sa);
        let hit_ab = gjk::intersects(&sa, &sb);
        let pen = epa::penetration(&sa, &sb);
        let con = contact::contact(&sa, &sb, margin);

        if nan {
            assert!(
                d_ab.distance == f32::INFINITY && !d_ab.intersecting,
                "NaN input: {d_ab:?}"
            );
            assert!(!hit_ab, "NaN input intersects");
            assert!(pen.is_none(), "NaN input penetration {pen:?}");
            assert!(con.is_none(), "NaN input contact {con:?}");
            return;
        }
        // Every answer, finite or not: no NaN distance, no NaN in a claimed contact.
        assert!(!d_ab.distance.is_nan(), "NaN distance {d_ab:?}");
        assert_eq!(
            d_ab.intersecting,
            d_ab.distance == 0.0,
            "intersecting flag vs distance {d_ab:?}"
        );
        if let Some(p) = pen {
            assert!(is_unit(p.normal), "EPA normal not unit: {p:?}");
            assert!(p.depth.is_finite() && p.depth >= 0.0, "EPA depth: {p:?}");
            assert!(
                p.point_a.is_finite() && p.point_b.is_finite(),
                "EPA points: {p:?}"
            );
        }
        if let Some(c) = con {
            assert!(is_unit(c.normal), "contact normal not unit: {c:?}");
            assert!(c.depth.is_finite(), "contact depth: {c:?}");
            assert!(
                c.point_a.is_finite() && c.point_b.is_finite(),
                "contact points: {c:?}"
            );
        }

        // Below 1e15 nothing overflows (|a - b|² < 1e31 even in f32): the full metric contract.
        let (scale_a, scale_b) = (sa.scale(), sb.scale());
        if sa.bounded(1e15) && sb.bounded(1e15) {
            let scale = (scale_a + scale_b).max(1e-30);
            assert!(
                d_ab.distance.is_finite() && d_ab.distance >= 0.0,
                "distance {d_ab:?}"
            );
            if !d_ab.intersecting {
                assert!(is_unit(d_ab.normal), "apart but normal not unit: {d_ab:?}");
            }
            // GJK converges to TOLERANCE × scale; allow 100× for the two runs' rounding.
            let tol = 1e-4 * scale;
            assert!(
                (d_ab.distance - d_ba.distance).abs() <= tol,
                "distance not symmetric: {} vs {} (tol {tol})",
                d_ab.distance,
                d_ba.distance
            );
            // `intersects` (and EPA's own GJK) stop at the first separating axis, whose
            // touching tolerance uses the support points seen so far; `distance` runs on and
            // may see larger ones. So they agree except inside the touching band, where
            // `distance` calls a gap within `TOLERANCE ×` the shapes' scale touching: there its
            // witness points must be that close.
            let band = 2.0 * gjk::TOLERANCE * (scale_a + scale_b).max(1e-30);
            let in_band = (d_ab.point_a - d_ab.point_b).length() <= band;
            if hit_ab != d_ab.intersecting {
                assert!(
                    d_ab.intersecting && in_band,
                    "intersects = {hit_ab} vs distance {d_ab:?} outside the touching band {band}"
                );
            }
            if d_ab.intersecting && pen.is_none() {
                assert!(
                    in_band,
                    "GJK says intersecting (not just touching), EPA says None: {d_ab:?}"
                );
            }
        }
        // Moderate input (every number within 1e3): the answers as geometry, against the
        // shapes' own support maps. Apart: the witness points are `distance` apart and the
        // normal separates the shapes by exactly that (the gap along it, from the supports).
        // Penetrating: `point_a - point_b = depth · normal`, and along the normal the shapes
        // overlap by exactly `depth` (moving B by `depth · normal` leaves them touching).
        if sa.bounded(1e3) && sb.bounded(1e3) {
            use collide::convex::SupportMap;
            let tol = 1e-4 * (1.0 + scale_a + scale_b);
            // Overlap of A and B along unit n: max over A of n·a minus min over B of n·b.
            let overlap_along = |n: collide::Vec3| {
                f64::from(n.dot(sa.support(n))) - f64::from(n.dot(sb.support(-n)))
            };
            let tol64 = f64::from(tol);
            if !d_ab.intersecting {
                let w = (d_ab.point_b - d_ab.point_a).length();
                assert!(
                    (w - d_ab.distance).abs() <= tol,
                    "witness points {w} apart, distance {}: {d_ab:?}",
                    d_ab.distance
                );
                let gap = -overlap_along(d_ab.normal);
                assert!(
                    (gap - f64::from(d_ab.distance)).abs() <= tol64,
                    "the normal separates by {gap}, distance {}: {d_ab:?}",
                    d_ab.distance
                );
            }
            if let Some(p) = pen {
                let w = p.point_a - p.point_b - p.normal * p.depth;
                assert!(
                    w.length() <= tol,
                    "point_a - point_b != depth · normal: {p:?}"
                );
                let ov = overlap_along(p.normal);
                assert!(
                    (ov - f64::from(p.depth)).abs() <= tol64,
                    "overlap along the EPA normal {ov}, depth {}: {p:?}",
                    p.depth
                );
            }
        }
    }
}

pub mod sat {
    //! SAT between two convex hulls built from arbitrary points, at arbitrary poses. Asserts the
    //! documented contract of `collide::convex::sat`: never panics; a non-finite pose gives
    //! `Separated` with `distance = INFINITY`; a finite pose gives either a gap `> 0` whose plane
    //! (unit normal) really separates the world vertices, or a unit normal with a finite depth
    //! `>= 0`; the warm-started `sat_cached` gives the same verdict; swapping A and B gives the same
    //! verdict unless the gap is within rounding of zero; and GJK on the same vertices agrees
    //! (SAT's gap is a lower bound of the distance; a deep SAT penetration is a GJK intersection).
    use super::{is_unit, Bytes};
    use collide::convex::{
        gjk, sat, sat_cached, ConvexPoints, ConvexPolyhedron, SatResult, SepCache,
    };
    use collide::Vec3;

    fn scale_of(ps: &[Vec3]) -> f32 {
        ps.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()))
    }

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = Bytes::new(data);
        let na = 1 + usize::from(b.byte() % 12);
        let nb = 1 + usize::from(b.byte() % 12);
        let pa = b.points(na);
        let pb = b.points(nb);
        let (qa, ta, qb, tb) = (b.quat(), b.vec3(), b.quat(), b.vec3());
        let (Ok(ha), Ok(hb)) = (
            ConvexPolyhedron::from_points(&pa),
            ConvexPolyhedron::from_points(&pb),
        ) else {
            return;
        };
        let a = ha.with_pose(qa, ta);
        let bb = hb.with_pose(qb, tb);

        let r = sat(&a, &bb);
        let mut cache = SepCache::default();
        let r1 = sat_cached(&a, &bb, &mut cache);
        let r2 = sat_cached(&a, &bb, &mut cache);
        let rev = sat(&bb, &a);

        if !a.is_finite() || !bb.is_finite() {
            for x in [r, r1, r2, rev] {
                assert!(
                    matches!(x, SatResult::Separated { distance, .. } if distance == f32::INFINITY),
                    "non-finite pose: {x:?}"
                );
            }
            return;
        }
        let (wa, wb) = (a.world_vertices(), bb.world_vertices());
        if !wa.iter().chain(&wb).all(|v| v.is_finite()) {
            // The pose overflowed a vertex: only "no panic" is promised.
            return;
        }
        let scale = scale_of(&wa).max(scale_of(&wb)).max(1e-30);
        // Bigger than a float's rounding of the transforms at this scale.
        let tol = 1e-4 * scale;
        for x in [r, r1, r2, rev] {
            match x {
                SatResult::Separated { plane, distance } => {
                    assert!(distance > 0.0, "separated by a gap <= 0: {x:?}");
                    if distance.is_finite() && scale < 1e15 {
                        assert!(is_unit(plane.normal), "plane normal not unit: {x:?}");
                    }
                }
                SatResult::Penetrating { normal, depth } => {
                    assert!(is_unit(normal), "penetration normal not unit: {x:?}");
                    assert!(depth.is_finite() && depth >= 0.0, "depth: {x:?}");
                }
            }
        }
        assert_eq!(
            r.is_penetrating(),
            r1.is_penetrating(),
            "sat vs sat_cached: {r:?} / {r1:?}"
        );
        assert_eq!(
            r.is_penetrating(),
            r2.is_penetrating(),
            "sat vs warm sat_cached: {r:?} / {r2:?}"
        );
        if scale >= 1e15 {
            return;
        }
        let gap = |x: &SatResult| match x {
            SatResult::Separated { distance, .. } => *distance,
            SatResult::Penetrating { depth, .. } => -*depth,
        };
        if r.is_penetrating() != rev.is_penetrating() {
            assert!(
                gap(&r).abs() <= tol && gap(&rev).abs() <= tol,
                "A/B swap changed the verdict beyond rounding: {r:?} / {rev:?}"
            );
        }
        if let SatResult::Separated { plane, distance } = r {
            // The plane separates: A below -distance/2, B above +distance/2 (within rounding).
            for v in &wa {
                let s = plane.normal.dot(*v) + plane.d;
                assert!(
                    s <= -0.5 * distance + tol,
                    "A vertex {v:?} above the plane: {s} ({r:?})"
                );
            }
            for v in &wb {
                let s = plane.normal.dot(*v) + plane.d;
                assert!(
                    s >= 0.5 * distance - tol,
                    "B vertex {v:?} below the plane: {s} ({r:?})"
                );
            }
        }
        // SAT against GJK's f64 distance on every pair whose largest coordinate is at least
        // 1e-30; below that only the shape checks above run. An edge-pair axis is a cross
        // product (∝ size²) whose f32 squared length (∝ size⁴) leaves f32's normal range below
        // ~1e-9; `sat` normalises such axes in f64, and the two tiny-hull inputs where SAT and
        // GJK disagreed by 1e-4 of the size (hulls ~1e-18 and ~3e-20 across,
        // `tiny_hulls_underflow_*`) now agree with an f64 brute force to 6e-7 of the gap.
        if scale < 1e-30 {
            return;
        }
        let g = gjk::distance(&ConvexPoints(&wa), &ConvexPoints(&wb));
        match r {
            SatResult::Separated { distance, .. } => assert!(
                g.distance >= distance - tol,
                "SAT gap {distance} exceeds the GJK distance {}",
                g.distance
            ),
            SatResult::Penetrating { depth, .. } => assert!(
                depth <= tol || g.distance <= tol,
                "SAT penetrates by {depth} but GJK distance is {}",
                g.distance
            ),
        }
    }
}

pub mod broadphase {
    //! The three broad phases fed the same random insert / update / remove / query sequence, with
    //! boxes from arbitrary f32 bit patterns. Asserts: never panics; `validate()` holds after every
    //! operation; all three accept or reject each edit alike (a NaN, infinite or inverted box is
    //! `InvalidAabb`) and hand out the same ids; `update_pairs`, `query_aabb` and `ray_cast` report
    //! exactly what the brute-force reference reports.
    use super::Bytes;
    use collide::broadphase::{
        BroadPhase, BruteForce, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
    };
    use collide::shapes::Aabb;
    use collide::Vec3;

    fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
        v.sort();
        v
    }

    /// The box `p` holds for `id` (the zero box if `id` is not live), which moves start from.
    fn current(p: &dyn BroadPhase, id: ProxyId) -> Aabb {
        p.aabb(id).unwrap_or(Aabb {
            min: Vec3::ZERO,
            max: Vec3::ZERO,
        })
    }

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = Bytes::new(data);
        let margin = f32::from(b.byte()) / 64.0;
        let mut phases: Vec<(&str, Box<dyn BroadPhase>)> = vec![
            ("brute", Box::new(BruteForce::new())),
            ("sap", Box::new(SweepAndPrune::new())),
            ("bvh", Box::new(DynamicBvh::with_margin(margin))),
        ];
        let mut live: Vec<ProxyId> = Vec::new();
        let mut ops = 0;
        while ops < 64 && !b.is_empty() {
            ops += 1;
            let op = b.byte() % 8;
            match op {
                0..=2 => {
                    // Raw Aabb (not `Aabb::new`): inverted boxes must be rejected too.
                    let aabb = Aabb {
                        min: b.vec3(),
                        max: b.vec3(),
                    };
                    let groups = match b.byte() % 4 {
                        0 => CollisionGroups {
                            memberships: u32::from(b.byte()),
                            filter: u32::from(b.byte()),
                        },
                        _ => CollisionGroups::default(),
                    };
                    // One box, or (1 in 8) a batch of up to 48 copies on a grid with a fuzzed
                    // spacing: enough proxies, at once or a few at a time, to fill buckets,
                    // split buckets and nodes, and cross the bulk-load threshold.
                    let batch = if b.byte() % 8 == 0 {
                        1 + usize::from(b.byte()) % 48
                    } else {
                        1
                    };
                    let step = f32::from(b.byte()) / 32.0;
                    for k in 0..batch {
                        if live.len() >= 400 {
                            break;
                        }
                        let shift =
                            Vec3::new((k % 4) as f32, ((k / 4) % 4) as f32, (k / 16) as f32) * step;
                        let aabb = Aabb {
                            min: aabb.min + shift,
                            max: aabb.max + shift,
                        };
                        let res: Vec<_> = phases
                            .iter_mut()
                            .map(|(_, p)| p.insert(aabb, groups))
                            .collect();
                        assert!(
                            res.windows(2).all(|w| w[0] == w[1]),
                            "insert {aabb:?} disagrees: {res:?}"
                        );
                        if let Ok(id) = res[0] {
                            live.push(id);
                        }
                    }
                }
                3 | 4 => {
                    if live.is_empty() {
                        continue;
                    }
                    let pick = b.byte();
                    if pick % 16 == 15 {
                        // Every live box moves by the same fuzzed offset (a frame of motion:
                        // the full-traversal, refit and rebuild paths).
                        let d = b.vec3();
                        for &id in &live {
                            let old = current(phases[0].1.as_ref(), id);
                            let aabb = Aabb {
                                min: old.min + d,
                                max: old.max + d,
                            };
                            let res: Vec<_> =
                                phases.iter_mut().map(|(_, p)| p.update(id, aabb)).collect();
                            assert!(
                                res.windows(2).all(|w| w[0] == w[1]),
                                "update {id} {aabb:?} disagrees: {res:?}"
                            );
                        }
                        continue;
                    }
                    let id = live[usize::from(pick) % live.len()];
                    let aabb = if b.byte() % 2 == 0 {
                        Aabb {
                            min: b.vec3(),
                            max: b.vec3(),
                        }
                    } else {
                        // A small move of the current box (the common case).
                        let d = Vec3::splat(f32::from(b.byte() as i8) / 16.0);
                        let old = current(phases[0].1.as_ref(), id);
                        Aabb {
                            min: old.min + d,
                            max: old.max + d,
                        }
                    };
                    let res: Vec<_> = phases.iter_mut().map(|(_, p)| p.update(id, aabb)).collect();
                    assert!(
                        res.windows(2).all(|w| w[0] == w[1]),
                        "update {id} {aabb:?} disagrees: {res:?}"
                    );
                }
                5 => {
                    // Remove a live id, or (1 in 4) an id that is not live.
                    let id = if live.is_empty() || b.byte() % 4 == 0 {
                        u32::from(b.byte()) + 1000
                    } else {
                        live.swap_remove(usize::from(b.byte()) % live.len())
                    };
                    let res: Vec<_> = phases.iter_mut().map(|(_, p)| p.remove(id)).collect();
                    assert!(
                        res.windows(2).all(|w| w[0] == w[1]),
                        "remove {id} disagrees: {res:?}"
                    );
                }
                6 => {
                    let mut reference = None;
                    for (name, p) in phases.iter_mut() {
                        let mut out = Vec::new();
                        p.update_pairs(&mut out);
                        for &(x, y) in &out {
                            assert!(x < y, "{name}: pair ({x}, {y}) not ordered");
                        }
                        let out = sorted(out);
                        let n = out.len();
                        let out2 = sorted(out);
                        assert!(
                            out2.windows(2).all(|w| w[0] != w[1]),
                            "{name}: duplicate pair"
                        );
                        assert_eq!(n, out2.len());
                        match &reference {
                            None => reference = Some(out2),
                            Some(r) => {
                                assert_eq!(
                                    r, &out2,
                                    "{name}: update_pairs differs from brute force"
                                )
                            }
                        }
                    }
                }
                _ => {
                    let q = Aabb {
                        min: b.vec3(),
                        max: b.vec3(),
                    };
                    let ray = collide::shapes::Ray::new(b.vec3(), b.vec3());
                    let max_t = b.f32();
                    let mut refq: Option<Vec<ProxyId>> = None;
                    let mut refr: Option<Vec<ProxyId>> = None;
                    for (name, p) in phases.iter() {
                        let mut got = Vec::new();
                        p.query_aabb(&q, &mut |id| {
                            got.push(id);
                            true
                        });
                        let got = sorted(got);
                        match &refq {
                            None => refq = Some(got),
                            Some(r) => {
                                assert_eq!(
                                    r, &got,
                                    "{name}: query_aabb {q:?} differs from brute force"
                                )
                            }
                        }
                        let mut hits = Vec::new();
                        p.ray_cast(&ray, max_t, &mut |id, t| {
                            assert!(
                                t >= 0.0 && t <= max_t,
                                "{name}: ray t {t} outside [0, {max_t}]"
                            );
                            hits.push(id);
                            max_t
                        });
                        let hits = sorted(hits);
                        match &refr {
                            None => refr = Some(hits),
                            Some(r) => assert_eq!(
                                r, &hits,
                                "{name}: ray_cast {ray:?} {max_t} differs from brute force"
                            ),
                        }
                    }
                }
            }
            for (name, p) in &phases {
                if let Err(e) = p.validate() {
                    panic!("{name}: validate failed after op {op}: {e}");
                }
                assert_eq!(p.len(), live.len(), "{name}: len");
            }
        }
    }
}

pub mod world {
    //! The collision world fed random add / remove / move / teleport / velocity / step /
    //! update / query sequences with poses and sizes from arbitrary f32 bit patterns. Asserts:
    //! never panics; a body with a NaN or infinite size, pose or velocity is refused
    //! (`InvalidBody`); after every update the contacts are sorted pairs `a < b` of live bodies
    //! with a unit normal, a finite depth `>= 0`, 1–4 finite points and a time of impact in
    //! `[0, 1]`; every contact has a `Began` or `Persisted` event; ray hits have `0 <= t <=
    //! max_t`, a finite point and a unit normal; box queries return sorted live ids.
    use super::{is_unit, Bytes};
    use collide::shapes::{Aabb, Ray};
    use collide::world::{
        BodyDesc, BodyId, BroadPhaseKind, ContactEvent, Geometry, QueryFilter, World, WorldConfig,
        WorldError,
    };
    use collide::Vec3;

    /// Runs the target on one input; panics when a contract is broken.
    pub fn run(data: &[u8]) {
        let mut b = Bytes::new(data);
        let kind = if b.byte() % 2 == 0 {
            BroadPhaseKind::SweepAndPrune
        } else {
            BroadPhaseKind::DynamicBvh
        };
        let mut world = World::new(WorldConfig {
            broad_phase: kind,
            ccd_fraction: f32::from(b.byte()) / 255.0,
        });
        let mut live: Vec<BodyId> = Vec::new();
        let mut ops = 0;
        while ops < 40 && !b.is_empty() {
            ops += 1;
            match b.byte() % 10 {
                0..=2 => {
                    if live.len() >= 12 {
                        continue;
                    }
                    let Some(geometry) = geometry(&mut b) else {
                        continue;
                    };
                    let fixed = b.byte() % 2 == 0;
                    let sensor = b.byte() % 4 == 0;
                    let sizes_bad = match &geometry {
                        Geometry::Sphere(r) => !r.is_finite() || *r < 0.0,
                        Geometry::Cuboid(e) => !e.is_finite() || e.min_element() <= 0.0,
                        Geometry::Capsule {
                            half_height,
                            radius,
                        } => {
                            !(half_height.is_finite() && radius.is_finite())
                                || *half_height < 0.0
                                || *radius < 0.0
                        }
                        _ => false,
                    };
                    let (pos, rot, vel, ang) = (b.vec3(), b.quat(), b.vec3(), b.vec3());
                    let mut desc = BodyDesc::new(geometry)
                        .at(pos)
                        .rotated(rot)
                        .moving(vel)
                        .spinning(ang);
                    desc.fixed = fixed;
                    desc.sensor = sensor;
                    let res = world.add_body(desc);
                    if pos.is_nan() || rot.is_nan() || vel.is_nan() || ang.is_nan() || sizes_bad {
                        assert!(
                            matches!(res, Err(WorldError::InvalidBody(_))),
                            "invalid body accepted: {res:?}"
                        );
                    }
                    if let Ok(id) = res {
                        assert!(!live.contains(&id), "id {id:?} handed out twice");
                        live.push(id);
                    }
                }
                3 => {
                    if live.is_empty() {
                        continue;
                    }
                    let id = live.swap_remove(usize::from(b.byte()) % live.len());
                    assert_eq!(world.remove_body(id), Ok(()));
                    assert!(world.remove_body(id).is_err(), "removed twice");
                }
                4 | 5 => {
                    if live.is_empty() {
                        continue;
                    }
                    let id = live[usize::from(b.byte()) % live.len()];
                    let (pos, rot) = (b.vec3(), b.quat());
                    let res = if b.byte() % 2 == 0 {
                        world.move_body(id, pos, rot)
                    } else {
                        world.teleport_body(id, pos, rot)
                    };
                    if pos.is_nan() || rot.is_nan() {
                        assert!(res.is_err(), "NaN pose accepted");
                    }
                }
                6 => {
                    if live.is_empty() {
                        continue;
                    }
                    let id = live[usize::from(b.byte()) % live.len()];
                    let res = world.set_velocity(id, b.vec3(), b.vec3());
                    let _ = res;
                }
                7 => world.step(b.f32()),
                8 => world.update(),
                _ => {
                    queries(&world, &live, &mut b);
                }
            }
            assert_eq!(world.len(), live.len(), "len");
            check_frame(&world, &live);
        }
        world.update();
        check_frame(&world, &live);
    }

    /// A body's geometry from the bytes (sizes unchecked: the world must refuse bad ones), or
    /// `None` when a mesh or heightfield was refused (a typed error).
    fn geometry(b: &mut Bytes<'_>) -> Option<Geometry> {
        Some(match b.byte() % 6 {
            0 => Geometry::Sphere(b.f32()),
            1 => Geometry::Cuboid(b.vec3()),
            2 => Geometry::HalfSpace,
            3 => Geometry::Mesh(level_mesh(b)?),
            4 => Geometry::Heightfield(level_heightfield(b)?),
            _ => Geometry::Capsule {
                half_height: b.f32(),
                radius: b.f32(),
            },
        })
    }

    /// Every scene query once, with a filter from the bytes: results name live bodies the
    /// filter lets through, lie within their bounds, and are sorted where promised.
    fn queries(world: &World, live: &[BodyId], b: &mut Bytes<'_>) {
        let excluded = live.get(usize::from(b.byte())).copied();
        let mut filter = QueryFilter::default();
        if let Some(id) = excluded {
            filter = filter.excluding(id);
        }
        let sensors = b.byte() % 2 == 0;
        if sensors {
            filter = filter.with_sensors();
        }
        let passes = |id: &BodyId| {
            live.contains(id)
                && Some(*id) != excluded
                && (sensors || !world.is_sensor(*id).unwrap())
        };
        let ray = Ray::new(b.vec3(), b.vec3());
        let max_t = b.f32();
        if let Some(h) = world.cast_ray(&ray, max_t, &filter) {
            assert!(passes(&h.body), "ray hit a body the filter refuses {h:?}");
            assert!(h.t >= 0.0 && h.t <= max_t, "ray t {h:?} max_t {max_t}");
            assert!(h.point.is_finite() && is_unit(h.normal), "ray hit {h:?}");
        }
        let all = world.cast_ray_all(&ray, max_t, &filter);
        assert!(all.iter().all(|h| passes(&h.body)), "ray_all: {all:?}");
        assert!(all.windows(2).all(|w| w[0].t <= w[1].t), "ray_all unsorted");
        let q = Aabb::new(b.vec3(), b.vec3());
        let got = world.query_aabb(&q, &filter);
        assert!(
            got.windows(2).all(|w| w[0] < w[1]),
            "query not sorted: {got:?}"
        );
        assert!(got.iter().all(passes), "query returned a refused body");
        let Some(shape) = geometry(b) else {
            return;
        };
        let (pos, rot, motion) = (b.vec3(), b.quat(), b.vec3());
        if let Some(h) = world.cast_shape(&shape, pos, rot, motion, &filter) {
            assert!(passes(&h.body), "cast hit a refused body {h:?}");
            assert!((0.0..=1.0).contains(&h.toi), "cast toi {h:?}");
            assert!(h.point.is_finite() && is_unit(h.normal), "cast hit {h:?}");
        }
        let distance = b.f32();
        if let Some(h) = world.cast_shape_within(&shape, pos, rot, motion, distance, &filter) {
            assert!(passes(&h.body), "cast within hit a refused body {h:?}");
            assert!((0.0..=1.0).contains(&h.toi), "cast within toi {h:?}");
            assert!(
                h.point.is_finite() && is_unit(h.normal),
                "cast within hit {h:?}"
            );
        }
        let over = world.overlap_shape(&shape, pos, rot, &filter);
        assert!(over.windows(2).all(|w| w[0] < w[1]), "overlap unsorted");
        assert!(over.iter().all(passes), "overlap returned a refused body");
        let max_d = b.f32();
        if let Some(p) = world.closest_point(pos, max_d, &filter) {
            assert!(passes(&p.body), "closest point on a refused body {p:?}");
            assert!(p.distance >= 0.0 && p.distance <= max_d, "closest {p:?}");
        }
        if let Some(d) = world.shape_distance(&shape, pos, rot, max_d, &filter) {
            assert!(passes(&d.body), "distance to a refused body {d:?}");
            assert!(d.distance >= 0.0 && d.distance <= max_d, "distance {d:?}");
        }
    }

    /// A small mesh (up to 6 vertices, 4 triangles) from the bytes, or `None` when it is
    /// refused (a typed error).
    fn level_mesh(b: &mut Bytes<'_>) -> Option<std::sync::Arc<collide::mesh::MeshCollider>> {
        let vertices: Vec<Vec3> = (0..6).map(|_| b.vec3()).collect();
        let triangles = (0..4)
            .map(|_| [b.byte(), b.byte(), b.byte()].map(|i| u32::from(i % 6)))
            .collect();
        let mesh = collide::shapes::TriMesh::new(vertices, triangles);
        collide::mesh::MeshCollider::try_new(mesh)
            .ok()
            .map(std::sync::Arc::new)
    }

    /// A 3 x 3 heightfield from the bytes, or `None` when it is refused.
    fn level_heightfield(b: &mut Bytes<'_>) -> Option<std::sync::Arc<collide::mesh::Heightfield>> {
        let heights = (0..9).map(|_| b.f32()).collect();
        collide::mesh::Heightfield::try_new(heights, 3, 3, b.vec3())
            .ok()
            .map(std::sync::Arc::new)
    }

    fn check_frame(world: &World, live: &[BodyId]) {
        let contacts = world.contacts();
        assert!(
            contacts
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)),
            "contacts not sorted or duplicated"
        );
        let events = world.events();
        for c in contacts {
            assert!(c.a < c.b, "pair not ordered: {c:?}");
            assert!(is_unit(c.manifold.normal), "contact normal not unit: {c:?}");
            assert!(
                c.manifold.depth.is_finite() && c.manifold.depth >= 0.0,
                "depth: {c:?}"
            );
            let n = c.manifold.points().len();
            assert!((1..=4).contains(&n), "{n} contact points: {c:?}");
            assert!(
                c.manifold
                    .points()
                    .iter()
                    .all(|p| p.point.is_finite() && p.depth.is_finite()),
                "points: {c:?}"
            );
            if let Some(t) = c.toi {
                assert!((0.0..=1.0).contains(&t), "toi {t}: {c:?}");
            }
            assert!(
                events.contains(&ContactEvent::Began(c.a, c.b))
                    || events.contains(&ContactEvent::Persisted(c.a, c.b)),
                "contact {c:?} without a Began/Persisted event"
            );
        }
        let _ = (live, Vec3::ZERO);
    }
}

pub mod decompose;
pub mod mesh;
