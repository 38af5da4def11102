//! Small vISA kernels under `tests/visa_kernels/`, each with the values it must compute
//! (`// expect VAR = v0 v1 ...`, worked out by hand in the file's comments) and the
//! platform whose registers it assumes (`// platform: DG2` for 32-byte registers, `PVC`
//! for 64-byte ones). The interpreter must compute exactly those values, and IGC's
//! finalizer `GenX_IR` must accept every kernel for its platform, into a listing whose
//! every path ends its thread (`visa::igc::compile`): the forms the interpreter runs
//! are forms IGC takes.
//!
//! The `GenX_IR` test fails when the environment variable `CI` is set and the tool is
//! missing; elsewhere it is skipped with a message.

use std::path::{Path, PathBuf};
use verify::visa::program::Program;
use verify::visa::reader::read;
use verify::visa::run::{NoMemory, RunConfig, Stop, Thread, ThreadInit};

struct Case {
    path: PathBuf,
    text: String,
    platform: String,
    expects: Vec<(String, Vec<u64>)>,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/visa_kernels");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "visaasm"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 5, "{paths:?}");
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut platform = None;
            let mut expects = Vec::new();
            for line in text.lines() {
                if let Some(p) = line.strip_prefix("// platform:") {
                    platform = Some(p.trim().to_string());
                }
                if let Some(e) = line.strip_prefix("// expect ") {
                    let (var, vals) = e.split_once('=').expect("`// expect VAR = values`");
                    let vals = vals
                        .split_whitespace()
                        .map(|v| match v.strip_prefix("0x") {
                            Some(h) => u64::from_str_radix(h, 16).unwrap(),
                            None => v.parse().unwrap(),
                        })
                        .collect();
                    expects.push((var.trim().to_string(), vals));
                }
            }
            Case {
                platform: platform
                    .unwrap_or_else(|| panic!("{}: no `// platform:`", path.display())),
                path,
                text,
                expects,
            }
        })
        .collect()
}

#[test]
fn the_interpreter_computes_the_expected_values() {
    for case in cases() {
        let name = case.path.display();
        let grf = if case.platform == "PVC" { 64 } else { 32 };
        let listing = read(&case.text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let program =
            Program::new(&listing, grf, 1 << 20).unwrap_or_else(|e| panic!("{name}: {e}"));
        let simd = program.simd.unwrap_or(16);
        let config = RunConfig::default();
        let payload = vec![0u8; 4096];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: if simd >= 32 {
                u32::MAX
            } else {
                (1 << simd) - 1
            },
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap_or_else(|e| panic!("{name}: {e}"));
        let stop = t
            .run(&program, &mut NoMemory, &config)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(stop, Stop::Done, "{name}");
        assert!(!case.expects.is_empty(), "{name}: no `// expect`");
        for (var, want) in &case.expects {
            let v = program
                .layout
                .general_var(var, u32::MAX)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let got: Vec<u64> = (0..want.len() as u32)
                .map(|i| t.regs.read(v.start + i * v.ty.size(), v.ty.size()))
                .collect();
            assert_eq!(&got, want, "{name}: {var}");
        }
    }
}

#[test]
fn genx_ir_accepts_every_kernel() {
    if visa::igc::find_tool().is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("GenX_IR is missing (install libigc-tools)");
        }
        eprintln!("skipped: GenX_IR is not installed (Debian package libigc-tools)");
        return;
    }
    for case in cases() {
        // `compile` also requires that every path of the listing ends its thread.
        if let Err(e) = visa::igc::compile(&case.text, &case.platform) {
            panic!(
                "{}: GenX_IR -platform {}: {e}",
                case.path.display(),
                case.platform
            );
        }
    }
}
