//! Functions and structured control flow (Mesa's `vtn_cfg.c` and
//! `vtn_structured_cfg.c`): SPIR-V's blocks, with their `OpSelectionMerge` and
//! `OpLoopMerge` declarations, become the IR's tree of `if`s and loops; calls are
//! inlined.
//!
//! The walk follows the blocks from a function's entry. Each branch target is either a
//! block of the current construct, translated next, or an *exit* of an enclosing
//! construct: its merge (the end of a selection, a `break` of a loop or switch), a
//! loop's continue target (`continue`), a loop's header from its continue construct
//! (the back edge), the next case of a switch (fall-through), or the function's end
//! (`OpReturn`).
//!
//! * A selection becomes an `if`; the walk goes on at its merge block.
//! * A loop becomes a loop whose body runs the header and the body blocks. When the
//!   continue target has one predecessor, the continue construct is translated where
//!   that branch is and ends with the back edge (`continue`); when it has several, the
//!   body sits in an inner loop that runs once, a `continue` breaks that loop, and the
//!   continue construct follows it (a `break` of the real loop then takes a flag, see
//!   below).
//! * A switch becomes a loop that runs once: each case target, in the function's block
//!   order, runs when the selector matches one of its literals (or none, for the
//!   default) or when the case before fell through; a branch to the merge breaks it.
//! * `OpPhi` becomes a promoted variable set on each edge into its block.
//! * An exit that leaves more than one level of the IR's control flow without a jump
//!   the IR has (a `break` out of a loop through a switch, a `return` from inside
//!   constructs, a branch to an outer selection's merge) sets a flag and ends its path;
//!   after each construct it left, the flag is tested and the exit taken again from
//!   there (NIR's `nir_lower_returns` does the same for returns); a path that took no
//!   exit runs the rest.
//!
//! Each block is translated at most once per call; a branch back to a translated block
//! that is not a loop header, or to a block outside the function, is an error naming
//! the block: the control flow is not structured.

use super::context::{
    Construct, ConstructKind, Ctx, Frame, Pending, MAX_INLINE_DEPTH, MAX_NESTING,
};
use super::function;
use super::module::{Id, Merge};
use super::op;
use super::value::{ExitKind, Val, Value, VarKey};
use crate::error::{ErrorKind, ImportError};
use std::collections::BTreeSet;

/// The terminator of a block, decoded.
enum Term {
    Branch(Id),
    Cond(Id, Id, Id),
    Switch {
        sel: Id,
        default: Id,
        cases: Vec<(u64, Id)>,
    },
    Return(Option<Id>),
    Unreachable,
    Kill(u16),
}

/// Decodes block `bi`'s terminator.
fn terminator(ctx: &Ctx<'_>, fi: usize, bi: usize) -> Result<Term, ImportError> {
    let m = ctx.m;
    let blk = &m.functions[fi].blocks[bi];
    let i = blk.terminator;
    let inst = m.insts[i];
    let ops = m.ops(i);
    let short = || {
        m.error(
            i,
            ErrorKind::Parse,
            format!("{} has too few operands", op::name(inst.opcode)),
        )
    };
    Ok(match inst.opcode {
        op::BRANCH => Term::Branch(*ops.first().ok_or_else(short)?),
        op::BRANCH_CONDITIONAL => {
            let [c, t, f, ..] = ops else {
                return Err(short());
            };
            Term::Cond(*c, *t, *f)
        }
        op::SWITCH => {
            let [sel, default, rest @ ..] = ops else {
                return Err(short());
            };
            // Literals are as wide as the selector: one word, or two for 64 bits.
            let wide = ctx
                .type_of(*sel)
                .and_then(|t| ctx.d.types.ir_type(t))
                .is_some_and(|t| t.bit_size() == 64);
            let step = if wide { 3 } else { 2 };
            if rest.len() % step != 0 {
                return Err(m.error(
                    i,
                    ErrorKind::Parse,
                    "OpSwitch's (literal, label) pairs do not fit its selector's width",
                ));
            }
            let cases = rest
                .chunks_exact(step)
                .map(|c| {
                    if wide {
                        (c[0] as u64 | (c[1] as u64) << 32, c[2])
                    } else {
                        (c[0] as u64, c[1])
                    }
                })
                .collect();
            Term::Switch {
                sel: *sel,
                default: *default,
                cases,
            }
        }
        op::RETURN => Term::Return(None),
        op::RETURN_VALUE => Term::Return(Some(*ops.first().ok_or_else(short)?)),
        op::UNREACHABLE => Term::Unreachable,
        other => Term::Kill(other),
    })
}

/// The index of block `label` in the current frame's function.
fn block_index(ctx: &Ctx<'_>, label: Id) -> Result<usize, ImportError> {
    let fi = ctx.frame()?.func;
    match ctx.m.blocks.get(&label) {
        Some(&(f, b)) if f as usize == fi => Ok(b as usize),
        _ => Err(ctx.invalid(format!("%{label} is not a block of this function"))),
    }
}

/// What a branch to `target` means from the current position: an exit of an
/// enclosing construct (its index and kind), or `None` for a block to translate.
fn classify(ctx: &Ctx<'_>, target: Id) -> Result<Option<(usize, ExitKind)>, ImportError> {
    let f = ctx.frame()?;
    for (k, c) in f.constructs.iter().enumerate().rev() {
        match &c.kind {
            ConstructKind::Frame => {}
            ConstructKind::Selection { merge } => {
                if target == *merge {
                    return Ok(Some((k, ExitKind::Merge)));
                }
            }
            ConstructKind::Loop {
                header,
                merge,
                cont,
                in_continue,
                ..
            } => {
                if target == *merge {
                    return Ok(Some((k, ExitKind::Merge)));
                }
                if target == *header {
                    return Ok(Some((k, ExitKind::BackEdge)));
                }
                if target == *cont && !*in_continue {
                    return Ok(Some((k, ExitKind::Continue)));
                }
            }
            ConstructKind::Switch { merge, cases, .. } => {
                if target == *merge {
                    return Ok(Some((k, ExitKind::Merge)));
                }
                if cases.contains(&target) {
                    return Ok(Some((k, ExitKind::Fallthrough)));
                }
            }
        }
    }
    Ok(None)
}

/// The phi variables of the edge `from -> to`: each `OpPhi` of `to` takes its value
/// for `from`.
fn phi_edge(ctx: &mut Ctx<'_>, from: Id, to: Id) -> Result<(), ImportError> {
    let Some(&(f, b)) = ctx.m.blocks.get(&to) else {
        return Ok(());
    };
    let frame = ctx.frame()?.id;
    let blk = &ctx.m.functions[f as usize].blocks[b as usize];
    let mut i = blk.first + 1;
    while i < blk.terminator {
        match ctx.m.insts[i].opcode {
            op::LINE | op::NO_LINE => {}
            op::PHI => {
                let ops = ctx.m.ops(i);
                if let [_, id, pairs @ ..] = ops {
                    let id = *id;
                    if let Some(p) = pairs.chunks_exact(2).find(|p| p[1] == from) {
                        let saved = ctx.inst;
                        ctx.at(i);
                        let v = ctx.val(p[0])?;
                        ctx.inst = saved;
                        ctx.set_var(VarKey::Phi(frame, id), v)?;
                    }
                }
            }
            _ => break,
        }
        i += 1;
    }
    Ok(())
}

/// Translates the blocks from `start` on until every path leaves through an exit.
pub fn walk(ctx: &mut Ctx<'_>, start: Id) -> Result<(), ImportError> {
    walk_from(ctx, start, true)
}

/// [`walk`], where the first block is translated without asking whether a branch to
/// it would leave a construct (a switch's case target is one).
fn walk_from(ctx: &mut Ctx<'_>, start: Id, classify_first: bool) -> Result<(), ImportError> {
    ctx.depth += 1;
    if ctx.depth > MAX_NESTING {
        return Err(ctx.error(
            ErrorKind::Limit,
            format!("constructs nest more than {MAX_NESTING} deep"),
        ));
    }
    let r = walk_inner(ctx, start, classify_first);
    ctx.depth -= 1;
    r
}

fn walk_inner(ctx: &mut Ctx<'_>, start: Id, classify_first: bool) -> Result<(), ImportError> {
    let mut label = start;
    let mut first = true;
    loop {
        if !ctx.live {
            return Ok(());
        }
        if !first || classify_first {
            if let Some((k, kind)) = classify(ctx, label)? {
                return exit(ctx, k, kind, label);
            }
        }
        first = false;
        let bi = block_index(ctx, label)?;
        let fi = ctx.frame()?.func;
        let blk = ctx.m.functions[fi].blocks[bi].clone();
        ctx.at(blk.first);
        {
            let f = ctx.frame_mut()?;
            if f.emitted[bi] {
                return Err(ctx.invalid(format!(
                    "the control flow is not structured: block %{label} is reached again from outside \
                     a loop's back edge"
                )));
            }
            f.emitted[bi] = true;
        }
        ctx.check_budget()?;
        if let Some(Merge::Loop { merge, cont }) = blk.merge {
            match emit_loop(ctx, fi, bi, merge, cont)? {
                Some(next) => {
                    label = next;
                    continue;
                }
                None => return Ok(()),
            }
        }
        body(ctx, fi, bi)?;
        match next_of(ctx, fi, bi, blk.merge)? {
            Some(next) => label = next,
            None => return Ok(()),
        }
    }
}

/// Translates the instructions of block `bi` (its phis, then everything before the
/// merge instruction and terminator); calls are inlined here.
fn body(ctx: &mut Ctx<'_>, fi: usize, bi: usize) -> Result<(), ImportError> {
    let blk = ctx.m.functions[fi].blocks[bi].clone();
    let frame = ctx.frame()?.id;
    for i in blk.first + 1..blk.terminator {
        if !ctx.live {
            return Ok(());
        }
        ctx.at(i);
        let opcode = ctx.m.insts[i].opcode;
        match opcode {
            op::PHI => {
                let ops = ctx.m.ops(i);
                let [ty, id, ..] = ops else {
                    return Err(ctx.invalid("OpPhi has too few operands"));
                };
                let (ty, id) = (*ty, *id);
                let v = match ctx.var(VarKey::Phi(frame, id))? {
                    Some(v) => v.clone(),
                    None => ctx.undef_of(ty)?,
                };
                ctx.set(id, Value::Val(v))?;
            }
            op::SELECTION_MERGE | op::LOOP_MERGE => {}
            _ if opcode == spirv::Op::FunctionCall as u16 => call(ctx, i)?,
            _ => function::instruction(ctx, i)?,
        }
    }
    Ok(())
}

/// Handles block `bi`'s terminator after its body: returns the block the walk goes
/// on with, or `None` when every path has left.
fn next_of(
    ctx: &mut Ctx<'_>,
    fi: usize,
    bi: usize,
    merge: Option<Merge>,
) -> Result<Option<Id>, ImportError> {
    if !ctx.live {
        return Ok(None);
    }
    let blk = ctx.m.functions[fi].blocks[bi].clone();
    ctx.at(blk.terminator);
    let from = blk.label;
    match terminator(ctx, fi, bi)? {
        Term::Branch(t) => {
            phi_edge(ctx, from, t)?;
            Ok(Some(t))
        }
        Term::Cond(c, t, f) => {
            let cond = ctx.leaf(c)?;
            if ctx.func.src_type(cond) != ir::Type::BOOL {
                return Err(ctx.invalid("OpBranchConditional's condition is not a boolean"));
            }
            match merge {
                Some(Merge::Selection { merge }) => selection(ctx, from, cond, t, f, merge),
                _ => {
                    // A conditional branch without a merge of its own (a loop header's,
                    // or a conditional break or continue): each side is walked in its
                    // arm of an `if`, and the walk ends there.
                    let id = ctx.push_if(cond);
                    let cp = ctx.vars.checkpoint();
                    phi_edge(ctx, from, t)?;
                    walk(ctx, t)?;
                    let then_state = ctx.edge(cp)?;
                    ctx.vars.rewind(cp);
                    ctx.live = true;
                    ctx.push_else(id);
                    phi_edge(ctx, from, f)?;
                    walk(ctx, f)?;
                    let else_state = ctx.edge(cp)?;
                    ctx.pop_if(id);
                    ctx.merge(cp, then_state.into_iter().chain(else_state).collect())?;
                    Ok(None)
                }
            }
        }
        Term::Switch {
            sel,
            default,
            cases,
        } => {
            let Some(Merge::Selection { merge }) = merge else {
                return Err(ctx.invalid("OpSwitch without an OpSelectionMerge before it"));
            };
            switch(ctx, fi, from, sel, default, &cases, merge)
        }
        Term::Return(v) => {
            let frame = ctx.frame()?.id;
            if let Some(v) = v {
                let val = ctx.val(v)?;
                ctx.set_var(VarKey::ReturnValue(frame), val)?;
            }
            let t = ctx.bool(true);
            ctx.set_var(VarKey::Returned(frame), Val::Leaf(t))?;
            exit(ctx, 0, ExitKind::Return, 0)?;
            Ok(None)
        }
        Term::Unreachable => {
            ctx.live = false;
            Ok(None)
        }
        Term::Kill(o) => Err(match o {
            op::KILL | op::TERMINATE_INVOCATION => ctx.unsupported(
                &format!("{} (`discard`)", op::name(o)),
                "compute shaders have no fragments to discard",
            ),
            _ => ctx.unsupported(&op::name(o), "compute shaders have no such terminator"),
        }),
    }
}

/// Opens a construct of `kind` at the current IR level.
fn push_construct(
    ctx: &mut Ctx<'_>,
    kind: ConstructKind,
    ir_level: usize,
) -> Result<(), ImportError> {
    let uid = ctx.next_uid;
    ctx.next_uid += 1;
    ctx.frame_mut()?.constructs.push(Construct {
        uid,
        kind,
        ir_level,
        pending: BTreeSet::new(),
    });
    Ok(())
}

/// Closes the innermost construct, returning its pending exits.
fn pop_construct(ctx: &mut Ctx<'_>) -> Result<Construct, ImportError> {
    let Some(c) = ctx.frame_mut()?.constructs.pop() else {
        return Err(ctx.internal("no construct to close"));
    };
    // Its flags end with it.
    for kind in [
        ExitKind::Merge,
        ExitKind::Continue,
        ExitKind::BackEdge,
        ExitKind::Fallthrough,
        ExitKind::Return,
    ] {
        let key = VarKey::Exit(c.uid, kind);
        if ctx.vars.get(&key).is_some() {
            ctx.vars.set(key, None);
        }
    }
    Ok(c)
}

/// A selection: `if cond { t... } else { f... }`, then the merge block.
fn selection(
    ctx: &mut Ctx<'_>,
    from: Id,
    cond: ir::Src,
    t: Id,
    f: Id,
    merge: Id,
) -> Result<Option<Id>, ImportError> {
    let level = ctx.loops.len();
    push_construct(ctx, ConstructKind::Selection { merge }, level)?;
    let cp = ctx.vars.checkpoint();
    let id = ctx.push_if(cond);
    phi_edge(ctx, from, t)?;
    walk(ctx, t)?;
    let then_state = ctx.edge(cp)?;
    ctx.vars.rewind(cp);
    ctx.live = true;
    ctx.push_else(id);
    phi_edge(ctx, from, f)?;
    walk(ctx, f)?;
    let else_state = ctx.edge(cp)?;
    ctx.pop_if(id);
    let c = pop_construct(ctx)?;
    ctx.merge(cp, then_state.into_iter().chain(else_state).collect())?;
    after(ctx, c.pending, merge)
}

/// After a construct closed: with pending exits, tests their flags and takes them
/// (the rest of the walk then runs where none is set); else the walk goes on at
/// `merge`.
fn after(
    ctx: &mut Ctx<'_>,
    pending: BTreeSet<Pending>,
    merge: Id,
) -> Result<Option<Id>, ImportError> {
    if !ctx.live {
        return Ok(None);
    }
    if pending.is_empty() {
        return Ok(Some(merge));
    }
    let list: Vec<Pending> = pending.into_iter().collect();
    dispatch(ctx, &list, &mut |ctx| walk(ctx, merge))?;
    Ok(None)
}

/// `if flag0 { exit0 } else if flag1 { exit1 } ... else { otherwise }`: the exits
/// `list` took, each under its flag, and what follows when none did.
fn dispatch<'m>(
    ctx: &mut Ctx<'m>,
    list: &[Pending],
    otherwise: &mut dyn FnMut(&mut Ctx<'m>) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    let Some((&(k, kind, target), rest)) = list.split_first() else {
        return otherwise(ctx);
    };
    let key = flag_key(ctx, k, kind)?;
    let flag = match ctx.var(key)?.and_then(Val::leaf) {
        Some(f) => f,
        None => ctx.bool(false),
    };
    let cp = ctx.vars.checkpoint();
    let id = ctx.push_if(flag);
    exit(ctx, k, kind, target)?;
    let then_state = ctx.edge(cp)?;
    ctx.vars.rewind(cp);
    ctx.live = true;
    ctx.push_else(id);
    dispatch(ctx, rest, otherwise)?;
    let else_state = ctx.edge(cp)?;
    ctx.pop_if(id);
    ctx.merge(cp, then_state.into_iter().chain(else_state).collect())
}

/// The flag of an exit of construct `k`.
fn flag_key(ctx: &Ctx<'_>, k: usize, kind: ExitKind) -> Result<VarKey, ImportError> {
    let f = ctx.frame()?;
    if kind == ExitKind::Return {
        return Ok(VarKey::Returned(f.id));
    }
    let c = f
        .constructs
        .get(k)
        .ok_or_else(|| ctx.internal("an exit of a closed construct"))?;
    Ok(VarKey::Exit(c.uid, kind))
}

/// Where an exit lands.
enum Landing {
    /// The path ends where the construct's own blocks end (an `if` arm, a case).
    Normal,
    /// A `break` of an IR loop.
    Break(usize),
    /// A `continue` of an IR loop (the back edge).
    Continue(usize),
    /// The continue construct, translated where the branch to it is.
    InlineContinue,
}

/// Takes the exit `kind` of construct `k` (towards `target`) from the cursor.
fn exit(ctx: &mut Ctx<'_>, k: usize, kind: ExitKind, target: Id) -> Result<(), ImportError> {
    let f = ctx.frame()?;
    let innermost = f.constructs.len() - 1;
    let c = f
        .constructs
        .get(k)
        .ok_or_else(|| ctx.internal("an exit of a closed construct"))?
        .clone();
    let landing = match (&c.kind, kind) {
        (ConstructKind::Frame, ExitKind::Return) => Landing::Normal,
        (ConstructKind::Selection { .. }, ExitKind::Merge) => Landing::Normal,
        (ConstructKind::Switch { ir_loop, .. }, ExitKind::Merge) => Landing::Break(*ir_loop),
        (ConstructKind::Switch { cases, current, .. }, ExitKind::Fallthrough) => {
            if cases.get(current + 1) != Some(&target) {
                return Err(ctx.invalid(format!(
                    "a case of a switch falls through to %{target}, which is not the next case"
                )));
            }
            Landing::Normal
        }
        (ConstructKind::Loop { outer, .. }, ExitKind::Merge) => Landing::Break(*outer),
        (ConstructKind::Loop { outer, .. }, ExitKind::BackEdge) => Landing::Continue(*outer),
        (
            ConstructKind::Loop {
                wrapper: Some(w), ..
            },
            ExitKind::Continue,
        ) => Landing::Break(*w),
        (
            ConstructKind::Loop {
                header,
                cont,
                outer,
                ..
            },
            ExitKind::Continue,
        ) if header == cont => Landing::Continue(*outer),
        (ConstructKind::Loop { .. }, ExitKind::Continue) => Landing::InlineContinue,
        _ => return Err(ctx.internal("an exit that does not fit its construct")),
    };
    let level = match landing {
        Landing::Break(l) | Landing::Continue(l) => l + 1,
        Landing::Normal | Landing::InlineContinue => c.ir_level,
    };
    let key = flag_key(ctx, k, kind)?;
    if ctx.loops.len() > level {
        // IR loops lie between: flag, break the innermost, and take the exit again
        // after it.
        let t = ctx.bool(true);
        ctx.set_var(key, Val::Leaf(t))?;
        let inner = ctx.loops.len() - 1;
        ctx.loops[inner].pending.insert((k, kind, target));
        return ctx.break_loop(inner);
    }
    if kind != ExitKind::Return && ctx.var(key)?.is_some() {
        let f = ctx.bool(false);
        ctx.set_var(key, Val::Leaf(f))?;
    }
    match landing {
        Landing::Break(l) => ctx.break_loop(l),
        Landing::Continue(l) => ctx.continue_loop(l),
        Landing::InlineContinue => continue_construct(ctx, k),
        Landing::Normal if k == innermost => Ok(()),
        Landing::Normal => {
            // Only `if`s lie between: flag, and end the path at the innermost one's end.
            let t = ctx.bool(true);
            ctx.set_var(key, Val::Leaf(t))?;
            let Some(c) = ctx.frame_mut()?.constructs.last_mut() else {
                return Err(ctx.internal("no construct"));
            };
            c.pending.insert((k, kind, target));
            Ok(())
        }
    }
}

/// Translates loop `k`'s continue construct from the cursor, as if the constructs
/// inside the loop were not open: it ends with the back edge or a `break`.
fn continue_construct(ctx: &mut Ctx<'_>, k: usize) -> Result<(), ImportError> {
    let f = ctx.frame_mut()?;
    let inner: Vec<Construct> = f.constructs.drain(k + 1..).collect();
    let cont = match &mut f.constructs[k].kind {
        ConstructKind::Loop {
            cont, in_continue, ..
        } => {
            *in_continue = true;
            *cont
        }
        _ => return Err(ctx.internal("a continue construct of a non-loop")),
    };
    let r = walk(ctx, cont);
    let f = ctx.frame_mut()?;
    if let Some(ConstructKind::Loop { in_continue, .. }) =
        f.constructs.get_mut(k).map(|c| &mut c.kind)
    {
        *in_continue = false;
    }
    f.constructs.extend(inner);
    r?;
    if ctx.live {
        return Err(ctx
            .invalid("a loop's continue construct does not end with a branch back to its header"));
    }
    Ok(())
}

/// A loop whose header is block `bi`; returns the block after it, if reachable.
fn emit_loop(
    ctx: &mut Ctx<'_>,
    fi: usize,
    bi: usize,
    merge: Id,
    cont: Id,
) -> Result<Option<Id>, ImportError> {
    let header = ctx.m.functions[fi].blocks[bi].label;
    let outer = ctx.open_loop(true)?;
    let cont_index = block_index(ctx, cont)?;
    let preds = ctx.frame()?.preds.get(cont_index).copied().unwrap_or(0);
    let wrapper = if cont != header && preds > 1 {
        Some(ctx.open_loop(false)?)
    } else {
        None
    };
    push_construct(
        ctx,
        ConstructKind::Loop {
            header,
            merge,
            cont,
            outer,
            wrapper,
            in_continue: false,
        },
        ctx.loops.len(),
    )?;
    // The header and the body.
    body(ctx, fi, bi)?;
    if let Some(next) = next_of(ctx, fi, bi, None)? {
        walk(ctx, next)?;
    }
    if ctx.live {
        return Err(ctx.invalid(format!(
            "a path of the loop at %{header} neither continues nor leaves it"
        )));
    }
    if wrapper.is_some() {
        // The body's `continue`s broke the one-trip loop: the continue construct runs
        // after it, unless a flag says the path is leaving the loop altogether.
        let pending = ctx.close_loop()?;
        let k = ctx.frame()?.constructs.len() - 1;
        if let Some(ConstructKind::Loop { wrapper, .. }) =
            ctx.frame_mut()?.constructs.last_mut().map(|c| &mut c.kind)
        {
            *wrapper = None;
        }
        ctx.frame_mut()?.constructs[k].ir_level = ctx.loops.len();
        if ctx.live {
            let list: Vec<Pending> = pending.into_iter().collect();
            // The exits that broke the one-trip loop around the body, then the
            // continue construct.
            dispatch(ctx, &list, &mut |ctx| continue_construct(ctx, k))?;
        }
        if ctx.live {
            return Err(ctx.invalid(
                "a loop's continue construct does not end with a branch back to its header",
            ));
        }
    }
    let c = pop_construct(ctx)?;
    let pending = ctx.close_loop()?;
    let mut all = c.pending;
    all.extend(pending);
    after(ctx, all, merge)
}

/// A switch: a loop that runs once, each case in an `if` of its own.
fn switch(
    ctx: &mut Ctx<'_>,
    fi: usize,
    from: Id,
    sel: Id,
    default: Id,
    cases: &[(u64, Id)],
    merge: Id,
) -> Result<Option<Id>, ImportError> {
    let s = ctx.leaf(sel)?;
    let st = ctx.func.src_type(s);
    if st.num_components() != 1 || st.bit_size() < 8 {
        return Err(ctx.invalid("OpSwitch's selector is not an integer scalar"));
    }
    // The targets other than the merge, in the function's block order.
    let mut targets: Vec<Id> = Vec::new();
    for t in std::iter::once(default).chain(cases.iter().map(|c| c.1)) {
        if t != merge && !targets.contains(&t) {
            targets.push(t);
        }
    }
    let mut order = Vec::with_capacity(targets.len());
    for t in &targets {
        order.push((block_index(ctx, *t)?, *t));
    }
    order.sort();
    let targets: Vec<Id> = order.into_iter().map(|(_, t)| t).collect();
    let _ = fi;
    // Entry conditions, computed before the switch.
    let mut any: Option<ir::Src> = None;
    let mut entries = Vec::with_capacity(targets.len());
    for t in &targets {
        let mut cond: Option<ir::Src> = None;
        for (lit, _) in cases.iter().filter(|c| c.1 == *t) {
            let k = ctx.load_const(st, &[*lit & ir::types::bit_mask(st.bit_size())]);
            let eq = ctx.alu(ir::AluOp::Ieq, &[s, k])?;
            cond = Some(match cond {
                Some(c) => ctx.alu(ir::AluOp::Ior, &[c, eq])?,
                None => eq,
            });
        }
        entries.push(cond);
    }
    for (lit, _) in cases {
        let k = ctx.load_const(st, &[*lit & ir::types::bit_mask(st.bit_size())]);
        let eq = ctx.alu(ir::AluOp::Ieq, &[s, k])?;
        any = Some(match any {
            Some(a) => ctx.alu(ir::AluOp::Ior, &[a, eq])?,
            None => eq,
        });
    }
    let default_entry = match any {
        Some(a) => ctx.alu(ir::AluOp::Inot, &[a])?,
        None => ctx.bool(true),
    };
    // The header's edges into every target (a fall-through edge overrides its own).
    for t in targets.iter().chain(std::iter::once(&merge)) {
        phi_edge(ctx, from, *t)?;
    }
    let ir_loop = ctx.open_loop(false)?;
    push_construct(
        ctx,
        ConstructKind::Switch {
            merge,
            ir_loop,
            cases: targets.clone(),
            current: 0,
        },
        ctx.loops.len(),
    )?;
    let uid = ctx.frame()?.constructs.last().map_or(0, |c| c.uid);
    let taken_key = VarKey::Taken(uid);
    let no = ctx.bool(false);
    ctx.set_var(taken_key, Val::Leaf(no))?;
    for (n, t) in targets.iter().enumerate() {
        if !ctx.live {
            break;
        }
        if let Some(ConstructKind::Switch { current, .. }) =
            ctx.frame_mut()?.constructs.last_mut().map(|c| &mut c.kind)
        {
            *current = n;
        }
        let entry = match entries[n] {
            Some(e) if *t == default => ctx.alu(ir::AluOp::Ior, &[e, default_entry])?,
            Some(e) => e,
            None => default_entry,
        };
        let taken = match ctx.var(taken_key)?.and_then(Val::leaf) {
            Some(t) => t,
            None => ctx.bool(false),
        };
        let cond = ctx.alu(ir::AluOp::Ior, &[taken, entry])?;
        let cp = ctx.vars.checkpoint();
        let id = ctx.push_if(cond);
        let yes = ctx.bool(true);
        ctx.set_var(taken_key, Val::Leaf(yes))?;
        walk_from(ctx, *t, false)?;
        let then_state = ctx.edge(cp)?;
        ctx.vars.rewind(cp);
        ctx.live = true;
        ctx.push_else(id);
        let else_state = ctx.edge(cp)?;
        ctx.pop_if(id);
        ctx.merge(cp, then_state.into_iter().chain(else_state).collect())?;
    }
    if ctx.live {
        ctx.break_loop(ir_loop)?;
    }
    let c = pop_construct(ctx)?;
    let pending = ctx.close_loop()?;
    ctx.vars.set(taken_key, None);
    let mut all = c.pending;
    all.extend(pending);
    after(ctx, all, merge)
}

/// How many branches lead to each block of function `fi`.
fn predecessors(ctx: &Ctx<'_>, fi: usize) -> Vec<u32> {
    let m = ctx.m;
    let f = &m.functions[fi];
    let mut preds = vec![0u32; f.blocks.len()];
    for b in &f.blocks {
        let ops = m.ops(b.terminator);
        let targets: Vec<Id> = match m.insts[b.terminator].opcode {
            op::BRANCH => ops.first().copied().into_iter().collect(),
            op::BRANCH_CONDITIONAL => ops.get(1..3).map(|s| s.to_vec()).unwrap_or_default(),
            op::SWITCH => {
                // The literal width does not matter for counting: every label is an
                // operand, so count the words that name blocks of this function after
                // the default.
                let mut v: Vec<Id> = ops.get(1).copied().into_iter().collect();
                v.extend(ops.iter().skip(2).copied().filter(|w| matches!(m.blocks.get(w), Some(&(fi2, _)) if fi2 as usize == ctx.frame().map_or(usize::MAX, |fr| fr.func))));
                v
            }
            _ => Vec::new(),
        };
        let mut seen = Vec::new();
        for t in targets {
            if seen.contains(&t) {
                continue;
            }
            seen.push(t);
            if let Some(&(f2, bi)) = m.blocks.get(&t) {
                if f2 as usize == fi {
                    preds[bi as usize] += 1;
                }
            }
        }
    }
    preds
}

/// Translates function `fi` as a new frame: its parameters take `args`; returns
/// the value it returns.
pub fn run_function(
    ctx: &mut Ctx<'_>,
    fi: usize,
    args: Vec<Value>,
) -> Result<Option<Val>, ImportError> {
    if ctx.frames.len() >= MAX_INLINE_DEPTH {
        return Err(ctx.error(
            ErrorKind::Limit,
            format!("calls nest more than {MAX_INLINE_DEPTH} deep; the IR inlines every call"),
        ));
    }
    if ctx.frames.iter().any(|f| f.func == fi) {
        return Err(ctx.invalid("a function calls itself (recursion is not allowed in shaders)"));
    }
    let fdef = &ctx.m.functions[fi];
    if fdef.params.len() != args.len() {
        return Err(ctx.invalid(format!(
            "the call passes {} arguments to a function of {} parameters",
            args.len(),
            fdef.params.len()
        )));
    }
    let entry = fdef
        .blocks
        .first()
        .map(|b| b.label)
        .ok_or_else(|| ctx.invalid("a function without blocks is called"))?;
    let params = fdef.params.clone();
    let id = ctx.next_uid;
    ctx.next_uid += 1;
    ctx.frames.push(Frame {
        id,
        func: fi,
        constructs: Vec::new(),
        emitted: vec![false; ctx.m.functions[fi].blocks.len()],
        preds: Vec::new(),
        loop_base: ctx.loops.len(),
    });
    let preds = predecessors(ctx, fi);
    ctx.frame_mut()?.preds = preds;
    push_construct(ctx, ConstructKind::Frame, ctx.loops.len())?;
    for (p, a) in params.iter().zip(args) {
        ctx.set(*p, a)?;
    }
    let no = ctx.bool(false);
    ctx.set_var(VarKey::Returned(id), Val::Leaf(no))?;
    let result_type = ctx.m.functions[fi].result_type;
    if !matches!(ctx.d.types.get(result_type), Some(super::types::Ty::Void)) {
        let u = ctx.undef_of(result_type)?;
        ctx.set_var(VarKey::ReturnValue(id), u)?;
    }
    walk(ctx, entry)?;
    let rv = ctx.vars.get(&VarKey::ReturnValue(id)).cloned();
    // A frame's variables end with it (no loop open around the call has used them
    // before the call made them, so none has a header phi for them).
    ctx.vars.drop_frame(id);
    ctx.frames.pop();
    Ok(rv)
}

/// `OpFunctionCall`: inlines the callee.
fn call(ctx: &mut Ctx<'_>, i: usize) -> Result<(), ImportError> {
    let ops = ctx.m.ops(i).to_vec();
    let [_, result, callee, args @ ..] = ops.as_slice() else {
        return Err(ctx.invalid("OpFunctionCall has too few operands"));
    };
    let fi = ctx
        .m
        .functions
        .iter()
        .position(|f| f.id == *callee)
        .ok_or_else(|| {
            ctx.invalid(format!(
                "OpFunctionCall of %{callee}, which is not a function"
            ))
        })?;
    let mut vals = Vec::with_capacity(args.len());
    for a in args {
        vals.push(ctx.get(*a)?);
    }
    let rv = run_function(ctx, fi, vals)?;
    ctx.at(i);
    if let Some(v) = rv {
        ctx.set(*result, Value::Val(v))?;
    }
    Ok(())
}
