//! The three broad phases fed the same random insert / update / remove / query sequence, with
//! boxes from arbitrary f32 bit patterns. Asserts: never panics; `validate()` holds after every
//! operation; all three accept or reject each edit alike (a NaN, infinite or inverted box is
//! `InvalidAabb`) and hand out the same ids; `update_pairs`, `query_aabb` and `ray_cast` report
//! exactly what the brute-force reference reports.
#![no_main]
use collide::broadphase::{
    BroadPhase, BruteForce, CollisionGroups, DynamicBvh, ProxyId, SweepAndPrune,
};
use collide::shapes::Aabb;
use collide::Vec3;
use collide_fuzz::Bytes;
use libfuzzer_sys::fuzz_target;

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let margin = f32::from(b.byte()) / 64.0;
    let mut phases: Vec<(&str, Box<dyn BroadPhase>)> = vec![
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
            0..=2 => {
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
            3 | 4 => {
                if live.is_empty() {
                    continue;
                }
                let id = live[usize::from(b.byte()) % live.len()];
                let aabb = if b.byte() % 2 == 0 {
                    Aabb {
                        min: b.vec3(),
                        max: b.vec3(),
                    }
                } else {
                    // A small move of the current box (the common case).
                    let d = Vec3::splat(f32::from(b.byte() as i8) / 16.0);
                    let old = phases[0].1.aabb(id).unwrap_or(Aabb {
                        min: Vec3::ZERO,
                        max: Vec3::ZERO,
                    });
                    Aabb {
                        min: old.min + d,
                        max: old.max + d,
                    }
                };
                let res: Vec<_> = phases.iter_mut().map(|(_, p)| p.update(id, aabb)).collect();
                assert!(
                    res.windows(2).all(|w| w[0] == w[1]),
                    "update {id} {aabb:?} disagrees: {res:?}"
                );
            }
            5 => {
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
            6 => {
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
            _ => {
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
        }
        for (name, p) in &phases {
            if let Err(e) = p.validate() {
                panic!("{name}: validate failed after op {op}: {e}");
            }
            assert_eq!(p.len(), live.len(), "{name}: len");
        }
    }
});
