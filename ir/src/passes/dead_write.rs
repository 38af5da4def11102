//! Dead storage-buffer writes (`opt-dead-write`), NIR's `nir_opt_dead_write_vars` for
//! storage buffers: a `store_ssbo` whose bytes a later store of the same block writes
//! again, with nothing between them that may read those bytes, is removed.
//!
//! The accesses are read as `opt-load-store-vectorize` reads them (the pass's
//! `buffer_access` model): a store is overwritten when a later one names the same block,
//! the same base and the same qualifiers, and its constant byte range holds the
//! earlier one's. Within one basic block, walking back from its end, the pass keeps the
//! ranges later stores write; a load that may read one of them (of any block that may
//! alias it) takes it out, and so does a workgroup-memory access that may (none does:
//! workgroup memory is apart); a global load, a buffer atomic, a barrier or a message it
//! does not know empties the set. `volatile` stores are never removed (the model reads no
//! `volatile` access), and another invocation cannot see a value no barrier orders
//! before its own read. The loads whose values only a removed store took then die in
//! `dce`: Mesa's driver removes them the same way, after a specialization constant of
//! 0 makes a shader write one address many times.

use super::buffer_access::{effect, may_alias, Effect, Key};
use super::pass::{Pass, PassError};
use crate::entity::{Block, Inst};
use crate::function::Function;
use crate::shader::Shader;

/// The pass, `opt-dead-write`.
#[derive(Copy, Clone, Debug, Default)]
pub struct DeadWrite;

impl Pass for DeadWrite {
    fn name(&self) -> &'static str {
        "opt-dead-write"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for func in &mut shader.functions {
            for block in func.blocks_in_order() {
                changed |= remove_dead_writes(func, block);
            }
        }
        Ok(changed)
    }
}

/// Removes the overwritten stores of `block`; returns whether there were any.
fn remove_dead_writes(func: &mut Function, block: Block) -> bool {
    let insts: Vec<Inst> = func.block_insts(block).collect();
    // The bytes stores after the current instruction write before anything reads them.
    let mut later: Vec<(Key, i64, i64)> = Vec::new();
    let mut dead: Vec<Inst> = Vec::new();
    for &inst in insts.iter().rev() {
        match effect(func, inst) {
            Effect::Writes(key, lo, hi) if is_store(func, inst) => {
                if later
                    .iter()
                    .any(|&(k, l, h)| k == key && l <= lo && hi <= h)
                {
                    dead.push(inst);
                } else {
                    later.push((key, lo, hi));
                }
            }
            // A read, or an atomic or workgroup-memory access (which may read what it
            // writes), of bytes a later store writes keeps the store before it.
            Effect::Reads(key, lo, hi) | Effect::Writes(key, lo, hi) => {
                later.retain(|&w| !may_alias(w, (key, lo, hi)))
            }
            Effect::ReadsAny | Effect::All => later.clear(),
            Effect::None => {}
        }
    }
    for &inst in &dead {
        func.remove_inst(inst);
    }
    !dead.is_empty()
}

fn is_store(func: &Function, inst: Inst) -> bool {
    func.inst(inst)
        .as_intrinsic()
        .is_some_and(|i| i.op == crate::intrinsic::IntrinsicOp::StoreSsbo)
}
