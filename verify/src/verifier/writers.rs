//! Naming the instructions that last wrote a differing texel or buffer dword.
//!
//! No access log of the whole grid is kept, so the writers are found by replaying both
//! runs (they are deterministic) slice by slice with logging on, watching only the byte
//! ranges of the mismatches the report lists. This costs a second pair of runs, and only
//! when a verification finds image or buffer mismatches.

use crate::exec::ExecError;
use crate::memory::{Access, AccessCtx, AccessKind, Memory};
use crate::setup::Setup;
use crate::verifier::describe::Describer;
use crate::verifier::report::{Report, WriterQuery};
use crate::verifier::runs::Runs;
use lowering::messages::dataport::DataportCaps;

/// The last store or atomic of `accesses` overlapping the range of `q`.
fn last_writer(accesses: &[Access], q: &WriterQuery) -> Option<AccessCtx> {
    accesses
        .iter()
        .rev()
        .find(|a| {
            a.in_bounds
                && a.kind != AccessKind::Load
                && a.space == q.space
                && a.offset < q.offset + q.size
                && q.offset < a.offset + a.size as u64
        })
        .map(|a| a.ctx)
}

/// Fills in the listed mismatches `queries` point at (their index in
/// `report.mismatches` and their bytes): the instruction and invocation of the last
/// write in the original (else in the lowered run), and a note naming both. `mem` is
/// the initial memory the verification ran on.
pub fn name_writers(
    d: &Describer<'_>,
    setup: &Setup,
    mem: Memory,
    report: &mut Report,
    queries: &[(usize, WriterQuery)],
    dataport: Option<DataportCaps>,
) -> Result<(), ExecError> {
    let mut runs = Runs::new(
        d.original,
        d.lowered,
        setup,
        mem,
        (Vec::new(), Vec::new()),
        dataport,
    );
    runs.set_logging(true, false);
    let mut last: Vec<(Option<AccessCtx>, Option<AccessCtx>)> = vec![(None, None); queries.len()];
    while let Some(slice) = runs.next_slice()? {
        for (w, (_, q)) in last.iter_mut().zip(queries) {
            if let Some(c) = last_writer(&slice.a.accesses, q) {
                w.0 = Some(c);
            }
            if let Some(c) = last_writer(&slice.b.accesses, q) {
                w.1 = Some(c);
            }
        }
    }
    let who = |c: Option<AccessCtx>| match c {
        Some(c) => format!("`@{}` at {}, invocation {}", c.op, c.span, c.invocation),
        None => "nothing".to_string(),
    };
    for (&(index, _), &(wa, wb)) in queries.iter().zip(&last) {
        let Some(m) = report.mismatches.get_mut(index) else {
            continue;
        };
        m.note = format!(
            "last written by {} in the original, {} in the lowered run",
            who(wa),
            who(wb)
        );
        match (wa, wb) {
            (Some(c), _) => {
                m.span = Some(c.span);
                m.instruction = d.original_inst_text(c.span, c.inst);
                m.invocation = Some(c.invocation);
            }
            (None, Some(c)) => {
                m.span = Some(c.span);
                m.instruction = d.text_for(c.span, Some(c.inst));
                m.invocation = Some(c.invocation);
            }
            (None, None) => {}
        }
    }
    Ok(())
}
