//! Fuzz target: text -> parse -> validate -> print -> parse again, then the `cleanup`
//! pipeline through the pass manager with validation after it.
//!
//! Every input is fair game: the parser and the validator must answer with diagnostics,
//! never a panic. Once a shader parses and validates, the properties of `ir/SYNTAX.md`
//! must hold (`parse(print(s)) == s`, printing a parsed text is a fixed point) and the
//! cleanup passes must keep it valid and printable. Any panic or failed assertion here is
//! a bug in the crate.

#![no_main]

use ir::diag::{render_all, Diagnostic};
use ir::passes::cleanup::DEFAULT_MAX_ITERATIONS;
use ir::passes::manager::RunError;
use ir::passes::{Cleanup, Pass, PassManager, PassOptions, PassRegistry};
use ir::{parse_shader, print_shader, validate, Shader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Invalid UTF-8 becomes U+FFFD: the parser only ever sees a `&str`.
    let text = String::from_utf8_lossy(data);
    let Ok(shader) = parse_shader(&text) else {
        return;
    };
    if validate(&shader).is_err() {
        return;
    }
    round_trip(&shader, "the parsed shader");
    cleanup(shader);
});

/// Checks the text-format contract on a valid shader and returns its text.
fn round_trip(shader: &Shader, what: &str) -> String {
    let printed = print_shader(shader);
    let reparsed = match parse_shader(&printed) {
        Ok(s) => s,
        Err(diags) => panic!(
            "{what} prints as text that does not parse:\n{}\n--- printed ---\n{printed}",
            render(&diags, &printed)
        ),
    };
    assert!(
        reparsed == *shader,
        "{what}: parse(print(s)) != s\n--- printed ---\n{printed}\n--- reprinted ---\n{}",
        print_shader(&reparsed)
    );
    let reprinted = print_shader(&reparsed);
    assert_eq!(printed, reprinted, "{what}: printing is not a fixed point");
    if let Err(diags) = validate(&reparsed) {
        panic!(
            "{what} validates but its reparsed text does not:\n{}\n--- printed ---\n{printed}",
            render(&diags, &printed)
        );
    }
    printed
}

/// Runs the `cleanup` pipeline through the pass manager with validation on; a valid
/// shader must stay valid. When it does not, the passes of one cleanup round are replayed
/// one by one on the input to name the one that broke it.
fn cleanup(shader: Shader) {
    let registry = PassRegistry::with_ir_passes();
    let mut pm = PassManager::parse_pipeline("cleanup", &registry).expect("the cleanup pipeline");
    pm.set_verify(true);
    let mut cleaned = shader.clone();
    match pm.run(&mut cleaned) {
        Ok(_) => {}
        Err(RunError::InvalidAfter { diagnostics, .. }) => {
            let culprit = replay(shader);
            panic!(
                "cleanup turned a valid shader into an invalid one:\n{}\n{culprit}",
                list(&diagnostics)
            );
        }
        Err(e) => panic!(
            "cleanup failed on a valid shader: {e}\n--- input ---\n{}",
            print_shader(&shader)
        ),
    }
    round_trip(&cleaned, "the cleaned-up shader");
}

/// Runs the cleanup passes one at a time, validating after each, and describes the first
/// pass whose output is invalid.
fn replay(mut shader: Shader) -> String {
    // The passes of one round of the standard loop, made by name so that the replay
    // follows `Cleanup::standard` if it changes.
    let registry = PassRegistry::with_ir_passes();
    let mut passes: Vec<Box<dyn Pass>> = Cleanup::standard(DEFAULT_MAX_ITERATIONS)
        .pass_names()
        .into_iter()
        .map(|name| {
            registry
                .create(name, &PassOptions::none(name))
                .expect("a pass of the cleanup loop")
        })
        .collect();
    for round in 0..DEFAULT_MAX_ITERATIONS {
        let mut progress = false;
        for pass in &mut passes {
            let before = print_shader(&shader);
            match pass.run(&mut shader) {
                Ok(c) => progress |= c,
                Err(e) => return format!("round {round}: {e}\n--- before ---\n{before}"),
            }
            if let Err(diags) = validate(&shader) {
                return format!(
                    "round {round}: `{}` broke it:\n{}\n--- before ---\n{before}\n--- after ---\n{}",
                    pass.name(),
                    list(&diags),
                    print_shader(&shader)
                );
            }
        }
        if !progress {
            break;
        }
    }
    "(replaying the passes one by one did not reproduce it)".to_string()
}

/// Diagnostics shown under the text their spans point into.
fn render(diags: &[Diagnostic], src: &str) -> String {
    render_all(diags, "printed", src)
}

/// Diagnostics by position only (after a pass, spans point into the original input).
fn list(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
