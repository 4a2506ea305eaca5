//! The reference broad phase: every pair, every frame.

use super::{
    boxes_touch, check_aabb, ray_box_entry, BroadPhase, BroadPhaseDefect, BroadPhaseError,
    CollisionGroups, DefectSite, IdPool, ProxyId,
};
use crate::shapes::{Aabb, Ray};

/// Tests all `n(n−1)/2` pairs in [`BroadPhase::update_pairs`]: quadratic, obviously right, the
/// oracle the other broad phases are tested against (Jolt's `BroadPhaseBruteForce` plays the
/// same role). Queries scan every box.
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    /// Per id: box and groups, `None` when the id is not live.
    slots: Vec<Option<(Aabb, CollisionGroups)>>,
    ids: IdPool,
    live: usize,
}

impl BruteForce {
    /// An empty broad phase.
    #[must_use]
    pub fn new() -> BruteForce {
        BruteForce::default()
    }
}

impl BroadPhase for BruteForce {
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError> {
        check_aabb(&aabb)?;
        let id = self.ids.alloc()?;
        let i = id as usize;
        if self.slots.len() <= i {
            self.slots.resize(i + 1, None);
        }
        self.slots[i] = Some((aabb, groups));
        self.live += 1;
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        match self.slots.get_mut(id as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                self.ids.remove(id);
                self.live -= 1;
                Ok(())
            }
            _ => Err(BroadPhaseError::UnknownProxy(id)),
        }
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let Some(Some(slot)) = self.slots.get_mut(id as usize) else {
            return Err(BroadPhaseError::UnknownProxy(id));
        };
        check_aabb(&aabb)?;
        slot.0 = aabb;
        Ok(())
    }

    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) {
        out.clear();
        self.ids.release_pending();
        for (i, a) in self.slots.iter().enumerate() {
            let Some((box_a, groups_a)) = a else { continue };
            for (j, b) in self.slots.iter().enumerate().skip(i + 1) {
                let Some((box_b, groups_b)) = b else { continue };
                if boxes_touch(box_a, box_b) && groups_a.allows(*groups_b) {
                    out.push((i as ProxyId, j as ProxyId));
                }
            }
        }
    }

    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool) {
        for (i, s) in self.slots.iter().enumerate() {
            if let Some((b, _)) = s {
                if boxes_touch(b, aabb) && !f(i as ProxyId) {
                    return;
                }
            }
        }
    }

    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32) {
        let inv = ray.dir.recip();
        let mut max_t = max_t;
        for (i, s) in self.slots.iter().enumerate() {
            if let Some((b, _)) = s {
                if let Some(t) = ray_box_entry(ray.origin, ray.dir, inv, b, max_t) {
                    max_t = f(i as ProxyId, t);
                    if max_t.is_nan() || max_t < 0.0 {
                        return;
                    }
                }
            }
        }
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.slots.get(id as usize).copied().flatten().map(|s| s.0)
    }

    fn len(&self) -> usize {
        self.live
    }

    fn validate(&self) -> Result<(), BroadPhaseDefect> {
        let live = self.slots.iter().filter(|s| s.is_some()).count();
        if live != self.live {
            return Err(BroadPhaseDefect::new(
                DefectSite::Count {
                    found: live,
                    recorded: self.live,
                },
                "live count {recorded} but {found} live slots",
            ));
        }
        if self.slots.len() > self.ids.capacity() {
            return Err(BroadPhaseDefect::new(
                DefectSite::Whole,
                "slot table longer than the ids handed out",
            ));
        }
        for id in self.ids.pending() {
            if self.slots[*id as usize].is_some() {
                return Err(BroadPhaseDefect::new(
                    DefectSite::Proxy { proxy: *id },
                    "removed id {proxy} still has a box",
                ));
            }
        }
        for (i, s) in self.slots.iter().enumerate() {
            if let Some((b, _)) = s {
                if check_aabb(b).is_err() {
                    return Err(BroadPhaseDefect::new(
                        DefectSite::Proxy {
                            proxy: i as ProxyId,
                        },
                        "proxy {proxy} holds an invalid box",
                    ));
                }
            }
        }
        Ok(())
    }
}
