//! The vISA interpreter: reads a vISA kernel as IGC's finalizer (`GenX_IR`) takes it
//! and runs it with the semantics of the vISA specification (IGC's
//! `documentation/visa/`), so that the verifier can compare a kernel's meaning with the
//! IR it came from.
//!
//! * [`types`]: vISA's data types and execution controls;
//! * [`error`]: [`error::VisaError`], every error with its vISA line;
//! * [`listing`]: the text as read ([`listing::Listing`]);
//! * [`lexer`], [`read_operands`], [`read_messages`], [`reader`]: the text reader
//!   ([`reader::read`]).

pub mod alu;
pub mod control;
pub mod convert;
pub mod error;
pub mod lexer;
pub mod listing;
pub mod program;
pub mod read_messages;
pub mod read_operands;
pub mod reader;
pub mod regfile;
pub mod run;
#[cfg(test)]
mod testing;
pub mod types;
