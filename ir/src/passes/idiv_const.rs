//! Integer division by a constant (`opt-idiv-const`), NIR's `nir_opt_idiv_const` for
//! 32-bit operands.
//!
//! **Unsigned, by a divisor that is not a power of two** (`udiv`, `umod`): a
//! multiplication by a precomputed reciprocal and shifts instead of a division, which
//! Intel's Gfx12.5 and later have no instruction for (the back end would emulate it in
//! some twenty instructions). The reciprocal is Granlund and Montgomery's for every
//! 32-bit dividend ("Division by Invariant Integers using Multiplication", 1994,
//! figure 4.1): for a divisor `d` that is not a power of two, `l = ⌈log2 d⌉` and
//! `m = ⌊2^32 (2^l - d) / d⌋ + 1` (which fits 32 bits); then
//!
//! ```text
//! t = umul_high(n, m)
//! n / d = (t + ((n - t) >> 1)) >> (l - 1)
//! n % d = n - (n / d) * d
//! ```
//!
//! **Signed, by `±2^k`** (`idiv`, `irem`, `imod`; `k ≥ 1`, not `i32::MIN`): shifts of
//! the magnitude and a sign fix-up, as NIR's `build_idiv`, `build_irem` and
//! `build_imod` write them, on every platform (the math unit's signed quotient needs
//! the operands' magnitudes and a sign fix-up of its own):
//!
//! ```text
//! idiv n, ±2^k = bcsel(neg, -q, q)   q = |n| >> k (unsigned), neg = (n < 0) xor (d < 0)
//! irem n, ±2^k = n - (bcsel(n < 0, n + 2^k - 1, n) & -2^k)
//! imod n, 2^k  = n & (2^k - 1)
//! imod n, -2^k = r == 0 ? 0 : r - 2^k   r = n & (2^k - 1)
//! ```
//!
//! [`IdivConst::multiply`] off (the platforms whose math unit divides in one
//! instruction) keeps the unsigned divisions. Powers of two for `udiv`/`umod`, 0 and 1
//! are `algebraic`'s (a shift, a mask, NIR's 0); other bit sizes, signed division by
//! other constants and vectors of different divisors are left as they are.

use super::const_fold::const_components;
use super::pass::{Pass, PassError};
use crate::alu::AluOp;
use crate::builder::Builder;
use crate::function::{Cursor, Function};
use crate::shader::Shader;
use crate::types::{Src, Type};
use std::collections::HashMap;

/// The pass, `opt-idiv-const`.
#[derive(Copy, Clone, Debug)]
pub struct IdivConst {
    /// Whether unsigned division by a constant that is not a power of two becomes a
    /// multiplication by its reciprocal (NIR always does so; before Gfx12.5 the math
    /// unit's one instruction is shorter).
    pub multiply: bool,
}

impl Default for IdivConst {
    fn default() -> IdivConst {
        IdivConst { multiply: true }
    }
}

impl Pass for IdivConst {
    fn name(&self) -> &'static str {
        "opt-idiv-const"
    }

    fn run(&mut self, shader: &mut Shader) -> Result<bool, PassError> {
        let mut changed = false;
        for f in &mut shader.functions {
            changed |= idiv_const_function(f, self.multiply);
        }
        Ok(changed)
    }
}

/// The multiplier `m` and the final shift `l - 1` for divisor `d` (2 < d, not a power
/// of two).
pub fn reciprocal(d: u32) -> (u32, u32) {
    let l = 32 - (d - 1).leading_zeros();
    let m = ((1u128 << 32) * ((1u128 << l) - u128::from(d)) / u128::from(d)) + 1;
    (m as u32, l - 1)
}

fn idiv_const_function(func: &mut Function, multiply: bool) -> bool {
    let mut map = HashMap::new();
    for inst in func.insts_in_order() {
        let Some(alu) = func.inst(inst).as_alu() else {
            continue;
        };
        let (op, n, d) = match alu.op {
            AluOp::Udiv | AluOp::Umod | AluOp::Idiv | AluOp::Irem | AluOp::Imod => {
                (alu.op, alu.srcs[0], alu.srcs[1])
            }
            _ => continue,
        };
        let Some(dest) = func.inst(inst).dest else {
            continue;
        };
        let ty = func.value_type(dest);
        if ty.bit_size() != 32 {
            continue;
        }
        let Some(divisors) = const_components(func, d) else {
            continue;
        };
        let Some(&d) = divisors.first() else { continue };
        if divisors.iter().any(|&x| x != d) {
            continue;
        }
        let d = d as u32;
        let span = func.inst_span(inst);
        let mut b = Builder::new(func, Cursor::Before(inst));
        b.span = span;
        let n_comps = ty.num_components();
        let result = match op {
            AluOp::Udiv | AluOp::Umod if multiply && d >= 3 && !d.is_power_of_two() => {
                unsigned(&mut b, op, n, d, n_comps)
            }
            AluOp::Idiv | AluOp::Irem | AluOp::Imod => {
                let magnitude = (d as i32).unsigned_abs();
                if magnitude < 2 || !magnitude.is_power_of_two() || d == 0x8000_0000 {
                    continue;
                }
                signed_power_of_two(&mut b, op, n, d as i32, n_comps)
            }
            _ => continue,
        };
        map.insert(dest, result);
    }
    let changed = !map.is_empty();
    func.replace_uses(&map);
    changed
}

/// A splat of the 32-bit constant `v` over `n` components.
fn splat(b: &mut Builder<'_>, v: u32, n: u8) -> Src {
    let t = Type::new(32, n).expect("a 32-bit vector type");
    let bits: Vec<u64> = (0..n).map(|_| u64::from(v)).collect();
    Src::new(b.load_const(t, &bits))
}

/// `udiv`/`umod` by `d` (3 or more, not a power of two) through its reciprocal.
fn unsigned(b: &mut Builder<'_>, op: AluOp, n: Src, d: u32, comps: u8) -> Src {
    let (m, shift) = reciprocal(d);
    let mk = splat(b, m, comps);
    let t = Src::new(b.alu(AluOp::UmulHigh, &[n, mk]));
    let diff = Src::new(b.alu(AluOp::Isub, &[n, t]));
    let one = splat(b, 1, comps);
    let half = Src::new(b.alu(AluOp::Ushr, &[diff, one]));
    let sum = Src::new(b.alu(AluOp::Iadd, &[t, half]));
    let sh = splat(b, shift, comps);
    let q = Src::new(b.alu(AluOp::Ushr, &[sum, sh]));
    if op == AluOp::Udiv {
        return q;
    }
    let dk = splat(b, d, comps);
    let prod = Src::new(b.alu(AluOp::Imul, &[q, dk]));
    Src::new(b.alu(AluOp::Isub, &[n, prod]))
}

/// `idiv`/`irem`/`imod` by `d = ±2^k` (`k ≥ 1`, `d ≠ i32::MIN`).
fn signed_power_of_two(b: &mut Builder<'_>, op: AluOp, n: Src, d: i32, comps: u8) -> Src {
    let magnitude = d.unsigned_abs();
    let low = splat(b, magnitude - 1, comps);
    match op {
        AluOp::Idiv => {
            let abs = Src::new(b.alu(AluOp::Iabs, &[n]));
            let k = splat(b, magnitude.trailing_zeros(), comps);
            let q = Src::new(b.alu(AluOp::Ushr, &[abs, k]));
            let zero = splat(b, 0, comps);
            let mut neg = Src::new(b.alu(AluOp::Ilt, &[n, zero]));
            if d < 0 {
                neg = Src::new(b.alu(AluOp::Inot, &[neg]));
            }
            let minus = Src::new(b.alu(AluOp::Ineg, &[q]));
            Src::new(b.alu(AluOp::Bcsel, &[neg, minus, q]))
        }
        AluOp::Irem => {
            // Rounds a negative dividend towards zero before the mask.
            let zero = splat(b, 0, comps);
            let neg = Src::new(b.alu(AluOp::Ilt, &[n, zero]));
            let biased = Src::new(b.alu(AluOp::Iadd, &[n, low]));
            let t = Src::new(b.alu(AluOp::Bcsel, &[neg, biased, n]));
            let mask = splat(b, magnitude.wrapping_neg(), comps);
            let m = Src::new(b.alu(AluOp::Iand, &[t, mask]));
            Src::new(b.alu(AluOp::Isub, &[n, m]))
        }
        _ => {
            // imod takes the divisor's sign: a nonzero remainder of a negative divisor
            // is the mask's result minus 2^k.
            let r = Src::new(b.alu(AluOp::Iand, &[n, low]));
            if d > 0 {
                return r;
            }
            let dk = splat(b, d as u32, comps);
            let shifted = Src::new(b.alu(AluOp::Iadd, &[r, dk]));
            let zero = splat(b, 0, comps);
            let is_zero = Src::new(b.alu(AluOp::Ieq, &[r, zero]));
            Src::new(b.alu(AluOp::Bcsel, &[is_zero, zero, shifted]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion on plain integers, as the instructions compute it.
    fn divide(n: u32, d: u32) -> u32 {
        let (m, shift) = reciprocal(d);
        let t = ((u64::from(n) * u64::from(m)) >> 32) as u32;
        (t + ((n - t) >> 1)) >> shift
    }

    #[test]
    fn the_reciprocal_divides_every_dividend_it_is_tried_on() {
        // Divisors small and large (2^31 + 1 and u32::MAX too), dividends at the edges
        // and at multiples of the divisor and their neighbours, and a spread between.
        let divisors = [
            3u32,
            5,
            6,
            7,
            10,
            100,
            641,
            1000,
            65_537,
            0x8000_0001,
            u32::MAX - 1,
            u32::MAX,
        ];
        for &d in &divisors {
            let mut ns = vec![
                0u32,
                1,
                d - 1,
                d,
                d + 1,
                u32::MAX,
                u32::MAX - 1,
                0x8000_0000,
            ];
            for k in [2u64, 3, 1000, 123_457] {
                let m = u64::from(d) * k;
                if m < 1 << 32 {
                    ns.extend([(m - 1) as u32, m as u32]);
                }
            }
            let mut x = 0x9e37_79b9u32;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                ns.push(x);
            }
            for n in ns {
                assert_eq!(divide(n, d), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn udiv_and_umod_by_a_constant_become_multiplications() {
        let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @load_push_constant (%0) (base=0, range=4)
    32   %2 = load_const (0x00000064)
    32   %3 = udiv %1, %2
    32   %4 = umod %1, %2
    32   %5 = iadd %3, %4
    @store_ssbo (%5, %0, %0) (access=none, align_mul=4)
}
";
        let mut s = crate::parse_shader(text).unwrap();
        assert!(IdivConst::default().run(&mut s).unwrap());
        // The old divisions are unused: dce removes them.
        super::super::Dce.run(&mut s).unwrap();
        let out = crate::print_shader(&s);
        assert!(out.contains("umul_high"), "{out}");
        assert!(!out.contains("udiv") && !out.contains("umod"), "{out}");
        crate::validate::validate(&s).unwrap();
    }

    /// Runs the straight-line code of `func` with the push constant reading `n`: the
    /// value of the stored result, each instruction evaluated by `ir::eval`.
    fn run_straight_line(func: &Function, n: u32) -> u64 {
        use crate::eval::{eval_alu, Operand};
        use crate::function::InstKind;
        let mut vals: HashMap<crate::entity::Value, Vec<u64>> = HashMap::new();
        let mut stored = None;
        for i in func.insts_in_order() {
            let data = func.inst(i);
            let out: Vec<u64> = match &data.kind {
                InstKind::LoadConst(c) => c.to_vec(),
                InstKind::Alu(a) => {
                    let srcs: Vec<(u8, Vec<u64>)> = a
                        .srcs
                        .iter()
                        .map(|s| {
                            let v = &vals[&s.value];
                            let comps = (0..func.src_components(*s))
                                .map(|k| v[s.swizzle.component(k) as usize])
                                .collect();
                            (func.value_type(s.value).bit_size(), comps)
                        })
                        .collect();
                    let ops: Vec<Operand<'_>> =
                        srcs.iter().map(|(b, c)| Operand::new(*b, c)).collect();
                    let ty = func.value_type(data.dest.unwrap());
                    eval_alu(a.op, ty, &ops).unwrap().to_vec()
                }
                InstKind::Intrinsic(x) if x.op.name() == "load_push_constant" => {
                    vec![u64::from(n)]
                }
                InstKind::Intrinsic(x) => {
                    stored = Some(vals[&x.srcs[0].value][0]);
                    continue;
                }
                _ => unreachable!("straight-line test code"),
            };
            vals.insert(data.dest.unwrap(), out);
        }
        stored.unwrap()
    }

    #[test]
    fn signed_division_by_powers_of_two_matches_the_ops_on_every_edge() {
        let dividends = [
            0u32,
            1,
            2,
            3,
            7,
            8,
            9,
            0x7fff_ffff,
            0x8000_0000,
            0x8000_0001,
            0xffff_ffff,
            0xffff_fffe,
            0xffff_fff9,
            0xffff_fff8,
            0xffff_fff7,
            12_345,
            0xfffe_1dc7,
        ];
        for op in ["idiv", "irem", "imod"] {
            for d in [2i32, 4, 8, 1 << 20, 1 << 30, -2, -4, -16, -(1 << 30)] {
                let text = format!(
                    "shader compute (local_size=1,1,1)
fn main {{
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @load_push_constant (%0) (base=0, range=4)
    32   %2 = load_const (0x{:08x})
    32   %3 = {op} %1, %2
    @store_ssbo (%3, %0, %0) (access=none, align_mul=4)
}}
",
                    d as u32
                );
                let original = crate::parse_shader(&text).unwrap();
                let mut s = original.clone();
                assert!(IdivConst::default().run(&mut s).unwrap(), "{op} by {d}");
                super::super::Dce.run(&mut s).unwrap();
                crate::validate::validate(&s).unwrap();
                let out = crate::print_shader(&s);
                assert!(!out.contains(&format!(" {op} ")), "{out}");
                for &n in &dividends {
                    // The reference: i32 arithmetic, written out here.
                    let (a, b) = (n as i32, d);
                    let want = match op {
                        "idiv" => a.wrapping_div(b),
                        "irem" => a.wrapping_rem(b),
                        _ => {
                            let r = a.wrapping_rem(b);
                            if r != 0 && (r < 0) != (b < 0) {
                                r + b
                            } else {
                                r
                            }
                        }
                    } as u32;
                    assert_eq!(
                        run_straight_line(&s.functions[0], n) as u32,
                        want,
                        "{op} {n:#x}, {d}"
                    );
                    assert_eq!(run_straight_line(&original.functions[0], n) as u32, want);
                }
            }
        }
    }

    #[test]
    fn without_multiply_only_the_signed_powers_of_two_change() {
        let text = "shader compute (local_size=1,1,1)
fn main {
  block b0:
    32   %0 = load_const (0x00000000)
    32   %1 = @load_push_constant (%0) (base=0, range=4)
    32   %2 = load_const (0x00000064)
    32   %3 = udiv %1, %2
    32   %4 = load_const (0x00000003)
    32   %5 = idiv %1, %4
    32   %6 = load_const (0x00000004)
    32   %7 = idiv %1, %6
    32x3 %8 = vec3 %3, %5, %7
    @store_ssbo (%8, %0, %0) (access=none, align_mul=4)
}
";
        let mut s = crate::parse_shader(text).unwrap();
        assert!(IdivConst { multiply: false }.run(&mut s).unwrap());
        super::super::Dce.run(&mut s).unwrap();
        let out = crate::print_shader(&s);
        // The division by 100 and the signed one by 3 stay; the one by 4 is shifts.
        assert!(
            out.contains("udiv %1, %2") && out.contains("idiv %1, %4"),
            "{out}"
        );
        assert!(
            !out.contains("idiv %1, %6") && out.contains("iabs %1"),
            "{out}"
        );
        assert!(IdivConst::default().run(&mut s).unwrap());
        let out = crate::print_shader(&s);
        assert!(out.contains("umul_high"), "{out}");
    }
}
