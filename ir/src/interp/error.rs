//! The interpreter's errors: [`EnvError`], what an environment reports for an
//! intrinsic it cannot execute, and [`InterpError`], what stops a run, with the
//! instruction and lanes it concerns.

use crate::alu::AluOp;
use crate::entity::{BlockName, ImageId, Inst, LoopId, ValueName};
use crate::eval::EvalError;
use crate::function::Jump;
use crate::intrinsic::IntrinsicOp;
use crate::span::Span;
use std::fmt;

/// An error reported by an [`Env`](super::Env): the lane it concerns, if one, and the cause, which
/// the environment may downcast back to its own error type through
/// [`std::error::Error::source`] or [`EnvError::downcast_ref`].
#[derive(Debug)]
pub struct EnvError {
    /// The lane the error concerns (`None` for an error of the whole message).
    pub lane: Option<u32>,
    /// The cause.
    pub error: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl EnvError {
    /// An error of the whole instruction.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> EnvError {
        EnvError {
            lane: None,
            error: error.into(),
        }
    }

    /// An error concerning one lane.
    pub fn at_lane(
        lane: u32,
        error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> EnvError {
        EnvError {
            lane: Some(lane),
            error: error.into(),
        }
    }

    /// An error with a plain message.
    pub fn msg(message: impl Into<String>) -> EnvError {
        EnvError::new(message.into())
    }

    /// The cause, if it has type `T`.
    pub fn downcast_ref<T: std::error::Error + 'static>(&self) -> Option<&T> {
        self.error.downcast_ref::<T>()
    }
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for EnvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}

/// What went wrong while interpreting.
#[derive(Debug)]
pub enum InterpErrorKind {
    /// An ALU instruction cannot be evaluated (a shape error the validator rejects).
    Alu {
        /// The opcode.
        op: AluOp,
        /// Why.
        error: EvalError,
    },
    /// The environment failed to execute an intrinsic.
    Env {
        /// The opcode.
        op: IntrinsicOp,
        /// Why.
        error: EnvError,
    },
    /// A value is read in a lane that never defined it.
    UndefinedValue {
        /// The value.
        value: ValueName,
    },
    /// A phi has no source for the block the lane came from.
    MissingPhiSource {
        /// The block holding the phi.
        block: BlockName,
        /// The block the lane came from (`None` at function entry).
        pred: Option<BlockName>,
    },
    /// A `break` or `continue` outside any loop.
    JumpOutsideLoop {
        /// The block ending with the jump.
        block: BlockName,
        /// The jump.
        jump: Jump,
    },
    /// The run exceeded its step budget, [`Config::max_steps`](super::Config::max_steps).
    StepLimit {
        /// The limit.
        limit: u64,
        /// The loop being iterated, if any.
        in_loop: Option<LoopId>,
    },
    /// The subgroup size is not in 1..=32.
    BadLaneCount {
        /// The size asked for.
        lanes: usize,
    },
    /// An intrinsic names an image the shader does not declare.
    MissingImage {
        /// The image id.
        image: ImageId,
    },
    /// A source names a value id outside the function's arena.
    BadValue {
        /// The value.
        value: ValueName,
    },
    /// A `barrier` reached by only some of the lanes that started the run: barriers
    /// must be executed in uniform control flow by every invocation of the workgroup.
    DivergentBarrier {
        /// The lanes executing the barrier.
        active: u32,
        /// The lanes that started the run.
        expected: u32,
    },
    /// A lane's `load_constant` cannot read the shader's constant data.
    ConstantData {
        /// Why.
        error: super::constant::ConstantReadError,
    },
    /// Active lanes of one subgroup give an access that is not `non_uniform` different
    /// descriptor indices. Vulkan requires a resource index to be dynamically uniform
    /// unless the access is decorated `NonUniform` (undefined behaviour otherwise, which
    /// GPU-assisted validation reports); the hardware takes one surface per message.
    NonUniformIndex {
        /// The opcode.
        op: IntrinsicOp,
        /// The lowest active lane and its index.
        first: DescriptorLane,
        /// A lane whose index differs from it.
        other: DescriptorLane,
    },
}

/// One lane of a [`InterpErrorKind::NonUniformIndex`] error.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DescriptorLane {
    /// The lane in its subgroup.
    pub lane: u32,
    /// The invocation the lane runs (its linear index in the dispatch, as the
    /// executor numbers invocations).
    pub invocation: u32,
    /// The descriptor index the lane gives.
    pub index: u64,
}

/// An interpreter error: where (the instruction's span), which lane, and what.
#[derive(Debug)]
pub struct InterpError {
    /// Source position of the instruction (or of the `if`/`loop`/block concerned).
    pub span: Span,
    /// The instruction, if the error concerns one.
    pub inst: Option<Inst>,
    /// The lane concerned, if one.
    pub lane: Option<u32>,
    /// What went wrong.
    pub kind: InterpErrorKind,
}

impl InterpError {
    pub(super) fn new(
        span: Span,
        inst: Option<Inst>,
        lane: Option<u32>,
        kind: InterpErrorKind,
    ) -> Self {
        InterpError {
            span,
            inst,
            lane,
            kind,
        }
    }

    /// The environment's error, if this is one.
    pub fn env_error(&self) -> Option<&EnvError> {
        match &self.kind {
            InterpErrorKind::Env { error, .. } => Some(error),
            _ => None,
        }
    }
}
