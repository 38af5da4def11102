//! The structured control-flow tree: blocks, `if` and `loop` nodes, the lists they sit
//! in, jumps, and insertion points.

use crate::entity::{Block, IfId, Inst, LoopId};
use crate::span::Span;
use crate::types::Src;

/// A jump ending a block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Jump {
    /// Leave the innermost loop.
    Break,
    /// Start the next iteration of the innermost loop.
    Continue,
}

impl Jump {
    /// The keyword.
    pub fn name(self) -> &'static str {
        match self {
            Jump::Break => "break",
            Jump::Continue => "continue",
        }
    }
}

/// A node of a control-flow list.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CfNode {
    /// A basic block.
    Block(Block),
    /// An `if`.
    If(IfId),
    /// A `loop`.
    Loop(LoopId),
}

/// Which list a control-flow node sits in.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CfParent {
    /// The function body.
    Root,
    /// The `then` list of an `if`.
    Then(IfId),
    /// The `else` list of an `if`.
    Else(IfId),
    /// The body of a `loop`.
    Loop(LoopId),
}

/// An `if` node.
#[derive(Clone, Debug)]
pub struct IfData {
    /// The 1-bit condition.
    pub cond: Src,
    /// Nodes run when the condition is true.
    pub then_list: Vec<CfNode>,
    /// Nodes run when it is false.
    pub else_list: Vec<CfNode>,
    /// Where the node sits.
    pub parent: CfParent,
    /// Source position of the `if` keyword.
    pub span: Span,
}

/// A `loop` node.
#[derive(Clone, Debug)]
pub struct LoopData {
    /// The body; its first block is the loop header.
    pub body: Vec<CfNode>,
    /// Where the node sits.
    pub parent: CfParent,
    /// Source position of the `loop` keyword.
    pub span: Span,
}

#[derive(Copy, Clone, Debug, Default)]
/// Where an instruction sits: its block and its neighbours in the block's list.
pub(super) struct InstNode {
    pub(super) block: Option<Block>,
    pub(super) prev: Option<Inst>,
    pub(super) next: Option<Inst>,
}

/// A block: its instruction list, jump and position in the tree.
#[derive(Clone, Debug)]
pub struct BlockData {
    pub(super) first: Option<Inst>,
    pub(super) last: Option<Inst>,
    /// The jump ending the block, if any.
    pub jump: Option<Jump>,
    /// Where the block sits; `None` for blocks not in the tree.
    pub parent: Option<CfParent>,
    /// Source position of the block label.
    pub span: Span,
}

/// An insertion point, as NIR's `nir_cursor`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Cursor {
    /// Before an instruction.
    Before(Inst),
    /// After an instruction.
    After(Inst),
    /// At the start of a block (before its phis).
    BlockStart(Block),
    /// At the end of a block (before its jump).
    BlockEnd(Block),
}
