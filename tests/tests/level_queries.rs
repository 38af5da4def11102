//! Level queries (`image_size` at a LOD, `image_levels`) lowered on every platform do
//! what the reference does, and the verifier catches a lowering that gets them wrong.
//!
//! Property: each case is one shader with one image, sampled or storage, of a random
//! shape, whose size at a LOD (absent, a constant 0, 1, 2 or -1, or per invocation
//! 0..3) and level count an invocation stores to an SSBO. The verifier runs it before
//! and after lowering on a random tiling and view (seeds also view from level 1) and
//! compares the values the queries define and every SSBO byte. The report must count
//! what the documented rule says: a sampled image's queries take the sampler's
//! `resinfo` where there is a sampler (texel buffers excepted); without one (PVC) its
//! size at a LOD other than the constant 0, and its level count, are refused with
//! `SampledLevelsUnavailable`; a storage image's size reads the parameter block and its
//! level count is 1.
//!
//! `QC_TESTS` scales the number of cases.

use ir::function::InstKind;
use ir::{AluOp, ImageDim, IntrinsicOp, Src};
use lowering::{Device, LowerErrorKind, LowerOptions};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::fmt;
use verify::setup::Setup;
use verify::verifier::{self, MismatchKind};

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

const PLATFORMS: [&str; 12] = [
    "ivb", "byt", "hsw", "bdw", "skl", "icl", "tgl", "dg2", "mtl", "pvc", "lnl", "bmg",
];

/// Image shapes: dimension and arrayedness.
const SHAPES: [(ImageDim, bool); 8] = [
    (ImageDim::D1, false),
    (ImageDim::D1, true),
    (ImageDim::D2, false),
    (ImageDim::D2, true),
    (ImageDim::Cube, false),
    (ImageDim::Cube, true),
    (ImageDim::D3, false),
    (ImageDim::Buffer, false),
];

/// The LOD operand of the size query.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lod {
    /// No LOD source.
    Absent,
    /// A `load_const`.
    Const(u32),
    /// `gid.x & 3`: 0 to 3 in turn, one past the default setup's three levels.
    PerInvocation,
}

#[derive(Clone, Debug)]
struct Case {
    platform: &'static str,
    shape: (ImageDim, bool),
    sampled: bool,
    lod: Lod,
    /// Whether the shader asks for the level count too.
    levels: bool,
    seed: u64,
}

fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    *g.choose(items).expect("non-empty")
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let shape = pick(g, &SHAPES);
        let buffer = shape.0 == ImageDim::Buffer;
        // A buffer has no levels: no LOD and no level count (the validator's rule).
        let lod = if buffer {
            Lod::Absent
        } else {
            pick(
                g,
                &[
                    Lod::Absent,
                    Lod::Const(0),
                    Lod::Const(1),
                    Lod::Const(2),
                    Lod::Const(u32::MAX),
                    Lod::PerInvocation,
                    Lod::PerInvocation,
                ],
            )
        };
        Case {
            platform: pick(g, &PLATFORMS),
            shape,
            sampled: bool::arbitrary(g),
            lod,
            levels: !buffer && bool::arbitrary(g),
            seed: u64::arbitrary(g) % 1000,
        }
    }
}

impl Case {
    fn shader_text(&self) -> String {
        let (dim, arrayed) = self.shape;
        let comps = dim.coord_components(arrayed);
        let ty = if comps == 1 {
            "32".to_string()
        } else {
            format!("32x{comps}")
        };
        let access = if self.sampled {
            "readonly sampled"
        } else {
            "readonly"
        };
        let dims = if arrayed {
            format!("{dim} array")
        } else {
            dim.to_string()
        };
        let (lod_def, lod_src) = match self.lod {
            Lod::Absent => (String::new(), String::new()),
            Lod::Const(v) => (
                format!("32   %3 = load_const ({v:#x})\n    "),
                ", %3".into(),
            ),
            Lod::PerInvocation => (
                "32   %20 = load_const (3)\n    32   %3 = iand %0.x, %20\n    ".into(),
                ", %3".into(),
            ),
        };
        // The size's components and the level count (or 0), summed with distinct
        // weights so that every component matters: x + 3y + 5z + 7 levels.
        let mut sum = "32   %6 = mov %5".to_string() + if comps == 1 { "" } else { ".x" };
        let weights = [3, 5];
        for c in 1..comps {
            sum += &format!(
                "\n    32   %{w} = load_const ({k})\n    32   %{m} = imul %5.{ch}, %{w}\n    \
                 32   %{s} = iadd %{prev}, %{m}",
                w = 30 + c * 3,
                m = 31 + c * 3,
                s = 32 + c * 3,
                k = weights[c as usize - 1],
                ch = ["x", "y", "z"][c as usize],
                prev = if c == 1 { 6 } else { 32 + (c - 1) * 3 },
            );
        }
        let total = if comps == 1 { 6 } else { 32 + (comps - 1) * 3 };
        let levels = if self.levels {
            format!(
                "32   %40 = @image_levels (@img)\n    32   %41 = load_const (7)\n    \
                 32   %42 = imul %40, %41\n    32   %43 = iadd %{total}, %42"
            )
        } else {
            format!("32   %43 = mov %{total}")
        };
        format!(
            "shader compute (local_size=8,1,1)
image @img : {dims} r32_uint {access} (binding=0)

fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    {lod_def}{ty} %5 = @image_size (@img{lod_src})
    {sum}
    {levels}
    32   %50 = load_const (4)
    32   %51 = imul %0.x, %50
    32   %52 = load_const (0)
    @store_ssbo (%43, %52, %51) (access=none, align_mul=4)
}}
"
        )
    }

    /// Whether the lowering must refuse the case: a sampled texture's level
    /// question on a platform without a sampler.
    fn expects_refusal(&self) -> bool {
        let texture = self.sampled && self.shape.0 != ImageDim::Buffer;
        let at_lod = !matches!(self.lod, Lod::Absent | Lod::Const(0));
        texture && self.platform == "pvc" && (at_lod || self.levels)
    }

    /// How many queries the sampler's `resinfo` answers.
    fn expected_resinfo(&self) -> usize {
        let texture = self.sampled && self.shape.0 != ImageDim::Buffer;
        if texture && self.platform != "pvc" {
            1 + usize::from(self.levels)
        } else {
            0
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} seed {}\n{}",
            self.platform,
            self.seed,
            self.shader_text()
        )
    }
}

/// Lowers and verifies one case; `Err` describes a failure.
fn check(case: &Case) -> Result<(), String> {
    let text = case.shader_text();
    let shader = ir::parse_shader(&text).map_err(|e| format!("parse: {e:?}"))?;
    ir::validate(&shader).map_err(|e| format!("validate: {e:?}"))?;
    let device = Device::preset(case.platform).expect("preset");
    let lowered = verifier::lower(&shader, &device, &LowerOptions::default());
    if case.expects_refusal() {
        return match lowered {
            Err(verifier::VerifyError::Lower(e))
                if e.kind == LowerErrorKind::SampledLevelsUnavailable =>
            {
                Ok(())
            }
            Err(e) => Err(format!("refused for another reason: {e}")),
            Ok(_) => Err("lowered, but a sampled level query needs a sampler".into()),
        };
    }
    let l = lowered.map_err(|e| format!("lower: {e}"))?;
    let r = &l.report;
    if r.sampler_queries != case.expected_resinfo() {
        return Err(format!(
            "{} resinfo queries, expected {}\n{}",
            r.sampler_queries,
            case.expected_resinfo(),
            ir::print_shader(&l.lowered)
        ));
    }
    let mut setup =
        Setup::default_for(&shader, &device, case.seed).map_err(|e| format!("setup: {e}"))?;
    setup.grid = [6, 1, 1];
    setup.bindings = l.report.bindings.clone();
    let report = verifier::verify(&l.original, &l.lowered, &device, &setup)
        .map_err(|e| format!("verify: {e}"))?;
    if !report.passed() {
        return Err(format!(
            "{report}\nlowered:\n{}",
            ir::print_shader(&l.lowered)
        ));
    }
    Ok(())
}

fn property(case: Case) -> TestResult {
    match check(&case) {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("{case}\n{e}")),
    }
}

#[test]
fn level_queries_agree_with_the_reference() {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(16, 0x1e7e_1515))
        .tests(cases(40))
        .max_tests(cases(40) * 4)
        .quickcheck(property as fn(Case) -> TestResult);
}

/// Every shape, sampled and not, with a per-invocation LOD, on one platform of each
/// sampler generation and on PVC: the cases a small random run could miss.
#[test]
fn every_shape_on_every_sampler_generation() {
    for platform in ["ivb", "skl", "tgl", "dg2", "pvc", "bmg"] {
        for &shape in &SHAPES {
            for sampled in [false, true] {
                let buffer = shape.0 == ImageDim::Buffer;
                let case = Case {
                    platform,
                    shape,
                    sampled,
                    lod: if buffer {
                        Lod::Absent
                    } else {
                        Lod::PerInvocation
                    },
                    levels: !buffer,
                    seed: 7,
                };
                if let Err(e) = check(&case) {
                    panic!("{case}\n{e}");
                }
            }
        }
    }
}

// ----- planted bugs ------------------------------------------------------------------

/// A 2D array texture's size at LOD `gid.x & 3` and a cube array's size (cubes) and
/// level count, stored to an SSBO.
const SAMPLED: &str = "shader compute (local_size=8,1,1)
image @tex : 2d array r32_uint readonly sampled (binding=0)
image @cubes : cube array r32_uint readonly sampled (binding=1)
image @img : 2d r32_uint readonly (binding=2)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (3)
    32   %2 = iand %0.x, %1
    32x3 %3 = @image_size (@tex, %2)
    32x3 %4 = @image_size (@cubes)
    32   %5 = @image_levels (@cubes)
    32x2 %6 = @image_size (@img, %2)
    32   %7 = iadd %3.x, %4.z
    32   %8 = iadd %7, %5
    32   %9 = iadd %8, %6.y
    32   %10 = load_const (4)
    32   %11 = imul %0.x, %10
    32   %12 = load_const (0)
    @store_ssbo (%9, %12, %11) (access=none, align_mul=4)
}
";

/// The lowering of [`SAMPLED`] for DG2, its setup, and the device; the unmodified
/// lowering verifies.
fn sampled_on_dg2() -> (verifier::Lowered, Setup, Device) {
    let shader = ir::parse_shader(SAMPLED).unwrap();
    let device = Device::preset("dg2").unwrap();
    let l = verifier::lower(&shader, &device, &LowerOptions::default()).unwrap();
    let mut setup = Setup::default_for(&l.original, &device, 0).unwrap();
    setup.grid = [1, 1, 1];
    setup.bindings = l.report.bindings.clone();
    let r = verifier::verify(&l.original, &l.lowered, &device, &setup).unwrap();
    assert!(r.passed(), "the unmodified lowering must verify:\n{r}");
    (l, setup, device)
}

/// Verifies a corrupted lowering: it must fail, first with a mismatch of `kind` on
/// `line` (the query whose value the lowered shader still defines whole, or the
/// store of the sum when cleanup kept only a part of it).
fn assert_mismatch(
    l: &verifier::Lowered,
    setup: &Setup,
    device: &Device,
    kind: MismatchKind,
    line: u32,
) {
    let r = verifier::verify(&l.original, &l.lowered, device, setup).unwrap();
    assert!(!r.passed(), "the corrupted lowering must not verify:\n{r}");
    let m = &r.mismatches[0];
    assert_eq!((m.kind, m.span.map(|s| s.line)), (kind, Some(line)), "{r}");
}

#[test]
fn a_resinfo_at_the_wrong_lod_is_caught() {
    let (mut l, setup, device) = sampled_on_dg2();
    // The size of @tex asks resinfo at LOD 0 instead of gid.x & 3.
    let f = &mut l.lowered.functions[0];
    let inst = f
        .insts_in_order()
        .into_iter()
        .find(|&i| {
            f.inst(i)
                .as_intrinsic()
                .is_some_and(|x| x.op == IntrinsicOp::SamplerResinfo && f.inst_span(i).line == 11)
        })
        .expect("the resinfo of line 11");
    let zero = ir::Builder::new(f, ir::Cursor::Before(inst)).imm_u32(0);
    match &mut f.inst_mut(inst).kind {
        InstKind::Intrinsic(x) => x.srcs[0] = Src::new(zero),
        _ => unreachable!(),
    }
    assert_mismatch(&l, &setup, &device, MismatchKind::Value, 11);
}

#[test]
fn a_cube_count_left_in_faces_is_caught() {
    let (mut l, setup, device) = sampled_on_dg2();
    // The cubes of @cubes: `udiv B, 6` becomes `udiv B, 1`, the face count.
    let f = &mut l.lowered.functions[0];
    let inst = f
        .insts_in_order()
        .into_iter()
        .find(|&i| f.inst(i).as_alu().is_some_and(|a| a.op == AluOp::Udiv))
        .expect("the cube count's udiv");
    let one = ir::Builder::new(f, ir::Cursor::Before(inst)).imm_u32(1);
    match &mut f.inst_mut(inst).kind {
        InstKind::Alu(a) => a.srcs[1] = Src::new(one),
        _ => unreachable!(),
    }
    // Only the third component of the cube size is used, so cleanup leaves no whole
    // value to compare: the stored sum differs.
    assert_mismatch(&l, &setup, &device, MismatchKind::BufferByte, 21);
}

#[test]
fn a_storage_size_at_every_lod_is_caught() {
    let (mut l, setup, device) = sampled_on_dg2();
    // The storage image's size ignores its LOD: each `bcsel (lod == 0), size, 0`
    // becomes `bcsel true, size, 0`.
    let f = &mut l.lowered.functions[0];
    let sels: Vec<_> = f
        .insts_in_order()
        .into_iter()
        .filter(|&i| f.inst(i).as_alu().is_some_and(|a| a.op == AluOp::Bcsel))
        .collect();
    // Only the height of @img is used: one bcsel is left after cleanup.
    assert_eq!(sels.len(), 1, "the bcsel of @img's height");
    for inst in sels {
        let t = ir::Builder::new(f, ir::Cursor::Before(inst)).imm_bool(true);
        match &mut f.inst_mut(inst).kind {
            InstKind::Alu(a) => a.srcs[0] = Src::new(t),
            _ => unreachable!(),
        }
    }
    assert_mismatch(&l, &setup, &device, MismatchKind::BufferByte, 21);
}
