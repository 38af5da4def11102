//! The validator: checks that a shader is well formed and reports every problem with
//! its source position.
//!
//! What is checked:
//!
//! - **Workgroup**: at most 1024 invocations, as on every Intel GPU.
//! - **Declarations**: unique image names, `arrayed` only for dimensions that can be
//!   arrayed, image arrays of at least one element, sane static layouts.
//! - **Control-flow shape** (NIR's): every list starts and ends with a block, blocks
//!   alternate with `if`/`loop` nodes, every block and node sits in the tree once and
//!   records the list it sits in, jumps end the last block of a list and only inside
//!   a loop.
//! - **SSA**: every used value is defined by an instruction in the tree, each value is
//!   defined once, and the definition dominates the use (within a block: comes
//!   before it). A phi source must be available at the end of its predecessor. An `if`
//!   condition is used at the end of the block before the `if`.
//! - **Phis**: only at the start of a block, exactly one source per predecessor, source
//!   types equal to the phi's type.
//! - **Types**: ALU operand bit sizes and component counts per [`AluOp::info`](crate::alu::AluOp::info),
//!   swizzles within the value, `load_const` values that fit, 1-bit scalar `if`
//!   conditions.
//! - **Intrinsics**: image operand and index, source counts and shapes, index values,
//!   image access shapes against the declaration, LSC data shapes, legacy data-port
//!   operand shapes and image operands, sampler channels, system-value destinations;
//!   group async copies (one pointer shared, the other global; constant element sizes
//!   and the overlap rules on constant shapes); 2D block messages and image block
//!   accesses (surface, data size, shape form, and data spread over the shader's
//!   `subgroup_size`).
//!
//! Unreachable blocks follow NIR: dominance is vacuous for them (any definition
//! dominates a use in an unreachable block), while a definition in an unreachable
//! block dominates no reachable use. NIR produces such blocks, for example the block
//! after an `if` whose branches both end in a jump, so they are valid. Uses inside
//! unreachable blocks must still name live definitions, and within one block a
//! definition must still come before its uses.
//!
//! When the control-flow shape is broken, the dominance and phi-predecessor checks are
//! skipped (the graph they rely on is not meaningful) and only the shape errors and the
//! block-local checks are reported.
//!
//! The checks are split by topic, after naga's `valid/` module: `interface` (image
//! declarations), `control_flow` (the tree's shape), `ssa` (definitions, dominance,
//! phis), `alu`, `intrinsic` (what every intrinsic shares), `image`, `message` (LSC
//! and block messages), `dataport` (legacy data-port messages) and `async_copy`. They
//! share one per-function state, `context::FnCheck`; this file only wires them
//! together.
//!
//! Problems are data: [`check_shader`] returns [`ValidationError`]s, each with its
//! position, the function and entity it is about ([`Location`]) and a
//! [`ValidationErrorKind`] whose topic enum carries the values, types, opcodes,
//! indices and images involved, so that a driver can match on them:
//!
//! ```
//! use ir::validate::{check_shader, AluError, ValidationErrorKind};
//!
//! let shader = ir::parse_shader(
//!     "fn main {\n  block b0:\n    32 %0 = load_const (1)\n    64 %1 = iadd %0, %0\n}\n",
//! )
//! .unwrap();
//! let errors = check_shader(&shader).unwrap_err();
//! assert!(matches!(
//!     errors[0].kind,
//!     ValidationErrorKind::Alu(AluError::SourceBitsMismatch { index: 0, found: 32, expected: 64, .. })
//! ));
//! // Their `Display` is the message the tools print.
//! assert_eq!(
//!     errors[0].to_string(),
//!     "source 0 of `iadd` is 32-bit, expected 64-bit (the destination's bit size)"
//! );
//! ```
//!
//! [`validate`] returns the same problems as [`Diagnostic`]s, ready to render with
//! the source line.

mod alu;
mod async_copy;
mod context;
mod control_flow;
mod dataport;
mod error;
mod function;
mod image;
mod interface;
mod intrinsic;
mod message;
mod ssa;
#[cfg(test)]
mod tests;

pub use error::{
    AluError, AsyncCopyError, BitSizeRef, CfList, CfNodeName, ControlFlowError, DataOperand,
    DataPortError, DpOperand, ImageError, ImageName, InterfaceError, IntrinsicError, Location,
    MessageError, Qualifier, SsaError, User, ValidationError, ValidationErrorKind,
};
pub use interface::{MAX_WORKGROUP_INVOCATIONS, MAX_WORKGROUP_SIZE};
pub use intrinsic::IMAGE_PARAM_SLOTS;

use crate::diag::Diagnostic;
use crate::function::Function;
use crate::shader::Shader;
use crate::span::Span;
use context::FnCheck;
use std::collections::HashMap;

/// Validates a whole shader: declarations and every function. Returns every problem
/// found, sorted by source position (problems without a position last).
pub fn check_shader(shader: &Shader) -> Result<(), Vec<ValidationError>> {
    let mut errors = Vec::new();
    interface::check_workgroup(shader, &mut errors);
    interface::check_declarations(shader, &mut errors);
    interface::check_buffers(shader, &mut errors);
    let mut names: HashMap<&str, Span> = HashMap::new();
    for f in &shader.functions {
        if let Some(&first) = names.get(f.name.as_str()) {
            errors.push(ValidationError::new(
                f.span,
                Some(f.name.clone()),
                Location::Function,
                InterfaceError::DuplicateFunction {
                    name: f.name.clone(),
                    first,
                },
            ));
        }
        names.entry(f.name.as_str()).or_insert(f.span);
        FnCheck::new(shader, f, &mut errors).run();
    }
    finish(errors)
}

/// Validates one function of `shader` (the shader supplies the image declarations).
pub fn check_function(shader: &Shader, func: &Function) -> Result<(), Vec<ValidationError>> {
    let mut errors = Vec::new();
    FnCheck::new(shader, func, &mut errors).run();
    finish(errors)
}

/// [`check_shader`], with the problems as diagnostics to render.
pub fn validate(shader: &Shader) -> Result<(), Vec<Diagnostic>> {
    check_shader(shader).map_err(diagnostics)
}

/// [`check_function`], with the problems as diagnostics to render.
pub fn validate_function(shader: &Shader, func: &Function) -> Result<(), Vec<Diagnostic>> {
    check_function(shader, func).map_err(diagnostics)
}

fn diagnostics(errors: Vec<ValidationError>) -> Vec<Diagnostic> {
    errors.into_iter().map(Diagnostic::from).collect()
}

fn finish(mut errors: Vec<ValidationError>) -> Result<(), Vec<ValidationError>> {
    if errors.is_empty() {
        return Ok(());
    }
    errors.sort_by_key(|e| (!e.span.is_known(), e.span.line, e.span.col));
    Err(errors)
}
