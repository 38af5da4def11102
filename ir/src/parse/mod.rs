//! The parser of the text format (grammar and examples in `ir/SYNTAX.md`).
//!
//! [`parse_shader`] builds a [`Shader`] that keeps the value and block ids written in the
//! text and records the source position of every function, image declaration, block,
//! `if`, `loop` and instruction, so that the validator and the passes can point at the
//! text. It checks what it needs to build the structure (syntax, names, duplicate
//! definitions, literal ranges, index names and values, phi labels); semantic checks
//! (types, dominance, operand shapes) are the validator's.
//!
//! The parser stops at the first error and never panics: nesting depth and ids are
//! bounded ([`MAX_NESTING`], [`MAX_VALUE_ID`], [`MAX_BLOCK_ID`], the id bounds for the
//! whole shader) so that no input can overflow the stack or allocate unbounded arenas.
//!
//! The files follow the grammar: `top_level` (header, image declarations, functions),
//! `control_flow`, `instruction`, `operand` and `literal`, over the shared parser state
//! of `parser` and the scanner of `lexer`.

mod control_flow;
mod instruction;
mod lexer;
mod limits;
mod literal;
mod operand;
mod parser;
mod top_level;

pub use limits::{MAX_BLOCK_ID, MAX_NESTING, MAX_VALUE_ID};

use crate::diag::Diagnostic;
use crate::shader::Shader;

/// Parses a shader from its text form.
///
/// Returns the first error found, as a diagnostic with its line and column (render it
/// with [`Diagnostic::render`] to show the source line and a caret).
pub fn parse_shader(src: &str) -> Result<Shader, Vec<Diagnostic>> {
    parser::Parser::new(src).shader().map_err(|d| vec![d])
}

#[cfg(test)]
mod tests;
