//! Common subexpression elimination by global value numbering over the dominator tree
//! (NIR's `nir_opt_cse` with its instruction set).
//!
//! The reachable blocks are visited in a preorder of the dominator tree with a scoped
//! hash table: an instruction equal to one in a dominating block (or earlier in its own
//! block) is removed and its uses read the earlier value. Two instructions are equal
//! when they have the same kind, the same sources after earlier replacements (compared
//! component by component, so `%a` and `%a.xyzw` of a vec4 are the same), the same
//! indices and the same destination type. Commutative ALU ops have their first two
//! sources put in a canonical order.
//!
//! What takes part:
//! - ALU instructions and `load_const`;
//! - intrinsics whose result depends only on their operands (`can_reorder`: system
//!   values, `image_size`, `image_load_param`, ...), `readonly` storage-buffer loads
//!   that are neither `volatile` nor `coherent` (NIR's `ACCESS_CAN_REORDER`), and
//!   texel fetches and lookups of sampled textures (NIR's texture instructions);
//!   other loads from memory that may change do not;
//! - phis, but only with an identical phi of the same block (same source for each
//!   predecessor);
//! - not `undef`: NIR does not merge undefs either, and nothing is gained.
//!
//! Expected time is linear in the size of the function (one hash per instruction, one
//! rewrite sweep at the end). The table holds only hashes and values; an instruction is
//! compared with the earlier ones of the same hash by rebuilding their canonical forms,
//! which keeps memory small on shaders with millions of instructions in scope. The
//! dominator tree comes from [`DomTree::new_fast`].

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::dominance::DomTree;
use crate::entity::{Block, ImageId, Inst, Value};
use crate::function::{Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::types::{Src, Type};
use smallvec::SmallVec;
use std::hash::Hasher;

/// A fast non-cryptographic hasher (the multiply-rotate scheme of rustc's `FxHasher`):
/// keys are small and made of ids, so SipHash's resistance is not needed and its cost
/// dominates the pass on large shaders.
#[derive(Default)]
struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }
    fn write_u16(&mut self, v: u16) {
        self.add(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.add(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The CSE pass, `cse`.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= cse_function(f);
        }
        Ok(changed)
    }
}

/// A source as compared by CSE: the value and the explicit list of components read.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct KeySrc {
    value: Value,
    len: u8,
    comps: u64,
}

/// What makes two instructions equal, borrowing the constant parts from the function.
/// Built on demand (for hashing, and again for the rare comparison with an earlier
/// instruction of the same hash), so the table itself holds only hashes and values.
#[derive(PartialEq, Eq, Hash)]
enum Key<'f> {
    Alu {
        op: AluOp,
        // An exact instruction is not merged with an inexact one, whose value algebraic
        // rules may still change.
        exact: bool,
        ty: Type,
        srcs: SmallVec<[KeySrc; 3]>,
    },
    Const {
        ty: Type,
        bits: &'f [u64],
    },
    Phi {
        block: Block,
        ty: Type,
        srcs: SmallVec<[(Block, KeySrc); 2]>,
    },
    Intrinsic {
        op: IntrinsicOp,
        ty: Type,
        image: Option<(ImageId, Option<KeySrc>)>,
        srcs: SmallVec<[KeySrc; 4]>,
        indices: &'f [u32],
    },
}

fn hash_key(key: &Key<'_>) -> u64 {
    use std::hash::Hash;
    let mut h = FxHasher::default();
    key.hash(&mut h);
    // The multiply-rotate state mixes well into its high bits only; the table indexes
    // by the low bits, so finish with MurmurHash3's avalanche (`fmix64`): without it,
    // keys differing in their last words crowd into few buckets.
    let mut x = h.finish();
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// The scoped hash table of the walk: key hashes to the values in scope, by linear
/// probing over one vector of 8-byte slots (the high half of the hash, and the value
/// plus one; 0 is empty). A lookup touches one or two cache lines and no separate
/// control bytes, which matters once the table outgrows the caches: the shaders of the
/// lowering benchmark put millions of values in scope at once.
///
/// Entries leave in the reverse order of their insertion (a dominator subtree is left
/// after everything inside it), and in a linear-probing table emptying the slot of the
/// newest entry is an exact undo: no entry still present probed past it. So removal is
/// a store, and the log of insertions, which records the slots, is the scope stack.
struct ScopedTable {
    slots: Vec<u64>,
    /// Per live entry in insertion order: its hash and slot.
    log: Vec<(u64, u32)>,
}

/// The slot value of `value` under hash `h`.
fn slot_of(h: u64, value: Value) -> u64 {
    (h & 0xffff_ffff_0000_0000) | (value.as_u32() as u64 + 1)
}

impl ScopedTable {
    fn new() -> ScopedTable {
        ScopedTable {
            slots: vec![0; 1024],
            log: Vec::new(),
        }
    }

    /// The number of entries in scope (a scope starts at this mark).
    fn mark(&self) -> usize {
        self.log.len()
    }

    /// Removes the entries added since `mark`.
    fn pop_to(&mut self, mark: usize) {
        for &(_, slot) in self.log[mark..].iter().rev() {
            self.slots[slot as usize] = 0;
        }
        self.log.truncate(mark);
    }

    /// The value in scope with hash `h` for which `equal` holds; if there is none,
    /// `value` is added under `h` and `None` returned.
    fn find_or_insert(
        &mut self,
        h: u64,
        value: Value,
        mut equal: impl FnMut(Value) -> bool,
    ) -> Option<Value> {
        // At most three quarters full, so that a miss ends within a few slots.
        if (self.log.len() + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let tag = h & 0xffff_ffff_0000_0000;
        let mut i = h as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                self.slots[i] = slot_of(h, value);
                self.log.push((h, i as u32));
                return None;
            }
            if slot & 0xffff_ffff_0000_0000 == tag {
                let v = Value::from_u32((slot as u32).wrapping_sub(1));
                if equal(v) {
                    return Some(v);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots, re-adding the entries in their insertion order so that the
    /// undo order still holds.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; n]);
        let mask = n - 1;
        for (h, slot) in &mut self.log {
            let content = old[*slot as usize];
            let mut i = *h as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = content;
            *slot = i as u32;
        }
    }
}

/// Eliminates common subexpressions in one function; returns whether it changed.
pub fn cse_function(func: &mut Function) -> bool {
    let (_cfg, dom) = DomTree::of_fast(func);
    let mut repl: Vec<Option<Value>> = vec![None; func.num_value_ids()];
    let mut table = ScopedTable::new();
    let mut scopes: Vec<(Block, usize)> = Vec::new();
    let mut removed: Vec<Inst> = Vec::new();

    let order: Vec<Block> = dom.preorder().collect();
    for block in order {
        while let Some(&(top, start)) = scopes.last() {
            if dom.dominates(top, block) {
                break;
            }
            table.pop_to(start);
            scopes.pop();
        }
        scopes.push((block, table.mark()));
        let mut cur = func.first_inst(block);
        while let Some(inst) = cur {
            cur = func.next_inst(inst);
            let Some(dest) = func.inst(inst).dest else {
                continue;
            };
            let Some(key) = key_of(func, block, inst, &repl) else {
                continue;
            };
            let earlier = table.find_or_insert(hash_key(&key), dest, |v| {
                let other = func.value_def(v).expect("table values have definitions");
                let other_block = func.inst_block(other).unwrap_or(block);
                key_of(func, other_block, other, &repl).as_ref() == Some(&key)
            });
            if let Some(earlier) = earlier {
                repl[dest.index()] = Some(earlier);
                removed.push(inst);
            }
        }
    }
    if removed.is_empty() {
        return false;
    }
    for inst in removed {
        func.remove_inst(inst);
    }
    // Every replacement is a value in scope of its own type, never itself replaced.
    func.replace_values(&repl);
    true
}

fn key_src(func: &Function, src: Src, repl: &[Option<Value>]) -> KeySrc {
    let value = repl
        .get(src.value.index())
        .copied()
        .flatten()
        .unwrap_or(src.value);
    let n = func.src_components(src);
    let mut comps = 0u64;
    for i in 0..n {
        comps |= (src.swizzle.component(i) as u64) << (4 * i as u32);
    }
    KeySrc {
        value,
        len: n,
        comps,
    }
}

fn key_of<'f>(
    func: &'f Function,
    block: Block,
    inst: Inst,
    repl: &[Option<Value>],
) -> Option<Key<'f>> {
    let data = func.inst(inst);
    let ty = func.value_type(data.dest?);
    Some(match &data.kind {
        InstKind::Alu(a) => {
            let mut srcs: SmallVec<[KeySrc; 3]> =
                a.srcs.iter().map(|&s| key_src(func, s, repl)).collect();
            if a.op.info().commutative && srcs.len() >= 2 && srcs[1] < srcs[0] {
                srcs.swap(0, 1);
            }
            Key::Alu {
                op: a.op,
                exact: a.exact,
                ty,
                srcs,
            }
        }
        InstKind::LoadConst(bits) => Key::Const { ty, bits },
        InstKind::Phi(p) => {
            let mut srcs: SmallVec<[(Block, KeySrc); 2]> = p
                .srcs
                .iter()
                .map(|&(b, s)| (b, key_src(func, s, repl)))
                .collect();
            srcs.sort();
            Key::Phi { block, ty, srcs }
        }
        InstKind::Intrinsic(i) => {
            if !i.op.info().can_reorder && !readonly_load(i) {
                return None;
            }
            Key::Intrinsic {
                op: i.op,
                ty,
                image: i
                    .image
                    .map(|r| (r.image, r.index.map(|s| key_src(func, s, repl)))),
                srcs: i.srcs.iter().map(|&s| key_src(func, s, repl)).collect(),
                indices: &i.indices,
            }
        }
        InstKind::Undef => return None,
    })
}

/// A load whose value nothing the shader does can change: a storage-buffer load NIR's
/// `nir_opt_access` marks `ACCESS_CAN_REORDER` (`readonly` and neither `volatile` nor
/// `coherent`: the rule `opt-load-store-vectorize` moves such loads by), and a texel
/// fetch or filtered lookup of a sampled texture, which NIR's CSE merges as it merges
/// any two equal texture instructions (a shader never writes a texture).
fn readonly_load(i: &crate::function::IntrinsicInst) -> bool {
    use crate::image::Access;
    let access = i.index(crate::intrinsic::IndexKind::Access).unwrap_or(0);
    match i.op {
        IntrinsicOp::LoadSsbo => {
            access & Access::NON_WRITEABLE.bits() != 0
                && access & (Access::VOLATILE.bits() | Access::COHERENT.bits()) == 0
        }
        IntrinsicOp::ImageLoad | IntrinsicOp::Txl | IntrinsicOp::Tg4 => {
            access & Access::SAMPLED.bits() != 0
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::function::Jump;
    use crate::image::ImageRef;

    fn srcs_of(f: &Function, v: Value) -> Vec<Src> {
        f.inst(f.value_def(v).unwrap()).srcs().to_vec()
    }

    #[test]
    fn merges_equal_alu_constants_and_commuted_operands() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(4);
        let y = b.imm_u32(4);
        let z = b.imm_u32(5);
        let s1 = b.iadd(x, z);
        let s2 = b.iadd(z, y); // same as s1 once y is x, commuted
        let d1 = b.isub(x, z);
        let d2 = b.isub(z, x); // not commutative: kept
        let u = b.ior(s2, d2);
        let w = b.ior(s1, d1);
        assert!(cse_function(&mut f));
        assert!(!f.is_value_live(y));
        assert!(!f.is_value_live(s2));
        assert!(f.is_value_live(d2));
        assert_eq!(srcs_of(&f, u), vec![Src::new(s1), Src::new(d2)]);
        assert_eq!(srcs_of(&f, w), vec![Src::new(s1), Src::new(d1)]);
        assert!(!cse_function(&mut f));
    }

    #[test]
    fn identity_and_full_swizzle_are_equal() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let id = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let a = b.mov(id);
        let c = b.mov(Src::swizzled(id, &[0, 1, 2]).unwrap());
        let d = b.mov(Src::swizzled(id, &[0, 1]).unwrap());
        let again = b.system_value(IntrinsicOp::LoadGlobalInvocationId);
        let u = b.iadd(c, again);
        assert!(cse_function(&mut f));
        assert!(f.is_value_live(a) && !f.is_value_live(c) && f.is_value_live(d));
        assert_eq!(srcs_of(&f, u), vec![Src::new(a), Src::new(id)]);
    }

    #[test]
    fn respects_dominance() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(4);
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        let t = b.iadd(x, x);
        b.push_else(i);
        let e = b.iadd(x, x); // not dominated by `t`: kept
        b.pop_if(i);
        let m = b.iadd(x, x); // neither branch dominates the merge: kept
        let m2 = b.iadd(x, x); // merged into `m`
        let uses = b.iadd(m, m2);
        assert!(cse_function(&mut f));
        assert!(f.is_value_live(t) && f.is_value_live(e) && f.is_value_live(m));
        assert!(!f.is_value_live(m2));
        assert_eq!(srcs_of(&f, uses), vec![Src::new(m), Src::new(m)]);
    }

    #[test]
    fn dominating_value_reused_inside_branches_and_loops() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(4);
        let s = b.iadd(x, x);
        let l = b.push_loop();
        let again = b.iadd(x, x);
        let c = b.ieq(again, s);
        let i = b.push_if(c);
        b.jump(Jump::Break);
        b.pop_if(i);
        b.pop_loop(l);
        assert!(cse_function(&mut f));
        assert!(!f.is_value_live(again));
        assert_eq!(srcs_of(&f, c), vec![Src::new(s), Src::new(s)]);
    }

    #[test]
    fn only_reorderable_intrinsics_and_no_undefs() {
        let mut sh = Shader::new([1, 1, 1]);
        let decl = crate::image::ImageDecl {
            name: "img".into(),
            dim: crate::image::ImageDim::D1,
            arrayed: false,
            format: crate::image::Format::R32Uint,
            access: crate::image::Access::NONE,
            binding: 0,
            count: None,
            layout: None,
        };
        let img = sh.add_image(decl.clone());
        let r = ImageRef::new(img);
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(0);
        let t = crate::types::AluType::new(crate::types::BaseType::Uint, 32);
        let l1 = b.image_load(&decl, r, x, 1, t);
        let l2 = b.image_load(&decl, r, x, 1, t);
        let p1 = b.image_load_param(r, 3, 4);
        let p2 = b.image_load_param(r, 3, 4);
        let p3 = b.image_load_param(r, 4, 4);
        let u1 = b.undef(Type::U32);
        let u2 = b.undef(Type::U32);
        sh.functions.push(f);
        assert!(Cse.run(&mut sh).unwrap());
        let f = &sh.functions[0];
        assert!(f.is_value_live(l1) && f.is_value_live(l2));
        assert!(f.is_value_live(p1) && !f.is_value_live(p2) && f.is_value_live(p3));
        assert!(f.is_value_live(u1) && f.is_value_live(u2));
    }

    #[test]
    fn identical_phis_of_one_block() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(4);
        let y = b.imm_u32(5);
        let c = b.imm_bool(true);
        let i = b.push_if(c);
        b.push_else(i);
        b.pop_if(i);
        let p1 = b.if_phi(i, x, y);
        let p2 = b.if_phi(i, x, y);
        let p3 = b.if_phi(i, y, x);
        let u = b.iadd(p2, p3);
        assert!(cse_function(&mut f));
        assert!(f.is_value_live(p1) && !f.is_value_live(p2) && f.is_value_live(p3));
        assert_eq!(srcs_of(&f, u), vec![Src::new(p1), Src::new(p3)]);
    }
}
