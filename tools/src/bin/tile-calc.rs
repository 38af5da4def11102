//! ir-opt (placeholder).
fn main() {}
