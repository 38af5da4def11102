//! Load and store vectorization (`opt-load-store-vectorize`), NIR's
//! `nir_opt_load_store_vectorize` for storage buffers and workgroup memory (brw runs it
//! on both): 32-bit `load_ssbo`s of adjacent bytes in one block become one load of up
//! to four components, and so do the `store_ssbo`s of adjacent bytes, the
//! `load_shared`s and `store_shared`s, and the `load_global`s and `store_global`s of
//! one 64-bit base address, so that one message moves what several did.
//! (A workgroup-memory offset is its source plus `base`; no buffer aliases workgroup
//! memory, and its loads never move past its stores.)
//!
//! - An access's offset is read as `base + constant`, the base up to two non-constant
//!   terms, through `iadd`s (the `algebraic` pass makes address arithmetic of this
//!   shape: `ishl (iadd x, k), c` is `iadd (ishl x, c), k << c`; and `a + (b + 8)` reads
//!   as `{a, b} + 8`, as NIR's vectorizer parses offsets). Two accesses are adjacent when they name the same
//!   block (the same constant or the same value), the same base and the same access
//!   qualifiers, and the bytes of one end where the other's begin.
//! - Loads merge at the first load's place, stores at the last store's, and only within
//!   one basic block. Nothing between them may write the loaded bytes, or read or write
//!   the stored ones: a store or atomic of the same block at a base that differs, or of
//!   another block (bindings may alias, unless both accesses are `restrict`), a global
//!   store or atomic, a barrier, or a message the pass does not know stops a merge; a
//!   store that joins a group counts, for the loads after it, as writing the whole
//!   group there, since the group's earlier stores move down to it. A load may move
//!   past all of that when NIR's `nir_opt_access` would make it `ACCESS_CAN_REORDER`:
//!   it is `readonly`, or the shader writes no buffer memory at all, or it is
//!   `restrict` and nothing writes its block; `volatile` and `coherent` loads never
//!   do. (Offsets are 32-bit: ranges are compared modulo 2^32.)
//! - The merged access is as aligned as its lowest-addressed part was (`align_mul`),
//!   which is all a storage-buffer message of dwords asks.
//!
//! The loaded values are read back through swizzles of the merged load; each store's
//! data becomes components of one vector. The bytes accessed are the same ones, so an
//! access out of bounds stays out of bounds.

use super::buffer_access::{
    apart_from_buffers, decode, effect, may_alias, BlockIndex, Effect, Key,
};
use super::pass::{Pass, PassError};
use crate::builder::Builder;
use crate::entity::{Block, Inst};
use crate::function::{Cursor, Function};
use crate::image::Access;
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::shader::Shader;
use crate::types::{Src, Swizzle, Type};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};

/// The pass, `opt-load-store-vectorize`.
#[derive(Copy, Clone, Debug, Default)]
pub struct LoadStoreVectorize;

impl Pass for LoadStoreVectorize {
    fn name(&self) -> &'static str {
        "opt-load-store-vectorize"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let written = Writes::of(shader);
        let mut changed = false;
        for func in &mut shader.functions {
            for block in func.blocks_in_order() {
                // A merge can make another possible (two pairs into a quad).
                for _ in 0..3 {
                    if !vectorize_block(func, block, &written) {
                        break;
                    }
                    changed = true;
                }
            }
        }
        Ok(changed)
    }
}

/// What the shader writes, for NIR's `nir_opt_access` inference of which loads may be
/// reordered.
struct Writes {
    /// Whether anything may write buffer memory: a storage-buffer store or atomic, a
    /// global store, atomic or group copy, an image store or atomic (a texel buffer
    /// is buffer memory).
    any: bool,
    /// The constant blocks written; `None` when a write names a block that is not a
    /// constant.
    blocks: Option<HashSet<u64>>,
}

impl Writes {
    fn of(shader: &Shader) -> Writes {
        let mut w = Writes {
            any: false,
            blocks: Some(HashSet::new()),
        };
        for func in &shader.functions {
            for inst in func.insts_in_order() {
                let Some(i) = func.inst(inst).as_intrinsic() else {
                    continue;
                };
                use IntrinsicOp::*;
                let block = match i.op {
                    StoreSsbo => i.srcs[1],
                    SsboAtomic | SsboAtomicSwap => i.srcs[0],
                    LoadSsbo | LoadGlobal => continue,
                    LoadShared | StoreShared | SharedAtomic | SharedAtomicSwap => continue,
                    op if apart_from_buffers(op) => continue,
                    op if op.info().can_eliminate => continue,
                    // Global and image writes, group copies, messages, barriers.
                    _ => {
                        w.any = true;
                        continue;
                    }
                };
                w.any = true;
                let c = func.const_component(block.value, block.swizzle.component(0));
                match (c, &mut w.blocks) {
                    (Some(b), Some(set)) => {
                        set.insert(b);
                    }
                    _ => w.blocks = None,
                }
            }
        }
        w
    }

    /// Whether loads of `key` may move past any write (NIR's `ACCESS_CAN_REORDER`):
    /// not `volatile` or `coherent`, and `readonly`, or of a shader that writes no
    /// buffer memory at all, or `restrict` and of a block nothing writes (another
    /// binding may name the same buffer unless the block is `restrict`).
    fn reorderable(&self, key: &Key) -> bool {
        // Workgroup memory: the shader's own stores write it.
        if key.block == BlockIndex::Shared {
            return false;
        }
        let a = key.access;
        if a & (Access::VOLATILE.bits() | Access::COHERENT.bits()) != 0 {
            return false;
        }
        if a & Access::NON_WRITEABLE.bits() != 0 || !self.any {
            return true;
        }
        a & Access::RESTRICT.bits() != 0
            && match (key.block, &self.blocks) {
                (BlockIndex::Const(b), Some(set)) => !set.contains(&b),
                _ => false,
            }
    }
}

/// One access of a group, or a group of merged ones.
#[derive(Clone, Debug)]
struct Part {
    inst: Inst,
    /// The constant part of the offset, in bytes (below 2^32: offsets wrap as the
    /// 32-bit address arithmetic does).
    offset: i64,
    comps: u8,
}

/// Adjacent accesses of one key waiting to be merged.
#[derive(Clone, Debug)]
struct Group {
    key: Key,
    store: bool,
    /// May move past writes to other buffers (a load of a block never written).
    reorderable: bool,
    parts: Vec<Part>,
    /// Of a load group, the writes since its first load that missed its bytes: a later
    /// load joins only if it misses them too, as it moves up past them.
    writes: Vec<(Key, i64, i64)>,
}

impl Group {
    fn lo(&self) -> i64 {
        self.parts.iter().map(|p| p.offset).min().unwrap_or(0)
    }

    fn hi(&self) -> i64 {
        self.parts
            .iter()
            .map(|p| p.offset + 4 * i64::from(p.comps))
            .max()
            .unwrap_or(0)
    }
}

/// One pass over `block`: merges what it can; returns whether it did.
fn vectorize_block(func: &mut Function, block: Block, written: &Writes) -> bool {
    let insts: Vec<Inst> = func.block_insts(block).collect();
    let mut open: Vec<Group> = Vec::new();
    let mut done: Vec<Group> = Vec::new();
    for &inst in &insts {
        let decoded = decode(func, inst);
        let eff = effect(func, inst);
        // Close the groups this instruction conflicts with.
        let mut k = 0;
        while k < open.len() {
            let g = &mut open[k];
            let range = (g.key, g.lo(), g.hi());
            if let Effect::Writes(key, lo, hi) = &eff {
                if !g.store && !g.reorderable && !may_alias(range, (*key, *lo, *hi)) {
                    g.writes.push((*key, *lo, *hi));
                }
            }
            let conflict = match &eff {
                Effect::None => false,
                // The access itself joins or starts a group below; another access of
                // a group's key at disjoint bytes does not conflict.
                Effect::Reads(key, lo, hi) => g.store && may_alias(range, (*key, *lo, *hi)),
                Effect::Writes(key, lo, hi) => {
                    !(g.reorderable) && may_alias(range, (*key, *lo, *hi))
                }
                Effect::ReadsAny => g.store,
                Effect::All => !g.reorderable,
            };
            if conflict {
                done.push(open.swap_remove(k));
            } else {
                k += 1;
            }
        }
        let Some(d) = decoded else {
            continue;
        };
        let (lo, hi) = (d.offset, d.offset + 4 * i64::from(d.comps));
        let part = Part {
            inst,
            offset: d.offset,
            comps: d.comps,
        };
        let joined = open.iter_mut().find(|g| {
            g.key == d.key
                && g.store == d.store
                && (g.hi() == lo || g.lo() == hi)
                && (g.hi().max(hi) - g.lo().min(lo)) <= 16
                && (d.key.block == BlockIndex::Global || g.hi().max(hi) <= 1 << 32)
                && !g.writes.iter().any(|&w| may_alias(w, (d.key, lo, hi)))
        });
        let merged = match joined {
            Some(g) => {
                g.parts.push(part);
                (g.key, g.lo(), g.hi())
            }
            None => {
                let reorderable = !d.store && written.reorderable(&d.key);
                open.push(Group {
                    key: d.key,
                    store: d.store,
                    reorderable,
                    parts: vec![part],
                    writes: Vec::new(),
                });
                (d.key, lo, hi)
            }
        };
        // A store merged here writes every byte of its group here: a load that joins
        // a group opened earlier moves up past this place, so it must miss them all,
        // not only this store's own.
        if d.store {
            for g in open.iter_mut().filter(|g| !g.store && !g.reorderable) {
                g.writes.push(merged);
            }
        }
    }
    done.extend(open);
    let mut changed = false;
    for g in done.into_iter().filter(|g| g.parts.len() > 1) {
        if g.store {
            merge_stores(func, &g);
        } else {
            merge_loads(func, &g);
        }
        changed = true;
    }
    changed
}

/// The offset source of a merged access at `offset` bytes and the `base` index it
/// takes: the part's own source and base when one starts there, else `base + offset`
/// built before `at` with a base of 0.
fn offset_src(func: &mut Function, g: &Group, offset: i64, at: Inst) -> (Src, u32) {
    let lowest = g
        .parts
        .iter()
        .find(|p| p.offset == offset)
        .expect("a part starts at the group's lowest offset");
    let (_, off_src) = srcs_of(func, lowest.inst);
    if func
        .value_def(off_src.value)
        .is_none_or(|d| dominates_in_block(func, d, at))
    {
        return (off_src, index_base(func, lowest.inst));
    }
    let mut b = Builder::new(func, Cursor::Before(at));
    let k = Src::new(if g.key.block == BlockIndex::Global {
        b.imm_u64(offset as u64)
    } else {
        b.imm_u32(offset as u32)
    });
    let mut src = k;
    for &(v, c) in g.key.base.iter().rev().flatten() {
        let term = if b.func.value_type(v).num_components() == 1 {
            Src::new(v)
        } else {
            Src {
                value: v,
                swizzle: Swizzle::channel(c),
            }
        };
        src = Src::new(b.iadd(term, src));
    }
    (src, 0)
}

/// Whether `def` comes before `at`: in another block (then it dominates the block,
/// since `at`'s access read a value computed from it), or earlier in the same one.
fn dominates_in_block(func: &Function, def: Inst, at: Inst) -> bool {
    if func.inst_block(def) != func.inst_block(at) {
        return true;
    }
    let mut cur = Some(def);
    while let Some(i) = cur {
        if i == at {
            return true;
        }
        cur = func.next_inst(i);
    }
    false
}

/// The block (none for workgroup and global memory) and offset (or address) sources
/// of an access.
fn srcs_of(func: &Function, inst: Inst) -> (Option<Src>, Src) {
    let i = func.inst(inst).as_intrinsic().expect("an access");
    match i.op {
        IntrinsicOp::LoadSsbo => (Some(i.srcs[0]), i.srcs[1]),
        IntrinsicOp::StoreSsbo => (Some(i.srcs[1]), i.srcs[2]),
        IntrinsicOp::LoadShared | IntrinsicOp::LoadGlobal => (None, i.srcs[0]),
        _ => (None, i.srcs[1]),
    }
}

/// The `base` index of a workgroup-memory access (0 for a storage buffer's).
fn index_base(func: &Function, inst: Inst) -> u32 {
    let i = func.inst(inst).as_intrinsic().expect("an access");
    i.index(IndexKind::Base).unwrap_or(0)
}

fn access_indices(func: &Function, inst: Inst) -> (u32, u32) {
    let i = func.inst(inst).as_intrinsic().expect("an access");
    (
        i.index(IndexKind::Access).unwrap_or(0),
        i.index(IndexKind::AlignMul).unwrap_or(4),
    )
}

/// What a merged access at `at` takes: its block (none for workgroup memory), offset
/// and indices (a buffer access's qualifiers of `at`'s part, or the shared access's
/// `base`; the alignment of the lowest-addressed part).
fn merged_operands(func: &mut Function, g: &Group, at: Inst) -> (Option<Src>, Src, [u32; 2]) {
    let lo = g.lo();
    let lowest = g
        .parts
        .iter()
        .find(|p| p.offset == lo)
        .expect("a part starts at the group's lowest offset")
        .inst;
    let (block_src, _) = srcs_of(func, at);
    let (access, _) = access_indices(func, at);
    let (_, align) = access_indices(func, lowest);
    let (offset, base) = offset_src(func, g, lo, at);
    let first = if block_src.is_some() || g.key.block == BlockIndex::Global {
        access
    } else {
        base
    };
    (block_src, offset, [first, align])
}

fn merge_loads(func: &mut Function, g: &Group) {
    let first = g.parts[0].inst;
    let (lo, hi) = (g.lo(), g.hi());
    let (block_src, offset, indices) = merged_operands(func, g, first);
    let n = ((hi - lo) / 4) as u8;
    let mut b = Builder::new(func, Cursor::Before(first));
    b.span = b.func.inst_span(first);
    let (op, srcs): (IntrinsicOp, SmallVec<[Src; 2]>) = match block_src {
        Some(block) => (IntrinsicOp::LoadSsbo, smallvec::smallvec![block, offset]),
        None if g.key.block == BlockIndex::Global => {
            (IntrinsicOp::LoadGlobal, smallvec::smallvec![offset])
        }
        None => (IntrinsicOp::LoadShared, smallvec::smallvec![offset]),
    };
    let wide = b
        .intrinsic(op, None, &srcs, &indices, Some(Type::vec32(n)))
        .expect("a load defines a value");
    let mut map = HashMap::new();
    for p in &g.parts {
        let start = ((p.offset - lo) / 4) as u8;
        let comps: SmallVec<[u8; 4]> = (start..start + p.comps).collect();
        let dest = func.inst(p.inst).dest.expect("a load defines a value");
        let swizzle = Swizzle::new(&comps).unwrap_or(Swizzle::IDENTITY);
        map.insert(
            dest,
            Src {
                value: wide,
                swizzle,
            },
        );
    }
    func.replace_uses(&map);
    for p in &g.parts {
        func.remove_inst(p.inst);
    }
}

fn merge_stores(func: &mut Function, g: &Group) {
    let last = g.parts.last().expect("a part").inst;
    let (lo, hi) = (g.lo(), g.hi());
    let (block_src, offset, indices) = merged_operands(func, g, last);
    // The data, component by component in address order; a later store of the same
    // bytes cannot be in the group (it would have closed it).
    let mut parts: Vec<&Part> = g.parts.iter().collect();
    parts.sort_by_key(|p| p.offset);
    let mut comps: SmallVec<[Src; 4]> = SmallVec::new();
    for p in parts {
        let data = func.inst(p.inst).as_intrinsic().expect("a store").srcs[0];
        for c in 0..p.comps {
            comps.push(Src {
                value: data.value,
                swizzle: Swizzle::channel(data.swizzle.component(c)),
            });
        }
    }
    debug_assert_eq!(comps.len() as i64, (hi - lo) / 4);
    let mut b = Builder::new(func, Cursor::Before(last));
    b.span = b.func.inst_span(last);
    let data = Src::new(b.vec(&comps));
    let (op, srcs): (IntrinsicOp, SmallVec<[Src; 3]>) = match block_src {
        Some(block) => (
            IntrinsicOp::StoreSsbo,
            smallvec::smallvec![data, block, offset],
        ),
        None if g.key.block == BlockIndex::Global => {
            (IntrinsicOp::StoreGlobal, smallvec::smallvec![data, offset])
        }
        None => (IntrinsicOp::StoreShared, smallvec::smallvec![data, offset]),
    };
    b.intrinsic(op, None, &srcs, &indices, None);
    for p in &g.parts {
        func.remove_inst(p.inst);
    }
}
