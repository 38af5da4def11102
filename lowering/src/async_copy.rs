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
//! - **2D block messages**: not yet.
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

use crate::device::Device;
use crate::error::{LowerError, LowerErrorKind};
use ir::diag::Diagnostic;
use ir::function::InstKind;
use ir::lsc::{AddrSize, AddrType, CacheControl, DataShape, DataSize, Sfid};
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
    let _ = options.block2d;
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
                    match Copy::decode(func, inst, device) {
                        Ok(c) => fplans.push(Plan::Loop(Box::new(c))),
                        Err(e) => errors.push(e),
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
                Plan::Wait(inst) => {
                    func.inst_mut(inst).kind = InstKind::Intrinsic(IntrinsicInst {
                        op: IntrinsicOp::Barrier,
                        image: None,
                        srcs: smallvec![],
                        indices: smallvec![],
                    });
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
        match lower_async_copies_all(shader, &self.device, &self.options) {
            Ok(report) => {
                let changed = report.lowered() > 0;
                self.report = Some(report);
                #[cfg(debug_assertions)]
                if changed {
                    if let Err(diagnostics) = ir::validate(shader) {
                        return Err(PassError {
                            pass: self.name().to_string(),
                            diagnostics,
                        });
                    }
                }
                Ok(changed)
            }
            Err(errors) => Err(PassError {
                pass: self.name().to_string(),
                diagnostics: errors
                    .iter()
                    .map(|e| Diagnostic::error(e.span, e.describe()))
                    .collect(),
            }),
        }
    }
}

/// Registers `lower-async-copies` in a pass registry: for `device`, with `defaults` as
/// the options a pipeline item does not override (`lower-async-copies(block2d=never)`).
/// Without a device the pass exists but reports that it needs a platform.
pub fn register_lower_async_copies(
    registry: &mut ir::passes::PassRegistry,
    device: Option<Device>,
    defaults: AsyncCopyOptions,
) {
    registry.register(
        "lower-async-copies",
        "lower group async copies to LSC messages (block2d=auto|never)",
        move |o: &ir::passes::PassOptions| {
            let Some(device) = &device else {
                return Err("lower-async-copies needs a platform: pass --target".to_string());
            };
            o.expect_only(&["block2d"])?;
            let block2d = match o.string("block2d")? {
                None => defaults.block2d,
                Some("auto") => Block2dPolicy::Auto,
                Some("never") => Block2dPolicy::Never,
                Some(other) => {
                    return Err(format!("block2d must be `auto` or `never`, not `{other}`"))
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
            e.contains("block2d must be `auto` or `never`, not `sometimes`"),
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
}
