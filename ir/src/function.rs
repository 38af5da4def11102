//! Functions: instruction, value and block arenas, plus their layout.
//!
//! Data and layout are kept apart, as in Cranelift: instructions, values and blocks live
//! in arenas indexed by typed ids, while the order of instructions inside a block is a
//! doubly-linked list and the structured control flow is a tree of `if` and `loop` nodes
//! over blocks, with NIR's shape: every control-flow list starts and ends with a block,
//! and blocks alternate with `if`/`loop` nodes. Removing an instruction only unlinks it,
//! so ids stay stable while a pass runs.

use crate::alu::AluOp;
use crate::entity::{Block, IfId, Inst, LoopId, Value};
use crate::image::ImageRef;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::span::Span;
use crate::types::{Src, Type};
use smallvec::SmallVec;
use std::collections::HashMap;

/// An ALU instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AluInst {
    /// The opcode.
    pub op: AluOp,
    /// The sources, one per input of the opcode.
    pub srcs: SmallVec<[Src; 3]>,
}

/// An intrinsic instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntrinsicInst {
    /// The opcode.
    pub op: IntrinsicOp,
    /// The image operand, for intrinsics that name one.
    pub image: Option<ImageRef>,
    /// The sources; a predicable intrinsic may end with a 1-bit predicate.
    pub srcs: SmallVec<[Src; 4]>,
    /// Constant indices, in the order of the opcode's `IntrinsicInfo::indices`.
    pub indices: SmallVec<[u32; 6]>,
}

impl IntrinsicInst {
    /// The encoded value of index `kind`, if the opcode has it.
    pub fn index(&self, kind: IndexKind) -> Option<u32> {
        let pos = self.op.index_position(kind)?;
        self.indices.get(pos).copied()
    }

    /// Sets index `kind`; returns false if the opcode has no such index.
    pub fn set_index(&mut self, kind: IndexKind, value: u32) -> bool {
        match self.op.index_position(kind) {
            Some(pos) if pos < self.indices.len() => {
                self.indices[pos] = value;
                true
            }
            _ => false,
        }
    }

    /// The predicate of a predicated message (`if %p` in text): the source after the
    /// ones the opcode takes.
    pub fn predicate(&self) -> Option<Src> {
        if !self.op.info().predicable {
            return None;
        }
        let n = self.op.srcs(&self.indices)?.len();
        (self.srcs.len() == n + 1).then(|| self.srcs[n])
    }
}

/// A phi: one source per predecessor block.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Phi {
    /// `(predecessor, value)` pairs.
    pub srcs: SmallVec<[(Block, Src); 2]>,
}

/// What an instruction does.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum InstKind {
    /// An ALU operation.
    Alu(AluInst),
    /// Constants, one `u64` per component holding the bits (masked to the bit size).
    LoadConst(SmallVec<[u64; 4]>),
    /// An undefined value.
    Undef,
    /// A phi.
    Phi(Phi),
    /// An intrinsic. Boxed: an intrinsic carries up to four sources, an image operand
    /// and six indices, and unboxed it would double the size of every instruction
    /// (most are ALU operations), which the passes pay for in memory traffic.
    Intrinsic(Box<IntrinsicInst>),
}

/// An instruction: what it does and the value it defines, if any.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InstData {
    /// The operation.
    pub kind: InstKind,
    /// The defined value.
    pub dest: Option<Value>,
}

impl InstData {
    /// The sources read by this instruction, in order (for intrinsics, the image index
    /// comes first).
    pub fn srcs(&self) -> SmallVec<[Src; 6]> {
        let mut out = SmallVec::new();
        match &self.kind {
            InstKind::Alu(a) => out.extend(a.srcs.iter().copied()),
            InstKind::Phi(p) => out.extend(p.srcs.iter().map(|(_, s)| *s)),
            InstKind::Intrinsic(i) => {
                if let Some(idx) = i.image.and_then(|r| r.index) {
                    out.push(idx);
                }
                out.extend(i.srcs.iter().copied());
            }
            InstKind::LoadConst(_) | InstKind::Undef => {}
        }
        out
    }

    /// Calls `f` on every source, allowing it to be rewritten.
    pub fn for_each_src_mut(&mut self, mut f: impl FnMut(&mut Src)) {
        match &mut self.kind {
            InstKind::Alu(a) => a.srcs.iter_mut().for_each(f),
            InstKind::Phi(p) => p.srcs.iter_mut().for_each(|(_, s)| f(s)),
            InstKind::Intrinsic(i) => {
                if let Some(idx) = i.image.as_mut().and_then(|r| r.index.as_mut()) {
                    f(idx);
                }
                i.srcs.iter_mut().for_each(f);
            }
            InstKind::LoadConst(_) | InstKind::Undef => {}
        }
    }

    /// The ALU part, if this is an ALU instruction.
    pub fn as_alu(&self) -> Option<&AluInst> {
        match &self.kind {
            InstKind::Alu(a) => Some(a),
            _ => None,
        }
    }

    /// The intrinsic part, if this is an intrinsic.
    pub fn as_intrinsic(&self) -> Option<&IntrinsicInst> {
        match &self.kind {
            InstKind::Intrinsic(i) => Some(i),
            _ => None,
        }
    }

    /// The constants, if this is a `load_const`.
    pub fn as_const(&self) -> Option<&[u64]> {
        match &self.kind {
            InstKind::LoadConst(c) => Some(c),
            _ => None,
        }
    }

    /// Whether this is a phi.
    pub fn is_phi(&self) -> bool {
        matches!(self.kind, InstKind::Phi(_))
    }
}

/// A jump ending a block.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Jump {
    /// Leave the innermost loop.
    Break,
    /// Start the next iteration of the innermost loop.
    Continue,
}

impl Jump {
    /// The keyword.
    pub fn name(self) -> &'static str {
        match self {
            Jump::Break => "break",
            Jump::Continue => "continue",
        }
    }
}

/// A node of a control-flow list.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CfNode {
    /// A basic block.
    Block(Block),
    /// An `if`.
    If(IfId),
    /// A `loop`.
    Loop(LoopId),
}

/// Which list a control-flow node sits in.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CfParent {
    /// The function body.
    Root,
    /// The `then` list of an `if`.
    Then(IfId),
    /// The `else` list of an `if`.
    Else(IfId),
    /// The body of a `loop`.
    Loop(LoopId),
}

/// An `if` node.
#[derive(Clone, Debug)]
pub struct IfData {
    /// The 1-bit condition.
    pub cond: Src,
    /// Nodes run when the condition is true.
    pub then_list: Vec<CfNode>,
    /// Nodes run when it is false.
    pub else_list: Vec<CfNode>,
    /// Where the node sits.
    pub parent: CfParent,
    /// Source position of the `if` keyword.
    pub span: Span,
}

/// A `loop` node.
#[derive(Clone, Debug)]
pub struct LoopData {
    /// The body; its first block is the loop header.
    pub body: Vec<CfNode>,
    /// Where the node sits.
    pub parent: CfParent,
    /// Source position of the `loop` keyword.
    pub span: Span,
}

/// A value: its type and defining instruction.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ValueData {
    /// The type.
    pub ty: Type,
    /// The defining instruction; `None` for a reserved id that was never defined.
    pub def: Option<Inst>,
}

/// A block: its instruction list, jump and position in the tree.
#[derive(Clone, Debug)]
pub struct BlockData {
    first: Option<Inst>,
    last: Option<Inst>,
    /// The jump ending the block, if any.
    pub jump: Option<Jump>,
    /// Where the block sits; `None` for blocks not in the tree.
    pub parent: Option<CfParent>,
    /// Source position of the block label.
    pub span: Span,
}

#[derive(Copy, Clone, Debug, Default)]
struct InstNode {
    block: Option<Block>,
    prev: Option<Inst>,
    next: Option<Inst>,
}

/// An insertion point, as NIR's `nir_cursor`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Cursor {
    /// Before an instruction.
    Before(Inst),
    /// After an instruction.
    After(Inst),
    /// At the start of a block (before its phis).
    BlockStart(Block),
    /// At the end of a block (before its jump).
    BlockEnd(Block),
}

/// A function.
#[derive(Clone, Debug)]
pub struct Function {
    /// The name (`main` for the entry point).
    pub name: String,
    /// Source position of the `fn` keyword.
    pub span: Span,
    insts: Vec<InstData>,
    nodes: Vec<InstNode>,
    spans: Vec<Span>,
    values: Vec<ValueData>,
    blocks: Vec<BlockData>,
    ifs: Vec<IfData>,
    loops: Vec<LoopData>,
    body: Vec<CfNode>,
}

impl Function {
    /// A function whose body is one empty block, `b0`.
    pub fn new(name: impl Into<String>) -> Function {
        let mut f = Function::empty(name);
        let b = f.create_block(CfParent::Root);
        f.body.push(CfNode::Block(b));
        f
    }

    /// A function with an empty body (no blocks at all). Used by the parser, which creates
    /// blocks with the ids written in the text; the body must get at least one block
    /// before the function is valid.
    pub fn empty(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            span: Span::UNKNOWN,
            insts: Vec::new(),
            nodes: Vec::new(),
            spans: Vec::new(),
            values: Vec::new(),
            blocks: Vec::new(),
            ifs: Vec::new(),
            loops: Vec::new(),
            body: Vec::new(),
        }
    }

    // ----- arenas -------------------------------------------------------------------

    /// Number of instruction ids allocated (live or not).
    pub fn num_inst_ids(&self) -> usize {
        self.insts.len()
    }

    /// Number of value ids allocated (live or not).
    pub fn num_value_ids(&self) -> usize {
        self.values.len()
    }

    /// Number of block ids allocated (in the tree or not).
    pub fn num_block_ids(&self) -> usize {
        self.blocks.len()
    }

    /// The data of an instruction.
    pub fn inst(&self, inst: Inst) -> &InstData {
        &self.insts[inst.index()]
    }

    /// The data of an instruction, mutably.
    pub fn inst_mut(&mut self, inst: Inst) -> &mut InstData {
        &mut self.insts[inst.index()]
    }

    /// The source position of an instruction.
    pub fn inst_span(&self, inst: Inst) -> Span {
        self.spans[inst.index()]
    }

    /// Sets the source position of an instruction.
    pub fn set_inst_span(&mut self, inst: Inst, span: Span) {
        self.spans[inst.index()] = span;
    }

    /// The block holding an instruction, or `None` if it was removed.
    pub fn inst_block(&self, inst: Inst) -> Option<Block> {
        self.nodes[inst.index()].block
    }

    /// The instruction after `inst` in its block.
    pub fn next_inst(&self, inst: Inst) -> Option<Inst> {
        self.nodes[inst.index()].next
    }

    /// The instruction before `inst` in its block.
    pub fn prev_inst(&self, inst: Inst) -> Option<Inst> {
        self.nodes[inst.index()].prev
    }

    /// Whether `value` is defined by an instruction that is in the layout.
    pub fn is_value_live(&self, value: Value) -> bool {
        self.values
            .get(value.index())
            .and_then(|v| v.def)
            .is_some_and(|d| self.inst_block(d).is_some())
    }

    /// The data of a value.
    pub fn value(&self, value: Value) -> &ValueData {
        &self.values[value.index()]
    }

    /// The type of a value.
    pub fn value_type(&self, value: Value) -> Type {
        self.values[value.index()].ty
    }

    /// The instruction defining a value.
    pub fn value_def(&self, value: Value) -> Option<Inst> {
        self.values[value.index()].def
    }

    /// The number of components a source reads: its swizzle length, or all of the value.
    pub fn src_components(&self, src: Src) -> u8 {
        if src.swizzle.is_identity() {
            self.value_type(src.value).num_components()
        } else {
            src.swizzle.len()
        }
    }

    /// The type of what a source reads.
    pub fn src_type(&self, src: Src) -> Type {
        let ty = self.value_type(src.value);
        Type::new(ty.bit_size(), self.src_components(src)).unwrap_or(ty)
    }

    /// The data of a block.
    pub fn block(&self, block: Block) -> &BlockData {
        &self.blocks[block.index()]
    }

    /// The data of a block, mutably.
    pub fn block_mut(&mut self, block: Block) -> &mut BlockData {
        &mut self.blocks[block.index()]
    }

    /// The data of an `if`.
    pub fn if_data(&self, id: IfId) -> &IfData {
        &self.ifs[id.index()]
    }

    /// The data of an `if`, mutably.
    pub fn if_data_mut(&mut self, id: IfId) -> &mut IfData {
        &mut self.ifs[id.index()]
    }

    /// The data of a `loop`.
    pub fn loop_data(&self, id: LoopId) -> &LoopData {
        &self.loops[id.index()]
    }

    /// Number of `if` ids allocated.
    pub fn num_if_ids(&self) -> usize {
        self.ifs.len()
    }

    /// Number of `loop` ids allocated.
    pub fn num_loop_ids(&self) -> usize {
        self.loops.len()
    }

    /// The function body.
    pub fn body(&self) -> &[CfNode] {
        &self.body
    }

    /// The list `parent` designates.
    pub fn cf_list(&self, parent: CfParent) -> &[CfNode] {
        match parent {
            CfParent::Root => &self.body,
            CfParent::Then(i) => &self.ifs[i.index()].then_list,
            CfParent::Else(i) => &self.ifs[i.index()].else_list,
            CfParent::Loop(l) => &self.loops[l.index()].body,
        }
    }

    /// The list `parent` designates, mutably. The caller keeps NIR's shape and the
    /// `parent` fields of the nodes it moves (passes that rebuild whole lists, such as
    /// dead control-flow removal, use this to stay linear in the list length).
    pub fn cf_list_mut(&mut self, parent: CfParent) -> &mut Vec<CfNode> {
        match parent {
            CfParent::Root => &mut self.body,
            CfParent::Then(i) => &mut self.ifs[i.index()].then_list,
            CfParent::Else(i) => &mut self.ifs[i.index()].else_list,
            CfParent::Loop(l) => &mut self.loops[l.index()].body,
        }
    }

    // ----- creation -----------------------------------------------------------------

    /// Creates an instruction that is not yet in any block. Allocates its destination
    /// value when `dest` is given.
    pub fn create_inst(&mut self, kind: InstKind, dest: Option<Type>, span: Span) -> Inst {
        let inst = Inst::from_u32(self.insts.len() as u32);
        let dest = dest.map(|ty| {
            let v = Value::from_u32(self.values.len() as u32);
            self.values.push(ValueData {
                ty,
                def: Some(inst),
            });
            v
        });
        self.insts.push(InstData { kind, dest });
        self.nodes.push(InstNode::default());
        self.spans.push(span);
        inst
    }

    /// Creates an instruction defining the given value id, which must be free (reserved
    /// but undefined, or beyond the arena). Used by the parser to keep the ids of the text.
    /// Returns `None` if the id is already defined.
    pub fn create_inst_with_dest(
        &mut self,
        kind: InstKind,
        dest: Value,
        ty: Type,
        span: Span,
    ) -> Option<Inst> {
        self.reserve_value(dest);
        if self.values[dest.index()].def.is_some() {
            return None;
        }
        let inst = self.create_inst(kind, None, span);
        self.values[dest.index()] = ValueData {
            ty,
            def: Some(inst),
        };
        self.insts[inst.index()].dest = Some(dest);
        Some(inst)
    }

    /// Makes sure `value` is a valid index into the value arena, padding with undefined
    /// placeholder entries.
    pub fn reserve_value(&mut self, value: Value) {
        while self.values.len() <= value.index() {
            self.values.push(ValueData {
                ty: Type::U32,
                def: None,
            });
        }
    }

    /// Makes sure `block` is a valid index into the block arena, padding with blocks that
    /// are not in the tree.
    pub fn reserve_block(&mut self, block: Block) {
        while self.blocks.len() <= block.index() {
            self.blocks.push(BlockData {
                first: None,
                last: None,
                jump: None,
                parent: None,
                span: Span::UNKNOWN,
            });
        }
    }

    /// Creates a new block that is not yet placed in a list (its parent is recorded).
    pub fn create_block(&mut self, parent: CfParent) -> Block {
        let b = Block::from_u32(self.blocks.len() as u32);
        self.reserve_block(b);
        self.blocks[b.index()].parent = Some(parent);
        b
    }

    /// Appends a node to the end of a list, setting its parent. The caller keeps the
    /// alternation of blocks and `if`/`loop` nodes.
    pub fn append_cf_node(&mut self, parent: CfParent, node: CfNode) {
        self.set_parent(node, parent);
        self.cf_list_mut(parent).push(node);
    }

    /// Creates an `if` node (not yet placed) with empty lists.
    pub fn create_if(&mut self, cond: Src, parent: CfParent, span: Span) -> IfId {
        let id = IfId::from_u32(self.ifs.len() as u32);
        self.ifs.push(IfData {
            cond,
            then_list: Vec::new(),
            else_list: Vec::new(),
            parent,
            span,
        });
        id
    }

    /// Creates a `loop` node (not yet placed) with an empty body.
    pub fn create_loop(&mut self, parent: CfParent, span: Span) -> LoopId {
        let id = LoopId::from_u32(self.loops.len() as u32);
        self.loops.push(LoopData {
            body: Vec::new(),
            parent,
            span,
        });
        id
    }

    fn set_parent(&mut self, node: CfNode, parent: CfParent) {
        match node {
            CfNode::Block(b) => self.blocks[b.index()].parent = Some(parent),
            CfNode::If(i) => self.ifs[i.index()].parent = parent,
            CfNode::Loop(l) => self.loops[l.index()].parent = parent,
        }
    }

    // ----- instruction layout -------------------------------------------------------

    /// The instructions of a block, in order.
    pub fn block_insts(&self, block: Block) -> BlockInsts<'_> {
        BlockInsts {
            func: self,
            next: self.blocks[block.index()].first,
        }
    }

    /// The first instruction of a block.
    pub fn first_inst(&self, block: Block) -> Option<Inst> {
        self.blocks[block.index()].first
    }

    /// The last instruction of a block.
    pub fn last_inst(&self, block: Block) -> Option<Inst> {
        self.blocks[block.index()].last
    }

    /// Inserts an unplaced instruction at `cursor`; returns the cursor after it.
    pub fn insert_inst(&mut self, inst: Inst, cursor: Cursor) -> Cursor {
        debug_assert!(
            self.nodes[inst.index()].block.is_none(),
            "instruction already placed"
        );
        let (block, prev, next) = match cursor {
            Cursor::Before(at) => {
                let n = self.nodes[at.index()];
                (
                    n.block.expect("cursor on a removed instruction"),
                    n.prev,
                    Some(at),
                )
            }
            Cursor::After(at) => {
                let n = self.nodes[at.index()];
                (
                    n.block.expect("cursor on a removed instruction"),
                    Some(at),
                    n.next,
                )
            }
            Cursor::BlockStart(b) => (b, None, self.blocks[b.index()].first),
            Cursor::BlockEnd(b) => (b, self.blocks[b.index()].last, None),
        };
        self.nodes[inst.index()] = InstNode {
            block: Some(block),
            prev,
            next,
        };
        match prev {
            Some(p) => self.nodes[p.index()].next = Some(inst),
            None => self.blocks[block.index()].first = Some(inst),
        }
        match next {
            Some(n) => self.nodes[n.index()].prev = Some(inst),
            None => self.blocks[block.index()].last = Some(inst),
        }
        Cursor::After(inst)
    }

    /// Removes an instruction from its block. Its id and value stay allocated but are no
    /// longer live; uses of the value must have been rewritten.
    pub fn remove_inst(&mut self, inst: Inst) {
        let n = self.nodes[inst.index()];
        let Some(block) = n.block else { return };
        match n.prev {
            Some(p) => self.nodes[p.index()].next = n.next,
            None => self.blocks[block.index()].first = n.next,
        }
        match n.next {
            Some(x) => self.nodes[x.index()].prev = n.prev,
            None => self.blocks[block.index()].last = n.prev,
        }
        self.nodes[inst.index()] = InstNode::default();
    }

    /// The block a cursor points into.
    pub fn cursor_block(&self, cursor: Cursor) -> Option<Block> {
        match cursor {
            Cursor::Before(i) | Cursor::After(i) => self.inst_block(i),
            Cursor::BlockStart(b) | Cursor::BlockEnd(b) => Some(b),
        }
    }

    // ----- control flow -------------------------------------------------------------

    /// Every block of the tree, in program (print) order.
    pub fn blocks_in_order(&self) -> Vec<Block> {
        let mut out = Vec::with_capacity(self.blocks.len());
        self.collect_blocks(&self.body, &mut out);
        out
    }

    fn collect_blocks(&self, list: &[CfNode], out: &mut Vec<Block>) {
        for node in list {
            match *node {
                CfNode::Block(b) => out.push(b),
                CfNode::If(i) => {
                    let d = &self.ifs[i.index()];
                    self.collect_blocks(&d.then_list, out);
                    self.collect_blocks(&d.else_list, out);
                }
                CfNode::Loop(l) => self.collect_blocks(&self.loops[l.index()].body, out),
            }
        }
    }

    /// Every live instruction, in program order.
    pub fn insts_in_order(&self) -> Vec<Inst> {
        let mut out = Vec::with_capacity(self.insts.len());
        for b in self.blocks_in_order() {
            out.extend(self.block_insts(b));
        }
        out
    }

    /// The position of a node in its parent list (searched from the end, so that the
    /// common case of building at the end of a list is constant time).
    pub fn position_in_parent(&self, node: CfNode, parent: CfParent) -> Option<usize> {
        self.cf_list(parent).iter().rposition(|n| *n == node)
    }

    /// The parent list of a node.
    pub fn node_parent(&self, node: CfNode) -> Option<CfParent> {
        match node {
            CfNode::Block(b) => self.blocks[b.index()].parent,
            CfNode::If(i) => Some(self.ifs[i.index()].parent),
            CfNode::Loop(l) => Some(self.loops[l.index()].parent),
        }
    }

    /// The node following `node` in its list.
    pub fn next_node(&self, node: CfNode) -> Option<CfNode> {
        let parent = self.node_parent(node)?;
        let pos = self.position_in_parent(node, parent)?;
        self.cf_list(parent).get(pos + 1).copied()
    }

    /// The node preceding `node` in its list.
    pub fn prev_node(&self, node: CfNode) -> Option<CfNode> {
        let parent = self.node_parent(node)?;
        let pos = self.position_in_parent(node, parent)?;
        pos.checked_sub(1).map(|p| self.cf_list(parent)[p])
    }

    /// The first block of a list, if it starts with one.
    pub fn first_block(&self, parent: CfParent) -> Option<Block> {
        match self.cf_list(parent).first() {
            Some(CfNode::Block(b)) => Some(*b),
            _ => None,
        }
    }

    /// The last block of a list, if it ends with one.
    pub fn last_block(&self, parent: CfParent) -> Option<Block> {
        match self.cf_list(parent).last() {
            Some(CfNode::Block(b)) => Some(*b),
            _ => None,
        }
    }

    /// The innermost loop enclosing a node.
    pub fn enclosing_loop(&self, node: CfNode) -> Option<LoopId> {
        let mut parent = self.node_parent(node)?;
        loop {
            match parent {
                CfParent::Root => return None,
                CfParent::Loop(l) => return Some(l),
                CfParent::Then(i) | CfParent::Else(i) => parent = self.ifs[i.index()].parent,
            }
        }
    }

    /// The block control reaches after leaving `node` (the node after it in its list,
    /// which NIR's shape makes a block).
    fn block_after(&self, node: CfNode) -> Option<Block> {
        match self.next_node(node) {
            Some(CfNode::Block(b)) => Some(b),
            _ => None,
        }
    }

    /// The successors of a block in the control-flow graph, derived from the tree.
    /// Returns an empty list for the last block of the function and for blocks whose
    /// neighbourhood violates NIR's shape (the validator reports those).
    pub fn successors(&self, block: Block) -> SmallVec<[Block; 2]> {
        let mut out = SmallVec::new();
        let node = CfNode::Block(block);
        if let Some(jump) = self.blocks[block.index()].jump {
            if let Some(l) = self.enclosing_loop(node) {
                let target = match jump {
                    Jump::Break => self.block_after(CfNode::Loop(l)),
                    Jump::Continue => self.first_block(CfParent::Loop(l)),
                };
                out.extend(target);
            }
            return out;
        }
        match self.next_node(node) {
            Some(CfNode::If(i)) => {
                out.extend(self.first_block(CfParent::Then(i)));
                out.extend(self.first_block(CfParent::Else(i)));
            }
            Some(CfNode::Loop(l)) => out.extend(self.first_block(CfParent::Loop(l))),
            Some(CfNode::Block(_)) => {}
            None => match self.blocks[block.index()].parent {
                Some(CfParent::Then(i)) | Some(CfParent::Else(i)) => {
                    out.extend(self.block_after(CfNode::If(i)))
                }
                Some(CfParent::Loop(l)) => out.extend(self.first_block(CfParent::Loop(l))),
                Some(CfParent::Root) | None => {}
            },
        }
        out
    }

    /// The predecessors of every block of the tree, in program order of the predecessor.
    pub fn predecessors(&self) -> HashMap<Block, SmallVec<[Block; 2]>> {
        let mut preds: HashMap<Block, SmallVec<[Block; 2]>> = HashMap::new();
        for b in self.blocks_in_order() {
            preds.entry(b).or_default();
            for s in self.successors(b) {
                preds.entry(s).or_default().push(b);
            }
        }
        preds
    }

    /// Splits the block at `cursor`: the instructions after the cursor, and the jump,
    /// move to a new block, which is returned and placed right after the old block in
    /// its list. The caller must then insert an `if` or `loop` node between the two
    /// (see [`Function::insert_cf_after`]) to restore NIR's shape. Phis in the old
    /// block's successors are updated to name the new block.
    pub fn split_block(&mut self, cursor: Cursor) -> Block {
        let block = self
            .cursor_block(cursor)
            .expect("cursor in a removed instruction");
        let old_succs = self.successors(block);
        let parent = self.blocks[block.index()]
            .parent
            .expect("split of a block not in the tree");
        let tail_start = match cursor {
            Cursor::Before(i) => Some(i),
            Cursor::After(i) => self.next_inst(i),
            Cursor::BlockStart(b) => self.first_inst(b),
            Cursor::BlockEnd(_) => None,
        };
        let new_block = self.create_block(parent);
        let mut cur = tail_start;
        while let Some(i) = cur {
            cur = self.next_inst(i);
            self.remove_inst(i);
            self.insert_inst(i, Cursor::BlockEnd(new_block));
        }
        let jump = self.blocks[block.index()].jump.take();
        self.blocks[new_block.index()].jump = jump;
        let pos = self
            .position_in_parent(CfNode::Block(block), parent)
            .expect("block not in its parent list");
        self.cf_list_mut(parent)
            .insert(pos + 1, CfNode::Block(new_block));
        for s in old_succs {
            self.rename_phi_pred(s, block, new_block);
        }
        new_block
    }

    /// Inserts `node` right after `block` in the block's list.
    pub fn insert_cf_after(&mut self, block: Block, node: CfNode) {
        let parent = self.blocks[block.index()]
            .parent
            .expect("block not in the tree");
        let pos = self
            .position_in_parent(CfNode::Block(block), parent)
            .expect("block not in its parent list");
        self.set_parent(node, parent);
        self.cf_list_mut(parent).insert(pos + 1, node);
    }

    /// Rewrites the phis of `block` so that sources from `old` come from `new`.
    pub fn rename_phi_pred(&mut self, block: Block, old: Block, new: Block) {
        let insts: Vec<Inst> = self.block_insts(block).collect();
        for i in insts {
            if let InstKind::Phi(p) = &mut self.insts[i.index()].kind {
                for (pred, _) in p.srcs.iter_mut() {
                    if *pred == old {
                        *pred = new;
                    }
                }
            }
        }
    }

    // ----- rewriting ----------------------------------------------------------------

    /// Rewrites every use of the values in `map` (instruction sources, phi sources,
    /// image indices and `if` conditions) in one sweep. A replacement with a swizzle is
    /// composed with the use's swizzle. Chains (`a -> b`, `b -> c`) are followed.
    pub fn replace_uses(&mut self, map: &HashMap<Value, Src>) {
        if map.is_empty() {
            return;
        }
        let mut dense = vec![None; self.values.len()];
        for (v, s) in map {
            if let Some(slot) = dense.get_mut(v.index()) {
                *slot = Some(*s);
            }
        }
        self.replace_uses_dense(dense);
    }

    /// [`Function::replace_uses`] with the map as a vector indexed by value (it may be
    /// shorter than the value arena): the form passes that number values densely build
    /// directly. The map is consumed: each chain is resolved once, in place, so the
    /// sweep is linear in the size of the function plus the map and allocates no second
    /// map (which would be a hundred megabytes on a shader of millions of values).
    pub fn replace_uses_dense(&mut self, mut map: Vec<Option<Src>>) {
        let entries = map.iter().filter(|s| s.is_some()).count();
        if entries == 0 {
            return;
        }
        // Cycles (callers break them beforehand) keep the capped walk per use of
        // `replace_uses`; otherwise every chain is resolved first.
        let cyclic = map_has_cycle(&map);
        if !cyclic {
            // Composing swizzles is associative and `replace_step` leaves them in one
            // canonical form, so an entry can be replaced by the end of its chain and a
            // use then takes a single step.
            let mut done = vec![false; map.len()];
            let mut path: Vec<Value> = Vec::new();
            for index in 0..map.len() {
                if map[index].is_none() || done[index] {
                    continue;
                }
                let mut cur = Value::from_u32(index as u32);
                while let Some(rep) = map.get(cur.index()).copied().flatten() {
                    if done[cur.index()] {
                        break;
                    }
                    path.push(cur);
                    cur = rep.value;
                }
                // Back to front: the next value of each chain is resolved (or not
                // replaced at all) when its predecessor is.
                while let Some(v) = path.pop() {
                    let rep = map[v.index()].expect("path values are replaced");
                    let mut r = self.replace_step(Src::new(v), rep);
                    if let Some(tail) = map.get(rep.value.index()).copied().flatten() {
                        r = self.replace_step(r, tail);
                    }
                    map[v.index()] = Some(r);
                    done[v.index()] = true;
                }
            }
        }
        let resolve = |func: &Function, src: Src| -> Src {
            let lookup = |v: Value| map.get(v.index()).copied().flatten();
            if !cyclic {
                return match lookup(src.value) {
                    Some(r) => func.replace_step(src, r),
                    None => src,
                };
            }
            let mut cur = src;
            let mut guard = 0;
            while let Some(rep) = lookup(cur.value) {
                cur = func.replace_step(cur, rep);
                guard += 1;
                if guard > entries {
                    break;
                }
            }
            cur
        };
        self.rewrite_srcs(resolve);
    }

    /// Rewrites every use of `v` into a use of `repl[v]` (shorter than the value arena
    /// is fine), keeping the use's swizzle: what [`Function::replace_uses`] does for a
    /// map of whole values of the same type none of which is itself replaced (CSE's
    /// merges), without building that map.
    pub fn replace_values(&mut self, repl: &[Option<Value>]) {
        self.rewrite_srcs(
            |func, src| match repl.get(src.value.index()).copied().flatten() {
                Some(v) => func.replace_step(src, Src::new(v)),
                None => src,
            },
        );
    }

    /// Sets every source of the instructions of the tree and every `if` condition to
    /// `f` of it, in program order.
    fn rewrite_srcs(&mut self, f: impl Fn(&Function, Src) -> Src) {
        for b in self.blocks_in_order() {
            let mut cur = self.blocks[b.index()].first;
            while let Some(i) = cur {
                cur = self.nodes[i.index()].next;
                let mut data = std::mem::replace(&mut self.insts[i.index()].kind, InstKind::Undef);
                {
                    let mut tmp = InstData {
                        kind: data,
                        dest: None,
                    };
                    tmp.for_each_src_mut(|s| *s = f(self, *s));
                    data = tmp.kind;
                }
                self.insts[i.index()].kind = data;
            }
        }
        for id in 0..self.ifs.len() {
            let cond = self.ifs[id].cond;
            self.ifs[id].cond = f(self, cond);
        }
    }

    /// `cur` read through `rep`, the replacement of `cur.value`.
    fn replace_step(&self, cur: Src, rep: Src) -> Src {
        // `compose` needs the component count of the value the replacement reads (not
        // of the value being replaced) to recognise a whole-value selection: `%1 ->
        // %0.xy` of a vec3 `%0` must stay `%0.xy`.
        let rep_comps = self.value_type(rep.value).num_components();
        let mut out = Src {
            value: rep.value,
            swizzle: if cur.swizzle.is_identity() && rep.swizzle.is_identity() {
                crate::types::Swizzle::IDENTITY
            } else {
                cur.swizzle.compose(rep.swizzle, rep_comps)
            },
        };
        if !out.swizzle.is_identity() && out.swizzle.len() == rep_comps {
            let identity = out
                .swizzle
                .components()
                .enumerate()
                .all(|(i, c)| i as u8 == c);
            if identity {
                out.swizzle = crate::types::Swizzle::IDENTITY;
            }
        }
        out
    }

    /// Every `if` node in the tree.
    pub fn ifs_in_order(&self) -> Vec<IfId> {
        let mut out = Vec::new();
        self.walk_nodes(&self.body, &mut |n| {
            if let CfNode::If(i) = n {
                out.push(i)
            }
        });
        out
    }

    /// Calls `f` on every node of the tree, in program order (a node before its
    /// children).
    pub fn walk(&self, mut f: impl FnMut(CfNode)) {
        self.walk_nodes(&self.body, &mut f);
    }

    fn walk_nodes(&self, list: &[CfNode], f: &mut dyn FnMut(CfNode)) {
        for &node in list {
            f(node);
            match node {
                CfNode::Block(_) => {}
                CfNode::If(i) => {
                    let d = &self.ifs[i.index()];
                    self.walk_nodes(&d.then_list, f);
                    self.walk_nodes(&d.else_list, f);
                }
                CfNode::Loop(l) => self.walk_nodes(&self.loops[l.index()].body, f),
            }
        }
    }

    /// Replaces a whole `if` node by the contents of one of its branches, when the
    /// condition is known. The branch's nodes are spliced between the blocks around the
    /// `if`, merging neighbouring blocks so that NIR's shape holds. Phis in the block
    /// after the `if` keep only the source of the taken path.
    ///
    /// Preconditions (the `dce` pass handles the general case): the taken branch does
    /// not end in a jump (the code after the `if` would become unreachable and must be
    /// deleted), and nothing outside the dropped branch uses its values or names its
    /// blocks (a `break` in it feeding a phi after the loop). Panics if the taken
    /// branch ends in a jump.
    pub fn inline_if_branch(&mut self, id: IfId, take_then: bool) {
        let parent = self.ifs[id.index()].parent;
        let pos = self
            .position_in_parent(CfNode::If(id), parent)
            .expect("if not in its list");
        let list = self.cf_list(parent);
        let (CfNode::Block(before), Some(CfNode::Block(after))) =
            (list[pos - 1], list.get(pos + 1).copied())
        else {
            panic!("if not surrounded by blocks");
        };
        let branch = if take_then {
            std::mem::take(&mut self.ifs[id.index()].then_list)
        } else {
            std::mem::take(&mut self.ifs[id.index()].else_list)
        };
        let other = if take_then {
            std::mem::take(&mut self.ifs[id.index()].else_list)
        } else {
            std::mem::take(&mut self.ifs[id.index()].then_list)
        };
        self.detach_list(&other);
        let branch_last = match branch.last() {
            Some(CfNode::Block(b)) => *b,
            _ => panic!("branch does not end with a block"),
        };
        // Merging `after` into a block that ends in a jump would run `after`'s
        // instructions on a path that never reached them.
        assert!(
            self.blocks[branch_last.index()].jump.is_none(),
            "inline_if_branch: the taken branch ends in a jump"
        );
        let other_last = match other.last() {
            Some(CfNode::Block(b)) => Some(*b),
            _ => None,
        };
        // Phis of `after` lose the source from the dropped branch.
        let after_insts: Vec<Inst> = self.block_insts(after).collect();
        for i in after_insts {
            if let InstKind::Phi(p) = &mut self.insts[i.index()].kind {
                p.srcs.retain(|(b, _)| Some(*b) != other_last);
            }
        }
        // Splice: before, branch..., after; then merge before+branch[0] and
        // branch_last+after.
        let mut new_nodes: Vec<CfNode> = branch.clone();
        for n in &new_nodes {
            self.set_parent(*n, parent);
        }
        let l = self.cf_list_mut(parent);
        l.splice(pos..pos + 1, new_nodes.drain(..));
        let first = match branch.first() {
            Some(CfNode::Block(b)) => *b,
            _ => panic!("branch does not start with a block"),
        };
        if branch_last == first {
            // merge all three
            self.merge_blocks(before, first);
            self.merge_blocks(before, after);
        } else {
            self.merge_blocks(before, first);
            self.merge_blocks(branch_last, after);
        }
    }

    /// Detaches every node of a list from the tree (their instructions stay but are no
    /// longer reachable).
    fn detach_list(&mut self, list: &[CfNode]) {
        for &n in list {
            match n {
                CfNode::Block(b) => {
                    let insts: Vec<Inst> = self.block_insts(b).collect();
                    for i in insts {
                        self.remove_inst(i);
                    }
                    self.blocks[b.index()].parent = None;
                }
                CfNode::If(i) => {
                    let t = std::mem::take(&mut self.ifs[i.index()].then_list);
                    let e = std::mem::take(&mut self.ifs[i.index()].else_list);
                    self.detach_list(&t);
                    self.detach_list(&e);
                }
                CfNode::Loop(lp) => {
                    let body = std::mem::take(&mut self.loops[lp.index()].body);
                    self.detach_list(&body);
                }
            }
        }
    }

    /// Appends the instructions and jump of `second` to `first` and removes `second`
    /// from the tree. `second` must directly follow `first` in the same list. Phis of
    /// `second` with a single source become moves of it; phis elsewhere naming `second`
    /// as predecessor are renamed to `first`.
    pub fn merge_blocks(&mut self, first: Block, second: Block) {
        if first == second {
            return;
        }
        let succs = self.successors(second);
        let insts: Vec<Inst> = self.block_insts(second).collect();
        for i in insts {
            self.remove_inst(i);
            if let InstKind::Phi(p) = &self.insts[i.index()].kind {
                debug_assert!(
                    p.srcs.len() <= 1,
                    "merging a block whose phi has several sources"
                );
                let src = p.srcs.first().map(|(_, s)| *s);
                self.insts[i.index()].kind = match src {
                    Some(s) => InstKind::Alu(AluInst {
                        op: AluOp::Mov,
                        srcs: smallvec::smallvec![s],
                    }),
                    None => InstKind::Undef,
                };
            }
            self.insert_inst(i, Cursor::BlockEnd(first));
        }
        let jump = self.blocks[second.index()].jump.take();
        if jump.is_some() {
            self.blocks[first.index()].jump = jump;
        }
        let parent = self.blocks[second.index()]
            .parent
            .expect("merge of a detached block");
        let pos = self
            .position_in_parent(CfNode::Block(second), parent)
            .expect("block not in list");
        self.cf_list_mut(parent).remove(pos);
        self.blocks[second.index()].parent = None;
        for s in succs {
            self.rename_phi_pred(s, second, first);
        }
    }
}

/// Whether following `map` (indexed by value) from some entry comes back to it.
fn map_has_cycle(map: &[Option<Src>]) -> bool {
    // 1: on the current path, 2: known to end.
    let mut state = vec![0u8; map.len()];
    let mut path: Vec<usize> = Vec::new();
    for start in 0..map.len() {
        if map[start].is_none() || state[start] != 0 {
            continue;
        }
        let mut cur = start;
        loop {
            match state.get(cur).copied() {
                Some(1) => return true,
                Some(0) => match map[cur] {
                    Some(rep) => {
                        state[cur] = 1;
                        path.push(cur);
                        cur = rep.value.index();
                    }
                    None => break,
                },
                // Known to end, or beyond the map (not replaced).
                _ => break,
            }
        }
        for v in path.drain(..) {
            state[v] = 2;
        }
    }
    false
}

/// Iterator over the instructions of a block.
pub struct BlockInsts<'a> {
    func: &'a Function,
    next: Option<Inst>,
}

impl Iterator for BlockInsts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let cur = self.next?;
        self.next = self.func.nodes[cur.index()].next;
        Some(cur)
    }
}

impl PartialEq for Function {
    /// Structural equality: the same name, tree, block ids and, block by block, the same
    /// instructions defining the same value ids with the same types. Spans, instruction
    /// ids and dead entries of the arenas are ignored, so a function equals the result of
    /// printing and re-parsing it.
    fn eq(&self, other: &Function) -> bool {
        self.name == other.name && self.lists_eq(&self.body, other, &other.body)
    }
}

impl Eq for Function {}

impl Function {
    fn lists_eq(&self, a: &[CfNode], other: &Function, b: &[CfNode]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (*x, *y) {
                (CfNode::Block(p), CfNode::Block(q)) => p == q && self.blocks_eq(p, other, q),
                (CfNode::If(p), CfNode::If(q)) => {
                    let (d, e) = (&self.ifs[p.index()], &other.ifs[q.index()]);
                    d.cond == e.cond
                        && self.lists_eq(&d.then_list, other, &e.then_list)
                        && self.lists_eq(&d.else_list, other, &e.else_list)
                }
                (CfNode::Loop(p), CfNode::Loop(q)) => self.lists_eq(
                    &self.loops[p.index()].body,
                    other,
                    &other.loops[q.index()].body,
                ),
                _ => false,
            })
    }

    fn blocks_eq(&self, a: Block, other: &Function, b: Block) -> bool {
        if self.blocks[a.index()].jump != other.blocks[b.index()].jump {
            return false;
        }
        let mut x = self.block_insts(a);
        let mut y = other.block_insts(b);
        loop {
            match (x.next(), y.next()) {
                (None, None) => return true,
                (Some(i), Some(j)) => {
                    let (d, e) = (self.inst(i), other.inst(j));
                    if d.kind != e.kind || d.dest != e.dest {
                        return false;
                    }
                    if let Some(v) = d.dest {
                        if self.value_type(v) != other.value_type(v) {
                            return false;
                        }
                    }
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends an instruction of `kind` defining a `ty` value to block `b`.
    fn append(f: &mut Function, b: Block, kind: InstKind, ty: Type) -> (Inst, Value) {
        let i = f.create_inst(kind, Some(ty), Span::UNKNOWN);
        f.insert_inst(i, Cursor::BlockEnd(b));
        (i, f.inst(i).dest.unwrap())
    }

    /// Appends the 32-bit constant `v` to block `b`.
    fn konst(f: &mut Function, b: Block, v: u64) -> Value {
        append(f, b, InstKind::LoadConst(smallvec::smallvec![v]), Type::U32).1
    }

    /// Appends `load_const (1, 2, 3)` to block `b`.
    fn vec3_const(f: &mut Function, b: Block) -> Value {
        let kind = InstKind::LoadConst(smallvec::smallvec![1, 2, 3]);
        append(f, b, kind, Type::vec32(3)).1
    }

    /// Appends `mov src` (of type `ty`) to block `b`.
    fn append_mov(f: &mut Function, b: Block, src: Src, ty: Type) -> (Inst, Value) {
        let kind = InstKind::Alu(AluInst {
            op: AluOp::Mov,
            srcs: smallvec::smallvec![src],
        });
        append(f, b, kind, ty)
    }

    #[test]
    fn insert_and_remove_keep_order() {
        let mut f = Function::new("main");
        let b0 = f.first_block(CfParent::Root).unwrap();
        let a = konst(&mut f, b0, 1);
        let c = konst(&mut f, b0, 3);
        let ia = f.value_def(a).unwrap();
        let ic = f.value_def(c).unwrap();
        let ib = f.create_inst(
            InstKind::LoadConst(smallvec::smallvec![2]),
            Some(Type::U32),
            Span::UNKNOWN,
        );
        f.insert_inst(ib, Cursor::After(ia));
        assert_eq!(f.block_insts(b0).collect::<Vec<_>>(), vec![ia, ib, ic]);
        f.remove_inst(ib);
        assert_eq!(f.block_insts(b0).collect::<Vec<_>>(), vec![ia, ic]);
        assert!(!f.is_value_live(f.inst(ib).dest.unwrap()));
    }

    #[test]
    fn replace_uses_keeps_partial_swizzles() {
        let mut f = Function::new("main");
        let b0 = f.first_block(CfParent::Root).unwrap();
        let v3 = vec3_const(&mut f, b0);
        let user = |f: &mut Function, src: Src, ty: Type| append_mov(f, b0, src, ty);
        let (_, xy) = user(&mut f, Src::swizzled(v3, &[0, 1]).unwrap(), Type::vec32(2));
        let (_, xyz) = user(
            &mut f,
            Src::swizzled(v3, &[0, 1, 2]).unwrap(),
            Type::vec32(3),
        );
        let (u1, _) = user(&mut f, Src::new(xy), Type::vec32(2));
        let (u2, _) = user(&mut f, Src::channel(xy, 1), Type::U32);
        let (u3, _) = user(&mut f, Src::new(xyz), Type::vec32(3));
        let mut map = HashMap::new();
        map.insert(xy, Src::swizzled(v3, &[0, 1]).unwrap());
        map.insert(xyz, Src::swizzled(v3, &[0, 1, 2]).unwrap());
        f.replace_uses(&map);
        assert_eq!(f.inst(u1).srcs()[0], Src::swizzled(v3, &[0, 1]).unwrap());
        assert_eq!(f.inst(u2).srcs()[0], Src::channel(v3, 1));
        assert_eq!(f.inst(u3).srcs()[0], Src::new(v3));
    }

    #[test]
    fn replace_uses_follows_chains_in_any_id_order_and_stops_cycles() {
        let mut f = Function::new("main");
        let b0 = f.first_block(CfParent::Root).unwrap();
        let v3 = vec3_const(&mut f, b0);
        let mov = |f: &mut Function, src: Src, ty: Type| append_mov(f, b0, src, ty);
        let (_, a) = mov(&mut f, Src::new(v3), Type::vec32(3));
        let (_, b) = mov(&mut f, Src::swizzled(v3, &[0, 1]).unwrap(), Type::vec32(2));
        // `a` (the lower id) is replaced by a read of `c` (a higher one).
        let (_, c) = mov(&mut f, Src::new(v3), Type::vec32(3));
        let (_, p) = mov(&mut f, Src::new(v3), Type::vec32(3));
        let (_, q) = mov(&mut f, Src::new(v3), Type::vec32(3));
        let sw = |v: Value, comps: &[u8]| Src::swizzled(v, comps).unwrap();
        let (u_a, _) = mov(&mut f, Src::new(a), Type::vec32(3));
        let (u_b, _) = mov(&mut f, Src::new(b), Type::vec32(2));
        let (u_by, _) = mov(&mut f, Src::channel(b, 1), Type::U32);
        let (u_azyx, _) = mov(&mut f, sw(a, &[2, 1, 0]), Type::vec32(3));
        let (u_cyzx, _) = mov(&mut f, sw(c, &[1, 2, 0]), Type::vec32(3));
        let mut map = HashMap::new();
        map.insert(a, sw(c, &[2, 1, 0]));
        map.insert(c, sw(v3, &[1, 2, 0]));
        map.insert(b, sw(a, &[0, 2]));
        f.replace_uses(&map);
        // By hand: a = c.zyx = (v3.yzx).zyx = v3.xzy; b = a.xz = v3.xy.
        assert_eq!(f.inst(u_a).srcs()[0], sw(v3, &[0, 2, 1]));
        assert_eq!(f.inst(u_b).srcs()[0], sw(v3, &[0, 1]));
        assert_eq!(f.inst(u_by).srcs()[0], Src::channel(v3, 1));
        assert_eq!(f.inst(u_azyx).srcs()[0], sw(v3, &[1, 2, 0]));
        // c.yzx = (v3.yzx).yzx = v3.zxy.
        assert_eq!(f.inst(u_cyzx).srcs()[0], sw(v3, &[2, 0, 1]));

        // A cycle (which callers break beforehand) stops after as many steps as the map
        // has entries: p -> q -> p -> q.
        let (u_p, _) = mov(&mut f, Src::new(p), Type::vec32(3));
        let mut cyclic = HashMap::new();
        cyclic.insert(p, Src::new(q));
        cyclic.insert(q, Src::new(p));
        f.replace_uses(&cyclic);
        assert_eq!(f.inst(u_p).srcs()[0], Src::new(q));
    }

    /// `b0; if %c { b2: %t } else { b3: %e }; b1: %p = phi b2: %t, b3: %e; use %p`
    fn if_with_phi(f: &mut Function) -> (IfId, Value, Value, Value, Inst) {
        let mut b = crate::builder::Builder::at_end(f);
        let c = b.imm_bool(true);
        let (i, t, e) = b.if_else_u32(c, 10, 20);
        let p = b.if_phi(i, t, e);
        let user = b.iadd(p, p);
        let user = b.func.value_def(user).unwrap();
        (i, t, e, p, user)
    }

    fn valid(f: &Function) {
        let mut sh = crate::shader::Shader::new([1, 1, 1]);
        sh.functions.push(f.clone());
        if let Err(d) = crate::validate::validate(&sh) {
            panic!("invalid: {d:?}");
        }
    }

    #[test]
    fn inline_if_branch_keeps_the_taken_path() {
        for take_then in [true, false] {
            let mut f = Function::new("main");
            let (i, t, e, p, user) = if_with_phi(&mut f);
            f.inline_if_branch(i, take_then);
            valid(&f);
            assert_eq!(f.body().len(), 1);
            let b0 = f.first_block(CfParent::Root).unwrap();
            let kept = if take_then { t } else { e };
            let dropped = if take_then { e } else { t };
            assert!(f.is_value_live(kept) && !f.is_value_live(dropped));
            // The phi became a move of the taken source, in place before its user.
            let pi = f.value_def(p).unwrap();
            assert_eq!(f.inst_block(pi), Some(b0));
            match &f.inst(pi).kind {
                InstKind::Alu(a) => {
                    assert_eq!(a.op, AluOp::Mov);
                    assert_eq!(a.srcs[0], Src::new(kept));
                }
                k => panic!("phi not turned into a mov: {k:?}"),
            }
            assert_eq!(f.next_inst(pi), Some(user));
        }
    }

    #[test]
    fn inline_if_branch_with_nested_control_flow() {
        let mut f = Function::new("main");
        let mut b = crate::builder::Builder::at_end(&mut f);
        let c = b.imm_bool(false);
        let outer = b.push_if(c);
        let x = b.imm_u32(1);
        b.push_else(outer);
        let y = b.imm_u32(2);
        let inner = b.push_if(c);
        let z = b.iadd(y, y);
        b.pop_if(inner);
        let w = b.imul(y, y);
        b.pop_if(outer);
        let p = b.if_phi(outer, x, w);
        let _ = b.iadd(p, p);
        let _ = z;
        f.inline_if_branch(outer, false);
        valid(&f);
        // b0 (with the else-branch's first block merged in), the inner if, and the
        // else-branch's last block merged with the block after the outer if.
        assert_eq!(f.body().len(), 3);
        assert_eq!(f.body()[1], CfNode::If(inner));
        assert_eq!(f.if_data(inner).parent, CfParent::Root);
        assert!(!f.is_value_live(x));
        let last = f.last_block(CfParent::Root).unwrap();
        assert_eq!(f.inst_block(f.value_def(w).unwrap()), Some(last));
        assert_eq!(f.inst_block(f.value_def(p).unwrap()), Some(last));
    }

    #[test]
    #[should_panic(expected = "the taken branch ends in a jump")]
    fn inline_if_branch_rejects_a_branch_ending_in_a_jump() {
        let mut f = Function::new("main");
        let mut b = crate::builder::Builder::at_end(&mut f);
        let l = b.push_loop();
        let c = b.imm_bool(true);
        let i = b.break_if(c);
        let _ = b.imm_u32(3);
        b.pop_loop(l);
        f.inline_if_branch(i, true);
    }

    #[test]
    fn merge_blocks_appends_and_renames_phi_predecessors() {
        // b0 and a second block made adjacent by hand (as after removing an `if`), then
        // a loop whose header phi names the second block as its entry predecessor.
        let mut f = Function::new("main");
        let b0 = f.first_block(CfParent::Root).unwrap();
        let a = konst(&mut f, b0, 1);
        let second = f.create_block(CfParent::Root);
        f.append_cf_node(CfParent::Root, CfNode::Block(second));
        let c = konst(&mut f, second, 2);
        let mut b = crate::builder::Builder::new(&mut f, Cursor::BlockEnd(second));
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(second, c.into())]);
        let _ = b.iadd(h, a);
        b.jump(Jump::Break);
        b.pop_loop(l);
        f.merge_blocks(b0, second);
        valid(&f);
        assert_eq!(f.block_insts(b0).count(), 2);
        assert_eq!(f.block(second).parent, None);
        let hi = f.value_def(h).unwrap();
        match &f.inst(hi).kind {
            InstKind::Phi(p) => assert_eq!(p.srcs.as_slice(), &[(b0, Src::new(c))]),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn split_moves_tail_and_jump() {
        let mut f = Function::new("main");
        let b0 = f.first_block(CfParent::Root).unwrap();
        let a = konst(&mut f, b0, 1);
        let _c = konst(&mut f, b0, 2);
        let ia = f.value_def(a).unwrap();
        let nb = f.split_block(Cursor::After(ia));
        assert_eq!(f.block_insts(b0).count(), 1);
        assert_eq!(f.block_insts(nb).count(), 1);
        assert_eq!(f.body(), &[CfNode::Block(b0), CfNode::Block(nb)]);
    }
}
