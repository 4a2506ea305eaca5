//! Step 3, split search: the plane that best splits a part, chosen among axis-aligned
//! candidates by the concavity of the two halves it leaves.

use super::clip::{split, Cut, Part};
use super::concavity::{part_concavity, part_hull, Others, PartConcavity, Scale, SEARCH_MAX_STEPS};
use crate::convex::ConvexHull;
use crate::math::Vec3;
use crate::mesh::MeshCollider;
use crate::shapes::Aabb;

/// A part with its hull and concavity: one piece of the decomposition in progress.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    pub part: Part,
    pub hull: ConvexHull,
    /// The box of the hull's vertices.
    pub bounds: Aabb,
    pub concavity: PartConcavity,
    /// `true` when the piece is known to be within the limit ([`Search::within`]).
    pub within: bool,
}

/// What the search needs besides the part: the mesh's tree, its scale and the sampling.
pub(super) struct Search<'a> {
    pub collider: &'a MeshCollider,
    pub scale: Scale,
    /// Grid spacing on hull faces during the search
    /// ([`super::concavity::for_each_hull_sample`]).
    pub spacing: f32,
    /// The concavity limit, absolute.
    pub limit: f32,
}

/// Number of evenly spaced planes per axis in the first round: at `1/8 … 7/8` of the part's
/// extent.
const OFFSETS_PER_AXIS: u32 = 7;

/// The hull of a part and the box of its vertices.
struct Hulled {
    part: Part,
    hull: ConvexHull,
    bounds: Aabb,
}

impl Search<'_> {
    /// The hull of `part`, or `None` when it cannot be built even thickened.
    fn hulled(&self, part: Part) -> Option<Hulled> {
        let hull = part_hull(&part.points, &self.scale)?;
        let bounds = Aabb::from_points(hull.vertices())?;
        Some(Hulled { part, hull, bounds })
    }

    /// The concavity of a hulled part among `others`.
    fn measured(&self, h: Hulled, others: Others<'_>, spacing: f32) -> Piece {
        let concavity = part_concavity(
            &h.hull,
            &h.part,
            self.collider,
            &self.scale,
            spacing,
            SEARCH_MAX_STEPS,
            others,
        );
        let mut piece = Piece {
            part: h.part,
            hull: h.hull,
            bounds: h.bounds,
            concavity,
            within: false,
        };
        piece.within = self.within(&piece);
        piece
    }

    /// Whether a measured piece is within the limit: its deepest search sample is (see
    /// `sample_spacing` in the module root for what the samples can miss).
    fn within(&self, piece: &Piece) -> bool {
        piece.concavity.depth <= self.limit
    }

    /// The piece of `part` among the hulls `others`, or `None` when its hull cannot be built
    /// even thickened.
    pub fn piece(&self, part: Part, others: &[&ConvexHull]) -> Option<Piece> {
        let h = self.hulled(part)?;
        Some(self.measured(
            h,
            Others {
                hulls: others,
                extra: None,
            },
            self.spacing,
        ))
    }

    /// `piece`'s concavity and verdict measured again among `others` (which changed).
    pub fn remeasure(&self, piece: &Piece, others: &[&ConvexHull]) -> (PartConcavity, bool) {
        let others = Others {
            hulls: others,
            extra: None,
        };
        let concavity = part_concavity(
            &piece.hull,
            &piece.part,
            self.collider,
            &self.scale,
            self.spacing,
            SEARCH_MAX_STEPS,
            others,
        );
        let measured = Piece {
            concavity,
            ..piece.clone()
        };
        (concavity, self.within(&measured))
    }

    /// The best split of `piece` by a plane (among the other pieces' hulls `others`), or
    /// `None` when no candidate leaves two non-empty halves with hulls.
    ///
    /// Round one: `7` planes per axis at even offsets of the part's box, and the three axis
    /// planes through the deepest sample's nearest mesh point (where the surface turns in).
    /// Round two refines the best of round one: its plane moved by `±1/16` and `±1/32` of the
    /// box along its axis. A candidate scores `max(c₁, c₂) + min(c₁, c₂) / 4 + m` over the
    /// halves' largest concavities `c` and the mean `m` of their samples' distances: first the
    /// worse half, then the other, and the mean, which still falls when a dent is only being
    /// narrowed. Candidates are evaluated in parallel; the lowest score wins, ties to the
    /// earlier candidate, so the result does not depend on the thread count.
    pub fn best_split(
        &self,
        piece: &Piece,
        id: u32,
        others: &[&ConvexHull],
    ) -> Option<(Piece, Piece)> {
        let bounds = Aabb::from_points(&piece.part.points)?;
        let first_cuts = self.first_round(piece, &bounds, id);
        let first = self.evaluate_all(piece, &first_cuts, others);
        let best = first
            .iter()
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|&(_, k, _)| first_cuts[k])?;
        let axis_extent = bounds.size().dot(best.normal.abs());
        let second_cuts: Vec<Cut> = [-1.0 / 16.0, 1.0 / 16.0, -1.0 / 32.0, 1.0 / 32.0]
            .iter()
            .map(|&f| Cut {
                offset: best.offset + f * axis_extent,
                ..best
            })
            .collect();
        let second = self.evaluate_all(piece, &second_cuts, others);
        first
            .into_iter()
            .chain(
                second
                    .into_iter()
                    .map(|(s, k, h)| (s, k + first_cuts.len(), h)),
            )
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, _, (a, b))| self.on_full_grid(a, b, others))
    }

    /// The two halves of a split measured again on the search grid, each with the other
    /// among the covering hulls.
    fn on_full_grid(&self, mut a: Piece, mut b: Piece, others: &[&ConvexHull]) -> (Piece, Piece) {
        let with_b: Vec<&ConvexHull> = others.iter().copied().chain([&b.hull]).collect();
        let (ca, wa) = self.remeasure(&a, &with_b);
        let with_a: Vec<&ConvexHull> = others.iter().copied().chain([&a.hull]).collect();
        let (cb, wb) = self.remeasure(&b, &with_a);
        (a.concavity, a.within, b.concavity, b.within) = (ca, wa, cb, wb);
        (a, b)
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

    /// Every valid candidate's score, index and halves, in candidate order.
    fn evaluate_all(
        &self,
        piece: &Piece,
        cuts: &[Cut],
        others: &[&ConvexHull],
    ) -> Vec<(f32, usize, (Piece, Piece))> {
        let indexed: Vec<(usize, Cut)> = cuts.iter().copied().enumerate().collect();
        crate::par::filter_map(&indexed, |&(k, cut)| {
            self.evaluate(piece, cut, others)
                .map(|(score, halves)| (score, k, halves))
        })
    }

    /// The halves `cut` leaves and their score, or `None` when a half is empty or hull-less.
    /// Each half is measured with the other half among the hulls that cover its cut.
    fn evaluate(
        &self,
        piece: &Piece,
        cut: Cut,
        others: &[&ConvexHull],
    ) -> Option<(f32, (Piece, Piece))> {
        let (below, above) = split(&piece.part, cut, self.scale.plane_eps);
        if below.polygon_count() == 0 || above.polygon_count() == 0 {
            return None;
        }
        let a = self.hulled(below)?;
        let b = self.hulled(above)?;
        let a_hull = a.hull.clone();
        // Candidates are compared on a grid twice as coarse (a quarter of the samples); the
        // chosen halves are measured again on the full grid.
        let coarse = 2.0 * self.spacing;
        let b_piece = self.measured(
            b,
            Others {
                hulls: others,
                extra: Some(&a_hull),
            },
            coarse,
        );
        let a_piece = self.measured(
            a,
            Others {
                hulls: others,
                extra: Some(&b_piece.hull),
            },
            coarse,
        );
        let (ca, cb) = (a_piece.concavity, b_piece.concavity);
        let score =
            ca.depth.max(cb.depth) + 0.25 * ca.depth.min(cb.depth) + 0.5 * (ca.mean + cb.mean);
        Some((score, (a_piece, b_piece)))
    }
}
