//! The vISA leg as a property: random image shaders ([`suites::cases`]) on the LSC
//! platforms (DG2, MTL, PVC, LNL, BMG) and on the platforms of the legacy data port
//! that IGC's finalizer knows (Broadwell, Skylake, Ice Lake, Tiger Lake: Gfx8 to
//! Gfx12.0, the kernels' messages `gather4_typed`, `svm_atomic`, ...), lowered, turned
//! into vISA kernels by the back end (`visa::emit_kernel`) and verified through all three forms on the same memory
//! (`verify::visa::check::lower_and_verify_visa`): the lowered shader against the
//! original, and the kernel, run by the vISA interpreter, against the lowered shader
//! (every access of every invocation, every byte of every image and buffer afterwards).
//!
//! The options are drawn from the typed path, the untyped path with BTI addresses and
//! with A64 addresses (bounds checks on, every coordinate class), and the same three
//! without bounds checks (in-range coordinates only). The kernel runs at the case's
//! subgroup size where the platform dispatches it (PVC and Xe2 have no SIMD8: 16
//! there); a kernel the back end refuses for register pressure (GenX_IR would spill)
//! runs at half the width, as a driver would compile it.
//!
//! The cases are drawn with [`CaseConfig::supported_only`] and without unlowerable
//! formats or atomic operations LSC lacks: the lowering's documented refusals are the
//! lowering properties' business (`lowering_properties` checks each one), and a case
//! refused before its kernel exists tests nothing here. So every case must lower: a
//! lowering error fails the property, naming its reason, whatever the seed. Any other
//! error (the back end refusing a lowered shader, the verifier failing) or any mismatch
//! fails it too; quickcheck shrinks the case and prints it with its kernel's report.
//! Image arrays come with uniform and `non_uniform` lane-varying indices (the
//! lowering's loops, the kernel's first-lane index).
//!
//! Fixed seed. `QC_TESTS` = cases (default [`CI_CASES`] in release builds,
//! [`DEBUG_CASES`] in debug builds), `QC_SEED` = a seed mixed into the suite's. The
//! long run (100,000 cases):
//!
//! ```text
//! QC_TESTS=100000 cargo test --release -p suites --test visa_leg_properties -- --nocapture
//! ```

use lowering::{Device, LowerOptions, UntypedAddress};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;
use suites::cases::image_shader::{Case, CaseConfig, Element};
use verify::verifier::VerifyError;
use verify::visa::check::lower_and_verify_visa;
use verify::visa::run::RunConfig;
use visa::EmitErrorKind;

/// Cases in a normal (release) run.
const CI_CASES: u64 = 3000;

/// Cases in a debug build without `QC_TESTS` (the interpreters run some 25 times
/// slower unoptimised).
const DEBUG_CASES: u64 = 100;

/// The platforms with LSC messages, which the back end emits.
const LSC_PLATFORMS: [&str; 5] = ["dg2", "mtl", "pvc", "lnl", "bmg"];

/// The presets without LSC that have a vISA target (GenX_IR knows no platform before
/// Broadwell): their kernels use the legacy data port.
const LEGACY_PLATFORMS: [&str; 4] = ["bdw", "skl", "icl", "tgl"];

fn qc_tests() -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            DEBUG_CASES
        } else {
            CI_CASES
        })
}

fn qc_seed(suite: u64) -> u64 {
    let user = std::env::var("QC_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0);
    suite ^ user.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

fn untyped(address: UntypedAddress, bounds_check: bool) -> LowerOptions {
    LowerOptions {
        force_untyped: true,
        untyped_address: address,
        bounds_check,
        ..LowerOptions::default()
    }
}

/// The back end, at the width the run asks for; notes in `pressure` a refusal for
/// register pressure.
fn emit(s: &ir::Shader, d: &Device, simd: u32, pressure: &Cell<bool>) -> Result<String, String> {
    visa::emit_kernel(s, d, &visa::Options::with_simd(simd))
        .map(|k| k.text)
        .map_err(|e| {
            if matches!(*e.kind, EmitErrorKind::RegisterPressure { .. }) {
                pressure.set(true);
            }
            e.to_string()
        })
}

/// Whether the platform of `case` dispatches `simd`-lane threads.
fn kernel_simd_allowed(case: &Case, simd: u32) -> bool {
    visa::Target::new(&case.device, None, &visa::Options::with_simd(simd)).is_ok()
}

/// The SIMD width the kernel of `case` runs at: its subgroup size where the platform
/// dispatches it, else 16.
fn kernel_simd(case: &Case) -> u32 {
    if kernel_simd_allowed(case, case.subgroup_size) {
        case.subgroup_size
    } else {
        16
    }
}

/// What the suite generated and verified.
#[derive(Default)]
struct Tally {
    cases: u64,
    verified: u64,
    /// Verified cases with an image array, and those with a `non_uniform` access.
    arrays: u64,
    non_uniform: u64,
    /// Cases run narrower than drawn, for register pressure.
    narrowed: u64,
    platforms: BTreeMap<String, u64>,
    paths: BTreeMap<&'static str, u64>,
    simd: BTreeMap<u32, u64>,
    invocations: u64,
    accesses: u64,
}

fn path_name(o: &LowerOptions) -> &'static str {
    match (o.force_untyped, o.untyped_address, o.bounds_check) {
        (false, _, true) => "typed",
        (false, _, false) => "typed, no bounds checks",
        (true, UntypedAddress::Bti, true) => "untyped bti",
        (true, UntypedAddress::Bti, false) => "untyped bti, no bounds checks",
        (true, _, true) => "untyped a64",
        (true, _, false) => "untyped a64, no bounds checks",
    }
}

fn check(case: &Case, tally: &Mutex<Tally>) -> TestResult {
    let shader = case.build();
    let mut setup = case.setup();
    setup.subgroup_size = kernel_simd(case);
    let pressure = Cell::new(false);
    let backend = |s: &ir::Shader, d: &Device, simd: u32| emit(s, d, simd, &pressure);
    let mut narrowed = false;
    let verified = loop {
        let v = lower_and_verify_visa(
            &shader,
            &case.device,
            &case.options,
            &setup,
            &backend,
            &RunConfig::default(),
        );
        // What does not fit the registers runs narrower, as a driver compiles it.
        if pressure.replace(false) && setup.subgroup_size > 8 {
            setup.subgroup_size /= 2;
            if kernel_simd_allowed(case, setup.subgroup_size) {
                narrowed = true;
                continue;
            }
        }
        break v;
    };
    let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
    t.cases += 1;
    t.narrowed += u64::from(narrowed);
    match verified {
        Ok(v) if v.lowering.passed() && v.kernel.passed() => {
            t.verified += 1;
            let accesses = case.accesses();
            t.arrays += u64::from(accesses.iter().any(|a| a.element != Element::Whole));
            t.non_uniform += u64::from(accesses.iter().any(|a| a.non_uniform));
            *t.platforms.entry(case.device.name.clone()).or_default() += 1;
            *t.paths.entry(path_name(&case.options)).or_default() += 1;
            *t.simd.entry(setup.subgroup_size).or_default() += 1;
            let r = v.report();
            t.invocations += u64::from(r.invocations);
            t.accesses += r.accesses;
            TestResult::passed()
        }
        Ok(v) => TestResult::error(format!(
            "lowering: {}\nkernel: {}\n{case:?}\nkernel text:\n{}",
            v.lowering, v.kernel, v.text
        )),
        Err(VerifyError::Lower(e)) => TestResult::error(format!(
            "the lowering refused a case drawn to be lowerable ({}): {e}\n{case:?}",
            e.kind.code().name()
        )),
        Err(e) => TestResult::error(format!("{e}\n{case:?}")),
    }
}

#[derive(Clone, Debug)]
struct VisaCase(Case);

impl Arbitrary for VisaCase {
    fn arbitrary(g: &mut Gen) -> VisaCase {
        // Bounds checks off need in-range coordinates: one case in four.
        let in_range_only = u8::arbitrary(g) % 4 == 0;
        let options = if in_range_only {
            vec![
                LowerOptions {
                    bounds_check: false,
                    ..LowerOptions::default()
                },
                untyped(UntypedAddress::Bti, false),
                untyped(UntypedAddress::A64, false),
            ]
        } else {
            vec![
                LowerOptions::default(),
                untyped(UntypedAddress::Bti, true),
                untyped(UntypedAddress::A64, true),
            ]
        };
        let cfg = CaseConfig {
            options,
            in_range_only,
            supported_only: true,
            unlowerable_share: 0,
            unmapped_atomic_share: 0,
            platforms: LSC_PLATFORMS
                .iter()
                .chain(&LEGACY_PLATFORMS)
                .copied()
                .collect(),
            ..CaseConfig::default()
        };
        VisaCase(Case::arbitrary_with(g, &cfg))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = VisaCase>> {
        Box::new(self.0.shrink_cases().into_iter().map(VisaCase))
    }
}

static TALLY: Mutex<Tally> = Mutex::new(Tally {
    cases: 0,
    verified: 0,
    arrays: 0,
    non_uniform: 0,
    narrowed: 0,
    platforms: BTreeMap::new(),
    paths: BTreeMap::new(),
    simd: BTreeMap::new(),
    invocations: 0,
    accesses: 0,
});

#[test]
fn kernels_do_what_the_lowered_shaders_do() {
    fn prop(c: VisaCase) -> TestResult {
        check(&c.0, &TALLY)
    }
    let n = qc_tests();
    let start = Instant::now();
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(16, qc_seed(0x7e57_0715)))
        .tests(n)
        .max_tests(n)
        .quickcheck(prop as fn(VisaCase) -> TestResult);
    let t = TALLY.lock().unwrap_or_else(|p| p.into_inner());
    println!(
        "vISA leg: {} cases in {:.1} s: {} verified ({} invocations, {} accesses compared; \
         {} with image arrays, {} with non_uniform accesses), {} run narrower for register \
         pressure\n  platforms {:?}\n  paths {:?}\n  SIMD {:?}",
        t.cases,
        start.elapsed().as_secs_f64(),
        t.verified,
        t.invocations,
        t.accesses,
        t.arrays,
        t.non_uniform,
        t.narrowed,
        t.platforms,
        t.paths,
        t.simd
    );
    assert_eq!(t.cases, n, "every case is counted once");
    assert_eq!(t.verified, n, "every case verifies");
    if n >= CI_CASES {
        assert!(
            t.non_uniform > 0 && t.arrays > t.non_uniform / 2,
            "{} arrays, {} non_uniform",
            t.arrays,
            t.non_uniform
        );
        // Every platform, path and SIMD width was verified.
        for p in LSC_PLATFORMS.iter().chain(&LEGACY_PLATFORMS) {
            assert!(t.platforms.contains_key(*p), "no verified case on {p}");
        }
        assert_eq!(t.paths.len(), 6, "{:?}", t.paths);
        for w in [8, 16, 32] {
            assert!(t.simd.contains_key(&w), "no verified SIMD{w} kernel");
        }
    }
}
