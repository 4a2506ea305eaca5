//! Contacts across the seams of fixed bodies laid flush (floor tiles, wall blocks): Jolt's
//! enhanced internal edge removal is the model, in a geometric form.
//!
//! A body resting on two flush boxes across their seam touches the second box at its edge or
//! its side face, and that contact's normal leans toward the seam (or points sideways): a
//! normal the union of the two boxes does not have there, which a solver would turn into a bump
//! at every seam. Such a contact is recognised by where it touches: every one of its points,
//! taken on the fixed body's surface, lies on or inside another fixed body the moving body also
//! touches, so the surface it reports is hidden by that neighbour. When a moving body has
//! other contacts with fixed bodies that are not hidden, the hidden ones are dropped; when all
//! of them are hidden (a sphere exactly on a seam, touching both boxes' edges with the true
//! normal), all are kept.

use super::body::Body;
use super::narrow::{self, Part};
use crate::convex::Manifold;
use crate::math::Vec3;
use crate::shapes::{Aabb, Sphere};

/// How close a point must be to a neighbour to count as on it, as a fraction of the
/// neighbour's bounding radius: flush within a tenth of a millimetre on a metre box.
const SEAM_TOLERANCE: f32 = 1e-4;

/// `true` when a moving body's contact `m` with the fixed body `fixed` is hidden by one of the
/// fixed bodies `neighbours` (which the moving body also touches): every point of `m`, moved
/// onto `fixed`'s surface (half its depth along `out`, the normal from `fixed` toward the
/// moving body), is within [`SEAM_TOLERANCE`] of a neighbour or inside it. `parts` is scratch.
pub(super) fn hidden<'a>(
    m: &Manifold,
    out: Vec3,
    neighbours: impl Iterator<Item = &'a Body> + Clone,
    parts: &mut Vec<(Part, Aabb)>,
) -> bool {
    m.points().iter().all(|c| {
        let on_fixed = c.point + 0.5 * c.depth * out;
        neighbours.clone().any(|g| on_body(g, on_fixed, parts))
    })
}

/// `true` when `p` is inside the convex body `g` or within its seam tolerance of it. Surfaces
/// (meshes, heightfields, half-spaces) hide nothing here: their own contacts take care of their
/// internal edges.
fn on_body(g: &Body, p: Vec3, parts: &mut Vec<(Part, Aabb)>) -> bool {
    let tolerance = SEAM_TOLERANCE * g.sphere_radius;
    if !g.aabb.expanded(tolerance).contains_point(p) {
        return false;
    }
    g.parts(g.position, g.rotation, parts);
    let point = Part::Sphere(Sphere::new(p, 0.0));
    parts.iter().any(|(part, b)| {
        b.expanded(tolerance).contains_point(p)
            && narrow::distance(&point, part).is_some_and(|r| r.distance <= tolerance)
    })
}
