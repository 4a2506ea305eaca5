//! glTF 2.0: `.gltf` (JSON with embedded base64 or side-car buffers) and `.glb`.
//!
//! The `gltf` crate parses and validates the document; the buffers (the GLB's binary chunk,
//! base64 `data:` URIs, side-car files) and the accessors are read here, with checked
//! arithmetic (the crate's own readers assume valid offsets and counts and can panic on a
//! hostile file). Images are never loaded, so the crate's `import` feature, which pulls in
//! image decoders, stays off.

use std::path::Path;

use super::{check_limit, default_part_name, LoadError, Model, Part, MAX_TRIANGLES, MAX_VERTICES};
use crate::math::{Affine3A, Vec3};
use crate::shapes::TriMesh;
use glam::Mat4;

/// Loads a `.gltf` or `.glb` file; side-car buffers are read relative to its directory.
///
/// Every triangle primitive (`TRIANGLES`, `TRIANGLE_STRIP`, `TRIANGLE_FAN`) of every mesh
/// reached from the default scene (or the first scene, or every root node when there is no
/// scene) becomes a part, in model space: the node's world transform (parents' matrices
/// times its own) is applied, and a mirroring transform reverses the winding. Points and
/// lines are skipped. Part names: the node name (else the mesh name, else `node<i>`), with
/// `#k` appended for the k-th primitive of a mesh that has several; a lone part with neither
/// name takes the file name's stem.
///
/// Errors: [`LoadError::Gltf`] for an invalid document, a missing buffer, an accessor outside
/// its buffer, an unsupported layout (sparse or quantised positions), a node graph that is not
/// a forest; [`LoadError::IndexOutOfRange`]; [`LoadError::NonFinite`];
/// [`LoadError::TooLarge`]; [`LoadError::Empty`] when no triangle is found.
pub fn load_gltf(path: impl AsRef<Path>) -> Result<Model, LoadError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let bytes = super::read_limited(path, &file)?;
    load_gltf_from(&bytes, &file, path.parent())
}

/// Loads glTF from bytes: a `.glb`, or a `.gltf` whose buffers are embedded (`data:` URIs);
/// a side-car buffer gives [`LoadError::Gltf`] (use [`load_gltf`]). See [`load_gltf`].
pub fn load_gltf_bytes(bytes: &[u8], file: &str) -> Result<Model, LoadError> {
    load_gltf_from(bytes, file, None)
}

// One piece: parse, buffers, the scene walk and the parts, read top to bottom, all sharing the
// document and its buffers.
pub(crate) fn load_gltf_from(
    bytes: &[u8],
    file: &str,
    base: Option<&Path>,
) -> Result<Model, LoadError> {
    let err = |message: String| LoadError::Gltf {
        file: file.to_string(),
        message,
    };
    // The crate's messages start with their own "invalid glTF: ", which ours adds.
    let crate_err = |e: ::gltf::Error| {
        let m = e.to_string();
        err(m.strip_prefix("invalid glTF: ").unwrap_or(&m).to_string())
    };
    let ::gltf::Gltf { document, blob } = ::gltf::Gltf::from_slice(bytes).map_err(crate_err)?;
    // An empty directory means "the current one" (`Path::parent` of a bare file name).
    let base = base.map(|b| {
        if b.as_os_str().is_empty() {
            Path::new(".")
        } else {
            b
        }
    });
    let buffers = read_buffers(&document, base, blob, file)?;

    // Roots: the default scene, else the first scene, else every node nobody lists as a child.
    let roots: Vec<::gltf::Node> = match document
        .default_scene()
        .or_else(|| document.scenes().next())
    {
        Some(scene) => scene.nodes().collect(),
        None => {
            let mut is_child = vec![false; document.nodes().len()];
            for n in document.nodes() {
                for c in n.children() {
                    if let Some(f) = is_child.get_mut(c.index()) {
                        *f = true;
                    }
                }
            }
            document
                .nodes()
                .filter(|n| !is_child.get(n.index()).copied().unwrap_or(false))
                .collect()
        }
    };

    let mut parts = Vec::new();
    // True while every part so far has a made-up `node<i>` name.
    let mut unnamed_only = true;
    let mut totals = (0_u64, 0_u64);
    let mut visited = vec![false; document.nodes().len()];
    // Depth-first walk with an explicit stack (no recursion depth limit on deep hierarchies).
    let mut stack: Vec<(::gltf::Node, Affine3A)> = roots
        .into_iter()
        .rev()
        .map(|n| (n, Affine3A::IDENTITY))
        .collect();
    while let Some((node, parent)) = stack.pop() {
        match visited.get_mut(node.index()) {
            Some(v) if !*v => *v = true,
            _ => {
                return Err(err(format!(
                    "node {} is reached twice: the node graph is not a forest",
                    node.index()
                )))
            }
        }
        let local = Affine3A::from_mat4(Mat4::from_cols_array_2d(&node.transform().matrix()));
        let world = parent * local;
        if !world.is_finite() {
            return Err(err(format!(
                "node {} has a non-finite transform",
                node.index()
            )));
        }
        if let Some(mesh) = node.mesh() {
            let given = node.name().or(mesh.name());
            unnamed_only &= given.is_none();
            let base_name = given
                .map(str::to_string)
                .unwrap_or_else(|| format!("node{}", node.index()));
            let several = mesh.primitives().len() > 1;
            for (k, prim) in mesh.primitives().enumerate() {
                let Some(local_mesh) = read_primitive(&prim, &buffers, file)? else {
                    continue;
                };
                totals.0 += local_mesh.vertices.len() as u64;
                totals.1 += local_mesh.triangles.len() as u64;
                check_limit(file, "vertices", totals.0, MAX_VERTICES)?;
                check_limit(file, "triangles", totals.1, MAX_TRIANGLES)?;
                let name = if several {
                    format!("{base_name}#{k}")
                } else {
                    base_name.clone()
                };
                parts.push(Part {
                    name,
                    mesh: local_mesh.transformed(&world),
                });
            }
        }
        for child in node.children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((child, world));
        }
    }
    if parts.is_empty() {
        return Err(LoadError::Empty {
            file: file.to_string(),
        });
    }
    if parts.len() == 1 && unnamed_only {
        parts[0].name = default_part_name(file);
    }
    Ok(Model { parts })
}

/// The bytes of every buffer of the document, in order, each at least its `byteLength` long.
///
/// A buffer is the GLB's binary chunk (`blob`), a `data:` URI with base64 content, or a file:
/// a relative URI (percent-encoded, resolved against `base`) or a `file:` URI. Files need a
/// `base` (the document was loaded from a path); other schemes are refused.
fn read_buffers(
    document: &::gltf::Document,
    base: Option<&Path>,
    mut blob: Option<Vec<u8>>,
    file: &str,
) -> Result<Vec<Vec<u8>>, LoadError> {
    let err = |message: String| LoadError::Gltf {
        file: file.to_string(),
        message,
    };
    let mut buffers = Vec::with_capacity(document.buffers().len());
    for buffer in document.buffers() {
        let i = buffer.index();
        let data = match buffer.source() {
            ::gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                err(format!(
                    "buffer {i} is the binary chunk, which the file does not have"
                ))
            })?,
            ::gltf::buffer::Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let (_, text) = rest.split_once(";base64,").ok_or_else(|| {
                        err(format!("buffer {i}: a data URI must hold base64 data"))
                    })?;
                    decode_base64(text)
                        .ok_or_else(|| err(format!("buffer {i}: invalid base64 data")))?
                } else {
                    let path = match uri.strip_prefix("file:") {
                        Some(p) => p.strip_prefix("//").unwrap_or(p).to_string(),
                        None if uri.contains(':') => {
                            return Err(err(format!(
                                "buffer {i}: unsupported URI scheme in {uri:?} (only data: and \
                                 files are read)"
                            )))
                        }
                        None => percent_decode(uri).ok_or_else(|| {
                            err(format!("buffer {i}: invalid percent-encoding in {uri:?}"))
                        })?,
                    };
                    let Some(base) = base else {
                        return Err(err(format!(
                            "buffer {i} is the file {path:?}, which cannot be found from bytes \
                             in memory; load the .gltf by its path"
                        )));
                    };
                    let full = base.join(&path);
                    let name = full.display().to_string();
                    super::read_limited(&full, &name)
                        .map_err(|e| err(format!("buffer {i}: {e}")))?
                }
            }
        };
        if data.len() < buffer.length() {
            return Err(err(format!(
                "buffer {i} holds {} bytes, fewer than its byteLength {}",
                data.len(),
                buffer.length()
            )));
        }
        buffers.push(data);
    }
    Ok(buffers)
}

/// Standard base64 (RFC 4648 §4, `+` and `/`), padding optional; `None` for any other byte.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 || body.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    // Six bits per character into `acc`; a byte out whenever eight are waiting.
    let (mut acc, mut bits) = (0_u32, 0_u32);
    for c in body.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// A URI path with `%XX` escapes replaced by their bytes; `None` for a malformed escape or a
/// result that is not UTF-8.
fn percent_decode(uri: &str) -> Option<String> {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = uri.get(i + 1..i + 3)?;
            if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The triangles of one primitive in the mesh's own space; `None` for points and lines.
// One piece: the primitive's accessors (mode, positions, indices) read in one pass; each triangle
// mode is a few lines.
fn read_primitive(
    prim: &::gltf::Primitive,
    buffers: &[Vec<u8>],
    file: &str,
) -> Result<Option<TriMesh>, LoadError> {
    use ::gltf::mesh::Mode;
    let err = |message: String| LoadError::Gltf {
        file: file.to_string(),
        message,
    };
    let mode = prim.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        return Ok(None);
    }
    let positions = prim
        .get(&::gltf::Semantic::Positions)
        .ok_or_else(|| err("a triangle primitive has no POSITION attribute".into()))?;
    if positions.dimensions() != ::gltf::accessor::Dimensions::Vec3
        || positions.data_type() != ::gltf::accessor::DataType::F32
        || positions.normalized()
    {
        return Err(err(format!(
            "accessor {}: POSITION must be VEC3 of FLOAT (quantised positions are not supported)",
            positions.index()
        )));
    }
    let vertices: Vec<Vec3> = read_accessor(&positions, buffers, 12, file)?
        .into_iter()
        .map(|b| {
            let f = |o: usize| f32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
            Vec3::new(f(0), f(4), f(8))
        })
        .collect();
    if vertices.iter().any(|v| !v.is_finite()) {
        return Err(LoadError::NonFinite {
            file: file.to_string(),
            line: None,
        });
    }
    let n = vertices.len();
    let indices: Vec<u32> = match prim.indices() {
        Some(acc) => {
            use ::gltf::accessor::DataType;
            if acc.dimensions() != ::gltf::accessor::Dimensions::Scalar {
                return Err(err(format!(
                    "accessor {}: indices must be SCALAR",
                    acc.index()
                )));
            }
            let size = match acc.data_type() {
                DataType::U8 => 1,
                DataType::U16 => 2,
                DataType::U32 => 4,
                other => {
                    return Err(err(format!(
                        "accessor {}: indices of type {other:?}; expected unsigned integers",
                        acc.index()
                    )))
                }
            };
            let raw = read_accessor(&acc, buffers, size, file)?;
            let mut out = Vec::with_capacity(raw.len());
            for b in raw {
                let i = match size {
                    1 => u32::from(b[0]),
                    2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                    _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                };
                if i as usize >= n {
                    return Err(LoadError::IndexOutOfRange {
                        file: file.to_string(),
                        line: None,
                        index: i64::from(i),
                        vertex_count: n,
                    });
                }
                out.push(i);
            }
            out
        }
        // Non-indexed: vertices in order (n <= MAX_VERTICES < 2^32).
        None => (0..n as u32).collect(),
    };
    let m = indices.len();
    let triangles: Vec<[u32; 3]> = match mode {
        Mode::Triangles => {
            if m % 3 != 0 {
                return Err(err(format!(
                    "a TRIANGLES primitive has {m} indices, not a multiple of 3"
                )));
            }
            indices
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect()
        }
        // Strip: triangle i is (i, i+1, i+2), every odd one reversed to keep the winding.
        Mode::TriangleStrip => (0..m.saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [indices[i], indices[i + 1], indices[i + 2]]
                } else {
                    [indices[i + 1], indices[i], indices[i + 2]]
                }
            })
            .collect(),
        // Fan: triangle i is (0, i+1, i+2).
        _ => (0..m.saturating_sub(2))
            .map(|i| [indices[0], indices[i + 1], indices[i + 2]])
            .collect(),
    };
    // Keep only the vertices the triangles use, like the other loaders.
    let mut mesh = TriMesh::new(vertices, triangles);
    mesh.compact();
    Ok(Some(mesh))
}

/// The `count` elements of an accessor as byte slices of `elem` bytes, every offset checked
/// against the buffer view and the buffer. An accessor without a buffer view reads as zeros.
fn read_accessor<'b>(
    acc: &::gltf::Accessor,
    buffers: &'b [Vec<u8>],
    elem: usize,
    file: &str,
) -> Result<Vec<&'b [u8]>, LoadError> {
    const ZEROS: [u8; 16] = [0; 16];
    let err = |message: String| LoadError::Gltf {
        file: file.to_string(),
        message,
    };
    let a = acc.index();
    if acc.sparse().is_some() {
        return Err(err(format!(
            "accessor {a}: sparse accessors are not supported"
        )));
    }
    let count = acc.count();
    check_limit(file, "vertices", count as u64, MAX_VERTICES)?;
    let Some(view) = acc.view() else {
        return Ok(vec![&ZEROS[..elem]; count]);
    };
    if count == 0 {
        return Ok(Vec::new());
    }
    let buffer = buffers.get(view.buffer().index()).ok_or_else(|| {
        err(format!(
            "accessor {a}: buffer {} not loaded",
            view.buffer().index()
        ))
    })?;
    let view_bytes = view
        .offset()
        .checked_add(view.length())
        .and_then(|end| buffer.get(view.offset()..end))
        .ok_or_else(|| {
            err(format!(
                "buffer view {} lies outside its buffer",
                view.index()
            ))
        })?;
    let stride = view.stride().unwrap_or(elem);
    if stride < elem {
        return Err(err(format!(
            "buffer view {}: stride {stride} is smaller than the element ({elem} bytes)",
            view.index()
        )));
    }
    // Last byte read: offset + stride (count - 1) + elem, checked for overflow and bounds.
    let end = stride
        .checked_mul(count - 1)
        .and_then(|s| s.checked_add(acc.offset()))
        .and_then(|s| s.checked_add(elem))
        .filter(|&end| end <= view_bytes.len())
        .ok_or_else(|| {
            err(format!(
                "accessor {a}: {count} elements do not fit in buffer view {} ({} bytes)",
                view.index(),
                view_bytes.len()
            ))
        })?;
    let data = &view_bytes[acc.offset()..end];
    Ok((0..count)
        .map(|i| &data[i * stride..i * stride + elem])
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length_and_refuses_junk() {
        // Encoded by the RFC 4648 §10 test vectors.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(
                decode_base64(coded).as_deref(),
                Some(plain.as_bytes()),
                "{coded}"
            );
            // Padding is optional.
            let bare = coded.trim_end_matches('=');
            assert_eq!(
                decode_base64(bare).as_deref(),
                Some(plain.as_bytes()),
                "{bare}"
            );
        }
        // Every byte value survives (+ and / included).
        assert_eq!(
            decode_base64("AAEC/f7/").as_deref(),
            Some(&[0_u8, 1, 2, 253, 254, 255][..])
        );
        for junk in ["Zm9v!", "Z", "Zm9vY", "Zg===", "Zm 9v", "Zm9v\n"] {
            assert_eq!(decode_base64(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn percent_decoding_of_relative_uris() {
        assert_eq!(percent_decode("a%20b.bin").as_deref(), Some("a b.bin"));
        assert_eq!(percent_decode("plain.bin").as_deref(), Some("plain.bin"));
        assert_eq!(percent_decode("%C3%A9.bin").as_deref(), Some("é.bin"));
        for bad in ["%", "%2", "%zz.bin", "%+1.bin", "%FF.bin"] {
            assert_eq!(percent_decode(bad), None, "{bad:?}");
        }
    }
}
