//! Reference-vector and property tests of the whole crate.
//!
//! Properties run a fixed-seed, modest number of cases by default; set `QC_TESTS=<n>` to
//! run `n` cases of every property instead.

mod format_vectors;
mod independent;
mod mesa_formula;
mod msaa_vectors;
mod param_vectors;
mod properties;
mod surface_vectors;
mod tile_vectors;

use quickcheck::{Gen as QcGen, QuickCheck};

/// The case count of a property: `QC_TESTS` if set, else `default`.
fn qc_tests(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A QuickCheck over generator size `size` and `seed` that must pass `qc_tests(default)`
/// cases. quickcheck stops after `max_tests` generated cases (10,000 unless set, discards
/// included) and then passes quietly, so that is raised with the count, leaving room for
/// 19 discards per passing case, and falling short of the count fails the test.
fn quickcheck(size: usize, seed: u64, default: u64) -> QuickCheck {
    let n = qc_tests(default);
    QuickCheck::new()
        .rng(QcGen::from_size_and_seed(size, seed))
        .tests(n)
        .max_tests(n * 20)
        .min_tests_passed(n)
}
