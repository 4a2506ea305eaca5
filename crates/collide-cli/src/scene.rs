//! A scene as the program shows it: each body's collision geometry (built by the library's
//! scene conversion), pose and motion, what to draw, and its bounding volumes; and every
//! pair's verdict, computed by `collide::world::World::evaluate` — the library's one narrow
//! phase. Shared by `check`, `render`, `view` and `demo`.

use std::path::Path;

use collide::io::scene::{selected_parts, BoundingChoice, Scene, SceneBody, ShapeDesc, TestChoice};
use collide::shapes::{Aabb, Obb, Plane, Sphere};
use collide::world::{BodyId, Geometry, PairVerdict};
use collide::{Affine3A, Quat, Vec3};

use crate::tess::{self, TriList, Wire};
use crate::CliError;

/// Models already loaded, by path, so a file used by many bodies is read once.
pub use collide::io::scene::Models as MeshCache;

/// A body ready to show and to hand to the world: geometry, pose, motion, what to draw.
#[derive(Clone, Debug)]
pub struct Body {
    /// Unique name.
    pub name: String,
    /// A short word for the shape kind (`sphere`, `box`, `capsule`, `mesh`, `heightfield`).
    pub kind: &'static str,
    /// Collision geometry in the rest frame, as the world takes it.
    pub geometry: Geometry,
    /// World position.
    pub position: Vec3,
    /// World rotation (unit).
    pub rotation: Quat,
    /// Motion over the frame.
    pub velocity: Vec3,
    /// Volume compared for the scene's `bounding` choice.
    pub bounding: BoundingChoice,
    /// What decides a collision.
    pub test: TestChoice,
    /// A fixed body (the scene's `"fixed": true`): the world never pairs two fixed bodies.
    pub fixed: bool,
    /// What to draw, in the rest frame.
    pub display: TriList,
    /// The display mesh is closed: its back faces may be culled.
    pub closed: bool,
    /// The body's hull pieces as wireframes, in the rest frame (empty for primitives).
    pub hulls: Vec<Wire>,
    /// Every hull vertex in the rest frame (for the tight AABB); empty for primitives.
    pub points: Vec<Vec3>,
    /// Rest-frame AABB.
    pub rest_aabb: Aabb,
    /// Rest-frame OBB.
    pub rest_obb: Obb,
    /// Rest-frame bounding sphere.
    pub rest_sphere: Sphere,
}

/// The bounding volumes of a body in its current pose.
#[derive(Clone, Copy, Debug)]
pub struct Volumes {
    /// The rest AABB transformed (Arvo 1990).
    pub aabb_fast: Aabb,
    /// The AABB of the transformed geometry.
    pub aabb_tight: Aabb,
    /// The rest OBB moved with the body.
    pub obb: Obb,
    /// The rest sphere moved with the body.
    pub sphere: Sphere,
}

impl Body {
    /// Builds a body from its description: the geometry by the library
    /// ([`ShapeDesc::to_geometry`], mesh files read through `cache`), then what to draw and
    /// the bounding volumes.
    pub fn from_desc(d: &SceneBody, cache: &mut MeshCache) -> Result<Body, CliError> {
        let geometry = d
            .shape
            .to_geometry(&d.name, cache)
            .map_err(|e| CliError::new(e.to_string()))?;
        let body = |kind, display: TriList, rest_aabb, rest_obb, rest_sphere| Body {
            name: d.name.clone(),
            kind,
            geometry: geometry.clone(),
            position: d.position,
            rotation: d.rotation,
            velocity: d.velocity,
            bounding: d.bounding,
            test: d.test,
            fixed: d.fixed,
            closed: display.is_closed(),
            display,
            hulls: Vec::new(),
            points: Vec::new(),
            rest_aabb,
            rest_obb,
            rest_sphere,
        };
        // Primitives: what to draw and their exact rest-frame volumes.
        Ok(match &d.shape {
            &ShapeDesc::Sphere { radius } => body(
                "sphere",
                tess::sphere(radius),
                Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(radius)),
                Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(radius)),
                Sphere::new(Vec3::ZERO, radius),
            ),
            &ShapeDesc::Cuboid { half_extents } => body(
                "box",
                tess::cuboid(half_extents),
                Aabb::from_center_half_extents(Vec3::ZERO, half_extents),
                Obb::new(Vec3::ZERO, Quat::IDENTITY, half_extents),
                Sphere::new(Vec3::ZERO, half_extents.length()),
            ),
            &ShapeDesc::Capsule {
                half_height,
                radius,
            } => {
                let he = Vec3::new(radius, half_height + radius, radius);
                body(
                    "capsule",
                    tess::capsule(half_height, radius, 8, 24),
                    Aabb::from_center_half_extents(Vec3::ZERO, he),
                    Obb::new(Vec3::ZERO, Quat::IDENTITY, he),
                    Sphere::new(Vec3::ZERO, half_height + radius),
                )
            }
            ShapeDesc::Heightfield { .. } => {
                let Geometry::Heightfield(field) = &geometry else {
                    return Err(CliError::new(format!(
                        "body {:?}: not a heightfield",
                        d.name
                    )));
                };
                let aabb = field.aabb();
                body(
                    "heightfield",
                    tess::heightfield(field),
                    aabb,
                    Obb::from_aabb(&aabb),
                    Sphere::new(aabb.center(), aabb.half_extents().length()),
                )
            }
            ShapeDesc::Mesh {
                path,
                scale,
                part,
                origin,
                ..
            } => mesh_body(d, geometry, path, *scale, part.as_deref(), *origin, cache)?,
        })
    }

    /// The rest frame → world transform.
    pub fn transform(&self) -> Affine3A {
        Affine3A::from_rotation_translation(self.rotation, self.position)
    }

    /// The body as the world takes it, in its current pose and motion (per frame: the world
    /// is evaluated with `dt = 1`); tight bounds when the scene asked for the tight AABB.
    pub fn world_desc(&self) -> collide::world::BodyDesc {
        let mut d = collide::world::BodyDesc::new(self.geometry.clone())
            .at(self.position)
            .rotated(self.rotation)
            .moving(self.velocity);
        d.tight_bounds = self.bounding == BoundingChoice::TightAabb;
        d.fixed = self.fixed;
        d
    }

    /// The body's volumes in its current pose.
    pub fn volumes(&self) -> Volumes {
        let m = self.transform();
        let aabb_fast = self.rest_aabb.transformed(&m);
        let aabb_tight = match self.geometry {
            // A sphere's box does not depend on rotation.
            Geometry::Sphere(radius) => {
                Aabb::from_center_half_extents(self.position, Vec3::splat(radius))
            }
            // A box's tight AABB is the fast one (the rest AABB is the box itself).
            Geometry::Cuboid(_) => aabb_fast,
            // The two cap centres, grown by the radius.
            Geometry::Capsule {
                half_height,
                radius,
            } => {
                let a = m.transform_point3(Vec3::new(0.0, half_height, 0.0));
                let b = m.transform_point3(Vec3::new(0.0, -half_height, 0.0));
                Aabb::new(a.min(b), a.max(b)).expanded(radius)
            }
            // Every hull vertex moved (the hull's box is the box of its vertices).
            Geometry::Hull(_) | Geometry::Pieces(_) => {
                let moved: Vec<Vec3> = self.points.iter().map(|&p| m.transform_point3(p)).collect();
                Aabb::from_points(&moved).unwrap_or(aabb_fast)
            }
            // Level surfaces: the moved rest box.
            Geometry::Mesh(_) | Geometry::Heightfield(_) | Geometry::HalfSpace => aabb_fast,
        };
        let rest = self.rest_obb;
        let obb = Obb {
            center: m.transform_point3(rest.center),
            axes: collide::Mat3::from_quat(self.rotation) * rest.axes,
            half_extents: rest.half_extents,
        };
        let sphere = Sphere::new(
            m.transform_point3(self.rest_sphere.center),
            self.rest_sphere.radius,
        );
        Volumes {
            aabb_fast,
            aabb_tight,
            obb,
            sphere,
        }
    }

    /// The display mesh's vertices in world space.
    pub fn world_positions(&self) -> Vec<Vec3> {
        let m = self.transform();
        self.display
            .positions
            .iter()
            .map(|&p| m.transform_point3(p))
            .collect()
    }
}

/// A loaded scene: its bodies, in file order.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The bodies, in file order.
    pub bodies: Vec<Body>,
}

impl Stage {
    /// Reads a scene file (JSON or glTF) and builds every body.
    pub fn load(path: &Path) -> Result<Stage, CliError> {
        let scene = Scene::load(path).map_err(|e| CliError::new(e.to_string()))?;
        // Body errors (a mesh that does not load) are prefixed with the scene file.
        Stage::from_scene(&scene).map_err(|e| CliError::new(format!("{}: {e}", path.display())))
    }

    /// Builds every body of a parsed scene.
    pub fn from_scene(scene: &Scene) -> Result<Stage, CliError> {
        Stage::from_scene_with(scene, &mut MeshCache::new())
    }

    /// Builds every body, taking meshes from `cache` before reading files.
    pub fn from_scene_with(scene: &Scene, cache: &mut MeshCache) -> Result<Stage, CliError> {
        let bodies = scene
            .bodies
            .iter()
            .map(|d| Body::from_desc(d, cache))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Stage { bodies })
    }

    /// Index of the body with this name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }

    /// The bodies in a fresh world, in their current poses; body `i` has id `BodyId(i)`.
    pub fn world(&self) -> Result<collide::world::World, CliError> {
        let mut world = collide::world::World::default();
        for (i, b) in self.bodies.iter().enumerate() {
            let id = world
                .add_body(b.world_desc())
                .map_err(|e| CliError::new(format!("body {:?}: {e}", b.name)))?;
            debug_assert_eq!(id, BodyId(i as u32));
        }
        Ok(world)
    }
}

/// The program's report on one pair of bodies: the world's verdict and the scene's volume
/// test.
#[derive(Clone, Debug)]
pub struct PairReport {
    /// Index of the first body.
    pub a: usize,
    /// Index of the second body (`a < b`).
    pub b: usize,
    /// The world's verdict: boxes, contact (normal from A toward B, depth, points), separation
    /// and time of impact.
    pub verdict: PairVerdict,
    /// The chosen bounding volumes overlap.
    pub volumes_overlap: bool,
    /// The pair collides at the start of the frame: the shapes touch, or, when either body
    /// asks for the volume test, the chosen volumes overlap.
    pub now: bool,
}

impl PairReport {
    /// The pair collides: now, or within the frame. What `check` exits 1 on, what `render`
    /// draws red and what `view` marks.
    pub fn collides(&self) -> bool {
        self.now || self.verdict.impact.is_some()
    }

    /// A plane with A on its negative side and B on its positive side, when separated.
    pub fn separating_plane(&self) -> Option<Plane> {
        self.verdict.separation.and_then(|s| s.plane)
    }

    /// Either body decides by its bounding volume alone.
    pub fn by_volume(&self, stage: &Stage) -> bool {
        stage.bodies[self.a].test == TestChoice::Volume
            || stage.bodies[self.b].test == TestChoice::Volume
    }
}

/// The volume a body's `bounding` choice compares, in its pose, as world geometry: a box
/// (the fast or tight AABB, or the OBB) or a sphere. A box flat along an axis gets a thickness
/// of `1e-4` of its largest extent there (the world takes no flat box).
fn chosen_volume(v: &Volumes, c: BoundingChoice) -> (Geometry, Vec3, Quat) {
    let cuboid = |half: Vec3, center: Vec3, rotation: Quat| {
        let thinnest = Vec3::splat((1e-4 * half.max_element()).max(f32::MIN_POSITIVE));
        (Geometry::Cuboid(half.max(thinnest)), center, rotation)
    };
    match c {
        BoundingChoice::Aabb => cuboid(
            v.aabb_fast.half_extents(),
            v.aabb_fast.center(),
            Quat::IDENTITY,
        ),
        BoundingChoice::TightAabb => cuboid(
            v.aabb_tight.half_extents(),
            v.aabb_tight.center(),
            Quat::IDENTITY,
        ),
        BoundingChoice::Obb => {
            // A right-handed frame of the OBB's axes (turning one axis over leaves the box).
            let (x, y) = (v.obb.axes.x_axis, v.obb.axes.y_axis);
            let frame = collide::Mat3::from_cols(x, y, x.cross(y));
            cuboid(
                v.obb.half_extents,
                v.obb.center,
                Quat::from_mat3(&frame).normalize(),
            )
        }
        BoundingChoice::Sphere => (
            Geometry::Sphere(v.sphere.radius),
            v.sphere.center,
            Quat::IDENTITY,
        ),
    }
}

/// The pairs of bodies whose bounding volumes of kind `choice(body)` overlap (touching
/// counts), sorted: the volume test of Lander's sample program, answered by the world's
/// narrow phase on the volumes themselves (body `i`'s volume is body `i` of a world of
/// volumes).
pub fn volume_pairs(
    stage: &Stage,
    vols: &[Volumes],
    choice: impl Fn(&Body) -> BoundingChoice,
) -> Result<Vec<(usize, usize)>, CliError> {
    let mut world = collide::world::World::default();
    for (b, v) in stage.bodies.iter().zip(vols) {
        let (geometry, position, rotation) = chosen_volume(v, choice(b));
        let desc = collide::world::BodyDesc::new(geometry)
            .at(position)
            .rotated(rotation);
        world
            .add_body(desc)
            .map_err(|e| CliError::new(format!("body {:?}: bounding volume: {e}", b.name)))?;
    }
    Ok(world
        .evaluate(0.0)
        .iter()
        .filter(|v| v.contact.is_some())
        .map(|v| (v.a.0 as usize, v.b.0 as usize))
        .collect())
}

/// Every pair of bodies with something to report, in body order: the world's verdicts
/// ([`collide::world::World::evaluate`] over one frame) for the pairs whose boxes touch now
/// or along the motion, plus the pairs of a volume-test body whose chosen volumes overlap
/// (a bounding sphere or OBB can reach past the box). Every other pair is apart, and so is
/// every pair of two fixed bodies: pieces of the level, never paired (as in the world).
pub fn analyze(stage: &Stage) -> Result<Vec<PairReport>, CliError> {
    let world = stage.world()?;
    let vols: Vec<Volumes> = stage.bodies.iter().map(Body::volumes).collect();
    let both_fixed = |a: usize, b: usize| stage.bodies[a].fixed && stage.bodies[b].fixed;
    let mut verdicts = world.evaluate(1.0);
    verdicts.retain(|v| !both_fixed(v.a.0 as usize, v.b.0 as usize));
    let volume_pairs = volume_pairs(stage, &vols, |b| b.bounding)?;
    for &(a, b) in &volume_pairs {
        let by_volume = stage.bodies[a].test == TestChoice::Volume
            || stage.bodies[b].test == TestChoice::Volume;
        let (ia, ib) = (BodyId(a as u32), BodyId(b as u32));
        if let (true, false, Err(at)) = (
            by_volume,
            both_fixed(a, b),
            verdicts.binary_search_by(|v| (v.a, v.b).cmp(&(ia, ib))),
        ) {
            let v = world
                .evaluate_pair(ia, ib, 1.0)
                .map_err(|e| CliError::new(e.to_string()))?;
            verdicts.insert(at, v);
        }
    }
    Ok(verdicts
        .iter()
        .map(|v| report(stage, &volume_pairs, v))
        .collect())
}

/// The program's report of the world's verdict on a pair.
fn report(stage: &Stage, volume_pairs: &[(usize, usize)], v: &PairVerdict) -> PairReport {
    let (a, b) = (v.a.0 as usize, v.b.0 as usize);
    let volumes_overlap = volume_pairs.binary_search(&(a, b)).is_ok();
    let by_volume =
        stage.bodies[a].test == TestChoice::Volume || stage.bodies[b].test == TestChoice::Volume;
    PairReport {
        a,
        b,
        verdict: *v,
        volumes_overlap,
        now: if by_volume {
            volumes_overlap
        } else {
            v.contact.is_some()
        },
    }
}

/// A body of a mesh file: display triangles of the kept parts, the hulls' wireframes and
/// vertices (from the geometry the library built), and volumes fitted to those vertices.
fn mesh_body(
    d: &SceneBody,
    geometry: Geometry,
    path: &Path,
    scale: f32,
    part: Option<&str>,
    origin: Vec3,
    cache: &MeshCache,
) -> Result<Body, CliError> {
    // `to_geometry` has loaded the model into the cache.
    let model = cache.get(path).ok_or_else(|| {
        CliError::new(format!("body {:?}: {} not loaded", d.name, path.display()))
    })?;
    let to_rest = |v: Vec3| (v - origin) * scale;
    let mut display = TriList::default();
    for p in selected_parts(model, part) {
        let base = display.positions.len() as u32;
        display
            .positions
            .extend(p.mesh.vertices.iter().map(|&v| to_rest(v)));
        display
            .triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    let hull_list = match &geometry {
        Geometry::Hull(h) => vec![h.clone()],
        Geometry::Pieces(ps) => ps.clone(),
        _ => Vec::new(),
    };
    let hulls: Vec<Wire> = hull_list
        .iter()
        .map(|h| Wire {
            positions: h.vertices().to_vec(),
            edges: h.edges().iter().map(|e| e.vertices).collect(),
        })
        .collect();
    // The collision geometry's vertices: the hulls', or a triangle mesh's own.
    let points: Vec<Vec3> = match &geometry {
        Geometry::Mesh(m) => m.vertices().to_vec(),
        _ => hull_list
            .iter()
            .flat_map(|h| h.vertices().iter().copied())
            .collect(),
    };
    let Some(rest_aabb) = Aabb::from_points(&points) else {
        return Err(CliError::new(format!(
            "body {:?}: {} has no finite vertices",
            d.name,
            path.display()
        )));
    };
    // Fitted volumes (the library's OBB search and Ritter's sphere); both exist for any
    // non-empty finite set, which `rest_aabb` has just established.
    let rest_obb = Obb::fit(&points).unwrap_or_else(|| Obb::from_aabb(&rest_aabb));
    let rest_sphere = Sphere::fit(&points)
        .unwrap_or_else(|| Sphere::new(rest_aabb.center(), rest_aabb.half_extents().length()));
    Ok(Body {
        name: d.name.clone(),
        kind: "mesh",
        closed: display.is_closed(),
        geometry,
        position: d.position,
        rotation: d.rotation,
        velocity: d.velocity,
        bounding: d.bounding,
        test: d.test,
        fixed: d.fixed,
        display,
        hulls,
        points,
        rest_aabb,
        rest_obb,
        rest_sphere,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn desc(name: &str, shape: ShapeDesc, position: Vec3, rotation: Quat) -> SceneBody {
        SceneBody {
            name: name.into(),
            shape,
            position,
            rotation,
            velocity: Vec3::ZERO,
            bounding: BoundingChoice::Aabb,
            test: TestChoice::Exact,
            fixed: false,
        }
    }

    fn mesh(file: &str, convex: collide::io::scene::ConvexMode) -> ShapeDesc {
        ShapeDesc::Mesh {
            path: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../assets/meshes")
                .join(file),
            convex,
            scale: 1.5,
            part: None,
            origin: Vec3::ZERO,
        }
    }

    // Oracle: in random poses, every collision point of every kind of body lies inside its
    // tight AABB, its OBB and its sphere; the tight AABB lies inside the fast one and touches
    // the points on all six sides.
    #[test]
    fn volumes_contain_the_geometry() {
        use collide::io::scene::ConvexMode;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut cache = MeshCache::new();
        let shapes = [
            ShapeDesc::Sphere { radius: 0.7 },
            ShapeDesc::Cuboid {
                half_extents: Vec3::new(1.0, 0.3, 0.6),
            },
            ShapeDesc::Capsule {
                half_height: 0.8,
                radius: 0.25,
            },
            mesh("bunny.obj", ConvexMode::Hull),
            mesh("duck_vhacd.obj", ConvexMode::Pieces),
        ];
        for case in 0..200 {
            let q = Quat::from_xyzw(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
            .normalize();
            let p = Vec3::new(
                rng.random_range(-5.0..5.0),
                1.0,
                rng.random_range(-5.0..5.0),
            );
            let shape = shapes[case % shapes.len()].clone();
            let b = Body::from_desc(&desc("b", shape, p, q), &mut cache).expect("body");
            let v = b.volumes();
            // The collision points: hull vertices for meshes; for primitives, points of the
            // exact surface (display vertices lie on it).
            let pts: Vec<Vec3> = if b.points.is_empty() {
                b.world_positions()
            } else {
                b.points
                    .iter()
                    .map(|&x| b.transform().transform_point3(x))
                    .collect()
            };
            let tol = 1e-4;
            let (t, f) = (v.aabb_tight, v.aabb_fast);
            assert!(
                f.expanded(tol).contains(&t),
                "case {case}: tight outside fast"
            );
            for &x in &pts {
                assert!(t.expanded(tol).contains_point(x), "case {case}: tight AABB");
                let local = v.obb.to_local(x).abs();
                assert!(
                    local.cmple(v.obb.half_extents + tol).all(),
                    "case {case}: OBB"
                );
                assert!(
                    (x - v.sphere.center).length() <= v.sphere.radius + tol,
                    "case {case}: sphere"
                );
            }
            if !b.points.is_empty() {
                let lo = pts.iter().fold(Vec3::INFINITY, |a, &x| a.min(x));
                let hi = pts.iter().fold(Vec3::NEG_INFINITY, |a, &x| a.max(x));
                assert!(
                    (lo - t.min).abs().max_element() < tol,
                    "case {case}: tight min"
                );
                assert!(
                    (hi - t.max).abs().max_element() < tol,
                    "case {case}: tight max"
                );
            }
        }
    }

    /// A chosen bounding volume in its pose, for the volume oracle below.
    enum Vol {
        Box(Aabb),
        Oriented(Obb),
        Ball(Sphere),
    }

    fn chosen(v: &Volumes, c: BoundingChoice) -> Vol {
        match c {
            BoundingChoice::Aabb => Vol::Box(v.aabb_fast),
            BoundingChoice::TightAabb => Vol::Box(v.aabb_tight),
            BoundingChoice::Obb => Vol::Oriented(v.obb),
            BoundingChoice::Sphere => Vol::Ball(v.sphere),
        }
    }

    /// Oracle of the volume test: the library's static tests on the two volumes (the
    /// program itself asks the world, [`volume_pairs`]).
    fn volumes_overlap(a: &Vol, b: &Vol) -> bool {
        use collide::overlap as o;
        match (a, b) {
            (Vol::Box(x), Vol::Box(y)) => o::aabb_aabb(x, y),
            (Vol::Box(x), Vol::Oriented(y)) | (Vol::Oriented(y), Vol::Box(x)) => o::aabb_obb(x, y),
            (Vol::Box(x), Vol::Ball(s)) | (Vol::Ball(s), Vol::Box(x)) => o::sphere_aabb(s, x),
            (Vol::Oriented(x), Vol::Oriented(y)) => o::obb_obb(x, y),
            (Vol::Oriented(x), Vol::Ball(s)) | (Vol::Ball(s), Vol::Oriented(x)) => {
                o::sphere_obb(s, x)
            }
            (Vol::Ball(x), Vol::Ball(y)) => o::sphere_sphere(x, y),
        }
    }

    /// Every pair whose chosen volumes overlap by the static tests, sorted.
    fn volume_pairs_by_static_tests(stage: &Stage, vols: &[Volumes]) -> Vec<(usize, usize)> {
        let n = stage.bodies.len();
        let vol = |i: usize| chosen(&vols[i], stage.bodies[i].bounding);
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| volumes_overlap(&vol(a), &vol(b)))
            .collect()
    }

    // Oracle: `analyze` drops only pairs with nothing to report — every pair whose world
    // verdict (asked pair by pair, without a broad phase) has touching boxes or volumes (by
    // the static tests), a collision or an impact is reported, identically.
    #[test]
    fn broad_phase_keeps_every_interesting_pair() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut cache = MeshCache::new();
        for round in 0..10 {
            let descs: Vec<SceneBody> = (0..40)
                .map(|i| {
                    let shape = match i % 3 {
                        0 => ShapeDesc::Sphere {
                            radius: rng.random_range(0.2..0.8),
                        },
                        1 => ShapeDesc::Cuboid {
                            half_extents: Vec3::new(0.5, rng.random_range(0.1..0.9), 0.3),
                        },
                        _ => ShapeDesc::Capsule {
                            half_height: 0.5,
                            radius: 0.2,
                        },
                    };
                    let p = Vec3::new(
                        rng.random_range(-4.0..4.0),
                        rng.random_range(-4.0..4.0),
                        rng.random_range(-4.0..4.0),
                    );
                    let q = Quat::from_rotation_y(rng.random_range(0.0..6.0))
                        * Quat::from_rotation_x(rng.random_range(0.0..6.0));
                    let mut d = desc(&format!("b{i}"), shape, p, q);
                    if i % 4 == 0 {
                        d.velocity = Vec3::new(rng.random_range(-3.0..3.0), 0.0, 1.0);
                    }
                    d.bounding = [
                        BoundingChoice::Aabb,
                        BoundingChoice::TightAabb,
                        BoundingChoice::Obb,
                        BoundingChoice::Sphere,
                    ][i % 4];
                    if i % 7 == 0 {
                        d.test = TestChoice::Volume;
                    }
                    d
                })
                .collect();
            let stage =
                Stage::from_scene_with(&Scene { bodies: descs }, &mut cache).expect("stage");
            let fast = analyze(&stage).expect("analyze");
            let world = stage.world().expect("world");
            let vols: Vec<Volumes> = stage.bodies.iter().map(Body::volumes).collect();
            let volume_pairs = volume_pairs_by_static_tests(&stage, &vols);
            let n = stage.bodies.len();
            let all: Vec<PairReport> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .map(|(a, b)| {
                    let v = world
                        .evaluate_pair(BodyId(a as u32), BodyId(b as u32), 1.0)
                        .expect("pair");
                    report(&stage, &volume_pairs, &v)
                })
                .collect();
            let interesting: Vec<&PairReport> = all
                .iter()
                .filter(|r| {
                    r.verdict.boxes_touch
                        || (r.volumes_overlap && r.by_volume(&stage))
                        || r.now
                        || r.verdict.impact.is_some()
                })
                .collect();
            assert!(!interesting.is_empty(), "round {round}");
            for r in interesting {
                let f = fast
                    .iter()
                    .find(|f| (f.a, f.b) == (r.a, r.b))
                    .unwrap_or_else(|| panic!("round {round}: pair {}-{} dropped", r.a, r.b));
                assert_eq!(
                    (
                        f.now,
                        f.verdict.boxes_touch,
                        f.volumes_overlap,
                        f.verdict.impact.is_some()
                    ),
                    (
                        r.now,
                        r.verdict.boxes_touch,
                        r.volumes_overlap,
                        r.verdict.impact.is_some()
                    )
                );
            }
            assert!(
                fast.len() < all.len(),
                "round {round}: the broad phase prunes"
            );
        }
    }

    // The OBB fitted to a mesh is no larger than its rest AABB (the library's fit keeps the
    // smaller), and a convex-pieces body keeps one piece per OBJ object.
    #[test]
    fn mesh_bodies() {
        use collide::io::scene::ConvexMode;
        let mut cache = MeshCache::new();
        let duck = Body::from_desc(
            &desc(
                "d",
                mesh("duck_vhacd.obj", ConvexMode::Pieces),
                Vec3::ZERO,
                Quat::IDENTITY,
            ),
            &mut cache,
        )
        .expect("duck");
        let Geometry::Pieces(pieces) = &duck.geometry else {
            panic!("the duck is convex pieces");
        };
        assert_eq!(pieces.len(), 5);
        assert_eq!(duck.hulls.len(), 5);
        assert!(duck.rest_obb.volume() <= duck.rest_aabb.volume() * (1.0 + 1e-4));
        let bunny = Body::from_desc(
            &desc(
                "b",
                mesh("bunny.obj", ConvexMode::Hull),
                Vec3::ZERO,
                Quat::IDENTITY,
            ),
            &mut cache,
        )
        .expect("bunny");
        let Geometry::Hull(hull) = &bunny.geometry else {
            panic!("the bunny is one hull");
        };
        // The hull keeps a subset of the 453 vertices.
        let n = hull.vertices().len();
        assert!(n < 453 && n > 50, "{n}");
        assert_eq!(bunny.points.len(), n);
    }
}
