//! Float helpers of the ALU semantics: IEEE-754 bit patterns of 16, 32 and 64 bits,
//! NaN propagation, binary16 rounding, `ffma`, NIR's `fmin`/`fmax`/`fsat` and float
//! comparisons. The rules are those of the parent module's documentation.

use super::int::sign_extend;

/// The sign bit of a float of `bits` bits.
pub(crate) fn sign_bit(bits: u8) -> u64 {
    1u64 << (bits - 1)
}

/// The quiet bit (the top mantissa bit) of a float of `bits` bits.
pub(crate) fn quiet_bit(bits: u8) -> u64 {
    match bits {
        16 => 0x0200,
        32 => 0x0040_0000,
        _ => 0x0008_0000_0000_0000,
    }
}

/// Whether `v` is a NaN of `bits` bits (16, 32 or 64).
pub fn is_nan(bits: u8, v: u64) -> bool {
    match bits {
        16 => v & 0x7fff > 0x7c00,
        32 => v & 0x7fff_ffff > 0x7f80_0000,
        _ => v & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000,
    }
}

/// `v` with its quiet bit set.
pub(crate) fn quieted(bits: u8, v: u64) -> u64 {
    v | quiet_bit(bits)
}

/// The NaN an invalid operation produces (x86's default NaN).
pub fn default_nan(bits: u8) -> u64 {
    match bits {
        16 => 0xfe00,
        32 => 0xffc0_0000,
        _ => 0xfff8_0000_0000_0000,
    }
}

/// The bits of 1.0 as a float of `bits` bits.
pub fn float_one(bits: u8) -> u64 {
    match bits {
        16 => 0x3c00,
        32 => 0x3f80_0000,
        _ => 0x3ff0_0000_0000_0000,
    }
}

/// Converts a binary16 to binary32 exactly (NaNs are quieted, keeping the payload).
pub fn f16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// Converts a binary32 to binary16, rounding to nearest even (Mesa's
/// `_mesa_float_to_half`). A NaN keeps its sign and the top payload bits and is quieted,
/// as the F16C `vcvtps2ph` instruction Mesa uses does.
pub fn f32_to_f16(f: f32) -> u16 {
    half::f16::from_f32(f).to_bits()
}

/// Rounds `(-1)^neg * mag * 2^exp` to the nearest binary16, ties to even, with gradual
/// underflow and overflow to infinity.
pub(crate) fn round_to_f16(neg: bool, mag: u128, exp: i32) -> u16 {
    let sign: u16 = if neg { 0x8000 } else { 0 };
    if mag == 0 {
        return sign;
    }
    let msb = 127 - mag.leading_zeros() as i32;
    // The quantum of the result: 11 significant bits, but never below the subnormal
    // quantum 2^-24.
    let mut q = (msb + exp - 10).max(-24);
    let shift = q - exp;
    let mut sig: u128 = if shift <= 0 {
        // `mag` is a multiple of the quantum: exact. `sig` < 2^11 here.
        mag << (-shift) as u32
    } else {
        let s = shift as u32;
        if s > msb as u32 + 1 {
            // Less than half a quantum: rounds to zero.
            return sign;
        }
        let kept = mag.checked_shr(s).unwrap_or(0);
        let rem = if s >= 128 {
            mag
        } else {
            mag & ((1u128 << s) - 1)
        };
        let half = 1u128 << (s - 1);
        if rem > half || (rem == half && kept & 1 == 1) {
            kept + 1
        } else {
            kept
        }
    };
    if sig >= 1 << 11 {
        sig >>= 1;
        q += 1;
    }
    if sig < 1 << 10 {
        // Subnormal (q == -24); a carry into bit 10 yields the smallest normal.
        return sign | sig as u16;
    }
    let biased = q + 25;
    if biased >= 31 {
        return sign | 0x7c00;
    }
    sign | ((biased as u16) << 10) | (sig as u16 & 0x3ff)
}

/// Converts a binary64 to binary16 with a single rounding to nearest even (Mesa's
/// `_mesa_double_to_float16_rtne`; rounding through binary32 first could round twice).
/// A NaN keeps its sign and top payload bits and is quieted.
pub fn f64_to_f16(d: f64) -> u16 {
    let b = d.to_bits();
    let neg = b >> 63 != 0;
    let e = ((b >> 52) & 0x7ff) as i32;
    let m = b & 0x000f_ffff_ffff_ffff;
    let sign: u16 = if neg { 0x8000 } else { 0 };
    if e == 0x7ff {
        if m == 0 {
            return sign | 0x7c00;
        }
        return sign | 0x7e00 | (m >> 42) as u16;
    }
    let (mag, exp) = if e == 0 {
        (m, -1074)
    } else {
        (m | 1 << 52, e - 1075)
    };
    round_to_f16(neg, mag as u128, exp)
}

/// Converts a binary64 to binary32 rounding to nearest even. A NaN keeps its sign and top
/// payload bits and is quieted (x86 `cvtsd2ss`, which is what Mesa's C conversion runs).
pub fn f64_to_f32(d: f64) -> f32 {
    if d.is_nan() {
        let b = d.to_bits();
        let sign = ((b >> 32) as u32) & 0x8000_0000;
        let payload = ((b >> 29) as u32) & 0x007f_ffff;
        return f32::from_bits(sign | 0x7fc0_0000 | payload);
    }
    d as f32
}

/// The exact value of a 16-, 32- or 64-bit float as an `f64` (NaNs stay NaN).
pub fn float_to_f64(bits: u8, v: u64) -> f64 {
    match bits {
        16 => f16_to_f32(v as u16) as f64,
        32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// Encodes an `f32` result for a 16- or 32-bit destination; a NaN that an invalid
/// operation produced becomes the default NaN.
pub(crate) fn pack_f32(bits: u8, r: f32) -> u64 {
    if r.is_nan() {
        default_nan(bits)
    } else if bits == 16 {
        f32_to_f16(r) as u64
    } else {
        r.to_bits() as u64
    }
}

/// Encodes an `f64` result; a generated NaN becomes the default NaN.
pub(crate) fn pack_f64(r: f64) -> u64 {
    if r.is_nan() {
        default_nan(64)
    } else {
        r.to_bits()
    }
}

/// The value of a 16- or 32-bit float as `f32` (exact).
pub(crate) fn to_f32(bits: u8, v: u64) -> f32 {
    if bits == 16 {
        f16_to_f32(v as u16)
    } else {
        f32::from_bits(v as u32)
    }
}

/// A unary float operation: a NaN operand is returned quieted, otherwise `f32op` (16 and
/// 32 bits; the 16-bit result is rounded once from the exact `f32`) or `f64op`.
pub(crate) fn f_unop(
    bits: u8,
    x: u64,
    f32op: impl Fn(f32) -> f32,
    f64op: impl Fn(f64) -> f64,
) -> u64 {
    if is_nan(bits, x) {
        return quieted(bits, x);
    }
    if bits == 64 {
        pack_f64(f64op(f64::from_bits(x)))
    } else {
        pack_f32(bits, f32op(to_f32(bits, x)))
    }
}

/// A binary float operation with NaN propagation from the first NaN operand.
pub(crate) fn f_binop(
    bits: u8,
    a: u64,
    b: u64,
    f32op: impl Fn(f32, f32) -> f32,
    f64op: impl Fn(f64, f64) -> f64,
) -> u64 {
    if is_nan(bits, a) {
        return quieted(bits, a);
    }
    if is_nan(bits, b) {
        return quieted(bits, b);
    }
    if bits == 64 {
        pack_f64(f64op(f64::from_bits(a), f64::from_bits(b)))
    } else {
        pack_f32(bits, f32op(to_f32(bits, a), to_f32(bits, b)))
    }
}

/// Sign, integer significand and exponent of a finite binary16: `(-1)^neg * mag * 2^exp`.
pub(crate) fn decompose_f16(h: u64) -> (bool, u128, i32) {
    let neg = h & 0x8000 != 0;
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as u128;
    if e == 0 {
        (neg, m, -24)
    } else {
        (neg, m | 0x400, e - 25)
    }
}

/// `a * b + c` on binary16 with a single rounding: the exact result fits an `i128`
/// (products span 2^-48 to 2^32), so it is summed exactly and rounded once.
pub(crate) fn ffma16(a: u64, b: u64, c: u64) -> u64 {
    for x in [a, b, c] {
        if is_nan(16, x) {
            return quieted(16, x);
        }
    }
    let is_inf = |x: u64| x & 0x7fff == 0x7c00;
    let is_zero = |x: u64| x & 0x7fff == 0;
    let prod_neg = (a ^ b) & 0x8000 != 0;
    if is_inf(a) || is_inf(b) {
        if is_zero(a) || is_zero(b) {
            return default_nan(16);
        }
        if is_inf(c) && ((c & 0x8000 != 0) != prod_neg) {
            return default_nan(16);
        }
        return if prod_neg { 0xfc00 } else { 0x7c00 };
    }
    if is_inf(c) {
        return c;
    }
    let (_, ma, ea) = decompose_f16(a);
    let (_, mb, eb) = decompose_f16(b);
    let (c_neg, mc, ec) = decompose_f16(c);
    let mp = ma * mb;
    let ep = ea + eb;
    let base = ep.min(ec);
    let p = (mp << (ep - base) as u32) as i128;
    let cc = (mc << (ec - base) as u32) as i128;
    let sum = if prod_neg { -p } else { p } + if c_neg { -cc } else { cc };
    if sum == 0 {
        // An exact zero is +0 in round-to-nearest, unless both terms are -0.
        let neg = prod_neg && c_neg && mp == 0 && mc == 0;
        return if neg { 0x8000 } else { 0 };
    }
    round_to_f16(sum < 0, sum.unsigned_abs(), base) as u64
}

/// `ffma` at any float size.
pub(crate) fn ffma(bits: u8, a: u64, b: u64, c: u64) -> u64 {
    match bits {
        16 => ffma16(a, b, c),
        32 | 64 => {
            for x in [a, b, c] {
                if is_nan(bits, x) {
                    return quieted(bits, x);
                }
            }
            if bits == 32 {
                let r = f32::from_bits(a as u32)
                    .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32));
                pack_f32(32, r)
            } else {
                pack_f64(f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)))
            }
        }
        _ => unreachable!("float sizes are checked"),
    }
}

/// NIR's `fmin`/`fmax`: equal operands (including +0 and -0) give the signed-integer
/// min/max of their bit patterns, so `fmin(-0, +0) = -0` and `fmax(-0, +0) = +0` in either
/// order, as SPIR-V requires (the comment above `fmin` in `nir_opcodes.py`); otherwise C's
/// `fmin`/`fmax`, which ignore a NaN operand. Two NaNs give the first, quieted; a
/// signalling NaN is ignored like a quiet one (IEEE-754-2019 minimumNumber), which is what
/// Mesa folds for 16-bit operands and for every quiet NaN.
pub(crate) fn fminmax(bits: u8, a: u64, b: u64, max: bool) -> u64 {
    match (is_nan(bits, a), is_nan(bits, b)) {
        (true, true) => return quieted(bits, a),
        (true, false) => return b,
        (false, true) => return a,
        (false, false) => {}
    }
    let fa = float_to_f64(bits, a);
    let fb = float_to_f64(bits, b);
    if fa == fb {
        let (sa, sb) = (sign_extend(bits, a), sign_extend(bits, b));
        let pick_a = if max { sa >= sb } else { sa <= sb };
        return if pick_a { a } else { b };
    }
    if (fa < fb) != max {
        a
    } else {
        b
    }
}

/// NIR's `fsat`, `fmin(fmax(x, 0.0), 1.0)`: NaN gives +0.0 (C's `fmax` ignores a NaN) and
/// -0.0 gives +0.0 (NIR's `fmax(-0, +0) = +0`).
pub(crate) fn fsat(bits: u8, x: u64) -> u64 {
    if is_nan(bits, x) {
        return 0;
    }
    let v = float_to_f64(bits, x);
    if v > 1.0 {
        float_one(bits)
    } else if v <= 0.0 {
        0
    } else {
        x
    }
}

/// An IEEE comparison of two floats (false if either is NaN, except `!=`).
pub(crate) fn fcmp(bits: u8, a: u64, b: u64, f: impl Fn(f64, f64) -> bool) -> u64 {
    f(float_to_f64(bits, a), float_to_f64(bits, b)) as u64
}
