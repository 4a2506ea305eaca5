//! Scene queries: what gameplay code asks the world between frames. Rays, shape casts,
//! overlaps and closest points, on the bodies' exact shapes at their current poses, each
//! through a [`QueryFilter`].
//!
//! Every query walks the same candidates: the moving bodies' broad phase and the fixed
//! bodies' tree, each body kept only when the filter lets it through, then the one narrow
//! phase the pipeline uses ([`super::pair`]: a query shape is placed like a body).

use super::body::{self, Body, QueryPart, Shape};
use super::fixed::FixedWalk;
use super::narrow::{self, Part};
use super::pair::{self, Placed};
use super::surface;
use super::{BodyId, Geometry, World, WorldError, WorldRayHit};
use crate::broadphase::{prefetch_lines, CollisionGroups, ProxyId, PREFETCH_BYTES};
use crate::convex::gjk;
use crate::math::{Quat, Vec3};
use crate::raycast::RayHit;
use crate::shapes::{Aabb, Obb, Ray, Sphere};
use std::cell::OnceCell;
use std::fmt;

/// Which bodies a scene query sees. [`QueryFilter::default`] sees every body but sensors.
///
/// A body passes when all of these hold: the filter's groups and the body's accept each other
/// ([`CollisionGroups::allows`]); it is not excluded by id; it is not a sensor unless
/// [`QueryFilter::with_sensors`]; it is not fixed (moving) when fixed (moving) bodies are
/// excluded; and the predicate, if any, returns `true` for it.
///
/// ```
/// use collide::shapes::Ray;
/// use collide::world::{BodyDesc, Geometry, QueryFilter, World};
/// use collide::Vec3;
///
/// let mut world = World::default();
/// let floor = world.add_body(BodyDesc::new(Geometry::HalfSpace).fixed())?;
/// let player = world.add_body(BodyDesc::new(Geometry::Sphere(0.5)).at(Vec3::Y))?;
/// // A ray down from the player's eye starts inside the player: exclude it.
/// let down = Ray::new(Vec3::new(0.0, 1.2, 0.0), Vec3::NEG_Y);
/// assert_eq!(world.cast_ray(&down, 10.0, &QueryFilter::default()).unwrap().body, player);
/// let hit = world.cast_ray(&down, 10.0, &QueryFilter::default().excluding(player)).unwrap();
/// assert_eq!((hit.body, hit.t), (floor, 1.2));
/// # Ok::<(), collide::world::WorldError>(())
/// ```
#[derive(Clone)]
pub struct QueryFilter<'a> {
    groups: CollisionGroups,
    /// The first excluded ids inline (no allocation for the usual one or two), the rest after.
    excluded_inline: [BodyId; 2],
    excluded_len: usize,
    excluded_more: Vec<BodyId>,
    sensors: bool,
    fixed: bool,
    moving: bool,
    predicate: Option<&'a (dyn Fn(BodyId) -> bool + Sync)>,
}

impl Default for QueryFilter<'_> {
    /// Every body but sensors.
    fn default() -> Self {
        QueryFilter {
            groups: CollisionGroups::ALL,
            excluded_inline: [BodyId(u32::MAX); 2],
            excluded_len: 0,
            excluded_more: Vec::new(),
            sensors: false,
            fixed: true,
            moving: true,
            predicate: None,
        }
    }
}

impl fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryFilter")
            .field("groups", &self.groups)
            .field("excluded", &self.excluded().collect::<Vec<_>>())
            .field("sensors", &self.sensors)
            .field("fixed", &self.fixed)
            .field("moving", &self.moving)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// Sees only bodies whose groups and these accept each other.
    #[must_use]
    pub fn with_groups(mut self, groups: CollisionGroups) -> QueryFilter<'a> {
        self.groups = groups;
        self
    }

    /// Never sees this body (call again to exclude more).
    #[must_use]
    pub fn excluding(mut self, id: BodyId) -> QueryFilter<'a> {
        if self.excluded_len < self.excluded_inline.len() {
            self.excluded_inline[self.excluded_len] = id;
            self.excluded_len += 1;
        } else {
            self.excluded_more.push(id);
        }
        self
    }

    /// Sees sensors too.
    #[must_use]
    pub fn with_sensors(mut self) -> QueryFilter<'a> {
        self.sensors = true;
        self
    }

    /// Never sees fixed bodies (the level).
    #[must_use]
    pub fn excluding_fixed(mut self) -> QueryFilter<'a> {
        self.fixed = false;
        self
    }

    /// Never sees moving (not fixed) bodies.
    #[must_use]
    pub fn excluding_moving(mut self) -> QueryFilter<'a> {
        self.moving = false;
        self
    }

    /// Sees only bodies for which `keep` returns `true` (asked last, after the other rules).
    #[must_use]
    pub fn with_predicate(mut self, keep: &'a (dyn Fn(BodyId) -> bool + Sync)) -> QueryFilter<'a> {
        self.predicate = Some(keep);
        self
    }

    fn excluded(&self) -> impl Iterator<Item = BodyId> + '_ {
        self.excluded_inline[..self.excluded_len]
            .iter()
            .chain(&self.excluded_more)
            .copied()
    }

    /// Whether the filter lets this body through.
    fn passes(&self, id: BodyId, body: &Body) -> bool {
        self.groups.allows(body.groups)
            && (self.sensors || !body.sensor)
            && (if body.fixed { self.fixed } else { self.moving })
            && self.excluded().all(|e| e != id)
            && self.predicate.is_none_or(|keep| keep(id))
    }
}

/// A shape cast's hit on a body ([`World::cast_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit {
    /// The body hit.
    pub body: BodyId,
    /// Time of impact in `[0, 1]` along the motion (0: overlapping at the start and moving
    /// deeper).
    pub toi: f32,
    /// A contact point at `toi`.
    pub point: Vec3,
    /// Unit normal at `toi`, from the hit body toward the cast shape.
    pub normal: Vec3,
}

/// The point of a body closest to a query point ([`World::closest_point`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldPoint {
    /// The body.
    pub body: BodyId,
    /// The closest point on the body: the query point itself when it is inside a solid body.
    pub point: Vec3,
    /// Distance from the query point to `point` (0 inside a solid body).
    pub distance: f32,
    /// The query point is inside (or on) a solid body: a convex body, or below a half-space.
    /// Meshes and heightfields are surfaces: a point is never inside them.
    pub inside: bool,
}

/// The distance between a query shape and the nearest body ([`World::shape_distance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDistance {
    /// The nearest body.
    pub body: BodyId,
    /// Distance `>= 0`; 0 when the shape touches or overlaps the body.
    pub distance: f32,
    /// The body's point closest to the shape.
    pub point_on_body: Vec3,
    /// The shape's point closest to the body.
    pub point_on_shape: Vec3,
}

/// A box around `p` reaching `r` in every direction, clamped to the finite range.
fn box_around(p: Vec3, r: f32) -> Aabb {
    let r = Vec3::splat(r.min(f32::MAX));
    Aabb::new(
        (p - r).max(Vec3::splat(f32::MIN)),
        (p + r).min(Vec3::splat(f32::MAX)),
    )
}

impl World {
    /// Calls `f` with every body whose world box touches `aabb` and that the filter lets
    /// through: the moving bodies' broad phase, then the fixed bodies' tree.
    fn candidates(&self, aabb: &Aabb, filter: &QueryFilter<'_>, f: &mut dyn FnMut(u32, &Body)) {
        let mut visit = |id: u32| {
            if let Some(Some(body)) = self.bodies.get(id as usize) {
                if crate::overlap::aabb_aabb(&body.aabb, aabb) && filter.passes(BodyId(id), body) {
                    f(id, body);
                }
            }
        };
        // Bodies are visited eight at a time, in the order found; in a world whose records
        // outgrow the cache each record's first two lines (what a query reads) start loading
        // when it is found, so the loads of a batch overlap instead of following one another.
        let prefetching = std::mem::size_of_val(&self.bodies[..]) > PREFETCH_BYTES;
        let (mut batch, mut len) = ([0u32; 8], 0);
        let mut found = |id: u32| {
            if prefetching {
                if let Some(slot) = self.bodies.get(id as usize) {
                    prefetch_lines(slot, 2);
                }
            }
            batch[len] = id;
            len += 1;
            if len == batch.len() {
                batch.iter().for_each(|&id| visit(id));
                len = 0;
            }
        };
        self.broad.query_aabb(aabb, &mut |proxy| {
            found(self.proxy_body[proxy as usize]);
            true
        });
        self.fixed.query(&self.bodies, aabb, &mut |id| {
            found(id);
            true
        });
        batch[..len].iter().for_each(|&id| visit(id));
    }

    /// Calls `test(id, body)` with every body the filter lets through whose box the ray
    /// enters within the current bound; `test` returns the new bound (`max_t` at first).
    fn ray_candidates(
        &self,
        ray: &Ray,
        max_t: f32,
        filter: &QueryFilter<'_>,
        test: &mut dyn FnMut(u32, &Body) -> f32,
    ) {
        let mut visit = |id: u32, bound: f32| match self.bodies.get(id as usize) {
            Some(Some(body)) if filter.passes(BodyId(id), body) => test(id, body),
            _ => bound,
        };
        let mut fixed = self.fixed.ray_walk(ray, max_t);
        self.walk_in_step(
            &mut fixed,
            max_t,
            |f| self.broad.ray_cast(ray, max_t, f),
            &mut visit,
        );
    }

    /// Walks the moving bodies (`moving`: the broad phase's ray or box cast, given the
    /// callback) and the fixed bodies in step: before each moving body, whose box the path
    /// enters at `entry`, the fixed bodies met first are visited, so the nearer hit of either
    /// kind prunes both walks. `visit(id, bound)` returns the new bound (`max_t` at first).
    fn walk_in_step(
        &self,
        fixed: &mut FixedWalk,
        max_t: f32,
        moving: impl FnOnce(&mut dyn FnMut(ProxyId, f32) -> f32),
        visit: &mut dyn FnMut(u32, f32) -> f32,
    ) {
        let mut bound = max_t;
        // In a world whose records outgrow the cache, the moving body's record starts loading
        // while the fixed bodies met before it are visited.
        let prefetching = std::mem::size_of_val(&self.bodies[..]) > PREFETCH_BYTES;
        moving(&mut |proxy, entry| {
            let id = self.proxy_body[proxy as usize];
            if prefetching {
                if let Some(slot) = self.bodies.get(id as usize) {
                    prefetch_lines(slot, 2);
                }
            }
            bound = fixed.advance(&self.fixed, &self.bodies, entry, bound, visit);
            if entry <= bound {
                bound = visit(id, bound);
            }
            bound
        });
        fixed.advance(&self.fixed, &self.bodies, f32::INFINITY, bound, visit);
    }

    /// The first body the filter lets through that a ray hits within `[0, max_t]` (exact
    /// shapes, current poses), or `None`. A ray starting inside a body hits it at `t = 0`,
    /// normal `-dir/|dir|`; bodies hit at the same `t` go to the smaller id. A NaN ray or
    /// `max_t`, or a zero direction, hits nothing.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32, filter: &QueryFilter<'_>) -> Option<WorldRayHit> {
        if !(ray.is_finite() && max_t >= 0.0) {
            return None;
        }
        let mut best: Option<WorldRayHit> = None;
        let mut parts = Vec::new();
        self.ray_candidates(ray, max_t, filter, &mut |id, body| {
            let bound = best.map_or(max_t, |b| b.t);
            if let Some(hit) = ray_body(ray, body, bound, &mut parts) {
                if best.is_none_or(|b| hit.t < b.t || (hit.t == b.t && id < b.body.0)) {
                    best = Some(world_hit(id, hit));
                }
            }
            best.map_or(max_t, |b| b.t)
        });
        best
    }

    /// Every body the filter lets through that a ray hits within `[0, max_t]`, each once at
    /// its first hit, sorted by `t` (then id). Same rules as [`World::cast_ray`].
    #[must_use]
    pub fn cast_ray_all(
        &self,
        ray: &Ray,
        max_t: f32,
        filter: &QueryFilter<'_>,
    ) -> Vec<WorldRayHit> {
        let mut out = Vec::new();
        if !(ray.is_finite() && max_t >= 0.0) {
            return out;
        }
        let mut parts = Vec::new();
        self.ray_candidates(ray, max_t, filter, &mut |id, body| {
            if let Some(hit) = ray_body(ray, body, max_t, &mut parts) {
                out.push(world_hit(id, hit));
            }
            max_t
        });
        out.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.body.cmp(&b.body)));
        out
    }

    /// The first body the filter lets through that `shape`, placed at `position` and
    /// `rotation`, hits while translating by `motion` (its orientation held), or `None`.
    ///
    /// `toi` in `[0, 1]` along `motion`; the normal points from the hit body toward the shape.
    /// A shape that starts touching or overlapping a body and moves away from it (or along
    /// it) does not hit that body; one that starts overlapping and moves deeper hits it at
    /// `toi = 0`. A triangle mesh or heightfield is many bodies in this sense: each triangle
    /// follows the rule, so a shape resting on a floor and moving along it still hits a wall
    /// of the same mesh. Bodies hit at the same `toi` go to the smaller id.
    ///
    /// A convex shape (sphere, box, capsule, hull, pieces) hits every geometry kind; a mesh,
    /// heightfield or half-space as the cast shape hits convex bodies only (two surfaces
    /// never touch, as in [`World::update`]). A shape the world would refuse as a body
    /// ([`WorldError::InvalidBody`]), or a NaN or infinite pose or motion, hits nothing; nor
    /// does a contact that would lie beyond `±f32::MAX` (the sweeps' rule).
    #[must_use]
    pub fn cast_shape(
        &self,
        shape: &Geometry,
        position: Vec3,
        rotation: Quat,
        motion: Vec3,
        filter: &QueryFilter<'_>,
    ) -> Option<ShapeHit> {
        self.cast_shape_within(shape, position, rotation, motion, 0.0, filter)
    }

    /// [`World::cast_shape`] to a target distance: the first time the shape comes within
    /// `distance` of a body (the shape grown by `distance` in every direction meets it), the
    /// point then on the body. The starting-touch rule applies at that distance: a shape that
    /// starts within it and moves away (or along) does not hit; one that starts within it and
    /// moves closer hits at `toi = 0`. A negative, NaN or infinite distance hits nothing;
    /// `distance = 0` is [`World::cast_shape`].
    #[must_use]
    pub fn cast_shape_within(
        &self,
        shape: &Geometry,
        position: Vec3,
        rotation: Quat,
        motion: Vec3,
        distance: f32,
        filter: &QueryFilter<'_>,
    ) -> Option<ShapeHit> {
        if !(motion.is_finite() && distance.is_finite() && distance >= 0.0) {
            return None;
        }
        // One convex part not grown: placed directly, each body's bounding sphere first.
        let direct = (distance == 0.0)
            .then(|| body::query_part(shape, position, rotation))
            .flatten();
        let general_body = OnceCell::new();
        let general = || {
            general_body
                .get_or_init(|| query_body(shape, position, rotation))
                .as_ref()
        };
        let reach = match &direct {
            Some(q) => q.aabb,
            None => general()?.aabb.expanded(distance),
        };
        let mut scratch: Option<pair::QueryScratch<'_>> = None;
        let mut best: Option<ShapeHit> = None;
        // Bodies in the order the shape's box meets theirs, each tree nearest first: a body
        // whose box is met after the best time of impact so far cannot be hit earlier.
        let mut test = |id: u32| {
            if let Some(Some(body)) = self.bodies.get(id as usize) {
                if filter.passes(BodyId(id), body) {
                    // A body whose bounding sphere is met only after the best hit so far
                    // cannot be hit earlier.
                    let bound = best.map_or(1.0, |b| f64::from(b.toi));
                    let found = match route(direct.as_ref(), body, |q, b| {
                        sphere_entry(&q.sphere, motion, b).is_some_and(|t| t <= bound)
                    }) {
                        Route::Miss => None,
                        Route::Direct(q, part) => {
                            narrow::impact(&q.part, motion, &part, Vec3::ZERO)
                        }
                        Route::General => general().and_then(|g| {
                            scratch
                                .get_or_insert_with(|| {
                                    pair::QueryScratch::grown(Placed::now(g), distance)
                                })
                                .cast(motion, Placed::now(body))
                        }),
                    };
                    // Representable hits only (as every sweep's): a contact beyond ±f32::MAX
                    // (a body that large) is no hit.
                    let found = found.filter(|i| i.point.is_finite() && i.normal.is_finite());
                    if let Some(i) = found {
                        if best.is_none_or(|b| i.toi < b.toi || (i.toi == b.toi && id < b.body.0)) {
                            best = Some(ShapeHit {
                                body: BodyId(id),
                                toi: i.toi,
                                point: i.point,
                                normal: -i.normal,
                            });
                        }
                    }
                }
            }
            best.map_or(1.0, |b| b.toi)
        };
        let mut fixed = self.fixed.cast_box_walk(&reach, motion, 1.0);
        let moving = |f: &mut dyn FnMut(ProxyId, f32) -> f32| {
            self.broad.cast_aabb(&reach, motion, 1.0, f);
        };
        self.walk_in_step(&mut fixed, 1.0, moving, &mut |id, _| test(id));
        best
    }

    /// Every body the filter lets through that `shape`, placed at `position` and `rotation`,
    /// touches or overlaps (exact shapes, current poses; touching counts), sorted by id. The
    /// same shape rules as [`World::cast_shape`]: a mesh, heightfield or half-space finds
    /// convex bodies only; a shape the world would refuse finds nothing.
    #[must_use]
    pub fn overlap_shape(
        &self,
        shape: &Geometry,
        position: Vec3,
        rotation: Quat,
        filter: &QueryFilter<'_>,
    ) -> Vec<BodyId> {
        let mut out = Vec::new();
        // One convex part: placed directly, each body's bounding sphere first.
        let direct = body::query_part(shape, position, rotation);
        let general_body = OnceCell::new();
        let general = || {
            general_body
                .get_or_init(|| query_body(shape, position, rotation))
                .as_ref()
        };
        let Some(aabb) = direct
            .as_ref()
            .map(|q| q.aabb)
            .or_else(|| Some(general()?.aabb))
        else {
            return out;
        };
        let mut scratch: Option<pair::QueryScratch<'_>> = None;
        self.candidates(&aabb, filter, &mut |id, body| {
            let touches = match route(direct.as_ref(), body, |q, b| {
                spheres_may_touch(&q.sphere, b) && bounds_may_touch(q, body)
            }) {
                Route::Miss => false,
                Route::Direct(q, part) => narrow::intersects(&q.part, &part),
                Route::General => general().is_some_and(|g| {
                    scratch
                        .get_or_insert_with(|| pair::QueryScratch::new(Placed::now(g)))
                        .touches(Placed::now(body))
                }),
            };
            if touches {
                out.push(BodyId(id));
            }
        });
        out.sort_unstable();
        out
    }

    /// The body (that the filter lets through) closest to `point` within `max_distance`, and
    /// its closest point, or `None`. A point inside a solid body gives that body at distance
    /// 0 with `inside` set (the smallest such id); meshes and heightfields are surfaces (a
    /// point on one is at distance 0, never inside). A NaN point or `max_distance` finds
    /// nothing; `max_distance` may be infinite.
    #[must_use]
    pub fn closest_point(
        &self,
        point: Vec3,
        max_distance: f32,
        filter: &QueryFilter<'_>,
    ) -> Option<WorldPoint> {
        if !(point.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let probe = Part::Sphere(Sphere::new(point, 0.0));
        let mut parts = Vec::new();
        let mut best: Option<WorldPoint> = None;
        self.candidates(&box_around(point, max_distance), filter, &mut |id, body| {
            let bound = best.map_or(max_distance, |b| b.distance);
            // The bound is checked here too: a distance between far coordinates can round to
            // infinity inside a surface's own search (its squared bound overflowed).
            let Some(found) = closest_on_body(&probe, point, body, bound, &mut parts)
                .filter(|f| f.distance <= bound)
            else {
                return;
            };
            if best.is_none_or(|b| {
                found.distance < b.distance || (found.distance == b.distance && id < b.body.0)
            }) {
                best = Some(WorldPoint {
                    body: BodyId(id),
                    ..found
                });
            }
        });
        best
    }

    /// The body (that the filter lets through) nearest to `shape`, placed at `position` and
    /// `rotation`, within `max_distance`, or `None`: distance 0 when they touch or overlap
    /// (the smallest such id), the closest points otherwise (GJK; for meshes and heightfields
    /// over the triangles near the shape). The same shape rules as [`World::cast_shape`].
    #[must_use]
    pub fn shape_distance(
        &self,
        shape: &Geometry,
        position: Vec3,
        rotation: Quat,
        max_distance: f32,
        filter: &QueryFilter<'_>,
    ) -> Option<ShapeDistance> {
        if max_distance.is_nan() || max_distance < 0.0 {
            return None;
        }
        let query = query_body(shape, position, rotation)?;
        let mut query_parts = Vec::new();
        query.parts(query.position, query.rotation, &mut query_parts);
        let reach = query.aabb.expanded(max_distance.min(f32::MAX));
        let mut parts = Vec::new();
        let mut best: Option<ShapeDistance> = None;
        self.candidates(&reach, filter, &mut |id, body| {
            let bound = best.map_or(max_distance, |b| b.distance);
            let found = if query_parts.is_empty() {
                // The query is a surface: the convex body's parts against it, points swapped.
                let Some(surface) = query.surface(query.position, query.rotation) else {
                    return;
                };
                body.parts(body.position, body.rotation, &mut parts);
                nearest_part_pair_surface(&parts, &surface, bound).map(|d| ShapeDistance {
                    point_on_body: d.point_on_shape,
                    point_on_shape: d.point_on_body,
                    ..d
                })
            } else {
                nearest_to_body(&query_parts, body, bound, &mut parts)
            };
            let Some(found) = found else {
                return;
            };
            if found.distance <= bound
                && best.is_none_or(|b| {
                    found.distance < b.distance || (found.distance == b.distance && id < b.body.0)
                })
            {
                best = Some(ShapeDistance {
                    body: BodyId(id),
                    ..found
                });
            }
        });
        best
    }

    /// Every body the filter lets through whose world box (current pose) touches `aabb`,
    /// sorted by id: boxes only (a body's box is larger than its shape; for the shape itself,
    /// [`World::overlap_shape`]). A NaN box touches nothing.
    #[must_use]
    pub fn query_aabb(&self, aabb: &Aabb, filter: &QueryFilter<'_>) -> Vec<BodyId> {
        let mut out = Vec::new();
        self.candidates(aabb, filter, &mut |id, _| out.push(BodyId(id)));
        out.sort_unstable();
        out
    }

    /// A body's geometry, as given when it was added.
    pub fn geometry(&self, id: BodyId) -> Result<&Geometry, WorldError> {
        Ok(&self.body(id)?.geometry)
    }

    /// A body's user value ([`super::BodyDesc::user_value`]).
    pub fn user_value(&self, id: BodyId) -> Result<u64, WorldError> {
        Ok(self.body(id)?.user_value)
    }

    /// Sets a body's user value.
    pub fn set_user_value(&mut self, id: BodyId, value: u64) -> Result<(), WorldError> {
        let body = self
            .bodies
            .get_mut(id.0 as usize)
            .and_then(Option::as_mut)
            .ok_or(WorldError::UnknownBody(id))?;
        body.user_value = value;
        Ok(())
    }

    /// Whether a body is a sensor ([`super::BodyDesc::sensor`]).
    pub fn is_sensor(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.body(id)?.sensor)
    }

    /// Whether a body is fixed ([`super::BodyDesc::fixed`]).
    pub fn is_fixed(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.body(id)?.fixed)
    }
}

/// A query shape placed like a body, or `None` when the world would refuse it.
fn query_body(shape: &Geometry, position: Vec3, rotation: Quat) -> Option<Body> {
    Body::query(shape, position, rotation).ok()
}

fn world_hit(id: u32, hit: RayHit) -> WorldRayHit {
    WorldRayHit {
        body: BodyId(id),
        t: hit.t,
        point: hit.point,
        normal: hit.normal,
    }
}

/// The first hit of a ray on a body within `[0, max_t]`.
fn ray_body(ray: &Ray, body: &Body, max_t: f32, parts: &mut Vec<(Part, Aabb)>) -> Option<RayHit> {
    // A convex body whose bounding sphere the ray misses within the bound: no hit.
    let reach = ray.dir * max_t;
    if !body.is_surface() && reach.is_finite() {
        let sphere = body.bounding_sphere(body.position, body.rotation);
        sphere_entry(&Sphere::new(ray.origin, 0.0), reach, &sphere)?;
    }
    // A hull: its faces read in place (no polyhedron, no reference count taken).
    if let Shape::Hull(hull) = &body.shape {
        return narrow::ray_hull(ray, hull, body.position, body.rotation, max_t);
    }
    if let Some(part) = body.query_single_part() {
        return narrow::ray_part(ray, &part, max_t);
    }
    if let Some(surface) = body.surface(body.position, body.rotation) {
        return surface::ray_surface(ray, &surface, max_t);
    }
    body.parts(body.position, body.rotation, parts);
    let mut best: Option<RayHit> = None;
    for (part, _) in parts.iter() {
        let bound = best.map_or(max_t, |b| b.t);
        if let Some(hit) = narrow::ray_part(ray, part, bound) {
            if best.is_none_or(|b| hit.t < b.t) {
                best = Some(hit);
            }
        }
    }
    best
}

/// The point of a body closest to `point` (the probe: a sphere of radius 0 there) within
/// `bound`; `body` of the result is left for the caller.
fn closest_on_body(
    probe: &Part,
    point: Vec3,
    body: &Body,
    bound: f32,
    parts: &mut Vec<(Part, Aabb)>,
) -> Option<WorldPoint> {
    let unset = BodyId(u32::MAX);
    if let Some(surface) = body.surface(body.position, body.rotation) {
        return surface::closest_on_surface(&surface, point, bound).map(|(p, distance, inside)| {
            WorldPoint {
                body: unset,
                point: p,
                distance,
                inside,
            }
        });
    }
    body.parts(body.position, body.rotation, parts);
    let mut best: Option<WorldPoint> = None;
    for (part, _) in parts.iter() {
        let Some(r) = narrow::distance(probe, part) else {
            continue;
        };
        let found = if r.intersecting {
            WorldPoint {
                body: unset,
                point,
                distance: 0.0,
                inside: true,
            }
        } else {
            WorldPoint {
                body: unset,
                point: r.point_b,
                distance: r.distance,
                inside: false,
            }
        };
        if found.distance <= bound && best.is_none_or(|b| found.distance < b.distance) {
            best = Some(found);
        }
    }
    best
}

/// The nearest of a query's convex parts to a body within `bound`.
fn nearest_to_body(
    query_parts: &[(Part, Aabb)],
    body: &Body,
    bound: f32,
    parts: &mut Vec<(Part, Aabb)>,
) -> Option<ShapeDistance> {
    if let Some(surface) = body.surface(body.position, body.rotation) {
        return nearest_part_pair_surface(query_parts, &surface, bound);
    }
    body.parts(body.position, body.rotation, parts);
    let mut best: Option<ShapeDistance> = None;
    for (q, _) in query_parts {
        for (p, _) in parts.iter() {
            let Some(r) = narrow::distance(q, p) else {
                continue;
            };
            let found = from_gjk(&r, false);
            if found.distance <= bound && best.is_none_or(|b| found.distance < b.distance) {
                best = Some(found);
            }
        }
    }
    best
}

/// The nearest of convex parts (the query) to a surface (the body) within `bound`.
fn nearest_part_pair_surface(
    query_parts: &[(Part, Aabb)],
    surface: &surface::PlacedSurface<'_>,
    bound: f32,
) -> Option<ShapeDistance> {
    let mut best: Option<ShapeDistance> = None;
    for (q, _) in query_parts {
        let bound = best.map_or(bound, |b| b.distance);
        if let Some(r) = surface::distance_to_surface(surface, q, bound) {
            // `r`: A is the surface, B the query part.
            let found = from_gjk(&r, true);
            if best.is_none_or(|b| found.distance < b.distance) {
                best = Some(found);
            }
        }
    }
    best
}

/// A GJK result as a shape distance; `swapped` when GJK's A was the body.
fn from_gjk(r: &gjk::GjkResult, swapped: bool) -> ShapeDistance {
    let (on_shape, on_body) = if swapped {
        (r.point_b, r.point_a)
    } else {
        (r.point_a, r.point_b)
    };
    ShapeDistance {
        body: BodyId(u32::MAX),
        distance: if r.intersecting { 0.0 } else { r.distance },
        point_on_body: on_body,
        point_on_shape: on_shape,
    }
}

/// How a scene query meets one body.
enum Route<'q> {
    /// The bounding spheres rule out any contact.
    Miss,
    /// The query's one part against the body's one part.
    Direct(&'q QueryPart, Part),
    /// Through the query built as a body ([`pair::QueryScratch`]).
    General,
}

/// How the query (`direct`: its one part, when placed directly) meets `body`: a convex body
/// whose bounding sphere `may_touch` rules out is missed; a body of one part meets the part
/// directly; anything else goes the general way.
fn route<'q>(
    direct: Option<&'q QueryPart>,
    body: &Body,
    may_touch: impl FnOnce(&QueryPart, &Sphere) -> bool,
) -> Route<'q> {
    let Some(q) = direct else {
        return Route::General;
    };
    if body.is_surface() {
        return Route::General;
    }
    if !may_touch(q, &body.bounding_sphere(body.position, body.rotation)) {
        return Route::Miss;
    }
    match body.query_single_part() {
        Some(part) => Route::Direct(q, part),
        None => Route::General,
    }
}

/// Relative slack on the bounding-sphere tests: rounding in placing the spheres never rules
/// out a contact the exact test would find.
const SPHERE_SLACK: f64 = 1e-5;

/// Whether two spheres may touch (the sphere test with the radii widened by the slack). A
/// distance that overflows rules out only when the widened reach does not overflow too; NaN
/// never rules out.
fn spheres_may_touch(a: &Sphere, b: &Sphere) -> bool {
    let reach = a.radius + b.radius;
    let scale = reach + a.center.abs().max_element() + b.center.abs().max_element();
    let widened = reach + SPHERE_SLACK as f32 * scale;
    let (d2, w2) = ((b.center - a.center).length_squared(), widened * widened);
    d2 <= w2 || d2.is_nan() || w2.is_nan()
}

/// Whether a query part may touch `body` by the body's bounding box (its rest box at its
/// pose), asked where the exact test would be GJK: a sphere query against a hull, a box query
/// against a capsule or hull. The sphere against the box, or the two boxes by separating
/// axes, the query grown by the slack times the problem's size (GJK's touching tolerance is
/// ten times smaller), so no pair the exact test calls touching is ruled out. Other pairs:
/// `true`.
fn bounds_may_touch(q: &QueryPart, body: &Body) -> bool {
    let by_gjk = matches!(
        (&q.part, &body.shape),
        (Part::Sphere(_), Shape::Hull(_)) | (Part::Cuboid(..), Shape::Capsule(..) | Shape::Hull(_))
    );
    if !by_gjk {
        return true;
    }
    let obb = body.bounding_obb(body.position, body.rotation);
    let size = |center: Vec3, reach: f32| {
        let scale = reach + center.abs().max_element() + obb.center.abs().max_element();
        SPHERE_SLACK as f32 * (scale + obb.half_extents.element_sum())
    };
    match &q.part {
        Part::Sphere(s) => {
            let grown = s.radius + size(s.center, s.radius);
            crate::overlap::sphere_obb(&Sphere::new(s.center, grown), &obb)
        }
        Part::Cuboid(o, _) => {
            let grown = Obb {
                half_extents: o.half_extents + size(o.center, o.half_extents.element_sum()),
                ..*o
            };
            crate::overlap::obb_obb(&grown, &obb)
        }
        _ => true,
    }
}

/// A lower bound on when sphere `a` moving by `motion` (`t` in `[0, 1]`) first touches the
/// still sphere `b`, or `None` when it never does: in f64, the radii widened by the slack.
/// NaN never rules out (gives 0).
fn sphere_entry(a: &Sphere, motion: Vec3, b: &Sphere) -> Option<f64> {
    let (ca, cb, m) = (a.center.as_dvec3(), b.center.as_dvec3(), motion.as_dvec3());
    let f = cb - ca;
    let reach = f64::from(a.radius) + f64::from(b.radius);
    let scale = reach + ca.abs().max_element() + cb.abs().max_element() + m.abs().max_element();
    let widened = reach + SPHERE_SLACK * scale;
    let r2 = widened * widened;
    let ff = f.length_squared();
    if ff <= r2 || ff.is_nan() || r2.is_nan() {
        return Some(0.0);
    }
    // |f − t·m|² = r² at t = (f·m − √((f·m)² − |m|²(|f|² − r²))) / |m|², the first root.
    let (fm, mm) = (f.dot(m), m.length_squared());
    let disc = fm * fm - mm * (ff - r2);
    if !(fm > 0.0 && disc >= 0.0) {
        return (fm.is_nan() || disc.is_nan()).then_some(0.0);
    }
    let t = (fm - disc.sqrt()) / mm;
    // The widening slack also covers the rounding of the root.
    let t = (t * (1.0 - SPHERE_SLACK)).max(0.0);
    (t <= 1.0).then_some(t)
}
