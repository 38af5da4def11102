//! Float semantics of ALU instructions with and without NIR's `exact` flag, as the
//! Vulkan environment for SPIR-V defines them (the Vulkan specification, appendix
//! "Vulkan Environment for SPIR-V", section "Precision and Operation of SPIR-V
//! Instructions"). The table is `ir/PRECISION.md`.
//!
//! Without `SignedZeroInfNanPreserve`, Vulkan does not make an implementation preserve
//! infinities, NaNs or the sign of zero, and NIR's inexact algebraic rules (its `~`
//! rules: `a * 0.0` is `0.0`, `a + 0.0` is `a`) rely on that for every instruction
//! without `exact`. [`result_unspecified`] says where such a rule may change a result,
//! so that comparisons of two runs (the interpreter's undef tracking) accept it there
//! and nowhere else.

use crate::alu::AluOp;
use crate::eval::Operand;
use crate::types::BaseType;

/// Whether `op` reads or computes floats: the instructions the precision rules cover.
pub fn is_float_op(op: AluOp) -> bool {
    let info = op.info();
    info.output_type.base == BaseType::Float
        || info.input_types[..info.num_inputs as usize]
            .iter()
            .any(|t| t.base == BaseType::Float)
}

/// Whether the float `v` of `bits` bits is an infinity or a NaN (all exponent bits set).
pub fn is_inf_or_nan(bits: u8, v: u64) -> bool {
    let exp = match bits {
        16 => 0x7c00,
        32 => 0x7f80_0000,
        64 => 0x7ff0_0000_0000_0000,
        _ => return false,
    };
    v & exp == exp
}

/// Whether the float `v` of `bits` bits is a zero of either sign.
pub fn is_zero(bits: u8, v: u64) -> bool {
    match bits {
        16 | 32 | 64 => v & !(1u64 << (bits - 1)) == 0,
        _ => false,
    }
}

/// Whether Vulkan leaves the result of an instruction unspecified, as far as NIR's
/// inexact rules use that freedom: the instruction is a float instruction without
/// `exact`, and a float operand is an infinity or a NaN, or the float result is a zero
/// (whose sign is free), an infinity or a NaN. `srcs` are the operands one lane read,
/// `result` what the exact evaluation gave (of `dest_bits` bits).
pub fn result_unspecified(
    op: AluOp,
    exact: bool,
    srcs: &[Operand<'_>],
    dest_bits: u8,
    result: &[u64],
) -> bool {
    if exact || !is_float_op(op) {
        return false;
    }
    let info = op.info();
    let float_in = srcs
        .iter()
        .zip(info.input_types.iter())
        .filter(|(_, t)| t.base == BaseType::Float)
        .any(|(o, _)| o.comps.iter().any(|&v| is_inf_or_nan(o.bit_size, v)));
    let float_out = info.output_type.base == BaseType::Float
        && result
            .iter()
            .any(|&v| is_inf_or_nan(dest_bits, v) || is_zero(dest_bits, v));
    float_in || float_out
}

/// How far an instruction's result may be from the true value, as the Vulkan
/// environment for SPIR-V states it for binary32 (the table in `ir/PRECISION.md`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Bound {
    /// Correctly rounded: the executor's result (`ir::eval`), bit for bit.
    CorrectlyRounded,
    /// Within this many units in the last place of the true result.
    Ulps(f64),
    /// Vulkan gives no bound of its own: the op inherits the bounds of the operations
    /// it is defined by, or is an absolute error or a range-dependent bound that
    /// [`within`] does not model. The executor's own result is the only one accepted.
    Other,
}

/// Vulkan's bound for the result of `op` (binary32; 16- and 64-bit floats are held to
/// the same number of their own ulps), or `None` for an op without float results.
pub fn vulkan_bound(op: AluOp) -> Option<Bound> {
    use AluOp::*;
    if op.info().output_type.base != BaseType::Float {
        return None;
    }
    Some(match op {
        // OpFDiv: 2.5 ULP for |y| in [2^-126, 2^126]; `frcp` is a division of 1.0.
        Fdiv | Frcp => Bound::Ulps(2.5),
        // InverseSqrt: 2 ULP.
        Frsq => Bound::Ulps(2.0),
        // Sqrt (inherited from 1.0 / inversesqrt()), Exp2 (3 + 2|x| ULP), Log2 (3 ULP
        // outside [0.5, 2.0], an absolute error inside), Sin and Cos (absolute error),
        // Pow (inherited from exp2(y * log2(x))): the executor's result.
        Fsqrt | Fexp2 | Flog2 | Fsin | Fcos | Fpow => Bound::Other,
        // OpFAdd, OpFSub, OpFMul, conversions, min, max, rounding, sign operations:
        // correctly rounded or exact.
        _ => Bound::CorrectlyRounded,
    })
}

/// One unit in the last place of `x` for a float of `bits` bits: the distance between
/// the two floats of that size next to `x` (the spacing of the denormals below the
/// smallest normal).
pub fn ulp(bits: u8, x: f64) -> f64 {
    let (mant, min_exp) = match bits {
        16 => (10, -14),
        64 => (52, -1022),
        _ => (23, -126),
    };
    let e = if x == 0.0 {
        min_exp
    } else {
        (x.abs().log2().floor() as i32).max(min_exp)
    };
    2f64.powi(e - mant)
}

/// Whether `actual` (the bits of a float of `bits` bits) is an acceptable result of an
/// instruction of `op` whose executor result is `reference` and whose true value is
/// `truth`: the same bits, or, for an instruction without `exact`, a finite value within
/// [`vulkan_bound`] of `truth`.
pub fn within(op: AluOp, exact: bool, bits: u8, reference: u64, actual: u64, truth: f64) -> bool {
    if actual == reference {
        return true;
    }
    if exact || !truth.is_finite() {
        return false;
    }
    let Some(Bound::Ulps(n)) = vulkan_bound(op) else {
        return false;
    };
    let value = match bits {
        16 => f64::from(crate::eval::f16_to_f32(actual as u16)),
        32 => f64::from(f32::from_bits(actual as u32)),
        64 => f64::from_bits(actual),
        _ => return false,
    };
    value.is_finite() && (value - truth).abs() <= n * ulp(bits, truth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval_alu, eval_alu_flagged};
    use crate::types::Type;

    /// xorshift
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn an_inexact_division_is_within_vulkans_bound() {
        // fmul(a, frcp(b)), each rounded: within 2.5 ULP of the true quotient wherever
        // Vulkan bounds OpFDiv (|b| in [2^-126, 2^126]) and the quotient is normal.
        let mut st = 0x9e37_79b9_7f4a_7c15u64;
        let (mut checked, mut differ) = (0, 0);
        while checked < 200_000 {
            let r = next(&mut st);
            let (a, b) = (f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32));
            let q = f64::from(a) / f64::from(b);
            let in_range = (2f32.powi(-126)..=2f32.powi(126)).contains(&b.abs());
            if !(a.is_finite() && in_range && q.abs() >= 2f64.powi(-126) && q.abs() < 3.4e38) {
                continue;
            }
            checked += 1;
            let (ca, cb) = ([u64::from(a.to_bits())], [u64::from(b.to_bits())]);
            let ops = [Operand::new(32, &ca), Operand::new(32, &cb)];
            let exact = eval_alu(AluOp::Fdiv, Type::U32, &ops).unwrap()[0];
            let inexact = eval_alu_flagged(AluOp::Fdiv, false, Type::U32, &ops).unwrap()[0];
            assert_eq!(
                eval_alu_flagged(AluOp::Fdiv, true, Type::U32, &ops).unwrap()[0],
                exact
            );
            differ += usize::from(exact != inexact);
            assert!(
                within(AluOp::Fdiv, false, 32, exact, inexact, q),
                "{a:e} / {b:e}: {inexact:#x}, correctly rounded {exact:#x}"
            );
            // An exact division accepts its own result only.
            assert_eq!(
                within(AluOp::Fdiv, true, 32, exact, inexact, q),
                exact == inexact
            );
        }
        // The two divisions do differ (in about a fifth of the cases).
        assert!(differ > checked / 20, "{differ} of {checked}");
    }

    #[test]
    fn ulps_of_each_size() {
        assert_eq!(ulp(32, 1.0), 2f64.powi(-23));
        assert_eq!(ulp(32, 1.5), 2f64.powi(-23));
        assert_eq!(ulp(32, 0.75), 2f64.powi(-24));
        assert_eq!(ulp(32, 1e-40), 2f64.powi(-149));
        assert_eq!(ulp(16, 1.0), 2f64.powi(-10));
        assert_eq!(ulp(64, 2.0), 2f64.powi(-51));
        assert_eq!(vulkan_bound(AluOp::Fdiv), Some(Bound::Ulps(2.5)));
        assert_eq!(vulkan_bound(AluOp::Fadd), Some(Bound::CorrectlyRounded));
        assert_eq!(vulkan_bound(AluOp::Iadd), None);
        // 1.0 + 2 ulps is within 2.5 ulps of 1.0, 1.0 + 3 ulps is not; a correctly
        // rounded op accepts its own result only.
        let one = 0x3f80_0000;
        assert!(within(AluOp::Fdiv, false, 32, one, one + 2, 1.0));
        assert!(!within(AluOp::Fdiv, false, 32, one, one + 3, 1.0));
        assert!(!within(AluOp::Fadd, false, 32, one, one + 1, 1.0));
    }

    #[test]
    fn specials_of_each_size() {
        assert!(is_inf_or_nan(32, 0x7f80_0000) && is_inf_or_nan(32, 0xffc0_0001));
        assert!(!is_inf_or_nan(32, 0x7f7f_ffff));
        assert!(is_inf_or_nan(16, 0xfc00) && !is_inf_or_nan(16, 0x7bff));
        assert!(is_inf_or_nan(64, 0x7ff8_0000_0000_0000));
        assert!(is_zero(32, 0x8000_0000) && is_zero(32, 0) && !is_zero(32, 1));
        assert!(is_zero(16, 0x8000) && !is_zero(16, 0x0001));
    }

    #[test]
    fn only_inexact_float_instructions_have_unspecified_results() {
        let one = [0x3f80_0000u64];
        let inf = [0x7f80_0000u64];
        let zero = [0u64];
        let (a, i, z) = (
            Operand::new(32, &one),
            Operand::new(32, &inf),
            Operand::new(32, &zero),
        );
        // inf * 0.0: NaN exactly, anything without `exact` (NIR folds it to 0.0).
        assert!(result_unspecified(
            AluOp::Fmul,
            false,
            &[i, z],
            32,
            &[0x7fc0_0000]
        ));
        assert!(!result_unspecified(
            AluOp::Fmul,
            true,
            &[i, z],
            32,
            &[0x7fc0_0000]
        ));
        // 1.0 * 0.0 = +0.0: the sign of the zero is free.
        assert!(result_unspecified(AluOp::Fmul, false, &[a, z], 32, &[0]));
        // 1.0 + 1.0 = 2.0 is specified.
        assert!(!result_unspecified(
            AluOp::Fadd,
            false,
            &[a, a],
            32,
            &[0x4000_0000]
        ));
        // Integer ops and false comparisons are not float results.
        assert!(!result_unspecified(AluOp::Iadd, false, &[z, z], 32, &[0]));
        assert!(!result_unspecified(AluOp::Flt, false, &[a, a], 1, &[0]));
        assert!(result_unspecified(AluOp::Flt, false, &[a, i], 1, &[1]));
    }
}
