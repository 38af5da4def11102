//! Storage-buffer accesses as the memory passes read them (`opt-load-store-vectorize`,
//! `opt-dead-write`): which block and bytes a `load_ssbo` or `store_ssbo` touches, and
//! what any other instruction may do to buffer memory, after NIR's
//! `nir_opt_load_store_vectorize` and `nir_opt_dead_write_vars`.
//!
//! - An access's offset is read as `base + constant`, the base a sum of up to two
//!   non-constant terms, through `iadd`s (`a + (b + 8)` is `{a, b} + 8`, as NIR's
//!   vectorizer parses offsets into terms: the address of `s[i][j + 1]` is
//!   `i * stride + (j * 8 + 8)`). Two accesses of the same block (the same constant or
//!   the same value), base and qualifiers are compared by their constant byte ranges,
//!   modulo 2^32 as the 32-bit offsets wrap.
//! - Bindings may alias: accesses of two blocks may touch the same bytes unless both are
//!   constant blocks declared `restrict`.
//! - Workgroup memory (`load_shared`, `store_shared`, shared atomics) is a block of its
//!   own that no buffer aliases; its accesses' constant parts include their `base`.
//! - Global memory (`load_global`, `store_global`) is one block of 64-bit addresses
//!   read as `base + constant` the same way; a storage buffer may alias it.

use crate::entity::{Inst, Value};
use crate::function::Function;
use crate::image::Access;
use crate::intrinsic::{IndexKind, IntrinsicClass, IntrinsicOp};
use crate::types::Type;
use smallvec::SmallVec;

/// The block a storage-buffer access names, or workgroup memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum BlockIndex {
    Const(u64),
    Value(Value, u8),
    Shared,
    /// Global memory (`load_global`, `store_global`): one space of 64-bit addresses,
    /// which storage buffers may alias.
    Global,
}

/// What two accesses must share to be merged: the block, the base of the offset, the
/// qualifiers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    pub(super) block: BlockIndex,
    /// The offset's non-constant part: its terms (value and component), sorted.
    pub(super) base: Base,
    pub(super) access: u32,
}

/// The non-constant part of an offset: up to two terms, in ascending order, the unused
/// ones `None` (after the used ones); all `None` for a constant offset.
pub(super) type Base = [Option<(Value, u8)>; 2];

/// A storage-buffer access as the pass reads it.
pub(super) struct Decoded {
    pub(super) key: Key,
    pub(super) offset: i64,
    pub(super) comps: u8,
    pub(super) store: bool,
}

impl Decoded {
    /// What the access does: reads or writes its bytes.
    fn effect(&self) -> Effect {
        let (lo, hi) = (self.offset, self.offset + 4 * i64::from(self.comps));
        if self.store {
            Effect::Writes(self.key, lo, hi)
        } else {
            Effect::Reads(self.key, lo, hi)
        }
    }
}

/// Decodes a 32-bit `load_ssbo`, `store_ssbo`, `load_shared` or `store_shared` of one
/// to four components.
pub(super) fn decode(func: &Function, inst: Inst) -> Option<Decoded> {
    let data = func.inst(inst);
    let i = data.as_intrinsic()?;
    let stored = |d: crate::types::Src| {
        let full = func.value_type(d.value);
        Type::new(full.bit_size(), func.src_components(d))
    };
    let (store, block, offset, ty) = match i.op {
        IntrinsicOp::LoadSsbo => (
            false,
            Some(i.srcs[0]),
            i.srcs[1],
            func.value_type(data.dest?),
        ),
        IntrinsicOp::StoreSsbo => (true, Some(i.srcs[1]), i.srcs[2], stored(i.srcs[0])?),
        IntrinsicOp::LoadShared => (false, None, i.srcs[0], func.value_type(data.dest?)),
        IntrinsicOp::StoreShared => (true, None, i.srcs[1], stored(i.srcs[0])?),
        IntrinsicOp::LoadGlobal | IntrinsicOp::StoreGlobal => {
            let (store, address, ty) = if i.op == IntrinsicOp::LoadGlobal {
                (false, i.srcs[0], func.value_type(data.dest?))
            } else {
                (true, i.srcs[1], stored(i.srcs[0])?)
            };
            let access = i.index(IndexKind::Access).unwrap_or(0);
            if ty.bit_size() != 32
                || ty.num_components() > 4
                || access & Access::VOLATILE.bits() != 0
                || func.value_type(address.value).bit_size() != 64
            {
                return None;
            }
            let (base, konst) = split_address(func, address.value, address.swizzle.component(0));
            return Some(Decoded {
                key: Key {
                    block: BlockIndex::Global,
                    base,
                    access,
                },
                offset: konst,
                comps: ty.num_components(),
                store,
            });
        }
        _ => return None,
    };
    let access = i.index(IndexKind::Access).unwrap_or(0);
    if ty.bit_size() != 32 || ty.num_components() > 4 || access & Access::VOLATILE.bits() != 0 {
        return None;
    }
    let block = match block {
        None => BlockIndex::Shared,
        Some(b) => match func.const_component(b.value, b.swizzle.component(0)) {
            Some(c) => BlockIndex::Const(c),
            None => BlockIndex::Value(b.value, b.swizzle.component(0)),
        },
    };
    let (base, konst) = split_offset(func, offset.value, offset.swizzle.component(0));
    let index_base = i.index(IndexKind::Base).unwrap_or(0);
    Some(Decoded {
        key: Key {
            block,
            base,
            access,
        },
        offset: (konst + i64::from(index_base)).rem_euclid(1 << 32),
        comps: ty.num_components(),
        store,
    })
}

/// An offset component as a non-constant base and a constant modulo 2^32, through
/// `iadd`s (a few deep).
pub(super) fn split_offset(func: &Function, value: Value, comp: u8) -> (Base, i64) {
    let (base, konst) = split_sum(func, value, comp);
    (base, i64::from(konst as u32))
}

/// A 64-bit address as a non-constant base and a constant (two's complement, so that
/// a negative constant compares below the base), through `iadd`s (a few deep).
fn split_address(func: &Function, value: Value, comp: u8) -> (Base, i64) {
    let (base, konst) = split_sum(func, value, comp);
    (base, konst as i64)
}

/// A value component as up to two non-constant terms and the sum of the constants
/// `iadd`s add to them, modulo 2^64 (the callers keep as many bits as the value has).
///
/// An `iadd` with a constant operand adds the constant and goes on with the other one;
/// an `iadd` of two non-constant operands is split into both while there is room for
/// a second term, so that `a + b` and `a + (b + 8)` both read as `{a, b}`. A sum of
/// more terms keeps its outer `iadd`s whole, which only loses merges.
fn split_sum(func: &Function, value: Value, comp: u8) -> (Base, u64) {
    let mut terms: SmallVec<[(Value, u8); 2]> = smallvec::smallvec![(value, comp)];
    let mut konst = 0u64;
    let mut i = 0;
    for _ in 0..8 {
        let Some(&(v, c)) = terms.get(i) else { break };
        if let Some(k) = func.const_component(v, c) {
            konst = konst.wrapping_add(k);
            terms.remove(i);
            continue;
        }
        let add = func
            .value_def(v)
            .and_then(|d| func.inst(d).as_alu())
            .filter(|a| a.op == crate::alu::AluOp::Iadd);
        let Some(add) = add else {
            i += 1;
            continue;
        };
        let [x, y] = [add.srcs[0], add.srcs[1]].map(|s| (s.value, s.swizzle.component(c)));
        match (
            func.const_component(x.0, x.1),
            func.const_component(y.0, y.1),
        ) {
            (_, Some(k)) => {
                konst = konst.wrapping_add(k);
                terms[i] = x;
            }
            (Some(k), _) => {
                konst = konst.wrapping_add(k);
                terms[i] = y;
            }
            _ if terms.len() < 2 => {
                terms[i] = x;
                terms.push(y);
            }
            _ => i += 1,
        }
    }
    terms.sort_unstable_by_key(|&(v, c)| (v.index(), c));
    let mut base: Base = [None, None];
    for (slot, t) in base.iter_mut().zip(terms) {
        *slot = Some(t);
    }
    (base, konst)
}

/// What an instruction between two accesses may do to buffer memory.
pub(super) enum Effect {
    /// Nothing (ALU, loads of other memory, system values, ...).
    None,
    /// Reads these bytes of a storage buffer.
    Reads(Key, i64, i64),
    /// Writes (or reads and writes) these bytes of a storage buffer.
    Writes(Key, i64, i64),
    /// Reads buffer memory the pass cannot place (a global load).
    ReadsAny,
    /// Writes anywhere, or orders memory (a barrier, a global store, a message).
    All,
}

pub(super) fn effect(func: &Function, inst: Inst) -> Effect {
    let Some(i) = func.inst(inst).as_intrinsic() else {
        return Effect::None;
    };
    use IntrinsicOp::*;
    match i.op {
        LoadSsbo | StoreSsbo => match decode(func, inst) {
            Some(d) => d.effect(),
            None if i.op == LoadSsbo => Effect::ReadsAny,
            None => Effect::All,
        },
        LoadShared | StoreShared => match decode(func, inst) {
            Some(d) => d.effect(),
            // Workgroup memory the model does not place: every shared byte.
            None => Effect::Writes(SHARED_ANYWHERE, 0, 1 << 32),
        },
        SharedAtomic | SharedAtomicSwap => Effect::Writes(SHARED_ANYWHERE, 0, 1 << 32),
        LoadGlobal | StoreGlobal => match decode(func, inst) {
            Some(d) => d.effect(),
            None if i.op == LoadGlobal => Effect::ReadsAny,
            None => Effect::All,
        },
        // Images are memory of their own in NIR's modes (a texel buffer's writes count
        // for `Writes::any` only).
        ImageStore | ImageAtomic | ImageAtomicSwap => Effect::None,
        op if apart_from_buffers(op) => Effect::None,
        // System values, subgroup operations and the like; a message (its loads too)
        // may reach buffer memory in ways the pass does not follow.
        op if op.info().can_eliminate
            && !matches!(
                op.info().class,
                IntrinsicClass::Message | IntrinsicClass::Memory
            ) =>
        {
            Effect::None
        }
        _ => Effect::All,
    }
}

/// Whether `op` only reads or writes memory storage buffers cannot alias (workgroup,
/// scratch, uniform and push-constant memory, the shader's constants, image reads and
/// queries) or a buffer's size.
pub(super) fn apart_from_buffers(op: IntrinsicOp) -> bool {
    use IntrinsicOp::*;
    matches!(
        op,
        LoadScratch
            | StoreScratch
            | LoadUbo
            | LoadPushConstant
            | LoadConstant
            | GetSsboSize
            | ImageLoad
            | ImageSize
            | ImageSamples
            | ImageLevels
            | ImageLoadParam
    )
}

/// Workgroup memory at a place the model does not follow (an atomic, an access it does
/// not decode): it meets every shared access. (No decoded access has these qualifier
/// bits, so no access's key is this one.)
const SHARED_ANYWHERE: Key = Key {
    block: BlockIndex::Shared,
    base: [None, None],
    access: u32::MAX,
};

/// Whether accesses at `a_key` `[a_lo, a_hi)` and `b_key` `[b_lo, b_hi)` may touch a
/// common byte.
pub(super) fn may_alias(a: (Key, i64, i64), b: (Key, i64, i64)) -> bool {
    let ((ka, alo, ahi), (kb, blo, bhi)) = (a, b);
    let restrict = Access::RESTRICT.bits();
    let shared = |k: Key| k.block == BlockIndex::Shared;
    if shared(ka) != shared(kb) {
        return false;
    }
    if shared(ka) && (ka == SHARED_ANYWHERE || kb == SHARED_ANYWHERE) {
        return true;
    }
    if ka.block != kb.block {
        // Two bindings may name one buffer, unless both say they do not.
        let both_constant = matches!(
            (ka.block, kb.block),
            (BlockIndex::Const(_), BlockIndex::Const(_))
        );
        return !(both_constant && ka.access & restrict != 0 && kb.access & restrict != 0);
    }
    if ka.base != kb.base {
        return true;
    }
    // Offsets are 32-bit (64-bit addresses for global memory): the ranges meet when
    // one starts within the other, modulo 2^32 (2^64).
    let global = ka.block == BlockIndex::Global;
    let within = |lo: i64, start: i64, len: i64| {
        if global {
            (lo.wrapping_sub(start) as u64) < len as u64
        } else {
            (lo - start).rem_euclid(1 << 32) < len
        }
    };
    within(blo, alo, ahi - alo) || within(alo, blo, bhi - blo)
}
