//! Conversions and packing: NIR's `f2i32`, `f2u32`, `i2f32`, `u2f32`, `f2f16`, `f2f32`,
//! `u2u*`, `i2i*`, `pack_half_2x16_split`, `unpack_half_2x16_split_{x,y}`,
//! `pack_64_2x32_split` and `unpack_64_2x32_split_{x,y}`.
//!
//! vISA `mov` converts between its operand types (IGC
//! `documentation/visa/2_datatypes.md`): float to integer truncates, saturates out of
//! range and gives 0 for NaN, which is the `ir::eval` definition of `f2i32`; integer to
//! float and narrowing float conversions round to nearest even (the `%cr0` mode the
//! kernel keeps); integers truncate or extend by the source type's signedness. `f2u32`
//! first takes `max(x, 0.0)`, so negative values and NaN give 0 as NIR's definition
//! does. 64-bit integers to binary32 are converted from their 32-bit halves with one
//! rounding (a sticky bit keeps the bits shifted out), since the finalizer has no
//! 64-bit integer conversion on DG2/MTL.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::float::float_type;
use crate::fold::Fold;
use crate::ops::widen;
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const UD: VType = VType::Ud;
const D: VType = VType::D;
const F: VType = VType::F;

/// Emits one conversion or packing instruction; `bits` is the bit size of its unsized
/// source.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    use AluOp::*;
    let dty = cx.func.value_type(dest);
    let dbits = dty.bit_size();
    for i in 0..dty.num_components() {
        let d = cx.dest(dest, i)?;
        if matches!(alu.op, I2f32 | U2f32 | U2u8 | I2i8 | U2u16 | I2i16)
            && cx.fold_of(alu.srcs[0].value) == Some(Fold::Field)
        {
            let to = if matches!(alu.op, I2f32 | U2f32) {
                F
            } else {
                VType::uint(dbits)
            };
            field_mov(cx, d, to, alu.srcs[0].value)?;
            continue;
        }
        let a = cx.comp(alu.srcs[0], i)?;
        match alu.op {
            F2i32 => {
                let ft = float_type(cx, bits)?;
                cx.op_typed("mov", (d, D), &[(a, ft)]);
            }
            F2u32 => {
                // The vISA conversion table leaves a negative float converted to an
                // unsigned integer indefinite; saturation clamps it to the destination's
                // range, so a negative source gives 0 as `ir::eval` does.
                let ft = float_type(cx, bits)?;
                let es = cx.es();
                let (dd, sa) = (cx.dst(d, UD), cx.src(a, ft));
                cx.line(&format!("mov.sat {es} {dd} {sa}"));
            }
            I2f32 | U2f32 => {
                let signed = alu.op == I2f32;
                if bits == 64 {
                    int64_to_f32(cx, d, a, signed);
                } else {
                    let a = if bits == 1 && !signed {
                        crate::ops::mask(cx, a, 1)
                    } else {
                        a
                    };
                    let st = match (bits, signed) {
                        (1, true) => D,
                        (1, false) => UD,
                        (b, true) => VType::sint(b),
                        (b, false) => VType::uint(b),
                    };
                    cx.op_typed("mov", (d, F), &[(a, st)]);
                }
            }
            F2f16 => {
                let ft = float_type(cx, bits)?;
                if bits == 16 {
                    quiet16(cx, d, a);
                } else {
                    cx.op_typed("mov", (d, VType::Hf), &[(a, ft)]);
                }
            }
            F2f32 => {
                let ft = float_type(cx, bits)?;
                cx.op_typed("mov", (d, F), &[(a, ft)]);
            }
            U2u8 | U2u16 | U2u32 | U2u64 | I2i8 | I2i16 | I2i32 | I2i64 => {
                let signed = matches!(alu.op, I2i8 | I2i16 | I2i32 | I2i64);
                int_convert(cx, d, a, bits, dbits, signed);
            }
            Pack64_2x32Split => {
                let b = cx.comp(alu.srcs[1], i)?;
                cx.op("mov", d.half(false), UD, &[a]);
                cx.op("mov", d.half(true), UD, &[b]);
            }
            Unpack64_2x32SplitX => cx.op("mov", d, UD, &[a.half(false)]),
            Unpack64_2x32SplitY => cx.op("mov", d, UD, &[a.half(true)]),
            PackHalf2x16Split => {
                let b = cx.comp(alu.srcs[1], i)?;
                for (k, s) in [(0, a), (2, b)] {
                    let h = Reg {
                        off: d.off + k,
                        stride: 2,
                        ..d
                    };
                    cx.op_typed("mov", (h, VType::Hf), &[(s, F)]);
                }
            }
            UnpackHalf2x16SplitX | UnpackHalf2x16SplitY => {
                let k = if alu.op == UnpackHalf2x16SplitY { 2 } else { 0 };
                let s = match a {
                    Opnd::Reg(r) => Opnd::Reg(Reg {
                        off: r.off + k,
                        stride: 2,
                        ..r
                    }),
                    Opnd::Imm(b) => Opnd::Imm((b >> (8 * k)) & 0xffff),
                };
                cx.op_typed("mov", (d, F), &[(s, VType::Hf)]);
            }
            other => {
                return Err(cx.unsupported(format!("`{other}` is not a conversion")));
            }
        }
    }
    Ok(())
}

/// `f2f16` of a binary16: the value, with a NaN quieted (as `ir::eval` does).
fn quiet16(cx: &mut Ctx, d: Reg, a: Opnd) {
    let uw = VType::Uw;
    let m = cx.temp(uw);
    cx.op("and", m, uw, &[a, Opnd::Imm(0x7fff)]);
    let p = cx.pred();
    let es = cx.es();
    let sm = cx.src(Opnd::Reg(m), uw);
    cx.line(&format!("cmp.gt {es} {p} {sm} 0x7c00:uw"));
    let q = cx.temp(uw);
    cx.op("or", q, uw, &[a, Opnd::Imm(0x0200)]);
    let (dd, sq, sa) = (cx.dst(d, uw), cx.src(Opnd::Reg(q), uw), cx.src(a, uw));
    cx.line(&format!("({p}) sel {es} {dd} {sq} {sa}"));
}

/// `u2u*`/`i2i*` from `sbits` to `dbits` bits.
fn int_convert(cx: &mut Ctx, d: Reg, a: Opnd, sbits: u8, dbits: u8, signed: bool) {
    // The source as a 32-bit integer (the low half of a 64-bit one), extended by the
    // op's signedness; a 1-bit source is 0/1 unsigned and 0/-1 signed.
    let a32 = match sbits {
        64 => a.half(false),
        1 if signed => a,
        1 => crate::ops::mask(cx, a, 1),
        b => widen(cx, a, b, signed),
    };
    if dbits == 64 {
        if sbits == 64 {
            cx.op("mov", d.half(false), UD, &[a.half(false)]);
            cx.op("mov", d.half(true), UD, &[a.half(true)]);
            return;
        }
        cx.op("mov", d.half(false), UD, &[a32]);
        if signed {
            cx.op("asr", d.half(true), D, &[a32, Opnd::Imm(31)]);
        } else {
            cx.op("mov", d.half(true), UD, &[Opnd::Imm(0)]);
        }
    } else {
        cx.op_typed("mov", (d, VType::uint(dbits)), &[(a32, UD)]);
    }
}

/// `d = (float) a` for a 64-bit integer, rounded once to nearest even.
fn int64_to_f32(cx: &mut Ctx, d: Reg, a: Opnd, signed: bool) {
    let es = cx.es();
    // The magnitude (lo, hi) and, for signed values, the sign.
    let (lo, hi, sign) = if signed {
        let neg = cx.temp(VType::Uq);
        let borrow = cx.temp(UD);
        let (dl, db, al) = (
            cx.dst(neg.half(false), UD),
            cx.dst(borrow, UD),
            cx.src(a.half(false), UD),
        );
        cx.line(&format!("subb {es} {dl} {db} 0x0:ud {al}"));
        let dh = cx.dst(neg.half(true), D);
        let ah = crate::ops::neg(cx, a.half(true), D);
        let bw = crate::ops::neg(cx, Opnd::Reg(borrow), D);
        cx.line(&format!("add {es} {dh} {ah} {bw}"));
        let p = cx.pred();
        let ah = cx.src(a.half(true), D);
        cx.line(&format!("cmp.lt {es} {p} {ah} 0x0:d"));
        let mag = cx.temp(VType::Uq);
        for hi in [false, true] {
            let (dm, sn, sa) = (
                cx.dst(mag.half(hi), UD),
                cx.src(Opnd::Reg(neg).half(hi), UD),
                cx.src(a.half(hi), UD),
            );
            cx.line(&format!("({p}) sel {es} {dm} {sn} {sa}"));
        }
        let sign = cx.temp(UD);
        cx.op("and", sign, UD, &[a.half(true), Opnd::Imm(0x8000_0000)]);
        (
            Opnd::Reg(mag).half(false),
            Opnd::Reg(mag).half(true),
            Some(sign),
        )
    } else {
        (a.half(false), a.half(true), None)
    };
    // hi == 0: the low half converts directly.
    let small = cx.temp(F);
    cx.op_typed("mov", (small, F), &[(lo, UD)]);
    // Otherwise s = 32 - lzd(hi) bits drop out: m = v >> s with a sticky bit for them,
    // converted, then scaled by 2^s (exact).
    let s = cx.temp(UD);
    cx.op("lzd", s, UD, &[hi]);
    let (ds, ss) = (cx.dst(s, D), cx.src(Opnd::Reg(s), D));
    cx.line(&format!("add {es} {ds} (-){ss} 0x20:d"));
    let sm1 = cx.temp(UD);
    cx.op("add", sm1, UD, &[Opnd::Reg(s), Opnd::Imm(0xffff_ffff)]);
    let inv = cx.temp(UD);
    let (di, ss) = (cx.dst(inv, D), cx.src(Opnd::Reg(s), D));
    cx.line(&format!("add {es} {di} (-){ss} 0x20:d"));
    let m = cx.temp(UD);
    cx.op("shr", m, UD, &[lo, Opnd::Imm(1)]);
    cx.op("shr", m, UD, &[Opnd::Reg(m), Opnd::Reg(sm1)]);
    let t = cx.temp(UD);
    cx.op("shl", t, UD, &[hi, Opnd::Reg(inv)]);
    cx.op("or", m, UD, &[Opnd::Reg(m), Opnd::Reg(t)]);
    // sticky: the low s bits of lo, shifted to the top, are not all zero
    cx.op("shl", t, UD, &[lo, Opnd::Reg(inv)]);
    let p = cx.pred();
    let st = cx.src(Opnd::Reg(t), UD);
    cx.line(&format!("cmp.ne {es} {p} {st} 0x0:ud"));
    let (dm, sm) = (cx.dst(m, UD), cx.src(Opnd::Reg(m), UD));
    cx.line(&format!("({p}) or {es} {dm} {sm} 0x1:ud"));
    let big = cx.temp(F);
    cx.op_typed("mov", (big, F), &[(Opnd::Reg(m), UD)]);
    // 2^s as binary32 bits: (127 + s) << 23
    let scale = cx.temp(UD);
    cx.op("add", scale, UD, &[Opnd::Reg(s), Opnd::Imm(127)]);
    cx.op("shl", scale, UD, &[Opnd::Reg(scale), Opnd::Imm(23)]);
    cx.op_typed(
        "mul",
        (big, F),
        &[(Opnd::Reg(big), F), (Opnd::Reg(scale), F)],
    );
    let p = cx.pred();
    let sh = cx.src(hi, UD);
    cx.line(&format!("cmp.eq {es} {p} {sh} 0x0:ud"));
    let r = if sign.is_some() { cx.temp(F) } else { d };
    let (dr, ssm, sb) = (
        cx.dst(r, F),
        cx.src(Opnd::Reg(small), F),
        cx.src(Opnd::Reg(big), F),
    );
    cx.line(&format!("({p}) sel {es} {dr} {ssm} {sb}"));
    if let Some(sign) = sign {
        cx.op("or", d, UD, &[Opnd::Reg(r), Opnd::Reg(sign)]);
    }
}

/// The float (`to` is `F`) or the integer of the field's own width of a folded field
/// ([`Fold::Field`]): one `mov` from the byte or word region of the field's operand (a
/// constant operand gives the field's constant).
fn field_mov(cx: &mut Ctx, d: Reg, to: VType, field: Value) -> Result<(), EmitError> {
    let func = cx.func;
    let (Some((offset, width, signed)), Some(operand)) = (
        crate::fold::field_of(func, field),
        func.value_def(field)
            .and_then(|i| func.inst(i).as_alu())
            .map(|a| a.srcs[0]),
    ) else {
        return Err(cx.unsupported("a folded field that is no constant-index extract"));
    };
    let bits = 8 * width as u8;
    let ty = if signed {
        VType::sint(bits)
    } else {
        VType::uint(bits)
    };
    let src = match cx.comp(operand, 0)? {
        Opnd::Reg(r) => Opnd::Reg(Reg {
            off: r.off + offset,
            stride: r.stride * (4 / width),
            ..r
        }),
        Opnd::Imm(b) => {
            let f = (b >> (8 * offset)) & ((1 << bits) - 1);
            let v = if signed && f >> (bits - 1) != 0 {
                f | (u64::MAX << bits)
            } else {
                f
            };
            cx.op_typed("mov", (d, to), &[(Opnd::Imm(v & 0xffff_ffff), D)]);
            return Ok(());
        }
    };
    cx.op_typed("mov", (d, to), &[(src, ty)]);
    Ok(())
}
