//! A character walking a small level: up a flight of stairs, across a landing into a wall, and
//! up a 30° ramp beside a 60° one it cannot climb.
//!
//! The character is the default `CharacterConfig` (1.8 m tall, radius 0.3 m, 0.3 m steps, 45°
//! slopes), moved at 60 frames a second by `CharacterController::move_and_slide` with its
//! walking velocity plus gravity while it is in the air. The program prints where each leg of
//! the walk ends and asserts what a level designer expects: it climbed the 0.2 m stairs, stopped
//! a skin short of the wall, walked up the 30° ramp and not the 60° one, and stayed grounded.
//!
//! `cargo run -p collide --example character`

use collide::character::{CharacterConfig, CharacterController, CharacterMove};
use collide::convex::ConvexHull;
use collide::world::{BodyDesc, Geometry, QueryFilter, World};
use collide::Vec3;
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = 9.81;

/// A fixed box from `min` to `max`.
fn block(min: Vec3, max: Vec3) -> BodyDesc {
    BodyDesc::new(Geometry::Cuboid((max - min) * 0.5))
        .at((max + min) * 0.5)
        .fixed()
}

/// A fixed wedge rising along +x from the ground at `x0` to `top` at `x1`, across z in [z0, z1].
fn ramp(
    x0: f32,
    x1: f32,
    top: f32,
    z0: f32,
    z1: f32,
) -> Result<BodyDesc, Box<dyn std::error::Error>> {
    let hull = ConvexHull::try_new(&[
        Vec3::new(x0, 0.0, z0),
        Vec3::new(x0, 0.0, z1),
        Vec3::new(x1, 0.0, z0),
        Vec3::new(x1, 0.0, z1),
        Vec3::new(x1, top, z0),
        Vec3::new(x1, top, z1),
    ])?;
    Ok(BodyDesc::new(Geometry::Hull(Arc::new(hull))).fixed())
}

/// The character and where it is.
struct Walker {
    controller: CharacterController,
    position: Vec3,
    fall_speed: f32,
    last: Option<CharacterMove>,
    grounded_frames: usize,
    frames: usize,
}

impl Walker {
    /// Walks at `velocity` (horizontal, m/s) for `seconds`; gravity pulls while it is airborne.
    fn walk(&mut self, world: &World, velocity: Vec3, seconds: f32) -> CharacterMove {
        let filter = QueryFilter::default();
        for _ in 0..(seconds / DT).round() as usize {
            let motion = (velocity - Vec3::Y * self.fall_speed) * DT;
            let step = self
                .controller
                .move_and_slide(world, self.position, motion, &filter);
            self.fall_speed = if step.grounded {
                0.0
            } else {
                self.fall_speed + GRAVITY * DT
            };
            self.position = step.position;
            self.frames += 1;
            self.grounded_frames += usize::from(step.grounded);
            self.last = Some(step);
        }
        self.last.unwrap_or(CharacterMove {
            position: self.position,
            grounded: false,
            ground_normal: None,
        })
    }

    /// Height of the capsule's lowest point.
    fn foot(&self) -> f32 {
        let c = self.controller.config();
        self.position.y - c.half_height - c.radius
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = CharacterConfig::default();
    let mut world = World::default();
    world.add_body(BodyDesc::new(Geometry::HalfSpace).fixed())?;
    // Five 0.2 m stairs, 0.4 m deep, from x = 2 up to a landing at 1 m that ends at a wall.
    for i in 0..5 {
        let x = 2.0 + 0.4 * i as f32;
        let top = 0.2 * (i + 1) as f32;
        world.add_body(block(Vec3::new(x, 0.0, -1.0), Vec3::new(8.0, top, 1.0)))?;
    }
    world.add_body(block(Vec3::new(8.0, 0.0, -1.0), Vec3::new(8.5, 3.0, 1.0)))?;
    // Beside them: a 30° ramp (2 m run) and a 60° ramp (0.75 m run), each to a platform.
    let top30 = 2.0 * 30f32.to_radians().tan();
    let top60 = 0.75 * 60f32.to_radians().tan();
    world.add_body(ramp(2.0, 4.0, top30, 3.0, 5.0)?)?;
    world.add_body(block(Vec3::new(4.0, 0.0, 3.0), Vec3::new(6.0, top30, 5.0)))?;
    world.add_body(ramp(2.0, 2.75, top60, 7.0, 9.0)?)?;
    world.add_body(block(Vec3::new(2.75, 0.0, 7.0), Vec3::new(6.0, top60, 9.0)))?;

    let standing =
        |x: f32, z: f32| Vec3::new(x, config.half_height + config.radius + config.skin, z);
    let new_walker = |start: Vec3| Walker {
        controller: CharacterController::new(config),
        position: start,
        fall_speed: 0.0,
        last: None,
        grounded_frames: 0,
        frames: 0,
    };

    // The stairs, then on along the landing into the wall.
    let mut walker = new_walker(standing(0.0, 0.0));
    walker.walk(&world, Vec3::new(2.0, 0.0, 0.0), 2.5);
    println!(
        "stairs: after 2.5 s at 2 m/s the foot is {:.3} m up at x = {:.2}",
        walker.foot(),
        walker.position.x
    );
    assert!(
        (walker.foot() - 1.0).abs() < 0.03,
        "climbed the five 0.2 m stairs"
    );
    let end = walker.walk(&world, Vec3::new(2.0, 0.0, 0.0), 2.0);
    let gap = 8.0 - config.radius - walker.position.x;
    println!(
        "wall: stopped at x = {:.4}, {:.4} m from the wall (skin {}), grounded {}, ground normal {:?}",
        walker.position.x, gap, config.skin, end.grounded, end.ground_normal
    );
    assert!(
        (gap - config.skin).abs() < 2e-3,
        "stopped a skin short of the wall"
    );
    assert!(end.grounded && end.ground_normal.is_some_and(|n| n.y > 0.999));
    assert_eq!(
        walker.grounded_frames, walker.frames,
        "grounded all the way"
    );

    // The 30° ramp: up to its platform.
    let mut walker = new_walker(standing(0.0, 4.0));
    walker.walk(&world, Vec3::new(2.0, 0.0, 0.0), 2.5);
    println!(
        "30° ramp: the foot is {:.3} m up (the platform is at {top30:.3} m) at x = {:.2}",
        walker.foot(),
        walker.position.x
    );
    assert!(
        (walker.foot() - top30).abs() < 0.03,
        "walked up the 30° ramp"
    );
    assert_eq!(
        walker.grounded_frames, walker.frames,
        "grounded on the ramp"
    );

    // The 60° ramp: a wall to it.
    let mut walker = new_walker(standing(0.0, 8.0));
    let end = walker.walk(&world, Vec3::new(2.0, 0.0, 0.0), 2.5);
    println!(
        "60° ramp: the foot is {:.3} m up at x = {:.3}, grounded {}",
        walker.foot(),
        walker.position.x,
        end.grounded
    );
    assert!(
        walker.foot() < 0.05 && walker.position.x < 2.0,
        "did not climb the 60° ramp"
    );
    assert!(end.grounded);
    Ok(())
}
