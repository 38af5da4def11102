//! The legacy data-port messages of Gfx7 to Gfx12.0 ([`ir::dataport`]) with the
//! hardware's semantics, including out of bounds and with partial channel masks
//! (`docs/hardware/dataport.md` §8), as functions over plain per-lane data like the
//! LSC messages of [`crate::messages`].
//!
//! A message is its fields ([`DpMessage`]: the [`ir::dataport::DpDesc`], the
//! generation's data port, the sender, the lanes it serves, the surface of each lane)
//! and its payload as per-lane values ([`Lanes`](crate::messages::Lanes)); results go
//! to [`LanesMut`](crate::messages::LanesMut).
//!
//! | message | function |
//! |---|---|
//! | typed surface read, write, atomic | [`typed::read`], [`typed::write`], [`typed::atomic`] |
//! | untyped surface read, write (`bti`, `slm`, `a64`) | [`untyped::read`], [`untyped::write`] |
//! | byte and dword scattered read, write | [`untyped::scattered_read`], [`untyped::scattered_write`] |
//! | untyped and A64 atomics | [`untyped::atomic`] |
//! | the atomic operations themselves | [`apply_dp_atomic`] |
//!
//! A message runs once for all its lanes: the active lanes whose predicate is true; the
//! others touch no memory and their results are left alone. Atomics apply in
//! ascending lane order. Whether a generation has a message at all is the lowering's
//! legality table (`lowering::messages::dataport`): [`DpMessage::new`] refuses what it
//! does not allow.

pub mod atomic;
pub mod message;
pub mod typed;
pub mod untyped;

pub use atomic::apply_dp_atomic;
pub use message::{with_undefined_upper, DpMessage, UNDEFINED_BYTE};
