//! Ray casts: the first point where a ray meets a shape, with its normal.
