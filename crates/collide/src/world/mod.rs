//! The collision world: bodies, the per-frame pipeline, pair caches and events.
//!
//! Each [`World::update`] (or [`World::step`], which first moves bodies by their velocities):
//! 1. **Bounds**: every body's world box, fast ([`Aabb::transformed`] of the rest-pose box,
//!    Arvo 1990) or tight (every hull vertex transformed, [`BodyDesc::tight_bounds`]). A *fast*
//!    body (one that moved more than [`WorldConfig::ccd_fraction`] of its smallest half-size
//!    this frame) gets the box swept over its motion.
//! 2. **Broad phase** ([`crate::broadphase`], the dynamic BVH by default, or sweep and prune):
//!    the pairs whose boxes touch, collision groups filtered inside it.
//! 3. **Midphase**: bounding spheres (swept for fast pairs), then bounding OBBs (15-axis SAT,
//!    [`crate::overlap::obb_obb`]) for pairs at rest.
//! 4. **Exact test** per convex part pair: analytic for spheres, the separating-axis test with
//!    the per-pair separating-plane cache for polyhedra ([`crate::convex::contact_manifold`]),
//!    GJK/EPA for capsules; several convex pieces are pruned by their boxes first.
//! 5. **Sweeps** for pairs with a fast body: the first contact within the frame (exact sweeps
//!    for spheres and boxes, the GJK ray cast of `sweep::convex` otherwise) — no tunnelling.
//! 6. **Seams**: a moving body resting across the seam of fixed convex bodies laid flush
//!    (floor tiles, wall blocks) drops the contacts whose every point lies on or in a flush
//!    neighbour it also touches: the edge and side-face contacts that would lean toward the
//!    seam (Jolt's enhanced internal edge removal, in a geometric form). At least one of its
//!    contacts with fixed bodies is always kept; [`FrameStats::hidden_contacts`] counts the
//!    dropped ones.
//!
//! Each pair keeps its caches (separating feature, GJK simplex) from one frame to the next
//! while the broad phase reports it; the first frame it does not, they are dropped.
//!
//! Output: [`World::contacts`] (normal, depth, points, and the time of impact for swept
//! pairs), [`World::events`] (began, persisted, ended) and [`World::stats`]. Without running
//! a frame, [`World::evaluate`] gives every close pair's verdict at the current poses
//! (contact, or closest points and a separating plane; time of impact along the motion). The
//! narrow phase runs on the pairs sorted by id, in parallel (rayon) with the `parallel`
//! feature and on the calling thread without it; every output is identical whatever the
//! number of threads.
//!
//! **The level.** Triangle meshes, heightfields and half-spaces ([`Geometry::Mesh`],
//! [`Geometry::Heightfield`], [`Geometry::HalfSpace`]) meet every convex kind: their contacts
//! come from [`crate::mesh`]'s per-triangle contacts with the internal-edge correction (a body
//! sliding over a flat tessellated floor sees only the face normal), reduced to one manifold
//! of up to four points; fast bodies are swept against each triangle near their path. Fixed
//! bodies ([`BodyDesc::fixed`]) are kept out of the per-frame stages: they sit in a static
//! tree of their own (rebuilt by the next update after one is added, moved or removed), each
//! moving body queries it once per frame, and two fixed bodies are never paired.
//!
//! Limits, by design for now: a pair of two surfaces (mesh, heightfield, half-space) has no
//! contact; a swept pair is tested along the frame's translation with the
//! bodies' orientation at the start of the frame (rotation within the frame is not swept);
//! a fast pair reports its contact at the time of impact (depth 0), not at the frame's end (one
//! that starts in contact and does not move deeper has no impact and reports its contact at
//! the frame's end);
//! a body of several pieces reports the deepest piece contact of a pair, not one manifold
//! per piece pair.
//!
//! # Example
//!
//! ```rust
//! use collide::shapes::Aabb;
//! use collide::world::{BodyDesc, ContactEvent, Geometry, QueryFilter, World};
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
//! assert_eq!(world.query_aabb(&Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)), &QueryFilter::default()), [door]);
//! # Ok::<(), collide::world::WorldError>(())
//! ```

mod body;
mod evaluate;
mod fixed;
mod flush;
mod frame;
mod narrow;
mod pair;
mod query;
mod surface;

pub use crate::convex::{ContactPoint, Manifold};
pub use evaluate::{PairVerdict, Separation};
pub use narrow::Impact;
pub use query::{QueryFilter, ShapeDistance, ShapeHit, WorldPoint};

use crate::broadphase::{
    BroadPhase, BroadPhaseError, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
};
use crate::convex::ConvexHull;
use crate::math::{Quat, Vec3};
use crate::mesh::{Heightfield, MeshCollider};
use crate::shapes::Aabb;
use body::{finite_quat, unit_quat, Body};
use fixed::FixedBodies;
use frame::FrameBuffers;
use narrow::QueryCounts;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

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
    /// A triangle mesh (two-sided), usually a fixed body: a level. Meets every convex kind
    /// above; a pair of two meshes, heightfields or half-spaces has no contact.
    Mesh(Arc<MeshCollider>),
    /// A heightfield (terrain), with the same rules as [`Geometry::Mesh`].
    Heightfield(Arc<Heightfield>),
    /// Every point with `y <= 0` in the body's rest frame: a ground plane, solid below.
    HalfSpace,
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
    /// A fixed body: never moved by [`World::step`] (its velocities are ignored), its box not
    /// refreshed each frame, and never paired with another fixed body. Fixed bodies live in
    /// a tree of their own, so a level of any size costs a moving body one tree query.
    pub fixed: bool,
    /// A sensor (a trigger volume): its overlaps give [`World::sensor_events`] and no
    /// contacts; scene queries skip it unless their filter asks for sensors
    /// ([`QueryFilter::with_sensors`]). Two sensors never detect each other.
    pub sensor: bool,
    /// A value of the caller's (an entity id, an index into a game table), read back by
    /// [`World::user_value`]; the world never looks at it.
    pub user_value: u64,
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
            fixed: false,
            sensor: false,
            user_value: 0,
        }
    }

    /// As a sensor (see [`BodyDesc::sensor`]): events, no contacts.
    #[must_use]
    pub fn sensor(mut self) -> BodyDesc {
        self.sensor = true;
        self
    }

    /// With this user value (see [`BodyDesc::user_value`]).
    #[must_use]
    pub fn user_value(mut self, value: u64) -> BodyDesc {
        self.user_value = value;
        self
    }

    /// As a fixed body (see [`BodyDesc::fixed`]): the level's geometry.
    #[must_use]
    pub fn fixed(mut self) -> BodyDesc {
        self.fixed = true;
        self
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
    /// has a zero half-extent, or a piece list is empty: [`BodyError`] says which.
    InvalidBody(BodyError),
    /// No body with this id.
    UnknownBody(BodyId),
    /// The broad phase refused the body's box.
    BroadPhase(BroadPhaseError),
}

/// What is wrong with a body the world refuses ([`WorldError::InvalidBody`]).
///
/// ```
/// use collide::world::{BodyDesc, BodyError, Geometry, World, WorldError};
///
/// let mut world = World::default();
/// let flat = BodyDesc::new(Geometry::Cuboid(collide::Vec3::new(1.0, 0.0, 1.0)));
/// assert!(matches!(
///     world.add_body(flat),
///     Err(WorldError::InvalidBody(BodyError::BoxHalfExtents(_)))
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BodyError {
    /// The position or rotation is NaN or infinite (a rotation must also be non-zero).
    PoseNotFinite,
    /// The linear or angular velocity is NaN or infinite.
    VelocityNotFinite,
    /// A sphere's radius is NaN, infinite or negative.
    SphereRadius(f32),
    /// A box's half-extents are NaN, infinite or not all `> 0`.
    BoxHalfExtents(Vec3),
    /// A box's hull (for the separating-axis test) could not be built from its half-extents.
    BoxHull(Vec3),
    /// A capsule's half-height or radius is NaN, infinite or negative.
    CapsuleSize {
        /// The half-height given.
        half_height: f32,
        /// The radius given.
        radius: f32,
    },
    /// A hull has no finite vertex (no bounding box).
    HullNotFinite,
    /// Piece `index` of a piece list has no finite vertex.
    PieceNotFinite {
        /// The piece's index in the list.
        index: usize,
    },
    /// A piece list is empty.
    NoPieces,
    /// The body's bounding box in the world is not finite (a pose far out for its size).
    BoundsNotFinite,
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BodyError::PoseNotFinite => write!(f, "pose not finite"),
            BodyError::VelocityNotFinite => write!(f, "velocity not finite"),
            BodyError::SphereRadius(r) => write!(f, "sphere radius {r} not finite and >= 0"),
            BodyError::BoxHalfExtents(h) => write!(f, "box half-extents {h} not finite and > 0"),
            BodyError::BoxHull(h) => write!(f, "box hull could not be built from {h}"),
            BodyError::CapsuleSize {
                half_height,
                radius,
            } => write!(
                f,
                "capsule half-height {half_height} and radius {radius} not finite and >= 0"
            ),
            BodyError::HullNotFinite => write!(f, "hull has no finite vertex"),
            BodyError::PieceNotFinite { index } => write!(f, "piece {index} has no finite vertex"),
            BodyError::NoPieces => write!(f, "piece list is empty"),
            BodyError::BoundsNotFinite => write!(f, "bounding box not finite"),
        }
    }
}

impl std::error::Error for BodyError {}

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
    /// [`SweepAndPrune`]: sorted endpoint lists re-sorted incrementally; for worlds of a few
    /// hundred bodies that each move a little per frame and are rarely queried (a ray cast
    /// walks the sorted lists: over a hundred microseconds per ray at 10,000 bodies).
    SweepAndPrune,
    /// [`DynamicBvh`], the default: a fattened-box tree; fast with many bodies, large motion,
    /// and ray casts and box queries (a few microseconds per ray at 10,000 bodies).
    #[default]
    DynamicBvh,
}

/// World settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldConfig {
    /// The broad phase. Default [`BroadPhaseKind::DynamicBvh`].
    pub broad_phase: BroadPhaseKind,
    /// A body is swept (continuous collision) when it moves more than this fraction of its
    /// smallest half-size in a frame. `0` sweeps every moving body. Default `0.25`.
    pub ccd_fraction: f32,
}

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            broad_phase: BroadPhaseKind::DynamicBvh,
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
    /// the frame. `None` for pairs tested at the frame's end only, which includes a fast pair
    /// that starts in contact and does not move deeper (no impact by the sweeps'
    /// starting-touch rule) but still touches at the frame's end: its contact there.
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

/// A change in what a sensor overlaps between two frames (sensors give no contacts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SensorEvent {
    /// `body` overlaps `sensor` this frame and did not the frame before.
    Began {
        /// The sensor.
        sensor: BodyId,
        /// The body that entered it.
        body: BodyId,
    },
    /// `body` overlapped `sensor` the frame before and no longer does (or one was removed).
    Ended {
        /// The sensor.
        sensor: BodyId,
        /// The body that left it.
        body: BodyId,
    },
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
    /// Contacts with a fixed body dropped because a flush fixed neighbour hides the surface
    /// they report (a body across the seam of two floor boxes touching one's edge); not in
    /// `contacts`.
    pub hidden_contacts: usize,
    /// Separating-axis tests answered by the cached feature.
    pub cache_hits: u64,
    /// Separating-axis tests that needed the full search.
    pub cache_misses: u64,
    /// Pair caches kept for the next frame: one per pair of this frame's broad phase (a
    /// pair's cache is dropped the first frame it is no longer close).
    pub cached_pairs: usize,
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

/// The collision world. See the [module documentation](self) for the pipeline.
pub struct World {
    bodies: Vec<Option<Body>>,
    free: Vec<u32>,
    pending_free: Vec<u32>,
    broad: Box<dyn BroadPhase + Send + Sync>,
    proxy_body: Vec<u32>,
    /// The moving (not fixed) bodies, by id: the only ones the per-frame stages walk.
    moving: Vec<u32>,
    /// The fixed bodies' tree, rebuilt by the next update after a fixed body is added,
    /// moved or removed; until then queries scan `fixed` directly.
    fixed: FixedBodies,
    config: WorldConfig,
    broad_pairs: Vec<(ProxyId, ProxyId)>,
    /// The frame's buffers; between frames, every pair of the last frame with its cache.
    frame: FrameBuffers,
    touching: Vec<(u32, u32)>,
    /// Pairs of a sensor and a body overlapping in the last frame, sorted.
    sensing: Vec<(u32, u32)>,
    contacts: Vec<PairContact>,
    events: Vec<ContactEvent>,
    sensor_events: Vec<SensorEvent>,
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
            moving: Vec::new(),
            fixed: FixedBodies::default(),
            config,
            broad_pairs: Vec::new(),
            frame: FrameBuffers::default(),
            touching: Vec::new(),
            sensing: Vec::new(),
            contacts: Vec::new(),
            events: Vec::new(),
            sensor_events: Vec::new(),
            stats: FrameStats::default(),
        }
    }

    /// Adds a body; rejects NaN/infinite poses, velocities or sizes, negative radii, flat boxes
    /// and empty piece lists ([`WorldError::InvalidBody`]).
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyId, WorldError> {
        let mut body = Body::new(&desc, 0)?;
        let proxy = if body.fixed {
            ProxyId::MAX
        } else {
            self.broad.insert(body.aabb, body.groups)?
        };
        body.proxy = proxy;
        let fixed = body.fixed;
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
        if fixed {
            self.fixed.insert(id);
            return Ok(BodyId(id));
        }
        self.moving.push(id);
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
        if body.fixed {
            self.fixed.remove(id.0);
        } else {
            self.broad.remove(body.proxy)?;
            self.moving.retain(|&m| m != id.0);
        }
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
    /// move is checked for contacts all along the way). A fixed body is placed there at once,
    /// unswept, and its tree is rebuilt by the next update.
    pub fn move_body(
        &mut self,
        id: BodyId,
        position: Vec3,
        rotation: Quat,
    ) -> Result<(), WorldError> {
        if !(position.is_finite() && finite_quat(rotation)) {
            return Err(WorldError::InvalidBody(BodyError::PoseNotFinite));
        }
        let b = self.body_mut(id)?;
        b.position = position;
        b.rotation = unit_quat(rotation);
        if b.fixed {
            b.start_position = b.position;
            b.start_rotation = b.rotation;
            b.aabb = b.world_box(b.position, b.rotation);
            b.broad_box = b.aabb;
            self.fixed.dirty = true;
        }
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
            return Err(WorldError::InvalidBody(BodyError::VelocityNotFinite));
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
        for &id in &self.moving {
            let Some(b) = self.bodies[id as usize].as_mut() else {
                continue;
            };
            b.position += b.linear_velocity * dt;
            let w = b.angular_velocity * dt;
            if w != Vec3::ZERO {
                b.rotation = (Quat::from_scaled_axis(w) * b.rotation).normalize();
            }
        }
        self.update();
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

    /// The sensor events of the last update, sorted by `(sensor, body)` pair order.
    #[must_use]
    pub fn sensor_events(&self) -> &[SensorEvent] {
        &self.sensor_events
    }

    /// Statistics of the last update.
    #[must_use]
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }
}
