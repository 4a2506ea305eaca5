//! A kinematic character: an upright capsule that moves and slides through the world on its
//! scene queries ([`World::cast_shape`], [`World::shape_distance`]).
//!
//! [`CharacterController::move_and_slide`] takes where the capsule's centre is and how far it
//! wants to go this frame (gravity included: the controller adds nothing), and returns where it
//! ends, whether it stands on walkable ground, and that ground's normal:
//!
//! 1. **Depenetrate.** A capsule that starts overlapping a body is pushed out along the
//!    direction between its core and the body's nearest point until it is `skin` clear.
//! 2. **Collide and slide.** Cast the capsule along what is left of the motion; stop `skin`
//!    short of the first hit (measured along the hit's normal); remove the motion's component
//!    into the hit plane and repeat. Two planes leave their crease, three stop the capsule.
//!    A slope steeper than `max_slope` is a wall for any motion that would slide up it.
//! 3. **Step.** A grounded capsule blocked by a wall tries to climb it: up by `step_height`,
//!    forward, down; it keeps the step only when it lands higher, on walkable ground.
//! 4. **Snap and probe the ground.** A capsule grounded at the start that is not moving up is
//!    pulled down onto walkable ground within `snap_distance` (walking down stairs and
//!    slopes); then a short cast down says whether it stands on walkable ground.
//!
//! The casts move the capsule grown by half the skin and stop it half a skin short of what
//! they hit: the character rests a skin away from what it touches and never comes closer than
//! half a skin to anything on its way (unless it started closer), so every cast starts clear
//! of the surfaces it slides along. Casts have no length limit: a fast character stops at the
//! first thing in its way, whatever its speed.
//!
//! ```
//! use collide::character::{CharacterConfig, CharacterController};
//! use collide::world::{BodyDesc, Geometry, QueryFilter, World};
//! use collide::Vec3;
//!
//! let mut world = World::default();
//! world.add_body(BodyDesc::new(Geometry::HalfSpace).fixed())?;
//! // A wall whose near face is at x = 2.
//! world.add_body(BodyDesc::new(Geometry::Cuboid(Vec3::new(0.5, 2.0, 5.0)))
//!     .at(Vec3::new(2.5, 2.0, 0.0)).fixed())?;
//!
//! let config = CharacterConfig::default();
//! let mut controller = CharacterController::new(config);
//! // Centre 0.9 m up: the 1.8 m capsule stands on the ground (a skin above it).
//! let mut position = Vec3::new(0.0, 0.9 + config.skin, 0.0);
//! for _ in 0..60 {
//!     // 3 m/s toward the wall, at 60 frames a second.
//!     let step = controller.move_and_slide(&world, position, Vec3::new(0.05, 0.0, 0.0),
//!                                          &QueryFilter::default());
//!     assert!(step.grounded);
//!     position = step.position;
//! }
//! // Stopped at the wall, a skin away from it.
//! assert!((position.x - (2.0 - config.radius - config.skin)).abs() < 1e-3);
//! # Ok::<(), collide::world::WorldError>(())
//! ```

mod planes;

use crate::math::{Quat, Vec3};
use crate::world::{Geometry, QueryFilter, ShapeHit, World};
use planes::Planes;

/// Casts per move along the motion (each hit costs one; a step does not count).
const MAX_SLIDES: usize = 5;

/// Pushes per move out of initial overlap (each resolves the nearest body).
const MAX_PUSHES: usize = 4;

/// The most pieces a move is cut into (see `move_and_slide`).
const MAX_PIECES: usize = 64;

/// Motions shorter than this (metres) are not cast: nothing is left to do.
const MIN_MOTION: f32 = 1e-6;

/// The shape and limits of a character: an upright capsule, and what it may walk on.
///
/// Lengths in metres (world units), `max_slope` in radians. [`CharacterController::new`]
/// takes the config as given, with these readings of bad values: a `radius` that is not
/// finite and positive, or a `half_height` that is not finite and non-negative, makes every
/// move return its input unchanged, ungrounded; `skin` is clamped to `[0, radius / 2]`,
/// `max_slope` to `[0, π/2]`, `step_height` and `snap_distance` to `>= 0`; NaN or infinite
/// values among these four read as 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterConfig {
    /// Radius of the capsule (metres).
    pub radius: f32,
    /// Half the length of the capsule's axis segment, which runs along world y (metres): the
    /// capsule is `2 (half_height + radius)` tall.
    pub half_height: f32,
    /// The gap the controller keeps between the capsule and what it touches (metres): a
    /// resting capsule hovers this far above the ground, and a capsule that ends a move
    /// overlaps nothing by more than this.
    pub skin: f32,
    /// The steepest walkable slope (radians from horizontal): the character stands on and
    /// walks up ground whose normal is within this angle of +y; steeper ground is a wall to it.
    pub max_slope: f32,
    /// The highest ledge the character climbs onto by walking into it (metres).
    pub step_height: f32,
    /// How far down the character follows the ground when it walks off a ledge or down a slope
    /// (metres), when it was grounded and is not moving up.
    pub snap_distance: f32,
}

impl Default for CharacterConfig {
    /// A 1.8 m tall character of radius 0.3 m (`half_height` 0.6), with a 2 cm skin, 45°
    /// walkable slopes, 0.3 m steps and 0.2 m ground snapping.
    fn default() -> Self {
        CharacterConfig {
            radius: 0.3,
            half_height: 0.6,
            skin: 0.02,
            max_slope: std::f32::consts::FRAC_PI_4,
            step_height: 0.3,
            snap_distance: 0.2,
        }
    }
}

/// What one [`CharacterController::move_and_slide`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterMove {
    /// Where the capsule's centre ends. The capsule there overlaps nothing by more than
    /// `skin`, unless it started deeper in a body than it could be pushed out of (see
    /// [`CharacterController::move_and_slide`]).
    pub position: Vec3,
    /// Whether the capsule ends standing on walkable ground: a cast down from its end meets,
    /// within `1.5 skin + skin / cos max_slope` (cos held at 0.25 or more), ground whose contact
    /// normal is within `max_slope` of +y. The capsule hanging on an edge meets it with a
    /// steeper normal: not grounded.
    pub grounded: bool,
    /// The contact normal of that ground (unit, pointing up out of it) when `grounded`;
    /// `None` otherwise.
    pub ground_normal: Option<Vec3>,
}

/// A kinematic character controller: moves an upright capsule through a [`World`], sliding
/// along what it hits, climbing steps, refusing steep slopes and following the ground down.
///
/// It holds the capsule's config and whether the last move ended grounded (to snap the next
/// one); no per-move allocation of its own.
#[derive(Clone, Debug)]
pub struct CharacterController {
    config: CharacterConfig,
    /// The capsule the casts move: the character's grown by half the skin, so that every
    /// position a cast lets it reach keeps the character half a skin clear of everything.
    /// `None` when the config's radius or half-height is unusable.
    capsule: Option<Geometry>,
    /// Half the skin: the gap the grown capsule keeps from what stops it, measured along the
    /// hit normal (the character itself is then a whole skin clear).
    half_skin: f32,
    /// cos(max_slope): ground whose normal has at least this y is walkable.
    min_ground_y: f32,
    /// The last move's end and whether it was grounded there.
    last: Option<(Vec3, bool)>,
    planes: Planes,
}

/// A hit kept with the direction and length of the motion that found it.
#[derive(Clone, Copy, Debug)]
struct Cast {
    hit: ShapeHit,
    /// Unit direction of the motion.
    dir: Vec3,
    /// Length of the motion.
    len: f32,
}

impl Cast {
    /// Distance travelled to the hit.
    fn distance(&self) -> f32 {
        self.hit.toi * self.len
    }

    /// How far to travel along the motion to stop `gap` short of the hit, measured along its
    /// normal, never negative.
    ///
    /// At the hit, the contact plane (normal `n`, toward the capsule) separates the capsule
    /// from the body; backing off by `s` along `-dir` moves the capsule `s cos` away from that
    /// plane, `cos = -dir · n`. A gap `gap` needs `s = gap / cos`. A grazing hit
    /// (`cos` near 0) gives no advance: the slide then goes along the plane.
    fn advance(&self, gap: f32) -> f32 {
        let cos = -self.dir.dot(self.hit.normal);
        let back = if cos > 1e-6 { gap / cos } else { f32::INFINITY };
        (self.distance() - back).max(0.0)
    }
}

impl CharacterController {
    /// A controller for a capsule of this config (see [`CharacterConfig`] for how bad values
    /// read). It starts ungrounded.
    #[must_use]
    pub fn new(config: CharacterConfig) -> CharacterController {
        let usable = config.radius.is_finite()
            && config.radius > 0.0
            && config.half_height.is_finite()
            && config.half_height >= 0.0;
        let non_negative = |v: f32| if v.is_finite() { v.max(0.0) } else { 0.0 };
        let config = CharacterConfig {
            skin: non_negative(config.skin).min(config.radius * 0.5),
            max_slope: non_negative(config.max_slope).min(std::f32::consts::FRAC_PI_2),
            step_height: non_negative(config.step_height),
            snap_distance: non_negative(config.snap_distance),
            ..config
        };
        CharacterController {
            config,
            capsule: usable.then_some(Geometry::Capsule {
                half_height: config.half_height,
                radius: config.radius + config.skin * 0.5,
            }),
            half_skin: config.skin * 0.5,
            min_ground_y: config.max_slope.cos(),
            last: None,
            planes: Planes::default(),
        }
    }

    /// The config, with bad values read as [`CharacterConfig`] says.
    #[must_use]
    pub fn config(&self) -> CharacterConfig {
        self.config
    }

    /// Whether ground with this unit contact normal is walkable (within `max_slope` of +y).
    #[must_use]
    pub fn is_walkable(&self, normal: Vec3) -> bool {
        normal.y >= self.min_ground_y - 1e-5
    }

    /// Moves the capsule whose centre is at `position` by `motion`, sliding along whatever the
    /// filter lets it see, and returns where it ends.
    ///
    /// - **Touching**: the capsule resting on a surface (a skin above it) slides along it; it
    ///   stops a skin short of what it moves into, and never ends closer than half a skin to
    ///   anything unless it started closer.
    /// - **Initial overlap**: a capsule overlapping a body is first pushed out along the line
    ///   from the body's nearest point to the capsule's core (the capsule at half its radius),
    ///   `skin` clear, one nearest body at a time, four times at most. A core that itself
    ///   overlaps a solid body gives no direction: the capsule then moves as asked, and casts
    ///   let it leave the body but not go deeper.
    /// - **Degenerate input**: a NaN or infinite `position` or `motion`, or an unusable config
    ///   ([`CharacterConfig`]), returns `position` unchanged with `grounded` false and no
    ///   ground normal, and forgets the grounded state. A zero motion still depenetrates,
    ///   snaps and probes the ground.
    ///
    /// Grounded at the start (for snapping) is the last move's result when `position` is the
    /// position it returned, and a probe below `position` otherwise. A move longer than
    /// `radius` goes in equal pieces of at most `radius` (at most 64 pieces), each starting
    /// again from the motion's direction and, on the ground, snapped to it: the ground steers
    /// even a long dash, and sliding up a slope never carries the capsule higher than a piece
    /// past the slope's end.
    pub fn move_and_slide(
        &mut self,
        world: &World,
        position: Vec3,
        motion: Vec3,
        filter: &QueryFilter<'_>,
    ) -> CharacterMove {
        let unmoved = CharacterMove {
            position,
            grounded: false,
            ground_normal: None,
        };
        if self.capsule.is_none() || !position.is_finite() || !motion.is_finite() {
            self.last = None;
            return unmoved;
        }
        let start = self.depenetrate(world, position, filter);
        let grounded_at_start = match self.last {
            Some((end, grounded)) if end == position => grounded,
            _ => self
                .below(world, start, 0.0, filter)
                .is_some_and(|c| self.is_walkable(c.hit.normal)),
        };
        // A move goes in pieces of at most a radius (more for very long moves), each starting
        // again from the motion's direction and each on the ground followed by snapping, so the
        // ground's shape steers it: a long dash up a ramp rises with the ramp and stays on its
        // platform instead of carrying on along the ramp's line into the air.
        let pieces = (motion.length() / self.config.radius)
            .ceil()
            .clamp(1.0, MAX_PIECES as f32) as usize;
        let piece = motion / pieces as f32;
        let mut position = start;
        let mut grounded = grounded_at_start;
        let mut ground = None;
        for _ in 0..pieces {
            let slid = self.slide(world, position, piece, grounded, filter);
            // Snapping: a grounded capsule not moving up follows the ground down.
            (position, ground) = if grounded && piece.y <= 0.0 {
                self.snap(world, slid, filter)
            } else {
                let below = self.below(world, slid, 0.0, filter);
                (slid, below.filter(|c| self.is_walkable(c.hit.normal)))
            };
            grounded = ground.is_some();
        }
        let end = position;
        let ground_normal = ground.map(|c| c.hit.normal);
        self.last = Some((end, ground.is_some()));
        CharacterMove {
            position: end,
            grounded: ground.is_some(),
            ground_normal,
        }
    }

    /// The capsule cast from `from` along `motion`, or `None` when nothing is hit (or the
    /// motion is too short to cast).
    fn sweep(
        &self,
        world: &World,
        from: Vec3,
        motion: Vec3,
        filter: &QueryFilter<'_>,
    ) -> Option<Cast> {
        let capsule = self.capsule.as_ref()?;
        let len = motion.length();
        if len.is_nan() || len <= MIN_MOTION {
            return None;
        }
        let hit = world.cast_shape(capsule, from, Quat::IDENTITY, motion, filter)?;
        Some(Cast {
            hit,
            dir: motion / len,
            len,
        })
    }

    /// What stops the grown capsule moving from `from` by `motion` half a skin short of it
    /// (the character a skin short), or `None` when the whole motion keeps that clear of what
    /// is ahead. The cast reaches half a skin beyond the motion, so a motion ending just short
    /// of a wall stops a skin away from it; [`Cast::advance`] of the result is less than the
    /// motion's length.
    fn cast(
        &self,
        world: &World,
        from: Vec3,
        motion: Vec3,
        filter: &QueryFilter<'_>,
    ) -> Option<Cast> {
        let wanted = motion.length();
        if wanted.is_nan() || wanted <= MIN_MOTION {
            return None;
        }
        let margin = self.half_skin;
        let cast = self.sweep(world, from, motion * ((wanted + margin) / wanted), filter)?;
        (cast.advance(margin) < wanted).then_some(cast)
    }

    /// Pushes a capsule that overlaps bodies out of them, `skin` clear, nearest first.
    ///
    /// The core (the capsule at half its radius, `inner = radius / 2` thinner) at distance `d`
    /// from a body means the capsule overlaps it by `inner - d`; moving by `t` along the unit
    /// direction from the body's nearest point to the core's moves the core at least `t`
    /// further from it (that direction's plane through the body's point separates them), so
    /// `t = inner + skin - d` leaves a `skin` gap.
    fn depenetrate(&self, world: &World, position: Vec3, filter: &QueryFilter<'_>) -> Vec3 {
        let CharacterConfig {
            radius,
            half_height,
            skin,
            ..
        } = self.config;
        let inner = radius * 0.5;
        let core = Geometry::Capsule {
            half_height,
            radius: radius - inner,
        };
        let mut position = position;
        for _ in 0..MAX_PUSHES {
            let Some(near) = world.shape_distance(&core, position, Quat::IDENTITY, inner, filter)
            else {
                break;
            };
            // Touching (d = inner) is not an overlap; a core touching or inside (d = 0) gives
            // no direction.
            if !(near.distance > 0.0 && near.distance < inner) {
                break;
            }
            let out = (near.point_on_shape - near.point_on_body) / near.distance;
            position += out * (inner + skin - near.distance);
        }
        position
    }

    /// Collide-and-slide along `motion` from `position`, climbing steps when `grounded`.
    fn slide(
        &mut self,
        world: &World,
        position: Vec3,
        motion: Vec3,
        grounded: bool,
        filter: &QueryFilter<'_>,
    ) -> Vec3 {
        let mut position = position;
        let mut remaining = motion;
        let mut stepped = false;
        self.planes.clear();
        for _ in 0..MAX_SLIDES {
            let Some(cast) = self.cast(world, position, remaining, filter) else {
                // Nothing in the way (or nothing left to do): go the whole way.
                if remaining.length() > MIN_MOTION {
                    position += remaining;
                }
                return position;
            };
            let advance = cast.advance(self.half_skin);
            position += cast.dir * advance;
            let left = remaining - cast.dir * advance;
            let forward = Vec3::new(left.x, 0.0, left.z);
            if grounded
                && !stepped
                && !self.is_walkable(cast.hit.normal)
                && forward.length() > MIN_MOTION
            {
                stepped = true;
                if let Some(on_step) = self.step(world, position, forward, filter) {
                    return on_step;
                }
            }
            let normal = self.slide_normal(cast.hit.normal, left);
            remaining = self.planes.clip(normal, left);
        }
        position
    }

    /// The plane normal to slide along after a hit with contact normal `normal`, the motion
    /// `left` still to do: the contact normal, except on a slope too steep to walk, which
    /// slides the character up when the motion presses into it; there the normal is turned
    /// horizontal (a wall), so the slide keeps the motion's height change and stays off the
    /// slope. A downhill or falling motion keeps the true normal and slides down the slope.
    fn slide_normal(&self, normal: Vec3, left: Vec3) -> Vec3 {
        let steep = normal.y > 0.0 && !self.is_walkable(normal);
        if steep && planes::slide(left, normal).y > 0.0 {
            Vec3::new(normal.x, 0.0, normal.z).normalize_or(normal)
        } else {
            normal
        }
    }

    /// Climbs a step in the way of the horizontal motion `forward`: up by `step_height`, then
    /// forward, then down. The end, standing on the step, or `None` when the capsule cannot
    /// rise, lands no higher than it started, or lands on ground too steep to walk.
    ///
    /// The forward leg goes at least `radius (1 - sin max_slope) + 2 skin`: a capsule against a
    /// ledge has its edge up to `radius` ahead of its axis (horizontally), and stands on it only
    /// once the edge is within `radius sin max_slope` of the axis (the contact normal, from the
    /// edge to the lower sphere's centre, is then walkable). A step may therefore carry the
    /// character a little further than `forward`.
    fn step(
        &self,
        world: &World,
        position: Vec3,
        forward: Vec3,
        filter: &QueryFilter<'_>,
    ) -> Option<Vec3> {
        let CharacterConfig {
            radius,
            skin,
            max_slope,
            step_height,
            ..
        } = self.config;
        let up = Vec3::Y * step_height;
        let rise = self
            .cast(world, position, up, filter)
            .map_or(step_height, |c| c.advance(self.half_skin));
        if rise <= skin {
            return None;
        }
        let raised = position + Vec3::Y * rise;
        let min_forward = radius * (1.0 - max_slope.sin()) + 2.0 * skin;
        let ahead = forward.normalize_or_zero() * forward.length().max(min_forward);
        let over = match self.cast(world, raised, ahead, filter) {
            Some(c) => raised + c.dir * c.advance(self.half_skin),
            None => raised + ahead,
        };
        let landing = self.cast(world, over, -Vec3::Y * rise, filter)?;
        let end = over - Vec3::Y * landing.advance(self.half_skin);
        let climbed = end.y - position.y > skin;
        (climbed && self.is_walkable(landing.hit.normal)).then_some(end)
    }

    /// What the grown capsule meets below `position` within `reach` plus the probe depth, or
    /// `None`. Resting on the steepest walkable slope it hovers `(skin / 2) / cos max_slope`
    /// above it (vertically); the depth `skin + skin / cos max_slope` (cos held at 0.25 or
    /// more) covers that twice over.
    fn below(
        &self,
        world: &World,
        position: Vec3,
        reach: f32,
        filter: &QueryFilter<'_>,
    ) -> Option<Cast> {
        let skin = self.config.skin;
        let depth = skin + skin / self.min_ground_y.max(0.25);
        self.sweep(world, position, Vec3::NEG_Y * (reach + depth), filter)
    }

    /// Follows the ground down from `position` by up to `snap_distance`: the end, `skin` above
    /// walkable ground, and that ground; or `position` and `None` when there is no walkable
    /// ground within reach.
    ///
    /// A capsule hanging on an edge (or over a steep slope) meets it with a steep contact
    /// normal; it slides down along it as gravity would (which may also move it sideways, by
    /// less than `snap_distance`) and keeps that move only when it ends on walkable ground:
    /// walking down stairs, the lower step.
    fn snap(
        &mut self,
        world: &World,
        position: Vec3,
        filter: &QueryFilter<'_>,
    ) -> (Vec3, Option<Cast>) {
        let snap_distance = self.config.snap_distance;
        match self.below(world, position, snap_distance, filter) {
            None => (position, None),
            Some(c) if self.is_walkable(c.hit.normal) => {
                (position - Vec3::Y * c.advance(self.half_skin), Some(c))
            }
            Some(_) => {
                let slid = self.slide(world, position, Vec3::NEG_Y * snap_distance, false, filter);
                match self.below(world, slid, 0.0, filter) {
                    Some(c) if self.is_walkable(c.hit.normal) => {
                        (slid - Vec3::Y * c.advance(self.half_skin), Some(c))
                    }
                    _ => (position, None),
                }
            }
        }
    }
}
