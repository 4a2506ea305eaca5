//! Fast small spheres against thin walls through `World`: no tunnelling.
//!
//! 49 bullets (radius 1 to 5 cm, 300 to 900 m/s) fly along +x through two walls 2 cm thick.
//! At 60 Hz a bullet moves 5 to 15 m per frame, hundreds of times a wall's thickness, so a test
//! at the end of each frame almost never finds one inside a wall. The world sweeps every fast
//! body over its frame; this program checks that each bullet is reported against each wall in
//! the frame it enters that wall, at the right time of impact (and, by the sweeps'
//! starting-touch rule, in the next frame only if it starts that frame still pressing in), and
//! that bullets passing beside the walls are never reported.
//!
//! `cargo run -p collide --example bullets`

use collide::overlap;
use collide::shapes::{Aabb, Sphere};
use collide::world::{BodyDesc, BodyId, Geometry, World};
use collide::Vec3;

const DT: f32 = 1.0 / 60.0;
const FRAMES: usize = 8;
/// Half the walls' thickness.
const HALF_THICKNESS: f32 = 0.01;
/// The walls' half-size in y and z.
const HALF_SPAN: f32 = 1.0;

/// The walls' centres on x.
const WALL_X: [f32; 2] = [0.0, 4.0];

struct Bullet {
    id: BodyId,
    start: Vec3,
    speed: f32,
    radius: f32,
}

/// A bullet reported (or expected) against a wall: frame, bullet, wall, time of impact as a
/// fraction of the frame.
type Crossing = (usize, usize, usize, f32);

fn main() {
    let mut world = World::default();
    let walls = add_walls(&mut world);
    let bullets = add_bullets(&mut world);
    let (mut reported, end_of_frame_hits) = run_frames(&mut world, &walls, &bullets);
    let mut expected = expected_crossings(&bullets);
    reported.sort_by_key(|r| (r.0, r.1, r.2));
    expected.sort_by_key(|e| (e.0, e.1, e.2));
    let in_lanes = bullets.iter().filter(|b| in_lane(b)).count();
    println!(
        "{} bullets ({in_lanes} aimed at the walls), {} walls {} cm thick, {FRAMES} frames at 60 Hz",
        bullets.len(),
        walls.len(),
        2.0 * HALF_THICKNESS * 100.0
    );
    println!("moved per frame: {:.1} to {:.1} m", 300.0 * DT, 900.0 * DT);
    println!(
        "swept contacts reported: {} (expected {}); an end-of-frame overlap test sees {}",
        reported.len(),
        expected.len(),
        end_of_frame_hits
    );
    let worst = reported
        .iter()
        .zip(&expected)
        .map(|(r, e)| (r.3 - e.3).abs())
        .fold(0.0_f32, f32::max);
    println!("largest time-of-impact error: {worst:.2e} of a frame");
    check(&reported, &expected, in_lanes, worst, end_of_frame_hits);
    println!("no tunnelling: every bullet aimed at a wall was caught by it");
}

/// The two walls, 2 cm thick, across x.
fn add_walls(world: &mut World) -> Vec<BodyId> {
    WALL_X
        .iter()
        .map(|&x| {
            let slab = Geometry::Cuboid(Vec3::new(HALF_THICKNESS, HALF_SPAN, HALF_SPAN));
            world
                .add_body(BodyDesc::new(slab).at(Vec3::new(x, 0.0, 0.0)))
                .expect("a valid wall")
        })
        .collect()
}

/// A 7 × 7 grid of lanes in (y, z); the outer lanes (|y| or |z| = 1.2) pass beside the walls.
fn add_bullets(world: &mut World) -> Vec<Bullet> {
    let lanes = [-1.2_f32, -0.9, -0.5, 0.0, 0.5, 0.9, 1.2];
    let mut bullets = Vec::new();
    for (i, &y) in lanes.iter().enumerate() {
        for (j, &z) in lanes.iter().enumerate() {
            let k = i * lanes.len() + j;
            let speed = 300.0 + 150.0 * (k % 5) as f32;
            let radius = 0.01 + 0.01 * (k % 5) as f32;
            // Staggered starts, so the bullets cross the walls at different moments of a frame.
            let start = Vec3::new(-10.0 - 0.37 * (k % 11) as f32, y, z);
            let desc = BodyDesc::new(Geometry::Sphere(radius))
                .at(start)
                .moving(Vec3::new(speed, 0.0, 0.0));
            let id = world.add_body(desc).expect("a valid bullet");
            bullets.push(Bullet {
                id,
                start,
                speed,
                radius,
            });
        }
    }
    bullets
}

/// `true` for a bullet aimed at the walls.
fn in_lane(b: &Bullet) -> bool {
    b.start.y.abs() <= HALF_SPAN && b.start.z.abs() <= HALF_SPAN
}

/// Steps the world: the reported (bullet, wall) contacts per frame, and how many bullets an
/// end-of-frame test would see inside a wall.
fn run_frames(world: &mut World, walls: &[BodyId], bullets: &[Bullet]) -> (Vec<Crossing>, usize) {
    let mut reported: Vec<Crossing> = Vec::new();
    let mut end_of_frame_hits = 0;
    for frame in 0..FRAMES {
        world.step(DT);
        for c in world.contacts() {
            let wall = walls.iter().position(|&w| w == c.a || w == c.b);
            let bullet = bullets.iter().position(|b| b.id == c.a || b.id == c.b);
            if let (Some(w), Some(b)) = (wall, bullet) {
                reported.push((frame, b, w, c.toi.unwrap_or(1.0)));
            }
        }
        for b in bullets {
            let (center, _) = world.pose(b.id).expect("a live bullet");
            for &x in &WALL_X {
                let slab = Aabb::from_center_half_extents(
                    Vec3::new(x, 0.0, 0.0),
                    Vec3::new(HALF_THICKNESS, HALF_SPAN, HALF_SPAN),
                );
                end_of_frame_hits +=
                    usize::from(overlap::sphere_aabb(&Sphere::new(center, b.radius), &slab));
            }
        }
    }
    (reported, end_of_frame_hits)
}

/// Expected, from the straight-line motion: bullet b overlaps wall w's slab (grown by the
/// radius) for t in [t_in, t_out]; frame k covers [k·DT, (k+1)·DT]. A frame in which the
/// overlap starts reports it at its start. A frame that starts with the bullet already in the
/// wall follows the sweeps' starting-touch rule: the bullet still short of the wall's middle
/// is moving deeper (along the least-penetration normal, toward the wall's near face) and hits
/// at 0; one past the middle is leaving and is not reported.
fn expected_crossings(bullets: &[Bullet]) -> Vec<Crossing> {
    let mut expected: Vec<Crossing> = Vec::new();
    for (bi, b) in bullets.iter().enumerate() {
        if !in_lane(b) {
            continue;
        }
        for (wi, &x) in WALL_X.iter().enumerate() {
            let t_in = (x - HALF_THICKNESS - b.radius - b.start.x) / b.speed;
            let t_out = (x + HALF_THICKNESS + b.radius - b.start.x) / b.speed;
            for k in 0..FRAMES {
                let (f0, f1) = (k as f32 * DT, (k + 1) as f32 * DT);
                let enters = t_in >= f0 && t_in <= f1;
                let centre_at_start = b.start.x + b.speed * f0;
                let pressing_in = t_in < f0 && t_out > f0 && centre_at_start < x;
                if enters {
                    expected.push((k, bi, wi, (t_in - f0) / DT));
                } else if pressing_in {
                    expected.push((k, bi, wi, 0.0));
                }
            }
        }
    }
    expected
}

/// The key fact: every crossing is reported, in its frame, at its time; nothing else is.
fn check(
    reported: &[Crossing],
    expected: &[Crossing],
    in_lanes: usize,
    worst: f32,
    end_of_frame_hits: usize,
) {
    assert_eq!(
        reported.iter().map(|r| (r.0, r.1, r.2)).collect::<Vec<_>>(),
        expected.iter().map(|e| (e.0, e.1, e.2)).collect::<Vec<_>>(),
        "reported (frame, bullet, wall) differ from the crossings"
    );
    let mut crossed: Vec<(usize, usize)> = expected.iter().map(|e| (e.1, e.2)).collect();
    crossed.dedup();
    crossed.sort_unstable();
    crossed.dedup();
    assert_eq!(
        crossed.len(),
        2 * in_lanes,
        "each aimed bullet crosses both walls"
    );
    assert!(worst < 1e-3, "time of impact off by {worst}");
    assert!(
        end_of_frame_hits < expected.len() / 4,
        "the scene should defeat an end-of-frame test"
    );
}
