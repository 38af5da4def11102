//! The LSC atomic sub-ops on memory values (`docs/hardware/lsc-messages.md` §2), and how NIR's
//! atomic ops map to them.

use ir::eval::{eval_alu, Operand};
use ir::lsc::LscAtomicOp;
use ir::{AluOp, AtomicOp, Type};

/// One float ALU op through the shared ALU semantics.
fn float_op(op: AluOp, bits: u8, a: u64, b: u64) -> u64 {
    let ty = if op == AluOp::Feq {
        Type::BOOL
    } else {
        Type::scalar(bits).expect("16, 32 or 64")
    };
    eval_alu(
        op,
        ty,
        &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
    )
    .map(|v| v[0])
    .expect("float ops on 16-, 32- and 64-bit scalars evaluate")
}

/// The LSC atomic `op` on a `bits`-bit memory value (16, 32 or 64). Returns the new
/// value.
pub fn apply_lsc_atomic(op: LscAtomicOp, bits: u8, old: u64, src1: u64, src2: u64) -> u64 {
    let m = ir::types::bit_mask(bits);
    let (old, a, b) = (old & m, src1 & m, src2 & m);
    let sext = |v: u64| ir::eval::sign_extend(bits, v);
    let new = match op {
        LscAtomicOp::Iinc => old.wrapping_add(1),
        LscAtomicOp::Idec => old.wrapping_sub(1),
        LscAtomicOp::Load => old,
        LscAtomicOp::Store => a,
        LscAtomicOp::Iadd => old.wrapping_add(a),
        LscAtomicOp::Isub => old.wrapping_sub(a),
        LscAtomicOp::Smin => {
            if sext(a) < sext(old) {
                a
            } else {
                old
            }
        }
        LscAtomicOp::Smax => {
            if sext(a) > sext(old) {
                a
            } else {
                old
            }
        }
        LscAtomicOp::Umin => old.min(a),
        LscAtomicOp::Umax => old.max(a),
        LscAtomicOp::Icas => {
            if old == a {
                b
            } else {
                old
            }
        }
        LscAtomicOp::Fadd => float_op(AluOp::Fadd, bits, old, a),
        LscAtomicOp::Fsub => float_op(AluOp::Fsub, bits, old, a),
        LscAtomicOp::Fmin => float_op(AluOp::Fmin, bits, old, a),
        LscAtomicOp::Fmax => float_op(AluOp::Fmax, bits, old, a),
        LscAtomicOp::Fcas => {
            if float_op(AluOp::Feq, bits, old, a) != 0 {
                b
            } else {
                old
            }
        }
        LscAtomicOp::And => old & a,
        LscAtomicOp::Or => old | a,
        LscAtomicOp::Xor => old ^ a,
    };
    new & m
}

/// NIR atomic ops and LSC sub-ops agree where both exist; used by tests and the verifier
/// to relate the two levels.
pub fn lsc_op_for_nir(op: AtomicOp) -> Option<LscAtomicOp> {
    Some(match op {
        AtomicOp::Iadd => LscAtomicOp::Iadd,
        AtomicOp::Imin => LscAtomicOp::Smin,
        AtomicOp::Umin => LscAtomicOp::Umin,
        AtomicOp::Imax => LscAtomicOp::Smax,
        AtomicOp::Umax => LscAtomicOp::Umax,
        AtomicOp::Iand => LscAtomicOp::And,
        AtomicOp::Ior => LscAtomicOp::Or,
        AtomicOp::Ixor => LscAtomicOp::Xor,
        AtomicOp::Xchg => LscAtomicOp::Store,
        AtomicOp::Fadd => LscAtomicOp::Fadd,
        AtomicOp::Fmin => LscAtomicOp::Fmin,
        AtomicOp::Fmax => LscAtomicOp::Fmax,
        AtomicOp::Cmpxchg => LscAtomicOp::Icas,
        AtomicOp::Fcmpxchg => LscAtomicOp::Fcas,
        // docs/hardware/lsc-messages.md §13: no LSC mapping.
        AtomicOp::IncWrap | AtomicOp::DecWrap => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::apply_nir_atomic;

    #[test]
    fn lsc_and_nir_atomics_agree_where_both_exist() {
        let values = [
            0u64,
            1,
            5,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x7fc0_0000,
        ];
        for &op in &AtomicOp::ALL {
            let Some(lop) = lsc_op_for_nir(op) else {
                continue;
            };
            for &a in &values {
                for &b in &values {
                    for &c in &[0u64, 9] {
                        let n = apply_nir_atomic(op, 32, a, b, c).unwrap();
                        let l = apply_lsc_atomic(lop, 32, a, b, c);
                        assert_eq!(n, l, "{op} {a:#x} {b:#x} {c}");
                    }
                }
            }
        }
    }
}
