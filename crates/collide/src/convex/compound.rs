//! Concave objects as several convex pieces sharing one pose.
//!
//! Lander (1999): a concave object is either broken into convex pieces or replaced by its
//! convex hull. [`Compound`] is the first (one hull per OBJ `o` group, as V-HACD writes them);
//! [`ConvexHull::try_new`] on all of a mesh's vertices is the second. Piece pairs are pruned by
//! their world AABBs, then tested with the cached SAT, one [`SepCache`] per piece pair.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::hull::{ConvexHull, HullError};
use super::manifold::{contact_manifold, Manifold};
use super::polyhedron::ConvexPolyhedron;
use super::sat::{sat_cached, SepCache};
use crate::io::Model;
use crate::math::{Affine3A, Mat3, Quat, Vec3};
use crate::overlap::aabb_aabb;
use crate::shapes::Aabb;

/// Why a [`Compound`] could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum CompoundError {
    /// No pieces were given.
    NoParts,
    /// Piece `index` (named `name`) has no hull.
    Part {
        /// Index of the piece.
        index: usize,
        /// Its name (OBJ `o` name), or empty.
        name: String,
        /// Why its hull failed.
        error: HullError,
    },
}

impl fmt::Display for CompoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompoundError::NoParts => {
                write!(f, "no pieces: a compound needs at least one convex piece")
            }
            CompoundError::Part { index, name, error } => {
                write!(f, "piece {index} ({name}): {error}")
            }
        }
    }
}

impl std::error::Error for CompoundError {}

/// A rigid body made of convex pieces (each a [`ConvexHull`] in the body's frame) and a pose.
#[derive(Clone, Debug, PartialEq)]
pub struct Compound {
    /// The pieces, in the body's frame.
    pub parts: Vec<Arc<ConvexHull>>,
    /// Each piece's AABB in the body's frame.
    part_aabbs: Vec<Aabb>,
    /// Names of the pieces (OBJ `o` names, or empty).
    pub names: Vec<String>,
    /// Body-to-world rotation (orthonormal columns).
    pub rotation: Mat3,
    /// Body-to-world translation.
    pub translation: Vec3,
}

/// One touching or overlapping pair of pieces and its contact manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartContact {
    /// Piece of A.
    pub part_a: usize,
    /// Piece of B.
    pub part_b: usize,
    /// The pieces' manifold (normal from A's piece toward B's).
    pub manifold: Manifold,
}

/// Per-pair cache of compound queries: one [`SepCache`] per piece pair.
#[derive(Clone, Debug, Default)]
pub struct CompoundCache {
    /// The piece pairs' caches, by `(piece of A, piece of B)`.
    pub pairs: HashMap<(u32, u32), SepCache>,
}

impl CompoundCache {
    /// Hits and misses summed over the piece pairs.
    #[must_use]
    pub fn totals(&self) -> (u64, u64) {
        self.pairs
            .values()
            .fold((0, 0), |(h, m), c| (h + c.hits, m + c.misses))
    }
}

impl Compound {
    /// One hull per point set; fails on the first piece without one, naming it.
    pub fn from_parts(parts: &[&[Vec3]]) -> Result<Compound, CompoundError> {
        let named: Vec<(String, &[Vec3])> = parts.iter().map(|p| (String::new(), *p)).collect();
        Self::build(&named)
    }

    /// One hull per part of a loaded model (OBJ `o` groups, e.g. a V-HACD decomposition).
    pub fn from_model(model: &Model) -> Result<Compound, CompoundError> {
        let named: Vec<(String, &[Vec3])> = model
            .parts
            .iter()
            .map(|p| (p.name.clone(), p.mesh.vertices.as_slice()))
            .collect();
        Self::build(&named)
    }

    fn build(parts: &[(String, &[Vec3])]) -> Result<Compound, CompoundError> {
        if parts.is_empty() {
            return Err(CompoundError::NoParts);
        }
        let mut hulls = Vec::with_capacity(parts.len());
        let mut aabbs = Vec::with_capacity(parts.len());
        for (index, (name, pts)) in parts.iter().enumerate() {
            let hull = ConvexHull::try_new(pts).map_err(|error| CompoundError::Part {
                index,
                name: name.clone(),
                error,
            })?;
            aabbs.push(Aabb::from_points(hull.vertices()).unwrap_or(Aabb::EMPTY));
            hulls.push(Arc::new(hull));
        }
        Ok(Compound {
            parts: hulls,
            part_aabbs: aabbs,
            names: parts.iter().map(|(n, _)| n.clone()).collect(),
            rotation: Mat3::IDENTITY,
            translation: Vec3::ZERO,
        })
    }

    /// The same body at a new pose (rotation normalised; a zero or NaN quaternion gives a NaN
    /// pose: no contact).
    #[must_use]
    pub fn with_pose(&self, rotation: Quat, translation: Vec3) -> Compound {
        let mut c = self.clone();
        let len2 = rotation.length_squared();
        c.rotation = if len2 > 0.0 && len2.is_finite() {
            Mat3::from_quat(rotation * len2.sqrt().recip())
        } else {
            Mat3::from_cols(Vec3::NAN, Vec3::NAN, Vec3::NAN)
        };
        c.translation = translation;
        c
    }

    /// Piece `i` posed in the world.
    #[must_use]
    pub fn part(&self, i: usize) -> ConvexPolyhedron {
        ConvexPolyhedron {
            hull: self.parts[i].clone(),
            rotation: self.rotation,
            translation: self.translation,
        }
    }

    fn affine(&self) -> Affine3A {
        Affine3A::from_mat3_translation(self.rotation, self.translation)
    }

    /// World AABB of piece `i` (its rest-frame box moved: Arvo 1990).
    #[must_use]
    pub fn part_aabb(&self, i: usize) -> Aabb {
        self.part_aabbs[i].transformed(&self.affine())
    }

    /// World AABB of the whole body.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        (0..self.parts.len())
            .map(|i| self.part_aabb(i))
            .fold(Aabb::EMPTY, |a, b| a.union(&b))
    }
}

/// Piece pairs whose world AABBs overlap, in order.
fn candidate_pairs(a: &Compound, b: &Compound) -> Vec<(usize, usize)> {
    let boxes_b: Vec<Aabb> = (0..b.parts.len()).map(|j| b.part_aabb(j)).collect();
    let mut out = Vec::new();
    for i in 0..a.parts.len() {
        let ba = a.part_aabb(i);
        for (j, bb) in boxes_b.iter().enumerate() {
            if aabb_aabb(&ba, bb) {
                out.push((i, j));
            }
        }
    }
    out
}

/// `true` when any piece of A touches or overlaps any piece of B (touching counts).
///
/// Piece pairs are pruned by world AABBs, then decided by [`sat_cached`] with the pair's
/// cache. NaN poses give `false`.
#[must_use]
pub fn compound_intersects(a: &Compound, b: &Compound, cache: &mut CompoundCache) -> bool {
    candidate_pairs(a, b).into_iter().any(|(i, j)| {
        let c = cache.pairs.entry((i as u32, j as u32)).or_default();
        sat_cached(&a.part(i), &b.part(j), c).is_penetrating()
    })
}

/// Every touching or overlapping piece pair with its manifold (empty when apart or for NaN
/// poses).
#[must_use]
pub fn compound_contacts(
    a: &Compound,
    b: &Compound,
    cache: &mut CompoundCache,
) -> Vec<PartContact> {
    candidate_pairs(a, b)
        .into_iter()
        .filter_map(|(i, j)| {
            let c = cache.pairs.entry((i as u32, j as u32)).or_default();
            contact_manifold(&a.part(i), &b.part(j), c).map(|manifold| PartContact {
                part_a: i,
                part_b: j,
                manifold,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube_at(c: Vec3) -> Vec<Vec3> {
        (0..8)
            .map(|i| {
                c + Vec3::new(
                    if i & 1 == 0 { -0.5 } else { 0.5 },
                    if i & 2 == 0 { -0.5 } else { 0.5 },
                    if i & 4 == 0 { -0.5 } else { 0.5 },
                )
            })
            .collect()
    }

    #[test]
    fn l_shape_misses_what_its_hull_would_hit() {
        // An L of three unit cubes; a small cube in the notch touches the hull, not the L.
        let pieces = [cube_at(Vec3::ZERO), cube_at(Vec3::X), cube_at(Vec3::Y)];
        let refs: Vec<&[Vec3]> = pieces.iter().map(|p| p.as_slice()).collect();
        let l = Compound::from_parts(&refs).unwrap();
        let small: Vec<Vec3> = cube_at(Vec3::ZERO).iter().map(|p| *p * 0.4).collect();
        let probe = Compound::from_parts(&[&small])
            .unwrap()
            .with_pose(Quat::IDENTITY, Vec3::new(0.85, 0.85, 0.0));
        let mut cache = CompoundCache::default();
        assert!(!compound_intersects(&l, &probe, &mut cache));
        let all: Vec<Vec3> = pieces.concat();
        let hull = Compound::from_parts(&[&all]).unwrap();
        assert!(compound_intersects(
            &hull,
            &probe,
            &mut CompoundCache::default()
        ));
        // Moved into the cube at x = 1: contact with piece 1 only.
        let probe = probe.with_pose(Quat::IDENTITY, Vec3::new(1.0, 0.6, 0.0));
        let contacts = compound_contacts(&l, &probe, &mut cache);
        assert_eq!(contacts.len(), 1);
        assert_eq!((contacts[0].part_a, contacts[0].part_b), (1, 0));
    }

    #[test]
    fn bad_piece_is_named() {
        // A flat piece fails with its index.
        let flat = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE.with_z(0.0)];
        let cube = cube_at(Vec3::ZERO);
        let err = Compound::from_parts(&[&cube, &flat]).unwrap_err();
        assert!(matches!(err, CompoundError::Part { index: 1, .. }));
        assert_eq!(
            Compound::from_parts(&[]).unwrap_err(),
            CompoundError::NoParts
        );
    }
}
