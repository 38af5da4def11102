//! Integer division (`udiv`, `idiv`, `umod`) on 1- to 32-bit integers.
//!
//! GenX_IR 1.0.12504 has no integer `div`/`mod` on DG2, MTL or PVC ("int
//! divide/remainder is not supported for this platform"), so the quotient is computed
//! as Mesa's `nir_lower_idiv.c` (`emit_udiv`) computes it: a 32-bit fixed-point
//! reciprocal from the float reciprocal of the divisor, refined once with
//! `umul_high`, an estimated quotient, and two correction steps on the remainder. The
//! result is exact for every 32-bit operand pair. NIR defines division by zero as 0,
//! which is selected explicitly; signed division divides the magnitudes and negates
//! the quotient when the signs differ, so `INT_MIN / -1` wraps to `INT_MIN`.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::ops::{bool_from_bit0, widen};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const UD: VType = VType::Ud;
const D: VType = VType::D;
const F: VType = VType::F;

/// Emits `udiv`, `idiv` or `umod` on `bits`-bit operands (1 to 32).
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    let n = cx.func.value_type(dest).num_components();
    let signed = alu.op == AluOp::Idiv;
    for i in 0..n {
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
        let r = cx.temp(UD);
        if signed {
            sdiv(cx, r, a, b);
        } else {
            udiv(cx, r, a, b, alu.op == AluOp::Umod);
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

/// `r = a / b`, signed 32-bit, truncating; 0 when `b` is 0.
fn sdiv(cx: &mut Ctx, r: Reg, a: Opnd, b: Opnd) {
    let es = cx.es();
    let (ua, ub) = (cx.temp(D), cx.temp(D));
    for (t, o) in [(ua, a), (ub, b)] {
        let (dt, so) = (cx.dst(t, D), cx.src(o, D));
        match o {
            Opnd::Imm(v) => cx.line(&format!(
                "mov {es} {dt} {}",
                D.imm((v as u32 as i32).unsigned_abs() as u64)
            )),
            Opnd::Reg(_) => cx.line(&format!("mov {es} {dt} (abs){so}")),
        }
    }
    let q = cx.temp(UD);
    udiv(cx, q, Opnd::Reg(ua), Opnd::Reg(ub), false);
    // The quotient is negative when exactly one operand is.
    let sign = cx.temp(D);
    cx.op("xor", sign, D, &[a, b]);
    let p = cx.pred();
    let ss = cx.src(Opnd::Reg(sign), D);
    cx.line(&format!("cmp.lt {es} {p} {ss} 0x0:d"));
    let (dr, sq) = (cx.dst(r, D), cx.src(Opnd::Reg(q), D));
    cx.line(&format!("({p}) sel {es} {dr} (-){sq} {sq}"));
}
