//! The vISA interpreter: reads a vISA kernel in the text form IGC's finalizer
//! (`GenX_IR`) takes and runs it with the semantics of the vISA specification (IGC's
//! `documentation/visa/`), so that the verifier can check what a kernel computes, not
//! only that IGC accepts it.
//!
//! Reading and preparing a kernel:
//!
//! * [`reader::read`] turns the text into a [`listing::Listing`] (the grammar of IGC's
//!   `visa/CISA.y` for the subset the back end emits), with the help of [`lexer`],
//!   [`read_operands`], [`read_messages`] (LSC, sampler, fences) and [`read_dataport`]
//!   (the legacy data-port messages of Gfx8 to Gfx12.0: `gather4_typed`,
//!   `gather4_scaled`, `dword_atomic`, `gather_scaled`, `gather`, the `svm_*` messages
//!   and their writes and atomics);
//! * [`program::Program::new`] lays the variables out on a register file of 32-byte
//!   (BDW to TGL, DG2, MTL) or 64-byte (PVC, Xe2) registers ([`regfile`]), expands every
//!   operand's region into per-channel byte offsets, resolves each message's operands
//!   ([`payload`], [`payload_dataport`]) and checks the spec's static rules.
//!
//! Running it:
//!
//! * [`run::Thread`] runs one hardware thread from its payload (the register file at
//!   kernel entry), with the execution mask, predicates and SIMD control flow of
//!   [`control`], the ALU semantics of [`alu`] (operands read and written by [`lanes`])
//!   and the type conversions of [`convert`], within an instruction budget;
//!   [`run::run_workgroup`] runs a workgroup's threads through their barriers;
//!   each thread has a scratch space of its own ([`scratch`]), which `%scratch`
//!   messages and LSC messages on its `ss` scratch surface reach;
//! * message instructions go to a [`run::MessagePort`]: [`port::MemoryPort`] runs them
//!   with the executor's message semantics ([`crate::messages`]; the legacy data-port
//!   messages through [`port_dataport`], with the data port of the generation
//!   [`run::RunConfig::dataport`] names) on a [`crate::memory::Memory`], their operands
//!   laid out as [`payload`] and [`payload_dataport`] describe;
//! * [`dispatch::run_workgroups`] runs a grid of workgroups, split into threads;
//!   [`standalone::run_visa_text`] runs a kernel on its own, its inputs laid out by
//!   the ABI, and returns the memory (for tests that read what it computes);
//! * [`leg::verify_kernel`] is the verifier's vISA leg (on every platform the back end
//!   emits for: the LSC platforms and Broadwell to Tiger Lake): the lowered shader and
//!   its kernel on the same memory, their accesses and memories compared, mismatches named
//!   by vISA line; [`abi`] lays the back end's inputs out as its ABI document says, and
//!   [`check::lower_and_verify_visa`] checks a shader's three forms (original, lowered,
//!   kernel) on the same memory;
//! * [`types`] holds vISA's data types and execution controls, [`error`] the errors,
//!   each with the line of the vISA text it concerns.
//!
//! `cargo bench -p verify --bench visa_interp` measures the interpreter in vISA
//! instructions per second.

pub mod abi;
pub mod alu;
pub mod check;
pub mod control;
pub mod convert;
pub mod dispatch;
pub mod error;
pub mod indirect;
pub mod lanes;
pub mod leg;
pub mod lexer;
pub mod listing;
pub mod payload;
pub mod payload_dataport;
pub mod port;
pub mod port_dataport;
pub mod program;
pub mod read_dataport;
pub mod read_messages;
pub mod read_operands;
pub mod reader;
pub mod regfile;
pub mod run;
pub mod scratch;
pub mod standalone;
#[cfg(test)]
mod testing;
pub mod types;
