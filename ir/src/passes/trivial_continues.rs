//! Trivial continues (`opt-trivial-continues`), NIR's `nir_opt_trivial_continues`: a
//! `continue` after which control would reach the end of the loop body anyway, through
//! empty blocks only, is deleted, so that the loop analysis sees a plain loop body.
//!
//! NIR walks back from the last block of each loop body: while a block is empty (or
//! holds only a `continue`) and follows an `if`, it visits the last block of both of
//! the `if`'s branches; every visited block that ends in `continue` loses it. The front
//! end's loops take this shape (`loop { header; if c { body; continue } else { break } }`),
//! which the unroller cannot read until the `continue` is gone.
//!
//! NIR goes out of SSA for the header phis and back in. Here the header phis are
//! patched directly: the value a deleted `continue` carried to the header now flows
//! through the empty blocks at the loop's end, which get phis where paths with
//! different values meet, and the header phi's source from the last block becomes the
//! value arriving there.

use super::pass::{Pass, PassError};
use crate::entity::{Block, Inst, LoopId};
use crate::function::{CfNode, CfParent, Cursor, Function, InstKind, Jump, Phi};
use crate::shader::Shader;
use crate::span::Span;
use crate::types::Src;
use smallvec::SmallVec;

/// The trivial-continue pass, `opt-trivial-continues`.
#[derive(Copy, Clone, Debug, Default)]
pub struct TrivialContinues;

impl Pass for TrivialContinues {
    fn name(&self) -> &'static str {
        "opt-trivial-continues"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= trivial_continues_function(f);
        }
        Ok(changed)
    }
}

/// Deletes the trivial continues of every loop of `func`; returns whether any went.
pub fn trivial_continues_function(func: &mut Function) -> bool {
    let mut loops: Vec<LoopId> = Vec::new();
    func.walk(|n| {
        if let CfNode::Loop(l) = n {
            loops.push(l)
        }
    });
    let mut changed = false;
    for l in loops {
        changed |= lower_loop(func, l);
    }
    changed
}

fn is_empty(func: &Function, b: Block) -> bool {
    func.first_inst(b).is_none() && matches!(func.block(b).jump, None | Some(Jump::Continue))
}

/// The `if` right before block `b` in its list, if any.
fn if_before(func: &Function, b: Block) -> Option<crate::entity::IfId> {
    match func.prev_node(CfNode::Block(b)) {
        Some(CfNode::If(i)) => Some(i),
        _ => None,
    }
}

/// Visits the tail of a loop from `b` as NIR does, collecting the blocks whose
/// `continue` goes.
fn collect(func: &Function, b: Block, removed: &mut Vec<Block>) {
    if is_empty(func, b) {
        if let Some(i) = if_before(func, b) {
            if let Some(t) = func.last_block(CfParent::Then(i)) {
                collect(func, t, removed);
            }
            if let Some(e) = func.last_block(CfParent::Else(i)) {
                collect(func, e, removed);
            }
        }
    }
    if func.block(b).jump == Some(Jump::Continue) {
        removed.push(b);
    }
}

fn lower_loop(func: &mut Function, l: LoopId) -> bool {
    let Some(last) = func.last_block(CfParent::Loop(l)) else {
        return false;
    };
    let Some(header) = func.first_block(CfParent::Loop(l)) else {
        return false;
    };
    let mut removed = Vec::new();
    collect(func, last, &mut removed);
    if removed.is_empty() {
        return false;
    }
    let phis: SmallVec<[Inst; 8]> = func
        .block_insts(header)
        .take_while(|&i| func.inst(i).is_phi())
        .collect();
    // The value of each header phi arriving from every block whose continue goes, and
    // from the last block (the paths that already fell through).
    let sources: Vec<Phi> = phis
        .iter()
        .map(|&i| match &func.inst(i).kind {
            InstKind::Phi(p) => p.clone(),
            _ => unreachable!("taken while phis"),
        })
        .collect();
    for &b in &removed {
        func.block_mut(b).jump = None;
    }
    let mut ctx = Tail {
        removed: &removed,
        undefs: Vec::new(),
    };
    for (&phi, srcs) in phis.iter().zip(&sources) {
        let src_of = |b: Block| srcs.srcs.iter().find(|(p, _)| *p == b).map(|(_, s)| *s);
        let ty = func.value_type(func.inst(phi).dest.expect("phi defines a value"));
        // Without a source from the last block the phi was invalid already.
        let Some(old) = src_of(last) else { continue };
        let from_removed: SmallVec<[(Block, Src); 4]> = removed
            .iter()
            .filter_map(|&b| src_of(b).map(|s| (b, s)))
            .collect();
        let arriving = ctx.value_in(func, last, old, &from_removed, ty);
        let mut new_srcs = srcs.srcs.clone();
        new_srcs.retain(|(p, _)| *p == last || !removed.contains(p));
        for (p, s) in new_srcs.iter_mut() {
            if *p == last {
                *s = arriving;
            }
        }
        if let InstKind::Phi(p) = &mut func.inst_mut(phi).kind {
            p.srcs = new_srcs;
        }
    }
    true
}

struct Tail<'a> {
    removed: &'a [Block],
    undefs: Vec<(crate::types::Type, Src)>,
}

impl Tail<'_> {
    fn undef(&mut self, func: &mut Function, ty: crate::types::Type) -> Src {
        if let Some(&(_, s)) = self.undefs.iter().find(|(t, _)| *t == ty) {
            return s;
        }
        let v = func
            .undef_at_entry(ty)
            .expect("a loop sits in a function with blocks");
        self.undefs.push((ty, Src::new(v)));
        Src::new(v)
    }

    /// The value that reaches the end of block `b` (`old` on the paths that reached the
    /// header through the last block before), given the values the deleted continues
    /// carried.
    fn value_out(
        &mut self,
        func: &mut Function,
        b: Block,
        old: Src,
        from_removed: &[(Block, Src)],
        ty: crate::types::Type,
    ) -> Src {
        if let Some(&(_, s)) = from_removed.iter().find(|(p, _)| *p == b) {
            return s;
        }
        if self.removed.contains(&b) {
            // A deleted continue of a block the phi had no source for (an invalid phi):
            // nothing meaningful arrives.
            return self.undef(func, ty);
        }
        self.value_in(func, b, old, from_removed, ty)
    }

    /// The value arriving at the start of block `b` of the loop's tail.
    fn value_in(
        &mut self,
        func: &mut Function,
        b: Block,
        old: Src,
        from_removed: &[(Block, Src)],
        ty: crate::types::Type,
    ) -> Src {
        let tail = func.first_inst(b).is_none();
        let Some(i) = if_before(func, b).filter(|_| tail) else {
            // A block with instructions, or the first of its list: only paths that
            // existed before reach it.
            return old;
        };
        let mut incoming: SmallVec<[(Block, Src); 2]> = SmallVec::new();
        for parent in [CfParent::Then(i), CfParent::Else(i)] {
            let Some(end) = func.last_block(parent) else {
                continue;
            };
            if func.block(end).jump.is_some() {
                continue;
            }
            let v = self.value_out(func, end, old, from_removed, ty);
            incoming.push((end, v));
        }
        match incoming.as_slice() {
            [] => self.undef(func, ty),
            [(_, v)] => *v,
            [(_, a), (_, c)] if a == c => *a,
            _ => {
                let phi = func.create_inst(
                    InstKind::Phi(Phi {
                        srcs: incoming.iter().copied().collect(),
                    }),
                    Some(ty),
                    Span::UNKNOWN,
                );
                func.insert_inst(phi, Cursor::BlockStart(b));
                Src::new(func.inst(phi).dest.expect("created with a value"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_shader;
    use crate::print::print_shader;
    use crate::validate::validate;

    fn run(text: &str) -> String {
        let mut s = parse_shader(text).unwrap();
        assert!(TrivialContinues.run(&mut s).unwrap());
        if let Err(d) = validate(&s) {
            panic!("invalid: {d:#?}\n{}", print_shader(&s));
        }
        print_shader(&s)
    }

    #[test]
    fn the_front_ends_loop_shape_loses_its_continue() {
        let out = run("fn main {
  block b0:
    32 %0 = load_const (0)
    32 %9 = undef
  loop {
    block b1:
      32 %1 = phi b0: %0, b2: %3, b4: %9
      32 %2 = load_const (4)
      1 %5 = ult %1, %2
    if %5 {
      block b2:
        32 %6 = load_const (1)
        32 %3 = iadd %1, %6
        continue
    } else {
      block b3:
        break
    }
    block b4:
  }
  block b5:
}");
        assert!(out.contains("phi b0: %0, b4: %3"), "{out}");
        assert!(!out.contains("continue"), "{out}");
    }

    #[test]
    fn continues_in_both_branches_meet_in_a_phi() {
        let out = run("fn main {
  block b0:
    32 %0 = load_const (0)
    32 %9 = undef
    1 %7 = load_const (true)
  loop {
    block b1:
      32 %1 = phi b0: %0, b2: %3, b3: %4, b4: %9
      32 %2 = load_const (4)
      1 %5 = ult %1, %2
    if %5 {
      block b6:
        break
    } else {
      block b7:
    }
    block b8:
    if %7 {
      block b2:
        32 %6 = load_const (1)
        32 %3 = iadd %1, %6
        continue
    } else {
      block b3:
        32 %8 = load_const (2)
        32 %4 = iadd %1, %8
        continue
    }
    block b4:
  }
  block b5:
}");
        assert!(out.contains("phi b2: %3, b3: %4"), "{out}");
        assert!(!out.contains("continue"), "{out}");
    }
}
