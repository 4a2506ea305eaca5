//! Wavefront OBJ: `v` and `f` (with `v/vt/vn`), `o`/`g` parts, polygons fan-triangulated.
//!
//! Written here rather than through `tobj` so that every error names its line (tobj's errors
//! carry no position) and so parts follow `o`/`g` only (tobj also splits on `usemtl`). The
//! tests check this parser against tobj on the real meshes.

use super::{check_limit, default_part_name, LoadError, Model, Part, MAX_TRIANGLES, MAX_VERTICES};
use crate::math::Vec3;
use crate::shapes::TriMesh;

/// Parses OBJ text; `file` names the source in errors and gives the default part name.
///
/// Lines read: `v x y z` (extra components such as `w` or vertex colours ignored), `f` with
/// `v`, `v/vt`, `v//vn` or `v/vt/vn` references (1-based, or negative = relative to the
/// vertices so far), `o name` and `g name` (each starts a new part, named by the `o` name and
/// the `g` name joined by `/` when both are given and differ). Every other statement (`vt`,
/// `vn`, `s`, `usemtl`, `mtllib`, `l`, ...) and comments are ignored. Each part keeps only the
/// vertices its faces use, renumbered in order of first use; parts without faces are dropped.
/// Faces may only use vertices defined above them; `\` line continuations are not supported.
///
/// Errors: [`LoadError::Parse`] for a bad number, a face with fewer than 3 vertices or index 0;
/// [`LoadError::IndexOutOfRange`] for a reference to a vertex not yet defined;
/// [`LoadError::NonFinite`]; [`LoadError::TooLarge`] past [`MAX_VERTICES`]/[`MAX_TRIANGLES`];
/// [`LoadError::Empty`] when no face is left.
pub fn load_obj_str(text: &str, file: &str) -> Result<Model, LoadError> {
    load_obj_bytes(text.as_bytes(), file)
}

/// Parses OBJ bytes (UTF-8 or any ASCII-compatible text); see [`load_obj_str`].
pub fn load_obj_bytes(bytes: &[u8], file: &str) -> Result<Model, LoadError> {
    let mut p = ObjParser::new(file);
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        p.line(raw, i + 1)?;
    }
    p.finish()
}

/// Writes a model as OBJ text: one `o` per part, then its `v` and `f` lines (1-based, global).
///
/// Coordinates are written in Rust's shortest round-trip form, so [`load_obj_str`] reads back
/// exactly the same vertices; triangles with out-of-range indices are written as they are (the
/// reader will report them). Line breaks in part names become spaces.
#[must_use]
pub fn write_obj(model: &Model) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut base: u64 = 1;
    for part in &model.parts {
        let name = part.name.replace(['\n', '\r'], " ");
        // `write!` to a String cannot fail.
        let _ = writeln!(out, "o {name}");
        for v in &part.mesh.vertices {
            let _ = writeln!(out, "v {} {} {}", v.x, v.y, v.z);
        }
        for t in &part.mesh.triangles {
            let [a, b, c] = t.map(|i| base + u64::from(i));
            let _ = writeln!(out, "f {a} {b} {c}");
        }
        base += part.mesh.vertices.len() as u64;
    }
    out
}

struct ObjParser<'f> {
    file: &'f str,
    /// Every `v` in the file, in order (OBJ indices are global).
    positions: Vec<Vec3>,
    /// For each global vertex: (stamp of the part that last used it, its index in that part).
    local: Vec<(u32, u32)>,
    parts: Vec<Part>,
    /// Stamp of the current part: `parts.len()` once it has its first face.
    object: Option<String>,
    group: Option<String>,
    current_open: bool,
    triangles: u64,
    /// Scratch for one face's resolved global indices.
    face: Vec<u32>,
}

impl<'f> ObjParser<'f> {
    fn new(file: &'f str) -> Self {
        ObjParser {
            file,
            positions: Vec::new(),
            local: Vec::new(),
            parts: Vec::new(),
            object: None,
            group: None,
            current_open: false,
            triangles: 0,
            face: Vec::new(),
        }
    }

    fn parse_err(&self, line: usize, message: String) -> LoadError {
        LoadError::Parse {
            file: self.file.to_string(),
            line,
            message,
        }
    }

    fn line(&mut self, raw: &[u8], n: usize) -> Result<(), LoadError> {
        // Drop the comment, then read the line as text (invalid UTF-8 in a name is replaced;
        // in a number it fails to parse, which is reported).
        let raw = raw.split(|&b| b == b'#').next().unwrap_or(&[]);
        let text = String::from_utf8_lossy(raw);
        let mut words = text.split_ascii_whitespace();
        let Some(keyword) = words.next() else {
            return Ok(());
        };
        match keyword {
            "v" => self.vertex(words, n),
            "f" => self.face(words, n),
            "o" => {
                self.object = Some(words.collect::<Vec<_>>().join(" "));
                self.group = None;
                self.current_open = false;
                Ok(())
            }
            "g" => {
                self.group = Some(words.collect::<Vec<_>>().join(" "));
                self.current_open = false;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn vertex<'a>(
        &mut self,
        mut words: impl Iterator<Item = &'a str>,
        n: usize,
    ) -> Result<(), LoadError> {
        let mut c = [0.0_f32; 3];
        for (k, slot) in c.iter_mut().enumerate() {
            let w = words.next().ok_or_else(|| {
                self.parse_err(n, format!("vertex has {k} coordinates; expected x y z"))
            })?;
            *slot = w.parse().map_err(|_| {
                self.parse_err(n, format!("vertex coordinate '{w}' is not a number"))
            })?;
        }
        let v = Vec3::from_array(c);
        if !v.is_finite() {
            return Err(LoadError::NonFinite {
                file: self.file.to_string(),
                line: Some(n),
            });
        }
        check_limit(
            self.file,
            "vertices",
            self.positions.len() as u64 + 1,
            MAX_VERTICES,
        )?;
        self.positions.push(v);
        self.local.push((u32::MAX, 0));
        Ok(())
    }

    fn face<'a>(
        &mut self,
        words: impl Iterator<Item = &'a str>,
        n: usize,
    ) -> Result<(), LoadError> {
        let count = self.positions.len();
        let mut face = std::mem::take(&mut self.face);
        face.clear();
        for w in words {
            let mut fields = w.split('/');
            let v = fields.next().unwrap_or("");
            let index: i64 = v.parse().map_err(|_| {
                self.parse_err(
                    n,
                    format!("face vertex '{w}' is not an index (v, v/vt, v//vn or v/vt/vn)"),
                )
            })?;
            // vt and vn are not used, but must be indices when present.
            let mut extra = 0;
            for f in fields {
                extra += 1;
                if extra > 2 || !(f.is_empty() || f.parse::<i64>().is_ok()) {
                    return Err(self.parse_err(
                        n,
                        format!("face vertex '{w}' is not v, v/vt, v//vn or v/vt/vn"),
                    ));
                }
            }
            // 1-based; negative counts back from the last vertex defined (-1 = last).
            let resolved = match index {
                0 => {
                    return Err(self.parse_err(
                        n,
                        "face index 0 (OBJ indices start at 1, or count back from -1)".into(),
                    ))
                }
                i if i > 0 => i - 1,
                i => count as i64 + i,
            };
            if resolved < 0 || resolved >= count as i64 {
                return Err(LoadError::IndexOutOfRange {
                    file: self.file.to_string(),
                    line: Some(n),
                    index,
                    vertex_count: count,
                });
            }
            face.push(resolved as u32);
        }
        if face.len() < 3 {
            return Err(self.parse_err(
                n,
                format!("face has {} vertices; needs at least 3", face.len()),
            ));
        }
        self.triangles += face.len() as u64 - 2;
        check_limit(self.file, "triangles", self.triangles, MAX_TRIANGLES)?;
        if !self.current_open {
            self.open_part();
        }
        let stamp = (self.parts.len() - 1) as u32;
        let part = self.parts.last_mut().map(|p| &mut p.mesh);
        let Some(mesh) = part else {
            // `open_part` just pushed a part: unreachable, but not worth a panic.
            return Ok(());
        };
        // Global → part-local index, assigned on first use in this part.
        let mut local = |g: u32| {
            let slot = &mut self.local[g as usize];
            if slot.0 != stamp {
                *slot = (stamp, mesh.vertices.len() as u32);
                mesh.vertices.push(self.positions[g as usize]);
            }
            slot.1
        };
        let first = local(face[0]);
        let mut prev = local(face[1]);
        for &g in &face[2..] {
            // Fan triangulation (v0, v_i, v_i+1), as tobj and most loaders do.
            let cur = local(g);
            mesh.triangles.push([first, prev, cur]);
            prev = cur;
        }
        self.face = face;
        Ok(())
    }

    fn open_part(&mut self) {
        let name = match (self.object.as_deref(), self.group.as_deref()) {
            (Some(o), Some(g)) if !o.is_empty() && !g.is_empty() && o != g => format!("{o}/{g}"),
            (Some(o), _) if !o.is_empty() => o.to_string(),
            (_, Some(g)) if !g.is_empty() => g.to_string(),
            _ => default_part_name(self.file),
        };
        self.parts.push(Part {
            name,
            mesh: TriMesh::default(),
        });
        self.current_open = true;
    }

    fn finish(self) -> Result<Model, LoadError> {
        if self.parts.is_empty() {
            return Err(LoadError::Empty {
                file: self.file.to_string(),
            });
        }
        Ok(Model { parts: self.parts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_with_texture_and_normals() {
        // One quad written v/vt/vn becomes two triangles over four vertices.
        let m = load_obj_str(
            "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1 4/1/1\n",
            "quad.obj",
        )
        .unwrap();
        assert_eq!(m.parts.len(), 1);
        assert_eq!(m.parts[0].name, "quad");
        assert_eq!(m.parts[0].mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn groups_make_parts_with_local_indices() {
        // Two objects sharing global numbering; each part keeps only its own vertices.
        let src = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\no a\nf 1 2 3\no b\ng top\nf -1 -2 -3\n";
        let m = load_obj_str(src, "x.obj").unwrap();
        assert_eq!(m.parts.len(), 2);
        assert_eq!(m.parts[0].name, "a");
        assert_eq!(m.parts[1].name, "b/top");
        assert_eq!(m.parts[1].mesh.vertices[0], Vec3::splat(5.0));
        assert_eq!(m.parts[1].mesh.triangles, vec![[0, 1, 2]]);
        assert!(m.parts.iter().all(|p| p.mesh.validate().is_ok()));
    }

    #[test]
    fn errors_name_file_and_line() {
        // Each malformed line is reported at its own line number.
        let e = load_obj_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 999\n", "bunny.obj").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bunny.obj:4: face index 999 out of range (3 vertices)"
        );
        let e = load_obj_str("v 0 0\n", "a.obj").unwrap_err();
        assert_eq!(e.line(), Some(1));
        let e = load_obj_str("v 0 0 0\n\nf 1 1\n", "a.obj").unwrap_err();
        assert_eq!(e.line(), Some(3));
        let e = load_obj_str("v 0 0 0\nf 0 1 1\n", "a.obj").unwrap_err();
        assert!(matches!(e, LoadError::Parse { line: 2, .. }));
        let e = load_obj_str("v 0 nan 0\n", "a.obj").unwrap_err();
        assert!(matches!(e, LoadError::NonFinite { line: Some(1), .. }));
        let e = load_obj_str("# nothing\nv 1 2 3\n", "a.obj").unwrap_err();
        assert!(matches!(e, LoadError::Empty { .. }));
    }
}
