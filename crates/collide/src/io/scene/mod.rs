//! Scene files: bodies with a shape, a pose, a velocity and the checks to run on them.
//!
//! A scene is JSON, or a glTF file (`.gltf`, `.glb`) in which every node with a mesh is a body
//! (see [`Scene::from_gltf`]). A JSON body has a unique `name`, a `shape`, a pose and optional
//! motion and choices:
//!
//! ```json
//! {
//!   "bodies": [
//!     { "name": "crate", "shape": { "box": { "half_extents": [1, 0.5, 1] } },
//!       "position": [0, 0.5, 0], "rotation": { "euler_deg": [0, 30, 0] } },
//!     { "name": "ball", "shape": { "sphere": { "radius": 0.5 } },
//!       "position": [3, 0.5, 0], "velocity": [-4, 0, 0], "bounding": "sphere" },
//!     { "name": "pill", "shape": { "capsule": { "half_height": 1, "radius": 0.25 } },
//!       "position": [0, 2, 0], "rotation": { "quat": [0, 0, 0.7071, 0.7071] } },
//!     { "name": "bunny", "shape": { "mesh": { "path": "bunny.obj", "convex": "hull", "scale": 10 } },
//!       "position": [-3, 0, 0], "test": "volume" }
//!   ]
//! }
//! ```
//!
//! - `shape`: `sphere {radius}`, `box {half_extents}`, `capsule {half_height, radius}` (its
//!   core segment runs along the body's local `y` axis from `-half_height` to `+half_height`),
//!   or `mesh {path, convex, scale, part, origin}` where `path` (OBJ, STL, glTF) is relative
//!   to the scene file, `convex` is `"hull"` (one convex hull of every vertex, the default) or
//!   `"pieces"` (one hull per object/group of the file, for concave objects already split into
//!   convex parts) or `"triangles"` (no hull: the triangles themselves as a two-sided mesh
//!   collider, for a level; [`crate::mesh::MeshCollider`]), `scale` (default 1) multiplies
//!   every vertex, `part` (optional) keeps only the part of that name (glTF parts `name#k` of
//!   a multi-primitive mesh count as `name`), and `origin` (default `[0, 0, 0]`) is the
//!   model-space point placed at the body's `position`; or `heightfield {rows, cols, heights,
//!   scale}`: terrain ([`crate::mesh::Heightfield`]), `rows × cols` heights (at least 2 × 2)
//!   row by row, `null` for a hole, over `scale[0] × scale[2]` centred on the body's position,
//!   each height times `scale[1]`.
//! - `position`: `[x, y, z]` (default origin). `rotation`: `{"quat": [x, y, z, w]}` (need not
//!   be normalised) or `{"euler_deg": [x, y, z]}` — degrees about the world `x`, then `y`, then
//!   `z` axis, i.e. `q = Rz · Ry · Rx` (default identity).
//! - `velocity`: `[x, y, z]` units per frame (default zero); a body that moves is swept over
//!   the frame `u ∈ [0, 1]` to find its time of impact.
//! - `bounding`: the volume the broad phase compares — `"aabb"` (the rest box transformed:
//!   fast, default), `"tight_aabb"` (every vertex transformed), `"obb"` or `"sphere"`.
//! - `test`: what decides a collision — `"exact"` (the shapes themselves, default) or
//!   `"volume"` (the bounding volumes alone, as in Lander 1999's sample program).
//! - `fixed`: `true` for a fixed body (never moved, never paired with another fixed body: the
//!   level; default `false`).
//!
//! Every error names the file, the line and column when the JSON is at fault, and what was
//! expected; unknown fields are errors (a misspelt `"velocty"` would otherwise be silently
//! ignored).
//!
//! [`SceneBody::to_world`] (or [`Scene::to_world`] for all of them) turns a scene body into a
//! [`crate::world::BodyDesc`], so that [`crate::world::World`] answers for the scene: contact,
//! separation and time of impact per pair ([`crate::world::World::evaluate`] with `dt = 1`,
//! one frame, since scene velocities are per frame).
//!
//! # Example
//!
//! ```rust
//! use collide::io::scene::{Scene, ShapeDesc};
//! use std::path::Path;
//!
//! let json = r#"{ "bodies": [
//!   { "name": "ball", "shape": { "sphere": { "radius": 0.5 } },
//!     "position": [0, 2, 0], "velocity": [0, -3, 0] }
//! ] }"#;
//! let scene = Scene::from_json_str(json, Path::new("level.json"), Path::new("."))?;
//! assert_eq!(scene.bodies[0].shape, ShapeDesc::Sphere { radius: 0.5 });
//! assert_eq!(scene.bodies[0].velocity.y, -3.0);
//! // A misspelt field is an error naming it, not a silently ignored line.
//! let typo = json.replace("velocity", "velocty");
//! let err = Scene::from_json_str(&typo, Path::new("level.json"), Path::new(".")).unwrap_err();
//! assert!(err.to_string().contains("velocty"), "{err}");
//! # Ok::<(), collide::io::scene::SceneError>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use crate::convex::ConvexHull;
use crate::io::Model;
use crate::math::{Quat, Vec3};
use crate::world::{self, Geometry};

/// A scene: a list of bodies with unique names.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// The bodies, in file order.
    pub bodies: Vec<SceneBody>,
}

/// One body of a scene file.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneBody {
    /// Unique name.
    pub name: String,
    /// Collision geometry in the body's rest frame.
    pub shape: ShapeDesc,
    /// World position of the rest frame's origin.
    pub position: Vec3,
    /// World rotation of the rest frame (unit quaternion).
    pub rotation: Quat,
    /// Motion over one frame (`u ∈ [0, 1]`), world units.
    pub velocity: Vec3,
    /// The bounding volume the broad phase compares.
    pub bounding: BoundingChoice,
    /// What decides a collision.
    pub test: TestChoice,
    /// A fixed body (`"fixed": true`): never moved, never paired with another fixed body
    /// ([`crate::world::BodyDesc::fixed`]); the level.
    pub fixed: bool,
}

/// The collision geometry of a body, in its rest frame.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeDesc {
    /// A sphere of this radius (`> 0`) around the origin.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// A box (`"box"` in the file) centred on the origin with these half-extents
    /// (each `> 0`).
    Cuboid {
        /// Half-extent along each local axis.
        half_extents: Vec3,
    },
    /// A capsule whose core segment runs along local `y` from `-half_height` to `+half_height`.
    Capsule {
        /// Half the length of the core segment (`>= 0`).
        half_height: f32,
        /// Radius (`> 0`).
        radius: f32,
    },
    /// A mesh file (OBJ, STL, glTF) whose vertices, times `scale`, are the geometry.
    Mesh {
        /// The file, resolved against the scene file's directory.
        path: PathBuf,
        /// One hull or one hull per part.
        convex: ConvexMode,
        /// Uniform scale applied to every vertex (`> 0`).
        scale: f32,
        /// Only the part of this name (and its `name#k` primitives), or every part.
        part: Option<String>,
        /// The model-space point that sits at the body's position (before scaling).
        origin: Vec3,
    },
    /// A heightfield ([`crate::mesh::Heightfield`]): `rows × cols` samples over `scale.x ×
    /// scale.z` centred on the origin, heights times `scale.y`; NaN (`null` in the file) is a
    /// hole. Usually a fixed body: terrain.
    Heightfield {
        /// Sample rows (along z), at least 2.
        rows: usize,
        /// Sample columns (along x), at least 2.
        cols: usize,
        /// `rows · cols` heights, row by row.
        heights: Vec<f32>,
        /// Extent along x and z, and the factor on every height.
        scale: Vec3,
    },
}

/// How a mesh becomes convex collision geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvexMode {
    /// One convex hull of every vertex of the file.
    Hull,
    /// One convex hull per part (object or group) of the file.
    Pieces,
    /// No hull: the triangles themselves, as a two-sided triangle-mesh collider
    /// ([`crate::mesh::MeshCollider`]); concave geometry such as a level.
    Triangles,
}

/// The bounding volume the broad phase compares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundingChoice {
    /// The rest-pose box transformed (Arvo 1990): fast, a little loose.
    #[default]
    Aabb,
    /// The box of every transformed vertex: tight, costs a pass over the vertices.
    TightAabb,
    /// An oriented box fitted to the geometry and moved with the body.
    Obb,
    /// A bounding sphere moved with the body.
    Sphere,
}

/// What decides whether two bodies collide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestChoice {
    /// The shapes themselves (primitives, convex hulls).
    #[default]
    Exact,
    /// The bounding volumes alone.
    Volume,
}

/// Why a scene could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// The JSON is malformed or does not describe a scene; `line` and `column` are 1-based.
    Parse {
        /// The file (or `<scene>` for text without a file).
        path: PathBuf,
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// What was found and what was expected.
        message: String,
    },
    /// A glTF scene's file could not be loaded (the message names the file).
    Mesh {
        /// The loader's message.
        message: String,
    },
    /// The JSON is well formed but the scene is not valid (duplicate names, ...).
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to do.
        message: String,
    },
    /// A body's collision geometry could not be built ([`SceneBody::to_world`]): its mesh file
    /// does not load, has no part of the name asked for, or a piece spans no volume.
    Body {
        /// The body's name.
        name: String,
        /// What is wrong (naming the mesh file) and what to do.
        message: String,
    },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Io { path, message } => {
                write!(f, "{}: cannot read: {message}", path.display())
            }
            SceneError::Parse {
                path,
                line,
                column,
                message,
            } => write!(f, "{}:{line}:{column}: {message}", path.display()),
            SceneError::Mesh { message } => f.write_str(message),
            SceneError::Invalid { path, message } => write!(f, "{}: {message}", path.display()),
            SceneError::Body { name, message } => write!(f, "body {name:?}: {message}"),
        }
    }
}

impl std::error::Error for SceneError {}

impl Scene {
    /// Reads a scene file: glTF (`.gltf`, `.glb`: see [`Scene::from_gltf`]) or else JSON, whose
    /// mesh paths are resolved against the file's directory.
    ///
    /// Errors: [`SceneError::Io`] when the file cannot be read, [`SceneError::Parse`] with
    /// line and column for malformed JSON or wrong fields, [`SceneError::Invalid`] for a scene
    /// that parses but is inconsistent. Never panics.
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if matches!(ext.as_deref(), Some("gltf" | "glb")) {
            return Scene::from_gltf(path);
        }
        let text = std::fs::read_to_string(path).map_err(|e| SceneError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let base = path.parent().unwrap_or_else(|| Path::new(""));
        Scene::from_json_str(&text, path, base)
    }

    /// Parses scene JSON; `path` names the text in errors, `base` resolves relative mesh paths.
    ///
    /// Same errors as [`Scene::load`] minus `Io`. Never panics.
    pub fn from_json_str(text: &str, path: &Path, base: &Path) -> Result<Scene, SceneError> {
        let raw: RawScene = serde_json::from_str(text).map_err(|e| SceneError::Parse {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: if e.is_eof() {
                format!(
                    "{}: the file ends early (is a `]` or `}}` missing?)",
                    strip_position(&e.to_string())
                )
            } else {
                strip_position(&e.to_string())
            },
        })?;
        let mut bodies = Vec::with_capacity(raw.bodies.len());
        for (i, b) in raw.bodies.into_iter().enumerate() {
            if bodies.iter().any(|o: &SceneBody| o.name == b.name) {
                return Err(SceneError::Invalid {
                    path: path.to_path_buf(),
                    message: format!(
                        "body {i}: the name {:?} is already used; every body needs a unique name",
                        b.name
                    ),
                });
            }
            let shape = match b.shape {
                RawShape::Sphere { radius } => ShapeDesc::Sphere { radius },
                RawShape::Box { half_extents } => ShapeDesc::Cuboid {
                    half_extents: Vec3::from_array(half_extents),
                },
                RawShape::Capsule {
                    half_height,
                    radius,
                } => ShapeDesc::Capsule {
                    half_height,
                    radius,
                },
                RawShape::Mesh {
                    path: p,
                    convex,
                    scale,
                    part,
                    origin,
                } => ShapeDesc::Mesh {
                    path: base.join(p),
                    convex,
                    scale,
                    part,
                    origin: Vec3::from_array(origin),
                },
                RawShape::Heightfield {
                    rows,
                    cols,
                    heights,
                    scale,
                } => ShapeDesc::Heightfield {
                    rows,
                    cols,
                    heights,
                    scale: Vec3::from_array(scale),
                },
            };
            bodies.push(SceneBody {
                name: b.name,
                shape,
                position: Vec3::from_array(b.position),
                rotation: b.rotation.0,
                velocity: Vec3::from_array(b.velocity),
                bounding: b.bounding,
                test: b.test,
                fixed: b.fixed,
            });
        }
        Ok(Scene { bodies })
    }
}

impl Scene {
    /// A glTF file as a scene: every node with a mesh is a body named after the node.
    ///
    /// The loader ([`crate::io::load`]) gives one part per primitive, in model space (node
    /// transforms applied) and named after the node (`name#k` for the k-th primitive of a
    /// mesh with several); the primitives of one node make one body. Each body's position is
    /// the centre of its part's box (so it turns about itself), rotation identity, no
    /// velocity, one convex hull, fast AABB, exact test. Names are made unique by appending
    /// `.2`, `.3`, ... Errors: [`SceneError::Mesh`] with the loader's message.
    pub fn from_gltf(path: &Path) -> Result<Scene, SceneError> {
        let model = crate::io::load(path).map_err(|e| SceneError::Mesh {
            message: e.to_string(),
        })?;
        let mut bodies: Vec<SceneBody> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for p in &model.parts {
            let node = part_base_name(&p.name);
            if seen.iter().any(|n| n == node) {
                continue;
            }
            seen.push(node.to_string());
            let mut bounds = crate::shapes::Aabb::EMPTY;
            for q in model
                .parts
                .iter()
                .filter(|q| part_base_name(&q.name) == node)
            {
                if let Some(b) = q.mesh.aabb() {
                    bounds = bounds.union(&b);
                }
            }
            let center = if bounds.is_empty() {
                Vec3::ZERO
            } else {
                bounds.center()
            };
            let mut name = node.to_string();
            let mut k = 2;
            while bodies.iter().any(|b| b.name == name) {
                name = format!("{node}.{k}");
                k += 1;
            }
            bodies.push(SceneBody {
                name,
                shape: ShapeDesc::Mesh {
                    path: path.to_path_buf(),
                    convex: ConvexMode::Hull,
                    scale: 1.0,
                    part: Some(node.to_string()),
                    origin: center,
                },
                position: center,
                rotation: Quat::IDENTITY,
                velocity: Vec3::ZERO,
                bounding: BoundingChoice::Aabb,
                test: TestChoice::Exact,
                fixed: false,
            });
        }
        Ok(Scene { bodies })
    }
}

/// Models already read, by path: [`SceneBody::to_world`] reads each mesh file once and keeps
/// it here. A program may put models in first (meshes built into it), under the path the
/// scene's `mesh.path` resolves to.
pub type Models = HashMap<PathBuf, Model>;

/// The parts of `model` that a mesh shape with this `part` keeps: the part of that name and
/// its `name#k` primitives, or every part when `part` is `None`. Empty when none matches.
#[must_use]
pub fn selected_parts<'m>(model: &'m Model, part: Option<&str>) -> Vec<&'m crate::io::Part> {
    model
        .parts
        .iter()
        .filter(|p| part.is_none_or(|want| p.name == want || part_base_name(&p.name) == want))
        .collect()
}

impl ShapeDesc {
    /// The shape as world geometry in the body's rest frame: a sphere, box or capsule as
    /// itself; a mesh as the convex hull of its kept parts' vertices (`"hull"`, mapped to the
    /// rest frame by `(v - origin) · scale`), or one hull per kept part (`"pieces"`; a single
    /// piece becomes [`Geometry::Hull`]). Mesh files are read through `models`.
    ///
    /// Errors: [`SceneError::Body`] (naming `name`) when the file does not load, no part has
    /// the name asked for (the message lists the parts), or a hull cannot be built (every
    /// vertex on one plane, line or point: a flat part has no volume to collide with).
    pub fn to_geometry(&self, name: &str, models: &mut Models) -> Result<Geometry, SceneError> {
        let err = |message: String| SceneError::Body {
            name: name.to_string(),
            message,
        };
        let (path, convex, scale, part, origin) = match self {
            ShapeDesc::Sphere { radius } => return Ok(Geometry::Sphere(*radius)),
            ShapeDesc::Cuboid { half_extents } => return Ok(Geometry::Cuboid(*half_extents)),
            ShapeDesc::Capsule {
                half_height,
                radius,
            } => {
                return Ok(Geometry::Capsule {
                    half_height: *half_height,
                    radius: *radius,
                })
            }
            ShapeDesc::Heightfield {
                rows,
                cols,
                heights,
                scale,
            } => {
                let field =
                    crate::mesh::Heightfield::try_new(heights.clone(), *rows, *cols, *scale)
                        .map_err(|e| err(format!("heightfield: {e}")))?;
                return Ok(Geometry::Heightfield(Arc::new(field)));
            }
            ShapeDesc::Mesh {
                path,
                convex,
                scale,
                part,
                origin,
            } => (path, *convex, *scale, part.as_deref(), *origin),
        };
        if !models.contains_key(path) {
            let model = crate::io::load(path).map_err(|e| err(e.to_string()))?;
            models.insert(path.clone(), model);
        }
        let Some(model) = models.get(path) else {
            return Err(err(format!("{}: not loaded", path.display())));
        };
        let parts = selected_parts(model, part);
        if parts.is_empty() {
            let names: Vec<&str> = model.parts.iter().map(|p| p.name.as_str()).collect();
            return Err(err(format!(
                "{} has no part named {:?}; its parts are: {}",
                path.display(),
                part.unwrap_or(""),
                names.join(", ")
            )));
        }
        let to_rest = |v: &Vec3| (*v - origin) * scale;
        if convex == ConvexMode::Triangles {
            let mut mesh = crate::shapes::TriMesh::default();
            for p in &parts {
                let mut rest = p.mesh.clone();
                rest.vertices.iter_mut().for_each(|v| *v = to_rest(v));
                mesh.append(&rest);
            }
            let collider = crate::mesh::MeshCollider::try_new(mesh)
                .map_err(|e| err(format!("{}: {e}", path.display())))?;
            return Ok(Geometry::Mesh(std::sync::Arc::new(collider)));
        }
        let mut pieces: Vec<(String, Vec<Vec3>)> = parts
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.mesh.vertices.iter().map(to_rest).collect(),
                )
            })
            .collect();
        if convex == ConvexMode::Hull {
            let all = pieces.drain(..).flat_map(|(_, v)| v).collect();
            pieces = vec![(path.display().to_string(), all)];
        }
        let mut hulls = Vec::with_capacity(pieces.len());
        for (piece, points) in &pieces {
            let hull = ConvexHull::try_new(points).map_err(|e| {
                err(format!(
                    "{}: part {piece:?} has no convex hull ({e}); give the mesh some volume \
                     or leave that part out with \"part\"",
                    path.display()
                ))
            })?;
            hulls.push(Arc::new(hull));
        }
        Ok(match hulls.len() {
            1 => Geometry::Hull(hulls.remove(0)),
            _ => Geometry::Pieces(hulls),
        })
    }
}

impl SceneBody {
    /// The body as a world body: its geometry ([`ShapeDesc::to_geometry`]), position,
    /// rotation, `velocity` as the linear velocity (per frame: evaluate with `dt = 1`), no
    /// spin, every collision group, and tight bounds when `bounding` is `"tight_aabb"`. The
    /// other bounding choices and the `test` choice are for the program showing the scene;
    /// the world always runs its own bounding volumes and the exact test.
    ///
    /// Errors: as [`ShapeDesc::to_geometry`].
    pub fn to_world(&self, models: &mut Models) -> Result<world::BodyDesc, SceneError> {
        let mut desc = world::BodyDesc::new(self.shape.to_geometry(&self.name, models)?)
            .at(self.position)
            .rotated(self.rotation)
            .moving(self.velocity);
        desc.tight_bounds = self.bounding == BoundingChoice::TightAabb;
        desc.fixed = self.fixed;
        Ok(desc)
    }
}

impl Scene {
    /// Every body as a world body, in file order ([`SceneBody::to_world`]); the first error.
    pub fn to_world(&self, models: &mut Models) -> Result<Vec<world::BodyDesc>, SceneError> {
        self.bodies.iter().map(|b| b.to_world(models)).collect()
    }
}

/// The node name of a loaded part: `name` for `name#k` (k a number), else the whole name.
#[must_use]
pub fn part_base_name(name: &str) -> &str {
    match name.rsplit_once('#') {
        Some((base, k)) if !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()) => base,
        _ => name,
    }
}

mod raw;
use raw::{strip_position, RawScene, RawShape};
#[cfg(test)]
mod tests;
