//! Mesh loading (OBJ, STL, glTF) and scene files.
