//! naga statements as IR control flow, with the promoted variables in SSA form.
//!
//! * `if` becomes an IR `if`; variables that differ at the end of the two branches get
//!   phis after it.
//! * `loop { body } continuing { c } break_if b` becomes `loop { body; c; if b { break } }`
//!   with the continuing block repeated at every `continue` (so that `continue` can
//!   jump straight to the header); every variable gets a header phi, fed by each back
//!   edge (the IR's copy propagation removes the ones no edge changes).
//! * `switch` becomes a loop that runs once, so that naga's `break` (which leaves the
//!   switch) is the loop's `break`: each case runs when the selector matches it or an
//!   earlier case fell through; a `continue` inside sets a flag, leaves the switch and is
//!   taken after it.
//! * `return` sets the frame's returned flag (and its value): inside a loop of the
//!   frame it breaks out, and after every statement that may have returned the rest of
//!   the list runs only if the flag is clear (NIR's `nir_lower_returns` does the same).
//! * Calls are inlined: each call is a new frame with its own locals.

use crate::error::{ErrorKind, ImportError};
use crate::oracle::context::{Ctx, Frame, LoopCtx, LoopKind, MAX_INLINE_DEPTH};
use crate::oracle::value::{Cached, Val, VarKey};
use crate::oracle::{expr, image, memory, ops};
use ir::{AluOp, IntrinsicOp, Jump, Src};
use naga::{Handle, Statement as S};

/// Whether a statement contains a `return` (of its own function).
fn may_return(s: &S) -> bool {
    match s {
        S::Return { .. } => true,
        S::Block(b) => b.iter().any(may_return),
        S::If { accept, reject, .. } => {
            accept.iter().any(may_return) || reject.iter().any(may_return)
        }
        S::Switch { cases, .. } => cases.iter().any(|c| c.body.iter().any(may_return)),
        S::Loop {
            body, continuing, ..
        } => body.iter().any(may_return) || continuing.iter().any(may_return),
        _ => false,
    }
}

/// Whether a statement contains a `continue` that leaves it (not one of a loop inside).
fn may_continue(s: &S) -> bool {
    match s {
        S::Continue => true,
        S::Block(b) => b.iter().any(may_continue),
        S::If { accept, reject, .. } => {
            accept.iter().any(may_continue) || reject.iter().any(may_continue)
        }
        S::Switch { cases, .. } => cases.iter().any(|c| c.body.iter().any(may_continue)),
        _ => false,
    }
}

/// Whether the current frame is inside one of its own loops.
fn in_frame_loop(ctx: &Ctx<'_>) -> Result<bool, ImportError> {
    Ok(ctx.loops.len() > ctx.frame()?.loop_base)
}

/// The returned flag of the current frame.
fn returned_flag(ctx: &Ctx<'_>) -> Result<Src, ImportError> {
    let id = ctx.frame()?.id;
    ctx.vars
        .get(&VarKey::Returned(id))
        .and_then(Val::leaf)
        .ok_or_else(|| ctx.internal("a frame without its returned flag"))
}

/// Translates a list of statements.
pub fn block<'m>(ctx: &mut Ctx<'m>, body: &'m naga::Block) -> Result<(), ImportError> {
    let stmts: Vec<(&'m S, naga::Span)> = body.span_iter().map(|(s, sp)| (s, *sp)).collect();
    list(ctx, &stmts, &[])
}

/// The local variable a pointer expression is rooted at, if any.
fn local_root(
    f: &naga::Function,
    mut h: Handle<naga::Expression>,
) -> Option<Handle<naga::LocalVariable>> {
    loop {
        match f.expressions[h] {
            naga::Expression::LocalVariable(l) => return Some(l),
            naga::Expression::Access { base, .. } | naga::Expression::AccessIndex { base, .. } => {
                h = base
            }
            _ => return None,
        }
    }
}

/// Every local variable a statement reads or writes (through loads, stores, atomics and
/// pointer arguments).
fn locals_of(f: &naga::Function, s: &S, out: &mut Vec<Handle<naga::LocalVariable>>) {
    let root = |h: Handle<naga::Expression>, out: &mut Vec<_>| out.extend(local_root(f, h));
    match s {
        S::Emit(range) => {
            for h in range.clone() {
                match f.expressions[h] {
                    naga::Expression::Load { pointer } => root(pointer, out),
                    naga::Expression::Access { base, .. }
                    | naga::Expression::AccessIndex { base, .. } => root(base, out),
                    _ => {}
                }
            }
        }
        S::Store { pointer, .. } | S::Atomic { pointer, .. } => root(*pointer, out),
        S::WorkGroupUniformLoad { pointer, .. } => root(*pointer, out),
        S::Call { arguments, .. } => arguments.iter().for_each(|&a| root(a, out)),
        S::Block(b) => b.iter().for_each(|x| locals_of(f, x, out)),
        S::If { accept, reject, .. } => accept
            .iter()
            .chain(reject.iter())
            .for_each(|x| locals_of(f, x, out)),
        S::Switch { cases, .. } => cases
            .iter()
            .for_each(|c| c.body.iter().for_each(|x| locals_of(f, x, out))),
        S::Loop {
            body, continuing, ..
        } => body
            .iter()
            .chain(continuing.iter())
            .for_each(|x| locals_of(f, x, out)),
        _ => {}
    }
}

/// When a top-level statement of a frame's body brings local variables into the
/// promoted state and takes them out.
#[derive(Clone, Default)]
struct Schedule {
    /// Locals first used by the statement: initialized just before it.
    enter: Vec<Handle<naga::LocalVariable>>,
    /// Locals last used by the statement: dropped after it.
    leave: Vec<VarKey>,
}

/// Translates the body of a frame's function. A local variable enters the promoted
/// state before the first top-level statement that uses it and leaves it after the
/// last, so that the state every branch copies and merges holds the live variables
/// only (GLSL compilers give every block-scoped variable a function-level variable of
/// its own, and a long shader has thousands).
pub fn body<'m>(ctx: &mut Ctx<'m>, f: &'m naga::Function) -> Result<(), ImportError> {
    // Nested blocks only scope: their statements are the body's, in order.
    fn flatten<'m>(b: &'m naga::Block, out: &mut Vec<(&'m S, naga::Span)>) {
        for (s, sp) in b.span_iter() {
            match s {
                S::Block(inner) => flatten(inner, out),
                _ => out.push((s, *sp)),
            }
        }
    }
    let mut stmts = Vec::new();
    flatten(&f.body, &mut stmts);
    let mut span: Vec<Option<(usize, usize)>> = vec![None; f.local_variables.len()];
    for (i, (s, _)) in stmts.iter().enumerate() {
        let mut used = Vec::new();
        locals_of(f, s, &mut used);
        for l in used {
            let e = &mut span[l.index()];
            *e = Some(e.map_or((i, i), |(first, _)| (first, i)));
        }
    }
    let frame = ctx.frame()?.id;
    let mut schedule: Vec<Schedule> = vec![Schedule::default(); stmts.len()];
    for (l, _) in f.local_variables.iter() {
        if let Some((first, last)) = span[l.index()] {
            schedule[first].enter.push(l);
            schedule[last].leave.push(VarKey::Local(frame, l));
        }
    }
    let saved = ctx.locals.replace(f);
    let r = list(ctx, &stmts, &schedule);
    ctx.locals = saved;
    r
}

/// A local variable's initial value: its initializer, or zero.
fn init_local<'m>(
    ctx: &mut Ctx<'m>,
    f: &'m naga::Function,
    l: Handle<naga::LocalVariable>,
) -> Result<Val, ImportError> {
    let local = &f.local_variables[l];
    match local.init {
        Some(init) => expr::value(ctx, init),
        None => ctx.zero_of(&ctx.module.types[local.ty].inner.clone()),
    }
}

/// Translates statements; `schedule[i]` (when given) brings locals in before statement
/// `i` and drops them after it.
fn list<'m>(
    ctx: &mut Ctx<'m>,
    stmts: &[(&'m S, naga::Span)],
    schedule: &[Schedule],
) -> Result<(), ImportError> {
    for (i, &(s, span)) in stmts.iter().enumerate() {
        if !ctx.live || ctx.skipping {
            return Ok(());
        }
        ctx.at(span);
        if let (Some(sch), Some(f)) = (schedule.get(i), ctx.locals) {
            let frame = ctx.frame()?.id;
            for &l in &sch.enter {
                let v = init_local(ctx, f, l)?;
                ctx.vars.insert(VarKey::Local(frame, l), v);
            }
        }
        // A memory barrier next to an execution barrier is part of it (`barrier()` with
        // `memoryBarrierShared()`, `workgroupBarrier()`): the IR's barrier orders memory.
        if let S::MemoryBarrier(_) = s {
            let next = stmts.get(i + 1).map(|p| p.0);
            let prev = i.checked_sub(1).and_then(|j| stmts.get(j)).map(|p| p.0);
            let beside = |x: Option<&S>| matches!(x, Some(S::ControlBarrier(_)));
            if beside(next) || beside(prev) {
                continue;
            }
        }
        statement(ctx, s)?;
        for key in schedule.get(i).map(|x| x.leave.as_slice()).unwrap_or(&[]) {
            ctx.vars.remove(key);
        }
        let rest = &stmts[i + 1..];
        // Inside a loop of the frame, a statement that may have returned is followed by
        // the continuing block and the next iteration even when it ends its list: the
        // flag test must come after it there too.
        if may_return(s) && ctx.live && !ctx.skipping && (!rest.is_empty() || in_frame_loop(ctx)?) {
            let flag = returned_flag(ctx)?;
            if in_frame_loop(ctx)? {
                // Leave the loop; the statements after it test the flag again.
                let id = ctx.push_if(flag);
                break_edge(ctx)?;
                ctx.push_else(id);
                let else_state = (ctx.current_block()?, ctx.vars.clone());
                ctx.pop_if(id);
                ctx.merge(vec![else_state])?;
            } else {
                let before = ctx.vars.clone();
                let id = ctx.push_if(flag);
                let then_state = (ctx.current_block()?, before.clone());
                ctx.push_else(id);
                list(ctx, rest, schedule.get(i + 1..).unwrap_or(&[]))?;
                let else_state = edge(ctx)?;
                ctx.pop_if(id);
                let mut preds = vec![then_state];
                preds.extend(else_state);
                ctx.merge(preds)?;
                ctx.skipping = false;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The edge leaving the cursor, if it is reachable: its block and state. A list that
/// returned still flows to its merge (its returned flag is set).
fn edge(
    ctx: &mut Ctx<'_>,
) -> Result<Option<(ir::Block, crate::oracle::context::VarState)>, ImportError> {
    if !ctx.live {
        return Ok(None);
    }
    Ok(Some((ctx.current_block()?, ctx.vars.clone())))
}

/// `break`: records the state for the loop's exit and jumps.
fn break_edge(ctx: &mut Ctx<'_>) -> Result<(), ImportError> {
    let b = ctx.current_block()?;
    let state = ctx.vars.clone();
    let l = ctx.loops.last_mut().ok_or_else(|| {
        ImportError::new(
            ErrorKind::Internal,
            crate::error::Location::Unknown,
            "internal error of the front end: break outside a loop",
        )
    })?;
    l.breaks.push((b, state));
    ctx.jump(Jump::Break);
    Ok(())
}

/// `continue` at the cursor: in a naga loop, its continuing block, break-if and back
/// edge; in a switch, its continue flag and a break out of it.
fn continue_stmt<'m>(ctx: &mut Ctx<'m>, jump: bool) -> Result<(), ImportError> {
    let kind = ctx
        .loops
        .last()
        .map(|l| l.kind)
        .ok_or_else(|| ctx.internal("continue outside a loop"))?;
    match kind {
        LoopKind::Switch { number } => {
            let t = ctx.imm(1, 1)?;
            ctx.vars
                .insert(VarKey::SwitchContinue(number), Val::Leaf(t));
            break_edge(ctx)
        }
        LoopKind::Real {
            continuing,
            break_if,
        } => {
            let saved_skip = ctx.skipping;
            block(ctx, continuing)?;
            ctx.skipping = saved_skip;
            if let Some(c) = break_if {
                let cond = expr::leaf(ctx, c)?;
                let id = ctx.push_if(cond);
                break_edge(ctx)?;
                ctx.push_else(id);
                let else_state = (ctx.current_block()?, ctx.vars.clone());
                ctx.pop_if(id);
                ctx.merge(vec![else_state])?;
            }
            back_edge(ctx)?;
            if jump {
                ctx.jump(Jump::Continue);
            }
            Ok(())
        }
    }
}

/// Feeds the innermost loop's header phis from the cursor's block.
fn back_edge(ctx: &mut Ctx<'_>) -> Result<(), ImportError> {
    let b = ctx.current_block()?;
    let l = ctx
        .loops
        .last()
        .ok_or_else(|| ctx.internal("a back edge outside a loop"))?;
    let header: Vec<(VarKey, Vec<ir::Value>)> = l.header.clone();
    for (key, phis) in header {
        let leaves = ctx
            .vars
            .get(&key)
            .map(Val::leaves)
            .ok_or_else(|| ctx.internal(format!("{key:?} left scope inside its loop")))?;
        if leaves.len() != phis.len() {
            return Err(ctx.internal("a variable changed shape in a loop"));
        }
        for (phi, leaf) in phis.into_iter().zip(leaves) {
            ctx.build(|bd| bd.add_phi_src(phi, b, leaf));
        }
    }
    Ok(())
}

/// Starts a loop of `kind`; for naga loops every variable gets header phis.
fn open_loop<'m>(ctx: &mut Ctx<'m>, kind: LoopKind<'m>) -> Result<(), ImportError> {
    let id = ctx.push_loop();
    let pre = ctx.block_before(id)?;
    let mut header = Vec::new();
    if let LoopKind::Real { .. } = kind {
        let vars = ctx.vars.clone();
        for (key, val) in vars {
            let mut phis = Vec::new();
            let mut leaves = Vec::new();
            for leaf in val.leaves() {
                let ty = ctx.src_type(leaf);
                let p = ctx.build(|b| b.phi(ty, &[(pre, leaf)]));
                phis.push(p);
                leaves.push(Src::new(p));
            }
            let v = val
                .with_leaves(&mut leaves.into_iter())
                .ok_or_else(|| ctx.internal("phis lost leaves"))?;
            ctx.vars.insert(key, v);
            header.push((key, phis));
        }
    }
    let frame = ctx.frame()?.id;
    ctx.loops.push(LoopCtx {
        kind,
        id,
        frame,
        header,
        breaks: Vec::new(),
    });
    Ok(())
}

/// Ends the innermost loop: the cursor moves after it and the break states merge.
fn close_loop(ctx: &mut Ctx<'_>) -> Result<(), ImportError> {
    let l = ctx
        .loops
        .pop()
        .ok_or_else(|| ctx.internal("no loop to close"))?;
    ctx.pop_loop(l.id);
    ctx.skipping = false;
    ctx.merge(l.breaks)
}

fn statement<'m>(ctx: &mut Ctx<'m>, s: &'m S) -> Result<(), ImportError> {
    match s {
        S::Emit(range) => expr::emit(ctx, range.clone()),
        S::Block(b) => block(ctx, b),
        S::If {
            condition,
            accept,
            reject,
        } => {
            let c = expr::leaf(ctx, *condition)?;
            let before = ctx.vars.clone();
            let id = ctx.push_if(c);
            block(ctx, accept)?;
            let then_state = edge(ctx)?;
            let then_skip = ctx.skipping;
            ctx.vars = before;
            (ctx.live, ctx.skipping) = (true, false);
            ctx.push_else(id);
            block(ctx, reject)?;
            let else_state = edge(ctx)?;
            let else_skip = ctx.skipping;
            ctx.pop_if(id);
            let both_skip = match (&then_state, &else_state) {
                (Some(_), Some(_)) => then_skip && else_skip,
                (Some(_), None) => then_skip,
                (None, Some(_)) => else_skip,
                (None, None) => false,
            };
            ctx.merge(then_state.into_iter().chain(else_state).collect())?;
            ctx.skipping = both_skip;
            Ok(())
        }
        S::Switch { selector, cases } => switch(ctx, *selector, cases, s),
        S::Loop {
            body,
            continuing,
            break_if,
        } => {
            open_loop(
                ctx,
                LoopKind::Real {
                    continuing,
                    break_if: *break_if,
                },
            )?;
            block(ctx, body)?;
            if ctx.live && !ctx.skipping {
                continue_stmt(ctx, false)?;
            }
            close_loop(ctx)
        }
        S::Break => break_edge(ctx),
        S::Continue => continue_stmt(ctx, true),
        S::Return { value } => {
            let id = ctx.frame()?.id;
            if let Some(v) = value {
                let val = expr::value(ctx, *v)?;
                ctx.vars.insert(VarKey::ReturnValue(id), val);
            }
            let t = ctx.imm(1, 1)?;
            ctx.vars.insert(VarKey::Returned(id), Val::Leaf(t));
            if in_frame_loop(ctx)? {
                break_edge(ctx)
            } else {
                ctx.skipping = true;
                Ok(())
            }
        }
        S::Kill => Err(ctx.unsupported("`discard`", "compute shaders have no fragments to discard")),
        S::ControlBarrier(b) | S::MemoryBarrier(b) => {
            if matches!(s, S::MemoryBarrier(_)) {
                return Err(ctx.unsupported(
                    "a memory barrier without an execution barrier (`memoryBarrier*()` alone)",
                    "the IR's only barrier also synchronizes execution, and it has no fence",
                ));
            }
            if b.contains(naga::Barrier::SUB_GROUP) && !b.contains(naga::Barrier::WORK_GROUP) {
                return Err(ctx.unsupported(
                    "a subgroup barrier (`subgroupBarrier`)",
                    "the IR has no subgroup-scoped barrier",
                ));
            }
            ctx.intrinsic(IntrinsicOp::Barrier, None, &[], &[ir::MemModes::ALL.0], None);
            Ok(())
        }
        S::Store { pointer, value } => {
            let p = expr::place(ctx, *pointer)?;
            let v = expr::value(ctx, *value)?;
            memory::store(ctx, &p, &v)
        }
        S::ImageStore {
            image: img,
            coordinate,
            array_index,
            value,
        } => {
            let iu = expr::image_use(ctx, *img)?;
            let c = expr::leaf(ctx, *coordinate)?;
            let a = array_index.map(|x| expr::leaf(ctx, x)).transpose()?;
            let v = expr::leaf(ctx, *value)?;
            let (kind, _) = ops::scalar_of(ctx, ctx.expr_type(*value)?)?;
            image::store(ctx, &iu, c, a, v, kind)
        }
        S::Atomic {
            pointer,
            fun,
            value,
            result,
        } => {
            let p = expr::place(ctx, *pointer)?;
            let (kind, _) = ops::scalar_of(ctx, ctx.expr_type(*value)?)?;
            let (aop, negate) = memory::atomic_op(ctx, fun, kind)?;
            let mut data = expr::leaf(ctx, *value)?;
            if negate {
                data = memory::negate(ctx, data, kind == naga::ScalarKind::Float)?;
            }
            let compare = match fun {
                naga::AtomicFunction::Exchange { compare: Some(c) } => Some(expr::leaf(ctx, *c)?),
                _ => None,
            };
            let old = memory::atomic(ctx, &p, aop, data, compare)?;
            if let Some(r) = result {
                let v = match compare {
                    // atomicCompareExchangeWeak's result: the old value and whether it
                    // was exchanged (equal to the comparand).
                    Some(c) => {
                        let eq = if kind == naga::ScalarKind::Float { AluOp::Feq } else { AluOp::Ieq };
                        let e = Src::new(ctx.alu(eq, &[old, c])?);
                        Val::Comp(vec![Val::Leaf(old), Val::Leaf(e)])
                    }
                    None => Val::Leaf(old),
                };
                ctx.frame_mut()?.cache.insert(*r, Cached::Val(v));
            }
            Ok(())
        }
        S::ImageAtomic {
            image: img,
            coordinate,
            array_index,
            fun,
            value,
        } => {
            let iu = expr::image_use(ctx, *img)?;
            let c = expr::leaf(ctx, *coordinate)?;
            let a = array_index.map(|x| expr::leaf(ctx, x)).transpose()?;
            let (kind, _) = ops::scalar_of(ctx, ctx.expr_type(*value)?)?;
            let (aop, negate) = memory::atomic_op(ctx, fun, kind)?;
            let mut data = expr::leaf(ctx, *value)?;
            if negate {
                data = memory::negate(ctx, data, kind == naga::ScalarKind::Float)?;
            }
            let compare = match fun {
                naga::AtomicFunction::Exchange { compare: Some(c) } => Some(expr::leaf(ctx, *c)?),
                _ => None,
            };
            image::atomic(ctx, &iu, c, a, aop, compare, data)?;
            Ok(())
        }
        S::WorkGroupUniformLoad { pointer, result } => {
            // workgroupUniformLoad: a workgroup barrier, the load, a barrier (WGSL §17.12).
            ctx.intrinsic(IntrinsicOp::Barrier, None, &[], &[ir::MemModes::ALL.0], None);
            let p = expr::place(ctx, *pointer)?;
            let v = memory::load(ctx, &p)?;
            ctx.intrinsic(IntrinsicOp::Barrier, None, &[], &[ir::MemModes::ALL.0], None);
            ctx.frame_mut()?.cache.insert(*result, Cached::Val(v));
            Ok(())
        }
        S::Call {
            function,
            arguments,
            result,
        } => call(ctx, *function, arguments, *result),
        S::RayQuery { .. } | S::RayPipelineFunction(_) => {
            Err(ctx.unsupported("a ray query", "the IR has no ray tracing"))
        }
        S::SubgroupBallot { .. } => Err(ctx.unsupported(
            "a subgroup ballot (`subgroupBallot`)",
            "the IR has no cross-lane operations",
        )),
        S::SubgroupGather { mode, .. } => Err(ctx.unsupported(
            &format!("a subgroup gather ({mode:?}: `subgroupBroadcast`, `subgroupShuffle`, ...)"),
            "the IR has no cross-lane operations",
        )),
        S::SubgroupCollectiveOperation { op, collective_op, .. } => Err(ctx.unsupported(
            &format!("a subgroup operation ({op:?} {collective_op:?}: `subgroupAdd`, `subgroupAll`, ...)"),
            "the IR has no cross-lane operations",
        )),
        S::CooperativeStore { .. } => Err(ctx.unsupported(
            "a cooperative matrix store",
            "the IR has no matrix engine operations",
        )),
    }
}

/// A `switch` as a loop that runs once.
fn switch<'m>(
    ctx: &mut Ctx<'m>,
    selector: Handle<naga::Expression>,
    cases: &'m [naga::SwitchCase],
    s: &S,
) -> Result<(), ImportError> {
    let sel = expr::leaf(ctx, selector)?;
    let bits = ctx.src_type(sel).bit_size();
    let number = ctx.next_switch;
    ctx.next_switch += 1;
    // The entry condition of every case, computed before the loop.
    let mut entries = Vec::with_capacity(cases.len());
    let mut any: Option<Src> = None;
    for c in cases {
        let v = match c.value {
            naga::SwitchValue::I32(v) => Some(v as u32 as u64),
            naga::SwitchValue::U32(v) => Some(v as u64),
            naga::SwitchValue::Default => None,
        };
        entries.push(match v {
            Some(v) => {
                let k = ctx.imm(bits, v)?;
                let eq = Src::new(ctx.alu(AluOp::Ieq, &[sel, k])?);
                any = Some(match any {
                    Some(a) => Src::new(ctx.alu(AluOp::Ior, &[a, eq])?),
                    None => eq,
                });
                Some(eq)
            }
            None => None,
        });
    }
    let default_entry = match any {
        Some(a) => Src::new(ctx.alu(AluOp::Inot, &[a])?),
        None => ctx.imm(1, 1)?,
    };
    let has_continue = may_continue(s);
    let f = ctx.imm(1, 0)?;
    ctx.vars.insert(VarKey::SwitchTaken(number), Val::Leaf(f));
    if has_continue {
        ctx.vars
            .insert(VarKey::SwitchContinue(number), Val::Leaf(f));
    }
    open_loop(ctx, LoopKind::Switch { number })?;
    for (c, entry) in cases.iter().zip(entries) {
        if !ctx.live {
            break;
        }
        let entry = entry.unwrap_or(default_entry);
        let taken = ctx
            .vars
            .get(&VarKey::SwitchTaken(number))
            .and_then(Val::leaf)
            .ok_or_else(|| ctx.internal("a switch without its taken flag"))?;
        let cond = Src::new(ctx.alu(AluOp::Ior, &[taken, entry])?);
        let before = ctx.vars.clone();
        let id = ctx.push_if(cond);
        let t = ctx.imm(1, 1)?;
        ctx.vars.insert(VarKey::SwitchTaken(number), Val::Leaf(t));
        block(ctx, &c.body)?;
        if ctx.live && !ctx.skipping && !c.fall_through {
            break_edge(ctx)?;
        }
        let then_state = edge(ctx)?;
        ctx.vars = before;
        (ctx.live, ctx.skipping) = (true, false);
        ctx.push_else(id);
        let else_state = edge(ctx)?;
        ctx.pop_if(id);
        ctx.merge(then_state.into_iter().chain(else_state).collect())?;
    }
    if ctx.live {
        break_edge(ctx)?;
    }
    close_loop(ctx)?;
    ctx.vars.remove(&VarKey::SwitchTaken(number));
    if has_continue && ctx.live {
        let flag = ctx
            .vars
            .remove(&VarKey::SwitchContinue(number))
            .and_then(|v| v.leaf())
            .ok_or_else(|| ctx.internal("a switch lost its continue flag"))?;
        // The continuing block the `continue` runs changes the variables on its own
        // path only: the other path goes on with the state before it.
        let before = ctx.vars.clone();
        let id = ctx.push_if(flag);
        continue_stmt(ctx, true)?;
        ctx.vars = before;
        ctx.push_else(id);
        let else_state = (ctx.current_block()?, ctx.vars.clone());
        ctx.pop_if(id);
        ctx.merge(vec![else_state])?;
    }
    Ok(())
}

/// Inlines a call.
fn call<'m>(
    ctx: &mut Ctx<'m>,
    function: Handle<naga::Function>,
    arguments: &[Handle<naga::Expression>],
    result: Option<Handle<naga::Expression>>,
) -> Result<(), ImportError> {
    if ctx.frames.len() >= MAX_INLINE_DEPTH {
        return Err(ctx.error(
            ErrorKind::Limit,
            format!("calls nest more than {MAX_INLINE_DEPTH} deep; the IR inlines every call"),
        ));
    }
    let module = ctx.module;
    let callee = &module.functions[function];
    let info = &ctx.info[function];
    let mut args = Vec::with_capacity(arguments.len());
    for &a in arguments {
        args.push(expr::get(ctx, a)?);
    }
    let id = ctx.next_frame;
    ctx.next_frame += 1;
    let loop_base = ctx.loops.len();
    ctx.frames.push(Frame {
        id,
        function: callee,
        info,
        cache: Default::default(),
        args,
        loop_base,
    });
    start_frame(ctx, callee)?;
    body(ctx, callee)?;
    ctx.skipping = false;
    let rv = ctx.vars.remove(&VarKey::ReturnValue(id));
    ctx.vars.retain(|k, _| match k {
        VarKey::Local(f, _) | VarKey::Returned(f) => *f != id,
        _ => true,
    });
    ctx.frames.pop();
    if let Some(r) = result {
        let v = rv.ok_or_else(|| ctx.internal("a call result without a return value"))?;
        ctx.frame_mut()?.cache.insert(r, Cached::Val(v));
    }
    Ok(())
}

/// Initializes the innermost frame's returned flag and return value (its locals enter
/// the state where [`body`] first needs them).
pub fn start_frame<'m>(ctx: &mut Ctx<'m>, f: &'m naga::Function) -> Result<(), ImportError> {
    let id = ctx.frame()?.id;
    let no = ctx.imm(1, 0)?;
    ctx.vars.insert(VarKey::Returned(id), Val::Leaf(no));
    if let Some(r) = &f.result {
        let inner = ctx.module.types[r.ty].inner.clone();
        let u = ctx.undef_of(&inner)?;
        ctx.vars.insert(VarKey::ReturnValue(id), u);
    }
    Ok(())
}
