//! A convex hull against one triangle by separating axes, for the mesh's hull contacts and casts.
//!
//! Hull and triangle are disjoint exactly when one of these axes separates them (the face
//! normals of their Minkowski difference): the triangle's normal (both ways), the hull's face
//! normals, and the cross product of a hull edge with a triangle edge when the two edges'
//! arcs on the Gauss map cross (G. Gregorius, *The Separating Axis Test between Convex
//! Polyhedra*, GDC 2013). Overlapping, the axis of least penetration is the contact normal
//! and its penetration the depth, exactly (GJK and EPA find the same within their tolerances,
//! at several times the cost).
//!
//! The triangle is a flat polygon: its Gauss map is its two normals `±n` and, for each edge
//! `g`, the half circle from `n` to `−n` through the edge's outward normal in the plane,
//! `m = g × n`. The difference hull − triangle takes the triangle's map negated. A hull edge
//! between faces of normals `a` and `b` has the arc from `a` to `b`, which crosses the great
//! circle normal to `g` when `a·g` and `b·g` have opposite signs, at
//! `x = (a·g) b − (b·g) a` (up to sign, turned to lie between `a` and `b`); the negated half
//! circle holds `x` when `x·m < 0`.

use std::cell::RefCell;

use super::box_triangle::feature_witnesses;
use crate::convex::{Contact, ConvexHull, Posed, SupportMap};
use crate::math::Vec3;
use crate::scratch;
use crate::shapes::Triangle;
use glam::{DMat3, DVec3};

/// Hulls with more edges than this take the general path (GJK and EPA), whose cost grows
/// with the number of support steps, not with the hull's size.
pub(super) const MAX_EDGES: usize = 256;

/// Whether the exact paths take the posed hull `h`: at most [`MAX_EDGES`] edges, and a
/// rotation with orthonormal columns (to 1e-5; a pose built by hand may have another, which
/// the general path's support points still follow).
pub(super) fn takes(h: &Posed<&ConvexHull>) -> bool {
    let r = h.rotation;
    let (x, y, z) = (r.x_axis, r.y_axis, r.z_axis);
    let unit = |v: Vec3| (v.length_squared() - 1.0).abs() <= 1e-5;
    let square = |a: Vec3, b: Vec3| a.dot(b).abs() <= 1e-5;
    h.shape.edges().len() <= MAX_EDGES
        && unit(x)
        && unit(y)
        && unit(z)
        && square(x, y)
        && square(y, z)
        && square(z, x)
}

/// Squared length, relative to the squared lengths of its two factors, below which a cross
/// product counts as zero (parallel edges, or a triangle of no area): it then separates
/// nothing and is skipped, which can only report contact, never miss one.
const DEGENERATE_AXIS: f64 = 1e-10;

/// Relative rounding of a facet's offset in `f64` (the `f32` inputs' products are exact to
/// about 1e-16; this leaves room for the few operations of projecting them): with the hull's
/// own tolerance, the sweep widens every offset by this much, so it is never late.
const ROUNDING: f64 = 1e-12;

/// Hull edges whose arcs the edge phase of [`for_each_facet`] tests before it visits the
/// crossing ones (a stack array).
const CROSSING_BLOCK: usize = 64;

/// Relative heights below which a hull's vertices tie as its feature deepest along a normal.
const FEATURE_EPS: f32 = 1e-4;

/// The least penetration found so far: its depth and the unit normal from the triangle
/// toward the hull, in the hull's frame.
#[derive(Clone, Copy)]
struct Least {
    depth: f64,
    normal: DVec3,
}

impl Least {
    /// Keeps the axis when it penetrates less (a NaN depth is kept for good: the general path
    /// then decides); `false` when it separates the two by more than `margin` (no contact).
    #[inline]
    fn take(&mut self, depth: f64, normal: DVec3, margin: f64) -> bool {
        if (depth < self.depth || depth.is_nan()) && !self.depth.is_nan() {
            *self = Least { depth, normal };
        }
        depth >= -margin || depth.is_nan()
    }
}

/// The triangle `c` in the frame of the posed hull `h`, in `f64` (exact to about 1e-16 of the
/// coordinates), its unit normal and the motion `motion` in that frame; `None` when the
/// triangle has no area or the input is not finite.
fn into_hull_frame(
    h: &Posed<&ConvexHull>,
    c: &[Vec3; 3],
    motion: Vec3,
) -> Option<([DVec3; 3], DVec3, DVec3)> {
    let to_local = h.rotation.transpose().as_dmat3();
    let m = to_local * motion.as_dvec3();
    let (p, n) = triangle_in_frame(&to_local, h.translation.as_dvec3(), c)?;
    m.is_finite().then_some((p, n, m))
}

/// The triangle `c` taken into a hull's frame by `to_local` after the hull's position `t`
/// (in `f64`), with its unit normal; `None` when it has no area or is not finite.
#[inline(always)]
fn triangle_in_frame(to_local: &DMat3, t: DVec3, c: &[Vec3; 3]) -> Option<([DVec3; 3], DVec3)> {
    let p = c.map(|q| *to_local * (q.as_dvec3() - t));
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let cross = edges[0].cross(edges[1]);
    let area = cross.length_squared();
    let scale = edges[0].length_squared() * edges[1].length_squared();
    let flat = area.is_nan() || area <= DEGENERATE_AXIS * scale;
    (!flat).then(|| (p, cross.normalize()))
}

/// The contact of the posed hull `h` with triangle `c` (the triangle as A, so the normal
/// runs from the triangle toward the hull) within `margin`, as
/// [`crate::convex::contact::contact`] gives it: by separating axes when they overlap, by GJK
/// when they are apart within the margin (or an axis is NaN or the triangle has no area);
/// `None` when they are farther apart than `margin`.
pub(super) fn hull_contact(h: &Posed<&ConvexHull>, c: &[Vec3; 3], margin: f32) -> Option<Contact> {
    let general = || crate::convex::contact::contact(&Triangle::new(c[0], c[1], c[2]), h, margin);
    let Some((p, n, _)) = into_hull_frame(h, c, Vec3::ZERO) else {
        return general();
    };
    let least = scratch::with(&ACROSS, |across| {
        least_penetration(h.shape, &p, n, f64::from(margin), across)
    })?;
    if least.depth.is_nan() || least.depth < 0.0 {
        // Apart within the margin, or a NaN axis: GJK decides.
        return general();
    }
    let (normal, depth) = (least.normal.as_vec3(), least.depth as f32);
    let (on_triangle, on_hull) = witnesses(h.shape, &p.map(DVec3::as_vec3), normal, depth);
    let found = Contact {
        normal: h.rotation * normal,
        depth,
        point_a: h.to_world(on_triangle),
        point_b: h.to_world(on_hull),
    };
    let finite = found.point_a.is_finite() && found.point_b.is_finite();
    (finite && found.normal.is_finite()).then_some(found)
}

thread_local! {
    /// Each thread's products of a hull's face normals with a triangle's edges
    /// ([`crate::scratch`]).
    static ACROSS: RefCell<Vec<[f64; 4]>> = const { RefCell::new(Vec::new()) };
}

/// The least penetration of `hull` and triangle `p` (in the hull's frame, unit normal `n`)
/// over the separating axes (module docs), or `None` when one separates them by more than
/// `margin`. `across` is scratch space.
fn least_penetration(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    margin: f64,
    across: &mut Vec<[f64; 4]>,
) -> Option<Least> {
    let mut least = Least {
        depth: f64::INFINITY,
        normal: n,
    };
    // A facet at offset `d` from the origin along its normal `l` is penetrated by `d`; the
    // hull leaves it moving along `−l`.
    let all = for_each_facet(hull, p, n, across, true, |l, d| least.take(d, -l, margin));
    all.then_some(least)
}

/// The faces of the difference hull − triangle (in the hull's frame, the triangle `p` of unit
/// normal `n`): `visit(l, d)` for each, with `l` its unit outward normal and `d` its offset
/// from the origin along `l`, the difference's support along `l`: the triangle's normal both
/// ways, the hull's faces, then the edge pairs whose arcs cross (module docs). The origin is
/// inside the difference (hull and triangle overlap) exactly when every `d >= 0`. `visit`
/// returns `false` to stop; then so does this. `across` is scratch space; `lanes` lets the
/// edge pairs be found several lanes at a time ([`edge_facets`]).
fn for_each_facet(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    across: &mut Vec<[f64; 4]>,
    lanes: bool,
    mut visit: impl FnMut(DVec3, f64) -> bool,
) -> bool {
    normal_facets(hull, p, n, &mut visit)
        && face_facets(hull, p, across, &mut visit)
        && edge_facets(hull, p, n, across, lanes, |edges, met| {
            pair_facets(hull, p, edges, across, met, &mut visit)
        })
}

/// Whether the AVX paths can run on this CPU (a run-time check, cached by the standard
/// library).
#[inline]
fn avx() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The first facets of [`for_each_facet`]: the triangle's normal `n`, both ways.
fn normal_facets(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    visit: &mut impl FnMut(DVec3, f64) -> bool,
) -> bool {
    // The hull spans `[lo, hi]` along the normal, the triangle's plane is at `o`.
    let o = n.dot(p[0]);
    let along = |d: DVec3| n.dot(hull.support(d.as_vec3()).as_dvec3());
    let (lo, hi) = (along(-n), along(n));
    visit(n, hi - o) && visit(-n, o - lo)
}

/// The hull's faces as facets of [`for_each_facet`]: offset less the triangle's lowest corner.
/// The differences of the corners' heights over each face are the face normal's products with
/// the triangle's edges, which the edge pairs' arcs need: kept in `across` ([`across_of`]).
fn face_facets(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    across: &mut Vec<[f64; 4]>,
    visit: &mut impl FnMut(DVec3, f64) -> bool,
) -> bool {
    let faces = hull.faces();
    make_room(across, faces.len());
    for (f, face) in faces.iter().enumerate() {
        let nf = face.plane.normal.as_dvec3();
        let h = DVec3::from(p.map(|q| nf.dot(q)));
        if !visit(nf, -f64::from(face.plane.d) - h.min_element()) {
            return false;
        }
        let a = DVec3::new(h.y, h.z, h.x) - h;
        if let Some(slot) = across.get_mut(f) {
            *slot = [a.x, a.y, a.z, 0.0];
        }
    }
    true
}

/// `across` long enough for `faces` faces, in groups of four: per face its products with
/// the triangle's three edges (and a fourth value, unused).
fn make_room(across: &mut Vec<[f64; 4]>, faces: usize) {
    let len = 4 * faces.div_ceil(4);
    if across.len() < len {
        across.resize(len, [0.0; 4]);
    }
}

/// Face `f`'s products with the triangle's edges, from `across` as [`face_facets`] leaves it;
/// `None` past its end.
#[inline(always)]
fn across_of(across: &[[f64; 4]], f: usize) -> Option<DVec3> {
    across.get(f).map(|a| DVec3::new(a[0], a[1], a[2]))
}

/// The last facets of [`for_each_facet`]: the edge pairs whose arcs cross, the face through
/// the hull edge's point `v` less the triangle edge's point, normal `l` (unit, toward the
/// crossing `x`). `across` as [`face_facets`] leaves it. The pairs go to `on_pairs` (with the
/// triangle's edges) a block at a time, in order; it visits their facets ([`pair_facets`]) and
/// returns `false` to stop. With `lanes` (and AVX) the crossing edges and the pairs on the
/// half circle are found three lanes at a time ([`avx::crossing_edges`],
/// [`avx::half_circle_pairs`]): the same values, the same pairs.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn edge_facets(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    n: DVec3,
    across: &[[f64; 4]],
    lanes: bool,
    mut on_pairs: impl FnMut(&[DVec3; 3], &[(u32, u32)]) -> bool,
) -> bool {
    let faces = hull.faces();
    let edges = [p[1] - p[0], p[2] - p[1], p[0] - p[2]];
    let outward = edges.map(|g| g.cross(n));
    // In blocks of `CROSSING_BLOCK` edges: first each edge's lanes whose arcs cross, kept
    // when any does (a store every time and a count that moves only then, no branch that
    // depends on the data), then the kept edges' pairs in the same order.
    let hull_edges = hull.edges();
    let mut kept = [(0u32, 0u32); CROSSING_BLOCK];
    let mut met = [(0u32, 0u32); 3 * CROSSING_BLOCK];
    #[cfg(target_arch = "x86_64")]
    let lanes = lanes && avx();
    for (block, chunk) in hull_edges.chunks(CROSSING_BLOCK).enumerate() {
        let first = (block * CROSSING_BLOCK) as u32;
        #[cfg(target_arch = "x86_64")]
        if lanes {
            // SAFETY: the AVX functions only need the CPU to have AVX, checked above.
            let count = unsafe { avx::crossing_edges(chunk, first, across, &mut kept) };
            let pairs =
                unsafe { avx::half_circle_pairs(&kept[..count], hull, across, &outward, &mut met) };
            if !on_pairs(&edges, &met[..pairs]) {
                return false;
            }
            continue;
        }
        let mut count = 0;
        for (j, e) in chunk.iter().enumerate() {
            let [fa, fb] = e.faces.map(|f| f as usize);
            let (Some(ag), Some(bg)) = (across_of(across, fa), across_of(across, fb)) else {
                continue;
            };
            // Lane `k`: the arc crosses the great circle normal to triangle edge `k`.
            let crossing = (ag * bg).cmplt(DVec3::ZERO).bitmask();
            kept[count] = (first + j as u32, crossing);
            count += usize::from(crossing != 0);
        }
        // The kept edges' pairs whose crossing lies on the triangle's negated half circle,
        // found the same way; their facets visited after.
        let mut pairs = 0;
        for &(i, crossing) in &kept[..count] {
            let [fa, fb] = hull_edges[i as usize].faces.map(|f| f as usize);
            let (Some(ag), Some(bg)) = (across_of(across, fa), across_of(across, fb)) else {
                continue;
            };
            let (a, b) = (
                faces[fa].plane.normal.as_dvec3(),
                faces[fb].plane.normal.as_dvec3(),
            );
            for k in 0..3 {
                let side = crossing_point(a, b, ag[k], bg[k]).dot(outward[k]);
                met[pairs] = (i, k as u32);
                pairs += usize::from(crossing & (1 << k) != 0 && side < 0.0);
            }
        }
        if !on_pairs(&edges, &met[..pairs]) {
            return false;
        }
    }
    true
}

/// The facets of the edge pairs `met` of [`edge_facets`] ([`PairRead::facet`]), visited in order;
/// `false` when `visit` stopped.
fn pair_facets(
    hull: &ConvexHull,
    p: &[DVec3; 3],
    edges: &[DVec3; 3],
    across: &[[f64; 4]],
    met: &[(u32, u32)],
    visit: &mut impl FnMut(DVec3, f64) -> bool,
) -> bool {
    met.iter().all(|&pair| {
        PairRead::of(hull, p, edges, across, pair)
            .and_then(|r| r.facet())
            .is_none_or(|(l, d)| visit(l, d))
    })
}

/// What [`PairRead::facet`] (and [`avx::interval_pairs`], four at a time) reads for an edge pair:
/// the two faces' normals, their products with the triangle edge, the hull edge's ends,
/// the triangle edge and its first corner; `ok` is 1 for a pair whose data exist.
#[derive(Clone, Copy, Default)]
struct PairRead {
    a: DVec3,
    b: DVec3,
    ag: f64,
    bg: f64,
    v: DVec3,
    w: DVec3,
    g: DVec3,
    corner: DVec3,
    ok: f64,
}

impl PairRead {
    /// The data of pair `(i, k)` (hull edge `i`, triangle edge `k` of `edges`, which start
    /// at the corners `p`); `None` past the hull's edges or `across`.
    #[inline(always)]
    fn of(
        hull: &ConvexHull,
        p: &[DVec3; 3],
        edges: &[DVec3; 3],
        across: &[[f64; 4]],
        (i, k): (u32, u32),
    ) -> Option<PairRead> {
        let (faces, vertices) = (hull.faces(), hull.vertices());
        let (e, k) = (hull.edges().get(i as usize)?, k as usize);
        let [fa, fb] = e.faces.map(|f| f as usize);
        let (ra, rb) = (across.get(fa)?, across.get(fb)?);
        Some(PairRead {
            a: faces[fa].plane.normal.as_dvec3(),
            b: faces[fb].plane.normal.as_dvec3(),
            ag: ra[k],
            bg: rb[k],
            v: vertices[e.vertices[0] as usize].as_dvec3(),
            w: vertices[e.vertices[1] as usize].as_dvec3(),
            g: edges[k],
            corner: p[k],
            ok: 1.0,
        })
    }

    /// The facet of the pair (its arcs cross): its unit normal `l` (toward the crossing) and
    /// offset `d`; `None` when the edges are parallel (or a product is NaN), which separates
    /// nothing.
    #[inline(always)]
    fn facet(&self) -> Option<(DVec3, f64)> {
        let x = crossing_point(self.a, self.b, self.ag, self.bg);
        let along = self.w - self.v;
        let l = along.cross(self.g);
        let ll = l.length_squared();
        let parallel = DEGENERATE_AXIS * along.length_squared() * self.g.length_squared();
        if ll.is_nan() || ll <= parallel {
            return None;
        }
        let l = if l.dot(x) < 0.0 { -l } else { l } / ll.sqrt();
        Some((l, l.dot(self.v - self.corner)))
    }
}

/// Where the Gauss-map arc from face normal `a` to `b` crosses the great circle normal to a
/// triangle edge `g`, up to a positive factor, given `ag = a·g` and `bg = b·g` of opposite
/// signs: `(a·g) b − (b·g) a` is normal to `g`, and turned by the sign of `a·g` it has
/// positive weights on both ends. Not a crossing (any vector) when the signs agree.
#[inline]
fn crossing_point(a: DVec3, b: DVec3, ag: f64, bg: f64) -> DVec3 {
    (b * ag - a * bg) * ag.signum()
}

/// A posed hull moving by a motion, taken into the hull's frame once for all the triangles
/// of a cast ([`HullSweep::triangle`]).
pub(super) struct HullSweep<'a> {
    posed: Posed<&'a ConvexHull>,
    /// The hull's rotation inverted, in `f64`.
    to_local: DMat3,
    /// The hull's position, in `f64`.
    origin: DVec3,
    /// The motion in the hull's frame.
    motion: DVec3,
}

impl<'a> HullSweep<'a> {
    /// The posed hull `h` moving by `motion`.
    pub(super) fn new(h: &Posed<&'a ConvexHull>, motion: Vec3) -> HullSweep<'a> {
        let to_local = h.rotation.transpose().as_dmat3();
        HullSweep {
            posed: *h,
            to_local,
            origin: h.translation.as_dvec3(),
            motion: to_local * motion.as_dvec3(),
        }
    }

    /// The hull against the fixed triangle `c`: the time of first contact in `[0, limit]`
    /// (`limit <= 1`), a point of the contact and the unit normal from the triangle toward the
    /// hull, or `None` when they do not meet by then (or the triangle has no area, or the input
    /// is not finite: then `Err(())`, and the caller takes the general sweep).
    ///
    /// The difference hull − triangle is a fixed polytope (translation does not change it),
    /// and the hull moved by `u·m` meets the triangle when the origin lies in the difference
    /// moved by `u·m`: on every facet `(l, d)` ([`for_each_facet`]), `d + u (l·m) >= 0`, an
    /// interval of `u`. The intersection of the intervals starts at the exact time of first
    /// contact, and its latest-starting facet is the normal there. In `f64`, each offset
    /// widened by the hull's tolerance and [`ROUNDING`] of the coordinates, so the time is
    /// never late. One facet whose interval misses `[0, limit]` keeps them apart whatever the
    /// others give: the hull's faces are first tried so in `f32`, four at a time
    /// ([`ConvexHull::a_face_clears`]), which rejects most triangles the cast passes by for a
    /// fraction of the `f64` walk, and only where that walk would reject them too.
    ///
    /// Overlapping or touching at the start: the normal is that of least penetration, and the
    /// triangle is hit at `0` only when the motion goes deeper along it (the starting-touch
    /// rule, [`crate::sweep::ALONG_TOLERANCE`]), else `None`.
    pub(super) fn triangle(&self, c: &[Vec3; 3], limit: f32) -> Result<Option<HullHit>, ()> {
        self.sweep(c, limit, true)
    }

    /// The time, a point of the contact and the unit normal of `hit`, found by
    /// [`HullSweep::triangle`] on the triangle `c`: for a contact after the start, the witness
    /// of the hull's feature on the triangle moved back by the motion ([`witnesses`]), found
    /// only for the triangle a cast keeps. `None` when the point is not finite.
    pub(super) fn contact_of(&self, c: &[Vec3; 3], hit: HullHit) -> Option<(f32, Vec3, Vec3)> {
        let (toi, point, normal) = match hit {
            HullHit::Entered { from, entered } => {
                let (h, m) = (&self.posed, self.motion);
                let (p, _) = triangle_in_frame(&self.to_local, self.origin, c)?;
                let toi = from as f32;
                let moved = p.map(|q| (q - m * from).as_vec3());
                let normal = -entered.as_vec3();
                let (on_triangle, _) = witnesses(h.shape, &moved, normal, 0.0);
                let point = h.to_world(on_triangle + m.as_vec3() * toi);
                (toi, point, h.rotation * normal)
            }
            HullHit::AtStart { point, normal } => (0.0, point, normal),
        };
        point.is_finite().then_some((toi, point, normal))
    }
    /// [`HullSweep::triangle`]; `fast` takes the faces' `f32` test first and, with AVX, the
    /// faces four at a time ([`Interval::faces`]): without, the same answer by the one-by-one
    /// walk alone.
    fn sweep(&self, c: &[Vec3; 3], limit: f32, fast: bool) -> Result<Option<HullHit>, ()> {
        let (h, m) = (&self.posed, self.motion);
        if !m.is_finite() {
            return Err(());
        }
        let (p, n) = triangle_in_frame(&self.to_local, self.origin, c).ok_or(())?;
        // Vertices lie up to three tolerances above their faces' planes (and the hull is convex
        // to two), so the difference's true support may pass a facet by that much.
        let size = p[0].abs().max(p[1].abs()).max(p[2].abs()).max_element() + m.abs().max_element();
        let slack = 3.0 * f64::from(h.shape.tolerance()) + ROUNDING * size;
        let limit = f64::from(limit);
        // A face with the triangle in front of it by more than the slack, at the start and
        // with the hull moved by `limit · m` (the triangle moved back by as much), is such a
        // facet.
        let (corners, shift) = (p.map(DVec3::as_vec3), (-m * limit).as_vec3());
        if fast && h.shape.a_face_clears(&corners, shift, slack as f32) {
            return Ok(None);
        }
        let mut interval = Interval::new(m, slack, limit, n);
        let met = scratch::with(&ACROSS, |across| {
            interval.walk(h.shape, &p, n, across, fast)
        });
        if !met {
            return Ok(None);
        }
        let Interval {
            from,
            entered,
            least,
            ..
        } = interval;
        let mf = m.as_vec3();
        if from > 0.0 {
            return Ok(Some(HullHit::Entered { from, entered }));
        }
        if least.depth.is_nan() {
            return Err(());
        }
        let normal = least.normal.as_vec3();
        let deeper = normal.dot(mf) < -crate::sweep::ALONG_TOLERANCE * mf.length();
        if !deeper {
            return Ok(None);
        }
        let depth = least.depth.max(0.0) as f32;
        let (on_triangle, on_hull) = witnesses(h.shape, &p.map(DVec3::as_vec3), normal, depth);
        let point = h.to_world((on_triangle + on_hull) * 0.5);
        let normal = h.rotation * normal;
        Ok(Some(HullHit::AtStart { point, normal }))
    }
}

/// What [`HullSweep::triangle`] finds when the hull meets the triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum HullHit {
    /// First met at the time `from`, after the start, through the facet of unit normal
    /// `entered` (in the hull's frame; the contact normal is its opposite): the point is found
    /// by [`HullSweep::contact_of`].
    Entered { from: f64, entered: DVec3 },
    /// Touching or overlapping at the start and moving deeper: time 0, a point of the contact
    /// and the unit normal from the triangle toward the hull.
    AtStart { point: Vec3, normal: Vec3 },
}

impl HullHit {
    /// The time of first contact, rounded to `f32` (as [`HullSweep::contact_of`] gives it).
    pub(super) fn toi(self) -> f32 {
        match self {
            HullHit::Entered { from, .. } => from as f32,
            HullHit::AtStart { .. } => 0.0,
        }
    }
}

/// The times at which a hull moving by `motion` meets a triangle ([`HullSweep::triangle`]):
/// each facet `(l, d)` of their difference, its offset widened by `slack`, holds the origin
/// for the `u` with `d + slack + u (l · motion) >= 0`, an interval; their intersection so far
/// is `[from, to]`, `entered` the normal of the facet that set `from` (the first of ties), and
/// `least` the least penetration (for a contact at the start).
struct Interval {
    motion: DVec3,
    slack: f64,
    limit: f64,
    from: f64,
    to: f64,
    entered: DVec3,
    least: Least,
}

impl Interval {
    /// No facet taken yet (every time in the intersection) for a hull moving by `motion`
    /// against a triangle of unit normal `n`: its facets widened by `slack`, times up to
    /// `limit` wanted.
    fn new(motion: DVec3, slack: f64, limit: f64, n: DVec3) -> Interval {
        Interval {
            motion,
            slack,
            limit,
            from: f64::NEG_INFINITY,
            to: f64::INFINITY,
            entered: n,
            least: Least {
                depth: f64::INFINITY,
                normal: n,
            },
        }
    }

    /// Whether the intersection still meets `[0, limit]`.
    #[inline]
    fn meets(&self) -> bool {
        self.from <= self.to && self.from <= self.limit && self.to >= 0.0
    }

    /// Takes the facet of unit normal `l` at offset `d`; `false` once the intersection
    /// misses `[0, limit]` (or a facet parallel to the motion keeps them apart).
    #[inline]
    fn facet(&mut self, l: DVec3, d: f64) -> bool {
        self.least.take(d, -l, f64::INFINITY);
        let (d, w) = (d + self.slack, l.dot(self.motion));
        if w > 0.0 {
            let start = -d / w;
            if start > self.from {
                (self.from, self.entered) = (start, l);
            }
        } else if w < 0.0 {
            self.to = self.to.min(-d / w);
        } else if d < 0.0 || d.is_nan() {
            return false;
        }
        self.meets()
    }

    /// Takes every facet of hull − triangle `p` (normal `n`) in [`for_each_facet`]'s order;
    /// `false` when the intersection misses `[0, limit]`. With `lanes` (and AVX), the
    /// hull's faces four at a time ([`avx::interval_faces`]), with the same values and the
    /// same choice among ties. `across` is scratch space.
    fn walk(
        &mut self,
        hull: &ConvexHull,
        p: &[DVec3; 3],
        n: DVec3,
        across: &mut Vec<[f64; 4]>,
        lanes: bool,
    ) -> bool {
        normal_facets(hull, p, n, &mut |l, d| self.facet(l, d))
            && self.faces(hull, p, across, lanes)
            && edge_facets(hull, p, n, across, lanes, |edges, met| {
                self.pairs(hull, p, edges, across, met, lanes)
            })
    }

    /// The edge pairs' facets of [`Interval::walk`]: with `lanes` (and AVX) four at a time
    /// ([`avx::interval_pairs`]), the same values and the same choice among ties.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn pairs(
        &mut self,
        hull: &ConvexHull,
        p: &[DVec3; 3],
        edges: &[DVec3; 3],
        across: &[[f64; 4]],
        met: &[(u32, u32)],
        lanes: bool,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if lanes && avx() && !met.is_empty() {
            // SAFETY: `avx::interval_pairs` only needs the CPU to have AVX, checked just above.
            let found = unsafe { avx::interval_pairs(hull, p, edges, across, met, self) };
            return found.is_some_and(|found| {
                let normal = |f: usize| {
                    let pair = met[f.min(met.len() - 1)];
                    PairRead::of(hull, p, edges, across, pair)
                        .and_then(|r| r.facet())
                        .map_or(DVec3::ZERO, |(l, _)| l)
                };
                self.take_found(&found, normal)
            });
        }
        pair_facets(hull, p, edges, across, met, &mut |l, d| self.facet(l, d))
    }

    /// The hull's faces of [`Interval::walk`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn faces(
        &mut self,
        hull: &ConvexHull,
        p: &[DVec3; 3],
        across: &mut Vec<[f64; 4]>,
        lanes: bool,
    ) -> bool {
        let faces = hull.faces();
        #[cfg(target_arch = "x86_64")]
        if lanes && avx() {
            if let Some((groups, offsets)) = hull.plane_lanes().groups_in_order() {
                if groups.len() == faces.len().div_ceil(4) {
                    make_room(across, faces.len());
                    // SAFETY: `avx::interval_faces` only needs the CPU to have AVX, checked
                    // just above.
                    let found = unsafe { avx::interval_faces(groups, offsets, p, self, across) };
                    return found.is_some_and(|found| {
                        let normal = |f: usize| {
                            let face = faces.get(f.min(faces.len().saturating_sub(1)));
                            face.map_or(DVec3::ZERO, |face| face.plane.normal.as_dvec3())
                        };
                        self.take_found(&found, normal)
                    });
                }
            }
        }
        face_facets(hull, p, across, &mut |l, d| self.facet(l, d))
    }

    /// Takes what [`avx::interval_faces`] or [`avx::interval_pairs`] found over a run of
    /// facets (`normal(f)` the unit normal of the run's facet `f`), as taking them one at a
    /// time would have: the least offset and the latest start, each at its first facet; a
    /// NaN offset makes the least penetration NaN for good, as [`Least::take`] does.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn take_found(&mut self, found: &LanesFound, normal: impl Fn(usize) -> DVec3) -> bool {
        if found.nan {
            self.least.take(f64::NAN, self.least.normal, f64::INFINITY);
        } else if let Some((d, f)) = first_of(found.least, found.least_group, |a, b| a < b) {
            self.least.take(d, -normal(f), f64::INFINITY);
        }
        if let Some((start, f)) = first_of(found.start, found.start_group, |a, b| a > b) {
            if start > self.from {
                (self.from, self.entered) = (start, normal(f));
            }
        }
        self.to = found.to;
        true
    }
}

/// What [`avx::interval_faces`] or [`avx::interval_pairs`] found over a run of facets (the
/// hull's faces, or edge pairs), per lane `k` (the facets `4g + k`): the least offset and the
/// latest start, each with the group where it first appeared (−1 for none), and over all
/// lanes the earliest end (with the interval's before) and whether an offset was NaN.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct LanesFound {
    least: [f64; 4],
    least_group: [f64; 4],
    start: [f64; 4],
    start_group: [f64; 4],
    to: f64,
    nan: bool,
}

/// The best of the lanes' values by `better` and its facet `4 group + lane`, the smallest
/// facet among ties; `None` when no lane has a group.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn first_of(
    value: [f64; 4],
    group: [f64; 4],
    better: impl Fn(f64, f64) -> bool,
) -> Option<(f64, usize)> {
    (0..4)
        .filter(|&k| group[k] >= 0.0)
        .map(|k| (value[k], 4 * group[k] as usize + k))
        .reduce(|a, b| {
            if better(b.0, a.0) || (b.0 == a.0 && b.1 < a.1) {
                b
            } else {
                a
            }
        })
}

/// The witnesses of hull and triangle `p` (in the hull's frame) overlapping by `depth` along
/// `n` (from the triangle toward the hull): [`feature_witnesses`] of the hull's feature
/// deepest along `−n`: its support vertex, the edge to a neighbour as deep (within
/// `FEATURE_EPS` of the hull's size), or the face most turned toward `−n` when more are.
fn witnesses(hull: &ConvexHull, p: &[Vec3; 3], n: Vec3, depth: f32) -> (Vec3, Vec3) {
    let vertices = hull.vertices();
    let deepest = hull.support_index(-n);
    let base = n.dot(vertices[deepest]);
    let tie = FEATURE_EPS * 2.0 * hull.outer_ball().1;
    let level = |i: u32| n.dot(vertices[i as usize]) <= base + tie;
    let mut ties = hull
        .neighbours(deepest)
        .iter()
        .copied()
        .filter(|&i| level(i));
    let feature: ([Vec3; 2], usize) = match (ties.next(), ties.next()) {
        (None, _) => ([vertices[deepest]; 2], 1),
        (Some(i), None) => ([vertices[deepest], vertices[i as usize]], 2),
        (Some(_), Some(_)) => {
            let f = hull.most_aligned_face(-n);
            let corners = hull.face_vertices(f);
            let mut face = [Vec3::ZERO; MAX_FACE];
            let count = corners.len().min(MAX_FACE);
            for (slot, &i) in face.iter_mut().zip(corners) {
                *slot = vertices[i as usize];
            }
            return feature_witnesses(&face[..count], p, n, depth);
        }
    };
    feature_witnesses(&feature.0[..feature.1], p, n, depth)
}

/// Corners of a hull face used as a contact feature (a face with more keeps its first ones:
/// the clipped edge is then a little short, never outside the face).
const MAX_FACE: usize = 32;

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::{
        __m128, __m256d, _mm256_add_pd, _mm256_and_pd, _mm256_andnot_pd, _mm256_blendv_pd,
        _mm256_castpd256_pd128, _mm256_cmp_pd, _mm256_cvtps_pd, _mm256_div_pd,
        _mm256_extractf128_pd, _mm256_loadu_pd, _mm256_min_pd, _mm256_movemask_pd, _mm256_mul_pd,
        _mm256_or_pd, _mm256_permute2f128_pd, _mm256_set1_pd, _mm256_set_pd, _mm256_setzero_pd,
        _mm256_sqrt_pd, _mm256_storeu_pd, _mm256_sub_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd,
        _mm256_xor_pd, _mm_cvtsd_f64, _mm_max_pd, _mm_min_pd, _mm_unpackhi_pd, _CMP_EQ_OQ,
        _CMP_GT_OQ, _CMP_LT_OQ, _CMP_NGE_UQ, _CMP_NLE_UQ, _CMP_ORD_Q, _CMP_UNORD_Q,
    };

    use glam::{DVec3, Vec4};

    use super::{Interval, LanesFound, PairRead, CROSSING_BLOCK};
    use crate::convex::{ConvexHull, HullEdge};

    /// `l · q` in four lanes, summed `x + y + z` as `DVec3::dot` sums it (one rounded product
    /// and sum per lane, no fused multiply-add: the one-by-one walk's values, bit for bit).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn dot(l: &[__m256d; 3], q: &[__m256d; 3]) -> __m256d {
        let xy = _mm256_add_pd(_mm256_mul_pd(l[0], q[0]), _mm256_mul_pd(l[1], q[1]));
        _mm256_add_pd(xy, _mm256_mul_pd(l[2], q[2]))
    }

    /// `v` in every lane.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn splat(v: DVec3) -> [__m256d; 3] {
        [
            _mm256_set1_pd(v.x),
            _mm256_set1_pd(v.y),
            _mm256_set1_pd(v.z),
        ]
    }

    /// The `f32` coordinate `x`, widened, in every lane.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn splat1(x: f32) -> __m256d {
        _mm256_set1_pd(f64::from(x))
    }

    /// The largest and the smallest lane of `big` and `small` (neither holds a NaN).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn largest_smallest(big: __m256d, small: __m256d) -> (f64, f64) {
        let big = _mm_max_pd(_mm256_castpd256_pd128(big), _mm256_extractf128_pd::<1>(big));
        let small = _mm_min_pd(
            _mm256_castpd256_pd128(small),
            _mm256_extractf128_pd::<1>(small),
        );
        (
            _mm_cvtsd_f64(_mm_max_pd(big, _mm_unpackhi_pd(big, big))),
            _mm_cvtsd_f64(_mm_min_pd(small, _mm_unpackhi_pd(small, small))),
        )
    }

    /// The first phase of [`super::edge_facets`] on one block of hull edges, `chunk`
    /// (numbered from `first`): each edge's lanes `k` whose arcs cross the great circle normal
    /// to triangle edge `k` (`a[k] · b[k] < 0` for its faces' rows `a`, `b` of `across`, all
    /// three lanes in one product and compare: the same products, so the same lanes), kept in
    /// `kept` when any does; how many were kept.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn crossing_edges(
        chunk: &[HullEdge],
        first: u32,
        across: &[[f64; 4]],
        kept: &mut [(u32, u32); CROSSING_BLOCK],
    ) -> usize {
        let zero = _mm256_setzero_pd();
        let mut count = 0;
        for (j, e) in chunk.iter().enumerate() {
            let [fa, fb] = e.faces.map(|f| f as usize);
            let (Some(a), Some(b)) = (across.get(fa), across.get(fb)) else {
                continue;
            };
            // The fourth lanes hold zeros, whose product is not below zero.
            let product = _mm256_mul_pd(_mm256_loadu_pd(a.as_ptr()), _mm256_loadu_pd(b.as_ptr()));
            let crossing = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(product, zero)) as u32;
            kept[count] = (first + j as u32, crossing);
            count += usize::from(crossing != 0);
        }
        count
    }

    /// The second phase of [`super::edge_facets`]: of each kept edge's crossing lanes, those
    /// whose crossing lies on the triangle's negated half circle (`x · outward[k] < 0`, with
    /// `x` the [`super::crossing_point`]), written to `met` in order; how many. The three lanes
    /// at once, each with the one-by-one test's operations in its order (the sign of `a·g`
    /// by its sign bit: the lanes where `signum` would differ, NaN, are not crossing).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn half_circle_pairs(
        kept: &[(u32, u32)],
        hull: &ConvexHull,
        across: &[[f64; 4]],
        outward: &[DVec3; 3],
        met: &mut [(u32, u32); 3 * CROSSING_BLOCK],
    ) -> usize {
        let (faces, edges) = (hull.faces(), hull.edges());
        let (zero, one, sign) = (
            _mm256_setzero_pd(),
            _mm256_set1_pd(1.0),
            _mm256_set1_pd(-0.0),
        );
        // Per axis, the three outward normals in lanes.
        let out = [
            _mm256_set_pd(0.0, outward[2].x, outward[1].x, outward[0].x),
            _mm256_set_pd(0.0, outward[2].y, outward[1].y, outward[0].y),
            _mm256_set_pd(0.0, outward[2].z, outward[1].z, outward[0].z),
        ];
        let mut pairs = 0;
        for &(i, crossing) in kept.iter().take(CROSSING_BLOCK) {
            let Some(e) = edges.get(i as usize) else {
                continue;
            };
            let [fa, fb] = e.faces.map(|f| f as usize);
            let (Some(ra), Some(rb)) = (across.get(fa), across.get(fb)) else {
                continue;
            };
            let (ag, bg) = (_mm256_loadu_pd(ra.as_ptr()), _mm256_loadu_pd(rb.as_ptr()));
            let s = _mm256_or_pd(_mm256_and_pd(ag, sign), one);
            let (a, b) = (faces[fa].plane.normal, faces[fb].plane.normal);
            let x = [
                crossing_lanes(splat1(b.x), splat1(a.x), ag, bg, s),
                crossing_lanes(splat1(b.y), splat1(a.y), ag, bg, s),
                crossing_lanes(splat1(b.z), splat1(a.z), ag, bg, s),
            ];
            let side = dot(&x, &out);
            let below = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(side, zero)) as u32;
            let on_half = crossing & below;
            for k in 0..3 {
                met[pairs] = (i, k);
                pairs += ((on_half >> k) & 1) as usize;
            }
        }
        pairs
    }

    /// The facets of [`Interval::facet`] four lanes at a time: per lane the least offset
    /// and the latest entry with the group where each first appeared, the earliest exit,
    /// whether a facet parallel to the motion keeps them apart, and whether an offset was NaN.
    struct IntervalLanes {
        least: __m256d,
        least_group: __m256d,
        start: __m256d,
        start_group: __m256d,
        to: __m256d,
        stuck: __m256d,
        nan: __m256d,
    }

    impl IntervalLanes {
        /// No facet yet; the exit so far `interval.to`.
        ///
        /// # Safety
        /// The CPU must have AVX.
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn new(interval: &Interval) -> IntervalLanes {
            IntervalLanes {
                least: _mm256_set1_pd(f64::INFINITY),
                least_group: _mm256_set1_pd(-1.0),
                start: _mm256_set1_pd(f64::NEG_INFINITY),
                start_group: _mm256_set1_pd(-1.0),
                to: _mm256_set1_pd(interval.to),
                stuck: _mm256_setzero_pd(),
                nan: _mm256_setzero_pd(),
            }
        }

        /// Takes group `g`'s facets of unit normals `l` (per axis) and offsets `offset`, in
        /// the lanes set in `valid` (the others are passed over), each as [`Interval::facet`]
        /// computes it: the same sums and quotients, lane by lane. `false` once the
        /// intersection with the interval's `from` misses `[0, limit]`, or a facet parallel to
        /// the motion keeps them apart (one by one, the walk would have stopped within the
        /// group).
        ///
        /// # Safety
        /// The CPU must have AVX.
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn take(
            &mut self,
            g: usize,
            l: &[__m256d; 3],
            offset: __m256d,
            valid: __m256d,
            interval: &Interval,
        ) -> bool {
            let (zero, sign) = (_mm256_setzero_pd(), _mm256_set1_pd(-0.0));
            let group = _mm256_set1_pd(g as f64);
            // The least offset, a strictly smaller one replacing it (a NaN never does).
            let lower = _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(offset, self.least), valid);
            self.least = _mm256_blendv_pd(self.least, offset, lower);
            self.least_group = _mm256_blendv_pd(self.least_group, group, lower);
            let nan = _mm256_and_pd(_mm256_cmp_pd::<_CMP_UNORD_Q>(offset, offset), valid);
            self.nan = _mm256_or_pd(self.nan, nan);
            // Entry for `w > 0`, exit for `w < 0`; neither, a facet the origin is short of.
            let widened = _mm256_add_pd(offset, _mm256_set1_pd(interval.slack));
            let w = dot(l, &splat(interval.motion));
            let at = _mm256_div_pd(_mm256_xor_pd(widened, sign), w);
            let ahead = _mm256_and_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(w, zero), valid);
            let behind = _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(w, zero), valid);
            let short = _mm256_and_pd(_mm256_cmp_pd::<_CMP_NGE_UQ>(widened, zero), valid);
            let parallel = _mm256_andnot_pd(
                _mm256_or_pd(
                    _mm256_cmp_pd::<_CMP_GT_OQ>(w, zero),
                    _mm256_cmp_pd::<_CMP_LT_OQ>(w, zero),
                ),
                short,
            );
            self.stuck = _mm256_or_pd(self.stuck, parallel);
            let entry = _mm256_blendv_pd(_mm256_set1_pd(f64::NEG_INFINITY), at, ahead);
            let later = _mm256_cmp_pd::<_CMP_GT_OQ>(entry, self.start);
            self.start = _mm256_blendv_pd(self.start, entry, later);
            self.start_group = _mm256_blendv_pd(self.start_group, group, later);
            // `f64::min` passes a NaN over; `_mm256_min_pd` gives its second operand then.
            let exit = _mm256_blendv_pd(_mm256_set1_pd(f64::INFINITY), at, behind);
            self.to = _mm256_min_pd(exit, self.to);
            let (latest, earliest) = largest_smallest(self.start, self.to);
            let from = interval.from.max(latest);
            let meets = from <= earliest && from <= interval.limit && earliest >= 0.0;
            meets && _mm256_movemask_pd(self.stuck) == 0
        }

        /// What the lanes found.
        ///
        /// # Safety
        /// The CPU must have AVX.
        #[inline]
        #[target_feature(enable = "avx")]
        unsafe fn found(&self) -> LanesFound {
            let (_, to) = largest_smallest(self.start, self.to);
            let mut lanes = [[0.0; 4]; 4];
            let values = [self.least, self.least_group, self.start, self.start_group];
            for (out, v) in lanes.iter_mut().zip(values) {
                _mm256_storeu_pd(out.as_mut_ptr(), v);
            }
            let [least, least_group, start, start_group] = lanes;
            LanesFound {
                least,
                least_group,
                start,
                start_group,
                to,
                nan: _mm256_movemask_pd(self.nan) != 0,
            }
        }
    }

    /// The hull's faces (plane lanes `groups` and `offsets` in face order, the last group
    /// padded with copies of the last face) as facets of [`Interval::facet`] against the
    /// triangle `p`, four at a time ([`IntervalLanes`]): each lane computes what the
    /// one-by-one walk computes for its face, with the same operations in the same order (the
    /// offset `−d − min(h)`, the products `across`, the entry or exit time). `None` once the
    /// intersection, checked after each group, misses `[0, limit]` or a face parallel to the
    /// motion keeps them apart. `across` holds a row per face, four per group.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn interval_faces(
        groups: &[[Vec4; 3]],
        offsets: &[Vec4],
        p: &[DVec3; 3],
        interval: &Interval,
        across: &mut [[f64; 4]],
    ) -> Option<LanesFound> {
        let corners = [splat(p[0]), splat(p[1]), splat(p[2])];
        let (zero, sign) = (_mm256_setzero_pd(), _mm256_set1_pd(-0.0));
        let every = _mm256_cmp_pd::<_CMP_EQ_OQ>(zero, zero);
        let mut lanes = IntervalLanes::new(interval);
        let blocks = groups.iter().zip(offsets).zip(across.chunks_exact_mut(4));
        for (g, ((normals, &d), kept)) in blocks.enumerate() {
            let l = normals.map(|v| _mm256_cvtps_pd(__m128::from(v)));
            let h = [
                dot(&l, &corners[0]),
                dot(&l, &corners[1]),
                dot(&l, &corners[2]),
            ];
            // `DVec3::min_element`: `x.min(y.min(z))` with `a < b ? a : b`, as `_mm256_min_pd`.
            let lowest = _mm256_min_pd(h[0], _mm256_min_pd(h[1], h[2]));
            let offset = _mm256_sub_pd(
                _mm256_xor_pd(_mm256_cvtps_pd(__m128::from(d)), sign),
                lowest,
            );
            // The products with the edges, lanes turned into one row per face.
            let (x, y, z) = (
                _mm256_sub_pd(h[1], h[0]),
                _mm256_sub_pd(h[2], h[1]),
                _mm256_sub_pd(h[0], h[2]),
            );
            let (xy_even, xy_odd) = (_mm256_unpacklo_pd(x, y), _mm256_unpackhi_pd(x, y));
            let (z_even, z_odd) = (_mm256_unpacklo_pd(z, zero), _mm256_unpackhi_pd(z, zero));
            let rows = [
                _mm256_permute2f128_pd::<0x20>(xy_even, z_even),
                _mm256_permute2f128_pd::<0x20>(xy_odd, z_odd),
                _mm256_permute2f128_pd::<0x31>(xy_even, z_even),
                _mm256_permute2f128_pd::<0x31>(xy_odd, z_odd),
            ];
            for (slot, row) in kept.iter_mut().zip(rows) {
                _mm256_storeu_pd(slot.as_mut_ptr(), row);
            }
            if !lanes.take(g, &l, offset, every, interval) {
                return None;
            }
        }
        Some(lanes.found())
    }

    /// The facets of the edge pairs `met` ([`PairRead::facet`]) as facets of
    /// [`Interval::facet`], four at a time ([`IntervalLanes`]; the last group padded with
    /// copies of the last pair, and lanes of parallel edges passed over): each lane computes
    /// [`PairRead::facet`]'s normal and offset with the same operations in the same order
    /// (`DVec3::cross`, `dot` and `length_squared` sum as here; the square root and the
    /// quotients are correctly rounded either way). `None` once the intersection misses
    /// `[0, limit]` (checked after each group).
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn interval_pairs(
        hull: &ConvexHull,
        p: &[DVec3; 3],
        edges: &[DVec3; 3],
        across: &[[f64; 4]],
        met: &[(u32, u32)],
        interval: &Interval,
    ) -> Option<LanesFound> {
        let (zero, one, sign) = (
            _mm256_setzero_pd(),
            _mm256_set1_pd(1.0),
            _mm256_set1_pd(-0.0),
        );
        let degenerate = _mm256_set1_pd(super::DEGENERATE_AXIS);
        let mut lanes = IntervalLanes::new(interval);
        for (g, group) in met.chunks(4).enumerate() {
            let mut read = [PairRead::default(); 4];
            for (lane, slot) in read.iter_mut().enumerate() {
                let pair = group[lane.min(group.len() - 1)];
                *slot = PairRead::of(hull, p, edges, across, pair).unwrap_or_default();
            }
            let a = [
                gather(&read, |r| r.a.x),
                gather(&read, |r| r.a.y),
                gather(&read, |r| r.a.z),
            ];
            let b = [
                gather(&read, |r| r.b.x),
                gather(&read, |r| r.b.y),
                gather(&read, |r| r.b.z),
            ];
            let (ag, bg) = (gather(&read, |r| r.ag), gather(&read, |r| r.bg));
            let v = [
                gather(&read, |r| r.v.x),
                gather(&read, |r| r.v.y),
                gather(&read, |r| r.v.z),
            ];
            let along = [
                _mm256_sub_pd(gather(&read, |r| r.w.x), v[0]),
                _mm256_sub_pd(gather(&read, |r| r.w.y), v[1]),
                _mm256_sub_pd(gather(&read, |r| r.w.z), v[2]),
            ];
            let e = [
                gather(&read, |r| r.g.x),
                gather(&read, |r| r.g.y),
                gather(&read, |r| r.g.z),
            ];
            let to_corner = [
                _mm256_sub_pd(v[0], gather(&read, |r| r.corner.x)),
                _mm256_sub_pd(v[1], gather(&read, |r| r.corner.y)),
                _mm256_sub_pd(v[2], gather(&read, |r| r.corner.z)),
            ];
            // `crossing_point`: `(b · ag − a · bg) · signum(ag)` per axis.
            let s = _mm256_or_pd(_mm256_and_pd(ag, sign), one);
            let x = [
                crossing_lanes(b[0], a[0], ag, bg, s),
                crossing_lanes(b[1], a[1], ag, bg, s),
                crossing_lanes(b[2], a[2], ag, bg, s),
            ];
            // `along × g`, as `DVec3::cross` forms it.
            let l = [
                _mm256_sub_pd(_mm256_mul_pd(along[1], e[2]), _mm256_mul_pd(e[1], along[2])),
                _mm256_sub_pd(_mm256_mul_pd(along[2], e[0]), _mm256_mul_pd(e[2], along[0])),
                _mm256_sub_pd(_mm256_mul_pd(along[0], e[1]), _mm256_mul_pd(e[0], along[1])),
            ];
            let ll = dot(&l, &l);
            let least = _mm256_mul_pd(_mm256_mul_pd(degenerate, dot(&along, &along)), dot(&e, &e));
            let valid = _mm256_and_pd(
                _mm256_and_pd(
                    _mm256_cmp_pd::<_CMP_NLE_UQ>(ll, least),
                    _mm256_cmp_pd::<_CMP_ORD_Q>(ll, ll),
                ),
                _mm256_cmp_pd::<_CMP_EQ_OQ>(gather(&read, |r| r.ok), one),
            );
            // Turned toward the crossing, then divided by its length.
            let flip = _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(dot(&l, &x), zero), sign);
            let length = _mm256_sqrt_pd(ll);
            let l = [
                _mm256_div_pd(_mm256_xor_pd(l[0], flip), length),
                _mm256_div_pd(_mm256_xor_pd(l[1], flip), length),
                _mm256_div_pd(_mm256_xor_pd(l[2], flip), length),
            ];
            let offset = dot(&l, &to_corner);
            if !lanes.take(g, &l, offset, valid, interval) {
                return None;
            }
        }
        Some(lanes.found())
    }

    /// One value of each of four pairs, in lanes.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn gather(read: &[PairRead; 4], value: impl Fn(&PairRead) -> f64) -> __m256d {
        _mm256_set_pd(
            value(&read[3]),
            value(&read[2]),
            value(&read[1]),
            value(&read[0]),
        )
    }

    /// One axis of [`super::crossing_point`] in four lanes (four pairs, or one hull edge against
    /// the three triangle edges): `(b·ag − a·bg)·s` for the faces' normals' coordinates `b`
    /// and `a` on that axis, their products `ag` and `bg` with the triangle edge, and the
    /// signs `s` of `ag`.
    ///
    /// # Safety
    /// The CPU must have AVX.
    #[inline]
    #[target_feature(enable = "avx")]
    unsafe fn crossing_lanes(
        b: __m256d,
        a: __m256d,
        ag: __m256d,
        bg: __m256d,
        s: __m256d,
    ) -> __m256d {
        _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(b, ag), _mm256_mul_pd(a, bg)), s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Mat3, Quat};
    use collide_testkit::Gen;

    fn cube(half: f32) -> ConvexHull {
        let mut points = Vec::new();
        for k in 0..8 {
            let s = |bit: i32| if k & bit == 0 { -half } else { half };
            points.push(Vec3::new(s(1), s(2), s(4)));
        }
        ConvexHull::try_new(&points).unwrap()
    }

    /// The hull of 16 points drawn within `size` of the origin; `None` when they are flat.
    fn random_hull(g: &mut Gen, size: f32) -> Option<ConvexHull> {
        let points: Vec<Vec3> = (0..16).map(|_| g.vec(size)).collect();
        ConvexHull::try_new(&points).ok()
    }

    #[test]
    fn a_cube_sunk_into_a_big_triangle_gets_the_face_normal_and_depth() {
        let hull = cube(0.5);
        let h = Posed::new(&hull, Quat::IDENTITY, Vec3::new(0.0, 0.4, 0.0));
        let tri = [
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(10.0, 0.0, -10.0),
        ];
        let c = hull_contact(&h, &tri, 0.0).unwrap();
        assert!((c.normal - Vec3::Y).length() < 1e-6, "{c:?}");
        assert!((c.depth - 0.1).abs() < 1e-6, "{c:?}");
        assert!((c.point_a - c.point_b - c.normal * c.depth).length() < 1e-5);
    }

    #[test]
    fn random_overlaps_agree_with_gjk_and_epa() {
        // Every pair the separating axes find overlapping: the same depth as EPA's (within
        // its tolerance) and a normal along which the depth is really the overlap.
        let mut g = Gen::new(5);
        let mut compared = 0;
        for _ in 0..2000 {
            let Some(hull) = random_hull(&mut g, 1.0) else {
                continue;
            };
            let h = Posed::new(&hull, g.quat(), g.vec(0.5));
            let tri = [g.vec(1.5), g.vec(1.5), g.vec(1.5)];
            let sat = hull_contact(&h, &tri, 0.0);
            let tri_shape = Triangle::new(tri[0], tri[1], tri[2]);
            let epa = crate::convex::contact::contact(&tri_shape, &h, 0.0);
            match (sat, epa) {
                (Some(s), Some(e)) => {
                    if s.depth > 1e-4 && e.depth > 1e-4 {
                        compared += 1;
                        assert!((s.depth - e.depth).abs() < 1e-4, "{s:?} vs {e:?}");
                        // The hull moved by the depth along the normal just touches.
                        let moved = Posed {
                            translation: h.translation + s.normal * (s.depth + 1e-4),
                            ..h
                        };
                        assert!(crate::convex::contact::contact(&tri_shape, &moved, 0.0)
                            .is_none_or(|c| c.depth < 1e-5));
                    }
                }
                (None, None) => {}
                (s, e) => {
                    let depth = s.or(e).map_or(0.0, |c| c.depth);
                    assert!(depth.abs() < 1e-4, "{s:?} vs {e:?}");
                }
            }
        }
        assert!(compared > 300, "only {compared} overlaps compared");
    }

    /// [`HullSweep::triangle`] on `tri` by `limit`, asserted the same as the one-by-one walk
    /// alone (no faces' `f32` test first, no faces four at a time).
    fn agree(
        sweep: &HullSweep,
        tri: &[Vec3; 3],
        limit: f32,
    ) -> Result<Option<(f32, Vec3, Vec3)>, ()> {
        let with = sweep.triangle(tri, limit);
        assert_eq!(
            with,
            sweep.sweep(tri, limit, false),
            "{tri:?} limit {limit}"
        );
        with.map(|hit| hit.and_then(|hit| sweep.contact_of(tri, hit)))
    }

    /// Whether the faces' `f32` test of [`HullSweep::triangle`] rejects `tri` by `limit`.
    fn cleared(sweep: &HullSweep, tri: &[Vec3; 3], limit: f32) -> bool {
        let Some((p, _)) = triangle_in_frame(&sweep.to_local, sweep.origin, tri) else {
            return false;
        };
        let size = p[0].abs().max(p[1].abs()).max(p[2].abs()).max_element()
            + sweep.motion.abs().max_element();
        let slack = 3.0 * f64::from(sweep.posed.shape.tolerance()) + ROUNDING * size;
        let shift = (-sweep.motion * f64::from(limit)).as_vec3();
        let corners = p.map(DVec3::as_vec3);
        sweep
            .posed
            .shape
            .a_face_clears(&corners, shift, slack as f32)
    }

    #[test]
    fn the_faces_f32_test_never_changes_an_answer() {
        // Each triangle swept with and without the fast paths (the faces' f32 test first, the
        // faces four at a time): the same time, point and normal, bit for bit. Random triangles, and triangles over the middle of a
        // hull face that the hull, moving toward them, reaches within the sweep's slack at
        // `limit` give or take a few dozen f32 roundings: there the test's bound on its own
        // rounding decides between a hit at about `limit` and none.
        let mut g = Gen::new(11);
        let (mut cleared_far, mut cleared_near, mut hits_near) = (0, 0, 0);
        for _ in 0..200 {
            let Some(hull) = random_hull(&mut g, 0.5) else {
                continue;
            };
            let (q, at) = (g.quat(), g.vec(2.0));
            let h = Posed::new(&hull, q, at);
            let sweep = HullSweep::new(&h, g.vec(3.0));
            for _ in 0..20 {
                let limit = g.range(0.2, 1.0);
                let centre = g.vec(3.0);
                let tri = [0, 1, 2].map(|_| centre + g.vec(1.0));
                let _ = agree(&sweep, &tri, limit);
                cleared_far += usize::from(cleared(&sweep, &tri, limit));
            }
            for _ in 0..20 {
                let faces = hull.faces();
                let f = g.range(0.0, faces.len() as f32) as usize % faces.len();
                let ids = hull.face_vertices(f);
                let middle = ids
                    .iter()
                    .map(|&i| hull.vertices()[i as usize])
                    .sum::<Vec3>()
                    / ids.len() as f32;
                let n = faces[f].plane.normal;
                // Local motion toward the triangle: the face's distance to it falls by `w`
                // per unit of time.
                let (w, limit) = (g.range(0.1, 2.0), g.range(0.2, 1.0));
                let along = |v: Vec3| v - n * n.dot(v);
                let local_motion = n * w + along(g.vec(0.05));
                let size = middle.abs().max_element() + 3.0;
                let rounding = size * g.range(-40.0, 40.0) * f32::EPSILON;
                let gap = 3.0 * hull.tolerance() + limit * w + rounding;
                let tri = [0, 1, 2].map(|_| h.to_world(middle + n * gap + along(g.vec(0.02))));
                let sweep = HullSweep::new(&h, q * local_motion);
                let with = agree(&sweep, &tri, limit);
                cleared_near += usize::from(cleared(&sweep, &tri, limit));
                hits_near += usize::from(matches!(with, Ok(Some(_))));
            }
        }
        assert!(
            cleared_far > 2000,
            "only {cleared_far} random triangles cleared in f32"
        );
        assert!(
            cleared_near > 100,
            "only {cleared_near} near triangles cleared in f32"
        );
        assert!(hits_near > 500, "only {hits_near} near triangles hit");
    }

    #[test]
    fn edge_pairs_in_lanes_are_the_one_by_one_pairs() {
        // Every facet the walk visits (normal and offset, bit for bit, in order) is the same
        // with the edge pairs found in lanes as one by one, on random hulls and triangles
        // (about half of them overlapping), up to the first facet below a margin of 0.1.
        let mut g = Gen::new(31);
        let (mut walks, mut pairs) = (0, 0);
        for _ in 0..300 {
            let Some(hull) = random_hull(&mut g, 1.0) else {
                continue;
            };
            for _ in 0..10 {
                let c = [g.vec(1.5), g.vec(1.5), g.vec(1.5)].map(|v| v.as_dvec3());
                let Some((p, n)) =
                    triangle_in_frame(&DMat3::IDENTITY, DVec3::ZERO, &c.map(DVec3::as_vec3))
                else {
                    continue;
                };
                let mut facets = [Vec::new(), Vec::new()];
                for (lanes, seen) in [true, false].into_iter().zip(&mut facets) {
                    let mut across = Vec::new();
                    for_each_facet(&hull, &p, n, &mut across, lanes, |l, d| {
                        seen.push((l, d));
                        d >= -0.1
                    });
                }
                assert_eq!(facets[0], facets[1]);
                walks += 1;
                pairs += facets[0].len().saturating_sub(2 + hull.faces().len());
            }
        }
        assert!(walks > 2000, "only {walks} walks");
        assert!(pairs > 2000, "only {pairs} edge facets");
    }

    #[test]
    fn edge_pair_facets_in_lanes_are_the_one_by_one_facets() {
        // The interval the edge pairs' facets leave, taken four at a time and one by one
        // from the same start: the same verdict and, when they meet, the same entry, exit,
        // entering normal and least penetration, bit for bit. Random hulls and a box, random
        // triangles and triangles square to the axes (edge pairs near parallel: degenerate
        // lanes), random motions.
        if !avx() {
            return;
        }
        let mut g = Gen::new(37);
        let (mut compared, mut met_all) = (0, 0);
        for round in 0..400 {
            let hull = if round % 4 == 0 {
                cube(0.5)
            } else {
                let Some(hull) = random_hull(&mut g, 1.0) else {
                    continue;
                };
                hull
            };
            for _ in 0..8 {
                let c = if g.range(0.0, 1.0) < 0.3 {
                    let o = g.vec(1.0);
                    [
                        o,
                        o + Vec3::X * g.range(0.5, 2.0),
                        o + Vec3::Z * g.range(0.5, 2.0),
                    ]
                } else {
                    [g.vec(1.5), g.vec(1.5), g.vec(1.5)]
                };
                let Some((p, n)) = triangle_in_frame(&DMat3::IDENTITY, DVec3::ZERO, &c) else {
                    continue;
                };
                let mut across = Vec::new();
                face_facets(&hull, &p, &mut across, &mut |_, _| true);
                let mut lists = Vec::new();
                edge_facets(&hull, &p, n, &across, false, |edges, met| {
                    lists.push((*edges, met.to_vec()));
                    true
                });
                let motion = g.vec(3.0).as_dvec3();
                for (edges, met) in &lists {
                    let [mut fast, mut slow] =
                        [0, 1].map(|_| Interval::new(motion, 1e-9, f64::INFINITY, n));
                    let a = fast.pairs(&hull, &p, edges, &across, met, true);
                    let b = slow.pairs(&hull, &p, edges, &across, met, false);
                    assert_eq!(a, b, "{c:?} {motion:?}");
                    if a {
                        let state =
                            |i: &Interval| (i.from, i.to, i.entered, i.least.depth, i.least.normal);
                        assert_eq!(state(&fast), state(&slow), "{c:?} {motion:?}");
                        met_all += 1;
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 1500, "only {compared} runs of pairs");
        assert!(met_all > 500, "only {met_all} runs that meet");
    }

    #[test]
    fn faces_four_at_a_time_keep_the_first_of_ties() {
        // A box at the origin, square in x and y, moving along a diagonal of that square at a
        // triangle symmetric about the diagonal, its nearest corner on it: faces x and y
        // enter at exactly the same time (and overlapping, penetrate exactly as deep). The
        // fast walk picks the same face (the first) as the one-by-one walk, bit for bit.
        let mut points = Vec::new();
        for k in 0..8 {
            let s = |bit: i32, h: f32| if k & bit == 0 { -h } else { h };
            points.push(Vec3::new(s(1, 0.5), s(2, 0.5), s(4, 0.25)));
        }
        let hull = ConvexHull::try_new(&points).unwrap();
        let h = Posed::new(&hull, Quat::IDENTITY, Vec3::ZERO);
        let mut g = Gen::new(23);
        let (mut hits, mut at_start) = (0, 0);
        for _ in 0..400 {
            let (sx, sy) = [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
                [(g.range(0.0, 4.0) as usize).min(3)];
            let sweep = HullSweep::new(&h, Vec3::new(sx, sy, 0.0) * g.range(0.5, 3.0));
            let (c, z) = (0.5 + g.range(-0.3, 1.5), g.range(-0.2, 0.2));
            let (near, rise) = (g.range(0.5, 2.0), g.range(-1.0, 1.0));
            let tri = [
                Vec3::new(sx * c, sy * c, z),
                Vec3::new(sx * (c + near), sy * (c + 2.0 * near), z + rise),
                Vec3::new(sx * (c + 2.0 * near), sy * (c + near), z + rise),
            ];
            match agree(&sweep, &tri, 1.0) {
                Ok(Some((0.0, _, _))) => at_start += 1,
                Ok(Some(_)) => hits += 1,
                _ => {}
            }
        }
        assert!(hits > 100, "only {hits} hits");
        assert!(at_start > 10, "only {at_start} starting contacts");
    }

    #[test]
    fn nan_and_flat_input_give_no_panic_and_finite_answers() {
        let hull = cube(0.5);
        let tri = [Vec3::ZERO, Vec3::X, Vec3::Z];
        for h in [
            Posed::new(&hull, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0), Vec3::ZERO),
            Posed::new(&hull, Quat::IDENTITY, Vec3::NAN),
            Posed {
                shape: &hull,
                rotation: Mat3::IDENTITY,
                translation: Vec3::ZERO,
            },
        ] {
            for t in [tri, [Vec3::ZERO, Vec3::X, Vec3::X * 2.0], [Vec3::NAN; 3]] {
                if let Some(c) = hull_contact(&h, &t, 0.1) {
                    assert!(c.depth.is_finite() && c.normal.is_finite());
                }
            }
        }
    }
}
