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
//! | `bcsel c, a, b` where each component of `a` and `b` is the same scalar (through a `vecN`) | `b` |
//! | `bcsel (inot c), a, b` | `bcsel c, b, a` |
//! | 1-bit `bcsel c, true, false` / `bcsel c, false, true` | `c` / `inot c` |
//! | 1-bit `bcsel c, true, b`, `bcsel c, c, b` / `bcsel c, a, false`, `bcsel c, a, c` | `ior c, b` / `iand c, a` |
//! | `inot (ilt a, b)`, `inot (ult a, b)`, `inot (ieq a, b)`, `inot (feq a, b)` and their inverses | `ige a, b`, `uge a, b`, `ine a, b`, `fneu a, b` and their inverses |
//! | `ieq x, x`, `ige x, x`, `uge x, x`, `uge x, 0` | `true` |
//! | `ine x, x`, `ilt x, x`, `ult x, x`, `ult x, 0` | `false` |
//! | `fmul x, 1.0`, `fadd x, -0.0`, `fsub x, +0.0` | `x`, when `x` is never a signalling NaN or the instruction is not `exact` |
//!
//! Those float rules hold bit for bit for every `x` except a signalling NaN, which the
//! arithmetic returns quieted; on an `exact` instruction they therefore fire only when `x`
//! comes from an operation whose result is never a signalling NaN (IEEE arithmetic,
//! conversions, `fsat`, ...) or is a constant without one.
//!
//! Instructions without NIR's `exact` flag also get NIR's inexact rules (its `~` rules),
//! which assume that no operand is an infinity or a NaN and that the sign of a zero does
//! not matter, as Vulkan allows without `SignedZeroInfNanPreserve` (the precision table
//! in `ir/PRECISION.md`):
//!
//! | pattern (not `exact`) | result |
//! |---|---|
//! | `fmul x, ±0.0` | `+0.0` |
//! | `fadd x, ±0.0`, `fsub x, ±0.0` | `x` |
//! | `fsub x, x` | `+0.0` |
//! | `ffma ±0.0, y, z`, `ffma x, ±0.0, z` | `z` |
//! | `ffma 1.0, y, z`, `ffma x, 1.0, z` | `fadd y, z`, `fadd x, z` |
//! | `ffma x, y, ±0.0` | `fmul x, y` |
//! | `fdiv x, y` | `fmul x, (frcp y)`; `frcp y` when `x` is `1.0` |
//!
//! A vector instruction that no rule matches as a whole but whose constant operand makes
//! some components match one (`ffma %uv_step, (1.0, 0.0), %uv`, `iadd %p, (1, 0)`) is
//! split by those components (and a `bcsel` whose choices are one scalar in some
//! components, `bcsel c, (a, x.y, x.z, x.w), x`, by those), each group of equal constants an instruction of its own,
//! and put back together by a `vecN`; the groups are then simplified (`fadd` and a copy
//! here). brw scalarizes every ALU instruction before NIR's algebraic pass
//! (`nir_lower_alu_to_scalar`), so its rules see each component alone; the back end
//! emits one instruction per component either way, and copy propagation forwards the
//! `vecN`'s components to their readers.
//!
//! The last is the division Vulkan allows (2.5 ULP for `OpFDiv`) and Mesa's Intel back
//! end emits; the executor evaluates an inexact `fdiv` the same way
//! ([`crate::eval::eval_alu_flagged`]), so the rewrite keeps every bit.

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
        match match_rules(func, inst).or_else(|| match_lanes(func, inst)) {
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
    /// A new `frcp` of this source, of this type.
    Rcp(Src, Type),
    /// A new `op` of this source and a new constant: the result's type, the constant's
    /// type and components.
    WithConst(AluOp, Src, Type, Type, Comps),
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
    /// Another ALU op of the same result type, by a rule that matched through the
    /// instruction defining a source, and whether that one is `exact`: the result is
    /// then `exact` too, as NIR's `nir_search` makes a replacement exact when any
    /// instruction it matched was.
    AluThrough(AluOp, SmallVec<[NewSrc; 4]>, bool),
    /// The instruction on each group of its components (ascending, every component in
    /// exactly one group), put back together by a `vecN`.
    Split(SmallVec<[SmallVec<[u8; 4]>; 4]>),
}

fn apply(func: &mut Function, inst: Inst, rewrite: Rewrite) {
    let kind = match rewrite {
        Rewrite::Split(groups) => return split(func, inst, &groups),
        Rewrite::Copy(src) => InstKind::Alu(AluInst {
            op: AluOp::Mov,
            srcs: smallvec![src],
            exact: false,
        }),
        Rewrite::Const(vals) => InstKind::LoadConst(vals.into_iter().collect()),
        Rewrite::Swap => {
            if let InstKind::Alu(a) = &mut func.inst_mut(inst).kind {
                a.srcs.swap(0, 1);
            }
            return;
        }
        Rewrite::Alu(op, new_srcs) | Rewrite::AluThrough(op, new_srcs, false) => {
            let exact = func.inst(inst).as_alu().is_some_and(|a| a.exact);
            alu_before(func, inst, op, new_srcs, exact)
        }
        Rewrite::AluThrough(op, new_srcs, true) => alu_before(func, inst, op, new_srcs, true),
    };
    func.inst_mut(inst).kind = kind;
}

/// Rewrites `inst` as its instruction on each of `groups` and a `vecN` of their
/// components, then simplifies the new instructions.
fn split(func: &mut Function, inst: Inst, groups: &[SmallVec<[u8; 4]>]) {
    let Some(alu) = func.inst(inst).as_alu().cloned() else {
        return;
    };
    let Some(dest) = func.inst(inst).dest.map(|d| func.value_type(d)) else {
        return;
    };
    let n = dest.num_components() as usize;
    let Some(vec) = AluOp::vec(n as u8) else {
        return;
    };
    let mut lanes: SmallVec<[Option<Src>; 16]> = smallvec![None; n];
    let mut parts: SmallVec<[Inst; 4]> = SmallVec::new();
    {
        let mut b = Builder::new(func, Cursor::Before(inst));
        b.span = b.func.inst_span(inst);
        b.exact = alu.exact;
        for group in groups {
            let srcs: SmallVec<[Src; 4]> = alu
                .srcs
                .iter()
                .map(|s| {
                    let comps: SmallVec<[u8; 4]> =
                        group.iter().map(|&i| s.swizzle.component(i)).collect();
                    Src::swizzled(s.value, &comps).unwrap_or(*s)
                })
                .collect();
            let ty = Type::new(dest.bit_size(), group.len() as u8).unwrap_or(dest);
            let part = b.alu_typed(alu.op, &srcs, ty);
            for (k, &i) in group.iter().enumerate() {
                lanes[i as usize] = if group.len() == 1 {
                    Some(Src::new(part))
                } else {
                    Src::swizzled(part, &[k as u8])
                };
            }
            parts.extend(b.func.value_def(part));
        }
    }
    // Every component is in a group (`lane_groups`); the parts are dead otherwise.
    let Some(srcs) = lanes.into_iter().collect::<Option<SmallVec<_>>>() else {
        return;
    };
    func.inst_mut(inst).kind = InstKind::Alu(AluInst {
        op: vec,
        srcs,
        exact: false,
    });
    for part in parts {
        simplify_inst(func, part);
    }
}

/// The split of a vector instruction some of whose components match a rule alone.
fn match_lanes(func: &Function, inst: Inst) -> Option<Rewrite> {
    let data = func.inst(inst);
    let alu = data.as_alu()?;
    // Every instruction no rule matched comes here: leave scalars and ops without a
    // rule by component before reading their operands.
    let n = func.value_type(data.dest?).num_components();
    if !(2..=4).contains(&n) {
        return None;
    }
    if alu.op == AluOp::Bcsel {
        let (_, ops) = operands(func, inst)?;
        return select_lane_groups(func, &ops, n);
    }
    if !has_lane_rules(alu) {
        return None;
    }
    let (dest, ops) = operands(func, inst)?;
    lane_groups(alu, &ops, dest.num_components(), dest.bit_size())
}

/// The scalar component `i` of an operand reads: through a `vecN`, the component it
/// was built from (brw's scalar NIR sees that scalar itself).
fn lane_scalar(func: &Function, o: &Operand<'_>, i: u8) -> (Value, u8) {
    let c = o.comp(i);
    let built = alu_def(func, o.src.value)
        .filter(|a| a.op.is_vec())
        .and_then(|a| a.srcs.get(c as usize));
    match built {
        Some(s) => (s.value, s.swizzle.component(0)),
        None => (o.src.value, c),
    }
}

/// Whether both choices of a `bcsel` give the same scalar in component `i`.
fn same_choice(func: &Function, ops: &[Operand<'_>], i: u8) -> bool {
    lane_scalar(func, &ops[1], i) == lane_scalar(func, &ops[2], i)
}

/// The split of a vector `bcsel` some of whose components choose between a scalar and
/// itself (a `vecN` that replaces one component of the other choice: `bcsel c, (a,
/// x.y, x.z, x.w), x`): those components, which are copies, and the others.
fn select_lane_groups(func: &Function, ops: &[Operand<'_>], n: u8) -> Option<Rewrite> {
    let (same, differ): (SmallVec<[u8; 4]>, SmallVec<[u8; 4]>) =
        (0..n).partition(|&i| same_choice(func, ops, i));
    if same.is_empty() || differ.is_empty() {
        return None;
    }
    let mut groups: SmallVec<[SmallVec<[u8; 4]>; 4]> = smallvec![same, differ];
    groups.sort_by_key(|g| g[0]);
    Some(Rewrite::Split(groups))
}

/// The destination type and the operands of an ALU instruction of per-component
/// sources (`None` for anything else, or for sources the rules cannot read).
fn operands(func: &Function, inst: Inst) -> Option<(Type, SmallVec<[Operand<'_>; 4]>)> {
    let data = func.inst(inst);
    let alu = data.as_alu()?;
    let info = alu.op.info();
    if alu.srcs.len() != info.num_inputs as usize || info.output_size != 0 {
        return None;
    }
    let dest = func.value_type(data.dest?);
    let n = dest.num_components() as usize;
    let ops = alu
        .srcs
        .iter()
        .map(|&s| operand(func, s, n))
        .collect::<Option<_>>()?;
    Some((dest, ops))
}

/// Whether [`lane_matches`] has a rule for `alu`'s op (keep the two in step).
fn has_lane_rules(alu: &AluInst) -> bool {
    use AluOp::*;
    matches!(
        alu.op,
        Iadd | Isub | Ior | Ixor | Imul | Iand | Umin | Umax | Ishl | Ishr | Ushr
    ) || (!alu.exact && matches!(alu.op, Fmul | Fadd | Fsub | Ffma))
}

/// Whether component `i` of a vector `alu` alone matches a rule by its constant operands
/// (the table's constant rules, component by component).
fn lane_matches(alu: &AluInst, ops: &[Operand], i: u8, bits: u8) -> bool {
    use AluOp::*;
    let lane = |k: usize| ops[k].konst.map(|v| v[ops[k].comp(i) as usize]);
    let ones = bit_mask(bits);
    let sign = 1u64 << (bits - 1);
    let zero = |k: usize| lane(k).is_some_and(|v| v & !sign == 0);
    let is = |k: usize, c: u64| lane(k) == Some(c);
    let one = float_one(bits);
    match alu.op {
        Iadd | Isub | Ior | Ixor => is(1, 0),
        Imul => is(1, 0) || is(1, 1) || is(1, ones),
        Iand | Umin | Umax => is(1, 0) || is(1, ones),
        Ishl | Ishr | Ushr => lane(1).is_some_and(|v| v & (bits.max(8) as u64 - 1) == 0),
        Fmul if !alu.exact => zero(1) || is(1, one),
        Fadd | Fsub if !alu.exact => zero(1),
        Ffma if !alu.exact => zero(0) || zero(1) || is(0, one) || is(1, one) || zero(2),
        _ => false,
    }
}

/// The groups a vector instruction that no rule matched splits into, if some component
/// alone would match one: the matching components grouped by their constants, the others
/// together.
fn lane_groups(alu: &AluInst, ops: &[Operand], n: u8, bits: u8) -> Option<Rewrite> {
    // Up to four components, so that every group is a vector size (of 8 and 16
    // components a group of 5 to 7 or 9 to 15 would not be).
    if !(2..=4).contains(&n)
        || !ops.iter().any(|o| {
            o.is_const()
                && !o.konst_iter().is_some_and(|mut c| {
                    let first = c.next();
                    c.all(|v| Some(v) == first)
                })
        })
    {
        return None;
    }
    let info = alu.op.info();
    if info
        .input_sizes
        .iter()
        .take(alu.srcs.len())
        .any(|&s| s != 0)
    {
        return None;
    }
    let key = |i: u8| -> SmallVec<[Option<u64>; 4]> {
        ops.iter()
            .map(|o| o.konst.map(|v| v[o.comp(i) as usize]))
            .collect()
    };
    let mut groups: SmallVec<[SmallVec<[u8; 4]>; 4]> = SmallVec::new();
    let mut rest: SmallVec<[u8; 4]> = SmallVec::new();
    let mut keys: SmallVec<[SmallVec<[Option<u64>; 4]>; 4]> = SmallVec::new();
    for i in 0..n {
        if !lane_matches(alu, ops, i, bits) {
            rest.push(i);
            continue;
        }
        let k = key(i);
        match keys.iter().position(|x| *x == k) {
            Some(g) => groups[g].push(i),
            None => {
                keys.push(k);
                groups.push(smallvec![i]);
            }
        }
    }
    if groups.is_empty() {
        return None;
    }
    if !rest.is_empty() {
        groups.push(rest);
    }
    groups.sort_by_key(|g| g[0]);
    Some(Rewrite::Split(groups))
}

/// The instruction `op` of `new_srcs`, whose new constants and reciprocals go before
/// `inst`; `exact` as given (a rewritten instruction stays as exact as it was).
fn alu_before(
    func: &mut Function,
    inst: Inst,
    op: AluOp,
    new_srcs: SmallVec<[NewSrc; 4]>,
    exact: bool,
) -> InstKind {
    let mut b = Builder::new(func, Cursor::Before(inst));
    b.span = b.func.inst_span(inst);
    let srcs = new_srcs
        .into_iter()
        .map(|s| match s {
            NewSrc::Old(src) => src,
            NewSrc::Const(ty, vals) => Src::new(b.load_const(ty, &vals)),
            NewSrc::Rcp(src, ty) => Src::new(b.alu_typed(AluOp::Frcp, &[src], ty)),
            NewSrc::WithConst(op, src, ty, kty, vals) => {
                let k = Src::new(b.load_const(kty, &vals));
                Src::new(b.alu_typed(op, &[src, k], ty))
            }
        })
        .collect();
    InstKind::Alu(AluInst { op, srcs, exact })
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
    let width = func.value_type(value).num_components();
    Src {
        value,
        swizzle: Swizzle::reading(comps, width).unwrap_or(Swizzle::IDENTITY),
    }
}

/// `ishl (iadd x, #k), #c` as `iadd (ishl x, #c), #(k << c)`, NIR's reassociation for
/// address arithmetic: the shifted `x` may then be shared with other addresses, and an
/// access at `base + constant` is seen as such (the sum wraps the same way both ways).
fn shift_of_sum(
    func: &Function,
    a: &Operand<'_>,
    count: &Operand<'_>,
    inner: &AluInst,
    dest: Type,
    mask: u64,
    ones: u64,
) -> Option<Rewrite> {
    let n = a.n as usize;
    let inner_n = func.value_type(a.src.value).num_components() as usize;
    let i0 = operand(func, inner.srcs[0], inner_n)?;
    let i1 = operand(func, inner.srcs[1], inner_n)?;
    let (x, k) = match (i0.konst(), i1.konst()) {
        (None, Some(k)) => (&i0, k),
        (Some(k), None) => (&i1, k),
        _ => return None,
    };
    let c = count.konst()?;
    let x_comps: SmallVec<[u8; 16]> = (0..a.n).map(|i| x.comp(a.comp(i))).collect();
    let shifted: Comps = (0..n)
        .map(|i| (k[a.comp(i as u8) as usize] << (c[i] & mask)) & ones)
        .collect();
    let counts: Comps = c.iter().map(|&v| v & mask).collect();
    let count_ty = Type::new(count.bits, a.n)?;
    Some(Rewrite::AluThrough(
        AluOp::Iadd,
        smallvec![
            NewSrc::WithConst(
                AluOp::Ishl,
                src_of(func, x.src.value, &x_comps),
                dest,
                count_ty,
                counts
            ),
            NewSrc::Const(dest, shifted)
        ],
        inner.exact,
    ))
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
            | Inot
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
            | Ffma
            | Fdiv
    )
}

/// An inexact dot product with a zero vector is 0: Intel's NIR lowers `fdot` to
/// `fmul`s and `fadd`s, whose `~fmul a, 0.0` rule leaves 0 (a specialization constant
/// of 0 makes such weights; the load of the other vector then dies).
fn dot_with_zero(func: &Function, alu: &AluInst) -> Option<Rewrite> {
    if alu.exact || alu.srcs.len() != 2 {
        return None;
    }
    let n = usize::from(alu.op.info().input_sizes[0]);
    let zero = |s: Src| {
        operand(func, s, n).is_some_and(|o| {
            let sign = 1u64 << (o.bits - 1);
            o.all(|v| v & !sign == 0)
        })
    };
    (zero(alu.srcs[0]) || zero(alu.srcs[1])).then(|| Rewrite::Const(smallvec![0]))
}

/// The rewrite for an instruction, if a rule applies.
fn match_rules(func: &Function, inst: Inst) -> Option<Rewrite> {
    let data = func.inst(inst);
    let InstKind::Alu(alu) = &data.kind else {
        return None;
    };
    let info = alu.op.info();
    // Most instructions have no rule at all: leave before looking at their values.
    if !info.commutative && !has_rules(alu.op) {
        return None;
    }
    if matches!(alu.op, AluOp::Fdot2 | AluOp::Fdot3 | AluOp::Fdot4) {
        return dot_with_zero(func, alu);
    }
    let (dest, ops) = operands(func, inst)?;
    let n = dest.num_components() as usize;
    let bits = dest.bit_size();
    let ones = bit_mask(bits);
    let sign = 1u64 << (bits - 1);
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
            Some(Rewrite::AluThrough(
                Iadd,
                smallvec![
                    NewSrc::Old(src_of(func, x.src.value, &x_comps)),
                    NewSrc::Const(dest, sum)
                ],
                inner.exact,
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
            if op == Ishl && inner.op == Iadd {
                return shift_of_sum(func, a, b, inner, dest, m, ones);
            }
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
            Some(Rewrite::AluThrough(
                op,
                smallvec![
                    NewSrc::Old(src_of(func, x.src.value, &x_comps)),
                    NewSrc::Const(u32ty, total)
                ],
                inner.exact,
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
            } else if c.all(|v| v & 1 == 0) || (0..a.n).all(|i| same_choice(func, &ops, i)) {
                copy(b)
            } else if let Some(not) = alu_def(func, c.src.value).filter(|i| i.op == Inot) {
                // bcsel (inot x), a, b -> bcsel x, b, a
                let inner_n = func.value_type(c.src.value).num_components() as usize;
                let x = operand(func, not.srcs[0], inner_n)?;
                let comps: SmallVec<[u8; 16]> = (0..c.n).map(|i| x.comp(c.comp(i))).collect();
                Some(Rewrite::AluThrough(
                    Bcsel,
                    smallvec![
                        NewSrc::Old(src_of(func, x.src.value, &comps)),
                        NewSrc::Old(b.src),
                        NewSrc::Old(a.src)
                    ],
                    not.exact,
                ))
            } else if bits == 1 {
                // A choice between booleans is boolean logic (NIR's `bcsel@1` rules).
                let (a_true, b_false) =
                    (a.is_splat(1) || a.same_as(c), b.is_splat(0) || b.same_as(c));
                match (a_true, b_false) {
                    (true, true) => copy(c),
                    (true, false) => Some(Rewrite::Alu(
                        Ior,
                        smallvec![NewSrc::Old(c.src), NewSrc::Old(b.src)],
                    )),
                    (false, true) => Some(Rewrite::Alu(
                        Iand,
                        smallvec![NewSrc::Old(c.src), NewSrc::Old(a.src)],
                    )),
                    (false, false) if a.is_splat(0) && b.is_splat(1) => {
                        Some(Rewrite::Alu(Inot, smallvec![NewSrc::Old(c.src)]))
                    }
                    _ => None,
                }
            } else {
                None
            }
        }
        Inot => {
            // NIR's `inot(ilt a, b) -> ige a, b` rules: the negation of a comparison is
            // the inverse comparison. Of the float ones only `feq`/`fneu`, whose
            // inverses agree on NaN operands (NIR's `flt`/`fge` rules need operands
            // known to be numbers).
            let a = &ops[0];
            let inner = alu_def(func, a.src.value)?;
            if inner.op == Inot {
                // inot(inot x) -> x (NIR's rule of the same shape).
                let inner_n = func.value_type(a.src.value).num_components() as usize;
                let x = operand(func, inner.srcs[0], inner_n)?;
                let cx: SmallVec<[u8; 16]> = (0..a.n).map(|i| x.comp(a.comp(i))).collect();
                return Some(Rewrite::Copy(src_of(func, x.src.value, &cx)));
            }
            let inverse = match inner.op {
                Ieq => Ine,
                Ine => Ieq,
                Ilt => Ige,
                Ige => Ilt,
                Ult => Uge,
                Uge => Ult,
                Feq => Fneu,
                Fneu => Feq,
                _ => return None,
            };
            let inner_n = func.value_type(a.src.value).num_components() as usize;
            let x = operand(func, inner.srcs[0], inner_n)?;
            let y = operand(func, inner.srcs[1], inner_n)?;
            let cx: SmallVec<[u8; 16]> = (0..a.n).map(|i| x.comp(a.comp(i))).collect();
            let cy: SmallVec<[u8; 16]> = (0..a.n).map(|i| y.comp(a.comp(i))).collect();
            Some(Rewrite::AluThrough(
                inverse,
                smallvec![
                    NewSrc::Old(src_of(func, x.src.value, &cx)),
                    NewSrc::Old(src_of(func, y.src.value, &cy))
                ],
                inner.exact,
            ))
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
                Fadd => sign, // -0.0
                _ => 0,       // +0.0
            };
            // Without `exact`, a signalling NaN need not come out quieted.
            if b.is_splat(identity) && (!alu.exact || never_snan(func, a, 0)) {
                return copy(a);
            }
            if alu.exact {
                return None;
            }
            // NIR's inexact rules (`~fmul a, 0.0`, `~fadd a, 0.0`, `~fadd a, -a`): the
            // operand may be an infinity or a NaN, and the sign of a zero may change.
            let zero = |o: &Operand| o.all(|v| v & !sign == 0);
            match op {
                Fmul if zero(b) => Some(Rewrite::Const(zeros())),
                Fadd | Fsub if zero(b) => copy(a),
                Fsub if a.same_as(b) => Some(Rewrite::Const(zeros())),
                _ => None,
            }
        }
        Fdiv if !alu.exact => {
            // Vulkan allows 2.5 ULP for OpFDiv; Mesa's Intel back end divides as
            // `rcp` and `mul` (nir_opt_algebraic's `lower_fdiv`). A division of one is
            // the reciprocal alone.
            let (a, b) = (&ops[0], &ops[1]);
            if a.is_splat(float_one(bits)) {
                return Some(Rewrite::Alu(Frcp, smallvec![NewSrc::Old(b.src)]));
            }
            Some(Rewrite::Alu(
                Fmul,
                smallvec![NewSrc::Old(a.src), NewSrc::Rcp(b.src, dest)],
            ))
        }
        Ffma if !alu.exact => {
            // a * b + c, inexact (NIR's `~ffma` rules): a zero factor leaves `c`, a factor
            // of one an addition, a zero addend a multiplication.
            let (a, b, c) = (&ops[0], &ops[1], &ops[2]);
            let zero = |o: &Operand| o.all(|v| v & !sign == 0);
            let one = float_one(bits);
            if zero(a) || zero(b) {
                copy(c)
            } else if b.is_splat(one) || a.is_splat(one) {
                let x = if b.is_splat(one) { a } else { b };
                Some(Rewrite::Alu(
                    Fadd,
                    smallvec![NewSrc::Old(x.src), NewSrc::Old(c.src)],
                ))
            } else if zero(c) {
                Some(Rewrite::Alu(
                    Fmul,
                    smallvec![NewSrc::Old(a.src), NewSrc::Old(b.src)],
                ))
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

    // The text-in, text-out tests of the rules are lit files under
    // `tests/lit/algebraic/`; `ir/tests/algebraic_values.rs` checks their values and
    // those of random programs.

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
