//! Variables and pointers (Mesa's `vtn_variables.c`): function and private variables
//! promoted to SSA values, access chains, and loads, stores and atomics on buffers,
//! push constants and workgroup memory at the byte offsets of their layouts.
//!
//! A dynamic index into a promoted array or vector selects with a `bcsel` chain: an
//! out-of-range index reads element 0 and writes nothing (SPIR-V leaves it undefined;
//! the naga path does the same). Memory is addressed by byte offset from the module's
//! explicit layout (`Offset`, `ArrayStride`, `MatrixStride`, `RowMajor`), or the
//! natural layout for workgroup variables, and read and written one scalar or vector at
//! a time with NIR's memory intrinsics.

use super::context::Ctx;
use super::module::Id;
use super::spec::ConstVal;
use super::types::Ty;
use super::value::{ImagePtr, MemPtr, Space, Step, Val, Value, VarKey, VarPtr, MAX_ALIGN};
use crate::error::{ErrorKind, ImportError};
use ir::{Access, AluOp, AtomicOp, IntrinsicOp, Src, Type};
use spirv::Decoration as D;

/// An index as a 32-bit scalar.
fn to_u32(ctx: &mut Ctx<'_>, i: Src) -> Result<Src, ImportError> {
    let t = ctx.func.src_type(i);
    if t.num_components() != 1 {
        return Err(ctx.invalid("an index that is not a scalar"));
    }
    match t.bit_size() {
        32 => Ok(i),
        1 => Err(ctx.invalid("a boolean index")),
        _ => ctx.alu(AluOp::U2u32, &[i]),
    }
}

/// A step given by index operand `id`: a constant or a run-time index.
fn step_of(ctx: &mut Ctx<'_>, id: u32) -> Result<Step, ImportError> {
    if let Some(c) = ctx.d.consts.get(&id) {
        if let super::spec::ConstVal::Scalar(v) = c.val {
            return Ok(Step::Const(v.min(u32::MAX as u64) as u32));
        }
    }
    let s = ctx.leaf(id)?;
    let s = to_u32(ctx, s)?;
    Ok(Step::Dyn(s))
}

/// The type one step into `ty`, the step's index checked against its length.
fn step_type(ctx: &Ctx<'_>, ty: u32, step: Step) -> Result<u32, ImportError> {
    let bad = || {
        ctx.invalid(format!(
            "an index into %{ty}, which has no elements to index"
        ))
    };
    let check = |n: u32| -> Result<(), ImportError> {
        match step {
            Step::Const(i) if i >= n => {
                Err(ctx.invalid(format!("index {i} is out of range of %{ty} ({n} elements)")))
            }
            _ => Ok(()),
        }
    };
    match ctx.ty(ty)? {
        Ty::Vector { elem, n } => {
            check(*n as u32)?;
            Ok(*elem)
        }
        Ty::Matrix { col, n } => {
            check(*n as u32)?;
            Ok(*col)
        }
        Ty::Array { elem, len } => {
            check(*len)?;
            Ok(*elem)
        }
        Ty::RuntimeArray { elem } => Ok(*elem),
        Ty::Struct { members } => match step {
            Step::Const(i) => members
                .get(i as usize)
                .copied()
                .ok_or_else(|| ctx.invalid(format!("member {i} is out of range of struct %{ty}"))),
            Step::Dyn(_) => Err(ctx.invalid("a struct member chosen at run time")),
        },
        _ => Err(bad()),
    }
}

/// The pointer of a global variable: what its role makes it.
pub fn global_pointer(ctx: &mut Ctx<'_>, id: u32) -> Result<Value, ImportError> {
    use super::variables::Role;
    let g = *ctx
        .map
        .globals
        .get(&id)
        .ok_or_else(|| ctx.internal("a global without a record"))?;
    let role = ctx
        .map
        .roles
        .get(&id)
        .cloned()
        .ok_or_else(|| ctx.internal("a used global without a role"))?;
    let mem = |space, block: Option<Src>, array_base, access, range, offset| {
        Value::Mem(MemPtr {
            space,
            block,
            array_base,
            access,
            range,
            pointee: g.pointee,
            offset,
            dynamic: None,
            dynamic_align: super::value::MAX_ALIGN,
            matrix: None,
            vec_stride: None,
            non_uniform: false,
        })
    };
    Ok(match role {
        Role::Image { image, .. } => Value::ImagePtr(ImagePtr {
            image,
            pointee: g.pointee,
            index: None,
            non_uniform: false,
        }),
        Role::Sampler { index } => Value::Sampler(index),
        Role::Buffer {
            space,
            block,
            array,
            access,
        } => {
            if array {
                mem(space, None, Some(block), access, 0, 0)
            } else {
                let b = ctx.u32(block);
                mem(space, Some(b), None, access, 0, 0)
            }
        }
        Role::Push { range } => mem(Space::Push, None, None, 0, range, 0),
        Role::Shared { offset } => mem(Space::Shared, None, None, 0, 0, offset),
        Role::Scratch { offset } => mem(Space::Scratch, None, None, 0, 0, offset),
        Role::Private => Value::Var(VarPtr {
            key: VarKey::Private(id),
            pointee: g.pointee,
            path: Vec::new(),
        }),
        Role::Builtin { builtin } => Value::Builtin {
            builtin,
            pointee: g.pointee,
            component: None,
        },
    })
}

/// `OpVariable` in a function: a promoted variable, with its initializer or zero.
pub fn local_variable(ctx: &mut Ctx<'_>, i: usize) -> Result<(), ImportError> {
    let ops = ctx.m.ops(i).to_vec();
    let [ty, id, sc, rest @ ..] = ops.as_slice() else {
        return Err(ctx.invalid("OpVariable has too few operands"));
    };
    if *sc != spirv::StorageClass::Function as u32 {
        return Err(
            ctx.invalid("an OpVariable in a function that is not of the Function storage class")
        );
    }
    let Ty::Pointer { pointee, .. } = ctx.ty(*ty)? else {
        return Err(ctx.invalid("a variable whose type is not a pointer"));
    };
    let pointee = *pointee;
    if let Some(&offset) = ctx.map.scratch_locals.get(id) {
        // A scratch variable without an initializer is left undefined, as SPIR-V
        // leaves it (zeroing it would cost a store per dword on every call).
        let p = scratch_pointer(pointee, offset);
        if let Some(init) = rest.first() {
            let v = ctx.val(*init)?;
            store(ctx, &p, &v)?;
        }
        return ctx.set(*id, p);
    }
    let v = match rest.first() {
        Some(init) => ctx.val(*init)?,
        None => ctx.zero_of(pointee)?,
    };
    let frame = ctx.frame()?.id;
    ctx.set_var(VarKey::Local(frame, *id), v)?;
    ctx.set(
        *id,
        Value::Var(VarPtr {
            key: VarKey::Local(frame, *id),
            pointee,
            path: Vec::new(),
        }),
    )
}

/// A pointer to a variable at byte `offset` of scratch memory.
pub fn scratch_pointer(pointee: u32, offset: u32) -> Value {
    Value::Mem(MemPtr {
        space: Space::Scratch,
        block: None,
        array_base: None,
        access: 0,
        range: 0,
        pointee,
        offset,
        dynamic: None,
        dynamic_align: super::value::MAX_ALIGN,
        matrix: None,
        vec_stride: None,
        non_uniform: false,
    })
}

/// NIR access bits of member `i` of struct `ty`'s decorations.
fn member_access(ctx: &Ctx<'_>, ty: u32, i: u32) -> Access {
    let mut a = Access::NONE;
    for (d, bit) in [
        (D::NonWritable, Access::NON_WRITEABLE),
        (D::NonReadable, Access::NON_READABLE),
        (D::Coherent, Access::COHERENT),
        (D::Volatile, Access::VOLATILE),
        (D::Restrict, Access::RESTRICT),
    ] {
        if ctx.decs.member_has(ty, i, d) {
            a |= bit;
        }
    }
    a
}

/// Whether `id` is decorated `NonUniform`.
pub fn non_uniform(ctx: &Ctx<'_>, id: u32) -> bool {
    ctx.decs.has(id, D::NonUniform)
}

/// `OpAccessChain` / `OpInBoundsAccessChain`: `base` indexed by `indices`.
pub fn access_chain(ctx: &mut Ctx<'_>, base: Value, indices: &[u32]) -> Result<Value, ImportError> {
    let mut p = base;
    for &ix in indices {
        let nu = non_uniform(ctx, ix);
        let step = step_of(ctx, ix)?;
        p = index(ctx, p, step, nu)?;
    }
    Ok(p)
}

/// `OpPtrAccessChain` / `OpInBoundsPtrAccessChain` through a buffer device address:
/// `base` moved by `element` times the pointer type's `ArrayStride` (the pointee's
/// size in memory without one), then indexed by `indices`. Other pointers cannot be
/// stepped: that needs variable pointers.
pub fn ptr_access_chain(
    ctx: &mut Ctx<'_>,
    base: u32,
    element: u32,
    indices: &[u32],
) -> Result<Value, ImportError> {
    let mut m = match ctx.pointer(base)? {
        Value::Mem(m) if m.space == Space::Global => m,
        _ => {
            return Err(ctx.unsupported(
                "OpPtrAccessChain of a pointer that is not a buffer device address",
                "stepping a logical pointer needs variable pointers, which the translator does not model",
            ))
        }
    };
    let ty = ctx.type_of(base).unwrap_or(0);
    let stride = match ctx.decs.get(ty, D::ArrayStride) {
        Some(s) => s,
        None => ctx
            .d
            .types
            .explicit_size(ctx.decs, m.pointee)
            .ok_or_else(|| {
                ctx.invalid("OpPtrAccessChain of a pointer whose type has no ArrayStride")
            })?,
    };
    match step_of(ctx, element)? {
        Step::Const(k) => m.offset = m.offset.wrapping_add(k.wrapping_mul(stride)),
        Step::Dyn(k) => add_dynamic(ctx, &mut m, k, stride)?,
    }
    access_chain(ctx, Value::Mem(m), indices)
}

/// Adds `i * stride` to the run-time part of `m`'s offset.
fn add_dynamic(ctx: &mut Ctx<'_>, m: &mut MemPtr, i: Src, stride: u32) -> Result<(), ImportError> {
    let s = ctx.u32(stride);
    let scaled = ctx.alu(AluOp::Imul, &[i, s])?;
    m.dynamic = Some(match m.dynamic {
        Some(d) => ctx.alu(AluOp::Iadd, &[d, scaled])?,
        None => scaled,
    });
    if stride != 0 {
        m.dynamic_align = m.dynamic_align.min(1 << stride.trailing_zeros());
    }
    Ok(())
}

/// The `align_mul` of an access of `bits`-wide components through `m`: of a buffer or
/// workgroup memory, the largest power of two that divides its constant offset and
/// every stride of its run-time part, as `nir_lower_explicit_io` derives it from the
/// explicit layout (a byte vector at offset 8 of a 16-byte array element is 8-byte
/// aligned; a `vec2` of a workgroup array is 8-byte aligned, since workgroup memory
/// starts at 0 and each variable at a multiple of its alignment); elsewhere the
/// component's size.
fn access_align(m: &MemPtr, bits: u8) -> u32 {
    match m.space {
        Space::Ssbo | Space::Ubo | Space::Shared => {
            let constant = match m.offset {
                0 => MAX_ALIGN,
                o => 1 << o.trailing_zeros().min(MAX_ALIGN.trailing_zeros()),
            };
            constant.min(m.dynamic_align)
        }
        _ => (u32::from(bits) / 8).max(1),
    }
}

/// One step into a pointer.
pub fn index(ctx: &mut Ctx<'_>, p: Value, step: Step, nu: bool) -> Result<Value, ImportError> {
    match p {
        Value::Var(mut v) => {
            v.pointee = step_type(ctx, v.pointee, step)?;
            v.path.push(step);
            Ok(Value::Var(v))
        }
        Value::ImagePtr(mut ip) => {
            if ip.index.is_some() {
                return Err(ctx.unsupported(
                    "an array of arrays of images",
                    "the IR declares one array of images per binding",
                ));
            }
            ip.pointee = step_type(ctx, ip.pointee, step)?;
            ip.index = Some(match step {
                Step::Const(c) => ctx.u32(c),
                Step::Dyn(s) => s,
            });
            ip.non_uniform |= nu;
            Ok(Value::ImagePtr(ip))
        }
        Value::Builtin {
            builtin,
            pointee,
            component: None,
        } => {
            let t = step_type(ctx, pointee, step)?;
            Ok(Value::Builtin {
                builtin,
                pointee: t,
                component: Some(step),
            })
        }
        Value::Mem(m) => index_memory(ctx, m, step, nu).map(Value::Mem),
        other => Err(ctx.invalid(format!(
            "an access chain into {}",
            super::context::describe(&other)
        ))),
    }
}

/// One step into memory.
fn index_memory(
    ctx: &mut Ctx<'_>,
    mut m: MemPtr,
    step: Step,
    nu: bool,
) -> Result<MemPtr, ImportError> {
    let ty = m.pointee;
    let inner = step_type(ctx, ty, step)?;
    // An array of buffers: the first index picks the block.
    if let Some(base) = m.array_base.take() {
        let b = match step {
            Step::Const(c) => ctx.u32(base.saturating_add(c)),
            Step::Dyn(s) => {
                let k = ctx.u32(base);
                ctx.alu(AluOp::Iadd, &[k, s])?
            }
        };
        m.block = Some(b);
        m.pointee = inner;
        m.non_uniform |= nu;
        return Ok(m);
    }
    let scalar_size = |ctx: &Ctx<'_>, t: u32| -> Result<u32, ImportError> {
        let l = ctx
            .d
            .types
            .natural(t)
            .ok_or_else(|| ctx.invalid("a vector of a type without a size"))?;
        Ok(l.size)
    };
    let stride = match ctx.ty(ty)? {
        Ty::Struct { .. } => {
            let Step::Const(i) = step else {
                return Err(ctx.invalid("a struct member chosen at run time"));
            };
            let off = ctx.d.types.member_offset(ctx.decs, ty, i).ok_or_else(|| {
                ctx.invalid(format!("member {i} of struct %{ty} has no Offset, and the struct has no natural layout"))
            })?;
            // A block's members carry the buffer's qualifiers in GLSL (`readonly`,
            // `coherent` on a member): they join the access of what is reached through them.
            if ctx.decs.has(ty, D::Block) || ctx.decs.has(ty, D::BufferBlock) {
                m.access |= member_access(ctx, ty, i).bits();
            }
            m.offset = m
                .offset
                .checked_add(off)
                .ok_or_else(|| ctx.invalid("an offset beyond 4 GiB"))?;
            m.matrix = ctx
                .decs
                .member_get(ty, i, D::MatrixStride)
                .map(|s| (s, ctx.decs.member_has(ty, i, D::RowMajor)));
            m.vec_stride = None;
            m.pointee = inner;
            return Ok(m);
        }
        Ty::Array { .. } | Ty::RuntimeArray { .. } => {
            let elem_is_matrix = matches!(ctx.d.types.get(inner), Some(Ty::Matrix { .. }));
            match ctx.d.types.array_stride(ctx.decs, ty) {
                Some(s) if s > 0 || elem_is_matrix => s,
                _ => return Err(ctx.invalid(format!("array %{ty} in memory has no ArrayStride"))),
            }
        }
        Ty::Matrix { .. } => {
            let (mstride, row_major) = match m.matrix {
                Some(x) => x,
                None => {
                    let c = ctx
                        .d
                        .types
                        .natural(inner)
                        .ok_or_else(|| ctx.invalid("a matrix without a layout"))?;
                    (c.size.div_ceil(c.align) * c.align, false)
                }
            };
            let elem = match ctx.ty(inner)? {
                Ty::Vector { elem, .. } => *elem,
                _ => return Err(ctx.invalid("a matrix whose column is not a vector")),
            };
            let es = scalar_size(ctx, elem)?;
            if row_major {
                m.vec_stride = Some(mstride);
                es
            } else {
                m.vec_stride = None;
                mstride
            }
        }
        Ty::Vector { elem, .. } => {
            let es = scalar_size(ctx, *elem)?;
            let s = m.vec_stride.unwrap_or(es);
            m.vec_stride = None;
            s
        }
        _ => return Err(ctx.invalid(format!("an index into %{ty}, which has no elements"))),
    };
    match step {
        Step::Const(i) => {
            m.offset = (i as u64 * stride as u64 + m.offset as u64)
                .try_into()
                .map_err(|_| ctx.invalid("an offset beyond 4 GiB"))?;
        }
        Step::Dyn(i) => {
            // Scratch is shared by every large array of the invocation: an index past
            // the end stays on the array's last element (reading or writing past it is
            // undefined in SPIR-V; another variable must not see it).
            let i = match (m.space, ctx.ty(ty)?) {
                (Space::Scratch, Ty::Array { len, .. }) => {
                    let last = ctx.u32(len.saturating_sub(1));
                    ctx.alu(AluOp::Umin, &[i, last])?
                }
                _ => i,
            };
            add_dynamic(ctx, &mut m, i, stride)?;
        }
    }
    m.non_uniform |= nu;
    m.pointee = inner;
    Ok(m)
}

/// Reads through a pointer.
pub fn load(ctx: &mut Ctx<'_>, p: &Value, result_ty: u32) -> Result<Value, ImportError> {
    match p {
        Value::Var(v) => {
            if let Some(val) = super::constants::load(ctx, v)? {
                return Ok(Value::Val(val));
            }
            let whole = ctx
                .var(v.key)?
                .cloned()
                .ok_or_else(|| ctx.internal(format!("variable {:?} has no value", v.key)))?;
            Ok(Value::Val(read_path(ctx, &whole, &v.path)?))
        }
        Value::Mem(m) => {
            if m.array_base.is_some() {
                return Err(ctx.unsupported(
                    "a load of a whole array of buffers",
                    "the IR reads one buffer at a time",
                ));
            }
            Ok(Value::Val(load_memory(ctx, m, 0)?))
        }
        Value::ImagePtr(ip) => {
            if matches!(ctx.ty(ip.pointee)?, Ty::Array { .. }) {
                return Err(ctx.unsupported(
                    "a load of a whole array of images",
                    "the IR names images one at a time",
                ));
            }
            Ok(Value::Image(super::value::ImageUse {
                image: ip.image,
                index: ip.index,
                non_uniform: ip.non_uniform,
            }))
        }
        Value::Sampler(i) => Ok(Value::Sampler(*i)),
        Value::Builtin {
            builtin,
            component,
            pointee,
        } => {
            // A subgroup mask is a uvec4, or a uint64_t (GL_ARB_shader_ballot's).
            let wide = component.is_none() && ctx.d.types.ir_type(*pointee) == Some(Type::U64);
            let v = builtin_value(ctx, *builtin, wide)?;
            let v = match component {
                None => v,
                Some(step) => match read_path(ctx, &Val::Leaf(v), &[*step])? {
                    Val::Leaf(s) => s,
                    Val::Comp(_) => return Err(ctx.internal("a builtin component is a composite")),
                },
            };
            let _ = result_ty;
            Ok(Value::Val(Val::Leaf(v)))
        }
        other => Err(ctx.invalid(format!(
            "OpLoad through {}",
            super::context::describe(other)
        ))),
    }
}

/// The value of a builtin input; a subgroup mask as a `uint64_t` where `wide`, else
/// as a uvec4.
fn builtin_value(ctx: &mut Ctx<'_>, b: u32, wide: bool) -> Result<Src, ImportError> {
    use spirv::BuiltIn as B;
    let sv = |ctx: &mut Ctx<'_>, op: IntrinsicOp, ty: Type| -> Result<Src, ImportError> {
        let v = ctx.build(|bd| bd.intrinsic(op, None, &[], &[], Some(ty)));
        v.map(Src::new)
            .ok_or_else(|| ctx.internal("a system value without a value"))
    };
    match B::from_u32(b) {
        Some(B::GlobalInvocationId) => sv(ctx, IntrinsicOp::LoadGlobalInvocationId, Type::vec32(3)),
        Some(B::LocalInvocationId) => sv(ctx, IntrinsicOp::LoadLocalInvocationId, Type::vec32(3)),
        Some(B::WorkgroupId) => sv(ctx, IntrinsicOp::LoadWorkgroupId, Type::vec32(3)),
        Some(B::NumWorkgroups) => sv(ctx, IntrinsicOp::LoadNumWorkgroups, Type::vec32(3)),
        Some(B::LocalInvocationIndex) => sv(ctx, IntrinsicOp::LoadLocalInvocationIndex, Type::U32),
        Some(B::SubgroupLocalInvocationId) => {
            sv(ctx, IntrinsicOp::LoadSubgroupInvocation, Type::U32)
        }
        Some(B::SubgroupId) => sv(ctx, IntrinsicOp::LoadSubgroupId, Type::U32),
        Some(B::NumSubgroups) => sv(ctx, IntrinsicOp::LoadNumSubgroups, Type::U32),
        Some(B::WorkgroupSize) => {
            let [x, y, z] = ctx.workgroup_size;
            Ok(ctx.load_const(Type::vec32(3), &[x as u64, y as u64, z as u64]))
        }
        Some(B::SubgroupSize) => sv(ctx, IntrinsicOp::LoadSubgroupSize, Type::U32),
        Some(
            mask @ (B::SubgroupEqMask
            | B::SubgroupGeMask
            | B::SubgroupGtMask
            | B::SubgroupLeMask
            | B::SubgroupLtMask),
        ) => {
            // The lanes of a subgroup (at most 32 here) relative to this one's, as
            // NIR's nir_lower_subgroups builds them: ge and gt within the subgroup's
            // lanes (`~0 >> (32 - size)`), le as `(2 << id) - 1` (all lanes for the
            // last of 32: the shift wraps to 0).
            let id = sv(ctx, IntrinsicOp::LoadSubgroupInvocation, Type::U32)?;
            let one = ctx.u32(1);
            let bit = ctx.alu(AluOp::Ishl, &[one, id])?;
            let two = ctx.u32(2);
            let above = ctx.alu(AluOp::Ishl, &[two, id])?;
            let m = match mask {
                B::SubgroupEqMask => bit,
                B::SubgroupLtMask => ctx.alu(AluOp::Isub, &[bit, one])?,
                B::SubgroupLeMask => ctx.alu(AluOp::Isub, &[above, one])?,
                _ => {
                    let size = sv(ctx, IntrinsicOp::LoadSubgroupSize, Type::U32)?;
                    let k32 = ctx.u32(32);
                    let shift = ctx.alu(AluOp::Isub, &[k32, size])?;
                    let all = ctx.u32(u32::MAX);
                    let lanes = ctx.alu(AluOp::Ushr, &[all, shift])?;
                    let from = if mask == B::SubgroupGeMask {
                        bit
                    } else {
                        above
                    };
                    let below = ctx.alu(AluOp::Isub, &[from, one])?;
                    let not_below = ctx.alu(AluOp::Inot, &[below])?;
                    ctx.alu(AluOp::Iand, &[not_below, lanes])?
                }
            };
            if wide {
                ctx.alu(AluOp::U2u64, &[m])
            } else {
                let z = ctx.u32(0);
                ctx.vec(&[m, z, z, z])
            }
        }
        Some(other) => Err(ctx.unsupported(
            &format!("the builtin {other:?}"),
            "the IR has no such system value",
        )),
        None => Err(ctx.invalid(format!("unknown builtin {b}"))),
    }
}

/// The part of `v` at `path` (a run-time index selects with `bcsel`).
pub fn read_path(ctx: &mut Ctx<'_>, v: &Val, path: &[Step]) -> Result<Val, ImportError> {
    let Some((&step, rest)) = path.split_first() else {
        return Ok(v.clone());
    };
    match (v, step) {
        (Val::Comp(items), Step::Const(i)) => {
            let item = items
                .get(i as usize)
                .ok_or_else(|| ctx.invalid(format!("index {i} is out of range")))?;
            read_path(ctx, item, rest)
        }
        (Val::Leaf(s), Step::Const(i)) => {
            if i >= ctx.func.src_components(*s) as u32 {
                return Err(ctx.invalid(format!("component {i} is out of range")));
            }
            Ok(Val::Leaf(s.component(i as u8)))
        }
        (Val::Comp(items), Step::Dyn(i)) => {
            let first = items
                .first()
                .ok_or_else(|| ctx.invalid("an index into an empty value"))?;
            let mut acc = read_path(ctx, first, rest)?;
            for (k, item) in items.iter().enumerate().skip(1) {
                let here = read_path(ctx, item, rest)?;
                let eq = index_is(ctx, i, k as u32)?;
                acc = select_val(ctx, eq, &here, &acc)?;
            }
            Ok(acc)
        }
        (Val::Leaf(s), Step::Dyn(i)) => {
            let mut acc = s.component(0);
            for k in 1..ctx.func.src_components(*s) {
                let eq = index_is(ctx, i, k as u32)?;
                acc = ctx.alu(AluOp::Bcsel, &[eq, s.component(k), acc])?;
            }
            Ok(Val::Leaf(acc))
        }
    }
}

/// `i == k` for a run-time index.
fn index_is(ctx: &mut Ctx<'_>, i: Src, k: u32) -> Result<Src, ImportError> {
    let kk = ctx.u32(k);
    ctx.alu(AluOp::Ieq, &[i, kk])
}

/// `cond ? a : b` on value trees (a scalar condition).
pub fn select_val(ctx: &mut Ctx<'_>, cond: Src, a: &Val, b: &Val) -> Result<Val, ImportError> {
    let (al, bl) = (a.leaves(), b.leaves());
    if al.len() != bl.len() {
        return Err(ctx.invalid("a selection between values of different shapes"));
    }
    let mut out = Vec::with_capacity(al.len());
    for (x, y) in al.into_iter().zip(bl) {
        let n = ctx.func.src_components(x);
        let c = super::alu::splat(cond, n).map_err(|e| ctx.alu_error(e))?;
        out.push(ctx.alu(AluOp::Bcsel, &[c, x, y])?);
    }
    a.with_leaves(&mut out.into_iter())
        .ok_or_else(|| ctx.internal("select lost leaves"))
}

/// Writes `new` at `path` of `v`, returning the updated value (a run-time index
/// writes with `bcsel`).
pub fn write_path(
    ctx: &mut Ctx<'_>,
    v: &Val,
    path: &[Step],
    new: &Val,
) -> Result<Val, ImportError> {
    let Some((&step, rest)) = path.split_first() else {
        return Ok(new.clone());
    };
    match (v, step) {
        (Val::Comp(items), Step::Const(i)) => {
            let mut items = items.clone();
            let slot = items
                .get(i as usize)
                .ok_or_else(|| ctx.invalid(format!("index {i} is out of range")))?;
            let updated = write_path(ctx, slot, rest, new)?;
            items[i as usize] = updated;
            Ok(Val::Comp(items))
        }
        (Val::Comp(items), Step::Dyn(i)) => {
            let mut out = Vec::with_capacity(items.len());
            for (k, item) in items.iter().enumerate() {
                let updated = write_path(ctx, item, rest, new)?;
                let eq = index_is(ctx, i, k as u32)?;
                out.push(select_val(ctx, eq, &updated, item)?);
            }
            Ok(Val::Comp(out))
        }
        (Val::Leaf(s), step) => {
            let Some(c) = new.leaf() else {
                return Err(ctx.invalid("a composite written into a vector component"));
            };
            let n = ctx.func.src_components(*s);
            if let Step::Const(i) = step {
                if i >= n as u32 {
                    return Err(ctx.invalid(format!("component {i} is out of range")));
                }
            }
            let mut comps = Vec::with_capacity(n as usize);
            for k in 0..n {
                let old = s.component(k);
                comps.push(match step {
                    Step::Const(i) if i == k as u32 => c,
                    Step::Const(_) => old,
                    Step::Dyn(i) => {
                        let eq = index_is(ctx, i, k as u32)?;
                        ctx.alu(AluOp::Bcsel, &[eq, c, old])?
                    }
                });
            }
            Ok(Val::Leaf(ctx.vec(&comps)?))
        }
    }
}

/// Writes through a pointer.
pub fn store(ctx: &mut Ctx<'_>, p: &Value, val: &Val) -> Result<(), ImportError> {
    match p {
        Value::Var(v) => {
            let old = ctx
                .var(v.key)?
                .cloned()
                .ok_or_else(|| ctx.internal(format!("variable {:?} has no value", v.key)))?;
            let new = write_path(ctx, &old, &v.path, val)?;
            if new.leaves().len() != old.leaves().len() {
                return Err(ctx.invalid("a store of a value of another shape"));
            }
            ctx.set_var(v.key, new)?;
            Ok(())
        }
        Value::Mem(m) => {
            if m.array_base.is_some() {
                return Err(ctx.unsupported(
                    "a store of a whole array of buffers",
                    "the IR writes one buffer at a time",
                ));
            }
            store_memory(ctx, m, val, 0)
        }
        other => Err(ctx.invalid(format!(
            "OpStore through {}",
            super::context::describe(other)
        ))),
    }
}

/// The shape of a memory leaf: its scalar bits (booleans as 32-bit words), component
/// count, and whether it is a boolean.
fn leaf_shape(ctx: &Ctx<'_>, ty: u32) -> Option<(u8, u8, bool)> {
    if ctx.d.types.physical_pointee(ty).is_some() {
        return Some((64, 1, false));
    }
    match ctx.d.types.get(ty)? {
        Ty::Bool => Some((32, 1, true)),
        Ty::Int { bits, .. } | Ty::Float { bits } => Some((*bits, 1, false)),
        Ty::Vector { elem, n } => {
            let (b, _, bo) = leaf_shape(ctx, *elem)?;
            Some((b, *n, bo))
        }
        _ => None,
    }
}

/// `offset + dynamic` as a source.
fn address(ctx: &mut Ctx<'_>, m: &MemPtr) -> Result<Src, ImportError> {
    let o = ctx.u32(m.offset);
    match m.dynamic {
        Some(d) => ctx.alu(AluOp::Iadd, &[o, d]),
        None => Ok(o),
    }
}

/// The access bits of a buffer access: the buffer's qualifiers and its members', and
/// `non_uniform` when a `NonUniform` value reached it (Mesa's `ACCESS_NON_UNIFORM`).
fn access_bits(m: &MemPtr) -> u32 {
    if m.non_uniform {
        m.access | Access::NON_UNIFORM.bits()
    } else {
        m.access
    }
}

/// Reads memory: one intrinsic per scalar or vector (per component for a column of a
/// row-major matrix).
fn load_memory(ctx: &mut Ctx<'_>, m: &MemPtr, depth: usize) -> Result<Val, ImportError> {
    if let Some((bits, n, is_bool)) = leaf_shape(ctx, m.pointee) {
        if n > 1 && m.vec_stride.is_some_and(|s| s != bits as u32 / 8) {
            let mut comps = Vec::with_capacity(n as usize);
            for c in 0..n {
                let p = index_memory(ctx, m.clone(), Step::Const(c as u32), false)?;
                comps.push(
                    load_memory(ctx, &p, depth + 1)?
                        .leaf()
                        .ok_or_else(|| ctx.internal("a component load"))?,
                );
            }
            return Ok(Val::Leaf(ctx.vec(&comps)?));
        }
        let ty = Type::new(bits, n)
            .ok_or_else(|| ctx.invalid("a memory value of an unsupported shape"))?;
        let align = access_align(m, bits);
        let v = match m.space {
            Space::Ssbo | Space::Ubo => {
                let b = m
                    .block
                    .ok_or_else(|| ctx.internal("a buffer access without a block"))?;
                let a = address(ctx, m)?;
                if m.space == Space::Ssbo {
                    let acc = access_bits(m);
                    ctx.build(|bd| {
                        bd.intrinsic(
                            IntrinsicOp::LoadSsbo,
                            None,
                            &[b, a],
                            &[acc, align],
                            Some(ty),
                        )
                    })
                } else {
                    let acc = access_bits(m);
                    ctx.build(|bd| {
                        bd.intrinsic(IntrinsicOp::LoadUbo, None, &[b, a], &[acc, align], Some(ty))
                    })
                }
            }
            Space::Push => {
                let d = match m.dynamic {
                    Some(d) => d,
                    None => ctx.u32(0),
                };
                let (o, r) = (m.offset, m.range);
                ctx.build(|bd| {
                    bd.intrinsic(IntrinsicOp::LoadPushConstant, None, &[d], &[o, r], Some(ty))
                })
            }
            Space::Shared => {
                let d = match m.dynamic {
                    Some(d) => d,
                    None => ctx.u32(0),
                };
                let o = m.offset;
                ctx.build(|bd| {
                    bd.intrinsic(IntrinsicOp::LoadShared, None, &[d], &[o, align], Some(ty))
                })
            }
            Space::Global => {
                let a = ctx.global_address(m)?;
                let acc = access_bits(m);
                ctx.build(|bd| {
                    bd.intrinsic(IntrinsicOp::LoadGlobal, None, &[a], &[acc, align], Some(ty))
                })
            }
            Space::Scratch => {
                let a = address(ctx, m)?;
                ctx.build(|bd| {
                    bd.intrinsic(IntrinsicOp::LoadScratch, None, &[a], &[align], Some(ty))
                })
            }
        }
        .ok_or_else(|| ctx.internal("a load without a value"))?;
        let mut s = Src::new(v);
        if is_bool {
            let z = ctx.load_const(ty, &vec![0; n as usize]);
            s = ctx.alu(AluOp::Ine, &[s, z])?;
        }
        return Ok(Val::Leaf(s));
    }
    let count = match ctx.ty(m.pointee)? {
        Ty::Struct { members } => members.len() as u32,
        Ty::Array { len, .. } => *len,
        Ty::Matrix { n, .. } => *n as u32,
        Ty::RuntimeArray { .. } => {
            return Err(ctx.unsupported(
                "a load of a whole runtime array",
                "its length is known only at run time",
            ))
        }
        other => {
            return Err(ctx.unsupported(
                &format!("a load of a {}", super::context::type_name(other)),
                "it has no memory representation in the IR",
            ))
        }
    };
    if count as usize + depth > super::context::MAX_PROMOTED_LEAVES {
        return Err(ctx.error(
            ErrorKind::Limit,
            format!(
                "a load of a {count}-element value from memory: the IR keeps values in registers"
            ),
        ));
    }
    let mut items = Vec::with_capacity(count as usize);
    for i in 0..count {
        let p = index_memory(ctx, m.clone(), Step::Const(i), false)?;
        items.push(load_memory(ctx, &p, depth + items.len() + 1)?);
    }
    Ok(Val::Comp(items))
}

/// Stores constant `c` of type `ty` to memory at `m`, one scalar or vector at a time
/// as the constant is walked: a composite of any size (bounded by the IR's instruction
/// limit, as every store is an instruction), never a value in registers whole.
pub fn store_constant(
    ctx: &mut Ctx<'_>,
    m: &MemPtr,
    ty: Id,
    c: &ConstVal,
) -> Result<(), ImportError> {
    let elems: Vec<Id> = match (ctx.ty(ty)?, c) {
        (Ty::Array { elem, .. }, ConstVal::Comp(items)) => vec![*elem; items.len()],
        (Ty::Matrix { col, .. }, ConstVal::Comp(items)) => vec![*col; items.len()],
        (Ty::Struct { members }, ConstVal::Comp(items)) if members.len() == items.len() => {
            members.clone()
        }
        _ => {
            let v = ctx.constant(ty, c)?;
            return store_memory(ctx, m, &v, 0);
        }
    };
    let ConstVal::Comp(items) = c else {
        return Err(ctx.internal("a composite constant without parts"));
    };
    for (i, (item, t)) in items.iter().zip(elems).enumerate() {
        let p = index_memory(ctx, m.clone(), Step::Const(i as u32), false)?;
        store_constant(ctx, &p, t, item)?;
    }
    Ok(())
}

/// Writes memory: one intrinsic per scalar or vector.
fn store_memory(ctx: &mut Ctx<'_>, m: &MemPtr, val: &Val, depth: usize) -> Result<(), ImportError> {
    if let Some((bits, n, is_bool)) = leaf_shape(ctx, m.pointee) {
        let mut data = val
            .leaf()
            .ok_or_else(|| ctx.invalid("a composite stored where a scalar or vector goes"))?;
        if ctx.func.src_components(data) != n {
            return Err(ctx.invalid("a store of a value of another shape"));
        }
        if n > 1 && m.vec_stride.is_some_and(|s| s != bits as u32 / 8) {
            for c in 0..n {
                let p = index_memory(ctx, m.clone(), Step::Const(c as u32), false)?;
                store_memory(ctx, &p, &Val::Leaf(data.component(c)), depth + 1)?;
            }
            return Ok(());
        }
        let ty = Type::new(bits, n)
            .ok_or_else(|| ctx.invalid("a memory value of an unsupported shape"))?;
        if is_bool {
            let one = ctx.load_const(ty, &vec![1; n as usize]);
            let zero = ctx.load_const(ty, &vec![0; n as usize]);
            data = ctx.alu(AluOp::Bcsel, &[data, one, zero])?;
        } else if ctx.func.src_type(data).bit_size() != bits {
            return Err(ctx.invalid("a store of a value of another bit size"));
        }
        let align = access_align(m, bits);
        match m.space {
            Space::Ssbo => {
                let b = m
                    .block
                    .ok_or_else(|| ctx.internal("a buffer access without a block"))?;
                let a = address(ctx, m)?;
                let acc = access_bits(m);
                ctx.build(|bd| {
                    bd.intrinsic(
                        IntrinsicOp::StoreSsbo,
                        None,
                        &[data, b, a],
                        &[acc, align],
                        None,
                    )
                });
            }
            Space::Shared => {
                let d = match m.dynamic {
                    Some(d) => d,
                    None => ctx.u32(0),
                };
                let o = m.offset;
                ctx.build(|bd| {
                    bd.intrinsic(
                        IntrinsicOp::StoreShared,
                        None,
                        &[data, d],
                        &[o, align],
                        None,
                    )
                });
            }
            Space::Global => {
                let a = ctx.global_address(m)?;
                let acc = access_bits(m);
                ctx.build(|bd| {
                    bd.intrinsic(
                        IntrinsicOp::StoreGlobal,
                        None,
                        &[data, a],
                        &[acc, align],
                        None,
                    )
                });
            }
            Space::Scratch => {
                let a = address(ctx, m)?;
                ctx.build(|bd| {
                    bd.intrinsic(IntrinsicOp::StoreScratch, None, &[data, a], &[align], None)
                });
            }
            Space::Ubo | Space::Push => {
                return Err(
                    ctx.invalid("a store to read-only memory (a uniform buffer or push constants)")
                )
            }
        }
        return Ok(());
    }
    let Val::Comp(items) = val else {
        return Err(ctx.invalid("a scalar or vector stored where a composite goes"));
    };
    if depth + items.len() > super::context::MAX_PROMOTED_LEAVES {
        return Err(ctx.error(ErrorKind::Limit, "a store of too large a value"));
    }
    for (i, item) in items.iter().enumerate() {
        let p = index_memory(ctx, m.clone(), Step::Const(i as u32), false)?;
        store_memory(ctx, &p, item, depth + i + 1)?;
    }
    Ok(())
}

/// An atomic on memory; returns the old value.
pub fn atomic(
    ctx: &mut Ctx<'_>,
    p: &Value,
    aop: AtomicOp,
    data: Src,
    compare: Option<Src>,
) -> Result<Src, ImportError> {
    let Value::Mem(m) = p else {
        return Err(ctx.unsupported(
            "an atomic on a function or private variable",
            "atomics act on buffers, workgroup memory and images",
        ));
    };
    let (bits, n, is_bool) =
        leaf_shape(ctx, m.pointee).ok_or_else(|| ctx.invalid("an atomic on a composite"))?;
    if n != 1 || is_bool {
        return Err(ctx.invalid("an atomic on a vector or boolean"));
    }
    let ty = Type::scalar(bits).ok_or_else(|| ctx.invalid("an atomic of an unsupported width"))?;
    if ctx.func.src_type(data) != ty || compare.is_some_and(|c| ctx.func.src_type(c) != ty) {
        return Err(ctx.invalid("an atomic's value does not have the pointee's type"));
    }
    let mut srcs = Vec::with_capacity(4);
    let (op, indices) = match m.space {
        Space::Ssbo => {
            srcs.push(
                m.block
                    .ok_or_else(|| ctx.internal("a buffer access without a block"))?,
            );
            srcs.push(address(ctx, m)?);
            let op = if compare.is_some() {
                IntrinsicOp::SsboAtomicSwap
            } else {
                IntrinsicOp::SsboAtomic
            };
            (op, [access_bits(m), aop.to_index()])
        }
        Space::Shared => {
            srcs.push(match m.dynamic {
                Some(d) => d,
                None => ctx.u32(0),
            });
            let op = if compare.is_some() {
                IntrinsicOp::SharedAtomicSwap
            } else {
                IntrinsicOp::SharedAtomic
            };
            (op, [m.offset, aop.to_index()])
        }
        Space::Global => {
            srcs.push(ctx.global_address(m)?);
            let op = if compare.is_some() {
                IntrinsicOp::GlobalAtomicSwap
            } else {
                IntrinsicOp::GlobalAtomic
            };
            (op, [access_bits(m), aop.to_index()])
        }
        Space::Ubo | Space::Push => return Err(ctx.invalid("an atomic on read-only memory")),
        Space::Scratch => {
            return Err(ctx.invalid(
                "an atomic on a Function or Private variable (atomics take workgroup, buffer or image memory)",
            ))
        }
    };
    srcs.extend(compare);
    srcs.push(data);
    let v = ctx
        .build(|bd| bd.intrinsic(op, None, &srcs, &indices, Some(ty)))
        .ok_or_else(|| ctx.internal("an atomic without a value"))?;
    Ok(Src::new(v))
}

/// `OpArrayLength` of member `member` of the buffer block `ptr` points to, a runtime
/// array: `(get_ssbo_size(block) - offset) / stride`, as NIR's `nir_lower_explicit_io`
/// builds it, with the size first raised to the offset so that a buffer bound smaller
/// than its fixed part holds 0 elements rather than a wrapped count.
pub fn array_length(ctx: &mut Ctx<'_>, ptr: &Value, member: u32) -> Result<Src, ImportError> {
    let Value::Mem(m) = ptr else {
        return Err(ctx.invalid("OpArrayLength of something that is not a buffer block"));
    };
    if m.space != Space::Ssbo {
        return Err(ctx.invalid(
            "OpArrayLength of a block that is not a storage buffer (only storage buffers are sized at run time)",
        ));
    }
    let block = m
        .block
        .ok_or_else(|| ctx.invalid("OpArrayLength of an array of buffers, not of one block"))?;
    let array = match ctx.d.types.get(m.pointee) {
        Some(Ty::Struct { members }) if members.len() as u32 == member + 1 => {
            members[member as usize]
        }
        _ => {
            return Err(ctx.invalid(format!(
                "OpArrayLength of member {member} of %{}, which is not the last member of a struct",
                m.pointee
            )))
        }
    };
    if !matches!(ctx.d.types.get(array), Some(Ty::RuntimeArray { .. })) {
        return Err(ctx.invalid(format!(
            "OpArrayLength of member {member}, which is not a runtime array"
        )));
    }
    let member_offset = ctx
        .d
        .types
        .member_offset(ctx.decs, m.pointee, member)
        .ok_or_else(|| {
            ctx.invalid(format!(
                "member {member} of struct %{} has no Offset",
                m.pointee
            ))
        })?;
    let offset = m
        .offset
        .checked_add(member_offset)
        .ok_or_else(|| ctx.invalid("a runtime array past 4 GiB"))?;
    let stride = ctx
        .d
        .types
        .array_stride(ctx.decs, array)
        .filter(|&s| s > 0)
        .ok_or_else(|| ctx.invalid(format!("the runtime array %{array} has no ArrayStride")))?;
    let acc = access_bits(m);
    let size = ctx
        .build(|bd| {
            bd.intrinsic(
                IntrinsicOp::GetSsboSize,
                None,
                &[block],
                &[acc],
                Some(Type::U32),
            )
        })
        .ok_or_else(|| ctx.internal("get_ssbo_size defines no value"))?;
    let off = ctx.u32(offset);
    let at_least = ctx.alu(AluOp::Umax, &[Src::new(size), off])?;
    let bytes = ctx.alu(AluOp::Isub, &[at_least, off])?;
    let stride = ctx.u32(stride);
    ctx.alu(AluOp::Udiv, &[bytes, stride])
}
