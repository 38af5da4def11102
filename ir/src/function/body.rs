//! The function itself: its arenas, creating entries in them, and the layout of
//! instructions inside blocks.

use super::inst::{InstData, InstKind, ValueData};
use super::names::Names;
use super::spelling::{Spellings, SrcSite, SwizzleSpelling};
use super::tree::{BlockData, CfNode, CfParent, Cursor, IfData, InstNode, LoopData};
use crate::entity::{Block, BlockName, IfId, Inst, LoopId, Value, ValueName};
use crate::span::Span;
use crate::types::{Src, Type};

/// A function.
#[derive(Clone, Debug)]
pub struct Function {
    /// The name (`main` for the entry point).
    pub name: String,
    /// Source position of the `fn` keyword.
    pub span: Span,
    pub(super) insts: Vec<InstData>,
    pub(super) nodes: Vec<InstNode>,
    pub(super) spans: Vec<Span>,
    pub(super) values: Vec<ValueData>,
    pub(super) blocks: Vec<BlockData>,
    pub(super) ifs: Vec<IfData>,
    pub(super) loops: Vec<LoopData>,
    pub(super) body: Vec<CfNode>,
    /// How the text spelled each explicit swizzle, by where it is read.
    pub(super) spellings: Spellings,
    /// The numbers the text wrote for the values (empty when they are the ids).
    pub(super) value_names: Names,
    /// The numbers the text wrote for the blocks (empty when they are the ids).
    pub(super) block_names: Names,
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
    /// the blocks the text names; the body must get at least one block before the
    /// function is valid.
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
            spellings: Spellings::default(),
            value_names: Names::default(),
            block_names: Names::default(),
            body: Vec::new(),
        }
    }

    // ----- arenas -------------------------------------------------------------------

    /// Makes room for `insts` more instructions (and as many values) without growing
    /// the arenas again: a translator that knows its input's size saves the copies of
    /// repeated growth.
    pub fn reserve(&mut self, insts: usize) {
        self.insts.reserve(insts);
        self.nodes.reserve(insts);
        self.spans.reserve(insts);
        self.values.reserve(insts);
    }

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

    /// The components of every value that some instruction reads, one bit per
    /// component, by value id (NIR's `nir_def_components_read`, for the whole function
    /// at once). A source without a swizzle reads as many components as its reader
    /// takes, so it counts as reading them all.
    pub fn components_read(&self) -> Vec<u16> {
        let mut read = vec![0u16; self.values.len()];
        let mut mark = |s: &crate::types::Src| {
            read[s.value.index()] |= if s.swizzle.is_identity() {
                u16::MAX
            } else {
                s.swizzle.components().fold(0, |m, c| m | 1 << c)
            };
        };
        for inst in self.insts_in_order() {
            self.inst(inst).for_each_src(&mut mark);
        }
        for id in self.ifs_in_order() {
            mark(&self.if_data(id).cond);
        }
        read
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

    /// Changes the type of a value in place. The caller rewrites what the definition
    /// computes and every source that reads the value to match (a pass narrowing a
    /// vector, for example); the validator checks that it did.
    pub fn set_value_type(&mut self, value: Value, ty: Type) {
        self.values[value.index()].ty = ty;
    }

    /// The instruction defining a value.
    pub fn value_def(&self, value: Value) -> Option<Inst> {
        self.values[value.index()].def
    }

    /// Component `comp` of `value` when a `load_const` still in the function defines it.
    pub fn const_component(&self, value: Value, comp: u8) -> Option<u64> {
        let def = self.value_def(value)?;
        self.inst_block(def)?;
        self.inst(def).as_const()?.get(usize::from(comp)).copied()
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
    /// but undefined, or beyond the arena). Used by the parser, which reserves a value
    /// where the text first names it. Returns `None` if the id is already defined.
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
    /// placeholder entries (each as large as a defined value: reserve only ids near the
    /// end of the arena).
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

    pub(super) fn set_parent(&mut self, node: CfNode, parent: CfParent) {
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

    // ----- names (see `names.rs`) -------------------------------------------------

    /// How the text names `value`: the number written after `%` when the function was
    /// parsed, or for values created since, a number above every written one.
    #[inline]
    pub fn value_name(&self, value: Value) -> ValueName {
        ValueName {
            value,
            number: self.value_names.number(value.index()),
        }
    }

    /// How the text names `block` (`bN`); see [`Function::value_name`].
    #[inline]
    pub fn block_name(&self, block: Block) -> BlockName {
        BlockName {
            block,
            number: self.block_names.number(block.index()),
        }
    }

    /// The value the text names `%number`, if the function has it.
    ///
    /// Linear in the number of values when the text's numbers are not the ids (it is
    /// meant for tests and tools that take a value by name, not for passes).
    pub fn value_named(&self, number: u32) -> Option<Value> {
        let i = self.value_names.find(number, self.values.len())?;
        Some(Value::from_u32(i as u32))
    }

    /// The block the text names `bnumber`, if the function has it; see
    /// [`Function::value_named`].
    pub fn block_named(&self, number: u32) -> Option<Block> {
        let i = self.block_names.find(number, self.blocks.len())?;
        Some(Block::from_u32(i as u32))
    }

    /// Whether every value and block id is the number the text names it by (a function
    /// built in code, or parsed from text numbered `0, 1, 2, ...` in order of first
    /// appearance): then the function keeps no table of names.
    pub fn names_are_ids(&self) -> bool {
        self.value_names.is_identity() && self.block_names.is_identity()
    }

    /// Sets the numbers the text wrote: `values[i]` for value id `i`, `blocks[i]` for
    /// block id `i` (the parser, once a function is read; the numbers of each list are
    /// distinct, below `value_limit` and `block_limit`, the bounds the parser holds the
    /// numbers to, and the lists no longer than the arenas).
    pub(crate) fn set_written_names(
        &mut self,
        (values, value_limit): (Vec<u32>, u32),
        (blocks, block_limit): (Vec<u32>, u32),
    ) {
        debug_assert!(values.len() <= self.values.len() && blocks.len() <= self.blocks.len());
        self.value_names = Names::new(values, value_limit);
        self.block_names = Names::new(blocks, block_limit);
    }

    // ----- spellings ----------------------------------------------------------------

    /// Records how the text spelled the swizzle of a source read at `site` (the
    /// parser does; see [`SwizzleSpelling`]).
    pub fn record_swizzle_spelling(&mut self, site: SrcSite, spelling: SwizzleSpelling) {
        self.spellings.record(site, spelling);
    }

    /// How the text spelled the swizzle of `src` read at `site`, if it was parsed there
    /// and the source is still the one written.
    pub fn swizzle_spelling(&self, site: SrcSite, src: Src) -> Option<&SwizzleSpelling> {
        self.spellings.find(site, src)
    }
}

/// Iterator over the instructions of a block.
pub struct BlockInsts<'a> {
    pub(super) func: &'a Function,
    pub(super) next: Option<Inst>,
}

impl Iterator for BlockInsts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        let cur = self.next?;
        self.next = self.func.nodes[cur.index()].next;
        Some(cur)
    }
}
