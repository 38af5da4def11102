//! A group async copy decoded into its regions ([`Copy`]), and the instruction it
//! becomes once lowered.

use crate::device::Device;
use crate::error::{A64Use, LowerError, LowerErrorKind, Malformation};
use ir::function::InstKind;
use ir::{AluInst, Builder, Cursor, Function, Inst, IntrinsicOp, Span, Src, Type};
use smallvec::smallvec;

/// A 32-bit or 64-bit number in the emitted code: a constant (folded while emitting) or
/// a value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Num {
    K(u64),
    V(Src),
}

/// Which memory a copy operand points into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Side {
    /// Global memory: a 64-bit address, `.ugm` flat a64.
    Global,
    /// Shared local memory: a 32-bit byte offset, `.slm` flat a32.
    Shared,
}

/// One side of a copy: where it points and how its elements are laid out.
#[derive(Copy, Clone, Debug)]
pub(super) struct Region {
    pub(super) side: Side,
    pub(super) ptr: Src,
    pub(super) offset: Num,
    pub(super) line_length: Num,
    /// Plane area (2D copies: unused, the plane is always 0).
    pub(super) plane_area: Num,
}

/// A decoded group async copy.
#[derive(Clone, Debug)]
pub(super) struct Copy {
    pub(super) inst: Inst,
    pub(super) span: Span,
    pub(super) dst: Region,
    pub(super) src: Region,
    pub(super) elem_bytes: Num,
    pub(super) elems_per_line: Num,
    pub(super) lines: Num,
    pub(super) planes: Num,
    pub(super) event: Num,
}

impl Copy {
    /// Decodes a copy instruction; errors are [`LowerErrorKind::Malformed`] (shapes the
    /// validator rejects).
    pub(super) fn decode(func: &Function, inst: Inst, device: &Device) -> Result<Copy, LowerError> {
        let data = func.inst(inst);
        let intr = data.as_intrinsic().expect("caller checked");
        let span = func.inst_span(inst);
        let err = |m: Malformation| copy_error(func, inst, device, LowerErrorKind::Malformed(m));
        let specs = intr.op.info().srcs;
        if intr.srcs.len() != specs.len() {
            return Err(err(Malformation::SourceCount {
                required: specs.len(),
                optional: 0,
                found: intr.srcs.len(),
            }));
        }
        if data.dest.map(|d| func.value_type(d)) != Some(Type::U32) {
            return Err(err(Malformation::CopyEvent));
        }
        for (s, spec) in intr.srcs.iter().zip(specs) {
            let t = func.src_type(*s);
            let bits_ok = if spec.bit_size == 0 {
                matches!(t.bit_size(), 32 | 64)
            } else {
                t.bit_size() == spec.bit_size
            };
            if t.num_components() != 1 || !bits_ok {
                return Err(err(Malformation::CopyOperand {
                    operand: spec.name,
                    found: t,
                }));
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
            return Err(err(Malformation::CopySides));
        }
        if !device.has_a64 {
            // The global side is a 64-bit pointer; Gfx7 messages cannot address it.
            return Err(copy_error(
                func,
                inst,
                device,
                LowerErrorKind::A64Unsupported(A64Use::GroupCopy),
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
pub(super) fn const_scalar(func: &Function, src: Src) -> Option<u64> {
    let def = func.value_def(src.value)?;
    let vals = func.inst(def).as_const()?;
    vals.get(src.swizzle.component(0) as usize).copied()
}

pub(super) fn copy_error(
    func: &Function,
    inst: Inst,
    device: &Device,
    kind: LowerErrorKind,
) -> LowerError {
    LowerError::new(kind, &device.name).at(
        &func.name,
        func.inst(inst).as_intrinsic().map(|i| i.op.name()),
        func.inst_span(inst),
    )
}

/// Makes the copy instruction define its event: the event operand when it is not zero,
/// else 1.
pub(super) fn finish_copy(func: &mut Function, c: &Copy) {
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
                exact: false,
            })
        }
    };
    func.inst_mut(c.inst).kind = kind;
}

/// A builder in front of the copy, giving new instructions its span.
pub(super) fn builder<'f>(func: &'f mut Function, c: &Copy) -> Builder<'f> {
    let mut b = Builder::new(func, Cursor::Before(c.inst));
    b.span = c.span;
    b
}
