//! Legality of Intel LSC, sampler and legacy data-port messages, per platform.
//!
//! The IR's message intrinsics (`@lsc_load`, `@lsc_store`, `@lsc_load_strided`,
//! `@lsc_store_strided`, `@lsc_load_quad`, `@lsc_store_quad`, `@lsc_atomic`,
//! `@sampler_ld`, `@sampler_ld_lz`, `@sampler_resinfo`, `@sampler_sample_l`) can describe messages that no hardware accepts: their
//! indices are independent fields. This module decodes a message intrinsic into an
//! [`LscMessage`] (or a [`SamplerMessage`]) and checks it against the rules of
//! `docs/hardware/lsc-messages.md` §13, items 1-7, 10, 11 and 14, plus the operand rules of §5
//! (surface presence, address register sizes). The 2D block messages
//! (`@lsc_load_block2d`, `@lsc_store_block2d`) are checked against the block2d table of
//! [`block2d`] (§13.8, §13.9). Every failure is a [`MessageError`] that
//! names the rule (section and text), the instruction and its source position.
//!
//! On platforms without LSC (verx10 < 125) the LSC-shaped message is the form the
//! lowering describes accesses in, and [`check_lsc`] checks it against the
//! platform-independent rules only; the messages of the final IR there are the legacy
//! data port's ([`dataport`]: its legality table, the plan that turns an LSC-shaped
//! message into them, their send descriptors), and [`check_message`] refuses an LSC
//! message on such a platform, as it refuses a data-port message where there is LSC.
//!
//! The same decoded message also yields the hardware send descriptor
//! ([`message_descriptor`], docs/hardware/lsc-messages.md §11, Mesa's `lsc_msg_desc` layout;
//! [`sampler_descriptor`] for sampler messages, Mesa's `brw_sampler_desc`).

pub mod block2d;
mod check;
pub mod dataport;
mod descriptor;
mod legality;
mod lsc;
mod op;
mod operands;
mod rule;
mod sampler;

pub use check::{check_function, check_message, SurfaceInfo};
pub use descriptor::message_descriptor;
pub use legality::{cache_encoding, check_lsc};
pub use lsc::LscMessage;
pub use op::{LscOp, OpClass};
pub use operands::{lsc_operands, LscOperands};
pub use rule::{describe_inst, MessageError, MessageRule};
pub use sampler::{
    sampler_descriptor, sampler_operands, SamplerDescriptor, SamplerMessage, SamplerOp,
    SamplerOperands, DESCRIPTOR_SAMPLER_INDICES,
};
