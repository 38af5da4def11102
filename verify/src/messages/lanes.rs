//! A message's operands as plain per-lane data, and who sends it.

use crate::memory::AccessCtx;
use ir::interp::EnvError;
use ir::{Inst, IntrinsicOp, Span};

/// Who sends a message: what the access log records for each lane (the instruction, its
/// position, its opcode, and the invocation each lane runs).
#[derive(Copy, Clone, Debug)]
pub struct Sender<'a> {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// The operation, named as the IR's intrinsic.
    pub op: IntrinsicOp,
    /// The invocation lane `i` runs; its length is the message's SIMD width.
    pub invocations: &'a [u32],
}

impl Sender<'_> {
    /// The access context of lane `lane`.
    pub fn ctx(&self, lane: usize) -> AccessCtx {
        AccessCtx {
            inst: self.inst,
            span: self.span,
            op: self.op,
            lane: lane as u32,
            invocation: self.invocations.get(lane).copied().unwrap_or(0),
        }
    }

    /// The message's SIMD width.
    pub fn lanes(&self) -> usize {
        self.invocations.len()
    }

    /// The lanes of `mask` within the SIMD width, in ascending order.
    pub fn lanes_of(&self, mask: u32) -> impl Iterator<Item = usize> {
        (0..self.lanes().min(32)).filter(move |l| mask & (1 << l) != 0)
    }
}

/// One operand of a message for every lane: `comps` values per lane, lane after lane.
#[derive(Copy, Clone, Debug)]
pub struct Lanes<'a> {
    values: &'a [u64],
    comps: usize,
}

impl<'a> Lanes<'a> {
    /// The operand whose lane `l` holds `values[l·comps .. (l+1)·comps]`.
    pub fn new(values: &'a [u64], comps: usize) -> Lanes<'a> {
        Lanes { values, comps }
    }

    /// The values of lane `lane` (empty past the operand's lanes).
    pub fn lane(&self, lane: usize) -> &'a [u64] {
        self.values
            .get(lane * self.comps..(lane + 1) * self.comps)
            .unwrap_or(&[])
    }

    /// The first value of lane `lane` (0 when it has none).
    pub fn scalar(&self, lane: usize) -> u64 {
        self.lane(lane).first().copied().unwrap_or(0)
    }

    /// Values per lane.
    pub fn comps(&self) -> usize {
        self.comps
    }
}

/// A message's result for every lane: `comps` values per lane, lane after lane.
#[derive(Debug)]
pub struct LanesMut<'a> {
    values: &'a mut [u64],
    comps: usize,
}

impl<'a> LanesMut<'a> {
    /// The result whose lane `l` is `values[l·comps .. (l+1)·comps]`.
    pub fn new(values: &'a mut [u64], comps: usize) -> LanesMut<'a> {
        LanesMut { values, comps }
    }

    /// Writes the values of lane `lane` (extra values are ignored, missing ones are 0).
    pub fn set(&mut self, lane: usize, values: &[u64]) -> Result<(), EnvError> {
        let n = self.comps;
        let Some(d) = self.values.get_mut(lane * n..(lane + 1) * n) else {
            return Err(EnvError::msg(format!(
                "the message writes lane {lane}, beyond its destination"
            )));
        };
        for (i, slot) in d.iter_mut().enumerate() {
            *slot = values.get(i).copied().unwrap_or(0);
        }
        Ok(())
    }
}
