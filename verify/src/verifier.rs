//! The lowering verifier: runs a shader before and after `lower-images` on the same
//! initial memory and checks that both did the same thing.
//!
//! The original runs with the image intrinsics at the reference level (the linear
//! reference of [`crate::image`]) on memory A; the lowered shader runs its messages with
//! the hardware's semantics ([`crate::message`]) on memory B. Both memories are built
//! from one [`Setup`], so they hold the same bytes at the same addresses. Then:
//!
//! 1. **Addresses.** Every memory access of an image intrinsic in the original, and of
//!    every message in the lowered shader, is an *event* of one invocation: a load, store
//!    or atomic that reached bytes `[offset, offset + size)` of an allocation, or nothing
//!    (out of bounds: a discarded image access or typed message, a message lane whose
//!    predicate is false). Lowered instructions inherit the span of the image intrinsic
//!    they replace, so the events of one invocation are paired by span and, within a
//!    span, by execution order. A pair must be the same kind of access and reach exactly
//!    the same bytes (for an untyped access: `base + texel_offset` of the texel the
//!    original accessed, its elements covering the texel exactly); an access where the
//!    original's was out of bounds, or none where it was in bounds, is a mismatch. The
//!    cleanup passes may delete a load whose value is unused, or merge it into an equal
//!    one: a span whose original events are all loads may have no lowered events.
//! 2. **Values.** The value each image intrinsic defines keeps its id through the
//!    lowering (the pass turns the intrinsic into the last instruction of its
//!    replacement), so its final value in every invocation is compared, bit for bit,
//!    wherever the lowered shader still defines it (copy propagation may fold it away).
//! 3. **Images.** Every image's bytes afterwards, per texel of every level and layer (so
//!    writes outside the view are caught too), reported as (image, level, layer, x, y)
//!    with both texels' bits and decoded values and the instructions that wrote them.
//! 4. **Buffers.** Every byte of every buffer, and of every global allocation (the
//!    memory the push constants' pointers point to, [`crate::setup`]).
//!
//! **Group async copies** are workgroup operations: the reference performs a copy once
//! per workgroup, the lowered code spreads it over the invocations (or subgroups, for
//! block messages). So their accesses are paired per workgroup instead: for every
//! workgroup and every `group_async_copy_*` of the original, the bytes its performances
//! loaded and the bytes they stored (global and shared together, merged into ranges)
//! must be exactly the bytes the lowered messages at the copy's span loaded and stored
//! in that workgroup. Each such set compared counts as one access. Shared memory itself
//! is not compared afterwards (it ends with its workgroup).
//!
//! A lowered run that fails (an access outside every allocation, an illegal message)
//! where the original ran is a mismatch too; the accesses and values of the
//! workgroups that ran before the failing one are still compared. Everything is deterministic: one run per
//! level, subgroups in order, mismatches sorted.

use crate::exec::{ExecConfig, ExecError, Executor, RunResult};
use crate::memory::{Access, AccessCtx, AccessKind, AllocId, ImageStorage, Memory, Space};
use crate::setup::{texel_positions, Setup, SetupError, TexelPos};
use crate::texel::TexelLayout;
use ir::{Function, Inst, IntrinsicClass, IntrinsicOp, Shader, Span, Value};
use lowering::{Device, LowerError, LowerOptions, LowerReport};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::rc::Rc;

/// What a mismatch is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MismatchKind {
    /// The lowered run failed where the original ran.
    Execution,
    /// An access reached other bytes than the original's (or reached memory where the
    /// original's was out of bounds, or the other way round, or was another kind).
    Address,
    /// A value an image intrinsic defines differs.
    Value,
    /// A texel (or a padding byte) of an image differs afterwards.
    ImageTexel,
    /// A buffer byte differs afterwards.
    BufferByte,
}

impl MismatchKind {
    /// A short name: `execution`, `address`, `value`, `image texel`, `buffer byte`.
    pub fn name(self) -> &'static str {
        match self {
            MismatchKind::Execution => "execution",
            MismatchKind::Address => "address",
            MismatchKind::Value => "value",
            MismatchKind::ImageTexel => "image texel",
            MismatchKind::BufferByte => "buffer byte",
        }
    }
}

impl fmt::Display for MismatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One difference between the original and the lowered run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// What differs.
    pub kind: MismatchKind,
    /// The invocation (linear index in the dispatch), where one is concerned.
    pub invocation: Option<u32>,
    /// The span of the instruction concerned (the original's image intrinsic; for
    /// texels, the instruction that wrote it).
    pub span: Option<Span>,
    /// The printed IR of that instruction in the original (or, failing that, in the
    /// lowered shader, prefixed with `lowered: `).
    pub instruction: Option<String>,
    /// Where: the texel, the buffer byte, the value.
    pub location: String,
    /// What the original did or holds.
    pub expected: String,
    /// What the lowered shader did or holds.
    pub actual: String,
    /// More context (who wrote a texel in each run), possibly empty.
    pub note: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} mismatch", self.kind)?;
        if !self.location.is_empty() {
            write!(f, " at {}", self.location)?;
        }
        if let Some(i) = self.invocation {
            write!(f, ", invocation {i}")?;
        }
        writeln!(f)?;
        if let Some(text) = &self.instruction {
            match self.span {
                Some(s) => writeln!(f, "    instruction: {s}: `{text}`")?,
                None => writeln!(f, "    instruction: `{text}`")?,
            }
        }
        writeln!(f, "    expected: {}", self.expected)?;
        writeln!(f, "    actual:   {}", self.actual)?;
        if !self.note.is_empty() {
            writeln!(f, "    {}", self.note)?;
        }
        Ok(())
    }
}

/// The outcome of a verification.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Invocations run (per level).
    pub invocations: u32,
    /// Accesses checked: pairs of original and lowered accesses compared (image accesses
    /// against typed messages and untyped addresses).
    pub accesses: u64,
    /// Values of image intrinsics compared (per invocation).
    pub values: u64,
    /// Texels compared afterwards.
    pub texels: u64,
    /// Buffer bytes compared afterwards.
    pub buffer_bytes: u64,
    /// Total number of mismatches found.
    pub mismatch_count: usize,
    /// The number of mismatches of each kind found.
    pub by_kind: BTreeMap<MismatchKind, usize>,
    /// Some of the mismatches (as many as the setup's `report_limit`; every kind found
    /// is represented), sorted by kind (execution, address, value, image texel, buffer
    /// byte), then in the order found.
    pub mismatches: Vec<Mismatch>,
}

impl Report {
    /// Whether both runs agreed.
    pub fn passed(&self) -> bool {
        self.mismatch_count == 0
    }

    /// Whether a mismatch of `kind` was found.
    pub fn has(&self, kind: MismatchKind) -> bool {
        self.by_kind.contains_key(&kind)
    }

    /// The one-line summary: `verified: I invocations, A accesses, M mismatches`.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {} invocations, {} accesses, {} mismatches",
            if self.passed() {
                "verified"
            } else {
                "verification failed"
            },
            self.invocations,
            self.accesses,
            self.mismatch_count
        );
        if !self.passed() {
            let kinds: Vec<String> = self
                .by_kind
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            s.push_str(&format!(" ({})", kinds.join(", ")));
        }
        s
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        for m in &self.mismatches {
            write!(f, "{m}")?;
        }
        if self.mismatches.len() < self.mismatch_count {
            writeln!(
                f,
                "... and {} more mismatches",
                self.mismatch_count - self.mismatches.len()
            )?;
        }
        Ok(())
    }
}

/// Why a verification could not be carried out (as opposed to finding mismatches).
#[derive(Debug)]
pub enum VerifyError {
    /// The setup cannot be built for the shader.
    Setup(SetupError),
    /// The lowering (`lower-images` or `lower-async-copies`) failed (from
    /// [`lower_and_verify`]).
    Lower(LowerError),
    /// The cleanup after the lowering failed, or its output is invalid.
    Cleanup(String),
    /// The original shader failed to run: the setup does not suit it.
    Original(ExecError),
    /// The two shaders cannot be compared (different images, no entry point).
    Shaders(String),
    /// Several image or message intrinsics of the original share a span, so their
    /// accesses cannot be told apart; [`stamp_spans`] gives every instruction its own.
    AmbiguousSpans(Vec<Span>),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Setup(e) => write!(f, "cannot set up the run: {e}"),
            VerifyError::Lower(e) => write!(f, "{e}"),
            VerifyError::Cleanup(e) => write!(f, "the cleanup after lowering failed: {e}"),
            VerifyError::Original(e) => write!(f, "the original shader failed: {e}"),
            VerifyError::Shaders(e) => write!(f, "the shaders cannot be compared: {e}"),
            VerifyError::AmbiguousSpans(spans) => {
                let s: Vec<String> = spans.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "image accesses of the original share the span(s) {}, so the lowered \
                     accesses cannot be matched to them (stamp the spans first)",
                    s.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Setup(e) => Some(e),
            VerifyError::Lower(e) => Some(e),
            VerifyError::Original(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SetupError> for VerifyError {
    fn from(e: SetupError) -> VerifyError {
        VerifyError::Setup(e)
    }
}

/// A shader before and after `lower-images` and `cleanup`.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The input (with stamped spans if its image accesses shared spans).
    pub original: Shader,
    /// The lowered, cleaned-up shader.
    pub lowered: Shader,
    /// What the lowering did, with the surfaces to bind.
    pub report: LowerReport,
}

/// Gives every instruction of every function its own span (`n:1`, numbered in program
/// order from 1), so that the verifier can pair the accesses of programmatically built
/// shaders, whose spans are all unknown.
pub fn stamp_spans(shader: &mut Shader) {
    let mut n = 1u32;
    for func in &mut shader.functions {
        for inst in func.insts_in_order() {
            func.set_inst_span(inst, Span::new(n, 1));
            n += 1;
        }
    }
}

/// The spans shared by several image, message or group async copy intrinsics of the
/// entry function.
pub fn ambiguous_spans(shader: &Shader) -> Vec<Span> {
    let Some(func) = shader.entry() else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut dup = BTreeSet::new();
    for inst in func.insts_in_order() {
        let Some(intr) = func.inst(inst).as_intrinsic() else {
            continue;
        };
        if access_kind(intr.op).is_none() && !is_group_copy(intr.op) {
            continue;
        }
        let s = func.inst_span(inst);
        if !seen.insert((s.line, s.col)) {
            dup.insert((s.line, s.col));
        }
    }
    dup.into_iter().map(|(l, c)| Span::new(l, c)).collect()
}

/// Lowers `shader` for `device` with `lowering::lower_shader` (the pipeline of `ir-opt
/// -O`), stamping spans first when the shader's image accesses share spans.
pub fn lower(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
) -> Result<Lowered, VerifyError> {
    let mut original = shader.clone();
    if !ambiguous_spans(&original).is_empty() {
        stamp_spans(&mut original);
    }
    let mut lowered = original.clone();
    let report = lowering::lower_shader(&mut lowered, device, options)
        .map_err(|mut errors| VerifyError::Lower(errors.swap_remove(0)))?;
    Ok(Lowered {
        original,
        lowered,
        report,
    })
}

/// Lowers `shader` ([`lower`]) and verifies the result on `setup` (whose bindings are
/// replaced by the lowering's).
pub fn lower_and_verify(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
    setup: &Setup,
) -> Result<Report, VerifyError> {
    let l = lower(shader, device, options)?;
    let mut setup = setup.clone();
    setup.bindings = l.report.bindings.clone();
    verify(&l.original, &l.lowered, device, &setup)
}

/// Verifies that `lowered` (derived from `original` by the lowering and cleanup passes)
/// does what `original` does, on `setup` (see the module documentation). Mismatches are
/// in the report; an error means the verification could not be carried out.
pub fn verify(
    original: &Shader,
    lowered: &Shader,
    device: &Device,
    setup: &Setup,
) -> Result<Report, VerifyError> {
    let ofunc = original
        .entry()
        .ok_or_else(|| VerifyError::Shaders("the original has no function `main`".into()))?;
    let lfunc = lowered
        .entry()
        .ok_or_else(|| VerifyError::Shaders("the lowered shader has no function `main`".into()))?;
    check_images(original, lowered)?;
    if original.local_size != lowered.local_size {
        return Err(VerifyError::Shaders(format!(
            "the workgroup sizes differ: {:?} and {:?}",
            original.local_size, lowered.local_size
        )));
    }
    let dup = ambiguous_spans(original);
    if !dup.is_empty() {
        return Err(VerifyError::AmbiguousSpans(dup));
    }
    let mem_a = setup.build_memory(original, device)?;
    let mem_b = mem_a.clone();

    // The values image intrinsics define, where the lowered shader still defines them
    // with the same type.
    let mut record = Vec::new();
    for inst in ofunc.insts_in_order() {
        let data = ofunc.inst(inst);
        let Some(intr) = data.as_intrinsic() else {
            continue;
        };
        if intr.op.info().class != IntrinsicClass::Image {
            continue;
        }
        let Some(v) = data.dest else { continue };
        if v.index() < lfunc.num_value_ids()
            && lfunc.is_value_live(v)
            && lfunc.value_type(v) == ofunc.value_type(v)
        {
            record.push((v, inst));
        }
    }
    let values: Vec<Value> = record.iter().map(|(v, _)| *v).collect();
    let mut config = ExecConfig {
        subgroup_size: setup.subgroup_size,
        log_accesses: true,
        trace_calls: true,
        ..ExecConfig::default()
    };
    // Zeroing 64 KiB of shared memory per workgroup is a large part of a small run;
    // shaders that never touch it get none.
    if !uses_shared_memory(original) && !uses_shared_memory(lowered) {
        config.shared_size = 0;
    }
    let mut ex_a = Executor::with_config(original, config);
    ex_a.memory = mem_a;
    let run_a = ex_a
        .run_recording(setup.grid, &values)
        .map_err(VerifyError::Original)?;
    let mut ex_b = Executor::with_config(lowered, config);
    ex_b.memory = mem_b;
    let (run_b, failure) = ex_b.run_partial(setup.grid, &values);

    let mut cmp = Comparison {
        original,
        lowered,
        ofunc,
        lfunc,
        mem_a: &ex_a.memory,
        run_a: &run_a,
        images: RefCell::new(HashMap::new()),
        report: Report {
            invocations: run_a.invocations,
            ..Report::default()
        },
        found: Vec::new(),
    };
    match &failure {
        Some(e) => {
            // What ran before the failing workgroup is still compared: the first wrong
            // address usually comes before the access that leaves memory. (The
            // subgroups of a workgroup run in step between barriers, so only earlier
            // workgroups have certainly finished.)
            let done = match e {
                ExecError::Run { workgroup, .. } | ExecError::Workgroup { workgroup, .. } => {
                    let [x, y, z] = workgroup.map(|c| c as u64);
                    let [nx, ny, _] = setup.grid.map(|c| c as u64);
                    let linear = x + nx * (y + ny * z);
                    (linear * original.workgroup_invocations()).min(u32::MAX as u64) as u32
                }
                _ => 0,
            };
            cmp.execution_failure(e);
            cmp.addresses(&run_b, done);
            cmp.copies(&run_b, done);
            cmp.values(&run_b, &record, done);
        }
        None => {
            cmp.addresses(&run_b, u32::MAX);
            cmp.copies(&run_b, u32::MAX);
            cmp.values(&run_b, &record, u32::MAX);
            cmp.memories(&ex_b.memory, &run_b);
        }
    }
    Ok(cmp.finish(setup.report_limit))
}

/// Whether any function of `shader` may access shared local memory.
fn uses_shared_memory(shader: &Shader) -> bool {
    shader.functions.iter().any(|f| {
        f.insts_in_order().into_iter().any(|i| {
            f.inst(i).as_intrinsic().is_some_and(|x| {
                matches!(
                    x.op,
                    IntrinsicOp::LoadShared
                        | IntrinsicOp::StoreShared
                        | IntrinsicOp::GroupAsyncCopy2d2d
                        | IntrinsicOp::GroupAsyncCopy3d3d
                ) || (x.op.info().class == IntrinsicClass::Message
                    && ir::lsc::LscDesc::from_indices(&x.indices)
                        .is_ok_and(|d| d.sfid == ir::lsc::Sfid::Slm))
            })
        })
    })
}

/// Checks that both shaders declare the same images.
fn check_images(original: &Shader, lowered: &Shader) -> Result<(), VerifyError> {
    if original.images.len() != lowered.images.len() {
        return Err(VerifyError::Shaders(format!(
            "the original declares {} images, the lowered shader {}",
            original.images.len(),
            lowered.images.len()
        )));
    }
    for (a, b) in original.images.iter().zip(&lowered.images) {
        if a.name != b.name
            || a.binding != b.binding
            || a.count != b.count
            || a.dim != b.dim
            || a.arrayed != b.arrayed
            || a.format != b.format
        {
            return Err(VerifyError::Shaders(format!(
                "image @{} of the original is declared differently in the lowered shader \
                 (@{})",
                a.name, b.name
            )));
        }
    }
    Ok(())
}

/// Whether `op` is a group async copy (compared per workgroup).
fn is_group_copy(op: IntrinsicOp) -> bool {
    matches!(
        op,
        IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d
    )
}

/// The spans of the group async copies of `func`.
fn copy_spans(func: &Function) -> BTreeSet<(u32, u32)> {
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
type CopyBytes = BTreeMap<(u32, (u32, u32), u8), Vec<(Space, u64, u64)>>;

fn copy_bytes(
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
fn space_order(s: &Space) -> (u8, u64) {
    match *s {
        Space::Alloc(id) => (0, id.0 as u64),
        Space::Shared(wg) => (1, wg as u64),
        Space::PushConstants => (2, 0),
    }
}

/// Ranges `(space, start, end)` sorted and merged where they overlap or touch.
fn merge_ranges(mut parts: Vec<(Space, u64, u64)>) -> Vec<(Space, u64, u64)> {
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
fn subtract_ranges(a: &[(Space, u64, u64)], b: &[(Space, u64, u64)]) -> Vec<(Space, u64, u64)> {
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
fn access_kind(op: IntrinsicOp) -> Option<AccessKind> {
    use IntrinsicOp::*;
    Some(match op {
        ImageLoad | ImageBlockLoad | LscLoad | LscLoadQuad | LscLoadStrided | LscLoadBlock2d
        | SamplerLd | SamplerLdLz => AccessKind::Load,
        ImageStore | ImageBlockStore | LscStore | LscStoreQuad | LscStoreStrided
        | LscStoreBlock2d => AccessKind::Store,
        ImageAtomic | ImageAtomicSwap | LscAtomic => AccessKind::Atomic,
        _ => return None,
    })
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "load",
        AccessKind::Store => "store",
        AccessKind::Atomic => "atomic",
    }
}

/// Where one access of one invocation went.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Hit {
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
struct Event {
    invocation: u32,
    span: (u32, u32),
    inst: Inst,
    kind: AccessKind,
    hit: Hit,
    /// A subgroup-level block access (`image_block_*`, `lsc_*_block2d`).
    block: bool,
}

/// The events of a run: per traced call and active lane, in execution order, then
/// sorted (stably) by invocation and span. The block messages a block access was split
/// into are one event per lane: the bytes they reach together. Calls at the spans in
/// `skip` (the group async copies, compared per workgroup) are left out.
fn events(run: &RunResult, skip: &BTreeSet<(u32, u32)>) -> Vec<Event> {
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
fn merge_hits(a: &Hit, b: &Hit) -> Hit {
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
fn hit_of<'a>(accesses: impl Iterator<Item = &'a Access>) -> Hit {
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

/// Facts about a bound image for describing its bytes.
struct ImageFacts {
    label: String,
    texel_bytes: usize,
    layout: Option<TexelLayout>,
    /// Texel start offset -> position.
    positions: HashMap<u64, TexelPos>,
    /// The view: base level, first layer, layer count (None for buffers).
    view: Option<(u32, u32, u32)>,
    is_3d: bool,
}

struct Comparison<'a> {
    original: &'a Shader,
    lowered: &'a Shader,
    ofunc: &'a Function,
    lfunc: &'a Function,
    mem_a: &'a Memory,
    run_a: &'a RunResult,
    images: RefCell<HashMap<AllocId, Rc<ImageFacts>>>,
    report: Report,
    found: Vec<Mismatch>,
}

impl Comparison<'_> {
    fn push(&mut self, m: Mismatch) {
        self.found.push(m);
    }

    fn finish(mut self, limit: usize) -> Report {
        self.report.mismatch_count = self.found.len();
        for m in &self.found {
            *self.report.by_kind.entry(m.kind).or_insert(0) += 1;
        }
        // Stable: within a kind, in the order found (deterministic).
        self.found.sort_by_key(|m| m.kind);
        // Every kind found gets an equal share of the list first, so one kind's flood
        // does not hide the others; the rest of the list is filled in order.
        let share = (limit / self.report.by_kind.len().max(1)).max(1);
        let mut keep = vec![false; self.found.len()];
        let mut start = 0;
        let mut left = limit;
        for &n in self.report.by_kind.values() {
            for k in keep.iter_mut().skip(start).take(n.min(share).min(left)) {
                *k = true;
                left -= 1;
            }
            start += n;
        }
        for k in keep.iter_mut() {
            if left == 0 {
                break;
            }
            if !*k {
                *k = true;
                left -= 1;
            }
        }
        let mut keep = keep.into_iter();
        self.found.retain(|_| keep.next().unwrap_or(false));
        self.report.mismatches = self.found;
        self.report
    }

    /// The original's image or message intrinsic at `span`, printed.
    fn original_text(&self, span: Span) -> Option<String> {
        let func = self.ofunc;
        func.insts_in_order()
            .into_iter()
            .find(|&i| {
                func.inst_span(i) == span
                    && func.inst(i).as_intrinsic().is_some_and(|x| {
                        access_kind(x.op).is_some()
                            || is_group_copy(x.op)
                            || x.op.info().class == IntrinsicClass::Image
                    })
            })
            .map(|i| {
                ir::print::print_inst(self.original, func, i)
                    .trim()
                    .to_string()
            })
    }

    /// The instruction text for a span: the original's, else the lowered `inst`'s.
    fn text_for(&self, span: Span, lowered_inst: Option<Inst>) -> Option<String> {
        self.original_text(span).or_else(|| {
            lowered_inst.map(|i| {
                format!(
                    "lowered: {}",
                    ir::print::print_inst(self.lowered, self.lfunc, i).trim()
                )
            })
        })
    }

    fn execution_failure(&mut self, e: &ExecError) {
        let (span, inst, invocation) = match e {
            ExecError::Run {
                first_invocation,
                error,
                ..
            } => (
                Some(error.span),
                error.inst,
                Some(first_invocation + error.lane.unwrap_or(0)),
            ),
            _ => (None, None, None),
        };
        let instruction = match span {
            Some(s) => self.text_for(s, inst),
            None => None,
        };
        self.push(Mismatch {
            kind: MismatchKind::Execution,
            invocation,
            span,
            instruction,
            location: "the lowered run".into(),
            expected: "the run completes, as the original's does".into(),
            actual: e.to_string(),
            note: String::new(),
        });
    }

    // ----- addresses ---------------------------------------------------------------

    /// Compares the accesses of the invocations below `done`.
    fn addresses(&mut self, run_b: &RunResult, done: u32) {
        let skip = copy_spans(self.ofunc);
        let mut ea = events(self.run_a, &skip);
        let mut eb = events(run_b, &skip);
        ea.retain(|e| e.invocation < done);
        eb.retain(|e| e.invocation < done);
        let (mut i, mut j) = (0, 0);
        while i < ea.len() || j < eb.len() {
            let key = match (ea.get(i), eb.get(j)) {
                (Some(a), Some(b)) => (a.invocation, a.span).min((b.invocation, b.span)),
                (Some(a), None) => (a.invocation, a.span),
                (None, Some(b)) => (b.invocation, b.span),
                (None, None) => break,
            };
            let i0 = i;
            while i < ea.len() && (ea[i].invocation, ea[i].span) == key {
                i += 1;
            }
            let j0 = j;
            while j < eb.len() && (eb[j].invocation, eb[j].span) == key {
                j += 1;
            }
            self.compare_group(&ea[i0..i], &eb[j0..j]);
        }
    }

    /// Compares, per workgroup, the bytes the group async copies loaded and stored
    /// (the workgroups whose invocations are all below `done`).
    fn copies(&mut self, run_b: &RunResult, done: u32) {
        let spans = copy_spans(self.ofunc);
        if spans.is_empty() {
            return;
        }
        let wg_size = self.original.workgroup_invocations();
        let a = copy_bytes(self.run_a, &spans, true, wg_size, done);
        let b = copy_bytes(run_b, &spans, false, wg_size, done);
        let keys: BTreeSet<_> = a.keys().chain(b.keys()).copied().collect();
        for key in keys {
            let (wg, span, kind) = key;
            let empty = Vec::new();
            let x = a.get(&key).unwrap_or(&empty);
            let y = b.get(&key).unwrap_or(&empty);
            self.report.accesses += 1;
            if x == y {
                continue;
            }
            let span = Span::new(span.0, span.1);
            let what = if kind == 0 { "loads" } else { "stores" };
            let only_a = subtract_ranges(x, y);
            let only_b = subtract_ranges(y, x);
            let mut note = Vec::new();
            if !only_a.is_empty() {
                note.push(format!(
                    "only the original reached {}",
                    self.describe_ranges(&only_a)
                ));
            }
            if !only_b.is_empty() {
                note.push(format!(
                    "only the lowered code reached {}",
                    self.describe_ranges(&only_b)
                ));
            }
            let m = Mismatch {
                kind: MismatchKind::Address,
                invocation: Some((wg as u64 * wg_size).min(u32::MAX as u64) as u32),
                span: Some(span),
                instruction: self.text_for(span, None),
                location: format!("the group async copy's {what} in workgroup {wg}"),
                expected: format!("{what}: {}", self.describe_ranges(x)),
                actual: format!("{what}: {}", self.describe_ranges(y)),
                note: note.join("; "),
            };
            self.push(m);
        }
    }

    /// Byte ranges `(space, start, end)` for a report (the first four).
    fn describe_ranges(&self, ranges: &[(Space, u64, u64)]) -> String {
        if ranges.is_empty() {
            return "nothing".into();
        }
        let p: Vec<String> = ranges
            .iter()
            .take(4)
            .map(|&(s, lo, hi)| format!("bytes {lo:#x}..{hi:#x} of {}", self.space_name(s)))
            .collect();
        format!(
            "{} range{}: {}{}",
            ranges.len(),
            if ranges.len() == 1 { "" } else { "s" },
            p.join(", "),
            if ranges.len() > 4 { ", ..." } else { "" }
        )
    }

    fn compare_group(&mut self, a: &[Event], b: &[Event]) {
        // The cleanup deletes unused loads and merges equal ones.
        if b.is_empty() && a.iter().all(|e| e.kind == AccessKind::Load) {
            return;
        }
        let first = a.first().or(b.first()).expect("a group is not empty");
        let span = Span::new(first.span.0, first.span.1);
        let invocation = first.invocation;
        if a.len() != b.len() {
            let lowered_inst = b.first().map(|e| e.inst);
            let describe = |es: &[Event], me: &Self| -> String {
                let parts: Vec<String> = es
                    .iter()
                    .map(|e| format!("{}: {}", kind_name(e.kind), me.describe_hit(&e.hit)))
                    .collect();
                if parts.is_empty() {
                    "no access".into()
                } else {
                    format!("{} access(es): {}", parts.len(), parts.join("; "))
                }
            };
            let m = Mismatch {
                kind: MismatchKind::Address,
                invocation: Some(invocation),
                span: Some(span),
                instruction: self.text_for(span, lowered_inst),
                location: String::new(),
                expected: describe(a, self),
                actual: describe(b, self),
                note: String::new(),
            };
            self.push(m);
            return;
        }
        for (x, y) in a.iter().zip(b) {
            self.report.accesses += 1;
            if x.kind == y.kind && x.hit == y.hit {
                continue;
            }
            let m = Mismatch {
                kind: MismatchKind::Address,
                invocation: Some(invocation),
                span: Some(span),
                instruction: self.text_for(span, Some(y.inst)),
                location: String::new(),
                expected: format!("{}: {}", kind_name(x.kind), self.describe_hit(&x.hit)),
                actual: format!("{}: {}", kind_name(y.kind), self.describe_hit(&y.hit)),
                note: String::new(),
            };
            self.push(m);
        }
    }

    fn facts(&self, alloc: AllocId) -> Option<Rc<ImageFacts>> {
        if let Some(f) = self.images.borrow().get(&alloc) {
            return Some(f.clone());
        }
        let (_, b) = self.mem_a.images().find(|(_, b)| b.alloc == alloc)?;
        let tb = b.state_texel_bytes();
        let positions = texel_positions(&b.storage, tb, b.bit6_swizzle)
            .into_iter()
            .map(|p| (p.offset, p))
            .collect();
        let (view, is_3d) = match &b.storage {
            ImageStorage::Surface { surface, view } => (
                Some((view.base_level, view.base_layer, view.layer_count)),
                surface.desc().dim == tiling::SurfDim::D3,
            ),
            ImageStorage::Buffer { .. } => (None, false),
        };
        let name = &self.mem_a.allocation(alloc).name;
        let f = Rc::new(ImageFacts {
            label: name.strip_prefix("image ").unwrap_or(name).to_string(),
            texel_bytes: tb,
            layout: TexelLayout::from_ir(b.logical_format).ok(),
            positions,
            view,
            is_3d,
        });
        self.images.borrow_mut().insert(alloc, f.clone());
        Some(f)
    }

    fn space_name(&self, space: Space) -> String {
        match space {
            Space::Alloc(id) => self.mem_a.allocation(id).name.clone(),
            Space::Shared(wg) => format!("shared memory of workgroup {wg}"),
            Space::PushConstants => "the push constants".into(),
        }
    }

    /// "texel (x, y) of layer z, level l of @img (byte 0x..)" or "bytes a..b of ssbo 0".
    fn describe_range(&self, space: Space, offset: u64, size: u64) -> String {
        if let Space::Alloc(id) = space {
            if let Some(f) = self.facts(id) {
                let tb = f.texel_bytes as u64;
                let start = offset - offset % tb;
                if let Some(p) = f.positions.get(&start) {
                    let whole = start == offset && size == tb;
                    let what = if whole {
                        "texel".to_string()
                    } else {
                        format!("{size} bytes at +{} in texel", offset - start)
                    };
                    return format!(
                        "{what} {} of {} (byte {offset:#x})",
                        position_text(&f, p),
                        f.label
                    );
                }
                return format!(
                    "{size} bytes at byte {offset:#x} of {}, which is not a texel",
                    f.label
                );
            }
        }
        format!(
            "{size} bytes at byte {offset:#x} of {}",
            self.space_name(space)
        )
    }

    fn describe_hit(&self, hit: &Hit) -> String {
        match hit {
            Hit::Nothing => "no access (out of bounds, or the lane predicated off)".into(),
            Hit::At {
                space,
                offset,
                size,
            } => self.describe_range(*space, *offset, *size),
            Hit::Ranges(parts) => {
                let p: Vec<String> = parts
                    .iter()
                    .take(4)
                    .map(|&(s, o, n)| self.describe_range(s, o, n))
                    .collect();
                format!(
                    "{} separate ranges: {}{}",
                    parts.len(),
                    p.join(", "),
                    if parts.len() > 4 { ", ..." } else { "" }
                )
            }
        }
    }

    // ----- values ------------------------------------------------------------------

    /// Compares the values of the invocations below `done`.
    fn values(&mut self, run_b: &RunResult, record: &[(Value, Inst)], done: u32) {
        for &(v, inst) in record {
            let (Some(a), Some(b)) = (self.run_a.values.get(&v), run_b.values.get(&v)) else {
                continue;
            };
            for (invocation, (x, y)) in a.iter().zip(b).enumerate() {
                if invocation as u64 >= done as u64 || (x.is_none() && y.is_none()) {
                    continue;
                }
                self.report.values += 1;
                if x == y {
                    continue;
                }
                let ty = self.ofunc.value_type(v);
                let show = |c: &Option<Vec<u64>>| match c {
                    None => "undefined (the instruction did not run)".to_string(),
                    Some(c) => format_components(c, ty.bit_size()),
                };
                let span = self.ofunc.inst_span(inst);
                let m = Mismatch {
                    kind: MismatchKind::Value,
                    invocation: Some(invocation as u32),
                    span: Some(span),
                    instruction: Some(
                        ir::print::print_inst(self.original, self.ofunc, inst)
                            .trim()
                            .to_string(),
                    ),
                    location: format!("{v}"),
                    expected: show(x),
                    actual: show(y),
                    note: String::new(),
                };
                self.push(m);
            }
        }
    }

    // ----- memories afterwards -----------------------------------------------------

    fn memories(&mut self, mem_b: &Memory, run_b: &RunResult) {
        let image_allocs: Vec<AllocId> = self.mem_a.images().map(|(_, b)| b.alloc).collect();
        for &alloc in &image_allocs {
            self.compare_image(alloc, mem_b, run_b);
        }
        for (n, a) in self.mem_a.allocations().iter().enumerate() {
            let id = AllocId(n as u32);
            if image_allocs.contains(&id) {
                continue;
            }
            let b = &mem_b.allocation(id).bytes;
            self.report.buffer_bytes += a.bytes.len() as u64;
            if &a.bytes == b {
                continue;
            }
            // Report differing dwords.
            let mut k = 0;
            while k < a.bytes.len() {
                let end = (k - k % 4 + 4).min(a.bytes.len());
                let lo = k - k % 4;
                if a.bytes[lo..end] != b[lo..end] {
                    let (span, inst_text, invocation, note) =
                        self.writers(Space::Alloc(id), lo as u64, (end - lo) as u64, run_b);
                    let m = Mismatch {
                        kind: MismatchKind::BufferByte,
                        invocation,
                        span,
                        instruction: inst_text,
                        location: format!("{} bytes {lo:#x}..{end:#x}", a.name),
                        expected: hex_le(&a.bytes[lo..end]),
                        actual: hex_le(&b[lo..end]),
                        note,
                    };
                    self.push(m);
                }
                k = end;
            }
        }
    }

    fn compare_image(&mut self, alloc: AllocId, mem_b: &Memory, run_b: &RunResult) {
        let a = &self.mem_a.allocation(alloc).bytes;
        let b = &mem_b.allocation(alloc).bytes;
        let Some(f) = self.facts(alloc) else { return };
        let tb = f.texel_bytes;
        self.report.texels += f.positions.len() as u64;
        if a == b {
            return;
        }
        let mut k = 0usize;
        while k < a.len() {
            if a[k] == b[k] {
                k += 1;
                continue;
            }
            let start = k - k % tb;
            let end = (start + tb).min(a.len());
            let pos = f.positions.get(&(start as u64)).copied();
            let (location, expected, actual) = match pos {
                Some(p) => (
                    format!("{} texel {}", f.label, position_text(&f, &p)),
                    texel_text(&f, &a[start..end]),
                    texel_text(&f, &b[start..end]),
                ),
                None => (
                    format!("{} bytes {start:#x}..{end:#x}, between texels", f.label),
                    hex_le(&a[start..end]),
                    hex_le(&b[start..end]),
                ),
            };
            let (span, inst_text, invocation, note) = self.writers(
                Space::Alloc(alloc),
                start as u64,
                (end - start) as u64,
                run_b,
            );
            let m = Mismatch {
                kind: MismatchKind::ImageTexel,
                invocation,
                span,
                instruction: inst_text,
                location,
                expected,
                actual,
                note,
            };
            self.push(m);
            k = end;
        }
    }

    /// The last writes of `[offset, offset + size)` in both runs: the span, text and
    /// invocation of the most relevant one (the original's, else the lowered one's), and
    /// a note naming both.
    fn writers(
        &self,
        space: Space,
        offset: u64,
        size: u64,
        run_b: &RunResult,
    ) -> (Option<Span>, Option<String>, Option<u32>, String) {
        let wa = last_writer(&self.run_a.accesses, space, offset, size);
        let wb = last_writer(&run_b.accesses, space, offset, size);
        let who = |c: Option<AccessCtx>| match c {
            Some(c) => format!("`@{}` at {}, invocation {}", c.op, c.span, c.invocation),
            None => "nothing".to_string(),
        };
        let note = format!(
            "last written by {} in the original, {} in the lowered run",
            who(wa),
            who(wb)
        );
        match (wa, wb) {
            (Some(c), _) => (
                Some(c.span),
                self.text_for(c.span, None),
                Some(c.invocation),
                note,
            ),
            (None, Some(c)) => (
                Some(c.span),
                self.text_for(c.span, Some(c.inst)),
                Some(c.invocation),
                note,
            ),
            (None, None) => (None, None, None, note),
        }
    }
}

/// The last store or atomic overlapping `[offset, offset + size)` of `space`.
fn last_writer(accesses: &[Access], space: Space, offset: u64, size: u64) -> Option<AccessCtx> {
    accesses
        .iter()
        .rev()
        .find(|a| {
            a.in_bounds
                && a.kind != AccessKind::Load
                && a.space == space
                && a.offset < offset + size
                && offset < a.offset + a.size as u64
        })
        .map(|a| a.ctx)
}

fn position_text(f: &ImageFacts, p: &TexelPos) -> String {
    let Some((level, base, count)) = f.view else {
        return format!("{}", p.x);
    };
    let z = if f.is_3d { "slice" } else { "layer" };
    let in_view = p.level == level && p.layer >= base && p.layer < base + count;
    format!(
        "({}, {}) of {z} {}, level {}{}",
        p.x,
        p.y,
        p.layer,
        p.level,
        if in_view { "" } else { " (outside the view)" }
    )
}

/// Bytes as a little-endian hexadecimal number (bytes listed when longer than 8).
fn hex_le(bytes: &[u8]) -> String {
    if bytes.len() <= 8 {
        let mut v = [0u8; 8];
        v[..bytes.len()].copy_from_slice(bytes);
        format!("{:#0w$x}", u64::from_le_bytes(v), w = 2 + 2 * bytes.len())
    } else {
        let parts: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("bytes {}", parts.join(" "))
    }
}

/// A texel's bits and its decoded channels.
fn texel_text(f: &ImageFacts, bytes: &[u8]) -> String {
    let bits = hex_le(bytes);
    let Some(layout) = &f.layout else {
        return bits;
    };
    let Ok(rgba) = layout.decode(bytes) else {
        return bits;
    };
    let vals = layout.channel_texts(&rgba);
    format!("{bits} = ({})", vals.join(", "))
}

/// Components as hexadecimal (and as floats for 32-bit values that look like floats is
/// not guessed: the bits are what is compared).
fn format_components(c: &[u64], bits: u8) -> String {
    let w = (bits as usize).div_ceil(4).max(1);
    let parts: Vec<String> = c.iter().map(|v| format!("{v:#0w$x}", w = w + 2)).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::DEFAULT_GLOBAL_BYTES;

    use crate::fixtures::parse;

    const COPY: &str = "shader compute (local_size=4,4,1)
image @src : 2d r32_uint readonly (binding=0)
image @dst : 2d r32_uint (binding=1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x2 %1 = mov %0.xy
    32   %2 = @image_load (@src, %1) (dest_type=uint32)
    @image_store (@dst, %1, %2) (src_type=uint32)
}
";

    /// The same copy by hand with typed messages; `dx` shifts the store's x.
    fn copy_lowered(dx: u32) -> Shader {
        parse(&format!(
            "shader compute (local_size=4,4,1)
image @src : 2d r32_uint readonly (binding=0)
image @dst : 2d r32_uint (binding=1)
fn main {{
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %9 = load_const (0)
    32   %8 = load_const ({dx})
    32   %7 = iadd %0.x, %8
    32   %2 = @lsc_load_quad (@src, %0.x, %0.y, %9, %9) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)
    @lsc_store_quad (@dst, %7, %0.y, %9, %9, %2) (lsc_sfid=tgm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32.x)
}}
"
        ))
    }

    /// Gives the lowered copy's instructions the spans of the original's: line 8 is the
    /// load, line 9 the store.
    fn align_spans(lowered: &mut Shader, original: &Shader) {
        let of = original.entry().unwrap();
        let spans: Vec<Span> = of
            .insts_in_order()
            .into_iter()
            .filter(|&i| {
                of.inst(i)
                    .as_intrinsic()
                    .is_some_and(|x| x.op.info().class == IntrinsicClass::Image)
            })
            .map(|i| of.inst_span(i))
            .collect();
        let f = &mut lowered.functions[0];
        let msgs: Vec<Inst> = f
            .insts_in_order()
            .into_iter()
            .filter(|&i| f.inst(i).as_intrinsic().is_some_and(|x| x.op.is_lsc()))
            .collect();
        for (i, s) in msgs.into_iter().zip(spans) {
            f.set_inst_span(i, s);
        }
    }

    fn setup(shader: &Shader, device: &Device) -> Setup {
        let mut s = Setup::default_for(shader, device, 3).unwrap();
        s.subgroup_size = 8;
        s
    }

    #[test]
    fn a_shader_verifies_against_itself() {
        let shader = parse(COPY);
        let device = Device::preset("dg2").unwrap();
        let s = setup(&shader, &device);
        let r = verify(&shader, &shader, &device, &s).unwrap();
        assert!(r.passed(), "{r}");
        let n = s.grid.iter().product::<u32>() * 16;
        assert_eq!(r.invocations, n);
        // One load and one store per invocation.
        assert_eq!(r.accesses, 2 * n as u64);
        assert_eq!(r.values, n as u64);
        assert!(r
            .summary()
            .starts_with(&format!("verified: {n} invocations")));
    }

    #[test]
    fn hand_lowered_copy_passes_and_a_shifted_store_fails() {
        let shader = parse(COPY);
        let device = Device::preset("dg2").unwrap();
        let mut s = setup(&shader, &device);
        s.bindings = vec![];
        let mut good = copy_lowered(0);
        align_spans(&mut good, &shader);
        let r = verify(&shader, &good, &device, &s).unwrap();
        assert!(r.passed(), "{r}");

        let mut bad = copy_lowered(1);
        align_spans(&mut bad, &shader);
        let r = verify(&shader, &bad, &device, &s).unwrap();
        assert!(!r.passed());
        assert!(r.has(MismatchKind::Address), "{r}");
        assert!(r.has(MismatchKind::ImageTexel), "{r}");
        let m = r
            .mismatches
            .iter()
            .find(|m| m.kind == MismatchKind::Address)
            .unwrap();
        assert_eq!(m.span, Some(Span::new(9, 5)));
        assert!(
            m.instruction
                .as_deref()
                .unwrap()
                .starts_with("@image_store (@dst, %1, %2)"),
            "{m}"
        );
        // Invocation 0 stores texel (0, 0); the shifted store hits (1, 0).
        assert_eq!(m.invocation, Some(0));
        assert!(
            m.expected.starts_with("store: texel (0, 0) of layer"),
            "{m}"
        );
        assert!(m.actual.starts_with("store: texel (1, 0) of layer"), "{m}");
        assert!(r.mismatches.len() <= s.report_limit);
        assert!(r.mismatch_count > r.mismatches.len());
        let text = r.to_string();
        assert!(text.starts_with("verification failed: "), "{text}");
        assert!(text.contains("more mismatches"), "{text}");
    }

    #[test]
    fn ambiguous_spans_are_an_error_and_stamping_fixes_them() {
        let mut shader = parse(COPY);
        let f = &mut shader.functions[0];
        for i in f.insts_in_order() {
            f.set_inst_span(i, Span::UNKNOWN);
        }
        let device = Device::preset("dg2").unwrap();
        let s = setup(&shader, &device);
        let e = verify(&shader, &shader, &device, &s).unwrap_err();
        assert!(matches!(e, VerifyError::AmbiguousSpans(_)), "{e}");
        stamp_spans(&mut shader);
        assert!(ambiguous_spans(&shader).is_empty());
        let r = lower_and_verify(&shader, &device, &LowerOptions::default(), &s).unwrap();
        assert!(r.passed(), "{r}");
    }

    #[test]
    fn hits_join_contiguous_elements() {
        let ctx = AccessCtx {
            inst: Inst::from_u32(0),
            span: Span::UNKNOWN,
            op: IntrinsicOp::LscLoad,
            lane: 0,
            invocation: 0,
        };
        let acc = |offset, size| Access {
            kind: AccessKind::Load,
            space: Space::Alloc(AllocId(1)),
            offset,
            address: None,
            size,
            in_bounds: true,
            ctx,
        };
        let v = [acc(20, 4), acc(16, 4)];
        assert_eq!(
            hit_of(v.iter()),
            Hit::At {
                space: Space::Alloc(AllocId(1)),
                offset: 16,
                size: 8
            }
        );
        let v = [acc(16, 4), acc(24, 4), acc(20, 2)];
        assert_eq!(
            hit_of(v.iter()),
            Hit::Ranges(vec![
                (Space::Alloc(AllocId(1)), 16, 6),
                (Space::Alloc(AllocId(1)), 24, 4)
            ])
        );
        let mut d = acc(0, 4);
        d.in_bounds = false;
        assert_eq!(hit_of([d].iter()), Hit::Nothing);
    }

    /// Each workgroup gathers 2 lines of 3 4-byte elements (global line length 8, from
    /// element `1 + 16 x workgroup`) into shared memory and copies them back packed to
    /// the second pointer from element `6 x workgroup + {dst}`.
    fn copy_round_trip(dst: u32) -> Shader {
        parse(&format!(
            "shader compute (local_size=4,1,1, subgroup_size=4)
fn main {{
  block b0:
    32   %0 = load_const (0)
    64   %1 = @load_push_constant (%0) (base=0, range=16)
    64   %2 = @load_push_constant (%0) (base=8, range=16)
    32x3 %3 = @load_workgroup_id
    32   %4 = load_const (16)
    32   %5 = imul %3.x, %4
    32   %6 = load_const (1)
    32   %7 = iadd %5, %6
    32   %8 = load_const (4)
    32   %9 = load_const (3)
    32   %10 = load_const (2)
    32   %11 = load_const (8)
    32   %12 = @group_async_copy_2d2d (%0, %0, %1, %7, %8, %9, %10, %11, %9, %0)
    @group_wait_events (%12)
    32   %13 = load_const (6)
    32   %14 = imul %3.x, %13
    32   %15 = load_const ({dst})
    32   %16 = iadd %14, %15
    32   %17 = @group_async_copy_2d2d (%2, %16, %0, %0, %8, %9, %10, %9, %9, %0)
    @group_wait_events (%17)
}}
"
        ))
    }

    #[test]
    fn group_copies_are_compared_per_workgroup() {
        let shader = copy_round_trip(0);
        let device = Device::preset("dg2").unwrap();
        let mut s = setup(&shader, &device);
        s.grid = [2, 1, 1];
        assert_eq!(s.globals.len(), 2);
        // Against itself: per workgroup, each copy's loads and stores.
        let r = verify(&shader, &shader, &device, &s).unwrap();
        assert!(r.passed(), "{r}");
        assert_eq!(r.accesses, 2 * 2 * 2);
        assert_eq!(r.buffer_bytes, 2 * DEFAULT_GLOBAL_BYTES as u64);
        // Lowered, on a platform with the loop and one with block messages.
        for p in ["bdw", "pvc"] {
            let device = Device::preset(p).unwrap();
            let r = lower_and_verify(&shader, &device, &LowerOptions::default(), &s).unwrap();
            assert!(r.passed(), "{p}: {r}");
            assert_eq!(r.accesses, 8, "{p}");
        }
        // A copy-back one element further stores other bytes: workgroup 0 stores bytes
        // 4..28 of the destination instead of 0..24, workgroup 1 bytes 28..52 instead
        // of 24..48.
        let bad = copy_round_trip(1);
        let r = verify(&shader, &bad, &device, &s).unwrap();
        assert!(!r.passed());
        assert_eq!(r.by_kind.get(&MismatchKind::Address), Some(&2), "{r}");
        assert!(r.has(MismatchKind::BufferByte), "{r}");
        let m = &r.mismatches[0];
        assert_eq!(m.kind, MismatchKind::Address);
        assert_eq!(m.location, "the group async copy's stores in workgroup 0");
        assert_eq!(m.span, Some(Span::new(22, 5)));
        assert_eq!(m.invocation, Some(0));
        assert!(
            m.instruction
                .as_deref()
                .unwrap()
                .starts_with("32   %17 = @group_async_copy_2d2d (%2, %16,"),
            "{m}"
        );
        assert_eq!(
            m.expected,
            "stores: 1 range: bytes 0x0..0x18 of global (push constant 0x8)"
        );
        assert_eq!(
            m.actual,
            "stores: 1 range: bytes 0x4..0x1c of global (push constant 0x8)"
        );
        assert_eq!(
            m.note,
            "only the original reached 1 range: bytes 0x0..0x4 of global (push constant \
             0x8); only the lowered code reached 1 range: bytes 0x18..0x1c of global \
             (push constant 0x8)"
        );
        let b = r
            .mismatches
            .iter()
            .find(|m| m.kind == MismatchKind::BufferByte)
            .unwrap();
        assert!(
            b.location
                .starts_with("global (push constant 0x8) bytes 0x0..0x4"),
            "{b}"
        );
    }

    #[test]
    fn range_arithmetic() {
        let a = Space::Alloc(AllocId(0));
        let sh = Space::Shared(0);
        assert_eq!(
            merge_ranges(vec![
                (a, 8, 12),
                (sh, 0, 4),
                (a, 0, 4),
                (a, 4, 6),
                (a, 10, 16)
            ]),
            vec![(a, 0, 6), (a, 8, 16), (sh, 0, 4)]
        );
        assert_eq!(
            subtract_ranges(
                &[(a, 0, 10), (sh, 0, 8)],
                &[(a, 2, 4), (a, 6, 7), (sh, 0, 8)]
            ),
            vec![(a, 0, 2), (a, 4, 6), (a, 7, 10)]
        );
        assert_eq!(
            subtract_ranges(&[(a, 0, 4)], &[(sh, 0, 4)]),
            vec![(a, 0, 4)]
        );
    }

    #[test]
    fn a_failing_original_is_an_error() {
        let shader = parse(
            "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x10000)
    @store_ssbo (%0, %0, %0) (access=none, align_mul=4)
}
",
        );
        let device = Device::preset("dg2").unwrap();
        let s = setup(&shader, &device);
        let e = verify(&shader, &shader, &device, &s).unwrap_err();
        assert!(
            e.to_string().starts_with("the original shader failed: "),
            "{e}"
        );
    }
}
