//! Which values are the same on every lane and every loop iteration: those live in
//! scalar variables, computed once per thread.
//!
//! A value is uniform when it is a workgroup id or count, the subgroup count, a push
//! constant at a constant offset (or a 32-bit vector of them at a uniform offset, which
//! a transposed message moves), an image parameter at a constant array index, a
//! 32-bit UBO load (of a vector a transposed message moves) from a constant block at a
//! uniform offset, a 32-bit `load_constant` (likewise) at a uniform offset, or an ALU
//! result of uniform values and constants. A uniform buffer and the shader's constant
//! data are read-only to the shader and do not change during a dispatch, so a load from
//! one address gives every lane and every iteration the same bits. These depend on
//! nothing that varies between lanes or iterations, so writing them without the execution mask
//! (`(M1_NM, 1)`) gives every lane the value NIR gives it, wherever the definition sits
//! (inside a divergent `if` or a loop, a lane that uses the value has run its
//! definition, and every run writes the same bits). Phis, undefs and everything read
//! from memory or per lane stay SIMT.
//!
//! On Gfx12.0 (TGL), whose EUs run fused, an ALU result computed two or more levels of
//! control flow deep stays SIMT even when its value is uniform: GenX_IR guards every
//! no-mask instruction there (see `nested_definitions`).
//!
//! `read_first_invocation` is uniform among the lanes that run it together, but not
//! across iterations: each run of a loop may find another first lane. Its result, and
//! every uniform value computed from it, lives in a scalar when every use is inside the
//! read's innermost loop (or the read is in no loop), where a lane that uses it has run
//! the definition in the same iteration, after which nothing rewrote it; a phi uses its
//! source at the end of the predecessor block. A value used outside is SIMT, and so is
//! what is computed from it. The loops of `lower-non-uniform-access` are of this kind: the
//! index it reads is used by the access inside the loop.

use ir::{CfNode, CfParent, Function, InstKind, IntrinsicOp, LoopId, Src, Value};

/// Whether intrinsic `i` of `func`, when its result is uniform, gets it from a message
/// (a SIMD1 transposed load, whose destination starts a register) rather than from
/// registers: parameter-block, UBO and constant-data reads, and push constants at a
/// run-time offset.
pub fn loaded_by_message(func: &Function, i: &ir::IntrinsicInst) -> bool {
    match i.op {
        IntrinsicOp::ImageLoadParam | IntrinsicOp::LoadUbo | IntrinsicOp::LoadConstant => true,
        IntrinsicOp::LoadPushConstant => i.srcs.first().is_some_and(|s| {
            !func
                .value_def(s.value)
                .is_some_and(|d| matches!(func.inst(d).kind, InstKind::LoadConst(_)))
        }),
        _ => false,
    }
}

/// One flag per value id: whether the value is uniform. With `nested_simt` (the
/// platforms with fused EUs, where GenX_IR works around a no-mask hardware bug), values
/// computed inside two or more levels of control flow stay SIMT (see
/// `nested_definitions`).
pub fn uniform_values(func: &Function, nested_simt: bool) -> Vec<bool> {
    // Values kept SIMT because they vary across iterations of a loop and are used
    // outside it; each round finds more, until none escapes.
    let mut simt = if nested_simt {
        nested_definitions(func)
    } else {
        vec![false; func.num_value_ids()]
    };
    loop {
        let (uni, anchors) = uniform_with(func, &simt);
        let escaped = escaping(func, &anchors);
        if escaped.is_empty() {
            return uni;
        }
        for v in escaped {
            simt[v.index()] = true;
        }
    }
}

/// The ALU results computed inside two or more levels of `if`s and loops.
///
/// On Gfx12.0 two EUs run fused, and an instruction without the execution mask may
/// run on an EU whose lanes are all off; GenX_IR's workaround for it (`-noMaskWA`,
/// which IGC passes on TGL, in its `SWWA.cpp`) predicates every no-mask instruction of
/// a block nested in two divergent constructs on "any lane on", which costs a flag
/// save, a compare and a restore per block and more around every flag write. It counts
/// every `if` and loop exit as divergent, uniform or not. A uniform value computed
/// there is cheaper as SIMT: one masked instruction, as the value's readers in those
/// blocks are masked too. Uniform loads stay scalar (a SIMT load would be a message per
/// lane), and so does everything a descriptor index or a uniform load's operand is
/// computed from ([`scalar_operands`]): a SIMT one would be read back from the first
/// active lane, with more no-mask instructions than it saves.
fn nested_definitions(func: &Function) -> Vec<bool> {
    let keep = scalar_operands(func);
    let mut nested = vec![false; func.num_value_ids()];
    let depth = |b: ir::Block| {
        let mut d = 0;
        let mut node = CfNode::Block(b);
        while let Some(parent) = func.node_parent(node) {
            node = match parent {
                CfParent::Root => break,
                CfParent::Then(i) | CfParent::Else(i) => CfNode::If(i),
                CfParent::Loop(l) => CfNode::Loop(l),
            };
            d += 1;
        }
        d
    };
    for b in func.blocks_in_order() {
        if depth(b) < 2 {
            continue;
        }
        for inst in func.block_insts(b) {
            let data = func.inst(inst);
            if let (InstKind::Alu(_), Some(dest)) = (&data.kind, data.dest) {
                nested[dest.index()] = !keep[dest.index()];
            }
        }
    }
    nested
}

/// The values that message operands wanting a scalar are computed from, through ALU
/// instructions: descriptor indices (an image array index, a buffer access's block)
/// and the operands of loads a uniform operand makes scalar messages (push constants,
/// uniform buffers, constant data, image parameters).
fn scalar_operands(func: &Function) -> Vec<bool> {
    let mut keep = vec![false; func.num_value_ids()];
    let mut work: Vec<Value> = Vec::new();
    for inst in func.insts_in_order() {
        let Some(i) = func.inst(inst).as_intrinsic() else {
            continue;
        };
        work.extend(i.descriptor_index().map(|s| s.value));
        if i.op.info().class == ir::IntrinsicClass::SystemValue {
            work.extend(i.srcs.iter().map(|s| s.value));
        }
    }
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut keep[v.index()], true) {
            continue;
        }
        if let Some(a) = func.value_def(v).and_then(|d| func.inst(d).as_alu()) {
            work.extend(a.srcs.iter().map(|s| s.value));
        }
    }
    keep
}

/// The uniform values when those of `simt` are not, and for each uniform value the
/// loops it varies across: the innermost loop of each `read_first_invocation` it
/// derives from (see the module documentation).
fn uniform_with(func: &Function, simt: &[bool]) -> (Vec<bool>, Vec<(Value, LoopId)>) {
    let n = func.num_value_ids();
    let mut uni = vec![false; n];
    let mut anchored: Vec<Vec<LoopId>> = vec![Vec::new(); n];
    let is_const = |s: &Src| {
        func.value_def(s.value)
            .is_some_and(|d| matches!(func.inst(d).kind, InstKind::LoadConst(_)))
    };
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let Some(dest) = data.dest else {
            continue;
        };
        let u = match &data.kind {
            InstKind::Alu(a) => a
                .srcs
                .iter()
                .all(|s| is_const(s) || uni.get(s.value.index()).copied().unwrap_or(false)),
            InstKind::Intrinsic(i) => match i.op {
                IntrinsicOp::LoadWorkgroupId
                | IntrinsicOp::LoadNumWorkgroups
                | IntrinsicOp::LoadNumSubgroups
                | IntrinsicOp::LoadSubgroupSize => true,
                IntrinsicOp::LoadPushConstant => i.srcs.first().is_some_and(|s| {
                    let ty = func.value_type(dest);
                    is_const(s)
                        || (ty.bit_size() == 32
                            && ir::lsc::DataShape::VECT_SIZES.contains(&ty.num_components())
                            && uni.get(s.value.index()).copied().unwrap_or(false))
                }),
                IntrinsicOp::ImageLoadParam => i
                    .image
                    .is_some_and(|r| r.index.is_none_or(|idx| is_const(&idx))),
                IntrinsicOp::ReadFirstInvocation => true,
                IntrinsicOp::LoadConstant => {
                    let ty = func.value_type(dest);
                    ty.bit_size() == 32
                        && ir::lsc::DataShape::VECT_SIZES.contains(&ty.num_components())
                        && i.srcs.first().is_some_and(|s| {
                            is_const(s) || uni.get(s.value.index()).copied().unwrap_or(false)
                        })
                }
                IntrinsicOp::LoadUbo => {
                    let ty = func.value_type(dest);
                    ty.bit_size() == 32
                        && ir::lsc::DataShape::VECT_SIZES.contains(&ty.num_components())
                        && i.srcs.first().is_some_and(is_const)
                        && i.srcs.get(1).is_some_and(|s| {
                            is_const(s) || uni.get(s.value.index()).copied().unwrap_or(false)
                        })
                }
                _ => false,
            },
            InstKind::LoadConst(_) | InstKind::Undef | InstKind::Phi(_) => false,
        };
        let u = u && !simt.get(dest.index()).copied().unwrap_or(true);
        if let Some(slot) = uni.get_mut(dest.index()) {
            *slot = u;
        }
        if !u {
            continue;
        }
        // The loops its sources vary across, and a first-lane read's own loop.
        let mut loops: Vec<LoopId> = Vec::new();
        for s in data.srcs() {
            for &l in anchored.get(s.value.index()).map_or(&[][..], |a| &a[..]) {
                if !loops.contains(&l) {
                    loops.push(l);
                }
            }
        }
        if matches!(&data.kind, InstKind::Intrinsic(i) if i.op == IntrinsicOp::ReadFirstInvocation)
        {
            let at = func.inst_block(inst).map(CfNode::Block);
            if let Some(l) = at.and_then(|n| func.enclosing_loop(n)) {
                if !loops.contains(&l) {
                    loops.push(l);
                }
            }
        }
        anchored[dest.index()] = loops;
    }
    let anchors = anchored
        .into_iter()
        .enumerate()
        .flat_map(|(v, ls)| ls.into_iter().map(move |l| (Value::from_u32(v as u32), l)))
        .collect();
    (uni, anchors)
}

/// The values of `anchors` used outside a loop they vary across (see the module
/// documentation): a phi uses its source at the end of the predecessor block.
fn escaping(func: &Function, anchors: &[(Value, LoopId)]) -> Vec<Value> {
    if anchors.is_empty() {
        return Vec::new();
    }
    // Whether `node` sits inside `outer` (at any depth).
    let inside = |mut node: CfNode, outer: LoopId| loop {
        match func.enclosing_loop(node) {
            Some(l) if l == outer => return true,
            Some(l) => node = CfNode::Loop(l),
            None => return false,
        }
    };
    let mut out: Vec<Value> = Vec::new();
    let mut check = |s: &Src, site: CfNode| {
        for &(v, l) in anchors {
            if s.value == v && !inside(site, l) && !out.contains(&v) {
                out.push(v);
            }
        }
    };
    for inst in func.insts_in_order() {
        let Some(b) = func.inst_block(inst) else {
            continue;
        };
        let data = func.inst(inst);
        match &data.kind {
            InstKind::Phi(p) => {
                for (pred, s) in &p.srcs {
                    check(s, CfNode::Block(*pred));
                }
            }
            _ => {
                for s in data.srcs() {
                    check(&s, CfNode::Block(b));
                }
            }
        }
    }
    for id in func.ifs_in_order() {
        check(&func.if_data(id).cond, CfNode::If(id));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniformity_flows_through_alu_but_not_phis() {
        let text = "shader compute (local_size=8,1,1)
image @img : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %0 = @load_workgroup_id
    32   %1 = load_const (0x00000004)
    32   %2 = imul %0.x, %1
    32x3 %3 = @load_local_invocation_id
    32   %4 = iadd %2, %3.x
    32x3 %5 = @image_load_param (@img) (base=1)
    32   %6 = iadd %5.x, %2
    1    %7 = ult %4, %6
  if %7 {
    block b1:
      32   %8 = iadd %6, %1
  } else {
    block b2:
  }
  block b3:
    32   %9 = phi b1: %8, b2: %6
}";
        let s = ir::parse_shader(text).unwrap();
        let u = uniform_values(&s.functions[0], false);
        let get = |n: usize| u[n];
        assert!(get(0) && get(2) && get(5) && get(6) && get(8));
        assert!(!get(1), "constants are immediates, not variables");
        assert!(!get(3) && !get(4) && !get(7) && !get(9));
    }

    #[test]
    fn with_fused_eus_alu_results_two_levels_deep_are_simt() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_workgroup_id
    32   %1 = load_const (0x00000004)
    32   %2 = iadd %0.x, %1
    1    %3 = ult %0.y, %1
  if %3 {
    block b1:
      32   %4 = imul %2, %2
      1    %5 = ult %0.z, %2
    if %5 {
      block b2:
        32   %6 = iadd %4, %1
        32   %7 = @load_push_constant (%1) (base=0, range=8)
    } else {
      block b3:
    }
    block b4:
  } else {
    block b5:
  }
  block b6:
}";
        let s = ir::parse_shader(text).unwrap();
        let plain = uniform_values(&s.functions[0], false);
        let fused = uniform_values(&s.functions[0], true);
        assert!([2, 4, 6, 7].iter().all(|&v| plain[v]));
        // One level deep stays scalar; two levels deep an ALU result is SIMT, and
        // what it feeds too, but a load stays a scalar message.
        assert!(fused[2] && fused[4] && fused[7]);
        assert!(!fused[6]);
    }

    #[test]
    fn a_first_lane_read_is_uniform_where_its_uses_stay_in_its_loop() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
  loop {
    block b1:
      32   %1 = @read_first_invocation (%0.x)
      32   %2 = @read_first_invocation (%0.y)
      1    %3 = ieq %1, %0.x
    if %3 {
      block b2:
        32   %4 = iadd %1, %1
        break
    } else {
      block b3:
    }
    block b4:
  }
  block b5:
    32   %5 = iadd %2, %4
}";
        let s = ir::parse_shader(text).unwrap();
        let u = uniform_values(&s.functions[0], false);
        // %1 is used inside its loop only; %2 after it, where lanes that left in
        // different iterations meet, and so is %4, computed from %1 in the loop.
        assert!(u[1]);
        assert!(!u[2] && !u[4] && !u[5]);
    }
}
