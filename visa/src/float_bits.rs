//! Float ops computed on the bits: NIR's `fsign`, `ldexp` and `fquantize2f16`, exact
//! on every platform (integer instructions, a conversion and one multiplication by a
//! power of two).
//!
//! - `fsign`: the sign bit of `a` on 1.0; a zero gives itself (keeping its sign) and a
//!   NaN `+0.0` (NIR's folding, which follows OpenCL).
//! - `ldexp(x, e)`: the exponent field plus `e`, as `ldexpf`/`ldexp` compute it
//!   exactly, then NIR's flush: a result that is not a normal number becomes a zero
//!   with the sign of `x`. A subnormal `x` is first normalized by a multiplication by
//!   2^24 (2^54 for binary64), exact. `e` is clamped to ±512 (±4096), beyond which
//!   every result flushes. The one underflowing result that rounds up to a normal
//!   number, `(2 - ulp) * 2^(emin - 1)` (biased exponent 0 with an all-ones fraction,
//!   a tie that rounds to the even `2^emin`), is that normal number. binary16 works in
//!   binary32 (the flush sees the binary32 result) and rounds to binary16 last, so a
//!   result may become a binary16 subnormal or infinity, as in `ir::eval`.
//! - `fquantize2f16`: magnitudes below 2^-14 give a zero of the sign of `a`; others are
//!   converted to binary16 (to nearest even, overflowing to infinity) and back. A NaN
//!   keeps its sign and top ten fraction bits and is quieted, what the conversion
//!   `ir::eval` uses does, written here rather than left to the hardware's conversion.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::float::float_type;
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const F: VType = VType::F;
const UD: VType = VType::Ud;
const D: VType = VType::D;

/// Emits `fsign`, `ldexp` or `fquantize2f16` (every component) on `bits`-bit floats.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    let ty = float_type(cx, bits)?;
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let a = cx.comp(alu.srcs[0], i)?;
        let d = cx.dest(dest, i)?;
        match alu.op {
            AluOp::Fsign => fsign(cx, d, a, ty),
            AluOp::Ldexp => {
                let e = cx.comp(alu.srcs[1], i)?;
                match ty {
                    VType::Df => ldexp64(cx, d, a, e),
                    VType::Hf => {
                        let fa = cx.temp(F);
                        cx.op_typed("mov", (fa, F), &[(a, VType::Hf)]);
                        let r = cx.temp(F);
                        ldexp32(cx, r, Opnd::Reg(fa), e);
                        cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(r), F)]);
                    }
                    _ => ldexp32(cx, d, a, e),
                }
            }
            AluOp::Fquantize2f16 => quantize(cx, d, a),
            other => {
                return Err(cx.unsupported(format!("`{other}` is not a float bit operation")));
            }
        }
    }
    Ok(())
}

/// `(p) sel` of `v` into `d` (as `ty`), where `lhs <cond> rhs` (unsigned).
fn sel_if(cx: &mut Ctx, lhs: Opnd, cond: &str, rhs: u64, d: Reg, v: Opnd, ty: VType) {
    let es = cx.es();
    let p = cx.pred();
    let sl = cx.src(lhs, ty);
    cx.line(&format!("cmp.{cond} {es} {p} {sl} {}", ty.imm(rhs)));
    let (dd, sv, sd) = (cx.dst(d, ty), cx.src(v, ty), cx.src(Opnd::Reg(d), ty));
    cx.line(&format!("({p}) sel {es} {dd} {sv} {sd}"));
}

/// `fsign`.
fn fsign(cx: &mut Ctx, d: Reg, a: Opnd, ty: VType) {
    let (it, abs, inf, one) = match ty {
        VType::Hf => (VType::Uw, 0x7fffu64, 0x7c00u64, 0x3c00u64),
        // binary64 by its high half; the low half of ±1.0, and of the +0.0 for NaN, is 0.
        VType::Df => (UD, 0x7fff_ffff, 0x7ff0_0000, 0x3ff0_0000),
        _ => (UD, 0x7fff_ffff, 0x7f80_0000, 0x3f80_0000),
    };
    let (ahi, dhi) = if ty == VType::Df {
        (a.half(true), d.half(true))
    } else {
        (a, d)
    };
    cx.op("and", dhi, it, &[ahi, Opnd::Imm(abs + 1)]);
    cx.op("or", dhi, it, &[Opnd::Reg(dhi), Opnd::Imm(one)]);
    if ty == VType::Df {
        cx.op("mov", d.half(false), UD, &[Opnd::Imm(0)]);
    }
    let m = cx.temp(it);
    cx.op("and", m, it, &[ahi, Opnd::Imm(abs)]);
    if ty == VType::Df {
        // Zero: both halves of |a| zero; NaN: an all-ones exponent and a fraction.
        let z = cx.temp(UD);
        cx.op("or", z, UD, &[Opnd::Reg(m), a.half(false)]);
        let es = cx.es();
        let p = cx.pred();
        let sz = cx.src(Opnd::Reg(z), UD);
        cx.line(&format!("cmp.eq {es} {p} {sz} 0x0:ud"));
        for hi in [false, true] {
            let (dd, sa, sd) = (
                cx.dst(d.half(hi), UD),
                cx.src(a.half(hi), UD),
                cx.src(Opnd::Reg(d.half(hi)), UD),
            );
            cx.line(&format!("({p}) sel {es} {dd} {sa} {sd}"));
        }
        let p = cx.pred();
        let sa = cx.src(a, VType::Df);
        cx.line(&format!("cmp.ne {es} {p} {sa} {sa}"));
        let dd = cx.dst(dhi, UD);
        cx.line(&format!("({p}) mov {es} {dd} 0x0:ud"));
    } else {
        sel_if(cx, Opnd::Reg(m), "eq", 0, d, a, it);
        sel_if(cx, Opnd::Reg(m), "gt", inf, d, Opnd::Imm(0), it);
    }
}

/// `ldexp` in binary32.
fn ldexp32(cx: &mut Ctx, d: Reg, a: Opnd, e: Opnd) {
    let x = Opnd::Reg(cx.in_reg(a, F));
    let (ax, s) = (cx.temp(UD), cx.temp(UD));
    cx.op("and", ax, UD, &[x, Opnd::Imm(0x7fff_ffff)]);
    cx.op("and", s, UD, &[x, Opnd::Imm(0x8000_0000)]);
    // Normalize a subnormal x (the exponent then counts from 24 lower).
    let xn = cx.temp(F);
    cx.op("mul", xn, F, &[x, Opnd::Imm(0x4b80_0000)]);
    let ec = clamp_exponent(cx, e, 512);
    let es = cx.es();
    let p = cx.pred();
    let sax = cx.src(Opnd::Reg(ax), UD);
    cx.line(&format!("cmp.lt {es} {p} {sax} 0x800000:ud"));
    let (dxn, sxn, sx) = (cx.dst(xn, UD), cx.src(Opnd::Reg(xn), UD), cx.src(x, UD));
    cx.line(&format!("(!{p}) sel {es} {dxn} {sx} {sxn}"));
    let (dec, sec) = (cx.dst(ec, D), cx.src(Opnd::Reg(ec), D));
    cx.line(&format!("({p}) add {es} {dec} {sec} 0xffffffe8:d"));
    exponent_sum(cx, d, Opnd::Reg(xn), Opnd::Reg(ec), s, ax, 32);
}

/// `ldexp` in binary64, on the halves.
fn ldexp64(cx: &mut Ctx, d: Reg, a: Opnd, e: Opnd) {
    let a = Opnd::Reg(cx.in_reg(a, VType::Df));
    let (ax, s) = (cx.temp(UD), cx.temp(UD));
    cx.op("and", ax, UD, &[a.half(true), Opnd::Imm(0x7fff_ffff)]);
    cx.op("and", s, UD, &[a.half(true), Opnd::Imm(0x8000_0000)]);
    let xn = cx.temp(VType::Df);
    let df = VType::Df;
    cx.op("mul", xn, df, &[a, Opnd::Imm(0x4350_0000_0000_0000)]);
    let ec = clamp_exponent(cx, e, 4096);
    let es = cx.es();
    let p = cx.pred();
    let sax = cx.src(Opnd::Reg(ax), UD);
    cx.line(&format!("cmp.lt {es} {p} {sax} 0x100000:ud"));
    for hi in [false, true] {
        let (dxn, sxn, sx) = (
            cx.dst(xn.half(hi), UD),
            cx.src(Opnd::Reg(xn.half(hi)), UD),
            cx.src(a.half(hi), UD),
        );
        cx.line(&format!("(!{p}) sel {es} {dxn} {sx} {sxn}"));
    }
    let (dec, sec) = (cx.dst(ec, D), cx.src(Opnd::Reg(ec), D));
    cx.line(&format!("({p}) add {es} {dec} {sec} 0xffffffca:d"));
    // Zero: the low half of |x| matters too.
    let az = cx.temp(UD);
    cx.op("or", az, UD, &[Opnd::Reg(ax), a.half(false)]);
    exponent_sum(cx, d, Opnd::Reg(xn), Opnd::Reg(ec), s, az, 64);
    // exponent_sum tested `az` for zero; infinities and NaNs are in `ax`.
    sel_if(
        cx,
        Opnd::Reg(ax),
        "ge",
        0x7ff0_0000,
        d.half(true),
        Opnd::Reg(s),
        UD,
    );
    let es = cx.es();
    let p = cx.pred();
    let sax = cx.src(Opnd::Reg(ax), UD);
    cx.line(&format!("cmp.ge {es} {p} {sax} 0x7ff00000:ud"));
    let dl = cx.dst(d.half(false), UD);
    cx.line(&format!("({p}) mov {es} {dl} 0x0:ud"));
}

/// The exponent change `e` (a signed 32-bit integer) clamped to `[-lim, lim]`, in a
/// fresh register.
fn clamp_exponent(cx: &mut Ctx, e: Opnd, lim: i64) -> Reg {
    let ec = cx.temp(D);
    match e {
        Opnd::Imm(v) => {
            let c = i64::from(v as u32 as i32).clamp(-lim, lim);
            cx.op("mov", ec, D, &[Opnd::Imm(c as u64)]);
        }
        r => {
            cx.op("max", ec, D, &[r, Opnd::Imm((-lim) as u64)]);
            cx.op("min", ec, D, &[Opnd::Reg(ec), Opnd::Imm(lim as u64)]);
        }
    }
    ec
}

/// The shared tail of `ldexp`: `xn` is `x` normalized, `ec` the exponent change, `s`
/// the sign bit (in the high word for binary64) and `zero_test` zero exactly when `x`
/// is zero; binary32 also tests `zero_test` (|x|) for infinities and NaNs.
fn exponent_sum(cx: &mut Ctx, d: Reg, xn: Opnd, ec: Opnd, s: Reg, zero_test: Reg, bits: u8) {
    let (shift, emask, max_e, top, frac_hi) = if bits == 64 {
        (20u64, 0x7ffu64, 2046u64, 0x0010_0000u64, 0x000f_ffffu64)
    } else {
        (23, 0xff, 254, 0x0080_0000, 0x007f_ffff)
    };
    let (d_hi, xn_hi) = if bits == 64 {
        (d.half(true), xn.half(true))
    } else {
        (d, xn)
    };
    // E2 = E + ec; result = s | E2 << shift | fraction.
    let e2 = cx.temp(D);
    cx.op("shr", e2, UD, &[xn_hi, Opnd::Imm(shift)]);
    cx.op("and", e2, UD, &[Opnd::Reg(e2), Opnd::Imm(emask)]);
    cx.op("add", e2, D, &[Opnd::Reg(e2), ec]);
    let m = cx.temp(UD);
    cx.op("and", m, UD, &[xn_hi, Opnd::Imm(frac_hi)]);
    let t = cx.temp(UD);
    cx.op("shl", t, UD, &[Opnd::Reg(e2), Opnd::Imm(shift)]);
    cx.op("or", t, UD, &[Opnd::Reg(t), Opnd::Reg(m)]);
    cx.op("or", t, UD, &[Opnd::Reg(t), Opnd::Reg(s)]);
    // In range (1 <= E2 <= max, unsigned E2 - 1 < max): the sum; else the signed zero.
    let es = cx.es();
    let (p1, p2, p3) = (cx.pred(), cx.pred(), cx.pred());
    let e1 = cx.temp(UD);
    cx.op("add", e1, UD, &[Opnd::Reg(e2), Opnd::Imm(0xffff_ffff)]);
    let se1 = cx.src(Opnd::Reg(e1), UD);
    cx.line(&format!("cmp.lt {es} {p1} {se1} {}", UD.imm(max_e)));
    let (dh, st, ss) = (
        cx.dst(d_hi, UD),
        cx.src(Opnd::Reg(t), UD),
        cx.src(Opnd::Reg(s), UD),
    );
    cx.line(&format!("({p1}) sel {es} {dh} {st} {ss}"));
    if bits == 64 {
        let (dl, sl) = (cx.dst(d.half(false), UD), cx.src(xn.half(false), UD));
        cx.line(&format!("({p1}) sel {es} {dl} {sl} 0x0:ud"));
    }
    // E2 == 0 with an all-ones fraction rounds up to the smallest normal.
    let se2 = cx.src(Opnd::Reg(e2), D);
    cx.line(&format!("cmp.eq {es} {p2} {se2} 0x0:d"));
    let sm = cx.src(Opnd::Reg(m), UD);
    cx.line(&format!("cmp.eq {es} {p3} {sm} {}", UD.imm(frac_hi)));
    cx.line(&format!("and {es} {p2} {p2} {p3}"));
    if bits == 64 {
        let p4 = cx.pred();
        let sl = cx.src(xn.half(false), UD);
        cx.line(&format!("cmp.eq {es} {p4} {sl} 0xffffffff:ud"));
        cx.line(&format!("and {es} {p2} {p2} {p4}"));
    }
    let tn = cx.temp(UD);
    cx.op("or", tn, UD, &[Opnd::Reg(s), Opnd::Imm(top)]);
    let (dh, stn, sd) = (
        cx.dst(d_hi, UD),
        cx.src(Opnd::Reg(tn), UD),
        cx.src(Opnd::Reg(d_hi), UD),
    );
    cx.line(&format!("({p2}) sel {es} {dh} {stn} {sd}"));
    if bits == 64 {
        let dl = cx.dst(d.half(false), UD);
        cx.line(&format!("({p2}) mov {es} {dl} 0x0:ud"));
    }
    // A zero x gives its signed zero (and so do infinities and NaNs at 32 bits).
    let (p, q) = (cx.pred(), cx.pred());
    let sz = cx.src(Opnd::Reg(zero_test), UD);
    cx.line(&format!("cmp.eq {es} {p} {sz} 0x0:ud"));
    if bits == 32 {
        cx.line(&format!("cmp.ge {es} {q} {sz} 0x7f800000:ud"));
        cx.line(&format!("or {es} {p} {p} {q}"));
    }
    let (dh, ss, sd) = (
        cx.dst(d_hi, UD),
        cx.src(Opnd::Reg(s), UD),
        cx.src(Opnd::Reg(d_hi), UD),
    );
    cx.line(&format!("({p}) sel {es} {dh} {ss} {sd}"));
    if bits == 64 {
        let dl = cx.dst(d.half(false), UD);
        cx.line(&format!("({p}) mov {es} {dl} 0x0:ud"));
    }
}

/// `fquantize2f16`.
fn quantize(cx: &mut Ctx, d: Reg, a: Opnd) {
    let h = cx.temp(VType::Hf);
    cx.op_typed("mov", (h, VType::Hf), &[(a, F)]);
    cx.op_typed("mov", (d, F), &[(Opnd::Reg(h), VType::Hf)]);
    let ax = cx.temp(UD);
    cx.op("and", ax, UD, &[a, Opnd::Imm(0x7fff_ffff)]);
    let z = cx.temp(UD);
    cx.op("and", z, UD, &[a, Opnd::Imm(0x8000_0000)]);
    sel_if(cx, Opnd::Reg(ax), "lt", 0x3880_0000, d, Opnd::Reg(z), UD);
    let nan = cx.temp(UD);
    cx.op("and", nan, UD, &[a, Opnd::Imm(0xffff_e000)]);
    cx.op("or", nan, UD, &[Opnd::Reg(nan), Opnd::Imm(0x0040_0000)]);
    sel_if(cx, Opnd::Reg(ax), "gt", 0x7f80_0000, d, Opnd::Reg(nan), UD);
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    fn ldexp32(x: u64, e: i32) -> u64 {
        run_op(
            "dg2",
            AluOp::Ldexp,
            (32, 1),
            &[(32, 1), (32, 1)],
            &[vec![vec![x], vec![u64::from(e as u32)]]],
            0,
        )
        .unwrap()[0][0]
    }

    #[test]
    fn ldexp_by_hand() {
        assert_eq!(ldexp32(f(1.5), 3), f(12.0));
        assert_eq!(ldexp32(f(-1.0), -126), f(-(2f32.powi(-126))));
        // 2^-127 is subnormal: a zero of x's sign.
        assert_eq!(ldexp32(f(-1.0), -127), f(-0.0));
        assert_eq!(ldexp32(f(1.0), 128), 0);
        assert_eq!(ldexp32(f(f32::INFINITY), 0), 0);
        assert_eq!(ldexp32(0xffc0_0000, 0), 0x8000_0000);
        // (2 - 2^-23) * 2^-127 rounds (a tie, to even) to 2^-126: normal, kept.
        assert_eq!(ldexp32(0x3fff_ffff, -127), 0x0080_0000);
        assert_eq!(ldexp32(0x3fff_fffe, -127), 0);
        // A subnormal x: 2^-149 * 2^149 = 1.
        assert_eq!(ldexp32(1, 149), f(1.0));
        assert_eq!(ldexp32(f(1.0), i32::MIN), 0);
        assert_eq!(ldexp32(f(-1.0), i32::MAX), 0x8000_0000);
    }

    #[test]
    fn ldexp_matches_ir_eval_at_every_size() {
        let exps: Vec<u64> = [
            0i32,
            1,
            -1,
            3,
            -20,
            20,
            100,
            -100,
            127,
            -126,
            -127,
            -149,
            149,
            200,
            1023,
            -1022,
            -1074,
            1075,
            i32::MIN,
            i32::MAX,
            -25,
            16,
            -15,
        ]
        .iter()
        .map(|&e| u64::from(e as u32))
        .collect();
        let xs: [(u8, Vec<u64>); 3] = [
            (
                16,
                vec![
                    0x3c00, 0xbc00, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0x7e00, 0x8000, 0x3fff,
                ],
            ),
            (
                32,
                vec![
                    f(1.0),
                    f(-3.5),
                    1,
                    0x007f_ffff,
                    0x3fff_ffff,
                    f(f32::MAX),
                    0x7f80_0000,
                    0x7fc0_0001,
                    0x8000_0000,
                    0xbfff_ffff,
                ],
            ),
            (
                64,
                vec![
                    1f64.to_bits(),
                    (-3.5f64).to_bits(),
                    1,
                    0x000f_ffff_ffff_ffff,
                    0x3fff_ffff_ffff_ffff,
                    f64::MAX.to_bits(),
                    f64::INFINITY.to_bits(),
                    0x7ff8_0000_0000_0001,
                    1 << 63,
                ],
            ),
        ];
        for (bits, x) in &xs {
            let mut lanes = Vec::new();
            for &a in x {
                for &e in &exps {
                    lanes.push(vec![vec![a], vec![e]]);
                }
            }
            let plats: &[&str] = if *bits == 64 {
                &["mtl", "pvc"]
            } else {
                &["dg2", "pvc"]
            };
            for plat in plats {
                check_exact(
                    plat,
                    AluOp::Ldexp,
                    (*bits, 1),
                    &[(*bits, 1), (32, 1)],
                    &lanes,
                    0,
                );
            }
        }
    }

    #[test]
    fn fsign_and_quantize_match_ir_eval() {
        let v16: Vec<u64> = vec![
            0, 0x8000, 0x3c00, 0xc500, 0x0001, 0x7c00, 0xfc00, 0x7e01, 0xfd00,
        ];
        let v32: Vec<u64> = vec![
            0,
            0x8000_0000,
            f(-3.5),
            f(0.25),
            1,
            0x7f80_0000,
            0x7fc0_0001,
            0xffa0_0000,
            f(1.0 + 2f32.powi(-11)),
            f(2f32.powi(-15)),
            f(-(2f32.powi(-15))),
            f(2f32.powi(-14)),
            f(70000.0),
            f(65519.0),
            f(65520.0),
            0x387f_ffff,
            0xffff_ffff,
        ];
        let v64: Vec<u64> = vec![
            0,
            1 << 63,
            (-2.5f64).to_bits(),
            1,
            0x7ff0_0000_0000_0000,
            0x7ff0_0000_0000_0001,
            0xfff8_0000_0000_0000,
        ];
        let one = |v: &[u64]| -> Vec<Vec<Vec<u64>>> { v.iter().map(|&x| vec![vec![x]]).collect() };
        check_exact("dg2", AluOp::Fsign, (16, 1), &[(16, 1)], &one(&v16), 0);
        check_exact("dg2", AluOp::Fsign, (32, 1), &[(32, 1)], &one(&v32), 0);
        check_exact("mtl", AluOp::Fsign, (64, 1), &[(64, 1)], &one(&v64), 0);
        check_exact("pvc", AluOp::Fsign, (64, 1), &[(64, 1)], &one(&v64), 0);
        for plat in ["dg2", "pvc"] {
            check_exact(
                plat,
                AluOp::Fquantize2f16,
                (32, 1),
                &[(32, 1)],
                &one(&v32),
                0,
            );
        }
        // By hand: 1 + 2^-11 ties to 1.0; 2^-15 flushes to +0, -2^-15 to -0; 70000
        // overflows to infinity; a NaN keeps its top ten fraction bits, quieted.
        let got: Vec<u64> = run_op(
            "dg2",
            AluOp::Fquantize2f16,
            (32, 1),
            &[(32, 1)],
            &one(&[v32[8], v32[9], v32[10], v32[12], 0x7f80_2001]),
            0,
        )
        .unwrap()
        .iter()
        .map(|r| r[0])
        .collect();
        assert_eq!(got, [f(1.0), 0, 0x8000_0000, 0x7f80_0000, 0x7fc0_2000]);
        let got: Vec<u64> = run_op("dg2", AluOp::Fsign, (32, 1), &[(32, 1)], &one(&v32[..5]), 0)
            .unwrap()
            .iter()
            .map(|r| r[0])
            .collect();
        assert_eq!(got, [0, 0x8000_0000, f(-1.0), f(1.0), f(1.0)]);
    }
}
