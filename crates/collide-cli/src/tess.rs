//! Triangle meshes of the primitive shapes, for drawing (never for collision).

use collide::Vec3;

/// A triangle mesh in a body's rest frame: positions and counter-clockwise index triples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TriList {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Triangles as indices into `positions`, counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

impl TriList {
    /// Appends a vertex and returns its index.
    fn push(&mut self, p: Vec3) -> u32 {
        self.positions.push(p);
        (self.positions.len() - 1) as u32
    }

    /// `true` when every edge is shared by exactly two triangles (a closed surface, whose back
    /// faces can be culled).
    pub fn is_closed(&self) -> bool {
        let mut e: Vec<[u32; 2]> = self
            .triangles
            .iter()
            .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
            .map(|[a, b]| [a.min(b), a.max(b)])
            .collect();
        e.sort_unstable();
        !e.is_empty() && e.chunk_by(|a, b| a == b).all(|c| c.len() == 2)
    }
}

/// A wireframe: positions and the edges between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wire {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Edges as index pairs.
    pub edges: Vec<[u32; 2]>,
}

/// A box centred on the origin: 8 corners, 12 triangles.
pub fn cuboid(half: Vec3) -> TriList {
    let mut m = TriList::default();
    for i in 0..8 {
        m.push(Vec3::new(
            if i & 1 == 0 { -half.x } else { half.x },
            if i & 2 == 0 { -half.y } else { half.y },
            if i & 4 == 0 { -half.z } else { half.z },
        ));
    }
    // Faces as corner quads, counter-clockwise seen from outside (bit 0 = x, 1 = y, 2 = z).
    let quads = [
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
    ];
    for q in quads {
        m.triangles.push([q[0], q[1], q[2]]);
        m.triangles.push([q[0], q[2], q[3]]);
    }
    m
}

/// A capsule along local `y` (core segment `±half_height`), or a sphere when
/// `half_height == 0`: `rings` latitude bands per hemisphere, `segments` around.
pub fn capsule(half_height: f32, radius: f32, rings: u32, segments: u32) -> TriList {
    let mut m = TriList::default();
    let rings = rings.max(2);
    let segments = segments.max(3);
    let top = m.push(Vec3::new(0.0, half_height + radius, 0.0));
    // Latitude rows from the top pole down: the upper hemisphere's rows sit at +half_height,
    // the lower one's at -half_height; the equator appears twice when half_height > 0,
    // which makes the cylinder band.
    let mut rows: Vec<(f32, f32)> = Vec::new(); // (y, ring radius)
    for i in 1..=rings {
        let phi = std::f32::consts::FRAC_PI_2 * i as f32 / rings as f32; // from the pole
        rows.push((half_height + radius * phi.cos(), radius * phi.sin()));
    }
    for i in (0..rings).rev() {
        let phi = std::f32::consts::FRAC_PI_2 * i as f32 / rings as f32;
        if i == 0 {
            break;
        }
        rows.push((-half_height - radius * phi.cos(), radius * phi.sin()));
    }
    if half_height > 0.0 {
        // Insert the lower equator right after the upper one.
        rows.insert(rings as usize, (-half_height, radius));
    }
    let mut row_start = Vec::new();
    for &(y, r) in &rows {
        row_start.push(m.positions.len() as u32);
        for s in 0..segments {
            let th = std::f32::consts::TAU * s as f32 / segments as f32;
            m.push(Vec3::new(r * th.cos(), y, -r * th.sin()));
        }
    }
    let bottom = m.push(Vec3::new(0.0, -half_height - radius, 0.0));
    let seg = segments;
    // Top cap fan.
    for s in 0..seg {
        let a = row_start[0] + s;
        let b = row_start[0] + (s + 1) % seg;
        m.triangles.push([top, a, b]);
    }
    // Bands between consecutive rows.
    for w in row_start.windows(2) {
        for s in 0..seg {
            let (a0, a1) = (w[0] + s, w[0] + (s + 1) % seg);
            let (b0, b1) = (w[1] + s, w[1] + (s + 1) % seg);
            m.triangles.push([a0, b0, b1]);
            m.triangles.push([a0, b1, a1]);
        }
    }
    // Bottom cap fan.
    let last = *row_start.last().unwrap_or(&0);
    for s in 0..seg {
        let a = last + s;
        let b = last + (s + 1) % seg;
        m.triangles.push([bottom, b, a]);
    }
    m
}

/// A sphere of the given radius around the origin.
pub fn sphere(radius: f32) -> TriList {
    capsule(0.0, radius, 10, 24)
}

/// A heightfield's triangles (holes left out), three vertices each, facing up.
pub fn heightfield(field: &collide::mesh::Heightfield) -> TriList {
    let mut out = TriList::default();
    for i in 0..field.triangle_count() as u32 {
        if let Some(t) = field.triangle(i) {
            let [a, b, c] = [t.a, t.b, t.c].map(|p| out.push(p));
            // Counter-clockwise seen from above: the face normal points up.
            let up = (t.b - t.a).cross(t.c - t.a).y >= 0.0;
            out.triangles.push(if up { [a, b, c] } else { [a, c, b] });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sum over triangles of the signed volume of (origin, triangle): the mesh's volume when
    /// it is closed and counter-clockwise from outside.
    fn volume(m: &TriList) -> f32 {
        m.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| m.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    fn closed(m: &TriList) -> bool {
        m.is_closed()
    }

    // The box mesh is closed, outward, and has the box's volume.
    #[test]
    fn cuboid_volume() {
        let m = cuboid(Vec3::new(1.0, 2.0, 3.0));
        assert!(closed(&m));
        assert!((volume(&m) - 48.0).abs() < 1e-4);
    }

    // The capsule mesh is closed, outward, and a little smaller than the true capsule.
    #[test]
    fn capsule_volume() {
        let (h, r) = (1.0f32, 0.5f32);
        let m = capsule(h, r, 8, 24);
        assert!(closed(&m));
        let exact =
            std::f32::consts::PI * r * r * (2.0 * h) + 4.0 / 3.0 * std::f32::consts::PI * r * r * r;
        let v = volume(&m);
        assert!(v > 0.93 * exact && v <= exact, "{v} vs {exact}");
        let s = sphere(1.0);
        assert!(closed(&s));
        let vs = volume(&s);
        assert!(vs > 0.93 * 4.19 && vs < 4.19, "{vs}");
    }
}
