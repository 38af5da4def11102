//! Lit-style tests: every `.ir` file under `tests/lit/` carries its command and the
//! patterns its output must match.
//!
//! A test file starts with one or more `// RUN: <command>` lines, where the command is
//! `ir-opt` or `tile-calc` followed by arguments, and `%s` stands for the test file itself.
//! Check lines follow the LLVM FileCheck convention and are matched with the `filecheck`
//! crate (Cranelift's implementation):
//!
//! | line | meaning |
//! | --- | --- |
//! | `// CHECK: pat` | `pat` matches after the previous match |
//! | `// CHECK-NEXT: pat` | `pat` matches on the line after the previous match |
//! | `// CHECK-SAME: pat` | `pat` matches on the same line as the previous match |
//! | `// CHECK-NOT: pat` | `pat` does not occur between the surrounding matches |
//! | `// CHECK-ERROR: pat` | the command fails (exit status 1) and its stderr matches `pat` (in order) |
//! | `// CHECK-ERROR-NEXT: pat` | `pat` matches stderr on the line after the previous stderr match |
//! | `// CHECK-ERROR-SAME: pat` | `pat` matches stderr on the same line as the previous stderr match |
//! | `// CHECK-ERROR-NOT: pat` | `pat` does not occur in stderr between the surrounding stderr matches (after the last one: up to the end) |
//!
//! A file without `CHECK-ERROR` lines must succeed; its stdout is matched. Patterns are
//! literal text except `$VAR` / `$(VAR=regex)` captures, as in `filecheck`.
//!
//! Each file is one test (the runner is `harness = false`, through `libtest-mimic`).
//! `LIT_FILTER=substring cargo test -p tools --test lit` runs a subset, and so does a
//! name filter after `--`.

use filecheck::{CheckerBuilder, NO_VARIABLES};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Default)]
struct LitFile {
    runs: Vec<String>,
    stdout_directives: Vec<String>,
    stderr_directives: Vec<String>,
}

fn parse_lit(text: &str) -> Result<LitFile, String> {
    let mut lit = LitFile::default();
    // The same line breaks as the tools: LF, CRLF or a lone CR.
    for (n, line) in ir::span::source_lines(text).enumerate() {
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let comment = comment.trim_start();
        let mapping = [
            ("RUN:", ""),
            ("CHECK-ERROR-NEXT:", "nextln:"),
            ("CHECK-ERROR-NOT:", "not:"),
            ("CHECK-ERROR-SAME:", "sameln:"),
            ("CHECK-ERROR:", "check:"),
            ("CHECK-NEXT:", "nextln:"),
            ("CHECK-SAME:", "sameln:"),
            ("CHECK-NOT:", "not:"),
            ("CHECK:", "check:"),
        ];
        // A misspelt or unsupported directive (`CHECK-COUNT-2:`, `CHECK-LABEL:`) would
        // otherwise be a comment, and its file pass without it.
        if comment.starts_with("CHECK")
            && !mapping
                .iter()
                .any(|(p, _)| p.starts_with("CHECK") && comment.starts_with(p))
        {
            return Err(format!(
                "line {}: unknown directive `{}`",
                n + 1,
                comment.split(':').next().unwrap_or(comment)
            ));
        }
        for (prefix, directive) in mapping {
            if let Some(rest) = comment.strip_prefix(prefix) {
                let rest = rest.trim();
                if rest.is_empty() && !prefix.ends_with("NOT:") {
                    return Err(format!("line {}: empty `{prefix}` directive", n + 1));
                }
                match prefix {
                    "RUN:" => lit.runs.push(rest.to_string()),
                    "CHECK-ERROR:" | "CHECK-ERROR-NEXT:" | "CHECK-ERROR-NOT:"
                    | "CHECK-ERROR-SAME:" => {
                        lit.stderr_directives.push(format!("{directive} {rest}"))
                    }
                    _ => lit.stdout_directives.push(format!("{directive} {rest}")),
                }
                break;
            }
        }
    }
    if lit.runs.is_empty() {
        return Err("no `// RUN:` line".into());
    }
    Ok(lit)
}

fn binary(name: &str) -> Option<&'static str> {
    match name {
        "ir-opt" => Some(env!("CARGO_BIN_EXE_ir-opt")),
        "tile-calc" => Some(env!("CARGO_BIN_EXE_tile-calc")),
        _ => None,
    }
}

fn check(directives: &[String], text: &str, what: &str) -> Result<(), String> {
    if directives.is_empty() {
        return Ok(());
    }
    let mut builder = CheckerBuilder::new();
    for d in directives {
        builder
            .directive(d)
            .map_err(|e| format!("bad directive `{d}`: {e}"))?;
    }
    let checker = builder.finish();
    let (ok, explain) = checker
        .explain(text, NO_VARIABLES)
        .map_err(|e| e.to_string())?;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} did not match:\n{explain}\n--- {what} ---\n{text}"
        ))
    }
}

fn run_one(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let lit = parse_lit(&text)?;
    let expect_failure = !lit.stderr_directives.is_empty();
    let mut stdout_all = String::new();
    let mut stderr_all = String::new();
    for run in &lit.runs {
        let cmdline = run.replace("%s", &path.display().to_string());
        let mut words = cmdline.split_whitespace();
        let prog = words.next().ok_or("empty RUN line")?;
        let exe = binary(prog).ok_or_else(|| format!("unknown program `{prog}` in RUN line"))?;
        let out = Command::new(exe)
            .args(words)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .map_err(|e| format!("cannot run {prog}: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.success() == expect_failure {
            return Err(format!(
                "`{cmdline}` {} (exit {:?})\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
                if expect_failure {
                    "succeeded but CHECK-ERROR lines expect a failure"
                } else {
                    "failed"
                },
                out.status.code()
            ));
        }
        // The tools' contract: bad input ends with exit status 1, never clap's 2 or a
        // panic's 101.
        if expect_failure && out.status.code() != Some(1) {
            return Err(format!(
                "`{cmdline}` failed with exit {:?}, not 1\n--- stderr ---\n{stderr}",
                out.status.code()
            ));
        }
        stdout_all.push_str(&stdout);
        stderr_all.push_str(&stderr);
    }
    check(&lit.stdout_directives, &stdout_all, "stdout")?;
    check(&lit.stderr_directives, &stderr_all, "stderr")
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "ir") {
            out.push(p);
        }
    }
}

/// Every lit file is one test, named by its path under `tests/lit/` (`async/err_validate.ir`),
/// so that `cargo test -p tools --test lit -- async/` runs the files of one folder and the
/// test count follows the number of files. `LIT_FILTER=substring` keeps only the files
/// whose path contains the substring, as before the one-test-per-file runner.
fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no lit files under {}", root.display());
    let filter = std::env::var("LIT_FILTER").unwrap_or_default();
    let mut trials: Vec<libtest_mimic::Trial> = files
        .into_iter()
        .filter(|f| f.display().to_string().contains(&filter))
        .map(|f| {
            let name = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
            libtest_mimic::Trial::test(name, move || {
                run_one(&f).map_err(|e| format!("FAIL {}\n{e}", f.display()).into())
            })
        })
        .collect();
    trials.push(libtest_mimic::Trial::test("directives_parse", || {
        directives_parse();
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// The directive table above, on a small example.
fn directives_parse() {
    let lit = parse_lit(
        "// RUN: ir-opt %s\n// CHECK: a\n// CHECK-NEXT: b\n// CHECK-NOT: c\n// CHECK-ERROR: d\n\
         // CHECK-ERROR-NEXT: e\n// CHECK-ERROR-NOT: f\n",
    )
    .unwrap();
    assert_eq!(lit.runs, ["ir-opt %s"]);
    assert_eq!(lit.stdout_directives, ["check: a", "nextln: b", "not: c"]);
    assert_eq!(lit.stderr_directives, ["check: d", "nextln: e", "not: f"]);
    assert!(parse_lit("// CHECK: a\n").is_err());
    // A directive the runner does not know is an error, not a comment.
    let e = parse_lit("// RUN: ir-opt %s\n// CHECK-COUNT-2: a\n").unwrap_err();
    assert!(e.contains("CHECK-COUNT-2"), "{e}");
}
