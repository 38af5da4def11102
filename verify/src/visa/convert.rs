//! Values and type conversions, as vISA defines them (IGC
//! `documentation/visa/2_datatypes.md`, "Type Conversion" and "Saturation"):
//!
//! * integer to integer: sign or zero extension to a wider type, truncation to the low
//!   bits of a narrower one;
//! * float to integer: toward zero, saturating to the destination's range, NaN to 0;
//! * integer to float and float to a narrower float: rounded with the rounding mode of
//!   `%cr0` (round to nearest even by default); a narrower-float conversion flushes a
//!   denormal source to a zero of its sign (the spec's table: `-denorm -> -0`);
//! * float to a wider float: exact;
//! * `.sat`: floats clamp to `[0.0, 1.0]` (NaN to 0), integers to the destination's
//!   range.
//!
//! Every rounding here is exact: the value is rounded once, from its exact binary form,
//! to the destination format ([`round_to`]), in each of the four modes of `%cr0`.

use super::types::VType;

/// `%cr0`'s rounding modes (bits 4-5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Round {
    /// Round to nearest, ties to even (RTNE, 00b).
    NearestEven,
    /// Toward +inf (RU, 01b).
    Up,
    /// Toward -inf (RD, 10b).
    Down,
    /// Toward zero (RTZ, 11b).
    Zero,
}

/// The float mode of a thread: `%cr0`'s rounding mode and denormal modes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FpMode {
    /// The rounding mode.
    pub round: Round,
    /// `%cr0` bit 6: double-precision denormals are kept (else flushed to zero).
    pub df_denorms: bool,
    /// `%cr0` bit 7: single-precision denormals are kept.
    pub f_denorms: bool,
    /// `%cr0` bit 10: half-precision denormals are kept.
    pub hf_denorms: bool,
    /// `%cr0` bit 0: ALT (legacy) single-precision mode.
    pub alt: bool,
}

impl FpMode {
    /// The mode `%cr0 = cr0` selects.
    pub fn from_cr0(cr0: u32) -> FpMode {
        FpMode {
            round: match (cr0 >> 4) & 3 {
                0 => Round::NearestEven,
                1 => Round::Up,
                2 => Round::Down,
                _ => Round::Zero,
            },
            df_denorms: cr0 & (1 << 6) != 0,
            f_denorms: cr0 & (1 << 7) != 0,
            hf_denorms: cr0 & (1 << 10) != 0,
            alt: cr0 & 1 != 0,
        }
    }

    /// Whether denormals of the float type `ty` are kept.
    pub fn keeps_denorms(self, ty: VType) -> bool {
        match ty {
            VType::Df => self.df_denorms,
            VType::Hf => self.hf_denorms,
            // bfloat16 shares single precision's exponent range and mode.
            _ => self.f_denorms,
        }
    }
}

/// A binary float format: exponent and fraction widths.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Fraction (stored mantissa) bits.
    pub frac_bits: u32,
}

impl FloatFormat {
    /// IEEE binary16 (`hf`).
    pub const HF: FloatFormat = FloatFormat {
        exp_bits: 5,
        frac_bits: 10,
    };
    /// bfloat16 (`bf`).
    pub const BF: FloatFormat = FloatFormat {
        exp_bits: 8,
        frac_bits: 7,
    };
    /// IEEE binary32 (`f`).
    pub const F: FloatFormat = FloatFormat {
        exp_bits: 8,
        frac_bits: 23,
    };
    /// IEEE binary64 (`df`).
    pub const DF: FloatFormat = FloatFormat {
        exp_bits: 11,
        frac_bits: 52,
    };

    /// The format of a float type.
    pub fn of(ty: VType) -> Option<FloatFormat> {
        Some(match ty {
            VType::Hf => FloatFormat::HF,
            VType::Bf => FloatFormat::BF,
            VType::F => FloatFormat::F,
            VType::Df => FloatFormat::DF,
            _ => return None,
        })
    }

    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn exp_max(self) -> u64 {
        (1 << self.exp_bits) - 1
    }

    fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.frac_bits)
    }

    /// The largest finite value's bits (positive).
    fn max_finite(self) -> u64 {
        ((self.exp_max() - 1) << self.frac_bits) | ((1 << self.frac_bits) - 1)
    }

    /// The default NaN an invalid operation produces: sign set, quiet bit set, payload
    /// 0 (x86's, which the IR's evaluator also produces: `0xffc00000` for `f`).
    pub fn default_nan(self) -> u64 {
        self.sign_bit() | (self.exp_max() << self.frac_bits) | (1 << (self.frac_bits - 1))
    }

    /// The value of the bits `b` of this format, exactly, as an `f64` (every format here
    /// fits in binary64).
    pub fn to_f64(self, b: u64) -> f64 {
        let sign = b & self.sign_bit() != 0;
        let exp = (b >> self.frac_bits) & self.exp_max();
        let frac = b & ((1 << self.frac_bits) - 1);
        if exp == self.exp_max() && frac != 0 {
            // A NaN keeps its sign, quiet bit and payload (at the top of the fraction).
            let bits = (u64::from(sign) << 63) | (0x7ff << 52) | (frac << (52 - self.frac_bits));
            return f64::from_bits(bits);
        }
        let mag = if exp == self.exp_max() {
            f64::INFINITY
        } else if exp == 0 {
            frac as f64 * 2f64.powi(1 - self.bias() - self.frac_bits as i32)
        } else {
            ((1u64 << self.frac_bits) | frac) as f64
                * 2f64.powi(exp as i32 - self.bias() - self.frac_bits as i32)
        };
        if sign {
            -mag
        } else {
            mag
        }
    }

    /// Whether bits `b` are a denormal (non-zero with a zero exponent).
    pub fn is_denorm(self, b: u64) -> bool {
        (b >> self.frac_bits) & self.exp_max() == 0 && b & ((1 << self.frac_bits) - 1) != 0
    }

    /// Bits `b` with a denormal replaced by a zero of its sign.
    pub fn flush(self, b: u64) -> u64 {
        if self.is_denorm(b) {
            b & self.sign_bit()
        } else {
            b
        }
    }
}

/// Rounds the exact value `sign * mag * 2^exp2` (an unsigned integer magnitude times a
/// power of two) to the format `fmt` in mode `round`, giving its bits. Overflow gives
/// infinity or the largest finite value as IEEE 754 says for each mode; results below
/// the normal range are denormals (flushing is the caller's business).
pub fn round_to(fmt: FloatFormat, negative: bool, mag: u128, exp2: i32, round: Round) -> u64 {
    let sign = if negative { fmt.sign_bit() } else { 0 };
    if mag == 0 {
        return sign;
    }
    let p = fmt.frac_bits as i32 + 1; // precision
    let msb = 127 - mag.leading_zeros() as i32; // value in [2^(msb+exp2), 2^(msb+exp2+1))
    let e = msb + exp2; // unbiased exponent of the leading bit
    let emin = 1 - fmt.bias();
    // The exponent of the last kept bit: p-1 below the leading bit, but never below the
    // denormal quantum.
    let q = (e - (p - 1)).max(emin - (p - 1));
    let shift = q - exp2; // bits of `mag` to drop (negative: none, exact)
    let (mut kept, up) = if shift <= 0 {
        // Exact: no bits dropped (the leading bit is at most p - 1 above q).
        (mag << (-shift) as u32, false)
    } else if shift > 127 {
        // Far below the smallest denormal: only a directed mode can round away from 0.
        let up = match round {
            Round::Up => !negative,
            Round::Down => negative,
            _ => false,
        };
        (0u128, up)
    } else {
        let kept = mag >> shift;
        let rem = mag & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = match round {
            Round::NearestEven => rem > half || (rem == half && kept & 1 == 1),
            Round::Zero => false,
            Round::Up => rem != 0 && !negative,
            Round::Down => rem != 0 && negative,
        };
        (kept, up)
    };
    if up {
        kept += 1;
    }
    // `kept * 2^q` is the result; normalise it into the format's fields.
    let mut q = q;
    if kept >> p != 0 {
        kept >>= 1;
        q += 1;
    }
    let overflow = |negative: bool| -> u64 {
        let to_inf = match round {
            Round::NearestEven => true,
            Round::Zero => false,
            Round::Up => !negative,
            Round::Down => negative,
        };
        sign | if to_inf {
            fmt.exp_max() << fmt.frac_bits
        } else {
            fmt.max_finite()
        }
    };
    if kept == 0 {
        return sign;
    }
    let lead = 127 - kept.leading_zeros() as i32 + q; // exponent of the leading bit
    if lead > fmt.bias() {
        return overflow(negative);
    }
    if kept >> (p - 1) == 0 {
        // A denormal: the exponent field is 0 and q is the denormal quantum.
        return sign | kept as u64;
    }
    let biased = (lead + fmt.bias()) as u64;
    sign | (biased << fmt.frac_bits) | (kept as u64 & ((1 << fmt.frac_bits) - 1))
}

/// The exact binary form of a finite `f64`: `(negative, magnitude, exponent)` with
/// value `magnitude * 2^exponent`.
fn decompose(v: f64) -> (bool, u128, i32) {
    let b = v.to_bits();
    let negative = b >> 63 != 0;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1 << 52) - 1);
    if exp == 0 {
        (negative, frac as u128, -1074)
    } else {
        (negative, (frac | (1 << 52)) as u128, exp - 1075)
    }
}

/// Rounds `v` to the float format of `ty` in mode `round` (NaN stays a quiet NaN of the
/// same sign, infinities stay infinite).
pub fn f64_to_bits(v: f64, ty: VType, round: Round) -> u64 {
    let Some(fmt) = FloatFormat::of(ty) else {
        return v.to_bits();
    };
    if ty == VType::Df {
        // A NaN is quieted.
        return if v.is_nan() {
            v.to_bits() | (1 << 51)
        } else {
            v.to_bits()
        };
    }
    if ty == VType::F && round == Round::NearestEven && !v.is_nan() {
        // Rust's f64 -> f32 cast rounds to nearest even (the Rust reference), as
        // `round_to` does: a fast path for the common case.
        return u64::from((v as f32).to_bits());
    }
    if v.is_nan() {
        // A NaN keeps its sign and the top bits of its payload, and is quieted (as
        // IEEE-754 conversions do).
        let b = v.to_bits();
        let sign = if b >> 63 != 0 { fmt.sign_bit() } else { 0 };
        let payload = (b & ((1 << 52) - 1)) >> (52 - fmt.frac_bits);
        return sign | (fmt.exp_max() << fmt.frac_bits) | payload | (1 << (fmt.frac_bits - 1));
    }
    if v.is_infinite() {
        let sign = if v < 0.0 { fmt.sign_bit() } else { 0 };
        return sign | (fmt.exp_max() << fmt.frac_bits);
    }
    let (neg, mag, e) = decompose(v);
    round_to(fmt, neg, mag, e, round)
}

/// The value of float bits of type `ty`, exactly.
pub fn float_value(bits: u64, ty: VType) -> f64 {
    match ty {
        VType::Df => f64::from_bits(bits),
        VType::F => {
            let f = f32::from_bits(bits as u32);
            if f.is_nan() {
                FloatFormat::F.to_f64(bits)
            } else {
                f64::from(f)
            }
        }
        _ => FloatFormat::of(ty).map_or(0.0, |f| f.to_f64(bits)),
    }
}

/// The value of integer bits of type `ty`: sign-extended for signed types,
/// zero-extended for unsigned ones.
pub fn int_value(bits: u64, ty: VType) -> i128 {
    match ty {
        VType::B => bits as u8 as i8 as i128,
        VType::W => bits as u16 as i16 as i128,
        VType::D => bits as u32 as i32 as i128,
        VType::Q => bits as i64 as i128,
        VType::Ub => (bits & 0xff) as i128,
        VType::Uw => (bits & 0xffff) as i128,
        VType::Ud => (bits & 0xffff_ffff) as i128,
        _ => bits as i128,
    }
}

/// An integer result written to an integer type: its low bits, or clamped to the type's
/// range with `.sat`.
pub fn int_to_int_bits(v: i128, ty: VType, sat: bool) -> u64 {
    let v = if sat {
        v.clamp(ty.int_min(), ty.int_max())
    } else {
        v
    };
    let bits = v as u64;
    if ty.size() >= 8 {
        bits
    } else {
        bits & ((1u64 << ty.bits()) - 1)
    }
}

/// An integer converted to the float type `ty`, rounded in mode `round`.
pub fn int_to_float_bits(v: i128, ty: VType, round: Round) -> u64 {
    // Rust's integer -> float casts round to nearest even (the Rust reference): fast
    // paths for the common cases, equal to `round_to`'s results.
    if round == Round::NearestEven {
        // Through i64/u64 when the value fits (every source value does): those casts
        // are cheaper than i128's and round the same.
        match (ty, i64::try_from(v), u64::try_from(v)) {
            (VType::F, Ok(i), _) => return u64::from((i as f32).to_bits()),
            (VType::F, _, Ok(u)) => return u64::from((u as f32).to_bits()),
            (VType::Df, Ok(i), _) => return (i as f64).to_bits(),
            (VType::Df, _, Ok(u)) => return (u as f64).to_bits(),
            _ => {}
        }
    }
    match FloatFormat::of(ty) {
        Some(fmt) => round_to(fmt, v < 0, v.unsigned_abs(), 0, round),
        None => 0,
    }
}

/// A float converted to the integer type `ty`: toward zero, saturated to the type's
/// range, NaN to 0 (the conversion tables of 2_datatypes.md).
///
/// For an unsigned destination and a negative source below -0 the spec's table says
/// "qNaN Indefinite", which no integer can hold; the result is the type's minimum, 0,
/// as for every other out-of-range value.
pub fn float_to_int_bits(v: f64, ty: VType) -> u64 {
    if v.is_nan() {
        return 0;
    }
    // Rust's float -> integer casts truncate toward zero and saturate (NaN to 0): the
    // rule of the vISA table, at each integer width.
    match ty {
        VType::B => v as i8 as u8 as u64,
        VType::Ub => u64::from(v as u8),
        VType::W => v as i16 as u16 as u64,
        VType::Uw => u64::from(v as u16),
        VType::D => v as i32 as u32 as u64,
        VType::Ud => u64::from(v as u32),
        VType::Q => v as i64 as u64,
        _ => v as u64,
    }
}

/// `.sat` for a float result of type `ty`: clamp to `[0.0, 1.0]`, NaN to +0.
pub fn saturate_float_bits(bits: u64, ty: VType) -> u64 {
    let v = float_value(bits, ty);
    if v.is_nan() || v <= 0.0 {
        // -0.0 and negative values saturate to +0.0.
        0
    } else if v >= 1.0 {
        f64_to_bits(1.0, ty, Round::NearestEven)
    } else {
        bits
    }
}

/// `mov`'s conversion of source bits of type `from` to the type `to` (both scalar
/// types: integers or floats), with `.sat` and the float mode.
pub fn convert(bits: u64, from: VType, to: VType, sat: bool, mode: FpMode) -> u64 {
    match (from.is_float(), to.is_float()) {
        (false, false) => int_to_int_bits(int_value(bits, from), to, sat),
        (false, true) => {
            let r = int_to_float_bits(int_value(bits, from), to, mode.round);
            if sat {
                saturate_float_bits(r, to)
            } else {
                r
            }
        }
        (true, false) => {
            let v = float_value(bits, from);
            // `.sat` on an integer destination clamps to its range, which the
            // conversion does anyway.
            float_to_int_bits(v, to)
        }
        (true, true) => {
            let r = if from == to {
                bits
            } else {
                // A conversion to fewer fraction bits (df -> f, f -> hf, ...) is a
                // "lower precision" one: its denormal sources become zeros.
                let narrower = FloatFormat::of(to).map_or(0, |f| f.frac_bits)
                    < FloatFormat::of(from).map_or(0, |f| f.frac_bits);
                let src = match FloatFormat::of(from) {
                    Some(f) if narrower => f.flush(bits),
                    _ => bits,
                };
                f64_to_bits(float_value(src, from), to, mode.round)
            };
            if sat {
                saturate_float_bits(r, to)
            } else {
                r
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RNE: Round = Round::NearestEven;

    #[test]
    fn nearest_even_matches_rust_casts_and_the_half_crate() {
        // Rust's `as` (f64 -> f32, integers -> f32/f64) and the `half` crate round to
        // nearest even: independent references for `round_to`'s RNE path (called
        // directly, as the public functions take Rust's casts as fast paths).
        let generic = |v: f64, fmt: FloatFormat| {
            let (neg, mag, e) = decompose(v);
            round_to(fmt, neg, mag, e, RNE)
        };
        let vals = [
            0.0,
            -0.0,
            1.0,
            1.0 + f64::EPSILON,
            0.1,
            -3.75,
            1e-40,
            -1e-45,
            7e-46,
            3.402_823_567_797_336_6e38,
            3.5e38,
            65504.0,
            65520.0,
            65519.99,
            5.960_464_477_539_063e-8,
            2.980_232_238_769_531_2e-8,
            2.980_232_238_769_531_3e-8 * 1.000_000_1,
            1e-300,
            -6.103_515_625e-5,
            123_456.789,
            f64::MAX,
        ];
        for v in vals {
            assert_eq!(
                generic(v, FloatFormat::F) as u32,
                (v as f32).to_bits(),
                "f32 {v:e}"
            );
            assert_eq!(
                generic(v, FloatFormat::HF) as u16,
                half::f16::from_f64(v).to_bits(),
                "f16 {v:e}"
            );
            assert_eq!(
                generic(v, FloatFormat::BF) as u16,
                half::bf16::from_f64(v).to_bits(),
                "bf16 {v:e}"
            );
            assert_eq!(f64_to_bits(v, VType::F, RNE) as u32, (v as f32).to_bits());
        }
        let int = |i: i128, fmt: FloatFormat| round_to(fmt, i < 0, i.unsigned_abs(), 0, RNE);
        for i in [
            0i64,
            1,
            -1,
            16_777_217,
            16_777_219,
            -33_554_435,
            i64::MAX,
            i64::MIN,
            9_007_199_254_740_993,
        ] {
            assert_eq!(
                int(i.into(), FloatFormat::F) as u32,
                (i as f32).to_bits(),
                "{i}"
            );
            assert_eq!(int(i.into(), FloatFormat::DF), (i as f64).to_bits(), "{i}");
        }
        let u = u64::MAX;
        assert_eq!(int(u.into(), FloatFormat::F) as u32, (u as f32).to_bits());
    }

    #[test]
    fn directed_rounding_by_hand() {
        // 1 + 2^-24 lies between 1.0 (0x3f800000) and 1 + 2^-23 (0x3f800001).
        let v = 1.0 + 2f64.powi(-24) + 2f64.powi(-30);
        assert_eq!(f64_to_bits(v, VType::F, Round::Up), 0x3f80_0001);
        assert_eq!(f64_to_bits(v, VType::F, Round::Down), 0x3f80_0000);
        assert_eq!(f64_to_bits(v, VType::F, Round::Zero), 0x3f80_0000);
        assert_eq!(f64_to_bits(-v, VType::F, Round::Up), 0xbf80_0000);
        assert_eq!(f64_to_bits(-v, VType::F, Round::Down), 0xbf80_0001);
        // Overflow: RZ gives the largest finite half (0x7bff = 65504), RNE infinity.
        assert_eq!(f64_to_bits(1e6, VType::Hf, Round::Zero), 0x7bff);
        assert_eq!(f64_to_bits(1e6, VType::Hf, RNE), 0x7c00);
        assert_eq!(f64_to_bits(-1e6, VType::Hf, Round::Up), 0xfbff);
        assert_eq!(f64_to_bits(-1e6, VType::Hf, Round::Down), 0xfc00);
        // The smallest half denormal is 2^-24 (0x0001); a tiny positive value rounds up
        // to it only in RU.
        assert_eq!(f64_to_bits(1e-30, VType::Hf, Round::Up), 0x0001);
        assert_eq!(f64_to_bits(1e-30, VType::Hf, RNE), 0x0000);
        // 2^24 + 1 is odd: RNE ties to 2^24, RU goes to 2^24 + 2.
        assert_eq!(
            int_to_float_bits(16_777_217, VType::F, Round::Up),
            0x4b80_0001
        );
        assert_eq!(int_to_float_bits(16_777_217, VType::F, RNE), 0x4b80_0000);
        assert_eq!(
            int_to_float_bits(-16_777_217, VType::F, Round::Zero),
            0xcb80_0000
        );
    }

    #[test]
    fn float_to_int_saturates_toward_zero() {
        // 2_datatypes.md: NaN -> 0, +inf -> Imax, f > Imax -> Imax, toward zero.
        let f = |v: f32, t: VType| {
            convert(
                u64::from(v.to_bits()),
                VType::F,
                t,
                false,
                FpMode::from_cr0(0),
            )
        };
        assert_eq!(f(f32::NAN, VType::D), 0);
        assert_eq!(f(f32::INFINITY, VType::D), 0x7fff_ffff);
        assert_eq!(f(f32::NEG_INFINITY, VType::D), 0x8000_0000);
        assert_eq!(f(3e9, VType::D), 0x7fff_ffff);
        assert_eq!(f(3e9, VType::Ud), 3_000_000_000);
        assert_eq!(f(-2.7, VType::D), (-2i32) as u32 as u64);
        assert_eq!(f(2.7, VType::Ub), 2);
        assert_eq!(f(300.0, VType::Ub), 255);
        assert_eq!(f(-300.0, VType::B), 0x80);
        assert_eq!(f(-1.5, VType::Ud), 0);
        assert_eq!(f(1e30, VType::Uq), u64::MAX);
        assert_eq!(f(-1e30, VType::Q), i64::MIN as u64);
    }

    #[test]
    fn integer_conversions_extend_and_truncate() {
        let m = FpMode::from_cr0(0);
        // Sign extension from b, zero extension from ub, truncation to the low bits.
        assert_eq!(convert(0x80, VType::B, VType::D, false, m), 0xffff_ff80);
        assert_eq!(convert(0x80, VType::Ub, VType::D, false, m), 0x80);
        assert_eq!(convert(0x1234_5678, VType::Ud, VType::Uw, false, m), 0x5678);
        assert_eq!(convert(0xffff_ffff, VType::D, VType::Q, false, m), u64::MAX);
        // `.sat` clamps to the destination's range.
        assert_eq!(convert(0x1234_5678, VType::Ud, VType::Uw, true, m), 0xffff);
        assert_eq!(convert(0xffff_ff80, VType::D, VType::Ub, true, m), 0);
        assert_eq!(convert(0xffff_ff80, VType::D, VType::W, true, m), 0xff80);
    }

    #[test]
    fn float_conversions_flush_narrowing_denormals_and_saturate() {
        let m = FpMode::from_cr0(0);
        // An f32 denormal narrowed to hf is a zero of its sign, even in RU.
        let den = 0x8000_0001u64; // -1.4e-45
        assert_eq!(convert(den, VType::F, VType::Hf, false, m), 0x8000);
        assert_eq!(
            convert(0x1, VType::F, VType::Hf, false, FpMode::from_cr0(0x10)),
            0
        );
        // Widening is exact: the hf denormal 0x0001 is 2^-24 = 0x33800000 in f32.
        assert_eq!(convert(0x0001, VType::Hf, VType::F, false, m), 0x3380_0000);
        // df -> f rounds: 0.1 is 0x3dcccccd.
        assert_eq!(
            convert(0.1f64.to_bits(), VType::Df, VType::F, false, m),
            0x3dcc_cccd
        );
        // `.sat`: 1.5 -> 1.0, -0.5 -> 0, NaN -> 0.
        assert_eq!(
            convert(0x3fc0_0000, VType::F, VType::F, true, m),
            0x3f80_0000
        );
        assert_eq!(convert(0xbf00_0000, VType::F, VType::F, true, m), 0);
        assert_eq!(convert(0x7fc0_0000, VType::F, VType::F, true, m), 0);
        // Integers to float with `.sat`: 3 -> 1.0.
        assert_eq!(convert(3, VType::D, VType::F, true, m), 0x3f80_0000);
    }

    #[test]
    fn cr0_fields() {
        let m = FpMode::from_cr0(0x4c0);
        assert!(m.f_denorms && m.df_denorms && m.hf_denorms && !m.alt);
        assert_eq!(m.round, RNE);
        assert_eq!(FpMode::from_cr0(0x30).round, Round::Zero);
        assert_eq!(FpMode::from_cr0(0x20).round, Round::Down);
    }
}
