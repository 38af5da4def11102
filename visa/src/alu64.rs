//! 64-bit integer ALU operations, computed on 32-bit halves.
//!
//! IGC's vISA finalizer has no 64-bit integer ALU on DG2 and MTL (`HWCaps.inc`
//! `noInt64()`; GenX_IR rejects `mul` on `q` types and the vISA spec marks `shl` and
//! `sel` on `q` unsupported there) and emulates only 64-bit moves. So every platform
//! gets the same code, but for additions and subtractions on Gfx8 and Gfx9 (one `add`
//! on `q` operands, [`crate::int64`]): a 64-bit value is read as its low and high `ud`
//! halves (the alias `v<id>_ud`, regions `<2;1,0>` at columns 0 and 1) and computed
//! with 32-bit instructions, `addc`/`subb` carrying between the halves.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::int64::{add64, sub64};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const UD: VType = VType::Ud;
const D: VType = VType::D;

/// A fresh 64-bit temporary.
fn temp64(cx: &mut Ctx) -> Reg {
    cx.temp(VType::Uq)
}

/// Emits one 64-bit integer ALU instruction (every component).
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value) -> Result<(), EmitError> {
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let mut srcs = Vec::new();
        for k in 0..usize::from(alu.op.info().num_inputs) {
            srcs.push(cx.comp(alu.srcs[k], i)?);
        }
        let d = cx.dest(dest, i)?;
        op64(cx, alu.op, d, &srcs)?;
    }
    Ok(())
}

fn op64(cx: &mut Ctx, op: AluOp, d: Reg, s: &[Opnd]) -> Result<(), EmitError> {
    use AluOp::*;
    let h = |o: Opnd, hi| o.half(hi);
    match op {
        Iadd => add64(cx, d, s[0], s[1]),
        Isub => sub64(cx, d, s[0], s[1]),
        Imul => {
            let (t1, t2, t3) = (cx.temp(UD), cx.temp(UD), cx.temp(UD));
            cx.op("mul", t1, UD, &[h(s[0], false), h(s[1], true)]);
            cx.op("mul", t2, UD, &[h(s[0], true), h(s[1], false)]);
            cx.op("mulh", t3, UD, &[h(s[0], false), h(s[1], false)]);
            cx.op_add3(
                d.half(true),
                UD,
                [Opnd::Reg(t3), Opnd::Reg(t1), Opnd::Reg(t2)],
            );
            cx.op("mul", d.half(false), UD, &[h(s[0], false), h(s[1], false)]);
        }
        Ineg => sub64(cx, d, Opnd::Imm(0), s[0]),
        Iabs => {
            let t = temp64(cx);
            sub64(cx, t, Opnd::Imm(0), s[0]);
            let p = cx.pred();
            let es = cx.es();
            let a = cx.src(h(s[0], true), D);
            cx.line(&format!("cmp.lt {es} {p} {a} 0x0:d"));
            select(cx, &p, d, Opnd::Reg(t), s[0]);
        }
        Imin | Imax | Umin | Umax => {
            let signed = matches!(op, Imin | Imax);
            let p = less(cx, s[0], s[1], signed, false);
            if matches!(op, Imin | Umin) {
                select(cx, &p, d, s[0], s[1]);
            } else {
                select(cx, &p, d, s[1], s[0]);
            }
        }
        Iand | Ior | Ixor => {
            let m = match op {
                Iand => "and",
                Ior => "or",
                _ => "xor",
            };
            for hi in [false, true] {
                cx.op(m, d.half(hi), UD, &[h(s[0], hi), h(s[1], hi)]);
            }
        }
        Inot => {
            for hi in [false, true] {
                cx.op("not", d.half(hi), UD, &[h(s[0], hi)]);
            }
        }
        Ishl | Ushr | Ishr => shift(cx, op, d, s[0], s[1]),
        Ieq | Ine => {
            let cond = if op == Ieq { "eq" } else { "ne" };
            let (p1, p2) = (cx.pred(), cx.pred());
            let es = cx.es();
            for (p, hi) in [(&p1, false), (&p2, true)] {
                let (a, b) = (cx.src(h(s[0], hi), UD), cx.src(h(s[1], hi), UD));
                cx.line(&format!("cmp.{cond} {es} {p} {a} {b}"));
            }
            let logic = if op == Ieq { "and" } else { "or" };
            cx.line(&format!("{logic} {es} {p1} {p1} {p2}"));
            cx.bool_from_pred(&p1, d);
        }
        Ilt | Ult => {
            let p = less(cx, s[0], s[1], op == Ilt, false);
            cx.bool_from_pred(&p, d);
        }
        Ige | Uge => {
            // a >= b is b <= a.
            let p = less(cx, s[1], s[0], op == Ige, true);
            cx.bool_from_pred(&p, d);
        }
        Bcsel => {
            let p = cx.pred_of(s[0]);
            select(cx, &p, d, s[1], s[2]);
        }
        UfindMsb => {
            // hi != 0 ? 63 - lzd(hi) : 31 - lzd(lo); lzd(0) is 32, so 0 gives -1.
            let (a, b) = (cx.temp(UD), cx.temp(UD));
            cx.op("lzd", a, UD, &[h(s[0], true)]);
            cx.op("lzd", b, UD, &[h(s[0], false)]);
            let es = cx.es();
            for (t, k) in [(a, 63), (b, 31)] {
                let (dt, st) = (cx.dst(t, D), cx.src(Opnd::Reg(t), D));
                cx.line(&format!("add {es} {dt} (-){st} {}", D.imm(k)));
            }
            let p = cx.pred();
            let sh = cx.src(h(s[0], true), UD);
            cx.line(&format!("cmp.ne {es} {p} {sh} 0x0:ud"));
            let (dd, sa, sb) = (
                cx.dst(d, D),
                cx.src(Opnd::Reg(a), D),
                cx.src(Opnd::Reg(b), D),
            );
            cx.line(&format!("({p}) sel {es} {dd} {sa} {sb}"));
        }
        BitCount => {
            let (a, b) = (cx.temp(UD), cx.temp(UD));
            cx.op("cbit", a, UD, &[h(s[0], false)]);
            cx.op("cbit", b, UD, &[h(s[0], true)]);
            cx.op("add", d, UD, &[Opnd::Reg(a), Opnd::Reg(b)]);
        }
        ExtractU8 | ExtractI8 | ExtractU16 | ExtractI16 => {
            let width: u64 = if matches!(op, ExtractU8 | ExtractI8) {
                8
            } else {
                16
            };
            let signed = matches!(op, ExtractI8 | ExtractI16);
            extract(cx, d, s[0], s[1], width, signed);
        }
        ImulHigh | UmulHigh => crate::div64::mul_high(cx, d, s[0], s[1], op == ImulHigh),
        Udiv | Umod => crate::div64::udiv(cx, d, s[0], s[1], op == Umod),
        Idiv => crate::div64::sdiv(cx, d, s[0], s[1]),
        Irem | Imod => crate::div64::srem(cx, d, s[0], s[1], op == Imod),
        Isign => {
            // The high half is the sign (0 or -1); the low half that, or 1 for a
            // positive value.
            let (t, nz) = (cx.temp(D), cx.temp(UD));
            cx.op("asr", t, D, &[h(s[0], true), Opnd::Imm(31)]);
            cx.op("or", nz, UD, &[h(s[0], false), h(s[0], true)]);
            let p = cx.pred();
            let es = cx.es();
            let snz = cx.src(Opnd::Reg(nz), UD);
            cx.line(&format!("cmp.ne {es} {p} {snz} 0x0:ud"));
            let dnz = cx.dst(nz, UD);
            cx.line(&format!("({p}) sel {es} {dnz} 0x1:ud 0x0:ud"));
            cx.op("or", d.half(false), UD, &[Opnd::Reg(nz), Opnd::Reg(t)]);
            cx.op("mov", d.half(true), UD, &[Opnd::Reg(t)]);
        }
        other => {
            return Err(cx.unsupported(format!(
                "`{other}` on 64-bit integers has no vISA form in this back end"
            )))
        }
    }
    Ok(())
}

/// `(p) sel` of both halves.
fn select(cx: &mut Ctx, p: &str, d: Reg, a: Opnd, b: Opnd) {
    let es = cx.es();
    for hi in [false, true] {
        let (dd, sa, sb) = (
            cx.dst(d.half(hi), UD),
            cx.src(a.half(hi), UD),
            cx.src(b.half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dd} {sa} {sb}"));
    }
}

/// A predicate holding `a < b` (or `a <= b` when `or_equal`), signed or unsigned: the
/// high halves decide unless equal, then the low halves (unsigned).
fn less(cx: &mut Ctx, a: Opnd, b: Opnd, signed: bool, or_equal: bool) -> String {
    let hty = if signed { D } else { UD };
    let (p1, p2, p3) = (cx.pred(), cx.pred(), cx.pred());
    let es = cx.es();
    let (ah, bh) = (cx.src(a.half(true), hty), cx.src(b.half(true), hty));
    cx.line(&format!("cmp.lt {es} {p1} {ah} {bh}"));
    let (ah, bh) = (cx.src(a.half(true), UD), cx.src(b.half(true), UD));
    cx.line(&format!("cmp.eq {es} {p2} {ah} {bh}"));
    let lo_cond = if or_equal { "le" } else { "lt" };
    let (al, bl) = (cx.src(a.half(false), UD), cx.src(b.half(false), UD));
    cx.line(&format!("cmp.{lo_cond} {es} {p3} {al} {bl}"));
    cx.line(&format!("and {es} {p2} {p2} {p3}"));
    cx.line(&format!("or {es} {p1} {p1} {p2}"));
    p1
}

/// NIR's 64-bit shifts: the count masked to 6 bits, computed on halves. For a count
/// `c < 32` the halves shift by `c` and exchange `c` bits (the carried bits shifted in two
/// steps, by 1 and by `31 - c`, so that `c = 0` carries none); for `c >= 32` one half
/// moves to the other, shifted by `c - 32`, which vISA's count masking gives for free.
fn shift(cx: &mut Ctx, op: AluOp, d: Reg, a: Opnd, cnt: Opnd) {
    let c = crate::ops::mask(cx, cnt, 63);
    let nc = cx.temp(UD);
    cx.op("xor", nc, UD, &[c, Opnd::Imm(31)]);
    let (lo, hi) = (a.half(false), a.half(true));
    let (t_a, t_b, carry) = (cx.temp(UD), cx.temp(UD), cx.temp(UD));
    let es = cx.es();
    let p = cx.pred();
    let sc = cx.src(c, UD);
    cx.line(&format!("cmp.lt {es} {p} {sc} 0x20:ud"));
    match op {
        AluOp::Ishl => {
            // t_a = lo << c; t_b = hi << c | (lo >> 1) >> (31 - c)
            cx.op("shl", t_a, UD, &[lo, c]);
            cx.op("shl", t_b, UD, &[hi, c]);
            cx.op("shr", carry, UD, &[lo, Opnd::Imm(1)]);
            cx.op("shr", carry, UD, &[Opnd::Reg(carry), Opnd::Reg(nc)]);
            cx.op("or", t_b, UD, &[Opnd::Reg(t_b), Opnd::Reg(carry)]);
            // c < 32: (t_a, t_b); else (0, t_a)
            let (dh, sb, sa) = (
                cx.dst(d.half(true), UD),
                cx.src(Opnd::Reg(t_b), UD),
                cx.src(Opnd::Reg(t_a), UD),
            );
            cx.line(&format!("({p}) sel {es} {dh} {sb} {sa}"));
            let dl = cx.dst(d.half(false), UD);
            cx.line(&format!("({p}) sel {es} {dl} {sa} 0x0:ud"));
        }
        _ => {
            // t_a = hi >> c (arithmetic for ishr); t_b = lo >> c | (hi << 1) << (31 - c)
            let (m, ty) = if op == AluOp::Ishr {
                ("asr", D)
            } else {
                ("shr", UD)
            };
            cx.op_typed(m, (t_a, ty), &[(hi, ty), (c, UD)]);
            cx.op("shr", t_b, UD, &[lo, c]);
            cx.op("shl", carry, UD, &[hi, Opnd::Imm(1)]);
            cx.op("shl", carry, UD, &[Opnd::Reg(carry), Opnd::Reg(nc)]);
            cx.op("or", t_b, UD, &[Opnd::Reg(t_b), Opnd::Reg(carry)]);
            let fill = if op == AluOp::Ishr {
                let f = cx.temp(D);
                cx.op("asr", f, D, &[hi, Opnd::Imm(31)]);
                Opnd::Reg(f)
            } else {
                Opnd::Imm(0)
            };
            // c < 32: (t_b, t_a); else (t_a, fill)
            let (dl, sb, sa) = (
                cx.dst(d.half(false), UD),
                cx.src(Opnd::Reg(t_b), UD),
                cx.src(Opnd::Reg(t_a), UD),
            );
            cx.line(&format!("({p}) sel {es} {dl} {sb} {sa}"));
            let (dh, sf) = (cx.dst(d.half(true), UD), cx.src(fill, UD));
            cx.line(&format!("({p}) sel {es} {dh} {sa} {sf}"));
        }
    }
}

/// `extract_[ui]{8,16}` of a 64-bit value: the field at `index * width`, zero- or
/// sign-extended to 64 bits; an index past the value gives 0 or the sign of `a`.
fn extract(cx: &mut Ctx, d: Reg, a: Opnd, index: Opnd, width: u64, signed: bool) {
    let fields = 64 / width;
    // shift = index * width (only meaningful when the index is in range)
    let sh = cx.temp(UD);
    cx.op(
        "shl",
        sh,
        UD,
        &[
            index.half(false),
            Opnd::Imm(u64::from(width.trailing_zeros())),
        ],
    );
    let t = temp64(cx);
    shift(cx, AluOp::Ushr, t, a, Opnd::Reg(sh));
    let ty = if signed { D } else { UD };
    let f = cx.temp(ty);
    cx.op_typed(
        "bfe",
        (f, ty),
        &[
            (Opnd::Imm(width), UD),
            (Opnd::Imm(0), UD),
            (Opnd::Reg(t).half(false), ty),
        ],
    );
    let fh = cx.temp(ty);
    if signed {
        cx.op("asr", fh, D, &[Opnd::Reg(f), Opnd::Imm(31)]);
    } else {
        cx.op("mov", fh, UD, &[Opnd::Imm(0)]);
    }
    let past = if signed {
        let s = cx.temp(D);
        cx.op("asr", s, D, &[a.half(true), Opnd::Imm(31)]);
        Opnd::Reg(s)
    } else {
        Opnd::Imm(0)
    };
    // in range: index.hi == 0 && index.lo < fields
    let (p1, p2) = (cx.pred(), cx.pred());
    let es = cx.es();
    let ih = cx.src(index.half(true), UD);
    cx.line(&format!("cmp.eq {es} {p1} {ih} 0x0:ud"));
    let il = cx.src(index.half(false), UD);
    cx.line(&format!("cmp.lt {es} {p2} {il} {}", UD.imm(fields)));
    cx.line(&format!("and {es} {p1} {p1} {p2}"));
    let sp = cx.src(past, UD);
    for (hi, v) in [(false, f), (true, fh)] {
        let (dd, sv) = (cx.dst(d.half(hi), UD), cx.src(Opnd::Reg(v), UD));
        cx.line(&format!("({p1}) sel {es} {dd} {sv} {sp}"));
    }
}
