//! Dead code elimination: unused instructions (NIR's `nir_opt_dce`) and dead control
//! flow (NIR's `nir_opt_dead_cf`).
//!
//! **Instructions.** Mark and sweep: instructions with side effects (stores, atomics,
//! intrinsics without `can_eliminate`) and `if` conditions are live; whatever a live
//! instruction reads is live; everything else (ALU, `load_const`, `undef`, phis,
//! eliminable intrinsics) is removed. Marking follows sources once each, so the cost is
//! linear, and cycles of phis that only feed each other are removed too.
//!
//! **Control flow.** One bottom-up rebuild of every list handles:
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
//!    loop, its header phis and the phis after it becoming moves.
//!
//! Loops that may run several times are never removed, even without side effects (the
//! pass cannot tell whether they terminate). When blocks become neighbours they are
//! merged. Deleted code may define values still used in code that became unreachable;
//! those uses read an `undef` instead, as NIR's `nir_cf_delete` does. Phi sources of
//! edges that disappeared are dropped.
//!
//! Each rebuild is linear in the size of the function (an instruction moves once per
//! enclosing construct that is inlined around it). Instruction DCE and the rebuild
//! alternate until the rebuild finds nothing, which takes one round more than the
//! depth of nested constructs that become removable only after the one inside them.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::dominance::Cfg;
use crate::entity::{Block, Inst, Value};
use crate::function::{AluInst, CfNode, CfParent, Cursor, Function, InstData, InstKind, Jump};
use crate::shader::Shader;
use crate::types::Src;
use smallvec::{smallvec, SmallVec};
use std::collections::HashMap;

/// The DCE pass, `dce`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= dce_function(f);
        }
        Ok(changed)
    }
}

/// Removes dead instructions and dead control flow from one function; returns whether
/// it changed.
pub fn dce_function(func: &mut Function) -> bool {
    let mut changed = false;
    loop {
        changed |= remove_dead_instructions(func);
        if !remove_dead_cf(func) {
            return changed;
        }
        changed = true;
    }
}

/// Whether an instruction may be deleted when its value is unused.
fn removable(kind: &InstKind) -> bool {
    match kind {
        InstKind::Alu(_) | InstKind::LoadConst(_) | InstKind::Undef | InstKind::Phi(_) => true,
        InstKind::Intrinsic(i) => i.op.info().can_eliminate,
    }
}

/// Calls `f` on every value an instruction reads (what [`InstData::srcs`] lists, without
/// collecting it).
fn for_each_src_value(data: &InstData, mut f: impl FnMut(Value)) {
    match &data.kind {
        InstKind::Alu(a) => a.srcs.iter().for_each(|s| f(s.value)),
        InstKind::Phi(p) => p.srcs.iter().for_each(|(_, s)| f(s.value)),
        InstKind::Intrinsic(i) => {
            if let Some(idx) = i.image.and_then(|r| r.index) {
                f(idx.value);
            }
            i.srcs.iter().for_each(|s| f(s.value));
        }
        InstKind::LoadConst(_) | InstKind::Undef => {}
    }
}

/// Mark and sweep over the instructions of the tree; returns whether any was removed.
///
/// The marking walks the tree backwards, so that in SSA order (a definition before its
/// uses) every instruction is known to be live or dead when it is reached and the
/// instructions are read in one sequential sweep. A value whose definition was already
/// passed (a loop phi's back-edge source) goes to a work list instead; the live set is
/// the same as with a plain work-list marking: everything a root reaches.
pub fn remove_dead_instructions(func: &mut Function) -> bool {
    let n = func.num_inst_ids();
    // Per instruction: bit 0 live, bit 1 already passed by the backward walk.
    const LIVE: u8 = 1;
    const PASSED: u8 = 2;
    let mut state = vec![0u8; n];
    let mut work: Vec<Inst> = Vec::new();
    let mark = |v: Value, state: &mut [u8], work: &mut Vec<Inst>, func: &Function| {
        if let Some(d) = func.value_def(v) {
            let st = &mut state[d.index()];
            if *st & LIVE == 0 {
                *st |= LIVE;
                if *st & PASSED != 0 {
                    work.push(d);
                }
            }
        }
    };
    func.walk(|node| {
        if let CfNode::If(id) = node {
            mark(func.if_data(id).cond.value, &mut state, &mut work, func);
        }
    });
    // Instructions not live when passed: the candidates for removal.
    let mut dead: Vec<Inst> = Vec::new();
    let blocks = func.blocks_in_order();
    for &b in blocks.iter().rev() {
        let mut cur = func.last_inst(b);
        while let Some(i) = cur {
            cur = func.prev_inst(i);
            let data = func.inst(i);
            let st = &mut state[i.index()];
            *st |= PASSED;
            if *st & LIVE == 0 && removable(&data.kind) {
                dead.push(i);
                continue;
            }
            *st |= LIVE;
            for_each_src_value(data, |v| mark(v, &mut state, &mut work, func));
        }
    }
    // Live instructions the walk did not pass (outside the tree: only an invalid
    // function reads them) still keep their sources alive. From here on every newly
    // live instruction goes to the work list.
    for (k, st) in state.iter_mut().enumerate() {
        if *st == LIVE {
            work.push(Inst::from_u32(k as u32));
        }
        *st |= PASSED;
    }
    while let Some(i) = work.pop() {
        for_each_src_value(func.inst(i), |v| mark(v, &mut state, &mut work, func));
    }
    let mut changed = false;
    for i in dead {
        if state[i.index()] & LIVE == 0 {
            func.remove_inst(i);
            changed = true;
        }
    }
    changed
}

const NONE: u32 = u32::MAX;

/// The jumps a list holds (through `if`s, not into nested loops) and whether control
/// can fall off its end.
#[derive(Copy, Clone, Debug, Default)]
struct Summary {
    breaks: u32,
    continues: u32,
    falls_through: bool,
}

struct DeadCf<'f> {
    func: &'f mut Function,
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
    let mut pass = DeadCf {
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

impl DeadCf<'_> {
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
                    let s = self.process_list(CfParent::Loop(l));
                    let body = self.func.cf_list(CfParent::Loop(l));
                    let ends_in_break = match body.last() {
                        Some(CfNode::Block(last)) => {
                            self.func.block(*last).jump == Some(Jump::Break)
                        }
                        _ => false,
                    };
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
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::Jump;
    use crate::image::{Format, ImageDecl, ImageDim, ImageRef};
    use crate::types::{AluType, BaseType, Type};
    use crate::validate::validate;

    fn kinds(f: &Function) -> Vec<String> {
        f.insts_in_order()
            .into_iter()
            .map(|i| match &f.inst(i).kind {
                InstKind::Alu(a) => a.op.name().to_string(),
                InstKind::LoadConst(c) => format!("const {c:?}"),
                InstKind::Undef => "undef".into(),
                InstKind::Phi(_) => "phi".into(),
                InstKind::Intrinsic(x) => format!("@{}", x.op.name()),
            })
            .collect()
    }

    fn shape(f: &Function) -> String {
        fn list(f: &Function, l: &[CfNode], out: &mut String) {
            for (k, n) in l.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                match *n {
                    CfNode::Block(b) => {
                        out.push('B');
                        if let Some(j) = f.block(b).jump {
                            out.push_str(&format!("({})", j.name()));
                        }
                    }
                    CfNode::If(i) => {
                        out.push_str("if[");
                        list(f, &f.if_data(i).then_list, out);
                        out.push_str("][");
                        list(f, &f.if_data(i).else_list, out);
                        out.push(']');
                    }
                    CfNode::Loop(lp) => {
                        out.push_str("loop[");
                        list(f, &f.loop_data(lp).body, out);
                        out.push(']');
                    }
                }
            }
        }
        let mut s = String::new();
        list(f, f.body(), &mut s);
        s
    }

    fn store_decl() -> ImageDecl {
        ImageDecl::new("out", ImageDim::Buffer, Format::R32Uint)
    }

    /// A side effect that keeps `v` alive: `image_store` to image 0.
    fn keep(b: &mut Builder, v: Value) {
        let zero = b.imm_u32(0);
        let r = ImageRef::new(crate::entity::ImageId::from_u32(0));
        b.image_store(&store_decl(), r, zero, v, AluType::new(BaseType::Uint, 32));
    }

    fn check_with_image(f: Function) -> Function {
        let mut sh = Shader::new([1, 1, 1]);
        sh.add_image(store_decl());
        sh.functions.push(f);
        if let Err(d) = validate(&sh) {
            panic!("invalid after DCE: {d:#?}");
        }
        sh.functions.pop().unwrap()
    }

    /// Runs DCE, which must change `f`, validates the result and checks its
    /// control-flow shape (see [`shape`]); returns it for further checks.
    fn dce_changes_to(mut f: Function, want_shape: &str) -> Function {
        assert!(dce_function(&mut f));
        let f = check_with_image(f);
        assert_eq!(shape(&f), want_shape);
        f
    }

    /// Runs DCE, which must leave `f` as it is, and checks its shape.
    fn dce_keeps(mut f: Function, want_shape: &str) {
        assert!(!dce_function(&mut f));
        assert_eq!(shape(&f), want_shape);
    }

    #[test]
    fn removes_unused_chains_and_phi_cycles() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(1);
        let y = b.iadd(x, x);
        let _z = b.imul(y, y);
        let kept = b.ishl(x, x);
        keep(&mut b, kept);
        let pre = b.current_block();
        let l = b.push_loop();
        let p = b.phi(Type::U32, &[(pre, x.into())]);
        let q = b.iadd(p, x);
        let c = b.imm_bool(false);
        b.break_if(c);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(p, latch, q);
        assert!(remove_dead_instructions(&mut f));
        assert_eq!(
            kinds(&f),
            vec![
                "const [1]",
                "ishl",
                "const [0]",
                "@image_store",
                "const [0]"
            ]
        );
        let _ = check_with_image(f);
    }

    #[test]
    fn constant_if_keeps_taken_branch_and_phi_source() {
        for taken in [true, false] {
            let mut f = Function::new("main");
            let mut b = Builder::at_end(&mut f);
            let c = b.imm_bool(taken);
            let (i, t, e) = b.if_else_u32(c, 10, 20);
            let p = b.if_phi(i, t, e);
            keep(&mut b, p);
            let f = dce_changes_to(f, "B");
            let want = if taken { "const [10]" } else { "const [20]" };
            assert_eq!(kinds(&f), vec![want, "mov", "const [0]", "@image_store"]);
        }
    }

    #[test]
    fn nested_constant_ifs_and_empty_ifs() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let c = b.imm_bool(true);
        let v = b.imm_u32(1);
        let unknown = b.ult(v, v);
        let i = b.push_if(c);
        let j = b.push_if(unknown);
        let dead = b.iadd(v, v); // unused: the inner if becomes empty
        let _ = dead;
        b.pop_if(j);
        keep(&mut b, v);
        b.push_else(i);
        keep(&mut b, v);
        b.pop_if(i);
        let f = dce_changes_to(f, "B");
        assert_eq!(kinds(&f), vec!["const [1]", "const [0]", "@image_store"]);
    }

    #[test]
    fn empty_if_followed_by_phi_stays() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let v = b.imm_u32(1);
        let w = b.imm_u32(2);
        let c = b.ult(v, w);
        let i = b.push_if(c);
        b.pop_if(i);
        let p = b.if_phi(i, v, w);
        keep(&mut b, p);
        dce_keeps(f, "B if[B][B] B");
    }

    #[test]
    fn constant_if_taking_a_break_deletes_the_rest_of_the_loop() {
        // loop { %h = phi; if true { break }; %x = iadd %h, 1; <back edge> }
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let pre = b.current_block();
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(pre, one.into())]);
        let t = b.imm_bool(true);
        b.break_if(t);
        let x = b.iadd(h, one);
        let latch = b.current_block();
        b.pop_loop(l);
        b.add_phi_src(h, latch, x);
        keep(&mut b, h);
        // The loop ran once: it is gone too, its header phi a move of %one.
        let f = dce_changes_to(f, "B");
        assert_eq!(
            kinds(&f),
            vec!["const [1]", "mov", "const [0]", "@image_store"]
        );
    }

    #[test]
    fn both_branches_jumping_makes_the_rest_unreachable() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        let c = b.ult(one, one);
        let i = b.push_if(c);
        b.jump(Jump::Break);
        b.push_else(i);
        b.jump(Jump::Continue);
        b.pop_if(i);
        keep(&mut b, one); // unreachable
        let j = b.push_if(c);
        keep(&mut b, one);
        b.pop_if(j);
        b.pop_loop(l);
        keep(&mut b, one);
        let f = dce_changes_to(f, "B loop[B if[B(break)][B(continue)] B] B");
        assert_eq!(
            kinds(&f),
            vec!["const [1]", "ult", "const [0]", "@image_store"]
        );
    }

    #[test]
    fn new_unreachable_edge_gets_an_undef_phi_source() {
        // loop { %h = phi b0: 0, (continue): %next; ...; if %c { if true { break } }
        //        else { continue }; break }
        // Folding the inner if makes both branches of the outer one jump; the block
        // after it is emptied (its break goes) and falls through to the header: a new,
        // unreachable edge whose phi source is an undef.
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let zero = b.imm_u32(0);
        let one = b.imm_u32(1);
        let four = b.imm_u32(4);
        let pre = b.current_block();
        let l = b.push_loop();
        let h = b.phi(Type::U32, &[(pre, zero.into())]);
        let next = b.iadd(h, one);
        let c = b.ult(h, four);
        let outer = b.push_if(c);
        let t = b.imm_bool(true);
        b.break_if(t);
        b.push_else(outer);
        let cont = b.current_block();
        b.jump(Jump::Continue);
        b.pop_if(outer);
        let last = b.current_block();
        b.jump(Jump::Break);
        b.pop_loop(l);
        b.add_phi_src(h, cont, next);
        keep(&mut b, h);
        let hi = f.value_def(h).unwrap();
        let _ = check_with_image(f.clone());
        let f = dce_changes_to(f, "B loop[B if[B(break)][B(continue)] B] B");
        match &f.inst(hi).kind {
            InstKind::Phi(phi) => {
                assert_eq!(phi.srcs.len(), 3);
                let (pred, src) = phi.srcs[2];
                assert_eq!(pred, last);
                let d = f.value_def(src.value).unwrap();
                assert!(matches!(f.inst(d).kind, InstKind::Undef));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn infinite_loop_makes_what_follows_unreachable() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        keep(&mut b, one);
        b.pop_loop(l);
        let after = b.iadd(one, one);
        keep(&mut b, after);
        let f = dce_changes_to(f, "B loop[B] B");
        assert_eq!(kinds(&f), vec!["const [1]", "const [0]", "@image_store"]);
    }

    #[test]
    fn loops_that_may_iterate_are_kept() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        let c = b.ult(one, one);
        b.break_if(c);
        b.pop_loop(l);
        dce_keeps(f, "B loop[B if[B(break)][B] B] B");
    }

    #[test]
    fn code_after_a_folded_break_and_a_break_is_emptied() {
        // loop { if c { if true { break }; %v = ...; } else { break }; use %v; break }
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let l = b.push_loop();
        let c = b.ult(one, one);
        let i = b.push_if(c);
        let t = b.imm_bool(true);
        b.break_if(t);
        let v = b.iadd(one, one);
        b.push_else(i);
        b.jump(Jump::Break);
        b.pop_if(i);
        keep(&mut b, v);
        b.jump(Jump::Break);
        b.pop_loop(l);
        let _ = check_with_image(f.clone());
        dce_changes_to(f, "B loop[B if[B(break)][B(break)] B] B");
    }

    #[test]
    fn loop_running_once_is_inlined_with_nested_loops_kept() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let one = b.imm_u32(1);
        let outer = b.push_loop();
        let inner = b.push_loop();
        let c = b.ult(one, one);
        b.break_if(c);
        b.pop_loop(inner);
        keep(&mut b, one);
        b.jump(Jump::Break);
        b.pop_loop(outer);
        dce_changes_to(f, "B loop[B if[B(break)][B] B] B");
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
        let mut pass = DeadCf {
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
