//! `asin`, `acos`, `atan` and `atan2` as Mesa builds them (`build_asin` in
//! `vtn_glsl450.c`, `nir_atan` and `nir_atan2` in `nir_builtin_builder.c`): the IR, as
//! NIR, has no op for them, and a driver lowers them to the same polynomials of its
//! ALU ops, so the expansions (their coefficients, their order of operations) are
//! Mesa's rather than ones of this translator's choosing. Vulkan bounds them loosely
//! (`atan` within 4096 ULP, the others "inherited from" `atan2`), which these meet.
//!
//! 16-bit operands are computed in 32 bits and converted back, as Mesa does for
//! `asin` (its polynomial is not precise enough in half floats); 64-bit ones are
//! refused (GLSL.std.450 defines them for 16- and 32-bit floats only).

use super::alu::{fconst, op, AluError};
use ir::{AluOp, Builder, Src};
use spirv::GlslStd450Op as G;

/// `f` (`Asin`, `Acos`, `Atan` or `Atan2`) of `args` (`Atan2` takes `y`, `x`).
pub fn inverse_trig(b: &mut Builder<'_>, f: G, args: &[Src]) -> Result<Src, AluError> {
    let bits = b.func.src_type(args[0]).bit_size();
    match bits {
        32 => inverse_trig32(b, f, args),
        16 => {
            let wide: Vec<Src> = args
                .iter()
                .map(|&a| op(b, AluOp::F2f32, &[a]))
                .collect::<Result<_, _>>()?;
            let r = inverse_trig32(b, f, &wide)?;
            op(b, AluOp::F2f16, &[r])
        }
        _ => Err(AluError::Invalid(format!(
            "GLSL.std.450 {f:?} of {bits}-bit floats (it takes 16- and 32-bit ones)"
        ))),
    }
}

fn inverse_trig32(b: &mut Builder<'_>, f: G, args: &[Src]) -> Result<Src, AluError> {
    match f {
        // Mesa's p0, p1: 0.086566724, -0.03102955 (asin); 0.08132463, -0.02363318
        // (acos), as the nearest floats.
        G::Asin => asin(
            b,
            args[0],
            f32::from_bits(0x3db1_49e5),
            f32::from_bits(0xbcfe_31af),
            true,
        ),
        G::Acos => {
            let n = b.func.src_type(args[0]).num_components();
            let (p0, p1) = (f32::from_bits(0x3da6_8d87), f32::from_bits(0xbcc1_9a5f));
            let r = asin(b, args[0], p0, p1, false)?;
            let half_pi = c32(b, std::f32::consts::FRAC_PI_2, n)?;
            op(b, AluOp::Fsub, &[half_pi, r])
        }
        G::Atan => atan(b, args[0]),
        G::Atan2 => atan2(b, args[0], args[1]),
        other => Err(AluError::Invalid(format!(
            "GLSL.std.450 {other:?} is not an inverse trigonometric function"
        ))),
    }
}

/// A 32-bit float constant of `n` components.
fn c32(b: &mut Builder<'_>, v: f32, n: u8) -> Result<Src, AluError> {
    fconst(b, 32, f64::from(v), n)
}

/// Mesa's `build_asin`: `sign(x) (π/2 - √(1 - |x|) (π/2 + |x| (π/4 - 1 + |x| (p0 +
/// |x| p1))))`, and where `piecewise`, for `|x| < 1/2` the rational approximation
/// `x + x · x² P(x²) / Q(x²)` (fdlibm's coefficients).
fn asin(b: &mut Builder<'_>, x: Src, p0: f32, p1: f32, piecewise: bool) -> Result<Src, AluError> {
    let n = b.func.src_type(x).num_components();
    let one = c32(b, 1.0, n)?;
    let abs_x = op(b, AluOp::Fabs, &[x])?;
    let (k1, k0) = (c32(b, p1, n)?, c32(b, p0, n)?);
    let p0_plus_xp1 = op(b, AluOp::Ffma, &[abs_x, k1, k0])?;
    let quarter = c32(b, std::f32::consts::FRAC_PI_4 - 1.0, n)?;
    let inner = op(b, AluOp::Ffma, &[abs_x, p0_plus_xp1, quarter])?;
    let half_pi = c32(b, std::f32::consts::FRAC_PI_2, n)?;
    let tail = op(b, AluOp::Ffma, &[abs_x, inner, half_pi])?;
    let rest = op(b, AluOp::Fsub, &[one, abs_x])?;
    let root = op(b, AluOp::Fsqrt, &[rest])?;
    let neg_root = op(b, AluOp::Fneg, &[root])?;
    let diff = op(b, AluOp::Ffma, &[neg_root, tail, half_pi])?;
    let sign = op(b, AluOp::Fsign, &[x])?;
    let result0 = op(b, AluOp::Fmul, &[sign, diff])?;
    if !piecewise {
        return Ok(result0);
    }
    // 1.6666586697e-01, -4.2743422091e-02, -8.6563630030e-03, -7.0662963390e-01.
    let (ps0, ps1, ps2, qs1) = (
        c32(b, f32::from_bits(0x3e2a_aa75), n)?,
        c32(b, f32::from_bits(0xbd2f_13ba), n)?,
        c32(b, f32::from_bits(0xbc0d_d36b), n)?,
        c32(b, f32::from_bits(0xbf34_e5ae), n)?,
    );
    let x2 = op(b, AluOp::Fmul, &[x, x])?;
    let t = op(b, AluOp::Ffma, &[x2, ps2, ps1])?;
    let t = op(b, AluOp::Ffma, &[x2, t, ps0])?;
    let p = op(b, AluOp::Fmul, &[x2, t])?;
    let q = op(b, AluOp::Ffma, &[x2, qs1, one])?;
    let pq = op(b, AluOp::Fdiv, &[p, q])?;
    let result1 = op(b, AluOp::Ffma, &[x, pq, x])?;
    let half = c32(b, 0.5, n)?;
    let small = op(b, AluOp::Flt, &[abs_x, half])?;
    op(b, AluOp::Bcsel, &[small, result1, result0])
}

/// Mesa's `nir_atan`: the argument reduced to `[0, 1]` (`min(|y|, 1) / max(|y|, 1)`),
/// an odd polynomial of degree 11 summed from its lowest term, `π/2 - 2 t` where the
/// argument was above 1, and the sign of `y`.
fn atan(b: &mut Builder<'_>, y: Src) -> Result<Src, AluError> {
    let n = b.func.src_type(y).num_components();
    let one = c32(b, 1.0, n)?;
    let abs_y = op(b, AluOp::Fabs, &[y])?;
    let lo = op(b, AluOp::Fmin, &[abs_y, one])?;
    let hi = op(b, AluOp::Fmax, &[abs_y, one])?;
    let x = op(b, AluOp::Fdiv, &[lo, hi])?;
    let x2 = op(b, AluOp::Fmul, &[x, x])?;
    let mut power = x;
    let mut sum: Option<Src> = None;
    // 0.9999793128310355, -0.3326756418091246, 0.1938924977115610,
    // -0.1173503194786851, 0.0536813784310406, -0.0121323213173444: the nearest floats.
    for (k, bits) in [
        0x3f7f_fea5_u32,
        0xbeaa_5476,
        0x3e46_8bc1,
        0xbdf0_555d,
        0x3d5b_e101,
        0xbc46_c6a5,
    ]
    .into_iter()
    .enumerate()
    {
        let coefficient = f32::from_bits(bits);
        if k > 0 {
            power = op(b, AluOp::Fmul, &[power, x2])?;
        }
        let c = c32(b, coefficient, n)?;
        let term = op(b, AluOp::Fmul, &[power, c])?;
        sum = Some(match sum {
            None => term,
            Some(s) => op(b, AluOp::Fadd, &[s, term])?,
        });
    }
    let tmp = sum.ok_or_else(|| AluError::Invalid("an empty polynomial".into()))?;
    let above = op(b, AluOp::Flt, &[one, abs_y])?;
    let above = op(b, AluOp::B2f32, &[above])?;
    let (m2, half_pi) = (c32(b, -2.0, n)?, c32(b, std::f32::consts::FRAC_PI_2, n)?);
    let fix = op(b, AluOp::Ffma, &[tmp, m2, half_pi])?;
    let tmp = op(b, AluOp::Ffma, &[above, fix, tmp])?;
    let sign = op(b, AluOp::Fsign, &[y])?;
    op(b, AluOp::Fmul, &[tmp, sign])
}

/// Mesa's `nir_atan2`: the left half-plane rotated by π/2 (so that no division by a
/// zero `x` happens), huge denominators scaled by 1/4 before the reciprocal, `|x| =
/// |y|` taken as a tangent of 1 (atan2(±∞, ±∞) as IEEE 754 has it), and the sign
/// from `min(y, 1/t)`.
fn atan2(b: &mut Builder<'_>, y: Src, x: Src) -> Result<Src, AluError> {
    let n = b.func.src_type(x).num_components();
    let zero = c32(b, 0.0, n)?;
    let one = c32(b, 1.0, n)?;
    let flip = op(b, AluOp::Fge, &[zero, x])?;
    let abs_x = op(b, AluOp::Fabs, &[x])?;
    let s = op(b, AluOp::Bcsel, &[flip, abs_x, y])?;
    let t = op(b, AluOp::Bcsel, &[flip, y, abs_x])?;
    let huge = c32(b, 1.0e18, n)?;
    let abs_t = op(b, AluOp::Fabs, &[t])?;
    let is_huge = op(b, AluOp::Fge, &[abs_t, huge])?;
    let quarter = c32(b, 0.25, n)?;
    let scale = op(b, AluOp::Bcsel, &[is_huge, quarter, one])?;
    let scaled_t = op(b, AluOp::Fmul, &[t, scale])?;
    let rcp_scaled_t = op(b, AluOp::Frcp, &[scaled_t])?;
    let scaled_s = op(b, AluOp::Fmul, &[s, scale])?;
    let s_over_t = op(b, AluOp::Fmul, &[scaled_s, rcp_scaled_t])?;
    let abs_y = op(b, AluOp::Fabs, &[y])?;
    let diagonal = op(b, AluOp::Feq, &[abs_x, abs_y])?;
    let abs_q = op(b, AluOp::Fabs, &[s_over_t])?;
    let tan = op(b, AluOp::Bcsel, &[diagonal, one, abs_q])?;
    let flipped = op(b, AluOp::B2f32, &[flip])?;
    let half_pi = c32(b, std::f32::consts::FRAC_PI_2, n)?;
    let at = atan(b, tan)?;
    let arc = op(b, AluOp::Ffma, &[flipped, half_pi, at])?;
    let m = op(b, AluOp::Fmin, &[y, rcp_scaled_t])?;
    let negative = op(b, AluOp::Flt, &[m, zero])?;
    let neg_arc = op(b, AluOp::Fneg, &[arc])?;
    op(b, AluOp::Bcsel, &[negative, neg_arc, arc])
}
