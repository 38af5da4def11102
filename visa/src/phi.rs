//! Phis out of SSA: each phi is a variable written by its predecessors.
//!
//! At the end of a block, every phi of its successors that names it as a predecessor
//! gets a copy of its source. NIR has no critical edges, so those copies run exactly on
//! the lanes that take that edge (the copies are masked by the lanes executing the
//! block), and a lane that leaves a loop early keeps the values of its last iteration.
//! The copies of one block are a parallel copy: when one reads a phi another writes
//! (a swap at a loop header), they are ordered so that every value is read before it
//! is overwritten, and a cycle is broken with one temporary.

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::ops::copy;
use ir::{Block, InstKind, Src, Value};
use std::collections::HashMap;

/// The copies each block runs at its end: `(phi, source)`.
#[derive(Clone, Debug, Default)]
pub struct PhiCopies {
    by_pred: HashMap<Block, Vec<(Value, Src)>>,
}

impl PhiCopies {
    /// Collects the phis of `func`.
    pub fn new(func: &ir::Function) -> PhiCopies {
        let mut by_pred: HashMap<Block, Vec<(Value, Src)>> = HashMap::new();
        for b in func.blocks_in_order() {
            for inst in func.block_insts(b) {
                let data = func.inst(inst);
                let (InstKind::Phi(phi), Some(dest)) = (&data.kind, data.dest) else {
                    continue;
                };
                for (pred, src) in &phi.srcs {
                    by_pred.entry(*pred).or_default().push((dest, *src));
                }
            }
        }
        PhiCopies { by_pred }
    }

    /// Whether `block` ends with phi copies.
    pub fn has_copies(&self, block: Block) -> bool {
        self.by_pred.get(&block).is_some_and(|c| !c.is_empty())
    }

    /// Emits the copies at the end of `block`.
    pub fn emit(&self, cx: &mut Ctx, block: Block) -> Result<(), EmitError> {
        let Some(copies) = self.by_pred.get(&block) else {
            return Ok(());
        };
        let mut pending: Vec<(Value, Source)> = copies
            .iter()
            .filter(|(d, s)| {
                // A phi reading itself (or a value sharing its variable,
                // `crate::coalesce`) needs no copy; an undefined source needs none.
                let self_copy =
                    cx.var_leader(s.value) == cx.var_leader(*d) && s.swizzle.is_identity();
                !self_copy && !cx.is_undef(s.value)
            })
            .map(|(d, s)| (*d, Source::Value(*s)))
            .collect();
        while !pending.is_empty() {
            // Values are compared by the variable they live in.
            let ready = (0..pending.len()).find(|&i| {
                let d = cx.var_leader(pending[i].0);
                !pending
                    .iter()
                    .enumerate()
                    .any(|(j, (_, s))| j != i && s.reads(cx, d))
            });
            match ready {
                Some(i) => {
                    let (d, s) = pending.remove(i);
                    copy_value(cx, d, &s)?;
                }
                None => {
                    // Every pending phi is read by another copy: a cycle. Save the
                    // first one's current value and let its readers read the copy.
                    let d = pending[0].0;
                    let ty = cx.func.value_type(d);
                    let bits = ty.bit_size();
                    let st = crate::ctx::storage_type(bits);
                    let t = cx.temp_n(st, u32::from(ty.num_components()));
                    let per = cx.comp_bytes(bits);
                    for c in 0..ty.num_components() {
                        let o = cx.comp(Src::new(d), c)?;
                        copy(cx, t.at(u32::from(c) * per), o, bits);
                    }
                    let var = cx.var_leader(d);
                    for (_, s) in pending.iter_mut() {
                        if let Source::Value(src) = *s {
                            if cx.var_leader(src.value) == var {
                                *s = Source::Saved(t, src);
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where a copy reads: an IR source, or a saved copy of one (reading it with the
/// source's swizzle).
#[derive(Copy, Clone, Debug)]
enum Source {
    Value(Src),
    Saved(Reg, Src),
}

impl Source {
    /// Whether the copy reads the variable of value `var` (a variable's leader).
    fn reads(&self, cx: &Ctx, var: Value) -> bool {
        matches!(self, Source::Value(s) if cx.var_leader(s.value) == var)
    }
}

fn copy_value(cx: &mut Ctx, d: Value, s: &Source) -> Result<(), EmitError> {
    let ty = cx.func.value_type(d);
    let bits = ty.bit_size();
    for c in 0..ty.num_components() {
        let o = match *s {
            Source::Value(src) => cx.comp(src, c)?,
            Source::Saved(t, src) => {
                let k = src.swizzle.component(c);
                Opnd::Reg(t.at(u32::from(k) * cx.comp_bytes(bits)))
            }
        };
        let dr = cx.dest(d, c)?;
        copy(cx, dr, o, bits);
    }
    Ok(())
}
