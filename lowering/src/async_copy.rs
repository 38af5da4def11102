//! The `lower-async-copies` pass: group async copies become messages.
//!
//! `group_async_copy_2d2d` and `group_async_copy_3d3d` (`shared/spec/group-async-copies.md`)
//! copy a 2D or 3D region of elements between global memory (a 64-bit address) and the
//! workgroup's shared local memory (a 32-bit byte offset), performed by all the
//! work-items of the workgroup together. The pass lowers each copy to messages executed
//! by the work-items themselves:
//!
//! - **Per-invocation loop** (every platform, every shape): the copy is split into
//!   *units* of `u` bytes, `u` the largest power of two up to 16 dividing the element
//!   size when it is a constant (1 when it is not), numbered line by line and plane by
//!   plane: `W = elems_per_line · elem_bytes / u` units per line. Invocation `i` (the
//!   local invocation index) moves units `i`, `i + S`, `i + 2S`, ... below
//!   `planes · lines · W`, `S` the workgroup size: unit `n` is column `n mod W` of line
//!   `(n / W) mod lines` of plane `n / (W · lines)`. Each unit is one untyped load and one
//!   untyped store: `.ugm` flat a64 on the global side, `.slm` flat a32 on the shared
//!   side, with data `d8u32` (1 byte), `d16u32` (2), `d32` (4), `d64` (8) or `d32x4` (16):
//!   vector sizes the SIMT rules allow (lsc.md §4), and payloads within 8 registers at
//!   every untyped SIMD width of the presets (§13.10). When the unit count is a constant
//!   no larger than the workgroup, the loop is a single `if`. Element indices are
//!   computed in 32 bits (the operands are 32-bit), shared-memory byte offsets in 32
//!   bits, and global byte offsets in 64 bits.
//! - **2D block messages** (untyped block2d: PVC, LNL, BMG), under
//!   [`Block2dPolicy::Auto`] when the shape is a compile-time constant (`elem_bytes`,
//!   `elems_per_line`, `lines`, line lengths; for 3D also `planes` and plane areas; the
//!   pointers and offsets may be dynamic), the shader fixes its `subgroup_size`, the
//!   workgroup is whole subgroups (a block message needs every lane of its subgroup),
//!   and the copy takes at most [`MAX_AUTO_BLOCKS`] block messages. Each plane is one 2D
//!   copy whose global side is the block surface: base `ptr + offset · elem_bytes (+
//!   plane · plane_area · elem_bytes)`, width `elems_per_line · elem_bytes`, height
//!   `lines`, pitch `line_length · elem_bytes` (bytes), read or written in elements of
//!   the largest of 8, 4, 2, 1 bytes dividing a line. The rectangle is cut into legal
//!   blocks by [`crate::block2d::split_rect`] (the untyped block2d table: load rows of at
//!   most 64 bytes, store rows of at most 512, at least 4 bytes a row, at most 32 rows),
//!   and blocks are cut further in height until their register image spreads over the
//!   subgroup as an IR value: component `k` of lane `i` holds image bytes
//!   `(k · SG + i) · c ..`, `c` the largest chunk of 8, 4, 2, 1 bytes that divides the
//!   block's row and gives an IR vector's component count (1, 2, 3, 4, 8 or 16; stores
//!   assemble their data with `vec2` .. `vec16`). Global to shared: a block load, then one shared
//!   store (`.slm` flat a32, `d64`/`d32`/`d16u32`/`d8u32` of `c` bytes) per component,
//!   each lane storing its chunk at the shared address of its image byte (row `r`,
//!   column `col` of the image: `dst + (offset + (y + r) · line_length) · elem_bytes +
//!   x · e + col`); chunks in the image's padding (rows padded to a power of two,
//!   blocks to whole 64-byte registers) are predicated off, components with no element
//!   byte are skipped. Shared to global: the same shared addresses loaded (padding
//!   predicated off, reading 0), assembled into the image, one block store.
//!   Block `j` is done by subgroup `j mod (workgroup size / SG)`, all of a subgroup's
//!   blocks under one `if` on the subgroup id: the blocks spread over the hardware
//!   threads of the workgroup instead of one thread doing them all, and the condition is
//!   uniform within each subgroup as the block messages require.
//!   [`Block2dPolicy::Always`] makes every copy take this path or fail with
//!   [`LowerErrorKind::IllegalBlock2d`] naming the rule (lsc.md §13.9 for the platform
//!   and the row width, or the condition above that does not hold).
//!
//!   The untyped block2d surface constraints (base and pitch alignment, minimum width
//!   and pitch) are not in the project's references (lsc.md §14) and are not checked:
//!   a driver that knows them must keep copies that break them on the loop
//!   (`block2d=never`).
//!
//! `group_wait_events` becomes a `barrier`: each work-item moved only its own units, so
//! the copy is complete, and visible to every work-item, once all of them have passed a
//! workgroup barrier. The event a copy returns is not needed any more: it becomes the
//! event operand when that is not zero, else the constant 1 (a non-zero token, as the
//! specification's events are never null).
//!
//! As the specification requires, every work-item must reach the copy and the wait with
//! the same operands (the loop bounds and addresses are then uniform); the lowered code
//! relies on it, and the executor's reference checks it.

use crate::block2d::{
    data_size_of, register_bytes, split_rect, Block2dForm, Block2dOp, Block2dTable, BlockAccess,
    BlockRect, Packing,
};
use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind};
use ir::function::InstKind;
use ir::lsc::{AddrSize, AddrType, BlockShape, CacheControl, DataShape, DataSize, Sfid};
use ir::passes::{Pass, PassError};
use ir::{
    AluInst, Builder, Cursor, Function, Inst, IntrinsicInst, IntrinsicOp, Phi, Shader, Span, Src,
    Type, Value,
};
use smallvec::smallvec;
use std::collections::HashMap;

/// When to use 2D block messages.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Block2dPolicy {
    /// Where the shape is a compile-time constant and the platform has untyped 2D
    /// block messages; the per-invocation loop otherwise.
    #[default]
    Auto,
    /// Never: every copy becomes the per-invocation loop.
    Never,
    /// Always: a copy that cannot be done with 2D block messages is an error
    /// ([`LowerErrorKind::IllegalBlock2d`], naming the rule).
    Always,
}

/// Options of the `lower-async-copies` pass.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct AsyncCopyOptions {
    /// When to use 2D block messages.
    pub block2d: Block2dPolicy,
}

/// What the pass did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AsyncCopyReport {
    /// Copies lowered to the per-invocation loop.
    pub loop_copies: usize,
    /// Copies lowered to 2D block messages.
    pub block2d_copies: usize,
    /// The 2D block messages emitted for them.
    pub block2d_messages: usize,
    /// `group_wait_events` turned into barriers.
    pub waits: usize,
}

impl AsyncCopyReport {
    /// Number of instructions lowered.
    pub fn lowered(&self) -> usize {
        self.loop_copies + self.block2d_copies + self.waits
    }
}

/// A 32-bit or 64-bit number in the emitted code: a constant (folded while emitting) or
/// a value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Num {
    K(u64),
    V(Src),
}

/// Which memory a copy operand points into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Side {
    /// Global memory: a 64-bit address, `.ugm` flat a64.
    Global,
    /// Shared local memory: a 32-bit byte offset, `.slm` flat a32.
    Shared,
}

/// One side of a copy: where it points and how its elements are laid out.
#[derive(Copy, Clone, Debug)]
struct Region {
    side: Side,
    ptr: Src,
    offset: Num,
    line_length: Num,
    /// Plane area (2D copies: unused, the plane is always 0).
    plane_area: Num,
}

/// A decoded group async copy.
#[derive(Clone, Debug)]
struct Copy {
    inst: Inst,
    span: Span,
    dst: Region,
    src: Region,
    elem_bytes: Num,
    elems_per_line: Num,
    lines: Num,
    planes: Num,
    event: Num,
}

impl Copy {
    /// Decodes a copy instruction; errors are [`LowerErrorKind::Malformed`] (shapes the
    /// validator rejects).
    fn decode(func: &Function, inst: Inst, device: &Device) -> Result<Copy, LowerError> {
        let data = func.inst(inst);
        let intr = data.as_intrinsic().expect("caller checked");
        let span = func.inst_span(inst);
        let err =
            |message: String| copy_error(func, inst, device, LowerErrorKind::Malformed, message);
        let specs = intr.op.info().srcs;
        if intr.srcs.len() != specs.len() {
            return Err(err(format!(
                "expected {} sources, found {}",
                specs.len(),
                intr.srcs.len()
            )));
        }
        if data.dest.map(|d| func.value_type(d)) != Some(Type::U32) {
            return Err(err("the event it defines must be a 32-bit scalar".into()));
        }
        for (s, spec) in intr.srcs.iter().zip(specs) {
            let t = func.src_type(*s);
            let bits_ok = if spec.bit_size == 0 {
                matches!(t.bit_size(), 32 | 64)
            } else {
                t.bit_size() == spec.bit_size
            };
            if t.num_components() != 1 || !bits_ok {
                return Err(err(format!("source `{}` is {t}", spec.name)));
            }
        }
        let num = |i: usize| const_scalar(func, intr.srcs[i]).map_or(Num::V(intr.srcs[i]), Num::K);
        let side = |i: usize| {
            if func.src_type(intr.srcs[i]).bit_size() == 64 {
                Side::Global
            } else {
                Side::Shared
            }
        };
        let (dst_side, src_side) = (side(0), side(2));
        if dst_side == src_side {
            return Err(err(
                "one of `dst` and `src` must be shared (32-bit) and the other global (64-bit)"
                    .into(),
            ));
        }
        if !device.has_a64 {
            // The global side is a 64-bit pointer; Gfx7 messages cannot address it.
            return Err(copy_error(
                func,
                inst,
                device,
                LowerErrorKind::A64Unsupported,
                "the global side needs 64-bit flat (A64) addresses, which messages have from Gfx8"
                    .into(),
            ));
        }
        let three_d = intr.op == IntrinsicOp::GroupAsyncCopy3d3d;
        let (planes, src_ll, src_pa, dst_ll, dst_pa, event) = if three_d {
            (num(7), num(8), num(9), num(10), num(11), num(12))
        } else {
            let zero = Num::K(0);
            (Num::K(1), num(7), zero, num(8), zero, num(9))
        };
        Ok(Copy {
            inst,
            span,
            dst: Region {
                side: dst_side,
                ptr: intr.srcs[0],
                offset: num(1),
                line_length: dst_ll,
                plane_area: dst_pa,
            },
            src: Region {
                side: src_side,
                ptr: intr.srcs[2],
                offset: num(3),
                line_length: src_ll,
                plane_area: src_pa,
            },
            elem_bytes: num(4),
            elems_per_line: num(5),
            lines: num(6),
            planes,
            event,
        })
    }
}

/// The value of a scalar source defined by a `load_const`.
fn const_scalar(func: &Function, src: Src) -> Option<u64> {
    let def = func.value_def(src.value)?;
    let vals = func.inst(def).as_const()?;
    vals.get(src.swizzle.component(0) as usize).copied()
}

fn copy_error(
    func: &Function,
    inst: Inst,
    device: &Device,
    kind: LowerErrorKind,
    message: String,
) -> LowerError {
    LowerError {
        kind,
        function: Some(func.name.as_str().into()),
        intrinsic: func.inst(inst).as_intrinsic().map(|i| i.op.name()),
        span: func.inst_span(inst),
        image: None,
        format: None,
        platform: device.name.as_str().into(),
        message,
    }
}

/// How one instruction is lowered.
#[derive(Clone, Debug)]
enum Plan {
    /// A copy as the per-invocation loop.
    Loop(Box<Copy>),
    /// A copy as 2D block messages.
    Block2d(Box<Copy>, Box<BlockPlan>),
    /// `group_wait_events` as a barrier.
    Wait(Inst),
}

/// Lowers every group async copy and `group_wait_events` of `shader` for `device`.
///
/// On error the shader is unchanged and the first problem (in program order) is
/// returned; [`lower_async_copies_all`] reports all of them.
pub fn lower_async_copies(
    shader: &mut Shader,
    device: &Device,
    options: &AsyncCopyOptions,
) -> Result<AsyncCopyReport, LowerError> {
    lower_async_copies_all(shader, device, options).map_err(|mut e| e.swap_remove(0))
}

/// [`lower_async_copies`], reporting every instruction that cannot be lowered.
pub fn lower_async_copies_all(
    shader: &mut Shader,
    device: &Device,
    options: &AsyncCopyOptions,
) -> Result<AsyncCopyReport, Vec<LowerError>> {
    let wg_size = shader.workgroup_invocations();
    let mut errors = Vec::new();
    let mut plans: Vec<Vec<Plan>> = Vec::with_capacity(shader.functions.len());
    for func in &shader.functions {
        let mut fplans = Vec::new();
        for inst in func.insts_in_order() {
            let Some(intr) = func.inst(inst).as_intrinsic() else {
                continue;
            };
            match intr.op {
                IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d => {
                    if wg_size == 0 || wg_size > u32::MAX as u64 {
                        errors.push(copy_error(
                            func,
                            inst,
                            device,
                            LowerErrorKind::Malformed,
                            format!("the workgroup has {wg_size} invocations"),
                        ));
                        continue;
                    }
                    let c = match Copy::decode(func, inst, device) {
                        Ok(c) => c,
                        Err(e) => {
                            errors.push(e);
                            continue;
                        }
                    };
                    if options.block2d == Block2dPolicy::Never {
                        fplans.push(Plan::Loop(Box::new(c)));
                        continue;
                    }
                    match plan_block2d(&c, device, shader.subgroup_size, wg_size as u32) {
                        Ok(b) if options.block2d == Block2dPolicy::Always || b.auto_ok() => {
                            fplans.push(Plan::Block2d(Box::new(c), Box::new(b)))
                        }
                        Ok(_) => fplans.push(Plan::Loop(Box::new(c))),
                        Err(reason) if options.block2d == Block2dPolicy::Always => {
                            errors.push(copy_error(
                                func,
                                inst,
                                device,
                                LowerErrorKind::IllegalBlock2d,
                                format!("block2d=always: {reason}"),
                            ))
                        }
                        Err(_) => fplans.push(Plan::Loop(Box::new(c))),
                    }
                }
                IntrinsicOp::GroupWaitEvents => {
                    if func.inst(inst).dest.is_some() || intr.srcs.len() != 1 {
                        errors.push(copy_error(
                            func,
                            inst,
                            device,
                            LowerErrorKind::Malformed,
                            "`group_wait_events` takes one event and defines nothing".into(),
                        ));
                        continue;
                    }
                    fplans.push(Plan::Wait(inst));
                }
                _ => {}
            }
        }
        plans.push(fplans);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut report = AsyncCopyReport::default();
    for (func, fplans) in shader.functions.iter_mut().zip(plans) {
        for p in fplans {
            match p {
                Plan::Loop(c) => {
                    emit_loop(func, &c, wg_size as u32);
                    finish_copy(func, &c);
                    report.loop_copies += 1;
                }
                Plan::Block2d(c, b) => {
                    emit_block2d(func, &c, &b);
                    finish_copy(func, &c);
                    report.block2d_copies += 1;
                    report.block2d_messages += b.blocks.len();
                }
                Plan::Wait(inst) => {
                    func.inst_mut(inst).kind = InstKind::Intrinsic(Box::new(IntrinsicInst {
                        op: IntrinsicOp::Barrier,
                        image: None,
                        srcs: smallvec![],
                        indices: smallvec![],
                    }));
                    report.waits += 1;
                }
            }
        }
    }
    Ok(report)
}

/// Makes the copy instruction define its event: the event operand when it is not zero,
/// else 1.
fn finish_copy(func: &mut Function, c: &Copy) {
    let kind = match c.event {
        Num::K(e) => InstKind::LoadConst(smallvec![if e != 0 { e } else { 1 }]),
        Num::V(ev) => {
            let mut b = builder(func, c);
            let zero = b.imm_u32(0);
            let one = b.imm_u32(1);
            let nonzero = b.ine(ev, zero);
            InstKind::Alu(AluInst {
                op: ir::AluOp::Bcsel,
                srcs: smallvec![Src::new(nonzero), ev, Src::new(one)],
            })
        }
    };
    func.inst_mut(c.inst).kind = kind;
}

/// A builder in front of the copy, giving new instructions its span.
fn builder<'f>(func: &'f mut Function, c: &Copy) -> Builder<'f> {
    let mut b = Builder::new(func, Cursor::Before(c.inst));
    b.span = c.span;
    b
}

// ----- folding arithmetic ---------------------------------------------------------------

/// Emits (or folds) 32- or 64-bit arithmetic on [`Num`]s. Constants are emitted once
/// per copy: the code of a copy is a pre-header followed by one loop body (or `if`
/// side), so a constant emitted first in either dominates its later uses.
struct Arith<'b, 'f> {
    b: &'b mut Builder<'f>,
    consts: HashMap<(u8, u64), Value>,
}

impl<'b, 'f> Arith<'b, 'f> {
    fn new(b: &'b mut Builder<'f>) -> Self {
        Arith {
            b,
            consts: HashMap::new(),
        }
    }

    fn imm(&mut self, bits: u8, k: u64) -> Value {
        if let Some(&v) = self.consts.get(&(bits, k)) {
            return v;
        }
        let v = self.b.imm_int(bits, k as i64);
        self.consts.insert((bits, k), v);
        v
    }

    fn src(&mut self, x: Num, bits: u8) -> Src {
        match x {
            Num::K(k) => Src::new(self.imm(bits, k)),
            Num::V(s) => s,
        }
    }

    fn mask(bits: u8) -> u64 {
        ir::types::bit_mask(bits)
    }

    fn add(&mut self, x: Num, y: Num, bits: u8) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) => Num::K(a.wrapping_add(b) & Self::mask(bits)),
            (Num::K(0), v) | (v, Num::K(0)) => v,
            (x, y) => {
                let (x, y) = (self.src(x, bits), self.src(y, bits));
                Num::V(Src::new(self.b.iadd(x, y)))
            }
        }
    }

    fn mul(&mut self, x: Num, y: Num, bits: u8) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) => Num::K(a.wrapping_mul(b) & Self::mask(bits)),
            (Num::K(0), _) | (_, Num::K(0)) => Num::K(0),
            (Num::K(1), v) | (v, Num::K(1)) => v,
            (Num::K(k), v) | (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, bits);
                let sh = self.imm(32, k.trailing_zeros() as u64);
                Num::V(Src::new(self.b.ishl(v, sh)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, bits), self.src(y, bits));
                Num::V(Src::new(self.b.imul(x, y)))
            }
        }
    }

    /// `x / y` (unsigned, 32-bit); `y` is never the constant 0 here.
    fn udiv(&mut self, x: Num, y: Num) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) if b != 0 => Num::K(a / b),
            (v, Num::K(1)) => v,
            (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, 32);
                let sh = self.imm(32, k.trailing_zeros() as u64);
                Num::V(Src::new(self.b.ushr(v, sh)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, 32), self.src(y, 32));
                Num::V(Src::new(self.b.udiv(x, y)))
            }
        }
    }

    /// `x mod y` (unsigned, 32-bit); `y` is never the constant 0 here.
    fn umod(&mut self, x: Num, y: Num) -> Num {
        match (x, y) {
            (Num::K(a), Num::K(b)) if b != 0 => Num::K(a % b),
            (_, Num::K(1)) => Num::K(0),
            (v, Num::K(k)) if k.is_power_of_two() => {
                let v = self.src(v, 32);
                let m = self.imm(32, k - 1);
                Num::V(Src::new(self.b.iand(v, m)))
            }
            (x, y) => {
                let (x, y) = (self.src(x, 32), self.src(y, 32));
                Num::V(Src::new(self.b.umod(x, y)))
            }
        }
    }

    /// Zero-extends a 32-bit number to 64 bits.
    fn u2u64(&mut self, x: Num) -> Num {
        match x {
            Num::K(k) => Num::K(k),
            Num::V(s) => Num::V(Src::new(self.b.u2u64(s))),
        }
    }
}

// ----- the per-invocation loop ------------------------------------------------------------

/// The unit a loop iteration moves: its bytes and data shape.
fn unit_shape(bytes: u64) -> DataShape {
    match bytes {
        1 => DataShape::vector(DataSize::D8U32, 1, false),
        2 => DataShape::vector(DataSize::D16U32, 1, false),
        4 => DataShape::vector(DataSize::D32, 1, false),
        8 => DataShape::vector(DataSize::D64, 1, false),
        _ => DataShape::vector(DataSize::D32, 4, false),
    }
}

/// The bytes of one unit: the largest power of two up to 16 dividing a constant element
/// size, 1 for a dynamic one.
fn unit_bytes(elem_bytes: Num) -> u64 {
    match elem_bytes {
        Num::K(0) | Num::V(_) => 1,
        Num::K(eb) => (eb & eb.wrapping_neg()).min(16),
    }
}

fn position<T: PartialEq + std::marker::Copy>(all: &[T], x: T) -> u32 {
    all.iter().position(|y| *y == x).unwrap_or(0) as u32
}

/// The LSC indices of an untyped message on `side` with data `shape`.
fn lsc_indices(side: Side, shape: DataShape) -> [u32; 6] {
    let (sfid, size) = match side {
        Side::Global => (Sfid::Ugm, AddrSize::A64),
        Side::Shared => (Sfid::Slm, AddrSize::A32),
    };
    [
        position(&Sfid::ALL, sfid),
        position(&AddrType::ALL, AddrType::Flat),
        position(&AddrSize::ALL, size),
        shape.to_index(),
        CacheControl::DEFAULT.to_index(),
        0,
    ]
}

/// The address of byte `col_bytes` of the line `line` of plane `plane` of `r`.
fn region_address(
    a: &mut Arith<'_, '_>,
    r: &Region,
    elem_bytes: Num,
    plane: Num,
    line: Num,
    col_bytes: Num,
) -> Src {
    let p = a.mul(plane, r.plane_area, 32);
    let l = a.mul(line, r.line_length, 32);
    let el = a.add(r.offset, p, 32);
    let el = a.add(el, l, 32);
    match r.side {
        Side::Shared => {
            let bytes = a.mul(el, elem_bytes, 32);
            let off = a.add(bytes, col_bytes, 32);
            let addr = a.add(Num::V(r.ptr), off, 32);
            a.src(addr, 32)
        }
        Side::Global => {
            // The element index is 32-bit; its byte offset may not be.
            let el = a.u2u64(el);
            let eb = a.u2u64(elem_bytes);
            let bytes = a.mul(el, eb, 64);
            let col = a.u2u64(col_bytes);
            let off = a.add(bytes, col, 64);
            let addr = a.add(Num::V(r.ptr), off, 64);
            a.src(addr, 64)
        }
    }
}

/// Emits the per-invocation loop of a copy in front of it.
fn emit_loop(func: &mut Function, c: &Copy, wg_size: u32) {
    let u = unit_bytes(c.elem_bytes);
    let shape = unit_shape(u);
    let mut b = builder(func, c);
    let mut a = Arith::new(&mut b);
    let per_elem = match c.elem_bytes {
        Num::K(eb) => Num::K(eb / u),
        v => v,
    };
    let width = a.mul(c.elems_per_line, per_elem, 32);
    let per_plane = a.mul(width, c.lines, 32);
    let total = a.mul(per_plane, c.planes, 32);
    if total == Num::K(0) {
        return;
    }
    let lid =
        a.b.intrinsic(
            IntrinsicOp::LoadLocalInvocationIndex,
            None,
            &[],
            &[],
            Some(Type::U32),
        )
        .map(Src::new)
        .expect("load_local_invocation_index defines a value");
    let total_v = a.src(total, 32);
    let single = matches!(total, Num::K(t) if t <= wg_size as u64);
    // The unit index of the first (or only) iteration.
    let (index, header) = if single {
        let in_range = a.b.ult(lid, total_v);
        let id = a.b.push_if(in_range);
        (lid, Err(id))
    } else {
        let stride = a.imm(32, wg_size as u64);
        let pre = a.b.current_block();
        let l = a.b.push_loop();
        let i = a.b.phi(Type::U32, &[(pre, lid)]);
        let done = a.b.uge(i, total_v);
        let id = a.b.push_if(done);
        a.b.jump(ir::Jump::Break);
        a.b.pop_if(id);
        (Src::new(i), Ok((l, pre, i, stride)))
    };
    // Column, line and plane of the unit.
    let n = Num::V(index);
    let col = a.umod(n, width);
    let t = a.udiv(n, width);
    let (line, plane) = if c.planes == Num::K(1) {
        (t, Num::K(0))
    } else {
        (a.umod(t, c.lines), a.udiv(t, c.lines))
    };
    let col_bytes = a.mul(col, Num::K(u), 32);
    let from = region_address(&mut a, &c.src, c.elem_bytes, plane, line, col_bytes);
    let to = region_address(&mut a, &c.dst, c.elem_bytes, plane, line, col_bytes);
    let reg = Type::new(shape.size.reg_bits(), shape.components()).expect("unit shapes fit");
    let data =
        a.b.intrinsic(
            IntrinsicOp::LscLoad,
            None,
            &[from],
            &lsc_indices(c.src.side, shape),
            Some(reg),
        )
        .expect("lsc_load defines a value");
    a.b.intrinsic(
        IntrinsicOp::LscStore,
        None,
        &[to, Src::new(data)],
        &lsc_indices(c.dst.side, shape),
        None,
    );
    match header {
        Err(if_id) => a.b.pop_if(if_id),
        Ok((l, pre, i, stride)) => {
            let next = a.b.iadd(index, stride);
            let latch = a.b.current_block();
            a.b.pop_loop(l);
            let phi = a.b.func.value_def(i).expect("the phi was just emitted");
            a.b.func.inst_mut(phi).kind = InstKind::Phi(Phi {
                srcs: smallvec![(pre, Src::new(lid.value)), (latch, Src::new(next))],
            });
        }
    }
}

// ----- 2D block messages -----------------------------------------------------------------

/// Copies that take more block messages than this use the loop under
/// [`Block2dPolicy::Auto`] (each message comes with up to 16 shared-memory messages).
pub const MAX_AUTO_BLOCKS: usize = 64;

/// The direction of a copy.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Direction {
    /// Global to shared: block loads, then shared-memory stores.
    ToShared,
    /// Shared to global: shared-memory loads, then block stores.
    ToGlobal,
}

/// One block message of a copy and how its register image spreads over the lanes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct PlannedBlock {
    plane: u32,
    /// First element (of the message's element size) and row in the plane.
    x: u32,
    y: u32,
    w: u32,
    h: u32,
    shape: BlockShape,
    /// Bytes per register-image chunk (one component of one lane): 1, 2, 4 or 8.
    chunk: u32,
    /// Components per lane.
    comps: u32,
}

/// A copy as 2D block messages.
#[derive(Clone, Debug)]
struct BlockPlan {
    dir: Direction,
    /// Bytes of the message's elements (1, 2, 4 or 8).
    e: u32,
    /// The copy's constant element size.
    elem_bytes: u32,
    /// Bytes per line, lines per plane, constant line lengths and plane areas (bytes).
    line_bytes: u32,
    lines: u32,
    src_pitch: u64,
    dst_pitch: u64,
    src_plane: u64,
    dst_plane: u64,
    subgroup_size: u32,
    subgroups: u32,
    blocks: Vec<PlannedBlock>,
}

impl BlockPlan {
    /// Whether [`Block2dPolicy::Auto`] takes it.
    fn auto_ok(&self) -> bool {
        self.blocks.len() <= MAX_AUTO_BLOCKS
    }

    /// Register-image row pitch of a block, in bytes.
    fn row_pitch(&self, b: &PlannedBlock) -> u32 {
        b.w.next_power_of_two() * self.e
    }

    /// Whether chunk `k` of lane `lane` of block `b` holds an element byte (not padding).
    fn chunk_valid(&self, b: &PlannedBlock, k: u32, lane: u32) -> bool {
        let off = (k * self.subgroup_size + lane) * b.chunk;
        let rp = self.row_pitch(b);
        off / rp < b.h && off % rp < b.w * self.e
    }
}

/// The component counts a block's value may have: those of an IR vector (a load
/// defines one; a store assembles its data with `vec2` .. `vec16`).
fn comps_ok(n: u32) -> bool {
    u8::try_from(n).is_ok_and(Type::is_valid_num_components)
}

/// How a register image of `bytes` bytes spreads over `sg` lanes: the largest chunk (1,
/// 2, 4 or 8 bytes) that divides the row bytes `row` (so no chunk straddles an element
/// row and its padding) and gives an IR vector's component count.
fn lane_layout(bytes: u32, sg: u32, row: u32) -> Option<(u32, u32)> {
    [8u32, 4, 2, 1].into_iter().find_map(|chunk| {
        let per = sg * chunk;
        (row.is_multiple_of(chunk) && bytes.is_multiple_of(per) && comps_ok(bytes / per))
            .then_some((chunk, bytes / per))
    })
}

/// Plans a copy as 2D block messages, or says why it cannot be one.
fn plan_block2d(
    c: &Copy,
    device: &Device,
    subgroup_size: Option<u32>,
    wg_size: u32,
) -> Result<BlockPlan, String> {
    let table = Block2dTable::for_device(device);
    table
        .check_available(Block2dForm::Untyped)
        .map_err(|r| r.to_string())?;
    let sg = subgroup_size.ok_or(
        "the shader fixes no subgroup_size, and a block message's data is spread over the lanes of a subgroup",
    )?;
    if !wg_size.is_multiple_of(sg) {
        return Err(format!(
            "the workgroup's {wg_size} invocations are not whole subgroups of {sg}, and a block message needs every lane of its subgroup"
        ));
    }
    let konst = |n: Num, what: &str| match n {
        Num::K(k) => Ok(k),
        Num::V(_) => Err(format!(
            "a block message's shape is a constant, but `{what}` is not"
        )),
    };
    let eb = konst(c.elem_bytes, "elem_bytes")?;
    let epl = konst(c.elems_per_line, "elems_per_line")?;
    let lines = konst(c.lines, "lines")?;
    let planes = konst(c.planes, "planes")?;
    let src_ll = konst(c.src.line_length, "src_line_length")?;
    let dst_ll = konst(c.dst.line_length, "dst_line_length")?;
    let src_pa = konst(c.src.plane_area, "src_plane_area")?;
    let dst_pa = konst(c.dst.plane_area, "dst_plane_area")?;
    let line_bytes = epl * eb;
    let fits = |v: u64| (1..=1u64 << 32).contains(&v);
    if !fits(line_bytes) || !fits(lines) || !fits(src_ll * eb) || !fits(dst_ll * eb) {
        return Err(format!(
            "the payload's width ({line_bytes} bytes), height ({lines} rows) and pitches ({} and {} bytes) must be 1 to 2^32",
            src_ll * eb,
            dst_ll * eb
        ));
    }
    // The message's element: the largest of 8, 4, 2, 1 bytes dividing a line.
    let e = [8u64, 4, 2, 1]
        .into_iter()
        .find(|e| line_bytes % e == 0)
        .unwrap_or(1) as u32;
    let dir = if c.dst.side == Side::Shared {
        Direction::ToShared
    } else {
        Direction::ToGlobal
    };
    let access = match dir {
        Direction::ToShared => BlockAccess::Load,
        Direction::ToGlobal => BlockAccess::Store,
    };
    let rect = BlockRect {
        width: (line_bytes / e as u64) as u32,
        height: lines as u32,
        elem_bytes: e,
    };
    let pieces = split_rect(&table, Block2dForm::Untyped, access, rect, Packing::Any)
        .map_err(|err| err.to_string())?;
    let size = data_size_of(e).expect("e is 1, 2, 4 or 8");
    let mut blocks = Vec::new();
    for plane in 0..planes as u32 {
        for p in &pieces {
            // Cut the piece into heights whose register image spreads over the lanes.
            let mut y = 0;
            while y < p.height {
                let mut h = p.height - y;
                let layout = loop {
                    let shape = BlockShape::untyped(1, p.width as u16, h as u16, false, false);
                    let bytes = register_bytes(Block2dForm::Untyped, size, shape);
                    if let Some((chunk, comps)) = lane_layout(bytes, sg, p.width * e) {
                        break Some((shape, chunk, comps));
                    }
                    if h == 1 {
                        break None;
                    }
                    h = h.div_ceil(2);
                };
                let Some((shape, chunk, comps)) = layout else {
                    return Err(format!(
                        "a {}-byte block row's register image does not spread over a subgroup of {sg} as an IR vector (1, 2, 3, 4, 8 or 16 components per lane)",
                        p.width * e,
                    ));
                };
                let access_op = match dir {
                    Direction::ToShared => Block2dOp::Load,
                    Direction::ToGlobal => Block2dOp::Store,
                };
                table
                    .check_shape(Block2dForm::Untyped, access_op, size, shape)
                    .map_err(|r| r.to_string())?;
                blocks.push(PlannedBlock {
                    plane,
                    x: p.x,
                    y: p.y + y,
                    w: p.width,
                    h,
                    shape,
                    chunk,
                    comps,
                });
                y += h;
            }
        }
    }
    Ok(BlockPlan {
        dir,
        e,
        elem_bytes: eb as u32,
        line_bytes: line_bytes as u32,
        lines: lines as u32,
        src_pitch: src_ll * eb,
        dst_pitch: dst_ll * eb,
        src_plane: src_pa * eb,
        dst_plane: dst_pa * eb,
        subgroup_size: sg,
        subgroups: wg_size / sg,
        blocks,
    })
}

/// The data shape of a shared-memory access of `chunk` bytes.
fn chunk_shape(chunk: u32) -> DataShape {
    match chunk {
        1 => DataShape::vector(DataSize::D8U32, 1, false),
        2 => DataShape::vector(DataSize::D16U32, 1, false),
        4 => DataShape::vector(DataSize::D32, 1, false),
        _ => DataShape::vector(DataSize::D64, 1, false),
    }
}

/// Emits a copy as 2D block messages in front of it: block `j` is executed by subgroup
/// `j mod subgroups`, each subgroup's blocks under one `if` on the subgroup id (uniform
/// in the subgroup, so every lane runs the messages).
fn emit_block2d(func: &mut Function, c: &Copy, p: &BlockPlan) {
    let mut b = builder(func, c);
    let intr32 = |b: &mut Builder<'_>, op: IntrinsicOp| {
        b.intrinsic(op, None, &[], &[], Some(Type::U32))
            .map(Src::new)
            .expect("a system value")
    };
    let lane = intr32(&mut b, IntrinsicOp::LoadSubgroupInvocation);
    let sgid = (p.subgroups > 1).then(|| intr32(&mut b, IntrinsicOp::LoadSubgroupId));
    let (global, shared) = match p.dir {
        Direction::ToShared => (&c.src, &c.dst),
        Direction::ToGlobal => (&c.dst, &c.src),
    };
    let (g_pitch, s_pitch, g_plane, s_plane) = match p.dir {
        Direction::ToShared => (p.src_pitch, p.dst_pitch, p.src_plane, p.dst_plane),
        Direction::ToGlobal => (p.dst_pitch, p.src_pitch, p.dst_plane, p.src_plane),
    };
    let eb = Num::K(p.elem_bytes as u64);
    // The first byte of each side: ptr + offset * elem_bytes (global offsets in 64 bits).
    let (g_base, s_base, payload) = {
        let mut a = Arith::new(&mut b);
        let off = a.u2u64(global.offset);
        let bytes = a.mul(off, eb, 64);
        let g_base = a.add(Num::V(global.ptr), bytes, 64);
        let bytes = a.mul(shared.offset, eb, 32);
        let s_base = a.add(Num::V(shared.ptr), bytes, 32);
        let payload = [
            a.src(Num::K(p.line_bytes as u64 - 1), 32),
            a.src(Num::K(p.lines as u64 - 1), 32),
            a.src(Num::K(g_pitch - 1), 32),
        ];
        (g_base, s_base, payload)
    };
    let groups = p.subgroups.min(p.blocks.len() as u32).max(1);
    for s in 0..groups {
        let if_id = sgid.map(|id| {
            let k = b.imm_u32(s);
            let mine = b.ieq(id, k);
            b.push_if(mine)
        });
        let mut a = Arith::new(&mut b);
        for (j, blk) in p.blocks.iter().enumerate() {
            if j as u32 % groups != s {
                continue;
            }
            emit_block(
                &mut a, p, blk, lane, g_base, s_base, payload, g_plane, s_plane, s_pitch,
            );
        }
        if let Some(id) = if_id {
            b.pop_if(id);
        }
    }
}

/// Emits one block message and the shared-memory messages of its register image.
#[allow(clippy::too_many_arguments)]
fn emit_block(
    a: &mut Arith<'_, '_>,
    p: &BlockPlan,
    blk: &PlannedBlock,
    lane: Src,
    g_base: Num,
    s_base: Num,
    payload: [Src; 3],
    g_plane: u64,
    s_plane: u64,
    s_pitch: u64,
) {
    let sg = p.subgroup_size;
    let size = data_size_of(p.e).expect("e is 1, 2, 4 or 8");
    let plane = blk.plane as u64;
    let g_plane_base = a.add(g_base, Num::K(plane * g_plane), 64);
    let base = a.src(g_plane_base, 64);
    let x = a.src(Num::K(blk.x as u64), 32);
    let y = a.src(Num::K(blk.y as u64), 32);
    let block_srcs = [base, payload[0], payload[1], payload[2], x, y];
    let block_indices = [
        position(&Sfid::ALL, Sfid::Ugm),
        DataShape::vector(size, 1, false).to_index(),
        blk.shape.to_index().expect("planned shapes encode"),
        CacheControl::DEFAULT.to_index(),
    ];
    let rp = p.row_pitch(blk);
    let chunk = blk.chunk;
    let chunk_ty = Type::new((chunk * 8) as u8, 1).expect("chunks are 8 to 64 bits");
    let value_ty = Type::new((chunk * 8) as u8, blk.comps as u8).expect("planned counts");
    let shape = chunk_shape(chunk);
    // The shared-memory address of chunk `k` of this lane (row r, byte c of the
    // register image) and whether it is an element byte.
    let lane_bytes = a.mul(Num::V(lane), Num::K(chunk as u64), 32);
    let s_block = a.add(
        s_base,
        Num::K(plane * s_plane + blk.y as u64 * s_pitch + (blk.x * p.e) as u64),
        32,
    );
    let chunk_addr = |a: &mut Arith<'_, '_>, k: u32| -> (Src, Option<Src>) {
        let all = (0..sg).all(|l| p.chunk_valid(blk, k, l));
        let first = k * sg * chunk;
        let (r_lo, r_hi) = (first / rp, (first + sg * chunk - 1) / rp);
        // When the component's chunks lie in one register row (the usual case), the
        // row is a constant and only the column depends on the lane.
        let (r, col) = if r_lo == r_hi {
            let col = a.add(Num::K((first - r_lo * rp) as u64), lane_bytes, 32);
            (Num::K(r_lo as u64), col)
        } else {
            let off = a.add(Num::K(first as u64), lane_bytes, 32);
            (
                a.udiv(off, Num::K(rp as u64)),
                a.umod(off, Num::K(rp as u64)),
            )
        };
        let row_off = a.mul(r, Num::K(s_pitch), 32);
        let at = a.add(s_block, row_off, 32);
        let at = a.add(at, col, 32);
        let addr = a.src(at, 32);
        let pred = (!all).then(|| {
            let w = Num::K((blk.w * p.e) as u64);
            let in_row = {
                let (col, w) = (a.src(col, 32), a.src(w, 32));
                a.b.ult(col, w)
            };
            match r {
                // Rows below the block's height hold elements; only columns can be
                // padding.
                Num::K(r) if r < blk.h as u64 => Src::new(in_row),
                _ => {
                    let (r, h) = (a.src(r, 32), a.src(Num::K(blk.h as u64), 32));
                    let in_block = a.b.ult(r, h);
                    Src::new(a.b.iand(in_row, in_block))
                }
            }
        });
        (addr, pred)
    };
    match p.dir {
        Direction::ToShared => {
            let data =
                a.b.intrinsic(
                    IntrinsicOp::LscLoadBlock2d,
                    None,
                    &block_srcs,
                    &block_indices,
                    Some(value_ty),
                )
                .expect("a block load defines a value");
            for k in 0..blk.comps {
                if !(0..sg).any(|l| p.chunk_valid(blk, k, l)) {
                    continue;
                }
                let (addr, pred) = chunk_addr(a, k);
                let comp = Src::new(data).component(k as u8);
                let value = if chunk < 4 {
                    Src::new(a.b.u2u32(comp))
                } else if blk.comps == 1 {
                    Src::new(data)
                } else {
                    comp
                };
                let mut srcs = vec![addr, value];
                srcs.extend(pred);
                a.b.intrinsic(
                    IntrinsicOp::LscStore,
                    None,
                    &srcs,
                    &lsc_indices(Side::Shared, shape),
                    None,
                );
            }
        }
        Direction::ToGlobal => {
            let reg = Type::new(shape.size.reg_bits(), 1).expect("scalar");
            let mut comps = Vec::with_capacity(blk.comps as usize);
            for k in 0..blk.comps {
                if !(0..sg).any(|l| p.chunk_valid(blk, k, l)) {
                    comps.push(Src::new(a.b.zero(chunk_ty)));
                    continue;
                }
                let (addr, pred) = chunk_addr(a, k);
                let mut srcs = vec![addr];
                srcs.extend(pred);
                let v =
                    a.b.intrinsic(
                        IntrinsicOp::LscLoad,
                        None,
                        &srcs,
                        &lsc_indices(Side::Shared, shape),
                        Some(reg),
                    )
                    .expect("lsc_load defines a value");
                let v = match chunk {
                    1 => a.b.u2u8(v),
                    2 => a.b.u2u16(v),
                    _ => v,
                };
                comps.push(Src::new(v));
            }
            let data = if comps.len() == 1 {
                comps[0]
            } else {
                Src::new(a.b.vec(&comps))
            };
            let mut srcs = block_srcs.to_vec();
            srcs.push(data);
            a.b.intrinsic(
                IntrinsicOp::LscStoreBlock2d,
                None,
                &srcs,
                &block_indices,
                None,
            );
        }
    }
}

// ----- the pass --------------------------------------------------------------------------

/// The `lower-async-copies` pass for a pass pipeline.
#[derive(Clone, Debug)]
pub struct LowerAsyncCopies {
    /// The target.
    pub device: Device,
    /// The options.
    pub options: AsyncCopyOptions,
    /// What the last run did.
    pub report: Option<AsyncCopyReport>,
}

impl LowerAsyncCopies {
    /// The pass for `device` with `options`.
    pub fn new(device: Device, options: AsyncCopyOptions) -> LowerAsyncCopies {
        LowerAsyncCopies {
            device,
            options,
            report: None,
        }
    }
}

impl Pass for LowerAsyncCopies {
    fn name(&self) -> &'static str {
        "lower-async-copies"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let lowered = lower_async_copies_all(shader, &self.device, &self.options).map(|report| {
            let n = report.lowered();
            self.report = Some(report);
            n
        });
        crate::error::pass_outcome(self.name(), shader, lowered)
    }
}

/// Registers `lower-async-copies` in a pass registry: for `device`, with `defaults` as
/// the options a pipeline item does not override (`lower-async-copies(block2d=never)`,
/// `block2d=always`).
/// Without a device the pass exists but reports that it needs a platform.
pub fn register_lower_async_copies(
    registry: &mut ir::passes::PassRegistry,
    device: Option<Device>,
    defaults: AsyncCopyOptions,
) {
    registry.register(
        "lower-async-copies",
        "lower group async copies to LSC messages (block2d=auto|never|always)",
        move |o: &ir::passes::PassOptions| {
            let Some(device) = &device else {
                return Err("lower-async-copies needs a platform: pass --target".to_string());
            };
            o.expect_only(&["block2d"])?;
            let block2d = match o.string("block2d")? {
                None => defaults.block2d,
                Some("auto") => Block2dPolicy::Auto,
                Some("never") => Block2dPolicy::Never,
                Some("always") => Block2dPolicy::Always,
                Some(other) => {
                    return Err(format!(
                        "block2d must be `auto`, `never` or `always`, not `{other}`"
                    ))
                }
            };
            let options = AsyncCopyOptions { block2d };
            Ok(Box::new(LowerAsyncCopies::new(device.clone(), options)) as Box<dyn Pass>)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::passes::PassRegistry;

    fn parse(text: &str) -> Shader {
        ir::parse_shader(text).unwrap_or_else(|d| panic!("{d:?}"))
    }

    const COPY: &str = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = load_const (0x0000000100000000)
    32   %2 = load_const (0x00000004)
    32   %3 = @group_async_copy_2d2d (%0, %0, %1, %0, %2, %2, %2, %2, %2, %0)
    @group_wait_events (%3)
}";

    #[test]
    fn reports_and_pass_registration() {
        let dg2 = Device::preset("dg2").unwrap();
        let mut s = parse(COPY);
        let r = lower_async_copies(&mut s, &dg2, &AsyncCopyOptions::default()).unwrap();
        assert_eq!(
            r,
            AsyncCopyReport {
                loop_copies: 1,
                block2d_copies: 0,
                block2d_messages: 0,
                waits: 1
            }
        );
        assert_eq!(r.lowered(), 2);
        ir::validate(&s).unwrap();
        // Nothing left to lower: the pass reports no change.
        let mut pass = LowerAsyncCopies::new(dg2.clone(), AsyncCopyOptions::default());
        assert!(!pass.run(&mut s).unwrap());

        let mut reg = PassRegistry::new();
        register_lower_async_copies(&mut reg, Some(dg2), AsyncCopyOptions::default());
        let opts = |t: &str| ir::passes::manager::PassOptions::parse("lower-async-copies", t);
        assert!(reg
            .create("lower-async-copies", &opts("block2d=never").unwrap())
            .is_ok());
        let e = reg
            .create("lower-async-copies", &opts("block2d=sometimes").unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("block2d must be `auto`, `never` or `always`, not `sometimes`"),
            "{e}"
        );
        let mut none = PassRegistry::new();
        register_lower_async_copies(&mut none, None, AsyncCopyOptions::default());
        let e = none
            .create("lower-async-copies", &opts("").unwrap())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("needs a platform: pass --target"), "{e}");
    }

    #[test]
    fn malformed_copies_are_errors_and_leave_the_shader_alone() {
        // Both pointers 64-bit (the validator's error too): not lowered.
        let text = COPY.replace("(%0, %0, %1, %0, %2", "(%1, %0, %1, %0, %2");
        let mut s = parse(&text);
        let before = s.clone();
        let e = lower_async_copies(&mut s, &Device::preset("pvc").unwrap(), &Default::default())
            .unwrap_err();
        assert_eq!(e.kind, LowerErrorKind::Malformed);
        assert_eq!(
            e.to_string(),
            "7:5: cannot lower @group_async_copy_2d2d on pvc: one of `dst` and `src` must be shared (32-bit) and the other global (64-bit)"
        );
        assert_eq!(s, before);
    }

    #[test]
    fn units_are_the_largest_power_of_two_dividing_the_element() {
        let cases = [
            (1, 1),
            (2, 2),
            (4, 4),
            (8, 8),
            (16, 16),
            (32, 16),
            (128, 16),
            (12, 4),
            (24, 8),
            (3, 1),
        ];
        for (eb, u) in cases {
            assert_eq!(unit_bytes(Num::K(eb)), u, "{eb}");
        }
        let v = Num::V(Src::new(Value::from_u32(0)));
        assert_eq!(unit_bytes(v), 1);
        assert_eq!(unit_shape(16).to_string(), "d32x4");
        assert_eq!(unit_shape(1).to_string(), "d8u32");
    }

    #[test]
    fn register_images_spread_over_lanes() {
        // (image bytes, subgroup, row bytes) -> (chunk, components).
        assert_eq!(lane_layout(64, 16, 8), Some((4, 1)));
        assert_eq!(lane_layout(2048, 16, 64), Some((8, 16)));
        assert_eq!(lane_layout(192, 16, 64), Some((4, 3)));
        // A 12-byte row cannot take 8-byte chunks.
        assert_eq!(lane_layout(128, 8, 12), Some((4, 4)));
        assert_eq!(lane_layout(64, 32, 4), Some((2, 1)));
        assert_eq!(lane_layout(64, 1, 8), Some((8, 8)));
        // 5 components is no IR vector, nor 10, 20, 40.
        assert_eq!(lane_layout(320, 16, 64), None);
        // Odd rows move bytes: 64 of them in one lane is too many.
        assert_eq!(lane_layout(64, 1, 5), None);
        assert_eq!(lane_layout(64, 4, 5), Some((1, 16)));
    }

    /// A global -> shared copy of `lines` lines of `epl` 8-byte elements on `target`.
    fn wide(epl: u32, lines: u32) -> Shader {
        parse(&format!(
            "shader compute (local_size=32,1,1, subgroup_size=16)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    64   %1 = load_const (0x0000000100000000)
    32   %2 = load_const (0x00000008)
    32   %3 = load_const (0x{epl:08x})
    32   %4 = load_const (0x{lines:08x})
    32   %5 = @group_async_copy_2d2d (%0, %0, %1, %0, %2, %3, %4, %3, %3, %0)
}}"
        ))
    }

    #[test]
    fn auto_takes_block2d_up_to_a_message_budget() {
        let pvc = Device::preset("pvc").unwrap();
        let run = |s: &mut Shader, policy| {
            lower_async_copies(s, &pvc, &AsyncCopyOptions { block2d: policy }).unwrap()
        };
        // 64-byte lines (8 x d64), 32 rows: one 8x32nn block.
        let mut s = wide(8, 32);
        let r = run(&mut s, Block2dPolicy::Auto);
        assert_eq!((r.block2d_copies, r.block2d_messages), (1, 1));
        // 65 strips of 64 bytes: over the budget, the loop under auto.
        let mut s = wide(8 * 65, 1);
        let r = run(&mut s, Block2dPolicy::Auto);
        assert_eq!((r.block2d_copies, r.loop_copies), (0, 1));
        let mut s = wide(8 * 65, 1);
        let r = run(&mut s, Block2dPolicy::Always);
        assert_eq!((r.block2d_copies, r.block2d_messages), (1, 65));
        let mut s = wide(8, 32);
        let r = run(&mut s, Block2dPolicy::Never);
        assert_eq!((r.block2d_copies, r.loop_copies), (0, 1));
        for f in &s.functions {
            crate::message::check_function(&pvc, &s.images, f).unwrap();
        }
    }
}
