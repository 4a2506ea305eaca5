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

use crate::tess::{self, TriList};
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
    /// The body's hull pieces for drawing, in the rest frame (empty for primitives).
    pub hulls: Vec<TriList>,
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
        World::from_scene(&scene)
    }

    /// Builds every body of a parsed scene.
    pub fn from_scene(scene: &Scene) -> Result<World, CliError> {
        let mut cache = MeshCache::new();
        let bodies = scene
            .bodies
            .iter()
            .map(|d| Body::from_desc(d, &mut cache))
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

/// Evaluates every pair of bodies.
pub fn analyze(world: &World) -> Vec<PairReport> {
    let vols: Vec<Volumes> = world.bodies.iter().map(Body::volumes).collect();
    let mut out = Vec::new();
    for a in 0..world.bodies.len() {
        for b in a + 1..world.bodies.len() {
            out.push(analyze_pair(world, &vols, a, b));
        }
    }
    out
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
        let model = collide::io::load(path).map_err(|e| CliError::new(e.to_string()))?;
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
            "{}: body {:?}: no part named {:?}; the parts are: {}",
            path.display(),
            d.name,
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
    let points: Vec<Vec3> = pieces.concat();
    let Some(rest_aabb) = Aabb::from_points(&points) else {
        return Err(CliError::new(format!(
            "{}: body {:?}: the mesh has no finite vertices",
            path.display(),
            d.name
        )));
    };
    let rest_obb = Obb::from_aabb(&rest_aabb);
    let c = rest_aabb.center();
    let r = points
        .iter()
        .map(|&p| (p - c).length())
        .fold(0.0f32, f32::max);
    Ok(Body {
        name: d.name.clone(),
        kind: "mesh",
        geometry: Geometry::Convex { pieces },
        position: d.position,
        rotation: d.rotation,
        velocity: d.velocity,
        bounding: d.bounding,
        test: d.test,
        display,
        hulls: Vec::new(),
        points,
        rest_aabb,
        rest_obb,
        rest_sphere: Sphere::new(c, r),
    })
}
