//! How the interpreter hands an intrinsic to its environment: the [`Env`] trait and
//! the [`IntrinsicCall`] it receives (the operands of every lane, the destination to
//! write).

use super::error::EnvError;
use super::lanes::MAX_LANES;
use crate::bounds::Interval;
use crate::entity::{ImageId, Inst};
use crate::function::IntrinsicInst;
use crate::image::ImageDecl;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::span::Span;
use crate::types::Type;

/// What executes intrinsics: system values, memory, images and messages.
pub trait Env {
    /// Executes one intrinsic for the active lanes of `call` (bit `i` of
    /// [`IntrinsicCall::exec_mask`] is lane `i`), reading the sources and writing the
    /// destination per lane. A message intrinsic should be executed for all of its lanes
    /// at once, as the one SIMD message it models; a high-level intrinsic may be executed
    /// lane by lane, in ascending lane order. The destination of every active lane is 0
    /// when the call starts; a lane the environment leaves alone (for instance because
    /// its predicate is false) keeps that 0.
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError>;
}

/// One intrinsic instruction being executed for a set of lanes, as handed to an [`Env`].
pub struct IntrinsicCall<'a> {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// The intrinsic: opcode, image operand, sources and indices.
    pub intrinsic: &'a IntrinsicInst,
    /// The declaration of the image the intrinsic names, if any.
    pub image: Option<&'a ImageDecl>,
    /// The id of that image.
    pub image_id: Option<ImageId>,
    /// The destination type, if the instruction has a destination.
    pub dest_type: Option<Type>,
    /// The lanes executing the instruction (bit `i` = lane `i`).
    pub exec_mask: u32,
    /// For each lane of the subgroup, the invocation it runs (as given to
    /// [`Interpreter::run`](crate::interp::Interpreter::run)).
    pub invocations: &'a [u32],
    pub(super) src_types: &'a [Type],
    pub(super) src_offsets: &'a [usize],
    pub(super) src_data: &'a [u64],
    pub(super) src_undef: &'a [bool],
    pub(super) src_bounds: &'a [Option<Interval>],
    pub(super) image_index: Option<usize>,
    pub(super) predicate: Option<usize>,
    pub(super) dest: &'a mut [u64],
    pub(super) dest_bounds: &'a mut Vec<Option<Interval>>,
    pub(super) track_bounds: bool,
}

impl<'a> IntrinsicCall<'a> {
    /// The opcode.
    pub fn op(&self) -> IntrinsicOp {
        self.intrinsic.op
    }

    /// The encoded value of an index of the intrinsic.
    pub fn index(&self, kind: IndexKind) -> Option<u32> {
        self.intrinsic.index(kind)
    }

    /// Number of lanes in the subgroup.
    pub fn num_lanes(&self) -> usize {
        self.invocations.len()
    }

    /// Whether lane `lane` executes the instruction.
    pub fn is_active(&self, lane: usize) -> bool {
        lane < MAX_LANES && self.exec_mask & (1 << lane) != 0
    }

    /// The active lanes, in ascending order.
    pub fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        let mask = self.exec_mask;
        (0..self.num_lanes()).filter(move |l| mask & (1 << l) != 0)
    }

    /// Number of sources, including the predicate of a predicated message.
    pub fn num_srcs(&self) -> usize {
        self.src_types.len()
    }

    /// Checks that the instruction has the sources its opcode and indices call for (plus
    /// an optional predicate, or the opcode's optional trailing sources such as the
    /// `lod` of `image_load`), so that an environment can index them without checking
    /// each one: a malformed instruction gives an error instead of a panic. Use
    /// [`IntrinsicCall::has_src`] before reading an optional source.
    pub fn check_sources(&self) -> Result<(), EnvError> {
        let op = self.op();
        let Some(expected) = op.srcs(&self.intrinsic.indices) else {
            return Err(EnvError::msg(format!(
                "the indices of `@{op}` do not decode, so its sources are unknown"
            )));
        };
        let n = expected.len() + usize::from(self.predicate.is_some());
        let optional = op.optional_srcs().len();
        let ok = if self.predicate.is_some() {
            self.num_srcs() == n
        } else {
            (n..=n + optional).contains(&self.num_srcs())
        };
        if !ok {
            let counts = op
                .srcs_description(&self.intrinsic.indices)
                .unwrap_or_default();
            return Err(EnvError::msg(format!(
                "`@{op}` takes {counts}, found {}",
                self.num_srcs()
            )));
        }
        Ok(())
    }

    /// Whether the instruction has source `i` (an optional trailing source may be left
    /// out; a predicate is not counted here).
    pub fn has_src(&self, i: usize) -> bool {
        i < self.num_srcs() && self.predicate != Some(i)
    }

    /// The type source `i` reads (its swizzle applied).
    pub fn src_type(&self, i: usize) -> Type {
        self.src_types[i]
    }

    /// The components source `i` reads in lane `lane` (swizzle applied). Inactive lanes
    /// read zeros.
    pub fn src(&self, i: usize, lane: usize) -> &[u64] {
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i] + lane * n;
        &self.src_data[start..start + n]
    }

    /// What source `i` reads in every lane: its components (swizzle applied) for lane
    /// 0, then lane 1, and so on (inactive lanes read zeros); a SIMD operand as a
    /// message's payload holds it.
    pub fn src_lanes(&self, i: usize) -> &'a [u64] {
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i];
        &self.src_data[start..start + n * self.invocations.len()]
    }

    /// Which components source `i` reads from an `undef` in lane `lane`
    /// ([`Config::track_undef`](crate::interp::Config::track_undef)); `None` when the interpreter does not track them.
    pub fn src_undef(&self, i: usize, lane: usize) -> Option<&[bool]> {
        if self.src_undef.is_empty() {
            return None;
        }
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i] + lane * n;
        Some(&self.src_undef[start..start + n])
    }

    /// The intervals of the components source `i` reads in lane `lane`
    /// ([`Config::track_bounds`](crate::interp::Config::track_bounds); `None` for a
    /// component that is exactly its value); `None` when the interpreter does not track
    /// them.
    pub fn src_bounds(&self, i: usize, lane: usize) -> Option<&[Option<Interval>]> {
        if self.src_bounds.is_empty() {
            return None;
        }
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i] + lane * n;
        Some(&self.src_bounds[start..start + n])
    }

    /// Whether the interpreter tracks intervals
    /// ([`Config::track_bounds`](crate::interp::Config::track_bounds)).
    pub fn tracks_bounds(&self) -> bool {
        self.track_bounds
    }

    /// Gives the destination components of lane `lane` the intervals of values they may
    /// have (see [`crate::bounds`]; missing ones are exact). Ignored when the
    /// interpreter does not track intervals.
    pub fn set_dest_bounds(&mut self, lane: usize, bounds: &[Option<Interval>]) {
        let n = self.dest_components();
        if n == 0 || self.dest_bounds.len() < lane * n + n {
            return;
        }
        for (d, b) in self.dest_bounds[lane * n..lane * n + n]
            .iter_mut()
            .zip(bounds.iter().chain(std::iter::repeat(&None)))
        {
            *d = *b;
        }
    }

    /// The first component source `i` reads in lane `lane`.
    pub fn src_scalar(&self, i: usize, lane: usize) -> u64 {
        self.src(i, lane)[0]
    }

    /// The descriptor index of an indexed image (`@imgs[%3]`) in lane `lane`; 0 for a
    /// non-indexed image.
    pub fn image_index(&self, lane: usize) -> u64 {
        match self.image_index {
            Some(off) => self.src_data[off + lane],
            None => 0,
        }
    }

    /// Whether the descriptor index of an indexed image derives from an `undef` in lane
    /// `lane` ([`Config::track_undef`](crate::interp::Config::track_undef); false when that is not tracked).
    pub fn image_index_undef(&self, lane: usize) -> bool {
        match self.image_index {
            Some(off) if !self.src_undef.is_empty() => self.src_undef[off + lane],
            _ => false,
        }
    }

    /// The source index of the predicate, for a predicated message.
    pub fn predicate_src(&self) -> Option<usize> {
        self.predicate
    }

    /// Whether lane `lane` is enabled by the predicate (true without a predicate).
    pub fn predicate(&self, lane: usize) -> bool {
        match self.predicate {
            Some(p) => self.src_scalar(p, lane) & 1 != 0,
            None => true,
        }
    }

    /// The active lanes whose predicate is true: the lanes a predicated message accesses
    /// memory for (the message's `ChEn` in the vISA pseudo-code).
    pub fn enabled_mask(&self) -> u32 {
        let mut m = 0;
        for lane in self.active_lanes() {
            if self.predicate(lane) {
                m |= 1 << lane;
            }
        }
        m
    }

    /// Components of the destination (0 without a destination).
    pub fn dest_components(&self) -> usize {
        self.dest_type.map_or(0, |t| t.num_components() as usize)
    }

    /// The destination components of lane `lane`, to be written. Values are masked to
    /// the destination's bit size after the call. Empty without a destination.
    pub fn dest_mut(&mut self, lane: usize) -> &mut [u64] {
        let n = self.dest_components();
        if n == 0 {
            return &mut [];
        }
        &mut self.dest[lane * n..lane * n + n]
    }

    /// The destination of every lane: its components for lane 0, then lane 1, and so
    /// on (see [`IntrinsicCall::dest_mut`]). Empty without a destination.
    pub fn dest_lanes_mut(&mut self) -> &mut [u64] {
        self.dest
    }

    /// Writes the destination of lane `lane` (extra values are ignored, missing ones
    /// stay 0).
    pub fn set_dest(&mut self, lane: usize, values: &[u64]) {
        let d = self.dest_mut(lane);
        let n = d.len().min(values.len());
        d[..n].copy_from_slice(&values[..n]);
    }
}
