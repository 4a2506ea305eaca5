//! Moving tests: when in the frame `u ∈ [0, 1]` do A and B first and last touch?
