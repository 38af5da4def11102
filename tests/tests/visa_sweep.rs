//! The vISA sweep: a fixed-seed sample of random image shaders from the lowering
//! property generator ([`suites::cases::image_shader::Case`], image arrays and their
//! `non_uniform` loops included), lowered like `ir-opt -O` for two groups of platforms,
//! the LSC ones (DG2, MTL, PVC) and those of the legacy data port (BDW, SKL, ICL, TGL),
//! with the typed, `--force-untyped` (BTI and A64) and `--readonly-via-sampler`
//! options, each emitted at every SIMD width the platform dispatches (8, 16 and 32;
//! PVC has no SIMD8) by [`visa::emit_kernel`] and compiled by IGC's GenX_IR, many
//! processes at once.
//!
//! Every emitted kernel must compile ([`visa::igc::compile`]): the sweep counts apart
//! the three ways a kernel can fail, a GenX_IR crash (a signal), a spill and a
//! rejection, and fails on any of them. The generated shaders fix no subgroup size, so
//! a width whose registers the pressure model says cannot hold the kernel's values is
//! not a refusal: the kernel is emitted at the next narrower width, as a free width
//! would be ([`visa::emit_kernel`]), and counted as narrowed. Likewise a free width
//! that GenX_IR spills is emitted again narrower, as [`visa::emit_confirmed`] does on
//! GenX_IR's spill report (and brw on its own), counted apart as spill-narrowed; only
//! a spill at the narrowest width is a spill. A case
//! may instead stop with a documented error: a lowering error (the lowering property
//! suites check which ones are expected), or a message the platform's legality table
//! refuses. Any other emission error fails the sweep (a register-pressure refusal at
//! the narrowest width too), and so do too few compiled kernels in a group
//! ([`MIN_COMPILED`]). After the run the sweep prints, per platform and width asked
//! for, GenX_IR's verdicts and what became of the cases before it.
//!
//! Environment: `QC_TESTS` = cases per LSC platform (default [`DEFAULT_TESTS`]; each legacy
//! platform gets 600 / 734 of it; from [`CASES`] on, each group must compile
//! [`MIN_COMPILED`] kernels), `QC_SEED` = a seed mixed into the fixed one, or
//! `QC_SEEDS` = several, comma-separated, `VISA_SWEEP_THREADS` = GenX_IR processes at
//! once (default: the available parallelism), `VISA_SWEEP_PLATFORMS` and
//! `VISA_SWEEP_CASES` = comma-separated platforms (`tgl,mtl`) and case numbers (`411`)
//! to keep (for rerunning a failure: the cases keep their numbers and seeds; the
//! group minimum is not checked then), `VISA_SWEEP_DUMP` = a directory that
//! receives every emitted kernel and its lowered shader (for measuring them with
//! GenX_IR's options). GenX_IR is Debian's `libigc-tools`; without it the sweep fails
//! when env `CI` is set and skips with a message otherwise. CI runs the default; the
//! full grid, 3 seeds x every width x 7 platforms:
//!
//! ```text
//! QC_SEEDS=0,7,11 QC_TESTS=734 VISA_SWEEP_THREADS=2 \
//!     cargo test --release -p suites --test visa_sweep -- --nocapture
//! ```

use lowering::{Device, LowerOptions, UntypedAddress};
use quickcheck::Gen;
use std::collections::BTreeMap;
use std::time::Instant;
use suites::cases::image_shader::{Case, CaseConfig};

/// Cases per LSC platform of a full run, the count the legacy platforms' share and
/// [`MIN_COMPILED`] are measured against.
const CASES: usize = 734;

/// Cases per LSC platform when `QC_TESTS` is not set (CI): each at every width, about
/// 3,500 kernels, a minute and a half of GenX_IR on two threads.
const DEFAULT_TESTS: usize = 200;

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
    let cfg = CaseConfig {
        options: options(),
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

/// What became of a case at one width before GenX_IR.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Outcome {
    /// A lowering error.
    Lowering,
    /// A documented emission refusal, by kind.
    Refused(&'static str),
    /// Emitted at the width asked for.
    Emitted,
    /// The pressure model refused the width asked for; the shader leaves its width free,
    /// so it was emitted at this narrower width, as a driver would dispatch it.
    Narrowed(u32),
    /// GenX_IR spilled the kernel at the width emitted; the shader leaves its width
    /// free, so it was emitted again at this narrower width, as `visa::emit_confirmed`
    /// (and `ir-opt --emit visa`) does on GenX_IR's spill report, and brw on its own.
    SpillNarrowed(u32),
}

/// The widths the sweep asks for on a platform: every one it dispatches.
fn widths(plat: &str) -> &'static [u32] {
    if plat == "pvc" {
        &[16, 32]
    } else {
        &[8, 16, 32]
    }
}

/// The seeds of a run: `QC_SEEDS` (a comma-separated list), else `QC_SEED`, else 0.
fn seeds() -> Vec<u64> {
    match std::env::var("QC_SEEDS") {
        Ok(list) => list
            .split(',')
            .map(|s| {
                s.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("QC_SEEDS: `{s}` is not a number"))
            })
            .collect(),
        Err(_) => vec![env_u64("QC_SEED").unwrap_or(0)],
    }
}

/// The comma-separated entries of env `name`, if it is set.
fn env_list(name: &str) -> Option<Vec<String>> {
    std::env::var(name)
        .ok()
        .map(|l| l.split(',').map(|s| s.trim().to_string()).collect())
}

/// One kernel handed to GenX_IR.
struct Job {
    label: String,
    ir: String,
    text: String,
    group: usize,
    plat: &'static str,
    /// The width asked for.
    simd: u32,
    /// GenX_IR's platform.
    genx: &'static str,
    /// The width emitted.
    width: u32,
    /// What became of the case before GenX_IR, as counted.
    outcome: Outcome,
    /// The shader and its device, when the shader leaves its width free (to emit it
    /// again narrower on a spill report).
    free: Option<(ir::Shader, lowering::Device)>,
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
    let n = env_u64("QC_TESTS").map_or(DEFAULT_TESTS, |v| v as usize);
    let threads = env_u64("VISA_SWEEP_THREADS").map_or_else(
        || std::thread::available_parallelism().map_or(2, |p| p.get()),
        |v| v as usize,
    );
    let started = Instant::now();
    let mut jobs: Vec<Job> = Vec::new();
    // Per platform, width asked for and outcome: the cases.
    let mut outcomes: BTreeMap<(&str, u32, String), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut emit_time = std::time::Duration::ZERO;
    let seeds = seeds();
    let only_platforms = env_list("VISA_SWEEP_PLATFORMS");
    let only_cases: Option<Vec<usize>> = env_list("VISA_SWEEP_CASES").map(|l| {
        l.iter()
            .map(|c| {
                c.parse()
                    .unwrap_or_else(|_| panic!("VISA_SWEEP_CASES: `{c}` is not a number"))
            })
            .collect()
    });
    let filtered = only_platforms.is_some() || only_cases.is_some();
    for &user_seed in &seeds {
        let platforms = GROUPS
            .iter()
            .enumerate()
            .flat_map(|(g, (plats, per))| plats.iter().map(move |p| (g, *p, *per)));
        for (group, plat, per) in platforms {
            if only_platforms
                .as_ref()
                .is_some_and(|l| !l.iter().any(|p| p == plat))
            {
                continue;
            }
            let p = SEED_ORDER
                .iter()
                .position(|&s| s == plat)
                .expect("every swept platform has a seed");
            let seed = 0x715a_5eed_u64 ^ (p as u64) ^ user_seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for (i, case) in cases(plat, per * n / CASES, seed).into_iter().enumerate() {
                if only_cases.as_ref().is_some_and(|l| !l.contains(&i)) {
                    continue;
                }
                let t = Instant::now();
                let mut shader = case.build();
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
                emit_time += t.elapsed();
                for &simd in widths(plat) {
                    let label = format!("{plat} case {i} SIMD{simd} (seed {seed:#x})");
                    let mut count = |o: Outcome| {
                        *outcomes.entry((plat, simd, format!("{o:?}"))).or_default() += 1;
                    };
                    if lowered.is_err() {
                        count(Outcome::Lowering);
                        continue;
                    }
                    let t = Instant::now();
                    // Spills forbidden: the sweep measures the widths that fit.
                    let mut emitted = visa::emit_kernel(
                        &shader,
                        &case.device,
                        &visa::Options::with_simd(simd).without_spills(),
                    );
                    let mut outcome = Outcome::Emitted;
                    // The generated shaders fix no subgroup size: a width the registers
                    // cannot hold is dispatched narrower, as the free width would be.
                    if shader.subgroup_size.is_none() {
                        for &w in widths(plat).iter().rev().filter(|&&w| w < simd) {
                            let Err(e) = &emitted else { break };
                            if !matches!(*e.kind, visa::EmitErrorKind::RegisterPressure { .. }) {
                                break;
                            }
                            emitted = visa::emit_kernel(
                                &shader,
                                &case.device,
                                &visa::Options::with_simd(w).without_spills(),
                            );
                            outcome = Outcome::Narrowed(w);
                        }
                    }
                    emit_time += t.elapsed();
                    match emitted {
                        Ok(k) => {
                            count(outcome.clone());
                            let genx = k
                                .genx_platform
                                .expect("the swept platforms have a GenX_IR platform");
                            if let Some(dir) = std::env::var_os("VISA_SWEEP_DUMP") {
                                let f = std::path::Path::new(&dir)
                                    .join(label.replace([' ', '(', ')'], "_"));
                                let _ = std::fs::write(f.with_extension("visaasm"), &k.text);
                                let _ = std::fs::write(f.with_extension("ir"), shader.to_string());
                            }
                            jobs.push(Job {
                                label,
                                ir: shader.to_string(),
                                text: k.text,
                                group,
                                plat,
                                simd,
                                genx,
                                width: k.abi.simd,
                                outcome,
                                free: shader
                                    .subgroup_size
                                    .is_none()
                                    .then(|| (shader.clone(), case.device.clone())),
                            });
                        }
                        Err(e) => {
                            let kind = match *e.kind {
                                visa::EmitErrorKind::Message(_) => "message refused by the table",
                                // The shader leaves its width free, and even the narrowest
                                // width overflows the registers: a failure.
                                visa::EmitErrorKind::RegisterPressure { .. } => {
                                    failures.push(format!("{label}: {e}\n{shader}"));
                                    "register pressure at every width (a failure)"
                                }
                                _ => {
                                    failures.push(format!("{label}: {e}\n{shader}"));
                                    "other (a failure)"
                                }
                            };
                            count(Outcome::Refused(kind));
                        }
                    }
                }
            }
        }
    }
    let emitted = jobs.len();
    let compile_started = Instant::now();
    let inputs: Vec<(String, String)> = jobs
        .iter()
        .map(|j| (j.text.clone(), j.genx.to_string()))
        .collect();
    let mut results = visa::igc::compile_many(inputs, threads);
    // A free width that GenX_IR spills is emitted again at the next narrower width the
    // pressure model accepts, until one compiles or the narrowest spills.
    loop {
        let mut retry = Vec::new();
        for (i, (job, r)) in jobs.iter_mut().zip(&results).enumerate() {
            let (Err(visa::igc::CheckError::Spilled { .. }), Some((shader, device))) =
                (r, &job.free)
            else {
                continue;
            };
            for &w in widths(job.plat).iter().rev().filter(|&&w| w < job.width) {
                match visa::emit_kernel(
                    shader,
                    device,
                    &visa::Options::with_simd(w).without_spills(),
                ) {
                    Ok(k) => {
                        retry.push((i, k.text, w));
                        break;
                    }
                    Err(e) if matches!(*e.kind, visa::EmitErrorKind::RegisterPressure { .. }) => {}
                    Err(e) => {
                        failures.push(format!(
                            "{}: GenX_IR spilled at SIMD{}; at SIMD{w}: {e}",
                            job.label, job.width
                        ));
                        break;
                    }
                }
            }
        }
        if retry.is_empty() {
            break;
        }
        let inputs = retry
            .iter()
            .map(|(i, text, _)| (text.clone(), jobs[*i].genx.to_string()))
            .collect();
        for ((i, text, w), r) in retry
            .into_iter()
            .zip(visa::igc::compile_many(inputs, threads))
        {
            let job = &mut jobs[i];
            let key = |o: &Outcome| (job.plat, job.simd, format!("{o:?}"));
            if let Some(n) = outcomes.get_mut(&key(&job.outcome)) {
                *n -= 1;
            }
            job.outcome = Outcome::SpillNarrowed(w);
            *outcomes.entry(key(&job.outcome)).or_default() += 1;
            job.text = text;
            job.width = w;
            results[i] = r;
        }
    }
    outcomes.retain(|_, n| *n > 0);
    let compile_time = compile_started.elapsed();
    let mut compiled = 0;
    let mut per_group = vec![0usize; GROUPS.len()];
    // Per platform and width asked for, what GenX_IR made of the kernels.
    let mut verdicts: BTreeMap<(&str, u32, &'static str), usize> = BTreeMap::new();
    for (job, r) in jobs.iter().zip(results) {
        let kind = match &r {
            Ok(_) => "compiled",
            Err(visa::igc::CheckError::Crashed { .. }) => "crash",
            Err(visa::igc::CheckError::Spilled { .. }) => "spill",
            Err(visa::igc::CheckError::Rejected { .. }) => "rejection",
            Err(_) => "other failure",
        };
        *verdicts.entry((job.plat, job.simd, kind)).or_default() += 1;
        match r {
            Ok(_) => {
                compiled += 1;
                per_group[job.group] += 1;
            }
            Err(e) => {
                let file = std::env::temp_dir().join(format!(
                    "visa-sweep-{}.visaasm",
                    job.label.replace([' ', '(', ')'], "_")
                ));
                let _ = std::fs::write(&file, &job.text);
                let _ = std::fs::write(file.with_extension("ir"), &job.ir);
                let said: Vec<String> = e.to_string().lines().take(12).map(String::from).collect();
                failures.push(format!(
                    "{}: GenX_IR {kind} ({}):\n{}\n{}",
                    job.label,
                    file.display(),
                    said.join("\n"),
                    job.ir
                ));
            }
        }
    }
    eprintln!(
        "visa_sweep: seeds {seeds:?}, {} cases per LSC platform, {} per legacy one, each at every width; \
         {emitted} kernels emitted in {:.2?} (lowering included), {compiled} compiled by GenX_IR \
         in {:.2?} on {threads} threads; {:.2?} in all",
        n,
        GROUPS[1].1 * n / CASES,
        emit_time,
        compile_time,
        started.elapsed()
    );
    let count = |kind: &str| -> usize {
        verdicts
            .iter()
            .filter(|((_, _, k), _)| *k == kind)
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
    eprintln!("  platform width: GenX_IR's verdicts | the cases before GenX_IR");
    for plat in SEED_ORDER {
        for &simd in widths(plat) {
            let v: Vec<String> = verdicts
                .iter()
                .filter(|((p, w, _), _)| *p == plat && *w == simd)
                .map(|((_, _, k), n)| format!("{k} {n}"))
                .collect();
            let o: Vec<String> = outcomes
                .iter()
                .filter(|((p, w, _), _)| *p == plat && *w == simd)
                .map(|((_, _, k), n)| format!("{k} {n}"))
                .collect();
            eprintln!(
                "  {plat:4} SIMD{simd:<2}: {} | {}",
                v.join(", "),
                o.join(", ")
            );
        }
    }
    for ((plats, _), got) in GROUPS.iter().zip(&per_group) {
        eprintln!("  compiled for {plats:?}: {got}");
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
    if n >= CASES && !filtered {
        for ((plats, _), got) in GROUPS.iter().zip(&per_group) {
            assert!(
                *got >= MIN_COMPILED,
                "only {got} kernels compiled for {plats:?} (at least {MIN_COMPILED} expected)"
            );
        }
    }
}
