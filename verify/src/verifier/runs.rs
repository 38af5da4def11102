//! The two runs of a verification, a slice of workgroups at a time.
//!
//! Each slice runs the original and then the lowered shader over the same workgroups
//! (the memories carry over from slice to slice), and hands both results to the
//! comparisons before the next slice runs; so the access logs, call traces and recorded
//! values held at any time are those of one slice (about [`SLICE_INVOCATIONS`]
//! invocations, at least one workgroup), whatever the size of the grid.

use crate::exec::{ExecConfig, ExecError, Executor, RunResult};
use crate::memory::{Memory, MemoryError, MemoryErrorKind};
use crate::setup::Setup;
use ir::interp::{Config, InterpErrorKind};
use ir::{Function, IntrinsicClass, IntrinsicOp, Shader, Value};
use lowering::messages::dataport::DataportCaps;
use std::ops::Range;

/// About how many invocations one slice runs (whole workgroups, at least one).
pub const SLICE_INVOCATIONS: u64 = 1 << 12;

/// One slice of both runs.
pub struct Slice {
    /// The original's run of the slice.
    pub a: RunResult,
    /// The lowered run of the slice (up to its failure, if it failed).
    pub b: RunResult,
    /// Why the lowered run failed in this slice, if it did.
    pub failure: Option<ExecError>,
    /// The invocations below this one ran in full in both runs (the slice's end, or the
    /// first invocation of the workgroup where the lowered run failed).
    pub done: u32,
}

/// Both runs of a verification.
pub struct Runs<'s> {
    /// The original's executor (memory A).
    pub a: Executor<'s>,
    /// The lowered shader's executor (memory B).
    pub b: Executor<'s>,
    grid: [u32; 3],
    wg_size: u64,
    num_wg: u64,
    per_slice: u64,
    next: u64,
    /// The values to record in the original's run and, for the same names, in the
    /// lowered shader's.
    record: (Vec<Value>, Vec<Value>),
    /// The lowered run failed: what is left only runs the original, to see whether it
    /// fails too.
    b_failed: bool,
}

impl<'s> Runs<'s> {
    /// Both runs of `setup.grid`, on copies of `mem`, recording `record.0` in the
    /// original's run and `record.1` in the lowered shader's, with every access logged
    /// and every image or message call traced (see [`Runs::set_logging`]).
    /// `dataport` is the legacy data port of the platform, which runs `@dp_*` messages.
    pub fn new(
        original: &'s Shader,
        lowered: &'s Shader,
        setup: &Setup,
        mem: Memory,
        record: (Vec<Value>, Vec<Value>),
        dataport: Option<DataportCaps>,
    ) -> Runs<'s> {
        let mut config = ExecConfig {
            subgroup_size: setup.subgroup_size,
            log_accesses: true,
            trace_calls: true,
            dataport,
            ..ExecConfig::default()
        };
        config.interp.max_steps = setup.max_steps;
        // Zeroing 64 KiB of shared memory per workgroup is a large part of a small run;
        // shaders that never touch it get none.
        if !uses_shared_memory(original) && !uses_shared_memory(lowered) {
            config.shared_size = 0;
        }
        let config_b = ExecConfig {
            interp: Config {
                max_steps: match (original.entry(), lowered.entry()) {
                    (Some(o), Some(l)) => lowered_step_budget(setup.max_steps, o, l),
                    _ => setup.max_steps,
                },
                ..config.interp
            },
            ..config
        };
        // The original's run tracks what each value may be where it derives from an
        // instruction Vulkan lets err (`ir::bounds`): the comparisons accept the lowered
        // run's values, texels and buffer words within those intervals.
        let mut config_a = config;
        config_a.interp.track_bounds = true;
        let mut a = Executor::with_config(original, config_a);
        let mut b = Executor::with_config(lowered, config_b);
        b.memory = mem.clone();
        a.memory = mem;
        let wg_size = original.workgroup_invocations().max(1);
        let num_wg = setup.grid.iter().map(|&n| n as u64).product::<u64>();
        Runs {
            a,
            b,
            grid: setup.grid,
            wg_size,
            num_wg,
            per_slice: (SLICE_INVOCATIONS / wg_size).max(1),
            next: 0,
            record,
            b_failed: false,
        }
    }

    /// Runs `n` workgroups per slice (at least one) instead of about
    /// [`SLICE_INVOCATIONS`] invocations' worth.
    pub fn set_slice_workgroups(&mut self, n: u64) {
        self.per_slice = n.max(1);
    }

    /// Turns access logging and call tracing on or off in both runs.
    pub fn set_logging(&mut self, logging: bool, tracing: bool) {
        for ex in [&mut self.a, &mut self.b] {
            ex.config.log_accesses = logging;
            ex.config.trace_calls = tracing;
        }
    }

    /// Runs the next slice: `Ok(None)` once the grid is done (or the lowered run
    /// failed), the original's failure as an error. After the lowered run fails, the
    /// original still runs the rest of the grid, unobserved, so that its own failure
    /// is reported first, as running it alone would.
    pub fn next_slice(&mut self) -> Result<Option<Slice>, ExecError> {
        while self.next < self.num_wg {
            let range: Range<u64> = self.next..(self.next + self.per_slice).min(self.num_wg);
            self.next = range.end;
            let (a, e) = self
                .a
                .run_workgroups(self.grid, range.clone(), &self.record.0);
            if let Some(e) = e {
                return Err(e);
            }
            if self.b_failed {
                continue;
            }
            let allowed = a
                .accesses
                .len()
                .saturating_mul(LOWERED_LOG_FACTOR)
                .saturating_add(LOWERED_LOG_SLACK);
            self.b.memory.set_log_limit(Some(allowed));
            let (b, failure) = self
                .b
                .run_workgroups(self.grid, range.clone(), &self.record.1);
            let mut done = (range.end * self.wg_size).min(u32::MAX as u64) as u32;
            if let Some(e) = &failure {
                // What ran before the failing workgroup is still compared: the first
                // wrong address usually comes before the access that leaves memory.
                // (The subgroups of a workgroup run in step between barriers, so only
                // earlier workgroups have certainly finished.)
                done = match e {
                    ExecError::Run { workgroup, .. } | ExecError::Workgroup { workgroup, .. } => {
                        let [x, y, z] = workgroup.map(|c| c as u64);
                        let [nx, ny, _] = self.grid.map(|c| c as u64);
                        let linear = x + nx * (y + ny * z);
                        (linear * self.wg_size).min(u32::MAX as u64) as u32
                    }
                    _ => (range.start * self.wg_size).min(u32::MAX as u64) as u32,
                };
                self.b_failed = true;
                self.a.config.log_accesses = false;
                self.a.config.trace_calls = false;
            }
            return Ok(Some(Slice {
                a,
                b,
                failure,
                done,
            }));
        }
        Ok(None)
    }
}

/// The step budget of the lowered run: the original's scaled by how much the lowering
/// grew the entry function (rounded up). The original's run already proved the loops
/// finish within `max_steps`; the lowered code executes the same iterations with more
/// instructions each (an untyped image access becomes dozens), which must not turn into
/// a spurious failure.
/// Whether `e` is a run stopped for making more accesses than its log may hold
/// ([`MemoryErrorKind::LogFull`]).
pub fn log_full(e: &ExecError) -> bool {
    let ExecError::Run { error, .. } = e else {
        return false;
    };
    let InterpErrorKind::Env { error, .. } = &error.kind else {
        return false;
    };
    error
        .error
        .downcast_ref::<MemoryError>()
        .is_some_and(|m| matches!(m.error, MemoryErrorKind::LogFull { .. }))
}

/// How many times the original's accesses of a slice the lowered run's may be (its
/// parameter reads, the tries of a compare-and-swap loop), beyond [`LOWERED_LOG_SLACK`]:
/// a lowered run that makes more is stopped, as one that loops past its step budget.
const LOWERED_LOG_FACTOR: usize = 8;

/// The accesses of a slice the lowered run may make beyond [`LOWERED_LOG_FACTOR`]
/// times the original's.
const LOWERED_LOG_SLACK: usize = 1 << 16;

fn lowered_step_budget(max_steps: u64, ofunc: &Function, lfunc: &Function) -> u64 {
    let before = ofunc.insts_in_order().len().max(1) as u64;
    let after = lfunc.insts_in_order().len() as u64;
    max_steps.saturating_mul(after.div_ceil(before).max(1))
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
                        | IntrinsicOp::SharedAtomic
                        | IntrinsicOp::SharedAtomicSwap
                        | IntrinsicOp::GroupAsyncCopy2d2d
                        | IntrinsicOp::GroupAsyncCopy3d3d
                ) || (x.op.info().class == IntrinsicClass::Message
                    && ir::lsc::LscDesc::from_indices(&x.indices)
                        .is_ok_and(|d| d.sfid == ir::lsc::Sfid::Slm))
                    || x.op.dp_msg().is_some_and(|m| {
                        ir::dataport::DpDesc::from_indices(m, &x.indices)
                            .is_ok_and(|d| d.addr == ir::dataport::DpAddr::Slm)
                    })
            })
        })
    })
}
