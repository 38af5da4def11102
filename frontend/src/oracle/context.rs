//! The state of one import, shared by the expression and statement translators: the IR
//! function being built and its cursor, the naga module and its analysis, the promoted
//! variables' current values, the inlined call frames and the enclosing loops.

use crate::error::{ErrorKind, ImportError, Location};
use crate::oracle::resources::{Mapping, Role};
use crate::oracle::value::{Cached, Val, VarKey};
use crate::source::Language;
use ir::builder::alu_dest_type;
use ir::{
    AluOp, Block, Builder, CfNode, Cursor, Function, IfId, InstKind, IntrinsicOp, Jump, LoopId,
    Src, Type, Value,
};
use naga::proc::Layouter;
use naga::{Handle, Scalar, ScalarKind, TypeInner};
use std::collections::{BTreeMap, HashMap};

/// The values of the promoted variables at one point of the program.
pub type VarState = BTreeMap<VarKey, Val>;

/// How deep calls may be inlined (naga forbids recursion; this bounds the work).
pub const MAX_INLINE_DEPTH: usize = 64;

/// The most scalar and vector values one promoted variable may hold: a larger
/// function-local array would need scratch memory, which the IR does not have.
pub const MAX_PROMOTED_LEAVES: usize = 1024;

/// One inlined function.
pub struct Frame<'m> {
    /// The frame's number (0 is the entry point).
    pub id: u32,
    /// The function.
    pub function: &'m naga::Function,
    /// naga's analysis of it.
    pub info: &'m naga::valid::FunctionInfo,
    /// What each evaluated expression stands for.
    pub cache: HashMap<Handle<naga::Expression>, Cached>,
    /// The arguments.
    pub args: Vec<Cached>,
    /// The number of enclosing loops when the frame started: the loops a `return` of
    /// this frame leaves are those above it.
    pub loop_base: usize,
}

/// What a loop of the IR stands for.
#[derive(Clone, Copy)]
pub enum LoopKind<'m> {
    /// A naga `loop`, with its continuing block and break-if.
    Real {
        /// The continuing block, run before every next iteration.
        continuing: &'m naga::Block,
        /// The condition that ends the loop after the continuing block.
        break_if: Option<Handle<naga::Expression>>,
    },
    /// A naga `switch`, as a loop that runs once so that `break` leaves it.
    Switch {
        /// The switch's number (its continue flag is `VarKey::SwitchContinue(n)`).
        number: u32,
    },
}

/// An enclosing loop and the edges that leave or repeat it.
pub struct LoopCtx<'m> {
    /// What it stands for.
    pub kind: LoopKind<'m>,
    /// The IR loop.
    pub id: LoopId,
    /// The frame it belongs to.
    pub frame: u32,
    /// The header's phis: for each variable, one phi per leaf.
    pub header: Vec<(VarKey, Vec<Value>)>,
    /// The states at each `break`.
    pub breaks: Vec<(Block, VarState)>,
}

/// The state of one import.
pub struct Ctx<'m> {
    /// The module.
    pub module: &'m naga::Module,
    /// naga's analysis.
    pub info: &'m naga::valid::ModuleInfo,
    /// The language it was read from.
    pub language: Language,
    /// What locates naga's spans.
    pub map: &'m crate::source::SourceMap,
    /// Sizes and alignments of the module's types.
    pub layouter: Layouter,
    /// The binding mapping.
    pub mapping: Mapping,
    /// The entry point's workgroup size.
    pub workgroup_size: [u32; 3],
    /// The function being built.
    pub func: Function,
    /// Where the next instruction goes.
    pub cursor: Cursor,
    /// The span given to new instructions.
    pub span: ir::Span,
    /// The naga span of the construct being translated (for errors).
    pub naga_span: naga::Span,
    /// Whether the cursor is reachable (false after a jump).
    pub live: bool,
    /// Whether the current frame has returned on this path (outside its loops): the
    /// rest of the statement list is skipped, but the state still flows to the merge.
    pub skipping: bool,
    /// The promoted variables' values.
    pub vars: VarState,
    /// The inlined call stack.
    pub frames: Vec<Frame<'m>>,
    /// The enclosing loops, innermost last.
    pub loops: Vec<LoopCtx<'m>>,
    /// The function whose body's top-level statements are being translated (its local
    /// variables enter and leave the state by its schedule).
    pub locals: Option<&'m naga::Function>,
    /// The next frame number.
    pub next_frame: u32,
    /// The next switch number.
    pub next_switch: u32,
}

impl<'m> Ctx<'m> {
    /// The location of a naga span.
    pub fn locate(&self, span: naga::Span) -> Location {
        self.map.locate(span)
    }

    /// The location of the construct being translated.
    pub fn here(&self) -> Location {
        self.locate(self.naga_span)
    }

    /// An [`ErrorKind::Unsupported`] error at the construct being translated.
    pub fn unsupported(&self, construct: &str, why: &str) -> ImportError {
        ImportError::unsupported(self.here(), construct, why)
    }

    /// An error of `kind` at the construct being translated.
    pub fn error(&self, kind: ErrorKind, message: impl Into<String>) -> ImportError {
        ImportError::new(kind, self.here(), message)
    }

    /// A front-end bug, reported rather than panicking.
    pub fn internal(&self, what: impl Into<String>) -> ImportError {
        self.error(
            ErrorKind::Internal,
            format!("internal error of the front end: {}", what.into()),
        )
    }

    /// Sets the construct being translated.
    pub fn at(&mut self, span: naga::Span) {
        if span.is_defined() {
            self.naga_span = span;
            self.span = self.locate(span).ir_span();
        }
    }

    /// The innermost frame.
    pub fn frame(&self) -> Result<&Frame<'m>, ImportError> {
        self.frames.last().ok_or_else(|| self.internal("no frame"))
    }

    /// The innermost frame, mutably.
    pub fn frame_mut(&mut self) -> Result<&mut Frame<'m>, ImportError> {
        match self.frames.last_mut() {
            Some(f) => Ok(f),
            None => Err(ImportError::new(
                ErrorKind::Internal,
                Location::Unknown,
                "internal error of the front end: no frame",
            )),
        }
    }

    /// The naga type of expression `h` of the innermost frame.
    pub fn expr_type(&self, h: Handle<naga::Expression>) -> Result<&'m TypeInner, ImportError> {
        let f = self.frame()?;
        let info = f.info;
        let module = self.module;
        Ok(info[h].ty.inner_with(&module.types))
    }

    /// The role of a global.
    pub fn role(&self, g: Handle<naga::GlobalVariable>) -> &Role {
        &self.mapping.roles[g.index()]
    }

    // ----- building ------------------------------------------------------------------

    /// Runs `f` with a builder at the cursor, then moves the cursor past what it
    /// emitted.
    pub fn build<R>(&mut self, f: impl FnOnce(&mut Builder<'_>) -> R) -> R {
        let mut b = Builder::new(&mut self.func, self.cursor);
        b.span = self.span;
        let r = f(&mut b);
        self.cursor = b.cursor;
        r
    }

    /// `s` without a swizzle when it reads its whole value in order (`%3.x` of a scalar
    /// is `%3`), as the printer and NIR write it.
    pub fn norm(&self, s: Src) -> Src {
        let n = self.func.value_type(s.value).num_components();
        let whole = s.swizzle.len() == n
            && s.swizzle
                .components()
                .enumerate()
                .all(|(i, c)| i as u8 == c);
        if whole {
            Src::new(s.value)
        } else {
            s
        }
    }

    /// An ALU instruction with its type inferred as NIR's builder does; an error (not a
    /// panic) if the sources do not fit the op. A `vecN` of constants is one constant.
    pub fn alu(&mut self, op: AluOp, srcs: &[Src]) -> Result<Value, ImportError> {
        let srcs: Vec<Src> = srcs.iter().map(|s| self.norm(*s)).collect();
        let srcs = srcs.as_slice();
        if op.is_vec() {
            let consts: Option<Vec<u64>> = srcs
                .iter()
                .map(|s| self.const_of(*s).map(|c| c[0]))
                .collect();
            let bits = self.func.value_type(srcs[0].value).bit_size();
            if let (Some(c), Some(ty)) = (consts, Type::new(bits, srcs.len() as u8)) {
                return Ok(self.constant(ty, &c));
            }
        }
        let ty = alu_dest_type(&self.func, op, srcs).ok_or_else(|| {
            let shapes: Vec<String> = srcs
                .iter()
                .map(|s| self.func.src_type(*s).to_string())
                .collect();
            self.internal(format!("`{op}` on {}", shapes.join(", ")))
        })?;
        Ok(self.build(|b| b.alu_typed(op, srcs, ty)))
    }

    /// An ALU instruction with an explicit result type.
    pub fn alu_typed(&mut self, op: AluOp, srcs: &[Src], ty: Type) -> Value {
        let srcs: Vec<Src> = srcs.iter().map(|s| self.norm(*s)).collect();
        self.build(|b| b.alu_typed(op, &srcs, ty))
    }

    /// A constant of type `ty` (one entry per component).
    pub fn constant(&mut self, ty: Type, bits: &[u64]) -> Value {
        self.build(|b| b.load_const(ty, bits))
    }

    /// A 32-bit scalar constant.
    pub fn u32(&mut self, v: u32) -> Src {
        Src::new(self.build(|b| b.imm_u32(v)))
    }

    /// A scalar constant of `bits` bits.
    pub fn imm(&mut self, bits: u8, v: u64) -> Result<Src, ImportError> {
        let ty = Type::scalar(bits).ok_or_else(|| self.internal(format!("{bits}-bit constant")))?;
        Ok(Src::new(self.constant(ty, &[v])))
    }

    /// An intrinsic.
    pub fn intrinsic(
        &mut self,
        op: IntrinsicOp,
        image: Option<ir::ImageRef>,
        srcs: &[Src],
        indices: &[u32],
        dest: Option<Type>,
    ) -> Option<Value> {
        let srcs: Vec<Src> = srcs.iter().map(|s| self.norm(*s)).collect();
        self.build(|b| b.intrinsic(op, image, &srcs, indices, dest))
    }

    /// The type of what a source reads.
    pub fn src_type(&self, s: Src) -> Type {
        self.func.src_type(s)
    }

    /// The components a source reads.
    pub fn comps(&self, s: Src) -> u8 {
        self.func.src_components(s)
    }

    /// A vector of scalar sources (the source itself for one).
    pub fn vec(&mut self, comps: &[Src]) -> Result<Src, ImportError> {
        match comps.len() {
            1 => Ok(comps[0]),
            n => {
                let op = AluOp::vec(n as u8)
                    .ok_or_else(|| self.internal(format!("a vector of {n} components")))?;
                Ok(Src::new(self.alu(op, comps)?))
            }
        }
    }

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

    /// Starts a loop; the cursor is in its header.
    pub fn push_loop(&mut self) -> LoopId {
        self.build(|b| b.push_loop())
    }

    /// Moves after the loop.
    pub fn pop_loop(&mut self, id: LoopId) {
        self.build(|b| b.pop_loop(id))
    }

    /// Ends the current block with a jump; the cursor becomes unreachable.
    pub fn jump(&mut self, j: Jump) {
        self.build(|b| b.jump(j));
        self.live = false;
    }

    /// The block before a loop (its entry edge).
    pub fn block_before(&self, id: LoopId) -> Result<Block, ImportError> {
        match self.func.prev_node(CfNode::Loop(id)) {
            Some(CfNode::Block(b)) => Ok(b),
            _ => Err(self.internal("a loop without a block before it")),
        }
    }

    // ----- promoted variables --------------------------------------------------------

    /// Merges the states reaching the cursor's block from `preds` (its predecessors
    /// that are reachable): values that differ get phis at the cursor, which must be
    /// the start of the block. A variable missing from a state is out of scope and
    /// dropped.
    pub fn merge(&mut self, preds: Vec<(Block, VarState)>) -> Result<(), ImportError> {
        let mut preds = preds.into_iter();
        let Some((first_block, first)) = preds.next() else {
            self.live = false;
            return Ok(());
        };
        let rest: Vec<(Block, VarState)> = preds.collect();
        let mut out = VarState::new();
        for (key, val) in first {
            let others: Option<Vec<&Val>> = rest.iter().map(|(_, s)| s.get(&key)).collect();
            let Some(others) = others else { continue };
            if others.iter().all(|v| **v == val) {
                out.insert(key, val);
                continue;
            }
            let leaves = val.leaves();
            let other_leaves: Vec<Vec<Src>> = others.iter().map(|v| v.leaves()).collect();
            let mut merged = Vec::with_capacity(leaves.len());
            for (i, &leaf) in leaves.iter().enumerate() {
                let same = other_leaves.iter().all(|l| l.get(i) == Some(&leaf));
                if same {
                    merged.push(leaf);
                    continue;
                }
                let ty = self.src_type(leaf);
                let mut srcs = vec![(first_block, leaf)];
                for ((b, _), l) in rest.iter().zip(&other_leaves) {
                    let s = *l
                        .get(i)
                        .ok_or_else(|| self.internal("states of different shapes"))?;
                    srcs.push((*b, s));
                }
                merged.push(Src::new(self.build(|b| b.phi(ty, &srcs))));
            }
            let v = val
                .with_leaves(&mut merged.into_iter())
                .ok_or_else(|| self.internal("a merged state lost leaves"))?;
            out.insert(key, v);
        }
        self.vars = out;
        self.live = true;
        Ok(())
    }

    /// Whether a source reads a constant (the components, if so).
    pub fn const_of(&self, s: Src) -> Option<Vec<u64>> {
        ir::passes::const_fold::const_components(&self.func, s).map(|c| c.to_vec())
    }

    /// The IR bit size of a naga scalar (1 for booleans); abstract types, which naga's
    /// front ends concretize, are an error.
    pub fn scalar_bits(&self, s: Scalar) -> Result<u8, ImportError> {
        match s.kind {
            ScalarKind::Bool => Ok(1),
            ScalarKind::AbstractInt | ScalarKind::AbstractFloat => {
                Err(self.internal("an abstract type reached a function body"))
            }
            _ => match s.width {
                2 => Ok(16),
                4 => Ok(32),
                8 => Ok(64),
                w => Err(self.unsupported(
                    &format!("a {}-bit {:?}", w as u32 * 8, s.kind),
                    "the IR has 16-, 32- and 64-bit numbers",
                )),
            },
        }
    }

    /// A zero (`false`, `0`, `0.0`) of a naga type, as a value tree.
    pub fn zero_of(&mut self, ty: &TypeInner) -> Result<Val, ImportError> {
        self.fill_of(ty, &mut |_| 0)
    }

    /// An `undef` of a naga type, as a value tree.
    pub fn undef_of(&mut self, ty: &TypeInner) -> Result<Val, ImportError> {
        let leaves = self.leaf_types(ty)?;
        let mut vals = Vec::with_capacity(leaves.len());
        for t in leaves {
            vals.push(Src::new(self.build(|b| b.undef(t))));
        }
        self.shape_of(ty, &mut vals.into_iter())
    }

    /// A value tree of `ty` whose scalars are the constant `bits(scalar)`.
    pub fn fill_of(
        &mut self,
        ty: &TypeInner,
        bits: &mut dyn FnMut(Scalar) -> u64,
    ) -> Result<Val, ImportError> {
        let types = &self.module.types;
        match ty {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => {
                let b = self.scalar_bits(*s)?;
                Ok(Val::Leaf(self.imm(b, bits(*s))?))
            }
            TypeInner::Vector { size, scalar } => {
                let b = self.scalar_bits(*scalar)?;
                let n = *size as u8;
                let t = Type::new(b, n).ok_or_else(|| self.internal("vector type"))?;
                let v = bits(*scalar);
                Ok(Val::Leaf(Src::new(self.constant(t, &vec![v; n as usize]))))
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let col = TypeInner::Vector {
                    size: *rows,
                    scalar: *scalar,
                };
                let mut out = Vec::new();
                for _ in 0..*columns as u8 {
                    out.push(self.fill_of(&col, bits)?);
                }
                Ok(Val::Comp(out))
            }
            TypeInner::Array { base, size, .. } => {
                let n = self.array_len(*size)?;
                let inner = types[*base].inner.clone();
                let mut out = Vec::new();
                for _ in 0..n {
                    out.push(self.fill_of(&inner, bits)?);
                }
                Ok(Val::Comp(out))
            }
            TypeInner::Struct { members, .. } => {
                let mut out = Vec::new();
                for m in members.clone() {
                    let inner = types[m.ty].inner.clone();
                    out.push(self.fill_of(&inner, bits)?);
                }
                Ok(Val::Comp(out))
            }
            other => Err(self.unsupported(
                &format!(
                    "a value of type {}",
                    crate::oracle::resources::type_name(other)
                ),
                "the IR has no such values",
            )),
        }
    }

    /// The IR types of the leaves of a naga type, in order.
    pub fn leaf_types(&self, ty: &TypeInner) -> Result<Vec<Type>, ImportError> {
        let mut out = Vec::new();
        self.collect_leaf_types(ty, &mut out)?;
        Ok(out)
    }

    fn collect_leaf_types(&self, ty: &TypeInner, out: &mut Vec<Type>) -> Result<(), ImportError> {
        if out.len() > MAX_PROMOTED_LEAVES {
            return Err(self.error(
                ErrorKind::Limit,
                format!(
                    "a value of more than {MAX_PROMOTED_LEAVES} scalars and vectors: the IR keeps \
                     function variables in registers, and has no scratch memory for larger ones"
                ),
            ));
        }
        let types = &self.module.types;
        match ty {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => out
                .push(Type::scalar(self.scalar_bits(*s)?).ok_or_else(|| self.internal("scalar"))?),
            TypeInner::Vector { size, scalar } => out.push(
                Type::new(self.scalar_bits(*scalar)?, *size as u8)
                    .ok_or_else(|| self.internal("vector"))?,
            ),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let t = Type::new(self.scalar_bits(*scalar)?, *rows as u8)
                    .ok_or_else(|| self.internal("column"))?;
                out.extend(std::iter::repeat_n(t, *columns as usize));
            }
            TypeInner::Array { base, size, .. } => {
                let n = self.array_len(*size)?;
                for _ in 0..n {
                    self.collect_leaf_types(&types[*base].inner, out)?;
                    if out.len() > MAX_PROMOTED_LEAVES {
                        return self.collect_leaf_types(ty, out);
                    }
                }
            }
            TypeInner::Struct { members, .. } => {
                for m in members {
                    self.collect_leaf_types(&types[m.ty].inner, out)?;
                }
            }
            other => {
                return Err(self.unsupported(
                    &format!(
                        "a value of type {}",
                        crate::oracle::resources::type_name(other)
                    ),
                    "the IR has no such values",
                ))
            }
        }
        Ok(())
    }

    /// Rebuilds the shape of `ty` around leaves taken in order from `leaves`.
    pub fn shape_of(
        &self,
        ty: &TypeInner,
        leaves: &mut impl Iterator<Item = Src>,
    ) -> Result<Val, ImportError> {
        let types = &self.module.types;
        let missing = || self.internal("too few leaves for a type");
        Ok(match ty {
            TypeInner::Scalar(_) | TypeInner::Atomic(_) | TypeInner::Vector { .. } => {
                Val::Leaf(leaves.next().ok_or_else(missing)?)
            }
            TypeInner::Matrix { columns, .. } => Val::Comp(
                (0..*columns as u8)
                    .map(|_| leaves.next().map(Val::Leaf).ok_or_else(missing))
                    .collect::<Result<_, _>>()?,
            ),
            TypeInner::Array { base, size, .. } => {
                let n = self.array_len(*size)?;
                let mut out = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    out.push(self.shape_of(&types[*base].inner, leaves)?);
                }
                Val::Comp(out)
            }
            TypeInner::Struct { members, .. } => {
                let mut out = Vec::with_capacity(members.len());
                for m in members {
                    out.push(self.shape_of(&types[m.ty].inner, leaves)?);
                }
                Val::Comp(out)
            }
            other => {
                return Err(self.unsupported(
                    &format!(
                        "a value of type {}",
                        crate::oracle::resources::type_name(other)
                    ),
                    "the IR has no such values",
                ))
            }
        })
    }

    /// The length of a constant-sized array.
    pub fn array_len(&self, size: naga::ArraySize) -> Result<u32, ImportError> {
        match size {
            naga::ArraySize::Constant(n) => Ok(n.get()),
            _ => Err(self.unsupported(
                "a runtime-sized array outside a storage buffer",
                "its length is not known when the shader is compiled",
            )),
        }
    }

    /// Replaces an instruction's kind (used to turn a placeholder into a phi source).
    pub fn set_kind(&mut self, v: Value, kind: InstKind) -> Result<(), ImportError> {
        let def = self.func.value_def(v).ok_or_else(|| {
            self.internal(format!("{} has no definition", self.func.value_name(v)))
        })?;
        self.func.inst_mut(def).kind = kind;
        Ok(())
    }
}
