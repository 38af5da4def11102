//! The lowering verifier: runs a shader before and after `lower-images` on the same
//! initial memory and checks that both did the same thing.
//!
//! The original runs with the image intrinsics at the reference level (the linear
//! reference of [`crate::image`]) on memory A; the lowered shader runs its messages with
//! the hardware's semantics ([`crate::messages`]) on memory B. Both memories are built
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
//!    optimization and cleanup passes may delete a load whose value is unused, or merge
//!    it into an equal one: a span whose original events are all loads may have no
//!    lowered events. Loop unrolling copies an access once per iteration, each copy
//!    keeping its span, and the copies run in the order of the iterations they stand
//!    for, so they pair with the original's accesses in execution order.
//! 2. **Values.** The value each image intrinsic defines keeps its id and its name
//!    (`%N`) through the lowering (the pass turns the intrinsic into the last
//!    instruction of its replacement), so its final value in every invocation is
//!    compared, bit for bit, with the lowered shader's value of the same name wherever
//!    the lowered shader still defines it (copy propagation may fold it away). Values are
//!    paired by name, not id, so that a lowered shader parsed from its own text pairs too
//!    (the parser numbers ids in the order the text names the values).
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
//! workgroups that ran before the failing one are still compared. Everything is
//! deterministic: one run per level, subgroups in order, mismatches sorted.
//!
//! **Bounded memory.** The runs go a slice of workgroups at a time (about
//! [`SLICE_INVOCATIONS`] invocations): each slice's accesses, calls and values are
//! compared, then dropped, so a verification of the largest grid the executor accepts
//! holds one slice's logs besides the two memories. The report keeps a report's worth of
//! each kind of mismatch and counts the rest. The instructions that last wrote a
//! differing texel or buffer byte are found by replaying the runs, watching only the
//! bytes the report lists.

mod compare;
mod describe;
mod error;
// The vISA leg compares byte ranges with its range helpers too.
pub(crate) mod events;
mod lower;
mod report;
mod runs;
mod writers;

pub use error::VerifyError;
pub use lower::{ambiguous_spans, lower, stamp_spans, Lowered};
pub use report::{DifferingSample, Mismatch, MismatchKind, Report};
pub use runs::SLICE_INVOCATIONS;

use crate::memory::{AccessKind, Memory};
use crate::setup::Setup;
use describe::Describer;
use ir::{Function, Inst, IntrinsicClass, Shader, Value};
use lowering::{Device, LowerOptions};
use report::Findings;
use runs::Runs;
use std::collections::HashMap;

/// Lowers `shader` ([`lower`]) and verifies the result on `setup` (whose bindings are
/// replaced by the lowering's).
pub fn lower_and_verify(
    shader: &Shader,
    device: &Device,
    options: &LowerOptions,
    setup: &Setup,
) -> Result<Report, VerifyError> {
    verify_lowered(&lower(shader, device, options)?, device, setup)
}

/// Verifies the pair [`lower`] made on `setup`, whose bindings are replaced by the
/// lowering's. The lowering does not depend on the setup, so runs on several setups
/// (other view formats, simpler contents: [`crate::defined_inputs`]) lower once.
pub fn verify_lowered(l: &Lowered, device: &Device, setup: &Setup) -> Result<Report, VerifyError> {
    let mut setup = setup.clone();
    setup.bindings = l.report.bindings.clone();
    verify(&l.original, &l.lowered, device, &setup).map_err(|e| l.at_input(e))
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
    // The whole dispatch is checked before anything runs.
    crate::exec::dispatch_invocations(
        original.local_size,
        setup.grid,
        crate::exec::ExecConfig::default().max_invocations,
    )
    .map_err(VerifyError::Original)?;
    let mem = setup.build_memory(original, device)?;

    // The values image intrinsics define, where the lowered shader still defines a value
    // of the same name with the same type.
    let lowered_value = named_values(lfunc);
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
        let Some(lv) = lowered_value(ofunc.value_name(v).number) else {
            continue;
        };
        if lfunc.is_value_live(lv) && lfunc.value_type(lv) == ofunc.value_type(v) {
            record.push((v, lv, inst));
        }
    }
    let d = Describer::new(original, lowered, ofunc, lfunc, &mem);
    let many = runs::SLICE_INVOCATIONS / original.workgroup_invocations().max(1) > 1;
    match compare_runs(&d, device, setup, &mem, &record, None) {
        // A slice of several workgroups logged more accesses than a run keeps: each
        // workgroup in a slice of its own keeps as many.
        Err(VerifyError::Original(e)) if many && runs::log_full(&e) => {
            compare_runs(&d, device, setup, &mem, &record, Some(1))
        }
        r => r,
    }
}

/// Runs both shaders on `mem`, a slice of `slice_workgroups` workgroups at a time (the
/// default when `None`), and compares them.
fn compare_runs(
    d: &Describer<'_>,
    device: &Device,
    setup: &Setup,
    mem: &Memory,
    record: &[(Value, Value, Inst)],
    slice_workgroups: Option<u64>,
) -> Result<Report, VerifyError> {
    let (original, lowered) = (d.original, d.lowered);
    let values = record.iter().map(|r| (r.0, r.1)).unzip();
    let dataport = device.dataport;
    let mut runs = Runs::new(original, lowered, setup, mem.clone(), values, dataport);
    if let Some(n) = slice_workgroups {
        runs.set_slice_workgroups(n);
    }
    let mut found = Findings::new(setup.report_limit);
    let mut report = Report::default();
    let mut failed = false;
    while let Some(slice) = runs.next_slice().map_err(VerifyError::Original)? {
        report.invocations += slice.a.invocations;
        report.memory_writes += slice
            .a
            .accesses
            .iter()
            .filter(|a| a.kind != AccessKind::Load)
            .count() as u64;
        if let Some(e) = &slice.failure {
            compare::execution_failure(d, &mut found, e);
            failed = true;
        }
        compare::addresses(d, &mut found, &mut report, &slice.a, &slice.b, slice.done);
        compare::copies(d, &mut found, &mut report, &slice.a, &slice.b, slice.done);
        compare::values(
            d,
            &mut found,
            &mut report,
            &slice.a,
            &slice.b,
            record,
            slice.done,
        );
    }
    if failed {
        // The invocations the original ran after the lowered run's failure.
        report.invocations = original
            .workgroup_invocations()
            .saturating_mul(setup.grid.iter().map(|&n| n as u64).product())
            .min(u32::MAX as u64) as u32;
    } else {
        compare::memories(d, &mut found, &mut report, &runs.a.memory, &runs.b.memory);
    }
    drop(runs);
    let queries = found.finish(&mut report);
    if !queries.is_empty() {
        writers::name_writers(d, setup, mem.clone(), &mut report, &queries, dataport)
            .map_err(VerifyError::Original)?;
    }
    Ok(report)
}

/// The value of `func` the text names `%N`, by `N`: a lookup in one step whether or not
/// the function keeps a table of names.
fn named_values(func: &Function) -> impl Fn(u32) -> Option<Value> + '_ {
    let table: Option<HashMap<u32, Value>> = (!func.names_are_ids()).then(|| {
        (0..func.num_value_ids() as u32)
            .map(Value::from_u32)
            .map(|v| (func.value_name(v).number, v))
            .collect()
    });
    move |n| match &table {
        Some(t) => t.get(&n).copied(),
        None => func.value_named(n),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Access, AccessCtx, AccessKind, AllocId, Space};
    use crate::setup::DEFAULT_GLOBAL_BYTES;
    use events::{hit_of, merge_ranges, subtract_ranges, Hit};
    use ir::{Inst, IntrinsicClass, IntrinsicOp, Span};

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
    fn a_grid_of_many_slices_is_verified_slice_by_slice() {
        // 16 invocations per workgroup: 256 workgroups per slice, so 600 workgroups run
        // as three slices (256, 256, 88).
        assert_eq!(SLICE_INVOCATIONS / 16, 256);
        let shader = parse(COPY);
        let device = Device::preset("dg2").unwrap();
        let mut s = setup(&shader, &device);
        s.grid = [20, 30, 1];
        let r = verify(&shader, &shader, &device, &s).unwrap();
        assert!(r.passed(), "{r}");
        assert_eq!(r.invocations, 9600);
        assert_eq!(r.accesses, 2 * 9600);
        assert_eq!(r.values, 9600);

        // The shifted store of every invocation is an address mismatch; the report
        // lists the first ones, counts all, and names the writers of a differing texel
        // by replaying the runs.
        s.bindings = vec![];
        let mut bad = copy_lowered(1);
        align_spans(&mut bad, &shader);
        let r = verify(&shader, &bad, &device, &s).unwrap();
        // Every invocation whose texel or shifted texel is in the view stores
        // elsewhere than the original; those outside both store nowhere in either.
        assert!(r.by_kind[&MismatchKind::Address] > 600, "{r}");
        let a = r
            .mismatches
            .iter()
            .find(|m| m.kind == MismatchKind::Address)
            .unwrap();
        assert_eq!(a.invocation, Some(0), "{a}");
        let t = r
            .mismatches
            .iter()
            .find(|m| m.kind == MismatchKind::ImageTexel)
            .unwrap();
        // Texel (0, 0): stored by invocation 0 in the original; the shifted stores
        // start at x = 1, so nothing writes it in the lowered run.
        assert_eq!(t.span, Some(Span::new(9, 5)), "{t}");
        assert_eq!(t.invocation, Some(0), "{t}");
        assert_eq!(
            t.note,
            "last written by `@image_store` at 9:5, invocation 0 in the original, nothing in \
             the lowered run"
        );
        assert!(r.mismatches.len() <= s.report_limit);
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
