//! NIR's `fsqrt`, correctly rounded, as `ir::eval` defines it.
//!
//! PVC has vISA `sqrtm`, the IEEE square root macro (IGC
//! `documentation/visa/instructions/SQRTM.md`), for binary32 and binary64. GenX_IR
//! rejects it on DG2 and MTL ("IEEE instruction sqrtm is not supported on DG2
//! platform"), and their `sqrt` is the math unit's approximation, so there a binary32
//! root is made correctly rounded around it:
//!
//! 1. inputs below 2^-64 are scaled by 2^64 (exactly; the root is scaled back by 2^-32),
//!    so that no intermediate below underflows;
//! 2. `s0 = sqrt(x)` (the approximation), one Newton step with fused multiply-adds,
//!    `s1 = s0 + (x - s0*s0) * (0.5 * inv(s0))`: the error becomes second order in the
//!    approximation's (a relative error of 2^-12 in `sqrt` and `inv` would still do),
//!    so `s1` is within an ulp of the root (faithful);
//! 3. Tuckerman's rounding test decides between `s1` and its neighbours: with `u` the
//!    ulp of `s1`, `r = x - s1*s1` is exact in a fused multiply-add (the remainder of
//!    a faithful root is representable), and the root lies above the midpoint
//!    `s1 + u/2` exactly when `r - s1*u > 0`, below `s1 - u'/2` (`u'` the ulp below
//!    `s1`, half of `u` when `s1` is a power of two) exactly when `r + s1*u' <= 0`
//!    (every term is a multiple of `u'^2/4`, and a root of a binary32 is never a
//!    midpoint). Each test is one fused multiply-add, whose sign is exact.
//!
//! Zeros give themselves (`sqrt(-0) = -0`), `+inf` gives `+inf`, other negative inputs
//! the default NaN, and NaNs follow [`crate::nan`]. binary16 roots are binary32 roots
//! rounded once more, which is exact (binary32 has more than `2 * 11 + 2` bits).
//! binary64 roots need `sqrtm`; MTL has binary64 `add`, `mul` and `mad` but neither
//! `sqrtm` nor `sqrt` on `df` ("IEEE instruction sqrt is not supported on MTL
//! platform"), so it is an error there.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::vtype::VType;

const F: VType = VType::F;
const UD: VType = VType::Ud;

/// `d = sqrt(a)` in float type `ty`, correctly rounded.
pub fn sqrt(cx: &mut Ctx, d: Reg, a: Opnd, ty: VType) -> Result<(), EmitError> {
    match ty {
        VType::Df if cx.t.sqrtm => {
            cx.op("sqrtm", d, ty, &[a]);
            crate::nan::apply(cx, d, ty, &[a]);
            Ok(())
        }
        VType::Df => Err(cx.unsupported(format!(
            "{} has no IEEE 64-bit square root (vISA sqrtm, or sqrt on df), which NIR's 64-bit `fsqrt` needs",
            cx.t.platform
        ))),
        VType::Hf => {
            let fa = cx.temp(F);
            cx.op_typed("mov", (fa, F), &[(a, VType::Hf)]);
            let r = cx.temp(F);
            sqrt32(cx, r, Opnd::Reg(fa));
            cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(r), F)]);
            crate::nan::apply(cx, d, ty, &[a]);
            Ok(())
        }
        _ => {
            sqrt32(cx, d, a);
            Ok(())
        }
    }
}

/// `d = sqrt(a)` in binary32, correctly rounded (the module documentation).
pub fn sqrt32(cx: &mut Ctx, d: Reg, a: Opnd) {
    if cx.t.sqrtm {
        cx.op("sqrtm", d, F, &[a]);
        crate::nan::apply(cx, d, F, &[a]);
        return;
    }
    let es = cx.es();
    let x = Opnd::Reg(cx.in_reg(a, F));
    // |x| as bits, for the tests below.
    let ax = cx.temp(UD);
    cx.op("and", ax, UD, &[x, Opnd::Imm(0x7fff_ffff)]);
    // 1. Scale inputs below 2^-64 by 2^64; the root comes back by 2^-32.
    let xs = cx.temp(F);
    cx.op("mul", xs, F, &[x, Opnd::Imm(0x5f80_0000)]);
    let back = cx.temp(F);
    let p = cx.pred();
    let sax = cx.src(Opnd::Reg(ax), UD);
    cx.line(&format!("cmp.lt {es} {p} {sax} 0x1f800000:ud"));
    let (dxs, sxs, sx) = (cx.dst(xs, F), cx.src(Opnd::Reg(xs), F), cx.src(x, F));
    cx.line(&format!("(!{p}) sel {es} {dxs} {sx} {sxs}"));
    let db = cx.dst(back, F);
    cx.line(&format!("({p}) sel {es} {db} 0x2f800000:f 0x3f800000:f"));
    let xs = Opnd::Reg(xs);
    // 2. The approximation and one Newton step.
    let s0 = cx.temp(F);
    cx.op("sqrt", s0, F, &[xs]);
    let h = cx.temp(F);
    cx.op("inv", h, F, &[Opnd::Reg(s0)]);
    cx.op("mul", h, F, &[Opnd::Reg(h), Opnd::Imm(0x3f00_0000)]);
    let r = cx.temp(F);
    let s1 = cx.temp(F);
    neg_mad(cx, r, Opnd::Reg(s0), Opnd::Reg(s0), xs);
    cx.op("mad", s1, F, &[Opnd::Reg(r), Opnd::Reg(h), Opnd::Reg(s0)]);
    // 3. Tuckerman's test around s1.
    neg_mad(cx, r, Opnd::Reg(s1), Opnd::Reg(s1), xs);
    let u = cx.temp(UD);
    cx.op("and", u, UD, &[Opnd::Reg(s1), Opnd::Imm(0x7f80_0000)]);
    cx.op(
        "add",
        u,
        UD,
        &[Opnd::Reg(u), Opnd::Imm((-0x0b80_0000i64) as u64)],
    );
    // u' = u / 2 when s1 is a power of two (no fraction bits).
    let ud = cx.temp(UD);
    let m = cx.temp(UD);
    cx.op("and", m, UD, &[Opnd::Reg(s1), Opnd::Imm(0x007f_ffff)]);
    let p = cx.pred();
    let sm = cx.src(Opnd::Reg(m), UD);
    cx.line(&format!("cmp.eq {es} {p} {sm} 0x0:ud"));
    let (dud, su) = (cx.dst(ud, UD), cx.src(Opnd::Reg(u), UD));
    cx.line(&format!("({p}) add {es} {dud} {su} 0xff800000:ud"));
    cx.line(&format!("(!{p}) mov {es} {dud} {su}"));
    // w = r - s1*u > 0: round up; v = r + s1*u' <= 0: round down.
    let (w, v) = (cx.temp(F), cx.temp(F));
    neg_mad(cx, w, Opnd::Reg(s1), Opnd::Reg(u), Opnd::Reg(r));
    cx.op("mad", v, F, &[Opnd::Reg(s1), Opnd::Reg(ud), Opnd::Reg(r)]);
    for (cond, step) in [("gt", 1u64), ("le", 0xffff_ffff)] {
        let t = if step == 1 { w } else { v };
        let p = cx.pred();
        let st = cx.src(Opnd::Reg(t), F);
        cx.line(&format!("cmp.{cond} {es} {p} {st} 0x0:f"));
        let (ds, ss) = (cx.dst(s1, UD), cx.src(Opnd::Reg(s1), UD));
        cx.line(&format!("({p}) add {es} {ds} {ss} {}", UD.imm(step)));
    }
    cx.op("mul", d, F, &[Opnd::Reg(s1), Opnd::Reg(back)]);
    // Zeros and +inf give themselves, other negatives (and -inf) the default NaN.
    let sx = cx.src(x, F);
    for (cond, bits) in [("eq", 0u64), ("eq", 0x7f80_0000)] {
        let p = cx.pred();
        let sax = cx.src(Opnd::Reg(ax), UD);
        let sxu = cx.src(x, UD);
        let lhs = if bits == 0 { sax } else { sxu };
        cx.line(&format!("cmp.{cond} {es} {p} {lhs} {}", UD.imm(bits)));
        let (dd, sd) = (cx.dst(d, F), cx.src(Opnd::Reg(d), F));
        cx.line(&format!("({p}) sel {es} {dd} {sx} {sd}"));
    }
    let p = cx.pred();
    let sxu = cx.src(x, UD);
    cx.line(&format!("cmp.gt {es} {p} {sxu} 0x80000000:ud"));
    let (dd, sd) = (cx.dst(d, UD), cx.src(Opnd::Reg(d), UD));
    cx.line(&format!("({p}) sel {es} {dd} 0xffc00000:ud {sd}"));
    crate::nan::apply(cx, d, F, &[x]);
}

/// `d = c - a*b`, fused (binary32).
fn neg_mad(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, c: Opnd) {
    let es = cx.es();
    let (dd, sa, sb, sc) = (cx.dst(d, F), cx.src(a, F), cx.src(b, F), cx.src(c, F));
    cx.line(&format!("mad {es} {dd} (-){sa} {sb} {sc}"));
}

/// Test operands shared with other modules' tests.
#[cfg(test)]
pub(crate) mod tests_support {
    /// binary32 operands: the special values, the ends of the ranges, both binades of
    /// the scaled range, and a spread of bit patterns.
    pub fn f32_operands(n: usize) -> Vec<u64> {
        let mut v: Vec<u64> = vec![
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_1234,
            0xffc0_0001,
            0xbf80_0000,
            0x8000_0001,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3f80_0000,
            0x4080_0000,
            0x1f80_0000,
            0x1f7f_ffff,
            0x4000_0000,
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        while v.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Half anywhere, half in [1, 4), where the roots' last bits are tight.
            v.push(if v.len().is_multiple_of(2) {
                x & 0x7fff_ffff
            } else {
                0x3f80_0000 + (x & 0x00ff_ffff)
            });
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::f32_operands;
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    fn lanes(v: &[u64]) -> Vec<Vec<Vec<u64>>> {
        v.iter().map(|&x| vec![vec![x]]).collect()
    }

    #[test]
    fn sqrt_by_hand() {
        let f = |x: f32| u64::from(x.to_bits());
        let vals = [f(4.0), f(2.0), f(-0.0), f(-1.0), f(f32::INFINITY), f(1e-45)];
        let got: Vec<u64> = run_op("dg2", AluOp::Fsqrt, (32, 1), &[(32, 1)], &lanes(&vals), 2)
            .unwrap()
            .iter()
            .map(|r| r[0])
            .collect();
        // sqrt(2) = 1.41421353816986083984375 (0x3fb504f3) correctly rounded;
        // sqrt(2^-149) = 2^-74.5 rounds to 0x1a3504f3.
        assert_eq!(
            got,
            [
                f(2.0),
                0x3fb5_04f3,
                f(-0.0),
                0xffc0_0000,
                f(f32::INFINITY),
                0x1a35_04f3
            ]
        );
    }

    /// The correction makes the math unit's `sqrt` correctly rounded, whether it is
    /// exact, faithful, or two or four ulps off.
    #[test]
    fn sqrt32_is_correctly_rounded_around_an_inexact_math_unit() {
        let v = lanes(&f32_operands(3000));
        for ulps in [0, 1, 2, 4] {
            check_exact("dg2", AluOp::Fsqrt, (32, 1), &[(32, 1)], &v, ulps);
        }
        check_exact("pvc", AluOp::Fsqrt, (32, 1), &[(32, 1)], &v, 4);
    }

    #[test]
    fn sqrt_at_16_and_64_bits() {
        let h: Vec<u64> = (0..0x1_0000u64).step_by(7).collect();
        for plat in ["dg2", "pvc"] {
            check_exact(plat, AluOp::Fsqrt, (16, 1), &[(16, 1)], &lanes(&h), 2);
        }
        let d: Vec<u64> = f32_operands(200)
            .iter()
            .map(|&x| f64::from(f32::from_bits(x as u32)).to_bits() ^ (x << 20))
            .collect();
        check_exact("pvc", AluOp::Fsqrt, (64, 1), &[(64, 1)], &lanes(&d), 0);
        assert!(
            run_op("mtl", AluOp::Fsqrt, (64, 1), &[(64, 1)], &lanes(&d), 0)
                .unwrap_err()
                .contains("mtl has no IEEE 64-bit square root")
        );
    }
}
