//! Reference texel encoding and decoding against hand-computed bit patterns
//! (`docs/hardware/mesa-storage-images.md` §4 worked packings, and the format definitions).

use ir::Format;
use verify::texel::{TexelLayout, F32_ONE};

fn layout(f: Format) -> TexelLayout {
    TexelLayout::from_ir(f).unwrap()
}

fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

fn encode_u32(fmt: Format, rgba: [u64; 4]) -> u32 {
    let bytes = layout(fmt).encode(&rgba).unwrap();
    let mut w = [0u8; 4];
    w[..bytes.len()].copy_from_slice(&bytes);
    u32::from_le_bytes(w)
}

fn decode_u32(fmt: Format, texel: u32) -> [u64; 4] {
    let l = layout(fmt);
    l.decode(&texel.to_le_bytes()[..l.bytes]).unwrap()
}

#[test]
fn rgb10a2_unorm_worked_packing() {
    // r = 1023, g = round_even(511.5) = 512, b = 0, a = 3.
    let p = encode_u32(Format::Rgb10A2Unorm, [f(1.0), f(0.5), f(0.0), f(1.0)]);
    assert_eq!(p, 0xC008_03FF);
    // Decoding: 512 / 1023 and 3 / 3.
    let d = decode_u32(Format::Rgb10A2Unorm, 0xC008_03FF);
    assert_eq!(
        d,
        [f(1.0), (512.0f32 / 1023.0).to_bits() as u64, f(0.0), f(1.0)]
    );
}

#[test]
fn rgb10a2_uint_clamps_each_channel() {
    // (2000, 5, 1023, 7) -> (1023, 5, 1023, 3)
    let p = encode_u32(Format::Rgb10A2Uint, [2000, 5, 1023, 7]);
    assert_eq!(p, 0x3FF | 5 << 10 | 0x3FF << 20 | 3 << 30);
    assert_eq!(p, 0xFFF0_17FF);
    assert_eq!(
        decode_u32(Format::Rgb10A2Uint, 0xFFF0_17FF),
        [1023, 5, 1023, 3]
    );
}

#[test]
fn rgba8_snorm_store_and_load() {
    // -1.0 -> -127 -> 0x81; 0.5 -> round_even(63.5) = 64 -> 0x40; 2.0 clamps to 127.
    let p = encode_u32(Format::Rgba8Snorm, [f(-1.0), f(0.5), f(2.0), f(-0.0)]);
    assert_eq!(p, 0x007F_4081);
    // 0x80 = -128: -128/127 clamps to -1.0; 0x81 = -127 is -1.0 too; 0x40 = 64/127.
    let d = decode_u32(Format::Rgba8Snorm, 0x0040_8180);
    assert_eq!(d[0], f(-1.0));
    assert_eq!(d[1], f(-1.0));
    assert_eq!(d[2], 0x3F01_0204, "64/127 correctly rounded");
    assert_eq!(d[3], f(0.0));
}

#[test]
fn rgba8_unorm_rounds_to_nearest_even_after_clamping() {
    // 0.5 * 255 = 127.5 -> 128; 1.5 -> 255; -0.3 -> 0; NaN -> 0.
    let p = encode_u32(Format::Rgba8Unorm, [f(0.5), f(1.5), f(-0.3), f(f32::NAN)]);
    assert_eq!(p, 0x0000_FF80);
    // 128/255 and 1/255 as correctly rounded f32.
    let d = decode_u32(Format::Rgba8Unorm, 0xFF00_0180);
    assert_eq!(d, [0x3F00_8081, 0x3B80_8081, f(0.0), f(1.0)]);
}

#[test]
fn sixteen_bit_normalized() {
    // 0.25 * 65535 = 16383.75 -> 16384.
    let p = encode_u32(Format::R16Unorm, [f(0.25), 0, 0, 0]);
    assert_eq!(p, 0x4000);
    // 0.5 * 32767 = 16383.5 -> 16384 (even); -0.5 -> -16384 = 0xC000.
    assert_eq!(encode_u32(Format::R16Snorm, [f(0.5), 0, 0, 0]), 0x4000);
    assert_eq!(encode_u32(Format::R16Snorm, [f(-0.5), 0, 0, 0]), 0xC000);
    // 0x8000 = -32768 loads as -1.0.
    assert_eq!(decode_u32(Format::R16Snorm, 0x8000)[0], 0xBF80_0000);
    // RG16: two channels, blue 0 and alpha 1.0 when missing.
    let d = decode_u32(Format::Rg16Unorm, 0xFFFF_0000);
    assert_eq!(d, [f(0.0), f(1.0), 0, F32_ONE]);
}

#[test]
fn integer_formats_clamp_on_store() {
    // RGBA8_UINT: 300 -> 255. RGBA8_SINT: -200 -> -128 (0x80), 200 -> 127.
    assert_eq!(encode_u32(Format::Rgba8Uint, [300, 1, 2, 3]), 0x0302_01FF);
    let sint = encode_u32(
        Format::Rgba8Sint,
        [(-200i32) as u32 as u64, 200, (-1i32) as u32 as u64, 5],
    );
    assert_eq!(sint, 0x05FF_7F80);
    // Loading sign-extends to 32 bits.
    assert_eq!(
        decode_u32(Format::Rgba8Sint, 0x05FF_7F80),
        [0xFFFF_FF80, 0x7F, 0xFFFF_FFFF, 5]
    );
    // 16-bit: 70000 -> 65535; -40000 -> -32768.
    assert_eq!(encode_u32(Format::R16Uint, [70000, 0, 0, 0]), 0xFFFF);
    assert_eq!(
        encode_u32(Format::R16Sint, [(-40000i32) as u32 as u64, 0, 0, 0]),
        0x8000
    );
    // 32-bit channels store unchanged.
    assert_eq!(
        encode_u32(Format::R32Sint, [0xDEAD_BEEF, 0, 0, 0]),
        0xDEAD_BEEF
    );
}

#[test]
fn missing_channels_read_as_zero_zero_zero_one() {
    assert_eq!(decode_u32(Format::R32Uint, 7), [7, 0, 0, 1]);
    assert_eq!(
        decode_u32(Format::R32Float, 0x4040_0000),
        [0x4040_0000, 0, 0, F32_ONE]
    );
    assert_eq!(decode_u32(Format::Rg8Uint, 0x0201), [1, 2, 0, 1]);
}

#[test]
fn half_floats() {
    // 1.0 -> 0x3C00; 65520 is halfway between 65504 and 65536: ties to even = infinity.
    // 1/3 -> 0x3555 (round to nearest), which widens to 0.333251953125 = 0x3EAAA000.
    let p = layout(Format::Rgba16Float)
        .encode(&[f(1.0), f(65520.0), f(1.0 / 3.0), f(-2.0)])
        .unwrap();
    assert_eq!(p, [0x00, 0x3C, 0x00, 0x7C, 0x55, 0x35, 0x00, 0xC0]);
    let d = layout(Format::Rgba16Float).decode(&p).unwrap();
    assert_eq!(d, [f(1.0), f(f32::INFINITY), 0x3EAA_A000, f(-2.0)]);
}

#[test]
fn r11g11b10_from_the_format_definition() {
    // 1.0 = 2^0: exponent 0 + 15 = 15, mantissa 0 -> 15 << 6 = 0x3C0 (11-bit red).
    // 0.5 = 2^-1: 14 << 6 = 0x380 (11-bit green). 0.0 -> 0.
    // Packed: 0x3C0 | 0x380 << 11 | 0 << 22 = 0x1C03C0.
    let p = encode_u32(Format::R11G11B10Float, [f(1.0), f(0.5), f(0.0), 0]);
    assert_eq!(p, 0x001C_03C0);
    assert_eq!(
        decode_u32(Format::R11G11B10Float, 0x001C_03C0),
        [f(1.0), f(0.5), f(0.0), F32_ONE]
    );
    // Blue is 10-bit: 0.5 -> 14 << 5 = 0x1C0 at bit 22.
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [0, 0, f(0.5), 0]),
        0x1C0 << 22
    );
    // Rounding: 1 + 1/128 lies halfway between 1 (mantissa 0) and 1 + 1/64 (mantissa 1):
    // ties to even gives mantissa 0. 1 + 3/128 is halfway between mantissas 1 and 2:
    // even gives 2.
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(1.0078125), 0, 0, 0]),
        0x3C0
    );
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(1.0234375), 0, 0, 0]),
        0x3C2
    );
    // Negative values store 0; finite values above 65024 store the largest finite value
    // (exponent 30, mantissa 63 = 0x7BF); +inf stores 0x7C0; NaN stores a NaN (0x7E0).
    assert_eq!(encode_u32(Format::R11G11B10Float, [f(-3.0), 0, 0, 0]), 0);
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(1.0e6), 0, 0, 0]),
        0x7BF
    );
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(f32::INFINITY), 0, 0, 0]),
        0x7C0
    );
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(f32::NEG_INFINITY), 0, 0, 0]),
        0
    );
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(f32::NAN), 0, 0, 0]),
        0x7E0
    );
    // The 10-bit largest finite value: exponent 30, mantissa 31 = 0x3DF, i.e. 64512.
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [0, 0, f(70000.0), 0]),
        0x3DF << 22
    );
    assert_eq!(
        decode_u32(Format::R11G11B10Float, 0x3DF << 22)[2],
        f(64512.0)
    );
    // Denormals: the 11-bit quantum below 2^-14 is 2^-20.
    assert_eq!(
        encode_u32(Format::R11G11B10Float, [f(2f32.powi(-20)), 0, 0, 0]),
        1
    );
    assert_eq!(decode_u32(Format::R11G11B10Float, 1)[0], f(2f32.powi(-20)));
    // 0x7E0 loads as a quiet NaN.
    assert!(f32::from_bits(decode_u32(Format::R11G11B10Float, 0x7E0)[0] as u32).is_nan());
}

#[test]
fn sixty_four_bit_formats_are_raw() {
    let l = layout(Format::R64Uint);
    let v = 0x0123_4567_89AB_CDEFu64;
    let bytes = l.encode(&[v, 0, 0, 0]).unwrap();
    assert_eq!(bytes, v.to_le_bytes());
    assert_eq!(l.decode(&bytes).unwrap(), [v, 0, 0, 1]);
}

#[test]
fn partial_encode_keeps_other_channels() {
    let l = layout(Format::Rgba8Unorm);
    let mut texel = 0x1122_3344u32.to_le_bytes();
    l.encode_into(&[f(1.0), f(0.0), f(1.0), f(1.0)], 0b0011, &mut texel)
        .unwrap();
    assert_eq!(u32::from_le_bytes(texel), 0x1122_00FF);
}

#[test]
fn formats_without_a_layout_are_errors() {
    let e = TexelLayout::from_ir(Format::None).unwrap_err();
    assert!(e.to_string().contains("unknown"), "{e}");
    let l = layout(Format::R32Uint);
    assert!(l.decode(&[0, 0]).is_err());
}
