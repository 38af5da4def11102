//! Inputs the original shader is defined on. `verify` fills buffers and push
//! constants at random; a real shader often reads an index, a count or a stride from
//! them, and on random contents the original reads out of range or loops past the step
//! budget. That is undefined behaviour (without `robustBufferAccess`), so such a run
//! proves nothing about the lowering: `verify` then retries on simpler contents, as a
//! test author would pick them, and says which it used. So does a run that wrote no
//! memory at all (a bound read from a uniform buffer that every invocation is past),
//! which proves as little.

use crate::setup::{Fill, Setup};
use crate::verifier::VerifyError;
use ir::BufferKind;

/// What a failure of the original that `verify` reports adds: it failed on the
/// random contents and on each simpler fill [`InputFallback`] lists.
pub const RETRIED_NOTE: &str = " (on the random contents, and on every simpler fill verify \
     retries with: dwords 1, then zeros, in the push constants and uniform buffers, then \
     in every buffer and in global memory)";

/// Runs `verify` on `setup`, or, where the original shader fails on its random
/// contents (an index read from a buffer or push constant out of range, a loop
/// counted by one that exhausts the step budget: undefined behaviour, which proves
/// nothing about the lowering), on the first of [`InputFallback`]'s simpler contents
/// on which it runs; the original failure if it fails on all. Returns the result and
/// the fallback used.
///
/// `known` carries what an earlier run of the same shader found (its runs differ in
/// the formats of views alone, not in buffer contents): the fallback that run needed is
/// tried first, without the random contents the original already failed on, which a
/// loop counted by a random uniform makes the costliest run of all. What this run
/// needed is left there for the next.
///
/// `idle` says whether a result is of a run that wrote no memory: such a run is kept
/// only when no contents give a busier one.
pub fn with_defined_inputs<T>(
    setup: &Setup,
    keep_push: bool,
    known: &mut Option<InputFallback>,
    idle: impl Fn(&T) -> bool,
    mut verify: impl FnMut(&Setup) -> Result<T, VerifyError>,
) -> Result<(T, Option<InputFallback>), VerifyError> {
    if let Some(fallback) = *known {
        if let Some(simpler) = fallback.apply(setup, keep_push) {
            match verify(&simpler) {
                Err(VerifyError::Original(_)) => {}
                Ok(r) if idle(&r) => {}
                other => return other.map(|r| (r, Some(fallback))),
            }
        }
    }
    let (result, used) = defined_inputs(setup, keep_push, idle, verify)?;
    *known = used;
    Ok((result, used))
}

/// [`with_defined_inputs`] without an earlier run's finding.
fn defined_inputs<T>(
    setup: &Setup,
    keep_push: bool,
    idle: impl Fn(&T) -> bool,
    mut verify: impl FnMut(&Setup) -> Result<T, VerifyError>,
) -> Result<(T, Option<InputFallback>), VerifyError> {
    // What to return if no contents give a run that passes and writes memory: the
    // first run that passed without writing, else the original's failure on random
    // contents.
    let mut fallback_outcome = match verify(setup) {
        Err(e @ VerifyError::Original(_)) => Err(e),
        Ok(r) if idle(&r) => Ok((r, None)),
        other => return other.map(|r| (r, None)),
    };
    for fallback in InputFallback::ALL {
        let Some(simpler) = fallback.apply(setup, keep_push) else {
            continue;
        };
        match verify(&simpler) {
            Err(VerifyError::Original(_)) => continue,
            Ok(r) if idle(&r) => {
                if fallback_outcome.is_err() {
                    fallback_outcome = Ok((r, Some(fallback)));
                }
            }
            other => return other.map(|r| (r, Some(fallback))),
        }
    }
    fallback_outcome
}

/// Simpler buffer and push-constant contents `verify` retries with when the original
/// shader fails on the random ones, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFallback {
    /// Every dword of the push constants and uniform buffers 1 (a count of one, an
    /// index of one; a float reads as the smallest subnormal).
    UniformOnes,
    /// Every dword of the push constants, of every buffer and of global memory 1.
    AllOnes,
    /// The push constants and uniform buffers zero.
    UniformZero,
    /// The push constants, every buffer and global memory zero.
    AllZero,
}

impl InputFallback {
    /// Every fallback, in the order they are tried.
    pub const ALL: [InputFallback; 4] = [
        InputFallback::UniformOnes,
        InputFallback::AllOnes,
        InputFallback::UniformZero,
        InputFallback::AllZero,
    ];

    /// `setup` with these contents; `None` where they change nothing. The push
    /// constants keep their bytes where `keep_push` (the user gave them). The slots
    /// that pass global allocations' addresses are filled like the rest: what they held
    /// never reaches the memory, where `Setup::build_memory` writes each allocation's
    /// base into its slot.
    fn apply(self, setup: &Setup, keep_push: bool) -> Option<Setup> {
        let dword: u32 = match self {
            InputFallback::UniformOnes | InputFallback::AllOnes => 1,
            InputFallback::UniformZero | InputFallback::AllZero => 0,
        };
        let fill = |bytes: &mut [u8]| {
            for (k, b) in bytes.iter_mut().enumerate() {
                *b = dword.to_le_bytes()[k % 4];
            }
        };
        let mut s = setup.clone();
        if !keep_push {
            fill(&mut s.push_constants);
        }
        let all = matches!(self, InputFallback::AllOnes | InputFallback::AllZero);
        for b in &mut s.buffers {
            if b.kind == BufferKind::Ubo || all {
                fill(&mut b.bytes);
            }
        }
        if all {
            // Global memory too (what a pointer reaches, a record an index is read
            // from): the pointers in it are written when the memory is built.
            for g in &mut s.globals {
                let mut bytes = vec![0; g.size];
                fill(&mut bytes);
                g.fill = Fill::Bytes(bytes);
            }
        }
        (s != *setup).then_some(s)
    }

    /// How the summary names the contents.
    pub fn describe(self) -> &'static str {
        match self {
            InputFallback::UniformOnes => "push constants and uniform buffers of dwords 1",
            InputFallback::AllOnes => "push constants, buffers and global memory of dwords 1",
            InputFallback::UniformZero => "push constants and uniform buffers zero",
            InputFallback::AllZero => "push constants, buffers and global memory zero",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{self, RunOptions};
    use crate::exec::ExecError;

    #[test]
    fn later_runs_start_from_the_contents_an_earlier_run_needed() {
        let text = "shader compute (local_size=1,1,1)
buffer @u : ubo (block=0, size=16, stride=4)
fn main {
  block b0:
}
";
        let shader = cli::load("t.ir", text).unwrap();
        let dev = cli::device("dg2").unwrap();
        let o = RunOptions {
            target: Some("dg2".into()),
            ..RunOptions::default()
        };
        let setup = cli::make_setup(&shader, &dev, &o).unwrap();
        // An original that fails on the random uniforms and runs on any other.
        let mut tried = Vec::new();
        let mut run = |s: &Setup| {
            tried.push(s == &setup);
            if s == &setup {
                Err(VerifyError::Original(ExecError::NoEntry))
            } else {
                Ok(())
            }
        };
        let mut known = None;
        let (_, used) =
            with_defined_inputs(&setup, false, &mut known, |_| false, &mut run).unwrap();
        assert_eq!(used, Some(InputFallback::UniformOnes));
        assert_eq!(known, Some(InputFallback::UniformOnes));
        // The next run goes to those contents at once.
        let (_, used) =
            with_defined_inputs(&setup, false, &mut known, |_| false, &mut run).unwrap();
        assert_eq!(used, Some(InputFallback::UniformOnes));
        assert_eq!(tried, [true, false, false]);
    }
}
