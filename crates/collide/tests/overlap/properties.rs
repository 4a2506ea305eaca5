//! Properties of the static tests: symmetry (`f(a, b) == f(b, a)`, and the AABB versions agree
//! with the OBB versions on the same box) and invariance (moving and turning both shapes
//! together changes nothing), away from the touching boundary. proptest, fixed seeds.

use crate::common::*;
use collide::overlap;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
use collide::{Quat, Vec3};
use collide_testkit::Gen;
use proptest::prelude::*;

fn dense(seed: u64) -> Gen {
    let mut g = Gen::new(seed);
    g.extent = 2.5;
    g
}

/// Separation of two boxes (f64 SAT), for skipping near-touching cases.
fn sep_boxes(a: &Box64, b: &Box64) -> f64 {
    sat_box_box(a, b)
}

#[test]
fn symmetric_pairs_and_aabb_obb_agreement() {
    let tally = Tally::default();
    runner(cases(3000, 100_000), 21)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let (a, b) = (g.obb(), g.obb());
            let (aa, ab) = (g.aabb(), g.aabb());
            let bw = 1e-3;
            // obb_obb both ways.
            let sep = sep_boxes(&Box64::from_obb(&a), &Box64::from_obb(&b));
            if sep.abs() > bw {
                prop_assert_eq!(overlap::obb_obb(&a, &b), overlap::obb_obb(&b, &a));
                tally.count(sep < 0.0);
            } else {
                tally.skip();
            }
            // aabb_obb == obb_obb with the AABB as an OBB, in both orders.
            let oa = Obb::from_aabb(&aa);
            let sep = sep_boxes(&Box64::from_aabb(&aa), &Box64::from_obb(&b));
            if sep.abs() > bw {
                let v = overlap::aabb_obb(&aa, &b);
                prop_assert_eq!(v, overlap::obb_obb(&oa, &b));
                prop_assert_eq!(v, overlap::obb_obb(&b, &oa));
            }
            // aabb_aabb both ways and as OBBs.
            let sep = sep_boxes(&Box64::from_aabb(&aa), &Box64::from_aabb(&ab));
            prop_assert_eq!(overlap::aabb_aabb(&aa, &ab), overlap::aabb_aabb(&ab, &aa));
            if sep.abs() > bw {
                prop_assert_eq!(
                    overlap::aabb_aabb(&aa, &ab),
                    overlap::obb_obb(&oa, &Obb::from_aabb(&ab))
                );
            }
            // Sphere, segment, triangle and plane against the AABB and against it as an OBB.
            let s = g.sphere();
            let (c, r) = sphere64(&s);
            if (Box64::from_aabb(&aa).distance(c) - r).abs() > bw {
                prop_assert_eq!(overlap::sphere_aabb(&s, &aa), overlap::sphere_obb(&s, &oa));
            }
            let seg = g.segment();
            let (p, q) = segment64(&seg);
            if (segment_box_distance(p, q, &Box64::from_aabb(&aa))).abs() > bw {
                prop_assert_eq!(
                    overlap::segment_aabb(&seg, &aa),
                    overlap::segment_obb(&seg, &oa)
                );
            }
            let t = g.triangle();
            let tri = [dv(t.a), dv(t.b), dv(t.c)];
            if sat_triangle_box(tri, &Box64::from_aabb(&aa)).abs() > bw {
                prop_assert_eq!(
                    overlap::triangle_aabb(&t, &aa),
                    overlap::triangle_obb(&t, &oa)
                );
            }
            let pl = g.plane();
            let ds = aa.corners().map(|x| plane_distance(&pl, dv(x)));
            let (lo, hi) = ds
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| {
                    (l.min(d), h.max(d))
                });
            if lo.max(-hi).abs() > bw {
                prop_assert_eq!(overlap::plane_aabb(&pl, &aa), overlap::plane_obb(&pl, &oa));
            }
            // Spheres, capsules both ways; a zero-length capsule is a sphere.
            let (s2, c1, c2) = (g.sphere(), g.capsule(), g.capsule());
            prop_assert_eq!(
                overlap::sphere_sphere(&s, &s2),
                overlap::sphere_sphere(&s2, &s)
            );
            prop_assert_eq!(
                overlap::capsule_sphere(&c1, &s),
                overlap::sphere_capsule(&s, &c1)
            );
            let (a0, a1, ra) = capsule64(&c1);
            let (b0, b1, rb) = capsule64(&c2);
            if (segment_segment_distance(a0, a1, b0, b1) - ra - rb).abs() > bw {
                prop_assert_eq!(
                    overlap::capsule_capsule(&c1, &c2),
                    overlap::capsule_capsule(&c2, &c1)
                );
            }
            let ball = Capsule::new(s2.center, s2.center, s2.radius);
            let (c2c, r2) = sphere64(&s2);
            if ((c2c - c).length() - r - r2).abs() > bw {
                prop_assert_eq!(
                    overlap::capsule_sphere(&ball, &s),
                    overlap::sphere_sphere(&s2, &s)
                );
                prop_assert_eq!(
                    overlap::capsule_capsule(&ball, &Capsule::new(s.center, s.center, s.radius)),
                    overlap::sphere_sphere(&s2, &s)
                );
            }
            Ok(())
        })
        .unwrap();
    tally.assert_balanced("obb_obb symmetry", 0.1);
}

/// A rigid motion: rotate by `q` about the origin, then translate by `t`.
#[derive(Clone, Copy, Debug)]
struct Motion {
    q: Quat,
    t: Vec3,
}

impl Motion {
    fn point(&self, p: Vec3) -> Vec3 {
        self.q * p + self.t
    }
    fn obb(&self, o: &Obb) -> Obb {
        Obb::new(self.point(o.center), self.q * o.rotation(), o.half_extents)
    }
    fn sphere(&self, s: &Sphere) -> Sphere {
        Sphere::new(self.point(s.center), s.radius)
    }
    fn segment(&self, s: &Segment) -> Segment {
        Segment::new(self.point(s.a), self.point(s.b))
    }
    fn capsule(&self, c: &Capsule) -> Capsule {
        Capsule::new(self.point(c.a), self.point(c.b), c.radius)
    }
    fn triangle(&self, t: &Triangle) -> Triangle {
        Triangle::new(self.point(t.a), self.point(t.b), self.point(t.c))
    }
    fn plane(&self, p: &Plane) -> Plane {
        // A point of the plane moves with it; the normal turns.
        let on = p.normal * -p.d;
        Plane::from_point_normal(self.point(on), self.q * p.normal)
    }
    fn aabb(&self, b: &Aabb) -> Aabb {
        // Translation only: an AABB turned is not an AABB.
        Aabb::new(b.min + self.t, b.max + self.t)
    }
}

#[test]
fn invariant_under_moving_and_turning_both_shapes() {
    let counted = std::cell::Cell::new(0usize);
    runner(cases(2000, 50_000), 22)
        .run(&any::<u64>(), |seed| {
            let mut g = dense(seed);
            let m = Motion {
                q: g.quat(),
                t: g.vec(20.0),
            };
            // Away from touching: 1e-3 (the motion itself rounds at ~1e-6 of 20).
            let bw = 1e-3;
            let (a, b) = (g.obb(), g.obb());
            if sat_box_box(&Box64::from_obb(&a), &Box64::from_obb(&b)).abs() > bw {
                prop_assert_eq!(
                    overlap::obb_obb(&a, &b),
                    overlap::obb_obb(&m.obb(&a), &m.obb(&b))
                );
                counted.set(counted.get() + 1);
            }
            let s = g.sphere();
            let (c, r) = sphere64(&s);
            if (Box64::from_obb(&a).distance(c) - r).abs() > bw {
                prop_assert_eq!(
                    overlap::sphere_obb(&s, &a),
                    overlap::sphere_obb(&m.sphere(&s), &m.obb(&a))
                );
            }
            let seg = g.segment();
            let (p, q) = segment64(&seg);
            if segment_box_distance(p, q, &Box64::from_obb(&a)).abs() > bw {
                prop_assert_eq!(
                    overlap::segment_obb(&seg, &a),
                    overlap::segment_obb(&m.segment(&seg), &m.obb(&a))
                );
            }
            let t = g.triangle();
            let tri = [dv(t.a), dv(t.b), dv(t.c)];
            if sat_triangle_box(tri, &Box64::from_obb(&a)).abs() > bw {
                prop_assert_eq!(
                    overlap::triangle_obb(&t, &a),
                    overlap::triangle_obb(&m.triangle(&t), &m.obb(&a))
                );
            }
            if ((triangle_closest(c, tri) - c).length() - r).abs() > bw {
                prop_assert_eq!(
                    overlap::sphere_triangle(&s, &t),
                    overlap::sphere_triangle(&m.sphere(&s), &m.triangle(&t))
                );
            }
            let (c1, c2) = (g.capsule(), g.capsule());
            let (a0, a1, ra) = capsule64(&c1);
            let (b0, b1, rb) = capsule64(&c2);
            if (segment_segment_distance(a0, a1, b0, b1) - ra - rb).abs() > bw {
                prop_assert_eq!(
                    overlap::capsule_capsule(&c1, &c2),
                    overlap::capsule_capsule(&m.capsule(&c1), &m.capsule(&c2))
                );
            }
            if (point_segment_distance(c, a0, a1) - ra - r).abs() > bw {
                prop_assert_eq!(
                    overlap::capsule_sphere(&c1, &s),
                    overlap::capsule_sphere(&m.capsule(&c1), &m.sphere(&s))
                );
            }
            let s2 = g.sphere();
            let (c2c, r2) = sphere64(&s2);
            if ((c2c - c).length() - r - r2).abs() > bw {
                prop_assert_eq!(
                    overlap::sphere_sphere(&s, &s2),
                    overlap::sphere_sphere(&m.sphere(&s), &m.sphere(&s2))
                );
            }
            let pl = g.plane();
            let ds = a.corners().map(|x| plane_distance(&pl, dv(x)));
            let (lo, hi) = ds
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &d| {
                    (l.min(d), h.max(d))
                });
            if lo.max(-hi).abs() > bw {
                prop_assert_eq!(
                    overlap::plane_obb(&pl, &a),
                    overlap::plane_obb(&m.plane(&pl), &m.obb(&a))
                );
            }
            if (plane_distance(&pl, c).abs() - r).abs() > bw {
                prop_assert_eq!(
                    overlap::plane_sphere(&pl, &s),
                    overlap::plane_sphere(&m.plane(&pl), &m.sphere(&s))
                );
            }
            // AABB pairs: translation only.
            let (ba, bb) = (g.aabb(), g.aabb());
            if sat_box_box(&Box64::from_aabb(&ba), &Box64::from_aabb(&bb)).abs() > bw {
                prop_assert_eq!(
                    overlap::aabb_aabb(&ba, &bb),
                    overlap::aabb_aabb(&m.aabb(&ba), &m.aabb(&bb))
                );
            }
            if (Box64::from_aabb(&ba).distance(c) - r).abs() > bw {
                prop_assert_eq!(
                    overlap::sphere_aabb(&s, &ba),
                    overlap::sphere_aabb(&s.translated(m.t), &m.aabb(&ba))
                );
            }
            Ok(())
        })
        .unwrap();
    assert!(counted.get() > 1000, "too few cases away from touching");
}
