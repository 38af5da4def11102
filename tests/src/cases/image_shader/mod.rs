//! Small random image shaders and everything they run on: a [`Case`].
//!
//! A case is a device, lowering options, a dispatch (local size, workgroups, subgroup
//! size), one to three images (declaration, surface, view, initial contents) and a
//! structured program of one to six image accesses ([`Stmt`]): loads, stores, atomics of
//! every NIR op the format allows (compare-and-swap included), `image_size` and
//! `image_samples`, some under `if`s on invocation-dependent conditions and inside small
//! loops whose trip count depends on the invocation, so lanes diverge.
//!
//! [`Case::build`] turns the program into IR with [`ir::Builder`]:
//!
//! * coordinates are expressions of the invocation id plus generated offsets
//!   ([`CoordTerm`](super::coords::CoordTerm)), so accesses reach edges and fall out
//!   of range for some lanes only;
//! * stored values and atomic operands come from constants (the format's special values:
//!   ±0, ±∞, NaNs, denormals, the limits of every channel width), from the invocation
//!   id, from values loaded earlier (reinterpreted, so loaded bits land in other formats)
//!   and from the loop counter;
//! * every value an access returns is stored (`store_ssbo`, SSBO binding
//!   [`OUTPUT_SSBO`]) to its own slot of [`SLOT_BYTES`] bytes:
//!   `(linear invocation index · slots + slot + loop iteration) · SLOT_BYTES`, so the
//!   verifier compares every returned value through the output buffer.
//!
//! Accesses carry stable ids ([`AccessSpec::id`]) that later values refer to, so that
//! shrinking (removing statements, flattening `if`s and loops) keeps a program buildable:
//! a reference to a value that is gone or no longer visible becomes a constant.
//!
//! The files: `program` (the case and its program, as data), `generate` (drawing a
//! case), `shrink`, `emit` (the shader), `setup` (the memory the verifier runs it on)
//! and `describe` (how a failing case is shown).

mod describe;
mod emit;
mod generate;
mod program;
mod setup;
mod shrink;
#[cfg(test)]
mod tests;

pub use program::{
    AccessSpec, Case, CaseConfig, Cond, Element, ImageCase, Op, Scalar, Stmt, MAX_TRIPS,
    OUTPUT_SSBO, SLOT_BYTES,
};
