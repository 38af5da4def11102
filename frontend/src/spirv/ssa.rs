//! The SSA clean-up after translation: phis get a source for every predecessor, and
//! uses their definition does not dominate get phis (NIR's `nir_repair_ssa`).
//!
//! SPIR-V's dominance is the source's; the IR's tree can differ where the structured
//! walk adds control flow of its own (the flag tests after a construct that a `return`
//! or a multi-level `break` left): a value defined in one arm of a selection whose
//! other arm returned is used after the test, which the arm no longer dominates. Such
//! a use reads a phi, placed at the iterated dominance frontier of the definition, with
//! `undef` on the paths that never define the value; SPIR-V's rules keep those paths
//! from reaching the use at run time.

use ir::dominance::{Cfg, DomTree};
use ir::{Block, Builder, CfNode, CfParent, Cursor, Function, InstKind, Src, Type, Value};
use rustc_hash::FxHashMap as HashMap;

/// Gives every phi a source for each predecessor: an edge from a block no path reaches
/// carries an `undef`.
pub fn complete_phis(func: &mut Function) {
    let cfg = ir::dominance::Cfg::new(func);
    for &b in cfg.blocks() {
        let phis: Vec<ir::Inst> = func
            .block_insts(b)
            .filter(|&i| func.inst(i).is_phi())
            .collect();
        for phi in phis {
            let Some(ty) = func.inst(phi).dest.map(|v| func.value_type(v)) else {
                continue;
            };
            let have: Vec<Block> = match &func.inst(phi).kind {
                InstKind::Phi(p) => p.srcs.iter().map(|(b, _)| *b).collect(),
                _ => continue,
            };
            for p in cfg.predecessors(b) {
                if have.contains(&p) {
                    continue;
                }
                let mut bd = Builder::new(func, Cursor::BlockEnd(p));
                let u = bd.undef(ty);
                if let InstKind::Phi(ph) = &mut func.inst_mut(phi).kind {
                    ph.srcs.push((p, Src::new(u)));
                }
            }
        }
    }
}

/// Each `if` of the tree with the block before it, from one walk over the lists (asking
/// each list for an `if`'s position would cost the list's length per `if`).
fn blocks_before_ifs(func: &Function) -> Vec<(ir::IfId, Block)> {
    let mut out = Vec::new();
    let mut lists = vec![CfParent::Root];
    while let Some(parent) = lists.pop() {
        let list = func.cf_list(parent);
        for (k, node) in list.iter().enumerate() {
            match *node {
                CfNode::Block(_) => {}
                CfNode::If(id) => {
                    if let Some(&CfNode::Block(before)) = k.checked_sub(1).and_then(|p| list.get(p))
                    {
                        out.push((id, before));
                    }
                    lists.extend([CfParent::Then(id), CfParent::Else(id)]);
                }
                CfNode::Loop(l) => lists.push(CfParent::Loop(l)),
            }
        }
    }
    // In the order of the ids, as the repair numbers the phis it adds.
    out.sort_unstable_by_key(|&(id, _)| id.as_u32());
    out
}

/// A use of a value: the instruction (or `if`) reading it and where it counts as read.
#[derive(Copy, Clone)]
enum Use {
    /// Source `k` of an instruction, read in `block` (a phi's source is read at the end
    /// of its predecessor).
    Inst {
        inst: ir::Inst,
        k: usize,
        block: Block,
    },
    /// The condition of an `if`, read at the end of the block before it.
    Cond { id: ir::IfId, block: Block },
}

/// Repairs the uses their definitions do not dominate; returns how many values needed
/// it.
pub fn repair(func: &mut Function) -> usize {
    let (cfg, dom) = DomTree::of_fast(func);
    let mut def_block: HashMap<Value, Block> = HashMap::default();
    let mut bad: HashMap<Value, Vec<Use>> = HashMap::default();
    let blocks = func.blocks_in_order();
    for &b in &blocks {
        for i in func.block_insts(b) {
            if let Some(v) = func.inst(i).dest {
                def_block.insert(v, b);
            }
        }
    }
    let reads = |v: Value, at: Block, def_block: &HashMap<Value, Block>| -> bool {
        match def_block.get(&v) {
            Some(&d) => cfg.contains(at) && dom.is_reachable(at) && !dom.dominates(d, at),
            None => false,
        }
    };
    for &b in &blocks {
        for i in func.block_insts(b) {
            let data = func.inst(i);
            match &data.kind {
                InstKind::Phi(p) => {
                    for (k, (pred, s)) in p.srcs.iter().enumerate() {
                        if reads(s.value, *pred, &def_block) {
                            bad.entry(s.value).or_default().push(Use::Inst {
                                inst: i,
                                k,
                                block: *pred,
                            });
                        }
                    }
                }
                _ => {
                    for (k, s) in data.srcs().iter().enumerate() {
                        if reads(s.value, b, &def_block) {
                            bad.entry(s.value).or_default().push(Use::Inst {
                                inst: i,
                                k,
                                block: b,
                            });
                        }
                    }
                }
            }
        }
    }
    for (id, before) in blocks_before_ifs(func) {
        if !cfg.contains(before) {
            continue;
        }
        let cond = func.if_data(id).cond;
        if reads(cond.value, before, &def_block) {
            bad.entry(cond.value)
                .or_default()
                .push(Use::Cond { id, block: before });
        }
    }
    if bad.is_empty() {
        return 0;
    }
    let frontier = frontiers(&cfg, &dom);
    let entry = cfg.entry();
    let mut values: Vec<Value> = bad.keys().copied().collect();
    values.sort();
    for v in &values {
        let uses = &bad[v];
        let d = def_block[v];
        let ty = func.value_type(*v);
        // Phis at the iterated dominance frontier of the definition.
        let mut phi_at: HashMap<Block, Value> = HashMap::default();
        let mut work = vec![d];
        while let Some(b) = work.pop() {
            for &f in frontier.get(&b).map(|x| x.as_slice()).unwrap_or(&[]) {
                if let std::collections::hash_map::Entry::Vacant(e) = phi_at.entry(f) {
                    let p = Builder::new(func, Cursor::BlockStart(f)).phi(ty, &[]);
                    e.insert(p);
                    work.push(f);
                }
            }
        }
        let mut undef: Option<Value> = None;
        let mut undef_of = |func: &mut Function, ty: Type| -> Option<Value> {
            if undef.is_none() {
                let e = entry?;
                undef = Some(Builder::new(func, Cursor::BlockStart(e)).undef(ty));
            }
            undef
        };
        // The value reaching the start (or, with `at_end`, the end) of a block.
        let reaching = |func: &mut Function,
                        mut b: Block,
                        at_end: bool,
                        undef_of: &mut dyn FnMut(&mut Function, Type) -> Option<Value>|
         -> Option<Value> {
            let mut first = true;
            loop {
                if b == d && (at_end || !first) {
                    return Some(*v);
                }
                if let Some(p) = phi_at.get(&b) {
                    return Some(*p);
                }
                first = false;
                match dom.idom(b) {
                    Some(up) if up != b => b = up,
                    _ => return undef_of(func, ty),
                }
            }
        };
        let placed: Vec<(Block, Value)> = phi_at.iter().map(|(b, p)| (*b, *p)).collect();
        for (b, p) in placed {
            let preds: Vec<Block> = cfg.predecessors(b).collect();
            for pred in preds {
                if let Some(src) = reaching(func, pred, true, &mut undef_of) {
                    Builder::new(func, Cursor::BlockStart(b)).add_phi_src(p, pred, Src::new(src));
                }
            }
        }
        for u in uses {
            match *u {
                Use::Inst { inst, k, block } => {
                    let is_phi = func.inst(inst).is_phi();
                    let Some(rep) = reaching(func, block, is_phi, &mut undef_of) else {
                        continue;
                    };
                    let mut n = 0;
                    if let InstKind::Phi(p) = &mut func.inst_mut(inst).kind {
                        if let Some((_, s)) = p.srcs.get_mut(k) {
                            s.value = rep;
                        }
                        continue;
                    }
                    func.inst_mut(inst).for_each_src_mut(|s| {
                        if n == k {
                            s.value = rep;
                        }
                        n += 1;
                    });
                }
                Use::Cond { id, block } => {
                    if let Some(rep) = reaching(func, block, true, &mut undef_of) {
                        func.if_data_mut(id).cond.value = rep;
                    }
                }
            }
        }
    }
    values.len()
}

/// The dominance frontier of every reachable block (Cooper, Harvey and Kennedy's
/// walk up from each join's predecessors).
fn frontiers(cfg: &Cfg, dom: &DomTree) -> HashMap<Block, Vec<Block>> {
    let mut df: HashMap<Block, Vec<Block>> = HashMap::default();
    for &b in cfg.blocks() {
        if !dom.is_reachable(b) {
            continue;
        }
        let preds: Vec<Block> = cfg
            .predecessors(b)
            .filter(|p| dom.is_reachable(*p))
            .collect();
        if preds.len() < 2 {
            continue;
        }
        let idom = dom.idom(b);
        for p in preds {
            let mut runner = p;
            while Some(runner) != idom {
                let e = df.entry(runner).or_default();
                if !e.contains(&b) {
                    e.push(b);
                }
                match dom.idom(runner) {
                    Some(up) if up != runner => runner = up,
                    _ => break,
                }
            }
        }
    }
    df
}
