//! The corpus of real compute shaders (`tests/corpus/`), held to its manifest
//! (`tests/corpus/MANIFEST.md`): every entry point that imports today imports and
//! validates through the front end, then lowers for every platform preset or meets a
//! documented refusal, and `ir-opt verify` (the verifier behind it) finds 0 mismatches
//! wherever it lowers; every refusal names its construct; every entry point that awaits
//! the SPIR-V translator still falls short (a row that starts to pass must be flipped);
//! every GLSL file compiles with glslang and passes `spirv-val`.

use frontend::Language;
use suites::corpus::{self, Expected, Lowered, Row, Today};
use verify::cli::VerifyOptions as Vo;
use verify::cli::{verify_shader, VerifyOptions};
use verify::verifier::VerifyError;

#[test]
fn every_corpus_shader_imports_lowers_and_verifies() {
    let mut failures = Vec::new();
    let mut verified = 0;
    let mut refused = 0;
    let mut documented_seen = vec![false; corpus::DOCUMENTED_REFUSALS.len()];
    let cases = corpus::for_each_lowered(|c: Lowered<'_>| {
        let name = format!("{} (entry {}) on {}", c.input.name, c.entry, c.device.name);
        if let Err(e) = &c.lowered {
            let text = e.to_string();
            let documented = corpus::DOCUMENTED_REFUSALS
                .iter()
                .position(|(case, platform, why)| {
                    c.input.name.contains(case) && *platform == c.device.name && text.contains(why)
                })
                .map(|i| documented_seen[i] = true)
                .is_some();
            if !documented || !matches!(e, VerifyError::Lower(_)) {
                failures.push(format!("{name}: the lowering refuses: {text}"));
            }
            refused += 1;
            return;
        }
        let o = corpus::run_options(&c.input.name, &c.device.name);
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
    assert!(
        documented_seen.iter().all(|s| *s),
        "a documented refusal no longer happens: {:?}",
        corpus::DOCUMENTED_REFUSALS
            .iter()
            .zip(&documented_seen)
            .filter(|(_, s)| !**s)
            .collect::<Vec<_>>()
    );
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
        if e.kind == frontend::ErrorKind::Parse {
            assert!(
                matches!(e.location, frontend::Location::Text { .. }),
                "{name}: {e}"
            );
        }
    }
}

/// The bytes the front end reads for a corpus file: glslang's SPIR-V for GLSL (the
/// front door of issue 19), the file itself otherwise.
fn front_door(file: &str) -> Result<(Language, Vec<u8>), String> {
    let path = corpus::dir().join(file);
    match Language::from_path(file) {
        Some(Language::Glsl) => Ok((Language::SpirV, corpus::glslang(&path)?)),
        Some(l) => Ok((l, std::fs::read(&path).map_err(|e| format!("{file}: {e}"))?)),
        None => Err(format!("{file}: no front end reads it")),
    }
}

#[test]
fn the_manifest_covers_the_corpus_of_twelve_projects_each_recorded() {
    let files = corpus::files();
    let rows = corpus::manifest().unwrap_or_else(|e| panic!("{e}"));
    let sources = std::fs::read_to_string(corpus::dir().join("SOURCES.md")).unwrap();
    let mut projects: Vec<&str> = files.iter().filter_map(|f| f.split('/').next()).collect();
    projects.dedup();
    assert!(
        projects.len() >= 12,
        "{} projects: {projects:?}",
        projects.len()
    );
    assert!(files.len() >= 40, "{} shaders", files.len());
    let licences: Vec<String> = std::fs::read_dir(corpus::dir().join("licenses"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for p in &projects {
        assert!(
            licences.iter().any(|l| l.starts_with(&format!("{p}-"))),
            "licenses/ has no licence text of {p}"
        );
    }
    for f in &files {
        assert!(sources.contains(f.as_str()), "SOURCES.md does not list {f}");
        assert!(
            rows.iter().any(|r| &r.file == f),
            "MANIFEST.md has no row for {f}"
        );
    }
    for r in &rows {
        assert!(
            files.contains(&r.file),
            "MANIFEST.md names {}, not in the corpus",
            r.file
        );
    }
    // Each entry point of a file that imports today has its row, and no other.
    for input in corpus::inputs().unwrap_or_else(|e| panic!("{e}")) {
        let file = input.name.trim_end_matches(" (glslang SPIR-V)");
        let entries = corpus::entry_points(&input).unwrap_or_else(|e| panic!("{e}"));
        let listed: Vec<&str> = rows
            .iter()
            .filter(|r| r.file == file)
            .map(|r| r.entry.as_str())
            .collect();
        let mut sorted = entries.clone();
        sorted.sort();
        let mut listed_sorted = listed.clone();
        listed_sorted.sort();
        assert_eq!(sorted, listed_sorted, "{}: entry points", input.name);
    }
}

#[test]
fn every_glsl_file_compiles_with_glslang_and_passes_spirv_val() {
    if !corpus::have_glslang() || !corpus::have_spirv_val() {
        return;
    }
    let mut failures = Vec::new();
    let mut n = 0;
    for f in corpus::files() {
        if Language::from_path(&f) != Some(Language::Glsl) {
            continue;
        }
        match corpus::glslang(&corpus::dir().join(&f)).and_then(|spv| corpus::spirv_val(&spv, &f)) {
            Ok(()) => n += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n >= 40, "only {n} GLSL files");
}

#[test]
fn refused_shaders_name_their_construct() {
    if !corpus::have_glslang() {
        return;
    }
    let rows = corpus::manifest().unwrap_or_else(|e| panic!("{e}"));
    let mut checked = 0;
    for r in rows.iter().filter(|r| r.today.is_yes()) {
        let Expected::Refused(words) = &r.expected else {
            continue;
        };
        let (language, bytes) = front_door(&r.file).unwrap_or_else(|e| panic!("{e}"));
        match frontend::import(&bytes, language, Some(&r.entry)) {
            Ok(_) => panic!(
                "{} (entry {}) imports; MANIFEST.md says it is refused",
                r.file, r.entry
            ),
            Err(e) => assert!(
                e.to_string().to_lowercase().contains(&words.to_lowercase()),
                "{} (entry {}): `{e}` does not name `{words}`",
                r.file,
                r.entry
            ),
        }
        checked += 1;
    }
    // Every refused row that holds today was checked (there may be none, once the
    // front end reaches every construct the rows name).
    let holding = rows
        .iter()
        .filter(|r| r.today.is_yes() && matches!(r.expected, Expected::Refused(_)))
        .count();
    assert_eq!(checked, holding);
}

/// Whether an entry point does all its row expects, on DG2 (for a row that imports: it
/// imports, lowers and verifies; for a refusal: the import fails naming the construct).
fn meets_its_row(r: &Row) -> Result<(), String> {
    let (language, bytes) = front_door(&r.file)?;
    let input = corpus::Input {
        name: r.file.clone(),
        language,
        bytes,
    };
    let imported = corpus::import(&input, &r.entry);
    match (&r.expected, imported) {
        (Expected::Refused(words), Err(e))
            if e.to_string().to_lowercase().contains(&words.to_lowercase()) =>
        {
            Ok(())
        }
        (Expected::Refused(_), Err(e)) => Err(e.to_string()),
        (Expected::Refused(_), Ok(_)) => Err("it imports".into()),
        (Expected::Imports, Err(e)) => Err(e.to_string()),
        (Expected::Imports, Ok(i)) => {
            let o = corpus::run_options(&r.file, "dg2");
            match verify_shader(&i.shader, &o, &Vo::default()) {
                Ok(s) if s.contains(" 0 mismatches") => Ok(()),
                Ok(s) => Err(s),
                Err(e) => Err(e.to_string()),
            }
        }
    }
}

#[test]
fn shaders_awaiting_the_translator_still_fall_short() {
    if !corpus::have_glslang() {
        return;
    }
    let rows = corpus::manifest().unwrap_or_else(|e| panic!("{e}"));
    let mut awaiting = 0;
    let mut flipped = Vec::new();
    for r in &rows {
        if let Today::AwaitsTranslator(_) = r.today {
            awaiting += 1;
            if meets_its_row(r).is_ok() {
                flipped.push(format!("{} (entry {})", r.file, r.entry));
            }
        }
    }
    assert!(
        flipped.is_empty(),
        "these now do what MANIFEST.md expects: set their `today` to `yes`:\n{}",
        flipped.join("\n")
    );
    eprintln!("corpus: {awaiting} entry points await the SPIR-V translator");
}
