//! The interpreter core: runs a function for one subgroup of lanes in SIMD lockstep.
//!
//! The interpreter knows nothing about memory. It executes the structured control flow of
//! a [`Function`] the way a GPU does, with one execution mask per subgroup:
//!
//! * an `if` runs its then list for the active lanes whose condition is true and its else
//!   list for the others, skipping a side that has no lane;
//! * a `loop` runs its body while any lane remains in it. A lane that executes `break`
//!   leaves the loop and waits at the block after it until the loop ends; a lane that
//!   executes `continue` is parked until the current iteration ends and re-enters the
//!   header with the lanes that reached the end of the body;
//! * a phi is resolved per lane from the predecessor block that lane actually came from
//!   (the interpreter tracks each lane's previous block), all phis of a block reading
//!   their sources before any of them is written, as NIR defines;
//! * ALU instructions are evaluated lane by lane with
//!   [`crate::eval::eval_alu_flagged`], the same code the constant folder uses, so both
//!   agree bit for bit (an inexact `fdiv` is `fmul(a, frcp(b))`, as Vulkan allows);
//! * `undef` is defined as 0 in every component (NIR leaves its value unspecified; 0
//!   makes runs reproducible). With [`Config::track_undef`] the interpreter also
//!   records which components of which values derive from an `undef` (and so may be
//!   anything in NIR's semantics), and whether a run branched on one
//!   ([`Interpreter::undetermined`]): what a comparison of two runs needs to accept
//!   a pass that gives an `undef` a value (`opt-undef`, `opt-remove-phis`);
//! * every intrinsic is handed to an [`Env`], once per instruction for all the active
//!   lanes, so that messages see one SIMD message, except `barrier`, which the
//!   interpreter handles itself (below).
//!
//! # Barriers and resumable runs
//!
//! A workgroup runs as several subgroups, and a `barrier` (a workgroup execution and
//! memory barrier) makes each of them wait until all have reached it. So that one
//! thread can run all the subgroups of a workgroup, the interpreter keeps the state of
//! the structured control flow on an explicit stack (the list being walked, the `if`
//! and loop being executed, the next instruction of the current block) instead of the
//! Rust call stack: a run is prepared by [`Interpreter::start`], and
//! [`Interpreter::resume`] executes it until it finishes or stops at a barrier, to be
//! resumed after it later. An executor creates one interpreter per subgroup, resumes
//! each up to its next barrier, and resumes them all past it once every subgroup is
//! there. A barrier must be reached in uniform control flow: by every lane the run
//! started with; otherwise the run fails with [`InterpErrorKind::DivergentBarrier`].
//! [`Interpreter::run`] runs one subgroup on its own (as the only subgroup of its
//! workgroup), checking and passing its barriers.
//!
//! Values are stored compactly, one `u64` per component per lane (the low `bit_size` bits
//! hold the value, 1-bit booleans are 0 or 1), and the interpreter remembers which lanes
//! defined each value: reading a value in a lane that never defined it is an error (it
//! can only happen in a function the validator rejects), and [`Interpreter::value`]
//! returns `None` for such lanes.
//!
//! Errors ([`InterpError`]) name the instruction (its span and opcode) and the lane. A
//! step budget ([`Config::max_steps`]) turns an infinite loop into an error instead of a
//! hang: a run may execute that many steps, a step being one instruction or one block
//! entered by the subgroup (a SIMD instruction counts once whatever its lanes; an empty
//! block counts, so that `loop { continue }` stops too). The budget is counted in what
//! the interpreter does rather than in loop iterations, so a long loop with a small body
//! and a short one with a large body are treated alike.
//!
//! ```
//! use ir::interp::{Config, Env, EnvError, IntrinsicCall, Interpreter};
//! use ir::{Builder, Function, Shader};
//!
//! struct NoIntrinsics;
//! impl Env for NoIntrinsics {
//!     fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError> {
//!         Err(EnvError::msg(format!("unexpected {}", call.intrinsic.op)))
//!     }
//! }
//!
//! let mut f = Function::new("main");
//! let mut b = Builder::at_end(&mut f);
//! let x = b.imm_u32(6);
//! let y = b.imm_u32(7);
//! let z = b.imul(x, y);
//! let mut shader = Shader::new([1, 1, 1]);
//! shader.functions.push(f);
//! let mut interp = Interpreter::new(&shader, &shader.functions[0], Config::default());
//! interp.run(&[0, 1], &mut NoIntrinsics).unwrap();
//! assert_eq!(interp.value(z, 1), Some(&[42u64][..]));
//! ```

use crate::alu::MAX_INPUTS;
use crate::bounds::{alu_bounds, has_signless_zero, Interval};
use crate::entity::{Block, IfId, Inst, LoopId, Value};
use crate::eval::{eval_alu_flagged, Operand};
use crate::function::{CfNode, Function, InstKind, IntrinsicInst, Jump};
use crate::intrinsic::IntrinsicOp;
use crate::precision::result_unspecified;
use crate::shader::Shader;
use crate::span::Span;
use crate::types::{bit_mask, Src, Type};
pub use call::{Env, IntrinsicCall};
pub use config::{Config, Stats, DEFAULT_MAX_STEPS};
pub use constant::{clamped_address, ConstantReadError};
pub use error::{DescriptorLane, EnvError, InterpError, InterpErrorKind};
pub use lanes::MAX_LANES;
use lanes::{lane_list, lanes_of, Mask};
use registers::{Registers, Slot};
use smallvec::SmallVec;
use std::fmt;
use uniformity::{divergent_index, index_offset};

mod call;
mod config;
mod constant;
mod cross_lane;
mod error;
mod lanes;
mod registers;
mod uniformity;

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.span)?;
        match &self.kind {
            InterpErrorKind::Alu { op, .. } => write!(f, "`{op}`")?,
            InterpErrorKind::Env { op, .. } => write!(f, "`@{op}`")?,
            InterpErrorKind::NonUniformIndex { op, .. } => write!(f, "`@{op}`: ")?,
            InterpErrorKind::ConstantData { .. } => f.write_str("`@load_constant`: ")?,
            _ => {}
        }
        if let Some(lane) = self.lane {
            match self.kind {
                InterpErrorKind::Alu { .. } | InterpErrorKind::Env { .. } => {
                    write!(f, " (lane {lane}): ")?
                }
                _ => write!(f, "lane {lane}: ")?,
            }
        } else if matches!(
            self.kind,
            InterpErrorKind::Alu { .. } | InterpErrorKind::Env { .. }
        ) {
            f.write_str(": ")?;
        }
        match &self.kind {
            InterpErrorKind::Alu { error, .. } => write!(f, "{error}"),
            InterpErrorKind::Env { error, .. } => write!(f, "{error}"),
            InterpErrorKind::UndefinedValue { value } => {
                write!(f, "{value} is read but was never defined in this lane")
            }
            InterpErrorKind::MissingPhiSource { block, pred } => match pred {
                Some(p) => write!(f, "phi in {block} has no source for predecessor {p}"),
                None => write!(f, "phi in {block} executed at function entry"),
            },
            InterpErrorKind::JumpOutsideLoop { block, jump } => {
                write!(
                    f,
                    "`{}` at the end of {block} is outside any loop",
                    jump.name()
                )
            }
            InterpErrorKind::StepLimit { limit, in_loop } => {
                write!(
                    f,
                    "the subgroup executed more than {limit} steps (instructions and blocks)"
                )?;
                if let Some(l) = in_loop {
                    write!(f, " (in {l}; infinite loop?)")?;
                }
                Ok(())
            }
            InterpErrorKind::BadLaneCount { lanes } => {
                write!(f, "a subgroup has 1 to {MAX_LANES} lanes, not {lanes}")
            }
            InterpErrorKind::MissingImage { image } => {
                write!(f, "{image} is not declared by the shader")
            }
            InterpErrorKind::BadValue { value } => write!(f, "{value} does not exist"),
            InterpErrorKind::ConstantData { error } => write!(f, "{error}"),
            InterpErrorKind::DivergentBarrier { active, expected } => write!(
                f,
                "barrier in divergent control flow: lanes {} of the subgroup do not reach it (active lanes {})",
                lane_list(expected & !active),
                lane_list(*active)
            ),
            InterpErrorKind::NonUniformIndex { first, other, .. } => write!(
                f,
                "the descriptor index differs between lanes of one subgroup: lane {} \
                 (invocation {}) uses index {}, lane {} (invocation {}) index {}; an index \
                 must be the same on every lane that executes the access unless the access \
                 is marked `access=non_uniform` (SPIR-V's NonUniform decoration)",
                first.lane, first.invocation, first.index, other.lane, other.invocation, other.index
            ),
        }
    }
}

impl std::error::Error for InterpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            InterpErrorKind::Alu { error, .. } => Some(error),
            InterpErrorKind::Env { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// One entry of the interpreter's control-flow stack.
#[derive(Copy, Clone, Debug)]
enum Frame<'s> {
    /// A control-flow list being walked: the next node and the lanes still in the list.
    List {
        list: &'s [CfNode],
        pos: usize,
        mask: Mask,
    },
    /// A block being executed (its phis already done): the next instruction.
    Block {
        block: Block,
        next: Option<Inst>,
        mask: Mask,
    },
    /// An `if` whose then list (or, once `in_else`, else list) is running: the lanes
    /// still to run the else list and those that reached the end of a side.
    If {
        id: IfId,
        else_mask: Mask,
        out: Mask,
        in_else: bool,
    },
    /// A loop whose body is running: the lanes that broke out and those parked by a
    /// `continue` until the iteration ends.
    Loop {
        id: LoopId,
        broken: Mask,
        continued: Mask,
    },
}

/// Where [`Interpreter::resume`] stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunState {
    /// The function returned: the run is over.
    Finished,
    /// Every lane that started reached a `barrier`; the next
    /// [`Interpreter::resume`] continues after it.
    Barrier(BarrierPoint),
}

/// A barrier a run stopped at.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BarrierPoint {
    /// The `barrier` instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// How many barriers the run has reached, this one included (1 for the first).
    pub index: u64,
}

/// Runs one function of a shader for subgroups of lanes. Create it once and call
/// [`Interpreter::run`] for each subgroup; the value store is reused.
pub struct Interpreter<'s> {
    shader: &'s Shader,
    func: &'s Function,
    config: Config,
    /// The dense register layout of the function's values.
    regs: Registers,
    lanes: usize,
    invocations: Vec<u32>,
    /// The registers, `components x lanes` words each (lane-major within a register).
    store: Vec<u64>,
    /// With [`Config::track_undef`]: per entry of `store`, whether it derives from an
    /// `undef` (empty otherwise).
    undef: Vec<bool>,
    /// With [`Config::track_bounds`]: per entry of `store`, the interval of values it
    /// may have, `None` for exactly its value (empty otherwise).
    bounds: Vec<Option<Interval>>,
    /// Whether the current run branched on a condition, or indexed a descriptor array
    /// (without `non_uniform`), by a value derived from an `undef`.
    undetermined: bool,
    /// Per register, the lanes that defined it in the current run.
    defined: Vec<u32>,
    prev_block: [Option<Block>; MAX_LANES],
    /// The control-flow stack of the current run (empty when there is none).
    frames: Vec<Frame<'s>>,
    /// The lanes the current run started with.
    entry_mask: Mask,
    /// Barriers reached by the current run.
    barriers: u64,
    stats: Stats,
    // Scratch buffers for intrinsic sources and phis, kept to avoid reallocating.
    src_data: Vec<u64>,
    src_types: Vec<Type>,
    src_offsets: Vec<usize>,
    phi_tmp: Vec<u64>,
    src_undef: Vec<bool>,
    phi_undef_tmp: Vec<bool>,
    src_bounds: Vec<Option<Interval>>,
    dest_bounds: Vec<Option<Interval>>,
    phi_bounds_tmp: Vec<Option<Interval>>,
}

impl<'s> Interpreter<'s> {
    /// An interpreter for `func`, one of `shader`'s functions (the shader supplies the
    /// image declarations).
    ///
    /// The registers are laid out once here (see the `registers` module): memory is
    /// proportional to the values the function uses, whatever their ids.
    pub fn new(shader: &'s Shader, func: &'s Function, config: Config) -> Interpreter<'s> {
        Interpreter {
            shader,
            func,
            config,
            regs: Registers::new(func),
            lanes: 0,
            invocations: Vec::new(),
            store: Vec::new(),
            undef: Vec::new(),
            bounds: Vec::new(),
            undetermined: false,
            defined: Vec::new(),
            prev_block: [None; MAX_LANES],
            frames: Vec::new(),
            entry_mask: 0,
            barriers: 0,
            stats: Stats::default(),
            src_data: Vec::new(),
            src_types: Vec::new(),
            src_offsets: Vec::new(),
            phi_tmp: Vec::new(),
            src_undef: Vec::new(),
            phi_undef_tmp: Vec::new(),
            src_bounds: Vec::new(),
            dest_bounds: Vec::new(),
            phi_bounds_tmp: Vec::new(),
        }
    }

    /// The function being run.
    pub fn function(&self) -> &'s Function {
        self.func
    }

    /// The settings.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Runs the function once for a subgroup whose lane `i` runs invocation
    /// `invocations[i]` (an identifier the interpreter only passes on to the [`Env`]).
    /// Every lane starts active.
    ///
    /// The subgroup runs alone, as the only subgroup of its workgroup: a `barrier` is
    /// checked (every lane that started must reach it, in uniform control flow) and
    /// passed. To run the subgroups of a workgroup in step at their barriers, use
    /// [`Interpreter::start`] and [`Interpreter::resume`].
    pub fn run(&mut self, invocations: &[u32], env: &mut dyn Env) -> Result<Stats, InterpError> {
        let all = if invocations.len() >= MAX_LANES {
            u32::MAX
        } else {
            (1u32 << invocations.len()) - 1
        };
        self.run_masked(invocations, all, env)
    }

    /// As [`Interpreter::run`], with only the lanes of `mask` active (a partly filled
    /// subgroup, as a GPU dispatches for a workgroup that is not a multiple of the SIMD
    /// width).
    pub fn run_masked(
        &mut self,
        invocations: &[u32],
        mask: u32,
        env: &mut dyn Env,
    ) -> Result<Stats, InterpError> {
        self.start(invocations, mask)?;
        while let RunState::Barrier(_) = self.resume(env)? {}
        Ok(self.stats)
    }

    /// Prepares a run of the function for a subgroup whose lane `i` runs invocation
    /// `invocations[i]`, with the lanes of `mask` active, without executing anything:
    /// [`Interpreter::resume`] executes it, up to each `barrier` in turn. Values, the
    /// defined lanes and the counters of the previous run are reset.
    pub fn start(&mut self, invocations: &[u32], mask: u32) -> Result<(), InterpError> {
        let n = invocations.len();
        self.frames.clear();
        if n == 0 || n > MAX_LANES {
            return Err(InterpError::new(
                self.func.span,
                None,
                None,
                InterpErrorKind::BadLaneCount { lanes: n },
            ));
        }
        let lane_mask = if n == MAX_LANES {
            u32::MAX
        } else {
            (1u32 << n) - 1
        };
        self.lanes = n;
        self.invocations.clear();
        self.invocations.extend_from_slice(invocations);
        let size = self.regs.total_comps() * n;
        if self.store.len() != size {
            self.store.clear();
            self.store.resize(size, 0);
        }
        self.undef.clear();
        if self.config.track_undef {
            self.undef.resize(size, false);
        }
        // Every instruction writes the intervals of the lanes it defines, and a value is
        // only read where it was defined: the previous run's entries need no clearing.
        if !self.config.track_bounds {
            self.bounds.clear();
        } else if self.bounds.len() != size {
            self.bounds.clear();
            self.bounds.resize(size, None);
        }
        self.undetermined = false;
        self.defined.clear();
        self.defined.resize(self.regs.len(), 0);
        self.prev_block = [None; MAX_LANES];
        self.stats = Stats::default();
        self.entry_mask = mask & lane_mask;
        self.barriers = 0;
        self.enter_list(self.func.body(), self.entry_mask);
        Ok(())
    }

    /// Continues the run prepared by [`Interpreter::start`] until the function returns
    /// ([`RunState::Finished`]) or every lane that started reaches a `barrier`
    /// ([`RunState::Barrier`]; the next call continues after it). A barrier reached by
    /// only some of those lanes (inside divergent control flow) is an error
    /// ([`InterpErrorKind::DivergentBarrier`]). After an error, or once finished, the
    /// run cannot continue and further calls report [`RunState::Finished`].
    pub fn resume(&mut self, env: &mut dyn Env) -> Result<RunState, InterpError> {
        let r = self.drive(env);
        if r.is_err() {
            self.frames.clear();
        }
        r
    }

    /// Whether the current run has finished (or was never started, or failed).
    pub fn is_finished(&self) -> bool {
        self.frames.is_empty()
    }

    /// The lanes the current run started with (the `mask` given to
    /// [`Interpreter::start`], limited to the subgroup): the lanes that must reach every
    /// barrier.
    pub fn entry_mask(&self) -> u32 {
        self.entry_mask
    }

    /// The components of `value` in lane `lane` after a run, or `None` if that lane did
    /// not define it (or the value does not exist).
    pub fn value(&self, value: Value, lane: usize) -> Option<&[u64]> {
        Some(&self.store[self.lane_slots(value, lane)?])
    }

    /// Where the components of `value` in lane `lane` sit in the per-slot stores
    /// (values, undef flags, intervals), if that lane defined it.
    fn lane_slots(&self, value: Value, lane: usize) -> Option<std::ops::Range<usize>> {
        let id = self.regs.id(value)?;
        let slot = self.regs.slot(id)?;
        if lane >= self.lanes
            || self.defined.get(id as usize).copied().unwrap_or(0) & (1 << lane) == 0
        {
            return None;
        }
        let n = slot.comps as usize;
        let start = slot.base as usize * self.lanes + lane * n;
        Some(start..start + n)
    }

    /// Which components of `value` in lane `lane` derive from an `undef` after a run
    /// ([`Config::track_undef`]); `None` if that is not tracked or the lane did not
    /// define the value.
    pub fn value_undef(&self, value: Value, lane: usize) -> Option<&[bool]> {
        if self.undef.is_empty() {
            return None;
        }
        Some(&self.undef[self.lane_slots(value, lane)?])
    }

    /// The intervals of the components of `value` in lane `lane` after a run
    /// ([`Config::track_bounds`]; `None` for a component that is exactly its value);
    /// `None` if that is not tracked or the lane did not define the value.
    pub fn value_bounds(&self, value: Value, lane: usize) -> Option<&[Option<Interval>]> {
        if self.bounds.is_empty() {
            return None;
        }
        Some(&self.bounds[self.lane_slots(value, lane)?])
    }

    /// Whether the current run branched (an `if`, a loop exit) on a condition derived
    /// from an `undef` in some lane ([`Config::track_undef`]), or indexed a descriptor
    /// array without `non_uniform` by such a value (whose uniformity is then as
    /// unspecified as its value): NIR's semantics then allow any path, so the run says
    /// nothing about the shader's behaviour.
    pub fn undetermined(&self) -> bool {
        self.undetermined
    }

    /// The size of the register store of the current run, in 64-bit words: one per
    /// component per lane of every value the function uses.
    pub fn register_words(&self) -> usize {
        self.store.len()
    }

    /// The lanes that defined `value` in the last run.
    pub fn defined_lanes(&self, value: Value) -> u32 {
        self.regs
            .id(value)
            .and_then(|id| self.defined.get(id as usize).copied())
            .unwrap_or(0)
    }

    /// Counters of the last run (so far, while it is suspended at a barrier).
    pub fn stats(&self) -> Stats {
        self.stats
    }

    // ----- control flow ---------------------------------------------------------------
    //
    // The structured control flow runs on an explicit stack of frames rather than on
    // the Rust call stack, so that a run can stop at a barrier and continue later: a
    // `List` frame walks a control-flow list with the lanes still in it, a `Block`
    // frame the instructions of a block, an `If` frame waits for its then list and
    // then its else list, a `Loop` frame for each iteration of its body. A finished
    // list hands the lanes that reached its end to the frame below it.

    /// Runs frames until the stack is empty or a barrier stops the run.
    fn drive(&mut self, env: &mut dyn Env) -> Result<RunState, InterpError> {
        let func = self.func;
        // The lanes that reached the end of the list frame popped last.
        let mut ret: Mask = 0;
        loop {
            let Some(top) = self.frames.last_mut() else {
                return Ok(RunState::Finished);
            };
            match top {
                Frame::List { list, pos, mask } => {
                    if *mask == 0 || *pos == list.len() {
                        ret = *mask;
                        self.frames.pop();
                        continue;
                    }
                    let node = list[*pos];
                    *pos += 1;
                    let mask = *mask;
                    match node {
                        CfNode::Block(b) => self.enter_block(b, mask)?,
                        CfNode::If(id) => {
                            let data = func.if_data(id);
                            let cond = self.read_cond(id, mask)?;
                            let (then_mask, else_mask) = (mask & cond, mask & !cond);
                            // A side without lanes is skipped; `mask` is not empty, so
                            // at least one side runs.
                            let (first, list, else_mask) = if then_mask != 0 {
                                (then_mask, &data.then_list, else_mask)
                            } else {
                                (else_mask, &data.else_list, 0)
                            };
                            self.frames.push(Frame::If {
                                id,
                                else_mask,
                                out: 0,
                                in_else: then_mask == 0,
                            });
                            self.enter_list(list, first);
                        }
                        CfNode::Loop(id) => {
                            self.frames.push(Frame::Loop {
                                id,
                                broken: 0,
                                continued: 0,
                            });
                            self.enter_list(&func.loop_data(id).body, mask);
                        }
                    }
                }
                Frame::If {
                    id,
                    else_mask,
                    out,
                    in_else,
                } => {
                    // Its then or else list just finished with `ret`.
                    *out |= ret;
                    if !*in_else && *else_mask != 0 {
                        *in_else = true;
                        let m = *else_mask;
                        let list = &func.if_data(*id).else_list;
                        self.enter_list(list, m);
                    } else {
                        let out = *out;
                        self.frames.pop();
                        self.set_list_mask(out);
                    }
                }
                Frame::Loop {
                    id,
                    broken,
                    continued,
                } => {
                    // An iteration just finished: lanes reaching the end of the body loop
                    // back, like the ones that continued.
                    let active = ret | *continued;
                    if active != 0 {
                        *continued = 0;
                        let list = &func.loop_data(*id).body;
                        self.enter_list(list, active);
                    } else {
                        let broken = *broken;
                        self.frames.pop();
                        self.set_list_mask(broken);
                    }
                }
                Frame::Block { block, next, mask } => {
                    let (block, cur, mask) = (*block, *next, *mask);
                    if let Some(point) = self.run_block(block, cur, mask, env)? {
                        return Ok(RunState::Barrier(point));
                    }
                }
            }
        }
    }

    /// Starts running `list` (a function body, a branch of an `if`, a loop body) with
    /// the lanes of `mask`.
    fn enter_list(&mut self, list: &'s [CfNode], mask: Mask) {
        self.frames.push(Frame::List { list, pos: 0, mask });
    }

    /// Sets the lanes still running in the list frame on top of the stack (after an
    /// `if` or a loop in it finished).
    fn set_list_mask(&mut self, m: Mask) {
        if let Some(Frame::List { mask, .. }) = self.frames.last_mut() {
            *mask = m;
        }
    }

    /// The innermost loop being executed.
    fn innermost_loop(&mut self) -> Option<&mut Frame<'s>> {
        self.frames
            .iter_mut()
            .rev()
            .find(|f| matches!(f, Frame::Loop { .. }))
    }

    /// Counts the entry into `block` as one step.
    fn count_block(&mut self, block: Block) -> Result<(), InterpError> {
        self.stats.blocks += 1;
        if self.stats.steps() > self.config.max_steps {
            return Err(self.step_limit(self.func.block(block).span, None));
        }
        Ok(())
    }

    /// Counts the execution of `inst` as one step.
    #[inline]
    fn count_step(&mut self, inst: Inst) -> Result<(), InterpError> {
        self.stats.instructions += 1;
        if self.stats.steps() > self.config.max_steps {
            return Err(self.step_limit(self.func.inst_span(inst), Some(inst)));
        }
        Ok(())
    }

    /// The error of a run that exceeded its step budget at `span`.
    fn step_limit(&mut self, span: Span, inst: Option<Inst>) -> InterpError {
        let in_loop = match self.innermost_loop() {
            Some(Frame::Loop { id, .. }) => Some(*id),
            _ => None,
        };
        InterpError::new(
            span,
            inst,
            None,
            InterpErrorKind::StepLimit {
                limit: self.config.max_steps,
                in_loop,
            },
        )
    }

    /// Enters a block: counts it, executes its phis and pushes a frame for the rest.
    fn enter_block(&mut self, block: Block, mask: Mask) -> Result<(), InterpError> {
        self.count_block(block)?;
        let mut cur = self.func.first_inst(block);
        // Phis read all their sources before any of them is written.
        let mut phis: SmallVec<[Inst; 4]> = SmallVec::new();
        while let Some(inst) = cur {
            if !self.func.inst(inst).is_phi() {
                break;
            }
            phis.push(inst);
            cur = self.func.next_inst(inst);
        }
        if !phis.is_empty() {
            self.exec_phis(block, &phis, mask)?;
        }
        self.frames.push(Frame::Block {
            block,
            next: cur,
            mask,
        });
        Ok(())
    }

    /// Executes the instructions of the block frame on top of the stack from `cur`. At
    /// a barrier, records where to continue and returns it; at the end of the block,
    /// pops the frame and applies the block's jump.
    fn run_block(
        &mut self,
        block: Block,
        mut cur: Option<Inst>,
        mask: Mask,
        env: &mut dyn Env,
    ) -> Result<Option<BarrierPoint>, InterpError> {
        let func = self.func;
        while let Some(inst) = cur {
            cur = func.next_inst(inst);
            let is_barrier = matches!(
                &func.inst(inst).kind,
                InstKind::Intrinsic(i) if i.op == IntrinsicOp::Barrier
            );
            if is_barrier {
                self.count_step(inst)?;
                let span = func.inst_span(inst);
                if mask != self.entry_mask {
                    return Err(InterpError::new(
                        span,
                        Some(inst),
                        None,
                        InterpErrorKind::DivergentBarrier {
                            active: mask,
                            expected: self.entry_mask,
                        },
                    ));
                }
                self.barriers += 1;
                if let Some(Frame::Block { next, .. }) = self.frames.last_mut() {
                    *next = cur;
                }
                return Ok(Some(BarrierPoint {
                    inst,
                    span,
                    index: self.barriers,
                }));
            }
            self.exec_inst(inst, mask, env)?;
        }
        for lane in lanes_of(mask) {
            self.prev_block[lane] = Some(block);
        }
        self.frames.pop();
        if let Some(jump) = func.block(block).jump {
            let Some(Frame::Loop {
                broken, continued, ..
            }) = self.innermost_loop()
            else {
                return Err(InterpError::new(
                    func.block(block).span,
                    None,
                    None,
                    InterpErrorKind::JumpOutsideLoop {
                        block: func.block_name(block),
                        jump,
                    },
                ));
            };
            match jump {
                Jump::Break => *broken |= mask,
                Jump::Continue => *continued |= mask,
            }
            self.set_list_mask(0);
        }
        Ok(None)
    }

    // ----- values ---------------------------------------------------------------------

    /// The slot of register `id` (the register of `value`, read by `inst`), checking
    /// that every lane of `mask` defined it.
    fn operand(
        &self,
        id: u32,
        value: Value,
        mask: Mask,
        span: Span,
        inst: Option<Inst>,
    ) -> Result<Slot, InterpError> {
        let slot = self.regs.slot(id).ok_or_else(|| {
            let value = self.func.value_name(value);
            InterpError::new(span, inst, None, InterpErrorKind::BadValue { value })
        })?;
        let missing = mask & !self.defined[id as usize];
        if missing != 0 {
            return Err(InterpError::new(
                span,
                inst,
                Some(missing.trailing_zeros()),
                InterpErrorKind::UndefinedValue {
                    value: self.func.value_name(value),
                },
            ));
        }
        Ok(slot)
    }

    /// The slot of the destination register of `inst`, if it has one.
    fn dest_slot(&self, inst: Inst) -> Option<(u32, Slot)> {
        let id = self.regs.dest(inst);
        self.regs.slot(id).map(|s| (id, s))
    }

    /// Component `c` of what `src` reads from the register in `slot`, in lane `lane`.
    #[inline]
    fn read_comp(&self, slot: Slot, src: Src, lane: usize, c: u8) -> u64 {
        let n = slot.comps as usize;
        let comp = src.swizzle.component(c) as usize;
        // A swizzle beyond the value's components is a validator error; read 0.
        if comp >= n {
            return 0;
        }
        self.store[slot.base as usize * self.lanes + lane * n + comp]
    }

    /// The lanes of `mask` for which the condition of `if` `id` is true.
    fn read_cond(&mut self, id: IfId, mask: Mask) -> Result<Mask, InterpError> {
        let data = self.func.if_data(id);
        let cond = data.cond;
        let slot = self.operand(self.regs.if_cond(id), cond.value, mask, data.span, None)?;
        let mut out = 0;
        for lane in lanes_of(mask) {
            if self.read_comp(slot, cond, lane, 0) & 1 != 0 {
                out |= 1 << lane;
            }
        }
        if !self.undef.is_empty() && lanes_of(mask).any(|lane| self.read_undef(slot, cond, lane, 0))
        {
            self.undetermined = true;
        }
        Ok(out)
    }

    /// Whether the component `c` of `src` reads in lane `lane` derives from an
    /// `undef` (false when that is not tracked).
    fn read_undef(&self, slot: Slot, src: Src, lane: usize, c: u8) -> bool {
        if self.undef.is_empty() {
            return false;
        }
        let n = slot.comps as usize;
        let comp = src.swizzle.component(c) as usize;
        comp < n && self.undef[slot.base as usize * self.lanes + lane * n + comp]
    }

    /// The interval of the component `c` of `src` reads in lane `lane` (`None` when
    /// that is not tracked or the component is exactly its value).
    fn read_bound(&self, slot: Slot, src: Src, lane: usize, c: u8) -> Option<Interval> {
        if self.bounds.is_empty() {
            return None;
        }
        let n = slot.comps as usize;
        let comp = src.swizzle.component(c) as usize;
        if comp < n {
            self.bounds[slot.base as usize * self.lanes + lane * n + comp]
        } else {
            None
        }
    }

    /// Records the intervals of the components of `slot` in lane `lane` (missing ones
    /// are exact).
    fn write_bounds(
        &mut self,
        slot: Slot,
        lane: usize,
        bounds: impl Iterator<Item = Option<Interval>>,
    ) {
        if self.bounds.is_empty() {
            return;
        }
        let n = slot.comps as usize;
        let start = slot.base as usize * self.lanes + lane * n;
        let mut bounds = bounds.chain(std::iter::repeat(None));
        for dst in &mut self.bounds[start..start + n] {
            *dst = bounds.next().flatten();
        }
    }

    /// Records which components of `slot` in lane `lane` derive from an `undef`.
    fn write_undef(&mut self, slot: Slot, lane: usize, flags: impl Iterator<Item = bool>) {
        if self.undef.is_empty() {
            return;
        }
        let n = slot.comps as usize;
        let start = slot.base as usize * self.lanes + lane * n;
        let mut flags = flags.chain(std::iter::repeat(false));
        for dst in &mut self.undef[start..start + n] {
            *dst = flags.next().unwrap_or(false);
        }
    }

    /// Writes the components of lane `lane` of the register in `slot` (missing ones
    /// are 0), masked to its bit size.
    #[inline]
    fn write_lane(&mut self, slot: Slot, lane: usize, comps: &[u64]) {
        let n = slot.comps as usize;
        let start = slot.base as usize * self.lanes + lane * n;
        let mask = bit_mask(slot.bits);
        for (i, dst) in self.store[start..start + n].iter_mut().enumerate() {
            *dst = comps.get(i).copied().unwrap_or(0) & mask;
        }
    }

    // ----- instructions ---------------------------------------------------------------

    fn exec_phis(&mut self, block: Block, phis: &[Inst], mask: Mask) -> Result<(), InterpError> {
        let mut tmp = std::mem::take(&mut self.phi_tmp);
        let mut utmp = std::mem::take(&mut self.phi_undef_tmp);
        let mut btmp = std::mem::take(&mut self.phi_bounds_tmp);
        tmp.clear();
        utmp.clear();
        btmp.clear();
        let r = self.read_phis(block, phis, mask, &mut tmp, &mut utmp, &mut btmp);
        if r.is_ok() {
            let mut pos = 0;
            for &inst in phis {
                let Some((id, slot)) = self.dest_slot(inst) else {
                    continue;
                };
                let n = slot.comps as usize;
                for lane in lanes_of(mask) {
                    let vals: SmallVec<[u64; 16]> = tmp[pos..pos + n].iter().copied().collect();
                    self.write_lane(slot, lane, &vals);
                    if !utmp.is_empty() {
                        let flags: SmallVec<[bool; 16]> =
                            utmp[pos..pos + n].iter().copied().collect();
                        self.write_undef(slot, lane, flags.into_iter());
                    }
                    if !btmp.is_empty() {
                        let bounds: SmallVec<[Option<Interval>; 16]> =
                            btmp[pos..pos + n].iter().copied().collect();
                        self.write_bounds(slot, lane, bounds.into_iter());
                    }
                    pos += n;
                }
                self.defined[id as usize] |= mask;
            }
        }
        self.phi_tmp = tmp;
        self.phi_undef_tmp = utmp;
        self.phi_bounds_tmp = btmp;
        r
    }

    /// Reads the sources of `phis` for the lanes of `mask` into `tmp` (phi after phi,
    /// lane after lane), before any of them is written.
    fn read_phis(
        &mut self,
        block: Block,
        phis: &[Inst],
        mask: Mask,
        tmp: &mut Vec<u64>,
        utmp: &mut Vec<bool>,
        btmp: &mut Vec<Option<Interval>>,
    ) -> Result<(), InterpError> {
        for &inst in phis {
            self.count_step(inst)?;
            let span = self.func.inst_span(inst);
            let data = self.func.inst(inst);
            let InstKind::Phi(phi) = &data.kind else {
                unreachable!("collected as a phi")
            };
            let Some(dest) = data.dest else { continue };
            let Some((_, dest_slot)) = self.dest_slot(inst) else {
                return Err(InterpError::new(
                    span,
                    Some(inst),
                    None,
                    InterpErrorKind::BadValue {
                        value: self.func.value_name(dest),
                    },
                ));
            };
            for lane in lanes_of(mask) {
                let pred = self.prev_block[lane];
                let Some(k) = phi.srcs.iter().position(|(p, _)| Some(*p) == pred) else {
                    return Err(InterpError::new(
                        span,
                        Some(inst),
                        Some(lane as u32),
                        InterpErrorKind::MissingPhiSource {
                            block: self.func.block_name(block),
                            pred: pred.map(|p| self.func.block_name(p)),
                        },
                    ));
                };
                let src = phi.srcs[k].1;
                let id = self.regs.src(inst, k);
                let slot = self.operand(id, src.value, 1 << lane, span, Some(inst))?;
                for c in 0..dest_slot.comps {
                    tmp.push(self.read_comp(slot, src, lane, c));
                    if !self.undef.is_empty() {
                        utmp.push(self.read_undef(slot, src, lane, c));
                    }
                    if !self.bounds.is_empty() {
                        btmp.push(self.read_bound(slot, src, lane, c));
                    }
                }
            }
        }
        Ok(())
    }

    fn exec_inst(&mut self, inst: Inst, mask: Mask, env: &mut dyn Env) -> Result<(), InterpError> {
        let func = self.func;
        let data = func.inst(inst);
        if matches!(data.kind, InstKind::Phi(_)) {
            // A phi after a non-phi instruction: the validator rejects this; execute it
            // as a phi of its own (which counts its step) so that the run still follows
            // the CFG.
            let block = func
                .inst_block(inst)
                .expect("executing a placed instruction");
            return self.exec_phis(block, &[inst], mask);
        }
        self.count_step(inst)?;
        let span = func.inst_span(inst);
        match &data.kind {
            InstKind::Alu(alu) => {
                let Some(dest) = data.dest else { return Ok(()) };
                let Some((dest_id, dest_slot)) = self.dest_slot(inst) else {
                    return Err(InterpError::new(
                        span,
                        Some(inst),
                        None,
                        InterpErrorKind::BadValue {
                            value: func.value_name(dest),
                        },
                    ));
                };
                let dest_ty = func.value_type(dest);
                let mut slots: SmallVec<[Slot; 4]> = SmallVec::new();
                for (i, src) in alu.srcs.iter().enumerate() {
                    let id = self.regs.src(inst, i);
                    slots.push(self.operand(id, src.value, mask, span, Some(inst))?);
                }
                // Swizzled operands, gathered on the stack (at most `MAX_INPUTS`
                // sources, for `vec16`, of at most 16 components).
                let mut bufs = [[0u64; 16]; MAX_INPUTS];
                let mut lens = [0usize; MAX_INPUTS];
                let tracking = !self.undef.is_empty();
                let bounding = !self.bounds.is_empty();
                // Whether the instruction errs itself (`crate::bounds`).
                let may_err = crate::bounds::errs_itself(alu.op, alu.exact);
                for lane in lanes_of(mask) {
                    let (result, unspecified, bounds) = {
                        for (i, (src, slot)) in
                            alu.srcs.iter().zip(&slots).enumerate().take(MAX_INPUTS)
                        {
                            let n = if src.swizzle.is_identity() {
                                slot.comps
                            } else {
                                src.swizzle.len()
                            };
                            for c in 0..n {
                                bufs[i][c as usize] = self.read_comp(*slot, *src, lane, c);
                            }
                            lens[i] = n as usize;
                        }
                        let operands: SmallVec<[Operand<'_>; 4]> = bufs
                            .iter()
                            .zip(&lens)
                            .zip(&slots)
                            .map(|((b, &n), s)| Operand::new(s.bits, &b[..n]))
                            .collect();
                        let result = eval_alu_flagged(alu.op, alu.exact, dest_ty, &operands)
                            .map_err(|error| {
                                InterpError::new(
                                    span,
                                    Some(inst),
                                    Some(lane as u32),
                                    InterpErrorKind::Alu { op: alu.op, error },
                                )
                            })?;
                        let unspecified = tracking
                            && result_unspecified(
                                alu.op,
                                alu.exact,
                                &operands,
                                dest_ty.bit_size(),
                                &result,
                            );
                        let bounded = bounding
                            && (may_err
                                || has_signless_zero(alu.op, alu.exact, dest_ty, &result)
                                || alu.srcs.iter().zip(&slots).enumerate().any(
                                    |(i, (src, slot))| {
                                        (0..lens[i.min(MAX_INPUTS - 1)]).any(|c| {
                                            self.read_bound(*slot, *src, lane, c as u8).is_some()
                                        })
                                    },
                                ));
                        let bounds = if bounded {
                            let mut sb = [[None; 16]; MAX_INPUTS];
                            for (i, (src, slot)) in
                                alu.srcs.iter().zip(&slots).enumerate().take(MAX_INPUTS)
                            {
                                for (c, b) in sb[i].iter_mut().enumerate().take(lens[i]) {
                                    *b = self.read_bound(*slot, *src, lane, c as u8);
                                }
                            }
                            let views: SmallVec<[&[Option<Interval>]; 4]> =
                                sb.iter().zip(&lens).map(|(b, &n)| &b[..n]).collect();
                            alu_bounds(alu.op, alu.exact, dest_ty, &operands, &views, &result)
                        } else {
                            SmallVec::new()
                        };
                        (result, unspecified, bounds)
                    };
                    self.write_lane(dest_slot, lane, &result);
                    self.write_bounds(dest_slot, lane, bounds.into_iter());
                    if tracking {
                        let mut flags = self.alu_undef(alu, &slots, &bufs, lane, dest_slot.comps);
                        if unspecified {
                            flags.iter_mut().for_each(|f| *f = true);
                        }
                        self.write_undef(dest_slot, lane, flags.into_iter());
                    }
                }
                self.defined[dest_id as usize] |= mask;
            }
            InstKind::LoadConst(values) => {
                if let Some((id, slot)) = self.dest_slot(inst) {
                    for lane in lanes_of(mask) {
                        self.write_lane(slot, lane, values);
                        self.write_undef(slot, lane, std::iter::empty());
                        self.write_bounds(slot, lane, std::iter::empty());
                    }
                    self.defined[id as usize] |= mask;
                }
            }
            InstKind::Undef => {
                // NIR leaves an undef's value unspecified; 0 keeps runs reproducible.
                if let Some((id, slot)) = self.dest_slot(inst) {
                    for lane in lanes_of(mask) {
                        self.write_lane(slot, lane, &[]);
                        self.write_undef(slot, lane, std::iter::repeat(true));
                        self.write_bounds(slot, lane, std::iter::empty());
                    }
                    self.defined[id as usize] |= mask;
                }
            }
            InstKind::Phi(_) => unreachable!("handled above"),
            // The executor's memory is sequentially consistent: a fence alone orders
            // nothing further.
            InstKind::Intrinsic(intr) if intr.op == IntrinsicOp::MemoryBarrier => {}
            InstKind::Intrinsic(intr) => self.exec_intrinsic(inst, intr, mask, env)?,
        }
        Ok(())
    }

    /// Which components of an ALU result in lane `lane` derive from an `undef` (see
    /// [`Config::track_undef`]); `bufs` holds the operands' values read for the lane.
    fn alu_undef(
        &self,
        alu: &crate::function::AluInst,
        slots: &[Slot],
        bufs: &[[u64; 16]; MAX_INPUTS],
        lane: usize,
        comps: u8,
    ) -> SmallVec<[bool; 16]> {
        let info = alu.op.info();
        let src_n = |i: usize| {
            let src = alu.srcs[i];
            if src.swizzle.is_identity() {
                slots[i].comps
            } else {
                src.swizzle.len()
            }
        };
        let und = |i: usize, c: u8| self.read_undef(slots[i], alu.srcs[i], lane, c);
        let any = |i: usize| (0..src_n(i)).any(|c| und(i, c));
        (0..comps)
            .map(|c| {
                if alu.op.is_vec() {
                    und(c as usize, 0)
                } else if alu.op == crate::alu::AluOp::Bcsel {
                    // The condition's taint, else the chosen source's.
                    und(0, c)
                        || if bufs[0][c as usize] & 1 != 0 {
                            und(1, c)
                        } else {
                            und(2, c)
                        }
                } else if matches!(alu.op, crate::alu::AluOp::Ior | crate::alu::AluOp::Iand) {
                    // A defined operand that decides the result alone (all ones for
                    // `ior`, zero for `iand`) leaves it defined whatever the other one
                    // is: `bcsel c, true, b` is `ior c, b` (NIR's boolean rules), and
                    // where `c` holds, the `bcsel` reads no `b`.
                    let bits = self.func.src_type(alu.srcs[0]).bit_size();
                    let ones = if bits >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    let decides = |i: usize| {
                        let v = bufs[i][c as usize] & ones;
                        !und(i, c)
                            && v == if alu.op == crate::alu::AluOp::Ior {
                                ones
                            } else {
                                0
                            }
                    };
                    !(decides(0) || decides(1)) && (und(0, c) || und(1, c))
                } else if info.output_size == 0 {
                    (0..alu.srcs.len()).any(|i| {
                        if info.input_sizes[i] == 0 {
                            und(i, c)
                        } else {
                            any(i)
                        }
                    })
                } else {
                    (0..alu.srcs.len()).any(any)
                }
            })
            .collect()
    }

    fn exec_intrinsic(
        &mut self,
        inst: Inst,
        intr: &'s IntrinsicInst,
        mask: Mask,
        env: &mut dyn Env,
    ) -> Result<(), InterpError> {
        self.stats.intrinsics += 1;
        let func = self.func;
        let span = func.inst_span(inst);
        let lanes = self.lanes;
        // Gather every source (swizzles applied) into the scratch buffer, lane-major.
        self.src_data.clear();
        self.src_undef.clear();
        self.src_bounds.clear();
        self.src_types.clear();
        self.src_offsets.clear();
        let tracking = !self.undef.is_empty();
        let bounding = !self.bounds.is_empty();
        // A cross-lane read of an inactive lane sees its slot, as hardware its register.
        let all_lanes = cross_lane::is_cross_lane(intr.op);
        for (i, &src) in intr.srcs.iter().enumerate() {
            let id = self.regs.src(inst, i);
            let slot = self.operand(id, src.value, mask, span, Some(inst))?;
            let ty = func.src_type(src);
            let n = ty.num_components();
            self.src_types.push(ty);
            self.src_offsets.push(self.src_data.len());
            for lane in 0..lanes {
                for c in 0..n {
                    let active = mask & (1 << lane) != 0;
                    let v = if active || all_lanes {
                        self.read_comp(slot, src, lane, c)
                    } else {
                        0
                    };
                    self.src_data.push(v);
                    if tracking {
                        let u = active && self.read_undef(slot, src, lane, c);
                        self.src_undef.push(u);
                    }
                    if bounding {
                        let b = self.read_bound(slot, src, lane, c).filter(|_| active);
                        self.src_bounds.push(b);
                    }
                }
            }
        }
        let mut image_index = None;
        let mut image = None;
        let mut image_id = None;
        if let Some(r) = intr.image {
            let decl = self.shader.images.get(r.image.index()).ok_or_else(|| {
                InterpError::new(
                    span,
                    Some(inst),
                    None,
                    InterpErrorKind::MissingImage { image: r.image },
                )
            })?;
            image = Some(decl);
            image_id = Some(r.image);
            if let Some(idx) = r.index {
                let id = self.regs.src(inst, intr.srcs.len());
                let slot = self.operand(id, idx.value, mask, span, Some(inst))?;
                image_index = Some(self.src_data.len());
                for lane in 0..lanes {
                    let active = mask & (1 << lane) != 0;
                    let v = if active {
                        self.read_comp(slot, idx, lane, 0)
                    } else {
                        0
                    };
                    self.src_data.push(v);
                    if tracking {
                        let u = active && self.read_undef(slot, idx, lane, 0);
                        self.src_undef.push(u);
                    }
                    if bounding {
                        self.src_bounds.push(None);
                    }
                }
            }
        }
        let predicate = intr.predicate().map(|_| intr.srcs.len() - 1);
        let dest = func.inst(inst).dest;
        let dest_type = dest.map(|d| func.value_type(d));
        let dest_reg = match dest {
            Some(d) => match self.dest_slot(inst) {
                Some(reg) => Some(reg),
                None => {
                    return Err(InterpError::new(
                        span,
                        Some(inst),
                        None,
                        InterpErrorKind::BadValue {
                            value: func.value_name(d),
                        },
                    ))
                }
            },
            None => None,
        };
        let (dest_start, dest_len) = match dest_reg {
            Some((_, slot)) => (slot.base as usize * lanes, slot.comps as usize * lanes),
            None => (0, 0),
        };
        let dest_slice = &mut self.store[dest_start..dest_start + dest_len];
        self.dest_bounds.clear();
        if bounding {
            self.dest_bounds.resize(dest_len, None);
        }
        if let Some(ty) = dest_type {
            let n = ty.num_components() as usize;
            for lane in lanes_of(mask) {
                dest_slice[lane * n..lane * n + n].fill(0);
            }
        }
        // A descriptor index that derives from an `undef` (or an unspecified float
        // result) may be uniform in one run and not in another, as a branch on one
        // may go either way: the run says nothing (`undetermined`).
        let index_at = index_offset(intr, image_index, &self.src_offsets);
        if !self.undef.is_empty()
            && !intr.is_non_uniform()
            && index_at
                .is_some_and(|o| lanes_of(mask).any(|l| self.src_undef.get(o + l) == Some(&true)))
        {
            self.undetermined = true;
        }
        if let Some((a, b)) = divergent_index(intr, mask, lanes, &self.src_data, index_at) {
            let at = |(lane, index): (usize, u64)| DescriptorLane {
                lane: lane as u32,
                invocation: self.invocations.get(lane).copied().unwrap_or(lane as u32),
                index,
            };
            return Err(InterpError::new(
                span,
                Some(inst),
                None,
                InterpErrorKind::NonUniformIndex {
                    op: intr.op,
                    first: at(a),
                    other: at(b),
                },
            ));
        }
        if cross_lane::is_cross_lane(intr.op) {
            if let Some(ty) = dest_type {
                let srcs = cross_lane::Sources {
                    data: &self.src_data,
                    offsets: &self.src_offsets,
                    width: lanes,
                };
                cross_lane::run(intr, ty, mask, &srcs, dest_slice).map_err(|(op, error)| {
                    InterpError::new(span, Some(inst), None, InterpErrorKind::Alu { op, error })
                })?;
            }
        } else if intr.op == IntrinsicOp::LoadConstant {
            let offsets = &self.src_data[self.src_offsets.first().copied().unwrap_or(0)..];
            let data = &self.shader.constant_data;
            constant::load(data, intr, dest_type, offsets, mask, dest_slice).map_err(
                |(l, e)| {
                    let kind = InterpErrorKind::ConstantData { error: e };
                    InterpError::new(span, Some(inst), Some(l), kind)
                },
            )?;
        } else {
            let mut call = IntrinsicCall {
                inst,
                span,
                intrinsic: intr,
                image,
                image_id,
                dest_type,
                exec_mask: mask,
                invocations: &self.invocations,
                src_types: &self.src_types,
                src_offsets: &self.src_offsets,
                src_data: &self.src_data,
                src_undef: &self.src_undef,
                src_bounds: &self.src_bounds,
                image_index,
                predicate,
                dest: dest_slice,
                dest_bounds: &mut self.dest_bounds,
                track_bounds: bounding,
            };
            env.intrinsic(&mut call).map_err(|error| {
                InterpError::new(
                    span,
                    Some(inst),
                    error.lane,
                    InterpErrorKind::Env { op: intr.op, error },
                )
            })?;
        }
        if let (Some((id, _)), Some(ty)) = (dest_reg, dest_type) {
            let n = ty.num_components() as usize;
            let m = ty.component_mask();
            let dest_slice = &mut self.store[dest_start..dest_start + dest_len];
            for lane in lanes_of(mask) {
                for v in &mut dest_slice[lane * n..lane * n + n] {
                    *v &= m;
                }
            }
            if bounding {
                let slot = self.regs.slot(id).expect("destination register");
                let db = std::mem::take(&mut self.dest_bounds);
                for lane in lanes_of(mask) {
                    self.write_bounds(slot, lane, db[lane * n..lane * n + n].iter().copied());
                }
                self.dest_bounds = db;
            }
            if tracking {
                // A result read at, or computed from, an undefined operand may be
                // anything.
                let slot = self.regs.slot(id).expect("destination register");
                let cross = cross_lane::is_cross_lane(intr.op);
                for lane in lanes_of(mask) {
                    if cross {
                        let srcs = cross_lane::Sources {
                            data: &self.src_data,
                            offsets: &self.src_offsets,
                            width: self.lanes,
                        };
                        let u = &self.src_undef;
                        let t = cross_lane::tainted(intr, n, mask, lane, &srcs, u);
                        self.write_undef(slot, lane, std::iter::repeat(t));
                        continue;
                    }
                    let tainted = self.src_types.iter().enumerate().any(|(i, t)| {
                        let k = t.num_components() as usize;
                        let start = self.src_offsets[i] + lane * k;
                        self.src_undef[start..start + k].iter().any(|&u| u)
                    }) || image_index.is_some_and(|off| self.src_undef[off + lane]);
                    self.write_undef(slot, lane, std::iter::repeat(tainted));
                }
            }
            self.defined[id as usize] |= mask;
        }
        Ok(())
    }
}
