//! Phi cleanup (`opt-remove-phis`), NIR's `nir_opt_remove_phis`: a phi all of whose
//! sources are one value, not counting `undef` sources and the phi itself (a loop
//! header phi that only carries its own value around), is that value.
//!
//! - Sources are the same value when they read the same source, or two `load_const`s
//!   with the same constants, or two ALU instructions with the same operation and
//!   sources (NIR's `phi_srcs_equal`).
//! - The value replaces the phi only where it is available: its definition must
//!   dominate the immediate dominator of the phi's block (then it dominates the block
//!   and every use of the phi). Otherwise a `load_const`, or an ALU instruction whose
//!   sources dominate that block, is copied to the end of the immediate dominator
//!   (NIR's rematerialization); anything else stays a phi.
//! - A phi whose sources are all `undef` becomes an `undef`.
//! - Phis of unreachable blocks are left to dead control-flow removal.
//!
//! An `undef` source may be taken as any value (NIR leaves its value unspecified), so
//! the phi becomes the value of its other sources on every path: the path through the
//! `undef` now sees that value. The executor gives an `undef` the value 0, so a run
//! whose path really reads such an `undef` may differ from the original's; the
//! property suite compares the two as NIR's semantics allow (an `undef` matches any
//! value).

use super::pass::{Pass, PassError};
use crate::dominance::DomTree;
use crate::entity::{Block, Inst, Value};
use crate::function::{Cursor, Function, InstKind};
use crate::shader::Shader;
use crate::types::Src;
use std::collections::HashMap;

/// The phi-cleanup pass, `opt-remove-phis`.
#[derive(Copy, Clone, Debug, Default)]
pub struct RemovePhis;

impl Pass for RemovePhis {
    fn name(&self) -> &'static str {
        "opt-remove-phis"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= remove_phis_function(f);
        }
        Ok(changed)
    }
}

fn is_undef(func: &Function, v: Value) -> bool {
    func.value_def(v)
        .is_some_and(|d| matches!(func.inst(d).kind, InstKind::Undef))
}

/// Whether two phi sources hold the same value (NIR's `phi_srcs_equal`).
fn srcs_equal(func: &Function, a: Src, b: Src) -> bool {
    if a == b {
        return true;
    }
    if a.swizzle != b.swizzle {
        return false;
    }
    let (Some(da), Some(db)) = (func.value_def(a.value), func.value_def(b.value)) else {
        return false;
    };
    if func.value_type(a.value) != func.value_type(b.value) {
        return false;
    }
    match (&func.inst(da).kind, &func.inst(db).kind) {
        (InstKind::LoadConst(x), InstKind::LoadConst(y)) => x == y,
        (InstKind::Alu(x), InstKind::Alu(y)) => x == y,
        _ => false,
    }
}

/// Removes the phis of `func` that carry a single value; returns whether any went.
pub fn remove_phis_function(func: &mut Function) -> bool {
    let (_, dom) = DomTree::of_fast(func);
    let mut map: HashMap<Value, Src> = HashMap::new();
    let mut dead: Vec<Inst> = Vec::new();
    for block in func.blocks_in_order() {
        if !dom.is_reachable(block) {
            continue;
        }
        let phis: Vec<Inst> = func
            .block_insts(block)
            .take_while(|&i| func.inst(i).is_phi())
            .collect();
        for phi in phis {
            if let Some(rep) = single_value(func, &dom, block, phi, &map) {
                let dest = func.inst(phi).dest.expect("a phi defines a value");
                map.insert(dest, rep);
                dead.push(phi);
            }
        }
    }
    if dead.is_empty() {
        return false;
    }
    for i in dead {
        func.remove_inst(i);
    }
    func.replace_uses(&map);
    true
}

/// What phi `phi` of `block` can be replaced by, creating an `undef` or a copy when
/// needed; `None` to keep it.
fn single_value(
    func: &mut Function,
    dom: &DomTree,
    block: Block,
    phi: Inst,
    removed: &HashMap<Value, Src>,
) -> Option<Src> {
    let InstKind::Phi(p) = &func.inst(phi).kind else {
        return None;
    };
    let dest = func.inst(phi).dest?;
    let resolve = |s: Src| match removed.get(&s.value) {
        // A phi removed earlier in this sweep: compare what replaces it.
        Some(r) if s.swizzle.is_identity() => *r,
        _ => s,
    };
    let mut def: Option<Src> = None;
    for &(_, s) in &p.srcs {
        let s = resolve(s);
        // The phi itself read whole adds nothing; read with a swizzle (`%12.yx`) it is
        // another value.
        if (s.value == dest && s.swizzle.is_identity()) || is_undef(func, s.value) {
            continue;
        }
        match def {
            None => def = Some(s),
            Some(d) if srcs_equal(func, d, s) => {}
            Some(_) => return None,
        }
    }
    let ty = func.value_type(dest);
    let Some(def) = def else {
        // Only undefs: an undef after the phis.
        let u = func.create_inst(InstKind::Undef, Some(ty), func.inst_span(phi));
        let at = match func.block_insts(block).find(|&i| !func.inst(i).is_phi()) {
            Some(i) => Cursor::Before(i),
            None => Cursor::BlockEnd(block),
        };
        func.insert_inst(u, at);
        return func.inst(u).dest.map(Src::new);
    };
    let idom = dom.idom(block)?;
    let def_inst = func.value_def(def.value)?;
    let def_block = func.inst_block(def_inst)?;
    if dom.dominates(def_block, idom) {
        return Some(def);
    }
    // Rematerialize a constant, or an ALU instruction whose sources are available at
    // the end of the immediate dominator.
    let kind = func.inst(def_inst).kind.clone();
    let ok = match &kind {
        InstKind::LoadConst(_) => true,
        InstKind::Alu(a) => a.srcs.iter().all(|s| {
            func.value_def(s.value)
                .and_then(|d| func.inst_block(d))
                .is_some_and(|b| dom.dominates(b, idom))
        }),
        _ => false,
    };
    if !ok {
        return None;
    }
    let copy = func.create_inst(
        kind,
        Some(func.value_type(def.value)),
        func.inst_span(def_inst),
    );
    func.insert_inst(copy, Cursor::BlockEnd(idom));
    let v = func.inst(copy).dest?;
    Some(Src {
        value: v,
        swizzle: def.swizzle,
    })
}
