//! Bevy 0.20's math types are collide's own (both on glam 0.33): values pass between the two
//! with no conversion. When either side moves to another glam, this stops compiling (the
//! assignments) or fails (the type ids), and the README's Bevy line needs updating.

use std::any::TypeId;

#[test]
fn bevy_vectors_and_rotations_are_collides() {
    assert_eq!(TypeId::of::<bevy_math::Vec3>(), TypeId::of::<collide::Vec3>());
    assert_eq!(TypeId::of::<bevy_math::Vec3A>(), TypeId::of::<collide::Vec3A>());
    assert_eq!(TypeId::of::<bevy_math::Quat>(), TypeId::of::<collide::Quat>());
    assert_eq!(TypeId::of::<bevy_math::Mat3>(), TypeId::of::<collide::Mat3>());
    assert_eq!(TypeId::of::<bevy_math::Affine3A>(), TypeId::of::<collide::Affine3A>());
}

#[test]
fn bevy_values_go_straight_into_queries() {
    use collide::shapes::{Obb, Sphere};
    // A Bevy transform's translation and rotation, used as they are.
    let rotation: bevy_math::Quat = bevy_math::Quat::from_rotation_y(0.5);
    let position: bevy_math::Vec3 = bevy_math::Vec3::new(1.5, 0.0, 0.0);
    let crate_box = Obb::new(position, rotation, bevy_math::Vec3::splat(0.5));
    let ball = Sphere::new(bevy_math::Vec3::new(0.5, 0.0, 0.0), 0.4);
    assert!(collide::overlap::sphere_obb(&ball, &crate_box));
    let far = Sphere::new(bevy_math::Vec3::new(-0.5, 0.0, 0.0), 0.4);
    assert!(!collide::overlap::sphere_obb(&far, &crate_box));
}
