//! Regression tests for the errata of the article's listings (static tests, sweeps, Lander).

mod sat_lander;
mod static_listings;
mod sweep_listings;
