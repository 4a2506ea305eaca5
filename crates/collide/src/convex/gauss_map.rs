//! The Gauss map of a [`ConvexHull`], as the SAT's edge phase walks it.
//!
//! On the unit sphere of directions, each face of a convex polyhedron is a point (its normal)
//! and each edge the great-circle arc between its two faces' normals (Gregorius, *The
//! Separating Axis Test between Convex Polyhedra*, GDC 2013). Two edges of hulls A and B form
//! a face of the Minkowski difference exactly when A's arc crosses B's negated arc, so the SAT
//! only tests those pairs. Per hull this module keeps each edge's arc with a cap around it
//! ([`GaussArc`]), and an edge order that keeps nearby arcs together with one bounding cap per
//! [`GAUSS_CHUNK`] of them ([`GaussCap`]), both built on first use.

use glam::DVec3;

use super::hull::{ConvexHull, HullEdge, HullFace};
use crate::math::{morton3, Vec3};

/// Edges per [`GaussCap`] (in [`ConvexHull::gauss_order`]).
pub(crate) const GAUSS_CHUNK: usize = 8;

/// A spherical cap containing the Gauss-map arcs (the great-circle arcs between the two face
/// normals) of [`GAUSS_CHUNK`] consecutive edges of [`ConvexHull::gauss_order`]: every point
/// of those arcs is within angle `R` of the unit `centre`. Caps with `R` near or above 90°
/// (not spherically convex) store `sin_r = 2`, `cos_r = -2`, which no test culls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GaussCap {
    pub centre: Vec3,
    pub sin_r: f32,
    pub cos_r: f32,
}

/// The Gauss-map arc of one edge, the great-circle arc between its two face normals `n0`
/// (`faces[0]`) and `n1` (`faces[1]`), as the SAT's arc-crossing test uses it.
///
/// The arc lies in the plane perpendicular to the edge, so its great circle's unit normal is
/// the edge direction, oriented like `n1 × n0`: `normal = (v0 − v1) / |v0 − v1|` (the edge
/// runs `v0 → v1` counter-clockwise in `faces[0]`). That is exact whatever the angle between
/// the normals, where `n1 × n0` is only as long as that angle's sine: on the rim of a thin
/// plate (normals a few 1e-6 from opposite) it is a few ulps long and its direction is
/// rounding, degrees off (Gregorius 2013 builds the test from the edges for this reason).
///
/// `mid`, `cos_h`, `sin_h`: a cap holding the arc, centred on its midpoint with half angle
/// `h` (for culling). No cap (`mid = 0`, `h = 90°`: the culling then goes by the great circle
/// alone) for an edge whose stored normals are more than 1e-3 off the plane perpendicular to
/// it, or whose arc comes out more than 0.2 rad longer than a semicircle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GaussArc {
    pub normal: Vec3,
    pub mid: Vec3,
    pub cos_h: f32,
    pub sin_h: f32,
}

impl GaussArc {
    /// The arc of the edge `v0 → v1` between face normals `n0` and `n1`, in `f64`.
    ///
    /// The midpoint is the bisector of the arc turning from `n0` to `n1` about the edge
    /// direction `e`: with both normals projected into the plane perpendicular to `e` (`a`,
    /// `b`, turned by the arc's angle `φ ∈ [0, π]`), `a + b + e × a + b × e` is a sum of two
    /// pairs of unit vectors symmetric about the bisector (`a` at 0 and `b` at `φ`, `e × a` at
    /// 90° and `b × e` at `φ − 90°`), of length `2 cos(φ/2) + 2 sin(φ/2) >= 2`: well
    /// conditioned for a nearly flat edge (where `a + b` alone is, too) and for a nearly
    /// semicircular one (where `a + b` is a few ulps long). The half angle covers both ends
    /// and how far the stored normals are off that plane.
    fn new(v0: Vec3, v1: Vec3, n0: Vec3, n1: Vec3) -> GaussArc {
        const NO_CAP: (DVec3, f64, f64) = (DVec3::ZERO, 0.0, 1.0);
        let e = (v1.as_dvec3() - v0.as_dvec3()).normalize_or_zero();
        let (n0, n1) = (n0.as_dvec3(), n1.as_dvec3());
        let (a, b) = (
            (n0 - e * e.dot(n0)).normalize_or_zero(),
            (n1 - e * e.dot(n1)).normalize_or_zero(),
        );
        // How far the stored normals are off the arc's plane (radians).
        let tilt = e.dot(n0).abs().max(e.dot(n1).abs()).min(1.0).asin();
        let sum = a + b + e.cross(a) + b.cross(e);
        let (mid, cos_h, sin_h) = if e == DVec3::ZERO
            || a == DVec3::ZERO
            || b == DVec3::ZERO
            || tilt > 1e-3
            || sum.length() < 1.0
        {
            NO_CAP
        } else {
            let mid = sum.normalize();
            let h = mid.dot(a).min(mid.dot(b)).clamp(-1.0, 1.0).acos() + tilt;
            if h >= std::f64::consts::FRAC_PI_2 + 0.1 {
                NO_CAP
            } else {
                (mid, h.cos(), h.sin())
            }
        };
        GaussArc {
            normal: (-e).as_vec3(),
            mid: mid.as_vec3(),
            cos_h: cos_h as f32,
            sin_h: sin_h as f32,
        }
    }
}

/// The edge order and caps of [`ConvexHull::gauss_caps`].
#[derive(Clone, Debug)]
pub(crate) struct GaussClusters {
    order: Vec<u32>,
    caps: Vec<GaussCap>,
}

/// The edge order and caps of [`ConvexHull::gauss_caps`], in `f64`.
fn gauss_clusters(faces: &[HullFace], edges: &[HullEdge]) -> GaussClusters {
    let normal = |f: u32| {
        faces
            .get(f as usize)
            .map_or(DVec3::ZERO, |f| f.plane.normal.as_dvec3())
    };
    // Morton key of the arc's midpoint direction, 10 bits per axis over [-1, 1].
    let mid: Vec<DVec3> = edges
        .iter()
        .map(|e| (normal(e.faces[0]) + normal(e.faces[1])).normalize_or_zero())
        .collect();
    let q = |v: f64| ((v + 1.0) * 511.5).clamp(0.0, 1023.0) as u64;
    let key = |m: DVec3| morton3(q(m.x), q(m.y), q(m.z));
    let mut morton: Vec<u32> = (0..edges.len() as u32).collect();
    morton.sort_by_key(|&j| key(mid[j as usize]));
    // Greedy clusters: the first edge left in Morton order and the `GAUSS_CHUNK − 1` edges
    // left whose arc midpoints are nearest to it (O(E²), so only up to 1024 edges; bigger
    // hulls keep the plain Morton order).
    let order = if edges.len() <= 1024 {
        let mut taken = vec![false; edges.len()];
        let mut order = Vec::with_capacity(edges.len());
        let mut near: Vec<(f64, u32)> = Vec::with_capacity(edges.len());
        for &seed in &morton {
            if taken[seed as usize] {
                continue;
            }
            taken[seed as usize] = true;
            order.push(seed);
            let m = mid[seed as usize];
            near.clear();
            near.extend(
                (0..edges.len() as u32)
                    .filter(|&j| !taken[j as usize])
                    .map(|j| (-mid[j as usize].dot(m), j)),
            );
            let k = (GAUSS_CHUNK - 1).min(near.len());
            if k > 0 {
                near.select_nth_unstable_by(k - 1, |x, y| x.0.total_cmp(&y.0));
                near.truncate(k);
                near.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
            }
            for &(_, j) in &near {
                taken[j as usize] = true;
                order.push(j);
            }
        }
        order
    } else {
        morton
    };
    let caps = order
        .chunks(GAUSS_CHUNK)
        .map(|chunk| {
            let ends = chunk
                .iter()
                .flat_map(|&j| edges[j as usize].faces.map(normal));
            let centre = ends.clone().sum::<DVec3>().normalize_or_zero();
            // The arcs are the short ones between their ends, so a cap under 90° holding
            // the ends holds the arcs. A margin covers the rounding of the stored centre.
            let min_cos = ends.map(|n| n.dot(centre)).fold(1.0, f64::min);
            let r = min_cos.clamp(-1.0, 1.0).acos() + 1e-5;
            if centre == DVec3::ZERO || r >= 1.4 {
                GaussCap {
                    centre: Vec3::X,
                    sin_r: 2.0,
                    cos_r: -2.0,
                }
            } else {
                GaussCap {
                    centre: centre.as_vec3(),
                    sin_r: r.sin() as f32,
                    cos_r: r.cos() as f32,
                }
            }
        })
        .collect();
    GaussClusters { order, caps }
}

impl ConvexHull {
    /// The Gauss-map clusters, built on first use.
    #[inline]
    fn gauss(&self) -> &GaussClusters {
        self.gauss
            .get_or_init(|| gauss_clusters(&self.faces, &self.edges))
    }

    /// Builds the Gauss map (and the lanes support scans use) now rather than on the SAT's
    /// first full search (and the first scan): for the world,
    /// which prepares its bodies when they are added so that its frames allocate nothing.
    pub(crate) fn build_gauss_map(&self) {
        self.build_lanes();
        self.gauss();
        self.gauss_arcs();
    }

    /// The edge indices ordered so that consecutive edges have nearby Gauss-map arcs.
    #[inline]
    pub(crate) fn gauss_order(&self) -> &[u32] {
        &self.gauss().order
    }

    /// One [`GaussCap`] per [`GAUSS_CHUNK`] edges of [`ConvexHull::gauss_order`].
    #[inline]
    pub(crate) fn gauss_caps(&self) -> &[GaussCap] {
        &self.gauss().caps
    }

    /// Each edge's [`GaussArc`], by edge index, built on first use.
    #[inline]
    pub(crate) fn gauss_arcs(&self) -> &[GaussArc] {
        self.arcs.get_or_init(|| {
            let normal = |f: u32| {
                self.faces
                    .get(f as usize)
                    .map_or(Vec3::ZERO, |f| f.plane.normal)
            };
            let vertex = |v: u32| self.vertices.get(v as usize).copied().unwrap_or(Vec3::ZERO);
            self.edges
                .iter()
                .map(|e| {
                    GaussArc::new(
                        vertex(e.vertices[0]),
                        vertex(e.vertices[1]),
                        normal(e.faces[0]),
                        normal(e.faces[1]),
                    )
                })
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convex::hull::tests::{cube_corners, fibonacci_sphere};

    #[test]
    fn gauss_arcs_follow_the_edges() {
        // Each edge's arc: its plane's normal is the edge direction, oriented like n1 × n0 (the
        // old, face-normal definition, where that is well conditioned), and its cap holds both
        // ends. On a cube the cap is the 45° cap about the bisector of the two normals.
        let cube = ConvexHull::try_new(&cube_corners()).unwrap();
        for (e, arc) in cube.edges().iter().zip(cube.gauss_arcs()) {
            let n0 = cube.faces()[e.faces[0] as usize].plane.normal;
            let n1 = cube.faces()[e.faces[1] as usize].plane.normal;
            assert_eq!(arc.normal, n1.cross(n0));
            crate::assert_near!(arc.mid, (n0 + n1).normalize(), 1e-6);
            crate::assert_near!(arc.cos_h, std::f32::consts::FRAC_1_SQRT_2, 1e-6);
            crate::assert_near!(arc.sin_h, std::f32::consts::FRAC_1_SQRT_2, 1e-6);
        }
        // Spheres, a flattened ellipsoid and thin plates (rim normals 1e-6 .. 1e-3 from
        // opposite).
        let mut g = collide_testkit::Gen::new(0x6a7c);
        let mut hulls = vec![
            ConvexHull::try_new(&fibonacci_sphere(200, Vec3::ONE)).unwrap(),
            ConvexHull::try_new(&fibonacci_sphere(30, Vec3::new(2.0, 0.1, 1.0))).unwrap(),
        ];
        let mut rims = 0;
        while hulls.len() < 40 {
            let h = 10f32.powf(g.range(-6.0, -3.0));
            let pts: Vec<Vec3> = (0..8)
                .map(|_| {
                    let phi = g.range(0.0, std::f32::consts::TAU);
                    Vec3::new(phi.cos(), phi.sin(), h * g.range(-1.0, 1.0)) * g.range(0.3, 1.0)
                })
                .collect();
            if let Ok(hull) = ConvexHull::try_new(&pts) {
                hulls.push(hull);
            }
        }
        for hull in &hulls {
            let verts = hull.vertices();
            for (e, arc) in hull.edges().iter().zip(hull.gauss_arcs()) {
                let n0 = hull.faces()[e.faces[0] as usize].plane.normal.as_dvec3();
                let n1 = hull.faces()[e.faces[1] as usize].plane.normal.as_dvec3();
                let edge = (verts[e.vertices[1] as usize] - verts[e.vertices[0] as usize])
                    .as_dvec3()
                    .normalize();
                let normal = arc.normal.as_dvec3();
                assert!((normal + edge).length() < 1e-7, "{normal} vs edge {edge}");
                // Both normals are (nearly) in the arc's plane.
                assert!(normal.dot(n0).abs() < 1e-6 && normal.dot(n1).abs() < 1e-6);
                let cross = n1.cross(n0);
                if cross.length() > 1e-3 {
                    assert!(normal.dot(cross.normalize()) > 1.0 - 1e-6);
                } else {
                    rims += 1;
                }
                // The cap holds both ends (what `CapLanes::meeting` relies on).
                let mid = arc.mid.as_dvec3();
                if mid != DVec3::ZERO {
                    let h = f64::from(arc.sin_h).atan2(f64::from(arc.cos_h));
                    for n in [n0, n1] {
                        assert!(mid.angle_between(n) <= h + 1e-6, "{arc:?}");
                    }
                }
            }
        }
        assert!(rims > 100, "{rims} rim edges");
    }
}
