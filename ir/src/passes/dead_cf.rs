//! Dead control flow (`opt-dead-cf`), NIR's `nir_opt_dead_cf`.
//!
//! One bottom-up rebuild of every list handles:
//! 1. an `if` whose condition is a constant: the taken branch replaces the `if`, the
//!    other branch is deleted, and the phis after it become moves of the taken path's
//!    source. If the taken branch ends in a jump, everything after the `if` in its list
//!    is unreachable and deleted;
//! 2. an `if` whose branches are single empty blocks and which is not followed by a phi:
//!    removed;
//! 3. an `if` whose branches both end in a jump: what follows it in its list is
//!    unreachable; it is deleted, leaving the empty block NIR's shape needs;
//! 4. a `loop` without a `break`: what follows it is unreachable and deleted the same
//!    way;
//! 5. a `loop` that runs once: its body ends in a `break`, holds no other jump of its
//!    own (jumps of nested loops are fine) and so no `continue`: the body replaces the
//!    loop, its header phis and the phis after it becoming moves;
//!    a loop whose other breaks each end one side of an `if` at the top of its body
//!    (the other side holding no jump) first becomes such a loop, as NIR's
//!    `wrapper_unroll` does for the loop `spirv_to_nir` wraps around an `OpSwitch`:
//!    from the last such `if` to the first, the rest of the body moves into the side
//!    without the break, both sides fall into a new block that breaks, and the phis
//!    after the loop take the value of the two old edges from a phi there. As in NIR,
//!    at most [`MAX_WRAPPER_JUMPS`] breaks: each adds a merge, and values live across
//!    it;
//! 6. a dead `loop` (NIR's `node_is_dead`): no phi follows it, nothing in it has a side
//!    effect (every intrinsic in it can be eliminated), and nothing outside it reads a
//!    value it defines: it is deleted. NIR assumes, as here, that such a loop
//!    terminates; an `if` in the same situation is emptied by instruction DCE and then
//!    removed by rule 2.
//!
//! When blocks become neighbours they are merged. Deleted code may define values still
//! used in code that became unreachable; those uses read an `undef` instead, as NIR's
//! `nir_cf_delete` does. Phi sources of edges that disappeared are dropped. A rebuild is
//! linear in the size of the function (an instruction moves once per enclosing
//! construct that is inlined around it), plus the size of each loop tested by rule 6.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::dominance::Cfg;
use crate::entity::{Block, Inst, LoopId, Value};
use crate::function::{AluInst, CfNode, CfParent, Cursor, Function, InstKind, Jump};
use crate::shader::Shader;
use crate::types::Src;
use smallvec::{smallvec, SmallVec};
use std::collections::HashMap;

/// The dead control-flow pass, `opt-dead-cf`.
#[derive(Copy, Clone, Debug, Default)]
pub struct DeadCf;

impl Pass for DeadCf {
    fn name(&self) -> &'static str {
        "opt-dead-cf"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= remove_dead_cf(f);
        }
        Ok(changed)
    }
}

const NONE: u32 = u32::MAX;

/// The most breaks of a loop rule 5 unwraps (NIR's `wrapper_unroll` gives up above
/// `num_loop_jumps > 6`, for register pressure).
pub const MAX_WRAPPER_JUMPS: u32 = 6;

/// The jumps a list holds (through `if`s, not into nested loops) and whether control
/// can fall off its end.
#[derive(Copy, Clone, Debug, Default)]
struct Summary {
    breaks: u32,
    continues: u32,
    falls_through: bool,
}

/// An `if` of a wrapper loop's body that ends one side in a break: its position in the
/// body, the side with the break and the other side.
type Terminator = (usize, CfParent, CfParent);

struct Rebuild<'f> {
    func: &'f mut Function,
    /// How many times each value is read (by instructions and `if` conditions),
    /// indexed by value, counted before the rebuild when the function has loops: rule 6
    /// asks whether a loop's values are read outside it, which is whether its own reads
    /// of them are all of them. Reads deleted during the rebuild still count, which
    /// only keeps a loop this round; DCE runs the rebuild again after a change.
    use_counts: Option<Vec<u32>>,
    /// Scratch for [`Rebuild::loop_is_dead`], indexed by value: `NONE` outside a call.
    reads_left: Vec<u32>,
    /// For a block merged into another, the block that absorbed it.
    merged_into: Vec<u32>,
    /// Values whose definitions were deleted with dead code.
    deleted: Vec<Value>,
    changed: bool,
    /// Where the next `undef` goes (the start of the entry block).
    undef_cursor: Option<Cursor>,
}

/// Removes dead control flow (see the module documentation); returns whether the tree
/// changed.
pub fn remove_dead_cf(func: &mut Function) -> bool {
    let n = func.num_block_ids();
    let mut has_loop = false;
    func.walk(|n| has_loop |= matches!(n, CfNode::Loop(_)));
    let use_counts = has_loop.then(|| {
        let mut counts = vec![0u32; func.num_value_ids()];
        for i in func.insts_in_order() {
            func.inst(i).for_each_src(|s| counts[s.value.index()] += 1);
        }
        for id in func.ifs_in_order() {
            counts[func.if_data(id).cond.value.index()] += 1;
        }
        counts
    });
    let mut pass = Rebuild {
        use_counts,
        reads_left: Vec::new(),
        func,
        merged_into: vec![NONE; n],
        deleted: Vec::new(),
        changed: false,
        undef_cursor: None,
    };
    pass.process_list(CfParent::Root);
    if !pass.changed {
        return false;
    }
    pass.fix_phis();
    pass.undef_deleted_uses();
    true
}

impl Rebuild<'_> {
    /// NIR's `node_is_dead` for a loop: no side effect inside, no value read outside.
    fn loop_is_dead(&mut self, l: LoopId) -> bool {
        let Some(total) = self.use_counts.take() else {
            return false;
        };
        let mut blocks: Vec<Block> = Vec::new();
        let mut conds: Vec<Value> = Vec::new();
        let mut stack: Vec<CfNode> = self.func.cf_list(CfParent::Loop(l)).to_vec();
        while let Some(n) = stack.pop() {
            match n {
                CfNode::Block(b) => blocks.push(b),
                CfNode::If(i) => {
                    conds.push(self.func.if_data(i).cond.value);
                    stack.extend_from_slice(self.func.cf_list(CfParent::Then(i)));
                    stack.extend_from_slice(self.func.cf_list(CfParent::Else(i)));
                }
                CfNode::Loop(inner) => {
                    stack.extend_from_slice(self.func.cf_list(CfParent::Loop(inner)))
                }
            }
        }
        // Each defined value's reads inside the loop, counted down from its total in a
        // dense scratch table (reset before returning): the loop is dead when every one
        // of them reaches zero.
        let mut left = std::mem::take(&mut self.reads_left);
        left.resize(total.len(), NONE);
        let mut defined: Vec<Value> = Vec::new();
        // Whether the loop must stay: a side effect, or a value without a count.
        let mut keep = false;
        'scan: for &b in &blocks {
            for inst in self.func.block_insts(b) {
                let data = self.func.inst(inst);
                if let InstKind::Intrinsic(intr) = &data.kind {
                    if !intr.op.info().can_eliminate {
                        keep = true;
                        break 'scan;
                    }
                }
                if let Some(v) = data.dest {
                    // A value made during this rebuild has no count: keep the loop
                    // this round (the next one counts it).
                    let Some(&n) = total.get(v.index()) else {
                        keep = true;
                        break 'scan;
                    };
                    left[v.index()] = n;
                    defined.push(v);
                }
            }
        }
        let mut read = |v: Value| {
            if let Some(n) = left.get_mut(v.index()).filter(|n| **n != NONE) {
                *n = n.saturating_sub(1);
            }
        };
        if !keep {
            for &b in &blocks {
                for inst in self.func.block_insts(b) {
                    self.func.inst(inst).for_each_src(|s| read(s.value));
                }
            }
            conds.into_iter().for_each(&mut read);
        }
        let dead = !keep && defined.iter().all(|v| left[v.index()] == 0);
        for v in defined {
            left[v.index()] = NONE;
        }
        self.reads_left = left;
        self.use_counts = Some(total);
        dead
    }

    fn resolve(&mut self, b: Block) -> Block {
        let mut cur = b.as_u32();
        while let Some(&next) = self.merged_into.get(cur as usize) {
            if next == NONE {
                break;
            }
            cur = next;
        }
        // Path compression keeps later lookups short.
        let root = cur;
        let mut cur = b.as_u32();
        while let Some(&next) = self.merged_into.get(cur as usize) {
            if next == NONE {
                break;
            }
            self.merged_into[cur as usize] = root;
            cur = next;
        }
        Block::from_u32(root)
    }

    /// The constant value of an `if` condition, if it is one.
    fn const_cond(&self, cond: Src) -> Option<bool> {
        let def = self.func.value_def(cond.value)?;
        self.func.inst_block(def)?;
        let bits = self.func.inst(def).as_const()?;
        let c = cond.swizzle.component(0) as usize;
        bits.get(c).map(|&b| b & 1 != 0)
    }

    fn block_is_empty(&self, b: Block) -> bool {
        self.func.first_inst(b).is_none() && self.func.block(b).jump.is_none()
    }

    fn list_is_one_empty_block(&self, parent: CfParent) -> bool {
        match self.func.cf_list(parent) {
            [CfNode::Block(b)] => self.block_is_empty(*b),
            _ => false,
        }
    }

    /// Rebuilds the list `parent` bottom-up and summarises it.
    fn process_list(&mut self, parent: CfParent) -> Summary {
        let old = std::mem::take(self.func.cf_list_mut(parent));
        let mut sum = Summary {
            falls_through: true,
            ..Summary::default()
        };
        let mut i = 0;
        while i < old.len() {
            match old[i] {
                CfNode::Block(b) => {
                    let last = self.append_block(parent, b);
                    if let Some(j) = self.func.block(last).jump {
                        match j {
                            Jump::Break => sum.breaks += 1,
                            Jump::Continue => sum.continues += 1,
                        }
                        sum.falls_through = false;
                        // Nothing follows a jump in a valid list; drop anything that
                        // does rather than keep unreachable nodes.
                        self.delete_nodes(&old[i + 1..]);
                        break;
                    }
                }
                CfNode::If(id) => {
                    let cond = self.func.if_data(id).cond;
                    if let Some(taken) = self.const_cond(cond) {
                        let (keep, drop) = if taken {
                            (CfParent::Then(id), CfParent::Else(id))
                        } else {
                            (CfParent::Else(id), CfParent::Then(id))
                        };
                        let dropped = std::mem::take(self.func.cf_list_mut(drop));
                        self.delete_nodes(&dropped);
                        let s = self.process_list(keep);
                        let nodes = std::mem::take(self.func.cf_list_mut(keep));
                        self.changed = true;
                        for n in nodes {
                            self.append_node(parent, n);
                        }
                        sum.breaks += s.breaks;
                        sum.continues += s.continues;
                        if !s.falls_through {
                            // The inlined list ends in a jump (or in a construct that
                            // never falls through, followed by its empty block), so
                            // the list already ends with a block.
                            sum.falls_through = false;
                            self.delete_nodes(&old[i + 1..]);
                            break;
                        }
                        i += 1;
                        continue;
                    }
                    let st = self.process_list(CfParent::Then(id));
                    let se = self.process_list(CfParent::Else(id));
                    let next_has_phi = match old.get(i + 1) {
                        Some(CfNode::Block(nb)) => self
                            .func
                            .first_inst(*nb)
                            .is_some_and(|f| self.func.inst(f).is_phi()),
                        _ => true,
                    };
                    if !next_has_phi
                        && self.list_is_one_empty_block(CfParent::Then(id))
                        && self.list_is_one_empty_block(CfParent::Else(id))
                    {
                        let t = std::mem::take(self.func.cf_list_mut(CfParent::Then(id)));
                        let e = std::mem::take(self.func.cf_list_mut(CfParent::Else(id)));
                        self.delete_nodes(&t);
                        self.delete_nodes(&e);
                        self.changed = true;
                        i += 1;
                        continue;
                    }
                    self.func.append_cf_node(parent, CfNode::If(id));
                    sum.breaks += st.breaks + se.breaks;
                    sum.continues += st.continues + se.continues;
                    if !st.falls_through && !se.falls_through {
                        sum.falls_through = false;
                        self.truncate_after(parent, &old[i + 1..]);
                        break;
                    }
                }
                CfNode::Loop(l) => {
                    let mut s = self.process_list(CfParent::Loop(l));
                    let body = self.func.cf_list(CfParent::Loop(l));
                    let ends_in_break = match body.last() {
                        Some(CfNode::Block(last)) => {
                            self.func.block(*last).jump == Some(Jump::Break)
                        }
                        _ => false,
                    };
                    if ends_in_break
                        && s.continues == 0
                        && (2..=MAX_WRAPPER_JUMPS).contains(&s.breaks)
                    {
                        if let Some(terms) = self.wrapper_terminators(l, s.breaks) {
                            let exit = match old.get(i + 1) {
                                Some(&CfNode::Block(b)) => Some(b),
                                _ => None,
                            };
                            for t in terms.into_iter().rev() {
                                self.unwrap_terminator(l, t, exit);
                            }
                            s.breaks = 1;
                        }
                    }
                    if ends_in_break && s.breaks == 1 && s.continues == 0 {
                        let nodes = std::mem::take(self.func.cf_list_mut(CfParent::Loop(l)));
                        if let Some(CfNode::Block(last)) = nodes.last() {
                            self.func.block_mut(*last).jump = None;
                        }
                        self.changed = true;
                        for n in nodes {
                            self.append_node(parent, n);
                        }
                        i += 1;
                        continue;
                    }
                    let phi_after = match old.get(i + 1) {
                        Some(CfNode::Block(nb)) => self
                            .func
                            .first_inst(*nb)
                            .is_some_and(|f| self.func.inst(f).is_phi()),
                        _ => true,
                    };
                    if s.breaks > 0 && !phi_after && self.loop_is_dead(l) {
                        let body = std::mem::take(self.func.cf_list_mut(CfParent::Loop(l)));
                        self.delete_nodes(&body);
                        i += 1;
                        continue;
                    }
                    self.func.append_cf_node(parent, CfNode::Loop(l));
                    if s.breaks == 0 {
                        sum.falls_through = false;
                        self.truncate_after(parent, &old[i + 1..]);
                        break;
                    }
                }
            }
            i += 1;
        }
        sum
    }

    /// The `if`s at the top of loop `l`'s body that end one side in a break (rule 5),
    /// as `(position, side with the break, other side)`, when they and the body's last
    /// block hold all of its `breaks`.
    fn wrapper_terminators(&self, l: LoopId, breaks: u32) -> Option<Vec<Terminator>> {
        let mut out = Vec::new();
        for (pos, &node) in self.func.cf_list(CfParent::Loop(l)).iter().enumerate() {
            let CfNode::If(id) = node else { continue };
            let (t, e) = (CfParent::Then(id), CfParent::Else(id));
            match (self.jumps(t), self.jumps(e)) {
                ((0, 0), (0, 0)) => {}
                ((1, 0), (0, 0)) if self.ends_in_break(t) => out.push((pos, t, e)),
                ((0, 0), (1, 0)) if self.ends_in_break(e) => out.push((pos, e, t)),
                _ => return None,
            }
        }
        (out.len() as u32 + 1 == breaks).then_some(out)
    }

    /// The breaks and continues of a list, through its `if`s (not nested loops).
    fn jumps(&self, parent: CfParent) -> (u32, u32) {
        let mut n = (0, 0);
        for &node in self.func.cf_list(parent) {
            match node {
                CfNode::Block(b) => match self.func.block(b).jump {
                    Some(Jump::Break) => n.0 += 1,
                    Some(Jump::Continue) => n.1 += 1,
                    None => {}
                },
                CfNode::If(id) => {
                    for side in [CfParent::Then(id), CfParent::Else(id)] {
                        let (b, c) = self.jumps(side);
                        n = (n.0 + b, n.1 + c);
                    }
                }
                CfNode::Loop(_) => {}
            }
        }
        n
    }

    fn ends_in_break(&self, parent: CfParent) -> bool {
        self.func
            .last_block(parent)
            .is_some_and(|b| self.func.block(b).jump == Some(Jump::Break))
    }

    /// Rule 5's step for the last terminator `(pos, brk, cont)` of loop `l`'s body,
    /// whose rest (after the `if`, up to the body's final break) holds no other jump:
    /// the rest moves to the end of `cont`, the two breaks go, and a new last block
    /// breaks instead. The phis of `exit`, the block after the loop, read what the two
    /// old edges gave them from a phi in the new block.
    fn unwrap_terminator(&mut self, l: LoopId, (pos, brk, cont): Terminator, exit: Option<Block>) {
        let body = CfParent::Loop(l);
        let rest = self.func.cf_list_mut(body).split_off(pos + 1);
        let (Some(&CfNode::Block(last)), Some(from_brk)) = (rest.last(), self.func.last_block(brk))
        else {
            return;
        };
        self.func.block_mut(from_brk).jump = None;
        self.func.block_mut(last).jump = None;
        for n in rest {
            self.append_node(cont, n);
        }
        let from_cont = self.resolve(last);
        let merge = self.func.create_block(body);
        self.func.append_cf_node(body, CfNode::Block(merge));
        self.func.block_mut(merge).jump = Some(Jump::Break);
        self.changed = true;
        let Some(exit) = exit else { return };
        let phis: SmallVec<[Inst; 8]> = self
            .func
            .block_insts(exit)
            .take_while(|&i| self.func.inst(i).is_phi())
            .collect();
        for p in phis {
            let InstKind::Phi(phi) = &self.func.inst(p).kind else {
                continue;
            };
            let mut srcs = phi.srcs.clone();
            let mut moved: SmallVec<[(Block, Src); 2]> = SmallVec::new();
            srcs.retain(|&mut (pred, v)| {
                let at = self.resolve(pred);
                for edge in [from_brk, from_cont] {
                    if at == edge {
                        moved.push((edge, v));
                        return false;
                    }
                }
                true
            });
            let ty = self
                .func
                .value_type(self.func.inst(p).dest.expect("a phi's value"));
            let q = self.func.create_inst(
                InstKind::Phi(crate::function::Phi { srcs: moved }),
                Some(ty),
                self.func.inst_span(p),
            );
            self.func.insert_inst(q, Cursor::BlockEnd(merge));
            let q = self.func.inst(q).dest.expect("created with a value");
            srcs.push((merge, Src::new(q)));
            if let InstKind::Phi(phi) = &mut self.func.inst_mut(p).kind {
                phi.srcs = srcs;
            }
        }
    }

    fn append_node(&mut self, parent: CfParent, node: CfNode) {
        match node {
            CfNode::Block(b) => {
                self.append_block(parent, b);
            }
            other => self.func.append_cf_node(parent, other),
        }
    }

    /// Appends `b` to the list, merging it into the list's last block if the list ends
    /// with one. Returns the block that now holds `b`'s instructions.
    fn append_block(&mut self, parent: CfParent, b: Block) -> Block {
        match self.func.cf_list(parent).last() {
            Some(&CfNode::Block(a)) => {
                self.merge_into(a, b);
                a
            }
            _ => {
                self.func.append_cf_node(parent, CfNode::Block(b));
                b
            }
        }
    }

    /// Moves the instructions and jump of `b` to the end of `a`, which is now `b`'s
    /// only predecessor. `b`'s phis become moves of their source from `a`.
    fn merge_into(&mut self, a: Block, b: Block) {
        let insts: SmallVec<[Inst; 16]> = self.func.block_insts(b).collect();
        for i in insts {
            self.func.remove_inst(i);
            let phi_src = match &self.func.inst(i).kind {
                InstKind::Phi(p) => Some(p.srcs.clone()),
                _ => None,
            };
            if let Some(srcs) = phi_src {
                let mut from_a = None;
                for (pred, s) in srcs {
                    if self.resolve(pred) == a {
                        from_a = Some(s);
                        break;
                    }
                }
                self.func.inst_mut(i).kind = match from_a {
                    Some(s) => InstKind::Alu(AluInst {
                        op: AluOp::Mov,
                        srcs: smallvec![s],
                        exact: false,
                    }),
                    None => InstKind::Undef,
                };
            }
            self.func.insert_inst(i, Cursor::BlockEnd(a));
        }
        let jump = self.func.block_mut(b).jump.take();
        self.func.block_mut(a).jump = jump;
        self.func.block_mut(b).parent = None;
        self.merged_into[b.index()] = a.as_u32();
        self.changed = true;
    }

    /// Deletes nodes (and everything inside them) from the function.
    fn delete_nodes(&mut self, nodes: &[CfNode]) {
        let mut stack: Vec<CfNode> = nodes.to_vec();
        while let Some(n) = stack.pop() {
            self.changed = true;
            match n {
                CfNode::Block(b) => {
                    self.empty_block(b);
                    self.func.block_mut(b).parent = None;
                }
                CfNode::If(id) => {
                    stack.extend(std::mem::take(self.func.cf_list_mut(CfParent::Then(id))));
                    stack.extend(std::mem::take(self.func.cf_list_mut(CfParent::Else(id))));
                }
                CfNode::Loop(l) => {
                    stack.extend(std::mem::take(self.func.cf_list_mut(CfParent::Loop(l))));
                }
            }
        }
    }

    /// Removes every instruction and the jump of a block.
    fn empty_block(&mut self, b: Block) {
        let insts: SmallVec<[Inst; 16]> = self.func.block_insts(b).collect();
        for i in insts {
            if let Some(v) = self.func.inst(i).dest {
                self.deleted.push(v);
            }
            self.func.remove_inst(i);
        }
        self.func.block_mut(b).jump = None;
    }

    /// After a node control never leaves: keeps the block that must follow it, emptied,
    /// and deletes the rest of the list.
    fn truncate_after(&mut self, parent: CfParent, rest: &[CfNode]) {
        match rest.first() {
            Some(&CfNode::Block(after)) => {
                if rest.len() > 1 || !self.block_is_empty(after) {
                    self.changed = true;
                }
                self.empty_block(after);
                self.func.append_cf_node(parent, CfNode::Block(after));
                self.delete_nodes(&rest[1..]);
            }
            _ => self.delete_nodes(rest),
        }
    }

    /// Renames phi predecessors to the blocks that absorbed them and drops the sources
    /// of edges that no longer exist.
    fn fix_phis(&mut self) {
        let cfg = Cfg::new(self.func);
        for &b in cfg.blocks() {
            let preds: SmallVec<[Block; 4]> = cfg.predecessors(b).collect();
            let insts: SmallVec<[Inst; 16]> = self
                .func
                .block_insts(b)
                .take_while(|&i| self.func.inst(i).is_phi())
                .collect();
            for i in insts {
                let InstKind::Phi(p) = &self.func.inst(i).kind else {
                    continue;
                };
                let mut srcs = p.srcs.clone();
                for (pred, _) in srcs.iter_mut() {
                    *pred = self.resolve(*pred);
                }
                let mut seen: SmallVec<[Block; 4]> = SmallVec::new();
                srcs.retain(|(pred, _)| {
                    if preds.contains(pred) && !seen.contains(pred) {
                        seen.push(*pred);
                        true
                    } else {
                        false
                    }
                });
                // A block emptied after a node that never falls through (the rest of
                // a loop body after an `if` whose branches both jump) now falls through
                // itself: the edge is new, unreachable, and its phi source an undef, as
                // NIR's control-flow editing inserts.
                if srcs.len() < preds.len() {
                    let ty = self
                        .func
                        .inst(i)
                        .dest
                        .map(|v| self.func.value_type(v))
                        .unwrap_or(crate::types::Type::U32);
                    for &pred in &preds {
                        if !seen.contains(&pred) {
                            let Some(u) = self.undef(ty) else { continue };
                            srcs.push((pred, Src::new(u)));
                        }
                    }
                }
                if let InstKind::Phi(p) = &mut self.func.inst_mut(i).kind {
                    p.srcs = srcs;
                }
            }
        }
    }

    /// A fresh `undef` of type `ty` at the start of the entry block, after its phis
    /// (it dominates every reachable block). `None` if the function has no block.
    fn undef(&mut self, ty: crate::types::Type) -> Option<Value> {
        let cursor = match self.undef_cursor {
            Some(c) => c,
            None => {
                let entry = self.func.first_block(CfParent::Root)?;
                match self
                    .func
                    .block_insts(entry)
                    .find(|&i| !self.func.inst(i).is_phi())
                {
                    Some(first) => Cursor::Before(first),
                    None => Cursor::BlockEnd(entry),
                }
            }
        };
        let u = self
            .func
            .create_inst(InstKind::Undef, Some(ty), crate::span::Span::UNKNOWN);
        self.undef_cursor = Some(self.func.insert_inst(u, cursor));
        self.func.inst(u).dest
    }

    /// Uses of values whose definitions were deleted (they can only sit in code that
    /// became unreachable) read an `undef` defined at the start of the function.
    fn undef_deleted_uses(&mut self) {
        if self.deleted.is_empty() {
            return;
        }
        let mut is_deleted = vec![false; self.func.num_value_ids()];
        for v in &self.deleted {
            is_deleted[v.index()] = true;
        }
        let mut needed: Vec<Value> = Vec::new();
        let mut note = |v: Value, needed: &mut Vec<Value>| {
            if is_deleted[v.index()] {
                is_deleted[v.index()] = false;
                needed.push(v);
            }
        };
        for i in self.func.insts_in_order() {
            for s in self.func.inst(i).srcs() {
                note(s.value, &mut needed);
            }
        }
        for id in self.func.ifs_in_order() {
            note(self.func.if_data(id).cond.value, &mut needed);
        }
        if needed.is_empty() {
            return;
        }
        let mut map: HashMap<Value, Src> = HashMap::new();
        for v in needed {
            let ty = self.func.value_type(v);
            let Some(u) = self.undef(ty) else { return };
            map.insert(v, Src::new(u));
        }
        self.func.replace_uses(&map);
    }
}

#[cfg(test)]
mod undef_tests {
    use super::*;
    use crate::builder::Builder;

    #[test]
    fn uses_of_deleted_values_read_undef() {
        // Delete the then-list directly and check that the remaining use of its value
        // reads an undef from the entry block.
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let c = b.ult(one, one);
        let i = b.push_if(c);
        let v = b.iadd(one, one);
        b.pop_if(i);
        let user = b.imul(v, one);
        let n = f.num_block_ids();
        let mut pass = Rebuild {
            use_counts: None,
            reads_left: Vec::new(),
            func: &mut f,
            merged_into: vec![NONE; n],
            deleted: Vec::new(),
            changed: false,
            undef_cursor: None,
        };
        let then_list = pass.func.if_data(i).then_list.clone();
        pass.empty_block(match then_list[0] {
            CfNode::Block(b) => b,
            _ => unreachable!(),
        });
        pass.undef_deleted_uses();
        assert_eq!(pass.deleted, vec![v]);
        let ui = f.value_def(user).unwrap();
        let s0 = f.inst(ui).srcs()[0];
        let def = f.value_def(s0.value).unwrap();
        assert!(matches!(f.inst(def).kind, InstKind::Undef));
        assert_eq!(f.inst_block(def), f.first_block(CfParent::Root));
        assert_eq!(f.value_type(s0.value), f.value_type(v));
    }
}
