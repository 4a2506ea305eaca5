//! The bad-input rule of `collide::overlap` (see the module docs), checked for every function:
//! a NaN in any field of either shape gives `false`; infinities never panic; zero sizes are
//! real shapes; negative sizes given to constructors mean their absolute values; an empty AABB
//! touches nothing; non-unit quaternions and plane normals give the same answers.

use crate::common;

use crate::common::cases;
use collide::overlap;
use collide::shapes::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};
use collide::{Mat3, Quat, Vec3};
use collide_testkit::Gen;

/// A shape whose `f32` fields can be listed and replaced one at a time.
trait Fields: Copy + std::fmt::Debug {
    fn fields(&self) -> Vec<f32>;
    fn with_fields(&self, f: &[f32]) -> Self;
    /// This shape with field `i` set to `x`.
    fn with(&self, i: usize, x: f32) -> Self {
        let mut f = self.fields();
        f[i] = x;
        self.with_fields(&f)
    }
}

fn v3(f: &[f32]) -> Vec3 {
    Vec3::new(f[0], f[1], f[2])
}

impl Fields for Sphere {
    fn fields(&self) -> Vec<f32> {
        let mut v = self.center.to_array().to_vec();
        v.push(self.radius);
        v
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Sphere {
            center: v3(&f[0..3]),
            radius: f[3],
        }
    }
}

impl Fields for Aabb {
    fn fields(&self) -> Vec<f32> {
        [self.min.to_array(), self.max.to_array()].concat()
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Aabb {
            min: v3(&f[0..3]),
            max: v3(&f[3..6]),
        }
    }
}

impl Fields for Obb {
    fn fields(&self) -> Vec<f32> {
        [
            self.center.to_array().to_vec(),
            self.axes.to_cols_array().to_vec(),
            self.half_extents.to_array().to_vec(),
        ]
        .concat()
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Obb {
            center: v3(&f[0..3]),
            axes: Mat3::from_cols_slice(&f[3..12]),
            half_extents: v3(&f[12..15]),
        }
    }
}

impl Fields for Segment {
    fn fields(&self) -> Vec<f32> {
        [self.a.to_array(), self.b.to_array()].concat()
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Segment::new(v3(&f[0..3]), v3(&f[3..6]))
    }
}

impl Fields for Capsule {
    fn fields(&self) -> Vec<f32> {
        let mut v = [self.a.to_array(), self.b.to_array()].concat();
        v.push(self.radius);
        v
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Capsule {
            a: v3(&f[0..3]),
            b: v3(&f[3..6]),
            radius: f[6],
        }
    }
}

impl Fields for Triangle {
    fn fields(&self) -> Vec<f32> {
        [self.a.to_array(), self.b.to_array(), self.c.to_array()].concat()
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Triangle::new(v3(&f[0..3]), v3(&f[3..6]), v3(&f[6..9]))
    }
}

impl Fields for Plane {
    fn fields(&self) -> Vec<f32> {
        let mut v = self.normal.to_array().to_vec();
        v.push(self.d);
        v
    }
    fn with_fields(&self, f: &[f32]) -> Self {
        Plane {
            normal: v3(&f[0..3]),
            d: f[3],
        }
    }
}

/// Base shapes, all around the origin, every pair of them overlapping.
fn sphere() -> Sphere {
    Sphere::new(Vec3::new(0.1, -0.2, 0.3), 1.0)
}
fn aabb() -> Aabb {
    Aabb::new(Vec3::new(-1.0, -0.5, -0.8), Vec3::new(0.9, 1.2, 0.7))
}
fn obb() -> Obb {
    Obb::new(
        Vec3::new(0.2, 0.1, -0.1),
        Quat::from_euler(glam::EulerRot::XYZ, 0.4, -0.3, 0.9),
        Vec3::new(1.0, 0.6, 0.8),
    )
}
fn segment() -> Segment {
    Segment::new(Vec3::new(-2.0, 0.1, 0.2), Vec3::new(2.0, -0.1, 0.1))
}
fn capsule() -> Capsule {
    Capsule::new(Vec3::new(0.0, -2.0, 0.1), Vec3::new(0.2, 2.0, 0.0), 0.5)
}
fn triangle() -> Triangle {
    Triangle::new(
        Vec3::new(-2.0, -1.0, 0.1),
        Vec3::new(2.0, -1.0, 0.0),
        Vec3::new(0.0, 2.0, -0.1),
    )
}
fn plane() -> Plane {
    Plane::from_point_normal(Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.2, 1.0, 0.1))
}

/// For `f(a, b)` on overlapping base shapes: NaN in any single field of either gives `false`;
/// ±infinity and ±f32::MAX in any field never panic.
fn check<A: Fields, B: Fields>(name: &str, f: fn(&A, &B) -> bool, a: A, b: B) {
    assert!(f(&a, &b), "{name}: the base shapes must overlap");
    for i in 0..a.fields().len() {
        assert!(
            !f(&a.with(i, f32::NAN), &b),
            "{name}: NaN in field {i} of A"
        );
        for x in [f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -f32::MAX, 0.0] {
            let _ = f(&a.with(i, x), &b);
        }
    }
    for i in 0..b.fields().len() {
        assert!(
            !f(&a, &b.with(i, f32::NAN)),
            "{name}: NaN in field {i} of B"
        );
        for x in [f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -f32::MAX, 0.0] {
            let _ = f(&a, &b.with(i, x));
        }
    }
    // Everything NaN at once.
    let an = a.with_fields(&vec![f32::NAN; a.fields().len()]);
    let bn = b.with_fields(&vec![f32::NAN; b.fields().len()]);
    assert!(
        !f(&an, &b) && !f(&a, &bn) && !f(&an, &bn),
        "{name}: all NaN"
    );
}

#[test]
fn nan_in_any_field_gives_false_and_infinities_never_panic() {
    check("sphere_sphere", overlap::sphere_sphere, sphere(), sphere());
    check("aabb_aabb", overlap::aabb_aabb, aabb(), aabb());
    check("sphere_aabb", overlap::sphere_aabb, sphere(), aabb());
    check("sphere_obb", overlap::sphere_obb, sphere(), obb());
    check("obb_obb", overlap::obb_obb, obb(), obb());
    check("aabb_obb", overlap::aabb_obb, aabb(), obb());
    check("segment_aabb", overlap::segment_aabb, segment(), aabb());
    check("segment_obb", overlap::segment_obb, segment(), obb());
    check("plane_sphere", overlap::plane_sphere, plane(), sphere());
    check("plane_aabb", overlap::plane_aabb, plane(), aabb());
    check("plane_obb", overlap::plane_obb, plane(), obb());
    check("plane_capsule", overlap::plane_capsule, plane(), capsule());
    check(
        "capsule_capsule",
        overlap::capsule_capsule,
        capsule(),
        capsule(),
    );
    check(
        "capsule_sphere",
        overlap::capsule_sphere,
        capsule(),
        sphere(),
    );
    check(
        "sphere_capsule",
        overlap::sphere_capsule,
        sphere(),
        capsule(),
    );
    check(
        "sphere_triangle",
        overlap::sphere_triangle,
        sphere(),
        triangle(),
    );
    check("triangle_aabb", overlap::triangle_aabb, triangle(), aabb());
    check("triangle_obb", overlap::triangle_obb, triangle(), obb());
}

#[test]
fn infinities_where_the_answer_is_defined() {
    let everything = Aabb::new(Vec3::NEG_INFINITY, Vec3::INFINITY);
    // An infinite box contains every finite shape.
    assert!(overlap::aabb_aabb(&everything, &aabb()));
    assert!(overlap::sphere_aabb(&sphere(), &everything));
    // A shape at infinity touches no finite shape.
    let far = Sphere::new(Vec3::new(f32::INFINITY, 0.0, 0.0), 1.0);
    assert!(!overlap::sphere_sphere(&far, &sphere()));
    assert!(!overlap::sphere_aabb(&far, &aabb()));
    assert!(!overlap::sphere_obb(&far, &obb()));
    let far_box = Obb::new(
        Vec3::new(0.0, f32::INFINITY, 0.0),
        Quat::IDENTITY,
        Vec3::ONE,
    );
    assert!(!overlap::obb_obb(&far_box, &obb()));
    assert!(!overlap::aabb_obb(&aabb(), &far_box));
    // An infinitely large sphere contains every finite point.
    let huge = Sphere::new(Vec3::ZERO, f32::INFINITY);
    assert!(overlap::sphere_sphere(
        &huge,
        &Sphere::new(Vec3::splat(1e30), 0.0)
    ));
}

#[test]
fn zero_sizes_are_real_shapes() {
    // A zero-radius sphere is a point: inside, on the boundary, outside.
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert!(overlap::sphere_aabb(
        &Sphere::new(Vec3::splat(0.5), 0.0),
        &b
    ));
    assert!(overlap::sphere_aabb(&Sphere::new(Vec3::ONE, 0.0), &b));
    assert!(!overlap::sphere_aabb(
        &Sphere::new(Vec3::splat(1.01), 0.0),
        &b
    ));
    // Two points: equal or not.
    let p = Sphere::new(Vec3::ONE, 0.0);
    assert!(overlap::sphere_sphere(&p, &p));
    assert!(!overlap::sphere_sphere(
        &p,
        &Sphere::new(Vec3::splat(1.001), 0.0)
    ));
    // A box with zero extents (a point) inside another box, and a flat one across it.
    let point_box = Obb::new(Vec3::splat(0.5), Quat::from_rotation_x(0.3), Vec3::ZERO);
    assert!(overlap::aabb_obb(&b, &point_box));
    assert!(overlap::obb_obb(&point_box, &Obb::from_aabb(&b)));
    let sheet = Obb::new(
        Vec3::new(0.5, 0.5, 3.0),
        Quat::IDENTITY,
        Vec3::new(5.0, 5.0, 0.0),
    );
    assert!(!overlap::aabb_obb(&b, &sheet));
    let sheet = Obb::new(
        Vec3::new(0.5, 0.5, 1.0),
        Quat::IDENTITY,
        Vec3::new(5.0, 5.0, 0.0),
    );
    assert!(overlap::aabb_obb(&b, &sheet));
    assert!(overlap::plane_obb(
        &Plane::from_point_normal(Vec3::new(0.0, 0.0, 1.0), Vec3::Z),
        &sheet
    ));
    // A flat AABB touching a plane it lies in; a zero-radius capsule is its segment.
    let flat = Aabb::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0));
    assert!(overlap::plane_aabb(
        &Plane::from_point_normal(Vec3::ZERO, Vec3::Y),
        &flat
    ));
    let seg = Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.0);
    assert!(overlap::capsule_capsule(
        &seg,
        &Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.0)
    ));
    assert!(!overlap::capsule_capsule(
        &seg,
        &Capsule::new(Vec3::new(0.0, -1.0, 0.1), Vec3::new(0.0, 1.0, 0.1), 0.0)
    ));
    // A point triangle and a zero-length segment.
    let pt = Triangle::new(Vec3::splat(0.5), Vec3::splat(0.5), Vec3::splat(0.5));
    assert!(overlap::triangle_aabb(&pt, &b));
    assert!(overlap::segment_obb(
        &Segment::new(Vec3::splat(0.5), Vec3::splat(0.5)),
        &Obb::from_aabb(&b)
    ));
}

#[test]
fn empty_aabb_touches_nothing() {
    let e = Aabb::EMPTY;
    let inverted = Aabb {
        min: Vec3::new(1.0, -1.0, -1.0),
        max: Vec3::new(-1.0, 1.0, 1.0),
    };
    for b in [e, inverted] {
        assert!(!overlap::aabb_aabb(&b, &aabb()) && !overlap::aabb_aabb(&aabb(), &b));
        assert!(!overlap::sphere_aabb(&Sphere::new(Vec3::ZERO, 10.0), &b));
        assert!(!overlap::aabb_obb(&b, &obb()));
        assert!(!overlap::segment_aabb(&segment(), &b));
        assert!(!overlap::plane_aabb(&plane(), &b));
        assert!(!overlap::triangle_aabb(&triangle(), &b));
    }
}

#[test]
fn negative_sizes_and_unnormalised_inputs_through_constructors() {
    // Constructors take absolute values, sort corners and normalise, so every test answers
    // for the shape the caller meant.
    let mut g = Gen::new(0xBAD1);
    for _ in 0..cases(2000, 50_000) {
        let (s, o, c) = (g.sphere(), g.obb(), g.capsule());
        let s_neg = Sphere::new(s.center, -s.radius);
        let o_neg = Obb::new(o.center, o.rotation() * -3.7, -o.half_extents);
        let c_neg = Capsule::new(c.a, c.b, -c.radius);
        let b = g.aabb();
        let b_swapped = Aabb::new(b.max, b.min);
        let b_mixed = Aabb::from_center_half_extents(b.center(), -b.half_extents());
        assert_eq!(s_neg, s);
        assert_eq!(c_neg, c);
        assert_eq!(b_swapped, b);
        assert_eq!(
            overlap::sphere_obb(&s_neg, &o_neg),
            overlap::sphere_obb(&s, &o_neg)
        );
        assert_eq!(
            overlap::aabb_obb(&b_mixed, &o_neg),
            overlap::aabb_obb(&b, &o_neg)
        );
        assert_eq!(
            overlap::capsule_sphere(&c_neg, &s_neg),
            overlap::capsule_sphere(&c, &s)
        );
        // The OBB built from a scaled, negated quaternion and negative extents is the same
        // box up to the rounding of the normalisation: same verdict away from touching.
        assert_eq!(o_neg.half_extents, o.half_extents);
        assert!(o_neg.axes.abs_diff_eq(o.axes, 1e-5));
        let gap = common::Box64::from_obb(&o).distance(common::dv(s.center)) - f64::from(s.radius);
        if gap.abs() > 1e-4 {
            assert_eq!(overlap::sphere_obb(&s, &o_neg), overlap::sphere_obb(&s, &o));
        }
        // A plane with a non-unit normal written into its fields gives the same answers.
        let p = g.plane();
        let p3 = Plane {
            normal: p.normal * 3.0,
            d: p.d * 3.0,
        };
        let d = p.signed_distance(s.center).abs() - s.radius;
        if d.abs() > 1e-4 {
            assert_eq!(
                overlap::plane_sphere(&p, &s),
                overlap::plane_sphere(&p3, &s)
            );
        }
    }
    // A zero quaternion gives NaN axes: a box that touches nothing.
    let z = Obb::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ONE);
    assert!(!overlap::obb_obb(&z, &obb()) && !overlap::sphere_obb(&sphere(), &z));
    // A zero plane normal through the constructor: a NaN plane, which touches nothing.
    let zp = Plane::from_point_normal(Vec3::ZERO, Vec3::ZERO);
    assert!(!overlap::plane_sphere(&zp, &sphere()) && !overlap::plane_obb(&zp, &obb()));
}
