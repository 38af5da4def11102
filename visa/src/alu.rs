//! ALU instructions: the dispatcher, and NIR's integer, comparison and select semantics
//! on 1-, 8-, 16- and 32-bit values.
//!
//! 64-bit integers go to [`crate::alu64`], floats to [`crate::float`] (roots and
//! transcendentals to [`crate::math`], the stepwise ops to [`crate::float_steps`], the
//! bitwise ones to [`crate::float_bits`]), conversions and packing to
//! [`crate::convert`], division and remainders to [`crate::idiv`], bit scans to
//! [`crate::bits`].
//!
//! Narrow integers are computed by vISA's mixed-type integer instructions, which widen
//! their sources by their declared type and truncate to the destination's type (IGC
//! `documentation/visa/2_datatypes.md`, Type Conversion); where NIR's result depends on
//! the bit size (shift counts masked to `bits - 1`, the high half of a product), the
//! mask or shift is explicit. A 1-bit boolean is `0` or `~0`: bitwise operations, `min`,
//! `max`, selects and comparisons keep that form; other arithmetic on 1-bit integers
//! reads bit 0 (`and 1`, or the all-ones value as the signed `-1`) and writes its bit 0
//! back as `0` or `~0`.

use crate::ctx::{storage_type, Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::fold::Fold;
use crate::ops::{bool_from_bit0, compare, compare_written, copy, mask, neg, sign_extend, widen};
use crate::vtype::VType;
use crate::{alu64, bits, convert, float, float_bits, float_steps, idiv, math};
use ir::{AluInst, AluOp, Src, Value};

/// Emits one ALU instruction defining `dest`.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value) -> Result<(), EmitError> {
    use AluOp::*;
    let op = alu.op;
    let dty = cx.func.value_type(dest);
    let n = dty.num_components();
    if op.is_vec() {
        for i in 0..n {
            let s = alu.srcs[usize::from(i)];
            let o = cx.comp(s, 0)?;
            let d = cx.dest(dest, i)?;
            copy(cx, d, o, dty.bit_size());
        }
        return Ok(());
    }
    // The bit size of the unsized operands: the destination's, or for comparisons and
    // other ops with a sized output, the first unsized source's.
    let info = op.info();
    let bits = if info.output_type.is_sized() {
        (0..usize::from(info.num_inputs))
            .find(|&k| !info.input_types[k].is_sized())
            .map(|k| cx.src_type(alu.srcs[k]).bit_size())
            .unwrap_or(32)
    } else {
        dty.bit_size()
    };
    match op {
        Bcsel
            if cx.fold_of(alu.srcs[0].value) == Some(Fold::Condition)
                || (n > 1 && one_condition(alu.srcs[0], n)) =>
        {
            // Per component, the comparison into a predicate and `(p) sel`, on the
            // 32-bit halves for 64-bit values. One condition for every component
            // (`%c.xx`) is one predicate read by each select, as brw's SEL of a
            // vector reads one flag.
            let shared = one_condition(alu.srcs[0], n);
            let mut pred: Option<String> = None;
            for k in 0..n {
                let p = match &pred {
                    Some(p) if shared => p.clone(),
                    _ => condition_at(cx, alu.srcs[0], k)?,
                };
                pred = Some(p.clone());
                let (a, b) = (cx.comp(alu.srcs[1], k)?, cx.comp(alu.srcs[2], k)?);
                let d = cx.dest(dest, k)?;
                let es = cx.es();
                let parts: Vec<(Reg, Opnd, Opnd, VType)> = if bits == 64 {
                    [false, true]
                        .iter()
                        .map(|&hi| (d.half(hi), a.half(hi), b.half(hi), VType::Ud))
                        .collect()
                } else {
                    vec![(d, a, b, storage_type(bits))]
                };
                for (d, a, b, ty) in parts {
                    let (dd, sa, sb) = (cx.dst(d, ty), cx.src(a, ty), cx.src(b, ty));
                    cx.line(&format!("({p}) sel {es} {dd} {sa} {sb}"));
                }
            }
            Ok(())
        }
        Iadd if n == 1 && alu.srcs.iter().any(|s| cx.is_folded(s.value)) => {
            fused_add(cx, alu, dest)
        }
        Mov => {
            for i in 0..n {
                let o = cx.comp(alu.srcs[0], i)?;
                let d = cx.dest(dest, i)?;
                copy(cx, d, o, dty.bit_size());
            }
            Ok(())
        }
        F2i32 | F2u32 | I2f32 | U2f32 | F2f16 | F2f32 | U2u8 | U2u16 | U2u32 | U2u64 | I2i8
        | I2i16 | I2i32 | I2i64 | PackHalf2x16Split | UnpackHalf2x16SplitX
        | UnpackHalf2x16SplitY | Pack64_2x32Split | Unpack64_2x32SplitX | Unpack64_2x32SplitY => {
            convert::emit(cx, alu, dest, bits)
        }
        Fadd | Fsub | Fmul | Ffma | Fdiv | Fmin | Fmax | Fneg | Fabs | Fsat | Ffloor | Fceil
        | FroundEven | Ftrunc | Frcp => float::emit(cx, alu, dest, bits),
        Feq | Fneu | Flt | Fge => {
            let fty = float::float_type(cx, bits)?;
            let cond = match op {
                Feq => "eq",
                Fneu => "ne",
                Flt => "lt",
                _ => "ge",
            };
            let modified = alu.srcs[..2]
                .iter()
                .any(|s| cx.fold_of(s.value) == Some(Fold::Modifier));
            for i in 0..n {
                let d = cx.dest(dest, i)?;
                if modified {
                    let a = float::modified_src(cx, alu.srcs[0], i, fty, false)?.0;
                    let b = float::modified_src(cx, alu.srcs[1], i, fty, false)?.0;
                    compare_written(cx, cond, &a, &b, fty, d);
                } else {
                    let (a, b) = (cx.comp(alu.srcs[0], i)?, cx.comp(alu.srcs[1], i)?);
                    compare(cx, cond, a, b, fty, d);
                }
            }
            Ok(())
        }
        Fsqrt | Frsq | Fexp2 | Flog2 | Fsin | Fcos | Fpow => math::emit(cx, alu, dest, bits),
        Ffract | Flrp | Fmod | Frem | Fdot2 | Fdot3 | Fdot4 => {
            float_steps::emit(cx, alu, dest, bits)
        }
        Fsign | Ldexp | Fquantize2f16 => float_bits::emit(cx, alu, dest, bits),
        FindLsb | IfindMsb | BitfieldReverse => bits::emit(cx, alu, dest, bits),
        _ if bits == 64 => alu64::emit(cx, alu, dest),
        Udiv | Idiv | Umod | Irem | Imod => idiv::emit(cx, alu, dest, bits),
        _ => {
            for i in 0..n {
                int_op(cx, alu, dest, i, bits)?;
            }
            Ok(())
        }
    }
}

/// The predicate of the condition `s` (one boolean component) for the instruction that
/// follows: the comparison itself when it is folded into its conditions
/// ([`crate::fold`]; of a folded `inot`, its boolean compared with zero), else `cmp.ne`
/// of the boolean.
pub fn condition(cx: &mut Ctx, s: Src) -> Result<String, EmitError> {
    if cx.fold_of(s.value) != Some(Fold::Condition) {
        return cx.pred_src(s);
    }
    condition_at(cx, s, 0)
}

/// Whether every one of the `n` components a condition source reads is the same.
fn one_condition(s: Src, n: u8) -> bool {
    (1..n).all(|k| s.swizzle.component(k) == s.swizzle.component(0))
}

/// [`condition`] of component `k` of the boolean source `s` (a vector `bcsel`'s
/// condition for its component `k`).
fn condition_at(cx: &mut Ctx, s: Src, k: u8) -> Result<String, EmitError> {
    if cx.fold_of(s.value) != Some(Fold::Condition) {
        let b = cx.comp(s, k)?;
        return Ok(cx.pred_of(b));
    }
    // The component of the comparison's result that `s` reads there, and so of its
    // operands.
    let c = s.swizzle.component(k);
    let func = cx.func;
    let def = func.value_def(s.value).map(|d| func.inst(d));
    let Some(alu) = def.and_then(|d| d.as_alu()) else {
        return Err(cx.unsupported("a folded comparison that is no ALU instruction"));
    };
    if alu.op == AluOp::Inot {
        let x = cx.comp(alu.srcs[0], c)?;
        let p = cx.pred();
        let es = cx.es();
        let sx = cx.src(x, VType::Ud);
        cx.line(&format!("cmp.eq {es} {p} {sx} 0x0:ud"));
        return Ok(p);
    }
    let bits = cx.src_type(alu.srcs[0]).bit_size();
    let st = storage_type(bits);
    let (u, i) = (
        VType::uint(st.bytes() as u8 * 8),
        VType::sint(st.bytes() as u8 * 8),
    );
    use AluOp::*;
    let (cond, ty) = match alu.op {
        Ieq => ("eq", u),
        Ine => ("ne", u),
        Ilt => ("lt", i),
        Ige => ("ge", i),
        Ult => ("lt", u),
        Uge => ("ge", u),
        Feq => ("eq", float::float_type(cx, bits)?),
        Fneu => ("ne", float::float_type(cx, bits)?),
        Flt => ("lt", float::float_type(cx, bits)?),
        Fge => ("ge", float::float_type(cx, bits)?),
        other => {
            return Err(cx.unsupported(format!("`{other}` folded into a condition")));
        }
    };
    if alu.srcs[..2]
        .iter()
        .any(|s| cx.fold_of(s.value) == Some(Fold::Modifier))
    {
        // Float operands with source modifiers; an immediate goes second, as below.
        let mut a = float::modified_src(cx, alu.srcs[0], c, ty, false)?;
        let mut b = float::modified_src(cx, alu.srcs[1], c, ty, false)?;
        let cond = if a.1 && !b.1 {
            std::mem::swap(&mut a, &mut b);
            match cond {
                "lt" => "gt",
                "ge" => "le",
                c => c,
            }
        } else {
            cond
        };
        let p = cx.pred();
        let es = cx.es();
        cx.line(&format!("cmp.{cond} {es} {p} {} {}", a.0, b.0));
        return Ok(p);
    }
    // The comparison's own swizzle picks its operands' components.
    let (mut a, mut b) = (cx.comp(alu.srcs[0], c)?, cx.comp(alu.srcs[1], c)?);
    // An immediate can only be the second source: the first would be copied to a
    // register. `k < x` is `x > k` (for NaN operands too, both false), as brw's
    // opt_algebraic commutes a CMP with an immediate first.
    let cond = match (a, b, cond) {
        (Opnd::Imm(_), Opnd::Reg(_), c) => {
            std::mem::swap(&mut a, &mut b);
            match c {
                "lt" => "gt",
                "ge" => "le",
                c => c,
            }
        }
        (_, _, c) => c,
    };
    let p = cx.pred();
    let es = cx.es();
    let (sa, sb) = (cx.src(a, ty), cx.src(b, ty));
    cx.line(&format!("cmp.{cond} {es} {p} {sa} {sb}"));
    Ok(p)
}

/// A 32-bit `iadd` with a term computed here ([`crate::fold`]): `add3` of the term's two
/// operands and the other source, or `mad` of the term's product and the other source.
fn fused_add(cx: &mut Ctx, alu: &AluInst, dest: Value) -> Result<(), EmitError> {
    let func = cx.func;
    let Some(k) = alu.srcs.iter().position(|s| cx.is_folded(s.value)) else {
        return Err(cx.unsupported("an addition without a folded term"));
    };
    let term = alu.srcs[k];
    let def = func.value_def(term.value).map(|d| func.inst(d));
    let Some(t) = def.and_then(|d| d.as_alu()) else {
        return Err(cx.unsupported("a folded term that is no ALU instruction"));
    };
    let other = cx.comp(alu.srcs[1 - k], 0)?;
    let d = cx.dest(dest, 0)?;
    let u = VType::Ud;
    match (cx.fold_of(term.value), t.op) {
        (Some(Fold::Add3), AluOp::Iadd) => {
            let (a, b) = (cx.comp(t.srcs[0], 0)?, cx.comp(t.srcs[1], 0)?);
            cx.op_add3(d, u, [a, b, other]);
        }
        (Some(Fold::Mad), AluOp::Ishl | AluOp::Imul) => {
            // The factor is a constant below 2^16 (`fold`): 2^k for a shift by k.
            let konst = |i: usize| cx.const_src(t.srcs[i]);
            let (x, factor) = if t.op == AluOp::Ishl {
                (0, konst(1).map(|sh| 1u64 << (sh & 31)))
            } else if let Some(f) = konst(1) {
                (0, Some(f))
            } else {
                (1, konst(0))
            };
            let Some(factor) = factor else {
                return Err(cx.unsupported("a folded product without a constant factor"));
            };
            let a = cx.comp(t.srcs[x], 0)?;
            let a = Opnd::Reg(cx.in_reg(a, u));
            cx.op("mad", d, u, &[a, Opnd::Imm(factor), other]);
        }
        (f, op) => {
            return Err(cx.unsupported(format!("`{op}` folded as {f:?} into an addition")));
        }
    }
    Ok(())
}

/// Whether an op keeps the `0`/`~0` form of 1-bit operands when computed on it directly.
fn keeps_bool_form(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Iand | Ior
            | Ixor
            | Inot
            | Imin
            | Imax
            | Umin
            | Umax
            | Ieq
            | Ine
            | Ilt
            | Ige
            | Ult
            | Uge
            | Bcsel
    )
}

/// Component `i` of source `k`, widened from a 1-bit boolean to the 32-bit integer NIR
/// reads: unsigned 1-bit true is 1, signed is -1 (already the stored form).
fn bool_as_int(
    cx: &mut Ctx,
    alu: &AluInst,
    k: usize,
    i: u8,
    signed: bool,
) -> Result<Opnd, EmitError> {
    let o = cx.comp(alu.srcs[k], i)?;
    if signed {
        return Ok(o);
    }
    if let Opnd::Imm(b) = o {
        return Ok(Opnd::Imm(b & 1));
    }
    let t = cx.temp(VType::Ud);
    cx.op("and", t, VType::Ud, &[o, Opnd::Imm(1)]);
    Ok(Opnd::Reg(t))
}

/// Whether `op` reads its unsized operands as signed (NIR's `int` operand types).
fn signed_op(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Ishr | Imin
            | Imax
            | Idiv
            | ImulHigh
            | Iabs
            | Ineg
            | Isign
            | Ilt
            | Ige
            | ExtractI8
            | ExtractI16
    )
}

/// One component of an integer op on 1-, 8-, 16- or 32-bit operands.
fn int_op(cx: &mut Ctx, alu: &AluInst, dest: Value, i: u8, bits: u8) -> Result<(), EmitError> {
    let op = alu.op;
    let d = cx.dest(dest, i)?;
    let dbits = cx.func.value_type(dest).bit_size();
    if bits == 1 && !keeps_bool_form(op) {
        // Compute on the widened operands in 32 bits, then keep bit 0 (for 1-bit
        // results) or the 32-bit result (ufind_msb, bit_count).
        let signed = signed_op(op);
        let mut srcs = Vec::new();
        for k in 0..usize::from(op.info().num_inputs) {
            if op.info().input_types[k].is_sized() {
                srcs.push(cx.comp(alu.srcs[k], i)?);
            } else {
                srcs.push(bool_as_int(cx, alu, k, i, signed)?);
            }
        }
        let t = if dbits == 1 { cx.temp(VType::Ud) } else { d };
        int_semantics(cx, op, t, &srcs, 32, Some(bits))?;
        if dbits == 1 {
            bool_from_bit0(cx, t, d);
        }
        return Ok(());
    }
    let mut srcs = Vec::new();
    for k in 0..usize::from(op.info().num_inputs) {
        srcs.push(cx.comp(alu.srcs[k], i)?);
    }
    int_semantics(cx, op, d, &srcs, bits, None)
}

/// NIR's integer op `op` on `bits`-bit operands (`srcs`), into `d`. `shift_bits`, when
/// set, is the NIR bit size that masks shift counts (1-bit operands computed in 32).
fn int_semantics(
    cx: &mut Ctx,
    op: AluOp,
    d: Reg,
    srcs: &[Opnd],
    bits: u8,
    shift_bits: Option<u8>,
) -> Result<(), EmitError> {
    use AluOp::*;
    let st = storage_type(bits);
    let (u, s) = (
        VType::uint(st.bytes() as u8 * 8),
        VType::sint(st.bytes() as u8 * 8),
    );
    // NIR masks shift counts with `bit_size - 1`, and a 1-bit value shifts by `& 7`.
    let nir_bits = shift_bits.unwrap_or(bits);
    let count_mask = u64::from(nir_bits.max(8)) - 1;
    match op {
        Iadd => cx.op("add", d, u, &[srcs[0], srcs[1]]),
        Isub => {
            let (a, b) = (cx.src(srcs[0], s), neg(cx, srcs[1], s));
            let (es, dd) = (cx.es(), cx.dst(d, s));
            cx.line(&format!("add {es} {dd} {a} {b}"));
        }
        Imul => match (srcs[0], srcs[1]) {
            (Opnd::Reg(a), Opnd::Reg(b)) if bits == 32 && !cx.t.family.has_dword_mul() => {
                mul_dword(cx, d, a, b)
            }
            _ => cx.op("mul", d, u, &[srcs[0], srcs[1]]),
        },
        ImulHigh | UmulHigh => {
            let ty = if op == ImulHigh { s } else { u };
            if bits == 32 {
                cx.op("mulh", d, ty, &[srcs[0], srcs[1]]);
            } else {
                // The whole product fits 32 bits; its high half is a shift away.
                let wide = if op == ImulHigh { VType::D } else { VType::Ud };
                let t = cx.temp(wide);
                cx.op_typed("mul", (t, wide), &[(srcs[0], ty), (srcs[1], ty)]);
                let sh = if op == ImulHigh { "asr" } else { "shr" };
                cx.op_typed(
                    sh,
                    (d, ty),
                    &[
                        (Opnd::Reg(t), wide),
                        (Opnd::Imm(u64::from(bits)), VType::Ud),
                    ],
                );
            }
        }
        Ineg => {
            let a = neg(cx, srcs[0], s);
            let (es, dd) = (cx.es(), cx.dst(d, s));
            cx.line(&format!("mov {es} {dd} {a}"));
        }
        Iabs => {
            let a = match srcs[0] {
                Opnd::Imm(b) => s.imm(sign_extend(bits, b).wrapping_abs() as u64),
                r => format!("(abs){}", cx.src(r, s)),
            };
            let (es, dd) = (cx.es(), cx.dst(d, s));
            cx.line(&format!("mov {es} {dd} {a}"));
        }
        Isign => {
            // clamp(a, -1, 1), on the operand read with its sign.
            let t = cx.temp(VType::D);
            let a = match srcs[0] {
                Opnd::Imm(b) => Opnd::Imm(sign_extend(bits, b) as u64),
                r => r,
            };
            cx.op_typed(
                "max",
                (t, VType::D),
                &[(a, s), (Opnd::Imm(u64::MAX), VType::D)],
            );
            cx.op_typed(
                "min",
                (d, s),
                &[(Opnd::Reg(t), VType::D), (Opnd::Imm(1), VType::D)],
            );
        }
        Imin => cx.op("min", d, s, &[srcs[0], srcs[1]]),
        Imax => cx.op("max", d, s, &[srcs[0], srcs[1]]),
        Umin => cx.op("min", d, u, &[srcs[0], srcs[1]]),
        Umax => cx.op("max", d, u, &[srcs[0], srcs[1]]),
        Iand => cx.op("and", d, u, &[srcs[0], srcs[1]]),
        Ior => cx.op("or", d, u, &[srcs[0], srcs[1]]),
        Ixor => cx.op("xor", d, u, &[srcs[0], srcs[1]]),
        Inot => cx.op("not", d, u, &[srcs[0]]),
        Ishl | Ishr | Ushr => {
            let (mnem, ty) = match op {
                Ishl => ("shl", u),
                Ishr => ("asr", s),
                _ => ("shr", u),
            };
            // vISA masks 32-bit shift counts to five bits itself (IGC
            // `documentation/visa/instructions/SHL.md`); narrower NIR sizes mask here.
            let count = if count_mask == 31 {
                srcs[1]
            } else {
                mask(cx, srcs[1], count_mask)
            };
            cx.op_typed(mnem, (d, ty), &[(srcs[0], ty), (count, VType::Ud)]);
        }
        Ubfe | Ibfe => {
            // vISA `bfe` is SM5's: width and offset taken mod 32, width 0 gives 0, a
            // field past bit 31 takes the bits from the offset up, and a `d`
            // destination sign-extends (IGC `documentation/visa/instructions/BFE.md`).
            let ty = if op == Ibfe { VType::D } else { VType::Ud };
            cx.op_typed(
                "bfe",
                (d, ty),
                &[(srcs[2], VType::Ud), (srcs[1], VType::Ud), (srcs[0], ty)],
            );
        }
        Bfi => bfi(cx, d, srcs),
        BitfieldInsert => bitfield_insert(cx, d, srcs),
        UfindMsb => {
            // 31 - lzd(x): lzd(0) is 32, so 0 gives -1 as NIR's ufind_msb.
            let x = widen(cx, srcs[0], bits, false);
            let t = cx.temp(VType::Ud);
            cx.op("lzd", t, VType::Ud, &[x]);
            let tn = neg(cx, Opnd::Reg(t), VType::D);
            let (es, dd) = (cx.es(), cx.dst(d, VType::D));
            cx.line(&format!("add {es} {dd} {tn} 0x1f:d"));
        }
        BitCount => {
            let x = widen(cx, srcs[0], bits, false);
            cx.op("cbit", d, VType::Ud, &[x]);
        }
        ExtractU8 | ExtractI8 | ExtractU16 | ExtractI16 => {
            let width = if matches!(op, ExtractU8 | ExtractI8) {
                8
            } else {
                16
            };
            let signed = matches!(op, ExtractI8 | ExtractI16);
            extract(cx, d, srcs, bits, width, signed);
        }
        Ieq | Ine | Ilt | Ige | Ult | Uge => {
            let (cond, ty) = match op {
                Ieq => ("eq", u),
                Ine => ("ne", u),
                Ilt => ("lt", s),
                Ige => ("ge", s),
                Ult => ("lt", u),
                _ => ("ge", u),
            };
            compare(cx, cond, srcs[0], srcs[1], ty, d);
        }
        Bcsel => {
            let p = cx.pred_of(srcs[0]);
            let es = cx.es();
            let (dd, a, b) = (cx.dst(d, u), cx.src(srcs[1], u), cx.src(srcs[2], u));
            cx.line(&format!("({p}) sel {es} {dd} {a} {b}"));
        }
        B2i32 => cx.op("and", d, VType::Ud, &[srcs[0], Opnd::Imm(1)]),
        B2f32 => cx.op("and", d, VType::Ud, &[srcs[0], Opnd::Imm(0x3f80_0000)]),
        other => {
            return Err(cx.unsupported(format!(
                "`{other}` on {bits}-bit operands has no vISA form in this back end"
            )))
        }
    }
    Ok(())
}

/// NIR `bfi(mask, insert, base)`: `insert` shifted to the lowest set bit of `mask`
/// replaces the masked bits of `base`; a zero mask gives `base` (`nir_opcodes.py`).
fn bfi(cx: &mut Ctx, d: Reg, srcs: &[Opnd]) {
    let (m, ins, base) = (srcs[0], srcs[1], srcs[2]);
    let u = VType::Ud;
    // fbl(0) is ~0, a shift by 31 after masking: harmless, as the mask is 0 then.
    let sh = cx.temp(u);
    cx.op("fbl", sh, u, &[m]);
    let t = cx.temp(u);
    cx.op("shl", t, u, &[ins, Opnd::Reg(sh)]);
    // base ^ ((base ^ t) & mask)
    cx.op("xor", t, u, &[base, Opnd::Reg(t)]);
    cx.op("and", t, u, &[Opnd::Reg(t), m]);
    cx.op("xor", d, u, &[base, Opnd::Reg(t)]);
}

/// A 32-bit product on a platform without a dword × dword multiply, as brw's
/// `lower_mul_dword_inst` writes it: `a * b` is `a * b.lo + (a * b.hi << 16)`, two
/// dword × word multiplies and an add of the second's low word into the first's high
/// word (three instructions, where the finalizer's own expansion is a `mul` and a
/// `mach` per eight lanes). The high product is made first, so that `d` may be the
/// variable of `a` or `b` (a coalesced phi).
fn mul_dword(cx: &mut Ctx, d: Reg, a: Reg, b: Reg) {
    let (u, w) = (VType::Ud, VType::Uw);
    // Word `half` of each dword of a 32-bit region.
    let word = |r: Reg, half: u32| Reg {
        off: r.off + 2 * half,
        stride: r.stride * 2,
        ..r
    };
    let hi = cx.temp(u);
    let es = cx.es();
    let (sa, sbh, dh) = (
        cx.src(Opnd::Reg(a), u),
        cx.src(Opnd::Reg(word(b, 1)), w),
        cx.dst(hi, u),
    );
    cx.line(&format!("mul {es} {dh} {sa} {sbh}"));
    let (sbl, dd) = (cx.src(Opnd::Reg(word(b, 0)), w), cx.dst(d, u));
    cx.line(&format!("mul {es} {dd} {sa} {sbl}"));
    let dw = word(d, 1);
    let (ddw, sdw, shw) = (
        cx.dst(dw, w),
        cx.src(Opnd::Reg(dw), w),
        cx.src(Opnd::Reg(word(hi, 0)), w),
    );
    cx.line(&format!("add {es} {ddw} {sdw} {shw}"));
}

/// GLSL `bitfieldInsert(base, insert, offset, bits)` as NIR defines it: 0 bits gives
/// `base`; a negative offset or count, or `offset + bits > 32`, gives 0. vISA `bfi`
/// takes width and offset mod 32, so a full-width field and the invalid ones are
/// selected explicitly.
fn bitfield_insert(cx: &mut Ctx, d: Reg, srcs: &[Opnd]) {
    let (base, ins, off, nbits) = (srcs[0], srcs[1], srcs[2], srcs[3]);
    let u = VType::Ud;
    // A constant field (the untyped fallback's address swizzles): the special cases
    // are known here, and only a valid field of 1 to 31 bits needs the instruction.
    if let (Opnd::Imm(o), Opnd::Imm(w)) = (off, nbits) {
        let (o, w) = (i64::from(o as u32 as i32), i64::from(w as u32 as i32));
        if w == 0 {
            cx.op("mov", d, u, &[base]);
        } else if o < 0 || w < 0 || o + w > 32 {
            cx.op("mov", d, u, &[Opnd::Imm(0)]);
        } else if w == 32 {
            cx.op("mov", d, u, &[ins]);
        } else {
            cx.op("bfi", d, u, &[nbits, off, ins, base]);
        }
        return;
    }
    let r = cx.temp(u);
    cx.op("bfi", r, u, &[nbits, off, ins, base]);
    // bits == 32 (valid only with offset 0, which the range check below keeps).
    let p = cx.pred();
    let es = cx.es();
    let sb = cx.src(nbits, u);
    cx.line(&format!("cmp.eq {es} {p} {sb} 0x20:ud"));
    let (dr, si, sr) = (cx.dst(r, u), cx.src(ins, u), cx.src(Opnd::Reg(r), u));
    cx.line(&format!("({p}) sel {es} {dr} {si} {sr}"));
    // offset > 32 || bits > 32 || offset + bits > 32, unsigned: negatives are huge.
    let sum = cx.temp(u);
    cx.op("add", sum, u, &[off, nbits]);
    let m = cx.temp(u);
    cx.op("max", m, u, &[off, nbits]);
    cx.op("max", m, u, &[Opnd::Reg(m), Opnd::Reg(sum)]);
    let p = cx.pred();
    let sm = cx.src(Opnd::Reg(m), u);
    cx.line(&format!("cmp.gt {es} {p} {sm} 0x20:ud"));
    let (dr, sr) = (cx.dst(r, u), cx.src(Opnd::Reg(r), u));
    cx.line(&format!("({p}) sel {es} {dr} 0x0:ud {sr}"));
    // bits == 0 gives base, whatever the offset.
    let p = cx.pred();
    let sb = cx.src(nbits, u);
    cx.line(&format!("cmp.eq {es} {p} {sb} 0x0:ud"));
    let (dd, sbase, sr) = (cx.dst(d, u), cx.src(base, u), cx.src(Opnd::Reg(r), u));
    cx.line(&format!("({p}) sel {es} {dd} {sbase} {sr}"));
}

/// `extract_[ui]{8,16}(a, index)` on `bits`-bit operands (8, 16 or 32): the `width`-bit
/// field `index`, zero- or sign-extended; an index past the value gives 0, or the sign
/// of `a` for the signed forms (as `ir::eval` defines it).
fn extract(cx: &mut Ctx, d: Reg, srcs: &[Opnd], bits: u8, width: u32, signed: bool) {
    let fields = u64::from(bits) / u64::from(width);
    let a = widen(cx, srcs[0], bits, signed);
    let idx = widen(cx, srcs[1], bits, false);
    let (ty, dty) = if signed {
        (VType::D, VType::sint(bits))
    } else {
        (VType::Ud, VType::uint(bits))
    };
    // A constant field (`unpackUnorm4x8`'s bytes): shifts and a mask, as brw's byte
    // regions do, without the field-index check.
    if let Opnd::Imm(k) = idx {
        let top = u64::from(bits) - u64::from(width);
        // Computed on 32 bits, then narrowed to an 8- or 16-bit destination.
        let out = if bits == 32 { d } else { cx.temp(ty) };
        let mask = Opnd::Imm((1 << width) - 1);
        let low = k * u64::from(width);
        if k >= fields {
            if signed {
                cx.op("asr", out, VType::D, &[a, Opnd::Imm(31)]);
            } else {
                cx.op("mov", out, VType::Ud, &[Opnd::Imm(0)]);
            }
        } else if !signed && low == top {
            cx.op("shr", out, VType::Ud, &[a, Opnd::Imm(low)]);
        } else if !signed && low == 0 {
            cx.op("and", out, VType::Ud, &[a, mask]);
        } else if !signed {
            let t = cx.temp(VType::Ud);
            cx.op("shr", t, VType::Ud, &[a, Opnd::Imm(low)]);
            cx.op("and", out, VType::Ud, &[Opnd::Reg(t), mask]);
        } else if low == top {
            cx.op("asr", out, VType::D, &[a, Opnd::Imm(low)]);
        } else {
            // On the operand widened to 32 bits (sign-extended).
            let top32 = 32 - u64::from(width);
            let t = cx.temp(VType::D);
            cx.op("shl", t, VType::D, &[a, Opnd::Imm(top32 - low)]);
            cx.op("asr", out, VType::D, &[Opnd::Reg(t), Opnd::Imm(top32)]);
        }
        if bits != 32 {
            cx.op_typed("mov", (d, dty), &[(Opnd::Reg(out), ty)]);
        }
        return;
    }
    let off = cx.temp(VType::Ud);
    cx.op(
        "shl",
        off,
        VType::Ud,
        &[idx, Opnd::Imm(u64::from(width.trailing_zeros()))],
    );
    let f = cx.temp(ty);
    cx.op_typed(
        "bfe",
        (f, ty),
        &[
            (Opnd::Imm(u64::from(width)), VType::Ud),
            (Opnd::Reg(off), VType::Ud),
            (a, ty),
        ],
    );
    let past = if signed {
        let t = cx.temp(VType::D);
        cx.op("asr", t, VType::D, &[a, Opnd::Imm(31)]);
        Opnd::Reg(t)
    } else {
        Opnd::Imm(0)
    };
    let p = cx.pred();
    let es = cx.es();
    let si = cx.src(idx, VType::Ud);
    cx.line(&format!("cmp.lt {es} {p} {si} {}", VType::Ud.imm(fields)));
    let (dd, sf, sp) = (cx.dst(d, dty), cx.src(Opnd::Reg(f), ty), cx.src(past, ty));
    cx.line(&format!("({p}) sel {es} {dd} {sf} {sp}"));
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    #[test]
    fn isign_by_hand() {
        let vals = [0u64, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 42];
        let lanes: Vec<Vec<Vec<u64>>> = vals.iter().map(|&v| vec![vec![v]]).collect();
        let got: Vec<u64> = run_op("dg2", AluOp::Isign, (32, 1), &[(32, 1)], &lanes, 0)
            .unwrap()
            .iter()
            .map(|r| r[0])
            .collect();
        assert_eq!(got, [0, 1, 0xffff_ffff, 0xffff_ffff, 1, 1]);
        // 64 bits: -2^63, -1, 2^32 (a zero low half), 0.
        let vals = [1u64 << 63, u64::MAX, 1 << 32, 0];
        let lanes: Vec<Vec<Vec<u64>>> = vals.iter().map(|&v| vec![vec![v]]).collect();
        let got: Vec<u64> = run_op("dg2", AluOp::Isign, (64, 1), &[(64, 1)], &lanes, 0)
            .unwrap()
            .iter()
            .map(|r| r[0])
            .collect();
        assert_eq!(got, [u64::MAX, u64::MAX, 1, 0]);
    }

    #[test]
    fn isign_matches_ir_eval_at_every_size() {
        for bits in [1u8, 8, 16, 32, 64] {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let lanes: Vec<Vec<Vec<u64>>> =
                [0u64, 1, 2, u64::MAX, 1 << (bits - 1), 0x5a5a_5a5a_5a5a_5a5a]
                    .iter()
                    .map(|&v| vec![vec![v & mask]])
                    .collect();
            for plat in ["dg2", "pvc"] {
                check_exact(plat, AluOp::Isign, (bits, 1), &[(bits, 1)], &lanes, 0);
            }
        }
    }
}
