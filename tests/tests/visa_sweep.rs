//! The vISA sweep: a fixed-seed sample of random image shaders from the lowering
//! property generator ([`suites::cases::image_shader::Case`]), lowered like `ir-opt -O`
//! for two groups of platforms, the LSC ones (DG2, MTL, PVC) and those of the legacy data
//! port (BDW, SKL, ICL, TGL), with the typed, `--force-untyped` (BTI and A64) and
//! `--readonly-via-sampler` options at the case's SIMD width (8, 16 or 32; PVC, which
//! has no SIMD8 dispatch, runs SIMD8 cases at 16), emitted as whole kernels by
//! [`visa::emit_kernel`] and compiled by IGC's GenX_IR, many processes at once.
//!
//! Every emitted kernel must compile, with nothing retried ([`visa::igc::compile`]): the
//! sweep counts apart the three ways a kernel can fail, a GenX_IR crash (a signal), a
//! spill and a rejection, and fails on any of them. A case may instead stop with a
//! documented error: a lowering error (the lowering property suites check which ones
//! are expected), or an emission error of a kind the back end documents (a message the
//! platform's legality table refuses, a kernel whose live values need more registers
//! than a thread of the case's fixed width has). Any other emission error fails the
//! sweep, and so do too few compiled kernels in a group ([`MIN_COMPILED`]). After the
//! run the sweep prints what happened per platform and width.
//!
//! Environment: `QC_TESTS` = cases per LSC platform (default [`CASES`]; each legacy
//! platform gets 600 / 734 of it, so that both groups compile over 2,000 kernels),
//! `QC_SEED` = a seed
//! mixed into the fixed one, `VISA_SWEEP_THREADS` = GenX_IR processes at once (default:
//! the available parallelism), `VISA_SWEEP_DUMP` = a directory that receives every
//! emitted kernel and its lowered shader (for measuring them with GenX_IR's options). GenX_IR is Debian's `libigc-tools`; without it the sweep
//! fails when env `CI` is set and skips with a message otherwise.
//!
//! ```text
//! cargo test --release -p suites --test visa_sweep -- --nocapture
//! ```

use lowering::{Device, LowerOptions, UntypedAddress};
use quickcheck::Gen;
use std::collections::BTreeMap;
use std::time::Instant;
use suites::cases::image_shader::{Case, CaseConfig};

/// Cases per LSC platform.
const CASES: usize = 734;

/// The groups of platforms the sweep compiles for, and the cases of each platform of
/// the group in a default run (a run of `QC_TESTS` cases scales them by
/// `QC_TESTS / CASES`): each group must compile at least [`MIN_COMPILED`] kernels.
const GROUPS: [(&[&str], usize); 2] = [
    (&["dg2", "mtl", "pvc"], CASES),
    (&["bdw", "skl", "icl", "tgl"], 600),
];

/// The platforms in the order that picks each one's seed (`0x715a5eed ^ index`): the
/// order of the first sweep, MTL (added later) last, so that every platform keeps its
/// cases.
const SEED_ORDER: [&str; 7] = ["dg2", "pvc", "bdw", "skl", "icl", "tgl", "mtl"];

/// The fewest compiled kernels of a group a default run accepts.
const MIN_COMPILED: usize = 2000;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// The lowering options a case is drawn with.
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
        LowerOptions {
            readonly_via_sampler: true,
            ..LowerOptions::default()
        },
    ]
}

/// `n` cases for `platform`: the generator draws among every preset; the sweep keeps
/// the cases of `platform` (the images' formats depend on the device).
fn cases(platform: &str, n: usize, seed: u64) -> Vec<Case> {
    // Image arrays and their `non_uniform` loops reach GenX_IR through the lit shaders
    // (`tests/lit/nonuniform/`, compiled on every platform by visa/tests/corpus_genx.rs)
    // and through the vISA leg's properties; the sweep's cases stay those drawn before
    // arrays existed, the set its crash and spill counts are measured on.
    let cfg = CaseConfig {
        options: options(),
        array_share: 0,
        ..CaseConfig::default()
    };
    let want = Device::preset(platform).expect("a preset").name;
    let mut g = Gen::from_size_and_seed(16, seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let c = Case::arbitrary_with(&mut g, &cfg);
        if c.device.name == want {
            out.push(c);
        }
    }
    out
}

/// What became of a case.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Outcome {
    /// A lowering error.
    Lowering,
    /// A documented emission refusal, by kind.
    Refused(&'static str),
    /// Emitted (then compiled or rejected).
    Emitted,
}

#[test]
fn random_image_shaders_compile_through_genx_ir() {
    if visa::igc::find_tool().is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("visa_sweep: GenX_IR (Debian package libigc-tools) is missing, and CI is set");
        }
        eprintln!("visa_sweep: skipped: GenX_IR (Debian package libigc-tools) is not installed");
        return;
    }
    let n = env_u64("QC_TESTS").map_or(CASES, |v| v as usize);
    let user_seed = env_u64("QC_SEED").unwrap_or(0);
    let threads = env_u64("VISA_SWEEP_THREADS").map_or_else(
        || std::thread::available_parallelism().map_or(2, |p| p.get()),
        |v| v as usize,
    );
    let started = Instant::now();
    let mut jobs = Vec::new();
    let mut labels = Vec::new();
    let mut outcomes: BTreeMap<(&str, Outcome), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut emit_time = std::time::Duration::ZERO;
    // The group of each job, to count compiled kernels per group.
    let mut groups = Vec::new();
    // The platform and width of each job, and the kernels compiled per platform and
    // width.
    let mut widths: Vec<(&str, u32)> = Vec::new();
    let mut widths_compiled: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    let platforms = GROUPS
        .iter()
        .enumerate()
        .flat_map(|(g, (plats, per))| plats.iter().map(move |p| (g, *p, *per)));
    for (group, plat, per) in platforms {
        let p = SEED_ORDER
            .iter()
            .position(|&s| s == plat)
            .expect("every swept platform has a seed");
        let seed = 0x715a_5eed_u64 ^ (p as u64) ^ user_seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for (i, case) in cases(plat, per * n / CASES, seed).into_iter().enumerate() {
            let label = format!("{plat} case {i} (seed {seed:#x})");
            let mut shader = case.build();
            let t = Instant::now();
            let lowered = lowering::lower_images(&mut shader, &case.device, &case.options)
                .map_err(|e| e.to_string())
                .and_then(|_| {
                    lowering::lower_async_copies(&mut shader, &case.device, &Default::default())
                        .map_err(|e| e.to_string())
                })
                .and_then(|_| {
                    use ir::passes::Pass;
                    ir::passes::Cleanup::standard(16)
                        .run(&mut shader)
                        .map_err(|e| e.to_string())
                });
            if lowered.is_err() {
                *outcomes.entry((plat, Outcome::Lowering)).or_default() += 1;
                continue;
            }
            let simd = match (case.subgroup_size, plat) {
                (8, "pvc") => 16,
                (s, _) => s,
            };
            let emitted = visa::emit_kernel(&shader, &case.device, &visa::Options::with_simd(simd));
            emit_time += t.elapsed();
            match emitted {
                Ok(k) => {
                    *outcomes.entry((plat, Outcome::Emitted)).or_default() += 1;
                    let platform = k
                        .genx_platform
                        .expect("the swept platforms have a GenX_IR platform");
                    if let Some(dir) = std::env::var_os("VISA_SWEEP_DUMP") {
                        let f =
                            std::path::Path::new(&dir).join(label.replace([' ', '(', ')'], "_"));
                        let _ = std::fs::write(f.with_extension("visaasm"), &k.text);
                        let _ = std::fs::write(f.with_extension("ir"), shader.to_string());
                    }
                    jobs.push((k.text, platform.to_string()));
                    labels.push((label, shader.to_string()));
                    groups.push(group);
                    widths.push((plat, k.abi.simd));
                }
                Err(e) => {
                    let kind = match *e.kind {
                        visa::EmitErrorKind::Message(_) => "message refused by the table",
                        visa::EmitErrorKind::RegisterPressure { .. } => "register pressure",
                        _ => {
                            failures.push(format!("{label}: {e}\n{shader}"));
                            "other (a failure)"
                        }
                    };
                    *outcomes.entry((plat, Outcome::Refused(kind))).or_default() += 1;
                }
            }
        }
    }
    let emitted = jobs.len();
    let texts: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
    let compile_started = Instant::now();
    let results = visa::igc::compile_many(jobs, threads);
    let compile_time = compile_started.elapsed();
    let mut compiled = 0;
    // Failures by kind: crashes, spills, rejections (and others), per platform.
    let mut failed: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
    let mut per_group = vec![0usize; GROUPS.len()];
    for (((((label, ir_text), text), r), &group), &(plat, simd)) in labels
        .iter()
        .zip(&texts)
        .zip(results)
        .zip(&groups)
        .zip(&widths)
    {
        match r {
            Ok(_) => {
                compiled += 1;
                per_group[group] += 1;
                *widths_compiled.entry((plat, simd)).or_default() += 1;
            }
            Err(e) => {
                let kind = match e {
                    visa::igc::CheckError::Crashed { .. } => "crash",
                    visa::igc::CheckError::Spilled { .. } => "spill",
                    visa::igc::CheckError::Rejected { .. } => "rejection",
                    _ => "other failure",
                };
                *failed.entry((kind, plat.to_string())).or_default() += 1;
                let file = std::env::temp_dir().join(format!(
                    "visa-sweep-{}.visaasm",
                    label.replace([' ', '(', ')'], "_")
                ));
                let _ = std::fs::write(&file, text);
                let _ = std::fs::write(file.with_extension("ir"), ir_text);
                let said: Vec<String> = e.to_string().lines().take(12).map(String::from).collect();
                failures.push(format!(
                    "{label}: GenX_IR {kind} ({}):\n{}\n{ir_text}",
                    file.display(),
                    said.join("\n")
                ));
            }
        }
    }
    eprintln!(
        "visa_sweep: {} cases per LSC platform, {} per legacy one; {emitted} kernels emitted in {:.2?} (lowering included), \
         {compiled} compiled by GenX_IR in {:.2?} on {threads} threads; {:.2?} in all",
        n,
        GROUPS[1].1 * n / CASES,
        emit_time,
        compile_time,
        started.elapsed()
    );
    let count = |kind: &str| -> usize {
        failed
            .iter()
            .filter(|((k, _), _)| *k == kind)
            .map(|(_, n)| n)
            .sum()
    };
    eprintln!(
        "  GenX_IR crashes: {}; spills: {}; rejections: {}; other failures: {}",
        count("crash"),
        count("spill"),
        count("rejection"),
        count("other failure")
    );
    for ((kind, plat), n) in &failed {
        eprintln!("    {kind} on {plat}: {n}");
    }
    for ((plat, simd), n) in &widths_compiled {
        eprintln!("  {plat:4} SIMD{simd}: {n} compiled");
    }
    for ((plats, _), got) in GROUPS.iter().zip(&per_group) {
        eprintln!("  compiled for {plats:?}: {got}");
    }
    for ((plat, o), count) in &outcomes {
        eprintln!("  {plat:4} {o:?}: {count}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    if n >= CASES {
        for ((plats, _), got) in GROUPS.iter().zip(&per_group) {
            assert!(
                *got >= MIN_COMPILED,
                "only {got} kernels compiled for {plats:?} (at least {MIN_COMPILED} expected)"
            );
        }
    }
}
