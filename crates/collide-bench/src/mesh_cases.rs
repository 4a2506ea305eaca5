//! The level rows of `compare_mesh`: triangle meshes and heightfields, collide against parry3d
//! 0.31 `TriMesh` and `HeightField` on identical inputs.
//!
//! Inputs: the Stanford bunny (902 triangles, `assets/meshes`) and a rolling terrain of
//! `TERRAIN x TERRAIN` samples, as a heightfield in both libraries and as a triangle mesh of
//! ~1M triangles. Rays start around a box 1.5x the surface's and aim at a point inside it.
//! Shapes for contacts sit on the bunny's surface (centred on a random surface point, so
//! they overlap it); shape casts start outside and aim at a surface point. parry is called the
//! way a speed-minded user would: the shape's own local query in its frame
//! (`cast_local_ray_and_get_normal`), `contact_manifolds` of the default dispatcher as a
//! one-shot query (a fresh workspace: its persistent manifolds belong to one pair over
//! frames, and collide's mesh contacts keep no state either), `cast_shapes`.

use crate::convert;
use crate::timing::Case;
use collide::convex::{ConvexHull, Posed};
use collide::mesh::{Heightfield, MeshCollider, MeshContact};
use collide::shapes::{Obb, Ray, Sphere, TriMesh};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use parry3d::math::Pose;
use parry3d::query::{
    self, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher, RayCast,
    ShapeCastOptions,
};
use parry3d::shape::{
    Ball, Capsule, Cuboid, HeightField, Shape, TriMesh as ParryMesh, TriMeshFlags,
};
use parry3d::utils::Array2;
use std::hint::black_box;
use std::sync::Arc;

/// Samples per side of the terrain: 708² samples give 999,698 triangles.
pub const TERRAIN: usize = 708;

/// The repo's bunny, merged into one mesh.
pub fn bunny() -> TriMesh {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/meshes/bunny.obj");
    collide::io::load(path)
        .map(|m| m.merged())
        .unwrap_or_default()
}

/// Rolling hills: `n x n` heights, row-major (collide's layout).
pub fn terrain_heights(n: usize) -> Vec<f32> {
    (0..n * n)
        .map(|i| {
            let (r, c) = ((i / n) as f32, (i % n) as f32);
            (c * 0.031).sin() * 3.0 + (r * 0.017 + c * 0.005).cos() * 2.0 + ((r * c) * 1e-4).sin()
        })
        .collect()
}

/// The terrain's scale: 1 unit per cell, heights as given.
pub fn terrain_scale(n: usize) -> Vec3 {
    Vec3::new((n - 1) as f32, 1.0, (n - 1) as f32)
}

/// A parry heightfield of collide's row-major heights (parry's `Array2` is column-major,
/// rows along z).
pub fn parry_heightfield(heights: &[f32], n: usize) -> HeightField {
    let mut data = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            data[r + c * n] = heights[r * n + c];
        }
    }
    HeightField::new(Array2::new(n, n, data), terrain_scale(n))
}

/// The heightfield's triangles as one welded mesh (collide's split of each cell).
pub fn heightfield_mesh(f: &Heightfield) -> TriMesh {
    let (rows, cols) = (f.rows(), f.cols());
    let mut mesh = TriMesh::default();
    let s = f.scale();
    for r in 0..rows {
        for c in 0..cols {
            // The sample's height, read back through the first triangle that holds it.
            mesh.vertices.push(Vec3::new(
                (c as f32 / (cols - 1) as f32 - 0.5) * s.x,
                0.0,
                (r as f32 / (rows - 1) as f32 - 0.5) * s.z,
            ));
        }
    }
    for i in 0..f.triangle_count() as u32 {
        if let Some(t) = f.triangle(i) {
            let ids = t.vertices().map(|v| {
                let c = ((v.x / s.x + 0.5) * (cols - 1) as f32).round() as usize;
                let r = ((v.z / s.z + 0.5) * (rows - 1) as f32).round() as usize;
                let k = r * cols + c;
                mesh.vertices[k].y = v.y;
                k as u32
            });
            mesh.triangles.push(ids);
        }
    }
    mesh
}

fn rays_at(aabb: collide::shapes::Aabb, n: usize, seed: u64) -> Vec<Ray> {
    let mut g = Gen::new(seed);
    let (c, h) = (aabb.center(), aabb.half_extents());
    (0..n)
        .map(|_| {
            let o = c + g.vec(1.0) * h * 1.5;
            let t = c + g.vec(1.0) * h;
            Ray::new(o, t - o)
        })
        .collect()
}

fn parry_ray(r: &Ray) -> query::Ray {
    query::Ray::new(r.origin, r.dir)
}

fn ray_case(
    name: &str,
    rays: Vec<Ray>,
    collide_cast: impl Fn(&Ray) -> bool + 'static,
    parry_cast: impl Fn(&query::Ray) -> bool + 'static,
    parry_call: &str,
) -> Case {
    let prays: Vec<query::Ray> = rays.iter().map(parry_ray).collect();
    Case {
        name: name.into(),
        n: rays.len(),
        collide: Box::new(move || {
            black_box(rays.as_slice())
                .iter()
                .filter(|r| collide_cast(r))
                .count()
        }),
        parry: Box::new(move || {
            black_box(prays.as_slice())
                .iter()
                .filter(|r| parry_cast(r))
                .count()
        }),
        parry_call: parry_call.into(),
        direct: None,
    }
}

/// The collide surfaces the ray rows cast at.
trait Surface: 'static {
    fn aabb(&self) -> collide::shapes::Aabb;
    fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<collide::mesh::MeshRayHit>;
}

impl Surface for MeshCollider {
    fn aabb(&self) -> collide::shapes::Aabb {
        MeshCollider::aabb(self)
    }
    fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<collide::mesh::MeshRayHit> {
        MeshCollider::ray_cast(self, ray, max_t)
    }
}

impl Surface for Heightfield {
    fn aabb(&self) -> collide::shapes::Aabb {
        Heightfield::aabb(self)
    }
    fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<collide::mesh::MeshRayHit> {
        Heightfield::ray_cast(self, ray, max_t)
    }
}

/// `n` rays (seeded) at one surface in both libraries (`parry_type`, the parry3d type's name,
/// for the notes): collide's `ray_cast` against parry3d's `cast_local_ray_and_get_normal`,
/// both up to time 1.
fn surface_ray_case<C: Surface, P: RayCast + 'static>(
    name: &str,
    (c, p): (Arc<C>, Arc<P>),
    n: usize,
    seed: u64,
    parry_type: &str,
) -> Case {
    ray_case(
        name,
        rays_at(c.aabb(), n, seed),
        move |r| c.ray_cast(r, 1.0).is_some(),
        move |r| p.cast_local_ray_and_get_normal(r, 1.0, false).is_some(),
        &format!("{parry_type}::cast_local_ray_and_get_normal"),
    )
}

/// One convex probe in both libraries: collide's shape and parry's shape with its pose.
#[derive(Clone)]
enum Probe {
    Sphere(Sphere),
    Capsule(collide::shapes::Capsule),
    Box(Obb),
    /// A hull in its own frame, turned and placed.
    Hull(Arc<ConvexHull>, Quat, Vec3),
}

impl Probe {
    fn parry(&self) -> (Pose, Box<dyn Shape>) {
        match self {
            Probe::Sphere(s) => (
                Pose::from_translation(s.center),
                Box::new(Ball::new(s.radius)),
            ),
            Probe::Capsule(c) => {
                let m = (c.a + c.b) * 0.5;
                (
                    Pose::from_translation(m),
                    Box::new(Capsule::new(c.a - m, c.b - m, c.radius)),
                )
            }
            Probe::Box(o) => (
                Pose::from_parts(o.center, o.rotation()),
                Box::new(Cuboid::new(o.half_extents)),
            ),
            Probe::Hull(h, q, at) => (
                convert::pose(*at, *q),
                Box::new(convert::hull(h).unwrap_or_else(|| panic!("parry refused a hull"))),
            ),
        }
    }

    fn contacts(&self, m: &MeshCollider, out: &mut Vec<MeshContact>) {
        match self {
            Probe::Sphere(s) => m.contacts(s, 0.0, out),
            Probe::Capsule(c) => m.contacts(c, 0.0, out),
            Probe::Box(o) => m.contacts(o, 0.0, out),
            Probe::Hull(h, q, at) => m.contacts(&Posed::new(&**h, *q, *at), 0.0, out),
        }
    }

    fn cast(&self, m: &MeshCollider, motion: Vec3) -> bool {
        match self {
            Probe::Sphere(s) => m.cast_shape(s, motion).is_some(),
            Probe::Capsule(c) => m.cast_shape(c, motion).is_some(),
            Probe::Box(o) => m.cast_shape(o, motion).is_some(),
            Probe::Hull(h, q, at) => m.cast_shape(&Posed::new(&**h, *q, *at), motion).is_some(),
        }
    }
}

/// A probe of `kind` centred at `at`, of size `s`, turned by `q`: 0 sphere, 1 capsule, 2 box,
/// 3 a hull of 32 points in a cube of half-size `s` (`g` draws them).
fn probe(kind: usize, at: Vec3, s: f32, q: Quat, g: &mut Gen) -> Probe {
    match kind {
        0 => Probe::Sphere(Sphere::new(at, s)),
        1 => {
            let axis = q * Vec3::Y * s;
            Probe::Capsule(collide::shapes::Capsule::new(at - axis, at + axis, s * 0.5))
        }
        2 => Probe::Box(Obb::new(at, q, Vec3::new(s, s * 0.7, s * 0.5))),
        _ => {
            let points: Vec<Vec3> = (0..32).map(|_| g.vec(s)).collect();
            let hull = ConvexHull::try_new(&points)
                .unwrap_or_else(|e| panic!("a hull of 32 random points: {e}"));
            Probe::Hull(Arc::new(hull), q, at)
        }
    }
}

/// Every level row: the bunny's, then the terrain's.
pub fn all(n: usize) -> Vec<Case> {
    let mut cases = bunny_cases(n);
    if !cases.is_empty() {
        terrain_cases(n, &mut cases);
    }
    cases
}

/// The bunny's rows of [`all`] (none when collide cannot build the bunny).
pub fn bunny_cases(n: usize) -> Vec<Case> {
    let Some(bunny) = Bunny::new() else {
        return Vec::new();
    };
    let mut cases = vec![bunny.build_case(), bunny.ray_case(n)];
    for (kind, name) in [(0, "sphere"), (1, "capsule"), (2, "box"), (3, "hull")] {
        cases.push(bunny.contact_case(kind, name, n));
    }
    for (kind, name) in [(0, "sphere"), (1, "capsule"), (2, "box"), (3, "hull")] {
        cases.push(bunny.cast_case(kind, name, n));
    }
    cases
}

/// The bunny in both libraries.
struct Bunny {
    mesh: TriMesh,
    /// The length of its bounding box's diagonal.
    size: f32,
    collider: Arc<MeshCollider>,
    parry: Arc<ParryMesh>,
}

impl Bunny {
    /// `None` when collide cannot build the mesh.
    fn new() -> Option<Self> {
        let mesh = bunny();
        let size = mesh.aabb().map_or(1.0, |b| b.size().length());
        let collider = Arc::new(MeshCollider::try_new(mesh.clone()).ok()?);
        let parry = Arc::new(
            ParryMesh::with_flags(
                collider.vertices().to_vec(),
                collider.triangles().to_vec(),
                TriMeshFlags::FIX_INTERNAL_EDGES_TWO_SIDED,
            )
            .unwrap_or_else(|e| panic!("parry bunny: {e:?}")),
        );
        Some(Self {
            mesh,
            size,
            collider,
            parry,
        })
    }

    /// Tree build (one build per pass).
    fn build_case(&self) -> Case {
        let (m1, m2) = (self.mesh.clone(), self.mesh.clone());
        Case {
            name: "mesh_build_bunny".into(),
            n: 1,
            collide: Box::new(move || {
                usize::from(black_box(MeshCollider::try_new(black_box(m1.clone()))).is_ok())
            }),
            parry: Box::new(move || {
                let m = black_box(m2.clone());
                usize::from(
                    black_box(ParryMesh::with_flags(
                        m.vertices,
                        m.triangles,
                        TriMeshFlags::FIX_INTERNAL_EDGES_TWO_SIDED,
                    ))
                    .is_ok(),
                )
            }),
            parry_call: "TriMesh::with_flags(FIX_INTERNAL_EDGES_TWO_SIDED)".into(),
            direct: None,
        }
    }

    /// Rays on the bunny.
    fn ray_case(&self, n: usize) -> Case {
        surface_ray_case(
            "mesh_ray_bunny",
            (self.collider.clone(), self.parry.clone()),
            n,
            1,
            "TriMesh",
        )
    }

    /// Contacts of probes of `kind` (see [`probe`]) overlapping the bunny's surface.
    fn contact_case(&self, kind: usize, name: &str, n: usize) -> Case {
        let collider = &self.collider;
        let mut g = Gen::new(10 + kind as u64);
        let probes: Vec<Probe> = (0..n)
            .map(|_| {
                let t = g.range(0.0, collider.triangles().len() as f32) as u32;
                let tri = collider.triangle(t).map_or(Vec3::ZERO, |t| t.centroid());
                let (s, q) = (self.size * g.range(0.01, 0.05), g.quat());
                probe(kind, tri, s, q, &mut g)
            })
            .collect();
        let parry_probes: Vec<(Pose, Box<dyn Shape>)> = probes.iter().map(Probe::parry).collect();
        let (c, p) = (collider.clone(), self.parry.clone());
        let mut out = Vec::new();
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        Case {
            name: format!("mesh_contact_{name}"),
            n,
            collide: Box::new(move || {
                let mut hits = 0;
                for pr in black_box(probes.as_slice()) {
                    out.clear();
                    pr.contacts(&c, &mut out);
                    hits += usize::from(!out.is_empty());
                }
                hits
            }),
            parry: Box::new(move || {
                let mut hits = 0;
                for (pose, shape) in black_box(parry_probes.as_slice()) {
                    manifolds.clear();
                    let _ = DefaultQueryDispatcher.contact_manifolds(
                        pose,
                        &*p,
                        shape.as_ref(),
                        0.0,
                        &mut manifolds,
                        &mut None,
                    );
                    hits += usize::from(manifolds.iter().any(|m| !m.points.is_empty()));
                }
                hits
            }),
            parry_call: "DefaultQueryDispatcher::contact_manifolds (one-shot: fresh workspace)"
                .into(),
            direct: None,
        }
    }

    /// Shape casts of probes of `kind` at the bunny from outside.
    fn cast_case(&self, kind: usize, name: &str, n: usize) -> Case {
        let mut g = Gen::new(20 + kind as u64);
        let b = self.collider.aabb();
        let items: Vec<(Probe, Vec3)> = (0..n)
            .map(|_| {
                let start = b.center() + g.vec(1.0) * b.half_extents() * 2.0;
                let target = b.center() + g.vec(1.0) * b.half_extents();
                let (s, q) = (self.size * g.range(0.01, 0.05), g.quat());
                (probe(kind, start, s, q, &mut g), target - start)
            })
            .collect();
        let parry_items: Vec<(Pose, Box<dyn Shape>, Vec3)> = items
            .iter()
            .map(|(pr, m)| {
                let (pose, shape) = pr.parry();
                (pose, shape, *m)
            })
            .collect();
        let (c, p) = (self.collider.clone(), self.parry.clone());
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            ..ShapeCastOptions::default()
        };
        Case {
            name: format!("mesh_cast_{name}"),
            n,
            collide: Box::new(move || {
                black_box(items.as_slice())
                    .iter()
                    .filter(|(pr, m)| pr.cast(&c, *m))
                    .count()
            }),
            parry: Box::new(move || {
                let id = Pose::IDENTITY;
                black_box(parry_items.as_slice())
                    .iter()
                    .filter(|(pose, shape, m)| {
                        query::cast_shapes(&id, Vec3::ZERO, &*p, pose, *m, shape.as_ref(), options)
                            .is_ok_and(|h| h.is_some())
                    })
                    .count()
            }),
            parry_call: "query::cast_shapes (max toi 1)".into(),
            direct: None,
        }
    }
}

/// The terrain: heightfield rays, and the same surface as a ~1M-triangle mesh (each row only
/// when collide can build its surface).
fn terrain_cases(n: usize, cases: &mut Vec<Case>) {
    let heights = terrain_heights(TERRAIN);
    let Ok(field) = Heightfield::try_new(heights.clone(), TERRAIN, TERRAIN, terrain_scale(TERRAIN))
    else {
        return;
    };
    let parry_field = Arc::new(parry_heightfield(&heights, TERRAIN));
    let field = Arc::new(field);
    cases.push(surface_ray_case(
        "heightfield_ray",
        (field.clone(), parry_field),
        n,
        3,
        "HeightField",
    ));
    let terrain_mesh = heightfield_mesh(&field);
    let Ok(terrain) = MeshCollider::try_new(terrain_mesh.clone()) else {
        return;
    };
    let parry_terrain = Arc::new(
        ParryMesh::new(terrain_mesh.vertices, terrain_mesh.triangles)
            .unwrap_or_else(|e| panic!("parry terrain: {e:?}")),
    );
    cases.push(surface_ray_case(
        "mesh_ray_terrain_1m",
        (Arc::new(terrain), parry_terrain),
        n,
        4,
        "TriMesh",
    ));
}

/// Milliseconds per `World::step` (median of `frames`) with `moving` spheres and boxes
/// drifting over the middle 32 x 32 of a floor of `fixed` unit tiles laid flush (fixed bodies,
/// touching each other; the floor grows outward with `fixed`, so the moving bodies meet the
/// same tiles whatever the count), DynamicBvh broad phase; also the broad-phase pairs of the
/// last frame.
pub fn world_frame_ms(fixed: usize, moving: usize, frames: usize) -> (f64, usize) {
    use collide::world::{BodyDesc, BroadPhaseKind, Geometry, World, WorldConfig};
    let mut world = World::new(WorldConfig {
        broad_phase: BroadPhaseKind::DynamicBvh,
        ..WorldConfig::default()
    });
    let side = (fixed as f32).sqrt().ceil().max(32.0) as usize;
    let h = side as f32 * 0.5;
    for k in 0..fixed {
        let (r, c) = (k / side, k % side);
        let at = Vec3::new(c as f32 - h + 0.5, -0.5, r as f32 - h + 0.5);
        let tile = BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5)))
            .at(at)
            .fixed();
        let _ = world.add_body(tile);
    }
    let mut g = Gen::new(5);
    for k in 0..moving {
        let at = Vec3::new(
            g.range(-16.0, 16.0),
            g.range(0.2, 4.0),
            g.range(-16.0, 16.0),
        );
        let geometry = if k % 2 == 0 {
            Geometry::Sphere(g.range(0.2, 0.5))
        } else {
            Geometry::Cuboid(Vec3::new(
                g.range(0.2, 0.5),
                g.range(0.2, 0.5),
                g.range(0.2, 0.5),
            ))
        };
        let v = Vec3::new(g.range(-1.0, 1.0), g.range(-1.0, 0.0), g.range(-1.0, 1.0));
        let _ = world.add_body(BodyDesc::new(geometry).at(at).moving(v));
    }
    world.step(1.0 / 60.0);
    let mut times: Vec<f64> = (0..frames)
        .map(|_| {
            let t = std::time::Instant::now();
            world.step(1.0 / 60.0);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], world.stats().broad_pairs)
}

/// Contacts and ghost normals (more than 1° off `+y`) of the same cases in each library.
#[derive(Clone, Copy, Debug, Default)]
pub struct GhostCount {
    /// Contacts reported (collide: per-triangle contacts; parry: manifolds with points).
    pub contacts: usize,
    /// Of them, normals more than 1° off the face normal.
    pub ghosts: usize,
    /// Shapes resting 1 cm deep that got no contact at all.
    pub missed: usize,
}

/// Boxes, spheres and capsules resting 1 cm deep at `cases` random positions and orientations
/// on a flat 40 x 40-cell floor split along random diagonals, as a mesh and as a heightfield:
/// `[collide mesh, parry mesh, parry mesh with FIX_INTERNAL_EDGES, collide heightfield,
/// parry heightfield, parry heightfield with FIX_INTERNAL_EDGES]`.
// One piece: the floor and the probes built once, then the six tallies side by side over the same
// probes.
pub fn ghost_counts(cases: usize) -> [(&'static str, GhostCount); 6] {
    use parry3d::shape::HeightFieldFlags;
    let mut g = Gen::new(40);
    let floor = collide_testkit::level::random_diagonal_floor(40, &mut g);
    let ours = MeshCollider::try_new(floor.clone()).ok();
    let parry_plain = ParryMesh::with_flags(
        floor.vertices.clone(),
        floor.triangles.clone(),
        TriMeshFlags::empty(),
    )
    .ok();
    let parry_fixed = ParryMesh::with_flags(
        floor.vertices,
        floor.triangles,
        TriMeshFlags::FIX_INTERNAL_EDGES,
    )
    .ok();
    let field = Heightfield::try_new(vec![0.0; 41 * 41], 41, 41, Vec3::new(40.0, 1.0, 40.0)).ok();
    let flat = vec![0.0; 41 * 41];
    let scale = Vec3::new(40.0, 1.0, 40.0);
    let hf = |flags| HeightField::with_flags(Array2::new(41, 41, flat.clone()), scale, flags);
    let (hf_plain, hf_fixed) = (
        hf(HeightFieldFlags::empty()),
        hf(HeightFieldFlags::FIX_INTERNAL_EDGES),
    );
    let cos1 = 1f32.to_radians().cos();
    let mut counts = [GhostCount::default(); 6];
    let mut out = Vec::new();
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    for case in 0..cases {
        let xz = Vec3::new(g.range(-18.0, 18.0), 0.0, g.range(-18.0, 18.0));
        let q = g.quat();
        let size = g.range(0.05, 1.5);
        let depth = 0.01;
        // The probe placed with its lowest point 1 cm below y = 0.
        let pr = match case % 3 {
            0 => {
                let h = Vec3::new(size, size * 0.6, size * 0.8);
                let turned = Obb::new(Vec3::ZERO, q, h);
                let low = (0..3)
                    .map(|i| turned.axes.col(i).y.abs() * h[i])
                    .sum::<f32>();
                Probe::Box(Obb::new(xz + Vec3::Y * (low - depth), q, h))
            }
            1 => Probe::Sphere(Sphere::new(xz + Vec3::Y * (size - depth), size)),
            _ => {
                let axis = q * Vec3::Y * size;
                let r = size * 0.4;
                let centre = xz + Vec3::Y * (axis.y.abs() + r - depth);
                Probe::Capsule(collide::shapes::Capsule::new(
                    centre - axis,
                    centre + axis,
                    r,
                ))
            }
        };
        let mut tally = |k: usize, normals: &[Vec3]| {
            counts[k].contacts += normals.len();
            counts[k].ghosts += normals.iter().filter(|n| n.y < cos1).count();
            counts[k].missed += usize::from(normals.is_empty());
        };
        if let (Some(m), Some(f)) = (&ours, &field) {
            out.clear();
            pr.contacts(m, &mut out);
            tally(0, &out.iter().map(|c| c.normal).collect::<Vec<_>>());
            out.clear();
            match &pr {
                Probe::Sphere(s) => f.contacts(s, 0.0, &mut out),
                Probe::Capsule(c) => f.contacts(c, 0.0, &mut out),
                Probe::Box(o) => f.contacts(o, 0.0, &mut out),
                Probe::Hull(h, q, at) => f.contacts(&Posed::new(&**h, *q, *at), 0.0, &mut out),
            }
            tally(3, &out.iter().map(|c| c.normal).collect::<Vec<_>>());
        }
        let (pose, shape) = pr.parry();
        let surfaces: [(usize, Option<&dyn Shape>); 4] = [
            (1, parry_plain.as_ref().map(|m| m as &dyn Shape)),
            (2, parry_fixed.as_ref().map(|m| m as &dyn Shape)),
            (4, Some(&hf_plain as &dyn Shape)),
            (5, Some(&hf_fixed as &dyn Shape)),
        ];
        for (k, surface) in surfaces {
            let Some(surface) = surface else { continue };
            manifolds.clear();
            let _ = DefaultQueryDispatcher.contact_manifolds(
                &pose,
                surface,
                shape.as_ref(),
                0.0,
                &mut manifolds,
                &mut None,
            );
            let normals: Vec<Vec3> = manifolds
                .iter()
                .filter(|m| !m.points.is_empty())
                .map(|m| m.local_n1)
                .collect();
            tally(k, &normals);
        }
    }
    let names = [
        "collide mesh",
        "parry TriMesh",
        "parry TriMesh, FIX_INTERNAL_EDGES",
        "collide heightfield",
        "parry HeightField",
        "parry HeightField, FIX_INTERNAL_EDGES",
    ];
    std::array::from_fn(|k| (names[k], counts[k]))
}
