//! The atomic operations of the legacy data port on a memory value.
//!
//! Integer operations wrap at the operand's width (16, 32 or 64 bits); `imin`/`imax`
//! compare signed values, `umin`/`umax` unsigned ones; `cmpwr` writes `src1` where the
//! old value equals `src0` bit for bit. The float operations act on binary16 or binary32
//! values: `fmin`/`fmax` with NIR's `fmin`/`fmax` (a NaN operand yields the other, −0
//! orders below +0) and `fcmpwr` with NIR's `feq` (−0 equals +0, a NaN equals nothing).
//! No public document states the data port's NaN and signed-zero rules; these are the
//! ones the LSC atomics of the executor use too, so both message families and the
//! reference's NIR atomics agree.

use ir::dataport::DpAtomicOp;
use ir::eval::{eval_alu, sign_extend, Operand};
use ir::{AluOp, Type};

fn float_op(op: AluOp, bits: u8, a: u64, b: u64) -> u64 {
    let ty = if op == AluOp::Feq {
        Type::BOOL
    } else {
        Type::scalar(bits).expect("16- or 32-bit floats")
    };
    eval_alu(
        op,
        ty,
        &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
    )
    .map(|v| v[0])
    .expect("float ops on 16- and 32-bit scalars evaluate")
}

/// The value `op` writes over `old` with operands `src0`, `src1`, all `bits` wide.
pub fn apply_dp_atomic(op: DpAtomicOp, bits: u8, old: u64, src0: u64, src1: u64) -> u64 {
    let m = ir::types::bit_mask(bits);
    let (old, a, b) = (old & m, src0 & m, src1 & m);
    let s = |v: u64| sign_extend(bits, v);
    let new = match op {
        DpAtomicOp::And => old & a,
        DpAtomicOp::Or => old | a,
        DpAtomicOp::Xor => old ^ a,
        DpAtomicOp::Mov => a,
        DpAtomicOp::Inc => old.wrapping_add(1),
        DpAtomicOp::Dec => old.wrapping_sub(1),
        DpAtomicOp::Add => old.wrapping_add(a),
        DpAtomicOp::Sub => old.wrapping_sub(a),
        DpAtomicOp::Imax => {
            if s(a) > s(old) {
                a
            } else {
                old
            }
        }
        DpAtomicOp::Imin => {
            if s(a) < s(old) {
                a
            } else {
                old
            }
        }
        DpAtomicOp::Umax => old.max(a),
        DpAtomicOp::Umin => old.min(a),
        DpAtomicOp::Cmpwr => {
            if old == a {
                b
            } else {
                old
            }
        }
        DpAtomicOp::Fmax => float_op(AluOp::Fmax, bits, old, a),
        DpAtomicOp::Fmin => float_op(AluOp::Fmin, bits, old, a),
        DpAtomicOp::Fcmpwr => {
            if float_op(AluOp::Feq, bits, old, a) != 0 {
                b
            } else {
                old
            }
        }
    };
    new & m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_ops() {
        use DpAtomicOp as O;
        assert_eq!(apply_dp_atomic(O::Add, 32, 0xffff_ffff, 2, 0), 1);
        assert_eq!(apply_dp_atomic(O::Add, 16, 0xffff, 2, 0), 1);
        assert_eq!(apply_dp_atomic(O::Sub, 64, 0, 1, 0), u64::MAX);
        assert_eq!(apply_dp_atomic(O::Inc, 32, 7, 0, 0), 8);
        assert_eq!(apply_dp_atomic(O::Dec, 16, 0, 0, 0), 0xffff);
        // -1 (0xffff_ffff) against 1: signed and unsigned orders disagree.
        assert_eq!(apply_dp_atomic(O::Imin, 32, 1, 0xffff_ffff, 0), 0xffff_ffff);
        assert_eq!(apply_dp_atomic(O::Umin, 32, 1, 0xffff_ffff, 0), 1);
        assert_eq!(apply_dp_atomic(O::Imax, 16, 0x8000, 1, 0), 1);
        assert_eq!(apply_dp_atomic(O::Umax, 16, 0x8000, 1, 0), 0x8000);
        assert_eq!(apply_dp_atomic(O::Cmpwr, 32, 5, 5, 9), 9);
        assert_eq!(apply_dp_atomic(O::Cmpwr, 32, 5, 6, 9), 5);
        assert_eq!(apply_dp_atomic(O::Mov, 32, 5, 6, 0), 6);
        assert_eq!(apply_dp_atomic(O::Xor, 32, 0b1100, 0b1010, 0), 0b0110);
        // Operands are cut to the width.
        assert_eq!(apply_dp_atomic(O::Or, 16, 0, 0x1_0001, 0), 1);
    }

    #[test]
    fn float_ops() {
        use DpAtomicOp as O;
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(apply_dp_atomic(O::Fmax, 32, f(1.0), f(2.5), 0), f(2.5));
        assert_eq!(apply_dp_atomic(O::Fmin, 32, f(1.0), f(-2.5), 0), f(-2.5));
        // A NaN operand yields the other.
        assert_eq!(apply_dp_atomic(O::Fmax, 32, f(1.0), f(f32::NAN), 0), f(1.0));
        // -0 == +0 for fcmpwr.
        assert_eq!(
            apply_dp_atomic(O::Fcmpwr, 32, f(0.0), f(-0.0), f(3.0)),
            f(3.0)
        );
        assert_eq!(
            apply_dp_atomic(O::Fcmpwr, 32, f(1.0), f(2.0), f(3.0)),
            f(1.0)
        );
        // binary16: 1.0 = 0x3c00, 2.0 = 0x4000.
        assert_eq!(apply_dp_atomic(O::Fmax, 16, 0x3c00, 0x4000, 0), 0x4000);
    }
}
