//! Why a verification could not be carried out.

use crate::exec::ExecError;
use crate::setup::SetupError;
use ir::Span;
use lowering::LowerError;
use std::fmt;
/// Why a verification could not be carried out (as opposed to finding mismatches).
#[derive(Debug)]
pub enum VerifyError {
    /// The setup cannot be built for the shader.
    Setup(SetupError),
    /// The lowering (`lower-images` or `lower-async-copies`) failed (from
    /// [`super::lower_and_verify`]).
    Lower(LowerError),
    /// The cleanup after the lowering failed, or its output is invalid.
    Cleanup(String),
    /// The original shader failed to run: the setup does not suit it.
    Original(ExecError),
    /// The two shaders cannot be compared (different images, no entry point).
    Shaders(String),
    /// Several image or message intrinsics of the original share a span, so their
    /// accesses cannot be told apart; [`super::stamp_spans`] gives every instruction its own.
    AmbiguousSpans(Vec<Span>),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Setup(e) => write!(f, "cannot set up the run: {e}"),
            VerifyError::Lower(e) => write!(f, "{e}"),
            VerifyError::Cleanup(e) => write!(f, "the cleanup after lowering failed: {e}"),
            VerifyError::Original(e) => write!(f, "the original shader failed: {e}"),
            VerifyError::Shaders(e) => write!(f, "the shaders cannot be compared: {e}"),
            VerifyError::AmbiguousSpans(spans) => {
                let s: Vec<String> = spans.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "image accesses of the original share the span(s) {}, so the lowered \
                     accesses cannot be matched to them (stamp the spans first)",
                    s.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Setup(e) => Some(e),
            VerifyError::Lower(e) => Some(e),
            VerifyError::Original(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SetupError> for VerifyError {
    fn from(e: SetupError) -> VerifyError {
        VerifyError::Setup(e)
    }
}
