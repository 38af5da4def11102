//! The intrinsics whose lanes read each other's values: `read_first_invocation`,
//! the subgroup reductions and scans (`reduce`, `inclusive_scan`, `exclusive_scan`),
//! in the order `crate::subgroup` defines, and the shuffles and quad operations, whose
//! result is undefined (tainted when undefs are tracked) where the source lane is
//! inactive (the value here: what that lane's slot holds) or out of range (0 here)
//! (`crate::subgroup`, "Shuffles and quad operations").

use super::lanes::{lanes_of as lanes, Mask};
use crate::alu::AluOp;
use crate::eval::{eval_alu_flagged, EvalError, Operand};
use crate::function::IntrinsicInst;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::subgroup::{self, GroupOperation, ReductionOp, ShuffleKind, SLOTS};
use crate::types::Type;

/// Whether `op` reads other lanes' values.
pub(super) fn is_cross_lane(op: IntrinsicOp) -> bool {
    op == IntrinsicOp::ReadFirstInvocation
        || op.group_operation().is_some()
        || op.shuffle_kind().is_some()
}

/// The operands of a cross-lane intrinsic: every source's values, lane-major, from
/// `offsets[k]` for source `k`, and the subgroup's lane count.
pub(super) struct Sources<'a> {
    /// The sources' values (or, for [`tainted`], their undef flags).
    pub data: &'a [u64],
    /// Where each source starts in `data`.
    pub offsets: &'a [usize],
    /// The subgroup's lanes.
    pub width: usize,
}

/// The lane a shuffle or quad operation gives lane `lane` the value of, if that lane
/// is in range: `None` where it is not (the result is undefined). An inactive source
/// lane is read too (what its register holds, the value it computed before it left, as
/// hardware reads it), though the result is undefined there as well ([`tainted`]).
fn shuffle_source(kind: ShuffleKind, s: &Sources<'_>, lane: usize) -> Option<usize> {
    let operand = if kind.has_operand() {
        let at = s.offsets.get(1).copied()? + lane;
        *s.data.get(at)? as u32
    } else {
        0
    };
    let width = s.width.min(SLOTS) as u32;
    kind.source_lane(lane as u32, operand, width)
        .map(|from| from as usize)
}

/// Runs a cross-lane intrinsic of result type `ty` on the lanes of `mask`: `src` holds
/// the source's `ty.num_components()` components per lane, `dest` receives the
/// result's. A reduction whose op does not evaluate names the op.
pub(super) fn run(
    intr: &IntrinsicInst,
    ty: Type,
    mask: Mask,
    srcs: &Sources<'_>,
    dest: &mut [u64],
) -> Result<(), (AluOp, EvalError)> {
    let n = ty.num_components() as usize;
    let src = &srcs.data[srcs.offsets.first().copied().unwrap_or(0)..];
    if let Some(kind) = intr.op.shuffle_kind() {
        for lane in lanes(mask) {
            let out = &mut dest[lane * n..lane * n + n];
            match shuffle_source(kind, srcs, lane) {
                Some(from) => out.copy_from_slice(&src[from * n..from * n + n]),
                // Undefined: 0, which `tainted` marks as such.
                None => out.fill(0),
            }
        }
        return Ok(());
    }
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
    let cluster = intr.index(IndexKind::ClusterSize).unwrap_or(0) as usize;
    subgroup::run(
        kind,
        cluster,
        op.identity(bits),
        mask,
        &mut slots,
        |a, b| {
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
        },
    )?;
    for lane in lanes(mask) {
        dest[lane] = slots[lane];
    }
    Ok(())
}

/// Whether lane `lane`'s result of a cross-lane intrinsic may be anything: a lane it
/// reads is undefined, or (a shuffle) its index is or its source lane is inactive or
/// out of range. `undef` holds one flag per lane and component of each source, at
/// `values`' offsets; `values` are the sources' values.
pub(super) fn tainted(
    intr: &IntrinsicInst,
    n: usize,
    mask: Mask,
    lane: usize,
    values: &Sources<'_>,
    undef: &[bool],
) -> bool {
    let op = intr.op;
    let start = values.offsets.first().copied().unwrap_or(0);
    if let Some(kind) = op.shuffle_kind() {
        let index_undef = kind.has_operand()
            && values
                .offsets
                .get(1)
                .is_none_or(|&o| undef.get(o + lane) != Some(&false));
        return index_undef
            || match shuffle_source(kind, values, lane) {
                Some(from) => {
                    mask & (1 << from) == 0
                        || undef[start + from * n..start + from * n + n]
                            .iter()
                            .any(|&u| u)
                }
                None => true,
            };
    }
    let undef = &undef[start..];
    let read: Mask = match op.group_operation() {
        None => 1u32 << mask.trailing_zeros(),
        Some(GroupOperation::Reduce) => match intr.index(IndexKind::ClusterSize) {
            Some(c @ 1..) => {
                let c = c as usize;
                mask & (low_lanes(c) << (lane / c * c))
            }
            _ => mask,
        },
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
