//! A vISA listing made executable: names resolved to register-file bytes, every
//! operand's region expanded to the byte offset of each channel, labels resolved to
//! instruction indices, and the static rules of the vISA spec checked once, with the
//! line of the offending instruction.
//!
//! Regions follow `5_operands.md`: a source `V(R, C)<VS; W, HS>` at execution size `N`
//! reads, for channel `n = i·W + j`, element `R·(GRF/size) + C + i·VS + j·HS` of `V`; a
//! destination `V(R, C)<HS>` writes element `R·(GRF/size) + C + n·HS`. At execution
//! size 1 a source is a scalar (its region is ignored). An element outside the variable
//! is an error (the spec leaves it undefined), as are a width above the execution size
//! and a zero width or destination stride at execution size > 1. A column offset past
//! the end of its register is taken as the linear element index, as IGC's finalizer
//! does.

use super::error::{ErrorKind, VisaError};
use super::listing::{AluInst, AluOp, BranchOp, Dst, InstKind, Listing, Src, StateOr, Stmt};
use super::payload::{resolve_lsc, resolve_sampler, XMessage};
use super::payload_dataport::resolve_dataport;
use super::regfile::{Layout, StateKind, VarRef};
use super::types::{CondMod, ExecCtrl, PredCombine, SrcMod, TypeClass, VType};
use std::collections::HashMap;

/// A predicate use, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XPred {
    /// The predicate (index into the layout's predicates).
    pub id: usize,
    /// `!`.
    pub invert: bool,
    /// `.any` / `.all`.
    pub combine: PredCombine,
}

/// A source operand, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum XSrc {
    /// Register elements: the byte offset of each channel's element.
    Reg {
        /// The element type.
        ty: VType,
        /// The source modifier.
        modifier: SrcMod,
        /// Byte offset per channel (one entry at execution size 1).
        offs: Box<[u32]>,
    },
    /// An immediate: the bits of each channel (one entry when it is the same for all).
    Imm {
        /// The element type (`w`, `uw`, `f` for packed vectors).
        ty: VType,
        /// Bits per channel.
        lanes: Box<[u64]>,
    },
    /// A predicate variable.
    Pred(usize),
}

impl XSrc {
    /// The element type (`bool` for predicates).
    pub fn ty(&self) -> VType {
        match self {
            XSrc::Reg { ty, .. } | XSrc::Imm { ty, .. } => *ty,
            XSrc::Pred(_) => VType::Bool,
        }
    }
}

/// A destination operand, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum XDst {
    /// Register elements: the byte offset of each channel's element.
    Reg {
        /// The element type.
        ty: VType,
        /// Byte offset per channel.
        offs: Box<[u32]>,
    },
    /// `%null`: the results are dropped.
    Null(VType),
    /// A predicate variable.
    Pred(usize),
}

impl XDst {
    /// The element type (`bool` for predicates).
    pub fn ty(&self) -> VType {
        match self {
            XDst::Reg { ty, .. } | XDst::Null(ty) => *ty,
            XDst::Pred(_) => VType::Bool,
        }
    }
}

/// How an ALU instruction computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// On integers, exactly (sources sign- or zero-extended, the result truncated or
    /// saturated to the destination).
    Int,
    /// On floats of the execution type (`hf`, `f` or `df`).
    Float(VType),
    /// `mov`: a type conversion.
    Move,
    /// Logic on predicate operands.
    Pred,
}

/// An ALU instruction, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct XAlu {
    /// The opcode.
    pub op: AluOp,
    /// `cmp`'s relation.
    pub cond: Option<CondMod>,
    /// The predicate.
    pub pred: Option<XPred>,
    /// `.sat`.
    pub sat: bool,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The destination.
    pub dst: XDst,
    /// The carry/borrow destination of `addc`/`subb`.
    pub dst2: Option<XDst>,
    /// The sources.
    pub srcs: Vec<XSrc>,
    /// How it computes.
    pub domain: Domain,
}

/// An executable instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum XInst {
    /// An ALU instruction.
    Alu(Box<XAlu>),
    /// `addr_add` (`super::indirect`).
    AddrAdd(Box<XAddrAdd>),
    /// `mov` from an indirect `r[A(sub),imm]<1,0>` source (`super::indirect`).
    MovIndirect(Box<XMovIndirect>),
    /// `setp`.
    Setp {
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The predicate written.
        dst: usize,
        /// The source.
        src: XSrc,
        /// Whether the source is a scalar (its bits spread over the channels).
        scalar: bool,
    },
    /// `movs`: surface or sampler indices to or from state variables.
    Movs {
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The destination: state words from the first, or a general operand.
        dst: XState<XDst>,
        /// The source: state words from the first, or a general operand or immediate.
        src: XState<XSrc>,
    },
    /// `goto` (SIMD control flow).
    Goto {
        /// The predicate.
        pred: Option<XPred>,
        /// Execution size and mask.
        exec: ExecCtrl,
        /// Index of the instruction at the label.
        target: usize,
    },
    /// `jmp` (uniform).
    Jmp {
        /// The predicate.
        pred: Option<XPred>,
        /// Execution size and mask.
        exec: ExecCtrl,
        /// Index of the instruction at the label.
        target: usize,
    },
    /// `ret`.
    Ret {
        /// The predicate.
        pred: Option<XPred>,
        /// Execution size and mask.
        exec: ExecCtrl,
    },
    /// A message instruction (LSC, sampler, legacy data port), run by a message port.
    Message {
        /// The predicate.
        pred: Option<XPred>,
        /// Execution size and mask.
        exec: ExecCtrl,
        /// The message and its operands.
        msg: Box<XMessage>,
    },
    /// `fence_*` and `lsc_fence`: the interpreter's memory is sequentially consistent,
    /// so a fence orders nothing further.
    Fence,
    /// `barrier`.
    Barrier,
    /// `lifetime.start` / `lifetime.end` of a variable: its value is dead, so its bytes
    /// (or predicate bits) are refilled with the uninitialised pattern, which exposes a
    /// kernel that still reads it.
    Lifetime(Dead),
}

/// `addr_add`, resolved (run by `super::indirect`).
#[derive(Clone, Debug, PartialEq)]
pub struct XAddrAdd {
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// Index of the address word of channel 0 (two words per element).
    pub words: u32,
    /// The byte address of the variable taken.
    pub base: u32,
    /// The byte just past that variable.
    pub end: u32,
    /// The byte offsets.
    pub src: XSrc,
}

/// `mov` from an indirect source, resolved (run by `super::indirect`).
#[derive(Clone, Debug, PartialEq)]
pub struct XMovIndirect {
    /// The predicate.
    pub pred: Option<XPred>,
    /// Execution size and mask.
    pub exec: ExecCtrl,
    /// The destination.
    pub dst: XDst,
    /// Index of the address word of channel 0.
    pub words: u32,
    /// Bytes added to every address.
    pub imm: u32,
    /// Bytes read per channel.
    pub size: u32,
}

/// What a lifetime marker kills.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dead {
    /// Register-file bytes `start .. start + size`.
    Bytes {
        /// First byte.
        start: u32,
        /// Bytes.
        size: u32,
    },
    /// A predicate.
    Pred(usize),
    /// Nothing the interpreter holds (an address variable).
    Nothing,
}

/// A `movs` operand: the index of a state variable's first element used (into the
/// register state's surface and sampler words), or a general operand.
#[derive(Clone, Debug, PartialEq)]
pub enum XState<T> {
    /// State words from this one.
    Words(u32),
    /// A general operand.
    General(T),
}

/// A kernel ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    /// The kernel's name.
    pub kernel: String,
    /// `.kernel_attr SimdSize`, if given.
    pub simd: Option<u32>,
    /// `.kernel_attr SpillMemOffset` (0 without it): the bytes at the start of each
    /// thread's scratch space the kernel's own scratch messages address (the
    /// finalizer spills above them), which the interpreter gives each thread
    /// ([`super::scratch`]).
    pub scratch_bytes: u32,
    /// The register file.
    pub layout: Layout,
    /// The instructions.
    pub insts: Vec<XInst>,
    /// The vISA line of each instruction.
    pub lines: Vec<u32>,
    /// Each label's instruction index.
    pub labels: HashMap<String, usize>,
}

fn err(line: u32, kind: ErrorKind) -> VisaError {
    VisaError::new(line, kind)
}

fn bad(line: u32, reason: String) -> VisaError {
    err(line, ErrorKind::BadInstruction { reason })
}

/// The value of element `i` (0..8) of a packed `v` (signed nibbles, as `w`) or `uv`
/// (unsigned nibbles, as `uw`) immediate, and element `i` (0..4) of a `vf` immediate
/// (restricted 8-bit floats: sign, 3-bit exponent biased by 3, 4-bit mantissa with an
/// implied one even at exponent 0; `0x00` and `0x80` are the zeros; as decoded by IGC's
/// `visa/iga/IGALibrary/Frontend/Floats.cpp`), as `f` bits.
pub fn packed_element(bits: u64, ty: VType, i: u32) -> u64 {
    match ty {
        VType::V => {
            let nib = ((bits >> (4 * i)) & 0xf) as i16;
            (((nib << 12) >> 12) as u16) as u64
        }
        VType::Uv => (bits >> (4 * i)) & 0xf,
        _ => {
            let q = ((bits >> (8 * i)) & 0xff) as u32;
            let f = match q {
                0x00 => 0.0f32,
                0x80 => -0.0,
                _ => {
                    let mag =
                        2f32.powi(((q >> 4) & 7) as i32 - 3) * (1.0 + (q & 0xf) as f32 / 16.0);
                    if q & 0x80 != 0 {
                        -mag
                    } else {
                        mag
                    }
                }
            };
            u64::from(f.to_bits())
        }
    }
}

impl Program {
    /// Resolves `listing` on registers of `grf` bytes (32 or 64), with at most
    /// `max_register_bytes` of variables.
    pub fn new(listing: &Listing, grf: u32, max_register_bytes: u64) -> Result<Program, VisaError> {
        if grf != 32 && grf != 64 {
            return Err(bad(0, format!("registers are 32 or 64 bytes, not {grf}")));
        }
        let layout = Layout::new(listing, grf, max_register_bytes)?;
        let mut labels: HashMap<String, (usize, u32)> = HashMap::new();
        let mut n = 0usize;
        for s in &listing.body {
            match s {
                Stmt::Label { name, line } => {
                    if let Some((_, first)) = labels.get(name) {
                        return Err(err(
                            *line,
                            ErrorKind::DuplicateLabel {
                                name: name.clone(),
                                first_line: *first,
                            },
                        ));
                    }
                    labels.insert(name.clone(), (n, *line));
                }
                Stmt::Inst(_) => n += 1,
            }
        }
        let simd = match listing.int_attr("SimdSize") {
            None => None,
            Some(s @ (1 | 8 | 16 | 32)) => Some(s as u32),
            Some(s) => {
                let line = listing
                    .attrs
                    .iter()
                    .find(|a| a.name == "SimdSize")
                    .map_or(0, |a| a.line);
                return Err(bad(line, format!("SimdSize is 1, 8, 16 or 32, not {s}")));
            }
        };
        let scratch_bytes = match listing.int_attr("SpillMemOffset") {
            None => 0,
            Some(n) => u32::try_from(n)
                .ok()
                .filter(|&n| n <= super::scratch::MAX_THREAD_SCRATCH)
                .ok_or_else(|| {
                    let line = listing
                        .attrs
                        .iter()
                        .find(|a| a.name == "SpillMemOffset")
                        .map_or(0, |a| a.line);
                    bad(
                        line,
                        format!(
                            "SpillMemOffset is a byte count from 0 to {}, not {n}",
                            super::scratch::MAX_THREAD_SCRATCH
                        ),
                    )
                })?,
        };
        let mut p = Program {
            kernel: listing.kernel.clone(),
            simd,
            scratch_bytes,
            layout,
            insts: Vec::with_capacity(n),
            lines: Vec::with_capacity(n),
            labels: labels.into_iter().map(|(k, (i, _))| (k, i)).collect(),
        };
        for s in &listing.body {
            if let Stmt::Inst(inst) = s {
                let x = p.compile(&inst.kind, inst.line)?;
                p.insts.push(x);
                p.lines.push(inst.line);
            }
        }
        Ok(p)
    }

    fn target(&self, label: &str, line: u32) -> Result<usize, VisaError> {
        self.labels.get(label).copied().ok_or_else(|| {
            err(
                line,
                ErrorKind::UnknownLabel {
                    name: label.to_string(),
                },
            )
        })
    }

    fn compile(&self, kind: &InstKind, line: u32) -> Result<XInst, VisaError> {
        Ok(match kind {
            InstKind::Alu(a) => XInst::Alu(Box::new(self.alu(a, line)?)),
            InstKind::AddrAdd { .. } => XInst::AddrAdd(Box::new(self.addr_add(kind, line)?)),
            InstKind::MovIndirect { .. } => {
                XInst::MovIndirect(Box::new(self.mov_indirect(kind, line)?))
            }
            InstKind::Setp { exec, dst, src } => {
                self.check_exec(*exec, line)?;
                let id = self.layout.pred_var(dst, line)?;
                self.check_pred_range(id, *exec, line)?;
                let scalar = match src {
                    Src::Imm { .. } => true,
                    Src::General {
                        vstride: 0,
                        width: 1,
                        hstride: 0,
                        ..
                    } => true,
                    _ => *exec == ExecCtrl::m1(1),
                };
                let x = self.src(src, *exec, line, scalar)?;
                if !matches!(x.ty(), VType::Ub | VType::Uw | VType::Ud) {
                    return Err(err(
                        line,
                        ErrorKind::BadType {
                            op: "setp",
                            operand: "the source",
                            ty: x.ty(),
                            rule: "it must be ub, uw or ud",
                        },
                    ));
                }
                XInst::Setp {
                    exec: *exec,
                    dst: id,
                    src: x,
                    scalar,
                }
            }
            InstKind::Movs { exec, dst, src } => {
                self.check_exec(*exec, line)?;
                let mut class = None;
                let dst = match dst {
                    StateOr::State { var, offset } => {
                        let (w, k) = self.state_words(var, *offset, *exec, line)?;
                        class = Some(k);
                        XState::Words(w)
                    }
                    StateOr::General(d) => XState::General(self.dst(d, *exec, line)?),
                };
                let src = match src {
                    StateOr::State { var, offset } => {
                        let (w, k) = self.state_words(var, *offset, *exec, line)?;
                        if class.is_some_and(|c| c != k) {
                            return Err(bad(
                                line,
                                "`movs` between state variables of different kinds (surface, sampler)"
                                    .into(),
                            ));
                        }
                        XState::Words(w)
                    }
                    StateOr::General(s) => {
                        if class.is_none() {
                            return Err(bad(line, "`movs` needs a state variable operand".into()));
                        }
                        XState::General(self.src(s, *exec, line, false)?)
                    }
                };
                let general_ty = match (&dst, &src) {
                    (XState::General(d), _) => Some(d.ty()),
                    (_, XState::General(s)) => Some(s.ty()),
                    _ => None,
                };
                if let Some(ty) = general_ty.filter(|t| !matches!(t, VType::Ud | VType::D)) {
                    return Err(err(
                        line,
                        ErrorKind::BadType {
                            op: "movs",
                            operand: "the general operand",
                            ty,
                            rule: "it must be ud",
                        },
                    ));
                }
                XInst::Movs {
                    exec: *exec,
                    dst,
                    src,
                }
            }
            InstKind::Branch {
                op,
                pred,
                exec,
                label,
            } => {
                self.check_exec(*exec, line)?;
                let pred = self.pred_use(pred.as_ref(), *exec, line)?;
                let target = self.target(label, line)?;
                if exec.no_mask && exec.size > 1 && *op == BranchOp::Goto {
                    // Channels a NoMask goto would park are not in the execution mask:
                    // the spec gives such a goto no meaning.
                    return Err(err(
                        line,
                        ErrorKind::Unsupported {
                            what: "a SIMD `goto` with NoMask".into(),
                        },
                    ));
                }
                match op {
                    BranchOp::Goto => XInst::Goto {
                        pred,
                        exec: *exec,
                        target,
                    },
                    BranchOp::Jmp => {
                        if exec.size != 1 {
                            return Err(err(
                                line,
                                ErrorKind::Unsupported {
                                    what: "`jmp` with an execution size above 1".into(),
                                },
                            ));
                        }
                        XInst::Jmp {
                            pred,
                            exec: *exec,
                            target,
                        }
                    }
                }
            }
            InstKind::Ret { pred, exec } => {
                self.check_exec(*exec, line)?;
                XInst::Ret {
                    pred: self.pred_use(pred.as_ref(), *exec, line)?,
                    exec: *exec,
                }
            }
            InstKind::Barrier => XInst::Barrier,
            InstKind::Lifetime { var, .. } => {
                XInst::Lifetime(match self.layout.lookup(var, line)? {
                    VarRef::General(i) => {
                        let v = &self.layout.general[i];
                        Dead::Bytes {
                            start: v.start,
                            size: v.size,
                        }
                    }
                    VarRef::Pred(i) => Dead::Pred(i),
                    VarRef::State(i) if self.layout.states[i].kind == StateKind::Address => {
                        Dead::Nothing
                    }
                    _ => {
                        return Err(err(
                            line,
                            ErrorKind::WrongVariableKind {
                                name: var.clone(),
                                expected: "a general, address or predicate variable",
                            },
                        ))
                    }
                })
            }
            InstKind::Fence { .. } | InstKind::LscFence { .. } => XInst::Fence,
            InstKind::Lsc(l) => {
                self.check_exec(l.exec, line)?;
                XInst::Message {
                    pred: self.pred_use(l.pred.as_ref(), l.exec, line)?,
                    exec: l.exec,
                    msg: Box::new(XMessage::Lsc(resolve_lsc(&self.layout, l, line)?)),
                }
            }
            InstKind::SamplerLoad(sl) => {
                self.check_exec(sl.exec, line)?;
                XInst::Message {
                    pred: self.pred_use(sl.pred.as_ref(), sl.exec, line)?,
                    exec: sl.exec,
                    msg: Box::new(XMessage::Sampler(resolve_sampler(&self.layout, sl, line)?)),
                }
            }
            InstKind::Dataport(d) => {
                self.check_exec(d.exec, line)?;
                XInst::Message {
                    pred: self.pred_use(d.pred.as_ref(), d.exec, line)?,
                    exec: d.exec,
                    msg: Box::new(XMessage::Dataport(resolve_dataport(&self.layout, d, line)?)),
                }
            }
        })
    }

    /// The first state word of elements `offset .. offset + exec.size` of the surface or
    /// sampler `var`, and its kind.
    fn state_words(
        &self,
        var: &str,
        offset: u32,
        exec: ExecCtrl,
        line: u32,
    ) -> Result<(u32, StateKind), VisaError> {
        let wrong = || {
            err(
                line,
                ErrorKind::WrongVariableKind {
                    name: var.to_string(),
                    expected: "a surface or sampler",
                },
            )
        };
        let VarRef::State(i) = self.layout.lookup(var, line)? else {
            return Err(wrong());
        };
        let st = &self.layout.states[i];
        if st.kind == StateKind::Address {
            return Err(wrong());
        }
        if offset + u32::from(exec.size) > st.num_elts {
            return Err(err(
                line,
                ErrorKind::OutOfBounds {
                    var: var.to_string(),
                    byte: 4 * (offset + u32::from(exec.size)),
                    size: 4 * st.num_elts,
                },
            ));
        }
        Ok((st.first + offset, st.kind))
    }

    /// Checks the execution size and mask control: the offset is a multiple of the size
    /// (for sizes of 4 and more) and the channels fit in 32.
    pub fn check_exec(&self, exec: ExecCtrl, line: u32) -> Result<(), VisaError> {
        let size = u32::from(exec.size);
        let off = u32::from(exec.offset);
        if off + size > 32 || (size >= 4 && off % size != 0) {
            return Err(bad(
                line,
                format!(
                    "the mask control {} is not aligned to the execution size {size}, or passes channel 31",
                    exec.mask_name()
                ),
            ));
        }
        Ok(())
    }

    fn check_pred_range(&self, id: usize, exec: ExecCtrl, line: u32) -> Result<(), VisaError> {
        let p = &self.layout.preds[id];
        let last = u32::from(exec.offset) + u32::from(exec.size);
        if last > p.bits {
            return Err(bad(
                line,
                format!(
                    "`{}` has {} elements, but {} uses elements {}..{last}",
                    p.name, p.bits, exec, exec.offset
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn pred_use(
        &self,
        pred: Option<&super::listing::PredUse>,
        exec: ExecCtrl,
        line: u32,
    ) -> Result<Option<XPred>, VisaError> {
        let Some(p) = pred else { return Ok(None) };
        let id = self.layout.pred_var(&p.name, line)?;
        self.check_pred_range(id, exec, line)?;
        Ok(Some(XPred {
            id,
            invert: p.invert,
            combine: p.combine,
        }))
    }

    /// Byte offsets of a general operand's elements, checked against the variable.
    #[allow(clippy::too_many_arguments)]
    fn offsets(
        &self,
        name: &str,
        row: u32,
        col: u32,
        count: usize,
        elem: impl Fn(u32) -> u32,
        line: u32,
    ) -> Result<(VType, Box<[u32]>), VisaError> {
        let v = self.layout.general_var(name, line)?;
        let size = v.ty.size();
        // The spec says a column offset may not cross the register, but IGC's
        // finalizer takes one that does as the linear element index
        // `row * GRF / size + col`, which is what is computed here.
        let first = u64::from(row) * u64::from(self.layout.grf) + u64::from(col) * u64::from(size);
        let mut offs = Vec::with_capacity(count);
        for n in 0..count as u32 {
            let b = first + u64::from(elem(n)) * u64::from(size);
            if b + u64::from(size) > u64::from(v.size) {
                return Err(err(
                    line,
                    ErrorKind::OutOfBounds {
                        var: name.to_string(),
                        byte: b.min(u64::from(u32::MAX)) as u32,
                        size: v.size,
                    },
                ));
            }
            offs.push(v.start + b as u32);
        }
        Ok((v.ty, offs.into_boxed_slice()))
    }

    pub(super) fn dst(&self, d: &Dst, exec: ExecCtrl, line: u32) -> Result<XDst, VisaError> {
        match d {
            Dst::Pred(name) => {
                let id = self.layout.pred_var(name, line)?;
                self.check_pred_range(id, exec, line)?;
                Ok(XDst::Pred(id))
            }
            Dst::General { var, .. } if var == "%null" => Ok(XDst::Null(VType::Ud)),
            Dst::General {
                var,
                row,
                col,
                hstride,
            } => {
                if *hstride == 0 && exec.size > 1 {
                    return Err(bad(
                        line,
                        "a destination's horizontal stride must not be 0".into(),
                    ));
                }
                let hs = *hstride;
                let (ty, offs) =
                    self.offsets(var, *row, *col, exec.size.into(), |n| n * hs, line)?;
                Ok(XDst::Reg { ty, offs })
            }
        }
    }

    pub(super) fn src(
        &self,
        s: &Src,
        exec: ExecCtrl,
        line: u32,
        scalar: bool,
    ) -> Result<XSrc, VisaError> {
        match s {
            Src::Pred(name) => Ok(XSrc::Pred(self.layout.pred_var(name, line)?)),
            Src::Imm { bits, ty } => {
                let lanes: Box<[u64]> = match ty {
                    VType::V | VType::Uv | VType::Vf => {
                        let n = if *ty == VType::Vf { 4 } else { 8 };
                        if u32::from(exec.size) > n && !scalar {
                            return Err(bad(
                                line,
                                format!(
                                    "a `{ty}` immediate has {n} elements, fewer than the execution size {}",
                                    exec.size
                                ),
                            ));
                        }
                        (0..u32::from(exec.size).min(n))
                            .map(|i| packed_element(*bits, *ty, i))
                            .collect()
                    }
                    _ => Box::new([*bits]),
                };
                let ty = match ty {
                    VType::V => VType::W,
                    VType::Uv => VType::Uw,
                    VType::Vf => VType::F,
                    t => *t,
                };
                Ok(XSrc::Imm { ty, lanes })
            }
            Src::General {
                modifier,
                var,
                row,
                col,
                vstride,
                width,
                hstride,
            } => {
                if var == "%null" {
                    return Err(bad(line, "`%null` is not a source".into()));
                }
                let (ty, offs) = if exec.size == 1 || scalar {
                    self.offsets(var, *row, *col, 1, |_| 0, line)?
                } else {
                    let (vs, w, hs) = (*vstride, *width, *hstride);
                    if w == 0 || u32::from(exec.size) < w {
                        return Err(bad(
                            line,
                            format!(
                                "the region width {w} must be 1 to the execution size {}",
                                exec.size
                            ),
                        ));
                    }
                    self.offsets(
                        var,
                        *row,
                        *col,
                        exec.size.into(),
                        |n| (n / w) * vs + (n % w) * hs,
                        line,
                    )?
                };
                Ok(XSrc::Reg {
                    ty,
                    modifier: *modifier,
                    offs,
                })
            }
        }
    }

    fn alu(&self, a: &AluInst, line: u32) -> Result<XAlu, VisaError> {
        self.check_exec(a.exec, line)?;
        let op = a.op;
        let name = op.name();
        let pred = self.pred_use(a.pred.as_ref(), a.exec, line)?;
        let dst = self.dst(&a.dst, a.exec, line)?;
        let dst2 = match &a.dst2 {
            Some(d) => Some(self.dst(d, a.exec, line)?),
            None => None,
        };
        let srcs = a
            .srcs
            .iter()
            .map(|s| self.src(s, a.exec, line, false))
            .collect::<Result<Vec<_>, _>>()?;
        let bad_type = |operand: &'static str, ty: VType, rule: &'static str| {
            err(
                line,
                ErrorKind::BadType {
                    op: name,
                    operand,
                    ty,
                    rule,
                },
            )
        };
        let logic_op = matches!(op, AluOp::And | AluOp::Or | AluOp::Xor | AluOp::Not);
        if !logic_op
            && srcs.iter().any(|s| {
                matches!(
                    s,
                    XSrc::Reg {
                        modifier: SrcMod::Not,
                        ..
                    }
                )
            })
        {
            return Err(bad(
                line,
                format!("`{name}` takes no `(~)` modifier (only and, or, xor and not do)"),
            ));
        }
        let pred_srcs = srcs.iter().filter(|s| matches!(s, XSrc::Pred(_))).count();
        let domain = if op == AluOp::Mov {
            if pred_srcs == 1 {
                // `mov (1) V P`: the predicate's bits as an unsigned integer.
                let XSrc::Pred(p) = &srcs[0] else {
                    unreachable!()
                };
                let bits = self.layout.preds[*p].bits;
                if a.exec.size != 1 || a.pred.is_some() || a.sat {
                    return Err(bad(
                        line,
                        "`mov` from a predicate has execution size 1, no predicate and no saturation".into(),
                    ));
                }
                if !matches!(dst.ty(), VType::Ub | VType::Uw | VType::Ud) || dst.ty().bits() < bits
                {
                    return Err(bad_type(
                        "the destination",
                        dst.ty(),
                        "a predicate moves to ub, uw or ud at least as wide as the predicate",
                    ));
                }
            } else if !srcs[0].ty().is_storage() && srcs[0].ty() != VType::Bool {
                return Err(bad_type(
                    "the source",
                    srcs[0].ty(),
                    "it must be an integer or float type",
                ));
            }
            if matches!(dst, XDst::Pred(_)) {
                return Err(bad(line, "`mov` writes a general operand".into()));
            }
            Domain::Move
        } else if pred_srcs > 0 || matches!(dst, XDst::Pred(_)) && op != AluOp::Cmp {
            let logic = matches!(op, AluOp::And | AluOp::Or | AluOp::Xor | AluOp::Not);
            if !logic || pred_srcs != srcs.len() || !matches!(dst, XDst::Pred(_)) {
                return Err(bad(
                    line,
                    format!("`{name}` on predicates needs predicates for every operand"),
                ));
            }
            if a.pred.is_some() || a.sat {
                return Err(bad(
                    line,
                    "predicate logic takes no predicate and no saturation".into(),
                ));
            }
            Domain::Pred
        } else {
            let classes: Vec<TypeClass> = srcs.iter().map(|s| s.ty().class()).collect();
            let float = classes.contains(&TypeClass::Float);
            if float && classes.contains(&TypeClass::Int) {
                return Err(bad_type(
                    "a source",
                    srcs[0].ty(),
                    "the sources may not mix integer and float types",
                ));
            }
            let int_only = matches!(
                op,
                AluOp::Shl
                    | AluOp::Shr
                    | AluOp::Asr
                    | AluOp::Rol
                    | AluOp::Ror
                    | AluOp::And
                    | AluOp::Or
                    | AluOp::Xor
                    | AluOp::Not
                    | AluOp::Bfn(_)
                    | AluOp::Bfe
                    | AluOp::Bfi
                    | AluOp::Bfrev
                    | AluOp::Cbit
                    | AluOp::Fbl
                    | AluOp::Fbh
                    | AluOp::Lzd
                    | AluOp::Addc
                    | AluOp::Subb
                    | AluOp::Mulh
                    | AluOp::Avg
                    | AluOp::Add3
                    | AluOp::Mod
            );
            let float_only = matches!(
                op,
                AluOp::Inv
                    | AluOp::Sqrt
                    | AluOp::Sqrtm
                    | AluOp::Rsqrt
                    | AluOp::Exp
                    | AluOp::Log
                    | AluOp::Sin
                    | AluOp::Cos
                    | AluOp::Pow
                    | AluOp::Rnde
                    | AluOp::Rndd
                    | AluOp::Rndu
                    | AluOp::Rndz
                    | AluOp::Frc
                    | AluOp::Divm
            );
            if int_only && float {
                return Err(bad_type(
                    "a source",
                    srcs[0].ty(),
                    "the instruction takes integer types",
                ));
            }
            if float_only && !float {
                return Err(bad_type(
                    "a source",
                    srcs[0].ty(),
                    "the instruction takes float types",
                ));
            }
            let dst_ty = dst.ty();
            if op != AluOp::Cmp {
                let ok = if float {
                    dst_ty.is_float()
                } else {
                    dst_ty.is_int()
                };
                if !ok {
                    return Err(bad_type(
                        "the destination",
                        dst_ty,
                        if float {
                            "a float execution type needs a float destination of its type"
                        } else {
                            "an integer execution type needs an integer destination"
                        },
                    ));
                }
            }
            if let Some(d2) = &dst2 {
                if !d2.ty().is_int() {
                    return Err(bad_type(
                        "the carry/borrow destination",
                        d2.ty(),
                        "it must be an integer type",
                    ));
                }
            }
            if float {
                // The execution type: the widest float of the sources and (for all but
                // cmp) the destination.
                let mut tys: Vec<VType> = srcs.iter().map(XSrc::ty).collect();
                if op != AluOp::Cmp {
                    tys.push(dst_ty);
                }
                let ex = if tys.contains(&VType::Df) {
                    VType::Df
                } else if tys.iter().any(|t| matches!(t, VType::F | VType::Bf)) {
                    VType::F
                } else {
                    VType::Hf
                };
                Domain::Float(ex)
            } else {
                Domain::Int
            }
        };
        if op == AluOp::Cmp && a.sat {
            return Err(bad(line, "`cmp` takes no saturation".into()));
        }
        Ok(XAlu {
            op,
            cond: a.cond,
            pred,
            sat: a.sat,
            exec: a.exec,
            dst,
            dst2,
            srcs,
            domain,
        })
    }

    /// The register-file start of the general variable `name`.
    pub fn var_start(&self, name: &str) -> Option<u32> {
        self.layout.start_of(name)
    }

    /// What `name` is.
    pub fn var(&self, name: &str, line: u32) -> Result<VarRef, VisaError> {
        self.layout.lookup(name, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visa::reader::read;

    fn program(body: &str, grf: u32) -> Result<Program, VisaError> {
        let text = format!(
            ".version 4.1\n.kernel k\n\
             .decl A v_type=G type=d num_elts=32\n\
             .decl B v_type=G type=d num_elts=32\n\
             .decl H v_type=G type=uw num_elts=32 alias=<A, 0>\n\
             .decl F v_type=G type=f num_elts=32\n\
             .decl P1 v_type=P num_elts=16\n\
             {body}\nret (M1, 1)\n"
        );
        Program::new(&read(&text).unwrap(), grf, 1 << 20)
    }

    fn first_alu(p: &Program) -> &XAlu {
        match &p.insts[0] {
            XInst::Alu(a) => a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn region_offsets_follow_the_spec_pseudo_code() {
        // 5_operands.md: channel n = i*W + j reads element R*(GRF/size) + C + i*VS + j*HS.
        let p = program("mov (M1, 8) B(0,0)<2> A(1,1)<4;2,1>", 32).unwrap();
        let a = first_alu(&p);
        let a_start = p.var_start("A").unwrap();
        let b_start = p.var_start("B").unwrap();
        let XSrc::Reg { offs, .. } = &a.srcs[0] else {
            panic!()
        };
        // Row 1 of a 32-byte register file is element 8; column 1: element 9.
        let elems: Vec<u32> = offs.iter().map(|o| (o - a_start) / 4).collect();
        assert_eq!(elems, [9, 10, 13, 14, 17, 18, 21, 22]);
        let XDst::Reg { offs, .. } = &a.dst else {
            panic!()
        };
        let elems: Vec<u32> = offs.iter().map(|o| (o - b_start) / 4).collect();
        assert_eq!(elems, [0, 2, 4, 6, 8, 10, 12, 14]);
        // With 64-byte registers, row 1 is element 16.
        let p = program("mov (M1, 1) B(0,0)<1> A(1,0)<0;1,0>", 64).unwrap();
        let XSrc::Reg { offs, .. } = &first_alu(&p).srcs[0] else {
            panic!()
        };
        assert_eq!((offs[0] - p.var_start("A").unwrap()) / 4, 16);
        // An alias of another type indexes in its own elements: H(0,3) is byte 6 of A.
        let p = program("mov (M1, 1) B(0,0)<1> H(0,3)<0;1,0>", 32).unwrap();
        let XSrc::Reg { offs, ty, .. } = &first_alu(&p).srcs[0] else {
            panic!()
        };
        assert_eq!((*ty, offs[0] - p.var_start("A").unwrap()), (VType::Uw, 6));
    }

    #[test]
    fn static_rules() {
        let kind = |body: &str| program(body, 32).unwrap_err().kind;
        // A (32 dwords = 128 bytes): 16 channels from element 24 read past its end.
        assert!(matches!(
            kind("mov (M1, 16) B(0,0)<1> A(3,0)<1;1,0>"),
            ErrorKind::OutOfBounds {
                byte: 128,
                size: 128,
                ..
            }
        ));
        // A column past the register is the linear element (as IGC's finalizer takes it).
        let p = program("mov (M1, 1) B(0,0)<1> A(0,9)<0;1,0>", 32).unwrap();
        let XSrc::Reg { offs, .. } = &first_alu(&p).srcs[0] else {
            panic!()
        };
        assert_eq!((offs[0] - p.var_start("A").unwrap()) / 4, 9);
        assert!(matches!(
            kind("mov (M1, 4) B(0,0)<1> A(0,0)<8;8,1>"),
            ErrorKind::BadInstruction { .. }
        ));
        assert!(matches!(
            kind("mov (M1, 4) B(0,0)<0> A(0,0)<1;1,0>"),
            ErrorKind::BadInstruction { .. }
        ));
        assert!(matches!(
            kind("mov (M2, 8) B(0,0)<1> A(0,0)<1;1,0>"),
            ErrorKind::BadInstruction { .. }
        ));
        assert!(matches!(
            kind("add (M1, 8) B(0,0)<1> A(0,0)<1;1,0> F(0,0)<1;1,0>"),
            ErrorKind::BadType { .. }
        ));
        assert!(matches!(
            kind("add (M1, 8) F(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>"),
            ErrorKind::BadType { .. }
        ));
        assert!(matches!(
            kind("shl (M1, 8) F(0,0)<1> F(0,0)<1;1,0> 0x1:d"),
            ErrorKind::BadType { .. }
        ));
        assert!(matches!(
            kind("sqrt (M1, 8) B(0,0)<1> A(0,0)<1;1,0>"),
            ErrorKind::BadType { .. }
        ));
        // P1 has 16 elements; (M5, 16) uses 16..32.
        assert!(matches!(
            kind("cmp.eq (M5, 16) P1 A(0,0)<1;1,0> B(0,0)<1;1,0>"),
            ErrorKind::BadInstruction { .. }
        ));
        assert!(matches!(
            kind("goto (M1, 16) NOWHERE"),
            ErrorKind::UnknownLabel { .. }
        ));
        assert!(matches!(
            kind("mov (M1, 16) B(0,0)<1> 0x76543210:v"),
            ErrorKind::BadInstruction { .. }
        ));
        assert!(matches!(
            program("L:\nL:", 32).unwrap_err().kind,
            ErrorKind::DuplicateLabel { .. }
        ));
        // Using a variable before its declaration.
        let text = ".version 4.1\n.kernel k\nmov (M1, 1) X(0,0)<1> 0x1:d\n.decl X v_type=G type=d num_elts=1\n";
        assert!(matches!(
            Program::new(&read(text).unwrap(), 32, 1 << 20)
                .unwrap_err()
                .kind,
            ErrorKind::UnknownVariable { .. }
        ));
    }

    #[test]
    fn domains_and_packed_immediates() {
        let p = program("add (M1, 8) F(0,0)<1> F(0,0)<1;1,0> 0x3f800000:f", 32).unwrap();
        assert_eq!(first_alu(&p).domain, Domain::Float(VType::F));
        let p = program("and (M1, 16) P1 P1 P1", 32).unwrap();
        assert_eq!(first_alu(&p).domain, Domain::Pred);
        let p = program("mov (M1, 8) H(0,0)<1> 0xfedcba98:v", 32).unwrap();
        let XSrc::Imm { ty, lanes } = &first_alu(&p).srcs[0] else {
            panic!()
        };
        // Nibbles from the low end: 8, 9, a, ... as signed 4-bit: -8, -7, -6, ...
        assert_eq!(*ty, VType::W);
        assert_eq!(lanes[0], 0xfff8);
        assert_eq!(lanes[7], 0xffff);
        // vf: 0x30 = +2^(3-3) * 1.0 = 1.0; 0x01 = 2^-3 * 1.0625 = 0.1328125; 0xc8 = -2^1 * 1.5.
        assert_eq!(packed_element(0x30, VType::Vf, 0), 1.0f32.to_bits().into());
        assert_eq!(
            packed_element(0x01, VType::Vf, 0),
            0.1328125f32.to_bits().into()
        );
        assert_eq!(
            packed_element(0xc8, VType::Vf, 0),
            (-3.0f32).to_bits().into()
        );
        assert_eq!(
            packed_element(0x80, VType::Vf, 0),
            (-0.0f32).to_bits().into()
        );
    }
}
