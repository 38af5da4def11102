//! Integer division (`udiv`, `idiv`, `umod`, `irem`, `imod`) on 1- to 32-bit integers.
//!
//! Gfx8 to Gfx12.0 divide in the math unit: vISA `div`/`mod` on `ud`, which GenX_IR
//! compiles to `math.iqot`/`math.irem` (brw's `SHADER_OPCODE_INT_QUOTIENT` and
//! `_REMAINDER`), predicated off the lanes whose divisor is zero.
//! GenX_IR 1.0.12504 has no integer `div`/`mod` on DG2, MTL or PVC ("int
//! divide/remainder is not supported for this platform"), so there the quotient is computed
//! as Mesa's `nir_lower_idiv.c` (`emit_udiv`) computes it: a 32-bit fixed-point
//! reciprocal from the float reciprocal of the divisor, refined once with
//! `umul_high`, an estimated quotient, and two correction steps on the remainder. The
//! result is exact for every 32-bit operand pair. NIR defines division by zero as 0,
//! which is selected explicitly; signed division divides the magnitudes and negates
//! the quotient when the signs differ, so `INT_MIN / -1` wraps to `INT_MIN`.
//!
//! The signed remainders come from the remainder of the magnitudes, `r = |a| % |b|`
//! (0 for a zero divisor, and for `INT_MIN % -1`, whose magnitudes are `2^31` and 1):
//! `irem` (C's `%`, the sign of `a`) is `a < 0 ? -r : r`; `imod` (the sign of `b`) adds
//! `b` to a non-zero `irem` whose operands' signs differ, as `ir::eval` defines them.
//!
//! An operand known non-negative (`ir::range_analysis`, NIR's `nir_unsigned_upper_bound`:
//! an invocation id, a shifted or masked one) needs no magnitude and fixes no sign up:
//! two such operands divide unsigned, and with one of them the math unit's own signed
//! `div`/`mod` are NIR's (vISA's `DIV` truncates and gives the remainder the sign of
//! the dividend; the one quotient it cannot represent, `INT_MIN / -1`, needs both
//! operands negative-capable).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::ops::{bool_from_bit0, widen};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const UD: VType = VType::Ud;
const D: VType = VType::D;
const F: VType = VType::F;

/// Emits `udiv`, `idiv`, `umod`, `irem` or `imod` on `bits`-bit operands (1 to 32).
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    let n = cx.func.value_type(dest).num_components();
    let signed = matches!(alu.op, AluOp::Idiv | AluOp::Irem | AluOp::Imod);
    for i in 0..n {
        // Whether each operand is known non-negative (read as signed at `bits`).
        let signs = [0, 1].map(|k| {
            let s = alu.srcs[k];
            bits > 1
                && cx
                    .upper_bounds
                    .non_negative(s.value, s.swizzle.component(i))
        });
        let (a, b) = (cx.comp(alu.srcs[0], i)?, cx.comp(alu.srcs[1], i)?);
        let d = cx.dest(dest, i)?;
        // Widen to 32 bits: a 1-bit value reads as 0/1 unsigned and 0/-1 signed, which
        // its all-ones form already is when signed.
        let (a, b) = if bits == 1 {
            if signed {
                (a, b)
            } else {
                (crate::ops::mask(cx, a, 1), crate::ops::mask(cx, b, 1))
            }
        } else {
            (widen(cx, a, bits, signed), widen(cx, b, bits, signed))
        };
        // A 32-bit result is computed in place unless the destination shares its
        // variable with an operand (a coalesced phi), which the steps read after the
        // first write.
        let in_place = bits == 32
            && ![a, b]
                .iter()
                .any(|o| matches!(o, Opnd::Reg(r) if r.var == d.var));
        let r = if in_place { d } else { cx.temp(UD) };
        if signed && signs == [true, true] {
            // Both in [0, 2^31): every signed result is the unsigned one.
            udiv(cx, r, a, b, alu.op != AluOp::Idiv);
        } else if alu.op == AluOp::Idiv {
            sdiv(cx, r, a, b, signs);
        } else if signed {
            srem(cx, r, a, b, alu.op == AluOp::Imod, signs);
        } else {
            udiv(cx, r, a, b, alu.op == AluOp::Umod);
        }
        if in_place {
            continue;
        }
        if bits == 1 {
            bool_from_bit0(cx, r, d);
        } else {
            let ty = VType::uint(bits.max(8));
            cx.op_typed("mov", (d, ty), &[(Opnd::Reg(r), UD)]);
        }
    }
    Ok(())
}

/// `r = a / b` (or `a % b` when `modulo`), unsigned 32-bit; 0 when `b` is 0.
pub fn udiv(cx: &mut Ctx, r: Reg, a: Opnd, b: Opnd, modulo: bool) {
    let es = cx.es();
    let a = Opnd::Reg(cx.in_reg(a, UD));
    let b = Opnd::Reg(cx.in_reg(b, UD));
    if cx.t.int_div {
        math_div(cx, r, a, b, modulo, UD);
        return;
    }
    // rcp = f2u32(frcp(u2f32(b)) * 4294966784.0)
    let f = cx.temp(F);
    cx.op_typed("mov", (f, F), &[(b, UD)]);
    cx.op("inv", f, F, &[Opnd::Reg(f)]);
    cx.op(
        "mul",
        f,
        F,
        &[
            Opnd::Reg(f),
            Opnd::Imm(u64::from(4_294_966_784f32.to_bits())),
        ],
    );
    let rcp = cx.temp(UD);
    cx.op_typed("mov", (rcp, UD), &[(Opnd::Reg(f), F)]);
    // rcp += umul_high(rcp, rcp * -b)
    let t = cx.temp(UD);
    let (dt, sr, sb) = (cx.dst(t, D), cx.src(Opnd::Reg(rcp), D), cx.src(b, D));
    cx.line(&format!("mul {es} {dt} {sr} (-){sb}"));
    cx.op("mulh", t, UD, &[Opnd::Reg(rcp), Opnd::Reg(t)]);
    cx.op("add", rcp, UD, &[Opnd::Reg(rcp), Opnd::Reg(t)]);
    // q = umul_high(a, rcp); rem = a - q * b
    let q = cx.temp(UD);
    cx.op("mulh", q, UD, &[a, Opnd::Reg(rcp)]);
    let rem = cx.temp(UD);
    cx.op("mul", rem, UD, &[Opnd::Reg(q), b]);
    let (dr, sa, sm) = (cx.dst(rem, D), cx.src(a, D), cx.src(Opnd::Reg(rem), D));
    cx.line(&format!("add {es} {dr} {sa} (-){sm}"));
    // Two corrections: while rem >= b { q += 1; rem -= b }
    for _ in 0..2 {
        let p = cx.pred();
        let (sr, sb) = (cx.src(Opnd::Reg(rem), UD), cx.src(b, UD));
        cx.line(&format!("cmp.ge {es} {p} {sr} {sb}"));
        let (dq, sq) = (cx.dst(q, UD), cx.src(Opnd::Reg(q), UD));
        cx.line(&format!("({p}) add {es} {dq} {sq} 0x1:ud"));
        let (dr, sr, sb) = (cx.dst(rem, D), cx.src(Opnd::Reg(rem), D), cx.src(b, D));
        cx.line(&format!("({p}) add {es} {dr} {sr} (-){sb}"));
    }
    // b == 0 gives 0.
    let p = cx.pred();
    let sb = cx.src(b, UD);
    cx.line(&format!("cmp.eq {es} {p} {sb} 0x0:ud"));
    let res = if modulo { rem } else { q };
    let (dr, sres) = (cx.dst(r, UD), cx.src(Opnd::Reg(res), UD));
    cx.line(&format!("({p}) sel {es} {dr} 0x0:ud {sres}"));
}

/// `r = a / b` (or `a % b` when `modulo`) in the math unit on operands of type `ty`,
/// on the lanes whose divisor is not zero (what the hardware gives for a zero divisor
/// is not NIR's 0); 0 on the others.
fn math_div(cx: &mut Ctx, r: Reg, a: Opnd, b: Opnd, modulo: bool, ty: VType) {
    let es = cx.es();
    let p = cx.pred();
    let sb = cx.src(b, ty);
    cx.line(&format!("cmp.ne {es} {p} {sb} {}", ty.imm(0)));
    let dr = cx.dst(r, UD);
    cx.line(&format!("mov {es} {dr} 0x0:ud"));
    let (dr, sa, sb) = (cx.dst(r, ty), cx.src(a, ty), cx.src(b, ty));
    let op = if modulo { "mod" } else { "div" };
    cx.line(&format!("({p}) {op} {es} {dr} {sa} {sb}"));
}

/// The magnitudes of two signed 32-bit operands, read as unsigned (`|INT_MIN|` is
/// `2^31`); an operand known non-negative (`signs`) is its own.
fn magnitudes(cx: &mut Ctx, a: Opnd, b: Opnd, signs: [bool; 2]) -> (Opnd, Opnd) {
    let es = cx.es();
    let mut out = [a, b];
    for (o, non_negative) in out.iter_mut().zip(signs) {
        if non_negative {
            continue;
        }
        let t = cx.temp(D);
        let (dt, so) = (cx.dst(t, D), cx.src(*o, D));
        match *o {
            Opnd::Imm(v) => cx.line(&format!(
                "mov {es} {dt} {}",
                D.imm((v as u32 as i32).unsigned_abs() as u64)
            )),
            Opnd::Reg(_) => cx.line(&format!("mov {es} {dt} (abs){so}")),
        }
        *o = Opnd::Reg(t);
    }
    (out[0], out[1])
}

/// `r = irem(a, b)` (or `imod` when `floor`), signed 32-bit; 0 when `b` is 0.
/// `signs` says which operands are known non-negative (not both).
fn srem(cx: &mut Ctx, r: Reg, a: Opnd, b: Opnd, floor: bool, signs: [bool; 2]) {
    let es = cx.es();
    // The sign tests read a register.
    let a = Opnd::Reg(cx.in_reg(a, D));
    if cx.t.int_div && signs != [false, false] {
        // The math unit's remainder has the sign of a, as `irem`'s.
        let b = Opnd::Reg(cx.in_reg(b, D));
        math_div(cx, r, a, b, true, D);
    } else {
        let (ua, ub) = magnitudes(cx, a, b, signs);
        if signs[0] {
            // A non-negative a keeps the magnitudes' remainder.
            udiv(cx, r, ua, ub, true);
        } else {
            let m = cx.temp(UD);
            udiv(cx, m, ua, ub, true);
            negate_if_negative(cx, r, m, a);
        }
    }
    if floor {
        // A non-zero remainder of operands of different signs moves by b; with one
        // operand non-negative, the signs differ when the other is negative.
        let (p1, p2) = (cx.pred(), cx.pred());
        let sign = signs_differ(cx, a, b, signs);
        let (sr, ss) = (cx.src(Opnd::Reg(r), D), cx.src(sign, D));
        cx.line(&format!("cmp.ne {es} {p1} {sr} 0x0:d"));
        cx.line(&format!("cmp.lt {es} {p2} {ss} 0x0:d"));
        cx.line(&format!("and {es} {p1} {p1} {p2}"));
        let (dr, sb) = (cx.dst(r, D), cx.src(b, D));
        cx.line(&format!("({p1}) add {es} {dr} {sr} {sb}"));
    }
}

/// `r = a / b`, signed 32-bit, truncating; 0 when `b` is 0. `signs` says which
/// operands are known non-negative (not both).
fn sdiv(cx: &mut Ctx, r: Reg, a: Opnd, b: Opnd, signs: [bool; 2]) {
    if cx.t.int_div && signs != [false, false] {
        let a = Opnd::Reg(cx.in_reg(a, D));
        let b = Opnd::Reg(cx.in_reg(b, D));
        math_div(cx, r, a, b, false, D);
        return;
    }
    let (ua, ub) = magnitudes(cx, a, b, signs);
    let q = cx.temp(UD);
    udiv(cx, q, ua, ub, false);
    // The quotient is negative when exactly one operand is.
    let sign = signs_differ(cx, a, b, signs);
    negate_if_negative(cx, r, q, sign);
}

/// A register negative exactly when `a` and `b` have different signs: their `xor`, or
/// with one known non-negative (`signs`), the other.
fn signs_differ(cx: &mut Ctx, a: Opnd, b: Opnd, signs: [bool; 2]) -> Opnd {
    let sign = match signs {
        [true, _] => b,
        [_, true] => a,
        _ => {
            let sign = cx.temp(D);
            cx.op("xor", sign, D, &[a, b]);
            Opnd::Reg(sign)
        }
    };
    Opnd::Reg(cx.in_reg(sign, D))
}

/// `r = sign < 0 ? -m : m`.
fn negate_if_negative(cx: &mut Ctx, r: Reg, m: Reg, sign: Opnd) {
    let es = cx.es();
    let p = cx.pred();
    let ss = cx.src(sign, D);
    cx.line(&format!("cmp.lt {es} {p} {ss} 0x0:d"));
    let (dr, sm) = (cx.dst(r, D), cx.src(Opnd::Reg(m), D));
    cx.line(&format!("({p}) sel {es} {dr} (-){sm} {sm}"));
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    /// Edge operands of `bits` bits (masked): zero, ±1, the extremes, and a spread.
    pub(crate) fn edge_pairs(bits: u8) -> Vec<Vec<Vec<u64>>> {
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let min = 1u64 << (bits - 1);
        let mut vals = vec![
            0,
            1,
            mask,
            min,
            min - 1,
            min + 1,
            2,
            3,
            7,
            mask - 6,
            mask - 2,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..12 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            vals.push(x >> (x % 61));
        }
        let mut out = Vec::new();
        for &a in &vals {
            for &b in &vals {
                out.push(vec![vec![a & mask], vec![b & mask]]);
            }
        }
        out
    }

    /// `op(a, b)` on 32-bit operands (two's complement), through a DG2 kernel.
    fn rem32(op: AluOp, pairs: &[(i32, i32)]) -> Vec<i32> {
        let lanes: Vec<Vec<Vec<u64>>> = pairs
            .iter()
            .map(|&(a, b)| vec![vec![u64::from(a as u32)], vec![u64::from(b as u32)]])
            .collect();
        run_op("dg2", op, (32, 1), &[(32, 1), (32, 1)], &lanes, 0)
            .unwrap()
            .iter()
            .map(|r| r[0] as u32 as i32)
            .collect()
    }

    #[test]
    fn signed_remainders_by_hand() {
        let pairs = [
            (7, 3),
            (7, -3),
            (-7, 3),
            (-7, -3),
            (-6, 3),
            (5, 0),
            (i32::MIN, -1),
            (i32::MIN, 3),
            (0, -5),
        ];
        // irem takes the sign of a: 7 = -3 * -2 + 1, -7 = 3 * -2 - 1; INT_MIN =
        // 3 * -715827882 - 2.
        assert_eq!(rem32(AluOp::Irem, &pairs), [1, 1, -1, -1, 0, 0, 0, -2, 0]);
        // imod takes the sign of b: 7 mod -3 = -2, -7 mod 3 = 2, INT_MIN mod 3 = 1.
        assert_eq!(rem32(AluOp::Imod, &pairs), [1, -2, 2, -1, 0, 0, 0, 1, 0]);
    }

    #[test]
    fn remainders_match_ir_eval_at_every_size() {
        for plat in ["dg2", "pvc", "skl", "tgl"] {
            for bits in [8u8, 16, 32, 64] {
                let lanes = edge_pairs(bits);
                for op in [AluOp::Irem, AluOp::Imod] {
                    let (s, d) = ((bits, 1), (bits, 1));
                    check_exact(plat, op, d, &[s, s], &lanes, 0);
                }
            }
        }
        // 1-bit operands are 0 or -1: every remainder is 0.
        let lanes: Vec<Vec<Vec<u64>>> =
            (0..4u64).map(|k| vec![vec![k & 1], vec![k >> 1]]).collect();
        for op in [AluOp::Irem, AluOp::Imod] {
            check_exact("dg2", op, (1, 1), &[(1, 1), (1, 1)], &lanes, 0);
        }
    }

    #[test]
    fn division_still_matches_ir_eval() {
        // DG2 divides in the ALU; BDW, SKL and TGL in the math unit.
        for plat in ["dg2", "bdw", "skl", "tgl"] {
            for bits in [8u8, 32] {
                let lanes = edge_pairs(bits);
                for op in [AluOp::Udiv, AluOp::Idiv, AluOp::Umod] {
                    check_exact(plat, op, (bits, 1), &[(bits, 1), (bits, 1)], &lanes, 0);
                }
            }
        }
        // The float reciprocal estimate is refined, so a faithful `inv` (within an ulp
        // of 1/b) still divides exactly. (The sequence, Mesa's, needs that: with two
        // ulps the fixed-point reciprocal may exceed 2^32 / b and the quotient breaks.)
        let lanes = edge_pairs(32);
        check_exact("dg2", AluOp::Udiv, (32, 1), &[(32, 1), (32, 1)], &lanes, 1);
    }
}
