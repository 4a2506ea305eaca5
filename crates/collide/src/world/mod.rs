//! The collision world: bodies, the per-frame pipeline, pair caches and events.
//!
//! Each [`World::update`] (or [`World::step`], which first moves bodies by their velocities):
//! 1. **Bounds**: every body's world box, fast ([`Aabb::transformed`] of the rest-pose box,
//!    Arvo 1990) or tight (every hull vertex transformed, [`BodyDesc::tight_bounds`]). A *fast*
//!    body (one that moved more than [`WorldConfig::ccd_fraction`] of its smallest half-size
//!    this frame) gets the box swept over its motion.
//! 2. **Broad phase** ([`crate::broadphase`], sweep and prune or dynamic BVH): the pairs whose
//!    boxes touch, collision groups filtered inside it.
//! 3. **Midphase**: bounding spheres (swept for fast pairs), then bounding OBBs (15-axis SAT,
//!    [`crate::overlap::obb_obb`]) for pairs at rest.
//! 4. **Exact test** per convex part pair: analytic for spheres, the separating-axis test with
//!    the per-pair separating-plane cache for polyhedra ([`crate::convex::contact_manifold`]),
//!    GJK/EPA for capsules; several convex pieces are pruned by their boxes first.
//! 5. **Sweeps** for pairs with a fast body: the first contact within the frame (exact sweeps
//!    for spheres and boxes, conservative advancement otherwise) — no tunnelling.
//!
//! Output: [`World::contacts`] (normal, depth, points, and the time of impact for swept
//! pairs), [`World::events`] (began, persisted, ended) and [`World::stats`]. The narrow phase
//! runs on the pairs sorted by id, in parallel (rayon) with the `parallel` feature and on the
//! calling thread without it; every output is identical whatever the number of threads.
//!
//! Limits, by design for now: a swept pair is tested along the frame's translation with the
//! bodies' orientation at the start of the frame (rotation within the frame is not swept);
//! a fast pair reports its contact at the time of impact (depth 0), not at the frame's end;
//! a body of several pieces reports the deepest piece contact of a pair, not one manifold
//! per piece pair.
//!
//! # Example
//!
//! ```rust
//! use collide::shapes::Aabb;
//! use collide::world::{BodyDesc, ContactEvent, Geometry, World};
//! use collide::{Quat, Vec3};
//!
//! let mut world = World::default();
//! let door = world.add_body(BodyDesc::new(Geometry::Cuboid(Vec3::new(0.1, 1.0, 0.5))))?;
//! let body = Geometry::Capsule { half_height: 0.6, radius: 0.3 };
//! let player = world.add_body(BodyDesc::new(body).at(Vec3::new(-2.0, 0.0, 0.0)))?;
//! let mut events = Vec::new();
//! fn frame(world: &mut World, events: &mut Vec<ContactEvent>) {
//!     world.update();
//!     events.extend_from_slice(world.events());
//! }
//! frame(&mut world, &mut events); // apart: no event
//! // Walk into the door: the move is swept, so even a long step is caught.
//! world.move_body(player, Vec3::new(-0.3, 0.0, 0.0), Quat::IDENTITY)?;
//! frame(&mut world, &mut events);
//! world.move_body(player, Vec3::new(-0.35, 0.0, 0.0), Quat::IDENTITY)?; // still in contact
//! frame(&mut world, &mut events);
//! // A respawn: teleport (a swept move would touch the door at its start).
//! world.teleport_body(player, Vec3::new(-2.0, 0.0, 0.0), Quat::IDENTITY)?;
//! frame(&mut world, &mut events);
//! assert_eq!(
//!     events,
//!     [
//!         ContactEvent::Began(door, player),
//!         ContactEvent::Persisted(door, player),
//!         ContactEvent::Ended(door, player),
//!     ]
//! );
//! // Scene queries: which bodies' boxes touch a region around the door?
//! assert_eq!(world.query_aabb(&Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5))), [door]);
//! # Ok::<(), collide::world::WorldError>(())
//! ```

mod narrow;

pub use narrow::{Impact, Manifold};

use crate::bounding::tight_aabb_vec3;
use crate::broadphase::{
    BroadPhase, BroadPhaseError, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
};
use crate::convex::{ConvexHull, ConvexPolyhedron, GjkCache, SepCache};
use crate::math::{Affine3A, Quat, Vec3};
use crate::shapes::{Aabb, Capsule, Obb, Ray, Sphere};
use narrow::{Part, QueryCounts};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A body's collision geometry in its rest frame (the body's origin and axes).
#[derive(Clone, Debug)]
pub enum Geometry {
    /// A sphere of this radius centred on the origin (`>= 0`; 0 is a point).
    Sphere(f32),
    /// A box of these half-extents centred on the origin (each `> 0`).
    Cuboid(Vec3),
    /// A capsule along the local y axis: the segment `(0, ±half_height, 0)` grown by
    /// `radius` (both `>= 0`).
    Capsule {
        /// Half the length of the axis segment.
        half_height: f32,
        /// Radius.
        radius: f32,
    },
    /// A convex hull.
    Hull(Arc<ConvexHull>),
    /// Several convex pieces (a concave object decomposed, e.g. by V-HACD), at least one.
    Pieces(Vec<Arc<ConvexHull>>),
}

/// Everything needed to add a body.
#[derive(Clone, Debug)]
pub struct BodyDesc {
    /// Collision geometry in the rest frame.
    pub geometry: Geometry,
    /// Position of the body's origin.
    pub position: Vec3,
    /// Orientation (normalised on entry).
    pub rotation: Quat,
    /// Linear velocity used by [`World::step`] (units per second).
    pub linear_velocity: Vec3,
    /// Angular velocity used by [`World::step`] (radians per second about each world axis).
    pub angular_velocity: Vec3,
    /// Collision groups, filtered in the broad phase.
    pub groups: CollisionGroups,
    /// Tight boxes (every hull vertex transformed each frame) instead of the fast box of the
    /// transformed rest-pose box. Only matters for hulls and pieces.
    pub tight_bounds: bool,
}

impl BodyDesc {
    /// A body at rest at the origin with default groups and fast bounds.
    #[must_use]
    pub fn new(geometry: Geometry) -> BodyDesc {
        BodyDesc {
            geometry,
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            groups: CollisionGroups::ALL,
            tight_bounds: false,
        }
    }

    /// With this position.
    #[must_use]
    pub fn at(mut self, position: Vec3) -> BodyDesc {
        self.position = position;
        self
    }

    /// With this orientation.
    #[must_use]
    pub fn rotated(mut self, rotation: Quat) -> BodyDesc {
        self.rotation = rotation;
        self
    }

    /// With this linear velocity.
    #[must_use]
    pub fn moving(mut self, linear_velocity: Vec3) -> BodyDesc {
        self.linear_velocity = linear_velocity;
        self
    }

    /// With this angular velocity.
    #[must_use]
    pub fn spinning(mut self, angular_velocity: Vec3) -> BodyDesc {
        self.angular_velocity = angular_velocity;
        self
    }

    /// With these collision groups.
    #[must_use]
    pub fn groups(mut self, groups: CollisionGroups) -> BodyDesc {
        self.groups = groups;
        self
    }
}

/// A body's handle: its index in the world. Removed ids are reused only after the next
/// [`World::update`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyId(pub u32);

/// What the world refuses.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldError {
    /// A size, pose or velocity is NaN or infinite, a radius or half-height is negative, a box
    /// has a zero half-extent, or a piece list is empty.
    InvalidBody(&'static str),
    /// No body with this id.
    UnknownBody(BodyId),
    /// The broad phase refused the body's box.
    BroadPhase(BroadPhaseError),
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::InvalidBody(why) => write!(f, "invalid body: {why}"),
            WorldError::UnknownBody(id) => write!(f, "no body with id {}", id.0),
            WorldError::BroadPhase(e) => write!(f, "broad phase: {e}"),
        }
    }
}

impl std::error::Error for WorldError {}

impl From<BroadPhaseError> for WorldError {
    fn from(e: BroadPhaseError) -> Self {
        WorldError::BroadPhase(e)
    }
}

/// Which broad phase the world uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BroadPhaseKind {
    /// [`SweepAndPrune`]: best when most bodies move a little each frame.
    #[default]
    SweepAndPrune,
    /// [`DynamicBvh`]: best with many bodies (from a few thousand up), large motion, or many
    /// ray casts and box queries.
    DynamicBvh,
}

/// World settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// The broad phase.
    pub broad_phase: BroadPhaseKind,
    /// A body is swept (continuous collision) when it moves more than this fraction of its
    /// smallest half-size in a frame. `0` sweeps every moving body. Default `0.25`.
    pub ccd_fraction: f32,
}

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            broad_phase: BroadPhaseKind::SweepAndPrune,
            ccd_fraction: 0.25,
        }
    }
}

/// The contact of a pair in the last frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairContact {
    /// The smaller body id.
    pub a: BodyId,
    /// The larger body id.
    pub b: BodyId,
    /// Normal from `a` toward `b`, depth and points; for a swept pair, at the time of impact
    /// (depth 0).
    pub manifold: Manifold,
    /// For a pair with a fast body: the normalised time in `[0, 1]` of first contact within
    /// the frame. `None` for pairs tested at the frame's end only.
    pub toi: Option<f32>,
}

/// A change in a pair's contact between two frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ContactEvent {
    /// The pair touches this frame and did not the frame before.
    Began(BodyId, BodyId),
    /// The pair touched the frame before and still does.
    Persisted(BodyId, BodyId),
    /// The pair touched the frame before and no longer does (or a body was removed).
    Ended(BodyId, BodyId),
}

/// What the last [`World::update`] did and how long each stage took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Live bodies.
    pub bodies: usize,
    /// Bodies swept this frame (fast).
    pub fast_bodies: usize,
    /// Pairs from the broad phase.
    pub broad_pairs: usize,
    /// Pairs rejected by the bounding-sphere test.
    pub rejected_sphere: usize,
    /// Pairs rejected by the bounding-OBB test.
    pub rejected_obb: usize,
    /// Pairs found apart by the exact test or sweep.
    pub rejected_exact: usize,
    /// Pairs in contact (including swept ones).
    pub contacts: usize,
    /// Swept pairs with a time of impact.
    pub impacts: usize,
    /// Separating-axis tests answered by the cached feature.
    pub cache_hits: u64,
    /// Separating-axis tests that needed the full search.
    pub cache_misses: u64,
    /// Time computing bounding boxes.
    pub time_bounds: Duration,
    /// Time in the broad phase.
    pub time_broad: Duration,
    /// Time in the midphase, exact tests and sweeps.
    pub time_narrow: Duration,
    /// Time building events.
    pub time_events: Duration,
}

impl FrameStats {
    /// `cache_hits / (cache_hits + cache_misses)`; 0 when no separating-axis test ran.
    #[must_use]
    pub fn cache_hit_rate(&self) -> f64 {
        let n = self.cache_hits + self.cache_misses;
        if n == 0 {
            0.0
        } else {
            self.cache_hits as f64 / n as f64
        }
    }
}

/// A ray's hit on a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The body hit.
    pub body: BodyId,
    /// Ray parameter (units of `|ray.dir|`); 0 when starting inside.
    pub t: f32,
    /// `ray.origin + t · ray.dir`, evaluated in f64 and rounded once; a hit whose point lies
    /// beyond `±f32::MAX` is not reported.
    pub point: Vec3,
    /// Outward unit normal at the hit (`-dir/|dir|` when starting inside).
    pub normal: Vec3,
}

/// A body's geometry prepared once: parts in the rest frame and bounding volumes.
#[derive(Clone, Debug)]
enum Shape {
    Sphere(f32),
    Capsule(f32, f32),
    Cuboid(Vec3, Arc<ConvexHull>),
    Hull(Arc<ConvexHull>),
    Pieces(Vec<(Arc<ConvexHull>, Aabb)>),
}

#[derive(Clone, Debug)]
struct Body {
    shape: Shape,
    position: Vec3,
    rotation: Quat,
    /// Pose at the start of the frame (before the last move).
    start_position: Vec3,
    start_rotation: Quat,
    linear_velocity: Vec3,
    angular_velocity: Vec3,
    groups: CollisionGroups,
    tight: bool,
    /// Rest-frame box of the geometry.
    local_box: Aabb,
    /// Bounding sphere in the rest frame: centre and radius.
    sphere_center: Vec3,
    sphere_radius: f32,
    /// Smallest half-size: the motion that can tunnel through this body.
    thickness: f32,
    proxy: ProxyId,
    /// Swept this frame.
    fast: bool,
    /// World box at the end pose.
    aabb: Aabb,
}

fn finite_quat(q: Quat) -> bool {
    q.is_finite() && glam::Vec4::from(q).abs().max_element() > 0.0
}

/// `q / |q|` for any finite non-zero `q`. Hardening (issue 9, fuzz target `world`): glam's
/// `normalize` squares the components, which underflows for components below ~1e-19 (a
/// quaternion of 1e-22 components came out with length 0.71, so hull normals were not unit)
/// and overflows above ~1e19 (giving a zero quaternion); dividing by the largest component
/// first keeps the squared length in [1, 4].
fn unit_quat(q: Quat) -> Quat {
    let m = glam::Vec4::from(q).abs().max_element();
    (q * m.recip()).normalize()
}

impl Body {
    fn new(desc: &BodyDesc, proxy: ProxyId) -> Result<Body, WorldError> {
        if !(desc.position.is_finite()
            && finite_quat(desc.rotation)
            && desc.linear_velocity.is_finite()
            && desc.angular_velocity.is_finite())
        {
            return Err(WorldError::InvalidBody("pose or velocity not finite"));
        }
        let hull_box = |h: &ConvexHull| Aabb::from_points(h.vertices());
        let (shape, local_box) = match &desc.geometry {
            Geometry::Sphere(r) => {
                if !(r.is_finite() && *r >= 0.0) {
                    return Err(WorldError::InvalidBody("sphere radius not finite and >= 0"));
                }
                (
                    Shape::Sphere(*r),
                    Aabb::from_center_half_extents(Vec3::ZERO, Vec3::splat(*r)),
                )
            }
            Geometry::Cuboid(h) => {
                if !(h.is_finite() && h.min_element() > 0.0) {
                    return Err(WorldError::InvalidBody(
                        "box half-extents not finite and > 0",
                    ));
                }
                let poly = ConvexPolyhedron::cuboid(*h)
                    .map_err(|_| WorldError::InvalidBody("box hull could not be built"))?;
                (
                    Shape::Cuboid(*h, poly.hull),
                    Aabb::from_center_half_extents(Vec3::ZERO, *h),
                )
            }
            Geometry::Capsule {
                half_height,
                radius,
            } => {
                let (h, r) = (*half_height, *radius);
                if !(h.is_finite() && r.is_finite() && h >= 0.0 && r >= 0.0) {
                    return Err(WorldError::InvalidBody(
                        "capsule half-height and radius not finite and >= 0",
                    ));
                }
                (
                    Shape::Capsule(h, r),
                    Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(r, h + r, r)),
                )
            }
            Geometry::Hull(h) => {
                let b = hull_box(h).ok_or(WorldError::InvalidBody("hull has no finite vertex"))?;
                (Shape::Hull(h.clone()), b)
            }
            Geometry::Pieces(ps) => {
                let mut parts = Vec::with_capacity(ps.len());
                let mut all = Aabb::EMPTY;
                for h in ps {
                    let b =
                        hull_box(h).ok_or(WorldError::InvalidBody("piece has no finite vertex"))?;
                    all = all.union(&b);
                    parts.push((h.clone(), b));
                }
                if parts.is_empty() {
                    return Err(WorldError::InvalidBody("piece list is empty"));
                }
                (Shape::Pieces(parts), all)
            }
        };
        // Bounding sphere about the rest box's centre: the farthest vertex (hulls), or the
        // analytic radius.
        let c = local_box.center();
        let sphere_radius = match &shape {
            Shape::Sphere(r) => *r,
            Shape::Capsule(h, r) => h + r,
            Shape::Cuboid(h, _) => h.length(),
            Shape::Hull(hull) => hull
                .vertices()
                .iter()
                .map(|v| (*v - c).length())
                .fold(0.0, f32::max),
            Shape::Pieces(ps) => ps
                .iter()
                .flat_map(|(h, _)| h.vertices().iter())
                .map(|v| (*v - c).length())
                .fold(0.0, f32::max),
        };
        let thickness = match &shape {
            Shape::Sphere(r) => *r,
            Shape::Capsule(_, r) => *r,
            Shape::Cuboid(h, _) => h.min_element(),
            Shape::Hull(_) => local_box.half_extents().min_element(),
            Shape::Pieces(ps) => ps
                .iter()
                .map(|(_, b)| b.half_extents().min_element())
                .fold(f32::INFINITY, f32::min),
        };
        let rotation = unit_quat(desc.rotation);
        let mut body = Body {
            shape,
            position: desc.position,
            rotation,
            start_position: desc.position,
            start_rotation: rotation,
            linear_velocity: desc.linear_velocity,
            angular_velocity: desc.angular_velocity,
            groups: desc.groups,
            tight: desc.tight_bounds,
            local_box,
            sphere_center: c,
            sphere_radius,
            thickness,
            proxy,
            fast: false,
            aabb: Aabb::EMPTY,
        };
        body.aabb = body.world_box(body.position, body.rotation);
        if !body.aabb.is_finite() {
            return Err(WorldError::InvalidBody("bounding box not finite"));
        }
        Ok(body)
    }

    /// The body's world box at a pose: fast (transformed rest box) or tight (vertices).
    fn world_box(&self, position: Vec3, rotation: Quat) -> Aabb {
        let m = Affine3A::from_rotation_translation(rotation, position);
        match &self.shape {
            // Spheres and capsules: exact boxes directly.
            Shape::Sphere(r) => Aabb::from_center_half_extents(position, Vec3::splat(*r)),
            Shape::Capsule(h, r) => {
                let a = m.transform_point3(Vec3::new(0.0, -h, 0.0));
                let b = m.transform_point3(Vec3::new(0.0, *h, 0.0));
                Aabb::new(a.min(b), a.max(b)).expanded(*r)
            }
            Shape::Hull(hull) if self.tight => tight_aabb_vec3(hull.vertices(), &m),
            Shape::Pieces(ps) if self.tight => ps
                .iter()
                .map(|(h, _)| tight_aabb_vec3(h.vertices(), &m))
                .fold(Aabb::EMPTY, |acc, b| acc.union(&b)),
            _ => self.local_box.transformed(&m),
        }
    }

    /// The body's convex parts placed at a pose.
    fn parts(&self, position: Vec3, rotation: Quat, out: &mut Vec<(Part, Aabb)>) {
        out.clear();
        let m = Affine3A::from_rotation_translation(rotation, position);
        match &self.shape {
            Shape::Sphere(r) => {
                let s = Sphere::new(position, *r);
                out.push((Part::Sphere(s), self.aabb_of(position, rotation)));
            }
            Shape::Capsule(h, r) => {
                let c = Capsule::new(
                    m.transform_point3(Vec3::new(0.0, -h, 0.0)),
                    m.transform_point3(Vec3::new(0.0, *h, 0.0)),
                    *r,
                );
                out.push((Part::Capsule(c), self.aabb_of(position, rotation)));
            }
            Shape::Cuboid(h, hull) => {
                let o = Obb::new(position, rotation, *h);
                let p = ConvexPolyhedron::new(hull.clone()).with_pose(rotation, position);
                out.push((Part::Cuboid(o, p), self.aabb_of(position, rotation)));
            }
            Shape::Hull(hull) => {
                let p = ConvexPolyhedron::new(hull.clone()).with_pose(rotation, position);
                out.push((Part::Hull(p), self.aabb_of(position, rotation)));
            }
            Shape::Pieces(ps) => {
                for (h, b) in ps {
                    let p = ConvexPolyhedron::new(h.clone()).with_pose(rotation, position);
                    out.push((Part::Hull(p), b.transformed(&m)));
                }
            }
        }
    }

    fn aabb_of(&self, position: Vec3, rotation: Quat) -> Aabb {
        if position == self.position && rotation == self.rotation {
            self.aabb
        } else {
            self.world_box(position, rotation)
        }
    }

    /// World bounding sphere at a pose.
    fn bounding_sphere(&self, position: Vec3, rotation: Quat) -> Sphere {
        Sphere::new(position + rotation * self.sphere_center, self.sphere_radius)
    }

    /// World bounding OBB at a pose (the rest box, rotated).
    fn bounding_obb(&self, position: Vec3, rotation: Quat) -> Obb {
        Obb::new(
            position + rotation * self.local_box.center(),
            rotation,
            self.local_box.half_extents(),
        )
    }

    fn motion(&self) -> Vec3 {
        self.position - self.start_position
    }
}

/// Per-pair state kept between frames.
#[derive(Clone, Debug, Default)]
struct PairCache {
    /// Separating-plane caches, one per part pair (index `i * parts_b + j`).
    sep: Vec<SepCache>,
    gjk: Vec<GjkCache>,
}

/// What one pair's narrow phase found.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    RejectedSphere,
    RejectedObb,
    Apart,
    Contact(Manifold, Option<f32>),
}

/// The collision world. See the [module documentation](self) for the pipeline.
pub struct World {
    bodies: Vec<Option<Body>>,
    free: Vec<u32>,
    pending_free: Vec<u32>,
    broad: Box<dyn BroadPhase + Send + Sync>,
    proxy_body: Vec<u32>,
    config: WorldConfig,
    broad_pairs: Vec<(ProxyId, ProxyId)>,
    caches: HashMap<(u32, u32), PairCache>,
    touching: Vec<(u32, u32)>,
    contacts: Vec<PairContact>,
    events: Vec<ContactEvent>,
    stats: FrameStats,
}

impl Default for World {
    /// [`World::new`] with [`WorldConfig::default`].
    fn default() -> Self {
        World::new(WorldConfig::default())
    }
}

impl World {
    /// An empty world.
    #[must_use]
    pub fn new(config: WorldConfig) -> World {
        let broad: Box<dyn BroadPhase + Send + Sync> = match config.broad_phase {
            BroadPhaseKind::SweepAndPrune => Box::new(SweepAndPrune::new()),
            BroadPhaseKind::DynamicBvh => Box::new(DynamicBvh::new()),
        };
        World {
            bodies: Vec::new(),
            free: Vec::new(),
            pending_free: Vec::new(),
            broad,
            proxy_body: Vec::new(),
            config,
            broad_pairs: Vec::new(),
            caches: HashMap::new(),
            touching: Vec::new(),
            contacts: Vec::new(),
            events: Vec::new(),
            stats: FrameStats::default(),
        }
    }

    /// Adds a body; rejects NaN/infinite poses, velocities or sizes, negative radii, flat boxes
    /// and empty piece lists ([`WorldError::InvalidBody`]).
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyId, WorldError> {
        let mut body = Body::new(&desc, 0)?;
        let proxy = self.broad.insert(body.aabb, body.groups)?;
        body.proxy = proxy;
        let id = match self.free.pop() {
            Some(i) => {
                self.bodies[i as usize] = Some(body);
                i
            }
            None => {
                self.bodies.push(Some(body));
                (self.bodies.len() - 1) as u32
            }
        };
        if self.proxy_body.len() <= proxy as usize {
            self.proxy_body.resize(proxy as usize + 1, u32::MAX);
        }
        self.proxy_body[proxy as usize] = id;
        Ok(BodyId(id))
    }

    /// Removes a body; its touching pairs end at the next update.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let body = self
            .bodies
            .get_mut(id.0 as usize)
            .and_then(Option::take)
            .ok_or(WorldError::UnknownBody(id))?;
        self.broad.remove(body.proxy)?;
        self.pending_free.push(id.0);
        Ok(())
    }

    fn body(&self, id: BodyId) -> Result<&Body, WorldError> {
        self.bodies
            .get(id.0 as usize)
            .and_then(Option::as_ref)
            .ok_or(WorldError::UnknownBody(id))
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, WorldError> {
        self.bodies
            .get_mut(id.0 as usize)
            .and_then(Option::as_mut)
            .ok_or(WorldError::UnknownBody(id))
    }

    /// Moves a body to a new pose for the next update, swept from its current pose (a fast
    /// move is checked for contacts all along the way).
    pub fn move_body(
        &mut self,
        id: BodyId,
        position: Vec3,
        rotation: Quat,
    ) -> Result<(), WorldError> {
        if !(position.is_finite() && finite_quat(rotation)) {
            return Err(WorldError::InvalidBody("pose not finite"));
        }
        let b = self.body_mut(id)?;
        b.position = position;
        b.rotation = unit_quat(rotation);
        Ok(())
    }

    /// Places a body at a new pose with no sweep (a teleport).
    pub fn teleport_body(
        &mut self,
        id: BodyId,
        position: Vec3,
        rotation: Quat,
    ) -> Result<(), WorldError> {
        self.move_body(id, position, rotation)?;
        let b = self.body_mut(id)?;
        b.start_position = b.position;
        b.start_rotation = b.rotation;
        Ok(())
    }

    /// Sets a body's velocities for [`World::step`].
    pub fn set_velocity(
        &mut self,
        id: BodyId,
        linear: Vec3,
        angular: Vec3,
    ) -> Result<(), WorldError> {
        if !(linear.is_finite() && angular.is_finite()) {
            return Err(WorldError::InvalidBody("velocity not finite"));
        }
        let b = self.body_mut(id)?;
        b.linear_velocity = linear;
        b.angular_velocity = angular;
        Ok(())
    }

    /// A body's pose `(position, rotation)`.
    pub fn pose(&self, id: BodyId) -> Result<(Vec3, Quat), WorldError> {
        let b = self.body(id)?;
        Ok((b.position, b.rotation))
    }

    /// A body's world box at its current pose (as of the last update or move).
    pub fn body_aabb(&self, id: BodyId) -> Result<Aabb, WorldError> {
        let b = self.body(id)?;
        Ok(b.world_box(b.position, b.rotation))
    }

    /// Number of live bodies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bodies.iter().filter(|b| b.is_some()).count()
    }

    /// `true` when the world has no body.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves every body by its velocities over `dt` seconds (position += v·dt; rotation by
    /// the angle |ω|·dt about ω), then runs [`World::update`]. A NaN, infinite or negative
    /// `dt` moves nothing.
    pub fn step(&mut self, dt: f32) {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        for b in self.bodies.iter_mut().flatten() {
            b.position += b.linear_velocity * dt;
            let w = b.angular_velocity * dt;
            if w != Vec3::ZERO {
                b.rotation = (Quat::from_scaled_axis(w) * b.rotation).normalize();
            }
        }
        self.update();
    }

    /// Runs the pipeline on the bodies' current poses: each body is swept from its pose at the
    /// previous update (or its last teleport) to its current pose.
    pub fn update(&mut self) {
        let mut stats = FrameStats::default();
        // 1. Bounds.
        let t0 = Instant::now();
        let ccd = self.config.ccd_fraction.max(0.0);
        for b in self.bodies.iter_mut().flatten() {
            let end = b.world_box(b.position, b.rotation);
            b.aabb = end;
            let motion = b.motion();
            b.fast = motion != Vec3::ZERO && motion.length() > ccd * b.thickness;
            let bx = if b.fast {
                end.union(&b.world_box(b.start_position, b.start_rotation))
            } else {
                end
            };
            stats.bodies += 1;
            stats.fast_bodies += usize::from(b.fast);
            // Finite by construction: poses are checked on entry.
            if self.broad.update(b.proxy, bx).is_err() {
                b.aabb = Aabb::EMPTY;
            }
        }
        let t1 = Instant::now();
        // 2. Broad phase.
        self.broad.update_pairs(&mut self.broad_pairs);
        let mut pairs: Vec<(u32, u32)> = self
            .broad_pairs
            .iter()
            .map(|&(p, q)| {
                let (a, b) = (self.proxy_body[p as usize], self.proxy_body[q as usize]);
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        stats.broad_pairs = pairs.len();
        let t2 = Instant::now();
        // 3–5. Midphase, exact tests, sweeps: one task per pair (in parallel with the
        // `parallel` feature), each with its own cache; results in the sorted pair order.
        let mut work: Vec<((u32, u32), PairCache)> = pairs
            .iter()
            .map(|&k| (k, self.caches.remove(&k).unwrap_or_default()))
            .collect();
        let bodies = &self.bodies;
        let results: Vec<(Outcome, QueryCounts)> =
            crate::par::map_mut(&mut work, |((a, b), cache)| {
                let (ba, bb) = (bodies[*a as usize].as_ref(), bodies[*b as usize].as_ref());
                match (ba, bb) {
                    (Some(ba), Some(bb)) => pair_outcome(ba, bb, cache),
                    _ => (Outcome::Apart, QueryCounts::default()),
                }
            });
        let t3 = Instant::now();
        // Events and contacts, in pair order.
        self.contacts.clear();
        self.events.clear();
        let mut touching = Vec::with_capacity(self.touching.len());
        for ((key, cache), (outcome, counts)) in work.into_iter().zip(results) {
            stats.cache_hits += counts.sat_hits;
            stats.cache_misses += counts.sat_misses;
            match outcome {
                Outcome::RejectedSphere => stats.rejected_sphere += 1,
                Outcome::RejectedObb => stats.rejected_obb += 1,
                Outcome::Apart => stats.rejected_exact += 1,
                Outcome::Contact(manifold, toi) => {
                    stats.contacts += 1;
                    stats.impacts += usize::from(toi.is_some());
                    self.contacts.push(PairContact {
                        a: BodyId(key.0),
                        b: BodyId(key.1),
                        manifold,
                        toi,
                    });
                    touching.push(key);
                }
            }
            self.caches.insert(key, cache);
        }
        // Began / persisted / ended: a merge of two sorted lists.
        let (old, new) = (&self.touching, &touching);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            let o = old.get(i);
            let n = new.get(j);
            match (o, n) {
                (Some(&o), Some(&n)) if o == n => {
                    self.events
                        .push(ContactEvent::Persisted(BodyId(o.0), BodyId(o.1)));
                    i += 1;
                    j += 1;
                }
                (Some(&o), Some(&n)) if o < n => {
                    self.events
                        .push(ContactEvent::Ended(BodyId(o.0), BodyId(o.1)));
                    i += 1;
                }
                (Some(&o), None) => {
                    self.events
                        .push(ContactEvent::Ended(BodyId(o.0), BodyId(o.1)));
                    i += 1;
                }
                (_, Some(&n)) => {
                    self.events
                        .push(ContactEvent::Began(BodyId(n.0), BodyId(n.1)));
                    j += 1;
                }
                (None, None) => break,
            }
        }
        self.touching = touching;
        // The next frame starts where this one ended.
        for b in self.bodies.iter_mut().flatten() {
            b.start_position = b.position;
            b.start_rotation = b.rotation;
        }
        self.free.append(&mut self.pending_free);
        let t4 = Instant::now();
        stats.time_bounds = t1 - t0;
        stats.time_broad = t2 - t1;
        stats.time_narrow = t3 - t2;
        stats.time_events = t4 - t3;
        self.stats = stats;
    }

    /// The contacts of the last update, sorted by `(a, b)`.
    #[must_use]
    pub fn contacts(&self) -> &[PairContact] {
        &self.contacts
    }

    /// The events of the last update, sorted by pair.
    #[must_use]
    pub fn events(&self) -> &[ContactEvent] {
        &self.events
    }

    /// Statistics of the last update.
    #[must_use]
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    /// The first body a ray hits within `[0, max_t]` (exact shapes, current poses), or
    /// `None`. A NaN ray or `max_t` hits nothing; a ray starting inside a body hits it at
    /// `t = 0`.
    #[must_use]
    pub fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<WorldRayHit> {
        if !(ray.is_finite() && max_t >= 0.0) {
            return None;
        }
        let mut best: Option<WorldRayHit> = None;
        let mut parts = Vec::new();
        self.broad.ray_cast(ray, max_t, &mut |proxy, _| {
            let id = self.proxy_body[proxy as usize];
            let bound = best.map_or(max_t, |h| h.t);
            if let Some(Some(body)) = self.bodies.get(id as usize) {
                body.parts(body.position, body.rotation, &mut parts);
                for (part, _) in &parts {
                    if let Some(hit) = narrow::ray_part(ray, part, bound) {
                        let t = hit.t;
                        let better = best.is_none_or(|h| t < h.t || (t == h.t && id < h.body.0));
                        if better {
                            best = Some(WorldRayHit {
                                body: BodyId(id),
                                t,
                                point: hit.point,
                                normal: hit.normal,
                            });
                        }
                    }
                }
            }
            best.map_or(max_t, |h| h.t)
        });
        best
    }

    /// Every body whose world box (current pose) touches `aabb`, sorted by id. A NaN box
    /// touches nothing.
    #[must_use]
    pub fn query_aabb(&self, aabb: &Aabb) -> Vec<BodyId> {
        let mut out = Vec::new();
        self.broad.query_aabb(aabb, &mut |proxy| {
            let id = self.proxy_body[proxy as usize];
            if let Some(Some(b)) = self.bodies.get(id as usize) {
                if crate::overlap::aabb_aabb(&b.aabb, aabb) {
                    out.push(BodyId(id));
                }
            }
            true
        });
        out.sort_unstable();
        out
    }
}

/// The midphase, exact test and sweep of one pair (bodies `a < b`).
fn pair_outcome(a: &Body, b: &Body, cache: &mut PairCache) -> (Outcome, QueryCounts) {
    let mut counts = QueryCounts::default();
    let swept = a.fast || b.fast;
    if swept {
        // Midphase: the bounding spheres swept over the frame.
        let sa = a.bounding_sphere(a.start_position, a.start_rotation);
        let sb = b.bounding_sphere(b.start_position, b.start_rotation);
        if crate::sweep::sphere_sphere(&sa, a.motion(), &sb, b.motion()).is_none() {
            return (Outcome::RejectedSphere, counts);
        }
    } else {
        let sa = a.bounding_sphere(a.position, a.rotation);
        let sb = b.bounding_sphere(b.position, b.rotation);
        if !crate::overlap::sphere_sphere(&sa, &sb) {
            return (Outcome::RejectedSphere, counts);
        }
        let oa = a.bounding_obb(a.position, a.rotation);
        let ob = b.bounding_obb(b.position, b.rotation);
        if !crate::overlap::obb_obb(&oa, &ob) {
            return (Outcome::RejectedObb, counts);
        }
    }
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    if swept {
        // Sweeps from the start pose along the frame's translation.
        a.parts(a.start_position, a.start_rotation, &mut pa);
        b.parts(b.start_position, b.start_rotation, &mut pb);
        let (ma, mb) = (a.motion(), b.motion());
        let mut first: Option<Impact> = None;
        for (part_a, box_a) in &pa {
            let swept_a = box_a.union(&translate(box_a, ma));
            for (part_b, box_b) in &pb {
                let swept_b = box_b.union(&translate(box_b, mb));
                if !crate::overlap::aabb_aabb(&swept_a, &swept_b) {
                    continue;
                }
                if let Some(i) = narrow::impact(part_a, ma, part_b, mb) {
                    if first.is_none_or(|f| i.t < f.t) {
                        first = Some(i);
                    }
                }
            }
        }
        return match first {
            Some(i) => (
                Outcome::Contact(Manifold::one(i.normal, 0.0, i.point).finite(), Some(i.t)),
                counts,
            ),
            None => (Outcome::Apart, counts),
        };
    }
    a.parts(a.position, a.rotation, &mut pa);
    b.parts(b.position, b.rotation, &mut pb);
    let n = pa.len() * pb.len();
    cache.sep.resize(n, SepCache::default());
    cache.gjk.resize(n, GjkCache::default());
    // Several pieces: the deepest piece contact is the pair's.
    let mut best: Option<Manifold> = None;
    for (i, (part_a, box_a)) in pa.iter().enumerate() {
        for (j, (part_b, box_b)) in pb.iter().enumerate() {
            if n > 1 && !crate::overlap::aabb_aabb(box_a, box_b) {
                continue;
            }
            let k = i * pb.len() + j;
            let (sep, gjk) = (&mut cache.sep[k], &mut cache.gjk[k]);
            if let Some(m) = narrow::contact(part_a, part_b, sep, gjk, &mut counts) {
                if best.is_none_or(|bm| m.depth > bm.depth) {
                    best = Some(m);
                }
            }
        }
    }
    match best {
        Some(m) => (Outcome::Contact(m.finite(), None), counts),
        None => (Outcome::Apart, counts),
    }
}

fn translate(b: &Aabb, d: Vec3) -> Aabb {
    Aabb {
        min: b.min + d,
        max: b.max + d,
    }
}
