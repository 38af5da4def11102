//! Running a vISA kernel's thread: the register file initialised from the thread's
//! payload (the register file at kernel entry, as the kernel's `.input`s describe it),
//! then instruction after instruction with the execution mask, predicates and SIMD
//! control flow, within an instruction budget. Message instructions go to a
//! [`MessagePort`], the memory's side; a `barrier` stops the thread so that the other
//! threads of its workgroup can reach it.

use super::alu;
use super::control::{channel_enable, mask_enable, pred_mask, FlowError, Next, SimdFlow};
use super::convert::FpMode;
use super::error::{ErrorKind, VisaError};
use super::listing::AluOp;
use super::payload::XMessage;
use super::program::{Dead, Program, XInst};
use super::regfile::{RegState, VarRef};
use super::scratch::ThreadScratch;
use std::fmt;
use std::sync::Arc;

/// Limits and initial state of a thread.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Instructions a thread may execute before it fails.
    pub max_instructions: u64,
    /// The byte every register holds at kernel entry unless an input sets it.
    pub fill: u8,
    /// `%cr0` at kernel entry (float mode: 0 is round to nearest even, IEEE, all
    /// denormals flushed; `0x4c0` keeps them).
    pub cr0: u32,
    /// The legacy data port of the generation the kernel runs on, which decides how
    /// its data-port messages (`gather4_typed`, `svm_atomic`, ...) behave, as
    /// [`crate::exec::ExecConfig::dataport`] does for the IR's `@dp_*` messages;
    /// `None` runs no data-port message.
    pub dataport: Option<lowering::messages::dataport::DataportCaps>,
    /// The error of the math unit (`inv`, `sqrt`, `rsqrt`, `exp`, `log`, `sin`, `cos`,
    /// `pow` on binary32 and binary16), in binary32 ulps: 0 gives the correctly rounded
    /// value; `n` a binary32 less than `n` ulps from the true value, picked by a fixed
    /// hash of the operand ([`alu`]). The vISA specification documents these
    /// instructions as approximate; tests run a kernel with `n > 0` to show that the
    /// code around them does not depend on their last bits.
    pub math_ulps: u32,
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            max_instructions: 10_000_000,
            fill: 0xa5,
            cr0: 0,
            dataport: None,
            math_ulps: 0,
        }
    }
}

/// What the dispatcher gives a thread.
#[derive(Copy, Clone, Debug)]
pub struct ThreadInit<'a> {
    /// The register file at kernel entry: `%r0` in bytes `0..32`, then the inputs at
    /// their `.input` offsets.
    pub payload: &'a [u8],
    /// The channels dispatched (bit `n` = channel `n`); also `%sr0` dword 2.
    pub dispatch_mask: u32,
    /// `%hw_id`.
    pub hw_id: u32,
}

/// Why a thread stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It finished (`ret`).
    Done,
    /// It reached a `barrier`; run it again once every thread of its workgroup has.
    Barrier,
}

/// What a message instruction sees of its thread.
pub struct MessageCtx<'a> {
    /// The thread's registers.
    pub regs: &'a mut RegState,
    /// The message's channel enables (`Msg.ChEn`: the execution mask, or all channels
    /// with NoMask, and the predicate); bit `n` is channel `n` of the message.
    pub chen: u32,
    /// Bytes per register.
    pub grf: u32,
    /// The instruction's vISA line.
    pub line: u32,
    /// The invocation (linear index in the dispatch) each channel of the thread serves.
    pub invocations: &'a [u32],
    /// For a message without mask (`M1_NM`), the thread's execution mask: the lanes
    /// whose invocations reach the instruction, which a uniform load serves all at
    /// once. `None` for a masked message.
    pub active: Option<u32>,
    /// The thread's scratch space ([`super::scratch`]).
    pub scratch: &'a mut ThreadScratch,
}

/// The memory side of message instructions (LSC, sampler, legacy data port).
pub trait MessagePort {
    /// Runs `msg` for the thread `ctx`.
    fn message(
        &mut self,
        msg: &XMessage,
        ctx: &mut MessageCtx<'_>,
    ) -> Result<(), Arc<dyn std::error::Error + Send + Sync>>;
}

/// The port of a thread without memory: every message fails.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoMemory;

/// The error of [`NoMemory`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NoMemoryError;

impl fmt::Display for NoMemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message instruction ran without memory to access")
    }
}

impl std::error::Error for NoMemoryError {}

impl MessagePort for NoMemory {
    fn message(
        &mut self,
        _: &XMessage,
        _: &mut MessageCtx<'_>,
    ) -> Result<(), Arc<dyn std::error::Error + Send + Sync>> {
        Err(Arc::new(NoMemoryError))
    }
}

/// A thread of a kernel.
#[derive(Clone, Debug)]
pub struct Thread {
    /// Its registers.
    pub regs: RegState,
    /// The invocation (linear index in the dispatch) each channel serves, for the access
    /// log of its messages; empty (invocation 0) unless the dispatcher sets it.
    pub invocations: Vec<u32>,
    /// Its scratch space: at the base its payload's `r0.5` gives, of the kernel's
    /// `SpillMemOffset` bytes ([`super::scratch`]).
    pub scratch: ThreadScratch,
    pc: usize,
    flow: SimdFlow,
    executed: u64,
    channels: u64,
    done: bool,
    cr0: u32,
}

fn flow_error(p: &Program, line: u32, e: FlowError) -> VisaError {
    let at_line = |i: usize| p.lines.get(i).copied().unwrap_or(0);
    let reason = match e {
        FlowError::Stranded { at, channels } => format!(
            "channels {channels:#x} wait at line {} but execution has passed it and no channel is left to reach it",
            at_line(at)
        ),
        FlowError::JumpOverWaiting { at } => format!(
            "`jmp` jumps over line {}, where channels wait to be reactivated",
            at_line(at)
        ),
    };
    VisaError::new(line, ErrorKind::ControlFlow { reason })
}

impl Thread {
    /// A thread of `program` at kernel entry.
    pub fn new(
        program: &Program,
        init: &ThreadInit<'_>,
        config: &RunConfig,
    ) -> Result<Thread, VisaError> {
        let layout = &program.layout;
        let mut regs = RegState::new(layout, config.fill);
        let r0 = layout.start_of("%r0").unwrap_or(0) as usize;
        let head = init.payload.len().min(32);
        regs.bytes[r0..r0 + head].copy_from_slice(&init.payload[..head]);
        for input in &layout.inputs {
            let (o, s) = (input.offset as usize, input.size as usize);
            let Some(bytes) = init.payload.get(o..o + s) else {
                return Err(VisaError::new(
                    input.line,
                    ErrorKind::BadDeclaration {
                        name: input.name.clone(),
                        reason: format!(
                            "the thread's payload has {} bytes, but the input needs bytes {o}..{}",
                            init.payload.len(),
                            o + s
                        ),
                    },
                ));
            };
            match input.var {
                VarRef::General(i) => {
                    let start = layout.general[i].start as usize;
                    regs.bytes[start..start + s].copy_from_slice(bytes);
                }
                VarRef::State(i) => {
                    let first = layout.states[i].first as usize;
                    for (k, w) in bytes.chunks_exact(4).enumerate() {
                        regs.states[first + k] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                    }
                }
                _ => {}
            }
        }
        let mut set = |name: &str, dword: u32, v: u32| {
            if let Some(start) = layout.start_of(name) {
                regs.write(start + 4 * dword, 4, u64::from(v));
            }
        };
        set("%sr0", 0, 0);
        set("%sr0", 1, 0);
        set("%sr0", 2, init.dispatch_mask);
        set("%sr0", 3, 0);
        set("%cr0", 0, config.cr0);
        set("%hw_id", 0, init.hw_id);
        Ok(Thread {
            regs,
            invocations: Vec::new(),
            scratch: ThreadScratch::new(
                init.hw_id,
                super::scratch::base_of_payload(init.payload),
                program.scratch_bytes,
            ),
            pc: 0,
            flow: SimdFlow::new(program.insts.len(), init.dispatch_mask),
            executed: 0,
            channels: 0,
            done: init.dispatch_mask == 0,
            cr0: layout.start_of("%cr0").unwrap_or(0),
        })
    }

    /// Instructions executed so far.
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// Channel operations so far: the enabled channels of each ALU instruction.
    pub fn channels_executed(&self) -> u64 {
        self.channels
    }

    /// Whether the thread has finished.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Runs until the thread finishes or reaches a barrier.
    pub fn run(
        &mut self,
        program: &Program,
        port: &mut dyn MessagePort,
        config: &RunConfig,
    ) -> Result<Stop, VisaError> {
        if self.done {
            return Ok(Stop::Done);
        }
        let insts = &program.insts;
        loop {
            let pc = self.pc;
            self.flow.arrive(pc);
            let Some(inst) = insts.get(pc) else {
                self.done = true;
                let line = program.lines.last().copied().unwrap_or(0);
                return Err(VisaError::new(
                    line,
                    ErrorKind::ControlFlow {
                        reason: "execution ran past the last instruction without `ret`".into(),
                    },
                ));
            };
            let line = program.lines[pc];
            self.executed += 1;
            if self.executed > config.max_instructions {
                self.done = true;
                return Err(VisaError::new(
                    line,
                    ErrorKind::BudgetExhausted {
                        limit: config.max_instructions,
                    },
                ));
            }
            let em = self.flow.em;
            let next = match inst {
                XInst::Alu(a) => {
                    let pm = pred_mask(a.exec, a.pred.as_ref(), &self.regs.preds);
                    let me = mask_enable(a.exec, em);
                    let (chen, sel) = if a.op == AluOp::Sel {
                        (me, pm)
                    } else {
                        (me & pm, 0)
                    };
                    self.channels += u64::from(chen.count_ones());
                    let mode = FpMode::from_cr0(self.regs.read(self.cr0, 4) as u32);
                    alu::execute(a, &mut self.regs, chen, sel, mode, config.math_ulps)
                        .map_err(|k| VisaError::new(line, k))?;
                    Next::At(pc + 1)
                }
                XInst::Setp {
                    exec,
                    dst,
                    src,
                    scalar,
                } => {
                    let enabled = channel_enable(*exec, em, None, &self.regs.preds);
                    alu::setp(&mut self.regs, *dst, src, *scalar, *exec, enabled);
                    Next::At(pc + 1)
                }
                XInst::AddrAdd(x) => {
                    super::indirect::addr_add(x, &mut self.regs, em);
                    Next::At(pc + 1)
                }
                XInst::MovIndirect(x) => {
                    super::indirect::mov_indirect(x, &mut self.regs, em)
                        .map_err(|k| VisaError::new(line, k))?;
                    Next::At(pc + 1)
                }
                XInst::Movs { exec, dst, src } => {
                    alu::movs(&mut self.regs, dst, src, mask_enable(*exec, em));
                    Next::At(pc + 1)
                }
                XInst::Goto { pred, exec, target } => {
                    let pm = pred_mask(*exec, pred.as_ref(), &self.regs.preds);
                    self.flow
                        .goto(pc, *target, *exec, pm)
                        .map_err(|e| flow_error(program, line, e))?
                }
                XInst::Jmp { pred, exec, target } => {
                    let pm = pred_mask(*exec, pred.as_ref(), &self.regs.preds);
                    self.flow
                        .jmp(pc, *target, pm)
                        .map_err(|e| flow_error(program, line, e))?
                }
                XInst::Ret { pred, exec } => {
                    let pm = pred_mask(*exec, pred.as_ref(), &self.regs.preds);
                    self.flow
                        .ret(pc, *exec, pm)
                        .map_err(|e| flow_error(program, line, e))?
                }
                XInst::Message { pred, exec, msg } => {
                    let chen = channel_enable(*exec, em, pred.as_ref(), &self.regs.preds);
                    let mut ctx = MessageCtx {
                        regs: &mut self.regs,
                        chen,
                        grf: program.layout.grf,
                        line,
                        invocations: &self.invocations,
                        active: exec.no_mask.then_some(em),
                        scratch: &mut self.scratch,
                    };
                    port.message(msg, &mut ctx)
                        .map_err(|source| VisaError::new(line, ErrorKind::Message { source }))?;
                    Next::At(pc + 1)
                }
                XInst::Fence => Next::At(pc + 1),
                XInst::Lifetime(dead) => {
                    match *dead {
                        Dead::Bytes { start, size } => {
                            let (s, e) = (start as usize, (start + size) as usize);
                            self.regs.bytes[s..e].fill(config.fill);
                        }
                        Dead::Pred(p) => self.regs.preds[p] = u32::from_ne_bytes([config.fill; 4]),
                        Dead::Nothing => {}
                    }
                    Next::At(pc + 1)
                }
                XInst::Barrier => {
                    if self.flow.diverged() {
                        return Err(VisaError::new(
                            line,
                            ErrorKind::ControlFlow {
                                reason: "`barrier` in divergent control flow (undefined in vISA)"
                                    .into(),
                            },
                        ));
                    }
                    self.pc = pc + 1;
                    return Ok(Stop::Barrier);
                }
            };
            match next {
                Next::At(n) => self.pc = n,
                Next::Done => {
                    self.done = true;
                    return Ok(Stop::Done);
                }
            }
        }
    }
}

/// Runs the threads of one workgroup to the end, in thread order, each until it
/// finishes or reaches a `barrier`; once every thread waits at the barrier they all go
/// on. Returns the instructions executed.
///
/// A barrier that some threads reach while others have finished is an error (vISA's
/// barrier waits for every thread of the group; those that ended never arrive).
pub fn run_workgroup(
    program: &Program,
    threads: &mut [Thread],
    port: &mut dyn MessagePort,
    config: &RunConfig,
) -> Result<u64, VisaError> {
    loop {
        let mut waiting = None;
        let mut finished = 0;
        for (i, t) in threads.iter_mut().enumerate() {
            if t.is_done() {
                finished += 1;
                continue;
            }
            match t.run(program, port, config)? {
                Stop::Done => finished += 1,
                Stop::Barrier => {
                    waiting.get_or_insert((i, program.lines[t.pc - 1]));
                }
            }
        }
        match waiting {
            None => return Ok(threads.iter().map(Thread::executed).sum()),
            Some((i, line)) if finished > 0 => {
                return Err(VisaError::new(
                    line,
                    ErrorKind::ControlFlow {
                        reason: format!(
                            "thread {i} waits at a barrier that {finished} finished thread(s) of its workgroup never reach"
                        ),
                    },
                ))
            }
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::reader::read;
    use crate::visa::testing::{elems, kernel, run, run_with};

    const DECLS: &str = ".decl L v_type=G type=w num_elts=8\n\
        .decl I v_type=G type=d num_elts=8\n\
        .decl S v_type=G type=d num_elts=8\n\
        .decl R v_type=G type=d num_elts=8\n\
        .decl P1 v_type=P num_elts=8\n\
        .decl P2 v_type=P num_elts=8";

    /// Lane ids 0..8 in L.
    const LANES: &str = "mov (M1, 8) L(0,0)<1> 0x76543210:v";

    #[test]
    fn if_else_diverges_and_reconverges() {
        let body = format!(
            "{LANES}\ncmp.lt (M1, 8) P1 L(0,0)<1;1,0> 3:w\n(!P1) goto (M1, 8) ELSE\n\
             mov (M1, 8) R(0,0)<1> 100:d\ngoto (M1, 8) ENDIF\nELSE:\nmov (M1, 8) R(0,0)<1> 200:d\n\
             ENDIF:\nadd (M1, 8) R(0,0)<1> R(0,0)<1;1,0> 1:d"
        );
        let (p, t) = run(&kernel(8, DECLS, &body), 8);
        assert_eq!(elems(&p, &t, "R"), [101, 101, 101, 201, 201, 201, 201, 201]);
    }

    #[test]
    fn backward_goto_runs_a_per_channel_trip_count() {
        // do { s += i; i++ } while (i < lane): s = lane (lane - 1) / 2 for lane >= 1.
        let body = format!(
            "{LANES}\nmov (M1, 8) I(0,0)<1> 0:d\nmov (M1, 8) S(0,0)<1> 0:d\nLOOP:\n\
             add (M1, 8) S(0,0)<1> S(0,0)<1;1,0> I(0,0)<1;1,0>\nadd (M1, 8) I(0,0)<1> I(0,0)<1;1,0> 1:d\n\
             cmp.lt (M1, 8) P1 I(0,0)<1;1,0> L(0,0)<1;1,0>\n(P1) goto (M1, 8) LOOP"
        );
        let (p, t) = run(&kernel(8, DECLS, &body), 8);
        assert_eq!(elems(&p, &t, "S"), [0, 0, 1, 3, 6, 10, 15, 21]);
        // Three movs, four instructions per iteration, seven iterations (lane 7's trip
        // count), the ret.
        assert_eq!(t.executed(), 3 + 4 * 7 + 1);
    }

    #[test]
    fn a_loop_left_by_a_forward_goto_reconverges_at_its_end() {
        // while (i != lane) { s += 10; i++ }: the breaking channels wait at END.
        let body = format!(
            "{LANES}\nmov (M1, 8) I(0,0)<1> 0:d\nmov (M1, 8) S(0,0)<1> 0:d\nLOOP:\n\
             cmp.eq (M1, 8) P2 I(0,0)<1;1,0> L(0,0)<1;1,0>\n(P2) goto (M1, 8) END\n\
             add (M1, 8) S(0,0)<1> S(0,0)<1;1,0> 10:d\nadd (M1, 8) I(0,0)<1> I(0,0)<1;1,0> 1:d\n\
             goto (M1, 8) LOOP\nEND:\nadd (M1, 8) S(0,0)<1> S(0,0)<1;1,0> 1:d"
        );
        let (p, t) = run(&kernel(8, DECLS, &body), 8);
        assert_eq!(elems(&p, &t, "S"), [1, 11, 21, 31, 41, 51, 61, 71]);
    }

    #[test]
    fn simd_ret_retires_channels() {
        let body = format!(
            "{LANES}\nmov (M1, 8) R(0,0)<1> 0:d\ncmp.lt (M1, 8) P1 L(0,0)<1;1,0> 4:w\n(P1) ret (M1, 8)\n\
             mov (M1, 8) R(0,0)<1> 5:d"
        );
        let (p, t) = run(&kernel(8, DECLS, &body), 8);
        assert_eq!(elems(&p, &t, "R"), [0, 0, 0, 0, 5, 5, 5, 5]);
    }

    #[test]
    fn dispatch_mask_and_nomask() {
        let body = "mov (M1, 8) R(0,0)<1> 1:d\nmov (M1_NM, 8) S(0,0)<1> 2:d";
        let (p, t) = run_with(&kernel(8, DECLS, body), 32, 0x0f, 0);
        // Channels 4..8 were not dispatched: R keeps the fill pattern there.
        let fill = 0xa5a5_a5a5;
        assert_eq!(elems(&p, &t, "R"), [1, 1, 1, 1, fill, fill, fill, fill]);
        assert_eq!(elems(&p, &t, "S"), [2; 8]);
    }

    #[test]
    fn simd32_halves_use_the_upper_predicate_bits() {
        // IGC's SIMD32 pattern: two SIMD16 compares fill P1 bits 0..16 and 16..32, one
        // goto (M1, 32) branches on all 32.
        let decls = ".decl L v_type=G type=uw num_elts=32\n.decl R v_type=G type=d num_elts=32\n.decl P1 v_type=P num_elts=32";
        let body = "mov (M1, 8) L(0,0)<1> 0x76543210:uv\nadd (M1, 8) L(0,8)<1> L(0,0)<1;1,0> 8:uw\n\
                    add (M1, 16) L(1,0)<1> L(0,0)<1;1,0> 16:uw\n\
                    cmp.gt (M1_NM, 16) P1 L(0,0)<1;1,0> 20:uw\ncmp.gt (M5_NM, 16) P1 L(1,0)<1;1,0> 20:uw\n\
                    mov (M1, 16) R(0,0)<1> 0:d\nmov (M5, 16) R(2,0)<1> 0:d\n\
                    (P1) goto (M1, 32) SKIP\nmov (M1, 16) R(0,0)<1> 7:d\nmov (M5, 16) R(2,0)<1> 7:d\nSKIP:";
        let (p, t) = run(&kernel(32, decls, body), 32);
        let r = elems(&p, &t, "R");
        let expect: Vec<u64> = (0..32).map(|i| if i > 20 { 0 } else { 7 }).collect();
        assert_eq!(r, expect);
    }

    #[test]
    fn inputs_and_the_payload_header() {
        let decls = ".decl A v_type=G type=uw num_elts=16\n.decl R v_type=G type=ud num_elts=16\n.input A offset=32 size=32";
        let body = "add (M1, 16) R(0,0)<1> A(0,0)<1;1,0> %group_id_x(0,0)<0;1,0>\n\
                    add (M1, 1) R(0,0)<1> %group_id_z(0,0)<0;1,0> %sr0(0,2)<0;1,0>";
        let text = kernel(16, decls, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let mut payload = vec![0u8; 64];
        // %r0 dword 1 is the group id x (7); dword 7 the group id z (1000).
        payload[4..8].copy_from_slice(&7u32.to_le_bytes());
        payload[28..32].copy_from_slice(&1000u32.to_le_bytes());
        for i in 0..16u16 {
            payload[32 + 2 * i as usize..][..2].copy_from_slice(&(i * 3).to_le_bytes());
        }
        let config = RunConfig::default();
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xffff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        assert_eq!(t.run(&program, &mut NoMemory, &config).unwrap(), Stop::Done);
        let r = elems(&program, &t, "R");
        // Channel 0: %group_id_z + %sr0.2 (the dispatch mask) = 1000 + 0xffff.
        assert_eq!(r[0], 1000 + 0xffff);
        assert_eq!(r[1..], (1..16).map(|i| i * 3 + 7).collect::<Vec<u64>>()[..]);
        // A payload too short for an input is an error naming the input's line.
        let short = [0u8; 40];
        let init = ThreadInit {
            payload: &short,
            ..init
        };
        let e = Thread::new(&program, &init, &config).unwrap_err();
        assert_eq!(e.line, 5);
    }

    fn run_err(text: &str, config: &RunConfig) -> VisaError {
        let program = Program::new(&read(text).unwrap(), 32, 1 << 20).unwrap();
        let payload = [0u8; 64];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = Thread::new(&program, &init, config).unwrap();
        t.run(&program, &mut NoMemory, config).unwrap_err()
    }

    #[test]
    fn runaway_and_malformed_control_flow_are_errors() {
        let config = RunConfig {
            max_instructions: 1000,
            ..RunConfig::default()
        };
        let e = run_err(&kernel(8, DECLS, "L1:\ngoto (M1, 1) L1"), &config);
        assert!(matches!(e.kind, ErrorKind::BudgetExhausted { limit: 1000 }));
        // .version, .kernel, six .decl, .kernel_attr, .function, main:, L1:, the goto.
        assert_eq!(e.line, 13);
        let no_ret = ".version 4.1\n.kernel k\nmov (M1, 1) %cr0(0,0)<1> 0:ud\n";
        let e = run_err(no_ret, &config);
        assert!(matches!(e.kind, ErrorKind::ControlFlow { .. }));
        assert_eq!(e.line, 3);
        let body = format!(
            "{LANES}\ncmp.lt (M1, 8) P1 L(0,0)<1;1,0> 3:w\n(P1) goto (M1, 8) A\njmp (M1, 1) B\nA:\nmov (M1, 8) R(0,0)<1> 1:d\nB:"
        );
        let e = run_err(&kernel(8, DECLS, &body), &config);
        assert!(matches!(e.kind, ErrorKind::ControlFlow { .. }), "{e}");
        let body = format!(
            "{LANES}\ncmp.lt (M1, 8) P1 L(0,0)<1;1,0> 3:w\n(P1) goto (M1, 8) A\nbarrier\nA:"
        );
        let e = run_err(&kernel(8, DECLS, &body), &config);
        assert!(matches!(e.kind, ErrorKind::ControlFlow { .. }), "{e}");
        let e = run_err(
            &kernel(
                8,
                DECLS,
                "lsc_fence.ugm.none.group\nlsc_load.ugm (M1, 8) R:d32 flat[I]:a32",
            ),
            &config,
        );
        assert!(matches!(e.kind, ErrorKind::Message { .. }), "{e}");
    }

    #[test]
    fn lifetime_start_kills_the_value() {
        let body = "mov (M1, 8) R(0,0)<1> 1:d\nlifetime.start R\nmov (M1, 4) R(0,0)<1> 2:d";
        let (p, t) = run(&kernel(8, DECLS, body), 8);
        let fill = 0xa5a5_a5a5;
        assert_eq!(elems(&p, &t, "R"), [2, 2, 2, 2, fill, fill, fill, fill]);
    }

    #[test]
    fn movs_moves_state_indices() {
        let decls = ".decl T6 v_type=T num_elts=2\n.decl T7 v_type=T num_elts=1\n.decl R v_type=G type=ud num_elts=8";
        let body = "movs (M1_NM, 1) T6(1) 0x5:ud\nmovs (M1_NM, 1) T7(0) T6(1)\nmovs (M1_NM, 1) R(0,0)<1> T7(0)";
        let (p, t) = run(&kernel(8, decls, body), 8);
        assert_eq!(elems(&p, &t, "R")[0], 5);
        let bad = kernel(8, decls, "movs (M1_NM, 2) T7(0) 0x5:ud");
        let listing = read(&bad).unwrap();
        assert!(matches!(
            Program::new(&listing, 32, 1 << 20).unwrap_err().kind,
            ErrorKind::OutOfBounds { .. }
        ));
    }

    #[test]
    fn workgroups_meet_at_barriers() {
        // Thread t writes t (its %hw_id) to R, waits, then adds 10: every thread passes the
        // barrier; a thread that returns before it leaves the others stranded.
        let body = "mov (M1, 8) R(0,0)<1> %hw_id(0,0)<0;1,0>\nbarrier\nadd (M1, 8) R(0,0)<1> R(0,0)<1;1,0> 10:d";
        let text = kernel(8, DECLS, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let config = RunConfig::default();
        let payload = [0u8; 32];
        let mut threads: Vec<Thread> = (0..3)
            .map(|hw_id| {
                let init = ThreadInit {
                    payload: &payload,
                    dispatch_mask: 0xff,
                    hw_id,
                };
                Thread::new(&program, &init, &config).unwrap()
            })
            .collect();
        let n = run_workgroup(&program, &mut threads, &mut NoMemory, &config).unwrap();
        assert_eq!(n, 3 * 4);
        for (i, t) in threads.iter().enumerate() {
            assert_eq!(elems(&program, t, "R"), [i as u64 + 10; 8]);
        }
        let body = "cmp.eq (M1_NM, 8) P1 %hw_id(0,0)<0;1,0> 0:ud\n(P1.any) ret (M1, 1)\nbarrier";
        let text = kernel(8, DECLS, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let mut threads: Vec<Thread> = (0..2)
            .map(|hw_id| {
                let init = ThreadInit {
                    payload: &payload,
                    dispatch_mask: 0xff,
                    hw_id,
                };
                Thread::new(&program, &init, &config).unwrap()
            })
            .collect();
        let e = run_workgroup(&program, &mut threads, &mut NoMemory, &config).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::ControlFlow { .. }), "{e}");
    }

    #[test]
    fn barrier_stops_and_resumes_the_thread() {
        let body = "mov (M1, 8) R(0,0)<1> 1:d\nbarrier\nadd (M1, 8) R(0,0)<1> R(0,0)<1;1,0> 1:d";
        let text = kernel(8, DECLS, body);
        let program = Program::new(&read(&text).unwrap(), 32, 1 << 20).unwrap();
        let config = RunConfig::default();
        let payload = [0u8; 32];
        let init = ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 3,
        };
        let mut t = Thread::new(&program, &init, &config).unwrap();
        assert_eq!(
            t.run(&program, &mut NoMemory, &config).unwrap(),
            Stop::Barrier
        );
        assert_eq!(elems(&program, &t, "R"), [1; 8]);
        assert_eq!(t.run(&program, &mut NoMemory, &config).unwrap(), Stop::Done);
        assert_eq!(elems(&program, &t, "R"), [2; 8]);
        assert!(t.is_done());
        assert_eq!(elems(&program, &t, "%hw_id"), [3]);
    }
}
