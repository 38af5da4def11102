//! Execution masks, predication and SIMD control flow, as IGC's
//! `documentation/visa/3_execution_model.md` ("Control Flow"), `5_operands.md`
//! ("Predication", `EvaluateChEn`) and the `GOTO`, `JMP` and `RET` chapters define
//! them.
//!
//! A thread has a 32-bit execution mask `EM`. An instruction's channel enables are
//! `EM[offset + n]` (all ones with NoMask) for `n < exec_size`, and'ed with its
//! predicate bits `P[offset + n]` (after `.any`/`.all` and `!`).
//!
//! `goto` moves channels between `EM` and the *waiting* sets of program points:
//!
//! * forward (the label is after the `goto`): the active channels whose predicate is
//!   set leave `EM` and wait at the label; the others go on. If none goes on, execution
//!   jumps to the next program point where channels wait;
//! * backward (the label is at or before it): if any active channel's predicate is
//!   set, execution jumps to the label and the active channels whose predicate is clear
//!   wait at the instruction after the `goto`; otherwise execution goes on;
//! * at execution size 1 the branch is uniform: every active channel takes it if the
//!   predicate (its first bit) is set, none otherwise.
//!
//! Channels waiting at a point rejoin `EM` when execution reaches it. `jmp` is a
//! uniform jump; jumping over a point where channels wait would lose them, so it is an
//! error. `ret` at execution size 1 ends the thread when its predicate holds; at larger
//! sizes it retires the predicated active channels, and the thread ends when none is
//! left.

use super::program::XPred;
use super::types::{ExecCtrl, PredCombine};

/// A predicate's per-channel mask for an instruction: bit `n` is the predicate value of
/// channel `n` (element `offset + n`), after `.any`/`.all` and `!`; all ones without a
/// predicate.
#[inline]
pub fn pred_mask(exec: ExecCtrl, pred: Option<&XPred>, preds: &[u32]) -> u32 {
    let size_mask = if exec.size >= 32 {
        u32::MAX
    } else {
        (1u32 << exec.size) - 1
    };
    let Some(p) = pred else { return size_mask };
    let bits = (preds[p.id] >> exec.offset) & size_mask;
    let m = match p.combine {
        PredCombine::Sequential => bits,
        PredCombine::Any => {
            if bits != 0 {
                size_mask
            } else {
                0
            }
        }
        PredCombine::All => {
            if bits == size_mask {
                size_mask
            } else {
                0
            }
        }
    };
    if p.invert {
        !m & size_mask
    } else {
        m
    }
}

/// The channels the execution mask enables for an instruction (before predication):
/// bit `n` is `EM[offset + n]`, or set for every channel with NoMask.
#[inline]
pub fn mask_enable(exec: ExecCtrl, em: u32) -> u32 {
    let size_mask = if exec.size >= 32 {
        u32::MAX
    } else {
        (1u32 << exec.size) - 1
    };
    if exec.no_mask {
        size_mask
    } else {
        (em >> exec.offset) & size_mask
    }
}

/// `EvaluateChEn`: the channels an instruction writes.
#[inline]
pub fn channel_enable(exec: ExecCtrl, em: u32, pred: Option<&XPred>, preds: &[u32]) -> u32 {
    mask_enable(exec, em) & pred_mask(exec, pred, preds)
}

/// Where execution goes after a control-flow instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// To the instruction at this index.
    At(usize),
    /// Nowhere: the thread has finished.
    Done,
}

/// Why control flow cannot continue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowError {
    /// Channels wait at a point execution has passed and will not reach again.
    Stranded {
        /// The instruction index they wait at.
        at: usize,
        /// The channels.
        channels: u32,
    },
    /// A `jmp` over a point where channels wait.
    JumpOverWaiting {
        /// The instruction index they wait at.
        at: usize,
    },
}

/// The SIMD control-flow state of a thread.
#[derive(Clone, Debug)]
pub struct SimdFlow {
    /// The execution mask.
    pub em: u32,
    /// Channels that have not returned.
    pub alive: u32,
    /// Channels waiting at each program point (index `len` is the end).
    waiting: Vec<u32>,
    /// Number of points with waiting channels.
    waiting_points: usize,
}

impl SimdFlow {
    /// The state at kernel entry of a program of `len` instructions, with the channels
    /// of `dispatch` enabled.
    pub fn new(len: usize, dispatch: u32) -> SimdFlow {
        SimdFlow {
            em: dispatch,
            alive: dispatch,
            waiting: vec![0; len + 1],
            waiting_points: 0,
        }
    }

    /// Whether any channel waits anywhere (the control flow is divergent).
    pub fn diverged(&self) -> bool {
        self.waiting_points != 0
    }

    fn park(&mut self, at: usize, channels: u32) {
        if channels == 0 {
            return;
        }
        if self.waiting[at] == 0 {
            self.waiting_points += 1;
        }
        self.waiting[at] |= channels;
    }

    /// Execution reaches point `pc`: its waiting channels rejoin the execution mask.
    #[inline]
    pub fn arrive(&mut self, pc: usize) {
        let w = self.waiting[pc];
        if w != 0 {
            self.em |= w;
            self.waiting[pc] = 0;
            self.waiting_points -= 1;
        }
    }

    /// With no channel active after `pc`, where execution resumes: the next point where
    /// channels wait.
    fn resume_after(&mut self, pc: usize) -> Result<Next, FlowError> {
        if let Some(q) = (pc + 1..self.waiting.len()).find(|&q| self.waiting[q] != 0) {
            return Ok(Next::At(q));
        }
        if let Some(q) = (0..=pc.min(self.waiting.len() - 1)).find(|&q| self.waiting[q] != 0) {
            return Err(FlowError::Stranded {
                at: q,
                channels: self.waiting[q],
            });
        }
        Ok(Next::Done)
    }

    /// `goto` at `pc` to `target` with the predicate mask `pmask` (from
    /// [`pred_mask`]).
    pub fn goto(
        &mut self,
        pc: usize,
        target: usize,
        exec: ExecCtrl,
        pmask: u32,
    ) -> Result<Next, FlowError> {
        let (active, taken) = if exec.size == 1 {
            // Uniform: all active channels follow the predicate's first bit.
            (self.em, if pmask & 1 != 0 { self.em } else { 0 })
        } else {
            let active = self.em & exec.channel_bits();
            (active, active & (pmask << exec.offset))
        };
        if target > pc {
            self.em &= !taken;
            self.park(target, taken);
            if self.em == 0 {
                return self.resume_after(pc);
            }
            Ok(Next::At(pc + 1))
        } else if taken != 0 {
            let stay = active & !taken;
            self.em &= !stay;
            self.park(pc + 1, stay);
            Ok(Next::At(target))
        } else {
            Ok(Next::At(pc + 1))
        }
    }

    /// A uniform `jmp` at `pc` to `target`, taken if `pmask`'s first bit is set.
    pub fn jmp(&mut self, pc: usize, target: usize, pmask: u32) -> Result<Next, FlowError> {
        if pmask & 1 == 0 {
            return Ok(Next::At(pc + 1));
        }
        if target > pc {
            if let Some(q) = (pc + 1..target).find(|&q| self.waiting[q] != 0) {
                return Err(FlowError::JumpOverWaiting { at: q });
            }
        }
        Ok(Next::At(target))
    }

    /// `ret` at `pc` with the predicate mask `pmask`.
    pub fn ret(&mut self, pc: usize, exec: ExecCtrl, pmask: u32) -> Result<Next, FlowError> {
        if exec.size == 1 {
            if pmask & 1 != 0 {
                self.em = 0;
                self.alive = 0;
                return Ok(Next::Done);
            }
            return Ok(Next::At(pc + 1));
        }
        let retired = self.em & exec.channel_bits() & (pmask << exec.offset);
        self.em &= !retired;
        self.alive &= !retired;
        if self.alive == 0 {
            return Ok(Next::Done);
        }
        if self.em == 0 {
            return self.resume_after(pc);
        }
        Ok(Next::At(pc + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(size: u8, offset: u8) -> ExecCtrl {
        ExecCtrl {
            size,
            offset,
            no_mask: false,
        }
    }

    #[test]
    fn channel_enables_follow_evaluate_chen() {
        let preds = [0b1010_0000_0000_0000_0110u32];
        let p = XPred {
            id: 0,
            invert: false,
            combine: PredCombine::Sequential,
        };
        // (P) (M1, 4): EM & P[0..4] = 0b1111 & 0b0110.
        assert_eq!(
            channel_enable(ex(4, 0), 0xffff_ffff, Some(&p), &preds),
            0b0110
        );
        // (M5, 4) reads P[16..20] = 0b1010 and EM[16..20].
        assert_eq!(
            channel_enable(ex(4, 16), 0x000f_0000, Some(&p), &preds),
            0b1010
        );
        assert_eq!(
            channel_enable(ex(4, 16), 0x0003_0000, Some(&p), &preds),
            0b0010
        );
        // NoMask ignores EM but not the predicate.
        let nm = ExecCtrl {
            no_mask: true,
            ..ex(4, 0)
        };
        assert_eq!(channel_enable(nm, 0, Some(&p), &preds), 0b0110);
        // .any / .all / ! over the instruction's range.
        let any = XPred {
            combine: PredCombine::Any,
            ..p.clone()
        };
        assert_eq!(pred_mask(ex(4, 0), Some(&any), &preds), 0b1111);
        let all = XPred {
            combine: PredCombine::All,
            ..p.clone()
        };
        assert_eq!(pred_mask(ex(4, 0), Some(&all), &preds), 0);
        let not_all = XPred {
            invert: true,
            ..all
        };
        assert_eq!(pred_mask(ex(4, 0), Some(&not_all), &preds), 0b1111);
        let inv = XPred { invert: true, ..p };
        assert_eq!(pred_mask(ex(4, 0), Some(&inv), &preds), 0b1001);
    }

    #[test]
    fn forward_goto_parks_taken_channels_until_the_label() {
        // 0: (P) goto (M1, 8) L   1: ...   2: L: ...
        let mut f = SimdFlow::new(4, 0xff);
        assert_eq!(f.goto(0, 2, ex(8, 0), 0b0000_1111), Ok(Next::At(1)));
        assert_eq!(f.em, 0xf0);
        f.arrive(1);
        assert_eq!(f.em, 0xf0);
        f.arrive(2);
        assert_eq!(f.em, 0xff);
        assert!(!f.diverged());
    }

    #[test]
    fn all_taken_forward_goto_resumes_at_the_next_waiting_point() {
        // 0: (P) goto L1 (half)  1: goto L2 (rest)  2: L1  3: L2
        let mut f = SimdFlow::new(5, 0xff);
        assert_eq!(f.goto(0, 2, ex(8, 0), 0x0f), Ok(Next::At(1)));
        // Uniform goto of the remaining channels: nothing stays active, execution
        // resumes at L1 where the first half waits, before L2.
        assert_eq!(f.goto(1, 3, ex(1, 0), 1), Ok(Next::At(2)));
        assert_eq!(f.em, 0);
        f.arrive(2);
        assert_eq!(f.em, 0x0f);
        f.arrive(3);
        assert_eq!(f.em, 0xff);
    }

    #[test]
    fn backward_goto_loops_the_predicated_channels() {
        // 0: LOOP: ...  1: (P) goto (M1, 8) LOOP  2: after
        let mut f = SimdFlow::new(3, 0xff);
        // Channels 0..3 loop again; 4..7 wait after the goto.
        assert_eq!(f.goto(1, 0, ex(8, 0), 0x0f), Ok(Next::At(0)));
        assert_eq!(f.em, 0x0f);
        // Next iteration: channel 0 loops.
        assert_eq!(f.goto(1, 0, ex(8, 0), 0x01), Ok(Next::At(0)));
        assert_eq!(f.em, 0x01);
        // Last iteration: nobody loops; execution goes on and everyone rejoins.
        assert_eq!(f.goto(1, 0, ex(8, 0), 0), Ok(Next::At(2)));
        f.arrive(2);
        assert_eq!(f.em, 0xff);
    }

    #[test]
    fn ret_retires_channels_and_ends_the_thread() {
        let mut f = SimdFlow::new(4, 0xff);
        assert_eq!(f.goto(0, 3, ex(8, 0), 0xf0), Ok(Next::At(1)));
        // SIMD ret of the active half: the others wait at 3.
        assert_eq!(f.ret(1, ex(8, 0), 0xff), Ok(Next::At(3)));
        f.arrive(3);
        assert_eq!(f.em, 0xf0);
        assert_eq!(f.ret(3, ex(8, 0), 0xff), Ok(Next::Done));
        // Scalar ret ends the thread at once.
        let mut f = SimdFlow::new(2, 0xff);
        assert_eq!(f.ret(0, ex(1, 0), 0), Ok(Next::At(1)));
        assert_eq!(f.ret(0, ex(1, 0), 1), Ok(Next::Done));
    }

    #[test]
    fn unreachable_waiting_channels_and_jumps_over_them_are_errors() {
        let mut f = SimdFlow::new(4, 0xff);
        // Channels wait at 1 (after a backward goto at 0), then everyone else leaves
        // backward... a forward goto from 2 to 3 leaves nothing active after 2: the
        // channels at 1 are stranded.
        assert_eq!(f.goto(0, 0, ex(8, 0), 0x0f), Ok(Next::At(0)));
        assert_eq!(
            f.goto(2, 3, ex(8, 0), 0xff),
            Ok(Next::At(3)),
            "the channels taken wait at 3, which comes next"
        );
        let mut f = SimdFlow::new(4, 0xff);
        assert_eq!(f.goto(0, 0, ex(8, 0), 0x0f), Ok(Next::At(0)));
        assert_eq!(
            f.ret(2, ex(8, 0), 0xff),
            Err(FlowError::Stranded {
                at: 1,
                channels: 0xf0
            })
        );
        let mut f = SimdFlow::new(4, 0xff);
        assert_eq!(f.goto(0, 2, ex(8, 0), 0x01), Ok(Next::At(1)));
        assert_eq!(f.jmp(1, 3, 1), Err(FlowError::JumpOverWaiting { at: 2 }));
        assert_eq!(f.jmp(1, 2, 1), Ok(Next::At(2)));
        assert_eq!(f.jmp(1, 3, 0), Ok(Next::At(2)));
    }
}
