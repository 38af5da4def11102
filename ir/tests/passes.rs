//! What the pass lit files (`tests/lit/passes/*.ir`) cannot say.
//!
//! Each lit file runs a pass pipeline through `ir-opt --verify` and checks the whole
//! printed result, worked out by hand from what each pass does. A file whose pipeline
//! is `cleanup` also cleans up twice and checks that the output does not move; what
//! the printed text cannot show is whether the second run *reported* a change (a pass
//! that rewrites something into an equal form and says so keeps the cleanup loop
//! going). Here, for every such file: the input validates, the pipeline runs with
//! validation after every pass, and running it again on its output reports no change.

use ir::passes::manager::{PassManager, PassRegistry};
use ir::{parse_shader, validate};
use std::path::{Path, PathBuf};

fn lit_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit/passes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    files
}

/// The pipeline of the file's first `// RUN: ir-opt %s -p <pipeline> ...` line.
fn pipeline(text: &str) -> Option<String> {
    let run = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("// RUN:"))?;
    let mut words = run.split_whitespace();
    words.find(|&w| w == "-p")?;
    words.next().map(str::to_string)
}

#[test]
fn cleanup_reports_no_change_on_its_own_output() {
    let registry = PassRegistry::with_ir_passes();
    let mut checked = 0;
    for path in lit_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        let pipeline = pipeline(&text).unwrap_or_else(|| panic!("{name}: no `-p` pipeline"));
        if pipeline != "cleanup" {
            continue;
        }
        let mut shader = parse_shader(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        validate(&shader).unwrap_or_else(|e| panic!("{name}: input invalid: {e:?}"));
        let mut pm = PassManager::parse_pipeline(&pipeline, &registry).unwrap();
        pm.set_verify(true);
        assert!(
            pm.run(&mut shader)
                .unwrap_or_else(|e| panic!("{name}: {e}")),
            "{name}: the first cleanup changed nothing; the file tests nothing"
        );
        let mut pm = PassManager::parse_pipeline(&pipeline, &registry).unwrap();
        pm.set_verify(true);
        assert!(
            !pm.run(&mut shader)
                .unwrap_or_else(|e| panic!("{name}: {e}")),
            "{name}: cleanup did not reach a fixpoint"
        );
        checked += 1;
    }
    assert!(
        checked > 0,
        "no lit file under tests/lit/passes runs cleanup"
    );
}
