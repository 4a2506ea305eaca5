use super::lanes::{self, lane, set_lane, soa_container, Lanes};
use crate::math::Vec3;
use crate::overlap;
use crate::shapes::Sphere;
use glam::Vec4;

/// Eight spheres, two glam `Vec4`s (SSE/NEON registers) per coordinate and for the radii
/// (see the box chunk in `aabb.rs` for why `Vec4` rather than `[f32; 8]`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Chunk {
    x: [Vec4; 2],
    y: [Vec4; 2],
    z: [Vec4; 2],
    r: [Vec4; 2],
}

impl lanes::Chunk for Chunk {
    type Item = Sphere;

    const PADDING: Chunk = Chunk {
        x: [Vec4::NAN; 2],
        y: [Vec4::NAN; 2],
        z: [Vec4::NAN; 2],
        r: [Vec4::NAN; 2],
    };

    #[inline(always)]
    fn set(&mut self, l: usize, s: &Sphere) {
        set_lane(&mut self.x, l, s.center.x);
        set_lane(&mut self.y, l, s.center.y);
        set_lane(&mut self.z, l, s.center.z);
        set_lane(&mut self.r, l, s.radius);
    }

    #[inline(always)]
    fn get(&self, l: usize) -> Sphere {
        Sphere {
            center: Vec3::new(lane(&self.x, l), lane(&self.y, l), lane(&self.z, l)),
            radius: lane(&self.r, l),
        }
    }

    fn is_regular(s: &Sphere) -> bool {
        moderate(s, 0.0)
    }

    fn is_padding(&self, l: usize) -> bool {
        let s = self.get(l);
        s.center.is_nan() && s.radius.is_nan()
    }
}

impl Chunk {
    /// Bit `l` set when lane `l` touches the query sphere `q` (splatted in `qs`).
    ///
    /// Four lanes at a time in `f32`: `|c - q|² <= (r + r_q)²`, the squared form of
    /// `|c - q| <= r + r_q` (no square root). `f32` squares overflow to `inf` beyond ~1e19
    /// and underflow to 0 below ~1e-19, where `inf <= inf` or `0 <= 0` would report spheres
    /// as touching that are not. With `GUARDED`, the lanes where a square is not finite or
    /// both are below 1e-30 (and NaN lanes) are therefore decided by the scalar
    /// [`overlap::sphere_sphere`] (in f64), so every lane gets the scalar's verdict. The check
    /// is on the sum `s = |c - q|² + (r + r_q)²` of the two non-negative squares, one add and
    /// two compares per four lanes: `s` is inf or NaN when either square is, and `s < 2e-30`
    /// whenever both are below 1e-30; the few more lanes it sends to the scalar test (a
    /// finite sum that overflows, both squares below 2e-30) get the same verdict there.
    /// Without it (every stored sphere and the query [`moderate`]), no lane can take that
    /// path: `s` is at most `3 (2e18)² + (2e18)² = 1.6e37` and at least `(2e-15)²`, and a NaN
    /// lane (padding) fails the compare, as the scalar test says of NaN.
    #[inline(always)]
    fn overlap_bits<const GUARDED: bool>(&self, qs: &[Vec4; 4], q: &Sphere) -> u32 {
        let mut bits = 0u32;
        let mut slow = 0u32;
        let (inf, tiny2) = (Vec4::splat(f32::INFINITY), Vec4::splat(2e-30));
        for h in 0..2 {
            let dx = self.x[h] - qs[0];
            let dy = self.y[h] - qs[1];
            let dz = self.z[h] - qs[2];
            let rs = self.r[h] + qs[3];
            let d2 = dx * dx + dy * dy + dz * dz;
            let rs2 = rs * rs;
            bits |= d2.cmple(rs2).bitmask() << (4 * h);
            if GUARDED {
                // Fast when `2e-30 <= s < inf`, false for NaN.
                let sum = d2 + rs2;
                let odd = !(sum.cmpge(tiny2) & sum.cmplt(inf));
                slow |= odd.bitmask() << (4 * h);
            }
        }
        while slow != 0 {
            let l = slow.trailing_zeros() as usize;
            let hit = overlap::sphere_sphere(q, &lanes::Chunk::get(self, l));
            bits = (bits & !(1 << l)) | (u32::from(hit) << l);
            slow &= slow - 1;
        }
        bits
    }
}

/// `true` when the sphere's centre coordinates and radius are finite, within `±1e18`, and
/// the radius is at least `min_radius`: squares of distances and radius sums between such
/// spheres neither overflow `f32` nor (with `min_radius = 2e-15` on one side) all underflow.
#[inline]
fn moderate(s: &Sphere, min_radius: f32) -> bool {
    const LIMIT: f32 = 1e18;
    s.center.abs().max_element() <= LIMIT && (min_radius..=LIMIT).contains(&s.radius)
}

/// The smallest query radius for the unguarded test: its square, `4e-30`, is above the
/// guard's `2e-30`.
const MIN_QUERY_RADIUS: f32 = 2e-15;

/// The query sphere splatted: `(x, y, z, r)` across four lanes each.
#[inline(always)]
fn splat(q: &Sphere) -> [Vec4; 4] {
    [
        Vec4::splat(q.center.x),
        Vec4::splat(q.center.y),
        Vec4::splat(q.center.z),
        Vec4::splat(q.radius),
    ]
}

/// Many spheres in structure-of-arrays chunks of [`LANES`](super::LANES), for one-against-many tests.
///
/// Element `i` lives in lane `i % 8` of chunk `i / 8`; lanes after the last sphere are NaN
/// and never hit. Radii are stored as given: build spheres with [`Sphere::new`] (which takes
/// the absolute value) so they are `>= 0`.
///
/// ```
/// use collide::batch::SphereSoa;
/// use collide::shapes::Sphere;
/// use collide::Vec3;
///
/// let soa = SphereSoa::from_spheres(&[
///     Sphere::new(Vec3::ZERO, 1.0),
///     Sphere::new(Vec3::X * 3.0, 1.0),
///     Sphere::new(Vec3::X * 6.0, 1.0),
/// ]);
/// let mut hits = Vec::new();
/// soa.for_each_overlap(&Sphere::new(Vec3::X * 4.5, 0.5), |i| hits.push(i));
/// assert_eq!(hits, [1, 2]); // both touch at exactly distance 1.5
/// ```
#[derive(Clone, Debug, Default)]
pub struct SphereSoa {
    lanes: Lanes<Chunk>,
}

soa_container!(SphereSoa, Sphere, "spheres");

impl SphereSoa {
    /// The spheres of a slice, in order (index `i` is `spheres[i]`).
    #[must_use]
    pub fn from_spheres(spheres: &[Sphere]) -> SphereSoa {
        SphereSoa {
            lanes: Lanes::from_slice(spheres),
        }
    }

    /// Tests every sphere against `query` into a bitmask (bit `i % 64` of `mask[i / 64]` for
    /// sphere `i`; touching counts) and returns the number of overlaps. Mask sizing as
    /// [`AabbSoa::overlap_mask`](super::AabbSoa::overlap_mask). NaN in `query` gives none.
    pub fn overlap_mask(&self, query: &Sphere, mask: &mut [u64]) -> usize {
        let q = splat(query);
        if self.unguarded(query) {
            self.lanes
                .mask(mask, |c| c.overlap_bits::<false>(&q, query))
        } else {
            self.lanes.mask(mask, |c| c.overlap_bits::<true>(&q, query))
        }
    }

    /// Calls `f(i)` for every sphere `i` that touches `query`, in increasing order, without
    /// allocating.
    pub fn for_each_overlap(&self, query: &Sphere, f: impl FnMut(usize)) {
        let q = splat(query);
        if self.unguarded(query) {
            self.lanes
                .for_each(|c| c.overlap_bits::<false>(&q, query), f);
        } else {
            self.lanes
                .for_each(|c| c.overlap_bits::<true>(&q, query), f);
        }
    }

    /// `true` when no lane can need the scalar test: every stored sphere and the query are
    /// [`moderate`] (the query with a radius of at least [`MIN_QUERY_RADIUS`]).
    #[inline]
    fn unguarded(&self, query: &Sphere) -> bool {
        self.lanes.all_regular() && moderate(query, MIN_QUERY_RADIUS)
    }

    /// The number of spheres that touch `query`.
    #[must_use]
    pub fn count_overlaps(&self, query: &Sphere) -> usize {
        let q = splat(query);
        if self.unguarded(query) {
            self.lanes.count(|c| c.overlap_bits::<false>(&q, query))
        } else {
            self.lanes.count(|c| c.overlap_bits::<true>(&q, query))
        }
    }
}
