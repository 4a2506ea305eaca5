//! Triangle × {AABB, OBB}: the 13-axis separating-axis test (Akenine-Möller 2001).

use crate::math::{Mat3A, Vec3A, PARALLEL_EPSILON};
use crate::shapes::{Aabb, Obb, Triangle};
use glam::Vec3Swizzles;

/// `true` when the (filled) triangle touches or overlaps the axis-aligned box.
///
/// Akenine-Möller's separating-axis test (*Fast 3D triangle-box overlap testing*, JGT 2001;
/// Ericson RTCD §5.2.9): the box's 3 face normals, the triangle's normal, and the 9 cross
/// products of a box axis with a triangle edge, with the triangle moved so the box is centred
/// at the origin. A degenerate triangle (collinear or coincident corners) gets the exact answer
/// for the segment or point it is: its normal is zero, which separates nothing, and the
/// remaining axes are those of that segment. Every axis gets a slack of `PARALLEL_EPSILON`
/// times the problem's size, so a triangle lying on a face still touches after rounding;
/// triangles within about `1e-6` of that size count as touching. Touching counts; an empty box
/// touches nothing; NaN gives `false`.
#[inline]
#[must_use]
pub fn triangle_aabb(t: &Triangle, b: &Aabb) -> bool {
    let (lo, hi) = (Vec3A::from(b.min), Vec3A::from(b.max));
    let (c, e) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
    if !e.cmpge(Vec3A::ZERO).all() {
        return false; // empty (or NaN) box
    }
    triangle_box_local(
        [
            Vec3A::from(t.a) - c,
            Vec3A::from(t.b) - c,
            Vec3A::from(t.c) - c,
        ],
        e,
    )
}

/// `true` when the (filled) triangle touches or overlaps the oriented box.
///
/// The corners go into box space (`Aᵀ (v - c)`), then the 13-axis test of [`triangle_aabb`].
/// Touching counts; degenerate triangles are exact; NaN gives `false`.
#[inline]
#[must_use]
pub fn triangle_obb(t: &Triangle, b: &Obb) -> bool {
    let mt = Mat3A::from(b.axes).transpose();
    let c = Vec3A::from(b.center);
    triangle_box_local(
        [
            mt * (Vec3A::from(t.a) - c),
            mt * (Vec3A::from(t.b) - c),
            mt * (Vec3A::from(t.c) - c),
        ],
        Vec3A::from(b.half_extents),
    )
}

/// The 13-axis test of a triangle `v` and the box `[-e, e]`, in box space.
#[inline(always)]
fn triangle_box_local(v: [Vec3A; 3], e: Vec3A) -> bool {
    // The `min`/`max` below would swallow a NaN; a NaN anywhere makes this sum NaN.
    if (v[0] + v[1] + v[2] + e).is_nan() {
        return false;
    }

    // Every axis below gets a slack of ε times the problem's size (times the axis' length),
    // like the OBB and segment tests: the corners' box-space coordinates carry rounding of
    // that order, and a triangle lying on a face or along an edge must still touch. The test
    // errs toward "touching" by about 1e-6 of the size.
    let vmin = v[0].min(v[1]).min(v[2]);
    let vmax = v[0].max(v[1]).max(v[2]);
    let size = e.element_sum() + vmax.abs().max(vmin.abs()).element_sum();
    let slack = PARALLEL_EPSILON * size;

    // Box face normals: the triangle's bounding interval on each axis meets [-e_i, e_i].
    let ex = e + Vec3A::splat(slack);
    if !(vmin.cmple(ex) & vmax.cmpge(-ex)).all() {
        return false;
    }

    // Triangle normal n = f0 × f1: the box–plane test, |n·v| <= Σ e_i |n_i|, but with all
    // three corners projected. For a nearly collinear triangle the computed n is mostly
    // rounding noise and not perpendicular to the edges; projecting only v0 (as if
    // n·v0 = n·v1 = n·v2) can then report a false separation. Projecting every corner makes
    // the test valid for whatever axis n turned out to be (a zero n separates nothing).
    let f = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let n = f[0].cross(f[1]);
    let (q0, q1, q2) = (n.dot(v[0]), n.dot(v[1]), n.dot(v[2]));
    let an = n.abs();
    let rn = e.dot(an) + slack * an.element_sum();
    if q0.min(q1).min(q2) > rn || q0.max(q1).max(q2) < -rn {
        return false;
    }

    // Cross axes L = e_i × f_j. For a vertex v, (e_i × f)·v = e_i·(f × v), so the projections
    // of a vertex on the three axes e_x × f, e_y × f, e_z × f are the components of f × v.
    // The box's radius on e_i × f is Σ_k e_k |(e_i × f)_k|:
    //   e_x × f = (0, -f_z, f_y):  e_y |f_z| + e_z |f_y|
    //   e_y × f = (f_z, 0, -f_x):  e_x |f_z| + e_z |f_x|
    //   e_z × f = (-f_y, f_x, 0):  e_x |f_y| + e_y |f_x|
    // i.e. r = e.yzx·|f|.zxy + e.zxy·|f|.yzx, all three axes at once.
    for fj in f {
        let p0 = fj.cross(v[0]);
        let p1 = fj.cross(v[1]);
        let p2 = fj.cross(v[2]);
        let af = fj.abs();
        let r = e.yzx() * af.zxy() + e.zxy() * af.yzx() + Vec3A::splat(slack * af.element_sum());
        let pmin = p0.min(p1).min(p2);
        let pmax = p0.max(p1).max(p2);
        if !(pmin.cmple(r) & pmax.cmpge(-r)).all() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Quat, Vec3};

    fn unit_box() -> Aabb {
        Aabb::from_center_half_extents(Vec3::ZERO, Vec3::ONE)
    }

    #[test]
    fn face_plane_and_edge_axes() {
        // A big triangle through the box centre: overlaps.
        let t = Triangle::new(
            Vec3::new(-5.0, -5.0, 0.0),
            Vec3::new(5.0, -5.0, 0.0),
            Vec3::new(0.0, 5.0, 0.0),
        );
        assert!(triangle_aabb(&t, &unit_box()));
        // The same lifted to z = 1: touching the top face; to z = 1.01: separated by the
        // box's z axis.
        let lift = |z: f32| Triangle::new(t.a + Vec3::Z * z, t.b + Vec3::Z * z, t.c + Vec3::Z * z);
        assert!(triangle_aabb(&lift(1.0), &unit_box()));
        assert!(!triangle_aabb(&lift(1.01), &unit_box()));
        // A tilted triangle whose plane clears the corner (1, 1, 1): only its normal
        // separates. Plane x + y + z = 3.05, corners on the axes.
        let k = 3.05;
        let tilted = Triangle::new(
            Vec3::new(k, 0.0, 0.0),
            Vec3::new(0.0, k, 0.0),
            Vec3::new(0.0, 0.0, k),
        );
        assert!(!triangle_aabb(&tilted, &unit_box()));
        let k = 2.95;
        let tilted = Triangle::new(
            Vec3::new(k, 0.0, 0.0),
            Vec3::new(0.0, k, 0.0),
            Vec3::new(0.0, 0.0, k),
        );
        assert!(triangle_aabb(&tilted, &unit_box()));
        // A vertical triangle in the plane x + y = 2.1, beside the (1, 1, z) edge: separated.
        let past = Triangle::new(
            Vec3::new(0.0, 2.1, -3.0),
            Vec3::new(2.1, 0.0, -3.0),
            Vec3::new(1.05, 1.05, 3.0),
        );
        assert!(!triangle_aabb(&past, &unit_box()));
    }

    #[test]
    fn degenerate_triangles_and_bad_input() {
        // Collinear corners: the segment, passing through the box.
        let seg = Triangle::new(
            Vec3::new(-3.0, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::ZERO,
        );
        assert!(triangle_aabb(&seg, &unit_box()));
        // A point just outside, a point on a corner.
        let p = Triangle::new(Vec3::splat(1.01), Vec3::splat(1.01), Vec3::splat(1.01));
        assert!(!triangle_aabb(&p, &unit_box()));
        let p = Triangle::new(Vec3::ONE, Vec3::ONE, Vec3::ONE);
        assert!(triangle_aabb(&p, &unit_box()));
        assert!(!triangle_aabb(
            &Triangle::new(Vec3::NAN, Vec3::ZERO, Vec3::ONE),
            &unit_box()
        ));
        assert!(!triangle_aabb(&seg, &Aabb::EMPTY));
    }

    #[test]
    fn triangle_obb_matches_rotated_frame() {
        // Turning the box and the triangle together changes nothing.
        let q = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -0.7, 1.1);
        let o = Obb::new(Vec3::new(1.0, 2.0, 3.0), q, Vec3::ONE);
        let k = 3.05;
        let tri = |k: f32| {
            let [a, b, c] = [
                Vec3::new(k, 0.0, 0.0),
                Vec3::new(0.0, k, 0.0),
                Vec3::new(0.0, 0.0, k),
            ]
            .map(|v| o.to_world(v));
            Triangle::new(a, b, c)
        };
        assert!(!triangle_obb(&tri(k), &o));
        assert!(triangle_obb(&tri(2.95), &o));
    }
}
