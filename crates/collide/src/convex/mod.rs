//! Convex objects: hulls, the separating-plane test with a per-pair cache, GJK and contacts.
