//! Subgroup reductions and scans: NIR's `reduce`, `inclusive_scan` and `exclusive_scan`
//! with their `reduction_op` (SPIR-V's `OpGroupNonUniform*` arithmetic with the
//! `Reduce`, `InclusiveScan` and `ExclusiveScan` group operations).
//!
//! Integer reductions do not depend on the order their operands are combined in, but
//! float ones do, and Vulkan leaves that order open. The IR fixes one, the one the
//! vISA back end emits, so that the interpreter and a kernel agree bit for bit:
//!
//! - **Slots.** A subgroup has [`SLOTS`] (32) slots, one per lane. An active lane's slot
//!   holds `op(x, identity)`; every other slot holds the identity. The first step only
//!   matters for floats: `x + -0.0` quiets a signaling NaN, and `fmin(NaN, +inf)` is
//!   `+inf`, which is how SPIR-V's `OpGroupNonUniformFMin` ignores a NaN operand ("if
//!   for any two Values one of them is a NaN, the other is chosen"); it is idempotent,
//!   so combining a prepared slot with the identity again changes nothing.
//! - **Reduce.** A halving tree: `t[i] = op(t[i], t[i + n])` for `i < n`, `n` = 16, 8,
//!   4, 2, 1; the result is `t[0]`, in every active lane. A SIMD8 or SIMD16 kernel runs
//!   the last three or four steps only: its upper slots hold the identity, and the
//!   earlier steps would combine its slots with identities alone.
//! - **Clustered reduce** (a `cluster_size` C other than 0, SPIR-V's `ClusteredReduce`):
//!   adjacent pairs, `t'[i] = op(t[2i], t[2i + 1])`, compacted until one value is left
//!   per aligned cluster of C slots; lane `i` gets cluster `i / C`'s. A kernel reads
//!   `t` with a stride of two and writes `t'` packed, one instruction a level; one
//!   narrower than C stops at its own width, as its clusters' upper slots hold the
//!   identity.
//! - **Scans.** Hillis and Steele's: for `k` = 1, 2, 4, 8, 16, `t[i] = op(t[i - k],
//!   t[i])`, a slot below 0 being the identity. The inclusive scan of lane `i` is `t[i]`;
//!   the exclusive scan is `t[i - 1]`, the identity in lane 0.
//!
//! # Shuffles and quad operations
//!
//! NIR's `shuffle`, `shuffle_xor`, `shuffle_up`, `shuffle_down`, `quad_broadcast` and
//! `quad_swap_horizontal`/`_vertical`/`_diagonal` (SPIR-V's
//! `OpGroupNonUniformShuffle*`, `OpGroupNonUniformQuadBroadcast` and
//! `OpGroupNonUniformQuadSwap`) give lane `i` the value of one source lane `s`
//! ([`ShuffleKind::source_lane`]); `W` is the subgroup size and the operand a 32-bit
//! unsigned integer:
//!
//! | intrinsic | source lane |
//! | --- | --- |
//! | `shuffle (value, index)` | `index` |
//! | `shuffle_xor (value, mask)` | `i ^ mask` |
//! | `shuffle_up (value, delta)` | `i - delta` |
//! | `shuffle_down (value, delta)` | `i + delta` |
//! | `quad_broadcast (value, index)` | `4 * (i / 4) + index` |
//! | `quad_swap_horizontal`, `_vertical`, `_diagonal` | `i ^ 1`, `i ^ 2`, `i ^ 3` |
//!
//! The result is **undefined** where the source lane is not a lane of the subgroup
//! (`s >= W`, `delta > i` for `shuffle_up`, an `index` of 4 or more for
//! `quad_broadcast`) or is not active (it does not execute the instruction): the SPIR-V
//! specification says so of each of these instructions ("the resulting value is
//! undefined" when the Id "is an inactive invocation" or out of range; SPIR-V 1.6,
//! section 3.56.24, "Non-Uniform Instructions"), and NIR's `nir_intrinsics.py` defines
//! no more. The interpreter gives what the source lane's slot holds where it is
//! inactive (the value it computed before it left: what hardware reads from its
//! register, and what the vISA kernels read, as brw's shuffles do) and 0 where it is
//! out of range; neither promises anything: with `Config::track_undef` such a result is
//! tainted as an `undef` is, so that the comparisons that track undefs (the pass
//! property suites) accept any value there. An undefined index, or an undefined value
//! in the source lane, taints the result as well. `ir-opt verify` does not track
//! undefs: a shader that stores an out-of-range shuffle's result can report a mismatch
//! between its forms, as one that stores an `undef` can. Unlike the reductions, any value shape is
//! moved (every component from the same source lane).

use crate::alu::AluOp;

/// Lanes of a subgroup the order is defined over: the widest SIMD width.
pub const SLOTS: usize = 32;

spelled_enum! {
    /// The operation of a subgroup reduction or scan (NIR's `reduction_op`, an ALU op).
    #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
    pub enum ReductionOp {
        /// Every op.
        const ALL;
        /// NIR's name (the ALU op's).
        fn name;
        /// Parses NIR's name.
        fn from_name;

        /// Integer add (`OpGroupNonUniformIAdd`).
        Iadd = 0 => "iadd",
        /// Integer multiply, low bits (`OpGroupNonUniformIMul`).
        Imul = 1 => "imul",
        /// Signed minimum (`OpGroupNonUniformSMin`).
        Imin = 2 => "imin",
        /// Unsigned minimum (`OpGroupNonUniformUMin`).
        Umin = 3 => "umin",
        /// Signed maximum (`OpGroupNonUniformSMax`).
        Imax = 4 => "imax",
        /// Unsigned maximum (`OpGroupNonUniformUMax`).
        Umax = 5 => "umax",
        /// Bitwise and (`OpGroupNonUniformBitwiseAnd`).
        Iand = 6 => "iand",
        /// Bitwise or (`OpGroupNonUniformBitwiseOr`).
        Ior = 7 => "ior",
        /// Bitwise exclusive or (`OpGroupNonUniformBitwiseXor`).
        Ixor = 8 => "ixor",
        /// Float add (`OpGroupNonUniformFAdd`).
        Fadd = 9 => "fadd",
        /// Float multiply (`OpGroupNonUniformFMul`).
        Fmul = 10 => "fmul",
        /// Float minimum (`OpGroupNonUniformFMin`).
        Fmin = 11 => "fmin",
        /// Float maximum (`OpGroupNonUniformFMax`).
        Fmax = 12 => "fmax",
    }
}

impl ReductionOp {
    /// Index encoding.
    pub fn to_index(self) -> u32 {
        self as u32
    }

    /// Inverse of [`ReductionOp::to_index`].
    pub fn from_index(v: u32) -> Option<ReductionOp> {
        ReductionOp::ALL.get(v as usize).copied()
    }

    /// The ALU op that combines two operands.
    pub fn alu_op(self) -> AluOp {
        match self {
            ReductionOp::Iadd => AluOp::Iadd,
            ReductionOp::Imul => AluOp::Imul,
            ReductionOp::Imin => AluOp::Imin,
            ReductionOp::Umin => AluOp::Umin,
            ReductionOp::Imax => AluOp::Imax,
            ReductionOp::Umax => AluOp::Umax,
            ReductionOp::Iand => AluOp::Iand,
            ReductionOp::Ior => AluOp::Ior,
            ReductionOp::Ixor => AluOp::Ixor,
            ReductionOp::Fadd => AluOp::Fadd,
            ReductionOp::Fmul => AluOp::Fmul,
            ReductionOp::Fmin => AluOp::Fmin,
            ReductionOp::Fmax => AluOp::Fmax,
        }
    }

    /// Whether the operands are floats.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ReductionOp::Fadd | ReductionOp::Fmul | ReductionOp::Fmin | ReductionOp::Fmax
        )
    }

    /// Whether `bits` is an operand size of this op: 8 to 64 for integers, 16 to 64
    /// for floats.
    pub fn takes_bits(self, bits: u8) -> bool {
        if self.is_float() {
            matches!(bits, 16 | 32 | 64)
        } else {
            matches!(bits, 8 | 16 | 32 | 64)
        }
    }

    /// The identity at `bits` (SPIR-V's identity `I` of each `OpGroupNonUniform*`
    /// operation): 0 for add, or, xor and unsigned max; 1 for multiply; all ones for and
    /// and unsigned min; the extreme integers for signed min and max; -0.0, 1.0, +inf and
    /// -inf for the float ops (-0.0 rather than +0.0 so that `-0.0 + I` stays -0.0).
    pub fn identity(self, bits: u8) -> u64 {
        let mask = crate::types::bit_mask(bits);
        let sign = 1u64 << (bits - 1);
        let (exp_bits, frac_bits) = match bits {
            16 => (5, 10),
            64 => (11, 52),
            _ => (8, 23),
        };
        let inf = ((1u64 << exp_bits) - 1) << frac_bits;
        let one = ((1u64 << (exp_bits - 1)) - 1) << frac_bits;
        match self {
            ReductionOp::Iadd | ReductionOp::Ior | ReductionOp::Ixor | ReductionOp::Umax => 0,
            ReductionOp::Imul => 1,
            ReductionOp::Iand | ReductionOp::Umin => mask,
            ReductionOp::Imin => mask >> 1,
            ReductionOp::Imax => sign,
            ReductionOp::Fadd => sign,
            ReductionOp::Fmul => one,
            ReductionOp::Fmin => inf,
            ReductionOp::Fmax => inf | sign,
        }
    }
}

/// The kind of a subgroup operation over [`SLOTS`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GroupOperation {
    /// Every active lane gets the combination of all active lanes.
    Reduce,
    /// Lane `i` gets the combination of the active lanes up to and including `i`.
    InclusiveScan,
    /// Lane `i` gets the combination of the active lanes below `i`.
    ExclusiveScan,
}

/// How a shuffle or quad operation picks its source lane (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ShuffleKind {
    /// `shuffle`: the lane the operand names.
    Index,
    /// `shuffle_xor`: the lane's index exclusive-or the operand.
    Xor,
    /// `shuffle_up`: the lane the operand below.
    Up,
    /// `shuffle_down`: the lane the operand above.
    Down,
    /// `quad_broadcast`: lane `operand` (0 to 3) of the lane's quad.
    QuadBroadcast,
    /// `quad_swap_*`: the lane's index exclusive-or this constant (1 horizontal, 2
    /// vertical, 3 diagonal); no operand.
    QuadSwap(u32),
}

impl ShuffleKind {
    /// Whether the intrinsic has a second, lane-selecting operand.
    pub fn has_operand(self) -> bool {
        !matches!(self, ShuffleKind::QuadSwap(_))
    }

    /// The lane whose value lane `lane` of a subgroup of `width` lanes receives, given
    /// the lane's operand (ignored by the quad swaps); `None` where the result is
    /// undefined because that lane is out of range (beyond the subgroup, below lane 0,
    /// or outside the quad). Whether the lane is active is the caller's business.
    pub fn source_lane(self, lane: u32, operand: u32, width: u32) -> Option<u32> {
        let s = match self {
            ShuffleKind::Index => operand,
            ShuffleKind::Xor => lane ^ operand,
            ShuffleKind::Up => lane.checked_sub(operand)?,
            ShuffleKind::Down => lane.checked_add(operand)?,
            ShuffleKind::QuadBroadcast if operand < 4 => (lane & !3) + operand,
            ShuffleKind::QuadBroadcast => return None,
            ShuffleKind::QuadSwap(x) => lane ^ x,
        };
        (s < width).then_some(s)
    }
}

/// Runs a subgroup operation on `slots` (one entry per lane, [`SLOTS`] long, each
/// `bits` wide), of which the lanes of `active` take part, in the order the module
/// docs define; a `Reduce` with a `cluster_size` other than 0 combines each aligned
/// cluster of that many lanes apart. `combine(a, b)` is the reduction op on two
/// operands. On return `slots[i]` holds lane `i`'s result (every lane's, active or
/// not).
pub fn run<E>(
    kind: GroupOperation,
    cluster_size: usize,
    identity: u64,
    active: u32,
    slots: &mut [u64; SLOTS],
    mut combine: impl FnMut(u64, u64) -> Result<u64, E>,
) -> Result<(), E> {
    for (i, s) in slots.iter_mut().enumerate() {
        *s = if active & (1 << i) != 0 {
            combine(*s, identity)?
        } else {
            identity
        };
    }
    match kind {
        GroupOperation::Reduce if cluster_size != 0 => {
            // Pairs of adjacent values, compacted to the front until one per cluster
            // is left; writing `slots[i]` after reading `slots[2i]` and
            // `slots[2i + 1]` only overwrites values already read.
            let mut n = SLOTS;
            let mut width = 1;
            while width < cluster_size.min(SLOTS) {
                n /= 2;
                for i in 0..n {
                    slots[i] = combine(slots[2 * i], slots[2 * i + 1])?;
                }
                width *= 2;
            }
            let clusters = *slots;
            for (i, s) in slots.iter_mut().enumerate() {
                *s = clusters[i / width];
            }
        }
        GroupOperation::Reduce => {
            let mut n = SLOTS / 2;
            while n >= 1 {
                for i in 0..n {
                    slots[i] = combine(slots[i], slots[i + n])?;
                }
                n /= 2;
            }
            let r = slots[0];
            slots.fill(r);
        }
        GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
            let mut k = 1;
            while k < SLOTS {
                // Downwards, so that slot `i - k` still holds the previous step's value.
                for i in (0..SLOTS).rev() {
                    let below = if i >= k { slots[i - k] } else { identity };
                    slots[i] = combine(below, slots[i])?;
                }
                k *= 2;
            }
            if kind == GroupOperation::ExclusiveScan {
                slots.copy_within(0..SLOTS - 1, 1);
                slots[0] = identity;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval_alu, Operand};
    use crate::types::Type;

    fn combine(op: ReductionOp, bits: u8) -> impl FnMut(u64, u64) -> Result<u64, String> {
        move |a, b| {
            let ty = Type::new(bits, 1).expect("a scalar type");
            eval_alu(
                op.alu_op(),
                ty,
                &[Operand::new(bits, &[a]), Operand::new(bits, &[b])],
            )
            .map(|v| v[0])
            .map_err(|e| format!("{e:?}"))
        }
    }

    fn slots(values: &[u64]) -> [u64; SLOTS] {
        let mut s = [0; SLOTS];
        s[..values.len()].copy_from_slice(values);
        s
    }

    #[test]
    fn identities_leave_every_operand_alone() {
        // By hand: the IEEE encodings of -0.0, 1.0, +inf and -inf at 16, 32 and 64 bits.
        assert_eq!(ReductionOp::Fadd.identity(32), 0x8000_0000);
        assert_eq!(ReductionOp::Fmul.identity(32), 0x3f80_0000);
        assert_eq!(ReductionOp::Fmin.identity(32), 0x7f80_0000);
        assert_eq!(ReductionOp::Fmax.identity(32), 0xff80_0000);
        assert_eq!(ReductionOp::Fmul.identity(16), 0x3c00);
        assert_eq!(ReductionOp::Fmin.identity(64), 0x7ff0_0000_0000_0000);
        assert_eq!(ReductionOp::Imin.identity(8), 0x7f);
        assert_eq!(ReductionOp::Imax.identity(16), 0x8000);
        assert_eq!(ReductionOp::Umin.identity(32), 0xffff_ffff);
        for op in ReductionOp::ALL {
            for bits in [8u8, 16, 32, 64] {
                if !op.takes_bits(bits) {
                    continue;
                }
                let mut f = combine(op, bits);
                let id = op.identity(bits);
                // Ordinary values, both zeros, both extremes.
                let mask = crate::types::bit_mask(bits);
                for x in [0u64, 1, 3, mask, mask >> 1, 1 << (bits - 1), 0x1234 & mask] {
                    let is_nan = op.is_float() && crate::eval::is_nan(bits, x);
                    if !is_nan {
                        assert_eq!(f(x, id), Ok(x), "{op:?} {bits} {x:#x}");
                        assert_eq!(f(id, x), Ok(x), "{op:?} {bits} {x:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn reduce_and_scans_over_the_active_lanes() {
        let mut s = slots(&[1, 2, 3, 4, 5]);
        run(
            GroupOperation::Reduce,
            0,
            0,
            0b10110,
            &mut s,
            combine(ReductionOp::Iadd, 32),
        )
        .unwrap();
        assert!(s.iter().all(|&v| v == 2 + 3 + 5));
        let mut s = slots(&[1, 2, 3, 4, 5]);
        run(
            GroupOperation::InclusiveScan,
            0,
            0,
            0b10110,
            &mut s,
            combine(ReductionOp::Iadd, 32),
        )
        .unwrap();
        assert_eq!(&s[..6], &[0, 2, 5, 5, 10, 10]);
        let mut s = slots(&[1, 2, 3, 4, 5]);
        run(
            GroupOperation::ExclusiveScan,
            0,
            0,
            0b10110,
            &mut s,
            combine(ReductionOp::Iadd, 32),
        )
        .unwrap();
        assert_eq!(&s[..6], &[0, 0, 2, 5, 5, 10]);
        let mut s = slots(&[7, 0xffff_fff0, 9]);
        run(
            GroupOperation::Reduce,
            0,
            ReductionOp::Imin.identity(32),
            0b111,
            &mut s,
            combine(ReductionOp::Imin, 32),
        )
        .unwrap();
        assert_eq!(s[0], 0xffff_fff0);
    }

    #[test]
    fn a_float_minimum_passes_over_nans() {
        // SPIR-V's FMin: of a NaN and a number, the number; all NaN: the identity here.
        let nan = 0x7fc0_0001;
        let id = ReductionOp::Fmin.identity(32);
        let mut s = slots(&[nan, 0x4000_0000, nan]);
        run(
            GroupOperation::Reduce,
            0,
            id,
            0b111,
            &mut s,
            combine(ReductionOp::Fmin, 32),
        )
        .unwrap();
        assert_eq!(s[0], 0x4000_0000);
        let mut s = slots(&[nan; SLOTS]);
        run(
            GroupOperation::Reduce,
            0,
            id,
            u32::MAX,
            &mut s,
            combine(ReductionOp::Fmin, 32),
        )
        .unwrap();
        assert_eq!(s[0], id);
    }

    #[test]
    fn shuffle_source_lanes() {
        // By hand, in a subgroup of 16 lanes.
        use ShuffleKind::*;
        assert_eq!(Index.source_lane(3, 9, 16), Some(9));
        assert_eq!(Index.source_lane(3, 16, 16), None);
        assert_eq!(Xor.source_lane(5, 3, 16), Some(6));
        assert_eq!(Xor.source_lane(5, 16, 16), None);
        assert_eq!(Up.source_lane(5, 2, 16), Some(3));
        assert_eq!(Up.source_lane(1, 2, 16), None);
        assert_eq!(Up.source_lane(5, u32::MAX, 16), None);
        assert_eq!(Down.source_lane(5, 2, 16), Some(7));
        assert_eq!(Down.source_lane(14, 2, 16), None);
        assert_eq!(Down.source_lane(1, u32::MAX, 16), None);
        assert_eq!(QuadBroadcast.source_lane(6, 1, 16), Some(5));
        assert_eq!(QuadBroadcast.source_lane(6, 4, 16), None);
        assert_eq!(QuadSwap(1).source_lane(6, 0, 16), Some(7));
        assert_eq!(QuadSwap(2).source_lane(6, 0, 16), Some(4));
        assert_eq!(QuadSwap(3).source_lane(6, 0, 16), Some(5));
        assert_eq!(QuadSwap(3).source_lane(6, 0, 8), Some(5));
    }

    #[test]
    fn float_sums_follow_the_tree() {
        // Lanes 0, 1 and 16 hold 1e8, -1e8 and 1. In lane order the sum is
        // (1e8 - 1e8) + 1 = 1; the tree first meets lanes 0 and 16 (1e8 + 1 rounds to
        // 1e8 in f32, whose ulp there is 8), then lanes 0 and 1: 0.
        let mut s = slots(&[1e8f32.to_bits() as u64, (-1e8f32).to_bits() as u64]);
        s[16] = 1f32.to_bits() as u64;
        let active = 1 | 2 | (1 << 16);
        let id = ReductionOp::Fadd.identity(32);
        run(
            GroupOperation::Reduce,
            0,
            id,
            active,
            &mut s,
            combine(ReductionOp::Fadd, 32),
        )
        .unwrap();
        assert_eq!(s[0], 0);
    }

    #[test]
    fn clusters_reduce_apart_in_adjacent_pairs() {
        // Clusters of four over lanes 0 to 7, lane 2 inactive: 1 + 2 + 8 and 16 to 128.
        let mut s = slots(&[1, 2, 4, 8, 16, 32, 64, 128]);
        run(
            GroupOperation::Reduce,
            4,
            0,
            0b1111_1011,
            &mut s,
            combine(ReductionOp::Iadd, 32),
        )
        .unwrap();
        assert_eq!(&s[..9], &[11, 11, 11, 11, 240, 240, 240, 240, 0]);
        // A cluster of one is the lane's own (prepared) operand.
        let mut s = slots(&[5, 6, 7]);
        run(
            GroupOperation::Reduce,
            1,
            0,
            0b101,
            &mut s,
            combine(ReductionOp::Iadd, 32),
        )
        .unwrap();
        assert_eq!(&s[..3], &[5, 0, 7]);
        // The order shows in floats: lanes 0 to 3 hold 1e8, 1, -1e8, 1. Adjacent pairs
        // give (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0 (1e8 + 1 rounds to 1e8); the
        // halving tree of a whole reduce gives (1e8 - 1e8) + (1 + 1) = 2.
        let f = |x: f32| u64::from(x.to_bits());
        let values = [f(1e8), f(1.0), f(-1e8), f(1.0)];
        let id = ReductionOp::Fadd.identity(32);
        for (cluster, want) in [(4, 0.0f32), (0, 2.0)] {
            let mut s = slots(&values);
            run(
                GroupOperation::Reduce,
                cluster,
                id,
                0b1111,
                &mut s,
                combine(ReductionOp::Fadd, 32),
            )
            .unwrap();
            assert_eq!(s[3], f(want), "cluster {cluster}");
        }
    }
}
