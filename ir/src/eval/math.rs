//! The float math and integer arithmetic ops a front end needs beyond the ring and
//! bitwise ops: NIR's `fsqrt`, `frsq`, `fexp2`, `flog2`, `fsin`, `fcos`, `fpow`, `ffract`,
//! `fsign`, `flrp`, `fmod`, `frem`, `ldexp`, `fdot2/3/4`, `fquantize2f16`, `irem`, `imod`,
//! `isign`, `find_lsb`, `ifind_msb` and `bitfield_reverse`.
//!
//! # Rounding
//!
//! The algebraic ops follow NIR's `const_expr` step by step: each C operation of the
//! expression is rounded to the operation's precision (`float` for 16- and 32-bit
//! operands, `double` for 64-bit ones), and a 16-bit result is rounded once more from
//! that `float` at the end, as NIR's generated folding code does. `fsqrt` is correctly
//! rounded; `frsq` is `1.0f / sqrtf(x)`, two correctly rounded steps (without `exact`, a
//! 16- or 32-bit `frsq` is the math unit's single rounding instead: [`frsq_inexact`]).
//!
//! # Transcendentals
//!
//! `fexp2`, `flog2`, `fsin`, `fcos` and `fpow` have no exact C definition (NIR folds them
//! with the host's `exp2f`, `log2f`, ...), and Intel's EU math unit does not round them
//! correctly either: the PRMs give error bounds, not results. The interpreter uses one
//! deterministic definition on every host: the operand's exact value is passed to the
//! pure-Rust `libm` crate's binary64 function (`exp2`, `log2`, `sin`, `cos`, `pow`;
//! faithfully rounded, under 1 ulp of binary64) and the result is rounded once to the
//! destination size. For 16- and 32-bit results this is within about half an ulp of
//! the true value and almost always the correctly rounded one; for 64-bit results it is
//! libm's own error. The verifier runs the original and the lowered shader with this
//! same interpreter, so it compares these ops bit for bit; a comparison against a GPU
//! (or an emitted kernel that uses the hardware's `math` instruction) must allow the
//! hardware's error bounds instead.
//!
//! # NaNs
//!
//! The rule of the parent module holds for the single-step ops: a NaN operand is
//! returned quieted. For multi-step ops (`flrp`, `fmod`, `frem`, the dot products) any
//! NaN operand makes the result the first NaN operand in source order (component order
//! within a vector source), quieted. A NaN the operation generates from non-NaN
//! operands (`fsqrt(-1)`, `flog2(-1)`, `fmod(x, 0)`) is the default NaN. `fpow` keeps C's
//! special cases `pow(x, ±0) = 1` and `pow(1, y) = 1`, NaNs included. `ldexp` and
//! `fquantize2f16` have their own NaN rules, given with them.

use super::float::{
    default_nan, f16_to_f32, f32_to_f16, f64_to_f16, f64_to_f32, f_binop, ffma, is_nan, pack_f32,
    pack_f64, quieted, sign_bit, to_f32,
};
use super::int::sign_extend;

/// The first NaN of `xs` quieted, if any.
fn first_nan(bits: u8, xs: &[u64]) -> Option<u64> {
    xs.iter()
        .find(|&&x| is_nan(bits, x))
        .map(|&x| quieted(bits, x))
}

/// A step-by-step float computation: in `f32` for 16- and 32-bit operands (rounded to
/// 16 bits at the end), in `f64` for 64-bit ones; any NaN operand gives the first one.
fn f_steps(
    bits: u8,
    xs: &[u64],
    f32op: impl Fn(&[f32]) -> f32,
    f64op: impl Fn(&[f64]) -> f64,
) -> u64 {
    if let Some(n) = first_nan(bits, xs) {
        return n;
    }
    if bits == 64 {
        let v: Vec<f64> = xs.iter().map(|&x| f64::from_bits(x)).collect();
        pack_f64(f64op(&v))
    } else {
        let v: Vec<f32> = xs.iter().map(|&x| to_f32(bits, x)).collect();
        pack_f32(bits, f32op(&v))
    }
}

/// The exact value of a float operand as `f64`.
fn exact(bits: u8, x: u64) -> f64 {
    match bits {
        16 => f16_to_f32(x as u16) as f64,
        32 => f32::from_bits(x as u32) as f64,
        _ => f64::from_bits(x),
    }
}

/// Rounds a binary64 result once to the destination size; a NaN result becomes the
/// first NaN operand or, without one, the default NaN.
fn round_result(bits: u8, r: f64, operands: &[u64]) -> u64 {
    if r.is_nan() {
        return first_nan(bits, operands).unwrap_or_else(|| default_nan(bits));
    }
    match bits {
        16 => f64_to_f16(r) as u64,
        32 => f64_to_f32(r).to_bits() as u64,
        _ => r.to_bits(),
    }
}

/// A transcendental op through binary64 `libm` (see the module documentation).
pub(crate) fn transcendental1(bits: u8, x: u64, f: fn(f64) -> f64) -> u64 {
    if is_nan(bits, x) {
        return quieted(bits, x);
    }
    round_result(bits, f(exact(bits, x)), &[x])
}

/// `fexp2`.
pub(crate) fn fexp2(bits: u8, x: u64) -> u64 {
    transcendental1(bits, x, libm::exp2)
}

/// `flog2`.
pub(crate) fn flog2(bits: u8, x: u64) -> u64 {
    transcendental1(bits, x, libm::log2)
}

/// `fsin`.
pub(crate) fn fsin(bits: u8, x: u64) -> u64 {
    transcendental1(bits, x, libm::sin)
}

/// `fcos`.
pub(crate) fn fcos(bits: u8, x: u64) -> u64 {
    transcendental1(bits, x, libm::cos)
}

/// `fpow`: C's `pow`, special cases included (a NaN operand does not always give NaN).
pub(crate) fn fpow(bits: u8, x: u64, y: u64) -> u64 {
    round_result(bits, libm::pow(exact(bits, x), exact(bits, y)), &[x, y])
}

/// `fsqrt`: `sqrtf`, correctly rounded (a 16-bit result from the correctly rounded
/// binary32 root: binary32 has more than 2 · 11 + 2 bits, so that second rounding is
/// innocuous).
pub(crate) fn fsqrt(bits: u8, x: u64) -> u64 {
    f_steps(bits, &[x], |v| v[0].sqrt(), |v| v[0].sqrt())
}

/// `frsq`: `1.0f / sqrtf(x)` (`1.0 / sqrt(x)` at 64 bits).
pub(crate) fn frsq(bits: u8, x: u64) -> u64 {
    f_steps(bits, &[x], |v| 1.0 / v[0].sqrt(), |v| 1.0 / v[0].sqrt())
}

/// `frsq` without `exact` on 16- and 32-bit floats: the binary64 reciprocal root rounded
/// once to binary32 (then to binary16), as the math unit's `rsqrt` is modelled: within
/// Vulkan's 2 ULP for `InverseSqrt`, and what the vISA back end emits for it.
pub(crate) fn frsq_inexact(bits: u8, x: u64) -> u64 {
    if is_nan(bits, x) {
        return quieted(bits, x);
    }
    let r = 1.0 / exact(bits, x).sqrt();
    if r.is_nan() {
        return default_nan(bits);
    }
    let r32 = f64_to_f32(r);
    match bits {
        16 => u64::from(f32_to_f16(r32)),
        _ => u64::from(r32.to_bits()),
    }
}

/// `fpow` without `exact` on 32-bit floats: C's `pow` of the magnitude of `x`, a NaN
/// operand (of `|x|`, `y`) giving the first one quieted. Vulkan leaves `pow` undefined
/// for `x < 0` and for `x = 0` with `y <= 0`, and its result open where an operand is an
/// infinity or a NaN; this is the math unit's `pow` on `|x|` as the vISA interpreter
/// models it, what the vISA back end emits for it (one `and` and one `pow`, as Mesa
/// emits one math instruction).
pub(crate) fn fpow_inexact(x: u64, y: u64) -> u64 {
    let ax = x & !sign_bit(32);
    if let Some(n) = first_nan(32, &[ax, y]) {
        return n;
    }
    round_result(32, libm::pow(exact(32, ax), exact(32, y)), &[ax, y])
}

/// `fpow` without `exact` on binary16: the operands widened to binary32 (exactly), the
/// 32-bit inexact `fpow` of them ([`fpow_inexact`]), and that result rounded to
/// binary16, as the back end computes it (the math unit has no 16-bit `pow` before
/// Xe2, and Mesa widens too).
pub(crate) fn fpow_inexact16(x: u64, y: u64) -> u64 {
    let wide = |h: u64| u64::from(super::float::f16_to_f32(h as u16).to_bits());
    let r = fpow_inexact(wide(x), wide(y));
    u64::from(super::float::f32_to_f16(f32::from_bits(r as u32)))
}

/// `ffract`: `x - floorf(x)`, rounded (so a tiny negative `x` gives 1.0, and an
/// infinity the default NaN).
pub(crate) fn ffract(bits: u8, x: u64) -> u64 {
    f_steps(bits, &[x], |v| v[0] - v[0].floor(), |v| v[0] - v[0].floor())
}

/// `fsign`: NaN gives +0.0, a zero itself (keeping its sign), otherwise ±1.0 (NIR's
/// folding, which follows OpenCL).
pub(crate) fn fsign(bits: u8, x: u64) -> u64 {
    if is_nan(bits, x) {
        return 0;
    }
    let v = exact(bits, x);
    if v == 0.0 {
        return x;
    }
    let one = match bits {
        16 => 0x3c00,
        32 => 0x3f80_0000,
        _ => 0x3ff0_0000_0000_0000,
    };
    if v > 0.0 {
        one
    } else {
        one | sign_bit(bits)
    }
}

/// `flrp`: `a * (1 - c) + b * c`, each step rounded.
pub(crate) fn flrp(bits: u8, a: u64, b: u64, c: u64) -> u64 {
    f_steps(
        bits,
        &[a, b, c],
        |v| v[0] * (1.0 - v[2]) + v[1] * v[2],
        |v| v[0] * (1.0 - v[2]) + v[1] * v[2],
    )
}

/// `fmod`: `a - b * floorf(a / b)`, each step rounded.
pub(crate) fn fmod(bits: u8, a: u64, b: u64) -> u64 {
    f_steps(
        bits,
        &[a, b],
        |v| v[0] - v[1] * (v[0] / v[1]).floor(),
        |v| v[0] - v[1] * (v[0] / v[1]).floor(),
    )
}

/// `frem`: `a - b * truncf(a / b)`, each step rounded.
pub(crate) fn frem(bits: u8, a: u64, b: u64) -> u64 {
    f_steps(
        bits,
        &[a, b],
        |v| v[0] - v[1] * (v[0] / v[1]).trunc(),
        |v| v[0] - v[1] * (v[0] / v[1]).trunc(),
    )
}

/// `ldexp(x, e)`: `ldexpf` (exact up to the final rounding of an underflowing result),
/// then NIR's flush: a result that is not a normal number (zero, subnormal, infinite or
/// NaN, so also a NaN or infinite `x`) becomes a zero with the sign of `x`. A 16-bit
/// operation computes in `float` (the flush sees the `float` result) and rounds to 16
/// bits last, as NIR's folding does; at 64 bits the flush tests the `double`.
pub(crate) fn ldexp(bits: u8, x: u64, e: u64) -> u64 {
    let e = e as u32 as i32;
    let zero = x & sign_bit(bits);
    if bits == 64 {
        let r = libm::ldexp(f64::from_bits(x), e);
        return if r.is_normal() { r.to_bits() } else { zero };
    }
    let r = libm::ldexpf(to_f32(bits, x), e);
    if !r.is_normal() {
        return zero;
    }
    pack_f32(bits, r)
}

/// `fdotN`: NIR's pairwise reduction of the products (`binop_reduce`): two components
/// `p1 + p0`, three `(p2 + p1) + p0`, four `(p3 + p2) + (p1 + p0)`, each step rounded.
pub(crate) fn fdot(bits: u8, a: &[u64], b: &[u64]) -> u64 {
    let all: Vec<u64> = a.iter().chain(b).copied().collect();
    let n = a.len();
    f_steps(
        bits,
        &all,
        |v| {
            let p: Vec<f32> = (0..n).map(|i| v[i] * v[n + i]).collect();
            match n {
                2 => p[1] + p[0],
                3 => (p[2] + p[1]) + p[0],
                _ => (p[3] + p[2]) + (p[1] + p[0]),
            }
        },
        |v| {
            let p: Vec<f64> = (0..n).map(|i| v[i] * v[n + i]).collect();
            match n {
                2 => p[1] + p[0],
                3 => (p[2] + p[1]) + p[0],
                _ => (p[3] + p[2]) + (p[1] + p[0]),
            }
        },
    )
}

/// `fdotN` without `exact` on 32-bit floats: [`fdot`]'s pairwise sum with each product
/// that feeds an addition fused into it, as brw computes it (NIR's `fdot` reduction,
/// then `nir_opt_algebraic`'s late `fadd(fmul(a, b), c)` to `ffma` where the back end
/// fuses): `fma(a1, b1, a0 b0)`, `fma(a0, b0, fma(a2, b2, a1 b1))` and
/// `fma(a3, b3, a2 b2) + fma(a1, b1, a0 b0)`. Vulkan lets a dot product contract so
/// (its precision is inherited from the multiplications and additions, and SPIR-V
/// allows their contraction without `NoContraction`). Each step has the NaN rule of one
/// IEEE operation (a NaN operand gives the first one quieted, an invalid operation the
/// default NaN); the vISA back end emits exactly these steps as `mul`, `mad` and
/// `add`, and an inexact instruction's NaN results are open in Vulkan, so it needs no
/// fix-up.
pub(crate) fn fdot_inexact(a: &[u64], b: &[u64]) -> u64 {
    let add = |x: u64, y: u64| f_binop(32, x, y, |p, q| p + q, |p, q| p + q);
    let mul = |i: usize| f_binop(32, a[i], b[i], |p, q| p * q, |p, q| p * q);
    let fma = |i: usize, c: u64| ffma(32, a[i], b[i], c);
    match a.len().min(b.len()) {
        2 => fma(1, mul(0)),
        3 => fma(0, fma(2, mul(1))),
        _ => add(fma(3, mul(2)), fma(1, mul(0))),
    }
}

/// `flrp` without `exact` on 32-bit floats: `fma(b, c, a * (1 - c))`, three IEEE
/// operations (`1 - c` as `-c + 1`, so a NaN `c` enters with its sign flipped), each
/// with one operation's NaN rule. The vISA back end emits exactly these as `add`,
/// `mul` and a fused `mad`; the single rounding of the last step is within what
/// Vulkan allows `mix` (its precision is inherited from `a * (1 - c) + b * c`), and
/// its NaN results are open for an inexact instruction.
pub(crate) fn flrp_inexact(a: u64, b: u64, c: u64) -> u64 {
    let one_minus_c = f_binop(
        32,
        c ^ sign_bit(32),
        0x3f80_0000,
        |p, q| p + q,
        |p, q| p + q,
    );
    let a_part = f_binop(32, a, one_minus_c, |p, q| p * q, |p, q| p * q);
    ffma(32, b, c, a_part)
}

/// `fquantize2f16` (32-bit): magnitudes below 2^-14 (binary16's smallest normal) give a
/// zero of the same sign; others round to binary16 (to nearest even, overflowing to
/// infinity) and widen back. A NaN goes through the same conversions: it stays a NaN
/// (quieted, top payload bits kept).
pub(crate) fn fquantize2f16(x: u64) -> u64 {
    let f = f32::from_bits(x as u32);
    if f.abs() < 2f32.powi(-14) {
        return x & 0x8000_0000;
    }
    f16_to_f32(f32_to_f16(f)).to_bits() as u64
}

/// `irem`: C's `%` (the sign of `a`); a zero divisor gives 0 and INT_MIN % -1 gives 0,
/// the remainder of the wrapped quotient.
pub(crate) fn irem(bits: u8, a: u64, b: u64) -> u64 {
    let (a, b) = (sign_extend(bits, a), sign_extend(bits, b));
    if b == 0 {
        0
    } else {
        a.wrapping_rem(b) as u64
    }
}

/// `imod`: the remainder with the sign of `b`; a zero divisor gives 0.
pub(crate) fn imod(bits: u8, a: u64, b: u64) -> u64 {
    let (a, b) = (sign_extend(bits, a), sign_extend(bits, b));
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r == 0 || (a >= 0) == (b >= 0) {
        r as u64
    } else {
        r.wrapping_add(b) as u64
    }
}

/// `isign`: -1, 0 or 1.
pub(crate) fn isign(bits: u8, a: u64) -> u64 {
    sign_extend(bits, a).signum() as u64
}

/// `find_lsb`: the index of the lowest set bit, -1 for 0.
pub(crate) fn find_lsb(a: u64) -> u64 {
    if a == 0 {
        u32::MAX as u64
    } else {
        a.trailing_zeros() as u64
    }
}

/// `ifind_msb` (32-bit): the index of the highest bit that differs from the sign bit,
/// -1 for 0 and -1.
pub(crate) fn ifind_msb(a: u64) -> u64 {
    let v = a as u32 as i32;
    let m = if v < 0 { !v } else { v } as u32;
    if m == 0 {
        u32::MAX as u64
    } else {
        31 - m.leading_zeros() as u64
    }
}

/// `bitfield_reverse`: bit `i` of the 32-bit operand becomes bit `31 - i`.
pub(crate) fn bitfield_reverse(a: u64) -> u64 {
    (a as u32).reverse_bits() as u64
}

#[cfg(test)]
mod tests {

    #[test]
    fn inexact_dot_products_fuse_what_brw_fuses() {
        let f = |x: f32| u64::from(x.to_bits());
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 exactly: a rounded product drops the 2^-24
        // (a tie, to even), a fused one keeps it, so fma(a1, b1, a0 b0) with a0 b0 = -1
        // is 2^-11 + 2^-24 (0x3a000400), where the product and a sum give 2^-11.
        let e = 1.0 + 2f32.powi(-12);
        assert_eq!(fdot_inexact(&[f(-1.0), f(e)], &[f(1.0), f(e)]), 0x3a00_0400);
        // fdot3: fma(a0, b0, fma(a2, b2, a1 b1)): the inner fma is 1 + 2^-11 + 2^-24
        // rounded once to 1 + 2^-11; minus 1 gives 2^-11.
        assert_eq!(
            fdot_inexact(&[f(-1.0), f(1.0), f(e)], &[f(1.0), f(0.0), f(e)]),
            0x3a00_0000
        );
        // fdot4: fma(a3, b3, a2 b2) + fma(a1, b1, a0 b0), each half fused: the high half
        // is 2^-11 + 2^-24 as above, the low half 3 * 2 + 0.5 * 0.5 = 6.25.
        let hi = f32::from_bits(0x3a00_0400);
        assert_eq!(
            fdot_inexact(
                &[f(0.5), f(3.0), f(-1.0), f(e)],
                &[f(0.5), f(2.0), f(1.0), f(e)]
            ),
            f(6.25 + hi)
        );
    }

    use super::*;

    const ONE: u64 = 0x3f80_0000;

    fn f(x: f32) -> u64 {
        x.to_bits() as u64
    }

    #[test]
    fn integer_remainders_follow_nir() {
        // 7 rem -3 = 1 (sign of a), 7 mod -3 = -2 (sign of b); -7 mod 3 = 2.
        let m = |v: i64| v as u64 & 0xffff_ffff;
        assert_eq!(irem(32, 7, m(-3)) & 0xffff_ffff, 1);
        assert_eq!(imod(32, 7, m(-3)) & 0xffff_ffff, m(-2));
        assert_eq!(imod(32, m(-7), 3) & 0xffff_ffff, 2);
        assert_eq!(irem(32, m(-7), 3) & 0xffff_ffff, m(-1));
        assert_eq!(imod(32, m(-6), 3), 0);
        assert_eq!(irem(32, 5, 0), 0);
        assert_eq!(imod(32, 5, 0), 0);
        assert_eq!(irem(32, 0x8000_0000, m(-1)), 0);
        assert_eq!(isign(32, m(-9)) & 0xffff_ffff, 0xffff_ffff);
        assert_eq!(isign(8, 0x80) & 0xff, 0xff);
        assert_eq!(isign(32, 0), 0);
        assert_eq!(isign(32, 12), 1);
    }

    #[test]
    fn bit_scans() {
        assert_eq!(find_lsb(0), 0xffff_ffff);
        assert_eq!(find_lsb(0b1011000), 3);
        assert_eq!(find_lsb(1 << 63), 63);
        assert_eq!(ifind_msb(0), 0xffff_ffff);
        assert_eq!(ifind_msb(0xffff_ffff), 0xffff_ffff);
        assert_eq!(ifind_msb(1), 0);
        assert_eq!(ifind_msb(0x7fff_ffff), 30);
        // -2 = ...11110: the highest bit unlike the sign is bit 0.
        assert_eq!(ifind_msb(0xffff_fffe), 0);
        assert_eq!(ifind_msb(0x8000_0000), 30);
        assert_eq!(bitfield_reverse(1), 0x8000_0000);
        assert_eq!(bitfield_reverse(0x0000_00f0), 0x0f00_0000);
    }

    #[test]
    fn sign_fract_and_lrp() {
        assert_eq!(fsign(32, f(-3.5)), f(-1.0));
        assert_eq!(fsign(32, f(0.25)), ONE);
        assert_eq!(fsign(32, f(-0.0)), f(-0.0));
        assert_eq!(fsign(32, 0x7fc0_0001), 0);
        assert_eq!(fsign(16, 0xc500), 0xbc00);
        assert_eq!(ffract(32, f(2.75)), f(0.75));
        assert_eq!(ffract(32, f(-0.25)), f(0.75));
        // -2^-30 - floor(-2^-30) = 1 - 2^-30, which rounds to 1.0 in binary32.
        assert_eq!(ffract(32, f(-(2f32.powi(-30)))), ONE);
        assert_eq!(ffract(32, f(f32::INFINITY)), 0xffc0_0000);
        assert_eq!(flrp(32, f(2.0), f(6.0), f(0.25)), f(3.0));
        // The inexact form: 6 * 0.25 fused with 2 * (1 - 0.25) = 1.5 is 3; a NaN `c`
        // enters `1 - c` negated but the `fma` meets `c` itself first (quieted); with
        // NaNs in `a` and `b` the `fma` meets `b` first.
        assert_eq!(flrp_inexact(f(2.0), f(6.0), f(0.25)), f(3.0));
        assert_eq!(flrp_inexact(f(1.0), f(2.0), 0x7fa0_0000), 0x7fe0_0000);
        assert_eq!(flrp_inexact(0x7fc0_0001, 0x7fc0_0002, f(0.5)), 0x7fc0_0002);
        // 0 * inf in `a * (1 - c)` is invalid: the default NaN (sign set).
        assert_eq!(flrp_inexact(f(f32::INFINITY), f(2.0), f(1.0)), 0xffc0_0000);
        // a = 1, b = 1 + 2^-23, c = 0.5: b * c + a * (1 - c) is 1 + 2^-24 exactly, a tie
        // that rounds to even (1.0).
        assert_eq!(flrp_inexact(f(1.0), f(1.0 + f32::EPSILON), f(0.5)), f(1.0));
        assert_eq!(flrp(32, 0x7fa0_0000, f(1.0), f(0.5)), 0x7fe0_0000);
        assert_eq!(
            flrp(64, 2f64.to_bits(), 4f64.to_bits(), 0.5f64.to_bits()),
            3f64.to_bits()
        );
    }

    #[test]
    fn modulus_and_remainder() {
        assert_eq!(fmod(32, f(-7.0), f(3.0)), f(2.0));
        assert_eq!(frem(32, f(-7.0), f(3.0)), f(-1.0));
        assert_eq!(fmod(32, f(7.5), f(-2.0)), f(-0.5));
        assert_eq!(frem(32, f(7.5), f(-2.0)), f(1.5));
        assert_eq!(fmod(32, f(1.0), f(0.0)), 0xffc0_0000);
        assert_eq!(frem(16, 0x4700, 0x4000), 0x3c00); // 7 rem 2 = 1
    }

    #[test]
    fn ldexp_flushes_what_is_not_normal() {
        assert_eq!(ldexp(32, f(1.5), 3), f(12.0));
        assert_eq!(
            ldexp(32, f(-1.0), (-126i32) as u32 as u64),
            f(-(2f32.powi(-126)))
        );
        // 2^-127 is subnormal: flushed to a zero of x's sign.
        assert_eq!(ldexp(32, f(-1.0), (-127i32) as u32 as u64), f(-0.0));
        assert_eq!(ldexp(32, f(1.0), 128), 0);
        assert_eq!(ldexp(32, f(f32::INFINITY), 0), 0);
        assert_eq!(ldexp(32, 0xffc0_0000, 0), 0x8000_0000);
        // 16 bits: 2^-20 is normal in float, so it survives the flush and becomes a
        // binary16 subnormal (0x0010 = 16 * 2^-24).
        assert_eq!(ldexp(16, 0x3c00, (-20i32) as u32 as u64), 0x0010);
        assert_eq!(ldexp(64, 1f64.to_bits(), 10), 1024f64.to_bits());
    }

    #[test]
    fn dot_products_reduce_pairwise() {
        let a = [f(1.0), f(2.0), f(3.0), f(4.0)];
        let b = [f(5.0), f(6.0), f(7.0), f(8.0)];
        assert_eq!(fdot(32, &a[..2], &b[..2]), f(17.0));
        assert_eq!(fdot(32, &a[..3], &b[..3]), f(38.0));
        assert_eq!(fdot(32, &a, &b), f(70.0));
        // The order shows with cancellation: (p2 + p1) + p0 with p2 = 1, p1 = 2^24,
        // p0 = -2^24: p2 + p1 rounds to 2^24 and the result is 0, while left to right
        // (p0 + p1) + p2 would give 1.
        let x = [f(-16_777_216.0), f(16_777_216.0), f(1.0)];
        let ones = [ONE, ONE, ONE];
        assert_eq!(fdot(32, &x, &ones), 0);
        assert_eq!(fdot(32, &[f(1.0), 0x7f80_0001], &[ONE, ONE]), 0x7fc0_0001);
    }

    #[test]
    fn quantize_to_half() {
        assert_eq!(fquantize2f16(f(1.0)), ONE);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even.
        assert_eq!(fquantize2f16(f(1.0 + 2f32.powi(-11))), ONE);
        assert_eq!(fquantize2f16(f(2f32.powi(-15))), 0);
        assert_eq!(fquantize2f16(f(-(2f32.powi(-15)))), 0x8000_0000);
        assert_eq!(fquantize2f16(f(70000.0)), f(f32::INFINITY));
        assert_eq!(fquantize2f16(f(2f32.powi(-14))), f(2f32.powi(-14)));
    }

    #[test]
    fn roots_and_transcendentals() {
        assert_eq!(fsqrt(32, f(2.0)), f(std::f32::consts::SQRT_2));
        assert_eq!(fsqrt(32, f(-1.0)), 0xffc0_0000);
        assert_eq!(frsq(32, f(4.0)), f(0.5));
        assert_eq!(frsq(32, f(0.0)), f(f32::INFINITY));
        assert_eq!(fexp2(32, f(10.0)), f(1024.0));
        assert_eq!(fexp2(32, f(-1.0)), f(0.5));
        assert_eq!(flog2(32, f(8.0)), f(3.0));
        assert_eq!(flog2(32, f(0.0)), f(f32::NEG_INFINITY));
        assert_eq!(flog2(32, f(-1.0)), 0xffc0_0000);
        assert_eq!(fsin(32, f(0.0)), 0);
        assert_eq!(fcos(32, f(0.0)), ONE);
        // sin(pi/6) = 0.5 within binary64 error, so binary32 rounds to exactly 0.5.
        assert_eq!(fsin(32, f((std::f64::consts::PI / 6.0) as f32)), f(0.5));
        assert_eq!(fpow(32, f(2.0), f(10.0)), f(1024.0));
        assert_eq!(fpow(32, 0x7fc0_0000, f(0.0)), ONE);
        assert_eq!(fpow(32, ONE, 0x7fc0_0000), ONE);
        assert_eq!(fpow(32, f(-8.0), f(1.0 / 3.0)), 0xffc0_0000);
        assert_eq!(fpow(32, 0x7f80_0001, f(2.0)), 0x7fc0_0001);
        assert_eq!(fexp2(16, 0x4800), 0x5c00); // 2^8 = 256: biased exponent 23
        assert_eq!(fsqrt(64, 9f64.to_bits()), 3f64.to_bits());
    }
}
