//! EPA: penetration depth, normal and witness points of two overlapping convex shapes.
//!
//! The Expanding Polytope Algorithm (van den Bergen, "Proximity queries and penetration depth
//! computation on 3D game objects", GDC 2001; van den Bergen 2003 §4.3.8; Ericson RTCD §9.5
//! notes). When GJK finds the origin inside the Minkowski difference `M = A − B`, the
//! penetration depth is the distance from the origin to the boundary of `M`, and the direction
//! of that nearest boundary point is the contact normal. EPA grows a polytope inside `M`,
//! starting from GJK's final simplex: take the polytope face nearest the origin, ask `M` for
//! its support point along that face's normal, and either stop (the support point is no farther
//! than the face: the face is on the boundary of `M`) or replace every face the new point sees
//! with a fan of faces from the point to the horizon.
//!
//! Robustness choices: all polytope geometry in `f64`; face adjacency kept explicitly and the
//! horizon found by a depth-first walk from the nearest face (so the visible region is
//! connected); a face and iteration budget ([`MAX_FACES`], [`MAX_ITERATIONS`]) after which the
//! answer is the expanded normal along which the shapes overlap least, with that overlap as
//! the depth (an upper bound of the minimum, exact along the normal reported), which callers
//! with an exact method (two polyhedra: the separating-axis search) replace; and documented
//! answers when `M` is flat, a segment or a point (see [`penetration`]).
//!
//! # Example
//!
//! ```rust
//! use collide::convex::epa::penetration;
//! use collide::shapes::Obb;
//! use collide::{Quat, Vec3};
//!
//! // Two 1 m cubes, B pushed 0.3 into A's +x face.
//! let a = Obb::new(Vec3::ZERO, Quat::IDENTITY, Vec3::splat(0.5));
//! let b = Obb::new(Vec3::new(0.7, 0.0, 0.0), Quat::IDENTITY, Vec3::splat(0.5));
//! let p = penetration(&a, &b).unwrap();
//! assert!((p.depth - 0.3).abs() < 1e-4);
//! assert!((p.normal - Vec3::X).length() < 1e-4); // moving B by depth · normal separates them
//! // Apart: no penetration.
//! let far = Obb::new(Vec3::new(1.5, 0.0, 0.0), Quat::IDENTITY, Vec3::splat(0.5));
//! assert!(penetration(&a, &far).is_none());
//! ```

mod answer;
mod polytope;
#[cfg(test)]
mod tests;

use glam::DVec3;

use self::answer::unit_or;
use self::polytope::Polytope;
use super::gjk::{self, Run, Simplex, Vertex, TOLERANCE};
use super::support::SupportMap;
use crate::math::Vec3;
use std::cell::RefCell;

/// Largest number of polytope faces (live and dead) EPA allocates before it stops. Enough for
/// the expansion on hulls of thousands of vertices to converge (it adds one support point per
/// step and ends when the nearest face is on the boundary); a run that still reaches it
/// answers an upper bound of the depth, and the polyhedron queries then use the exact
/// separating-axis search instead.
pub const MAX_FACES: usize = 8192;

/// Largest number of expansion steps before EPA stops with the least overlap it has seen
/// (see [`MAX_FACES`]).
pub const MAX_ITERATIONS: u32 = 2048;

/// Penetration of two overlapping convex shapes (the minimum translation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Unit contact normal pointing from A toward B: moving B by `depth · normal` (or A by the
    /// opposite) leaves the shapes touching.
    pub normal: Vec3,
    /// Penetration depth `>= 0` (0 when touching).
    pub depth: f32,
    /// The deepest point of A inside B, on A's surface.
    pub point_a: Vec3,
    /// The deepest point of B inside A, on B's surface; `point_a - point_b = depth · normal`.
    pub point_b: Vec3,
}

/// Penetration depth and normal of two convex shapes (GJK, then EPA; rounded shapes by their
/// cores plus radii, see [`super::contact`]).
///
/// `None` when the shapes are apart by more than the touching tolerance
/// ([`gjk::TOLERANCE`] × scale), or when any input is NaN/infinite. Touching shapes give
/// `depth == 0` (within tolerance). Degenerate Minkowski differences (both shapes flat in a
/// common plane, both segments on a common line, or both single points) cannot be expanded
/// to a polytope; they give depth 0 with the normal of the common plane (or a direction
/// perpendicular to the common line, or the direction between the shapes' interior points, or
/// `+x`), oriented from A toward B where that is defined. The normal is unit length always.
#[must_use]
pub fn penetration<A, B>(a: &A, b: &B) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    penetration_cached(a, b, &mut gjk::GjkCache::default())
}

/// [`penetration`] with GJK warm-started from (and updating) a per-pair [`gjk::GjkCache`].
#[must_use]
pub fn penetration_cached<A, B>(a: &A, b: &B, cache: &mut gjk::GjkCache) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    // Rounded shapes overlap through their margins even when their cores are apart, so the
    // penetration is the contact of margin zero (GJK on the cores + radii, EPA when the cores
    // overlap); a touching answer a rounding error apart is clamped to depth 0.
    let c = super::contact::contact_cached(a, b, 0.0, cache)?;
    Some(Penetration {
        normal: c.normal,
        depth: c.depth.max(0.0),
        point_a: c.point_a,
        point_b: c.point_b,
    })
}

/// What [`expand`] found: the penetration, and whether the expansion converged (its nearest
/// face on the boundary of `M` to within the tolerance, or `M` flat: the depth is the
/// minimum) or stopped early (budget, or rounding that broke the polytope: the depth is the
/// overlap along the normal reported, an upper bound of the minimum).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expansion {
    pub pen: Penetration,
    pub converged: bool,
}

/// Builds a full-dimensional initial tetrahedron from GJK's simplex (adding support points
/// when it has fewer than 4 vertices), then runs EPA. `None` only for non-finite support
/// points. `hint`: a direction from A toward B, used to orient degenerate answers.
pub(crate) fn expand<FA, FB>(sa: FA, sb: FB, run: &Run, hint: Vec3) -> Option<Expansion>
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    let mut m = Minkowski {
        sa,
        sb,
        scale: run.scale,
    };
    let start = Start::new(&run.simplex, hint);
    crate::scratch::with(&SCRATCH, |scratch| {
        let poly = &mut scratch.poly;
        match start.tetrahedron(&mut m, &mut poly.verts) {
            Ok(()) => {}
            Err(Stop::NonFinite) => return None,
            Err(Stop::Flat(normal)) => {
                return start.touching(normal).map(|pen| Expansion {
                    pen,
                    converged: true,
                })
            }
        }
        poly.start_tetrahedron();
        poly.grow(&mut m, &start, &mut scratch.horizon)
    })
}

/// An expansion's lists: the polytope and the horizon of the faces a support point sees.
#[derive(Default)]
struct Scratch {
    poly: Polytope,
    horizon: Vec<(usize, usize)>,
}

thread_local! {
    /// Each thread's expansion lists ([`crate::scratch`]).
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The Minkowski difference `M = A − B` seen through the shapes' support maps, with the
/// largest coordinate of the support points seen so far (the scale of the touching tolerance).
pub(super) struct Minkowski<FA, FB> {
    pub(super) sa: FA,
    pub(super) sb: FB,
    pub(super) scale: f64,
}

impl<FA, FB> Minkowski<FA, FB>
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    /// The support point of `M` along `d`; `None` when either shape's is not finite.
    #[inline]
    fn support(&mut self, d: DVec3) -> Option<Vertex> {
        let d = gjk::to_dir(d);
        let (a, b) = ((self.sa)(d), (self.sb)(-d));
        if !a.is_finite() || !b.is_finite() {
            return None;
        }
        self.scale = self
            .scale
            .max(f64::from(a.abs().max_element()))
            .max(f64::from(b.abs().max_element()));
        Some(Vertex {
            w: a.as_dvec3() - b.as_dvec3(),
            a,
            b,
        })
    }

    /// The touching tolerance at the scale of the support points seen so far. Not GJK's scale
    /// alone: when GJK has seen only the origin (a point on the end of a segment) that scale
    /// is 0, and a point 1e-24 off the segment would make a "tetrahedron" whose normal runs
    /// along the segment.
    fn eps(&self) -> f64 {
        f64::from(TOLERANCE) * self.scale.max(f64::MIN_POSITIVE)
    }
}

/// Why GJK's simplex cannot be grown to a tetrahedron.
enum Stop {
    /// A support point was not finite.
    NonFinite,
    /// `M` is flat (a plane, a segment or a point): the shapes touch, at depth 0, across the
    /// plane of this normal.
    Flat(DVec3),
}

/// What EPA starts from: GJK's simplex, its touching (or common) point, and the direction from
/// A toward B that orients the degenerate answers.
pub(super) struct Start<'s> {
    pub(super) simplex: &'s Simplex,
    pub(super) hint: Vec3,
    pub(super) point_a: Vec3,
    pub(super) point_b: Vec3,
}

impl<'s> Start<'s> {
    fn new(simplex: &'s Simplex, hint: Vec3) -> Self {
        let (point_a, point_b) = simplex.witnesses();
        Self {
            simplex,
            hint,
            point_a,
            point_b,
        }
    }

    /// The answer for a Minkowski difference with no volume: depth 0 at GJK's point, along
    /// `normal` turned toward the hint.
    fn touching(&self, normal: DVec3) -> Option<Penetration> {
        let mut n = normal;
        let h = self.hint.as_dvec3();
        if n.dot(h) < 0.0 {
            n = -n;
        }
        let n = unit_or(n, h);
        Some(Penetration {
            normal: n,
            depth: 0.0,
            point_a: self.point_a,
            point_b: self.point_b,
        })
    }

    /// GJK's simplex grown to a tetrahedron of `M` oriented so that faces (0,1,2), (0,3,1),
    /// (0,2,3), (1,3,2) face outward: a point, a segment and a triangle each get the support
    /// point that spans one more dimension.
    fn tetrahedron<FA, FB>(
        &self,
        m: &mut Minkowski<FA, FB>,
        verts: &mut Vec<Vertex>,
    ) -> Result<(), Stop>
    where
        FA: Fn(Vec3) -> Vec3,
        FB: Fn(Vec3) -> Vec3,
    {
        self.spanning(m, verts)?;
        // The support points added may have shown `M` far larger than GJK's simplex did (GJK
        // can end on a few points 1e-20 apart at one corner of an `M` 200 across), and the
        // tolerance grows with them: GJK's vertices closer than it are then one point, whose
        // faces f64 cannot resolve at `M`'s size. Built again from the distinct ones.
        if !all_distinct(verts, m.eps()) {
            self.spanning(m, verts)?;
        }
        orient(verts)
    }

    /// Four vertices of `M` spanning its three dimensions: GJK's distinct ones, then support
    /// points off their point, line and plane (not yet oriented).
    fn spanning<FA, FB>(
        &self,
        m: &mut Minkowski<FA, FB>,
        verts: &mut Vec<Vertex>,
    ) -> Result<(), Stop>
    where
        FA: Fn(Vec3) -> Vec3,
        FB: Fn(Vec3) -> Vec3,
    {
        self.distinct_vertices(m, verts);
        // 1 vertex → 2: the first axis direction whose support point differs from it.
        if verts.len() == 1 && !push_spanning(m, verts, AXES)? {
            // M is a single point (both shapes are the same point).
            return Err(Stop::Flat(self.hint.as_dvec3()));
        }
        // 2 vertices → 3: directions ±p, ±q perpendicular to the segment; if M extends off
        // the line at all, one of them finds a point off it.
        if verts.len() == 2 {
            let dir = verts[1].w - verts[0].w;
            let (p, q) = perpendiculars(dir);
            if !push_spanning(m, verts, [p, -p, q, -q])? {
                return Err(Stop::Flat(self.across_segment(dir, p)));
            }
        }
        if verts.len() == 3 {
            off_the_plane(m, verts)?;
        }
        Ok(())
    }

    /// GJK's simplex vertices that pass the same tests as the support points added later: a
    /// vertex is kept only if it is more than `eps` from the previous one, off their line, off
    /// their plane. Two vertices closer than that (GJK can end on a triangle two of whose
    /// vertices are 1e-29 apart on an `M` 200 across) make tetrahedron faces with no normal
    /// f64 can resolve, never seen from any point and never removed; the fans attached to them
    /// leave the polytope non-convex, and the expansion cycles until the budget runs out.
    fn distinct_vertices<FA, FB>(&self, m: &Minkowski<FA, FB>, verts: &mut Vec<Vertex>)
    where
        FA: Fn(Vec3) -> Vec3,
        FB: Fn(Vec3) -> Vec3,
    {
        let s = self.simplex;
        verts.clear();
        for v in &s.v[..s.n] {
            if spans_new_dimension(verts, v.w, m.eps()) {
                verts.push(*v);
            }
        }
    }

    /// The normal of a touching along the segment `dir` (M is a segment through the origin):
    /// any perpendicular separates at depth 0; the hint's component across the segment when
    /// it has one. A hint (nearly) along the segment leaves only rounding noise after the
    /// projection, whose direction is arbitrary: then the fixed perpendicular `p`.
    fn across_segment(&self, dir: DVec3, p: DVec3) -> DVec3 {
        let h = self.hint.as_dvec3();
        let perp = h - dir * (h.dot(dir) / dir.length_squared());
        if perp.length() > 1e-6 * h.length() {
            perp
        } else {
            p
        }
    }
}

/// The six axis directions, searched for a support point off a single vertex.
const AXES: [DVec3; 6] = [
    DVec3::X,
    DVec3::NEG_X,
    DVec3::Y,
    DVec3::NEG_Y,
    DVec3::Z,
    DVec3::NEG_Z,
];

/// Two unit directions perpendicular to `dir` and to each other. `dir` is normalised first:
/// glam's `any_orthonormal_vector` needs a unit input (given a vector of length 0.044 it
/// returns one 87° from the perpendicular, and the search misses off-line points).
fn perpendiculars(dir: DVec3) -> (DVec3, DVec3) {
    let u = dir.normalize();
    let p = u.any_orthonormal_vector();
    (p, u.cross(p))
}

/// Pushes onto `verts` the support point along the first of `dirs` that spans a new
/// dimension (more than `eps` off the point or the line of `verts`); `false` when none does.
fn push_spanning<FA, FB>(
    m: &mut Minkowski<FA, FB>,
    verts: &mut Vec<Vertex>,
    dirs: impl IntoIterator<Item = DVec3>,
) -> Result<bool, Stop>
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    for d in dirs {
        let v = m.support(d).ok_or(Stop::NonFinite)?;
        if spans_new_dimension(verts, v.w, m.eps()) {
            verts.push(v);
            return Ok(true);
        }
    }
    Ok(false)
}

/// 3 vertices → 4: the support point farther from the triangle's plane, on either side.
fn off_the_plane<FA, FB>(m: &mut Minkowski<FA, FB>, verts: &mut Vec<Vertex>) -> Result<(), Stop>
where
    FA: Fn(Vec3) -> Vec3,
    FB: Fn(Vec3) -> Vec3,
{
    let n = (verts[1].w - verts[0].w).cross(verts[2].w - verts[0].w);
    let n = unit_or(n, DVec3::X).as_dvec3();
    let up = m.support(n).ok_or(Stop::NonFinite)?;
    let down = m.support(-n).ok_or(Stop::NonFinite)?;
    let (du, dd) = (n.dot(up.w - verts[0].w), -n.dot(down.w - verts[0].w));
    if du.max(dd) <= m.eps() {
        // M is flat: the shapes touch across their common plane.
        return Err(Stop::Flat(n));
    }
    verts.push(if du >= dd { up } else { down });
    Ok(())
}

/// Orients the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outward: that
/// needs det[w1 − w0, w2 − w0, w3 − w0] < 0.
fn orient(verts: &mut [Vertex]) -> Result<(), Stop> {
    let det = {
        let w0 = verts[0].w;
        (verts[1].w - w0).dot((verts[2].w - w0).cross(verts[3].w - w0))
    };
    if det > 0.0 {
        verts.swap(1, 2);
    } else if det == 0.0 || !det.is_finite() {
        // GJK's 4-vertex simplex had zero volume (it reports the origin inside only for
        // same-signed non-zero volumes, so this is unreachable for finite input).
        return Err(Stop::Flat(
            (verts[1].w - verts[0].w).cross(verts[2].w - verts[0].w),
        ));
    }
    Ok(())
}

/// `true` when each of `verts` is more than `eps` off the span of those before it
/// ([`spans_new_dimension`]).
fn all_distinct(verts: &[Vertex], eps: f64) -> bool {
    (0..verts.len()).all(|i| spans_new_dimension(&verts[..i], verts[i].w, eps))
}

/// `true` when `w` is more than `eps` from what `verts` (0 to 3 points, each already more than
/// `eps` off the span of those before it) span: from the point, the line, the plane. With 4
/// points there is nothing left to span.
fn spans_new_dimension(verts: &[Vertex], w: DVec3, eps: f64) -> bool {
    match verts {
        [] => true,
        [p] => (w - p.w).length() > eps,
        [p, q] => {
            let dir = q.w - p.w;
            (w - p.w).cross(dir).length() / dir.length() > eps
        }
        [p, q, r] => {
            let n = (q.w - p.w).cross(r.w - p.w);
            n.dot(w - p.w).abs() / n.length() > eps
        }
        _ => false,
    }
}
