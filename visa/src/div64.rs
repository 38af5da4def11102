//! 64-bit integer multiply-high and division, on 32-bit halves.
//!
//! - `umul_high`: the four 32x32 partial products, the middle column's carries added
//!   into the high half. `imul_high` subtracts `b` where `a` is negative and `a` where
//!   `b` is, from the unsigned high half (the two's-complement identity).
//! - `udiv`/`umod`: restoring division, one quotient bit per iteration of a 64-round
//!   loop (a uniform scalar counter; the loop's SIMD `goto` is taken by every active
//!   lane alike): the remainder:numerator pair shifts left by one, and where the
//!   remainder reaches the divisor it is reduced and the quotient bit set. A zero
//!   divisor gives 0 as NIR defines. `idiv` divides the magnitudes and negates the
//!   quotient when the signs differ (`INT64_MIN / -1` wraps to `INT64_MIN`).
//! - `irem`/`imod`: the remainder of the magnitudes (0 for a zero divisor and for
//!   `INT64_MIN % -1`), negated when `a` is negative (`irem`, the sign of `a`); `imod`
//!   adds `b` to a non-zero remainder whose operands' signs differ.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::int64::{add64, sub64};
use crate::vtype::VType;

const UD: VType = VType::Ud;
const D: VType = VType::D;

/// `r += zext(x)`, 64-bit `r`.
fn add_u32(cx: &mut Ctx, r: Reg, x: Opnd) {
    let carry = cx.temp(UD);
    let es = cx.es();
    let (dl, dc, rl, sx) = (
        cx.dst(r.half(false), UD),
        cx.dst(carry, UD),
        cx.src(Opnd::Reg(r.half(false)), UD),
        cx.src(x, UD),
    );
    cx.line(&format!("addc {es} {dl} {dc} {rl} {sx}"));
    cx.op(
        "add",
        r.half(true),
        UD,
        &[Opnd::Reg(r.half(true)), Opnd::Reg(carry)],
    );
}

/// `d = high 64 bits of a * b`, unsigned or signed.
pub fn mul_high(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, signed: bool) {
    let (a0, a1, b0, b1) = (a.half(false), a.half(true), b.half(false), b.half(true));
    let part = |cx: &mut Ctx, x: Opnd, y: Opnd| {
        let (lo, hi) = (cx.temp(UD), cx.temp(UD));
        cx.op("mul", lo, UD, &[x, y]);
        cx.op("mulh", hi, UD, &[x, y]);
        (lo, hi)
    };
    let (_, h00) = part(cx, a0, b0);
    let (l01, h01) = part(cx, a0, b1);
    let (l10, h10) = part(cx, a1, b0);
    let (l11, h11) = part(cx, a1, b1);
    // The middle column h00 + l01 + l10 carries 0, 1 or 2 into the high half.
    let es = cx.es();
    let (mid, c1, c2) = (cx.temp(UD), cx.temp(UD), cx.temp(UD));
    let (dm, dc, s0, s1) = (
        cx.dst(mid, UD),
        cx.dst(c1, UD),
        cx.src(Opnd::Reg(h00), UD),
        cx.src(Opnd::Reg(l01), UD),
    );
    cx.line(&format!("addc {es} {dm} {dc} {s0} {s1}"));
    let (dm, dc, s0, s1) = (
        cx.dst(mid, UD),
        cx.dst(c2, UD),
        cx.src(Opnd::Reg(mid), UD),
        cx.src(Opnd::Reg(l10), UD),
    );
    cx.line(&format!("addc {es} {dm} {dc} {s0} {s1}"));
    cx.op("add", c1, UD, &[Opnd::Reg(c1), Opnd::Reg(c2)]);
    // r = p11 + h01 + h10 + carries
    let r = if signed { cx.temp(VType::Uq) } else { d };
    cx.op("mov", r.half(false), UD, &[Opnd::Reg(l11)]);
    cx.op("mov", r.half(true), UD, &[Opnd::Reg(h11)]);
    for x in [h01, h10, c1] {
        add_u32(cx, r, Opnd::Reg(x));
    }
    if signed {
        // r - (a < 0 ? b : 0) - (b < 0 ? a : 0)
        let mut cur = r;
        for (k, (neg_if, sub)) in [(a, b), (b, a)].into_iter().enumerate() {
            let m = cx.temp(VType::Uq);
            let s = cx.temp(D);
            cx.op("asr", s, D, &[neg_if.half(true), Opnd::Imm(31)]);
            for hi in [false, true] {
                cx.op("and", m.half(hi), UD, &[sub.half(hi), Opnd::Reg(s)]);
            }
            let next = if k == 1 { d } else { cx.temp(VType::Uq) };
            sub64(cx, next, Opnd::Reg(cur), Opnd::Reg(m));
            cur = next;
        }
    }
}

/// Copies a 64-bit operand into a fresh temporary.
fn copy64(cx: &mut Ctx, o: Opnd) -> Reg {
    let t = cx.temp(VType::Uq);
    for hi in [false, true] {
        cx.op("mov", t.half(hi), UD, &[o.half(hi)]);
    }
    t
}

/// `d = a / b` (or `a % b`), unsigned 64-bit; 0 when `b` is 0.
pub fn udiv(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, modulo: bool) {
    let n = copy64(cx, a);
    let dv = copy64(cx, b);
    let r = cx.temp(VType::Uq);
    for hi in [false, true] {
        cx.op("mov", r.half(hi), UD, &[Opnd::Imm(0)]);
    }
    let count = cx.scalar(UD);
    let dc = cx.dst(count, UD);
    cx.line(&format!("mov (M1_NM, 1) {dc} 0x40:ud"));
    let head = cx.new_label("div");
    let head = format!("{head}_loop");
    cx.label(&head);
    let es = cx.es();
    // (r:n) <<= 1
    let t = cx.temp(UD);
    let shl_in = |cx: &mut Ctx, dst: Reg, from: Reg, t: Reg| {
        // dst = dst << 1 | from >> 31
        cx.op("shr", t, UD, &[Opnd::Reg(from), Opnd::Imm(31)]);
        cx.op("shl", dst, UD, &[Opnd::Reg(dst), Opnd::Imm(1)]);
        cx.op("or", dst, UD, &[Opnd::Reg(dst), Opnd::Reg(t)]);
    };
    shl_in(cx, r.half(true), r.half(false), t);
    shl_in(cx, r.half(false), n.half(true), t);
    shl_in(cx, n.half(true), n.half(false), t);
    cx.op(
        "shl",
        n.half(false),
        UD,
        &[Opnd::Reg(n.half(false)), Opnd::Imm(1)],
    );
    // r >= dv: hi > or (hi == and lo >=)
    let (p1, p2, p3) = (cx.pred(), cx.pred(), cx.pred());
    let (rh, dh) = (
        cx.src(Opnd::Reg(r.half(true)), UD),
        cx.src(Opnd::Reg(dv.half(true)), UD),
    );
    cx.line(&format!("cmp.gt {es} {p1} {rh} {dh}"));
    cx.line(&format!("cmp.eq {es} {p2} {rh} {dh}"));
    let (rl, dl) = (
        cx.src(Opnd::Reg(r.half(false)), UD),
        cx.src(Opnd::Reg(dv.half(false)), UD),
    );
    cx.line(&format!("cmp.ge {es} {p3} {rl} {dl}"));
    cx.line(&format!("and {es} {p2} {p2} {p3}"));
    cx.line(&format!("or {es} {p1} {p1} {p2}"));
    // where so: r -= dv; n |= 1
    let borrow = cx.temp(UD);
    let (drl, db) = (cx.dst(r.half(false), UD), cx.dst(borrow, UD));
    cx.line(&format!("({p1}) subb {es} {drl} {db} {rl} {dl}"));
    let (drh, rhd, dhd, bw) = (
        cx.dst(r.half(true), D),
        cx.src(Opnd::Reg(r.half(true)), D),
        cx.src(Opnd::Reg(dv.half(true)), D),
        cx.src(Opnd::Reg(borrow), D),
    );
    cx.add3(
        &format!("({p1}) "),
        &es,
        &drh,
        [&rhd, &format!("(-){dhd}"), &format!("(-){bw}")],
    );
    let (dn, sn) = (
        cx.dst(n.half(false), UD),
        cx.src(Opnd::Reg(n.half(false)), UD),
    );
    cx.line(&format!("({p1}) or {es} {dn} {sn} 0x1:ud"));
    // count -= 1; loop while count != 0 (uniform: every lane takes the branch alike)
    let sc = cx.src(Opnd::Reg(count), UD);
    cx.line(&format!("add (M1_NM, 1) {dc} {sc} 0xffffffff:ud"));
    let p = cx.pred();
    cx.line(&format!("cmp.ne {es} {p} {sc} 0x0:ud"));
    let goto_es = if cx.scalar_mode() {
        "(M1, 1)".to_string()
    } else {
        es.clone()
    };
    cx.line(&format!("({p}) goto {goto_es} {head}"));
    // b == 0 gives 0
    let res = if modulo { r } else { n };
    let pz = cx.pred();
    let pz2 = cx.pred();
    let (bl, bh) = (cx.src(b.half(false), UD), cx.src(b.half(true), UD));
    cx.line(&format!("cmp.eq {es} {pz} {bl} 0x0:ud"));
    cx.line(&format!("cmp.eq {es} {pz2} {bh} 0x0:ud"));
    cx.line(&format!("and {es} {pz} {pz} {pz2}"));
    for hi in [false, true] {
        let (dd, sr) = (cx.dst(d.half(hi), UD), cx.src(Opnd::Reg(res.half(hi)), UD));
        cx.line(&format!("({pz}) sel {es} {dd} 0x0:ud {sr}"));
    }
}

/// `|o|` of a signed 64-bit operand, in a fresh register (`|INT64_MIN|` reads as
/// `2^63` unsigned).
fn abs64(cx: &mut Ctx, o: Opnd) -> Reg {
    let o = Opnd::Reg(copy64(cx, o));
    let neg = cx.temp(VType::Uq);
    sub64(cx, neg, Opnd::Imm(0), o);
    let p = cx.pred();
    let es = cx.es();
    let sh = cx.src(o.half(true), D);
    cx.line(&format!("cmp.lt {es} {p} {sh} 0x0:d"));
    let m = cx.temp(VType::Uq);
    for hi in [false, true] {
        let (dm, sn, so) = (
            cx.dst(m.half(hi), UD),
            cx.src(Opnd::Reg(neg).half(hi), UD),
            cx.src(o.half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dm} {sn} {so}"));
    }
    m
}

/// `d = irem(a, b)` (or `imod` when `floor`), signed 64-bit; 0 when `b` is 0.
pub fn srem(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, floor: bool) {
    let a = Opnd::Reg(copy64(cx, a));
    let (ua, ub) = (abs64(cx, a), abs64(cx, b));
    let m = cx.temp(VType::Uq);
    udiv(cx, m, Opnd::Reg(ua), Opnd::Reg(ub), true);
    let nm = cx.temp(VType::Uq);
    sub64(cx, nm, Opnd::Imm(0), Opnd::Reg(m));
    let es = cx.es();
    let p = cx.pred();
    let sa = cx.src(a.half(true), D);
    cx.line(&format!("cmp.lt {es} {p} {sa} 0x0:d"));
    let r = if floor { cx.temp(VType::Uq) } else { d };
    for hi in [false, true] {
        let (dd, sn, sm) = (
            cx.dst(r.half(hi), UD),
            cx.src(Opnd::Reg(nm).half(hi), UD),
            cx.src(Opnd::Reg(m).half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dd} {sn} {sm}"));
    }
    if !floor {
        return;
    }
    // r + b where r != 0 and the operands' signs differ, else r.
    let rb = cx.temp(VType::Uq);
    add64(cx, rb, Opnd::Reg(r), b);
    let (nz, sign) = (cx.temp(UD), cx.temp(D));
    cx.op(
        "or",
        nz,
        UD,
        &[Opnd::Reg(r).half(false), Opnd::Reg(r).half(true)],
    );
    cx.op("xor", sign, D, &[a.half(true), b.half(true)]);
    let (p1, p2) = (cx.pred(), cx.pred());
    let (snz, ss) = (cx.src(Opnd::Reg(nz), UD), cx.src(Opnd::Reg(sign), D));
    cx.line(&format!("cmp.ne {es} {p1} {snz} 0x0:ud"));
    cx.line(&format!("cmp.lt {es} {p2} {ss} 0x0:d"));
    cx.line(&format!("and {es} {p1} {p1} {p2}"));
    for hi in [false, true] {
        let (dd, sb, sr) = (
            cx.dst(d.half(hi), UD),
            cx.src(Opnd::Reg(rb).half(hi), UD),
            cx.src(Opnd::Reg(r).half(hi), UD),
        );
        cx.line(&format!("({p1}) sel {es} {dd} {sb} {sr}"));
    }
}

/// `d = a / b`, signed 64-bit, truncating; 0 when `b` is 0.
pub fn sdiv(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd) {
    let abs = abs64;
    let (ua, ub) = (abs(cx, a), abs(cx, b));
    let q = cx.temp(VType::Uq);
    udiv(cx, q, Opnd::Reg(ua), Opnd::Reg(ub), false);
    let nq = cx.temp(VType::Uq);
    sub64(cx, nq, Opnd::Imm(0), Opnd::Reg(q));
    let sign = cx.temp(D);
    cx.op("xor", sign, D, &[a.half(true), b.half(true)]);
    let p = cx.pred();
    let es = cx.es();
    let ss = cx.src(Opnd::Reg(sign), D);
    cx.line(&format!("cmp.lt {es} {p} {ss} 0x0:d"));
    for hi in [false, true] {
        let (dd, sn, sq) = (
            cx.dst(d.half(hi), UD),
            cx.src(Opnd::Reg(nq).half(hi), UD),
            cx.src(Opnd::Reg(q).half(hi), UD),
        );
        cx.line(&format!("({p}) sel {es} {dd} {sn} {sq}"));
    }
}
