//! Which values are uniform: the same in every invocation of a dispatch that computes
//! them, after NIR's `nir_divergence_analysis`, reduced to what holds for a whole
//! dispatch (so also across the iterations of any loop):
//!
//! - constants;
//! - the workgroup id and count, the subgroup id and count (one workgroup's
//!   invocations share them, and a subgroup never spans two workgroups) and the
//!   subgroup size;
//! - loads of memory the shader cannot write, at uniform addresses: push constants,
//!   UBOs, the shader's constant data;
//! - an image's size, sample count or level count, and its parameters, at a uniform
//!   array index, and a buffer's size at a uniform block index: descriptors do not
//!   change during a dispatch;
//! - ALU results of uniform values.
//!
//! Everything else is divergent, phis too: an `if` on a divergent condition, or a loop
//! its invocations leave at different iterations, merges other values in different
//! invocations (NIR tracks that; this analysis does not need it). So is `undef`, whose
//! bits each invocation may see differently, and `read_first_invocation`, which is
//! uniform among the invocations that run it together but not across the iterations of
//! a loop.

use crate::function::{Function, InstKind};
use crate::intrinsic::IntrinsicOp;

/// One flag per value id of `func`: whether the value is uniform.
pub fn uniform_values(func: &Function) -> Vec<bool> {
    let mut uniform = vec![false; func.num_value_ids()];
    // Definitions come before their uses in program order, phis aside, and phis are
    // divergent: one walk decides every value.
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let Some(dest) = data.dest else {
            continue;
        };
        let all = |srcs: &[crate::types::Src]| srcs.iter().all(|s| uniform[s.value.index()]);
        let u = match &data.kind {
            InstKind::LoadConst(_) => true,
            InstKind::Undef | InstKind::Phi(_) => false,
            InstKind::Alu(a) => all(&a.srcs),
            InstKind::Intrinsic(i) => {
                use IntrinsicOp::*;
                let image_uniform = i
                    .image
                    .is_none_or(|r| r.index.is_none_or(|s| uniform[s.value.index()]));
                match i.op {
                    LoadWorkgroupId | LoadNumWorkgroups | LoadSubgroupId | LoadNumSubgroups
                    | LoadSubgroupSize => true,
                    LoadPushConstant | LoadUbo | LoadConstant | GetSsboSize => all(&i.srcs),
                    ImageSize | ImageSamples | ImageLevels | ImageLoadParam => {
                        image_uniform && all(&i.srcs)
                    }
                    _ => false,
                }
            }
        };
        uniform[dest.index()] = u;
    }
    uniform
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_shader;

    /// The uniform flags of the values `names` (`%N`) of the shader's first function.
    fn flags(text: &str, names: &[u32]) -> Vec<bool> {
        let shader = parse_shader(text).unwrap_or_else(|e| panic!("{e:?}"));
        let func = &shader.functions[0];
        let u = uniform_values(func);
        names
            .iter()
            .map(|&n| u[func.value_named(n).expect("a value of the text").index()])
            .collect()
    }

    #[test]
    fn dispatch_constants_and_their_arithmetic_are_uniform() {
        let text = "shader compute (local_size=8,1,1)
image @imgs[4] : 2d r32_uint (binding=0)
fn main {
  block b0:
    32x3 %1 = @load_workgroup_id
    32x3 %2 = @load_local_invocation_id
    32   %3 = load_const (0x00000004)
    32   %4 = iadd %1.z, %3
    32   %5 = iadd %2.x, %3
    32   %6 = @load_push_constant (%4) (base=0, range=64)
    32   %7 = @load_push_constant (%5) (base=0, range=64)
    32x2 %8 = @image_size (@imgs[%1.z])
    32x2 %9 = @image_size (@imgs[%2.x])
    32   %10 = undef
    32   %11 = @read_first_invocation (%2.x)
}
";
        assert_eq!(
            flags(text, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
            [true, false, true, true, false, true, false, true, false, false, false]
        );
    }

    #[test]
    fn phis_are_divergent() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %1 = @load_workgroup_id
    32   %2 = load_const (0x00000001)
    1    %3 = ieq %1.x, %2
  if %3 {
    block b1:
      32 %4 = iadd %1.y, %2
  } else {
    block b2:
  }
  block b3:
    32 %5 = phi b1: %4, b2: %2
    32 %6 = iadd %5, %2
}
";
        assert_eq!(flags(text, &[3, 4, 5, 6]), [true, true, false, false]);
    }
}
