//! One pair's narrow phase: the midphase, then the contact at rest or the first impact along
//! the frame's motion, for convex bodies (part against part) and for a surface (mesh,
//! heightfield, half-space) against a convex body. [`World::update`](super::World::update)
//! and [`World::evaluate`](super::World::evaluate) both go through [`contact`] and [`impact`].

use super::body::Body;
use super::narrow::{self, Part, QueryCounts};
use super::surface;
use super::{Impact, Manifold};
use crate::convex::{GjkCache, SepCache};
use crate::math::{Quat, Vec3};
use crate::shapes::Aabb;
use std::cell::RefCell;

/// Per-pair state kept between frames: a separating-plane cache and a GJK cache per part
/// pair (index `i * parts_b + j`). The first part pair's, the only one of two single-part
/// bodies, is held inline, so a pair of such bodies allocates nothing when it begins.
#[derive(Clone, Debug, Default)]
pub(super) struct PairCache {
    first: (SepCache, GjkCache),
    /// Part pairs 1 and on (bodies of pieces).
    rest: Vec<(SepCache, GjkCache)>,
}

impl PairCache {
    /// Room for `n` part pairs.
    fn fit(&mut self, n: usize) {
        self.rest.resize(n.saturating_sub(1), Default::default());
    }

    /// Part pair `k`'s caches (after [`PairCache::fit`] for more than `k`).
    fn part_pair(&mut self, k: usize) -> &mut (SepCache, GjkCache) {
        match k.checked_sub(1) {
            None => &mut self.first,
            Some(r) => &mut self.rest[r],
        }
    }
}

/// A scene query's shape placed once (its convex parts), and the buffers it reuses from one
/// body to the next.
pub(super) struct QueryScratch<'a> {
    shape: Placed<'a>,
    shape_parts: Vec<(Part, Aabb)>,
    /// The distance the shape (or, for a surface, each body) is grown by.
    grow: f32,
    body_parts: Vec<(Part, Aabb)>,
    contacts: Vec<crate::mesh::MeshContact>,
}

impl<'a> QueryScratch<'a> {
    pub(super) fn new(shape: Placed<'a>) -> QueryScratch<'a> {
        QueryScratch::grown(shape, 0.0)
    }

    /// The shape grown by `distance` in every direction (for a cast to a target distance). A
    /// surface cannot be grown: the bodies it meets are, by the same distance (the two
    /// Minkowski sums meet at the same moment).
    pub(super) fn grown(shape: Placed<'a>, distance: f32) -> QueryScratch<'a> {
        let mut shape_parts = Vec::new();
        shape.parts(&mut shape_parts);
        grow(&mut shape_parts, distance);
        QueryScratch {
            shape,
            shape_parts,
            grow: distance,
            body_parts: Vec::new(),
            contacts: Vec::new(),
        }
    }

    /// Whether the shape touches or overlaps a body (touching counts): part against part by
    /// the boolean tests ([`narrow::intersects`]), a surface by its triangle contacts; two
    /// surfaces never touch.
    pub(super) fn touches(&mut self, body: Placed<'_>) -> bool {
        let (shape_surface, body_surface) = (self.shape.surface(), body.surface());
        match (shape_surface, body_surface) {
            (Some(_), Some(_)) => false,
            (Some(s), None) => {
                body.parts(&mut self.body_parts);
                let contacts = &mut self.contacts;
                self.body_parts
                    .iter()
                    .any(|(part, _)| surface::surface_contact(&s, part, contacts).is_some())
            }
            (None, Some(s)) => {
                let contacts = &mut self.contacts;
                self.shape_parts
                    .iter()
                    .any(|(part, _)| surface::surface_contact(&s, part, contacts).is_some())
            }
            (None, None) => {
                if let ([(shape_part, _)], Some(part)) = (&self.shape_parts[..], body.single_part())
                {
                    return narrow::intersects(shape_part, &part);
                }
                body.parts(&mut self.body_parts);
                let several = self.shape_parts.len() * self.body_parts.len() > 1;
                self.shape_parts.iter().any(|(pa, box_a)| {
                    self.body_parts.iter().any(|(pb, box_b)| {
                        (!several || crate::overlap::aabb_aabb(box_a, box_b))
                            && narrow::intersects(pa, pb)
                    })
                })
            }
        }
    }

    /// The first impact of the shape translating by `motion` with a body held still, normal
    /// from the shape toward the body, or `None` (as [`impact`]).
    pub(super) fn cast(&mut self, motion: Vec3, body: Placed<'_>) -> Option<Impact> {
        if let Some(s) = self.shape.surface() {
            if body.surface().is_some() {
                return None;
            }
            // The surface moves and the body's parts (grown) are still.
            body.parts(&mut self.body_parts);
            grow(&mut self.body_parts, self.grow);
            return surface_first_impact(&s, motion, &self.body_parts, Vec3::ZERO);
        }
        if let Some(s) = body.surface() {
            return surface_first_impact(&s, Vec3::ZERO, &self.shape_parts, motion)
                .map(Impact::flipped);
        }
        if let ([(shape_part, _)], Some(part)) = (&self.shape_parts[..], body.single_part()) {
            // One part each: the candidate's box already met the shape's swept box.
            return narrow::impact(shape_part, motion, &part, Vec3::ZERO);
        }
        body.parts(&mut self.body_parts);
        first_impact(&self.shape_parts, motion, &self.body_parts, Vec3::ZERO)
    }
}

/// Grows every part by `distance` (boxes by as much); nothing for 0.
fn grow(parts: &mut Vec<(Part, Aabb)>, distance: f32) {
    if distance > 0.0 {
        *parts = std::mem::take(parts)
            .into_iter()
            .map(|(part, b)| (Part::Grown(Box::new(part), distance), b.expanded(distance)))
            .collect();
    }
}

/// What one pair's narrow phase found.
#[derive(Clone, Copy, Debug, Default)]
pub(super) enum Outcome {
    RejectedSphere,
    RejectedObb,
    #[default]
    Apart,
    Contact(Manifold, Option<f32>),
    /// A contact with a fixed body hidden by a flush fixed neighbour (`super::flush`).
    Hidden,
}

/// A body at a pose.
#[derive(Clone, Copy)]
pub(super) struct Placed<'a> {
    pub body: &'a Body,
    pub position: Vec3,
    pub rotation: Quat,
}

impl<'a> Placed<'a> {
    /// The body at its pose at the end of the frame.
    pub fn now(body: &'a Body) -> Placed<'a> {
        Placed {
            body,
            position: body.position,
            rotation: body.rotation,
        }
    }

    /// The body at its pose at the start of the frame.
    pub fn start(body: &'a Body) -> Placed<'a> {
        Placed {
            body,
            position: body.start_position,
            rotation: body.start_rotation,
        }
    }

    fn single_part(self) -> Option<Part> {
        self.body.single_part(self.position, self.rotation)
    }

    fn parts(self, out: &mut Vec<(Part, Aabb)>) {
        self.body.parts(self.position, self.rotation, out);
    }

    fn surface(self) -> Option<surface::PlacedSurface<'a>> {
        self.body.surface(self.position, self.rotation)
    }
}

/// The midphase, exact test and sweep of one pair (bodies `a < b`).
pub(super) fn pair_outcome(a: &Body, b: &Body, cache: &mut PairCache) -> (Outcome, QueryCounts) {
    let mut counts = QueryCounts::default();
    let swept = a.fast || b.fast;
    // The midphase's bounding volumes are for convex bodies: a surface's box is its bound.
    if !(a.is_surface() || b.is_surface()) {
        if swept {
            // The bounding spheres swept over the frame, without the starting-touch rule: a
            // pair in contact at the start that moves apart is kept for its end contact.
            let sa = a.bounding_sphere(a.start_position, a.start_rotation);
            let sb = b.bounding_sphere(b.start_position, b.start_rotation);
            let touch = crate::sweep::sphere_sphere_interval(&sa, a.motion(), &sb, b.motion());
            if touch.is_none() {
                return (Outcome::RejectedSphere, counts);
            }
        } else {
            let sa = a.bounding_sphere(a.position, a.rotation);
            let sb = b.bounding_sphere(b.position, b.rotation);
            if !crate::overlap::sphere_sphere(&sa, &sb) {
                return (Outcome::RejectedSphere, counts);
            }
            let oa = a.bounding_obb(a.position, a.rotation);
            let ob = b.bounding_obb(b.position, b.rotation);
            if !crate::overlap::obb_obb(&oa, &ob) {
                return (Outcome::RejectedObb, counts);
            }
        }
    }
    if swept {
        // Sweeps from the start pose along the frame's translation.
        let found = impact(Placed::start(a), a.motion(), Placed::start(b), b.motion());
        if let Some(i) = found {
            return (
                Outcome::Contact(Manifold::one(i.normal, 0.0, i.point).finite(), Some(i.toi)),
                counts,
            );
        }
        // No impact: apart all frame, or in contact at the start and not moving deeper (the
        // sweeps' starting-touch rule), when they may still touch at the frame's end. The
        // contact at the end pose decides, as for a pair at rest, after the same bounding
        // sphere and OBB tests at the end pose (most swept pairs without an impact end apart;
        // they stay counted as found apart by the sweep).
        if !(a.is_surface() || b.is_surface() || end_volumes_touch(a, b)) {
            return (Outcome::Apart, counts);
        }
    }
    match contact(Placed::now(a), Placed::now(b), cache, &mut counts) {
        Some(m) => (Outcome::Contact(m.finite(), None), counts),
        None => (Outcome::Apart, counts),
    }
}

/// Whether two convex bodies' bounding spheres and bounding OBBs at their end poses touch.
fn end_volumes_touch(a: &Body, b: &Body) -> bool {
    let sa = a.bounding_sphere(a.position, a.rotation);
    let sb = b.bounding_sphere(b.position, b.rotation);
    if !crate::overlap::sphere_sphere(&sa, &sb) {
        return false;
    }
    let oa = a.bounding_obb(a.position, a.rotation);
    let ob = b.bounding_obb(b.position, b.rotation);
    crate::overlap::obb_obb(&oa, &ob)
}

/// The contact of two placed bodies, normal from `a` toward `b`, or `None` when apart.
///
/// Convex bodies: with several pieces, the deepest piece contact is the pair's (pieces whose
/// boxes are apart are skipped); `cache` holds one entry per part pair (index `i * pb.len() +
/// j`), fitted here. A surface against a convex body: the deepest of its parts' surface
/// contacts ([`surface::surface_contact`]). Two surfaces: `None`.
pub(super) fn contact(
    a: Placed<'_>,
    b: Placed<'_>,
    cache: &mut PairCache,
    counts: &mut QueryCounts,
) -> Option<Manifold> {
    with_part_lists(|pa, pb| match (a.surface(), b.surface()) {
        (Some(_), Some(_)) => None,
        (Some(s), None) => {
            b.parts(pb);
            surface_contact(&s, pb)
        }
        (None, Some(s)) => {
            a.parts(pa);
            surface_contact(&s, pa).map(Manifold::flipped)
        }
        (None, None) => {
            a.parts(pa);
            b.parts(pb);
            deepest_contact(pa, pb, cache, counts)
        }
    })
}

/// The first impact of two placed bodies translating by `ma` and `mb`, normal from `a` toward
/// `b`, or `None`: the earliest over the part pairs whose swept boxes touch; a surface is held
/// still and the body moves by the relative motion, the contact point then carried along with
/// the surface to the time of impact. Two surfaces: `None`.
pub(super) fn impact(a: Placed<'_>, ma: Vec3, b: Placed<'_>, mb: Vec3) -> Option<Impact> {
    with_part_lists(|pa, pb| match (a.surface(), b.surface()) {
        (Some(_), Some(_)) => None,
        (Some(s), None) => {
            b.parts(pb);
            surface_first_impact(&s, ma, pb, mb)
        }
        (None, Some(s)) => {
            a.parts(pa);
            surface_first_impact(&s, mb, pa, ma).map(Impact::flipped)
        }
        (None, None) => {
            a.parts(pa);
            b.parts(pb);
            first_impact(pa, ma, pb, mb)
        }
    })
}

/// A body's convex parts with their world boxes.
type PartList = Vec<(Part, Aabb)>;

thread_local! {
    /// Each thread's two part lists ([`crate::scratch`]), reused from pair to pair.
    static PART_LISTS: RefCell<(PartList, PartList)> = const { RefCell::new((Vec::new(), Vec::new())) };
    /// Each thread's list of a surface's triangle contacts.
    static MESH_CONTACTS: RefCell<Vec<crate::mesh::MeshContact>> = const { RefCell::new(Vec::new()) };
}

/// `f` with two empty part lists, this thread's ([`crate::scratch`]). The lists are emptied
/// afterwards, so they hold no hull alive.
fn with_part_lists<R>(f: impl FnOnce(&mut PartList, &mut PartList) -> R) -> R {
    crate::scratch::with(&PART_LISTS, |(pa, pb)| {
        let r = f(pa, pb);
        pa.clear();
        pb.clear();
        r
    })
}

/// The first impact of a surface translating by `m_surface` and convex parts translating by
/// `m_parts`, normal from the surface toward the parts, or `None`: the surface is held still
/// and the parts move by the relative motion; the contact point is then carried along with
/// the surface to the time of impact.
fn surface_first_impact(
    s: &surface::PlacedSurface<'_>,
    m_surface: Vec3,
    parts: &[(Part, Aabb)],
    m_parts: Vec3,
) -> Option<Impact> {
    let relative = m_parts - m_surface;
    let mut first: Option<Impact> = None;
    for (part, _) in parts {
        if let Some(i) = surface::surface_impact(s, part, relative) {
            if first.is_none_or(|f| i.toi < f.toi) {
                first = Some(i);
            }
        }
    }
    first.map(|i| Impact {
        point: i.point + m_surface * i.toi,
        ..i
    })
}

/// The deepest contact of a surface (A) with any of a body's parts.
fn surface_contact(s: &surface::PlacedSurface<'_>, parts: &[(Part, Aabb)]) -> Option<Manifold> {
    crate::scratch::with(&MESH_CONTACTS, |scratch| {
        let mut best: Option<Manifold> = None;
        for (part, _) in parts {
            if let Some(m) = surface::surface_contact(s, part, scratch) {
                if best.is_none_or(|bm| m.depth > bm.depth) {
                    best = Some(m);
                }
            }
        }
        best
    })
}

/// The contact of two bodies' parts (placed at their poses), or `None` when apart: with
/// several pieces, the deepest piece contact is the pair's (pieces whose boxes are apart are
/// skipped). `cache` holds one entry per part pair (index `i * pb.len() + j`), fitted here.
pub(super) fn deepest_contact(
    pa: &[(Part, Aabb)],
    pb: &[(Part, Aabb)],
    cache: &mut PairCache,
    counts: &mut QueryCounts,
) -> Option<Manifold> {
    let n = pa.len() * pb.len();
    cache.fit(n);
    let mut best: Option<Manifold> = None;
    for (i, (part_a, box_a)) in pa.iter().enumerate() {
        for (j, (part_b, box_b)) in pb.iter().enumerate() {
            if n > 1 && !crate::overlap::aabb_aabb(box_a, box_b) {
                continue;
            }
            let k = i * pb.len() + j;
            let (sep, gjk) = cache.part_pair(k);
            if let Some(m) = narrow::contact(part_a, part_b, sep, gjk, counts) {
                if best.is_none_or(|bm| m.depth > bm.depth) {
                    best = Some(m);
                }
            }
        }
    }
    best
}

/// The first impact of two bodies' parts (placed at their start poses) translating by
/// `ma` and `mb`, or `None`: the earliest over the part pairs whose swept boxes touch.
pub(super) fn first_impact(
    pa: &[(Part, Aabb)],
    ma: Vec3,
    pb: &[(Part, Aabb)],
    mb: Vec3,
) -> Option<Impact> {
    let mut first: Option<Impact> = None;
    for (part_a, box_a) in pa {
        let swept_a = box_a.union(&translate(box_a, ma));
        for (part_b, box_b) in pb {
            let swept_b = box_b.union(&translate(box_b, mb));
            if !crate::overlap::aabb_aabb(&swept_a, &swept_b) {
                continue;
            }
            if let Some(i) = narrow::impact(part_a, ma, part_b, mb) {
                if first.is_none_or(|f| i.toi < f.toi) {
                    first = Some(i);
                }
            }
        }
    }
    first
}

fn translate(b: &Aabb, d: Vec3) -> Aabb {
    Aabb {
        min: b.min + d,
        max: b.max + d,
    }
}
