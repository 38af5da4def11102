//! SPIR-V import throughput beside naga's own SPIR-V reading of the same modules.
//!
//! ```text
//! cargo bench -p frontend                         # corpus and a generated module
//! cargo bench -p frontend -- --runs 9 --stmts 4000
//! ```
//!
//! Inputs, all SPIR-V compiled by `glslangValidator` (Debian `glslang-tools`):
//! * the GLSL shaders of `tests/corpus/` that both naga's SPIR-V reader and the
//!   translator read (real shaders of a few kilobytes);
//! * a generated compute shader of `--stmts` blocks of image loads, arithmetic, a
//!   branch and an image store (a large module, for bytes per second).
//!
//! For each input the bench times, in the same run and as the best of `--runs` (thread
//! CPU time from the `cpu-time` crate, so that a loaded machine's scheduling does not
//! count): naga's SPIR-V parse alone, naga's parse and validation (what naga needs
//! before its IR can be used), and the translator's whole import (reading, translation,
//! SSA repair, clean-up and the IR's validation). It prints shaders per second and
//! megabytes of SPIR-V per second of both, and the translator's speed-up over naga's
//! parse and validation.

use cpu_time::ThreadTime;
use frontend::Language;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Best-of-`runs` thread CPU time of `f`.
fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = ThreadTime::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn glslang(src: &str, name: &str, include: Option<&Path>) -> Option<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("frontend-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join(format!("{name}.comp"));
    let output = dir.join(format!("{name}.spv"));
    std::fs::write(&input, src).ok()?;
    let r = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1"])
        // The shader's own directory, for its `#include`s (it is compiled from a copy).
        .args(include.map(|d| format!("-I{}", d.display())))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .ok()?;
    if !r.status.success() {
        eprintln!(
            "glslangValidator rejects {name}: {}",
            String::from_utf8_lossy(&r.stdout)
        );
        return None;
    }
    let spv = std::fs::read(&output).ok();
    let _ = std::fs::remove_dir_all(&dir);
    spv
}

/// A compute shader of `n` blocks of image and ALU work.
fn generated(n: usize) -> String {
    let mut s = String::from(
        "#version 450\nlayout(local_size_x = 8, local_size_y = 8) in;\n\
         layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;\n\
         layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;\n\
         layout(push_constant) uniform P { float k; uint n; } pc;\n\
         void main() {\n    ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n    vec4 acc = vec4(0.0);\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "    {{\n        vec4 v = imageLoad(src, p + ivec2({}, {}));\n        \
             acc = acc * pc.k + sqrt(abs(v)) * {}.0;\n        \
             if (acc.x > {}.0) {{ acc = fract(acc); }}\n        \
             imageStore(dst, p + ivec2({}, 0), acc);\n    }}\n",
            i % 7,
            i % 5,
            i % 3 + 1,
            i % 11 + 2,
            i % 13
        ));
    }
    s.push_str("}\n");
    s
}

fn main() {
    // naga's SPIR-V reader panics on some modules (its own bugs, which
    // `frontend::source::read` catches and reports as errors): keep its messages and
    // backtraces out of the table.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.location().is_some_and(|l| l.file().contains("naga")) {
            default_hook(info);
        }
    }));
    let mut runs = 7;
    let mut stmts = 2000;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|v| v.parse().ok()).unwrap_or(runs),
            "--stmts" => stmts = args.next().and_then(|v| v.parse().ok()).unwrap_or(stmts),
            _ => {}
        }
    }
    if Command::new("glslangValidator")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("glslangValidator is not installed (apt-get install glslang-tools): no SPIR-V to import");
        return;
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let mut corpus_spv: Vec<(String, Vec<u8>)> = Vec::new();
    let mut corpus_skipped = 0;
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "comp") {
                let name = p
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                // Every shader glslang compiles is a candidate; the ones both readers
                // take are timed below, the others counted.
                match glslang(&text, &name, p.parent()) {
                    Some(spv) => corpus_spv.push((name, spv)),
                    None => corpus_skipped += 1,
                }
            }
        }
    }
    corpus_spv.sort();
    // Only modules both readers take: the comparison is on the same bytes.
    let options = naga::front::spv::Options::default();
    let both = |m: &[u8]| {
        frontend::source::read(Language::SpirV, m).is_ok()
            && frontend::import(m, Language::SpirV, None).is_ok()
    };
    let total = corpus_spv.len() + corpus_skipped;
    corpus_spv.retain(|(_, m)| both(m));
    let big = glslang(&generated(stmts), "generated", None).expect("the generated shader compiles");
    assert!(both(&big), "the generated module must import both ways");
    let sets: Vec<(String, Vec<Vec<u8>>)> = vec![
        (
            format!("corpus ({} of {total})", corpus_spv.len()),
            corpus_spv.into_iter().map(|(_, s)| s).collect(),
        ),
        (format!("generated ({stmts} blocks)"), vec![big]),
    ];
    println!(
        "{:<22} {:>8} {:>10} {:>11} {:>10} {:>10} {:>8} {:>8} {:>8}",
        "input",
        "KiB",
        "naga parse",
        "naga +valid",
        "import",
        "shaders/s",
        "MB/s",
        "naga MB/s",
        "speed-up"
    );
    for (name, modules) in sets {
        let bytes: usize = modules.iter().map(|m| m.len()).sum();
        let parse = best(runs, || {
            for m in &modules {
                std::hint::black_box(naga::front::spv::parse_u8_slice(m, &options).ok());
            }
        });
        let validate = best(runs, || {
            for m in &modules {
                std::hint::black_box(frontend::source::read(Language::SpirV, m).ok());
            }
        });
        let import = best(runs, || {
            for m in &modules {
                std::hint::black_box(frontend::import(m, Language::SpirV, None).ok());
            }
        });
        let secs = import.as_secs_f64().max(1e-9);
        let naga = validate.as_secs_f64().max(1e-9);
        println!(
            "{:<22} {:>8.1} {:>8.3}ms {:>9.3}ms {:>8.3}ms {:>10.0} {:>8.2} {:>8.2} {:>7.2}x",
            name,
            bytes as f64 / 1024.0,
            parse.as_secs_f64() * 1e3,
            naga * 1e3,
            secs * 1e3,
            modules.len() as f64 / secs,
            bytes as f64 / secs / 1e6,
            bytes as f64 / naga / 1e6,
            naga / secs
        );
    }
    println!(
        "\nspeed-up: naga's SPIR-V parse and validation over the translator's whole import \
         (reading, translation to the IR, clean-up and the IR's validation), measured in the \
         same run on the same modules; the goal is at least 2x."
    );
}
