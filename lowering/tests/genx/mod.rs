//! Lowered test shaders become vISA kernels that IGC's finalizer compiles: on every
//! platform from Gfx8 a lowered shader must emit (`visa::emit_kernel`) and GenX_IR must accept
//! the kernel. Every test shader is also lowered for the four generations of the legacy
//! data port (BDW, SKL, ICL, TGL) on the typed path and with `force_untyped`, and those
//! kernels must compile too. GenX_IR is required in CI (`CI` set); elsewhere its absence
//! skips the compile, with a note on stderr once.

use ir::Shader;
use lowering::{Device, LowerOptions};
use std::collections::HashSet;
use std::sync::{Mutex, Once};

/// One platform of each generation with the legacy data port that GenX_IR knows.
const LEGACY: [&str; 4] = ["bdw", "skl", "icl", "tgl"];

/// Emits `shader` (lowered for `device`) as a kernel and compiles it with GenX_IR when
/// GenX_IR has a platform for the device (Gfx8 and later: the legacy data port's
/// messages to Gfx12.0, LSC ones from Gfx12.5); `what` names the case in failures.
pub fn compiles(shader: &Shader, device: &Device, what: &str) {
    if device.gen < tiling::Gen::Gfx8 {
        return; // Gfx7: no finalizer platform, the shader stays at IR level.
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

/// Lowers `source`, a test shader before lowering, for each platform of [`LEGACY`] on
/// the typed path and with `force_untyped` as `ir-opt -O` does ([`lowering::lower_shader`]),
/// and compiles its kernel ([`compiles`]). The lowering may refuse the shader on a platform
/// (a format the generation cannot store, a message the shader names for another
/// platform): that is the lowering's documented error, checked by the test itself where
/// it matters; a kernel that cannot be emitted or that GenX_IR rejects fails. Each
/// distinct shader is compiled once per test binary.
pub fn compiles_on_legacy_platforms(source: &Shader, what: &str) {
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let text = ir::print_shader(source);
    {
        let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
        if !seen.get_or_insert_with(HashSet::new).insert(text) {
            return;
        }
    }
    let modes = [
        LowerOptions::default(),
        LowerOptions {
            force_untyped: true,
            ..LowerOptions::default()
        },
    ];
    for name in LEGACY {
        let device = Device::preset(name).expect("a legacy preset");
        for options in &modes {
            let mut shader = source.clone();
            if lowering::lower_shader(&mut shader, &device, options).is_err() {
                continue;
            }
            let mode = if options.force_untyped {
                "untyped"
            } else {
                "typed"
            };
            compiles(&shader, &device, &format!("{what} ({mode}, {name})"));
        }
    }
}
