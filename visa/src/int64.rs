//! 64-bit integer addition and subtraction, shared by the 64-bit ALU
//! ([`crate::alu64`]) and the 64-bit division sequences ([`crate::div64`]): one `add`
//! on `q` operands where the ALU has 64-bit integers (Gfx8 and Gfx9, Mesa's
//! `has_64bit_int`, where brw emits the same), else on 32-bit halves: the low halves
//! with `addc`/`subb`, the carry or borrow folded into the high halves with one `add3`
//! (two `add`s before Gfx12.5).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::vtype::VType;

const UD: VType = VType::Ud;
const D: VType = VType::D;

/// `d = a + b`: one `add` on `q` operands where the ALU has them, else `addc` on the
/// low halves and the carry added into the high halves.
pub fn add64(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd) {
    if cx.t.family.has_int64() {
        cx.op("add", d, VType::Q, &[a, b]);
        return;
    }
    let carry = cx.temp(UD);
    let es = cx.es();
    let (dl, c, al, bl) = (
        cx.dst(d.half(false), UD),
        cx.dst(carry, UD),
        cx.src(a.half(false), UD),
        cx.src(b.half(false), UD),
    );
    cx.line(&format!("addc {es} {dl} {c} {al} {bl}"));
    cx.op_add3(
        d.half(true),
        UD,
        [a.half(true), b.half(true), Opnd::Reg(carry)],
    );
}

/// `d = a - b`: one `add` of `-b` on `q` operands where the ALU has them, else `subb`
/// on the low halves and the borrow taken from the high halves.
pub fn sub64(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd) {
    if cx.t.family.has_int64() {
        let es = cx.es();
        let (dq, aq) = (cx.dst(d, VType::Q), cx.src(a, VType::Q));
        let bq = crate::ops::neg(cx, b, VType::Q);
        cx.line(&format!("add {es} {dq} {aq} {bq}"));
        return;
    }
    let borrow = cx.temp(UD);
    let es = cx.es();
    let (dl, c, al, bl) = (
        cx.dst(d.half(false), UD),
        cx.dst(borrow, UD),
        cx.src(a.half(false), UD),
        cx.src(b.half(false), UD),
    );
    cx.line(&format!("subb {es} {dl} {c} {al} {bl}"));
    let (dh, ah) = (cx.dst(d.half(true), D), cx.src(a.half(true), D));
    let bh = crate::ops::neg(cx, b.half(true), D);
    let bw = crate::ops::neg(cx, Opnd::Reg(borrow), D);
    cx.add3("", &es, &dh, [&ah, &bh, &bw]);
}
