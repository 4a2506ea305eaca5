//! The walking character of `collide view`'s walk mode: a capsule driven by the keyboard
//! through the scene, every move made by the library's [`CharacterController`].
//!
//! The scene's bodies, in their current poses, become fixed bodies of a [`World`], over a
//! floor (a half-space at the scene's lowest point, or at y = 0 when that is higher) so that
//! a scene without ground still has something to stand on. The character is no body of that
//! world: its queries see the scene only.
//!
//! Each tick takes a heading (a horizontal direction, at most unit length), whether jump is
//! held, and the time since the last tick. Gravity and the vertical speed live here; the
//! controller moves the capsule and says whether it stands on ground.

use collide::character::{CharacterConfig, CharacterController};
use collide::world::{BodyDesc, BodyId, Geometry, QueryFilter, World};
use collide::{Quat, Vec3};

use crate::scene::Stage;
use crate::CliError;

/// Horizontal walking speed (m/s) at a full-length heading.
pub const WALK_SPEED: f32 = 3.0;
/// Upward speed a jump starts with (m/s): about a metre high under [`GRAVITY`].
pub const JUMP_SPEED: f32 = 4.5;
/// Gravity (m/s², down).
pub const GRAVITY: f32 = 9.81;
/// The longest tick (s): a slower client moves in these steps rather than leaping.
pub const MAX_TICK: f32 = 0.1;
/// The name a tick's hit and touching lists give the floor.
pub const FLOOR_NAME: &str = "(floor)";

/// What the user asks of one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkInput {
    /// The walking direction on the ground, `(x, z)`; longer than 1 counts as 1.
    pub heading: [f32; 2],
    /// Jump (taken when standing on ground and not already rising).
    pub jump: bool,
    /// Seconds since the last tick, clamped to `[0, MAX_TICK]`.
    pub dt: f32,
}

/// What one tick did.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkStep {
    /// The capsule's centre.
    pub position: Vec3,
    /// Vertical speed (m/s, up positive) after the tick.
    pub vertical_speed: f32,
    /// Standing on walkable ground.
    pub grounded: bool,
    /// That ground's normal, when grounded.
    pub ground_normal: Option<Vec3>,
    /// Bodies the tick's motion ran into: those the capsule, moved straight from where the
    /// tick started by the motion asked for, would have met. In world order.
    pub hit: Vec<String>,
    /// Bodies within two skins of the capsule where the tick ended, in world order.
    pub touching: Vec<String>,
}

/// The character and the world it walks in.
pub struct Walker {
    config: CharacterConfig,
    controller: CharacterController,
    world: World,
    /// Names by body id: the scene's bodies, then the floor.
    names: Vec<String>,
    /// The floor's height.
    floor: f32,
    position: Vec3,
    vertical_speed: f32,
    grounded: bool,
}

impl Walker {
    /// A character of the default config standing above the centre of the scene's bounds,
    /// dropped onto whatever is below it there.
    pub fn spawn(stage: &Stage) -> Result<Walker, CliError> {
        let config = CharacterConfig::default();
        let (world, names, floor) = walk_world(stage)?;
        let (centre, top) = spawn_column(stage, floor);
        let mut walker = Walker {
            config,
            controller: CharacterController::new(config),
            world,
            names,
            floor,
            position: Vec3::new(
                centre[0],
                top + config.half_height + config.radius + 1.0,
                centre[1],
            ),
            vertical_speed: 0.0,
            grounded: false,
        };
        walker.drop_to_ground();
        Ok(walker)
    }

    /// The capsule's shape and skin.
    pub fn config(&self) -> CharacterConfig {
        self.config
    }

    /// The floor's height.
    pub fn floor(&self) -> f32 {
        self.floor
    }

    /// Rebuilds the world from the scene's current poses (after a body was moved); the
    /// character stays where it is.
    pub fn rebuild(&mut self, stage: &Stage) -> Result<(), CliError> {
        let (world, names, floor) = walk_world(stage)?;
        self.world = world;
        self.names = names;
        self.floor = floor;
        Ok(())
    }

    /// One tick: walk along the heading, jump if asked and standing, fall under gravity.
    pub fn tick(&mut self, input: WalkInput) -> WalkStep {
        let dt = if input.dt.is_finite() {
            input.dt.clamp(0.0, MAX_TICK)
        } else {
            0.0
        };
        let heading = horizontal(input.heading);

        // Vertical speed: standing on ground there is none (the controller's snap keeps the
        // capsule on the ground going down stairs and slopes); a jump starts from standing;
        // in the air gravity pulls.
        let standing = self.grounded && self.vertical_speed <= 0.0;
        if standing {
            self.vertical_speed = 0.0;
        }
        let jumps = input.jump && standing;
        if jumps {
            self.vertical_speed = JUMP_SPEED;
        }
        if jumps || !standing {
            self.vertical_speed -= GRAVITY * dt;
        }

        let motion = heading * (WALK_SPEED * dt) + Vec3::Y * (self.vertical_speed * dt);
        let start = self.position;
        let hit = self.bodies_in_the_way(start, motion);
        let moved = self.move_capsule(motion);

        // Landing stops the fall; a ceiling stops the rise (the capsule rose under half of
        // what it asked for).
        let rose = moved.position.y - start.y;
        if moved.grounded && self.vertical_speed < 0.0 {
            self.vertical_speed = 0.0;
        }
        if motion.y > 0.0 && rose < 0.5 * motion.y {
            self.vertical_speed = 0.0;
        }
        WalkStep {
            position: moved.position,
            vertical_speed: self.vertical_speed,
            grounded: moved.grounded,
            ground_normal: moved.ground_normal,
            hit,
            touching: self.touching(moved.position),
        }
    }

    /// Falls straight down from the spawn point onto the first thing below it.
    fn drop_to_ground(&mut self) {
        let fall = self.position.y - self.floor + 1.0;
        self.move_capsule(Vec3::new(0.0, -fall, 0.0));
    }

    /// The controller's move, kept as the character's state.
    fn move_capsule(&mut self, motion: Vec3) -> collide::character::CharacterMove {
        let moved = self.controller.move_and_slide(
            &self.world,
            self.position,
            motion,
            &QueryFilter::default(),
        );
        self.position = moved.position;
        self.grounded = moved.grounded;
        moved
    }

    /// The character's capsule, `grow` wider than it is.
    fn capsule(&self, grow: f32) -> Geometry {
        Geometry::Capsule {
            half_height: self.config.half_height,
            radius: self.config.radius + grow,
        }
    }

    /// Every body the capsule meets moving straight by `motion` from `start`: cast, set the
    /// body found aside, cast again, until nothing is met.
    fn bodies_in_the_way(&self, start: Vec3, motion: Vec3) -> Vec<String> {
        let capsule = self.capsule(0.0);
        let mut met: Vec<BodyId> = Vec::new();
        while met.len() < self.names.len() {
            let seen = met.clone();
            let unseen = move |id: BodyId| !seen.contains(&id);
            let filter = QueryFilter::default().with_predicate(&unseen);
            match self
                .world
                .cast_shape(&capsule, start, Quat::IDENTITY, motion, &filter)
            {
                Some(h) => met.push(h.body),
                None => break,
            }
        }
        met.sort_unstable();
        met.into_iter().map(|id| self.name(id)).collect()
    }

    /// Every body within two skins of the capsule at `position`.
    fn touching(&self, position: Vec3) -> Vec<String> {
        self.world
            .overlap_shape(
                &self.capsule(2.0 * self.config.skin),
                position,
                Quat::IDENTITY,
                &QueryFilter::default(),
            )
            .into_iter()
            .map(|id| self.name(id))
            .collect()
    }

    fn name(&self, id: BodyId) -> String {
        self.names
            .get(id.0 as usize)
            .cloned()
            .unwrap_or_else(|| format!("body {}", id.0))
    }
}

/// `(x, z)` as a horizontal vector of length at most 1; zero when not finite.
fn horizontal(heading: [f32; 2]) -> Vec3 {
    let v = Vec3::new(heading[0], 0.0, heading[1]);
    if !v.is_finite() {
        return Vec3::ZERO;
    }
    if v.length_squared() > 1.0 {
        v.normalize_or_zero()
    } else {
        v
    }
}

/// Where the character spawns above: the centre `(x, z)` of the union of the bodies' tight
/// boxes, and that union's top; the origin at the floor when the scene is empty.
fn spawn_column(stage: &Stage, floor: f32) -> ([f32; 2], f32) {
    let boxes = stage.bodies.iter().map(|b| b.volumes().aabb_tight);
    let (lo, hi) = boxes.fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), a| (lo.min(a.min), hi.max(a.max)),
    );
    if lo.is_finite() && hi.is_finite() {
        let centre = (lo + hi) * 0.5;
        ([centre.x, centre.z], hi.y.max(floor))
    } else {
        ([0.0, 0.0], floor)
    }
}

/// The scene's bodies as fixed bodies (body `i` is `BodyId(i)`), then the floor; their names;
/// the floor's height.
fn walk_world(stage: &Stage) -> Result<(World, Vec<String>, f32), CliError> {
    let lowest = stage
        .bodies
        .iter()
        .map(|b| b.volumes().aabb_tight.min.y)
        .filter(|y| y.is_finite())
        .fold(0.0f32, f32::min);
    let mut world = World::default();
    let mut names = Vec::with_capacity(stage.bodies.len() + 1);
    for b in &stage.bodies {
        let desc = BodyDesc::new(b.geometry.clone())
            .at(b.position)
            .rotated(b.rotation)
            .fixed();
        world
            .add_body(desc)
            .map_err(|e| CliError::new(format!("body {:?}: {e}", b.name)))?;
        names.push(b.name.clone());
    }
    world
        .add_body(
            BodyDesc::new(Geometry::HalfSpace)
                .at(Vec3::new(0.0, lowest, 0.0))
                .fixed(),
        )
        .map_err(|e| CliError::new(format!("the floor: {e}")))?;
    names.push(FLOOR_NAME.to_string());
    Ok((world, names, lowest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::view::walk_level;

    const FRAME: f32 = 1.0 / 60.0;

    fn walk(walker: &mut Walker, heading: [f32; 2], ticks: usize) -> Vec<WalkStep> {
        (0..ticks)
            .map(|_| {
                walker.tick(WalkInput {
                    heading,
                    jump: false,
                    dt: FRAME,
                })
            })
            .collect()
    }

    // The character spawns standing on the walk level's ground, a skin above it.
    #[test]
    fn spawns_on_the_ground() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        let c = walker.config();
        let step = walk(&mut walker, [0.0, 0.0], 1).remove(0);
        assert!(step.grounded);
        assert!((step.position.y - (c.half_height + c.radius + c.skin)).abs() < 2e-3);
        assert_eq!(step.ground_normal, Some(Vec3::Y));
        assert_eq!(step.touching, vec!["ground".to_string()]);
        assert!(step.hit.is_empty(), "{:?}", step.hit);
    }

    // Walking along -z climbs the four 0.2 m steps onto the landing, then stops at the wall a
    // skin away, the wall hit every tick.
    #[test]
    fn climbs_the_stair_and_stops_at_the_wall() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        let c = walker.config();
        let start = walk(&mut walker, [0.0, 0.0], 1)[0].position;
        let steps = walk(&mut walker, [0.0, -1.0], 150);
        let on_landing = steps
            .iter()
            .find(|s| s.position.z < -2.6)
            .expect("reaches the landing");
        assert!(on_landing.grounded);
        assert!(
            (on_landing.position.y - start.y - 0.8).abs() < 0.01,
            "{on_landing:?}"
        );
        let at_wall = &steps[steps.len() - 20..];
        let wall_face = -4.6;
        for s in at_wall {
            assert!(s.grounded);
            let gap = (s.position.z - c.radius) - wall_face;
            assert!((gap - c.skin).abs() < 2e-3, "gap {gap}: {s:?}");
            assert_eq!(s.hit, vec!["wall".to_string()]);
            assert!(s.touching.contains(&"wall".to_string()));
        }
    }

    // A scene with no ground of its own (the viewer's built-in scene): the floor under its
    // lowest point holds the character up, walking and falling.
    #[test]
    fn the_floor_holds_a_scene_without_ground() {
        let stage = crate::commands::view::builtin_world().expect("built-in scene");
        let mut walker = Walker::spawn(&stage).expect("walker");
        let steps = walk(&mut walker, [1.0, 0.0], 240);
        assert!(
            steps.iter().all(|s| s.position.y > walker.floor()),
            "fell through"
        );
        let last = steps.last().expect("ticks");
        assert!(last.grounded, "{last:?}");
    }

    // Standing still through long ticks: no fall builds up, nothing is hit, the ground is
    // touched.
    #[test]
    fn standing_hits_nothing() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        for _ in 0..20 {
            let s = walker.tick(WalkInput {
                heading: [0.0, 0.0],
                jump: false,
                dt: MAX_TICK,
            });
            assert!(s.grounded && s.hit.is_empty(), "{s:?}");
            assert_eq!(s.vertical_speed, 0.0);
            assert_eq!(s.touching, vec!["ground".to_string()]);
        }
    }

    // Walking back down the stair (along +z from the landing) the capsule follows each step
    // down, grounded every tick, and ends on the ground again.
    #[test]
    fn walks_down_the_stair_grounded() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        let ground = walk(&mut walker, [0.0, 0.0], 1)[0].position.y;
        walk(&mut walker, [0.0, -1.0], 70);
        let down = walk(&mut walker, [0.0, 1.0], 70);
        assert!(down.iter().all(|s| s.grounded), "{down:?}");
        let last = down.last().expect("ticks");
        assert!(
            last.position.z > -0.7 && (last.position.y - ground).abs() < 2e-3,
            "{last:?}"
        );
    }

    // A jump leaves the ground, rises about a metre and lands again.
    #[test]
    fn jumps_and_lands() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        let ground = walk(&mut walker, [0.0, 0.0], 1)[0].position.y;
        let up = walker.tick(WalkInput {
            heading: [0.0, 0.0],
            jump: true,
            dt: FRAME,
        });
        assert!(up.vertical_speed > 0.0);
        let flight = walk(&mut walker, [0.0, 0.0], 120);
        let top = flight.iter().map(|s| s.position.y).fold(ground, f32::max);
        let apex = JUMP_SPEED * JUMP_SPEED / (2.0 * GRAVITY);
        assert!((top - ground - apex).abs() < 0.1, "rose {}", top - ground);
        let last = flight.last().expect("ticks");
        assert!(last.grounded && (last.position.y - ground).abs() < 2e-3);
        assert_eq!(last.vertical_speed, 0.0);
    }

    // Bad input does not move the character: no time, or a heading of NaN.
    #[test]
    fn bad_input_stands_still() {
        let mut walker = Walker::spawn(&walk_level().expect("level")).expect("walker");
        let before = walk(&mut walker, [0.0, 0.0], 1)[0].position;
        for input in [
            WalkInput {
                heading: [f32::NAN, 1.0],
                jump: false,
                dt: FRAME,
            },
            WalkInput {
                heading: [1.0, 0.0],
                jump: false,
                dt: f32::NAN,
            },
            WalkInput {
                heading: [1.0, 0.0],
                jump: false,
                dt: -1.0,
            },
        ] {
            let after = walker.tick(input).position;
            assert!((after - before).length() < 1e-4, "{input:?}: {after}");
        }
    }
}
