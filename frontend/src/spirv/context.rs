//! The translator's state, passed down to every module (Mesa's `vtn_builder`): the
//! module and its tables, the IR function being built and its cursor, the values of
//! the ids, the promoted variables' current values, the inlined call frames, the
//! enclosing SPIR-V constructs and the IR loops.

use super::alu::{self, AluError};
use super::constant_data::ConstantData;
use super::decorations::Decorations;
use super::module::{Id, Module};
use super::promoted::{Checkpoint, Edge, Promoted};
use super::spec::{ConstVal, Declarations};
use super::types::Ty;
use super::value::{ExitKind, MemPtr, Space, Val, Value, VarKey};
use super::variables::Mapping;
use crate::error::{ErrorKind, ImportError};
use ir::{AluOp, Block, Builder, CfNode, Cursor, Function, IfId, Jump, LoopId, Src, Type};
use std::collections::{BTreeMap, BTreeSet};

/// How deep calls may be inlined.
pub const MAX_INLINE_DEPTH: usize = 64;

/// How deep constructs may nest (each level is a few frames of the translator's
/// stack).
pub const MAX_NESTING: u32 = 256;

/// The most IR instructions one import may create: inlining can multiply a module's
/// size, and this bounds the time and memory a small hostile module can take.
pub const MAX_IR_INSTRUCTIONS: usize = 1 << 22;

/// The most scalar and vector values one promoted variable may hold: a larger
/// function-local array would need scratch memory, which the IR does not have.
pub const MAX_PROMOTED_LEAVES: usize = 1024;

/// An exit that leaves more than one level of the IR's control flow: its target
/// construct (an index into the frame's construct stack), its kind and its target
/// block.
pub type Pending = (usize, ExitKind, Id);

/// What kind of SPIR-V construct is open.
#[derive(Clone, Debug)]
pub enum ConstructKind {
    /// The function itself: `OpReturn` leaves it.
    Frame,
    /// A selection (`OpSelectionMerge` with `OpBranchConditional`): an IR `if`.
    Selection {
        /// The merge block.
        merge: Id,
    },
    /// A loop: an IR loop, with an inner one-trip loop around the body when the
    /// continue target has several predecessors (a `continue` then breaks that loop).
    Loop {
        /// The header.
        header: Id,
        /// The merge block.
        merge: Id,
        /// The continue target.
        cont: Id,
        /// The IR loop (an index into [`Ctx::loops`]).
        outer: usize,
        /// The one-trip loop around the body, if any.
        wrapper: Option<usize>,
        /// Whether the continue construct is being translated.
        in_continue: bool,
    },
    /// A switch: an IR loop that runs once, so that a branch to the merge breaks it.
    Switch {
        /// The merge block.
        merge: Id,
        /// The IR loop.
        ir_loop: usize,
        /// The case targets in the order they run.
        cases: Vec<Id>,
        /// The case being translated.
        current: usize,
    },
}

/// An open construct.
#[derive(Clone, Debug)]
pub struct Construct {
    /// Its number (counted per import), which names its exit flags.
    pub uid: u32,
    /// What it is.
    pub kind: ConstructKind,
    /// The number of open IR loops inside it, at the level of its own blocks.
    pub ir_level: usize,
    /// Exits from inside it that leave it for an outer construct without an IR jump:
    /// dispatched after it closes.
    pub pending: BTreeSet<Pending>,
}

/// An IR loop.
pub struct LoopCtx {
    /// The IR loop.
    pub id: LoopId,
    /// Whether its header has phis (a loop that runs once has none).
    pub phis: bool,
    /// The checkpoint of the promoted variables at its start.
    pub cp: Checkpoint,
    /// The block before it and its first block.
    pub pre: Block,
    /// Its first block, where the header phis go.
    pub first: Block,
    /// Its header's phis, made when a variable is first used inside the loop: one phi
    /// per leaf, or `None` for a variable that did not exist when the loop started.
    pub header: BTreeMap<VarKey, Option<Vec<ir::Value>>>,
    /// The stores along each back edge.
    pub continues: Vec<(Block, Edge)>,
    /// The stores along each `break`.
    pub breaks: Vec<(Block, Edge)>,
    /// Exits that broke out of it on their way further out: dispatched after it.
    pub pending: BTreeSet<Pending>,
}

/// One inlined function.
pub struct Frame {
    /// The frame's number (0 is the entry point).
    pub id: u32,
    /// The function (an index into [`Module::functions`]).
    pub func: usize,
    /// Its open constructs, outermost (the frame itself) first.
    pub constructs: Vec<Construct>,
    /// Which of its blocks have been translated.
    pub emitted: Vec<bool>,
    /// How many branches lead to each of its blocks.
    pub preds: Vec<u32>,
    /// The number of IR loops open when the frame started.
    pub loop_base: usize,
}

/// The state of one import.
pub struct Ctx<'m> {
    /// The module.
    pub m: &'m Module,
    /// Its decorations.
    pub decs: &'m Decorations,
    /// Its types and constants.
    pub d: &'m Declarations,
    /// The binding map.
    pub map: &'m Mapping,
    /// The workgroup size.
    pub workgroup_size: [u32; 3],
    /// The function being built.
    pub func: Function,
    /// Where the next instruction goes.
    pub cursor: Cursor,
    /// The span new instructions get.
    pub span: ir::Span,
    /// Whether the cursor is reachable (false after a jump).
    pub live: bool,
    /// The instruction being translated (for errors).
    pub inst: usize,
    /// The promoted variables' values.
    pub vars: Promoted,
    /// For each id, its slot in `values` (or `u32::MAX`).
    slots: Vec<u32>,
    values: Vec<Value>,
    /// The inlined call stack.
    pub frames: Vec<Frame>,
    /// The open IR loops, innermost last.
    pub loops: Vec<LoopCtx>,
    /// The next construct number.
    pub next_uid: u32,
    /// The nesting depth of the structured walk.
    pub depth: u32,
    /// The source file the spans point into, from the first `OpLine` met.
    pub source_file: Option<String>,
    /// Whether the instruction being translated is decorated `NoContraction`: the ALU
    /// instructions it emits are `exact` (Mesa's `vtn_handle_no_contraction` sets
    /// `nir_builder::exact` the same way).
    pub exact: bool,
    /// Whether the entry point asks for `SignedZeroInfNanPreserve`: every ALU
    /// instruction is `exact`, so that no rule assuming that zeros have no sign and
    /// that there are no infinities or NaNs rewrites it (NIR's
    /// `nir_is_float_control_signed_zero_inf_nan_preserve` keeps them off the same way).
    pub preserve_signed_zero_inf_nan: bool,
    /// The shader's constant data, and which variables may live there.
    pub constants: ConstantData,
}

impl<'m> Ctx<'m> {
    /// A context for `m`.
    pub fn new(
        m: &'m Module,
        decs: &'m Decorations,
        d: &'m Declarations,
        map: &'m Mapping,
        workgroup_size: [u32; 3],
    ) -> Ctx<'m> {
        let mut func = Function::new("main");
        // Most SPIR-V instructions become about one IR instruction.
        func.reserve(m.insts.len());
        let first = func.first_block(ir::CfParent::Root);
        Ctx {
            m,
            decs,
            d,
            map,
            workgroup_size,
            cursor: first.map_or(Cursor::BlockStart(Block::from_u32(0)), Cursor::BlockEnd),
            func,
            span: ir::Span::UNKNOWN,
            live: true,
            inst: 0,
            vars: Promoted::default(),
            slots: vec![u32::MAX; m.bound as usize],
            values: Vec::with_capacity(m.bound as usize),
            frames: Vec::new(),
            loops: Vec::new(),
            next_uid: 0,
            depth: 0,
            source_file: None,
            exact: false,
            preserve_signed_zero_inf_nan: false,
            constants: ConstantData::default(),
        }
    }

    // ----- errors --------------------------------------------------------------------

    /// An error of `kind` at the instruction being translated.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> ImportError {
        self.m.error(self.inst, kind, message)
    }

    /// An [`ErrorKind::Unsupported`] error: `what` is not supported because `why`.
    pub fn unsupported(&self, what: &str, why: &str) -> ImportError {
        self.error(
            ErrorKind::Unsupported,
            format!("{what} is not supported: {why}"),
        )
    }

    /// An [`ErrorKind::Invalid`] error (the module breaks a rule of SPIR-V).
    pub fn invalid(&self, message: impl Into<String>) -> ImportError {
        self.error(ErrorKind::Invalid, message)
    }

    /// A translator bug, reported rather than panicking.
    pub fn internal(&self, what: impl Into<String>) -> ImportError {
        self.error(
            ErrorKind::Internal,
            format!("internal error of the SPIR-V translator: {}", what.into()),
        )
    }

    /// An ALU error as an import error.
    pub fn alu_error(&self, e: AluError) -> ImportError {
        match e {
            AluError::Unsupported(s) => self.error(ErrorKind::Unsupported, s),
            AluError::Invalid(s) => self.invalid(s),
        }
    }

    /// Sets the instruction being translated and the span it gives.
    pub fn at(&mut self, i: usize) {
        self.inst = i;
        self.span = super::variables::span_of(self.m, i);
        if self.source_file.is_none() {
            if let Some(l) = self
                .m
                .insts
                .get(i)
                .and_then(|x| self.m.lines.get(x.line as usize))
            {
                self.source_file = self.m.strings.get(&l.file).cloned();
            }
        }
    }

    // ----- ids -----------------------------------------------------------------------

    /// Sets what `id` stands for.
    pub fn set(&mut self, id: Id, v: Value) -> Result<(), ImportError> {
        let slot = self.slots.get_mut(id as usize).ok_or_else(|| {
            ImportError::new(
                ErrorKind::Invalid,
                crate::error::Location::Unknown,
                format!("%{id} is not below the id bound"),
            )
        })?;
        if *slot == u32::MAX {
            *slot = self.values.len() as u32;
            self.values.push(v);
        } else {
            self.values[*slot as usize] = v;
        }
        Ok(())
    }

    /// What `id` stands for: a translated result, or a constant.
    pub fn get(&mut self, id: Id) -> Result<Value, ImportError> {
        if let Some(v) = self.computed(id) {
            return Ok(v.clone());
        }
        if let Some(c) = self.d.consts.get(&id) {
            let (ty, val) = (c.ty, c.val.clone());
            return Ok(Value::Val(self.constant(ty, &val)?));
        }
        Err(self.invalid(format!(
            "%{id} is used before it is defined{}",
            match self.m.def_opcode(id) {
                Some(o) => format!(" (it is the result of {})", super::op::name(o)),
                None => String::new(),
            }
        )))
    }

    /// The type and value of `id` when it is a constant of the module (not a value the
    /// function computed).
    pub fn module_constant(&self, id: Id) -> Option<(Id, ConstVal)> {
        if self.computed(id).is_some() {
            return None;
        }
        self.d.consts.get(&id).map(|c| (c.ty, c.val.clone()))
    }

    /// What the function computed for `id`, if it did.
    fn computed(&self, id: Id) -> Option<&Value> {
        let &s = self.slots.get(id as usize)?;
        let v = self.values.get(s as usize)?;
        (*v != Value::None).then_some(v)
    }

    /// The value `id` stands for, which must be one. A buffer device address reached
    /// through an access chain is one: its 64-bit address.
    pub fn val(&mut self, id: Id) -> Result<Val, ImportError> {
        match self.get(id)? {
            Value::Val(v) => Ok(v),
            Value::Mem(m) if m.space == Space::Global => Ok(Val::Leaf(self.global_address(&m)?)),
            other => Err(self.invalid(format!("%{id} is not a value ({})", describe(&other)))),
        }
    }

    /// The pointer `id` stands for. A buffer device address held as a value (loaded
    /// from memory, converted from an integer, a phi's) becomes a pointer into global
    /// memory at that address.
    pub fn pointer(&mut self, id: Id) -> Result<Value, ImportError> {
        let v = self.get(id)?;
        if let Value::Val(Val::Leaf(address)) = v {
            if let Some(pointee) = self
                .type_of(id)
                .and_then(|t| self.d.types.physical_pointee(t))
            {
                return Ok(Value::Mem(MemPtr {
                    space: Space::Global,
                    block: Some(address),
                    array_base: None,
                    access: 0,
                    range: 0,
                    pointee,
                    offset: 0,
                    dynamic: None,
                    dynamic_align: super::value::MAX_ALIGN,
                    matrix: None,
                    vec_stride: None,
                    non_uniform: false,
                }));
            }
        }
        Ok(v)
    }

    /// The address of a pointer into global memory: its base plus its byte offset,
    /// the offset's 32 bits sign-extended as NIR's `nir_lower_explicit_io` extends
    /// them for 64-bit global addresses (an `OpPtrAccessChain` may step backwards).
    pub fn global_address(&mut self, m: &MemPtr) -> Result<Src, ImportError> {
        let base = m
            .block
            .ok_or_else(|| self.internal("a global pointer without an address"))?;
        // The run-time part first and the constant last, each sign-extended (SPIR-V
        // reads access-chain indices as signed): accesses to the members of one
        // element then share `base + dynamic` and differ by constants, which is the
        // shape the load/store vectorizer merges.
        let mut address = base;
        if let Some(d) = m.dynamic {
            let wide = self.alu(AluOp::I2i64, &[d])?;
            address = self.alu(AluOp::Iadd, &[address, wide])?;
        }
        if m.offset != 0 {
            let k = self.load_const(Type::U64, &[m.offset as i32 as i64 as u64]);
            address = self.alu(AluOp::Iadd, &[address, k])?;
        }
        Ok(address)
    }

    /// The scalar or vector `id` stands for.
    pub fn leaf(&mut self, id: Id) -> Result<Src, ImportError> {
        match self.val(id)? {
            Val::Leaf(s) => Ok(s),
            Val::Comp(_) => Err(self.invalid(format!(
                "%{id} is a composite where a scalar or vector is needed"
            ))),
        }
    }

    /// The type of `id`'s result (`OpTypeX` ids have none).
    pub fn type_of(&self, id: Id) -> Option<Id> {
        if let Some(c) = self.d.consts.get(&id) {
            return Some(c.ty);
        }
        let i = self.m.def(id)?;
        let inst = self.m.insts[i];
        let (_, _, has_ty, _, _) = super::grammar::info(inst.opcode)?;
        if *has_ty {
            self.m.ops(i).first().copied()
        } else {
            None
        }
    }

    /// The type `id` names.
    pub fn ty(&self, id: Id) -> Result<&'m Ty, ImportError> {
        self.d
            .types
            .get(id)
            .ok_or_else(|| self.invalid(format!("%{id} is not a type")))
    }

    /// The IR type of scalar or vector type `id`.
    pub fn ir_type(&self, id: Id) -> Result<Type, ImportError> {
        self.d
            .types
            .ir_type(id)
            .ok_or_else(|| self.invalid(format!("%{id} is not a scalar or vector type")))
    }

    // ----- building ------------------------------------------------------------------

    /// Runs `f` with a builder at the cursor, then moves the cursor past what it
    /// emitted.
    pub fn build<R>(&mut self, f: impl FnOnce(&mut Builder<'_>) -> R) -> R {
        let mut b = Builder::new(&mut self.func, self.cursor);
        b.span = self.span;
        b.exact = self.exact;
        let r = f(&mut b);
        self.cursor = b.cursor;
        r
    }

    /// An ALU op on sources that must fit it.
    pub fn alu(&mut self, op: AluOp, srcs: &[Src]) -> Result<Src, ImportError> {
        self.build(|b| alu::op(b, op, srcs))
            .map_err(|e| self.alu_error(e))
    }

    /// A constant of type `ty` (one entry per component).
    pub fn load_const(&mut self, ty: Type, bits: &[u64]) -> Src {
        Src::new(self.build(|b| b.load_const(ty, bits)))
    }

    /// A 32-bit constant.
    pub fn u32(&mut self, v: u32) -> Src {
        Src::new(self.build(|b| b.imm_u32(v)))
    }

    /// A boolean constant.
    pub fn bool(&mut self, v: bool) -> Src {
        Src::new(self.build(|b| b.imm_bool(v)))
    }

    /// An undefined value of type `ty`.
    pub fn undef(&mut self, ty: Type) -> Src {
        Src::new(self.build(|b| b.undef(ty)))
    }

    /// A vector of scalar sources (the source itself for one).
    pub fn vec(&mut self, comps: &[Src]) -> Result<Src, ImportError> {
        match comps.len() {
            1 => Ok(comps[0]),
            n => {
                let op = AluOp::vec(n as u8).ok_or_else(|| {
                    self.unsupported(
                        &format!("a vector of {n} components"),
                        "the IR has vectors of 2, 3, 4, 8 and 16",
                    )
                })?;
                self.alu(op, comps)
            }
        }
    }

    /// The value of a constant of type `ty` in the function.
    pub fn constant(&mut self, ty: Id, c: &ConstVal) -> Result<Val, ImportError> {
        let t = self.ty(ty)?;
        match (t, c) {
            (Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. }, _) => {
                let irt = self.ir_type(ty)?;
                match super::spec::components(c) {
                    Some(comps) if comps.len() == irt.num_components() as usize => {
                        Ok(Val::Leaf(self.load_const(irt, &comps)))
                    }
                    None if *c == ConstVal::Undef => Ok(Val::Leaf(self.undef(irt))),
                    _ => Err(self.invalid(format!(
                        "a constant does not have the shape of its type %{ty}"
                    ))),
                }
            }
            (Ty::Matrix { col, .. }, ConstVal::Comp(parts)) => {
                let col = *col;
                self.constant_parts(parts, &mut |_| col)
            }
            (Ty::Array { elem, .. }, ConstVal::Comp(parts)) => {
                let e = *elem;
                self.constant_parts(parts, &mut |_| e)
            }
            (Ty::Struct { members }, ConstVal::Comp(parts)) if members.len() == parts.len() => {
                let ms = members.clone();
                self.constant_parts(parts, &mut |i| ms[i])
            }
            (_, ConstVal::Undef) => self.undef_of(ty),
            _ => Err(self.invalid(format!(
                "a constant does not have the shape of its type %{ty}"
            ))),
        }
    }

    fn constant_parts(
        &mut self,
        parts: &[ConstVal],
        ty_of: &mut dyn FnMut(usize) -> Id,
    ) -> Result<Val, ImportError> {
        if parts.len() > MAX_PROMOTED_LEAVES {
            return Err(self.error(ErrorKind::Limit, format!("a constant of {} elements used in a function: the IR keeps values in registers", parts.len())));
        }
        let mut out = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            out.push(self.constant(ty_of(i), p)?);
        }
        Ok(Val::Comp(out))
    }

    /// An undefined value of type `ty` (a tree for composites).
    pub fn undef_of(&mut self, ty: Id) -> Result<Val, ImportError> {
        self.shape_of(ty, &mut |ctx, t| Ok(ctx.undef(t)), 0)
    }

    /// The zero value of type `ty`.
    pub fn zero_of(&mut self, ty: Id) -> Result<Val, ImportError> {
        self.shape_of(
            ty,
            &mut |ctx, t| Ok(ctx.load_const(t, &vec![0; t.num_components() as usize])),
            0,
        )
    }

    /// A value of type `ty` whose leaves `leaf` makes.
    fn shape_of(
        &mut self,
        ty: Id,
        leaf: &mut dyn FnMut(&mut Ctx<'m>, Type) -> Result<Src, ImportError>,
        count: usize,
    ) -> Result<Val, ImportError> {
        let t = self.ty(ty)?;
        let parts: Vec<Id> = match t {
            Ty::Bool | Ty::Int { .. } | Ty::Float { .. } | Ty::Vector { .. } => {
                let irt = self.ir_type(ty)?;
                return Ok(Val::Leaf(leaf(self, irt)?));
            }
            Ty::Pointer { .. } if self.d.types.physical_pointee(ty).is_some() => {
                return Ok(Val::Leaf(leaf(self, Type::U64)?));
            }
            Ty::Matrix { col, n } => vec![*col; *n as usize],
            Ty::Array { elem, len } => {
                if *len as usize > MAX_PROMOTED_LEAVES || count > MAX_PROMOTED_LEAVES {
                    return Err(self.error(
                        ErrorKind::Limit,
                        format!(
                            "a value of {len} elements kept in registers (the translator promotes at most {MAX_PROMOTED_LEAVES}; the IR has no scratch memory)"
                        ),
                    ));
                }
                vec![*elem; *len as usize]
            }
            Ty::Struct { members } => members.clone(),
            other => {
                return Err(self.unsupported(
                    &format!("a value of type {}", type_name(other)),
                    "the IR has no such values",
                ))
            }
        };
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            out.push(self.shape_of(p, leaf, count + out.len() + 1)?);
        }
        Ok(Val::Comp(out))
    }

    // ----- control flow --------------------------------------------------------------

    /// The block the cursor is in.
    pub fn current_block(&self) -> Result<Block, ImportError> {
        self.func
            .cursor_block(self.cursor)
            .ok_or_else(|| self.internal("the cursor left the tree"))
    }

    /// Starts an `if`.
    pub fn push_if(&mut self, cond: Src) -> IfId {
        self.build(|b| b.push_if(cond))
    }

    /// Moves to the else list.
    pub fn push_else(&mut self, id: IfId) {
        self.build(|b| b.push_else(id))
    }

    /// Moves after the `if`.
    pub fn pop_if(&mut self, id: IfId) {
        self.build(|b| b.pop_if(id))
    }

    /// Ends the current block with a jump; the cursor becomes unreachable.
    pub fn jump(&mut self, j: Jump) {
        self.build(|b| b.jump(j));
        self.live = false;
    }

    // ----- promoted variables ---------------------------------------------------------

    /// Makes the header phis of `key` in the open loops that have not used it yet: a
    /// variable's value in a loop is a phi of the values entering the loop and those
    /// along its back edges (Braun et al.'s incomplete phis of a block whose
    /// predecessors are not all known yet; the back edges' values are added when the
    /// loop closes).
    fn touch(&mut self, key: VarKey) -> Result<(), ImportError> {
        for l in 0..self.loops.len() {
            let lp = &self.loops[l];
            if !lp.phis || lp.header.contains_key(&key) {
                continue;
            }
            let (pre, first, cp) = (lp.pre, lp.first, lp.cp);
            let phis = match self.vars.get(&key).cloned() {
                None => None,
                Some(val) => {
                    let mut ps = Vec::new();
                    let mut leaves = Vec::new();
                    for leaf in val.leaves() {
                        let ty = self.func.src_type(leaf);
                        let mut b = Builder::new(&mut self.func, Cursor::BlockStart(first));
                        b.span = self.span;
                        let p = b.phi(ty, &[(pre, leaf)]);
                        ps.push(p);
                        leaves.push(Src::new(p));
                    }
                    let v = val
                        .with_leaves(&mut leaves.into_iter())
                        .ok_or_else(|| self.internal("phis lost leaves"))?;
                    self.vars.set_before(cp, key, v);
                    Some(ps)
                }
            };
            self.loops[l].header.insert(key, phis);
        }
        Ok(())
    }

    /// The value of promoted variable `key` at the cursor.
    pub fn var(&mut self, key: VarKey) -> Result<Option<&Val>, ImportError> {
        self.touch(key)?;
        Ok(self.vars.get(&key))
    }

    /// Sets promoted variable `key` at the cursor.
    pub fn set_var(&mut self, key: VarKey, val: Val) -> Result<(), ImportError> {
        self.touch(key)?;
        self.vars.set(key, Some(val));
        Ok(())
    }

    /// The edge leaving the cursor, if it is reachable: its block and what was stored
    /// since `cp`.
    pub fn edge(&self, cp: Checkpoint) -> Result<Option<(Block, Edge)>, ImportError> {
        if !self.live {
            return Ok(None);
        }
        Ok(Some((self.current_block()?, self.vars.edge(cp))))
    }

    /// Opens an IR loop; with `phis`, the variables used in it get header phis (a loop
    /// that runs once needs none).
    pub fn open_loop(&mut self, phis: bool) -> Result<usize, ImportError> {
        let id = self.build(|b| b.push_loop());
        let pre = match self.func.prev_node(CfNode::Loop(id)) {
            Some(CfNode::Block(b)) => b,
            _ => return Err(self.internal("a loop without a block before it")),
        };
        let first = self.current_block()?;
        let cp = self.vars.checkpoint();
        self.loops.push(LoopCtx {
            id,
            phis,
            cp,
            pre,
            first,
            header: BTreeMap::new(),
            continues: Vec::new(),
            breaks: Vec::new(),
            pending: BTreeSet::new(),
        });
        Ok(self.loops.len() - 1)
    }

    /// Closes the innermost IR loop: its header phis get their back edges' values, the
    /// cursor moves after it and the break states merge. Returns the exits to dispatch.
    pub fn close_loop(&mut self) -> Result<BTreeSet<Pending>, ImportError> {
        let l = self
            .loops
            .pop()
            .ok_or_else(|| self.internal("no loop to close"))?;
        self.build(|b| b.pop_loop(l.id));
        self.vars.rewind(l.cp);
        for (key, phis) in &l.header {
            let Some(phis) = phis else { continue };
            // A back edge that did not store the variable carries the header's value.
            let base = self.vars.get(key).map(Val::leaves);
            for (b, edge) in &l.continues {
                let leaves = match edge.get(key) {
                    Some(v) => v.as_ref().map(Val::leaves),
                    None => base.clone(),
                };
                for (k, phi) in phis.iter().enumerate() {
                    let ty = self.func.value_type(*phi);
                    let leaf = match leaves.as_ref().and_then(|l| l.get(k)) {
                        Some(l) => *l,
                        None => self.missing(*b, ty, true),
                    };
                    if self.func.src_type(leaf) != ty {
                        return Err(self.internal("a loop variable changed type"));
                    }
                    let phi = *phi;
                    self.build(|bd| bd.add_phi_src(phi, *b, leaf));
                }
            }
        }
        self.merge(l.cp, l.breaks)?;
        Ok(l.pending)
    }

    /// `break` out of IR loop `index`: records the state for its exit and jumps.
    pub fn break_loop(&mut self, index: usize) -> Result<(), ImportError> {
        if index + 1 != self.loops.len() {
            return Err(self.internal("a break out of a loop that is not the innermost"));
        }
        let b = self.current_block()?;
        let state = self.vars.edge(self.loops[index].cp);
        self.loops[index].breaks.push((b, state));
        self.jump(Jump::Break);
        Ok(())
    }

    /// The back edge of IR loop `index`: records the state for its header phis and
    /// jumps to the header.
    pub fn continue_loop(&mut self, index: usize) -> Result<(), ImportError> {
        if index + 1 != self.loops.len() {
            return Err(self.internal("a continue of a loop that is not the innermost"));
        }
        let b = self.current_block()?;
        let state = self.vars.edge(self.loops[index].cp);
        self.loops[index].continues.push((b, state));
        self.jump(Jump::Continue);
        Ok(())
    }

    /// Merges the states reaching the cursor from `preds` (the reachable predecessors
    /// of the cursor's block, which must be at its start, each with what it stored
    /// since `cp`) and closes `cp`: values that differ get phis. Only the variables
    /// stored since `cp` are looked at. A variable a predecessor lacks reads as `false`
    /// there if it is a flag, and as undefined otherwise (SPIR-V's dominance rules keep
    /// such paths from reading it).
    pub fn merge(&mut self, cp: Checkpoint, preds: Vec<(Block, Edge)>) -> Result<(), ImportError> {
        self.vars.close(cp);
        if preds.is_empty() {
            self.live = false;
            return Ok(());
        }
        self.live = true;
        if preds.len() == 1 {
            for (key, v) in preds.into_iter().flat_map(|p| p.1) {
                if self.vars.get(&key) != v.as_ref() {
                    self.vars.set(key, v);
                }
            }
            return Ok(());
        }
        let mut keys: BTreeSet<VarKey> = BTreeSet::new();
        for (_, e) in &preds {
            keys.extend(e.keys().copied());
        }
        for key in keys {
            let base = self.vars.get(&key).cloned();
            let vals: Vec<Option<&Val>> = preds
                .iter()
                .map(|(_, e)| e.get(&key).map_or(base.as_ref(), Option::as_ref))
                .collect();
            if vals.iter().all(|v| *v == vals[0]) {
                if vals[0] != base.as_ref() {
                    self.vars.set(key, vals[0].cloned());
                }
                continue;
            }
            let Some(shape) = vals.iter().find_map(|v| *v) else {
                continue;
            };
            let shape_leaves = shape.leaves();
            // Each predecessor's leaves, flattened once per variable rather than once
            // per leaf: a join of a large composite is then linear in its size.
            let mut pred_leaves = Vec::with_capacity(preds.len());
            for v in &vals {
                let l = v.map(Val::leaves);
                if l.as_ref().is_some_and(|l| l.len() != shape_leaves.len()) {
                    return Err(self.internal("states of different shapes"));
                }
                pred_leaves.push(l);
            }
            let mut merged = Vec::with_capacity(shape_leaves.len());
            for (i, leaf) in shape_leaves.iter().enumerate() {
                let ty = self.func.src_type(*leaf);
                let mut srcs = Vec::with_capacity(preds.len());
                let mut same = true;
                let mut firstsrc = None;
                for ((b, _), l) in preds.iter().zip(&pred_leaves) {
                    let src = match l {
                        Some(l) => l[i],
                        None if key.is_flag() => self.missing(*b, ty, false),
                        None => self.missing(*b, ty, true),
                    };
                    if *firstsrc.get_or_insert(src) != src {
                        same = false;
                    }
                    srcs.push((*b, src));
                }
                if same {
                    merged.push(srcs[0].1);
                } else {
                    merged.push(Src::new(self.build(|b| b.phi(ty, &srcs))));
                }
            }
            let v = shape
                .with_leaves(&mut merged.into_iter())
                .ok_or_else(|| self.internal("a merged state lost leaves"))?;
            self.vars.set(key, Some(v));
        }
        Ok(())
    }

    /// A value for a variable a predecessor `b` lacks: `false` (0) or undefined, made
    /// at the end of `b`.
    fn missing(&mut self, b: Block, ty: Type, undef: bool) -> Src {
        let mut bd = Builder::new(&mut self.func, Cursor::BlockEnd(b));
        bd.span = self.span;
        Src::new(if undef {
            bd.undef(ty)
        } else {
            bd.load_const(ty, &vec![0; ty.num_components() as usize])
        })
    }

    /// The innermost frame.
    pub fn frame(&self) -> Result<&Frame, ImportError> {
        self.frames.last().ok_or_else(|| self.internal("no frame"))
    }

    /// The innermost frame, mutably.
    pub fn frame_mut(&mut self) -> Result<&mut Frame, ImportError> {
        // (The error is made only when there is no frame: it disassembles.)
        if self.frames.is_empty() {
            return Err(self.internal("no frame"));
        }
        let n = self.frames.len() - 1;
        Ok(&mut self.frames[n])
    }

    /// Whether the import has grown past [`MAX_IR_INSTRUCTIONS`].
    pub fn check_budget(&self) -> Result<(), ImportError> {
        if self.func.num_inst_ids() > MAX_IR_INSTRUCTIONS {
            return Err(self.error(
                ErrorKind::Limit,
                format!(
                    "the translation exceeds {MAX_IR_INSTRUCTIONS} IR instructions (calls are inlined; this module's calls multiply its code)"
                ),
            ));
        }
        Ok(())
    }
}

/// A short description of what an id stands for, for messages.
pub fn describe(v: &Value) -> &'static str {
    match v {
        Value::None => "nothing",
        Value::Val(_) => "a value",
        Value::Var(_) | Value::Mem(_) | Value::ImagePtr(_) | Value::Builtin { .. } => "a pointer",
        Value::Image(_) => "an image",
        Value::Sampler(_) => "a sampler",
        Value::SampledImage { .. } => "a sampled image",
        Value::Texel { .. } => "a texel pointer",
    }
}

/// A short name of a type, for messages.
pub fn type_name(t: &Ty) -> String {
    match t {
        Ty::Void => "void".into(),
        Ty::Bool => "bool".into(),
        Ty::Int { bits, signed } => format!("{}int{bits}", if *signed { "" } else { "u" }),
        Ty::Float { bits } => format!("float{bits}"),
        Ty::Vector { n, .. } => format!("vector of {n}"),
        Ty::Matrix { n, .. } => format!("matrix of {n} columns"),
        Ty::Array { len, .. } => format!("array of {len}"),
        Ty::RuntimeArray { .. } => "runtime array".into(),
        Ty::Struct { .. } => "struct".into(),
        Ty::Pointer { .. } => "pointer".into(),
        Ty::Function { .. } => "function".into(),
        Ty::Image(_) => "image".into(),
        Ty::Sampler => "sampler".into(),
        Ty::SampledImage { .. } => "sampled image".into(),
        Ty::Other(o) => super::op::name(*o),
    }
}
