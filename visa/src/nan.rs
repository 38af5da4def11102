//! The NaN results of `ir::eval` for the float ops this back end computes in several
//! steps (`fsqrt`, `frsq`, `ffract`, `flrp`, `fmod`, `frem`, the dot products, `fpow`,
//! and the math-unit ops): a NaN operand makes the result the first NaN operand in
//! source order with its quiet bit set (sign and payload kept), and a NaN the
//! operation generates from non-NaN operands (`sqrt(-1)`, `inf - inf`, `0 * inf`) is
//! the default NaN (sign set, quiet, payload 0: `0xfe00`, `0xffc00000`,
//! `0xfff8000000000000`).
//!
//! The hardware leaves NaN payloads open (IGC `documentation/visa/2_datatypes.md`
//! gives none), and the steps of a sequence would pick a NaN in their own order, so
//! the rule is applied to the finished result: `cmp.ne x x` is true exactly for a NaN
//! `x` (IEEE comparisons are unordered on NaN), and predicated `sel`s put the NaN the
//! rule asks for in place.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::vtype::VType;

const UD: VType = VType::Ud;

/// The quiet bit of a float type, in the element (the high half for binary64).
fn quiet_bit(ty: VType) -> u64 {
    match ty {
        VType::Hf => 0x0200,
        VType::Df => 0x0008_0000,
        _ => 0x0040_0000,
    }
}

/// The default NaN of a float type.
pub fn default_nan(ty: VType) -> u64 {
    match ty {
        VType::Hf => 0xfe00,
        VType::Df => 0xfff8_0000_0000_0000,
        _ => 0xffc0_0000,
    }
}

/// Whether the bits `b` are a NaN of float type `ty`.
pub fn is_nan_bits(ty: VType, b: u64) -> bool {
    match ty {
        VType::Hf => b & 0x7fff > 0x7c00,
        VType::Df => b & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000,
        _ => b & 0x7fff_ffff > 0x7f80_0000,
    }
}

/// The 32-bit half of a 64-bit region (stride 2), or the region itself for narrower
/// types.
fn part(r: Reg, ty: VType, hi: bool) -> Reg {
    if ty == VType::Df {
        Reg {
            off: r.off + if hi { 4 } else { 0 },
            stride: 2,
            ..r
        }
    } else {
        r
    }
}

/// The integer type the bits of `ty` are moved as (32-bit halves for binary64).
fn bits_type(ty: VType) -> VType {
    match ty {
        VType::Hf => VType::Uw,
        _ => UD,
    }
}

/// `(p) sel d <- value` for every part of `d` (one, or the two halves of binary64).
fn select_bits(cx: &mut Ctx, p: &str, d: Reg, ty: VType, value: Opnd) {
    let es = cx.es();
    let it = bits_type(ty);
    let halves: &[bool] = if ty == VType::Df {
        &[false, true]
    } else {
        &[false]
    };
    for &hi in halves {
        let dd = part(d, ty, hi);
        let v = if ty == VType::Df {
            value.half(hi)
        } else {
            value
        };
        let (dst, sv, sd) = (cx.dst(dd, it), cx.src(v, it), cx.src(Opnd::Reg(dd), it));
        cx.line(&format!("({p}) sel {es} {dst} {sv} {sd}"));
    }
}

/// Rewrites the result `d` (of float type `ty`, already computed) by the rule of the
/// module documentation, with `operands` in source order.
pub fn apply(cx: &mut Ctx, d: Reg, ty: VType, operands: &[Opnd]) {
    let es = cx.es();
    // A generated NaN is the default NaN.
    let p = cx.pred();
    let sd = cx.src(Opnd::Reg(d), ty);
    cx.line(&format!("cmp.ne {es} {p} {sd} {sd}"));
    select_bits(cx, &p, d, ty, Opnd::Imm(default_nan(ty)));
    // The first NaN operand wins: apply them last to first.
    for &o in operands.iter().rev() {
        match o {
            Opnd::Imm(b) => {
                if is_nan_bits(ty, b) {
                    let q = if ty == VType::Df {
                        b | quiet_bit(ty) << 32
                    } else {
                        b | quiet_bit(ty)
                    };
                    crate::ops::copy(cx, d, Opnd::Imm(q), (ty.bytes() * 8) as u8);
                }
            }
            Opnd::Reg(_) => {
                let q = cx.temp(ty);
                let it = bits_type(ty);
                let top = if ty == VType::Df { o.half(true) } else { o };
                cx.op(
                    "or",
                    part(q, ty, true),
                    it,
                    &[top, Opnd::Imm(quiet_bit(ty))],
                );
                if ty == VType::Df {
                    cx.op("mov", part(q, ty, false), UD, &[o.half(false)]);
                }
                let p = cx.pred();
                let so = cx.src(o, ty);
                cx.line(&format!("cmp.ne {es} {p} {so} {so}"));
                select_bits(cx, &p, d, ty, Opnd::Reg(q));
            }
        }
    }
}
