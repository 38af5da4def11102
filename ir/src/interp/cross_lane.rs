//! The intrinsics whose lanes read each other's values: `read_first_invocation` and
//! the subgroup reductions and scans (`reduce`, `inclusive_scan`, `exclusive_scan`),
//! in the order `crate::subgroup` defines.

use super::lanes::{lanes_of as lanes, Mask};
use crate::alu::AluOp;
use crate::eval::{eval_alu_flagged, EvalError, Operand};
use crate::function::IntrinsicInst;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::subgroup::{self, GroupOperation, ReductionOp, SLOTS};
use crate::types::Type;

/// Whether `op` reads other lanes' values.
pub(super) fn is_cross_lane(op: IntrinsicOp) -> bool {
    op == IntrinsicOp::ReadFirstInvocation || op.group_operation().is_some()
}

/// Runs a cross-lane intrinsic of result type `ty` on the lanes of `mask`: `src` holds
/// the source's `ty.num_components()` components per lane, `dest` receives the
/// result's. A reduction whose op does not evaluate names the op.
pub(super) fn run(
    intr: &IntrinsicInst,
    ty: Type,
    mask: Mask,
    src: &[u64],
    dest: &mut [u64],
) -> Result<(), (AluOp, EvalError)> {
    let n = ty.num_components() as usize;
    let Some(kind) = intr.op.group_operation() else {
        // `read_first_invocation`: the lowest active lane's value, in every active lane.
        let first = mask.trailing_zeros() as usize;
        let mut value = [0u64; 16];
        value[..n].copy_from_slice(&src[first * n..first * n + n]);
        for lane in lanes(mask) {
            dest[lane * n..lane * n + n].copy_from_slice(&value[..n]);
        }
        return Ok(());
    };
    // The validator makes the operand a scalar of a size the op takes.
    let Some(op) = intr
        .index(IndexKind::ReductionOp)
        .and_then(ReductionOp::from_index)
    else {
        return Ok(());
    };
    let bits = ty.bit_size();
    let alu = op.alu_op();
    let scalar = Type::new(bits, 1).unwrap_or(ty);
    let mut slots = [0u64; SLOTS];
    for lane in lanes(mask) {
        slots[lane] = src[lane];
    }
    subgroup::run(kind, op.identity(bits), mask, &mut slots, |a, b| {
        // Reductions are not `exact`: a float sum may be evaluated as any other
        // inexact add is.
        eval_alu_flagged(
            alu,
            false,
            scalar,
            &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
        )
        .map(|v| v[0])
        .map_err(|e| (alu, e))
    })?;
    for lane in lanes(mask) {
        dest[lane] = slots[lane];
    }
    Ok(())
}

/// Whether lane `lane`'s result of a cross-lane intrinsic may be anything because a
/// lane it reads is undefined: `undef` holds one flag per lane and component of the
/// source.
pub(super) fn tainted(op: IntrinsicOp, n: usize, mask: Mask, lane: usize, undef: &[bool]) -> bool {
    let read: Mask = match op.group_operation() {
        None => 1u32 << mask.trailing_zeros(),
        Some(GroupOperation::Reduce) => mask,
        Some(GroupOperation::InclusiveScan) => mask & low_lanes(lane + 1),
        Some(GroupOperation::ExclusiveScan) => mask & low_lanes(lane),
    };
    lanes(read).any(|l| undef[l * n..l * n + n].iter().any(|&u| u))
}

/// The lanes below `n`.
fn low_lanes(n: usize) -> Mask {
    if n >= 32 {
        Mask::MAX
    } else {
        (1 << n) - 1
    }
}
