//! Bit scans and reversal: NIR's `find_lsb`, `ifind_msb` and `bitfield_reverse`, with
//! vISA's `fbl`, `lzd` and `bfrev` (IGC `documentation/visa/instructions/FBL.md`,
//! `LZD.md`, `BFREV.md`), exact on every platform.
//!
//! - `find_lsb(x)` (any integer size): `fbl`, which gives `0xffffffff` (-1) for 0, as
//!   NIR. A narrower value is zero-extended (its set bits are where they were; a 1-bit
//!   true, stored as all ones, has bit 0 set); a 64-bit value takes `fbl` of its low
//!   half, or 32 plus `fbl` of its high half when the low half is 0, or -1 when both
//!   are.
//! - `ifind_msb(x)` (32 bits): the highest bit that differs from the sign bit is the
//!   highest set bit of `x ^ (x >> 31)` (arithmetic shift), `31 - lzd` of it; `lzd(0)`
//!   is 32, so 0 and -1 give -1, as NIR. (vISA `fbh` on `d` counts the same bit from
//!   the top; `lzd` keeps the sequence to the instructions `ufind_msb` uses.)
//! - `bitfield_reverse(x)` (32 bits): `bfrev`.

use crate::ctx::{Ctx, Opnd};
use crate::error::EmitError;
use crate::ops::{copy, widen};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const UD: VType = VType::Ud;
const D: VType = VType::D;

/// Emits `find_lsb`, `ifind_msb` or `bitfield_reverse` (every component); `bits` is the
/// bit size of the source.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let a = cx.comp(alu.srcs[0], i)?;
        // A constant goes to a register: the sequences compare and shift it.
        let a = match a {
            Opnd::Imm(_) => {
                let wide = if bits == 64 { 64 } else { 32 };
                let t = cx.temp(VType::uint(wide));
                copy(cx, t, a, wide);
                Opnd::Reg(t)
            }
            r => r,
        };
        let d = cx.dest(dest, i)?;
        let es = cx.es();
        match alu.op {
            AluOp::FindLsb if bits == 64 => {
                let (lo, hi) = (cx.temp(UD), cx.temp(UD));
                cx.op("fbl", lo, UD, &[a.half(false)]);
                cx.op("fbl", hi, UD, &[a.half(true)]);
                cx.op("add", hi, UD, &[Opnd::Reg(hi), Opnd::Imm(32)]);
                let p = cx.pred();
                let sh = cx.src(a.half(true), UD);
                cx.line(&format!("cmp.eq {es} {p} {sh} 0x0:ud"));
                let (dh, shi) = (cx.dst(hi, UD), cx.src(Opnd::Reg(hi), UD));
                cx.line(&format!("({p}) sel {es} {dh} 0xffffffff:ud {shi}"));
                let p = cx.pred();
                let sl = cx.src(a.half(false), UD);
                cx.line(&format!("cmp.eq {es} {p} {sl} 0x0:ud"));
                let (dd, shi, slo) = (
                    cx.dst(d, UD),
                    cx.src(Opnd::Reg(hi), UD),
                    cx.src(Opnd::Reg(lo), UD),
                );
                cx.line(&format!("({p}) sel {es} {dd} {shi} {slo}"));
            }
            AluOp::FindLsb => {
                let x = if bits == 1 {
                    a
                } else {
                    widen(cx, a, bits, false)
                };
                cx.op("fbl", d, UD, &[x]);
            }
            AluOp::IfindMsb => {
                let m = cx.temp(D);
                cx.op("asr", m, D, &[a, Opnd::Imm(31)]);
                cx.op("xor", m, D, &[a, Opnd::Reg(m)]);
                cx.op("lzd", m, UD, &[Opnd::Reg(m)]);
                let (dd, sm) = (cx.dst(d, D), cx.src(Opnd::Reg(m), D));
                cx.line(&format!("add {es} {dd} (-){sm} 0x1f:d"));
            }
            AluOp::BitfieldReverse => cx.op("bfrev", d, UD, &[a]),
            other => {
                return Err(cx.unsupported(format!("`{other}` is not a bit scan or reversal")));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    /// Runs a one-source scan on `values` (`bits`-bit, one component) on DG2.
    fn scan(op: AluOp, bits: u8, values: &[u64]) -> Vec<u32> {
        let lanes: Vec<Vec<Vec<u64>>> = values.iter().map(|&v| vec![vec![v]]).collect();
        run_op("dg2", op, (32, 1), &[(bits, 1)], &lanes, 0)
            .unwrap()
            .iter()
            .map(|r| r[0] as u32)
            .collect()
    }

    #[test]
    fn find_lsb_by_hand() {
        let m1 = u32::MAX;
        assert_eq!(
            scan(AluOp::FindLsb, 32, &[0, 1, 0x8000_0000, 0b101_1000]),
            [m1, 0, 31, 3]
        );
        assert_eq!(
            scan(AluOp::FindLsb, 64, &[0, 1 << 40, 0x1_0000_0001, 1 << 63]),
            [m1, 40, 0, 63]
        );
        assert_eq!(scan(AluOp::FindLsb, 8, &[0, 0x80, 0x06]), [m1, 7, 1]);
        assert_eq!(scan(AluOp::FindLsb, 16, &[0, 0x8000]), [m1, 15]);
        assert_eq!(scan(AluOp::FindLsb, 1, &[0, 1]), [m1, 0]);
    }

    #[test]
    fn ifind_msb_and_reverse_by_hand() {
        let m1 = u32::MAX;
        // -2 = ...1110: the highest bit unlike the sign is bit 0; INT_MIN's is bit 30.
        assert_eq!(
            scan(
                AluOp::IfindMsb,
                32,
                &[
                    0,
                    0xffff_ffff,
                    1,
                    0x7fff_ffff,
                    0xffff_fffe,
                    0x8000_0000,
                    0x100
                ]
            ),
            [m1, m1, 0, 30, 0, 30, 8]
        );
        assert_eq!(
            scan(
                AluOp::BitfieldReverse,
                32,
                &[1, 0xf0, 0x8000_0000, 0x1234_5678]
            ),
            [0x8000_0000, 0x0f00_0000, 1, 0x1e6a_2c48]
        );
    }

    #[test]
    fn scans_match_ir_eval_on_every_platform() {
        let mut values: Vec<u64> = vec![0, 1, u64::MAX, 1 << 31, 1 << 32, 1 << 63];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x >> (x % 60));
        }
        for plat in ["dg2", "mtl", "pvc"] {
            for (op, sizes) in [
                (AluOp::FindLsb, &[1u8, 8, 16, 32, 64][..]),
                (AluOp::IfindMsb, &[32]),
                (AluOp::BitfieldReverse, &[32]),
            ] {
                for &bits in sizes {
                    let mask = if bits == 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    let lanes: Vec<Vec<Vec<u64>>> =
                        values.iter().map(|&v| vec![vec![v & mask]]).collect();
                    check_exact(plat, op, (32, 1), &[(bits, 1)], &lanes, 0);
                }
            }
        }
    }
}
