//! Which values are the same on every lane and every loop iteration: those live in
//! scalar variables, computed once per thread.
//!
//! A value is uniform when it is a workgroup id or count, the subgroup count, a push
//! constant at a constant offset, an image parameter at a constant array index, or an
//! ALU result of uniform values and constants. These depend on nothing that varies
//! between lanes or iterations, so writing them without the execution mask
//! (`(M1_NM, 1)`) gives every lane the value NIR gives it, wherever the definition sits
//! (inside a divergent `if` or a loop, a lane that uses the value has run its
//! definition, and every run writes the same bits). Phis, undefs and everything read
//! from memory or per lane stay SIMT.

use ir::{Function, InstKind, IntrinsicOp, Src};

/// One flag per value id: whether the value is uniform.
pub fn uniform_values(func: &Function) -> Vec<bool> {
    let mut uni = vec![false; func.num_value_ids()];
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
                | IntrinsicOp::LoadNumSubgroups => true,
                IntrinsicOp::LoadPushConstant => i.srcs.first().is_some_and(is_const),
                IntrinsicOp::ImageLoadParam => i
                    .image
                    .is_some_and(|r| r.index.is_none_or(|idx| is_const(&idx))),
                _ => false,
            },
            InstKind::LoadConst(_) | InstKind::Undef | InstKind::Phi(_) => false,
        };
        if let Some(slot) = uni.get_mut(dest.index()) {
            *slot = u;
        }
    }
    uni
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
        let u = uniform_values(&s.functions[0]);
        let get = |n: usize| u[n];
        assert!(get(0) && get(2) && get(5) && get(6) && get(8));
        assert!(!get(1), "constants are immediates, not variables");
        assert!(!get(3) && !get(4) && !get(7) && !get(9));
    }
}
