//! The parser of the text format (grammar and examples in `ir/SYNTAX.md`).
//!
//! [`parse_shader`] builds a [`Shader`] and records the source position of every
//! function, image declaration, block, `if`, `loop` and instruction, so that the
//! validator and the passes can point at the text. The values and blocks of a function
//! get dense ids in the order the text first names them, whatever numbers it writes, and
//! the function keeps the numbers written ([`Function::value_name`],
//! [`Function::block_name`]; no table at all when they are the ids): memory follows the
//! values and blocks that exist, not the largest number. The parser checks what it needs
//! to build the structure (syntax, names, duplicate definitions, literal ranges, index
//! names and values, phi labels); semantic checks (types, dominance, operand shapes) are
//! the validator's.
//!
//! The parser stops at the first error and never panics: nesting depth and the numbers
//! of values and blocks are bounded ([`MAX_NESTING`], [`MAX_VALUE_ID`],
//! [`MAX_BLOCK_ID`]) so that no input can overflow the stack.
//!
//! The files follow the grammar: `top_level` (header, image declarations, functions),
//! `control_flow`, `instruction`, `operand` and `literal`, over the shared parser state
//! of `parser`, the scanner of `lexer` and the numbering of `ids`.
//!
//! [`Function::value_name`]: crate::Function::value_name
//! [`Function::block_name`]: crate::Function::block_name

mod constant_data;
mod control_flow;
mod ids;
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
