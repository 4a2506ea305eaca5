//! The collision world fed random add / remove / move / teleport / velocity / step /
//! update / query sequences with poses and sizes from arbitrary f32 bit patterns. Asserts:
//! never panics; a body with a NaN or infinite size, pose or velocity is refused
//! (`InvalidBody`); after every update the contacts are sorted pairs `a < b` of live bodies
//! with a unit normal, a finite depth `>= 0`, 1–4 finite points and a time of impact in
//! `[0, 1]`; every contact has a `Began` or `Persisted` event; ray hits have `0 <= t <=
//! max_t`, a finite point and a unit normal; box queries return sorted live ids.
use super::{is_unit, Bytes};
use collide::shapes::{Aabb, Ray};
use collide::world::{
    BodyDesc, BodyId, BroadPhaseKind, ContactEvent, Geometry, QueryFilter, World, WorldConfig,
    WorldError,
};
use collide::Vec3;

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let kind = if b.byte() % 2 == 0 {
        BroadPhaseKind::SweepAndPrune
    } else {
        BroadPhaseKind::DynamicBvh
    };
    let mut world = World::new(WorldConfig {
        broad_phase: kind,
        ccd_fraction: f32::from(b.byte()) / 255.0,
    });
    let mut live: Vec<BodyId> = Vec::new();
    let mut ops = 0;
    while ops < 40 && !b.is_empty() {
        ops += 1;
        match b.byte() % 10 {
            0..=2 => {
                if live.len() >= 12 {
                    continue;
                }
                let Some(geometry) = geometry(&mut b) else {
                    continue;
                };
                let fixed = b.byte() % 2 == 0;
                let sensor = b.byte() % 4 == 0;
                let sizes_bad = match &geometry {
                    Geometry::Sphere(r) => !r.is_finite() || *r < 0.0,
                    Geometry::Cuboid(e) => !e.is_finite() || e.min_element() <= 0.0,
                    Geometry::Capsule {
                        half_height,
                        radius,
                    } => {
                        !(half_height.is_finite() && radius.is_finite())
                            || *half_height < 0.0
                            || *radius < 0.0
                    }
                    _ => false,
                };
                let (pos, rot, vel, ang) = (b.vec3(), b.quat(), b.vec3(), b.vec3());
                let mut desc = BodyDesc::new(geometry)
                    .at(pos)
                    .rotated(rot)
                    .moving(vel)
                    .spinning(ang);
                desc.fixed = fixed;
                desc.sensor = sensor;
                let res = world.add_body(desc);
                if pos.is_nan() || rot.is_nan() || vel.is_nan() || ang.is_nan() || sizes_bad {
                    assert!(
                        matches!(res, Err(WorldError::InvalidBody(_))),
                        "invalid body accepted: {res:?}"
                    );
                }
                if let Ok(id) = res {
                    assert!(!live.contains(&id), "id {id:?} handed out twice");
                    live.push(id);
                }
            }
            3 => {
                if live.is_empty() {
                    continue;
                }
                let id = live.swap_remove(usize::from(b.byte()) % live.len());
                assert_eq!(world.remove_body(id), Ok(()));
                assert!(world.remove_body(id).is_err(), "removed twice");
            }
            4 | 5 => {
                if live.is_empty() {
                    continue;
                }
                let id = live[usize::from(b.byte()) % live.len()];
                let (pos, rot) = (b.vec3(), b.quat());
                let res = if b.byte() % 2 == 0 {
                    world.move_body(id, pos, rot)
                } else {
                    world.teleport_body(id, pos, rot)
                };
                if pos.is_nan() || rot.is_nan() {
                    assert!(res.is_err(), "NaN pose accepted");
                }
            }
            6 => {
                if live.is_empty() {
                    continue;
                }
                let id = live[usize::from(b.byte()) % live.len()];
                let res = world.set_velocity(id, b.vec3(), b.vec3());
                let _ = res;
            }
            7 => world.step(b.f32()),
            8 => world.update(),
            _ => {
                queries(&world, &live, &mut b);
            }
        }
        assert_eq!(world.len(), live.len(), "len");
        check_frame(&world, &live);
    }
    world.update();
    check_frame(&world, &live);
}

/// A body's geometry from the bytes (sizes unchecked: the world must refuse bad ones), or
/// `None` when a mesh or heightfield was refused (a typed error).
fn geometry(b: &mut Bytes<'_>) -> Option<Geometry> {
    Some(match b.byte() % 6 {
        0 => Geometry::Sphere(b.f32()),
        1 => Geometry::Cuboid(b.vec3()),
        2 => Geometry::HalfSpace,
        3 => Geometry::Mesh(level_mesh(b)?),
        4 => Geometry::Heightfield(level_heightfield(b)?),
        _ => Geometry::Capsule {
            half_height: b.f32(),
            radius: b.f32(),
        },
    })
}

/// Every scene query once, with a filter from the bytes: results name live bodies the
/// filter lets through, lie within their bounds, and are sorted where promised.
fn queries(world: &World, live: &[BodyId], b: &mut Bytes<'_>) {
    let excluded = live.get(usize::from(b.byte())).copied();
    let mut filter = QueryFilter::default();
    if let Some(id) = excluded {
        filter = filter.excluding(id);
    }
    let sensors = b.byte() % 2 == 0;
    if sensors {
        filter = filter.with_sensors();
    }
    let passes = |id: &BodyId| {
        live.contains(id) && Some(*id) != excluded && (sensors || !world.is_sensor(*id).unwrap())
    };
    let ray = Ray::new(b.vec3(), b.vec3());
    let max_t = b.f32();
    if let Some(h) = world.cast_ray(&ray, max_t, &filter) {
        assert!(passes(&h.body), "ray hit a body the filter refuses {h:?}");
        assert!(h.t >= 0.0 && h.t <= max_t, "ray t {h:?} max_t {max_t}");
        assert!(h.point.is_finite() && is_unit(h.normal), "ray hit {h:?}");
    }
    let all = world.cast_ray_all(&ray, max_t, &filter);
    assert!(all.iter().all(|h| passes(&h.body)), "ray_all: {all:?}");
    assert!(all.windows(2).all(|w| w[0].t <= w[1].t), "ray_all unsorted");
    let q = Aabb::new(b.vec3(), b.vec3());
    let got = world.query_aabb(&q, &filter);
    assert!(
        got.windows(2).all(|w| w[0] < w[1]),
        "query not sorted: {got:?}"
    );
    assert!(got.iter().all(passes), "query returned a refused body");
    let Some(shape) = geometry(b) else {
        return;
    };
    let (pos, rot, motion) = (b.vec3(), b.quat(), b.vec3());
    if let Some(h) = world.cast_shape(&shape, pos, rot, motion, &filter) {
        assert!(passes(&h.body), "cast hit a refused body {h:?}");
        assert!((0.0..=1.0).contains(&h.toi), "cast toi {h:?}");
        assert!(h.point.is_finite() && is_unit(h.normal), "cast hit {h:?}");
    }
    let distance = b.f32();
    if let Some(h) = world.cast_shape_within(&shape, pos, rot, motion, distance, &filter) {
        assert!(passes(&h.body), "cast within hit a refused body {h:?}");
        assert!((0.0..=1.0).contains(&h.toi), "cast within toi {h:?}");
        assert!(
            h.point.is_finite() && is_unit(h.normal),
            "cast within hit {h:?}"
        );
    }
    let over = world.overlap_shape(&shape, pos, rot, &filter);
    assert!(over.windows(2).all(|w| w[0] < w[1]), "overlap unsorted");
    assert!(over.iter().all(passes), "overlap returned a refused body");
    let max_d = b.f32();
    if let Some(p) = world.closest_point(pos, max_d, &filter) {
        assert!(passes(&p.body), "closest point on a refused body {p:?}");
        assert!(p.distance >= 0.0 && p.distance <= max_d, "closest {p:?}");
    }
    if let Some(d) = world.shape_distance(&shape, pos, rot, max_d, &filter) {
        assert!(passes(&d.body), "distance to a refused body {d:?}");
        assert!(d.distance >= 0.0 && d.distance <= max_d, "distance {d:?}");
    }
}

/// A small mesh (up to 6 vertices, 4 triangles) from the bytes, or `None` when it is
/// refused (a typed error).
fn level_mesh(b: &mut Bytes<'_>) -> Option<std::sync::Arc<collide::mesh::MeshCollider>> {
    let vertices: Vec<Vec3> = (0..6).map(|_| b.vec3()).collect();
    let triangles = (0..4)
        .map(|_| [b.byte(), b.byte(), b.byte()].map(|i| u32::from(i % 6)))
        .collect();
    let mesh = collide::shapes::TriMesh::new(vertices, triangles);
    collide::mesh::MeshCollider::try_new(mesh)
        .ok()
        .map(std::sync::Arc::new)
}

/// A 3 x 3 heightfield from the bytes, or `None` when it is refused.
fn level_heightfield(b: &mut Bytes<'_>) -> Option<std::sync::Arc<collide::mesh::Heightfield>> {
    let heights = (0..9).map(|_| b.f32()).collect();
    collide::mesh::Heightfield::try_new(heights, 3, 3, b.vec3())
        .ok()
        .map(std::sync::Arc::new)
}

fn check_frame(world: &World, live: &[BodyId]) {
    let contacts = world.contacts();
    assert!(
        contacts
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)),
        "contacts not sorted or duplicated"
    );
    let events = world.events();
    for c in contacts {
        assert!(c.a < c.b, "pair not ordered: {c:?}");
        assert!(is_unit(c.manifold.normal), "contact normal not unit: {c:?}");
        assert!(
            c.manifold.depth.is_finite() && c.manifold.depth >= 0.0,
            "depth: {c:?}"
        );
        let n = c.manifold.points().len();
        assert!((1..=4).contains(&n), "{n} contact points: {c:?}");
        assert!(
            c.manifold
                .points()
                .iter()
                .all(|p| p.point.is_finite() && p.depth.is_finite()),
            "points: {c:?}"
        );
        if let Some(t) = c.toi {
            assert!((0.0..=1.0).contains(&t), "toi {t}: {c:?}");
        }
        assert!(
            events.contains(&ContactEvent::Began(c.a, c.b))
                || events.contains(&ContactEvent::Persisted(c.a, c.b)),
            "contact {c:?} without a Began/Persisted event"
        );
    }
    let _ = (live, Vec3::ZERO);
}
