//! A running world allocates nothing per frame: once its lists (the world's, and each thread's
//! scratch lists of the narrow phase, SAT, EPA and contact clipping) have grown to the scene's
//! size, `World::step` (bounds, broad phase, narrow phase, caches, contacts, events) reuses
//! them. A list still grows when a frame outdoes every earlier one (more pairs, a larger
//! face to clip): the warm-up runs long enough for this scene's peaks.
//!
//! The test binary's allocator counts the allocations made on threads that ask to be counted:
//! the threads of the pool this test steps the world on. Other tests,
//! running beside it on their own threads, are not counted.

use collide::world::{BodyDesc, BodyId, Geometry, World, WorldConfig};
use collide::Vec3;
use collide_testkit::Gen;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the allocations of counted threads.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    // `try_with`: a thread being torn down has no thread-locals left; it is not counted.
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an
// atomic and a const-initialised thread-local, neither of which allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: as for `alloc`; `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bodies of every convex kind moving through each other in a box (turned back at its walls)
/// over a fixed floor, so that pairs begin and end every frame: the world, each moving body's
/// id and velocity, and the box's half side.
fn churning_scene(n: usize) -> (World, Vec<(BodyId, Vec3)>, f32) {
    let half = 0.5 * (4.0 * n as f32).cbrt();
    let mut g = Gen::new(41);
    let mut world = World::new(WorldConfig::default());
    world
        .add_body(
            BodyDesc::new(Geometry::HalfSpace)
                .at(Vec3::new(0.0, -half, 0.0))
                .fixed(),
        )
        .expect("a floor");
    let moving = (0..n)
        .map(|k| {
            let geometry = match k % 4 {
                0 => Geometry::Sphere(g.range(0.2, 0.5)),
                1 => Geometry::Cuboid(Vec3::new(
                    g.range(0.2, 0.5),
                    g.range(0.2, 0.5),
                    g.range(0.2, 0.5),
                )),
                2 => Geometry::Capsule {
                    half_height: g.range(0.1, 0.4),
                    radius: g.range(0.1, 0.3),
                },
                _ => Geometry::Sphere(0.05),
            };
            // Every fourth body is small and fast: swept, not just boxed.
            let speed = if k % 4 == 3 { 40.0 } else { 3.0 };
            let v = g.unit() * speed;
            let desc = BodyDesc::new(geometry).at(g.vec(half)).moving(v);
            (world.add_body(desc).expect("a valid body"), v)
        })
        .collect();
    (world, moving, half)
}

/// Bodies past a wall get their velocity turned back into the box.
fn turn_back(world: &mut World, bodies: &mut [(BodyId, Vec3)], half: f32) {
    for (id, v) in bodies {
        let (p, _) = world.pose(*id).expect("a live body");
        if p.abs().max_element() > half {
            *v = Vec3::select(p.abs().cmpgt(Vec3::splat(half)), -p.signum() * v.abs(), *v);
            world.set_velocity(*id, *v, Vec3::ZERO).expect("finite");
        }
    }
}

#[test]
fn world_step_allocates_nothing_once_warm() {
    // One counted thread, so that the run is the same every time: each thread keeps its own
    // scratch lists, and on two threads which of them first meets a larger case (and grows
    // its lists) depends on scheduling. The whole run is one job on the pool (handing a job to
    // a pool from outside it may allocate in rayon's queue, which is not the world's doing).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .start_handler(|_| COUNTED.with(|c| c.set(true)))
        .build()
        .expect("a pool");
    let (allocations, events, fast) = pool.install(|| {
        // The counter sees this thread's allocations.
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        std::hint::black_box(Vec::<u8>::with_capacity(1));
        assert_eq!(
            ALLOCATIONS.load(Ordering::Relaxed),
            before + 1,
            "counting works"
        );
        let (mut world, mut moving, half) = churning_scene(1_500);
        let dt = 1.0 / 60.0;
        // Warm-up: every list grows to the largest this scene needs.
        for _ in 0..240 {
            turn_back(&mut world, &mut moving, half);
            world.step(dt);
        }
        let (mut allocations, mut events, mut fast) = (0, 0, 0);
        for _ in 0..120 {
            turn_back(&mut world, &mut moving, half);
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            world.step(dt);
            allocations += ALLOCATIONS.load(Ordering::Relaxed) - before;
            events += world.events().len();
            fast += world.stats().fast_bodies;
        }
        (allocations, events, fast)
    });
    assert!(events > 0, "the scene churns: pairs begin and end");
    assert!(fast > 0, "some bodies are swept");
    assert_eq!(allocations, 0, "allocations in 120 warm frames");
}
