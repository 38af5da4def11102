//! The legacy data-port messages (`@dp_*`, [`ir::dataport`]) with the hardware's
//! semantics: what Gfx7 to Gfx12.0 do for typed, untyped, scattered and A64 messages,
//! including out of bounds and with partial channel masks.
//!
//! - [`payload`]: the operands as an interface ([`DpPayload`]), so that the semantics
//!   serve the IR executor and an interpreter of emitted code alike, and the errors;
//! - [`typed`]: typed surface read, write and atomic (out of bounds, reads give the
//!   zero texel and writes are dropped; Ivy Bridge's 32-bit reads of 8- and 16-bit
//!   surfaces);
//! - [`untyped`]: untyped surface read/write, byte and dword scattered messages and
//!   atomics on surfaces (bounded by the buffer), shared local memory and A64 addresses;
//! - [`atomic`]: the atomic operations themselves;
//! - [`call`]: the IR intrinsics executed through them ([`execute`]).
//!
//! A message runs once for all its lanes: the active lanes whose predicate is true; the
//! others touch no memory and keep 0 in the destination. Atomics apply in ascending lane
//! order. Whether a generation has a message at all is the lowering's legality table
//! (`lowering::messages::dataport`); the executor refuses what it does not allow.

pub mod atomic;
pub mod call;
pub mod payload;
pub mod typed;
pub mod untyped;

pub use atomic::apply_dp_atomic;
pub use call::execute;
pub use payload::{with_undefined_upper, DpExecError, DpPayload, UNDEFINED_BYTE};
