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
//! * ALU instructions are evaluated lane by lane with [`crate::eval::eval_alu`], the same
//!   code the constant folder uses, so both agree bit for bit;
//! * `undef` is defined as 0 in every component (NIR leaves its value unspecified; 0
//!   makes runs reproducible);
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
use crate::entity::{Block, IfId, ImageId, Inst, LoopId, Value};
use crate::eval::{eval_alu, Operand};
use crate::function::{CfNode, Function, InstKind, IntrinsicInst, Jump};
use crate::image::ImageDecl;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::shader::Shader;
use crate::span::Span;
use crate::types::{bit_mask, Src, Type};
pub use error::{DescriptorLane, EnvError, InterpError, InterpErrorKind};
use lanes::{lane_list, lanes_of, Mask};
use registers::{Registers, Slot};
use smallvec::SmallVec;
use std::fmt;

mod error;
mod lanes;
mod registers;

/// The largest subgroup the interpreter runs (one bit per lane in a `u32` mask).
pub const MAX_LANES: usize = 32;

/// The default step budget of a run ([`Config::max_steps`]): 2^24 (16,777,216)
/// instructions and blocks per subgroup. The interpreter executes a few million SIMD
/// instructions a second, so a runaway loop stops within seconds, while a real loop
/// still has room: 400,000 iterations of a body of 40 instructions fit.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 24;

/// Interpreter settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// How many steps (instructions and blocks, see the module documentation) one run
    /// of a subgroup may execute before it stops with [`InterpErrorKind::StepLimit`]
    /// (a guard against infinite loops).
    pub max_steps: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_steps: DEFAULT_MAX_STEPS,
        }
    }
}

/// What the interpreter counted during a run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Blocks executed (a block executed by several lanes at once counts once).
    pub blocks: u64,
    /// Instructions executed (each counts once per SIMD execution, not per lane).
    pub instructions: u64,
    /// Intrinsics handed to the environment.
    pub intrinsics: u64,
}

impl Stats {
    /// The steps counted against [`Config::max_steps`]: blocks plus instructions.
    pub fn steps(&self) -> u64 {
        self.blocks + self.instructions
    }
}

/// What executes intrinsics: system values, memory, images and messages.
pub trait Env {
    /// Executes one intrinsic for the active lanes of `call` (bit `i` of
    /// [`IntrinsicCall::exec_mask`] is lane `i`), reading the sources and writing the
    /// destination per lane. A message intrinsic should be executed for all of its lanes
    /// at once, as the one SIMD message it models; a high-level intrinsic may be executed
    /// lane by lane, in ascending lane order. The destination of every active lane is 0
    /// when the call starts; a lane the environment leaves alone (for instance because
    /// its predicate is false) keeps that 0.
    fn intrinsic(&mut self, call: &mut IntrinsicCall<'_>) -> Result<(), EnvError>;
}

/// One intrinsic instruction being executed for a set of lanes, as handed to an [`Env`].
pub struct IntrinsicCall<'a> {
    /// The instruction.
    pub inst: Inst,
    /// Its source position.
    pub span: Span,
    /// The intrinsic: opcode, image operand, sources and indices.
    pub intrinsic: &'a IntrinsicInst,
    /// The declaration of the image the intrinsic names, if any.
    pub image: Option<&'a ImageDecl>,
    /// The id of that image.
    pub image_id: Option<ImageId>,
    /// The destination type, if the instruction has a destination.
    pub dest_type: Option<Type>,
    /// The lanes executing the instruction (bit `i` = lane `i`).
    pub exec_mask: u32,
    /// For each lane of the subgroup, the invocation it runs (as given to
    /// [`Interpreter::run`]).
    pub invocations: &'a [u32],
    src_types: &'a [Type],
    src_offsets: &'a [usize],
    src_data: &'a [u64],
    image_index: Option<usize>,
    predicate: Option<usize>,
    dest: &'a mut [u64],
}

impl<'a> IntrinsicCall<'a> {
    /// The opcode.
    pub fn op(&self) -> IntrinsicOp {
        self.intrinsic.op
    }

    /// The encoded value of an index of the intrinsic.
    pub fn index(&self, kind: IndexKind) -> Option<u32> {
        self.intrinsic.index(kind)
    }

    /// Number of lanes in the subgroup.
    pub fn num_lanes(&self) -> usize {
        self.invocations.len()
    }

    /// Whether lane `lane` executes the instruction.
    pub fn is_active(&self, lane: usize) -> bool {
        lane < MAX_LANES && self.exec_mask & (1 << lane) != 0
    }

    /// The active lanes, in ascending order.
    pub fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        let mask = self.exec_mask;
        (0..self.num_lanes()).filter(move |l| mask & (1 << l) != 0)
    }

    /// Number of sources, including the predicate of a predicated message.
    pub fn num_srcs(&self) -> usize {
        self.src_types.len()
    }

    /// Checks that the instruction has the sources its opcode and indices call for (plus
    /// an optional predicate, or the opcode's optional trailing sources such as the
    /// `lod` of `image_load`), so that an environment can index them without checking
    /// each one: a malformed instruction gives an error instead of a panic. Use
    /// [`IntrinsicCall::has_src`] before reading an optional source.
    pub fn check_sources(&self) -> Result<(), EnvError> {
        let op = self.op();
        let Some(expected) = op.srcs(&self.intrinsic.indices) else {
            return Err(EnvError::msg(format!(
                "the indices of `@{op}` do not decode, so its sources are unknown"
            )));
        };
        let n = expected.len() + usize::from(self.predicate.is_some());
        let optional = op.optional_srcs().len();
        let ok = if self.predicate.is_some() {
            self.num_srcs() == n
        } else {
            (n..=n + optional).contains(&self.num_srcs())
        };
        if !ok {
            let counts = op
                .srcs_description(&self.intrinsic.indices)
                .unwrap_or_default();
            return Err(EnvError::msg(format!(
                "`@{op}` takes {counts}, found {}",
                self.num_srcs()
            )));
        }
        Ok(())
    }

    /// Whether the instruction has source `i` (an optional trailing source may be left
    /// out; a predicate is not counted here).
    pub fn has_src(&self, i: usize) -> bool {
        i < self.num_srcs() && self.predicate != Some(i)
    }

    /// The type source `i` reads (its swizzle applied).
    pub fn src_type(&self, i: usize) -> Type {
        self.src_types[i]
    }

    /// The components source `i` reads in lane `lane` (swizzle applied). Inactive lanes
    /// read zeros.
    pub fn src(&self, i: usize, lane: usize) -> &[u64] {
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i] + lane * n;
        &self.src_data[start..start + n]
    }

    /// What source `i` reads in every lane: its components (swizzle applied) for lane
    /// 0, then lane 1, and so on (inactive lanes read zeros); a SIMD operand as a
    /// message's payload holds it.
    pub fn src_lanes(&self, i: usize) -> &'a [u64] {
        let n = self.src_types[i].num_components() as usize;
        let start = self.src_offsets[i];
        &self.src_data[start..start + n * self.invocations.len()]
    }

    /// The first component source `i` reads in lane `lane`.
    pub fn src_scalar(&self, i: usize, lane: usize) -> u64 {
        self.src(i, lane)[0]
    }

    /// The descriptor index of an indexed image (`@imgs[%3]`) in lane `lane`; 0 for a
    /// non-indexed image.
    pub fn image_index(&self, lane: usize) -> u64 {
        match self.image_index {
            Some(off) => self.src_data[off + lane],
            None => 0,
        }
    }

    /// The source index of the predicate, for a predicated message.
    pub fn predicate_src(&self) -> Option<usize> {
        self.predicate
    }

    /// Whether lane `lane` is enabled by the predicate (true without a predicate).
    pub fn predicate(&self, lane: usize) -> bool {
        match self.predicate {
            Some(p) => self.src_scalar(p, lane) & 1 != 0,
            None => true,
        }
    }

    /// The active lanes whose predicate is true: the lanes a predicated message accesses
    /// memory for (the message's `ChEn` in the vISA pseudo-code).
    pub fn enabled_mask(&self) -> u32 {
        let mut m = 0;
        for lane in self.active_lanes() {
            if self.predicate(lane) {
                m |= 1 << lane;
            }
        }
        m
    }

    /// Components of the destination (0 without a destination).
    pub fn dest_components(&self) -> usize {
        self.dest_type.map_or(0, |t| t.num_components() as usize)
    }

    /// The destination components of lane `lane`, to be written. Values are masked to
    /// the destination's bit size after the call. Empty without a destination.
    pub fn dest_mut(&mut self, lane: usize) -> &mut [u64] {
        let n = self.dest_components();
        if n == 0 {
            return &mut [];
        }
        &mut self.dest[lane * n..lane * n + n]
    }

    /// The destination of every lane: its components for lane 0, then lane 1, and so
    /// on (see [`IntrinsicCall::dest_mut`]). Empty without a destination.
    pub fn dest_lanes_mut(&mut self) -> &mut [u64] {
        self.dest
    }

    /// Writes the destination of lane `lane` (extra values are ignored, missing ones
    /// stay 0).
    pub fn set_dest(&mut self, lane: usize, values: &[u64]) {
        let d = self.dest_mut(lane);
        let n = d.len().min(values.len());
        d[..n].copy_from_slice(&values[..n]);
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.span)?;
        match &self.kind {
            InterpErrorKind::Alu { op, .. } => write!(f, "`{op}`")?,
            InterpErrorKind::Env { op, .. } => write!(f, "`@{op}`")?,
            InterpErrorKind::NonUniformIndex { op, .. } => write!(f, "`@{op}`: ")?,
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
        let id = self.regs.id(value)?;
        let slot = self.regs.slot(id)?;
        if lane >= self.lanes
            || self.defined.get(id as usize).copied().unwrap_or(0) & (1 << lane) == 0
        {
            return None;
        }
        let n = slot.comps as usize;
        let start = slot.base as usize * self.lanes + lane * n;
        Some(&self.store[start..start + n])
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
    fn read_cond(&self, id: IfId, mask: Mask) -> Result<Mask, InterpError> {
        let data = self.func.if_data(id);
        let cond = data.cond;
        let slot = self.operand(self.regs.if_cond(id), cond.value, mask, data.span, None)?;
        let mut out = 0;
        for lane in lanes_of(mask) {
            if self.read_comp(slot, cond, lane, 0) & 1 != 0 {
                out |= 1 << lane;
            }
        }
        Ok(out)
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
        tmp.clear();
        let r = self.read_phis(block, phis, mask, &mut tmp);
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
                    pos += n;
                }
                self.defined[id as usize] |= mask;
            }
        }
        self.phi_tmp = tmp;
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
                for lane in lanes_of(mask) {
                    let result = {
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
                        eval_alu(alu.op, dest_ty, &operands).map_err(|error| {
                            InterpError::new(
                                span,
                                Some(inst),
                                Some(lane as u32),
                                InterpErrorKind::Alu { op: alu.op, error },
                            )
                        })?
                    };
                    self.write_lane(dest_slot, lane, &result);
                }
                self.defined[dest_id as usize] |= mask;
            }
            InstKind::LoadConst(values) => {
                if let Some((id, slot)) = self.dest_slot(inst) {
                    for lane in lanes_of(mask) {
                        self.write_lane(slot, lane, values);
                    }
                    self.defined[id as usize] |= mask;
                }
            }
            InstKind::Undef => {
                // NIR leaves an undef's value unspecified; 0 keeps runs reproducible.
                if let Some((id, slot)) = self.dest_slot(inst) {
                    for lane in lanes_of(mask) {
                        self.write_lane(slot, lane, &[]);
                    }
                    self.defined[id as usize] |= mask;
                }
            }
            InstKind::Phi(_) => unreachable!("handled above"),
            InstKind::Intrinsic(intr) => self.exec_intrinsic(inst, intr, mask, env)?,
        }
        Ok(())
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
        self.src_types.clear();
        self.src_offsets.clear();
        for (i, &src) in intr.srcs.iter().enumerate() {
            let id = self.regs.src(inst, i);
            let slot = self.operand(id, src.value, mask, span, Some(inst))?;
            let ty = func.src_type(src);
            let n = ty.num_components();
            self.src_types.push(ty);
            self.src_offsets.push(self.src_data.len());
            for lane in 0..lanes {
                for c in 0..n {
                    let v = if mask & (1 << lane) != 0 {
                        self.read_comp(slot, src, lane, c)
                    } else {
                        0
                    };
                    self.src_data.push(v);
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
                    let v = if mask & (1 << lane) != 0 {
                        self.read_comp(slot, idx, lane, 0)
                    } else {
                        0
                    };
                    self.src_data.push(v);
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
        if let Some(ty) = dest_type {
            let n = ty.num_components() as usize;
            for lane in lanes_of(mask) {
                dest_slice[lane * n..lane * n + n].fill(0);
            }
        }
        if let Some((a, b)) = divergent_index(
            intr,
            mask,
            lanes,
            &self.src_data,
            image_index,
            &self.src_offsets,
        ) {
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
        if intr.op == IntrinsicOp::ReadFirstInvocation {
            // The subgroup operation itself: every active lane gets the value of the
            // lowest active lane.
            if let Some(ty) = dest_type {
                let n = ty.num_components() as usize;
                let first = mask.trailing_zeros() as usize;
                let from = self.src_offsets.first().copied().unwrap_or(0) + first * n;
                let value: SmallVec<[u64; 4]> = self.src_data[from..from + n].into();
                for lane in lanes_of(mask) {
                    dest_slice[lane * n..lane * n + n].copy_from_slice(&value);
                }
            }
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
                image_index,
                predicate,
                dest: dest_slice,
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
            self.defined[id as usize] |= mask;
        }
        Ok(())
    }
}

/// Two active lanes that give an intrinsic without `non_uniform` different descriptor
/// indices, as `(lane, index)` (the lowest lane first), if there are such lanes.
fn divergent_index(
    intr: &IntrinsicInst,
    mask: Mask,
    lanes: usize,
    src_data: &[u64],
    image_index: Option<usize>,
    src_offsets: &[usize],
) -> Option<((usize, u64), (usize, u64))> {
    if intr.is_non_uniform() {
        return None;
    }
    let index_of = |lane: usize| -> Option<u64> {
        if let Some(off) = image_index {
            return src_data.get(off + lane).copied();
        }
        let pos = intr.op.info().srcs.iter().position(|s| s.name == "block")?;
        let _ = intr.srcs.get(pos)?;
        src_data.get(src_offsets.get(pos)? + lane).copied()
    };
    let mut active = lanes_of(mask).filter(|&l| l < lanes);
    let first = active.next()?;
    let want = index_of(first)?;
    active
        .filter_map(|l| index_of(l).map(|i| (l, i)))
        .find(|&(_, i)| i != want)
        .map(|other| ((first, want), other))
}
