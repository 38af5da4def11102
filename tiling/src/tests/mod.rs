//! Reference-vector and property tests of the whole crate.
//!
//! Properties run a fixed-seed, modest number of cases by default; set `QC_TESTS=<n>` to
//! run `n` cases of every property instead.

mod independent;
mod param_vectors;
mod properties;
mod surface_vectors;
mod tile_vectors;

/// The case count of a property: `QC_TESTS` if set, else `default`.
fn qc_tests(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
