//! Verifying a shader through all three of its forms: the original IR, the lowered IR,
//! and the vISA kernel the back end makes from the lowered IR, on the same initial
//! memory.
//!
//! The lowered shader is checked against the original ([`crate::verifier::verify`]),
//! the kernel against the lowered shader ([`super::leg::verify_kernel`], its inputs
//! laid out as the back end's ABI document says: [`super::abi::DocumentedAbi`]), and
//! the two reports become one ([`super::leg::merge`]): the original's invocations, the
//! accesses both comparisons matched, every mismatch (those of the kernel naming vISA
//! lines).
//!
//! The back end is a parameter ([`Backend`]), so this crate does not depend on it: the
//! tools and the suites pass `visa::emit_kernel`.

use super::abi::DocumentedAbi;
use super::leg::{merge, unusable_kernel, verify_kernel, Kernel, MAX_REGISTER_BYTES};
use super::program::Program;
use super::reader::read;
use super::run::RunConfig;
use crate::setup::Setup;
use crate::verifier::{lower, verify, Report, VerifyError};
use ir::Shader;
use lowering::{Device, LowerOptions};

/// Makes the vISA kernel of a lowered shader.
pub trait Backend {
    /// The kernel text of `lowered` for `device`, or why there is none.
    fn emit(&self, lowered: &Shader, device: &Device) -> Result<String, String>;
}

impl<F: Fn(&Shader, &Device) -> Result<String, String>> Backend for F {
    fn emit(&self, lowered: &Shader, device: &Device) -> Result<String, String> {
        self(lowered, device)
    }
}

/// The reports of the two comparisons and the kernel.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The original against the lowered shader.
    pub lowering: Report,
    /// The lowered shader against the kernel.
    pub kernel: Report,
    /// The kernel's text.
    pub text: String,
}

impl Verified {
    /// Both reports as one.
    pub fn report(&self) -> Report {
        merge(self.lowering.clone(), self.kernel.clone())
    }
}

/// Lowers `shader` for `device` with `options`, makes the kernel of the result with
/// `backend` and verifies all three on `setup` (whose bindings are replaced by the
/// lowering's). A back end that cannot make the kernel is an error.
pub fn lower_and_verify_visa(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
    setup: &Setup,
    backend: &dyn Backend,
    config: &RunConfig,
) -> Result<Verified, VerifyError> {
    let l = lower(shader, device, options)?;
    let mut setup = setup.clone();
    setup.bindings = l.report.bindings.clone();
    let lowering = verify(&l.original, &l.lowered, device, &setup)?;
    let text = backend
        .emit(&l.lowered, device)
        .map_err(|e| VerifyError::Shaders(format!("the vISA back end made no kernel: {e}")))?;
    let kernel = verify_visa_text(&l.lowered, device, &setup, &text, config)?;
    Ok(Verified {
        lowering,
        kernel,
        text,
    })
}

/// Verifies the vISA kernel `text`, with inputs as the back end's ABI lays them out,
/// against `lowered` (the shader it was made from) on `setup`, with `device`'s register
/// size. A kernel the interpreter cannot read or lay out, or whose inputs are not the
/// ABI's, is an execution mismatch naming the line.
pub fn verify_visa_text(
    lowered: &Shader,
    device: &Device,
    setup: &Setup,
    text: &str,
    config: &RunConfig,
) -> Result<Report, VerifyError> {
    let made = read(text)
        .and_then(|l| Program::new(&l, device.grf_bytes, MAX_REGISTER_BYTES))
        .and_then(|p| DocumentedAbi::new(&p, lowered, setup.grid).map(|abi| (p, abi)));
    let (program, mut abi) = match made {
        Ok(x) => x,
        Err(e) => return Ok(unusable_kernel(text, &e)),
    };
    verify_kernel(
        lowered,
        device,
        setup,
        Kernel {
            program: &program,
            text,
        },
        &mut abi,
        config,
    )
}
