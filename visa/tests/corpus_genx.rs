//! Every example under `examples/` and every shader of the lit tests, lowered for DG2,
//! MTL and PVC on the typed path, with `force_untyped` and with `readonly_via_sampler`,
//! and for BDW, SKL, ICL and TGL (the legacy data port's messages) on the typed path and
//! with `force_untyped`, becomes a kernel that GenX_IR compiles. A shader may instead fail the lowering (or
//! the lowering's message legality check, for hand-written messages, or ask for a
//! subgroup size the platform does not dispatch) with its documented error; the test
//! counts those and requires most to compile.

mod common;

use lowering::{Device, LowerOptions};
use std::path::{Path, PathBuf};
use visa::{EmitErrorKind, Options};

fn ir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ir") {
            out.push(p);
        }
    }
}

/// The LSC platforms, with the three lowering modes.
const LSC: [&str; 3] = ["dg2", "mtl", "pvc"];

/// The platforms of the legacy data port, with the typed and untyped modes.
const LEGACY: [&str; 4] = ["bdw", "skl", "icl", "tgl"];

/// The lowering modes: typed, `force_untyped`, `readonly_via_sampler`.
fn modes() -> [(&'static str, LowerOptions); 3] {
    [
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
    ]
}

/// The jobs for `files` on the LSC platforms (every mode) and the legacy ones (typed
/// and untyped), and how many shaders the lowering refused.
fn jobs(files: &[PathBuf]) -> (Vec<(String, String, String)>, usize) {
    let mut jobs = Vec::new();
    let mut refused = 0;
    let runs: Vec<(&str, &str, LowerOptions)> = LSC
        .iter()
        .flat_map(|p| modes().into_iter().map(move |(m, o)| (*p, m, o)))
        .chain(
            LEGACY
                .iter()
                .flat_map(|p| modes().into_iter().take(2).map(move |(m, o)| (*p, m, o))),
        )
        .collect();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(shader) = ir::parse_shader(&text) else {
            continue; // malformed on purpose
        };
        if ir::validate(&shader).is_err() || shader.entry().is_none() {
            continue; // invalid on purpose, or not a shader (tile-calc tests)
        }
        for &(plat, mode, o) in &runs {
            let d = Device::preset(plat).unwrap();
            {
                let mut s = shader.clone();
                if common::lower(&mut s, &d, &o).is_err() {
                    refused += 1;
                    continue;
                }
                let name = format!("{}-{plat}-{mode}", f.file_stem().unwrap().to_string_lossy());
                // Kernels that would spill are left out: the test compiles what fits.
                match visa::emit_kernel(&s, &d, &Options::default().without_spills()) {
                    Ok(k) => jobs.push((name, k.text, k.genx_platform.unwrap().to_string())),
                    // Hand-written messages the platform's table refuses, subgroup
                    // sizes the platform does not dispatch (PVC has no SIMD8), and
                    // shaders whose live values overflow the register file.
                    Err(e)
                        if matches!(
                            *e.kind,
                            EmitErrorKind::Message(_)
                                | EmitErrorKind::SimdWidth { .. }
                                | EmitErrorKind::RegisterPressure { .. }
                        ) =>
                    {
                        refused += 1
                    }
                    Err(e) => panic!("{name}: {e}"),
                }
            }
        }
    }
    (jobs, refused)
}

#[test]
fn examples_compile_on_every_platform_and_path() {
    let mut files = Vec::new();
    ir_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &mut files,
    );
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let (jobs, refused) = jobs(&files);
    // Every example lowers everywhere except the 64-bit atomics' documented limits
    // (three modes on BDW).
    assert!(
        jobs.len() >= files.len() * (9 + 8) - 6 - 2,
        "{} kernels, {refused} refused",
        jobs.len()
    );
    if common::have_genx("examples_compile_on_every_platform_and_path") {
        common::compile_all(jobs);
    }
}

#[test]
fn lit_shaders_compile_on_every_platform_and_path() {
    let mut files = Vec::new();
    ir_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit"),
        &mut files,
    );
    files.sort();
    let (jobs, refused) = jobs(&files);
    assert!(
        jobs.len() > 400,
        "{} kernels, {refused} refused",
        jobs.len()
    );
    if common::have_genx("lit_shaders_compile_on_every_platform_and_path") {
        common::compile_all(jobs);
    }
}
