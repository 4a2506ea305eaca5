//! Mesh and heightfield queries against f64 brute force over every triangle, on the repo's
//! real meshes and on generated terrains, and the ghost-contact test of internal edges.
//!
//! Oracles: rays by Möller–Trumbore in f64 over all triangles; closest points by the f64
//! Voronoi-region walk over all triangles; box queries by a 13-axis f64 SAT. A disagreement
//! counts only outside a band of `1e-5 ·` the mesh's diagonal around triangle edges (where
//! either answer is right to rounding). `validate()` runs on every collider built.

use crate::common;

use crate::common::{dv, mesh_path, Box64, REAL_MESHES};
use collide::mesh::{Heightfield, MeshCollider, MeshContact, MeshShapeHit};
use collide::shapes::{Aabb, Capsule, Obb, Ray, Sphere, TriMesh};
use collide::{io, Vec3};
use collide_testkit::{level, Gen};
use glam::DVec3;

/// First-hit parameter of a ray on a triangle in f64 (no tolerance), or `None`.
fn ray_tri64(o: DVec3, d: DVec3, t: [DVec3; 3]) -> Option<f64> {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 {
        return None;
    }
    let s = o - t[0];
    let u = s.dot(p) / det;
    let q = s.cross(e1);
    let v = d.dot(q) / det;
    let tt = e2.dot(q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && tt >= 0.0).then_some(tt)
}

/// Distance from `p` to the nearest edge of triangle `t`.
fn edge_distance(p: DVec3, t: [DVec3; 3]) -> f64 {
    (0..3)
        .map(|k| common::point_segment_distance(p, t[k], t[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// The triangles of a collider as f64 corner triples, by index.
struct Soup {
    tris: Vec<[DVec3; 3]>,
    diagonal: f64,
}

impl Soup {
    fn of(tris: impl Iterator<Item = Option<[Vec3; 3]>>, aabb: Aabb) -> Soup {
        Soup {
            tris: tris
                .map(|t| t.map_or([DVec3::NAN; 3], |t| t.map(dv)))
                .collect(),
            diagonal: f64::from(aabb.size().length()),
        }
    }

    fn band(&self) -> f64 {
        1e-5 * self.diagonal
    }

    /// First hit: (t, triangle).
    fn ray(&self, ray: &Ray, max_t: f32) -> Option<(f64, usize)> {
        let (o, d) = (dv(ray.origin), dv(ray.dir));
        self.tris
            .iter()
            .enumerate()
            .filter_map(|(i, t)| ray_tri64(o, d, *t).map(|tt| (tt, i)))
            .filter(|(tt, _)| *tt <= f64::from(max_t))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }

    fn closest(&self, p: DVec3) -> f64 {
        self.tris
            .iter()
            .filter(|t| t[0].is_finite())
            .map(|t| (common::triangle_closest(p, *t) - p).length())
            .fold(f64::INFINITY, f64::min)
    }
}

/// A collider's first hit as `(t, triangle)`.
type FirstHit<'a> = &'a dyn Fn(&Ray, f32) -> Option<(f32, u32)>;

struct Tally {
    checked: usize,
    hits: usize,
    in_band: usize,
}

/// Compares a collider's first hits, closest points and box queries with the soup's.
fn check_queries(
    name: &str,
    soup: &Soup,
    ray_cast: FirstHit<'_>,
    closest: &dyn Fn(Vec3) -> Option<f32>,
    touching: &dyn Fn(&Aabb) -> Vec<u32>,
    aabb: Aabb,
    seed: u64,
) -> Tally {
    let band = soup.band();
    let mut g = Gen::new(seed);
    let (c, h) = (aabb.center(), aabb.half_extents() * 1.3 + Vec3::splat(0.01));
    let mut tally = Tally {
        checked: 0,
        hits: 0,
        in_band: 0,
    };
    let n = common::cases(400, 20_000);
    for _ in 0..n {
        let o = c + g.vec(1.0) * h;
        let target = c + g.vec(1.0) * aabb.half_extents();
        let ray = Ray::new(o, target - o);
        let got = ray_cast(&ray, 2.0);
        let want = soup.ray(&ray, 2.0);
        tally.checked += 1;
        let (od, dd) = (dv(ray.origin), dv(ray.dir));
        let at = |t: f64| od + dd * t;
        let near_edge = |t: f64, i: usize| edge_distance(at(t), soup.tris[i]) <= band;
        match (got, want) {
            (None, None) => {}
            (Some((t, i)), Some((tw, iw))) => {
                tally.hits += 1;
                let gap = (f64::from(t) - tw).abs() * dd.length();
                if gap > band {
                    assert!(
                        near_edge(f64::from(t), i as usize) || near_edge(tw, iw),
                        "{name}: ray {ray:?}: t {t} (tri {i}) vs f64 {tw} (tri {iw})"
                    );
                    tally.in_band += 1;
                }
            }
            (Some((t, i)), None) => {
                assert!(
                    near_edge(f64::from(t), i as usize),
                    "{name}: ray {ray:?}: hit at {t} (tri {i}), f64 misses"
                );
                tally.in_band += 1;
            }
            (None, Some((tw, iw))) => {
                assert!(
                    near_edge(tw, iw),
                    "{name}: ray {ray:?}: miss, f64 hits at {tw} (tri {iw})"
                );
                tally.in_band += 1;
            }
        }
    }
    for _ in 0..n / 4 {
        let p = c + g.vec(1.0) * h;
        let got = closest(p).map(f64::from);
        let want = soup.closest(dv(p));
        let got = got.unwrap_or_else(|| panic!("{name}: no closest point for {p}"));
        assert!(
            (got - want).abs() <= band,
            "{name}: closest to {p}: {got} vs f64 {want}"
        );
    }
    for _ in 0..n / 8 {
        let centre = c + g.vec(1.0) * h;
        let half = aabb.half_extents() * g.range(0.02, 0.3);
        let b = Aabb::from_center_half_extents(centre, half);
        let got = touching(&b);
        let bx = Box64::from_aabb(&b);
        for (i, t) in soup.tris.iter().enumerate() {
            if !t[0].is_finite() {
                continue;
            }
            let gap = common::sat_triangle_box(*t, &bx);
            let listed = got.contains(&(i as u32));
            if gap.abs() > band {
                assert_eq!(
                    listed,
                    gap <= 0.0,
                    "{name}: box {b:?}, triangle {i}: gap {gap}"
                );
            }
        }
    }
    tally
}

fn check_mesh(name: &str, mesh: TriMesh, seed: u64) {
    let m = MeshCollider::try_new(mesh).unwrap_or_else(|e| panic!("{name}: {e}"));
    m.validate().unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let soup = Soup::of(
        (0..m.triangles().len() as u32).map(|i| m.triangle(i).map(|t| t.vertices())),
        m.aabb(),
    );
    let tally = check_queries(
        name,
        &soup,
        &|r, t| m.ray_cast(r, t).map(|h| (h.t, h.triangle)),
        &|p| m.closest_point(p, f32::INFINITY).map(|c| c.distance),
        &|b| {
            let mut v = Vec::new();
            m.triangles_touching(b, &mut v);
            v
        },
        m.aabb(),
        seed,
    );
    assert!(
        tally.hits * 5 > tally.checked,
        "{name}: too few hits to test"
    );
    assert!(tally.in_band * 50 < tally.checked, "{name}: band too busy");
}

/// A rolling terrain: `rows x cols` samples of hills over `size`.
fn terrain_heights(rows: usize, cols: usize) -> Vec<f32> {
    (0..rows * cols)
        .map(|i| {
            let (r, c) = ((i / cols) as f32, (i % cols) as f32);
            (c * 0.31).sin() * 1.5 + (r * 0.17 + c * 0.05).cos() + ((r * c) * 0.013).sin() * 0.4
        })
        .collect()
}

/// The heightfield's triangles as a mesh (the same surface, for the mesh collider).
fn heightfield_mesh(f: &Heightfield) -> TriMesh {
    let mut mesh = TriMesh::default();
    for i in 0..f.triangle_count() as u32 {
        if let Some(t) = f.triangle(i) {
            let base = mesh.vertices.len() as u32;
            mesh.vertices.extend(t.vertices());
            mesh.triangles.push([base, base + 1, base + 2]);
        }
    }
    mesh
}

#[test]
fn real_meshes_agree_with_brute_force() {
    for (k, name) in REAL_MESHES.iter().enumerate() {
        let model = io::load(mesh_path(name)).unwrap();
        check_mesh(name, model.merged(), 100 + k as u64);
    }
}

#[test]
fn terrains_agree_with_brute_force_as_heightfield_and_as_mesh() {
    let (rows, cols) = (33, 41);
    let mut heights = terrain_heights(rows, cols);
    // A few holes.
    for i in [100, 101, 500, 900] {
        heights[i] = f32::NAN;
    }
    let f = Heightfield::try_new(heights, rows, cols, Vec3::new(60.0, 2.0, 45.0)).unwrap();
    let soup = Soup::of(
        (0..f.triangle_count() as u32).map(|i| f.triangle(i).map(|t| t.vertices())),
        f.aabb(),
    );
    let tally = check_queries(
        "heightfield",
        &soup,
        &|r, t| f.ray_cast(r, t).map(|h| (h.t, h.triangle)),
        &|p| f.closest_point(p, f32::INFINITY).map(|c| c.distance),
        &|b| {
            let mut v = Vec::new();
            f.triangles_touching(b, &mut v);
            v
        },
        f.aabb(),
        7,
    );
    assert!(tally.hits * 5 > tally.checked);
    check_mesh("heightfield as mesh", heightfield_mesh(&f), 8);
}

#[test]
fn rays_straight_down_onto_a_heightfield_hit_every_cell() {
    // Vertical rays (zero x and z direction) through sample points, edges and cell centres.
    let (rows, cols) = (9, 12);
    let f = Heightfield::try_new(
        terrain_heights(rows, cols),
        rows,
        cols,
        Vec3::new(11.0, 1.0, 8.0),
    )
    .unwrap();
    let b = f.aabb();
    for r in 0..=4 * (rows - 1) {
        for c in 0..=4 * (cols - 1) {
            let x = b.min.x + (b.max.x - b.min.x) * c as f32 / (4 * (cols - 1)) as f32;
            let z = b.min.z + (b.max.z - b.min.z) * r as f32 / (4 * (rows - 1)) as f32;
            let ray = Ray::new(Vec3::new(x, b.max.y + 1.0, z), Vec3::NEG_Y);
            let hit = f.ray_cast(&ray, 100.0);
            assert!(hit.is_some(), "no hit at ({x}, {z})");
        }
    }
}

/// How many of the contacts have a normal more than 1° from `+y`.
fn ghosts(contacts: &[MeshContact]) -> usize {
    let cos1 = 1f32.to_radians().cos();
    contacts.iter().filter(|c| c.normal.y < cos1).count()
}

#[test]
fn no_ghost_normals_on_flat_floors_as_mesh_and_heightfield() {
    let mut g = Gen::new(40);
    let mesh = MeshCollider::try_new(level::random_diagonal_floor(40, &mut g)).unwrap();
    mesh.validate().unwrap();
    let field =
        Heightfield::try_new(vec![0.0; 41 * 41], 41, 41, Vec3::new(40.0, 1.0, 40.0)).unwrap();
    let n = common::cases(3000, 30_000);
    let depth = 0.01;
    let mut totals = [(0usize, 0usize, 0usize); 2];
    for case in 0..n {
        let xz = Vec3::new(g.range(-18.0, 18.0), 0.0, g.range(-18.0, 18.0));
        let q = g.quat();
        let size = g.range(0.05, 1.5);
        let mut shapes_out: [Vec<MeshContact>; 2] = [Vec::new(), Vec::new()];
        let kind = case % 3;
        for (which, out) in shapes_out.iter_mut().enumerate() {
            match kind {
                0 => {
                    let h = Vec3::new(size, size * 0.6, size * 0.8);
                    let rot = Obb::new(Vec3::ZERO, q, h);
                    // Lowest corner's depth below the centre: sum of |axis_i.y| h_i.
                    let low = (0..3).map(|i| rot.axes.col(i).y.abs() * h[i]).sum::<f32>();
                    let b = Obb::new(xz + Vec3::Y * (low - depth), q, h);
                    if which == 0 {
                        mesh.contacts(&b, 0.0, out);
                    } else {
                        field.contacts(&b, 0.0, out);
                    }
                }
                1 => {
                    let s = Sphere::new(xz + Vec3::Y * (size - depth), size);
                    if which == 0 {
                        mesh.contacts(&s, 0.0, out);
                    } else {
                        field.contacts(&s, 0.0, out);
                    }
                }
                _ => {
                    let axis = q * Vec3::Y * size;
                    let r = size * 0.4;
                    let centre = xz + Vec3::Y * (axis.y.abs() + r - depth);
                    let c = Capsule::new(centre - axis, centre + axis, r);
                    if which == 0 {
                        mesh.contacts(&c, 0.0, out);
                    } else {
                        field.contacts(&c, 0.0, out);
                    }
                }
            }
        }
        for (which, out) in shapes_out.iter().enumerate() {
            let t = &mut totals[which];
            t.0 += out.len();
            t.1 += ghosts(out);
            t.2 += usize::from(out.is_empty());
            for c in out {
                assert!(
                    (c.depth - depth).abs() < 2e-3,
                    "case {case} ({}): depth {c:?}",
                    ["mesh", "heightfield"][which]
                );
            }
        }
    }
    println!("mesh contacts/ghosts/empty: {:?}", totals[0]);
    println!("heightfield contacts/ghosts/empty: {:?}", totals[1]);
    for (which, t) in totals.iter().enumerate() {
        let what = ["mesh", "heightfield"][which];
        assert_eq!(t.1, 0, "{what}: ghost normals among {} contacts", t.0);
        assert_eq!(t.2, 0, "{what}: shapes resting 1 cm deep with no contact");
    }
}

/// The first `u` in `[0, 1]` at which a sphere of radius `r` moving from `c` by `m` touches
/// any triangle: 400 samples, then bisection on the first bracket (f64 brute force).
///
/// The starting-touch rule per triangle: a triangle the sphere touches at `u = 0` is hit at 0
/// when the motion approaches it along the contact normal (from the closest point toward the
/// centre), and is left out otherwise (its distance never decreases: it is convex in `u` with
/// a non-negative slope at 0).
fn sphere_cast64(tris: &[[DVec3; 3]], c: DVec3, m: DVec3, r: f64) -> Option<f64> {
    let mut far = Vec::with_capacity(tris.len());
    for t in tris.iter().filter(|t| t[0].is_finite()) {
        let d = c - common::triangle_closest(c, *t);
        if d.length() > r {
            far.push(*t);
        } else if m.dot(d) < -f64::from(collide::sweep::ALONG_TOLERANCE) * m.length() * d.length() {
            return Some(0.0);
        }
    }
    let gap = |u: f64| {
        let p = c + m * u;
        far.iter()
            .map(|t| (common::triangle_closest(p, *t) - p).length())
            .fold(f64::INFINITY, f64::min)
            - r
    };
    let steps = 400;
    let mut prev = 0.0;
    for k in 1..=steps {
        let u = f64::from(k) / f64::from(steps);
        if gap(u) <= 0.0 {
            let (mut lo, mut hi) = (prev, u);
            for _ in 0..50 {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = u;
    }
    None
}

#[test]
fn sphere_casts_are_never_late_and_never_miss() {
    let bunny = io::load(mesh_path("bunny.obj")).unwrap().merged();
    let mesh = MeshCollider::try_new(bunny).unwrap();
    let (rows, cols) = (17, 23);
    let field = Heightfield::try_new(
        terrain_heights(rows, cols),
        rows,
        cols,
        Vec3::new(20.0, 1.0, 15.0),
    )
    .unwrap();
    let cases = common::cases(60, 2000);
    for (name, aabb, tris, cast) in [
        (
            "bunny",
            mesh.aabb(),
            (0..mesh.triangles().len() as u32)
                .map(|i| mesh.triangle(i).unwrap().vertices().map(dv))
                .collect::<Vec<_>>(),
            &(|s: &Sphere, m: Vec3| mesh.cast_shape(s, m))
                as &dyn Fn(&Sphere, Vec3) -> Option<MeshShapeHit>,
        ),
        (
            "terrain",
            field.aabb(),
            (0..field.triangle_count() as u32)
                .filter_map(|i| Some(field.triangle(i)?.vertices().map(dv)))
                .collect::<Vec<_>>(),
            &(|s: &Sphere, m: Vec3| field.cast_shape(s, m))
                as &dyn Fn(&Sphere, Vec3) -> Option<MeshShapeHit>,
        ),
    ] {
        let mut g = Gen::new(31);
        let (c, h) = (aabb.center(), aabb.half_extents());
        let size = aabb.size().length();
        let mut hits = 0;
        for case in 0..cases {
            let start = c + g.vec(1.0) * h * 1.5;
            let target = c + g.vec(1.0) * h;
            let r = size * g.range(0.005, 0.05);
            let s = Sphere::new(start, r);
            let motion = target - start;
            let got = cast(&s, motion);
            let want = sphere_cast64(&tris, dv(start), dv(motion), f64::from(r));
            let tol = 1e-4;
            match (got, want) {
                (Some(h), Some(w)) => {
                    hits += 1;
                    assert!(
                        f64::from(h.toi) <= w + tol,
                        "{name} case {case}: late, toi {} vs f64 {w}",
                        h.toi
                    );
                    assert!(
                        f64::from(h.toi) >= w - 1e-3,
                        "{name} case {case}: early, toi {} vs f64 {w}",
                        h.toi
                    );
                }
                (None, Some(w)) => panic!("{name} case {case}: missed a hit at {w}"),
                (Some(h), None) => {
                    // Only a graze the sampled oracle could step over: touching within tol.
                    let p = dv(start + motion * h.toi);
                    let gap = tris
                        .iter()
                        .map(|t| (common::triangle_closest(p, *t) - p).length())
                        .fold(f64::INFINITY, f64::min)
                        - f64::from(r);
                    assert!(
                        gap <= 1e-4 * f64::from(size),
                        "{name} case {case}: {h:?}, gap {gap}"
                    );
                }
                (None, None) => {}
            }
        }
        assert!(hits * 4 > cases, "{name}: only {hits} hits of {cases}");
    }
}

/// The largest separating gap of two triangles over the 17 axes of the triangle–triangle SAT
/// in f64 (both normals, the 9 edge cross products, each normal crossed with every edge for
/// coplanar pairs): `<= 0` touching.
fn triangle_gap64(a: [DVec3; 3], b: [DVec3; 3]) -> f64 {
    let edges = |t: [DVec3; 3]| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (ea, eb) = (edges(a), edges(b));
    let (na, nb) = (ea[0].cross(ea[1]), eb[0].cross(eb[1]));
    let mut axes = vec![na, nb];
    for x in ea {
        for y in eb {
            axes.push(x.cross(y));
        }
    }
    for e in ea.iter().chain(eb.iter()) {
        axes.push(na.cross(*e));
        axes.push(nb.cross(*e));
    }
    let mut gap = f64::NEG_INFINITY;
    for axis in axes {
        let len = axis.length();
        if len < 1e-12 {
            continue;
        }
        let u = axis / len;
        let (lo_a, hi_a) = a
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                (l.min(p.dot(u)), h.max(p.dot(u)))
            });
        let (lo_b, hi_b) = b
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                (l.min(p.dot(u)), h.max(p.dot(u)))
            });
        gap = gap.max(lo_b - hi_a).max(lo_a - hi_b);
    }
    gap
}

#[test]
fn mesh_against_mesh_agrees_with_brute_force_over_triangle_pairs() {
    let load = |name: &str| MeshCollider::try_new(io::load(mesh_path(name)).unwrap().merged());
    let torus = load("torus.obj").unwrap();
    let mut g = Gen::new(77);
    let (mut hits, mut misses) = (0, 0);
    for (other_name, other) in [
        ("cube", load("cube.obj").unwrap()),
        ("jenga", load("jenga.obj").unwrap()),
    ] {
        let size = torus.aabb().size().length();
        let band = 1e-5 * f64::from(size);
        let tris_a: Vec<[DVec3; 3]> = (0..torus.triangles().len() as u32)
            .map(|i| torus.triangle(i).unwrap().vertices().map(dv))
            .collect();
        for case in 0..common::cases(40, 400) {
            let q = g.quat();
            let t = torus.aabb().center() + g.vec(1.0) * torus.aabb().half_extents() * 2.5;
            let m = glam::DAffine3::from_rotation_translation(q.as_dquat(), dv(t));
            let tris_b: Vec<[DVec3; 3]> = (0..other.triangles().len() as u32)
                .map(|i| {
                    other
                        .triangle(i)
                        .unwrap()
                        .vertices()
                        .map(|p| m.transform_point3(dv(p)))
                })
                .collect();
            let min_gap = tris_a
                .iter()
                .flat_map(|a| tris_b.iter().map(move |b| triangle_gap64(*a, *b)))
                .fold(f64::INFINITY, f64::min);
            let got = torus.intersects_mesh(&other, q, t);
            if min_gap.abs() > band {
                assert_eq!(
                    got,
                    min_gap <= 0.0,
                    "{other_name} case {case}: gap {min_gap}"
                );
            }
            if got {
                hits += 1;
            } else {
                misses += 1;
            }
        }
    }
    assert!(hits > 10 && misses > 10, "{hits} hits, {misses} misses");
}

/// The first `u` in `[0, 1]` at which a probe moving by its motion touches any triangle:
/// `gap(u)`, the f64 SAT gap of the moved probe to the nearest triangle, `<= 0`. 400 samples,
/// then bisection on the first bracket. `None` also when the probe touches a triangle at the
/// start (those cases are left to the starting-touch test).
fn cast64(gap: impl Fn(f64) -> f64) -> Option<f64> {
    let steps = 400;
    let mut prev = 0.0;
    for k in 1..=steps {
        let u = f64::from(k) / f64::from(steps);
        if gap(u) <= 0.0 {
            let (mut lo, mut hi) = (prev, u);
            for _ in 0..50 {
                let mid = 0.5 * (lo + hi);
                if gap(mid) <= 0.0 {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = u;
    }
    None
}

/// A shape seen only through its support points (and its margin and core): queries take the
/// general path (GJK/EPA, conservative advancement), not the exact box or sphere ones.
struct SupportOnly<S>(S);

impl<S: collide::convex::SupportMap> collide::convex::SupportMap for SupportOnly<S> {
    fn support(&self, dir: Vec3) -> Vec3 {
        self.0.support(dir)
    }
    fn margin(&self) -> f32 {
        self.0.margin()
    }
    fn core_support(&self, dir: Vec3) -> Vec3 {
        self.0.core_support(dir)
    }
    fn interior_point(&self) -> Vec3 {
        self.0.interior_point()
    }
}

/// Probes cast at the bunny and across a terrain: the exact sweep agrees with the f64
/// brute-force sweep over every triangle ([`cast64`]: never late, early by at most 1e-4 of
/// the motion, the point on both surfaces) and with the general path's convex sweep (on
/// support points only). `make` draws a probe of size `s` at a point.
fn casts_agree_with_brute_force_and_with_the_general_path<P: Probe>(
    make: impl Fn(&mut Gen, Vec3, f32) -> P,
) {
    use collide::convex::SupportMap;
    let bunny = io::load(mesh_path("bunny.obj")).unwrap().merged();
    let mesh = MeshCollider::try_new(bunny).unwrap();
    let (rows, cols) = (17, 23);
    let field = Heightfield::try_new(
        terrain_heights(rows, cols),
        rows,
        cols,
        Vec3::new(20.0, 1.0, 15.0),
    )
    .unwrap();
    let cases = common::cases(60, 2000);
    type Cast<'a> = &'a dyn Fn(&dyn SupportMap, Vec3) -> Option<MeshShapeHit>;
    for (name, aabb, tris, cast) in [
        (
            "bunny",
            mesh.aabb(),
            (0..mesh.triangles().len() as u32)
                .map(|i| mesh.triangle(i).unwrap().vertices().map(dv))
                .collect::<Vec<_>>(),
            &(|s: &dyn SupportMap, m: Vec3| mesh.cast_shape(s, m)) as Cast<'_>,
        ),
        (
            "terrain",
            field.aabb(),
            (0..field.triangle_count() as u32)
                .filter_map(|i| Some(field.triangle(i)?.vertices().map(dv)))
                .collect::<Vec<_>>(),
            &(|s: &dyn SupportMap, m: Vec3| field.cast_shape(s, m)) as Cast<'_>,
        ),
    ] {
        let mut g = Gen::new(33);
        let (c, h) = (aabb.center(), aabb.half_extents());
        let size = aabb.size().length();
        let (mut hits, mut checked) = (0, 0);
        for case in 0..cases {
            let start = c + g.vec(1.0) * h * 1.5;
            let target = c + g.vec(1.0) * h;
            let s = size * g.range(0.005, 0.05);
            let b = make(&mut g, start, s);
            let motion = target - start;
            let touching_at_start = tris.iter().any(|t| b.gap(*t) <= 1e-6 * f64::from(size));
            if touching_at_start {
                continue;
            }
            checked += 1;
            let got = cast(&b, motion);
            let general = cast(&b.general(), motion);
            // The SAT gap of the probe at `u` to the nearest triangle.
            let gap_at = |u: f32| {
                let moved = b.moved(motion * u);
                tris.iter()
                    .map(|t| moved.gap(*t))
                    .fold(f64::INFINITY, f64::min)
            };
            let want = cast64(|u| gap_at(u as f32));
            let band = 1e-4 * f64::from(size);
            match (got, want) {
                (Some(hit), Some(w)) => {
                    hits += 1;
                    let toi = f64::from(hit.toi);
                    assert!(
                        toi <= w + 1e-4,
                        "{name} case {case}: late, {toi} vs f64 {w}"
                    );
                    assert!(
                        toi >= w - 1e-4,
                        "{name} case {case}: early, {toi} vs f64 {w}"
                    );
                    assert!(
                        (hit.normal.length() - 1.0).abs() < 1e-5,
                        "{name} case {case}"
                    );
                    // The point touches the probe at `toi` and the surface.
                    let p = dv(hit.point);
                    let to_box = b.moved(motion * hit.toi).outside(hit.point);
                    let to_surface = tris
                        .iter()
                        .map(|t| (common::triangle_closest(p, *t) - p).length())
                        .fold(f64::INFINITY, f64::min);
                    assert!(
                        to_box <= band && to_surface <= band,
                        "{name} case {case}: point {hit:?}, {to_box} from the box, \
                         {to_surface} from the surface"
                    );
                }
                (None, Some(w)) => panic!("{name} case {case}: missed a hit at {w}"),
                (Some(hit), None) => {
                    // Only a graze the sampled oracle could step over.
                    assert!(
                        gap_at(hit.toi) <= band,
                        "{name} case {case}: {hit:?}, gap {}",
                        gap_at(hit.toi)
                    );
                }
                (None, None) => {}
            }
            // The exact sweep is within the general sweep's touching gap of it.
            match (got, general) {
                (Some(x), Some(y)) => assert!(
                    (x.toi - y.toi).abs() <= 1e-3,
                    "{name} case {case}: exact {x:?} vs general {y:?}"
                ),
                (None, None) => {}
                (x, y) => {
                    let u = x.or(y).map_or(0.0, |h| h.toi);
                    assert!(
                        gap_at(u) <= band,
                        "{name} case {case}: exact {x:?} vs general {y:?}"
                    );
                }
            }
        }
        assert!(
            checked * 2 > cases,
            "{name}: only {checked} of {cases} start apart"
        );
        assert!(hits * 4 > checked, "{name}: only {hits} hits of {checked}");
    }
}

#[test]
fn box_casts_agree_with_brute_force_and_with_conservative_advancement() {
    casts_agree_with_brute_force_and_with_the_general_path(|g, at, s| {
        Obb::new(at, g.quat(), Vec3::new(s, s * 0.7, s * 0.4))
    });
}

/// A hull of 24 random points in a box of size `s` (flattened 1 : 0.7 : 0.4), turned at
/// random and placed at `at`: the hull probe of the cast and contact oracles.
fn random_hull(g: &mut Gen, at: Vec3, s: f32) -> PlacedHull {
    let points: Vec<Vec3> = (0..24)
        .map(|_| g.vec(1.0) * Vec3::new(s, s * 0.7, s * 0.4))
        .collect();
    PlacedHull::new(
        collide::convex::ConvexHull::try_new(&points).unwrap(),
        g.quat(),
        at,
    )
}

#[test]
fn hull_casts_agree_with_brute_force_and_with_the_general_path() {
    casts_agree_with_brute_force_and_with_the_general_path(random_hull);
}

#[test]
fn cast_ties_go_to_the_smallest_index() {
    // Boxes, spheres and hulls cast at the bunny: the hit is the least time over every
    // triangle cast alone, and of the triangles at that time the smallest index. A shape
    // meeting an edge or a corner meets several triangles at one time; the test of each
    // rounds its time to f32 once, so a tie may lie a rounding past the best time in f64, and
    // the search must look that far (it did not, and answered a larger index for spheres and
    // for 13 of 512 hull casts of the benchmark).
    use collide::convex::SupportMap;
    let bunny = io::load(mesh_path("bunny.obj")).unwrap().merged();
    let mesh = MeshCollider::try_new(bunny).unwrap();
    let alone: Vec<MeshCollider> = (0..mesh.triangles().len() as u32)
        .map(|i| {
            let t = mesh.triangle(i).unwrap().vertices();
            MeshCollider::try_new(TriMesh::new(t.to_vec(), vec![[0, 1, 2]])).unwrap()
        })
        .collect();
    let (c, h) = (mesh.aabb().center(), mesh.aabb().half_extents());
    let size = mesh.aabb().size().length();
    let mut g = Gen::new(29);
    let mut ties = 0;
    for case in 0..common::cases(300, 3000) {
        let start = c + g.vec(1.0) * h * 2.0;
        let motion = c + g.vec(1.0) * h - start;
        let s = size * g.range(0.01, 0.05);
        let shape: Box<dyn SupportMap> = match case % 3 {
            0 => Box::new(Obb::new(start, g.quat(), Vec3::new(s, s * 0.7, s * 0.4))),
            1 => Box::new(Sphere::new(start, s)),
            _ => Box::new(random_hull(&mut g, start, s)),
        };
        let times: Vec<Option<f32>> = alone
            .iter()
            .map(|one| one.cast_shape(shape.as_ref(), motion).map(|hit| hit.toi))
            .collect();
        let least = times
            .iter()
            .flatten()
            .copied()
            .fold(f32::INFINITY, f32::min);
        let first = times.iter().position(|&t| t == Some(least));
        let got = mesh.cast_shape(shape.as_ref(), motion);
        assert_eq!(
            got.map(|hit| (hit.toi, hit.triangle)),
            first.map(|i| (least, i as u32)),
            "case {case}"
        );
        ties += usize::from(times.iter().filter(|&&t| t == Some(least)).count() > 1);
    }
    assert!(ties >= 5, "only {ties} casts met several triangles at once");
}

#[test]
fn a_box_on_a_floor_slides_along_it_and_hits_when_pushed_in() {
    // Two triangles, 20 x 20 at y = 0 (a new triangle's first touch is a contact: one floor
    // triangle under the whole slide).
    let corners = [(-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)];
    let floor = MeshCollider::try_new(TriMesh::new(
        corners.map(|(x, z)| Vec3::new(x, 0.0, z)).to_vec(),
        vec![[0, 2, 1], [0, 3, 2]],
    ))
    .unwrap();
    let b = Obb::new(
        Vec3::new(0.3, 0.5, 0.2),
        collide::Quat::IDENTITY,
        Vec3::splat(0.5),
    );
    // Resting on y = 0 and sliding (the diagonal stays ahead of it): no hit; pressed into it:
    // a hit at 0 with the face normal.
    assert!(floor.cast_shape(&b, Vec3::new(2.0, 0.0, -4.0)).is_none());
    let hit = floor.cast_shape(&b, Vec3::new(1.0, -0.5, 0.0)).unwrap();
    assert_eq!(hit.toi, 0.0);
    assert!((hit.normal - Vec3::Y).length() < 1e-5, "{hit:?}");
    // Lifted by 0.25 and dropped by 1: touches at a quarter of the way.
    let up = Obb {
        center: b.center + Vec3::Y * 0.25,
        ..b
    };
    let hit = floor.cast_shape(&up, Vec3::new(0.5, -1.0, 0.0)).unwrap();
    assert!((hit.toi - 0.25).abs() < 1e-6, "{hit:?}");
    assert!((hit.normal - Vec3::Y).length() < 1e-5, "{hit:?}");
    assert!(hit.point.y.abs() < 1e-5, "{hit:?}");
}

/// A probe of the contact oracles: the shape, its general-path twin (support points only),
/// and the f64 separating-axis gap of the shape and a triangle.
trait Probe: collide::convex::SupportMap + Sized {
    fn general(&self) -> SupportOnly<&Self> {
        SupportOnly(self)
    }
    fn gap(&self, tri: [DVec3; 3]) -> f64;
    /// The probe moved by `by`.
    fn moved(&self, by: Vec3) -> Self;
    /// How far `p` lies outside the probe (0 inside); for a hull, at most that (the largest
    /// height over its faces' planes).
    fn outside(&self, p: Vec3) -> f64;
}

impl Probe for Obb {
    fn gap(&self, tri: [DVec3; 3]) -> f64 {
        common::sat_triangle_box(tri, &Box64::from_obb(self))
    }
    fn moved(&self, by: Vec3) -> Obb {
        Obb {
            center: self.center + by,
            ..*self
        }
    }
    fn outside(&self, p: Vec3) -> f64 {
        (dv(collide::closest::point_obb(p, self)) - dv(p)).length()
    }
}

/// A hull placed in the world, with its vertices, face normals, edges and bounding ball in
/// the world in f64.
struct PlacedHull {
    hull: std::sync::Arc<collide::convex::ConvexHull>,
    rotation: collide::Quat,
    at: Vec3,
    vertices: Vec<DVec3>,
    normals: Vec<DVec3>,
    edges: Vec<DVec3>,
    ball: (DVec3, f64),
}

impl PlacedHull {
    fn new(hull: collide::convex::ConvexHull, rotation: collide::Quat, at: Vec3) -> PlacedHull {
        let posed = collide::convex::Posed::new(&hull, rotation, at);
        let vertices: Vec<DVec3> = hull
            .vertices()
            .iter()
            .map(|&v| dv(posed.to_world(v)))
            .collect();
        let normals = hull
            .faces()
            .iter()
            .map(|f| dv(posed.rotation * f.plane.normal))
            .collect();
        let edges = hull
            .edges()
            .iter()
            .map(|e| vertices[e.vertices[1] as usize] - vertices[e.vertices[0] as usize])
            .collect();
        let (c, r) = hull.outer_ball();
        let ball = (dv(posed.to_world(c)), f64::from(r));
        PlacedHull {
            hull: std::sync::Arc::new(hull),
            rotation,
            at,
            vertices,
            normals,
            edges,
            ball,
        }
    }

    fn posed(&self) -> collide::convex::Posed<&collide::convex::ConvexHull> {
        collide::convex::Posed::new(&*self.hull, self.rotation, self.at)
    }
}

impl collide::convex::SupportMap for PlacedHull {
    fn support(&self, dir: Vec3) -> Vec3 {
        self.posed().support(dir)
    }
    fn interior_point(&self) -> Vec3 {
        self.posed().interior_point()
    }
    fn as_hull(&self) -> Option<collide::convex::Posed<&collide::convex::ConvexHull>> {
        Some(self.posed())
    }
}

impl Probe for PlacedHull {
    fn moved(&self, by: Vec3) -> PlacedHull {
        let shift = dv(by);
        PlacedHull {
            hull: self.hull.clone(),
            at: self.at + by,
            vertices: self.vertices.iter().map(|v| *v + shift).collect(),
            normals: self.normals.clone(),
            edges: self.edges.clone(),
            ball: (self.ball.0 + shift, self.ball.1),
            ..*self
        }
    }
    fn outside(&self, p: Vec3) -> f64 {
        let posed = self.posed();
        let local = posed.rotation.transpose() * (p - posed.translation);
        f64::from(self.hull.signed_distance_bound(local).max(0.0))
    }
    /// Exact when the hull's bounding ball comes within its radius of the triangle's box;
    /// farther, the ball's distance to the box (a lower bound larger than the radius).
    fn gap(&self, tri: [DVec3; 3]) -> f64 {
        let (lo, hi) = (
            tri[0].min(tri[1]).min(tri[2]),
            tri[0].max(tri[1]).max(tri[2]),
        );
        let (c, r) = self.ball;
        let beyond = (c - c.clamp(lo, hi)).length() - r;
        if beyond > r {
            return beyond;
        }
        let sides = [tri[1] - tri[0], tri[2] - tri[1], tri[0] - tri[2]];
        let mut axes = vec![sides[0].cross(sides[1])];
        axes.extend_from_slice(&self.normals);
        for e in &self.edges {
            axes.extend(sides.iter().map(|g| e.cross(*g)));
        }
        common::sat_gap_over(&axes, &self.vertices, &tri)
    }
}

/// Probes overlapping the real meshes' surfaces: the exact path (separating axes) and the
/// general one (GJK/EPA on support points) report the same triangles, depths and corrected
/// normals, and a triangle is reported exactly when the f64 separating-axis test says it
/// touches the probe. `make` draws a probe of size `s` at a point.
fn contacts_agree_with_the_general_path<P: Probe>(
    seed: u64,
    make: impl Fn(&mut Gen, Vec3, f32) -> P,
) {
    for (k, file) in REAL_MESHES.iter().enumerate() {
        let Ok(mesh) = io::load(mesh_path(file)) else {
            continue;
        };
        let Ok(m) = MeshCollider::try_new(mesh.merged()) else {
            continue;
        };
        let size = m.aabb().size().length();
        let band = 1e-4 * f64::from(size);
        let mut g = Gen::new(seed + k as u64);
        let count = m.triangles().len() as f32;
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        let (mut reported, mut compared, mut differ) = (0, 0, 0);
        for case in 0..common::cases(150, 3000) {
            let t = m.triangle(g.range(0.0, count) as u32).unwrap();
            let s = size * g.range(0.01, 0.08);
            let at = t.centroid() + g.vec(1.0) * s * 0.5;
            let b = make(&mut g, at, s);
            fast.clear();
            general.clear();
            m.contacts(&b, 0.0, &mut fast);
            m.contacts(&b.general(), 0.0, &mut general);
            reported += fast.len();
            for c in &fast {
                let other = general.iter().find(|o| o.triangle == c.triangle);
                let gap = b.gap(m.triangle(c.triangle).unwrap().vertices().map(dv));
                assert!(gap <= band, "{file} case {case}: {c:?} but gap {gap}");
                let Some(o) = other else {
                    assert!(
                        gap >= -band,
                        "{file} case {case}: {c:?} only by the exact path"
                    );
                    continue;
                };
                // A probe centred on the triangle's plane overlaps it as deeply from either
                // side: either normal is right.
                let tri = m.triangle(c.triangle).unwrap();
                let face = (tri.b - tri.a).cross(tri.c - tri.a).normalize();
                let straddles = face.dot(at - tri.a).abs() <= 1e-4 * size;
                let same = (c.depth - o.depth).abs() <= 1e-4 * size
                    && (c.normal.dot(o.normal) >= 0.999
                        || c.depth.abs() <= 1e-4 * size
                        || (straddles && c.normal.dot(o.normal) <= -0.999));
                compared += 1;
                if !same {
                    differ += 1;
                    if k == 0 {
                        panic!("{file} case {case}: {c:?} vs general {o:?}");
                    }
                }
                assert!((c.normal.length() - 1.0).abs() < 1e-5);
            }
            for o in &general {
                if !fast.iter().any(|c| c.triangle == o.triangle) {
                    let gap = b.gap(m.triangle(o.triangle).unwrap().vertices().map(dv));
                    assert!(
                        gap.abs() <= band || o.depth.abs() <= 1e-4 * size,
                        "{file} case {case}: {o:?} only by the general path, gap {gap}"
                    );
                }
            }
        }
        assert!(reported > 0, "{file}: no contacts to compare");
        // Where two axes overlap almost equally deep, EPA's tolerance may take the other one,
        // and a different contact feature then gets a different internal-edge correction:
        // at most 1 in 10,000 contacts, never on the bunny.
        assert!(
            differ * 10_000 <= compared,
            "{file}: {differ} of {compared} contacts differ from the general path"
        );
        eprintln!("{file}: {differ} of {compared} contacts differ from the general path");
    }
}

#[test]
fn box_contacts_agree_with_the_general_path_and_with_brute_force() {
    // Boxes: in the long run 4 of 140,552 contacts differ on the teddy's overlapping hull
    // pieces, none on the other meshes.
    contacts_agree_with_the_general_path(50, |g, at, s| {
        Obb::new(at, g.quat(), Vec3::new(s, s * 0.7, s * 0.4))
    });
}

#[test]
fn hull_contacts_agree_with_the_general_path_and_with_brute_force() {
    // Hulls of 24 random points in a box of the probe's size, turned and placed: in the long
    // run 3 of 80,547 contacts differ on the teddy, none on the other meshes.
    contacts_agree_with_the_general_path(150, random_hull);
}

#[test]
fn sphere_contacts_agree_with_the_general_path() {
    // Spheres overlapping the real meshes' surfaces: the closest-point path and GJK on the
    // centre report the same triangles, depths and corrected normals, on every mesh but the
    // teddy's overlapping hull pieces, where GJK's touching tolerance moves a contact to
    // another feature now and then (1 of 145,698 in the long run; at most 1 in 10,000
    // allowed).
    for (k, file) in REAL_MESHES.iter().enumerate() {
        let Ok(mesh) = io::load(mesh_path(file)) else {
            continue;
        };
        let Ok(m) = MeshCollider::try_new(mesh.merged()) else {
            continue;
        };
        let size = m.aabb().size().length();
        let tol = 1e-4 * size;
        let mut g = Gen::new(70 + k as u64);
        let count = m.triangles().len() as f32;
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        let (mut compared, mut differ) = (0, 0);
        for case in 0..common::cases(150, 3000) {
            let t = m.triangle(g.range(0.0, count) as u32).unwrap();
            let r = size * g.range(0.01, 0.08);
            let s = Sphere::new(t.centroid() + g.vec(1.0) * r, r);
            fast.clear();
            general.clear();
            m.contacts(&s, 0.0, &mut fast);
            m.contacts(&SupportOnly(s), 0.0, &mut general);
            for c in &fast {
                assert!((c.normal.length() - 1.0).abs() < 1e-5, "{file} case {case}");
                match general.iter().find(|o| o.triangle == c.triangle) {
                    Some(o) => {
                        compared += 1;
                        let same = (c.depth - o.depth).abs() <= tol
                            && (c.normal.dot(o.normal) >= 0.999 || c.depth.abs() <= tol);
                        if !same {
                            differ += 1;
                            assert!(k != 0, "{file} case {case}: {c:?} vs general {o:?}");
                        }
                    }
                    None => assert!(c.depth.abs() <= tol, "{file} case {case}: {c:?} alone"),
                }
            }
            for o in &general {
                assert!(
                    fast.iter().any(|c| c.triangle == o.triangle) || o.depth.abs() <= tol,
                    "{file} case {case}: {o:?} only by the general path BITS {:x?} {:x}",
                    s.center.to_array().map(f32::to_bits),
                    s.radius.to_bits()
                );
            }
        }
        assert!(compared > 0, "{file}: no contacts to compare");
        eprintln!("{file}: {differ} of {compared} sphere contacts differ from the general path");
        assert!(
            differ * 10_000 <= compared,
            "{file}: {differ} of {compared} contacts differ from the general path"
        );
    }
}

#[test]
fn box_and_sphere_casts_and_contacts_survive_bad_input() {
    // NaN, infinite, huge, empty and inside-out probes, and a sliver triangle beside a floor:
    // no panic, and every answer finite with a unit normal.
    let mut mesh = level::floor(2, |_, _| true);
    let base = mesh.vertices.len() as u32;
    mesh.vertices.extend([
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(1e-3, 1.0, 0.0),
        Vec3::new(1.0, 1.0 + 1e-7, 0.0),
    ]);
    mesh.triangles.push([base, base + 1, base + 2]);
    let m = MeshCollider::try_new(mesh).unwrap();
    let field = Heightfield::try_new(vec![0.0, 1.0, f32::NAN, 0.5], 2, 2, Vec3::ONE).unwrap();
    let values = [
        0.0,
        0.5,
        -1.0,
        1e-30,
        1e30,
        f32::MAX,
        f32::NAN,
        f32::INFINITY,
    ];
    let q = collide::Quat::from_rotation_y(0.3);
    let mut out = Vec::new();
    for &a in &values {
        for &b in &values {
            let centre = Vec3::new(0.2, a, 0.1);
            let motion = Vec3::new(b, -1.0, 0.3);
            let half = Vec3::new(a.abs().min(2.0), 0.3, b);
            let probes: [&dyn collide::convex::SupportMap; 2] =
                [&Obb::new(centre, q, half), &Sphere::new(centre, b)];
            for probe in probes {
                for hit in [m.cast_shape(probe, motion), field.cast_shape(probe, motion)]
                    .into_iter()
                    .flatten()
                {
                    assert!(
                        hit.toi.is_finite() && (0.0..=1.0).contains(&hit.toi),
                        "{hit:?}"
                    );
                    assert!(hit.point.is_finite(), "{hit:?}");
                    assert!((hit.normal.length() - 1.0).abs() < 1e-4, "{hit:?}");
                }
                out.clear();
                m.contacts(probe, 0.0, &mut out);
                field.contacts(probe, 0.0, &mut out);
                for c in &out {
                    assert!(c.depth.is_finite() && c.point.is_finite(), "{c:?}");
                    assert!((c.normal.length() - 1.0).abs() < 1e-4, "{c:?}");
                }
            }
        }
    }
}

/// The index in `m` (tree order) of the triangle with these corners (their bits, in the
/// triangle's order): the regressions name their triangle by its corners, so that a change of
/// the tree's order does not move them to another.
fn triangle_with_corners(m: &MeshCollider, corners: [[u32; 3]; 3]) -> u32 {
    let want = corners.map(|c| Vec3::from(c.map(f32::from_bits)));
    (0..m.triangles().len() as u32)
        .find(|&i| m.triangle(i).is_some_and(|t| [t.a, t.b, t.c] == want))
        .unwrap_or_else(|| panic!("no triangle with corners {want:?}"))
}

/// The box path's and the general path's contacts of a box (given by its bits) with the
/// bunny, and the one triangle expected among them (given by its corners' bits): the same
/// triangles, depths and corrected normals.
fn bunny_box_paths_agree(
    centre: [u32; 3],
    axes: [[u32; 3]; 3],
    half: [u32; 3],
    corners: [[u32; 3]; 3],
) {
    let m = MeshCollider::try_new(io::load(mesh_path("bunny.obj")).unwrap().merged()).unwrap();
    let triangle = triangle_with_corners(&m, corners);
    let v = |b: [u32; 3]| Vec3::from(b.map(f32::from_bits));
    let b = Obb {
        center: v(centre),
        axes: collide::Mat3::from_cols(v(axes[0]), v(axes[1]), v(axes[2])),
        half_extents: v(half),
    };
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    m.contacts(&b, 0.0, &mut fast);
    m.contacts(&SupportOnly(b), 0.0, &mut general);
    let tol = 1e-4 * m.aabb().size().length();
    assert!(fast.iter().any(|c| c.triangle == triangle), "{fast:?}");
    for c in &fast {
        let o = general.iter().find(|o| o.triangle == c.triangle);
        let o = o.unwrap_or_else(|| panic!("{c:?} only by the box path"));
        assert!(
            (c.depth - o.depth).abs() <= tol && c.normal.dot(o.normal) >= 0.999,
            "{c:?} vs general {o:?}"
        );
    }
}

#[test]
fn a_box_face_on_a_triangle_edge_gets_the_general_paths_corrected_normal() {
    // Regression (bunny, long run case 959 of the box-contact oracle): a box face lying on
    // one of triangle 794's edges, tilted against the face. The box path's contact point was
    // the triangle's point closest to the box face's centre, inside the triangle, so the
    // correction took the face normal; the contact is on the edge (a concave one seen from
    // the box), where the general path's point is, and both must correct it the same way.
    bunny_box_paths_agree(
        [0x3e636762, 0x3f45d350, 0x3ee549db],
        [
            [0x3df015b0, 0xbf4eb822, 0xbf13feb4],
            [0x3f7d4b56, 0x3e147920, 0xbaf78f00],
            [0x3daeca24, 0xbf125fc2, 0x3f50e2c2],
        ],
        [0x3dddf131, 0x3d9b5c09, 0x3d318dc1],
        // Triangle 794 of the tree order the regression was found with.
        [
            [0x3e760136, 0x3f271844, 0x3eeeac64],
            [0x3e8b4699, 0x3f2ea971, 0x3ec54bad],
            [0x3e9f7a4e, 0x3f46a36a, 0x3e9df740],
        ],
    );
}

#[test]
fn a_box_face_over_a_triangle_corner_meets_it_at_the_corner() {
    // Regression (bunny, long run case 851 of the box-contact oracle): a box face over the
    // edge from corner 1 to corner 2 of triangle 582 and over corner 2 itself. The contact
    // is at the corner, whose convex edge keeps the box's normal (the general path's
    // answer); the middle of the edge's part over the face took the concave edge's face
    // normal instead.
    bunny_box_paths_agree(
        [0xbcc277ec, 0xbe403db8, 0x3f59d22e],
        [
            [0x3ec1f5b6, 0x3ecff4fe, 0x3f54e22c],
            [0xbf332cb1, 0xbeec9ef0, 0x3f0b68f2],
            [0x3f1b01f6, 0xbf49cf44, 0x3ddfa490],
        ],
        [0x3d4f3be2, 0x3d111051, 0x3ca5c982],
        // Triangle 582 of the tree order the regression was found with.
        [
            [0xbb7a3769, 0xbe477532, 0x3f5fa69c],
            [0xbb86df83, 0xbe21b25f, 0x3f6e6794],
            [0xbd001f75, 0xbe3cfbfc, 0x3f63b4b3],
        ],
    );
}

#[test]
fn a_sphere_apart_from_a_concave_edge_gets_no_depth_from_that_triangle() {
    // A V-shaped crease: floor triangle A (y = 0, front +y) and wall B rising from their
    // shared edge (the z axis) toward +x, concave seen from above. A sphere pushed into the
    // wall, 0.02 from A's edge: within a margin of 0.05 A is reported, and its corrected
    // contact (the face normal, the edge being concave from the sphere's side) must stay
    // 0.02 apart, not take the 0.1 the sphere reaches below A's plane beside the triangle.
    let crease = TriMesh::new(
        vec![
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(-2.0, 0.0, 0.0),
            Vec3::new(2.0, 2.0, 0.0),
        ],
        vec![[0, 2, 1], [0, 1, 3]],
    );
    let m = MeshCollider::try_new(crease).unwrap();
    let floor = (0..2)
        .find(|&i| m.triangle(i).unwrap().vertices().iter().all(|p| p.y == 0.0))
        .unwrap();
    // The centre is 0.25 beside and 0.2 above the edge: 0.32 from it, 0.02 beyond the radius.
    let s = Sphere::new(Vec3::new(0.25, 0.2, 0.0), 0.25f32.hypot(0.2) - 0.02);
    let gap = 0.02;
    for general in [false, true] {
        let mut out = Vec::new();
        if general {
            m.contacts(&SupportOnly(s), 0.05, &mut out);
        } else {
            m.contacts(&s, 0.05, &mut out);
        }
        let c = out.iter().find(|c| c.triangle == floor);
        let c = c.unwrap_or_else(|| panic!("general {general}: no floor contact in {out:?}"));
        assert!(c.depth <= -gap + 1e-5, "general {general}: {c:?}");
        // The wall, which the sphere overlaps, still gives its contact.
        assert!(
            out.iter().any(|c| c.triangle != floor && c.depth > 0.0),
            "{out:?}"
        );
    }
}

#[test]
fn a_sphere_touching_a_concave_edge_within_gjk_tolerance_is_no_deep_contact() {
    // Regression (concave_box, long run case 966 of the sphere-contact oracle): a sphere
    // 1.2e-8 from triangle 130's concave edge. GJK calls that touching and the closest-point
    // path apart; the correction then gave GJK's touch the depth below the face's plane
    // (0.018), so the general path reported a deep contact the other did not.
    let m =
        MeshCollider::try_new(io::load(mesh_path("concave_box.obj")).unwrap().merged()).unwrap();
    let v =
        |x: u32, y: u32, z: u32| Vec3::new(f32::from_bits(x), f32::from_bits(y), f32::from_bits(z));
    let s = Sphere::new(
        v(0xbdf4261c, 0x3d95ff62, 0x3d4df193),
        f32::from_bits(0x3da5906f),
    );
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    m.contacts(&s, 0.0, &mut fast);
    m.contacts(&SupportOnly(s), 0.0, &mut general);
    let tol = 1e-4 * m.aabb().size().length();
    assert!(!fast.is_empty());
    for o in &general {
        assert!(
            fast.iter().any(|c| c.triangle == o.triangle) || o.depth.abs() <= tol,
            "{o:?} only by the general path"
        );
    }
}

#[test]
fn a_box_face_along_a_concave_edge_gets_one_answer_from_either_end() {
    // Regression (bunny, long run case 2040 of the box-contact oracle): a box face lying along
    // the concave edge from corner 2 to corner 0 of triangle 473. The box path's witness was
    // corner 0 (which also has a convex edge: the contact kept the box's normal), the general
    // path's corner 2 (both edges concave: the face normal). The contact is on the edge, so
    // both take the face normal.
    bunny_box_paths_agree(
        [0xbd8e5982, 0xbe5ca15a, 0x3f43907e],
        [
            [0x3f0b4efe, 0x3f297ef6, 0x3f03e8f6],
            [0xbf2996d8, 0xbd1ab500, 0x3f3f8684],
            [0x3f03ca40, 0xbf3f9ba6, 0x3ed60b60],
        ],
        [0x3daf3b32, 0x3d7552df, 0x3d0c2f5b],
        // Triangle 473 of the tree order the regression was found with.
        [
            [0xbd9d6f97, 0xbe5c215c, 0x3f3240c8],
            [0xbb32e9cd, 0xbe5aa68f, 0x3f30f6e0],
            [0xbb4d8559, 0xbe454046, 0x3f434257],
        ],
    );
}

#[test]
fn a_sphere_beside_a_flat_edge_gets_no_depth_from_that_triangle() {
    // Regression (teddy, long run case 1050 of the sphere-contact oracle): a sphere 8e-7 from
    // the flat edge of the sliver triangle 794, dipping 0.057 below its plane beyond the
    // triangle and its flat neighbour. GJK's touching tolerance gave the general path a
    // contact, which the correction turned into the plane's full depth: a deep contact with a
    // triangle the sphere does not reach. Neither path may report one.
    let m = MeshCollider::try_new(
        io::load(mesh_path("teddy2_VHACD_CHs.obj"))
            .unwrap()
            .merged(),
    )
    .unwrap();
    let v = |b: [u32; 3]| Vec3::from(b.map(f32::from_bits));
    let s = Sphere::new(
        v([0x3f126f34, 0x3f0dc9de, 0x3e833201]),
        f32::from_bits(0x3dc5ce85),
    );
    let tol = 1e-4 * m.aabb().size().length();
    let (mut fast, mut general) = (Vec::new(), Vec::new());
    m.contacts(&s, 0.0, &mut fast);
    m.contacts(&SupportOnly(s), 0.0, &mut general);
    // Triangle 794 of the tree order the regression was found with.
    let sliver = triangle_with_corners(
        &m,
        [
            [0x3ef31d93, 0x3f0394a7, 0x3ea792d1],
            [0x3f631562, 0x3f0394a7, 0x3ed6fb09],
            [0x3f64a772, 0x3f0394a7, 0x3ed059ea],
        ],
    );
    for c in fast.iter().chain(&general).filter(|c| c.triangle == sliver) {
        assert!(c.depth <= tol, "{c:?}");
    }
}

#[test]
fn closest_points_beside_slivers_are_the_nearest_triangles() {
    // Regression: a sliver's normal, found by an `f32` cross product of its nearly parallel
    // edges, was turned far beyond `f32` rounding, so the closest-point search's plane bound
    // passed over the sliver for a farther triangle (0.53 returned against 0.38). Meshes of
    // slivers (third corner 1.6e-7 to 1e-5 off the line of the other two), against the f64
    // distance to every triangle: 25 of 100,000 points were wrong before the fix.
    let mut g = Gen::new(7);
    let (mut checked, mut wrong) = (0, 0);
    for _ in 0..common::cases(2000, 20_000) {
        let mut mesh = TriMesh::default();
        for _ in 0..6 {
            let (a, b) = (g.vec(1.0), g.vec(1.0));
            let off = g.unit() * 10f32.powf(g.range(-6.8, -5.0));
            let c = a + (b - a) * g.range(0.0, 1.0) + off;
            let k = mesh.vertices.len() as u32;
            mesh.vertices.extend([a, b, c]);
            mesh.triangles.push([k, k + 1, k + 2]);
        }
        let Ok(m) = MeshCollider::try_new(mesh) else {
            continue;
        };
        let soup = Soup::of(
            (0..m.triangles().len() as u32).map(|i| m.triangle(i).map(|t| t.vertices())),
            m.aabb(),
        );
        for _ in 0..50 {
            let p = g.vec(1.5);
            let got = m
                .closest_point(p, f32::INFINITY)
                .map(|c| f64::from(c.distance));
            let want = soup.closest(dv(p));
            checked += 1;
            if got.is_none_or(|d| (d - want).abs() > 1e-6 * (1.0 + want)) {
                wrong += 1;
                eprintln!("p {p:?}: {got:?} against {want}");
            }
        }
    }
    assert!(checked > 50_000, "only {checked} points");
    assert_eq!(
        wrong, 0,
        "{wrong} of {checked} closest points not the nearest"
    );
}
