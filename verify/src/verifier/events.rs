//! The events the verifier pairs: every access of an image intrinsic or message as
//! one event per invocation, the bytes group async copies reached per workgroup, and
//! byte-range arithmetic.

use crate::exec::RunResult;
use crate::memory::{Access, AccessCtx, AccessKind, Space};
use ir::{Function, Inst, IntrinsicClass, IntrinsicOp, Span};
use std::collections::{BTreeMap, BTreeSet};

/// Whether `op` is a group async copy (compared per workgroup).
pub fn is_group_copy(op: IntrinsicOp) -> bool {
    matches!(
        op,
        IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d
    )
}

/// The spans of the group async copies of `func`.
pub fn copy_spans(func: &Function) -> BTreeSet<(u32, u32)> {
    func.insts_in_order()
        .into_iter()
        .filter(|&i| {
            func.inst(i)
                .as_intrinsic()
                .is_some_and(|x| is_group_copy(x.op))
        })
        .map(|i| {
            let s = func.inst_span(i);
            (s.line, s.col)
        })
        .collect()
}

/// The bytes each workgroup's group async copies reached, per (workgroup, copy span,
/// loads 0 / stores 1): merged ranges `(space, start, end)`. In the original, the
/// accesses the copies made; in the lowered run, those of the messages at a copy's
/// span. Invocations from `done` on are left out.
pub type CopyBytes = BTreeMap<(u32, (u32, u32), u8), Vec<(Space, u64, u64)>>;

pub fn copy_bytes(
    run: &RunResult,
    spans: &BTreeSet<(u32, u32)>,
    original: bool,
    wg_size: u64,
    done: u32,
) -> CopyBytes {
    let mut out: CopyBytes = BTreeMap::new();
    for a in &run.accesses {
        let span = (a.ctx.span.line, a.ctx.span.col);
        // A lowered shader may still hold a copy (verifying a shader against itself).
        let ours = is_group_copy(a.ctx.op)
            || (!original
                && a.ctx.op.info().class == IntrinsicClass::Message
                && spans.contains(&span));
        if !ours || !a.in_bounds || a.ctx.invocation >= done {
            continue;
        }
        let wg = (a.ctx.invocation as u64 / wg_size.max(1)) as u32;
        let kind = match a.kind {
            AccessKind::Load => 0,
            AccessKind::Store | AccessKind::Atomic => 1,
        };
        out.entry((wg, span, kind)).or_default().push((
            a.space,
            a.offset,
            a.offset + a.size as u64,
        ));
    }
    for ranges in out.values_mut() {
        *ranges = merge_ranges(std::mem::take(ranges));
    }
    out
}

/// The order spaces are listed in.
pub fn space_order(s: &Space) -> (u8, u64) {
    match *s {
        Space::Alloc(id) => (0, id.0 as u64),
        Space::Shared(wg) => (1, wg as u64),
        Space::PushConstants => (2, 0),
        Space::Scratch(wg) => (3, wg as u64),
    }
}

/// Ranges `(space, start, end)` sorted and merged where they overlap or touch.
pub fn merge_ranges(mut parts: Vec<(Space, u64, u64)>) -> Vec<(Space, u64, u64)> {
    parts.sort_by_key(|(s, o, _)| (space_order(s), *o));
    let mut merged: Vec<(Space, u64, u64)> = Vec::with_capacity(parts.len());
    for (s, lo, hi) in parts {
        match merged.last_mut() {
            Some((ls, _, lhi)) if *ls == s && lo <= *lhi => *lhi = (*lhi).max(hi),
            _ => merged.push((s, lo, hi)),
        }
    }
    merged
}

/// The parts of merged ranges `a` not covered by merged ranges `b`.
pub fn subtract_ranges(a: &[(Space, u64, u64)], b: &[(Space, u64, u64)]) -> Vec<(Space, u64, u64)> {
    let mut out = Vec::new();
    for &(s, lo, hi) in a {
        let mut cur = lo;
        for &(bs, blo, bhi) in b {
            if bs != s || bhi <= cur || blo >= hi {
                continue;
            }
            if blo > cur {
                out.push((s, cur, blo));
            }
            cur = cur.max(bhi);
            if cur >= hi {
                break;
            }
        }
        if cur < hi {
            out.push((s, cur, hi));
        }
    }
    out
}

/// The kind of memory access an intrinsic makes, if it is an image or message
/// intrinsic that accesses memory.
pub fn access_kind(op: IntrinsicOp) -> Option<AccessKind> {
    use IntrinsicOp::*;
    if let Some(m) = op.dp_msg() {
        return Some(if m.is_atomic() {
            AccessKind::Atomic
        } else if m.has_dest() {
            AccessKind::Load
        } else {
            AccessKind::Store
        });
    }
    Some(match op {
        ImageLoad | ImageBlockLoad | LscLoad | LscLoadQuad | LscLoadStrided | LscLoadBlock2d
        | SamplerLd | SamplerLdLz | SamplerLd2dmsW => AccessKind::Load,
        ImageStore | ImageBlockStore | LscStore | LscStoreQuad | LscStoreStrided
        | LscStoreBlock2d => AccessKind::Store,
        ImageAtomic | ImageAtomicSwap | LscAtomic => AccessKind::Atomic,
        _ => return None,
    })
}

pub fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "load",
        AccessKind::Store => "store",
        AccessKind::Atomic => "atomic",
    }
}

/// Where one access of one invocation went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Nowhere: out of bounds, or the lane's predicate was false.
    Nothing,
    /// Bytes `[offset, offset + size)` of a space.
    At {
        space: Space,
        offset: u64,
        size: u64,
    },
    /// Bytes that do not form one range: the maximal ranges `(space, offset, size)`, in
    /// order (block accesses, or elements with gaps between them).
    Ranges(Vec<(Space, u64, u64)>),
}

/// One access of one invocation.
#[derive(Clone, Debug)]
pub struct Event {
    /// The invocation.
    pub invocation: u32,
    /// The span of the instruction (the original's image intrinsic it stands for).
    pub span: (u32, u32),
    /// The instruction.
    pub inst: Inst,
    /// Load, store or atomic.
    pub kind: AccessKind,
    /// Where it went.
    pub hit: Hit,
    /// A subgroup-level block access (`image_block_*`, `lsc_*_block2d`).
    pub block: bool,
}

/// The events of a run: per traced call and active lane, in execution order, then
/// sorted (stably) by invocation and span. The block messages a block access was split
/// into are one event per lane: the bytes they reach together. Calls at the spans in
/// `skip` (the group async copies, compared per workgroup) are left out.
pub fn events(run: &RunResult, skip: &BTreeSet<(u32, u32)>) -> Vec<Event> {
    let mut out = Vec::new();
    let mut by_lane: Vec<(u32, usize)> = Vec::new();
    for call in &run.calls {
        let Some(kind) = access_kind(call.op) else {
            continue;
        };
        if skip.contains(&(call.span.line, call.span.col)) {
            continue;
        }
        by_lane.clear();
        let range = call.log_start.min(run.accesses.len())..call.log_end.min(run.accesses.len());
        for i in range {
            by_lane.push((run.accesses[i].ctx.lane, i));
        }
        by_lane.sort_by_key(|&(l, _)| l);
        let mut next = 0;
        for lane in 0..32u32 {
            if call.active & (1 << lane) == 0 {
                continue;
            }
            while next < by_lane.len() && by_lane[next].0 < lane {
                next += 1;
            }
            let start = next;
            while next < by_lane.len() && by_lane[next].0 == lane {
                next += 1;
            }
            let accesses = by_lane[start..next].iter().map(|&(_, i)| &run.accesses[i]);
            let enabled = call.enabled & (1 << lane) != 0;
            out.push(Event {
                invocation: call.first_invocation.wrapping_add(lane),
                span: (call.span.line, call.span.col),
                inst: call.inst,
                kind,
                hit: if enabled {
                    hit_of(accesses)
                } else {
                    Hit::Nothing
                },
                block: matches!(
                    call.op,
                    IntrinsicOp::ImageBlockLoad
                        | IntrinsicOp::ImageBlockStore
                        | IntrinsicOp::LscLoadBlock2d
                        | IntrinsicOp::LscStoreBlock2d
                ),
            });
        }
    }
    out.sort_by_key(|e| (e.invocation, e.span));
    let mut merged: Vec<Event> = Vec::with_capacity(out.len());
    for e in out {
        match merged.last_mut() {
            Some(m)
                if m.block
                    && e.block
                    && (m.invocation, m.span, m.kind) == (e.invocation, e.span, e.kind) =>
            {
                m.hit = merge_hits(&m.hit, &e.hit);
            }
            _ => merged.push(e),
        }
    }
    merged
}

/// The bytes two hits reach together.
pub fn merge_hits(a: &Hit, b: &Hit) -> Hit {
    let ranges = |h: &Hit| -> Vec<(Space, u64, u64)> {
        match h {
            Hit::Nothing => Vec::new(),
            Hit::At {
                space,
                offset,
                size,
            } => vec![(*space, *offset, *size)],
            Hit::Ranges(r) => r.clone(),
        }
    };
    let parts: Vec<Access> = ranges(a)
        .into_iter()
        .chain(ranges(b))
        .map(|(space, offset, size)| Access {
            kind: AccessKind::Load,
            space,
            offset,
            address: None,
            size: size as u32,
            in_bounds: true,
            ctx: AccessCtx {
                inst: Inst::from_u32(0),
                span: Span::UNKNOWN,
                op: IntrinsicOp::LscLoadBlock2d,
                lane: 0,
                invocation: 0,
            },
        })
        .collect();
    hit_of(parts.iter())
}

/// Where the accesses of one lane of one call went: the bytes they reached, merged into
/// maximal ranges (so that a texel read as one access or as several elements compares
/// equal); discarded accesses reach nothing.
pub fn hit_of<'a>(accesses: impl Iterator<Item = &'a Access>) -> Hit {
    let parts: Vec<(Space, u64, u64)> = accesses
        .filter(|a| a.in_bounds)
        .map(|a| (a.space, a.offset, a.offset + a.size as u64))
        .collect();
    if parts.is_empty() {
        return Hit::Nothing;
    }
    let merged = merge_ranges(parts);
    if merged.len() == 1 {
        let (space, lo, hi) = merged[0];
        return Hit::At {
            space,
            offset: lo,
            size: hi - lo,
        };
    }
    Hit::Ranges(
        merged
            .into_iter()
            .map(|(s, lo, hi)| (s, lo, hi - lo))
            .collect(),
    )
}
