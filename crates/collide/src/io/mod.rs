//! Mesh loading (OBJ, STL, glTF) and scene files.

pub mod scene;
