//! `lower-non-uniform-access`: NIR's `nir_lower_non_uniform_access` for images.
//!
//! An image access qualified `non_uniform` may name a different element of an image
//! array (`@imgs[%i]`) in each lane, but a message takes one surface. The pass wraps
//! each such access in a loop that serves one distinct index per iteration:
//!
//! ```text
//! loop {
//!   block:
//!     32 %first = @read_first_invocation (%i)
//!     1  %same  = ieq %first, %i
//!   if %same {
//!     block:
//!       ... = @image_load (@imgs[%first], ...)     (the access, now uniform)
//!       break
//!   } else {
//!     block:
//!   }
//!   block:
//! }
//! ```
//!
//! Each iteration the lanes whose index equals the first active lane's do the access
//! and leave; the others go round again, so the loop runs once per distinct index
//! among the lanes. The access keeps its value id and source position and loses its
//! `non_uniform` qualifier (its index is now the same on every lane that runs it). Its
//! result is used after the loop as before: the `break` in the `if` is the loop's only
//! exit, so the access dominates what follows.
//!
//! An index that is uniform already ([`crate::divergence`]: a constant, a workgroup
//! id, a push constant, ...) needs no loop: such an access only loses the qualifier,
//! as NIR's `nir_opt_non_uniform_access` drops it where the divergence analysis finds
//! the index uniform. Buffer accesses (`load_ssbo`, `store_ssbo`, `load_ubo`, the
//! `ssbo_atomic`s) keep theirs: they reach memory through a per-lane address (the
//! buffer table of `visa/ABI.md`), so each lane can name its own block.

use super::pass::{Pass, PassError};
use crate::builder::Builder;
use crate::divergence::uniform_values;
use crate::entity::Inst;
use crate::function::{Cursor, Function, InstKind, Jump};
use crate::image::Access;
use crate::intrinsic::IndexKind;
use crate::shader::Shader;

/// The pass, `lower-non-uniform-access`.
#[derive(Copy, Clone, Debug, Default)]
pub struct LowerNonUniformAccess;

impl Pass for LowerNonUniformAccess {
    fn name(&self) -> &'static str {
        "lower-non-uniform-access"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= lower_function(f);
        }
        Ok(changed)
    }
}

/// Lowers every non-uniform image access of `func`; returns whether any changed.
pub fn lower_function(func: &mut Function) -> bool {
    let targets: Vec<Inst> = func
        .insts_in_order()
        .into_iter()
        .filter(|&i| match &func.inst(i).kind {
            InstKind::Intrinsic(x) => x.is_non_uniform() && x.image.is_some(),
            _ => false,
        })
        .collect();
    if targets.is_empty() {
        return false;
    }
    // The loops add values, but the indices are values of the function as it was.
    let uniform = uniform_values(func);
    for &inst in &targets {
        let InstKind::Intrinsic(x) = &func.inst(inst).kind else {
            continue;
        };
        let index = x.image.and_then(|r| r.index);
        if let Some(index) = index.filter(|s| !uniform[s.value.index()]) {
            let span = func.inst_span(inst);
            let mut b = Builder::new(func, Cursor::Before(inst));
            b.span = span;
            b.push_loop();
            let first = b.read_first_invocation(index);
            let same = b.ieq(first, index);
            b.push_if(same);
            let then = b.current_block();
            func.remove_inst(inst);
            func.insert_inst(inst, Cursor::BlockEnd(then));
            func.block_mut(then).jump = Some(Jump::Break);
            if let InstKind::Intrinsic(x) = &mut func.inst_mut(inst).kind {
                if let Some(r) = x.image.as_mut() {
                    r.index = Some(first.into());
                }
            }
        }
        if let InstKind::Intrinsic(x) = &mut func.inst_mut(inst).kind {
            if let Some(a) = x.index(IndexKind::Access).and_then(Access::from_bits) {
                x.set_index(IndexKind::Access, a.without(Access::NON_UNIFORM).bits());
            }
        }
    }
    true
}
