//! Sweeps and ray casts, collide vs parry3d, on the same fixed random inputs.
//!
//! Each benchmark cycles through 1024 seeded inputs (a mix of hits and misses, about half
//! aimed at the other shape), one query per iteration, so the reported time is per query.
//! `parry3d` is parry's dispatching call (a pose per shape); `parry3d_direct`, where there is
//! one, is its per-shape function in the shape's own frame with the ray or motion moved there
//! in the timed closure (`Ball::cast_local_ray_and_get_normal`, `cast_shapes_ball_ball`, …).
//! Run: `cargo bench -p collide-bench --bench sweeps`.

use collide::raycast::{self, RayInv};
use collide::shapes::{Aabb, Capsule, Obb, Plane, Ray, Sphere, Triangle};
use collide::sweep;
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use criterion::{criterion_group, criterion_main, Criterion};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Pose;
use parry3d::query::details::{cast_shapes_ball_ball, cast_shapes_support_map_support_map};
use parry3d::query::{
    cast_shapes, cast_shapes_nonlinear, NonlinearRigidMotion, Ray as PRay, RayCast,
    RayIntersection, ShapeCastOptions,
};
use parry3d::shape::{Ball, Capsule as PCapsule, Cuboid, HalfSpace, Triangle as PTriangle};
use std::hint::black_box;

const N: usize = 1024;

/// Runs `f` over the inputs, one per iteration.
fn cycle<T, R>(c: &mut Criterion, group: &str, name: &str, inputs: &[T], f: impl Fn(&T) -> R) {
    let mut g = c.benchmark_group(group);
    let mut i = 0;
    g.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) & (N - 1);
            black_box(f(black_box(&inputs[i])))
        })
    });
    g.finish();
}

fn motion_toward(g: &mut Gen, from: Vec3, to: Vec3) -> Vec3 {
    if g.range(0.0, 1.0) < 0.5 {
        (to - from) * g.range(0.5, 2.0) + g.vec(1.0)
    } else {
        g.vec(8.0)
    }
}

/// The sweeps, one group per pair of shapes (one random sequence through all of them).
fn sweeps(c: &mut Criterion) {
    let mut g = Gen::new(2024);
    sweep_sphere_sphere(c, &mut g);
    sweep_aabb_aabb(c, &mut g);
    sweep_obb_obb(c, &mut g);
    sweep_sphere_obb(c, &mut g);
    sweep_sphere_aabb(c, &mut g);
    sweep_sphere_triangle(c, &mut g);
    sweep_sphere_plane(c, &mut g);
    sweep_obb_obb_rotating(c, &mut g);
}

/// Sphere–sphere.
fn sweep_sphere_sphere(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let balls: Vec<(Sphere, Vec3, Sphere, Vec3)> = (0..N)
        .map(|_| {
            let (a, b) = (g.sphere(), g.sphere());
            let ma = g.vec(2.0);
            let mb = motion_toward(g, b.center, a.center);
            (a, ma, b, mb)
        })
        .collect();
    cycle(
        c,
        "sweep_sphere_sphere",
        "collide",
        &balls,
        |(a, ma, b, mb)| sweep::sphere_sphere(a, *ma, b, *mb),
    );
    cycle(
        c,
        "sweep_sphere_sphere",
        "parry3d",
        &balls,
        |(a, ma, b, mb)| {
            cast_shapes(
                &Pose::from_parts(a.center, id),
                *ma,
                &Ball::new(a.radius),
                &Pose::from_parts(b.center, id),
                *mb,
                &Ball::new(b.radius),
                opts,
            )
        },
    );
    cycle(
        c,
        "sweep_sphere_sphere",
        "parry3d_direct",
        &balls,
        |(a, ma, b, mb)| {
            cast_shapes_ball_ball(
                &Pose::from_translation(b.center - a.center),
                *mb - *ma,
                &Ball::new(a.radius),
                &Ball::new(b.radius),
                opts,
            )
        },
    );
}

/// AABB–AABB (parry: two axis-aligned cuboids).
fn sweep_aabb_aabb(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let boxes: Vec<(Aabb, Vec3, Aabb, Vec3)> = (0..N)
        .map(|_| {
            let (a, b) = (g.aabb(), g.aabb());
            let ma = g.vec(2.0);
            let mb = motion_toward(g, b.center(), a.center());
            (a, ma, b, mb)
        })
        .collect();
    cycle(c, "sweep_aabb_aabb", "collide", &boxes, |(a, ma, b, mb)| {
        sweep::aabb_aabb(a, *ma, b, *mb)
    });
    cycle(c, "sweep_aabb_aabb", "parry3d", &boxes, |(a, ma, b, mb)| {
        cast_shapes(
            &Pose::from_parts(a.center(), id),
            *ma,
            &Cuboid::new(a.half_extents()),
            &Pose::from_parts(b.center(), id),
            *mb,
            &Cuboid::new(b.half_extents()),
            opts,
        )
    });
}

/// OBB–OBB.
fn sweep_obb_obb(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let obbs: Vec<(Obb, Quat, Vec3, Obb, Quat, Vec3)> = (0..N)
        .map(|_| {
            let (a, b) = (g.obb(), g.obb());
            let ma = g.vec(2.0);
            let mb = motion_toward(g, b.center, a.center);
            (a, a.rotation(), ma, b, b.rotation(), mb)
        })
        .collect();
    cycle(
        c,
        "sweep_obb_obb",
        "collide",
        &obbs,
        |(a, _, ma, b, _, mb)| sweep::obb_obb(a, *ma, b, *mb),
    );
    cycle(
        c,
        "sweep_obb_obb",
        "parry3d",
        &obbs,
        |(a, qa, ma, b, qb, mb)| {
            cast_shapes(
                &Pose::from_parts(a.center, *qa),
                *ma,
                &Cuboid::new(a.half_extents),
                &Pose::from_parts(b.center, *qb),
                *mb,
                &Cuboid::new(b.half_extents),
                opts,
            )
        },
    );
    cycle(
        c,
        "sweep_obb_obb",
        "parry3d_direct",
        &obbs,
        |(a, qa, ma, b, qb, mb)| {
            let (pa, pb) = (
                Pose::from_parts(a.center, *qa),
                Pose::from_parts(b.center, *qb),
            );
            cast_shapes_support_map_support_map(
                &pa.inv_mul(&pb),
                pa.rotation.inverse() * (*mb - *ma),
                &Cuboid::new(a.half_extents),
                &Cuboid::new(b.half_extents),
                opts,
            )
        },
    );
}

/// Sphere–OBB.
fn sweep_sphere_obb(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let sob: Vec<(Sphere, Vec3, Obb, Quat)> = (0..N)
        .map(|_| {
            let (s, b) = (g.sphere(), g.obb());
            let ms = motion_toward(g, s.center, b.center);
            (s, ms, b, b.rotation())
        })
        .collect();
    cycle(c, "sweep_sphere_obb", "collide", &sob, |(s, ms, b, _)| {
        sweep::sphere_obb(s, *ms, b, Vec3::ZERO)
    });
    cycle(c, "sweep_sphere_obb", "parry3d", &sob, |(s, ms, b, qb)| {
        cast_shapes(
            &Pose::from_parts(s.center, id),
            *ms,
            &Ball::new(s.radius),
            &Pose::from_parts(b.center, *qb),
            Vec3::ZERO,
            &Cuboid::new(b.half_extents),
            opts,
        )
    });
}

/// Sphere–AABB (parry: ball–cuboid without rotation).
fn sweep_sphere_aabb(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let sab: Vec<(Sphere, Vec3, Aabb)> = (0..N)
        .map(|_| {
            let (s, b) = (g.sphere(), g.aabb());
            let ms = motion_toward(g, s.center, b.center());
            (s, ms, b)
        })
        .collect();
    cycle(c, "sweep_sphere_aabb", "collide", &sab, |(s, ms, b)| {
        sweep::sphere_aabb(s, *ms, b, Vec3::ZERO)
    });
    cycle(c, "sweep_sphere_aabb", "parry3d", &sab, |(s, ms, b)| {
        cast_shapes(
            &Pose::from_parts(s.center, id),
            *ms,
            &Ball::new(s.radius),
            &Pose::from_parts(b.center(), id),
            Vec3::ZERO,
            &Cuboid::new(b.half_extents()),
            opts,
        )
    });
}

/// Sphere–triangle.
fn sweep_sphere_triangle(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let stri: Vec<(Sphere, Vec3, Triangle)> = (0..N)
        .map(|_| {
            let (s, t) = (g.sphere(), g.triangle());
            let ms = motion_toward(g, s.center, t.centroid());
            (s, ms, t)
        })
        .collect();
    cycle(
        c,
        "sweep_sphere_triangle",
        "collide",
        &stri,
        |(s, ms, t)| sweep::sphere_triangle(s, *ms, t, Vec3::ZERO),
    );
    cycle(
        c,
        "sweep_sphere_triangle",
        "parry3d",
        &stri,
        |(s, ms, t)| {
            cast_shapes(
                &Pose::from_parts(s.center, id),
                *ms,
                &Ball::new(s.radius),
                &Pose::IDENTITY,
                Vec3::ZERO,
                &PTriangle::new(t.a, t.b, t.c),
                opts,
            )
        },
    );
}

/// Sphere–plane (parry: ball against a half-space, from the positive side).
fn sweep_sphere_plane(c: &mut Criterion, g: &mut Gen) {
    let opts = ShapeCastOptions::with_max_time_of_impact(1.0);
    let id = Quat::IDENTITY;
    let spl: Vec<(Sphere, Vec3, Plane)> = (0..N)
        .map(|_| {
            let (s, p) = (g.sphere(), g.plane());
            let p = if p.signed_distance(s.center) < 0.0 {
                p.flipped()
            } else {
                p
            };
            let ms = motion_toward(g, s.center, p.project(s.center));
            (s, ms, p)
        })
        .collect();
    cycle(c, "sweep_sphere_plane", "collide", &spl, |(s, ms, p)| {
        sweep::sphere_plane(s, *ms, p)
    });
    cycle(c, "sweep_sphere_plane", "parry3d", &spl, |(s, ms, p)| {
        cast_shapes(
            &Pose::from_parts(s.center, id),
            *ms,
            &Ball::new(s.radius),
            &Pose::from_parts(p.project(Vec3::ZERO), id),
            Vec3::ZERO,
            &HalfSpace::new(p.normal),
            opts,
        )
    });
}

/// Rotating OBB–OBB (parry: cast_shapes_nonlinear, constant angular velocity).
fn sweep_obb_obb_rotating(c: &mut Criterion, g: &mut Gen) {
    let rot: Vec<_> = (0..N)
        .map(|_| {
            let (a, b) = (g.obb(), g.obb());
            let mb = motion_toward(g, b.center, a.center);
            let (wa, wb) = (g.unit() * g.range(0.0, 2.0), g.unit() * g.range(0.0, 2.0));
            let (qa, qb) = (a.rotation(), b.rotation());
            (a, qa, wa, b, qb, mb, wb)
        })
        .collect();
    cycle(
        c,
        "sweep_obb_obb_rotating",
        "collide",
        &rot,
        |(a, qa, wa, b, qb, mb, wb)| {
            let qa1 = Quat::from_scaled_axis(*wa) * *qa;
            let qb1 = Quat::from_scaled_axis(*wb) * *qb;
            sweep::obb_obb_rotating(
                a.half_extents,
                (a.center, *qa),
                (a.center, qa1),
                b.half_extents,
                (b.center, *qb),
                (b.center + *mb, qb1),
            )
        },
    );
    cycle(
        c,
        "sweep_obb_obb_rotating",
        "parry3d",
        &rot,
        |(a, qa, wa, b, qb, mb, wb)| {
            let m1 = NonlinearRigidMotion::new(
                Pose::from_parts(a.center, *qa),
                Vec3::ZERO,
                Vec3::ZERO,
                *wa,
            );
            let m2 =
                NonlinearRigidMotion::new(Pose::from_parts(b.center, *qb), Vec3::ZERO, *mb, *wb);
            cast_shapes_nonlinear(
                &m1,
                &Cuboid::new(a.half_extents),
                &m2,
                &Cuboid::new(b.half_extents),
                0.0,
                1.0,
                true,
            )
        },
    );
}

/// The ray casts, one group per shape (one random sequence through all of them).
fn ray_casts(c: &mut Criterion) {
    let mut g = Gen::new(4048);
    ray_sphere(c, &mut g);
    ray_aabb(c, &mut g);
    ray_obb(c, &mut g);
    ray_capsule(c, &mut g);
    ray_triangle(c, &mut g);
    ray_plane(c, &mut g);
}

/// A ray from around the origin, half of them aimed near `target`, half in any direction.
fn ray_at(g: &mut Gen, target: Vec3) -> Ray {
    let o = g.point() * 1.5;
    let d = if g.range(0.0, 1.0) < 0.5 {
        (target + g.vec(1.5) - o) * 1.2
    } else {
        g.unit() * 8.0
    };
    Ray::new(o, d)
}

/// The same ray for parry3d.
fn pr(r: &Ray) -> PRay {
    PRay::new(r.origin, r.dir)
}

/// Rays at a sphere.
fn ray_sphere(c: &mut Criterion, g: &mut Gen) {
    let id = Quat::IDENTITY;
    let spheres: Vec<(Ray, Sphere)> = (0..N)
        .map(|_| {
            let s = g.sphere();
            (ray_at(g, s.center), s)
        })
        .collect();
    cycle(c, "ray_sphere", "collide", &spheres, |(r, s)| {
        raycast::sphere(r, s, 1.0)
    });
    cycle(c, "ray_sphere", "parry3d", &spheres, |(r, s)| {
        Ball::new(s.radius).cast_ray_and_get_normal(
            &Pose::from_parts(s.center, id),
            &pr(r),
            1.0,
            true,
        )
    });
    cycle(c, "ray_sphere", "parry3d_direct", &spheres, |(r, s)| {
        Ball::new(s.radius).cast_local_ray_and_get_normal(
            &PRay::new(r.origin - s.center, r.dir),
            1.0,
            true,
        )
    });
}

/// Rays at an axis-aligned box (also with the ray's precomputed inverse).
fn ray_aabb(c: &mut Criterion, g: &mut Gen) {
    let id = Quat::IDENTITY;
    let aabbs: Vec<(Ray, RayInv, Aabb)> = (0..N)
        .map(|_| {
            let b = g.aabb();
            let r = ray_at(g, b.center());
            (r, RayInv::new(&r), b)
        })
        .collect();
    cycle(c, "ray_aabb", "collide", &aabbs, |(r, _, b)| {
        raycast::aabb(r, b, 1.0)
    });
    cycle(c, "ray_aabb", "collide_inv", &aabbs, |(_, ri, b)| {
        raycast::aabb_inv(ri, b, 1.0)
    });
    cycle(c, "ray_aabb", "parry3d", &aabbs, |(r, _, b)| {
        Cuboid::new(b.half_extents()).cast_ray_and_get_normal(
            &Pose::from_parts(b.center(), id),
            &pr(r),
            1.0,
            true,
        )
    });
    cycle(c, "ray_aabb", "parry3d_direct", &aabbs, |(r, _, b)| {
        PAabb::new(b.min, b.max).cast_local_ray_and_get_normal(&pr(r), 1.0, true)
    });
}

/// Rays at an oriented box.
fn ray_obb(c: &mut Criterion, g: &mut Gen) {
    let obbs: Vec<(Ray, Obb, Quat)> = (0..N)
        .map(|_| {
            let b = g.obb();
            (ray_at(g, b.center), b, b.rotation())
        })
        .collect();
    cycle(c, "ray_obb", "collide", &obbs, |(r, b, _)| {
        raycast::obb(r, b, 1.0)
    });
    cycle(c, "ray_obb", "parry3d", &obbs, |(r, b, q)| {
        Cuboid::new(b.half_extents).cast_ray_and_get_normal(
            &Pose::from_parts(b.center, *q),
            &pr(r),
            1.0,
            true,
        )
    });
    cycle(c, "ray_obb", "parry3d_direct", &obbs, |(r, b, q)| {
        let pose = Pose::from_parts(b.center, *q);
        Cuboid::new(b.half_extents)
            .cast_local_ray_and_get_normal(&pr(r).inverse_transform_by(&pose), 1.0, true)
            .map(|h| RayIntersection {
                normal: pose.rotation * h.normal,
                ..h
            })
    });
}

/// Rays at a capsule.
fn ray_capsule(c: &mut Criterion, g: &mut Gen) {
    let caps: Vec<(Ray, Capsule)> = (0..N)
        .map(|_| {
            let cp = g.capsule();
            (ray_at(g, (cp.a + cp.b) * 0.5), cp)
        })
        .collect();
    cycle(c, "ray_capsule", "collide", &caps, |(r, cp)| {
        raycast::capsule(r, cp, 1.0)
    });
    cycle(c, "ray_capsule", "parry3d", &caps, |(r, cp)| {
        PCapsule::new(cp.a, cp.b, cp.radius).cast_ray_and_get_normal(
            &Pose::IDENTITY,
            &pr(r),
            1.0,
            true,
        )
    });
    cycle(c, "ray_capsule", "parry3d_direct", &caps, |(r, cp)| {
        // The capsule in world coordinates: its frame is the world's, nothing to move.
        PCapsule::new(cp.a, cp.b, cp.radius).cast_local_ray_and_get_normal(&pr(r), 1.0, true)
    });
}

/// Rays at a triangle.
fn ray_triangle(c: &mut Criterion, g: &mut Gen) {
    let tris: Vec<(Ray, Triangle)> = (0..N)
        .map(|_| {
            let t = g.triangle();
            (ray_at(g, t.centroid()), t)
        })
        .collect();
    cycle(c, "ray_triangle", "collide", &tris, |(r, t)| {
        raycast::triangle(r, t, 1.0)
    });
    cycle(c, "ray_triangle", "parry3d", &tris, |(r, t)| {
        PTriangle::new(t.a, t.b, t.c).cast_ray_and_get_normal(&Pose::IDENTITY, &pr(r), 1.0, true)
    });
    cycle(c, "ray_triangle", "parry3d_direct", &tris, |(r, t)| {
        PTriangle::new(t.a, t.b, t.c).cast_local_ray_and_get_normal(&pr(r), 1.0, true)
    });
}

/// Rays at a plane (parry: a half-space).
fn ray_plane(c: &mut Criterion, g: &mut Gen) {
    let id = Quat::IDENTITY;
    let planes: Vec<(Ray, Plane)> = (0..N)
        .map(|_| {
            let p = g.plane();
            (ray_at(g, p.project(Vec3::ZERO)), p)
        })
        .collect();
    cycle(c, "ray_plane", "collide", &planes, |(r, p)| {
        raycast::plane(r, p, 1.0)
    });
    cycle(c, "ray_plane", "parry3d", &planes, |(r, p)| {
        HalfSpace::new(p.normal).cast_ray_and_get_normal(
            &Pose::from_parts(p.project(Vec3::ZERO), id),
            &pr(r),
            1.0,
            false,
        )
    });
}

criterion_group!(benches, sweeps, ray_casts);
criterion_main!(benches);
