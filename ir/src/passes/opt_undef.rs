//! Undef simplification (`opt-undef`), NIR's `nir_opt_undef`:
//!
//! - `bcsel c, undef, x` and `bcsel c, x, undef` become `mov x` (the select may as well
//!   have chosen `x`; this cleans up after `if` flattening, where one side of an `if`
//!   defined a variable and the other did not);
//! - `vecN` (and `mov`) of nothing but undefs becomes one `undef`;
//! - a store to a buffer, shared or global memory of a value that is entirely undef
//!   is deleted (whatever the memory held is as good a value as any).
//!
//! Image stores are kept, as NIR keeps them. An `undef` may be taken as any value, so
//! these rewrites change what a run that really reads an `undef` computes; the
//! property suite compares such runs as NIR's semantics allow (an `undef` matches any
//! value).

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::entity::Value;
use crate::function::{AluInst, Function, InstKind};
use crate::intrinsic::IntrinsicOp;
use crate::shader::Shader;
use crate::types::Src;
use smallvec::smallvec;

/// The undef-simplification pass, `opt-undef`.
#[derive(Copy, Clone, Debug, Default)]
pub struct OptUndef;

impl Pass for OptUndef {
    fn name(&self) -> &'static str {
        "opt-undef"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= opt_undef_function(f);
        }
        Ok(changed)
    }
}

fn is_undef(func: &Function, v: Value) -> bool {
    func.value_def(v)
        .filter(|&d| func.inst_block(d).is_some())
        .is_some_and(|d| matches!(func.inst(d).kind, InstKind::Undef))
}

/// Whether every component `src` reads is undefined: an `undef`, or a `vecN` whose
/// read components come from undefs (NIR's `nir_get_undef_mask`).
fn reads_only_undef(func: &Function, src: Src) -> bool {
    if is_undef(func, src.value) {
        return true;
    }
    let Some(def) = func.value_def(src.value) else {
        return false;
    };
    let Some(alu) = func.inst(def).as_alu() else {
        return false;
    };
    if !matches!(
        alu.op,
        AluOp::Vec2 | AluOp::Vec3 | AluOp::Vec4 | AluOp::Vec8 | AluOp::Vec16
    ) {
        return false;
    }
    (0..func.src_components(src)).all(|i| {
        alu.srcs
            .get(src.swizzle.component(i) as usize)
            .is_some_and(|s| is_undef(func, s.value))
    })
}

/// Applies the rules to every instruction of `func`; returns whether anything changed.
pub fn opt_undef_function(func: &mut Function) -> bool {
    let mut changed = false;
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        match &data.kind {
            InstKind::Alu(alu) => {
                let new = match alu.op {
                    AluOp::Bcsel if is_undef(func, alu.srcs[1].value) => {
                        Some(InstKind::Alu(AluInst {
                            op: AluOp::Mov,
                            srcs: smallvec![alu.srcs[2]],
                            exact: false,
                        }))
                    }
                    AluOp::Bcsel if is_undef(func, alu.srcs[2].value) => {
                        Some(InstKind::Alu(AluInst {
                            op: AluOp::Mov,
                            srcs: smallvec![alu.srcs[1]],
                            exact: false,
                        }))
                    }
                    AluOp::Mov
                    | AluOp::Vec2
                    | AluOp::Vec3
                    | AluOp::Vec4
                    | AluOp::Vec8
                    | AluOp::Vec16
                        if alu.srcs.iter().all(|s| is_undef(func, s.value)) =>
                    {
                        Some(InstKind::Undef)
                    }
                    _ => None,
                };
                if let Some(kind) = new {
                    func.inst_mut(inst).kind = kind;
                    changed = true;
                }
            }
            InstKind::Intrinsic(i) => {
                let data_src = match i.op {
                    IntrinsicOp::StoreSsbo
                    | IntrinsicOp::StoreShared
                    | IntrinsicOp::StoreScratch
                    | IntrinsicOp::StoreGlobal => i.srcs.first().copied(),
                    _ => None,
                };
                if data_src.is_some_and(|s| reads_only_undef(func, s)) {
                    func.remove_inst(inst);
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}
