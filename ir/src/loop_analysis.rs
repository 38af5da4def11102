//! Loop analysis, after NIR's `nir_loop_analyze`: a loop's terminators, its basic
//! induction variables, its trip count when a constant bounds it, and the estimated
//! cost of one iteration. The loop unroller (`opt-loop-unroll`) decides with this.
//!
//! - A **terminator** is an `if` at the top level of the loop body one of whose
//!   branches is a single block ending in `break` (NIR's `nir_is_trivial_loop_if`).
//!   A loop with any other jump of its own (a `continue`, a `break` nested deeper, a
//!   `break` branch of several blocks) is *complex*: it gets no trip count.
//! - A **basic induction variable** is a header phi whose source from the block before
//!   the loop is a constant and whose other source is `op(phi, constant)` computed at
//!   the top level of the loop body, for `op` NIR's `iadd` or `fadd` (scalar, as NIR's
//!   scalar loop analysis sees them). Those are the steps `nir_loop_analyze` knows in
//!   Mesa 22.3, the anv this project measures its code size against: a loop that
//!   halves or doubles its counter (`s >>= 1`, the shared-memory reduction of
//!   llama.cpp's norms and soft_max) stays a loop there, one copy of its body, where
//!   unrolling it nine times with a barrier in each copy more than doubled the kernel.
//! - The **trip count** is the number of times the loop passes its terminator without
//!   leaving, for a loop with exactly one terminator whose condition compares an
//!   induction variable (the phi or its update) with a constant, possibly negated
//!   (`inot`). NIR solves `init op step^k` against the limit in closed form and then
//!   tests the candidates with the constant folder; here the iterations are simply
//!   evaluated with the constant folder ([`crate::eval::eval_alu`]) one after another,
//!   up to the largest count the caller could use, which gives the same exact count
//!   for every operation and comparison (wrapping and float rounding included).
//! - The **cost** of an iteration counts instructions as NIR's `instr_cost` does on
//!   Intel's scalar NIR: intrinsics 1; moves, vectors, phis, constants and undefs 0; a
//!   comparison of an induction variable with a constant, and a `bcsel` on one, 0
//!   (they fold once the loop is unrolled); `flrp` 3 (Intel lowers it); 64-bit integer
//!   division 100 and other 64-bit integer operations 5, 64-bit float operations 20
//!   (Intel lowers them); every other ALU instruction 1; each once per component (an
//!   `fdotN` or `ball`/`bany` of N components as its N products and N - 1 joins).

use crate::alu::AluOp;
use crate::entity::{Block, IfId, LoopId, Value};
use crate::eval::{eval_alu, Operand};
use crate::function::{CfNode, CfParent, Function, InstKind, Jump};
use crate::types::{BaseType, Src, Type};

/// An `if` at the top level of a loop body with a branch that only breaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Terminator {
    /// The `if`.
    pub if_id: IfId,
    /// Whether the `break` is in the then branch (the loop ends when the condition is
    /// true) or in the else branch (when it is false).
    pub break_in_then: bool,
    /// The block that ends in `break`, the whole of its branch.
    pub break_block: Block,
}

/// A basic induction variable: `phi = init` before the loop, `phi = op(phi, step)`
/// around it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InductionVar {
    /// The header phi (NIR's `basis`).
    pub phi: Value,
    /// Its value in the first iteration: a scalar constant.
    pub init: u64,
    /// The update, `op(phi, step)` (NIR's `def`).
    pub update: Value,
    /// The update's operation.
    pub op: AluOp,
    /// The constant operand of the update.
    pub step: u64,
    /// Whether the phi is the update's first source (`op(phi, step)`) or its second.
    pub phi_first: bool,
    /// The scalar type of the variable.
    pub ty: Type,
}

/// What [`analyze_loop`] finds.
#[derive(Clone, Debug, Default)]
pub struct LoopInfo {
    /// The terminators, in body order.
    pub terminators: Vec<Terminator>,
    /// Whether the loop has a jump of its own that is not a terminator's `break`.
    pub complex: bool,
    /// Whether the loop contains another loop.
    pub has_nested_loop: bool,
    /// The basic induction variables.
    pub induction_vars: Vec<InductionVar>,
    /// How many times the loop passes its only terminator without leaving, when that is
    /// known and at most the analysis limit.
    pub trip_count: Option<u32>,
    /// The estimated cost of one iteration (NIR's `instr_cost` summed over the body).
    pub instr_cost: u32,
    /// The block before the loop (the loop header's predecessor from outside).
    pub preheader: Option<Block>,
    /// The last block of the body, the only block that goes back to the header when
    /// the loop has no `continue`.
    pub latch: Option<Block>,
}

/// Analyzes `loop_id`, looking for a trip count of at most `max_trip_count`.
pub fn analyze_loop(func: &Function, loop_id: LoopId, max_trip_count: u32) -> LoopInfo {
    let body = func.cf_list(CfParent::Loop(loop_id));
    let mut info = LoopInfo {
        preheader: match func.prev_node(CfNode::Loop(loop_id)) {
            Some(CfNode::Block(b)) => Some(b),
            _ => None,
        },
        latch: func.last_block(CfParent::Loop(loop_id)),
        ..LoopInfo::default()
    };
    find_terminators(func, body, &mut info);
    scan_jumps(func, body, &info.terminators.clone(), &mut info);
    info.induction_vars = induction_vars(func, loop_id, &info);
    info.instr_cost = list_cost(func, body, &info);
    if !info.complex && info.terminators.len() == 1 {
        info.trip_count = trip_count(func, &info, info.terminators[0], max_trip_count);
    }
    info
}

/// The top-level `if`s with a single-block `break` branch.
fn find_terminators(func: &Function, body: &[CfNode], info: &mut LoopInfo) {
    for &node in body {
        let CfNode::If(id) = node else { continue };
        let d = func.if_data(id);
        let breaks_alone = |list: &[CfNode]| match list {
            [CfNode::Block(b)] if func.block(*b).jump == Some(Jump::Break) => Some(*b),
            _ => None,
        };
        let term = match (breaks_alone(&d.then_list), breaks_alone(&d.else_list)) {
            (Some(b), None) => Some((true, b)),
            (None, Some(b)) => Some((false, b)),
            _ => None,
        };
        if let Some((break_in_then, break_block)) = term {
            // NIR leaves a condition that is a phi alone (`complex_loop`).
            let cond_is_phi = func
                .value_def(d.cond.value)
                .is_some_and(|i| func.inst(i).is_phi());
            if cond_is_phi {
                info.complex = true;
            }
            info.terminators.push(Terminator {
                if_id: id,
                break_in_then,
                break_block,
            });
        }
    }
}

/// Marks the loop complex if it has a jump of its own besides its terminators' breaks,
/// and notes nested loops.
fn scan_jumps(func: &Function, list: &[CfNode], terms: &[Terminator], info: &mut LoopInfo) {
    for &node in list {
        match node {
            CfNode::Block(b) => {
                if func.block(b).jump.is_some() && !terms.iter().any(|t| t.break_block == b) {
                    info.complex = true;
                }
            }
            CfNode::If(id) => {
                let d = func.if_data(id);
                scan_jumps(func, &d.then_list, terms, info);
                scan_jumps(func, &d.else_list, terms, info);
            }
            CfNode::Loop(_) => info.has_nested_loop = true,
        }
    }
}

/// The components of a source if it reads a live `load_const`.
fn const_scalar(func: &Function, src: Src) -> Option<u64> {
    if func.src_components(src) != 1 {
        return None;
    }
    let def = func.value_def(src.value)?;
    func.inst_block(def)?;
    let vals = func.inst(def).as_const()?;
    vals.get(src.swizzle.component(0) as usize).copied()
}

/// Whether `src` reads all of the scalar `value`.
fn reads_scalar(func: &Function, src: Src, value: Value) -> bool {
    src.value == value
        && func.value_type(value).num_components() == 1
        && src.swizzle.component(0) == 0
}

fn induction_vars(func: &Function, loop_id: LoopId, info: &LoopInfo) -> Vec<InductionVar> {
    let mut out = Vec::new();
    let (Some(pre), Some(header)) = (info.preheader, func.first_block(CfParent::Loop(loop_id)))
    else {
        return out;
    };
    for inst in func.block_insts(header) {
        let data = func.inst(inst);
        let (InstKind::Phi(phi), Some(dest)) = (&data.kind, data.dest) else {
            break;
        };
        let ty = func.value_type(dest);
        if ty.num_components() != 1 || phi.srcs.len() != 2 {
            continue;
        }
        let Some(&(_, init_src)) = phi.srcs.iter().find(|(p, _)| *p == pre) else {
            continue;
        };
        let Some(&(_, upd_src)) = phi.srcs.iter().find(|(p, _)| *p != pre) else {
            continue;
        };
        let Some(init) = const_scalar(func, init_src) else {
            continue;
        };
        let Some(upd_inst) = func.value_def(upd_src.value) else {
            continue;
        };
        // The update must run once per iteration: at the top level of the body.
        let top_level = func.inst_block(upd_inst).and_then(|b| func.block(b).parent)
            == Some(CfParent::Loop(loop_id));
        let Some(alu) = func.inst(upd_inst).as_alu() else {
            continue;
        };
        let supported = matches!(alu.op, AluOp::Iadd | AluOp::Fadd);
        if !top_level || !supported || !reads_scalar(func, upd_src, upd_src.value) {
            continue;
        }
        let (phi_first, step) = if reads_scalar(func, alu.srcs[0], dest) {
            (true, const_scalar(func, alu.srcs[1]))
        } else if reads_scalar(func, alu.srcs[1], dest) {
            (false, const_scalar(func, alu.srcs[0]))
        } else {
            continue;
        };
        let Some(step) = step else { continue };
        out.push(InductionVar {
            phi: dest,
            init,
            update: upd_src.value,
            op: alu.op,
            step,
            phi_first,
            ty,
        });
    }
    out
}

/// The induction variable a source reads, and whether it reads the update (`true`)
/// or the phi.
fn induction_use(func: &Function, src: Src, vars: &[InductionVar]) -> Option<(usize, bool)> {
    vars.iter().enumerate().find_map(|(k, v)| {
        if reads_scalar(func, src, v.phi) {
            Some((k, false))
        } else if reads_scalar(func, src, v.update) {
            Some((k, true))
        } else {
            None
        }
    })
}

/// Whether `src` is a two-source comparison of an induction variable with a constant.
fn is_induction_compare(func: &Function, src: Src, vars: &[InductionVar]) -> bool {
    let Some(def) = func.value_def(src.value) else {
        return false;
    };
    let Some(alu) = func.inst(def).as_alu() else {
        return false;
    };
    if !alu.op.is_comparison() || alu.srcs.len() != 2 {
        return false;
    }
    let (a, b) = (alu.srcs[0], alu.srcs[1]);
    (induction_use(func, a, vars).is_some() && const_scalar(func, b).is_some())
        || (induction_use(func, b, vars).is_some() && const_scalar(func, a).is_some())
}

fn list_cost(func: &Function, list: &[CfNode], info: &LoopInfo) -> u32 {
    let mut cost = 0u32;
    for &node in list {
        match node {
            CfNode::Block(b) => {
                for inst in func.block_insts(b) {
                    cost = cost.saturating_add(inst_cost(func, inst, info));
                }
            }
            CfNode::If(id) => {
                let d = func.if_data(id);
                cost = cost
                    .saturating_add(list_cost(func, &d.then_list, info))
                    .saturating_add(list_cost(func, &d.else_list, info));
            }
            CfNode::Loop(l) => {
                cost = cost.saturating_add(list_cost(func, func.cf_list(CfParent::Loop(l)), info))
            }
        }
    }
    cost
}

fn inst_cost(func: &Function, inst: crate::entity::Inst, info: &LoopInfo) -> u32 {
    let data = func.inst(inst);
    let alu = match &data.kind {
        InstKind::Intrinsic(_) => return 1,
        InstKind::Alu(a) => a,
        _ => return 0,
    };
    use AluOp::*;
    let vars = &info.induction_vars;
    match alu.op {
        Mov => return 0,
        Vec2 | Vec3 | Vec4 | Vec8 | Vec16 => return 1,
        Bcsel if is_induction_compare(func, alu.srcs[0], vars) => return 0,
        op if op.is_comparison()
            && alu.srcs.len() == 2
            && data
                .dest
                .is_some_and(|d| is_induction_compare(func, Src::new(d), vars)) =>
        {
            return 0
        }
        _ => {}
    }
    // Intel's NIR is scalar when it unrolls (`nir_lower_alu_to_scalar` runs first in
    // `brw_preprocess_nir`): an operation costs once per component, and a horizontal
    // one (`fdot4`, `ball_iequal3`, ...) its products and the sums that join them.
    let info_op = alu.op.info();
    let comps = match (info_op.output_size, info_op.input_sizes[0]) {
        (0, _) => data
            .dest
            .map_or(1, |d| u32::from(func.value_type(d).num_components())),
        (1, n @ 2..) if matches!(info_op.name.get(..4), Some("fdot" | "ball" | "bany")) => {
            2 * u32::from(n) - 1
        }
        (n, _) => u32::from(n),
    };
    let cost = comps * if alu.op == Flrp { 3 } else { 1 };
    let dest_bits = data.dest.map_or(32, |d| func.value_type(d).bit_size());
    let src_bits = alu
        .srcs
        .first()
        .map_or(32, |s| func.value_type(s.value).bit_size());
    if dest_bits < 64 && src_bits < 64 {
        return cost;
    }
    let is_float = info_op.output_type.base == BaseType::Float
        || info_op.input_types[..info_op.num_inputs as usize]
            .iter()
            .any(|t| t.base == BaseType::Float);
    if is_float {
        cost * 20
    } else if matches!(alu.op, Idiv | Udiv | Imod | Umod | Irem) {
        cost * 100
    } else {
        cost * 5
    }
}

/// Evaluates `op` on scalar operands of `ty`'s bit size.
fn eval_scalar(op: AluOp, dest: Type, a: (u8, u64), b: (u8, u64)) -> Option<u64> {
    let (ca, cb) = ([a.1], [b.1]);
    let r = eval_alu(op, dest, &[Operand::new(a.0, &ca), Operand::new(b.0, &cb)]).ok()?;
    r.first().copied()
}

/// The trip count of a loop whose only exit is `term`, evaluated iteration by
/// iteration up to `max`.
fn trip_count(func: &Function, info: &LoopInfo, term: Terminator, max: u32) -> Option<u32> {
    let mut cond = func.if_data(term.if_id).cond;
    let mut negated = false;
    // NIR looks through `inot` (its conditions are 1-bit booleans).
    loop {
        let def = func.value_def(cond.value)?;
        let alu = func.inst(def).as_alu()?;
        if alu.op == AluOp::Inot && func.src_components(cond) == 1 {
            let inner = alu.srcs[0];
            cond = Src {
                value: inner.value,
                swizzle: crate::types::Swizzle::channel(
                    inner.swizzle.component(cond.swizzle.component(0)),
                ),
            };
            negated = !negated;
            continue;
        }
        break;
    }
    let def = func.value_def(cond.value)?;
    let cmp = func.inst(def).as_alu()?;
    if !cmp.op.is_comparison()
        || cmp.srcs.len() != 2
        || func.value_type(cond.value).num_components() != 1
    {
        return None;
    }
    let vars = &info.induction_vars;
    // Each side: an induction variable (phi or update) or a constant.
    enum Side {
        Var(usize, bool),
        Const(u64),
    }
    let side = |s: Src| -> Option<Side> {
        if let Some((k, upd)) = induction_use(func, s, vars) {
            return Some(Side::Var(k, upd));
        }
        const_scalar(func, s).map(Side::Const)
    };
    let (a, b) = (side(cmp.srcs[0])?, side(cmp.srcs[1])?);
    let var = match (&a, &b) {
        (Side::Var(k, _), Side::Const(_)) | (Side::Const(_), Side::Var(k, _)) => *k,
        _ => return None,
    };
    let v = vars[var];
    let bits = v.ty.bit_size();
    let step_bits = func
        .value_type(
            func.inst(func.value_def(v.update)?).as_alu()?.srcs[if v.phi_first { 1 } else { 0 }]
                .value,
        )
        .bit_size();
    let a_bits = func.value_type(cmp.srcs[0].value).bit_size();
    let b_bits = func.value_type(cmp.srcs[1].value).bit_size();
    let mut x = v.init;
    for k in 0..=max {
        let next = if v.phi_first {
            eval_scalar(v.op, v.ty, (bits, x), (step_bits, v.step))?
        } else {
            eval_scalar(v.op, v.ty, (step_bits, v.step), (bits, x))?
        };
        let value_of = |s: &Side| match *s {
            Side::Var(_, true) => next,
            Side::Var(_, false) => x,
            Side::Const(c) => c,
        };
        let r = eval_scalar(
            cmp.op,
            Type::BOOL,
            (a_bits, value_of(&a)),
            (b_bits, value_of(&b)),
        )?;
        let truth = (r & 1 == 1) != negated;
        if truth == term.break_in_then {
            return Some(k);
        }
        x = next;
    }
    None
}
