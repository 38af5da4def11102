//! Shared CLI plumbing.
