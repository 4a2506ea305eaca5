//! Step 3, split search: the plane that best splits a part, chosen among axis-aligned
//! candidates by the concavity of the two halves it leaves.

use super::clip::{split, Cut, Part};
use super::concavity::{part_concavity, part_hull, PartConcavity, Scale};
use crate::convex::ConvexHull;
use crate::math::Vec3;
use crate::mesh::MeshCollider;
use crate::shapes::Aabb;

/// A part with its hull and concavity: one piece of the decomposition in progress.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    pub part: Part,
    pub hull: ConvexHull,
    pub concavity: PartConcavity,
}

/// What the search needs besides the part: the mesh's tree, its scale and the sampling.
pub(super) struct Search<'a> {
    pub collider: &'a MeshCollider,
    pub scale: Scale,
    /// Grid spacing on hull faces ([`super::concavity::for_each_hull_sample`]).
    pub spacing: f32,
}

/// Number of evenly spaced planes per axis in the first round: at `1/8 … 7/8` of the part's
/// extent.
const OFFSETS_PER_AXIS: u32 = 7;

impl Search<'_> {
    /// The piece of `part`, or `None` when its hull cannot be built even thickened.
    pub fn piece(&self, part: Part) -> Option<Piece> {
        let hull = part_hull(&part.points, &self.scale)?;
        let concavity = part_concavity(
            &hull,
            &part,
            self.collider,
            self.spacing,
            self.scale.plane_eps,
        );
        Some(Piece {
            part,
            hull,
            concavity,
        })
    }

    /// The best split of `piece` by a plane, or `None` when no candidate leaves two
    /// non-empty halves with hulls.
    ///
    /// Round one: `7` planes per axis at even offsets of the part's box, and the three axis
    /// planes through the deepest sample's nearest mesh point (where the surface turns in).
    /// Round two refines the best of round one: its plane moved by `±1/16` and `±1/32` of the
    /// box along its axis. A candidate scores `max(c₁, c₂) + min(c₁, c₂) / 4` over the halves'
    /// concavities: first the worse half, then the other as a tie-break. Candidates are
    /// evaluated in parallel; the lowest score wins, ties to the earlier candidate, so the
    /// result does not depend on the thread count.
    pub fn best_split(&self, piece: &Piece, id: u32) -> Option<(Piece, Piece)> {
        let bounds = Aabb::from_points(&piece.part.points)?;
        let mut candidates = self.first_round(piece, &bounds, id);
        let first = self.evaluate_all(piece, &candidates);
        let (best_index, _) = first.iter().enumerate().min_by(|a, b| {
            a.1 .0
                .total_cmp(&b.1 .0)
                .then(a.0.cmp(&b.0))
        })?;
        let best = candidates[best_index];
        let axis_extent = bounds.size().dot(best.normal.abs());
        candidates = [-1.0 / 16.0, 1.0 / 16.0, -1.0 / 32.0, 1.0 / 32.0]
            .iter()
            .map(|&f| Cut {
                offset: best.offset + f * axis_extent,
                ..best
            })
            .collect();
        let second = self.evaluate_all(piece, &candidates);
        first
            .into_iter()
            .chain(second)
            .enumerate()
            .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0).then(a.0.cmp(&b.0)))
            .map(|(_, (_, halves))| halves)
    }

    /// The round-one candidates described at [`Search::best_split`].
    fn first_round(&self, piece: &Piece, bounds: &Aabb, id: u32) -> Vec<Cut> {
        let mut cuts = Vec::new();
        let size = bounds.size();
        let through = self
            .collider
            .closest_point(piece.concavity.deepest, f32::MAX)
            .map(|m| m.point);
        for (axis, normal) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
            let (lo, extent) = (bounds.min[axis], size[axis]);
            if extent <= 2.0 * self.scale.plane_eps {
                continue;
            }
            for k in 1..=OFFSETS_PER_AXIS {
                let offset = lo + extent * k as f32 / (OFFSETS_PER_AXIS + 1) as f32;
                cuts.push(Cut { normal, offset, id });
            }
            if let Some(p) = through {
                if p[axis] > lo && p[axis] < lo + extent {
                    cuts.push(Cut {
                        normal,
                        offset: p[axis],
                        id,
                    });
                }
            }
        }
        cuts
    }

    /// Every candidate's score and halves, in candidate order (the invalid ones left out).
    fn evaluate_all(&self, piece: &Piece, cuts: &[Cut]) -> Vec<(f32, (Piece, Piece))> {
        crate::par::filter_map(cuts, |&cut| self.evaluate(piece, cut))
    }

    /// The halves `cut` leaves and their score, or `None` when a half is empty or hull-less.
    fn evaluate(&self, piece: &Piece, cut: Cut) -> Option<(f32, (Piece, Piece))> {
        let (below, above) = split(&piece.part, cut, self.scale.plane_eps);
        if below.polygon_count() == 0 || above.polygon_count() == 0 {
            return None;
        }
        let a = self.piece(below)?;
        let b = self.piece(above)?;
        let (ca, cb) = (a.concavity.depth, b.concavity.depth);
        let score = ca.max(cb) + 0.25 * ca.min(cb);
        Some((score, (a, b)))
    }
}
