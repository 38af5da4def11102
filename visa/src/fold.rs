//! Values computed where they are used, not in registers of their own.
//!
//! **Comparisons that only steer selects and branches.** A boolean value is `0` or `~0`
//! in a register ([`crate::ctx`]); a condition reads it back into a predicate (`cmp.ne
//! p b 0`). For a comparison whose every use is a condition (`bcsel`'s first source, an
//! `if`), that round trip costs two instructions per definition (`cmp` and `(p) sel`
//! into the boolean) plus one per use. Instead the comparison itself is written at each
//! use, into the predicate the use reads (`cmp.lt p a b`, then `(p) sel` or `(!p)
//! goto`), and the boolean never exists: as brw writes a comparison into the flag
//! register its `SEL` or `IF` reads; a vector comparison is written per component, at
//! each component of a vector `bcsel`. Folded are comparisons of integers of at most 32 bits (`ieq`, `ine`, `ilt`, `ige`, `ult`, `uge`) and of 16- and 32-bit
//! floats (`feq`, `fneu`, `flt`, `fge`); 64-bit ones are several instructions on 32-bit
//! halves ([`crate::alu64`]) and stay booleans.
//!
//! **Terms of an addition.** A 32-bit `iadd` whose only use is a 32-bit `iadd` of the
//! same block becomes one `add3` with it where the platform has one (Gfx12.5 on,
//! [`crate::target::Family::has_add3`]); a shift left by a constant below 16, or a
//! product with a constant below 2^16, whose only use is such an `iadd` becomes one
//! `mad` with it (vISA `mad` computes the exact product and sum and keeps the low 32
//! bits, which is NIR's wrapping `iadd` of the wrapping `ishl`/`imul`; GenX_IR encodes
//! it as one instruction from Gfx11 and as the two it replaces before). brw fuses the
//! same (`brw_fs_opt_combine_constants`' neighbours in `nir_opt_algebraic`'s late
//! rules, `iadd3` and `imad`).
//!
//! **Source modifiers.** A 16- or 32-bit `fabs` or `fneg` whose every use is a float
//! instruction that takes a source modifier (`fadd`, `fsub`, `fmul`, `ffma`, `fmin`,
//! `fmax`, and the comparisons `flt`, `fge`, `feq`, `fneu`) is the `(abs)` or `(-)`
//! modifier of those sources (`(-abs)` where `fsub` negates it), not an `and` or `xor` of
//! its own: as brw's NIR-to-backend translation gives `fabs` and `fneg` to its sources'
//! `abs` and `negate` bits. Both flip or clear only the sign bit, NaNs included.
//!
//! **Fields read as conversions' regions.** A constant-index `extract_u8`, `extract_i8`,
//! `extract_u16` or `extract_i16` of a 32-bit scalar (an `unpackUnorm4x8`'s bytes)
//! whose every use is its conversion to a float is that conversion's byte (word) region
//! of the operand's register: `mov d:f a:ub(0,k)<4;1,0>`, one instruction where the
//! field's shift, mask and conversion were three, as brw reads a byte with a strided
//! region. The signed fields convert only with `i2f32` (their sign extension is the
//! region type's); the unsigned ones with either. So is a field whose every use narrows
//! it to its own width (`u2u16` of a word, `u2u8` of a byte: the halves of a dword that
//! `lower-mem-access-bit-sizes` loaded for an `f16vec4`): a `mov` of the region.
//!
//! The operands are SSA values, unchanged wherever the uses run (they dominate them),
//! so the result is the same bits; the operands stay live until the use instead
//! ([`crate::pressure`] counts them there).

use ir::{AluOp, CfNode, Function, InstKind, LoopId, Src, Value};

/// How a value is computed where it is used.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fold {
    /// A comparison written as the `cmp` of each condition that reads it.
    Condition,
    /// An `iadd` that is two terms of the `add3` of its only use.
    Add3,
    /// A product (an `ishl` or `imul` by a constant) that is the product of the `mad` of
    /// its only use.
    Mad,
    /// An `fabs` or `fneg` written as a source modifier of each use.
    Modifier,
    /// A constant-index byte or word field read as the region of each conversion that
    /// uses it.
    Field,
}

/// Per value id: the innermost loop of its definition. A folded value's operands are
/// read where it is used; a use in another loop than the definition's could read a
/// scalar operand that a later iteration rewrote (a `read_first_invocation`'s, which
/// differs between iterations: `crate::uniform`), so values fold only into uses in
/// their own loop.
fn def_loops(func: &Function) -> Vec<Option<LoopId>> {
    let mut out = vec![None; func.num_value_ids()];
    for inst in func.insts_in_order() {
        if let (Some(d), Some(b)) = (func.inst(inst).dest, func.inst_block(inst)) {
            out[d.index()] = func.enclosing_loop(CfNode::Block(b));
        }
    }
    out
}

/// Whether a use of `v` at `site` is in another loop than `v`'s definition.
fn other_loop(func: &Function, loops: &[Option<LoopId>], v: Value, site: CfNode) -> bool {
    loops.get(v.index()).copied().flatten() != func.enclosing_loop(site)
}

/// Per value id: how it is folded into its uses, if it is.
pub fn folds(func: &Function, add3: bool) -> Vec<Option<Fold>> {
    // The definitions' loops, which every fold at a use site checks.
    let loops = def_loops(func);
    let mut out: Vec<Option<Fold>> = folded_compares(func, &loops)
        .into_iter()
        .map(|c| c.then_some(Fold::Condition))
        .collect();
    for (v, f) in folded_terms(func, add3) {
        out[v.index()] = Some(f);
    }
    for v in folded_modifiers(func, &loops) {
        out[v.index()] = Some(Fold::Modifier);
    }
    for v in folded_fields(func, &loops) {
        out[v.index()] = Some(Fold::Field);
    }
    out
}

/// The field an `extract_*` of a 32-bit scalar at a constant index reads: its bytes'
/// offset in the operand's dword, its width in bytes and whether it is signed.
pub fn field_of(func: &Function, v: Value) -> Option<(u32, u32, bool)> {
    let def = func.value_def(v)?;
    let a = func.inst(def).as_alu()?;
    let (width, signed) = match a.op {
        AluOp::ExtractU8 => (1, false),
        AluOp::ExtractI8 => (1, true),
        AluOp::ExtractU16 => (2, false),
        AluOp::ExtractI16 => (2, true),
        _ => return None,
    };
    let t = func.value_type(v);
    let operand = func.src_type(a.srcs[0]);
    if t.bit_size() != 32 || t.num_components() != 1 || operand.bit_size() != 32 {
        return None;
    }
    let k = func.const_component(a.srcs[1].value, a.srcs[1].swizzle.component(0))?;
    (k < u64::from(4 / width)).then_some((k as u32 * width, width, signed))
}

/// The fields every use of which converts them to a float ([`Fold::Field`]).
fn folded_fields(func: &Function, loops: &[Option<LoopId>]) -> Vec<Value> {
    let n = func.num_value_ids();
    let mut candidate = vec![false; n];
    for inst in func.insts_in_order() {
        if let Some(dest) = func.inst(inst).dest {
            candidate[dest.index()] = field_of(func, dest).is_some();
        }
    }
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        for s in data.srcs() {
            let Some((_, width, signed)) = candidate
                .get(s.value.index())
                .copied()
                .filter(|&c| c)
                .and_then(|_| field_of(func, s.value))
            else {
                continue;
            };
            let converts = match &data.kind {
                InstKind::Alu(a) => match a.op {
                    AluOp::I2f32 => true,
                    AluOp::U2f32 => !signed,
                    AluOp::U2u16 | AluOp::I2i16 => width == 2,
                    AluOp::U2u8 | AluOp::I2i8 => width == 1,
                    _ => false,
                },
                _ => false,
            };
            let site = func.inst_block(inst).map(CfNode::Block);
            if !converts || site.is_none_or(|n| other_loop(func, loops, s.value, n)) {
                candidate[s.value.index()] = false;
            }
        }
    }
    not_conditions(func, candidate)
}

/// The values of `candidate` that no `if` reads as its condition (a branch reads a
/// boolean value).
fn not_conditions(func: &Function, mut candidate: Vec<bool>) -> Vec<Value> {
    for id in func.ifs_in_order() {
        candidate[func.if_data(id).cond.value.index()] = false;
    }
    (0..candidate.len())
        .filter(|&i| candidate[i])
        .map(|i| Value::from_u32(i as u32))
        .collect()
}

/// Whether `op` reads its float sources with source modifiers.
pub fn takes_modifiers(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Fadd | Fsub | Fmul | Ffma | Fmin | Fmax | Flt | Fge | Feq | Fneu
    )
}

/// The `fabs` and `fneg` values every use of which takes a source modifier.
fn folded_modifiers(func: &Function, loops: &[Option<LoopId>]) -> Vec<Value> {
    let n = func.num_value_ids();
    let mut candidate = vec![false; n];
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        if let (Some(dest), InstKind::Alu(a)) = (data.dest, &data.kind) {
            candidate[dest.index()] = matches!(a.op, AluOp::Fabs | AluOp::Fneg)
                && matches!(func.value_type(dest).bit_size(), 16 | 32);
        }
    }
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let modifies = matches!(&data.kind, InstKind::Alu(a) if takes_modifiers(a.op));
        let site = func.inst_block(inst).map(CfNode::Block);
        for s in data.srcs() {
            if !modifies || site.is_none_or(|n| other_loop(func, loops, s.value, n)) {
                candidate[s.value.index()] = false;
            }
        }
    }
    not_conditions(func, candidate)
}

/// The `iadd` terms and products folded into the `iadd` that is their only use.
fn folded_terms(func: &Function, add3: bool) -> Vec<(Value, Fold)> {
    let n = func.num_value_ids();
    let mut uses = vec![0u32; n];
    for inst in func.insts_in_order() {
        for s in func.inst(inst).srcs() {
            uses[s.value.index()] += 1;
        }
    }
    for id in func.ifs_in_order() {
        uses[func.if_data(id).cond.value.index()] += 1;
    }
    let scalar32 = |v: Value| {
        let t = func.value_type(v);
        t.bit_size() == 32 && t.num_components() == 1
    };
    // The constant a one-component operand reads.
    let konst = |s: Src| func.const_component(s.value, s.swizzle.component(0));
    let mut out = Vec::new();
    // Additions written as a fused instruction: their terms are no values to fold.
    let mut fused = vec![false; n];
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (Some(dest), InstKind::Alu(a)) = (data.dest, &data.kind) else {
            continue;
        };
        if a.op != AluOp::Iadd || !scalar32(dest) {
            continue;
        }
        let block = func.inst_block(inst);
        // At most one term of this addition folds into it.
        for s in &a.srcs {
            let v = s.value;
            if uses[v.index()] != 1 || !scalar32(v) {
                continue;
            }
            let Some(def) = func.value_def(v) else {
                continue;
            };
            if func.inst_block(def) != block {
                continue;
            }
            let Some(t) = func.inst(def).as_alu() else {
                continue;
            };
            if fused[v.index()] {
                continue;
            }
            let fold = match t.op {
                AluOp::Iadd if add3 => Some(Fold::Add3),
                AluOp::Ishl => konst(t.srcs[1]).filter(|&k| k < 16).map(|_| Fold::Mad),
                AluOp::Imul => [0, 1]
                    .iter()
                    .any(|&i| konst(t.srcs[i]).is_some_and(|k| k < 1 << 16))
                    .then_some(Fold::Mad),
                _ => None,
            };
            if let Some(f) = fold {
                out.push((v, f));
                fused[dest.index()] = true;
                break;
            }
        }
    }
    out
}

/// One flag per value id: whether the value is a comparison folded into its uses.
pub fn folded_compares(func: &Function, loops: &[Option<LoopId>]) -> Vec<bool> {
    let n = func.num_value_ids();
    let mut candidate = vec![false; n];
    let mut wide = vec![false; n];
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        let (Some(dest), InstKind::Alu(a)) = (data.dest, &data.kind) else {
            continue;
        };
        let Some(s) = a.srcs.first() else {
            continue;
        };
        wide[dest.index()] = func.value_type(dest).num_components() > 1;
        let bits = func.src_type(*s).bit_size();
        candidate[dest.index()] = match a.op {
            AluOp::Ieq | AluOp::Ine | AluOp::Ilt | AluOp::Ige | AluOp::Ult | AluOp::Uge => {
                bits <= 32
            }
            AluOp::Feq | AluOp::Fneu | AluOp::Flt | AluOp::Fge => matches!(bits, 16 | 32),
            // The negation of a boolean: the condition tests it for zero, as brw's
            // nir_emit_if inverts the predicate of an `if` on `inot`.
            AluOp::Inot => bits == 1,
            _ => false,
        };
    }
    // Any use other than a condition keeps the boolean.
    let mut uses = vec![0u32; n];
    let mut keep = |v: Value| {
        if let Some(c) = candidate.get_mut(v.index()) {
            *c = false;
        }
    };
    for inst in func.insts_in_order() {
        let data = func.inst(inst);
        match &data.kind {
            // A vector `bcsel` reads one predicate per component.
            InstKind::Alu(a) if a.op == AluOp::Bcsel => {
                a.srcs.iter().skip(1).for_each(|s| keep(s.value));
                let c = a.srcs[0].value;
                uses[c.index()] += 1;
                let site = func.inst_block(inst).map(CfNode::Block);
                if site.is_none_or(|n| other_loop(func, loops, c, n)) {
                    keep(c);
                }
            }
            _ => data.srcs().iter().for_each(|s| keep(s.value)),
        }
    }
    for id in func.ifs_in_order() {
        let c = func.if_data(id).cond.value;
        if other_loop(func, loops, c, CfNode::If(id)) {
            keep(c);
        }
    }
    // A vector comparison folds into one select only: its operands, live until each
    // use, would otherwise hold twice its components' registers for longer than the
    // boolean would (a scalar one costs a register or two).
    for (v, c) in candidate.iter_mut().enumerate() {
        if wide[v] && uses[v] > 1 {
            *c = false;
        }
    }
    candidate
}

/// The operands of a folded value `v`: the values it keeps live until its uses.
pub fn operands(func: &Function, v: Value) -> Vec<Value> {
    func.value_def(v)
        .map(|d| func.inst(d).srcs().iter().map(|s| s.value).collect())
        .unwrap_or_default()
}

/// The values a use of folded value `v` reads where it is used: its operands, and
/// those of folded values among them (a source modifier inside a folded comparison),
/// to any depth. Nothing for a value that is not folded.
pub fn operands_deep(func: &Function, folds: &[Option<Fold>], v: Value) -> Vec<Value> {
    let folded = |x: Value| folds.get(x.index()).copied().flatten().is_some();
    let mut out = Vec::new();
    if !folded(v) {
        return out;
    }
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        for u in operands(func, x) {
            if folded(u) {
                stack.push(u);
            }
            out.push(u);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_fold_into_the_float_conversions_that_take_their_sign() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = load_const (0x00000001)
    32   %2 = load_const (0x00000004)
    32   %3 = extract_u8 %0.x, %1
    32   %4 = u2f32 %3
    32   %5 = i2f32 %3
    32   %6 = extract_i8 %0.x, %1
    32   %7 = u2f32 %6
    32   %8 = extract_i16 %0.x, %1
    32   %9 = i2f32 %8
    32   %10 = extract_u8 %0.y, %1
    32   %11 = iadd %10, %1
    32   %12 = extract_u8 %0.z, %2
    32   %13 = u2f32 %12
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        let folded = folded_fields(f, &def_loops(f));
        let at = |n: u32| folded.contains(&f.value_named(n).unwrap());
        // %6 is signed but converted as unsigned; %10 feeds an `iadd`; %12 reads byte
        // 4 of a dword (0, the executor's field past the value).
        assert!(at(3) && at(8));
        assert!(!at(6) && !at(10) && !at(12));
        assert_eq!(field_of(f, f.value_named(8).unwrap()), Some((2, 2, true)));
    }

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
        let folded = folded_compares(f, &def_loops(f));
        let at = |n: u32| folded[f.value_named(n).unwrap().index()];
        // %1 and %3 also feed an `iand`; %8 compares 64 bits; %10 is a select's
        // condition only, %6 an `if`'s.
        assert!(!at(1) && !at(3) && !at(8));
        assert!(at(6) && at(10));
        assert_eq!(operands(f, f.value_named(10).unwrap()).len(), 2);
    }

    #[test]
    fn abs_and_neg_fold_where_every_use_takes_a_modifier() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = u2f32 %0.x
    32   %2 = fabs %1
    32   %3 = fmul %2, %1
    1    %4 = flt %2, %3
    32   %5 = fneg %1
    32   %6 = bcsel %4, %5, %3
    32   %7 = fneg %3
    32   %8 = ffma %7, %1, %1
    64   %9 = load_const (0x3ff0000000000000)
    64   %10 = fabs %9
    64   %11 = fadd %10, %10
    32   %12 = fabs %6
    32   %13 = fmax %12, %8
    32   %14 = fsat %12
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        let v = |n: u32| f.value_named(n).unwrap();
        let got = folded_modifiers(f, &def_loops(f));
        // %2 is read by a product and a comparison, %7 by an ffma; %5 feeds a select,
        // %10 is 64-bit, %12 is also saturated.
        assert!(got.contains(&v(2)) && got.contains(&v(7)));
        assert!(!got.contains(&v(5)) && !got.contains(&v(10)) && !got.contains(&v(12)));
    }

    #[test]
    fn terms_fold_into_the_addition_that_uses_them() {
        let text = "shader compute (local_size=8,1,1)
fn main {
  block b0:
    32x3 %0 = @load_local_invocation_id
    32   %1 = iadd %0.x, %0.y
    32   %2 = iadd %1, %0.z
    32   %3 = iadd %2, %0.x
    32   %4 = load_const (0x00000004)
    32   %5 = ishl %3, %4
    32   %6 = iadd %5, %0.y
    32   %7 = load_const (0x00000014)
    32   %8 = ishl %6, %7
    32   %9 = iadd %8, %0.y
    32   %10 = imul %4, %9
    32   %11 = iadd %0.z, %10
    32   %12 = iadd %11, %11
}";
        let s = ir::parse_shader(text).unwrap();
        let f = &s.functions[0];
        let at = |folds: &[Option<Fold>], n: u32| folds[f.value_named(n).unwrap().index()];
        let with = folds(f, true);
        // %1 folds into %2's add3; %2 is then fused and cannot fold into %3; %5 (a
        // shift by 4) and %10 (a product by 4) fold into a mad; a shift by 20 does
        // not; %11 has two uses.
        assert_eq!(at(&with, 1), Some(Fold::Add3));
        assert_eq!(at(&with, 2), None);
        assert_eq!(at(&with, 5), Some(Fold::Mad));
        assert_eq!(at(&with, 8), None);
        assert_eq!(at(&with, 10), Some(Fold::Mad));
        assert_eq!(at(&with, 11), None);
        // Without add3 (before Gfx12.5) only the products fold.
        let without = folds(f, false);
        assert_eq!(at(&without, 1), None);
        assert_eq!(at(&without, 5), Some(Fold::Mad));
    }
}
