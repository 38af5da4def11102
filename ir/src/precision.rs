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

#[cfg(test)]
mod tests {
    use super::*;

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
