//! Step 1, clip: a part of the mesh is its triangles clipped to a convex cell, and a split
//! sends every clipped polygon to one side of a plane or cuts it in two.

use crate::math::Vec3;

/// One bounding plane of a cell: the cell keeps the points `x` with `normal · x <= offset`.
///
/// The two halves of one split get the same `id` and opposite planes, so two pieces that share
/// an ancestor's cut have a [`Cut`] equal in `id` and `normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cut {
    pub normal: Vec3,
    pub offset: f32,
    pub id: u32,
}

impl Cut {
    /// How far `p` is inside the cell's side of the plane (negative outside). `normal` is a
    /// unit vector (the candidates' normals are), so this is the Euclidean distance.
    #[inline]
    pub fn depth(&self, p: Vec3) -> f32 {
        self.offset - self.normal.dot(p)
    }

    /// The same plane seen from the other half.
    #[inline]
    pub fn flipped(&self) -> Cut {
        Cut {
            normal: -self.normal,
            offset: -self.offset,
            id: self.id,
        }
    }
}

/// The mesh's triangles clipped to a cell: convex polygons stored end to end, and the cell.
#[derive(Clone, Debug, Default)]
pub(super) struct Part {
    /// Every polygon's corners, polygon after polygon.
    pub points: Vec<Vec3>,
    /// Polygon `k` is `points[starts[k] .. starts[k + 1]]`; one more entry than polygons.
    pub starts: Vec<u32>,
    /// The cell's planes, in the order the splits made them.
    pub cuts: Vec<Cut>,
}

impl Part {
    /// The whole mesh: one polygon per triangle, no cut.
    pub fn from_triangles(corners: impl Iterator<Item = [Vec3; 3]>) -> Part {
        let mut part = Part {
            starts: vec![0],
            ..Part::default()
        };
        for tri in corners {
            part.push_polygon(&tri);
        }
        part
    }

    /// Number of polygons.
    pub fn polygon_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The corners of polygon `k`.
    pub fn polygon(&self, k: usize) -> &[Vec3] {
        &self.points[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    fn push_polygon(&mut self, corners: &[Vec3]) {
        if corners.len() >= 3 {
            self.points.extend_from_slice(corners);
            self.starts.push(self.points.len() as u32);
        }
    }

    /// Both parts' polygons in one part bounded by the cuts the two cells share.
    pub fn merged(&self, other: &Part) -> Part {
        let mut part = self.clone();
        for k in 0..other.polygon_count() {
            part.push_polygon(other.polygon(k));
        }
        part.cuts.retain(|c| other.cuts.contains(c));
        part
    }
}

/// Which side of the plane a corner is on: `-1` below (kept by `cut`), `1` above, `0` within
/// `eps` of the plane (kept by both halves).
fn side(depth: f32, eps: f32) -> i8 {
    if depth > eps {
        -1
    } else if depth < -eps {
        1
    } else {
        0
    }
}

/// Splits `part` by `cut`: the polygons below it (`cut.depth >= 0`) and those above, each
/// polygon crossing the plane cut in two (Sutherland–Hodgman on one plane).
///
/// Corners within `eps` of the plane go to both halves; a polygon lying in the plane goes
/// below. Each crossing edge `a → b` yields the point `a + (b − a) · da / (da − db)` where
/// the depths `da`, `db` have opposite signs: the depth is affine along the edge and vanishes
/// there. Both halves compute it from the same `a → b`, so they share it bit for bit.
pub(super) fn split(part: &Part, cut: Cut, eps: f32) -> (Part, Part) {
    let mut below = Part {
        starts: vec![0],
        cuts: part.cuts.clone(),
        ..Part::default()
    };
    let mut above = below.clone();
    below.cuts.push(cut);
    above.cuts.push(cut.flipped());
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for k in 0..part.polygon_count() {
        let poly = part.polygon(k);
        let depths: Vec<f32> = poly.iter().map(|&p| cut.depth(p)).collect();
        let sides: Vec<i8> = depths.iter().map(|&d| side(d, eps)).collect();
        if sides.iter().all(|&s| s <= 0) {
            below.push_polygon(poly);
            continue;
        }
        if sides.iter().all(|&s| s >= 0) {
            above.push_polygon(poly);
            continue;
        }
        lo.clear();
        hi.clear();
        for i in 0..poly.len() {
            let j = (i + 1) % poly.len();
            if sides[i] <= 0 {
                lo.push(poly[i]);
            }
            if sides[i] >= 0 {
                hi.push(poly[i]);
            }
            if sides[i] * sides[j] < 0 {
                let t = depths[i] / (depths[i] - depths[j]);
                let x = poly[i] + (poly[j] - poly[i]) * t;
                lo.push(x);
                hi.push(x);
            }
        }
        below.push_polygon(&lo);
        above.push_polygon(&hi);
    }
    (below, above)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_square_part() -> Part {
        let a = Vec3::new(0.0, 0.0, 0.0);
        let b = Vec3::new(1.0, 0.0, 0.0);
        let c = Vec3::new(1.0, 1.0, 0.0);
        let d = Vec3::new(0.0, 1.0, 0.0);
        Part::from_triangles([[a, b, c], [a, c, d]].into_iter())
    }

    #[test]
    fn a_crossing_plane_cuts_each_triangle_and_keeps_the_area() {
        let part = unit_square_part();
        let cut = Cut {
            normal: Vec3::X,
            offset: 0.25,
            id: 0,
        };
        let (lo, hi) = split(&part, cut, 1e-6);
        let area = |p: &Part| -> f32 {
            (0..p.polygon_count())
                .map(|k| {
                    let q = p.polygon(k);
                    (1..q.len() - 1)
                        .map(|i| (q[i] - q[0]).cross(q[i + 1] - q[0]).length() / 2.0)
                        .sum::<f32>()
                })
                .sum()
        };
        assert!((area(&lo) - 0.25).abs() < 1e-6, "{}", area(&lo));
        assert!((area(&hi) - 0.75).abs() < 1e-6, "{}", area(&hi));
        assert!(lo.points.iter().all(|p| p.x <= 0.25 + 1e-6));
        assert!(hi.points.iter().all(|p| p.x >= 0.25 - 1e-6));
        assert_eq!(lo.cuts, vec![cut]);
        assert_eq!(hi.cuts, vec![cut.flipped()]);
    }

    #[test]
    fn a_plane_through_corners_only_sends_each_triangle_whole() {
        // The diagonal x = y passes through two corners: each triangle is on one side.
        let part = unit_square_part();
        let n = Vec3::new(1.0, -1.0, 0.0).normalize();
        let (lo, hi) = split(
            &part,
            Cut {
                normal: n,
                offset: 0.0,
                id: 3,
            },
            1e-6,
        );
        assert_eq!((lo.polygon_count(), hi.polygon_count()), (1, 1));
        assert_eq!(lo.polygon(0).len(), 3);
        assert_eq!(hi.polygon(0).len(), 3);
    }

    #[test]
    fn merging_keeps_every_polygon_and_only_the_shared_cuts() {
        let part = unit_square_part();
        let first = Cut {
            normal: Vec3::Y,
            offset: 0.5,
            id: 0,
        };
        let (lo, _) = split(&part, first, 1e-6);
        let (a, b) = split(
            &lo,
            Cut {
                normal: Vec3::X,
                offset: 0.5,
                id: 1,
            },
            1e-6,
        );
        let m = a.merged(&b);
        assert_eq!(m.polygon_count(), a.polygon_count() + b.polygon_count());
        assert_eq!(m.cuts, vec![first]);
    }
}
