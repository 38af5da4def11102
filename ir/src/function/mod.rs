//! Functions: instruction, value and block arenas, plus their layout.
//!
//! Data and layout are kept apart, as in Cranelift: instructions, values and blocks live
//! in arenas indexed by typed ids, while the order of instructions inside a block is a
//! doubly-linked list and the structured control flow is a tree of `if` and `loop` nodes
//! over blocks, with NIR's shape: every control-flow list starts and ends with a block,
//! and blocks alternate with `if`/`loop` nodes. Removing an instruction only unlinks it,
//! so ids stay stable while a pass runs.
//!
//! The files: `body` (the arenas and the instruction layout), `inst` (instructions and
//! values), `tree` (the control-flow tree's nodes), `control` (walking and editing the
//! tree), `clone` (copying control-flow lists), `rewrite` (replacing uses), `equality`, `names` (the numbers the text wrote
//! for values and blocks) and `spelling` (how the text wrote swizzles).

mod body;
mod clone;
mod control;
mod equality;
mod inst;
mod names;
mod rewrite;
mod spelling;
#[cfg(test)]
mod tests;
mod tree;

pub use body::{BlockInsts, Function};
pub use clone::CloneMap;
pub use inst::{AluInst, InstData, InstKind, IntrinsicInst, Phi, ValueData};
pub use spelling::{SrcSite, SwizzleSpelling};
pub use tree::{BlockData, CfNode, CfParent, Cursor, IfData, Jump, LoopData};
