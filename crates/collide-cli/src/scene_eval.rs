//! Scene evaluation: bodies built from a scene description, their bounding volumes, and
//! every pair's verdict computed by the collide library. Shared by `check`, `render`, `view`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use collide::io::scene::{
    part_base_name, BodyDesc, BoundingChoice, ConvexMode, Scene, ShapeDesc, TestChoice,
};
use collide::io::Model;
use collide::shapes::{Aabb, Obb, Plane, Sphere};
use collide::{Affine3A, Quat, Vec3};

use crate::tess::{self, TriList, Wire};
use crate::CliError;

/// The collision geometry of a body in its rest frame.
#[derive(Clone, Debug)]
pub enum Geometry {
    /// Sphere around the origin.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// Box centred on the origin.
    Cuboid {
        /// Half-extents.
        half_extents: Vec3,
    },
    /// Capsule along local `y`.
    Capsule {
        /// Half the core segment's length.
        half_height: f32,
        /// Radius.
        radius: f32,
    },
    /// Convex pieces, each the hull of a cloud of rest-frame points.
    Convex {
        /// The point clouds (each non-empty and finite).
        pieces: Vec<Vec<Vec3>>,
    },
}

/// Models already loaded, by path, so a file used by many bodies is read once.
pub type MeshCache = HashMap<PathBuf, Model>;

/// A body ready for queries: geometry, pose, motion, and what to draw.
#[derive(Clone, Debug)]
pub struct Body {
    /// Unique name.
    pub name: String,
    /// A short word for the shape kind (`sphere`, `box`, `capsule`, `mesh`).
    pub kind: &'static str,
    /// Collision geometry in the rest frame.
    pub geometry: Geometry,
    /// World position.
    pub position: Vec3,
    /// World rotation (unit).
    pub rotation: Quat,
    /// Motion over the frame.
    pub velocity: Vec3,
    /// Volume compared by the broad phase.
    pub bounding: BoundingChoice,
    /// What decides a collision.
    pub test: TestChoice,
    /// What to draw, in the rest frame.
    pub display: TriList,
    /// The display mesh is closed: its back faces may be culled.
    pub closed: bool,
    /// The body's hull pieces as wireframes, in the rest frame (empty for primitives).
    pub hulls: Vec<Wire>,
    /// Every collision vertex in the rest frame (for the tight AABB); empty for primitives.
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
    /// Builds a body from its description, loading mesh files through `cache`.
    pub fn from_desc(d: &BodyDesc, cache: &mut MeshCache) -> Result<Body, CliError> {
        // Primitives: geometry, what to draw, and their exact rest-frame volumes.
        let (geometry, kind, display, rest_aabb, rest_obb, rest_sphere) = match &d.shape {
            &ShapeDesc::Sphere { radius } => (
                Geometry::Sphere { radius },
                "sphere",
                tess::sphere(radius),
                Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(radius)),
                Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(radius)),
                Sphere::new(Vec3::ZERO, radius),
            ),
            &ShapeDesc::Box { half_extents } => (
                Geometry::Cuboid { half_extents },
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
                (
                    Geometry::Capsule {
                        half_height,
                        radius,
                    },
                    "capsule",
                    tess::capsule(half_height, radius, 8, 24),
                    Aabb::from_center_half_extents(Vec3::ZERO, he),
                    Obb::new(Vec3::ZERO, Quat::IDENTITY, he),
                    Sphere::new(Vec3::ZERO, half_height + radius),
                )
            }
            ShapeDesc::Mesh {
                path,
                convex,
                scale,
                part,
                origin,
            } => return mesh_body(d, path, *convex, *scale, part.as_deref(), *origin, cache),
        };
        Ok(Body {
            name: d.name.clone(),
            kind,
            geometry,
            position: d.position,
            rotation: d.rotation,
            velocity: d.velocity,
            bounding: d.bounding,
            test: d.test,
            display,
            closed: true,
            hulls: Vec::new(),
            points: Vec::new(),
            rest_aabb,
            rest_obb,
            rest_sphere,
        })
    }

    /// The rest frame → world transform.
    pub fn transform(&self) -> Affine3A {
        Affine3A::from_rotation_translation(self.rotation, self.position)
    }

    /// The body's volumes in its current pose.
    pub fn volumes(&self) -> Volumes {
        let m = self.transform();
        let aabb_fast = self.rest_aabb.transformed(&m);
        let aabb_tight = match self.geometry {
            // A sphere's box does not depend on rotation.
            Geometry::Sphere { radius } => {
                Aabb::from_center_half_extents(self.position, Vec3::splat(radius))
            }
            // A box's tight AABB is the fast one (the rest AABB is the box itself).
            Geometry::Cuboid { .. } => aabb_fast,
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
            Geometry::Convex { .. } => {
                let moved: Vec<Vec3> = self.points.iter().map(|&p| m.transform_point3(p)).collect();
                Aabb::from_points(&moved).unwrap_or(aabb_fast)
            }
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

/// A loaded scene: its bodies.
#[derive(Clone, Debug)]
pub struct World {
    /// The bodies, in file order.
    pub bodies: Vec<Body>,
}

impl World {
    /// Reads a scene file (JSON or glTF) and builds every body.
    pub fn load(path: &Path) -> Result<World, CliError> {
        let scene = Scene::load(path).map_err(|e| CliError::new(e.to_string()))?;
        // Body errors (a mesh that does not load) are prefixed with the scene file.
        World::from_scene(&scene).map_err(|e| CliError::new(format!("{}: {e}", path.display())))
    }

    /// Builds every body of a parsed scene.
    pub fn from_scene(scene: &Scene) -> Result<World, CliError> {
        World::from_scene_with(scene, &mut MeshCache::new())
    }

    /// Builds every body, taking meshes from `cache` before reading files.
    pub fn from_scene_with(scene: &Scene, cache: &mut MeshCache) -> Result<World, CliError> {
        let bodies = scene
            .bodies
            .iter()
            .map(|d| Body::from_desc(d, cache))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(World { bodies })
    }

    /// Index of the body with this name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }
}

/// Contact data of a colliding pair: normal from A toward B, penetration depth, points.
#[derive(Clone, Debug)]
pub struct Contact {
    /// Unit normal pointing from A toward B.
    pub normal: Vec3,
    /// How far the shapes interpenetrate along the normal (`>= 0`, zero when touching).
    pub depth: f32,
    /// Contact points in world space.
    pub points: Vec<Vec3>,
}

/// The first moment of contact within the frame of two moving bodies.
#[derive(Clone, Copy, Debug)]
pub struct Impact {
    /// Normalised time in `[0, 1]`.
    pub toi: f32,
    /// Contact normal at that moment, from A toward B.
    pub normal: Vec3,
    /// A contact point at that moment.
    pub point: Vec3,
}

/// The verdict on one pair of bodies.
#[derive(Clone, Debug)]
pub struct PairReport {
    /// Index of the first body.
    pub a: usize,
    /// Index of the second body (`a < b`).
    pub b: usize,
    /// The fast AABBs overlap.
    pub aabb_overlap: bool,
    /// The chosen bounding volumes overlap (the broad phase passed).
    pub volumes_overlap: bool,
    /// The pair collides now (per the bodies' test choice).
    pub colliding: bool,
    /// Contact data when colliding and the exact test ran.
    pub contact: Option<Contact>,
    /// A plane with A on its negative side and B on its positive side, when separated.
    pub separating_plane: Option<Plane>,
    /// Time of impact within the frame, when one body moves and they touch during it.
    pub impact: Option<Impact>,
}

/// Which volume of a body the broad phase compares, in its pose.
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

/// Do two chosen volumes overlap (touching counts)? One library call per pair of kinds.
fn volumes_overlap(a: &Vol, b: &Vol) -> bool {
    use collide::overlap as o;
    match (a, b) {
        (Vol::Box(x), Vol::Box(y)) => o::aabb_aabb(x, y),
        (Vol::Box(x), Vol::Oriented(y)) | (Vol::Oriented(y), Vol::Box(x)) => o::aabb_obb(x, y),
        (Vol::Box(x), Vol::Ball(s)) | (Vol::Ball(s), Vol::Box(x)) => o::sphere_aabb(s, x),
        (Vol::Oriented(x), Vol::Oriented(y)) => o::obb_obb(x, y),
        (Vol::Oriented(x), Vol::Ball(s)) | (Vol::Ball(s), Vol::Oriented(x)) => o::sphere_obb(s, x),
        (Vol::Ball(x), Vol::Ball(y)) => o::sphere_sphere(x, y),
    }
}

/// Evaluates every pair of bodies that could touch during the frame, in body order.
///
/// The library's sweep-and-prune broad phase picks the pairs: each body's box covers all its
/// volumes (fast and tight AABB, OBB, sphere) at the start and the end of its motion, so every
/// pair whose volumes overlap, that collides, or that meets during the frame is among them.
/// Every other pair is separated by their boxes and gets no report.
pub fn analyze(world: &World) -> Vec<PairReport> {
    use collide::broadphase::{BroadPhase, CollisionGroups, SweepAndPrune};
    let vols: Vec<Volumes> = world.bodies.iter().map(Body::volumes).collect();
    let mut sap = SweepAndPrune::new();
    let mut body_of = std::collections::HashMap::new();
    for (i, (b, v)) in world.bodies.iter().zip(&vols).enumerate() {
        let reach = v.aabb_fast.union(&v.aabb_tight).union(&v.obb.aabb()).union(
            &Aabb::from_center_half_extents(v.sphere.center, Vec3::splat(v.sphere.radius)),
        );
        let end = Aabb::new(reach.min + b.velocity, reach.max + b.velocity);
        // A body whose box is not finite (it cannot come from a valid scene) touches nothing.
        if let Ok(id) = sap.insert(reach.union(&end), CollisionGroups::ALL) {
            body_of.insert(id, i);
        }
    }
    let mut ids = Vec::new();
    sap.update_pairs(&mut ids);
    let mut pairs: Vec<(usize, usize)> = ids
        .iter()
        .filter_map(|(x, y)| {
            let (a, b) = (*body_of.get(x)?, *body_of.get(y)?);
            Some((a.min(b), a.max(b)))
        })
        .collect();
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(a, b)| analyze_pair(world, &vols, a, b))
        .collect()
}

/// Every pair, without the broad phase: the reference [`analyze`] is checked against.
#[cfg(test)]
pub fn analyze_all_pairs(world: &World) -> Vec<PairReport> {
    let vols: Vec<Volumes> = world.bodies.iter().map(Body::volumes).collect();
    let n = world.bodies.len();
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|(a, b)| analyze_pair(world, &vols, a, b))
        .collect()
}

fn analyze_pair(world: &World, vols: &[Volumes], a: usize, b: usize) -> PairReport {
    let (ba, bb) = (&world.bodies[a], &world.bodies[b]);
    let aabb_overlap = collide::overlap::aabb_aabb(&vols[a].aabb_fast, &vols[b].aabb_fast);
    let volumes_overlap = volumes_overlap(
        &chosen(&vols[a], ba.bounding),
        &chosen(&vols[b], bb.bounding),
    );
    let by_volume = ba.test == TestChoice::Volume || bb.test == TestChoice::Volume;
    let mut report = PairReport {
        a,
        b,
        aabb_overlap,
        volumes_overlap,
        colliding: false,
        contact: None,
        separating_plane: None,
        impact: None,
    };
    // The exact test runs when either box test passes: it decides the pair (unless the
    // bodies asked for the volume test alone) and gives contact data or a separating plane.
    if aabb_overlap || volumes_overlap {
        let exact = crate::narrow::exact(ba, bb);
        report.colliding = if by_volume {
            volumes_overlap
        } else {
            volumes_overlap && exact.contact.is_some()
        };
        report.contact = exact.contact;
        report.separating_plane = exact.separating_plane;
    }
    report.impact = crate::narrow::impact(ba, bb);
    report
}

/// A body of a mesh file: display triangles, convex pieces (one hull, or one per part), and
/// volumes fitted to the pieces' points.
fn mesh_body(
    d: &BodyDesc,
    path: &Path,
    convex: ConvexMode,
    scale: f32,
    part: Option<&str>,
    origin: Vec3,
    cache: &mut MeshCache,
) -> Result<Body, CliError> {
    if !cache.contains_key(path) {
        let model = collide::io::load(path)
            .map_err(|e| CliError::new(format!("body {:?}: {e}", d.name)))?;
        cache.insert(path.to_path_buf(), model);
    }
    let model = &cache[path];
    let parts: Vec<&collide::io::Part> = model
        .parts
        .iter()
        .filter(|p| part.is_none_or(|want| p.name == want || part_base_name(&p.name) == want))
        .collect();
    if parts.is_empty() {
        let names: Vec<&str> = model.parts.iter().map(|p| p.name.as_str()).collect();
        return Err(CliError::new(format!(
            "body {:?}: {} has no part named {:?}; its parts are: {}",
            d.name,
            path.display(),
            part.unwrap_or(""),
            names.join(", ")
        )));
    }
    let to_rest = |v: Vec3| (v - origin) * scale;
    let mut display = TriList::default();
    let mut pieces: Vec<Vec<Vec3>> = Vec::new();
    for p in &parts {
        let base = display.positions.len() as u32;
        display
            .positions
            .extend(p.mesh.vertices.iter().map(|&v| to_rest(v)));
        display
            .triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + base)));
        pieces.push(p.mesh.vertices.iter().map(|&v| to_rest(v)).collect());
    }
    if convex == ConvexMode::Hull {
        pieces = vec![pieces.concat()];
    }
    pieces.retain(|p| !p.is_empty());
    // Each piece becomes its convex hull (Quickhull): its vertices are all GJK needs and its
    // edges are what the picture shows. A flat or degenerate piece has no hull; it keeps its
    // points, which GJK handles as the flat shape they span.
    let mut hulls = Vec::new();
    for piece in &mut pieces {
        if let Ok(h) = collide::convex::ConvexHull::try_new(piece) {
            *piece = h.vertices().to_vec();
            hulls.push(Wire {
                positions: h.vertices().to_vec(),
                edges: h.edges().iter().map(|e| e.vertices).collect(),
            });
        }
    }
    let points: Vec<Vec3> = pieces.concat();
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
        geometry: Geometry::Convex { pieces },
        position: d.position,
        rotation: d.rotation,
        velocity: d.velocity,
        bounding: d.bounding,
        test: d.test,
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

    fn desc(name: &str, shape: ShapeDesc, position: Vec3, rotation: Quat) -> BodyDesc {
        BodyDesc {
            name: name.into(),
            shape,
            position,
            rotation,
            velocity: Vec3::ZERO,
            bounding: BoundingChoice::Aabb,
            test: TestChoice::Exact,
        }
    }

    fn mesh(file: &str, convex: ConvexMode) -> ShapeDesc {
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
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut cache = MeshCache::new();
        let shapes = [
            ShapeDesc::Sphere { radius: 0.7 },
            ShapeDesc::Box {
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

    // Oracle: the broad phase drops only pairs with nothing to report — every pair the
    // all-pairs reference finds with overlapping boxes or volumes, a collision or an impact is
    // reported by `analyze`, identically.
    #[test]
    fn broad_phase_keeps_every_interesting_pair() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut cache = MeshCache::new();
        for round in 0..10 {
            let descs: Vec<BodyDesc> = (0..40)
                .map(|i| {
                    let shape = match i % 3 {
                        0 => ShapeDesc::Sphere {
                            radius: rng.random_range(0.2..0.8),
                        },
                        1 => ShapeDesc::Box {
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
                    d
                })
                .collect();
            let world =
                World::from_scene_with(&Scene { bodies: descs }, &mut cache).expect("world");
            let fast = analyze(&world);
            let all = analyze_all_pairs(&world);
            let interesting: Vec<&PairReport> = all
                .iter()
                .filter(|r| {
                    r.aabb_overlap || r.volumes_overlap || r.colliding || r.impact.is_some()
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
                        f.colliding,
                        f.aabb_overlap,
                        f.volumes_overlap,
                        f.impact.is_some()
                    ),
                    (
                        r.colliding,
                        r.aabb_overlap,
                        r.volumes_overlap,
                        r.impact.is_some()
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
        let Geometry::Convex { pieces } = &duck.geometry else {
            panic!("a mesh body is convex pieces");
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
        let Geometry::Convex { pieces } = &bunny.geometry else {
            panic!("a mesh body is convex pieces");
        };
        assert_eq!(pieces.len(), 1);
        // The hull keeps a subset of the 453 vertices.
        assert!(
            pieces[0].len() < 453 && pieces[0].len() > 50,
            "{}",
            pieces[0].len()
        );
    }
}
