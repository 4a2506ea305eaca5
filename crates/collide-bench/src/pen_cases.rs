//! Penetrating convex hull pairs, collide against parry3d's direct convex–convex functions:
//! the verdict (collide's SAT, which also gives the depth, and its boolean GJK test), one
//! contact with its depth, and the contact manifold, on overlapping poses of
//! real-mesh hulls (the bench `hull_contact_100_pairs`'s bunny and teddy, the duck against the
//! torus, and a rounded bunny of thousands of vertices against the teddy).
//!
//! Every row's inputs are the same poses for both libraries, all of them penetrating (by
//! collide's SAT). parry's side calls the functions its dispatcher ends in for two convex
//! polyhedra, in A's frame (`pos12 = pose_a⁻¹ · pose_b`), so no dispatch is timed; its
//! manifold starts empty each query, as collide's `SepCache` does.

use std::sync::Arc;

use collide::convex::contact::contact;
use collide::convex::{contact_manifold, gjk, sat_cached, ConvexHull, ConvexPolyhedron, SepCache};
use collide::Vec3;
use collide_testkit::{hulls, Gen};
use parry3d::math::Pose;
use parry3d::query::details::{
    contact_manifold_pfm_pfm, contact_support_map_support_map,
    intersection_test_support_map_support_map,
};
use parry3d::query::ContactManifold;
use parry3d::shape::ConvexPolyhedron as ParryPoly;

use crate::convert;
use crate::timing::{Case, Pass};

/// One hull in both libraries.
#[derive(Clone)]
struct Shape {
    hull: Arc<ConvexHull>,
    parry: Arc<ParryPoly>,
}

impl Shape {
    fn of_points(points: &[Vec3]) -> Shape {
        let hull = ConvexHull::try_new(points).expect("mesh hull");
        let parry = convert::hull(&hull).expect("parry accepts the hull");
        Shape {
            hull: Arc::new(hull),
            parry: Arc::new(parry),
        }
    }
}

/// One penetrating configuration: collide's posed hulls and parry's relative pose.
struct Pair {
    a: ConvexPolyhedron,
    b: ConvexPolyhedron,
    pos12: Pose,
}

/// `n` penetrating poses of `sb` against `sa` (seeded): both turned at random, B's centre
/// 0.2 to 1.0 from A's (hull radii are 1; pairs the SAT finds apart are drawn again).
fn pairs(sa: &Shape, sb: &Shape, n: usize, seed: u64) -> Vec<Pair> {
    let mut g = Gen::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let (qa, qb) = (g.quat(), g.quat());
        let tb = g.unit() * g.range(0.2, 1.0);
        let a = ConvexPolyhedron::new(sa.hull.clone()).with_pose(qa, Vec3::ZERO);
        let b = ConvexPolyhedron::new(sb.hull.clone()).with_pose(qb, tb);
        if !collide::convex::sat(&a, &b).is_penetrating() {
            continue;
        }
        let pa = convert::pose(Vec3::ZERO, qa);
        let pb = convert::pose(tb, qb);
        out.push(Pair {
            a,
            b,
            pos12: pa.inv_mul(&pb),
        });
    }
    out
}

/// The verdict (SAT and GJK), contact and manifold rows of one hull pair.
/// parry's verdict pass, the same for both verdict rows: how many pairs GJK finds touching.
fn parry_verdicts(set: Arc<Vec<Pair>>, pa: Arc<ParryPoly>, pb: Arc<ParryPoly>) -> Pass {
    Box::new(move || {
        set.iter()
            .filter(|q| intersection_test_support_map_support_map(&q.pos12, &*pa, &*pb))
            .count()
    })
}

fn rows(label: &str, sa: &Shape, sb: &Shape, n: usize, seed: u64) -> Vec<Case> {
    let set = Arc::new(pairs(sa, sb, n, seed));
    let (pa, pb) = (sa.parry.clone(), sb.parry.clone());
    let verdict = {
        let (c, p, pa, pb) = (set.clone(), set.clone(), pa.clone(), pb.clone());
        Case {
            name: format!("{label} verdict (SAT)"),
            n,
            collide: Box::new(move || {
                c.iter()
                    .filter(|q| sat_cached(&q.a, &q.b, &mut SepCache::default()).is_penetrating())
                    .count()
            }),
            parry: parry_verdicts(p, pa, pb),
            parry_call: "query::details::intersection_test_support_map_support_map (GJK)".into(),
            direct: None,
        }
    };
    let boolean = {
        let (c, p, pa, pb) = (set.clone(), set.clone(), pa.clone(), pb.clone());
        Case {
            name: format!("{label} verdict (GJK)"),
            n,
            collide: Box::new(move || c.iter().filter(|q| gjk::intersects(&q.a, &q.b)).count()),
            parry: parry_verdicts(p, pa, pb),
            parry_call: "query::details::intersection_test_support_map_support_map (GJK)".into(),
            direct: None,
        }
    };
    let single = {
        let (c, p, pa, pb) = (set.clone(), set.clone(), pa.clone(), pb.clone());
        Case {
            name: format!("{label} contact"),
            n,
            collide: Box::new(move || {
                c.iter()
                    .filter(|q| contact(&q.a, &q.b, 0.0).is_some_and(|c| c.depth > 0.0))
                    .count()
            }),
            parry: Box::new(move || {
                p.iter()
                    .filter(|q| {
                        contact_support_map_support_map(&q.pos12, &*pa, &*pb, 0.0)
                            .is_some_and(|c| c.dist < 0.0)
                    })
                    .count()
            }),
            parry_call: "query::details::contact_support_map_support_map (GJK + EPA)".into(),
            direct: None,
        }
    };
    let manifold = {
        let (c, p) = (set.clone(), set);
        Case {
            name: format!("{label} manifold"),
            n,
            collide: Box::new(move || {
                c.iter()
                    .map(|q| {
                        contact_manifold(&q.a, &q.b, &mut SepCache::default())
                            .map_or(0, |m| m.points().len())
                    })
                    .sum()
            }),
            parry: Box::new(move || {
                p.iter()
                    .map(|q| {
                        let mut m = ContactManifold::<(), ()>::new();
                        contact_manifold_pfm_pfm(
                            &q.pos12, &*pa, 0.0, None, &*pb, 0.0, None, 0.0, &mut m,
                        );
                        m.points.len()
                    })
                    .sum()
            }),
            parry_call: "query::details::contact_manifold_pfm_pfm (fresh ContactManifold)".into(),
            direct: None,
        }
    };
    vec![verdict, boolean, single, manifold]
}

/// Every row, `n` penetrating poses per hull pair, and a line per hull naming its size.
pub fn all(n: usize) -> (Vec<Case>, Vec<String>) {
    let bunny = Shape::of_points(&hulls::mesh_points("bunny.obj"));
    let teddy = Shape::of_points(&hulls::mesh_points("teddy2_VHACD_CHs.obj"));
    let duck = Shape::of_points(&hulls::mesh_points("duck_vhacd.obj"));
    let torus = Shape::of_points(&hulls::mesh_points("torus.obj"));
    let big = Shape::of_points(&hulls::rounded_bunny());
    let sizes = [
        ("bunny", &bunny),
        ("teddy", &teddy),
        ("duck", &duck),
        ("torus", &torus),
        ("rounded bunny", &big),
    ]
    .iter()
    .map(|(name, s)| {
        format!(
            "{name}: {} vertices, {} faces, {} edges",
            s.hull.vertices().len(),
            s.hull.faces().len(),
            s.hull.edges().len()
        )
    })
    .collect();
    let mut cases = rows("bunny–teddy", &bunny, &teddy, n, 60);
    cases.extend(rows("duck–torus", &duck, &torus, n, 61));
    cases.extend(rows("big–teddy", &big, &teddy, n, 62));
    (cases, sizes)
}
