//! Errors of NIR's control-flow shape: lists, parents, jumps, `if` conditions.

use crate::entity::{BlockName, IfId, LoopId};
use crate::function::{CfNode, CfParent, Jump};
use crate::span::Span;
use crate::types::Type;
use std::fmt;

/// A list of the control-flow tree, as a message names it: "the body of fn `main`",
/// "the then-list of the `if` at 4:3".
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CfList {
    /// The list.
    pub parent: CfParent,
    /// The name of the function (named by the root list).
    pub function: String,
    /// The position of the `if` or `loop` that owns the list; when unknown, the list
    /// is named by the node's id.
    pub owner: Span,
}

impl fmt::Display for CfList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |f: &mut fmt::Formatter<'_>, id: &dyn fmt::Display| {
            if self.owner.is_known() {
                write!(f, "at {}", self.owner)
            } else {
                write!(f, "{id}")
            }
        };
        match self.parent {
            CfParent::Root => write!(f, "the body of fn `{}`", self.function),
            CfParent::Then(i) => {
                f.write_str("the then-list of the `if` ")?;
                at(f, &i)
            }
            CfParent::Else(i) => {
                f.write_str("the else-list of the `if` ")?;
                at(f, &i)
            }
            CfParent::Loop(l) => {
                f.write_str("the body of the `loop` ")?;
                at(f, &l)
            }
        }
    }
}

/// A node of the control-flow tree as a message names it: a block by how the text
/// names it (`Function::block_name`), an `if` or a `loop` by its id.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CfNodeName {
    /// A block.
    Block(BlockName),
    /// An `if`.
    If(IfId),
    /// A `loop`.
    Loop(LoopId),
}

impl CfNodeName {
    /// The node named.
    pub fn node(self) -> CfNode {
        match self {
            CfNodeName::Block(b) => CfNode::Block(b.block),
            CfNodeName::If(i) => CfNode::If(i),
            CfNodeName::Loop(l) => CfNode::Loop(l),
        }
    }
}

/// A node by its kind: `block b3`, `an `if``, `a `loop``.
struct Kind(CfNodeName);

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            CfNodeName::Block(b) => write!(f, "block {b}"),
            CfNodeName::If(_) => f.write_str("an `if`"),
            CfNodeName::Loop(_) => f.write_str("a `loop`"),
        }
    }
}

/// A node as a list names it: `block b3`, `if7`, `loop2`.
struct Named(CfNodeName);

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            CfNodeName::Block(b) => write!(f, "block {b}"),
            CfNodeName::If(i) => write!(f, "{i}"),
            CfNodeName::Loop(l) => write!(f, "{l}"),
        }
    }
}

/// A node as the subject of a message about itself: `block b3`, `this `if`` (the
/// message's position already locates the `if` or `loop`).
struct Subject(CfNodeName);

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            CfNodeName::Block(b) => write!(f, "block {b}"),
            CfNodeName::If(_) => f.write_str("this `if`"),
            CfNodeName::Loop(_) => f.write_str("this `loop`"),
        }
    }
}

/// A problem with the shape of the control-flow tree.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ControlFlowError {
    /// A list without a block.
    EmptyList {
        /// The list.
        list: CfList,
    },
    /// A list that starts with an `if` or a `loop`.
    ListStart {
        /// The list.
        list: CfList,
        /// Its first node.
        found: CfNodeName,
    },
    /// A list that ends with an `if` or a `loop`.
    ListEnd {
        /// The list.
        list: CfList,
        /// Its last node.
        found: CfNodeName,
    },
    /// Two blocks next to each other.
    AdjacentBlocks {
        /// The list.
        list: CfList,
        /// The first block.
        first: BlockName,
        /// The block after it.
        second: BlockName,
    },
    /// Two `if`/`loop` nodes without a block between them.
    AdjacentNodes {
        /// The list.
        list: CfList,
        /// The first node.
        prev: CfNodeName,
        /// The node after it.
        node: CfNodeName,
    },
    /// `break` or `continue` outside of every loop.
    JumpOutsideLoop {
        /// The jump.
        jump: Jump,
        /// The block it ends.
        block: BlockName,
    },
    /// A jump ending a block that is not the last node of its list.
    JumpNotLast {
        /// The jump.
        jump: Jump,
        /// The block it ends.
        block: BlockName,
        /// The list the block sits in.
        list: CfList,
    },
    /// A list names a block, `if` or `loop` that does not exist.
    MissingNode {
        /// The list.
        list: CfList,
        /// The node.
        node: CfNodeName,
    },
    /// A node that sits in the tree more than once.
    NodeTwice {
        /// The node.
        node: CfNodeName,
    },
    /// A node whose recorded parent is not the list it sits in.
    WrongParent {
        /// The node.
        node: CfNodeName,
        /// The list it sits in.
        list: CfList,
        /// The list it records (`None`: a block that records no list).
        recorded: Option<CfList>,
    },
    /// An `if` condition that is not a 1-bit scalar.
    IfCondition {
        /// The condition's type.
        found: Type,
    },
}

impl fmt::Display for ControlFlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ControlFlowError::EmptyList { list } => {
                write!(f, "{list} is empty; expected at least one block")
            }
            ControlFlowError::ListStart { list, found } => {
                write!(f, "{list} must start with a block, found {}", Kind(*found))
            }
            ControlFlowError::ListEnd { list, found } => {
                write!(f, "{list} must end with a block, found {}", Kind(*found))
            }
            ControlFlowError::AdjacentBlocks {
                list,
                first,
                second,
            } => write!(
                f,
                "blocks {first} and {second} follow each other in {list}; expected an `if` or `loop` between them"
            ),
            ControlFlowError::AdjacentNodes { list, prev, node } => write!(
                f,
                "{} follows {} in {list} without a block between them",
                Kind(*node),
                Kind(*prev)
            ),
            ControlFlowError::JumpOutsideLoop { jump, block } => write!(
                f,
                "`{}` outside of a loop (it ends block {block})",
                jump.name()
            ),
            ControlFlowError::JumpNotLast { jump, block, list } => write!(
                f,
                "`{}` ends block {block}, which is not the last node of {list}; a jump must end the last block of its list",
                jump.name()
            ),
            ControlFlowError::MissingNode { list, node } => {
                write!(f, "{list} names {}, which does not exist", Named(*node))
            }
            ControlFlowError::NodeTwice { node } => write!(
                f,
                "{} appears more than once in the control-flow tree",
                Subject(*node)
            ),
            ControlFlowError::WrongParent {
                node,
                list,
                recorded,
            } => {
                write!(
                    f,
                    "{} sits in {list} but records its parent as ",
                    Subject(*node)
                )?;
                match recorded {
                    Some(r) => write!(f, "{r}"),
                    None => f.write_str("no list"),
                }
            }
            ControlFlowError::IfCondition { found } => {
                write!(f, "`if` condition must be a 1-bit scalar, found {found}")
            }
        }
    }
}
