//! What an import gives: the IR shader and what a driver needs beside it.

use crate::bindings::Binding;
use crate::spirv::spec::SpecConstant;

/// An imported shader and the resources it uses.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The IR shader (validated): one function, `main`.
    pub shader: ir::Shader,
    /// The binding mapping of the resources it uses (see [`crate::bindings`]).
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
