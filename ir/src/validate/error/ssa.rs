//! Errors of SSA form: definitions, uses, dominance, swizzles, phis.

use super::wording::{plural, DefinedAt, Intr};
use crate::alu::AluOp;
use crate::entity::{BlockName, ValueName};
use crate::intrinsic::IntrinsicOp;
use crate::span::Span;
use crate::types::Type;
use std::fmt;

/// What reads a value, as a message names it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum User {
    /// An ALU instruction: `` `iadd` ``.
    Alu(AluOp),
    /// An intrinsic (a source or the image index): `` `@image_load` ``.
    Intrinsic(IntrinsicOp),
    /// The condition of an `if`.
    If,
    /// The source of a phi coming from a predecessor block.
    PhiSource(BlockName),
}

impl fmt::Display for User {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            User::Alu(op) => write!(f, "`{}`", op.name()),
            User::Intrinsic(op) => write!(f, "{}", Intr(*op)),
            User::If => f.write_str("`if`"),
            User::PhiSource(b) => write!(f, "phi source from {b}"),
        }
    }
}

/// A problem with a definition, a use or a phi.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SsaError {
    /// An instruction defines a value the value table has no entry for.
    ValueWithoutEntry {
        /// The value.
        value: ValueName,
    },
    /// Two instructions in the tree define the same value.
    DefinedTwice {
        /// The value.
        value: ValueName,
        /// Where the other definition is.
        other: Span,
    },
    /// An instruction defines a value whose table entry names another instruction.
    DefinitionMismatch {
        /// The value.
        value: ValueName,
    },
    /// A use of a value that has no definition.
    Undefined {
        /// What reads it.
        user: User,
        /// The value.
        value: ValueName,
    },
    /// A use of a value whose defining instruction is not in the function body.
    DefinitionOutsideBody {
        /// What reads it.
        user: User,
        /// The value.
        value: ValueName,
    },
    /// A swizzle that selects a number of components no value can have.
    SwizzleLength {
        /// The value.
        value: ValueName,
        /// The swizzle's letters as written (or as the printer spells them).
        letters: String,
        /// How many components it selects.
        len: u8,
    },
    /// A swizzle that reads a component the value does not have.
    SwizzleComponent {
        /// The value.
        value: ValueName,
        /// The swizzle's letters as written (or as the printer spells them).
        letters: String,
        /// The first component out of range.
        component: u8,
        /// How many components the value has.
        components: u8,
    },
    /// A use before the definition, in the same block.
    UseBeforeDef {
        /// What reads it.
        user: User,
        /// The value.
        value: ValueName,
        /// Where the definition is.
        def: Span,
    },
    /// A use in a block the definition's block does not dominate.
    NotDominated {
        /// What reads it.
        user: User,
        /// The value.
        value: ValueName,
        /// The block of the use.
        use_block: BlockName,
        /// The block of the definition.
        def_block: BlockName,
        /// Where the definition is.
        def: Span,
    },
    /// A use at the end of a block (a phi source, an `if` condition) that the
    /// definition's block does not dominate.
    NotDominatedAtEnd {
        /// What reads it.
        user: User,
        /// The value.
        value: ValueName,
        /// The block at whose end the value is read.
        use_block: BlockName,
        /// The block of the definition.
        def_block: BlockName,
        /// Where the definition is.
        def: Span,
    },
    /// A phi after a non-phi instruction of its block.
    PhiNotAtStart {
        /// The block.
        block: BlockName,
    },
    /// A phi without a destination.
    PhiWithoutDest,
    /// A phi source whose type is not the phi's.
    PhiSourceType {
        /// The predecessor the source comes from.
        pred: BlockName,
        /// The source's type.
        found: Type,
        /// The phi's type.
        expected: Type,
    },
    /// A phi source from a block that is not a predecessor.
    PhiSourceNotPredecessor {
        /// The block the source names.
        pred: BlockName,
        /// The phi's block.
        block: BlockName,
        /// The block's predecessors.
        predecessors: Vec<BlockName>,
    },
    /// Two phi sources from the same predecessor.
    PhiDuplicateSource {
        /// The predecessor.
        pred: BlockName,
    },
    /// A predecessor without a phi source.
    PhiMissingSource {
        /// The predecessor.
        pred: BlockName,
        /// The phi's block.
        block: BlockName,
    },
}

impl fmt::Display for SsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SsaError::ValueWithoutEntry { value } => {
                write!(f, "`{value}` has no entry in the value table")
            }
            SsaError::DefinedTwice { value, other } => {
                write!(f, "`{value}` is defined more than once (also")?;
                if other.is_known() {
                    write!(f, "{})", DefinedAt(*other))
                } else {
                    f.write_str(" elsewhere)")
                }
            }
            SsaError::DefinitionMismatch { value } => write!(
                f,
                "`{value}` is defined here but the value table names another definition"
            ),
            SsaError::Undefined { user, value } => {
                write!(f, "{user} uses `{value}`, which is not defined")
            }
            SsaError::DefinitionOutsideBody { user, value } => write!(
                f,
                "{user} uses `{value}`, whose definition is not in the function body"
            ),
            SsaError::SwizzleLength {
                value,
                letters,
                len,
            } => write!(
                f,
                "swizzle `.{letters}` of `{value}` selects {len} components; expected 1, 2, 3, 4, 8 or 16"
            ),
            SsaError::SwizzleComponent {
                value,
                letters,
                component,
                components,
            } => write!(
                f,
                "swizzle `.{letters}` reads component {component} of `{value}`, which has {components} component{}",
                plural(u64::from(*components))
            ),
            SsaError::UseBeforeDef { user, value, def } => write!(
                f,
                "{user} uses `{value}` before its definition{}",
                DefinedAt(*def)
            ),
            SsaError::NotDominated {
                user,
                value,
                use_block,
                def_block,
                def,
            } => write!(
                f,
                "{user} uses `{value}` in block {use_block}, but its definition{} in block {def_block} does not dominate it",
                DefinedAt(*def)
            ),
            SsaError::NotDominatedAtEnd {
                user,
                value,
                use_block,
                def_block,
                def,
            } => write!(
                f,
                "{user} uses `{value}` at the end of block {use_block}, but its definition{} in block {def_block} does not dominate it",
                DefinedAt(*def)
            ),
            SsaError::PhiNotAtStart { block } => write!(
                f,
                "phi in block {block} comes after other instructions; phis must be at the start of their block"
            ),
            SsaError::PhiWithoutDest => f.write_str("phi must define a value"),
            SsaError::PhiSourceType {
                pred,
                found,
                expected,
            } => write!(
                f,
                "phi source from {pred} is {found}, expected {expected} (the phi's type)"
            ),
            SsaError::PhiSourceNotPredecessor {
                pred,
                block,
                predecessors,
            } => {
                write!(
                    f,
                    "phi has a source from {pred}, which is not a predecessor of {block} ("
                )?;
                if predecessors.is_empty() {
                    f.write_str("it has none")?;
                } else {
                    f.write_str("predecessors: ")?;
                    for (i, p) in predecessors.iter().enumerate() {
                        let sep = if i == 0 { "" } else { ", " };
                        write!(f, "{sep}{p}")?;
                    }
                }
                f.write_str(")")
            }
            SsaError::PhiDuplicateSource { pred } => {
                write!(f, "phi has more than one source from {pred}")
            }
            SsaError::PhiMissingSource { pred, block } => {
                write!(f, "phi has no source for predecessor {pred} of {block}")
            }
        }
    }
}
