//! Float image atomics the platform lacks, as compare-and-swap loops.
//!
//! Typed float `fadd` exists from Xe2 only, and the legacy data port's typed atomics
//! have no float operation at all (see [`Device`]'s float-atomic fields). A shader that
//! declares `AtomicFloat32AddEXT` or `AtomicFloat32MinMaxEXT` still gets its atomics:
//! each one the device does not offer becomes the loop every compiler writes for a
//! missing read-modify-write, on the integer compare-and-swap that every typed atomic
//! surface takes (R32_FLOAT included: BSpec 1706):
//!
//! ```text
//! 32 %first = @image_load (@img, %coord)         (the guess: any value is correct)
//! loop {
//!   block:
//!     32 %cur = phi %first, %seen
//!     32 %new = exact fadd %cur, %data           (fmin, fmax: the op itself)
//!     32 %seen = @image_atomic_swap (@img, %coord, %cur, %new) cmpxchg
//!     1  %done = ieq %seen, %cur
//!   if %done { break }
//! }
//! 32 %old = mov %cur                             (the atomic's value, its id kept)
//! ```
//!
//! A lane leaves once its texel still held the value its new value was computed from;
//! the lanes another lane's store overtook go round with what they saw. The exchange
//! compares bits, so a NaN or a signed zero in the texel cannot keep a lane looping.
//! The ALU op is `exact`: the atomic's result is the op's own (`-0.0 + 0.0` is `+0.0`).
//! `fcmpxchg` (without LSC) compares as floats (`-0 == +0`, a NaN equals nothing) and
//! writes back the value it found where the texel differs from the comparand:
//! `%new = bcsel (feq %cur, %compare), %data, %cur`. Its read is then an exchange too,
//! so every lane's operation takes effect at its successful exchange, in lane order
//! among the lanes of one message, as a native atomic message's lanes do; leaving on the
//! first guess alone would let a lane report a texel another lane had already replaced.
//!
//! Only 32-bit texels are taken (R32_FLOAT, and a format-less image, which a float
//! atomic binds as R32_FLOAT): an R16_FLOAT texel's load converts it to 32 bits, so
//! its value is not the bits the exchange compares. Those, and the operations the device
//! has, are left to the planner. The rewrite runs before planning, so the loop's load
//! and exchange are planned (and bound) as any other access.

use crate::device::Device;
use ir::{AluInst, AluOp, AluType, AtomicOp, BaseType, Builder, Cursor, Format, Function};
use ir::{IndexKind, Inst, InstKind, IntrinsicOp, Jump, Shader, Src, Type};

/// Whether `device` lacks the float image atomic `op`, which this rewrite then emulates.
fn emulated(op: AtomicOp, device: &Device) -> bool {
    match op {
        AtomicOp::Fadd => !device.image_float_atomic_add,
        AtomicOp::Fmin | AtomicOp::Fmax => !device.image_float_atomic_min_max,
        AtomicOp::Fcmpxchg => !device.image_float_atomic_cmpxchg,
        _ => false,
    }
}

/// The atomics of `func` the rewrite takes: each with its op.
fn targets(func: &Function, device: &Device) -> Vec<(Inst, AtomicOp)> {
    func.insts_in_order()
        .into_iter()
        .filter_map(|i| {
            let x = func.inst(i).as_intrinsic()?;
            if !matches!(
                x.op,
                IntrinsicOp::ImageAtomic | IntrinsicOp::ImageAtomicSwap
            ) {
                return None;
            }
            let op = x
                .index(IndexKind::AtomicOp)
                .and_then(AtomicOp::from_index)?;
            let format = x.index(IndexKind::Format).and_then(Format::from_index)?;
            let data = *x.srcs.last()?;
            let bits32 = func.src_type(data) == Type::scalar(32)?;
            (emulated(op, device)
                && op.is_swap() == (x.op == IntrinsicOp::ImageAtomicSwap)
                && matches!(format, Format::R32Float | Format::None)
                && bits32
                && func.inst(i).dest.is_some())
            .then_some((i, op))
        })
        .collect()
}

/// Whether `shader` holds a float image atomic `device` lacks on a 32-bit texel.
pub(crate) fn needed(shader: &Shader, device: &Device) -> bool {
    shader
        .functions
        .iter()
        .any(|f| !targets(f, device).is_empty())
}

/// Rewrites every float image atomic `device` lacks on a 32-bit texel as a
/// compare-and-swap loop; returns whether anything changed.
pub(crate) fn emulate(shader: &mut Shader, device: &Device) -> bool {
    let mut changed = false;
    for func in &mut shader.functions {
        for (inst, op) in targets(func, device) {
            emulate_one(func, inst, op);
            changed = true;
        }
    }
    changed
}

/// The loop for the atomic `inst` (op `op`), which becomes the `mov` of its result.
fn emulate_one(func: &mut Function, inst: Inst, op: AtomicOp) {
    let Some(x) = func.inst(inst).as_intrinsic().cloned() else {
        return;
    };
    let Some(old) = func.inst(inst).dest else {
        return;
    };
    let ty = func.value_type(old);
    let (coord, data) = (x.srcs[0], x.srcs[x.srcs.len() - 1]);
    // The image indices are the atomic's; the last is the load's type or the swap's op.
    let with_last = |last: u32| {
        let mut indices = x.indices.clone();
        if let Some(l) = indices.last_mut() {
            *l = last;
        }
        indices
    };
    let load_indices = with_last(AluType::new(BaseType::Float, 32).to_index());
    let swap_indices = with_last(AtomicOp::Cmpxchg.to_index());

    let span = func.inst_span(inst);
    let mut b = Builder::new(func, Cursor::Before(inst));
    b.span = span;
    let first = b
        .intrinsic(
            IntrinsicOp::ImageLoad,
            x.image,
            &[coord],
            &load_indices,
            Some(ty),
        )
        .expect("image_load has a destination");
    let entry = b.current_block();
    let lp = b.push_loop();
    let cur = b.phi(ty, &[(entry, first.into())]);
    b.exact = true;
    let new: Src = match op {
        AtomicOp::Fadd => b.alu(AluOp::Fadd, &[cur.into(), data]).into(),
        AtomicOp::Fmin => b.alu(AluOp::Fmin, &[cur.into(), data]).into(),
        AtomicOp::Fmax => b.alu(AluOp::Fmax, &[cur.into(), data]).into(),
        _ => {
            let compare = x.srcs[1];
            let equal = b.alu(AluOp::Feq, &[cur.into(), compare]);
            b.bcsel(equal, data, cur).into()
        }
    };
    b.exact = false;
    let seen = b
        .intrinsic(
            IntrinsicOp::ImageAtomicSwap,
            x.image,
            &[coord, cur.into(), new],
            &swap_indices,
            Some(ty),
        )
        .expect("image_atomic_swap has a destination");
    let done = b.ieq(seen, cur);
    let leave = b.push_if(done);
    b.jump(Jump::Break);
    b.pop_if(leave);
    let latch = b.current_block();
    b.add_phi_src(cur, latch, seen);
    b.pop_loop(lp);
    let after = b.cursor;
    func.remove_inst(inst);
    func.insert_inst(inst, after);
    func.inst_mut(inst).kind = InstKind::Alu(AluInst::new(AluOp::Mov, [Src::from(cur)]));
}
