//! Colour conversion, checked on values: the worked packings of docs/hardware/mesa-storage-images.md §4,
//! hand-computed cases for every format class, and load/store round trips.
//!
//! A conversion is built on constant inputs and the straight-line result is evaluated
//! with `ir::eval` (NIR's ALU semantics), independently of the lowering.

use ir::eval::{eval_alu, Operand};
use ir::function::InstKind;
use ir::{Builder, Format, Function, Src, Type, Value};
use lowering::convert::{convert_color_for_load, convert_color_for_store};
use lowering::Device;
use std::collections::HashMap;

fn dev(n: &str) -> Device {
    Device::preset(n).unwrap()
}

/// Evaluates every instruction of a straight-line function of constants and ALU ops.
fn evaluate(f: &Function) -> HashMap<Value, Vec<u64>> {
    let mut vals: HashMap<Value, Vec<u64>> = HashMap::new();
    for i in f.insts_in_order() {
        let data = f.inst(i);
        let Some(dest) = data.dest else { continue };
        let out = match &data.kind {
            InstKind::LoadConst(c) => c.to_vec(),
            InstKind::Alu(a) => {
                let reads: Vec<(u8, Vec<u64>)> = a
                    .srcs
                    .iter()
                    .map(|s| {
                        let v = &vals[&s.value];
                        let n = f.src_components(*s);
                        let comps = (0..n).map(|c| v[s.swizzle.component(c) as usize]).collect();
                        (f.value_type(s.value).bit_size(), comps)
                    })
                    .collect();
                let ops: Vec<Operand> = reads.iter().map(|(b, c)| Operand::new(*b, c)).collect();
                eval_alu(a.op, f.value_type(dest), &ops)
                    .unwrap_or_else(|e| panic!("{}: {e:?}", a.op.name()))
                    .to_vec()
            }
            other => panic!("unexpected instruction {other:?}"),
        };
        vals.insert(dest, out);
    }
    vals
}

fn consts(b: &mut Builder, bits: u8, vals: &[u64]) -> Value {
    b.load_const(Type::new(bits, vals.len() as u8).unwrap(), vals)
}

/// Loads: `raw` is what the typed message returns (one dword per lowered channel).
fn load(device: &str, image: Format, lower: Format, raw: &[u32], dest: u8) -> Vec<u64> {
    let mut f = Function::new("t");
    let mut b = Builder::at_end(&mut f);
    let v = consts(
        &mut b,
        32,
        &raw.iter().map(|&x| x as u64).collect::<Vec<_>>(),
    );
    let out = convert_color_for_load(&mut b, &dev(device), image, lower, v, dest).unwrap();
    evaluate(&f)[&out].clone()
}

/// Stores: `data` is the shader's value (32-bit, or 64-bit for R64 formats).
fn store(device: &str, image: Format, lower: Format, data: &[u64]) -> Vec<u64> {
    let mut f = Function::new("t");
    let mut b = Builder::at_end(&mut f);
    let v = consts(&mut b, image.data_bit_size(), data);
    let out = convert_color_for_store(&mut b, &dev(device), image, lower, v).unwrap();
    evaluate(&f)[&out].clone()
}

fn fl(x: f32) -> u64 {
    x.to_bits() as u64
}

fn fls(xs: &[f32]) -> Vec<u64> {
    xs.iter().map(|&x| fl(x)).collect()
}

fn ints(xs: &[i64]) -> Vec<u64> {
    xs.iter().map(|&x| x as u32 as u64).collect()
}

// ----- docs/hardware/mesa-storage-images.md §4 worked packings
// --------------------------------------------

#[test]
fn worked_rgb10a2_unorm_store() {
    // (1.0, 0.5, 0.0, 1.0) -> 1023 | 512<<10 | 0<<20 | 3<<30.
    let out = store(
        "tgl",
        Format::Rgb10A2Unorm,
        Format::R32Uint,
        &fls(&[1.0, 0.5, 0.0, 1.0]),
    );
    assert_eq!(out, [0xC008_03FF]);
}

#[test]
fn worked_rgba8_snorm_store_minus_one() {
    let out = store(
        "skl",
        Format::Rgba8Snorm,
        Format::R32Uint,
        &fls(&[-1.0, 0.0, 0.0, 0.0]),
    );
    assert_eq!(out, [0x0000_0081]);
}

#[test]
fn worked_rgba8_snorm_load_0x80() {
    let out = load(
        "skl",
        Format::Rgba8Snorm,
        Format::R32Uint,
        &[0x0000_0080],
        4,
    );
    assert_eq!(out, fls(&[-1.0, 0.0, 0.0, 0.0]));
}

// ----- every format class --------------------------------------------------------------

#[test]
fn unorm8_packed() {
    // IVB: RGBA8_UNORM is read as R32_UINT. Bytes R=0x00, G=0x40, B=0x80, A=0xff.
    let out = load(
        "ivb",
        Format::Rgba8Unorm,
        Format::R32Uint,
        &[0xFF80_4000],
        4,
    );
    assert_eq!(out, fls(&[0.0, 64.0 / 255.0, 128.0 / 255.0, 1.0]));
    // fsat clamps, 127.5 rounds to even 128.
    let out = store(
        "ivb",
        Format::Rgba8Unorm,
        Format::R32Uint,
        &fls(&[2.0, -1.0, 0.5, 1.0]),
    );
    assert_eq!(out, [0xFF80_00FF]);
}

#[test]
fn unorm8_hsw_homogeneous() {
    // HSW reads RGBA8_UNORM as RGBA8_UINT: one channel per dword.
    let out = load(
        "hsw",
        Format::Rgba8Unorm,
        Format::Rgba8Uint,
        &[255, 0, 51, 1],
        4,
    );
    assert_eq!(out, fls(&[1.0, 0.0, 51.0 / 255.0, 1.0 / 255.0]));
    let out = store(
        "hsw",
        Format::Rgba8Unorm,
        Format::Rgba8Uint,
        &fls(&[1.0, 0.0, 0.2, 0.25]),
    );
    // 0.2 * 255 = 51; 0.25 * 255 = 63.75 -> 64.
    assert_eq!(out, [255, 0, 51, 64]);
}

#[test]
fn unorm16_split_from_two_dwords() {
    // Gfx9: RGBA16_UNORM as R32G32_UINT; R in the low half of dword 0.
    let out = load(
        "skl",
        Format::Rgba16Unorm,
        Format::Rg32Uint,
        &[0x0000_FFFF, 0x8000_0001],
        4,
    );
    assert_eq!(out, fls(&[1.0, 0.0, 1.0 / 65535.0, 32768.0 / 65535.0]));
    let out = store(
        "skl",
        Format::Rgba16Unorm,
        Format::Rg32Uint,
        &fls(&[1.0, 0.0, 0.5, 0.25]),
    );
    // 0.5 * 65535 = 32767.5 -> 32768; 0.25 * 65535 = 16383.75 -> 16384.
    assert_eq!(out, [0x0000_FFFF, 0x4000_8000]);
}

#[test]
fn snorm16_packed() {
    // RG16_SNORM on SKL as R32_UINT: R = 0x7fff (1.0), G = 0x8000 (-32768/32767 -> -1.0).
    let out = load("skl", Format::Rg16Snorm, Format::R32Uint, &[0x8000_7FFF], 4);
    assert_eq!(out, fls(&[1.0, -1.0, 0.0, 1.0]));
    // 0.5 * 32767 = 16383.5 -> 16384 (even); -0.25 * 32767 = -8191.75 -> -8192.
    let out = store(
        "skl",
        Format::Rg16Snorm,
        Format::R32Uint,
        &fls(&[0.5, -0.25, 9.0, 9.0]),
    );
    assert_eq!(out, [0xE000_4000]);
}

#[test]
fn snorm8_single_channel() {
    // R8_SNORM on SKL as R8_UINT: 0x81 = -127 -> -1.0; 0x40 = 64 -> 64/127.
    assert_eq!(
        load("skl", Format::R8Snorm, Format::R8Uint, &[0x81], 1),
        fls(&[-1.0])
    );
    assert_eq!(
        load("skl", Format::R8Snorm, Format::R8Uint, &[0x40], 1),
        fls(&[64.0 / 127.0])
    );
    assert_eq!(
        store("skl", Format::R8Snorm, Format::R8Uint, &fls(&[-0.5])),
        [0xC0]
    );
}

#[test]
fn rgba8_uint_packed_with_clamp() {
    let out = load("ivb", Format::Rgba8Uint, Format::R32Uint, &[0x0403_0201], 4);
    assert_eq!(out, [1, 2, 3, 4]);
    let out = store("ivb", Format::Rgba8Uint, Format::R32Uint, &[300, 1, 2, 255]);
    assert_eq!(out, [0xFF02_01FF]);
}

#[test]
fn rgba8_sint_sign_extends_and_clamps() {
    // HSW: RGBA8_SINT read as RGBA8_UINT, sign-extended in the shader.
    let out = load(
        "hsw",
        Format::Rgba8Sint,
        Format::Rgba8Uint,
        &[0xFF, 0x80, 0x7F, 0x01],
        4,
    );
    assert_eq!(out, ints(&[-1, -128, 127, 1]));
    let out = store(
        "hsw",
        Format::Rgba8Sint,
        Format::Rgba8Uint,
        &ints(&[-200, 200, -1, 5]),
    );
    assert_eq!(out, [0x80, 0x7F, 0xFF, 0x05]);
    // IVB packs them into one dword, arithmetic shifts on the way out.
    let out = load(
        "ivb",
        Format::Rgba8Sint,
        Format::R32Uint,
        &[0x01_7F_80_FF],
        4,
    );
    assert_eq!(out, ints(&[-1, -128, 127, 1]));
}

#[test]
fn rg16_float_packed() {
    // IVB: RG16_FLOAT as R32_UINT. 0x3c00 = 1.0, 0xc000 = -2.0.
    let out = load("ivb", Format::Rg16Float, Format::R32Uint, &[0xC000_3C00], 4);
    assert_eq!(out, fls(&[1.0, -2.0, 0.0, 1.0]));
    let out = store(
        "ivb",
        Format::Rg16Float,
        Format::R32Uint,
        &fls(&[1.0, -2.0]),
    );
    assert_eq!(out, [0xC000_3C00]);
}

#[test]
fn rg16_uint_and_sint() {
    let out = load("ivb", Format::Rg16Uint, Format::R32Uint, &[0xFFFF_0001], 1);
    assert_eq!(out, [1]);
    let out = store(
        "ivb",
        Format::Rg16Sint,
        Format::R32Uint,
        &ints(&[-1, 40000]),
    );
    assert_eq!(out, [0x7FFF_FFFF]);
    let out = load(
        "hsw",
        Format::Rg16Sint,
        Format::Rg16Uint,
        &[0xFFFF, 0x8000],
        2,
    );
    assert_eq!(out, ints(&[-1, -32768]));
}

#[test]
fn rgb10a2() {
    let out = load(
        "tgl",
        Format::Rgb10A2Unorm,
        Format::R32Uint,
        &[0xC008_03FF],
        4,
    );
    assert_eq!(out, fls(&[1.0, 512.0 / 1023.0, 0.0, 1.0]));
    let out = load(
        "ivb",
        Format::Rgb10A2Uint,
        Format::R32Uint,
        &[0xC008_03FF],
        4,
    );
    assert_eq!(out, [1023, 512, 0, 3]);
    // 2000 -> 1023, 9 -> 3.
    let out = store(
        "skl",
        Format::Rgb10A2Uint,
        Format::R32Uint,
        &[2000, 5, 6, 9],
    );
    assert_eq!(out, [0xC060_17FF]);
}

#[test]
fn r11g11b10() {
    // R11 1.0 = exponent 15 -> 0x3c0; G11 2.0 = 0x400 << 11; B10 0.5 = 0x1c0 << 22.
    let packed = 0x3C0 | (0x400 << 11) | (0x1C0 << 22);
    assert_eq!(packed, 0x7020_03C0);
    let out = store(
        "tgl",
        Format::R11G11B10Float,
        Format::R32Uint,
        &fls(&[1.0, 2.0, 0.5, 7.0]),
    );
    assert_eq!(out, [packed as u64]);
    let out = load("tgl", Format::R11G11B10Float, Format::R32Uint, &[packed], 4);
    assert_eq!(out, fls(&[1.0, 2.0, 0.5, 1.0]));
    // Negative values clamp to 0 (the channels are unsigned); B10 1.0 = 15 << 5.
    let out = store(
        "tgl",
        Format::R11G11B10Float,
        Format::R32Uint,
        &fls(&[-3.0, 0.0, 1.0]),
    );
    assert_eq!(out, [0x1E0 << 22]);
}

#[test]
fn half_floats() {
    // HSW: RGBA16_FLOAT as RGBA16_UINT.
    let out = load(
        "hsw",
        Format::Rgba16Float,
        Format::Rgba16Uint,
        &[0x3C00, 0xBC00, 0, 0x7C00],
        4,
    );
    assert_eq!(out, fls(&[1.0, -1.0, 0.0, f32::INFINITY]));
    let out = store(
        "hsw",
        Format::Rgba16Float,
        Format::Rgba16Uint,
        &fls(&[1.5, -0.5, 0.0, 65504.0]),
    );
    assert_eq!(out, [0x3E00, 0xB800, 0x0000, 0x7BFF]);
    // R16_FLOAT on IVB as R16_UINT: the garbage high half is masked off.
    let out = load("ivb", Format::R16Float, Format::R16Uint, &[0xDEAD_3C00], 1);
    assert_eq!(out, fls(&[1.0]));
}

#[test]
fn ints_with_clamping() {
    assert_eq!(
        store("ivb", Format::R16Sint, Format::R16Uint, &ints(&[70000])),
        [0x7FFF]
    );
    assert_eq!(
        store("ivb", Format::R16Sint, Format::R16Uint, &ints(&[-70000])),
        [0x8000]
    );
    // IVB: mask the misaligned read, then sign-extend.
    assert_eq!(
        load("ivb", Format::R16Sint, Format::R16Uint, &[0xABCD_8000], 1),
        ints(&[-32768])
    );
    assert_eq!(
        store("hsw", Format::R8Sint, Format::R8Uint, &ints(&[-129])),
        [0x80]
    );
    assert_eq!(
        store("hsw", Format::Rg8Uint, Format::Rg8Uint, &[256, 3]),
        [256, 3]
    );
    // IVB RG8_UINT as R16_UINT: clamp and combine; read back through the mask.
    assert_eq!(
        store("ivb", Format::Rg8Uint, Format::R16Uint, &[256, 3]),
        [0x03FF]
    );
    assert_eq!(
        load("ivb", Format::Rg8Uint, Format::R16Uint, &[0xFFFF_0201], 4),
        [1, 2, 0, 1]
    );
    // IVB R8_UINT images read as R8_UINT: masked too (deviation from Mesa, see convert.rs).
    assert_eq!(
        load("ivb", Format::R8Uint, Format::R8Uint, &[0x1234_5678], 1),
        [0x78]
    );
    assert_eq!(
        load("hsw", Format::R8Uint, Format::R8Uint, &[0x78], 1),
        [0x78]
    );
}

#[test]
fn missing_channels() {
    assert_eq!(
        load("dg2", Format::R32Uint, Format::R32Uint, &[7], 4),
        [7, 0, 0, 1]
    );
    assert_eq!(
        load(
            "dg2",
            Format::R32Float,
            Format::R32Float,
            &[fl(2.5) as u32],
            4
        ),
        fls(&[2.5, 0.0, 0.0, 1.0])
    );
    assert_eq!(
        load("dg2", Format::Rg32Sint, Format::Rg32Sint, &[5, 6], 4),
        [5, 6, 0, 1]
    );
    assert_eq!(
        load(
            "dg2",
            Format::R11G11B10Float,
            Format::R11G11B10Float,
            &[1, 2, 3],
            4
        )[3],
        fl(1.0)
    );
    // Stores ignore components past the format's channels.
    assert_eq!(
        store("dg2", Format::Rg32Uint, Format::Rg32Uint, &[1, 2, 3, 4]),
        [1, 2]
    );
}

#[test]
fn r64_passthrough() {
    let out = load(
        "skl",
        Format::R64Uint,
        Format::Rg32Uint,
        &[0x9ABC_DEF0, 0x1234_5678],
        1,
    );
    assert_eq!(out, [0x1234_5678_9ABC_DEF0]);
    // Missing channels of a 64-bit load: G, B = 0, A = integer 1.
    let out = load("skl", Format::R64Sint, Format::Rg32Uint, &[1, 0], 4);
    assert_eq!(out, [1, 0, 0, 1]);
    let out = store(
        "skl",
        Format::R64Uint,
        Format::Rg32Uint,
        &[0x1234_5678_9ABC_DEF0],
    );
    assert_eq!(out, [0x9ABC_DEF0, 0x1234_5678]);
}

// ----- round trips -----------------------------------------------------------------------

/// A fixed-seed xorshift generator (deterministic runs).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// Whether a stored word decodes to a value that does not survive load + store: the
/// most negative SNORM code (it reads as -1.0, which writes back as -(2^(n-1)-1)), and
/// float NaNs whose bits the store does not reproduce: a binary16 NaN may lose payload
/// bits through float32, and an R11G11B10 store writes every NaN as the canonical one
/// (exponent 31 with only the top mantissa bit: 0x7e0 in 11 bits, 0x3f0 in 10; see
/// `pack_11f11f10f` in convert.rs), so only that NaN survives. Infinities survive.
fn lossy(image: Format, lower: Format, words: &[u32]) -> bool {
    let chans = image.channels();
    let lb = lower.channels()[0].bits as u32;
    // Gather the image channels' bit fields, LSB first across the words.
    let mut bitpos = 0u32;
    for c in chans {
        let w = c.bits as u32;
        let word = words[(bitpos / lb) as usize] as u64;
        let v = (word >> (bitpos % lb)) & ((1u64 << w) - 1);
        bitpos += w;
        let lossy = match (c.kind, w) {
            (ir::ChannelKind::Snorm, _) => v == 1 << (w - 1),
            (ir::ChannelKind::Float, 16) => (v >> 10) & 0x1f == 0x1f && v & 0x3ff != 0,
            (ir::ChannelKind::Float, 11) => (v >> 6) & 0x1f == 0x1f && v & 0x3f != 0 && v != 0x7e0,
            (ir::ChannelKind::Float, 10) => (v >> 5) & 0x1f == 0x1f && v & 0x1f != 0 && v != 0x3f0,
            _ => false,
        };
        if lossy {
            return true;
        }
    }
    false
}

#[test]
fn load_then_store_gives_back_the_texel() {
    let cases = round_trip_cases();
    for d in Device::presets() {
        for &image in Format::ALL {
            let Ok(lowering::StorageAccess::Typed(lower)) = lowering::storage_access(&d, image)
            else {
                continue;
            };
            if image == lower || matches!(image, Format::R64Uint | Format::R64Sint) {
                continue;
            }
            let lb = lower.channels()[0].bits as u32;
            let mask = if lb == 32 { u32::MAX } else { (1 << lb) - 1 };
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ image as u64);
            let mut tried = 0;
            for n in 0..cases {
                let words: Vec<u32> = (0..lower.num_channels())
                    .map(|_| match n {
                        0 => 0,
                        1 => mask,
                        _ => rng.next() & mask,
                    })
                    .collect();
                if lossy(image, lower, &words) {
                    continue;
                }
                tried += 1;
                let loaded = load(d.name.as_str(), image, lower, &words, 4);
                let stored = store(d.name.as_str(), image, lower, &loaded);
                let want: Vec<u64> = words.iter().map(|&w| w as u64).collect();
                assert_eq!(
                    stored, want,
                    "{image} via {lower} on {}: {words:x?}",
                    d.name
                );
            }
            assert!(tried > cases / 2, "{image} on {}", d.name);
        }
    }
}

/// Round-trip cases per format and platform; `QC_TESTS` scales it up.
fn round_trip_cases() -> usize {
    std::env::var("QC_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

#[test]
fn ivb_high_garbage_is_ignored() {
    // On IVB/BYT, R8/R16_UINT reads may carry the neighbouring texel in the high bits.
    for name in ["ivb", "byt"] {
        let clean = load(name, Format::Rg8Snorm, Format::R16Uint, &[0x0000_7F81], 4);
        let dirty = load(name, Format::Rg8Snorm, Format::R16Uint, &[0xFFFF_7F81], 4);
        assert_eq!(clean, dirty);
        assert_eq!(clean, fls(&[-1.0, 1.0, 0.0, 1.0]));
    }
}

#[test]
fn conversion_reads_swizzled_sources() {
    // The value can come through a swizzle (the channels in reverse order here).
    let mut f = Function::new("t");
    let mut b = Builder::at_end(&mut f);
    let v = consts(&mut b, 32, &[4, 3, 2, 1]);
    let rev = Src::swizzled(v, &[3, 2, 1, 0]).unwrap();
    let out = convert_color_for_store(&mut b, &dev("ivb"), Format::Rgba8Uint, Format::R32Uint, rev)
        .unwrap();
    assert_eq!(evaluate(&f)[&out], [0x0403_0201]);
}

#[test]
fn worked_packings_fold_to_constants() {
    // The §4 worked packings again, read back through the const-fold pass.
    let mut f = Function::new("t");
    let mut b = Builder::at_end(&mut f);
    let rgb10a2 = consts(&mut b, 32, &fls(&[1.0, 0.5, 0.0, 1.0]));
    let a = convert_color_for_store(
        &mut b,
        &dev("tgl"),
        Format::Rgb10A2Unorm,
        Format::R32Uint,
        rgb10a2,
    )
    .unwrap();
    let snorm = consts(&mut b, 32, &fls(&[-1.0, 0.0, 0.0, 0.0]));
    let s = convert_color_for_store(
        &mut b,
        &dev("skl"),
        Format::Rgba8Snorm,
        Format::R32Uint,
        snorm,
    )
    .unwrap();
    let byte = consts(&mut b, 32, &[0x80]);
    let l = convert_color_for_load(
        &mut b,
        &dev("skl"),
        Format::Rgba8Snorm,
        Format::R32Uint,
        byte,
        1,
    )
    .unwrap();
    ir::passes::const_fold::fold_function(&mut f);
    let read = |v: Value| {
        ir::passes::const_fold::const_components(&f, Src::new(v))
            .unwrap()
            .to_vec()
    };
    assert_eq!(read(a), [0xC008_03FF]);
    assert_eq!(read(s), [0x81]);
    assert_eq!(read(l), [fl(-1.0)]);
}
