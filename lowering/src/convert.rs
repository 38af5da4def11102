//! Shader-side colour conversion between an image format and the format its surface is
//! accessed as, after Mesa's `convert_color_for_load` / `convert_color_for_store`
//! (`brw_`/`elk_nir_lower_storage_image.c`) and the `nir_format_convert` helpers they
//! call. The steps, in order, are those of docs/hardware/mesa-storage-images.md §4.
//!
//! Values are 32-bit vectors (64-bit for the R64 formats' shader side); the emitted ALU
//! ops have NIR's semantics (`ir::eval`). Constant operands are vectors of the value's
//! width, so every op is component-wise as in NIR.
//!
//! The result must equal, bit for bit, what a typed message on a surface of the image
//! format itself would store or return (the executor's `verify::texel` encoding, used
//! for the linear reference and for the hardware's own conversion on natively typed
//! formats), so that lowering a format or not never changes a result. Where Mesa's
//! emitted code differs from that one definition, this module follows the definition:
//! * R11G11B10_FLOAT stores encode exactly (round to nearest even once, saturate finite
//!   values, keep infinity and NaN) instead of going through binary16 (see
//!   `pack_11f11f10f`);
//! * SNORM stores map a NaN to 0, not to −1.0;
//! * IVB/BYT mask R8/R16_UINT reads also when the image is R8/R16_UINT itself (see
//!   [`convert_color_for_load`]).
//!
//! UNORM/SNORM stores keep Mesa's binary32 arithmetic (`fmul` then `fround_even`), which
//! is the definition: the product is rounded to f32 before rounding to an integer.

use crate::device::Device;
use crate::format::has_signed_channel;
use ir::{Builder, ChannelKind, Format, Src, Type, Value};
use smallvec::SmallVec;
use std::fmt;

/// Why a colour conversion cannot be built.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ConvertProblem {
    /// One of the formats is [`Format::None`].
    UnknownFormat,
    /// The formats have different texel sizes.
    SizeMismatch,
    /// The lowered format is not a UINT format of one channel width.
    LowerNotUint,
    /// The image format has one lowering, and this is not it.
    Expected(Format),
    /// An image format with mixed channel widths lowered to something other than
    /// R32_UINT.
    MixedWidths,
    /// Channels of a width other than 8, 16 or 32 bits.
    ChannelWidth,
    /// A load returning a component count other than 1 to 4.
    LoadComponents(u8),
    /// The loaded value is not one dword per channel of the lowered format.
    LoadedValue(Type),
    /// The stored value has the wrong bit size or too few components.
    StoredValue(Type),
}

/// A colour conversion that cannot be built: the formats are not an image format and
/// one of its lowerings, or the value does not have the shape the conversion needs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConvertError {
    /// The image format.
    pub image: Format,
    /// The format the surface is accessed as.
    pub lower: Format,
    /// What is wrong.
    pub problem: ConvertProblem,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (image, lower) = (self.image, self.lower);
        write!(f, "cannot convert colours between {image} and {lower}: ")?;
        match &self.problem {
            ConvertProblem::UnknownFormat => f.write_str("both formats must be known"),
            ConvertProblem::SizeMismatch => f.write_str("the formats differ in size"),
            ConvertProblem::LowerNotUint => {
                f.write_str("the lowered format must be a homogeneous UINT")
            }
            ConvertProblem::Expected(want) => write!(f, "expected {want}"),
            ConvertProblem::MixedWidths => f.write_str("mixed channel widths need R32_UINT"),
            ConvertProblem::ChannelWidth => f.write_str("channel widths must be 8, 16 or 32"),
            ConvertProblem::LoadComponents(_) => f.write_str("a load returns 1 to 4 components"),
            ConvertProblem::LoadedValue(value) => write!(
                f,
                "the loaded value is {value}, expected 32x{} (one dword per {lower} channel)",
                lower.num_channels()
            ),
            ConvertProblem::StoredValue(value) => write!(
                f,
                "the stored value is {value}, expected at least {}x{}",
                image.data_bit_size(),
                image.num_channels()
            ),
        }
    }
}

impl std::error::Error for ConvertError {}

type Chans = SmallVec<[Src; 4]>;

fn err(image: Format, lower: Format, problem: ConvertProblem) -> ConvertError {
    ConvertError {
        image,
        lower,
        problem,
    }
}

fn bits(fmt: Format) -> SmallVec<[u32; 4]> {
    fmt.channels().iter().map(|c| c.bits as u32).collect()
}

fn mask_of(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// A 32-bit constant with one component per entry.
fn imm_vec(b: &mut Builder, vals: &[u32]) -> Value {
    let ty = Type::vec32(vals.len() as u8);
    let v: SmallVec<[u64; 4]> = vals.iter().map(|&x| x as u64).collect();
    b.load_const(ty, &v)
}

fn imm_fvec(b: &mut Builder, vals: &[f32]) -> Value {
    let v: SmallVec<[u32; 4]> = vals.iter().map(|f| f.to_bits()).collect();
    imm_vec(b, &v)
}

fn comps(b: &Builder, s: Src) -> u8 {
    b.func.src_components(s)
}

/// The first `n` components of `s`.
pub(crate) fn trim(b: &Builder, s: Src, n: u8) -> Src {
    if comps(b, s) == n {
        return s;
    }
    let sel: SmallVec<[u8; 4]> = (0..n).map(|i| s.swizzle.component(i)).collect();
    let full = b.func.value_type(s.value).num_components();
    if n == full && sel.iter().enumerate().all(|(i, &c)| i as u8 == c) {
        return Src::new(s.value);
    }
    Src::swizzled(s.value, &sel).expect("at most four components")
}

fn vec_of(b: &mut Builder, chans: &[Src]) -> Src {
    if chans.len() == 1 {
        return chans[0];
    }
    Src::new(b.vec(chans))
}

/// Checks that `lower` is `image` or one of the formats Mesa lowers it to (or accesses
/// it as on the raw path), so that the steps below apply.
fn check_pair(image: Format, lower: Format) -> Result<(), ConvertError> {
    if image == Format::None || lower == Format::None {
        return Err(err(image, lower, ConvertProblem::UnknownFormat));
    }
    if image == lower {
        return Ok(());
    }
    if image.bits_per_texel() != lower.bits_per_texel() {
        return Err(err(image, lower, ConvertProblem::SizeMismatch));
    }
    let lower_uint = lower
        .channels()
        .iter()
        .all(|c| c.kind == ChannelKind::Uint && c.bits == lower.channels()[0].bits);
    if !lower_uint {
        return Err(err(image, lower, ConvertProblem::LowerNotUint));
    }
    match image {
        Format::R11G11B10Float | Format::R64Uint | Format::R64Sint => {
            let want = if image == Format::R11G11B10Float {
                Format::R32Uint
            } else {
                Format::Rg32Uint
            };
            if lower != want {
                return Err(err(image, lower, ConvertProblem::Expected(want)));
            }
        }
        _ => {
            let ib = bits(image);
            let lb = lower.channels()[0].bits as u32;
            let packed = ib[0] != lb && lower == Format::R32Uint;
            let homogeneous = ib.iter().all(|&x| x == ib[0]);
            if !packed && !homogeneous {
                return Err(err(image, lower, ConvertProblem::MixedWidths));
            }
            if !packed && ![8, 16, 32].contains(&ib[0]) {
                return Err(err(image, lower, ConvertProblem::ChannelWidth));
            }
        }
    }
    Ok(())
}

/// Checks what [`convert_color_for_load`] checks: the formats are an image format and
/// one of its lowerings, the loaded value (`value`) has one dword per channel of
/// `lower`, and the load returns 1 to 4 components.
pub fn check_load(
    image: Format,
    lower: Format,
    value: Type,
    dest_components: u8,
) -> Result<(), ConvertError> {
    check_pair(image, lower)?;
    if !(1..=4).contains(&dest_components) {
        return Err(err(
            image,
            lower,
            ConvertProblem::LoadComponents(dest_components),
        ));
    }
    if value.bit_size() != 32 || value.num_components() != lower.num_channels() {
        return Err(err(image, lower, ConvertProblem::LoadedValue(value)));
    }
    Ok(())
}

/// Checks what [`convert_color_for_store`] checks: the formats are an image format and
/// one of its lowerings, and the stored value has the image's data bit size and at
/// least one component per image channel.
pub fn check_store(image: Format, lower: Format, value: Type) -> Result<(), ConvertError> {
    check_pair(image, lower)?;
    let want_bits = image.data_bit_size();
    let chans = image.num_channels();
    if value.bit_size() != want_bits || value.num_components() < chans {
        return Err(err(image, lower, ConvertProblem::StoredValue(value)));
    }
    Ok(())
}

/// Converts `value`, as read by a typed message from a surface of `lower_fmt` (or by
/// the raw path, `lower_fmt` then being the raw format), into the colour a load of a
/// `image_fmt` image returns, with `dest_components` components (docs/hardware/mesa-storage-images.md
/// §4, "Load").
///
/// `value` must have one 32-bit component per channel of `lower_fmt`. The result is
/// 32-bit (64-bit for R64 images). Missing G and B read as 0, a missing A as 1 for
/// formats with integer channels and 1.0 otherwise.
///
/// On IVB/BYT, typed reads of R8/R16_UINT surfaces return a misaligned 32-bit read whose
/// high bits are garbage, so the value is masked first. Mesa does that only when the
/// image format was lowered to R8/R16_UINT and skips it when the image itself is
/// R8/R16_UINT; this function masks in both cases, since the unmasked value would be
/// wrong.
pub fn convert_color_for_load(
    b: &mut Builder,
    device: &Device,
    image_fmt: Format,
    lower_fmt: Format,
    value: impl Into<Src>,
    dest_components: u8,
) -> Result<Value, ConvertError> {
    let src = load_color(
        b,
        device,
        image_fmt,
        lower_fmt,
        value.into(),
        dest_components,
    )?;
    Ok(materialize(b, src))
}

/// Converts the shader's `value` stored to a `image_fmt` image into the data a typed
/// message writes to a surface of `lower_fmt` (or the raw path writes, `lower_fmt`
/// being the raw format): one 32-bit component per channel of `lower_fmt`
/// (docs/hardware/mesa-storage-images.md §4, "Store").
///
/// `value` needs at least as many components as the image format has channels; further
/// components are ignored. It is 32-bit, or 64-bit for R64 images.
pub fn convert_color_for_store(
    b: &mut Builder,
    device: &Device,
    image_fmt: Format,
    lower_fmt: Format,
    value: impl Into<Src>,
) -> Result<Value, ConvertError> {
    let src = store_color(b, device, image_fmt, lower_fmt, value.into())?;
    Ok(materialize(b, src))
}

/// A value for `src`: the value itself when `src` reads all of it in order, else a `mov`.
pub(crate) fn materialize(b: &mut Builder, src: Src) -> Value {
    if src.swizzle.is_identity() {
        src.value
    } else {
        b.mov(src)
    }
}

/// [`convert_color_for_load`], returning the result as a source (no final `mov`).
pub(crate) fn load_color(
    b: &mut Builder,
    device: &Device,
    image: Format,
    lower: Format,
    color: Src,
    dest_components: u8,
) -> Result<Src, ConvertError> {
    check_load(image, lower, b.func.src_type(color), dest_components)?;
    let color = if image == lower {
        // The deliberate deviation documented on `convert_color_for_load`.
        if device.is_gfx7_without_hsw() && matches!(lower, Format::R8Uint | Format::R16Uint) {
            mask_channels(b, color, &bits(lower))
        } else {
            color
        }
    } else {
        match image {
            Format::R11G11B10Float => unpack_11f11f10f(b, color),
            Format::R64Uint | Format::R64Sint => {
                // Mesa main: R64_PASSTHRU is read as R32G32_UINT, `pack_64_2x32`.
                let (x, y) = (color.component(0), color.component(1));
                Src::new(b.pack_64_2x32_split(x, y))
            }
            _ => unpack_and_convert(b, device, image, lower, color),
        }
    };
    Ok(expand(b, image, color, dest_components))
}

/// Load steps 3 to 6 for the formats Mesa handles generically.
fn unpack_and_convert(
    b: &mut Builder,
    device: &Device,
    image: Format,
    lower: Format,
    color: Src,
) -> Src {
    let ib = bits(image);
    let lb = lower.channels()[0].bits as u32;
    let sign = has_signed_channel(image);
    let mut color = if ib[0] != lb && lower == Format::R32Uint {
        // Packed into one dword: channel i at bit offset `off` is
        // (p << (32 - off - bits)) >> (32 - bits), arithmetic if signed.
        let p = color.component(0);
        let mut off = 0;
        let mut chans = Chans::new();
        for &w in &ib {
            let shl = imm_vec(b, &[32 - off - w]);
            let shr = imm_vec(b, &[32 - w]);
            let x = b.ishl(p, shl);
            let x = if sign { b.ishr(x, shr) } else { b.ushr(x, shr) };
            chans.push(Src::new(x));
            off += w;
        }
        vec_of(b, &chans)
    } else {
        let mut color = color;
        // IVB/BYT read R8/R16_UINT through a misaligned 32-bit read: keep the low bits.
        if device.is_gfx7_without_hsw() && matches!(lower, Format::R8Uint | Format::R16Uint) {
            color = mask_channels(b, color, &bits(lower));
        }
        if ib[0] != lb {
            color = bitcast_uvec(b, color, lb, ib[0]);
        }
        if sign {
            color = sign_extend(b, color, &ib);
        }
        color
    };
    let r = image.channels()[0];
    let n = ib.len();
    color = match r.kind {
        ChannelKind::Unorm => {
            // u2f32(x) / (2^bits - 1)
            let factor: SmallVec<[f32; 4]> = ib.iter().map(|&w| mask_of(w) as f32).collect();
            let f = imm_fvec(b, &factor);
            let x = b.u2f32(color);
            // Without `exact`, as Mesa's `nir_format_unorm_to_float`: Vulkan's 2.5 ULP
            // for a division (`ir/PRECISION.md`, "Normalized texels"), which the back
            // end emits as `inv` and `mul` and the cleanup folds to one `fmul`.
            Src::new(b.fdiv(x, f))
        }
        ChannelKind::Snorm => {
            // max(i2f32(x) / (2^(bits-1) - 1), -1.0)
            let factor: SmallVec<[f32; 4]> = ib.iter().map(|&w| mask_of(w - 1) as f32).collect();
            let f = imm_fvec(b, &factor);
            let minus_one = imm_fvec(b, &vec![-1.0; n]);
            let x = b.i2f32(color);
            // Inexact, as `nir_format_snorm_to_float` (see the UNORM case).
            let q = b.fdiv(x, f);
            Src::new(b.fmax(q, minus_one))
        }
        ChannelKind::Float if r.bits == 16 => Src::new(b.unpack_half_2x16_split_x(color)),
        _ => color,
    };
    color
}

/// Load step 7: widen to `dest` components; G and B default to 0, A to 1 (integer
/// formats, and R64) or 1.0.
pub(crate) fn expand(b: &mut Builder, image: Format, color: Src, dest: u8) -> Src {
    let n = comps(b, color);
    if n >= dest {
        return trim(b, color, dest);
    }
    let bit_size = b.func.value_type(color.value).bit_size();
    let mut out: Chans = if n == 1 {
        // A scalar is its own first channel (no `.x` swizzle needed).
        smallvec::smallvec![color]
    } else {
        (0..n).map(|i| color.component(i)).collect()
    };
    while out.len() < dest as usize {
        let v = if out.len() < 3 {
            b.imm_int(bit_size, 0)
        } else if image.is_integer() {
            b.imm_int(bit_size, 1)
        } else {
            b.imm_f32(1.0)
        };
        out.push(Src::new(v));
    }
    vec_of(b, &out)
}

/// `x & (2^bits[i] - 1)` per component (`nir_format_mask_uvec`).
fn mask_channels(b: &mut Builder, color: Src, bits: &[u32]) -> Src {
    let n = comps(b, color) as usize;
    let masks: SmallVec<[u32; 4]> = (0..n)
        .map(|i| mask_of(bits[i.min(bits.len() - 1)]))
        .collect();
    let m = imm_vec(b, &masks);
    Src::new(b.iand(color, m))
}

/// Reinterprets components of `src_bits` as components of `dst_bits`, LSB first
/// (`nir_format_bitcast_uvec_unmasked`).
fn bitcast_uvec(b: &mut Builder, color: Src, src_bits: u32, dst_bits: u32) -> Src {
    if src_bits > dst_bits {
        split_words(b, color, src_bits, dst_bits)
    } else if src_bits < dst_bits {
        combine_words(b, color, src_bits, dst_bits)
    } else {
        color
    }
}

/// Splits each `src_bits`-wide word into `dst_bits` pieces, LSB first
/// (`nir_format_bitcast_uvec_unmasked`, narrowing).
fn split_words(b: &mut Builder, color: Src, src_bits: u32, dst_bits: u32) -> Src {
    let n = comps(b, color) as u32;
    let count = (n * src_bits).div_ceil(dst_bits);
    let mut chans = Chans::new();
    let (mut idx, mut shift) = (0u8, 0u32);
    for _ in 0..count {
        let word = color.component(idx);
        let shifted = if shift == 0 {
            word
        } else {
            let s = imm_vec(b, &[shift]);
            Src::new(b.ushr(word, s))
        };
        let m = imm_vec(b, &[mask_of(dst_bits)]);
        chans.push(Src::new(b.iand(shifted, m)));
        shift += dst_bits;
        if shift >= src_bits {
            idx += 1;
            shift = 0;
        }
    }
    vec_of(b, &chans)
}

/// Combines `src_bits`-wide components into `dst_bits` words, LSB first
/// (`nir_format_bitcast_uvec_unmasked`, widening; the inputs are already in range).
fn combine_words(b: &mut Builder, color: Src, src_bits: u32, dst_bits: u32) -> Src {
    let n = comps(b, color);
    let mut chans = Chans::new();
    let mut shift = 0u32;
    let mut cur: Option<Src> = None;
    for i in 0..n {
        let c = color.component(i);
        let shifted = if shift == 0 {
            c
        } else {
            let s = imm_vec(b, &[shift]);
            Src::new(b.ishl(c, s))
        };
        cur = Some(match cur {
            None => shifted,
            Some(acc) => Src::new(b.ior(acc, shifted)),
        });
        shift += src_bits;
        if shift >= dst_bits {
            chans.extend(cur.take());
            shift = 0;
        }
    }
    chans.extend(cur);
    vec_of(b, &chans)
}

/// `(x << (32 - bits)) >>s (32 - bits)` per component (`nir_format_sign_extend_ivec`).
fn sign_extend(b: &mut Builder, color: Src, bits: &[u32]) -> Src {
    let n = comps(b, color) as usize;
    let shifts: SmallVec<[u32; 4]> = (0..n).map(|i| 32 - bits[i.min(bits.len() - 1)]).collect();
    let s = imm_vec(b, &shifts);
    let x = b.ishl(color, s);
    Src::new(b.ishr(x, s))
}

/// `nir_format_unpack_11f11f10f`: each channel's bits moved to the exponent and mantissa
/// position of a half float and unpacked.
fn unpack_11f11f10f(b: &mut Builder, color: Src) -> Src {
    let p = color.component(0);
    // (mask, shift): left for positive, right for negative.
    let fields: [(u32, i32); 3] = [(0x0000_07ff, 4), (0x003f_f800, -7), (0xffc0_0000, -17)];
    let mut chans = Chans::new();
    for (mask, shift) in fields {
        let m = imm_vec(b, &[mask]);
        let x = b.iand(p, m);
        let s = imm_vec(b, &[shift.unsigned_abs()]);
        let h = if shift > 0 {
            b.ishl(x, s)
        } else {
            b.ushr(x, s)
        };
        chans.push(Src::new(b.unpack_half_2x16_split_x(h)));
    }
    vec_of(b, &chans)
}

/// One constant per R11G11B10 channel, from the channel's mantissa width (6, 6, 5).
fn per_11f11f10f(b: &mut Builder, f: impl Fn(u32) -> u32) -> Value {
    imm_vec(b, &[f(6), f(6), f(5)])
}

/// R11G11B10_FLOAT store: each channel is encoded from its f32 bits as
/// `GL_EXT_packed_float` and the Vulkan spec ("Unsigned 11-Bit / 10-Bit Floating-Point
/// Numbers") define it, which is what the reference encoder (and a native typed write)
/// does: finite values round to the nearest representable value, ties to even, denormals
/// included; negative values, −0 and −∞ store 0; finite values above the largest finite
/// one (65024 for 11 bits, 64512 for 10 bits) store that value; +∞ stores ∞; every NaN
/// stores the canonical NaN (exponent 31, top mantissa bit: 0x7e0 for 11 bits, 0x3f0
/// for 10 bits; 0x3e0 is the 10-bit infinity).
///
/// This deliberately deviates from Mesa's `nir_format_pack_11f11f10f`, which clamps with
/// `fmax(c, 0)` (a NaN becomes 0), converts to binary16 with `pack_half_2x16` and keeps
/// the top bits: that rounds twice (to nearest even at 10 mantissa bits, then truncates
/// to 6 or 5), and turns finite values from 65520 up into ∞. The verifier needs one
/// definition for the shader path and the hardware path, and the spec's is the one a
/// typed write on Gfx12.5+ (where the format is not lowered) follows.
///
/// Branch-free, one instruction per step on all three channels (m mantissa bits,
/// s = 23 − m):
/// 1. `c = umin(imax(u, 0), maxf)`: negatives (sign bit set, including −NaN) to +0, then
///    saturate at the largest finite value's f32 bits (+∞ and +NaN too; they are fixed
///    at the end). Rounding is monotonic and the bound is representable, so rounding the
///    clamped value is the clamped rounded value.
/// 2. Denormal results (`c` < 2^−14): `bits(c + 2^(9−m)) − bits(2^(9−m))`. The f32 sum
///    has an ulp of 2^(−14−m), the target's denormal quantum, so the adder rounds c to
///    it (nearest even) and the low bits are the denormal mantissa; 2^m (a carry to the
///    smallest normal) is also that value's encoding.
/// 3. Normal results: rebias the exponent (−112 << 23) and round the s dropped mantissa
///    bits to nearest even by adding `2^(s−1) − 1` plus the lowest kept bit, then shift;
///    a mantissa carry moves into the exponent as it should.
/// 4. Select 2 or 3, then +∞ → `31 << m` and NaN → `31 << m | 1 << (m − 1)`.
/// 5. Pack: `r | g << 11 | b << 22`.
///
/// 17 ALU instructions (Mesa's packing: 11).
fn pack_11f11f10f(b: &mut Builder, u: Src) -> Src {
    // 1. Negatives to 0, saturate at the largest finite value.
    let zero = imm_vec(b, &[0; 3]);
    let c = b.imax(u, zero);
    let maxf = per_11f11f10f(b, |m| (142 << 23) | (((1 << m) - 1) << (23 - m)));
    let c = b.umin(c, maxf);
    // 2. Denormal results through the f32 adder's rounding.
    let magic = per_11f11f10f(b, |m| (127 + 9 - m) << 23);
    let denorm = b.fadd(c, magic);
    let neg_magic = per_11f11f10f(b, |m| ((127 + 9 - m) << 23_u32).wrapping_neg());
    let denorm = b.iadd(denorm, neg_magic);
    // 3. Normal results: rebias, round to nearest even, shift.
    let s = per_11f11f10f(b, |m| 23 - m);
    let one = imm_vec(b, &[1; 3]);
    let odd = b.ubfe(c, s, one);
    let bias = per_11f11f10f(b, |m| ((112u32 << 23).wrapping_neg()) + (1 << (22 - m)) - 1);
    let normal = b.iadd(c, bias);
    let normal = b.iadd(normal, odd);
    let normal = b.ushr(normal, s);
    // 4. Select, then the special values.
    let min_normal = imm_vec(b, &[113 << 23; 3]);
    let is_denorm = b.ult(c, min_normal);
    let r = b.bcsel(is_denorm, denorm, normal);
    let inf_bits = imm_vec(b, &[0x7f80_0000; 3]);
    let is_inf = b.ieq(u, inf_bits);
    let inf = per_11f11f10f(b, |m| 31 << m);
    let r = b.bcsel(is_inf, inf, r);
    let is_nan = b.fneu(u, u);
    let nan = per_11f11f10f(b, |m| (31 << m) | (1 << (m - 1)));
    let r = b.bcsel(is_nan, nan, r);
    // 5. Pack.
    let shifts = imm_vec(b, &[0, 11, 22]);
    let r = Src::new(b.ishl(r, shifts));
    let rg = b.ior(r.component(0), r.component(1));
    Src::new(b.ior(rg, r.component(2)))
}

/// [`convert_color_for_store`], returning the result as a source (no final `mov`).
pub(crate) fn store_color(
    b: &mut Builder,
    _device: &Device,
    image: Format,
    lower: Format,
    color: Src,
) -> Result<Src, ConvertError> {
    check_store(image, lower, b.func.src_type(color))?;
    let chans = image.num_channels();
    // Step 1: trim to the image's channels.
    let color = trim(b, color, chans);
    if image == lower {
        return Ok(color);
    }
    match image {
        Format::R11G11B10Float => return Ok(pack_11f11f10f(b, color)),
        Format::R64Uint | Format::R64Sint => {
            // Mesa main: R64_PASSTHRU is written as R32G32_UINT, `unpack_64_2x32`.
            let x = b.unpack_64_2x32_split_x(color);
            let y = b.unpack_64_2x32_split_y(color);
            return Ok(Src::new(b.vec(&[Src::new(x), Src::new(y)])));
        }
        _ => {}
    }
    let ib = bits(image);
    let n = ib.len();
    let lb = lower.channels()[0].bits as u32;
    let r = image.channels()[0];
    let mut color = match r.kind {
        ChannelKind::Unorm => {
            // f2u32(round_even(fsat(f) * (2^bits - 1))), the product rounded to f32 as
            // the definition says (NaN and -0 saturate to +0).
            let factor: SmallVec<[f32; 4]> = ib.iter().map(|&w| mask_of(w) as f32).collect();
            let f = imm_fvec(b, &factor);
            let x = b.fsat(color);
            let x = b.fmul(x, f);
            let x = b.fround_even(x);
            Src::new(b.f2u32(x))
        }
        ChannelKind::Snorm => {
            // f2i32(round_even(clamp(f, -1, 1) * (2^(bits-1) - 1))), with a NaN storing
            // 0 (the D3D FLOAT -> SNORM rule, and the reference's and a native typed
            // write's definition). Mesa's `nir_format_float_to_snorm` clamps with
            // fmax/fmin only, which ignore a NaN operand and store -1.0; the `bcsel`
            // on `fneu(f, f)` is the deviation.
            let factor: SmallVec<[f32; 4]> = ib.iter().map(|&w| mask_of(w - 1) as f32).collect();
            let f = imm_fvec(b, &factor);
            let lo = imm_fvec(b, &vec![-1.0; n]);
            let hi = imm_fvec(b, &vec![1.0; n]);
            let zero = imm_fvec(b, &vec![0.0; n]);
            let x = b.fmax(color, lo);
            let x = b.fmin(x, hi);
            let is_nan = b.fneu(color, color);
            let x = b.bcsel(is_nan, zero, x);
            let x = b.fmul(x, f);
            let x = b.fround_even(x);
            Src::new(b.f2i32(x))
        }
        ChannelKind::Float if r.bits == 16 => {
            // pack_half_2x16_split(f, 0): the half in the low 16 bits.
            let zero = imm_fvec(b, &vec![0.0; n]);
            Src::new(b.pack_half_2x16_split(color, zero))
        }
        ChannelKind::Uint if ib[0] < 32 => {
            let max: SmallVec<[u32; 4]> = ib.iter().map(|&w| mask_of(w)).collect();
            let m = imm_vec(b, &max);
            Src::new(b.umin(color, m))
        }
        ChannelKind::Sint if ib[0] < 32 => {
            let max: SmallVec<[u32; 4]> = ib.iter().map(|&w| mask_of(w - 1)).collect();
            let min: SmallVec<[u32; 4]> = ib.iter().map(|&w| !mask_of(w - 1)).collect();
            let hi = imm_vec(b, &max);
            let lo = imm_vec(b, &min);
            let x = b.imin(color, hi);
            Src::new(b.imax(x, lo))
        }
        _ => color,
    };
    // Step 5: signed values keep only their own bits.
    if ib[0] < 32 && has_signed_channel(image) {
        color = mask_channels(b, color, &ib);
    }
    // Every channel now fits its bits: UNORM and clamped UINT values are in range, signed
    // ones masked, a half in the low 16 bits; other floats are masked when packed.
    let in_range = match r.kind {
        ChannelKind::Unorm | ChannelKind::Snorm | ChannelKind::Uint | ChannelKind::Sint => true,
        ChannelKind::Float => r.bits == 16,
    };
    if ib[0] != lb && lower == Format::R32Uint {
        // Step 6: `nir_format_pack_uint` OR-ing each channel in place; its masks are
        // only needed for channels that may not fit (`nir_format_pack_uint_unmasked`
        // otherwise).
        let masked = if in_range {
            color
        } else {
            mask_channels(b, color, &ib)
        };
        let mut off = 0;
        let mut acc: Option<Src> = None;
        for (i, &w) in ib.iter().enumerate() {
            let c = masked.component(i as u8);
            let shifted = if off == 0 {
                c
            } else {
                let s = imm_vec(b, &[off]);
                Src::new(b.ishl(c, s))
            };
            acc = Some(match acc {
                None => shifted,
                Some(a) => Src::new(b.ior(a, shifted)),
            });
            off += w;
        }
        Ok(acc.expect("at least one channel"))
    } else if ib[0] != lb {
        // Step 7: regroup the channels into the lowered format's words.
        Ok(bitcast_uvec(b, color, ib[0], lb))
    } else {
        Ok(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::Function;

    fn dev(n: &str) -> Device {
        Device::preset(n).unwrap()
    }

    #[test]
    fn rejects_unrelated_formats() {
        let mut f = Function::new("t");
        let mut b = Builder::at_end(&mut f);
        let v = imm_vec(&mut b, &[1]);
        let d = dev("skl");
        for (img, low) in [
            (Format::Rgba8Unorm, Format::R16Uint),
            (Format::Rgb10A2Unorm, Format::Rgba8Uint),
            (Format::None, Format::R32Uint),
            (Format::R11G11B10Float, Format::Rg16Uint),
        ] {
            assert!(convert_color_for_load(&mut b, &d, img, low, v, 4).is_err());
            assert!(convert_color_for_store(&mut b, &d, img, low, v).is_err());
        }
        // Wrong value shape: R32G32_UINT needs two dwords.
        assert!(
            convert_color_for_load(&mut b, &d, Format::Rgba16Unorm, Format::Rg32Uint, v, 4)
                .is_err()
        );
        // Too few components for the image's channels.
        assert!(
            convert_color_for_store(&mut b, &d, Format::Rgba8Unorm, Format::R32Uint, v).is_err()
        );
    }

    /// Stores the constant `data` through the conversion and reads the folded result.
    fn fold_store(device: &str, image: Format, lower: Format, data: &[u32]) -> Vec<u64> {
        let mut f = Function::new("t");
        let mut b = Builder::at_end(&mut f);
        let v = imm_vec(&mut b, data);
        let out = convert_color_for_store(&mut b, &dev(device), image, lower, v).unwrap();
        ir::passes::const_fold::fold_function(&mut f);
        ir::passes::const_fold::const_components(&f, Src::new(out))
            .unwrap()
            .to_vec()
    }

    fn alu_count(f: &Function) -> usize {
        f.insts_in_order()
            .into_iter()
            .filter(|&i| matches!(f.inst(i).kind, ir::function::InstKind::Alu(_)))
            .count()
    }

    /// Hand-computed R11G11B10 codes (m = 6 for R/G, 5 for B; bias 15) where Mesa's
    /// pack-to-half-and-truncate gives something else.
    #[test]
    fn r11g11b10_store_follows_the_spec_not_mesa() {
        let st = |r: u32, g: u32, b: u32| {
            fold_store("tgl", Format::R11G11B10Float, Format::R32Uint, &[r, g, b])[0]
        };
        let pack = |r: u64, g: u64, b: u64| r | g << 11 | b << 22;
        let f = |x: f32| x.to_bits();
        // 1 + 2^-7 + 2^-11 is above the tie 1 + 2^-7 between mantissas 0 and 1: rounds
        // to 15 << 6 | 1. Mesa rounds to binary16 first (2^-11 is a half-ulp tie there,
        // to even: 1 + 2^-7), then truncates to 1.0 = 0x3c0: a double rounding.
        // 65520 is finite and above the largest finite value: 0x7bf (Mesa: binary16
        // rounds it to infinity, 0x7c0). A NaN stores 0x3f0 in the 10-bit blue: exponent 31,
        // top mantissa bit 0x10 (Mesa: 0).
        assert_eq!(
            st(
                f(1.0 + 2f32.powi(-7) + 2f32.powi(-11)),
                f(65520.0),
                f(f32::NAN)
            ),
            pack(0x3c1, 0x7bf, 0x3f0)
        );
        // 1.5 * 2^-20 is the tie between denormals 1 and 2 (quantum 2^-20): even 2 (Mesa
        // truncates the exact binary16 24 * 2^-24 to 1). -1 stores 0; +inf 31 << 5 = 0x3e0.
        assert_eq!(
            st(f(1.5 * 2f32.powi(-20)), f(-1.0), f(f32::INFINITY)),
            pack(2, 0, 0x3e0)
        );
        // A negative NaN stores the canonical NaN 0x7e0 (the sign is ignored; Mesa: 0).
        // 1 + 2^-7 + 2^-8 (0.75 ulp): rounds up to 0x3c1 (Mesa truncates to 0x3c0).
        // Blue 65024 is the tie between 64512 (odd mantissa 31) and 2^16: to even is
        // 2^16, past the largest finite value, so 64512 = 0x3df.
        assert_eq!(
            st(
                0xffc0_0001,
                f(1.0 + 2f32.powi(-7) + 2f32.powi(-8)),
                f(65024.0)
            ),
            pack(0x7e0, 0x3c1, 0x3df)
        );
        // The 11-bit overflow tie 65280 (between 65024, odd mantissa 63, and 2^16) also
        // saturates; -inf and -0 store 0; the smallest normal 2^-14 is 1 << 6.
        assert_eq!(
            st(f(65280.0), f(f32::NEG_INFINITY), f(-0.0)),
            pack(0x7bf, 0, 0)
        );
        assert_eq!(st(f(2f32.powi(-14)), 0, 0), pack(1 << 6, 0, 0));
    }

    #[test]
    fn r11g11b10_store_instruction_count() {
        let mut f = Function::new("t");
        let mut b = Builder::at_end(&mut f);
        let v = b.zero(Type::vec32(4));
        convert_color_for_store(
            &mut b,
            &dev("tgl"),
            Format::R11G11B10Float,
            Format::R32Uint,
            v,
        )
        .unwrap();
        // Mesa's pack through binary16 takes 11; the exact encoding 17 (see
        // `pack_11f11f10f`). A change here is a change of the code's cost: update the
        // doc comment too.
        assert_eq!(alu_count(&f), 17);
    }

    #[test]
    fn snorm_nan_stores_zero() {
        // Mesa's fmax/fmin clamp turns a NaN into -1.0 (0x81); the definition stores 0.
        for nan in [0x7fc0_0000, 0xffc0_0000, 0x7f80_0001] {
            assert_eq!(
                fold_store("skl", Format::R8Snorm, Format::R8Uint, &[nan]),
                [0]
            );
            assert_eq!(
                fold_store(
                    "skl",
                    Format::Rg16Snorm,
                    Format::R32Uint,
                    &[nan, 0xbf80_0000]
                ),
                [0x8001_0000]
            );
        }
        assert_eq!(
            fold_store(
                "skl",
                Format::R8Snorm,
                Format::R8Uint,
                &[(-1.0f32).to_bits()]
            ),
            [0x81]
        );
    }

    #[test]
    fn normalized_stores_multiply_in_f32() {
        // 0x3b008081 is 0.5/255 rounded up; its exact product with 255 is 0.50000003
        // (would round to 1) but the f32 product is exactly 0.5: even 0.
        assert_eq!(
            fold_store("skl", Format::R8Unorm, Format::R8Uint, &[0x3b00_8081]),
            [0]
        );
        // -0.99606299 * 127 = -126.50000024 exactly, -126.5 in f32: even -126 = 0x82.
        assert_eq!(
            fold_store("skl", Format::R8Snorm, Format::R8Uint, &[0xbf7e_fdfc]),
            [0x82]
        );
    }

    #[test]
    fn identity_formats_only_expand() {
        let mut f = Function::new("t");
        let mut b = Builder::at_end(&mut f);
        let v = imm_vec(&mut b, &[7]);
        let before = b.func.num_inst_ids();
        let out =
            convert_color_for_load(&mut b, &dev("dg2"), Format::R32Uint, Format::R32Uint, v, 1)
                .unwrap();
        assert_eq!(out, v);
        assert_eq!(b.func.num_inst_ids(), before);
        let out4 =
            convert_color_for_load(&mut b, &dev("dg2"), Format::R32Uint, Format::R32Uint, v, 4)
                .unwrap();
        assert_eq!(b.func.value_type(out4), Type::vec32(4));
    }
}
