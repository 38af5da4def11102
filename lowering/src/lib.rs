//! Placeholder until the crate is filled.
