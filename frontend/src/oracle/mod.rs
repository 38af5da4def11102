//! The naga-IR translation, kept as the differential oracle of the SPIR-V translator:
//! a module read by one of naga's readers and validated by naga's validator,
//! translated from naga's IR into the IR.
//!
//! [`import`] reads a module with naga (the wgpu project's shader translator), validates
//! it with naga's validator, and translates one compute entry point into an IR
//! [`Shader`](ir::Shader) that the IR's validator accepts. The front door
//! ([`crate::import`]) no longer takes this path: the suites run both translations on
//! the same inputs and require the same results, bit for bit, so a mistake in one
//! translator cannot hide.
//!
//! # What is translated
//!
//! * **Resources** (see [`crate::bindings`] for the mapping from `(group, binding)`): storage
//!   textures become image declarations with naga's dimension, arrayness, storage format
//!   and access; sampled textures become images with the `sampled` access, which the
//!   lowering reads through the sampler; storage and uniform buffers, push constants
//!   (naga's immediates) and workgroup variables become NIR's `load_ssbo` /
//!   `store_ssbo` / `ssbo_atomic`, `load_ubo`, `load_push_constant` and `load_shared` /
//!   `store_shared` / `shared_atomic` at the byte offsets of naga's layout.
//! * **Builtins**: global and local invocation id, workgroup id, number of workgroups,
//!   local invocation index, workgroup size, and the subgroup id, count and invocation.
//! * **Expressions** become SSA ALU code with NIR's ops and semantics ([`ops`],
//!   [`math`]); naga's own rules for the cases GLSL leaves undefined (WGSL's: integer
//!   division by zero gives the dividend, shift counts are masked, float-to-integer
//!   conversions clamp to the nearest value the float represents) are kept, so the
//!   IR program is the naga program.
//! * **Variables**: function locals, function arguments and `private` globals are
//!   promoted to SSA values with phis ([`stmt`]); calls are inlined.
//! * **Control flow**: `if`, `loop` with `continuing` and `break if`, `switch` (with
//!   fall-through), `break`, `continue` and early `return`.
//! * **Images**: loads, stores and atomics (64-bit ones on R64 formats), size and layer
//!   count queries, sample counts; reads of sampled textures (`textureLoad`,
//!   `texelFetch`) and their size at level 0.
//! * **Barriers**: `barrier()`, `workgroupBarrier()`, `storageBarrier()` (a memory
//!   barrier beside an execution barrier is part of it); WGSL's zero initialization of
//!   workgroup memory.
//!
//! Everything else is an [`crate::ImportError`] of kind [`crate::ErrorKind::Unsupported`] that names
//! the construct and gives naga's location: line and column in WGSL and GLSL, the word
//! offset of the instruction in SPIR-V. Filtered sampling, gathers, depth comparisons,
//! derivatives, ray queries, subgroup operations, level-count queries,
//! inverse trigonometric functions and the like are refused, never approximated.
//! Specialization constants (pipeline overrides) take their default values.
//! naga's SPIR-V reader has no `Image` storage class, so image atomics written in
//! SPIR-V (`OpImageTexelPointer`, as glslang emits `imageAtomic*`) are a parse error
//! that says so; the same atomics in WGSL (`textureAtomic*`) import.
//!
//! naga's parsers run under `catch_unwind`: a panic inside naga on hostile input
//! becomes an [`crate::ErrorKind::Parse`] error. The translation itself returns errors and
//! never panics; a translation the IR's validator rejects is an
//! [`crate::ErrorKind::Internal`] error.

pub mod context;
pub mod entry;
pub mod expr;
pub mod image;
pub mod math;
pub mod memory;
pub mod ops;
pub mod resources;
pub mod stmt;
pub mod value;

use crate::error::ImportError;
use crate::imported::Imported;
use crate::source::{self, Language, Parsed};

/// Reads `bytes` as `language` with naga, validates the module and imports the compute
/// entry point `entry` (or the module's only one) through naga's IR.
pub fn import(
    bytes: &[u8],
    language: Language,
    entry: Option<&str>,
) -> Result<Imported, ImportError> {
    let parsed = source::read(language, bytes)?;
    entry::import(&parsed, entry)
}

/// The names of a parsed module's compute entry points, in the module's order.
pub fn compute_entry_points(parsed: &Parsed) -> Vec<String> {
    parsed
        .module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.clone())
        .collect()
}
