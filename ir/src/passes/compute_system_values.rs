//! Compute system values the workgroup size decides (`lower-compute-system-values`),
//! what NIR's `nir_lower_compute_system_values` does for a fixed workgroup size: in a
//! dimension where the workgroup is one invocation wide, every invocation's local ID is
//! 0, so
//!
//! - `@load_local_invocation_id` reads 0 in that component;
//! - `@load_local_invocation_index` is 0 when the whole workgroup is one invocation.
//!
//! `@load_global_invocation_id` stays as it is: the back end computes it per
//! component (`workgroup_id * local_size + local_invocation_id`), and a workgroup one
//! invocation wide in `z` is the common case where that is cheap already.
//!
//! Mesa's Intel back end relies on this (`brw_nir_lower_cs_intrinsics`: "replace any
//! references to SYSTEM_VALUE_LOCAL_INVOCATION_ID vector components with zero for any
//! dimension where the workgroup size is 1"). The constants then fold: a 1x1x1
//! workgroup's shared-memory addresses, loop bounds and conditions become constants.
//!
//! When the shader fixes its subgroup size (`subgroup_size`, the SIMD width a driver
//! compiles it for, as brw compiles a compute shader once per dispatch width and
//! `nir_lower_subgroups` folds `subgroup_size` in each), `@load_subgroup_size` is that
//! constant and `@load_num_subgroups` the workgroup's invocations divided by it,
//! rounded up: a shader that picks its algorithm by `gl_SubgroupSize` keeps one.
//!
//! The rewritten instruction keeps its value: it becomes a `vec3` of a new read's wider
//! components and zeros, or a `load_const`, so no use changes.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::builder::Builder;
use crate::function::{AluInst, Cursor, Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::types::{Src, Type};

/// The pass, `lower-compute-system-values`.
#[derive(Copy, Clone, Debug, Default)]
pub struct LowerComputeSystemValues;

impl Pass for LowerComputeSystemValues {
    fn name(&self) -> &'static str {
        "lower-compute-system-values"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let unit = shader.local_size.map(|d| d == 1);
        let subgroups = shader.subgroup_size.filter(|&n| n > 0).map(|n| {
            let invocations: u64 = shader.local_size.iter().map(|&d| u64::from(d)).product();
            (n, invocations.div_ceil(u64::from(n)))
        });
        if !unit.contains(&true) && subgroups.is_none() {
            return Ok(false);
        }
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= lower_function(f, unit, subgroups);
        }
        Ok(changed)
    }
}

/// Lowers the system values of `func`: `unit` says which workgroup dimensions are one
/// invocation wide, `subgroups` the fixed subgroup size and subgroup count.
fn lower_function(func: &mut Function, unit: [bool; 3], subgroups: Option<(u32, u64)>) -> bool {
    let mut changed = false;
    for inst in func.insts_in_order() {
        let Some(op) = func.inst(inst).as_intrinsic().map(|i| i.op) else {
            continue;
        };
        let kind = match (op, subgroups) {
            (IntrinsicOp::LoadSubgroupSize, Some((n, _))) => {
                InstKind::LoadConst([u64::from(n)].into_iter().collect())
            }
            (IntrinsicOp::LoadNumSubgroups, Some((_, count))) => {
                InstKind::LoadConst([count].into_iter().collect())
            }
            _ => match op {
                IntrinsicOp::LoadLocalInvocationIndex if unit == [true; 3] => {
                    let n = func
                        .inst(inst)
                        .dest
                        .map_or(1, |d| func.value_type(d).num_components());
                    InstKind::LoadConst((0..n).map(|_| 0).collect())
                }
                IntrinsicOp::LoadLocalInvocationId if unit == [true; 3] => {
                    InstKind::LoadConst([0u64; 3].into_iter().collect())
                }
                IntrinsicOp::LoadLocalInvocationId => {
                    // The wider dimensions from a read of their own, the others 0.
                    let mut b = Builder::new(func, Cursor::Before(inst));
                    b.span = b.func.inst_span(inst);
                    let vec3 = Type::new(32, 3).expect("a 32x3 type");
                    let zero =
                        Src::new(b.load_const(Type::new(32, 1).expect("a 32-bit type"), &[0]));
                    let id = b
                        .intrinsic(op, None, &[], &[], Some(vec3))
                        .expect("a system value has a destination");
                    let srcs = (0..3u8)
                        .map(|c| {
                            if unit[usize::from(c)] {
                                zero
                            } else {
                                b.channel(id, c)
                            }
                        })
                        .collect();
                    InstKind::Alu(AluInst {
                        op: AluOp::Vec3,
                        srcs,
                        exact: false,
                    })
                }
                _ => continue,
            },
        };
        func.inst_mut(inst).kind = kind;
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_shader, print_shader, validate};

    fn run(text: &str) -> String {
        let mut s = parse_shader(text).unwrap();
        LowerComputeSystemValues.run(&mut s).unwrap();
        validate(&s).unwrap();
        print_shader(&s)
    }

    #[test]
    fn a_one_wide_dimension_reads_zero() {
        let out = run("shader compute (local_size=1,8,1)\nfn main {\n  block b0:\n    32x3 %0 = @load_local_invocation_id\n    32x3 %1 = @load_global_invocation_id\n    32x3 %2 = iadd %0, %1\n}\n");
        // x and z: 0; y: the invocation's own.
        assert!(out.contains("32x3 %0 = vec3 %3, %4.y, %3"), "{out}");
        assert!(out.contains("%4 = @load_local_invocation_id"), "{out}");
        assert!(
            out.contains("32x3 %1 = @load_global_invocation_id"),
            "{out}"
        );
    }

    #[test]
    fn a_single_invocation_workgroup_is_all_constants() {
        let out = run("shader compute (local_size=1,1,1)\nfn main {\n  block b0:\n    32x3 %0 = @load_local_invocation_id\n    32 %1 = @load_local_invocation_index\n    32 %2 = iadd %0.x, %1\n}\n");
        assert!(
            out.contains("32x3 %0 = load_const (0x00000000, 0x00000000, 0x00000000)"),
            "{out}"
        );
        assert!(out.contains("32   %1 = load_const (0x00000000)"), "{out}");
    }

    #[test]
    fn a_fixed_subgroup_size_folds_the_subgroup_size_and_count() {
        // 48 invocations in subgroups of 16: three subgroups; 20 in 8s: three (rounded up).
        let out = run("shader compute (local_size=16,3,1, subgroup_size=16)\nfn main {\n  block b0:\n    32 %0 = @load_subgroup_size\n    32 %1 = @load_num_subgroups\n    32 %2 = @load_subgroup_id\n    32 %3 = iadd %0, %1\n}\n");
        assert!(out.contains("32   %0 = load_const (0x00000010)"), "{out}");
        assert!(out.contains("32   %1 = load_const (0x00000003)"), "{out}");
        assert!(out.contains("32   %2 = @load_subgroup_id"), "{out}");
        let out = run("shader compute (local_size=20,1,1, subgroup_size=8)\nfn main {\n  block b0:\n    32 %0 = @load_num_subgroups\n}\n");
        assert!(out.contains("32   %0 = load_const (0x00000003)"), "{out}");
    }

    #[test]
    fn wider_workgroups_are_left_alone() {
        let text = "shader compute (local_size=2,2,2)\nfn main {\n  block b0:\n    32x3 %0 = @load_local_invocation_id\n}\n";
        let mut s = parse_shader(text).unwrap();
        assert!(!LowerComputeSystemValues.run(&mut s).unwrap());
    }
}
