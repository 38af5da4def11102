//! GenX_IR crashes on kernels of ours, reduced, and why our kernels no longer meet them.
//!
//! **PVC, local register allocation.** `crash/pvc_local_ra.ir` is a lowered shader of
//! the vISA sweep (`visa_sweep`, QC_SEED=11, QC_TESTS=2200, PVC case 1920) whose SIMD16
//! kernel, as the emitter wrote it before comparisons were folded into their
//! conditions, made GenX_IR 1.0.12504 crash with a segmentation fault.
//! `crash/pvc_local_ra.visaasm` is that kernel reduced, one line at a time, to the 100
//! instructions that all must stay for the crash: it is no single construct but the
//! state of the finalizer's local register allocator, which crashes in its round-robin
//! mode on a kernel of ten live registers. The crash needs GenX_IR's default options.
//! IGC compiles every PVC kernel with `-enableHalfLSC` (among the options of
//! [`visa::igc::finalizer_options`], read from IGC's own dumps), and with it the same
//! kernel compiles: the half-size LSC messages change the register classes the local
//! allocator sees. `visa::igc::compile` passes IGC's options, so the first test runs the
//! finalizer by hand without them, to keep the reproducer honest (should a newer
//! GenX_IR stop crashing, the test says so), and the second checks that the production
//! options avoid it.
//!
//! **MTL, typed stores of part of a variable.** `crash/mtl_typed_store.ir` is the
//! sweep's MTL case 440 of seed 0 (`QC_SEEDS=0 QC_TESTS=734`): a typed load, a buffer
//! store and a typed store in a lane-divergent loop. At SIMD32 the emitter stored each
//! group of 8 lanes of the stored value in place, `lsc_store_quad.tgm (M7, 8) ...
//! v18.96:d32.x`, and GenX_IR crashed in its scoreboard pass (`addSWSBInfo`) with IGC's
//! MTL options; `crash/mtl_typed_store.visaasm` is that kernel reduced, one line at a
//! time, to the 22 instructions the crash needs. GenX_IR gives a typed message as many
//! data registers as the data operand's whole declaration holds (`src1Len=4` for
//! `v18.96`, a 1-register payload at the last register of a 4-register variable), so
//! the message reads past the variable, and past `r127` when the allocator puts the
//! variable at the top of the register file (`-enablePreemption` shifts it there). The
//! emitter now gives each typed message's data a variable of exactly the payload's size
//! (`visa::payload::source_whole`), as IGC's kernels do
//! (`crash/typed_store_simd32.cl`).
//!
//! **PVC, the `NumGRF` attribute.** `crash/pvc_num_grf.ir` is the sweep's PVC case 4 of
//! seed 7, whose SIMD32 kernel needs the 256-register mode. The emitter said so with
//! `.kernel_attr NumGRF=256`, which GenX_IR 1.0.12504 does not know: it prints
//! "Unsupported kernel attribute!", goes on, and crashes or not with the layout of its
//! heap. `crash/pvc_num_grf.visaasm` is the kernel reduced to its declarations (no
//! instruction is needed; adding or removing one declaration hides the crash, which is
//! why it takes all of them). The emitter now writes the line as a comment
//! ([`visa::NUM_GRF_COMMENT`]) and the finalizer takes the count as `-TotalGRFNum`.

mod common;

use lowering::Device;
use std::process::{Command, ExitStatus};
use visa::igc::CheckError;
use visa::Options;

/// Runs GenX_IR by hand on `text` for `platform` with `args`, in a directory of its own.
fn run_genx(text: &str, platform: &str, args: &[&str]) -> (ExitStatus, String) {
    let exe = visa::igc::find_tool().expect("GenX_IR");
    let dir = std::env::temp_dir().join(format!(
        "visa-crash-{}-{platform}-{}",
        std::process::id(),
        text.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.visaasm"), text).unwrap();
    let out = Command::new(exe)
        .args(["k.visaasm", "-platform", platform, "-output"])
        .args(args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Whether GenX_IR crashes (ends on a signal) on `text` in one of a few runs: these
/// crashes depend on the finalizer's heap layout, which varies between runs (the
/// PVC local-allocation kernel compiles on about one run in three), so a reproducer
/// holds while some run crashes. Returns the last run's output when none does.
fn crashes_in_some_run(text: &str, platform: &str, args: &[&str]) -> Result<(), String> {
    let mut last = String::new();
    for _ in 0..8 {
        let (status, out) = run_genx(text, platform, args);
        if status.code().is_none() {
            return Ok(());
        }
        last = format!("{status}: {out}");
    }
    Err(last)
}

#[test]
fn the_reduced_kernel_crashes_genx_ir_without_igcs_options() {
    if !common::have_genx("the_reduced_kernel_crashes_genx_ir_without_igcs_options") {
        return;
    }
    if let Err(out) = crashes_in_some_run(include_str!("crash/pvc_local_ra.visaasm"), "PVC", &[]) {
        panic!(
            "GenX_IR without IGC's options no longer crashes on the reduced kernel (8 runs): {out}"
        );
    }
}

#[test]
fn the_reduced_kernel_compiles_with_igcs_options() {
    if !common::have_genx("the_reduced_kernel_compiles_with_igcs_options") {
        return;
    }
    assert!(visa::igc::finalizer_options("PVC").contains(&"-enableHalfLSC"));
    match visa::igc::compile(include_str!("crash/pvc_local_ra.visaasm"), "PVC") {
        Ok(_) => {}
        Err(CheckError::Crashed { signal, .. }) => {
            panic!("GenX_IR crashed (signal {signal:?}) despite IGC's options")
        }
        Err(e) => panic!("{e}"),
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

#[test]
fn a_typed_store_of_part_of_a_variable_crashes_genx_ir_on_mtl() {
    if !common::have_genx("a_typed_store_of_part_of_a_variable_crashes_genx_ir_on_mtl") {
        return;
    }
    // With IGC's MTL options, as `compile` passes them.
    match visa::igc::compile(include_str!("crash/mtl_typed_store.visaasm"), "MTL") {
        Err(CheckError::Crashed { .. }) => {}
        Err(e) => panic!("GenX_IR no longer crashes on the reduced kernel: {e}"),
        Ok(_) => panic!("GenX_IR no longer crashes on the reduced kernel"),
    }
}

#[test]
fn the_typed_store_shader_compiles_at_simd32_on_mtl() {
    let shader = common::parse(include_str!("crash/mtl_typed_store.ir"));
    let mtl = Device::preset("mtl").unwrap();
    let k =
        visa::emit_kernel(&shader, &mtl, &Options::with_simd(32)).unwrap_or_else(|e| panic!("{e}"));
    // Every typed store's data is a variable of its own, named without an offset.
    let stores: Vec<&str> = k
        .text
        .lines()
        .filter(|l| l.contains("lsc_store_quad.tgm"))
        .collect();
    assert_eq!(stores.len(), 4, "{}", k.text);
    for l in &stores {
        let data = l.split_whitespace().last().unwrap();
        let var = data.split(':').next().unwrap();
        assert!(!var.contains('.'), "the data is part of a variable: {l}");
        let decl = k
            .text
            .lines()
            .find(|d| d.starts_with(&format!(".decl {var} ")))
            .unwrap_or_else(|| panic!("no .decl of {var}"));
        // 8 lanes of d32.x: one 32-byte register of MTL.
        assert!(decl.contains("type=ud num_elts=8 "), "{decl}");
    }
    if common::have_genx("the_typed_store_shader_compiles_at_simd32_on_mtl") {
        visa::igc::compile(&k.text, "MTL").unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn the_num_grf_attribute_crashes_genx_ir_and_its_comment_does_not() {
    if !common::have_genx("the_num_grf_attribute_crashes_genx_ir_and_its_comment_does_not") {
        return;
    }
    let raw = include_str!("crash/pvc_num_grf.visaasm");
    assert!(raw.contains("\n.kernel_attr NumGRF=256\n"));
    let mut args = vec!["-TotalGRFNum", "256"];
    args.extend_from_slice(visa::igc::finalizer_options("PVC"));
    if let Err(out) = crashes_in_some_run(raw, "PVC", &args) {
        panic!("GenX_IR no longer crashes on the reduced kernel (8 runs): {out}");
    }
    // The same kernel with the line commented out, as the emitter writes it.
    let commented = raw.replace(
        "\n.kernel_attr NumGRF=256\n",
        &format!("\n{}256\n", visa::NUM_GRF_COMMENT),
    );
    let (status, out) = run_genx(&commented, "PVC", &args);
    assert!(status.success(), "{status}: {out}");
}

#[test]
fn the_pvc_shader_of_256_registers_compiles_at_simd32() {
    let shader = common::parse(include_str!("crash/pvc_num_grf.ir"));
    let pvc = Device::preset("pvc").unwrap();
    let k =
        visa::emit_kernel(&shader, &pvc, &Options::with_simd(32)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(k.registers, 256);
    assert!(!k.text.contains("\n.kernel_attr NumGRF"), "{}", k.text);
    if common::have_genx("the_pvc_shader_of_256_registers_compiles_at_simd32") {
        let c = visa::igc::compile(&k.text, "PVC").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.registers, 256);
    }
}
