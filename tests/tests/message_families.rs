//! No IR produced for a platform without LSC holds an LSC message, and none produced
//! for an LSC platform a legacy data-port message: every example, every lit shader and
//! every corpus shader, lowered by `lowering::lower_shader` for every preset, typed and
//! on the untyped path (binding-table and A64 addresses), and by the `lower-images` and
//! `lower-async-copies` passes alone, holds only its platform's message family
//! (`docs/hardware/dataport.md` §10). A lowering may instead refuse the shader (the
//! property suites and the per-example tests check which refusals are documented).

use lowering::{Device, LowerOptions, UntypedAddress};
use std::path::{Path, PathBuf};

fn ir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ir") {
            out.push(p);
        }
    }
}

/// The valid shaders among the examples and the lit tests (the others are malformed or
/// invalid on purpose, or tile-calc inputs).
fn shaders() -> Vec<(String, ir::Shader)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    ir_files(&root.join("examples"), &mut files);
    ir_files(&root.join("tests/lit"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            let s = ir::parse_shader(&text).ok()?;
            (ir::validate(&s).is_ok() && s.entry().is_some()).then(|| (f.display().to_string(), s))
        })
        .collect()
}

/// The LSC messages (2D blocks included) and the data-port messages of `shader`.
fn families(shader: &ir::Shader) -> (usize, usize) {
    let (mut lsc, mut dp) = (0, 0);
    for f in &shader.functions {
        for inst in f.insts_in_order() {
            if let Some(i) = f.inst(inst).as_intrinsic() {
                lsc += usize::from(i.op.is_lsc() || i.op.is_block2d());
                dp += usize::from(i.op.is_dataport());
            }
        }
    }
    (lsc, dp)
}

fn options() -> Vec<LowerOptions> {
    let untyped = |a| LowerOptions {
        force_untyped: true,
        untyped_address: a,
        ..LowerOptions::default()
    };
    vec![
        LowerOptions::default(),
        untyped(UntypedAddress::Bti),
        untyped(UntypedAddress::A64),
    ]
}

/// Checks one lowered shader; returns whether it holds any message.
fn check(name: &str, device: &Device, lowered: &ir::Shader, failures: &mut Vec<String>) -> bool {
    let (lsc, dp) = families(lowered);
    let wrong = if device.has_lsc { dp } else { lsc };
    if wrong > 0 {
        failures.push(format!(
            "{name} on {}: {lsc} LSC and {dp} data-port messages\n{lowered}",
            device.name
        ));
    }
    lsc + dp > 0
}

#[test]
fn every_lowered_shader_holds_its_platforms_messages() {
    let shaders = shaders();
    assert!(shaders.len() > 100, "{} shaders", shaders.len());
    let mut failures = Vec::new();
    let mut with_dataport = std::collections::BTreeMap::new();
    for (name, shader) in &shaders {
        for device in Device::presets() {
            for o in options() {
                let mut s = shader.clone();
                if lowering::lower_shader(&mut s, &device, &o).is_ok()
                    && check(name, &device, &s, &mut failures)
                    && !device.has_lsc
                {
                    *with_dataport.entry(device.name.clone()).or_insert(0) += 1;
                }
            }
            // The passes alone, as `ir-opt -p lower-images,lower-async-copies` runs
            // them, end with the data-port rewrite too.
            let mut s = shader.clone();
            let images = lowering::lower_images(&mut s, &device, &LowerOptions::default());
            let copies = images
                .and_then(|_| lowering::lower_async_copies(&mut s, &device, &Default::default()));
            if copies.is_ok() {
                check(name, &device, &s, &mut failures);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} lowered shaders hold another platform's messages:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every platform without LSC lowered shaders into data-port messages.
    for d in Device::presets().into_iter().filter(|d| !d.has_lsc) {
        let n = with_dataport.get(&d.name).copied().unwrap_or(0);
        assert!(
            n > 100,
            "{}: only {n} lowered shaders with messages",
            d.name
        );
    }
}

#[test]
fn every_lowered_corpus_shader_holds_its_platforms_messages() {
    let mut failures = Vec::new();
    let mut lowered = 0;
    suites::corpus::for_each_lowered(|c| {
        if let Ok(s) = &c.lowered {
            lowered += 1;
            let name = format!("{} (entry {})", c.input.name, c.entry);
            check(&name, c.device, s, &mut failures);
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(lowered > 50, "only {lowered} lowered corpus shaders");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
