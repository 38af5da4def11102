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
//!   image access shapes against the declaration, LSC data shapes, sampler channels,
//!   system-value destinations; group async copies (one pointer shared, the other
//!   global; constant element sizes and the overlap rules on constant shapes); 2D block
//!   messages and image block accesses (surface, data size, shape form, and data
//!   spread over the shader's `subgroup_size`).
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
//! and block messages) and `async_copy`. They share one per-function state,
//! `context::FnCheck`; this file only wires them together.

mod alu;
mod async_copy;
mod context;
mod control_flow;
mod function;
mod image;
mod interface;
mod intrinsic;
mod message;
mod ssa;
#[cfg(test)]
mod tests;

pub use interface::{MAX_WORKGROUP_INVOCATIONS, MAX_WORKGROUP_SIZE};
pub use intrinsic::IMAGE_PARAM_SLOTS;

use crate::diag::Diagnostic;
use crate::function::Function;
use crate::shader::Shader;
use crate::span::Span;
use context::{first_at, FnCheck};
use std::collections::HashMap;

/// Validates a whole shader: declarations and every function. Returns every problem
/// found, sorted by source position (problems without a position last).
pub fn validate(shader: &Shader) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    interface::check_workgroup(shader, &mut diags);
    interface::check_declarations(shader, &mut diags);
    let mut names: HashMap<&str, Span> = HashMap::new();
    for f in &shader.functions {
        if let Some(&first) = names.get(f.name.as_str()) {
            diags.push(Diagnostic::error(
                f.span,
                format!(
                    "function `{}` is defined more than once{}",
                    f.name,
                    first_at(first)
                ),
            ));
        }
        names.entry(f.name.as_str()).or_insert(f.span);
        FnCheck::new(shader, f, &mut diags).run();
    }
    finish(diags)
}

/// Validates one function of `shader` (the shader supplies the image declarations).
pub fn validate_function(shader: &Shader, func: &Function) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    FnCheck::new(shader, func, &mut diags).run();
    finish(diags)
}

fn finish(mut diags: Vec<Diagnostic>) -> Result<(), Vec<Diagnostic>> {
    if diags.is_empty() {
        return Ok(());
    }
    diags.sort_by_key(|d| (!d.span.is_known(), d.span.line, d.span.col));
    Err(diags)
}
