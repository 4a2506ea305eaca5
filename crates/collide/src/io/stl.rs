//! STL, binary and ASCII. Each triangle carries its own corners; exactly equal positions are
//! shared (lossless: STL has no other notion of a shared vertex), as `stl_io`'s indexed mesh
//! does. Near-equal positions are left to [`crate::shapes::TriMesh::weld`].

use std::collections::HashMap;

use super::{check_limit, default_part_name, LoadError, Model, Part, MAX_TRIANGLES};
use crate::math::Vec3;
use crate::shapes::TriMesh;

/// Size of the binary header (80 bytes of anything, then a little-endian `u32` count).
const HEADER: usize = 84;
/// Size of one binary record: normal, 3 corners (12 `f32`), a `u16` attribute.
const RECORD: usize = 50;

/// Parses STL bytes, binary or ASCII; `file` names the source in errors and gives the part
/// name of a binary file or an unnamed solid.
///
/// Binary is recognised by its size (`84 + 50 × count` bytes, trailing bytes allowed when the
/// text reading fails), ASCII by a leading `solid`. Each ASCII `solid` becomes a part;
/// facets with more than three vertices are fan-triangulated; normals are ignored.
///
/// Errors: [`LoadError::TooLarge`] when the header claims more than [`MAX_TRIANGLES`] (before
/// allocating), [`LoadError::Truncated`] when the file is shorter than the header implies,
/// [`LoadError::Parse`] (with the line) for malformed ASCII, [`LoadError::NonFinite`],
/// [`LoadError::Empty`] for no triangles.
pub fn load_stl_bytes(bytes: &[u8], file: &str) -> Result<Model, LoadError> {
    let claimed = binary_count(bytes);
    let exact_binary =
        claimed.is_some_and(|n| (HEADER as u64 + RECORD as u64 * n) == bytes.len() as u64);
    let looks_ascii = bytes
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take(5)
        .eq(b"solid".iter());
    if looks_ascii && !exact_binary {
        let ascii = load_ascii(bytes, file);
        // A binary file whose header starts with "solid" and that has trailing bytes: if the
        // text reading fails and the binary reading succeeds, the file was binary.
        if ascii.is_err() {
            if let Ok(m) = load_binary(bytes, file) {
                return Ok(m);
            }
        }
        return ascii;
    }
    load_binary(bytes, file)
}

fn binary_count(bytes: &[u8]) -> Option<u64> {
    let c: [u8; 4] = bytes.get(80..84)?.try_into().ok()?;
    Some(u64::from(u32::from_le_bytes(c)))
}

fn load_binary(bytes: &[u8], file: &str) -> Result<Model, LoadError> {
    let Some(count) = binary_count(bytes) else {
        return Err(LoadError::Truncated {
            file: file.to_string(),
            expected_bytes: HEADER as u64,
            actual_bytes: bytes.len() as u64,
        });
    };
    check_limit(file, "triangles", count, MAX_TRIANGLES)?;
    let expected = HEADER as u64 + RECORD as u64 * count;
    if expected > bytes.len() as u64 {
        return Err(LoadError::Truncated {
            file: file.to_string(),
            expected_bytes: expected,
            actual_bytes: bytes.len() as u64,
        });
    }
    if count == 0 {
        return Err(LoadError::Empty {
            file: file.to_string(),
        });
    }
    // `count` <= MAX_TRIANGLES and the bytes are present, so the allocation is bounded by the
    // file's own size.
    let mut b = Builder::with_capacity(count as usize);
    for rec in bytes[HEADER..expected as usize].chunks_exact(RECORD) {
        let f = |k: usize| {
            let o = 12 + 4 * k; // skip the normal
            f32::from_le_bytes([rec[o], rec[o + 1], rec[o + 2], rec[o + 3]])
        };
        let corners = [0, 1, 2].map(|c| Vec3::new(f(3 * c), f(3 * c + 1), f(3 * c + 2)));
        if corners.iter().any(|v| !v.is_finite()) {
            return Err(LoadError::NonFinite {
                file: file.to_string(),
                line: None,
            });
        }
        b.triangle(corners);
    }
    Ok(Model {
        parts: vec![Part {
            name: default_part_name(file),
            mesh: b.mesh,
        }],
    })
}

/// Builds an indexed mesh from triangle corners, sharing exactly equal positions.
struct Builder {
    mesh: TriMesh,
    index: HashMap<[u32; 3], u32>,
}

impl Builder {
    fn with_capacity(triangles: usize) -> Self {
        Builder {
            mesh: TriMesh::new(
                Vec::with_capacity(triangles / 2 + 3),
                Vec::with_capacity(triangles),
            ),
            index: HashMap::with_capacity(triangles / 2 + 3),
        }
    }

    fn vertex(&mut self, v: Vec3) -> u32 {
        // `+ 0.0` maps -0.0 to 0.0, so both are one vertex.
        let key = (v + Vec3::ZERO).to_array().map(f32::to_bits);
        let next = self.mesh.vertices.len() as u32;
        let id = *self.index.entry(key).or_insert(next);
        if id == next {
            self.mesh.vertices.push(v);
        }
        id
    }

    fn triangle(&mut self, c: [Vec3; 3]) {
        let t = c.map(|v| self.vertex(v));
        self.mesh.triangles.push(t);
    }
}

// One piece: a line-by-line state machine (solid, facet, loop, vertex) whose states read best
// together.
fn load_ascii(bytes: &[u8], file: &str) -> Result<Model, LoadError> {
    #[derive(PartialEq)]
    enum State {
        Outside,
        InSolid,
        InFacet,
        InLoop,
    }
    let err = |line: usize, message: String| LoadError::Parse {
        file: file.to_string(),
        line,
        message,
    };
    let mut parts: Vec<Part> = Vec::new();
    let mut state = State::Outside;
    let mut builder: Option<(String, Builder)> = None;
    let mut corners: Vec<Vec3> = Vec::new();
    let mut triangles: u64 = 0;
    let mut last_line = 0;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        last_line = n;
        let text = String::from_utf8_lossy(raw);
        let mut words = text.split_ascii_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        match (&state, keyword) {
            (State::Outside, "solid") => {
                let name = words.collect::<Vec<_>>().join(" ");
                let name = if name.is_empty() {
                    default_part_name(file)
                } else {
                    name
                };
                builder = Some((name, Builder::with_capacity(0)));
                state = State::InSolid;
            }
            (State::InSolid, "facet") => {
                corners.clear();
                state = State::InFacet;
            }
            (State::InSolid, "endsolid") => {
                if let Some((name, b)) = builder.take() {
                    if !b.mesh.triangles.is_empty() {
                        parts.push(Part { name, mesh: b.mesh });
                    }
                }
                state = State::Outside;
            }
            (State::InFacet, "outer") => state = State::InLoop,
            (State::InLoop, "vertex") => {
                let mut c = [0.0_f32; 3];
                for (k, slot) in c.iter_mut().enumerate() {
                    let w = words.next().ok_or_else(|| {
                        err(n, format!("vertex has {k} coordinates; expected x y z"))
                    })?;
                    *slot = w
                        .parse()
                        .map_err(|_| err(n, format!("vertex coordinate '{w}' is not a number")))?;
                }
                let v = Vec3::from_array(c);
                if !v.is_finite() {
                    return Err(LoadError::NonFinite {
                        file: file.to_string(),
                        line: Some(n),
                    });
                }
                corners.push(v);
            }
            (State::InLoop, "endloop") => state = State::InFacet,
            (State::InFacet, "endfacet") => {
                if corners.len() < 3 {
                    return Err(err(
                        n,
                        format!("facet has {} vertices; needs at least 3", corners.len()),
                    ));
                }
                triangles += corners.len() as u64 - 2;
                check_limit(file, "triangles", triangles, MAX_TRIANGLES)?;
                if let Some((_, b)) = builder.as_mut() {
                    for k in 1..corners.len() - 1 {
                        b.triangle([corners[0], corners[k], corners[k + 1]]);
                    }
                }
                state = State::InSolid;
            }
            (_, word) => {
                let expected = match state {
                    State::Outside => "'solid'",
                    State::InSolid => "'facet' or 'endsolid'",
                    State::InFacet => "'outer loop' or 'endfacet'",
                    State::InLoop => "'vertex' or 'endloop'",
                };
                return Err(err(n, format!("unexpected '{word}'; expected {expected}")));
            }
        }
    }
    if state != State::Outside {
        return Err(err(
            last_line,
            "file ends inside a solid (truncated?); expected 'endsolid'".into(),
        ));
    }
    if parts.is_empty() {
        return Err(LoadError::Empty {
            file: file.to_string(),
        });
    }
    Ok(Model { parts })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binary(tris: &[[Vec3; 3]], claimed: u32) -> Vec<u8> {
        let mut out = vec![0u8; 80];
        out.extend_from_slice(&claimed.to_le_bytes());
        for t in tris {
            out.extend_from_slice(&[0u8; 12]);
            for v in t {
                for c in v.to_array() {
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
            out.extend_from_slice(&[0u8; 2]);
        }
        out
    }

    #[test]
    fn binary_shares_equal_corners() {
        // Two triangles of a square: 6 corners, 4 distinct positions.
        let a = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0)];
        let b = [Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let m = load_stl_bytes(&binary(&[a, b], 2), "sq.stl").unwrap();
        assert_eq!(m.parts[0].name, "sq");
        assert_eq!(m.parts[0].mesh.vertices.len(), 4);
        assert_eq!(m.parts[0].mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
        // A "solid" header and 3 trailing bytes: not ASCII after all, read as binary.
        let mut odd = binary(&[a, b], 2);
        odd[..6].copy_from_slice(b"solid ");
        odd.extend_from_slice(b"\n\n\n");
        let m2 = load_stl_bytes(&odd, "sq.stl").unwrap();
        assert_eq!(m2.parts[0].mesh, m.parts[0].mesh);
    }

    #[test]
    fn binary_absurd_count_is_refused_before_allocating() {
        // A header claiming 2^32 - 1 triangles over a 134-byte file.
        let a = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let e = load_stl_bytes(&binary(&[a], u32::MAX), "big.stl").unwrap_err();
        assert!(matches!(e, LoadError::TooLarge { .. }), "{e}");
        let e = load_stl_bytes(&binary(&[a], 1000), "short.stl").unwrap_err();
        assert!(
            matches!(
                e,
                LoadError::Truncated {
                    expected_bytes: 50084,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn ascii_solids_become_parts() {
        // Two solids, one a quad facet (fan-triangulated).
        let src = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n\
                   solid b\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 1 1 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid\n";
        let m = load_stl_bytes(src.as_bytes(), "two.stl").unwrap();
        assert_eq!(m.parts.len(), 2);
        assert_eq!(m.parts[0].name, "a");
        assert_eq!(m.parts[1].mesh.triangles.len(), 2);
    }

    #[test]
    fn ascii_errors_have_lines() {
        // A bad coordinate on line 4; a file cut off inside a facet.
        let src = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 zero 0\n";
        let e = load_stl_bytes(src.as_bytes(), "bad.stl").unwrap_err();
        assert_eq!(e.line(), Some(4), "{e}");
        let src = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n";
        let e = load_stl_bytes(src.as_bytes(), "cut.stl").unwrap_err();
        assert!(matches!(e, LoadError::Parse { .. }), "{e}");
        let e = load_stl_bytes(b"solid empty\nendsolid empty\n", "e.stl").unwrap_err();
        assert!(matches!(e, LoadError::Empty { .. }), "{e}");
    }
}
