//! The `lower-dataport` pass: on devices without LSC (Gfx7 to Gfx12.0), every
//! LSC-shaped message becomes the legacy data-port messages of the generation
//! ([`crate::messages::dataport`]: the plan of each message, its legality table, its
//! rewrite).
//!
//! The image and group-copy lowerings describe their accesses as LSC messages and run
//! this rewrite after their emission when the device has no LSC, so that no IR they
//! produce for such a device holds an LSC message. They ask `check_input` first,
//! with their own planning: the LSC messages a shader already holds must have legacy
//! forms too, and its data-port messages must be the platform's (none where there is
//! LSC), so that a shader that cannot be lowered is left unchanged. The pass of
//! its own ([`LowerDataport`], `-p lower-dataport`) rewrites LSC messages written by
//! hand or by another producer.

use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind};
use crate::messages::dataport::{
    check_dataport, legalize_shader, plan_function, DataportRule, LegacyError,
};
use ir::dataport::DpDesc;
use ir::passes::{Pass, PassError};
use ir::Shader;

/// The lowering error of a message without a legacy form.
fn lower_error(e: LegacyError, device: &Device) -> LowerError {
    LowerError::new(
        LowerErrorKind::NoDataportMessage(Box::new(e.rule)),
        &device.name,
    )
    .at(&e.function, Some(e.op.name()), e.span)
}

/// Whether `device` sends legacy data-port messages instead of LSC ones.
fn rewrites(device: &Device) -> bool {
    !device.has_lsc
}

/// The data-port messages `func` already holds that `device` cannot send: every one
/// where there is LSC, those its generation's table refuses elsewhere.
fn foreign_dataport(func: &ir::Function, device: &Device) -> Vec<LowerError> {
    let mut out = Vec::new();
    for inst in func.insts_in_order() {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            continue;
        };
        let Some(msg) = i.op.dp_msg() else {
            continue;
        };
        let Ok(d) = DpDesc::from_indices(msg, &i.indices) else {
            continue; // the validator's to report
        };
        let rule = match &device.dataport {
            None => Some(DataportRule::NotLegacy {
                platform: device.name.clone(),
            }),
            Some(caps) => check_dataport(caps, &device.name, &d).err(),
        };
        if let Some(rule) = rule {
            out.push(
                LowerError::new(
                    LowerErrorKind::NoDataportMessage(Box::new(rule)),
                    &device.name,
                )
                .at(&func.name, Some(i.op.name()), func.inst_span(inst)),
            );
        }
    }
    out
}

/// Checks, changing nothing, that the messages `shader` already holds are `device`'s
/// or can become its: without LSC every LSC message has a legacy form, and every
/// data-port message is one the generation has; with LSC there is no data-port message.
pub(crate) fn check_input(shader: &Shader, device: &Device) -> Result<(), Vec<LowerError>> {
    let mut errors: Vec<LowerError> = shader
        .functions
        .iter()
        .flat_map(|f| foreign_dataport(f, device))
        .collect();
    if rewrites(device) {
        errors.extend(
            shader
                .functions
                .iter()
                .filter_map(|f| plan_function(f, device).err())
                .flatten()
                .map(|e| lower_error(e, device)),
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Rewrites every LSC message of `shader` into legacy data-port messages when `device`
/// has no LSC; returns how many it rewrote, or every message it cannot rewrite (the
/// shader is then unchanged).
pub fn lower_dataport(shader: &mut Shader, device: &Device) -> Result<usize, Vec<LowerError>> {
    if !rewrites(device) {
        return Ok(0);
    }
    legalize_shader(shader, device)
        .map_err(|errors| errors.into_iter().map(|e| lower_error(e, device)).collect())
}

/// The `lower-dataport` pass for a pass pipeline.
#[derive(Clone, Debug)]
pub struct LowerDataport {
    /// The target.
    pub device: Device,
}

impl Pass for LowerDataport {
    fn name(&self) -> &'static str {
        "lower-dataport"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let lowered = lower_dataport(shader, &self.device);
        crate::error::pass_outcome(self.name(), shader, lowered)
    }
}

/// Registers `lower-dataport` for `device` in a pass registry. Without a device the
/// pass exists but reports that it needs a platform.
pub fn register_lower_dataport(registry: &mut ir::passes::PassRegistry, device: Option<Device>) {
    registry.register(
        "lower-dataport",
        "rewrite LSC messages into the legacy data-port messages of a platform without LSC",
        move |o: &ir::passes::PassOptions| {
            let Some(device) = &device else {
                return Err(
                    "lower-dataport needs a platform: the data port it lowers to is the platform's"
                        .to_string(),
                );
            };
            o.expect_only(&[])?;
            Ok(Box::new(LowerDataport {
                device: device.clone(),
            }) as Box<dyn Pass>)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHADER: &str = "shader compute (local_size=8,1,1)
image @img : 2d r32_uint (binding=0)

fn main {
  block b0:
    32   %0 = load_const (0x00000010)
    64   %1 = load_const (0x0000000000001000)
    32   %2 = @lsc_load (@img, %0) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32)
    32   %3 = @lsc_load (%1) (lsc_sfid=ugm, lsc_addr=flat, lsc_addr_size=a64, lsc_data=d32)
}
";

    #[test]
    fn a_shader_that_cannot_be_rewritten_is_left_alone() {
        let mut sh = ir::parse_shader(SHADER).unwrap();
        let before = sh.clone();
        // Ivy Bridge has no A64 messages: the second load is reported, at its line.
        let ivb = Device::preset("ivb").unwrap();
        assert!(check_input(&sh, &ivb).is_err());
        let errors = lower_dataport(&mut sh, &ivb).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].span.line, 9);
        assert_eq!(errors[0].intrinsic, Some("lsc_load"));
        assert!(
            errors[0].to_string().contains("ivb has no A64 messages"),
            "{}",
            errors[0]
        );
        assert_eq!(sh, before);
        // Broadwell has both; DG2 keeps its LSC messages.
        let dg2 = Device::preset("dg2").unwrap();
        assert_eq!(lower_dataport(&mut sh, &dg2).unwrap(), 0);
        assert_eq!(sh, before);
        let bdw = Device::preset("bdw").unwrap();
        assert!(check_input(&sh, &bdw).is_ok());
        assert_eq!(lower_dataport(&mut sh, &bdw).unwrap(), 2);
        let text = sh.to_string();
        assert!(!text.contains("@lsc_"), "{text}");
        assert!(
            text.contains("@dp_untyped_read (@img, %0) (dp_addr=bti, dp_cmask=x)"),
            "{text}"
        );
        assert!(
            text.contains("@dp_untyped_read (%1) (dp_addr=a64, dp_cmask=x)"),
            "{text}"
        );
        ir::validate(&sh).unwrap();
        // Data-port messages are not DG2's, and an A64 one is not Haswell's.
        let errors = check_input(&sh, &dg2).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(
            errors[0]
                .to_string()
                .contains("dg2 has no legacy data-port messages"),
            "{}",
            errors[0]
        );
        let hsw = Device::preset("hsw").unwrap();
        let errors = check_input(&sh, &hsw).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].span.line, 9);
        assert!(check_input(&sh, &bdw).is_ok());
    }
}
