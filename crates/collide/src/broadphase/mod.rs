//! Broad phases: which pairs of many bodies have overlapping boxes.
