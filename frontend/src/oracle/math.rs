//! naga's math functions as NIR ALU ops, or as the expansions NIR's GLSL and SPIR-V
//! front ends use (`tan = sin / cos`, `exp(x) = exp2(x * log2(e))`, `length =
//! sqrt(dot(x, x))`, `smoothstep`, `step`, ...). Functions the IR has no op or exact
//! expansion for (matrix inverse, the packing functions without an IR op) are errors
//! naming the function, never an approximation of our own.

use crate::error::ImportError;
use crate::oracle::context::Ctx;
use crate::oracle::ops::{fconst, iconst, splat};
use crate::oracle::value::Val;
use ir::{AluOp, Src};
use naga::{MathFunction as M, ScalarKind};

/// The GLSL/WGSL spelling of a math function, for messages.
pub fn spelling(f: M) -> &'static str {
    match f {
        M::Abs => "abs",
        M::Min => "min",
        M::Max => "max",
        M::Clamp => "clamp",
        M::Saturate => "saturate",
        M::Cos => "cos",
        M::Cosh => "cosh",
        M::Sin => "sin",
        M::Sinh => "sinh",
        M::Tan => "tan",
        M::Tanh => "tanh",
        M::Acos => "acos",
        M::Asin => "asin",
        M::Atan => "atan",
        M::Atan2 => "atan2",
        M::Asinh => "asinh",
        M::Acosh => "acosh",
        M::Atanh => "atanh",
        M::Radians => "radians",
        M::Degrees => "degrees",
        M::Ceil => "ceil",
        M::Floor => "floor",
        M::Round => "round",
        M::Fract => "fract",
        M::Trunc => "trunc",
        M::Modf => "modf",
        M::Frexp => "frexp",
        M::Ldexp => "ldexp",
        M::Exp => "exp",
        M::Exp2 => "exp2",
        M::Log => "log",
        M::Log2 => "log2",
        M::Pow => "pow",
        M::Dot => "dot",
        M::Dot4I8Packed => "dot4I8Packed",
        M::Dot4U8Packed => "dot4U8Packed",
        M::Outer => "outerProduct",
        M::Cross => "cross",
        M::Distance => "distance",
        M::Length => "length",
        M::Normalize => "normalize",
        M::FaceForward => "faceForward",
        M::Reflect => "reflect",
        M::Refract => "refract",
        M::Sign => "sign",
        M::Fma => "fma",
        M::Mix => "mix",
        M::Step => "step",
        M::SmoothStep => "smoothstep",
        M::Sqrt => "sqrt",
        M::InverseSqrt => "inverseSqrt",
        M::Inverse => "inverse",
        M::Transpose => "transpose",
        M::Determinant => "determinant",
        M::QuantizeToF16 => "quantizeToF16",
        M::CountTrailingZeros => "countTrailingZeros",
        M::CountLeadingZeros => "countLeadingZeros",
        M::CountOneBits => "countOneBits",
        M::ReverseBits => "reverseBits",
        M::ExtractBits => "extractBits",
        M::InsertBits => "insertBits",
        M::FirstTrailingBit => "firstTrailingBit",
        M::FirstLeadingBit => "firstLeadingBit",
        M::Pack4x8snorm => "pack4x8snorm",
        M::Pack4x8unorm => "pack4x8unorm",
        M::Pack2x16snorm => "pack2x16snorm",
        M::Pack2x16unorm => "pack2x16unorm",
        M::Pack2x16float => "pack2x16float",
        M::Pack4xI8 => "pack4xI8",
        M::Pack4xU8 => "pack4xU8",
        M::Pack4xI8Clamp => "pack4xI8Clamp",
        M::Pack4xU8Clamp => "pack4xU8Clamp",
        M::Unpack4x8snorm => "unpack4x8snorm",
        M::Unpack4x8unorm => "unpack4x8unorm",
        M::Unpack2x16snorm => "unpack2x16snorm",
        M::Unpack2x16unorm => "unpack2x16unorm",
        M::Unpack2x16float => "unpack2x16float",
        M::Unpack4xI8 => "unpack4xI8",
        M::Unpack4xU8 => "unpack4xU8",
    }
}

/// One ALU op on sources.
fn op(ctx: &mut Ctx<'_>, alu: AluOp, srcs: &[Src]) -> Result<Src, ImportError> {
    Ok(Src::new(ctx.alu(alu, srcs)?))
}

/// The dot product of two float vectors (`fdot2/3/4`; a scalar product for one
/// component).
pub fn fdot(ctx: &mut Ctx<'_>, a: Src, b: Src) -> Result<Src, ImportError> {
    let alu = match ctx.comps(a) {
        1 => AluOp::Fmul,
        2 => AluOp::Fdot2,
        3 => AluOp::Fdot3,
        4 => AluOp::Fdot4,
        n => return Err(ctx.internal(format!("a dot product of {n} components"))),
    };
    op(ctx, alu, &[a, b])
}

/// A math function of scalar or vector arguments (`args` holds 1 to 4), of kind
/// `kind`, whose result is a scalar or vector.
pub fn math(ctx: &mut Ctx<'_>, fun: M, kind: ScalarKind, args: &[Src]) -> Result<Src, ImportError> {
    let float = kind == ScalarKind::Float;
    let signed = kind == ScalarKind::Sint;
    let a = args[0];
    let n = ctx.comps(a);
    let bits = ctx.src_type(a).bit_size();
    // Scalar operands of vector functions (mix's and clamp's in GLSL) are splatted.
    let arg = |i: usize, ctx: &Ctx<'_>| -> Src {
        let s = args[i];
        if ctx.comps(s) == 1 && n > 1 {
            splat(s, n)
        } else {
            s
        }
    };
    let unsupported =
        |ctx: &Ctx<'_>, why: &str| ctx.unsupported(&format!("`{}`", spelling(fun)), why);
    match fun {
        M::Abs if float => op(ctx, AluOp::Fabs, &[a]),
        M::Abs if signed => op(ctx, AluOp::Iabs, &[a]),
        M::Abs => Ok(a),
        M::Min | M::Max => {
            let b = arg(1, ctx);
            let alu = match (fun, kind) {
                (M::Min, ScalarKind::Float) => AluOp::Fmin,
                (M::Min, ScalarKind::Sint) => AluOp::Imin,
                (M::Min, _) => AluOp::Umin,
                (_, ScalarKind::Float) => AluOp::Fmax,
                (_, ScalarKind::Sint) => AluOp::Imax,
                _ => AluOp::Umax,
            };
            op(ctx, alu, &[a, b])
        }
        M::Clamp => {
            // min(max(x, lo), hi), as NIR's fclamp/iclamp/uclamp expand.
            let (lo, hi) = (arg(1, ctx), arg(2, ctx));
            let (mx, mn) = match kind {
                ScalarKind::Float => (AluOp::Fmax, AluOp::Fmin),
                ScalarKind::Sint => (AluOp::Imax, AluOp::Imin),
                _ => (AluOp::Umax, AluOp::Umin),
            };
            let t = op(ctx, mx, &[a, lo])?;
            op(ctx, mn, &[t, hi])
        }
        M::Saturate => op(ctx, AluOp::Fsat, &[a]),
        M::Cos => op(ctx, AluOp::Fcos, &[a]),
        M::Sin => op(ctx, AluOp::Fsin, &[a]),
        M::Tan => {
            let s = op(ctx, AluOp::Fsin, &[a])?;
            let c = op(ctx, AluOp::Fcos, &[a])?;
            op(ctx, AluOp::Fdiv, &[s, c])
        }
        M::Radians | M::Degrees => {
            let k = if fun == M::Radians {
                std::f64::consts::PI / 180.0
            } else {
                180.0 / std::f64::consts::PI
            };
            let c = fconst(ctx, bits, k, n)?;
            op(ctx, AluOp::Fmul, &[a, c])
        }
        M::Ceil => op(ctx, AluOp::Fceil, &[a]),
        M::Floor => op(ctx, AluOp::Ffloor, &[a]),
        // WGSL's and GLSL's round as naga gives it: ties to even.
        M::Round => op(ctx, AluOp::FroundEven, &[a]),
        M::Fract => op(ctx, AluOp::Ffract, &[a]),
        M::Trunc => op(ctx, AluOp::Ftrunc, &[a]),
        M::Ldexp => {
            let e = arg(1, ctx);
            let e = if ctx.src_type(e).bit_size() != 32 {
                op(ctx, AluOp::I2i32, &[e])?
            } else {
                e
            };
            op(ctx, AluOp::Ldexp, &[a, e])
        }
        M::Exp | M::Log => {
            // exp(x) = exp2(x * log2(e)); log(x) = log2(x) * ln(2).
            if fun == M::Exp {
                let k = fconst(ctx, bits, std::f64::consts::LOG2_E, n)?;
                let t = op(ctx, AluOp::Fmul, &[a, k])?;
                op(ctx, AluOp::Fexp2, &[t])
            } else {
                let k = fconst(ctx, bits, std::f64::consts::LN_2, n)?;
                let t = op(ctx, AluOp::Flog2, &[a])?;
                op(ctx, AluOp::Fmul, &[t, k])
            }
        }
        M::Exp2 => op(ctx, AluOp::Fexp2, &[a]),
        M::Log2 => op(ctx, AluOp::Flog2, &[a]),
        M::Pow => op(ctx, AluOp::Fpow, &[a, args[1]]),
        M::Dot if float => fdot(ctx, a, args[1]),
        M::Dot => {
            let p = op(ctx, AluOp::Imul, &[a, args[1]])?;
            let mut acc = p.component(0);
            for i in 1..n {
                acc = op(ctx, AluOp::Iadd, &[acc, p.component(i)])?;
            }
            Ok(acc)
        }
        M::Cross => {
            // a.yzx * b.zxy - a.zxy * b.yzx
            let b = args[1];
            let sw = |s: Src, c: [u8; 3]| crate::oracle::value::select(s, &c);
            let l = op(ctx, AluOp::Fmul, &[sw(a, [1, 2, 0]), sw(b, [2, 0, 1])])?;
            let r = op(ctx, AluOp::Fmul, &[sw(a, [2, 0, 1]), sw(b, [1, 2, 0])])?;
            op(ctx, AluOp::Fsub, &[l, r])
        }
        M::Length => {
            if n == 1 {
                return op(ctx, AluOp::Fabs, &[a]);
            }
            let d = fdot(ctx, a, a)?;
            op(ctx, AluOp::Fsqrt, &[d])
        }
        M::Distance => {
            let d = op(ctx, AluOp::Fsub, &[a, args[1]])?;
            math(ctx, M::Length, kind, &[d])
        }
        M::Normalize => {
            if n == 1 {
                return op(ctx, AluOp::Fsign, &[a]);
            }
            let d = fdot(ctx, a, a)?;
            let r = op(ctx, AluOp::Frsq, &[d])?;
            op(ctx, AluOp::Fmul, &[a, splat(r, n)])
        }
        M::FaceForward => {
            // dot(nref, i) < 0 ? n : -n
            let (nn, i, nref) = (a, args[1], args[2]);
            let d = fdot(ctx, nref, i)?;
            let zero = fconst(ctx, bits, 0.0, 1)?;
            let lt = op(ctx, AluOp::Flt, &[d, zero])?;
            let neg = op(ctx, AluOp::Fneg, &[nn])?;
            op(ctx, AluOp::Bcsel, &[splat(lt, n), nn, neg])
        }
        M::Reflect => {
            // i - 2 * dot(n, i) * n
            let (i, nn) = (a, args[1]);
            let d = fdot(ctx, nn, i)?;
            let two = fconst(ctx, bits, 2.0, 1)?;
            let d2 = op(ctx, AluOp::Fmul, &[d, two])?;
            let t = op(ctx, AluOp::Fmul, &[splat(d2, n), nn])?;
            op(ctx, AluOp::Fsub, &[i, t])
        }
        M::Refract => {
            // k = 1 - eta^2 (1 - dot(n, i)^2); k < 0 ? 0 : eta i - (eta dot(n, i) + sqrt(k)) n
            let (i, nn, eta) = (a, args[1], args[2]);
            let one = fconst(ctx, bits, 1.0, 1)?;
            let d = fdot(ctx, nn, i)?;
            let d2 = op(ctx, AluOp::Fmul, &[d, d])?;
            let om = op(ctx, AluOp::Fsub, &[one, d2])?;
            let e2 = op(ctx, AluOp::Fmul, &[eta, eta])?;
            let t = op(ctx, AluOp::Fmul, &[e2, om])?;
            let k = op(ctx, AluOp::Fsub, &[one, t])?;
            let sk = op(ctx, AluOp::Fsqrt, &[k])?;
            let ed = op(ctx, AluOp::Fmul, &[eta, d])?;
            let s = op(ctx, AluOp::Fadd, &[ed, sk])?;
            let ei = op(ctx, AluOp::Fmul, &[splat(eta, n), i])?;
            let sn = op(ctx, AluOp::Fmul, &[splat(s, n), nn])?;
            let r = op(ctx, AluOp::Fsub, &[ei, sn])?;
            let zero1 = fconst(ctx, bits, 0.0, 1)?;
            let neg = op(ctx, AluOp::Flt, &[k, zero1])?;
            let zero = fconst(ctx, bits, 0.0, n)?;
            op(ctx, AluOp::Bcsel, &[splat(neg, n), zero, r])
        }
        M::Sign if float => op(ctx, AluOp::Fsign, &[a]),
        M::Sign if signed => op(ctx, AluOp::Isign, &[a]),
        M::Sign => {
            // An unsigned sign: 0 or 1.
            let z = iconst(ctx, bits, 0, n)?;
            let ne = op(ctx, AluOp::Ine, &[a, z])?;
            let one = iconst(ctx, bits, 1, n)?;
            op(ctx, AluOp::Bcsel, &[ne, one, z])
        }
        M::Fma => op(ctx, AluOp::Ffma, &[a, args[1], args[2]]),
        M::Mix => {
            let (b, t) = (arg(1, ctx), arg(2, ctx));
            if ctx.src_type(t).bit_size() == 1 {
                // GLSL's mix with a boolean selector.
                return op(ctx, AluOp::Bcsel, &[t, b, a]);
            }
            op(ctx, AluOp::Flrp, &[a, b, t])
        }
        M::Step => {
            // step(edge, x) = x < edge ? 0 : 1
            let (edge, x) = (a, arg(1, ctx));
            let (edge, x) = if ctx.comps(edge) == 1 && ctx.comps(x) > 1 {
                (splat(edge, ctx.comps(x)), x)
            } else {
                (edge, x)
            };
            let m = ctx.comps(x);
            let lt = op(ctx, AluOp::Flt, &[x, edge])?;
            let zero = fconst(ctx, bits, 0.0, m)?;
            let one = fconst(ctx, bits, 1.0, m)?;
            op(ctx, AluOp::Bcsel, &[lt, zero, one])
        }
        M::SmoothStep => {
            // t = sat((x - e0) / (e1 - e0)); t * t * (3 - 2 t)
            let x = args[2];
            let m = ctx.comps(x);
            let wide = |s: Src, ctx: &Ctx<'_>| {
                if ctx.comps(s) == 1 && m > 1 {
                    splat(s, m)
                } else {
                    s
                }
            };
            let (e0, e1) = (wide(a, ctx), wide(args[1], ctx));
            let num = op(ctx, AluOp::Fsub, &[x, e0])?;
            let den = op(ctx, AluOp::Fsub, &[e1, e0])?;
            let q = op(ctx, AluOp::Fdiv, &[num, den])?;
            let t = op(ctx, AluOp::Fsat, &[q])?;
            let two = fconst(ctx, bits, 2.0, m)?;
            let three = fconst(ctx, bits, 3.0, m)?;
            let t2 = op(ctx, AluOp::Fmul, &[two, t])?;
            let s = op(ctx, AluOp::Fsub, &[three, t2])?;
            let tt = op(ctx, AluOp::Fmul, &[t, t])?;
            op(ctx, AluOp::Fmul, &[tt, s])
        }
        M::Sqrt => op(ctx, AluOp::Fsqrt, &[a]),
        M::InverseSqrt => op(ctx, AluOp::Frsq, &[a]),
        M::QuantizeToF16 if bits == 32 => op(ctx, AluOp::Fquantize2f16, &[a]),
        M::CountTrailingZeros => {
            // find_lsb(0) = -1 (all ones), so umin with the width gives the width.
            let l = op(ctx, AluOp::FindLsb, &[a])?;
            let w = iconst(ctx, 32, bits as i64, n)?;
            let r = op(ctx, AluOp::Umin, &[l, w])?;
            narrow(ctx, r, bits)
        }
        M::CountLeadingZeros => {
            // bits - 1 - ufind_msb(x); ufind_msb(0) = -1 gives bits.
            let m = op(ctx, AluOp::UfindMsb, &[a])?;
            let w = iconst(ctx, 32, bits as i64 - 1, n)?;
            let r = op(ctx, AluOp::Isub, &[w, m])?;
            narrow(ctx, r, bits)
        }
        M::CountOneBits => {
            let r = op(ctx, AluOp::BitCount, &[a])?;
            narrow(ctx, r, bits)
        }
        M::ReverseBits if bits == 32 => op(ctx, AluOp::BitfieldReverse, &[a]),
        M::FirstTrailingBit => {
            let r = op(ctx, AluOp::FindLsb, &[a])?;
            narrow(ctx, r, bits)
        }
        M::FirstLeadingBit if bits == 32 => {
            let alu = if signed {
                AluOp::IfindMsb
            } else {
                AluOp::UfindMsb
            };
            op(ctx, alu, &[a])
        }
        M::ExtractBits if bits == 32 => {
            // WGSL: o = min(offset, 32), c = min(count, 32 - o); c == 0 gives 0. NIR's
            // ubfe/ibfe take offset and count modulo 32, so the clamps come first.
            let (off, cnt) = (splat(args[1], n), splat(args[2], n));
            let w = iconst(ctx, 32, 32, n)?;
            let o = op(ctx, AluOp::Umin, &[off, w])?;
            let room = op(ctx, AluOp::Isub, &[w, o])?;
            let c = op(ctx, AluOp::Umin, &[cnt, room])?;
            let alu = if signed { AluOp::Ibfe } else { AluOp::Ubfe };
            let r = op(ctx, alu, &[a, o, c])?;
            // A 32-bit field (o = 0, c = 32) is the whole value; ubfe's count 32 is 0.
            let whole = op(ctx, AluOp::Ieq, &[c, w])?;
            op(ctx, AluOp::Bcsel, &[whole, a, r])
        }
        M::InsertBits if bits == 32 => {
            // WGSL: o = min(offset, 32), c = min(count, 32 - o), then GLSL's
            // bitfieldInsert, which NIR's bitfield_insert computes for o + c <= 32.
            let (newbits, off, cnt) = (args[1], splat(args[2], n), splat(args[3], n));
            let w = iconst(ctx, 32, 32, n)?;
            let o = op(ctx, AluOp::Umin, &[off, w])?;
            let room = op(ctx, AluOp::Isub, &[w, o])?;
            let c = op(ctx, AluOp::Umin, &[cnt, room])?;
            op(ctx, AluOp::BitfieldInsert, &[a, newbits, o, c])
        }
        M::Pack2x16float => {
            let lo = a.component(0);
            let hi = a.component(1);
            op(ctx, AluOp::PackHalf2x16Split, &[lo, hi])
        }
        M::Unpack2x16float => {
            let x = op(ctx, AluOp::UnpackHalf2x16SplitX, &[a])?;
            let y = op(ctx, AluOp::UnpackHalf2x16SplitY, &[a])?;
            ctx.vec(&[x, y])
        }
        M::ExtractBits | M::InsertBits | M::ReverseBits | M::FirstLeadingBit => Err(unsupported(
            ctx,
            &format!("the IR's bitfield ops are 32-bit, this operand is {bits}-bit"),
        )),
        M::QuantizeToF16 => Err(unsupported(ctx, "the IR's fquantize2f16 is 32-bit")),
        M::Cosh | M::Sinh | M::Tanh | M::Asinh | M::Acosh | M::Atanh => {
            // The formulas Vulkan defines them by, built as the SPIR-V translator
            // builds them (so the two agree bit for bit; their values are checked by
            // hand in frontend/tests/semantics.rs).
            use spirv::GlslStd450Op as G;
            let g = match fun {
                M::Cosh => G::Cosh,
                M::Sinh => G::Sinh,
                M::Tanh => G::Tanh,
                M::Asinh => G::Asinh,
                M::Acosh => G::Acosh,
                _ => G::Atanh,
            };
            ctx.build(|b| crate::spirv::glsl450::hyperbolic(b, g, a))
                .map_err(|e| match e {
                    crate::spirv::alu::AluError::Unsupported(m)
                    | crate::spirv::alu::AluError::Invalid(m) => unsupported(ctx, &m),
                })
        }
        M::Acos | M::Asin | M::Atan | M::Atan2 => {
            // Mesa's polynomials, built as the SPIR-V translator builds them.
            use spirv::GlslStd450Op as G;
            let (g, srcs) = match fun {
                M::Acos => (G::Acos, vec![a]),
                M::Asin => (G::Asin, vec![a]),
                M::Atan => (G::Atan, vec![a]),
                _ => (G::Atan2, vec![a, arg(1, ctx)]),
            };
            ctx.build(|b| crate::spirv::inverse_trig::inverse_trig(b, g, &srcs))
                .map_err(|e| match e {
                    crate::spirv::alu::AluError::Unsupported(m)
                    | crate::spirv::alu::AluError::Invalid(m) => unsupported(ctx, &m),
                })
        }
        _ => Err(unsupported(ctx, "the IR has no op for it")),
    }
}

/// A 32-bit count result as the operand's width (naga's result type).
fn narrow(ctx: &mut Ctx<'_>, r: Src, bits: u8) -> Result<Src, ImportError> {
    match bits {
        32 => Ok(r),
        16 => op(ctx, AluOp::U2u16, &[r]),
        64 => op(ctx, AluOp::U2u64, &[r]),
        _ => Err(ctx.internal(format!("a {bits}-bit count"))),
    }
}

/// `transpose` of a matrix value (columns of `rows` components).
pub fn transpose(ctx: &mut Ctx<'_>, m: &Val, rows: u8) -> Result<Val, ImportError> {
    let cols = m.leaves();
    let mut out = Vec::with_capacity(rows as usize);
    for r in 0..rows {
        let comps: Vec<Src> = cols.iter().map(|c| c.component(r)).collect();
        out.push(Val::Leaf(ctx.vec(&comps)?));
    }
    Ok(Val::Comp(out))
}

/// `determinant` of a 2x2 or 3x3 matrix, by cofactor expansion along the first column.
pub fn determinant(ctx: &mut Ctx<'_>, m: &Val) -> Result<Src, ImportError> {
    let c = m.leaves();
    let e = |i: usize, j: u8| c[i].component(j);
    let det2 = |ctx: &mut Ctx<'_>, a: Src, b: Src, cc: Src, d: Src| -> Result<Src, ImportError> {
        let l = op(ctx, AluOp::Fmul, &[a, d])?;
        let r = op(ctx, AluOp::Fmul, &[b, cc])?;
        op(ctx, AluOp::Fsub, &[l, r])
    };
    match c.len() {
        2 => det2(ctx, e(0, 0), e(1, 0), e(0, 1), e(1, 1)),
        3 => {
            // m[i][j] is column i, row j.
            let m0 = det2(ctx, e(1, 1), e(2, 1), e(1, 2), e(2, 2))?;
            let m1 = det2(ctx, e(1, 0), e(2, 0), e(1, 2), e(2, 2))?;
            let m2 = det2(ctx, e(1, 0), e(2, 0), e(1, 1), e(2, 1))?;
            let t0 = op(ctx, AluOp::Fmul, &[e(0, 0), m0])?;
            let t1 = op(ctx, AluOp::Fmul, &[e(0, 1), m1])?;
            let t2 = op(ctx, AluOp::Fmul, &[e(0, 2), m2])?;
            let s = op(ctx, AluOp::Fsub, &[t0, t1])?;
            op(ctx, AluOp::Fadd, &[s, t2])
        }
        n => Err(ctx.unsupported(
            &format!("`determinant` of a {n}x{n} matrix"),
            "only 2x2 and 3x3 determinants are expanded",
        )),
    }
}
