//! Fuzz target: the execution path. Text -> parse -> validate -> lower for a platform
//! picked from the input -> run the original and the lowered shader on the same memory
//! and compare them, with the verifier of the `verify` crate, under small memory and
//! step budgets.
//!
//! Any panic is a bug: in the parser, the validator, the lowering, the executor or the
//! verifier. A lowering the platform refuses (a typed error), an original that fails to
//! run (an out-of-bounds buffer access, the step budget) and a setup the executor
//! refuses are answers, not bugs. A verification that finds mismatches is a bug too: the
//! lowering computed something else than the shader (or the verifier is wrong), so the
//! target panics with the report.

#![no_main]

use ir::{parse_shader, validate, Shader};
use libfuzzer_sys::fuzz_target;
use lowering::{Device, LowerOptions, UntypedAddress};
use verify::setup::Setup;
use verify::verifier::{lower, verify, VerifyError};

/// The most invocations a case runs (the grid shrinks to one workgroup beyond).
const MAX_INVOCATIONS: u64 = 1024;
/// The most memory (images, buffers, global allocations) a case may bind.
const MAX_MEMORY: u64 = 16 << 20;
/// The step budget of each subgroup: a runaway loop ends in milliseconds.
const MAX_STEPS: u64 = 20_000;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(shader) = parse_shader(&text) else {
        return;
    };
    if validate(&shader).is_err() {
        return;
    }
    let h = fnv(data);
    let names = Device::PRESET_NAMES;
    let device = Device::preset(names[(h % names.len() as u64) as usize]).expect("a preset");
    let options = LowerOptions {
        bounds_check: true,
        force_untyped: h & (1 << 8) != 0,
        untyped_address: if h & (1 << 9) != 0 {
            UntypedAddress::A64
        } else {
            UntypedAddress::Bti
        },
        readonly_via_sampler: h & (1 << 10) != 0,
        ..LowerOptions::default()
    };
    run_case(&shader, &device, &options, h >> 16);
});

fn run_case(shader: &Shader, device: &Device, options: &LowerOptions, seed: u64) {
    // A shader without an entry point has nothing to run.
    if shader.entry().is_none() {
        return;
    }
    let Ok(mut setup) = Setup::default_for(shader, device, seed) else {
        return;
    };
    let wg = shader.workgroup_invocations();
    if wg == 0 || wg > MAX_INVOCATIONS {
        return;
    }
    let grid: u64 = setup.grid.iter().map(|&n| n as u64).product();
    if grid.saturating_mul(wg) > MAX_INVOCATIONS {
        setup.grid = [1, 1, 1];
    }
    setup.max_steps = MAX_STEPS;
    if setup.memory_bytes().is_none_or(|n| n > MAX_MEMORY) {
        return;
    }
    let lowered = match lower(shader, device, options) {
        Ok(l) => l,
        // The platform cannot do it: a typed error naming the instruction.
        Err(VerifyError::Lower(_)) => return,
        Err(e) => panic!(
            "lowering failed with something else than a lowering error: {e}\n--- shader ---\n{}",
            ir::print_shader(shader)
        ),
    };
    setup.bindings = lowered.report.bindings.clone();
    match verify(&lowered.original, &lowered.lowered, device, &setup) {
        Ok(report) if report.passed() => {}
        Ok(report) => panic!(
            "{} ({options:?}): the lowered shader differs from the original:\n{report}\n\
             --- original ---\n{}\n--- lowered ---\n{}",
            device.name,
            ir::print_shader(&lowered.original),
            ir::print_shader(&lowered.lowered)
        ),
        // The original itself fails (an access out of its buffer, the step budget), or
        // the setup does not suit it: nothing to compare.
        Err(VerifyError::Original(_) | VerifyError::Setup(_)) => {}
        Err(e) => panic!(
            "{} ({options:?}): the verification could not be carried out: {e}\n\
             --- original ---\n{}",
            device.name,
            ir::print_shader(&lowered.original)
        ),
    }
}

/// FNV-1a, 64 bits: the platform and options a given input runs with.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
