//! Step 2, concavity: how far a part's hull strays from the part's surface, and the public
//! measure of a whole decomposition ([`concavity_error`]).

use super::clip::{Cut, Part};
use super::DecomposeError;
use crate::convex::{ConvexHull, HullError};
use crate::math::Vec3;
use crate::mesh::MeshCollider;
use crate::shapes::{Aabb, TriMesh, Triangle};

/// The scale of a mesh: its bounding-box diagonal and the tolerances derived from it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scale {
    /// Length of the bounding-box diagonal (finite, `> 0`).
    pub diagonal: f32,
    /// Distance below which a corner counts as on a cutting plane: 4 `f32` epsilons of the
    /// largest coordinate sum, the rounding of one plane evaluation.
    pub plane_eps: f32,
    /// Half-size of the box a flat part is thickened by: `1e-5` of the diagonal, and at least
    /// 64 hull tolerances (`3 · FLT_EPSILON · (max|x| + max|y| + max|z|)`), so the thickened
    /// points always span a volume the hull builder can see.
    pub inflate: f32,
}

impl Scale {
    /// The scale of `collider`'s vertices; `None` when the diagonal is zero or overflows.
    pub fn of(collider: &MeshCollider) -> Option<Scale> {
        let b = collider.aabb();
        let diagonal = b.size().length();
        let coord_sum = b.min.abs().max(b.max.abs()).element_sum();
        (diagonal.is_finite() && diagonal > 0.0 && coord_sum.is_finite()).then(|| Scale {
            diagonal,
            plane_eps: 4.0 * f32::EPSILON * coord_sum,
            inflate: (1e-5 * diagonal).max(64.0 * 3.0 * f32::EPSILON * coord_sum),
        })
    }
}

/// The hull of a part's corners. A part that is flat, a line or a point (a single wall of an
/// open mesh, a sliver the cut left) is thickened first: each corner is replaced by the 8
/// corners of a cube of half-size `scale.inflate` around it, so the piece is a thin slab that
/// still covers the part. `None` only when even that fails (or the part is empty).
pub(super) fn part_hull(points: &[Vec3], scale: &Scale) -> Option<ConvexHull> {
    match ConvexHull::try_new(points) {
        Ok(h) => Some(h),
        Err(HullError::Empty | HullError::NonFinite { .. }) => None,
        Err(_) => {
            let d = scale.inflate;
            let thick: Vec<Vec3> = points
                .iter()
                .flat_map(|&p| {
                    (0..8).map(move |i| {
                        let s = Vec3::new(
                            if i & 1 == 0 { -d } else { d },
                            if i & 2 == 0 { -d } else { d },
                            if i & 4 == 0 { -d } else { d },
                        );
                        p + s
                    })
                })
                .collect();
            ConvexHull::try_new(&thick).ok()
        }
    }
}

/// Calls `f` with points spread over the hull's surface: every vertex, then on each face's fan
/// triangles `(a, b, c)` the barycentric grid `a + (i · (b − a) + j · (c − a)) / n`,
/// `i + j <= n`, with `n` the longest edge over `spacing` (1 to `max_steps`), so no point of a
/// face is farther than about `spacing` from a sample.
pub(super) fn for_each_hull_sample(
    h: &ConvexHull,
    spacing: f32,
    max_steps: u32,
    mut f: impl FnMut(Vec3),
) {
    for_each_hull_sample_on(h, spacing, max_steps, |q, _| f(q));
}

/// [`for_each_hull_sample`], each sample with the face whose grid it is on (`None` for the
/// vertices, which come first; a face's samples come one after the other).
fn for_each_hull_sample_on(
    h: &ConvexHull,
    spacing: f32,
    max_steps: u32,
    mut f: impl FnMut(Vec3, Option<usize>),
) {
    let v = h.vertices();
    for &p in v {
        f(p, None);
    }
    for face in 0..h.faces().len() {
        let idx = h.face_vertices(face);
        let a = v[idx[0] as usize];
        for w in idx[1..].windows(2) {
            let (b, c) = (v[w[0] as usize], v[w[1] as usize]);
            grid(a, b, c, spacing, max_steps, &mut |q| f(q, Some(face)));
        }
    }
}

/// The barycentric grid of triangle `(a, b, c)` described at [`for_each_hull_sample`],
/// without its three corners.
fn grid(a: Vec3, b: Vec3, c: Vec3, spacing: f32, max_steps: u32, f: &mut impl FnMut(Vec3)) {
    let longest = (b - a).length().max((c - a).length()).max((c - b).length());
    let steps = (longest / spacing).ceil();
    let n = if steps.is_finite() {
        (steps as u32).clamp(1, max_steps)
    } else {
        1
    };
    let (ab, ac) = ((b - a) / n as f32, (c - a) / n as f32);
    for i in 0..=n {
        for j in 0..=n - i {
            let is_corner = (i == 0 && j == 0) || i == n || j == n;
            if !is_corner {
                f(a + ab * i as f32 + ac * j as f32);
            }
        }
    }
}

/// The sampled distances of a set of hull samples: the largest, where, their sum and count.
#[derive(Clone, Copy, Debug)]
pub(super) struct Samples {
    /// The largest distance (0 without samples).
    pub worst: f32,
    /// The sample where the largest was found (the hull's vertex centroid without samples).
    pub deepest: Vec3,
    sum: f64,
    count: u32,
}

impl Samples {
    fn new(start: Vec3) -> Samples {
        Samples {
            worst: 0.0,
            deepest: start,
            sum: 0.0,
            count: 0,
        }
    }

    fn add(&mut self, q: Vec3, d: f32) {
        self.sum += f64::from(d);
        self.count += 1;
        if d > self.worst {
            self.worst = d;
            self.deepest = q;
        }
    }

    /// Both sets as one (ties of the largest to `self`).
    fn joined(self, other: Samples) -> Samples {
        let (worst, deepest) = if other.worst > self.worst {
            (other.worst, other.deepest)
        } else {
            (self.worst, self.deepest)
        };
        Samples {
            worst,
            deepest,
            sum: self.sum + other.sum,
            count: self.count + other.count,
        }
    }

    fn mean(&self) -> f32 {
        if self.count == 0 {
            0.0
        } else {
            (self.sum / f64::from(self.count)) as f32
        }
    }
}

/// How concave one part is, and where.
#[derive(Clone, Copy, Debug)]
pub(super) struct PartConcavity {
    /// The largest sampled distance from the part's hull surface to the mesh surface
    /// (absolute, mesh units).
    pub depth: f32,
    /// The mean of the sampled distances (0 without samples): a smooth measure of how loose
    /// the hull is, where the largest one changes in steps.
    pub mean: f32,
    /// The hull sample where the largest was found.
    pub deepest: Vec3,
    /// The samples off the part's cuts and the spacing they were taken at, when all were
    /// measured (not cut short by [`Sampling::stop_above`]). No other piece hides or uncovers
    /// them, so measuring the same hull again among changed neighbours can reuse them.
    pub off_cut: Option<(Samples, f32)>,
}

/// How a hull is sampled by [`part_concavity`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Sampling {
    /// Grid spacing on the faces ([`for_each_hull_sample`]).
    pub spacing: f32,
    /// Largest grid size per fan triangle.
    pub max_steps: u32,
    /// Stop at the first sample farther than this from the mesh (`f32::INFINITY`: never):
    /// for a caller that only needs to know whether the part is within a limit. The result's
    /// `depth` is then that sample's distance and its mean covers only the samples so far.
    pub stop_above: f32,
}

/// The hulls of the other pieces, which hide the samples of a piece's faces they cover.
#[derive(Clone, Copy)]
pub(super) struct Others<'a> {
    pub hulls: &'a [&'a ConvexHull],
    /// One more hull (the other half of a split being evaluated), if any.
    pub extra: Option<&'a ConvexHull>,
}

impl Others<'_> {
    /// `true` when `q` is inside or within `tolerance` (plus the hull's own tolerance) of
    /// one of the hulls.
    fn cover(&self, q: Vec3, tolerance: f32) -> bool {
        self.hulls
            .iter()
            .copied()
            .chain(self.extra)
            .any(|h| h.contains_point(q, tolerance + h.tolerance()))
    }
}

/// The concavity of a part: the largest, over samples `q` of its hull's surface
/// ([`for_each_hull_sample`]) that are on the boundary of the union of the pieces, of the
/// distance from `q` to the mesh surface: the per-piece share of [`concavity_error`]'s
/// overfill, with the search's sampling.
///
/// A sample on a cut plane (within `eps` and 4 hull tolerances) that another piece covers
/// (within `1e-5` of the diagonal, as [`concavity_error`] has it) is inside the union and left
/// out: for a closed mesh that is the hull's face over the cap, which the piece across the
/// cut covers too. Samples off the cuts are on the union's boundary or near the mesh anyway
/// and are all measured (so no containment test is spent on them), or taken from `reuse`
/// (the `off_cut` of an earlier measure of the same hull and part) when its spacing is
/// `sampling.spacing`. Distances go through the whole mesh's triangle tree.
pub(super) fn part_concavity(
    h: &ConvexHull,
    part: &Part,
    collider: &MeshCollider,
    scale: &Scale,
    sampling: Sampling,
    others: Others<'_>,
    reuse: Option<&PartConcavity>,
) -> PartConcavity {
    let on_cut = scale.plane_eps + 4.0 * h.tolerance();
    let cover_tolerance = 1e-5 * scale.diagonal;
    let reused = reuse
        .and_then(|r| r.off_cut)
        .filter(|&(_, spacing)| spacing == sampling.spacing)
        .map(|(samples, _)| samples);
    let start = h.vertex_centroid();
    let (mut on, mut off) = (Samples::new(start), Samples::new(start));
    let mut stopped = false;
    let mut to_mesh = StepDistance::new(collider, scale);
    // The cuts a face's samples can be on: those whose plane its vertices do not all clear by
    // more than twice `on_cut` on one side (a sample is a convex combination of them, up to a
    // rounding far below `on_cut`, and its depth an affine function of it). Vertices test all.
    let mut face_cuts: Vec<Cut> = part.cuts.clone();
    let mut face_now = None;
    for_each_hull_sample_on(h, sampling.spacing, sampling.max_steps, |q, face| {
        if stopped {
            return;
        }
        if face != face_now {
            face_now = face;
            face_cuts.clear();
            let corners = face.map_or(&[][..], |f| h.face_vertices(f));
            face_cuts.extend(part.cuts.iter().filter(|c| {
                let (lo, hi) = corners
                    .iter()
                    .map(|&k| c.depth(h.vertices()[k as usize]))
                    .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), d| {
                        (lo.min(d), hi.max(d))
                    });
                face.is_none() || !(lo > 2.0 * on_cut || hi < -2.0 * on_cut)
            }));
        }
        let on_a_cut = face_cuts.iter().any(|c| c.depth(q).abs() <= on_cut);
        if on_a_cut {
            if others.cover(q, cover_tolerance) {
                return;
            }
            on.add(q, to_mesh.distance(q));
        } else if reused.is_none() {
            off.add(q, to_mesh.distance(q));
        }
        stopped = on.worst.max(off.worst) > sampling.stop_above;
    });
    let off = reused.unwrap_or(off);
    let all = off.joined(on);
    PartConcavity {
        depth: all.worst,
        mean: all.mean(),
        deepest: all.deepest,
        off_cut: (!stopped).then_some((off, sampling.spacing)),
    }
}

/// Distances to the mesh surface from a walk of nearby points (the samples of a hull, in
/// order). The distance to a set changes no faster than the point moves, so each query is
/// bounded by the last distance plus the step: the tree search starts with a tight bound and
/// prunes most of the mesh, and finds the same nearest point an unbounded search would.
struct StepDistance<'a> {
    collider: &'a MeshCollider,
    /// The last point and its distance.
    last: Option<(Vec3, f32)>,
    /// Added to every bound, for the rounding of the distances it is made of (`1e-5` of the
    /// diagonal: far above `f32` rounding at the mesh's scale).
    slack: f32,
}

impl<'a> StepDistance<'a> {
    fn new(collider: &'a MeshCollider, scale: &Scale) -> StepDistance<'a> {
        StepDistance {
            collider,
            last: None,
            slack: 1e-5 * scale.diagonal,
        }
    }

    /// The distance from `q` to the mesh surface (0 when the mesh has no triangle).
    fn distance(&mut self, q: Vec3) -> f32 {
        let bound = self.last.map_or(f32::MAX, |(p, d)| {
            (d + (q - p).length() + self.slack).min(f32::MAX)
        });
        // A bound the rounding made too tight finds nothing: then the unbounded search.
        let found = self
            .collider
            .closest_point(q, bound)
            .or_else(|| self.collider.closest_point(q, f32::MAX));
        let d = found.map_or(0.0, |m| m.distance);
        self.last = found.map(|m| (q, m.distance));
        d
    }
}

/// Largest grid size per fan triangle during the search. Hull edges are at most the
/// diagonal long, so grid cells are at most `diagonal / 64` across.
pub(super) const SEARCH_MAX_STEPS: u32 = 64;

/// Grid spacing of [`concavity_error`], as a fraction of the bounding diagonal.
const METRIC_SPACING: f32 = 0.004;
/// Largest grid size per triangle in [`concavity_error`].
const METRIC_MAX_STEPS: u32 = 48;

/// The concavity error of a decomposition: the Hausdorff distance between the mesh's surface
/// and the boundary of the union of `pieces`, as a fraction of the mesh's bounding-box
/// diagonal, estimated on samples. It is the larger of two one-sided distances:
///
/// - **overfill**: the largest distance from a point on a piece's surface that is not inside
///   (or on) another piece, so on the union's boundary, to the mesh surface;
/// - **gap**: the largest distance from a point of the mesh surface to the nearest piece (0
///   inside one).
///
/// Samples: every vertex, and a barycentric grid of spacing `0.004 ·` diagonal (at most 48
/// steps along a triangle) on every mesh triangle and every fan triangle of every piece face.
/// Distances to the mesh use its triangle tree; distances to a piece are exact (nearest point
/// on the faces that face the query point). This is the measure [`DecomposeConfig`]'s
/// `max_concavity` speaks of, and the one the benchmarks apply to every tool's output.
///
/// Errors as [`decompose`] for the mesh (empty, NaN, no triangle of non-zero area, too
/// large); a mesh with no volume is measured like any other. No pieces gives
/// `f32::INFINITY` (nothing covers the mesh).
///
/// [`DecomposeConfig`]: super::DecomposeConfig
/// [`decompose`]: super::decompose
pub fn concavity_error(mesh: &TriMesh, pieces: &[ConvexHull]) -> Result<f32, DecomposeError> {
    let collider = MeshCollider::try_new(mesh.clone()).map_err(DecomposeError::Mesh)?;
    let scale = Scale::of(&collider).ok_or(DecomposeError::TooLarge)?;
    if pieces.is_empty() {
        return Ok(f32::INFINITY);
    }
    let spacing = METRIC_SPACING * scale.diagonal;
    let boxes: Vec<Aabb> = pieces
        .iter()
        .map(|h| Aabb::from_points(h.vertices()).unwrap_or(Aabb::new(Vec3::ZERO, Vec3::ZERO)))
        .collect();
    let on_boundary_tol = 1e-5 * scale.diagonal;
    let indices: Vec<usize> = (0..pieces.len()).collect();
    let overfill = crate::par::filter_map(&indices, |&i| {
        let mut worst = 0.0f32;
        let mut to_mesh = StepDistance::new(&collider, &scale);
        for_each_hull_sample(&pieces[i], spacing, METRIC_MAX_STEPS, |q| {
            let inside_other = pieces.iter().enumerate().any(|(j, other)| {
                j != i
                    && boxes[j].expanded(on_boundary_tol).contains_point(q)
                    && other.contains_point(q, on_boundary_tol + other.tolerance())
            });
            if !inside_other {
                worst = worst.max(to_mesh.distance(q));
            }
        });
        Some(worst)
    })
    .into_iter()
    .fold(0.0f32, f32::max);
    let triangles: Vec<u32> = (0..collider.triangles().len() as u32).collect();
    let gap = crate::par::map_reduce_chunks(
        &triangles,
        64,
        |chunk| {
            let mut worst = 0.0f32;
            for &t in chunk {
                let Some(tri) = collider.triangle(t) else {
                    continue;
                };
                let mut visit = |p: Vec3| {
                    worst = worst.max(distance_to_pieces(pieces, &boxes, p, worst));
                };
                visit(tri.a);
                visit(tri.b);
                visit(tri.c);
                grid(tri.a, tri.b, tri.c, spacing, METRIC_MAX_STEPS, &mut visit);
            }
            worst
        },
        || 0.0f32,
        f32::max,
    );
    Ok(overfill.max(gap) / scale.diagonal)
}

/// The distance from `p` to the nearest piece (0 inside one), or any value `<= floor` when
/// that distance is at most `floor` (the caller only keeps a maximum above `floor`).
fn distance_to_pieces(pieces: &[ConvexHull], boxes: &[Aabb], p: Vec3, floor: f32) -> f32 {
    let mut best = f32::INFINITY;
    for (h, b) in pieces.iter().zip(boxes) {
        // The box distance is a lower bound of the piece distance.
        let box_distance = (b.min - p).max(p - b.max).max(Vec3::ZERO).length();
        if box_distance >= best {
            continue;
        }
        if h.contains_point(p, h.tolerance()) {
            return 0.0;
        }
        best = best.min(distance_to_hull(h, p));
        if best <= floor {
            return best;
        }
    }
    best
}

/// Exact distance from `p` (outside the hull) to the hull: the nearest point lies on a face
/// whose plane has `p` in front of it, so only those faces' fan triangles are searched.
fn distance_to_hull(h: &ConvexHull, p: Vec3) -> f32 {
    let v = h.vertices();
    let mut best = f32::INFINITY;
    for (f, face) in h.faces().iter().enumerate() {
        if face.plane.signed_distance(p) <= 0.0 {
            continue;
        }
        let idx = h.face_vertices(f);
        let a = v[idx[0] as usize];
        for w in idx[1..].windows(2) {
            let tri = Triangle::new(a, v[w[0] as usize], v[w[1] as usize]);
            best = best.min((crate::closest::point_triangle(p, &tri) - p).length());
        }
    }
    if best.is_finite() {
        best
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_testkit::level::box_parts as cube;

    #[test]
    fn a_cube_is_its_own_exact_decomposition() {
        let (v, t) = cube(Vec3::ZERO, Vec3::ONE);
        let hull = ConvexHull::try_new(&v).unwrap();
        let e = concavity_error(&TriMesh::new(v, t), &[hull]).unwrap();
        assert!(e < 1e-5, "{e}");
    }

    #[test]
    fn a_piece_too_large_and_a_piece_too_small_are_both_measured() {
        let (v, t) = cube(Vec3::ZERO, Vec3::ONE);
        let mesh = TriMesh::new(v, t);
        let diag = 3f32.sqrt();
        // Overfill: a box 0.5 taller than the cube.
        let (big, _) = cube(Vec3::ZERO, Vec3::new(1.0, 1.5, 1.0));
        let e = concavity_error(&mesh, &[ConvexHull::try_new(&big).unwrap()]).unwrap();
        assert!((e * diag - 0.5).abs() < 1e-3, "{}", e * diag);
        // Gap: a box covering only x <= 0.75.
        let (small, _) = cube(Vec3::ZERO, Vec3::new(0.75, 1.0, 1.0));
        let e = concavity_error(&mesh, &[ConvexHull::try_new(&small).unwrap()]).unwrap();
        assert!((e * diag - 0.25).abs() < 1e-3, "{}", e * diag);
        // No pieces: nothing covers the mesh.
        assert_eq!(concavity_error(&mesh, &[]).unwrap(), f32::INFINITY);
    }

    #[test]
    fn a_flat_part_is_thickened_into_a_thin_valid_hull() {
        let pts = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
        let scale = Scale {
            diagonal: 2f32.sqrt(),
            plane_eps: 1e-6,
            inflate: 1e-4,
        };
        let h = part_hull(&pts, &scale).unwrap();
        h.validate().unwrap();
        assert!(pts.iter().all(|&p| h.contains_point(p, 0.0)));
        assert!(h.volume() < 1e-3);
    }
}
