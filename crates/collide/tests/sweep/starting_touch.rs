//! The sweeps' starting-touch rule (module docs of `collide::sweep`, "Starting touch"): shapes
//! that touch or overlap at `u = 0` hit (at `enter = 0`) only when the relative motion
//! approaches along the reported normal; moving away, along the contact or not at all is no
//! hit. One named case per sweep, the mesh casts per triangle, the touching gap of
//! `sweep::convex` at large coordinates, and a property test over random starting contacts.

use collide::convex::{contact::contact, Posed, SupportMap};
use collide::mesh::{Heightfield, MeshCollider};
use collide::shapes::{Aabb, Capsule, Obb, Plane, Sphere, TriMesh, Triangle};
use collide::sweep::{self, Sweep, ALONG_TOLERANCE};
use collide::{Quat, Vec3};
use collide_testkit::Gen;

/// Asserts the three motions of one starting contact: `deeper` hits at 0, `away` and `along`
/// (and no motion) do not. `sweep(m)` sweeps with B moving by `m` relative to A.
fn away_along_deeper(
    what: &str,
    sweep: impl Fn(Vec3) -> Option<Sweep>,
    away: Vec3,
    along: Vec3,
    deeper: Vec3,
) {
    assert_eq!(sweep(away), None, "{what}: moving away");
    assert_eq!(sweep(along), None, "{what}: moving along");
    assert_eq!(sweep(Vec3::ZERO), None, "{what}: not moving");
    let s = sweep(deeper).unwrap_or_else(|| panic!("{what}: moving deeper is a hit"));
    assert_eq!(s.enter, 0.0, "{what}: {s:?}");
    assert!(s.normal.dot(deeper) < 0.0, "{what}: {s:?}");
}

#[test]
fn every_sweep_follows_the_starting_touch_rule() {
    // Touching exactly: unit spheres 2 apart on x.
    let a = Sphere::new(Vec3::ZERO, 1.0);
    let b = Sphere::new(Vec3::new(2.0, 0.0, 0.0), 1.0);
    away_along_deeper(
        "sphere_sphere touching",
        |m| sweep::sphere_sphere(&a, Vec3::ZERO, &b, m),
        Vec3::X,
        Vec3::Y,
        -Vec3::X,
    );
    // Overlapping, with A moving too: only the relative motion counts.
    let b = Sphere::new(Vec3::new(1.5, 0.0, 0.0), 1.0);
    let ma = Vec3::new(0.3, -2.0, 0.7);
    away_along_deeper(
        "sphere_sphere overlapping",
        |m| sweep::sphere_sphere(&a, ma, &b, ma + m),
        Vec3::X,
        Vec3::Z,
        -Vec3::X,
    );
    // A sphere resting 0.1 deep on the ground plane (A is the sphere, B the plane: B's motion
    // relative to A is minus the sphere's motion).
    let ground = Plane::from_point_normal(Vec3::ZERO, Vec3::Y);
    let s = Sphere::new(Vec3::new(0.0, 0.9, 0.0), 1.0);
    away_along_deeper(
        "sphere_plane",
        |m| sweep::sphere_plane(&s, -m, &ground),
        -Vec3::Y,
        Vec3::X,
        Vec3::Y,
    );
    away_along_deeper(
        "sphere_plane_halfspace",
        |m| sweep::sphere_plane_halfspace(&s, -m, &ground),
        -Vec3::Y,
        Vec3::X,
        Vec3::Y,
    );
    // A box resting on a box (faces y = 1 touching).
    let floor = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 1.0, 5.0));
    let crate_ = Aabb::from_center_half_extents(Vec3::new(0.0, 1.5, 0.0), Vec3::splat(0.5));
    away_along_deeper(
        "aabb_aabb",
        |m| sweep::aabb_aabb(&floor, Vec3::ZERO, &crate_, m),
        Vec3::Y,
        Vec3::new(1.0, 0.0, 1.0),
        -Vec3::Y,
    );
    let q = Quat::from_rotation_y(0.4);
    let (fo, co) = (
        Obb::new(Vec3::ZERO, q, Vec3::new(5.0, 1.0, 5.0)),
        Obb::new(Vec3::new(0.0, 1.49, 0.0), q, Vec3::splat(0.5)),
    );
    away_along_deeper(
        "obb_obb",
        |m| sweep::obb_obb(&fo, Vec3::ZERO, &co, m),
        Vec3::Y,
        q * Vec3::X,
        -Vec3::Y,
    );
    // A ball resting 1 mm deep on a box (A is the ball).
    let ball = Sphere::new(Vec3::new(0.0, 1.499, 0.0), 0.5);
    away_along_deeper(
        "sphere_aabb",
        |m| sweep::sphere_aabb(&ball, Vec3::ZERO, &floor, m),
        -Vec3::Y,
        Vec3::X,
        Vec3::Y,
    );
    away_along_deeper(
        "sphere_obb",
        |m| sweep::sphere_obb(&ball, Vec3::ZERO, &fo, m),
        -Vec3::Y,
        Vec3::X,
        Vec3::Y,
    );
    let tri = Triangle::new(
        Vec3::new(-5.0, 1.0, -5.0),
        Vec3::new(5.0, 1.0, -5.0),
        Vec3::new(0.0, 1.0, 5.0),
    );
    away_along_deeper(
        "sphere_triangle",
        |m| sweep::sphere_triangle(&ball, Vec3::ZERO, &tri, m),
        -Vec3::Y,
        Vec3::X,
        Vec3::Y,
    );
    let pill = Capsule::new(Vec3::new(0.0, 1.5, 0.0), Vec3::new(0.0, 2.5, 0.0), 0.5);
    away_along_deeper(
        "convex capsule on a box",
        |m| sweep::convex(&floor, Vec3::ZERO, &pill, m),
        Vec3::Y,
        Vec3::new(3.0, 0.0, -1.0),
        -Vec3::Y,
    );
    let id = Quat::IDENTITY;
    away_along_deeper(
        "obb_obb_rotating without rotation",
        |m| {
            sweep::obb_obb_rotating(
                Vec3::new(5.0, 1.0, 5.0),
                (Vec3::ZERO, id),
                (Vec3::ZERO, id),
                Vec3::splat(0.5),
                (Vec3::new(0.0, 1.5, 0.0), id),
                (Vec3::new(0.0, 1.5, 0.0) + m, id),
            )
        },
        Vec3::Y,
        Vec3::X,
        -Vec3::Y,
    );
}

// A box resting on a floor box: spinning about the contact normal slides along the floor (no
// hit); tilting about a horizontal axis through its centre lowers one bottom edge into the
// floor (a hit at 0), though the centre of the contact patch only moves sideways.
#[test]
fn rotating_boxes_decide_by_the_rate_of_the_gap_with_rotation() {
    let id = Quat::IDENTITY;
    let floor = Vec3::new(5.0, 1.0, 5.0);
    let c = Vec3::new(0.0, 1.5, 0.0);
    let spin = Quat::from_rotation_y(1.0);
    let w = sweep::obb_obb_rotating(
        floor,
        (Vec3::ZERO, id),
        (Vec3::ZERO, id),
        Vec3::splat(0.5),
        (c, id),
        (c, spin),
    );
    assert_eq!(w, None, "spinning in the contact plane");
    let tilt = Quat::from_rotation_z(0.3);
    let w = sweep::obb_obb_rotating(
        floor,
        (Vec3::ZERO, id),
        (Vec3::ZERO, id),
        Vec3::splat(0.5),
        (c, id),
        (c, tilt),
    )
    .expect("tilting digs an edge in");
    assert_eq!(w.enter, 0.0);
    assert!((w.normal - Vec3::Y).length() < 1e-4, "{w:?}");
    // Tilting while lifting faster than the edge comes down (edge speed 0.5 · 0.3 = 0.15 per
    // frame, lift 0.5): moving apart.
    let w = sweep::obb_obb_rotating(
        floor,
        (Vec3::ZERO, id),
        (Vec3::ZERO, id),
        Vec3::splat(0.5),
        (c, id),
        (c + Vec3::Y * 0.5, tilt),
    );
    assert_eq!(w, None, "lifting off while tilting");
}

// Guards: a capsule 1 cm above a floor box 2,000 m wide is not touching it. The touching gap
// is 1e-5 of the smaller shape, or a few ulps of the coordinates, so 1 cm at 1,000 m is a gap;
// 1e-5 of the sum of both shapes' extents (2 cm here) would call it touching, and a capsule
// moving down would hit the floor at 0 instead of when the 1 cm closes.
#[test]
fn capsule_one_centimetre_above_a_kilometre_floor_is_not_touching() {
    for half in [500.0f32, 1000.0] {
        let floor = Obb::new(
            Vec3::new(0.0, -0.5, 0.0),
            Quat::IDENTITY,
            Vec3::new(half, 0.5, half),
        );
        let pill = Capsule::new(Vec3::new(0.0, 0.31, 0.0), Vec3::new(0.0, 1.51, 0.0), 0.3);
        // Up, sideways: never closer than 1 cm.
        assert_eq!(
            sweep::convex(&floor, Vec3::ZERO, &pill, Vec3::Y),
            None,
            "{half}"
        );
        assert_eq!(
            sweep::convex(&floor, Vec3::ZERO, &pill, Vec3::new(2.0, 0.0, 1.0)),
            None,
            "{half}"
        );
        // Down by 0.5: the 1 cm closes at u = 0.02, not at 0.
        let s = sweep::convex(&floor, Vec3::ZERO, &pill, Vec3::new(0.0, -0.5, 0.0)).unwrap();
        assert!((s.enter - 0.02).abs() < 1e-4, "{half}: {s:?}");
        assert!((s.normal - Vec3::Y).length() < 1e-4, "{half}: {s:?}");
    }
}

// The same far from the origin: a 5 mm gap at x = 1,000 (ulp 6e-5; the touching gap there is
// 2e-6 of the coordinates, 2 mm) is a gap; 1 mm is touching.
#[test]
fn a_five_millimetre_gap_far_from_the_origin_is_a_gap() {
    let o = Vec3::new(1000.0, 0.0, 1000.0);
    let block = Obb::new(o, Quat::IDENTITY, Vec3::splat(0.5));
    let ball = Sphere::new(o + Vec3::new(0.0, 1.005, 0.0), 0.5);
    assert_eq!(sweep::convex(&block, Vec3::ZERO, &ball, Vec3::X), None);
    let s = sweep::convex(&block, Vec3::ZERO, &ball, -Vec3::Y * 0.01).unwrap();
    assert!(s.enter > 0.25 && s.enter <= 0.5, "{s:?}");
    let touching = Sphere::new(o + Vec3::new(0.0, 1.001, 0.0), 0.5);
    let s = sweep::convex(&block, Vec3::ZERO, &touching, -Vec3::Y * 0.01).unwrap();
    assert_eq!(s.enter, 0.0);
}

/// A floor of two triangles (y = 0, 20 × 20) and a wall of two (x = 3, facing -x).
fn floor_and_wall() -> TriMesh {
    TriMesh::new(
        vec![
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(10.0, 0.0, -10.0),
            Vec3::new(10.0, 0.0, 10.0),
            Vec3::new(-10.0, 0.0, 10.0),
            Vec3::new(3.0, -1.0, -10.0),
            Vec3::new(3.0, 5.0, -10.0),
            Vec3::new(3.0, 5.0, 10.0),
            Vec3::new(3.0, -1.0, 10.0),
        ],
        vec![[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7]],
    )
}

// Per triangle: a capsule resting on the floor triangles (touching, then 1 mm deep) and
// moving along them toward the wall is not stopped by the floor at 0; it meets the wall.
#[test]
fn mesh_cast_slides_on_the_floor_and_meets_the_wall() {
    let mesh = MeshCollider::try_new(floor_and_wall()).unwrap();
    for sink in [0.0f32, 0.001] {
        let pill = Capsule::new(
            Vec3::new(0.0, 0.3 - sink, 0.0),
            Vec3::new(0.0, 1.5 - sink, 0.0),
            0.3,
        );
        // Toward the wall by 4: the capsule's side (x = 0.3) reaches x = 3 at u = 2.7 / 4.
        let hit = mesh
            .cast_shape(&pill, Vec3::new(4.0, 0.0, 0.0))
            .expect("the wall");
        assert!((hit.toi - 2.7 / 4.0).abs() < 1e-3, "sink {sink}: {hit:?}");
        assert!(
            (hit.normal + Vec3::X).length() < 1e-3,
            "sink {sink}: {hit:?}"
        );
        assert!(hit.triangle >= 2, "sink {sink}: {hit:?}");
        // Sliding away from the wall, or lifting off: nothing.
        assert_eq!(mesh.cast_shape(&pill, Vec3::new(-4.0, 0.0, 1.0)), None);
        assert_eq!(mesh.cast_shape(&pill, Vec3::new(0.0, 2.0, 0.0)), None);
        // Pressing into the floor: the floor, at 0.
        let hit = mesh.cast_shape(&pill, Vec3::new(1.0, -0.2, 0.0)).unwrap();
        assert_eq!(hit.toi, 0.0);
        assert!(
            hit.triangle < 2 && (hit.normal - Vec3::Y).length() < 1e-3,
            "{hit:?}"
        );
    }
    // A heightfield, flat at y = 0. A ball resting on it and sliding is not stopped at 0 by
    // the triangles under it; the triangles it reaches later are first touched then, along the
    // floor (per triangle: a new triangle's first contact is a contact). Pressing: at 0.
    let field = Heightfield::try_new(vec![0.0; 16], 4, 4, Vec3::new(10.0, 1.0, 10.0)).unwrap();
    let ball = Sphere::new(Vec3::new(0.2, 0.5, 0.1), 0.5);
    let slide = field.cast_shape(&ball, Vec3::new(3.0, 0.0, -2.0));
    assert!(
        slide.is_none_or(|h| h.toi > 0.1 && h.normal.y > 0.99),
        "{slide:?}"
    );
    assert_eq!(field.cast_shape(&ball, Vec3::new(0.0, 1.0, 0.0)), None);
    let hit = field.cast_shape(&ball, Vec3::new(3.0, -0.1, -2.0)).unwrap();
    assert_eq!(hit.toi, 0.0);
}

/// A unit normal the sweep reports at the start of `sweep`, found by probing motions; `None`
/// when no probe hits (then the case is skipped).
fn start_normal(sweep: &dyn Fn(Vec3) -> Option<Sweep>, probes: &[Vec3]) -> Option<Vec3> {
    probes
        .iter()
        .find_map(|&p| sweep(p).filter(|s| s.enter == 0.0).map(|s| s.normal))
}

/// The property for one pair that starts in contact: for random relative motions, a hit iff
/// `v · n < -ALONG_TOLERANCE · |v|`, with `n` the normal the sweep reports there (the same
/// for every motion); a hit is at `enter = 0`. Motions within 1e-5 of the threshold are left
/// out (f32 rounding of the normal). Returns (hits, misses) checked.
fn hits_iff_approaching(
    g: &mut Gen,
    what: &str,
    sweep: &dyn Fn(Vec3) -> Option<Sweep>,
    probes: &[Vec3],
) -> (usize, usize) {
    let Some(n) = start_normal(sweep, probes) else {
        return (0, 0);
    };
    let (mut hits, mut misses) = (0, 0);
    for k in 0..24 {
        let v = match k % 3 {
            // Near the contact plane: along, slightly in, slightly out.
            0 => {
                let t = (g.unit() - n * g.unit().dot(n)).normalize_or_zero();
                (t + n * g.range(-3e-4, 3e-4)) * g.range(0.1, 5.0)
            }
            _ => g.vec(5.0),
        };
        let rate = v.dot(n) / v.length().max(1e-30);
        if (rate + ALONG_TOLERANCE).abs() < 1e-5 || v == Vec3::ZERO {
            continue;
        }
        let got = sweep(v);
        let approaching = rate < -ALONG_TOLERANCE;
        assert_eq!(
            got.is_some(),
            approaching,
            "{what}: v {v}, n {n}, rate {rate}: {got:?}"
        );
        if let Some(s) = got {
            assert_eq!(s.enter, 0.0, "{what}: {s:?}");
            assert!(
                (s.normal - n).length() < 1e-4,
                "{what}: normal {s:?} vs {n}"
            );
            hits += 1;
        } else {
            misses += 1;
        }
    }
    (hits, misses)
}

/// Signed distance of two convex shapes (distance apart, minus the depth overlapping).
fn signed<A: SupportMap, B: SupportMap>(a: &A, b: &B) -> f32 {
    contact(a, b, 1e6).map_or(f32::INFINITY, |c| -c.depth)
}

#[test]
fn starting_contacts_hit_iff_the_motion_approaches_along_the_normal() {
    let mut g = Gen::new(2024);
    let (mut hits, mut misses) = (0, 0);
    let mut add = |(h, m): (usize, usize)| {
        hits += h;
        misses += m;
    };
    for case in 0..300 {
        let ma = g.vec(2.0);
        // B placed overlapping A (its centre within A's bound).
        let sa = g.sphere();
        let sb = Sphere::new(sa.center + g.vec(1.0) * sa.radius, g.range(0.2, 1.5));
        let probes = [sa.center - sb.center, Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y];
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} sphere_sphere"),
            &|v| sweep::sphere_sphere(&sa, ma, &sb, ma + v),
            &probes,
        ));
        let (ba, bb) = (g.aabb(), g.aabb());
        let shift = ba.center() - bb.center() + g.vec(0.5) * ba.half_extents();
        let bb = Aabb::new(bb.min + shift, bb.max + shift);
        let axes = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} aabb_aabb"),
            &|v| sweep::aabb_aabb(&ba, ma, &bb, ma + v),
            &axes,
        ));
        let (oa, mut ob) = (g.obb(), g.obb());
        ob.center = oa.center + g.vec(0.5) * oa.half_extents.min_element();
        let probes: Vec<Vec3> = [oa.axes.x_axis, oa.axes.y_axis, oa.axes.z_axis]
            .into_iter()
            .chain([ob.axes.x_axis, ob.axes.y_axis, ob.axes.z_axis])
            .flat_map(|a| [a, -a])
            .collect();
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} obb_obb"),
            &|v| sweep::obb_obb(&oa, ma, &ob, ma + v),
            &probes,
        ));
        let ball = Sphere::new(oa.center + g.vec(1.0) * oa.half_extents, g.range(0.1, 1.0));
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} sphere_obb"),
            &|v| sweep::sphere_obb(&ball, ma, &oa, ma + v),
            &probes,
        ));
        let tri = g.triangle();
        let on = tri.a * 0.3 + tri.b * 0.3 + tri.c * 0.4;
        let ball = Sphere::new(on + g.vec(0.5), g.range(0.6, 1.0));
        let tn = (tri.b - tri.a).cross(tri.c - tri.a).normalize_or_zero();
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} sphere_triangle"),
            &|v| sweep::sphere_triangle(&ball, ma, &tri, ma + v),
            &[tn, -tn, on - ball.center],
        ));
        // Convex: a capsule against a box, and the distance never falls when there is no hit.
        let pill = g.capsule();
        let mut box_ = g.obb();
        box_.center = pill.a + g.vec(0.5) * pill.radius;
        let convex = |v: Vec3| sweep::convex(&pill, ma, &box_, ma + v);
        let mut probes = probes.clone();
        probes.extend([pill.a - box_.center, pill.b - box_.center]);
        add(hits_iff_approaching(
            &mut g,
            &format!("{case} convex"),
            &convex,
            &probes,
        ));
        let s0 = signed(&pill, &box_);
        for _ in 0..6 {
            let v = g.vec(3.0);
            if convex(v).is_some() || s0 > 1e-4 {
                continue;
            }
            for k in 1..=40 {
                let u = k as f32 / 40.0;
                let s = signed(&pill, &Posed::translated(&box_, v * u));
                let slack = ALONG_TOLERANCE * v.length() * u + 1e-4;
                assert!(
                    s >= s0 - slack,
                    "{case} convex: None, deeper at {u}: {s} < {s0}"
                );
            }
        }
    }
    assert!(hits > 1000 && misses > 1000, "hits {hits}, misses {misses}");
}

/// Boxes overlapping with B centred on A along the axis of least penetration (here: the same
/// box), and boxes so large that rounding makes both faces of that axis equally near (the
/// fuzzer's input: a box of 2.6e36 moving by 2.7e7): the two ways out tie. The tie goes out
/// the side B came from, as for concentric spheres, so swapping A and B flips the normal and
/// keeps the verdict. Before, both orders took the `+` side, and one order hit at 0 while the
/// other did not.
#[test]
fn aabb_aabb_tied_penetration_is_symmetric() {
    let cube = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    let huge_a = Aabb::new(
        Vec3::splat(-2.6167546e36),
        Vec3::new(-26711958.0, -26711958.0, 0.0),
    );
    let huge_b = Aabb::new(Vec3::splat(-2.6167546e36), Vec3::new(-26712054.0, 0.0, 0.0));
    let cases = [
        (cube, cube, Vec3::X),
        (cube, cube, Vec3::new(-2.0, 0.0, 0.5)),
        (
            huge_a,
            huge_b,
            Vec3::new(26711958.0, 6.838261e9, 26711958.0),
        ),
    ];
    for (k, (a, b, v)) in cases.into_iter().enumerate() {
        let ab = sweep::aabb_aabb(&a, Vec3::ZERO, &b, v);
        let ba = sweep::aabb_aabb(&b, Vec3::ZERO, &a, -v);
        assert_eq!(ab.is_some(), ba.is_some(), "case {k}: {ab:?} / {ba:?}");
        if k < 2 {
            // Along x, the tied axis taken first: out the side B came from, so a hit at 0.
            let (ab, ba) = (ab.expect("a hit"), ba.expect("a hit"));
            assert_eq!((ab.enter, ba.enter), (0.0, 0.0));
            assert_eq!(ab.normal, -ba.normal, "case {k}: {ab:?} / {ba:?}");
            assert!(ab.normal.dot(v) < 0.0, "case {k}: {ab:?}");
        }
    }
}
