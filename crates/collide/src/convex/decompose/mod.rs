//! Approximate convex decomposition: a concave mesh split into convex pieces whose union
//! stays within a given distance of the mesh's surface.
//!
//! The method is recursive splitting by planes, in the spirit of CoACD (Wei et al., *Approximate
//! convex decomposition for 3D meshes with collision-aware concavity and tree search*,
//! SIGGRAPH 2022): a **part** is the mesh's triangles clipped to a convex cell (the half-spaces
//! of the cuts that made it), its piece is the convex hull of the clipped corners, and its
//! **concavity** is how far that hull's surface strays from the part's surface. The part with
//! the largest concavity is split by the best of a set of planes (along the axes and the
//! diagonals of pairs of axes; through the deepest point when no plane takes it away) until
//! every part is within the limit or the piece budget is spent; then neighbouring pieces whose
//! joint hull is still within the limit are merged. When the budget runs out first, the
//! splitting goes on past it and the closest pairs are merged back down to it, which lets
//! later cuts replace early ones. A mesh of several shells (connected components) starts from
//! one part per shell. For a closed mesh the cap a cut leaves lies inside the hull of the
//! cut's boundary, so the pieces need no capping.
//!
//! The steps, one module each: [`clip`] (parts and the plane split), [`concavity`] (the
//! per-part measure and the public [`concavity_error`]), [`split`] (the candidate planes),
//! [`merge`] (joining pieces back).
//!
//! # Example
//!
//! ```rust
//! use collide::convex::{concavity_error, decompose, DecomposeConfig};
//! use collide::shapes::TriMesh;
//! use collide::Vec3;
//!
//! // An L made of two boxes: one hull would fill the notch.
//! let mut mesh = TriMesh::default();
//! for (lo, hi) in [(Vec3::ZERO, Vec3::new(3.0, 1.0, 1.0)), (Vec3::ZERO, Vec3::new(1.0, 3.0, 1.0))] {
//!     let v: Vec<Vec3> = (0..8)
//!         .map(|i| Vec3::select(glam::BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0), hi, lo))
//!         .collect();
//!     let t = [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
//!              [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];
//!     mesh.append(&TriMesh::new(v, t.to_vec()));
//! }
//! let config = DecomposeConfig { max_concavity: 0.02, ..DecomposeConfig::default() };
//! let pieces = decompose(&mesh, &config)?;
//! assert!(pieces.len() >= 2);
//! // Within the limit, up to what the sampling can miss (see `DecomposeConfig`).
//! assert!(concavity_error(&mesh, &pieces)? <= 0.025);
//! # Ok::<(), collide::convex::DecomposeError>(())
//! ```

mod clip;
mod concavity;
mod merge;
mod split;

use std::fmt;

use super::{ConvexHull, HullError};
use crate::mesh::{MeshCollider, MeshError};
use crate::shapes::TriMesh;
use clip::Part;
use concavity::Scale;
use split::{Piece, Search};

pub use concavity::concavity_error;

/// Settings of [`decompose`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecomposeConfig {
    /// The largest distance from the mesh surface to its pieces' hulls, as a fraction of the
    /// mesh's bounding-box diagonal (see [`concavity_error`]). Must be finite and `>= 0`; `0`
    /// splits until the budget is spent. Default `0.05` (CoACD's default threshold).
    pub max_concavity: f32,
    /// The most pieces to return, `>= 1`. Default `64`.
    pub max_pieces: usize,
}

impl Default for DecomposeConfig {
    fn default() -> DecomposeConfig {
        DecomposeConfig {
            max_concavity: 0.05,
            max_pieces: 64,
        }
    }
}

/// Why [`decompose`] (or [`concavity_error`]) could not run.
#[derive(Clone, Debug, PartialEq)]
pub enum DecomposeError {
    /// `max_concavity` is NaN, infinite or negative, or `max_pieces` is 0.
    InvalidConfig,
    /// The mesh is unusable as a surface: a NaN or infinite vertex, an index out of range, or
    /// no triangle of non-zero area (an empty mesh). See [`MeshCollider::try_new`].
    Mesh(MeshError),
    /// The mesh's bounding-box diagonal overflows `f32` (coordinates beyond about `1e38`).
    TooLarge,
    /// The mesh encloses no volume: its vertices are all within the hull tolerance of one
    /// plane (a flat sheet) or one line. The hull builder's reason is kept.
    NoVolume(HullError),
}

impl fmt::Display for DecomposeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecomposeError::InvalidConfig => write!(
                f,
                "max_concavity must be finite and >= 0, and max_pieces at least 1"
            ),
            DecomposeError::Mesh(e) => write!(f, "the mesh cannot be decomposed: {e}"),
            DecomposeError::TooLarge => write!(
                f,
                "the mesh's bounding box is too large for f32: scale it down"
            ),
            DecomposeError::NoVolume(e) => {
                write!(f, "the mesh encloses no volume, nothing to decompose: {e}")
            }
        }
    }
}

impl std::error::Error for DecomposeError {}

/// Where a running [`decompose_with_progress`] is: reported after every split and once at
/// the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecomposeProgress {
    /// Pieces so far. When the budget binds before the limit, the splitting goes on two pieces
    /// past the budget before merging back, so this can exceed `max_pieces` on the way.
    pub pieces: usize,
    /// The largest concavity of a piece still to be split, as a fraction of the bounding
    /// diagonal (the per-piece estimate that drives the splitting; `0` when none is left).
    pub worst_concavity: f32,
    /// `true` on the last report.
    pub done: bool,
}

/// Approximate convex decomposition of `mesh`: convex pieces whose union covers the mesh and
/// stays within `config.max_concavity` of its surface, at most `config.max_pieces` of them.
///
/// Deterministic: the same mesh and config give the same pieces in the same order, with or
/// without the `parallel` feature and on any number of threads. Every piece is a valid
/// [`ConvexHull`] built from points of the (clipped) mesh triangles, and every vertex of a
/// triangle of non-zero area lies in some piece (within its hull tolerance and the welding of
/// [`MeshCollider::try_new`], `1e-6` of the diagonal). The concavity limit is met as the
/// splitting measures it (a sampled estimate); [`concavity_error`] measures the result.
///
/// Input, degenerate and otherwise:
/// - **Several shells** (connected components: a model built of separate closed parts, or an
///   artist's convex pieces merged into one mesh): each shell starts as a piece of its own,
///   since no plane splits two shells that pass through each other. With more shells than
///   `config.max_pieces`, the shells whose joint hulls are within the limit are merged first;
///   when that cannot bring them within the budget, or there are more than 256 shells, the
///   mesh is split from whole as a single shell is.
/// - **Open meshes and holes**: a hole is not filled; a hull bridging it is as far from the
///   surface as the hole is wide, so the pieces follow the surface around it (an open box
///   becomes its walls). A single sheet gives pieces that are thin slabs.
/// - **Flat parts**: a part whose corners span no volume (a wall of a sheet, a sliver a cut
///   left) is thickened by `1e-5` of the diagonal (and at least 64 hull tolerances) so that its
///   piece is a valid hull.
/// - **Unused vertices** are ignored; near-duplicate vertices are welded and zero-area and
///   duplicate triangles dropped first, as by [`MeshCollider::try_new`].
/// - Errors: [`DecomposeError::InvalidConfig`]; [`DecomposeError::Mesh`] for NaN or infinite
///   vertices, bad indices and meshes with no triangle of non-zero area (empty ones);
///   [`DecomposeError::TooLarge`]; [`DecomposeError::NoVolume`] for a mesh that is flat as a
///   whole. Never a panic.
pub fn decompose(
    mesh: &TriMesh,
    config: &DecomposeConfig,
) -> Result<Vec<ConvexHull>, DecomposeError> {
    decompose_with_progress(mesh, config, &mut |_| {})
}

/// [`decompose`], calling `progress` after every split and once at the end (for a progress
/// bar). Same result as [`decompose`].
pub fn decompose_with_progress(
    mesh: &TriMesh,
    config: &DecomposeConfig,
    progress: &mut dyn FnMut(DecomposeProgress),
) -> Result<Vec<ConvexHull>, DecomposeError> {
    let valid_config =
        config.max_concavity.is_finite() && config.max_concavity >= 0.0 && config.max_pieces >= 1;
    if !valid_config {
        return Err(DecomposeError::InvalidConfig);
    }
    let collider = MeshCollider::try_new(mesh.clone()).map_err(DecomposeError::Mesh)?;
    let scale = Scale::of(&collider).ok_or(DecomposeError::TooLarge)?;
    ConvexHull::try_new(collider.vertices()).map_err(DecomposeError::NoVolume)?;
    let max_depth = config.max_concavity * scale.diagonal;
    let search = Search {
        collider: &collider,
        scale,
        spacing: sample_spacing(config.max_concavity) * scale.diagonal,
        limit: max_depth,
    };
    // The collider holds its triangles in its tree's order; the search takes them in the
    // order of their welded vertex indices, so that the pieces do not depend on the tree.
    let mut order: Vec<u32> = (0..collider.triangles().len() as u32).collect();
    order.sort_by_key(|&t| collider.triangles()[t as usize]);
    let start = match shell_pieces(&collider, &order, &search, config) {
        Some(shells) => shells,
        None => {
            let whole = part_of(&collider, &order);
            let first = search
                .piece(whole, &[])
                .ok_or(DecomposeError::NoVolume(HullError::Unstable))?;
            vec![first]
        }
    };
    let pieces = split_and_merge(start, &search, config, progress);
    progress(DecomposeProgress {
        pieces: pieces.len(),
        worst_concavity: 0.0,
        done: true,
    });
    Ok(pieces.into_iter().map(|p| p.hull).collect())
}

/// The most shells (connected components) that start as pieces of their own; a mesh of more
/// starts whole, so that the pairwise merge of the shells stays small.
const MAX_SHELLS: usize = 256;

/// The part made of `triangles` (indices into the collider's, in that order), uncut.
fn part_of(collider: &MeshCollider, triangles: &[u32]) -> Part {
    Part::from_triangles(
        triangles
            .iter()
            .filter_map(|&t| collider.triangle(t))
            .map(|t| [t.a, t.b, t.c]),
    )
}

/// The mesh's shells as the first pieces, when it has several: a model built of separate
/// closed parts (overlapping boxes, an artist's convex pieces merged into one mesh) is best
/// split along them, which no plane does. `None` (start from the whole mesh) for a single
/// shell, more than [`MAX_SHELLS`], a shell without a hull, or more shells than
/// `config.max_pieces` that merging within the limit cannot bring down to it.
fn shell_pieces(
    collider: &MeshCollider,
    order: &[u32],
    search: &Search<'_>,
    config: &DecomposeConfig,
) -> Option<Vec<Piece>> {
    let shells = shells(collider, order);
    if shells.len() < 2 || shells.len() > MAX_SHELLS {
        return None;
    }
    // No shell has a cut, so every sample of its hull is measured whatever covers it: the
    // other shells need not be known.
    let mut pieces = crate::par::filter_map(&shells, |shell| {
        Some(search.piece(part_of(collider, shell), &[]))
    })
    .into_iter()
    .collect::<Option<Vec<Piece>>>()?;
    if pieces.len() > config.max_pieces {
        merge::merge_pieces(&mut pieces, search, usize::MAX);
    }
    (pieces.len() <= config.max_pieces).then_some(pieces)
}

/// The connected components of the mesh (triangles sharing a welded vertex), each a list of
/// triangle indices in `order`'s order, in the order of their first triangle there.
fn shells(collider: &MeshCollider, order: &[u32]) -> Vec<Vec<u32>> {
    let triangles = collider.triangles();
    let mut parent: Vec<u32> = (0..collider.vertices().len() as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            let up = parent[parent[v as usize] as usize];
            parent[v as usize] = up;
            v = up;
        }
        v
    }
    for t in triangles {
        for &v in &t[1..] {
            let (a, b) = (root(&mut parent, t[0]), root(&mut parent, v));
            let (lo, hi) = (a.min(b), a.max(b));
            parent[hi as usize] = lo;
        }
    }
    let mut shell_of_root = vec![u32::MAX; parent.len()];
    let mut shells: Vec<Vec<u32>> = Vec::new();
    for &t in order {
        let r = root(&mut parent, triangles[t as usize][0]) as usize;
        if shell_of_root[r] == u32::MAX {
            shell_of_root[r] = shells.len() as u32;
            shells.push(Vec::new());
        }
        shells[shell_of_root[r] as usize].push(t);
    }
    shells
}

/// The grid spacing on hull faces while splitting, as a fraction of the diagonal: a quarter
/// of the limit, kept between `0.004` (the spacing of [`concavity_error`]; finer costs time
/// for nothing the measure sees) and `0.02`. A piece counts as within the limit when its
/// deepest sample is; the deepest point can be up to `spacing / √3` deeper (the distance to
/// the mesh changes no faster than the point moves, and every point of a grid cell is within
/// its longest edge over `√3` of a corner), so the result can exceed the limit by that much.
fn sample_spacing(max_concavity: f32) -> f32 {
    (0.25 * max_concavity).clamp(0.004, 0.02)
}

/// How far past the budget the splitting goes when the budget binds first (some piece is
/// still beyond the limit at `max_pieces`): this many pieces more, and the closest pairs are
/// then merged back down to it. A sequence of greedy splits fixes its early cuts; merging
/// back lets the cuts made later, on smaller pieces, replace them (racecar at 6 pieces:
/// 0.0210 → 0.0166; going on to 1.5 times the budget gave it the same and took the bunny at 42
/// from 0.0266 to 0.0206 in 40% more time).
const OVERSPLIT: usize = 2;

/// The pieces within the budget: split while some piece is beyond the limit, past the budget
/// by up to [`OVERSPLIT`] pieces, then merged back to the budget by the pairs whose joint hull
/// is least concave; that result is kept when its worst piece is less concave than the pieces
/// were at the budget on the way, otherwise those (also when pieces apart, which are never
/// merged, keep it over the budget). Either way, pairs whose joint hull is within the limit
/// are merged last.
fn split_and_merge(
    start: Vec<Piece>,
    search: &Search<'_>,
    config: &DecomposeConfig,
    progress: &mut dyn FnMut(DecomposeProgress),
) -> Vec<Piece> {
    let past = config.max_pieces.saturating_add(OVERSPLIT);
    let (mut pieces, at_budget) =
        split_until_done(start, search, past, config.max_pieces, progress);
    merge::merge_pieces(&mut pieces, search, config.max_pieces);
    match at_budget {
        Some(mut at_budget)
            if pieces.len() > config.max_pieces
                || worst_depth(&at_budget) <= worst_depth(&pieces) =>
        {
            merge::merge_pieces(&mut at_budget, search, config.max_pieces);
            at_budget
        }
        _ => pieces,
    }
}

/// The largest concavity of the pieces (0 for none).
fn worst_depth(pieces: &[Piece]) -> f32 {
    pieces.iter().map(|p| p.concavity.depth).fold(0.0, f32::max)
}

/// Splits the most concave piece until every piece is within the limit (or cannot be
/// split) or there are `max_pieces`; the pieces as they were at `keep_at` pieces are
/// returned too when the splitting went past that count. A split's halves take the piece's
/// place, in order; the pieces whose boxes touch it are measured again, since the halves
/// cover less than the piece did and may uncover samples on their cuts.
fn split_until_done(
    mut pieces: Vec<Piece>,
    search: &Search<'_>,
    max_pieces: usize,
    keep_at: usize,
    progress: &mut dyn FnMut(DecomposeProgress),
) -> (Vec<Piece>, Option<Vec<Piece>>) {
    // Pieces no plane could split: left as they are.
    let mut stuck = vec![false; pieces.len()];
    let mut next_id = 0u32;
    let mut kept = None;
    while pieces.len() < max_pieces {
        let worst = (0..pieces.len())
            .filter(|&i| !stuck[i] && !pieces[i].within)
            .max_by(|&a, &b| {
                let (da, db) = (pieces[a].concavity.depth, pieces[b].concavity.depth);
                da.total_cmp(&db).then(b.cmp(&a))
            });
        let Some(i) = worst else {
            break;
        };
        if pieces.len() == keep_at && kept.is_none() {
            kept = Some(pieces.clone());
        }
        progress(DecomposeProgress {
            pieces: pieces.len(),
            worst_concavity: pieces[i].concavity.depth / search.scale.diagonal,
            done: false,
        });
        let others = neighbour_hulls(&pieces, &pieces[i].bounds, &[i], search);
        let Some((a, b)) = search.best_split(&pieces[i], next_id, &others) else {
            stuck[i] = true;
            continue;
        };
        next_id += 1;
        let old_bounds = pieces[i].bounds;
        pieces[i] = a;
        pieces.insert(i + 1, b);
        stuck.insert(i + 1, false);
        let touched: Vec<usize> = (0..pieces.len())
            .filter(|&j| j != i && j != i + 1 && touching(&pieces[j].bounds, &old_bounds, search))
            .collect();
        let fresh = crate::par::filter_map(&touched, |&j| {
            let others = neighbour_hulls(&pieces, &pieces[j].bounds, &[j], search);
            Some((j, search.remeasure(&pieces[j], &others)))
        });
        for (j, (c, spacing, within)) in fresh {
            pieces[j].concavity = c;
            pieces[j].spacing = spacing;
            pieces[j].within = within;
        }
    }
    (pieces, kept)
}

/// `true` when two boxes touch within the tolerance of the piece tests (`1e-5` of the
/// diagonal and the plane tolerance).
fn touching(a: &crate::shapes::Aabb, b: &crate::shapes::Aabb, search: &Search<'_>) -> bool {
    let margin = 1e-5 * search.scale.diagonal + search.scale.plane_eps;
    crate::overlap::aabb_aabb(&a.expanded(margin), b)
}

/// The hulls of the pieces (other than those in `skip`) whose boxes touch `bounds`: the only
/// ones that can cover a sample of a hull inside `bounds`.
fn neighbour_hulls<'p>(
    pieces: &'p [Piece],
    bounds: &crate::shapes::Aabb,
    skip: &[usize],
    search: &Search<'_>,
) -> Vec<&'p ConvexHull> {
    pieces
        .iter()
        .enumerate()
        .filter(|(j, p)| !skip.contains(j) && touching(&p.bounds, bounds, search))
        .map(|(_, p)| &p.hull)
        .collect()
}
