//! Property: loads from read-only images lowered with `readonly_via_sampler` (the
//! sampler's `ld` / `ld_lz`, or the normal path where the sampler does not apply) do
//! what the reference's `image_load` does, on every platform.
//!
//! Each case is one shader: a random read-only image (every dimension, every storage
//! format and format-less, some `coherent`), one `image_load` of 1 to 4 components at
//! the global invocation id plus a random offset (so that some coordinates fall
//! outside the view), with a LOD that is absent, a constant (0, 1 or -1) or computed per
//! invocation (0 or 1), and a store of the loaded value to an SSBO so that it stays
//! live. The verifier runs it before and after lowering (on a random tiling and view)
//! and compares every access, value and byte. Cases also vary the platform and
//! `force_untyped`, and whether the option is on, so the typed and untyped paths'
//! handling of the LOD is checked too. The number of sampler loads in the lowering's
//! report must be what the documented rule says: the option on, a platform with a
//! sampler (all but PVC), neither R64 nor `coherent`.
//!
//! `QC_TESTS` scales the number of cases.

use ir::{Format, ImageDim};
use lowering::{Device, LowerOptions};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::fmt;
use verify::setup::Setup;
use verify::verifier;

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

/// The workgroups dispatched (of 8x8x1): 40 x 24 x 3 invocations, 16 bytes of SSBO each
/// (46080 of the 64 KiB the setup gives).
const GRID: [u32; 3] = [5, 3, 3];

/// The LOD operand of the load.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lod {
    /// No LOD source.
    Absent,
    /// A `load_const`.
    Const(u32),
    /// `gid.x & 1`: 0 and 1 in alternate invocations.
    Alternating,
    /// `gid.y >> 4`: 0 for the first 16 rows, 1 after.
    Rows,
}

#[derive(Clone, Debug)]
struct Case {
    platform: &'static str,
    shape: (ImageDim, bool),
    format: Format,
    coherent: bool,
    /// Components loaded.
    comps: u8,
    /// The data type of a format-less load.
    formatless_type: &'static str,
    lod: Lod,
    /// Added to the invocation id: x, y, z.
    offset: [i32; 3],
    sampler: bool,
    force_untyped: bool,
    seed: u64,
}

fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    *g.choose(items).expect("non-empty")
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let platform = pick(g, &PLATFORMS);
        let verx10 = Device::preset(platform).expect("preset").verx10();
        let shape = pick(g, &SHAPES);
        let sampler = u8::arbitrary(g) % 4 != 0;
        let force_untyped = u8::arbitrary(g) % 4 == 0;
        // Formats every path can lower here: R64 needs Gfx9; a format-less load needs
        // the sampler or a typed read that converts every format (Gfx12.5), and no
        // forced untyped path unless the sampler takes it.
        let formats: Vec<Format> = Format::ALL
            .iter()
            .copied()
            .filter(|f| match f {
                Format::R64Uint | Format::R64Sint => verx10 >= 90,
                Format::None => (sampler && platform != "pvc") || (verx10 >= 125 && !force_untyped),
                _ => true,
            })
            .collect();
        let format = pick(g, &formats);
        // A coherent format-less image cannot take the sampler.
        let coherent = u8::arbitrary(g) % 6 == 0 && format != Format::None;
        let r64 = matches!(format, Format::R64Uint | Format::R64Sint);
        let comps = if r64 {
            pick(g, &[1u8, 2])
        } else {
            pick(g, &[1u8, 2, 3, 4, 4])
        };
        let lod = pick(
            g,
            &[
                Lod::Absent,
                Lod::Absent,
                Lod::Const(0),
                Lod::Const(1),
                Lod::Const(u32::MAX),
                Lod::Alternating,
                Lod::Rows,
            ],
        );
        let small =
            |g: &mut Gen, lo: i32, hi: i32| lo + (u32::arbitrary(g) % (hi - lo + 1) as u32) as i32;
        let offset = [
            if shape.0 == ImageDim::Buffer {
                small(g, -2, 280)
            } else {
                small(g, -2, 2)
            },
            small(g, -2, 2),
            small(g, -1, 4),
        ];
        Case {
            platform,
            shape,
            format,
            coherent: coherent && format != Format::None,
            comps,
            formatless_type: pick(g, &["float32", "uint32", "int32"]),
            lod,
            offset,
            sampler,
            force_untyped,
            seed: u64::arbitrary(g) % 1000,
        }
    }
}

impl Case {
    fn dest_type(&self) -> String {
        match self.format.data_base_type() {
            None => self.formatless_type.to_string(),
            Some(base) => {
                let name = match base {
                    ir::BaseType::Float => "float",
                    ir::BaseType::Int => "int",
                    _ => "uint",
                };
                format!("{name}{}", self.format.data_bit_size())
            }
        }
    }

    fn shader_text(&self) -> String {
        let (dim, arrayed) = self.shape;
        let access = if self.coherent {
            "readonly coherent"
        } else {
            "readonly"
        };
        let bits = if self.format == Format::None {
            32
        } else {
            self.format.data_bit_size()
        };
        let coord = match dim.coord_components(arrayed) {
            1 => "%2.x",
            // A 1D array's layer comes from z, like the other arrays'.
            2 if dim == ImageDim::D1 => "%2.xz",
            2 => "%2.xy",
            _ => "%2",
        };
        let (lod_def, lod_src) = match self.lod {
            Lod::Absent => (String::new(), String::new()),
            Lod::Const(v) => (
                format!("32   %3 = load_const ({v:#x})\n    "),
                ", %3".into(),
            ),
            Lod::Alternating => (
                "32   %20 = load_const (1)\n    32   %3 = iand %0.x, %20\n    ".into(),
                ", %3".into(),
            ),
            Lod::Rows => (
                "32   %20 = load_const (4)\n    32   %3 = ushr %0.y, %20\n    ".into(),
                ", %3".into(),
            ),
        };
        let [ox, oy, oz] = self.offset;
        let ty = if self.comps == 1 {
            format!("{bits}")
        } else {
            format!("{bits}x{}", self.comps)
        };
        let dims = match (dim, arrayed) {
            (d, true) => format!("{d} array"),
            (d, false) => d.to_string(),
        };
        format!(
            "shader compute (local_size=8,8,1)
image @src : {dims} {fmt} {access} (binding=0)

fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x3 %1 = load_const ({ox}, {oy}, {oz})
    32x3 %2 = iadd %0, %1
    {lod_def}{ty} %5 = @image_load (@src, {coord}{lod_src}) (dest_type={dt})
    32   %10 = load_const (40)
    32   %11 = load_const (960)
    32   %12 = imul %0.y, %10
    32   %13 = imul %0.z, %11
    32   %14 = iadd %0.x, %12
    32   %15 = iadd %14, %13
    32   %16 = load_const (16)
    32   %17 = imul %15, %16
    32   %18 = load_const (0)
    @store_ssbo (%5, %18, %17) (access=none, align_mul=4)
}}
",
            fmt = self.format.name(),
            dt = self.dest_type(),
        )
    }

    /// Whether the load must go through the sampler (the documented rule).
    fn expects_sampler(&self) -> bool {
        self.sampler
            && self.platform != "pvc"
            && !self.coherent
            && !matches!(self.format, Format::R64Uint | Format::R64Sint)
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} seed {} readonly_via_sampler={} force_untyped={}\n{}",
            self.platform,
            self.seed,
            self.sampler,
            self.force_untyped,
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
    let options = LowerOptions {
        readonly_via_sampler: case.sampler,
        force_untyped: case.force_untyped,
        ..LowerOptions::default()
    };
    let l = verifier::lower(&shader, &device, &options).map_err(|e| format!("lower: {e}"))?;
    let want = usize::from(case.expects_sampler());
    if l.report.sampler_loads != want {
        return Err(format!(
            "{} sampler loads, expected {want}\n{}",
            l.report.sampler_loads,
            ir::print_shader(&l.lowered)
        ));
    }
    let mut setup =
        Setup::default_for(&shader, &device, case.seed).map_err(|e| format!("setup: {e}"))?;
    setup.grid = GRID;
    setup.bindings = l.report.bindings.clone();
    let report = verifier::verify(&l.original, &l.lowered, &device, &setup)
        .map_err(|e| format!("verify: {e}"))?;
    if !report.passed() {
        return Err(format!(
            "{}\nlowered:\n{}",
            report,
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
fn sampler_loads_agree_with_image_loads() {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(16, 0x5a3b_1e00))
        .tests(cases(24))
        .max_tests(cases(24) * 4)
        .quickcheck(property as fn(Case) -> TestResult);
}

/// Every dimension, through the sampler, on one platform of each sampler generation,
/// with a per-invocation LOD: the cases a small random run could miss.
#[test]
fn every_dimension_on_every_sampler_generation() {
    for (i, platform) in ["ivb", "skl", "tgl", "dg2", "bmg"].into_iter().enumerate() {
        for (j, &shape) in SHAPES.iter().enumerate() {
            let case = Case {
                platform,
                shape,
                format: [Format::Rgba8Unorm, Format::R16Sint, Format::Rg32Float][j % 3],
                coherent: false,
                comps: 4,
                formatless_type: "float32",
                lod: [Lod::Alternating, Lod::Absent, Lod::Const(0)][(i + j) % 3],
                offset: [-1, 0, if shape.0 == ImageDim::D3 { 2 } else { 0 }],
                sampler: true,
                force_untyped: false,
                seed: (i * 8 + j) as u64,
            };
            if let Err(e) = check(&case) {
                panic!("{case}\n{e}");
            }
        }
    }
}
