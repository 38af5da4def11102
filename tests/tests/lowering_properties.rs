//! Lowering properties: random image shaders ([`suites::cases`]) lowered for every
//! platform preset do what the original does, as the verifier checks it (every access's
//! address against the reference layout, every returned value, every texel of every
//! image and every byte of the output buffer afterwards).
//!
//! Suites (one test each, so they run in parallel):
//!
//! | suite | options | coordinates |
//! |---|---|---|
//! | `typed_path` | default (typed messages where a typed format matches, bounds checks on) | in range, edges, just and far out, negative |
//! | `untyped_path` | `force_untyped`, BTI addresses (2/3) or A64 (1/3), bounds checks on | as above |
//! | `without_bounds_checks` | bounds checks off: default, `force_untyped` BTI, `force_untyped` A64 | in range only |
//!
//! A lowering error is allowed only where the lowering documents the combination as
//! unsupported (R64 before Gfx9, format-less loads before Gfx12.5 or on the untyped path,
//! float atomics the platform lacks, 64-bit atomics without A64 atomics, `inc_wrap` and
//! `dec_wrap`, which have no LSC operation, 8- and 16-bit texels on the untyped path of
//! Ivy Bridge and Bay Trail, which have no byte scattered messages): every error must be one of the kinds
//! [`expected_errors`] predicts for an access of that image and opcode, and where it
//! predicts a certain error the lowering must fail. Any other error, a verifier error, a
//! mismatch or a panic fails the property; quickcheck then shrinks the case (fewer
//! invocations, statements removed, `if`s and loops flattened) and prints it with its
//! shader.
//!
//! The lowered shader's messages must be the platform's: LSC messages from Gfx12.5, the
//! legacy data-port messages before (`docs/hardware/dataport.md`), never the other
//! family; the verifier runs the data-port messages with their own semantics.
//!
//! After its cases, each suite prints a coverage table and fails if a platform, a
//! tiling, a dimension, a format class, a (platform, tiling), (platform, dimension),
//! (platform, format class), (platform, texel size: 8 to 128 bits), (dimension, tiling),
//! (format class, load/store) or (platform, message family) combination that can occur
//! never appeared in a verified case, or an atomic op, a coordinate class or a lowering
//! path the suite is meant to reach was never verified.
//!
//! Fixed seeds. Environment: `QC_TESTS` = cases per suite (default [`CI_CASES`] in
//! release builds, [`DEBUG_CASES`] in debug builds, where the coverage is not checked),
//! `QC_SEED` = a seed mixed into every suite's.
//!
//! CI: `cargo test --release -p verify --test lowering_properties` (3 × 5,000 = 15,000
//! cases). The long run (3 × 333,334 = 1,000,002 cases):
//!
//! ```text
//! QC_TESTS=333334 cargo test --release -p verify --test lowering_properties -- --nocapture
//! ```

use lowering::{Device, LowerErrorCode, LowerOptions, LowerReport, UntypedAddress};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::Instant;
use suites::cases::coords::CoordClass;
use suites::cases::device::{can_lower, tiling_gen, FormatClass};
use suites::cases::image_shader::{AccessSpec, Case, CaseConfig, ImageCase, Op};
use suites::cases::surface::DimKind;
use tiling::Tiling;
use verify::verifier::{lower, verify, VerifyError};

/// Cases per suite in a normal (release) run.
const CI_CASES: u64 = 5000;

/// Cases per suite in a debug build without `QC_TESTS`: the executor runs some 25 times
/// slower unoptimised, so `cargo test --workspace` runs a smoke test and the coverage
/// claims are checked by the release run.
const DEBUG_CASES: u64 = 300;

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

// ----- the lowering's documented errors ---------------------------------------------

/// The error kinds the lowering documents for `access` of `img` on `device` with
/// `options`, and whether one of them is certain.
fn expected_errors(
    device: &Device,
    options: &LowerOptions,
    img: &ImageCase,
    access: &AccessSpec,
) -> (Vec<LowerErrorCode>, bool) {
    use ir::{AtomicOp as A, Format};
    use LowerErrorCode as K;
    let format = img.decl_format;
    let r64 = matches!(img.data_format(), Format::R64Uint | Format::R64Sint);
    let mut kinds = Vec::new();
    let mut certain = false;
    if matches!(access.op, Op::Size | Op::Samples) {
        return (kinds, false);
    }
    // R64 is a storage format from Gfx9 (docs/hardware/mesa-storage-images.md §3): typed accesses fail
    // before; the untyped path may still address the raw 64-bit texels.
    if r64 && !can_lower(device, img.data_format()) {
        kinds.push(K::UnsupportedFormat);
        certain |= !options.force_untyped;
    }
    // Flat A64 addresses exist from Gfx8: an untyped access asked to use them fails
    // before (every access when forced untyped).
    if options.untyped_address == UntypedAddress::A64 && !device.has_a64 {
        kinds.push(K::A64Unsupported);
        certain |= options.force_untyped;
    }
    // Format-less images: the untyped path needs the format to address texels (typed
    // reads of the view's format serve loads on every generation).
    if format == Format::None && options.force_untyped {
        kinds.push(K::FormatRequired);
        certain = true;
    }
    // Without byte scattered messages (Ivy Bridge, Bay Trail), the untyped path cannot
    // move 8- and 16-bit texels (docs/hardware/dataport.md §1); typed formats cover
    // them there unless the untyped path is forced.
    let narrow = format != Format::None && format.bits_per_texel() <= 16;
    let no_byte_scattered = device.dataport.is_some_and(|c| !c.byte_scattered);
    if narrow && no_byte_scattered && matches!(access.op, Op::Load { .. } | Op::Store { .. }) {
        kinds.push(K::NoDataportMessage);
        certain |= options.force_untyped;
    }
    if let Op::Atomic { op, .. } = access.op {
        // A float atomic the device lacks is a compare-and-swap loop on a 32-bit texel
        // (lowering's `atomic_loop.rs`), an error on any other; where the loop's
        // accesses cannot be lowered either, the errors are the atomic's own.
        let looped = matches!(format, Format::R32Float | Format::None);
        match op {
            A::IncWrap | A::DecWrap => {
                kinds.push(K::AtomicOpUnmapped);
                certain = true;
            }
            A::Fadd if !device.image_float_atomic_add => {
                kinds.push(K::FloatAtomicUnsupported);
                certain |= !looped;
            }
            A::Fmin | A::Fmax if !device.image_float_atomic_min_max => {
                kinds.push(K::FloatAtomicUnsupported);
                certain |= !looped;
            }
            A::Fcmpxchg if !device.image_float_atomic_cmpxchg => {
                kinds.push(K::FloatAtomicUnsupported);
                certain |= !looped;
            }
            _ => {}
        }
        if r64 && !device.image_int64_atomics {
            kinds.push(K::Int64AtomicUnsupported);
            certain = true;
        }
    }
    (kinds, certain)
}

fn intrinsic_name(op: &Op) -> &'static str {
    match op {
        Op::Load { .. } => "image_load",
        Op::Store { .. } => "image_store",
        Op::Atomic { op, .. } if op.is_swap() => "image_atomic_swap",
        Op::Atomic { .. } => "image_atomic",
        Op::Size => "image_size",
        Op::Samples => "image_samples",
    }
}

// ----- coverage ---------------------------------------------------------------------

/// A combination of two classes: its table (`platform-tiling`, ...) and the two names.
type Combination = (&'static str, String, String);

/// What a suite generated and verified.
#[derive(Default)]
struct Tally {
    cases: u64,
    verified: u64,
    /// Cases rejected with documented errors, by kind.
    errors: BTreeMap<String, u64>,
    /// Verified cases per platform.
    platforms: BTreeMap<String, u64>,
    /// Accessed images of verified cases, per tiling, dimension, format class.
    tilings: BTreeMap<String, u64>,
    dims: BTreeMap<String, u64>,
    classes: BTreeMap<String, u64>,
    /// Combinations seen in verified cases.
    pairs: BTreeMap<Combination, u64>,
    /// Verified accesses per op name.
    ops: BTreeMap<String, u64>,
    /// Verified coordinate terms per class.
    coords: BTreeMap<String, u64>,
    /// Lowered accesses of verified cases, by path.
    paths: BTreeMap<&'static str, u64>,
    /// Other features of verified cases.
    features: BTreeMap<&'static str, u64>,
    /// Invocations, accesses compared, values compared, texels compared.
    invocations: u64,
    accesses: u64,
    values: u64,
    texels: u64,
}

fn bump<K: Ord>(m: &mut BTreeMap<K, u64>, k: K) {
    *m.entry(k).or_default() += 1;
}

impl Tally {
    fn record_verified(
        &mut self,
        case: &Case,
        lr: &LowerReport,
        report: &verify::verifier::Report,
    ) {
        self.verified += 1;
        self.invocations += report.invocations as u64;
        self.accesses += report.accesses;
        self.values += report.values;
        self.texels += report.texels;
        let platform = case.device.name.clone();
        bump(&mut self.platforms, platform.clone());
        let accesses = case.accesses();
        for (i, img) in case.images.iter().enumerate() {
            if !accesses.iter().any(|a| a.image == i) {
                continue;
            }
            let tiling = img.setup.tiling().name().to_string();
            let dim = img.dim.name().to_string();
            let class = FormatClass::of(img.data_format())
                .expect("images have a data format")
                .name()
                .to_string();
            bump(&mut self.tilings, tiling.clone());
            bump(&mut self.dims, dim.clone());
            bump(&mut self.classes, class.clone());
            let bits = format!("{}-bit", img.data_format().bits_per_texel());
            for c in [
                ("platform-tiling", platform.clone(), tiling.clone()),
                ("platform-dim", platform.clone(), dim.clone()),
                ("platform-class", platform.clone(), class.clone()),
                ("platform-texel", platform.clone(), bits),
                ("dim-tiling", dim.clone(), tiling.clone()),
            ] {
                bump(&mut self.pairs, c);
            }
            if img.setup.bit6_swizzle().is_enabled() {
                bump(&mut self.features, "bit-6 swizzle");
            }
            if img.static_layout.is_some() {
                bump(&mut self.features, "static layout");
            }
            if img.decl_format == ir::Format::None {
                bump(&mut self.features, "format-less");
            }
            if let suites::cases::surface::ImageMemory::Surface { desc, view, .. } =
                &img.setup.memory
            {
                if view.base_level > 0 {
                    bump(&mut self.features, "view base level > 0");
                }
                if view.base_layer > 0 {
                    bump(&mut self.features, "view base layer > 0");
                }
                if desc.levels > 1 {
                    bump(&mut self.features, "mipmapped");
                }
            }
        }
        for a in &accesses {
            bump(&mut self.ops, a.op.name());
            let op = match a.op {
                Op::Load { .. } => "load",
                Op::Store { .. } => "store",
                _ => "other",
            };
            let class = FormatClass::of(case.images[a.image].data_format())
                .expect("images have a data format")
                .name()
                .to_string();
            bump(&mut self.pairs, ("class-op", class, op.to_string()));
            for t in &a.coord {
                bump(&mut self.coords, format!("{:?}", t.class));
            }
        }
        for (name, n) in [
            ("typed load", lr.typed_loads),
            ("typed store", lr.typed_stores),
            ("typed atomic", lr.typed_atomics),
            ("untyped load", lr.untyped_loads),
            ("untyped store", lr.untyped_stores),
            ("untyped atomic", lr.untyped_atomics),
            ("a64 access", lr.a64_accesses),
            ("guarded atomic", lr.guarded_atomics),
            ("size", lr.sizes),
            ("samples", lr.samples),
        ] {
            *self.paths.entry(name).or_default() += n as u64;
        }
        if case
            .body
            .iter()
            .any(|s| matches!(s, suites::cases::image_shader::Stmt::If { .. }))
        {
            bump(&mut self.features, "if");
        }
        if case
            .body
            .iter()
            .any(|s| matches!(s, suites::cases::image_shader::Stmt::Loop { .. }))
        {
            bump(&mut self.features, "loop");
        }
    }

    fn table(&self, name: &str, seconds: f64) -> String {
        let mut out = format!(
            "suite {name}: {} cases in {seconds:.1} s: {} verified ({} invocations, {} \
             accesses, {} values, {} texels compared), {} with documented lowering errors\n",
            self.cases,
            self.verified,
            self.invocations,
            self.accesses,
            self.values,
            self.texels,
            self.cases - self.verified
        );
        let line = |title: &str, m: &BTreeMap<String, u64>| {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!("  {title}: {}\n", items.join(", "))
        };
        out += &line("errors", &self.errors);
        out += &line("platforms", &self.platforms);
        out += &line("tilings", &self.tilings);
        out += &line("dims", &self.dims);
        out += &line("format classes", &self.classes);
        out += &line("ops", &self.ops);
        out += &line("coordinates", &self.coords);
        let paths: BTreeMap<String, u64> = self
            .paths
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        out += &line("lowered", &paths);
        let features: BTreeMap<String, u64> = self
            .features
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        out += &line("features", &features);
        let mut pair_counts: BTreeMap<String, u64> = BTreeMap::new();
        for (k, _, _) in self.pairs.keys() {
            bump(&mut pair_counts, k.to_string());
        }
        out += &line("distinct combinations", &pair_counts);
        let mut rare: Vec<(&Combination, &u64)> = self.pairs.iter().collect();
        rare.sort_by_key(|(_, n)| **n);
        let rare: BTreeMap<String, u64> = rare
            .iter()
            .take(6)
            .map(|((k, a, b), n)| (format!("{k} ({a}, {b})"), **n))
            .collect();
        out += &line("rarest combinations seen", &rare);
        out
    }
}

/// The combinations that can occur: every preset, the tilings each may use for a
/// storage image of a format it can lower, every dimension and format class.
fn expected_coverage() -> (BTreeSet<String>, BTreeSet<String>, BTreeSet<Combination>) {
    let mut platforms = BTreeSet::new();
    let mut tilings = BTreeSet::new();
    let mut pairs = BTreeSet::new();
    for d in Device::presets() {
        platforms.insert(d.name.clone());
        // Verified cases whose messages are the platform's family.
        let family = if d.has_lsc { "lsc" } else { "legacy data port" };
        pairs.insert(("platform-messages", d.name.clone(), family.into()));
        for dim in DimKind::ALL {
            pairs.insert(("platform-dim", d.name.clone(), dim.name().to_string()));
        }
        for &f in ir::Format::ALL {
            if !can_lower(&d, f) {
                continue;
            }
            let class = FormatClass::of(f).expect("a storage format").name();
            pairs.insert(("platform-class", d.name.clone(), class.to_string()));
            pairs.insert((
                "platform-texel",
                d.name.clone(),
                format!("{}-bit", f.bits_per_texel()),
            ));
            for op in ["load", "store"] {
                pairs.insert(("class-op", class.to_string(), op.to_string()));
            }
            for dim in DimKind::ALL {
                let ts: Vec<Tiling> = match dim.surf_dim() {
                    Some(sd) => tiling::storage_tilings(
                        tiling_gen(&d),
                        lowering::format::isl_format(f).expect("a storage format"),
                        sd,
                    ),
                    None => vec![Tiling::Linear],
                };
                for t in ts {
                    tilings.insert(t.name().to_string());
                    pairs.insert(("platform-tiling", d.name.clone(), t.name().to_string()));
                    pairs.insert(("dim-tiling", dim.name().to_string(), t.name().to_string()));
                }
            }
        }
    }
    (platforms, tilings, pairs)
}

/// What a suite must have verified beyond the platform/tiling/dimension/class tables.
struct Expect {
    /// Coordinate classes (all five, or only the in-range ones).
    coords: &'static [CoordClass],
    /// Paths of the lowering's report that must have been taken.
    paths: &'static [&'static str],
}

fn check_coverage(name: &str, tally: &Tally, expect: &Expect) {
    let (platforms, tilings, pairs) = expected_coverage();
    let mut missing = Vec::new();
    for p in &platforms {
        if !tally.platforms.contains_key(p) {
            missing.push(format!("platform {p}"));
        }
    }
    for t in &tilings {
        if !tally.tilings.contains_key(t) {
            missing.push(format!("tiling {t}"));
        }
    }
    for d in DimKind::ALL {
        if !tally.dims.contains_key(d.name()) {
            missing.push(format!("dim {d}"));
        }
    }
    for c in FormatClass::ALL {
        if !tally.classes.contains_key(c.name()) {
            missing.push(format!("format class {c}"));
        }
    }
    for p in &pairs {
        if !tally.pairs.contains_key(p) {
            missing.push(format!("{} ({}, {})", p.0, p.1, p.2));
        }
    }
    use ir::AtomicOp as A;
    for op in [
        A::Iadd,
        A::Imin,
        A::Imax,
        A::Umin,
        A::Umax,
        A::Iand,
        A::Ior,
        A::Ixor,
        A::Xchg,
        A::Cmpxchg,
        A::Fadd,
        A::Fmin,
        A::Fmax,
        A::Fcmpxchg,
    ] {
        if !tally.ops.contains_key(&format!("atomic {op}")) {
            missing.push(format!("verified atomic {op}"));
        }
    }
    for op in ["load", "store", "size", "samples"] {
        if !tally.ops.contains_key(op) {
            missing.push(format!("verified {op}"));
        }
    }
    if !tally
        .errors
        .contains_key(LowerErrorCode::AtomicOpUnmapped.name())
    {
        missing.push("the inc_wrap/dec_wrap error".into());
    }
    for c in expect.coords {
        if !tally.coords.contains_key(&format!("{c:?}")) {
            missing.push(format!("coordinate class {c:?}"));
        }
    }
    for p in expect.paths {
        if tally.paths.get(p).copied().unwrap_or(0) == 0 {
            missing.push(format!("lowering path {p}"));
        }
    }
    for f in [
        "bit-6 swizzle",
        "static layout",
        "format-less",
        "view base level > 0",
        "view base layer > 0",
        "if",
        "loop",
    ] {
        if !tally.features.contains_key(f) {
            missing.push(format!("feature {f}"));
        }
    }
    assert!(
        missing.is_empty(),
        "suite {name} never verified: {}",
        missing.join("; ")
    );
    // Documented errors must stay the exception.
    assert!(
        tally.verified * 10 >= tally.cases * 7,
        "suite {name}: only {} of {} cases verified",
        tally.verified,
        tally.cases
    );
}

// ----- the property -----------------------------------------------------------------

/// The LSC messages (2D blocks included) and the legacy data-port messages of `shader`.
fn message_families(shader: &ir::Shader) -> (usize, usize) {
    let (mut lsc, mut dataport) = (0, 0);
    for f in &shader.functions {
        for inst in f.insts_in_order() {
            if let Some(i) = f.inst(inst).as_intrinsic() {
                lsc += usize::from(i.op.is_lsc() || i.op.is_block2d());
                dataport += usize::from(i.op.is_dataport());
            }
        }
    }
    (lsc, dataport)
}

fn check(case: &Case, tally: &Mutex<Tally>) -> TestResult {
    let shader = case.build();
    let lowered = match lower(&shader, &case.device, &case.options) {
        Ok(l) => l,
        Err(VerifyError::Lower(first)) => {
            // Every error (not only the first) must be documented for an access of its
            // image and opcode.
            let mut probe = shader.clone();
            let errors = lowering::lower_images_all(&mut probe, &case.device, &case.options)
                .err()
                .unwrap_or_else(|| vec![first.clone()]);
            for e in &errors {
                let documented = case.accesses().iter().any(|a| {
                    let img = &case.images[a.image];
                    Some(img.name.as_str()) == e.image.as_deref()
                        && Some(intrinsic_name(&a.op)) == e.intrinsic
                        && expected_errors(&case.device, &case.options, img, a)
                            .0
                            .contains(&e.kind.code())
                });
                if !documented {
                    return TestResult::error(format!(
                        "undocumented lowering error ({}): {e}\n{case:?}",
                        e.kind.name()
                    ));
                }
            }
            let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
            t.cases += 1;
            bump(&mut t.errors, first.kind.name().to_string());
            return TestResult::passed();
        }
        Err(e) => return TestResult::error(format!("lowering: {e}\n{case:?}")),
    };
    // The optimization loop runs before the lowering: an access it deletes (a load
    // whose value is unused, code under a condition that folds to false) is never
    // lowered, so it cannot fail.
    let mut optimized = shader.clone();
    if let Err(e) = ir::passes::Pass::run(
        &mut ir::passes::Cleanup::optimize(ir::passes::cleanup::DEFAULT_OPTIMIZE_ITERATIONS),
        &mut optimized,
    ) {
        return TestResult::error(format!("optimize: {e}\n{case:?}"));
    }
    let survives = |image: &str, a: &AccessSpec| {
        let atomic = match &a.op {
            Op::Atomic { op, .. } => Some(*op),
            _ => None,
        };
        optimized.functions.iter().any(|f| {
            f.insts_in_order().into_iter().any(|i| {
                f.inst(i).as_intrinsic().is_some_and(|x| {
                    x.op.name() == intrinsic_name(&a.op)
                        && atomic.is_none_or(|op| {
                            x.index(ir::IndexKind::AtomicOp) == Some(op.to_index())
                        })
                        && x.image.is_some_and(|r| {
                            optimized
                                .images
                                .get(r.image.index())
                                .map(|d| d.name.as_str())
                                == Some(image)
                        })
                })
            })
        })
    };
    for a in case.accesses() {
        let img = &case.images[a.image];
        let (kinds, certain) = expected_errors(&case.device, &case.options, img, a);
        if certain && survives(&img.name, a) {
            return TestResult::error(format!(
                "the lowering accepted {} of @{} ({}), documented as unsupported ({:?})\n{case:?}",
                a.op.name(),
                img.name,
                img.decl_format,
                kinds
            ));
        }
    }
    // The messages are the platform's: LSC from Gfx12.5, the legacy data port's before.
    let (lsc, dataport) = message_families(&lowered.lowered);
    let family = match (case.device.has_lsc, lsc, dataport) {
        (true, _, 0) => "lsc",
        (false, 0, _) => "legacy data port",
        _ => {
            return TestResult::error(format!(
                "{} LSC and {dataport} data-port messages on {}\n{case:?}\nlowered:\n{}",
                lsc, case.device.name, lowered.lowered
            ))
        }
    };
    let mut setup = case.setup();
    setup.bindings = lowered.report.bindings.clone();
    match verify(&lowered.original, &lowered.lowered, &case.device, &setup) {
        Ok(report) if report.passed() => {
            let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
            t.cases += 1;
            t.record_verified(case, &lowered.report, &report);
            if lsc + dataport > 0 {
                let key = ("platform-messages", case.device.name.clone(), family.into());
                bump(&mut t.pairs, key);
            }
            *t.paths.entry("data-port message").or_default() += dataport as u64;
            TestResult::passed()
        }
        Ok(report) => {
            TestResult::error(format!("{report}\n{case:?}\nlowered:\n{}", lowered.lowered))
        }
        Err(e) => TestResult::error(format!("verifier: {e}\n{case:?}")),
    }
}

macro_rules! suite {
    ($test:ident, $case:ident, $tally:ident, $seed:expr, $config:expr, $expect:expr) => {
        #[derive(Clone, Debug)]
        struct $case(Case);

        impl Arbitrary for $case {
            fn arbitrary(g: &mut Gen) -> $case {
                $case(Case::arbitrary_with(g, &$config))
            }

            fn shrink(&self) -> Box<dyn Iterator<Item = $case>> {
                Box::new(self.0.shrink_cases().into_iter().map($case))
            }
        }

        static $tally: Mutex<Tally> = Mutex::new(Tally {
            cases: 0,
            verified: 0,
            errors: BTreeMap::new(),
            platforms: BTreeMap::new(),
            tilings: BTreeMap::new(),
            dims: BTreeMap::new(),
            classes: BTreeMap::new(),
            pairs: BTreeMap::new(),
            ops: BTreeMap::new(),
            coords: BTreeMap::new(),
            paths: BTreeMap::new(),
            features: BTreeMap::new(),
            invocations: 0,
            accesses: 0,
            values: 0,
            texels: 0,
        });

        #[test]
        fn $test() {
            fn prop(c: $case) -> TestResult {
                check(&c.0, &$tally)
            }
            let n = qc_tests();
            let start = Instant::now();
            QuickCheck::new()
                .rng(Gen::from_size_and_seed(16, qc_seed($seed)))
                .tests(n)
                .max_tests(n)
                .quickcheck(prop as fn($case) -> TestResult);
            let t = $tally.lock().unwrap_or_else(|p| p.into_inner());
            let secs = start.elapsed().as_secs_f64();
            println!("{}", t.table(stringify!($test), secs));
            assert_eq!(t.cases, n, "every case is counted once");
            // The coverage claims hold from the CI case count on (the seeds are fixed,
            // and at CI_CASES the rarest combination, (3d, ys), appears over ten times).
            if n >= CI_CASES {
                check_coverage(stringify!($test), &t, &$expect);
            } else {
                println!(
                    "{} cases < {CI_CASES}: coverage not checked (run in release)",
                    n
                );
            }
        }
    };
}

const ALL_COORDS: &[CoordClass] = &[
    CoordClass::InRange,
    CoordClass::Edge,
    CoordClass::JustOut,
    CoordClass::FarOut,
    CoordClass::Negative,
];

const IN_RANGE_COORDS: &[CoordClass] = &[CoordClass::InRange, CoordClass::Edge];

fn untyped(address: UntypedAddress, bounds_check: bool) -> LowerOptions {
    LowerOptions {
        force_untyped: true,
        untyped_address: address,
        bounds_check,
        ..LowerOptions::default()
    }
}

suite!(
    typed_path,
    TypedCase,
    TYPED,
    0x7e57_0001,
    CaseConfig::default(),
    Expect {
        coords: ALL_COORDS,
        // Untyped: 64/128-bit formats before Gfx9 (raw) and 64-bit atomics (A64).
        paths: &[
            "data-port message",
            "typed load",
            "typed store",
            "typed atomic",
            "guarded atomic",
            "untyped load",
            "untyped store",
            "untyped atomic",
            "a64 access",
        ],
    }
);

suite!(
    untyped_path,
    UntypedCase,
    UNTYPED,
    0x7e57_0002,
    CaseConfig {
        options: vec![
            untyped(UntypedAddress::Bti, true),
            untyped(UntypedAddress::Bti, true),
            untyped(UntypedAddress::A64, true),
        ],
        ..CaseConfig::default()
    },
    Expect {
        coords: ALL_COORDS,
        paths: &[
            "data-port message",
            "untyped load",
            "untyped store",
            "untyped atomic",
            "a64 access"
        ],
    }
);

suite!(
    without_bounds_checks,
    NoBoundsCase,
    NO_BOUNDS,
    0x7e57_0003,
    CaseConfig {
        options: vec![
            LowerOptions {
                bounds_check: false,
                ..LowerOptions::default()
            },
            untyped(UntypedAddress::Bti, false),
            untyped(UntypedAddress::A64, false),
        ],
        in_range_only: true,
        ..CaseConfig::default()
    },
    Expect {
        coords: IN_RANGE_COORDS,
        paths: &[
            "data-port message",
            "typed load",
            "typed store",
            "typed atomic",
            "untyped load",
            "untyped store",
            "untyped atomic",
            "a64 access",
        ],
    }
);

// ----- regressions: failures the suites found, as fixed cases ------------------------

/// Lowers and verifies `text` on every platform with every option set of the suites, on
/// the verifier's default setups of a few seeds; every run must verify, or fail with the
/// documented error of the untyped path's narrow texels on Ivy Bridge and Bay Trail.
fn verify_everywhere(text: &str) {
    let shader = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
    let option_sets = [
        LowerOptions::default(),
        untyped(UntypedAddress::Bti, true),
        untyped(UntypedAddress::A64, true),
    ];
    for device in Device::presets() {
        for options in &option_sets {
            if options.untyped_address == UntypedAddress::A64 && !device.has_a64 {
                continue;
            }
            for seed in 0..3 {
                let setup = verify::setup::Setup::default_for(&shader, &device, seed)
                    .unwrap_or_else(|e| panic!("setup on {}: {e}", device.name));
                match verify::verifier::lower_and_verify(&shader, &device, options, &setup) {
                    Ok(r) => assert!(r.passed(), "{} {options:?} seed {seed}:\n{r}", device.name),
                    // The documented error: no byte scattered messages for the untyped
                    // path's 8- and 16-bit texels before Haswell.
                    Err(VerifyError::Lower(e))
                        if options.force_untyped
                            && device.dataport.is_some_and(|c| !c.byte_scattered)
                            && e.kind.code() == LowerErrorCode::NoDataportMessage =>
                    {
                        break
                    }
                    Err(VerifyError::Lower(e)) => panic!("{} {options:?}: {e}", device.name),
                    Err(e) => panic!("{} {options:?} seed {seed}: {e}", device.name),
                }
            }
        }
    }
}

/// An out-of-bounds load of a format without alpha returns Vulkan's texel replacement:
/// (0, 0, 0, 1.0) for `rg16_float`, as the lowering computes it (a zero texel
/// converted), where the reference returned 0 in every component (found on bmg, typed
/// path: `@image_load (@img1, (lin - 6, gid.y + 128))` of a 2x64 `rg16_float` image).
#[test]
fn regression_out_of_bounds_load_of_a_format_without_alpha() {
    verify_everywhere(
        "shader compute (local_size=1,1,1)
image @img : 2d rg16_float readonly (binding=0)
image @int : 2d rg8_uint readonly (binding=1)
fn main {
  block b0:
    32x2 %0 = load_const (0xfffffffa, 0x00000080)
    32x4 %1 = @image_load (@img, %0) (dest_type=float32)
    32x4 %2 = @image_load (@int, %0) (dest_type=uint32)
    32   %3 = load_const (0x00000000)
    32   %4 = load_const (0x00000010)
    @store_ssbo (%1, %3, %3) (access=none, align_mul=4)
    @store_ssbo (%2, %3, %4) (access=none, align_mul=4)
}",
    );
}

/// `force_untyped` stores to `r8_uint` and `r16_uint` saturate values that do not fit,
/// as a typed write (and the reference) does, where the untyped path stored the low
/// bits (found on skl, untyped BTI path without bounds checks: 0x80000000 stored to a Yf
/// `r8_uint` 2D array wrote 0x00 instead of 0xff).
#[test]
fn regression_untyped_narrow_uint_stores_saturate() {
    verify_everywhere(
        "shader compute (local_size=1,1,1)
image @a : 2d r8_uint (binding=0)
image @b : 2d r16_uint (binding=1)
fn main {
  block b0:
    32x2 %0 = load_const (0x00000001, 0x00000000)
    32x4 %1 = load_const (0x80000000, 0xce095376, 0x00000080, 0x00000001)
    @image_store (@a, %0, %1) (src_type=uint32)
    @image_store (@b, %0, %1) (src_type=uint32)
    32x2 %2 = load_const (0x00000000, 0x00000000)
    32x4 %3 = load_const (0x00000100, 0x00000000, 0x00000000, 0x00000000)
    @image_store (@a, %2, %3) (src_type=uint32)
    32x4 %4 = load_const (0x00010000, 0x00000000, 0x00000000, 0x00000000)
    @image_store (@b, %2, %4) (src_type=uint32)
}",
    );
}

/// The untyped path memoises its address plans; the memo must tell apart devices that
/// differ only in their storage-tiling policy (a per-thread memo once did not). A bmg that lets isl choose
/// any storage tiling addressed a Tile4 1D image as linear after the same thread had
/// lowered for the preset bmg (linear 1D): byte 0x68 instead of 0x288 for x = 26 of a
/// 70-texel `rg16_float` image.
#[test]
fn regression_address_plans_follow_the_device_policy() {
    let text = "shader compute (local_size=1,1,1)
image @img : 1d rg16_float (binding=0)
fn main {
  block b0:
    32   %0 = load_const (0x0000001a)
    32x4 %1 = load_const (0x3f800000, 0x40000000, 0x00000000, 0x00000000)
    @image_store (@img, %0, %1) (src_type=float32)
}";
    let shader = ir::parse_shader(text).unwrap_or_else(|d| panic!("parse: {d:?}"));
    let preset = Device::preset("bmg").expect("bmg");
    let mut wide = preset.clone();
    wide.storage_tilings = Tiling::ALL.to_vec();
    wide.linear_1d_storage = false;
    let options = untyped(UntypedAddress::Bti, true);
    for device in [&preset, &wide, &preset] {
        let mut setup = verify::setup::Setup::default_for(&shader, device, 1).expect("setup");
        if !device.linear_1d_storage {
            if let verify::setup::ImageLayout::Surface { desc, view, .. } =
                &mut setup.images[0].layout
            {
                desc.width = 70;
                desc.levels = 1;
                desc.tiling = Tiling::Tile4;
                view.base_level = 0;
            }
        }
        let r = verify::verifier::lower_and_verify(&shader, device, &options, &setup)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.passed(), "{:?}:\n{r}", device.storage_tilings);
    }
}
