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
use crate::verifier::{lower, verify, Lowered, Report, VerifyError};
use ir::Shader;
use lowering::{Device, LowerOptions};

/// Makes the vISA kernel of a lowered shader.
pub trait Backend {
    /// The kernel text of `lowered` for `device`, `simd` lanes per thread unless the
    /// shader fixes its subgroup size, or why there is none.
    fn emit(&self, lowered: &Shader, device: &Device, simd: u32) -> Result<String, String>;

    /// The SIMD width the back end chooses for `lowered` when the width is free (no
    /// `--subgroup`, no subgroup size in the shader), so that the run checks the kernel
    /// a driver gets, with the kernel it made at that width (choosing the width makes
    /// it, so the run does not emit it again); `Ok(None)` leaves the run's default, an
    /// error is why the back end makes a kernel at no width.
    fn free_width(
        &self,
        _lowered: &Shader,
        _device: &Device,
    ) -> Result<Option<(u32, String)>, String> {
        Ok(None)
    }
}

/// The kernels of one lowered shader, by SIMD width: each width's is made once, however
/// many setups (view formats, simpler contents) the shader is verified on.
pub struct Kernels<'b> {
    backend: &'b dyn Backend,
    made: Vec<(u32, String)>,
}

impl<'b> Kernels<'b> {
    /// None made yet; `backend` makes them.
    pub fn new(backend: &'b dyn Backend) -> Kernels<'b> {
        Kernels {
            backend,
            made: Vec::new(),
        }
    }

    /// Keeps `text`, the kernel the back end already made at width `simd`
    /// ([`Backend::free_width`]'s).
    pub fn insert(&mut self, simd: u32, text: String) {
        self.made.retain(|(w, _)| *w != simd);
        self.made.push((simd, text));
    }

    /// The kernel of `lowered` at width `simd`, made on first need. A back end that
    /// cannot make it is an error (not kept: it ends the verification).
    pub fn at(
        &mut self,
        lowered: &Shader,
        device: &Device,
        simd: u32,
    ) -> Result<&str, VerifyError> {
        let i = match self.made.iter().position(|(w, _)| *w == simd) {
            Some(i) => i,
            None => {
                let text = self.backend.emit(lowered, device, simd).map_err(|e| {
                    VerifyError::Shaders(format!("the vISA back end made no kernel: {e}"))
                })?;
                self.made.push((simd, text));
                self.made.len() - 1
            }
        };
        Ok(&self.made[i].1)
    }
}

impl<F: Fn(&Shader, &Device, u32) -> Result<String, String>> Backend for F {
    fn emit(&self, lowered: &Shader, device: &Device, simd: u32) -> Result<String, String> {
        self(lowered, device, simd)
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
    verify_lowered_visa(&l, device, setup, &mut Kernels::new(backend), config)
}

/// [`lower_and_verify_visa`] on the pair [`lower`] made, its kernel at the setup's
/// subgroup size taken from `kernels` (made there on first need): the lowering and the
/// kernel do not depend on the setup's contents, so runs on several setups lower and
/// emit once.
pub fn verify_lowered_visa(
    l: &Lowered,
    device: &Device,
    setup: &Setup,
    kernels: &mut Kernels<'_>,
    config: &RunConfig,
) -> Result<Verified, VerifyError> {
    let mut setup = setup.clone();
    setup.bindings = l.report.bindings.clone();
    let lowering = verify(&l.original, &l.lowered, device, &setup).map_err(|e| l.at_input(e))?;
    let text = kernels.at(&l.lowered, device, setup.subgroup_size)?;
    let kernel = verify_visa_text(&l.lowered, device, &setup, text, config)?;
    Ok(Verified {
        lowering,
        kernel,
        text: text.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verifier::MismatchKind;

    /// Each invocation stores 3 * id at dword id of SSBO 0 (no images: the lowering
    /// leaves it as it is).
    const SHADER: &str = "shader compute (local_size=16,1,1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (4)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0)
    32   %4 = load_const (3)
    32   %5 = imul %0.x, %4
    @store_ssbo (%5, %3, %2) (access=none, align_mul=4)
}
";

    /// The kernel with the ABI's inputs (SIMD16 on 32-byte registers: the local ids
    /// at 32, 64, 96, the SSBO table at 128), multiplying by `mul`.
    fn kernel(mul: u32) -> String {
        format!(
            ".version 4.1
.kernel \"main\"
.decl local_id_x v_type=G type=uw num_elts=16
.decl local_id_y v_type=G type=uw num_elts=16
.decl local_id_z v_type=G type=uw num_elts=16
.decl ssbo_table v_type=G type=uq num_elts=1
.decl BASE v_type=G type=uq num_elts=1
.decl G v_type=G type=ud num_elts=16
.decl OFF v_type=G type=ud num_elts=16
.decl V v_type=G type=ud num_elts=16
.decl A v_type=G type=uq num_elts=16
.input local_id_x offset=32 size=32
.input local_id_y offset=64 size=32
.input local_id_z offset=96 size=32
.input ssbo_table offset=128 size=8
.kernel_attr SimdSize=16
.function \"main\"
main:
    mul (M1, 16) G(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud
    add (M1, 16) G(0,0)<1> G(0,0)<1;1,0> local_id_x(0,0)<1;1,0>
    shl (M1, 16) OFF(0,0)<1> G(0,0)<1;1,0> 0x2:ud
    mul (M1, 16) V(0,0)<1> G(0,0)<1;1,0> {mul}:ud
    lsc_load.ugm (M1_NM, 1) BASE:d64 flat[ssbo_table]:a64
    add (M1, 16) A(0,0)<1> BASE(0,0)<0;1,0> OFF(0,0)<1;1,0>
    lsc_store.ugm (M1, 16) flat[A]:a64 V:d32
    ret (M1, 1)
"
        )
    }

    fn check(backend: &dyn Backend) -> Result<Verified, VerifyError> {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 5).unwrap();
        setup.grid = [2, 1, 1];
        lower_and_verify_visa(
            &shader,
            &device,
            &LowerOptions::default(),
            &setup,
            backend,
            &RunConfig::default(),
        )
    }

    #[test]
    fn a_faithful_kernel_verifies_with_the_lowering() {
        let asked = std::cell::Cell::new(0);
        let backend = |_: &Shader, d: &Device, simd: u32| {
            assert_eq!(d.name, "dg2");
            asked.set(simd);
            Ok(kernel(3))
        };
        let v = check(&backend).unwrap();
        assert_eq!(asked.get(), 16, "the setup's subgroup size");
        let r = v.report();
        assert!(r.passed(), "{r}");
        assert_eq!(r.invocations, 32);
        // The kernel's 32 stores against the lowered shader's, besides the lowering's
        // own comparison (which has no image accesses to compare).
        assert_eq!(v.kernel.accesses, 32);
        assert_eq!(r.accesses, v.lowering.accesses + 32);
        assert!(v.text.contains("lsc_store.ugm"));
    }

    #[test]
    fn a_wrong_kernel_fails_the_merged_report() {
        let v = check(&|_: &Shader, _: &Device, _: u32| Ok(kernel(5))).unwrap();
        assert!(v.lowering.passed());
        let r = v.report();
        assert!(r.has(MismatchKind::BufferByte), "{r}");
        assert!(r.mismatches[0]
            .instruction
            .as_deref()
            .is_some_and(|i| i.starts_with("vISA line 25: lsc_store.ugm")));
    }

    #[test]
    fn an_input_outside_the_abi_is_an_execution_mismatch() {
        let text = kernel(3).replace("ssbo_table", "table");
        let v = check(&|_: &Shader, _: &Device, _: u32| Ok(text.clone())).unwrap();
        let r = v.report();
        assert!(r.has(MismatchKind::Execution), "{r}");
        let m = &r.mismatches[0];
        assert!(m.actual.contains("`table`"), "{m}");
        assert!(
            m.instruction.as_deref() == Some("vISA line 15: .input table offset=128 size=8"),
            "{m}"
        );
    }

    #[test]
    fn a_back_end_without_a_kernel_is_an_error() {
        let e = check(&|_: &Shader, _: &Device, _: u32| Err("no LSC".to_string())).unwrap_err();
        assert!(e.to_string().contains("no LSC"), "{e}");
    }
}
