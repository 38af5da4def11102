//! Structured control flow as vISA SIMD control flow: `goto` and labels.
//!
//! Every branch is a SIMD `goto (M1, W)` (IGC `documentation/visa/instructions/GOTO.md`):
//! a forward `goto` turns off the lanes it takes until the label, a backward one jumps
//! back with the lanes it takes. The finalizer turns these into the hardware's
//! `goto`/`join` and loops, so divergent conditions need nothing more:
//!
//! ```text
//! if c { A } else { B }          loop { A; break; B; continue; C }
//!
//!     cmp.ne (M1, W) p c 0x0         loop1_head:
//!     (!p) goto (M1, W) if1_else       A
//!     A                                goto (M1, W) loop1_end
//!     goto (M1, W) if1_end             B
//! if1_else:                            goto (M1, W) loop1_cont
//!     B                                C
//! if1_end:                         loop1_cont:
//!                                      goto (M1, W) loop1_head
//!                                  loop1_end:
//! ```
//!
//! Lanes that leave a loop early wait at its end label; lanes that `continue` wait at
//! the continue label, where every lane still in the loop meets before the back edge.
//! An `if` whose only content is a `break` is one predicated `goto` to the loop's end
//! ([`break_if`]).

use crate::ctx::Ctx;
use crate::error::EmitError;
use ir::Src;

/// The labels of one `if`.
#[derive(Clone, Debug)]
pub struct IfLabels {
    else_label: String,
    end_label: String,
}

/// The labels of one `loop`.
#[derive(Clone, Debug)]
pub struct LoopLabels {
    head: String,
    cont: String,
    end: String,
}

/// Starts an `if` on the boolean `cond`: lanes where it is false go to the `else` label.
pub fn if_start(cx: &mut Ctx, cond: Src) -> Result<IfLabels, EmitError> {
    let n = cx.new_label("if");
    let labels = IfLabels {
        else_label: format!("{n}_else"),
        end_label: format!("{n}_end"),
    };
    let p = crate::alu::condition(cx, cond)?;
    let es = cx.es();
    cx.line(&format!("(!{p}) goto {es} {}", labels.else_label));
    Ok(labels)
}

/// Ends the `then` list and starts the `else` list.
pub fn if_else(cx: &mut Ctx, l: &IfLabels) {
    let es = cx.es();
    cx.line(&format!("goto {es} {}", l.end_label));
    cx.label(&l.else_label);
}

/// Ends the `if`: both groups of lanes meet.
pub fn if_end(cx: &mut Ctx, l: &IfLabels) {
    cx.label(&l.end_label);
}

/// Starts a loop.
pub fn loop_start(cx: &mut Ctx) -> LoopLabels {
    let n = cx.new_label("loop");
    let l = LoopLabels {
        head: format!("{n}_head"),
        cont: format!("{n}_cont"),
        end: format!("{n}_end"),
    };
    cx.label(&l.head);
    l
}

/// `break`: the lanes here leave the loop.
pub fn break_(cx: &mut Ctx, l: &LoopLabels) {
    let es = cx.es();
    cx.line(&format!("goto {es} {}", l.end));
}

/// `if c { break }` with nothing else in either branch: the lanes where `c` holds
/// leave the loop with one predicated `goto`, as brw's `opt_predicated_break` turns
/// such an `if` into a predicated `break`.
pub fn break_if(cx: &mut Ctx, cond: Src, l: &LoopLabels) -> Result<(), EmitError> {
    let p = crate::alu::condition(cx, cond)?;
    let es = cx.es();
    cx.line(&format!("({p}) goto {es} {}", l.end));
    Ok(())
}

/// `continue`: the lanes here go to the next iteration.
pub fn continue_(cx: &mut Ctx, l: &LoopLabels) {
    let es = cx.es();
    cx.line(&format!("goto {es} {}", l.cont));
}

/// Ends the loop body: the back edge, then the exit.
pub fn loop_end(cx: &mut Ctx, l: &LoopLabels) {
    cx.label(&l.cont);
    let es = cx.es();
    cx.line(&format!("goto {es} {}", l.head));
    cx.label(&l.end);
}
