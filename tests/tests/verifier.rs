//! `ir-opt verify` on every example under `examples/`, for every platform preset, with
//! and without the untyped path (and with A64 addresses on two platforms): the lowering
//! must verify wherever it succeeds, and fail only where the platform cannot lower the
//! shader (listed below). Each runs on the default setup with the grid its documented
//! `Verify:` command gives, if any (the group async copy examples have no images for the
//! default grid to cover). Also runs each example's documented `Run:` command.

use lowering::{Device, LowerOptions, UntypedAddress};
use std::path::{Path, PathBuf};
use verify::setup::Setup;
use verify::verifier::{lower_and_verify, VerifyError};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    v.sort();
    v
}

fn name(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The lowering errors expected per (example, platform, options): 64-bit image atomics
/// need A64 global atomics, which arrive with Gfx9 (docs/hardware/mesa-storage-images.md
/// §9), group async copies need A64 messages for their global side (Gfx8+), and the
/// untyped path moves 8- and 16-bit texels with byte scattered messages, which arrive
/// with Haswell (docs/hardware/dataport.md §1).
fn expected_error(example: &str, platform: &str, options: &LowerOptions) -> Option<&'static str> {
    match (example, platform) {
        ("r64_atomics", "ivb" | "byt" | "hsw" | "bdw") => {
            Some("64-bit image atomics need A64 global atomics (Gfx9+)")
        }
        // Global memory is reached through A64 messages, which arrive with Gfx8.
        ("async_copy" | "async_copy_3d", "ivb" | "byt" | "hsw") => {
            Some("the global side needs 64-bit flat (A64) addresses")
        }
        // An r16_float image.
        ("lines", "ivb" | "byt") if options.force_untyped => {
            Some("has no byte scattered messages on surfaces: they arrive with Haswell")
        }
        _ => None,
    }
}

/// One row of the matrix: `ok`, or the error.
fn check(path: &Path, platform: &str, options: &LowerOptions) -> Result<String, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let shader = ir::parse_shader(&text).map_err(|d| format!("parse: {d:?}"))?;
    ir::validate(&shader).map_err(|d| format!("validate: {d:?}"))?;
    let device = Device::preset(platform).unwrap();
    let mut setup = Setup::default_for(&shader, &device, 0).map_err(|e| e.to_string())?;
    // The grid the example documents (examples without images, such as the group async
    // copies, would otherwise run one workgroup).
    if let Some(g) = documented_verify_grid(&text) {
        setup.grid = verify::cli::parse_grid(&g).map_err(|e| e.to_string())?;
    }
    let ex = name(path);
    match lower_and_verify(&shader, &device, options, &setup) {
        Ok(r) if r.passed() && expected_error(&ex, platform, options).is_none() => Ok(r.summary()),
        Ok(r) if r.passed() => Err(format!(
            "verified, but the lowering was expected to fail: {}",
            r.summary()
        )),
        Ok(r) => Err(r.to_string()),
        Err(VerifyError::Lower(e)) => match expected_error(&ex, platform, options) {
            Some(want) if e.to_string().contains(want) => Ok(format!("lowering error: {e}")),
            _ => Err(format!("unexpected lowering error: {e}")),
        },
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn every_example_verifies_on_every_platform() {
    let files = examples();
    assert!(files.len() >= 10, "examples: {files:?}");
    for ex in ["async_copy", "async_copy_3d"] {
        assert!(
            files.iter().any(|f| name(f) == ex),
            "examples/{ex}.ir is in the matrix"
        );
    }
    let mut jobs: Vec<(PathBuf, &str, LowerOptions)> = Vec::new();
    for f in &files {
        for &p in Device::PRESET_NAMES.iter() {
            for force_untyped in [false, true] {
                jobs.push((
                    f.clone(),
                    p,
                    LowerOptions {
                        force_untyped,
                        ..LowerOptions::default()
                    },
                ));
            }
        }
        for p in ["skl", "bmg"] {
            jobs.push((
                f.clone(),
                p,
                LowerOptions {
                    force_untyped: true,
                    untyped_address: UntypedAddress::A64,
                    ..LowerOptions::default()
                },
            ));
        }
    }
    // Two workers: the machine has two cores.
    let results: Vec<(String, Result<String, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|w| {
                let jobs = &jobs;
                s.spawn(move || {
                    jobs.iter()
                        .skip(w)
                        .step_by(2)
                        .map(|(f, p, o)| {
                            let label = format!(
                                "{} --target {p}{}{}",
                                name(f),
                                if o.force_untyped {
                                    " --force-untyped"
                                } else {
                                    ""
                                },
                                if o.untyped_address == UntypedAddress::A64 {
                                    " --untyped-address a64"
                                } else {
                                    ""
                                }
                            );
                            (label, check(f, p, o))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(l, r)| r.as_ref().err().map(|e| format!("{l}:\n{e}")))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

/// The `--grid` of the documented verify command, if it has one.
fn documented_verify_grid(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains("-- verify examples/"))?;
    let args: Vec<&str> = line.split_whitespace().collect();
    let i = args.iter().position(|&a| a == "--grid")?;
    args.get(i + 1).map(|s| s.to_string())
}

/// Splits a documented command line (`... ir-opt -- run examples/x.ir --image @a=zero`)
/// into the run options after the file name.
fn documented_run(text: &str) -> Option<verify::cli::RunOptions> {
    let line = text.lines().find(|l| l.contains("-- run examples/"))?;
    let args: Vec<&str> = line.split("-- run ").nth(1)?.split_whitespace().collect();
    let mut o = verify::cli::RunOptions::default();
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1).map(|s| s.to_string());
        match args[i] {
            "--image" => o.images.push(v?),
            "--grid" => o.grid = v,
            "--target" => o.target = v,
            "--seed" => o.seed = v?.parse().ok()?,
            "--subgroup" => o.subgroup = v?.parse().ok(),
            "--global" => o.globals.push(v?),
            "--global-size" => o.global_size = Some(v?.parse().ok()?),
            "--push" => o.push.push(v?),
            _ => return None,
        }
        i += 2;
    }
    Some(o)
}

#[test]
fn every_example_documents_how_to_run_and_verify_it() {
    for f in examples() {
        let text = std::fs::read_to_string(&f).unwrap();
        let n = name(&f);
        assert!(
            text.starts_with("// "),
            "{n}: starts with a comment saying what it does"
        );
        assert!(
            text.contains(&format!("ir-opt -- verify examples/{n}.ir --target")),
            "{n}: documents its verify command"
        );
        let o = documented_run(&text).unwrap_or_else(|| panic!("{n}: a `Run:` command"));
        let out = verify::cli::run(&format!("examples/{n}.ir"), &text, &o)
            .unwrap_or_else(|e| panic!("{n}: {e}"));
        assert!(out.starts_with("ran "), "{n}: {out}");
    }
}
