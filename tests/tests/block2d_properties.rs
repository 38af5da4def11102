//! Image block accesses of random shapes, texel sizes, subgroup sizes, value types,
//! image sizes and positions (inside, across the edges, outside, at negative
//! coordinates), lowered for every platform preset:
//!
//! - on PVC (untyped block2d on a statically linear image), LNL and BMG (typed block2d on
//!   any storage tiling) the lowered shader is checked against the reference with the
//!   lowering verifier (`verify::verifier`: the bytes each block reaches, every value
//!   the accesses define, every texel of every image afterwards), and the access records
//!   of each block (every element read or written, and every texel discarded out of
//!   bounds) are compared per workgroup with the reference's;
//! - shapes the block rules cannot split into whole SIMT components are a
//!   `BlockUnsupported` error that names the rule;
//! - every other preset has no 2D block messages: a `BlockUnsupported` error naming the
//!   platform.
//!
//! Case counts are printed (`--nocapture`); `QC_TESTS` scales them.

use ir::{IntrinsicClass, IntrinsicOp, Shader};
use lowering::{Device, LowerErrorKind, LowerOptions};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use verify::exec::{ExecConfig, Executor, RunResult};
use verify::memory::Access;
use verify::setup::{ImageLayout, Setup};
use verify::verifier::{lower, verify, VerifyError};

fn cases(default: u64) -> u64 {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Formats of 1, 2, 4 and 8 bytes.
const FORMATS: [(&str, u32); 6] = [
    ("r8_uint", 1),
    ("r16_uint", 2),
    ("r32_uint", 4),
    ("rgba8_unorm", 4),
    ("rg32_uint", 8),
    ("rgba16_float", 8),
];

#[derive(Clone, Debug)]
struct BlockCase {
    platform: &'static str,
    format: usize,
    sg: u32,
    bits: u8,
    comps: u8,
    width: u32,
    height: u32,
    /// Image extent (level 0).
    image: (u32, u32),
    /// First block origin and step between workgroups.
    origin: (i32, i32),
    step: (u32, u32),
    seed: u64,
}

fn pick<T: Copy>(g: &mut Gen, xs: &[T]) -> T {
    *g.choose(xs).expect("non-empty")
}

impl Arbitrary for BlockCase {
    fn arbitrary(g: &mut Gen) -> BlockCase {
        // Three cases in four on the platforms with block messages.
        let platform = if u8::arbitrary(g) % 4 == 0 {
            pick(g, &Device::PRESET_NAMES)
        } else {
            pick(g, &["pvc", "lnl", "bmg"])
        };
        let format = usize::arbitrary(g) % FORMATS.len();
        let tb = FORMATS[format].1;
        let sg = pick(g, &[8u32, 16, 16, 32]);
        // Derive the block from the value: bytes = comps x SG x bits / 8 texels' worth,
        // split into a width that divides it (powers of two and multiples of 3).
        let (bits, comps, width, height) = loop {
            let bits = pick(g, &[8u8, 16, 32, 32, 64]);
            let comps = pick(g, &[1u8, 2, 3, 4, 8, 16]);
            let bytes = u32::from(comps) * sg * u32::from(bits) / 8;
            if !bytes.is_multiple_of(tb) {
                continue;
            }
            let texels = bytes / tb;
            let divisors: Vec<u32> = (1..=texels.min(256))
                .filter(|d| texels.is_multiple_of(*d) && texels / d <= 256)
                .collect();
            if divisors.is_empty() {
                continue;
            }
            let w = pick(g, &divisors);
            break (bits, comps, w, texels / w);
        };
        // At least 4 x 4: the setup gives images 3 mip levels (views of level 1 have an
        // origin inside the surface).
        let image = (4 + u32::arbitrary(g) % 77, 4 + u32::arbitrary(g) % 37);
        let origin = (
            -(width as i32) + (u32::arbitrary(g) % (width + 3)) as i32,
            -(height as i32) + (u32::arbitrary(g) % (height + 3)) as i32,
        );
        let step = (
            (image.0 / 2).max(1) + u32::arbitrary(g) % width.max(1),
            (image.1 / 2).max(1) + u32::arbitrary(g) % height.max(1),
        );
        BlockCase {
            platform,
            format,
            sg,
            bits,
            comps,
            width,
            height,
            image,
            origin,
            step,
            seed: u64::arbitrary(g),
        }
    }
}

impl BlockCase {
    fn value_type(&self) -> String {
        if self.comps == 1 {
            format!("{}", self.bits)
        } else {
            format!("{}x{}", self.bits, self.comps)
        }
    }

    /// Loads a block from @src at the workgroup's origin and stores it to @dst there.
    fn shader(&self) -> Shader {
        let (fmt, _) = FORMATS[self.format];
        // PVC's untyped messages need a statically linear surface; a generous pitch
        // keeps any random width.
        let layout = if self.platform == "pvc" {
            ", layout={tiling=linear, row_pitch=1024}"
        } else {
            ""
        };
        let text = format!(
            "shader compute (local_size={sg},1,1, subgroup_size={sg})
image @src : 2d {fmt} readonly (binding=0{layout})
image @dst : 2d {fmt} (binding=1{layout})
fn main {{
  block b0:
    32x3 %0 = @load_workgroup_id
    32   %1 = load_const ({sx:#010x})
    32   %2 = load_const ({sy:#010x})
    32   %3 = load_const ({ox:#010x})
    32   %4 = load_const ({oy:#010x})
    32   %5 = imul %0.x, %1
    32   %6 = imul %0.y, %2
    32   %7 = iadd %5, %3
    32   %8 = iadd %6, %4
    32x2 %9 = vec2 %7, %8
    {ty} %10 = @image_block_load (@src, %9) (block={w}x{h})
    @image_block_store (@dst, %9, %10) (block={w}x{h})
}}",
            sg = self.sg,
            sx = self.step.0,
            sy = self.step.1,
            ox = self.origin.0 as u32,
            oy = self.origin.1 as u32,
            ty = self.value_type(),
            w = self.width,
            h = self.height,
        );
        let shader = ir::parse_shader(&text).unwrap_or_else(|d| panic!("parse: {d:?}\n{text}"));
        ir::validate::validate(&shader).unwrap_or_else(|d| panic!("validate: {d:?}\n{text}"));
        shader
    }

    fn setup(&self, shader: &Shader, device: &Device) -> Setup {
        let mut setup = Setup::default_for(shader, device, self.seed).expect("setup");
        for img in &mut setup.images {
            if let ImageLayout::Surface { desc, .. } = &mut img.layout {
                let cpp = desc.format.bpb() / 8;
                let max_w = desc.row_pitch_B.map_or(u32::MAX, |p| p / cpp);
                desc.width = self.image.0.min(max_w);
                desc.height = self.image.1;
            }
        }
        // 3 x 3 block positions from the origin: the first straddles the top-left edge
        // or sits outside it, the last the bottom-right one.
        setup.grid = [3, 3, 1];
        setup.subgroup_size = self.sg;
        setup
    }
}

/// The block accesses of each (workgroup, instruction line), as sorted records.
fn block_accesses(run: &RunResult, ops: &[IntrinsicOp]) -> BTreeMap<(u32, u32), Vec<String>> {
    let mut out: BTreeMap<(u32, u32), Vec<String>> = BTreeMap::new();
    for a in &run.accesses {
        if !ops.contains(&a.ctx.op) {
            continue;
        }
        let key = (a.ctx.invocation, a.ctx.span.line);
        out.entry(key).or_default().push(describe(a));
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

fn describe(a: &Access) -> String {
    if a.in_bounds {
        format!("{:?} {:?} +{:#x} {}", a.kind, a.space, a.offset, a.size)
    } else {
        format!("{:?} {:?} discarded {}", a.kind, a.space, a.size)
    }
}

static VERIFIED: [AtomicUsize; 12] = [const { AtomicUsize::new(0) }; 12];
static REJECTED_SHAPE: [AtomicUsize; 12] = [const { AtomicUsize::new(0) }; 12];
static NO_BLOCKS: [AtomicUsize; 12] = [const { AtomicUsize::new(0) }; 12];

fn prop(c: BlockCase) -> TestResult {
    let device = Device::preset(c.platform).expect("preset");
    let pi = Device::PRESET_NAMES
        .iter()
        .position(|n| *n == c.platform)
        .expect("preset");
    let shader = c.shader();
    let lowered = match lower(&shader, &device, &LowerOptions::default()) {
        Ok(l) => l,
        Err(VerifyError::Lower(e)) => {
            if !matches!(e.kind, LowerErrorKind::BlockUnsupported(_)) {
                return TestResult::error(format!("{c:?}: unexpected error kind: {e}"));
            }
            let msg = e.to_string();
            if device.untyped_block2d {
                // A shape the rules cannot split: the message names the rule.
                if !(msg.contains("cannot be split into")
                    && (msg.contains("SIMT component")
                        || msg.contains("docs/hardware/lsc-messages.md §")))
                {
                    return TestResult::error(format!("{c:?}: {msg}"));
                }
                REJECTED_SHAPE[pi].fetch_add(1, Ordering::Relaxed);
            } else {
                let want = format!("{} has no 2D block messages", c.platform);
                if !msg.contains(&want) || !msg.contains("docs/hardware/lsc-messages.md §13.9") {
                    return TestResult::error(format!("{c:?}: {msg}"));
                }
                NO_BLOCKS[pi].fetch_add(1, Ordering::Relaxed);
            }
            return TestResult::passed();
        }
        Err(e) => return TestResult::error(format!("{c:?}: {e}")),
    };
    if !device.untyped_block2d {
        return TestResult::error(format!(
            "{c:?}: lowered on {} without block messages",
            c.platform
        ));
    }
    // Every message the lowering emitted is legal on the platform.
    if let Err(errs) = lowering::messages::check_function(
        &device,
        &lowered.lowered.images,
        lowered.lowered.entry().unwrap(),
    ) {
        return TestResult::error(format!("{c:?}: {}", errs[0]));
    }
    let mut setup = c.setup(&shader, &device);
    setup.bindings = lowered.report.bindings.clone();
    let report = match verify(&lowered.original, &lowered.lowered, &device, &setup) {
        Ok(r) => r,
        Err(e) => return TestResult::error(format!("{c:?}: {e}")),
    };
    if !report.passed() {
        return TestResult::error(format!(
            "{c:?}\n{}\n{report}",
            ir::print_shader(&lowered.lowered)
        ));
    }
    // The bytes each block reads and writes, and what it discards.
    let mem = setup
        .build_memory(&lowered.original, &device)
        .expect("memory");
    let config = ExecConfig {
        subgroup_size: c.sg,
        ..ExecConfig::default()
    };
    let mut ea = Executor::with_config(&lowered.original, config);
    ea.memory = mem.clone();
    let ra = ea.run(setup.grid).expect("the reference runs");
    let mut eb = Executor::with_config(&lowered.lowered, config);
    eb.memory = mem;
    let rb = eb.run(setup.grid).expect("the lowered shader runs");
    let ref_ops: Vec<IntrinsicOp> = IntrinsicOp::ALL
        .iter()
        .copied()
        .filter(|o| {
            matches!(
                o,
                IntrinsicOp::ImageBlockLoad | IntrinsicOp::ImageBlockStore
            )
        })
        .collect();
    let msg_ops = [IntrinsicOp::LscLoadBlock2d, IntrinsicOp::LscStoreBlock2d];
    let a = block_accesses(&ra, &ref_ops);
    let b = block_accesses(&rb, &msg_ops);
    if a != b {
        let first = a
            .iter()
            .find(|(k, v)| b.get(k) != Some(v))
            .map(|(k, _)| *k)
            .or_else(|| b.keys().find(|k| !a.contains_key(k)).copied());
        return TestResult::error(format!(
            "{c:?}: block accesses differ at {first:?}\nreference {:?}\nlowered {:?}",
            first.and_then(|k| a.get(&k)).map(|v| &v[..v.len().min(8)]),
            first.and_then(|k| b.get(&k)).map(|v| &v[..v.len().min(8)])
        ));
    }
    // No other image or message intrinsic touched memory.
    let others = rb
        .accesses
        .iter()
        .filter(|x| {
            !msg_ops.contains(&x.ctx.op) && x.ctx.op.info().class != IntrinsicClass::SystemValue
        })
        .count();
    if others != 0 {
        return TestResult::error(format!("{c:?}: {others} accesses outside block messages"));
    }
    VERIFIED[pi].fetch_add(1, Ordering::Relaxed);
    TestResult::passed()
}

#[test]
fn image_block_accesses_match_the_reference_on_every_platform() {
    let n = cases(100);
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(40, 0x00b1_0c2d))
        .tests(n)
        .max_tests(n * 4)
        .quickcheck(prop as fn(BlockCase) -> TestResult);
    let mut total = 0;
    for (i, name) in Device::PRESET_NAMES.iter().enumerate() {
        let (v, s, e) = (
            VERIFIED[i].load(Ordering::Relaxed),
            REJECTED_SHAPE[i].load(Ordering::Relaxed),
            NO_BLOCKS[i].load(Ordering::Relaxed),
        );
        total += v + s + e;
        println!("{name}: {v} verified, {s} shapes rejected by rule, {e} without block messages");
    }
    let verified: usize = (0..12).map(|i| VERIFIED[i].load(Ordering::Relaxed)).sum();
    assert!(total as u64 >= n, "{total} cases");
    // The generator must reach the verified path on every block platform.
    for name in ["pvc", "lnl", "bmg"] {
        let i = Device::PRESET_NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap();
        assert!(
            VERIFIED[i].load(Ordering::Relaxed) > 0,
            "no verified case on {name}"
        );
    }
    assert!(verified > 0);
}
