//! Constant folding (`const-fold`), NIR's `nir_opt_constant_folding` for ALU instructions
//! and `load_constant`.
//!
//! Every ALU instruction whose sources are all `load_const` is evaluated with
//! [`eval_alu_flagged`] and becomes a `load_const` in place: the instruction
//! keeps its value id, so no use needs rewriting, and one walk in program order folds whole
//! chains (SSA dominance puts every ALU source before its use). The pass is linear in the
//! size of the function. Phis, undefs and intrinsics other than `load_constant` are left
//! alone; an instruction that cannot be evaluated (a shape the validator rejects) is left
//! as it is.
//!
//! A `load_constant` at a constant offset reads the shader's constant data at compile
//! time, as `nir_opt_constant_folding` does (after a loop over a table is unrolled, its
//! reads are at constant offsets). The bytes are those the load reads when it runs
//! (`min(base + offset, size - bytes)`, `ir/SYNTAX.md`): NIR folds a read outside the
//! range to an undef, the IR's definition to the clamped bytes. A read at an address
//! that is not aligned stays, for the executor to report.

use super::pass::{Pass, PassError};
use crate::eval::{eval_alu_flagged, Operand};
use crate::function::{Function, InstKind};
use crate::interp::clamped_address;
use crate::intrinsic::{IndexKind, IntrinsicOp};
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
        let data = &shader.constant_data;
        for func in &mut shader.functions {
            changed |= fold_function(func);
            changed |= fold_constant_loads(func, data);
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

/// Folds every `load_constant` of `func` at a constant offset into the `load_const` of
/// the bytes of `data` it reads; returns whether anything changed.
pub fn fold_constant_loads(func: &mut Function, data: &[u8]) -> bool {
    let mut changed = false;
    for inst in func.insts_in_order() {
        let d = func.inst(inst);
        let (InstKind::Intrinsic(i), Some(dest)) = (&d.kind, d.dest) else {
            continue;
        };
        if i.op != IntrinsicOp::LoadConstant {
            continue;
        }
        let Some(offset) = i
            .srcs
            .first()
            .and_then(|s| const_components(func, *s))
            .and_then(|c| c.first().copied())
        else {
            continue;
        };
        let ty = func.value_type(dest);
        if ty.bit_size() < 8 {
            continue;
        }
        let comp = usize::from(ty.bit_size() / 8);
        let n = usize::from(ty.num_components());
        let base = i.index(IndexKind::Base).unwrap_or(0);
        let at = clamped_address(base, offset as u32, (comp * n) as u64, data.len() as u64);
        let Some(at) = at.map(|a| a as usize).filter(|a| a % comp == 0) else {
            continue;
        };
        let values = (0..n)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..comp].copy_from_slice(&data[at + c * comp..at + (c + 1) * comp]);
                u64::from_le_bytes(w)
            })
            .collect();
        func.inst_mut(inst).kind = InstKind::LoadConst(values);
        changed = true;
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
    fn constant_loads_at_constant_offsets_fold() {
        // The words 0x11223344, 0x55667788, 0x99aabbcc; offset 8 from base 4 is byte
        // 12, clamped to 8 (the last whole word); 2 from base 0 is not aligned.
        let (changed, text) = fold_text(
            "constant_data (size=12) {
               0x0000: 44 33 22 11 88 77 66 55 cc bb aa 99
             }
             fn main {
               block b0:
                 32   %0 = load_const (4)
                 32   %1 = @load_constant (%0) (base=0, range=12)
                 32x2 %2 = @load_constant (%0) (base=0, range=12)
                 32   %3 = load_const (8)
                 32   %4 = @load_constant (%3) (base=4, range=8)
                 16   %5 = @load_constant (%0) (base=2, range=10)
                 32   %6 = load_const (2)
                 32   %7 = @load_constant (%6) (base=0, range=12)
                 32x3 %8 = @load_local_invocation_id
                 32   %9 = @load_constant (%8.x) (base=0, range=12)
             }",
        );
        assert!(changed);
        assert!(text.contains("32   %1 = load_const (0x55667788)"), "{text}");
        assert!(text.contains("32x2 %2 = load_const (0x55667788, 0x99aabbcc)"));
        assert!(text.contains("32   %4 = load_const (0x99aabbcc)"));
        assert!(text.contains("16   %5 = load_const (0x5566)"));
        assert!(text.contains("32   %7 = @load_constant (%6)"));
        assert!(text.contains("32   %9 = @load_constant (%8.x)"));
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
