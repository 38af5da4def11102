//! Kernels that would spill are refused, not emitted: GenX_IR reports a spill as a
//! failure (exit status 1), so an emitted kernel must fit the register file.
//!
//! The shaders under `pressure/` are lowered shaders from the vISA sweep whose SIMD32
//! kernels for Gfx8 to Gfx12.0 made GenX_IR 1.0.12504 spill (the expected outcome is
//! that tool's). At SIMD32 the back end must now refuse them with
//! `EmitErrorKind::RegisterPressure`; at SIMD16 they must still emit, and compile.

mod common;

use lowering::Device;
use visa::{EmitErrorKind, Options};

const CASES: [(&str, &str); 3] = [
    ("bdw", include_str!("pressure/simd32_bdw.ir")),
    ("skl", include_str!("pressure/simd32_skl.ir")),
    ("tgl", include_str!("pressure/simd32_tgl.ir")),
];

#[test]
fn simd32_kernels_that_spilled_are_refused() {
    for (platform, text) in CASES {
        let shader = common::parse(text);
        let device = Device::preset(platform).unwrap();
        let e = visa::emit_kernel(&shader, &device, &Options::with_simd(32))
            .expect_err("the SIMD32 kernel spilled in GenX_IR");
        assert!(
            matches!(*e.kind, EmitErrorKind::RegisterPressure { .. }),
            "{platform}: {e}"
        );
    }
}

#[test]
fn the_same_shaders_compile_at_simd16() {
    let genx = common::have_genx("the_same_shaders_compile_at_simd16");
    for (platform, text) in CASES {
        let shader = common::parse(text);
        let device = Device::preset(platform).unwrap();
        let k = visa::emit_kernel(&shader, &device, &Options::with_simd(16))
            .unwrap_or_else(|e| panic!("{platform}: {e}"));
        assert_eq!(k.abi.simd, 16);
        if genx {
            let p = k.genx_platform.expect("a GenX_IR platform");
            visa::igc::compile(&k.text, p).unwrap_or_else(|e| panic!("{platform}: {e}"));
        }
    }
}
