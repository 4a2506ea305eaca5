//! The full search (steps 2–5): face axes of both hulls, then the edge pairs whose Gauss-map
//! arcs cross, four of B's edges at a time; clearly overlapping hulls take the GJK and EPA
//! fast path instead (`penetrating`).

use super::*;

/// Edges of B per [`ArcLanes`] group (one SIMD register of `f32`).
pub(super) const LANES: usize = 4;

/// The Gauss-map arcs of [`LANES`] edges of B (in A's frame, negated: `c`, `d` and the
/// normal `dxc` of their plane, along `d × c`), one vector per coordinate so the sign tests
/// run on all lanes at once. Unused lanes are zero and never pass (`0 · x < 0` is false).
#[derive(Clone, Copy, Default)]
pub(super) struct ArcLanes {
    c: [Vec4; 3],
    d: [Vec4; 3],
    dxc: [Vec4; 3],
}

impl ArcLanes {
    /// Puts one edge's arc in lane `k`.
    #[inline]
    pub(super) fn set(&mut self, k: usize, c: Vec3, d: Vec3, dxc: Vec3) {
        for (axis, (cv, dv, xv)) in [(c.x, d.x, dxc.x), (c.y, d.y, dxc.y), (c.z, d.z, dxc.z)]
            .into_iter()
            .enumerate()
        {
            self.c[axis][k] = cv;
            self.d[axis][k] = dv;
            self.dxc[axis][k] = xv;
        }
    }

    /// Bit `k` set when A's arc `(a, b)` (`bxa` the normal of its plane, along `b × a`) and
    /// lane `k`'s arc `(c, d)` cross: `CBA·DBA < 0`, `ADC·BDC < 0` and `CBA·BDC > 0`
    /// (Gregorius 2013), each dot product summed `x + y + z` as `Vec3::dot` does, so the
    /// verdicts are the pair-by-pair ones.
    #[inline]
    pub(super) fn crossing(&self, a: Vec3, b: Vec3, bxa: Vec3) -> u32 {
        let dot = |v: &[Vec4; 3], w: Vec3| v[0] * w.x + v[1] * w.y + v[2] * w.z;
        let cba = dot(&self.c, bxa);
        let dba = dot(&self.d, bxa);
        let adc = dot(&self.dxc, a);
        let bdc = dot(&self.dxc, b);
        let pass = (cba * dba).cmplt(Vec4::ZERO)
            & (adc * bdc).cmplt(Vec4::ZERO)
            & (cba * bdc).cmpgt(Vec4::ZERO);
        pass.bitmask()
    }
}

/// B's Gauss map in A's frame, arranged for finding the arcs that cross an arc of A.
pub(super) struct GaussPairs<'h> {
    /// B's edge indices in lane order.
    order: &'h [u32],
    /// The arcs of −B, [`LANES`] edges each, in `order`.
    lanes: &'h [ArcLanes],
    /// The caps of −B's chunks of [`GAUSS_CHUNK`] edges, [`LANES`] caps each.
    caps: &'h [CapLanes],
}

/// The lists a full search fills: B's edges in A's frame, and the lanes and caps of
/// [`GaussPairs`].
#[derive(Default)]
pub(super) struct GaussLists {
    edges_b: Vec<(Vec3, Vec3)>,
    lanes: Vec<ArcLanes>,
    caps: Vec<CapLanes>,
}

thread_local! {
    /// Each thread's search lists ([`crate::scratch`]).
    static GAUSS_LISTS: std::cell::RefCell<GaussLists> =
        std::cell::RefCell::new(GaussLists::default());
}

#[cfg(test)]
impl GaussLists {
    /// [`GaussPairs`] of `hb` rotated by `r`, in these lists.
    pub(super) fn pairs<'h>(&'h mut self, hb: &'h ConvexHull, r: &Mat3A) -> GaussPairs<'h> {
        GaussPairs::new(hb, r, &mut self.lanes, &mut self.caps)
    }
}

impl<'h> GaussPairs<'h> {
    /// The arcs and caps of −B rotated into A's frame by `r`.
    ///
    /// The plane of the arc of −B, `d × c = r (n1 × n0)`, is taken as `r` times B's edge
    /// direction (`GaussArc::normal`), which is exact for every edge, where the cross product
    /// of the normals loses its direction on the rim of a thin plate.
    fn new(
        hb: &'h ConvexHull,
        r: &Mat3A,
        lanes: &'h mut Vec<ArcLanes>,
        caps: &'h mut Vec<CapLanes>,
    ) -> GaussPairs<'h> {
        let (eb, fb, arcs) = (hb.edges(), hb.faces(), hb.gauss_arcs());
        let order = hb.gauss_order();
        lanes.clear();
        lanes.resize(order.len().div_ceil(LANES), ArcLanes::default());
        for (p, &j) in order.iter().enumerate() {
            let (Some(e), Some(arc)) = (eb.get(j as usize), arcs.get(j as usize)) else {
                continue;
            };
            let c = -(*r * fb[e.faces[0] as usize].plane.normal);
            let d = -(*r * fb[e.faces[1] as usize].plane.normal);
            lanes[p / LANES].set(p % LANES, c, d, *r * arc.normal);
        }
        caps.clear();
        caps.resize(hb.gauss_caps().len().div_ceil(LANES), CapLanes::NONE);
        for (k, cap) in hb.gauss_caps().iter().enumerate() {
            caps[k / LANES].set(k % LANES, -(*r * cap.centre), cap.sin_r, cap.cos_r);
        }
        GaussPairs { order, lanes, caps }
    }

    /// Calls `f(j)` for every edge `j` of B whose arc of −B crosses A's arc `(na, nb)` (the
    /// face normals of an edge of A, whose [`GaussArc`] is `arc`), in Gauss-map order, until
    /// `f` breaks.
    pub(super) fn crossing(
        &self,
        arc: &GaussArc,
        na: Vec3,
        nb: Vec3,
        mut f: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // A's arc: the unit normal of its great circle (`∝ nb × na`, from the edge direction),
        // and a cap around it (centre `mid`, half angle `h`). A chunk cap (m, R) can meet the
        // arc only if |m · n̂| <= sin R and angle(m, mid) <= R + h, i.e.
        // m · mid >= cos R cos h − sin R sin h (an arc without a cap has `mid = 0`, `h = 90°`,
        // and that half of the test passes every cap).
        // Everything about A's arc is precomputed per hull (`ConvexHull::gauss_arcs`), in f64.
        let n_hat = arc.normal;
        for (quad, caps4) in self.caps.iter().enumerate() {
            let mut chunks = caps4.meeting(n_hat, arc.mid, arc.cos_h, arc.sin_h);
            while chunks != 0 {
                let chunk = quad * LANES + chunks.trailing_zeros() as usize;
                chunks &= chunks - 1;
                for group in chunk * GAUSS_CHUNK / LANES..(chunk + 1) * GAUSS_CHUNK / LANES {
                    let Some(lane) = self.lanes.get(group) else {
                        break;
                    };
                    let mut mask = lane.crossing(na, nb, n_hat);
                    while mask != 0 {
                        let k = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        if let Some(&j) = self.order.get(group * LANES + k) {
                            f(j)?;
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// [`LANES`] Gauss-map caps of chunks of B's edges (in A's frame), one vector per
/// coordinate. Unused lanes have `sin_r = −1` and never meet anything.
#[derive(Clone, Copy)]
struct CapLanes {
    centre: [Vec4; 3],
    sin_r: Vec4,
    cos_r: Vec4,
}

impl CapLanes {
    /// No caps.
    const NONE: CapLanes = CapLanes {
        centre: [Vec4::ZERO; 3],
        sin_r: Vec4::NEG_ONE,
        cos_r: Vec4::ONE,
    };

    /// Puts one cap in lane `k`.
    #[inline]
    fn set(&mut self, k: usize, centre: Vec3, sin_r: f32, cos_r: f32) {
        self.centre[0][k] = centre.x;
        self.centre[1][k] = centre.y;
        self.centre[2][k] = centre.z;
        self.sin_r[k] = sin_r;
        self.cos_r[k] = cos_r;
    }

    /// Bit `k` set when cap `k` may meet A's arc: within its radius of the arc's great circle
    /// (unit normal `n_hat`) and of the cap around the arc (centre `mid`, half angle `h`), with
    /// a margin of `1e-4` (radians, far above the rounding of these unit vectors) so that no
    /// pair the exact sign tests could pass is culled.
    #[inline]
    fn meeting(&self, n_hat: Vec3, mid: Vec3, cos_h: f32, sin_h: f32) -> u32 {
        const MARGIN: f32 = 1e-4;
        let c = &self.centre;
        let to_circle = (c[0] * n_hat.x + c[1] * n_hat.y + c[2] * n_hat.z).abs();
        let to_mid = c[0] * mid.x + c[1] * mid.y + c[2] * mid.z;
        let near_circle = to_circle.cmple(self.sin_r + MARGIN);
        let near_arc = to_mid.cmpge(self.cos_r * cos_h - self.sin_r * sin_h - MARGIN);
        (near_circle & near_arc).bitmask()
    }
}

/// Steps 2–5 of the query: every candidate axis, stopping at the first that separates.
#[inline(never)]
pub(super) fn full_search(
    a: &ConvexPolyhedron,
    b: &ConvexPolyhedron,
    rel: &Relative,
    cache: &mut SepCache,
) -> SatDetail {
    // Clearly overlapping hulls: GJK and EPA instead of every axis (`penetrating`).
    if let Some(detail) = super::penetrating::deep_overlap(a, b, rel, cache) {
        return detail;
    }
    let search = FullSearch::new(a, b, rel);
    let mut detail = SatDetail::NO_CONTACT;
    if search.faces_of_a(&mut detail, cache).is_break()
        || search.faces_of_b(&mut detail, cache).is_break()
        || search.edge_pairs(&mut detail, cache).is_break()
    {
        return detail;
    }
    search.least_overlap(&mut detail, cache);
    detail
}

/// Records the gap `s` of a face (`feature`: `FaceA(i)` or `FaceB(j)`) as the best of its kind
/// in `detail` when it is; a positive gap separates, and the search ends there with `feature`
/// and `result`.
#[inline]
fn record_face(
    detail: &mut SatDetail,
    cache: &mut SepCache,
    feature: SepFeature,
    s: f32,
    result: impl FnOnce() -> SatResult,
) -> ControlFlow<()> {
    let (best, i) = match feature {
        SepFeature::FaceA(i) => (&mut detail.face_a, i),
        SepFeature::FaceB(j) => (&mut detail.face_b, j),
        _ => unreachable!("a face feature"),
    };
    if s > best.0 {
        *best = (s, i);
    }
    if s > 0.0 {
        cache.feature = feature;
        detail.feature = feature;
        detail.result = result();
        return ControlFlow::Break(());
    }
    ControlFlow::Continue(())
}

/// What the steps of the full search share: both hulls, B's pose in A's frame, and the bounds
/// that skip face planes that cannot beat the best of their kind. B contains the ball
/// `(c_B, ρ_B)` (`ConvexHull::inner_ball`), so the gap of B over A's plane `(n, d)` is at most
/// `n · c_B + d − ρ_B`, and likewise for A under B's planes. A skipped plane's gap is below
/// the best so far, which is below 0 (else the search would have stopped), so skipping changes
/// neither the first separating face nor the maxima. `slack` covers the rounding of both the
/// bound and the gap (a few ε of the magnitudes involved), generously.
struct FullSearch<'q> {
    a: &'q ConvexPolyhedron,
    ha: &'q ConvexHull,
    hb: &'q ConvexHull,
    rel: &'q Relative,
    /// A's inner ball, in A's frame.
    ca: Vec3,
    rho_a: f32,
    /// B's inner ball, in A's frame.
    cb: Vec3,
    rho_b: f32,
    slack: f32,
}

impl<'q> FullSearch<'q> {
    #[inline]
    fn new(a: &'q ConvexPolyhedron, b: &'q ConvexPolyhedron, rel: &'q Relative) -> Self {
        let (ha, hb) = (&*a.hull, &*b.hull);
        let (r, t) = (rel.r, rel.t);
        let (ca, rho_a) = ha.inner_ball();
        let (cb, rho_b) = hb.inner_ball();
        let cb = r * cb + t;
        let slack = 1e-4 * (t.length() + ca.length() + cb.length() + 1.0)
            + 16.0 * (ha.tolerance() + hb.tolerance())
            + 1e-4 * (rho_a + rho_b);
        Self {
            a,
            ha,
            hb,
            rel,
            ca,
            rho_a,
            cb,
            rho_b,
            slack,
        }
    }

    /// Step 2: faces of A: the gap of B over each face plane.
    #[inline]
    fn faces_of_a(&self, detail: &mut SatDetail, cache: &mut SepCache) -> ControlFlow<()> {
        let (hb, rel) = (self.hb, self.rel);
        for (i, face) in self.ha.faces().iter().enumerate() {
            let p = face.plane;
            if p.normal.dot(self.cb) + p.d - self.rho_b + self.slack < detail.face_a.0 {
                continue;
            }
            let s = rel.face_a_gap(p.normal, p.d, |d| {
                support_value(hb, d, &mut cache.support_b)
            });
            record_face(detail, cache, SepFeature::FaceA(i as u32), s, || {
                separated(self.a, p.normal, -p.d, s)
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Step 3: faces of B: the gap of A under each face plane of B.
    #[inline]
    fn faces_of_b(&self, detail: &mut SatDetail, cache: &mut SepCache) -> ControlFlow<()> {
        let (ha, rel) = (self.ha, self.rel);
        let (r, t) = (rel.r, rel.t);
        for (j, face) in self.hb.faces().iter().enumerate() {
            let p = face.plane;
            let n = r * p.normal;
            if n.dot(self.ca) - self.rho_a - n.dot(t) + p.d + self.slack < detail.face_b.0 {
                continue;
            }
            let (s, n, m) = rel.face_b_gap(p.normal, p.d, |d| {
                support_value(ha, d, &mut cache.support_a)
            });
            // Axis from A to B is −n; max over A of (−n) · x = −m.
            record_face(detail, cache, SepFeature::FaceB(j as u32), s, || {
                separated(self.a, -n, -m, s)
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Step 4: edge pairs that form a face of the Minkowski difference A − B. On the Gauss
    /// map an edge is the arc between its two face normals; A's arc (a, b) and the arc of −B,
    /// (c, d) = (−n_B1, −n_B2), cross when c and d are on opposite sides of the plane of
    /// (a, b), a and b on opposite sides of the plane of (c, d), and both arcs lie in one
    /// hemisphere (Gregorius 2013: CBA·DBA < 0, ADC·BDC < 0, CBA·BDC > 0).
    ///
    /// The plane of an arc is the plane perpendicular to its edge, so its normal B × A
    /// (D × C) is taken as the edge direction (`GaussArc::normal`), as Gregorius does: the
    /// cross product of the face normals is only as long as the angle between them is far
    /// from 0 and 180°, and on the rim of a thin plate (normals 1e-6 from opposite) its
    /// direction is rounding, degrees off, and real pairs would be dropped (a missed
    /// separating axis, a wrong depth: `tests/convex/sat_oracle.rs`).
    ///
    /// The three sign tests run four B edges at a time on vectors laid out lane by lane
    /// (`ArcLanes`, SIMD through glam's `Vec4`) with the same float operations as a
    /// pair-by-pair test; only the pairs that pass (those forming a Minkowski face, a few per
    /// edge of A) go on. B's edges go into the lanes in their Gauss-map order
    /// (`ConvexHull::gauss_order`), chunks of `GAUSS_CHUNK` under one bounding cap each; a
    /// chunk whose cap misses A's arc (the cap is farther than its radius from A's great
    /// circle, or from the cap around A's arc) holds no crossing arc and is skipped
    /// (`CapLanes::meeting`, four caps at a time, with a margin that keeps every pair the sign
    /// tests could pass). Pairs are visited edge of A by edge of A, B's edges in that order.
    #[inline]
    fn edge_pairs(&self, detail: &mut SatDetail, cache: &mut SepCache) -> ControlFlow<()> {
        let (hb, rel) = (self.hb, self.rel);
        let vb = hb.vertices();
        let (r, t) = (rel.r, rel.t);
        crate::scratch::with(&GAUSS_LISTS, |lists| {
            let GaussLists {
                edges_b,
                lanes,
                caps,
            } = lists;
            edges_b.clear();
            edges_b.extend(hb.edges().iter().map(|e| {
                let v0 = vb[e.vertices[0] as usize];
                let p0 = r * v0 + t;
                // The same expression as the cached check's, so an edge pair's axis is
                // identical.
                let db = r * (vb[e.vertices[1] as usize] - v0);
                (p0, db)
            }));
            let pairs = GaussPairs::new(hb, &r, lanes, caps);
            self.edge_pairs_crossing(&pairs, edges_b, detail, cache)
        })
    }

    /// [`FullSearch::edge_pairs`] over the pairs whose arcs cross, B's edges in A's frame in
    /// `eb_a`.
    #[inline]
    fn edge_pairs_crossing(
        &self,
        pairs: &GaussPairs<'_>,
        eb_a: &[(Vec3, Vec3)],
        detail: &mut SatDetail,
        cache: &mut SepCache,
    ) -> ControlFlow<()> {
        let (ha, hb, rel) = (self.ha, self.hb, self.rel);
        let va = ha.vertices();
        let fa = ha.faces();
        let arcs_a = ha.gauss_arcs();
        for (i, (e, arc)) in ha.edges().iter().zip(arcs_a).enumerate() {
            let pa = va[e.vertices[0] as usize];
            let da = va[e.vertices[1] as usize] - pa;
            let na = fa[e.faces[0] as usize].plane.normal;
            let nb = fa[e.faces[1] as usize].plane.normal;
            // Orients the edge axes out of A (`edge_axis`); the cached check uses this
            // expression.
            let outward = pa.as_dvec3() - self.ca.as_dvec3();
            let flow = pairs.crossing(arc, na, nb, |j| {
                let Some(&(pb, db)) = eb_a.get(j as usize) else {
                    return ControlFlow::Continue(());
                };
                let Some(axis) = edge_axis(da, db, outward) else {
                    return ControlFlow::Continue(());
                };
                // Both edges support their shapes along ±axis, so the gap is at most the
                // distance between the edges' lines along it.
                let mut s = axis.dot(pb - pa);
                if s > detail.edge.0 || s > 0.0 {
                    // Confirm with the shapes' full projections (guards a round-off Gauss
                    // test).
                    let (sa, sb) = (&mut cache.support_a, &mut cache.support_b);
                    let (max_a, min_b) = rel.projections(
                        axis,
                        |d| support_value(ha, d, sa),
                        |d| support_value(hb, d, sb),
                    );
                    s = min_b - max_a;
                    if s > 0.0 {
                        cache.feature = SepFeature::Edges(i as u32, j);
                        detail.feature = cache.feature;
                        detail.edge = (s, i as u32, j, axis);
                        detail.result = separated(self.a, axis, max_a, s);
                        return ControlFlow::Break(());
                    }
                    if s > detail.edge.0 {
                        detail.edge = (s, i as u32, j, axis);
                    }
                }
                ControlFlow::Continue(())
            });
            if flow.is_break() {
                return flow;
            }
        }
        ControlFlow::Continue(())
    }

    /// Step 5: no separating axis: the least-overlapping axis (faces of A, faces of B, edge
    /// pairs; a later kind only when strictly better) is the minimum translation.
    #[inline]
    fn least_overlap(&self, detail: &mut SatDetail, cache: &mut SepCache) {
        let r = self.rel.r;
        let mut best = (f32::NEG_INFINITY, SepFeature::None, Vec3::ZERO);
        if detail.face_a.0 > best.0 {
            let n = self.ha.faces()[detail.face_a.1 as usize].plane.normal;
            best = (detail.face_a.0, SepFeature::FaceA(detail.face_a.1), n);
        }
        if detail.face_b.0 > best.0 {
            let n = -(r * self.hb.faces()[detail.face_b.1 as usize].plane.normal);
            best = (detail.face_b.0, SepFeature::FaceB(detail.face_b.1), n);
        }
        if detail.edge.0 > best.0 {
            best = (
                detail.edge.0,
                SepFeature::Edges(detail.edge.1, detail.edge.2),
                detail.edge.3,
            );
        }
        cache.feature = best.1;
        detail.feature = best.1;
        detail.result = SatResult::Penetrating {
            normal: (self.a.rotation * best.2).normalize_or_zero(),
            depth: (-best.0).max(0.0),
        };
    }
}
