//! The instructions of a block: each SPIR-V instruction of a function body (other than
//! the control flow and calls, which [`super::cfg`] handles) as IR code, through the
//! modules for ALU code, `GLSL.std.450`, memory and images. Anything the IR cannot
//! express is an error that names the instruction.

use super::alu::{self, Operand};
use super::context::Ctx;
use super::glsl450;
use super::image;
use super::memory;
use super::op;
use super::subgroup;
use super::types::Ty;
use super::value::{Step, Val, Value};
use crate::error::ImportError;
use ir::{AluOp, AtomicOp, IntrinsicOp, Src};
use spirv::Op;

/// The scope of a barrier's execution (`spirv::Scope::Workgroup`).
const SCOPE_WORKGROUP: u64 = 2;

/// The operands `ids` with their types.
fn operands(ctx: &mut Ctx<'_>, ids: &[u32]) -> Result<Vec<Operand>, ImportError> {
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let src = ctx.leaf(id)?;
        let ty = ctx
            .type_of(id)
            .ok_or_else(|| ctx.invalid(format!("%{id} has no type")))?;
        out.push(Operand { src, ty });
    }
    Ok(out)
}

/// The instructions next to `i` (past debug lines), after and before it.
fn neighbours(ctx: &Ctx<'_>, i: usize) -> impl Iterator<Item = usize> {
    let m = ctx.m;
    let skip = |j: usize| {
        matches!(
            m.insts.get(j).map(|x| x.opcode),
            Some(op::LINE | op::NO_LINE)
        )
    };
    let mut j = i + 1;
    while skip(j) {
        j += 1;
    }
    let mut k = i;
    let mut before = None;
    while k > 0 {
        k -= 1;
        if !skip(k) {
            before = Some(k);
            break;
        }
    }
    (j < m.insts.len()).then_some(j).into_iter().chain(before)
}

/// Whether the instruction next to `i` in its block (past debug lines), before or
/// after it, is an `OpControlBarrier`.
fn beside_control_barrier(ctx: &Ctx<'_>, i: usize) -> bool {
    let m = ctx.m;
    neighbours(ctx, i).any(|j| m.insts[j].opcode == Op::ControlBarrier as u16)
}

/// The memory a barrier's memory semantics order, as `spirv_to_nir`'s
/// `vtn_mem_semantics_to_nir_var_modes` finds it in a Vulkan module: `UniformMemory`
/// the buffers and global memory, `WorkgroupMemory` shared memory, `ImageMemory`
/// images (Vulkan ignores `CrossWorkgroupMemory` and `AtomicCounterMemory`).
fn semantics_modes(semantics: u64) -> ir::MemModes {
    const UNIFORM_MEMORY: u64 = 0x40;
    const WORKGROUP_MEMORY: u64 = 0x100;
    const IMAGE_MEMORY: u64 = 0x800;
    let mut m = ir::MemModes::NONE;
    if semantics & UNIFORM_MEMORY != 0 {
        m = m | ir::MemModes::SSBO | ir::MemModes::GLOBAL;
    }
    if semantics & WORKGROUP_MEMORY != 0 {
        m = m | ir::MemModes::SHARED;
    }
    if semantics & IMAGE_MEMORY != 0 {
        m = m | ir::MemModes::IMAGE;
    }
    m
}

/// The value of a scope or semantics operand, which must be a constant.
fn constant_u64(ctx: &mut Ctx<'_>, id: u32) -> Result<u64, ImportError> {
    match ctx.d.consts.get(&id).map(|c| &c.val) {
        Some(super::spec::ConstVal::Scalar(v)) => Ok(*v),
        _ => Err(ctx.invalid(format!("the scope %{id} is not a constant"))),
    }
}

/// Translates instruction `i`.
pub fn instruction(ctx: &mut Ctx<'_>, i: usize) -> Result<(), ImportError> {
    let m = ctx.m;
    let opcode = m.insts[i].opcode;
    let ops = m.ops(i);
    ctx.exact = ctx.preserve_signed_zero_inf_nan
        || (ctx.decs.any_no_contraction()
            && match (super::grammar::info(opcode), ops) {
                (Some((_, _, true, true, _)), [_, r, ..]) => ctx.decs.no_contraction(*r),
                _ => false,
            });
    let r = translate(ctx, i, opcode, ops);
    ctx.exact = false;
    r
}

/// A 64-bit address from the integer `OpConvertUToPtr` converts: a narrower one is
/// zero-extended, as SPIR-V's conversion of an unsigned integer is.
fn widen_address(ctx: &mut Ctx<'_>, a: Src) -> Result<Src, ImportError> {
    match (ctx.func.src_type(a).bit_size(), ctx.func.src_components(a)) {
        (64, 1) => Ok(a),
        (32, 1) => ctx.alu(AluOp::U2u64, &[a]),
        _ => Err(ctx.invalid("OpConvertUToPtr of a value that is not a 32- or 64-bit integer")),
    }
}

/// Translates instruction `i`, of `opcode` and operands `ops`.
fn translate(ctx: &mut Ctx<'_>, i: usize, opcode: u16, ops: &[u32]) -> Result<(), ImportError> {
    let Some(o) = Op::from_u32(opcode as u32) else {
        return Err(ctx.unsupported(
            &format!("opcode {opcode}"),
            "it is not a SPIR-V 1.6 instruction",
        ));
    };
    let short = |ctx: &Ctx<'_>| ctx.invalid(format!("Op{o:?} has too few operands"));
    use Op::*;
    if alu::handles(o) {
        let [ty, r, args @ ..] = ops else {
            return Err(short(ctx));
        };
        // A composite OpSelect picks whole values.
        if o == Select && !alu::is_alu_type(&ctx.d.types, *ty) {
            let [c, a, b] = args else {
                return Err(short(ctx));
            };
            let cond = ctx.leaf(*c)?;
            let (av, bv) = (ctx.val(*a)?, ctx.val(*b)?);
            let v = memory::select_val(ctx, cond, &av, &bv)?;
            return ctx.set(*r, Value::Val(v));
        }
        let args = operands(ctx, args)?;
        let d = ctx.d;
        let v = ctx
            .build(|b| alu::alu(b, &d.types, o, *ty, &args))
            .map_err(|e| ctx.alu_error(e))?;
        return ctx.set(*r, Value::Val(v));
    }
    if image::instruction(ctx, o, ops)? {
        return Ok(());
    }
    if subgroup::instruction(ctx, o, ops, constant_u64)? {
        return Ok(());
    }
    match o {
        Nop | Line | NoLine | Name | MemberName | String | ModuleProcessed => {}
        Undef => {
            let [ty, r, ..] = ops else { return Err(short(ctx)) };
            let v = ctx.undef_of(*ty)?;
            ctx.set(*r, Value::Val(v))?;
        }
        Variable => memory::local_variable(ctx, i)?,
        Load => {
            let [ty, r, p, ..] = ops else { return Err(short(ctx)) };
            let ptr = ctx.pointer(*p)?;
            let v = memory::load(ctx, &ptr, *ty)?;
            ctx.set(*r, v)?;
        }
        Store => {
            let [p, v, ..] = ops else { return Err(short(ctx)) };
            let ptr = ctx.pointer(*p)?;
            // A constant written to memory goes element by element, never whole into
            // registers: naga's WGSL output zero-initializes each workgroup array with
            // one store of a null constant, of thousands of elements.
            let constant = match &ptr {
                Value::Mem(m) if m.array_base.is_none() => ctx.module_constant(*v),
                _ => None,
            };
            match (&ptr, constant) {
                (Value::Mem(m), Some((ty, c))) => memory::store_constant(ctx, m, ty, &c)?,
                _ => {
                    let val = ctx.val(*v)?;
                    memory::store(ctx, &ptr, &val)?;
                }
            }
        }
        CopyMemory => {
            let [dst, src, ..] = ops else { return Err(short(ctx)) };
            let (d, s) = (ctx.pointer(*dst)?, ctx.pointer(*src)?);
            let v = memory::load(ctx, &s, 0)?;
            let Value::Val(v) = v else {
                return Err(ctx.unsupported("OpCopyMemory of images", "images are not values in the IR"));
            };
            memory::store(ctx, &d, &v)?;
        }
        CopyObject | CopyLogical => {
            let [_, r, x, ..] = ops else { return Err(short(ctx)) };
            let v = ctx.get(*x)?;
            ctx.set(*r, v)?;
        }
        AccessChain | InBoundsAccessChain => {
            let [_, r, base, idx @ ..] = ops else { return Err(short(ctx)) };
            let b = ctx.pointer(*base)?;
            let mut p = memory::access_chain(ctx, b, idx)?;
            if memory::non_uniform(ctx, *r) {
                mark_non_uniform(&mut p);
            }
            ctx.set(*r, p)?;
        }
        PtrAccessChain | InBoundsPtrAccessChain => {
            let [_, r, base, element, idx @ ..] = ops else { return Err(short(ctx)) };
            let mut p = memory::ptr_access_chain(ctx, *base, *element, idx)?;
            if memory::non_uniform(ctx, *r) {
                mark_non_uniform(&mut p);
            }
            ctx.set(*r, p)?;
        }
        ConvertUToPtr => {
            // A buffer device address from an integer: the value is the address.
            let [ty, r, x, ..] = ops else { return Err(short(ctx)) };
            if ctx.d.types.physical_pointee(*ty).is_none() {
                return Err(ctx.unsupported(
                    "OpConvertUToPtr to a pointer that is not a buffer device address",
                    "only PhysicalStorageBuffer pointers are addresses",
                ));
            }
            let a = ctx.leaf(*x)?;
            let a = widen_address(ctx, a)?;
            ctx.set(*r, Value::Val(Val::Leaf(a)))?;
        }
        ConvertPtrToU => {
            let [ty, r, p, ..] = ops else { return Err(short(ctx)) };
            let a = ctx.leaf(*p)?;
            let bits = ctx.d.types.ir_type(*ty).map(|t| t.bit_size());
            let a = match bits {
                Some(64) => a,
                Some(32) => ctx.alu(AluOp::U2u32, &[a])?,
                _ => return Err(ctx.invalid("OpConvertPtrToU to a type that is not a 32- or 64-bit integer")),
            };
            ctx.set(*r, Value::Val(Val::Leaf(a)))?;
        }
        ArrayLength => {
            let [_, r, structure, member, ..] = ops else { return Err(short(ctx)) };
            let p = ctx.get(*structure)?;
            let n = memory::array_length(ctx, &p, *member)?;
            ctx.set(*r, Value::Val(Val::Leaf(n)))?;
        }
        CompositeConstruct => {
            let [ty, r, parts @ ..] = ops else { return Err(short(ctx)) };
            let v = construct(ctx, *ty, parts)?;
            ctx.set(*r, Value::Val(v))?;
        }
        CompositeExtract => {
            let [_, r, c, path @ ..] = ops else { return Err(short(ctx)) };
            let v = ctx.val(*c)?;
            let steps: Vec<Step> = path.iter().map(|&k| Step::Const(k)).collect();
            let out = memory::read_path(ctx, &v, &steps)?;
            ctx.set(*r, Value::Val(out))?;
        }
        CompositeInsert => {
            let [_, r, obj, c, path @ ..] = ops else { return Err(short(ctx)) };
            let v = ctx.val(*c)?;
            let new = ctx.val(*obj)?;
            let steps: Vec<Step> = path.iter().map(|&k| Step::Const(k)).collect();
            let out = memory::write_path(ctx, &v, &steps, &new)?;
            ctx.set(*r, Value::Val(out))?;
        }
        VectorExtractDynamic => {
            let [_, r, v, idx, ..] = ops else { return Err(short(ctx)) };
            let vv = ctx.val(*v)?;
            let ix = ctx.leaf(*idx)?;
            let ix = if ctx.func.src_type(ix).bit_size() == 32 { ix } else { ctx.alu(AluOp::U2u32, &[ix])? };
            let out = memory::read_path(ctx, &vv, &[Step::Dyn(ix)])?;
            ctx.set(*r, Value::Val(out))?;
        }
        VectorInsertDynamic => {
            let [_, r, v, comp, idx, ..] = ops else { return Err(short(ctx)) };
            let vv = ctx.val(*v)?;
            let c = ctx.val(*comp)?;
            let ix = ctx.leaf(*idx)?;
            let ix = if ctx.func.src_type(ix).bit_size() == 32 { ix } else { ctx.alu(AluOp::U2u32, &[ix])? };
            let out = memory::write_path(ctx, &vv, &[Step::Dyn(ix)], &c)?;
            ctx.set(*r, Value::Val(out))?;
        }
        VectorShuffle => {
            let [ty, r, a, b, sel @ ..] = ops else { return Err(short(ctx)) };
            let v = shuffle(ctx, *ty, *a, *b, sel)?;
            ctx.set(*r, Value::Val(Val::Leaf(v)))?;
        }
        Transpose => {
            let [ty, r, mat, ..] = ops else { return Err(short(ctx)) };
            let cols = ctx.val(*mat)?.leaves();
            let rows = match ctx.ty(*ty)? {
                Ty::Matrix { n, .. } => *n,
                _ => return Err(ctx.invalid("OpTranspose to a non-matrix type")),
            };
            let mut out = Vec::with_capacity(rows as usize);
            for row in 0..rows {
                let comps: Vec<Src> = cols.iter().map(|c| c.component(row)).collect();
                out.push(Val::Leaf(ctx.vec(&comps)?));
            }
            ctx.set(*r, Value::Val(Val::Comp(out)))?;
        }
        MatrixTimesScalar => {
            let [_, r, mat, s, ..] = ops else { return Err(short(ctx)) };
            let cols = ctx.val(*mat)?.leaves();
            let s = ctx.leaf(*s)?;
            let mut out = Vec::with_capacity(cols.len());
            for c in cols {
                let n = ctx.func.src_components(c);
                let sp = alu::splat(s, n).map_err(|e| ctx.alu_error(e))?;
                out.push(Val::Leaf(ctx.alu(AluOp::Fmul, &[c, sp])?));
            }
            ctx.set(*r, Value::Val(Val::Comp(out)))?;
        }
        MatrixTimesVector => {
            let [_, r, mat, v, ..] = ops else { return Err(short(ctx)) };
            let cols = ctx.val(*mat)?.leaves();
            let v = ctx.leaf(*v)?;
            let out = mat_vec(ctx, &cols, v)?;
            ctx.set(*r, Value::Val(Val::Leaf(out)))?;
        }
        VectorTimesMatrix => {
            let [_, r, v, mat, ..] = ops else { return Err(short(ctx)) };
            let v = ctx.leaf(*v)?;
            let cols = ctx.val(*mat)?.leaves();
            let mut comps = Vec::with_capacity(cols.len());
            for c in cols {
                comps.push(ctx.build(|b| alu::fdot(b, v, c)).map_err(|e| ctx.alu_error(e))?);
            }
            let out = ctx.vec(&comps)?;
            ctx.set(*r, Value::Val(Val::Leaf(out)))?;
        }
        MatrixTimesMatrix => {
            let [_, r, a, b, ..] = ops else { return Err(short(ctx)) };
            let acols = ctx.val(*a)?.leaves();
            let bcols = ctx.val(*b)?.leaves();
            let mut out = Vec::with_capacity(bcols.len());
            for c in bcols {
                out.push(Val::Leaf(mat_vec(ctx, &acols, c)?));
            }
            ctx.set(*r, Value::Val(Val::Comp(out)))?;
        }
        OuterProduct => {
            let [_, r, c, row, ..] = ops else { return Err(short(ctx)) };
            let c = ctx.leaf(*c)?;
            let row = ctx.leaf(*row)?;
            let n = ctx.func.src_components(c);
            let mut cols = Vec::new();
            for j in 0..ctx.func.src_components(row) {
                let s = alu::splat(row.component(j), n).map_err(|e| ctx.alu_error(e))?;
                cols.push(Val::Leaf(ctx.alu(AluOp::Fmul, &[c, s])?));
            }
            ctx.set(*r, Value::Val(Val::Comp(cols)))?;
        }
        ExtInst => {
            let [ty, r, set, number, args @ ..] = ops else { return Err(short(ctx)) };
            ext_inst(ctx, *ty, *r, *set, *number, args)?;
        }
        AtomicLoad | AtomicStore | AtomicExchange | AtomicCompareExchange | AtomicIIncrement
        | AtomicIDecrement | AtomicIAdd | AtomicISub | AtomicSMin | AtomicUMin | AtomicSMax
        | AtomicUMax | AtomicAnd | AtomicOr | AtomicXor | AtomicFAddEXT | AtomicFMinEXT
        | AtomicFMaxEXT => atomic(ctx, o, ops)?,
        AtomicCompareExchangeWeak | AtomicFlagTestAndSet | AtomicFlagClear => {
            return Err(ctx.unsupported(&format!("Op{o:?}"), "it is an OpenCL atomic"))
        }
        ControlBarrier => {
            let [exec, ..] = ops else { return Err(short(ctx)) };
            let scope = constant_u64(ctx, *exec)?;
            if scope == spirv::Scope::Subgroup as u64 {
                // A subgroup's lanes run together, so only its memory semantics
                // remain (GLSL's subgroupBarrier(); NIR's barrier with a subgroup
                // execution scope, which brw emits as a fence): a memory barrier.
                let modes = match ops {
                    [_, _, sem, ..] => semantics_modes(constant_u64(ctx, *sem)?),
                    _ => ir::MemModes::NONE,
                };
                if modes != ir::MemModes::NONE {
                    ctx.build(|b| {
                        b.intrinsic(IntrinsicOp::MemoryBarrier, None, &[], &[modes.0], None)
                    });
                }
                return Ok(());
            }
            if scope != SCOPE_WORKGROUP {
                return Err(ctx.unsupported(
                    &format!("OpControlBarrier of scope {scope} (not Workgroup)"),
                    "the IR's only barrier is a workgroup barrier",
                ));
            }
            // The memory it orders: its own semantics and those of a memory barrier
            // beside it (GLSL's `memoryBarrierBuffer(); barrier();`).
            let m = ctx.m;
            let mut modes = match ops {
                [_, _, sem, ..] => semantics_modes(constant_u64(ctx, *sem)?),
                _ => ir::MemModes::NONE,
            };
            for j in neighbours(ctx, i) {
                if m.insts[j].opcode == Op::MemoryBarrier as u16 {
                    if let [_, sem, ..] = m.ops(j) {
                        modes = modes | semantics_modes(constant_u64(ctx, *sem)?);
                    }
                }
            }
            ctx.build(|b| b.intrinsic(IntrinsicOp::Barrier, None, &[], &[modes.0], None));
        }
        MemoryBarrier => {
            // A memory barrier next to an execution barrier is part of it (GLSL's
            // `memoryBarrierShared(); barrier();`): the IR's barrier orders memory.
            // Alone it is a fence of the memory its semantics name (none: nothing to
            // order, as spirv_to_nir drops it).
            if !beside_control_barrier(ctx, i) {
                let [_, sem, ..] = ops else { return Err(short(ctx)) };
                let modes = semantics_modes(constant_u64(ctx, *sem)?);
                if modes != ir::MemModes::NONE {
                    ctx.build(|b| {
                        b.intrinsic(IntrinsicOp::MemoryBarrier, None, &[], &[modes.0], None)
                    });
                }
            }
        }
        DPdx | DPdy | Fwidth | DPdxFine | DPdyFine | FwidthFine | DPdxCoarse | DPdyCoarse
        | FwidthCoarse => {
            return Err(ctx.unsupported(
                &format!("Op{o:?} (a derivative)"),
                "compute invocations have no pixel quads to difference",
            ))
        }
        Kill | TerminateInvocation | DemoteToHelperInvocation => {
            return Err(ctx.unsupported(&format!("Op{o:?} (`discard`)"), "compute shaders have no fragments to discard"))
        }
        _ if is_subgroup(o) => {
            return Err(ctx.unsupported(
                &format!("Op{o:?} (a subgroup operation)"),
                "the IR's cross-lane operations are reductions, scans and first-lane reads, with no read of another chosen lane",
            ))
        }
        _ => {
            return Err(ctx.unsupported(&format!("Op{o:?}"), "the IR has no operation for it"));
        }
    }
    Ok(())
}

/// Whether `o` is a subgroup or group instruction.
fn is_subgroup(o: Op) -> bool {
    let n = o as u32;
    let name = format!("{o:?}");
    name.starts_with("GroupNonUniform")
        || name.starts_with("Subgroup")
        || name.starts_with("Group")
        || (4421..=4432).contains(&n)
}

/// Marks a pointer as reached through a `NonUniform` index.
fn mark_non_uniform(p: &mut Value) {
    match p {
        Value::Mem(m) => m.non_uniform = true,
        Value::ImagePtr(ip) => ip.non_uniform = true,
        _ => {}
    }
}

/// `OpCompositeConstruct`: a vector from scalars and vectors, or a composite.
fn construct(ctx: &mut Ctx<'_>, ty: u32, parts: &[u32]) -> Result<Val, ImportError> {
    match ctx.ty(ty)? {
        Ty::Vector { n, .. } => {
            let n = *n;
            let mut comps = Vec::with_capacity(n as usize);
            for p in parts {
                let s = ctx.leaf(*p)?;
                for c in 0..ctx.func.src_components(s) {
                    comps.push(s.component(c));
                }
            }
            if comps.len() != n as usize {
                return Err(ctx.invalid(format!(
                    "OpCompositeConstruct gives {} components to a vector of {n}",
                    comps.len()
                )));
            }
            Ok(Val::Leaf(ctx.vec(&comps)?))
        }
        Ty::Matrix { .. } | Ty::Array { .. } | Ty::Struct { .. } => {
            let mut out = Vec::with_capacity(parts.len());
            for p in parts {
                out.push(ctx.val(*p)?);
            }
            Ok(Val::Comp(out))
        }
        _ => Err(ctx.invalid("OpCompositeConstruct of a non-composite type")),
    }
}

/// `OpVectorShuffle`.
fn shuffle(ctx: &mut Ctx<'_>, ty: u32, a: u32, b: u32, sel: &[u32]) -> Result<Src, ImportError> {
    let (x, y) = (ctx.leaf(a)?, ctx.leaf(b)?);
    let (nx, ny) = (ctx.func.src_components(x), ctx.func.src_components(y));
    let rt = ctx.ir_type(ty)?;
    if sel.len() != rt.num_components() as usize {
        return Err(ctx.invalid("OpVectorShuffle's selectors do not match its result type"));
    }
    // One source read in a new order is a swizzle of it.
    if sel.iter().all(|&s| s < nx as u32) {
        let c: Vec<u8> = sel.iter().map(|&s| s as u8).collect();
        if c.len() == 1 {
            return Ok(x.component(c[0]));
        }
        return super::value::select(x, &c).ok_or_else(|| ctx.invalid("a shuffle"));
    }
    let mut comps = Vec::with_capacity(sel.len());
    for &s in sel {
        comps.push(if s < nx as u32 {
            x.component(s as u8)
        } else if s < (nx + ny) as u32 {
            y.component((s - nx as u32) as u8)
        } else if s == u32::MAX {
            let t = ir::Type::scalar(rt.bit_size()).ok_or_else(|| ctx.invalid("a shuffle type"))?;
            ctx.undef(t)
        } else {
            return Err(ctx.invalid(format!(
                "OpVectorShuffle selects component {s} of {} components",
                nx + ny
            )));
        });
    }
    ctx.vec(&comps)
}

/// `M * v`: the sum of the columns scaled by v's components, first to last, each
/// product and sum rounded (no fusion).
fn mat_vec(ctx: &mut Ctx<'_>, cols: &[Src], v: Src) -> Result<Src, ImportError> {
    if cols.len() != ctx.func.src_components(v) as usize {
        return Err(ctx.invalid("a matrix and a vector of different sizes"));
    }
    let mut acc: Option<Src> = None;
    for (i, &col) in cols.iter().enumerate() {
        let n = ctx.func.src_components(col);
        let s = alu::splat(v.component(i as u8), n).map_err(|e| ctx.alu_error(e))?;
        let p = ctx.alu(AluOp::Fmul, &[col, s])?;
        acc = Some(match acc {
            None => p,
            Some(a) => ctx.alu(AluOp::Fadd, &[a, p])?,
        });
    }
    acc.ok_or_else(|| ctx.invalid("a matrix without columns"))
}

/// `OpExtInst`.
fn ext_inst(
    ctx: &mut Ctx<'_>,
    ty: u32,
    r: u32,
    set: u32,
    number: u32,
    args: &[u32],
) -> Result<(), ImportError> {
    let name = ctx.m.ext_imports.get(&set).cloned().unwrap_or_default();
    if name.starts_with("NonSemantic.") {
        return Ok(());
    }
    if name != "GLSL.std.450" {
        return Err(ctx.unsupported(
            &format!("the extended instruction set \"{name}\""),
            "the translator reads GLSL.std.450",
        ));
    }
    // The instructions that write through a pointer or return a struct.
    if let Some(f) = spirv::GlslStd450Op::from_u32(number).filter(|f| {
        use spirv::GlslStd450Op as G;
        matches!(f, G::Modf | G::ModfStruct | G::Frexp | G::FrexpStruct)
    }) {
        return modf_frexp(ctx, ty, r, f, args);
    }
    if number == spirv::GlslStd450Op::MatrixInverse as u32 {
        let [m] = args else {
            return Err(ctx.invalid("MatrixInverse takes one matrix"));
        };
        let cols = ctx.val(*m)?.leaves();
        let inv = ctx
            .build(|b| glsl450::matrix_inverse(b, &cols))
            .map_err(|e| ctx.alu_error(e))?;
        return ctx.set(
            r,
            Value::Val(Val::Comp(inv.into_iter().map(Val::Leaf).collect())),
        );
    }
    if number == spirv::GlslStd450Op::Determinant as u32 {
        let [m] = args else {
            return Err(ctx.invalid("Determinant takes one matrix"));
        };
        let cols = ctx.val(*m)?.leaves();
        let v = ctx
            .build(|b| glsl450::determinant(b, &cols))
            .map_err(|e| ctx.alu_error(e))?;
        return ctx.set(r, Value::Val(Val::Leaf(v)));
    }
    let mut srcs = Vec::with_capacity(args.len());
    for a in args {
        srcs.push(ctx.leaf(*a)?);
    }
    let rbits = ctx.d.types.ir_type(ty).map_or(32, |t| t.bit_size());
    let v = ctx
        .build(|b| glsl450::glsl450(b, number, &srcs, rbits))
        .map_err(|e| ctx.alu_error(e))?;
    if let Val::Leaf(s) = &v {
        let want = ctx.ir_type(ty)?;
        if ctx.func.src_type(*s) != want {
            return Err(ctx.invalid(format!(
                "GLSL.std.450 {number} gives a value of another type than its result type"
            )));
        }
    }
    ctx.set(r, Value::Val(v))
}

/// `Modf`, `ModfStruct`, `Frexp` and `FrexpStruct` ([`glsl450::modf`],
/// [`glsl450::frexp`]): the first part is the result, or the struct's first member;
/// the second is stored through the pointer operand, or is the second member. An
/// exponent of another width than 32 bits is converted to it.
fn modf_frexp(
    ctx: &mut Ctx<'_>,
    ty: u32,
    r: u32,
    f: spirv::GlslStd450Op,
    args: &[u32],
) -> Result<(), ImportError> {
    use spirv::GlslStd450Op as G;
    let by_pointer = matches!(f, G::Modf | G::Frexp);
    let (x, pointer) = match (args, by_pointer) {
        ([x, p], true) => (*x, Some(*p)),
        ([x], false) => (*x, None),
        _ => {
            return Err(ctx.invalid(format!(
                "GLSL.std.450 {f:?} takes {} operand{}, not {}",
                if by_pointer { 2 } else { 1 },
                if by_pointer { "s" } else { "" },
                args.len()
            )))
        }
    };
    // The type of the second part: the pointee, or the struct's second member.
    let second_ty = match pointer {
        Some(p) => ctx
            .m
            .def(p)
            .and_then(|i| ctx.m.ops(i).first().copied())
            .and_then(|t| match ctx.d.types.get(t) {
                Some(Ty::Pointer { pointee, .. }) => Some(*pointee),
                _ => None,
            }),
        None => match ctx.d.types.get(ty) {
            Some(Ty::Struct { members }) if members.len() == 2 => Some(members[1]),
            _ => None,
        },
    };
    let first_ty = if by_pointer {
        Some(ty)
    } else {
        match ctx.d.types.get(ty) {
            Some(Ty::Struct { members }) if members.len() == 2 => Some(members[0]),
            _ => None,
        }
    };
    let (Some(first_ty), Some(second_ty)) = (first_ty, second_ty) else {
        return Err(ctx.invalid(format!(
            "GLSL.std.450 {f:?} needs {}",
            if by_pointer {
                "a pointer as its second operand"
            } else {
                "a result struct of two members"
            }
        )));
    };
    let (want_first, want_second) = (ctx.ir_type(first_ty)?, ctx.ir_type(second_ty)?);
    let x = ctx.leaf(x)?;
    let (first, second) = ctx
        .build(|b| {
            let (first, second) = match f {
                G::Modf | G::ModfStruct => glsl450::modf(b, x)?,
                _ => glsl450::frexp(b, x)?,
            };
            let second = match (
                matches!(f, G::Frexp | G::FrexpStruct),
                want_second.bit_size(),
            ) {
                (true, 8) => alu::op(b, AluOp::I2i8, &[second])?,
                (true, 16) => alu::op(b, AluOp::I2i16, &[second])?,
                (true, 64) => alu::op(b, AluOp::I2i64, &[second])?,
                _ => second,
            };
            Ok((first, second))
        })
        .map_err(|e| ctx.alu_error(e))?;
    if ctx.func.src_type(first) != want_first || ctx.func.src_type(second) != want_second {
        return Err(ctx.invalid(format!(
            "GLSL.std.450 {f:?}'s result types do not match its operand"
        )));
    }
    match pointer {
        Some(p) => {
            let p = ctx.get(p)?;
            memory::store(ctx, &p, &Val::Leaf(second))?;
            ctx.set(r, Value::Val(Val::Leaf(first)))
        }
        None => ctx.set(
            r,
            Value::Val(Val::Comp(vec![Val::Leaf(first), Val::Leaf(second)])),
        ),
    }
}

/// The `OpAtomic*` instructions.
fn atomic(ctx: &mut Ctx<'_>, o: Op, ops: &[u32]) -> Result<(), ImportError> {
    use Op::*;
    let short = |ctx: &Ctx<'_>| ctx.invalid(format!("Op{o:?} has too few operands"));
    // (result type, result, pointer, value, comparator)
    let (ty, r, p, value, compare) = match (o, ops) {
        (AtomicStore, [p, _, _, v, ..]) => (None, None, *p, Some(*v), None),
        (AtomicLoad | AtomicIIncrement | AtomicIDecrement, [t, r, p, _, _, ..]) => {
            (Some(*t), Some(*r), *p, None, None)
        }
        (AtomicCompareExchange, [t, r, p, _, _, _, v, c, ..]) => {
            (Some(*t), Some(*r), *p, Some(*v), Some(*c))
        }
        (AtomicCompareExchange, _) | (AtomicStore, _) => return Err(short(ctx)),
        (_, [t, r, p, _, _, v, ..]) => (Some(*t), Some(*r), *p, Some(*v), None),
        _ => return Err(short(ctx)),
    };
    // SPIR-V: an atomic's result type is a scalar (of the pointee's type).
    if let Some(t) = ty {
        if ctx.ir_type(t)?.num_components() != 1 {
            return Err(ctx.invalid(format!("Op{o:?} whose result type is not a scalar")));
        }
    }
    let ptr = ctx.pointer(p)?;
    let data = value.map(|v| ctx.leaf(v)).transpose()?;
    let cmp = compare.map(|c| ctx.leaf(c)).transpose()?;
    let float = ty.is_some_and(|t| ctx.d.types.is_float(t));
    let aop = match o {
        AtomicLoad | AtomicStore => None,
        AtomicExchange => Some(AtomicOp::Xchg),
        AtomicCompareExchange => Some(AtomicOp::Cmpxchg),
        AtomicIIncrement | AtomicIDecrement | AtomicIAdd | AtomicISub => Some(AtomicOp::Iadd),
        AtomicSMin => Some(AtomicOp::Imin),
        AtomicUMin => Some(AtomicOp::Umin),
        AtomicSMax => Some(AtomicOp::Imax),
        AtomicUMax => Some(AtomicOp::Umax),
        AtomicAnd => Some(AtomicOp::Iand),
        AtomicOr => Some(AtomicOp::Ior),
        AtomicXor => Some(AtomicOp::Ixor),
        AtomicFAddEXT => Some(AtomicOp::Fadd),
        AtomicFMinEXT => Some(AtomicOp::Fmin),
        AtomicFMaxEXT => Some(AtomicOp::Fmax),
        _ => return Err(ctx.internal("an atomic opcode")),
    };
    if float
        && matches!(
            o,
            AtomicIAdd | AtomicISub | AtomicIIncrement | AtomicIDecrement
        )
    {
        return Err(ctx.invalid(format!("Op{o:?} on a float")));
    }
    // Increments, decrements and subtractions are additions, as in NIR.
    let data = match (o, ty) {
        (AtomicIIncrement | AtomicIDecrement, Some(t)) => {
            let irt = ctx.ir_type(t)?;
            let v = if o == AtomicIIncrement {
                1
            } else {
                ir::types::bit_mask(irt.bit_size())
            };
            Some(ctx.load_const(irt, &[v]))
        }
        (AtomicISub, _) => {
            let d = data.ok_or_else(|| short(ctx))?;
            Some(ctx.alu(AluOp::Ineg, &[d])?)
        }
        _ => data,
    };
    let result = match ptr {
        Value::Texel { image, coord, .. } => {
            let rty = match ty {
                Some(t) => t,
                None => value
                    .and_then(|v| ctx.type_of(v))
                    .ok_or_else(|| short(ctx))?,
            };
            image::texel_atomic(ctx, image, coord, aop, rty, data, cmp)?
        }
        ptr => match (aop, data) {
            (None, None) => {
                let t = ty.ok_or_else(|| short(ctx))?;
                match memory::load(ctx, &ptr, t)? {
                    Value::Val(Val::Leaf(s)) => Some(s),
                    _ => return Err(ctx.invalid("an atomic load of a composite")),
                }
            }
            (None, Some(v)) => {
                memory::store(ctx, &ptr, &Val::Leaf(v))?;
                None
            }
            (Some(a), Some(v)) => Some(memory::atomic(ctx, &ptr, a, v, cmp)?),
            (Some(_), None) => return Err(ctx.internal("an atomic without data")),
        },
    };
    if let (Some(r), Some(s)) = (r, result) {
        ctx.set(r, Value::Val(Val::Leaf(s)))?;
    }
    Ok(())
}
