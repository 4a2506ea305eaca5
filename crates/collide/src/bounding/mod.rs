//! Bounding volumes every frame: tight and fast AABBs, fitted OBBs and spheres (Lander 1999).
