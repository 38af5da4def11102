//! Memory intrinsics: global, SSBO, UBO, shared memory, push constants and image
//! parameter blocks, as LSC messages of the kernel's lanes ([`crate::lsc`]).
//!
//! On platforms without LSC the same accesses are the legacy data port's messages
//! ([`crate::dataport_lsc`]).
//!
//! - `load_global`/`store_global`: `.ugm` flat `:a64` at the address.
//! - `load_ssbo`/`store_ssbo`/`load_ubo`: a constant block is a surface of the binding
//!   table ([`buffer_bti`]), accessed at the offset. Otherwise the binding's base
//!   address is read from the SSBO or UBO table (an input: `u64` per binding), and the
//!   access is global memory at `base + offset`; a table handles per-lane block
//!   indices as well as uniform ones. A UBO load of a constant block at a uniform
//!   offset is uniform ([`crate::uniform`]): one SIMD1 transposed load from the base,
//!   which is read once, at the kernel's start, into a scalar ([`load_buffer_bases`]),
//!   as is the base of every binding reached through its table by a constant block.
//!   On the legacy data port one at a constant offset reads the registers of a UBO
//!   range that oword block reads filled at the kernel's start instead
//!   ([`crate::ubo_block`]).
//! - `get_ssbo_size`: the binding's size is read from the SSBO size table (an input:
//!   `u32` per binding), as the base address from the SSBO table.
//! - `load_shared`/`store_shared`: `.slm` flat `:a32` at `offset`, `base` as the
//!   message's immediate offset.
//! - `ssbo_atomic`/`ssbo_atomic_swap`/`shared_atomic`/`shared_atomic_swap`: one LSC
//!   atomic per message width at the buffer's or shared memory's address, the NIR op
//!   mapped as Mesa's `lsc_op_for_nir_intrinsic` maps it (an `iadd` of the constant 1
//!   or -1 is `iinc`/`idec`); without LSC the data port's untyped atomic of the same
//!   plan the lowering uses (`dword_atomic` on a buffer's surface or `%slm`,
//!   `svm_atomic` at an A64 address). The legacy port has 64-bit atomics only at A64
//!   addresses (`docs/hardware/dataport.md`), so a 64-bit buffer atomic goes through
//!   the binding's base address there, as brw's `ssbo_atomic` of a 64-bit value does
//!   with the A64 message.
//! - `load_push_constant`: a constant offset reads the push-constant input registers;
//!   a dynamic one loads from the copy at the push-constant address input (one SIMD1
//!   transposed load when the offset is uniform).
//! - `load_constant`: the shader's constant data is global memory at the
//!   `const_data` address input (visa/ABI.md, "Constant data"), read at
//!   `min(base + offset, size - bytes)` as anv's `lower_load_constant` clamps it
//!   (`ir/SYNTAX.md`); a uniform offset is one SIMD1 transposed load, as a uniform UBO
//!   load is.
//! - `image_load_param`: the image's parameter blocks are 512 bytes per array element at
//!   the image's parameter-block address input; slot `s` is at byte `16 s`.
//!
//! Data is moved as the message vectors allow: 32- and 64-bit components in vectors of
//! up to 8 (`d32x4`), 8- and 16-bit components one message each, each piece at its
//! byte offset.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::{EmitError, EmitErrorKind};
use crate::lsc::{Access, Surface};
use crate::ops::copy;
use crate::payload;
use crate::vtype::VType;
use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, DataSize, Sfid};
use ir::{AtomicOp, IndexKind, Inst, IntrinsicInst, IntrinsicOp, Shader, Src, Value};
use lowering::messages::{LscMessage, LscOp};
use std::collections::BTreeSet;

const UD: VType = VType::Ud;

/// Bytes of one parameter block (`tiling::image_param`: 128 dwords).
pub const PARAM_BLOCK_BYTES: u32 = 512;

/// Where an untyped access goes: the port, the surface (`flat`, or a buffer's
/// binding-table index) and the address, plus an immediate offset.
#[derive(Copy, Clone, Debug)]
struct Loc {
    sfid: Sfid,
    surface: Surface,
    addr_size: AddrSize,
    addr: Opnd,
    offset: i32,
}

impl Loc {
    /// A flat (global or shared memory) address.
    fn flat(sfid: Sfid, addr_size: AddrSize, addr: Opnd, offset: i32) -> Loc {
        Loc {
            sfid,
            surface: Surface::Flat,
            addr_size,
            addr,
            offset,
        }
    }
}

/// Emits a memory intrinsic.
pub fn emit(
    cx: &mut Ctx,
    _inst: Inst,
    i: &IntrinsicInst,
    dest: Option<Value>,
) -> Result<(), EmitError> {
    use IntrinsicOp::*;
    let need_dest = |cx: &Ctx| {
        dest.ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("`@{}` must define a value", i.op),
            })
        })
    };
    let base = i.index(IndexKind::Base).unwrap_or(0) as i32;
    match i.op {
        LoadGlobal => {
            let d = need_dest(cx)?;
            let a = cx.comp(src(cx, i, 0)?, 0)?;
            load(cx, d, Loc::flat(Sfid::Ugm, AddrSize::A64, a, 0))
        }
        StoreGlobal => {
            let data = src(cx, i, 0)?;
            let a = cx.comp(src(cx, i, 1)?, 0)?;
            store(cx, data, Loc::flat(Sfid::Ugm, AddrSize::A64, a, 0))
        }
        LoadUbo if dest.is_some_and(|d| cx.is_uniform(d)) => {
            let d = need_dest(cx)?;
            uniform_ubo_load(cx, i, d)
        }
        LoadSsbo | LoadUbo => {
            let d = need_dest(cx)?;
            let loc = buffer_loc(cx, i, 0, i.op == LoadUbo)?;
            load(cx, d, loc)
        }
        StoreSsbo => {
            let data = src(cx, i, 0)?;
            let loc = buffer_loc(cx, i, 1, false)?;
            store(cx, data, loc)
        }
        LoadShared => {
            let d = need_dest(cx)?;
            let a = cx.comp(src(cx, i, 0)?, 0)?;
            load(cx, d, Loc::flat(Sfid::Slm, AddrSize::A32, a, base))
        }
        StoreShared => {
            let data = src(cx, i, 0)?;
            let a = cx.comp(src(cx, i, 1)?, 0)?;
            store(cx, data, Loc::flat(Sfid::Slm, AddrSize::A32, a, base))
        }
        SsboAtomic | SsboAtomicSwap | GlobalAtomic | GlobalAtomicSwap | SharedAtomic
        | SharedAtomicSwap => atomic(cx, i, need_dest(cx)?),
        GetSsboSize => ssbo_size(cx, i, need_dest(cx)?),
        LoadPushConstant => push_constant(cx, i, base, need_dest(cx)?),
        LoadConstant => load_constant(cx, i, need_dest(cx)?),
        ImageLoadParam => image_param(cx, i, base, need_dest(cx)?),
        other => Err(cx.unsupported(format!("`@{other}` is not a memory intrinsic"))),
    }
}

/// Emits an access as the platform's messages: LSC, or the legacy data port's
/// ([`crate::dataport_lsc`]). Either is first checked against the lowering's table of
/// what the platform's messages allow: the LSC message by
/// [`lowering::messages::check_lsc`] (a 64-bit SLM atomic other than icas, a float
/// add on SLM), the legacy one by the plan's checks; the back end builds these
/// messages itself, so no IR-level check has seen them.
fn emit_access(cx: &mut Ctx, a: &Access) -> Result<(), EmitError> {
    if cx.t.dataport.is_some() {
        crate::dataport_lsc::emit_access(cx, a)
    } else {
        lowering::messages::check_lsc(cx.device, &a.m)
            .map_err(|rule| cx.err(EmitErrorKind::Message(rule)))?;
        crate::lsc::emit_access(cx, a)
    }
}

fn src(cx: &Ctx, i: &IntrinsicInst, k: usize) -> Result<Src, EmitError> {
    i.srcs.get(k).copied().ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: format!("`@{}` lacks source {k}", i.op),
        })
    })
}

/// The pieces a vector of `comps` components of `bits` bits moves in: `(first, count)`,
/// vectors of 1, 2, 3, 4 or 8 for 32- and 64-bit data within 8 payload registers,
/// single components otherwise. The payload is counted at the platform's message width
/// even for narrower kernels: the finalizer pads narrower messages to it (IGC's LSC
/// granule: a SIMD8 message on DG2 has SIMD16's payload, a SIMD16 one on PVC SIMD32's).
fn pieces(cx: &Ctx, sfid: Sfid, bits: u8, comps: u8) -> Vec<(u8, u8)> {
    let width = if sfid == Sfid::Tgm {
        cx.t.typed_simd
    } else {
        cx.t.untyped_simd
    };
    let per = payload::run_bytes(cx, width, u32::from(bits / 8));
    let max = if bits >= 32 {
        (8 * cx.t.grf / per).min(8) as u8
    } else {
        1
    };
    let mut out = Vec::new();
    let mut j = 0;
    while j < comps {
        let k = [8u8, 4, 3, 2, 1]
            .into_iter()
            .find(|k| *k <= max && *k <= comps - j)
            .unwrap_or(1);
        out.push((j, k));
        j += k;
    }
    out
}

fn data_size(cx: &Ctx, bits: u8) -> Result<DataSize, EmitError> {
    match bits {
        8 => Ok(DataSize::D8),
        16 => Ok(DataSize::D16),
        32 => Ok(DataSize::D32),
        64 => Ok(DataSize::D64),
        b => Err(cx.unsupported(format!("{b}-bit values have no memory form"))),
    }
}

fn message(op: LscOp, sfid: Sfid, addr_size: AddrSize, data: DataShape, offset: i32) -> LscMessage {
    LscMessage {
        op,
        sfid,
        addr_type: AddrType::Flat,
        addr_size,
        data,
        cache: CacheControl::DEFAULT,
        offset,
    }
}

/// The message of a piece of an access at `loc`, `delta` bytes further.
fn loc_message(op: LscOp, loc: &Loc, data: DataShape, delta: i32) -> LscMessage {
    let addr_type = match loc.surface {
        Surface::Flat => AddrType::Flat,
        Surface::Bti(_) | Surface::BtiReg(_) => AddrType::Bti,
        Surface::Bss(_) => AddrType::Bss,
        Surface::Ss(_) => AddrType::Ss,
    };
    LscMessage {
        addr_type,
        ..message(op, loc.sfid, loc.addr_size, data, loc.offset + delta)
    }
}

fn load(cx: &mut Ctx, d: Value, loc: Loc) -> Result<(), EmitError> {
    let ty = cx.func.value_type(d);
    let (bits, comps) = (ty.bit_size(), ty.num_components());
    let size = data_size(cx, bits)?;
    for (first, k) in pieces(cx, loc.sfid, bits, comps) {
        let mut regs = Vec::new();
        for c in first..first + k {
            regs.push(cx.dest(d, c)?);
        }
        let delta = i32::from(first) * i32::from(bits / 8);
        let m = loc_message(LscOp::Load, &loc, DataShape::vector(size, k, false), delta);
        emit_access(
            cx,
            &Access {
                m,
                surface: loc.surface,
                addr: vec![loc.addr],
                pitch: None,
                data: Vec::new(),
                atomic: Vec::new(),
                dest: Some(regs),
                pred: None,
            },
        )?;
    }
    Ok(())
}

fn store(cx: &mut Ctx, data: Src, loc: Loc) -> Result<(), EmitError> {
    let ty = cx.src_type(data);
    let (bits, comps) = (ty.bit_size(), ty.num_components());
    let size = data_size(cx, bits)?;
    for (first, k) in pieces(cx, loc.sfid, bits, comps) {
        let mut ops = Vec::new();
        for c in first..first + k {
            ops.push(cx.comp(data, c)?);
        }
        let delta = i32::from(first) * i32::from(bits / 8);
        let m = loc_message(LscOp::Store, &loc, DataShape::vector(size, k, false), delta);
        emit_access(
            cx,
            &Access {
                m,
                surface: loc.surface,
                addr: vec![loc.addr],
                pitch: None,
                data: ops,
                atomic: Vec::new(),
                dest: None,
                pred: None,
            },
        )?;
    }
    Ok(())
}

/// A buffer or shared-memory atomic: the old value into `d`.
fn atomic(cx: &mut Ctx, i: &IntrinsicInst, d: Value) -> Result<(), EmitError> {
    let aop = i
        .index(IndexKind::AtomicOp)
        .and_then(AtomicOp::from_index)
        .ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("`@{}` has no valid atomic_op", i.op),
            })
        })?;
    let bits = cx.func.value_type(d).bit_size();
    let size = match bits {
        32 => DataSize::D32,
        64 => DataSize::D64,
        b => {
            return Err(cx.unsupported(format!(
                "`@{}` on {b}-bit data: the back end's atomics are 32- and 64-bit",
                i.op
            )))
        }
    };
    let ssbo = matches!(i.op, IntrinsicOp::SsboAtomic | IntrinsicOp::SsboAtomicSwap);
    let global = matches!(
        i.op,
        IntrinsicOp::GlobalAtomic | IntrinsicOp::GlobalAtomicSwap
    );
    // The sources after the address: (compare,) data.
    let first = if ssbo { 2 } else { 1 };
    let data = src(cx, i, first)?;
    let constant = cx.const_src(data);
    // Mesa turns an add of 1 or -1 into an increment or decrement of no operand.
    let small = constant.and_then(|c| match (bits, c) {
        (32, c) => Some(c as u32),
        (_, 1) => Some(1),
        (_, u64::MAX) => Some(u32::MAX),
        _ => None,
    });
    let op = lowering::images::lsc_op_for_atomic(aop, small).ok_or_else(|| {
        cx.unsupported(format!(
            "`@{}` with atomic_op {}: neither LSC nor the data port has that atomic",
            i.op,
            aop.name()
        ))
    })?;
    let mut operands = Vec::new();
    for k in 0..op.num_data_operands() {
        operands.push(cx.comp(src(cx, i, first + k)?, 0)?);
    }
    let loc = if ssbo {
        let loc = buffer_loc(cx, i, 0, false)?;
        if atomic_at_a64(cx, i.op, bits) && loc.surface != Surface::Flat {
            let block = cx.comp(src(cx, i, 0)?, 0)?;
            let a = buffer_address(cx, block, loc.addr, false)?;
            Loc::flat(Sfid::Ugm, AddrSize::A64, a, 0)
        } else {
            loc
        }
    } else if global {
        let a = cx.comp(src(cx, i, 0)?, 0)?;
        Loc::flat(Sfid::Ugm, AddrSize::A64, a, 0)
    } else {
        // The base is added to the address: LSC atomics take no immediate offset
        // before Xe2 (IGC's vISA verifier).
        let base = i.index(IndexKind::Base).unwrap_or(0) as i32;
        let mut a = cx.comp(src(cx, i, 0)?, 0)?;
        if base != 0 {
            let t = cx.temp(UD);
            cx.op("add", t, UD, &[a, Opnd::Imm(u64::from(base as u32))]);
            a = Opnd::Reg(t);
        }
        Loc::flat(Sfid::Slm, AddrSize::A32, a, 0)
    };
    let m = loc_message(
        LscOp::Atomic(op),
        &loc,
        DataShape::vector(size, 1, false),
        0,
    );
    let dest = cx.dest(d, 0)?;
    emit_access(
        cx,
        &Access {
            m,
            surface: loc.surface,
            addr: vec![loc.addr],
            pitch: None,
            data: Vec::new(),
            atomic: operands,
            dest: Some(vec![dest]),
            pred: None,
        },
    )
}

/// Whether buffer intrinsic `op` on `bits`-bit data is an SSBO atomic that goes to the
/// buffer's A64 address instead of its binding-table surface: a 64-bit one on the
/// legacy data port, which has 64-bit atomics only as `svm_atomic` (stateless). One
/// rule for [`atomic`], which emits it so, and [`constant_buffer_blocks`], which loads
/// the buffer's base address for it: the two must agree.
fn atomic_at_a64(cx: &Ctx, op: IntrinsicOp, bits: u8) -> bool {
    matches!(op, IntrinsicOp::SsboAtomic | IntrinsicOp::SsboAtomicSwap)
        && bits == 64
        && cx.t.dataport.is_some()
}

/// `d = a + zext(b)` on 64-bit `d` and `a`, per lane.
fn add64_u32(cx: &mut Ctx, d: Reg, a: Opnd, b: Opnd) {
    let carry = cx.temp(UD);
    let es = cx.es();
    let lo = Reg { stride: 2, ..d };
    let hi = Reg {
        stride: 2,
        ..d.at(4)
    };
    let (dl, dc, al, sb) = (
        cx.dst(lo, UD),
        cx.dst(carry, UD),
        cx.src(a.half(false), UD),
        cx.src(b, UD),
    );
    cx.line(&format!("addc {es} {dl} {dc} {al} {sb}"));
    cx.op("add", hi, UD, &[a.half(true), Opnd::Reg(carry)]);
}

/// Where a buffer access (sources `block`, `offset` start at `k`) goes: a constant
/// block with a binding-table index ([`buffer_bti`]) is a surface at the offset, as
/// brw reaches a buffer bound in the binding table; another block is global memory at
/// `table[block] + offset`.
fn buffer_loc(cx: &mut Ctx, i: &IntrinsicInst, k: usize, ubo: bool) -> Result<Loc, EmitError> {
    let block = cx.comp(src(cx, i, k)?, 0)?;
    let offset = cx.comp(src(cx, i, k + 1)?, 0)?;
    if let Opnd::Imm(b) = block {
        if let Some(bti) = buffer_bti(cx.shader, ubo, b as u32) {
            return Ok(Loc {
                sfid: Sfid::Ugm,
                surface: Surface::Bti(bti),
                addr_size: AddrSize::A32,
                addr: offset,
                offset: 0,
            });
        }
    }
    let a = buffer_address(cx, block, offset, ubo)?;
    Ok(Loc::flat(Sfid::Ugm, AddrSize::A64, a, 0))
}

/// The binding-table index of buffer binding `block` (of the UBOs when `ubo`, else of
/// the SSBOs), as `visa/ABI.md` lays the binding table out: after the surfaces of the
/// shader's images (`binding + array length`), UBO block `b` at `first + 2 b` and SSBO
/// block `b` at `first + 2 b + 1`. None from index 240 on, where a binding table ends
/// (anv's `MAX_BINDING_TABLE_SIZE`; the indices above name the stateless and shared
/// memory models): such a block is reached through its table entry.
pub fn buffer_bti(shader: &Shader, ubo: bool, block: u32) -> Option<u32> {
    let first = shader
        .images
        .iter()
        .map(|d| u64::from(d.binding) + u64::from(d.count.unwrap_or(1)))
        .max()
        .unwrap_or(0);
    let index = first + 2 * u64::from(block) + u64::from(!ubo);
    (index < u64::from(ir::MAX_BINDING_TABLE_ENTRIES)).then_some(index as u32)
}

/// The address `table[block] + offset` of a buffer access. A constant block's base
/// is the scalar [`load_buffer_bases`] loaded; another block's is read from the table
/// per lane.
fn buffer_address(cx: &mut Ctx, block: Opnd, offset: Opnd, ubo: bool) -> Result<Opnd, EmitError> {
    let base = match block {
        Opnd::Imm(b) => cx.buffer_bases.get(&(ubo, b as u32)).copied(),
        Opnd::Reg(_) => None,
    };
    let base = match base {
        Some(b) => b,
        None => {
            let table = if ubo {
                cx.abi.ubo_table(&mut cx.decls)
            } else {
                cx.abi.ssbo_table(&mut cx.decls)
            };
            load_table_entry(cx, table, block, DataSize::D64, None)?
        }
    };
    let addr = cx.temp(VType::Uq);
    add64_u32(cx, addr, Opnd::Reg(base), offset);
    Ok(Opnd::Reg(addr))
}

/// The buffer bindings whose base addresses [`load_buffer_bases`] loads: `(is UBO,
/// block)`, in order, for each binding named by a constant block that has no
/// binding-table index, that a uniform UBO load reads (a SIMD1 load from the
/// base), or that a 64-bit atomic reaches at its A64 address on the legacy data port.
pub fn constant_buffer_blocks(cx: &Ctx) -> BTreeSet<(bool, u32)> {
    let func = cx.func;
    let mut out = BTreeSet::new();
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let Some(i) = data.as_intrinsic() else {
            continue;
        };
        let (k, ubo) = match i.op {
            IntrinsicOp::LoadSsbo => (0, false),
            IntrinsicOp::LoadUbo => (0, true),
            IntrinsicOp::StoreSsbo => (1, false),
            IntrinsicOp::SsboAtomic | IntrinsicOp::SsboAtomicSwap => (0, false),
            _ => continue,
        };
        let a64_atomic = data
            .dest
            .is_some_and(|d| atomic_at_a64(cx, i.op, func.value_type(d).bit_size()));
        let block = i.srcs.get(k).and_then(|s| cx.const_src(*s));
        let Some(b) = block.map(|b| b as u32) else {
            continue;
        };
        let uniform = data.dest.is_some_and(|d| cx.is_uniform(d));
        if uniform && data.dest.is_some_and(|d| block_read(cx, i, d).is_some()) {
            continue;
        }
        if uniform || a64_atomic || buffer_bti(cx.shader, ubo, b).is_none() {
            out.insert((ubo, b));
        }
    }
    out
}

/// Loads, at the kernel's start, the base address of every buffer binding that
/// [`constant_buffer_blocks`] finds, once, into a scalar (one register each, a
/// message's destination) that the binding's accesses read. This is what brw gets
/// from a buffer descriptor it reads once (anv pushes the descriptor), where loading
/// the table entry at each access costs a message and the 64-bit address arithmetic
/// of every lane.
pub fn load_buffer_bases(cx: &mut Ctx) -> Result<(), EmitError> {
    let scalar = cx.scalar_mode();
    cx.set_scalar(true);
    for (ubo, block) in constant_buffer_blocks(cx) {
        let table = if ubo {
            cx.abi.ubo_table(&mut cx.decls)
        } else {
            cx.abi.ssbo_table(&mut cx.decls)
        };
        let base = cx.temp_bytes(VType::Uq, 8);
        let table = Opnd::Reg(Reg {
            var: table,
            off: 0,
            stride: 0,
        });
        let offset = i32::try_from(u64::from(block) * 8).map_err(|_| {
            cx.unsupported(format!("buffer block {block} is beyond the table's reach"))
        })?;
        scalar_load(cx, base.var, table, offset, 2)?;
        cx.buffer_bases
            .insert((ubo, block), Reg { stride: 0, ..base });
    }
    cx.set_scalar(scalar);
    Ok(())
}

/// `get_ssbo_size`: entry `block` of the SSBO size table, one `u32` per binding
/// (visa/ABI.md), as anv reads a buffer's range from its descriptor.
fn ssbo_size(cx: &mut Ctx, i: &IntrinsicInst, d: Value) -> Result<(), EmitError> {
    let block = cx.comp(src(cx, i, 0)?, 0)?;
    let table = cx.abi.ssbo_sizes(&mut cx.decls);
    let dr = cx.dest(d, 0)?;
    load_table_entry(cx, table, block, DataSize::D32, Some(dr)).map(|_| ())
}

/// Loads the `size`-sized entry `index` of the table whose `u64` address is the input
/// `table` into `dest` (a new `u64` temporary when `None`), one A64 load per lane (a
/// per-lane index reads per-lane entries); returns the register loaded.
fn load_table_entry(
    cx: &mut Ctx,
    table: crate::decl::VarId,
    index: Opnd,
    size: DataSize,
    dest: Option<Reg>,
) -> Result<Reg, EmitError> {
    let shift = if size == DataSize::D64 { 3 } else { 2 };
    let table = Opnd::Reg(Reg {
        var: table,
        off: 0,
        stride: 0,
    });
    // entry = table + index << shift, the 64-bit sum of a 32-bit index scaled.
    let scaled = cx.temp(VType::Uq);
    let (lo, hi) = (
        Reg {
            stride: 2,
            ..scaled
        },
        Reg {
            stride: 2,
            ..scaled.at(4)
        },
    );
    cx.op("shl", lo, UD, &[index, Opnd::Imm(shift)]);
    cx.op("shr", hi, UD, &[index, Opnd::Imm(32 - shift)]);
    let entry = cx.temp(VType::Uq);
    let es = cx.es();
    let carry = cx.temp(UD);
    let (dl, dc, tl, sl) = (
        cx.dst(Reg { stride: 2, ..entry }, UD),
        cx.dst(carry, UD),
        cx.src(table.half(false), UD),
        cx.src(Opnd::Reg(lo), UD),
    );
    cx.line(&format!("addc {es} {dl} {dc} {tl} {sl}"));
    cx.op_add3(
        Reg {
            stride: 2,
            ..entry.at(4)
        },
        UD,
        [table.half(true), Opnd::Reg(hi), Opnd::Reg(carry)],
    );
    let dest = match dest {
        Some(d) => d,
        None => cx.temp(VType::Uq),
    };
    emit_access(
        cx,
        &Access {
            m: message(
                LscOp::Load,
                Sfid::Ugm,
                AddrSize::A64,
                DataShape::vector(size, 1, false),
                0,
            ),
            surface: Surface::Flat,
            addr: vec![Opnd::Reg(entry)],
            pitch: None,
            data: Vec::new(),
            atomic: Vec::new(),
            dest: Some(vec![dest]),
            pred: None,
        },
    )?;
    Ok(dest)
}

fn push_constant(cx: &mut Ctx, i: &IntrinsicInst, base: i32, d: Value) -> Result<(), EmitError> {
    let ty = cx.func.value_type(d);
    let (bits, comps) = (ty.bit_size(), ty.num_components());
    let eb = u32::from(bits.max(8) / 8);
    let off = cx.comp(src(cx, i, 0)?, 0)?;
    match off {
        Opnd::Imm(o) => {
            let start = i64::from(base) + o as u32 as i64;
            let end = start + i64::from(eb) * i64::from(comps);
            let align = eb.min(4);
            if start < 0 || end > 0xffff || !(start as u32).is_multiple_of(align) {
                return Err(cx.unsupported(format!(
                    "push constant bytes {start}..{end} are not {align}-byte aligned registers of the payload"
                )));
            }
            let var = cx.abi.push_constants(&mut cx.decls, end as u32);
            for c in 0..comps {
                let r = Reg {
                    var,
                    off: start as u32 + u32::from(c) * eb,
                    stride: 0,
                };
                let dr = cx.dest(d, c)?;
                copy(cx, dr, Opnd::Reg(r), bits);
            }
            Ok(())
        }
        Opnd::Reg(_) => {
            let var = cx.abi.push_constants_address(&mut cx.decls);
            let p = Opnd::Reg(Reg {
                var,
                off: 0,
                stride: 0,
            });
            if cx.is_uniform(d) {
                // A uniform offset: one transposed SIMD1 load ([`crate::uniform`]).
                let a = cx.scalar(VType::Uq);
                add64_u32(cx, a, p, off);
                return uniform_load(cx, d, Opnd::Reg(a), base);
            }
            let a = cx.temp(VType::Uq);
            add64_u32(cx, a, p, off);
            load(
                cx,
                d,
                Loc::flat(Sfid::Ugm, AddrSize::A64, Opnd::Reg(a), base),
            )
        }
    }
}

fn image_param(cx: &mut Ctx, i: &IntrinsicInst, slot: i32, d: Value) -> Result<(), EmitError> {
    let r = i.image.ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: "`@image_load_param` names no image".into(),
        })
    })?;
    let name = cx
        .shader
        .images
        .get(r.image.index())
        .map(|d| d.name.clone())
        .ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!("image {} is not declared", r.image.as_u32()),
            })
        })?;
    let var = cx.abi.image_params(&mut cx.decls, &name);
    let table = Opnd::Reg(Reg {
        var,
        off: 0,
        stride: 0,
    });
    let mut offset = i64::from(slot) * 16;
    let addr = match r.index {
        None => table,
        Some(idx) => match cx.comp(idx, 0)? {
            Opnd::Imm(k) => {
                offset += (k as u32 as i64) * i64::from(PARAM_BLOCK_BYTES);
                table
            }
            o => {
                let t = cx.temp(UD);
                cx.op("mul", t, UD, &[o, Opnd::Imm(u64::from(PARAM_BLOCK_BYTES))]);
                let a = cx.temp(VType::Uq);
                add64_u32(cx, a, table, Opnd::Reg(t));
                Opnd::Reg(a)
            }
        },
    };
    let offset = i32::try_from(offset)
        .map_err(|_| cx.unsupported("the parameter block offset does not fit 32 bits"))?;
    if cx.is_uniform(d) {
        // A slot of a window read at the kernel's start (`crate::param_block`).
        let ty = cx.func.value_type(d);
        let image = r.image.as_u32();
        let window: Option<Vec<Reg>> = matches!(addr, Opnd::Reg(a) if a.var == var)
            .then(|| {
                (0..u32::from(ty.num_components()))
                    .map(|c| {
                        let byte = u32::try_from(offset).ok()?.checked_add(4 * c)?;
                        cx.param_dwords.get(&(image, byte)).copied()
                    })
                    .collect()
            })
            .flatten()
            .filter(|_| ty.bit_size() == 32);
        if let Some(regs) = window {
            for (c, reg) in regs.into_iter().enumerate() {
                let dr = cx.dest(d, c as u8)?;
                let (dd, ss) = (cx.dst(dr, UD), cx.src(Opnd::Reg(reg), UD));
                cx.line(&format!("mov (M1_NM, 1) {dd} {ss}"));
            }
            return Ok(());
        }
        return uniform_load(cx, d, addr, offset);
    }
    load(cx, d, Loc::flat(Sfid::Ugm, AddrSize::A64, addr, offset))
}

/// `load_constant`: global memory at `const_data + min(base + offset, size - bytes)`,
/// the sum taken in 32 bits and the clamp unsigned, as anv's
/// `anv_nir_apply_pipeline_layout.c` lowers it (`nir_iadd_imm`, `nir_umin`) before
/// brw's `load_global_constant`; a uniform value is one transposed SIMD1 load.
fn load_constant(cx: &mut Ctx, i: &IntrinsicInst, d: Value) -> Result<(), EmitError> {
    let ty = cx.func.value_type(d);
    let bytes = u64::from(ty.bit_size() / 8) * u64::from(ty.num_components());
    let size = cx.shader.constant_data.len() as u64;
    let last = size
        .checked_sub(bytes)
        .filter(|_| bytes > 0)
        .and_then(|l| u32::try_from(l).ok())
        .ok_or_else(|| {
            cx.err(EmitErrorKind::Malformed {
                what: format!(
                    "`@load_constant` reads {bytes} bytes of {size} bytes of constant data"
                ),
            })
        })?;
    let base = i.index(IndexKind::Base).unwrap_or(0);
    let uniform = cx.is_uniform(d);
    let data = cx.abi.constant_data(&mut cx.decls);
    let data = Opnd::Reg(Reg {
        var: data,
        off: 0,
        stride: 0,
    });
    let offset = match cx.comp(src(cx, i, 0)?, 0)? {
        Opnd::Imm(o) => {
            let at = (o as u32).wrapping_add(base).min(last);
            if uniform {
                return uniform_load(cx, d, data, at as i32);
            }
            Opnd::Imm(u64::from(at))
        }
        o => {
            let t = if uniform { cx.scalar(UD) } else { cx.temp(UD) };
            let sum = if base == 0 {
                o
            } else {
                cx.op("add", t, UD, &[o, Opnd::Imm(u64::from(base))]);
                Opnd::Reg(t)
            };
            cx.op("min", t, UD, &[sum, Opnd::Imm(u64::from(last))]);
            Opnd::Reg(t)
        }
    };
    let a = if uniform {
        cx.scalar(VType::Uq)
    } else {
        cx.temp(VType::Uq)
    };
    add64_u32(cx, a, data, offset);
    if uniform {
        return uniform_load(cx, d, Opnd::Reg(a), 0);
    }
    load(cx, d, Loc::flat(Sfid::Ugm, AddrSize::A64, Opnd::Reg(a), 0))
}

/// A UBO load of a constant block at a uniform offset ([`crate::uniform`]): one
/// transposed SIMD1 message into the value's scalars, as brw loads a uniform pull
/// constant, from the binding's base that [`load_buffer_bases`] loaded. A constant
/// offset is the message's own.
fn uniform_ubo_load(cx: &mut Ctx, i: &IntrinsicInst, d: Value) -> Result<(), EmitError> {
    if let Some(regs) = block_read(cx, i, d) {
        for (c, r) in regs.into_iter().enumerate() {
            let dr = cx.dest(d, c as u8)?;
            let (dd, ss) = (cx.dst(dr, UD), cx.src(Opnd::Reg(r), UD));
            cx.line(&format!("mov (M1_NM, 1) {dd} {ss}"));
        }
        return Ok(());
    }
    let block = cx.comp(src(cx, i, 0)?, 0)?;
    let base = match block {
        Opnd::Imm(b) => cx.buffer_bases.get(&(true, b as u32)).copied(),
        Opnd::Reg(_) => None,
    };
    let base = base.ok_or_else(|| {
        cx.err(EmitErrorKind::Malformed {
            what: "a uniform UBO load whose block is not a constant".into(),
        })
    })?;
    match cx.comp(src(cx, i, 1)?, 0)? {
        Opnd::Imm(o) => {
            let o = i32::try_from(o as u32)
                .map_err(|_| cx.unsupported("a UBO offset of 2 GiB or more"))?;
            uniform_load(cx, d, Opnd::Reg(base), o)
        }
        offset => {
            let a = cx.scalar(VType::Uq);
            add64_u32(cx, a, Opnd::Reg(base), offset);
            uniform_load(cx, d, Opnd::Reg(a), 0)
        }
    }
}

/// The registers of a UBO range read at the kernel's start
/// ([`crate::ubo_block`]) that hold the components of uniform `load_ubo` `i` (defining
/// `d`), if one does: a constant block at a constant offset.
fn block_read(cx: &Ctx, i: &IntrinsicInst, d: Value) -> Option<Vec<Reg>> {
    if cx.ubo_dwords.is_empty() {
        return None;
    }
    let comp = |k: usize| u32::try_from(cx.const_src(*i.srcs.get(k)?)?).ok();
    let (block, offset) = (comp(0)?, comp(1)?);
    let ty = cx.func.value_type(d);
    if ty.bit_size() != 32 {
        return None;
    }
    (0..u32::from(ty.num_components()))
        .map(|c| {
            let at = offset.checked_add(4 * c)?;
            cx.ubo_dwords.get(&(block, at)).copied()
        })
        .collect()
}

/// Loads a uniform 32-bit vector with one transposed SIMD1 message (a block of
/// dwords) into the value's scalar elements.
fn uniform_load(cx: &mut Ctx, d: Value, addr: Opnd, offset: i32) -> Result<(), EmitError> {
    let ty = cx.func.value_type(d);
    if ty.bit_size() != 32 || !DataShape::VECT_SIZES.contains(&ty.num_components()) {
        return Err(cx.unsupported(format!(
            "a uniform load of {ty} has no transposed message shape"
        )));
    }
    let var = cx.value_var(d)?;
    scalar_load(cx, var, addr, offset, ty.num_components())
}

/// Loads `comps` dwords at `addr + offset` (a scalar 64-bit address) into the start of
/// `var` (which starts a register), with one transposed SIMD1 message, or the legacy
/// data port's SIMD8 read.
fn scalar_load(
    cx: &mut Ctx,
    var: crate::decl::VarId,
    addr: Opnd,
    offset: i32,
    comps: u8,
) -> Result<(), EmitError> {
    // The address in a register of its own (a payload starts a register).
    let a = cx.temp_bytes(UD, 8);
    for hi in [false, true] {
        let r = Reg {
            off: if hi { 4 } else { 0 },
            stride: 1,
            ..a
        };
        let (dd, ss) = (cx.dst(r, UD), cx.src(addr.half(hi), UD));
        cx.line(&format!("mov (M1_NM, 1) {dd} {ss}"));
    }
    if cx.t.dataport.is_some() {
        return crate::dataport_lsc::uniform_load(cx, var, a, offset, comps);
    }
    let m = message(
        LscOp::Load,
        Sfid::Ugm,
        AddrSize::A64,
        DataShape::vector(DataSize::D32, comps, true),
        offset,
    );
    let dst = crate::lsc::lsc_raw(
        cx,
        Reg {
            var,
            off: 0,
            stride: 1,
        },
    );
    let off = match offset {
        0 => String::new(),
        o if o < 0 => format!("-0x{:x}", o.unsigned_abs()),
        o => format!("+0x{o:x}"),
    };
    let addr = format!("flat[{}{off}]:a64", crate::lsc::lsc_raw(cx, a));
    let text = crate::lsc::format_message(&m, None, "(M1_NM, 1)", Some(&dst), &addr, &[]);
    cx.line(&text);
    Ok(())
}
