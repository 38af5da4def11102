//! Every thread ends (issue #20): the kernel of every example under `examples/`, on
//! every platform GenX_IR knows (BDW, SKL, ICL, TGL, DG2, MTL, PVC) and on every path
//! of the lowering (typed and `force_untyped`, and `readonly_via_sampler` where there is
//! LSC), compiles into a listing whose every path from the entry ends in an end-of-thread
//! send: no subroutine `ret`, no path past the last instruction, no predicated end of
//! thread ([`visa::igc::ThreadExits`], read from GenX_IR's `.asm`). The same check runs
//! inside [`visa::igc::compile`] for every kernel any test compiles; this test states the
//! requirement on its own, and shows that it fails on a listing without the end of
//! thread and on a kernel without its entry `.function`.

mod common;

use lowering::{Device, LowerOptions};
use std::path::Path;
use visa::igc::{CheckError, ThreadExits};

/// The platforms GenX_IR 1.0.12504 compiles for, by preset name.
const PLATFORMS: [&str; 7] = ["bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc"];

/// The end-of-thread send of each platform, as IGC's own kernels have it (`ocloc`
/// dumps, `visa/igc-reference/`): a message to the thread spawner (SFID 7, extended
/// descriptor `0x27`) on Gfx8 to Gfx11, the `ts` and `gtwy` forms from Gfx12.
fn eot_form(platform: &str) -> &'static str {
    match platform {
        "bdw" | "skl" | "icl" => "0x27            0x02000010",
        "tgl" => "send.ts (8|M0)",
        _ => "send.gtwy (8|M0)",
    }
}

/// The examples' kernels: (name, kernel text, GenX_IR platform, preset).
fn example_kernels() -> Vec<(String, String, String, &'static str)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let modes = [
        ("typed", LowerOptions::default()),
        (
            "untyped",
            LowerOptions {
                force_untyped: true,
                ..Default::default()
            },
        ),
        (
            "sampler",
            LowerOptions {
                readonly_via_sampler: true,
                ..Default::default()
            },
        ),
    ];
    let mut out = Vec::new();
    for f in &files {
        let shader = common::parse(&std::fs::read_to_string(f).unwrap());
        for plat in PLATFORMS {
            let device = Device::preset(plat).unwrap();
            for (mode, options) in &modes {
                if *mode == "sampler" && !device.has_lsc {
                    continue;
                }
                let mut s = shader.clone();
                // The lowering's documented refusals (64-bit image atomics before Gfx9).
                if common::lower(&mut s, &device, options).is_err() {
                    continue;
                }
                let stem = f.file_stem().unwrap().to_string_lossy();
                let name = format!("{stem} on {plat} ({mode})");
                let k = visa::emit_kernel(&s, &device, &Default::default())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let genx = k.genx_platform.unwrap().to_string();
                out.push((name, k.text, genx, plat));
            }
        }
    }
    out
}

#[test]
fn every_path_of_every_example_kernel_ends_in_an_end_of_thread_send() {
    let kernels = example_kernels();
    // Every example on every platform, but the 64-bit image atomics on BDW (three
    // modes) and one shader's sampler path.
    assert!(kernels.len() >= 10 * (7 * 2 + 3) - 4, "{}", kernels.len());
    for plat in PLATFORMS {
        assert!(kernels.iter().any(|k| k.3 == plat), "no kernel for {plat}");
    }
    if !common::have_genx("every_path_of_every_example_kernel_ends_in_an_end_of_thread_send") {
        return;
    }
    let jobs = kernels.iter().map(|k| (k.1.clone(), k.2.clone())).collect();
    let results = visa::igc::compile_many(jobs, 2);
    let mut failures = Vec::new();
    for ((name, _, _, plat), r) in kernels.iter().zip(results) {
        let c = match r {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let exits = ThreadExits::of(&c.asm);
        if !exits.open.is_empty() {
            failures.push(format!("{name}: {}", exits.open.join("; ")));
        }
        // One way out, IGC's.
        match &exits.end_of_thread[..] {
            [eot] if eot.contains(eot_form(plat)) => {}
            other => failures.push(format!(
                "{name}: end-of-thread sends {other:?}, expected one with `{}`",
                eot_form(plat)
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} kernels:\n{}",
        failures.len(),
        kernels.len(),
        failures.join("\n")
    );
}

/// The check fails where it must: a listing whose end of thread is gone, and a kernel
/// without its entry `.function`, which GenX_IR compiles into a subroutine return.
#[test]
fn a_kernel_that_does_not_end_its_threads_is_refused() {
    if !common::have_genx("a_kernel_that_does_not_end_its_threads_is_refused") {
        return;
    }
    let kernels = example_kernels();
    let (name, text, genx, _) = kernels
        .iter()
        .find(|k| k.0.starts_with("row_sums on dg2"))
        .expect("row_sums on DG2");
    let c = visa::igc::compile(text, genx).unwrap_or_else(|e| panic!("{name}: {e}"));
    let without_eot = c.asm.replace("{EOT,", "{").replace("{EOT}", "");
    let exits = ThreadExits::of(&without_eot);
    assert!(exits.end_of_thread.is_empty());
    assert!(
        exits
            .open
            .iter()
            .any(|o| o.contains("past the last instruction")),
        "{exits:?}"
    );
    assert!(visa::igc::check_end_of_thread(&without_eot).is_err());
    // Without the entry function the closing `ret` is a subroutine return.
    let subroutine: String = text
        .lines()
        .filter(|l| !l.starts_with(".function") && !l.starts_with("_main_0:"))
        .map(|l| format!("{l}\n"))
        .collect();
    match visa::igc::compile(&subroutine, genx) {
        Err(CheckError::NoEndOfThread { reason }) => {
            assert!(reason.contains("subroutine return"), "{reason}")
        }
        other => panic!("{name} without `.function`: {:?}", other.map(|_| ())),
    }
}
