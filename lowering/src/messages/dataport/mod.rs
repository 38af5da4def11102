//! Legacy data-port messages (the `@dp_*` intrinsics of [`ir::dataport`]): the legality
//! table per generation and the send each message becomes.
//!
//! - [`caps`]: what a generation's data port offers ([`DataportCaps`]);
//! - [`legality`]: which messages, atomics and SIMD widths it takes
//!   ([`check_dataport`], [`simd_widths`]);
//! - [`legacy`]: which data-port messages an LSC-shaped message becomes
//!   ([`plan_legacy`]), decided from its fields before anything is emitted;
//! - [`legalize`]: LSC-shaped message intrinsics rewritten into those messages
//!   ([`legalize_function`], [`legalize_shader`]);
//! - [`send`]: the SFID, descriptors and payload lengths of one send
//!   ([`legacy_send`]);
//! - [`rule`]: the rules as errors with their sentences ([`DataportRule`]).

pub mod caps;
pub mod legacy;
pub mod legality;
pub mod legalize;
pub mod rule;
pub mod send;

pub use caps::{DataportCaps, DpEncoding};
pub use legacy::{plan_legacy, LegacyPlan};
pub use legality::{check_dataport, check_simd, max_simd, simd_widths};
pub use legalize::{emit_plans, legalize_function, legalize_shader, plan_function, LegacyError};
pub use rule::{DataportRule, LegacyGap};
pub use send::{legacy_send, DpSfid, LegacySend, SendShape};
