//! The verifier's vISA leg on the kernels of the vISA back end (`visa::emit_kernel`):
//! every example and corpus shader verifies through all three forms (original,
//! lowered, kernel) on the LSC platforms DG2 and PVC and on the legacy data-port
//! platforms Broadwell, Skylake, Ice Lake and Tiger Lake, typed and `force_untyped`, as
//! `ir-opt verify --visa` runs it; and bugs planted in real kernels (the kinds GenX_IR
//! accepts and that still compute the wrong thing) are each reported as a mismatch
//! naming a vISA line, in LSC and in legacy data-port kernels.
//!
//! Each planted-bug test first checks that the unchanged kernel verifies (so that the
//! bug, not something else, makes the difference), then that the changed one does not,
//! with the mismatch kinds and the vISA instruction the bug implies.

use lowering::{Device, LowerOptions};
use suites::corpus;
use verify::cli::{verify_shader_visa, RunOptions, VerifyOptions};
use verify::setup::Setup;
use verify::verifier::{MismatchKind, Report};
use verify::visa::check::{lower_and_verify_visa, Verified};
use verify::visa::run::RunConfig;

/// The back end as `ir-opt verify --visa` uses it.
fn emit(s: &ir::Shader, d: &Device, simd: u32) -> Result<String, String> {
    visa::emit_kernel(s, d, &visa::Options::with_simd(simd))
        .map(|k| k.text)
        .map_err(|e| e.to_string())
}

fn example(name: &str) -> ir::Shader {
    let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ir::parse_shader(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The platforms every example and corpus shader verifies on: LSC (DG2, PVC) and the
/// legacy data port (Gfx8, Gfx9, Gfx11, Gfx12.0).
const PLATFORMS: [&str; 6] = ["dg2", "pvc", "bdw", "skl", "icl", "tgl"];

fn examples() -> Vec<String> {
    let dir = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ir"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_example_verifies_with_its_kernel_on_lsc_and_legacy_platforms() {
    let names = examples();
    assert!(names.len() >= 10, "{names:?}");
    let mut failures = Vec::new();
    let mut verified = 0;
    for name in &names {
        let shader = example(name);
        for target in PLATFORMS {
            for force_untyped in [false, true] {
                let o = RunOptions {
                    target: Some(target.into()),
                    ..RunOptions::default()
                };
                let v = VerifyOptions {
                    force_untyped,
                    ..VerifyOptions::default()
                };
                match verify_shader_visa(&shader, &o, &v, &emit) {
                    Ok(line) if line.contains(" 0 mismatches") => verified += 1,
                    // Broadwell has no 64-bit image atomics (A64 64-bit atomics back
                    // them from Gfx9, as anv exposes them).
                    Err(e)
                        if name == "r64_atomics.ir"
                            && target == "bdw"
                            && e.to_string().contains("64-bit image atomics need A64") => {}
                    Ok(line) => failures.push(format!("{name} {target} {force_untyped}: {line}")),
                    Err(e) => failures.push(format!("{name} {target} {force_untyped}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every example on every platform both ways, but r64_atomics on Broadwell.
    assert_eq!(verified, names.len() * PLATFORMS.len() * 2 - 2);
}

#[test]
fn every_corpus_shader_verifies_with_its_kernel_on_lsc_and_legacy_platforms() {
    let mut failures = Vec::new();
    let (mut verified, mut refused, mut narrower) = (0, 0, 0);
    let (mut legacy, mut gaps) = (0, 0);
    for input in corpus::inputs().unwrap_or_else(|e| panic!("{e}")) {
        let entries = corpus::entry_points(&input).unwrap_or_else(|e| panic!("{e}"));
        for entry in &entries {
            let shader = corpus::import(&input, entry)
                .unwrap_or_else(|e| panic!("{} (entry {entry}): {e}", input.name))
                .shader;
            for target in PLATFORMS {
                for force_untyped in [false, true] {
                    let name = format!(
                        "{} (entry {entry}) on {target}, force_untyped {force_untyped}",
                        input.name
                    );
                    let mut o = corpus::run_options(&input.name, target);
                    let v = VerifyOptions {
                        force_untyped,
                        ..VerifyOptions::default()
                    };
                    let mut result = verify_shader_visa(&shader, &o, &v, &emit);
                    // What does not fit the registers at SIMD16 runs at SIMD8, as a
                    // driver compiles it (every platform but PVC dispatches SIMD8).
                    if target != "pvc"
                        && result
                            .as_ref()
                            .is_err_and(|e| e.to_string().contains("bytes of registers"))
                    {
                        narrower += 1;
                        o.subgroup = Some(8);
                        result = verify_shader_visa(&shader, &o, &v, &emit);
                    }
                    let text = match &result {
                        Ok(line) => line.clone(),
                        Err(e) => e.to_string(),
                    };
                    // A format-less image has no untyped path (its texel size is the
                    // bound view's): forcing it is the lowering's typed error.
                    let formatless_untyped = force_untyped
                        && text.contains(
                            "the untyped path computes texel addresses from the format, and the image has none",
                        );
                    let documented = formatless_untyped
                        || corpus::DOCUMENTED_REFUSALS.iter().any(|(case, p, why)| {
                            input.name.contains(case) && *p == target && text.contains(why)
                        });
                    let known_gap = corpus::VISA_LEG_GAPS
                        .iter()
                        .any(|(case, why)| input.name.contains(case) && text.contains(why));
                    match result {
                        Ok(line) if line.contains(" 0 mismatches") => {
                            verified += 1;
                            legacy += usize::from(!matches!(target, "dg2" | "pvc"));
                            if corpus::VISA_LEG_GAPS
                                .iter()
                                .any(|(case, _)| input.name.contains(case))
                            {
                                failures.push(format!(
                                    "{name}: verifies now: drop it from corpus::VISA_LEG_GAPS"
                                ));
                            }
                        }
                        Err(_) if documented => refused += 1,
                        _ if known_gap => gaps += 1,
                        _ => failures.push(format!("{name}: {text}")),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "corpus with the vISA leg: {verified} verified ({legacy} on the legacy data port, \
         {narrower} at SIMD8), {refused} documented refusals, {gaps} known gaps"
    );
    assert!(verified > 0);
    assert!(legacy > 0);
}

// ----- planted bugs -----------------------------------------------------------------

/// Lowers `shader` for `target`, verifies its kernel unchanged (it must pass), then
/// with `plant` applied to the kernel text; returns the second verification.
fn planted(
    shader: &ir::Shader,
    target: &str,
    options: LowerOptions,
    plant: &dyn Fn(&str) -> String,
) -> Verified {
    let device = Device::preset(target).unwrap();
    let setup = Setup::default_for(shader, &device, 0).unwrap();
    planted_with(shader, &device, options, &setup, plant)
}

/// [`planted`] with the run's setup.
fn planted_with(
    shader: &ir::Shader,
    device: &Device,
    options: LowerOptions,
    setup: &Setup,
    plant: &dyn Fn(&str) -> String,
) -> Verified {
    let run = |backend: &dyn verify::visa::check::Backend| {
        lower_and_verify_visa(
            shader,
            device,
            &options,
            setup,
            backend,
            &RunConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let faithful = run(&emit);
    assert!(faithful.report().passed(), "{}", faithful.report());
    let changed = run(&|s: &ir::Shader, d: &Device, simd: u32| emit(s, d, simd).map(|t| plant(&t)));
    assert_ne!(changed.text, faithful.text, "the bug was planted");
    assert!(changed.lowering.passed(), "{}", changed.lowering);
    changed
}

/// `text` with its first line satisfying `pick` replaced by `change` of it; panics
/// (naming what it looked for) if no line does.
fn change_first(
    text: &str,
    what: &str,
    pick: impl Fn(&str) -> bool,
    change: impl Fn(&str) -> String,
) -> String {
    let mut done = false;
    let mut out = String::new();
    for l in text.lines() {
        if !done && pick(l.trim()) {
            done = true;
            out.push_str(&change(l));
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    assert!(done, "no {what} in the kernel:\n{text}");
    out
}

/// The vISA instructions the report's mismatches name.
fn named(r: &Report) -> Vec<&str> {
    r.mismatches
        .iter()
        .filter_map(|m| m.instruction.as_deref())
        .collect()
}

/// Whether some mismatch of `kind` names a vISA instruction containing `part`.
fn names(r: &Report, kind: MismatchKind, part: &str) -> bool {
    r.mismatches.iter().any(|m| {
        m.kind == kind
            && m.instruction
                .as_deref()
                .is_some_and(|i| i.starts_with("vISA line ") && i.contains(part))
    })
}

/// In the typed DG2 kernel of `blur.ir`, the add of `%4 = iadd %0.x, 1` (the x + 1
/// coordinate of the third load): `add (M1, 16) v4(0,0)<1> v0(0,0)<1;1,0> 0x1:ud`.
fn is_x_plus_one(l: &str) -> bool {
    l.starts_with("add (M1, 16) ") && l.ends_with("<1;1,0> 0x1:ud")
}

#[test]
fn a_wrong_region_is_reported() {
    // The x coordinate read as a scalar (`<0;1,0>`: every lane takes lane 0's) instead
    // of per lane: the x + 1 loads of all lanes but the first reach other texels.
    let r = planted(&example("blur.ir"), "dg2", LowerOptions::default(), &|t| {
        change_first(t, "x + 1 add", is_x_plus_one, |l| {
            l.replacen("<1;1,0>", "<0;1,0>", 1)
        })
    })
    .report();
    assert!(names(&r, MismatchKind::Address, "lsc_load_quad.tgm"), "{r}");
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
    // A stride of two elements instead of one: lane n reads lane 2n's x.
    let r = planted(&example("blur.ir"), "dg2", LowerOptions::default(), &|t| {
        change_first(t, "x + 1 add", is_x_plus_one, |l| {
            l.replacen("<1;1,0>", "<2;1,0>", 1)
        })
    })
    .report();
    assert!(names(&r, MismatchKind::Address, "lsc_load_quad.tgm"), "{r}");
}

#[test]
fn a_wrong_simd_width_is_reported() {
    // The x + 1 add on 8 lanes of 16: lanes 8-15 keep what the register held (the
    // interpreter's fill), so their loads fall outside the image.
    let r = planted(&example("blur.ir"), "dg2", LowerOptions::default(), &|t| {
        change_first(t, "x + 1 add", is_x_plus_one, |l| {
            l.replacen("(M1, 16)", "(M1, 8)", 1)
        })
    })
    .report();
    assert!(names(&r, MismatchKind::Address, "lsc_load_quad.tgm"), "{r}");
    assert!(
        r.mismatches
            .iter()
            .any(|m| m.actual.contains("discarded (out of bounds)")),
        "{r}"
    );
    // A float add of the luminance on 8 lanes of 16: only the texels lanes 8-15 store
    // differ, and the mismatch names the store that wrote them.
    let r = planted(&example("blur.ir"), "dg2", LowerOptions::default(), &|t| {
        change_first(
            t,
            "float add of two components",
            |l| l.starts_with("add (M1, 16) ") && l.matches("_f(").count() == 3,
            |l| l.replacen("(M1, 16)", "(M1, 8)", 1),
        )
    })
    .report();
    assert!(!r.has(MismatchKind::Address), "{r}");
    assert!(
        names(&r, MismatchKind::ImageTexel, "lsc_store_quad.tgm (M3, 8)"),
        "{r}"
    );
    assert!(
        !names(&r, MismatchKind::ImageTexel, "lsc_store_quad.tgm (M1, 8)"),
        "lanes 0-7 are right: {r}"
    );
}

#[test]
fn a_swapped_operand_is_reported() {
    // The message's u and v coordinates swapped.
    let r = planted(&example("blur.ir"), "dg2", LowerOptions::default(), &|t| {
        change_first(
            t,
            "typed load",
            |l| l.starts_with("lsc_load_quad.tgm (M1, 8)"),
            |l| {
                let (head, rest) = l.split_once('[').unwrap();
                let (coords, tail) = rest.split_once(']').unwrap();
                let (u, v) = coords.split_once(',').unwrap();
                format!("{head}[{v},{u}]{tail}")
            },
        )
    })
    .report();
    assert!(names(&r, MismatchKind::Address, "lsc_load_quad.tgm"), "{r}");
    // The sources of the untyped path's first bounds check swapped (`x - 1 < width`
    // becomes `width < x - 1`): the load it guards runs where it must not.
    let untyped = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    let r = planted(&example("blur.ir"), "dg2", untyped, &|t| {
        change_first(
            t,
            "bounds check",
            |l| l.starts_with("cmp.lt (M1, 16) "),
            |l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let indent = &l[..l.len() - l.trim_start().len()];
                format!(
                    "{indent}{} {} {} {} {} {}",
                    w[0], w[1], w[2], w[3], w[5], w[4]
                )
            },
        )
    })
    .report();
    assert!(!r.passed(), "{r}");
    assert!(names(&r, MismatchKind::Execution, "lsc_load.ugm"), "{r}");
}

#[test]
fn a_dropped_predicate_is_reported() {
    // The untyped path guards each load with its bounds check; without the predicate,
    // the lanes left of the image (x - 1 = -1) load from outside it.
    let untyped = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    let r = planted(&example("blur.ir"), "dg2", untyped, &|t| {
        change_first(
            t,
            "predicated load",
            |l| l.starts_with("(p") && l.contains(" lsc_load.ugm (M1, 16)"),
            |l| {
                let (_, rest) = l.trim_start().split_once(") ").unwrap();
                format!("    {rest}")
            },
        )
    })
    .report();
    assert!(
        names(&r, MismatchKind::Execution, "lsc_load.ugm (M1, 16)"),
        "{r}"
    );
    assert!(
        named(&r).iter().all(|i| !i.contains("(p")),
        "the unpredicated load is named: {r}"
    );
}

/// The 8 stores of the block's components to shared memory in the PVC kernel of
/// `async_copy.ir`: `lsc_store.slm (M1, 16)  flat[A]:a32  IMG[.OFF]:d64`, component `c`
/// at byte `c * 128` of the block's register image (16 lanes of 8 bytes).
fn rewrite_block_stores(text: &str, store: impl Fn(usize, &str, &str) -> String) -> String {
    let mut c = 0;
    let mut out = String::new();
    for l in text.lines() {
        let t = l.trim();
        if t.starts_with("lsc_store.slm (M1, 16)") && t.ends_with(":d64") {
            let (head, data) = t.rsplit_once(' ').unwrap();
            let image = data.split(['.', ':']).next().unwrap();
            out.push_str("    ");
            out.push_str(&store(c, head, image));
            c += 1;
        } else {
            out.push_str(l);
        }
        out.push('\n');
    }
    assert_eq!(c, 8, "eight component stores:\n{text}");
    out
}

#[test]
fn the_pvc_async_copy_layout_bug_is_reported() {
    // The old listing: every store as a SIMD32 message (PVC's untyped width, not the
    // kernel's 16) reading components 256 bytes apart, up to byte 2048 of the
    // 1024-byte register image.
    let shader = example("async_copy.ir");
    let r = planted(&shader, "pvc", LowerOptions::default(), &|t| {
        rewrite_block_stores(t, |c, head, image| {
            let head = head.replacen("(M1, 16)", "(M1, 32)", 1);
            if c == 0 {
                format!("{head} {image}:d64")
            } else {
                format!("{head} {image}.{}:d64", 256 * c)
            }
        })
    })
    .report();
    assert!(
        names(&r, MismatchKind::Execution, "lsc_store.slm (M1, 32)"),
        "{r}"
    );
    // The layout alone, at the right width: components 1 and 2 stored from each
    // other's place. The kernel runs; the transposed tile it copies out differs.
    let r = planted(&shader, "pvc", LowerOptions::default(), &|t| {
        rewrite_block_stores(t, |c, head, image| {
            let from = [0, 2, 1, 3, 4, 5, 6, 7][c];
            if from == 0 {
                format!("{head} {image}:d64")
            } else {
                format!("{head} {image}.{}:d64", 128 * from)
            }
        })
    })
    .report();
    assert!(!r.has(MismatchKind::Execution), "{r}");
    assert!(r.has(MismatchKind::BufferByte), "{r}");
    assert!(names(&r, MismatchKind::BufferByte, "lsc_store"), "{r}");
}

// ----- planted bugs in legacy data-port kernels ---------------------------------------

/// `line` with the predicate `(pN) ` in front of its instruction removed.
fn unpredicated(line: &str) -> String {
    let (_, rest) = line.trim_start().split_once(") ").unwrap();
    format!("    {rest}")
}

#[test]
fn a_wrong_channel_mask_on_a_typed_read_is_reported() {
    // Tiger Lake reads the three texels of each blur pixel with gather4_typed.RGBA. One
    // read returning R, G and A (not B) into the first three channel registers puts
    // alpha where blue belongs: the luminance of lanes 0-7 changes, and the store of
    // those lanes writes the wrong texels.
    let r = planted(&example("blur.ir"), "tgl", LowerOptions::default(), &|t| {
        change_first(
            t,
            "typed read",
            |l| l.starts_with("gather4_typed.RGBA (M1, 8)"),
            |l| l.replacen("gather4_typed.RGBA", "gather4_typed.RGA", 1),
        )
    })
    .report();
    assert!(!r.has(MismatchKind::Address), "{r}");
    assert!(
        names(&r, MismatchKind::ImageTexel, "scatter4_typed.R (M1, 8)"),
        "{r}"
    );
    assert!(
        !names(&r, MismatchKind::ImageTexel, "scatter4_typed.R (M3, 8)"),
        "lanes 8-15 read all four channels: {r}"
    );
}

#[test]
fn a_swapped_address_and_data_of_a_scattered_write_is_reported() {
    // Ice Lake copies the async copy's 2-byte units into shared memory with
    // `scatter_scaled.2 (M1, 16) %slm 0x0:ud OFFSETS DATA`; with the two swapped, the
    // units' values become the offsets they are stored at.
    let r = planted(
        &example("async_copy_3d.ir"),
        "icl",
        LowerOptions::default(),
        &|t| {
            change_first(
                t,
                "scattered write to shared memory",
                |l| l.starts_with("scatter_scaled.2 (M1, 16)  %slm"),
                |l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    let indent = &l[..l.len() - l.trim_start().len()];
                    format!(
                        "{indent}{} {} {} {} {} {} {}",
                        w[0], w[1], w[2], w[3], w[4], w[6], w[5]
                    )
                },
            )
        },
    )
    .report();
    // The first unit's value (with the undefined upper half of the 2-byte read it
    // came from) is no shared-memory offset: the kernel fails at the store.
    assert!(
        names(&r, MismatchKind::Execution, "scatter_scaled.2 (M1, 16)"),
        "{r}"
    );
}

#[test]
fn a_wrong_svm_atomic_operation_is_reported() {
    // Skylake's 64-bit image atomics are A64 atomics: the umax of r64_atomics.ir is
    // `svm_atomic.max.64`. As `min` (unsigned), the texels keep their smaller values.
    let r = planted(
        &example("r64_atomics.ir"),
        "skl",
        LowerOptions::default(),
        &|t| {
            change_first(
                t,
                "64-bit atomic max",
                |l| l.contains(" svm_atomic.max.64 (M1, 8)"),
                |l| l.replacen("svm_atomic.max.64", "svm_atomic.min.64", 1),
            )
        },
    )
    .report();
    assert!(!r.passed(), "{r}");
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
    assert!(named(&r).iter().any(|i| i.contains("svm_atomic")), "{r}");
}

#[test]
fn a_dropped_predicate_on_a_legacy_message_is_reported() {
    // Broadwell's untyped path guards each texel read (`gather4_scaled`, a surface
    // with a bounds check) with the shader's own bounds check; without the predicate the
    // lanes outside the image read (and the surface discards) where the lowered shader
    // makes no access at all.
    let untyped = LowerOptions {
        force_untyped: true,
        ..LowerOptions::default()
    };
    let r = planted(&example("blur.ir"), "bdw", untyped, &|t| {
        change_first(
            t,
            "predicated surface read",
            |l| l.starts_with("(p") && l.contains(" gather4_scaled.R (M1, 16)"),
            unpredicated,
        )
    })
    .report();
    assert!(
        names(&r, MismatchKind::Address, "gather4_scaled.R (M1, 16)"),
        "{r}"
    );
    assert!(
        named(&r).iter().all(|i| !i.contains("(p")),
        "the unpredicated read is named: {r}"
    );
    // With A64 addresses (no bounds check), the unguarded lanes read outside every
    // allocation: the kernel fails at that message.
    let a64 = LowerOptions {
        untyped_address: lowering::UntypedAddress::A64,
        ..untyped
    };
    let r = planted(&example("blur.ir"), "tgl", a64, &|t| {
        change_first(
            t,
            "predicated A64 read",
            |l| l.starts_with("(p") && l.contains(" svm_gather4scaled.R (M1, 16)"),
            unpredicated,
        )
    })
    .report();
    assert!(
        names(&r, MismatchKind::Execution, "svm_gather4scaled.R (M1, 16)"),
        "{r}"
    );
}

/// A float sum over the lanes and an integer inclusive scan in a branch a quarter of
/// the lanes skip (their word's low bits are 0), stored per lane.
const SUBGROUP_SHADER: &str = "shader compute (local_size=32,1,1)
buffer @data : ssbo (block=0, size=256)

fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000004)
    32   %2 = imul %0.x, %1
    32   %3 = @load_ssbo (%1, %2) (access=none, align_mul=4)
    32   %4 = load_const (0x00000003)
    32   %5 = iand %3, %4
    32   %6 = load_const (0x00000000)
    1    %7 = ine %5, %6
  if %7 {
    block b1:
      32   %8 = @reduce (%3) (reduction_op=fadd)
      32   %9 = @inclusive_scan (%3) (reduction_op=iadd)
      32   %10 = iadd %8, %9
      32   %11 = load_const (0x00000080)
      32   %12 = iadd %2, %11
      @store_ssbo (%10, %6, %12) (access=none, align_mul=4)
  } else {
    block b2:
  }
  block b3:
}
";

#[test]
fn a_subgroup_reduction_or_scan_that_skips_a_step_is_reported() {
    let shader = ir::parse_shader(SUBGROUP_SHADER).unwrap_or_else(|e| panic!("{e:?}"));
    for target in ["dg2", "tgl"] {
        // The reduction's last halving step (slot 0 with slot 1) left out: lane 0's
        // partial sum is everyone's result.
        let r = planted(&shader, target, LowerOptions::default(), &|t| {
            change_first(
                t,
                "the last step of the float sum",
                |l| l.starts_with("add (M1_NM, 1) "),
                |_| String::new(),
            )
        })
        .report();
        assert!(r.has(MismatchKind::BufferByte), "{target}: {r}");
        // The scan's first step reading two slots below instead of one.
        let r = planted(&shader, target, LowerOptions::default(), &|t| {
            change_first(
                t,
                "the first step of the scan",
                |l| l.starts_with("add (M1_NM, 16) ") && l.contains(",7)<1;1,0>"),
                |l| l.replacen(",7)<1;1,0>", ",6)<1;1,0>", 1),
            )
        })
        .report();
        assert!(r.has(MismatchKind::BufferByte), "{target}: {r}");
    }
}

// ----- sample_l ---------------------------------------------------------------------

/// The txl shader of `tests/lit/sampler/txl_visa.ir`: a 2D texture and a 1D array
/// sampled with sampler 3, a 2D array with sampler 17.
fn txl_shader() -> ir::Shader {
    let path = format!("{}/lit/sampler/txl_visa.ir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ir::parse_shader(&text).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// The default setup of the txl shader at `simd` lanes, sampler 3 (`@s`) nearest with
/// repeat and sampler 17 (`@t`) linear with mirrored repeat: different states, so
/// that a message naming the wrong one reads other values.
fn txl_setup(shader: &ir::Shader, device: &Device, simd: u32) -> Setup {
    use verify::sampler_state::SamplerState;
    let mut setup = Setup::default_for(shader, device, 0).unwrap();
    setup.subgroup_size = simd;
    setup.samplers = vec![
        (
            "s".into(),
            SamplerState::parse("nearest,mip_linear,repeat").unwrap(),
        ),
        (
            "t".into(),
            SamplerState::parse("linear,mirrored_repeat").unwrap(),
        ),
    ];
    setup
}

#[test]
fn txl_kernels_verify_at_every_width_on_every_sampler_platform() {
    // sample_l at SIMD8 and SIMD16 (one message a thread) and SIMD32 (two, M1 and M5),
    // on the legacy data-port platforms and the LSC ones with a sampler.
    let shader = txl_shader();
    let mut verified = 0;
    for (target, widths) in [
        ("bdw", &[8, 16][..]),
        ("skl", &[32][..]),
        ("icl", &[16][..]),
        ("tgl", &[8, 32][..]),
        ("dg2", &[8, 16, 32][..]),
        ("mtl", &[32][..]),
    ] {
        let device = Device::preset(target).unwrap();
        for &simd in widths {
            let setup = txl_setup(&shader, &device, simd);
            let v = lower_and_verify_visa(
                &shader,
                &device,
                &LowerOptions::default(),
                &setup,
                &emit,
                &RunConfig::default(),
            )
            .unwrap_or_else(|e| panic!("{target} SIMD{simd}: {e}"));
            assert!(v.report().passed(), "{target} SIMD{simd}: {}", v.report());
            let messages = v.text.lines().filter(|l| l.contains("sample_l.")).count();
            // Three txls, one message each per 16 lanes.
            assert_eq!(messages, 3 * (simd as usize).div_ceil(16), "{}", v.text);
            verified += 1;
        }
    }
    assert_eq!(verified, 10);
}

#[test]
fn a_wrong_sampler_index_is_reported() {
    // The 2D array's sample_l naming sampler 3 (nearest, repeat) instead of 17 (linear,
    // mirrored repeat): it reads other texels (one tap instead of four), and its two
    // channels, stored in G and R, change.
    let shader = txl_shader();
    let device = Device::preset("dg2").unwrap();
    let setup = txl_setup(&shader, &device, 16);
    let r = planted_with(&shader, &device, LowerOptions::default(), &setup, &|t| {
        change_first(
            t,
            "sampler index 17",
            |l| l == "movs (M1_NM, 1) S0(0) 0x11:ud",
            |l| l.replacen("0x11:ud", "0x3:ud", 1),
        )
    })
    .report();
    assert!(
        names(
            &r,
            MismatchKind::Address,
            "sample_l.RG (M1, 16)  0x8000:uw S0 T7"
        ),
        "{r}"
    );
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
}

#[test]
fn swapped_sample_l_parameters_are_reported() {
    // Tiger Lake's first sample_l with u where the LOD goes and the LOD where u goes:
    // other texels of other levels.
    let shader = txl_shader();
    let device = Device::preset("tgl").unwrap();
    let setup = txl_setup(&shader, &device, 16);
    let r = planted_with(&shader, &device, LowerOptions::default(), &setup, &|t| {
        change_first(
            t,
            "sample_l",
            |l| l.starts_with("sample_l.RGBA (M1, 16)"),
            |l| {
                let mut w: Vec<&str> = l.split_whitespace().collect();
                // ... dst lod u v: swap lod and u.
                let n = w.len();
                w.swap(n - 3, n - 2);
                format!("    {}", w.join(" "))
            },
        )
    })
    .report();
    assert!(
        names(
            &r,
            MismatchKind::Address,
            "sample_l.RGBA (M1, 16) 0x0:uw S0 T6"
        ),
        "{r}"
    );
    assert!(r.has(MismatchKind::ImageTexel), "{r}");
}

// ----- shuffles ---------------------------------------------------------------------

/// Every lane's word shuffled three ways, all from active lanes inside the subgroup:
/// `shuffle_xor` by 5, `shuffle` to lane `(u >> 4) & 7`, the diagonal quad swap,
/// combined and stored per lane.
const SHUFFLE_SHADER: &str = "shader compute (local_size=32,1,1)
buffer @data : ssbo (block=0, size=256)

fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000004)
    32   %2 = imul %0.x, %1
    32   %6 = load_const (0x00000000)
    32   %3 = @load_ssbo (%6, %2) (access=none, align_mul=4)
    32   %4 = load_const (0x00000005)
    32   %5 = ushr %3, %1
    32   %7 = load_const (0x00000007)
    32   %8 = iand %5, %7
    32   %9 = @shuffle_xor (%3, %4)
    32   %10 = @shuffle (%3, %8)
    32   %11 = @quad_swap_diagonal (%3)
    32   %12 = imul %10, %7
    32   %13 = iadd %9, %12
    32   %14 = ishl %11, %1
    32   %15 = iadd %13, %14
    32   %16 = load_const (0x00000080)
    32   %17 = iadd %2, %16
    @store_ssbo (%15, %6, %17) (access=none, align_mul=4)
}
";

#[test]
fn a_wrong_shuffle_is_reported() {
    let shader = ir::parse_shader(SHUFFLE_SHADER).unwrap_or_else(|e| panic!("{e:?}"));
    // (what, the line, the text replaced, its replacement)
    type Plant = (&'static str, fn(&str) -> bool, &'static str, &'static str);
    let plants: [Plant; 3] = [
        // The xor mask of the first shuffle off by one: every lane reads lane ^ 4.
        (
            "the xor of the shuffle's lane",
            |l| l.starts_with("xor (M1, 16) t") && l.ends_with(" 0x5:ud"),
            " 0x5:ud",
            " 0x4:ud",
        ),
        // The lane's byte offset scaled by 2 instead of 4 (a word, not a dword, per
        // lane): lanes read the wrong elements.
        (
            "the scaling of the shuffle's offsets",
            |l| l.starts_with("shl (M1, 16) t") && l.ends_with(" 0x2:ud"),
            " 0x2:ud",
            " 0x1:ud",
        ),
        // The indirect read a dword further on: each lane reads its source lane's
        // neighbour (inside the staging variable, which holds qwords).
        (
            "the indirect read",
            |l| l.contains("r[A0(0),0]<1,0>:ud"),
            "r[A0(0),0]",
            "r[A0(0),4]",
        ),
    ];
    for target in ["dg2", "tgl", "skl"] {
        for (what, line, from, to) in plants {
            let r = planted(&shader, target, LowerOptions::default(), &|t| {
                change_first(t, what, line, |l| l.replacen(from, to, 1))
            })
            .report();
            assert!(r.has(MismatchKind::BufferByte), "{target}, {what}: {r}");
        }
    }
}
