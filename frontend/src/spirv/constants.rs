//! Large constant tables as constant data, as Mesa's `nir_opt_large_constants` moves
//! them (brw runs it with a threshold of 32 bytes, `brw_nir.c`): a `Function` or
//! `Private` variable that holds one constant wherever it is read (its initializer and
//! its stores write that constant, nothing else writes it:
//! [`super::constant_data::read_only_variables`]), larger than 32 bytes in its natural
//! layout, is read at a run-time index with `load_constant` from the shader's constant
//! data instead of a `bcsel` over every element. Loads at constant indices keep reading
//! the promoted value (what `nir_opt_constant_folding` makes of a `load_constant` at a
//! constant offset).
//!
//! The table is laid out as NIR's `glsl_get_natural_size_align_bytes` lays it out
//! (`Types::natural`): `base` is its place in the data, `range` its size. A run-time
//! index out of range reads element 0, as every other dynamic index of a promoted
//! array does in this translator (`ult` and `bcsel` before the index is scaled).
//! Tables of booleans or structs stay promoted (NIR widens booleans to 32 bits in
//! constant data; the IR leaves that to a later change), as do those of at most 32
//! bytes and those the variable's uses might write.

use super::context::Ctx;
use super::spec::ConstVal;
use super::types::Ty;
use super::value::{Step, Val, VarKey, VarPtr};
use crate::error::ImportError;
use ir::{AluOp, IntrinsicOp, Src};

/// Bytes a variable must exceed to move to constant data (brw's threshold).
pub const LARGE_CONSTANT_THRESHOLD: u32 = 32;

/// A table in constant data: its type, place and size.
struct Table {
    ty: u32,
    base: u32,
    range: u32,
}

/// The load through `v` from constant data, when `v` has a run-time index into a
/// variable that lives there; `None` otherwise (the caller reads the promoted value).
pub fn load(ctx: &mut Ctx<'_>, v: &VarPtr) -> Result<Option<Val>, ImportError> {
    if !v.path.iter().any(|s| matches!(s, Step::Dyn(_))) {
        return Ok(None);
    }
    let (VarKey::Local(_, id) | VarKey::Private(id)) = v.key else {
        return Ok(None);
    };
    let Some(table) = table(ctx, id)? else {
        return Ok(None);
    };
    // The byte offset of the path: constant steps add up, run-time ones are scaled.
    let mut ty = table.ty;
    let mut offset = 0u32;
    let mut dynamic: Option<Src> = None;
    for step in &v.path {
        let (elem, len, stride) = step_of(ctx, ty)?;
        match *step {
            Step::Const(i) => {
                offset = i
                    .checked_mul(stride)
                    .and_then(|o| o.checked_add(offset))
                    .ok_or_else(|| ctx.internal("a constant table offset past 4 GiB"))?;
            }
            Step::Dyn(i) => {
                let n = ctx.u32(len);
                let inside = ctx.alu(AluOp::Ult, &[i, n])?;
                let zero = ctx.u32(0);
                let i = ctx.alu(AluOp::Bcsel, &[inside, i, zero])?;
                let s = ctx.u32(stride);
                let scaled = ctx.alu(AluOp::Imul, &[i, s])?;
                dynamic = Some(match dynamic {
                    Some(d) => ctx.alu(AluOp::Iadd, &[d, scaled])?,
                    None => scaled,
                });
            }
        }
        ty = elem;
    }
    let off = match dynamic {
        Some(d) => d,
        None => return Err(ctx.internal("a constant table read without a run-time index")),
    };
    read(ctx, &table, ty, off, offset).map(Some)
}

/// The element type, length and stride of one step into `ty`.
fn step_of(ctx: &Ctx<'_>, ty: u32) -> Result<(u32, u32, u32), ImportError> {
    let types = &ctx.d.types;
    let stride_of = |elem: u32| {
        types
            .natural(elem)
            .map(|l| l.size.div_ceil(l.align) * l.align)
            .ok_or_else(|| ctx.internal(format!("%{elem} has no natural layout")))
    };
    match ctx.ty(ty)? {
        Ty::Array { elem, len } => Ok((*elem, *len, stride_of(*elem)?)),
        Ty::Matrix { col, n } => Ok((*col, u32::from(*n), stride_of(*col)?)),
        Ty::Vector { elem, n } => {
            let s = types
                .natural(*elem)
                .map(|l| l.size)
                .ok_or_else(|| ctx.internal(format!("%{elem} has no natural layout")))?;
            Ok((*elem, u32::from(*n), s))
        }
        _ => Err(ctx.internal(format!("a constant table step into %{ty}"))),
    }
}

/// The value of type `ty` at byte `dynamic + extra` of the table: one `load_constant`
/// per scalar or vector.
fn read(
    ctx: &mut Ctx<'_>,
    t: &Table,
    ty: u32,
    dynamic: Src,
    extra: u32,
) -> Result<Val, ImportError> {
    match ctx.ty(ty)? {
        Ty::Array { .. } | Ty::Matrix { .. } => {
            let (elem, len, stride) = step_of(ctx, ty)?;
            let mut items = Vec::with_capacity(len as usize);
            for k in 0..len {
                items.push(read(ctx, t, elem, dynamic, extra + k * stride)?);
            }
            Ok(Val::Comp(items))
        }
        _ => {
            let irt = ctx.ir_type(ty)?;
            let offset = if extra == 0 {
                dynamic
            } else {
                let e = ctx.u32(extra);
                ctx.alu(AluOp::Iadd, &[dynamic, e])?
            };
            let (base, range) = (t.base, t.range);
            let v = ctx.build(|b| {
                b.intrinsic(
                    IntrinsicOp::LoadConstant,
                    None,
                    &[offset],
                    &[base, range],
                    Some(irt),
                )
            });
            v.map(|v| Val::Leaf(Src::new(v)))
                .ok_or_else(|| ctx.internal("a constant load without a value"))
        }
    }
}

/// Whether `ty` is made of arrays, matrices, vectors and numbers only (no booleans, no
/// structs): what constant data holds here.
fn plain(ctx: &Ctx<'_>, ty: u32) -> bool {
    match ctx.d.types.get(ty) {
        Some(Ty::Int { .. } | Ty::Float { .. }) => true,
        Some(Ty::Vector { elem, .. } | Ty::Matrix { col: elem, .. } | Ty::Array { elem, .. }) => {
            plain(ctx, *elem)
        }
        _ => false,
    }
}

/// Writes constant `v` of type `ty` at byte `at` of `out` in the natural layout.
fn write(ctx: &Ctx<'_>, ty: u32, v: &ConstVal, at: usize, out: &mut [u8]) -> Option<()> {
    match (ctx.d.types.get(ty)?, v) {
        (Ty::Int { bits, .. } | Ty::Float { bits }, ConstVal::Scalar(x)) => {
            let n = usize::from(*bits / 8);
            out.get_mut(at..at + n)?
                .copy_from_slice(&x.to_le_bytes()[..n]);
            Some(())
        }
        (Ty::Array { .. } | Ty::Matrix { .. } | Ty::Vector { .. }, ConstVal::Comp(items)) => {
            let (elem, len, stride) = step_of(ctx, ty).ok()?;
            if items.len() != len as usize {
                return None;
            }
            for (k, item) in items.iter().enumerate() {
                write(ctx, elem, item, at + k * stride as usize, out)?;
            }
            Some(())
        }
        _ => None,
    }
}

/// The table variable `id` is in constant data, placing it on first use; `None` when
/// the variable stays promoted.
fn table(ctx: &mut Ctx<'_>, id: u32) -> Result<Option<Table>, ImportError> {
    let Some(init) = ctx.constants.constant_of(ctx.m, ctx.d, id) else {
        return Ok(None);
    };
    let Some(def) = ctx.m.def(id) else {
        return Ok(None);
    };
    let Some(&ptr) = ctx.m.ops(def).first() else {
        return Ok(None);
    };
    let Some(Ty::Pointer { pointee, .. }) = ctx.d.types.get(ptr) else {
        return Ok(None);
    };
    let ty = *pointee;
    let Some(layout) = ctx.d.types.natural(ty) else {
        return Ok(None);
    };
    if layout.size <= LARGE_CONSTANT_THRESHOLD || !plain(ctx, ty) {
        return Ok(None);
    }
    let Some(c) = ctx.d.consts.get(&init) else {
        return Ok(None);
    };
    let mut bytes = vec![0u8; layout.size as usize];
    if write(ctx, ty, &c.val, 0, &mut bytes).is_none() {
        return Ok(None);
    }
    let base = ctx
        .constants
        .place(bytes, layout.align)
        .ok_or_else(|| ctx.internal("constant data past 4 GiB"))?;
    Ok(Some(Table {
        ty,
        base,
        range: layout.size,
    }))
}
