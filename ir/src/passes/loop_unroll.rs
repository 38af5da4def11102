//! Loop unrolling (`opt-loop-unroll`), NIR's `nir_opt_loop_unroll` for loops whose trip
//! count is a constant (its `simple_unroll`).
//!
//! [`crate::loop_analysis`] finds the loop's terminator and trip count `n`. A loop
//!
//! ```text
//! loop { header...; if c { cont... } else { break... }; rest... }
//! ```
//!
//! becomes `header... cont... rest...` `n` times, then `header...` once more and the
//! break branch without its `break`; the header phis read the preheader's values in the
//! first copy and the previous copy's back-edge values after that, and the phis after
//! the loop and every use of the loop's values after it read the last copy. The copies
//! keep the spans of the instructions they copy (the verifier pairs the accesses of
//! one span in execution order, which unrolling keeps).
//!
//! NIR's limits decide which loops unroll (`check_unrolling_restrictions`, with
//! Intel's `max_unroll_iterations` of 32):
//! - the loop has exactly one terminator, no other jump of its own, and a known trip
//!   count of at most `max-iterations` (default 32);
//! - its estimated size, the cost of one iteration times the trip count, is at most
//!   `max-iterations * 26` (NIR's `LOOP_UNROLL_LIMIT`);
//! - innermost loops first: a loop that holds another loop is left for a later round
//!   (unless it runs at most once), and after unrolling a loop the rest of its list
//!   waits for the next round too, as NIR's `process_loops` does.
//!
//! Loops with a second terminator of unknown trip count (NIR's `complex_unroll`), loops
//! bounded only by an array's size (`partial_unroll`) and loops whose count depends on a
//! uniform are left alone.

use super::pass::{Pass, PassError};
use crate::entity::{Block, Inst, LoopId, Value};
use crate::function::{CfNode, CfParent, CloneMap, Function, InstKind};
use crate::loop_analysis::{analyze_loop, LoopInfo};
use crate::shader::Shader;
use crate::types::Src;
use std::collections::HashMap;

/// NIR's `LOOP_UNROLL_LIMIT`: the size budget per allowed iteration.
pub const LOOP_UNROLL_LIMIT: u32 = 26;

/// Intel's `max_unroll_iterations` (`brw_compiler.c`).
pub const DEFAULT_MAX_ITERATIONS: u32 = 32;

/// The loop-unrolling pass, `opt-loop-unroll`.
#[derive(Copy, Clone, Debug)]
pub struct LoopUnroll {
    /// The largest trip count unrolled.
    pub max_iterations: u32,
}

impl Default for LoopUnroll {
    fn default() -> LoopUnroll {
        LoopUnroll {
            max_iterations: DEFAULT_MAX_ITERATIONS,
        }
    }
}

impl Pass for LoopUnroll {
    fn name(&self) -> &'static str {
        "opt-loop-unroll"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= unroll_function(f, self.max_iterations);
        }
        Ok(changed)
    }
}

/// Unrolls the loops of `func` that NIR's rules allow (one round); returns whether any
/// was unrolled.
pub fn unroll_function(func: &mut Function, max_iterations: u32) -> bool {
    let mut nested = false;
    process_list(func, CfParent::Root, max_iterations, &mut nested)
}

/// NIR's `process_loops_in_block`: stops after the first loop unrolled in the list.
fn process_list(func: &mut Function, parent: CfParent, max: u32, nested: &mut bool) -> bool {
    let nodes = func.cf_list(parent).to_vec();
    let mut progress = false;
    for node in nodes {
        match node {
            CfNode::Block(_) => {}
            CfNode::If(i) => {
                progress |= process_list(func, CfParent::Then(i), max, nested);
                progress |= process_list(func, CfParent::Else(i), max, nested);
            }
            CfNode::Loop(l) => {
                *nested = true;
                let mut inner_nested = false;
                let child = process_list(func, CfParent::Loop(l), max, &mut inner_nested);
                if child {
                    progress = true;
                    continue;
                }
                if try_unroll(func, l, max) {
                    return true;
                }
            }
        }
    }
    progress
}

/// NIR's `check_unrolling_restrictions`, then the unroll.
fn try_unroll(func: &mut Function, l: LoopId, max: u32) -> bool {
    let info = analyze_loop(func, l, max);
    let Some(n) = info.trip_count else {
        return false;
    };
    if info.has_nested_loop && n > 1 {
        return false;
    }
    if n > max || info.instr_cost.saturating_mul(n) > max.saturating_mul(LOOP_UNROLL_LIMIT) {
        return false;
    }
    simple_unroll(func, l, &info, n)
}

/// A header phi: its value, and its sources from before the loop and around it.
struct HeaderPhi {
    value: Value,
    init: Src,
    latch: Src,
}

fn header_phis(func: &Function, header: Block, pre: Block, latch: Block) -> Option<Vec<HeaderPhi>> {
    let mut out = Vec::new();
    for i in func.block_insts(header) {
        let data = func.inst(i);
        let InstKind::Phi(p) = &data.kind else { break };
        if p.srcs.len() != 2 {
            return None;
        }
        let init = p.srcs.iter().find(|(b, _)| *b == pre)?.1;
        let back = p.srcs.iter().find(|(b, _)| *b == latch)?.1;
        out.push(HeaderPhi {
            value: data.dest?,
            init,
            latch: back,
        });
    }
    Some(out)
}

/// The values an instruction list defines, anywhere in it.
fn defined_values(func: &Function, list: &[CfNode], out: &mut Vec<Value>) {
    for &node in list {
        match node {
            CfNode::Block(b) => out.extend(func.block_insts(b).filter_map(|i| func.inst(i).dest)),
            CfNode::If(i) => {
                let d = func.if_data(i);
                let (t, e) = (d.then_list.clone(), d.else_list.clone());
                defined_values(func, &t, out);
                defined_values(func, &e, out);
            }
            CfNode::Loop(l) => defined_values(func, func.cf_list(CfParent::Loop(l)), out),
        }
    }
}

/// NIR's `simple_unroll` (see the module documentation). Returns false, changing
/// nothing, when the loop's shape is not the one the analysis promised.
fn simple_unroll(func: &mut Function, l: LoopId, info: &LoopInfo, n: u32) -> bool {
    let (Some(pre), Some(latch)) = (info.preheader, info.latch) else {
        return false;
    };
    let term = info.terminators[0];
    let parent = func.loop_data(l).parent;
    let body = func.cf_list(CfParent::Loop(l)).to_vec();
    let Some(t) = body.iter().position(|&x| x == CfNode::If(term.if_id)) else {
        return false;
    };
    let Some(CfNode::Block(header)) = body.first().copied() else {
        return false;
    };
    let Some(phis) = header_phis(func, header, pre, latch) else {
        return false;
    };
    let cont = if term.break_in_then {
        CfParent::Else(term.if_id)
    } else {
        CfParent::Then(term.if_id)
    };
    let mut iteration: Vec<CfNode> = body[..t].to_vec();
    iteration.extend_from_slice(func.cf_list(cont));
    iteration.extend_from_slice(&body[t + 1..]);
    let mut last: Vec<CfNode> = body[..t].to_vec();
    last.push(CfNode::Block(term.break_block));

    let mut map = CloneMap::new();
    for p in &phis {
        map.pin(p.value, p.init);
    }
    let mut out: Vec<CfNode> = Vec::new();
    for _ in 0..n {
        out.extend(func.clone_cf_list(&iteration, parent, &mut map));
        // All back-edge values are read before any pin moves: the phis of one block
        // read their sources together.
        let next: Vec<Src> = phis
            .iter()
            .map(|p| func.mapped_src(p.latch, &map))
            .collect();
        for (p, s) in phis.iter().zip(next) {
            map.pin(p.value, s);
        }
    }
    let tail = func.clone_cf_list(&last, parent, &mut map);
    let break_copy = match tail.last() {
        Some(CfNode::Block(b)) => *b,
        _ => unreachable!("the last list ends with the break block"),
    };
    func.block_mut(break_copy).jump = None;
    out.extend(tail);

    // The phis after the loop come from the last copy of the break block.
    let pos = func
        .position_in_parent(CfNode::Loop(l), parent)
        .expect("the loop is in its list");
    let after = match func.cf_list(parent).get(pos + 1) {
        Some(CfNode::Block(b)) => *b,
        _ => unreachable!("a loop is followed by a block"),
    };
    let after_phis: Vec<Inst> = func
        .block_insts(after)
        .take_while(|&i| func.inst(i).is_phi())
        .collect();
    for i in after_phis {
        let mut kind = std::mem::replace(&mut func.inst_mut(i).kind, InstKind::Undef);
        if let InstKind::Phi(p) = &mut kind {
            for (pred, src) in p.srcs.iter_mut() {
                if *pred == term.break_block {
                    *pred = break_copy;
                    *src = func.mapped_src(*src, &map);
                }
            }
        }
        func.inst_mut(i).kind = kind;
    }

    // Uses after the loop of what it defined read the last copy.
    let mut values = Vec::new();
    defined_values(func, &body, &mut values);
    let mut repl: HashMap<Value, Src> = HashMap::new();
    for v in values {
        if let Some(s) = map.get(v) {
            repl.insert(v, s);
        }
    }

    // Splice the copies in place of the loop and merge the blocks side by side.
    let count = out.len();
    func.cf_list_mut(parent).splice(pos..pos + 1, out);
    func.delete_cf_nodes(&body);
    func.replace_uses(&repl);
    let mut k = pos - 1;
    let end = pos + count + 1;
    let mut remaining = end;
    while k < remaining && k + 1 < func.cf_list(parent).len() {
        let list = func.cf_list(parent);
        match (list[k], list[k + 1]) {
            (CfNode::Block(a), CfNode::Block(b)) => {
                func.merge_blocks(a, b);
                remaining -= 1;
            }
            _ => k += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_shader;
    use crate::print::print_shader;
    use crate::validate::validate;

    fn unroll(text: &str) -> (bool, String) {
        let mut s = parse_shader(text).unwrap();
        let changed = LoopUnroll::default().run(&mut s).unwrap();
        if let Err(d) = validate(&s) {
            panic!("invalid: {d:#?}\n{}", print_shader(&s));
        }
        (changed, print_shader(&s))
    }

    const COUNTED: &str = "fn main {
  block b0:
    32 %0 = load_const (0)
    32 %1 = load_const (10)
  loop {
    block b1:
      32 %2 = phi b0: %0, b4: %5
      32 %3 = phi b0: %1, b4: %6
      32 %4 = load_const (3)
      1 %7 = ult %2, %4
    if %7 {
      block b2:
    } else {
      block b3:
        break
    }
    block b4:
      32 %8 = load_const (1)
      32 %5 = iadd %2, %8
      32 %6 = imul %3, %5
  }
  block b5:
    32 %9 = iadd %3, %2
}";

    #[test]
    fn a_counted_loop_becomes_straight_line_code() {
        let (changed, out) = unroll(COUNTED);
        assert!(changed);
        assert!(!out.contains("loop"), "{out}");
        // Three bodies, four headers.
        assert_eq!(out.matches("imul").count(), 3, "{out}");
        assert_eq!(out.matches("ult").count(), 4, "{out}");
    }

    /// A loop of `trips` iterations whose body is `ops` vector multiplies of `comps`
    /// components.
    fn vector_loop(trips: u32, ops: usize, comps: u8) -> String {
        let ty = if comps == 1 {
            "32".to_string()
        } else {
            format!("32x{comps}")
        };
        let mut body = String::new();
        for i in 0..ops {
            body.push_str(&format!(
                "      {ty} %{} = fmul %{}, %{}\n",
                20 + i,
                19 + i,
                19 + i
            ));
        }
        format!(
            "fn main {{
  block b0:
    32 %0 = load_const (0)
    {ty} %1 = undef
  loop {{
    block b1:
      32 %2 = phi b0: %0, b4: %5
      {ty} %19 = phi b0: %1, b4: %{last}
      32 %4 = load_const ({trips})
      1 %7 = ult %2, %4
    if %7 {{
      block b2:
    }} else {{
      block b3:
        break
    }}
    block b4:
{body}      32 %8 = load_const (1)
      32 %5 = iadd %2, %8
  }}
  block b5:
    {ty} %9 = fadd %19, %19
}}",
            last = 19 + ops
        )
    }

    #[test]
    fn a_vector_operation_costs_once_per_component() {
        // 32 iterations of ten multiplies: a cost of 320 scalar, 1280 as vec4, against
        // NIR's budget of 32 * 26 = 832.
        let (changed, out) = unroll(&vector_loop(32, 10, 1));
        assert!(changed, "{out}");
        let (changed, out) = unroll(&vector_loop(32, 10, 4));
        assert!(!changed, "{out}");
        assert!(out.contains("loop"), "{out}");
    }
}
