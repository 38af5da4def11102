//! Float ALU operations on 16-, 32- and 64-bit floats.
//!
//! The kernel keeps denormals and rounds to nearest even (a kernel with float
//! instructions sets `%cr0` to IGC's `0x4c0` at entry: F, DF and HF denormals kept),
//! NIR's default float controls, so
//! `add`, `mul`, `mad` (fused), `min`/`max` (IEEE minNum/maxNum) and the `rnd*`
//! instructions compute NIR's `fadd`, `fmul`, `ffma`, `fmin`/`fmax` and roundings.
//! `fneg` and `fabs` flip or clear the sign bit with integer instructions, as IEEE-754
//! §5.5.1 and NIR define them (no arithmetic on NaNs).
//!
//! Division: vISA `div` is `x * inv(y)`, not correctly rounded. PVC has `divm`, the IEEE
//! divide macro; DG2 and MTL do not, so there the quotient comes from a refined
//! reciprocal, two remainder corrections with fused multiply-adds (Markstein's method:
//! `r = a - b*q` is exact with `mad`, and `q + r*y` brings `q` within an ulp), and
//! Tuckerman's rounding test, which picks between `q` and its neighbours by the signs
//! of two more fused multiply-adds (see `round_quotient`). The test needs only a
//! faithful `q`, so the result does not depend on how exact the math unit's `inv` is
//! (the corrections alone round wrongly when the refined reciprocal is an ulp off next
//! to a power of two). Operands below 2^-64, subnormals included, are first scaled by
//! 2^64 (and the quotient back), so nothing in the sequence underflows. With a constant
//! divisor (the colour conversions of the lowering divide by `2^n - 1`) the reciprocal
//! is the correctly rounded constant. The result is NIR's correctly rounded quotient
//! whenever the quotient is a normal number; zeros, infinities and NaNs take IEEE's
//! results through `a * inv(b)`. A subnormal quotient is the normal quotient of the
//! scaled operands scaled back, rounded twice, so it may differ from the correctly
//! rounded one by an ulp. binary16 divides in binary32 and rounds once more, which is
//! exact (binary32 has more than twice binary16's precision). NaN payloads are the
//! hardware's, not `ir::eval`'s.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::fold::Fold;
use crate::vtype::VType;
use ir::{AluInst, AluOp, Src, Value};

/// The vISA float type of `bits` bits on this platform.
pub fn float_type(cx: &Ctx, bits: u8) -> Result<VType, EmitError> {
    match VType::float(bits) {
        Some(VType::Df) if !cx.t.fp64 => Err(cx.unsupported(format!(
            "{} has no 64-bit floating point (IGC HWCaps noFP64)",
            cx.t.platform
        ))),
        Some(t) => Ok(t),
        None => Err(cx.unsupported(format!("{bits}-bit floats do not exist"))),
    }
}

/// The sign bit of a float type.
fn sign_bit(ty: VType) -> u64 {
    1u64 << (ty.bytes() * 8 - 1)
}

/// Component `i` of float source `s` written out as `ty`, with the source modifier of a
/// folded `fabs` or `fneg` ([`crate::fold`]: `(abs)`, `(-)`), negated once more when
/// `negate` (`fsub`'s subtrahend: `(-abs)`, or no modifier); an immediate takes the
/// modifier's effect on its sign bit. Also says whether the operand is an immediate.
pub fn modified_src(
    cx: &mut Ctx,
    s: Src,
    i: u8,
    ty: VType,
    negate: bool,
) -> Result<(String, bool), EmitError> {
    let (o, abs, neg) = if cx.fold_of(s.value) == Some(Fold::Modifier) {
        let func = cx.func;
        let Some(m) = func.value_def(s.value).and_then(|d| func.inst(d).as_alu()) else {
            return Err(cx.unsupported("a folded source modifier that is no ALU instruction"));
        };
        let o = cx.comp(m.srcs[0], s.swizzle.component(i))?;
        (o, m.op == AluOp::Fabs, m.op == AluOp::Fneg)
    } else {
        (cx.comp(s, i)?, false, false)
    };
    let neg = neg != negate;
    let sign = sign_bit(ty);
    Ok(match o {
        Opnd::Imm(b) => {
            let b = if abs { b & !sign } else { b };
            (ty.imm(if neg { b ^ sign } else { b }), true)
        }
        Opnd::Reg(_) => {
            let m = match (abs, neg) {
                (true, true) => "(-abs)",
                (true, false) => "(abs)",
                (false, true) => "(-)",
                (false, false) => "",
            };
            (format!("{m}{}", cx.src(o, ty)), false)
        }
    })
}

/// Emits an `fadd`, `fsub`, `fmul`, `ffma`, `fmin` or `fmax` a source of which is a
/// folded source modifier ([`crate::fold`]).
fn emit_modified(cx: &mut Ctx, alu: &AluInst, dest: Value, ty: VType) -> Result<(), EmitError> {
    use AluOp::*;
    let name = match alu.op {
        Fadd | Fsub => "add",
        Fmul => "mul",
        Ffma => "mad",
        Fmin => "min",
        _ => "max",
    };
    let inputs = usize::from(alu.op.info().num_inputs);
    for i in 0..cx.func.value_type(dest).num_components() {
        let mut text = String::new();
        for k in 0..inputs {
            let negate = alu.op == Fsub && k == 1;
            text.push(' ');
            text.push_str(&modified_src(cx, alu.srcs[k], i, ty, negate)?.0);
        }
        let d = cx.dest(dest, i)?;
        let (es, dd) = (cx.es(), cx.dst(d, ty));
        cx.line(&format!("{name} {es} {dd}{text}"));
    }
    Ok(())
}

/// Emits one float ALU instruction (every component).
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    use AluOp::*;
    let ty = float_type(cx, bits)?;
    if matches!(alu.op, Fadd | Fsub | Fmul | Ffma | Fmin | Fmax)
        && alu
            .srcs
            .iter()
            .any(|s| cx.fold_of(s.value) == Some(Fold::Modifier))
    {
        return emit_modified(cx, alu, dest, ty);
    }
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let mut s = Vec::new();
        for k in 0..usize::from(alu.op.info().num_inputs) {
            s.push(cx.comp(alu.srcs[k], i)?);
        }
        let d = cx.dest(dest, i)?;
        match alu.op {
            Fadd => cx.op("add", d, ty, &[s[0], s[1]]),
            Fsub => {
                let es = cx.es();
                let (dd, a, b) = (cx.dst(d, ty), cx.src(s[0], ty), neg_float(cx, s[1], ty));
                cx.line(&format!("add {es} {dd} {a} {b}"));
            }
            Fmul => cx.op("mul", d, ty, &[s[0], s[1]]),
            Ffma => cx.op("mad", d, ty, &[s[0], s[1], s[2]]),
            Fmin => cx.op("min", d, ty, &[s[0], s[1]]),
            Fmax => cx.op("max", d, ty, &[s[0], s[1]]),
            Fneg | Fabs => {
                let it = VType::uint(bits);
                if bits == 64 {
                    // The sign is bit 31 of the high half; the low half is copied.
                    let (lo, hi) = (
                        Reg { stride: 2, ..d },
                        Reg {
                            stride: 2,
                            ..d.at(4)
                        },
                    );
                    cx.op("mov", lo, VType::Ud, &[s[0].half(false)]);
                    if alu.op == Fneg {
                        cx.op("xor", hi, VType::Ud, &[s[0].half(true), Opnd::Imm(1 << 31)]);
                    } else {
                        cx.op(
                            "and",
                            hi,
                            VType::Ud,
                            &[s[0].half(true), Opnd::Imm(0x7fff_ffff)],
                        );
                    }
                } else if alu.op == Fneg {
                    cx.op("xor", d, it, &[s[0], Opnd::Imm(sign_bit(ty))]);
                } else {
                    cx.op("and", d, it, &[s[0], Opnd::Imm(sign_bit(ty) - 1)]);
                }
            }
            Fsat => {
                let es = cx.es();
                let (dd, a) = (cx.dst(d, ty), cx.src(s[0], ty));
                cx.line(&format!("mov.sat {es} {dd} {a}"));
            }
            Ffloor | Fceil | FroundEven | Ftrunc => round(cx, alu.op, d, s[0], ty),
            // Inexact binary32 and binary16 division: `inv` and `mul` in the operands'
            // type, the division Vulkan allows (2.5 ULP for OpFDiv) and Mesa's Intel
            // back end emits; the executor evaluates an inexact `fdiv` so too
            // (ir::eval::eval_alu_flagged).
            Fdiv if !alu.exact && matches!(ty, VType::F | VType::Hf) => {
                let r = reciprocal(cx, s[1], ty);
                cx.op("mul", d, ty, &[s[0], r]);
            }
            Frcp if !alu.exact && matches!(ty, VType::F | VType::Hf) => {
                let r = reciprocal(cx, s[0], ty);
                cx.op("mov", d, ty, &[r]);
            }
            Fdiv => divide(cx, d, s[0], s[1], ty)?,
            Frcp => divide(cx, d, Opnd::Imm(one(ty)), s[0], ty)?,
            other => {
                return Err(cx.unsupported(format!("`{other}` is not a float operation")));
            }
        }
    }
    Ok(())
}

/// The reciprocal of `b` (a binary32 or binary16 `ty`) for an inexact division: the
/// math unit's `inv`, or the correctly rounded constant of a constant (as `ir::eval`'s
/// `frcp` gives it).
fn reciprocal(cx: &mut Ctx, b: Opnd, ty: VType) -> Opnd {
    let bits: u8 = if ty == VType::Hf { 16 } else { 32 };
    if let Opnd::Imm(v) = b {
        let c = [v & ir::types::bit_mask(bits)];
        let r = ir::Type::new(bits, 1)
            .and_then(|t| {
                ir::eval::eval_alu(AluOp::Frcp, t, &[ir::eval::Operand::new(bits, &c)]).ok()
            })
            .and_then(|r| r.first().copied());
        if let Some(r) = r {
            return Opnd::Imm(r);
        }
    }
    let r = cx.temp(ty);
    cx.op("inv", r, ty, &[b]);
    Opnd::Reg(r)
}

/// NIR's `ffloor`, `fceil`, `fround_even`, `ftrunc`. vISA's `rnd*` take binary32 only
/// (GenX_IR: "rndd only supports single float type"): binary16 rounds through binary32
/// (exact both ways: a rounded binary16 value is a binary16), binary64 with integer
/// operations on its bits.
fn round(cx: &mut Ctx, op: AluOp, d: Reg, a: Opnd, ty: VType) {
    let mnem = match op {
        AluOp::Ffloor => "rndd",
        AluOp::Fceil => "rndu",
        AluOp::FroundEven => "rnde",
        _ => "rndz",
    };
    match ty {
        VType::F => cx.op(mnem, d, ty, &[a]),
        VType::Hf => {
            let t = cx.temp(VType::F);
            cx.op_typed("mov", (t, VType::F), &[(a, VType::Hf)]);
            cx.op(mnem, t, VType::F, &[Opnd::Reg(t)]);
            cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(t), VType::F)]);
        }
        _ => crate::round64::round(cx, op, d, a),
    }
}

/// The bits of 1.0 in `ty`.
fn one(ty: VType) -> u64 {
    match ty {
        VType::Hf => 0x3c00,
        VType::Df => 0x3ff0_0000_0000_0000,
        _ => 0x3f80_0000,
    }
}

/// A float source negated: the sign of an immediate flipped here, `(-)` on a register.
fn neg_float(cx: &mut Ctx, o: Opnd, ty: VType) -> String {
    match o {
        Opnd::Imm(b) => ty.imm(b ^ sign_bit(ty)),
        Opnd::Reg(_) => format!("(-){}", cx.src(o, ty)),
    }
}

/// `d = a / b`, correctly rounded (see the module documentation).
pub fn divide(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, ty: VType) -> Result<(), EmitError> {
    let f = VType::F;
    match ty {
        VType::Df if cx.t.divm => {
            cx.op("divm", d, ty, &[a, b]);
            Ok(())
        }
        VType::Df => Err(cx.unsupported(format!(
            "{} has no IEEE 64-bit float division (vISA divm), which NIR's fdiv needs",
            cx.t.platform
        ))),
        VType::Hf => {
            let (fa, fb) = (cx.temp(f), cx.temp(f));
            cx.op_typed("mov", (fa, f), &[(a, VType::Hf)]);
            cx.op_typed("mov", (fb, f), &[(b, VType::Hf)]);
            let q = cx.temp(f);
            divide32(cx, q, Opnd::Reg(fa), Opnd::Reg(fb));
            cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(q), f)]);
            Ok(())
        }
        _ => {
            divide32(cx, d, a, b);
            Ok(())
        }
    }
}

/// The correctly rounded binary32 reciprocal of a constant divisor, when the
/// reciprocal and the divisor are normal (the range where the remainder method
/// applies without scaling).
fn const_reciprocal(b: u64) -> Option<f32> {
    let x = f32::from_bits(b as u32);
    let y = 1.0f32 / x;
    (x.is_normal() && y.is_normal()).then_some(y)
}

/// 2^64 and 2^-64 as binary32 bits.
const TWO_64: u64 = 0x5f80_0000;
const TWO_M64: u64 = 0x1f80_0000;

/// An operand whose magnitude is below 2^-64 (a subnormal included) scaled by 2^64,
/// exactly: a constant folded here, a register selected at run time. Returns the
/// operand and the factor the quotient must be multiplied by afterwards: `undo` when
/// the operand was scaled, else 1.0 (a constant, or a register for a register
/// operand).
fn prescale(cx: &mut Ctx, o: Opnd, undo: u64) -> (Opnd, Opnd) {
    let f = VType::F;
    match o {
        Opnd::Imm(bits) => {
            let x = f32::from_bits(bits as u32);
            if x != 0.0 && x.abs() < f32::from_bits(TWO_M64 as u32) {
                let scaled = x * f32::from_bits(TWO_64 as u32);
                (Opnd::Imm(u64::from(scaled.to_bits())), Opnd::Imm(undo))
            } else {
                (o, Opnd::Imm(0x3f80_0000))
            }
        }
        Opnd::Reg(_) => {
            let es = cx.es();
            let m = cx.temp(VType::Ud);
            cx.op("and", m, VType::Ud, &[o, Opnd::Imm(0x7fff_ffff)]);
            let (k, back) = (cx.temp(f), cx.temp(f));
            let p = cx.pred();
            let sm = cx.src(Opnd::Reg(m), VType::Ud);
            cx.line(&format!("cmp.lt {es} {p} {sm} {}", VType::Ud.imm(TWO_M64)));
            let (dk, db) = (cx.dst(k, f), cx.dst(back, f));
            cx.line(&format!(
                "({p}) sel {es} {dk} {} 0x3f800000:f",
                f.imm(TWO_64)
            ));
            cx.line(&format!("({p}) sel {es} {db} {} 0x3f800000:f", f.imm(undo)));
            let t = cx.temp(f);
            cx.op("mul", t, f, &[o, Opnd::Reg(k)]);
            (Opnd::Reg(t), Opnd::Reg(back))
        }
    }
}

/// A binary32 source's magnitude: `(abs)` on a register, the sign cleared on an
/// immediate.
fn abs_float(cx: &mut Ctx, o: Opnd) -> String {
    match o {
        Opnd::Imm(b) => VType::F.imm(b & 0x7fff_ffff),
        Opnd::Reg(_) => format!("(abs){}", cx.src(o, VType::F)),
    }
}

/// A binary32 source's negated magnitude: `(-abs)` on a register, the sign set on an
/// immediate.
fn neg_abs_float(cx: &mut Ctx, o: Opnd) -> String {
    match o {
        Opnd::Imm(b) => VType::F.imm(b | 0x8000_0000),
        Opnd::Reg(_) => format!("(-abs){}", cx.src(o, VType::F)),
    }
}

/// Tuckerman's rounding test on a faithful quotient `q` of `a / b`: with `u` the ulp
/// of `|q|` and `r = |a| - |b| * |q|` (exact, the remainder of a faithful quotient),
/// the quotient lies above `|q| + u/2` exactly when `2r - |b| * u > 0`, below `|q| -
/// u'/2` (`u'` the ulp below, `u/2` when `|q|` is a power of two above the lowest
/// binade) exactly when `2r + |b| * u' < 0`; `|q|` moves by one ulp accordingly
/// (a quotient of binary32s is never a midpoint). Each test is one fused
/// multiply-add, whose sign is exact while `|a| >= 2^-64` (the caller scales).
fn round_quotient(cx: &mut Ctx, q: Reg, a: Opnd, b: Opnd) {
    let (f, ud) = (VType::F, VType::Ud);
    let es = cx.es();
    let r = cx.temp(f);
    let (dr, nb, sq, sa) = (
        cx.dst(r, f),
        neg_abs_float(cx, b),
        cx.src(Opnd::Reg(q), f),
        abs_float(cx, a),
    );
    cx.line(&format!("mad {es} {dr} {nb} (abs){sq} {sa}"));
    cx.op("add", r, f, &[Opnd::Reg(r), Opnd::Reg(r)]);
    // u = succ(|q|) - |q| (exact), and u'.
    let (m, u, u2) = (cx.temp(ud), cx.temp(f), cx.temp(f));
    cx.op("and", m, ud, &[Opnd::Reg(q), Opnd::Imm(0x7fff_ffff)]);
    cx.op("add", u, ud, &[Opnd::Reg(m), Opnd::Imm(1)]);
    let (du, su, sm) = (
        cx.dst(u, f),
        cx.src(Opnd::Reg(u), f),
        cx.src(Opnd::Reg(m), f),
    );
    cx.line(&format!("add {es} {du} {su} (-){sm}"));
    cx.op("mul", u2, f, &[Opnd::Reg(u), Opnd::Imm(0x3f00_0000)]);
    // u' = u unless the fraction is zero and the exponent field above 1.
    let (p1, p2) = (cx.pred(), cx.pred());
    let t = cx.temp(ud);
    cx.op("and", t, ud, &[Opnd::Reg(m), Opnd::Imm(0x007f_ffff)]);
    let st = cx.src(Opnd::Reg(t), ud);
    cx.line(&format!("cmp.ne {es} {p1} {st} 0x0:ud"));
    let sm = cx.src(Opnd::Reg(m), ud);
    cx.line(&format!("cmp.lt {es} {p2} {sm} 0x1000000:ud"));
    cx.line(&format!("or {es} {p1} {p1} {p2}"));
    let (d2, su) = (cx.dst(u2, f), cx.src(Opnd::Reg(u), f));
    cx.line(&format!("({p1}) mov {es} {d2} {su}"));
    let (w, v) = (cx.temp(f), cx.temp(f));
    let (dw, nb, su, sr) = (
        cx.dst(w, f),
        neg_abs_float(cx, b),
        cx.src(Opnd::Reg(u), f),
        cx.src(Opnd::Reg(r), f),
    );
    cx.line(&format!("mad {es} {dw} {nb} {su} {sr}"));
    let sb = abs_float(cx, b);
    let (dv, su2) = (cx.dst(v, f), cx.src(Opnd::Reg(u2), f));
    cx.line(&format!("mad {es} {dv} {sb} {su2} {sr}"));
    for (t, cond, step) in [(w, "gt", 1u64), (v, "lt", 0xffff_ffff)] {
        let p = cx.pred();
        let st = cx.src(Opnd::Reg(t), f);
        cx.line(&format!("cmp.{cond} {es} {p} {st} 0x0:f"));
        let (dq, sq) = (cx.dst(q, ud), cx.src(Opnd::Reg(q), ud));
        cx.line(&format!("({p}) add {es} {dq} {sq} {}", ud.imm(step)));
    }
}

/// `d = a / b` in binary32.
fn divide32(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd) {
    let f = VType::F;
    let es = cx.es();
    if cx.t.divm {
        cx.op("divm", d, f, &[a, b]);
        return;
    }
    // Operands below 2^-64 (subnormals too) are scaled by 2^64 and the quotient back,
    // so that nothing below underflows.
    let (sa, ka) = prescale(cx, a, TWO_M64);
    let (sb, kb) = prescale(cx, b, TWO_64);
    // The reciprocal: a constant, or inv(b) refined once by Newton-Raphson,
    // y = y0 + y0 * (1 - b*y0).
    let y = match sb {
        Opnd::Imm(bits) if const_reciprocal(bits).is_some() => {
            Opnd::Imm(u64::from(const_reciprocal(bits).unwrap_or(1.0).to_bits()))
        }
        _ => {
            let y0 = cx.temp(f);
            cx.op("inv", y0, f, &[sb]);
            let e = cx.temp(f);
            let (de, nb, sy) = (cx.dst(e, f), neg_float(cx, sb, f), cx.src(Opnd::Reg(y0), f));
            cx.line(&format!("mad {es} {de} {nb} {sy} 0x3f800000:f"));
            cx.op("mad", y0, f, &[Opnd::Reg(e), Opnd::Reg(y0), Opnd::Reg(y0)]);
            Opnd::Reg(y0)
        }
    };
    // q = a*y; twice: r = a - b*q (exact), q = q + r*y; then the rounding test.
    let q = cx.temp(f);
    cx.op("mul", q, f, &[sa, y]);
    let r = cx.temp(f);
    let q1 = cx.temp(f);
    let mut cur = q;
    for _ in 0..2 {
        let (dr, nb, sq, s_a) = (
            cx.dst(r, f),
            neg_float(cx, sb, f),
            cx.src(Opnd::Reg(cur), f),
            cx.src(sa, f),
        );
        cx.line(&format!("mad {es} {dr} {nb} {sq} {s_a}"));
        cx.op("mad", q1, f, &[Opnd::Reg(r), y, Opnd::Reg(cur)]);
        cur = q1;
    }
    round_quotient(cx, cur, sa, sb);
    // Undo the scaling: 2^-64 for a scaled dividend, 2^64 for a scaled divisor
    // (each exact while the quotient is a normal number).
    // The two factors multiply first (2^64 * 2^-64 is 1, exactly).
    let one = Opnd::Imm(0x3f80_0000);
    let back = match (ka, kb) {
        (k, o) | (o, k) if o == one => k,
        (Opnd::Imm(x), Opnd::Imm(y)) => Opnd::Imm(u64::from(
            (f32::from_bits(x as u32) * f32::from_bits(y as u32)).to_bits(),
        )),
        (x, y) => {
            let t = cx.temp(f);
            cx.op("mul", t, f, &[x, y]);
            Opnd::Reg(t)
        }
    };
    if back != one {
        cx.op("mul", cur, f, &[Opnd::Reg(cur), back]);
    }
    // Zeros, infinities and NaNs (an operand whose exponent is all zeros with a zero
    // significand, or all ones), and an overflowing first estimate: IEEE's result is
    // a * inv(b), with the divisor scaled as above (a subnormal's reciprocal would
    // overflow) and the factor undone.
    let special = cx.temp(f);
    let ib = cx.temp(f);
    cx.op("inv", ib, f, &[sb]);
    cx.op("mul", special, f, &[a, Opnd::Reg(ib)]);
    if kb != one {
        cx.op("mul", special, f, &[Opnd::Reg(special), kb]);
    }
    let (p1, p2) = (cx.pred(), cx.pred());
    let mut conds = Vec::new();
    for (o, zero_too) in [(a, true), (b, true), (Opnd::Reg(q), false)] {
        let m = cx.temp(VType::Ud);
        cx.op("and", m, VType::Ud, &[o, Opnd::Imm(0x7fff_ffff)]);
        conds.push((m, "ge", 0x7f80_0000u64));
        if zero_too {
            conds.push((m, "eq", 0));
        }
    }
    for (k, (m, cond, v)) in conds.into_iter().enumerate() {
        let sm = cx.src(Opnd::Reg(m), VType::Ud);
        let p = if k == 0 { &p1 } else { &p2 };
        cx.line(&format!("cmp.{cond} {es} {p} {sm} {}", VType::Ud.imm(v)));
        if k > 0 {
            cx.line(&format!("or {es} {p1} {p1} {p2}"));
        }
    }
    let (dd, ss, sc) = (
        cx.dst(d, f),
        cx.src(Opnd::Reg(special), f),
        cx.src(Opnd::Reg(cur), f),
    );
    cx.line(&format!("({p1}) sel {es} {dd} {ss} {sc}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Markstein's two corrections from a correctly rounded reciprocal, modelled with
    /// `f32::mul_add` (a fused multiply-add), reproduce the correctly rounded quotient
    /// of the unorm/snorm conversions, which divide by `2^n - 1`. (Zeros lose their
    /// sign in the sequence, `-0 + 0`; the emitted code takes them through `a *
    /// inv(b)` with the other special values.)
    #[test]
    fn constant_divisor_sequence_is_exact_for_the_conversions() {
        for n in [2u32, 4, 5, 6, 8, 10, 11, 15, 16] {
            let c = ((1u64 << n) - 1) as f32;
            let y = const_reciprocal(u64::from(c.to_bits())).unwrap();
            for x in 1..(1u32 << n.min(16)) {
                let a = x as f32;
                let mut q = a * y;
                for _ in 0..2 {
                    let r = (-c).mul_add(q, a);
                    q = r.mul_add(y, q);
                }
                assert_eq!(q.to_bits(), (a / c).to_bits(), "{x} / {c}");
                let a = -(x as f32);
                let mut q = a * y;
                for _ in 0..2 {
                    let r = (-c).mul_add(q, a);
                    q = r.mul_add(y, q);
                }
                assert_eq!(q.to_bits(), (a / c).to_bits(), "-{x} / {c}");
            }
        }
    }

    /// The kernel's quotient is `ir::eval`'s, bit for bit, when the math unit's `inv`
    /// is exact, faithful or two ulps off: quotients next to powers of two (where a
    /// refined reciprocal can tie), subnormal and tiny operands, constants.
    #[test]
    fn division_is_correctly_rounded_around_an_inexact_inv() {
        use crate::alu_check::check_exact;
        use ir::AluOp;
        let ops = crate::sqrt::tests_support::f32_operands(400);
        let mut lanes = Vec::new();
        for (k, &a) in ops.iter().enumerate() {
            let b = ops[(k * 7 + 3) % ops.len()];
            lanes.push(vec![vec![a], vec![b]]);
            // A quotient just above a power of two: 1 / (2 - 2^-23) * 2^e.
            lanes.push(vec![
                vec![a & 0xff80_0000],
                vec![0x3fff_ffff ^ (b & 0x0f80_0000)],
            ]);
        }
        // Zero and infinite dividends over subnormal divisors, and the reverse.
        for (a, b) in [
            (0u64, 1u64),
            (0x8000_0000, 0x8000_0003),
            (0x7f80_0000, 1),
            (1, 0),
        ] {
            lanes.push(vec![vec![a], vec![b]]);
            lanes.push(vec![vec![b], vec![a]]);
        }
        for v in [1u64, 0x0000_0003, 0x0080_0001, 0x1f7f_ffff] {
            lanes.push(vec![vec![v], vec![0x4040_0000]]);
            lanes.push(vec![vec![0x4040_0000], vec![v]]);
        }
        // Exact, except that a subnormal quotient may be an ulp off (the module
        // documentation).
        let srcs = [(32u8, 1u8), (32, 1)];
        for ulps in [0, 1, 2] {
            let got =
                crate::alu_check::run_op("dg2", AluOp::Fdiv, (32, 1), &srcs, &lanes, ulps).unwrap();
            for (lane, g) in lanes.iter().zip(&got) {
                let want = crate::alu_check::eval(AluOp::Fdiv, (32, 1), &srcs, lane)[0];
                let subnormal = want & 0x7f80_0000 == 0;
                assert!(
                    g[0] == want || (subnormal && g[0].abs_diff(want) == 1),
                    "{lane:x?}: {:x} vs {want:x}",
                    g[0]
                );
            }
        }
        let normal: Vec<Vec<Vec<u64>>> = lanes
            .iter()
            .filter(|l| {
                let q = crate::alu_check::eval(AluOp::Fdiv, (32, 1), &srcs, l)[0];
                q & 0x7f80_0000 != 0
            })
            .cloned()
            .collect();
        assert!(normal.len() > 600, "{}", normal.len());
        check_exact("dg2", AluOp::Fdiv, (32, 1), &srcs, &normal, 2);
        let recip: Vec<Vec<Vec<u64>>> = ops.iter().map(|&b| vec![vec![b]]).collect();
        check_exact("mtl", AluOp::Frcp, (32, 1), &[(32, 1)], &recip, 2);
    }

    /// An inexact division is `inv` and `mul`: with an exact math unit it is the
    /// executor's `fmul(a, frcp(b))` bit for bit; with one that errs by an ulp it stays
    /// within Vulkan's 2.5 ULP for OpFDiv (`ir::precision`, `ir/PRECISION.md`) wherever
    /// Vulkan bounds it (|b| in [2^-126, 2^126], a normal quotient).
    #[test]
    fn an_inexact_division_is_inv_and_mul_within_vulkans_bound() {
        use crate::alu_check::{eval, run_op_flagged};
        use ir::eval::{eval_alu_flagged, Operand};
        use ir::precision::within;
        use ir::AluOp;
        let ops = crate::sqrt::tests_support::f32_operands(400);
        let lanes: Vec<Vec<Vec<u64>>> = ops
            .iter()
            .enumerate()
            .map(|(k, &a)| vec![vec![a], vec![ops[(k * 7 + 3) % ops.len()]]])
            .collect();
        let srcs = [(32u8, 1u8), (32, 1)];
        let bounded = |l: &Vec<Vec<u64>>| {
            let (a, b) = (
                f32::from_bits(l[0][0] as u32),
                f32::from_bits(l[1][0] as u32),
            );
            let q = f64::from(a) / f64::from(b);
            a.is_finite()
                && (2f32.powi(-126)..=2f32.powi(126)).contains(&b.abs())
                && q.abs() >= 2f64.powi(-126)
                && q.abs() < 3.4e38
        };
        let exact_unit =
            run_op_flagged("dg2", AluOp::Fdiv, false, (32, 1), &srcs, &lanes, 0).unwrap();
        let faithful_unit =
            run_op_flagged("dg2", AluOp::Fdiv, false, (32, 1), &srcs, &lanes, 1).unwrap();
        let mut checked = 0;
        for ((lane, g0), g1) in lanes.iter().zip(&exact_unit).zip(&faithful_unit) {
            let operands = [Operand::new(32, &lane[0]), Operand::new(32, &lane[1])];
            let t = ir::Type::new(32, 1).unwrap();
            let model = eval_alu_flagged(AluOp::Fdiv, false, t, &operands).unwrap()[0];
            assert_eq!(g0[0], model, "{lane:x?}");
            if bounded(lane) {
                checked += 1;
                let reference = eval(AluOp::Fdiv, (32, 1), &srcs, lane)[0];
                let (a, b) = (
                    f32::from_bits(lane[0][0] as u32),
                    f32::from_bits(lane[1][0] as u32),
                );
                let q = f64::from(a) / f64::from(b);
                assert!(
                    within(AluOp::Fdiv, false, 32, reference, g1[0], q),
                    "{a:e} / {b:e}: {:#x}, correctly rounded {reference:#x}",
                    g1[0]
                );
            }
        }
        assert!(checked > 100, "{checked}");
        // The reciprocal alone is one `inv`.
        let recip: Vec<Vec<Vec<u64>>> = ops.iter().map(|&b| vec![vec![b]]).collect();
        let got =
            run_op_flagged("mtl", AluOp::Frcp, false, (32, 1), &[(32, 1)], &recip, 0).unwrap();
        for (lane, g) in recip.iter().zip(&got) {
            assert_eq!(
                g[0],
                eval(AluOp::Frcp, (32, 1), &[(32, 1)], lane)[0],
                "{lane:x?}"
            );
        }
    }

    /// `fsub` is an `add` of the negated operand; `ir::eval` defines it so, NaN signs
    /// included (a NaN subtrahend comes out negated).
    #[test]
    fn subtraction_matches_ir_eval_on_nans_and_zeros() {
        use crate::alu_check::check_exact;
        use ir::AluOp;
        for (bits, special) in [
            (
                16u8,
                vec![0x3c00u64, 0x8000, 0x0000, 0x7c00, 0x7e01, 0xfd00],
            ),
            (
                32,
                vec![
                    0x3f80_0000,
                    0x8000_0000,
                    0,
                    0x7f80_0000,
                    0x7fa0_0001,
                    0xffc0_0002,
                ],
            ),
            (
                64,
                vec![
                    0x3ff0_0000_0000_0000,
                    0x8000_0000_0000_0000,
                    0,
                    0x7ff0_0000_0000_0000,
                    0x7ff0_0000_0000_0001,
                    0xfff8_0000_0000_0002,
                ],
            ),
        ] {
            let pairs: Vec<Vec<Vec<u64>>> = special
                .iter()
                .flat_map(|&a| special.iter().map(move |&b| vec![vec![a], vec![b]]))
                .collect();
            let s = (bits, 1);
            // DG2 has no binary64; PVC has.
            for plat in ["skl", "dg2", "pvc"]
                .into_iter()
                .filter(|p| bits != 64 || *p != "dg2")
            {
                check_exact(plat, AluOp::Fsub, s, &[s, s], &pairs, 0);
            }
        }
    }

    #[test]
    fn reciprocals_of_unusual_constants_are_refused() {
        assert!(const_reciprocal(0).is_none());
        assert!(const_reciprocal(u64::from(f32::INFINITY.to_bits())).is_none());
        assert!(const_reciprocal(u64::from(1e-40f32.to_bits())).is_none());
        assert!(const_reciprocal(u64::from(3.0f32.to_bits())).is_some());
    }
}
