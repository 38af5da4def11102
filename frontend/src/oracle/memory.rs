//! Pointers: indexing, loads, stores and atomics through a [`Place`].
//!
//! A promoted variable is read and written as SSA values: a dynamic index into a
//! function-local array or vector selects with a `bcsel` chain (an out-of-range index
//! reads element 0 and writes nothing, which WGSL allows: it only asks that an
//! out-of-bounds access touch no other variable). Memory (buffers, push constants,
//! shared memory) is addressed by byte offset from the layout naga gives the types
//! (struct member offsets, array strides, matrix column strides), and read and
//! written one scalar or vector at a time with NIR's memory intrinsics.

use crate::error::ImportError;
use crate::oracle::context::Ctx;
use crate::oracle::ops::splat;
use crate::oracle::value::{Place, Space, Step, Val};
use ir::{AluOp, AtomicOp, IntrinsicOp, Src, Type};
use naga::{ScalarKind, TypeInner};

/// The byte stride between the columns of a matrix of `rows` components of `width`
/// bytes: the column size rounded up to its alignment (WGSL's and std430's rule,
/// which naga's layouter applies).
fn column_stride(rows: u8, width: u8) -> u32 {
    let size = rows as u32 * width as u32;
    let align = if rows == 2 { 2 } else { 4 } * width as u32;
    size.div_ceil(align) * align
}

/// The place one step further in: a member, element, column or component.
pub fn index(ctx: &mut Ctx<'_>, base: &Place, step: Step) -> Result<Place, ImportError> {
    match base {
        Place::Var { key, ty, path } => {
            let mut path = path.clone();
            path.push(step);
            Ok(Place::Var {
                key: *key,
                ty: *ty,
                path,
            })
        }
        Place::Memory {
            space,
            pointee,
            offset,
            dynamic,
        } => {
            let types = &ctx.module.types;
            let (inner, stride, member_offset) = match pointee {
                TypeInner::Struct { members, .. } => {
                    let Step::Const(i) = step else {
                        return Err(ctx.internal("a dynamic struct member"));
                    };
                    let m = members
                        .get(i as usize)
                        .ok_or_else(|| ctx.internal("a struct member out of range"))?;
                    (types[m.ty].inner.clone(), 0, m.offset)
                }
                TypeInner::Array { base, stride, .. } => (types[*base].inner.clone(), *stride, 0),
                TypeInner::Vector { scalar, .. } => {
                    (TypeInner::Scalar(*scalar), scalar.width as u32, 0)
                }
                TypeInner::Matrix { rows, scalar, .. } => (
                    TypeInner::Vector {
                        size: *rows,
                        scalar: *scalar,
                    },
                    column_stride(*rows as u8, scalar.width),
                    0,
                ),
                other => {
                    return Err(ctx.internal(format!(
                        "an index into {}",
                        crate::oracle::resources::type_name(other)
                    )))
                }
            };
            let (mut offset, mut dynamic) = (*offset + member_offset, *dynamic);
            match step {
                Step::Const(i) => offset += i * stride,
                Step::Dyn(i) if matches!(pointee, TypeInner::Struct { .. }) => {
                    return Err(ctx.internal(format!("a dynamic struct member {i:?}")))
                }
                Step::Dyn(i) => {
                    let i = to_u32(ctx, i)?;
                    let s = ctx.u32(stride);
                    let scaled = Src::new(ctx.alu(AluOp::Imul, &[i, s])?);
                    dynamic = Some(match dynamic {
                        Some(d) => Src::new(ctx.alu(AluOp::Iadd, &[d, scaled])?),
                        None => scaled,
                    });
                }
            }
            Ok(Place::Memory {
                space: *space,
                pointee: inner,
                offset,
                dynamic,
            })
        }
    }
}

/// An index as a 32-bit scalar (naga's are `i32` or `u32`; 64-bit ones are truncated
/// as their value must be in range).
fn to_u32(ctx: &mut Ctx<'_>, i: Src) -> Result<Src, ImportError> {
    match ctx.src_type(i).bit_size() {
        32 => Ok(i),
        _ => Ok(Src::new(ctx.alu(AluOp::U2u32, &[i])?)),
    }
}

/// Reads a place.
pub fn load(ctx: &mut Ctx<'_>, place: &Place) -> Result<Val, ImportError> {
    match place {
        Place::Var { key, path, .. } => {
            let v = ctx
                .vars
                .get(key)
                .cloned()
                .ok_or_else(|| ctx.internal(format!("variable {key:?} has no value")))?;
            read_path(ctx, &v, path)
        }
        Place::Memory { .. } => load_memory(ctx, place),
    }
}

/// The part of the value `v` at `path` (a dynamic index selects with `bcsel`).
pub fn read_path(ctx: &mut Ctx<'_>, v: &Val, path: &[Step]) -> Result<Val, ImportError> {
    let Some((&step, rest)) = path.split_first() else {
        return Ok(v.clone());
    };
    match (v, step) {
        (Val::Comp(items), Step::Const(i)) => {
            let item = items
                .get(i as usize)
                .ok_or_else(|| ctx.internal("a constant index out of range"))?;
            read_path(ctx, item, rest)
        }
        (Val::Leaf(s), Step::Const(i)) => Ok(Val::Leaf(s.component(i as u8))),
        (Val::Comp(items), Step::Dyn(i)) => {
            let mut acc = read_path(ctx, &items[0], rest)?;
            for (k, item) in items.iter().enumerate().skip(1) {
                let here = read_path(ctx, item, rest)?;
                let eq = index_is(ctx, i, k as u32)?;
                acc = crate::oracle::ops::select_val(ctx, eq, &here, &acc)?;
            }
            Ok(acc)
        }
        (Val::Leaf(s), Step::Dyn(i)) => {
            let mut acc = s.component(0);
            for k in 1..ctx.comps(*s) {
                let eq = index_is(ctx, i, k as u32)?;
                acc = Src::new(ctx.alu(AluOp::Bcsel, &[eq, s.component(k), acc])?);
            }
            Ok(Val::Leaf(acc))
        }
    }
}

/// `i == k` for a run-time index.
fn index_is(ctx: &mut Ctx<'_>, i: Src, k: u32) -> Result<Src, ImportError> {
    let i = to_u32(ctx, i)?;
    let kk = ctx.u32(k);
    Ok(Src::new(ctx.alu(AluOp::Ieq, &[i, kk])?))
}

/// Writes `new` at `path` of `v`, returning the updated value.
fn write_path(ctx: &mut Ctx<'_>, v: &Val, path: &[Step], new: &Val) -> Result<Val, ImportError> {
    let Some((&step, rest)) = path.split_first() else {
        return Ok(new.clone());
    };
    match (v, step) {
        (Val::Comp(items), Step::Const(i)) => {
            let mut items = items.clone();
            let slot = items
                .get_mut(i as usize)
                .ok_or_else(|| ctx.internal("a constant index out of range"))?;
            let updated = write_path(ctx, slot, rest, new)?;
            items[i as usize] = updated;
            Ok(Val::Comp(items))
        }
        (Val::Comp(items), Step::Dyn(i)) => {
            let mut out = Vec::with_capacity(items.len());
            for (k, item) in items.iter().enumerate() {
                let updated = write_path(ctx, item, rest, new)?;
                let eq = index_is(ctx, i, k as u32)?;
                out.push(crate::oracle::ops::select_val(ctx, eq, &updated, item)?);
            }
            Ok(Val::Comp(out))
        }
        (Val::Leaf(s), step) => {
            let Some(c) = new.leaf() else {
                return Err(ctx.internal("a composite written into a vector"));
            };
            let n = ctx.comps(*s);
            let mut comps = Vec::with_capacity(n as usize);
            for k in 0..n {
                let old = s.component(k);
                comps.push(match step {
                    Step::Const(i) if i == k as u32 => c,
                    Step::Const(_) => old,
                    Step::Dyn(i) => {
                        let eq = index_is(ctx, i, k as u32)?;
                        Src::new(ctx.alu(AluOp::Bcsel, &[eq, c, old])?)
                    }
                });
            }
            Ok(Val::Leaf(ctx.vec(&comps)?))
        }
    }
}

/// Writes `val` to a place.
pub fn store(ctx: &mut Ctx<'_>, place: &Place, val: &Val) -> Result<(), ImportError> {
    match place {
        Place::Var { key, path, .. } => {
            let old = ctx
                .vars
                .get(key)
                .cloned()
                .ok_or_else(|| ctx.internal(format!("variable {key:?} has no value")))?;
            let new = write_path(ctx, &old, path, val)?;
            ctx.vars.insert(*key, new);
            Ok(())
        }
        Place::Memory { .. } => store_memory(ctx, place, val),
    }
}

/// The scalar of a memory leaf type and its component count.
fn leaf_shape(t: &TypeInner) -> Option<(naga::Scalar, u8)> {
    match t {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => Some((*s, 1)),
        TypeInner::Vector { size, scalar } => Some((*scalar, *size as u8)),
        _ => None,
    }
}

/// The byte offset of a memory place as a source: `offset + dynamic`.
fn address(ctx: &mut Ctx<'_>, offset: u32, dynamic: Option<Src>) -> Result<Src, ImportError> {
    let o = ctx.u32(offset);
    match dynamic {
        Some(d) => Ok(Src::new(ctx.alu(AluOp::Iadd, &[o, d])?)),
        None => Ok(o),
    }
}

/// Reads memory: one intrinsic per scalar or vector of the pointee.
fn load_memory(ctx: &mut Ctx<'_>, place: &Place) -> Result<Val, ImportError> {
    let Place::Memory {
        space,
        pointee,
        offset,
        dynamic,
    } = place
    else {
        return Err(ctx.internal("not memory"));
    };
    if let Some((scalar, n)) = leaf_shape(pointee) {
        let bool_ = scalar.kind == ScalarKind::Bool;
        let bits = if bool_ { 32 } else { ctx.scalar_bits(scalar)? };
        let ty = Type::new(bits, n).ok_or_else(|| ctx.internal("memory leaf type"))?;
        let align = bits as u32 / 8;
        let v = match *space {
            Space::Ssbo { block, access } => {
                let b = ctx.u32(block);
                let a = address(ctx, *offset, *dynamic)?;
                ctx.intrinsic(
                    IntrinsicOp::LoadSsbo,
                    None,
                    &[b, a],
                    &[access, align],
                    Some(ty),
                )
            }
            Space::Ubo { block } => {
                let b = ctx.u32(block);
                let a = address(ctx, *offset, *dynamic)?;
                let access = ir::Access::NONE.bits();
                ctx.intrinsic(
                    IntrinsicOp::LoadUbo,
                    None,
                    &[b, a],
                    &[access, align],
                    Some(ty),
                )
            }
            Space::Push { range } => {
                let d = match dynamic {
                    Some(d) => *d,
                    None => ctx.u32(0),
                };
                ctx.intrinsic(
                    IntrinsicOp::LoadPushConstant,
                    None,
                    &[d],
                    &[*offset, range],
                    Some(ty),
                )
            }
            Space::Shared => {
                let d = match dynamic {
                    Some(d) => *d,
                    None => ctx.u32(0),
                };
                ctx.intrinsic(
                    IntrinsicOp::LoadShared,
                    None,
                    &[d],
                    &[*offset, align],
                    Some(ty),
                )
            }
        }
        .ok_or_else(|| ctx.internal("a load without a value"))?;
        let mut s = Src::new(v);
        if bool_ {
            let z = crate::oracle::ops::iconst(ctx, 32, 0, n)?;
            s = Src::new(ctx.alu(AluOp::Ine, &[s, z])?);
        }
        return Ok(Val::Leaf(s));
    }
    let count = match pointee {
        TypeInner::Struct { members, .. } => members.len() as u32,
        TypeInner::Array { size, .. } => ctx.array_len(*size)?,
        TypeInner::Matrix { columns, .. } => *columns as u32,
        other => {
            return Err(ctx.unsupported(
                &format!("a load of {}", crate::oracle::resources::type_name(other)),
                "it has no memory representation in the IR",
            ))
        }
    };
    if count as usize > crate::oracle::context::MAX_PROMOTED_LEAVES {
        return Err(ctx.error(
            crate::error::ErrorKind::Limit,
            format!(
                "a load of a {count}-element value from memory: the IR keeps values in registers"
            ),
        ));
    }
    let mut items = Vec::with_capacity(count as usize);
    for i in 0..count {
        let p = index(ctx, place, Step::Const(i))?;
        items.push(load_memory(ctx, &p)?);
    }
    Ok(Val::Comp(items))
}

/// Writes memory: one intrinsic per scalar or vector.
fn store_memory(ctx: &mut Ctx<'_>, place: &Place, val: &Val) -> Result<(), ImportError> {
    let Place::Memory {
        space,
        pointee,
        offset,
        dynamic,
    } = place
    else {
        return Err(ctx.internal("not memory"));
    };
    if let Some((scalar, n)) = leaf_shape(pointee) {
        let mut data = val
            .leaf()
            .ok_or_else(|| ctx.internal("a composite stored as a leaf"))?;
        let bits = if scalar.kind == ScalarKind::Bool {
            let one = crate::oracle::ops::iconst(ctx, 32, 1, n)?;
            let zero = crate::oracle::ops::iconst(ctx, 32, 0, n)?;
            data = Src::new(ctx.alu(AluOp::Bcsel, &[data, one, zero])?);
            32
        } else {
            ctx.scalar_bits(scalar)?
        };
        let align = bits as u32 / 8;
        match *space {
            Space::Ssbo { block, access } => {
                let b = ctx.u32(block);
                let a = address(ctx, *offset, *dynamic)?;
                ctx.intrinsic(
                    IntrinsicOp::StoreSsbo,
                    None,
                    &[data, b, a],
                    &[access, align],
                    None,
                );
            }
            Space::Shared => {
                let d = match dynamic {
                    Some(d) => *d,
                    None => ctx.u32(0),
                };
                ctx.intrinsic(
                    IntrinsicOp::StoreShared,
                    None,
                    &[data, d],
                    &[*offset, align],
                    None,
                );
            }
            Space::Ubo { .. } | Space::Push { .. } => {
                return Err(ctx.internal("a store to read-only memory"))
            }
        }
        return Ok(());
    }
    let Val::Comp(items) = val else {
        return Err(ctx.internal("a leaf stored as a composite"));
    };
    for (i, item) in items.iter().enumerate() {
        let p = index(ctx, place, Step::Const(i as u32))?;
        store_memory(ctx, &p, item)?;
    }
    Ok(())
}

/// The NIR atomic op of a naga atomic function on `kind`, and whether it negates its
/// operand first (`atomicSub` is an add of the negation, as in NIR).
pub fn atomic_op(
    ctx: &Ctx<'_>,
    fun: &naga::AtomicFunction,
    kind: ScalarKind,
) -> Result<(AtomicOp, bool), ImportError> {
    use naga::AtomicFunction as F;
    let float = kind == ScalarKind::Float;
    let signed = kind == ScalarKind::Sint;
    Ok(match fun {
        F::Add if float => (AtomicOp::Fadd, false),
        F::Add => (AtomicOp::Iadd, false),
        F::Subtract if float => (AtomicOp::Fadd, true),
        F::Subtract => (AtomicOp::Iadd, true),
        F::And => (AtomicOp::Iand, false),
        F::ExclusiveOr => (AtomicOp::Ixor, false),
        F::InclusiveOr => (AtomicOp::Ior, false),
        F::Min if float => (AtomicOp::Fmin, false),
        F::Min if signed => (AtomicOp::Imin, false),
        F::Min => (AtomicOp::Umin, false),
        F::Max if float => (AtomicOp::Fmax, false),
        F::Max if signed => (AtomicOp::Imax, false),
        F::Max => (AtomicOp::Umax, false),
        F::Exchange { compare: None } => (AtomicOp::Xchg, false),
        F::Exchange { compare: Some(_) } if float => (AtomicOp::Fcmpxchg, false),
        F::Exchange { compare: Some(_) } => {
            let _ = ctx;
            (AtomicOp::Cmpxchg, false)
        }
    })
}

/// An atomic on memory; returns the old value.
pub fn atomic(
    ctx: &mut Ctx<'_>,
    place: &Place,
    aop: AtomicOp,
    data: Src,
    compare: Option<Src>,
) -> Result<Src, ImportError> {
    let Place::Memory {
        space,
        offset,
        dynamic,
        pointee,
    } = place
    else {
        return Err(ctx.unsupported(
            "an atomic on a function-local or private variable",
            "atomics act on buffers and shared memory",
        ));
    };
    let (scalar, _) =
        leaf_shape(pointee).ok_or_else(|| ctx.internal("an atomic on a composite"))?;
    let bits = ctx.scalar_bits(scalar)?;
    let ty = Type::scalar(bits).ok_or_else(|| ctx.internal("atomic type"))?;
    let mut srcs = Vec::with_capacity(4);
    let (op, indices) = match *space {
        Space::Ssbo { block, access } => {
            srcs.push(ctx.u32(block));
            srcs.push(address(ctx, *offset, *dynamic)?);
            let op = if compare.is_some() {
                IntrinsicOp::SsboAtomicSwap
            } else {
                IntrinsicOp::SsboAtomic
            };
            (op, [access, aop.to_index()])
        }
        Space::Shared => {
            srcs.push(match dynamic {
                Some(d) => *d,
                None => ctx.u32(0),
            });
            let op = if compare.is_some() {
                IntrinsicOp::SharedAtomicSwap
            } else {
                IntrinsicOp::SharedAtomic
            };
            (op, [*offset, aop.to_index()])
        }
        _ => return Err(ctx.internal("an atomic on read-only memory")),
    };
    srcs.extend(compare);
    srcs.push(data);
    let v = ctx
        .intrinsic(op, None, &srcs, &indices, Some(ty))
        .ok_or_else(|| ctx.internal("an atomic without a value"))?;
    Ok(Src::new(v))
}

/// Negates an atomic operand (`atomicSub`).
pub fn negate(ctx: &mut Ctx<'_>, data: Src, float: bool) -> Result<Src, ImportError> {
    let op = if float { AluOp::Fneg } else { AluOp::Ineg };
    let n = ctx.comps(data);
    Ok(splat(Src::new(ctx.alu(op, &[data])?), n))
}

/// `arrayLength` of the runtime-sized array at `place`, a storage buffer's last member:
/// `(get_ssbo_size(block) - offset) / stride`, as NIR's `nir_lower_explicit_io` builds
/// it, with the size first raised to the offset so that a buffer bound smaller than its
/// fixed part gives 0 rather than a wrapped count.
pub fn array_length(ctx: &mut Ctx<'_>, place: &Place) -> Result<Src, ImportError> {
    let Place::Memory {
        space: Space::Ssbo { block, access },
        pointee:
            TypeInner::Array {
                size: naga::ArraySize::Dynamic,
                stride,
                ..
            },
        offset,
        dynamic: None,
    } = place
    else {
        return Err(ctx.unsupported(
            "`arrayLength` of anything but a storage buffer's runtime-sized array",
            "only storage buffers are sized at run time",
        ));
    };
    let b = ctx.u32(*block);
    let size = ctx
        .intrinsic(
            IntrinsicOp::GetSsboSize,
            None,
            &[b],
            &[*access],
            Some(Type::U32),
        )
        .ok_or_else(|| ctx.internal("get_ssbo_size defines no value"))?;
    let off = ctx.u32(*offset);
    let at_least = ctx.alu(AluOp::Umax, &[Src::new(size), off])?;
    let bytes = ctx.alu(AluOp::Isub, &[Src::new(at_least), off])?;
    let stride = ctx.u32(*stride);
    let n = ctx.alu(AluOp::Udiv, &[Src::new(bytes), stride])?;
    Ok(Src::new(n))
}
