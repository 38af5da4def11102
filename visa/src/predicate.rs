//! Comparisons that only ever steer a select or a branch: they live in the predicates
//! of their uses, never as booleans in registers.
//!
//! A boolean value is `0` or `~0` in a register ([`crate::ctx`]); a condition reads it
//! back into a predicate (`cmp.ne p b 0`). For a comparison whose every use is a
//! condition (`bcsel`'s first source, an `if`), that round trip costs two instructions
//! per definition (`cmp` and `(p) sel` into the boolean) plus one per use. Instead the
//! comparison itself is written at each use, into the predicate the use reads (`cmp.lt
//! p a b`, then `(p) sel` or `(!p) goto`), and the boolean never exists: as brw writes a
//! comparison into the flag register its `SEL` or `IF` reads. The operands are SSA
//! values, unchanged wherever the comparison's uses run (they dominate them), so the
//! result is the same bits; the operands stay live until the last use instead
//! ([`crate::pressure`] counts them there).
//!
//! Folded are one-component comparisons of integers of at most 32 bits (`ieq`, `ine`,
//! `ilt`, `ige`, `ult`, `uge`) and of 16- and 32-bit floats (`feq`, `fneu`, `flt`,
//! `fge`); 64-bit ones are several instructions on 32-bit halves ([`crate::alu64`]) and
//! stay booleans.

use ir::{AluOp, Function, InstKind, Value};

/// One flag per value id: whether the value is a comparison folded into its uses.
pub fn folded_compares(func: &Function) -> Vec<bool> {
    let n = func.num_value_ids();
    let mut candidate = vec![false; n];
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (Some(dest), InstKind::Alu(a)) = (data.dest, &data.kind) else {
            continue;
        };
        if func.value_type(dest).num_components() != 1 {
            continue;
        }
        let Some(s) = a.srcs.first() else {
            continue;
        };
        let bits = func.src_type(*s).bit_size();
        candidate[dest.index()] = match a.op {
            AluOp::Ieq | AluOp::Ine | AluOp::Ilt | AluOp::Ige | AluOp::Ult | AluOp::Uge => {
                bits <= 32
            }
            AluOp::Feq | AluOp::Fneu | AluOp::Flt | AluOp::Fge => matches!(bits, 16 | 32),
            _ => false,
        };
    }
    // Any use other than a condition keeps the boolean.
    let mut keep = |v: Value| {
        if let Some(c) = candidate.get_mut(v.index()) {
            *c = false;
        }
    };
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        match &data.kind {
            InstKind::Alu(a) if a.op == AluOp::Bcsel => {
                a.srcs.iter().skip(1).for_each(|s| keep(s.value));
                // A condition of several components (a vector `bcsel`) is not one
                // predicate.
                if let Some(c) = a.srcs.first() {
                    if func.src_components(*c) != 1
                        || data
                            .dest
                            .is_some_and(|d| func.value_type(d).num_components() != 1)
                    {
                        keep(c.value);
                    }
                }
            }
            _ => data.srcs().iter().for_each(|s| keep(s.value)),
        }
    }
    candidate
}

/// The operands of a folded comparison `v`: the values it must keep live until `v`'s
/// last use.
pub fn operands(func: &Function, v: Value) -> Vec<Value> {
    func.value_def(v)
        .map(|d| func.inst(d).srcs().iter().map(|s| s.value).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_fold_and_other_uses_keep_the_boolean() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    1    %1 = ult %0.x, %0.y
    32   %2 = bcsel %1, %0.x, %0.y
    1    %3 = ieq %0.x, %0.z
    32   %4 = bcsel %3, %0.x, %0.y
    1    %5 = iand %3, %1
    1    %6 = flt %0.x, %0.y
    64   %7 = u2u64 %0.x
    1    %8 = ult %7, %7
    32   %9 = bcsel %8, %0.x, %0.y
    1    %10 = ilt %0.x, %0.z
    32   %11 = bcsel %10, %9, %4
  if %6 {
    block b1:
  } else {
    block b2:
  }
  block b3:
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        let folded = folded_compares(f);
        let at = |n: u32| folded[f.value_named(n).unwrap().index()];
        // %1 and %3 also feed an `iand`; %8 compares 64 bits; %10 is a select's
        // condition only, %6 an `if`'s.
        assert!(!at(1) && !at(3) && !at(8));
        assert!(at(6) && at(10));
        assert_eq!(operands(f, f.value_named(10).unwrap()).len(), 2);
    }
}
