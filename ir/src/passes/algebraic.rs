//! Algebraic simplification (`algebraic`), in the style of NIR's `nir_opt_algebraic`, with
//! only rules that are bit-exact under [`eval_alu`](crate::eval::eval_alu) for every input
//! (NaN payloads and signed zeros included).
//!
//! Each ALU instruction is rewritten in place, keeping its value id:
//! * into `mov x` when it equals one of its sources (`iadd x, 0`); copy propagation then
//!   removes the move;
//! * into `load_const` when its value is known (`imul x, 0`, `ixor x, x`);
//! * into a cheaper ALU op (`imul x, 8` to `ishl x, 3`), whose new constant sources are
//!   inserted right before it.
//!
//! Commutative ops get their constant in the second source first, so the rules only look
//! there. The rules:
//!
//! | pattern | result |
//! |---|---|
//! | `iadd x, 0`, `isub x, 0`, `imul x, 1`, `udiv x, 1`, `idiv x, 1` | `x` |
//! | `imul x, 0`, `udiv x, 0`, `idiv x, 0`, `umod x, 0`, `umod x, 1`, `isub x, x` | `0` |
//! | `imul x, -1` | `ineg x` |
//! | `imul x, 2^k` | `ishl x, k` |
//! | `udiv x, 2^k`, `umod x, 2^k` | `ushr x, k`, `iand x, 2^k - 1` |
//! | `iadd (iadd x, c1), c2` | `iadd x, c1 + c2` |
//! | `ishl x, 0`, `ishr x, 0`, `ushr x, 0` (count masked as the op does) | `x` |
//! | `ishl 0, y`, `ishr 0, y`, `ushr 0, y` | `0` |
//! | `ishr ~0, y` | `~0` |
//! | `ishl (ishl x, a), b`, `ushr (ushr x, a), b` | `x` shifted by `a + b`, or `0` if `a + b >= bits` |
//! | `iand x, ~0`, `ior x, 0`, `ixor x, 0`, `iand x, x`, `ior x, x` | `x` |
//! | `iand x, 0`, `ixor x, x` | `0` |
//! | `ior x, ~0` | `~0` |
//! | `imin x, x`, `imax x, x`, `umin x, x`, `umax x, x`, `umax x, 0`, `umin x, ~0` | `x` |
//! | `umin x, 0` / `umax x, ~0` | `0` / `~0` |
//! | `ubfe x, 0, w` (constant `w`) | `iand x, 2^(w & 31) - 1` (0 for `w & 31 == 0`, so also for 32) |
//! | `bitfield_insert b, x, off, 0` | `b` |
//! | `bitfield_insert b, x, 0, 32` | `x` |
//! | `bitfield_insert 0, x, 0, w` (`0 <= w <= 32`) | `iand x, 2^w - 1` |
//! | `bcsel true, a, b` / `bcsel false, a, b` / `bcsel c, a, a` | `a` / `b` / `a` |
//! | `ieq x, x`, `ige x, x`, `uge x, x`, `uge x, 0` | `true` |
//! | `ine x, x`, `ilt x, x`, `ult x, x`, `ult x, 0` | `false` |
//! | `fmul x, 1.0`, `fadd x, -0.0`, `fsub x, +0.0` | `x`, when `x` is never a signalling NaN |
//!
//! The float rules hold bit for bit for every `x` except a signalling NaN, which the
//! arithmetic returns quieted; they therefore fire only when `x` comes from an operation
//! whose result is never a signalling NaN (IEEE arithmetic, conversions, `fsat`, ...) or
//! is a constant without one. `fadd x, +0.0` is never simplified: `-0.0 + +0.0` is `+0.0`.

use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::builder::Builder;
use crate::entity::{Inst, Value};
use crate::eval::{float_one, is_nan};
use crate::function::{AluInst, Cursor, Function, InstKind};
use crate::shader::Shader;
use crate::types::{bit_mask, BaseType, Src, Swizzle, Type};
use smallvec::{smallvec, SmallVec};

/// The algebraic-simplification pass.
#[derive(Copy, Clone, Debug, Default)]
pub struct Algebraic;

impl Pass for Algebraic {
    fn name(&self) -> &'static str {
        "algebraic"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for func in &mut shader.functions {
            changed |= simplify_function(func);
        }
        Ok(changed)
    }
}

/// Applies the rules to every ALU instruction of `func`, in program order; returns whether
/// anything changed.
pub fn simplify_function(func: &mut Function) -> bool {
    let mut changed = false;
    // The instructions a rewrite adds go before the one rewritten, so following the
    // `next` links visits exactly the instructions there were at the start.
    for block in func.blocks_in_order() {
        let mut cur = func.first_inst(block);
        while let Some(inst) = cur {
            changed |= simplify_inst(func, inst);
            cur = func.next_inst(inst);
        }
    }
    changed
}

/// Applies rules to one instruction until none matches; returns whether one did.
fn simplify_inst(func: &mut Function, inst: Inst) -> bool {
    let mut changed = false;
    // A rewrite can enable another on the same instruction (a swap, then a rule on the
    // constant; `imul` to `ishl`, then a shift fusion). Every rule makes the instruction
    // strictly simpler, so this terminates; the bound is a safety net.
    for _ in 0..8 {
        match match_rules(func, inst) {
            Some(rewrite) => {
                apply(func, inst, rewrite);
                changed = true;
            }
            None => break,
        }
    }
    changed
}

type Comps = SmallVec<[u64; 16]>;

/// A source of a rewritten instruction.
enum NewSrc {
    /// An existing source.
    Old(Src),
    /// A new constant of this type.
    Const(Type, Comps),
}

/// What an instruction becomes.
// Lives only between matching and applying one rule, so its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Rewrite {
    /// A copy of one of its sources (`mov`).
    Copy(Src),
    /// A constant, one entry per component.
    Const(Comps),
    /// The same op with the first two sources swapped.
    Swap,
    /// Another ALU op of the same result type.
    Alu(AluOp, SmallVec<[NewSrc; 4]>),
}

fn apply(func: &mut Function, inst: Inst, rewrite: Rewrite) {
    let kind = match rewrite {
        Rewrite::Copy(src) => InstKind::Alu(AluInst {
            op: AluOp::Mov,
            srcs: smallvec![src],
        }),
        Rewrite::Const(vals) => InstKind::LoadConst(vals.into_iter().collect()),
        Rewrite::Swap => {
            if let InstKind::Alu(a) = &mut func.inst_mut(inst).kind {
                a.srcs.swap(0, 1);
            }
            return;
        }
        Rewrite::Alu(op, new_srcs) => {
            let mut b = Builder::new(func, Cursor::Before(inst));
            b.span = b.func.inst_span(inst);
            let srcs = new_srcs
                .into_iter()
                .map(|s| match s {
                    NewSrc::Old(src) => src,
                    NewSrc::Const(ty, vals) => Src::new(b.load_const(ty, &vals)),
                })
                .collect();
            InstKind::Alu(AluInst { op, srcs })
        }
    };
    func.inst_mut(inst).kind = kind;
}

/// A source as the rules see it: the value components it reads and, if it reads a
/// constant, the constant's components. Nothing is copied out of the function: the
/// components are read through the swizzle when a rule asks for them.
struct Operand<'f> {
    src: Src,
    /// The number of components read, one per component of the instruction.
    n: u8,
    /// The components of the `load_const` defining the value, if it is one and every
    /// component read exists.
    konst: Option<&'f [u64]>,
    bits: u8,
}

impl Operand<'_> {
    /// The value component read for component `i` of the instruction.
    fn comp(&self, i: u8) -> u8 {
        self.src.swizzle.component(i)
    }

    fn is_const(&self) -> bool {
        self.konst.is_some()
    }

    /// The constant components read, one per component of the instruction.
    fn konst_iter(&self) -> Option<impl Iterator<Item = u64> + '_> {
        let vals = self.konst?;
        Some((0..self.n).map(move |i| vals[self.comp(i) as usize]))
    }

    /// The constant components read, collected.
    fn konst(&self) -> Option<Comps> {
        Some(self.konst_iter()?.collect())
    }

    fn is_splat(&self, v: u64) -> bool {
        self.all(|x| x == v)
    }

    fn all(&self, f: impl Fn(u64) -> bool) -> bool {
        self.konst_iter().is_some_and(|mut c| c.all(f))
    }

    fn same_as(&self, other: &Operand) -> bool {
        self.src.value == other.src.value
            && self.n == other.n
            && (0..self.n).all(|i| self.comp(i) == other.comp(i))
    }
}

fn operand(func: &Function, src: Src, n: usize) -> Option<Operand<'_>> {
    if src.value.index() >= func.num_value_ids() || func.src_components(src) as usize != n {
        return None;
    }
    let ty = func.value_type(src.value);
    let n = n as u8;
    if (0..n).any(|i| src.swizzle.component(i) >= ty.num_components()) {
        return None;
    }
    // As `const_fold::const_components`: a live `load_const` holding every component read.
    let konst = func
        .value_def(src.value)
        .filter(|&def| func.inst_block(def).is_some())
        .and_then(|def| func.inst(def).as_const())
        .filter(|vals| (0..n).all(|i| (src.swizzle.component(i) as usize) < vals.len()));
    Some(Operand {
        src,
        n,
        konst,
        bits: ty.bit_size(),
    })
}

/// A source reading `comps` of `value` (the identity swizzle when that is the whole value
/// in order).
fn src_of(func: &Function, value: Value, comps: &[u8]) -> Src {
    let whole = func.value_type(value).num_components() as usize == comps.len()
        && comps.iter().enumerate().all(|(i, &c)| i == c as usize);
    if whole {
        Src::new(value)
    } else {
        Src {
            value,
            swizzle: Swizzle::new(comps).unwrap_or(Swizzle::IDENTITY),
        }
    }
}

/// The ALU instruction defining a source's value, if it is live.
fn alu_def(func: &Function, value: Value) -> Option<&AluInst> {
    let def = func.value_def(value)?;
    func.inst_block(def)?;
    func.inst(def).as_alu()
}

/// `log2(v)` if `v` is a power of two.
fn log2_exact(v: u64) -> Option<u64> {
    v.is_power_of_two().then(|| v.trailing_zeros() as u64)
}

/// Whether a value can never hold a signalling NaN of its bit size: it is computed by an
/// operation that quiets NaNs (or never makes one), or is a constant without one.
fn never_snan(func: &Function, src: &Operand, depth: u32) -> bool {
    let bits = src.bits;
    if let Some(mut c) = src.konst_iter() {
        let quiet = match bits {
            16 => 0x0200,
            32 => 0x0040_0000,
            _ => 0x0008_0000_0000_0000,
        };
        return c.all(|v| !is_nan(bits, v) || v & quiet != 0);
    }
    let Some(alu) = alu_def(func, src.src.value) else {
        return false;
    };
    use AluOp::*;
    match alu.op {
        Fadd | Fsub | Fmul | Ffma | Fdiv | Fmin | Fmax | Fsat | Ffloor | Fceil | FroundEven
        | Ftrunc | Frcp | I2f32 | U2f32 | B2f32 | F2f16 | UnpackHalf2x16SplitX
        | UnpackHalf2x16SplitY => true,
        // 32 -> 32 is the identity; 16 -> 32 and 64 -> 32 quiet.
        F2f32 => func.value_type(alu.srcs[0].value).bit_size() != 32,
        // Sign operations keep whatever the source is.
        Fneg | Fabs if depth < 4 => {
            let inner = alu.srcs[0];
            let n = func.src_components(inner) as usize;
            operand(func, inner, n).is_some_and(|o| never_snan(func, &o, depth + 1))
        }
        _ => false,
    }
}

/// Whether `match_rules` has a rule for `op` besides moving a constant second (the ops
/// its final `match` names; keep the two in step).
fn has_rules(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Iadd | Isub
            | Imul
            | Udiv
            | Idiv
            | Umod
            | Ishl
            | Ishr
            | Ushr
            | Iand
            | Ior
            | Ixor
            | Imin
            | Imax
            | Umin
            | Umax
            | Ubfe
            | BitfieldInsert
            | Bcsel
            | Ieq
            | Ine
            | Ilt
            | Ige
            | Ult
            | Uge
            | Fmul
            | Fadd
            | Fsub
    )
}

/// The rewrite for an instruction, if a rule applies.
fn match_rules(func: &Function, inst: Inst) -> Option<Rewrite> {
    let data = func.inst(inst);
    let InstKind::Alu(alu) = &data.kind else {
        return None;
    };
    let info = alu.op.info();
    if alu.srcs.len() != info.num_inputs as usize || info.output_size != 0 {
        return None;
    }
    // Most instructions have no rule at all: leave before looking at their values.
    if !info.commutative && !has_rules(alu.op) {
        return None;
    }
    let dest = func.value_type(data.dest?);
    let n = dest.num_components() as usize;
    let ops: SmallVec<[Operand; 4]> = alu
        .srcs
        .iter()
        .map(|&s| operand(func, s, n))
        .collect::<Option<_>>()?;
    let bits = dest.bit_size();
    let ones = bit_mask(bits);
    let zeros = || -> Comps { smallvec![0; n] };
    let splat = |v: u64| -> Comps { smallvec![v; n] };
    let u32ty = Type::new(32, n as u8)?;
    let copy = |o: &Operand| Some(Rewrite::Copy(o.src));

    use AluOp::*;
    let op = alu.op;

    // Constants go second in commutative ops. Float ops keep a NaN constant first: with
    // two NaN operands the first one is returned, so swapping would change the result.
    if info.commutative && !ops[1].is_const() {
        if let Some(mut c) = ops[0].konst_iter() {
            let float = info.input_types[0].base == BaseType::Float;
            let has_nan = float && c.any(|v| is_nan(ops[0].bits, v));
            if !has_nan || matches!(op, Feq | Fneu) {
                return Some(Rewrite::Swap);
            }
        }
    }

    match op {
        Iadd => {
            let (a, b) = (&ops[0], &ops[1]);
            if b.is_splat(0) {
                return copy(a);
            }
            // iadd(iadd(x, c1), c2) -> iadd(x, c1 + c2)
            if !b.is_const() {
                return None;
            }
            let inner = alu_def(func, a.src.value)?;
            if inner.op != Iadd {
                return None;
            }
            let inner_n = func.value_type(a.src.value).num_components() as usize;
            let i0 = operand(func, inner.srcs[0], inner_n)?;
            let i1 = operand(func, inner.srcs[1], inner_n)?;
            let (x, c1) = match (i0.konst(), i1.konst()) {
                (None, Some(c)) => (&i0, c),
                (Some(c), None) => (&i1, c),
                _ => return None,
            };
            let c2 = b.konst()?;
            let x_comps: SmallVec<[u8; 16]> = (0..a.n).map(|i| x.comp(a.comp(i))).collect();
            let sum: Comps = (0..n)
                .map(|i| c1[a.comp(i as u8) as usize].wrapping_add(c2[i]) & ones)
                .collect();
            Some(Rewrite::Alu(
                Iadd,
                smallvec![
                    NewSrc::Old(src_of(func, x.src.value, &x_comps)),
                    NewSrc::Const(dest, sum)
                ],
            ))
        }
        Isub => {
            if ops[1].is_splat(0) {
                copy(&ops[0])
            } else if ops[0].same_as(&ops[1]) {
                Some(Rewrite::Const(zeros()))
            } else {
                None
            }
        }
        Imul => {
            let (a, b) = (&ops[0], &ops[1]);
            let c = b.konst()?;
            if b.is_splat(0) {
                Some(Rewrite::Const(zeros()))
            } else if b.is_splat(1) {
                copy(a)
            } else if b.is_splat(ones) {
                Some(Rewrite::Alu(Ineg, smallvec![NewSrc::Old(a.src)]))
            } else if b.all(|v| v.is_power_of_two()) {
                let k: Comps = c.iter().map(|&v| log2_exact(v).unwrap_or(0)).collect();
                Some(Rewrite::Alu(
                    Ishl,
                    smallvec![NewSrc::Old(a.src), NewSrc::Const(u32ty, k)],
                ))
            } else {
                None
            }
        }
        Udiv | Idiv | Umod => {
            let (a, b) = (&ops[0], &ops[1]);
            let c = b.konst()?;
            // Division by zero is 0 in NIR, and so is x % 1.
            if b.is_splat(0) || (op == Umod && b.is_splat(1)) {
                return Some(Rewrite::Const(zeros()));
            }
            if op != Umod && b.is_splat(1) {
                return copy(a);
            }
            if op == Idiv || !b.all(|v| v.is_power_of_two()) {
                return None;
            }
            if op == Udiv {
                let k: Comps = c.iter().map(|&v| log2_exact(v).unwrap_or(0)).collect();
                Some(Rewrite::Alu(
                    Ushr,
                    smallvec![NewSrc::Old(a.src), NewSrc::Const(u32ty, k)],
                ))
            } else {
                let m: Comps = c.iter().map(|&v| v - 1).collect();
                Some(Rewrite::Alu(
                    Iand,
                    smallvec![NewSrc::Old(a.src), NewSrc::Const(dest, m)],
                ))
            }
        }
        Ishl | Ishr | Ushr => {
            let (a, b) = (&ops[0], &ops[1]);
            // The count is masked with `sizeof(src0) * 8 - 1`, a byte for 1-bit values.
            let m = bits.max(8) as u64 - 1;
            if b.all(|v| v & m == 0) {
                return copy(a);
            }
            if a.is_splat(0) {
                return Some(Rewrite::Const(zeros()));
            }
            if op == Ishr && a.is_splat(ones) {
                return Some(Rewrite::Const(splat(ones)));
            }
            if op == Ishr {
                return None;
            }
            // Fuse two shifts in the same direction by constants.
            if !b.is_const() {
                return None;
            }
            let inner = alu_def(func, a.src.value)?;
            if inner.op != op {
                return None;
            }
            let inner_n = func.value_type(a.src.value).num_components() as usize;
            let x = operand(func, inner.srcs[0], inner_n)?;
            let c1 = operand(func, inner.srcs[1], inner_n)?.konst()?;
            let c2 = b.konst()?;
            let total: Comps = (0..n)
                .map(|i| (c1[a.comp(i as u8) as usize] & m) + (c2[i] & m))
                .collect();
            if total.iter().all(|&t| t >= bits as u64) {
                return Some(Rewrite::Const(zeros()));
            }
            if total.iter().any(|&t| t >= bits as u64) {
                return None;
            }
            let x_comps: SmallVec<[u8; 16]> = (0..a.n).map(|i| x.comp(a.comp(i))).collect();
            Some(Rewrite::Alu(
                op,
                smallvec![
                    NewSrc::Old(src_of(func, x.src.value, &x_comps)),
                    NewSrc::Const(u32ty, total)
                ],
            ))
        }
        Iand | Ior | Ixor => {
            let (a, b) = (&ops[0], &ops[1]);
            if a.same_as(b) {
                return if op == Ixor {
                    Some(Rewrite::Const(zeros()))
                } else {
                    copy(a)
                };
            }
            match op {
                Iand if b.is_splat(ones) => copy(a),
                Iand if b.is_splat(0) => Some(Rewrite::Const(zeros())),
                Ior | Ixor if b.is_splat(0) => copy(a),
                Ior if b.is_splat(ones) => Some(Rewrite::Const(splat(ones))),
                _ => None,
            }
        }
        Imin | Imax | Umin | Umax => {
            let (a, b) = (&ops[0], &ops[1]);
            match op {
                _ if a.same_as(b) => copy(a),
                Umax if b.is_splat(0) => copy(a),
                Umin if b.is_splat(ones) => copy(a),
                Umin if b.is_splat(0) => Some(Rewrite::Const(zeros())),
                Umax if b.is_splat(ones) => Some(Rewrite::Const(splat(ones))),
                _ => None,
            }
        }
        Ubfe => {
            // ubfe(x, 0, w): the low `w & 31` bits (none for a count of 0 or 32).
            if !ops[1].all(|v| v & 31 == 0) {
                return None;
            }
            let w = ops[2].konst()?;
            let mask: Comps = w.iter().map(|&w| bit_mask((w & 31) as u8)).collect();
            if mask.iter().all(|&m| m == 0) {
                return Some(Rewrite::Const(zeros()));
            }
            Some(Rewrite::Alu(
                Iand,
                smallvec![NewSrc::Old(ops[0].src), NewSrc::Const(dest, mask)],
            ))
        }
        BitfieldInsert => {
            let (base, ins, off, w) = (&ops[0], &ops[1], &ops[2], &ops[3]);
            if w.is_splat(0) {
                return copy(base);
            }
            if !off.is_splat(0) || !w.all(|v| v <= 32) {
                return None;
            }
            if w.is_splat(32) {
                return copy(ins);
            }
            if !base.is_splat(0) {
                return None;
            }
            let mask: Comps = w.konst()?.iter().map(|&w| bit_mask(w as u8)).collect();
            Some(Rewrite::Alu(
                Iand,
                smallvec![NewSrc::Old(ins.src), NewSrc::Const(dest, mask)],
            ))
        }
        Bcsel => {
            let (c, a, b) = (&ops[0], &ops[1], &ops[2]);
            if a.same_as(b) || c.all(|v| v & 1 == 1) {
                copy(a)
            } else if c.all(|v| v & 1 == 0) {
                copy(b)
            } else {
                None
            }
        }
        Ieq | Ine | Ilt | Ige | Ult | Uge => {
            let (a, b) = (&ops[0], &ops[1]);
            let truth = if a.same_as(b) {
                matches!(op, Ieq | Ige | Uge)
            } else if b.is_splat(0) && matches!(op, Ult | Uge) {
                op == Uge
            } else {
                return None;
            };
            Some(Rewrite::Const(splat(truth as u64)))
        }
        Fmul | Fadd | Fsub => {
            let (a, b) = (&ops[0], &ops[1]);
            let identity = match op {
                Fmul => float_one(bits),
                Fadd => 1u64 << (bits - 1), // -0.0
                _ => 0,                     // +0.0
            };
            if b.is_splat(identity) && never_snan(func, a, 0) {
                copy(a)
            } else {
                None
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{eval_alu, Operand as EvalOperand};
    use crate::{parse_shader, print_function};
    use std::collections::HashMap;

    /// Bit patterns worth trying at each size: integer edges and, for float sizes,
    /// signed zeros, infinities, quiet and signalling NaNs, denormals and one.
    fn specials(bits: u8) -> Vec<u64> {
        let m = bit_mask(bits);
        let top = 1u64 << (bits - 1);
        let mut v = vec![0, 1, 2, 3, 8, m, m - 1, top, top - 1, top | 1];
        v.extend(match bits {
            16 => vec![
                0x7e00, 0x7d00, 0xfe01, 0x7c00, 0xfc00, 0x3c00, 0x0001, 0x8001,
            ],
            32 => vec![
                0x7fc0_0000,
                0x7f80_0001,
                0xffc0_1234,
                0x7f80_0000,
                0xff80_0000,
                0x3f80_0000,
                0x0000_0001,
                0x8000_0001,
            ],
            64 => vec![
                0x7ff8_0000_0000_0000,
                0x7ff0_0000_0000_0001,
                0x7ff0_0000_0000_0000,
                0x3ff0_0000_0000_0000,
                0x8000_0000_0000_0001,
            ],
            _ => vec![],
        });
        v.into_iter().map(|x| x & m).collect()
    }

    /// A xorshift step.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn pick(state: &mut u64, bits: u8) -> u64 {
        let r = next(state);
        let sp = specials(bits);
        if r.is_multiple_of(3) {
            next(state) & bit_mask(bits)
        } else {
            sp[(r >> 8) as usize % sp.len()]
        }
    }

    /// Runs a straight-line function of `load_const`, `undef` (the inputs, drawn from
    /// `seed`) and ALU instructions with `eval_alu`; returns every value's components.
    fn run(func: &Function, seed: u64) -> HashMap<Value, Vec<u64>> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut vals: HashMap<Value, Vec<u64>> = HashMap::new();
        for inst in func.insts_in_order() {
            let d = func.inst(inst);
            let dest = d.dest.expect("every test instruction has a result");
            let ty = func.value_type(dest);
            let v = match &d.kind {
                InstKind::LoadConst(c) => c.to_vec(),
                InstKind::Undef => (0..ty.num_components())
                    .map(|_| pick(&mut state, ty.bit_size()))
                    .collect(),
                InstKind::Alu(a) => {
                    let comps: Vec<(u8, Vec<u64>)> = a
                        .srcs
                        .iter()
                        .map(|s| {
                            let v = &vals[&s.value];
                            let n = func.src_components(*s);
                            let c = (0..n).map(|i| v[s.swizzle.component(i) as usize]);
                            (func.value_type(s.value).bit_size(), c.collect())
                        })
                        .collect();
                    let ops: Vec<EvalOperand<'_>> =
                        comps.iter().map(|(b, c)| EvalOperand::new(*b, c)).collect();
                    eval_alu(a.op, ty, &ops).unwrap().to_vec()
                }
                k => panic!("unexpected instruction {k:?}"),
            };
            vals.insert(dest, v);
        }
        vals
    }

    /// Runs the pass on `src`, checks that it changed the function, that the printed
    /// result contains every line of `expect`, and that every original value computes the
    /// same bits before and after over many inputs (special values included).
    fn check(src: &str, expect: &[&str]) -> String {
        let mut shader = parse_shader(src).unwrap_or_else(|e| panic!("{e:?}"));
        let before = shader.functions[0].clone();
        assert!(Algebraic.run(&mut shader).unwrap(), "no rule fired:\n{src}");
        let after = &shader.functions[0];
        let text = print_function(&shader, after);
        for line in expect {
            assert!(text.contains(line), "expected `{line}` in:\n{text}");
        }
        for seed in 1..=400u64 {
            let (b, a) = (run(&before, seed), run(after, seed));
            for (v, want) in &b {
                assert_eq!(&a[v], want, "{v} differs for seed {seed}:\n{text}");
            }
        }
        text
    }

    /// Checks that the pass leaves `src` alone.
    fn unchanged(src: &str) {
        let mut shader = parse_shader(src).unwrap_or_else(|e| panic!("{e:?}"));
        let before = shader.clone();
        assert!(!Algebraic.run(&mut shader).unwrap(), "a rule fired:\n{src}");
        assert_eq!(shader, before);
    }

    fn func(body: &str) -> String {
        format!("fn main {{\n  block b0:\n{body}\n}}\n")
    }

    #[test]
    fn iadd_isub_of_zero() {
        check(
            &func(
                "32x2 %0 = undef
                 32x2 %1 = load_const (0, 0)
                 32x2 %2 = iadd %0, %1
                 32x2 %3 = iadd %1, %0
                 32x2 %4 = isub %0, %1
                 32x2 %5 = isub %0, %0",
            ),
            &[
                "32x2 %2 = mov %0",
                "32x2 %3 = mov %0",
                "32x2 %4 = mov %0",
                "32x2 %5 = load_const (0x00000000, 0x00000000)",
            ],
        );
        // Only the components read count: %1.y is zero.
        check(
            &func(
                "8 %0 = undef
                 8x2 %1 = load_const (5, 0)
                 8 %2 = iadd %0, %1.y",
            ),
            &["8    %2 = mov %0"],
        );
        unchanged(&func(
            "32 %0 = undef
             32x2 %1 = load_const (5, 0)
             32 %2 = iadd %0, %1.x
             32 %3 = isub %1.y, %0",
        ));
    }

    #[test]
    fn constants_move_to_the_second_source() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (7)
                 32 %2 = imul %1, %0
                 32 %3 = iand %1, %0
                 1 %4 = ieq %1, %0
                 32 %5 = fadd %1, %0
                 32 %6 = fmin %1, %0",
            ),
            &[
                "32   %2 = imul %0, %1",
                "32   %3 = iand %0, %1",
                "1    %4 = ieq %0, %1",
                "32   %5 = fadd %0, %1",
                "32   %6 = fmin %0, %1",
            ],
        );
        // A NaN constant stays first in float ops: fadd(NaN1, NaN2) returns NaN1. feq is
        // symmetric even then. Non-commutative ops never swap.
        let text = check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (0x7fc00001)
                 32 %2 = fadd %1, %0
                 32 %3 = fmax %1, %0
                 1 %4 = fneu %1, %0
                 32 %5 = isub %1, %0",
            ),
            &["1    %4 = fneu %0, %1"],
        );
        assert!(text.contains("32   %2 = fadd %1, %0"), "{text}");
        assert!(text.contains("32   %3 = fmax %1, %0"), "{text}");
        assert!(text.contains("32   %5 = isub %1, %0"), "{text}");
    }

    #[test]
    fn imul_rules() {
        check(
            &func(
                "16 %0 = undef
                 16 %1 = load_const (1)
                 16 %2 = load_const (0)
                 16 %3 = load_const (0xffff)
                 16 %4 = load_const (8)
                 16 %5 = imul %0, %1
                 16 %6 = imul %0, %2
                 16 %7 = imul %0, %3
                 16 %8 = imul %4, %0",
            ),
            &[
                "16   %5 = mov %0",
                "16   %6 = load_const (0x0000)",
                "16   %7 = ineg %0",
                "32   %9 = load_const (0x00000003)",
                "16   %8 = ishl %0, %9",
            ],
        );
        // Per-component powers of two, 2^63 at 64 bits, and 1-bit.
        check(
            &func(
                "64x2 %0 = undef
                 64x2 %1 = load_const (0x8000000000000000, 1)
                 64x2 %2 = imul %0, %1
                 1 %3 = undef
                 1 %4 = load_const (true)
                 1 %5 = imul %3, %4",
            ),
            &[
                "32x2 %6 = load_const (0x0000003f, 0x00000000)",
                "64x2 %2 = ishl %0, %6",
                "1    %5 = mov %3",
            ],
        );
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (6)
             32 %2 = imul %0, %1",
        ));
    }

    #[test]
    fn division_rules() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (0)
                 32 %2 = load_const (1)
                 32 %3 = load_const (16)
                 32 %4 = udiv %0, %1
                 32 %5 = idiv %0, %1
                 32 %6 = umod %0, %1
                 32 %7 = udiv %0, %2
                 32 %8 = idiv %0, %2
                 32 %9 = umod %0, %2
                 32 %10 = udiv %0, %3
                 32 %11 = umod %0, %3",
            ),
            &[
                "32   %4 = load_const (0x00000000)",
                "32   %5 = load_const (0x00000000)",
                "32   %6 = load_const (0x00000000)",
                "32   %7 = mov %0",
                "32   %8 = mov %0",
                "32   %9 = load_const (0x00000000)",
                "32   %12 = load_const (0x00000004)",
                "32   %10 = ushr %0, %12",
                "32   %13 = load_const (0x0000000f)",
                "32   %11 = iand %0, %13",
            ],
        );
        // idiv by a power of two rounds towards zero: not a shift.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (4)
             32 %2 = idiv %0, %1
             32 %3 = load_const (3)
             32 %4 = udiv %0, %3",
        ));
        // 1-bit: idiv by true (-1) is the identity modulo 2.
        check(
            &func(
                "1 %0 = undef
                 1 %1 = load_const (true)
                 1 %2 = idiv %0, %1",
            ),
            &["1    %2 = mov %0"],
        );
    }

    #[test]
    fn shift_by_zero_and_of_zero() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = undef
                 32 %2 = load_const (0)
                 32 %3 = load_const (32)
                 32 %4 = load_const (0xffffffff)
                 32 %5 = ishl %0, %2
                 32 %6 = ishr %0, %3
                 32 %7 = ushr %0, %2
                 32 %8 = ishl %2, %1
                 32 %9 = ushr %2, %1
                 32 %10 = ishr %2, %1
                 32 %11 = ishr %4, %1",
            ),
            &[
                "32   %5 = mov %0",
                "32   %6 = mov %0",
                "32   %7 = mov %0",
                "32   %8 = load_const (0x00000000)",
                "32   %9 = load_const (0x00000000)",
                "32   %10 = load_const (0x00000000)",
                "32   %11 = load_const (0xffffffff)",
            ],
        );
        // A 1-bit value's count is masked with 7: 8 is a shift by 0, 1 is not.
        check(
            &func(
                "1 %0 = undef
                 32 %1 = load_const (8)
                 1 %2 = ishl %0, %1",
            ),
            &["1    %2 = mov %0"],
        );
        unchanged(&func(
            "1 %0 = undef
             32 %1 = load_const (1)
             1 %2 = ishl %0, %1
             16 %3 = undef
             32 %4 = load_const (17)
             16 %5 = ushr %3, %4",
        ));
    }

    #[test]
    fn shift_chains_fuse() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (3)
                 32 %2 = load_const (4)
                 32 %3 = ishl %0, %1
                 32 %4 = ishl %3, %2
                 32 %5 = ushr %0, %1
                 32 %6 = ushr %5, %2
                 32 %7 = load_const (30)
                 32 %8 = ishl %3, %7",
            ),
            &[
                "32   %9 = load_const (0x00000007)",
                "32   %4 = ishl %0, %9",
                "32   %10 = load_const (0x00000007)",
                "32   %6 = ushr %0, %10",
                // 3 + 30 >= 32: everything is shifted out.
                "32   %8 = load_const (0x00000000)",
            ],
        );
        // Counts are masked before adding: 35 & 31 = 3. Swizzles compose.
        check(
            &func(
                "32x2 %0 = undef
                 32x2 %1 = load_const (35, 1)
                 32x2 %2 = ishl %0.yx, %1
                 32x2 %3 = load_const (2, 2)
                 32x2 %4 = ishl %2.yx, %3",
            ),
            &[
                "32x2 %5 = load_const (0x00000003, 0x00000005)",
                "32x2 %4 = ishl %0, %5",
            ],
        );
        // ishr does not fuse; mixed overflow does not either.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (3)
             32 %2 = ishr %0, %1
             32 %3 = ishr %2, %1
             32x2 %4 = undef
             32x2 %5 = load_const (1, 20)
             32x2 %6 = ishl %4, %5
             32x2 %7 = load_const (1, 20)
             32x2 %8 = ishl %6, %7",
        ));
    }

    #[test]
    fn iadd_chains_fuse() {
        check(
            &func(
                "32x2 %0 = undef
                 32x2 %1 = load_const (1, 0xffffffff)
                 32x2 %2 = iadd %1, %0
                 32x2 %3 = load_const (5, 6)
                 32x2 %4 = iadd %2.yx, %3",
            ),
            &[
                // c1 read swizzled: (0xffffffff + 5, 1 + 6).
                "32x2 %5 = load_const (0x00000004, 0x00000007)",
                "32x2 %4 = iadd %0.yx, %5",
            ],
        );
        // Constants that cancel leave x itself.
        check(
            &func(
                "8 %0 = undef
                 8 %1 = load_const (0x10)
                 8 %2 = iadd %0, %1
                 8 %3 = load_const (0xf0)
                 8 %4 = iadd %2, %3",
            ),
            &["8    %4 = mov %0"],
        );
    }

    #[test]
    fn bitwise_rules() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (0)
                 32 %2 = load_const (0xffffffff)
                 32 %3 = iand %0, %2
                 32 %4 = iand %0, %1
                 32 %5 = ior %0, %1
                 32 %6 = ior %0, %2
                 32 %7 = ixor %0, %1
                 32 %8 = ior %0, %0
                 32 %9 = iand %0, %0
                 32 %10 = ixor %0, %0",
            ),
            &[
                "32   %3 = mov %0",
                "32   %4 = load_const (0x00000000)",
                "32   %5 = mov %0",
                "32   %6 = load_const (0xffffffff)",
                "32   %7 = mov %0",
                "32   %8 = mov %0",
                "32   %9 = mov %0",
                "32   %10 = load_const (0x00000000)",
            ],
        );
        // ~0 is the size's all-ones: 0xff at 8 bits, true at 1 bit.
        check(
            &func(
                "8 %0 = undef
                 8 %1 = load_const (0xff)
                 8 %2 = iand %0, %1
                 1 %3 = undef
                 1 %4 = load_const (true)
                 1 %5 = ior %3, %4",
            ),
            &["8    %2 = mov %0", "1    %5 = load_const (true)"],
        );
        // Different swizzles of one value are different operands.
        unchanged(&func(
            "32x2 %0 = undef
             32 %1 = ixor %0.x, %0.y
             32 %2 = load_const (0xffff)
             32 %3 = iand %0.x, %2",
        ));
    }

    #[test]
    fn min_max_rules() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = load_const (0)
                 32 %2 = load_const (0xffffffff)
                 32 %3 = imin %0, %0
                 32 %4 = imax %0, %0
                 32 %5 = umin %0, %0
                 32 %6 = umax %0, %1
                 32 %7 = umin %0, %2
                 32 %8 = umin %0, %1
                 32 %9 = umax %0, %2",
            ),
            &[
                "32   %3 = mov %0",
                "32   %4 = mov %0",
                "32   %5 = mov %0",
                "32   %6 = mov %0",
                "32   %7 = mov %0",
                "32   %8 = load_const (0x00000000)",
                "32   %9 = load_const (0xffffffff)",
            ],
        );
        // Signed min/max with 0 or ~0 are not trivial.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (0)
             32 %2 = imin %0, %1
             32 %3 = imax %0, %1",
        ));
    }

    #[test]
    fn ubfe_with_zero_offset_is_a_mask() {
        check(
            &func(
                "32x4 %0 = undef
                 32x4 %1 = load_const (0, 32, 64, 0)
                 32x4 %2 = load_const (8, 31, 1, 0)
                 32x4 %3 = ubfe %0, %1, %2",
            ),
            &[
                "32x4 %4 = load_const (0x000000ff, 0x7fffffff, 0x00000001, 0x00000000)",
                "32x4 %3 = iand %0, %4",
            ],
        );
        // Widths 0 and 32 both extract nothing.
        check(
            &func(
                "32x2 %0 = undef
                 32x2 %1 = load_const (0, 0)
                 32x2 %2 = load_const (0, 32)
                 32x2 %3 = ubfe %0, %1, %2",
            ),
            &["32x2 %3 = load_const (0x00000000, 0x00000000)"],
        );
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (4)
             32 %2 = load_const (8)
             32 %3 = ubfe %0, %1, %2
             32 %4 = undef
             32 %5 = load_const (0)
             32 %6 = ubfe %0, %5, %4",
        ));
    }

    #[test]
    fn bitfield_insert_rules() {
        check(
            &func(
                "32 %0 = undef
                 32 %1 = undef
                 32 %2 = undef
                 32 %3 = load_const (0)
                 32 %4 = load_const (32)
                 32 %5 = load_const (12)
                 32 %6 = bitfield_insert %0, %1, %2, %3
                 32 %7 = bitfield_insert %0, %1, %3, %4
                 32 %8 = bitfield_insert %3, %1, %3, %5",
            ),
            &[
                "32   %6 = mov %0",
                "32   %7 = mov %1",
                "32   %9 = load_const (0x00000fff)",
                "32   %8 = iand %1, %9",
            ],
        );
        // A nonzero offset, an unknown or negative width, or a nonzero base stay.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = undef
             32 %2 = load_const (0)
             32 %3 = load_const (4)
             32 %4 = load_const (0xfffffff0)
             32 %5 = bitfield_insert %2, %1, %3, %3
             32 %6 = bitfield_insert %2, %1, %2, %4
             32 %7 = bitfield_insert %0, %1, %2, %3
             32 %8 = bitfield_insert %2, %1, %2, %0",
        ));
    }

    #[test]
    fn bcsel_rules() {
        check(
            &func(
                "1x2 %0 = undef
                 32x2 %1 = undef
                 32x2 %2 = undef
                 1x2 %3 = load_const (true, true)
                 1x2 %4 = load_const (false, false)
                 32x2 %5 = bcsel %3, %1, %2
                 32x2 %6 = bcsel %4, %1, %2
                 32x2 %7 = bcsel %0, %1, %1",
            ),
            &["32x2 %5 = mov %1", "32x2 %6 = mov %2", "32x2 %7 = mov %1"],
        );
        unchanged(&func(
            "1x2 %0 = undef
             32x2 %1 = undef
             32x2 %2 = undef
             1x2 %3 = load_const (true, false)
             32x2 %4 = bcsel %3, %1, %2
             32x2 %5 = bcsel %0, %1, %1.yx",
        ));
    }

    #[test]
    fn comparisons_of_identical_sources() {
        check(
            &func(
                "32x2 %0 = undef
                 32 %1 = load_const (0)
                 1x2 %2 = ieq %0, %0
                 1x2 %3 = ine %0, %0
                 1x2 %4 = ilt %0, %0
                 1x2 %5 = ige %0, %0
                 1 %6 = ult %0.x, %0.x
                 1 %7 = uge %0.y, %0.y
                 1 %8 = uge %0.x, %1
                 1 %9 = ult %0.y, %1",
            ),
            &[
                "1x2  %2 = load_const (true, true)",
                "1x2  %3 = load_const (false, false)",
                "1x2  %4 = load_const (false, false)",
                "1x2  %5 = load_const (true, true)",
                "1    %6 = load_const (false)",
                "1    %7 = load_const (true)",
                "1    %8 = load_const (true)",
                "1    %9 = load_const (false)",
            ],
        );
        // Float comparisons of x with itself depend on NaN; signed compares with 0 too.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (0)
             1 %2 = feq %0, %0
             1 %3 = ilt %0, %1
             1 %4 = ieq %0.x, %1",
        ));
    }

    #[test]
    fn float_identities_need_a_quiet_source() {
        // x comes from arithmetic, so it is never a signalling NaN.
        check(
            &func(
                "32 %0 = undef
                 32 %1 = undef
                 32 %2 = fadd %0, %1
                 32 %3 = load_const (1.0)
                 32 %4 = fmul %3, %2
                 32 %5 = load_const (0x80000000)
                 32 %6 = fadd %2, %5
                 32 %7 = load_const (0)
                 32 %8 = fsub %2, %7
                 32 %9 = fneg %2
                 32 %10 = fmul %9, %3",
            ),
            &[
                "32   %4 = mov %2",
                "32   %6 = mov %2",
                "32   %8 = mov %2",
                "32   %10 = mov %9",
            ],
        );
        check(
            &func(
                "16x2 %0 = undef
                 16x2 %1 = ffloor %0
                 16x2 %2 = load_const (0x8000, 0x8000)
                 16x2 %3 = fadd %1, %2
                 64 %4 = undef
                 32 %5 = u2f32 %4
                 32 %6 = load_const (1.0)
                 32 %7 = fmul %5, %6",
            ),
            &["16x2 %3 = mov %1", "32   %7 = mov %5"],
        );
        // A raw input may be a signalling NaN, which x * 1.0 would quiet; +0.0 is not an
        // identity for fadd (-0 + +0 = +0); -1.0 is not an identity at all.
        unchanged(&func(
            "32 %0 = undef
             32 %1 = load_const (1.0)
             32 %2 = fmul %0, %1
             32 %3 = fadd %0, %1
             32 %4 = fadd %0, %0
             32 %5 = load_const (0)
             32 %6 = fadd %3, %5
             32 %7 = load_const (0x7f800001)
             32 %8 = fmul %7, %1
             32 %9 = load_const (-1.0)
             32 %10 = fmul %3, %9
             32 %11 = f2f32 %0
             32 %12 = fmul %11, %1",
        ));
    }

    /// Random straight-line programs over 32x2 values, with constants biased towards the
    /// ones the rules look for: const-fold and algebraic together must not change any
    /// value, for any input.
    #[test]
    fn random_programs_keep_their_values() {
        use crate::passes::const_fold::fold_function;
        let programs: u64 = std::env::var("QC_TESTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(150);
        let int_ops = [
            AluOp::Iadd,
            AluOp::Isub,
            AluOp::Imul,
            AluOp::Udiv,
            AluOp::Idiv,
            AluOp::Umod,
            AluOp::Ishl,
            AluOp::Ishr,
            AluOp::Ushr,
            AluOp::Iand,
            AluOp::Ior,
            AluOp::Ixor,
            AluOp::Imin,
            AluOp::Umax,
            AluOp::Umin,
            AluOp::Ubfe,
            AluOp::BitfieldInsert,
            AluOp::Fadd,
            AluOp::Fsub,
            AluOp::Fmul,
            AluOp::Fmin,
            AluOp::Ffloor,
            AluOp::Fneg,
            AluOp::Bcsel,
        ];
        let consts = [
            0u64,
            1,
            2,
            8,
            31,
            32,
            0xffff_ffff,
            0x8000_0000,
            0x3f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            12,
        ];
        let ty = Type::vec32(2);
        let mut simplified = 0;
        for prog in 0..programs {
            let mut st = prog.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1;
            let mut f = Function::new("main");
            let mut b = Builder::at_end(&mut f);
            let mut pool: Vec<Value> = (0..3).map(|_| b.undef(ty)).collect();
            let mut bools: Vec<Value> = vec![b.undef(Type::new(1, 2).unwrap())];
            for _ in 0..30 {
                let operand = |b: &mut Builder, st: &mut u64| -> Src {
                    let r = next(st);
                    let v = if r.is_multiple_of(3) {
                        let c = [consts[(r >> 8) as usize % consts.len()]; 2];
                        let c = if r & 0x40 != 0 {
                            [c[0], consts[(r >> 16) as usize % consts.len()]]
                        } else {
                            c
                        };
                        b.load_const(ty, &c)
                    } else {
                        pool[(r >> 8) as usize % pool.len()]
                    };
                    let sw: [&[u8]; 4] = [&[0, 1], &[1, 0], &[0, 0], &[1, 1]];
                    Src::swizzled(v, sw[(r >> 24) as usize % 4]).unwrap()
                };
                let op = int_ops[next(&mut st) as usize % int_ops.len()];
                let v = if op == AluOp::Bcsel {
                    if next(&mut st).is_multiple_of(2) {
                        let (x, y) = (operand(&mut b, &mut st), operand(&mut b, &mut st));
                        let cmp = [AluOp::Ieq, AluOp::Ult, AluOp::Ige][next(&mut st) as usize % 3];
                        let c = b.alu(cmp, &[x, y]);
                        bools.push(c);
                    }
                    let c = bools[next(&mut st) as usize % bools.len()];
                    let (x, y) = (operand(&mut b, &mut st), operand(&mut b, &mut st));
                    b.alu(op, &[c.into(), x, y])
                } else {
                    let srcs: Vec<Src> = (0..op.num_inputs())
                        .map(|_| operand(&mut b, &mut st))
                        .collect();
                    b.alu(op, &srcs)
                };
                pool.push(v);
            }
            let before = f.clone();
            for _ in 0..2 {
                fold_function(&mut f);
                if simplify_function(&mut f) {
                    simplified += 1;
                }
            }
            for seed in 1..=24u64 {
                let (x, y) = (run(&before, seed), run(&f, seed));
                for (v, want) in &x {
                    assert_eq!(&y[v], want, "program {prog}, {v}, seed {seed}");
                }
            }
        }
        // The generator is biased enough that the rules fire in most programs.
        assert!(
            simplified > programs / 2,
            "rules fired in {simplified} runs"
        );
    }

    #[test]
    fn rules_apply_inside_control_flow() {
        let src = "fn main {
              block b0:
                32x3 %9 = @load_global_invocation_id
                32 %0 = mov %9.x
                32 %1 = load_const (0)
                1 %2 = ieq %0, %0
              if %2 {
                block b1:
                  32 %3 = iadd %0, %1
              } else {
                block b2:
              }
              block b3:
                32 %4 = phi b1: %3, b2: %1
            }";
        let mut shader = parse_shader(src).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(Algebraic.run(&mut shader).unwrap());
        let text = print_function(&shader, &shader.functions[0]);
        assert!(text.contains("1    %2 = load_const (true)"), "{text}");
        assert!(text.contains("32   %3 = mov %0"), "{text}");
        assert!(text.contains("if %2 {"), "{text}");
        assert!(!Algebraic.run(&mut shader).unwrap());
    }

    #[test]
    fn malformed_instructions_do_not_panic() {
        let mut f = Function::new("main");
        let mut b = Builder::at_end(&mut f);
        let x = b.undef(Type::U32);
        let z = b.imm_u32(0);
        // Wrong source count and a swizzle past the value: left alone.
        b.alu_typed(AluOp::Iadd, &[x.into()], Type::U32);
        b.alu_typed(
            AluOp::Iadd,
            &[x.into(), Src::swizzled(z, &[2]).unwrap()],
            Type::U32,
        );
        assert!(!simplify_function(&mut f));
    }
}
