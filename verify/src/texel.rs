//! The reference encoding and decoding of texels, written from the format definitions.
//!
//! This is the executor's own implementation of every storage format, independent of the
//! shader-side conversion code the lowering emits (`docs/hardware/mesa-storage-images.md` §4), so that the
//! verifier can check that code against it. Both the high-level image intrinsics (the
//! linear reference) and the hardware's surface-format conversion of typed messages and
//! sampler loads use it: the hardware converts exactly, with the same rules.
//!
//! A texel is decoded into four *register values*, one per channel in RGBA order, the
//! way a shader sees them:
//! * UNORM, SNORM and FLOAT channels (16, 32 bits, and the unsigned 11/10-bit floats)
//!   become the bits of an `f32`; 64-bit float channels stay 64-bit doubles;
//! * UINT channels become their value; SINT channels are sign-extended to 32 bits (a
//!   register value is the low 32 bits, two's complement); 64-bit channels are 64-bit;
//! * missing channels read as (0, 0, 0, 1): green and blue 0, alpha integer 1 for formats
//!   with integer channels and 1.0 otherwise (`docs/hardware/mesa-storage-images.md` §4, load step 7).
//!
//! Encoding takes register values of the same kinds:
//! * UNORM: `round_even(fsat(f) ⊗ (2^b − 1))` where `⊗` is the binary32 product (rounded
//!   to nearest even), as GPUs compute it; NaN stores 0;
//! * SNORM: `round_even(clamp(f, −1, 1) ⊗ (2^(b−1) − 1))`, in binary32 too; NaN stores 0;
//! * 16-bit FLOAT: `f32` to binary16, round to nearest even with gradual underflow
//!   (the `half` crate), overflow to infinity; a NaN keeps its sign and its top ten
//!   mantissa bits and gets the quiet bit (as F16C's `vcvtps2ph` does). `ir::eval`'s
//!   `pack_half_2x16_split`, which the shader-side conversion uses, is the same function;
//! * unsigned small floats (R11G11B10): 5-bit exponent with bias 15, 6- or 5-bit
//!   mantissa, no sign bit. Finite values round to nearest even; negative values and
//!   −∞ store 0; finite values above the largest finite value (65024 for 11 bits, 64512
//!   for 10 bits) store that value; +∞ stores ∞; any NaN (of either sign) stores the
//!   canonical NaN, exponent 31 and the top mantissa bit (0x7e0 for 11 bits, 0x3f0 for
//!   10 bits). These are the rules of `GL_EXT_packed_float` and of the Vulkan spec
//!   ("Unsigned 11-Bit / 10-Bit Floating-Point Numbers"), with their preferred
//!   round-to-nearest, denormals kept;
//! * UINT: `umin(x, 2^b − 1)`; SINT: `clamp(x, −2^(b−1), 2^(b−1) − 1)` (no-ops at 32 bits);
//! * 32- and 64-bit FLOAT and raw channels store their bits unchanged.
//!
//! Decoding UNORM is `u / (2^b − 1)` and SNORM `max(s / (2^(b−1) − 1), −1)`, each one
//! correctly rounded `f32` division (the shader-side `fdiv`; the same as the exact
//! quotient rounded once to `f32`); binary16 and the small floats widen exactly (a NaN
//! becomes a quiet NaN whose payload is the narrow mantissa in the top bits).
//!
//! These definitions are the ones the shader-side conversion of `lowering::convert`
//! implements bit for bit (checked for every format and platform by
//! `tests/convert_vs_reference.rs`): where Mesa's conversion differs (R11G11B10 through
//! binary16, SNORM NaN), the lowering follows the definitions here.

use std::fmt;

/// How a channel's bits are interpreted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// Unsigned normalized.
    Unorm,
    /// Signed normalized.
    Snorm,
    /// Unsigned integer.
    Uint,
    /// Signed integer.
    Sint,
    /// IEEE float: 16, 32 or 64 bits.
    Float,
    /// Unsigned float without a sign bit: a 5-bit exponent and `bits − 5` mantissa bits.
    Ufloat,
    /// Raw bits (`R64_PASSTHRU`).
    Raw,
}

/// One channel of a texel layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelChannel {
    /// The logical channel: 0 = R, 1 = G, 2 = B, 3 = A.
    pub slot: u8,
    /// First bit inside the little-endian texel.
    pub start_bit: u16,
    /// Width in bits.
    pub bits: u8,
    /// Interpretation.
    pub kind: ChannelKind,
}

/// Why a format cannot be encoded or decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TexelError {
    /// The format has no texel layout this module can convert (no format, compressed,
    /// sRGB, or a channel width the kind does not allow).
    Unsupported {
        /// The format's name.
        format: String,
        /// Why.
        reason: &'static str,
    },
    /// A byte slice has the wrong length for the texel.
    Length {
        /// Bytes expected.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
}

impl fmt::Display for TexelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TexelError::Unsupported { format, reason } => {
                write!(f, "format `{format}` cannot be converted: {reason}")
            }
            TexelError::Length { expected, found } => {
                write!(f, "a texel is {expected} bytes, got {found}")
            }
        }
    }
}

impl std::error::Error for TexelError {}

/// The bits of `1.0f`.
pub const F32_ONE: u64 = 0x3f80_0000;

/// A texel layout: its size and channels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexelLayout {
    /// The format's name, for messages.
    pub name: String,
    /// Bytes per texel.
    pub bytes: usize,
    /// The channels, in any order.
    pub channels: Vec<TexelChannel>,
}

impl TexelLayout {
    /// A layout from its channels; checks that every channel fits the texel and has a
    /// width its kind allows.
    pub fn new(
        name: impl Into<String>,
        bytes: usize,
        channels: Vec<TexelChannel>,
    ) -> Result<TexelLayout, TexelError> {
        let name = name.into();
        let unsupported = |reason| TexelError::Unsupported {
            format: name.clone(),
            reason,
        };
        if channels.is_empty() {
            return Err(unsupported("it has no channels"));
        }
        if bytes == 0 || bytes > 16 {
            return Err(unsupported("texels must be 1 to 16 bytes"));
        }
        for c in &channels {
            if c.slot > 3 {
                return Err(unsupported("a channel slot is not R, G, B or A"));
            }
            if c.bits == 0 || c.start_bit as usize + c.bits as usize > bytes * 8 {
                return Err(unsupported("a channel does not fit the texel"));
            }
            let ok = match c.kind {
                ChannelKind::Unorm | ChannelKind::Snorm => c.bits >= 2 && c.bits <= 24,
                ChannelKind::Uint | ChannelKind::Sint => c.bits <= 32 || c.bits == 64,
                ChannelKind::Float => matches!(c.bits, 16 | 32 | 64),
                ChannelKind::Ufloat => (7..=16).contains(&c.bits),
                ChannelKind::Raw => c.bits == 32 || c.bits == 64,
            };
            if !ok {
                return Err(unsupported("a channel width is not valid for its kind"));
            }
        }
        Ok(TexelLayout {
            name,
            bytes,
            channels,
        })
    }

    /// The layout of an IR (GLSL/NIR-named) format: channels R, G, B, A packed from bit 0.
    pub fn from_ir(format: ir::Format) -> Result<TexelLayout, TexelError> {
        let mut channels = Vec::new();
        let mut bit = 0u16;
        for (slot, c) in format.channels().iter().enumerate() {
            let kind = match (c.kind, c.bits) {
                (ir::ChannelKind::Unorm, _) => ChannelKind::Unorm,
                (ir::ChannelKind::Snorm, _) => ChannelKind::Snorm,
                (ir::ChannelKind::Uint, _) => ChannelKind::Uint,
                (ir::ChannelKind::Sint, _) => ChannelKind::Sint,
                (ir::ChannelKind::Float, 16 | 32 | 64) => ChannelKind::Float,
                (ir::ChannelKind::Float, _) => ChannelKind::Ufloat,
            };
            channels.push(TexelChannel {
                slot: slot as u8,
                start_bit: bit,
                bits: c.bits,
                kind,
            });
            bit += c.bits as u16;
        }
        if format == ir::Format::None {
            return Err(TexelError::Unsupported {
                format: ir::Format::None.name().into(),
                reason: "an image without a format qualifier has no texel layout",
            });
        }
        TexelLayout::new(format.name(), (bit as usize).div_ceil(8), channels)
    }

    /// The layout of an isl surface format (the surface-state format a typed message or
    /// the sampler converts with).
    pub fn from_isl(format: tiling::Format) -> Result<TexelLayout, TexelError> {
        let unsupported = |reason| TexelError::Unsupported {
            format: format.name().to_string(),
            reason,
        };
        if format.is_compressed() {
            return Err(unsupported("it is block-compressed"));
        }
        if format.is_srgb() {
            return Err(unsupported("sRGB formats are not storage formats"));
        }
        if format.is_yuv() {
            return Err(unsupported("YUV formats are not storage formats"));
        }
        let channels = format
            .channels()
            .iter()
            .map(|c| {
                Ok(TexelChannel {
                    slot: match c.name {
                        tiling::ChannelName::R => 0,
                        tiling::ChannelName::G => 1,
                        tiling::ChannelName::B => 2,
                        tiling::ChannelName::A => 3,
                        _ => {
                            return Err(unsupported(
                                "luminance, intensity and palette channels are not storage \
                                 format channels",
                            ))
                        }
                    },
                    start_bit: c.start_bit as u16,
                    bits: c.bits,
                    kind: match c.ty {
                        tiling::ChannelType::Unorm => ChannelKind::Unorm,
                        tiling::ChannelType::Snorm => ChannelKind::Snorm,
                        tiling::ChannelType::Uint => ChannelKind::Uint,
                        tiling::ChannelType::Sint => ChannelKind::Sint,
                        tiling::ChannelType::Float => ChannelKind::Float,
                        tiling::ChannelType::Ufloat => ChannelKind::Ufloat,
                        tiling::ChannelType::Raw => ChannelKind::Raw,
                        _ => {
                            return Err(unsupported(
                                "scaled and fixed-point channels are not storage format \
                                 channels",
                            ))
                        }
                    },
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        TexelLayout::new(format.name(), (format.bpb() / 8) as usize, channels)
    }

    /// Whether missing alpha reads as integer 1 (the format has an integer channel)
    /// rather than 1.0.
    pub fn is_integer(&self) -> bool {
        self.channels.iter().any(|c| {
            matches!(
                c.kind,
                ChannelKind::Uint | ChannelKind::Sint | ChannelKind::Raw
            )
        })
    }

    /// The channel in slot `slot` (0 = R), if the format has it.
    pub fn channel(&self, slot: u8) -> Option<&TexelChannel> {
        self.channels.iter().find(|c| c.slot == slot)
    }

    /// Whether the format has a channel of 64 bits (whose register values are 64-bit).
    pub fn is_64bit(&self) -> bool {
        self.channels.iter().any(|c| c.bits == 64)
    }

    /// The decoded channels `rgba` as text, in RGBA order: integer channels in decimal,
    /// the others as the floats they decode to (64-bit channels as `f64`).
    pub fn channel_texts(&self, rgba: &[u64; 4]) -> Vec<String> {
        let mut chans: Vec<&TexelChannel> = self.channels.iter().collect();
        chans.sort_by_key(|c| c.slot);
        chans
            .iter()
            .map(|c| {
                let v = rgba[c.slot as usize];
                match c.kind {
                    ChannelKind::Uint | ChannelKind::Raw => v.to_string(),
                    ChannelKind::Sint if c.bits == 64 => (v as i64).to_string(),
                    ChannelKind::Sint => (v as u32 as i32).to_string(),
                    _ if c.bits == 64 => format!("{:?}", f64::from_bits(v)),
                    _ => format!("{:?}", f32::from_bits(v as u32)),
                }
            })
            .collect()
    }

    /// Decodes one texel into register values, RGBA order.
    pub fn decode(&self, texel: &[u8]) -> Result<[u64; 4], TexelError> {
        self.check_len(texel.len())?;
        let missing_alpha = if self.is_integer() { 1 } else { F32_ONE };
        let mut out = [0, 0, 0, missing_alpha];
        for c in &self.channels {
            let raw = read_bits(texel, c.start_bit, c.bits);
            out[c.slot as usize] = decode_channel(c.kind, c.bits, raw);
        }
        Ok(out)
    }

    /// Encodes register values (RGBA order) into a whole texel.
    pub fn encode(&self, rgba: &[u64; 4]) -> Result<Vec<u8>, TexelError> {
        let mut texel = vec![0u8; self.bytes];
        self.encode_into(rgba, 0xf, &mut texel)?;
        Ok(texel)
    }

    /// Encodes the channels whose slot bit is set in `slot_mask` (bit 0 = R) into
    /// `texel`, leaving the bits of the other channels untouched.
    pub fn encode_into(
        &self,
        rgba: &[u64; 4],
        slot_mask: u8,
        texel: &mut [u8],
    ) -> Result<(), TexelError> {
        self.check_len(texel.len())?;
        for c in &self.channels {
            if slot_mask & (1 << c.slot) == 0 {
                continue;
            }
            let raw = encode_channel(c.kind, c.bits, rgba[c.slot as usize]);
            write_bits(texel, c.start_bit, c.bits, raw);
        }
        Ok(())
    }

    fn check_len(&self, len: usize) -> Result<(), TexelError> {
        if len != self.bytes {
            return Err(TexelError::Length {
                expected: self.bytes,
                found: len,
            });
        }
        Ok(())
    }
}

/// The bytes holding bits `start .. start + bits` of a little-endian byte string: their
/// range, and their value as one little-endian integer (at most 9 bytes for a 64-bit
/// field, so a `u128` holds it).
fn bit_window(bytes: &[u8], start: u16, bits: u8) -> (std::ops::Range<usize>, u128) {
    let first = start as usize / 8;
    let end = (start as usize + bits as usize).div_ceil(8).max(first);
    let w = bytes[first..end]
        .iter()
        .rev()
        .fold(0u128, |acc, &b| acc << 8 | b as u128);
    (first..end, w)
}

/// Reads `bits` bits at bit `start` of a little-endian byte string.
pub fn read_bits(bytes: &[u8], start: u16, bits: u8) -> u64 {
    let (_, w) = bit_window(bytes, start, bits);
    (w >> (start % 8)) as u64 & mask(bits)
}

/// Writes the low `bits` bits of `value` at bit `start` of a little-endian byte string.
pub fn write_bits(bytes: &mut [u8], start: u16, bits: u8, value: u64) {
    let (range, w) = bit_window(bytes, start, bits);
    let shift = start % 8;
    let field = (mask(bits) as u128) << shift;
    let w = (w & !field) | (((value & mask(bits)) as u128) << shift);
    for (i, b) in bytes[range].iter_mut().enumerate() {
        *b = (w >> (8 * i)) as u8;
    }
}

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Decodes one channel's raw bits into a register value.
pub fn decode_channel(kind: ChannelKind, bits: u8, raw: u64) -> u64 {
    match kind {
        ChannelKind::Unorm => {
            let max = mask(bits) as f32;
            (raw as f32 / max).to_bits() as u64
        }
        ChannelKind::Snorm => {
            let s = sign_extend(raw, bits);
            let max = mask(bits - 1) as f32;
            (s as f32 / max).max(-1.0).to_bits() as u64
        }
        ChannelKind::Uint | ChannelKind::Raw => raw,
        ChannelKind::Sint => {
            if bits == 64 {
                raw
            } else {
                sign_extend(raw, bits) as u32 as u64
            }
        }
        ChannelKind::Float => match bits {
            16 => half::f16::from_bits(raw as u16).to_f32().to_bits() as u64,
            _ => raw,
        },
        ChannelKind::Ufloat => ufloat_to_f32(raw as u32, bits - 5).to_bits() as u64,
    }
}

/// Encodes a register value into one channel's raw bits.
pub fn encode_channel(kind: ChannelKind, bits: u8, value: u64) -> u64 {
    match kind {
        // The normalized conversions are pinned to binary32 arithmetic, as GPUs (and the
        // shader-side conversion Mesa emits, `nir_format_float_to_unorm/snorm`) compute
        // them: saturate, multiply by the scale in f32 (rounded to nearest even), round
        // the product to the nearest integer, ties to even. Multiplying exactly and
        // rounding once differs next to ties: 0x3b008081 (0.5/255 rounded up to f32)
        // times 255 is exactly 0.50000003, which rounds to 1, but its f32 product is 0.5,
        // which rounds to even 0. Vulkan ("Conversion from Floating-Point to Normalized
        // Fixed-Point") and D3D allow such error; the definition here is the f32 one.
        ChannelKind::Unorm => {
            let f = f32::from_bits(value as u32);
            // NIR's `fsat`: NaN fails both comparisons and gives +0, as does −0.
            let c = if f > 0.0 { f.min(1.0) } else { 0.0 };
            (c * mask(bits) as f32).round_ties_even() as u64
        }
        ChannelKind::Snorm => {
            let f = f32::from_bits(value as u32);
            // NaN stores 0 (the D3D conversion rule for FLOAT -> SNORM).
            let c = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
            let s = (c * mask(bits - 1) as f32).round_ties_even() as i64;
            s as u64 & mask(bits)
        }
        ChannelKind::Uint => {
            if bits >= 32 {
                value & mask(bits)
            } else {
                (value & 0xffff_ffff).min(mask(bits))
            }
        }
        ChannelKind::Sint => {
            if bits >= 32 {
                value & mask(bits)
            } else {
                let v = value as u32 as i32 as i64;
                let lo = -(1i64 << (bits - 1));
                let hi = (1i64 << (bits - 1)) - 1;
                v.clamp(lo, hi) as u64 & mask(bits)
            }
        }
        ChannelKind::Float => match bits {
            16 => half::f16::from_f32(f32::from_bits(value as u32)).to_bits() as u64,
            _ => value & mask(bits),
        },
        ChannelKind::Ufloat => f32_to_ufloat(f32::from_bits(value as u32), bits - 5) as u64,
        ChannelKind::Raw => value & mask(bits),
    }
}

fn sign_extend(raw: u64, bits: u8) -> i64 {
    if bits >= 64 {
        raw as i64
    } else {
        let sh = 64 - bits as u32;
        ((raw << sh) as i64) >> sh
    }
}

/// Exponent bias of the unsigned small floats (5-bit exponent).
const UFLOAT_BIAS: i32 = 15;

/// Widens an unsigned small float (5-bit exponent, `m` mantissa bits) to `f32`, exactly.
pub fn ufloat_to_f32(raw: u32, m: u8) -> f32 {
    let e = (raw >> m) & 0x1f;
    let mant = raw & ((1 << m) - 1);
    match e {
        0 => mant as f32 * 2f32.powi(-(UFLOAT_BIAS - 1) - m as i32),
        31 if mant == 0 => f32::INFINITY,
        // A NaN: quiet, its payload in the top mantissa bits.
        31 => f32::from_bits(0x7fc0_0000 | (mant << (23 - m))),
        _ => ((1u32 << m) + mant) as f32 * 2f32.powi(e as i32 - UFLOAT_BIAS - m as i32),
    }
}

/// Narrows an `f32` to an unsigned small float (5-bit exponent, `m` mantissa bits) with
/// the rules of `GL_EXT_packed_float`, rounding finite values to nearest even.
pub fn f32_to_ufloat(f: f32, m: u8) -> u32 {
    let inf = 31u32 << m;
    let max_finite = (30u32 << m) | ((1 << m) - 1);
    if f.is_nan() {
        return inf | (1 << (m - 1));
    }
    if f == f32::INFINITY {
        return inf;
    }
    if f.is_sign_negative() || f == 0.0 {
        // Negative values, −0 and −∞ all store 0.
        return 0;
    }
    let v = f as f64;
    // The exponent of v, and the spacing of representable values around it: normal
    // values have m fraction bits; below 2^-14 the spacing stays that of 2^-14.
    let exp = v.log2().floor() as i32;
    // log2 may be off by one next to powers of two; fix it exactly.
    let exp = if 2f64.powi(exp) > v {
        exp - 1
    } else if 2f64.powi(exp + 1) <= v {
        exp + 1
    } else {
        exp
    };
    let e = exp.max(1 - UFLOAT_BIAS);
    let quantum = 2f64.powi(e - m as i32);
    let n = (v / quantum).round_ties_even() as u64;
    if e == 1 - UFLOAT_BIAS && n <= (1 << m) {
        // A denormal (or the smallest normal when n == 2^m: the encodings coincide).
        return n as u32;
    }
    // A normal value: n is in [2^m, 2^(m+1)], where 2^(m+1) carries into the exponent.
    let (n, e) = if n == 2 << m {
        (1u64 << m, e + 1)
    } else {
        (n, e)
    };
    let biased = e + UFLOAT_BIAS;
    if biased > 30 {
        return max_finite;
    }
    ((biased as u32) << m) | (n as u32 - (1 << m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ufloat_round_trips_every_finite_value() {
        for m in [6u8, 5] {
            for raw in 0..(31u32 << m) {
                let f = ufloat_to_f32(raw, m);
                assert_eq!(f32_to_ufloat(f, m), raw, "m={m} raw={raw:#x} f={f}");
            }
        }
    }

    fn enc(kind: ChannelKind, bits: u8, x: f32) -> u64 {
        encode_channel(kind, bits, x.to_bits() as u64)
    }

    /// UNORM/SNORM stores multiply in binary32. Each case is next to a tie, where the
    /// exact product and the f32 product round to different integers (products computed
    /// by hand with exact rationals).
    #[test]
    fn normalized_encode_multiplies_in_f32() {
        let x = |b: u32| f32::from_bits(b);
        // 0x3b008081 * 255 = 0.50000003 exactly; 0.5 in f32: ties to even 0.
        assert_eq!(enc(ChannelKind::Unorm, 8, x(0x3b00_8081)), 0);
        // 0x37c000c0 * 65535 = 1.4999999997 exactly; 1.5 in f32: even 2.
        assert_eq!(enc(ChannelKind::Unorm, 16, x(0x37c0_00c0)), 2);
        // 0xbf7efdfc * 127 = -126.50000024 exactly; -126.5 in f32: even -126 = 0x82.
        assert_eq!(enc(ChannelKind::Snorm, 8, x(0xbf7e_fdfc)), 0x82);
        // 0xbf7fff00 * 32767 = -32766.500015 exactly; -32766.5 in f32: -32766 = 0x8002.
        assert_eq!(enc(ChannelKind::Snorm, 16, x(0xbf7f_ff00)), 0x8002);
        // Saturation and NaN: NaN, -0 and negatives store 0 (UNORM); NaN stores 0 and
        // -inf -(2^(b-1) - 1) (SNORM).
        assert_eq!(enc(ChannelKind::Unorm, 8, f32::NAN), 0);
        assert_eq!(enc(ChannelKind::Unorm, 8, -0.0), 0);
        assert_eq!(enc(ChannelKind::Unorm, 8, f32::INFINITY), 255);
        assert_eq!(enc(ChannelKind::Snorm, 8, -f32::NAN), 0);
        assert_eq!(enc(ChannelKind::Snorm, 8, f32::NEG_INFINITY), 0x81);
        assert_eq!(enc(ChannelKind::Snorm, 10, 2.0), 0x1ff);
    }

    /// Decoding divides in binary32 (`u2f32(x) / scale`, correctly rounded). For these
    /// operands that is the f64 quotient rounded to f32 (binary64 has more than
    /// 2 * 24 + 2 bits, so rounding twice cannot differ), checked here for every code.
    #[test]
    fn normalized_decode_is_the_correctly_rounded_quotient() {
        for bits in [2u8, 8, 10, 16] {
            let su = mask(bits) as f64;
            let ss = mask(bits - 1) as f64;
            for raw in 0..1u64 << bits {
                let u = decode_channel(ChannelKind::Unorm, bits, raw);
                assert_eq!(
                    u,
                    ((raw as f64 / su) as f32).to_bits() as u64,
                    "{bits} {raw}"
                );
                let v = sign_extend(raw, bits) as f64;
                let s = decode_channel(ChannelKind::Snorm, bits, raw);
                assert_eq!(
                    s,
                    ((v / ss).max(-1.0) as f32).to_bits() as u64,
                    "{bits} {raw}"
                );
            }
        }
    }

    /// binary16: round to nearest even with gradual underflow and overflow to infinity;
    /// a NaN keeps its sign and the top ten mantissa bits and gets the quiet bit (what
    /// `half` and the F16C `vcvtps2ph` do, and `ir::eval`'s `pack_half_2x16_split`).
    /// Widening sets the quiet bit and keeps the payload in the top bits.
    #[test]
    fn half_float_rounding_and_nan_payloads() {
        let h = |b: u32| encode_channel(ChannelKind::Float, 16, b as u64);
        let f = |x: f32| h(x.to_bits());
        assert_eq!(f(65519.996), 0x7bff);
        assert_eq!(f(65520.0), 0x7c00);
        assert_eq!(f(-1e10), 0xfc00);
        // 2^-25 is the tie between 0 and the smallest denormal 2^-24: even 0; 3 * 2^-25
        // ties between 1 and 2 quanta: even 2.
        assert_eq!(f(2f32.powi(-25)), 0);
        assert_eq!(f(2f32.powi(-25) * 1.000_000_1), 1);
        assert_eq!(f(3.0 * 2f32.powi(-25)), 2);
        assert_eq!(f(-2f32.powi(-26)), 0x8000);
        // NaNs: signalling with payload in bit 13 -> quiet 0x7e01; payload only in the
        // low 13 bits -> 0x7e00 (still a NaN); sign kept.
        assert_eq!(h(0x7f80_2000), 0x7e01);
        assert_eq!(h(0xff80_1fff), 0xfe00);
        assert_eq!(h(0x7fff_ffff), 0x7fff);
        assert_eq!(h(0xffc0_0000), 0xfe00);
        let d = |b: u64| decode_channel(ChannelKind::Float, 16, b);
        assert_eq!(d(0x7c01), 0x7fc0_2000);
        assert_eq!(d(0xfd00), 0xffe0_0000);
        assert_eq!(d(0x7c00), 0x7f80_0000);
        assert_eq!(d(0x0001), 0x3380_0000);
    }

    #[test]
    fn bit_fields_match_a_bit_by_bit_model() {
        let bytes: Vec<u8> = (0..16u8).map(|i| i.wrapping_mul(0x9d) ^ 0x5a).collect();
        for start in 0..64u16 {
            for bits in [0u8, 1, 2, 5, 8, 10, 11, 16, 31, 32, 33, 63, 64] {
                let want = (0..bits as usize).fold(0u64, |v, i| {
                    let bit = start as usize + i;
                    v | (((bytes[bit / 8] >> (bit % 8)) & 1) as u64) << i
                });
                assert_eq!(read_bits(&bytes, start, bits), want, "{start} {bits}");
                let mut w = bytes.clone();
                let value = 0xa5c3_96e1_0f1e_2d3cu64;
                write_bits(&mut w, start, bits, value);
                for bit in 0..128 {
                    let inside = bit >= start as usize && bit < start as usize + bits as usize;
                    let expect = if inside {
                        (value >> (bit - start as usize)) & 1
                    } else {
                        ((bytes[bit / 8] >> (bit % 8)) & 1) as u64
                    };
                    assert_eq!(
                        ((w[bit / 8] >> (bit % 8)) & 1) as u64,
                        expect,
                        "{start} {bits}"
                    );
                }
            }
        }
    }

    /// Small-float encodings next to the cases where Mesa's pack through binary16 differs
    /// (hand-computed; m = 6 for 11 bits, 5 for 10 bits).
    #[test]
    fn ufloat_encode_rounds_once_and_saturates() {
        // 1 + 2^-7 + 2^-11: just above the tie between mantissas 0 and 1 -> 15 << 6 | 1.
        assert_eq!(
            f32_to_ufloat(1.0 + 2f32.powi(-7) + 2f32.powi(-11), 6),
            0x3c1
        );
        // 65520 and the overflow tie 65280 saturate to the largest finite 11-bit value;
        // the 10-bit overflow tie 65024 to the largest finite 10-bit value.
        assert_eq!(f32_to_ufloat(65520.0, 6), 0x7bf);
        assert_eq!(f32_to_ufloat(65280.0, 6), 0x7bf);
        assert_eq!(f32_to_ufloat(65279.996, 6), 0x7bf);
        assert_eq!(f32_to_ufloat(65024.0, 5), 0x3df);
        // Denormal tie 1.5 * 2^-20 (quantum 2^-20): even 2; half the smallest denormal
        // ties to 0.
        assert_eq!(f32_to_ufloat(1.5 * 2f32.powi(-20), 6), 2);
        assert_eq!(f32_to_ufloat(2f32.powi(-21), 6), 0);
        assert_eq!(f32_to_ufloat(2f32.powi(-21) * 1.000_000_1, 6), 1);
        // Every NaN, either sign, is the canonical NaN; +inf is infinity.
        for nan in [0x7fc0_0000u32, 0xffc0_0001, 0x7f80_0001, 0xffff_ffff] {
            assert_eq!(f32_to_ufloat(f32::from_bits(nan), 6), 0x7e0);
            assert_eq!(f32_to_ufloat(f32::from_bits(nan), 5), 0x3f0);
        }
        assert_eq!(f32_to_ufloat(f32::INFINITY, 5), 0x3e0);
        assert_eq!(f32_to_ufloat(f32::from_bits(0x8000_0001), 6), 0);
    }

    #[test]
    fn bits_round_trip() {
        let mut b = [0u8; 4];
        write_bits(&mut b, 3, 11, 0x5a5);
        assert_eq!(read_bits(&b, 3, 11), 0x5a5);
        assert_eq!(u32::from_le_bytes(b), 0x5a5 << 3);
    }

    /// isl formats whose channels no storage message converts are refused with a
    /// reason, not mapped to a wrong slot or kind.
    #[test]
    fn isl_formats_without_storage_channels_are_unsupported() {
        for f in [
            tiling::Format::L8A8_UNORM,
            tiling::Format::A8P8_UNORM_PALETTE0,
            tiling::Format::R8G8B8A8_USCALED,
            tiling::Format::R32_SFIXED,
            tiling::Format::YCRCB_NORMAL,
        ] {
            assert!(
                matches!(
                    TexelLayout::from_isl(f),
                    Err(TexelError::Unsupported { .. })
                ),
                "{f}"
            );
        }
        assert!(TexelLayout::from_isl(tiling::Format::R8G8B8A8_UNORM).is_ok());
    }
}
