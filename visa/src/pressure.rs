//! Register pressure: the most bytes of SIMT values live at once.
//!
//! A kernel whose live values alone exceed the register file cannot compile without
//! spilling, and GenX_IR 1.0.12504 treats a spill as a failure (exit status 1) or
//! crashes on it. The back end reports such a kernel as an error naming the place of
//! the peak instead of handing over a listing that cannot compile.
//!
//! Liveness is the usual backward dataflow over the function's control-flow graph
//! (`Function::successors`), with phi sources live at the ends of their predecessors
//! and `if` conditions at the end of the block before the `if`. A value computed where
//! it is used ([`crate::fold`]) keeps its operands live there instead: a use of it is a
//! use of its operands.

use ir::{CfNode, Function, Inst, InstKind, Value};
use std::collections::{HashMap, HashSet};

/// The peak of live bytes, and an instruction where it is reached. `folded` gives the
/// operands of a folded value (nothing for other values).
pub fn peak(
    func: &Function,
    bytes: &dyn Fn(Value) -> u32,
    folded: &dyn Fn(Value) -> Vec<Value>,
) -> (u32, Option<Inst>) {
    let with_operands = |vs: &mut Vec<Value>| {
        let extra: Vec<Value> = vs.iter().flat_map(|v| folded(*v)).collect();
        vs.extend(extra);
    };
    let blocks = func.blocks_in_order();
    // Uses at block ends: phi sources for each predecessor, if conditions.
    let mut end_uses: HashMap<ir::Block, Vec<Value>> = HashMap::new();
    let mut phi_defs: HashMap<ir::Block, Vec<Value>> = HashMap::new();
    for &b in &blocks {
        for inst in func.block_insts(b) {
            let data = func.inst(inst);
            if let (InstKind::Phi(p), Some(d)) = (&data.kind, data.dest) {
                phi_defs.entry(b).or_default().push(d);
                for (pred, s) in &p.srcs {
                    end_uses.entry(*pred).or_default().push(s.value);
                }
            }
        }
        if let Some(CfNode::If(i)) = func.next_node(CfNode::Block(b)) {
            end_uses
                .entry(b)
                .or_default()
                .push(func.if_data(i).cond.value);
        }
    }
    for uses in end_uses.values_mut() {
        with_operands(uses);
    }
    let uses_of = |inst: Inst| -> Vec<Value> {
        let data = func.inst(inst);
        let mut v: Vec<Value> = match &data.kind {
            InstKind::Phi(_) => Vec::new(),
            _ => data.srcs().iter().map(|s| s.value).collect(),
        };
        if let InstKind::Intrinsic(i) = &data.kind {
            if let Some(idx) = i.image.and_then(|r| r.index) {
                v.push(idx.value);
            }
        }
        with_operands(&mut v);
        v
    };
    let mut live_in: HashMap<ir::Block, HashSet<Value>> = HashMap::new();
    let mut live_out: HashMap<ir::Block, HashSet<Value>> = HashMap::new();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in blocks.iter().rev() {
            let mut out: HashSet<Value> = end_uses
                .get(&b)
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .collect();
            for s in func.successors(b) {
                if let Some(li) = live_in.get(&s) {
                    let phis = phi_defs.get(&s);
                    out.extend(li.iter().filter(|v| !phis.is_some_and(|p| p.contains(v))));
                }
            }
            let mut live = out.clone();
            for inst in func.block_insts(b).collect::<Vec<_>>().into_iter().rev() {
                if let Some(d) = func.inst(inst).dest {
                    live.remove(&d);
                }
                live.extend(uses_of(inst));
            }
            if live_out.get(&b) != Some(&out) {
                live_out.insert(b, out);
                changed = true;
            }
            if live_in.get(&b) != Some(&live) {
                live_in.insert(b, live);
                changed = true;
            }
        }
    }
    let mut best = (0u32, None);
    for &b in &blocks {
        let mut live = live_out.get(&b).cloned().unwrap_or_default();
        for inst in func.block_insts(b).collect::<Vec<_>>().into_iter().rev() {
            // During an instruction its sources, its destination and everything live
            // across it occupy registers.
            let d = func.inst(inst).dest;
            let mut during: HashSet<Value> = live.clone();
            during.extend(d);
            during.extend(uses_of(inst));
            let total: u32 = during.iter().map(|v| bytes(*v)).sum();
            if total > best.0 {
                best = (total, Some(inst));
            }
            if let Some(d) = d {
                live.remove(&d);
            }
            live.extend(uses_of(inst));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_counts_values_live_together() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = iadd %0.x, %0.y
    32   %2 = iadd %1, %0.z
    1    %3 = ult %1, %2
  if %3 {
    block b1:
      32x4 %4 = vec4 %1, %1, %2, %2
      32   %5 = iadd %4.x, %4.w
  } else {
    block b2:
  }
  block b3:
    32   %6 = phi b1: %5, b2: %2
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        // Per component 4 bytes: at `vec4`, %1 and %2 and the new 4 components are
        // live: 4 + 4 + 16 = 24.
        let size = |v: Value| 4 * u32::from(f.value_type(v).num_components());
        let (bytes, at) = peak(f, &size, &|_| Vec::new());
        assert_eq!(bytes, 24);
        let at = at.unwrap();
        assert_eq!(f.inst(at).dest.map(|v| v.as_u32()), Some(4));
    }
}
