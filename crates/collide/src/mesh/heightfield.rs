//! [`Heightfield`]: a regular grid of height samples, walked cell by cell.

use super::{classify_edge, ray_triangle, EdgeBend, MeshError, MeshPoint, MeshRayHit};
use super::{MeshContact, MeshShapeHit, TriangleSet};
use crate::convex::SupportMap;
use crate::math::Vec3;
use crate::shapes::{Aabb, Ray, Triangle};

/// A heightfield: `rows x cols` height samples over a rectangle of the xz plane, centred on
/// the origin.
///
/// Sample `heights[r · cols + c]` stands at `x = (c / (cols − 1) − 0.5) · scale.x`,
/// `z = (r / (rows − 1) − 0.5) · scale.z`, `y = heights[..] · scale.y`. Each cell `(r, c)`
/// (between rows `r, r + 1` and columns `c, c + 1`) holds two triangles split along the
/// diagonal from sample `(r, c)` to `(r + 1, c + 1)`: triangle `2 · (r · (cols − 1) + c)` has
/// corners `(r, c), (r + 1, c), (r + 1, c + 1)` and the next one `(r, c), (r + 1, c + 1),
/// (r, c + 1)`; both face `+y`. A NaN sample is a hole: every triangle touching it is absent.
/// Queries walk the cells directly (no tree): rays by a 2-D DDA over blocks of 8 x 8 cells,
/// then over the cells of the blocks whose height range the ray meets; boxes by the cell
/// range.
#[derive(Clone, Debug)]
pub struct Heightfield {
    heights: Vec<f32>,
    rows: usize,
    cols: usize,
    scale: Vec3,
    bounds: Aabb,
    /// Scaled height range `(lowest, highest)` of each block's samples, row-major over the
    /// blocks; holes left out (a block of holes only has `lowest > highest`).
    blocks: Vec<(f32, f32)>,
}

/// Cells per side of a block of the ray walk.
const BLOCK: usize = 8;

impl Heightfield {
    /// The heightfield of these samples (see the type's docs for the layout).
    ///
    /// Errors: [`MeshError::HeightfieldSize`] unless `rows, cols >= 2` and `heights.len() ==
    /// rows · cols`; [`MeshError::InvalidScale`] unless every scale component is finite and
    /// `> 0`; [`MeshError::InfiniteHeight`] for an infinite sample (or one that overflows
    /// once scaled); [`MeshError::NoTriangles`] when holes leave no triangle.
    pub fn try_new(
        heights: Vec<f32>,
        rows: usize,
        cols: usize,
        scale: Vec3,
    ) -> Result<Heightfield, MeshError> {
        let size_error = MeshError::HeightfieldSize {
            rows,
            cols,
            heights: heights.len(),
        };
        if rows < 2 || cols < 2 || rows.checked_mul(cols) != Some(heights.len()) {
            return Err(size_error);
        }
        // Triangle indices are u32: 2 (rows − 1)(cols − 1) of them.
        if u32::try_from(2 * (rows - 1) * (cols - 1)).is_err() {
            return Err(size_error);
        }
        if !(scale.is_finite() && scale.min_element() > 0.0) {
            return Err(MeshError::InvalidScale);
        }
        if let Some(index) = heights
            .iter()
            .position(|h| h.is_infinite() || (h * scale.y).is_infinite())
        {
            return Err(MeshError::InfiniteHeight { index });
        }
        let mut field = Heightfield {
            heights,
            rows,
            cols,
            scale,
            bounds: Aabb::EMPTY,
            blocks: Vec::new(),
        };
        let (lo, hi) = field
            .heights
            .iter()
            .filter(|h| !h.is_nan())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
                (lo.min(h * scale.y), hi.max(h * scale.y))
            });
        field.bounds = Aabb::new(
            Vec3::new(-0.5 * scale.x, lo, -0.5 * scale.z),
            Vec3::new(0.5 * scale.x, hi, 0.5 * scale.z),
        );
        field.blocks = field.block_ranges();
        let any = (0..field.triangle_count() as u32).any(|i| field.corners(i).is_some());
        if !any {
            return Err(MeshError::NoTriangles);
        }
        Ok(field)
    }

    /// Number of sample rows (along z).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of sample columns (along x).
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The scale the samples were placed with.
    #[must_use]
    pub fn scale(&self) -> Vec3 {
        self.scale
    }

    /// The box of every sample that is not a hole.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.bounds
    }

    /// Number of triangle slots, holes included: `2 · (rows − 1) · (cols − 1)`.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        2 * (self.rows - 1) * (self.cols - 1)
    }

    /// Triangle `i` (see the type's docs for the numbering), or `None` for a hole or an index
    /// out of range.
    #[must_use]
    pub fn triangle(&self, i: u32) -> Option<Triangle> {
        let [a, b, c] = self.corners(i)?;
        Some(Triangle::new(a, b, c))
    }

    /// The sample `(r, c)` in the rest frame (NaN height for a hole).
    #[inline]
    fn sample(&self, r: usize, c: usize) -> Vec3 {
        Vec3::new(
            (c as f32 / (self.cols - 1) as f32 - 0.5) * self.scale.x,
            self.heights[r * self.cols + c] * self.scale.y,
            (r as f32 / (self.rows - 1) as f32 - 0.5) * self.scale.z,
        )
    }

    /// The sample grid positions `(r, c)` of triangle `i`'s corners, or `None` out of range.
    #[inline]
    fn grid_corners(&self, i: u32) -> Option<[(usize, usize); 3]> {
        let cell = i as usize / 2;
        let cells_per_row = self.cols - 1;
        let (r, c) = (cell / cells_per_row, cell % cells_per_row);
        if r + 1 >= self.rows {
            return None;
        }
        Some(if i % 2 == 0 {
            [(r, c), (r + 1, c), (r + 1, c + 1)]
        } else {
            [(r, c), (r + 1, c + 1), (r, c + 1)]
        })
    }

    /// The cell range `[lo, hi]` (inclusive) of columns and rows whose rectangles touch the
    /// xz extent of `b`; `None` when it misses the field or is NaN.
    fn cell_range(&self, b: &Aabb) -> Option<((usize, usize), (usize, usize))> {
        let (nc, nr) = ((self.cols - 1) as f32, (self.rows - 1) as f32);
        let to_col = |x: f32| (x / self.scale.x + 0.5) * nc;
        let to_row = |z: f32| (z / self.scale.z + 0.5) * nr;
        let (c0, c1) = (to_col(b.min.x).floor(), to_col(b.max.x).floor());
        let (r0, r1) = (to_row(b.min.z).floor(), to_row(b.max.z).floor());
        // NaN fails every comparison here.
        if !(c1 >= 0.0 && r1 >= 0.0 && c0 <= nc && r0 <= nr && c0 <= c1 && r0 <= r1) {
            return None;
        }
        let clamp = |v: f32, n: f32| v.clamp(0.0, n - 1.0) as usize;
        Some((
            (clamp(c0, nc), clamp(c1, nc)),
            (clamp(r0, nr), clamp(r1, nr)),
        ))
    }

    /// The first triangle a ray hits within `[0, max_t]`, or `None`: the ray is clipped to
    /// the field's box, then the cells under it are walked in order (a 2-D DDA, Amanatides &
    /// Woo 1987), each cell's two triangles tested until a hit lies before the next cell.
    ///
    /// Same rules as [`super::MeshCollider::ray_cast`]: two-sided, a ray starting on the
    /// surface hits at `t = 0`, holes let rays through, NaN hits nothing.
    #[must_use]
    pub fn ray_cast(&self, ray: &Ray, max_t: f32) -> Option<MeshRayHit> {
        let mut best: Option<MeshRayHit> = None;
        self.walk_ray(ray, max_t, |i, bound| {
            let c = self.corners(i)?;
            let h = ray_triangle(ray, &c, i, bound)?;
            if best.is_none_or(|b| h.t < b.t || (h.t == b.t && i < b.triangle)) {
                best = Some(h);
            }
            best.map(|b| b.t)
        });
        best
    }

    /// Every triangle a ray hits within `[0, max_t]`, appended to `out` sorted by `t` (then
    /// by triangle). Same rules as [`Heightfield::ray_cast`].
    pub fn ray_cast_all(&self, ray: &Ray, max_t: f32, out: &mut Vec<MeshRayHit>) {
        let start = out.len();
        self.walk_ray(ray, max_t, |i, _| {
            let c = self.corners(i)?;
            out.push(ray_triangle(ray, &c, i, max_t)?);
            None
        });
        out[start..].sort_by(|a, b| a.t.total_cmp(&b.t).then(a.triangle.cmp(&b.triangle)));
    }

    /// Blocks per row and per column of blocks.
    fn block_counts(&self) -> (usize, usize) {
        (
            (self.cols - 1).div_ceil(BLOCK),
            (self.rows - 1).div_ceil(BLOCK),
        )
    }

    /// Each block's scaled height range over its samples (the samples on its sides
    /// included, so neighbouring blocks share them), holes left out.
    fn block_ranges(&self) -> Vec<(f32, f32)> {
        let (bc, br) = self.block_counts();
        let mut blocks = Vec::with_capacity(bc * br);
        for b_row in 0..br {
            let rows = b_row * BLOCK..=((b_row + 1) * BLOCK).min(self.rows - 1);
            for b_col in 0..bc {
                let cols = b_col * BLOCK..=((b_col + 1) * BLOCK).min(self.cols - 1);
                let mut range = (f32::INFINITY, f32::NEG_INFINITY);
                for r in rows.clone() {
                    for &h in
                        &self.heights[r * self.cols + cols.start()..=r * self.cols + cols.end()]
                    {
                        if !h.is_nan() {
                            let y = h * self.scale.y;
                            range = (range.0.min(y), range.1.max(y));
                        }
                    }
                }
                blocks.push(range);
            }
        }
        blocks
    }

    /// Walks the cells under a ray in order; `test(triangle, bound)` returns the parameter of
    /// a hit it found, and the walk stops at the first cell entered beyond the best hit.
    ///
    /// Two levels of the same 2-D DDA: blocks of [`BLOCK`]` x `[`BLOCK`] cells, and within a
    /// block whose height range the ray's height over the block meets ([`ray_meets_heights`]),
    /// its cells.
    fn walk_ray(&self, ray: &Ray, max_t: f32, mut test: impl FnMut(u32, f32) -> Option<f32>) {
        if !(ray.is_finite() && max_t >= 0.0) {
            return;
        }
        let Some(entry) = crate::raycast::aabb(ray, &self.bounds, max_t) else {
            return;
        };
        let (o, d) = (ray.origin, ray.dir);
        // The exit from the field's box bounds the walk.
        let t_out = {
            let inv = d.recip();
            let t1 = (self.bounds.min - o) * inv;
            let t2 = (self.bounds.max - o) * inv;
            let far = t1.max(t2);
            let far = Vec3::select(d.cmpeq(Vec3::ZERO), Vec3::INFINITY, far);
            far.min_element().min(max_t)
        };
        let (nc, nr) = (self.cols - 1, self.rows - 1);
        let cell = Grid {
            x0: -0.5 * self.scale.x,
            z0: -0.5 * self.scale.z,
            size_x: self.scale.x / nc as f32,
            size_z: self.scale.z / nr as f32,
        };
        let block = Grid {
            size_x: cell.size_x * BLOCK as f32,
            size_z: cell.size_z * BLOCK as f32,
            ..cell
        };
        let (bc, br) = self.block_counts();
        let mut best = f32::INFINITY;
        let mut blocks = Dda::start(o, d, entry.t, &block, (0, bc), (0, br));
        loop {
            let block_exit = blocks.t_exit().min(t_out);
            let (lo, hi) = self.blocks[blocks.row * bc + blocks.col];
            if ray_meets_heights(o, d, blocks.t_in, block_exit, lo, hi) {
                let cols = (blocks.col * BLOCK, ((blocks.col + 1) * BLOCK).min(nc));
                let rows = (blocks.row * BLOCK, ((blocks.row + 1) * BLOCK).min(nr));
                let mut cells = Dda::start(o, d, blocks.t_in, &cell, cols, rows);
                loop {
                    let t_exit = cells.t_exit().min(block_exit);
                    best = self.test_cell(
                        ray,
                        &cell,
                        (cells.row, cells.col),
                        (cells.t_in, t_exit),
                        best.min(max_t),
                        &mut test,
                    );
                    if best <= t_exit {
                        return;
                    }
                    if t_exit >= block_exit || !cells.step() {
                        break;
                    }
                }
            }
            if block_exit >= t_out || best <= block_exit || !blocks.step() {
                return;
            }
        }
    }

    /// Tests the two triangles of cell `(row, col)`, which the ray crosses over `[t_in,
    /// t_exit]`, and those of the cells across a side the ray enters within `EDGE` of (the
    /// samples' positions and the walk's cell boundaries round differently, and a hit on the
    /// shared edge or corner may belong to the neighbour's triangles alone); skips a cell
    /// whose heights the ray stays clear of. Returns the best hit parameter so far.
    fn test_cell(
        &self,
        ray: &Ray,
        grid: &Grid,
        (row, col): (usize, usize),
        (t_in, t_exit): (f32, f32),
        bound: f32,
        test: &mut impl FnMut(u32, f32) -> Option<f32>,
    ) -> f32 {
        const EDGE: f32 = 1e-4;
        let (o, d) = (ray.origin, ray.dir);
        let (nc, nr) = (self.cols - 1, self.rows - 1);
        let mut best = bound;
        // Where the ray enters the cell, in cell units.
        let p = o + d * t_in;
        let fx = (p.x - grid.x0) / grid.size_x - col as f32;
        let fz = (p.z - grid.z0) / grid.size_z - row as f32;
        let side = |f: f32| -> (isize, isize) {
            (
                if f < EDGE { -1 } else { 0 },
                if f > 1.0 - EDGE { 1 } else { 0 },
            )
        };
        let ((cx0, cx1), (rz0, rz1)) = (side(fx), side(fz));
        for dr in rz0..=rz1 {
            for dc in cx0..=cx1 {
                let (r, c) = (row as isize + dr, col as isize + dc);
                if r < 0 || c < 0 || r as usize >= nr || c as usize >= nc {
                    continue;
                }
                let (r, c) = (r as usize, c as usize);
                let (lo, hi) = self.cell_heights(r, c);
                if !ray_meets_heights(o, d, t_in, t_exit, lo, hi) {
                    continue;
                }
                for k in 0..2 {
                    let i = (2 * (r * nc + c) + k) as u32;
                    if let Some(t) = test(i, best) {
                        best = best.min(t);
                    }
                }
            }
        }
        best
    }

    /// The scaled height range of cell `(row, col)`'s four samples, holes left out.
    fn cell_heights(&self, row: usize, col: usize) -> (f32, f32) {
        [
            (row, col),
            (row + 1, col),
            (row, col + 1),
            (row + 1, col + 1),
        ]
        .iter()
        .map(|&(r, c)| self.heights[r * self.cols + c] * self.scale.y)
        .filter(|h| !h.is_nan())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), h| {
            (lo.min(h), hi.max(h))
        })
    }

    /// The point of the field closest to `p` within `max_distance`, or `None` (also for NaN).
    /// Walks every cell within `max_distance` of `p` in xz: pass a finite bound for speed.
    #[must_use]
    pub fn closest_point(&self, p: Vec3, max_distance: f32) -> Option<MeshPoint> {
        if !(p.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let reach =
            max_distance.min(self.bounds.size().length() + self.bounds.center().distance(p));
        let query = Aabb::from_center_half_extents(p, Vec3::splat(reach));
        let mut best: Option<MeshPoint> = None;
        let limit2 = max_distance * max_distance;
        self.for_each_near(&query, &mut |i| {
            if let Some(t) = self.triangle(i) {
                let q = crate::closest::point_triangle(p, &t);
                let d2 = (q - p).length_squared();
                if d2 <= limit2 && best.is_none_or(|b| d2 < b.distance * b.distance) {
                    best = Some(MeshPoint {
                        point: q,
                        distance: d2.sqrt(),
                        triangle: i,
                    });
                }
            }
            true
        });
        // `max_distance²` may overflow to infinity: the bound is checked on the distance too.
        best.filter(|m| m.distance <= max_distance)
    }

    /// Appends to `out` the triangles that touch `aabb` (exact triangle–box test), by cell.
    pub fn triangles_touching(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        super::triangles_touching(self, aabb, out);
    }

    /// The contacts of a convex shape (in the field's frame), one per triangle, corrected
    /// for internal edges; see [`super::MeshCollider::contacts`].
    pub fn contacts<S: SupportMap + ?Sized>(
        &self,
        shape: &S,
        margin: f32,
        out: &mut Vec<MeshContact>,
    ) {
        super::contact::contacts(self, shape, margin, out);
    }

    /// The first contact of a convex shape (in this frame) moving by `motion` with any
    /// triangle: time of impact in `[0, 1]`, never late (exact for boxes and spheres, the
    /// convex sweep per triangle otherwise). Per triangle, the sweeps' starting-touch rule ([`crate::sweep`]): a triangle
    /// the shape touches or overlaps at the start is hit at `toi = 0` only when the shape
    /// moves deeper into it (against that triangle's contact normal); moving away or along it
    /// (sliding on a floor) that triangle is not hit, and the cast goes on to the others (a
    /// wall ahead). NaN gives `None`.
    #[must_use]
    pub fn cast_shape<S: SupportMap + ?Sized>(
        &self,
        shape: &S,
        motion: Vec3,
    ) -> Option<MeshShapeHit> {
        super::cast::cast(self, shape, motion)
    }
}

/// `false` when the ray's height over `[t_in, t_exit]` stays clear of `[lo, hi]` (with a
/// relative slack); an empty range (`lo > hi`: holes only) is never met.
fn ray_meets_heights(o: Vec3, d: Vec3, t_in: f32, t_exit: f32, lo: f32, hi: f32) -> bool {
    if lo > hi {
        return false;
    }
    let (y0, y1) = (o.y + d.y * t_in, o.y + d.y * t_exit.min(1e30));
    let slack = 1e-4 * (hi - lo).abs().max(y0.abs()).max(y1.abs()).max(1.0);
    !(y0.min(y1) > hi + slack || y0.max(y1) < lo - slack)
}

/// A regular grid of the xz plane: the corner of cell `(0, 0)` and the cells' size.
#[derive(Clone, Copy)]
struct Grid {
    x0: f32,
    z0: f32,
    size_x: f32,
    size_z: f32,
}

/// A 2-D DDA (Amanatides & Woo 1987) over the cells `cols.0 .. cols.1` x `rows.0 .. rows.1`
/// of a [`Grid`]: the cell the ray is in, the parameter it entered at, and those of its
/// next x and z boundaries.
struct Dda {
    col: usize,
    row: usize,
    cols: (usize, usize),
    rows: (usize, usize),
    t_in: f32,
    next_x: f32,
    next_z: f32,
    step_x: f32,
    step_z: f32,
    dir: Vec3,
}

impl Dda {
    /// The walk from the cell holding `o + d·t` (clamped into the range).
    fn start(
        o: Vec3,
        d: Vec3,
        t: f32,
        grid: &Grid,
        cols: (usize, usize),
        rows: (usize, usize),
    ) -> Dda {
        let p = o + d * t;
        let cell = |x: f32, x0: f32, size: f32, (lo, hi): (usize, usize)| {
            (((x - x0) / size).floor().max(lo as f32) as usize).clamp(lo, hi - 1)
        };
        let col = cell(p.x, grid.x0, grid.size_x, cols);
        let row = cell(p.z, grid.z0, grid.size_z, rows);
        // Per axis: the parameter of the next cell boundary and the step between boundaries.
        let axis = |dir: f32, pos: usize, origin: f32, start: f32, size: f32| {
            if dir == 0.0 {
                (f32::INFINITY, f32::INFINITY)
            } else {
                let next = start + (pos + usize::from(dir > 0.0)) as f32 * size;
                ((next - origin) / dir, size / dir.abs())
            }
        };
        let (next_x, step_x) = axis(d.x, col, o.x, grid.x0, grid.size_x);
        let (next_z, step_z) = axis(d.z, row, o.z, grid.z0, grid.size_z);
        Dda {
            col,
            row,
            cols,
            rows,
            t_in: t,
            next_x,
            next_z,
            step_x,
            step_z,
            dir: d,
        }
    }

    /// The parameter at which the ray leaves the current cell.
    fn t_exit(&self) -> f32 {
        self.next_x.min(self.next_z)
    }

    /// Moves into the next cell along the ray; `false` when that leaves the range.
    fn step(&mut self) -> bool {
        let (pos, dir, range) = if self.next_x < self.next_z {
            self.t_in = self.next_x;
            self.next_x += self.step_x;
            (&mut self.col, self.dir.x, self.cols)
        } else {
            self.t_in = self.next_z;
            self.next_z += self.step_z;
            (&mut self.row, self.dir.z, self.rows)
        };
        if dir > 0.0 {
            *pos += 1;
            *pos < range.1
        } else if dir < 0.0 && *pos > range.0 {
            *pos -= 1;
            true
        } else {
            false
        }
    }
}

impl TriangleSet for Heightfield {
    fn corners(&self, i: u32) -> Option<[Vec3; 3]> {
        let g = self.grid_corners(i)?;
        let c = g.map(|(r, c)| self.sample(r, c));
        (c[0].y.is_finite() && c[1].y.is_finite() && c[2].y.is_finite()).then_some(c)
    }

    fn face_normal(&self, i: u32) -> Vec3 {
        // Scaled before normalising (`unit_or_zero`): with a tiny or huge scale the cross
        // product's squared length under- or overflows. Every triangle faces +y.
        let n = self.corners(i).map_or(Vec3::ZERO, |[a, b, c]| {
            crate::convex::support::unit_or_zero((b - a).cross(c - a))
        });
        if n == Vec3::ZERO {
            Vec3::Y
        } else {
            n
        }
    }

    fn edge(&self, i: u32, k: usize) -> (EdgeBend, Option<Vec3>) {
        let (Some(g), Some(c)) = (self.grid_corners(i), self.corners(i)) else {
            return (EdgeBend::Boundary, None);
        };
        let (r, col) = g[0];
        // The neighbour's off-edge sample, as offsets from this cell's (r, c); see the
        // triangle layout in the type's docs.
        let off: (isize, isize) = match (i % 2, k) {
            (0, 0) => (0, -1), // west edge: the cell to the left, its corner (r, c − 1)
            (0, 1) => (2, 1),  // south edge: the cell below, its corner (r + 2, c + 1)
            (0, 2) => (0, 1),  // diagonal: the other triangle, corner (r, c + 1)
            (1, 0) => (1, 0),  // diagonal: the other triangle, corner (r + 1, c)
            (1, 1) => (1, 2),  // east edge: the cell to the right, its corner (r + 1, c + 2)
            _ => (-1, 0),      // north edge: the cell above, its corner (r − 1, c)
        };
        let (ar, ac) = (r as isize + off.0, col as isize + off.1);
        if ar < 0 || ac < 0 || ar as usize >= self.rows || ac as usize >= self.cols {
            return (EdgeBend::Boundary, None);
        }
        let apex = self.sample(ar as usize, ac as usize);
        if !apex.y.is_finite() {
            return (EdgeBend::Boundary, None);
        }
        let n = self.face_normal(i);
        (classify_edge(n, c[k], c[(k + 1) % 3], apex), Some(apex))
    }

    fn for_each_near(&self, query: &Aabb, visit: &mut dyn FnMut(u32) -> bool) {
        if !(query.max.y >= self.bounds.min.y && query.min.y <= self.bounds.max.y) {
            return;
        }
        let Some(((c0, c1), (r0, r1))) = self.cell_range(query) else {
            return;
        };
        let nc = self.cols - 1;
        for r in r0..=r1 {
            for c in c0..=c1 {
                for k in 0..2 {
                    if !visit((2 * (r * nc + c) + k) as u32) {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uniform numbers in `[-1, 1)` from a linear congruential generator seeded by `seed`.
    fn uniform(mut seed: u32) -> impl FnMut() -> f32 {
        move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0
        }
    }

    /// The ray's first hit over every triangle of the field, tested one by one.
    fn brute_force(f: &Heightfield, ray: &Ray, max_t: f32) -> Option<MeshRayHit> {
        (0..f.triangle_count() as u32)
            .filter_map(|i| ray_triangle(ray, &f.corners(i)?, i, max_t))
            .min_by(|a, b| a.t.total_cmp(&b.t))
    }

    fn bumpy(rows: usize, cols: usize) -> Heightfield {
        let h = (0..rows * cols)
            .map(|i| ((i % cols) as f32 * 0.7).sin() + ((i / cols) as f32 * 0.3).cos())
            .collect();
        Heightfield::try_new(h, rows, cols, Vec3::new(10.0, 1.0, 8.0)).unwrap()
    }

    #[test]
    fn bad_sizes_scales_and_heights_are_typed_errors() {
        let e = Heightfield::try_new(vec![0.0; 3], 1, 3, Vec3::ONE).err();
        assert!(matches!(e, Some(MeshError::HeightfieldSize { .. })));
        let e = Heightfield::try_new(vec![0.0; 5], 2, 2, Vec3::ONE).err();
        assert!(matches!(e, Some(MeshError::HeightfieldSize { .. })));
        let e = Heightfield::try_new(vec![0.0; 4], 2, 2, Vec3::new(1.0, 0.0, 1.0)).err();
        assert_eq!(e, Some(MeshError::InvalidScale));
        let e = Heightfield::try_new(vec![0.0, f32::INFINITY, 0.0, 0.0], 2, 2, Vec3::ONE).err();
        assert_eq!(e, Some(MeshError::InfiniteHeight { index: 1 }));
        let e = Heightfield::try_new(vec![f32::NAN; 4], 2, 2, Vec3::ONE).err();
        assert_eq!(e, Some(MeshError::NoTriangles));
        // One hole in a 2 x 2 field: its two triangles both touch it.
        let e = Heightfield::try_new(vec![0.0, 0.0, 0.0, f32::NAN], 2, 2, Vec3::ONE).err();
        assert_eq!(e, Some(MeshError::NoTriangles));
        assert!(Heightfield::try_new(vec![0.0; 4], 2, 2, Vec3::ONE).is_ok());
    }

    #[test]
    fn rays_match_brute_force_over_every_triangle() {
        let f = bumpy(13, 17);
        let mut rnd = uniform(7);
        for _ in 0..2000 {
            let o = Vec3::new(rnd() * 7.0, rnd() * 4.0, rnd() * 6.0);
            let d = Vec3::new(rnd(), rnd(), rnd());
            let ray = Ray::new(o, d);
            let got = f.ray_cast(&ray, 20.0);
            let want = brute_force(&f, &ray, 20.0);
            match (got, want) {
                (None, None) => {}
                (Some(g), Some(w)) => assert!((g.t - w.t).abs() < 1e-4, "{g:?} vs {w:?}"),
                _ => panic!("ray {ray:?}: {got:?} vs {want:?}"),
            }
        }
    }

    /// Many blocks (the last row and column of blocks partial), holes, and long low rays that
    /// cross many blocks before they hit or leave: the block walk against every triangle.
    #[test]
    fn long_rays_over_many_blocks_and_holes_match_brute_force() {
        let (rows, cols) = (45, 61);
        let mut rnd = uniform(11);
        let heights: Vec<f32> = (0..rows * cols)
            .map(|i| {
                let (r, c) = ((i / cols) as f32, (i % cols) as f32);
                let h = (c * 0.21).sin() * 2.0 + (r * 0.17).cos() + 0.1 * rnd();
                if rnd() > 0.96 {
                    f32::NAN
                } else {
                    h
                }
            })
            .collect();
        let f = Heightfield::try_new(heights, rows, cols, Vec3::new(60.0, 1.0, 44.0)).unwrap();
        let (mut hits, mut misses) = (0, 0);
        for _ in 0..3000 {
            let o = Vec3::new(rnd() * 40.0, 1.0 + rnd() * 3.0, rnd() * 30.0);
            let d = Vec3::new(rnd(), rnd() * 0.15, rnd());
            let ray = Ray::new(o, d);
            let got = f.ray_cast(&ray, 200.0);
            let want = brute_force(&f, &ray, 200.0);
            match (got, want) {
                (None, None) => misses += 1,
                (Some(g), Some(w)) => {
                    hits += 1;
                    assert!((g.t - w.t).abs() < 1e-4, "{ray:?}: {g:?} vs {w:?}");
                }
                _ => panic!("ray {ray:?}: {got:?} vs {want:?}"),
            }
        }
        assert!(hits > 600 && misses > 600, "{hits} hits, {misses} misses");
    }

    #[test]
    fn edges_of_a_flat_field_are_flat_inside_and_boundary_outside() {
        let f = Heightfield::try_new(vec![0.0; 16], 4, 4, Vec3::ONE).unwrap();
        let mut counts = [0usize; 4];
        for i in 0..f.triangle_count() as u32 {
            for k in 0..3 {
                counts[f.edge(i, k).0 as usize] += 1;
            }
        }
        assert_eq!(counts, [12, 42, 0, 0]);
    }
}
