//! Cloning control-flow lists, as NIR's `nir_cf_list_clone`: the loop unroller copies a
//! loop body once per iteration with this.
//!
//! A clone gets new blocks, `if`s, loops, instructions and values. Sources are read
//! through a [`CloneMap`]: a value defined inside the cloned list reads its copy, a
//! value the map pins reads the source it is pinned to (the unroller pins a loop's
//! header phis to the values of the iteration being cloned), and any other value (one
//! defined outside the list) is read as it is. The map is cumulative: after a clone it
//! maps every value of the list to its newest copy, so that cloning the list again with
//! new pins gives the next iteration.

use super::body::Function;
use super::inst::InstKind;
use super::tree::{CfNode, CfParent, Cursor};
use crate::entity::{Block, Inst, Value};
use crate::types::Src;
use std::collections::HashMap;

/// What the copies made so far stand for: original values to the sources that replace
/// them, original blocks to their copies.
#[derive(Clone, Debug, Default)]
pub struct CloneMap {
    values: HashMap<Value, Src>,
    blocks: HashMap<Block, Block>,
    pinned: HashMap<Value, Src>,
}

impl CloneMap {
    /// An empty map.
    pub fn new() -> CloneMap {
        CloneMap::default()
    }

    /// Pins `value`: its definition is not cloned, and uses of it in the clones read
    /// `src` instead.
    pub fn pin(&mut self, value: Value, src: Src) {
        self.pinned.insert(value, src);
    }

    /// The source that replaces `value` in the newest clone: its pin, its newest copy,
    /// or `None` if the clones have not defined it.
    pub fn get(&self, value: Value) -> Option<Src> {
        self.pinned
            .get(&value)
            .or_else(|| self.values.get(&value))
            .copied()
    }

    /// The newest copy of `block`.
    pub fn block(&self, block: Block) -> Option<Block> {
        self.blocks.get(&block).copied()
    }
}

impl Function {
    /// Clones the nodes `list` (which must start and end with a block, as every list of
    /// the tree does) into new nodes whose parent is `parent`, reading sources through
    /// `map` (see the module documentation) and recording the copies in it. The new
    /// nodes are not placed: the caller splices them into a list (and merges the blocks
    /// that end up side by side).
    pub fn clone_cf_list(
        &mut self,
        list: &[CfNode],
        parent: CfParent,
        map: &mut CloneMap,
    ) -> Vec<CfNode> {
        let mut new_insts: Vec<Inst> = Vec::new();
        let mut new_ifs = Vec::new();
        let nodes = self.clone_nodes(list, parent, map, &mut new_insts, &mut new_ifs);
        // Sources are rewritten once every copy exists: a loop header phi reads a value
        // its loop defines later.
        for inst in new_insts {
            let mut kind = std::mem::replace(&mut self.insts[inst.index()].kind, InstKind::Undef);
            if let InstKind::Phi(p) = &mut kind {
                for (pred, _) in p.srcs.iter_mut() {
                    if let Some(&b) = map.blocks.get(pred) {
                        *pred = b;
                    }
                }
            }
            let mut data = super::inst::InstData { kind, dest: None };
            data.for_each_src_mut(|s| *s = self.mapped(*s, map));
            self.insts[inst.index()].kind = data.kind;
        }
        for id in new_ifs {
            let cond = self.ifs[id.index()].cond;
            self.ifs[id.index()].cond = self.mapped(cond, map);
        }
        nodes
    }

    /// `src` as the newest clone reads it (see [`CloneMap::get`]), its swizzle composed
    /// with the replacement's.
    pub fn mapped_src(&self, src: Src, map: &CloneMap) -> Src {
        self.mapped(src, map)
    }

    /// Deletes `nodes` and everything in them from the function (the caller has
    /// removed them from their list): their instructions leave the layout, their
    /// blocks the tree.
    pub fn delete_cf_nodes(&mut self, nodes: &[CfNode]) {
        self.detach_list(nodes);
    }

    fn mapped(&self, src: Src, map: &CloneMap) -> Src {
        match map.get(src.value) {
            Some(rep) => self.replace_step(src, rep),
            None => src,
        }
    }

    fn clone_nodes(
        &mut self,
        list: &[CfNode],
        parent: CfParent,
        map: &mut CloneMap,
        new_insts: &mut Vec<Inst>,
        new_ifs: &mut Vec<crate::entity::IfId>,
    ) -> Vec<CfNode> {
        let mut out = Vec::with_capacity(list.len());
        for &node in list {
            match node {
                CfNode::Block(b) => {
                    let nb = self.create_block(parent);
                    map.blocks.insert(b, nb);
                    let insts: Vec<Inst> = self.block_insts(b).collect();
                    for i in insts {
                        let data = &self.insts[i.index()];
                        if data.dest.is_some_and(|d| map.pinned.contains_key(&d)) {
                            continue;
                        }
                        let kind = data.kind.clone();
                        let ty = data.dest.map(|d| self.value_type(d));
                        let old_dest = data.dest;
                        let span = self.spans[i.index()];
                        let ni = self.create_inst(kind, ty, span);
                        if let (Some(old), Some(new)) = (old_dest, self.insts[ni.index()].dest) {
                            map.values.insert(old, Src::new(new));
                        }
                        self.insert_inst(ni, Cursor::BlockEnd(nb));
                        new_insts.push(ni);
                    }
                    self.blocks[nb.index()].jump = self.blocks[b.index()].jump;
                    self.blocks[nb.index()].span = self.blocks[b.index()].span;
                    out.push(CfNode::Block(nb));
                }
                CfNode::If(id) => {
                    let d = &self.ifs[id.index()];
                    let (cond, span) = (d.cond, d.span);
                    let then_list = d.then_list.clone();
                    let else_list = d.else_list.clone();
                    let nid = self.create_if(cond, parent, span);
                    let t =
                        self.clone_nodes(&then_list, CfParent::Then(nid), map, new_insts, new_ifs);
                    let e =
                        self.clone_nodes(&else_list, CfParent::Else(nid), map, new_insts, new_ifs);
                    self.ifs[nid.index()].then_list = t;
                    self.ifs[nid.index()].else_list = e;
                    new_ifs.push(nid);
                    out.push(CfNode::If(nid));
                }
                CfNode::Loop(l) => {
                    let d = &self.loops[l.index()];
                    let (body, span) = (d.body.clone(), d.span);
                    let nl = self.create_loop(parent, span);
                    let b = self.clone_nodes(&body, CfParent::Loop(nl), map, new_insts, new_ifs);
                    self.loops[nl.index()].body = b;
                    out.push(CfNode::Loop(nl));
                }
            }
        }
        out
    }
}
