//! Penetration depth of deeply overlapping real-mesh hulls against an f64 separating-axis
//! minimum, including a hull of 3,600 vertices (the bunny grown by a ball,
//! `collide_testkit::hulls::rounded_bunny`).
//!
//! The oracle: the depth of two overlapping convex polyhedra is the least overlap
//! `h_A(n) + h_B(−n)` over all unit directions `n`, and the minimum is reached at a face
//! normal of A or of B or at the cross product of an edge of each whose Gauss-map arcs cross
//! (Lander 1999; Gregorius 2013). Every direction's overlap is at least the depth, so a
//! candidate set that holds those axes gives the exact minimum however many others it holds:
//! the oracle takes every face normal (recomputed in f64 from the face's vertices, Newell's
//! formula) and every edge pair that passes a loose f64 crossing test, and projects all the
//! vertices of both hulls on each, in f64. A loose test only adds candidates, so rounding
//! can make the oracle neither too small nor miss the minimum.
//!
//! 200 pairs by default; `COLLIDE_LONG=1` runs 10,000 (and 200 nearly coincident pairs of the
//! big hull instead of 3).

use std::sync::Arc;

use collide::convex::{contact, sat, ConvexHull, ConvexPolyhedron, SatResult};
use collide_testkit::{hulls, Gen, HULL_MESHES};
use glam::{DMat3, DVec3};

/// One hull's geometry in world f64 coordinates: vertices, face normals and edges (as the
/// direction, the two face normals and the normal of their arc's plane, `n1 × n0`).
struct World64 {
    verts: Vec<DVec3>,
    normals: Vec<DVec3>,
    edges: Vec<Edge64>,
}

/// An edge's direction, its two faces' normals and `n1 × n0`.
#[derive(Clone, Copy)]
struct Edge64 {
    dir: DVec3,
    n0: DVec3,
    n1: DVec3,
    n1xn0: DVec3,
}

impl World64 {
    fn new(p: &ConvexPolyhedron) -> World64 {
        let r = p.rotation;
        let rot = DMat3::from_cols(
            r.x_axis.as_dvec3(),
            r.y_axis.as_dvec3(),
            r.z_axis.as_dvec3(),
        );
        let t = p.translation.as_dvec3();
        let h = &p.hull;
        let verts: Vec<DVec3> = h
            .vertices()
            .iter()
            .map(|v| rot * v.as_dvec3() + t)
            .collect();
        // Newell: Σ (v_i − c) × (v_{i+1} − c) is twice the polygon's area vector.
        let normals: Vec<DVec3> = (0..h.faces().len())
            .map(|f| {
                let idx = h.face_vertices(f);
                let c = idx.iter().map(|&i| verts[i as usize]).sum::<DVec3>() / idx.len() as f64;
                let mut n = DVec3::ZERO;
                for k in 0..idx.len() {
                    let (a, b) = (
                        verts[idx[k] as usize],
                        verts[idx[(k + 1) % idx.len()] as usize],
                    );
                    n += (a - c).cross(b - c);
                }
                n.normalize_or_zero()
            })
            .collect();
        let edges = h
            .edges()
            .iter()
            .map(|e| {
                let dir = verts[e.vertices[1] as usize] - verts[e.vertices[0] as usize];
                let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
                Edge64 {
                    dir,
                    n0,
                    n1,
                    n1xn0: n1.cross(n0),
                }
            })
            .collect();
        World64 {
            verts,
            normals,
            edges,
        }
    }

    /// `max_v n · v`.
    fn support(&self, n: DVec3) -> f64 {
        self.verts
            .iter()
            .fold(f64::NEG_INFINITY, |m, v| m.max(n.dot(*v)))
    }
}

/// Translation of B along unit `n` that separates the pair: `h_A(n) + h_B(−n)`.
fn overlap(a: &World64, b: &World64, n: DVec3) -> f64 {
    a.support(n) + b.support(-n)
}

/// Whether A's arc `(a, b)` may cross the arc of −B, `(c, d) = (−n_B0, −n_B1)`: Gregorius's
/// three sign tests `CBA·DBA < 0`, `ADC·BDC < 0`, `CBA·BDC > 0`, passed when within 1e-12 of
/// passing (a loose test only adds candidates). The plane normals: `b × a` is A's `n1 × n0`,
/// and `d × c = (−n_B1) × (−n_B0)` is B's `n1 × n0`.
fn may_cross(ea: &Edge64, eb: &Edge64) -> bool {
    const LOOSE: f64 = 1e-12;
    let (c, d) = (-eb.n0, -eb.n1);
    let (cba, dba) = (c.dot(ea.n1xn0), d.dot(ea.n1xn0));
    let (adc, bdc) = (ea.n0.dot(eb.n1xn0), ea.n1.dot(eb.n1xn0));
    cba * dba <= LOOSE && adc * bdc <= LOOSE && cba * bdc >= -LOOSE
}

/// The f64 SAT minimum: the least overlap over every face normal of both hulls and every
/// edge pair that may form a face of A − B, with the axis achieving it.
fn sat_minimum(a: &World64, b: &World64) -> (f64, DVec3) {
    let mut best = (f64::INFINITY, DVec3::ZERO);
    let mut take = |n: DVec3| {
        if n != DVec3::ZERO {
            let s = overlap(a, b, n);
            if s < best.0 {
                best = (s, n);
            }
        }
    };
    for &n in &a.normals {
        take(n);
    }
    for &n in &b.normals {
        take(-n);
    }
    for ea in &a.edges {
        for eb in &b.edges {
            if !may_cross(ea, eb) {
                continue;
            }
            let axis = ea.dir.cross(eb.dir);
            if axis.length() <= 1e-9 * ea.dir.length() * eb.dir.length() {
                continue; // Parallel edges: their plane's normal is a face normal.
            }
            let axis = axis.normalize();
            take(axis);
            take(-axis);
        }
    }
    best
}

/// The real-mesh hulls (radius 1) and the 3,600-vertex rounded bunny.
fn test_hulls() -> Vec<(String, Arc<ConvexHull>)> {
    let mut out: Vec<(String, Arc<ConvexHull>)> = HULL_MESHES
        .iter()
        .map(|name| {
            let hull = ConvexHull::try_new(&hulls::mesh_points(name)).expect("mesh hull");
            (name.to_string(), Arc::new(hull))
        })
        .collect();
    let big = ConvexHull::try_new(&hulls::rounded_bunny()).expect("rounded bunny hull");
    assert!(big.vertices().len() >= 3000, "{}", big.vertices().len());
    out.push(("rounded bunny".into(), Arc::new(big)));
    out
}

#[test]
fn contact_depth_matches_an_f64_sat_minimum_on_deep_overlaps() {
    let hulls = test_hulls();
    let big = hulls.len() - 1;
    let n = if std::env::var("COLLIDE_LONG").is_ok() {
        10_000
    } else {
        200
    };
    let mut g = Gen::new(0xdee9);
    let (mut worst_contact, mut worst_sat, mut with_big) = (0.0f64, 0.0f64, 0);
    for i in 0..n {
        // Every fourth pair has the big hull on one side; the rest are drawn at random.
        let pick = |g: &mut Gen| (g.range(0.0, hulls.len() as f32) as usize).min(big);
        let ia = if i % 4 == 0 { big } else { pick(&mut g) };
        let ib = pick(&mut g);
        let (na, ha) = &hulls[ia];
        let (nb, hb) = &hulls[ib];
        with_big += usize::from(ia == big || ib == big);
        // Deep: centres at most 0.4 apart, for hulls of radius 1.
        let a = ConvexPolyhedron::new(ha.clone()).with_pose(g.quat(), g.vec(0.1));
        let b = ConvexPolyhedron::new(hb.clone()).with_pose(g.quat(), g.unit() * g.range(0.0, 0.3));
        let (wa, wb) = (World64::new(&a), World64::new(&b));
        let (depth, _) = sat_minimum(&wa, &wb);
        let size = f64::from(ha.outer_ball().1.max(hb.outer_ball().1));
        let ctx = format!("pair {i}: {na} against {nb}, oracle depth {depth}");
        let c = contact::contact(&a, &b, 0.0).unwrap_or_else(|| panic!("no contact: {ctx}"));
        let e = (f64::from(c.depth) - depth).abs() / size;
        worst_contact = worst_contact.max(e);
        assert!(e <= 1e-4, "contact depth {}: {ctx}", c.depth);
        // The normal is honest: B moved by the depth along it just separates.
        let along = overlap(&wa, &wb, c.normal.as_dvec3().normalize());
        assert!(
            (along - f64::from(c.depth)).abs() / size <= 1e-4,
            "overlap along the normal {along}: {ctx}"
        );
        let SatResult::Penetrating { depth: s, normal } = sat(&a, &b) else {
            panic!("SAT separated: {ctx}");
        };
        let e = (f64::from(s) - depth).abs() / size;
        worst_sat = worst_sat.max(e);
        assert!(e <= 1e-4, "SAT depth {s}: {ctx}");
        let along = overlap(&wa, &wb, normal.as_dvec3().normalize());
        assert!(
            (along - f64::from(s)).abs() / size <= 1e-4,
            "overlap along the SAT normal {along}: {ctx}"
        );
    }
    eprintln!(
        "depth vs f64 SAT minimum, {n} deep pairs ({with_big} with the {}-vertex hull): \
         largest error / size: contact {worst_contact:.2e}, sat {worst_sat:.2e}",
        hulls[big].1.vertices().len()
    );
}

#[test]
fn contact_depth_on_nearly_coincident_3600_vertex_hulls() {
    // Two copies of the 3,600-vertex hull, one turned by up to 0.2 rad and moved by up to
    // 0.05: the deepest overlap, where EPA's polytope has the most faces near its nearest
    // point. 3 cases by default (the oracle's 10,710² edge pairs take seconds each), 200
    // with `COLLIDE_LONG=1`.
    let hulls = test_hulls();
    let big = &hulls[hulls.len() - 1].1;
    let mut g = Gen::new(0xc01c);
    let n = if std::env::var("COLLIDE_LONG").is_ok() {
        200
    } else {
        3
    };
    let mut worst = 0.0f64;
    for i in 0..n {
        let q = g.quat();
        let turn = glam::Quat::from_axis_angle(g.unit(), g.range(0.0, 0.2));
        let a = ConvexPolyhedron::new(big.clone()).with_pose(q, g.vec(0.01));
        let b = ConvexPolyhedron::new(big.clone()).with_pose(turn * q, g.vec(0.05));
        let (wa, wb) = (World64::new(&a), World64::new(&b));
        let (depth, _) = sat_minimum(&wa, &wb);
        let size = f64::from(big.outer_ball().1);
        let c = contact::contact(&a, &b, 0.0).expect("coincident hulls overlap");
        let e = (f64::from(c.depth) - depth).abs() / size;
        worst = worst.max(e);
        assert!(e <= 1e-4, "case {i}: contact depth {} vs {depth}", c.depth);
        let SatResult::Penetrating { depth: s, .. } = sat(&a, &b) else {
            panic!("case {i}: SAT separated");
        };
        assert!(
            (f64::from(s) - depth).abs() / size <= 1e-4,
            "case {i}: SAT depth {s} vs {depth}"
        );
    }
    eprintln!(
        "nearly coincident 3,600-vertex hulls, {n} cases: largest depth error / size {worst:.2e}"
    );
}
