//! If flattening (`opt-peephole-select`), NIR's `nir_opt_peephole_select`: an `if` whose
//! branches are single blocks of a few instructions that are safe to run on every path
//! becomes straight-line code, and the phis after it become `bcsel`s on its condition.
//!
//! NIR's rules (`block_check_for_allowed_instrs`), with `limit` the number of ALU
//! instructions both branches may hold together:
//! - no jumps;
//! - constants and undefs always; "move-like" ALU instructions (`mov`, `vecN`, `fneg`,
//!   `ineg`, `fabs`, `iabs`) and `fsat` are free; with `limit` 0 only move-like ones
//!   are allowed, and only when every use is a phi of the block after the `if`;
//! - other ALU instructions count towards `limit`; the expensive ones (`fdiv`, `frcp`,
//!   `frsq`, `fsqrt`, `fexp2`, `flog2`, `fsin`, `fcos`, `fpow`, `fmod`, `frem`,
//!   `idiv`, `irem`, `imod`, `udiv`, `umod`) only with `expensive-alu` (Intel allows them
//!   from Gfx6, which is every platform here);
//! - intrinsics only when `limit` is not 0, and only those that read no memory
//!   that could fault: system values (`load_global_invocation_id`, ...), an image's
//!   parameter block, and push constants at a constant offset (Intel passes NIR's
//!   `indirect_load_ok`, since its push constants are registers; the executor checks the
//!   bounds of every push-constant read, so an offset the branch may have guarded is
//!   not speculated here). Loads from buffers, images, shared memory and every message,
//!   and every store or atomic, keep their `if`.
//!
//! Intel's `brw_nir_optimize` runs the pass twice in its loop, with `limit` 0 and 8;
//! the pipelines here do the same (`opt-peephole-select(limit=0)` and the default 8).

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::{Block, Inst, Value};
use crate::function::{AluInst, CfNode, CfParent, Cursor, Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::types::{Src, Swizzle};
use smallvec::SmallVec;

/// The if-flattening pass, `opt-peephole-select`.
#[derive(Copy, Clone, Debug)]
pub struct PeepholeSelect {
    /// ALU instructions the two branches may hold together (0: moves only).
    pub limit: u32,
    /// Whether expensive ALU instructions may be flattened.
    pub expensive_alu_ok: bool,
}

impl Default for PeepholeSelect {
    fn default() -> PeepholeSelect {
        PeepholeSelect {
            limit: 8,
            expensive_alu_ok: true,
        }
    }
}

impl Pass for PeepholeSelect {
    fn name(&self) -> &'static str {
        "opt-peephole-select"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= peephole_select_function(f, self.limit, self.expensive_alu_ok);
        }
        Ok(changed)
    }
}

/// Flattens the `if`s of `func` that the rules allow; returns whether any was.
pub fn peephole_select_function(func: &mut Function, limit: u32, expensive_alu_ok: bool) -> bool {
    let mut changed = false;
    // Innermost first: an `if` flattened inside a branch may make that branch one
    // block.
    let mut ifs = func.ifs_in_order();
    ifs.reverse();
    for id in ifs {
        if func.node_parent(CfNode::If(id)).is_none() {
            continue;
        }
        changed |= try_flatten(func, id, limit, expensive_alu_ok);
    }
    changed
}

fn is_expensive(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Fcos | Fdiv
            | Fexp2
            | Flog2
            | Fmod
            | Fpow
            | Frcp
            | Frem
            | Frsq
            | Fsin
            | Fsqrt
            | Idiv
            | Irem
            | Imod
            | Udiv
            | Umod
    )
}

fn is_movelike(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Mov | Fneg | Ineg | Fabs | Iabs | Vec2 | Vec3 | Vec4 | Vec8 | Vec16
    )
}

fn const_src(func: &Function, src: Src) -> bool {
    func.value_def(src.value)
        .is_some_and(|d| func.inst(d).as_const().is_some())
}

/// Whether every use of `v` is a phi of block `succ` (uses in `if` conditions count
/// as other uses).
fn only_phi_uses(func: &Function, v: Value, succ: Block) -> bool {
    for b in func.blocks_in_order() {
        for i in func.block_insts(b) {
            let data = func.inst(i);
            if data.srcs().iter().any(|s| s.value == v) && !(data.is_phi() && b == succ) {
                return false;
            }
        }
    }
    !func
        .ifs_in_order()
        .iter()
        .any(|&i| func.if_data(i).cond.value == v)
}

/// NIR's `block_check_for_allowed_instrs`.
fn allowed(
    func: &Function,
    block: Block,
    succ: Block,
    count: &mut u32,
    limit: u32,
    expensive_alu_ok: bool,
) -> bool {
    if func.block(block).jump.is_some() {
        return false;
    }
    let alu_ok = limit != 0;
    for i in func.block_insts(block) {
        let data = func.inst(i);
        match &data.kind {
            InstKind::LoadConst(_) | InstKind::Undef => {}
            InstKind::Phi(_) => return false,
            InstKind::Intrinsic(intr) => {
                if !alu_ok {
                    return false;
                }
                use IntrinsicOp::*;
                let ok = match intr.op {
                    LoadGlobalInvocationId
                    | LoadLocalInvocationId
                    | LoadWorkgroupId
                    | LoadNumWorkgroups
                    | LoadLocalInvocationIndex
                    | LoadSubgroupInvocation
                    | LoadSubgroupId
                    | LoadNumSubgroups
                    | LoadSubgroupSize
                    | ImageLoadParam => true,
                    LoadPushConstant => intr.srcs.first().is_some_and(|&s| const_src(func, s)),
                    _ => false,
                };
                // An indexed image's parameter block is read through its index.
                let indexed = intr.image.is_some_and(|r| r.index.is_some());
                if !ok || indexed {
                    return false;
                }
            }
            InstKind::Alu(alu) => {
                let movelike = is_movelike(alu.op);
                if is_expensive(alu.op) && (!alu_ok || !expensive_alu_ok) {
                    return false;
                }
                if !alu_ok && !movelike {
                    return false;
                }
                if alu_ok {
                    if alu.op != AluOp::Fsat && !movelike {
                        *count += 1;
                    }
                } else if let Some(d) = data.dest {
                    if !only_phi_uses(func, d, succ) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

fn single_block(func: &Function, parent: CfParent) -> Option<Block> {
    match func.cf_list(parent) {
        [CfNode::Block(b)] => Some(*b),
        _ => None,
    }
}

fn try_flatten(
    func: &mut Function,
    id: crate::entity::IfId,
    limit: u32,
    expensive_alu_ok: bool,
) -> bool {
    let (Some(then_b), Some(else_b)) = (
        single_block(func, CfParent::Then(id)),
        single_block(func, CfParent::Else(id)),
    ) else {
        return false;
    };
    let (Some(CfNode::Block(before)), Some(CfNode::Block(after))) = (
        func.prev_node(CfNode::If(id)),
        func.next_node(CfNode::If(id)),
    ) else {
        return false;
    };
    let mut count = 0;
    if !allowed(func, then_b, after, &mut count, limit, expensive_alu_ok)
        || !allowed(func, else_b, after, &mut count, limit, expensive_alu_ok)
        || count > limit
    {
        return false;
    }
    let cond = func.if_data(id).cond;
    // The branches' instructions move to the end of the block before the `if`.
    for b in [then_b, else_b] {
        let insts: SmallVec<[Inst; 16]> = func.block_insts(b).collect();
        for i in insts {
            func.remove_inst(i);
            func.insert_inst(i, Cursor::BlockEnd(before));
        }
    }
    // The phis after it become selects on the condition, splatted to their width.
    let phis: SmallVec<[Inst; 8]> = func
        .block_insts(after)
        .take_while(|&i| func.inst(i).is_phi())
        .collect();
    for phi in phis {
        let InstKind::Phi(p) = &func.inst(phi).kind else {
            continue;
        };
        let from = |b: Block| p.srcs.iter().find(|(q, _)| *q == b).map(|(_, s)| *s);
        let (Some(t), Some(e)) = (from(then_b), from(else_b)) else {
            continue;
        };
        let n = func
            .value_type(func.inst(phi).dest.expect("phi defines a value"))
            .num_components();
        let c = cond.swizzle.component(0);
        let splat: SmallVec<[u8; 16]> = (0..n).map(|_| c).collect();
        let cond_n = Src {
            value: cond.value,
            swizzle: Swizzle::new(&splat).unwrap_or(cond.swizzle),
        };
        let cond_n = if n == 1 && func.value_type(cond.value).num_components() == 1 {
            Src::new(cond.value)
        } else {
            cond_n
        };
        func.inst_mut(phi).kind = InstKind::Alu(AluInst {
            op: AluOp::Bcsel,
            srcs: smallvec::smallvec![cond_n, t, e],
            exact: false,
        });
        // A select is no phi: it must come after the block's remaining phis.
        func.remove_inst(phi);
        let at = match func.block_insts(after).find(|&i| !func.inst(i).is_phi()) {
            Some(i) => Cursor::Before(i),
            None => Cursor::BlockEnd(after),
        };
        func.insert_inst(phi, at);
    }
    let parent = func.node_parent(CfNode::If(id)).expect("in the tree");
    let pos = func
        .position_in_parent(CfNode::If(id), parent)
        .expect("in its list");
    func.cf_list_mut(parent).remove(pos);
    func.delete_cf_nodes(&[CfNode::Block(then_b), CfNode::Block(else_b)]);
    func.merge_blocks(before, after);
    true
}
