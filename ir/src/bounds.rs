//! The values a component may take when it derives from instructions Vulkan lets err:
//! an [`Interval`] per component, propagated through ALU instructions so that a
//! comparison of two runs accepts what the precision table (`ir/PRECISION.md`) allows
//! and nothing more.
//!
//! The executor computes one result for every instruction (`ir::eval`); an instruction
//! without `exact` whose Vulkan bound is a number of ULPs ([`crate::precision::Bound::Ulps`]:
//! `fdiv`, `frcp`, `frsq`) may give any float within that bound of the true value, and
//! an environment may say the same of an intrinsic's result (the verifier does for the
//! conversion of a normalized texel). [`alu_bounds`] carries such intervals through the
//! instructions that follow:
//!
//! * the interval of a source is the set of floats (or integers) of its type between
//!   its ends, the executor's own value among them;
//! * an instruction whose result, as the executor computes it, is monotonic in each
//!   of its scalar operands where the others are fixed, or a multilinear function
//!   rounded by monotonic roundings (`fadd`, `fmul`, `ffma`, `fdot4`, `fmin`, the
//!   conversions, the roundings, ...), takes its extremes at the vertices of the box
//!   of its operands' intervals: the result's interval is the hull of the results at
//!   every vertex (`fabs` adds 0 where its operand's interval spans it; a division or
//!   reciprocal refuses a divisor interval that spans 0);
//! * an instruction that errs adds its bound to the true value's range over the box;
//! * `fsin` and `fcos` take the range of the function over their operand's interval:
//!   the values at its ends, and 1 or -1 where a peak or a trough lies inside (any
//!   value in [-1, 1] over a full period), widened by an ulp for the rounding;
//! * `bcsel` takes the chosen source's interval; `vecN` its sources';
//! * a float's conversion to an integer (`f2i32`, `f2u32`, saturating) gives an
//!   integer interval ([`Interval::int`]), which integer minima and maxima and the
//!   conversions back to floats carry on (a value quantized as `uint(x * 255.0 + 0.5)`
//!   may be either integer next to a rounding boundary); `mov` copies its source's;
//! * an integer conversion that keeps a 32-bit value's bits (`u2u32`, `i2i32`, the
//!   widening `u2u64`, `i2i64`) keeps an integer interval where it keeps the values,
//!   and makes a float interval strictly on one side of zero the run of integers its
//!   floats' bits are (a float's bits stored as an integer, as `floatBitsToUint` and a
//!   widening write), when the run holds the executor's own value;
//! * any other instruction drops the interval, as does one that reads a component's
//!   bits as the other domain than its interval's: its result must then be the
//!   executor's, bit for bit. Dropping is always safe: it only makes a comparison
//!   stricter. Booleans and bit patterns (shifts, masks, packing) compare bit for bit.
//!
//! An `exact` instruction adds no error of its own, but a result computed from operands
//! that may differ may differ too: it is propagated like a correctly rounded one.

use crate::alu::AluOp;
use crate::eval::{eval_alu_flagged, f16_to_f32, Operand};
use crate::precision::{ulp, vulkan_bound, Bound};
use crate::types::{BaseType, Type};
use smallvec::SmallVec;

/// The values a component may have: every value of its type from `lo` to `hi`
/// (inclusive), as real numbers: floats, or integers where `int` is set (the result
/// of a float's conversion to an integer, and what integer min/max and conversions
/// make of it). A register's bits are read as its interval's domain says; an
/// instruction that reads them as the other domain drops the interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    /// The lowest value.
    pub lo: f64,
    /// The highest value.
    pub hi: f64,
    /// Whether the values are integers (the component's bits an integer's), not floats.
    pub int: bool,
}

impl Interval {
    /// The floats from `lo` to `hi`.
    pub fn new(lo: f64, hi: f64) -> Interval {
        Interval { lo, hi, int: false }
    }

    /// The integers from `lo` to `hi`.
    pub fn integers(lo: f64, hi: f64) -> Interval {
        Interval { lo, hi, int: true }
    }

    /// The base type a component's bits are read as for this interval, signed where
    /// it holds a negative integer.
    pub fn base(&self) -> BaseType {
        match (self.int, self.lo < 0.0) {
            (false, _) => BaseType::Float,
            (true, true) => BaseType::Int,
            (true, false) => BaseType::Uint,
        }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// The smallest interval holding both.
    pub fn hull(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
            int: self.int,
        }
    }

    /// The interval within `ulps` units in the last place (of a float of `bits` bits)
    /// of every value of `self`, as a bound of [`Bound::Ulps`] allows.
    pub fn widened_by_ulps(self, bits: u8, ulps: f64) -> Interval {
        // An infinite end stays where it is.
        let step = |x: f64| {
            if x.is_finite() {
                ulps * ulp(bits, x)
            } else {
                0.0
            }
        };
        Interval {
            lo: self.lo - step(self.lo),
            hi: self.hi + step(self.hi),
            int: self.int,
        }
    }
}

/// The number the `bits`-bit component `v` of base type `base` stands for (a float's
/// infinities included: an interval whose computation overflows reaches them), or
/// `None` for a NaN, a boolean, or an integer beyond 2^53 (which an `f64` may not hold
/// exactly).
pub fn component_value(base: BaseType, bits: u8, v: u64) -> Option<f64> {
    let x = match (base, bits) {
        (BaseType::Float, 16) => f64::from(f16_to_f32(v as u16)),
        (BaseType::Float, 32) => f64::from(f32::from_bits(v as u32)),
        (BaseType::Float, 64) => f64::from_bits(v),
        (BaseType::Int, 1..=64) => {
            let shift = 64 - u32::from(bits);
            (((v << shift) as i64) >> shift) as f64
        }
        (BaseType::Uint, 1..=64) => (v & crate::types::bit_mask(bits)) as f64,
        _ => return None,
    };
    // A float's infinities are values (an interval's end where a vertex overflows);
    // an integer beyond 2^53 is not exact in an f64.
    match base {
        BaseType::Float => (!x.is_nan()).then_some(x),
        _ => (x.abs() <= 2f64.powi(53)).then_some(x),
    }
}

/// Whether `actual`, a `bits`-bit component of base type `base`, is a value `bound`
/// allows (every component matches itself: the caller compares bits first).
pub fn accepts(base: BaseType, bits: u8, bound: Interval, actual: u64) -> bool {
    // An integer interval reads the bits as an integer, whatever the caller's type.
    let base = if bound.int { bound.base() } else { base };
    component_value(base, bits, actual).is_some_and(|x| bound.contains(x))
}

/// The bits of the lowest value of the type at or above `x` (`up`), or of the highest
/// at or below it, for 32- and 64-bit floats and integers; `None` where the type has no
/// such value or is not modelled (16-bit floats).
fn bits_toward(base: BaseType, bits: u8, x: f64, up: bool) -> Option<u64> {
    match (base, bits) {
        (BaseType::Float, 32) => {
            let mut f = x as f32;
            if up && f64::from(f) < x {
                f = f.next_up();
            } else if !up && f64::from(f) > x {
                f = f.next_down();
            }
            (!f.is_nan()).then_some(u64::from(f.to_bits()))
        }
        (BaseType::Float, 64) => (!x.is_nan()).then_some(x.to_bits()),
        (BaseType::Int, 1..=63) | (BaseType::Uint, 1..=63) => {
            let v = if up { x.ceil() } else { x.floor() };
            let (min, max) = if base == BaseType::Int {
                let half = 2f64.powi(i32::from(bits) - 1);
                (-half, half - 1.0)
            } else {
                (0.0, 2f64.powi(i32::from(bits)) - 1.0)
            };
            ((min..=max).contains(&v)).then_some((v as i64 as u64) & crate::types::bit_mask(bits))
        }
        _ => None,
    }
}

/// Whether the executor's result of `op` is monotonic in each scalar operand, or a
/// multilinear function under monotonic roundings, so that its extremes over a box of
/// operands lie at the box's vertices (see the module documentation).
fn vertex_extremal(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Mov | Fadd
            | Fsub
            | Fmul
            | Ffma
            | Fdiv
            | Frcp
            | Fmin
            | Fmax
            | Fneg
            | Fabs
            | Fsat
            | Ffloor
            | Fceil
            | FroundEven
            | Ftrunc
            | Fsign
            | Fsqrt
            | Fexp2
            | Flog2
            | Fpow
            | Flrp
            | Fdot2
            | Fdot3
            | Fdot4
            | F2f32
            | F2f16
            // Monotonic conversions to and from integers (saturating), and integer
            // minima and maxima: a float interval becomes an integer one and back.
            | F2i32
            | F2u32
            | I2f32
            | U2f32
            | Imin
            | Imax
            | Umin
            | Umax
    )
}

/// The most vertices [`alu_bounds`] evaluates for one component (2^10: all ten
/// operands of a `fdot4` and its neighbours bounded is more than any real case).
const MAX_VERTICES: usize = 1 << 10;

/// The intervals of the components of an ALU instruction's result in one lane: `srcs`
/// are the operands the executor read, `src_bounds[i][c]` the interval of component `c`
/// of operand `i` (`None`: exactly its value), `result` the executor's result (of
/// `dest`). `None` for a component means exactly the executor's value (see the module
/// documentation).
pub fn alu_bounds(
    op: AluOp,
    exact: bool,
    dest: Type,
    srcs: &[Operand<'_>],
    src_bounds: &[&[Option<Interval>]],
    result: &[u64],
) -> SmallVec<[Option<Interval>; 16]> {
    let n = dest.num_components() as usize;
    let info = op.info();
    let out_base = info.output_type.base;
    let bound_of = |i: usize, c: usize| src_bounds.get(i).and_then(|b| b.get(c)).copied().flatten();
    if op.is_vec() {
        return (0..n).map(|c| bound_of(c, 0)).collect();
    }
    // A copy keeps its bits, and their domain.
    if op == AluOp::Mov {
        return (0..n).map(|c| bound_of(0, c)).collect();
    }
    if op == AluOp::Bcsel {
        return (0..n)
            .map(|c| {
                let cond = srcs[0].comps.get(c).copied().unwrap_or(0) & 1 != 0;
                bound_of(if cond { 1 } else { 2 }, c)
            })
            .collect();
    }
    if let Some(bits) = kept_bits(op, srcs, dest) {
        return (0..n)
            .map(|c| {
                let b = reinterpreted(op, bits, bound_of(0, c)?)?;
                // The run holds the executor's own value; one that does not is
                // compared exactly (the run is never widened to reach it).
                let own = component_value(b.base(), dest.bit_size(), *result.get(c)?)?;
                b.contains(own).then_some(b)
            })
            .collect();
    }
    if matches!(op, AluOp::Fsin | AluOp::Fcos) && dest.bit_size() == 32 {
        return (0..n)
            .map(|c| {
                let own = component_value(out_base, 32, *result.get(c)?)?;
                let b = periodic_range(op, bound_of(0, c)?)?
                    .widened_by_ulps(32, 1.0)
                    .hull(Interval::new(own, own));
                (b.lo < b.hi).then_some(b)
            })
            .collect();
    }
    let errs = match vulkan_bound(op) {
        Some(Bound::Ulps(u)) if !exact => Some(u),
        _ => None,
    };
    let signless_zero = |c: usize| -> Option<Interval> {
        let v = component_value(out_base, dest.bit_size(), *result.get(c)?)?;
        (signless_zeros(op, exact) && out_base == BaseType::Float && v == 0.0)
            .then(|| Interval::new(0.0, 0.0))
    };
    if !vertex_extremal(op) && errs.is_none() {
        return (0..n).map(signless_zero).collect();
    }
    let any_bounded = src_bounds.iter().any(|b| b.iter().any(Option::is_some));
    if !any_bounded && errs.is_none() {
        return (0..n).map(signless_zero).collect();
    }
    (0..n)
        .map(|c| {
            // The executor's own value is always allowed.
            let own = component_value(out_base, dest.bit_size(), *result.get(c)?)?;
            let b = component_bounds(op, exact, dest, srcs, &bound_of, c, errs)?
                .hull(Interval::new(own, own));
            if b.lo < b.hi {
                Some(b)
            } else {
                signless_zero(c)
            }
        })
        .collect()
}

/// The values `fsin` (or `fcos`) takes over the operand interval `b`, as real numbers:
/// the values at its ends, and 1 or -1 where the interval holds a peak or a trough.
/// `None` for an interval of integers or with an infinite end (whose sine is NaN).
fn periodic_range(op: AluOp, b: Interval) -> Option<Interval> {
    use std::f64::consts::{FRAC_PI_2, PI, TAU};
    if b.int || !(b.lo.is_finite() && b.hi.is_finite()) {
        return None;
    }
    // A full period, or ends so large that f64 no longer tells the multiples of 2π
    // apart: every value.
    if b.hi - b.lo >= TAU || b.lo.abs().max(b.hi.abs()) > 2f64.powi(40) {
        return Some(Interval::new(-1.0, 1.0));
    }
    let (f, peak, trough): (fn(f64) -> f64, f64, f64) = if op == AluOp::Fsin {
        (libm::sin, FRAC_PI_2, 3.0 * FRAC_PI_2)
    } else {
        (libm::cos, 0.0, PI)
    };
    let holds = |phase: f64| phase + ((b.lo - phase) / TAU).ceil() * TAU <= b.hi;
    let (at_lo, at_hi) = (f(b.lo), f(b.hi));
    Some(Interval::new(
        if holds(trough) {
            -1.0
        } else {
            at_lo.min(at_hi)
        },
        if holds(peak) { 1.0 } else { at_lo.max(at_hi) },
    ))
}

/// The bit size of the source of an integer conversion that keeps its 32-bit source's
/// bits as an integer (`u2u32`, `i2i32`, and the widening `u2u64`, `i2i64`), if `op` is
/// one.
fn kept_bits(op: AluOp, srcs: &[Operand<'_>], dest: Type) -> Option<u8> {
    let bits = srcs.first()?.bit_size;
    (matches!(
        op,
        AluOp::U2u32 | AluOp::U2u64 | AluOp::I2i32 | AluOp::I2i64
    ) && bits == 32
        && dest.bit_size() >= 32)
        .then_some(bits)
}

/// What an integer conversion that keeps its 32-bit source's bits ([`kept_bits`]) gives
/// for a source of interval `b`:
///
/// * an integer interval, read as [`Interval::base`] reads it, keeps its values where
///   the conversion keeps them: always for `u2u32` and `i2i32` (the bits and their
///   reading are unchanged), for `u2u64` when the values are read unsigned, for
///   `i2i64` when they are read signed or are below 2^31;
/// * the floats of a float interval that lies strictly on one side of zero have bits
///   that are a run of integers (the positive floats' bits grow with them, the negative
///   ones' with their magnitude, under the sign bit), read unsigned or as the signed
///   32-bit value the sign extension keeps. An interval that reaches zero holds +0.0
///   and -0.0, whose bits are 0 and 2^31: no run, compared exactly (`None`).
fn reinterpreted(op: AluOp, bits: u8, b: Interval) -> Option<Interval> {
    let sign = 2f64.powi(i32::from(bits) - 1);
    if b.int {
        let keeps = match op {
            AluOp::U2u32 | AluOp::I2i32 => true,
            AluOp::U2u64 => b.lo >= 0.0,
            _ => b.lo < 0.0 || b.hi < sign,
        };
        return keeps.then_some(b);
    }
    let signed = matches!(op, AluOp::I2i32 | AluOp::I2i64);
    let pattern = |x: f64, up: bool| bits_toward(BaseType::Float, bits, x, up).map(|v| v as f64);
    let (lo, hi, base) = if b.lo > 0.0 {
        (pattern(b.lo, true)?, pattern(b.hi, false)?, 0.0)
    } else if b.hi < 0.0 {
        // Magnitudes from |hi| to |lo|, under the sign bit.
        let base = if signed { -sign } else { sign };
        (pattern(-b.hi, true)?, pattern(-b.lo, false)?, base)
    } else {
        return None;
    };
    (lo <= hi).then_some(Interval::integers(base + lo, base + hi))
}

/// Whether a zero that `op` gives may have either sign: an instruction without `exact`
/// that NIR's inexact rules rewrite assuming the sign of a zero does not matter
/// (`~fmul a, 0.0` to `0.0`, `~fadd a, 0.0` to `a`, `~ffma a, b, 0.0` to `fmul a, b`), as
/// Vulkan allows without `SignedZeroInfNanPreserve`. [`alu_bounds`] gives such a zero
/// the interval [0, 0], which holds both.
pub fn signless_zeros(op: AluOp, exact: bool) -> bool {
    !exact && matches!(op, AluOp::Fmul | AluOp::Fadd | AluOp::Fsub | AluOp::Ffma)
}

/// Whether `op` errs itself, within a number of ULPs: its results have intervals
/// whatever its operands' (see [`alu_bounds`]).
pub fn errs_itself(op: AluOp, exact: bool) -> bool {
    !exact && matches!(vulkan_bound(op), Some(Bound::Ulps(_)))
}

/// Whether `result` (of `op`, of type `dest`) holds a zero whose sign is free
/// ([`signless_zeros`]): then it has an interval whatever its operands'. Asked of every
/// float instruction the executor runs, so it looks at the bits only.
pub fn has_signless_zero(op: AluOp, exact: bool, dest: Type, result: &[u64]) -> bool {
    let magnitude = crate::types::bit_mask(dest.bit_size()) >> 1;
    signless_zeros(op, exact) && result.iter().any(|&r| r & magnitude == 0)
}

/// A scalar operand with an interval: its source, its component, the bits of its lowest
/// and highest value, and those values.
type FreeOperand = (usize, usize, [u64; 2], Interval);

/// [`alu_bounds`] for component `c` of the result.
fn component_bounds(
    op: AluOp,
    exact: bool,
    dest: Type,
    srcs: &[Operand<'_>],
    bound_of: &dyn Fn(usize, usize) -> Option<Interval>,
    c: usize,
    errs: Option<f64>,
) -> Option<Interval> {
    let info = op.info();
    let out_base = info.output_type.base;
    let bits = dest.bit_size();
    // The scalar operands component `c` reads: (source, component).
    let per_comp = info.output_size == 0;
    let mut reads: SmallVec<[(usize, usize); 16]> = SmallVec::new();
    for (i, s) in srcs.iter().enumerate() {
        if per_comp && info.input_sizes[i] == 0 {
            reads.push((i, c));
        } else {
            reads.extend((0..s.comps.len()).map(|k| (i, k)));
        }
    }
    // The bounded ones, with the bits of their lowest and highest value.
    let mut free: SmallVec<[FreeOperand; 8]> = SmallVec::new();
    for &(i, k) in &reads {
        let Some(b) = bound_of(i, k) else { continue };
        let base = info.input_types[i].base;
        // Bits read as the other domain than their interval's: no interval.
        if b.int != matches!(base, BaseType::Int | BaseType::Uint) {
            return None;
        }
        let sb = srcs[i].bit_size;
        let lo = bits_toward(base, sb, b.lo, true)?;
        let hi = bits_toward(base, sb, b.hi, false)?;
        let range = Interval::new(
            component_value(base, sb, lo)?,
            component_value(base, sb, hi)?,
        );
        free.push((i, k, [lo, hi], range));
    }
    if free.len() > MAX_VERTICES.trailing_zeros() as usize {
        return None;
    }
    // A divisor whose interval spans 0 has no bounded quotient.
    if matches!(op, AluOp::Fdiv | AluOp::Frcp | AluOp::Frsq) {
        let d = if op == AluOp::Fdiv { 1 } else { 0 };
        let own_d = component_value(BaseType::Float, srcs[d].bit_size, srcs[d].comps[c])?;
        let dr = free
            .iter()
            .find(|f| f.0 == d)
            .map_or(Interval::new(own_d, own_d), |f| f.3);
        let spans_zero = dr.lo <= 0.0 && dr.hi >= 0.0;
        if spans_zero || (op == AluOp::Frsq && dr.lo <= 0.0) {
            return None;
        }
        // Vulkan bounds OpFDiv for |y| in [2^-126, 2^126] only.
        let normal = 2f64.powi(-126)..=2f64.powi(126);
        if errs.is_some() && !(normal.contains(&dr.lo.abs()) && normal.contains(&dr.hi.abs())) {
            return None;
        }
    }
    // The executor's `fpow` raises |x|: not monotonic in a base that spans 0.
    if op == AluOp::Fpow
        && free
            .iter()
            .any(|f| f.0 == 0 && f.3.lo < 0.0 && f.3.hi > 0.0)
    {
        return None;
    }
    let mut bufs: SmallVec<[SmallVec<[u64; 16]>; 4]> = srcs
        .iter()
        .map(|s| s.comps.iter().copied().collect())
        .collect();
    let scalar = Type::new(bits, 1)?;
    let mut hull: Option<Interval> = None;
    for vertex in 0..1usize << free.len() {
        for (j, &(i, k, ends, _)) in free.iter().enumerate() {
            bufs[i][k] = ends[(vertex >> j) & 1];
        }
        let value = if let Some(u) = errs {
            // The true value at the vertex, and the bound around it.
            let x = |i: usize| component_value(BaseType::Float, srcs[i].bit_size, bufs[i][c]);
            let t = match op {
                AluOp::Fdiv => x(0)? / x(1)?,
                AluOp::Frcp => 1.0 / x(0)?,
                AluOp::Frsq => 1.0 / x(0)?.sqrt(),
                _ => return None,
            };
            if !t.is_finite() {
                return None;
            }
            Interval::new(t, t).widened_by_ulps(bits, u)
        } else {
            let ops: SmallVec<[Operand<'_>; 4]> = bufs
                .iter()
                .zip(srcs)
                .map(|(b, s)| {
                    if per_comp && info.input_sizes[0] == 0 {
                        Operand::new(s.bit_size, &b[c..c + 1])
                    } else {
                        Operand::new(s.bit_size, b)
                    }
                })
                .collect();
            let r = eval_alu_flagged(op, exact, scalar, &ops).ok()?;
            let Some(v) = component_value(out_base, bits, *r.first()?) else {
                // A NaN from infinite ends (inf - inf, 0 * inf): the operands reach
                // every value there, and so does the result.
                let unbounded = out_base == BaseType::Float
                    && free
                        .iter()
                        .any(|f| !(f.3.lo.is_finite() && f.3.hi.is_finite()));
                return unbounded.then(|| Interval::new(f64::NEG_INFINITY, f64::INFINITY));
            };
            if op == AluOp::Fabs && free.first().is_some_and(|f| f.3.lo < 0.0 && f.3.hi > 0.0) {
                Interval::new(0.0, v)
            } else if matches!(out_base, BaseType::Int | BaseType::Uint) {
                Interval::integers(v, v)
            } else {
                Interval::new(v, v)
            }
        };
        hull = Some(hull.map_or(value, |h| h.hull(value)));
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval_alu_flagged;

    #[test]
    fn sine_and_cosine_take_their_range_over_the_operand() {
        let iv = |lo: f64, hi: f64| Some(Interval::new(lo, hi));
        // Monotonic stretch: the ends' values (widened by the rounding's ulp).
        let b = bounds_of(AluOp::Fsin, false, &[(0.15, iv(0.1, 0.2))]).unwrap();
        assert!(b.lo <= 0.1f64.sin() && b.lo > 0.0998 && b.hi >= 0.2f64.sin() && b.hi < 0.1988);
        // A peak inside (π/2 in [1.5, 1.7]): up to 1; the low end is sin 1.7.
        let b = bounds_of(AluOp::Fsin, false, &[(1.6, iv(1.5, 1.7))]).unwrap();
        assert!(b.hi >= 1.0 && (b.lo - 1.7f64.sin()).abs() < 1e-6, "{b:?}");
        // cos: a trough at π in [3.0, 3.2], a peak at 2π in [6.2, 6.4].
        let b = bounds_of(AluOp::Fcos, false, &[(3.1, iv(3.0, 3.2))]).unwrap();
        assert!(b.lo <= -1.0 && (b.hi - 3.0f64.cos().max(3.2f64.cos())).abs() < 1e-6);
        let b = bounds_of(AluOp::Fcos, false, &[(6.3, iv(6.2, 6.4))]).unwrap();
        assert!(b.hi >= 1.0 && b.lo < 6.4f64.cos().min(6.2f64.cos()) + 1e-6);
        // A full period, and a large operand: every value.
        let b = bounds_of(AluOp::Fsin, false, &[(1.0, iv(-3.0, 3.5))]).unwrap();
        assert!(b.lo <= -1.0 && b.hi >= 1.0);
        // No operand interval: exactly the executor's value.
        assert_eq!(bounds_of(AluOp::Fcos, false, &[(1.0, None)]), None);
    }

    #[test]
    fn log2_and_lrp_carry_their_operands_intervals() {
        let iv = |lo: f64, hi: f64| Some(Interval::new(lo, hi));
        let b = bounds_of(AluOp::Flog2, false, &[(2.0, iv(2.0, 4.0))]).unwrap();
        assert!(b.lo <= 1.0 && b.hi >= 2.0 && b.hi < 2.001, "{b:?}");
        // lrp(a, b, t) = a (1 - t) + b t: 10 + 0.25 (20 - 10) with t in [0.25, 0.5].
        let b = bounds_of(
            AluOp::Flrp,
            false,
            &[(10.0, None), (20.0, None), (0.25, iv(0.25, 0.5))],
        )
        .unwrap();
        assert!(b.lo <= 12.5 && b.hi >= 15.0 && b.hi < 15.001, "{b:?}");
    }

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    /// `alu_bounds` of a one-lane instruction on scalar 32-bit operands.
    fn bounds_of(op: AluOp, exact: bool, args: &[(f32, Option<Interval>)]) -> Option<Interval> {
        let vals: Vec<[u64; 1]> = args.iter().map(|a| [f(a.0)]).collect();
        let ops: Vec<Operand<'_>> = vals.iter().map(|v| Operand::new(32, v)).collect();
        let b: Vec<[Option<Interval>; 1]> = args.iter().map(|a| [a.1]).collect();
        let views: Vec<&[Option<Interval>]> = b.iter().map(|x| &x[..]).collect();
        let ty = Type::new(32, 1).unwrap();
        let r = eval_alu_flagged(op, exact, ty, &ops).unwrap();
        alu_bounds(op, exact, ty, &ops, &views, &r)[0]
    }

    /// `alu_bounds` of a one-lane instruction on scalar 32-bit operands given as bits.
    fn bounds_of_bits(op: AluOp, args: &[(u64, Option<Interval>)]) -> Option<Interval> {
        let vals: Vec<[u64; 1]> = args.iter().map(|a| [a.0]).collect();
        let ops: Vec<Operand<'_>> = vals.iter().map(|v| Operand::new(32, v)).collect();
        let b: Vec<[Option<Interval>; 1]> = args.iter().map(|a| [a.1]).collect();
        let views: Vec<&[Option<Interval>]> = b.iter().map(|x| &x[..]).collect();
        let ty = Type::new(32, 1).unwrap();
        let r = eval_alu_flagged(op, false, ty, &ops).unwrap();
        alu_bounds(op, false, ty, &ops, &views, &r)[0]
    }

    #[test]
    fn float_intervals_convert_to_integer_ones_and_keep_their_domain() {
        // 200.9 within [200.8, 201.1] truncates to 200 or 201; within [200.3, 200.6]
        // to 200 only, which is exact.
        let near = Some(Interval::new(200.8, 201.1));
        let ints = bounds_of(AluOp::F2u32, false, &[(200.9, near)]);
        assert_eq!(ints, Some(Interval::integers(200.0, 201.0)));
        let far = Some(Interval::new(200.3, 200.6));
        assert_eq!(bounds_of(AluOp::F2u32, false, &[(200.4, far)]), None);
        // Integer minima keep the integers; the clamp at 200 leaves one value.
        assert_eq!(
            bounds_of_bits(AluOp::Umin, &[(200, ints), (255, None)]),
            Some(Interval::integers(200.0, 201.0))
        );
        assert_eq!(
            bounds_of_bits(AluOp::Umin, &[(200, ints), (200, None)]),
            None
        );
        // Back to a float, and a copy: the same values, in their own domain.
        assert_eq!(
            bounds_of_bits(AluOp::U2f32, &[(200, ints)]),
            Some(Interval::new(200.0, 201.0))
        );
        assert_eq!(bounds_of_bits(AluOp::Mov, &[(200, ints)]), ints);
        assert_eq!(
            bounds_of(AluOp::Mov, false, &[(200.9, near)]),
            near,
            "a copy of a float interval stays a float interval"
        );
        // Bits read as the other domain have no interval: a float operation on the
        // integer's bits, an integer one on the float's, a shift at all.
        assert_eq!(bounds_of_bits(AluOp::Fadd, &[(200, ints), (0, None)]), None);
        assert_eq!(
            bounds_of_bits(
                AluOp::Umax,
                &[(u64::from(200.9f32.to_bits()), near), (0, None)]
            ),
            None
        );
        assert_eq!(bounds_of_bits(AluOp::Ushr, &[(200, ints), (1, None)]), None);
        // An integer interval reads bits as integers.
        let i = Interval::integers(200.0, 201.0);
        assert!(accepts(BaseType::Float, 32, i, 201));
        assert!(!accepts(BaseType::Float, 32, i, 202));
        assert!(!accepts(
            BaseType::Float,
            32,
            Interval::new(200.0, 201.0),
            201
        ));
    }

    #[test]
    fn intervals_that_overflow_reach_the_infinities() {
        // 4 * [1e37, 3e38]: past the largest float from 8.5e37 on, so the interval's top
        // is +inf, its bottom 4 * 1e37 rounded.
        let big = Some(Interval::new(1.0e37, 3.0e38));
        let b = bounds_of(AluOp::Fmul, false, &[(1.0e37, big), (4.0, None)]).unwrap();
        assert_eq!((b.lo, b.hi), (f64::from(4.0e37f32), f64::INFINITY));
        assert!(accepts(
            BaseType::Float,
            32,
            b,
            u64::from(f32::MAX.to_bits())
        ));
        assert!(accepts(
            BaseType::Float,
            32,
            b,
            u64::from(f32::INFINITY.to_bits())
        ));
        assert!(!accepts(
            BaseType::Float,
            32,
            b,
            u64::from(f32::NAN.to_bits())
        ));
        // [-inf, x] + [y, +inf] meets inf - inf at a vertex: every value.
        let low = Some(Interval::new(f64::NEG_INFINITY, 1.0));
        let high = Some(Interval::new(1.0, f64::INFINITY));
        let b = bounds_of(AluOp::Fadd, false, &[(1.0, low), (1.0, high)]).unwrap();
        assert_eq!((b.lo, b.hi), (f64::NEG_INFINITY, f64::INFINITY));
        // A finite interval whose vertices stay finite is unchanged in kind.
        let b = bounds_of(AluOp::Fadd, false, &[(1.0e37, big), (-1.0e38, None)]).unwrap();
        assert!(b.lo.is_finite() && b.hi.is_finite(), "{b:?}");
    }

    #[test]
    fn an_inexact_zero_has_either_sign() {
        let z = Interval::new(0.0, 0.0);
        let zero = Some(z);
        // 0 * -1 = -0 and -0 + +0 = +0: either sign, without exact.
        assert_eq!(
            bounds_of(AluOp::Fmul, false, &[(0.0, None), (-1.0, None)]),
            zero
        );
        assert_eq!(
            bounds_of(AluOp::Fadd, false, &[(-0.0, None), (0.0, None)]),
            zero
        );
        assert_eq!(
            bounds_of(
                AluOp::Ffma,
                false,
                &[(2.0, None), (-0.0, None), (0.0, None)]
            ),
            zero
        );
        // With exact, or a non-zero result, or an op no inexact rule rewrites: exact.
        assert_eq!(
            bounds_of(AluOp::Fmul, true, &[(0.0, None), (-1.0, None)]),
            None
        );
        assert_eq!(
            bounds_of(AluOp::Fmul, false, &[(2.0, None), (-1.0, None)]),
            None
        );
        assert_eq!(
            bounds_of(AluOp::Fmin, false, &[(0.0, None), (-0.0, None)]),
            None
        );
        // -0 and +0 are both accepted by it; nothing else is.
        assert!(
            accepts(BaseType::Float, 32, z, f(-0.0)) && accepts(BaseType::Float, 32, z, f(0.0))
        );
        assert!(!accepts(BaseType::Float, 32, z, f(f32::from_bits(1))));
    }

    #[test]
    fn an_inexact_division_may_be_within_its_bound_of_the_true_quotient() {
        let q = 1.0f64 / 3.0;
        let b = bounds_of(AluOp::Fdiv, false, &[(1.0, None), (3.0, None)]).unwrap();
        let u = ulp(32, q);
        assert!((b.lo - (q - 2.5 * u)).abs() < 1e-15 && (b.hi - (q + 2.5 * u)).abs() < 1e-15);
        // The executor's own quotient is inside; an exact division adds no error.
        assert!(b.contains(f64::from(1.0f32 / 3.0)));
        assert_eq!(
            bounds_of(AluOp::Fdiv, true, &[(1.0, None), (3.0, None)]),
            None
        );
        assert!(bounds_of(AluOp::Frcp, false, &[(3.0, None)]).is_some());
        // A divisor interval spanning 0, or a divisor Vulkan does not bound: exact.
        let around_zero = Some(Interval::new(-1.0, 1.0));
        assert_eq!(
            bounds_of(AluOp::Fdiv, false, &[(1.0, None), (0.5, around_zero)]),
            None
        );
        assert_eq!(
            bounds_of(AluOp::Fdiv, false, &[(1.0, None), (1e-39, None)]),
            None
        );
    }

    #[test]
    fn intervals_follow_the_operations_at_their_vertices() {
        let one = Some(Interval::new(1.0 - 2f64.powi(-22), 1.0 + 2f64.powi(-22)));
        // fadd: both ends shift by the exact addend.
        let b = bounds_of(AluOp::Fadd, false, &[(1.0, one), (2.0, None)]).unwrap();
        assert_eq!((b.lo, b.hi), (3.0 - 2f64.powi(-22), 3.0 + 2f64.powi(-22)));
        // fmul by a negative number swaps the ends.
        let b = bounds_of(AluOp::Fmul, false, &[(1.0, one), (-2.0, None)]).unwrap();
        assert_eq!((b.lo, b.hi), (-2.0 - 2f64.powi(-21), -2.0 + 2f64.powi(-21)));
        // An exact instruction propagates its operands' intervals.
        assert!(bounds_of(AluOp::Fmul, true, &[(1.0, one), (-2.0, None)]).is_some());
        // fabs of an interval spanning 0 reaches 0; fsat clamps both ends.
        let span = Some(Interval::new(-0.5, 0.25));
        let b = bounds_of(AluOp::Fabs, false, &[(0.1, span)]).unwrap();
        assert_eq!((b.lo, b.hi), (0.0, 0.5));
        let b = bounds_of(AluOp::Fsat, false, &[(1.0, one)]).unwrap();
        assert_eq!((b.lo, b.hi), (1.0 - 2f64.powi(-22), 1.0));
        // A conversion to an integer truncates each end (1 - 2^-22 to 0); a function
        // that is not monotonic drops the interval.
        assert_eq!(
            bounds_of(AluOp::F2u32, false, &[(1.0, one)]),
            Some(Interval::integers(0.0, 1.0))
        );
        assert_eq!(bounds_of(AluOp::Ffract, false, &[(1.0, one)]), None);
        // exp2 and pow are monotonic in each operand; pow of a base spanning 0 is not.
        let b = bounds_of(AluOp::Fexp2, false, &[(1.0, Some(Interval::new(0.0, 2.0)))]).unwrap();
        assert!(b.contains(1.0) && b.contains(4.0), "{b:?}");
        let base = Some(Interval::new(0.5, 2.0));
        let b = bounds_of(AluOp::Fpow, false, &[(1.0, base), (2.0, None)]).unwrap();
        assert!(b.contains(0.25) && b.contains(4.0), "{b:?}");
        let across = Some(Interval::new(-0.5, 0.25));
        assert_eq!(
            bounds_of(AluOp::Fpow, false, &[(0.1, across), (2.0, None)]),
            None
        );
        // Exact operands of an exact op: nothing to track.
        assert_eq!(
            bounds_of(AluOp::Fadd, false, &[(1.0, None), (2.0, None)]),
            None
        );
    }

    #[test]
    fn bcsel_and_vectors_take_their_sources_intervals() {
        let iv = Some(Interval::new(0.5, 0.75));
        let (t, a, b) = ([1u64, 0], [f(0.6), f(0.6)], [f(2.0), f(2.0)]);
        let ops = [
            Operand::new(1, &t),
            Operand::new(32, &a),
            Operand::new(32, &b),
        ];
        let sb = [[None, None], [iv, iv], [None, None]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let ty = Type::new(32, 2).unwrap();
        let r = eval_alu_flagged(AluOp::Bcsel, false, ty, &ops).unwrap();
        assert_eq!(
            &alu_bounds(AluOp::Bcsel, false, ty, &ops, &views, &r)[..],
            &[iv, None]
        );
        let (x, y) = ([f(0.6)], [f(2.0)]);
        let ops = [Operand::new(32, &x), Operand::new(32, &y)];
        let sb = [[iv], [None]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let r = eval_alu_flagged(AluOp::Vec2, false, ty, &ops).unwrap();
        assert_eq!(
            &alu_bounds(AluOp::Vec2, false, ty, &ops, &views, &r)[..],
            &[iv, None]
        );
    }

    #[test]
    fn a_floats_bits_kept_as_an_integer_are_a_run_of_integers() {
        // [1.0, 1.0 + 2 ulp]: the bits 0x3f800000 to 0x3f800002, widened unsigned.
        let iv = Some(Interval::new(1.0, 1.0 + 2.0 * 2f64.powi(-23)));
        let x = [u64::from(1.0f32.to_bits())];
        let ops = [Operand::new(32, &x)];
        let sb = [[iv]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let ty = Type::new(64, 1).unwrap();
        let bits = |op: AluOp, ops: &[Operand<'_>], views: &[&[Option<Interval>]]| {
            let r = eval_alu_flagged(op, false, ty, ops).unwrap();
            alu_bounds(op, false, ty, ops, views, &r)[0]
        };
        assert_eq!(
            bits(AluOp::U2u64, &ops, &views),
            Some(Interval::integers(1065353216.0, 1065353218.0))
        );
        // [-2.0 - 1 ulp, -2.0]: magnitudes 0x40000000 and 0x40000001 under the sign
        // bit, 0x80000000 + m unsigned and m - 2^31 signed.
        let iv = Some(Interval::new(-2.0 - 2f64.powi(-22), -2.0));
        let x = [u64::from((-2.0f32).to_bits())];
        let ops = [Operand::new(32, &x)];
        let sb = [[iv]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let m = f64::from(0x4000_0000u32);
        assert_eq!(
            bits(AluOp::U2u64, &ops, &views),
            Some(Interval::integers(
                2f64.powi(31) + m,
                2f64.powi(31) + m + 1.0
            ))
        );
        assert_eq!(
            bits(AluOp::I2i64, &ops, &views),
            Some(Interval::integers(
                m - 2f64.powi(31),
                m + 1.0 - 2f64.powi(31)
            ))
        );
        // Both signs: the bits are two runs, compared exactly.
        let sb = [[Some(Interval::new(-0.5, 0.5))]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        assert_eq!(bits(AluOp::U2u64, &ops, &views), None);
        // An integer interval of negative values is kept by a sign extension only.
        let sb = [[Some(Interval::integers(-3.0, -1.0))]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let x = [(-2i32) as u32 as u64];
        let ops = [Operand::new(32, &x)];
        assert_eq!(bits(AluOp::U2u64, &ops, &views), None);
        assert_eq!(
            bits(AluOp::I2i64, &ops, &views),
            Some(Interval::integers(-3.0, -1.0))
        );
        // An inexact zero ([0, 0]: +0.0 or -0.0, bits 0 or 2^31) has no run: the
        // executor's -0.0 must not stretch one over every bit pattern in between.
        let sb = [[Some(Interval::new(0.0, 0.0))]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let x = [0x8000_0000u64];
        let ops = [Operand::new(32, &x)];
        assert_eq!(bits(AluOp::U2u64, &ops, &views), None);
        // An integer interval read unsigned that reaches 2^31: the sign extension
        // changes its values, compared exactly.
        let sb = [[Some(Interval::integers(2147482880.0, 2147484160.0))]];
        let views: Vec<&[Option<Interval>]> = sb.iter().map(|x| &x[..]).collect();
        let x = [2147483520u64];
        let ops = [Operand::new(32, &x)];
        assert_eq!(bits(AluOp::I2i64, &ops, &views), None);
        assert_eq!(
            bits(AluOp::U2u64, &ops, &views),
            Some(Interval::integers(2147482880.0, 2147484160.0))
        );
    }

    #[test]
    fn values_are_accepted_inside_their_interval_only() {
        let iv = Interval::new(1.0, 1.0 + 2f64.powi(-22));
        assert!(accepts(BaseType::Float, 32, iv, 0x3f80_0002));
        assert!(!accepts(BaseType::Float, 32, iv, 0x3f80_0003));
        assert!(!accepts(BaseType::Float, 32, iv, 0x3f7f_ffff));
        assert!(!accepts(BaseType::Float, 32, iv, 0x7fc0_0000));
    }
}
