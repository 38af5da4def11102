//! The `GLSL.std.450` extended instructions (Mesa's `vtn_glsl450.c`): NIR ALU ops where
//! the IR has one, and Mesa's expansions where it has not (`tan = sin / cos`,
//! `exp(x) = exp2(x * log2(e))`, `length = sqrt(dot(x, x))`, `smoothstep`, `step`,
//! ...), each written in the order the naga path writes it, so the two translations
//! compute the same bits. The hyperbolic functions are the formulas Vulkan's precision
//! table defines them by ([`hyperbolic`]); the inverse trigonometric ones Mesa's
//! polynomials ([`super::inverse_trig`]). `modf` and `frexp`, which write through a
//! pointer or return a struct, are [`modf`] and [`frexp`], Mesa's expansions, which
//! the caller stores or assembles. The normalized packings are NIR's lowerings of them
//! (`nir_opt_algebraic.py`'s `lower_pack_unorm_4x8` and friends).

use super::alu::{self, fconst, iconst, op, splat, AluError};
use super::value::Val;
use ir::{AluOp, Builder, Src};
use spirv::GlslStd450Op as G;

/// The hyperbolic functions and their inverses (`f` one of `Sinh`, `Cosh`, `Tanh`,
/// `Asinh`, `Acosh`, `Atanh`) of `x`, as Vulkan's precision table defines them (each
/// "inherited from" these formulas of `exp`, `log` and `sqrt`) and Mesa's
/// `vtn_glsl450.c` builds them: `sinh = (eˣ - e⁻ˣ) / 2`, `cosh = (eˣ + e⁻ˣ) / 2`,
/// `tanh = (eˣ - e⁻ˣ) / (eˣ + e⁻ˣ)` of `x` clamped to ±10 (±4.2 for 16-bit floats,
/// where e⁻ˣ no longer counts beside eˣ, and eˣ / eˣ would be inf / inf) and `x`
/// itself (NaN, ±0) unless `|x| > 0`, `asinh = sign(x) log(|x| + √(x² + 1))`,
/// `acosh = log(x + √(x² - 1))`, `atanh = log((1 + x) / (1 - x)) / 2`. The naga-IR
/// translation uses this function too.
pub fn hyperbolic(b: &mut Builder<'_>, f: G, x: Src) -> Result<Src, AluError> {
    let n = b.func.src_type(x).num_components();
    let bits = b.func.src_type(x).bit_size();
    let exp = |b: &mut Builder<'_>, v: Src| -> Result<Src, AluError> {
        let k = fconst(b, bits, std::f64::consts::LOG2_E, n)?;
        let t = op(b, AluOp::Fmul, &[v, k])?;
        op(b, AluOp::Fexp2, &[t])
    };
    let log = |b: &mut Builder<'_>, v: Src| -> Result<Src, AluError> {
        let k = fconst(b, bits, std::f64::consts::LN_2, n)?;
        let t = op(b, AluOp::Flog2, &[v])?;
        op(b, AluOp::Fmul, &[t, k])
    };
    let half = fconst(b, bits, 0.5, n)?;
    let one = fconst(b, bits, 1.0, n)?;
    match f {
        G::Sinh | G::Cosh => {
            let ex = exp(b, x)?;
            let neg = op(b, AluOp::Fneg, &[x])?;
            let emx = exp(b, neg)?;
            let sum = op(
                b,
                if f == G::Sinh {
                    AluOp::Fsub
                } else {
                    AluOp::Fadd
                },
                &[ex, emx],
            )?;
            op(b, AluOp::Fmul, &[sum, half])
        }
        G::Tanh => {
            let limit = if bits > 16 { 10.0 } else { 4.2 };
            let lo = fconst(b, bits, -limit, n)?;
            let hi = fconst(b, bits, limit, n)?;
            let t = op(b, AluOp::Fmax, &[x, lo])?;
            let c = op(b, AluOp::Fmin, &[t, hi])?;
            let zero = fconst(b, bits, 0.0, n)?;
            let ax = op(b, AluOp::Fabs, &[x])?;
            let regular = op(b, AluOp::Flt, &[zero, ax])?;
            let flushed = op(b, AluOp::Fmul, &[x, one])?;
            let ex = exp(b, c)?;
            let neg = op(b, AluOp::Fneg, &[c])?;
            let emx = exp(b, neg)?;
            let num = op(b, AluOp::Fsub, &[ex, emx])?;
            let den = op(b, AluOp::Fadd, &[ex, emx])?;
            let q = op(b, AluOp::Fdiv, &[num, den])?;
            op(b, AluOp::Bcsel, &[regular, q, flushed])
        }
        G::Asinh | G::Acosh => {
            let sign = if f == G::Asinh { 1.0 } else { -1.0 };
            let k = fconst(b, bits, sign, n)?;
            let sq = op(b, AluOp::Ffma, &[x, x, k])?;
            let root = op(b, AluOp::Fsqrt, &[sq])?;
            if f == G::Asinh {
                let ax = op(b, AluOp::Fabs, &[x])?;
                let sum = op(b, AluOp::Fadd, &[ax, root])?;
                let l = log(b, sum)?;
                let s = op(b, AluOp::Fsign, &[x])?;
                op(b, AluOp::Fmul, &[s, l])
            } else {
                let sum = op(b, AluOp::Fadd, &[x, root])?;
                log(b, sum)
            }
        }
        G::Atanh => {
            let num = op(b, AluOp::Fadd, &[x, one])?;
            let den = op(b, AluOp::Fsub, &[one, x])?;
            let q = op(b, AluOp::Fdiv, &[num, den])?;
            let l = log(b, q)?;
            op(b, AluOp::Fmul, &[l, half])
        }
        other => Err(AluError::Invalid(format!(
            "GLSL.std.450 {other:?} is not a hyperbolic function"
        ))),
    }
}

/// A matrix argument's columns, for `Determinant`.
pub fn determinant(b: &mut Builder<'_>, cols: &[Src]) -> Result<Src, AluError> {
    let e = |i: usize, j: u8| cols[i].component(j);
    let det2 = |b: &mut Builder<'_>, a: Src, x: Src, c: Src, d: Src| -> Result<Src, AluError> {
        let l = op(b, AluOp::Fmul, &[a, d])?;
        let r = op(b, AluOp::Fmul, &[x, c])?;
        op(b, AluOp::Fsub, &[l, r])
    };
    match cols.len() {
        2 => det2(b, e(0, 0), e(1, 0), e(0, 1), e(1, 1)),
        3 => {
            let m0 = det2(b, e(1, 1), e(2, 1), e(1, 2), e(2, 2))?;
            let m1 = det2(b, e(1, 0), e(2, 0), e(1, 2), e(2, 2))?;
            let m2 = det2(b, e(1, 0), e(2, 0), e(1, 1), e(2, 1))?;
            let t0 = op(b, AluOp::Fmul, &[e(0, 0), m0])?;
            let t1 = op(b, AluOp::Fmul, &[e(0, 1), m1])?;
            let t2 = op(b, AluOp::Fmul, &[e(0, 2), m2])?;
            let s = op(b, AluOp::Fsub, &[t0, t1])?;
            op(b, AluOp::Fadd, &[s, t2])
        }
        4 => {
            // Along the first column: Σ (-1)^j c0[j] · det3(the minor without row j),
            // each minor as the 3x3 case expands it.
            let mut acc: Option<Src> = None;
            for j in 0..4u8 {
                let rows: Vec<u8> = (0..4u8).filter(|&r| r != j).collect();
                let m = |i: usize, r: usize| e(i + 1, rows[r]);
                let m0 = det2(b, m(1, 1), m(2, 1), m(1, 2), m(2, 2))?;
                let m1 = det2(b, m(1, 0), m(2, 0), m(1, 2), m(2, 2))?;
                let m2 = det2(b, m(1, 0), m(2, 0), m(1, 1), m(2, 1))?;
                let t0 = op(b, AluOp::Fmul, &[m(0, 0), m0])?;
                let t1 = op(b, AluOp::Fmul, &[m(0, 1), m1])?;
                let t2 = op(b, AluOp::Fmul, &[m(0, 2), m2])?;
                let s = op(b, AluOp::Fsub, &[t0, t1])?;
                let minor = op(b, AluOp::Fadd, &[s, t2])?;
                let term = op(b, AluOp::Fmul, &[e(0, j), minor])?;
                acc = Some(match acc {
                    None => term,
                    Some(a) if j % 2 == 1 => op(b, AluOp::Fsub, &[a, term])?,
                    Some(a) => op(b, AluOp::Fadd, &[a, term])?,
                });
            }
            acc.ok_or_else(|| AluError::Invalid("an empty determinant".into()))
        }
        n => Err(AluError::Invalid(format!(
            "Determinant of a {n}x{n} matrix"
        ))),
    }
}

/// The determinant of the square submatrix of rows `rows` and columns `cols` of the
/// matrix whose element `(column, row)` `e` gives, expanded along its first column.
fn sub_determinant(
    b: &mut Builder<'_>,
    e: &dyn Fn(usize, usize) -> Src,
    cols: &[usize],
    rows: &[usize],
) -> Result<Src, AluError> {
    match cols.len() {
        1 => Ok(e(cols[0], rows[0])),
        2 => {
            let l = op(b, AluOp::Fmul, &[e(cols[0], rows[0]), e(cols[1], rows[1])])?;
            let r = op(b, AluOp::Fmul, &[e(cols[1], rows[0]), e(cols[0], rows[1])])?;
            op(b, AluOp::Fsub, &[l, r])
        }
        _ => {
            let mut acc: Option<Src> = None;
            for (k, &row) in rows.iter().enumerate() {
                let rest: Vec<usize> = rows.iter().copied().filter(|&r| r != row).collect();
                let minor = sub_determinant(b, e, &cols[1..], &rest)?;
                let term = op(b, AluOp::Fmul, &[e(cols[0], row), minor])?;
                acc = Some(match acc {
                    None => term,
                    Some(a) if k % 2 == 1 => op(b, AluOp::Fsub, &[a, term])?,
                    Some(a) => op(b, AluOp::Fadd, &[a, term])?,
                });
            }
            acc.ok_or_else(|| AluError::Invalid("an empty determinant".into()))
        }
    }
}

/// `modf(x)`: the fractional and the whole part of `x`, both with its sign, as Mesa's
/// `vtn_glsl450.c` builds them: `sign(x) * fract(|x|)` and `sign(x) * floor(|x|)`. Both
/// products are exact (a sign times a value), and the fractional part of ±inf is ±0,
/// where the product would be NaN.
pub fn modf(b: &mut Builder<'_>, x: Src) -> Result<(Src, Src), AluError> {
    let ty = b.func.src_type(x);
    let (bits, n) = (ty.bit_size(), ty.num_components());
    let sign = op(b, AluOp::Fsign, &[x])?;
    let abs = op(b, AluOp::Fabs, &[x])?;
    let fract = op(b, AluOp::Ffract, &[abs])?;
    let signed_fract = op(b, AluOp::Fmul, &[sign, fract])?;
    let inf = fconst(b, bits, f64::INFINITY, n)?;
    let is_inf = op(b, AluOp::Feq, &[abs, inf])?;
    let sign_bit = iconst(b, bits, 1 << (bits - 1), n)?;
    let signed_zero = op(b, AluOp::Iand, &[x, sign_bit])?;
    let fraction = op(b, AluOp::Bcsel, &[is_inf, signed_zero, signed_fract])?;
    let floor = op(b, AluOp::Ffloor, &[abs])?;
    let whole = op(b, AluOp::Fmul, &[sign, floor])?;
    Ok((fraction, whole))
}

/// `frexp(x)`: the significand, in [0.5, 1) with the sign of `x`, and the exponent, a
/// 32-bit integer, such that `x = significand * 2^exponent`; both 0 (the significand
/// with the sign of `x`) for ±0. Built from the bits of `x` as Mesa's
/// `nir_lower_frexp.c` does: the significand keeps the sign and mantissa and takes the
/// exponent of 0.5, the exponent is the biased one less the bias of 0.5. A denormal is
/// read as the zero of its sign (Vulkan lets an implementation flush denormals), where
/// Mesa's bit operations would give neither its value nor zero. Infinities and NaN
/// give undefined results, as in GLSL.
pub fn frexp(b: &mut Builder<'_>, x: Src) -> Result<(Src, Src), AluError> {
    let ty = b.func.src_type(x);
    let (bits, n) = (ty.bit_size(), ty.num_components());
    // Mantissa bits and the exponent bias of each float width.
    let (mantissa, bias): (u8, i64) = match bits {
        16 => (10, 15),
        32 => (23, 127),
        64 => (52, 1023),
        _ => return Err(AluError::Invalid(format!("frexp of a {bits}-bit float"))),
    };
    let sign_bit = 1i64 << (bits - 1);
    let mantissa_mask = (1i64 << mantissa) - 1;
    let abs = op(b, AluOp::Fabs, &[x])?;
    let min_normal = iconst(b, bits, 1 << mantissa, n)?;
    let normal = op(b, AluOp::Uge, &[abs, min_normal])?;
    // The significand: sign and mantissa of `x` under the exponent of 0.5.
    let keep = iconst(b, bits, sign_bit | mantissa_mask, n)?;
    let kept = op(b, AluOp::Iand, &[x, keep])?;
    let half = iconst(b, bits, (bias - 1) << mantissa, n)?;
    let sig = op(b, AluOp::Ior, &[kept, half])?;
    let sign = iconst(b, bits, sign_bit, n)?;
    let zero = op(b, AluOp::Iand, &[x, sign])?;
    let significand = op(b, AluOp::Bcsel, &[normal, sig, zero])?;
    // The exponent: the biased one, less the bias of 0.5.
    let shift = iconst(b, 32, mantissa as i64, n)?;
    let biased = op(b, AluOp::Ushr, &[abs, shift])?;
    let unbias = iconst(b, bits, 1 - bias, n)?;
    let e = op(b, AluOp::Iadd, &[biased, unbias])?;
    let none = iconst(b, bits, 0, n)?;
    let e = op(b, AluOp::Bcsel, &[normal, e, none])?;
    let exponent = match bits {
        32 => e,
        _ => op(b, AluOp::I2i32, &[e])?,
    };
    Ok((significand, exponent))
}

/// `MatrixInverse` of the 2x2, 3x3 or 4x4 matrix of columns `cols`: the adjugate times
/// the reciprocal of the determinant, as Mesa's `vtn_glsl450.c` (`matrix_inverse`)
/// builds it. Element `(i, j)` of the inverse is the cofactor of element `(j, i)`
/// (`(-1)^(i+j)` times the determinant of the matrix without row `j` and column `i`)
/// over the determinant; the columns of the result.
pub fn matrix_inverse(b: &mut Builder<'_>, cols: &[Src]) -> Result<Vec<Src>, AluError> {
    let n = cols.len();
    if !(2..=4).contains(&n)
        || cols
            .iter()
            .any(|c| b.func.src_type(*c).num_components() as usize != n)
    {
        return Err(AluError::Invalid(format!(
            "MatrixInverse of a matrix of {n} columns that is not square (2x2 to 4x4)"
        )));
    }
    let e = |c: usize, r: usize| cols[c].component(r as u8);
    let all: Vec<usize> = (0..n).collect();
    let det = sub_determinant(b, &e, &all, &all)?;
    let inv_det = op(b, AluOp::Frcp, &[det])?;
    let mut out = Vec::with_capacity(n);
    for col in 0..n {
        let mut comps = Vec::with_capacity(n);
        for row in 0..n {
            // The cofactor of element (column row, row col).
            let rest_cols: Vec<usize> = all.iter().copied().filter(|&c| c != row).collect();
            let rest_rows: Vec<usize> = all.iter().copied().filter(|&r| r != col).collect();
            let mut c = sub_determinant(b, &e, &rest_cols, &rest_rows)?;
            if (row + col) % 2 == 1 {
                c = op(b, AluOp::Fneg, &[c])?;
            }
            comps.push(op(b, AluOp::Fmul, &[c, inv_det])?);
        }
        let v = match n {
            2 => AluOp::Vec2,
            3 => AluOp::Vec3,
            _ => AluOp::Vec4,
        };
        out.push(op(b, v, &comps)?);
    }
    Ok(out)
}

/// Translates `GLSL.std.450` instruction `number` on `args` (scalars and vectors);
/// `result_bits` is the result type's bit size.
pub fn glsl450(
    b: &mut Builder<'_>,
    number: u32,
    args: &[Src],
    result_bits: u8,
) -> Result<Val, AluError> {
    let f = G::from_u32(number)
        .ok_or_else(|| AluError::Invalid(format!("GLSL.std.450 has no instruction {number}")))?;
    let arity = match f {
        G::Atan2
        | G::Pow
        | G::FMin
        | G::UMin
        | G::SMin
        | G::FMax
        | G::UMax
        | G::SMax
        | G::Step
        | G::Ldexp
        | G::Distance
        | G::Cross
        | G::Reflect
        | G::NMin
        | G::NMax
        | G::Modf
        | G::Frexp
        | G::InterpolateAtSample
        | G::InterpolateAtOffset => 2,
        G::FClamp
        | G::UClamp
        | G::SClamp
        | G::FMix
        | G::IMix
        | G::SmoothStep
        | G::Fma
        | G::FaceForward
        | G::Refract
        | G::NClamp => 3,
        _ => 1,
    };
    if args.len() != arity {
        return Err(AluError::Invalid(format!(
            "GLSL.std.450 {f:?} takes {arity} operands, not {}",
            args.len()
        )));
    }
    let a = args[0];
    let n = b.func.src_type(a).num_components();
    let bits = b.func.src_type(a).bit_size();
    let arg = |b: &Builder<'_>, i: usize| -> Result<Src, AluError> {
        let s = args[i];
        if b.func.src_type(s).num_components() == 1 && n > 1 {
            splat(s, n)
        } else {
            Ok(s)
        }
    };
    let unsupported = |why: &str| Err(AluError::Unsupported(format!("GLSL.std.450 {f:?}: {why}")));
    let leaf = |s: Src| Ok(Val::Leaf(s));
    match f {
        G::Round | G::RoundEven => leaf(op(b, AluOp::FroundEven, &[a])?),
        G::Trunc => leaf(op(b, AluOp::Ftrunc, &[a])?),
        G::FAbs => leaf(op(b, AluOp::Fabs, &[a])?),
        G::SAbs => leaf(op(b, AluOp::Iabs, &[a])?),
        G::FSign => leaf(op(b, AluOp::Fsign, &[a])?),
        G::SSign => leaf(op(b, AluOp::Isign, &[a])?),
        G::Floor => leaf(op(b, AluOp::Ffloor, &[a])?),
        G::Ceil => leaf(op(b, AluOp::Fceil, &[a])?),
        G::Fract => leaf(op(b, AluOp::Ffract, &[a])?),
        G::Radians | G::Degrees => {
            let k = if f == G::Radians {
                std::f64::consts::PI / 180.0
            } else {
                180.0 / std::f64::consts::PI
            };
            let c = fconst(b, bits, k, n)?;
            leaf(op(b, AluOp::Fmul, &[a, c])?)
        }
        G::Sin => leaf(op(b, AluOp::Fsin, &[a])?),
        G::Cos => leaf(op(b, AluOp::Fcos, &[a])?),
        G::Tan => {
            let s = op(b, AluOp::Fsin, &[a])?;
            let c = op(b, AluOp::Fcos, &[a])?;
            leaf(op(b, AluOp::Fdiv, &[s, c])?)
        }
        G::Sinh | G::Cosh | G::Tanh | G::Asinh | G::Acosh | G::Atanh => leaf(hyperbolic(b, f, a)?),
        G::Asin | G::Acos | G::Atan => leaf(super::inverse_trig::inverse_trig(b, f, &[a])?),
        G::Atan2 => {
            let x = arg(b, 1)?;
            leaf(super::inverse_trig::inverse_trig(b, f, &[a, x])?)
        }
        G::Pow => leaf(op(b, AluOp::Fpow, &[a, args[1]])?),
        G::Exp => {
            let k = fconst(b, bits, std::f64::consts::LOG2_E, n)?;
            let t = op(b, AluOp::Fmul, &[a, k])?;
            leaf(op(b, AluOp::Fexp2, &[t])?)
        }
        G::Log => {
            let k = fconst(b, bits, std::f64::consts::LN_2, n)?;
            let t = op(b, AluOp::Flog2, &[a])?;
            leaf(op(b, AluOp::Fmul, &[t, k])?)
        }
        G::Exp2 => leaf(op(b, AluOp::Fexp2, &[a])?),
        G::Log2 => leaf(op(b, AluOp::Flog2, &[a])?),
        G::Sqrt => leaf(op(b, AluOp::Fsqrt, &[a])?),
        G::InverseSqrt => leaf(op(b, AluOp::Frsq, &[a])?),
        G::Determinant | G::MatrixInverse => {
            unsupported("it takes a matrix (the caller expands determinants)")
        }
        G::Modf | G::ModfStruct | G::Frexp | G::FrexpStruct => {
            unsupported("it writes through a pointer or returns a struct (the caller expands it)")
        }
        G::FMin | G::NMin => leaf(op(b, AluOp::Fmin, &[a, arg(b, 1)?])?),
        G::FMax | G::NMax => leaf(op(b, AluOp::Fmax, &[a, arg(b, 1)?])?),
        G::UMin => leaf(op(b, AluOp::Umin, &[a, arg(b, 1)?])?),
        G::SMin => leaf(op(b, AluOp::Imin, &[a, arg(b, 1)?])?),
        G::UMax => leaf(op(b, AluOp::Umax, &[a, arg(b, 1)?])?),
        G::SMax => leaf(op(b, AluOp::Imax, &[a, arg(b, 1)?])?),
        G::FClamp | G::NClamp | G::UClamp | G::SClamp => {
            // min(max(x, lo), hi), as NIR's fclamp/iclamp/uclamp expand.
            let (lo, hi) = (arg(b, 1)?, arg(b, 2)?);
            let (mx, mn) = match f {
                G::FClamp | G::NClamp => (AluOp::Fmax, AluOp::Fmin),
                G::SClamp => (AluOp::Imax, AluOp::Imin),
                _ => (AluOp::Umax, AluOp::Umin),
            };
            let t = op(b, mx, &[a, lo])?;
            leaf(op(b, mn, &[t, hi])?)
        }
        G::FMix => {
            let (y, t) = (arg(b, 1)?, arg(b, 2)?);
            leaf(op(b, AluOp::Flrp, &[a, y, t])?)
        }
        G::IMix => unsupported("it is reserved in GLSL.std.450"),
        G::Step => {
            // step(edge, x) = x < edge ? 0 : 1
            let x = args[1];
            let m = b.func.src_type(x).num_components();
            let edge = if n == 1 && m > 1 { splat(a, m)? } else { a };
            let lt = op(b, AluOp::Flt, &[x, edge])?;
            let zero = fconst(b, bits, 0.0, m)?;
            let one = fconst(b, bits, 1.0, m)?;
            leaf(op(b, AluOp::Bcsel, &[lt, zero, one])?)
        }
        G::SmoothStep => {
            // t = sat((x - e0) / (e1 - e0)); t * t * (3 - 2 t)
            let x = args[2];
            let m = b.func.src_type(x).num_components();
            let wide = |b: &Builder<'_>, s: Src| -> Result<Src, AluError> {
                if b.func.src_type(s).num_components() == 1 && m > 1 {
                    splat(s, m)
                } else {
                    Ok(s)
                }
            };
            let (e0, e1) = (wide(b, a)?, wide(b, args[1])?);
            let num = op(b, AluOp::Fsub, &[x, e0])?;
            let den = op(b, AluOp::Fsub, &[e1, e0])?;
            let q = op(b, AluOp::Fdiv, &[num, den])?;
            let t = op(b, AluOp::Fsat, &[q])?;
            let xb = b.func.src_type(x).bit_size();
            let two = fconst(b, xb, 2.0, m)?;
            let three = fconst(b, xb, 3.0, m)?;
            let t2 = op(b, AluOp::Fmul, &[two, t])?;
            let s = op(b, AluOp::Fsub, &[three, t2])?;
            let tt = op(b, AluOp::Fmul, &[t, t])?;
            leaf(op(b, AluOp::Fmul, &[tt, s])?)
        }
        G::Fma => leaf(op(b, AluOp::Ffma, &[a, args[1], args[2]])?),
        G::Ldexp => {
            let mut e = arg(b, 1)?;
            if b.func.src_type(e).bit_size() != 32 {
                e = op(b, AluOp::I2i32, &[e])?;
            }
            leaf(op(b, AluOp::Ldexp, &[a, e])?)
        }
        G::PackHalf2x16 => {
            if n != 2 {
                return Err(AluError::Invalid(
                    "PackHalf2x16 takes a 2-component vector".into(),
                ));
            }
            leaf(op(
                b,
                AluOp::PackHalf2x16Split,
                &[a.component(0), a.component(1)],
            )?)
        }
        G::UnpackHalf2x16 => {
            let x = op(b, AluOp::UnpackHalf2x16SplitX, &[a])?;
            let y = op(b, AluOp::UnpackHalf2x16SplitY, &[a])?;
            leaf(op(b, AluOp::Vec2, &[x, y])?)
        }
        G::PackDouble2x32 => {
            if n != 2 {
                return Err(AluError::Invalid(
                    "PackDouble2x32 takes a 2-component vector".into(),
                ));
            }
            leaf(op(
                b,
                AluOp::Pack64_2x32Split,
                &[a.component(0), a.component(1)],
            )?)
        }
        G::UnpackDouble2x32 => {
            let x = op(b, AluOp::Unpack64_2x32SplitX, &[a])?;
            let y = op(b, AluOp::Unpack64_2x32SplitY, &[a])?;
            leaf(op(b, AluOp::Vec2, &[x, y])?)
        }
        G::PackSnorm4x8 => leaf(pack_norm(b, a, Norm::SNORM8)?),
        G::PackUnorm4x8 => leaf(pack_norm(b, a, Norm::UNORM8)?),
        G::PackSnorm2x16 => leaf(pack_norm(b, a, Norm::SNORM16)?),
        G::PackUnorm2x16 => leaf(pack_norm(b, a, Norm::UNORM16)?),
        G::UnpackSnorm4x8 => leaf(unpack_norm(b, a, Norm::SNORM8)?),
        G::UnpackUnorm4x8 => leaf(unpack_norm(b, a, Norm::UNORM8)?),
        G::UnpackSnorm2x16 => leaf(unpack_norm(b, a, Norm::SNORM16)?),
        G::UnpackUnorm2x16 => leaf(unpack_norm(b, a, Norm::UNORM16)?),
        G::Length => {
            if n == 1 {
                return leaf(op(b, AluOp::Fabs, &[a])?);
            }
            let d = alu::fdot(b, a, a)?;
            leaf(op(b, AluOp::Fsqrt, &[d])?)
        }
        G::Distance => {
            let d = op(b, AluOp::Fsub, &[a, args[1]])?;
            glsl450(b, G::Length as u32, &[d], result_bits)
        }
        G::Cross => {
            let s = |x: Src, c: [u8; 3]| {
                super::value::select(x, &c)
                    .ok_or_else(|| AluError::Invalid("cross of a non-vector".into()))
            };
            if n != 3 {
                return Err(AluError::Invalid("Cross takes 3-component vectors".into()));
            }
            let y = args[1];
            let l = op(b, AluOp::Fmul, &[s(a, [1, 2, 0])?, s(y, [2, 0, 1])?])?;
            let r = op(b, AluOp::Fmul, &[s(a, [2, 0, 1])?, s(y, [1, 2, 0])?])?;
            leaf(op(b, AluOp::Fsub, &[l, r])?)
        }
        G::Normalize => {
            if n == 1 {
                return leaf(op(b, AluOp::Fsign, &[a])?);
            }
            let d = alu::fdot(b, a, a)?;
            let r = op(b, AluOp::Frsq, &[d])?;
            let r = splat(r, n)?;
            leaf(op(b, AluOp::Fmul, &[a, r])?)
        }
        G::FaceForward => {
            // dot(nref, i) < 0 ? n : -n
            let (nn, i, nref) = (a, args[1], args[2]);
            let d = alu::fdot(b, nref, i)?;
            let zero = fconst(b, bits, 0.0, 1)?;
            let lt = op(b, AluOp::Flt, &[d, zero])?;
            let neg = op(b, AluOp::Fneg, &[nn])?;
            let lt = splat(lt, n)?;
            leaf(op(b, AluOp::Bcsel, &[lt, nn, neg])?)
        }
        G::Reflect => {
            // i - 2 * dot(n, i) * n
            let (i, nn) = (a, args[1]);
            let d = alu::fdot(b, nn, i)?;
            let two = fconst(b, bits, 2.0, 1)?;
            let d2 = op(b, AluOp::Fmul, &[d, two])?;
            let d2 = splat(d2, n)?;
            let t = op(b, AluOp::Fmul, &[d2, nn])?;
            leaf(op(b, AluOp::Fsub, &[i, t])?)
        }
        G::Refract => {
            // k = 1 - eta^2 (1 - dot(n, i)^2); k < 0 ? 0 : eta i - (eta dot(n, i) + sqrt(k)) n
            let (i, nn, eta) = (a, args[1], args[2]);
            let one = fconst(b, bits, 1.0, 1)?;
            let d = alu::fdot(b, nn, i)?;
            let d2 = op(b, AluOp::Fmul, &[d, d])?;
            let om = op(b, AluOp::Fsub, &[one, d2])?;
            let e2 = op(b, AluOp::Fmul, &[eta, eta])?;
            let t = op(b, AluOp::Fmul, &[e2, om])?;
            let k = op(b, AluOp::Fsub, &[one, t])?;
            let sk = op(b, AluOp::Fsqrt, &[k])?;
            let ed = op(b, AluOp::Fmul, &[eta, d])?;
            let s = op(b, AluOp::Fadd, &[ed, sk])?;
            let eta_n = splat(eta, n)?;
            let ei = op(b, AluOp::Fmul, &[eta_n, i])?;
            let s_n = splat(s, n)?;
            let sn = op(b, AluOp::Fmul, &[s_n, nn])?;
            let r = op(b, AluOp::Fsub, &[ei, sn])?;
            let zero1 = fconst(b, bits, 0.0, 1)?;
            let neg = op(b, AluOp::Flt, &[k, zero1])?;
            let zero = fconst(b, bits, 0.0, n)?;
            let neg = splat(neg, n)?;
            leaf(op(b, AluOp::Bcsel, &[neg, zero, r])?)
        }
        G::FindILsb => {
            let r = op(b, AluOp::FindLsb, &[a])?;
            leaf(narrow(b, r, result_bits)?)
        }
        G::FindSMsb => {
            let r = op(b, AluOp::IfindMsb, &[a])?;
            leaf(narrow(b, r, result_bits)?)
        }
        G::FindUMsb => {
            let r = op(b, AluOp::UfindMsb, &[a])?;
            leaf(narrow(b, r, result_bits)?)
        }
        G::InterpolateAtCentroid | G::InterpolateAtSample | G::InterpolateAtOffset => {
            unsupported("compute shaders have no inputs to interpolate")
        }
    }
}

/// A 32-bit count result as the result type's width.
fn narrow(b: &mut Builder<'_>, r: Src, bits: u8) -> Result<Src, AluError> {
    match bits {
        32 => Ok(r),
        16 => op(b, AluOp::U2u16, &[r]),
        64 => op(b, AluOp::I2i64, &[r]),
        _ => Err(AluError::Invalid(format!("a {bits}-bit bit index"))),
    }
}

/// A normalized packing: signedness and bits per component.
#[derive(Copy, Clone)]
struct Norm {
    signed: bool,
    bits: u8,
}

impl Norm {
    const SNORM8: Norm = Norm {
        signed: true,
        bits: 8,
    };
    const UNORM8: Norm = Norm {
        signed: false,
        bits: 8,
    };
    const SNORM16: Norm = Norm {
        signed: true,
        bits: 16,
    };
    const UNORM16: Norm = Norm {
        signed: false,
        bits: 16,
    };

    /// Components in a 32-bit word.
    fn count(self) -> u8 {
        32 / self.bits
    }

    /// The integer that stands for 1.0: 255, 127, 65535 or 32767.
    fn scale(self) -> f64 {
        ((1u32 << (self.bits - u8::from(self.signed))) - 1) as f64
    }

    fn name(self) -> String {
        let kind = if self.signed { "Snorm" } else { "Unorm" };
        format!("{kind}{}x{}", self.count(), self.bits)
    }
}

/// `Pack{S,U}norm{4x8,2x16}`: GLSL's `round(clamp(c, 0, 1) * 255.0)` (or
/// `round(clamp(c, -1, 1) * 127.0)`, ...) per component, rounding to nearest even, each
/// in its bits of the word, the first component lowest. NIR's lowering:
/// `pack_uvec4_to_uint(f2u32(fround_even(fmul(fsat(v), 255.0))))`, and
/// `fmin(1.0, fmax(-1.0, v))` for snorm. The signed components are masked to their bits
/// before they are placed.
fn pack_norm(b: &mut Builder<'_>, v: Src, f: Norm) -> Result<Src, AluError> {
    let t = b.func.src_type(v);
    if t.num_components() != f.count() || t.bit_size() != 32 {
        return Err(AluError::Invalid(format!(
            "Pack{} takes a vector of {} 32-bit floats",
            f.name(),
            f.count()
        )));
    }
    let n = f.count();
    let clamped = if f.signed {
        let lo = fconst(b, 32, -1.0, n)?;
        let hi = fconst(b, 32, 1.0, n)?;
        let m = op(b, AluOp::Fmax, &[lo, v])?;
        op(b, AluOp::Fmin, &[hi, m])?
    } else {
        op(b, AluOp::Fsat, &[v])?
    };
    let scale = fconst(b, 32, f.scale(), n)?;
    let scaled = op(b, AluOp::Fmul, &[clamped, scale])?;
    let rounded = op(b, AluOp::FroundEven, &[scaled])?;
    let ints = op(
        b,
        if f.signed { AluOp::F2i32 } else { AluOp::F2u32 },
        &[rounded],
    )?;
    let mask = Src::new(b.imm_u32(((1u64 << f.bits) - 1) as u32));
    let mut word: Option<Src> = None;
    for i in 0..n {
        let mut c = ints.component(i);
        // A negative component has its sign bits above its own; the last one's shift
        // drops them.
        if f.signed && i + 1 < n {
            c = op(b, AluOp::Iand, &[c, mask])?;
        }
        if i > 0 {
            let sh = Src::new(b.imm_u32(u32::from(f.bits * i)));
            c = op(b, AluOp::Ishl, &[c, sh])?;
        }
        word = Some(match word {
            Some(w) => op(b, AluOp::Ior, &[w, c])?,
            None => c,
        });
    }
    word.ok_or_else(|| AluError::Invalid("a packing of no components".into()))
}

/// `Unpack{S,U}norm{4x8,2x16}`: each component of the word, the first lowest, as
/// `f / 255.0` (unorm) or `clamp(f / 127.0, -1, 1)` (snorm; the most negative integer
/// gives -1.0). NIR's lowering: `fdiv(vec4(u2f32(extract_u8(v, 0)), ...), 255.0)`, and
/// `fmin(1.0, fmax(-1.0, fdiv(vec4(i2f32(...), ...), 127.0)))` for snorm.
fn unpack_norm(b: &mut Builder<'_>, v: Src, f: Norm) -> Result<Src, AluError> {
    let t = b.func.src_type(v);
    if t.num_components() != 1 || t.bit_size() != 32 {
        return Err(AluError::Invalid(format!(
            "Unpack{} takes a 32-bit integer",
            f.name()
        )));
    }
    let extract = match (f.signed, f.bits) {
        (false, 8) => AluOp::ExtractU8,
        (true, 8) => AluOp::ExtractI8,
        (false, _) => AluOp::ExtractU16,
        (true, _) => AluOp::ExtractI16,
    };
    let n = f.count();
    let convert = if f.signed { AluOp::I2f32 } else { AluOp::U2f32 };
    // Each field converted on its own, as scalar NIR has it: the back end then reads
    // the field as the conversion's byte or word region (`visa::fold`'s fields).
    let mut comps = Vec::with_capacity(n as usize);
    for i in 0..n {
        let k = Src::new(b.imm_u32(u32::from(i)));
        let field = op(b, extract, &[v, k])?;
        comps.push(op(b, convert, &[field])?);
    }
    let fl = op(
        b,
        AluOp::vec(n).ok_or_else(|| AluError::Invalid("a vector".into()))?,
        &comps,
    )?;
    let scale = fconst(b, 32, f.scale(), n)?;
    let q = op(b, AluOp::Fdiv, &[fl, scale])?;
    if !f.signed {
        return Ok(q);
    }
    let lo = fconst(b, 32, -1.0, n)?;
    let hi = fconst(b, 32, 1.0, n)?;
    let m = op(b, AluOp::Fmax, &[lo, q])?;
    op(b, AluOp::Fmin, &[hi, m])
}
