//! Roots and transcendentals: NIR's `fsqrt`, `frsq`, `fexp2`, `flog2`, `fsin`, `fcos`
//! and `fpow`.
//!
//! # What is exact
//!
//! An `fsqrt` or `frsq` without `exact` (16 or 32 bits) is one math-unit instruction,
//! `sqrt` or `rsqrt`, as Mesa emits it: Vulkan allows it, and `ir::eval` evaluates an
//! inexact `frsq` as the single rounding the vISA interpreter models `rsqrt` with. With
//! `exact`, `ir::eval` defines `fsqrt` as the correctly rounded root and `frsq` as `1.0 /
//! sqrt(x)`, two correctly rounded steps; both are exact here, on every platform that
//! has the operand size:
//!
//! - `fsqrt`: [`crate::sqrt`] (PVC's IEEE `sqrtm`; on DG2 and MTL the math unit's
//!   `sqrt` made correctly rounded by a Newton step and Tuckerman's test);
//! - `frsq`: that root, then the correctly rounded division of [`crate::float`]
//!   (`divm` on PVC). vISA's `rsqrt` is not used: it is the math unit's
//!   approximation, and rounds once where NIR rounds twice.
//!
//! binary16 operands compute in binary32 and round once at the end, as `ir::eval` does.
//! binary64 `fsqrt` and `frsq` need `sqrtm` and `divm`: PVC has them; MTL has neither
//! (GenX_IR: "IEEE instruction sqrt is not supported on MTL platform"), so they are
//! errors there. DG2 has no binary64 at all.
//!
//! # What is approximate
//!
//! `fexp2`, `flog2`, `fsin`, `fcos` and `fpow` are vISA's `exp` (base 2), `log` (base
//! 2), `sin`, `cos` and `pow` (IGC `documentation/visa/instructions/EXP.md`, `LOG.md`,
//! `SIN.md`, `COS.md`, `POW.md`), the EU math unit's functions, which are not correctly
//! rounded and whose exact results Intel does not document. `ir::eval` rounds the
//! binary64 `libm` value once, which is within about half an ulp of the true value;
//! a kernel's results differ from it in the last bits. What the hardware guarantees is
//! at least what Vulkan requires of these instructions (Vulkan specification, appendix
//! "Precision and Operation of SPIR-V Instructions"; Mesa's Intel compiler emits NIR's
//! `fsin`, `fcos`, `fexp2`, `flog2` and `fpow` as these single instructions): `exp2`
//! within `3 + 2 * |x|` ulp, `log2` within 3 ulp outside `[0.5, 2]` and an absolute
//! error of 2^-21 inside it, `sin` and `cos` an absolute error of 2^-11 inside
//! `[-pi, pi]` (none promised outside), `pow` as `exp2(y * log2(x))`. binary16 operands
//! go through the binary32 function and round once more (more accurate than the math
//! unit's binary16 forms). There is no binary64 form of any of them in vISA: 64-bit
//! operands are errors on every platform.
//!
//! The special values are not left to the math unit where `ir::eval` pins them: NaN
//! operands and generated NaNs follow [`crate::nan`] (except for an inexact 32-bit
//! instruction, whose NaN results Vulkan leaves open: the math unit's own NaN is kept),
//! and an `exact` or 16-bit `fpow` gets C's `pow` special cases explicitly, as
//! `ir::eval` follows them: `pow(x, ±0) = 1` and `pow(1, y) = 1` (NaNs included),
//! zeros, infinities and infinite exponents by their rules, a negative base with an odd
//! integer exponent negates `pow(|x|, y)`, and a negative finite base with a finite
//! non-integer exponent is the default NaN. The math unit computes `pow(|x|, y)` only
//! for finite, non-zero `|x|` and finite `y`. An inexact 32-bit `fpow` is that `pow` on
//! `|x|` alone: Vulkan leaves `pow` undefined for `x < 0` and for `x = 0`, `y <= 0`, and
//! its result open for infinite and NaN operands, and `ir::eval` evaluates an inexact
//! `fpow` as C's `pow` of `|x|`.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::float::{divide, float_type};
use crate::sqrt::{sqrt, sqrt32};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const F: VType = VType::F;
const UD: VType = VType::Ud;
const ONE_F: u64 = 0x3f80_0000;

/// The vISA math instruction of a transcendental op, and its spec page.
fn mnemonic(op: AluOp) -> (&'static str, &'static str) {
    match op {
        AluOp::Fexp2 => ("exp", "EXP"),
        AluOp::Flog2 => ("log", "LOG"),
        AluOp::Fsin => ("sin", "SIN"),
        AluOp::Fcos => ("cos", "COS"),
        _ => ("pow", "POW"),
    }
}

/// Emits one root or transcendental op (every component) on `bits`-bit floats.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    let op = alu.op;
    let ty = float_type(cx, bits)?;
    if ty == VType::Df {
        match op {
            AluOp::Fsqrt => {}
            AluOp::Frsq if cx.t.sqrtm && cx.t.divm => {}
            AluOp::Frsq => {
                return Err(cx.unsupported(format!(
                    "{} has no IEEE 64-bit square root and division (vISA sqrtm, divm), which NIR's 64-bit `frsq` (1.0 / sqrt(x), each step correctly rounded) needs",
                    cx.t.platform
                )))
            }
            _ => {
                let (m, page) = mnemonic(op);
                return Err(cx.unsupported(format!(
                    "64-bit `{op}` has no vISA form on {}: the math instruction `{m}` takes hf and f operands only (IGC documentation/visa/instructions/{page}.md)",
                    cx.t.platform
                )));
            }
        }
    }
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let a = cx.comp(alu.srcs[0], i)?;
        let d = cx.dest(dest, i)?;
        match op {
            AluOp::Fsqrt | AluOp::Frsq if !alu.exact && ty != VType::Df => {
                math_unit(cx, op, d, a, ty)
            }
            AluOp::Fsqrt => sqrt(cx, d, a, ty)?,
            AluOp::Frsq => rsq(cx, d, a, ty)?,
            AluOp::Fpow if !alu.exact && ty == VType::Hf => {
                // Through binary32, as `ir::eval` models it (`fpow_inexact16`): the
                // operands widened exactly, the math unit's `pow` of `|x|`, the result
                // rounded; its NaNs are open as the 32-bit op's are.
                let b = cx.comp(alu.srcs[1], i)?;
                let (x, r) = work(cx, d, a, ty);
                let y = widen16(cx, b);
                let (es, dr) = (cx.es(), cx.dst(r, F));
                let (sx, sy) = (cx.src(x, F), cx.src(y, F));
                cx.line(&format!("pow {es} {dr} (abs){sx} {sy}"));
                finish(cx, d, r, ty);
            }
            AluOp::Fpow if !alu.exact && ty == F => {
                // The math unit's `pow` on |x|: Vulkan leaves `pow` undefined for
                // x < 0 and for x = 0, y <= 0, and open for infinite and NaN operands,
                // so an inexact `fpow` needs none of C's special cases (Mesa emits one
                // math instruction); `ir::eval` evaluates it so.
                // |x| as the source modifier `(abs)`, which clears the sign bit as
                // an `and` would, NaNs included.
                let b = cx.comp(alu.srcs[1], i)?;
                let x = Opnd::Reg(cx.in_reg(a, F));
                let y = Opnd::Reg(cx.in_reg(b, F));
                let (es, dd) = (cx.es(), cx.dst(d, F));
                let (sx, sy) = (cx.src(x, F), cx.src(y, F));
                cx.line(&format!("pow {es} {dd} (abs){sx} {sy}"));
            }
            AluOp::Fpow => {
                let b = cx.comp(alu.srcs[1], i)?;
                pow(cx, d, a, b, ty);
            }
            _ => {
                let (m, _) = mnemonic(op);
                let (x, r) = work(cx, d, a, ty);
                cx.op(m, r, F, &[x]);
                finish(cx, d, r, ty);
                // As for the inexact roots ([`math_unit`]): only an exact instruction,
                // or one through binary16, needs its NaN put in place.
                if alu.exact || ty == VType::Hf {
                    crate::nan::apply(cx, d, ty, &[a]);
                }
            }
        }
    }
    Ok(())
}

/// The binary32 operand and result register of a 16- or 32-bit operation: the operand
/// itself and `d` at 32 bits, a widened copy and a temporary at 16.
fn work(cx: &mut Ctx, d: Reg, a: Opnd, ty: VType) -> (Opnd, Reg) {
    if ty == VType::Hf {
        (widen16(cx, a), cx.temp(F))
    } else {
        (a, d)
    }
}

/// A binary16 operand as a binary32 register (exact).
fn widen16(cx: &mut Ctx, a: Opnd) -> Opnd {
    let t = cx.temp(F);
    cx.op_typed("mov", (t, F), &[(a, VType::Hf)]);
    Opnd::Reg(t)
}

/// Rounds the binary32 result `r` into the binary16 `d` (nothing at 32 bits).
fn finish(cx: &mut Ctx, d: Reg, r: Reg, ty: VType) {
    if ty == VType::Hf {
        cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(r), F)]);
    }
}

/// `fsqrt` or `frsq` without `exact`: the math unit's `sqrt` or `rsqrt`, what Vulkan
/// allows (`Sqrt` inherits `1.0 / inversesqrt()`'s precision, `InverseSqrt` has 2 ULP)
/// and Mesa's Intel back end emits (`brw_fs_nir.cpp`: `nir_op_fsqrt` and `nir_op_frsq`
/// are one `SHADER_OPCODE_SQRT` or `RSQ`). A 32-bit result takes no NaN rewrite: an
/// inexact instruction's NaN results are open (`ir/PRECISION.md`), and the math unit's
/// NaN operand rule is [`crate::nan`]'s for a single instruction; a 16-bit one goes
/// through binary32 and keeps the rewrite, as the other math-unit ops do.
fn math_unit(cx: &mut Ctx, op: AluOp, d: Reg, a: Opnd, ty: VType) {
    let m = if op == AluOp::Fsqrt { "sqrt" } else { "rsqrt" };
    if ty == VType::Hf {
        let (x, r) = work(cx, d, a, ty);
        cx.op(m, r, F, &[x]);
        finish(cx, d, r, ty);
        crate::nan::apply(cx, d, ty, &[a]);
    } else {
        cx.op(m, d, F, &[a]);
    }
}

/// `frsq`: `1.0 / sqrt(a)`, each step correctly rounded.
fn rsq(cx: &mut Ctx, d: Reg, a: Opnd, ty: VType) -> Result<(), EmitError> {
    if ty == VType::Df {
        let t = cx.temp(ty);
        sqrt(cx, t, a, ty)?;
        divide(cx, d, Opnd::Imm(0x3ff0_0000_0000_0000), Opnd::Reg(t), ty)?;
    } else {
        let (x, r) = work(cx, d, a, ty);
        let t = cx.temp(F);
        sqrt32(cx, t, x);
        divide(cx, r, Opnd::Imm(ONE_F), Opnd::Reg(t), F)?;
        finish(cx, d, r, ty);
    }
    crate::nan::apply(cx, d, ty, &[a]);
    Ok(())
}

/// `fpow` on 16- or 32-bit floats: C's `pow` special cases, the math unit's `pow`
/// elsewhere (the module documentation).
fn pow(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, ty: VType) {
    let (x, y) = if ty == VType::Hf {
        (widen16(cx, a), widen16(cx, b))
    } else {
        (Opnd::Reg(cx.in_reg(a, F)), Opnd::Reg(cx.in_reg(b, F)))
    };
    let r = if ty == VType::Hf { cx.temp(F) } else { d };
    pow32(cx, r, x, y);
    finish(cx, d, r, ty);
    crate::nan::apply(cx, d, ty, &[a, b]);
    // pow(x, ±0) = 1 and pow(1, y) = 1, NaNs included.
    let es = cx.es();
    let one = match ty {
        VType::Hf => 0x3c00,
        _ => ONE_F,
    };
    let it = VType::uint((ty.bytes() * 8) as u8);
    for (o, v) in [(y, 0u64), (x, ONE_F)] {
        let p = cx.pred();
        let so = cx.src(o, F);
        cx.line(&format!("cmp.eq {es} {p} {so} {}", F.imm(v)));
        let (dd, sd) = (cx.dst(d, it), cx.src(Opnd::Reg(d), it));
        cx.line(&format!("({p}) sel {es} {dd} {} {sd}", it.imm(one)));
    }
}

/// `r = pow(x, y)` in binary32 for the cases where neither operand is NaN and `y` is
/// not zero and `x` not one (the caller's rules decide those).
fn pow32(cx: &mut Ctx, r: Reg, x: Opnd, y: Opnd) {
    let es = cx.es();
    let (ax, ay) = (cx.temp(UD), cx.temp(UD));
    cx.op("and", ax, UD, &[x, Opnd::Imm(0x7fff_ffff)]);
    cx.op("and", ay, UD, &[y, Opnd::Imm(0x7fff_ffff)]);
    cx.op("pow", r, F, &[Opnd::Reg(ax), y]);
    // m0 = y < 0 ? +inf : +0 (the result for |x| = 0), m1 the other (|x| = inf).
    let (m0, m1) = (cx.temp(UD), cx.temp(UD));
    let p = cx.pred();
    let sy = cx.src(y, F);
    cx.line(&format!("cmp.lt {es} {p} {sy} 0x0:f"));
    let (d0, d1) = (cx.dst(m0, UD), cx.dst(m1, UD));
    cx.line(&format!("({p}) sel {es} {d0} 0x7f800000:ud 0x0:ud"));
    cx.line(&format!("({p}) sel {es} {d1} 0x0:ud 0x7f800000:ud"));
    let sel_if = |cx: &mut Ctx, cond: &str, lhs: Reg, rhs: u64, dst: Reg, v: Opnd| {
        let p = cx.pred();
        let sl = cx.src(Opnd::Reg(lhs), UD);
        cx.line(&format!("cmp.{cond} {es} {p} {sl} {}", UD.imm(rhs)));
        let (dd, sv, sd) = (cx.dst(dst, UD), cx.src(v, UD), cx.src(Opnd::Reg(dst), UD));
        cx.line(&format!("({p}) sel {es} {dd} {sv} {sd}"));
    };
    sel_if(cx, "eq", ax, 0, r, Opnd::Reg(m0));
    sel_if(cx, "eq", ax, 0x7f80_0000, r, Opnd::Reg(m1));
    // y = ±inf: |x| < 1 gives m0, |x| > 1 gives m1, |x| = 1 gives 1.
    let m2 = cx.temp(UD);
    cx.op("mov", m2, UD, &[Opnd::Reg(m1)]);
    sel_if(cx, "lt", ax, ONE_F, m2, Opnd::Reg(m0));
    sel_if(cx, "eq", ax, ONE_F, m2, Opnd::Imm(ONE_F));
    sel_if(cx, "eq", ay, 0x7f80_0000, r, Opnd::Reg(m2));
    // A negative base (its sign bit set) with an odd integer exponent negates.
    // mint: y is an integer (rndz(y) == y; true for infinities, false for NaN).
    let t = cx.temp(F);
    cx.op("rndz", t, F, &[y]);
    let mint = cx.temp(UD);
    let p = cx.pred();
    let (st, sy) = (cx.src(Opnd::Reg(t), F), cx.src(y, F));
    cx.line(&format!("cmp.eq {es} {p} {st} {sy}"));
    let dm = cx.dst(mint, UD);
    cx.line(&format!("({p}) sel {es} {dm} 0xffffffff:ud 0x0:ud"));
    // odd: bit 0 of the integer, moved to bit 31; none when |y| >= 2^24 (every such
    // binary32 is even, and the conversion saturates).
    let odd = cx.temp(UD);
    cx.op_typed("mov", (odd, VType::D), &[(y, F)]);
    cx.op("shl", odd, UD, &[Opnd::Reg(odd), Opnd::Imm(31)]);
    cx.op("and", odd, UD, &[Opnd::Reg(odd), Opnd::Reg(mint)]);
    sel_if(cx, "ge", ay, 0x4b80_0000, odd, Opnd::Imm(0));
    let sign = cx.temp(UD);
    cx.op("and", sign, UD, &[x, Opnd::Reg(odd)]);
    cx.op("and", sign, UD, &[Opnd::Reg(sign), Opnd::Imm(0x8000_0000)]);
    cx.op("xor", r, UD, &[Opnd::Reg(r), Opnd::Reg(sign)]);
    // A negative finite non-zero base with a finite non-integer exponent: NaN.
    let ps: Vec<String> = (0..4).map(|_| cx.pred()).collect();
    let sx = cx.src(x, UD);
    cx.line(&format!("cmp.gt {es} {} {sx} 0x80000000:ud", ps[0]));
    cx.line(&format!("cmp.lt {es} {} {sx} 0xff800000:ud", ps[1]));
    let sm = cx.src(Opnd::Reg(mint), UD);
    cx.line(&format!("cmp.eq {es} {} {sm} 0x0:ud", ps[2]));
    let say = cx.src(Opnd::Reg(ay), UD);
    cx.line(&format!("cmp.lt {es} {} {say} 0x7f800000:ud", ps[3]));
    for q in &ps[1..] {
        cx.line(&format!("and {es} {p0} {p0} {q}", p0 = ps[0]));
    }
    let (dr, sr) = (cx.dst(r, UD), cx.src(Opnd::Reg(r), UD));
    cx.line(&format!("({}) sel {es} {dr} 0xffc00000:ud {sr}", ps[0]));
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, eval, run_op};
    use ir::AluOp;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    fn lanes1(v: &[u64]) -> Vec<Vec<Vec<u64>>> {
        v.iter().map(|&x| vec![vec![x]]).collect()
    }

    #[test]
    fn rsq_is_two_correctly_rounded_steps() {
        let v = lanes1(&crate::sqrt::tests_support::f32_operands(1500));
        for ulps in [0, 1] {
            check_exact("dg2", AluOp::Frsq, (32, 1), &[(32, 1)], &v, ulps);
        }
        check_exact("pvc", AluOp::Frsq, (32, 1), &[(32, 1)], &v, 2);
        let h: Vec<u64> = (0..0x1_0000u64).step_by(11).collect();
        check_exact("mtl", AluOp::Frsq, (16, 1), &[(16, 1)], &lanes1(&h), 2);
        let d: Vec<u64> = [4.0f64, 2.0, 0.0, -0.0, -1.0, 1e-310, f64::INFINITY, 3.0e300]
            .iter()
            .map(|x| x.to_bits())
            .collect();
        check_exact("pvc", AluOp::Frsq, (64, 1), &[(64, 1)], &lanes1(&d), 0);
        // By hand: 1/sqrt(4) = 0.5, 1/sqrt(-0) = -inf, 1/sqrt(2) rounds twice: sqrt(2)
        // rounds to 0x3fb504f3 and 1/that to 0x3f3504f3 (the once-rounded 1/sqrt(2) is
        // the same here).
        let got = run_op(
            "dg2",
            AluOp::Frsq,
            (32, 1),
            &[(32, 1)],
            &lanes1(&[f(4.0), f(-0.0), f(2.0), f(-4.0)]),
            2,
        )
        .unwrap();
        let got: Vec<u64> = got.iter().map(|r| r[0]).collect();
        assert_eq!(
            got,
            [f(0.5), f(f32::NEG_INFINITY), 0x3f35_04f3, 0xffc0_0000]
        );
    }

    /// Without `exact`, `fsqrt` and `frsq` are one math-unit instruction, whose result
    /// (as the interpreter models the math unit) is `ir::eval`'s for them.
    #[test]
    fn inexact_roots_are_one_math_instruction() {
        use crate::alu_check::{check_flagged, op_kernel_flagged, run_op_flagged};
        let v = lanes1(&crate::sqrt::tests_support::f32_operands(600));
        for (op, m) in [(AluOp::Fsqrt, "sqrt"), (AluOp::Frsq, "rsqrt")] {
            for plat in ["tgl", "dg2", "pvc"] {
                check_flagged(plat, op, false, (32, 1), &[(32, 1)], &v, 0);
                let text = op_kernel_flagged(op, false, (32, 1), &[(32, 1)], 16, 16);
                let shader = ir::parse_shader(&text).unwrap();
                let device = lowering::Device::preset(plat).unwrap();
                let k = crate::emit_kernel(&shader, &device, &Default::default()).unwrap();
                let math: Vec<&str> = k
                    .text
                    .lines()
                    .filter(|l| {
                        let w = l.split_whitespace().next().unwrap_or("");
                        ["sqrt", "sqrtm", "rsqrt", "inv", "div", "divm", "cmp"].contains(&w)
                            || w.starts_with("cmp.")
                    })
                    .collect();
                assert_eq!(math.len(), 1, "{plat} {op}:\n{}", k.text);
                assert!(
                    math[0].trim_start().starts_with(&format!("{m} ")),
                    "{}",
                    math[0]
                );
            }
        }
        // By hand: 1/sqrt(1 + 2^-23) is 1 - 2^-24 + 3 * 2^-49 + ..., which rounds once to
        // 1 - 2^-24 (0x3f7fffff); rounded twice, as `1.0f / sqrtf(x)` with `exact`, the
        // root 1 + 2^-24 - ... rounds to 1.0 and so does its reciprocal.
        let one_up = lanes1(&[0x3f80_0001]);
        let inexact = run_op_flagged("dg2", AluOp::Frsq, false, (32, 1), &[(32, 1)], &one_up, 0);
        assert_eq!(inexact.unwrap()[0][0], 0x3f7f_ffff);
        let exact = run_op("dg2", AluOp::Frsq, (32, 1), &[(32, 1)], &one_up, 0);
        assert_eq!(exact.unwrap()[0][0], 0x3f80_0000);
    }

    /// Without `exact`, a 32-bit `fpow` is the math unit's `pow` on `|x|`, with no
    /// special cases, and `ir::eval` computes the same.
    #[test]
    fn inexact_pow_is_the_math_unit_on_the_magnitude() {
        use crate::alu_check::{check_flagged, run_op_flagged};
        let xs = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            2.0,
            -2.0,
            0.5,
            10.0,
            -3.5,
            f32::INFINITY,
            f32::NAN,
        ];
        let ys = [
            0.0f32,
            -0.0,
            1.0,
            3.0,
            -2.0,
            0.5,
            2.5,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let lanes: Vec<Vec<Vec<u64>>> = xs
            .iter()
            .flat_map(|&x| ys.iter().map(move |&y| vec![vec![f(x)], vec![f(y)]]))
            .collect();
        for plat in ["tgl", "dg2"] {
            let shape = [(32, 1), (32, 1)];
            check_flagged(plat, AluOp::Fpow, false, (32, 1), &shape, &lanes, 0);
        }
        // By hand: (-2)^3 is 2^3 = 8 on the magnitude, -8 with `exact` (C's `pow`).
        let l = vec![vec![vec![f(-2.0)], vec![f(3.0)]]];
        let shape = [(32, 1), (32, 1)];
        let inexact = run_op_flagged("dg2", AluOp::Fpow, false, (32, 1), &shape, &l, 0);
        assert_eq!(inexact.unwrap()[0][0], f(8.0));
        let exact = run_op("dg2", AluOp::Fpow, (32, 1), &shape, &l, 0);
        assert_eq!(exact.unwrap()[0][0], f(-8.0));
    }

    /// C's `pow` special cases, exactly as `ir::eval` has them.
    #[test]
    fn pow_special_cases_follow_c() {
        let xs = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            2.0,
            -2.0,
            0.5,
            -0.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -8.0,
        ];
        let ys = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            2.0,
            3.0,
            -3.0,
            0.5,
            -0.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            16_777_216.0,
            16_777_218.0,
        ];
        let mut lanes = Vec::new();
        for x in xs {
            for y in ys {
                lanes.push(vec![vec![f(x)], vec![f(y)]]);
            }
        }
        check_exact("dg2", AluOp::Fpow, (32, 1), &[(32, 1), (32, 1)], &lanes, 0);
        // binary16 through binary32: 0x4000 = 2.0, 0xc000 = -2.0, 0x4200 = 3.0.
        let h = [
            0u64, 0x8000, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4200, 0x7c00, 0xfc00, 0x7e01,
        ];
        let mut lanes = Vec::new();
        for &x in &h {
            for &y in &h {
                lanes.push(vec![vec![x], vec![y]]);
            }
        }
        check_exact("mtl", AluOp::Fpow, (16, 1), &[(16, 1), (16, 1)], &lanes, 0);
        // By hand: (-2)^3 = -8, (-8)^(1/3) is NaN in C, pow(NaN, 0) = 1, pow(1, NaN) = 1,
        // (-0)^-3 = -inf.
        let pairs = [
            (f(-2.0), f(3.0)),
            (f(-8.0), f(1.0 / 3.0)),
            (f(f32::NAN), f(0.0)),
            (f(1.0), f(f32::NAN)),
            (f(-0.0), f(-3.0)),
        ];
        let lanes: Vec<Vec<Vec<u64>>> =
            pairs.iter().map(|&(x, y)| vec![vec![x], vec![y]]).collect();
        let got: Vec<u64> = run_op("dg2", AluOp::Fpow, (32, 1), &[(32, 1), (32, 1)], &lanes, 1)
            .unwrap()
            .iter()
            .map(|r| r[0])
            .collect();
        assert_eq!(
            got,
            [f(-8.0), 0xffc0_0000, f(1.0), f(1.0), f(f32::NEG_INFINITY)]
        );
    }

    /// The math unit's ops: special values exactly as `ir::eval` (NaN operands quieted,
    /// generated NaNs the default one, the IEEE limits), other values within the
    /// math unit's error.
    #[test]
    fn transcendentals_special_values_and_plumbing() {
        let special = [
            f(0.0),
            f(-0.0),
            f(1.0),
            f(-1.0),
            f(f32::INFINITY),
            f(f32::NEG_INFINITY),
            0x7fa0_0001,
            0xffc0_0000,
        ];
        for op in [AluOp::Fexp2, AluOp::Flog2, AluOp::Fsin, AluOp::Fcos] {
            check_exact("dg2", op, (32, 1), &[(32, 1)], &lanes1(&special), 0);
        }
        let vals: Vec<u64> = [0.3f32, 1.7, 2.5, 10.0, -3.25, 100.0, 0.001]
            .iter()
            .map(|&x| f(x))
            .collect();
        for (plat, op) in [
            ("dg2", AluOp::Fexp2),
            ("mtl", AluOp::Flog2),
            ("pvc", AluOp::Fsin),
            ("dg2", AluOp::Fcos),
        ] {
            let lanes = lanes1(&vals);
            let got = run_op(plat, op, (32, 1), &[(32, 1)], &lanes, 2).unwrap();
            for (lane, g) in lanes.iter().zip(&got) {
                let want = eval(op, (32, 1), &[(32, 1)], lane)[0];
                let ulps = (i64::from(g[0] as u32 as i32) - i64::from(want as u32 as i32)).abs();
                // flog2 of a negative is NaN in both.
                assert!(
                    ulps <= 3 || (g[0] == want),
                    "{op} {lane:x?}: {g:x?} vs {want:x}"
                );
            }
        }
        // binary16 goes through binary32: 2^3 = 8 (0x4800), log2(8) = 3 (0x4200).
        let got = run_op(
            "dg2",
            AluOp::Fexp2,
            (16, 1),
            &[(16, 1)],
            &lanes1(&[0x4200]),
            0,
        )
        .unwrap();
        assert_eq!(got[0][0], 0x4800);
        let got = run_op(
            "dg2",
            AluOp::Flog2,
            (16, 1),
            &[(16, 1)],
            &lanes1(&[0x4800]),
            0,
        )
        .unwrap();
        assert_eq!(got[0][0], 0x4200);
    }

    #[test]
    fn no_binary64_transcendentals() {
        for (plat, op) in [
            ("pvc", AluOp::Fexp2),
            ("mtl", AluOp::Fpow),
            ("pvc", AluOp::Fcos),
        ] {
            let srcs: &[(u8, u8)] = if op == AluOp::Fpow {
                &[(64, 1), (64, 1)]
            } else {
                &[(64, 1)]
            };
            let lane = vec![vec![0u64]; srcs.len()];
            let e = run_op(plat, op, (64, 1), srcs, &[lane], 0).unwrap_err();
            assert!(
                e.contains(&format!("64-bit `{op}` has no vISA form on {plat}")),
                "{e}"
            );
        }
    }
}
