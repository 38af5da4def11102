//! The semantics of vISA's ALU instructions, per the instruction chapters of IGC's
//! `documentation/visa/instructions/` and the rules of `2_datatypes.md`:
//!
//! * **Integers** compute exactly ("extra precision is provided within the hardware"):
//!   each source is sign- or zero-extended from its own type, the operation is exact,
//!   and the result is truncated to the destination's low bits, or clamped to its range
//!   with `.sat`. Shifts work at the execution width (64 bits when the destination or
//!   `src0` is `q`/`uq`, else 32) and use the low 5 (6 at 64 bits) bits of `src1`.
//!   `bfe`, `bfi`, `bfrev`, `cbit`, `fbl`, `fbh`, `lzd` are the 32-bit operations their
//!   pseudo-code gives. Integer `div`/`mod` by zero is an error (undefined in the spec).
//! * **Floats** compute at the execution type (the widest float of the operands:
//!   `df`, else `f`, else `hf`) with one rounding to nearest even per operation; `mad`
//!   is fused; `div` is `src0 * inv(src1)` as the spec says. Denormal inputs and
//!   results are flushed to zero unless `%cr0` keeps them for their type. `min`/`max`
//!   return the non-NaN source when one is NaN, `src1` when both are, and order
//!   `-0 < +0`. NaN payloads, which the spec leaves open, follow IEEE-754 §6.2.3 (the
//!   first NaN operand, quieted) and invalid operations give the default NaN (sign set,
//!   quiet, payload 0), as the IR's evaluator does. `inv`, `sqrt`, `rsqrt`,
//!   `exp` (base 2), `log` (base 2), `sin`, `cos` and `pow` are the values of Rust's
//!   `f64` functions rounded to the execution type; the hardware's math unit is only
//!   documented to be approximate, so a run may make them err by up to
//!   [`super::run::RunConfig::math_ulps`] binary32 ulps (`math_unit`), to show that a
//!   result does not rely on their last bits.
//! * `cmp` writes a predicate bit, or all ones / all zeros of the destination's size;
//!   NaN compares unordered (only `ne` is true) and `-0 == +0`.
//! * `sel` copies `src0` where the predicate is set and `src1` elsewhere, in every
//!   channel the execution mask enables.

use super::convert::{
    f64_to_bits, float_value, int_to_float_bits, int_to_int_bits, int_value, saturate_float_bits,
    FloatFormat, FpMode, Round,
};
use super::error::ErrorKind;
use super::lanes::{
    channels, flush, gather_float, gather_int, int_mod, lane_bits, store_bits, store_int,
    write_dst, Lanes, MAX_CHANNELS,
};
use super::listing::AluOp;
use super::program::{Domain, XAlu, XDst, XSrc};
use super::regfile::RegState;
use super::types::{CondMod, SrcMod, VType};

/// Runs an ALU instruction on the channels `chen` (bit `n` = channel `n` of the
/// instruction). For `sel`, `chen` holds the channels the execution mask enables and
/// `sel_mask` the channels whose predicate is set; other instructions ignore it. The
/// math unit errs by up to `math_ulps` ulps ([`super::run::RunConfig::math_ulps`]).
pub fn execute(
    a: &XAlu,
    st: &mut RegState,
    chen: u32,
    sel_mask: u32,
    mode: FpMode,
    math_ulps: u32,
) -> Result<(), ErrorKind> {
    if chen == 0 {
        return Ok(());
    }
    match a.domain {
        Domain::Move => mov(a, st, chen, mode),
        Domain::Pred => {
            pred_logic(a, st, chen);
            Ok(())
        }
        Domain::Int => int_op(a, st, chen, sel_mask),
        Domain::Float(ex) => float_op(a, st, chen, sel_mask, mode, ex, math_ulps),
    }
}

fn modifier(s: &XSrc) -> SrcMod {
    match s {
        XSrc::Reg { modifier, .. } => *modifier,
        _ => SrcMod::None,
    }
}

/// An integer result to the destination type: low bits or `.sat` clamp for integer
/// destinations, rounded for float ones.
fn int_result(v: i128, ty: VType, sat: bool) -> u64 {
    if ty.is_float() {
        let r = int_to_float_bits(v, ty, Round::NearestEven);
        if sat {
            saturate_float_bits(r, ty)
        } else {
            r
        }
    } else {
        int_to_int_bits(v, ty, sat)
    }
}

fn mov(a: &XAlu, st: &mut RegState, chen: u32, mode: FpMode) -> Result<(), ErrorKind> {
    let src = &a.srcs[0];
    let to = a.dst.ty();
    if let XSrc::Pred(p) = src {
        // `mov (1) V P`: the predicate's bits, element 0 in the LSB.
        let v = u64::from(st.preds[*p]);
        write_dst(&a.dst, st, 0, v);
        return Ok(());
    }
    let from = src.ty();
    let m = modifier(src);
    if from.is_int() && to.is_int() {
        // Extension or truncation, exactly (the common case, taken per instruction).
        let mut v = [0i128; MAX_CHANNELS];
        gather_int(src, st, chen, &mut v);
        store_int(&a.dst, st, chen, &v, a.sat);
        return Ok(());
    }
    for n in channels(chen) {
        let bits = lane_bits(src, st, n);
        let out = if from.is_float() {
            let fmt = FloatFormat::of(from).unwrap_or(FloatFormat::F);
            let sign = 1u64 << (fmt.exp_bits + fmt.frac_bits);
            let b = match m {
                SrcMod::Neg => bits ^ sign,
                SrcMod::Abs => bits & !sign,
                SrcMod::NegAbs => bits | sign,
                _ => bits,
            };
            super::convert::convert(b, from, to, a.sat, mode)
        } else {
            let v = int_mod(int_value(bits, from), m);
            if to.is_float() {
                let r = int_to_float_bits(v, to, mode.round);
                if a.sat {
                    saturate_float_bits(r, to)
                } else {
                    r
                }
            } else {
                int_to_int_bits(v, to, a.sat)
            }
        };
        write_dst(&a.dst, st, n, out);
    }
    Ok(())
}

fn pred_logic(a: &XAlu, st: &mut RegState, chen: u32) {
    let off = u32::from(a.exec.offset);
    let bits = |s: &XSrc, st: &RegState| match s {
        XSrc::Pred(p) => st.preds[*p] >> off,
        _ => 0,
    };
    let s0 = bits(&a.srcs[0], st);
    let s1 = a.srcs.get(1).map_or(0, |s| bits(s, st));
    let r = match a.op {
        AluOp::And => s0 & s1,
        AluOp::Or => s0 | s1,
        AluOp::Xor => s0 ^ s1,
        _ => !s0,
    };
    if let XDst::Pred(p) = a.dst {
        let mask = chen << off;
        st.preds[p] = (st.preds[p] & !mask) | ((r << off) & mask);
    }
}

fn compare<T: PartialOrd>(c: CondMod, a: T, b: T) -> bool {
    match c {
        CondMod::Eq => a == b,
        CondMod::Ne => a != b,
        CondMod::Gt => a > b,
        CondMod::Ge => a >= b,
        CondMod::Lt => a < b,
        CondMod::Le => a <= b,
    }
}

/// Writes a `cmp` result: a predicate bit, or all ones / zeros of the destination.
fn write_cmp(a: &XAlu, st: &mut RegState, results: u32, chen: u32) {
    match &a.dst {
        XDst::Pred(p) => {
            let off = u32::from(a.exec.offset);
            let mask = chen << off;
            st.preds[*p] = (st.preds[*p] & !mask) | ((results << off) & mask);
        }
        XDst::Reg { ty, .. } => {
            let ones = if ty.size() >= 8 {
                u64::MAX
            } else {
                (1u64 << ty.bits()) - 1
            };
            for n in channels(chen) {
                let v = if results >> n & 1 != 0 { ones } else { 0 };
                write_dst(&a.dst, st, n, v);
            }
        }
        XDst::Null(_) => {}
    }
}

/// Source `k` of channel `n` (0 if the instruction has fewer sources).
fn int_arg(a: &XAlu, st: &RegState, k: usize, n: usize) -> i128 {
    match a.srcs.get(k) {
        Some(s) => int_mod(int_value(lane_bits(s, st, n), s.ty()), modifier(s)),
        None => 0,
    }
}

/// `r[n] = f(n)` for the channels of `chen`.
#[inline(always)]
fn compute<T: Copy>(chen: u32, r: &mut Lanes<T>, f: impl Fn(usize) -> T) {
    for n in channels(chen) {
        r[n] = f(n);
    }
}

fn int_op(a: &XAlu, st: &mut RegState, chen: u32, sel_mask: u32) -> Result<(), ErrorKind> {
    let dty = a.dst.ty();
    let off = u32::from(a.exec.offset);
    // The execution width of shifts: 64 bits when the destination or src0 is q/uq.
    let wide = [dty, a.srcs[0].ty()]
        .iter()
        .any(|t| matches!(t, VType::Q | VType::Uq));
    let width: u32 = if wide { 64 } else { 32 };
    let wmask: u128 = if wide {
        u64::MAX as u128
    } else {
        u32::MAX as u128
    };
    let src0_bits = a.srcs[0].ty().bits();
    let mut x = [0i128; MAX_CHANNELS];
    let mut y = [0i128; MAX_CHANNELS];
    let mut z = [0i128; MAX_CHANNELS];
    for (k, out) in [&mut x, &mut y, &mut z].into_iter().enumerate() {
        if let Some(src) = a.srcs.get(k) {
            gather_int(src, st, chen, out);
        }
    }
    let mut r = [0i128; MAX_CHANNELS];
    match a.op {
        AluOp::Cmp => {
            let c = a.cond.unwrap_or(CondMod::Eq);
            let mut results = 0u32;
            for n in channels(chen) {
                results |= u32::from(compare(c, x[n], y[n])) << n;
            }
            write_cmp(a, st, results, chen);
            return Ok(());
        }
        AluOp::Add => compute(chen, &mut r, |n| x[n] + y[n]),
        AluOp::Add3 => compute(chen, &mut r, |n| x[n] + y[n] + z[n]),
        AluOp::Avg => compute(chen, &mut r, |n| (x[n] + y[n] + 1) >> 1),
        AluOp::Mul => compute(chen, &mut r, |n| mul_sat(x[n], y[n])),
        AluOp::Mad => compute(chen, &mut r, |n| mul_sat(x[n], y[n]).saturating_add(z[n])),
        AluOp::Mulh => compute(chen, &mut r, |n| mul_sat(x[n], y[n]) >> 32),
        AluOp::Min => compute(chen, &mut r, |n| x[n].min(y[n])),
        AluOp::Max => compute(chen, &mut r, |n| x[n].max(y[n])),
        AluOp::Sel => compute(chen, &mut r, |n| {
            if sel_mask >> n & 1 != 0 {
                x[n]
            } else {
                y[n]
            }
        }),
        AluOp::Shl => compute(chen, &mut r, |n| x[n] << (y[n] as u32 & (width - 1))),
        AluOp::Shr => compute(chen, &mut r, |n| {
            ((x[n] as u128 & wmask) >> (y[n] as u32 & (width - 1))) as i128
        }),
        AluOp::Asr => compute(chen, &mut r, |n| {
            let c = y[n] as u32 & (width - 1);
            if wide {
                ((x[n] as i64) >> c) as i128
            } else {
                ((x[n] as i32) >> c) as i128
            }
        }),
        AluOp::Rol | AluOp::Ror => {
            // RotateMask = sizeof(src0) * 8 - 1: a rotation within src0's width.
            let bits = src0_bits;
            let m = bits - 1;
            let all = (1u128 << bits) - 1;
            let right = a.op == AluOp::Ror;
            compute(chen, &mut r, |n| {
                let v = (x[n] as u128) & all;
                let c = y[n] as u32 & m;
                let c = if right { (bits - c) & m } else { c };
                (((v << c) | (v >> ((bits - c) & m))) & all) as i128
            })
        }
        AluOp::And => compute(chen, &mut r, |n| x[n] & y[n]),
        AluOp::Or => compute(chen, &mut r, |n| x[n] | y[n]),
        AluOp::Xor => compute(chen, &mut r, |n| x[n] ^ y[n]),
        AluOp::Not => compute(chen, &mut r, |n| !x[n]),
        AluOp::Bfn(table) => compute(chen, &mut r, |n| {
            // Bit i of the result is bit (s0_i + 2 s1_i + 4 s2_i) of the table.
            let (p, q, s) = (x[n] as u64, y[n] as u64, z[n] as u64);
            let mut out = 0u64;
            for k in 0..8u64 {
                if table >> k & 1 != 0 {
                    let sel = |v: u64, bit: u64| if k >> bit & 1 != 0 { v } else { !v };
                    out |= sel(p, 0) & sel(q, 1) & sel(s, 2);
                }
            }
            out as i64 as i128
        }),
        AluOp::Bfe => {
            let signed = dty.is_signed_int();
            compute(chen, &mut r, |n| {
                let w = x[n] as u32 & 0x1f;
                let o = y[n] as u32 & 0x1f;
                let mask = (1u32 << w).wrapping_sub(1);
                if !signed {
                    ((z[n] as u32 >> o) & mask) as i128
                } else if w == 0 {
                    0
                } else {
                    // `(src2 >> offset) & mask` with an arithmetic shift, sign-extended
                    // from the field's top bit.
                    let f = ((z[n] as i32) >> o) as u32 & mask;
                    (((f << (32 - w)) as i32) >> (32 - w)) as i128
                }
            })
        }
        AluOp::Bfi => compute(chen, &mut r, |n| {
            let wd = x[n] as u32 & 0x1f;
            let o = y[n] as u32 & 0x1f;
            let mask = (1u32 << wd).wrapping_sub(1) << o;
            let w = int_arg(a, st, 3, n) as u32;
            (((z[n] as u32) << o) & mask | (w & !mask)).into()
        }),
        AluOp::Bfrev => compute(chen, &mut r, |n| (x[n] as u32).reverse_bits().into()),
        AluOp::Cbit => {
            let all = (1u128 << src0_bits) - 1;
            compute(chen, &mut r, |n| ((x[n] as u128) & all).count_ones().into())
        }
        AluOp::Fbl => compute(chen, &mut r, |n| {
            let v = x[n] as u32;
            if v == 0 {
                0xffff_ffff
            } else {
                v.trailing_zeros().into()
            }
        }),
        AluOp::Fbh => {
            let signed = a.srcs[0].ty().is_signed_int();
            compute(chen, &mut r, |n| {
                let v = x[n] as u32;
                if v == 0 || (signed && v == u32::MAX) {
                    0xffff_ffff
                } else if signed && (v as i32) < 0 {
                    v.leading_ones().into()
                } else {
                    v.leading_zeros().into()
                }
            })
        }
        AluOp::Lzd => compute(chen, &mut r, |n| (x[n] as u32).leading_zeros().into()),
        AluOp::Addc | AluOp::Subb => {
            let mut carry = [0u64; MAX_CHANNELS];
            for n in channels(chen) {
                if a.op == AluOp::Addc {
                    r[n] = x[n] + y[n];
                    carry[n] = ((r[n] >> dty.bits()) & 1) as u64;
                } else {
                    r[n] = x[n] - y[n];
                    carry[n] = u64::from(x[n] < y[n]);
                }
            }
            if let Some(d2) = &a.dst2 {
                store_bits(d2, st, chen, &carry);
            }
        }
        AluOp::Div | AluOp::Mod => {
            for n in channels(chen) {
                if y[n] == 0 {
                    return Err(ErrorKind::DivideByZero {
                        channel: off + n as u32,
                    });
                }
                r[n] = if a.op == AluOp::Div {
                    x[n] / y[n]
                } else {
                    x[n] % y[n]
                };
            }
        }
        _ => {
            return Err(ErrorKind::Unsupported {
                what: format!("`{}` on integers", a.op.name()),
            })
        }
    }
    if dty.is_int() {
        store_int(&a.dst, st, chen, &r, a.sat);
    } else {
        for n in channels(chen) {
            write_dst(&a.dst, st, n, int_result(r[n], dty, a.sat));
        }
    }
    Ok(())
}

/// An exact product, or the largest magnitude of its sign when it overflows 128 bits
/// (which only `.sat` can observe).
fn mul_sat(x: i128, y: i128) -> i128 {
    x.checked_mul(y).unwrap_or(if (x < 0) != (y < 0) {
        i128::MIN
    } else {
        i128::MAX
    })
}

/// Rounds an exact value to the execution type's precision (to nearest even).
fn round_exec(v: f64, ex: VType) -> f64 {
    match ex {
        VType::Df => v,
        VType::F => f64::from(v as f32),
        _ => float_value(f64_to_bits(v, ex, Round::NearestEven), ex),
    }
}

/// The math unit's result for the true value `v` at the execution type `ex`
/// ([`super::run::RunConfig::math_ulps`]): `v` rounded when `ulps` is 0, for binary64
/// (whose `inv` and `sqrt` are IEEE macros) and where the rounded value is zero,
/// infinite or NaN; otherwise a binary32 less than `ulps` ulps from `v`, the rounded
/// value moved by `k` ulps, `k` in `-ulps ..= ulps` picked by a fixed hash of `seed`
/// (the rounded value where the move would leave the bound), then rounded to `ex`.
fn math_unit(v: f64, seed: u64, ulps: u32, ex: VType) -> f64 {
    let r = v as f32;
    if ulps == 0 || ex == VType::Df || !r.is_finite() || r == 0.0 {
        return round_exec(v, ex);
    }
    let u = i64::from(ulps);
    let h = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
    let k = (h % (2 * u as u64 + 1)) as i64 - u;
    let c = f32::from_bits((i64::from(r.to_bits()) + k) as u32);
    let ulp = f64::from(f32::from_bits(r.to_bits() + 1) - r).abs();
    let picked = if c.is_finite() && (f64::from(c) - v).abs() < u as f64 * ulp {
        c
    } else {
        r
    };
    round_exec(f64::from(picked), ex)
}

/// IEEE min/max with vISA's NaN rule (the non-NaN source, `src1` when both are NaN)
/// and `-0 < +0`.
fn min_max(x: f64, y: f64, max: bool) -> f64 {
    match (x.is_nan(), y.is_nan()) {
        (true, _) => y,
        (false, true) => x,
        _ => {
            let x_less = x < y || (x == y && x.is_sign_negative() && !y.is_sign_negative());
            if x_less != max {
                x
            } else {
                y
            }
        }
    }
}

/// The NaN rule the vISA spec leaves open, as IEEE-754 §6.2.3 recommends and the IR's
/// evaluator does: an operation with a NaN operand returns the first one (in source
/// order; quieted when written); an invalid operation without one (`0 * inf`,
/// `inf - inf`, `sqrt(-1)`) returns the default NaN (sign set, quiet, payload 0).
#[inline(always)]
fn nan_rule(args: &[f64], op: impl FnOnce() -> f64) -> f64 {
    if let Some(n) = args.iter().find(|a| a.is_nan()) {
        return *n;
    }
    let r = op();
    if r.is_nan() {
        f64::from_bits(0xfff8_0000_0000_0000)
    } else {
        r
    }
}

/// A float result of the execution type `ex` as the destination's bits.
fn float_out(v: f64, ex: VType, dty: VType, sat: bool, mode: FpMode) -> u64 {
    let v = flush(v, ex, mode);
    if v.is_nan() {
        // Quieted, its sign and payload kept (`.sat` makes it 0).
        let b = f64_to_bits(v, dty, Round::NearestEven);
        return if sat { saturate_float_bits(b, dty) } else { b };
    }
    // A mixed-mode destination of another float type is a conversion (to nearest
    // even) with its own denormal mode.
    let v = if dty == ex {
        v
    } else {
        flush(round_exec(v, dty), dty, mode)
    };
    let b = f64_to_bits(v, dty, Round::NearestEven);
    if sat {
        saturate_float_bits(b, dty)
    } else {
        b
    }
}

/// Writes `f(channel)`, a value of the execution type `ex`, to every enabled channel.
#[inline(always)]
fn map_float(
    a: &XAlu,
    st: &mut RegState,
    chen: u32,
    mode: FpMode,
    ex: VType,
    f: impl Fn(usize) -> f64,
) {
    let dty = a.dst.ty();
    let mut bits = [0u64; MAX_CHANNELS];
    for n in channels(chen) {
        bits[n] = float_out(f(n), ex, dty, a.sat, mode);
    }
    store_bits(&a.dst, st, chen, &bits);
}

fn float_op(
    a: &XAlu,
    st: &mut RegState,
    chen: u32,
    sel_mask: u32,
    mode: FpMode,
    ex: VType,
    math_ulps: u32,
) -> Result<(), ErrorKind> {
    if mode.alt || mode.round != Round::NearestEven {
        return Err(ErrorKind::Unsupported {
            what: "float arithmetic in ALT mode or with a rounding mode other than round to nearest even".into(),
        });
    }
    let r = move |v: f64| round_exec(v, ex);
    let mut x = [0f64; MAX_CHANNELS];
    let mut y = [0f64; MAX_CHANNELS];
    let mut z = [0f64; MAX_CHANNELS];
    for (k, out) in [&mut x, &mut y, &mut z].into_iter().enumerate() {
        if let Some(src) = a.srcs.get(k) {
            gather_float(src, st, chen, mode, out);
        }
    }
    // The math unit's result for the true value `v` of channel `n`, picked by the bits
    // of the channel's first operand.
    let m = |v: f64, n: usize| math_unit(v, x[n].to_bits(), math_ulps, ex);
    match a.op {
        AluOp::Cmp => {
            let c = a.cond.unwrap_or(CondMod::Eq);
            let mut results = 0u32;
            for n in channels(chen) {
                results |= u32::from(compare(c, x[n], y[n])) << n;
            }
            write_cmp(a, st, results, chen);
        }
        AluOp::Add => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n], y[n]], || r(x[n] + y[n]))
        }),
        AluOp::Mul => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n], y[n]], || r(x[n] * y[n]))
        }),
        AluOp::Mad => {
            if ex == VType::F {
                map_float(a, st, chen, mode, ex, |n| {
                    nan_rule(&[x[n], y[n], z[n]], || {
                        f64::from((x[n] as f32).mul_add(y[n] as f32, z[n] as f32))
                    })
                })
            } else {
                map_float(a, st, chen, mode, ex, |n| {
                    nan_rule(&[x[n], y[n], z[n]], || r(x[n].mul_add(y[n], z[n])))
                })
            }
        }
        AluOp::Div => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n], y[n]], || r(x[n] * r(1.0 / y[n])))
        }),
        // IEEE division: the f64 quotient of two f32 values rounds to the f32 quotient
        // (53 >= 2 * 24 + 2 bits).
        AluOp::Divm => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n], y[n]], || r(x[n] / y[n]))
        }),
        AluOp::Min => map_float(a, st, chen, mode, ex, |n| min_max(x[n], y[n], false)),
        AluOp::Max => map_float(a, st, chen, mode, ex, |n| min_max(x[n], y[n], true)),
        AluOp::Sel => map_float(a, st, chen, mode, ex, |n| {
            if sel_mask >> n & 1 != 0 {
                x[n]
            } else {
                y[n]
            }
        }),
        // The math unit: the true value rounded, or off by up to `math_ulps`. The f64
        // root of an f32 rounds to the correctly rounded f32 root (53 >= 2 * 24 + 2
        // bits), so `sqrtm`, the IEEE square root, is exact.
        AluOp::Inv => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(1.0 / x[n], n))
        }),
        AluOp::Sqrt => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(x[n].sqrt(), n))
        }),
        AluOp::Sqrtm => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || r(x[n].sqrt()))
        }),
        AluOp::Rsqrt => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(1.0 / x[n].sqrt(), n))
        }),
        AluOp::Exp => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(x[n].exp2(), n))
        }),
        AluOp::Log => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(x[n].log2(), n))
        }),
        AluOp::Sin => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(x[n].sin(), n))
        }),
        AluOp::Cos => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || m(x[n].cos(), n))
        }),
        AluOp::Pow => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n], y[n]], || m(x[n].powf(y[n]), n))
        }),
        AluOp::Rnde => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || x[n].round_ties_even())
        }),
        AluOp::Rndd => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || x[n].floor())
        }),
        AluOp::Rndu => map_float(a, st, chen, mode, ex, |n| nan_rule(&[x[n]], || x[n].ceil())),
        AluOp::Rndz => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || x[n].trunc())
        }),
        AluOp::Frc => map_float(a, st, chen, mode, ex, |n| {
            nan_rule(&[x[n]], || r(x[n] - x[n].floor()))
        }),
        _ => {
            return Err(ErrorKind::Unsupported {
                what: format!("`{}` on floats", a.op.name()),
            })
        }
    }
    Ok(())
}

/// `movs`: `dst[i] = src0[i]` for the enabled channels, between state words (surface
/// and sampler indices) and general operands.
pub fn movs(
    st: &mut RegState,
    dst: &super::program::XState<XDst>,
    src: &super::program::XState<XSrc>,
    enabled: u32,
) {
    use super::program::XState;
    for n in channels(enabled) {
        let v = match src {
            XState::Words(w) => u64::from(st.states[*w as usize + n]),
            XState::General(s) => lane_bits(s, st, n),
        };
        match dst {
            XState::Words(w) => st.states[*w as usize + n] = v as u32,
            XState::General(d) => write_dst(d, st, n, v),
        }
    }
}

/// `setp (exec) P src`: a scalar source spreads its bits over the channels (bit `i` to
/// element `offset + i`, every channel); a vector source gives each enabled channel the
/// LSB of its element (the SETP pseudo-code).
pub fn setp(
    st: &mut RegState,
    dst: usize,
    src: &XSrc,
    scalar: bool,
    exec: super::types::ExecCtrl,
    enabled: u32,
) {
    let off = u32::from(exec.offset);
    let size_mask = if exec.size >= 32 {
        u32::MAX
    } else {
        (1u32 << exec.size) - 1
    };
    let (bits, mask) = if scalar {
        (lane_bits(src, st, 0) as u32 & size_mask, size_mask)
    } else {
        let mut b = 0u32;
        for n in channels(enabled) {
            b |= ((lane_bits(src, st, n) & 1) as u32) << n;
        }
        (b, enabled)
    };
    let mask = mask << off;
    st.preds[dst] = (st.preds[dst] & !mask) | ((bits << off) & mask);
}

#[cfg(test)]
mod tests {
    use crate::visa::testing::{elem, elems, kernel, pred, run, run_with};

    /// The math unit's error: none at 0 ulps and for binary64; otherwise less than the
    /// bound, off for some operands, and never for zeros and infinities.
    #[test]
    fn the_math_unit_errs_within_its_bound() {
        use super::{math_unit, VType};
        let mut moved = 0;
        for k in 1..2000u64 {
            let v = 1.0 / (k as f64 * 0.731);
            let exact = f64::from(v as f32);
            assert_eq!(math_unit(v, k, 0, VType::F), exact);
            assert_eq!(math_unit(v, k, 3, VType::Df), v);
            let got = math_unit(v, k, 2, VType::F);
            let r = v as f32;
            let ulp = f64::from(f32::from_bits(r.to_bits() + 1) - r);
            assert!((got - v).abs() < 2.0 * ulp, "{v}: {got}");
            assert_eq!(got, f64::from(got as f32));
            moved += usize::from(got != exact);
        }
        assert!(moved > 1000, "{moved}");
        for v in [0.0, -0.0, f64::INFINITY] {
            assert_eq!(math_unit(v, 7, 4, VType::F).to_bits(), v.to_bits());
        }
        // binary16 results are binary16 values.
        let h = math_unit(1.0 / 3.0, 5, 2, VType::Hf);
        assert_eq!(h, super::round_exec(h, VType::Hf));
    }

    /// Runs `body` (SIMD 8) with R (the result, of type `ty`, 8 elements), and returns
    /// element 0 of R.
    fn r1(ty: &str, body: &str) -> u64 {
        r1_cr0(ty, body, 0)
    }

    fn r1_cr0(ty: &str, body: &str, cr0: u32) -> u64 {
        let decls = format!(
            ".decl R v_type=G type={ty} num_elts=8\n.decl C v_type=G type=ud num_elts=8\n.decl P1 v_type=P num_elts=8"
        );
        let (p, t) = run_with(&kernel(8, &decls, body), 32, 0xff, cr0);
        elem(&p, &t, "R")
    }

    #[test]
    fn integer_arithmetic_wraps_or_saturates_to_the_destination() {
        // 0xffffffff + 2 wraps to 1 in ud; `.sat` clamps to 0xffffffff.
        assert_eq!(r1("ud", "add (M1, 1) R(0,0)<1> 0xffffffff:ud 0x2:ud"), 1);
        assert_eq!(
            r1("ud", "add.sat (M1, 1) R(0,0)<1> 0xffffffff:ud 0x2:ud"),
            0xffff_ffff
        );
        // Extra precision: 0x10000 + 0xffff = 0x1ffff, truncated to uw 0xffff, and
        // clamped to 0xffff with .sat; 0x10000 + 0x10000 truncates to 0.
        assert_eq!(
            r1("uw", "add (M1, 1) R(0,0)<1> 0x10000:ud 0xffff:ud"),
            0xffff
        );
        assert_eq!(r1("uw", "add (M1, 1) R(0,0)<1> 0x10000:ud 0x10000:ud"), 0);
        assert_eq!(
            r1("uw", "add.sat (M1, 1) R(0,0)<1> 0x10000:ud 0x10000:ud"),
            0xffff
        );
        // Mixed signedness is exact: 0xffffffff (ud) + -1 (d) = 4294967294, which is
        // 0xfffffffe in d and saturates to 0x7fffffff.
        assert_eq!(
            r1("d", "add (M1, 1) R(0,0)<1> 0xffffffff:ud -1:d"),
            0xffff_fffe
        );
        assert_eq!(
            r1("d", "add.sat (M1, 1) R(0,0)<1> 0xffffffff:ud -1:d"),
            0x7fff_ffff
        );
        assert_eq!(
            r1("d", "add.sat (M1, 1) R(0,0)<1> -2147483648:d -1:d"),
            0x8000_0000
        );
        // d x d -> q keeps the whole product: -3 * 5 = -15.
        assert_eq!(r1("q", "mul (M1, 1) R(0,0)<1> -3:d 5:d"), (-15i64) as u64);
        // mulh: 0x80000000 * 4 = 2^33, high dword 2; (-1) * 1 = -1, high dword 0xffffffff.
        assert_eq!(r1("ud", "mulh (M1, 1) R(0,0)<1> 0x80000000:ud 0x4:ud"), 2);
        assert_eq!(r1("d", "mulh (M1, 1) R(0,0)<1> -1:d 1:d"), 0xffff_ffff);
        // mad: 3 * 4 + 5; avg: (5 + 6 + 1) >> 1 = 6, (-5 + -6 + 1) >> 1 = -5.
        assert_eq!(r1("d", "mad (M1, 1) R(0,0)<1> 3:d 4:d 5:d"), 17);
        assert_eq!(r1("d", "avg (M1, 1) R(0,0)<1> 5:d 6:d"), 6);
        assert_eq!(
            r1("d", "avg (M1, 1) R(0,0)<1> -5:d -6:d"),
            (-5i32) as u32 as u64
        );
        assert_eq!(r1("ud", "add3 (M1, 1) R(0,0)<1> 1:ud 2:ud 3:ud"), 6);
        // 64-bit wraparound and saturation.
        assert_eq!(
            r1("q", "add (M1, 1) R(0,0)<1> 0x7fffffffffffffff:q 1:q"),
            1 << 63
        );
        assert_eq!(
            r1("q", "add.sat (M1, 1) R(0,0)<1> 0x7fffffffffffffff:q 1:q"),
            i64::MAX as u64
        );
        assert_eq!(
            r1("uq", "mul (M1, 1) R(0,0)<1> 0x100000000:uq 0x100000000:uq"),
            0
        );
        // Source modifiers are exact too: -(0x80000000:d) = 2^31, wrapping to 0x80000000.
        assert_eq!(
            r1(
                "d",
                "mov (M1, 1) C(0,0)<1> 0x80000000:ud\nadd (M1, 1) R(0,0)<1> (-)C(0,0)<0;1,0> 0:d"
            ),
            0xffff_ffff_8000_0000 & 0xffff_ffff
        );
        assert_eq!(
            r1(
                "d",
                "mov (M1, 1) C(0,0)<1> 0xfffffffb:ud\nadd (M1, 1) R(0,0)<1> (abs)C(0,0)<0;1,0> 0:d"
            ),
            0xffff_fffb
        );
    }

    #[test]
    fn carry_borrow_division_and_min_max() {
        let decls = ".decl R v_type=G type=ud num_elts=8\n.decl C v_type=G type=ud num_elts=8";
        let (p, t) = run(
            &kernel(8, decls, "addc (M1, 1) R(0,0)<1> C(0,0)<1> 0xffffffff:ud 0x1:ud\naddc (M1, 1) R(0,1)<1> C(0,1)<1> 0x7:ud 0x1:ud\nsubb (M1, 1) R(0,2)<1> C(0,2)<1> 0x1:ud 0x2:ud\nsubb (M1, 1) R(0,3)<1> C(0,3)<1> 0x5:ud 0x2:ud"),
            8,
        );
        assert_eq!(&elems(&p, &t, "R")[..4], [0, 8, 0xffff_ffff, 3]);
        assert_eq!(&elems(&p, &t, "C")[..4], [1, 0, 1, 0]);
        // Integer division truncates toward zero; the remainder has the numerator's sign.
        assert_eq!(
            r1("d", "div (M1, 1) R(0,0)<1> -7:d 2:d"),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            r1("d", "mod (M1, 1) R(0,0)<1> -7:d 2:d"),
            (-1i32) as u32 as u64
        );
        assert_eq!(r1("d", "mod (M1, 1) R(0,0)<1> 7:d -2:d"), 1);
        // min/max compare exactly: 0x80000000 (ud) is above 5 (d).
        assert_eq!(
            r1("ud", "max (M1, 1) R(0,0)<1> 0x80000000:ud 5:d"),
            0x8000_0000
        );
        assert_eq!(r1("d", "min (M1, 1) R(0,0)<1> 0x80000000:ud 5:d"), 5);
        assert_eq!(
            r1("d", "min (M1, 1) R(0,0)<1> -3:d 5:d"),
            (-3i32) as u32 as u64
        );
    }

    #[test]
    fn division_by_zero_is_an_error_with_the_channel() {
        let decls = ".decl R v_type=G type=d num_elts=8\n.decl A v_type=G type=d num_elts=8";
        let text = kernel(
            8,
            decls,
            "mov (M1, 8) A(0,0)<1> 0x10325476:v\ndiv (M1, 8) R(0,0)<1> 5:d A(0,0)<1;1,0>",
        );
        let listing = crate::visa::reader::read(&text).unwrap();
        let program = crate::visa::program::Program::new(&listing, 32, 1 << 20).unwrap();
        let config = crate::visa::run::RunConfig::default();
        let payload = [0u8; 64];
        let init = crate::visa::run::ThreadInit {
            payload: &payload,
            dispatch_mask: 0xff,
            hw_id: 0,
        };
        let mut t = crate::visa::run::Thread::new(&program, &init, &config).unwrap();
        let e = t
            .run(&program, &mut crate::visa::run::NoMemory, &config)
            .unwrap_err();
        // The packed immediate 0x10325476 holds, from its low nibble, 6 7 4 5 2 3 0 1:
        // 0 in channel 6. The div is line 9 (after
        // .version, .kernel, two .decl, .kernel_attr, .function, the label and the mov).
        assert_eq!(e.line, 9);
        assert!(matches!(
            e.kind,
            crate::visa::error::ErrorKind::DivideByZero { channel: 6 }
        ));
    }

    #[test]
    fn shifts_mask_their_count_at_the_execution_width() {
        // A shift count of 33 uses its low 5 bits (1) at 32 bits, 6 bits at 64.
        assert_eq!(r1("ud", "shl (M1, 1) R(0,0)<1> 0x1:ud 33:ud"), 2);
        assert_eq!(r1("uq", "shl (M1, 1) R(0,0)<1> 0x1:ud 33:ud"), 1 << 33);
        // shr is logical at 32 bits: -2 (d) >> 1 = 0x7fffffff.
        assert_eq!(r1("ud", "shr (M1, 1) R(0,0)<1> -2:d 1:ud"), 0x7fff_ffff);
        // asr keeps the sign: -8 >> 1 = -4, and the count 33 is 1.
        assert_eq!(
            r1("d", "asr (M1, 1) R(0,0)<1> -8:d 33:ud"),
            (-4i32) as u32 as u64
        );
        assert_eq!(
            r1("q", "asr (M1, 1) R(0,0)<1> 0x8000000000000000:q 63:ud"),
            u64::MAX
        );
        // rol/ror rotate within src0's width.
        assert_eq!(r1("ud", "rol (M1, 1) R(0,0)<1> 0x80000001:ud 1:ud"), 3);
        assert_eq!(r1("uw", "ror (M1, 1) R(0,0)<1> 0x1:uw 1:uw"), 0x8000);
        // Logic ops and the (~) modifier.
        assert_eq!(
            r1("ud", "and (M1, 1) R(0,0)<1> 0xff00ff00:ud 0x0ff00ff0:ud"),
            0x0f00_0f00
        );
        assert_eq!(
            r1(
                "ud",
                "mov (M1, 1) C(0,0)<1> 0xff:ud\nxor (M1, 1) R(0,0)<1> (~)C(0,0)<0;1,0> 0x1:ud"
            ),
            0xffff_ff01
        );
        assert_eq!(r1("uw", "not (M1, 1) R(0,0)<1> 0x00ff:uw"), 0xff00);
    }

    #[test]
    fn bit_field_operations_follow_their_pseudo_code() {
        // BFE: 8 bits from bit 4 of 0x12345678 = 0x67.
        assert_eq!(
            r1("ud", "bfe (M1, 1) R(0,0)<1> 8:ud 4:ud 0x12345678:ud"),
            0x67
        );
        // D destination: 4 bits from bit 4 of 0xf0 = 0xf, sign-extended to -1.
        assert_eq!(r1("d", "bfe (M1, 1) R(0,0)<1> 4:d 4:d 0xf0:d"), 0xffff_ffff);
        // A width of 32 is masked to 0: the field is empty.
        assert_eq!(
            r1("ud", "bfe (M1, 1) R(0,0)<1> 32:ud 0:ud 0xffffffff:ud"),
            0
        );
        // BFI: 0xab into bits 8..16 of 0x11223344.
        assert_eq!(
            r1(
                "ud",
                "bfi (M1, 1) R(0,0)<1> 8:ud 8:ud 0xab:ud 0x11223344:ud"
            ),
            0x1122_ab44
        );
        assert_eq!(r1("ud", "bfrev (M1, 1) R(0,0)<1> 0x1:ud"), 0x8000_0000);
        assert_eq!(r1("ud", "cbit (M1, 1) R(0,0)<1> 0xf0f0:uw"), 8);
        assert_eq!(r1("ud", "fbl (M1, 1) R(0,0)<1> 0x80:ud"), 7);
        assert_eq!(r1("ud", "fbl (M1, 1) R(0,0)<1> 0x0:ud"), 0xffff_ffff);
        assert_eq!(r1("ud", "fbh (M1, 1) R(0,0)<1> 0x1:ud"), 31);
        // Signed: -2 has 31 leading ones; 0x7fffffff one leading zero; 0 and -1: none.
        assert_eq!(r1("ud", "fbh (M1, 1) R(0,0)<1> -2:d"), 31);
        assert_eq!(r1("ud", "fbh (M1, 1) R(0,0)<1> 0x7fffffff:d"), 1);
        assert_eq!(r1("ud", "fbh (M1, 1) R(0,0)<1> -1:d"), 0xffff_ffff);
        assert_eq!(r1("ud", "fbh (M1, 1) R(0,0)<1> 0:d"), 0xffff_ffff);
        assert_eq!(r1("ud", "lzd (M1, 1) R(0,0)<1> 0x0:ud"), 32);
        assert_eq!(r1("ud", "lzd (M1, 1) R(0,0)<1> 0x1:ud"), 31);
        // bfn.x96 is the three-input xor (truth-table bits 1, 2, 4, 7), bfn.x80 the and.
        assert_eq!(
            r1("ud", "bfn.x96 (M1, 1) R(0,0)<1> 0xc:ud 0xa:ud 0x1:ud"),
            0x7
        );
        assert_eq!(
            r1("ud", "bfn.x80 (M1, 1) R(0,0)<1> 0xe:ud 0x7:ud 0xf:ud"),
            0x6
        );
    }

    #[test]
    fn compares_write_predicates_or_masks() {
        // Exact compare: 0xffffffff (ud) < 1 (d) is false; as signed it would be true.
        assert_eq!(
            r1(
                "ud",
                "cmp.lt (M1, 1) P1 0xffffffff:ud 1:d\nmov (M1, 1) R(0,0)<1> P1"
            ),
            0
        );
        // A general destination gets all ones of its size.
        assert_eq!(r1("uw", "cmp.eq (M1, 1) R(0,0)<1> 3:d 3:d"), 0xffff);
        assert_eq!(r1("ud", "cmp.ne (M1, 1) R(0,0)<1> 3:d 3:d"), 0);
        // Floats: NaN is unordered (ne true, eq false), -0 == +0.
        assert_eq!(
            r1("ud", "cmp.ne (M1, 1) R(0,0)<1> 0x7fc00000:f 0x7fc00000:f"),
            0xffff_ffff
        );
        assert_eq!(
            r1("ud", "cmp.eq (M1, 1) R(0,0)<1> 0x7fc00000:f 0x7fc00000:f"),
            0
        );
        assert_eq!(
            r1("ud", "cmp.eq (M1, 1) R(0,0)<1> 0x80000000:f 0x0:f"),
            0xffff_ffff
        );
        // Per channel: lanes 0..8 are 0..7 (the packed `v` immediate); lane < 3.
        let decls = ".decl L v_type=G type=w num_elts=8\n.decl P1 v_type=P num_elts=8";
        let (p, t) = run(
            &kernel(
                8,
                decls,
                "mov (M1, 8) L(0,0)<1> 0x76543210:v\ncmp.lt (M1, 8) P1 L(0,0)<1;1,0> 3:w",
            ),
            8,
        );
        assert_eq!(pred(&p, &t, "P1"), 0b0000_0111);
    }

    #[test]
    fn float_arithmetic_rounds_once_per_operation() {
        // 0.1f + 0.2f = 0x3e99999a (the f32 sum, hand-rounded).
        assert_eq!(
            r1("f", "add (M1, 1) R(0,0)<1> 0x3dcccccd:f 0x3e4ccccd:f"),
            0x3e99_999a
        );
        // mad is fused: (1 + 2^-13)(1 - 2^-13) - 1 = -2^-26 (0xb2800000), which
        // mul then add would lose (the product rounds to 1.0).
        assert_eq!(
            r1(
                "f",
                "mad (M1, 1) R(0,0)<1> 0x3f800400:f 0x3f7ff800:f 0xbf800000:f"
            ),
            0xb280_0000
        );
        assert_eq!(
            r1("f", "mul (M1, 1) R(0,0)<1> 0x3f800400:f 0x3f7ff800:f"),
            0x3f80_0000
        );
        // div is src0 * inv(src1): 3 * inv(7) = 3 * 0x3e124925 lies on the tie between
        // 0x3edb6db7 and 0x3edb6db8 and rounds to the even one, unlike 3/7 (0x3edb6db7).
        assert_eq!(r1("f", "div (M1, 1) R(0,0)<1> 3.0:f 7.0:f"), 0x3edb_6db8);
        assert_eq!(r1("f", "inv (M1, 1) R(0,0)<1> 7.0:f"), 0x3e12_4925);
        // divm is IEEE division: 3/7 rounds to 0x3edb6db7.
        assert_eq!(r1("f", "divm (M1, 1) R(0,0)<1> 3.0:f 7.0:f"), 0x3edb_6db7);
        assert_eq!(r1("f", "sqrt (M1, 1) R(0,0)<1> 16.0:f"), 0x4080_0000);
        // sqrtm is the IEEE root: sqrt(2) = 1.41421356.. lies between 0x3fb504f3
        // (1.41421353..) and 0x3fb504f4 (1.41421365..), nearer the first; -0 stays -0 and
        // +inf stays +inf.
        assert_eq!(r1("f", "sqrtm (M1, 1) R(0,0)<1> 2.0:f"), 0x3fb5_04f3);
        assert_eq!(r1("f", "sqrtm (M1, 1) R(0,0)<1> 0x80000000:f"), 0x8000_0000);
        assert_eq!(r1("f", "sqrtm (M1, 1) R(0,0)<1> 0x7f800000:f"), 0x7f80_0000);
        assert_eq!(r1("f", "rsqrt (M1, 1) R(0,0)<1> 4.0:f"), 0x3f00_0000);
        assert_eq!(r1("f", "exp (M1, 1) R(0,0)<1> 3.0:f"), 0x4100_0000);
        assert_eq!(r1("f", "log (M1, 1) R(0,0)<1> 8.0:f"), 0x4040_0000);
        assert_eq!(r1("f", "pow (M1, 1) R(0,0)<1> 2.0:f 10.0:f"), 0x4480_0000);
        // Half: 1 + 2^-11 is the tie between 1.0 and 1 + 2^-10; even is 1.0 (0x3c00).
        assert_eq!(
            r1("hf", "add (M1, 1) R(0,0)<1> 0x3c00:hf 0x1000:hf"),
            0x3c00
        );
        assert_eq!(
            r1("hf", "add (M1, 1) R(0,0)<1> 0x3c00:hf 0x1400:hf"),
            0x3c01
        );
        // Double.
        assert_eq!(
            r1("df", "add (M1, 1) R(0,0)<1> 1.0:df 2.0e-16:df"),
            (1.0f64 + 2.0e-16).to_bits()
        );
        // .sat clamps to [0, 1].
        assert_eq!(
            r1("f", "add.sat (M1, 1) R(0,0)<1> 0.75:f 0.5:f"),
            0x3f80_0000
        );
        assert_eq!(r1("f", "add.sat (M1, 1) R(0,0)<1> -0.75:f 0.5:f"), 0);
    }

    #[test]
    fn float_rounding_instructions_min_max_and_denormals() {
        let f = |body: &str| f32::from_bits(r1("f", body) as u32);
        assert_eq!(f("rnde (M1, 1) R(0,0)<1> 2.5:f"), 2.0);
        assert_eq!(f("rnde (M1, 1) R(0,0)<1> 3.5:f"), 4.0);
        assert_eq!(f("rnde (M1, 1) R(0,0)<1> -2.5:f"), -2.0);
        assert_eq!(f("rndd (M1, 1) R(0,0)<1> -1.5:f"), -2.0);
        assert_eq!(f("rndu (M1, 1) R(0,0)<1> -1.5:f"), -1.0);
        assert_eq!(f("rndz (M1, 1) R(0,0)<1> -1.5:f"), -1.0);
        assert_eq!(f("frc (M1, 1) R(0,0)<1> -1.25:f"), 0.75);
        // min/max: the non-NaN source; -0 below +0.
        assert_eq!(f("max (M1, 1) R(0,0)<1> 0x7fc00000:f 1.0:f"), 1.0);
        assert_eq!(f("min (M1, 1) R(0,0)<1> 2.0:f 0x7fc00000:f"), 2.0);
        // Both NaN: src1, quieted (0x7f800001 is a signaling NaN: 0x7fc00001).
        assert_eq!(
            r1("f", "min (M1, 1) R(0,0)<1> 0x7fc00000:f 0x7f800001:f"),
            0x7fc0_0001
        );
        assert_eq!(
            r1("f", "min (M1, 1) R(0,0)<1> 0x0:f 0x80000000:f"),
            0x8000_0000
        );
        assert_eq!(r1("f", "max (M1, 1) R(0,0)<1> 0x80000000:f 0x0:f"), 0);
        // Denormals: %cr0 = 0 flushes a denormal product (1e-38 * 0.01) and a denormal
        // input (0x1); %cr0 bit 7 keeps them.
        let body = "mul (M1, 1) R(0,0)<1> 0x006ce3ee:f 0x3c23d70a:f";
        let kept = (f32::from_bits(0x006c_e3ee) * f32::from_bits(0x3c23_d70a)).to_bits();
        assert!(f32::from_bits(kept).is_subnormal());
        assert_eq!(r1_cr0("f", body, 0), 0);
        assert_eq!(r1_cr0("f", body, 0x80), u64::from(kept));
        assert_eq!(r1_cr0("f", "add (M1, 1) R(0,0)<1> 0x1:f 0x0:f", 0), 0);
        assert_eq!(r1_cr0("f", "add (M1, 1) R(0,0)<1> 0x1:f 0x0:f", 0x4c0), 1);
    }

    #[test]
    fn nan_operands_propagate_and_invalid_operations_give_the_default_nan() {
        // The first NaN operand, quieted, sign and payload kept.
        assert_eq!(
            r1("f", "add (M1, 1) R(0,0)<1> 0x7f800001:f 1.0:f"),
            0x7fc0_0001
        );
        assert_eq!(
            r1("f", "mul (M1, 1) R(0,0)<1> 2.0:f 0xffc00123:f"),
            0xffc0_0123
        );
        assert_eq!(
            r1("f", "mad (M1, 1) R(0,0)<1> 1.0:f 0x7fc00005:f 0xffc00007:f"),
            0x7fc0_0005
        );
        // 0 * inf and sqrt(-1): the default NaN 0xffc00000.
        assert_eq!(
            r1("f", "mul (M1, 1) R(0,0)<1> 0x0:f 0x7f800000:f"),
            0xffc0_0000
        );
        assert_eq!(r1("f", "sqrt (M1, 1) R(0,0)<1> -1.0:f"), 0xffc0_0000);
        // Narrowing keeps the top payload bits: f 0x7fd00000 -> hf 0x7e80.
        assert_eq!(r1("hf", "mov (M1, 1) R(0,0)<1> 0x7fd00000:f"), 0x7e80);
        // .sat makes a NaN 0.
        assert_eq!(r1("f", "add.sat (M1, 1) R(0,0)<1> 0x7fc00000:f 1.0:f"), 0);
    }

    #[test]
    fn mov_converts_types() {
        assert_eq!(
            r1("d", "mov (M1, 1) R(0,0)<1> -2.7:f"),
            (-2i32) as u32 as u64
        );
        assert_eq!(r1("d", "mov (M1, 1) R(0,0)<1> 3.0e+9:f"), 0x7fff_ffff);
        assert_eq!(r1("d", "mov (M1, 1) R(0,0)<1> 0x7fc00000:f"), 0);
        assert_eq!(r1("ub", "mov.sat (M1, 1) R(0,0)<1> 300:d"), 255);
        assert_eq!(r1("ub", "mov.sat (M1, 1) R(0,0)<1> -5:d"), 0);
        // 2^24 + 1 rounds to even, 2^24.
        assert_eq!(r1("f", "mov (M1, 1) R(0,0)<1> 16777217:d"), 0x4b80_0000);
        // hf -> f is exact; f -> hf: 65520 rounds to infinity, 1/3 to 0x3555.
        assert_eq!(r1("f", "mov (M1, 1) R(0,0)<1> 0x3555:hf"), 0x3eaa_a000);
        assert_eq!(r1("hf", "mov (M1, 1) R(0,0)<1> 65520.0:f"), 0x7c00);
        assert_eq!(r1("hf", "mov (M1, 1) R(0,0)<1> 0x3eaaaaab:f"), 0x3555);
        // Zero and sign extension.
        assert_eq!(r1("d", "mov (M1, 1) R(0,0)<1> 0xffff:uw"), 65535);
        assert_eq!(r1("d", "mov (M1, 1) R(0,0)<1> 0xffff:w"), 0xffff_ffff);
        assert_eq!(
            r1(
                "d",
                "mov (M1, 1) C(0,0)<1> 0x1:ud\nmov (M1, 1) R(0,0)<1> (-)C(0,0)<0;1,0>"
            ),
            0xffff_ffff
        );
        // 1 + 2^-11 + 2^-20 (0x3f801008) is above the tie between 0x3c00 and 0x3c01:
        // nearest gives 0x3c01; %cr0 round toward zero (0x30) gives 0x3c00.
        assert_eq!(r1("hf", "mov (M1, 1) R(0,0)<1> 0x3f801008:f"), 0x3c01);
        assert_eq!(
            r1_cr0("hf", "mov (M1, 1) R(0,0)<1> 0x3f801008:f", 0x30),
            0x3c00
        );
    }

    #[test]
    fn regions_select_sel_and_setp() {
        let decls = ".decl A v_type=G type=d num_elts=8\n.decl B v_type=G type=d num_elts=16\n.decl P1 v_type=P num_elts=16";
        // <2;4,0>: two rows of four copies, rows two elements apart.
        let body = "mov (M1, 8) A(0,0)<1> 0x76543210:v\nmov (M1, 8) B(0,0)<2> A(0,0)<2;4,0>";
        let (p, t) = run(&kernel(8, decls, body), 8);
        let b = elems(&p, &t, "B");
        assert_eq!(
            [b[0], b[2], b[4], b[6], b[8], b[10], b[12], b[14]],
            [0, 0, 0, 0, 2, 2, 2, 2]
        );
        // setp from a scalar sets element i from bit i; sel picks src0 where set.
        let body = "setp (M1_NM, 8) P1 0xf0:uw\n(P1) sel (M1, 8) A(0,0)<1> 1:d 2:d";
        let (p, t) = run(&kernel(8, decls, body), 8);
        assert_eq!(elems(&p, &t, "A"), [2, 2, 2, 2, 1, 1, 1, 1]);
        // A predicated mov writes only the channels whose bit is set.
        let body =
            "mov (M1, 8) A(0,0)<1> 0:d\nsetp (M1_NM, 8) P1 0x5:uw\n(!P1) mov (M1, 8) A(0,0)<1> 9:d";
        let (p, t) = run(&kernel(8, decls, body), 8);
        assert_eq!(elems(&p, &t, "A"), [0, 9, 0, 9, 9, 9, 9, 9]);
        // Predicate logic.
        let decls2 = ".decl P1 v_type=P num_elts=8\n.decl P2 v_type=P num_elts=8\n.decl P3 v_type=P num_elts=8";
        let body =
            "setp (M1_NM, 8) P1 0x0f:uw\nsetp (M1_NM, 8) P2 0x3c:uw\nxor (M1_NM, 8) P3 P1 P2";
        let (p, t) = run(&kernel(8, decls2, body), 8);
        assert_eq!(pred(&p, &t, "P3"), 0x33);
    }
}
