//! Side-by-side comparison of collide and parry3d on identical inputs.
