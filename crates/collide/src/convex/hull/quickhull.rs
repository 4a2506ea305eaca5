//! The Quickhull loop: the triangles under construction and the per-iteration steps in order.
//!
//! One iteration takes a face with outside points, picks its eye (the farthest of them), finds
//! the horizon of the faces the eye sees and repairs it until every new edge is convex
//! ([`horizon`](super::horizon)), replaces the visible faces by a cone of triangles from the
//! horizon to the eye ([`cone`](super::cone)), and hands the removed faces' points to the cone
//! ([`orphans`](super::orphans)). When no face has outside points left, the points kept near
//! the hull are climbed to their farthest face once more, and any found outside restart the
//! loop.

use glam::DVec3;

use super::HullError;
use crate::math::Vec3;

/// Index meaning "none" in the builder's index-keyed arrays.
pub(super) const NONE: usize = usize::MAX;

/// Index meaning "none" in the builder's `u32` fields (points and triangles are counted in
/// `u32`: [`Quickhull::build`] refuses more).
pub(super) const NIL: u32 = u32::MAX;

/// `x` as an index, [`NIL`] as [`NONE`].
#[inline]
fn widen(x: u32) -> usize {
    if x == NIL {
        NONE
    } else {
        x as usize
    }
}

/// The input points, read in `f64`: each `f32` coordinate converts exactly, so no `f64` copy
/// of the input is made (half the memory for the scans that read points in no order, and
/// nothing to allocate and fill per build).
#[derive(Clone, Copy, Debug)]
pub(super) struct Points<'p>(pub &'p [Vec3]);

impl<'p> Points<'p> {
    /// Number of points.
    #[inline]
    pub(super) fn len(self) -> usize {
        self.0.len()
    }

    /// Point `i` in `f64`.
    #[inline]
    pub(super) fn at(self, i: usize) -> DVec3 {
        self.0[i].as_dvec3()
    }

    /// The points in order, in `f64`.
    #[inline]
    pub(super) fn iter(self) -> impl Iterator<Item = DVec3> + Clone + 'p {
        self.0.iter().map(|p| p.as_dvec3())
    }
}

/// A triangle of the hull under construction (80 bytes: indices are `u32`).
#[derive(Clone, Debug)]
pub(super) struct Tri {
    pub n: DVec3,
    pub d: f64,
    /// Vertices, counter-clockwise from outside (see [`Tri::verts`]).
    pub v: [u32; 3],
    /// Neighbour across edge `v[i] → v[i+1]` (see [`Tri::nbs`]).
    pub nb: [u32; 3],
    /// Points more than `eps` above this face and above no other face by more (its conflict
    /// list).
    pub outside: PointList,
    /// Points within `eps` of the hull near this face (Barber et al.'s "coplanar points"):
    /// rechecked when the face is replaced and at the end, since a later face beside a sharp
    /// edge can leave them outside.
    pub near: PointList,
    /// For a removed face, the first face of the cone that replaced it (a face nearby, where
    /// a point last seen near this face starts its climb); [`NIL`] while alive.
    pub succ: u32,
    pub alive: bool,
}

/// A list of points threaded through [`Quickhull::link`] (each point is in at most one list):
/// adding a point allocates nothing, and the order is the order of adding.
#[derive(Clone, Copy, Debug)]
pub(super) struct PointList {
    head: u32,
    tail: u32,
}

impl PointList {
    pub(super) const EMPTY: PointList = PointList {
        head: NIL,
        tail: NIL,
    };

    #[inline]
    pub(super) fn is_empty(self) -> bool {
        self.head == NIL
    }

    /// Appends point `i` (which must be in no list).
    #[inline]
    pub(super) fn push(&mut self, link: &mut [u32], i: usize) {
        link[i] = NIL;
        match self.tail {
            NIL => self.head = i as u32,
            t => link[t as usize] = i as u32,
        }
        self.tail = i as u32;
    }

    /// The first point, if any.
    #[inline]
    pub(super) fn first(self) -> Option<usize> {
        (self.head != NIL).then_some(self.head as usize)
    }

    /// The points in order of adding.
    #[inline]
    pub(super) fn iter(self, link: &[u32]) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.first(), move |&i| next_in_list(link, i))
    }
}

/// The point after `i` in its [`PointList`], if any.
#[inline]
pub(super) fn next_in_list(link: &[u32], i: usize) -> Option<usize> {
    link.get(i)
        .copied()
        .filter(|&j| j != NIL)
        .map(|j| j as usize)
}

impl Tri {
    /// Indices fit in `u32` (checked by [`Quickhull::build`] and [`Quickhull::cone`]).
    pub(super) fn new(v: [usize; 3], nb: [usize; 3], n: DVec3, d: f64) -> Tri {
        Tri {
            n,
            d,
            v: v.map(|x| x as u32),
            nb: nb.map(|x| x as u32),
            outside: PointList::EMPTY,
            near: PointList::EMPTY,
            succ: NIL,
            alive: true,
        }
    }

    /// The vertices as point indices.
    #[inline]
    pub(super) fn verts(&self) -> [usize; 3] {
        self.v.map(|x| x as usize)
    }

    /// The neighbours as triangle indices.
    #[inline]
    pub(super) fn nbs(&self) -> [usize; 3] {
        self.nb.map(|x| x as usize)
    }

    /// For a removed face, the first face of the cone that replaced it ([`NONE`] while alive).
    #[inline]
    pub(super) fn successor(&self) -> usize {
        widen(self.succ)
    }

    /// Signed distance of `p` above the face's plane.
    #[inline]
    pub(super) fn dist(&self, p: DVec3) -> f64 {
        self.n.dot(p) - self.d
    }
}

/// Quickhull's state: the triangles, the work list, and scratch buffers reused by every
/// iteration (index-keyed, so no hashing).
pub(super) struct Quickhull<'p> {
    pub pts: Points<'p>,
    /// A point must be more than this above a face to be added (see the module docs of
    /// [`hull`](super)).
    pub eps: f64,
    /// A face is removed when the eye is more than this above it.
    pub eps_vis: f64,
    pub tris: Vec<Tri>,
    /// Faces that may have outside points.
    pub pending: Vec<usize>,
    /// For each point, the face it was last assigned to or dropped beside (where its
    /// containment check starts climbing).
    pub home: Vec<u32>,
    /// Whether the convexity repair ever removed a face the eye was not clearly above (then
    /// Barber et al.'s guarantee for dropped points does not hold).
    pub repaired: bool,
    /// Iteration number (one per added point) and depth-first pass number.
    pub iter: usize,
    pub pass: usize,
    /// Per-face marks: `2 iter + 1` found visible in iteration `iter`, `2 iter` found not.
    pub stamp: Vec<u64>,
    /// Per-face mark of the depth-first pass that reached it.
    pub dfs: Vec<usize>,
    /// Per-point mark: the iteration in which the point is a horizon vertex.
    pub on_horizon: Vec<usize>,
    /// The horizon, a loop of edges `(a, b, face beyond, the edge's index in that face)`,
    /// counter-clockwise seen from the eye.
    pub horizon: Vec<(usize, usize, usize, usize)>,
    /// The plane of each face of the cone (or of the initial simplex) as it is built: of the
    /// new face on each horizon edge (NaN when degenerate).
    pub planes: Vec<(DVec3, f64)>,
    /// Whether no plane in `planes` is degenerate.
    pub planes_ok: bool,
    /// The faces the eye sees.
    pub visible: Vec<usize>,
    /// Depth-first stack `(face, edge it was entered through, edges tried)`.
    pub stack: Vec<(usize, usize, usize)>,
    /// Points of the removed faces, to hand to the cone.
    pub orphans: Vec<usize>,
    /// For each point, the next point in the [`PointList`] it is in.
    pub link: Vec<u32>,
}

impl<'p> Quickhull<'p> {
    /// The triangulated hull of `pts` from simplex `s`, with tolerance `eps`.
    ///
    /// Every iteration adds a vertex; a hull of n points needs at most n of them, and the near
    /// recheck can only re-add points, so a run far past that is a numerical cycle:
    /// [`HullError::Unstable`]. So is a horizon that is not one simple loop, and so are more
    /// points or triangles than `u32` indices reach.
    pub(super) fn build(
        pts: Points<'p>,
        s: [usize; 4],
        eps: f64,
        lists: &mut Lists,
    ) -> Result<Self, HullError> {
        if pts.len() >= NIL as usize {
            return Err(HullError::Unstable);
        }
        let n = pts.len();
        let mut qh = Quickhull {
            pts,
            eps,
            eps_vis: eps / 64.0,
            tris: cleared(&mut lists.tris),
            pending: cleared(&mut lists.pending),
            home: refilled(&mut lists.home, n, 0),
            repaired: false,
            iter: 0,
            pass: 0,
            stamp: cleared(&mut lists.stamp),
            dfs: cleared(&mut lists.dfs),
            on_horizon: refilled(&mut lists.on_horizon, n, 0),
            horizon: cleared(&mut lists.horizon),
            planes: cleared(&mut lists.planes),
            planes_ok: false,
            visible: cleared(&mut lists.visible),
            stack: cleared(&mut lists.stack),
            orphans: cleared(&mut lists.orphans),
            link: refilled(&mut lists.link, n, NIL),
        };
        qh.start(s)?;
        let max_iter = 4 * pts.len() + 64;
        loop {
            while let Some(f0) = qh.pending.pop() {
                if !qh.tris[f0].alive || qh.tris[f0].outside.is_empty() {
                    continue;
                }
                qh.iter += 1;
                if qh.iter > max_iter {
                    return Err(HullError::Unstable);
                }
                qh.add_eye_of(f0)?;
            }
            qh.recheck_near();
            if qh.pending.is_empty() {
                return Ok(qh);
            }
        }
    }

    /// One iteration: adds the point farthest above face `f0` to the hull.
    fn add_eye_of(&mut self, f0: usize) -> Result<(), HullError> {
        let (mut eye, mut far) = (NONE, f64::NEG_INFINITY);
        for i in self.tris[f0].outside.iter(&self.link) {
            let dist = self.tris[f0].dist(self.pts.at(i));
            if dist > far {
                (eye, far) = (i, dist);
            }
        }
        if eye == NONE {
            return Ok(());
        }
        let repaired = self.horizon(f0, self.pts.at(eye))?;
        if !self.horizon_is_simple() {
            return Err(HullError::Unstable);
        }
        let base = self.cone(eye)?;
        self.redistribute(base, eye, repaired);
        self.pending
            .extend((base..self.tris.len()).filter(|&f| !self.tris[f].outside.is_empty()));
        Ok(())
    }

    /// For every triangle, itself when alive, else the alive face its chain of successors
    /// ends at. Successors are always newer faces, so one pass from the newest settles all.
    pub(super) fn alive_successors(&self) -> Vec<usize> {
        let mut live = vec![NONE; self.tris.len()];
        for t in (0..self.tris.len()).rev() {
            let tri = &self.tris[t];
            live[t] = if tri.alive {
                t
            } else if tri.successor() > t && tri.successor() < live.len() {
                live[tri.successor()]
            } else {
                NONE
            };
        }
        live
    }

    /// Hands the lists back to `lists` for the next build on this thread.
    pub(super) fn recycle(self, lists: &mut Lists) {
        lists.tris = self.tris;
        lists.pending = self.pending;
        lists.home = self.home;
        lists.stamp = self.stamp;
        lists.dfs = self.dfs;
        lists.on_horizon = self.on_horizon;
        lists.horizon = self.horizon;
        lists.planes = self.planes;
        lists.visible = self.visible;
        lists.stack = self.stack;
        lists.orphans = self.orphans;
        lists.link = self.link;
    }
}

/// The builder's lists between builds: each thread keeps one set (see [`try_new`](super::ConvexHull::try_new)),
/// so once they have grown to the largest hull the thread builds, a build allocates them no more.
#[derive(Default)]
pub(super) struct Lists {
    tris: Vec<Tri>,
    pending: Vec<usize>,
    home: Vec<u32>,
    stamp: Vec<u64>,
    dfs: Vec<usize>,
    on_horizon: Vec<usize>,
    horizon: Vec<(usize, usize, usize, usize)>,
    planes: Vec<(DVec3, f64)>,
    visible: Vec<usize>,
    stack: Vec<(usize, usize, usize)>,
    orphans: Vec<usize>,
    link: Vec<u32>,
}

/// The list in `v`, emptied (its room kept).
fn cleared<T>(v: &mut Vec<T>) -> Vec<T> {
    let mut v = std::mem::take(v);
    v.clear();
    v
}

/// The list in `v` as `n` copies of `x` (its room kept).
fn refilled<T: Clone>(v: &mut Vec<T>, n: usize, x: T) -> Vec<T> {
    let mut v = cleared(v);
    v.resize(n, x);
    v
}
