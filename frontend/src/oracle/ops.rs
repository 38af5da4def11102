//! naga's unary, binary, select, relational and conversion expressions as IR ALU code.
//!
//! The semantics are naga's (which are WGSL's): integer division by zero gives the
//! dividend and the remainder 0, `i32::MIN / -1` gives `i32::MIN` and its remainder 0,
//! shift counts are masked to the bit width (`ishl`, `ishr`, `ushr`), float `%` is the
//! truncated remainder (NIR's `frem`), float-to-integer conversions clamp to the
//! nearest integer the float type represents (WGSL §15.7.6), then convert. GLSL and SPIR-V leave some of these cases
//! undefined, so naga's choice is also a correct translation of them.

use crate::error::ImportError;
use crate::oracle::context::Ctx;
use crate::oracle::value::{select, Val};
use ir::{AluOp, Src, Type};
use naga::{BinaryOperator, ScalarKind, TypeInner, UnaryOperator, VectorSize};

/// The scalar kind and IR bit size of a scalar or vector type (or an atomic).
pub fn scalar_of(ctx: &Ctx<'_>, ty: &TypeInner) -> Result<(ScalarKind, u8), ImportError> {
    match ty {
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } | TypeInner::Atomic(s) => {
            Ok((s.kind, ctx.scalar_bits(*s)?))
        }
        TypeInner::Matrix { scalar, .. } => Ok((scalar.kind, ctx.scalar_bits(*scalar)?)),
        TypeInner::ValuePointer { scalar, .. } => Ok((scalar.kind, ctx.scalar_bits(*scalar)?)),
        other => Err(ctx.internal(format!(
            "a scalar operation on {}",
            crate::oracle::resources::type_name(other)
        ))),
    }
}

/// A source read `n` times over (`.xxxx`): a scalar splatted to a vector.
pub fn splat(src: Src, n: u8) -> Src {
    if n == 1 {
        src
    } else {
        select(src, &vec![0; n as usize])
    }
}

/// Brings two sources to one component count by splatting a scalar one.
fn widen(ctx: &Ctx<'_>, a: Src, b: Src) -> (Src, Src) {
    let (na, nb) = (ctx.comps(a), ctx.comps(b));
    if na == nb {
        (a, b)
    } else if na == 1 {
        (splat(a, nb), b)
    } else if nb == 1 {
        (a, splat(b, na))
    } else {
        (a, b)
    }
}

/// A float constant of `bits` bits splatted to `n` components.
pub fn fconst(ctx: &mut Ctx<'_>, bits: u8, v: f64, n: u8) -> Result<Src, ImportError> {
    let raw = match bits {
        16 => ir::eval::f64_to_f16(v) as u64,
        32 => (v as f32).to_bits() as u64,
        64 => v.to_bits(),
        _ => return Err(ctx.internal(format!("a {bits}-bit float"))),
    };
    let ty = Type::new(bits, n).ok_or_else(|| ctx.internal("float constant type"))?;
    Ok(Src::new(ctx.constant(ty, &vec![raw; n as usize])))
}

/// An integer constant of `bits` bits splatted to `n` components.
pub fn iconst(ctx: &mut Ctx<'_>, bits: u8, v: i64, n: u8) -> Result<Src, ImportError> {
    let ty = Type::new(bits, n).ok_or_else(|| ctx.internal("integer constant type"))?;
    Ok(Src::new(ctx.constant(ty, &vec![v as u64; n as usize])))
}

/// A unary operator on a scalar or vector.
pub fn unary(
    ctx: &mut Ctx<'_>,
    op: UnaryOperator,
    kind: ScalarKind,
    a: Src,
) -> Result<Src, ImportError> {
    let alu = match (op, kind) {
        (UnaryOperator::Negate, ScalarKind::Float) => AluOp::Fneg,
        (UnaryOperator::Negate, _) => AluOp::Ineg,
        (UnaryOperator::LogicalNot | UnaryOperator::BitwiseNot, _) => AluOp::Inot,
    };
    Ok(Src::new(ctx.alu(alu, &[a])?))
}

/// A unary operator on a value tree (matrices negate column by column).
pub fn unary_val(
    ctx: &mut Ctx<'_>,
    op: UnaryOperator,
    kind: ScalarKind,
    a: &Val,
) -> Result<Val, ImportError> {
    map_leaves(ctx, a, &mut |ctx, s| unary(ctx, op, kind, s))
}

/// Applies `f` to every leaf of a tree.
pub fn map_leaves(
    ctx: &mut Ctx<'_>,
    v: &Val,
    f: &mut dyn FnMut(&mut Ctx<'_>, Src) -> Result<Src, ImportError>,
) -> Result<Val, ImportError> {
    let mut out = Vec::new();
    for l in v.leaves() {
        out.push(f(ctx, l)?);
    }
    v.with_leaves(&mut out.into_iter())
        .ok_or_else(|| ctx.internal("a tree lost leaves"))
}

/// A binary operator on two scalars or vectors of kind `kind` (a scalar operand of a
/// vector operation is splatted).
pub fn binary(
    ctx: &mut Ctx<'_>,
    op: BinaryOperator,
    kind: ScalarKind,
    a: Src,
    b: Src,
) -> Result<Src, ImportError> {
    use BinaryOperator as B;
    use ScalarKind as K;
    let float = kind == K::Float;
    let signed = kind == K::Sint;
    if matches!(op, B::ShiftLeft | B::ShiftRight) {
        // The count is a 32-bit value in the IR; naga's is the operand's width.
        let mut count = b;
        let cb = ctx.src_type(count).bit_size();
        if cb != 32 {
            count = Src::new(ctx.alu(AluOp::U2u32, &[count])?);
        }
        let (a, count) = widen(ctx, a, count);
        let alu = match (op, signed) {
            (B::ShiftLeft, _) => AluOp::Ishl,
            (_, true) => AluOp::Ishr,
            (_, false) => AluOp::Ushr,
        };
        return Ok(Src::new(ctx.alu(alu, &[a, count])?));
    }
    let (a, b) = widen(ctx, a, b);
    let simple = |alu: AluOp| Some(alu);
    let alu = match op {
        B::Add => simple(if float { AluOp::Fadd } else { AluOp::Iadd }),
        B::Subtract => simple(if float { AluOp::Fsub } else { AluOp::Isub }),
        B::Multiply => simple(if float { AluOp::Fmul } else { AluOp::Imul }),
        B::Divide if float => simple(AluOp::Fdiv),
        B::Divide => None,
        B::Modulo => simple(match kind {
            K::Float => AluOp::Frem,
            K::Sint => AluOp::Irem,
            _ => AluOp::Umod,
        }),
        B::Equal => simple(if float { AluOp::Feq } else { AluOp::Ieq }),
        B::NotEqual => simple(if float { AluOp::Fneu } else { AluOp::Ine }),
        B::Less | B::GreaterEqual | B::Greater | B::LessEqual => {
            let (lt, ge) = match kind {
                K::Float => (AluOp::Flt, AluOp::Fge),
                K::Sint => (AluOp::Ilt, AluOp::Ige),
                _ => (AluOp::Ult, AluOp::Uge),
            };
            // a > b is b < a; a <= b is b >= a (ordered: false with a NaN).
            let (alu, x, y) = match op {
                B::Less => (lt, a, b),
                B::GreaterEqual => (ge, a, b),
                B::Greater => (lt, b, a),
                _ => (ge, b, a),
            };
            return Ok(Src::new(ctx.alu(alu, &[x, y])?));
        }
        B::And | B::LogicalAnd => simple(AluOp::Iand),
        B::InclusiveOr | B::LogicalOr => simple(AluOp::Ior),
        B::ExclusiveOr => simple(AluOp::Ixor),
        B::ShiftLeft | B::ShiftRight => None,
    };
    if let Some(alu) = alu {
        return Ok(Src::new(ctx.alu(alu, &[a, b])?));
    }
    // Integer division: x / 0 is x (naga and WGSL), so divide by 1 instead; the IR's
    // idiv already wraps i32::MIN / -1 to i32::MIN.
    let n = ctx.comps(b);
    let bits = ctx.src_type(b).bit_size();
    let zero = iconst(ctx, bits, 0, n)?;
    let one = iconst(ctx, bits, 1, n)?;
    let is_zero = Src::new(ctx.alu(AluOp::Ieq, &[b, zero])?);
    let divisor = Src::new(ctx.alu(AluOp::Bcsel, &[is_zero, one, b])?);
    let div = if signed { AluOp::Idiv } else { AluOp::Udiv };
    Ok(Src::new(ctx.alu(div, &[a, divisor])?))
}

/// `select(reject, accept, condition)` (naga's `Select`) on trees; a scalar condition
/// selects whole vectors.
pub fn select_val(
    ctx: &mut Ctx<'_>,
    cond: Src,
    accept: &Val,
    reject: &Val,
) -> Result<Val, ImportError> {
    let (a, r) = (accept.leaves(), reject.leaves());
    if a.len() != r.len() {
        return Err(ctx.internal("select of different shapes"));
    }
    let mut out = Vec::with_capacity(a.len());
    for (x, y) in a.into_iter().zip(r) {
        let n = ctx.comps(x);
        let c = if ctx.comps(cond) == 1 {
            splat(cond, n)
        } else {
            cond
        };
        out.push(Src::new(ctx.alu(AluOp::Bcsel, &[c, x, y])?));
    }
    accept
        .with_leaves(&mut out.into_iter())
        .ok_or_else(|| ctx.internal("select lost leaves"))
}

/// `all` and `any` of a boolean vector, `isnan` and `isinf` of a float.
pub fn relational(
    ctx: &mut Ctx<'_>,
    fun: naga::RelationalFunction,
    a: Src,
) -> Result<Src, ImportError> {
    use naga::RelationalFunction as R;
    match fun {
        R::All | R::Any => {
            let op = if fun == R::All {
                AluOp::Iand
            } else {
                AluOp::Ior
            };
            let n = ctx.comps(a);
            let mut acc = a.component(0);
            for i in 1..n {
                acc = Src::new(ctx.alu(op, &[acc, a.component(i)])?);
            }
            Ok(acc)
        }
        R::IsNan => Ok(Src::new(ctx.alu(AluOp::Fneu, &[a, a])?)),
        R::IsInf => {
            let t = ctx.src_type(a);
            let inf = fconst(ctx, t.bit_size(), f64::INFINITY, t.num_components())?;
            let abs = Src::new(ctx.alu(AluOp::Fabs, &[a])?);
            Ok(Src::new(ctx.alu(AluOp::Feq, &[abs, inf])?))
        }
    }
}

/// naga's `As`: a conversion to `kind` of `width` bytes (`convert`), or a bitcast.
pub fn convert(
    ctx: &mut Ctx<'_>,
    a: Src,
    from: ScalarKind,
    kind: ScalarKind,
    convert: Option<u8>,
) -> Result<Src, ImportError> {
    use ScalarKind as K;
    let src_bits = ctx.src_type(a).bit_size();
    let n = ctx.comps(a);
    let Some(width) = convert else {
        // A bitcast: the IR's values are bits, so the source is the result.
        return Ok(a);
    };
    let bits = if kind == K::Bool {
        1
    } else {
        ctx.scalar_bits(naga::Scalar { kind, width })?
    };
    let unsupported = |ctx: &Ctx<'_>| {
        ctx.unsupported(
            &format!("a conversion from {src_bits}-bit {from:?} to {bits}-bit {kind:?}"),
            "the IR has no such conversion op",
        )
    };
    let r = match (from, kind) {
        (K::Bool, K::Bool) => return Ok(a),
        (_, K::Bool) => {
            if from == K::Float {
                let z = fconst(ctx, src_bits, 0.0, n)?;
                ctx.alu(AluOp::Fneu, &[a, z])?
            } else {
                let z = iconst(ctx, src_bits, 0, n)?;
                ctx.alu(AluOp::Ine, &[a, z])?
            }
        }
        (K::Bool, K::Float) => {
            let one = fconst(ctx, bits, 1.0, n)?;
            let zero = fconst(ctx, bits, 0.0, n)?;
            ctx.alu(AluOp::Bcsel, &[a, one, zero])?
        }
        (K::Bool, _) => {
            let one = iconst(ctx, bits, 1, n)?;
            let zero = iconst(ctx, bits, 0, n)?;
            ctx.alu(AluOp::Bcsel, &[a, one, zero])?
        }
        (K::Float, K::Float) => match (src_bits, bits) {
            (s, d) if s == d => return Ok(a),
            (_, 16) => ctx.alu(AluOp::F2f16, &[a])?,
            (_, 32) => ctx.alu(AluOp::F2f32, &[a])?,
            _ => return Err(unsupported(ctx)),
        },
        (K::Float, K::Sint | K::Uint) if bits == 32 => {
            // WGSL §15.7.6: an out-of-range value becomes the nearest value of the
            // integer type that the float type represents (2147483520 for i32 from f32,
            // not 2147483647), as naga's SPIR-V writer clamps before converting.
            let (lo, hi) = match (src_bits, kind) {
                (32, K::Sint) => (-2147483648.0, 2147483520.0),
                (32, _) => (0.0, 4294967040.0),
                (_, K::Sint) => (-65504.0, 65504.0),
                _ => (0.0, 65504.0),
            };
            let lo = fconst(ctx, src_bits, lo, n)?;
            let hi = fconst(ctx, src_bits, hi, n)?;
            let t = Src::new(ctx.alu(AluOp::Fmax, &[a, lo])?);
            let c = Src::new(ctx.alu(AluOp::Fmin, &[t, hi])?);
            let op = if kind == K::Sint {
                AluOp::F2i32
            } else {
                AluOp::F2u32
            };
            ctx.alu(op, &[c])?
        }
        (K::Sint, K::Float) if bits == 32 => ctx.alu(AluOp::I2f32, &[a])?,
        (K::Uint, K::Float) if bits == 32 => ctx.alu(AluOp::U2f32, &[a])?,
        (K::Sint | K::Uint, K::Sint | K::Uint) => {
            if src_bits == bits {
                return Ok(a);
            }
            // The extension follows the source's signedness, as NIR's conversions do.
            let op = match (from == K::Sint, bits) {
                (true, 16) => AluOp::I2i16,
                (true, 32) => AluOp::I2i32,
                (true, 64) => AluOp::I2i64,
                (false, 16) => AluOp::U2u16,
                (false, 32) => AluOp::U2u32,
                (false, 64) => AluOp::U2u64,
                _ => return Err(unsupported(ctx)),
            };
            ctx.alu(op, &[a])?
        }
        _ => return Err(unsupported(ctx)),
    };
    Ok(Src::new(r))
}

/// The number of components of a naga vector size.
pub fn size_of(size: VectorSize) -> u8 {
    size as u8
}
