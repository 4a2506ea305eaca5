//! The world's fixed bodies: a static SAH tree over their boxes, rebuilt by the next update
//! after one is added, moved or removed, and scanned directly until then.

use super::body::Body;
use crate::broadphase::static_tree::{RayWalk, StaticTree};
use crate::math::Vec3;
use crate::shapes::{Aabb, Ray};

/// The tree the walks take while the fixed bodies' tree is out of date: no nodes.
static EMPTY: StaticTree = StaticTree::EMPTY;

/// The fixed bodies and the static tree over their boxes.
#[derive(Clone, Debug, Default)]
pub(super) struct FixedBodies {
    /// Every fixed body's id.
    pub(super) ids: Vec<u32>,
    pub(super) tree: StaticTree,
    /// Per tree item (leaf order): the body id and its box.
    pub(super) items: Vec<(u32, Aabb)>,
    /// A fixed body was added, moved or removed since the tree was built.
    pub(super) dirty: bool,
}

impl FixedBodies {
    pub(super) fn insert(&mut self, id: u32) {
        self.ids.push(id);
        self.dirty = true;
    }

    pub(super) fn remove(&mut self, id: u32) {
        self.ids.retain(|&f| f != id);
        self.dirty = true;
    }

    /// Builds the tree again when the fixed bodies changed (binned SAH, once per change).
    pub(super) fn rebuild_if_dirty(&mut self, bodies: &[Option<Body>]) {
        if !self.dirty {
            return;
        }
        let boxes: Vec<(u32, Aabb)> = self
            .ids
            .iter()
            .filter_map(|&id| Some((id, bodies.get(id as usize)?.as_ref()?.aabb)))
            .collect();
        let just_boxes: Vec<Aabb> = boxes.iter().map(|b| b.1).collect();
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        self.tree = StaticTree::build(&just_boxes, &mut order);
        self.items = order.iter().map(|&i| boxes[i as usize]).collect();
        self.dirty = false;
    }

    /// Calls `f` with every fixed body whose box touches `aabb` (until it returns false):
    /// through the tree, or by a scan while the tree is out of date.
    pub(super) fn query(
        &self,
        bodies: &[Option<Body>],
        aabb: &Aabb,
        f: &mut dyn FnMut(u32) -> bool,
    ) {
        let touches = |b: &Aabb| crate::overlap::aabb_aabb(b, aabb);
        if self.dirty {
            for &id in &self.ids {
                let hit = bodies[id as usize]
                    .as_ref()
                    .is_some_and(|b| touches(&b.aabb));
                if hit && !f(id) {
                    return;
                }
            }
            return;
        }
        self.tree.query_aabb(aabb, |item| {
            let (id, b) = self.items[item as usize];
            !touches(&b) || f(id)
        });
    }

    /// The fixed bodies along a ray within `max_t`, walked by [`FixedWalk::advance`].
    pub(super) fn ray_walk(&self, ray: &Ray, max_t: f32) -> FixedWalk {
        let tree = if self.dirty { &EMPTY } else { &self.tree };
        FixedWalk {
            tree: tree.ray_walk(ray.origin, ray.dir, max_t),
            scan: self.dirty,
            path: Path::Ray(crate::raycast::RayInv::new(ray)),
        }
    }

    /// The fixed bodies whose boxes a box moving by `motion` from `aabb` meets within `max_t`
    /// (in units of `motion`), walked by [`FixedWalk::advance`].
    pub(super) fn cast_box_walk(&self, aabb: &Aabb, motion: Vec3, max_t: f32) -> FixedWalk {
        let tree = if self.dirty { &EMPTY } else { &self.tree };
        FixedWalk {
            tree: tree.cast_box_walk(aabb, motion, max_t),
            scan: self.dirty,
            path: Path::Box {
                center: aabb.center(),
                half: aabb.half_extents(),
                motion,
                inv: motion.recip(),
            },
        }
    }
}

/// What a [`FixedWalk`] follows: a ray, or a box moving along a path.
#[derive(Clone, Copy, Debug)]
enum Path {
    Ray(crate::raycast::RayInv),
    Box {
        center: Vec3,
        half: Vec3,
        motion: Vec3,
        inv: Vec3,
    },
}

impl Path {
    /// Where the path enters `b` within `bound`, or `None`.
    fn entry(&self, b: &Aabb, bound: f32) -> Option<f32> {
        match self {
            Path::Ray(inv) => crate::raycast::aabb_inv(inv, b, bound).map(|hit| hit.t),
            Path::Box {
                center,
                half,
                motion,
                inv,
            } => {
                let grown = Aabb::new(b.min - *half, b.max + *half);
                crate::broadphase::ray_box_entry(*center, *motion, *inv, &grown, bound)
            }
        }
    }
}

/// A walk over the fixed bodies along a ray or a moving box that can stop and go on, so that
/// the world walks it in step with the moving bodies' broad phase: each side's nearest hit so
/// far prunes the other's walk.
#[derive(Clone, Debug)]
pub(super) struct FixedWalk {
    /// The tree's walk (of an empty tree while the tree is out of date).
    tree: RayWalk,
    /// The tree is out of date: the bodies are scanned at the end instead. (The walk is held
    /// directly, not as an `Option`: a walk holds its stack inline, and moving it into an
    /// `Option` copies it.)
    scan: bool,
    path: Path,
}

impl FixedWalk {
    /// Walks on to the bodies whose tree nodes the path enters at or before `until` (all of
    /// them for `INFINITY`), calling `f(id, bound)` with each body whose box it enters within
    /// the bound; `f` returns the new bound, and so does this.
    pub(super) fn advance(
        &mut self,
        fixed: &FixedBodies,
        bodies: &[Option<Body>],
        until: f32,
        bound: f32,
        f: &mut dyn FnMut(u32, f32) -> f32,
    ) -> f32 {
        let path = self.path;
        if self.scan {
            return if until == f32::INFINITY {
                scan(fixed, bodies, &path, bound, f)
            } else {
                bound
            };
        }
        self.tree.advance(&fixed.tree, until, bound, |item, bound| {
            let (id, b) = fixed.items[item as usize];
            match path.entry(&b, bound) {
                Some(_) => f(id, bound),
                None => bound,
            }
        })
    }
}

/// Every fixed body whose box `path` enters within the bound, nearer first, by a scan (while
/// the tree is out of date).
fn scan(
    fixed: &FixedBodies,
    bodies: &[Option<Body>],
    path: &Path,
    max_t: f32,
    f: &mut dyn FnMut(u32, f32) -> f32,
) -> f32 {
    let mut met: Vec<(f32, u32)> = fixed
        .ids
        .iter()
        .filter_map(|&id| Some((path.entry(&bodies[id as usize].as_ref()?.aabb, max_t)?, id)))
        .collect();
    met.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut bound = max_t;
    for (t, id) in met {
        if t > bound {
            break;
        }
        bound = f(id, bound);
    }
    bound
}
