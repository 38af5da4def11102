//! The corpus of real compute shaders (`tests/corpus/`): every shader imports and
//! validates through the front end, then lowers for every platform preset or meets a
//! documented refusal, and `ir-opt verify` (the verifier behind it) finds 0 mismatches
//! wherever it lowers.

use suites::corpus::{self, Lowered};
use verify::cli::{verify_shader, RunOptions, VerifyOptions};
use verify::verifier::VerifyError;

#[test]
fn every_corpus_shader_imports_lowers_and_verifies() {
    let mut failures = Vec::new();
    let mut verified = 0;
    let mut refused = 0;
    let cases = corpus::for_each_lowered(|c: Lowered<'_>| {
        let name = format!("{} (entry {}) on {}", c.input.name, c.entry, c.device.name);
        if let Err(e) = &c.lowered {
            let text = e.to_string();
            let documented = corpus::DOCUMENTED_REFUSALS
                .iter()
                .any(|(case, platform, why)| {
                    c.input.name.contains(case) && *platform == c.device.name && text.contains(why)
                });
            if !documented || !matches!(e, VerifyError::Lower(_)) {
                failures.push(format!("{name}: the lowering refuses: {text}"));
            }
            refused += 1;
            return;
        }
        let push = corpus::PUSH_CONSTANTS
            .iter()
            .filter(|(case, _)| c.input.name.contains(case))
            .flat_map(|(_, p)| p.iter().map(|s| s.to_string()))
            .collect();
        let o = RunOptions {
            target: Some(c.device.name.to_string()),
            push,
            ..RunOptions::default()
        };
        match verify_shader(c.shader, &o, &VerifyOptions::default()) {
            Ok(summary) if summary.contains(" 0 mismatches") => verified += 1,
            Ok(summary) => failures.push(format!("{name}: {summary}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "corpus: {cases} shader-platform pairs, {verified} verified, {refused} documented refusals"
    );
    // Every documented refusal still happens: a rule that stops refusing leaves the list.
    assert_eq!(refused, corpus::DOCUMENTED_REFUSALS.len());
}

#[test]
fn naga_glsl_reader_gaps_still_fail() {
    for (name, why) in corpus::NAGA_GLSL_GAPS {
        let bytes = std::fs::read(corpus::dir().join(name)).unwrap();
        let e = frontend::oracle::import(&bytes, frontend::Language::Glsl, None)
            .err()
            .unwrap_or_else(|| {
                panic!("{name}: naga's GLSL reader reads it now; drop it from NAGA_GLSL_GAPS")
            });
        assert!(
            corpus::is_known_glsl_gap(name, &e),
            "{name}: {e} (expected `{why}`)"
        );
        assert!(
            matches!(e.location, frontend::Location::Text { .. }),
            "{name}: {e}"
        );
    }
}

#[test]
fn the_corpus_comes_from_five_projects_each_recorded() {
    let files = corpus::files();
    let sources = std::fs::read_to_string(corpus::dir().join("SOURCES.md")).unwrap();
    let mut projects: Vec<&str> = files.iter().filter_map(|f| f.split('/').next()).collect();
    projects.dedup();
    assert!(projects.len() >= 5, "{projects:?}");
    for f in &files {
        assert!(sources.contains(f.as_str()), "SOURCES.md does not list {f}");
    }
}
