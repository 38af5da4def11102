//! Forwarding of workgroup-memory loads (`copy-prop-shared`), the part of NIR's
//! `nir_opt_copy_prop_vars` that Intel's `brw_nir_optimize` gets for shared variables:
//! a `load_shared` of the same bytes as an earlier `load_shared`, with nothing between
//! them on any path that may write those bytes, reads the earlier load's value instead
//! of loading again. The later load becomes a `mov` of the earlier one (copy
//! propagation then removes it).
//!
//! - Two loads read the same bytes when their offsets are the same SSA component and
//!   their `base`s, bit sizes and component counts are equal.
//! - A `store_shared`, `shared_atomic` or `shared_atomic_swap` forgets the loads whose
//!   bytes it may touch: all of them, except those it provably misses (both offsets
//!   constants with disjoint byte ranges, or one offset component with disjoint
//!   `base` ranges).
//! - A `barrier` forgets every load (other invocations' writes become visible at it),
//!   and so does any other intrinsic that may reach workgroup memory (messages with a
//!   shared-memory address model, group async copies, calls the pass does not know).
//!
//! The walk follows the structured control flow: a branch starts with what was known
//! before the `if`, and after the `if` only what both branches still know is kept; a
//! loop body starts with what was known before the loop less what anything in the loop
//! may write, and after the loop that is what is known. Stores are not forwarded to
//! loads: lanes of one store that write the same address leave one lane's value in
//! memory, which a forwarded value would not match.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::{Inst, Value};
use crate::function::{AluInst, CfNode, CfParent, Function, InstKind};
use crate::intrinsic::{IndexKind, IntrinsicOp};
use crate::shader::Shader;
use crate::types::Src;
use smallvec::smallvec;
use std::collections::hash_map::{Entry, HashMap};

/// The pass, `copy-prop-shared`.
#[derive(Copy, Clone, Debug, Default)]
pub struct CopyPropShared;

impl Pass for CopyPropShared {
    fn name(&self) -> &'static str {
        "copy-prop-shared"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= forward_function(f);
        }
        Ok(changed)
    }
}

/// The bytes a load read: `base + offset .. + bytes`, and its type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    base: i32,
    /// The offset's value and component.
    offset: (Value, u8),
    bits: u8,
    comps: u8,
}

impl Key {
    fn bytes(&self) -> i64 {
        i64::from(self.bits / 8) * i64::from(self.comps)
    }
}

/// The loads known at a point: what they read and the value that holds it. A map, as
/// every load looks its key up and every merge intersects two of them: a block of many
/// loads stays linear.
type Known = HashMap<Key, Value>;

/// What may write workgroup memory: everything, or the bytes at `base + offset` of a
/// given size.
#[derive(Copy, Clone, Debug)]
enum Clobber {
    All,
    Range {
        base: i32,
        offset: (Value, u8),
        bytes: i64,
    },
}

/// Forwards the loads of one function; returns whether a load was replaced.
pub fn forward_function(func: &mut Function) -> bool {
    let mut known = Known::new();
    let mut replace: Vec<(Inst, Value)> = Vec::new();
    walk(func, CfParent::Root, &mut known, &mut replace);
    for &(inst, from) in &replace {
        func.inst_mut(inst).kind = InstKind::Alu(AluInst {
            op: AluOp::Mov,
            srcs: smallvec![Src::new(from)],
            exact: false,
        });
    }
    !replace.is_empty()
}

fn walk(func: &Function, parent: CfParent, known: &mut Known, replace: &mut Vec<(Inst, Value)>) {
    for &node in func.cf_list(parent) {
        match node {
            CfNode::Block(b) => {
                for inst in func.block_insts(b) {
                    visit(func, inst, known, replace);
                }
            }
            CfNode::If(id) => {
                let mut then_known = known.clone();
                walk(func, CfParent::Then(id), &mut then_known, replace);
                let mut else_known = known.clone();
                walk(func, CfParent::Else(id), &mut else_known, replace);
                known.retain(|k, v| then_known.get(k) == Some(v) && else_known.get(k) == Some(v));
            }
            CfNode::Loop(id) => {
                let mut clobbers = Vec::new();
                collect_clobbers(func, CfParent::Loop(id), &mut clobbers);
                for c in &clobbers {
                    forget(func, known, *c);
                }
                let mut body = known.clone();
                walk(func, CfParent::Loop(id), &mut body, replace);
            }
        }
    }
}

/// Handles one instruction: a load is forwarded or remembered, a write forgets.
fn visit(func: &Function, inst: Inst, known: &mut Known, replace: &mut Vec<(Inst, Value)>) {
    let data = func.inst(inst);
    let Some(i) = data.as_intrinsic() else {
        return;
    };
    if i.op == IntrinsicOp::LoadShared {
        let (Some(dest), Some(key)) = (data.dest, load_key(func, inst)) else {
            return;
        };
        match known.entry(key) {
            Entry::Occupied(e) => replace.push((inst, *e.get())),
            Entry::Vacant(e) => {
                e.insert(dest);
            }
        }
        return;
    }
    if let Some(c) = clobber(func, inst) {
        forget(func, known, c);
    }
}

/// The key of a `load_shared`.
fn load_key(func: &Function, inst: Inst) -> Option<Key> {
    let data = func.inst(inst);
    let i = data.as_intrinsic()?;
    let ty = func.value_type(data.dest?);
    let off = *i.srcs.first()?;
    Some(Key {
        base: i.index(IndexKind::Base).unwrap_or(0) as i32,
        offset: (off.value, off.swizzle.component(0)),
        bits: ty.bit_size(),
        comps: ty.num_components(),
    })
}

/// What an instruction may write in workgroup memory, if anything.
fn clobber(func: &Function, inst: Inst) -> Option<Clobber> {
    use IntrinsicOp::*;
    let data = func.inst(inst);
    let i = data.as_intrinsic()?;
    let range = |offset: Src, bytes: i64| Clobber::Range {
        base: i.index(IndexKind::Base).unwrap_or(0) as i32,
        offset: (offset.value, offset.swizzle.component(0)),
        bytes,
    };
    match i.op {
        LoadShared => None,
        StoreShared => {
            let ty = func.src_type(*i.srcs.first()?);
            let bytes = i64::from(ty.bit_size() / 8) * i64::from(ty.num_components());
            Some(range(*i.srcs.get(1)?, bytes))
        }
        SharedAtomic | SharedAtomicSwap => {
            let bytes = i64::from(func.value_type(data.dest?).bit_size() / 8);
            Some(range(*i.srcs.first()?, bytes))
        }
        // Accesses of other memory, and values that read none.
        LoadSsbo | StoreSsbo | SsboAtomic | SsboAtomicSwap | GetSsboSize | LoadUbo | LoadGlobal
        | StoreGlobal | GlobalAtomic | GlobalAtomicSwap | LoadPushConstant | LoadConstant => None,
        op if op.info().class == crate::intrinsic::IntrinsicClass::Image => None,
        op if op.info().can_reorder => None,
        _ => Some(Clobber::All),
    }
}

/// Every clobber of the instructions under `parent`.
fn collect_clobbers(func: &Function, parent: CfParent, out: &mut Vec<Clobber>) {
    for &node in func.cf_list(parent) {
        match node {
            CfNode::Block(b) => {
                out.extend(func.block_insts(b).filter_map(|inst| clobber(func, inst)));
            }
            CfNode::If(id) => {
                collect_clobbers(func, CfParent::Then(id), out);
                collect_clobbers(func, CfParent::Else(id), out);
            }
            CfNode::Loop(id) => collect_clobbers(func, CfParent::Loop(id), out),
        }
    }
}

/// Forgets the known loads `c` may touch.
fn forget(func: &Function, known: &mut Known, c: Clobber) {
    match c {
        Clobber::All => known.clear(),
        Clobber::Range {
            base,
            offset,
            bytes,
        } => known.retain(|k, _| disjoint(func, k, base, offset, bytes)),
    }
}

/// Whether load `k` provably reads none of the bytes at `base + offset .. + bytes`.
fn disjoint(func: &Function, k: &Key, base: i32, offset: (Value, u8), bytes: i64) -> bool {
    let apart = |a: i64, b: i64| a + k.bytes() <= b || b + bytes <= a;
    if k.offset == offset {
        return apart(i64::from(k.base), i64::from(base));
    }
    let (Some(ko), Some(o)) = (const_u32(func, k.offset), const_u32(func, offset)) else {
        return false;
    };
    // Addresses are 32-bit: ranges that wrap around are taken as overlapping.
    let (a, b) = (
        i64::from(ko) + i64::from(k.base),
        i64::from(o) + i64::from(base),
    );
    let in_range = |x: i64, n: i64| x >= 0 && x + n <= 1 << 32;
    in_range(a, k.bytes()) && in_range(b, bytes) && apart(a, b)
}

/// The constant a scalar component holds, if its value is a `load_const`.
fn const_u32(func: &Function, (value, comp): (Value, u8)) -> Option<u32> {
    func.const_component(value, comp).map(|v| v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_shader;

    fn run(text: &str) -> String {
        let mut shader = parse_shader(text).expect("parses");
        CopyPropShared.run(&mut shader).expect("runs");
        crate::validate(&shader).expect("valid");
        crate::print_shader(&shader)
    }

    #[test]
    fn a_reload_in_a_branch_reads_the_first_load() {
        let out = run("shader compute (local_size=64,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000040)
    32   %1 = @load_shared (%0) (base=128, align_mul=4)
    1    %2 = undef
  if %2 {
    block b1:
      32   %3 = @load_shared (%0) (base=128, align_mul=4)
      32   %4 = @load_shared (%0) (base=0, align_mul=4)
      @store_shared (%3, %0) (base=0, align_mul=4)
  } else {
    block b2:
  }
  block b3:
}
");
        assert!(out.contains("%3 = mov %1"), "{out}");
        // Another base is other bytes.
        assert!(out.contains("%4 = @load_shared (%0) (base=0"), "{out}");
    }

    #[test]
    fn writes_and_barriers_stop_forwarding() {
        let out = run("shader compute (local_size=64,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000000)
    32   %2 = load_const (0x00000004)
    32   %3 = @load_shared (%1) (base=0, align_mul=4)
    @store_shared (%3, %2) (base=0, align_mul=4)
    32   %4 = @load_shared (%1) (base=0, align_mul=4)
    @store_shared (%3, %0.x) (base=0, align_mul=4)
    32   %5 = @load_shared (%1) (base=0, align_mul=4)
    32   %6 = @load_shared (%1) (base=0, align_mul=4)
    @barrier
    32   %7 = @load_shared (%1) (base=0, align_mul=4)
}
");
        // The store to byte 4 misses byte 0.
        assert!(out.contains("%4 = mov %3"), "{out}");
        // A store at a per-lane offset may write byte 0.
        assert!(out.contains("%5 = @load_shared"), "{out}");
        assert!(out.contains("%6 = mov %5"), "{out}");
        assert!(out.contains("%7 = @load_shared"), "{out}");
    }

    #[test]
    fn loops_keep_only_what_they_do_not_write() {
        let out = run("shader compute (local_size=64,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = load_const (0x00000008)
    32   %2 = @load_shared (%0) (base=0, align_mul=4)
    32   %3 = @load_shared (%1) (base=0, align_mul=4)
  loop {
    block b1:
      32   %4 = @load_shared (%0) (base=0, align_mul=4)
      32   %5 = @load_shared (%1) (base=0, align_mul=4)
      @store_shared (%4, %1) (base=0, align_mul=4)
      break
  }
  block b2:
    32   %6 = @load_shared (%0) (base=0, align_mul=4)
    32   %7 = @load_shared (%1) (base=0, align_mul=4)
}
");
        assert!(out.contains("%4 = mov %2"), "{out}");
        assert!(out.contains("%5 = @load_shared"), "{out}");
        assert!(out.contains("%6 = mov %2"), "{out}");
        assert!(out.contains("%7 = @load_shared"), "{out}");
    }

    #[test]
    fn a_branch_that_writes_forgets_after_the_if() {
        let out = run("shader compute (local_size=64,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @load_shared (%0) (base=0, align_mul=4)
    1    %2 = undef
  if %2 {
    block b1:
      @store_shared (%1, %0) (base=2, align_mul=2)
  } else {
    block b2:
  }
  block b3:
    32   %3 = @load_shared (%0) (base=0, align_mul=4)
}
");
        // Bytes 2..6 overlap bytes 0..4.
        assert!(out.contains("%3 = @load_shared"), "{out}");
    }
}
