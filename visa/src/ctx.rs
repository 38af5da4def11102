//! The emission context shared by the modules that turn instructions into vISA: the
//! output, the symbol table, the inputs, and the mapping of IR values to variables and
//! operands.
//!
//! # How values live in registers
//!
//! An IR value of `B` bits and `N` components is one vISA variable `v<id>`: component `c`
//! of lane `l` is element `l` of the `c`-th run of `comp_bytes` bytes, where a run is the
//! kernel's lanes rounded up to whole registers ([`Target::comp_bytes`]). So every
//! component starts a register, which is the layout of LSC and sampler payloads at the
//! kernel's width, and a value can be a message operand without copies. The element type
//! is `ub`, `uw`, `ud` or `uq` for 8, 16, 32 and 64 bits; a 1-bit boolean is a `ud` that
//! is `0` (false) or `0xffffffff` (true), what vISA `cmp` writes to a general
//! destination. Other readings of the same bits go through typed aliases (`v12_f`,
//! `v12_d`, the 32-bit halves `v12_ud` of a 64-bit value).
//!
//! Constants (`load_const`) have no variable: each use is an immediate, or a temporary
//! where an operand must be a register. Uniform values ([`crate::uniform`]) are scalars
//! (`N` elements, one per component) read as broadcasts (`<0;1,0>`); the instructions
//! that define them run in *scalar mode*, `(M1_NM, 1)`.

use crate::abi::AbiBuilder;
use crate::decl::{Align, Decls, VarId};
use crate::error::{EmitError, EmitErrorKind};
use crate::fold::Fold;
use crate::target::{Family, Target};
use crate::vtype::VType;
use ir::{Function, Inst, InstKind, IntrinsicOp, Shader, Src, Type, Value};
use lowering::Device;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The largest vISA variable: "the variable size (num_elements * sizeof(type)) must be
/// less than 4K bytes" (IGC `documentation/visa/4_visa_header.md`).
pub const MAX_VAR_BYTES: u32 = 4095;

/// A register region: `off` bytes into variable `var`, read as every `stride`-th
/// element of the view type (0: one element broadcast to every lane).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Reg {
    /// The variable.
    pub var: VarId,
    /// Byte offset of the region's first element.
    pub off: u32,
    /// Element stride: 0 (scalar broadcast), 1 (packed), 2 (one half of 64-bit lanes).
    pub stride: u32,
}

impl Reg {
    /// The low (`hi == false`) or high 32-bit half of a 64-bit destination component:
    /// every other dword from the component's first or second.
    pub fn half(self, hi: bool) -> Reg {
        Reg {
            off: self.off + if hi { 4 } else { 0 },
            stride: 2,
            ..self
        }
    }

    /// The region `bytes` further into the variable.
    pub fn at(self, bytes: u32) -> Reg {
        Reg {
            off: self.off + bytes,
            ..self
        }
    }
}

/// A source operand: a region or an immediate (its bits, typed when printed).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Opnd {
    /// A register region.
    Reg(Reg),
    /// An immediate.
    Imm(u64),
}

impl Opnd {
    /// The low (`hi == false`) or high 32-bit half of a 64-bit operand.
    pub fn half(self, hi: bool) -> Opnd {
        match self {
            Opnd::Imm(b) => Opnd::Imm(if hi { b >> 32 } else { b & 0xffff_ffff }),
            Opnd::Reg(r) => Opnd::Reg(Reg {
                var: r.var,
                off: r.off + if hi { 4 } else { 0 },
                stride: if r.stride == 0 { 0 } else { 2 },
            }),
        }
    }
}

/// Storage of IR values of `bits` bits: `ub`, `uw`, `ud`, `uq`; booleans are `ud`.
pub fn storage_type(bits: u8) -> VType {
    match bits {
        1 => VType::Ud,
        b => VType::uint(b),
    }
}

/// The emission context of one kernel.
pub struct Ctx<'a> {
    /// The shader.
    pub shader: &'a Shader,
    /// The function being emitted.
    pub func: &'a Function,
    /// The device.
    pub device: &'a Device,
    /// Platform facts and the kernel's SIMD width.
    pub t: Target,
    /// The symbol table.
    pub decls: Decls,
    /// The inputs asked for so far.
    pub abi: AbiBuilder,
    /// The base addresses loaded at the kernel's start, per buffer binding named by a
    /// constant block (`(is UBO, block)`): scalars every access of the binding reads
    /// ([`crate::memory::load_buffer_bases`]).
    pub buffer_bases: HashMap<(bool, u32), Reg>,
    /// The dwords of the UBO ranges read at the kernel's start, by `(block, byte
    /// offset)` ([`crate::ubo_block::load_ranges`]).
    pub ubo_dwords: HashMap<(u32, u32), Reg>,
    /// The dwords of the image parameter slots read at the kernel's start, by `(image,
    /// byte offset from the image's parameter blocks)`
    /// ([`crate::param_block::load_windows`]).
    pub param_dwords: HashMap<(u32, u32), Reg>,
    /// The variable every shuffle copies its value into and reads through the address
    /// register ([`crate::shuffle`]): one per kernel, since GenX_IR keeps a variable
    /// whose address is taken live far beyond its last read.
    pub shuffle_staging: Option<Reg>,
    /// The registers the kernel's scratch accesses read, computed at its start
    /// ([`crate::scratch::prolog`]); `None` when the kernel makes none.
    pub scratch_regs: Option<ScratchRegs>,
    /// Upper bounds of the function's values, remembered across the kernel (the
    /// divisions ask whether their operands are non-negative: [`crate::idiv`]).
    pub upper_bounds: ir::range_analysis::UpperBounds<'a>,
    body: String,
    inst: Option<Inst>,
    /// Per value: its first variable and the components each variable holds (a
    /// value too large for one variable is split into consecutive ones).
    values: Vec<Option<(VarId, u8)>>,
    uniform: Vec<bool>,
    /// Which values share a variable with a phi ([`crate::coalesce`]).
    classes: crate::coalesce::Classes,
    folds: Vec<Option<Fold>>,
    scalar: bool,
    temps: u32,
    /// Bytes of each SIMT temporary `t<n>`, by `n`.
    temp_sizes: HashMap<u32, u32>,
    /// Per instruction: the most bytes of its own temporaries live at once.
    scratch: HashMap<Inst, u32>,
    labels: u32,
    preds: u32,
    /// Source payloads copied so far in the current straight-line code: the block and
    /// lanes they were built for, their operands and element type, and the temporary
    /// ([`crate::payload::source`] reuses one, as brw's CSE shares identical
    /// `LOAD_PAYLOAD`s). A label ends the straight line.
    payloads: Vec<CopiedPayload>,
    /// The instructions in the order they were emitted.
    order: Vec<Inst>,
    /// Per instruction: bytes of shared payloads live across it (copied before it and
    /// read after it), which its own scratch does not count.
    carried: HashMap<Inst, u32>,
}

/// A source payload copied into a temporary, which nothing writes again.
#[derive(Clone, Debug)]
pub struct CopiedPayload {
    /// The IR block whose code built it.
    pub block: Option<ir::Block>,
    /// The first lane and the lane count of the copies.
    pub lanes: (u32, u32),
    /// The operands, in order.
    pub comps: Vec<Opnd>,
    /// Their element type.
    pub elem: VType,
    /// The temporary.
    pub reg: Reg,
    /// Its bytes.
    pub bytes: u32,
    /// The position (in the order of emission) of the last instruction known to need
    /// it live: the one that copied it, then each that read it again.
    pub live_to: usize,
}

impl<'a> Ctx<'a> {
    /// A context for `func` of `shader`.
    pub fn new(shader: &'a Shader, func: &'a Function, device: &'a Device, t: Target) -> Ctx<'a> {
        let mut decls = Decls::default();
        let abi = AbiBuilder::new(t.simd, t.grf, &mut decls);
        let folds = crate::fold::folds(func, t.family.has_add3());
        let uniform = crate::uniform::uniform_values(func, t.family == Family::Tgl);
        // A message that writes one value per lane (a load, a sampler response, an
        // atomic's old value): `coalesce` lets it share a phi's variable only in the
        // shape IGC's kernels do.
        let message = |v: Value| {
            func.value_def(v)
                .and_then(|d| func.inst(d).as_intrinsic())
                .is_some_and(|i| writes_per_lane(i.op))
        };
        let eligible = |v: Value| {
            !uniform.get(v.index()).copied().unwrap_or(true)
                && folds.get(v.index()).copied().flatten().is_none()
                // ALU results and phis, which the kernel writes under the execution
                // mask, and per-lane message results; a subgroup operation writes
                // lanes the mask leaves off.
                && (message(v)
                    || func.value_def(v).is_some_and(|d| {
                        matches!(func.inst(d).kind, InstKind::Alu(_) | InstKind::Phi(_))
                    }))
        };
        let classes = crate::coalesce::classes(func, &eligible, &message, &folds);
        Ctx {
            shader,
            func,
            device,
            t,
            decls,
            abi,
            buffer_bases: HashMap::new(),
            ubo_dwords: HashMap::new(),
            param_dwords: HashMap::new(),
            shuffle_staging: None,
            scratch_regs: None,
            upper_bounds: ir::range_analysis::UpperBounds::new(
                func,
                ir::range_analysis::UpperBoundConfig::vulkan(shader.local_size),
            ),
            body: String::with_capacity(func.num_inst_ids() * 64),
            inst: None,
            values: vec![None; func.num_value_ids()],
            uniform,
            classes,
            folds,
            scalar: false,
            temps: 0,
            temp_sizes: HashMap::new(),
            scratch: HashMap::new(),
            labels: 0,
            preds: 0,
            payloads: Vec::new(),
            order: Vec::new(),
            carried: HashMap::new(),
        }
    }

    /// The body emitted so far.
    pub fn take_body(&mut self) -> String {
        std::mem::take(&mut self.body)
    }

    /// Where the next instruction's lines and temporaries begin, for
    /// [`Ctx::record_scratch`].
    pub fn scratch_mark(&self) -> (usize, u32) {
        (self.body.len(), self.temps)
    }

    /// Records the most bytes of temporaries the lines emitted since `mark` hold at
    /// once ([`crate::pressure::scratch_peak`]) as instruction `inst`'s scratch.
    pub fn record_scratch(&mut self, inst: Inst, mark: (usize, u32)) {
        let sizes = &self.temp_sizes;
        let bytes = crate::pressure::scratch_peak(&self.body[mark.0..], mark.1, &|n| {
            sizes.get(&n).copied()
        });
        if bytes > 0 {
            self.scratch.insert(inst, bytes);
        }
    }

    /// The scratch bytes recorded for `inst` (0 when none).
    pub fn scratch_of(&self, inst: Inst) -> u32 {
        self.scratch.get(&inst).copied().unwrap_or(0)
            + self.carried.get(&inst).copied().unwrap_or(0)
    }

    // ----- errors ----------------------------------------------------------------------

    /// Sets the instruction that errors are about.
    pub fn set_inst(&mut self, inst: Option<Inst>) {
        self.inst = inst;
        if let Some(i) = inst {
            if self.order.last() != Some(&i) {
                self.order.push(i);
            }
        }
    }

    /// An error of `kind` about the current instruction.
    pub fn err(&self, kind: EmitErrorKind) -> EmitError {
        let mut e = EmitError::shader(kind, &self.t.platform);
        e.function = Some(self.func.name.clone());
        if let Some(i) = self.inst {
            e.inst = Some(i);
            e.span = self.func.inst_span(i);
            e.what = Some(describe(self.func, i));
        }
        e
    }

    /// "cannot be emitted" about the current instruction.
    pub fn unsupported(&self, what: impl Into<String>) -> EmitError {
        self.err(EmitErrorKind::Unsupported { what: what.into() })
    }

    // ----- text ------------------------------------------------------------------------

    /// Appends one instruction.
    pub fn line(&mut self, text: &str) {
        self.body.push_str("    ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// Appends a label.
    pub fn label(&mut self, name: &str) {
        // Code after a label may be reached without what came before it.
        self.payloads.clear();
        let _ = writeln!(self.body, "{name}:");
    }

    /// The IR block of the instruction being emitted.
    pub fn current_block(&self) -> Option<ir::Block> {
        self.inst.and_then(|i| self.func.inst_block(i))
    }

    /// A payload copied before in the current block's straight-line code with these
    /// lanes, operands and element type.
    ///
    /// A payload read again stays live across the instructions since it was last
    /// needed: they carry its bytes ([`Ctx::scratch_of`]), so that the register
    /// pressure model sees it.
    pub fn copied_payload(
        &mut self,
        lanes: (u32, u32),
        comps: &[Opnd],
        elem: VType,
    ) -> Option<Reg> {
        let block = self.current_block();
        let now = self.order.len().checked_sub(1)?;
        let p = self
            .payloads
            .iter_mut()
            .find(|p| p.block == block && p.lanes == lanes && p.elem == elem && p.comps == comps)?;
        for &i in &self.order[p.live_to + 1..=now.max(p.live_to)] {
            *self.carried.entry(i).or_default() += p.bytes;
        }
        p.live_to = p.live_to.max(now);
        Some(p.reg)
    }

    /// Records a payload copied into `reg`, for [`Ctx::copied_payload`].
    pub fn record_payload(&mut self, lanes: (u32, u32), comps: &[Opnd], elem: VType, reg: Reg) {
        let block = self.current_block();
        self.payloads.retain(|p| p.block == block);
        let bytes = self.decls.bytes(self.decls.root(reg.var));
        self.payloads.push(CopiedPayload {
            block,
            lanes,
            comps: comps.to_vec(),
            elem,
            reg,
            bytes,
            live_to: self.order.len().saturating_sub(1),
        });
    }

    /// Appends a comment line.
    pub fn comment(&mut self, text: &str) {
        let _ = writeln!(self.body, "    // {text}");
    }

    /// A fresh label name `<hint><n>`.
    pub fn new_label(&mut self, hint: &str) -> String {
        self.labels += 1;
        format!("{hint}{}", self.labels)
    }

    /// The execution size of the current instruction: `(M1, W)` over the kernel's
    /// lanes, `(M1_NM, 1)` in scalar mode.
    pub fn es(&self) -> String {
        if self.scalar {
            "(M1_NM, 1)".to_string()
        } else {
            format!("(M1, {})", self.t.simd)
        }
    }

    /// Whether value `v` is uniform (a scalar variable).
    pub fn is_uniform(&self, v: Value) -> bool {
        self.uniform.get(v.index()).copied().unwrap_or(false)
    }

    /// Whether value `v` is computed where it is used ([`crate::fold`]): it has no
    /// variable.
    pub fn is_folded(&self, v: Value) -> bool {
        self.fold_of(v).is_some()
    }

    /// How each value (by id) is computed where it is used ([`crate::fold`]).
    pub fn folds(&self) -> &[Option<Fold>] {
        &self.folds
    }

    /// How value `v` is computed where it is used, if it is ([`crate::fold`]).
    pub fn fold_of(&self, v: Value) -> Option<Fold> {
        self.folds.get(v.index()).copied().flatten()
    }

    /// Enters or leaves scalar mode (instructions defining uniform values).
    pub fn set_scalar(&mut self, on: bool) {
        self.scalar = on;
    }

    /// Whether the context is in scalar mode.
    pub fn scalar_mode(&self) -> bool {
        self.scalar
    }

    /// A predicate variable for one use (a pool of four names, each declared once):
    /// every predicate is written right before the instruction that reads it.
    pub fn pred(&mut self) -> String {
        self.preds = self.preds % 4 + 1;
        let name = format!("p{}", self.preds);
        self.decls.pred(&name, self.t.simd);
        name
    }

    // ----- operands --------------------------------------------------------------------

    /// A source operand as `ty`: `v12_f(2,0)<1;1,0>`, `t3(0,1)<2;1,0>`, `0x1:ud`.
    pub fn src(&mut self, o: Opnd, ty: VType) -> String {
        match o {
            Opnd::Imm(b) => ty.imm(b),
            // One element per row, the rows `stride` apart (0: the same element).
            Opnd::Reg(r) => self.src_region(r, ty, (r.stride, 1, 0)),
        }
    }

    /// A source region of `r` as `ty` with an explicit `(vstride, width, hstride)`:
    /// `v12(0,0)<1;4,0>` gives each row of four lanes one element, the rows a step
    /// apart.
    pub fn src_region(&mut self, r: Reg, ty: VType, (v, w, h): (u32, u32, u32)) -> String {
        let view = self.decls.view(r.var, ty);
        let (row, col) = (r.off / self.t.grf, (r.off % self.t.grf) / ty.bytes());
        format!("{}({row},{col})<{v};{w},{h}>", self.decls.name(view))
    }

    /// A destination region as `ty`: `v12(2,0)<1>`.
    pub fn dst(&mut self, r: Reg, ty: VType) -> String {
        let v = self.decls.view(r.var, ty);
        let (row, col) = (r.off / self.t.grf, (r.off % self.t.grf) / ty.bytes());
        format!("{}({row},{col})<{}>", self.decls.name(v), r.stride.max(1))
    }

    /// A raw operand (message payloads): `v12.64` (IGC `CISA.y` `RawOperand`).
    pub fn raw(&self, r: Reg) -> String {
        format!("{}.{}", self.decls.name(self.decls.root(r.var)), r.off)
    }

    /// The (first) variable of IR value `v`, declared on first use with the layout of
    /// its type.
    pub fn value_var(&mut self, v: Value) -> Result<VarId, EmitError> {
        Ok(self.value_parts(v)?.0)
    }

    /// The variables of `v`: the first one and the components each holds. A value
    /// whose bytes exceed the 4 KiB a variable may hold gets several.
    fn value_parts(&mut self, v: Value) -> Result<(VarId, u8), EmitError> {
        let v = self.classes.leader(v);
        if let Some(p) = self.values.get(v.index()).copied().flatten() {
            return Ok(p);
        }
        let ty = self.func.value_type(v);
        let st = storage_type(ty.bit_size());
        let per_comp = self.value_comp_bytes(v);
        let comps = ty.num_components();
        if per_comp > MAX_VAR_BYTES {
            return Err(self.err(EmitErrorKind::TooLarge {
                bytes: per_comp,
                limit: MAX_VAR_BYTES,
            }));
        }
        let per_part = ((MAX_VAR_BYTES / per_comp) as u8).min(comps).max(1);
        // Scalars pack, except where a message writes them (a payload starts a
        // register).
        let message_dest = self
            .func
            .value_def(v)
            .and_then(|d| self.func.inst(d).as_intrinsic())
            .is_some_and(|i| crate::uniform::loaded_by_message(self.func, i));
        let align = if self.is_uniform(v) && !message_dest {
            Align::Natural
        } else {
            Align::Grf
        };
        let parts = comps.div_ceil(per_part);
        let mut first = None;
        // Named after the number the IR's text gives the value (`%12` -> `v12`), which
        // is unique in the function like the id.
        let number = self.func.value_name(v).number;
        for k in 0..parts {
            let n = per_part.min(comps - k * per_part);
            let name = if parts == 1 {
                format!("v{number}")
            } else {
                format!("v{number}_{k}")
            };
            let var = self
                .decls
                .var(name, st, per_comp * u32::from(n) / st.bytes(), align);
            first.get_or_insert(var);
        }
        let first = first.expect("a value has at least one component");
        if v.index() >= self.values.len() {
            self.values.resize(v.index() + 1, None);
        }
        self.values[v.index()] = Some((first, per_part));
        Ok((first, per_part))
    }

    /// The variable holding component `c` of `v` and the component's byte offset in it.
    fn comp_location(&mut self, v: Value, c: u8) -> Result<(VarId, u32), EmitError> {
        let (first, per) = self.value_parts(v)?;
        Ok((
            first.nth(u32::from(c / per)),
            u32::from(c % per) * self.value_comp_bytes(v),
        ))
    }

    /// Bytes of one component of a SIMT value of `bits` bits.
    pub fn comp_bytes(&self, bits: u8) -> u32 {
        self.t.comp_bytes(storage_type(bits).bytes())
    }

    /// Bytes of one component of value `v`: a register run, or one element when the
    /// value is uniform.
    pub fn value_comp_bytes(&self, v: Value) -> u32 {
        let bits = self.func.value_type(v).bit_size();
        if self.is_uniform(v) {
            storage_type(bits).bytes()
        } else {
            self.comp_bytes(bits)
        }
    }

    /// The region of component `c` of value `v` (its destination).
    pub fn dest(&mut self, v: Value, c: u8) -> Result<Reg, EmitError> {
        let (var, off) = self.comp_location(v, c)?;
        Ok(Reg {
            var,
            off,
            stride: 1,
        })
    }

    /// The constant components of `v`, if `load_const` defines it.
    pub fn const_of(&self, v: Value) -> Option<&'a [u64]> {
        let def = self.func.value_def(v)?;
        self.func.inst(def).as_const()
    }

    /// The constant of source `s`'s first component (after its swizzle), if
    /// `load_const` defines its value: a one-component operand (a block, an offset, a
    /// factor) the back end can fold.
    pub fn const_src(&self, s: Src) -> Option<u64> {
        self.func.const_component(s.value, s.swizzle.component(0))
    }

    /// Whether `undef` defines `v`.
    /// The value whose variable `v` is written to ([`crate::coalesce`]): itself, or the
    /// phi it shares a variable with.
    pub fn var_leader(&self, v: Value) -> Value {
        self.classes.leader(v)
    }

    /// Whether `v` shares its variable with other values ([`crate::coalesce`]).
    pub fn shares_var(&self, v: Value) -> bool {
        self.classes.is_shared(v)
    }

    /// Forgets the source payloads copied so far: a variable they read is written
    /// again (a value sharing it with a phi is defined).
    pub fn forget_payloads(&mut self) {
        self.payloads.clear();
    }

    /// Whether `undef` defines `v`.
    pub fn is_undef(&self, v: Value) -> bool {
        self.func
            .value_def(v)
            .is_some_and(|d| matches!(self.func.inst(d).kind, InstKind::Undef))
    }

    /// Component `i` of source `s` (after its swizzle): an immediate for constants (a true
    /// boolean is all ones), else the component's region.
    pub fn comp(&mut self, s: Src, i: u8) -> Result<Opnd, EmitError> {
        let c = s.swizzle.component(i);
        let ty = self.func.value_type(s.value);
        if let Some(k) = self.const_of(s.value) {
            let bits = k.get(usize::from(c)).copied().unwrap_or(0);
            return Ok(Opnd::Imm(if ty.bit_size() == 1 {
                if bits & 1 != 0 {
                    u64::MAX
                } else {
                    0
                }
            } else {
                bits
            }));
        }
        if self.is_folded(s.value) {
            return Err(self.err(EmitErrorKind::Malformed {
                what: format!(
                    "{} is computed where it is used, and read as a value elsewhere",
                    self.func.value_name(s.value)
                ),
            }));
        }
        if self.func.value_def(s.value).is_none() {
            return Err(self.err(EmitErrorKind::Malformed {
                what: format!(
                    "{} is used but never defined",
                    self.func.value_name(s.value)
                ),
            }));
        }
        let (var, off) = self.comp_location(s.value, c)?;
        Ok(Opnd::Reg(Reg {
            var,
            off,
            stride: if self.is_uniform(s.value) { 0 } else { 1 },
        }))
    }

    /// The type of a source.
    pub fn src_type(&self, s: Src) -> Type {
        self.func.src_type(s)
    }

    // ----- temporaries -------------------------------------------------------------------

    /// Marks `var` dead up to here (vISA `lifetime.start`): its first write, in parts
    /// or under a mask, does not make the finalizer keep older contents alive.
    pub fn lifetime_start(&mut self, var: VarId) {
        let name = self.decls.name(self.decls.root(var)).to_string();
        self.line(&format!("lifetime.start {name}"));
    }

    /// Marks the variables of value `v` dead up to here (see
    /// [`Ctx::lifetime_start`]); only for definitions outside loops, where no lane
    /// keeps a value from an earlier iteration.
    pub fn value_lifetime_start(&mut self, v: Value) -> Result<(), EmitError> {
        // A variable other values share holds them before this one.
        if self.classes.is_shared(v) {
            return Ok(());
        }
        let (first, per) = self.value_parts(v)?;
        let comps = self.func.value_type(v).num_components();
        for k in 0..u32::from(comps.div_ceil(per)) {
            self.lifetime_start(first.nth(k));
        }
        Ok(())
    }

    /// A fresh SIMT temporary of `comps` components of `ty` (the value layout); in
    /// scalar mode, `comps` elements.
    pub fn temp_n(&mut self, ty: VType, comps: u32) -> Reg {
        self.temps += 1;
        let per = if self.scalar {
            ty.bytes()
        } else {
            self.t.comp_bytes(ty.bytes())
        };
        let var = self.decls.var(
            format!("t{}", self.temps),
            ty,
            per * comps / ty.bytes(),
            Align::Grf,
        );
        self.temp_sizes.insert(self.temps, per * comps);
        self.lifetime_start(var);
        Reg {
            var,
            off: 0,
            stride: 1,
        }
    }

    /// A fresh one-component SIMT temporary of `ty`.
    pub fn temp(&mut self, ty: VType) -> Reg {
        self.temp_n(ty, 1)
    }

    /// A fresh temporary of `bytes` bytes (a message payload), whole registers.
    pub fn temp_bytes(&mut self, ty: VType, bytes: u32) -> Reg {
        self.temps += 1;
        let bytes = bytes.div_ceil(self.t.grf).max(1) * self.t.grf;
        self.temp_sizes.insert(self.temps, bytes);
        let var = self.decls.var(
            format!("t{}", self.temps),
            ty,
            bytes / ty.bytes(),
            Align::Grf,
        );
        self.lifetime_start(var);
        Reg {
            var,
            off: 0,
            stride: 1,
        }
    }

    /// A fresh scalar temporary of `ty` (one element, read as a broadcast).
    pub fn scalar(&mut self, ty: VType) -> Reg {
        self.temps += 1;
        let var = self
            .decls
            .var(format!("s{}", self.temps), ty, 1, Align::Natural);
        Reg {
            var,
            off: 0,
            stride: 0,
        }
    }

    /// `o` in a register: `o` itself, or a temporary holding the immediate.
    pub fn in_reg(&mut self, o: Opnd, ty: VType) -> Reg {
        match o {
            Opnd::Reg(r) => r,
            Opnd::Imm(_) => {
                // An immediate copied before in this straight-line code, at this width,
                // is still there: nothing writes the copy again.
                let lanes = if self.scalar {
                    (0, 0)
                } else {
                    (0, self.t.simd)
                };
                if let Some(r) = self.copied_payload(lanes, &[o], ty) {
                    return r;
                }
                let t = self.temp(ty);
                let (es, d, s) = (self.es(), self.dst(t, ty), self.src(o, ty));
                self.line(&format!("mov {es} {d} {s}"));
                self.record_payload(lanes, &[o], ty, t);
                t
            }
        }
    }

    /// Emits `op (M1, W) dst srcs...` over the whole kernel width, every operand as `ty`.
    pub fn op(&mut self, op: &str, dst: Reg, ty: VType, srcs: &[Opnd]) {
        let mut text = format!("{op} {} {}", self.es(), self.dst(dst, ty));
        for s in srcs {
            text.push(' ');
            text.push_str(&self.src(*s, ty));
        }
        self.line(&text);
    }

    /// Emits `d = a + b + c`, each operand already written out, at execution size `es`
    /// (`(M1, 16)`) under predicate `pred` (`(P1) `, or empty): one `add3` from Gfx12.5,
    /// two `add`s before it, which has no `add3`. `d` must not overlap `c`, which the
    /// second `add` reads after the first wrote `d`.
    pub fn add3(&mut self, pred: &str, es: &str, d: &str, [a, b, c]: [&str; 3]) {
        if self.t.family.has_add3() {
            self.line(&format!("{pred}add3 {es} {d} {a} {b} {c}"));
        } else {
            self.line(&format!("{pred}add {es} {d} {a} {b}"));
            let d_src = dst_as_src(d);
            self.line(&format!("{pred}add {es} {d} {d_src} {c}"));
        }
    }

    /// [`Ctx::add3`] on registers and immediates of one type, at the kernel's width.
    pub fn op_add3(&mut self, dst: Reg, ty: VType, srcs: [Opnd; 3]) {
        let es = self.es();
        let d = self.dst(dst, ty);
        let [a, b, c] = srcs.map(|s| self.src(s, ty));
        self.add3("", &es, &d, [&a, &b, &c]);
    }

    /// Emits `op (M1, W) dst srcs...` with each operand's own type.
    pub fn op_typed(&mut self, op: &str, dst: (Reg, VType), srcs: &[(Opnd, VType)]) {
        let mut text = format!("{op} {} {}", self.es(), self.dst(dst.0, dst.1));
        for (s, t) in srcs {
            text.push(' ');
            text.push_str(&self.src(*s, *t));
        }
        self.line(&text);
    }

    /// A predicate holding `b != 0` for a boolean operand (`cmp.ne`), for the
    /// instruction that follows.
    pub fn pred_of(&mut self, b: Opnd) -> String {
        let p = self.pred();
        let es = self.es();
        let s = self.src(b, VType::Ud);
        self.line(&format!("cmp.ne {es} {p} {s} 0x0:ud"));
        p
    }

    /// A predicate holding the boolean source `s` (one component).
    pub fn pred_src(&mut self, s: Src) -> Result<String, EmitError> {
        if self.func.src_components(s) != 1 {
            return Err(self.unsupported(format!(
                "a condition must be one boolean component, found {} components",
                self.func.src_components(s)
            )));
        }
        let o = self.comp(s, 0)?;
        Ok(self.pred_of(o))
    }

    /// Writes a boolean (`0` or `0xffffffff`) from a predicate: `(p) sel`.
    pub fn bool_from_pred(&mut self, p: &str, dst: Reg) {
        let es = self.es();
        let d = self.dst(dst, VType::Ud);
        self.line(&format!("({p}) sel {es} {d} 0xffffffff:ud 0x0:ud"));
    }

    /// The binding-table index of element `index` of an image array bound from entry
    /// `binding` (of the image itself without an index), as a message's surface operand:
    /// an immediate when the element is a constant, else the first active lane's sum
    /// (NIR requires the index to be the same on every lane that runs the message).
    pub fn bti_index(&mut self, binding: u32, index: Option<Src>) -> Result<String, EmitError> {
        let Some(idx) = index else {
            return Ok(VType::Ud.imm(u64::from(binding)));
        };
        Ok(match self.comp(idx, 0)? {
            Opnd::Imm(k) => VType::Ud.imm(u64::from(binding.wrapping_add(k as u32))),
            o => {
                let s = self.uniform_binding(o, binding);
                self.src(Opnd::Reg(s), VType::Ud)
            }
        })
    }

    /// The binding-table index `binding + o` of the first active lane, in a scalar: the
    /// index is made uniform first and the sum taken once (`(M1_NM, 1)`), so an index
    /// that already lives in a scalar (a `read_first_invocation` of a non-uniform
    /// access's loop) is used as it is.
    pub fn uniform_binding(&mut self, o: Opnd, binding: u32) -> Reg {
        let u = self.uniform(o, VType::Ud);
        if binding == 0 {
            return u;
        }
        let s = self.scalar(VType::Ud);
        let (d, a) = (self.dst(s, VType::Ud), self.src(Opnd::Reg(u), VType::Ud));
        self.line(&format!(
            "add (M1_NM, 1) {d} {a} {}",
            VType::Ud.imm(u64::from(binding))
        ));
        s
    }

    /// The value `o` of the first (lowest) active lane, in a scalar of `ty` (8 to 64
    /// bits): what the hardware takes once per message (a surface index, the payload
    /// of a 2D block), which NIR requires to be the same on every active lane unless
    /// the access is `non_uniform` (those are loops by then, `lower-non-uniform-access`).
    /// As brw's `emit_uniformize` and IGC's first-lane read: the active lanes' bits in
    /// a predicate (cleared first, then set by a comparison that holds on every active
    /// lane), the lowest set bit, and that lane's value, moved alone into a zeroed
    /// register and OR-ed down to one element.
    pub fn uniform(&mut self, o: Opnd, ty: VType) -> Reg {
        if let Opnd::Reg(r) = o {
            if r.stride == 0 {
                return r;
            }
        }
        let s = self.scalar(ty);
        if let Opnd::Imm(b) = o {
            let (d, v) = (self.dst(s, ty), ty.imm(b));
            self.line(&format!("mov (M1_NM, 1) {d} {v}"));
            return s;
        }
        let w = self.t.simd;
        // Predicates of their own: a caller may hold one of the rotating ones.
        let (active, pick) = ("pu1", "pu2");
        self.decls.pred(active, w);
        self.decls.pred(pick, w);
        self.line(&format!("setp (M1_NM, {w}) {active} 0x0:ud"));
        let lo = if ty.bytes() == 8 {
            self.src(o.half(false), VType::Ud)
        } else {
            self.src(o, ty)
        };
        self.line(&format!("cmp.eq (M1, {w}) {active} {lo} {lo}"));
        let (mask, first, bit) = (
            self.scalar(VType::Ud),
            self.scalar(VType::Ud),
            self.scalar(VType::Ud),
        );
        let (dm, sm) = (
            self.dst(mask, VType::Ud),
            self.src(Opnd::Reg(mask), VType::Ud),
        );
        self.line(&format!("mov (M1_NM, 1) {dm} {active}"));
        let (df, sf) = (
            self.dst(first, VType::Ud),
            self.src(Opnd::Reg(first), VType::Ud),
        );
        self.line(&format!("fbl (M1_NM, 1) {df} {sm}"));
        let (db, sb) = (
            self.dst(bit, VType::Ud),
            self.src(Opnd::Reg(bit), VType::Ud),
        );
        self.line(&format!("shl (M1_NM, 1) {db} 0x1:ud {sf}"));
        self.line(&format!("setp (M1_NM, {w}) {pick} {sb}"));
        // 64-bit values are OR-ed as 32-bit halves.
        let (lanes, half_ty) = if ty.bytes() == 8 {
            (self.t.simd * 2, VType::Ud)
        } else {
            (self.t.simd, ty)
        };
        let t = self.temp_bytes(half_ty, lanes * half_ty.bytes());
        let zero = self.dst(t, ty);
        self.line(&format!("mov (M1_NM, {w}) {zero} {}", ty.imm(0)));
        let (d, sv) = (self.dst(t, ty), self.src(o, ty));
        self.line(&format!("({pick}) mov (M1_NM, {w}) {d} {sv}"));
        let mut n = lanes;
        while n > if ty.bytes() == 8 { 2 } else { 1 } {
            n /= 2;
            // For 64-bit values the low and high halves alternate, so halving keeps
            // them apart down to one pair.
            let hi = Reg {
                off: t.off + n * half_ty.bytes(),
                ..t
            };
            let (d, a, b) = (
                self.dst(t, half_ty),
                self.src(Opnd::Reg(t), half_ty),
                self.src(Opnd::Reg(hi), half_ty),
            );
            self.line(&format!("or (M1_NM, {n}) {d} {a} {b}"));
        }
        let (d, v) = (
            self.dst(s, ty),
            self.src(Opnd::Reg(Reg { stride: 0, ..t }), ty),
        );
        self.line(&format!("mov (M1_NM, 1) {d} {v}"));
        s
    }
}

/// How an instruction reads in messages: `%12 = @lsc_load_quad`, `%7 = udiv`, `phi`.
pub fn describe(func: &Function, inst: Inst) -> String {
    let data = func.inst(inst);
    let name = match &data.kind {
        InstKind::Intrinsic(i) => format!("@{}", i.op.name()),
        InstKind::Alu(a) => a.op.name().to_string(),
        InstKind::LoadConst(_) => "load_const".to_string(),
        InstKind::Undef => "undef".to_string(),
        InstKind::Phi(_) => "phi".to_string(),
    };
    match data.dest {
        Some(v) => format!("{} = {name}", func.value_name(v)),
        None => name,
    }
}

/// The source operand that reads what destination `d` (`v(0,2)<s>`) wrote, lane for
/// lane: `v(0,2)<s;1,0>`.
fn dst_as_src(d: &str) -> String {
    match d.rsplit_once('<') {
        Some((reg, stride)) => format!("{reg}<{};1,0>", stride.trim_end_matches('>')),
        None => d.to_string(),
    }
}

/// The registers every scratch access reads, written once at the kernel's start
/// ([`crate::scratch::prolog`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScratchRegs {
    /// The surface handle of the LSC messages: `r0.5 & ~0x3ff`, a scalar. `None` on the
    /// legacy data port, whose lane addresses include the scratch pointer instead.
    pub handle: Option<Reg>,
    /// Per lane, one `ud`: `4 * lane`, plus the thread's scratch pointer on the legacy
    /// data port: the address of the lane's dword 0.
    pub lanes: Reg,
}

/// Whether `op` is a message whose result holds one value per lane (see
/// [`crate::coalesce`]): loads, sampler responses, atomics.
fn writes_per_lane(op: IntrinsicOp) -> bool {
    use IntrinsicOp::*;
    matches!(
        op,
        LoadGlobal
            | GlobalAtomic
            | GlobalAtomicSwap
            | LoadSsbo
            | LoadShared
            | SsboAtomic
            | SsboAtomicSwap
            | SharedAtomic
            | SharedAtomicSwap
            | LscLoad
            | LscLoadQuad
            | LscAtomic
            | SamplerLd
            | SamplerLdLz
            | SamplerLdMcs
            | SamplerLd2dmsW
            | SamplerSampleL
            | SamplerGather4
            | DpTypedRead
            | DpTypedAtomic
            | DpUntypedRead
            | DpUntypedAtomic
            | DpByteScatteredRead
            | DpDwordScatteredRead
    )
}
