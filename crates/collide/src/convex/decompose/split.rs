//! Step 3, split search: the plane that best splits a part, chosen among axis-aligned and
//! diagonal candidates by the concavity of the two halves it leaves.

use super::clip::{split, Cut, Part};
use super::concavity::{
    part_concavity, part_hull, Others, PartConcavity, Sampling, Scale, SEARCH_MAX_STEPS,
};
use crate::convex::ConvexHull;
use crate::math::Vec3;
use crate::mesh::MeshCollider;
use crate::shapes::Aabb;
use std::sync::Mutex;

/// A part with its hull and concavity: one piece of the decomposition in progress.
#[derive(Clone, Debug)]
pub(super) struct Piece {
    pub part: Part,
    pub hull: ConvexHull,
    /// The box of the hull's vertices.
    pub bounds: Aabb,
    pub concavity: PartConcavity,
    /// The grid spacing `concavity` was measured at: the search's, or a coarser one (tied to
    /// the concavity of the piece it was split from) when it is surely beyond the limit
    /// ([`Search::settled`]).
    pub spacing: f32,
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

/// Number of evenly spaced planes per diagonal direction in the first round: at `1/4, 1/2,
/// 3/4` of the part's extent along it.
const OFFSETS_PER_DIAGONAL: u32 = 3;

/// The candidate normals: the three axes, then the six diagonals of pairs of axes (the
/// directions that cut a ring into eighths, which axis planes alone cannot).
const DIRECTIONS: [Vec3; 9] = {
    const H: f32 = std::f32::consts::FRAC_1_SQRT_2;
    [
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        Vec3::new(H, H, 0.0),
        Vec3::new(H, -H, 0.0),
        Vec3::new(H, 0.0, H),
        Vec3::new(H, 0.0, -H),
        Vec3::new(0.0, H, H),
        Vec3::new(0.0, H, -H),
    ]
};

/// The candidates of a piece of concavity `c` are ranked on a grid of spacing `c`, kept between
/// this many search spacings (a sixteenth of the samples) and [`COARSEST_RANK`]; the
/// [`FINALISTS`] best are scored again at half that spacing (between [`FINAL_COARSENING`]
/// search spacings and half of [`COARSEST_RANK`]), and the winner's halves measured on the
/// search grid. A deep piece needs no fine grid to tell its candidates apart (a sample misses
/// at most `spacing / √3` of a half's depth, and the candidates worth taking take off a good
/// part of `c`); the finer grids are left for the shallow pieces, where the differences are
/// small.
const RANK_COARSENING: f32 = 4.0;
/// The finest grid of the finalists' scores, in search spacings.
const FINAL_COARSENING: f32 = 2.0;
/// The coarsest ranking grid, as a fraction of the diagonal: the ranking grid of the default
/// limit (`0.05`, searched at `0.0125`), so that a search at the defaults ranks as before and
/// only searches to a lower limit rank their deep pieces more coarsely than their limit's grid.
const COARSEST_RANK: f32 = 0.05;
/// The coarsest grid the winning split's halves and the pairs merged back to the budget are
/// measured on, as a fraction of the diagonal: the search grid of the default limit (`0.05`,
/// searched at `0.0125`), so that a search at the defaults measures them as before and only
/// searches to a lower limit measure their deep pieces more coarsely than their limit's grid.
const COARSEST_MEASURE: f32 = 0.0125;
/// How many of the best-ranked candidates are scored again on the finer grid.
const FINALISTS: usize = 3;
/// A split is stuck when its best finalist leaves a half at least this fraction of the piece's
/// concavity deep: then the planes through the deepest sample are taken instead.
const STUCK: f32 = 0.9;
/// The hull of a part and the box of its vertices.
struct Hulled {
    part: Part,
    hull: ConvexHull,
    bounds: Aabb,
}

/// A scored candidate: its score, its index among the candidates and the halves it leaves.
type Scored = (f32, usize, (Piece, Piece));

impl Search<'_> {
    /// The hull of `part`, or `None` when it cannot be built even thickened.
    fn hulled(&self, part: Part) -> Option<Hulled> {
        let hull = part_hull(&part.points, &self.scale)?;
        let bounds = Aabb::from_points(hull.vertices())?;
        Some(Hulled { part, hull, bounds })
    }

    /// The sampling at `spacing`, stopping above `stop_above`.
    fn sampling(&self, spacing: f32, stop_above: f32) -> Sampling {
        Sampling {
            spacing,
            max_steps: SEARCH_MAX_STEPS,
            stop_above,
        }
    }

    /// The concavity of a hulled part among `others`.
    fn measured(&self, h: Hulled, others: Others<'_>, sampling: Sampling) -> Piece {
        let concavity = part_concavity(
            &h.hull,
            &h.part,
            self.collider,
            &self.scale,
            sampling,
            others,
            None,
        );
        let mut piece = Piece {
            part: h.part,
            hull: h.hull,
            bounds: h.bounds,
            concavity,
            spacing: sampling.spacing,
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
        let others = Others {
            hulls: others,
            extra: None,
        };
        Some(self.measured(h, others, self.sampling(self.spacing, f32::INFINITY)))
    }

    /// The piece of `part` among `others` on a grid of `spacing`, its measure cut short at
    /// the first sample farther than `stop_above` (then its `off_cut` is `None` and its depth
    /// that sample's); `None` when its hull cannot be built even thickened.
    pub fn piece_until(
        &self,
        part: Part,
        others: &[&ConvexHull],
        stop_above: f32,
        spacing: f32,
    ) -> Option<Piece> {
        let h = self.hulled(part)?;
        let others = Others {
            hulls: others,
            extra: None,
        };
        Some(self.measured(h, others, self.sampling(spacing, stop_above)))
    }

    /// A piece whose measure was cut short ([`Search::piece_until`]) measured again on its
    /// grid among the same `others`, cut short at the first sample farther than `stop_above`.
    pub fn measured_until(&self, piece: Piece, others: &[&ConvexHull], stop_above: f32) -> Piece {
        let h = Hulled {
            part: piece.part,
            hull: piece.hull,
            bounds: piece.bounds,
        };
        let others = Others {
            hulls: others,
            extra: None,
        };
        self.measured(h, others, self.sampling(piece.spacing, stop_above))
    }

    /// The piece of `part` among `others` when it is within the limit; `None` otherwise, found
    /// at the first search sample beyond the limit (the same verdict as [`Search::piece`]).
    pub fn piece_within(&self, part: Part, others: &[&ConvexHull]) -> Option<Piece> {
        let h = self.hulled(part)?;
        let others = Others {
            hulls: others,
            extra: None,
        };
        let piece = self.measured(h, others, self.sampling(self.spacing, self.limit));
        piece.within.then_some(piece)
    }

    /// `piece`'s concavity, grid and verdict measured again among `others` (which changed),
    /// on its own grid ([`Piece::spacing`]), then [`Search::settled`]. Only the samples on its
    /// cuts are measured again; the others are the same.
    pub fn remeasure(&self, piece: &Piece, others: &[&ConvexHull]) -> (PartConcavity, f32, bool) {
        let concavity = self.measure_again(piece, others, piece.spacing);
        let mut fresh = Piece {
            concavity,
            ..piece.clone()
        };
        fresh = self.settled(fresh, others);
        (fresh.concavity, fresh.spacing, fresh.within)
    }

    /// `piece`'s concavity among `others` on a grid of `spacing` (the samples off its cuts
    /// taken from its last measure when that was on the same grid).
    fn measure_again(&self, piece: &Piece, others: &[&ConvexHull], spacing: f32) -> PartConcavity {
        part_concavity(
            &piece.hull,
            &piece.part,
            self.collider,
            &self.scale,
            self.sampling(spacing, f32::INFINITY),
            Others {
                hulls: others,
                extra: None,
            },
            Some(&piece.concavity),
        )
    }

    /// `piece`, measured on a grid coarser than the search's, measured again on the search
    /// grid when it may be within the limit there: when its depth is at most the limit plus
    /// the search spacing. A deeper one is beyond the limit on the search grid too (up to
    /// what the samples can miss): its samples are at most `spacing / √3` from a search
    /// sample (see `sample_spacing` in the module root), and the distance to the mesh changes
    /// no faster than the point moves. Its verdict is set either way.
    pub fn settled(&self, mut piece: Piece, others: &[&ConvexHull]) -> Piece {
        if piece.spacing > self.spacing && piece.concavity.depth <= self.limit + self.spacing {
            piece.concavity = self.measure_again(&piece, others, self.spacing);
            piece.spacing = self.spacing;
        }
        piece.within = self.within(&piece);
        piece
    }

    /// The best split of `piece` by a plane (among the other pieces' hulls `others`), or
    /// `None` when no candidate leaves two non-empty halves with hulls.
    ///
    /// Round one ([`Search::first_round`]): planes along the axes and the diagonals at even
    /// offsets, and planes of every direction through the deepest sample's nearest mesh point
    /// (where the surface turns in). Round two refines the best of round one: its plane moved
    /// by `±1/16` and `±1/32` of the part's extent along its normal. Both rounds are ranked
    /// ([`score`]) on a coarse grid that follows the piece's concavity ([`RANK_COARSENING`]);
    /// the [`FINALISTS`] best are scored again on a finer one.
    /// When even the best of them is stuck (its worse half keeps [`STUCK`] of the piece's
    /// concavity), the planes through the deepest sample compete instead.
    /// Candidates are evaluated in parallel; the lowest score wins, ties to the earlier
    /// candidate, so the result does not depend on the thread count.
    pub fn best_split(
        &self,
        piece: &Piece,
        id: u32,
        others: &[&ConvexHull],
    ) -> Option<(Piece, Piece)> {
        let (rank, fine) = self.ranking_grids(piece.concavity.depth);
        let (first_cuts, even_count) = self.first_round(piece, id);
        let (even_cuts, through_cuts) = first_cuts.split_at(even_count);
        let ranking = Bar::new(FINALISTS);
        // The planes through the deepest point first: often among the best, they set a low
        // bar early, and the other candidates are then cut short sooner. Scores keep their
        // candidates' indices in `first_cuts`, evenly spaced planes first.
        let mut through = self.evaluate_all(piece, through_cuts, others, rank, &ranking);
        for s in &mut through {
            s.1 += even_count;
        }
        let mut first = self.evaluate_all(piece, even_cuts, others, rank, &ranking);
        first.append(&mut through);
        let best = lowest(&first).map(|&(_, k, _)| first_cuts[k])?;
        let (lo, hi) = extent(&piece.part.points, best.normal);
        let second_cuts: Vec<Cut> = [-1.0 / 16.0, 1.0 / 16.0, -1.0 / 32.0, 1.0 / 32.0]
            .iter()
            .map(|&f| Cut {
                offset: best.offset + f * (hi - lo),
                ..best
            })
            .collect();
        let second = self.evaluate_all(piece, &second_cuts, others, rank, &ranking);
        let cuts: Vec<Cut> = first_cuts.iter().chain(&second_cuts).copied().collect();
        let mut ranked: Vec<(f32, usize)> = first
            .iter()
            .map(|&(s, k, _)| (s, k))
            .chain(second.iter().map(|&(s, k, _)| (s, k + first_cuts.len())))
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let finalists: Vec<Cut> = ranked
            .iter()
            .take(FINALISTS)
            .map(|&(_, k)| cuts[k])
            .collect();
        let mut finals = self.evaluate_all(piece, &finalists, others, fine, &Bar::new(1));
        let best_depth = lowest(&finals).map(|s| worse_depth(&s.2))?;
        if best_depth >= STUCK * piece.concavity.depth {
            // No cut takes the worst point away: bisect the dent at it instead, so that the
            // next cuts, on smaller halves, can.
            let through = self.through_deepest(piece, id);
            finals = self.evaluate_all(piece, &through, others, fine, &Bar::new(1));
            if finals.is_empty() {
                finals = self.evaluate_all(piece, &finalists, others, fine, &Bar::new(1));
            }
        }
        let k = lowest(&finals)?.1;
        let (_, _, (a, b)) = finals.into_iter().find(|s| s.1 == k)?;
        Some(self.on_halves_grid(a, b, others, self.measure_grid(fine)))
    }

    /// The grid `spacing` (a grid tied to a piece's concavity) capped at
    /// [`COARSEST_MEASURE`], and no finer than the search grid.
    fn measure_grid(&self, spacing: f32) -> f32 {
        spacing
            .min(COARSEST_MEASURE * self.scale.diagonal)
            .max(self.spacing)
    }

    /// The grid the pairs of `pieces` are measured on while merging back to the budget: half
    /// the most concave piece's depth ([`Search::measure_grid`]), as a split's finalists are
    /// scored at half its piece's. A merged pair is at least about as concave as its deeper
    /// piece, and a pair that may be within the limit is measured on the search grid
    /// ([`Search::settled`]).
    pub fn merge_grid(&self, pieces: &[Piece]) -> f32 {
        let worst = pieces.iter().map(|p| p.concavity.depth).fold(0.0, f32::max);
        self.measure_grid(0.5 * worst)
    }

    /// The spacings candidates are ranked and the finalists scored at, for a piece whose
    /// concavity is `depth` (see [`RANK_COARSENING`]).
    fn ranking_grids(&self, depth: f32) -> (f32, f32) {
        let coarsest = COARSEST_RANK * self.scale.diagonal;
        let rank = depth.min(coarsest).max(RANK_COARSENING * self.spacing);
        let fine = (0.5 * depth)
            .min(0.5 * coarsest)
            .max(FINAL_COARSENING * self.spacing);
        (rank, fine)
    }

    /// A plane of each of the [`DIRECTIONS`] through the piece's deepest sample, where it
    /// splits the part.
    fn through_deepest(&self, piece: &Piece, id: u32) -> Vec<Cut> {
        let q = piece.concavity.deepest;
        DIRECTIONS
            .into_iter()
            .filter_map(|normal| {
                let (lo, hi) = extent(&piece.part.points, normal);
                let offset = normal.dot(q);
                (offset - lo > self.scale.plane_eps && hi - offset > self.scale.plane_eps)
                    .then_some(Cut { normal, offset, id })
            })
            .collect()
    }

    /// The two halves of a split measured again on a grid of `spacing` (both at once; a half
    /// already measured on it is kept), each with the other among the covering hulls, then
    /// [`Search::settled`].
    fn on_halves_grid(
        &self,
        a: Piece,
        b: Piece,
        others: &[&ConvexHull],
        spacing: f32,
    ) -> (Piece, Piece) {
        let with_b: Vec<&ConvexHull> = others.iter().copied().chain([&b.hull]).collect();
        let with_a: Vec<&ConvexHull> = others.iter().copied().chain([&a.hull]).collect();
        let halves = [(&a, &with_b), (&b, &with_a)];
        let fresh = crate::par::filter_map(&halves, |&(half, cover)| {
            let mut half = half.clone();
            if half.spacing != spacing {
                half.concavity = self.measure_again(&half, cover, spacing);
                half.spacing = spacing;
            }
            Some(self.settled(half, cover))
        });
        let mut fresh = fresh.into_iter();
        match (fresh.next(), fresh.next()) {
            (Some(a), Some(b)) => (a, b),
            _ => (a, b),
        }
    }

    /// The round-one candidates of [`Search::best_split`]: along each axis
    /// [`OFFSETS_PER_AXIS`] planes and along each diagonal [`OFFSETS_PER_DIAGONAL`], evenly
    /// spaced over the part's extent along the normal, then a plane of each of the
    /// [`DIRECTIONS`] through the deepest sample's nearest mesh point; with the index where
    /// those start.
    fn first_round(&self, piece: &Piece, id: u32) -> (Vec<Cut>, usize) {
        let mut cuts = Vec::new();
        let points = &piece.part.points;
        let through = self
            .collider
            .closest_point(piece.concavity.deepest, f32::MAX)
            .map(|m| m.point);
        for (d, normal) in DIRECTIONS.into_iter().enumerate() {
            let (lo, hi) = extent(points, normal);
            if hi - lo <= 2.0 * self.scale.plane_eps {
                continue;
            }
            let count = if d < 3 {
                OFFSETS_PER_AXIS
            } else {
                OFFSETS_PER_DIAGONAL
            };
            for k in 1..=count {
                let offset = lo + (hi - lo) * k as f32 / (count + 1) as f32;
                cuts.push(Cut { normal, offset, id });
            }
        }
        let even = cuts.len();
        if let Some(p) = through {
            for normal in DIRECTIONS {
                let (lo, hi) = extent(points, normal);
                let offset = normal.dot(p);
                if offset > lo && offset < hi {
                    cuts.push(Cut { normal, offset, id });
                }
            }
        }
        (cuts, even)
    }

    /// The score, index and halves, in candidate order, on a grid of `spacing`, of every valid
    /// candidate that can be among the `bar.keep` lowest scores of the candidates `bar` has
    /// seen: the others are left out, cut short as soon as their score is known to be higher.
    fn evaluate_all(
        &self,
        piece: &Piece,
        cuts: &[Cut],
        others: &[&ConvexHull],
        spacing: f32,
        bar: &Bar,
    ) -> Vec<Scored> {
        let indexed: Vec<(usize, Cut)> = cuts.iter().copied().enumerate().collect();
        crate::par::filter_map(&indexed, |&(k, cut)| {
            let (score, halves) = self.evaluate(piece, cut, others, spacing, bar)?;
            bar.offer(score);
            Some((score, k, halves))
        })
    }

    /// The halves `cut` leaves and their score on a grid of `spacing`, or `None` when a half
    /// is empty or hull-less, or when the score is found to be above `bar`'s threshold
    /// before the halves are measured in full. Each half is measured with the other half among
    /// the hulls that cover its cut.
    fn evaluate(
        &self,
        piece: &Piece,
        cut: Cut,
        others: &[&ConvexHull],
        spacing: f32,
        bar: &Bar,
    ) -> Option<(f32, (Piece, Piece))> {
        let (below, above) = split(&piece.part, cut, self.scale.plane_eps);
        if below.polygon_count() == 0 || above.polygon_count() == 0 {
            return None;
        }
        let a = self.hulled(below)?;
        let b = self.hulled(above)?;
        let a_hull = a.hull.clone();
        // The score is at least either half's largest distance: a half whose samples pass the
        // threshold leaves a candidate that cannot make the bar, and its measure is cut short
        // (leaving no `off_cut`).
        let b_piece = self.measured(
            b,
            Others {
                hulls: others,
                extra: Some(&a_hull),
            },
            self.sampling(spacing, bar.threshold()),
        );
        b_piece.concavity.off_cut?;
        let b_done = b_piece.concavity;
        let a_stop = a_stop_above(b_done.depth, b_done.mean, bar.threshold());
        if a_stop < 0.0 {
            return None;
        }
        let a_piece = self.measured(
            a,
            Others {
                hulls: others,
                extra: Some(&b_piece.hull),
            },
            self.sampling(spacing, a_stop),
        );
        a_piece.concavity.off_cut?;
        let score = score(&[a_piece.concavity, b_piece.concavity]);
        Some((score, (a_piece, b_piece)))
    }
}

/// The score of the pieces a candidate leaves (lower is better): `d₁ + d₂ / 4 + m` over the
/// largest concavity `d₁`, the second largest `d₂` and the mean `m` of the pieces' mean
/// distances: first the worse piece, then the next, then how loose they are, which still falls
/// when a dent is only being narrowed.
fn score(pieces: &[PartConcavity]) -> f32 {
    let (mut d1, mut d2, mut sum) = (0.0f32, 0.0f32, 0.0f32);
    for c in pieces {
        if c.depth > d1 {
            (d1, d2) = (c.depth, d1);
        } else {
            d2 = d2.max(c.depth);
        }
        sum += c.mean;
    }
    d1 + 0.25 * d2 + sum / pieces.len().max(1) as f32
}

/// The largest distance the half `a` of a candidate (measured second) may reach before the
/// candidate's [`score`] is surely above `threshold`, given the other half's largest distance
/// `db` and mean `mb`; negative when it already is whatever `a` gives.
///
/// With `a`'s largest distance `x` and mean `ma >= 0`, the score is at least
/// `f(x) = max(x, db) + min(x, db) / 4 + mb / 2`, which grows with `x`. The answer is where
/// `f` reaches `threshold` plus a margin of `1e-5` of the sizes involved (far above the `f32`
/// rounding of these few steps, so that no candidate is cut short whose score could still make
/// the bar): with `t` that target less `mb / 2`, `f(0) = db + mb / 2` is past it when
/// `db > t`; otherwise `x = 4 (t - db)` when that is at most `db` (for `x <= db`,
/// `f = db + x / 4 + mb / 2`), that is when `1.25 db >= t`, else `x = t - db / 4`
/// (`f = x + db / 4 + mb / 2`).
fn a_stop_above(db: f32, mb: f32, threshold: f32) -> f32 {
    if threshold == f32::INFINITY {
        return f32::INFINITY;
    }
    let margin = 1e-5 * (threshold.abs() + db + mb);
    let t = threshold + margin - 0.5 * mb;
    if db > t {
        -1.0
    } else if 1.25 * db >= t {
        4.0 * (t - db)
    } else {
        t - 0.25 * db
    }
}

/// The `keep` lowest scores seen so far among candidates evaluated in parallel: a candidate
/// scored above the highest of them (once there are `keep`) cannot be among the `keep` best
/// and need not be measured in full. Which candidates are cut short depends on the order they
/// finish in; the `keep` best and their scores do not.
pub(super) struct Bar {
    keep: usize,
    lowest: Mutex<Vec<f32>>,
}

impl Bar {
    /// No score seen yet.
    pub fn new(keep: usize) -> Bar {
        Bar {
            keep,
            lowest: Mutex::new(Vec::with_capacity(keep + 1)),
        }
    }

    /// The highest of the `keep` lowest scores, `f32::INFINITY` before there are `keep`.
    pub fn threshold(&self) -> f32 {
        let lowest = self.lowest.lock().unwrap_or_else(|e| e.into_inner());
        if lowest.len() < self.keep {
            f32::INFINITY
        } else {
            lowest.last().copied().unwrap_or(f32::INFINITY)
        }
    }

    /// Records a candidate's score.
    pub fn offer(&self, score: f32) {
        let mut lowest = self.lowest.lock().unwrap_or_else(|e| e.into_inner());
        let at = lowest.partition_point(|&s| s <= score);
        lowest.insert(at, score);
        lowest.truncate(self.keep);
    }
}

/// The larger concavity of a split's halves.
fn worse_depth((a, b): &(Piece, Piece)) -> f32 {
    a.concavity.depth.max(b.concavity.depth)
}

/// The lowest-scored candidate, ties to the earlier one.
fn lowest(scored: &[Scored]) -> Option<&Scored> {
    scored
        .iter()
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

/// The smallest and largest of `normal · p` over `points` (`(0, 0)` without points).
fn extent(points: &[Vec3], normal: Vec3) -> (f32, f32) {
    let mut range = points
        .iter()
        .map(|&p| normal.dot(p))
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    if range.0 > range.1 {
        range = (0.0, 0.0);
    }
    range
}

#[cfg(test)]
mod tests {
    use super::*;

    fn concavity(depth: f32, mean: f32) -> PartConcavity {
        PartConcavity {
            depth,
            mean,
            deepest: Vec3::ZERO,
            off_cut: None,
        }
    }

    /// A candidate cut short by `a_stop_above` scores above the threshold whatever its second
    /// half's mean; one whose second half stays at the stop may still make it.
    #[test]
    fn a_half_past_the_stop_leaves_a_score_above_the_threshold() {
        let mut g = collide_testkit::Gen::new(0x2545);
        let mut next = || g.range(0.0, 1.0);
        let mut cut_short = 0;
        for _ in 0..100_000 {
            let scale = [1e-3, 1.0, 1e3][(next() * 3.0) as usize % 3];
            let (db, threshold) = (next() * scale, next() * 2.0 * scale);
            let mb = next() * db;
            let stop = a_stop_above(db, mb, threshold);
            let b = concavity(db, mb);
            if stop < 0.0 {
                assert!(score(&[concavity(0.0, 0.0), b]) > threshold);
                cut_short += 1;
                continue;
            }
            // The next float up (`stop >= 0`).
            let past = f32::from_bits(stop.to_bits() + 1);
            let ma = next() * past;
            assert!(
                score(&[concavity(past, ma), b]) > threshold,
                "db {db} mb {mb} threshold {threshold} stop {stop}"
            );
            assert!(score(&[concavity(stop, 0.0), b]) >= threshold * (1.0 - 1e-4));
        }
        assert!(cut_short > 1000);
        assert_eq!(a_stop_above(0.5, 0.1, f32::INFINITY), f32::INFINITY);
    }

    /// The bar's threshold is the `keep`-th lowest score offered, in any order.
    #[test]
    fn the_bar_is_the_keep_th_lowest_score() {
        let bar = Bar::new(3);
        for s in [5.0, 1.0, 4.0] {
            assert_eq!(bar.threshold(), f32::INFINITY);
            bar.offer(s);
        }
        assert_eq!(bar.threshold(), 5.0);
        bar.offer(2.0);
        assert_eq!(bar.threshold(), 4.0);
        bar.offer(4.0);
        assert_eq!(bar.threshold(), 4.0);
        bar.offer(0.5);
        assert_eq!(bar.threshold(), 2.0);
    }
}
