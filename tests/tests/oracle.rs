//! The differential test of the front end (`suites::oracle`): every corpus shader both
//! translations read, and generated WGSL programs, imported by the SPIR-V translator
//! and by the naga-IR oracle, run on the same memory, must agree byte for byte.
//!
//! CI runs the corpus and 220 generated programs (fixed seeds, on the machine's
//! cores); `QC_TESTS=N` runs N generated programs, and `QC_SEED` moves the first seed.

use frontend::Language;
use suites::corpus;
use suites::oracle::{compare, compare_imports, Outcome, RunSpec};
use suites::wgsl_gen::generate;

fn count(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A generated program's run: four workgroups of eight.
fn spec(seed: u64) -> RunSpec {
    RunSpec {
        seed,
        grid: Some("4,1,1".to_string()),
        ..RunSpec::default()
    }
}

#[test]
fn the_two_translations_agree() {
    let mut failures = Vec::new();
    let mut agree = 0u64;
    let mut both_fail = 0u64;
    let mut gaps = Vec::new();
    for input in corpus::inputs().unwrap_or_else(|e| panic!("{e}")) {
        let entries =
            corpus::entry_points(&input).unwrap_or_else(|e| panic!("{}: {e}", input.name));
        let run = RunSpec {
            push: corpus::push_constants(&input.name),
            ..RunSpec::default()
        };
        for entry in &entries {
            match compare(&input.bytes, input.language, Some(entry), &run) {
                Outcome::Agree(s) => {
                    agree += 1;
                    both_fail += s.starts_with("both fail") as u64;
                }
                Outcome::OracleCannot(why) => gaps.push(format!("{}: {why}", input.name)),
                Outcome::BothRefuse(why) | Outcome::Disagree(why) => {
                    failures.push(format!("{} (entry {entry}): {why}", input.name))
                }
            }
        }
    }
    // The oracle cannot read some corpus shaders (naga's readers' gaps: texel buffers,
    // texel pointers, combined image samplers, ...): those are the translator's alone.
    let first: u64 = std::env::var("QC_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let n = count(220);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let results: Vec<(u64, Outcome)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (first + t..first + n)
                        .step_by(threads as usize)
                        .map(|seed| {
                            let src = generate(seed);
                            (
                                seed,
                                compare(src.as_bytes(), Language::Wgsl, None, &spec(seed)),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (seed, r) in results {
        match r {
            Outcome::Agree(s) => {
                agree += 1;
                both_fail += s.starts_with("both fail") as u64;
            }
            other => failures.push(format!(
                "generated seed {seed}: {other:?}\n{}",
                generate(seed)
            )),
        }
    }
    eprintln!(
        "oracle: {agree} shaders agree ({both_fail} of them fail the same way in both), {} \
         disagree, {} the oracle cannot read:\n  {}",
        failures.len(),
        gaps.len(),
        gaps.join("\n  ")
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The comparison means something only when the shaders run.
    assert!(
        both_fail * 10 <= agree,
        "{both_fail} of {agree} cases fail in both translations"
    );
    if std::env::var("QC_TESTS").is_err() {
        assert!(agree >= 200, "only {agree} shaders compared");
    }
}

/// The comparison finds a difference that is there: one written word of a generated
/// program changed in the translator's copy.
#[test]
fn a_planted_difference_is_found() {
    let src = generate(3);
    let planted = src.replace("out[base + 2u] = u2;", "out[base + 2u] = u2 ^ 0x100u;");
    assert_ne!(src, planted);
    let oracle = frontend::oracle::import(src.as_bytes(), Language::Wgsl, None);
    let door = frontend::import(planted.as_bytes(), Language::Wgsl, None);
    match compare_imports(oracle, door, &spec(3)) {
        Outcome::Disagree(why) => assert!(why.contains("ssbo 0"), "{why}"),
        other => panic!("the planted difference was not found: {other:?}"),
    }
}
