//! naga expressions as IR values, places and images.
//!
//! An expression is translated where naga emits it (`Emit` statements) and remembered
//! for its uses; constant expressions, which naga never emits, are translated at each
//! use, so that no constant is defined in one branch and used in another.

use crate::error::ImportError;
use crate::oracle::context::Ctx;
use crate::oracle::ops::{self, scalar_of};
use crate::oracle::resources::Role;
use crate::oracle::value::{select, Cached, ImageUse, Place, Space, Step, Val, VarKey};
use crate::oracle::{image, math, memory};
use ir::{AluOp, Src};
use naga::{Expression as E, Handle, Literal, TypeInner};

/// The value of an expression that must be one.
pub fn value(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Val, ImportError> {
    match get(ctx, h)? {
        Cached::Val(v) => Ok(v),
        other => Err(ctx.internal(format!("expected a value, found {other:?}"))),
    }
}

/// The scalar or vector value of an expression.
pub fn leaf(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Src, ImportError> {
    value(ctx, h)?
        .leaf()
        .ok_or_else(|| ctx.internal("expected a scalar or vector"))
}

/// The place an expression points to.
pub fn place(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Place, ImportError> {
    match get(ctx, h)? {
        Cached::Place(p) => Ok(p),
        other => Err(ctx.internal(format!("expected a pointer, found {other:?}"))),
    }
}

/// The image an expression names.
pub fn image_use(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<ImageUse, ImportError> {
    match get(ctx, h)? {
        Cached::Image(i) => Ok(i),
        Cached::ImageArray(id) => Ok(ImageUse {
            image: id,
            index: None,
        }),
        other => Err(ctx.internal(format!("expected an image, found {other:?}"))),
    }
}

/// What an expression stands for: remembered if emitted, else translated here.
pub fn get(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Cached, ImportError> {
    if let Some(c) = ctx.frame()?.cache.get(&h) {
        return Ok(c.clone());
    }
    translate(ctx, h)
}

/// Translates the expressions of an `Emit` range, in order, remembering each.
pub fn emit(ctx: &mut Ctx<'_>, range: naga::Range<naga::Expression>) -> Result<(), ImportError> {
    for h in range {
        // An expression naga gave no span keeps its statement's.
        let saved = (ctx.span, ctx.naga_span);
        let span = ctx.frame()?.function.expressions.get_span(h);
        ctx.at(span);
        let c = translate(ctx, h)?;
        ctx.frame_mut()?.cache.insert(h, c);
        (ctx.span, ctx.naga_span) = saved;
    }
    Ok(())
}

/// A literal as a constant.
fn literal(ctx: &mut Ctx<'_>, l: &Literal) -> Result<Src, ImportError> {
    let (bits, v): (u8, u64) = match *l {
        Literal::F64(x) => (64, x.to_bits()),
        Literal::F32(x) => (32, x.to_bits() as u64),
        Literal::F16(x) => (16, x.to_bits() as u64),
        Literal::U16(x) => (16, x as u64),
        Literal::I16(x) => (16, x as u16 as u64),
        Literal::U32(x) => (32, x as u64),
        Literal::I32(x) => (32, x as u32 as u64),
        Literal::U64(x) => (64, x),
        Literal::I64(x) => (64, x as u64),
        Literal::Bool(b) => (1, b as u64),
        Literal::AbstractInt(_) | Literal::AbstractFloat(_) => {
            return Err(ctx.internal("an abstract literal reached a function body"))
        }
    };
    ctx.imm(bits, v)
}

/// A constant expression of the module (a `const`'s initializer, a private global's or
/// a local's initial value).
pub fn global_const(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Val, ImportError> {
    let module = ctx.module;
    let expr = &module.global_expressions[h];
    match expr {
        E::Literal(l) => Ok(Val::Leaf(literal(ctx, l)?)),
        E::Constant(c) => global_const(ctx, module.constants[*c].init),
        E::ZeroValue(ty) => ctx.zero_of(&module.types[*ty].inner),
        E::Compose { ty, components } => {
            let mut parts = Vec::with_capacity(components.len());
            for &c in components {
                parts.push(global_const(ctx, c)?);
            }
            compose(ctx, &module.types[*ty].inner, parts)
        }
        E::Splat { size, value } => {
            let v = global_const(ctx, *value)?;
            let s = v
                .leaf()
                .ok_or_else(|| ctx.internal("a splat of a composite"))?;
            Ok(Val::Leaf(Src::new(
                ctx.alu(AluOp::Mov, &[ops::splat(s, *size as u8)])?,
            )))
        }
        other => Err(ctx.unsupported(
            &format!("the constant expression {other:?}"),
            "the front end evaluates literals, constants, zero values, compositions and splats",
        )),
    }
}

/// `Compose` of `parts` into a value of `ty`.
fn compose(ctx: &mut Ctx<'_>, ty: &TypeInner, parts: Vec<Val>) -> Result<Val, ImportError> {
    match ty {
        TypeInner::Vector { .. } => {
            let mut comps = Vec::new();
            for p in &parts {
                let s = p
                    .leaf()
                    .ok_or_else(|| ctx.internal("a vector of composites"))?;
                comps.extend((0..ctx.comps(s)).map(|i| s.component(i)));
            }
            Ok(Val::Leaf(ctx.vec(&comps)?))
        }
        _ => Ok(Val::Comp(parts)),
    }
}

/// The Cached value of a global variable.
fn global(ctx: &mut Ctx<'_>, g: Handle<naga::GlobalVariable>) -> Result<Cached, ImportError> {
    let var = &ctx.module.global_variables[g];
    let inner = ctx.module.types[var.ty].inner.clone();
    Ok(match ctx.role(g).clone() {
        Role::Image {
            image,
            array: false,
        } => Cached::Image(ImageUse { image, index: None }),
        Role::Image { image, array: true } => Cached::ImageArray(image),
        Role::Ssbo { block, access } => memory_place(Space::Ssbo { block, access }, inner, 0),
        Role::Ubo { block } => memory_place(Space::Ubo { block }, inner, 0),
        Role::Push { range } => memory_place(Space::Push { range }, inner, 0),
        Role::Shared { offset } => memory_place(Space::Shared, inner, offset),
        Role::Private => Cached::Place(Place::Var {
            key: VarKey::Private(g),
            ty: var.ty,
            path: Vec::new(),
        }),
        Role::Sampler => Cached::Sampler,
        Role::Unused => return Err(ctx.internal("a use of a global naga found unused")),
    })
}

fn memory_place(space: Space, pointee: TypeInner, offset: u32) -> Cached {
    Cached::Place(Place::Memory {
        space,
        pointee,
        offset,
        dynamic: None,
    })
}

/// An index step into what `base` stands for.
fn index_into(ctx: &mut Ctx<'_>, base: Cached, step: Step) -> Result<Cached, ImportError> {
    match base {
        Cached::Place(p) => Ok(Cached::Place(memory::index(ctx, &p, step)?)),
        Cached::Val(v) => Ok(Cached::Val(memory::read_path(ctx, &v, &[step])?)),
        Cached::ImageArray(id) => {
            let index = match step {
                Step::Const(i) => ctx.u32(i),
                Step::Dyn(s) => s,
            };
            Ok(Cached::Image(ImageUse {
                image: id,
                index: Some(index),
            }))
        }
        other => Err(ctx.internal(format!("an index into {other:?}"))),
    }
}

/// The naga type of expression `h`, cloned.
fn type_of(ctx: &Ctx<'_>, h: Handle<naga::Expression>) -> Result<TypeInner, ImportError> {
    Ok(ctx.expr_type(h)?.clone())
}

/// Translates one expression.
fn translate(ctx: &mut Ctx<'_>, h: Handle<naga::Expression>) -> Result<Cached, ImportError> {
    let f = ctx.frame()?.function;
    let expr = &f.expressions[h];
    let v = |x: Src| Ok(Cached::Val(Val::Leaf(x)));
    match expr {
        E::Literal(l) => v(literal(ctx, l)?),
        E::Constant(c) => Ok(Cached::Val(global_const(
            ctx,
            ctx.module.constants[*c].init,
        )?)),
        E::Override(_) => Err(ctx.internal("an override survived their substitution")),
        E::ZeroValue(ty) => Ok(Cached::Val(
            ctx.zero_of(&ctx.module.types[*ty].inner.clone())?,
        )),
        E::Compose { ty, components } => {
            let mut parts = Vec::with_capacity(components.len());
            for &c in components {
                parts.push(value(ctx, c)?);
            }
            let inner = ctx.module.types[*ty].inner.clone();
            Ok(Cached::Val(compose(ctx, &inner, parts)?))
        }
        E::Access { base, index } => {
            let b = get(ctx, *base)?;
            let i = leaf(ctx, *index)?;
            // A constant index (naga keeps some) reads like AccessIndex.
            let step = match ctx.const_of(i) {
                Some(c) if !matches!(b, Cached::ImageArray(_)) => Step::Const(c[0] as u32),
                _ => Step::Dyn(i),
            };
            index_into(ctx, b, step)
        }
        E::AccessIndex { base, index } => {
            let b = get(ctx, *base)?;
            index_into(ctx, b, Step::Const(*index))
        }
        E::Splat { size, value: x } => {
            let s = leaf(ctx, *x)?;
            v(ops::splat(s, *size as u8))
        }
        E::Swizzle {
            size,
            vector,
            pattern,
        } => {
            let s = leaf(ctx, *vector)?;
            let comps: Vec<u8> = pattern[..*size as usize].iter().map(|c| *c as u8).collect();
            v(select(s, &comps))
        }
        E::FunctionArgument(i) => ctx
            .frame()?
            .args
            .get(*i as usize)
            .cloned()
            .ok_or_else(|| ctx.internal("an argument out of range")),
        E::GlobalVariable(g) => global(ctx, *g),
        E::LocalVariable(l) => {
            let frame = ctx.frame()?.id;
            let ty = f.local_variables[*l].ty;
            Ok(Cached::Place(Place::Var {
                key: VarKey::Local(frame, *l),
                ty,
                path: Vec::new(),
            }))
        }
        E::Load { pointer } => {
            let p = place(ctx, *pointer)?;
            Ok(Cached::Val(memory::load(ctx, &p)?))
        }
        E::ImageSample {
            gather, depth_ref, ..
        } => Err(if gather.is_some() {
            ctx.unsupported(
                "a texture gather (`textureGather`)",
                "the IR reads textures only without a sampler, texel by texel (`textureLoad`, `texelFetch`)",
            )
        } else if depth_ref.is_some() {
            ctx.unsupported(
                "a depth-comparison sample (`textureSampleCompare`, shadow samplers)",
                "the IR reads textures only without a sampler, texel by texel (`textureLoad`, `texelFetch`)",
            )
        } else {
            ctx.unsupported(
                "filtered sampling (`textureSample*`, `texture`, `textureLod`)",
                "the IR reads textures only without a sampler, texel by texel (`textureLoad`, `texelFetch`)",
            )
        }),
        E::ImageLoad {
            image: img,
            coordinate,
            array_index,
            sample,
            level,
        } => {
            let iu = image_use(ctx, *img)?;
            let c = leaf(ctx, *coordinate)?;
            let a = array_index.map(|x| leaf(ctx, x)).transpose()?;
            let sample = sample.map(|x| leaf(ctx, x)).transpose()?;
            let l = level.map(|x| leaf(ctx, x)).transpose()?;
            let ty = type_of(ctx, h)?;
            let (kind, _) = scalar_of(ctx, &ty)?;
            let comps = match ty {
                TypeInner::Vector { size, .. } => size as u8,
                _ => 1,
            };
            v(image::load(ctx, &iu, c, a, sample, l, comps, kind)?)
        }
        E::ImageQuery { image: img, query } => {
            let iu = image_use(ctx, *img)?;
            let level = match query {
                naga::ImageQuery::Size { level: Some(l) } => Some(leaf(ctx, *l)?),
                _ => None,
            };
            v(image::query(ctx, &iu, query, level)?)
        }
        E::Unary { op, expr: x } => {
            let a = value(ctx, *x)?;
            let (kind, _) = scalar_of(ctx, &type_of(ctx, *x)?)?;
            Ok(Cached::Val(ops::unary_val(ctx, *op, kind, &a)?))
        }
        E::Binary { op, left, right } => binary(ctx, *op, *left, *right).map(Cached::Val),
        E::Select {
            condition,
            accept,
            reject,
        } => {
            let c = leaf(ctx, *condition)?;
            let a = value(ctx, *accept)?;
            let r = value(ctx, *reject)?;
            Ok(Cached::Val(ops::select_val(ctx, c, &a, &r)?))
        }
        E::Derivative { .. } => Err(ctx.unsupported(
            "a derivative (`dpdx`, `dFdx`, `fwidth`)",
            "compute invocations have no pixel quads to difference",
        )),
        E::Relational { fun, argument } => {
            let a = leaf(ctx, *argument)?;
            v(ops::relational(ctx, *fun, a)?)
        }
        E::Math {
            fun,
            arg,
            arg1,
            arg2,
            arg3,
        } => math_expr(ctx, h, *fun, [Some(*arg), *arg1, *arg2, *arg3]),
        E::As {
            expr: x,
            kind,
            convert,
        } => {
            let a = value(ctx, *x)?;
            let (from, _) = scalar_of(ctx, &type_of(ctx, *x)?)?;
            let r = ops::map_leaves(ctx, &a, &mut |ctx, s| {
                ops::convert(ctx, s, from, *kind, *convert)
            })?;
            Ok(Cached::Val(r))
        }
        E::CallResult(_) | E::AtomicResult { .. } | E::WorkGroupUniformLoadResult { .. } => {
            Err(ctx.internal("a statement's result used before the statement"))
        }
        E::ArrayLength(array) => {
            let p = place(ctx, *array)?;
            v(memory::array_length(ctx, &p)?)
        }
        E::RayQueryVertexPositions { .. }
        | E::RayQueryProceedResult
        | E::RayQueryGetIntersection { .. } => {
            Err(ctx.unsupported("a ray query", "the IR has no ray tracing"))
        }
        E::SubgroupBallotResult | E::SubgroupOperationResult { .. } => Err(ctx.unsupported(
            "a subgroup operation",
            "the IR has no cross-lane operations",
        )),
        E::CooperativeLoad { .. } | E::CooperativeMultiplyAdd { .. } => Err(ctx.unsupported(
            "a cooperative matrix operation",
            "the IR has no matrix engine operations",
        )),
    }
}

/// A binary operator, with naga's matrix forms.
fn binary(
    ctx: &mut Ctx<'_>,
    op: naga::BinaryOperator,
    left: Handle<naga::Expression>,
    right: Handle<naga::Expression>,
) -> Result<Val, ImportError> {
    use naga::BinaryOperator as B;
    let lt = type_of(ctx, left)?;
    let rt = type_of(ctx, right)?;
    let (kind, _) = scalar_of(ctx, &lt)?;
    let a = value(ctx, left)?;
    let b = value(ctx, right)?;
    let is_mat = |t: &TypeInner| matches!(t, TypeInner::Matrix { .. });
    if !is_mat(&lt) && !is_mat(&rt) {
        let (x, y) = (
            a.leaf()
                .ok_or_else(|| ctx.internal("binary on a composite"))?,
            b.leaf()
                .ok_or_else(|| ctx.internal("binary on a composite"))?,
        );
        return Ok(Val::Leaf(ops::binary(ctx, op, kind, x, y)?));
    }
    match (op, &lt, &rt) {
        (B::Add | B::Subtract, _, _) => {
            let (xs, ys) = (a.leaves(), b.leaves());
            let mut out = Vec::new();
            for (x, y) in xs.into_iter().zip(ys) {
                out.push(Val::Leaf(ops::binary(ctx, op, kind, x, y)?));
            }
            Ok(Val::Comp(out))
        }
        (B::Multiply, TypeInner::Matrix { .. }, TypeInner::Scalar(_)) => {
            let s = b.leaf().ok_or_else(|| ctx.internal("scalar"))?;
            ops::map_leaves(ctx, &a, &mut |ctx, c| ops::binary(ctx, op, kind, c, s))
        }
        (B::Multiply, TypeInner::Scalar(_), TypeInner::Matrix { .. }) => {
            let s = a.leaf().ok_or_else(|| ctx.internal("scalar"))?;
            ops::map_leaves(ctx, &b, &mut |ctx, c| ops::binary(ctx, op, kind, s, c))
        }
        (B::Multiply, TypeInner::Matrix { .. }, TypeInner::Vector { .. }) => {
            let v = b.leaf().ok_or_else(|| ctx.internal("vector"))?;
            Ok(Val::Leaf(mat_vec(ctx, &a.leaves(), v)?))
        }
        (B::Multiply, TypeInner::Vector { .. }, TypeInner::Matrix { .. }) => {
            // Component c of v * M is dot(v, column c).
            let v = a.leaf().ok_or_else(|| ctx.internal("vector"))?;
            let mut comps = Vec::new();
            for col in b.leaves() {
                comps.push(math::fdot(ctx, v, col)?);
            }
            Ok(Val::Leaf(ctx.vec(&comps)?))
        }
        (B::Multiply, TypeInner::Matrix { .. }, TypeInner::Matrix { .. }) => {
            let cols = a.leaves();
            let mut out = Vec::new();
            for col in b.leaves() {
                out.push(Val::Leaf(mat_vec(ctx, &cols, col)?));
            }
            Ok(Val::Comp(out))
        }
        _ => Err(ctx.unsupported(
            &format!("the matrix operation {op:?}"),
            "naga defines no such matrix operation",
        )),
    }
}

/// `M * v`: the sum of the columns scaled by v's components, first to last, each
/// product and sum rounded (no fusion).
fn mat_vec(ctx: &mut Ctx<'_>, cols: &[Src], v: Src) -> Result<Src, ImportError> {
    let mut acc: Option<Src> = None;
    for (i, &col) in cols.iter().enumerate() {
        let n = ctx.comps(col);
        let p = Src::new(ctx.alu(AluOp::Fmul, &[col, ops::splat(v.component(i as u8), n)])?);
        acc = Some(match acc {
            None => p,
            Some(s) => Src::new(ctx.alu(AluOp::Fadd, &[s, p])?),
        });
    }
    acc.ok_or_else(|| ctx.internal("a matrix without columns"))
}

/// A math function expression.
fn math_expr(
    ctx: &mut Ctx<'_>,
    h: Handle<naga::Expression>,
    fun: naga::MathFunction,
    args: [Option<Handle<naga::Expression>>; 4],
) -> Result<Cached, ImportError> {
    use naga::MathFunction as M;
    let first = args[0].ok_or_else(|| ctx.internal("math without an argument"))?;
    let arg_type = type_of(ctx, first)?;
    match fun {
        M::Transpose => {
            let m = value(ctx, first)?;
            let TypeInner::Matrix { rows, .. } = arg_type else {
                return Err(ctx.internal("transpose of a non-matrix"));
            };
            return Ok(Cached::Val(math::transpose(ctx, &m, rows as u8)?));
        }
        M::Determinant => {
            let m = value(ctx, first)?;
            return Ok(Cached::Val(Val::Leaf(math::determinant(ctx, &m)?)));
        }
        M::Modf | M::Frexp => {
            // naga's struct results ({fract, whole} and {fract, exp}), built as the
            // SPIR-V translator builds ModfStruct and FrexpStruct.
            let a = leaf(ctx, first)?;
            let (x, y) = ctx
                .build(|b| match fun {
                    M::Modf => crate::spirv::glsl450::modf(b, a),
                    _ => crate::spirv::glsl450::frexp(b, a),
                })
                .map_err(|e| match e {
                    crate::spirv::alu::AluError::Unsupported(m)
                    | crate::spirv::alu::AluError::Invalid(m) => {
                        ctx.unsupported(&format!("`{}`", math::spelling(fun)), &m)
                    }
                })?;
            return Ok(Cached::Val(Val::Comp(vec![Val::Leaf(x), Val::Leaf(y)])));
        }
        M::Outer => {
            // outer(c, r): column j is c * r[j].
            let c = leaf(ctx, first)?;
            let r = leaf(ctx, args[1].ok_or_else(|| ctx.internal("outer arity"))?)?;
            let mut cols = Vec::new();
            for j in 0..ctx.comps(r) {
                let n = ctx.comps(c);
                cols.push(Val::Leaf(Src::new(
                    ctx.alu(AluOp::Fmul, &[c, ops::splat(r.component(j), n)])?,
                )));
            }
            return Ok(Cached::Val(Val::Comp(cols)));
        }
        M::Inverse => {
            return Err(ctx.unsupported(
                "`inverse` of a matrix",
                "the front end expands only determinants and transposes",
            ))
        }
        _ => {}
    }
    let (kind, _) = scalar_of(ctx, &arg_type)?;
    let mut srcs = Vec::new();
    for a in args.into_iter().flatten() {
        srcs.push(leaf(ctx, a)?);
    }
    let r = math::math(ctx, fun, kind, &srcs)?;
    // Sanity: the result's shape is naga's.
    let want = type_of(ctx, h)?;
    let n = match want {
        TypeInner::Vector { size, .. } => size as u8,
        _ => 1,
    };
    if ctx.comps(r) != n {
        return Err(ctx.internal(format!(
            "`{}` gave {} components, naga's type has {n}",
            math::spelling(fun),
            ctx.comps(r)
        )));
    }
    Ok(Cached::Val(Val::Leaf(r)))
}
