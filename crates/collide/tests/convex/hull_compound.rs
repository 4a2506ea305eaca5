//! Concave objects as convex pieces: compounds built from the V-HACD meshes' `o` groups,
//! checked against brute force (every piece pair, GJK, no AABB pruning), and compared with the
//! simpler alternative, the hull of the whole mesh.

use collide::convex::{
    compound_contacts, compound_intersects, gjk, Compound, CompoundCache, ConvexHull,
};
use collide::{io, Quat, Vec3};
use collide_testkit::Gen;

use crate::common;

fn load(name: &str) -> io::Model {
    io::load(format!(
        "{}/../../assets/meshes/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn compounds_agree_with_brute_force_gjk() {
    let duck = Compound::from_model(&load("duck_vhacd.obj")).unwrap();
    let teddy = Compound::from_model(&load("teddy2_VHACD_CHs.obj")).unwrap();
    let duck_hull = Compound::from_parts(&[&load("duck_vhacd.obj").merged().vertices]).unwrap();
    assert_eq!((duck.parts.len(), teddy.parts.len()), (5, 15));
    let mut g = Gen::new(40);
    let (mut hits, mut hull_only, mut banded) = (0, 0, 0);
    let n = common::cases(500, 5_000);
    for case in 0..n {
        let a = duck.with_pose(g.quat(), Vec3::ZERO);
        let b = teddy.with_pose(g.quat(), g.unit() * g.range(0.3, 1.6));
        // Brute force: the smallest GJK distance over all piece pairs.
        let mut min_d = f32::INFINITY;
        for i in 0..a.parts.len() {
            for j in 0..b.parts.len() {
                min_d = min_d.min(gjk::distance(&a.part(i), &b.part(j)).distance);
            }
        }
        let mut cache = CompoundCache::default();
        let ours = compound_intersects(&a, &b, &mut cache);
        let contacts = compound_contacts(&a, &b, &mut cache);
        assert_eq!(ours, !contacts.is_empty(), "case {case}");
        if min_d > 0.0 && min_d <= 1e-4 {
            banded += 1;
            continue;
        }
        assert_eq!(
            ours,
            min_d == 0.0,
            "case {case}: brute-force distance {min_d}"
        );
        hits += usize::from(ours);
        let hull_pose = duck_hull.with_pose(Quat::from_mat3(&a.rotation), a.translation);
        if compound_intersects(&hull_pose, &b, &mut CompoundCache::default()) && !ours {
            hull_only += 1;
        }
    }
    eprintln!(
        "duck vs teddy: {n} poses, {hits} touching, {banded} in the band; the duck's whole hull \
         reports {hull_only} false contacts the pieces avoid"
    );
    assert!(hull_only > 0);
}

#[test]
fn lego_pieces_and_whole_hull() {
    // 83 pieces; the whole-mesh hull contains every piece's vertices.
    let model = load("lego_vhacd.obj");
    let lego = Compound::from_model(&model).unwrap();
    assert_eq!(lego.parts.len(), 83);
    let whole = ConvexHull::try_new(&model.merged().vertices).unwrap();
    for part in &lego.parts {
        for v in part.vertices() {
            assert!(whole.contains_point(*v, 3.0 * whole.tolerance()));
        }
    }
    // The world AABB of the posed compound contains every posed piece vertex.
    let posed = lego.with_pose(Quat::from_rotation_x(0.7), Vec3::new(1.0, 2.0, 3.0));
    let bb = posed.aabb();
    for i in 0..posed.parts.len() {
        for v in posed.part(i).world_vertices() {
            assert!(bb.expanded(1e-5).contains_point(v));
        }
    }
}
