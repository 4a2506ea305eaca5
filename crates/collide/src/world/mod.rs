//! The collision world: bodies, the per-frame pipeline, pair caches and events.
