//! Constant folding (`const-fold`), NIR's `nir_opt_constant_folding` for ALU instructions.
//!
//! Every ALU instruction whose sources are all `load_const` is evaluated with
//! [`eval_alu_flagged`] and becomes a `load_const` in place: the instruction
//! keeps its value id, so no use needs rewriting, and one walk in program order folds whole
//! chains (SSA dominance puts every ALU source before its use). The pass is linear in the
//! size of the function. Intrinsics, phis and undefs are left alone; an instruction that
//! cannot be evaluated (a shape the validator rejects) is left as it is.

use super::pass::{Pass, PassError};
use crate::eval::{eval_alu_flagged, Operand};
use crate::function::{Function, InstKind};
use crate::shader::Shader;
use crate::types::Src;
use smallvec::SmallVec;

/// The constant-folding pass.
#[derive(Copy, Clone, Debug, Default)]
pub struct ConstFold;

impl Pass for ConstFold {
    fn name(&self) -> &'static str {
        "const-fold"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for func in &mut shader.functions {
            changed |= fold_function(func);
        }
        Ok(changed)
    }
}

/// The components a source reads from a live `load_const`, or `None` if its value is not
/// one (or the swizzle reads past it).
pub fn const_components(func: &Function, src: Src) -> Option<SmallVec<[u64; 16]>> {
    if src.value.index() >= func.num_value_ids() {
        return None;
    }
    let def = func.value_def(src.value)?;
    func.inst_block(def)?;
    let vals = func.inst(def).as_const()?;
    let n = func.src_components(src);
    (0..n)
        .map(|i| vals.get(src.swizzle.component(i) as usize).copied())
        .collect()
}

/// Folds every foldable ALU instruction of `func`; returns whether anything changed.
pub fn fold_function(func: &mut Function) -> bool {
    let mut changed = false;
    let mut comps: SmallVec<[SmallVec<[u64; 16]>; 4]> = SmallVec::new();
    let mut bits: SmallVec<[u8; 4]> = SmallVec::new();
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (InstKind::Alu(alu), Some(dest)) = (&data.kind, data.dest) else {
            continue;
        };
        comps.clear();
        bits.clear();
        let all_const = alu
            .srcs
            .iter()
            .all(|&src| match const_components(func, src) {
                Some(c) => {
                    comps.push(c);
                    bits.push(func.value_type(src.value).bit_size());
                    true
                }
                None => false,
            });
        if !all_const {
            continue;
        }
        let operands: SmallVec<[Operand<'_>; 4]> = comps
            .iter()
            .zip(&bits)
            .map(|(c, &b)| Operand::new(b, c))
            .collect();
        match eval_alu_flagged(alu.op, alu.exact, func.value_type(dest), &operands) {
            Ok(result) => {
                func.inst_mut(inst).kind = InstKind::LoadConst(result.into_iter().collect());
                changed = true;
            }
            Err(e) => log::debug!("const-fold: not folding {}: {e}", func.value_name(dest)),
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alu::AluOp;
    use crate::builder::Builder;
    use crate::types::Type;
    use crate::{parse_shader, print_function};

    fn fold_text(src: &str) -> (bool, String) {
        let mut shader = parse_shader(src).unwrap_or_else(|e| panic!("{e:?}"));
        let changed = ConstFold.run(&mut shader).unwrap();
        let text = print_function(&shader, &shader.functions[0]);
        (changed, text)
    }

    #[test]
    fn folds_a_chain_in_one_walk() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(6);
        let y = b.imm_u32(7);
        let p = b.imul(x, y); // 42
        let one = b.imm_u32(1);
        let s = b.ishl(p, one); // 84
        let c = b.ult(s, p); // false
        assert!(fold_function(&mut f));
        let konst = |v| f.inst(f.value_def(v).unwrap()).as_const().unwrap().to_vec();
        assert_eq!(konst(p), [42]);
        assert_eq!(konst(s), [84]);
        assert_eq!(konst(c), [0]);
        assert_eq!(f.value_type(c), Type::BOOL);
        assert!(!fold_function(&mut f));
    }

    #[test]
    fn swizzles_select_constant_components() {
        let (changed, text) = fold_text(
            "fn main {
               block b0:
                 32x4 %0 = load_const (1, 2, 3, 4)
                 32x2 %1 = load_const (10, 20)
                 32x2 %2 = iadd %0.wz, %1.yx
                 32x3 %3 = vec3 %2.y, %0.x, %1.x
             }",
        );
        assert!(changed);
        assert!(
            text.contains("32x2 %2 = load_const (0x00000018, 0x0000000d)"),
            "{text}"
        );
        assert!(text.contains("32x3 %3 = load_const (0x0000000d, 0x00000001, 0x0000000a)"));
    }

    #[test]
    fn non_constant_sources_and_intrinsics_stay() {
        let (changed, text) = fold_text(
            "fn main {
               block b0:
                 32x3 %0 = @load_global_invocation_id
                 32   %1 = load_const (5)
                 32   %2 = iadd %0.x, %1
                 32   %3 = mov %1
                 32   %4 = iadd %3, %3
             }",
        );
        assert!(changed);
        assert!(text.contains("32   %2 = iadd %0.x, %1"), "{text}");
        assert!(text.contains("32   %3 = load_const (0x00000005)"));
        assert!(text.contains("32   %4 = load_const (0x0000000a)"));
    }

    #[test]
    fn folds_inside_control_flow_and_keeps_if_conditions() {
        let (changed, text) = fold_text(
            "fn main {
               block b0:
                 32 %0 = load_const (3)
                 1  %1 = ieq %0, %0
               if %1 {
                 block b1:
                   16 %2 = load_const (0x3c00)
                   16 %3 = fadd %2, %2
               } else {
                 block b2:
               }
               block b3:
             }",
        );
        assert!(changed);
        assert!(text.contains("1    %1 = load_const (true)"), "{text}");
        assert!(text.contains("16   %3 = load_const (0x4000)"));
        assert!(text.contains("if %1 {"));
    }

    #[test]
    fn malformed_instructions_are_left_alone() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.imm_u32(1);
        let y = b.imm_int(16, 1);
        // A shape the validator rejects: mixed bit sizes.
        let bad = b.alu_typed(AluOp::Iadd, &[x.into(), y.into()], Type::U32);
        // A swizzle reading past the constant.
        let bad2 = b.alu_typed(AluOp::Mov, &[Src::swizzled(x, &[3]).unwrap()], Type::U32);
        assert!(!fold_function(&mut f));
        assert!(f.inst(f.value_def(bad).unwrap()).as_alu().is_some());
        assert!(f.inst(f.value_def(bad2).unwrap()).as_alu().is_some());
    }
}
