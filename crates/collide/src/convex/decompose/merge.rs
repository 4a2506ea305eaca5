//! Step 4, merge: neighbouring pieces whose joint hull is still within the concavity limit
//! become one piece.

use super::split::{Piece, Search};

/// Merges pairs of pieces while some pair's merged piece is within the limit
/// ([`Search::within`](super::split::Search)), or while there are more than `down_to` pieces
/// whatever the merged concavity: each round merges the pair with the smallest merged
/// concavity (ties to the lowest indices), the merged piece taking the first one's place.
///
/// Only pairs whose hulls' boxes touch (within the hull tolerance) are tried: pieces apart
/// leave a gap that their joint hull would fill. Pair results are kept between rounds; only
/// the pairs of the new piece are evaluated again (in parallel).
pub(super) fn merge_pieces(pieces: &mut Vec<Piece>, search: &Search<'_>, down_to: usize) {
    // table[i][j - i - 1]: the merged piece of i and j < n, when it is within the limit or
    // (measured in full) while there are more than `down_to` pieces.
    let mut table: Vec<Vec<Option<Piece>>> = (0..pieces.len())
        .map(|i| {
            let pairs: Vec<usize> = (i + 1..pieces.len()).collect();
            crate::par::filter_map(&pairs, |&j| {
                Some(try_merge(pieces, i, j, search, pieces.len() > down_to))
            })
        })
        .collect();
    loop {
        let mut best: Option<(usize, usize, f32)> = None;
        for (i, row) in table.iter().enumerate() {
            for (k, merged) in row.iter().enumerate() {
                if let Some(m) = merged {
                    let d = m.concavity.depth;
                    if best.is_none_or(|(_, _, b)| d < b) {
                        best = Some((i, i + 1 + k, d));
                    }
                }
            }
        }
        let Some((i, j, d)) = best else {
            return;
        };
        if d > search.limit && pieces.len() <= down_to {
            return;
        }
        let Some(merged) = table[i][j - i - 1].take() else {
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
        // The pairs of the new piece i, with every other piece.
        let others: Vec<usize> = (0..pieces.len()).filter(|&k| k != i).collect();
        let fresh = crate::par::filter_map(&others, |&k| {
            let (a, b) = (i.min(k), i.max(k));
            Some((k, try_merge(pieces, a, b, search, pieces.len() > down_to)))
        });
        for (k, m) in fresh {
            let (a, b) = (i.min(k), i.max(k));
            table[a][b - a - 1] = m;
        }
    }
}

/// The merged piece of pieces `i` and `j` when their boxes touch and it is within the limit
/// among the other pieces, or with `any`, whatever its concavity.
fn try_merge(
    pieces: &[Piece],
    i: usize,
    j: usize,
    search: &Search<'_>,
    any: bool,
) -> Option<Piece> {
    let (a, b) = (&pieces[i], &pieces[j]);
    if !super::touching(&a.bounds, &b.bounds, search) {
        return None;
    }
    let both = a.bounds.union(&b.bounds);
    let others = super::neighbour_hulls(pieces, &both, &[i, j], search);
    if any {
        search.piece(a.part.merged(&b.part), &others)
    } else {
        search.piece_within(a.part.merged(&b.part), &others)
    }
}
