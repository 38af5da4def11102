//! A GenX_IR crash is reported as one, not retried.
//!
//! `crash/pvc_local_ra.ir` is a lowered shader of the vISA sweep (`visa_sweep`,
//! QC_SEED=11, QC_TESTS=2200, PVC case 1920) whose SIMD16 kernel, as the emitter wrote
//! it before comparisons were folded into their conditions, made GenX_IR 1.0.12504
//! crash with a segmentation fault. `crash/pvc_local_ra.visaasm` is that kernel
//! reduced, one line at a time, to the 100 instructions that all must stay for the
//! crash: it is no single construct but the state of the finalizer's local register
//! allocator, which crashes in its round-robin mode (`-nolocalraroundrobin`,
//! `-nolocalra`, `-nolvn` and `-TotalGRFNum 256` each avoid it) on a kernel of ten
//! live registers. The kernel the emitter writes for the shader today compiles.

mod common;

use lowering::Device;
use visa::igc::CheckError;
use visa::Options;

#[test]
fn the_reduced_kernel_crashes_genx_ir_and_is_reported_as_a_crash() {
    if !common::have_genx("the_reduced_kernel_crashes_genx_ir_and_is_reported_as_a_crash") {
        return;
    }
    let text = include_str!("crash/pvc_local_ra.visaasm");
    match visa::igc::compile(text, "PVC") {
        Err(CheckError::Crashed { .. }) => {}
        Err(e) => panic!("expected a crash: {e}"),
        Ok(_) => panic!("GenX_IR compiled the reduced kernel"),
    }
}

#[test]
fn the_shader_of_the_crash_compiles() {
    let shader = common::parse(include_str!("crash/pvc_local_ra.ir"));
    let pvc = Device::preset("pvc").unwrap();
    let k =
        visa::emit_kernel(&shader, &pvc, &Options::with_simd(16)).unwrap_or_else(|e| panic!("{e}"));
    if common::have_genx("the_shader_of_the_crash_compiles") {
        visa::igc::compile(&k.text, "PVC").unwrap_or_else(|e| panic!("{e}"));
    }
}
