//! A level as collision geometry: a terrain heightfield, a mesh prop and a ground plane as
//! fixed bodies, crates and balls dropped on them, and the ghost-contact check.
//!
//! A 60 x 60 m rolling terrain (`Heightfield`), the open box from `assets/meshes` scaled into a
//! 8 m tray (`MeshCollider`, its bowl kept: a hull would fill it) and a ground plane
//! (`Geometry::HalfSpace`) far below are fixed bodies. Thirty bodies fall onto them for two
//! seconds. The program checks that every contact with the level pushes upward (no ghost
//! normal from the edges between the terrain's triangles while bodies slide), that no body
//! falls through, and that a line of sight down into the tray's bowl reaches its floor.
//!
//! `cargo run -p collide --example level`

use collide::io;
use collide::mesh::{Heightfield, MeshCollider};
use collide::shapes::Ray;
use collide::world::{BodyDesc, BodyId, Geometry, QueryFilter, World};
use collide::{Quat, Vec3};
use std::sync::Arc;

/// Where the tray sits.
const TRAY_AT: Vec3 = Vec3::new(10.0, 3.0, 10.0);

fn main() {
    let mut world = World::default();
    let ground = add_terrain(&mut world);
    let tray = add_tray(&mut world);
    // A ground plane far below everything: nothing should ever reach it.
    let floor = world
        .add_body(
            BodyDesc::new(Geometry::HalfSpace)
                .at(Vec3::new(0.0, -20.0, 0.0))
                .fixed(),
        )
        .expect("the ground plane");
    let falling = drop_bodies(&mut world);
    let (contacts, ghosts) = slide(&mut world, &[ground, tray, floor]);
    let lowest = falling
        .iter()
        .map(|&b| world.pose(b).expect("a live body").0.y)
        .fold(f32::INFINITY, f32::min);
    println!("{contacts} contacts with the level over 120 frames, {ghosts} ghost normals");
    println!("lowest body centre: y = {lowest:.2} (the ground plane is at y = -20)");
    assert!(contacts > 100, "the bodies reached the terrain");
    assert_eq!(ghosts, 0, "no contact normal from an internal edge");
    assert!(lowest > -2.0, "no body fell through the terrain");
    look_into_the_tray(&world, tray);
}

/// Terrain: 61 x 61 samples over 60 x 60 m, gentle waves of +-0.6 m.
fn add_terrain(world: &mut World) -> BodyId {
    let n = 61;
    let heights: Vec<f32> = (0..n * n)
        .map(|i| {
            let (r, c) = ((i / n) as f32, (i % n) as f32);
            0.4 * (c * 0.21).sin() + 0.2 * (r * 0.17).cos()
        })
        .collect();
    let terrain = Heightfield::try_new(heights, n, n, Vec3::new(60.0, 1.0, 60.0))
        .expect("a valid heightfield");
    world
        .add_body(BodyDesc::new(Geometry::Heightfield(Arc::new(terrain))).fixed())
        .expect("the terrain")
}

/// The tray: the open box (a plate with a bowl, open toward +z) turned to open upward.
fn add_tray(world: &mut World) -> BodyId {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/meshes/concave_box.obj"
    );
    let mut mesh = io::load(path).expect("the open box loads").merged();
    mesh.vertices.iter_mut().for_each(|v| *v *= 4.0);
    let tray = MeshCollider::try_new(mesh).expect("a valid mesh");
    world
        .add_body(
            BodyDesc::new(Geometry::Mesh(Arc::new(tray)))
                .at(TRAY_AT)
                .rotated(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))
                .fixed(),
        )
        .expect("the tray")
}

/// Crates and balls sliding sideways as they fall on the terrain.
fn drop_bodies(world: &mut World) -> Vec<BodyId> {
    let mut falling: Vec<BodyId> = Vec::new();
    for k in 0..30 {
        let (x, z) = ((k % 6) as f32 * 7.0 - 18.0, (k / 6) as f32 * 7.0 - 18.0);
        let geometry = if k % 2 == 0 {
            Geometry::Cuboid(Vec3::new(0.5, 0.3, 0.4))
        } else {
            Geometry::Sphere(0.4)
        };
        let body = BodyDesc::new(geometry)
            .at(Vec3::new(x, 2.0, z))
            .moving(Vec3::new(1.5, -4.0, 0.5));
        falling.push(world.add_body(body).expect("a valid body"));
    }
    falling
}

/// Two seconds at 60 Hz; a body touching the `level` stops falling and slides along it. The
/// contacts with the level, and how many of them have a ghost normal.
fn slide(world: &mut World, level: &[BodyId]) -> (usize, usize) {
    let dt = 1.0 / 60.0;
    let (mut contacts, mut ghosts) = (0, 0);
    for _ in 0..120 {
        world.step(dt);
        let resting: Vec<(BodyId, Vec3)> = world
            .contacts()
            .iter()
            .filter(|c| level.contains(&c.a))
            .map(|c| (c.b, c.manifold.normal))
            .collect();
        for &(body, normal) in &resting {
            contacts += 1;
            // The terrain's slopes stay under 15 degrees: any contact normal steeper than
            // 20 degrees would be an edge's ghost.
            if normal.y < 20f32.to_radians().cos() {
                ghosts += 1;
            }
            let (position, rotation) = world.pose(body).expect("a live body");
            world
                .teleport_body(body, position + normal * 0.01, rotation)
                .expect("a finite pose");
            world
                .set_velocity(body, Vec3::new(1.5, 0.0, 0.5), Vec3::ZERO)
                .expect("a finite velocity");
        }
    }
    (contacts, ghosts)
}

/// A line of sight straight down into the tray's bowl reaches its floor, below the rim.
fn look_into_the_tray(world: &World, tray: BodyId) {
    let sight = Ray::new(TRAY_AT + Vec3::Y * 5.0, Vec3::NEG_Y);
    let hit = world
        .cast_ray(&sight, 10.0, &QueryFilter::default())
        .expect("the tray is below");
    println!(
        "a ray down into the tray hits body {} at y = {:.3} (rim at y = {:.3})",
        hit.body.0,
        hit.point.y,
        TRAY_AT.y + 0.4
    );
    assert_eq!(hit.body, tray);
    assert!(hit.point.y < TRAY_AT.y + 0.3, "the bowl is open");
}
