//! GJK rows of `compare`: distance and the boolean overlap test between point clouds and
//! between real-mesh hulls, collide's `gjk::distance` and `gjk::intersects` against parry3d's
//! `query::distance` and `query::intersection_test` (dispatching) and the support-map
//! functions those end in (`query::details::distance_support_map_support_map` and
//! `intersection_test_support_map_support_map`, given the relative pose: no dispatch timed).
//!
//! Both libraries get the same convex sets. A cloud is the vertices of 32 random points'
//! hull (parry's `ConvexPolyhedron` keeps only those), at the identity pose in both libraries
//! with its points where they lie, so the rows time GJK and the support scans alone. A
//! real-mesh hull (bunny, teddy) is collide's `ConvexPolyhedron` turned and placed, and parry's
//! polyhedron of the same faces with the same pose. Distance rows draw pairs mostly apart
//! (centres 1.6 to 3.2 apart, radii up to 1); overlap rows draw them about half overlapping
//! (centres 0.4 to 2.4 apart).

use std::hint::black_box;
use std::sync::Arc;

use collide::convex::{gjk, ConvexHull, ConvexPolyhedron};
use collide::Vec3;
use collide_testkit::{hulls, Gen};
use parry3d::math::Pose;
use parry3d::query;
use parry3d::query::details::{
    distance_support_map_support_map, intersection_test_support_map_support_map,
};
use parry3d::shape::ConvexPolyhedron as ParryPoly;

use crate::convert;
use crate::timing::{Case, Direct, Pass};

/// What a row asks of a pair.
#[derive(Clone, Copy)]
enum Ask {
    /// The distance (collide's answer also gives the closest points; parry's the number).
    Distance,
    /// Whether they touch or overlap.
    Intersects,
}

/// One pair in both libraries: collide's two sets and parry's shapes with their poses.
struct Pair<S> {
    a: S,
    b: S,
    parry_a: (Pose, Arc<ParryPoly>),
    parry_b: (Pose, Arc<ParryPoly>),
}

/// A row over `pairs`: collide's `gjk::distance` or `gjk::intersects`, parry's dispatching
/// call and its support-map function on the relative pose. A pass counts the pairs found
/// touching or overlapping.
fn row<S>(name: &str, ask: Ask, pairs: Vec<Pair<S>>) -> Case
where
    S: collide::convex::SupportMap + 'static,
{
    let n = pairs.len();
    let pairs = Arc::new(pairs);
    let (c, p, d) = (pairs.clone(), pairs.clone(), pairs);
    let collide: Pass = match ask {
        Ask::Distance => Box::new(move || {
            black_box(c.as_slice())
                .iter()
                .filter(|q| black_box(gjk::distance(&q.a, &q.b)).intersecting)
                .count()
        }),
        Ask::Intersects => Box::new(move || {
            black_box(c.as_slice())
                .iter()
                .filter(|q| gjk::intersects(&q.a, &q.b))
                .count()
        }),
    };
    let parry: Pass = Box::new(move || {
        black_box(p.as_slice())
            .iter()
            .filter(|q| {
                let ((pa, sa), (pb, sb)) = (&q.parry_a, &q.parry_b);
                match ask {
                    Ask::Distance => black_box(query::distance(pa, &**sa, pb, &**sb))
                        .is_ok_and(|d| d.distance <= 0.0),
                    Ask::Intersects => {
                        query::intersection_test(pa, &**sa, pb, &**sb).is_ok_and(|i| i.intersecting)
                    }
                }
            })
            .count()
    });
    let direct = Direct {
        pass: Box::new(move || {
            black_box(d.as_slice())
                .iter()
                .filter(|q| {
                    let ((pa, sa), (pb, sb)) = (&q.parry_a, &q.parry_b);
                    let pos12 = pa.inv_mul(pb);
                    match ask {
                        Ask::Distance => {
                            black_box(distance_support_map_support_map(&pos12, &**sa, &**sb)) <= 0.0
                        }
                        Ask::Intersects => {
                            intersection_test_support_map_support_map(&pos12, &**sa, &**sb)
                        }
                    }
                })
                .count()
        }),
        call: match ask {
            Ask::Distance => "query::details::distance_support_map_support_map (relative pose)",
            Ask::Intersects => {
                "query::details::intersection_test_support_map_support_map (relative pose)"
            }
        }
        .into(),
    };
    Case {
        name: name.into(),
        n,
        collide,
        parry,
        parry_call: match ask {
            Ask::Distance => "query::distance",
            Ask::Intersects => "query::intersection_test",
        }
        .into(),
        direct: Some(direct),
    }
}

/// Where B's centre goes for a row: a random direction, `lo` to `hi` from A's.
fn offset(g: &mut Gen, (lo, hi): (f32, f32)) -> Vec3 {
    g.unit() * g.range(lo, hi)
}

/// `n` pairs of clouds (seeded): each the vertices of the hull of 32 points drawn between
/// radii 0.6 and 1 about its centre, A's at the origin.
fn cloud_pairs(n: usize, seed: u64, apart: (f32, f32)) -> Vec<Pair<Vec<Vec3>>> {
    let mut g = Gen::new(seed);
    let cloud = |g: &mut Gen, centre: Vec3| {
        let points: Vec<Vec3> = (0..32)
            .map(|_| centre + g.unit() * g.range(0.6, 1.0))
            .collect();
        let hull = ConvexHull::try_new(&points).expect("32 points on a shell span 3-D");
        let parry = convert::hull(&hull).expect("parry accepts the hull");
        (hull.vertices().to_vec(), Arc::new(parry))
    };
    (0..n)
        .map(|_| {
            let (a, parry_a) = cloud(&mut g, Vec3::ZERO);
            let at = offset(&mut g, apart);
            let (b, parry_b) = cloud(&mut g, at);
            Pair {
                a,
                b,
                parry_a: (Pose::IDENTITY, parry_a),
                parry_b: (Pose::IDENTITY, parry_b),
            }
        })
        .collect()
}

/// `n` pairs of the bunny's and the teddy's hulls (radius 1, seeded), both turned at random,
/// the teddy's centre placed by `apart`.
fn hull_pairs(n: usize, seed: u64, apart: (f32, f32)) -> Vec<Pair<ConvexPolyhedron>> {
    let shape = |name: &str| {
        let hull = ConvexHull::try_new(&hulls::mesh_points(name)).expect("mesh hull");
        let parry = convert::hull(&hull).expect("parry accepts the hull");
        (Arc::new(hull), Arc::new(parry))
    };
    let (bunny, teddy) = (shape("bunny.obj"), shape("teddy2_VHACD_CHs.obj"));
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| {
            let (qa, qb) = (g.quat(), g.quat());
            let tb = offset(&mut g, apart);
            Pair {
                a: ConvexPolyhedron::new(bunny.0.clone()).with_pose(qa, Vec3::ZERO),
                b: ConvexPolyhedron::new(teddy.0.clone()).with_pose(qb, tb),
                parry_a: (convert::pose(Vec3::ZERO, qa), bunny.1.clone()),
                parry_b: (convert::pose(tb, qb), teddy.1.clone()),
            }
        })
        .collect()
}

/// Pairs mostly apart (distance rows).
const APART: (f32, f32) = (1.6, 3.2);
/// Pairs about half overlapping (overlap rows).
const MIXED: (f32, f32) = (0.4, 2.4);

/// The GJK rows, `n` pairs each (real-mesh hull rows: `n / 4`, their hulls being larger).
pub fn gjk_cases(n: usize) -> Vec<Case> {
    let hull_n = (n / 4).max(1);
    vec![
        row(
            "gjk_distance_cloud",
            Ask::Distance,
            cloud_pairs(n, 70, APART),
        ),
        row(
            "gjk_intersects_cloud",
            Ask::Intersects,
            cloud_pairs(n, 71, MIXED),
        ),
        row(
            "gjk_distance_hull",
            Ask::Distance,
            hull_pairs(hull_n, 72, APART),
        ),
        row(
            "gjk_intersects_hull",
            Ask::Intersects,
            hull_pairs(hull_n, 73, MIXED),
        ),
    ]
}

/// How far each library's GJK distance is from the exact one, on those of `n` pairs of the
/// distance row's clouds that are apart: `(library, largest, median)` of `|d − exact| / exact`.
///
/// The exact distance is `polytope_distance` in `f64`. parry3d's support-map distance may
/// stop once its bounds are within `√(10 ε)` ≈ 1.1e-3 of each other (relative), collide's once
/// they are within [`gjk::TOLERANCE`] (1e-6); the errors show what each rule gives.
pub fn cloud_distance_errors(n: usize) -> [(&'static str, f64, f64); 2] {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for q in cloud_pairs(n, 70, APART) {
        let (Ok(ha), Ok(hb)) = (ConvexHull::try_new(&q.a), ConvexHull::try_new(&q.b)) else {
            continue;
        };
        // Overlapping pairs (both libraries agree on which: the row's test) are left out: the
        // features' distances measure only pairs apart.
        let found = gjk::distance(&q.a, &q.b);
        let exact = polytope_distance(&ha, &hb);
        if found.intersecting || exact <= 1e-3 {
            continue;
        }
        let ((pa, sa), (pb, sb)) = (&q.parry_a, &q.parry_b);
        let parry = distance_support_map_support_map(&pa.inv_mul(pb), &**sa, &**sb);
        let collide = found.distance;
        ours.push((f64::from(collide) - exact).abs() / exact);
        theirs.push((f64::from(parry) - exact).abs() / exact);
    }
    let summary = |mut e: Vec<f64>| {
        e.sort_by(f64::total_cmp);
        let median = e.get(e.len() / 2).copied().unwrap_or(f64::NAN);
        (e.last().copied().unwrap_or(f64::NAN), median)
    };
    let ((om, omed), (tm, tmed)) = (summary(ours), summary(theirs));
    [("collide", om, omed), ("parry3d", tm, tmed)]
}

/// The distance between two convex polytopes that are apart, in `f64`: the least over every
/// vertex of one and face triangle of the other, and every pair of edges (the nearest points
/// of two disjoint polytopes lie on such a pair of features).
fn polytope_distance(a: &ConvexHull, b: &ConvexHull) -> f64 {
    use collide_testkit::oracle::brute::{segment_segment_distance, triangle_closest};
    let triangles = |h: &ConvexHull| -> Vec<[glam::DVec3; 3]> {
        let v = h.vertices();
        (0..h.faces().len())
            .flat_map(|f| {
                let idx = h.face_vertices(f);
                (1..idx.len() - 1).map(move |k| [idx[0], idx[k], idx[k + 1]])
            })
            .map(|t| t.map(|i| v[i as usize].as_dvec3()))
            .collect()
    };
    let edges = |h: &ConvexHull| -> Vec<[glam::DVec3; 2]> {
        let v = h.vertices();
        h.edges()
            .iter()
            .map(|e| e.vertices.map(|i| v[i as usize].as_dvec3()))
            .collect()
    };
    let vertex_face = |from: &ConvexHull, to: &ConvexHull| {
        let faces = triangles(to);
        from.vertices()
            .iter()
            .flat_map(|p| {
                let p = p.as_dvec3();
                faces
                    .iter()
                    .map(move |&t| (triangle_closest(p, t) - p).length())
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (ea, eb) = (edges(a), edges(b));
    let edge_edge = ea
        .iter()
        .flat_map(|x| {
            eb.iter()
                .map(move |y| segment_segment_distance(x[0], x[1], y[0], y[1]))
        })
        .fold(f64::INFINITY, f64::min);
    vertex_face(a, b).min(vertex_face(b, a)).min(edge_edge)
}
