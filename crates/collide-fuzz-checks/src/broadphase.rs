//! The three broad phases fed the same random insert / update / remove / query sequence, with
//! boxes from arbitrary f32 bit patterns. Asserts: never panics; `validate()` holds after every
//! operation; all three accept or reject each edit alike (a NaN, infinite or inverted box is
//! `InvalidAabb`) and hand out the same ids; `update_pairs`, `query_aabb` and `ray_cast` report
//! exactly what the brute-force reference reports.
use super::Bytes;
use collide::broadphase::{
    BroadPhase, BruteForce, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
};
use collide::shapes::Aabb;
use collide::Vec3;

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

/// The box `p` holds for `id` (the zero box if `id` is not live), which moves start from.
fn current(p: &dyn BroadPhase, id: ProxyId) -> Aabb {
    p.aabb(id).unwrap_or(Aabb {
        min: Vec3::ZERO,
        max: Vec3::ZERO,
    })
}

/// The broad phases compared, by name.
type Phases = Vec<(&'static str, Box<dyn BroadPhase>)>;

/// Runs the target on one input; panics when a contract is broken.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let margin = f32::from(b.byte()) / 64.0;
    let mut phases: Phases = vec![
        ("brute", Box::new(BruteForce::new())),
        ("sap", Box::new(SweepAndPrune::new())),
        ("bvh", Box::new(DynamicBvh::with_margin(margin))),
    ];
    let mut live: Vec<ProxyId> = Vec::new();
    let mut ops = 0;
    while ops < 64 && !b.is_empty() {
        ops += 1;
        let op = b.byte() % 8;
        match op {
            0..=2 => insert(&mut b, &mut phases, &mut live),
            3 | 4 => update(&mut b, &mut phases, &live),
            5 => remove(&mut b, &mut phases, &mut live),
            6 => pairs(&mut phases),
            _ => query(&mut b, &phases),
        }
        for (name, p) in &phases {
            if let Err(e) = p.validate() {
                panic!("{name}: validate failed after op {op}: {e}");
            }
            assert_eq!(p.len(), live.len(), "{name}: len");
        }
    }
}

/// Inserts one box, or a batch of copies on a grid, into every phase; they agree on the ids.
fn insert(b: &mut Bytes<'_>, phases: &mut Phases, live: &mut Vec<ProxyId>) {
    // Raw Aabb (not `Aabb::new`): inverted boxes must be rejected too.
    let aabb = Aabb {
        min: b.vec3(),
        max: b.vec3(),
    };
    let groups = match b.byte() % 4 {
        0 => CollisionGroups {
            memberships: u32::from(b.byte()),
            filter: u32::from(b.byte()),
        },
        _ => CollisionGroups::default(),
    };
    // One box, or (1 in 8) a batch of up to 48 copies on a grid with a fuzzed
    // spacing: enough proxies, at once or a few at a time, to fill buckets,
    // split buckets and nodes, and cross the bulk-load threshold.
    let batch = if b.byte() % 8 == 0 {
        1 + usize::from(b.byte()) % 48
    } else {
        1
    };
    let step = f32::from(b.byte()) / 32.0;
    for k in 0..batch {
        if live.len() >= 400 {
            break;
        }
        let shift = Vec3::new((k % 4) as f32, ((k / 4) % 4) as f32, (k / 16) as f32) * step;
        let aabb = Aabb {
            min: aabb.min + shift,
            max: aabb.max + shift,
        };
        let res: Vec<_> = phases
            .iter_mut()
            .map(|(_, p)| p.insert(aabb, groups))
            .collect();
        assert!(
            res.windows(2).all(|w| w[0] == w[1]),
            "insert {aabb:?} disagrees: {res:?}"
        );
        if let Ok(id) = res[0] {
            live.push(id);
        }
    }
}

/// Moves one live box, or every live box by the same offset, in every phase.
fn update(b: &mut Bytes<'_>, phases: &mut Phases, live: &[ProxyId]) {
    if live.is_empty() {
        return;
    }
    let pick = b.byte();
    if pick % 16 == 15 {
        // Every live box moves by the same fuzzed offset (a frame of motion:
        // the full-traversal, refit and rebuild paths).
        let d = b.vec3();
        for &id in live {
            let aabb = moved(phases, id, d);
            update_all(phases, id, aabb);
        }
        return;
    }
    let id = live[usize::from(pick) % live.len()];
    let aabb = if b.byte() % 2 == 0 {
        Aabb {
            min: b.vec3(),
            max: b.vec3(),
        }
    } else {
        // A small move of the current box (the common case).
        let d = Vec3::splat(f32::from(b.byte() as i8) / 16.0);
        moved(phases, id, d)
    };
    update_all(phases, id, aabb);
}

/// `id`'s current box (in the first phase) moved by `d`.
fn moved(phases: &Phases, id: ProxyId, d: Vec3) -> Aabb {
    let old = current(phases[0].1.as_ref(), id);
    Aabb {
        min: old.min + d,
        max: old.max + d,
    }
}

/// Moves `id` to `aabb` in every phase; they all give the same answer.
fn update_all(phases: &mut Phases, id: ProxyId, aabb: Aabb) {
    let res: Vec<_> = phases.iter_mut().map(|(_, p)| p.update(id, aabb)).collect();
    assert!(
        res.windows(2).all(|w| w[0] == w[1]),
        "update {id} {aabb:?} disagrees: {res:?}"
    );
}

/// Removes a live id, or an id that is not live, from every phase.
fn remove(b: &mut Bytes<'_>, phases: &mut Phases, live: &mut Vec<ProxyId>) {
    // Remove a live id, or (1 in 4) an id that is not live.
    let id = if live.is_empty() || b.byte() % 4 == 0 {
        u32::from(b.byte()) + 1000
    } else {
        live.swap_remove(usize::from(b.byte()) % live.len())
    };
    let res: Vec<_> = phases.iter_mut().map(|(_, p)| p.remove(id)).collect();
    assert!(
        res.windows(2).all(|w| w[0] == w[1]),
        "remove {id} disagrees: {res:?}"
    );
}

/// Every phase's pairs: ordered, no duplicates, equal to brute force.
fn pairs(phases: &mut Phases) {
    let mut reference = None;
    for (name, p) in phases.iter_mut() {
        let mut out = Vec::new();
        p.update_pairs(&mut out);
        for &(x, y) in &out {
            assert!(x < y, "{name}: pair ({x}, {y}) not ordered");
        }
        let out = sorted(out);
        let n = out.len();
        let out2 = sorted(out);
        assert!(
            out2.windows(2).all(|w| w[0] != w[1]),
            "{name}: duplicate pair"
        );
        assert_eq!(n, out2.len());
        match &reference {
            None => reference = Some(out2),
            Some(r) => {
                assert_eq!(r, &out2, "{name}: update_pairs differs from brute force")
            }
        }
    }
}

/// A box query and a ray cast: every phase finds what brute force finds.
fn query(b: &mut Bytes<'_>, phases: &Phases) {
    let q = Aabb {
        min: b.vec3(),
        max: b.vec3(),
    };
    let ray = collide::shapes::Ray::new(b.vec3(), b.vec3());
    let max_t = b.f32();
    let mut refq: Option<Vec<ProxyId>> = None;
    let mut refr: Option<Vec<ProxyId>> = None;
    for (name, p) in phases.iter() {
        let mut got = Vec::new();
        p.query_aabb(&q, &mut |id| {
            got.push(id);
            true
        });
        let got = sorted(got);
        match &refq {
            None => refq = Some(got),
            Some(r) => {
                assert_eq!(r, &got, "{name}: query_aabb {q:?} differs from brute force")
            }
        }
        let mut hits = Vec::new();
        p.ray_cast(&ray, max_t, &mut |id, t| {
            assert!(
                t >= 0.0 && t <= max_t,
                "{name}: ray t {t} outside [0, {max_t}]"
            );
            hits.push(id);
            max_t
        });
        let hits = sorted(hits);
        match &refr {
            None => refr = Some(hits),
            Some(r) => assert_eq!(
                r, &hits,
                "{name}: ray_cast {ray:?} {max_t} differs from brute force"
            ),
        }
    }
}
