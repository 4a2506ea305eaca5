//! Closest points between a point, segments, boxes and triangles.
