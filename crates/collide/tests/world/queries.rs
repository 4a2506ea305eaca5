//! Scene queries against f64 brute force, on random scenes holding every geometry kind.
//!
//! The oracle knows each body only as f64 point sets: convex cores plus a radius (spheres,
//! boxes, capsules, hulls, pieces), one core per triangle (meshes, heightfields), or a plane
//! (half-spaces). Distances come from enumerating the Minkowski difference
//! (`collide_testkit::oracle::minkowski`: no GJK, no EPA), and first contacts along a ray or a
//! motion by conservative advancement on those distances: a body's distance shrinks at most as
//! fast as the query moves, so stepping by it never passes a contact (sphere tracing), and no
//! thin feature is missed.

use collide::broadphase::CollisionGroups;
use collide::convex::ConvexHull;
use collide::mesh::{Heightfield, MeshCollider};
use collide::shapes::{Capsule, Obb, Ray, Sphere, TriMesh};
use collide::world::{BodyDesc, BodyId, ContactEvent, Geometry, QueryFilter, SensorEvent, World};
use collide::{Quat, Vec3};
use collide_testkit::oracle::minkowski::{
    core_capsule, core_obb, core_sphere, hull_nearest, separates, truth, Core,
};
use collide_testkit::Gen;
use glam::DVec3;
use std::sync::Arc;

/// A body as the oracle sees it.
enum Truth64 {
    /// The union of convex cores (each grown by its radius).
    Solid(Vec<Core>),
    /// A two-sided surface: one core per triangle.
    Surface(Vec<Core>),
    /// Solid below the plane through `point` with unit `normal`.
    Below { point: DVec3, normal: DVec3 },
}

/// The oracle's view of every live body, by id.
struct Oracle {
    bodies: Vec<(BodyId, Truth64)>,
}

fn posed_core(points: &[Vec3], p: Vec3, q: Quat) -> Core {
    Core {
        verts: points.iter().map(|&v| (q * v + p).as_dvec3()).collect(),
        radius: 0.0,
    }
}

impl Oracle {
    fn of(world: &World, ids: &[BodyId]) -> Oracle {
        let bodies = ids
            .iter()
            .map(|&id| {
                let (p, q) = world.pose(id).unwrap();
                let t = match world.geometry(id).unwrap() {
                    Geometry::Sphere(r) => Truth64::Solid(vec![core_sphere(&Sphere::new(p, *r))]),
                    Geometry::Cuboid(h) => Truth64::Solid(vec![core_obb(&Obb::new(p, q, *h))]),
                    Geometry::Capsule {
                        half_height,
                        radius,
                    } => {
                        let a = p + q * Vec3::new(0.0, -half_height, 0.0);
                        let b = p + q * Vec3::new(0.0, *half_height, 0.0);
                        Truth64::Solid(vec![core_capsule(&Capsule::new(a, b, *radius))])
                    }
                    Geometry::Hull(h) => Truth64::Solid(vec![posed_core(h.vertices(), p, q)]),
                    Geometry::Pieces(ps) => {
                        Truth64::Solid(ps.iter().map(|h| posed_core(h.vertices(), p, q)).collect())
                    }
                    Geometry::Mesh(m) => Truth64::Surface(
                        (0..m.triangles().len() as u32)
                            .filter_map(|i| m.triangle(i))
                            .map(|t| posed_core(&[t.a, t.b, t.c], p, q))
                            .collect(),
                    ),
                    Geometry::Heightfield(h) => Truth64::Surface(
                        (0..h.triangle_count() as u32)
                            .filter_map(|i| h.triangle(i))
                            .map(|t| posed_core(&[t.a, t.b, t.c], p, q))
                            .collect(),
                    ),
                    Geometry::HalfSpace => Truth64::Below {
                        point: p.as_dvec3(),
                        normal: (q * Vec3::Y).as_dvec3().normalize(),
                    },
                };
                (id, t)
            })
            .collect();
        Oracle { bodies }
    }

    /// Distance from a point to one body (0 inside a solid).
    fn point_distance(t: &Truth64, x: DVec3) -> f64 {
        let to_core = |c: &Core| {
            let pts: Vec<DVec3> = c.verts.iter().map(|&v| v - x).collect();
            let (d, q) = hull_nearest(&pts);
            let inside = !separates(&pts, q);
            (if inside { 0.0 } else { d } - c.radius).max(0.0)
        };
        match t {
            Truth64::Solid(cores) | Truth64::Surface(cores) => {
                cores.iter().map(to_core).fold(f64::INFINITY, f64::min)
            }
            Truth64::Below { point, normal } => normal.dot(x - *point).max(0.0),
        }
    }

    /// Distance from a convex core to one body (0 when they touch or overlap).
    fn core_distance(t: &Truth64, core: &Core) -> f64 {
        match t {
            Truth64::Solid(cores) | Truth64::Surface(cores) => cores
                .iter()
                .map(|c| truth(core, c).distance)
                .fold(f64::INFINITY, f64::min),
            Truth64::Below { point, normal } => {
                let lowest = core
                    .verts
                    .iter()
                    .map(|&v| normal.dot(v - *point))
                    .fold(f64::INFINITY, f64::min);
                (lowest - core.radius).max(0.0)
            }
        }
    }

    /// The first `u` in `[0, 1]` at which `distance(u) <= eps`, by conservative advancement:
    /// `distance` shrinks by at most `speed` per unit of `u`.
    fn first_contact(distance: impl Fn(f64) -> f64, speed: f64, eps: f64) -> Option<f64> {
        let mut u = 0.0;
        for _ in 0..20_000 {
            let d = distance(u);
            if d <= eps {
                return Some(u);
            }
            if speed == 0.0 {
                return None;
            }
            u += d / speed;
            if u > 1.0 {
                return None;
            }
        }
        Some(u)
    }
}

/// A random convex hull of `n` points around the origin, about `size` across.
fn random_hull(g: &mut Gen, n: usize, size: f32) -> Arc<ConvexHull> {
    let pts: Vec<Vec3> = (0..n).map(|_| g.vec(size)).collect();
    Arc::new(ConvexHull::try_new(&pts).unwrap())
}

/// A bumpy `n × n` grid of unit cells as a mesh (rest frame centred on the origin).
fn bumpy_mesh(g: &mut Gen, n: usize) -> Arc<MeshCollider> {
    let mut vertices = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            let x = c as f32 - n as f32 / 2.0;
            let z = r as f32 - n as f32 / 2.0;
            vertices.push(Vec3::new(x, g.range(-0.4, 0.4), z));
        }
    }
    let mut triangles = Vec::new();
    let at = |r: usize, c: usize| (r * (n + 1) + c) as u32;
    for r in 0..n {
        for c in 0..n {
            triangles.push([at(r, c), at(r + 1, c), at(r, c + 1)]);
            triangles.push([at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)]);
        }
    }
    Arc::new(MeshCollider::try_new(TriMesh::new(vertices, triangles)).unwrap())
}

fn bumpy_field(g: &mut Gen, n: usize) -> Arc<Heightfield> {
    let heights: Vec<f32> = (0..n * n).map(|_| g.range(-0.3, 0.3)).collect();
    Arc::new(Heightfield::try_new(heights, n, n, Vec3::new(6.0, 1.0, 6.0)).unwrap())
}

/// A scene with every geometry kind: convex bodies scattered in a 16 m cube, a mesh and a
/// heightfield (fixed), a tilted ground half-space below; some bodies are sensors, groups
/// are random bits.
fn scene(seed: u64, convex: usize) -> (World, Vec<BodyId>) {
    let mut g = Gen::new(seed);
    let mut world = World::default();
    let mut ids = Vec::new();
    let mut add = |world: &mut World, desc: BodyDesc| ids.push(world.add_body(desc).unwrap());
    for i in 0..convex {
        let geometry = match i % 5 {
            0 => Geometry::Sphere(g.range(0.2, 1.0)),
            1 => Geometry::Cuboid(Vec3::new(
                g.range(0.2, 1.0),
                g.range(0.2, 1.0),
                g.range(0.2, 1.0),
            )),
            2 => Geometry::Capsule {
                half_height: g.range(0.1, 0.8),
                radius: g.range(0.2, 0.6),
            },
            3 => Geometry::Hull(random_hull(&mut g, 7, 1.0)),
            _ => Geometry::Pieces(vec![
                random_hull(&mut g, 5, 0.6),
                random_hull(&mut g, 5, 0.6),
            ]),
        };
        let mut desc = BodyDesc::new(geometry)
            .at(g.vec(8.0))
            .rotated(g.quat())
            .groups(CollisionGroups::new(1 << (i % 3), u32::MAX));
        desc.fixed = i % 4 == 0;
        desc.sensor = i % 7 == 6;
        add(&mut world, desc);
    }
    let mesh = bumpy_mesh(&mut g, 6);
    add(
        &mut world,
        BodyDesc::new(Geometry::Mesh(mesh))
            .at(Vec3::new(-3.0, -4.0, 2.0))
            .rotated(Quat::from_rotation_y(0.3))
            .fixed(),
    );
    let field = bumpy_field(&mut g, 7);
    add(
        &mut world,
        BodyDesc::new(Geometry::Heightfield(field))
            .at(Vec3::new(3.0, -5.0, -2.0))
            .fixed(),
    );
    add(
        &mut world,
        BodyDesc::new(Geometry::HalfSpace)
            .at(Vec3::new(0.0, -9.0, 0.0))
            .rotated(Quat::from_rotation_x(0.1))
            .fixed(),
    );
    world.update();
    (world, ids)
}

/// A random filter over the scene and the oracle's version of it.
struct Filtered {
    excluded: BodyId,
    mask: u32,
    sensors: bool,
}

impl Filtered {
    fn draw(g: &mut Gen, ids: &[BodyId]) -> Filtered {
        let excluded = ids[(g.range(0.0, ids.len() as f32) as usize).min(ids.len() - 1)];
        let mask = [u32::MAX, 0b011, 0b101, 0b110][(g.range(0.0, 3.99)) as usize];
        Filtered {
            excluded,
            mask,
            sensors: g.range(0.0, 1.0) < 0.5,
        }
    }

    fn filter(&self) -> QueryFilter<'static> {
        let f = QueryFilter::default()
            .excluding(self.excluded)
            .with_groups(CollisionGroups::new(u32::MAX, self.mask));
        if self.sensors {
            f.with_sensors()
        } else {
            f
        }
    }

    /// Whether the oracle's rules let `id` through (groups as given at construction: body
    /// `i < convex` has membership `1 << (i % 3)`, the level bodies all groups).
    fn passes(&self, world: &World, ids: &[BodyId], convex: usize, id: BodyId) -> bool {
        let i = ids.iter().position(|&x| x == id).unwrap();
        let membership = if i < convex { 1 << (i % 3) } else { u32::MAX };
        id != self.excluded
            && membership & self.mask != 0
            && (self.sensors || !world.is_sensor(id).unwrap())
    }
}

const CONVEX: usize = 30;

#[test]
fn cast_ray_and_cast_ray_all_match_sphere_tracing_on_every_kind() {
    let mut g = Gen::new(11);
    let (mut disagreements, mut hits) = (0, 0);
    for seed in 0..3 {
        let (world, ids) = scene(seed, CONVEX);
        let oracle = Oracle::of(&world, &ids);
        for k in 0..150 {
            let f = Filtered::draw(&mut g, &ids);
            let origin = g.vec(9.0);
            // Half the rays aim at a body's origin, the rest anywhere.
            let aim = if k % 2 == 0 {
                let target = world.pose(ids[k % ids.len()]).unwrap().0;
                (target - origin).normalize_or(Vec3::X)
            } else {
                g.unit()
            };
            let ray = Ray::new(origin, aim * g.range(0.5, 2.0));
            let max_t = 12.0;
            let speed = ray.dir.as_dvec3().length();
            let origin = ray.origin.as_dvec3();
            let dir = ray.dir.as_dvec3();
            // Per body: the first t at which the ray is within 1e-6 of it.
            let mut want: Vec<(f64, BodyId)> = oracle
                .bodies
                .iter()
                .filter(|(id, _)| f.passes(&world, &ids, CONVEX, *id))
                .filter_map(|(id, t)| {
                    let d = |u: f64| Oracle::point_distance(t, origin + dir * (u * max_t as f64));
                    Oracle::first_contact(d, speed * max_t as f64, 1e-6)
                        .map(|u| (u * max_t as f64, *id))
                })
                .collect();
            want.sort_by(|a, b| a.0.total_cmp(&b.0));
            let got = world.cast_ray(&ray, max_t, &f.filter());
            let all = world.cast_ray_all(&ray, max_t, &f.filter());
            match (got, want.first()) {
                (None, None) => {}
                (Some(h), Some(&(t, _))) => {
                    hits += 1;
                    // The body hit must be one the oracle reaches at the same t.
                    let same = want
                        .iter()
                        .any(|&(wt, id)| id == h.body && (wt - f64::from(h.t)).abs() < 1e-4);
                    if !same || (f64::from(h.t) - t).abs() > 1e-4 {
                        disagreements += 1;
                        eprintln!("ray {ray:?}: got {h:?}, want {want:?}");
                    }
                }
                other => {
                    disagreements += 1;
                    eprintln!("ray {ray:?}: {other:?}");
                }
            }
            // Every body once, at the oracle's t, in order; none the filter refuses.
            assert_eq!(
                all.len(),
                want.len(),
                "ray_all {ray:?}: {all:?} vs {want:?}"
            );
            for h in &all {
                let w = want
                    .iter()
                    .find(|w| w.1 == h.body)
                    .expect("a body the oracle misses");
                assert!((w.0 - f64::from(h.t)).abs() < 1e-4, "{h:?} vs {w:?}");
            }
            assert!(all.windows(2).all(|w| w[0].t <= w[1].t));
        }
    }
    assert_eq!(
        disagreements, 0,
        "{disagreements} disagreements in {hits} hits"
    );
    assert!(hits > 150, "too few hits to mean anything: {hits}");
}

/// A query shape and its f64 core at a position (orientation held).
fn query_core(shape: &Geometry, p: Vec3, q: Quat) -> Core {
    match shape {
        Geometry::Sphere(r) => core_sphere(&Sphere::new(p, *r)),
        Geometry::Cuboid(h) => core_obb(&Obb::new(p, q, *h)),
        Geometry::Capsule {
            half_height,
            radius,
        } => core_capsule(&Capsule::new(
            p + q * Vec3::new(0.0, -half_height, 0.0),
            p + q * Vec3::new(0.0, *half_height, 0.0),
            *radius,
        )),
        Geometry::Hull(h) => posed_core(h.vertices(), p, q),
        other => panic!("not a query shape here: {other:?}"),
    }
}

/// Shape casts of every convex query kind against every body kind: the oracle's first
/// contact per body by conservative advancement on f64 distances. Casts that start within
/// 1e-4 of a body are left to the starting-touch tests.
fn check_casts(shapes: &[Geometry], casts_per_seed: usize, seeds: u64) -> (usize, usize) {
    check_casts_within(shapes, 0.0, casts_per_seed, seeds)
}

/// [`check_casts`] to a target distance: the oracle's query core grown by it.
fn check_casts_within(
    shapes: &[Geometry],
    distance: f32,
    casts_per_seed: usize,
    seeds: u64,
) -> (usize, usize) {
    let mut g = Gen::new(21);
    let (mut hits, mut misses) = (0, 0);
    for seed in 0..seeds {
        let (world, ids) = scene(100 + seed, CONVEX);
        let oracle = Oracle::of(&world, &ids);
        for k in 0..casts_per_seed {
            let f = Filtered::draw(&mut g, &ids);
            let shape = &shapes[k % shapes.len()];
            let (start, rot) = (g.vec(9.0), g.quat());
            let target = world.pose(ids[k % ids.len()]).unwrap().0;
            let motion = if k % 2 == 0 {
                (target - start) * g.range(0.5, 1.5)
            } else {
                g.unit() * g.range(1.0, 12.0)
            };
            let speed = motion.as_dvec3().length();
            let at = |u: f64| {
                let mut core = query_core(shape, start + motion * u as f32, rot);
                core.radius += f64::from(distance);
                core
            };
            let mut starts_close = false;
            let mut want: Vec<(f64, BodyId)> = Vec::new();
            for (id, t) in &oracle.bodies {
                if !f.passes(&world, &ids, CONVEX, *id) {
                    continue;
                }
                if Oracle::core_distance(t, &at(0.0)) <= 1e-4 {
                    starts_close = true;
                    break;
                }
                let d = |u: f64| Oracle::core_distance(t, &at(u));
                if let Some(u) = Oracle::first_contact(d, speed, 1e-6) {
                    want.push((u, *id));
                }
            }
            if starts_close {
                continue;
            }
            want.sort_by(|a, b| a.0.total_cmp(&b.0));
            let got = world.cast_shape_within(shape, start, rot, motion, distance, &f.filter());
            // Tolerances as fractions of the motion: never early by more than 1e-4, never late
            // by more than 1e-3 (the advancement's touching gap over the closing speed).
            let (early, late) = (1e-4, 1e-3);
            match (got, want.first()) {
                (None, None) => {}
                (Some(h), Some(&(u, _))) => {
                    hits += 1;
                    let toi = f64::from(h.toi);
                    assert!(toi >= u - early, "early: {h:?} vs {want:?} ({shape:?})");
                    assert!(toi <= u + late, "late: {h:?} vs {want:?} ({shape:?})");
                    let hit_body = want
                        .iter()
                        .find(|w| w.1 == h.body)
                        .unwrap_or_else(|| panic!("{h:?} hit a body the oracle never reaches"));
                    assert!((hit_body.0 - toi).abs() <= late, "{h:?} vs {want:?}");
                    assert!((h.normal.length() - 1.0).abs() < 1e-4, "{h:?}");
                    // The point is on the hit body at the time of impact.
                    let (_, body) = oracle.bodies.iter().find(|b| b.0 == h.body).unwrap();
                    let d = Oracle::point_distance(body, h.point.as_dvec3());
                    assert!(d < 2e-3, "point {h:?} is {d} from the body");
                }
                (None, Some(w)) => {
                    misses += 1;
                    eprintln!("missed {w:?}: {shape:?} from {start} by {motion}");
                }
                (Some(h), None) => panic!("{h:?} where the oracle finds no contact"),
            }
        }
    }
    assert_eq!(misses, 0, "{misses} missed hits of {}", hits + misses);
    (hits, misses)
}

#[test]
fn sphere_casts_match_f64_advancement_on_every_kind() {
    let (hits, _) = check_casts(&[Geometry::Sphere(0.3), Geometry::Sphere(0.05)], 120, 3);
    assert!(hits > 100, "too few hits: {hits}");
}

#[test]
fn box_capsule_and_hull_casts_match_f64_advancement_on_every_kind() {
    let hull = {
        let mut g = Gen::new(5);
        random_hull(&mut g, 6, 0.5)
    };
    let shapes = [
        Geometry::Cuboid(Vec3::new(0.3, 0.2, 0.4)),
        Geometry::Capsule {
            half_height: 0.5,
            radius: 0.25,
        },
        Geometry::Hull(hull),
    ];
    let (hits, _) = check_casts(&shapes, 90, 3);
    assert!(hits > 60, "too few hits: {hits}");
}

#[test]
fn overlap_shape_matches_f64_distances_on_every_kind() {
    let mut g = Gen::new(31);
    let shapes = [
        Geometry::Sphere(0.8),
        Geometry::Cuboid(Vec3::new(0.9, 0.5, 0.7)),
        Geometry::Capsule {
            half_height: 0.8,
            radius: 0.4,
        },
    ];
    let (mut found, mut ambiguous) = (0, 0);
    for seed in 0..3 {
        let (world, ids) = scene(200 + seed, CONVEX);
        let oracle = Oracle::of(&world, &ids);
        for k in 0..60 {
            let f = Filtered::draw(&mut g, &ids);
            let shape = &shapes[k % shapes.len()];
            // Near a body half the time, so that overlaps happen.
            let base = world.pose(ids[k % ids.len()]).unwrap().0;
            let (p, q) = (base + g.vec(1.5), g.quat());
            let core = query_core(shape, p, q);
            let got = world.overlap_shape(shape, p, q, &f.filter());
            for (id, t) in &oracle.bodies {
                let d = Oracle::core_distance(t, &core);
                let passes = f.passes(&world, &ids, CONVEX, *id);
                let reported = got.contains(id);
                if !passes {
                    assert!(!reported, "{id:?} is filtered out");
                } else if d <= 0.0 {
                    assert!(reported, "{shape:?} at {p} overlaps {id:?}: {got:?}");
                    found += 1;
                } else if d > 1e-4 {
                    assert!(!reported, "{shape:?} at {p} is {d} from {id:?}");
                } else {
                    ambiguous += 1;
                }
            }
            assert!(got.windows(2).all(|w| w[0] < w[1]), "unsorted {got:?}");
        }
    }
    assert!(
        found > 40,
        "too few overlaps: {found} ({ambiguous} within 1e-4)"
    );
}

#[test]
fn closest_point_and_shape_distance_match_f64_distances() {
    let mut g = Gen::new(41);
    let ball = Geometry::Sphere(0.25);
    let brick = Geometry::Cuboid(Vec3::new(0.4, 0.2, 0.3));
    for seed in 0..3 {
        let (world, ids) = scene(300 + seed, CONVEX);
        let oracle = Oracle::of(&world, &ids);
        for k in 0..40 {
            let f = Filtered::draw(&mut g, &ids);
            let p = g.vec(9.0);
            let max_d = if k % 3 == 0 {
                f32::INFINITY
            } else {
                g.range(0.5, 4.0)
            };
            let nearest = |dist: &dyn Fn(&Truth64) -> f64| {
                oracle
                    .bodies
                    .iter()
                    .filter(|(id, _)| f.passes(&world, &ids, CONVEX, *id))
                    .map(|(id, t)| (dist(t), *id))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
            };
            // A point.
            let want = nearest(&|t| Oracle::point_distance(t, p.as_dvec3()));
            let got = world.closest_point(p, max_d, &f.filter());
            match (got, want) {
                (Some(h), Some((d, _))) => {
                    assert!((f64::from(h.distance) - d).abs() < 1e-4, "{h:?} vs {d}");
                    let on = oracle.bodies.iter().find(|b| b.0 == h.body).unwrap();
                    let d_body = Oracle::point_distance(&on.1, p.as_dvec3());
                    assert!((d_body - d).abs() < 1e-4, "{h:?}: not a nearest body");
                    let back = Oracle::point_distance(&on.1, h.point.as_dvec3());
                    assert!(back < 1e-4, "{h:?}: the point is {back} off the body");
                }
                (None, Some((d, _))) => assert!(d > f64::from(max_d) - 1e-4, "missed {d}"),
                (Some(h), None) => panic!("{h:?} with nothing in reach"),
                (None, None) => {}
            }
            // A shape (a sphere and a box).
            for shape in [&ball, &brick] {
                let q = g.quat();
                let core = query_core(shape, p, q);
                let want = nearest(&|t| Oracle::core_distance(t, &core));
                let got = world.shape_distance(shape, p, q, max_d, &f.filter());
                match (got, want) {
                    (Some(h), Some((d, _))) => {
                        assert!((f64::from(h.distance) - d).abs() < 1e-4, "{h:?} vs {d}");
                        let gap = (h.point_on_body - h.point_on_shape).length();
                        assert!((gap - h.distance).abs() < 1e-4, "{h:?}: points");
                    }
                    (None, Some((d, _))) => assert!(d > f64::from(max_d) - 1e-4, "missed {d}"),
                    (Some(h), None) => panic!("{h:?} with nothing in reach"),
                    (None, None) => {}
                }
            }
        }
    }
}

#[test]
fn sensors_give_began_and_ended_events_and_no_contacts() {
    let mut world = World::default();
    let zone = world
        .add_body(BodyDesc::new(Geometry::Cuboid(Vec3::ONE)).fixed().sensor())
        .unwrap();
    let other_zone = world
        .add_body(
            BodyDesc::new(Geometry::Sphere(1.0))
                .at(Vec3::new(0.5, 0.0, 0.0))
                .sensor(),
        )
        .unwrap();
    let wall = world
        .add_body(BodyDesc::new(Geometry::Cuboid(Vec3::ONE)).at(Vec3::new(4.0, 0.0, 0.0)))
        .unwrap();
    let ball = world
        .add_body(BodyDesc::new(Geometry::Sphere(0.5)).at(Vec3::new(-3.0, 0.0, 0.0)))
        .unwrap();
    let mut sensor_log = Vec::new();
    let mut contact_log = Vec::new();
    // The ball walks through the zone into the wall, in steps of 0.125: a quarter of its
    // radius, the most a body moves without being swept (`ccd_fraction`), so every frame is
    // tested at rest.
    for i in 0..=52 {
        let x = -3.0 + 0.125 * i as f32;
        world
            .move_body(ball, Vec3::new(x, 0.0, 0.0), Quat::IDENTITY)
            .unwrap();
        world.update();
        for e in world.sensor_events() {
            sensor_log.push((x, *e));
        }
        contact_log.extend(world.events().iter().copied());
        for c in world.contacts() {
            assert!(c.a != zone && c.b != zone && c.a != other_zone && c.b != other_zone);
        }
    }
    // Began at the first frame the ball's surface reaches the zone (x + 0.5 >= -1), ended
    // once it has left (x - 0.5 > 1); the sphere sensor likewise; the two sensors never.
    let began_zone = SensorEvent::Began {
        sensor: zone,
        body: ball,
    };
    let ended_zone = SensorEvent::Ended {
        sensor: zone,
        body: ball,
    };
    let began_other = SensorEvent::Began {
        sensor: other_zone,
        body: ball,
    };
    let ended_other = SensorEvent::Ended {
        sensor: other_zone,
        body: ball,
    };
    assert_eq!(
        sensor_log,
        [
            (-1.5, began_zone),
            (-1.0, began_other),
            (1.625, ended_zone),
            (2.125, ended_other),
        ]
    );
    assert_eq!(contact_log.first(), Some(&ContactEvent::Began(wall, ball)));
    // Queries skip sensors unless asked.
    let inside = world.overlap_shape(
        &Geometry::Sphere(0.1),
        Vec3::ZERO,
        Quat::IDENTITY,
        &QueryFilter::default(),
    );
    assert!(inside.is_empty(), "{inside:?}");
    let with = QueryFilter::default().with_sensors();
    assert_eq!(
        world.overlap_shape(&Geometry::Sphere(0.1), Vec3::ZERO, Quat::IDENTITY, &with),
        [zone, other_zone]
    );
    // Removing a sensor with a body inside ends the overlap.
    world.move_body(ball, Vec3::ZERO, Quat::IDENTITY).unwrap();
    world
        .teleport_body(ball, Vec3::ZERO, Quat::IDENTITY)
        .unwrap();
    world.update();
    world.remove_body(zone).unwrap();
    world.update();
    assert!(
        world.sensor_events().contains(&ended_zone),
        "{:?}",
        world.sensor_events()
    );
}

#[test]
fn bodies_give_back_their_geometry_user_value_and_flags() {
    let mut world = World::default();
    let mesh = bumpy_mesh(&mut Gen::new(1), 2);
    let level = world
        .add_body(
            BodyDesc::new(Geometry::Mesh(mesh.clone()))
                .fixed()
                .user_value(7),
        )
        .unwrap();
    let crate_ = world
        .add_body(BodyDesc::new(Geometry::Cuboid(Vec3::splat(0.5))).user_value(u64::MAX))
        .unwrap();
    assert!(matches!(world.geometry(level), Ok(Geometry::Mesh(m)) if Arc::ptr_eq(m, &mesh)));
    assert!(matches!(world.geometry(crate_), Ok(Geometry::Cuboid(h)) if *h == Vec3::splat(0.5)));
    assert_eq!(world.user_value(level), Ok(7));
    assert_eq!(world.user_value(crate_), Ok(u64::MAX));
    world.set_user_value(crate_, 3).unwrap();
    assert_eq!(world.user_value(crate_), Ok(3));
    assert_eq!(world.is_fixed(level), Ok(true));
    assert_eq!(world.is_sensor(level), Ok(false));
    world.remove_body(crate_).unwrap();
    assert!(world.user_value(crate_).is_err() && world.geometry(crate_).is_err());
}

#[test]
fn filters_by_fixed_moving_and_predicate() {
    let (world, ids) = scene(7, CONVEX);
    let everywhere = collide::shapes::Aabb::new(Vec3::splat(-100.0), Vec3::splat(100.0));
    let all = world.query_aabb(&everywhere, &QueryFilter::default().with_sensors());
    assert_eq!(all.len(), ids.len());
    let fixed = world.query_aabb(
        &everywhere,
        &QueryFilter::default().with_sensors().excluding_moving(),
    );
    let moving = world.query_aabb(
        &everywhere,
        &QueryFilter::default().with_sensors().excluding_fixed(),
    );
    assert!(fixed.iter().all(|&id| world.is_fixed(id).unwrap()));
    assert!(moving.iter().all(|&id| !world.is_fixed(id).unwrap()));
    assert_eq!(fixed.len() + moving.len(), all.len());
    let even = |id: BodyId| id.0 % 2 == 0;
    let evens = world.query_aabb(
        &everywhere,
        &QueryFilter::default().with_sensors().with_predicate(&even),
    );
    assert_eq!(
        evens,
        all.iter()
            .copied()
            .filter(|&id| even(id))
            .collect::<Vec<_>>()
    );
    // Three exclusions: two inline, one beyond.
    let f = QueryFilter::default()
        .with_sensors()
        .excluding(ids[0])
        .excluding(ids[1])
        .excluding(ids[2]);
    assert_eq!(world.query_aabb(&everywhere, &f), all[3..]);
}

/// The contract's starting-touch rule through `World::cast_shape`, on every geometry kind a
/// capsule can rest on: resting on it and moving up or along, no hit; pressed in and moving
/// deeper, a hit at 0; resting on a floor and moving along it into a wall of the same mesh,
/// the wall.
#[test]
fn cast_shape_follows_the_starting_touch_rule_on_every_kind() {
    let capsule = Geometry::Capsule {
        half_height: 0.5,
        radius: 0.3,
    };
    // A floor with a wall at x = 2, as one mesh: the floor z in [-2, 2], x in [-4, 2]; the wall
    // x = 2, y in [0, 3].
    let room = TriMesh::new(
        vec![
            Vec3::new(-4.0, 0.0, -2.0),
            Vec3::new(2.0, 0.0, -2.0),
            Vec3::new(2.0, 0.0, 2.0),
            Vec3::new(-4.0, 0.0, 2.0),
            Vec3::new(2.0, 3.0, -2.0),
            Vec3::new(2.0, 3.0, 2.0),
        ],
        vec![[0, 2, 1], [0, 3, 2], [1, 2, 5], [1, 5, 4]],
    );
    let floors = [
        ("half-space", Geometry::HalfSpace),
        ("box", Geometry::Cuboid(Vec3::new(4.0, 0.5, 2.0))),
        (
            "mesh",
            Geometry::Mesh(Arc::new(MeshCollider::try_new(room).unwrap())),
        ),
        ("heightfield", Geometry::Heightfield(bumpy_flat_field())),
    ];
    for (name, floor) in floors {
        let mut world = World::default();
        // The box's top is at y = 0 like the others'.
        let at = if name == "box" {
            Vec3::new(-1.0, -0.5, 0.0)
        } else {
            Vec3::ZERO
        };
        let id = world.add_body(BodyDesc::new(floor).at(at).fixed()).unwrap();
        world.update();
        let f = QueryFilter::default();
        let resting = Vec3::new(0.0, 0.8, 0.0); // the capsule's bottom at y = 0
        let cast = |p: Vec3, m: Vec3| world.cast_shape(&capsule, p, Quat::IDENTITY, m, &f);
        assert_eq!(cast(resting, Vec3::Y), None, "{name}: resting, moving up");
        assert!(
            cast(resting, Vec3::new(0.5, 0.0, 0.3)).is_none_or(|h| h.toi > 0.0),
            "{name}: resting, moving along: {:?}",
            cast(resting, Vec3::new(0.5, 0.0, 0.3))
        );
        let pressed = resting - Vec3::Y * 0.05;
        let h = cast(pressed, Vec3::NEG_Y).unwrap_or_else(|| panic!("{name}: pressed in"));
        assert_eq!((h.body, h.toi), (id, 0.0), "{name}");
        assert!(h.normal.y > 0.99, "{name}: {h:?}");
        // Hovering 1 cm above and moving down 0.5: meets the floor after 0.01 / 0.5.
        let h = cast(resting + Vec3::Y * 0.01, Vec3::Y * -0.5).unwrap();
        assert!((h.toi - 0.02).abs() < 1e-3, "{name}: {h:?}");
        if name == "mesh" {
            // Resting on the floor, moving along it into the wall (x = 2): the wall, at the
            // time the capsule's side (x + 0.3) reaches it.
            let h = cast(resting, Vec3::new(3.0, 0.0, 0.0)).expect("the wall");
            assert!((h.toi - 1.7 / 3.0).abs() < 1e-3, "{h:?}");
            assert!(h.normal.x < -0.99, "{h:?}");
        }
    }
}

/// A flat 5 × 5 heightfield at y = 0, 8 m square.
fn bumpy_flat_field() -> Arc<Heightfield> {
    Arc::new(Heightfield::try_new(vec![0.0; 25], 5, 5, Vec3::new(8.0, 1.0, 8.0)).unwrap())
}

#[test]
fn casts_to_a_target_distance_match_f64_advancement() {
    let shapes = [
        Geometry::Sphere(0.2),
        Geometry::Cuboid(Vec3::new(0.3, 0.2, 0.4)),
        Geometry::Capsule {
            half_height: 0.4,
            radius: 0.2,
        },
    ];
    let (hits, _) = check_casts_within(&shapes, 0.25, 60, 2);
    assert!(hits > 40, "too few hits: {hits}");
    // A sphere within d is the sphere of radius r + d.
    let (world, _) = scene(500, CONVEX);
    let mut g = Gen::new(3);
    for _ in 0..100 {
        let (p, m) = (g.vec(9.0), g.unit() * 10.0);
        let f = QueryFilter::default();
        let within = world.cast_shape_within(&Geometry::Sphere(0.2), p, Quat::IDENTITY, m, 0.3, &f);
        let bigger = world.cast_shape(&Geometry::Sphere(0.5), p, Quat::IDENTITY, m, &f);
        match (within, bigger) {
            (Some(a), Some(b)) => {
                assert_eq!(a.body, b.body);
                assert!((a.toi - b.toi).abs() < 1e-3, "{a:?} vs {b:?}");
            }
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
}

/// Rays and shape casts give the same answers while the fixed bodies' tree is out of date (a
/// fixed body added since the last update: the fixed bodies are then scanned) as through the
/// tree.
#[test]
fn casts_agree_before_and_after_the_fixed_tree_is_rebuilt() {
    let mut g = Gen::new(23);
    let (mut world, _) = scene(4, CONVEX);
    let rays: Vec<Ray> = (0..200)
        .map(|_| Ray::new(g.vec(9.0), g.unit() * 2.0))
        .collect();
    let probe = Geometry::Cuboid(Vec3::new(0.3, 0.2, 0.4));
    let casts: Vec<(Vec3, Quat, Vec3)> = (0..200)
        .map(|_| (g.vec(9.0), g.quat(), g.unit() * 6.0))
        .collect();
    let answers = |world: &World| {
        let filter = QueryFilter::default();
        let hits: Vec<_> = rays
            .iter()
            .map(|r| world.cast_ray(r, 12.0, &filter))
            .collect();
        let impacts: Vec<_> = casts
            .iter()
            .map(|&(p, q, m)| world.cast_shape(&probe, p, q, m, &filter))
            .collect();
        (hits, impacts)
    };
    let through_tree = answers(&world);
    // Far from every ray and cast: it changes no answer, only the tree's state.
    let far = BodyDesc::new(Geometry::Sphere(1.0))
        .at(Vec3::splat(1.0e4))
        .fixed();
    world.add_body(far).unwrap();
    let by_scan = answers(&world);
    assert_eq!(through_tree, by_scan);
    let found = through_tree.0.iter().flatten().count() + through_tree.1.iter().flatten().count();
    assert!(found > 100, "the casts hit something: {found}");
    world.update();
    assert_eq!(answers(&world), through_tree);
}
