//! Shared test support: the `-O` lowering pipeline and GenX_IR availability.
#![allow(dead_code)]

use ir::Shader;
use lowering::{Device, LowerOptions};

/// The lowering of `ir-opt -O` ([`lowering::lower_shader`]), its errors as one text.
pub fn lower(shader: &mut Shader, device: &Device, options: &LowerOptions) -> Result<(), String> {
    lowering::lower_shader(shader, device, options)
        .map(|_| ())
        .map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            lines.join("\n")
        })
}

/// Parses and validates IR text.
pub fn parse(text: &str) -> Shader {
    let s = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
    ir::validate(&s).unwrap_or_else(|d| panic!("validate: {d:?}"));
    s
}

/// Whether GenX_IR runs here. In CI (env `CI` set) a missing tool fails the test;
/// elsewhere the test prints why it skips.
pub fn have_genx(test: &str) -> bool {
    if visa::igc::find_tool().is_some() {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: GenX_IR (Debian package libigc-tools) is missing, and CI is set");
    }
    eprintln!("{test}: skipped: GenX_IR (Debian package libigc-tools) is not installed");
    false
}

/// Compiles `(name, kernel text, GenX_IR platform)` jobs on two threads and panics
/// with every rejection (the kernels are written to the temp dir for inspection).
pub fn compile_all(jobs: Vec<(String, String, String)>) {
    let names: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
    let texts: Vec<String> = jobs.iter().map(|j| j.1.clone()).collect();
    let results = visa::igc::compile_many(jobs.into_iter().map(|(_, t, p)| (t, p)).collect(), 2);
    let mut failures = Vec::new();
    for ((name, text), r) in names.iter().zip(&texts).zip(results) {
        if let Err(e) = r {
            let file = std::env::temp_dir().join(format!(
                "visa-rejected-{}.visaasm",
                name.replace(['/', ' ', ':'], "_")
            ));
            let _ = std::fs::write(&file, text);
            let said = e.to_string();
            let head: Vec<&str> = said.lines().take(12).collect();
            failures.push(format!("{name} ({}):\n{}", file.display(), head.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} kernels rejected:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}
