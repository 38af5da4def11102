//! Import throughput beside naga's own parse time on the same SPIR-V.
//!
//! ```text
//! cargo bench -p frontend                         # corpus and a generated module
//! cargo bench -p frontend -- --runs 9 --stmts 4000
//! ```
//!
//! Inputs, all SPIR-V compiled by `glslangValidator` (Debian `glslang-tools`):
//! * the GLSL shaders of `tests/corpus/` (real shaders of a few kilobytes);
//! * a generated compute shader of `--stmts` blocks of image loads, arithmetic, a
//!   branch and an image store (a large module, for bytes per second).
//!
//! For each input the bench times, in the same run and as the best of `--runs` (thread
//! CPU time from the `cpu-time` crate, so that a loaded machine's scheduling does not
//! count): naga's SPIR-V parse alone, naga's parse and validation, and the whole import
//! (parse, validation, translation, clean-up and the IR's validation). It prints
//! shaders per second and megabytes of SPIR-V per second of the import, and the ratio
//! of the import's time to naga's parse time.

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

fn glslang(src: &str, name: &str) -> Option<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("frontend-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join(format!("{name}.comp"));
    let output = dir.join(format!("{name}.spv"));
    std::fs::write(&input, src).ok()?;
    let r = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1"])
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
                // Only what imports today is timed (tests/corpus/MANIFEST.md lists the
                // shaders that await the SPIR-V translator); the rest are counted.
                match glslang(&text, &name) {
                    Some(spv) if frontend::import(&spv, Language::SpirV, None).is_ok() => {
                        corpus_spv.push((name, spv))
                    }
                    _ => corpus_skipped += 1,
                }
            }
        }
    }
    corpus_spv.sort();
    let big = glslang(&generated(stmts), "generated").expect("the generated shader compiles");
    let sets: Vec<(String, Vec<Vec<u8>>)> = vec![
        (
            format!(
                "corpus ({} modules, {corpus_skipped} not yet importable)",
                corpus_spv.len()
            ),
            corpus_spv.into_iter().map(|(_, s)| s).collect(),
        ),
        (format!("generated ({stmts} blocks)"), vec![big]),
    ];
    println!(
        "{:<26} {:>9} {:>11} {:>11} {:>11} {:>10} {:>9} {:>7}",
        "input", "KiB", "naga parse", "+validate", "import", "shaders/s", "MB/s", "ratio"
    );
    let options = naga::front::spv::Options::default();
    for (name, modules) in sets {
        let bytes: usize = modules.iter().map(|m| m.len()).sum();
        // Every module must import, or the timing would measure an error path.
        for m in &modules {
            frontend::import(m, Language::SpirV, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
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
        println!(
            "{:<26} {:>9.1} {:>9.3}ms {:>9.3}ms {:>9.3}ms {:>10.0} {:>9.2} {:>6.2}x",
            name,
            bytes as f64 / 1024.0,
            parse.as_secs_f64() * 1e3,
            validate.as_secs_f64() * 1e3,
            secs * 1e3,
            modules.len() as f64 / secs,
            bytes as f64 / secs / 1e6,
            secs / parse.as_secs_f64().max(1e-9)
        );
    }
    println!(
        "\nratio: the import's time over naga's SPIR-V parse alone, measured in the same run \
         (parse, validation, translation to the IR, clean-up and the IR's validation)."
    );
}
