//! The world's fixed bodies: a static SAH tree over their boxes, rebuilt by the next update
//! after one is added, moved or removed, and scanned directly until then.

use super::body::Body;
use crate::broadphase::static_tree::StaticTree;
use crate::math::Vec3;
use crate::shapes::{Aabb, Ray};

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

    /// Calls `f(id, bound)` with every fixed body whose box the ray enters within the bound;
    /// `f` returns the new bound.
    pub(super) fn ray(
        &self,
        bodies: &[Option<Body>],
        ray: &Ray,
        max_t: f32,
        f: &mut dyn FnMut(u32, f32) -> f32,
    ) {
        let inv = crate::raycast::RayInv::new(ray);
        let mut bound = max_t;
        if self.dirty {
            for &id in &self.ids {
                if let Some(b) = bodies[id as usize].as_ref() {
                    if crate::raycast::aabb_inv(&inv, &b.aabb, bound).is_some() {
                        bound = f(id, bound);
                    }
                }
            }
            return;
        }
        self.tree.ray(ray.origin, ray.dir, max_t, |item, bound| {
            let (id, b) = self.items[item as usize];
            if crate::raycast::aabb_inv(&inv, &b, bound).is_some() {
                f(id, bound)
            } else {
                bound
            }
        });
    }

    /// Calls `f(id, toi)` with every fixed body whose box a box moving by `motion` from
    /// `aabb` meets at `toi` within the bound, nearer first (through the tree); `f` returns the new
    /// bound.
    pub(super) fn cast_box(
        &self,
        bodies: &[Option<Body>],
        aabb: &Aabb,
        motion: Vec3,
        max_t: f32,
        f: &mut dyn FnMut(u32, f32) -> f32,
    ) {
        let (center, half) = (aabb.center(), aabb.half_extents());
        let inv = motion.recip();
        let entry = |b: &Aabb, bound: f32| {
            let grown = Aabb::new(b.min - half, b.max + half);
            crate::broadphase::ray_box_entry(center, motion, inv, &grown, bound)
        };
        if self.dirty {
            let mut met: Vec<(f32, u32)> = self
                .ids
                .iter()
                .filter_map(|&id| Some((entry(&bodies[id as usize].as_ref()?.aabb, max_t)?, id)))
                .collect();
            met.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut bound = max_t;
            for (t, id) in met {
                if t > bound {
                    break;
                }
                bound = f(id, t);
            }
            return;
        }
        self.tree.cast_box(aabb, motion, max_t, |item, bound| {
            let (id, b) = self.items[item as usize];
            match entry(&b, bound) {
                Some(t) => f(id, t),
                None => bound,
            }
        });
    }
}
