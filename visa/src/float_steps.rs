//! The float ops NIR defines as a few rounded steps: `ffract` (`a - floor(a)`), `flrp`
//! (`a * (1 - c) + b * c`), `fmod` (`a - b * floor(a / b)`), `frem` (`a - b * trunc(a
//! / b)`) and `fdot2/3/4` (the products `p_i = a_i * b_i` summed `p1 + p0`, `(p2 + p1)
//! + p0`, `(p3 + p2) + (p1 + p0)`, NIR's pairwise reduction).
//!
//! Each step is one IEEE-rounded vISA instruction (`add`, `mul`; floors and truncations
//! `rndd`/`rndz`, or [`crate::round64`] on binary64; the quotient the correctly rounded
//! division of [`crate::float`]), so every result is exactly `ir::eval`'s: vISA's `frc`
//! and `lrp` are not used, as their rounding is not NIR's. binary16 operands compute in
//! binary32 and round once at the end, as `ir::eval` does. NaNs follow [`crate::nan`]:
//! the first NaN operand in source order (component order within a vector), quieted,
//! else the default NaN for a generated one (`ffract(inf)`, `fmod(x, 0)`).
//!
//! binary64 `fmod` and `frem` divide, which needs `divm`: PVC has it; on MTL they are
//! errors naming the division.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::float::{divide, float_type};
use crate::vtype::VType;
use ir::{AluInst, AluOp, Value};

const F: VType = VType::F;

/// Emits one stepwise float op (every component) on `bits`-bit floats.
pub fn emit(cx: &mut Ctx, alu: &AluInst, dest: Value, bits: u8) -> Result<(), EmitError> {
    use AluOp::*;
    let op = alu.op;
    let ty = float_type(cx, bits)?;
    if ty == VType::Df && matches!(op, Fmod | Frem) && !cx.t.divm {
        return Err(cx.unsupported(format!(
            "64-bit `{op}` divides, and {} has no IEEE 64-bit float division (vISA divm)",
            cx.t.platform
        )));
    }
    // binary16 computes in binary32.
    let wt = if ty == VType::Hf { F } else { ty };
    if matches!(op, Fdot2 | Fdot3 | Fdot4) {
        let k = cx.func.src_components(alu.srcs[0]);
        let mut orig = Vec::new();
        for s in &alu.srcs[..2] {
            for c in 0..k {
                orig.push(cx.comp(*s, c)?);
            }
        }
        let d = cx.dest(dest, 0)?;
        let w: Vec<Opnd> = orig.iter().map(|&o| widen(cx, o, ty)).collect();
        let r = result_reg(cx, d, ty);
        let (a, b) = w.split_at(usize::from(k));
        if alu.exact || ty != F {
            dot(cx, r, a, b, wt);
        } else {
            dot_fused(cx, r, a, b);
        }
        finish(cx, d, r, ty);
        // Inexact at 32 bits, the steps' own NaN is `ir::eval`'s (`fdot_inexact`).
        if alu.exact || ty != F {
            crate::nan::apply(cx, d, ty, &orig);
        }
        return Ok(());
    }
    let n = cx.func.value_type(dest).num_components();
    for i in 0..n {
        let mut orig = Vec::new();
        for k in 0..usize::from(op.info().num_inputs) {
            orig.push(cx.comp(alu.srcs[k], i)?);
        }
        let d = cx.dest(dest, i)?;
        let s: Vec<Opnd> = orig.iter().map(|&o| widen(cx, o, ty)).collect();
        let r = result_reg(cx, d, ty);
        match op {
            Ffract => {
                let f = cx.temp(wt);
                floor_or_trunc(cx, AluOp::Ffloor, f, s[0], wt);
                sub(cx, r, s[0], Opnd::Reg(f), wt);
            }
            Flrp => {
                let t = cx.temp(wt);
                a_times_one_minus_c(cx, t, s[0], s[2], wt);
                if !alu.exact && ty == F {
                    // `fma(b, c, a * (1 - c))`, `ir::eval`'s `flrp_inexact`, with the
                    // NaN its three steps give.
                    cx.op("mad", r, wt, &[s[1], s[2], Opnd::Reg(t)]);
                } else {
                    let t2 = cx.temp(wt);
                    cx.op("mul", t2, wt, &[s[1], s[2]]);
                    cx.op("add", r, wt, &[Opnd::Reg(t), Opnd::Reg(t2)]);
                }
            }
            Fmod | Frem => {
                let q = cx.temp(wt);
                divide(cx, q, s[0], s[1], wt)?;
                let round = if op == Fmod {
                    AluOp::Ffloor
                } else {
                    AluOp::Ftrunc
                };
                let t = cx.temp(wt);
                floor_or_trunc(cx, round, t, Opnd::Reg(q), wt);
                cx.op("mul", t, wt, &[s[1], Opnd::Reg(t)]);
                sub(cx, r, s[0], Opnd::Reg(t), wt);
            }
            other => {
                return Err(cx.unsupported(format!("`{other}` is not a stepwise float operation")));
            }
        }
        finish(cx, d, r, ty);
        // An inexact 32-bit `ffract`'s NaN is the one its two steps give (`rndd` and
        // `add` return their NaN operand, `inf - inf` the default NaN), which is the
        // rule's already; an inexact 32-bit `flrp`'s is its steps' by definition
        // (`ir::eval`); Vulkan leaves both open anyway. The other ops' steps meet
        // their NaN operands out of source order.
        if alu.exact || !matches!(op, Ffract | Flrp) || ty != F {
            crate::nan::apply(cx, d, ty, &orig);
        }
    }
    Ok(())
}

/// `d = a * (1 - c)`, two roundings (`1 - c` as `-c + 1`); a constant `c` that is not
/// a NaN folds `1 - c` to the immediate the `add` would give.
fn a_times_one_minus_c(cx: &mut Ctx, d: Reg, a: Opnd, c: Opnd, ty: VType) {
    let folded = match c {
        Opnd::Imm(b) if ty == VType::Df && !f64::from_bits(b).is_nan() => {
            Some((1.0 - f64::from_bits(b)).to_bits())
        }
        Opnd::Imm(b) if ty == F && !f32::from_bits(b as u32).is_nan() => {
            Some(u64::from((1.0 - f32::from_bits(b as u32)).to_bits()))
        }
        _ => None,
    };
    match folded {
        Some(v) => cx.op("mul", d, ty, &[a, Opnd::Imm(v)]),
        None => {
            let es = cx.es();
            let (dd, nc) = (cx.dst(d, ty), neg(cx, c, ty));
            cx.line(&format!("add {es} {dd} {nc} {}", ty.imm(one(ty))));
            cx.op("mul", d, ty, &[a, Opnd::Reg(d)]);
        }
    }
}

/// A binary16 operand as a binary32 register (exact); other types as they are.
fn widen(cx: &mut Ctx, o: Opnd, ty: VType) -> Opnd {
    if ty != VType::Hf {
        return o;
    }
    let t = cx.temp(F);
    cx.op_typed("mov", (t, F), &[(o, VType::Hf)]);
    Opnd::Reg(t)
}

/// Where the result is computed: `d`, or a binary32 temporary for binary16.
fn result_reg(cx: &mut Ctx, d: Reg, ty: VType) -> Reg {
    if ty == VType::Hf {
        cx.temp(F)
    } else {
        d
    }
}

/// Rounds the binary32 result `r` into the binary16 `d` (nothing otherwise).
fn finish(cx: &mut Ctx, d: Reg, r: Reg, ty: VType) {
    if ty == VType::Hf {
        cx.op_typed("mov", (d, VType::Hf), &[(Opnd::Reg(r), F)]);
    }
}

/// The bits of 1.0.
fn one(ty: VType) -> u64 {
    if ty == VType::Df {
        0x3ff0_0000_0000_0000
    } else {
        0x3f80_0000
    }
}

/// A float source negated: an immediate's sign flipped here, `(-)` on a register.
fn neg(cx: &mut Ctx, o: Opnd, ty: VType) -> String {
    match o {
        Opnd::Imm(b) => ty.imm(b ^ (1u64 << (ty.bytes() * 8 - 1))),
        Opnd::Reg(_) => format!("(-){}", cx.src(o, ty)),
    }
}

/// `d = a - b`, one rounding.
fn sub(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd, ty: VType) {
    let es = cx.es();
    let (dd, sa, nb) = (cx.dst(d, ty), cx.src(a, ty), neg(cx, b, ty));
    cx.line(&format!("add {es} {dd} {sa} {nb}"));
}

/// `d = floor(a)` or `trunc(a)` in binary32 (`rndd`, `rndz`) or binary64.
fn floor_or_trunc(cx: &mut Ctx, op: AluOp, d: Reg, a: Opnd, ty: VType) {
    if ty == VType::Df {
        crate::round64::round(cx, op, d, a);
    } else {
        let m = if op == AluOp::Ffloor { "rndd" } else { "rndz" };
        cx.op(m, d, ty, &[a]);
    }
}

/// `d = dot(a, b)` in NIR's association order, each step rounded.
fn dot(cx: &mut Ctx, d: Reg, a: &[Opnd], b: &[Opnd], ty: VType) {
    let p: Vec<Reg> = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let t = cx.temp(ty);
            cx.op("mul", t, ty, &[x, y]);
            t
        })
        .collect();
    let r = |k: usize| Opnd::Reg(p[k]);
    match p.len() {
        2 => cx.op("add", d, ty, &[r(1), r(0)]),
        3 => {
            let t = cx.temp(ty);
            cx.op("add", t, ty, &[r(2), r(1)]);
            cx.op("add", d, ty, &[Opnd::Reg(t), r(0)]);
        }
        _ => {
            let (hi, lo) = (cx.temp(ty), cx.temp(ty));
            cx.op("add", hi, ty, &[r(3), r(2)]);
            cx.op("add", lo, ty, &[r(1), r(0)]);
            cx.op("add", d, ty, &[Opnd::Reg(hi), Opnd::Reg(lo)]);
        }
    }
}

/// `d = a . b` on 32-bit floats without `exact`: `ir::eval`'s `fdot_inexact`, the
/// pairwise sum with each product that feeds an addition fused into a `mad`.
fn dot_fused(cx: &mut Ctx, d: Reg, a: &[Opnd], b: &[Opnd]) {
    let mul = |cx: &mut Ctx, i: usize| {
        let t = cx.temp(F);
        cx.op("mul", t, F, &[a[i], b[i]]);
        Opnd::Reg(t)
    };
    let mad = |cx: &mut Ctx, dst: Reg, i: usize, c: Opnd| cx.op("mad", dst, F, &[a[i], b[i], c]);
    match a.len() {
        2 => {
            let p0 = mul(cx, 0);
            mad(cx, d, 1, p0);
        }
        3 => {
            let p1 = mul(cx, 1);
            let t = cx.temp(F);
            mad(cx, t, 2, p1);
            mad(cx, d, 0, Opnd::Reg(t));
        }
        _ => {
            let (hi, lo) = (cx.temp(F), cx.temp(F));
            let p2 = mul(cx, 2);
            mad(cx, hi, 3, p2);
            let p0 = mul(cx, 0);
            mad(cx, lo, 1, p0);
            cx.op("add", d, F, &[Opnd::Reg(hi), Opnd::Reg(lo)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::alu_check::{check_exact, run_op};
    use ir::AluOp;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    /// Operands of `bits` bits: special values and a spread of finite ones.
    fn operands(bits: u8) -> Vec<u64> {
        let base: Vec<f64> = vec![
            0.0, -0.0, 1.0, -1.0, 2.75, -0.25, 7.5, -7.0, 3.0, -2.0, 0.1, 1e-5, 1e3, -123.456,
            65504.0, 1e-7, 0.5,
        ];
        let mut v: Vec<u64> = match bits {
            16 => base
                .iter()
                .map(|&x| u64::from(ir::eval::f32_to_f16(x as f32)))
                .chain([0x7c00, 0xfc00, 0x7e01, 0xfd00, 0x0001, 0x83ff])
                .collect(),
            32 => base
                .iter()
                .map(|&x| f(x as f32))
                .chain([
                    0x7f80_0000,
                    0xff80_0000,
                    0x7fa0_0001,
                    0xffc0_0002,
                    1,
                    0x8000_0010,
                ])
                .collect(),
            _ => base
                .iter()
                .map(|&x| x.to_bits())
                .chain([
                    f64::INFINITY.to_bits(),
                    f64::NEG_INFINITY.to_bits(),
                    0x7ff4_0000_0000_0001,
                    0xfff8_0000_0000_0002,
                    1,
                    (1.0f64 / 3.0).to_bits(),
                ])
                .collect(),
        };
        v.dedup();
        v
    }

    fn pairs(bits: u8) -> Vec<Vec<Vec<u64>>> {
        let o = operands(bits);
        let mut out = Vec::new();
        for &a in &o {
            for &b in &o {
                out.push(vec![vec![a], vec![b]]);
            }
        }
        out
    }

    /// An inexact 32-bit dot product is its `mul`s and `add`s alone, with `ir::eval`'s
    /// results (the NaN each step gives).
    #[test]
    fn inexact_dot_products_are_their_steps() {
        let o = operands(32);
        for (op, k) in [(AluOp::Fdot2, 2u8), (AluOp::Fdot3, 3), (AluOp::Fdot4, 4)] {
            // Operand sets from a walk over the operands, so every component position
            // meets NaNs, infinities and zeros.
            let lanes: Vec<Vec<Vec<u64>>> = (0..o.len() * 3)
                .map(|i| {
                    let pick = |j: usize| o[(i * (j + 1) + j * 5) % o.len()];
                    let a = (0..usize::from(k)).map(pick).collect();
                    let b = (0..usize::from(k)).map(|j| pick(j + 7)).collect();
                    vec![a, b]
                })
                .collect();
            let shape = [(32, k), (32, k)];
            crate::alu_check::check_flagged("dg2", op, false, (32, 1), &shape, &lanes, 0);
        }
        // By hand: dot2((NaN_a, 1), (1, NaN_b)) takes p1 = 1 * NaN_b first, so NaN_b,
        // where the rule for the whole op (with `exact`) gives NaN_a.
        let (na, nb) = (0x7fc0_0001u64, 0x7fc0_0002u64);
        let l = vec![vec![vec![na, f(1.0)], vec![f(1.0), nb]]];
        let shape = [(32, 2), (32, 2)];
        let inexact =
            crate::alu_check::run_op_flagged("dg2", AluOp::Fdot2, false, (32, 1), &shape, &l, 0);
        assert_eq!(inexact.unwrap()[0][0], nb);
        let exact = run_op("dg2", AluOp::Fdot2, (32, 1), &shape, &l, 0);
        assert_eq!(exact.unwrap()[0][0], na);
    }

    /// An inexact 32-bit `flrp` is `add`, `mul` and `mad` alone, with `ir::eval`'s
    /// results (the NaN each step gives), on the legacy and the LSC platforms.
    #[test]
    fn inexact_flrp_is_three_steps() {
        let o = operands(32);
        let triples: Vec<Vec<Vec<u64>>> = (0..o.len() * 4)
            .map(|i| {
                vec![
                    vec![o[i % o.len()]],
                    vec![o[(i / 3) % o.len()]],
                    vec![o[(i * 7 / 5) % o.len()]],
                ]
            })
            .collect();
        let s = (32, 1);
        for plat in ["skl", "tgl", "dg2"] {
            crate::alu_check::check_flagged(plat, AluOp::Flrp, false, s, &[s, s, s], &triples, 0);
        }
        // By hand: mix(2, 6, 0.25) = 6 * 0.25 + 2 * 0.75 = 3, and a NaN in both `a` and
        // `b` gives `b`'s (the `mad` meets `b` first) where the exact rule gives `a`'s.
        let (na, nb) = (0x7fc0_0001u64, 0x7fc0_0002u64);
        let l = vec![
            vec![vec![f(2.0)], vec![f(6.0)], vec![f(0.25)]],
            vec![vec![na], vec![nb], vec![f(0.5)]],
        ];
        let inexact =
            crate::alu_check::run_op_flagged("dg2", AluOp::Flrp, false, s, &[s, s, s], &l, 0)
                .unwrap();
        assert_eq!((inexact[0][0], inexact[1][0]), (f(3.0), nb));
        let exact = run_op("dg2", AluOp::Flrp, s, &[s, s, s], &l, 0).unwrap();
        assert_eq!((exact[0][0], exact[1][0]), (f(3.0), na));
        let text = crate::alu_check::op_kernel_flagged(AluOp::Flrp, false, s, &[s, s, s], 16, 16);
        let shader = ir::parse_shader(&text).unwrap();
        let device = lowering::Device::preset("dg2").unwrap();
        let k = crate::emit_kernel(&shader, &device, &Default::default()).unwrap();
        assert!(!k.text.contains("cmp"), "{}", k.text);
    }

    /// An inexact 32-bit `ffract` is `rndd` and `add` alone, with `ir::eval`'s
    /// results (NaN operands and infinities included).
    #[test]
    fn inexact_ffract_is_two_steps() {
        let v: Vec<Vec<Vec<u64>>> = operands(32).into_iter().map(|x| vec![vec![x]]).collect();
        for plat in ["skl", "tgl", "dg2", "pvc"] {
            crate::alu_check::check_flagged(plat, AluOp::Ffract, false, (32, 1), &[(32, 1)], &v, 0);
        }
        let text =
            crate::alu_check::op_kernel_flagged(AluOp::Ffract, false, (32, 1), &[(32, 1)], 16, 16);
        let shader = ir::parse_shader(&text).unwrap();
        let device = lowering::Device::preset("dg2").unwrap();
        let k = crate::emit_kernel(&shader, &device, &Default::default()).unwrap();
        assert!(!k.text.contains("cmp.ne"), "{}", k.text);
    }

    #[test]
    fn stepwise_ops_by_hand() {
        let one = |op: AluOp, srcs: &[u64]| {
            let shapes: Vec<(u8, u8)> = srcs.iter().map(|_| (32, 1)).collect();
            let lane: Vec<Vec<u64>> = srcs.iter().map(|&s| vec![s]).collect();
            run_op("dg2", op, (32, 1), &shapes, &[lane], 2).unwrap()[0][0]
        };
        assert_eq!(one(AluOp::Ffract, &[f(2.75)]), f(0.75));
        assert_eq!(one(AluOp::Ffract, &[f(-0.25)]), f(0.75));
        // -2^-30 - floor(-2^-30) = 1 - 2^-30 rounds to 1.0.
        assert_eq!(one(AluOp::Ffract, &[f(-(2f32.powi(-30)))]), f(1.0));
        assert_eq!(one(AluOp::Ffract, &[f(f32::INFINITY)]), 0xffc0_0000);
        assert_eq!(one(AluOp::Flrp, &[f(2.0), f(6.0), f(0.25)]), f(3.0));
        assert_eq!(one(AluOp::Fmod, &[f(-7.0), f(3.0)]), f(2.0));
        assert_eq!(one(AluOp::Frem, &[f(-7.0), f(3.0)]), f(-1.0));
        assert_eq!(one(AluOp::Fmod, &[f(7.5), f(-2.0)]), f(-0.5));
        assert_eq!(one(AluOp::Fmod, &[f(1.0), f(0.0)]), 0xffc0_0000);
        // The first NaN operand, quieted.
        assert_eq!(
            one(AluOp::Flrp, &[f(1.0), 0x7fa0_0000, 0x7f80_0001]),
            0x7fe0_0000
        );
    }

    #[test]
    fn dot_products_keep_nir_order() {
        // (p2 + p1) + p0 with p2 = 1, p1 = 2^24, p0 = -2^24: p2 + p1 rounds to 2^24,
        // the result is 0 (left to right it would be 1).
        let a = vec![f(-16_777_216.0), f(16_777_216.0), f(1.0)];
        let b = vec![f(1.0); 3];
        let got = run_op(
            "dg2",
            AluOp::Fdot3,
            (32, 1),
            &[(32, 3), (32, 3)],
            &[vec![a, b]],
            0,
        )
        .unwrap();
        assert_eq!(got[0][0], 0);
        let a = vec![f(1.0), f(2.0), f(3.0), f(4.0)];
        let b = vec![f(5.0), f(6.0), f(7.0), f(8.0)];
        let got = run_op(
            "mtl",
            AluOp::Fdot4,
            (32, 1),
            &[(32, 4), (32, 4)],
            &[vec![a, b]],
            0,
        )
        .unwrap();
        assert_eq!(got[0][0], f(70.0));
        for (plat, bits) in [("dg2", 16u8), ("dg2", 32), ("mtl", 64), ("pvc", 64)] {
            let o = operands(bits);
            for (op, k) in [(AluOp::Fdot2, 2usize), (AluOp::Fdot3, 3), (AluOp::Fdot4, 4)] {
                let lanes: Vec<Vec<Vec<u64>>> = (0..o.len())
                    .map(|i| {
                        let a = (0..k).map(|j| o[(i + j) % o.len()]).collect();
                        let b = (0..k).map(|j| o[(i * 3 + j * 5 + 1) % o.len()]).collect();
                        vec![a, b]
                    })
                    .collect();
                let kk = k as u8;
                check_exact(plat, op, (bits, 1), &[(bits, kk), (bits, kk)], &lanes, 0);
            }
        }
    }

    #[test]
    fn stepwise_ops_match_ir_eval() {
        for (plat, bits) in [
            ("dg2", 16u8),
            ("dg2", 32),
            ("mtl", 64),
            ("pvc", 32),
            ("pvc", 64),
        ] {
            let o = operands(bits);
            let one: Vec<Vec<Vec<u64>>> = o.iter().map(|&x| vec![vec![x]]).collect();
            check_exact(plat, AluOp::Ffract, (bits, 1), &[(bits, 1)], &one, 0);
            let s = (bits, 1);
            if plat != "mtl" {
                for op in [AluOp::Fmod, AluOp::Frem] {
                    check_exact(plat, op, s, &[s, s], &pairs(bits), 2);
                }
            }
            let triples: Vec<Vec<Vec<u64>>> = (0..o.len() * 4)
                .map(|i| {
                    vec![
                        vec![o[i % o.len()]],
                        vec![o[(i / 3) % o.len()]],
                        vec![o[(i * 7 / 5) % o.len()]],
                    ]
                })
                .collect();
            check_exact(plat, AluOp::Flrp, s, &[s, s, s], &triples, 0);
        }
        let e = run_op(
            "mtl",
            AluOp::Fmod,
            (64, 1),
            &[(64, 1), (64, 1)],
            &pairs(64),
            0,
        )
        .unwrap_err();
        assert!(
            e.contains("64-bit `fmod` divides, and mtl has no IEEE 64-bit float division"),
            "{e}"
        );
    }
}
