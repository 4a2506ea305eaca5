//! Step 4, merge: neighbouring pieces whose joint hull is still within the concavity limit
//! become one piece.

use super::split::{Bar, Piece, Search};
use crate::convex::ConvexHull;

/// A pair's merged piece in the table of [`merge_pieces`].
enum Merged {
    /// Measured in full.
    Measured(Piece),
    /// Measured until a sample was farther than a pair measured in full at the time
    /// ([`Search::piece_until`]): its concavity is at least the piece's `depth`. The hulls
    /// that covered its samples then are kept, to measure it further later as it would have
    /// been measured then, should its bound come to be the least.
    CutShort(Piece, Vec<ConvexHull>),
}

impl Merged {
    /// The merged concavity when measured in full, else a lower bound of it.
    fn key(&self) -> f32 {
        match self {
            Merged::Measured(p) | Merged::CutShort(p, _) => p.concavity.depth,
        }
    }
}

/// Merges pairs of pieces while some pair's merged piece is within the limit
/// ([`Search::within`](super::split::Search)), or while there are more than `down_to` pieces
/// whatever the merged concavity (those pairs measured on [`Search::merge_grid`]): each round merges the pair with the smallest merged
/// concavity (ties to the lowest indices), the merged piece taking the first one's place.
///
/// Only pairs whose hulls' boxes touch (within the hull tolerance) are tried: pieces apart
/// leave a gap that their joint hull would fill. Pair results are kept between rounds; only
/// the pairs of the new piece are evaluated again (in parallel). While any pair may merge, a
/// pair's measure stops once it is past the least concave pair measured in full so far, and
/// is taken further only when its lower bound comes to be the least, again only until it is
/// past the least pair ([`measure_lowest_cut_short`], a few such pairs at once, in parallel):
/// the same pairs merge as if every one were measured in full.
pub(super) fn merge_pieces(pieces: &mut Vec<Piece>, search: &Search<'_>, down_to: usize) {
    // table[i][j - i - 1]: the merged piece of i and j < n, when it is within the limit or
    // (measured in full or cut short) while there are more than `down_to` pieces.
    let bar = Bar::new(1);
    let grid = search.merge_grid(pieces);
    let mut table: Vec<Vec<Option<Merged>>> = (0..pieces.len())
        .map(|i| {
            let pairs: Vec<usize> = (i + 1..pieces.len()).collect();
            crate::par::filter_map(&pairs, |&j| {
                Some(try_merge(
                    pieces,
                    (i, j),
                    search,
                    (pieces.len() > down_to).then_some(grid),
                    &bar,
                ))
            })
        })
        .collect();
    loop {
        let mut best: Option<(usize, usize, f32)> = None;
        for (i, row) in table.iter().enumerate() {
            for (k, merged) in row.iter().enumerate() {
                if let Some(m) = merged {
                    let d = m.key();
                    if best.is_none_or(|(_, _, b)| d < b) {
                        best = Some((i, i + 1 + k, d));
                    }
                }
            }
        }
        let Some((i, j, d)) = best else {
            return;
        };
        // A pair cut short is at least as concave as its key: beyond the limit as well.
        if d > search.limit && pieces.len() <= down_to {
            return;
        }
        if let Some(Merged::CutShort(..)) = table[i][j - i - 1] {
            // Only a lower bound was the least: measure it (and the next lowest bounds)
            // further and choose again.
            measure_lowest_cut_short(&mut table, (i, j - i - 1), search);
            continue;
        }
        let Some(Merged::Measured(merged)) = table[i][j - i - 1].take() else {
            return;
        };
        pieces[i] = merged;
        pieces.remove(j);
        table.remove(j);
        for (r, row) in table.iter_mut().enumerate() {
            if r < j {
                row.remove(j - r - 1);
            }
        }
        // The pairs of the new piece i, with every other piece, cut short past the least
        // concave pair measured in full.
        let bar = Bar::new(1);
        let least = table.iter().flatten().flatten().filter_map(|m| match m {
            Merged::Measured(p) => Some(p.concavity.depth),
            Merged::CutShort(..) => None,
        });
        if let Some(d) = least.reduce(f32::min) {
            bar.offer(d);
        }
        let others: Vec<usize> = (0..pieces.len()).filter(|&k| k != i).collect();
        let fresh = crate::par::filter_map(&others, |&k| {
            let (a, b) = (i.min(k), i.max(k));
            Some((
                k,
                try_merge(
                    pieces,
                    (a, b),
                    search,
                    (pieces.len() > down_to).then_some(grid),
                    &bar,
                ),
            ))
        });
        for (k, m) in fresh {
            let (a, b) = (i.min(k), i.max(k));
            table[a][b - a - 1] = m;
        }
    }
}

/// How many pairs cut short [`measure_lowest_cut_short`] measures at once, in parallel.
const MEASURE_BATCH: usize = 4;

/// Measures again the pairs cut short whose lower bounds are at most the least concave pair
/// measured in full (the lowest [`MEASURE_BATCH`] of them by bound, then indices; always
/// `chosen`, the pair whose bound was the least), each cut short again past that least pair.
/// A pair so measured is either measured in full or left cut short with a bound above the
/// least pair, and the least pair is only merged once no bound is below it: the same pair
/// merges as if every pair were measured in full (the least exact concavity, ties to the first
/// pair in index order), while a pair that cannot be the least is never measured in full.
fn measure_lowest_cut_short(
    table: &mut [Vec<Option<Merged>>],
    chosen: (usize, usize),
    search: &Search<'_>,
) {
    let least_measured = table
        .iter()
        .flatten()
        .flatten()
        .filter_map(|m| match m {
            Merged::Measured(p) => Some(p.concavity.depth),
            Merged::CutShort(..) => None,
        })
        .fold(f32::INFINITY, f32::min);
    let mut lowest: Vec<(f32, usize, usize)> = Vec::new();
    for (i, row) in table.iter().enumerate() {
        for (k, m) in row.iter().enumerate() {
            if let Some(Merged::CutShort(p, _)) = m {
                let bound = p.concavity.depth;
                if (i, k) == chosen || bound <= least_measured {
                    lowest.push((bound, i, k));
                }
            }
        }
    }
    // The chosen pair first, then the lowest bounds.
    lowest.sort_by(|a, b| {
        ((a.1, a.2) != chosen)
            .cmp(&((b.1, b.2) != chosen))
            .then(a.0.total_cmp(&b.0))
            .then((a.1, a.2).cmp(&(b.1, b.2)))
    });
    lowest.truncate(MEASURE_BATCH);
    let batch: Vec<(usize, usize, Piece, Vec<ConvexHull>)> = lowest
        .iter()
        .filter_map(|&(_, i, k)| match table[i][k].take() {
            Some(Merged::CutShort(p, hulls)) => Some((i, k, p, hulls)),
            other => {
                table[i][k] = other;
                None
            }
        })
        .collect();
    let measured = crate::par::filter_map(&batch, |(_, _, piece, hulls)| {
        let others: Vec<&ConvexHull> = hulls.iter().collect();
        let piece = search.measured_until(piece.clone(), &others, least_measured);
        Some(if piece.concavity.off_cut.is_none() {
            Merged::CutShort(piece, hulls.clone())
        } else {
            Merged::Measured(search.settled(piece, &others))
        })
    });
    for ((i, k, _, _), merged) in batch.into_iter().zip(measured) {
        table[i][k] = Some(merged);
    }
}

/// The merged piece of pieces `i` and `j` when their boxes touch and it is within the limit
/// among the other pieces, or with `any` (a grid), whatever its concavity: then measured on
/// that grid ([`Search::settled`] when measured in full), cut short when it is found more
/// concave than `bar`'s threshold, and otherwise offered to `bar`.
fn try_merge(
    pieces: &[Piece],
    (i, j): (usize, usize),
    search: &Search<'_>,
    any: Option<f32>,
    bar: &Bar,
) -> Option<Merged> {
    let (a, b) = (&pieces[i], &pieces[j]);
    if !super::touching(&a.bounds, &b.bounds, search) {
        return None;
    }
    let both = a.bounds.union(&b.bounds);
    let others = super::neighbour_hulls(pieces, &both, &[i, j], search);
    let Some(grid) = any else {
        return search
            .piece_within(a.part.merged(&b.part), &others)
            .map(Merged::Measured);
    };
    let piece = search.piece_until(a.part.merged(&b.part), &others, bar.threshold(), grid)?;
    if piece.concavity.off_cut.is_none() {
        let hulls = others.into_iter().cloned().collect();
        return Some(Merged::CutShort(piece, hulls));
    }
    let piece = search.settled(piece, &others);
    bar.offer(piece.concavity.depth);
    Some(Merged::Measured(piece))
}
