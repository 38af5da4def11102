//! Subgroup instructions (`OpGroupNonUniform*`, SPIR-V 1.3's `GroupNonUniform*`
//! capabilities) on the IR's cross-lane intrinsics, as `spirv_to_nir`'s
//! `vtn_subgroup.c` and NIR's `nir_lower_subgroups` would leave them for a subgroup of
//! at most 32 lanes:
//!
//! - arithmetic with `Reduce`, `InclusiveScan` and `ExclusiveScan` is NIR's `reduce`,
//!   `inclusive_scan` and `exclusive_scan`, one per component; the logical ops
//!   combine booleans as 32-bit 0 or 1 with `iand`, `ior` and `ixor`;
//! - `Elect` is whether the lane is the first active one (`read_first_invocation` of
//!   the lane's index); `BroadcastFirst` is `read_first_invocation`;
//! - `Broadcast` is the `ior` reduction of the value in the chosen lane and 0 in the
//!   others (the chosen lane must be active, as SPIR-V requires);
//! - `All`, `Any` and `AllEqual` are `iand`/`ior` reductions of booleans;
//! - `Ballot` is the `ior` reduction of `b << lane` in the first component (the other
//!   three are 0: no lane is beyond 31); `InverseBallot`, `BallotBitExtract`,
//!   `BallotBitCount` and `BallotFindLSB`/`FindMSB` read that word, masked to the
//!   subgroup's lanes where SPIR-V ignores the others.
//!
//! - `Shuffle`, `ShuffleXor`, `ShuffleUp` and `ShuffleDown` are NIR's `shuffle`,
//!   `shuffle_xor`, `shuffle_up` and `shuffle_down`, `QuadBroadcast` is
//!   `quad_broadcast` and `QuadSwap` with the constant `Direction` 0, 1 or 2
//!   `quad_swap_horizontal`, `_vertical` or `_diagonal` (as `vtn_subgroup.c` maps
//!   them), one per component, booleans moved as 32-bit 0 or 1; the index, mask or
//!   delta as 32 bits. Where the source lane is inactive or out of range the result is
//!   undefined, as SPIR-V says (`ir::subgroup`).
//!
//! `ClusteredReduce` with a constant `ClusterSize` is NIR's `reduce` with that
//! `cluster_size`, one per component; `PartitionedReduceNV` and friends are errors that
//! name the instruction.

use super::context::Ctx;
use super::types::Ty;
use super::value::Val;
use crate::error::ImportError;
use ir::subgroup::{GroupOperation, ReductionOp};
use ir::{AluOp, IntrinsicOp, Src, Type};
use spirv::Op;

/// SPIR-V's `Subgroup` scope.
const SCOPE_SUBGROUP: u64 = 3;

/// Translates `o` if it is a subgroup instruction; `Ok(false)` if it is none.
pub fn instruction(
    ctx: &mut Ctx<'_>,
    o: Op,
    ops: &[u32],
    scope: impl Fn(&mut Ctx<'_>, u32) -> Result<u64, ImportError>,
) -> Result<bool, ImportError> {
    use Op::*;
    if !matches!(
        o,
        GroupNonUniformElect
            | GroupNonUniformAll
            | GroupNonUniformAny
            | GroupNonUniformAllEqual
            | GroupNonUniformBroadcast
            | GroupNonUniformBroadcastFirst
            | GroupNonUniformBallot
            | GroupNonUniformInverseBallot
            | GroupNonUniformBallotBitExtract
            | GroupNonUniformBallotBitCount
            | GroupNonUniformBallotFindLSB
            | GroupNonUniformBallotFindMSB
            | GroupNonUniformQuadSwap
    ) && reduction(o).is_none()
        && shuffle_op(o).is_none()
    {
        return Ok(false);
    }
    let [ty, r, s, rest @ ..] = ops else {
        return Err(ctx.invalid(format!("Op{o:?} has too few operands")));
    };
    let sc = scope(ctx, *s)?;
    if sc != SCOPE_SUBGROUP {
        return Err(ctx.unsupported(
            &format!("Op{o:?} of scope {sc} (not Subgroup)"),
            "the IR's cross-lane operations work within a subgroup",
        ));
    }
    let operand = |ctx: &mut Ctx<'_>, k: usize| -> Result<Src, ImportError> {
        let id = rest
            .get(k)
            .ok_or_else(|| ctx.invalid(format!("Op{o:?} has too few operands")))?;
        ctx.leaf(*id)
    };
    let v = match o {
        GroupNonUniformElect => {
            let lane = invocation(ctx)?;
            let first = Src::new(ctx.build(|b| b.read_first_invocation(lane)));
            ctx.alu(AluOp::Ieq, &[lane, first])?
        }
        GroupNonUniformAll | GroupNonUniformAny => {
            let p = operand(ctx, 0)?;
            let op = if o == GroupNonUniformAll {
                ReductionOp::Iand
            } else {
                ReductionOp::Ior
            };
            vote(ctx, op, p)?
        }
        GroupNonUniformAllEqual => {
            let x = operand(ctx, 0)?;
            let float = is_float(ctx, rest[0]);
            let mut all = None;
            for c in 0..ctx.func.src_components(x) {
                let xc = as_word(ctx, x.component(c))?;
                let first = Src::new(ctx.build(|b| b.read_first_invocation(xc)));
                let cmp = if float { AluOp::Feq } else { AluOp::Ieq };
                let eq = ctx.alu(cmp, &[xc, first])?;
                all = Some(match all {
                    Some(a) => ctx.alu(AluOp::Iand, &[a, eq])?,
                    None => eq,
                });
            }
            let all = all.ok_or_else(|| ctx.invalid("OpGroupNonUniformAllEqual of no value"))?;
            vote(ctx, ReductionOp::Iand, all)?
        }
        GroupNonUniformBroadcast => {
            let x = operand(ctx, 0)?;
            let id = operand(ctx, 1)?;
            let lane = invocation(ctx)?;
            let id = to_u32(ctx, id)?;
            let chosen = ctx.alu(AluOp::Ieq, &[lane, id])?;
            per_component(ctx, x, |ctx, c| {
                let w = as_word(ctx, c)?;
                let zero = ctx.load_const(ctx.func.src_type(w), &[0]);
                let only = ctx.alu(AluOp::Bcsel, &[chosen, w, zero])?;
                let v = group(ctx, GroupOperation::Reduce, ReductionOp::Ior, only);
                from_word(ctx, v, c)
            })?
        }
        GroupNonUniformBroadcastFirst => {
            let x = operand(ctx, 0)?;
            per_component(ctx, x, |ctx, c| {
                let w = as_word(ctx, c)?;
                let v = Src::new(ctx.build(|b| b.read_first_invocation(w)));
                from_word(ctx, v, c)
            })?
        }
        GroupNonUniformBallot => {
            let p = operand(ctx, 0)?;
            let x = ballot_word(ctx, p)?;
            let zero = ctx.u32(0);
            ctx.vec(&[x, zero, zero, zero])?
        }
        GroupNonUniformInverseBallot => {
            let b = operand(ctx, 0)?;
            let lane = invocation(ctx)?;
            bit_of(ctx, b, lane)?
        }
        GroupNonUniformBallotBitExtract => {
            let b = operand(ctx, 0)?;
            let index = operand(ctx, 1)?;
            let index = to_u32(ctx, index)?;
            bit_of(ctx, b, index)?
        }
        GroupNonUniformBallotBitCount => {
            // Operands: the group operation, then the ballot.
            let kind = group_operation(ctx, o, rest.first().copied())?;
            let b = operand(ctx, 1)?;
            let word = subgroup_word(ctx, b)?;
            let lane = invocation(ctx)?;
            let word = match kind {
                GroupOperation::Reduce => word,
                GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
                    // The lanes up to and including (or below) this one: `(2 << lane) - 1`
                    // wraps to all ones at lane 31 as it should.
                    let one = ctx.u32(if kind == GroupOperation::InclusiveScan {
                        2
                    } else {
                        1
                    });
                    let bit = ctx.alu(AluOp::Ishl, &[one, lane])?;
                    let one = ctx.u32(1);
                    let below = ctx.alu(AluOp::Isub, &[bit, one])?;
                    ctx.alu(AluOp::Iand, &[word, below])?
                }
            };
            ctx.alu(AluOp::BitCount, &[word])?
        }
        GroupNonUniformBallotFindLSB | GroupNonUniformBallotFindMSB => {
            let b = operand(ctx, 0)?;
            let word = subgroup_word(ctx, b)?;
            let op = if o == GroupNonUniformBallotFindLSB {
                AluOp::FindLsb
            } else {
                AluOp::UfindMsb
            };
            ctx.alu(op, &[word])?
        }
        GroupNonUniformQuadSwap => {
            let x = operand(ctx, 0)?;
            let dir = rest
                .get(1)
                .ok_or_else(|| ctx.invalid(format!("Op{o:?} has too few operands")))?;
            let op = match scope(ctx, *dir)? {
                0 => IntrinsicOp::QuadSwapHorizontal,
                1 => IntrinsicOp::QuadSwapVertical,
                2 => IntrinsicOp::QuadSwapDiagonal,
                d => {
                    return Err(ctx.invalid(format!(
                        "OpGroupNonUniformQuadSwap with Direction {d} (SPIR-V defines 0, 1 and 2)"
                    )))
                }
            };
            shuffle(ctx, op, x, None)?
        }
        _ if shuffle_op(o).is_some() => {
            let op = shuffle_op(o).ok_or_else(|| ctx.internal("a shuffle without its op"))?;
            let x = operand(ctx, 0)?;
            let lane = operand(ctx, 1)?;
            let lane = to_u32(ctx, lane)?;
            shuffle(ctx, op, x, Some(lane))?
        }
        _ => {
            let Some((int_op, float_op)) = reduction(o) else {
                return Ok(false);
            };
            let operation = rest.first().copied();
            let clustered = operation == Some(spirv::GroupOperation::ClusteredReduce as u32);
            let kind = if clustered {
                GroupOperation::Reduce
            } else {
                group_operation(ctx, o, operation)?
            };
            let cluster = if clustered {
                let id = *rest.get(2).ok_or_else(|| {
                    ctx.invalid(format!("Op{o:?} with ClusteredReduce has no ClusterSize"))
                })?;
                let size = scope(ctx, id)?;
                if size == 0 || !size.is_power_of_two() || size > 32 {
                    return Err(ctx.invalid(format!(
                        "Op{o:?}'s ClusterSize is {size}: SPIR-V asks for a power of two, \
                         and the subgroup has at most 32 lanes"
                    )));
                }
                Some(size as u32)
            } else {
                if rest.len() > 2 {
                    return Err(ctx.invalid(format!(
                        "Op{o:?} has a ClusterSize but its group operation is not ClusteredReduce"
                    )));
                }
                None
            };
            let x = operand(ctx, 1)?;
            let logical = matches!(
                o,
                GroupNonUniformLogicalAnd | GroupNonUniformLogicalOr | GroupNonUniformLogicalXor
            );
            let op = if is_float(ctx, rest[1]) {
                float_op
            } else {
                int_op
            };
            per_component(ctx, x, |ctx, c| {
                let combine = |ctx: &mut Ctx<'_>, w: Src| match cluster {
                    Some(size) => Src::new(ctx.build(|b| b.clustered_reduce(op, w, size))),
                    None => group(ctx, kind, op, w),
                };
                if logical {
                    let w = ctx.alu(AluOp::B2i32, &[c])?;
                    let v = combine(ctx, w);
                    let zero = ctx.u32(0);
                    ctx.alu(AluOp::Ine, &[v, zero])
                } else {
                    Ok(combine(ctx, c))
                }
            })?
        }
    };
    let want = ctx.ir_type(*ty)?;
    if ctx.func.src_type(v) != want {
        return Err(ctx.invalid(format!(
            "Op{o:?}'s result type is not the type of its value"
        )));
    }
    ctx.set(*r, super::value::Value::Val(Val::Leaf(v)))?;
    Ok(true)
}

/// The reduction ops of an arithmetic subgroup instruction: for integer (and boolean)
/// operands, and for float ones.
fn reduction(o: Op) -> Option<(ReductionOp, ReductionOp)> {
    use Op::*;
    use ReductionOp as R;
    Some(match o {
        GroupNonUniformIAdd | GroupNonUniformFAdd => (R::Iadd, R::Fadd),
        GroupNonUniformIMul | GroupNonUniformFMul => (R::Imul, R::Fmul),
        GroupNonUniformSMin => (R::Imin, R::Imin),
        GroupNonUniformUMin => (R::Umin, R::Umin),
        GroupNonUniformFMin => (R::Fmin, R::Fmin),
        GroupNonUniformSMax => (R::Imax, R::Imax),
        GroupNonUniformUMax => (R::Umax, R::Umax),
        GroupNonUniformFMax => (R::Fmax, R::Fmax),
        GroupNonUniformBitwiseAnd | GroupNonUniformLogicalAnd => (R::Iand, R::Iand),
        GroupNonUniformBitwiseOr | GroupNonUniformLogicalOr => (R::Ior, R::Ior),
        GroupNonUniformBitwiseXor | GroupNonUniformLogicalXor => (R::Ixor, R::Ixor),
        _ => return None,
    })
}

/// The IR intrinsic of a shuffle or quad broadcast, whose second operand picks the
/// lane.
fn shuffle_op(o: Op) -> Option<IntrinsicOp> {
    use Op::*;
    Some(match o {
        GroupNonUniformShuffle => IntrinsicOp::Shuffle,
        GroupNonUniformShuffleXor => IntrinsicOp::ShuffleXor,
        GroupNonUniformShuffleUp => IntrinsicOp::ShuffleUp,
        GroupNonUniformShuffleDown => IntrinsicOp::ShuffleDown,
        GroupNonUniformQuadBroadcast => IntrinsicOp::QuadBroadcast,
        _ => return None,
    })
}

/// The shuffle or quad operation `op` of each component of `x` (booleans as words),
/// with the 32-bit `lane` operand where `op` takes one.
fn shuffle(
    ctx: &mut Ctx<'_>,
    op: IntrinsicOp,
    x: Src,
    lane: Option<Src>,
) -> Result<Src, ImportError> {
    per_component(ctx, x, |ctx, c| {
        let w = as_word(ctx, c)?;
        let v = ctx
            .build(|b| b.shuffle(op, w, lane))
            .ok_or_else(|| ctx.internal(format!("`@{op}` with the wrong operands")))?;
        from_word(ctx, Src::new(v), c)
    })
}

/// The `GroupOperation` literal of `o`.
fn group_operation(
    ctx: &Ctx<'_>,
    o: Op,
    literal: Option<u32>,
) -> Result<GroupOperation, ImportError> {
    match literal.and_then(spirv::GroupOperation::from_u32) {
        Some(spirv::GroupOperation::Reduce) => Ok(GroupOperation::Reduce),
        Some(spirv::GroupOperation::InclusiveScan) => Ok(GroupOperation::InclusiveScan),
        Some(spirv::GroupOperation::ExclusiveScan) => Ok(GroupOperation::ExclusiveScan),
        Some(other) => Err(ctx.unsupported(
            &format!("Op{o:?} with the group operation {other:?}"),
            "the IR's reductions and scans cover the whole subgroup or aligned clusters of it",
        )),
        None => Err(ctx.invalid(format!("Op{o:?} has no valid group operation"))),
    }
}

/// A reduction or scan of the scalar `x`.
fn group(ctx: &mut Ctx<'_>, kind: GroupOperation, op: ReductionOp, x: Src) -> Src {
    Src::new(ctx.build(|b| b.subgroup_op(kind, op, x)))
}

/// `f` on each component of `x`, gathered again.
fn per_component(
    ctx: &mut Ctx<'_>,
    x: Src,
    mut f: impl FnMut(&mut Ctx<'_>, Src) -> Result<Src, ImportError>,
) -> Result<Src, ImportError> {
    let n = ctx.func.src_components(x);
    if n == 1 {
        return f(ctx, x);
    }
    let mut out = Vec::new();
    for c in 0..n {
        out.push(f(ctx, x.component(c))?);
    }
    ctx.vec(&out)
}

/// A boolean as a 32-bit 0 or 1 (cross-lane intrinsics move words); other values as
/// they are.
fn as_word(ctx: &mut Ctx<'_>, c: Src) -> Result<Src, ImportError> {
    if ctx.func.src_type(c) == Type::BOOL {
        ctx.alu(AluOp::B2i32, &[c])
    } else {
        Ok(c)
    }
}

/// The inverse of [`as_word`] for a value of `like`'s type.
fn from_word(ctx: &mut Ctx<'_>, w: Src, like: Src) -> Result<Src, ImportError> {
    if ctx.func.src_type(like) == Type::BOOL {
        let zero = ctx.u32(0);
        ctx.alu(AluOp::Ine, &[w, zero])
    } else {
        Ok(w)
    }
}

/// `op` (`iand` for all, `ior` for any) over the boolean `p` of the active lanes.
fn vote(ctx: &mut Ctx<'_>, op: ReductionOp, p: Src) -> Result<Src, ImportError> {
    let w = ctx.alu(AluOp::B2i32, &[p])?;
    let v = group(ctx, GroupOperation::Reduce, op, w);
    let zero = ctx.u32(0);
    ctx.alu(AluOp::Ine, &[v, zero])
}

/// The 32-bit system value `op`.
fn system_value(ctx: &mut Ctx<'_>, op: IntrinsicOp) -> Result<Src, ImportError> {
    ctx.build(|b| b.intrinsic(op, None, &[], &[], Some(Type::U32)))
        .map(Src::new)
        .ok_or_else(|| ctx.internal("a system value without a value"))
}

/// The lane's index in its subgroup.
fn invocation(ctx: &mut Ctx<'_>) -> Result<Src, ImportError> {
    system_value(ctx, IntrinsicOp::LoadSubgroupInvocation)
}

/// The ballot's bit of each active lane, in one word.
fn ballot_word(ctx: &mut Ctx<'_>, p: Src) -> Result<Src, ImportError> {
    let w = ctx.alu(AluOp::B2i32, &[p])?;
    let lane = invocation(ctx)?;
    lanes_word(ctx, w, lane)
}

/// Each active lane's `w` (0 or 1) at bit `lane` (its invocation), in one word.
fn lanes_word(ctx: &mut Ctx<'_>, w: Src, lane: Src) -> Result<Src, ImportError> {
    let bit = ctx.alu(AluOp::Ishl, &[w, lane])?;
    Ok(group(ctx, GroupOperation::Reduce, ReductionOp::Ior, bit))
}

/// The first word of a ballot (`uvec4`), the one a subgroup of at most 32 lanes uses,
/// without the bits of lanes beyond the subgroup, which SPIR-V says to ignore.
fn subgroup_word(ctx: &mut Ctx<'_>, b: Src) -> Result<Src, ImportError> {
    let x = b.component(0);
    let size = system_value(ctx, IntrinsicOp::LoadSubgroupSize)?;
    // `u32::MAX >> (32 - size)`: all ones for a subgroup of 32 (a shift of 0).
    let all = ctx.u32(u32::MAX);
    let thirty_two = ctx.u32(32);
    let gap = ctx.alu(AluOp::Isub, &[thirty_two, size])?;
    let mask = ctx.alu(AluOp::Ushr, &[all, gap])?;
    ctx.alu(AluOp::Iand, &[x, mask])
}

/// Bit `index` of the ballot `b` as a boolean (0 for bits of no lane: 32 and above).
fn bit_of(ctx: &mut Ctx<'_>, b: Src, index: Src) -> Result<Src, ImportError> {
    let word = subgroup_word(ctx, b)?;
    // A shift takes its count modulo 32: bits of index 32 and above are tested apart.
    let shifted = ctx.alu(AluOp::Ushr, &[word, index])?;
    let one = ctx.u32(1);
    let bit = ctx.alu(AluOp::Iand, &[shifted, one])?;
    let zero = ctx.u32(0);
    let set = ctx.alu(AluOp::Ine, &[bit, zero])?;
    let limit = ctx.u32(32);
    let in_word = ctx.alu(AluOp::Ult, &[index, limit])?;
    ctx.alu(AluOp::Iand, &[set, in_word])
}

/// An index operand as 32 bits.
fn to_u32(ctx: &mut Ctx<'_>, s: Src) -> Result<Src, ImportError> {
    if ctx.func.src_type(s).bit_size() == 32 {
        Ok(s)
    } else {
        ctx.alu(AluOp::U2u32, &[s])
    }
}

/// Whether the value `id` is of a float type (scalar or vector).
fn is_float(ctx: &Ctx<'_>, id: u32) -> bool {
    let Some(ty) = ctx.type_of(id) else {
        return false;
    };
    match ctx.ty(ty) {
        Ok(Ty::Float { .. }) => true,
        Ok(Ty::Vector { elem, .. }) => matches!(ctx.ty(*elem), Ok(Ty::Float { .. })),
        _ => false,
    }
}
