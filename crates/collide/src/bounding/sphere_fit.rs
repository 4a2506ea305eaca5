//! Bounding spheres: Ritter's fast approximation and the exact minimum sphere (Welzl).

use glam::DVec3;

use crate::math::Vec3;
use crate::shapes::Sphere;

/// The smallest `f32` radius around `center` containing every point: the largest distance,
/// computed in f64 and rounded up, so containment holds exactly for the `f32` centre.
fn enclosing_radius(points: &[Vec3], center: Vec3) -> f32 {
    let c = center.as_dvec3();
    let r = points
        .iter()
        .map(|p| p.as_dvec3().distance_squared(c))
        .fold(0.0_f64, f64::max)
        .sqrt();
    let r32 = r as f32;
    if f64::from(r32) < r {
        // Next representable f32 above (r32 >= 0 and finite here).
        f32::from_bits(r32.to_bits() + 1)
    } else {
        r32
    }
}

fn all_finite(points: &[Vec3]) -> bool {
    !points.is_empty() && points.iter().all(|p| p.is_finite())
}

impl Sphere {
    /// A bounding sphere by Ritter's method (Ritter, "An Efficient Bounding Sphere",
    /// Graphics Gems 1990): one cheap pass, up to about 20 % larger than the minimum (0–4 %
    /// on the repository's meshes).
    ///
    /// Start from the sphere on a far pair (x = first point, y = farthest from x, z =
    /// farthest from y), grow it to take in each point still outside, then set the radius to
    /// the largest distance from the centre (computed in f64, rounded up) so every point is
    /// inside exactly. One point gives radius 0. `None` for an empty set, a non-finite point,
    /// or a radius that overflows `f32`.
    #[must_use]
    pub fn fit(points: &[Vec3]) -> Option<Sphere> {
        if !all_finite(points) {
            return None;
        }
        let pts = || points.iter().map(|p| p.as_dvec3());
        let far = |from: DVec3| {
            pts().fold((from, -1.0), |(b, bd), p| {
                let d = p.distance_squared(from);
                if d > bd {
                    (p, d)
                } else {
                    (b, bd)
                }
            })
        };
        let x = points[0].as_dvec3();
        let (y, _) = far(x);
        let (z, _) = far(y);
        let mut c = (y + z) * 0.5;
        let mut r = y.distance(z) * 0.5;
        for p in pts() {
            let d = p.distance(c);
            if d > r {
                // The new sphere touches the old one's far side and p: radius (r + d) / 2,
                // centre moved toward p by d − r_new.
                let r_new = (r + d) * 0.5;
                c += (p - c) * ((d - r_new) / d);
                r = r_new;
            }
        }
        let center = c.as_vec3();
        let s = Sphere {
            center,
            radius: enclosing_radius(points, center),
        };
        s.is_finite().then_some(s)
    }

    /// The minimum bounding sphere (Welzl, "Smallest enclosing disks (balls and
    /// ellipsoids)", 1991, with Gärtner's move-to-front heuristic, "Fast and Robust Smallest
    /// Enclosing Balls", ESA 1999).
    ///
    /// Computed in f64 on a deterministically shuffled copy of the points (expected linear
    /// time). The recursion only ever adds a point to the support set, so its depth is at most
    /// 4 whatever the input size — no stack-depth issue. Support sets that are affinely
    /// dependent within round-off (cocircular, coplanar, duplicate points) are skipped as
    /// Gärtner does; the radius is then set to the largest distance from the centre (rounded
    /// up), so every point is inside exactly and the sphere is minimal to round-off. Never
    /// larger than [`Sphere::fit`] beyond round-off. One point gives radius 0. `None` for an
    /// empty set, a non-finite point, or a radius that overflows `f32`.
    #[must_use]
    pub fn fit_exact(points: &[Vec3]) -> Option<Sphere> {
        if !all_finite(points) {
            return None;
        }
        // Work relative to the first point: smaller numbers, less cancellation.
        let o = points[0].as_dvec3();
        let mut list: Vec<DVec3> = points.iter().map(|p| p.as_dvec3() - o).collect();
        // Deterministic Fisher–Yates shuffle (splitmix64): guards against adversarial order.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ list.len() as u64;
        for i in (1..list.len()).rev() {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            list.swap(i, (z % (i as u64 + 1)) as usize);
        }
        let mut support: Vec<DVec3> = Vec::with_capacity(4);
        let n = list.len();
        let ball = mtf(&mut list, n, &mut support);
        let center = (ball.center + o).as_vec3();
        let s = Sphere {
            center,
            radius: enclosing_radius(points, center),
        };
        s.is_finite().then_some(s)
    }
}

/// A ball in f64: `radius2 < 0` is the empty ball (contains nothing).
#[derive(Clone, Copy, Debug)]
struct Ball {
    center: DVec3,
    radius2: f64,
}

impl Ball {
    const EMPTY: Ball = Ball {
        center: DVec3::ZERO,
        radius2: -1.0,
    };

    /// `true` when `p` is outside by more than round-off (relative 1e-12 of the radius²).
    fn excludes(&self, p: DVec3) -> bool {
        if self.radius2 < 0.0 {
            return true;
        }
        let d2 = p.distance_squared(self.center);
        d2 > self.radius2 * (1.0 + 1e-12) + 1e-300
    }
}

/// The smallest ball with every point of `s` (at most 4, affinely independent) on its
/// boundary: the circumsphere within their affine hull. `None` when the points are affinely
/// dependent to round-off.
fn circumball(s: &[DVec3]) -> Option<Ball> {
    match s {
        [] => Some(Ball::EMPTY),
        [a] => Some(Ball {
            center: *a,
            radius2: 0.0,
        }),
        [a, b] => {
            let c = (*a + *b) * 0.5;
            Some(Ball {
                center: c,
                radius2: a.distance_squared(c),
            })
        }
        [a, b, c] => {
            // Circumcentre of a triangle, relative to a (Ericson, RTCD §4.3.4 / Graphics Gems):
            // x = ((|u|² v − |v|² u) × (u × v)) / (2 |u × v|²), u = b − a, v = c − a.
            let (u, v) = (*b - *a, *c - *a);
            let n = u.cross(v);
            let n2 = n.length_squared();
            if n2 <= 1e-24 * u.length_squared() * v.length_squared() || n2 == 0.0 {
                return None;
            }
            let x = (v * u.length_squared() - u * v.length_squared()).cross(n) / (2.0 * n2);
            Some(Ball {
                center: *a + x,
                radius2: x.length_squared(),
            })
        }
        [a, b, c, d] => {
            // Circumcentre of a tetrahedron, relative to a:
            // x = (|u|² (v × w) + |v|² (w × u) + |w|² (u × v)) / (2 u · (v × w)).
            let (u, v, w) = (*b - *a, *c - *a, *d - *a);
            let det = u.dot(v.cross(w));
            let scale = u.length() * v.length() * w.length();
            if det.abs() <= 1e-12 * scale || det == 0.0 {
                return None;
            }
            let x = (v.cross(w) * u.length_squared()
                + w.cross(u) * v.length_squared()
                + u.cross(v) * w.length_squared())
                / (2.0 * det);
            Some(Ball {
                center: *a + x,
                radius2: x.length_squared(),
            })
        }
        _ => None,
    }
}

/// Gärtner's move-to-front Welzl: the smallest ball of `list[..end]` with `support` on its
/// boundary. Depth is bounded by 4 because every recursive call adds a support point.
fn mtf(list: &mut [DVec3], end: usize, support: &mut Vec<DVec3>) -> Ball {
    let Some(mut ball) = circumball(support) else {
        return Ball::EMPTY;
    };
    if support.len() == 4 {
        return ball;
    }
    let mut i = 0;
    while i < end {
        let p = list[i];
        if ball.excludes(p) {
            support.push(p);
            let inner = circumball(support).map(|_| mtf(list, i, support));
            support.pop();
            if let Some(b) = inner {
                if b.radius2 >= 0.0 {
                    ball = b;
                    // Move p to the front: the prefix [0, i] rotates, later indices stay put.
                    list[..=i].rotate_right(1);
                }
            }
        }
        i += 1;
    }
    ball
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assert_near;

    #[test]
    fn two_points_and_one() {
        // Two points: both methods give the sphere on the segment; one point: radius 0.
        let pts = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0)];
        for s in [Sphere::fit(&pts).unwrap(), Sphere::fit_exact(&pts).unwrap()] {
            assert_near!(s.center, Vec3::new(1.0, 0.0, 0.0));
            assert_near!(s.radius, 2.0);
        }
        let one = Sphere::fit_exact(&[Vec3::ONE]).unwrap();
        assert_eq!((one.center, one.radius), (Vec3::ONE, 0.0));
        assert!(Sphere::fit(&[]).is_none());
        // A radius beyond f32::MAX: no sphere rather than an infinite one.
        let huge = [Vec3::splat(-3e38), Vec3::splat(3e38)];
        assert!(Sphere::fit(&huge).is_none() && Sphere::fit_exact(&huge).is_none());
        assert!(crate::shapes::Obb::fit(&huge).is_none());
        assert!(Sphere::fit_exact(&[Vec3::INFINITY]).is_none());
    }

    #[test]
    fn regular_tetrahedron_and_equilateral_triangle() {
        // Exact sphere of a regular tetrahedron is its circumsphere; of an equilateral
        // triangle, its circumcircle (radius side/√3) — where Ritter is larger.
        let tet = [
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, 1.0),
        ];
        let s = Sphere::fit_exact(&tet).unwrap();
        assert_near!(s.center, Vec3::ZERO, 1e-6);
        assert_near!(s.radius, 3.0_f32.sqrt(), 1e-6);
        let tri = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 3.0_f32.sqrt() / 2.0, 0.0),
        ];
        let s = Sphere::fit_exact(&tri).unwrap();
        assert_near!(s.radius, 1.0 / 3.0_f32.sqrt(), 1e-6);
        assert!(Sphere::fit(&tri).unwrap().radius >= s.radius);
    }

    #[test]
    fn cocircular_and_duplicate_points() {
        // Eight points on one circle plus duplicates: affinely dependent supports are skipped
        // and the answer is still the circle's sphere.
        let mut pts: Vec<Vec3> = (0..8)
            .map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                Vec3::new(a.cos(), a.sin(), 0.0) * 2.0
            })
            .collect();
        pts.extend(pts.clone());
        let s = Sphere::fit_exact(&pts).unwrap();
        assert_near!(s.center, Vec3::ZERO, 1e-6);
        assert_near!(s.radius, 2.0, 1e-6);
    }
}
