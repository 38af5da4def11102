//! The executor and the lowering verifier: runs shaders against a byte memory holding
//! surfaces and buffers, with the high-level image intrinsics executed on the logical
//! image (the linear reference) and the message intrinsics executed with the hardware's
//! semantics on the surfaces' real tiled bytes.
//!
//! * [`texel`]: the reference encoding and decoding of every storage format;
//! * [`tolerance`]: what a store of values that may err (Vulkan's precision bounds)
//!   allows the stored bytes to be;
//! * [`memory`]: the byte memory (flat address space, bindings, shared memory, push
//!   constants) and its access log;
//! * [`call`]: reading an IR intrinsic call (its access context, image bindings,
//!   uniform operands, register images spread over lanes);
//! * [`image`]: the high-level image intrinsics on the logical image;
//! * [`messages`]: the semantics of LSC, 2D block, sampler and legacy data-port
//!   messages (Gfx7 to Gfx12.0, [`messages::dataport`]) over plain per-lane data,
//!   shared by every interpreter;
//! * [`message_intrinsics`], [`dataport_intrinsics`]: the IR's message intrinsics
//!   executed through [`messages`];
//! * [`async_copy`]: group async copies at the reference level;
//! * [`exec`]: the [`exec::Executor`] running a grid of workgroups;
//! * [`setup`]: surfaces, views, fills, buffers and dispatch of a run
//!   ([`setup::Setup`]);
//! * [`verifier`]: runs a shader before and after lowering and compares them
//!   ([`verifier::verify`], [`verifier::lower_and_verify`]);
//! * [`cli`]: the library behind `ir-opt run` and `ir-opt verify`, which retries a
//!   shader undefined on random buffer contents on simpler ones ([`defined_inputs`]);
//! * [`visa`]: the vISA interpreter, which runs the kernels of the vISA back end (LSC,
//!   2D block, sampler and legacy data-port messages through the same [`messages`]
//!   semantics as the IR's message intrinsics), and the verifier's vISA leg.
//!
//! The random generators of the property suites live in the `suites` crate (`tests/`).

pub mod async_copy;
pub mod buffers;
pub mod call;
pub mod cli;
pub mod contents;
pub mod dataport_intrinsics;
pub mod defined_inputs;
pub mod exec;
pub mod filtering;
#[cfg(test)]
mod fixtures;
pub mod image;
pub mod memory;
pub mod memory_atomic;
pub mod message_intrinsics;
pub mod messages;
pub mod pointers;
pub mod sampler_state;
pub mod setup;
pub mod texel;
pub mod tolerance;
pub mod verifier;
pub mod visa;
