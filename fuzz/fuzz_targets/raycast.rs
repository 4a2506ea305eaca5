//! Every ray cast on arbitrary f32 bit patterns: never panics; a hit has 0 <= t <= max_t, a
//! finite point and a unit normal; NaN input gives `None`.
#![no_main]
use collide::raycast as r;
use collide_fuzz::check_hit;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = collide_fuzz::Bytes::new(data);
    let ray = b.ray();
    let max_t = b.f32();
    let (pl, sp, bx, ob, cap, tri) = (b.plane(), b.sphere(), b.aabb(), b.obb(), b.capsule(), b.triangle());
    let nan_ray = collide_fuzz::any_nan(&[ray.origin, ray.dir]) || max_t.is_nan();

    let hits = [
        ("plane", r::plane(&ray, &pl, max_t)),
        ("sphere", r::sphere(&ray, &sp, max_t)),
        ("aabb", r::aabb(&ray, &bx, max_t)),
        ("obb", r::obb(&ray, &ob, max_t)),
        ("capsule", r::capsule(&ray, &cap, max_t)),
        ("triangle", r::triangle(&ray, &tri, max_t)),
    ];
    for (name, h) in &hits {
        check_hit(name, &ray, max_t, h);
        if nan_ray {
            assert!(h.is_none(), "{name}: NaN ray hit: {h:?}");
        }
    }
    // The precomputed-inverse slab test agrees with the plain one.
    let inv = r::RayInv::new(&ray);
    assert_eq!(
        r::aabb_inv(&inv, &bx, max_t).map(|h| h.t.to_bits()),
        hits[2].1.map(|h| h.t.to_bits()),
        "aabb and aabb_inv disagree"
    );
});
