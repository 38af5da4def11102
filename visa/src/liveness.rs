//! Liveness of SSA values: the usual backward dataflow over the function's control-flow
//! graph (`Function::successors`), with phi sources live at the ends of their
//! predecessors and `if` conditions at the end of the block before the `if`. A value
//! computed where it is used ([`crate::fold`]) keeps its operands live there instead: a
//! use of it is a use of its operands. The register-pressure model
//! ([`crate::pressure`]) and phi coalescing ([`crate::coalesce`]) walk blocks backward
//! from the live-out sets this gives.

use ir::{Block, CfNode, Function, Inst, InstKind, Value};
use std::collections::{HashMap, HashSet};

/// The values live at the end of each block, and what each instruction reads.
pub struct Liveness<'f> {
    func: &'f Function,
    live_out: HashMap<Block, HashSet<Value>>,
    operands: &'f dyn Fn(Value) -> Vec<Value>,
}

impl<'f> Liveness<'f> {
    /// The liveness of `func`; `operands` gives the operands of a folded value
    /// (nothing for other values).
    pub fn new(func: &'f Function, operands: &'f dyn Fn(Value) -> Vec<Value>) -> Liveness<'f> {
        let blocks = func.blocks_in_order();
        let mut end_uses: HashMap<Block, Vec<Value>> = HashMap::new();
        let mut phi_defs: HashMap<Block, HashSet<Value>> = HashMap::new();
        for &b in &blocks {
            for inst in func.block_insts(b) {
                let data = func.inst(inst);
                if let (InstKind::Phi(p), Some(d)) = (&data.kind, data.dest) {
                    phi_defs.entry(b).or_default().insert(d);
                    for (pred, s) in &p.srcs {
                        let e = end_uses.entry(*pred).or_default();
                        e.push(s.value);
                        e.extend(operands(s.value));
                    }
                }
            }
            if let Some(CfNode::If(i)) = func.next_node(CfNode::Block(b)) {
                let c = func.if_data(i).cond.value;
                let e = end_uses.entry(b).or_default();
                e.push(c);
                e.extend(operands(c));
            }
        }
        let mut l = Liveness {
            func,
            live_out: HashMap::new(),
            operands,
        };
        let mut live_in: HashMap<Block, HashSet<Value>> = HashMap::new();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in blocks.iter().rev() {
                let mut out: HashSet<Value> =
                    end_uses.get(&b).into_iter().flatten().copied().collect();
                for s in func.successors(b) {
                    if let Some(li) = live_in.get(&s) {
                        let phis = phi_defs.get(&s);
                        out.extend(li.iter().filter(|v| !phis.is_some_and(|p| p.contains(v))));
                    }
                }
                let mut live = out.clone();
                for inst in func.block_insts(b).collect::<Vec<_>>().into_iter().rev() {
                    l.step_back(inst, &mut live);
                }
                if l.live_out.get(&b) != Some(&out) {
                    l.live_out.insert(b, out);
                    changed = true;
                }
                if live_in.get(&b) != Some(&live) {
                    live_in.insert(b, live);
                    changed = true;
                }
            }
        }
        l
    }

    /// The function.
    pub fn func(&self) -> &'f Function {
        self.func
    }

    /// The values live at the end of `block`.
    pub fn live_out(&self, block: Block) -> HashSet<Value> {
        self.live_out.get(&block).cloned().unwrap_or_default()
    }

    /// The values an instruction reads (a phi reads on its edges, not here), and the
    /// operands of folded ones.
    pub fn uses(&self, inst: Inst) -> Vec<Value> {
        let data = self.func.inst(inst);
        let mut v: Vec<Value> = match &data.kind {
            InstKind::Phi(_) => Vec::new(),
            _ => data.srcs().iter().map(|s| s.value).collect(),
        };
        if let InstKind::Intrinsic(i) = &data.kind {
            if let Some(idx) = i.image.and_then(|r| r.index) {
                v.push(idx.value);
            }
        }
        let extra: Vec<Value> = v.iter().flat_map(|x| (self.operands)(*x)).collect();
        v.extend(extra);
        v
    }

    /// `live` (what is live after `inst`) made what is live before it.
    pub fn step_back(&self, inst: Inst, live: &mut HashSet<Value>) {
        if let Some(d) = self.func.inst(inst).dest {
            live.remove(&d);
        }
        live.extend(self.uses(inst));
    }
}
