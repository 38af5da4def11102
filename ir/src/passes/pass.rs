//! What a pass is: the [`Pass`] trait every pass implements and the [`PassError`] it
//! returns.

use crate::diag::Diagnostic;
use crate::shader::Shader;
use std::fmt;

/// A pass that failed: which pass, and what it could not handle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassError {
    /// The pass name.
    pub pass: String,
    /// What went wrong, with source positions.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass `{}` failed", self.pass)?;
        for d in &self.diagnostics {
            write!(f, "\n  {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PassError {}

/// A transformation of a shader.
pub trait Pass {
    /// The name used in pipelines (`const-fold`, `cse`, `lower-images`).
    fn name(&self) -> &'static str;

    /// Runs the pass; returns whether the shader changed.
    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError>;
}
