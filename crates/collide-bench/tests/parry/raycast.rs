//! Differential test: collide's ray casts against parry3d's `cast_ray_and_get_normal` on Ball,
//! Cuboid, Capsule, Triangle and HalfSpace, on the same seeded random rays.
//!
//! Known, documented differences, checked as such rather than hidden:
//! - A ray starting inside a solid: both give `t = 0`; parry's normal is then zero, collide's is
//!   `-dir / |dir|` (documented in `collide::raycast`). Only `t` is compared there.
//! - `raycast::plane` is a two-sided plane; parry's `HalfSpace` is a solid half-space. From the
//!   outside (positive side) they are the same surface; from inside, parry (solid) answers 0
//!   and collide the crossing, which equals parry's non-solid cast.
//! - `raycast::triangle` flips the normal to face the ray; parry3d returns the triangle's own
//!   normal for rays from either side (checked up to sign).
//!
//! Everything else must agree: hit/miss (up to grazes within 1e-4 of the surface) and `t`.

use collide::raycast;
use collide::shapes::{Capsule, Obb, Plane, Ray, Sphere, Triangle};
use collide::{Quat, Vec3};
use collide_bench::convert;
use collide_testkit::Gen;
use parry3d::math::Pose;
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::HalfSpace;

#[derive(Default, Debug)]
struct Diff {
    cases: usize,
    both_hit: usize,
    both_miss: usize,
    /// Hit/miss disagreements: ray grazing the surface (collide's conservative side).
    disagree: usize,
    max_t_diff: f32,
    max_normal_diff: f32,
}

impl Diff {
    fn add(
        &mut self,
        ours: Option<raycast::RayHit>,
        theirs: Option<parry3d::query::RayIntersection>,
        normal_up_to_sign: bool,
        graze: impl Fn(f32) -> bool,
    ) {
        self.cases += 1;
        match (ours, theirs) {
            (Some(h), Some(p)) => {
                self.both_hit += 1;
                let scale = 1.0f32.max(h.t.abs());
                self.max_t_diff = self.max_t_diff.max((h.t - p.time_of_impact).abs() / scale);
                if h.t > 0.0 && p.time_of_impact > 0.0 && p.normal.length() > 0.5 {
                    let nd = if normal_up_to_sign {
                        (h.normal - p.normal)
                            .length()
                            .min((h.normal + p.normal).length())
                    } else {
                        (h.normal - p.normal).length()
                    };
                    self.max_normal_diff = self.max_normal_diff.max(nd);
                }
            }
            (None, None) => self.both_miss += 1,
            (o, p) => {
                let t = o
                    .map(|h| h.t)
                    .or(p.map(|p| p.time_of_impact))
                    .unwrap_or(0.0);
                assert!(
                    graze(t),
                    "disagreement that is not a graze: ours {o:?} parry {p:?}"
                );
                self.disagree += 1;
            }
        }
    }
}

fn pray(r: &Ray) -> PRay {
    convert::ray(r)
}

fn ray_near(g: &mut Gen, target: Vec3) -> (Ray, f32) {
    let o = g.point() * 1.5;
    let dir = if g.range(0.0, 1.0) < 0.5 {
        (target + g.vec(2.0) - o) * g.range(0.5, 1.5)
    } else {
        g.unit() * g.range(1.0, 8.0)
    };
    (Ray::new(o, dir), g.range(0.3, 2.0))
}

const N: usize = 20_000;

#[test]
fn ball_cuboid_capsule_match_parry() {
    let mut g = Gen::new(41);
    let (mut ball, mut cub, mut cap) = (Diff::default(), Diff::default(), Diff::default());
    for _ in 0..N {
        // Ball.
        let s: Sphere = g.sphere();
        let (r, mt) = ray_near(&mut g, s.center);
        let ours = raycast::sphere(&r, &s, mt);
        let ps = convert::sphere(&s);
        let theirs = ps
            .shape
            .cast_ray_and_get_normal(&ps.pose, &pray(&r), mt, true);
        let graze = |t: f32| ((r.at(t) - s.center).length() - s.radius).abs() < 1e-4;
        ball.add(ours, theirs, false, graze);
        // Cuboid (an OBB).
        let o: Obb = g.obb();
        let (r, mt) = ray_near(&mut g, o.center);
        let ours = raycast::obb(&r, &o, mt);
        let po = convert::obb(&o);
        let theirs = po
            .shape
            .cast_ray_and_get_normal(&po.pose, &pray(&r), mt, true);
        let graze = |t: f32| {
            let q = o.to_local(r.at(t));
            (q.abs() - o.half_extents).max_element().abs() < 1e-4
        };
        cub.add(ours, theirs, false, graze);
        // Capsule.
        let c: Capsule = g.capsule();
        let (r, mt) = ray_near(&mut g, (c.a + c.b) * 0.5);
        let ours = raycast::capsule(&r, &c, mt);
        let pc = convert::capsule(&c);
        let theirs = pc
            .shape
            .cast_ray_and_get_normal(&pc.pose, &pray(&r), mt, true);
        let graze = |t: f32| {
            let p = r.at(t);
            let m = c.b - c.a;
            let u = ((p - c.a).dot(m) / m.length_squared().max(1e-30)).clamp(0.0, 1.0);
            ((p - (c.a + m * u)).length() - c.radius).abs() < 1e-4
        };
        cap.add(ours, theirs, false, graze);
    }
    eprintln!("ball {ball:#?}\ncuboid {cub:#?}\ncapsule {cap:#?}");
    for (name, d) in [("ball", &ball), ("cuboid", &cub), ("capsule", &cap)] {
        assert!(d.max_t_diff < 1e-4, "{name}: t differs by {}", d.max_t_diff);
        assert!(
            d.max_normal_diff < 1e-3,
            "{name}: normal differs by {}",
            d.max_normal_diff
        );
        assert!(d.disagree * 1000 <= d.cases, "{name}: {d:?}");
        assert!(d.both_hit > d.cases / 10, "{name}: too few hits");
    }
}

#[test]
fn triangle_and_halfspace_match_parry() {
    let mut g = Gen::new(42);
    let (mut tri, mut half) = (Diff::default(), Diff::default());
    for _ in 0..N {
        let t: Triangle = g.triangle();
        let (r, mt) = ray_near(&mut g, t.centroid());
        let ours = raycast::triangle(&r, &t, mt);
        let pt = convert::triangle(&t);
        let theirs = pt
            .shape
            .cast_ray_and_get_normal(&pt.pose, &pray(&r), mt, true);
        // A graze here: the hit lies within 1e-4 of an edge (collide counts edges as hits).
        let graze = |s: f32| {
            let p = r.at(s);
            [(t.a, t.b), (t.b, t.c), (t.c, t.a)].iter().any(|&(u, v)| {
                let m = v - u;
                let k = ((p - u).dot(m) / m.length_squared().max(1e-30)).clamp(0.0, 1.0);
                (p - (u + m * k)).length() < 1e-4
            }) || t.normal().is_none()
        };
        tri.add(ours, theirs, true, graze);

        // Plane vs half-space: a ray from the positive side (outside the solid half-space).
        let p: Plane = g.plane();
        let (r, mt) = ray_near(&mut g, p.project(Vec3::ZERO));
        let hs = HalfSpace::new(p.normal);
        let at = Pose::from_parts(p.project(Vec3::ZERO), Quat::IDENTITY);
        let ours = raycast::plane(&r, &p, mt);
        if p.signed_distance(r.origin) > 0.0 {
            let theirs = hs.cast_ray_and_get_normal(&at, &pray(&r), mt, true);
            half.add(ours, theirs, false, |s| {
                p.signed_distance(r.at(s)).abs() < 1e-4
            });
        } else {
            // Inside the solid: parry (solid) says 0; the boundary crossing is parry's
            // non-solid answer, which is collide's two-sided plane.
            let solid = hs.cast_ray_and_get_normal(&at, &pray(&r), mt, true);
            assert!(solid.is_some_and(|h| h.time_of_impact == 0.0));
            let theirs = hs.cast_ray_and_get_normal(&at, &pray(&r), mt, false);
            half.add(ours, theirs, false, |s| {
                p.signed_distance(r.at(s)).abs() < 1e-4
            });
        }
    }
    eprintln!("triangle {tri:#?}\nhalfspace {half:#?}");
    assert!(tri.max_t_diff < 1e-4, "triangle: {tri:?}");
    assert!(tri.max_normal_diff < 1e-4, "triangle: {tri:?}");
    assert!(half.max_t_diff < 1e-4, "halfspace: {half:?}");
    assert!(tri.both_hit > tri.cases / 20 && half.both_hit > half.cases / 10);
}
