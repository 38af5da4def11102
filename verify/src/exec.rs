//! The executor: binds a shader to a [`Memory`] and runs a grid of workgroups.
//!
//! A dispatch of `workgroups` runs each workgroup in turn (x fastest, then y, then z),
//! each with fresh shared local memory (zeros, or the bytes given to
//! [`Executor::set_initial_shared`]), and each workgroup as subgroups of the shader's
//! `subgroup_size` (or [`ExecConfig::subgroup_size`] when the shader fixes none)
//! consecutive invocations (linear local index `x + y·sx + z·sx·sy`); the last subgroup
//! of a workgroup whose size is not a multiple of the subgroup size runs with its
//! trailing lanes disabled, as a GPU dispatches it.
//!
//! The subgroups of a workgroup run in step from barrier to barrier: each in ascending
//! order runs up to its next `barrier` (or its end), and once all wait at the same
//! barrier they all continue past it. Between barriers a subgroup runs alone, so atomics
//! are applied in a defined order (subgroups ascending, lanes ascending within a
//! message). A subgroup that finishes while others wait at a barrier, or subgroups
//! waiting at different barriers, are a [`WorkgroupError`] (a barrier inside control flow
//! that diverges within a subgroup is the interpreter's error).
//!
//! An invocation is identified by its linear index in the dispatch:
//! `workgroup_linear · workgroup_size + local_linear`.
//!
//! The environment serves:
//! * the system values `load_global_invocation_id`, `load_local_invocation_id`,
//!   `load_workgroup_id`, `load_num_workgroups`, `load_local_invocation_index` (the
//!   linear local index), `load_subgroup_invocation` (the lane), `load_subgroup_id`
//!   (the subgroup's index in the workgroup), `load_num_subgroups`;
//! * the group async copies and `group_wait_events` at the reference level
//!   ([`crate::async_copy`]);
//! * `load_ubo`, `load_push_constant` (at `base + offset`), `load_ssbo`/`store_ssbo`,
//!   `load_global`/`store_global`, `load_shared`/`store_shared` (at `base + offset`):
//!   components of `bit_size / 8` bytes each, little-endian, lane by lane;
//! * the high-level image intrinsics and `image_load_param` on the logical image
//!   ([`crate::image`]);
//! * the message intrinsics with the hardware's semantics
//!   ([`crate::message_intrinsics`], over [`crate::messages`]).

use crate::async_copy::{AsyncCopies, CountMismatch};
use crate::call::{access_ctx, lane_err};
use crate::memory::{Access, AccessKind, Memory, Target};
use ir::interp::{Config, Env, EnvError, InterpError, Interpreter, IntrinsicCall, RunState, Stats};
use ir::{IndexKind, Inst, IntrinsicClass, IntrinsicOp, Shader, Span, Value};
use std::collections::BTreeMap;
use std::fmt;

/// The most invocations a dispatch may have by default ([`ExecConfig::max_invocations`]):
/// 2^24. The executor interprets every invocation (a few microseconds each, plus the
/// access log), so a dispatch of this size already takes minutes; anything larger is
/// taken for a mistake in the grid rather than run for hours.
pub const DEFAULT_MAX_INVOCATIONS: u64 = 1 << 24;

/// Executor settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExecConfig {
    /// Lanes per subgroup, 1 to 32, for shaders that do not fix their subgroup size.
    pub subgroup_size: u32,
    /// Bytes of shared local memory per workgroup.
    pub shared_size: usize,
    /// Whether to record every memory access.
    pub log_accesses: bool,
    /// Whether to record every execution of an image or message intrinsic
    /// ([`RunResult::calls`]), which the verifier correlates the two levels with.
    pub trace_calls: bool,
    /// Interpreter settings (the loop guard).
    pub interp: Config,
    /// The legacy data port of the generation the shader runs on, which decides how
    /// `@dp_*` messages behave ([`crate::messages::dataport`]); `None` runs no `@dp_*` message.
    pub dataport: Option<lowering::messages::dataport::DataportCaps>,
    /// The most invocations (workgroups times workgroup size) a dispatch may have; a
    /// larger one is [`ExecError::TooManyInvocations`]. Invocation indices are 32-bit,
    /// so no dispatch runs more than 2^32 - 1 invocations whatever this says.
    pub max_invocations: u64,
}

impl Default for ExecConfig {
    fn default() -> ExecConfig {
        ExecConfig {
            subgroup_size: 16,
            shared_size: 64 * 1024,
            log_accesses: true,
            trace_calls: false,
            interp: Config::default(),
            dataport: None,
            max_invocations: DEFAULT_MAX_INVOCATIONS,
        }
    }
}

/// Why a dispatch failed.
#[derive(Debug)]
pub enum ExecError {
    /// The shader has no `main`.
    NoEntry,
    /// The settings or the dispatch size cannot be run.
    Config {
        /// Why.
        reason: String,
    },
    /// The dispatch has more invocations than [`ExecConfig::max_invocations`] allows.
    TooManyInvocations {
        /// Workgroups in x, y, z.
        workgroups: [u32; 3],
        /// The shader's workgroup size.
        local_size: [u32; 3],
        /// The limit in force (at most 2^32 - 1).
        limit: u64,
    },
    /// The subgroups of a workgroup disagree at a workgroup-level operation.
    Workgroup {
        /// The workgroup (x, y, z).
        workgroup: [u32; 3],
        /// What went wrong.
        error: WorkgroupError,
    },
    /// A subgroup failed.
    Run {
        /// The workgroup (x, y, z).
        workgroup: [u32; 3],
        /// The invocations of the subgroup's lanes (linear indices in the dispatch).
        first_invocation: u32,
        /// The interpreter's error (instruction, lane, cause).
        error: InterpError,
    },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::NoEntry => f.write_str("the shader has no function `main`"),
            ExecError::Config { reason } => write!(f, "cannot dispatch: {reason}"),
            ExecError::TooManyInvocations {
                workgroups,
                local_size,
                limit,
            } => {
                let [x, y, z] = workgroups;
                write!(f, "{x} x {y} x {z} workgroups of ")?;
                match workgroup_invocations(*local_size) {
                    Some(n) => write!(f, "{n}")?,
                    None => write!(
                        f,
                        "{} x {} x {}",
                        local_size[0], local_size[1], local_size[2]
                    )?,
                }
                write!(
                    f,
                    " invocations is more than the executor's limit of {limit} invocations"
                )
            }
            ExecError::Workgroup { workgroup, error } => write!(
                f,
                "workgroup ({}, {}, {}): {error}",
                workgroup[0], workgroup[1], workgroup[2]
            ),
            ExecError::Run {
                workgroup,
                first_invocation,
                error,
            } => write!(
                f,
                "workgroup ({}, {}, {}), subgroup from invocation {first_invocation}: {error}",
                workgroup[0], workgroup[1], workgroup[2]
            ),
        }
    }
}

impl std::error::Error for ExecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExecError::Run { error, .. } => Some(error),
            ExecError::Workgroup { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Invocations in a workgroup of `local_size`, or `None` if the count does not fit in
/// 64 bits (the IR's workgroup dimensions are 32-bit each).
pub fn workgroup_invocations(local_size: [u32; 3]) -> Option<u64> {
    local_size
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(d as u64))
}

/// The invocations of a dispatch of `workgroups` workgroups of `local_size`, checked
/// against `max_invocations` (and the 32-bit invocation index): what
/// [`Executor::run`] checks before running anything, for callers that want to reject
/// a grid early. An empty workgroup is a [`ExecError::Config`] error.
pub fn dispatch_invocations(
    local_size: [u32; 3],
    workgroups: [u32; 3],
    max_invocations: u64,
) -> Result<u32, ExecError> {
    let wg_size = workgroup_invocations(local_size);
    if wg_size == Some(0) {
        return Err(ExecError::Config {
            reason: format!(
                "a workgroup of {} x {} x {} has no invocations",
                local_size[0], local_size[1], local_size[2]
            ),
        });
    }
    let limit = max_invocations.min(u32::MAX as u64);
    let total = wg_size.and_then(|n| {
        workgroups
            .iter()
            .try_fold(n, |t, &w| t.checked_mul(w as u64))
    });
    match total {
        Some(t) if t <= limit => Ok(t as u32),
        _ => Err(ExecError::TooManyInvocations {
            workgroups,
            local_size,
            limit,
        }),
    }
}

/// How the subgroups of a workgroup failed to meet at a barrier or a group async copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkgroupError {
    /// A subgroup finished while others wait at a barrier.
    FinishedBeforeBarrier {
        /// The subgroup that finished.
        subgroup: u32,
        /// The barrier's number in the run (1 for the first).
        index: u64,
        /// A subgroup waiting there.
        waiting: u32,
        /// Where that subgroup waits.
        at: Span,
    },
    /// Two subgroups wait at different barrier instructions.
    DifferentBarriers {
        /// The barrier's number in the run (1 for the first).
        index: u64,
        /// One subgroup.
        subgroup: u32,
        /// Its barrier.
        at: Span,
        /// Another subgroup.
        other: u32,
        /// Its barrier.
        other_at: Span,
    },
    /// A subgroup executed a group async copy another number of times than it was
    /// performed.
    AsyncCopy(CountMismatch),
}

impl fmt::Display for WorkgroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkgroupError::FinishedBeforeBarrier {
                subgroup,
                index,
                waiting,
                at,
            } => write!(
                f,
                "subgroup {subgroup} finished without reaching barrier {index} (subgroup {waiting} waits at {at}): every invocation of the workgroup must reach every barrier"
            ),
            WorkgroupError::DifferentBarriers {
                index,
                subgroup,
                at,
                other,
                other_at,
            } => write!(
                f,
                "barrier {index} is the one at {at} for subgroup {subgroup} but the one at {other_at} for subgroup {other}: the invocations of a workgroup must reach the same barriers"
            ),
            WorkgroupError::AsyncCopy(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WorkgroupError {}

/// What a dispatch, or a range of its workgroups, produced (the memory itself stays in
/// the executor).
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// For each value asked for, its components in every invocation run (indexed by the
    /// invocation's linear index minus [`RunResult::first_invocation`]), or `None` where
    /// the invocation did not define it.
    pub values: BTreeMap<Value, Vec<Option<Vec<u64>>>>,
    /// With [`ir::interp::Config::track_bounds`]: for the values asked for, by value
    /// and invocation (the linear index), the intervals of their components where any
    /// component may differ from the executor's value ([`ir::bounds`]).
    pub bounds: BTreeMap<(Value, u32), Vec<Option<ir::bounds::Interval>>>,
    /// The linear index of the first invocation run: 0 for a whole dispatch, the first
    /// invocation of the first workgroup for [`Executor::run_workgroups`].
    pub first_invocation: u32,
    /// Every memory access, in execution order (empty when logging is off).
    pub accesses: Vec<Access>,
    /// How many memory accesses the run made (discarded ones included), logged or not.
    pub access_count: u64,
    /// Every execution of an image or message intrinsic, in execution order (empty
    /// unless [`ExecConfig::trace_calls`] is on).
    pub calls: Vec<CallTrace>,
    /// Interpreter counters, summed over the subgroups.
    pub stats: Stats,
    /// Number of invocations run.
    pub invocations: u32,
}

impl RunResult {
    /// The value of `value` asked for in invocation `invocation` (a linear index in the
    /// dispatch), if that invocation was run and defined it.
    pub fn value(&self, value: Value, invocation: u32) -> Option<&[u64]> {
        let i = invocation.checked_sub(self.first_invocation)? as usize;
        self.values.get(&value)?.get(i)?.as_deref()
    }
}

/// One execution of an image or message intrinsic by a subgroup.
///
/// Lane `i` of the subgroup runs invocation `first_invocation + i`. A message lane that
/// is active but whose predicate is false touches no memory and leaves no access in the
/// log; the trace still shows that the message ran for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CallTrace {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// Its opcode.
    pub op: IntrinsicOp,
    /// The invocation lane 0 runs.
    pub first_invocation: u32,
    /// The lanes executing the instruction (bit `i` = lane `i`).
    pub active: u32,
    /// The active lanes whose predicate is true (all active lanes without a predicate).
    pub enabled: u32,
    /// The accesses the call made are `RunResult::accesses[log_start..log_end]` (with
    /// access logging on).
    pub log_start: usize,
    /// End of the call's accesses in the log.
    pub log_end: usize,
}

/// Runs a shader over memory.
pub struct Executor<'s> {
    shader: &'s Shader,
    /// The memory the shader runs on: bind images and buffers here before running,
    /// inspect it afterwards.
    pub memory: Memory,
    /// Settings.
    pub config: ExecConfig,
    /// The initial contents of every workgroup's shared memory (zeros after them).
    shared_init: Vec<u8>,
}

impl<'s> Executor<'s> {
    /// An executor with an empty memory and default settings.
    pub fn new(shader: &'s Shader) -> Executor<'s> {
        Executor::with_config(shader, ExecConfig::default())
    }

    /// An executor with an empty memory and the given settings.
    pub fn with_config(shader: &'s Shader, config: ExecConfig) -> Executor<'s> {
        Executor {
            shader,
            memory: Memory::new(),
            config,
            shared_init: Vec::new(),
        }
    }

    /// Sets the bytes every workgroup's shared local memory starts with (the rest of it,
    /// up to [`ExecConfig::shared_size`], is zero; bytes beyond it are ignored).
    pub fn set_initial_shared(&mut self, bytes: Vec<u8>) {
        self.shared_init = bytes;
    }

    /// The subgroup size the shader runs with: the shader's own (`subgroup_size` in its
    /// header) when it fixes one, else [`ExecConfig::subgroup_size`].
    pub fn subgroup_size(&self) -> u32 {
        self.shader
            .subgroup_size
            .unwrap_or(self.config.subgroup_size)
    }

    /// The shader.
    pub fn shader(&self) -> &'s Shader {
        self.shader
    }

    /// Runs `main` over `workgroups` workgroups.
    pub fn run(&mut self, workgroups: [u32; 3]) -> Result<RunResult, ExecError> {
        self.run_recording(workgroups, &[])
    }

    /// Runs `main` over `workgroups` workgroups, recording the values of `record` in
    /// every invocation.
    pub fn run_recording(
        &mut self,
        workgroups: [u32; 3],
        record: &[Value],
    ) -> Result<RunResult, ExecError> {
        match self.run_partial(workgroups, record) {
            (result, None) => Ok(result),
            (_, Some(e)) => Err(e),
        }
    }

    /// [`Executor::run_recording`], returning what ran even when a subgroup fails: the
    /// result holds the subgroups before the failing one in full (values, stats), and
    /// the accesses and calls made up to the failure, including the failing subgroup's.
    pub fn run_partial(
        &mut self,
        workgroups: [u32; 3],
        record: &[Value],
    ) -> (RunResult, Option<ExecError>) {
        self.run_workgroups(workgroups, 0..u64::MAX, record)
    }

    /// Runs the workgroups of a dispatch of `workgroups` whose linear indices (x
    /// fastest, then y, then z) are in `range` (clipped to the dispatch), recording the
    /// values of `record`; as [`Executor::run_partial`] otherwise. The memory carries
    /// over from one call to the next, so a dispatch can be run a slice of workgroups at
    /// a time, each result (its values, its access log) covering only its slice: what
    /// keeps a verification of a large grid within bounded memory.
    pub fn run_workgroups(
        &mut self,
        workgroups: [u32; 3],
        range: std::ops::Range<u64>,
        record: &[Value],
    ) -> (RunResult, Option<ExecError>) {
        let mut result = RunResult::default();
        let count_before = self.memory.access_count();
        let error = self.run_into(workgroups, range, record, &mut result).err();
        result.accesses = self.memory.take_log();
        result.access_count = self.memory.access_count() - count_before;
        (result, error)
    }

    fn run_into(
        &mut self,
        workgroups: [u32; 3],
        range: std::ops::Range<u64>,
        record: &[Value],
        result: &mut RunResult,
    ) -> Result<(), ExecError> {
        let shader = self.shader;
        let func = shader.entry().ok_or(ExecError::NoEntry)?;
        let sg = self.subgroup_size();
        if !(1..=32).contains(&sg) {
            return Err(ExecError::Config {
                reason: format!("the subgroup size must be 1 to 32, not {sg}"),
            });
        }
        let local = shader.local_size;
        let total = dispatch_invocations(local, workgroups, self.config.max_invocations)? as u64;
        // Both products fit: the workgroup size was computed without overflow and is not
        // 0, so the number of workgroups is at most the total.
        let num_wg = workgroups.iter().map(|&n| n as u64).product::<u64>();
        let wg_size = local.iter().map(|&n| n as u64).product::<u64>();
        let range = range.start.min(num_wg)..range.end.min(num_wg);
        // Within the total, which fits in 32 bits.
        let first = (range.start * wg_size) as u32;
        let count = ((range.end - range.start) * wg_size).min(total);
        result.first_invocation = first;
        result.invocations = count as u32;
        for &v in record {
            result.values.insert(v, vec![None; count as usize]);
        }
        self.memory.set_logging(self.config.log_accesses);
        let num_sg = wg_size.div_ceil(sg as u64) as usize;
        // One interpreter per subgroup of a workgroup, reused for every workgroup: the
        // subgroups of a workgroup run in step from barrier to barrier. Without a
        // barrier in the function, running them in step is running them one after the
        // other, and one interpreter does (its value store is the executor's largest
        // allocation).
        let has_barrier = func.insts_in_order().into_iter().any(|i| {
            func.inst(i)
                .as_intrinsic()
                .is_some_and(|x| x.op == IntrinsicOp::Barrier)
        });
        let in_step = if has_barrier { num_sg } else { 1 };
        let mut interps: Vec<Interpreter<'_>> = (0..in_step)
            .map(|_| Interpreter::new(shader, func, self.config.interp))
            .collect();
        let grid = Grid {
            local_size: local,
            workgroups,
            subgroup_size: sg,
        };
        let mut lanes = vec![0u32; sg as usize];
        self.memory
            .set_scratch(shader.scratch_size, wg_size.min(u64::from(u32::MAX)) as u32);
        for wl in range {
            let wg = linear_to_xyz(wl, workgroups);
            self.memory
                .begin_workgroup(wl as u32, self.config.shared_size);
            if !self.shared_init.is_empty() {
                let shared = self.memory.shared_mut();
                let n = shared.len().min(self.shared_init.len());
                shared[..n].copy_from_slice(&self.shared_init[..n]);
            }
            let mut copies = AsyncCopies::new();
            // (first invocation, lanes, active mask) of each subgroup run in step.
            let mut subgroups = Vec::with_capacity(num_sg);
            if has_barrier {
                for (i, interp) in interps.iter_mut().enumerate() {
                    let slot = SubgroupSlot::fill(wl * wg_size, wg_size, sg, i, &mut lanes);
                    interp
                        .start(&lanes, slot.mask)
                        .map_err(run_error(wg, slot.first))?;
                    subgroups.push(slot);
                }
            } else {
                for i in 0..num_sg {
                    let slot = SubgroupSlot::fill(wl * wg_size, wg_size, sg, i, &mut lanes);
                    let interp = &mut interps[0];
                    let trace = self.config.trace_calls.then_some(&mut result.calls);
                    let mut env =
                        ExecEnv::new(&mut self.memory, grid, trace, &mut copies, i, slot.mask);
                    env.dataport = self.config.dataport;
                    interp
                        .run_masked(&lanes, slot.mask, &mut env)
                        .map_err(run_error(wg, slot.first))?;
                    record_subgroup(result, interp, slot);
                }
            }
            // Without subgroups in step the loop ends at once.
            while !subgroups.is_empty() {
                // Every subgroup runs to its next barrier (or to its end).
                let mut stops = Vec::with_capacity(num_sg);
                for (i, interp) in interps.iter_mut().enumerate() {
                    let slot = subgroups[i];
                    let trace = self.config.trace_calls.then_some(&mut result.calls);
                    let mut env =
                        ExecEnv::new(&mut self.memory, grid, trace, &mut copies, i, slot.mask);
                    env.dataport = self.config.dataport;
                    let state = interp.resume(&mut env).map_err(run_error(wg, slot.first))?;
                    stops.push(state);
                }
                let wg_err = |error| ExecError::Workgroup {
                    workgroup: wg,
                    error,
                };
                let waiting = stops.iter().enumerate().find_map(|(i, s)| match s {
                    RunState::Barrier(p) => Some((i, *p)),
                    RunState::Finished => None,
                });
                let Some((at, point)) = waiting else {
                    break;
                };
                for (i, s) in stops.iter().enumerate() {
                    match s {
                        RunState::Finished => {
                            return Err(wg_err(WorkgroupError::FinishedBeforeBarrier {
                                subgroup: i as u32,
                                index: point.index,
                                waiting: at as u32,
                                at: point.span,
                            }))
                        }
                        RunState::Barrier(p) if p.inst != point.inst => {
                            return Err(wg_err(WorkgroupError::DifferentBarriers {
                                index: point.index,
                                subgroup: i as u32,
                                at: p.span,
                                other: at as u32,
                                other_at: point.span,
                            }))
                        }
                        RunState::Barrier(_) => {}
                    }
                }
            }
            copies
                .finish(num_sg as u32)
                .map_err(|e| ExecError::Workgroup {
                    workgroup: wg,
                    error: WorkgroupError::AsyncCopy(e),
                })?;
            // Subgroups in step are complete only now; the others were recorded as they
            // finished.
            for (interp, &slot) in interps.iter().zip(&subgroups) {
                record_subgroup(result, interp, slot);
            }
        }
        Ok(())
    }
}

/// `index` split into (x, y, z) coordinates of a `dims` grid, x fastest.
fn linear_to_xyz(index: u64, dims: [u32; 3]) -> [u32; 3] {
    let [nx, ny, _] = dims.map(|n| n as u64);
    [
        (index % nx) as u32,
        ((index / nx) % ny) as u32,
        (index / (nx * ny)) as u32,
    ]
}

/// Turns an interpreter error into the error of the subgroup from `first_invocation`.
fn run_error(workgroup: [u32; 3], first_invocation: u32) -> impl FnOnce(InterpError) -> ExecError {
    move |error| ExecError::Run {
        workgroup,
        first_invocation,
        error,
    }
}

/// Where one subgroup of a workgroup runs.
#[derive(Clone, Copy)]
struct SubgroupSlot {
    /// The invocation of lane 0.
    first: u32,
    /// The lanes that exist (fewer than the subgroup size in a trailing partial subgroup).
    count: usize,
    /// The execution mask of those lanes.
    mask: u32,
}

impl SubgroupSlot {
    /// Subgroup `index` (of size `sg`) of the workgroup of `wg_size` invocations starting
    /// at invocation `wg_first`; writes its lanes' invocations to `lanes`.
    fn fill(wg_first: u64, wg_size: u64, sg: u32, index: usize, lanes: &mut [u32]) -> Self {
        let start = index as u64 * sg as u64;
        let count = (wg_size - start).min(sg as u64) as usize;
        let first = (wg_first + start) as u32;
        for (i, l) in lanes.iter_mut().enumerate() {
            *l = first.wrapping_add(i as u32);
        }
        let mask = if count == 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        };
        SubgroupSlot { first, count, mask }
    }
}

/// Adds a finished subgroup's counters and recorded values to `result`.
fn record_subgroup(result: &mut RunResult, interp: &Interpreter<'_>, slot: SubgroupSlot) {
    let SubgroupSlot { first, count, .. } = slot;
    let first = first - result.first_invocation;
    let stats = interp.stats();
    result.stats.blocks += stats.blocks;
    result.stats.instructions += stats.instructions;
    result.stats.intrinsics += stats.intrinsics;
    for (v, per_inv) in result.values.iter_mut() {
        for lane in 0..count {
            per_inv[first as usize + lane] = interp.value(*v, lane).map(|c| c.to_vec());
            if let Some(b) = interp.value_bounds(*v, lane) {
                if b.iter().any(Option::is_some) {
                    let invocation = result.first_invocation + first + lane as u32;
                    result.bounds.insert((*v, invocation), b.to_vec());
                }
            }
        }
    }
}

/// The environment of one subgroup.
struct ExecEnv<'m> {
    mem: &'m mut Memory,
    grid: Grid,
    trace: Option<&'m mut Vec<CallTrace>>,
    /// The subgroup's index in its workgroup.
    subgroup: u32,
    /// The lanes the subgroup runs (all but the trailing ones of a partial subgroup).
    lanes: u32,
    /// The workgroup's group async copies.
    copies: &'m mut AsyncCopies,
    /// The legacy data port `@dp_*` messages run on.
    dataport: Option<lowering::messages::dataport::DataportCaps>,
}

/// The shape of a dispatch.
#[derive(Clone, Copy)]
struct Grid {
    local_size: [u32; 3],
    workgroups: [u32; 3],
    subgroup_size: u32,
}

impl<'m> ExecEnv<'m> {
    fn new(
        mem: &'m mut Memory,
        grid: Grid,
        trace: Option<&'m mut Vec<CallTrace>>,
        copies: &'m mut AsyncCopies,
        subgroup: usize,
        lanes: u32,
    ) -> Self {
        ExecEnv {
            mem,
            grid,
            trace,
            subgroup: subgroup as u32,
            lanes,
            copies,
            dataport: None,
        }
    }

    /// (workgroup id, local id) of an invocation.
    fn ids(&self, invocation: u32) -> ([u32; 3], [u32; 3]) {
        let wg_size: u64 = self.grid.local_size.iter().map(|&n| n as u64).product();
        let inv = invocation as u64;
        let wg = linear_to_xyz(inv / wg_size, self.grid.workgroups);
        let local = linear_to_xyz(inv % wg_size, self.grid.local_size);
        (wg, local)
    }

    /// The linear local index of an invocation in its workgroup.
    fn local_index(&self, invocation: u32) -> u32 {
        let wg_size: u64 = self.grid.local_size.iter().map(|&n| n as u64).product();
        (invocation as u64 % wg_size) as u32
    }
}

/// Bytes per component of memory data of `bits` bits.
fn component_bytes(bits: u8) -> Result<usize, EnvError> {
    match bits {
        8 | 16 | 32 | 64 => Ok(bits as usize / 8),
        _ => Err(EnvError::msg(format!(
            "{bits}-bit data has no memory representation"
        ))),
    }
}

impl Env for ExecEnv<'_> {
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
        call.check_sources()?;
        let op = call.op();
        let class = op.info().class;
        if matches!(class, IntrinsicClass::Image | IntrinsicClass::Message) {
            let log_start = self.mem.log().len();
            let enabled = call.enabled_mask();
            let r = if op == IntrinsicOp::Txl {
                crate::filtering::execute(self.mem, call)
            } else if op == IntrinsicOp::Tg4 {
                crate::filtering::gather(self.mem, call)
            } else if class == IntrinsicClass::Image {
                crate::image::execute(self.mem, call)
            } else if op.is_dataport() {
                crate::dataport_intrinsics::execute(self.mem, self.dataport.as_ref(), call)
            } else {
                crate::message_intrinsics::execute(self.mem, call)
            };
            if let Some(trace) = self.trace.as_deref_mut() {
                trace.push(CallTrace {
                    inst: call.inst,
                    span: call.span,
                    op,
                    first_invocation: call.invocations.first().copied().unwrap_or(0),
                    active: call.exec_mask,
                    enabled,
                    log_start,
                    log_end: self.mem.log().len(),
                });
            }
            return r;
        }
        let lanes: Vec<usize> = call.active_lanes().collect();
        match op {
            IntrinsicOp::ImageLoadParam => return crate::image::execute(self.mem, call),
            IntrinsicOp::GroupAsyncCopy2d2d | IntrinsicOp::GroupAsyncCopy3d3d => {
                return self
                    .copies
                    .execute(self.mem, call, self.subgroup, self.lanes)
            }
            IntrinsicOp::GroupWaitEvents => return AsyncCopies::wait(call, self.lanes),
            op if crate::memory_atomic::serves(op) => {
                return crate::memory_atomic::execute(self.mem, call)
            }
            IntrinsicOp::LoadLocalInvocationIndex
            | IntrinsicOp::LoadSubgroupInvocation
            | IntrinsicOp::LoadSubgroupId
            | IntrinsicOp::LoadNumSubgroups
            | IntrinsicOp::LoadSubgroupSize => {
                let wg_size: u32 = self.grid.local_size.iter().product();
                for lane in lanes {
                    let li = self.local_index(call.invocations[lane]);
                    let v = match op {
                        IntrinsicOp::LoadLocalInvocationIndex => li,
                        IntrinsicOp::LoadSubgroupInvocation => li % self.grid.subgroup_size,
                        IntrinsicOp::LoadSubgroupId => li / self.grid.subgroup_size,
                        IntrinsicOp::LoadSubgroupSize => self.grid.subgroup_size,
                        _ => wg_size.div_ceil(self.grid.subgroup_size),
                    };
                    call.set_dest(lane, &[v as u64]);
                }
                return Ok(());
            }
            IntrinsicOp::GetSsboSize => {
                // The size of the allocation bound at the block: what a driver's
                // descriptor records for the buffer range (anv's
                // `anv_address_range_descriptor::range`).
                for lane in lanes {
                    let block = call.src_scalar(0, lane) as u32;
                    let alloc = self.mem.ssbo(block).ok_or_else(|| {
                        let ctx = access_ctx(call, lane);
                        lane_err(
                            lane,
                            Memory::unbound(AccessKind::Load, "ssbo binding", block as u64, &ctx),
                        )
                    })?;
                    let bytes = self.mem.allocation(alloc).bytes.len() as u64;
                    call.set_dest(lane, &[bytes.min(u32::MAX as u64)]);
                }
                return Ok(());
            }
            IntrinsicOp::LoadGlobalInvocationId
            | IntrinsicOp::LoadLocalInvocationId
            | IntrinsicOp::LoadWorkgroupId
            | IntrinsicOp::LoadNumWorkgroups => {
                for lane in lanes {
                    let (wg, local) = self.ids(call.invocations[lane]);
                    let v: [u32; 3] = match op {
                        IntrinsicOp::LoadGlobalInvocationId => {
                            [0, 1, 2].map(|i| wg[i] * self.grid.local_size[i] + local[i])
                        }
                        IntrinsicOp::LoadLocalInvocationId => local,
                        IntrinsicOp::LoadWorkgroupId => wg,
                        _ => self.grid.workgroups,
                    };
                    call.set_dest(lane, &v.map(|x| x as u64));
                }
                return Ok(());
            }
            _ => {}
        }
        // Loads and stores of plain memory; a store's data is its source 0.
        let is_store = matches!(
            op,
            IntrinsicOp::StoreGlobal
                | IntrinsicOp::StoreSsbo
                | IntrinsicOp::StoreShared
                | IntrinsicOp::StoreScratch
        );
        let data_src = 0;
        let ty = if is_store {
            call.src_type(data_src)
        } else {
            call.dest_type
                .ok_or_else(|| EnvError::msg(format!("`@{op}` has no destination")))?
        };
        let cb = component_bytes(ty.bit_size())?;
        let n = ty.num_components() as usize;
        let base = call.index(IndexKind::Base).unwrap_or(0) as i32 as i64 as u64;
        for lane in lanes {
            let ctx = access_ctx(call, lane);
            let kind = if is_store {
                AccessKind::Store
            } else {
                AccessKind::Load
            };
            let target = match op {
                IntrinsicOp::LoadGlobal => Target::Global(call.src_scalar(0, lane)),
                IntrinsicOp::StoreGlobal => Target::Global(call.src_scalar(1, lane)),
                IntrinsicOp::LoadSsbo | IntrinsicOp::StoreSsbo | IntrinsicOp::LoadUbo => {
                    let (bi, oi) = if op == IntrinsicOp::StoreSsbo {
                        (1, 2)
                    } else {
                        (0, 1)
                    };
                    let block = call.src_scalar(bi, lane) as u32;
                    let (alloc, what) = if op == IntrinsicOp::LoadUbo {
                        (self.mem.ubo(block), "ubo binding")
                    } else {
                        (self.mem.ssbo(block), "ssbo binding")
                    };
                    let alloc = alloc.ok_or_else(|| {
                        lane_err(lane, Memory::unbound(kind, what, block as u64, &ctx))
                    })?;
                    Target::Alloc(alloc, call.src_scalar(oi, lane))
                }
                IntrinsicOp::LoadShared => {
                    Target::Shared(base.wrapping_add(call.src_scalar(0, lane)))
                }
                IntrinsicOp::StoreShared => {
                    Target::Shared(base.wrapping_add(call.src_scalar(1, lane)))
                }
                IntrinsicOp::LoadPushConstant => {
                    Target::PushConstants(base.wrapping_add(call.src_scalar(0, lane)))
                }
                IntrinsicOp::LoadScratch | IntrinsicOp::StoreScratch => Target::Scratch {
                    local: self.local_index(call.invocations[lane]),
                    offset: call.src_scalar(usize::from(is_store), lane),
                },
                other => {
                    return Err(EnvError::msg(format!(
                        "the executor does not serve `@{other}`"
                    )))
                }
            };
            let mut bytes = vec![0u8; cb * n];
            if is_store {
                for (i, &c) in call.src(data_src, lane).iter().enumerate() {
                    bytes[i * cb..(i + 1) * cb].copy_from_slice(&c.to_le_bytes()[..cb]);
                }
                self.mem
                    .store(target, &bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                if let (Target::Alloc(alloc, offset), Some(bounds), 4) =
                    (target, call.src_bounds(data_src, lane), cb)
                {
                    let t = crate::tolerance::word_tolerance(&bytes, bounds);
                    if let Some(t) = t {
                        self.mem.set_tolerance(alloc, offset, t);
                    }
                }
            } else {
                self.mem
                    .load(target, &mut bytes, &ctx)
                    .map_err(|e| lane_err(lane, e))?;
                let vals: Vec<u64> = bytes
                    .chunks(cb)
                    .map(|c| {
                        let mut w = [0u8; 8];
                        w[..cb].copy_from_slice(c);
                        u64::from_le_bytes(w)
                    })
                    .collect();
                call.set_dest(lane, &vals);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fixtures::parse;

    #[test]
    fn a_dispatch_runs_a_slice_of_workgroups_at_a_time() {
        // Each invocation stores its global x at byte 4x of SSBO 0: run as a whole, or
        // as slices of workgroups whose results cover only their slice.
        let text = "shader compute (local_size=2,1,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32   %1 = load_const (4)
    32   %2 = imul %0.x, %1
    32   %3 = load_const (0)
    @store_ssbo (%0.x, %3, %2) (access=none, align_mul=4)
}";
        let shader = parse(text);
        let rec = [Value::from_u32(2)];
        let fresh = || {
            let mut ex = crate::fixtures::executor(&shader, 2);
            let (id, _) = ex.memory.alloc_zeroed("ssbo 0", 40);
            ex.memory.bind_ssbo(0, id);
            ex
        };
        let mut whole = fresh();
        let all = whole.run_recording([5, 1, 1], &rec).unwrap();
        assert_eq!((all.first_invocation, all.invocations), (0, 10));
        assert_eq!(all.accesses.len(), 10);
        assert_eq!(all.access_count, 10);
        let mut sliced = fresh();
        let mut accesses = Vec::new();
        for (range, first) in [(0..2, 0u32), (2..4, 4), (4..9, 8)] {
            let (r, e) = sliced.run_workgroups([5, 1, 1], range.clone(), &rec);
            assert!(e.is_none());
            // Only the slice: its invocations (the last slice clipped to the grid), its
            // values, its accesses.
            let n = (range.end.min(5) - range.start) as u32 * 2;
            assert_eq!((r.first_invocation, r.invocations), (first, n));
            assert_eq!(r.values[&rec[0]].len(), n as usize);
            assert_eq!(r.accesses.len(), n as usize);
            assert_eq!(r.access_count, n as u64);
            for inv in first..first + n {
                assert_eq!(r.value(rec[0], inv), Some(&[4 * inv as u64][..]));
            }
            assert_eq!(r.value(rec[0], first + n), None);
            accesses.extend(r.accesses);
        }
        assert_eq!(accesses, all.accesses);
        // The memory carried over from slice to slice.
        assert_eq!(
            sliced.memory.allocation(crate::memory::AllocId(0)).bytes,
            whole.memory.allocation(crate::memory::AllocId(0)).bytes
        );
    }

    #[test]
    fn invocation_ids_over_a_grid_with_partial_subgroups() {
        // Workgroups of 3x2x1 = 6 invocations run as subgroups of 4 and 2.
        let text = "shader compute (local_size=3,2,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x3 %1 = @load_local_invocation_id
    32x3 %2 = @load_workgroup_id
    32x3 %3 = @load_num_workgroups
}";
        let shader = parse(text);
        let mut ex = crate::fixtures::executor(&shader, 4);
        let rec: Vec<Value> = (0..4).map(Value::from_u32).collect();
        let r = ex.run_recording([2, 1, 2], &rec).unwrap();
        assert_eq!(r.invocations, 24);
        // Invocation 17: workgroup 2 = (0, 0, 1), local index 5 = (2, 1, 0);
        // global = (0 * 3 + 2, 0 * 2 + 1, 1 * 1 + 0).
        let get = |v: u32, i: usize| r.values[&Value::from_u32(v)][i].clone().unwrap();
        assert_eq!(get(0, 17), [2, 1, 1]);
        assert_eq!(get(1, 17), [2, 1, 0]);
        assert_eq!(get(2, 17), [0, 0, 1]);
        assert_eq!(get(3, 17), [2, 1, 2]);
        // Invocation 9: workgroup 1 = (1, 0, 0), local index 3 = (0, 1, 0).
        assert_eq!(get(0, 9), [3, 1, 0]);
        // 4 workgroups x 2 subgroups each.
        assert_eq!(r.stats.blocks, 8);
    }

    #[test]
    fn buffers_push_constants_and_shared_memory() {
        // Each invocation copies ubo word [local x] + push constant to ssbo word
        // [global x], and passes its local x through shared memory to its neighbour.
        let text = "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
    32x3 %1 = @load_local_invocation_id
    32   %2 = load_const (0x00000000)
    32   %3 = load_const (0x00000004)
    32   %4 = imul %1.x, %3
    32   %5 = @load_ubo (%2, %4) (align_mul=4)
    32   %6 = @load_push_constant (%2) (base=4, range=4)
    32   %7 = iadd %5, %6
    32   %8 = imul %0.x, %3
    @store_ssbo (%7, %2, %8) (access=none, align_mul=4)
    @store_shared (%1.x, %4) (base=16, align_mul=4)
    32   %9 = @load_shared (%4) (base=16, align_mul=4)
}";
        let shader = parse(text);
        let mut ex = Executor::with_config(
            &shader,
            ExecConfig {
                subgroup_size: 2,
                shared_size: 64,
                ..ExecConfig::default()
            },
        );
        let ubo: Vec<u8> = [10u32, 20, 30, 40]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let u = ex.memory.alloc("ubo", ubo);
        ex.memory.bind_ubo(0, u);
        let s = ex.memory.alloc("ssbo", vec![0; 32]);
        ex.memory.bind_ssbo(0, s);
        ex.memory
            .set_push_constants([0u32, 1000].iter().flat_map(|w| w.to_le_bytes()).collect());
        let r = ex.run_recording([2, 1, 1], &[Value::from_u32(9)]).unwrap();
        let words: Vec<u32> = ex
            .memory
            .allocation(s)
            .bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [1010, 1020, 1030, 1040, 1010, 1020, 1030, 1040]);
        for i in 0..8 {
            assert_eq!(r.values[&Value::from_u32(9)][i], Some(vec![(i % 4) as u64]));
        }
    }

    #[test]
    fn unbound_buffers_and_bad_configs_are_errors() {
        let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000003)
    32   %1 = @load_ssbo (%0, %0) (access=none, align_mul=4)
}";
        let shader = parse(text);
        let mut ex = Executor::new(&shader);
        let e = ex.run([1, 1, 1]).unwrap_err().to_string();
        assert!(
            e.contains("load through ssbo binding 3, which is not bound"),
            "{e}"
        );
        ex.config.subgroup_size = 33;
        let e = ex.run([1, 1, 1]).unwrap_err().to_string();
        assert!(e.contains("subgroup size must be 1 to 32"), "{e}");
        ex.config.subgroup_size = 8;
        let e = ex.run([0x10000, 0x10000, 2]).unwrap_err().to_string();
        assert_eq!(
            e,
            "65536 x 65536 x 2 workgroups of 1 invocations is more than the executor's limit of 16777216 invocations"
        );
    }

    #[test]
    fn dispatch_sizes_are_checked_without_overflow() {
        let limit = DEFAULT_MAX_INVOCATIONS;
        assert_eq!(limit, 16_777_216);
        // 2^12 workgroups of 2^12 invocations: exactly the limit.
        assert_eq!(
            dispatch_invocations([64, 64, 1], [64, 64, 1], limit).unwrap(),
            1 << 24
        );
        // One more workgroup is too many.
        let e = dispatch_invocations([64, 64, 1], [4097, 1, 1], limit).unwrap_err();
        assert!(matches!(
            e,
            ExecError::TooManyInvocations {
                limit: 16_777_216,
                ..
            }
        ));
        // 2^29 * 2^29 * 64 = 2^64 wraps to 0 in unchecked 64-bit arithmetic.
        let e = dispatch_invocations([8, 8, 1], [1 << 29, 1 << 29, 1], limit).unwrap_err();
        assert_eq!(
            e.to_string(),
            "536870912 x 536870912 x 1 workgroups of 64 invocations is more than the executor's limit of 16777216 invocations"
        );
        // A workgroup whose size overflows 64 bits is named by its dimensions.
        let e = dispatch_invocations([u32::MAX; 3], [1, 1, 1], u64::MAX).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1 x 1 x 1 workgroups of 4294967295 x 4294967295 x 4294967295 invocations is more than the executor's limit of 4294967295 invocations"
        );
        // Invocation indices are 32-bit whatever the configured limit.
        let e = dispatch_invocations([1, 1, 1], [1 << 16, 1 << 16, 1], u64::MAX).unwrap_err();
        assert!(matches!(
            e,
            ExecError::TooManyInvocations {
                limit: 0xffff_ffff,
                ..
            }
        ));
        assert_eq!(
            dispatch_invocations([1, 1, 1], [0xffff, 0x10001, 1], u64::MAX).unwrap(),
            u32::MAX
        );
        // An empty grid runs nothing; an empty workgroup cannot run.
        assert_eq!(
            dispatch_invocations([4, 1, 1], [0, 3, 1], limit).unwrap(),
            0
        );
        let e = dispatch_invocations([4, 0, 1], [1, 1, 1], limit).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot dispatch: a workgroup of 4 x 0 x 1 has no invocations"
        );
    }

    #[test]
    fn the_invocation_limit_is_configurable() {
        let shader = parse(
            "shader compute (local_size=4,1,1)
fn main {
  block b0:
    32x3 %0 = @load_global_invocation_id
}",
        );
        let mut ex = Executor::with_config(
            &shader,
            ExecConfig {
                max_invocations: 8,
                ..ExecConfig::default()
            },
        );
        assert_eq!(ex.run([2, 1, 1]).unwrap().invocations, 8);
        let e = ex.run([3, 1, 1]).unwrap_err().to_string();
        assert_eq!(
            e,
            "3 x 1 x 1 workgroups of 4 invocations is more than the executor's limit of 8 invocations"
        );
    }

    #[test]
    fn malformed_intrinsics_are_errors_not_panics() {
        use ir::{Builder, Function, ImageDecl, ImageDim, ImageRef};
        let mut shader = Shader::new([1, 1, 1]);
        let decl = ImageDecl {
            name: "img".into(),
            dim: ImageDim::D2,
            arrayed: false,
            format: ir::Format::R32Uint,
            access: ir::Access::NONE,
            binding: 0,
            count: None,
            layout: None,
        };
        let img = shader.add_image(decl.clone());
        let mut f = Function::new("main");
        {
            let mut b = Builder::at_end(&mut f);
            let c = b.load_const(ir::Type::vec32(2), &[0, 0]);
            // An image_store without its data source.
            let idx = ir::builder::image_indices(&decl);
            b.intrinsic(
                IntrinsicOp::ImageStore,
                Some(ImageRef::new(img)),
                &[c.into()],
                &[idx[0], idx[1], idx[2], idx[3], 0],
                None,
            );
        }
        shader.functions.push(f);
        let mut ex = Executor::new(&shader);
        let e = ex.run([1, 1, 1]).unwrap_err().to_string();
        assert!(
            e.contains("`@image_store` takes 2 sources (coord, data), found 1"),
            "{e}"
        );
    }

    #[test]
    fn calls_are_traced_with_their_accesses() {
        // Two lanes load the same texel, then a predicated message runs with only
        // lane 1 enabled.
        let text = "shader compute (local_size=2,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32x2 %1 = load_const (0, 0)
    32   %2 = @image_load (@img, %1) (dest_type=uint32)
    32   %3 = load_const (0)
    1    %4 = ine %0.x, %3
    32   %5 = @lsc_load (@img, %3) (lsc_sfid=ugm, lsc_addr=bti, lsc_addr_size=a32, lsc_data=d32) if %4
}";
        let shader = parse(text);
        let mut ex = Executor::with_config(
            &shader,
            ExecConfig {
                subgroup_size: 2,
                trace_calls: true,
                ..ExecConfig::default()
            },
        );
        crate::fixtures::bind_linear_2d(
            &mut ex.memory,
            0,
            tiling::Format::R32_UINT,
            ir::Format::R32Uint,
            [2, 2],
        );
        let r = ex.run([1, 1, 1]).unwrap();
        assert_eq!(r.calls.len(), 2);
        let (load, msg) = (r.calls[0], r.calls[1]);
        assert_eq!(load.op, IntrinsicOp::ImageLoad);
        assert_eq!((load.active, load.enabled), (0b11, 0b11));
        assert_eq!((load.log_start, load.log_end), (0, 2));
        assert_eq!(msg.op, IntrinsicOp::LscLoad);
        assert_eq!((msg.active, msg.enabled), (0b11, 0b10));
        assert_eq!((msg.log_start, msg.log_end), (2, 3));
        assert_eq!(r.accesses[2].ctx.lane, 1);
        assert_eq!(msg.first_invocation, 0);
    }
}
