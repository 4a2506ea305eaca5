//! The shapes: small `Copy` structs with `pub` fields and plain constructors.
//!
//! Constructors that can fail return `Option` ([`Plane::from_points`] gives `None` for
//! collinear points). Constructors that cannot fail still never panic: they document what
//! they do with NaN, infinite, zero or negative input, and every query documents what it
//! returns for such a shape (the crate-wide rule: a NaN anywhere in a query's input gives
//! "no contact" — `false` or `None` — never a panic).
//!
//! # Example
//!
//! ```rust
//! use collide::shapes::{Aabb, Obb, Plane, Sphere};
//! use collide::{Quat, Vec3};
//!
//! let b = Aabb::from_center_half_extents(Vec3::new(0.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.5));
//! assert_eq!((b.min, b.max), (Vec3::new(-2.0, 0.0, -0.5), Vec3::new(2.0, 2.0, 0.5)));
//! // Constructors that can fail return an Option: no plane through three collinear points.
//! assert!(Plane::from_points(Vec3::ZERO, Vec3::X, 2.0 * Vec3::X).is_none());
//! // The others say what they do with odd input: a negative radius means its absolute value.
//! assert_eq!(Sphere::new(Vec3::ZERO, -2.0).radius, 2.0);
//! // A box turned 90° about z: its AABB has the x and y extents swapped.
//! let quarter_turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
//! let o = Obb::new(Vec3::ZERO, quarter_turn, Vec3::new(2.0, 1.0, 1.0));
//! assert!((o.aabb().max - Vec3::new(1.0, 2.0, 1.0)).length() < 1e-5);
//! ```

mod aabb;
mod capsule;
mod mesh;
mod obb;
mod plane;
mod ray;
mod segment;
mod sphere;
mod triangle;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub(crate) use mesh::has_area;
pub use mesh::{MeshError, TriMesh};
pub use obb::Obb;
pub use plane::Plane;
pub use ray::Ray;
pub use segment::Segment;
pub use sphere::Sphere;
pub use triangle::Triangle;

#[cfg(all(test, feature = "serde"))]
mod serde_tests {
    use super::*;
    use crate::broadphase::CollisionGroups;
    use crate::math::{Quat, Vec3};
    use serde::{de::DeserializeOwned, Serialize};

    /// JSON and back gives the same value (bit for bit: f32 → JSON → f32 is exact).
    fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(v: &T) {
        let json = serde_json::to_string(v).unwrap();
        let back: T = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, v, "{json}");
    }

    #[test]
    fn every_shape_survives_json() {
        let (a, b, c) = (
            Vec3::new(0.1, -2.5, 3.0),
            Vec3::new(1e-7, 4.0, -1e6),
            Vec3::new(-0.3, 0.7, 0.2),
        );
        round_trip(&Aabb::new(a, b));
        round_trip(&Capsule::new(a, b, 0.25));
        round_trip(&Obb::new(
            c,
            Quat::from_rotation_y(0.7),
            Vec3::new(1.0, 2.0, 0.5),
        ));
        round_trip(&Plane::from_point_normal(a, c));
        round_trip(&Ray::new(a, c));
        round_trip(&Segment::new(a, b));
        round_trip(&Sphere::new(c, 1.5));
        round_trip(&Triangle::new(a, b, c));
        round_trip(&TriMesh::new(vec![a, b, c], vec![[0, 1, 2]]));
        round_trip(&CollisionGroups::new(0b101, u32::MAX));
    }

    #[test]
    fn field_names_are_the_struct_fields() {
        // The JSON a level editor writes by hand: glam vectors as arrays.
        let s: Sphere = serde_json::from_str(r#"{"center": [1, 2, 3], "radius": 0.5}"#).unwrap();
        assert_eq!(s, Sphere::new(Vec3::new(1.0, 2.0, 3.0), 0.5));
        assert!(serde_json::from_str::<Sphere>(r#"{"center": [1, 2], "radius": 0.5}"#).is_err());
    }
}
