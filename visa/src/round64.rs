//! Rounding binary64 values to integers (`ffloor`, `fceil`, `fround_even`, `ftrunc`)
//! with integer operations on their bits: vISA takes double-precision operands only in
//! `mul`, `add`, `mad`, `div`, `inv`, `sqrt` (GenX_IR: "Only mul/add/mad/div/inv/sqrtm/
//! sqrt/divm are allowed to use double precision floating point operands").
//!
//! - `ftrunc`: with `e` the unbiased exponent, `e < 0` keeps only the sign, `e >= 52`
//!   (integers, infinities, NaN) keeps the value, otherwise the `52 - e` fraction bits
//!   are cleared.
//! - `ffloor`/`fceil`: the truncated value, minus (plus) one where it differs from a
//!   negative (positive) input.
//! - `fround_even`: `(|x| + 2^52) - 2^52` rounds `|x| < 2^52` to nearest even in the
//!   addition itself; the sign is put back (so -0.25 gives -0.0); larger magnitudes
//!   and NaN stay.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::vtype::VType;
use ir::AluOp;

const UD: VType = VType::Ud;
const D: VType = VType::D;
const DF: VType = VType::Df;

/// Emits one rounding of a binary64 operand.
pub fn round(cx: &mut Ctx, op: AluOp, d: Reg, a: Opnd) {
    if op == AluOp::FroundEven {
        return round_even(cx, d, a);
    }
    let t = trunc(cx, a);
    if op == AluOp::Ftrunc {
        for hi in [false, true] {
            cx.op("mov", d.half(hi), UD, &[Opnd::Reg(t).half(hi)]);
        }
        return;
    }
    // Where the truncation changed the value and the sign is the one that rounds away:
    // floor adds -1 to negatives, ceil +1 to positives.
    let es = cx.es();
    let (p1, p2) = (cx.pred(), cx.pred());
    let (tl, al) = (
        cx.src(Opnd::Reg(t).half(false), UD),
        cx.src(a.half(false), UD),
    );
    cx.line(&format!("cmp.ne {es} {p1} {tl} {al}"));
    let (th, ah) = (
        cx.src(Opnd::Reg(t).half(true), UD),
        cx.src(a.half(true), UD),
    );
    cx.line(&format!("cmp.ne {es} {p2} {th} {ah}"));
    cx.line(&format!("or {es} {p1} {p1} {p2}"));
    let sh = cx.src(a.half(true), D);
    let (cond, one) = if op == AluOp::Ffloor {
        ("lt", 0xbff0_0000_0000_0000u64)
    } else {
        ("ge", 0x3ff0_0000_0000_0000u64)
    };
    cx.line(&format!("cmp.{cond} {es} {p2} {sh} 0x0:d"));
    cx.line(&format!("and {es} {p1} {p1} {p2}"));
    let adj = cx.temp(DF);
    let (da, st) = (cx.dst(adj, DF), cx.src(Opnd::Reg(t), DF));
    cx.line(&format!("add {es} {da} {st} {}", DF.imm(one)));
    for hi in [false, true] {
        let (dd, sa, stt) = (
            cx.dst(d.half(hi), UD),
            cx.src(Opnd::Reg(adj).half(hi), UD),
            cx.src(Opnd::Reg(t).half(hi), UD),
        );
        cx.line(&format!("({p1}) sel {es} {dd} {sa} {stt}"));
    }
}

/// The binary64 `a` with its fraction bits cleared.
fn trunc(cx: &mut Ctx, a: Opnd) -> Reg {
    let es = cx.es();
    // e = ((hi >> 20) & 0x7ff) - 1023; f = 52 - e fraction bits
    let e = cx.temp(D);
    cx.op("shr", e, UD, &[a.half(true), Opnd::Imm(20)]);
    cx.op("and", e, UD, &[Opnd::Reg(e), Opnd::Imm(0x7ff)]);
    cx.op("add", e, D, &[Opnd::Reg(e), Opnd::Imm((-1023i64) as u64)]);
    let f = cx.temp(D);
    let (df, se) = (cx.dst(f, D), cx.src(Opnd::Reg(e), D));
    cx.line(&format!("add {es} {df} (-){se} 0x34:d"));
    // lo_mask = f >= 32 ? 0 : ~0 << f; hi_mask = f <= 32 ? ~0 : ~0 << (f - 32)
    let (lm, hm) = (cx.temp(UD), cx.temp(UD));
    cx.op("shl", lm, UD, &[Opnd::Imm(0xffff_ffff), Opnd::Reg(f)]);
    let p = cx.pred();
    let sf = cx.src(Opnd::Reg(f), D);
    cx.line(&format!("cmp.ge {es} {p} {sf} 0x20:d"));
    let (dl, sl) = (cx.dst(lm, UD), cx.src(Opnd::Reg(lm), UD));
    cx.line(&format!("({p}) sel {es} {dl} 0x0:ud {sl}"));
    // ~0 << (f - 32): the count masked to five bits is f - 32 for f in 32..52.
    cx.op("shl", hm, UD, &[Opnd::Imm(0xffff_ffff), Opnd::Reg(f)]);
    let (dh, sh) = (cx.dst(hm, UD), cx.src(Opnd::Reg(hm), UD));
    cx.line(&format!("(!{p}) sel {es} {dh} 0xffffffff:ud {sh}"));
    let t = cx.temp(VType::Uq);
    cx.op("and", t.half(false), UD, &[a.half(false), Opnd::Reg(lm)]);
    cx.op("and", t.half(true), UD, &[a.half(true), Opnd::Reg(hm)]);
    // e < 0: the sign only; e >= 52: the value.
    let p = cx.pred();
    let se = cx.src(Opnd::Reg(e), D);
    cx.line(&format!("cmp.lt {es} {p} {se} 0x0:d"));
    let sign = cx.temp(UD);
    cx.op("and", sign, UD, &[a.half(true), Opnd::Imm(0x8000_0000)]);
    let (dl, tl) = (
        cx.dst(t.half(false), UD),
        cx.src(Opnd::Reg(t).half(false), UD),
    );
    cx.line(&format!("({p}) sel {es} {dl} 0x0:ud {tl}"));
    let (dh, ss, th) = (
        cx.dst(t.half(true), UD),
        cx.src(Opnd::Reg(sign), UD),
        cx.src(Opnd::Reg(t).half(true), UD),
    );
    cx.line(&format!("({p}) sel {es} {dh} {ss} {th}"));
    let p = cx.pred();
    cx.line(&format!("cmp.ge {es} {p} {se} 0x34:d"));
    for hi in [false, true] {
        let (dd, sa, st) = (
            cx.dst(t.half(hi), UD),
            cx.src(a.half(hi), UD),
            cx.src(Opnd::Reg(t).half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dd} {sa} {st}"));
    }
    t
}

/// Round to nearest, ties to even.
fn round_even(cx: &mut Ctx, d: Reg, a: Opnd) {
    let es = cx.es();
    let mag = cx.temp(VType::Uq);
    cx.op("mov", mag.half(false), UD, &[a.half(false)]);
    cx.op(
        "and",
        mag.half(true),
        UD,
        &[a.half(true), Opnd::Imm(0x7fff_ffff)],
    );
    let r = cx.temp(DF);
    let two52 = 0x4330_0000_0000_0000u64;
    let (dr, sm) = (cx.dst(r, DF), cx.src(Opnd::Reg(mag), DF));
    cx.line(&format!("add {es} {dr} {sm} {}", DF.imm(two52)));
    let (dr, sr) = (cx.dst(r, DF), cx.src(Opnd::Reg(r), DF));
    cx.line(&format!(
        "add {es} {dr} {sr} {}",
        DF.imm(0xc330_0000_0000_0000)
    ));
    // Put the sign back.
    let sign = cx.temp(UD);
    cx.op("and", sign, UD, &[a.half(true), Opnd::Imm(0x8000_0000)]);
    cx.op(
        "or",
        r.half(true),
        UD,
        &[Opnd::Reg(r).half(true), Opnd::Reg(sign)],
    );
    // |x| >= 2^52 (and NaN, infinities): the value itself.
    let p = cx.pred();
    let sh = cx.src(Opnd::Reg(mag).half(true), UD);
    cx.line(&format!("cmp.ge {es} {p} {sh} 0x43300000:ud"));
    for hi in [false, true] {
        let (dd, sa, sr) = (
            cx.dst(d.half(hi), UD),
            cx.src(a.half(hi), UD),
            cx.src(Opnd::Reg(r).half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dd} {sa} {sr}"));
    }
}
