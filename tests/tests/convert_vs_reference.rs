//! The shader-side colour conversion (`lowering::convert`) against the executor's reference
//! texel encoding (`verify::texel`), bit for bit (a normalized channel's load within the
//! 2.5 ULP its inexact division may err, `ir/PRECISION.md`), for every storage format on
//! every platform and every format the platform accesses it as.
//!
//! The verifier runs an original shader against the reference (`texel.rs` encodes and
//! decodes the image format) and the lowered shader against "hardware" (the shader-side
//! conversion emitted by `convert.rs`, then a typed message whose surface format converts
//! with `texel.rs` again, or a raw untyped access). Both must produce the same bytes and
//! the same register values, so for each (platform, image format, accessed format):
//!
//! * **store**: register values `v` (f32/u32/i32 bits, u64 for R64) →
//!   `convert_color_for_store` (evaluated with `ir::eval`) → the typed message encodes the
//!   result with the accessed format → bytes, which must equal the reference encoding of
//!   `v` with the image format;
//! * **load**: texel bytes → the typed message decodes them with the accessed format (on
//!   IVB/BYT, R8/R16_UINT reads carry garbage in the high bits, which the test injects) →
//!   `convert_color_for_load` with 4 and with 1 destination components → must equal the
//!   reference decoding with the image format (missing channels included).
//!
//! The conversion is built once per distinct emitted code (platforms sharing a lowering
//! emit the same IR; the printed IR is the cache key) with a placeholder input, and
//! evaluated for every input with `ir::eval::eval_alu` (NIR's ALU semantics, the code the
//! constant folder and the interpreter share); a few inputs per program also go through
//! the constant-folding pass as a cross-check of the evaluator.
//!
//! Inputs: for loads, every value of each channel of up to 12 bits (each channel runs
//! through all its values, the others rotated alongside; every R11G11B10 encoding among
//! them), for stores every 11/10-bit float value; values exactly on and one or two ulps
//! around the rounding ties of each target width (UNORM/SNORM: `(k + ½) / scale`;
//! binary16 and the small floats: midpoints between neighbours; the overflow
//! thresholds); specials (±0, ±denormals, ±∞, NaNs of both signs with various payloads,
//! ±max finite); and random f32/u32/i32/u64 bit patterns and floats from quickcheck's
//! generator with a fixed seed. 16-bit fields (binary16 values, UNORM/SNORM codes, raw
//! channels) are swept by `sweep`: by default every 8th value for loads and every 16th
//! for stores, plus the extremes of every byte and of every binary16 exponent; every
//! value in exhaustive runs.
//!
//! `QC_TESTS` sets the random inputs per program and direction (default 2000, about
//! 1.4 million evaluations in all); from 16384 on, 16-bit fields are swept
//! exhaustively. The long run, with 10^6 random inputs per program and direction (about
//! 10^8 evaluations, a few minutes):
//! `QC_TESTS=1000000 cargo test --release -p verify --test convert_vs_reference`.

use ir::eval::{eval_alu_flagged, Operand};
use ir::function::InstKind;
use ir::{AluOp, Builder, Format, Function, Shader, Src, Type, Value};
use lowering::convert::{convert_color_for_load, convert_color_for_store};
use lowering::format::{isl_format, lower_storage_image_format, storage_access};
use lowering::{Device, StorageAccess};
use quickcheck::{Arbitrary, Gen};
use smallvec::SmallVec;
use std::collections::{BTreeSet, HashMap, HashSet};
use verify::texel::{ChannelKind, TexelLayout};

// ----- a straight-line conversion, compiled for repeated evaluation ----------------------

/// One source of a compiled instruction.
struct StepSrc {
    /// The step defining the value read.
    slot: usize,
    /// Its bit size.
    bits: u8,
    /// The components read, in order.
    sel: SmallVec<[u8; 4]>,
}

enum Step {
    Const(SmallVec<[u64; 4]>),
    Alu {
        op: AluOp,
        exact: bool,
        dest: Type,
        srcs: SmallVec<[StepSrc; 4]>,
    },
}

/// A conversion function: a placeholder input (a `load_const` whose value each
/// evaluation replaces), constants and ALU instructions, and the result.
struct Program {
    steps: Vec<Step>,
    /// Components of each step's value.
    comps: Vec<usize>,
    input: usize,
    output: usize,
    /// The printed function: the cache key and the context of failure messages.
    text: String,
}

/// Components per `eval_alu` call when lanes are batched (NIR's widest vector).
const BATCH_COMPS: usize = 16;

impl Program {
    fn compile(f: &Function, input: Value, output: Value) -> Program {
        let mut slot: HashMap<Value, usize> = HashMap::new();
        let mut steps = Vec::new();
        let mut comps = Vec::new();
        for i in f.insts_in_order() {
            let data = f.inst(i);
            let dest = data.dest.expect("conversions only define values");
            let step = match &data.kind {
                InstKind::LoadConst(c) => Step::Const(c.iter().copied().collect()),
                InstKind::Alu(a) => {
                    let srcs = a
                        .srcs
                        .iter()
                        .map(|s: &Src| StepSrc {
                            slot: slot[&s.value],
                            bits: f.value_type(s.value).bit_size(),
                            sel: (0..f.src_components(*s))
                                .map(|c| s.swizzle.component(c))
                                .collect(),
                        })
                        .collect();
                    Step::Alu {
                        op: a.op,
                        exact: a.exact,
                        dest: f.value_type(dest),
                        srcs,
                    }
                }
                other => panic!("a conversion emitted {other:?}"),
            };
            slot.insert(dest, steps.len());
            steps.push(step);
            comps.push(f.value_type(dest).num_components() as usize);
        }
        let mut shader = Shader::new([1, 1, 1]);
        shader.functions.push(f.clone());
        Program {
            steps,
            comps,
            input: slot[&input],
            output: slot[&output],
            text: ir::print::print_function(&shader, &shader.functions[0]),
        }
    }

    /// Evaluates the program for each input (one entry per lane), returning each lane's
    /// result. Component-wise opcodes are evaluated for several lanes per `eval_alu`
    /// call, their components side by side in one 16-component vector (padded with
    /// zeros): the same per-component semantics, fewer calls.
    fn eval_lanes(&self, inputs: &[&[u64]]) -> Vec<SmallVec<[u64; 4]>> {
        let lanes = inputs.len();
        // vals[step][lane * comps + c]
        let mut vals: Vec<Vec<u64>> = Vec::with_capacity(self.steps.len());
        for (i, step) in self.steps.iter().enumerate() {
            let n = self.comps[i];
            let mut out = vec![0u64; lanes * n];
            if i == self.input {
                for (l, inp) in inputs.iter().enumerate() {
                    out[l * n..(l + 1) * n].copy_from_slice(&inp[..n]);
                }
            } else {
                match step {
                    Step::Const(c) => {
                        for l in 0..lanes {
                            out[l * n..(l + 1) * n].copy_from_slice(c);
                        }
                    }
                    Step::Alu {
                        op,
                        exact,
                        dest,
                        srcs,
                    } => {
                        let info = op.info();
                        let per_component = info.output_size == 0
                            && info.input_sizes[..srcs.len()].iter().all(|&s| s == 0);
                        let per_call = if per_component { BATCH_COMPS / n } else { 1 };
                        let call_comps = if per_component { BATCH_COMPS } else { n };
                        let call_dest = Type::new(dest.bit_size(), call_comps as u8).unwrap();
                        let mut bufs = [[0u64; BATCH_COMPS]; 4];
                        let mut l0 = 0;
                        while l0 < lanes {
                            let l1 = (l0 + per_call).min(lanes);
                            for (k, src) in srcs.iter().enumerate() {
                                let sn = self.comps[src.slot];
                                let w = src.sel.len();
                                let buf = &mut bufs[k];
                                buf.fill(0);
                                for l in l0..l1 {
                                    for (j, &c) in src.sel.iter().enumerate() {
                                        buf[(l - l0) * w + j] = vals[src.slot][l * sn + c as usize];
                                    }
                                }
                            }
                            let ops: SmallVec<[Operand<'_>; 4]> = srcs
                                .iter()
                                .enumerate()
                                .map(|(k, src)| {
                                    let len = if per_component {
                                        BATCH_COMPS
                                    } else {
                                        src.sel.len()
                                    };
                                    Operand::new(src.bits, &bufs[k][..len])
                                })
                                .collect();
                            let r = eval_alu_flagged(*op, *exact, call_dest, &ops)
                                .unwrap_or_else(|e| panic!("{op}: {e}\n{}", self.text));
                            out[l0 * n..l1 * n].copy_from_slice(&r[..(l1 - l0) * n]);
                            l0 = l1;
                        }
                    }
                }
            }
            vals.push(out);
        }
        let n = self.comps[self.output];
        let res = &vals[self.output];
        (0..lanes)
            .map(|l| res[l * n..(l + 1) * n].iter().copied().collect())
            .collect()
    }

    fn eval(&self, input: &[u64]) -> SmallVec<[u64; 4]> {
        self.eval_lanes(&[input]).pop().unwrap()
    }
}

/// How a platform reaches an image format's texels: typed on a surface of `access`
/// (possibly the image format itself), or raw dwords.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Pair {
    image: Format,
    access: Format,
    raw: bool,
}

/// Every (image format, accessed format) pair of a platform: what `storage_access`
/// picks, and also Mesa's lowered format when the raw path is taken instead (a valid
/// conversion pair the typed lowering would use if a typed format matched).
fn pairs(device: &Device) -> Vec<Pair> {
    let mut out = Vec::new();
    for &image in Format::ALL {
        match storage_access(device, image) {
            Ok(StorageAccess::Typed(access)) => out.push(Pair {
                image,
                access,
                raw: false,
            }),
            Ok(StorageAccess::Raw(access)) => {
                out.push(Pair {
                    image,
                    access,
                    raw: true,
                });
                let lowered = lower_storage_image_format(device, image).unwrap();
                if lowered != access && lowered != image {
                    out.push(Pair {
                        image,
                        access: lowered,
                        raw: false,
                    });
                }
            }
            Err(_) => {
                // R64 before Gfx9: not a storage format there.
                assert!(matches!(image, Format::R64Uint | Format::R64Sint));
            }
        }
    }
    out
}

fn build_store(device: &Device, p: Pair) -> Program {
    let mut f = Function::new("store");
    let mut b = Builder::at_end(&mut f);
    let bits = p.image.data_bit_size();
    let input = b.load_const(Type::new(bits, 4).unwrap(), &[0; 4]);
    let out = convert_color_for_store(&mut b, device, p.image, p.access, input)
        .unwrap_or_else(|e| panic!("{p:?} on {}: {e}", device.name));
    Program::compile(&f, input, out)
}

fn build_load(device: &Device, p: Pair, dest: u8) -> Program {
    let mut f = Function::new("load");
    let mut b = Builder::at_end(&mut f);
    let n = p.access.num_channels();
    let input = b.load_const(Type::vec32(n), &vec![0; n as usize]);
    let out = convert_color_for_load(&mut b, device, p.image, p.access, input, dest)
        .unwrap_or_else(|e| panic!("{p:?} on {}: {e}", device.name));
    Program::compile(&f, input, out)
}

/// The layout the "hardware" converts with: the accessed surface format's.
fn surface_layout(access: Format) -> TexelLayout {
    TexelLayout::from_isl(isl_format(access).unwrap()).unwrap()
}

fn reference_layout(image: Format) -> TexelLayout {
    TexelLayout::from_ir(image).unwrap()
}

// ----- inputs -------------------------------------------------------------------------------

/// Random inputs per program and direction (`QC_TESTS`, default 2000).
fn qc_tests() -> usize {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

/// Whether 16-bit fields are swept exhaustively (`QC_TESTS` of 16384 or more; smaller
/// fields always are).
fn exhaustive() -> bool {
    qc_tests() >= 16384
}

/// The values of a `bits`-bit field to run through: all of them up to 12 bits, or in
/// exhaustive runs. Wider fields by default take every `stride`-th value (shifted so
/// that every residue class appears), the extremes of every byte (`xx00`, `xx01`,
/// `xx7f`, `xx80`, `xxff`) and the mantissa extremes of every binary16 exponent and
/// sign.
fn sweep(bits: u8, stride: u64) -> Vec<u64> {
    let n = 1u64 << bits;
    if bits <= 12 || exhaustive() {
        return (0..n).collect();
    }
    let mut v: BTreeSet<u64> = (0..n / stride).map(|i| i * stride + i % stride).collect();
    for hi in 0..n >> 8 {
        v.extend([0u64, 1, 0x7f, 0x80, 0xff].map(|lo| hi << 8 | lo));
    }
    if bits == 16 {
        for se in 0..64u64 {
            v.extend([0u64, 1, 2, 0x1ff, 0x200, 0x201, 0x3fe, 0x3ff].map(|m| se << 10 | m));
        }
    }
    v.into_iter().collect()
}

/// Interesting f32 bit patterns for any float-valued channel.
fn float_specials() -> Vec<u32> {
    let mut v: Vec<u32> = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::EPSILON,
        1.0 - f32::EPSILON / 2.0,
        -1.0 + f32::EPSILON / 2.0,
        1.0 + f32::EPSILON,
        -1.0 - f32::EPSILON,
        65504.0,
        65519.996,
        65520.0,
        65536.0,
        -65504.0,
        1e10,
        -1e10,
    ]
    .iter()
    .map(|x| x.to_bits())
    .collect();
    v.extend([
        // f32 denormals.
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x807f_ffff,
        0x0040_0000,
        // NaNs: quiet, signalling, both signs, payloads that survive a narrowing (top
        // bits) and payloads that do not (low bits only).
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0xff80_0001,
        0x7fbf_ffff,
        0x7fff_ffff,
        0xffff_ffff,
        0x7fc0_0001,
        0x7fa0_0000,
        0x7f80_2000,
        0x7f80_1fff,
        0x7fe0_0000,
        0x7f90_0000,
        0xff81_0000,
    ]);
    v
}

/// `x` and its f32 neighbours up to `k` ulps away on each side, of the same sign.
fn with_neighbours(x: f32, k: i32, out: &mut Vec<u32>) {
    let b = x.to_bits() as i64;
    for d in -k..=k {
        let n = b + d as i64;
        if (0..=u32::MAX as i64).contains(&n) && (n as u32 >> 31) == (x.to_bits() >> 31) {
            out.push(n as u32);
        }
    }
}

/// Store inputs for one channel of the image format.
fn channel_store_inputs(kind: ChannelKind, bits: u8) -> Vec<u64> {
    let mut v: Vec<u32> = Vec::new();
    match kind {
        ChannelKind::Unorm | ChannelKind::Snorm => {
            let unorm = kind == ChannelKind::Unorm;
            let scale = if unorm {
                (1u32 << bits) - 1
            } else {
                (1u32 << (bits - 1)) - 1
            };
            // Codes k (as offsets from the lowest), each with its exact value k / scale and
            // the tie (k + ½) / scale between it and k + 1 rounded to f32, with two ulps
            // around it (one for 16-bit channels outside exhaustive runs): where rounding
            // the product in f32 and rounding to even decide.
            let lo = if unorm { 0 } else { -(scale as i64) };
            let ulps = if bits > 8 && !exhaustive() { 1 } else { 2 };
            for off in sweep(bits, 16) {
                let k = lo + off as i64;
                if k > scale as i64 {
                    continue;
                }
                v.push((k as f32 / scale as f32).to_bits());
                with_neighbours(((k as f64 + 0.5) / scale as f64) as f32, ulps, &mut v);
            }
            v.extend([1.5f32, -1.5, 1.000_000_1, -1.000_000_1, 3.0, -3.0].map(f32::to_bits));
        }
        ChannelKind::Float if bits == 16 => {
            // binary16 values (exact in f32), the midpoints between each and the next
            // larger magnitude (exact in f32: 12 significant bits) and one ulp around them;
            // the last finite midpoint is the overflow threshold 65520.
            for h in sweep(16, 16) {
                let h = h as u16;
                v.push(half::f16::from_bits(h).to_f32().to_bits());
                if h & 0x7fff < 0x7c00 {
                    let a = half::f16::from_bits(h).to_f32() as f64;
                    let b = if h & 0x7fff == 0x7bff {
                        65536.0f64.copysign(a)
                    } else {
                        half::f16::from_bits(h + 1).to_f32() as f64
                    };
                    with_neighbours(((a + b) / 2.0) as f32, 1, &mut v);
                }
            }
        }
        ChannelKind::Ufloat => {
            let m = bits - 5;
            let decode = |raw: u32| verify::texel::ufloat_to_f32(raw, m);
            // Every encoding (finite, infinity, NaNs).
            for raw in 0..(1u32 << bits) {
                v.push(decode(raw).to_bits());
            }
            // Midpoints between neighbouring finite values, and around them.
            let max_finite = (31u32 << m) - 1;
            for raw in 0..max_finite {
                let mid = ((decode(raw) as f64 + decode(raw + 1) as f64) / 2.0) as f32;
                with_neighbours(mid, 2, &mut v);
            }
            // Around the largest finite value and the point where rounding would pass it
            // (halfway to 2^16), the smallest normal and denormal, and negative values.
            let maxf = decode(max_finite);
            with_neighbours(maxf, 2, &mut v);
            with_neighbours(((maxf as f64 + 65536.0) / 2.0) as f32, 2, &mut v);
            with_neighbours(65536.0, 2, &mut v);
            with_neighbours(2f32.powi(-14), 2, &mut v);
            with_neighbours(2f32.powi(-14 - m as i32), 2, &mut v);
            with_neighbours(2f32.powi(-15 - m as i32), 2, &mut v);
            for raw in (0..max_finite).step_by(37) {
                v.push((-decode(raw)).to_bits());
            }
        }
        ChannelKind::Float => {}
        ChannelKind::Uint => {
            let max = if bits >= 32 {
                u32::MAX
            } else {
                (1u32 << bits) - 1
            };
            for x in [
                0,
                1,
                max / 2,
                max - 1,
                max,
                0x7fff_ffff,
                0x8000_0000,
                u32::MAX,
            ] {
                v.push(x);
                v.push(x.wrapping_add(1));
            }
        }
        ChannelKind::Sint => {
            let hi = if bits >= 32 {
                i32::MAX
            } else {
                (1i32 << (bits - 1)) - 1
            };
            let lo = if bits >= 32 { i32::MIN } else { -hi - 1 };
            for x in [0, 1, -1, hi, lo, i32::MAX, i32::MIN] {
                for d in -1..=1 {
                    v.push(x.wrapping_add(d) as u32);
                }
            }
        }
        ChannelKind::Raw => {}
    }
    if matches!(
        kind,
        ChannelKind::Unorm | ChannelKind::Snorm | ChannelKind::Float | ChannelKind::Ufloat
    ) {
        v.extend(float_specials());
    }
    let mut seen = BTreeSet::new();
    v.into_iter()
        .filter(|x| seen.insert(*x))
        .map(|x| x as u64)
        .collect()
}

/// Store inputs for a format: each channel runs through its own list (the lists rotated
/// against each other, so every channel sees every value of its list), then random bit
/// patterns, quickcheck's float values and random floats in [-1.5, 1.5].
fn store_inputs(image: Format, g: &mut Gen) -> Vec<[u64; 4]> {
    let layout = reference_layout(image);
    let lists: Vec<Vec<u64>> = (0..4u8)
        .map(|slot| match layout.channel(slot) {
            Some(c) if c.bits == 64 => vec![0, 1, u64::MAX, 1 << 63, (1 << 63) - 1],
            Some(c) => channel_store_inputs(c.kind, c.bits),
            None => vec![0],
        })
        .collect();
    let len = lists.iter().map(Vec::len).max().unwrap();
    let mut out = Vec::with_capacity(len + qc_tests());
    for i in 0..len {
        let mut rgba = [0u64; 4];
        for (c, list) in lists.iter().enumerate() {
            rgba[c] = list[(i + c * 7919) % list.len()];
        }
        out.push(rgba);
    }
    let is64 = layout.is_64bit();
    for _ in 0..qc_tests() {
        let mut rgba = [0u64; 4];
        for x in rgba.iter_mut() {
            *x = if is64 {
                u64::arbitrary(g)
            } else {
                match u8::arbitrary(g) % 4 {
                    // Uniform bit patterns (90%) and quickcheck's problem values.
                    0 | 1 => u32::arbitrary(g) as u64,
                    2 => f32::arbitrary(g).to_bits() as u64,
                    _ => {
                        let m = u32::arbitrary(g);
                        let f = f32::from_bits(0x3f80_0000 | (m & 0x7f_ffff)) - 1.0;
                        let f = if m >> 31 != 0 { -f } else { f } * 1.5;
                        f.to_bits() as u64
                    }
                }
            };
        }
        out.push(rgba);
    }
    out
}

/// Load inputs: texels as little-endian bytes. Formats of up to 16 bits per texel: every
/// texel of [`sweep`]. Wider: each channel of up to 16 bits runs through [`sweep`] of its
/// width (rotated against the other channels), 32-bit channels through specials and
/// random values, 64-bit channels random; then random texels.
fn load_inputs(image: Format, g: &mut Gen) -> Vec<Vec<u8>> {
    let layout = reference_layout(image);
    let nbytes = layout.bytes;
    let mut out = Vec::new();
    if nbytes <= 2 {
        for t in sweep(nbytes as u8 * 8, 8) {
            out.push(t.to_le_bytes()[..nbytes].to_vec());
        }
        return out;
    }
    let specials32: Vec<u64> = float_specials()
        .into_iter()
        .map(|x| x as u64)
        .chain([0x8000_0000, 0x7fff_ffff, 1, 0xffff_fffe])
        .collect();
    let lists: Vec<Vec<u64>> = layout
        .channels
        .iter()
        .map(|c| match c.bits {
            0..=16 => sweep(c.bits, 8),
            32 => specials32.clone(),
            _ => (0..8).map(|_| u64::arbitrary(g)).collect(),
        })
        .collect();
    let steps = lists.iter().map(Vec::len).max().unwrap();
    for i in 0..steps {
        let mut t = vec![0u8; nbytes];
        for (k, (c, list)) in layout.channels.iter().zip(&lists).enumerate() {
            let v = list[(i + k * 7919) % list.len()];
            verify::texel::write_bits(&mut t, c.start_bit, c.bits, v);
        }
        out.push(t);
    }
    for _ in 0..qc_tests() {
        out.push((0..nbytes).map(|_| u8::arbitrary(g)).collect());
    }
    out
}

// ----- the comparisons ----------------------------------------------------------------------

fn hex(v: &[u64]) -> String {
    v.iter()
        .map(|x| format!("{x:#x}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Stores `inputs` through the conversion and the accessed format, and through the
/// reference; returns the first disagreement.
fn check_store(
    device: &Device,
    p: Pair,
    prog: &Program,
    inputs: &[[u64; 4]],
) -> Result<(), String> {
    let reference = reference_layout(p.image);
    let surface = surface_layout(p.access);
    let n = p.access.num_channels() as usize;
    let lanes: Vec<&[u64]> = inputs.iter().map(|x| &x[..]).collect();
    let results = prog.eval_lanes(&lanes);
    for (rgba, words) in inputs.iter().zip(results) {
        let want = reference.encode(rgba).unwrap();
        assert_eq!(words.len(), n, "{}", prog.text);
        let mut data = [0u64; 4];
        data[..n].copy_from_slice(&words);
        let got = surface.encode(&data).unwrap();
        if got != want {
            return Err(format!(
                "store of {} to {} via {}{} on {}: converted to [{}], surface bytes {:02x?}, \
                 reference bytes {:02x?}\n{}",
                hex(rgba),
                p.image,
                p.access,
                if p.raw { " (raw)" } else { "" },
                device.name,
                hex(&words),
                got,
                want,
                prog.text
            ));
        }
    }
    Ok(())
}

/// Loads each texel through the accessed format (with IVB/BYT garbage high bits on
/// R8/R16_UINT reads) and the conversion, and through the reference. The 4-component
/// conversion sees every texel; the 1-component one (the same code trimmed) every 16th.
fn check_load(
    device: &Device,
    p: Pair,
    load4: &Program,
    load1: &Program,
    texels: &[Vec<u8>],
    g: &mut Gen,
) -> Result<(), String> {
    let reference = reference_layout(p.image);
    let surface = surface_layout(p.access);
    let n = p.access.num_channels() as usize;
    let narrow = narrow_read(device, p);
    let words: Vec<SmallVec<[u64; 4]>> = texels
        .iter()
        .map(|t| {
            let mut w: SmallVec<[u64; 4]> = surface.decode(t).unwrap()[..n].into();
            if narrow {
                // The misaligned 32-bit read returns the next texels' bytes above.
                let bits = p.access.channels()[0].bits;
                for x in w.iter_mut() {
                    *x |= ((u32::arbitrary(g) as u64) << bits) & 0xffff_ffff;
                }
            }
            w
        })
        .collect();
    let lanes4: Vec<&[u64]> = words.iter().map(|w| &w[..]).collect();
    let lanes1: Vec<&[u64]> = lanes4.iter().step_by(16).copied().collect();
    let got4 = load4.eval_lanes(&lanes4);
    let got1 = load1.eval_lanes(&lanes1);
    let runs = [(4usize, load4, 1usize, got4), (1, load1, 16, got1)];
    for (dest, prog, step, got) in runs {
        for (i, got) in got.iter().enumerate() {
            let t = &texels[i * step];
            let want = reference.decode(t).unwrap();
            if !load_agrees(&reference, t, got, &want[..dest]) {
                return Err(format!(
                    "load of texel {:02x?} from {} via {}{} on {} ({dest} components): \
                     surface returned [{}], converted to [{}], reference [{}]\n{}",
                    t,
                    p.image,
                    p.access,
                    if p.raw { " (raw)" } else { "" },
                    device.name,
                    hex(&words[i * step]),
                    hex(got),
                    hex(&want[..dest]),
                    prog.text
                ));
            }
        }
    }
    Ok(())
}

/// Whether a load's converted components `got` are the reference decoding `want` of
/// `texel`: bit for bit, or, for a normalized channel, within the 2.5 ULP of its
/// quotient Vulkan's division allows (the conversion divides without `exact`, as
/// Mesa's does; `ir/PRECISION.md`, "Normalized texels").
fn load_agrees(reference: &TexelLayout, texel: &[u8], got: &[u64], want: &[u64]) -> bool {
    let bounds = verify::tolerance::load_bounds(reference, texel, None);
    got.len() == want.len()
        && got.iter().zip(want).enumerate().all(|(c, (g, w))| {
            g == w || bounds[c].is_some_and(|b| ir::bounds::accepts(ir::BaseType::Float, 32, b, *g))
        })
}

/// Builds the store conversion with real constant inputs and reads the result back
/// through the constant-folding pass: the evaluator above must agree with it.
fn const_fold_store(device: &Device, p: Pair, rgba: &[u64; 4]) -> Vec<u64> {
    let mut f = Function::new("store");
    let mut b = Builder::at_end(&mut f);
    let bits = p.image.data_bit_size();
    let input = b.load_const(Type::new(bits, 4).unwrap(), rgba);
    let out = convert_color_for_store(&mut b, device, p.image, p.access, input).unwrap();
    ir::passes::const_fold::fold_function(&mut f);
    ir::passes::const_fold::const_components(&f, Src::new(out))
        .expect("a conversion of constants folds to a constant")
        .to_vec()
}

/// The load conversion (4 components) of constant `words`, read back through the
/// constant-folding pass.
fn const_fold_load(device: &Device, p: Pair, words: &[u64]) -> Vec<u64> {
    let mut f = Function::new("load");
    let mut b = Builder::at_end(&mut f);
    let input = b.load_const(Type::vec32(words.len() as u8), words);
    let out = convert_color_for_load(&mut b, device, p.image, p.access, input, 4).unwrap();
    ir::passes::const_fold::fold_function(&mut f);
    ir::passes::const_fold::const_components(&f, Src::new(out))
        .expect("a conversion of constants folds to a constant")
        .to_vec()
}

/// Whether typed reads of `p.access` on `device` carry garbage above the channel (the
/// IVB/BYT misaligned R8/R16_UINT read).
fn narrow_read(device: &Device, p: Pair) -> bool {
    device.is_gfx7_without_hsw() && !p.raw && matches!(p.access, Format::R8Uint | Format::R16Uint)
}

/// Whether the conversion only trims (store) or expands (load): the image is accessed as
/// itself. The surface then converts with the very same channel layout as the reference
/// (checked here), so agreement on values holds by construction and a thinned input set
/// checks the trimming and the missing channels. IVB/BYT R8/R16_UINT reads are masked
/// and keep the full set.
fn identity(device: &Device, p: Pair) -> bool {
    if p.image != p.access || narrow_read(device, p) {
        return false;
    }
    let (r, s) = (reference_layout(p.image), surface_layout(p.access));
    assert_eq!(
        (r.bytes, &r.channels),
        (s.bytes, &s.channels),
        "{}",
        p.image
    );
    true
}

/// Every 64th element, and the first 64.
fn thin<T>(v: Vec<T>) -> Vec<T> {
    v.into_iter()
        .enumerate()
        .filter(|(i, _)| *i < 64 || i % 64 == 0)
        .map(|(_, x)| x)
        .collect()
}

#[test]
fn every_conversion_agrees_with_the_reference() {
    let mut g = Gen::from_size_and_seed(64, 0xc0_1f_ee);
    // Programs already checked, by formats and emitted code: platforms sharing a
    // lowering emit the same IR and would only repeat the same evaluations. (The raw
    // flag does not matter: raw dwords and an R32*_UINT surface convert alike.)
    let mut done: HashSet<String> = HashSet::new();
    let (mut images, mut narrow, mut raw) = (BTreeSet::new(), 0, 0);
    let mut failures = Vec::new();
    let (mut programs, mut stores, mut loads) = (0usize, 0usize, 0usize);
    for device in Device::presets() {
        for p in pairs(&device) {
            images.insert(p.image);
            narrow += narrow_read(&device, p) as usize;
            raw += p.raw as usize;
            let store = build_store(&device, p);
            let head = format!("{} {} {}", p.image, p.access, narrow_read(&device, p));
            if done.insert(format!("{head}\n{}", store.text)) {
                programs += 1;
                let mut inputs = store_inputs(p.image, &mut g);
                if identity(&device, p) {
                    inputs = thin(inputs);
                }
                stores += inputs.len();
                if let Err(e) = check_store(&device, p, &store, &inputs) {
                    failures.push(e);
                }
                for rgba in inputs.iter().step_by(inputs.len() / 50 + 1) {
                    let folded = const_fold_store(&device, p, rgba);
                    assert_eq!(folded[..], store.eval(rgba)[..], "{p:?} {}", hex(rgba));
                }
            }
            let load4 = build_load(&device, p, 4);
            let load1 = build_load(&device, p, 1);
            let key = format!("{head}\n{}\n{}", load4.text, load1.text);
            if done.insert(key) {
                programs += 1;
                let mut texels = load_inputs(p.image, &mut g);
                if identity(&device, p) {
                    texels = thin(texels);
                }
                loads += texels.len();
                if let Err(e) = check_load(&device, p, &load4, &load1, &texels, &mut g) {
                    failures.push(e);
                }
                for t in texels.iter().step_by(texels.len() / 20 + 1) {
                    let words = &surface_layout(p.access).decode(t).unwrap()
                        [..p.access.num_channels() as usize];
                    let folded = const_fold_load(&device, p, words);
                    assert_eq!(folded[..], load4.eval(words)[..], "{p:?} {t:02x?}");
                }
            }
        }
    }
    eprintln!("{programs} distinct conversions, {stores} store inputs, {loads} load texels");
    // Every storage format was reached, and the IVB/BYT narrow reads and the raw path
    // were among the pairs.
    assert_eq!(images.into_iter().collect::<Vec<_>>(), Format::ALL);
    assert!(narrow > 0 && raw > 0);
    assert!(
        failures.is_empty(),
        "{} conversions disagree with the reference; the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
