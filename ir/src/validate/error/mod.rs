//! What the validator reports: [`ValidationError`], a problem at a place, with a
//! [`ValidationErrorKind`] that carries the data of the problem (values, types,
//! opcodes, indices, images, limits) rather than a sentence.
//!
//! The kinds are grouped by the topic of the check that finds them, one enum per
//! topic (as naga's `valid` module nests `FunctionError`, `ExpressionError`, ...).
//! Their `Display` is the message the tools print; a [`ValidationError`] converts into
//! the [`Diagnostic`] that renders it with the source line.

mod alu;
mod async_copy;
mod control_flow;
mod dataport;
mod image;
mod interface;
mod intrinsic;
mod message;
mod ssa;
mod subject;
mod wording;

pub use alu::{AluError, BitSizeRef};
pub use async_copy::AsyncCopyError;
pub use control_flow::{CfList, CfNodeName, ControlFlowError};
pub use dataport::{DataPortError, DpOperand};
pub use image::{ImageError, Qualifier, TxlProblem};
pub use interface::InterfaceError;
pub use intrinsic::IntrinsicError;
pub use message::MessageError;
pub use ssa::{SsaError, User};
pub use subject::{DataOperand, ImageName};

use crate::diag::Diagnostic;
use crate::entity::{Block, IfId, ImageId, Inst, LoopId};
use crate::span::Span;
use std::fmt;

/// Where in the shader a problem is, by entity (Cranelift's `AnyEntity`): what a
/// shader built with the `Builder`, whose spans are unknown, can still be told.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Location {
    /// The shader header (its workgroup size).
    Shader,
    /// An image declaration.
    Image(ImageId),
    /// A buffer declaration (its index in [`Shader::buffers`](crate::Shader::buffers)).
    Buffer(usize),
    /// A function as a whole (its name, its body list).
    Function,
    /// A block of a function.
    Block(Block),
    /// An `if` of a function (its lists, its condition).
    If(IfId),
    /// A `loop` of a function.
    Loop(LoopId),
    /// An instruction of a function.
    Inst(Inst),
}

/// What is wrong, by the topic of the check that found it.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    /// The workgroup size, image declarations, function names.
    Interface(InterfaceError),
    /// The shape of the control-flow tree.
    ControlFlow(ControlFlowError),
    /// Definitions, uses, dominance, phis.
    Ssa(SsaError),
    /// ALU instructions and constants.
    Alu(AluError),
    /// What every intrinsic shares: indices, image operand, sources, destination.
    Intrinsic(IntrinsicError),
    /// Image intrinsics against their declaration.
    Image(ImageError),
    /// LSC, block and sampler messages.
    Message(MessageError),
    /// Legacy data-port messages.
    DataPort(DataPortError),
    /// Group async copies.
    AsyncCopy(AsyncCopyError),
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidationErrorKind::Interface(e) => e.fmt(f),
            ValidationErrorKind::ControlFlow(e) => e.fmt(f),
            ValidationErrorKind::Ssa(e) => e.fmt(f),
            ValidationErrorKind::Alu(e) => e.fmt(f),
            ValidationErrorKind::Intrinsic(e) => e.fmt(f),
            ValidationErrorKind::Image(e) => e.fmt(f),
            ValidationErrorKind::Message(e) => e.fmt(f),
            ValidationErrorKind::DataPort(e) => e.fmt(f),
            ValidationErrorKind::AsyncCopy(e) => e.fmt(f),
        }
    }
}

macro_rules! topic {
    ($($ty:ident => $variant:ident),* $(,)?) => {$(
        impl From<$ty> for ValidationErrorKind {
            fn from(e: $ty) -> Self {
                ValidationErrorKind::$variant(e)
            }
        }

        impl std::error::Error for $ty {}
    )*};
}

topic!(
    InterfaceError => Interface,
    ControlFlowError => ControlFlow,
    SsaError => Ssa,
    AluError => Alu,
    IntrinsicError => Intrinsic,
    ImageError => Image,
    MessageError => Message,
    DataPortError => DataPort,
    AsyncCopyError => AsyncCopy,
);

impl std::error::Error for ValidationErrorKind {}

/// One problem the validator found: what, where in the text, where in the shader.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ValidationError {
    /// The source position (unknown for shaders not parsed from text).
    pub span: Span,
    /// The function the problem is in (`None`: the shader's interface).
    pub function: Option<String>,
    /// The entity the problem is about.
    pub location: Location,
    /// What is wrong.
    pub kind: ValidationErrorKind,
}

impl ValidationError {
    /// A problem `kind` about `location` of `function`, at `span`.
    pub fn new(
        span: Span,
        function: Option<String>,
        location: Location,
        kind: impl Into<ValidationErrorKind>,
    ) -> ValidationError {
        ValidationError {
            span,
            function,
            location,
            kind: kind.into(),
        }
    }
}

impl fmt::Display for ValidationError {
    /// The message alone; [`Diagnostic`] adds the position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for ValidationError {}

impl From<ValidationError> for Diagnostic {
    fn from(e: ValidationError) -> Diagnostic {
        Diagnostic::error(e.span, e.kind.to_string())
    }
}

impl From<&ValidationError> for Diagnostic {
    fn from(e: &ValidationError) -> Diagnostic {
        Diagnostic::error(e.span, e.kind.to_string())
    }
}

#[cfg(test)]
mod tests;
