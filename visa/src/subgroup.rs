//! Subgroup reductions and scans (`reduce`, `inclusive_scan`, `exclusive_scan`) in the
//! order `ir::subgroup` defines, so that a kernel and the interpreter agree bit for
//! bit, on a temporary of one slot per lane of the kernel:
//!
//! ```text
//! mov (M1_NM, 16) t(0,0)<1> 0x80000000:f              // every slot: the identity
//! add (M1, 16) t(0,0)<1> v3(0,0)<1;1,0> 0x80000000:f  // active lanes: op(x, identity)
//! add (M1_NM, 8) t(0,0)<1> t(0,0)<1;1,0> t(1,0)<1;1,0>  // halving: t[i] = op(t[i], t[i+n])
//! ...
//! mov (M1, 16) v4(0,0)<1> t(0,0)<0;1,0>               // the result in every active lane
//! ```
//!
//! An integer op needs no `op(x, identity)`: it is `x`, and a `mov` does. A SIMD8 or
//! SIMD16 kernel runs the last steps of the 32-slot tree only: its other slots hold the
//! identity, and combining with it changes nothing once every slot is prepared.
//!
//! A scan (Hillis and Steele's, as brw's `brw_fs_builder::emit_scan` and IGC's
//! subgroup emulation) keeps two buffers of `2W` slots whose lower half is the identity,
//! so that step `k` is one full-width instruction, `t'[i] = op(t[i - k], t[i])`, reading
//! `t` from `k` slots below its data. The exclusive scan reads the inclusive one a slot
//! lower.
//!
//! Only 32-bit operands are combined: 8- and 16-bit integer operands are extended to 32
//! bits (with their sign for `imin`/`imax`) and the result truncated, which gives the
//! narrow operation's bits (the low bits of a sum, product or logic operation depend on
//! the low bits only); narrow float operands and 64-bit ones are a typed error (brw
//! splits 64-bit scans in halves with carries, which this back end does not).

use crate::ctx::{Ctx, Opnd, Reg};
use crate::error::EmitError;
use crate::vtype::VType;
use ir::subgroup::{GroupOperation, ReductionOp};
use ir::{IndexKind, IntrinsicInst, Value};

/// Emits a subgroup reduction or scan into `dest`.
pub fn emit(cx: &mut Ctx, i: &IntrinsicInst, dest: Value) -> Result<(), EmitError> {
    let kind =
        i.op.group_operation()
            .ok_or_else(|| cx.unsupported(format!("`@{}` is not a subgroup operation", i.op)))?;
    let op = i
        .index(IndexKind::ReductionOp)
        .and_then(ReductionOp::from_index)
        .ok_or_else(|| cx.unsupported("a subgroup operation without a valid reduction_op"))?;
    let bits = cx.func.value_type(dest).bit_size();
    let narrow_int = matches!(bits, 8 | 16) && !op.is_float();
    if bits != 32 && !narrow_int {
        return Err(cx.unsupported(format!(
            "a subgroup {} of {bits}-bit values (the back end combines 32-bit lanes, and \
             8- and 16-bit integers extended to them)",
            op.name()
        )));
    }
    let src = *i
        .srcs
        .first()
        .ok_or_else(|| cx.unsupported("a subgroup operation without a source"))?;
    let ty = match op {
        ReductionOp::Fadd | ReductionOp::Fmul | ReductionOp::Fmin | ReductionOp::Fmax => VType::F,
        ReductionOp::Imin | ReductionOp::Imax => VType::D,
        _ => VType::Ud,
    };
    let mnemonic = match op {
        ReductionOp::Iadd | ReductionOp::Fadd => "add",
        ReductionOp::Imul | ReductionOp::Fmul => "mul",
        ReductionOp::Imin | ReductionOp::Umin | ReductionOp::Fmin => "min",
        ReductionOp::Imax | ReductionOp::Umax | ReductionOp::Fmax => "max",
        ReductionOp::Iand => "and",
        ReductionOp::Ior => "or",
        ReductionOp::Ixor => "xor",
    };
    let identity = op.identity(32);
    let id = ty.imm(identity);
    let x = cx.comp(src, 0)?;
    let x = if narrow_int {
        let signed = matches!(op, ReductionOp::Imin | ReductionOp::Imax);
        crate::ops::widen(cx, x, bits, signed)
    } else {
        x
    };
    // A constant operand is prepared here: `op(x, identity)` evaluated as the
    // interpreter evaluates it (no instruction has two immediate sources).
    let x = match x {
        Opnd::Imm(v) if op.is_float() => {
            let alu = op.alu_op();
            let (a, b) = ([v], [identity]);
            let pair = [
                ir::eval::Operand::new(32, &a),
                ir::eval::Operand::new(32, &b),
            ];
            let r = ir::eval::eval_alu_flagged(alu, false, ir::Type::U32, &pair).map_err(|e| {
                cx.unsupported(format!("a constant `{alu}` of the reduction: {e:?}"))
            })?;
            Opnd::Imm(r[0])
        }
        other => other,
    };
    let w = cx.t.simd;
    let bytes = ty.bytes();
    let at = |r: Reg, slot: u32| Reg {
        off: r.off + slot * bytes,
        ..r
    };
    // `slots` slots, of which the first `fill` hold the identity.
    let buffer = |cx: &mut Ctx, slots: u32, fill: u32| -> Reg {
        let t = cx.temp_bytes(ty, slots * bytes);
        for k in 0..fill / w {
            let d = cx.dst(at(t, k * w), ty);
            cx.line(&format!("mov (M1_NM, {w}) {d} {id}"));
        }
        t
    };
    // The active lanes' operands, `op(x, identity)`, in slots that hold the identity.
    let prepare = |cx: &mut Ctx, slot: Reg| {
        let d = cx.dst(slot, ty);
        let s = cx.src(x, ty);
        if op.is_float() && !matches!(x, Opnd::Imm(_)) {
            cx.line(&format!("{mnemonic} (M1, {w}) {d} {s} {id}"));
        } else {
            cx.line(&format!("mov (M1, {w}) {d} {s}"));
        }
    };
    let cluster = i.index(IndexKind::ClusterSize).unwrap_or(0);
    // The result region, when it is not a plain register region: one value per
    // cluster, given to each of its lanes.
    let mut spread = None;
    let result = match kind {
        GroupOperation::Reduce if cluster != 0 => {
            let mut t = buffer(cx, w, w);
            prepare(cx, t);
            let mut n = w;
            while n > 1 && w / n < cluster {
                n /= 2;
                let u = cx.temp_bytes(ty, n * bytes);
                let (d, a, b) = (
                    cx.dst(u, ty),
                    cx.src(Opnd::Reg(Reg { stride: 2, ..t }), ty),
                    cx.src(
                        Opnd::Reg(Reg {
                            stride: 2,
                            ..at(t, 1)
                        }),
                        ty,
                    ),
                );
                cx.line(&format!("{mnemonic} (M1_NM, {n}) {d} {a} {b}"));
                t = u;
            }
            if n == 1 {
                // One value left: the cluster spans the kernel's lanes.
                Reg { stride: 0, ..t }
            } else {
                if cluster > 1 {
                    spread = Some(cx.src_region(t, ty, (1, cluster, 0)));
                }
                t
            }
        }
        GroupOperation::Reduce => {
            let t = buffer(cx, w, w);
            prepare(cx, t);
            let mut n = w / 2;
            while n >= 1 {
                let (d, a, b) = (
                    cx.dst(t, ty),
                    cx.src(Opnd::Reg(t), ty),
                    cx.src(Opnd::Reg(at(t, n)), ty),
                );
                cx.line(&format!("{mnemonic} (M1_NM, {n}) {d} {a} {b}"));
                n /= 2;
            }
            Reg { stride: 0, ..t }
        }
        GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
            // Both buffers' lower halves hold the identity; `b`'s upper half is written
            // whole by the first step.
            let (mut a, mut b) = (buffer(cx, 2 * w, 2 * w), buffer(cx, 2 * w, w));
            prepare(cx, at(a, w));
            let mut k = 1;
            while k < w {
                let (d, below, own) = (
                    cx.dst(at(b, w), ty),
                    cx.src(Opnd::Reg(at(a, w - k)), ty),
                    cx.src(Opnd::Reg(at(a, w)), ty),
                );
                cx.line(&format!("{mnemonic} (M1_NM, {w}) {d} {below} {own}"));
                std::mem::swap(&mut a, &mut b);
                k *= 2;
            }
            if kind == GroupOperation::InclusiveScan {
                at(a, w)
            } else {
                at(a, w - 1)
            }
        }
    };
    let d = cx.dest(dest, 0)?;
    if narrow_int || spread.is_some() {
        let es = cx.es();
        let dst = cx.dst(d, if narrow_int { VType::uint(bits) } else { ty });
        let src = match spread {
            Some(s) => s,
            None => cx.src(Opnd::Reg(result), ty),
        };
        cx.line(&format!("mov {es} {dst} {src}"));
    } else {
        cx.op("mov", d, ty, &[Opnd::Reg(result)]);
    }
    Ok(())
}
