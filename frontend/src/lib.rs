//! SPIR-V, WGSL and GLSL compute shaders into the IR, through naga.
//!
//! [`import`] reads a module with naga (the wgpu project's shader translator), validates
//! it with naga's validator, and translates one compute entry point into an IR
//! [`Shader`](ir::Shader) that the IR's validator accepts:
//!
//! ```
//! let wgsl = "
//!     @group(0) @binding(0) var img: texture_storage_2d<r32uint, read_write>;
//!     @compute @workgroup_size(8, 8)
//!     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!         let v = textureLoad(img, id.xy);
//!         textureStore(img, id.xy, v + vec4<u32>(1u));
//!     }";
//! let imported = frontend::import(wgsl.as_bytes(), frontend::Language::Wgsl, None).unwrap();
//! assert_eq!(imported.shader.local_size, [8, 8, 1]);
//! assert_eq!(imported.shader.images[0].format, ir::Format::R32Uint);
//! ```
//!
//! # What is translated
//!
//! * **Resources** (see [`bindings`] for the mapping from `(group, binding)`): storage
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
//!   conversions saturate) are kept, so the IR program is the naga program.
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
//! Everything else is an [`ImportError`] of kind [`ErrorKind::Unsupported`] that names
//! the construct and gives naga's location: line and column in WGSL and GLSL, the word
//! offset of the instruction in SPIR-V. Filtered sampling, gathers, depth comparisons,
//! derivatives, ray queries, subgroup operations, level-count queries, `arrayLength`,
//! inverse trigonometric functions and the like are refused, never approximated.
//! Specialization constants (pipeline overrides) take their default values.
//! naga's SPIR-V reader has no `Image` storage class, so image atomics written in
//! SPIR-V (`OpImageTexelPointer`, as glslang emits `imageAtomic*`) are a parse error
//! that says so; the same atomics in WGSL (`textureAtomic*`) import.
//!
//! naga's parsers run under `catch_unwind`: a panic inside naga on hostile input
//! becomes an [`ErrorKind::Parse`] error. The translation itself returns errors and
//! never panics; a translation the IR's validator rejects is an
//! [`ErrorKind::Internal`] error.

pub mod bindings;
pub mod context;
pub mod entry;
pub mod error;
pub mod expr;
pub mod image;
pub mod math;
pub mod memory;
pub mod ops;
pub mod source;
pub mod spirv;
pub mod stmt;
pub mod value;

pub use bindings::{Binding, BindingKind};
pub use spirv::spec::{SpecConstant, SpecMap, SpecValue};

/// An imported shader and the resources it uses.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The IR shader (validated): one function, `main`.
    pub shader: ir::Shader,
    /// The binding mapping of the resources it uses (see [`bindings`]).
    pub bindings: Vec<Binding>,
    /// The name of the entry point imported.
    pub entry: String,
    /// Bytes of shared memory its workgroup variables take.
    pub shared_bytes: u32,
    /// The module's specialization constants (with a `SpecId`), and whether the
    /// specialization given set each.
    pub spec_constants: Vec<SpecConstant>,
    /// The source file the shader's spans point into (the `OpString` of its first
    /// `OpLine`), when a SPIR-V module carries debug lines.
    pub source_file: Option<String>,
}
pub use error::{ErrorKind, ImportError, Location};
pub use source::{Language, Parsed};

/// Reads `bytes` as `language`, validates the module and imports the compute entry
/// point `entry` (or the module's only one).
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
