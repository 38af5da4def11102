//! SIMD width selection confirmed by the finalizer: brw compiles a compute shader at
//! each width it allows (SIMD32 only where it must, [`crate::candidate_widths`]) and
//! keeps the widest that compiled without spilling (Mesa `brw_simd_select`); here the
//! pressure model of [`crate::emit_kernel`] proposes the widest of those that fits, and
//! GenX_IR, when installed, has the last word: a kernel it spills is emitted again at
//! the next narrower width.

use crate::igc::{self, CheckError, Compiled};
use crate::kernel::{candidate_widths, emit_kernel, Kernel};
use crate::{EmitError, EmitErrorKind, Options};
use ir::Shader;
use lowering::Device;

/// A kernel at the width chosen for it, and GenX_IR's verdict on it.
#[derive(Debug)]
pub struct Confirmed {
    /// The kernel.
    pub kernel: Kernel,
    /// GenX_IR's verdict on the kernel: `None` when GenX_IR is not installed or knows
    /// no platform for the device (Xe2), so that only the pressure model chose.
    pub verdict: Option<Result<Compiled, CheckError>>,
    /// The wider widths given up, each with GenX_IR's spill report (bytes of spill
    /// memory), widest first.
    pub spilled: Vec<(u32, u32)>,
}

/// Emits `shader` as [`emit_kernel`] does and, when the width is free (neither the
/// shader's `subgroup_size` nor [`Options::simd`] fixes it) and GenX_IR is installed,
/// lets GenX_IR decide among [`candidate_widths`] as brw decides among its compiles:
/// widest first, each width's kernel is compiled, and the first one GenX_IR compiles
/// without a spill report is kept. A width the pressure model refuses is still
/// compiled (with [`Options::unchecked_pressure`]): the model errs on the safe side
/// (SIMD32 before Gfx12.5 keeps half the registers for the finalizer), and GenX_IR's
/// verdict is the fact it approximates. When every width spills, the result is the
/// narrowest width's kernel, which GenX_IR spills ([`igc::compile_spilling`]'s
/// verdict); with [`Options::forbid_spills`], the model's refusal. A fixed width is
/// emitted and compiled once, its errors its own.
pub fn emit_confirmed(
    shader: &Shader,
    device: &Device,
    options: &Options,
) -> Result<Confirmed, EmitError> {
    let kernel = emit_kernel(shader, device, options);
    let widths = candidate_widths(shader, device, options)?;
    let platform = crate::target::genx_platform(device);
    let (Some(platform), Some(_)) = (platform, igc::find_tool()) else {
        return kernel.map(|kernel| Confirmed {
            kernel,
            verdict: None,
            spilled: Vec::new(),
        });
    };
    if widths.len() == 1 {
        let kernel = kernel?;
        let verdict = Some(match kernel.spill_estimate {
            Some(_) => igc::compile_spilling(&kernel.text, platform),
            None => igc::compile(&kernel.text, platform),
        });
        return Ok(Confirmed {
            kernel,
            verdict,
            spilled: Vec::new(),
        });
    }
    let mut spilled = Vec::new();
    let narrowest = widths.len() - 1;
    for (i, &w) in widths.iter().enumerate() {
        let mut at = options.clone();
        at.simd = Some(w);
        let (k, refusal) = match emit_kernel(shader, device, &at) {
            Err(e) if matches!(*e.kind, EmitErrorKind::RegisterPressure { .. }) => {
                at.unchecked_pressure = true;
                (emit_kernel(shader, device, &at)?, Some(e))
            }
            r => (r?, None),
        };
        let verdict = igc::compile(&k.text, platform);
        match (verdict, refusal) {
            (Err(CheckError::Spilled { bytes }), _) if i < narrowest => spilled.push((w, bytes)),
            // At the narrowest width a spill ends the search: the kernel, which the
            // finalizer spills (brw keeps its narrowest compile, spills and all), unless
            // spills are forbidden.
            (Err(CheckError::Spilled { .. }), Some(e)) if options.forbid_spills => return Err(e),
            (Err(CheckError::Spilled { .. }), _) => {
                let verdict = igc::compile_spilling(&k.text, platform);
                return Ok(Confirmed {
                    kernel: k,
                    verdict: Some(verdict),
                    spilled,
                });
            }
            (verdict, _) => {
                return Ok(Confirmed {
                    kernel: k,
                    verdict: Some(verdict),
                    spilled,
                })
            }
        }
    }
    Err(EmitError::shader(
        EmitErrorKind::Platform {
            reason: "no SIMD width to emit the kernel at".into(),
        },
        &device.name,
    ))
}
