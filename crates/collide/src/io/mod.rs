//! Mesh loading (OBJ, STL, glTF) and scene files.
//!
//! [`load`] reads a file and picks the format from its extension; the `load_*` functions read
//! bytes already in memory (`include_str!`/`include_bytes!` meshes). Every loader returns a
//! [`Model`]: named [`Part`]s, each an indexed [`TriMesh`] whose vertices are all referenced
//! by its triangles. Polygons are fan-triangulated; vertices are not welded and degenerate
//! triangles are not dropped (those are explicit steps: [`TriMesh::weld`],
//! [`TriMesh::drop_degenerate`]).
//!
//! Features: the glTF loader needs `gltf` (without it `.gltf`/`.glb` files give
//! [`LoadError::FormatDisabled`]); `scene` files need `serde`. OBJ and STL are always in.
//!
//! Bad input never panics: malformed, truncated, empty or absurdly large files, out-of-range
//! indices and NaN or infinite coordinates give a [`LoadError`] naming the file and, for the
//! text formats, the line (`bunny.obj:123: face index 999 out of range (453 vertices)`).
//!
//! # Example
//!
//! ```rust
//! use collide::io;
//!
//! // A unit square from OBJ text (read a file with `io::load`, embed one with `include_str!`).
//! let model = io::load_obj_str("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", "square.obj")?;
//! assert_eq!(model.triangle_count(), 2); // the quad, fan-triangulated
//! assert_eq!(model.parts[0].name, "square"); // no `o` name: the file's stem
//! // Errors name the file and the line.
//! let err = io::load_obj_str("v 0 0 0\nf 1 2 3\n", "bad.obj").unwrap_err();
//! assert_eq!(err.line(), Some(2));
//! assert!(err.to_string().starts_with("bad.obj:2: face index"), "{err}");
//! # Ok::<(), io::LoadError>(())
//! ```

use std::fmt;
use std::path::Path;

use crate::shapes::TriMesh;

#[cfg(feature = "gltf")]
mod gltf;
mod obj;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod scene;
mod stl;

#[cfg(feature = "gltf")]
#[cfg_attr(docsrs, doc(cfg(feature = "gltf")))]
pub use self::gltf::{load_gltf, load_gltf_bytes};
pub use self::obj::{load_obj_bytes, load_obj_str, write_obj};
pub use self::stl::load_stl_bytes;

/// Largest file [`load`] will read, in bytes (2 GiB); larger files give [`LoadError::TooLarge`].
pub const MAX_FILE_BYTES: u64 = 1 << 31;

/// Most vertices a loaded model may have (2^28); more give [`LoadError::TooLarge`].
pub const MAX_VERTICES: u64 = 1 << 28;

/// Most triangles a loaded model may have (2^28); more give [`LoadError::TooLarge`].
pub const MAX_TRIANGLES: u64 = 1 << 28;

/// A loaded model: one or more named parts (OBJ `o`/`g` groups, STL solids, glTF primitives).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// The parts, in file order; a loaded model has at least one, each with a triangle.
    pub parts: Vec<Part>,
}

/// One named piece of a [`Model`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// Name from the file (`o`/`g` name, STL solid name, glTF node or mesh name), or the file
    /// name's stem when the file gives none.
    pub name: String,
    /// The geometry, in model space (glTF node transforms already applied).
    pub mesh: TriMesh,
}

impl Model {
    /// All parts in one mesh (vertices of later parts after earlier ones; nothing welded).
    #[must_use]
    pub fn merged(&self) -> TriMesh {
        let mut out = TriMesh::new(
            Vec::with_capacity(self.vertex_count()),
            Vec::with_capacity(self.triangle_count()),
        );
        for p in &self.parts {
            out.append(&p.mesh);
        }
        out
    }

    /// Total number of vertices over all parts.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        self.parts.iter().map(|p| p.mesh.vertices.len()).sum()
    }

    /// Total number of triangles over all parts.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.parts.iter().map(|p| p.mesh.triangles.len()).sum()
    }
}

/// Why a file could not be loaded. Every message names the file, and the line for text formats.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io {
        /// The file.
        file: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The extension is not one of `obj`, `stl`, `gltf`, `glb`.
    UnknownFormat {
        /// The file.
        file: String,
    },
    /// The file holds no triangles.
    Empty {
        /// The file.
        file: String,
    },
    /// A text line that does not parse.
    Parse {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was wrong and what was expected.
        message: String,
    },
    /// A face refers to a vertex that does not exist.
    IndexOutOfRange {
        /// The file.
        file: String,
        /// 1-based line number, for text formats.
        line: Option<usize>,
        /// The index as written (1-based or negative for OBJ, 0-based for glTF).
        index: i64,
        /// How many vertices there were to refer to.
        vertex_count: usize,
    },
    /// A coordinate is NaN or infinite.
    NonFinite {
        /// The file.
        file: String,
        /// 1-based line number, for text formats.
        line: Option<usize>,
    },
    /// A binary file shorter than its own header says.
    Truncated {
        /// The file.
        file: String,
        /// Bytes the header implies.
        expected_bytes: u64,
        /// Bytes present.
        actual_bytes: u64,
    },
    /// More data than the loader's limits ([`MAX_FILE_BYTES`], [`MAX_VERTICES`],
    /// [`MAX_TRIANGLES`]); reported before allocating for it.
    TooLarge {
        /// The file.
        file: String,
        /// What was counted ("bytes", "vertices", "triangles").
        what: &'static str,
        /// The count the file has or claims.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// An invalid or unsupported glTF document (JSON, buffers, accessors, node graph).
    Gltf {
        /// The file.
        file: String,
        /// What was wrong.
        message: String,
    },
    /// The file's format is known but its loader was left out of this build: the crate
    /// feature named here turns it on (`.gltf` and `.glb` need `gltf`).
    FormatDisabled {
        /// The file.
        file: String,
        /// The crate feature that adds the loader.
        feature: &'static str,
    },
}

impl LoadError {
    /// The file the error is about, as it was named to the loader.
    #[must_use]
    pub fn file(&self) -> &str {
        match self {
            LoadError::Io { file, .. }
            | LoadError::UnknownFormat { file }
            | LoadError::Empty { file }
            | LoadError::Parse { file, .. }
            | LoadError::IndexOutOfRange { file, .. }
            | LoadError::NonFinite { file, .. }
            | LoadError::Truncated { file, .. }
            | LoadError::TooLarge { file, .. }
            | LoadError::Gltf { file, .. }
            | LoadError::FormatDisabled { file, .. } => file,
        }
    }

    /// The 1-based line the error is on, for text formats.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            LoadError::Parse { line, .. } => Some(*line),
            LoadError::IndexOutOfRange { line, .. } | LoadError::NonFinite { line, .. } => *line,
            _ => None,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file())?;
        if let Some(line) = self.line() {
            write!(f, ":{line}")?;
        }
        f.write_str(": ")?;
        match self {
            LoadError::Io { source, .. } => write!(f, "cannot read: {source}"),
            LoadError::UnknownFormat { .. } => {
                f.write_str("unknown mesh format; expected .obj, .stl, .gltf or .glb")
            }
            LoadError::Empty { .. } => f.write_str("no triangles in the file"),
            LoadError::Parse { message, .. } => f.write_str(message),
            LoadError::IndexOutOfRange {
                index,
                vertex_count,
                ..
            } => write!(
                f,
                "face index {index} out of range ({vertex_count} vertices)"
            ),
            LoadError::NonFinite { .. } => f.write_str("coordinate is NaN or infinite"),
            LoadError::Truncated {
                expected_bytes,
                actual_bytes,
                ..
            } => write!(
                f,
                "truncated: the header implies {expected_bytes} bytes, the file has {actual_bytes}"
            ),
            LoadError::TooLarge {
                what, count, limit, ..
            } => write!(f, "too large: {count} {what} (the limit is {limit})"),
            LoadError::Gltf { message, .. } => write!(f, "invalid glTF: {message}"),
            LoadError::FormatDisabled { feature, .. } => write!(
                f,
                "this build of collide cannot read the format: enable its `{feature}` feature"
            ),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Loads a mesh file, choosing the format from the extension (`obj`, `stl`, `gltf`, `glb`,
/// any case). glTF side-car buffers are read relative to the file's directory.
///
/// Errors: [`LoadError::Io`] when unreadable, [`LoadError::UnknownFormat`] for another
/// extension, [`LoadError::FormatDisabled`] for glTF without the `gltf` feature, [`LoadError::TooLarge`] above [`MAX_FILE_BYTES`], and each format's own errors.
pub fn load(path: impl AsRef<Path>) -> Result<Model, LoadError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if !matches!(ext.as_str(), "obj" | "stl" | "gltf" | "glb") {
        return Err(LoadError::UnknownFormat { file });
    }
    #[cfg(not(feature = "gltf"))]
    if matches!(ext.as_str(), "gltf" | "glb") {
        return Err(LoadError::FormatDisabled {
            file,
            feature: "gltf",
        });
    }
    let bytes = read_limited(path, &file)?;
    match ext.as_str() {
        "obj" => load_obj_bytes(&bytes, &file),
        "stl" => load_stl_bytes(&bytes, &file),
        #[cfg(feature = "gltf")]
        _ => self::gltf::load_gltf_from(&bytes, &file, path.parent()),
        // Unreachable: every other extension returned above.
        #[cfg(not(feature = "gltf"))]
        _ => Err(LoadError::UnknownFormat { file }),
    }
}

/// Reads a whole file, refusing one above [`MAX_FILE_BYTES`] before allocating for it.
pub(crate) fn read_limited(path: &Path, file: &str) -> Result<Vec<u8>, LoadError> {
    let io_err = |source| LoadError::Io {
        file: file.to_string(),
        source,
    };
    let len = std::fs::metadata(path).map_err(io_err)?.len();
    if len > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge {
            file: file.to_string(),
            what: "bytes",
            count: len,
            limit: MAX_FILE_BYTES,
        });
    }
    std::fs::read(path).map_err(io_err)
}

/// The part name used when a file gives none: the file name without directory or extension.
pub(crate) fn default_part_name(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("mesh")
        .to_string()
}

/// `Err(TooLarge)` when `count` exceeds `limit`.
pub(crate) fn check_limit(
    file: &str,
    what: &'static str,
    count: u64,
    limit: u64,
) -> Result<(), LoadError> {
    if count > limit {
        Err(LoadError::TooLarge {
            file: file.to_string(),
            what,
            count,
            limit,
        })
    } else {
        Ok(())
    }
}
