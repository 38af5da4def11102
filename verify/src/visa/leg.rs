//! The vISA leg of the verifier: the lowered shader and the vISA kernel made from it run
//! on the same initial memory, and the kernel must do to that memory exactly what the
//! lowered shader does.
//!
//! The lowered shader runs on the executor (its messages with the semantics of
//! [`crate::messages`]), the kernel on the interpreter (its messages bound to the same
//! semantics by [`super::port`]), a slice of workgroups at a time. The kernel's memory
//! also holds what its inputs point to (parameter blocks, buffer tables: the ABI's
//! allocations, [`KernelAbi::prepare`]); accesses to those, and to the push constants
//! (which the kernel gets in registers), are left out. Then:
//!
//! 1. **Accesses.** For every invocation, the loads, stores and atomics both runs made to
//!    the memory they share (the setup's allocations and the workgroup's shared memory)
//!    must be the same, in the same order: same kind, same bytes, both in bounds or both
//!    discarded. A load or store of the lowered shader may be split over consecutive
//!    kernel accesses that continue one another (one vector message may be several vISA
//!    messages), and one kernel access may cover consecutive accesses of one lowered
//!    instruction. The first difference of an invocation is an address mismatch naming
//!    the kernel's vISA line. Where the kernel failed, only the workgroups before the
//!    failing one are compared. Loads of a uniform buffer are the exception: the
//!    buffer does not change during a dispatch, so when and how often it is read, and
//!    whether bytes no load uses are read with it, cannot show; the kernel may read
//!    its ranges at its start, in blocks (as brw reads pull constants, and
//!    `visa::ubo_block`). Every byte an invocation's in-bounds UBO loads read in the
//!    lowered shader must be read, in bounds, by the kernel for that invocation, in
//!    any order; the other accesses are compared in order among themselves.
//! 2. **Execution.** A kernel that fails (an error of the interpreter or of a message)
//!    is an execution mismatch with its vISA line.
//! 3. **Memory.** Afterwards every byte of the setup's allocations must be equal; the
//!    vISA line that last wrote a differing byte is named (by running the kernel again,
//!    watching those bytes).
//!
//! The lowered shader's own correctness (against the original) is the verifier's
//! business ([`crate::verifier::verify`]); [`merge`] joins both reports.

use super::dispatch::{run_workgroups, Grid, GridError, ThreadLanes};
use super::error::VisaError;
use super::program::Program;
use super::run::RunConfig;
use crate::exec::{ExecConfig, Executor};
use crate::memory::{Access, AccessKind, Memory, Space};
use crate::setup::Setup;
use crate::verifier::events::{merge_ranges, subtract_ranges};
use crate::verifier::{Mismatch, MismatchKind, Report, VerifyError, SLICE_INVOCATIONS};
use ir::Shader;
use lowering::Device;
use std::collections::{BTreeMap, BTreeSet};

/// The memory side of a kernel's inputs (its ABI): what they point to and what a
/// thread's payload holds.
pub trait KernelAbi {
    /// Adds to `mem` (the kernel's memory, a copy of the setup's) whatever the inputs
    /// point to: parameter blocks, buffer tables, copies of push constants.
    fn prepare(&mut self, mem: &mut Memory) -> Result<(), String>;

    /// Writes the payload (the register file at kernel entry: `%r0` and the inputs) of
    /// the thread `lanes`.
    fn payload(&self, lanes: &ThreadLanes, out: &mut Vec<u8>) -> Result<(), VisaError>;
}

/// A kernel to verify: its program and its text (to quote its lines).
#[derive(Copy, Clone, Debug)]
pub struct Kernel<'a> {
    /// The program.
    pub program: &'a Program,
    /// The vISA text it was read from.
    pub text: &'a str,
}

impl Kernel<'_> {
    /// The text of vISA line `line`, trimmed, without its comment.
    pub fn line_text(&self, line: u32) -> String {
        line_text(self.text, line)
    }
}

/// How a mismatch names a vISA instruction: `vISA line N: <its text>`.
pub fn visa_instruction(text: &str, line: u32) -> Option<String> {
    (line != 0).then(|| format!("vISA line {line}: {}", line_text(text, line)))
}

/// The text of line `line` of `text`, trimmed, without its comment.
pub fn line_text(text: &str, line: u32) -> String {
    let l = text
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("");
    let l = l.split("//").next().unwrap_or("");
    l.trim().to_string()
}

/// Mismatches kept within a report's limit, all counted.
struct Found {
    limit: usize,
    kept: BTreeMap<MismatchKind, Vec<Mismatch>>,
    counts: BTreeMap<MismatchKind, usize>,
}

impl Found {
    fn new(limit: usize) -> Found {
        Found {
            limit: limit.max(1),
            kept: BTreeMap::new(),
            counts: BTreeMap::new(),
        }
    }

    fn push(&mut self, m: Mismatch) {
        *self.counts.entry(m.kind).or_insert(0) += 1;
        let list = self.kept.entry(m.kind).or_default();
        if list.len() < self.limit {
            list.push(m);
        }
    }

    /// Fills the report: every kind found gets a share of the limit first.
    fn finish(self, report: &mut Report) {
        report.mismatch_count = self.counts.values().sum();
        report.by_kind = self.counts;
        let share = (self.limit / self.kept.len().max(1)).max(1);
        let mut rest = Vec::new();
        for list in self.kept.into_values() {
            let mut it = list.into_iter();
            report.mismatches.extend(it.by_ref().take(share));
            rest.extend(it);
        }
        let room = self.limit.saturating_sub(report.mismatches.len());
        report.mismatches.extend(rest.into_iter().take(room));
        report.mismatches.sort_by_key(|m| m.kind);
    }
}

/// Whether an access is to the memory both runs share.
fn shared_space(a: &Access, common: usize) -> bool {
    match a.space {
        Space::Alloc(id) => (id.0 as usize) < common,
        Space::Shared(_) => true,
        Space::PushConstants | Space::Scratch(_) => false,
    }
}

fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "load",
        AccessKind::Store => "store",
        AccessKind::Atomic => "atomic",
    }
}

fn describe(a: &Access, mem: &Memory) -> String {
    let space = match a.space {
        Space::Alloc(id) => mem.allocation(id).name.clone(),
        Space::Shared(_) => "shared memory".to_string(),
        Space::PushConstants => "push constants".to_string(),
        Space::Scratch(_) => "scratch memory".to_string(),
    };
    if a.in_bounds {
        format!(
            "{} of {} bytes at {space} + {}",
            kind_name(a.kind),
            a.size,
            a.offset
        )
    } else {
        format!(
            "{} on {space}, discarded (out of bounds)",
            kind_name(a.kind)
        )
    }
}

/// Whether two accesses are the same kind of access to the same place: both discarded,
/// or both in bounds from the same byte (their sizes are [`align`]'s business).
fn same_start(x: &Access, y: &Access) -> bool {
    x.kind == y.kind
        && x.space == y.space
        && x.in_bounds == y.in_bounds
        && (!x.in_bounds || x.offset == y.offset)
}

/// `a` without its first `n` bytes.
fn rest(a: &Access, n: u32) -> Access {
    Access {
        offset: a.offset + u64::from(n),
        size: a.size - n,
        ..*a
    }
}

/// The first difference between an invocation's accesses in the lowered shader (`b`)
/// and in the kernel (`c`): the index of the lowered access and both accesses
/// (`None`: that side made no more).
struct Difference {
    index: usize,
    expected: Option<Access>,
    actual: Option<Access>,
}

/// Pairs an invocation's accesses in order. A load or store of the lowered shader may
/// be split over several consecutive accesses of the kernel that continue one another
/// (a vector the lowered shader moves in one message may be several messages, or several
/// components of one, in the kernel: a `vec4` of 64-bit values as two `d64x2` stores),
/// and one kernel access may cover consecutive accesses of one lowered instruction;
/// atomics and discarded accesses pair one to one. Returns the lowered accesses paired
/// and the first difference.
fn align(b: &[&Access], c: &[&Access]) -> (u64, Option<Difference>) {
    let (mut i, mut j, mut paired) = (0usize, 0usize, 0u64);
    // What is left of a partly paired access of either side, and (for the lowered
    // side) the whole access, for the report.
    let mut left_b: Option<(Access, Access)> = None;
    let mut left_c: Option<Access> = None;
    // The lowered instruction whose accesses a kernel access covers.
    let mut covering: Option<ir::Inst> = None;
    loop {
        let x = left_b.take().or_else(|| {
            let a = b.get(i).map(|a| (**a, **a));
            i += usize::from(a.is_some());
            a
        });
        let y = left_c.take().or_else(|| {
            let a = c.get(j).map(|a| **a);
            j += usize::from(a.is_some());
            a
        });
        let index = i.saturating_sub(1);
        let differ = |expected: Option<Access>, actual: Option<Access>| {
            Some(Difference {
                index,
                expected,
                actual,
            })
        };
        let ((x, whole), y) = match (x, y) {
            (None, None) => return (paired, None),
            (Some((_, whole)), None) => return (paired, differ(Some(whole), None)),
            (None, Some(y)) => return (paired, differ(None, Some(y))),
            (Some(x), Some(y)) => (x, y),
        };
        if covering.is_some_and(|inst| inst != x.ctx.inst) || !same_start(&x, &y) {
            return (paired, differ(Some(whole), Some(y)));
        }
        covering = None;
        let splittable = x.kind != AccessKind::Atomic && x.in_bounds;
        if x.size == y.size || !x.in_bounds {
            paired += 1;
        } else if !splittable {
            return (paired, differ(Some(whole), Some(y)));
        } else if y.size < x.size {
            left_b = Some((rest(&x, y.size), whole));
        } else {
            paired += 1;
            left_c = Some(rest(&y, x.size));
            covering = Some(x.ctx.inst);
        }
    }
}

/// Compares the accesses of one slice, invocation by invocation: those of invocations
/// below `upto` (the kernel's accesses stop where it failed).
#[allow(clippy::too_many_arguments)]
fn compare_accesses(
    kernel: &Kernel<'_>,
    mem: &Memory,
    common: usize,
    lowered: &[Access],
    visa: &[Access],
    upto: u32,
    found: &mut Found,
    report: &mut Report,
) {
    let mut by_inv: BTreeMap<u32, (Vec<&Access>, Vec<&Access>)> = BTreeMap::new();
    let keep = |a: &&Access| shared_space(a, common) && a.ctx.invocation < upto;
    for a in lowered.iter().filter(keep) {
        by_inv.entry(a.ctx.invocation).or_default().0.push(a);
    }
    for a in visa.iter().filter(keep) {
        by_inv.entry(a.ctx.invocation).or_default().1.push(a);
    }
    let ubo_load = |a: &&Access| {
        a.kind == AccessKind::Load && matches!(a.space, Space::Alloc(id) if mem.is_ubo(id))
    };
    for (inv, (b, c)) in by_inv {
        let (b_ubo, b): (Vec<&Access>, Vec<&Access>) = b.into_iter().partition(ubo_load);
        let (c_ubo, c): (Vec<&Access>, Vec<&Access>) = c.into_iter().partition(ubo_load);
        match uncovered(&b_ubo, &c_ubo) {
            None => report.accesses += b_ubo.len() as u64,
            Some(x) => found.push(Mismatch {
                kind: MismatchKind::Address,
                invocation: Some(inv),
                span: Some(x.ctx.span),
                instruction: None,
                location: "a load of a uniform buffer".into(),
                expected: describe(x, mem),
                actual: "no load of the kernel reads these bytes (at any time)".into(),
                note: format!(
                    "the lowered shader's access is its instruction at {}",
                    x.ctx.span
                ),
            }),
        }
        let (paired, difference) = align(&b, &c);
        report.accesses += paired;
        let Some(d) = difference else { continue };
        let lowered_span = d.expected.map(|x| x.ctx.span);
        let expected = match &d.expected {
            Some(x) => describe(x, mem),
            None => "no access (the lowered shader made fewer)".to_string(),
        };
        let (actual, line) = match &d.actual {
            Some(y) => (describe(y, mem), y.ctx.span.line),
            None => ("no access (the kernel made fewer)".to_string(), 0),
        };
        found.push(Mismatch {
            kind: MismatchKind::Address,
            invocation: Some(inv),
            span: lowered_span,
            instruction: visa_instruction(kernel.text, line),
            location: format!("access {} of the invocation", d.index + 1),
            expected,
            actual,
            note: lowered_span
                .map(|s| format!("the lowered shader's access is its instruction at {s}"))
                .unwrap_or_default(),
        });
    }
}

/// The first in-bounds load of `lowered` (one invocation's UBO loads) one of whose
/// bytes no in-bounds load of `kernel` reads.
fn uncovered<'a>(lowered: &[&'a Access], kernel: &[&Access]) -> Option<&'a Access> {
    // The kernel's reads as merged byte ranges, not a set of every byte: a UBO load of
    // a whole block would put each of its bytes in the set, in every invocation.
    let read = merge_ranges(
        kernel
            .iter()
            .filter(|a| a.in_bounds)
            .map(|a| (a.space, a.offset, a.offset + u64::from(a.size)))
            .collect(),
    );
    lowered.iter().copied().find(|x| {
        let range = (x.space, x.offset, x.offset + u64::from(x.size));
        x.in_bounds && !subtract_ranges(&[range], &read).is_empty()
    })
}

/// Runs the kernel on `mem` over the whole grid, `abi` writing payloads.
fn run_kernel(
    kernel: &Kernel<'_>,
    grid: &Grid,
    range: std::ops::Range<u64>,
    mem: &mut Memory,
    abi: &dyn KernelAbi,
    config: &RunConfig,
) -> Result<u64, GridError> {
    let mut payload = |l: &ThreadLanes, out: &mut Vec<u8>| abi.payload(l, out);
    run_workgroups(kernel.program, grid, range, mem, &mut payload, config).map(|s| s.instructions)
}

/// Verifies the vISA kernel `text` against `lowered` (the shader it was made from) on
/// `setup`, with registers of `grf` bytes. A kernel the interpreter cannot read or lay
/// out is an execution mismatch naming the offending line.
pub fn verify_text(
    lowered: &Shader,
    device: &Device,
    setup: &Setup,
    text: &str,
    grf: u32,
    abi: &mut dyn KernelAbi,
    config: &RunConfig,
) -> Result<Report, VerifyError> {
    let program =
        match super::reader::read(text).and_then(|l| Program::new(&l, grf, MAX_REGISTER_BYTES)) {
            Ok(p) => p,
            Err(e) => return Ok(unusable_kernel(text, &e)),
        };
    verify_kernel(
        lowered,
        device,
        setup,
        Kernel {
            program: &program,
            text,
        },
        abi,
        config,
    )
}

/// The report on a kernel that cannot run at all (the interpreter cannot read or lay
/// it out, or its inputs are not the ABI's): one execution mismatch naming the line.
pub fn unusable_kernel(text: &str, e: &VisaError) -> Report {
    let mut found = Found::new(1);
    found.push(Mismatch {
        kind: MismatchKind::Execution,
        invocation: None,
        span: None,
        instruction: visa_instruction(text, e.line),
        location: "the kernel".into(),
        expected: "a kernel the interpreter can run".into(),
        actual: e.to_string(),
        note: String::new(),
    });
    let mut report = Report::default();
    found.finish(&mut report);
    report
}

/// The register-file bytes a kernel may declare ([`Program::new`]'s limit here).
pub const MAX_REGISTER_BYTES: u64 = 4 << 20;

/// Verifies `kernel` against `lowered` (the shader it was made from) on `setup`. Both
/// run with `device`'s legacy data port (the lowered shader's `@dp_*` messages, the
/// kernel's data-port instructions), whatever `config` says of it.
pub fn verify_kernel(
    lowered: &Shader,
    device: &Device,
    setup: &Setup,
    kernel: Kernel<'_>,
    abi: &mut dyn KernelAbi,
    config: &RunConfig,
) -> Result<Report, VerifyError> {
    if lowered.entry().is_none() {
        return Err(VerifyError::Shaders(
            "the lowered shader has no function `main`".into(),
        ));
    }
    crate::exec::dispatch_invocations(
        lowered.local_size,
        setup.grid,
        ExecConfig::default().max_invocations,
    )
    .map_err(VerifyError::Original)?;
    let mem0 = setup.build_memory(lowered, device)?;
    let common = mem0.allocations().len();
    let mut exec_config = ExecConfig {
        subgroup_size: lowered.subgroup_size.unwrap_or(setup.subgroup_size),
        log_accesses: true,
        dataport: device.dataport,
        ..ExecConfig::default()
    };
    // Both run on the device: its data port decides what the legacy messages do.
    let config = &RunConfig {
        dataport: device.dataport,
        ..*config
    };
    exec_config.interp.max_steps = setup.max_steps;
    let mut b = Executor::with_config(lowered, exec_config);
    b.memory = mem0.clone();
    let mut c = mem0.clone();
    c.set_logging(true);
    abi.prepare(&mut c).map_err(VerifyError::Shaders)?;
    let c_start = c.clone();
    let grid = Grid {
        local_size: lowered.local_size,
        workgroups: setup.grid,
        simd: kernel.program.simd.unwrap_or(exec_config.subgroup_size),
        shared_size: exec_config.shared_size,
        shared_init: Vec::new(),
    };
    let num_wg = grid.num_workgroups();
    let per_slice = (SLICE_INVOCATIONS / grid.workgroup_size().max(1)).max(1);
    let mut found = Found::new(setup.report_limit);
    let mut report = Report::default();
    // The kernel's own scratch must be all the shader's invocations' (the finalizer
    // spills above `SpillMemOffset`, over anything the kernel keeps there).
    let scratch = u64::from(lowered.scratch_size) * u64::from(grid.simd);
    if u64::from(kernel.program.scratch_bytes) < scratch {
        found.push(Mismatch {
            kind: MismatchKind::Execution,
            invocation: None,
            span: None,
            instruction: None,
            location: "the kernel's `.kernel_attr SpillMemOffset`".into(),
            expected: format!(
                "at least {scratch} bytes of scratch per thread (scratch_size {} for each of {} lanes)",
                lowered.scratch_size, grid.simd
            ),
            actual: format!("{} bytes", kernel.program.scratch_bytes),
            note: "the finalizer's spills would overwrite the kernel's scratch".into(),
        });
    }
    let mut failed = false;
    let mut start = 0;
    while start < num_wg && !failed {
        let range = start..(start + per_slice).min(num_wg);
        start = range.end;
        let (rb, eb) = b.run_workgroups(setup.grid, range.clone(), &[]);
        if let Some(e) = eb {
            return Err(VerifyError::Shaders(format!(
                "the lowered shader failed, so its kernel cannot be compared with it: {e}"
            )));
        }
        report.invocations += rb.invocations;
        let rc = run_kernel(&kernel, &grid, range, &mut c, abi, config);
        let c_log = c.take_log();
        // Where the kernel failed, only the workgroups before the failing one ran to
        // the end: the accesses of the others are not compared.
        let upto = match &rc {
            Ok(_) => u32::MAX,
            Err(e) => {
                let [x, y, _] = setup.grid.map(u64::from);
                let [wx, wy, wz] = e.workgroup.map(u64::from);
                let wl = wx + wy * x + wz * x * y;
                u32::try_from(wl * grid.workgroup_size()).unwrap_or(u32::MAX)
            }
        };
        compare_accesses(
            &kernel,
            &c,
            common,
            &rb.accesses,
            &c_log,
            upto,
            &mut found,
            &mut report,
        );
        if let Err(e) = rc {
            failed = true;
            let line = e.error.line;
            found.push(Mismatch {
                kind: MismatchKind::Execution,
                invocation: None,
                span: None,
                instruction: visa_instruction(kernel.text, line),
                location: {
                    let [x, y, z] = e.workgroup;
                    format!("workgroup ({x}, {y}, {z})")
                },
                expected: "the kernel runs as the lowered shader does".into(),
                actual: e.error.to_string(),
                note: String::new(),
            });
        }
    }
    if !failed {
        compare_memories(
            &kernel,
            &grid,
            &b.memory,
            &c,
            c_start,
            common,
            abi,
            config,
            &mut found,
            &mut report,
        );
    }
    found.finish(&mut report);
    Ok(report)
}

/// Compares the setup's allocations afterwards; names the vISA line that last wrote the
/// first differing byte of each reported range.
#[allow(clippy::too_many_arguments)]
fn compare_memories(
    kernel: &Kernel<'_>,
    grid: &Grid,
    lowered: &Memory,
    visa: &Memory,
    start: Memory,
    common: usize,
    abi: &dyn KernelAbi,
    config: &RunConfig,
    found: &mut Found,
    report: &mut Report,
) {
    let images: BTreeSet<u32> = lowered.images().map(|(_, b)| b.alloc.0).collect();
    // (allocation, first byte, length) of each run of differing bytes.
    let mut ranges = Vec::new();
    for (i, (x, y)) in lowered
        .allocations()
        .iter()
        .zip(visa.allocations())
        .take(common)
        .enumerate()
    {
        report.buffer_bytes += x.bytes.len() as u64;
        let mut k = 0;
        while k < x.bytes.len() {
            if x.bytes[k] == y.bytes[k] {
                k += 1;
                continue;
            }
            let s = k;
            while k < x.bytes.len() && x.bytes[k] != y.bytes[k] {
                k += 1;
            }
            ranges.push((i, s, k - s));
        }
    }
    if ranges.is_empty() {
        return;
    }
    let writers = last_writers(kernel, grid, start, abi, config, &ranges);
    for (n, &(i, s, len)) in ranges.iter().enumerate() {
        let x = &lowered.allocations()[i];
        let y = &visa.allocations()[i];
        let shown = len.min(16);
        let line = writers.get(n).copied().flatten();
        found.push(Mismatch {
            kind: if images.contains(&(i as u32)) {
                MismatchKind::ImageTexel
            } else {
                MismatchKind::BufferByte
            },
            invocation: None,
            span: None,
            instruction: line.and_then(|l| visa_instruction(kernel.text, l)),
            location: format!("{} bytes {s}..{}", x.name, s + len),
            expected: format!("{:02x?}", &x.bytes[s..s + shown]),
            actual: format!("{:02x?}", &y.bytes[s..s + shown]),
            note: if line.is_none() {
                "the kernel did not write these bytes".into()
            } else {
                "the kernel's last write of the first byte is the instruction above".into()
            },
        });
    }
}

/// The vISA line that last wrote the first byte of each range (of the first
/// `ranges.len()`), found by running the kernel again from `mem`.
fn last_writers(
    kernel: &Kernel<'_>,
    grid: &Grid,
    mut mem: Memory,
    abi: &dyn KernelAbi,
    config: &RunConfig,
    ranges: &[(usize, usize, usize)],
) -> Vec<Option<u32>> {
    let mut out = vec![None; ranges.len()];
    let per_slice = (SLICE_INVOCATIONS / grid.workgroup_size().max(1)).max(1);
    let mut start = 0;
    while start < grid.num_workgroups() {
        let range = start..(start + per_slice).min(grid.num_workgroups());
        start = range.end;
        let done = run_kernel(kernel, grid, range, &mut mem, abi, config).is_err();
        for a in mem.take_log() {
            if a.kind == AccessKind::Load || !a.in_bounds {
                continue;
            }
            let Space::Alloc(id) = a.space else { continue };
            for (n, &(i, s, _)) in ranges.iter().enumerate() {
                let s = s as u64;
                if id.0 as usize == i && a.offset <= s && s < a.offset + u64::from(a.size) {
                    out[n] = Some(a.ctx.span.line);
                }
            }
        }
        if done {
            break;
        }
    }
    out
}

/// One report over both comparisons (the original against the lowered shader, the
/// lowered shader against its kernel): the invocations of the first, the accesses and
/// mismatches of both.
pub fn merge(first: Report, second: Report) -> Report {
    let mut r = first;
    r.accesses += second.accesses;
    r.buffer_bytes += second.buffer_bytes;
    r.mismatch_count += second.mismatch_count;
    for (k, n) in second.by_kind {
        *r.by_kind.entry(k).or_insert(0) += n;
    }
    r.mismatches.extend(second.mismatches);
    r.mismatches.sort_by_key(|m| m.kind);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{AccessCtx, AllocId};
    use crate::visa::reader::read;

    /// An access of instruction `inst` to bytes `offset .. offset + size` of
    /// allocation 0.
    fn access(kind: AccessKind, inst: u32, offset: u64, size: u32) -> Access {
        Access {
            kind,
            space: Space::Alloc(AllocId(0)),
            offset,
            address: None,
            size,
            in_bounds: true,
            ctx: AccessCtx {
                inst: ir::Inst::from_u32(inst),
                span: ir::Span::new(inst, 1),
                op: ir::IntrinsicOp::LscLoad,
                lane: 0,
                invocation: 0,
            },
        }
    }

    #[test]
    fn uniform_buffer_loads_need_their_bytes_read_at_any_time() {
        let load = |offset, size| access(AccessKind::Load, 1, offset, size);
        let uncovered_at = |b: &[Access], c: &[Access]| {
            let b: Vec<&Access> = b.iter().collect();
            let c: Vec<&Access> = c.iter().collect();
            uncovered(&b, &c).map(|a| (a.offset, a.size))
        };
        // Loads of 4..12 and 36..40 read by two blocks, 0..32 and 32..48, in any order.
        let lowered = [load(36, 4), load(4, 8)];
        assert_eq!(uncovered_at(&lowered, &[load(32, 16), load(0, 32)]), None);
        // A block that stops at 38 leaves bytes 38..40 unread: the load is reported.
        assert_eq!(
            uncovered_at(&lowered, &[load(0, 32), load(32, 6)]),
            Some((36, 4))
        );
        // Kernel reads out of bounds read nothing.
        let discarded = Access {
            in_bounds: false,
            ..load(32, 16)
        };
        assert_eq!(
            uncovered_at(&lowered, &[load(0, 32), discarded]),
            Some((36, 4))
        );
        // Another allocation's bytes do not count.
        let other = Access {
            space: Space::Alloc(AllocId(1)),
            ..load(32, 16)
        };
        assert_eq!(uncovered_at(&lowered, &[load(0, 32), other]), Some((36, 4)));
        // A lowered load out of bounds needs nothing.
        assert_eq!(uncovered_at(&[discarded], &[]), None);
    }

    /// `align` on two lists: the accesses paired and the first difference as (lowered
    /// index, expected (offset, size), actual (offset, size)).
    #[allow(clippy::type_complexity)]
    fn aligned(
        b: &[Access],
        c: &[Access],
    ) -> (u64, Option<(usize, Option<(u64, u32)>, Option<(u64, u32)>)>) {
        let b: Vec<&Access> = b.iter().collect();
        let c: Vec<&Access> = c.iter().collect();
        let (n, d) = align(&b, &c);
        let at = |a: Option<Access>| a.map(|a| (a.offset, a.size));
        (n, d.map(|d| (d.index, at(d.expected), at(d.actual))))
    }

    #[test]
    fn accesses_pair_in_order_and_may_be_split() {
        use AccessKind::{Atomic, Load, Store};
        let l = |inst, o, n| access(Load, inst, o, n);
        let s = |inst, o, n| access(Store, inst, o, n);
        // Equal lists.
        assert_eq!(
            aligned(&[l(1, 0, 4), s(2, 8, 4)], &[l(7, 0, 4), s(8, 8, 4)]),
            (2, None)
        );
        // A 32-byte store as two 16-byte messages.
        assert_eq!(
            aligned(&[s(1, 64, 32)], &[s(7, 64, 16), s(8, 80, 16)]),
            (1, None)
        );
        // One kernel load covering two loads of one lowered instruction...
        assert_eq!(aligned(&[l(1, 0, 4), l(1, 4, 4)], &[l(7, 0, 8)]), (2, None));
        // ...but not of two instructions.
        assert_eq!(
            aligned(&[l(1, 0, 4), l(2, 4, 4)], &[l(7, 0, 8)]),
            (1, Some((1, Some((4, 4)), Some((4, 4)))))
        );
        // The second half of a split store goes elsewhere: the whole store is named.
        assert_eq!(
            aligned(&[s(1, 64, 32)], &[s(7, 64, 16), s(8, 96, 16)]),
            (0, Some((0, Some((64, 32)), Some((96, 16)))))
        );
        // A load where the lowered shader stores; other bytes; an atomic of another
        // size.
        assert_eq!(
            aligned(&[l(1, 0, 4)], &[s(7, 0, 4)]).1.map(|d| d.0),
            Some(0)
        );
        assert_eq!(
            aligned(&[l(1, 0, 4), l(2, 4, 4)], &[l(7, 0, 4), l(8, 12, 4)]),
            (1, Some((1, Some((4, 4)), Some((12, 4)))))
        );
        assert_eq!(
            aligned(
                &[access(Atomic, 1, 0, 8)],
                &[access(Atomic, 7, 0, 4), access(Atomic, 8, 4, 4)]
            ),
            (0, Some((0, Some((0, 8)), Some((0, 4)))))
        );
        // Either side making fewer.
        assert_eq!(
            aligned(&[l(1, 0, 4), l(2, 4, 4)], &[l(7, 0, 4)]),
            (1, Some((1, Some((4, 4)), None)))
        );
        assert_eq!(
            aligned(&[l(1, 0, 4)], &[l(7, 0, 4), l(8, 0, 4)]),
            (1, Some((0, None, Some((0, 4)))))
        );
        // Discarded accesses pair whatever their sizes.
        let mut d1 = l(1, 0, 16);
        d1.in_bounds = false;
        let mut d2 = l(7, 0, 4);
        d2.in_bounds = false;
        assert_eq!(aligned(&[d1], &[d2]), (1, None));
        assert_eq!(aligned(&[d1], &[l(7, 0, 16)]).1.map(|d| d.0), Some(0));
    }

    /// Each invocation stores 3 * id at dword id of SSBO 0.
    const SHADER: &str = "shader compute (local_size=16,1,1)

fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (4)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0)
    32   %4 = load_const (3)
    32   %5 = imul %0.x, %4
    @store_ssbo (%5, %3, %2) (access=none, align_mul=4)
}
";

    /// The same in vISA: SIMD16, the local ids at byte 32, the address of a table of
    /// SSBO base addresses at byte 64.
    fn kernel_text(mul: &str, shift: &str) -> String {
        format!(
            ".version 4.1
.kernel \"main\"
.decl LX v_type=G type=uw num_elts=16
.decl TAB v_type=G type=uq num_elts=1
.decl BASE v_type=G type=uq num_elts=1
.decl G v_type=G type=ud num_elts=16
.decl OFF v_type=G type=ud num_elts=16
.decl V v_type=G type=ud num_elts=16
.decl A v_type=G type=uq num_elts=16
.input LX offset=32 size=32
.input TAB offset=64 size=8
.kernel_attr SimdSize=16
.function \"main\"
main:
    mul (M1, 16) G(0,0)<1> %group_id_x(0,0)<0;1,0> 0x10:ud
    add (M1, 16) G(0,0)<1> G(0,0)<1;1,0> LX(0,0)<1;1,0>
    shl (M1, 16) OFF(0,0)<1> G(0,0)<1;1,0> {shift}:ud
    mul (M1, 16) V(0,0)<1> G(0,0)<1;1,0> {mul}:ud
    lsc_load.ugm (M1_NM, 1) BASE:d64 flat[TAB]:a64
    add (M1, 16) A(0,0)<1> BASE(0,0)<0;1,0> OFF(0,0)<1;1,0>
    lsc_store.ugm (M1, 16) flat[A]:a64 V:d32
    ret (M1, 1)
"
        )
    }

    struct Abi {
        table: u64,
    }

    impl KernelAbi for Abi {
        fn prepare(&mut self, mem: &mut Memory) -> Result<(), String> {
            let ssbo = mem.ssbo(0).ok_or("no SSBO 0")?;
            let base = mem.allocation(ssbo).base;
            let id = mem.alloc("ssbo table", base.to_le_bytes().to_vec());
            self.table = mem.allocation(id).base;
            Ok(())
        }

        fn payload(&self, lanes: &ThreadLanes, out: &mut Vec<u8>) -> Result<(), VisaError> {
            out.resize(96, 0);
            out[4..8].copy_from_slice(&lanes.workgroup[0].to_le_bytes());
            for (c, id) in lanes.local_ids.iter().enumerate() {
                out[32 + 2 * c..][..2].copy_from_slice(&(id[0] as u16).to_le_bytes());
            }
            out[64..72].copy_from_slice(&self.table.to_le_bytes());
            Ok(())
        }
    }

    fn check(text: &str) -> Report {
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 7).unwrap();
        setup.grid = [3, 1, 1];
        let program = Program::new(&read(text).unwrap(), 32, 1 << 20).unwrap();
        let kernel = Kernel {
            program: &program,
            text,
        };
        verify_kernel(
            &shader,
            &device,
            &setup,
            kernel,
            &mut Abi { table: 0 },
            &RunConfig::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_faithful_kernel_verifies() {
        let r = check(&kernel_text("0x3", "0x2"));
        assert!(r.passed(), "{r}");
        assert_eq!(r.invocations, 48);
        assert_eq!(r.accesses, 48);
    }

    #[test]
    fn a_wrong_value_is_a_buffer_mismatch_naming_the_writer() {
        // 4 * id instead of 3 * id: the bytes differ; the store (line 21: after
        // .version, .kernel, seven .decl, two .input, .kernel_attr, .function, the
        // label and six instructions) wrote them.
        let r = check(&kernel_text("0x4", "0x2"));
        assert!(r.has(MismatchKind::BufferByte), "{r}");
        let m = &r.mismatches[0];
        assert_eq!(m.span, None);
        assert!(m
            .instruction
            .as_deref()
            .unwrap()
            .starts_with("vISA line 21: lsc_store.ugm"));
    }

    #[test]
    fn a_wrong_address_is_an_address_mismatch_naming_the_line() {
        // Offsets of 8 * id: the store of each invocation but the first reaches other
        // bytes.
        let r = check(&kernel_text("0x3", "0x3"));
        assert!(r.has(MismatchKind::Address), "{r}");
        let m = r
            .mismatches
            .iter()
            .find(|m| m.kind == MismatchKind::Address)
            .unwrap();
        assert!(
            m.instruction
                .as_deref()
                .unwrap()
                .starts_with("vISA line 21: "),
            "{m}"
        );
        assert_eq!(r.by_kind[&MismatchKind::Address], 47);
    }

    #[test]
    fn a_kernel_that_cannot_be_laid_out_is_an_execution_mismatch() {
        // The store's data operand V is too small for 32 channels (line 21).
        let text = kernel_text("0x3", "0x2").replace(
            "lsc_store.ugm (M1, 16) flat[A]:a64 V:d32",
            "lsc_store.ugm (M1, 32) flat[A]:a64 V:d32",
        );
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let setup = Setup::default_for(&shader, &device, 7).unwrap();
        let r = verify_text(
            &shader,
            &device,
            &setup,
            &text,
            32,
            &mut Abi { table: 0 },
            &RunConfig::default(),
        )
        .unwrap();
        assert!(r.has(MismatchKind::Execution), "{r}");
        let m = &r.mismatches[0];
        assert!(
            m.instruction
                .as_deref()
                .unwrap()
                .starts_with("vISA line 21: "),
            "{m}"
        );
    }

    #[test]
    fn a_failing_kernel_is_an_execution_mismatch() {
        // A budget of three instructions: the fourth (line 18) fails.
        let shader = ir::parse_shader(SHADER).unwrap();
        let device = Device::preset("dg2").unwrap();
        let mut setup = Setup::default_for(&shader, &device, 7).unwrap();
        setup.grid = [1, 1, 1];
        let text = kernel_text("0x3", "0x2");
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let config = RunConfig {
            max_instructions: 3,
            ..RunConfig::default()
        };
        let r = verify_kernel(
            &shader,
            &device,
            &setup,
            Kernel {
                program: &program,
                text: &text,
            },
            &mut Abi { table: 0 },
            &config,
        )
        .unwrap();
        assert!(r.has(MismatchKind::Execution), "{r}");
        let m = &r.mismatches[0];
        assert!(
            m.instruction
                .as_deref()
                .unwrap()
                .starts_with("vISA line 18: mul"),
            "{m}"
        );
    }
}
