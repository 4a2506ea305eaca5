//! Mesh colliders and heightfields from raw bytes: construction never panics (a typed error
//! or a valid collider), and every query on a valid one (rays, closest points, contacts and
//! shape casts) keeps its contract.

use super::{check_hit, is_unit, Bytes};
use collide::convex::{ConvexHull, Posed};
use collide::mesh::{Heightfield, MeshCollider, MeshContact, MeshRayHit, MeshShapeHit};
use collide::shapes::{Ray, TriMesh};
use collide::{Quat, Vec3};

/// Builds a mesh and a heightfield from the bytes and queries both.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let nv = usize::from(b.byte() % 24);
    let vertices: Vec<Vec3> = (0..nv).map(|_| b.vec3()).collect();
    let nt = usize::from(b.byte() % 32);
    // Indices may point past the vertices (a typed error).
    let triangles = (0..nt)
        .map(|_| [b.byte(), b.byte(), b.byte()].map(|i| u32::from(i) % (nv as u32 + 2)))
        .collect();
    if let Ok(m) = MeshCollider::try_new(TriMesh::new(vertices, triangles)) {
        if let Err(e) = m.validate() {
            panic!("invalid mesh collider: {e:?}");
        }
        let mut out = Vec::new();
        queries(
            &mut b,
            "mesh",
            &mut |ray, max_t| m.ray_cast(ray, max_t),
            &mut |p| m.closest_point(p, f32::INFINITY).map(|c| c.distance),
            &mut |shape, out| match shape {
                Probe::Sphere(s) => m.contacts(s, 0.0, out),
                Probe::Box(o) => m.contacts(o, 0.0, out),
                Probe::Capsule(c) => m.contacts(c, 0.0, out),
                Probe::Hull(h) => m.contacts(&h.posed(), 0.0, out),
            },
            &mut |shape, motion| match shape {
                Probe::Sphere(s) => m.cast_shape(s, motion),
                Probe::Box(o) => m.cast_shape(o, motion),
                Probe::Capsule(c) => m.cast_shape(c, motion),
                Probe::Hull(h) => m.cast_shape(&h.posed(), motion),
            },
            &mut out,
        );
        let ray = b.ray();
        let max_t = b.f32();
        let mut all = Vec::new();
        m.ray_cast_all(&ray, max_t, &mut all);
        check_all(&ray, max_t, &all);
    }
    let rows = usize::from(b.byte() % 6) + 1;
    let cols = usize::from(b.byte() % 6) + 1;
    let n = if b.byte() % 8 == 0 {
        rows * cols + 1
    } else {
        rows * cols
    };
    let heights = (0..n).map(|_| b.f32()).collect();
    let scale = b.vec3();
    if let Ok(f) = Heightfield::try_new(heights, rows, cols, scale) {
        let mut out = Vec::new();
        queries(
            &mut b,
            "heightfield",
            &mut |ray, max_t| f.ray_cast(ray, max_t),
            &mut |p| f.closest_point(p, f32::INFINITY).map(|c| c.distance),
            &mut |shape, out| match shape {
                Probe::Sphere(s) => f.contacts(s, 0.0, out),
                Probe::Box(o) => f.contacts(o, 0.0, out),
                Probe::Capsule(c) => f.contacts(c, 0.0, out),
                Probe::Hull(h) => f.contacts(&h.posed(), 0.0, out),
            },
            &mut |shape, motion| match shape {
                Probe::Sphere(s) => f.cast_shape(s, motion),
                Probe::Box(o) => f.cast_shape(o, motion),
                Probe::Capsule(c) => f.cast_shape(c, motion),
                Probe::Hull(h) => f.cast_shape(&h.posed(), motion),
            },
            &mut out,
        );
        let ray = b.ray();
        let max_t = b.f32();
        let mut all = Vec::new();
        f.ray_cast_all(&ray, max_t, &mut all);
        check_all(&ray, max_t, &all);
    }
}

/// A convex shape to touch a mesh with.
#[derive(Clone, Debug)]
enum Probe {
    Sphere(collide::shapes::Sphere),
    Box(collide::shapes::Obb),
    Capsule(collide::shapes::Capsule),
    Hull(Box<PosedHull>),
}

/// A hull of a few points from the bytes, turned and placed.
#[derive(Clone, Debug)]
struct PosedHull {
    hull: ConvexHull,
    rotation: Quat,
    at: Vec3,
}

impl PosedHull {
    fn posed(&self) -> Posed<&ConvexHull> {
        Posed::new(&self.hull, self.rotation, self.at)
    }
}

/// Rays, closest points and contacts from the bytes, each checked against its contract.
fn queries(
    b: &mut Bytes<'_>,
    name: &str,
    ray_cast: &mut dyn FnMut(&Ray, f32) -> Option<MeshRayHit>,
    closest: &mut dyn FnMut(Vec3) -> Option<f32>,
    contacts: &mut dyn FnMut(&Probe, &mut Vec<MeshContact>),
    cast: &mut dyn FnMut(&Probe, Vec3) -> Option<MeshShapeHit>,
    out: &mut Vec<MeshContact>,
) {
    for _ in 0..4 {
        let ray = b.ray();
        let max_t = b.f32();
        let hit = ray_cast(&ray, max_t).map(|h| collide::raycast::RayHit {
            t: h.t,
            point: h.point,
            normal: h.normal,
        });
        check_hit(name, &ray, max_t, &hit);
        let p = b.vec3();
        if let Some(d) = closest(p) {
            assert!(
                d >= 0.0 && !d.is_nan(),
                "{name}: closest distance {d} from {p}"
            );
        }
        let probe = match b.byte() % 4 {
            0 => Probe::Sphere(b.sphere()),
            1 => Probe::Box(b.obb()),
            2 => Probe::Capsule(b.capsule()),
            _ => {
                let count = usize::from(b.byte() % 8) + 4;
                let points: Vec<Vec3> = (0..count).map(|_| b.vec3()).collect();
                let (rotation, at) = (b.quat(), b.vec3());
                match ConvexHull::try_new(&points) {
                    Ok(hull) => Probe::Hull(Box::new(PosedHull { hull, rotation, at })),
                    Err(_) => Probe::Sphere(b.sphere()),
                }
            }
        };
        // Shape casts (the capsule by the convex sweep): a hit within the frame, finite, with
        // a unit normal.
        let motion = b.vec3();
        if let Some(h) = cast(&probe, motion) {
            assert!(
                (0.0..=1.0).contains(&h.toi) && h.point.is_finite() && is_unit(h.normal),
                "{name}: cast of {probe:?} by {motion}: {h:?}"
            );
        }
        out.clear();
        contacts(&probe, out);
        for c in out.iter() {
            assert!(is_unit(c.normal), "{name}: contact normal not unit: {c:?}");
            assert!(
                c.depth.is_finite(),
                "{name}: contact depth not finite: {c:?}"
            );
        }
    }
}

/// `ray_cast_all`: every hit within contract, sorted by `t`.
fn check_all(ray: &Ray, max_t: f32, all: &[MeshRayHit]) {
    for h in all {
        let hit = Some(collide::raycast::RayHit {
            t: h.t,
            point: h.point,
            normal: h.normal,
        });
        check_hit("ray_cast_all", ray, max_t, &hit);
    }
    assert!(
        all.windows(2).all(|w| w[0].t <= w[1].t),
        "ray_cast_all not sorted: {all:?}"
    );
}
