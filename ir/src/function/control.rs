//! Walking and editing the control-flow tree: program order, successors and
//! predecessors, splitting and merging blocks, inlining an `if` branch.

use super::body::Function;
use super::inst::{AluInst, InstKind};
use super::tree::{CfNode, CfParent, Cursor, Jump};
use crate::alu::AluOp;
use crate::entity::{Block, IfId, Inst, LoopId};
use smallvec::SmallVec;
use std::collections::HashMap;

impl Function {
    // ----- control flow -------------------------------------------------------------

    /// Every block of the tree, in program (print) order.
    pub fn blocks_in_order(&self) -> Vec<Block> {
        let mut out = Vec::with_capacity(self.blocks.len());
        self.collect_blocks(&self.body, &mut out);
        out
    }

    pub(super) fn collect_blocks(&self, list: &[CfNode], out: &mut Vec<Block>) {
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

    /// The successors of a block in the control-flow graph, derived from the tree.
    /// Returns an empty list for the last block of the function and for blocks whose
    /// neighbourhood violates NIR's shape (the validator reports those).
    pub fn successors(&self, block: Block) -> SmallVec<[Block; 2]> {
        self.successors_by(block, &|n| self.next_node(n))
    }

    /// [`Function::successors`], with `next` giving the node after a node in its list.
    fn successors_by(
        &self,
        block: Block,
        next: &dyn Fn(CfNode) -> Option<CfNode>,
    ) -> SmallVec<[Block; 2]> {
        // The block control reaches after leaving a node (the node after it in its
        // list, which NIR's shape makes a block).
        let after = |node| match next(node) {
            Some(CfNode::Block(b)) => Some(b),
            _ => None,
        };
        let mut out = SmallVec::new();
        let node = CfNode::Block(block);
        if let Some(jump) = self.blocks[block.index()].jump {
            if let Some(l) = self.enclosing_loop(node) {
                let target = match jump {
                    Jump::Break => after(CfNode::Loop(l)),
                    Jump::Continue => self.first_block(CfParent::Loop(l)),
                };
                out.extend(target);
            }
            return out;
        }
        match next(node) {
            Some(CfNode::If(i)) => {
                out.extend(self.first_block(CfParent::Then(i)));
                out.extend(self.first_block(CfParent::Else(i)));
            }
            Some(CfNode::Loop(l)) => out.extend(self.first_block(CfParent::Loop(l))),
            Some(CfNode::Block(_)) => {}
            None => match self.blocks[block.index()].parent {
                Some(CfParent::Then(i)) | Some(CfParent::Else(i)) => {
                    out.extend(after(CfNode::If(i)))
                }
                Some(CfParent::Loop(l)) => out.extend(self.first_block(CfParent::Loop(l))),
                Some(CfParent::Root) | None => {}
            },
        }
        out
    }

    /// The predecessors of every block in the tree (each block appears, possibly with
    /// an empty list).
    pub fn predecessors(&self) -> HashMap<Block, SmallVec<[Block; 2]>> {
        // The node after each node, from one walk over the lists: asking each list for
        // a node's position would cost the list's length per block.
        let mut next: HashMap<CfNode, CfNode> = HashMap::with_capacity(self.blocks.len() * 2);
        self.collect_next(&self.body, &mut next);
        let lookup = |n: CfNode| next.get(&n).copied();
        let mut preds: HashMap<Block, SmallVec<[Block; 2]>> = HashMap::new();
        for b in self.blocks_in_order() {
            preds.entry(b).or_default();
            for s in self.successors_by(b, &lookup) {
                preds.entry(s).or_default().push(b);
            }
        }
        preds
    }

    fn collect_next(&self, list: &[CfNode], out: &mut HashMap<CfNode, CfNode>) {
        for (k, node) in list.iter().enumerate() {
            if let Some(n) = list.get(k + 1) {
                out.insert(*node, *n);
            }
            match *node {
                CfNode::Block(_) => {}
                CfNode::If(i) => {
                    let d = &self.ifs[i.index()];
                    self.collect_next(&d.then_list, out);
                    self.collect_next(&d.else_list, out);
                }
                CfNode::Loop(l) => self.collect_next(&self.loops[l.index()].body, out),
            }
        }
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

    pub(super) fn walk_nodes(&self, list: &[CfNode], f: &mut dyn FnMut(CfNode)) {
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
    pub(super) fn detach_list(&mut self, list: &[CfNode]) {
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
                        exact: false,
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

impl Function {
    /// A new `undef` of type `ty` at the start of the entry block, after its phis, where
    /// it dominates every block: what a pass gives a phi for an edge no execution takes.
    /// `None` if the function has no block.
    pub fn undef_at_entry(&mut self, ty: crate::types::Type) -> Option<crate::entity::Value> {
        let entry = self.first_block(CfParent::Root)?;
        let cursor = match self.block_insts(entry).find(|&i| !self.inst(i).is_phi()) {
            Some(first) => Cursor::Before(first),
            None => Cursor::BlockEnd(entry),
        };
        let u = self.create_inst(InstKind::Undef, Some(ty), crate::span::Span::UNKNOWN);
        self.insert_inst(u, cursor);
        self.inst(u).dest
    }
}

impl Function {
    /// Records that `node` now sits in the list `parent` (the caller moves it there, as
    /// passes that rebuild lists with [`Function::cf_list_mut`] do).
    pub fn set_node_parent(&mut self, node: CfNode, parent: CfParent) {
        self.set_parent(node, parent);
    }
}
