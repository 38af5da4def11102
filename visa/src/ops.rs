//! Small operand helpers shared by the ALU modules: copies, comparisons into booleans,
//! negated sources, masks and widening of narrow integers.

use crate::ctx::{storage_type, Ctx, Opnd, Reg};
use crate::vtype::VType;

/// Copies one component of `bits` bits (64-bit values as two 32-bit halves, so that no
/// 64-bit integer move is left to the finalizer's emulation on DG2/MTL).
pub fn copy(cx: &mut Ctx, dst: Reg, src: Opnd, bits: u8) {
    if bits == 64 {
        for hi in [false, true] {
            let d = dst.at(if hi { 4 } else { 0 });
            let d = Reg { stride: 2, ..d };
            cx.op("mov", d, VType::Ud, &[src.half(hi)]);
        }
    } else {
        cx.op("mov", dst, storage_type(bits), &[src]);
    }
}

/// `cmp.<cond>` of `a` and `b` read as `ty`, written as a boolean to `dst`. Of 32-bit
/// operands the `cmp` writes the boolean itself (all ones or zero per channel, as brw's
/// CMP into a register does); operands of another size, whose channels do not line up
/// with the boolean's dwords, go through a predicate and a `sel`.
pub fn compare(cx: &mut Ctx, cond: &str, a: Opnd, b: Opnd, ty: VType, dst: Reg) {
    let (sa, sb) = (cx.src(a, ty), cx.src(b, ty));
    compare_written(cx, cond, &sa, &sb, ty, dst);
}

/// [`compare`] of operands already written out (with source modifiers).
pub fn compare_written(cx: &mut Ctx, cond: &str, sa: &str, sb: &str, ty: VType, dst: Reg) {
    let es = cx.es();
    if ty.bytes() == 4 {
        let d = cx.dst(dst, VType::Ud);
        cx.line(&format!("cmp.{cond} {es} {d} {sa} {sb}"));
        return;
    }
    let p = cx.pred();
    cx.line(&format!("cmp.{cond} {es} {p} {sa} {sb}"));
    cx.bool_from_pred(&p, dst);
}

/// A source negated: an immediate is negated here, a register gets the `(-)` modifier.
pub fn neg(cx: &mut Ctx, o: Opnd, ty: VType) -> String {
    match o {
        Opnd::Imm(b) => ty.imm(b.wrapping_neg()),
        Opnd::Reg(_) => format!("(-){}", cx.src(o, ty)),
    }
}

/// Writes bit 0 of `t` to the boolean `dst` as `0` or `~0`.
pub fn bool_from_bit0(cx: &mut Ctx, t: Reg, dst: Reg) {
    cx.op("shl", t, VType::D, &[Opnd::Reg(t), Opnd::Imm(31)]);
    cx.op("asr", dst, VType::D, &[Opnd::Reg(t), Opnd::Imm(31)]);
}

/// Sign-extends the low `bits` bits of `v`.
pub fn sign_extend(bits: u8, v: u64) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let sh = 64 - u32::from(bits);
        ((v << sh) as i64) >> sh
    }
}

/// `o & m` (an immediate folds).
pub fn mask(cx: &mut Ctx, o: Opnd, m: u64) -> Opnd {
    if let Opnd::Imm(b) = o {
        return Opnd::Imm(b & m);
    }
    let t = cx.temp(VType::Ud);
    cx.op("and", t, VType::Ud, &[o, Opnd::Imm(m)]);
    Opnd::Reg(t)
}

/// A `bits`-bit integer operand as a 32-bit one, zero- or sign-extended.
pub fn widen(cx: &mut Ctx, o: Opnd, bits: u8, signed: bool) -> Opnd {
    if bits >= 32 {
        return o;
    }
    if let Opnd::Imm(b) = o {
        return Opnd::Imm(if signed {
            sign_extend(bits, b) as u64 & 0xffff_ffff
        } else {
            b & ((1u64 << bits) - 1)
        });
    }
    let (from, to) = if signed {
        (VType::sint(bits), VType::D)
    } else {
        (VType::uint(bits), VType::Ud)
    };
    let t = cx.temp(to);
    cx.op_typed("mov", (t, to), &[(o, from)]);
    Opnd::Reg(t)
}
