//! `if` optimizations (`opt-if`), after NIR's `nir_opt_if` with the
//! `nir_opt_if_optimize_phi_true_false` option Intel's `brw_nir_optimize` passes:
//!
//! 1. **Loop terminators** (`opt_if_loop_terminator`): in `if c { A } else { ...break }`
//!    (either way round) the code after the `if` only runs when `A` did, so `A` moves
//!    after the `if`, leaving `if c {} else { break }`: the shape the loop analysis reads
//!    a terminator from. Skipped when `A` starts with an empty block or ends in a jump,
//!    as NIR does.
//! 2. **Simplification** (`opt_if_simplification`): `if c {} else { B }` becomes
//!    `if !c { B } else {}`.
//! 3. **Merging** (`opt_if_merge`): two `if`s on the same condition with only an empty
//!    block between them become one, each branch the two branches in order, when
//!    neither branch of the first ends in a jump (and, unlike NIR, when the first's
//!    else branch and the second's then branch do not both access memory: see
//!    `merge_next`).
//! 4. **Condition uses** (`opt_if_evaluate_condition_use`): inside the then branch the
//!    condition is `true`, inside the else branch `false`; uses there (instruction
//!    sources and the conditions of nested `if`s) read the constant.
//! 5. **Phis of the condition** (`opt_if_optimize_phi_true_false`): a phi after the
//!    `if` that is `true` from the then branch and `false` from the else branch is the
//!    condition; the other way round it is its `inot`.
//! 6. **Merged breaks** (`opt_merge_breaks`), innermost `if`s first: when both
//!    branches end in a `break` and only an empty block follows the `if`, that block
//!    breaks instead; when one branch breaks, the other falls through, and the rest of
//!    the list after the `if` ends in a `break` with no other jump on the way, the rest
//!    moves to the end of the falling branch and a block after the `if` breaks for
//!    both. Either way the loop's exit loses an edge: each phi after the loop reads
//!    the two old edges' values through a phi in the new breaking block. Together
//!    with `opt-dead-cf` this removes the one-trip loop a structured front end wraps
//!    around a loop body with several `continue`s: its breaks merge into the single
//!    final one of a loop that runs once. The lanes run the moved code in the same
//!    order as before (the breaking branch's, then the other's, then the rest).

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::{Block, IfId, Inst, Value};
use crate::function::{AluInst, CfNode, CfParent, Cursor, Function, InstKind};
use crate::shader::Shader;
use crate::span::Span;
use crate::types::{Src, Type};
use smallvec::smallvec;
use std::collections::HashMap;

/// The `if`-optimization pass, `opt-if`.
#[derive(Copy, Clone, Debug, Default)]
pub struct OptIf;

impl Pass for OptIf {
    fn name(&self) -> &'static str {
        "opt-if"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= opt_if_function(f);
        }
        Ok(changed)
    }
}

/// Runs the six optimizations over every `if` of `func`; returns whether anything
/// changed.
pub fn opt_if_function(func: &mut Function) -> bool {
    let mut changed = false;
    // The structural rewrites first, one `if` at a time (each may change the lists the
    // next one sits in).
    loop {
        let mut progress = false;
        for id in func.ifs_in_order() {
            if func.node_parent(CfNode::If(id)).is_none() {
                continue;
            }
            progress |= loop_terminator(func, id);
            progress |= simplify(func, id);
            progress |= merge_next(func, id);
            if progress {
                break;
            }
        }
        changed |= progress;
        if !progress {
            break;
        }
    }
    // Inner `if`s first, as NIR's post-order walk: an inner `if`'s break merges with
    // the break after it before the outer `if` merges the breaks of its branches.
    loop {
        let mut progress = false;
        for id in func.ifs_in_order().into_iter().rev() {
            if func.node_parent(CfNode::If(id)).is_some() && merge_breaks(func, id) {
                progress = true;
                break;
            }
        }
        changed |= progress;
        if !progress {
            break;
        }
    }
    for id in func.ifs_in_order() {
        changed |= evaluate_condition_use(func, id);
        changed |= phi_true_false(func, id);
    }
    changed
}

fn block_is_empty(func: &Function, b: Block) -> bool {
    func.first_inst(b).is_none() && func.block(b).jump.is_none()
}

fn is_empty_list(func: &Function, parent: CfParent) -> bool {
    matches!(func.cf_list(parent), [CfNode::Block(b)] if block_is_empty(func, *b))
}

/// The block right after `node` in its list.
fn block_after(func: &Function, node: CfNode) -> Option<Block> {
    match func.next_node(node) {
        Some(CfNode::Block(b)) => Some(b),
        _ => None,
    }
}

/// Turns the phis of `b` (which must have a single predecessor) into moves of their one
/// source.
fn phis_to_movs(func: &mut Function, b: Block) {
    let phis: Vec<Inst> = func
        .block_insts(b)
        .take_while(|&i| func.inst(i).is_phi())
        .collect();
    for i in phis {
        let src = match &func.inst(i).kind {
            InstKind::Phi(p) => p.srcs.first().map(|(_, s)| *s),
            _ => None,
        };
        func.inst_mut(i).kind = match src {
            Some(s) => InstKind::Alu(AluInst {
                op: AluOp::Mov,
                srcs: smallvec![s],
                exact: false,
            }),
            None => InstKind::Undef,
        };
    }
}

/// Inserts `nodes` (a list starting and ending with a block, now detached) right after
/// `node` in its list, merging the last of them with the block that followed `node`.
fn splice_after(func: &mut Function, node: CfNode, nodes: Vec<CfNode>) {
    let parent = func.node_parent(node).expect("node in the tree");
    let pos = func
        .position_in_parent(node, parent)
        .expect("node in its list");
    let after = match func.cf_list(parent).get(pos + 1) {
        Some(CfNode::Block(b)) => *b,
        _ => unreachable!("an if is followed by a block"),
    };
    let last = match nodes.last() {
        Some(CfNode::Block(b)) => *b,
        _ => unreachable!("a list ends with a block"),
    };
    for &n in &nodes {
        func.set_node_parent(n, parent);
    }
    func.cf_list_mut(parent).splice(pos + 1..pos + 1, nodes);
    func.merge_blocks(last, after);
}

fn loop_terminator(func: &mut Function, id: IfId) -> bool {
    let ends_in_break = |func: &Function, p: CfParent| {
        func.last_block(p)
            .is_some_and(|b| func.block(b).jump == Some(crate::function::Jump::Break))
    };
    let (cont, brk) = if ends_in_break(func, CfParent::Then(id)) {
        (CfParent::Else(id), CfParent::Then(id))
    } else if ends_in_break(func, CfParent::Else(id)) {
        (CfParent::Then(id), CfParent::Else(id))
    } else {
        return false;
    };
    let _ = brk;
    let (Some(first), Some(last)) = (func.first_block(cont), func.last_block(cont)) else {
        return false;
    };
    if block_is_empty(func, first) || func.block(last).jump.is_some() {
        return false;
    }
    // What follows the `if` is reached from `last` alone: its phis have that one
    // source. The moved list's first block had the `if`'s block as its one
    // predecessor; its phis go too.
    if let Some(after) = block_after(func, CfNode::If(id)) {
        phis_to_movs(func, after);
    }
    phis_to_movs(func, first);
    let nodes = std::mem::take(func.cf_list_mut(cont));
    let empty = func.create_block(cont);
    func.cf_list_mut(cont).push(CfNode::Block(empty));
    splice_after(func, CfNode::If(id), nodes);
    true
}

fn simplify(func: &mut Function, id: IfId) -> bool {
    // NIR's test: the then list is one empty block, the else list starts with a
    // block that is not empty (a lone `break` counts as something).
    let else_first = func.first_block(CfParent::Else(id));
    if !is_empty_list(func, CfParent::Then(id))
        || else_first.is_none_or(|b| block_is_empty(func, b))
    {
        return false;
    }
    let cond = func.if_data(id).cond;
    let Some(before) = (match func.prev_node(CfNode::If(id)) {
        Some(CfNode::Block(b)) => Some(b),
        _ => None,
    }) else {
        return false;
    };
    let span = func.if_data(id).span;
    let not = func.create_inst(
        InstKind::Alu(AluInst {
            op: AluOp::Inot,
            srcs: smallvec![cond],
            exact: false,
        }),
        Some(Type::BOOL),
        span,
    );
    func.insert_inst(not, Cursor::BlockEnd(before));
    let v = func.inst(not).dest.expect("created with a value");
    let d = func.if_data_mut(id);
    d.cond = Src::new(v);
    std::mem::swap(&mut d.then_list, &mut d.else_list);
    let (t, e) = (d.then_list.clone(), d.else_list.clone());
    for n in t {
        func.set_node_parent(n, CfParent::Then(id));
    }
    for n in e {
        func.set_node_parent(n, CfParent::Else(id));
    }
    true
}

fn merge_next(func: &mut Function, id: IfId) -> bool {
    let Some(between) = block_after(func, CfNode::If(id)) else {
        return false;
    };
    if !block_is_empty(func, between) {
        return false;
    }
    let Some(CfNode::If(next)) = func.next_node(CfNode::Block(between)) else {
        return false;
    };
    if func.if_data(next).cond != func.if_data(id).cond {
        return false;
    }
    for p in [CfParent::Then(id), CfParent::Else(id)] {
        let last = func.last_block(p).expect("lists end with a block");
        if func.block(last).jump.is_some() {
            return false;
        }
    }
    // Merging runs the second `if`'s then branch before the first one's else branch:
    // the lanes of the two branches then access memory in another order. Vulkan's
    // memory model orders nothing between invocations without synchronization, so
    // NIR merges anyway; here the `if`s stay apart when both of those branches touch
    // memory, because the verifier compares a lowered run with an original run that
    // executes in one order (an atomic or a store racing with another lane's access
    // would then differ).
    if touches_memory(func, CfParent::Else(id)) && touches_memory(func, CfParent::Then(next)) {
        return false;
    }
    let moved = [
        (
            std::mem::take(func.cf_list_mut(CfParent::Then(next))),
            CfParent::Then(id),
        ),
        (
            std::mem::take(func.cf_list_mut(CfParent::Else(next))),
            CfParent::Else(id),
        ),
    ];
    // Drop the empty block and the second `if` first, so that the moved blocks'
    // successors are right when their blocks merge.
    let parent = func.node_parent(CfNode::If(id)).expect("in the tree");
    let pos = func
        .position_in_parent(CfNode::If(id), parent)
        .expect("in its list");
    func.cf_list_mut(parent).drain(pos + 1..pos + 3);
    func.block_mut(between).parent = None;
    for (nodes, to) in moved {
        let tail = func.last_block(to).expect("lists end with a block");
        let first = match nodes.first() {
            Some(CfNode::Block(b)) => *b,
            _ => unreachable!("a list starts with a block"),
        };
        // The first block of the second branch had the second `if`'s block as its
        // only predecessor.
        phis_to_movs(func, first);
        for n in nodes {
            func.append_cf_node(to, n);
        }
        func.merge_blocks(tail, first);
    }
    true
}

/// Whether a list holds an intrinsic that reads or writes memory (anything but an
/// eliminable intrinsic that can be reordered: system values, parameter blocks).
fn touches_memory(func: &Function, parent: CfParent) -> bool {
    let mut blocks = Vec::new();
    blocks_of(func, func.cf_list(parent), &mut blocks);
    blocks.iter().any(|&b| {
        func.block_insts(b).any(|i| {
            func.inst(i).as_intrinsic().is_some_and(|x| {
                let info = x.op.info();
                !(info.can_eliminate && info.can_reorder)
            })
        })
    })
}

/// The blocks of a list, nested ones included.
fn blocks_of(func: &Function, list: &[CfNode], out: &mut Vec<Block>) {
    for &n in list {
        match n {
            CfNode::Block(b) => out.push(b),
            CfNode::If(i) => {
                let d = func.if_data(i);
                blocks_of(func, &d.then_list, out);
                blocks_of(func, &d.else_list, out);
            }
            CfNode::Loop(l) => blocks_of(func, func.cf_list(CfParent::Loop(l)), out),
        }
    }
}

/// The `if`s of a list, nested ones included.
fn ifs_of(func: &Function, list: &[CfNode], out: &mut Vec<IfId>) {
    for &n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::If(i) => {
                out.push(i);
                let d = func.if_data(i);
                ifs_of(func, &d.then_list, out);
                ifs_of(func, &d.else_list, out);
            }
            CfNode::Loop(l) => ifs_of(func, func.cf_list(CfParent::Loop(l)), out),
        }
    }
}

/// Whether a source of a value of `comps` components reads exactly component `comp`.
fn reads_component(src: Src, comps: u8, comp: u8) -> bool {
    if src.swizzle.is_identity() {
        comps == 1 && comp == 0
    } else {
        src.swizzle.len() == 1 && src.swizzle.component(0) == comp
    }
}

/// Whether `src` reads exactly what the condition `cond` reads (one component).
fn reads_cond(func: &Function, src: Src, cond: Src) -> bool {
    src.value == cond.value
        && func.src_components(src) == 1
        && src.swizzle.component(0) == cond.swizzle.component(0)
}

fn evaluate_condition_use(func: &mut Function, id: IfId) -> bool {
    let cond = func.if_data(id).cond;
    if func
        .value_def(cond.value)
        .is_some_and(|d| func.inst(d).as_const().is_some())
    {
        return false;
    }
    let cond_comps = func.value_type(cond.value).num_components();
    let comp = cond.swizzle.component(0);
    let mut changed = false;
    for (parent, truth) in [(CfParent::Then(id), true), (CfParent::Else(id), false)] {
        let list = func.cf_list(parent).to_vec();
        let mut blocks = Vec::new();
        blocks_of(func, &list, &mut blocks);
        let mut ifs = Vec::new();
        ifs_of(func, &list, &mut ifs);
        let mut uses: Vec<Inst> = Vec::new();
        for &b in &blocks {
            for i in func.block_insts(b) {
                if func
                    .inst(i)
                    .srcs()
                    .iter()
                    .any(|&s| reads_cond(func, s, cond))
                {
                    uses.push(i);
                }
            }
        }
        let ifs: Vec<IfId> = ifs
            .into_iter()
            .filter(|&i| reads_cond(func, func.if_data(i).cond, cond))
            .collect();
        if uses.is_empty() && ifs.is_empty() {
            continue;
        }
        let first = func
            .first_block(parent)
            .expect("a list starts with a block");
        let k = func.create_inst(
            InstKind::LoadConst(smallvec![truth as u64]),
            Some(Type::BOOL),
            Span::UNKNOWN,
        );
        let at = match func.block_insts(first).find(|&i| !func.inst(i).is_phi()) {
            Some(i) => Cursor::Before(i),
            None => Cursor::BlockEnd(first),
        };
        func.insert_inst(k, at);
        let kv = Src::new(func.inst(k).dest.expect("created with a value"));
        for i in uses {
            // A phi of the branch's first block reads along the edge into the branch,
            // where the condition is not yet known.
            if func.inst(i).is_phi() && func.inst_block(i) == Some(first) {
                continue;
            }
            func.inst_mut(i).for_each_src_mut(|s| {
                if s.value == cond.value && reads_component(*s, cond_comps, comp) {
                    *s = kv;
                }
            });
        }
        for i in ifs {
            func.if_data_mut(i).cond = kv;
        }
        changed = true;
    }
    changed
}

fn phi_true_false(func: &mut Function, id: IfId) -> bool {
    let Some(after) = block_after(func, CfNode::If(id)) else {
        return false;
    };
    let (Some(t_end), Some(e_end)) = (
        func.last_block(CfParent::Then(id)),
        func.last_block(CfParent::Else(id)),
    ) else {
        return false;
    };
    let cond = func.if_data(id).cond;
    let konst = |func: &Function, s: Src| -> Option<bool> {
        if func.value_type(s.value).bit_size() != 1 || func.src_components(s) != 1 {
            return None;
        }
        let d = func.value_def(s.value)?;
        func.inst_block(d)?;
        let c = func.inst(d).as_const()?;
        c.get(s.swizzle.component(0) as usize).map(|&v| v & 1 == 1)
    };
    let phis: Vec<Inst> = func
        .block_insts(after)
        .take_while(|&i| func.inst(i).is_phi())
        .collect();
    let mut map: HashMap<Value, Src> = HashMap::new();
    let mut not: Option<Src> = None;
    for i in phis {
        let InstKind::Phi(p) = &func.inst(i).kind else {
            continue;
        };
        if p.srcs.len() != 2 {
            continue;
        }
        let from = |b: Block| p.srcs.iter().find(|(q, _)| *q == b).map(|(_, s)| *s);
        let (Some(ts), Some(es)) = (from(t_end), from(e_end)) else {
            continue;
        };
        let Some(dest) = func.inst(i).dest else {
            continue;
        };
        match (konst(func, ts), konst(func, es)) {
            (Some(true), Some(false)) => {
                map.insert(dest, cond);
            }
            (Some(false), Some(true)) => {
                let n = match not {
                    Some(n) => n,
                    None => {
                        let inst = func.create_inst(
                            InstKind::Alu(AluInst {
                                op: AluOp::Inot,
                                srcs: smallvec![cond],
                                exact: false,
                            }),
                            Some(Type::BOOL),
                            func.if_data(id).span,
                        );
                        let at = match func.block_insts(after).find(|&j| !func.inst(j).is_phi()) {
                            Some(j) => Cursor::Before(j),
                            None => Cursor::BlockEnd(after),
                        };
                        func.insert_inst(inst, at);
                        let n = Src::new(func.inst(inst).dest.expect("created with a value"));
                        not = Some(n);
                        n
                    }
                };
                map.insert(dest, n);
            }
            _ => {}
        }
    }
    if map.is_empty() {
        return false;
    }
    for v in map.keys() {
        if let Some(d) = func.value_def(*v) {
            func.remove_inst(d);
        }
    }
    func.replace_uses(&map);
    true
}

/// The jumps of a list, through its `if`s (a nested loop's jumps are its own).
fn has_jump(func: &Function, list: &[CfNode]) -> bool {
    list.iter().any(|&n| match n {
        CfNode::Block(b) => func.block(b).jump.is_some(),
        CfNode::If(i) => {
            let d = func.if_data(i);
            has_jump(func, &d.then_list) || has_jump(func, &d.else_list)
        }
        CfNode::Loop(_) => false,
    })
}

/// A phi after a loop and the values it reads along two of the loop's breaks.
struct ExitPhi {
    phi: Inst,
    from: [Src; 2],
}

/// The phis of `exit` with their sources along the edges from `preds`; `None` when a
/// phi lacks one (the function is then left alone).
fn exit_phis(func: &Function, exit: Block, preds: [Block; 2]) -> Option<Vec<ExitPhi>> {
    let mut out = Vec::new();
    for i in func
        .block_insts(exit)
        .take_while(|&i| func.inst(i).is_phi())
    {
        let InstKind::Phi(p) = &func.inst(i).kind else {
            continue;
        };
        let from = |b: Block| p.srcs.iter().find(|(q, _)| *q == b).map(|(_, s)| *s);
        out.push(ExitPhi {
            phi: i,
            from: [from(preds[0])?, from(preds[1])?],
        });
    }
    Some(out)
}

/// Points the exit phis' two old edges (from `old`) at the single edge from `merged`,
/// whose predecessors, along the same two paths, are now `new_preds`.
fn reroute_exit_phis(
    func: &mut Function,
    phis: Vec<ExitPhi>,
    old: [Block; 2],
    merged: Block,
    new_preds: [Block; 2],
) {
    for ExitPhi { phi, from } in phis {
        let src = if from[0] == from[1] {
            from[0]
        } else {
            let ty = func.value_type(func.inst(phi).dest.expect("a phi has a value"));
            let span = func.inst_span(phi);
            let p = func.create_inst(
                InstKind::Phi(crate::function::Phi {
                    srcs: smallvec![(new_preds[0], from[0]), (new_preds[1], from[1])],
                }),
                Some(ty),
                span,
            );
            func.insert_inst(p, Cursor::BlockStart(merged));
            Src::new(func.inst(p).dest.expect("created with a value"))
        };
        if let InstKind::Phi(ph) = &mut func.inst_mut(phi).kind {
            ph.srcs.retain(|(b, _)| !old.contains(b));
            ph.srcs.push((merged, src));
        }
    }
}

fn merge_breaks(func: &mut Function, id: IfId) -> bool {
    use crate::function::Jump;
    let node = CfNode::If(id);
    let (Some(l), Some(parent)) = (func.enclosing_loop(node), func.node_parent(node)) else {
        return false;
    };
    let Some(CfNode::Block(exit)) = func.next_node(CfNode::Loop(l)) else {
        return false;
    };
    let (Some(then_last), Some(else_last)) = (
        func.last_block(CfParent::Then(id)),
        func.last_block(CfParent::Else(id)),
    ) else {
        return false;
    };
    let (tj, ej) = (func.block(then_last).jump, func.block(else_last).jump);
    let Some(pos) = func.position_in_parent(node, parent) else {
        return false;
    };
    let rest: Vec<CfNode> = func.cf_list(parent)[pos + 1..].to_vec();
    match (tj, ej) {
        (Some(Jump::Break), Some(Jump::Break)) => {
            // The block after the `if` is unreachable; it becomes the one break.
            let [CfNode::Block(after)] = rest[..] else {
                return false;
            };
            if !block_is_empty(func, after) {
                return false;
            }
            let preds = [then_last, else_last];
            let Some(phis) = exit_phis(func, exit, preds) else {
                return false;
            };
            // The tree makes the unreachable block a predecessor of what follows it
            // (the loop's header, an outer join); breaking, it no longer is, and the
            // phis there lose its source (NIR's `nir_handle_add_jump`).
            for s in func.successors(after) {
                let phis: Vec<Inst> = func
                    .block_insts(s)
                    .take_while(|&i| func.inst(i).is_phi())
                    .collect();
                for i in phis {
                    if let InstKind::Phi(p) = &mut func.inst_mut(i).kind {
                        p.srcs.retain(|(b, _)| *b != after);
                    }
                }
            }
            func.block_mut(then_last).jump = None;
            func.block_mut(else_last).jump = None;
            func.block_mut(after).jump = Some(Jump::Break);
            reroute_exit_phis(func, phis, preds, after, preds);
            true
        }
        (Some(Jump::Break), None) | (None, Some(Jump::Break)) => {
            let (brk_last, fall) = if tj.is_some() {
                (then_last, CfParent::Else(id))
            } else {
                (else_last, CfParent::Then(id))
            };
            let (Some(&CfNode::Block(first)), Some(&CfNode::Block(last))) =
                (rest.first(), rest.last())
            else {
                return false;
            };
            if func.block(last).jump != Some(Jump::Break) || has_jump(func, &rest[..rest.len() - 1])
            {
                return false;
            }
            let Some(phis) = exit_phis(func, exit, [brk_last, last]) else {
                return false;
            };
            // Only the falling branch reaches the rest: its first block's phis have
            // that one source.
            phis_to_movs(func, first);
            func.block_mut(brk_last).jump = None;
            func.block_mut(last).jump = None;
            func.cf_list_mut(parent).truncate(pos + 1);
            let merged = func.create_block(parent);
            func.cf_list_mut(parent).push(CfNode::Block(merged));
            func.block_mut(merged).jump = Some(Jump::Break);
            let tail = func.last_block(fall).expect("lists end with a block");
            for n in rest {
                func.append_cf_node(fall, n);
            }
            func.merge_blocks(tail, first);
            let fall_last = func.last_block(fall).expect("lists end with a block");
            reroute_exit_phis(func, phis, [brk_last, last], merged, [brk_last, fall_last]);
            true
        }
        _ => false,
    }
}
