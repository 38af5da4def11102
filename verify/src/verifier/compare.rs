//! The comparisons: a slice of workgroups at a time (addresses, group async copies,
//! values), and both memories once every workgroup has run (image texels, buffer
//! bytes).

use crate::exec::{ExecError, RunResult};
use crate::memory::{AllocId, Memory, Space};
use crate::verifier::describe::{format_components, hex_le, position_text, texel_text, Describer};
use crate::verifier::events::{copy_bytes, copy_spans, events, kind_name, subtract_ranges, Event};
use crate::verifier::report::{
    DifferingSample, Findings, Mismatch, MismatchKind, Report, WriterQuery,
};
use ir::{Inst, IntrinsicOp, Span, Value};
use std::collections::BTreeSet;

/// The streams of mismatches ([`Findings`]) each comparison reports in, so that the
/// report lists them as one pass over the whole grid would: address events before the
/// group async copies' byte sets, values instruction by instruction.
const EVENTS: u64 = 0;
const COPIES: u64 = 1;

/// A lowered run that failed where the original ran.
pub fn execution_failure(d: &Describer<'_>, found: &mut Findings, e: &ExecError) {
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
        Some(s) => d.text_for(s, inst),
        None => None,
    };
    found.push(
        0,
        Mismatch {
            kind: MismatchKind::Execution,
            invocation,
            span,
            instruction,
            location: "the lowered run".into(),
            expected: "the run completes, as the original's does".into(),
            actual: e.to_string(),
            note: String::new(),
        },
    );
}

/// Compares the accesses of the invocations below `done` of one slice of the runs.
pub fn addresses(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    run_a: &RunResult,
    run_b: &RunResult,
    done: u32,
) {
    let skip = copy_spans(d.ofunc);
    let mut ea = events(run_a, &skip);
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
        compare_group(d, found, report, &ea[i0..i], &eb[j0..j]);
    }
}

fn compare_group(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    a: &[Event],
    b: &[Event],
) {
    // The optimizer deletes loads whose values are unused (NIR's `nir_opt_dce`; after
    // unrolling, one instruction of the original stands for several loads, of which
    // only some may stay) and merges equal ones: where both sides only load, the
    // lowered loads must be some of the original's, in order. Loads have no effects of
    // their own; what the kept ones read is compared with the values and the memories.
    if let Some(matched) = kept_loads(a, b) {
        report.accesses += matched;
        return;
    }
    let folded = fold_cas_loops(a, b);
    let b = folded.as_deref().unwrap_or(b);
    let first = a.first().or(b.first()).expect("a group is not empty");
    let span = Span::new(first.span.0, first.span.1);
    let invocation = first.invocation;
    if a.len() != b.len() {
        let lowered_inst = b.first().map(|e| e.inst);
        let describe = |es: &[Event]| -> String {
            let parts: Vec<String> = es
                .iter()
                .map(|e| format!("{}: {}", kind_name(e.kind), d.describe_hit(&e.hit)))
                .collect();
            if parts.is_empty() {
                "no access".into()
            } else {
                format!("{} access(es): {}", parts.len(), parts.join("; "))
            }
        };
        found.push(
            EVENTS,
            Mismatch {
                kind: MismatchKind::Address,
                invocation: Some(invocation),
                span: Some(span),
                instruction: d.text_for(span, lowered_inst),
                location: String::new(),
                expected: describe(a),
                actual: describe(b),
                note: String::new(),
            },
        );
        return;
    }
    for (x, y) in a.iter().zip(b) {
        report.accesses += 1;
        if x.kind == y.kind && x.hit == y.hit {
            continue;
        }
        found.push(
            EVENTS,
            Mismatch {
                kind: MismatchKind::Address,
                invocation: Some(invocation),
                span: Some(span),
                instruction: d.text_for(span, Some(y.inst)),
                location: String::new(),
                expected: format!("{}: {}", kind_name(x.kind), d.describe_hit(&x.hit)),
                actual: format!("{}: {}", kind_name(y.kind), d.describe_hit(&y.hit)),
                note: String::new(),
            },
        );
    }
}

/// Counts a lane of `inst` whose result differed within its bounds, where `inst` is a
/// filtered lookup.
fn note_differing_sample(d: &Describer<'_>, report: &mut Report, inst: Inst) {
    let filtered = d
        .ofunc
        .inst(inst)
        .as_intrinsic()
        .is_some_and(|x| matches!(x.op, IntrinsicOp::Txl | IntrinsicOp::Tg4));
    if !filtered {
        return;
    }
    let span = d.ofunc.inst_span(inst);
    if let Some(s) = report.differing_samples.iter_mut().find(|s| s.span == span) {
        s.lanes += 1;
        return;
    }
    report.differing_samples.push(DifferingSample {
        span,
        instruction: ir::print::print_inst(d.original, d.ofunc, inst)
            .trim()
            .to_string(),
        lanes: 1,
    });
    report
        .differing_samples
        .sort_by_key(|s| (s.span.line, s.span.col));
}

/// Where `a` (the original's accesses of one atomic instruction and invocation) are
/// atomics and `b` (the lowered shader's) holds compare-and-swap loops, `b` with each
/// loop as the one atomic it stands for; `None` where `b` holds none. The lowering
/// emulates a float atomic the device lacks as a load of the texel (the loop's first
/// guess), then one exchange of that texel per try (lowering's `atomic_loop.rs`). An
/// atomic instruction loads nothing of its own, so each load of its group starts a
/// loop, which the exchanges of the same texel after it continue (a load no exchange
/// follows stands for the atomic too: the comparison of where the loop went is what
/// this fold keeps). What the loop leaves in memory
/// and returns is compared with the memories and the values; here, where it went.
fn fold_cas_loops(a: &[Event], b: &[Event]) -> Option<Vec<Event>> {
    use crate::memory::AccessKind;
    if a.is_empty() || a.iter().any(|e| e.kind != AccessKind::Atomic) {
        return None;
    }
    if !b.iter().any(|e| e.kind == AccessKind::Load) {
        return None;
    }
    let mut folded: Vec<Event> = Vec::with_capacity(a.len());
    let mut j = 0;
    while j < b.len() {
        let e = &b[j];
        j += 1;
        if e.kind != AccessKind::Load {
            folded.push(e.clone());
            continue;
        }
        while b
            .get(j)
            .is_some_and(|n| n.kind == AccessKind::Atomic && n.hit == e.hit)
        {
            j += 1;
        }
        folded.push(Event {
            kind: AccessKind::Atomic,
            ..e.clone()
        });
    }
    Some(folded)
}

/// Where `a` (the original's accesses of one instruction and invocation) and `b` (the
/// lowered shader's) are all loads and `b` is `a` with some loads left out, the number of
/// loads `b` kept; `None` otherwise.
fn kept_loads(a: &[Event], b: &[Event]) -> Option<u64> {
    let load = |e: &Event| e.kind == crate::memory::AccessKind::Load;
    if b.len() > a.len() || !a.iter().all(load) || !b.iter().all(load) {
        return None;
    }
    let mut rest = a.iter();
    b.iter()
        .all(|y| rest.any(|x| x.hit == y.hit))
        .then_some(b.len() as u64)
}

/// Compares, per workgroup, the bytes the group async copies loaded and stored (the
/// workgroups of the slice whose invocations are all below `done`).
pub fn copies(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    run_a: &RunResult,
    run_b: &RunResult,
    done: u32,
) {
    let spans = copy_spans(d.ofunc);
    if spans.is_empty() {
        return;
    }
    let wg_size = d.original.workgroup_invocations();
    let a = copy_bytes(run_a, &spans, true, wg_size, done);
    let b = copy_bytes(run_b, &spans, false, wg_size, done);
    let keys: BTreeSet<_> = a.keys().chain(b.keys()).copied().collect();
    for key in keys {
        let (wg, span, kind) = key;
        let empty = Vec::new();
        let x = a.get(&key).unwrap_or(&empty);
        let y = b.get(&key).unwrap_or(&empty);
        report.accesses += 1;
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
                d.describe_ranges(&only_a)
            ));
        }
        if !only_b.is_empty() {
            note.push(format!(
                "only the lowered code reached {}",
                d.describe_ranges(&only_b)
            ));
        }
        found.push(
            COPIES,
            Mismatch {
                kind: MismatchKind::Address,
                invocation: Some((wg as u64 * wg_size).min(u32::MAX as u64) as u32),
                span: Some(span),
                instruction: d.text_for(span, None),
                location: format!("the group async copy's {what} in workgroup {wg}"),
                expected: format!("{what}: {}", d.describe_ranges(x)),
                actual: format!("{what}: {}", d.describe_ranges(y)),
                note: note.join("; "),
            },
        );
    }
}

/// Compares the recorded values of the invocations of the slice below `done`: each
/// entry of `record` is a value of the original, the value of the same name in the
/// lowered shader, and the original's instruction defining it. The values of the
/// `k`-th recorded instruction are stream `k`.
pub fn values(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    run_a: &RunResult,
    run_b: &RunResult,
    record: &[(Value, Value, Inst)],
    done: u32,
) {
    for (k, &(v, lv, inst)) in record.iter().enumerate() {
        let (Some(a), Some(b)) = (run_a.values.get(&v), run_b.values.get(&lv)) else {
            continue;
        };
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            let invocation = run_a.first_invocation as u64 + i as u64;
            if invocation >= done as u64 || (x.is_none() && y.is_none()) {
                continue;
            }
            report.values += 1;
            if x == y {
                continue;
            }
            let ty = d.ofunc.value_type(v);
            let bounds = run_a.bounds.get(&(v, invocation as u32));
            if let (Some(x), Some(y), Some(bounds)) = (x, y, bounds) {
                if within_bounds(ty.bit_size(), x, y, bounds) {
                    note_differing_sample(d, report, inst);
                    continue;
                }
            }
            let show = |c: &Option<Vec<u64>>| match c {
                None => "undefined (the instruction did not run)".to_string(),
                Some(c) => format_components(c, ty.bit_size()),
            };
            found.push(
                k as u64,
                Mismatch {
                    kind: MismatchKind::Value,
                    invocation: Some(invocation as u32),
                    span: Some(d.ofunc.inst_span(inst)),
                    instruction: Some(
                        ir::print::print_inst(d.original, d.ofunc, inst)
                            .trim()
                            .to_string(),
                    ),
                    location: d.ofunc.value_name(v).to_string(),
                    expected: show(x),
                    actual: show(y),
                    note: String::new(),
                },
            );
        }
    }
}

/// Whether the lowered run's components `y` are the original's `x`, or within the
/// intervals `bounds` the original's run gave them (float components that may err,
/// `ir::bounds`).
fn within_bounds(bits: u8, x: &[u64], y: &[u64], bounds: &[Option<ir::bounds::Interval>]) -> bool {
    x.len() == y.len()
        && x.iter().zip(y).enumerate().all(|(c, (a, b))| {
            a == b
                || bounds
                    .get(c)
                    .copied()
                    .flatten()
                    .is_some_and(|iv| ir::bounds::accepts(ir::BaseType::Float, bits, iv, *b))
        })
}

/// Whether the differing bytes `[start, end)` of allocation `alloc` are what the
/// original's stores there allow: each store of values that may err that covers them
/// ([`crate::tolerance`]) accepts what the lowered run holds at its bytes, and wrote what
/// the original's memory still holds.
fn tolerated(mem_a: &Memory, mem_b: &Memory, alloc: AllocId, start: u64, end: u64) -> bool {
    if !mem_a.has_tolerances() {
        return false;
    }
    let a = &mem_a.allocation(alloc).bytes;
    let b = &mem_b.allocation(alloc).bytes;
    let mut k = start;
    while k < end {
        if a[k as usize] == b[k as usize] {
            k += 1;
            continue;
        }
        let Some((at, t)) = mem_a.tolerance_covering(alloc, k) else {
            return false;
        };
        let range = at as usize..at as usize + t.bytes.len();
        if range.end > a.len() || a[range.clone()] != t.bytes[..] || !t.accepts(&b[range.clone()]) {
            return false;
        }
        k = range.end as u64;
    }
    true
}

/// Compares both memories after the runs: every image texel, every buffer byte. The
/// instructions that wrote a differing texel or dword are named later
/// ([`super::writers`]), for the mismatches the report lists.
pub fn memories(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    mem_a: &Memory,
    mem_b: &Memory,
) {
    let image_allocs: Vec<AllocId> = mem_a.images().map(|(_, b)| b.alloc).collect();
    for &alloc in &image_allocs {
        compare_image(d, found, report, alloc, mem_a, mem_b);
    }
    for (n, a) in mem_a.allocations().iter().enumerate() {
        let id = AllocId(n as u32);
        if image_allocs.contains(&id) {
            continue;
        }
        let b = &mem_b.allocation(id).bytes;
        report.buffer_bytes += a.bytes.len() as u64;
        if &a.bytes == b {
            continue;
        }
        // Report differing dwords.
        let mut k = 0;
        while k < a.bytes.len() {
            let end = (k - k % 4 + 4).min(a.bytes.len());
            let lo = k - k % 4;
            if a.bytes[lo..end] != b[lo..end] && !tolerated(mem_a, mem_b, id, lo as u64, end as u64)
            {
                found.push_with(
                    0,
                    Mismatch {
                        kind: MismatchKind::BufferByte,
                        invocation: None,
                        span: None,
                        instruction: None,
                        location: format!("{} bytes {lo:#x}..{end:#x}", a.name),
                        expected: hex_le(&a.bytes[lo..end]),
                        actual: hex_le(&b[lo..end]),
                        note: String::new(),
                    },
                    Some(WriterQuery {
                        space: Space::Alloc(id),
                        offset: lo as u64,
                        size: (end - lo) as u64,
                    }),
                );
            }
            k = end;
        }
    }
}

fn compare_image(
    d: &Describer<'_>,
    found: &mut Findings,
    report: &mut Report,
    alloc: AllocId,
    mem_a: &Memory,
    mem_b: &Memory,
) {
    let a = &mem_a.allocation(alloc).bytes;
    let b = &mem_b.allocation(alloc).bytes;
    let Some(f) = d.facts(alloc) else { return };
    let tb = f.texel_bytes;
    report.texels += f.positions.len() as u64;
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
        if tolerated(mem_a, mem_b, alloc, start as u64, end as u64) {
            k = end;
            continue;
        }
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
        found.push_with(
            0,
            Mismatch {
                kind: MismatchKind::ImageTexel,
                invocation: None,
                span: None,
                instruction: None,
                location,
                expected,
                actual,
                note: String::new(),
            },
            Some(WriterQuery {
                space: Space::Alloc(alloc),
                offset: start as u64,
                size: (end - start) as u64,
            }),
        );
        k = end;
    }
}
