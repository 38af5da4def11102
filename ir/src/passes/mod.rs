//! Generic cleanup passes and the pass manager.
//!
//! Each pass lives in its own file and implements [`Pass`]. The [`PassManager`] runs a
//! named pipeline (`-p const-fold,cse,dce` in `ir-opt`), can validate after each pass
//! and print the shader after each one, and records per-pass timings.

pub mod algebraic;
pub mod cleanup;
pub mod const_fold;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod manager;

pub use algebraic::Algebraic;
pub use cleanup::Cleanup;
pub use const_fold::ConstFold;
pub use copy_prop::CopyProp;
pub use cse::Cse;
pub use dce::Dce;
pub use manager::{PassManager, PassOptions, PassRegistry};

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
