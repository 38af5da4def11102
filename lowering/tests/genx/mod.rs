//! Lowered test shaders become vISA kernels that IGC's finalizer compiles: on every LSC
//! platform a lowered shader must emit (`visa::emit_kernel`) and GenX_IR must accept
//! the kernel. GenX_IR is required in CI (`CI` set); elsewhere its absence skips the
//! compile, with a note on stderr once.

use ir::Shader;
use lowering::Device;
use std::sync::Once;

/// Emits `shader` (lowered for `device`) as a kernel and compiles it with GenX_IR when
/// the device has LSC messages; `what` names the case in failures.
pub fn compiles(shader: &Shader, device: &Device, what: &str) {
    if !device.has_lsc {
        return;
    }
    let kernel = visa::emit_kernel(shader, device, &Default::default()).unwrap_or_else(|e| {
        panic!(
            "{what}: no vISA on {}: {e}\n{}",
            device.name,
            ir::print_shader(shader)
        )
    });
    let Some(platform) = kernel.genx_platform else {
        return; // Xe2: GenX_IR 1.0.12504 predates it.
    };
    if visa::igc::find_tool().is_none() {
        assert!(std::env::var_os("CI").is_none(), "GenX_IR is missing in CI");
        static NOTE: Once = Once::new();
        NOTE.call_once(|| eprintln!("note: GenX_IR not installed; kernels are not compiled"));
        return;
    }
    if let Err(e) = visa::igc::compile(&kernel.text, platform) {
        panic!(
            "{what}: GenX_IR rejects the kernel for {}: {e}\n{}",
            device.name, kernel.text
        );
    }
}
